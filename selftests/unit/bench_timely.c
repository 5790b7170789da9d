// SPDX-License-Identifier: GPL-2.0
// bench-sources: modules/timely/timely_law.c
/*
 * TIMELY's per-ACK math for the userspace benchmark (bench.h), as
 * timely_cong_control runs it (tcp_timely.c built with TIMELY_VARIANT =
 * TV_TIMELY): law kind TIMELY_LAW_GRADIENT with HAI after 5 events.
 * Parameters: the module defaults (T_low 50 us, T_high 500 us relative to
 * the base RTT, alpha 0.875, beta 0.8, delta 10 Mbit/s, seg 64 KB,
 * D_minRTT = base RTT, no link_mbps).
 * The body is bench_timely.h's (shared by the three TIMELY variants).
 */
#define BENCH_TIMELY_KIND	TIMELY_LAW_GRADIENT
#define BENCH_TIMELY_HAI	5
#define BENCH_TIMELY_BETA_PPM	800000
#define BENCH_TIMELY_RTT_REF_US	0
#define BENCH_TIMELY_N		1
#include "bench_timely.h"
