// SPDX-License-Identifier: GPL-2.0
// bench-sources: modules/oscar/oscar_law.c
/*
 * OSCAR's per-ACK core for the userspace benchmark (bench.h): every ACK is
 * one struct dcc_sample (ns) handed to oscar_on_ack(), exactly what
 * oscar_cong_control() does between dcc_sample_get() and applying the
 * decision: batching, and the law, rate and window when a batch closes
 * (the ACKs that return 1).  The samples are made by bench_setup(), so
 * only the core's work is counted.  The
 * load: one flow at 100 Mbit/s (one 1448-byte packet every 116 us), 10 ms
 * base RTT, a queue that builds and drains over 40 ms plus +-200 us of
 * timestamp noise, so batches close every tau = RTT_base/2 and the law
 * visits its branches.  The glue's per-batch refresh (kernel lookups) is
 * not part of it.
 */
#include "bench.h"
#include <dcc/oscar.h>

#define MSS 1448
#define GAP_US 116
#define BASE_US 10000
/* samples precomputed by bench_setup(): the run's ACKs (100000 by default) */
#define NSAMPLES (1U << 17)

static struct oscar_params params;
static struct oscar_cfg cfg;
static struct oscar_core st;
static u64 rate_sum, cwnd_sum, batches;
/*
 * 64-byte slots: the kernel's sample is on the stack, its address free;
 * here it costs a shift and an add, not a multiply by 56.
 */
static struct bench_sample {
	struct dcc_sample s;
} __attribute__((aligned(64))) samples[NSAMPLES];

/* ACK @i's sample: the load, generated outside the counted per-ACK work */
static void bench_sample(u32 i, uint64_t *seed)
{
	u64 t = (u64)i * GAP_US;
	u32 q = bench_queue_us(t);	/* queue ramps 0..8 ms and back */
	u32 rtt_us = BASE_US + q + bench_rand(seed) % 400;
	struct dcc_sample *s = &samples[i].s;

	*s = (struct dcc_sample){
		.tx_ns = t * 1000,
		.rtt_ns = rtt_us * 1000,
		.acked = 1, .acked_bytes = MSS, .mss = MSS,
		.infl_pkts = 90,
	};
	s->rx_ns = s->tx_ns + s->rtt_ns;
}

void bench_setup(void)
{
	uint64_t seed = 42;
	u32 i;

	rate_sum = cwnd_sum = batches = 0;
	for (i = 0; i < NSAMPLES; i++)
		bench_sample(i, &seed);
	params = (struct oscar_params){
		.u_ai = OSCAR_PPM_TO_U(1000), .u_hai = OSCAR_PPM_TO_U(10000),
		.u_min = OSCAR_PPM_TO_U(1000), .eps_ns = 0, .hyst_ns = 0,
		.dt_pct = 150, .tau_pct = 50,
		.min_samples = OSCAR_MIN_SAMPLES_DEFAULT,
	};
	oscar_cfg_resolve(&cfg, &params, 100000000 / 8, dcc_us_to_ns(BASE_US), 0);
	oscar_core_init(&st, &params);
	st.u = OSCAR_U_ONE / 2;
}

int __attribute__((noinline)) bench_ack(uint32_t i)
{
	struct dcc_decision d;
	struct oscar_batch b;

	oscar_on_ack(&st, &cfg, &samples[i % NSAMPLES].s, &d, &b);
	if (!d.changed)
		return 0;
	batches += d.flags & OSCAR_D_BATCH;
	rate_sum += d.rate_bytes_ps;
	cwnd_sum += d.cwnd_bytes;
	return 1;
}

uint64_t bench_result(void)
{
	return rate_sum ^ cwnd_sum ^ st.u ^ batches;
}
