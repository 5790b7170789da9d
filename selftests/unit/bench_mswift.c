// SPDX-License-Identifier: GPL-2.0
// bench-sources: modules/swift/swift_law.c
/*
 * MSwift's per-ACK math for the userspace benchmark (bench.h), as
 * swift_cong_control runs it for "mswift": every ACK with a delay sample
 * goes into the median window of the last H = max(W/2, 1) ACKs
 * (swift_median_h, capped at h_cap 128; dcc_lib's dcc_medwin_push and
 * dcc_medwin_median on a dcc_medbuf, as swift_median_delay does), and the
 * median drives Algorithm 1 (swift_on_ack: the target with its
 * flow-scaling term swift_target_ns / swift_inv_sqrt, AI below it, MD at
 * most once per RTT above it); then swift_apply derives the pacing rate
 * and snd_cwnd from the Q16 window (swift_pacing_rate, swift_cwnd_pkts).
 * Not counted: the glue's parameter resolution (swift_cfg, resolved once
 * in bench_setup here), its segments-per-ACK EWMA (one segment per ACK
 * here), the staleness test on the window and the kernel writes.  No
 * losses: LSwift's gate and the fast-recovery and RTO cuts are not
 * per-ACK math.
 * Parameters: the module defaults (relative target = base RTT + 25 us,
 * flow scaling 125 us between 0.1 and 100 packets, ai 1 packet per RTT,
 * beta 0.8, max_mdf 0.5, init_cwnd 10, h_cap 128, pctl 50 (median),
 * pacing 200 % of cwnd / srtt).
 * The load: one flow at 100 Mbit/s (one 1448-byte packet every 116 us,
 * one packet per ACK, always cwnd-limited), 10 ms base RTT, a queue that
 * builds and drains over 40 ms plus +-200 us of timestamp noise (srtt:
 * the noiseless RTT), so the law adds while the queue is near empty and
 * cuts or holds (once per RTT) while it is not; H follows the window.
 */
#include "bench.h"
#include <dcc/swift.h>
#include <dcc/median.h>

#define MSS 1448
#define GAP_US 116
#define BASE_US 10000
#define H_CAP 128
#define SPA_Q8 256	/* one segment per ACK */

static struct swift_law_cfg cfg;
static struct swift_law law;
static struct dcc_medbuf med;
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
	dcc_medbuf_init(&med, H_CAP);	/* heap buffer, as the module's */
}

void __attribute__((noinline)) bench_ack(uint32_t i)
{
	u64 t = (u64)i * GAP_US;
	u32 phase = (u32)(t % 40000);	/* queue ramps 0..8 ms and back */
	u32 q = phase < 20000 ? phase * 2 / 5 : (40000 - phase) * 2 / 5;
	u32 srtt = BASE_US + q;
	u32 rtt_us = srtt + (u32)(bench_rand(&seed) % 400);
	u16 h = swift_median_h(law.cwnd, SPA_Q8, H_CAP);
	u32 delay_us = dcc_medbuf_push(&med, rtt_us, h);
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
