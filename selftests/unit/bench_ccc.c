// SPDX-License-Identifier: GPL-2.0
/*
 * CCC's per-ACK core for the userspace benchmark (bench.h), as
 * ccc_cong_control runs it: the law is included, as tcp_ccc.c includes
 * it, and every ACK is one inline ccc_ack() (ccc_on_ack()) on a dcc_sample
 * in ns (Itv from the sample clock, the batched least-squares delay
 * gradient q_v -- its slope from dcc_lib's dcc_bls_slope_q16 when a batch
 * closes --, v_ai, delta-hat with eq. 10's log2 (dcc_log2_q16), the
 * region, the S records, the analytical or probing step) and its
 * decision (rate, cwnd cap from ccc_cwnd_bytes) when it changed.  Not
 * counted: making the samples (dcc_sample_get() in the kernel; here
 * bench_setup() makes them all, with the round starts, before the first
 * ACK), the glue's config resolution (ccc_params_init and
 * ccc_cfg_resolve, once in bench_setup here; in the kernel once per
 * socket and once per RTT round), its delivered-based round bookkeeping
 * and the kernel writes.
 * Parameters: the module defaults (gamma 0.2, under-utilised below 5 % of
 * RTT_min, q_v batches of >= 8 ACKs spanning >= RTT_min / 4, n_ai <= 10,
 * cwnd gain 100 %, start at R_l) with line_rate_mbps = 100, as tools/bench
 * sets it, except q_B = 2 ms: then 4 q_B is the ramp's 8 ms top and all
 * six regions occur; with the default 50 us the queue is above 4 q_B
 * nearly all the time and 99 % of the ACKs are H_2^d.
 * The load: one flow at 100 Mbit/s (one 1448-byte packet every 116 us,
 * one packet per ACK, Itv 116 us, one round per RTT), 10 ms base RTT, a
 * queue that builds and drains over 40 ms plus +-200 us of timestamp
 * noise, so q_v batches close every ~2.6 ms with either sign.  The first
 * BENCH_N (2^17) ACKs are made; ACK i replays sample i % BENCH_N (more than
 * BENCH_N ACKs step the clock back: keep --acks at or below it).
 */
#include "bench.h"
#include "../../modules/ccc/ccc_law.c"

#define MSS 1448
#define GAP_US 116
#define BASE_US 10000
#define LINE_BPS (100000000 / 8)
#define QB_US 2000

#define BENCH_N (1 << 17)	/* >= bench_main's default ACK count */

static struct ccc_params prm;
static struct ccc_cfg cfg;
static struct ccc_state st;
static u64 rate_sum, cwnd_sum;
static struct dcc_sample smp[BENCH_N];
static bool round_start[BENCH_N];

/* the synthetic load, and the glue's rounds on it */
static void bench_make_samples(void)
{
	uint64_t seed = 42;
	u64 next_round_us = 0;

	for (u32 i = 0; i < BENCH_N; i++) {
		u64 t = (u64)i * GAP_US;
		u32 q = bench_queue_us(t);	/* queue ramps 0..8 ms and back */
		u32 rtt_us = BASE_US + q + (u32)(bench_rand(&seed) % 400);

		smp[i] = (struct dcc_sample){
			.rx_ns = t * 1000,
			.tx_ns = (t - rtt_us) * 1000,
			.rtt_ns = rtt_us * 1000,
			.acked = 1,
			.acked_bytes = MSS,
			.mss = MSS,
		};
		round_start[i] = t >= next_round_us;
		if (round_start[i])
			next_round_us = t + rtt_us;
	}
}

void bench_setup(void)
{
	struct ccc_knobs k = ccc_knobs_default();

	rate_sum = cwnd_sum = 0;
	bench_make_samples();
	k.q_b_us = QB_US;
	ccc_params_init(&prm, &k);
	ccc_cfg_resolve(&cfg, &prm, LINE_BPS, BASE_US * 1000, MSS, ~0ULL);
	ccc_state_init(&st, &cfg, LINE_BPS);
}

int __attribute__((__noinline__)) bench_ack(uint32_t i)
{
	struct dcc_decision d;
	u32 n = i % BENCH_N;

	ccc_ack(&st, &cfg, &smp[n], round_start[n], &d, NULL);
	if (!d.changed)
		return 0;
	rate_sum += d.rate_bytes_ps;
	cwnd_sum += d.cwnd_bytes;
	return 1;
}

uint64_t bench_result(void)
{
	return rate_sum ^ cwnd_sum ^ st.rate;
}
