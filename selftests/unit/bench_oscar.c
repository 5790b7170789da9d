// SPDX-License-Identifier: GPL-2.0
// bench-sources: modules/oscar/oscar_law.c
/*
 * OSCAR's per-ACK math for the userspace benchmark (bench.h): every ACK adds
 * one sample to the BLS estimator (dcc_bls_add, as oscar_cong_control does);
 * when a batch closes, the control law runs (oscar_law_step), as
 * oscar_on_batch does; and on every ACK the rate and window are derived
 * from u (oscar_rate, oscar_cwnd_bytes), as oscar_apply does.  The load:
 * one flow at 100 Mbit/s (one 1448-byte packet every 116 us), 10 ms base
 * RTT, a queue that builds and drains over 40 ms plus +-200 us of
 * timestamp noise, so batches close every tau = RTT_base/2 and the law
 * visits its branches.
 */
#include "bench.h"
#include <dcc/oscar.h>

#define MSS 1448
#define GAP_US 116
#define BASE_US 10000

static struct dcc_bls bls;
static struct dcc_bls_cfg cfg;
static struct oscar_law_cfg law;
static u32 u = OSCAR_U_ONE / 2;
static u64 rate_sum, cwnd_sum;
static uint64_t seed = 42;

void bench_setup(void)
{
	law = (struct oscar_law_cfg){
		.mu_bytes_ps = 100000000 / 8, .base_us = BASE_US, .dt_us = BASE_US * 3 / 2,
		.eps_us = BASE_US / 12, .hyst_us = 0,
		.u_ai = OSCAR_PPM_TO_U(1000), .u_hai = OSCAR_PPM_TO_U(10000),
		.u_min = OSCAR_PPM_TO_U(1000),
	};
	cfg = (struct dcc_bls_cfg){
		.tau = BASE_US / 2, .stale = 0, .units_per_sec = 1000000,
		.min_samples = OSCAR_MIN_SAMPLES_DEFAULT, .bytes_per_pkt = MSS,
		.shift = dcc_bls_shift_for(BASE_US / 2),
	};
	dcc_bls_reset(&bls);
}

void __attribute__((noinline)) bench_ack(uint32_t i)
{
	u64 t = (u64)i * GAP_US;
	u32 q = bench_queue_us(t);	/* queue ramps 0..8 ms and back */
	struct dcc_bls_sample s = {
		.send_ts = t,
		.delay = BASE_US + q + bench_rand(&seed) % 400,
		.pkts = 1,
		.infl = 90,
	};
	struct dcc_bls_out out;
	struct oscar_decision d;

	if (dcc_bls_add(&bls, &cfg, &s, &out)) {
		oscar_law_step(&law, &out, u, false, &d);
		u = d.u;
	}
	rate_sum += oscar_rate(&law, u);
	cwnd_sum += oscar_cwnd_bytes(&law, u);
}

uint64_t bench_result(void)
{
	return rate_sum ^ cwnd_sum ^ u;
}
