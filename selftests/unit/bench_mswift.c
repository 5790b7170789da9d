// SPDX-License-Identifier: GPL-2.0
// bench-sources: modules/swift/swift_law.c
/*
 * MSwift's per-ACK math for the userspace benchmark (bench.h), as
 * swift_cong_control runs it for "mswift": every ACK with a delay sample
 * goes into the median window of the last H = max(W/2, 1) ACKs
 * (swift_median_h, capped at h_cap 128; dcc_lib's dcc_medwin_push and
 * dcc_medwin_median on a dcc_medbuf, as swift_median_delay does), and the
 * median drives Algorithm 1 (swift_on_ack: the target with its
 * flow-scaling term swift_target_ns / swift_inv_sqrt, AI below it, MD at
 * most once per RTT above it); then swift_apply derives the pacing rate
 * and snd_cwnd from the Q16 window (swift_pacing_rate, swift_cwnd_pkts).
 * Not counted: the glue's parameter resolution (swift_cfg, resolved once
 * in bench_setup here), its segments-per-ACK EWMA (one segment per ACK
 * here), the staleness test on the window and the kernel writes.  No
 * losses: LSwift's gate and the fast-recovery and RTO cuts are not
 * per-ACK math.
 * The parameters and the load are bench_swift.h's (with the median).
 */
#define BENCH_SWIFT_MEDIAN 1
#include "bench_swift.h"
