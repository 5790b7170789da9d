// SPDX-License-Identifier: GPL-2.0
/*
 * Swift / LSwift / MSwift per-ACK core (Algorithm 1 of the Swift paper, as
 * htsim's swift.cpp implements it, with the spraying variants' median
 * window and loss gate), plain C.  See include/dcc/swift.h for the steps,
 * the scales and the overflow bounds, and modules/swift/tcp_swift.c for
 * the theory and the departures from the papers.
 */
#include "dcc/swift.h"

/* ---- 1/sqrt(cwnd): the flow-scaling term's, once per new window ----- */

/*
 * 2^32 / sqrt(m) for m = (i + 16.5) / 16, i = 0..47: the midpoints of the
 * 48 steps of 1/16 that [1, 4) is cut into, rounded down (all < 2^32).
 * A start for Newton's iteration good to about 6 bits.
 */
static const u32 swift_rsqrt_tab[48] = {
	0xfc176441, 0xf4c866d6, 0xee133df5, 0xe7e3ed19, 0xe229ec87, 0xdcd76dd2,
	0xd7e0cec3, 0xd33c2da0, 0xcee115f2, 0xcac83f5c, 0xc6eb5a2b, 0xc344e63f,
	0xbfd011f8, 0xbc889f5d, 0xb96ace22, 0xb673498e, 0xb39f1977, 0xb0eb95bc,
	0xae565bc0, 0xabdd4587, 0xa97e6234, 0xa737ef99, 0xa50854bd, 0xa2ee1d1e,
	0xa0e7f49f, 0x9ef4a403, 0x9d130dd3, 0x9b422bb3, 0x99810c09, 0x97cecfea,
	0x962aa94c, 0x9493d966, 0x9309af48, 0x918b8695, 0x9018c663, 0x8eb0e038,
	0x8d534f27, 0x8bff9700, 0x8ab54395, 0x8973e816, 0x883b1e76, 0x870a86e7,
	0x85e1c75c, 0x84c08b1b, 0x83a68254, 0x829361c9, 0x8186e275, 0x8080c142,
};

/*
 * 1/sqrt(x / 2^16) in Q24, as floor(2^40 / floor(sqrt(x))), x = cwnd << 16
 * (the window in Q16, so sqrt(x) is sqrt(cwnd in packets) in Q16).  It
 * runs once per new window, i.e. after every additive increase, so it
 * takes no division and no bit-by-bit loop: with x = m 4^k, m in [1, 4),
 *  - y = 1/sqrt(m) from the table, then three of Newton's steps
 *    y' = y (3 - m y^2) / 2 in Q32 (6, 12, 24, then 32 bits);
 *  - s = x y = sqrt(x), within one of floor(sqrt(x)), made exact by
 *    comparing s^2 and (s + 1)^2 with x;
 *  - R = 2^(63+k) / s from y by two steps R' = R (2 - s R) of the
 *    reciprocal (y is 1/sqrt(x), within 1/s of 1/s), r = R >> (23 + k)
 *    within one of floor(2^40 / s), made exact by comparing r s and
 *    (r + 1) s with 2^40.
 * The two comparisons make the result exact whatever the estimates are
 * (test_swift_law checks it against the bit-by-bit square root and a
 * division over the whole range; the estimates are never off by more
 * than one).  Bounds: x <= 2^62, s <= 2^31, so s^2, (s + 1)^2 < 2^63;
 * r <= 2^32 + 1, r s < 2^64; M < 2^64, y, Y < 2^32: products in 128 bits.
 */
u64 swift_inv_sqrt(u64 cwnd)
{
	u64 x, m, y, s, rr, r;
	int k, i;

	cwnd = min_t(u64, cwnd, SWIFT_CWND_MAX);
	if (!cwnd)
		return 1ULL << 32;
	x = cwnd << SWIFT_SHIFT;		/* [2^16, 2^62] */
	k = (fls64(x) - 1) >> 1;		/* x in [4^k, 4^(k+1)), k in [8, 31] */
	m = x << (62 - 2 * k);			/* m / 2^62 in [1, 4) */
	y = swift_rsqrt_tab[(m >> 58) - 16];	/* 2^32 / sqrt(m / 2^62) */
	for (i = 0; i < 3; i++) {
		/* m y^2 in Q62 (about 2^62), y (3 - m y^2) / 2 in Q32 */
		u64 t = (u64)(((dcc_u128)m * (y * y)) >> 64);

		y = (u64)(((dcc_u128)y * ((3ULL << 62) - t)) >> 63);
	}
	s = (u64)(((dcc_u128)m * y) >> (94 - k));	/* sqrt(x) */
	while (s * s > x)
		s--;
	while ((s + 1) * (s + 1) <= x)
		s++;
	rr = y << 31;				/* 2^(63+k) / sqrt(x) */
	for (i = 0; i < 2; i++) {
		/* s R / 2^k in Q63 (about 2^63), R (2 - s R) */
		u64 p = (u64)(((dcc_u128)s * rr) >> k);

		rr = (u64)(((dcc_u128)rr * (0 - p)) >> 63);
	}
	r = rr >> (23 + k);			/* 2^40 / s */
	while (r * s > (1ULL << (SWIFT_INV_SQRT_SHIFT + SWIFT_SHIFT)))
		r--;
	while ((r + 1) * s <= (1ULL << (SWIFT_INV_SQRT_SHIFT + SWIFT_SHIFT)))
		r++;
	return min_t(u64, r, 1ULL << 32);
}

/* ---- configuration: once per parameter set ---------------------------- */

/*
 * The first window in [lo, hi] whose 1/sqrt is at or below @r (exists:
 * inv_sqrt(hi) <= r), by bisection: swift_inv_sqrt() does not increase
 * with the window.
 */
static u64 swift_first_at_or_below(u64 lo, u64 hi, u64 r)
{
	while (lo < hi) {
		u64 mid = lo + (hi - lo) / 2;

		if (swift_inv_sqrt(mid) <= r)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

void swift_cfg_fs(struct swift_cfg *c, u64 fs_min_cwnd, u64 fs_max_cwnd)
{
	u64 lo = clamp_t(u64, fs_min_cwnd, 1, SWIFT_CWND_MAX);
	u64 hi = clamp_t(u64, fs_max_cwnd, 1, SWIFT_CWND_MAX);
	u64 d, m;
	u32 l;

	/* inv_sqrt clamps at SWIFT_CWND_MAX itself: the same values */
	c->fs_rmin = swift_inv_sqrt(lo);
	c->fs_rmax = swift_inv_sqrt(hi);
	/* min >= max: no range; no range: no scaling, fs = 0 at every window */
	if (!c->fs_range_ns || c->fs_rmax >= c->fs_rmin) {
		c->fs_range_ns = 0;
		c->fs_zero_cwnd = 0;
		return;
	}
	/*
	 * fs = 0 where r <= rmax, i.e. from the first such window on (at or
	 * below hi, whose r is rmax); fs = range where r >= rmin, i.e. up to
	 * the last such window (at or above lo, whose r is rmin).  Exact:
	 * the same comparisons, made once.
	 */
	c->fs_zero_cwnd = swift_first_at_or_below(1, hi, c->fs_rmax);
	c->fs_full_cwnd = swift_first_at_or_below(lo, SWIFT_CWND_MAX, c->fs_rmin - 1) - 1;
	/*
	 * Between them fs = range * (r - rmax) / d, d = rmin - rmax in
	 * [1, 2^32], numerator < 2^30 * 2^32 = 2^62: with l = ceil(log2 d)
	 * and m = ceil(2^(62 + l) / d) <= 2^63, floor(n / d) =
	 * (n * m) >> (62 + l) for every n < 2^62 (Granlund, Montgomery,
	 * "Division by Invariant Integers using Multiplication", Thm 4.2:
	 * 2^(62+l) <= m d < 2^(62+l) + 2^l).
	 */
	d = c->fs_rmin - c->fs_rmax;
	l = d > 1 ? fls64(d - 1) : 0;
	m = dcc_mul_div(1ULL << 62, 1ULL << l, d);
	if ((dcc_u128)m * d != (dcc_u128)1 << (62 + l))
		m++;
	c->fs_magic = m;
	c->fs_magic_shift = (u8)(62 + l);
}

void swift_cfg_init(struct swift_cfg *c, const struct swift_params *p)
{
	*c = (struct swift_cfg){
		/* <= 1e6 + 255 * 1e5 us: < 2^35 ns */
		.target_base_ns = ((u64)p->base_target_us +
				   (p->hop_ttl ? 0 : (u64)p->hops * p->hop_us)) * 1000,
		.hop_ns = p->hop_us * 1000,
		.hops = (u8)min_t(u32, p->hops, 255),
		.hop_ttl = p->hop_ttl,
		.fs_range_ns = (u64)p->fs_range_us * 1000,
		.min_cwnd = SWIFT_MPKT_TO_Q16(p->min_cwnd_mpkt),
		.init_cwnd = (u64)p->init_cwnd << SWIFT_SHIFT,
		.ai = (u32)(((u64)p->ai_mpkt << SWIFT_SHIFT) / 1000),
		.beta = SWIFT_PM_TO_Q16(p->beta_pm),
		.max_mdf = SWIFT_PM_TO_Q16(p->max_mdf_pm),
		.retx_reset = p->retx_reset,
		.lswift_k = p->lswift_k,
		.pctl = p->pctl,
		.h_cap = (u16)clamp_t(u32, p->h_cap, 1, DCC_MED_CAP_MAX),
		.pacing_pct = (u16)p->pacing_pct,
		.relative = !p->target_mode,
	};
	swift_cfg_fs(c, SWIFT_MPKT_TO_Q16(p->fs_min_cwnd_mpkt),
		     (u64)p->fs_max_cwnd << SWIFT_SHIFT);
}

/* ---- the target ------------------------------------------------------- */

u64 swift_fs_ns(const struct swift_cfg *c, u64 cwnd)
{
	u64 r;

	if (!c->fs_range_ns || !cwnd || c->fs_rmin <= c->fs_rmax)
		return 0;
	/* r <= rmax, r >= rmin, as resolved by swift_cfg_fs() */
	if (cwnd >= c->fs_zero_cwnd)
		return 0;
	if (cwnd <= c->fs_full_cwnd)
		return c->fs_range_ns;
	r = swift_inv_sqrt(cwnd);	/* rmax < r < rmin */
	/* range < 2^30 ns (1 s), r - rmax < 2^32: n < 2^62, swift_cfg_fs */
	if (likely(c->fs_range_ns < (1ULL << 30)))
		return (u64)(((dcc_u128)(c->fs_range_ns * (r - c->fs_rmax)) * c->fs_magic) >>
			     c->fs_magic_shift);
	return dcc_mul_div(c->fs_range_ns, r - c->fs_rmax, c->fs_rmin - c->fs_rmax);
}

u64 swift_target_ns(const struct swift_cfg *c, u64 base_ns, u64 cwnd)
{
	return c->target_base_ns + base_ns +
	       swift_fs_ns(c, cwnd);
}

/* ---- what an ACK rarely needs (swift_on_ack: include/dcc/swift.h) ----- */

/*
 * fs of the flow's window into the one-entry cache (swift_aimd reads it
 * there while the window stays): one square root per new window.
 * Windows of 2^32 and above are not cached (fs_cwnd is u32); fs_ns is
 * kept anyway, for swift_law_target_ns().
 */
u64 swift_fs_update(struct swift_core *st, const struct swift_cfg *c)
{
	u64 cwnd = st->cwnd;

	st->fs_ns = (u32)swift_fs_ns(c, cwnd);	/* <= 1e9 */
	st->fs_cwnd = cwnd <= U32_MAX ? (u32)cwnd : 0;
	return st->fs_ns;
}

/* cwnd *= f, f a Q16 fraction <= 1: cwnd < 2^47, f <= 2^16 */
static void swift_scale(struct swift_core *st, u32 f)
{
	st->cwnd = (st->cwnd * f) >> SWIFT_SHIFT;
}

/*
 * Algorithm 1's decrease (swift_aimd): cwnd *= max(1 - beta * (delay - t)
 * / delay, 1 - max_mdf), t <= delay: the cut <= beta.
 */
void swift_md(struct swift_core *st, const struct swift_cfg *c, u64 delay_ns,
	      u64 target_ns)
{
	u64 cut = dcc_mul_div(c->beta, delay_ns - target_ns, delay_ns);
	u32 f = SWIFT_ONE - (u32)min_t(u64, cut, SWIFT_ONE);

	f = max_t(u32, f, SWIFT_ONE - c->max_mdf);
	swift_scale(st, f);
}

/*
 * Swift's SACK-hole cut (swift_on_ack has checked its condition): by
 * max_mdf, at most once per RTT.
 */
enum swift_action swift_fr_cut(struct swift_core *st, const struct swift_cfg *c,
			       u64 srtt_ns, u32 cwnd_clamp, u64 now_ns)
{
	const struct swift_in in = { .srtt_ns = srtt_ns, .cwnd_clamp = cwnd_clamp };
	u64 prev = st->cwnd;

	st->retx_cnt = 0;
	if (!swift_can_decrease(st, &in, now_ns))
		return SWIFT_FR_HOLD;
	swift_scale(st, SWIFT_ONE - c->max_mdf);
	swift_finish(st, c, &in, prev, now_ns);
	return SWIFT_FR;
}

/* Empty MSwift's window (stale samples: idle, RTO, a gap of 2 srtt). */
static void swift_median_reset(struct swift_core *st)
{
	if ((st->flags & SWIFT_MEDIAN) && st->med.buf)
		dcc_medwin_init(&st->med.w, st->med.w.cap);
}

/* ---- the decision ----------------------------------------------------- */

/*
 * The rtt the pacer divides by.  Below one packet the pacer is the window:
 * one packet per rtt / cwnd ([S] 3.3), the rtt being the path's.  srtt is
 * not always that: the ACK that ends a blackhole acknowledges
 * retransmitted data, has no delay sample (Karn), but its timestamp echo
 * still feeds srtt the time since the last retransmission.  Measured in
 * test_swift_rto (1 s of lost ACKs, 7 RTOs, cwnd reset to 0.001): srtt
 * 182 us -> 198 ms on that ACK, so 0.001 * 1448 B / 198 ms = 7 B/s, and
 * the next packet pushed the stack's pacing stamp 207 s ahead.  So below
 * one packet srtt is capped at max(target, last delay): the law's own
 * Karn-clean delay, or the target it holds the flow to, whichever is
 * larger -- there min(198 ms, max(2.1 ms, 41 us)) = 2.1 ms, a packet every
 * 2.1 s at min_cwnd.  A path whose delay really is above target keeps
 * pacing by srtt, as [S] does (capping at the target alone paced a
 * loopback mswift flow with 40 ms delayed-ACK RTTs and a 161 us target
 * 240x faster; in test_swift_basic its window sat below 1/256 packet).
 */
static u64 swift_pacing_rtt_ns(const struct swift_core *st,
			       const struct swift_cfg *c, u64 srtt_ns,
			       u64 base_ns)
{
	u64 cwnd = st->cwnd, fs, cap;

	if (cwnd >= SWIFT_ONE)
		return srtt_ns;
	/*
	 * The target at the window after the ACK, read through the cache but
	 * not stored in it: fs_ns stays that of the window the law compared
	 * at (swift_law_target_ns()).
	 */
	fs = cwnd == st->fs_cwnd ? st->fs_ns : swift_fs_ns(c, cwnd);
	cap = c->target_base_ns + base_ns + fs;
	cap = max_t(u64, cap, st->last_delay_ns);
	return min_t(u64, srtt_ns, max_t(u64, cap, 1));
}

/* swift_pacing_rate(), inline in the decision */
static inline u64 swift_rate(u64 cwnd, u32 mss, u64 rtt_ns, u32 pct)
{
	u64 bytes_q16, r;

	rtt_ns = max_t(u64, rtt_ns, 1);
	/* cwnd <= 2^46 (clamped), mss < 2^16: < 2^62 */
	bytes_q16 = min_t(u64, cwnd, SWIFT_CWND_MAX) * mss;
	if (cwnd < SWIFT_ONE) {
		/*
		 * One packet per rtt / cwnd, exactly (pct 100): below 2^32
		 * bytes_q16 (mss < 2^16) * 1e9 < 2^62 needs no 128 bits.
		 */
		if (likely(bytes_q16 <= U32_MAX))
			return div64_u64(bytes_q16 * DCC_NSEC_PER_SEC, rtt_ns) >>
			       SWIFT_SHIFT;
		pct = 100;
	}
	/* bytes_q16 * 1e9 * pct / (100 rtt), 128-bit; then / 2^16 (exact) */
	r = dcc_mul_div(bytes_q16, DCC_NSEC_PER_SEC * pct, rtt_ns * 100);
	return r == U64_MAX ? r : r >> SWIFT_SHIFT;
}

u64 swift_pacing_rate(u64 cwnd, u32 mss, u64 rtt_ns, u32 pct)
{
	return swift_rate(cwnd, mss, rtt_ns, pct);
}

u32 swift_cwnd_pkts(u64 cwnd)
{
	u64 p = cwnd >> SWIFT_SHIFT;

	return (u32)clamp_t(u64, p, 1, U32_MAX);
}

/* The decision of the current state (swift_decide, swift_decide_mark). */
static inline void swift_decision(const struct swift_core *st,
				  const struct swift_cfg *c, u64 srtt_ns,
				  u64 base_ns, u32 mss,
				  struct dcc_decision *d)
{
	mss = max_t(u32, mss, 1);
	d->rate_bytes_ps = swift_rate(st->cwnd, mss,
				      swift_pacing_rtt_ns(st, c, srtt_ns, base_ns),
				      c->pacing_pct);
	/* <= 2^30 packets (the clamp) * 2^16 B */
	d->cwnd_bytes = (u64)swift_cwnd_pkts(st->cwnd) * mss;
	d->changed = true;
}

void swift_decide(struct swift_core *st, const struct swift_cfg *c,
		  const struct swift_in *in, u32 mss, struct dcc_decision *d)
{
	swift_decision(st, c, in->srtt_ns, in->base_ns, mss, d);
}

/* No window is in the stale bucket (swift_decision_stands): decide next. */
static void swift_decision_stale(struct swift_core *st)
{
	st->dec_shift = SWIFT_DEC_STALE;
	st->dec_cwnd = U32_MAX;
}

/*
 * A new decision (swift_on_ack), recorded as the one in force.  Below one
 * packet the pacer is the window, exact on every ACK: the next ACK
 * decides again.  Above, the window's bucket is 2^dec_shift Q16 wide, at
 * most 1/32 of it and at most one packet (so snd_cwnd is one per
 * bucket): dec_shift = min(16, log2(cwnd) - 5) in [11, 16], cwnd >>
 * dec_shift < 2^31.  An srtt of 2^32 ns (4.3 s) or more records 0: any
 * other srtt, and every larger one, moves it.
 */
void swift_decide_mark(struct swift_core *st, const struct swift_cfg *c,
		       u64 srtt_ns, u64 base_ns, u32 mss,
		       struct dcc_decision *d)
{
	u64 cwnd = st->cwnd;
	u8 shift;

	swift_decision(st, c, srtt_ns, base_ns, mss, d);
	if (cwnd < SWIFT_ONE || mss != (u16)mss) {
		swift_decision_stale(st);
		return;
	}
	shift = (u8)min_t(int, SWIFT_SHIFT, fls64(cwnd) - 1 - SWIFT_DEC_CWND_SHIFT);
	st->dec_shift = shift;
	st->dec_cwnd = (u32)(cwnd >> shift);
	st->dec_mss = (u16)mss;
	st->dec_srtt_ns = srtt_ns <= U32_MAX ? (u32)srtt_ns : 0;
}

/* ---- events ----------------------------------------------------------- */

int swift_core_init(struct swift_core *st, const struct swift_cfg *c,
		    u8 flags, u32 cwnd_clamp)
{
	*st = (struct swift_core){
		/* the law keeps cwnd in [min_cwnd, max_cwnd]: so does the start */
		.cwnd = clamp_t(u64, c->init_cwnd, c->min_cwnd,
				swift_max_cwnd(c, cwnd_clamp)),
		.spa_q8 = 256,
		.flags = flags,
	};
	/* init applies swift_decide(): the first ACK marks one in force */
	swift_decision_stale(st);
	if (flags & SWIFT_MEDIAN)
		return dcc_medbuf_init(&st->med, c->h_cap);
	return 0;
}

void swift_core_release(struct swift_core *st)
{
	dcc_medbuf_release(&st->med);
}

enum swift_action swift_on_rto(struct swift_core *st, const struct swift_cfg *c,
			       const struct swift_in *in)
{
	u64 prev = st->cwnd;
	enum swift_action a = SWIFT_RTO;

	if (st->retx_cnt < 255)
		st->retx_cnt++;
	if (st->retx_cnt >= c->retx_reset) {
		st->cwnd = c->min_cwnd;
		a = SWIFT_RESET;
	} else if (swift_can_decrease(st, in, in->now_ns)) {
		swift_scale(st, SWIFT_ONE - c->max_mdf);
	}
	swift_finish(st, c, in, prev, in->now_ns);
	swift_median_reset(st);		/* samples before the stall are stale */
	/* the stack set snd_cwnd = inflight + 1: the next ACK decides */
	swift_decision_stale(st);
	return a;
}

void swift_on_recovery_start(struct swift_core *st)
{
	st->prior_cwnd = (u32)min_t(u64, st->cwnd >> SWIFT_SHIFT, U32_MAX);
}

u32 swift_on_undo(struct swift_core *st)
{
	/* Swift has no undo and keeps its cut; LSwift/MSwift take it back */
	if (st->flags & SWIFT_LAZY)
		st->cwnd = max_t(u64, st->cwnd, (u64)st->prior_cwnd << SWIFT_SHIFT);
	/* the stack sets snd_cwnd to what this returns: the rate follows */
	swift_decision_stale(st);
	return swift_cwnd_pkts(st->cwnd);
}

void swift_on_idle_restart(struct swift_core *st)
{
	swift_median_reset(st);
}
