// SPDX-License-Identifier: GPL-2.0
/*
 * The per-ACK body shared by bench_swift.c, bench_lswift.c and
 * bench_mswift.c (bench.h): swift_cong_control runs the same math for
 * "swift" and "lswift" on every ACK (Algorithm 1 via swift_on_ack, then
 * swift_apply's pacing rate and snd_cwnd from the Q16 window).  The two
 * differ only on a SACK-detected loss (LSwift's gate of lswift_k
 * successive missing segments, swift_lazy_gate), which this loss-free
 * load never reaches.  With BENCH_SWIFT_MEDIAN defined (MSwift) each
 * delay first goes through the median window of the last H = max(W/2, 1)
 * ACKs (swift_median_h, h_cap 128, one segment per ACK; a dcc_medbuf on
 * the heap, as the module's).
 * Parameters: the module defaults (relative target = base RTT + 25 us,
 * flow scaling 125 us between 0.1 and 100 packets, ai 1 packet per RTT,
 * beta 0.8, max_mdf 0.5, init_cwnd 10, pacing 200 % of cwnd / srtt).
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
#ifdef BENCH_SWIFT_MEDIAN
#include <dcc/median.h>
#endif

#define MSS 1448
#define GAP_US 116
#define BASE_US 10000
#define H_CAP 128
#define SPA_Q8 256	/* one segment per ACK */

static struct swift_law_cfg cfg;
static struct swift_law law;
#ifdef BENCH_SWIFT_MEDIAN
static struct dcc_medbuf med;
#endif
static u64 rate_sum, cwnd_sum;
static uint64_t seed = 42;

void bench_setup(void)
{
	cfg = (struct swift_law_cfg){
		.target_base_ns = (BASE_US + 25) * 1000ULL,
		.fs_range_ns = 125 * 1000ULL,
		.min_cwnd = SWIFT_MPKT_TO_Q16(1), .max_cwnd = SWIFT_CWND_MAX,
		.ai = (u32)((1000ULL << SWIFT_SHIFT) / 1000),
		.beta = SWIFT_PM_TO_Q16(800), .max_mdf = SWIFT_PM_TO_Q16(500),
		.retx_reset = 5,
	};
	swift_cfg_fs(&cfg, SWIFT_MPKT_TO_Q16(100), 100ULL << SWIFT_SHIFT);
	law = (struct swift_law){ .cwnd = 10ULL << SWIFT_SHIFT };
#ifdef BENCH_SWIFT_MEDIAN
	dcc_medbuf_init(&med, H_CAP);	/* heap buffer, as the module's */
#endif
}

void __attribute__((noinline)) bench_ack(uint32_t i)
{
	u64 t = (u64)i * GAP_US;
	u32 q = bench_queue_us(t);	/* queue ramps 0..8 ms and back */
	u32 srtt = BASE_US + q;
	u32 rtt_us = srtt + (u32)(bench_rand(&seed) % 400);
#ifdef BENCH_SWIFT_MEDIAN
	u16 h = swift_median_h(law.cwnd, SPA_Q8, H_CAP);
	u32 delay_us = dcc_medbuf_push(&med, rtt_us, h);
#else
	u32 delay_us = rtt_us;
#endif
	u64 target_ns;

	swift_on_ack(&law, &cfg, t, srtt, (u64)delay_us * 1000, 1, true,
		     &target_ns);
	rate_sum += swift_pacing_rate(law.cwnd, MSS, srtt, 200);
	cwnd_sum += swift_cwnd_pkts(law.cwnd);
}

uint64_t bench_result(void)
{
	return rate_sum ^ cwnd_sum ^ law.cwnd;
}

#endif /* DCC_BENCH_SWIFT_H */
