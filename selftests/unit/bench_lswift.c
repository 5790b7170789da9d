// SPDX-License-Identifier: GPL-2.0
// bench-sources: modules/swift/swift_law.c
/*
 * LSwift's ("lswift") per-ACK math for the userspace benchmark (bench.h).
 * tcp_swift registers lswift with the same cong_control as swift; per ACK
 * it runs exactly Swift's Algorithm 1 and swift_apply.  LSwift's change
 * ([M] III-B) is on the loss path only: a SACK-detected loss cuts the
 * window only after lswift_k successive missing segments (swift_lazy_gate,
 * O(lswift_k) skbs, once per recovery episode), so it is not per-ACK math
 * and the count equals swift's by construction.  Listed so the benchmark
 * reports a measured figure for every registered name.  The body and its
 * load are bench_swift.h's.
 */
#include "bench_swift.h"
