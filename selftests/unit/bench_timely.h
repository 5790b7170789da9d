/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The TIMELY family's per-ACK benchmark body (bench.h), shared by
 * bench_timely.c, bench_timely_p.c and bench_sqcc.c, as the three modules
 * share one glue: every ACK is what cong_control runs of the core,
 * timely_on_ack() with a nanosecond sample (the completion window), and
 * when it says a decision is due timely_on_change() (the rate law when a
 * window closes, SQCC's N, and the window cap from the rate).  Not
 * counted: the config resolution (timely_cfg_resolve, once per socket),
 * the samples (dcc_sample_get's work in the kernel: all built by
 * bench_setup, so bench_ack only points at one), the kernel facts a
 * decision reads (the base RTT, the flow count, the max pacing rate:
 * constants here) and dcc_apply itself, which are kernel code.
 * The load: one flow at 100 Mbit/s (one 1448-byte packet every 116 us),
 * 10 ms base RTT, a queue that builds and drains over 40 ms plus +-200 us
 * of timestamp noise, so completions close every ~10 ms at every phase of
 * the ramp and the law takes its below-T_low, in-band and above-T_high
 * branches.  A window holds 64 KB = 46 ACKs and stays open one base RTT
 * (86 ACKs): about half the ACKs test the gate, the rest only the bytes.
 *
 * The including file defines, before #include:
 *	BENCH_TIMELY_KIND	TIMELY_LAW_GRADIENT / _PATCHED / _SQCC
 *	BENCH_TIMELY_HAI	hai_thresh (5 for TIMELY, 0 otherwise)
 *	BENCH_TIMELY_BETA_PPM	beta in ppm (module default of the variant)
 *	BENCH_TIMELY_RTT_REF_US	RTT_ref (patched TIMELY; 0 otherwise)
 *	BENCH_TIMELY_N		this host's flows to the destination (SQCC's
 *				N with the module's default N source)
 */
#ifndef _DCC_BENCH_TIMELY_H
#define _DCC_BENCH_TIMELY_H

#include "bench.h"
#include <dcc/timely.h>

#define MSS 1448
#define GAP_US 116
#define BASE_US 10000
#define SEG_BYTES 65536

/*
 * The samples of ACKs 0 .. BENCH_SAMPLES - 1 (7 MB), more than any run
 * (tools/bench-callgrind: 100000 ACKs by default); a longer run would
 * replay them with the clock stepping back (no completion after that).
 * Finding ACK i's costs bench_ack ~8 instructions the kernel does not
 * run (its sample is on cong_control's stack).
 */
#define BENCH_SAMPLES (1U << 17)

static struct timely_cfg cfg;
static struct timely_state st;
static struct dcc_decision dec;
static struct dcc_sample smp[BENCH_SAMPLES];
static u64 rate_sum, cwnd_sum;
static uint64_t seed = 42;

void bench_setup(void)
{
	/* the module defaults of the variant, as its parameters */
	struct timely_params p = {
		.t_low_us = 50, .t_high_us = 500,
		.rtt_ref_us = BENCH_TIMELY_RTT_REF_US,
		.alpha_ppm = 875000, .beta_ppm = BENCH_TIMELY_BETA_PPM,
		.delta_kbps = 10000, .seg_bytes = SEG_BYTES,
		.rate_min_kbps = 1000, .hai_thresh = BENCH_TIMELY_HAI,
		.loss_md_pct = 50,
	};

	rate_sum = cwnd_sum = 0;
	seed = 42;
	for (u32 i = 0; i < BENCH_SAMPLES; i++) {
		u64 t = (u64)i * GAP_US;
		u32 q = bench_queue_us(t);	/* queue ramps 0..8 ms and back */
		u32 rtt_ns = (BASE_US + q) * 1000 +
			     (u32)(bench_rand(&seed) % 400000);

		smp[i] = (struct dcc_sample){
			.rx_ns = t * 1000, .tx_ns = t * 1000 - rtt_ns,
			.rtt_ns = rtt_ns, .acked = 1, .acked_bytes = MSS,
			.mss = MSS,
		};
	}
	timely_cfg_resolve(&cfg, BENCH_TIMELY_KIND, &p);
	timely_on_init(&st, &cfg, 100000000 / 8, 0, BASE_US * 1000,
		       10 * MSS, MSS, DCC_RATE_MAX_BPS, &dec);
}

int __attribute__((noinline)) bench_ack(uint32_t i)
{
	const struct dcc_sample *s = &smp[i & (BENCH_SAMPLES - 1)];
	struct timely_update u;

	if (!timely_on_ack(&st, &cfg, s))
		return 0;	/* the decision in force stands */
	timely_on_change(&st, &cfg, s, BASE_US * 1000, BENCH_TIMELY_N,
			 DCC_RATE_MAX_BPS, &dec, &u);
	rate_sum += dec.rate_bytes_ps;
	cwnd_sum += dec.cwnd_bytes;
	return 1;
}

uint64_t bench_result(void)
{
	return rate_sum ^ cwnd_sum ^ st.rate;
}

#endif /* _DCC_BENCH_TIMELY_H */
