/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NSCC's per-ACK benchmark body (bench.h), shared by bench_nscc.c and
 * bench_mnscc.c as the two CCs share tcp_nscc's glue: every ACK is a
 * struct dcc_sample in ns, fed to the one per-ACK entry point nscc_on_ack()
 * (the law, and the pacing rate and window it returns).  The configuration
 * is resolved once, in setup, as the glue does at socket init (and again
 * only when the base RTT, MSS or ECN change, which this load never does).
 * Counted: what tcp_nscc.c's cong_control runs around it in plain C (the
 * kernel's srtt, us << 3, to ns) and nscc_on_ack(); a changed decision's
 * application (dcc_apply()) is the kernel's.  Not counted: the samples,
 * generated in setup (dcc_sample_get() fills them in the kernel), with the
 * stack's srtt (its 1/8 EWMA of the samples' RTTs) next to each, and the
 * glue's input-change check and the kernel writes.
 * Parameters: the module defaults except nic_mbps = 100 (the load's link,
 * so maxwnd and the gains are those of a 100 Mbit/s flow; the default is
 * the 100 Gbit/s UE reference NIC) and target_pct = 40 (a 4 ms target
 * queueing delay in the middle of the ramp; the default 100 % of a 10 ms
 * network RTT lies above the ramp's 8 ms top and would keep the law in
 * one quadrant).  ECN not negotiated: a delay >= target is the mark
 * (noecn_mark_pct 100).
 * The load: one flow at 100 Mbit/s (one 1448-byte packet every 116 us,
 * one packet per ACK, always cwnd-limited), 10 ms base RTT, a queue that
 * builds and drains over 40 ms plus +-200 us of timestamp noise, so the
 * law takes fast and proportional increase below the target and the
 * delay-marked MD above it.
 *
 * The including file defines BENCH_NSCC_MEDIAN: false (nscc) or true
 * (mnscc: nscc_resolve's median flag).
 */
#ifndef _DCC_BENCH_NSCC_H
#define _DCC_BENCH_NSCC_H

#include "bench.h"
#include <dcc/nscc.h>

#define MSS 1448
#define GAP_US 116
#define BASE_US 10000
#define NSAMPLES 100000		/* the tool's largest run; longer ones wrap */

static struct nscc_cfg cfg;
static struct nscc_state st;
static u64 cwnd_sum;
static struct dcc_sample samples[NSAMPLES];
static u32 srtt_us8[NSAMPLES];	/* tp->srtt_us after the stack saw sample i */

/* ACK i of the load, and the stack's srtt (us << 3, its 1/8 EWMA) */
static void bench_gen(uint64_t *seed, u32 i, u32 *srtt8)
{
	u64 t = (u64)i * GAP_US;
	u32 q = bench_queue_us(t);	/* queue ramps 0..8 ms and back */
	u32 rtt_us = BASE_US + q + (u32)(bench_rand(seed) % 400);
	u32 rtt_ns = (u32)dcc_us_to_ns(rtt_us);

	samples[i] = (struct dcc_sample){
		.rx_ns = dcc_us_to_ns((u32)t),
		.tx_ns = dcc_us_to_ns((u32)t) - rtt_ns,
		.rtt_ns = rtt_ns,
		.acked = 1,
		.acked_bytes = MSS,
		.mss = MSS,
	};
	/* tcp_rtt_estimator(): srtt += rtt - srtt / 8, in us << 3 */
	*srtt8 = *srtt8 ? *srtt8 - (*srtt8 >> 3) + rtt_us : rtt_us << 3;
	srtt_us8[i] = *srtt8;
}

void bench_setup(void)
{
	struct nscc_params par = nscc_params_default;
	struct dcc_decision d;
	uint64_t seed = 42;
	u32 srtt8 = BASE_US << 3;

	cwnd_sum = 0;
	for (u32 i = 0; i < NSAMPLES; i++)
		bench_gen(&seed, i, &srtt8);
	par.nic_mbps = 100;
	par.target_pct = 40;
	nscc_resolve(&par, dcc_us_to_ns(BASE_US), MSS, false, BENCH_NSCC_MEDIAN, &cfg);
	nscc_state_init(&st, &cfg, 0);
	nscc_decide(&st, &cfg, dcc_us_to_ns(BASE_US), &d);	/* nscc_init() */
}

int __attribute__((noinline)) bench_ack(uint32_t i)
{
	u32 k = i % NSAMPLES;	/* a constant divisor: a multiply */
	struct dcc_decision d;
	struct nscc_out o;

	/* nscc_srtt_ns(); inflight as tcp_packets_in_flight() would see it */
	nscc_on_ack(&st, &cfg, &samples[k], (u64)srtt_us8[k] * 1000 >> 3,
		    st.cwnd / MSS, true, false, &d, &o);
	if (!d.changed)
		return 0;
	cwnd_sum += d.cwnd_bytes;
	return 1;
}

uint64_t bench_result(void)
{
	return cwnd_sum ^ st.cwnd ^ st.avg_ns;
}

#endif /* _DCC_BENCH_NSCC_H */
