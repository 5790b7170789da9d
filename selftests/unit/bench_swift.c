// SPDX-License-Identifier: GPL-2.0
// bench-sources: modules/swift/swift_law.c
/*
 * Swift's per-ACK cost for the userspace benchmark (bench.h): what
 * swift_cong_control runs for "swift", swift_on_ack() of the core
 * (modules/swift/swift_law.c) on each ACK's dcc_sample -- the
 * segments-per-ACK EWMA, Algorithm 1 with its flow-scaled target
 * (swift_target_ns / swift_inv_sqrt), AI below it, MD by
 * beta (delay - target) / delay at most once per RTT above it, then
 * swift_decide's pacing rate and window.  The configuration is converted
 * once (swift_cfg_init), as the module does per parameter set.  No
 * losses: the SACK-hole cut and the RTO are not exercised.  The body and
 * its load are bench_swift.h's.
 */
#include "bench_swift.h"
