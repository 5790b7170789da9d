// SPDX-License-Identifier: GPL-2.0
// bench-sources: modules/nscc/nscc_law.c
/*
 * NSCC's per-ACK math for the userspace benchmark (bench.h), as
 * nscc_cong_control runs it for "nscc": nscc_on_ack on a ns sample
 * (byte counters, the delay EWMA, quick adapt, the four quadrants with
 * fast increase, the batched credit applied at fulfill, eta once per
 * network RTT, MD at most once per base RTT, the pacing rate when the
 * decision changes).  Body, parameters and load: bench_nscc.h.
 */
#define BENCH_NSCC_MEDIAN false
#include "bench_nscc.h"
