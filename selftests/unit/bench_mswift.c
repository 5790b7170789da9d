// SPDX-License-Identifier: GPL-2.0
// bench-sources: modules/swift/swift_law.c
/*
 * MSwift's per-ACK cost for the userspace benchmark (bench.h): swift_on_ack()
 * of the core with the SWIFT_LAZY | SWIFT_MEDIAN variant bits, as
 * swift_cong_control runs it for "mswift": each delay goes into the median
 * window of the last H = max(W/2, 1) ACKs (swift_median_h, capped at h_cap
 * 128; dcc_lib's dcc_medwin_push and dcc_medwin_median on a heap
 * dcc_medbuf) after the staleness test, and the median drives Algorithm 1;
 * then swift_decide's pacing rate and window.  No losses: LSwift's gate,
 * the SACK-hole cut and the RTO are not exercised.  The parameters and the
 * load are bench_swift.h's (with the median).
 */
#define BENCH_SWIFT_MEDIAN 1
#include "bench_swift.h"
