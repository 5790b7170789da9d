// SPDX-License-Identifier: GPL-2.0
// bench-sources: modules/nscc/nscc_law.c
/*
 * MNSCC's per-ACK math for the userspace benchmark (bench.h), as
 * nscc_cong_control runs it for "mnscc": nscc_on_ack on a ns sample
 * with MNSCC's median filter (hmax 4: the window H = max(min(W/2, 4), 1)
 * from nscc_median_h, the law's 4-slot ring and its lower median as the
 * decision delay; then byte counters, the delay EWMA of the raw samples,
 * quick adapt, the four quadrants with fast increase, the batched credit
 * applied at fulfill, eta once per network RTT, MD at most once per base
 * RTT, and the pacing rate when the decision changes).  ECN not
 * negotiated: the delay mark is taken on the median.  Body, parameters
 * and load: bench_nscc.h.
 */
#define BENCH_NSCC_MEDIAN true
#include "bench_nscc.h"
