// SPDX-License-Identifier: GPL-2.0
/*
 * Swift / LSwift / MSwift per-ACK core (Algorithm 1 of the Swift paper, as
 * htsim's swift.cpp implements it, with the spraying variants' median
 * window and loss gate), plain C.  See include/dcc/swift.h for the steps,
 * the scales and the overflow bounds, and modules/swift/tcp_swift.c for
 * the theory and the departures from the papers.
 */
#include "dcc/swift.h"

/* ---- configuration: once per parameter set ---------------------------- */

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

void swift_cfg_fs(struct swift_cfg *c, u64 fs_min_cwnd, u64 fs_max_cwnd)
{
	c->fs_rmin = swift_inv_sqrt(max_t(u64, fs_min_cwnd, 1));
	c->fs_rmax = swift_inv_sqrt(max_t(u64, fs_max_cwnd, 1));
	if (c->fs_rmax >= c->fs_rmin)	/* min >= max: no range, no scaling */
		c->fs_range_ns = 0;
}

void swift_cfg_init(struct swift_cfg *c, const struct swift_params *p)
{
	*c = (struct swift_cfg){
		/* <= 1e6 + 255 * 1e5 us: < 2^35 ns */
		.target_base_ns = ((u64)p->base_target_us +
				   (u64)p->hops * p->hop_us) * 1000,
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

u64 swift_max_cwnd(const struct swift_cfg *c, u32 cwnd_clamp)
{
	u64 m = min_t(u64, (u64)cwnd_clamp << SWIFT_SHIFT, SWIFT_CWND_MAX);

	return max_t(u64, m, c->min_cwnd);
}

/* ---- the target ------------------------------------------------------- */

u64 swift_fs_ns(const struct swift_cfg *c, u64 cwnd)
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

u64 swift_target_ns(const struct swift_cfg *c, u64 min_rtt_ns, u64 cwnd)
{
	return c->target_base_ns + (c->relative ? min_rtt_ns : 0) +
	       swift_fs_ns(c, cwnd);
}

/* ---- the window ------------------------------------------------------- */

/* The cwnd may be cut now: at most once per RTT (now - t_last >= srtt). */
/* fs(cwnd) through the one-entry cache: one square root per new window */
static u64 swift_fs_cached(struct swift_core *st, const struct swift_cfg *c,
			   u64 cwnd)
{
	if (cwnd != st->fs_cwnd) {
		st->fs_ns = (u32)swift_fs_ns(c, cwnd);	/* <= 1e9 */
		st->fs_cwnd = cwnd;
	}
	return st->fs_ns;
}

/* the target at the flow's window, through the cache */
static u64 swift_target_cached(struct swift_core *st, const struct swift_cfg *c,
			       const struct swift_in *in, u64 cwnd)
{
	return c->target_base_ns + (c->relative ? in->min_rtt_ns : 0) +
	       swift_fs_cached(st, c, cwnd);
}

static bool swift_can_decrease(const struct swift_core *st,
			       const struct swift_in *in, u64 now_ns)
{
	/* htsim compares against its smoothed RTT; so does this */
	if (!st->t_last_decrease)
		return true;
	/* a clock behind the last cut (an earlier RX stamp) is within it */
	return now_ns >= st->t_last_decrease &&
	       now_ns - st->t_last_decrease >= in->srtt_ns;
}

/*
 * Clamp and record a decrease.  Strict "<": an unchanged window must not
 * push the once-per-RTT guard forward.
 */
static void swift_finish(struct swift_core *st, const struct swift_cfg *c,
			 const struct swift_in *in, u64 prev, u64 now_ns)
{
	st->cwnd = clamp_t(u64, st->cwnd, c->min_cwnd,
			   swift_max_cwnd(c, in->cwnd_clamp));
	if (st->cwnd < prev)
		st->t_last_decrease = now_ns ? now_ns : 1;
}

/* cwnd *= f, f a Q16 fraction <= 1: cwnd < 2^47, f <= 2^16 */
static void swift_scale(struct swift_core *st, u32 f)
{
	st->cwnd = (st->cwnd * f) >> SWIFT_SHIFT;
}

/*
 * Algorithm 1 on one delay: AI below the target (+ai/cwnd per packet
 * acked, or +ai per packet acked below one packet), else MD by
 * max(1 - beta * (delay - target) / delay, 1 - max_mdf) at most once per
 * RTT.  AI only while cwnd-limited.  Resets the consecutive-RTO count.
 */
static enum swift_action swift_aimd(struct swift_core *st,
				    const struct swift_cfg *c,
				    const struct swift_in *in, u64 now_ns,
				    u64 delay_ns, u32 acked)
{
	u64 prev = st->cwnd, t = swift_target_cached(st, c, in, st->cwnd);
	enum swift_action a;

	st->target_ns = t;
	st->retx_cnt = 0;
	if (delay_ns < t) {
		if (!in->cwnd_limited) {
			a = SWIFT_NO_AI;
		} else if (st->cwnd >= SWIFT_ONE) {
			/* ai * acked / cwnd: ai < 2^23, acked < 2^32: < 2^55 */
			st->cwnd += dcc_mul_div((u64)c->ai * acked, SWIFT_ONE, st->cwnd);
			a = SWIFT_AI;
		} else {
			/* below one packet: + ai per packet acked ([S] Alg. 1) */
			st->cwnd += (u64)c->ai * acked;
			a = SWIFT_AI;
		}
	} else if (swift_can_decrease(st, in, now_ns)) {
		/* 1 - beta * (delay - t) / delay, t <= delay: the cut <= beta */
		u64 cut = dcc_mul_div(c->beta, delay_ns - t, delay_ns);
		u32 f = SWIFT_ONE - (u32)min_t(u64, cut, SWIFT_ONE);

		f = max_t(u32, f, SWIFT_ONE - c->max_mdf);
		swift_scale(st, f);
		a = SWIFT_MD;
	} else {
		a = SWIFT_HOLD;
	}
	swift_finish(st, c, in, prev, now_ns);
	return a;
}

/* ---- per-ACK steps ---------------------------------------------------- */

/* Segments per ACK, EWMA 1/8, Q8 (MSwift's H counts ACKs, not packets). */
static void swift_count_segments(struct swift_core *st, u32 acked)
{
	if (acked > 0) {
		u32 seg = min_t(u32, acked, 255) << 8;

		st->spa_q8 = (u16)((st->spa_q8 * 7U + seg) / 8);
	}
}

/*
 * Swift's SACK-hole reaction: an ACK on which the stack marked packets
 * lost, outside the Loss state, cuts by max_mdf once per RTT.  LSwift and
 * MSwift cut only when lswift_k successive segments are missing at
 * snd_una: a packet late on a slow path leaves a one-segment hole among
 * SACKed ones, a drop-tail overflow leaves a run.
 */
static enum swift_action swift_sack_hole_cut(struct swift_core *st,
					     const struct swift_cfg *c,
					     const struct swift_in *in,
					     const struct dcc_sample *s)
{
	u64 prev = st->cwnd;

	if (!s->losses || in->in_loss)
		return SWIFT_NONE;
	if ((st->flags & SWIFT_LAZY) && in->missing < c->lswift_k)
		return SWIFT_NONE;
	st->retx_cnt = 0;
	if (!swift_can_decrease(st, in, s->rx_ns))
		return SWIFT_FR_HOLD;
	swift_scale(st, SWIFT_ONE - c->max_mdf);
	swift_finish(st, c, in, prev, s->rx_ns);
	return SWIFT_FR;
}

/* Empty MSwift's window (stale samples: idle, RTO, a gap of 2 srtt). */
static void swift_median_reset(struct swift_core *st)
{
	if ((st->flags & SWIFT_MEDIAN) && st->med.buf)
		dcc_medwin_init(&st->med.w, st->med.w.cap);
}

/*
 * The delay the law uses.  Swift: the sample.  MSwift: the median (or
 * pctl-th percentile) of the last H = max(W/2, 1) ACKs (Eq. 8), the window
 * emptied first when no sample arrived for 2 srtt ([M] III-A: samples
 * older than 1-2 RTTs are ignored).
 */
static u32 swift_delay(struct swift_core *st, const struct swift_cfg *c,
		       const struct swift_in *in, const struct dcc_sample *s,
		       u16 *h)
{
	u64 now = s->rx_ns;

	if (!(st->flags & SWIFT_MEDIAN) || !st->med.buf)
		return s->rtt_ns;
	/* rx_ns may step back (sample.h): that is no staleness */
	if (st->med.w.n && dcc_rx_age(now, st->last_push_ns) > 2 * in->srtt_ns)
		swift_median_reset(st);
	st->last_push_ns = now;
	*h = swift_median_h(st->cwnd, st->spa_q8, c->h_cap);
	dcc_medwin_push(&st->med.w, st->med.buf, s->rtt_ns, *h);
	if (c->pctl == 50)
		return dcc_medwin_median(&st->med.w, st->med.buf);
	return dcc_medwin_percentile(&st->med.w, st->med.buf, c->pctl);
}

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
static u64 swift_pacing_rtt_ns(struct swift_core *st,
			       const struct swift_cfg *c,
			       const struct swift_in *in)
{
	u64 rtt = in->srtt_ns;

	if (st->cwnd < SWIFT_ONE) {
		u64 cap = max_t(u64, swift_target_cached(st, c, in, st->cwnd),
				st->last_delay_ns);

		rtt = min_t(u64, rtt, max_t(u64, cap, 1));
	}
	return rtt;
}

u64 swift_pacing_rate(u64 cwnd, u32 mss, u64 rtt_ns, u32 pct)
{
	u64 bytes_q16, r;

	rtt_ns = max_t(u64, rtt_ns, 1);
	/* cwnd <= 2^46 (clamped), mss < 2^16: < 2^62 */
	bytes_q16 = min_t(u64, cwnd, SWIFT_CWND_MAX) * mss;
	if (cwnd < SWIFT_ONE)
		pct = 100;	/* one packet per rtt / cwnd, exactly */
	/* bytes_q16 * 1e9 * pct / (100 rtt), 128-bit; then / 2^16 (exact) */
	r = dcc_mul_div(bytes_q16, DCC_NSEC_PER_SEC * pct, rtt_ns * 100);
	return r == U64_MAX ? r : r >> SWIFT_SHIFT;
}

u32 swift_cwnd_pkts(u64 cwnd)
{
	u64 p = cwnd >> SWIFT_SHIFT;

	return (u32)clamp_t(u64, p, 1, U32_MAX);
}

void swift_decide(struct swift_core *st, const struct swift_cfg *c,
		  const struct swift_in *in, u32 mss, struct dcc_decision *d)
{
	mss = max_t(u32, mss, 1);
	d->rate_bytes_ps = swift_pacing_rate(st->cwnd, mss,
					     swift_pacing_rtt_ns(st, c, in),
					     c->pacing_pct);
	/* <= 2^30 packets (the clamp) * 2^16 B */
	d->cwnd_bytes = (u64)swift_cwnd_pkts(st->cwnd) * mss;
	d->changed = true;
}

u16 swift_median_h(u64 cwnd, u32 spa_q8, u16 cap)
{
	u64 w = max_t(u64, cwnd >> SWIFT_SHIFT, 1);
	u64 h;

	spa_q8 = max_t(u32, spa_q8, 256);	/* at least one segment per ACK */
	/* W / (2 * spa): W < 2^31, << 8 < 2^39 */
	h = (w << 8) / (2ULL * spa_q8);
	return (u16)clamp_t(u64, h, 1, max_t(u16, cap, 1));
}

void swift_on_ack(struct swift_core *st, const struct swift_cfg *c,
		  const struct swift_in *in, const struct dcc_sample *s,
		  struct dcc_decision *d)
{
	enum swift_action law = SWIFT_NONE, fr;
	u16 h = 0;

	swift_count_segments(st, s->acked);
	fr = swift_sack_hole_cut(st, c, in, s);
	if (!s->why) {
		u32 delay = swift_delay(st, c, in, s, &h);

		law = swift_aimd(st, c, in, s->rx_ns, delay, s->acked);
		st->last_delay_ns = delay;
	}
	swift_decide(st, c, in, s->mss, d);
	d->flags = SWIFT_D_MAKE(law, fr, h);
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
	return swift_cwnd_pkts(st->cwnd);
}

void swift_on_idle_restart(struct swift_core *st)
{
	swift_median_reset(st);
}
