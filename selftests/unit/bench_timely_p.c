// SPDX-License-Identifier: GPL-2.0
// bench-sources: modules/timely/timely_law.c
/*
 * Patched TIMELY's ("timely_p") per-ACK math for the userspace benchmark
 * (bench.h), as timely_p_cong_control runs it (tcp_timely_p.c: the TIMELY
 * glue built with TIMELY_VARIANT = TV_PATCHED): law kind
 * TIMELY_LAW_PATCHED (Alg. 2's w(g) blend with the RTT_ref error, no HAI).
 * Parameters: the module defaults (T_low 50 us, T_high 500 us relative to
 * the base RTT, RTT_ref 50 us, alpha 0.875, beta 0.008, delta 10 Mbit/s,
 * seg 64 KB, D_minRTT = base RTT, no link_mbps).
 * The body is bench_timely.h's (shared by the three TIMELY variants).
 */
#define BENCH_TIMELY_KIND	TIMELY_LAW_PATCHED
#define BENCH_TIMELY_HAI	0
#define BENCH_TIMELY_BETA_PPM	8000
#define BENCH_TIMELY_RTT_REF_US	50
#define BENCH_TIMELY_N		1
#include "bench_timely.h"
