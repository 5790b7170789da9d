// SPDX-License-Identifier: GPL-2.0
/*
 * Swift's control law (Algorithm 1 of the Swift paper, as htsim's
 * swift.cpp implements it), plain C.  See include/dcc/swift.h for the
 * scales and modules/swift/tcp_swift.c for the theory.  Overflow bounds are
 * noted per line; they follow from cwnd <= SWIFT_CWND_MAX = 2^46 (Q16) and
 * the parameter ranges.
 */
#include "dcc/swift.h"

/* floor(sqrt(x)), bit by bit: 32 iterations, no division, any u64 */
static u64 swift_isqrt(u64 x)
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

u64 swift_inv_sqrt(u64 cwnd)
{
	u64 s;

	cwnd = min_t(u64, cwnd, SWIFT_CWND_MAX);
	/* sqrt(cwnd * 2^16) = sqrt(cwnd in packets) in Q16; cwnd << 16 < 2^62 */
	s = swift_isqrt(cwnd << SWIFT_SHIFT);
	if (!s)
		return 1ULL << 32;
	/* 2^(24+16) / sqrt_q16 = Q24; s >= 1 here, and s >= 256 for cwnd >= 1 */
	return min_t(u64, (1ULL << (SWIFT_INV_SQRT_SHIFT + SWIFT_SHIFT)) / s,
		     1ULL << 32);
}

void swift_cfg_fs(struct swift_law_cfg *c, u64 fs_min_cwnd, u64 fs_max_cwnd)
{
	c->fs_rmin = swift_inv_sqrt(max_t(u64, fs_min_cwnd, 1));
	c->fs_rmax = swift_inv_sqrt(max_t(u64, fs_max_cwnd, 1));
	if (c->fs_rmax >= c->fs_rmin)	/* min >= max: no range, no scaling */
		c->fs_range_ns = 0;
}

u64 swift_fs_ns(const struct swift_law_cfg *c, u64 cwnd)
{
	u64 r;

	if (!c->fs_range_ns || !cwnd || c->fs_rmin <= c->fs_rmax)
		return 0;
	r = swift_inv_sqrt(cwnd);
	if (r <= c->fs_rmax)
		return 0;
	if (r >= c->fs_rmin)
		return c->fs_range_ns;
	/* range <= 2^30 ns, r - rmax <= 2^32: 128-bit safe in dcc_mul_div */
	return dcc_mul_div(c->fs_range_ns, r - c->fs_rmax, c->fs_rmin - c->fs_rmax);
}

u64 swift_target_ns(const struct swift_law_cfg *c, u64 cwnd)
{
	return c->target_base_ns + swift_fs_ns(c, cwnd);
}

bool swift_can_decrease(const struct swift_law *l, u64 now_us, u32 srtt_us)
{
	/*
	 * htsim compares against its smoothed RTT; so does this (spec 8-B2).
	 * 0 means "never decreased"; swift_finish never stores 0.
	 */
	if (!l->t_last_decrease)
		return true;
	/* wrap-safe on the low 32 bits of the us clock */
	return (u32)((u32)now_us - l->t_last_decrease) >= srtt_us;
}

/*
 * Clamp and record a decrease.  Strict "<" (spec 8-B1): an unchanged
 * window must not push the once-per-RTT guard forward.
 */
static void swift_finish(struct swift_law *l, const struct swift_law_cfg *c,
			 u64 prev, u64 now_us)
{
	l->cwnd = clamp_t(u64, l->cwnd, c->min_cwnd, c->max_cwnd);
	if (l->cwnd < prev)
		l->t_last_decrease = (u32)now_us ? (u32)now_us : 1;
}

/* cwnd *= f, f a Q16 fraction <= 1: cwnd < 2^46, f <= 2^16 */
static void swift_scale(struct swift_law *l, u32 f)
{
	l->cwnd = (l->cwnd * f) >> SWIFT_SHIFT;
}

enum swift_action swift_on_ack(struct swift_law *l, const struct swift_law_cfg *c,
			       u64 now_us, u32 srtt_us, u64 delay_ns,
			       u32 acked, bool grow, u64 *target_ns)
{
	u64 prev = l->cwnd, t = swift_target_ns(c, l->cwnd);
	enum swift_action a;

	if (target_ns)
		*target_ns = t;
	l->retx_cnt = 0;
	if (delay_ns < t) {
		if (!grow) {
			a = SWIFT_NO_AI;
		} else if (l->cwnd >= SWIFT_ONE) {
			/* ai * acked / cwnd: ai < 2^23, acked < 2^32: < 2^55 */
			l->cwnd += dcc_mul_div((u64)c->ai * acked, SWIFT_ONE, l->cwnd);
			a = SWIFT_AI;
		} else {
			/* below one packet: + ai per packet acked ([S] Alg. 1) */
			l->cwnd += (u64)c->ai * acked;
			a = SWIFT_AI;
		}
	} else if (swift_can_decrease(l, now_us, srtt_us)) {
		/* 1 - beta * (delay - t) / delay, t <= delay: the cut <= beta */
		u64 cut = dcc_mul_div(c->beta, delay_ns - t, delay_ns);
		u32 f = SWIFT_ONE - (u32)min_t(u64, cut, SWIFT_ONE);

		f = max_t(u32, f, SWIFT_ONE - c->max_mdf);
		swift_scale(l, f);
		a = SWIFT_MD;
	} else {
		a = SWIFT_HOLD;
	}
	swift_finish(l, c, prev, now_us);
	return a;
}

enum swift_action swift_on_fast_recovery(struct swift_law *l,
					 const struct swift_law_cfg *c,
					 u64 now_us, u32 srtt_us)
{
	u64 prev = l->cwnd;

	l->retx_cnt = 0;
	if (!swift_can_decrease(l, now_us, srtt_us))
		return SWIFT_FR_HOLD;
	swift_scale(l, SWIFT_ONE - c->max_mdf);
	swift_finish(l, c, prev, now_us);
	return SWIFT_FR;
}

enum swift_action swift_on_rto(struct swift_law *l, const struct swift_law_cfg *c,
			       u64 now_us, u32 srtt_us)
{
	u64 prev = l->cwnd;
	enum swift_action a = SWIFT_RTO;

	if (l->retx_cnt < U32_MAX)
		l->retx_cnt++;
	if (l->retx_cnt >= c->retx_reset) {
		l->cwnd = c->min_cwnd;
		a = SWIFT_RESET;
	} else if (swift_can_decrease(l, now_us, srtt_us)) {
		swift_scale(l, SWIFT_ONE - c->max_mdf);
	}
	swift_finish(l, c, prev, now_us);
	return a;
}

u32 swift_cwnd_pkts(u64 cwnd)
{
	u64 p = cwnd >> SWIFT_SHIFT;

	return (u32)clamp_t(u64, p, 1, U32_MAX);
}

u64 swift_pacing_rate(u64 cwnd, u32 mss, u32 srtt_us, u32 pct)
{
	u64 bytes_q16;

	srtt_us = max_t(u32, srtt_us, 1);
	/* cwnd < 2^46 (clamped), mss < 2^16: < 2^62 */
	bytes_q16 = min_t(u64, cwnd, SWIFT_CWND_MAX) * mss;
	if (cwnd < SWIFT_ONE)
		pct = 100;	/* one packet per srtt / cwnd, exactly */
	/* bytes * 1e6 * pct / (100 * srtt * 2^16), 128-bit intermediate */
	return dcc_mul_div(bytes_q16, DCC_USEC_PER_SEC * pct,
			   ((u64)srtt_us * 100) << SWIFT_SHIFT);
}

u16 swift_median_h(u64 cwnd, u32 spa_q8, u16 cap)
{
	u64 w = max_t(u64, cwnd >> SWIFT_SHIFT, 1);
	u64 h;

	spa_q8 = max_t(u32, spa_q8, 256);	/* at least one segment per ACK */
	/* W / (2 * spa): W < 2^30, << 8 < 2^38 */
	h = (w << 8) / (2ULL * spa_q8);
	return (u16)clamp_t(u64, h, 1, max_t(u16, cap, 1));
}
