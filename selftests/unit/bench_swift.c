// SPDX-License-Identifier: GPL-2.0
// bench-sources: modules/swift/swift_law.c
/*
 * Swift's per-ACK math for the userspace benchmark (bench.h), as
 * swift_cong_control runs it for "swift": every ACK with a delay sample
 * runs Algorithm 1 (swift_on_ack: the target with its flow-scaling term
 * swift_target_ns / swift_inv_sqrt, AI below it, MD by
 * beta (delay - target) / delay at most once per RTT above it), then
 * swift_apply derives the pacing rate and snd_cwnd from the Q16 window
 * (swift_pacing_rate, swift_cwnd_pkts).  Not counted: the glue's
 * parameter resolution (swift_cfg, resolved once in bench_setup here),
 * its segments-per-ACK EWMA and the kernel writes.  No losses: the
 * fast-recovery and RTO cuts (swift_on_fast_recovery, swift_on_rto) are
 * not per-ACK math.  The body and its load are bench_swift.h's.
 */
#include "bench_swift.h"
