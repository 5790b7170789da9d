// SPDX-License-Identifier: GPL-2.0
// bench-sources: modules/swift/swift_law.c
/*
 * LSwift's ("lswift") per-ACK cost for the userspace benchmark (bench.h):
 * swift_on_ack() of the core with the SWIFT_LAZY variant bit.  LSwift's
 * change ([M] III-B) is on the loss path only: a SACK-detected loss cuts
 * the window only after lswift_k successive missing segments (the glue
 * counts them, O(lswift_k) skbs, only on an ACK that marks losses), so on
 * this loss-free load the count equals swift's.  Listed so the benchmark
 * reports a measured figure for every registered name.  The body and its
 * load are bench_swift.h's.
 */
#define BENCH_SWIFT_LAZY 1
#include "bench_swift.h"
