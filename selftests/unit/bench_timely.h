/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The TIMELY family's per-ACK benchmark body (bench.h), shared by
 * bench_timely.c, bench_timely_p.c and bench_sqcc.c, as the three modules
 * share one glue: every ACK goes into the completion-event window
 * (timely_win_add, rtt_filter=min); when a window closes (>= seg_bytes
 * acked and >= D_minRTT elapsed), the rate law runs once
 * (timely_law_update, of the kind the including file names); and on every
 * ACK the window cap is derived from the rate (timely_cwnd_bytes, what
 * timely_apply hands dcc_apply).  Not counted: the glue's parameter
 * resolution (timely_cfg, resolved once in bench_setup here) and
 * dcc_apply itself, which are kernel code.
 * The load: one flow at 100 Mbit/s (one 1448-byte packet every 116 us),
 * 10 ms base RTT, a queue that builds and drains over 40 ms plus +-200 us
 * of timestamp noise, so completions close every ~10 ms at every phase of
 * the ramp and the law takes its below-T_low, in-band and above-T_high
 * branches.
 *
 * The including file defines, before #include:
 *	BENCH_TIMELY_KIND	TIMELY_LAW_GRADIENT / _PATCHED / _SQCC
 *	BENCH_TIMELY_HAI	hai_thresh (5 for TIMELY, 0 otherwise)
 *	BENCH_TIMELY_BETA_PPM	beta in ppm (module default of the variant)
 *	BENCH_TIMELY_RTT_REF_US	RTT_ref (patched TIMELY; 0 otherwise)
 *	BENCH_TIMELY_N		the incast degree N passed to the law
 */
#ifndef _DCC_BENCH_TIMELY_H
#define _DCC_BENCH_TIMELY_H

#include "bench.h"
#include <dcc/timely.h>

#define MSS 1448
#define GAP_US 116
#define BASE_US 10000
#define SEG_BYTES 65536

static struct timely_law_cfg cfg;
static struct timely_law_state law;
static struct timely_win win;
static u64 rate_sum, cwnd_sum;
static uint64_t seed = 42;

void bench_setup(void)
{
	cfg = (struct timely_law_cfg){
		.kind = BENCH_TIMELY_KIND, .hai_thresh = BENCH_TIMELY_HAI,
		.relative = true, .t_low_us = 50, .t_high_us = 500,
		.rtt_ref_us = BENCH_TIMELY_RTT_REF_US, .base_us = BASE_US,
		.dmin_us = BASE_US,
		.alpha_q16 = TIMELY_PPM_TO_Q16(875000),
		.beta_q20 = TIMELY_PPM_TO_Q20(BENCH_TIMELY_BETA_PPM),
		.delta_bytes_ps = 10000ULL * 125, .link_bytes_ps = 0,
		.rate_min_bytes_ps = 1000ULL * 125, .rate_max_bytes_ps = DCC_RATE_MAX_BPS,
	};
	law = (struct timely_law_state){ .rate = 100000000 / 8 };
	timely_win_reset(&win, 0);
}

void __attribute__((noinline)) bench_ack(uint32_t i)
{
	u64 t = (u64)i * GAP_US;
	u32 q = bench_queue_us(t);	/* queue ramps 0..8 ms and back */
	u32 rtt = BASE_US + q + (u32)(bench_rand(&seed) % 400);
	struct timely_win_out wo;
	struct timely_law_out o;

	if (timely_win_add(&win, (u32)t, rtt, false, MSS, SEG_BYTES,
			   cfg.dmin_us, true, &wo)) {
		timely_law_update(&cfg, &law, wo.rtt_us, BENCH_TIMELY_N, false, &o);
		rate_sum += law.rate;
	}
	cwnd_sum += timely_cwnd_bytes(&cfg, law.rate, MSS);
}

uint64_t bench_result(void)
{
	return rate_sum ^ cwnd_sum ^ law.rate;
}

#endif /* _DCC_BENCH_TIMELY_H */
