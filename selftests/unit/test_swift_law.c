// SPDX-License-Identifier: GPL-2.0
/*
 * Swift / MSwift control law: exact arithmetic against the papers' worked
 * numbers, the range extremes, and packet-level runs of a bottleneck --
 * optionally sprayed over P paths of which K are congested -- driven
 * through the very per-ACK core tcp_swift.ko runs: every ACK is a
 * dcc_sample handed to swift_on_ack() (swift_law.c, with dcc_lib's median
 * window inside it), and its dcc_decision is what the sender applies.
 *
 * Network: the shared bottleneck model (model.h): N senders, each
 * window-limited at snd_cwnd = max(1, floor(cwnd)) packets (min_cwnd_pkts
 * 1) and paced at the core's rate (cwnd * mss / rtt below one packet,
 * Swift's pacing mode, with srtt capped at max(target, last delay); 2 *
 * cwnd * mss / srtt above); packets (1500 B) cross half the base RTT, wait
 * in one FIFO served at mu, and their ACKs return after the other half; a
 * sprayed packet takes a congested path (the model's slow path, chance
 * K/P) that adds D us one way.  The adapter (struct swift_flow) is
 * tcp_swift.c's glue: the stack's srtt and min RTT (lowered, in relative
 * mode, to the minimum of the flows to the same destination, as
 * swift_share_read() does), swift_in_get()'s facts, tcp_is_cwnd_limited(),
 * swift_apply() with its pacing-stamp bound.
 *
 * The adapter also keeps the stack's SACK scoreboard by the model's send
 * sequence numbers (model.h's ack_seq, next_seq): a packet overtaken by
 * three later ones is marked lost, which is what turns on Swift's
 * SACK-hole cut, LSwift/MSwift's gate on the missing run and their undo
 * when the packet arrives after all (DSACK).
 *
 * Scale: mu = 1 Gbit/s, base RTT 1 ms (BDP 83 packets, the VM testbed's
 * BDP in packets), queueing allowance 200 us (0.2 RTT), fs_range 1 ms,
 * fs_min 0.1, fs_max 100 packets.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dcc/median.h"
#include "dcc/swift.h"
#include "model.h"
#include "tap.h"

/* ---- exact arithmetic ---------------------------------------------- */

static struct swift_cfg htsim_cfg(void)
{
	/* [H] defaults: base_target 20 us, fs_range 100 us, fs 0.1 .. 100 */
	struct swift_cfg c = {
		.target_base_ns = 20000, .fs_range_ns = 100000,
		.min_cwnd = SWIFT_MPKT_TO_Q16(1), .init_cwnd = 10 * SWIFT_ONE,
		.ai = SWIFT_ONE, .beta = SWIFT_PM_TO_Q16(800),
		.max_mdf = SWIFT_PM_TO_Q16(500), .retx_reset = 5, .lswift_k = 5,
		.pctl = 50, .h_cap = 128, .pacing_pct = 200,
	};

	swift_cfg_fs(&c, SWIFT_MPKT_TO_Q16(100), 100 * SWIFT_ONE);
	return c;
}

/* the socket's window clamp (snd_cwnd_clamp) the law tests run with */
static u32 clamp_pkts = 1000;

/*
 * One ACK with a delay sample through swift_on_ack: @now_us, @srtt_us in
 * us (the tests' worked numbers), @delay_ns the sample.  Returns the AI/MD
 * action; *t the target it used.
 */
static enum swift_action law_ack(struct swift_core *l, const struct swift_cfg *c,
				 u64 now_us, u32 srtt_us, u64 delay_ns, u32 acked,
				 bool grow, u64 *t)
{
	struct swift_in in = { .srtt_ns = (u64)srtt_us * 1000, .cwnd_clamp = clamp_pkts,
			       .cwnd_limited = grow };
	struct dcc_sample s = { .rx_ns = now_us * 1000, .rtt_ns = (u32)delay_ns,
				.acked = acked, .mss = 1500 };
	struct dcc_decision d;

	swift_on_ack(l, c, &in, &s, &d);
	*t = swift_law_target_ns(l, c, in.base_ns);
	return SWIFT_D_LAW(d.flags);
}

/* An ACK that marks a packet lost and carries no delay sample. */
static enum swift_action law_fr(struct swift_core *l, const struct swift_cfg *c,
				u64 now_us, u32 srtt_us)
{
	struct swift_in in = { .srtt_ns = (u64)srtt_us * 1000, .cwnd_clamp = clamp_pkts };
	struct dcc_sample s = { .rx_ns = now_us * 1000, .losses = 1, .mss = 1500,
				.why = DCC_SAMPLE_NO_RTT };
	struct dcc_decision d;

	swift_on_ack(l, c, &in, &s, &d);
	return SWIFT_D_FR(d.flags);
}

static enum swift_action law_rto(struct swift_core *l, const struct swift_cfg *c,
				 u64 now_us, u32 srtt_us)
{
	struct swift_in in = { .now_ns = now_us * 1000, .srtt_ns = (u64)srtt_us * 1000,
			       .cwnd_clamp = clamp_pkts };

	return swift_on_rto(l, c, &in);
}

static double q16(u64 x)
{
	return (double)x / SWIFT_ONE;
}

static void test_target(void)
{
	struct swift_cfg c = htsim_cfg();
	/* worked values at htsim's defaults: fs(0.1)=100, fs(1)=29.4, fs(10)=7.06,
	 * fs(50)=1.35 us, fs(>=100)=0 */
	static const struct { double cwnd, fs_us; } w[] = {
		{ 0.1, 100.0 }, { 1, 29.38 }, { 10, 7.06 }, { 50, 1.35 },
		{ 100, 0 }, { 1000, 0 }, { 0.01, 100.0 },
	};

	tap_begin("target: flow-scaling worked values ([H] defaults)");
	for (unsigned int i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		u64 cw = (u64)(w[i].cwnd * SWIFT_ONE);
		double got = swift_fs_ns(&c, cw) / 1000.0;

		CHECK(fabs(got - w[i].fs_us) <= 0.01 * w[i].fs_us + 0.05,
		      "cwnd %.2f: fs %.3f us, want %.2f", w[i].cwnd, got, w[i].fs_us);
	}
	CHECK(swift_fs_ns(&c, 0) == 0, "fs(0) = 0 as htsim");
	CHECK(swift_target_ns(&c, 0, 10 * SWIFT_ONE) == 20000 + swift_fs_ns(&c, 10 * SWIFT_ONE),
	      "target = base + fs");
	/* the topology term: 4 hops of 3.05 us at cwnd 10 -> 39.3 us */
	c.target_base_ns = 20000 + 4 * 3050;
	CHECK(fabs(swift_target_ns(&c, 0, 10 * SWIFT_ONE) / 1000.0 - 39.3) < 0.1,
	      "4 hops at cwnd 10: %.2f us, want 39.3",
	      swift_target_ns(&c, 0, 10 * SWIFT_ONE) / 1000.0);
	/*
	 * the flow's own base (the min RTT in relative mode, the path's hop
	 * term in absolute mode with hop_ttl: the glue's choice) is added in
	 * either mode
	 */
	c.relative = true;
	CHECK(swift_target_ns(&c, 1000000, 10 * SWIFT_ONE) ==
	      1000000 + swift_target_ns(&c, 0, 10 * SWIFT_ONE), "relative: + min RTT");
	c.relative = false;
	CHECK(swift_target_ns(&c, 3 * 3050, 10 * SWIFT_ONE) ==
	      3 * 3050 + swift_target_ns(&c, 0, 10 * SWIFT_ONE), "absolute: + the hop term");
	/* hop_ttl: the parameter's hops leave target_base to the glue */
	{
		struct swift_params p = { .base_target_us = 20, .hops = 4, .hop_us = 3,
					  .target_mode = 1, .fs_min_cwnd_mpkt = 100,
					  .fs_max_cwnd = 100, .beta_pm = 800,
					  .max_mdf_pm = 500, .min_cwnd_mpkt = 1,
					  .init_cwnd = 10, .ai_mpkt = 1000,
					  .retx_reset = 5, .lswift_k = 5, .h_cap = 128,
					  .pacing_pct = 200 };
		struct swift_cfg h;

		swift_cfg_init(&h, &p);
		CHECK(h.target_base_ns == 32000 && !h.hop_ttl,
		      "hop_ttl 0: base_target + hops * hop_us (%llu ns)",
		      (unsigned long long)h.target_base_ns);
		p.hop_ttl = 1;
		swift_cfg_init(&h, &p);
		CHECK(h.target_base_ns == 20000 && h.hop_ttl && h.hops == 4 &&
		      h.hop_ns == 3000,
		      "hop_ttl 1: base_target only; hops and hop_ns for the glue (%llu ns)",
		      (unsigned long long)h.target_base_ns);
	}
	/* fs off when the range is 0 or min >= max */
	c = htsim_cfg();
	c.fs_range_ns = 0;
	CHECK(swift_fs_ns(&c, SWIFT_ONE) == 0, "fs_range 0: no scaling");
	c = htsim_cfg();
	swift_cfg_fs(&c, 100 * SWIFT_ONE, 10 * SWIFT_ONE);
	CHECK(swift_fs_ns(&c, SWIFT_ONE) == 0, "fs_min >= fs_max: no scaling");
	tap_end();

	tap_begin("target: fs non-increasing in cwnd, within [0, range], whole range");
	c = htsim_cfg();
	{
		u64 prev_fs = UINT64_MAX;

		for (u64 cw = 1; cw <= SWIFT_CWND_MAX; cw = cw * 9 / 8 + 1) {
			u64 fs = swift_fs_ns(&c, cw);

			CHECK(fs <= c.fs_range_ns, "cwnd %llu: fs %llu", (unsigned long long)cw,
			      (unsigned long long)fs);
			CHECK(fs <= prev_fs, "cwnd %llu: fs %llu > %llu", (unsigned long long)cw,
			      (unsigned long long)fs, (unsigned long long)prev_fs);
			prev_fs = fs;
		}
		for (int i = 0; i < 20000; i++) {
			u64 cw = rnd_range(1, SWIFT_CWND_MAX);
			double got = swift_inv_sqrt(cw) / (double)(1 << 24);
			double want = 1.0 / sqrt((double)cw / SWIFT_ONE);

			CHECK(fabs(got - want) <= want * 2e-3 + 2.0 / (1 << 24),
			      "1/sqrt(%g) = %g, want %g", (double)cw / SWIFT_ONE, got, want);
		}
	}
	tap_end();
}

/* The bit-by-bit square root and division swift_inv_sqrt() replaces. */
static u64 ref_isqrt(u64 x)
{
	u64 r = 0, bit = 1ULL << 62;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

static u64 ref_inv_sqrt(u64 cwnd)
{
	u64 s;

	cwnd = cwnd < SWIFT_CWND_MAX ? cwnd : SWIFT_CWND_MAX;
	s = ref_isqrt(cwnd << SWIFT_SHIFT);
	if (!s)
		return 1ULL << 32;
	s = (1ULL << 40) / s;
	return s < (1ULL << 32) ? s : 1ULL << 32;
}

static int inv_sqrt_bad;

static void inv_sqrt_check(u64 cw)
{
	u64 got = swift_inv_sqrt(cw), want = ref_inv_sqrt(cw);

	if (got != want && inv_sqrt_bad++ < 5)
		CHECK(0, "inv_sqrt(%llu) = %llu, want %llu", (unsigned long long)cw,
		      (unsigned long long)got, (unsigned long long)want);
}

/*
 * swift_inv_sqrt() (Newton's iterations from a table, no division) is
 * exactly floor(2^40 / floor(sqrt(cwnd << 16))) capped at 2^32: every
 * window below 2^21 (32 packets), the windows at and around every
 * square's edge of a sample of roots, around the powers of four (m = 1:
 * the table's first step) and the powers of two of the root (2^40 / s
 * exact), above the clamp, and random windows over every bit width.
 */
static void test_inv_sqrt(void)
{
	/* its own draws: the later tests see the stream they always saw */
	uint64_t rng = tap_rng_state;

	tap_begin("1/sqrt(cwnd): Newton's iterations == bit-by-bit root and division");
	inv_sqrt_bad = 0;
	for (u64 cw = 0; cw < (1ULL << 21); cw++)
		inv_sqrt_check(cw);
	for (int i = 0; i < 300000; i++) {
		u64 root = rnd_range(256, 1ULL << 31);

		for (int d = -2; d <= 2; d++)
			inv_sqrt_check(((root * root) >> SWIFT_SHIFT) + (u64)(s64)d);
	}
	for (int j = 8; j <= 31; j++) {
		for (int d = -3; d <= 3; d++) {
			inv_sqrt_check((1ULL << (2 * j - 16)) + (u64)(s64)d);
			inv_sqrt_check(((1ULL << j) * (1ULL << j) >> 16) + (u64)(s64)d);
		}
	}
	inv_sqrt_check(SWIFT_CWND_MAX + 1);
	inv_sqrt_check(U64_MAX);
	for (int i = 0; i < 3000000; i++)
		inv_sqrt_check(rnd_bits((int)rnd_range(1, 47)));
	CHECK(inv_sqrt_bad == 0, "%d windows differ", inv_sqrt_bad);
	tap_end();
	tap_rng_state = rng;
}

static void test_md_ai(void)
{
	struct swift_cfg c = htsim_cfg();
	struct swift_core l;
	u64 t;

	c.fs_range_ns = 0;	/* target = 20 us flat */
	tap_begin("MD factor: 1 - beta (d - t) / d, capped at 1 - max_mdf");
	static const struct { double ratio, f; } md[] = {
		{ 1.0, 1 - 0.0 }, { 1.25, 0.84 }, { 2.0, 0.6 }, { 2.5, 0.52 },
		{ 3.0, 0.5 }, { 100.0, 0.5 },
	};
	for (unsigned int i = 0; i < sizeof(md) / sizeof(md[0]); i++) {
		l = (struct swift_core){ .cwnd = 100 * SWIFT_ONE };
		enum swift_action a = law_ack(&l, &c, 1000000, 100,
						   (u64)(20000 * md[i].ratio), 1, true, &t);

		CHECK(a == SWIFT_MD, "ratio %.2f: action %d", md[i].ratio, a);
		CHECK(fabs(q16(l.cwnd) / 100 - md[i].f) < 1e-3,
		      "delay %.2f x target: factor %.4f, want %.2f", md[i].ratio,
		      q16(l.cwnd) / 100, md[i].f);
	}
	tap_end();

	tap_begin("AI: +ai/cwnd per packet (+ai per RTT), +ai per packet below 1");
	l = (struct swift_core){ .cwnd = 10 * SWIFT_ONE };
	for (int i = 0; i < 10; i++)
		law_ack(&l, &c, 1000 + i, 100, 10000, 1, true, &t);
	CHECK(fabs(q16(l.cwnd) - 10.96) < 0.01, "10 acks at cwnd 10: %.4f", q16(l.cwnd));
	l = (struct swift_core){ .cwnd = 10 * SWIFT_ONE };
	law_ack(&l, &c, 1000, 100, 10000, 10, true, &t);
	CHECK(fabs(q16(l.cwnd) - 11.0) < 0.01, "one ack of 10 at cwnd 10: %.4f", q16(l.cwnd));
	l = (struct swift_core){ .cwnd = SWIFT_ONE / 2 };
	law_ack(&l, &c, 1000, 100, 10000, 1, true, &t);
	CHECK(fabs(q16(l.cwnd) - 1.5) < 1e-4, "cwnd 0.5 + ai: %.4f", q16(l.cwnd));
	l = (struct swift_core){ .cwnd = 10 * SWIFT_ONE };
	CHECK(law_ack(&l, &c, 1000, 100, 10000, 1, false, &t) == SWIFT_NO_AI &&
	      l.cwnd == 10 * SWIFT_ONE, "not cwnd-limited: no growth");
	clamp_pkts = 11;
	l = (struct swift_core){ .cwnd = 11 * SWIFT_ONE };
	law_ack(&l, &c, 1000, 100, 10000, 1000, true, &t);
	CHECK(l.cwnd == 11 * SWIFT_ONE, "clamped at max_cwnd");
	clamp_pkts = 1000;
	tap_end();

	c = htsim_cfg();
	c.fs_range_ns = 0;
	tap_begin("at most one decrease per RTT; a hold does not move the guard");
	l = (struct swift_core){ .cwnd = 100 * SWIFT_ONE };
	CHECK(law_ack(&l, &c, 5000, 100, 40000, 1, true, &t) == SWIFT_MD, "first MD");
	u64 w1 = l.cwnd;
	CHECK(law_ack(&l, &c, 5050, 100, 40000, 1, true, &t) == SWIFT_HOLD &&
	      l.cwnd == w1, "second within srtt held");
	CHECK(law_fr(&l, &c, 5060, 100) == SWIFT_FR_HOLD && l.cwnd == w1,
	      "fast-recovery within srtt held");
	CHECK(law_ack(&l, &c, 5099, 100, 40000, 1, true, &t) == SWIFT_HOLD, "held at 99 us");
	CHECK(law_ack(&l, &c, 5100, 100, 40000, 1, true, &t) == SWIFT_MD && l.cwnd < w1,
	      "MD again one srtt after the first");
	CHECK(law_fr(&l, &c, 5300, 100) == SWIFT_FR, "FR after srtt cuts");
	/* persistent high delay: exactly one cut per srtt over 100 srtts */
	{
		int cuts = 0;

		l = (struct swift_core){ .cwnd = 1000 * SWIFT_ONE };
		clamp_pkts = 2000;
		for (u64 now = 10000; now < 10000 + 100 * 100; now += 3)
			cuts += law_ack(&l, &c, now, 100, 21000, 1, true, &t) == SWIFT_MD;
		CHECK(cuts >= 99 && cuts <= 101, "cuts in 100 srtt: %d", cuts);
		clamp_pkts = 1000;
	}
	/* the guard holds across 2^32 us (the old 32-bit us clock's wrap) */
	l = (struct swift_core){ .cwnd = 100 * SWIFT_ONE };
	law_ack(&l, &c, 0xffffffc0ULL, 100, 40000, 1, true, &t);
	CHECK(law_ack(&l, &c, 0x100000010ULL, 100, 40000, 1, true, &t) == SWIFT_HOLD,
	      "80 us across the wrap: held");
	CHECK(law_ack(&l, &c, 0x100000030ULL, 100, 40000, 1, true, &t) == SWIFT_MD,
	      "112 us across the wrap: cut");
	tap_end();

	tap_begin("RTO: cut by max_mdf; retx_reset consecutive RTOs -> min_cwnd");
	c = htsim_cfg();
	l = (struct swift_core){ .cwnd = 64 * SWIFT_ONE };
	CHECK(law_rto(&l, &c, 1000000, 100) == SWIFT_RTO && l.cwnd == 32 * SWIFT_ONE,
	      "first RTO halves: %.3f", q16(l.cwnd));
	for (int i = 2; i <= 4; i++)
		law_rto(&l, &c, 1000000 + i * 1000, 100);
	CHECK(l.cwnd == 4 * SWIFT_ONE, "four RTOs: %.3f", q16(l.cwnd));
	CHECK(law_rto(&l, &c, 1010000, 100) == SWIFT_RESET && l.cwnd == c.min_cwnd,
	      "fifth: min_cwnd");
	l = (struct swift_core){ .cwnd = 64 * SWIFT_ONE };
	for (int i = 0; i < 4; i++)
		law_rto(&l, &c, 2000000 + i * 1000, 100);
	law_ack(&l, &c, 2010000, 100, 10000, 1, true, &t);
	CHECK(l.retx_cnt == 0, "an ACK with a sample resets the count");
	CHECK(law_rto(&l, &c, 2020000, 100) == SWIFT_RTO && l.cwnd >= SWIFT_ONE,
	      "then an RTO is a plain cut again");
	tap_end();
}

static void test_pacing_h(void)
{
	tap_begin("pacing below one packet: gap = srtt / cwnd");
	static const double cw[] = { 0.5, 0.1, 0.001, 0.9 };
	for (unsigned int i = 0; i < 4; i++) {
		u64 q = (u64)(cw[i] * SWIFT_ONE);
		u64 r = swift_pacing_rate(q, 1500, 10000000, 200);
		double gap_us = 1500.0 * 1e6 / (double)r;
		double want = 10000 / q16(q);	/* the Q16 window's own gap */

		/* +-1%, plus the rate's rounding to whole B/s */
		CHECK(fabs(gap_us - want) <= 0.01 * want + gap_us / r,
		      "cwnd %.3f: gap %.1f us, want %.1f", cw[i], gap_us, want);
	}
	u64 r = swift_pacing_rate(10 * SWIFT_ONE, 1500, 10000000, 200);
	CHECK(r == 3000000, "cwnd 10, srtt 10 ms, 200%%: %llu B/s", (unsigned long long)r);
	CHECK(swift_cwnd_pkts(SWIFT_ONE / 3) == 1 && swift_cwnd_pkts(10 * SWIFT_ONE + 5) == 10,
	      "snd_cwnd = max(1, floor)");
	tap_end();

	tap_begin("MSwift H = max(W/2, 1) ACKs, per segments-per-ACK, capped (Eq. 8)");
	CHECK(swift_median_h(100 * SWIFT_ONE, 256, 128) == 50, "W 100: 50");
	CHECK(swift_median_h(100 * SWIFT_ONE, 512, 128) == 25, "W 100, 2 seg/ACK: 25");
	CHECK(swift_median_h(1000 * SWIFT_ONE, 256, 128) == 128, "W 1000: cap 128");
	CHECK(swift_median_h(SWIFT_ONE / 2, 256, 128) == 1, "W 0.5: 1");
	CHECK(swift_median_h(5 * SWIFT_ONE, 256, 128) == 2, "W 5: 2");
	CHECK(swift_median_h(SWIFT_CWND_MAX, 0, 1024) == 1024, "W max, spa 0: cap");
	tap_end();
}

/*
 * The per-ACK steps the glue used to run itself, now in swift_on_ack:
 * LSwift's gate, the Loss-state exception, MSwift's staleness rule and
 * segments-per-ACK H, the sub-packet pacing cap, the window in bytes,
 * undo per variant.
 */
static void test_core_steps(void)
{
	struct swift_cfg c = htsim_cfg();
	struct swift_core l;
	struct swift_in in = { .srtt_ns = 100000, .cwnd_clamp = 1000 };
	struct dcc_sample s = { .rx_ns = 1000000000, .losses = 1, .mss = 1448,
				.why = DCC_SAMPLE_NO_RTT };
	struct dcc_decision d;

	tap_begin("core: SACK-hole cut, LSwift's gate at lswift_k missing, none in Loss");
	swift_core_init(&l, &c, SWIFT_LAZY, 1000);
	in.missing = 4;
	swift_on_ack(&l, &c, &in, &s, &d);
	CHECK(SWIFT_D_FR(d.flags) == SWIFT_NONE && l.cwnd == 10 * SWIFT_ONE,
	      "lswift, 4 of 5 missing: no cut (%d)", SWIFT_D_FR(d.flags));
	in.missing = 5;
	swift_on_ack(&l, &c, &in, &s, &d);
	CHECK(SWIFT_D_FR(d.flags) == SWIFT_FR && l.cwnd == 5 * SWIFT_ONE,
	      "lswift, 5 missing: cut by max_mdf (%.3f)", q16(l.cwnd));
	swift_core_release(&l);
	swift_core_init(&l, &c, 0, 1000);
	in.missing = 0;
	in.in_loss = true;
	swift_on_ack(&l, &c, &in, &s, &d);
	CHECK(SWIFT_D_FR(d.flags) == SWIFT_NONE, "swift in Loss: no SACK cut");
	in.in_loss = false;
	swift_on_ack(&l, &c, &in, &s, &d);
	CHECK(SWIFT_D_FR(d.flags) == SWIFT_FR, "swift, any hole: cut");
	CHECK(SWIFT_D_LAW(d.flags) == SWIFT_NONE, "no delay sample: no AI/MD");
	swift_on_recovery_start(&l);
	CHECK(swift_on_undo(&l) == 5 && l.cwnd == 5 * SWIFT_ONE, "swift keeps its cut on undo");
	swift_core_release(&l);
	swift_core_init(&l, &c, SWIFT_LAZY, 1000);
	swift_on_recovery_start(&l);
	in.missing = 9;
	swift_on_ack(&l, &c, &in, &s, &d);
	CHECK(swift_on_undo(&l) == 10 && l.cwnd == 10 * SWIFT_ONE, "lswift takes it back");
	swift_core_release(&l);
	tap_end();

	tap_begin("core: MSwift's window, H per segments per ACK, emptied after 2 srtt");
	swift_core_init(&l, &c, SWIFT_LAZY | SWIFT_MEDIAN, 1000);
	l.cwnd = 100 * SWIFT_ONE;
	s = (struct dcc_sample){ .rx_ns = 1000000000, .acked = 1, .mss = 1448 };
	in = (struct swift_in){ .srtt_ns = 100000, .cwnd_clamp = 1000, .cwnd_limited = true };
	for (int i = 0; i < 60; i++) {
		s.rx_ns += 1000;
		s.rtt_ns = i % 4 != 3 ? 10000 : 500000;	/* one in four slow */
		swift_on_ack(&l, &c, &in, &s, &d);
	}
	CHECK(l.med.w.n == 50 && SWIFT_D_H(d.flags) == 50, "W 100, 1 seg/ACK: H 50, %u held",
	      l.med.w.n);
	CHECK(l.last_delay_ns == 10000, "the median ignores the slow quarter: %u ns",
	      l.last_delay_ns);
	s.rx_ns += 200000;		/* exactly 2 srtt: still fresh */
	swift_on_ack(&l, &c, &in, &s, &d);
	CHECK(l.med.w.n == 50, "a gap of 2 srtt keeps the window (%u)", l.med.w.n);
	s.rx_ns += 200001;
	swift_on_ack(&l, &c, &in, &s, &d);
	CHECK(l.med.w.n == 1, "a longer gap empties it (%u)", l.med.w.n);
	for (int i = 0; i < 40; i++) {
		s.rx_ns += 1000;
		s.acked = 2;
		swift_on_ack(&l, &c, &in, &s, &d);
	}
	CHECK(SWIFT_D_H(d.flags) == swift_median_h(l.cwnd, l.spa_q8, 128) &&
	      SWIFT_D_H(d.flags) < 30, "2 segments per ACK halve H: %u (spa %u/256)",
	      SWIFT_D_H(d.flags), l.spa_q8);
	swift_on_idle_restart(&l);
	CHECK(l.med.w.n == 0, "restart after idle empties it");
	s.acked = 1;
	swift_on_ack(&l, &c, &in, &s, &d);
	in.now_ns = s.rx_ns;
	swift_on_rto(&l, &c, &in);
	CHECK(l.med.w.n == 0, "an RTO empties it");
	swift_core_release(&l);
	tap_end();

	tap_begin("core: the decision; below one packet srtt is capped at max(target, delay)");
	swift_core_init(&l, &c, 0, 1000);
	in = (struct swift_in){ .srtt_ns = 1000000, .cwnd_clamp = 1000 };
	swift_decide(&l, &c, &in, 1448, &d);
	CHECK(d.cwnd_bytes == 10 * 1448 && d.rate_bytes_ps == 2 * 10 * 1448 * 1000,
	      "cwnd 10, srtt 1 ms: %llu B, %llu B/s", (unsigned long long)d.cwnd_bytes,
	      (unsigned long long)d.rate_bytes_ps);
	/* test_swift_rto's case: srtt 198 ms after a blackhole, min_cwnd */
	l.cwnd = SWIFT_MPKT_TO_Q16(1);
	l.last_delay_ns = 41000;
	in.srtt_ns = 198000000;
	swift_decide(&l, &c, &in, 1448, &d);
	{
		u64 t = swift_target_ns(&c, 0, l.cwnd);
		double want = q16(l.cwnd) * 1448 * 1e9 / (double)t;

		CHECK(t > 41000 && fabs((double)d.rate_bytes_ps - want) <= 1,
		      "cwnd %.4f: %llu B/s = cwnd * mss / target %llu ns (not / srtt)",
		      q16(l.cwnd), (unsigned long long)d.rate_bytes_ps, (unsigned long long)t);
		CHECK(d.cwnd_bytes == 1448, "window: one packet (%llu B)",
		      (unsigned long long)d.cwnd_bytes);
		l.last_delay_ns = 300000000;	/* the path itself is slow */
		swift_decide(&l, &c, &in, 1448, &d);
		want = q16(l.cwnd) * 1448 * 1e9 / 198e6;
		CHECK(fabs((double)d.rate_bytes_ps - want) <= 1, "delay above srtt: by srtt (%llu)",
		      (unsigned long long)d.rate_bytes_ps);
	}
	swift_core_release(&l);
	tap_end();
}

/* Range extremes under UBSan: nothing overflows, results stay bounded. */
static void test_extremes(void)
{
	struct swift_cfg c = htsim_cfg();

	tap_begin("extremes: cwnd 2^-16..2^30 pkts, delay 1 ns..1 s, srtt 1 us..1 s, mss 64 KB");
	c.min_cwnd = 1;
	c.ai = 100 * SWIFT_ONE;
	c.fs_range_ns = 1000000000;
	c.target_base_ns = 1000000000;
	for (int i = 0; i < 200000; i++) {
		struct swift_core l = { .cwnd = rnd_range(1, SWIFT_CWND_MAX),
					.t_last_decrease = rnd64() >> 1 };
		u64 d = rnd_range(1, 2000000000ULL);
		u32 srtt = (u32)rnd_range(1, 1000000), mss = (u32)rnd_range(1, 65535);
		u64 now = rnd64() >> 1;
		struct swift_in in = { .now_ns = now, .srtt_ns = (u64)srtt * 1000,
				       .cwnd_clamp = U32_MAX, .cwnd_limited = true,
				       .missing = (u32)rnd_range(0, 10) };
		struct dcc_sample s = { .rx_ns = now, .rtt_ns = (u32)d,
					.acked = (u32)rnd_bits(32), .mss = mss };
		struct dcc_decision dec;

		switch (rnd_range(0, 2)) {
		case 0:
			swift_on_ack(&l, &c, &in, &s, &dec);
			break;
		case 1:
			s.losses = 1;
			s.why = DCC_SAMPLE_NO_RTT;
			swift_on_ack(&l, &c, &in, &s, &dec);
			break;
		default:
			swift_on_rto(&l, &c, &in);
		}
		CHECK(l.cwnd >= c.min_cwnd && l.cwnd <= SWIFT_CWND_MAX, "cwnd %llu out of range",
		      (unsigned long long)l.cwnd);
		u64 r = swift_pacing_rate(l.cwnd, mss, (u64)srtt * 1000, (u32)rnd_range(100, 1000));
		double want = (double)l.cwnd / SWIFT_ONE * mss * 1e6 / srtt;
		CHECK(l.cwnd >= SWIFT_ONE || fabs((double)r - want) <= want * 1e-6 + 1,
		      "rate %llu want %.0f", (unsigned long long)r, want);
		CHECK(swift_median_h(l.cwnd, (u32)rnd_range(0, 65535), 1024) >= 1, "h >= 1");
	}
	/* smallest window, huge delay: the cut floors at min_cwnd */
	struct swift_core l = { .cwnd = 1 };
	u64 t;
	clamp_pkts = U32_MAX;
	law_ack(&l, &c, 1 << 20, 1, 2000000000ULL, 1, true, &t);
	CHECK(l.cwnd == 1, "min stays min");
	clamp_pkts = 1000;
	/* 800 Gbit/s x 1 s at cwnd max, mss 9000: rate saturates sanely */
	CHECK(swift_pacing_rate(SWIFT_CWND_MAX, 65535, 1, 1000) > 0, "no wrap to 0");
	tap_end();
}

/* ---- tcp_swift's glue behind the shared model ------------------------ */

#define MSS 1500u
#define MAXF 16
#define US 1000ULL
#define CLAMP_PKTS 100000	/* snd_cwnd_clamp */

enum { V_SWIFT = 0, V_LSWIFT = 1, V_MSWIFT = 2 };

/*
 * One Swift socket behind the model, as tcp_swift.c runs it: the stack's
 * estimators first (tcp_rtt_estimator's srtt in us << 3, tcp_min_rtt),
 * then swift_in_get()'s facts, swift_on_ack(), and swift_apply(): the
 * model takes the decision as snd_cwnd = cwnd_bytes / mss whole packets
 * (min_cwnd_pkts 1: below one packet the rate is the window) and
 * sk_pacing_rate, and the pacing stamp is bounded to one window at the
 * new rate (swift_bound_wstamp) by moving the flow's next send time.
 *
 * cwnd_limited is tcp_is_cwnd_limited() at the ACK: the round's latch
 * (packets out reached snd_cwnd since the round began; a round ends one
 * srtt after it starts, as snd_una passing cwnd_usage_seq does), or, in
 * slow start, snd_cwnd < 2 * the round's most packets out.  These runs
 * never lose a packet (no queue limit), so ssthresh stays infinite and
 * the flow stays "in slow start" as a kernel Swift socket does until its
 * first recovery (test_dc_defaults' drop-tail runs do lose packets; a
 * recovery leaves ssthresh infinite all the same, swift_ssthresh()
 * returning it unchanged).
 *
 * Loss detection on reordering (the scoreboard, by the model's send
 * sequence numbers): a packet not yet ACKed when one sent 3 after it is
 * (Linux's SACK rule, tp->reordering 3) is marked lost on that ACK:
 * rs->losses counts it, and the missing run handed to LSwift/MSwift's
 * gate is the longest run of successive overtaken packets ending at one
 * marked lost on this ACK.  For LSwift/MSwift, marking a run of lswift_k
 * or more lost starts a recovery (tcp_swift's ssthresh hook:
 * swift_on_recovery_start) remembered at that packet, whether the core
 * cut or held; the first late arrival at or beyond it proves the loss
 * spurious (DSACK) and undoes (swift_on_undo).  A run counts the
 * overtaken packets the stack has seen, late ACKs among them: a slow
 * packet that no later one overtook is not in it.  in_loss stays false: no RTO fires in these runs.
 * A drop the model reports itself counts once: a packet the scoreboard
 * already marked lost is not counted again.  One it has not is marked
 * lost on its report by the same rule (sb_mark_lost()): its run, the
 * successive missing packets ending at it, is what the ACK hands to the
 * gate, as tcp_swift's swift_missing_run() counts the successive
 * unSACKed segments at snd_una on any ACK that marks losses, the hole of
 * a drop-tail overflow included.  So a drop of 1..4 successive packets
 * (the usual drop-tail pattern) is a run of 1..4, which the gate at
 * lswift_k 5 lets pass, as the kernel's does, and 5 in a row are 5.
 * Where they differ: the kernel counts at snd_una, which an older hole
 * whose retransmission is not yet ACKed holds (the model retransmits
 * nothing): that hole's run, not this one's.  Counted so, each hole
 * taken as repaired one srtt after it is marked, the gate opens on
 * about as many loss reports, not the same ones, and test_dc_defaults'
 * 1-BDP lswift incast drops 31% / 59% instead of 19% / 57%: the same
 * verdict.  A drop arms no undo: a packet dropped never arrives, and
 * Linux undoes only a recovery whose every retransmission proved spurious.
 */
#define SB_CAP (1U << 14)	/* scoreboard ring: packets between det and snd_nxt */

enum { SB_ACKED = 1, SB_LATE = 2, SB_LOST = 4 };

struct sb_ent {
	u64 seq;			/* which packet the slot holds */
	u16 run;			/* successive overtaken packets up to it */
	u8 flags;			/* SB_* */
};

struct swift_flow {
	struct model *m;
	int idx;			/* its flow in the model */
	const struct swift_cfg *cfg;
	struct swift_core st;
	u32 srtt8_us;			/* tp->srtt_us */
	u32 min_rtt_us;			/* tcp_min_rtt(), 0 = none yet */
	u64 round_end_ns;		/* tcp_is_cwnd_limited()'s round */
	u32 max_out;
	bool is_limited;
	u64 last_ns;
	u64 ns_below_one;		/* time spent with cwnd < 1 packet */
	u64 cuts_md, cuts_fr;
	u64 decreases;			/* MD decisions that lowered the window */
	u64 late_bounds;		/* stamp bounded with a send already queued */
	u64 acks, decisions;		/* ACKs, and those that changed the decision */
	u64 delivered;			/* tp->delivered: packets (S)ACKed */
	/*
	 * share_base_rtt: the flows of @peers (*@npeers of them) with the
	 * same @dst share the lowest min RTT, as dcc_shared_min_rtt_us()
	 * shares it per destination
	 */
	const struct swift_flow *peers;
	const int *npeers;
	u32 dst;
	bool share;
	/* the SACK scoreboard, by send sequence number */
	int variant;
	struct sb_ent *sb;		/* SB_CAP slots, seq % SB_CAP */
	u64 hi;				/* 1 + the highest sequence ACKed */
	u64 det;			/* loss detection has looked below this */
	u64 undo_seq;			/* a late arrival from here undoes */
	bool undo_armed;
	u64 undos;
};

/* the slot of packet @seq, cleared on first use */
static struct sb_ent *sb_at(struct swift_flow *f, u64 seq)
{
	struct sb_ent *e = &f->sb[seq % SB_CAP];

	if (e->seq != seq) {
		/* the ring holds at most SB_CAP packets from det on */
		if (e->seq != U64_MAX && seq < e->seq)
			abort();
		*e = (struct sb_ent){ .seq = seq };
	}
	return e;
}

/* an ACK of packet @seq: late (overtaken) or not; a late one may undo */
static void sb_ack(struct swift_flow *f, u64 seq)
{
	struct sb_ent *e = sb_at(f, seq);

	e->flags |= SB_ACKED;
	if (seq + 1 < f->hi) {
		e->flags |= SB_LATE;
		if (f->undo_armed && seq >= f->undo_seq) {
			swift_on_undo(&f->st);	/* tcp_swift's undo_cwnd */
			f->undo_armed = false;
			f->undos++;
		}
	} else {
		f->hi = seq + 1;
	}
}

/*
 * Mark packet @seq lost: its run is that of the packet before it, if
 * that one is missing or was (overtaken, lost), plus one.  Returns it.
 */
static u32 sb_mark_lost(struct swift_flow *f, u64 seq)
{
	struct sb_ent *e = sb_at(f, seq), *prev = seq ? sb_at(f, seq - 1) : NULL;

	e->flags |= SB_LOST | SB_LATE;
	e->run = prev && (prev->flags & SB_LATE) ? prev->run + 1 : 1;
	return e->run;
}

/* Linux's SACK loss marking: packets lost on this ACK; *missing their run */
static u32 sb_detect(struct swift_flow *f, u32 *missing)
{
	u32 lost = 0;

	*missing = 0;
	if (f->m->f[f->idx].next_seq - f->det >= SB_CAP)
		abort();
	for (; f->det + 3 < f->hi; f->det++) {
		struct sb_ent *e = sb_at(f, f->det);

		if (e->flags & (SB_ACKED | SB_LOST))
			continue;
		sb_mark_lost(f, f->det);
		lost++;
		if (e->run > *missing)
			*missing = e->run;
		if (f->variant != V_SWIFT && e->run >= f->cfg->lswift_k && !f->undo_armed) {
			swift_on_recovery_start(&f->st);	/* ssthresh */
			f->undo_seq = f->det;
			f->undo_armed = true;
		}
	}
	return lost;
}

/*
 * tcp_swift's swift_share_read(): at the first sample, then whenever
 * delivered crosses a multiple of SWIFT_SHARE_PKTS (128), read the lowest
 * min RTT of the flows to the same destination (the shared table, which
 * here every flow's current minimum stands for) into glue_base_us.
 */
static void flow_share_read(struct swift_flow *f, u32 acked)
{
	u32 b = f->min_rtt_us;

	f->delivered += acked;
	if (!f->share || !b ||
	    (f->st.glue_base_us && ((f->delivered ^ (f->delivered - acked)) < 128)))
		return;
	for (int i = 0; i < *f->npeers; i++)
		if (f->peers[i].dst == f->dst && f->peers[i].min_rtt_us &&
		    f->peers[i].min_rtt_us < b)
			b = f->peers[i].min_rtt_us;
	f->st.glue_base_us = b;
}

/* swift_base_rtt_ns() / 1000: tcp_min_rtt (or the shared minimum), else srtt, else 0 */
static u32 flow_base_rtt_us(const struct swift_flow *f)
{
	u32 g = f->st.glue_base_us;

	if (f->min_rtt_us)
		return g && g < f->min_rtt_us ? g : f->min_rtt_us;
	return f->srtt8_us ? (f->srtt8_us >> 3 ? f->srtt8_us >> 3 : 1) : 0;
}

/* swift_flow_base_ns(): the relative base, plus with hop_ttl the hop term */
static u64 flow_base_ns(const struct swift_flow *f)
{
	return (f->cfg->relative ? (u64)flow_base_rtt_us(f) * 1000 : 0) +
	       swift_hop_term_ns(&f->st, f->cfg);
}

/* swift_in_get() */
static struct swift_in flow_in(const struct swift_flow *f, u64 now_ns)
{
	u32 srtt_us = f->srtt8_us >> 3;

	return (struct swift_in){
		.now_ns = now_ns,
		.srtt_ns = srtt_us ? (u64)srtt_us * 1000 : SWIFT_SRTT_DEFAULT_NS,
		.base_ns = flow_base_ns(f),
		.cwnd_clamp = CLAMP_PKTS,
	};
}

/* the stack's estimators, before the CC sees the ACK (tcp_ack_update_rtt) */
static void flow_rtt_update(struct swift_flow *f, u32 rtt_us)
{
	if (f->srtt8_us) {
		long m = (long)rtt_us - (long)(f->srtt8_us >> 3);

		f->srtt8_us = (u32)((long)f->srtt8_us + m);
	} else {
		f->srtt8_us = rtt_us << 3;
	}
	if (!f->srtt8_us)
		f->srtt8_us = 1;
	if (!f->min_rtt_us || rtt_us < f->min_rtt_us)
		f->min_rtt_us = rtt_us;
}

/* tcp_is_cwnd_limited() with @out packets out before this ACK */
static bool flow_cwnd_limited(struct swift_flow *f, u64 now, u32 out, u32 cwnd,
			      u64 srtt_ns)
{
	if (now >= f->round_end_ns) {
		f->round_end_ns = now + srtt_ns;
		f->is_limited = false;
		f->max_out = 0;
	}
	f->is_limited |= out >= cwnd;
	if (out > f->max_out)
		f->max_out = out;
	return f->is_limited || cwnd < 2 * f->max_out;
}

/* swift_apply()'s swift_bound_wstamp(): a send waits at most one window */
static void flow_bound_wstamp(struct swift_flow *f, const struct dcc_decision *d)
{
	struct model_flow *mf = &f->m->f[f->idx];
	u64 now = f->m->now_ns, rate = d->rate_bytes_ps ? d->rate_bytes_ps : 1, lim;

	if (mf->next_send_ns <= now)
		return;
	lim = dcc_mul_div(d->cwnd_bytes / MSS * MSS, DCC_NSEC_PER_SEC, rate);
	if (mf->next_send_ns - now <= lim)
		return;
	mf->next_send_ns = now + lim;
	/*
	 * The kernel moves its pacing timer too; the model keeps a queued
	 * send at its time (model.c re-arms only unarmed flows): counted.
	 */
	if (mf->send_armed)
		f->late_bounds++;
}

static void swift_flow_on_ack(void *cc, const struct dcc_sample *s, struct dcc_decision *d)
{
	struct swift_flow *f = cc;
	struct model_flow *mf = &f->m->f[f->idx];
	u64 now = f->m->now_ns;
	/* the stack's state before this ACK: snd_cwnd of the decision in force */
	u32 cwnd = (u32)(mf->d.cwnd_bytes / MSS);
	u64 prev = f->st.cwnd;
	struct dcc_sample smp = *s;
	struct swift_in in;
	u32 missing, drop_run = 0;

	if (f->st.cwnd < SWIFT_ONE)
		f->ns_below_one += now - f->last_ns;
	f->last_ns = now;
	if (s->why & DCC_SAMPLE_NO_ACKED) {
		/*
		 * a drop the model reports: once, if not marked lost already;
		 * else marked lost now, its run for the gate (swift_missing_run)
		 */
		if (sb_at(f, mf->ack_seq)->flags & SB_LOST)
			smp.losses = 0;
		else
			drop_run = sb_mark_lost(f, mf->ack_seq);
	} else {
		sb_ack(f, mf->ack_seq);
	}
	smp.losses += sb_detect(f, &missing);
	if (drop_run > missing)
		missing = drop_run;
	if (!(s->why & DCC_SAMPLE_NO_RTT))
		flow_rtt_update(f, dcc_sample_rtt_us(s));
	flow_share_read(f, s->acked);
	in = flow_in(f, s->rx_ns);
	in.missing = missing;
	in.cwnd_limited = flow_cwnd_limited(f, now, mf->inflight + 1, cwnd ? cwnd : 1,
					    in.srtt_ns);
	swift_on_ack(&f->st, f->cfg, &in, &smp, d);
	f->cuts_fr += SWIFT_D_FR(d->flags) == SWIFT_FR;
	f->cuts_md += SWIFT_D_LAW(d->flags) == SWIFT_MD;
	f->decreases += SWIFT_D_LAW(d->flags) == SWIFT_MD && f->st.cwnd < prev;
	f->acks++;
	if (d->changed) {
		/* swift_apply(): only a new decision is applied, and bounds */
		f->decisions++;
		flow_bound_wstamp(f, d);
	}
}

struct sim {
	struct model m;
	u64 mu_bytes_ps;
	u32 base_us, allow_us, fs_range_us;
	u32 lswift_k;
	u32 slow_ppm, slow_us;	/* the congested paths: share and extra delay */
	bool relative;		/* target above each flow's min RTT (else base) */
	u32 hop_us;		/* > 0: absolute target allow_us + hops * hop_us,
				 * each flow's hops its base RTT / hop_us, as
				 * the glue reads them from the ACKs' TTL
				 * (hop_ttl): a fabric whose RTT is hop_us per
				 * hop
				 */
	bool noshare;		/* share_base_rtt 0 (relative mode) */
	bool moddef;		/* tcp_swift.c's module defaults, not the above */
	bool hs_rtt;		/* init with the handshake's RTT sample */
	u64 limit_bytes;	/* drop-tail queue limit, 0 = none */
	struct swift_cfg cfg;	/* built at flow_start from the above */
	struct swift_flow f[MAXF];
};

/*
 * Spraying over P paths of which K are congested (+D us one way) is the
 * model's slow path: slow_ppm = K/P, slow_ns = D.
 */
static struct sim *sim_new(u32 paths, u32 congested, u32 extra_us)
{
	struct sim *s = calloc(1, sizeof(*s));

	if (!s)
		abort();
	s->mu_bytes_ps = 125000000;		/* 1 Gbit/s */
	s->base_us = 1000;
	s->allow_us = 200;
	s->fs_range_us = 1000;
	s->lswift_k = 5;
	s->slow_ppm = congested * 1000000 / paths;
	s->slow_us = extra_us;
	return s;
}

static void sim_free(struct sim *s)
{
	for (int i = 0; i < s->m.nflows; i++) {
		swift_core_release(&s->f[i].st);
		free(s->f[i].sb);
	}
	model_free(&s->m);
	free(s);
}

/*
 * The model's parameters as module parameters, converted by the core:
 * relative mode = min RTT + allowance (tcp_swift's default), absolute =
 * base RTT + allowance; fs 0.1 .. 100 packets; ai 1; beta 0.8; max_mdf
 * 0.5; pacing 200 %.
 */
static void sim_cfg(struct sim *s, struct swift_cfg *c, u32 lswift_k)
{
	struct swift_params p = {
		.base_target_us = s->relative ? s->allow_us : s->base_us + s->allow_us,
		.target_mode = !s->relative, .fs_range_us = s->fs_range_us,
		.fs_min_cwnd_mpkt = 100, .fs_max_cwnd = 100, .ai_mpkt = 1000,
		.beta_pm = 800, .max_mdf_pm = 500, .min_cwnd_mpkt = 1,
		.init_cwnd = 10, .retx_reset = 5, .lswift_k = lswift_k,
		.h_cap = 128, .pctl = 50, .pacing_pct = 200,
	};
	/*
	 * tcp_swift.c's module parameters as it ships them (share_base_rtt 1
	 * is the sim's relative && !noshare)
	 */
	static const struct swift_params moddef = {
		.base_target_us = 25, .target_mode = 0, .hops = 0, .hop_us = 1,
		.fs_range_us = 100, .fs_min_cwnd_mpkt = 100, .fs_max_cwnd = 256,
		.ai_mpkt = 1000, .beta_pm = 800, .max_mdf_pm = 500,
		.min_cwnd_mpkt = 1, .init_cwnd = 10, .retx_reset = 3, .lswift_k = 5,
		.h_cap = 128, .pctl = 50, .pacing_pct = 200,
	};

	if (s->hop_us) {
		p.target_mode = 1;
		p.base_target_us = s->allow_us;
		p.hop_us = s->hop_us;
		p.hop_ttl = 1;
	}
	swift_cfg_init(c, s->moddef ? &moddef : &p);
}

/* flow @i starts now (the model's next flow): swift_init's decision */
static void flow_start(struct sim *s, int i, int variant)
{
	struct swift_flow *f = &s->f[i];
	struct dcc_decision d0;
	struct swift_in in;

	if (!s->m.nflows && !s->m.ev) {
		model_init(&s->m, &(struct model_link){
			.rate_bytes_ps = s->mu_bytes_ps, .mss = MSS,
			.slow_ppm = s->slow_ppm, .slow_ns = s->slow_us * US,
			.limit_bytes = s->limit_bytes, .min_cwnd_pkts = 1,
			.seed = tap_rng_state });
	}
	sim_cfg(s, &s->cfg, s->lswift_k);
	*f = (struct swift_flow){ .m = &s->m, .idx = i, .cfg = &s->cfg,
				  .last_ns = s->m.now_ns, .variant = variant,
				  .peers = s->f, .npeers = &s->m.nflows, .dst = s->base_us,
				  .share = s->relative && !s->noshare,
				  .sb = calloc(SB_CAP, sizeof(struct sb_ent)) };
	if (!f->sb)
		abort();
	/* slot 0 must not read as packet 0's: tag it with an impossible seq */
	for (u32 k = 0; k < SB_CAP; k++)
		f->sb[k].seq = U64_MAX;
	swift_core_init(&f->st, &s->cfg, (variant != V_SWIFT ? SWIFT_LAZY : 0) |
			(variant == V_MSWIFT ? SWIFT_MEDIAN : 0), CLAMP_PKTS);
	/* swift_hops_read() at the first ACK: the path's hops from the TTL */
	if (s->hop_us)
		f->st.glue_hops = (u8)(1 + s->base_us / s->hop_us);
	if (s->hs_rtt) {
		/*
		 * a kernel socket has the handshake's RTT sample (srtt, min
		 * RTT) at init: base RTT plus the queue it crossed.  Without
		 * it srtt is SWIFT_SRTT_DEFAULT_NS (1 ms, the other runs'
		 * base RTT): at an 8 us base the first packets go out 50 us
		 * apart and the model keeps the send queued at that time.
		 */
		u32 hs_us = s->base_us + (u32)(s->m.q_bytes * 1000000 / s->mu_bytes_ps);

		f->srtt8_us = hs_us << 3;
		f->min_rtt_us = hs_us;
	}
	/* swift_in_get(): srtt SWIFT_SRTT_DEFAULT_NS and no min RTT before a sample */
	in = flow_in(f, s->m.now_ns);
	swift_decide(&f->st, &s->cfg, &in, MSS, &d0);
	if (model_add_flow(&s->m, s->base_us * 1000,
			   (struct model_cc){ swift_flow_on_ack, f }, d0) != i)
		abort();
}

/* Run for @us; per-flow throughput (bytes/s) and queue stats over that span. */
static void sim_run(struct sim *s, u64 us, double *tput)
{
	model_reset_stats(&s->m);
	model_run(&s->m, s->m.now_ns + us * US);
	for (int i = 0; tput && i < MAXF; i++)
		tput[i] = i < s->m.nflows ? model_flow_rate(&s->m, i) : 0;
}

/* decisions the cores reported changed, per ACK, over all flows and the run */
static double decisions_per_ack(const struct sim *s)
{
	u64 a = 0, d = 0;

	for (int i = 0; i < s->m.nflows; i++) {
		a += s->f[i].acks;
		d += s->f[i].decisions;
	}
	return a ? (double)d / (double)a : 0;
}

static double jain(const double *x, int n)
{
	double a = 0, b = 0;

	for (int i = 0; i < n; i++) {
		a += x[i];
		b += x[i] * x[i];
	}
	return b > 0 ? a * a / (n * b) : 0;
}

/* mean queueing delay at the bottleneck over the last sim_run, us */
static double mean_qdelay_us(const struct sim *s)
{
	return model_mean_q_bytes(&s->m) * 1e6 / (double)s->mu_bytes_ps;
}

static double sum(const double *x, int n)
{
	double a = 0;

	for (int i = 0; i < n; i++)
		a += x[i];
	return a;
}

static void test_model_single(void)
{
	static const char *const name[] = { "swift", "", "mswift" };

	for (int v = 0; v <= 2; v += 2) {
		struct sim *s = sim_new(1, 0, 0);
		double t[MAXF];

		tap_begin("model: one %s flow fills the link, queue near the target", name[v]);
		flow_start(s, 0, v);
		sim_run(s, 300000, NULL);	/* +1 pkt/RTT from IW10: ~80 RTTs */
		sim_run(s, 300000, t);
		double qd = mean_qdelay_us(s);
		CHECK(t[0] >= 0.95 * s->mu_bytes_ps, "utilisation %.3f (>= 0.95)",
		      t[0] / s->mu_bytes_ps);
		CHECK(fabs(qd - s->allow_us) <= 0.5 * s->allow_us,
		      "mean queueing delay %.0f us, target %u us (within 50%%)", qd, s->allow_us);
		/*
		 * MD decisions count those whose cut rounds to nothing in Q16
		 * (delay < ~23 ns above target at 1.2 ms): on the model's ns
		 * clock a window-bound flow's delay can rest there.
		 */
		tap_diag("%s alone: util %.3f, mean queue %.0f us (target %u), cwnd %.1f,"
			 " MD decisions %llu (%llu lowered the window), %.3f decisions per ACK",
			 name[v], t[0] / s->mu_bytes_ps, qd, s->allow_us, q16(s->f[0].st.cwnd),
			 (unsigned long long)s->f[0].cuts_md,
			 (unsigned long long)s->f[0].decreases,
			 (double)s->f[0].decisions / (double)s->f[0].acks);
		tap_end();
		sim_free(s);
	}
}

/*
 * 8 flows started 20 ms apart.  @rel: relative target (tcp_swift's
 * default, min RTT + allowance) with the base shared per destination
 * (share_base_rtt, the default) or, @noshare, each flow's own minimum.
 */
static void test_model_fair(bool rel, bool noshare)
{
	static const char *const name[] = { "swift", "", "mswift" };

	for (int v = 0; v <= 2; v += 2) {
		struct sim *s = sim_new(1, 0, 0);
		double t[MAXF];

		tap_begin("model: 8 %s flows, staggered, %s target%s: %s", name[v],
			  rel ? "relative" : "absolute",
			  rel ? (noshare ? ", own min RTT" : ", shared base") : "",
			  noshare ? "the latecomers take the link" :
				    "fair, queue near the flow-scaled target");
		s->relative = rel;
		s->noshare = noshare;
		for (int i = 0; i < 8; i++) {
			flow_start(s, i, v);
			sim_run(s, 20000, NULL);
		}
		sim_run(s, 400000, NULL);
		sim_run(s, 400000, t);
		const struct swift_cfg *c = &s->cfg;
		double w = 0, qd = mean_qdelay_us(s);

		for (int i = 0; i < 8; i++)
			w += q16(s->f[i].st.cwnd) / 8;
		/* the flow-scaled target at the mean window, above min RTT */
		double tgt = s->allow_us + swift_fs_ns(c, (u64)(w * SWIFT_ONE)) / 1000.0;
		if (noshare) {
			/*
			 * Relative target on each flow's own min RTT: a flow
			 * that joins a standing queue counts it as base RTT and
			 * takes the link (Vegas' latecomer problem), which
			 * share_base_rtt exists for.  Asserted so that its
			 * reason stays true.
			 */
			CHECK(jain(t, 8) < 0.9, "own min RTT, staggered: Jain %.4f", jain(t, 8));
			tap_diag("8 x %s, relative target, own min RTT: Jain %.4f, queue %.0f us",
				 name[v], jain(t, 8), qd);
			tap_end();
			sim_free(s);
			continue;
		}
		CHECK(jain(t, 8) >= 0.95, "Jain %.4f (>= 0.95)", jain(t, 8));
		CHECK(sum(t, 8) >= 0.95 * s->mu_bytes_ps, "utilisation %.3f",
		      sum(t, 8) / s->mu_bytes_ps);
		CHECK(fabs(qd - tgt) <= 0.3 * tgt, "mean queue %.0f us, flow-scaled target %.0f us",
		      qd, tgt);
		CHECK(tgt > s->allow_us + 30, "flow scaling raised the target: %.0f us", tgt);
		tap_diag("8 x %s, %s: Jain %.4f, util %.3f, queue %.0f us, target %.0f us at W %.1f,"
			 " %.3f decisions per ACK", name[v], rel ? "relative" : "absolute",
			 jain(t, 8), sum(t, 8) / s->mu_bytes_ps, qd, tgt, w, decisions_per_ack(s));
		tap_end();
		sim_free(s);
	}
}

/*
 * Two base-RTT classes on one bottleneck, 4 flows each (1 ms and @b2_us,
 * one destination per class).  @late < 0: started alternately 20 ms
 * apart; 0 / 1: the short / long class first, 1 ms apart, and the other
 * class 300 ms later, into the queue the first holds.  @mode 'r': the
 * relative target and the base shared per destination (the defaults):
 * each flow aims at the same queueing delay above its own base RTT; 'a':
 * one absolute target (base RTT of the short class + allowance) puts the
 * long class's target below its own RTT; 'h': the absolute target with
 * the per-path hop term (hop_ttl), in a fabric of 500 us per hop (the
 * classes cross 2 and b2_us / 500 hops): each class's target is its base
 * RTT + allowance, and no min RTT is involved.  Returns Jain; *minfair
 * the smallest flow over its fair share.
 */
static double rtt_classes(char mode, int v, u32 b2_us, int late, double *minfair,
			  double *util)
{
	struct sim *s = sim_new(1, 0, 0);
	double t[MAXF], mn = 1e18;

	s->relative = mode == 'r';
	s->hop_us = mode == 'h' ? 500 : 0;
	for (int i = 0; i < 8; i++) {
		bool second = late < 0 ? (i & 1) : ((i >= 4) ^ late);

		s->base_us = second ? b2_us : 1000;
		flow_start(s, i, v);
		s->base_us = 1000;	/* the absolute target's base */
		sim_run(s, late < 0 ? 20000 : i == 3 ? 300000 : 1000, NULL);
	}
	sim_run(s, 400000, NULL);
	sim_run(s, 800000, t);
	for (int i = 0; i < 8; i++)
		mn = fmin(mn, t[i]);
	*minfair = mn / (s->mu_bytes_ps / 8.0);
	*util = sum(t, 8) / s->mu_bytes_ps;
	sim_free(s);
	return jain(t, 8);
}

static void test_model_rtt_classes(void)
{
	static const u32 b2[] = { 2000, 4000 };
	static const char *const vn[] = { "swift", "lswift", "mswift" };

	/* lswift's law is swift's; its loss rule is the difference */
	for (int v = 0; v <= 2; v++)
		for (int k = 0; k < 2; k++) {
			double mf, u, j = rtt_classes('r', v, b2[k], -1, &mf, &u);
			double amf, au, aj = rtt_classes('a', v, b2[k], -1, &amf, &au);

			tap_begin("model: %s, 4 + 4 flows of base RTT 1 and %u ms, staggered: relative target (defaults) Jain %.3f, smallest %.2f of fair, util %.3f; absolute: Jain %.3f, smallest %.2f",
				  vn[v], b2[k] / 1000, j, mf, u, aj, amf);
			CHECK(j >= 0.9 && mf >= 0.5 && u >= 0.95,
			      "relative target with the shared base: fair across RTT classes");
			CHECK(amf < 0.5, "absolute target: the long class starves (why it is not the recipe)");
			tap_end();
		}
	/* a class that starts into the queue the other holds (docs/swift.md) */
	for (int v = 0; v <= 2; v++)
		for (int late = 0; late <= 1; late++) {
			double mf, u, j = rtt_classes('r', v, 2000, late, &mf, &u);

			tap_begin("model: %s, the %s class of 4 starts 300 ms after the other (base RTT 1 and 2 ms): Jain %.3f, smallest %.2f of fair, util %.3f",
				  vn[v], late ? "1 ms" : "2 ms", j, mf, u);
			CHECK(j >= 0.9 && mf >= 0.5, "fair although the class joins a standing queue");
			tap_end_todo("the joining class counts the other's queue as base RTT: namespaces (hosts) cannot share a minimum");
		}
	/*
	 * The per-path recipe (tcp_swift.c, hop_ttl): the absolute target
	 * with the hop term, every start order, both RTT ratios
	 */
	for (int v = 0; v <= 2; v++)
		for (int k = 0; k < 2; k++)
			for (int late = -1; late <= 1; late++) {
				double mf, u, j = rtt_classes('h', v, b2[k], late, &mf, &u);

				tap_begin("model: %s, absolute target + hops from the TTL (500 us per hop), base RTT 1 and %u ms, %s: Jain %.3f, smallest %.2f of fair, util %.3f",
					  vn[v], b2[k] / 1000,
					  late < 0 ? "4 + 4 staggered" :
					  late ? "the 1 ms class 300 ms after the other" :
						 "the long class 300 ms after the other",
					  j, mf, u);
				CHECK(j >= 0.9 && mf >= 0.5 && u >= 0.95,
				      "fair across RTT classes in every start order");
				tap_end();
			}
}

/* Sub-packet windows: 16 flows on a 100-us, 1 Gbit/s path (BDP 8 packets). */
static void test_model_fractional(void)
{
	struct sim *s = sim_new(1, 0, 0);
	double t[MAXF];
	u64 below = 0, late = 0;

	tap_begin("model: 16 flows on an 8-packet BDP go below one packet, paced, fair");
	s->base_us = 100;
	s->allow_us = 20;
	s->fs_range_us = 100;
	for (int i = 0; i < 16; i++)
		flow_start(s, i, V_SWIFT);
	sim_run(s, 200000, NULL);
	sim_run(s, 200000, t);
	for (int i = 0; i < 16; i++) {
		below += s->f[i].ns_below_one / 1000;
		late += s->f[i].late_bounds;
	}
	double qd = mean_qdelay_us(s);
	CHECK(below > 0, "some flow ran below one packet (%llu flow-us)",
	      (unsigned long long)below);
	CHECK(sum(t, 16) >= 0.9 * s->mu_bytes_ps, "utilisation %.3f",
	      sum(t, 16) / s->mu_bytes_ps);
	CHECK(qd <= 3.0 * (s->allow_us + s->fs_range_us), "mean queue %.0f us bounded", qd);
	CHECK(jain(t, 16) >= 0.8, "Jain %.4f (>= 0.8)", jain(t, 16));
	tap_diag("16 flows, BDP 8: util %.3f, queue %.0f us, Jain %.4f, flow-us below 1 pkt %llu,"
		 " stamp bounds behind a queued send %llu, %.3f decisions per ACK",
		 sum(t, 16) / s->mu_bytes_ps, qd, jain(t, 16), (unsigned long long)below,
		 (unsigned long long)late, decisions_per_ack(s));
	tap_end();
	sim_free(s);
}

/*
 * Spraying over 4 paths, one congested (q = 1/4 < 1/3): Swift collapses
 * (every slow-path ACK is over target, every slow packet a SACK hole),
 * MSwift keeps the link (M: Thm 3/5 vs Thm 6).  Without congestion both
 * fill it.  One flow at a time, as the VM test.  Returns the goodput as a
 * fraction of mu over the second 300 ms; *cuts (if asked) the SACK-hole
 * cuts over both.  At the default seed: swift 0.049 (77 SACK cuts),
 * mswift 0.993 (12 cuts, 31 undos), q = 1/2 mswift 0.055; over DCC_SEED
 * 1..5 swift 0.047..0.052 (70..78), mswift 0.974..0.994 (11..23), q = 1/2
 * 0.058..0.061.  (With every ACK's decision applied, before decisions
 * were held: 0.050 (76), 0.977 (13, 30), 0.055; 0.047..0.051 (69..78),
 * 0.970..0.995 (11..24), 0.058..0.061.)
 */
static double spray_model(u32 congested, int variant, u32 lswift_k, u64 *cuts)
{
	struct sim *s = sim_new(4, congested, 500);	/* +0.5 RTT one way */
	double t[MAXF];

	s->lswift_k = lswift_k;
	flow_start(s, 0, variant);
	sim_run(s, 300000, NULL);
	sim_run(s, 300000, t);
	if (cuts)
		*cuts = s->f[0].cuts_fr;
	tap_diag("spray %u of 4, %s, lswift_k %u: %.3f of mu, SACK cuts %llu, undos %llu",
		 congested, variant == V_SWIFT ? "swift" : variant == V_LSWIFT ? "lswift" :
		 "mswift", lswift_k, t[0] / 125000000.0, (unsigned long long)s->f[0].cuts_fr,
		 (unsigned long long)s->f[0].undos);
	sim_free(s);
	return t[0] / 125000000.0;
}

static void test_model_spray(void)
{
	double g[2][2];		/* [congested][variant] goodput */
	u64 fr[2];

	for (int vi = 0; vi < 2; vi++)
		g[0][vi] = spray_model(0, vi ? V_MSWIFT : V_SWIFT, 5, NULL);
	for (int vi = 0; vi < 2; vi++)
		g[1][vi] = spray_model(1, vi ? V_MSWIFT : V_SWIFT, 5, &fr[vi]);
	tap_begin("model spray, 4 paths, none congested: swift %.3f, mswift %.3f of mu",
		  g[0][0], g[0][1]);
	CHECK(g[0][0] >= 0.95 && g[0][1] >= 0.95, "both fill the link");
	CHECK(fabs(g[0][0] - g[0][1]) <= 0.1 * g[0][1], "equal within 10%%");
	tap_end();
	tap_begin("model spray, 1 of 4 paths +500 us: swift %.3f (%llu SACK cuts), mswift %.3f (%llu)",
		  g[1][0], (unsigned long long)fr[0], g[1][1], (unsigned long long)fr[1]);
	CHECK(g[1][1] >= 0.9, "mswift keeps >= 90%% of the link");
	CHECK(g[1][1] >= 2 * g[1][0], "mswift >= 2x swift (ratio %.1f)", g[1][1] / g[1][0]);
	CHECK(g[1][0] <= 0.5, "swift collapses (Thm 3/5)");
	tap_end();

	/* the same with the SACK reaction neutralised (delay signal only, Thm 5) */
	{
		double x = spray_model(1, V_MSWIFT, 1000, NULL);	/* the gate never opens */

		tap_begin("model spray: q = 1/4 with the median is not Thm 5's collapse (%.3f)", x);
		CHECK(x >= 0.9, "mswift without any SACK cut: %.3f", x);
		tap_end();
	}
	/* LSwift (gate, undo, no median): the delay signal alone collapses it */
	{
		double x = spray_model(1, V_LSWIFT, 1000, NULL);

		tap_begin("model spray: lswift without any SACK cut still collapses (Thm 5): %.3f",
			  x);
		CHECK(x <= 0.5, "reordering resilience alone does not help");
		tap_end();
	}
	/* q = 1/2 > 1/3: Thm 6 no longer holds; the median sees the slow path */
	{
		double x = spray_model(2, V_MSWIFT, 5, NULL);

		tap_begin("model spray, 2 of 4 congested (q = 1/2 > 1/3): mswift %.3f < q=1/4's %.3f",
			  x, g[1][1]);
		CHECK(x < g[1][1], "beyond Thm 6's bound the median degrades");
		tap_end();
	}
}

/*
 * [M]'s q (the share of packets on congested paths) over its range, one
 * flow, congested paths +500 us one way (T_l = 2 T_s at base 1 ms, the
 * edge of Thm 3's T_l < 2 T_s): goodput over the second 300 ms as a
 * fraction of mu, for swift, lswift and mswift (lswift_k 5).
 */
static double spray_q(u32 ppm, int variant)
{
	struct sim *s = sim_new(1, 0, 500);
	double t[MAXF];

	s->slow_ppm = ppm;
	flow_start(s, 0, variant);
	sim_run(s, 300000, NULL);
	sim_run(s, 300000, t);
	sim_free(s);
	return t[0] / 125000000.0;
}

static void test_model_spray_q(void)
{
	static const u32 qs[] = { 10000, 20000, 50000, 100000, 200000 };
	static const int vs[] = { V_SWIFT, V_LSWIFT, V_MSWIFT };
	static const char *const vn[] = { "swift", "lswift", "mswift" };
	double g[3][5], thm3[5], slope[3], lo = 1e9, hi = 0, mmin = 1, lgain = 1e9;

	for (u32 i = 0; i < 5; i++) {
		/* Thm 3: 1.22 MSS / (T_s sqrt(q)), T_s = 1 ms, as a share of mu */
		thm3[i] = 1.22 * MSS / 1e-3 / sqrt(qs[i] / 1e6) / 125e6;
		for (u32 v = 0; v < 3; v++) {
			g[v][i] = spray_q(qs[i], vs[v]);
			tap_diag("spray q %.2f: %s %.3f of mu (Thm 3's Swift: %.3f)",
				 qs[i] / 1e6, vn[v], g[v][i], thm3[i]);
		}
		lo = fmin(lo, g[0][i] / thm3[i]);
		hi = fmax(hi, g[0][i] / thm3[i]);
		lgain = fmin(lgain, g[1][i] / g[0][i]);
		mmin = fmin(mmin, g[2][i]);
	}
	/* least-squares slope of log(goodput) over log(q) */
	for (u32 v = 0; v < 3; v++) {
		double sx = 0, sy = 0, sxx = 0, sxy = 0;

		for (u32 i = 0; i < 5; i++) {
			double x = log(qs[i] / 1e6), y = log(g[v][i]);

			sx += x; sy += y; sxx += x * x; sxy += x * y;
		}
		slope[v] = (5 * sxy - sx * sy) / (5 * sxx - sx * sx);
	}
	tap_begin("model spray over q = 0.01..0.2: swift %.2f..%.2f x Thm 3, lswift >= %.2f x swift, mswift >= %.3f; log-log slopes swift %.2f, lswift %.2f, mswift %.2f",
		  lo, hi, lgain, mmin, slope[0], slope[1], slope[2]);
	CHECK(lo >= 0.7 && hi <= 2.5, "swift follows Thm 3 within a constant factor");
	CHECK(slope[0] <= -0.3 && slope[0] >= -0.7 && slope[1] <= -0.3 && slope[1] >= -0.7,
	      "swift and lswift fall as ~1/sqrt(q) (Thm 3, Thm 5)");
	CHECK(lgain >= 1.3, "lswift sits higher on the curve: >= %.2f x swift", lgain);
	CHECK(mmin >= 0.9, "mswift keeps >= %.3f of mu for every q < 1/3 (Thm 6)", mmin);
	tap_end();
}

/*
 * Datacenter scale at tcp_swift.c's module defaults, as they ship
 * (sim_cfg: base_target 25 us above the min RTT, shared base, hops 0,
 * fs_range 100 us over 0.1..256 packets, ai 1, beta 0.8, max_mdf 0.5,
 * min_cwnd 0.001, IW 10, lswift_k 5, h_cap 128, median, pacing 200 %),
 * flows initialised with the handshake's RTT as a kernel socket is, 1500 B
 * packets, at 100 Gbit/s, 12 us (BDP 100 packets) and 25 Gbit/s, 8 us
 * (16.7), for swift, lswift and mswift.  The 1 Gbit/s, 1 ms runs above
 * use a scaled configuration; this is the one an operator gets.
 *  (a) a lone flow: RTTs until one RTT's goodput reaches 90% of the link.
 *      No slow start: +ai per RTT from IW 10, about 0.9 BDP - 10 RTTs:
 *      85 RTTs (1 ms) at 100 Gbit/s, 10 at 25.  A faster ramp than the
 *      law's (slow start) or a slower one fails.  Documented (tcp_swift.c:
 *      init_cwnd = BDP to start at the ideal window), not a TODO.
 *  (b) 16 flows started at once on a 40-BDP buffer, 500 RTTs after 200:
 *      full (1.000), fair (Jain 1.000), no drop, and the queue at the
 *      flow-scaled target 25 us + fs(W): 30 us = 2.5 BDP at 100 Gbit/s
 *      (W 22), 37 us = 4.7 BDP at 25 (W 7), for all three (within 30%).
 *      Production's allowance is 2-5 BDPs of standing queue at these base
 *      RTTs: by design, not asserted smaller.
 *  (c) the same incast on a 1-BDP drop-tail buffer.  Its queue (<= 12 /
 *      8 us) never reaches the 25 us allowance: the delay law never cuts,
 *      only the SACK-hole cut holds the windows.  The link stays full for
 *      all.  Swift's cut, on any hole, keeps 100 Gbit/s fair (Jain 0.99)
 *      at 1.5% drops; at 25 Gbit/s 16 windows of ~3 packets, each +1 per
 *      RTT, on a 33-packet pipe (BDP + buffer) drop 23% (TODO).  LSwift
 *      and MSwift cut only on lswift_k = 5 successive missing segments,
 *      and a drop-tail queue mostly drops runs of 1..4 (91% of their
 *      loss reports here): 19% drops and Jain 0.09 at 100 Gbit/s, 57% and
 *      0.96 at 25 (TODO; the same for both: the median never matters
 *      below the target).  Counted at snd_una instead (struct
 *      swift_flow's comment): 31% and 59%.  Before the adapter gave a
 *      drop its run (always 0): 87% and 93%.  Drops: the share of the
 *      packets sent in the window that the queue dropped (the model
 *      retransmits nothing: goodput).
 */
#define DC_N 16

struct dc_res {
	double util, jain, drop_pct, q_bdp, q_us, w, tgt_us;
	u64 drops, cuts_md, cuts_fr;	/* MD, SACK-hole cuts over the run */
};

static struct sim *dc_sim(u64 gbps, u32 rtt_us, double limit_bdp)
{
	struct sim *s = sim_new(1, 0, 0);

	s->mu_bytes_ps = gbps * 125000000ULL;
	s->base_us = rtt_us;
	s->relative = true;		/* target_mode 0, share_base_rtt 1 */
	s->moddef = true;
	s->hs_rtt = true;
	s->limit_bytes = (u64)(limit_bdp * (double)s->mu_bytes_ps * rtt_us / 1e6);
	return s;
}

/* (a): the first RTT whose goodput reaches 90% of the link, in RTTs */
static int dc_lone(u64 gbps, u32 rtt_us, int v, int cap)
{
	struct sim *s = dc_sim(gbps, rtt_us, 0);
	double t[MAXF];
	int r;

	flow_start(s, 0, v);
	for (r = 1; r <= cap; r++) {
		sim_run(s, rtt_us, t);
		if (t[0] >= 0.9 * s->mu_bytes_ps)
			break;
	}
	sim_free(s);
	return r;
}

/* (b), (c): DC_N flows at once, 200 RTTs to settle, 500 measured */
static void dc_incast(u64 gbps, u32 rtt_us, int v, double limit_bdp, struct dc_res *r)
{
	struct sim *s = dc_sim(gbps, rtt_us, limit_bdp);
	double t[MAXF], bdp = (double)s->mu_bytes_ps * rtt_us / 1e6, pkts = 0;

	for (int i = 0; i < DC_N; i++)
		flow_start(s, i, v);
	sim_run(s, 200 * rtt_us, NULL);
	sim_run(s, 500 * rtt_us, t);
	r->util = sum(t, DC_N) / s->mu_bytes_ps;
	r->jain = jain(t, DC_N);
	r->drops = s->m.st.drops;
	for (int i = 0; i < DC_N; i++)
		pkts += (double)s->m.f[i].bytes / MSS;
	r->drop_pct = 100.0 * r->drops / (pkts + r->drops);
	r->q_bdp = model_mean_q_bytes(&s->m) / bdp;
	r->q_us = mean_qdelay_us(s);
	r->w = 0;
	r->cuts_md = r->cuts_fr = 0;
	for (int i = 0; i < DC_N; i++) {
		r->w += q16(s->f[i].st.cwnd) / DC_N;
		r->cuts_md += s->f[i].cuts_md;
		r->cuts_fr += s->f[i].cuts_fr;
	}
	/* 25 us + fs(W), fs 100 us at 0.1 packet .. 0 at 256, as 1/sqrt(W) */
	r->tgt_us = 25 + fmax(0, 100 * (1 / sqrt(r->w) - 1 / 16.0) /
			      (1 / sqrt(0.1) - 1 / 16.0));
	sim_free(s);
}

static void test_dc_defaults(void)
{
	static const char *const vn[] = { "swift", "lswift", "mswift" };
	static const struct {
		const char *name;
		u64 gbps;
		u32 rtt_us;
		int t90_max;		/* measured 85 / 10, rounded up */
		bool swift_1bdp;	/* swift holds drops <= 5% on 1 BDP */
	} sc[] = {
		{ "100 Gbit/s, 12 us", 100, 12, 100, true },
		{ "25 Gbit/s, 8 us", 25, 8, 20, false },
	};

	for (int k = 0; k < 2; k++) {
		double bdp_pkts = sc[k].gbps * 125e6 * sc[k].rtt_us / 1e6 / MSS;
		/* the law's ramp: +1 packet per RTT from IW 10 to 0.9 BDP */
		double lin = 0.9 * bdp_pkts - 10;
		struct dc_res deep[3], shal[3];
		int t90[3];

		for (int v = 0; v < 3; v++) {
			t90[v] = dc_lone(sc[k].gbps, sc[k].rtt_us, v, 4 * sc[k].t90_max);
			dc_incast(sc[k].gbps, sc[k].rtt_us, v, 40, &deep[v]);
			dc_incast(sc[k].gbps, sc[k].rtt_us, v, 1, &shal[v]);
		}

		tap_begin("dc defaults, %s: a lone flow reaches 90%% of the link in %d / %d / %d RTTs (swift / lswift / mswift; no slow start, +1 pkt per RTT from IW 10 to 0.9 BDP: %.0f)",
			  sc[k].name, t90[0], t90[1], t90[2], lin);
		for (int v = 0; v < 3; v++)
			CHECK(t90[v] >= 0.7 * lin && t90[v] <= sc[k].t90_max,
			      "%s: %d RTTs, want %.0f..%d", vn[v], t90[v], 0.7 * lin,
			      sc[k].t90_max);
		tap_end();

		tap_begin("dc defaults, %s: 16-flow incast, 40-BDP buffer: util %.3f / %.3f / %.3f, Jain %.3f / %.3f / %.3f, queue %.1f BDP = %.0f us (flow-scaled target %.0f us)",
			  sc[k].name, deep[0].util, deep[1].util, deep[2].util, deep[0].jain,
			  deep[1].jain, deep[2].jain, deep[0].q_bdp, deep[0].q_us, deep[0].tgt_us);
		for (int v = 0; v < 3; v++) {
			const struct dc_res *r = &deep[v];

			CHECK(r->util >= 0.95, "%s: utilisation %.3f", vn[v], r->util);
			CHECK(r->jain >= 0.9, "%s: Jain %.3f", vn[v], r->jain);
			CHECK(r->drops == 0, "%s: %llu drops", vn[v], (unsigned long long)r->drops);
			CHECK(fabs(r->q_us - r->tgt_us) <= 0.3 * r->tgt_us,
			      "%s: mean queue %.1f us, flow-scaled target %.1f us at W %.2f",
			      vn[v], r->q_us, r->tgt_us, r->w);
			tap_diag("%s, %s, 16 flows, 40 BDP: util %.3f, Jain %.4f, queue %.2f BDP = %.1f us, target 25 + fs(W %.2f) = %.1f us, drops %llu",
				 sc[k].name, vn[v], r->util, r->jain, r->q_bdp, r->q_us, r->w,
				 r->tgt_us, (unsigned long long)r->drops);
		}
		tap_end();

		for (int v = 0; v < 3; v++)
			tap_diag("%s, %s, 16 flows, 1-BDP drop-tail: util %.3f, Jain %.4f, drops %.2f%%, queue %.2f BDP = %.1f us, W %.2f, cuts: delay %llu, SACK hole %llu",
				 sc[k].name, vn[v], shal[v].util, shal[v].jain, shal[v].drop_pct,
				 shal[v].q_bdp, shal[v].q_us, shal[v].w,
				 (unsigned long long)shal[v].cuts_md,
				 (unsigned long long)shal[v].cuts_fr);
		tap_begin("dc defaults, %s: 16-flow incast, 1-BDP drop-tail: the link stays full (util %.3f / %.3f / %.3f)%s",
			  sc[k].name, shal[0].util, shal[1].util, shal[2].util,
			  sc[k].swift_1bdp ? "; swift fair with few drops" : "");
		for (int v = 0; v < 3; v++)
			CHECK(shal[v].util >= 0.95, "%s: utilisation %.3f", vn[v], shal[v].util);
		if (sc[k].swift_1bdp)
			CHECK(shal[0].jain >= 0.9 && shal[0].drop_pct <= 5,
			      "swift: Jain %.3f, drops %.2f%%", shal[0].jain, shal[0].drop_pct);
		tap_end();

		{
			char todo[256];
			int n = 0;

			for (int v = sc[k].swift_1bdp ? 1 : 0; v < 3; v++)
				n += snprintf(todo + n, sizeof(todo) - n, "%s%s Jain %.3f, drops %.1f%%",
					      n ? "; " : "", vn[v], shal[v].jain, shal[v].drop_pct);
			tap_begin("dc defaults, %s: 16-flow incast, 1-BDP drop-tail: Jain >= 0.9, drops <= 5%% (%s)",
				  sc[k].name, todo);
		}
		for (int v = sc[k].swift_1bdp ? 1 : 0; v < 3; v++)
			CHECK(shal[v].jain >= 0.9 && shal[v].drop_pct <= 5,
			      "%s: Jain %.3f, drops %.2f%%", vn[v], shal[v].jain, shal[v].drop_pct);
		tap_end_todo(sc[k].swift_1bdp ?
			     "the queue stays below the 25 us allowance, and lswift/mswift cut only on 5 successive missing segments: drop-tail mostly drops 1..4" :
			     "as at 100 Gbit/s, and swift's 16 windows of ~3 packets, +1 per RTT each, overrun the 33-packet pipe");
	}
}

int main(void)
{
	tap_header();
	tap_seed_from_env();
	test_target();
	test_inv_sqrt();
	test_md_ai();
	test_pacing_h();
	test_core_steps();
	test_extremes();
	test_model_single();
	test_model_fair(false, false);
	test_model_fair(true, false);
	test_model_fair(true, true);
	test_model_rtt_classes();
	test_model_fractional();
	test_model_spray();
	test_model_spray_q();
	test_dc_defaults();
	return tap_done();
}
