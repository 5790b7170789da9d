// SPDX-License-Identifier: GPL-2.0
// bench-sources: modules/ccc/ccc_law.c
/*
 * CCC's per-ACK math for the userspace benchmark (bench.h), as
 * ccc_cong_control runs it: every ACK runs one step of Algorithm 1
 * (ccc_on_ack: the batched least-squares delay gradient q_v -- its slope
 * from dcc_lib's dcc_bls_slope_q16 when a batch closes --, v_ai, delta-hat
 * with eq. 10's log2 (dcc_log2_q16), the region, the S records and the
 * analytical or probing step), then ccc_apply derives the cwnd cap from
 * the rate (ccc_cwnd_bytes).  Not counted: the glue's parameter
 * resolution (ccc_cfg_of, resolved once in bench_setup here), its
 * delivered-based round bookkeeping and the kernel writes.
 * Parameters: the module defaults (gamma 0.2, under-utilised below 5 % of
 * RTT_min, q_v batches of >= 8 ACKs spanning >= RTT_min / 4, n_ai <= 10,
 * cwnd gain 100 %, start at R_l) with line_rate_mbps = 100, as tools/bench
 * sets it, except q_B = 2 ms: then 4 q_B is the ramp's 8 ms top and all
 * six regions occur (of 100000 ACKs, ~10k A^i, 22k A^d, 18k H_1^i,
 * 2k H_2^i, 2k H_1^d, 46k H_2^d); with the default 50 us the queue is
 * above 4 q_B nearly all the time and 99 % of the ACKs are H_2^d.
 * The load: one flow at 100 Mbit/s (one 1448-byte packet every 116 us,
 * one packet per ACK, Itv 116 us, one round per RTT), 10 ms base RTT, a
 * queue that builds and drains over 40 ms plus +-200 us of timestamp
 * noise, so q_v batches close every ~2.6 ms with either sign.
 */
#include "bench.h"
#include <dcc/ccc.h>

#define MSS 1448
#define GAP_US 116
#define BASE_US 10000
#define LINE_BPS (100000000 / 8)
#define QB_US 2000

static struct ccc_cfg cfg;
static struct ccc_state st;
static u64 next_round_us, rate_sum, cwnd_sum;
static uint64_t seed = 42;

void bench_setup(void)
{
	cfg = (struct ccc_cfg){
		.line_bytes_ps = LINE_BPS,
		.r_min = max_t(u64, LINE_BPS >> 10, 2ULL * MSS * 1000000 / BASE_US),
		.r_max = LINE_BPS,
		.qb_us = QB_US,
		.rttmin_us = BASE_US,
		.ut_us = BASE_US * 5 / 100,
		.span_us = BASE_US * 26 / 100,	/* span_pct 25, stored as 13 */
		.gamma_q16 = (20 << CCC_Q) / 100,
		.l2qb = dcc_log2_q16(QB_US << CCC_L2_SHIFT),
		.qv_near = (5 << CCC_Q) / 100,
		.min_samples = 8,
		.n_ai_max = 10,
	};
	ccc_state_init(&st, &cfg, LINE_BPS);
}

void __attribute__((noinline)) bench_ack(uint32_t i)
{
	u64 t = (u64)i * GAP_US;
	u32 q = bench_queue_us(t);	/* queue ramps 0..8 ms and back */
	struct ccc_ack a = {
		.rx_us = (u32)t,
		.rtt_us = BASE_US + q + (u32)(bench_rand(&seed) % 400),
		.itv_us = i ? GAP_US : 0,
		.acked_bytes = MSS,
		.pkts = 1,
		.round_start = t >= next_round_us,
	};
	struct ccc_decision d;

	if (a.round_start)
		next_round_us = t + a.rtt_us;
	ccc_on_ack(&st, &cfg, &a, &d);
	rate_sum += st.rate;
	cwnd_sum += ccc_cwnd_bytes(&cfg, st.rate, 100);
}

uint64_t bench_result(void)
{
	return rate_sum ^ cwnd_sum ^ st.rate;
}
