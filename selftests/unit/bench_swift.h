// SPDX-License-Identifier: GPL-2.0
/*
 * The per-ACK body shared by bench_swift.c, bench_lswift.c and
 * bench_mswift.c (bench.h): exactly what swift_cong_control hands the core
 * on every ACK, swift_on_ack() on a dcc_sample (MSwift's segments-per-ACK
 * EWMA, the SACK-hole step -- no loss here --, the delay step with
 * MSwift's median window and its staleness rule, Algorithm 1 with the
 * flow-scaled target, then, when the decision moved, swift_decide's
 * pacing rate and window; bench_ack() returns d.changed).  The load's
 * samples and swift_in are computed in bench_setup(), so only the core is
 * counted.  Not counted: the glue's kernel reads (dcc_sample_get, the
 * swift_in fields) and, on a changed decision, writes (snd_cwnd,
 * sk_pacing_rate, the pacing-stamp bound).  swift
 * and lswift run the same per-ACK code (LSwift's gate reads in->missing
 * only on an ACK with losses, which this loss-free load never has).  With
 * BENCH_SWIFT_MEDIAN defined (MSwift) each delay goes through the median
 * window of the last H = max(W/2, 1) ACKs (h_cap 128; a dcc_medbuf on the
 * heap, as the module's).
 * Parameters: the module defaults (relative target = base RTT + 25 us,
 * flow scaling 125 us between 0.1 and 100 packets, ai 1 packet per RTT,
 * beta 0.8, max_mdf 0.5, init_cwnd 10, pacing 200 % of cwnd / srtt),
 * converted once by swift_cfg_init as the module does per parameter set.
 * The load: one flow at 100 Mbit/s (one 1448-byte packet every 116 us,
 * one packet per ACK, always cwnd-limited), 10 ms base RTT, a queue that
 * builds and drains over 40 ms plus +-200 us of timestamp noise (srtt:
 * the noiseless RTT), so the law adds while the queue is near empty and
 * cuts or holds (once per RTT) while it is not.
 */
#ifndef DCC_BENCH_SWIFT_H
#define DCC_BENCH_SWIFT_H

#include "bench.h"
#include <dcc/swift.h>

#define MSS 1448
#define GAP_US 116
#define BASE_US 10000
#define NLOAD (1U << 17)	/* precomputed ACKs (>= the tool's 100000) */

static struct swift_cfg cfg;
static struct swift_core st;
static u64 rate_sum, cwnd_sum;
static struct swift_in load_in[NLOAD];
static struct dcc_sample load_s[NLOAD];

/* ACK i of the load: what the glue reads from the socket and the sample */
static void bench_load(u32 i, uint64_t *seed)
{
	u64 t = (u64)i * GAP_US;
	u32 q = bench_queue_us(t);	/* queue ramps 0..8 ms and back */
	u32 srtt = BASE_US + q;
	u32 rtt_us = srtt + (u32)(bench_rand(seed) % 400);

	load_in[i] = (struct swift_in){
		.now_ns = t * 1000, .srtt_ns = (u64)srtt * 1000,
		.base_ns = BASE_US * 1000ULL, .cwnd_clamp = U32_MAX,
		.cwnd_limited = true,
	};
	load_s[i] = (struct dcc_sample){
		.rx_ns = t * 1000, .tx_ns = t * 1000 - (u64)rtt_us * 1000,
		.rtt_ns = rtt_us * 1000, .acked = 1, .acked_bytes = MSS, .mss = MSS,
	};
}

void bench_setup(void)
{
	const struct swift_params p = {
		.base_target_us = 25, .target_mode = 0, .hops = 0, .hop_us = 4,
		.fs_range_us = 125, .fs_min_cwnd_mpkt = 100, .fs_max_cwnd = 100,
		.ai_mpkt = 1000, .beta_pm = 800, .max_mdf_pm = 500,
		.min_cwnd_mpkt = 1, .init_cwnd = 10, .retx_reset = 5,
		.lswift_k = 5, .h_cap = 128, .pctl = 50, .pacing_pct = 200,
	};
	uint64_t seed = 42;
	struct dcc_decision d;

	/* the load first, outside the count: bench_ack() only replays it */
	for (u32 i = 0; i < NLOAD; i++)
		bench_load(i, &seed);
	rate_sum = cwnd_sum = 0;
	swift_core_release(&st);	/* a replay's setup: the last run's buffer */
	swift_cfg_init(&cfg, &p);
#ifdef BENCH_SWIFT_MEDIAN
	swift_core_init(&st, &cfg, SWIFT_LAZY | SWIFT_MEDIAN, U32_MAX);
#elif defined(BENCH_SWIFT_LAZY)
	swift_core_init(&st, &cfg, SWIFT_LAZY, U32_MAX);
#else
	swift_core_init(&st, &cfg, 0, U32_MAX);
#endif
	/* swift_init's decision */
	swift_decide(&st, &cfg, &load_in[0], MSS, &d);
	rate_sum += d.rate_bytes_ps;
	cwnd_sum += d.cwnd_bytes;
}

int __attribute__((noinline)) bench_ack(uint32_t i)
{
	struct dcc_decision d;

	i &= NLOAD - 1;
	swift_on_ack(&st, &cfg, &load_in[i], &load_s[i], &d);
	if (!d.changed)
		return 0;
	rate_sum += d.rate_bytes_ps;
	cwnd_sum += d.cwnd_bytes;
	return 1;
}

uint64_t bench_result(void)
{
	return rate_sum ^ cwnd_sum ^ st.cwnd;
}

#endif /* DCC_BENCH_SWIFT_H */
