// SPDX-License-Identifier: GPL-2.0
// bench-sources: modules/timely/timely_law.c
/*
 * SQCC's per-ACK math for the userspace benchmark (bench.h), as
 * sqcc_cong_control runs it (tcp_sqcc.c: the TIMELY glue built with
 * TIMELY_VARIANT = TV_SQCC): law kind TIMELY_LAW_SQCC (k, T_low and delta
 * from N (timely_sqcc_k/_t_low/_delta), Eq. 16's error in the blend, no
 * HAI).  Parameters: the module defaults (T_low 50 us, T_high 500 us
 * relative to the base RTT, alpha 0.875, beta 0.008, delta0 10 Mbit/s,
 * seg 64 KB, D_minRTT = base RTT, no link_mbps, so n_source auto is
 * "local": N is this host's sqcc flows to the destination, 1 here, and
 * the sender-side N estimate (timely_n_sample, timely_nest_push), which
 * needs link_mbps, does not run -- as in tools/bench, which sets no
 * link_mbps).
 * The body is bench_timely.h's (shared by the three TIMELY variants).
 */
#define BENCH_TIMELY_KIND	TIMELY_LAW_SQCC
#define BENCH_TIMELY_HAI	0
#define BENCH_TIMELY_BETA_PPM	8000
#define BENCH_TIMELY_RTT_REF_US	0
#define BENCH_TIMELY_N		1
#include "bench_timely.h"
