// SPDX-License-Identifier: GPL-2.0
/*
 * NSCC / MNSCC per-ACK control law, plain C (tcp_nscc.ko and the unit
 * tests compile this file).  Scales: include/dcc/nscc.h.  Theory and the
 * design decisions: modules/nscc/tcp_nscc.c.  Citations: [N] nscc-notes,
 * [M] mswift-mnscc, [H] uet-htsim uec.cpp, "spec" = shared/spec/nscc.md.
 */
#include "dcc/nscc.h"

const struct nscc_params nscc_params_default = {
	.nic_mbps = 100000,		/* the UE reference NIC, 100 Gbit/s */
	.network_rtt_us = 0,		/* per flow: its base RTT (A6) */
	.target_us = 0,
	.target_pct = 100,		/* no trimming: 1.0 network RTT (2.3) */
	.prop_gain_x100 = 400,		/* alpha = 4 MSS scale_a / rtt */
	.fi_x100 = 500,			/* fi = 5 MSS scale_a */
	.eta_x100 = 15,			/* eta = 0.15 MSS scale_a */
	.fi_scale_x100 = 25,		/* fi_scale = 0.25 scale_a */
	.fi_thresh_us = 0,		/* 1 us at 12 us, scaled (A8) */
	.gamma_pct = 80,
	.md_floor_pct = 50,
	.delay_alpha_ppm = 12500,	/* 0.0125 */
	.qa_gate = 3,			/* maxwnd / 8 */
	.qa_thresh_pct = 400,		/* 4 x target */
	.fulfill_bytes = 8 * NSCC_MTU_REF,
	.maxwnd_pct = 150,
	.init_cwnd_pct = 100,		/* start at maxwnd, as [H] and [M] */
	.noecn_mark_pct = 100,
	.ecn_backstop_pct = 150,
	.median_hmax = NSCC_MED_HMAX,
	.median_ewma = 0,
	.median_lower = 1,
	.cwnd_limited_only = 1,
	.pacing_gain_pct = 120,		/* spec 6.5 */
};

/* The emergency EWMA branch's gain is hard-wired in [H] (0.0125, Q16). */
#define NSCC_EWMA_EMERG_Q16	819
#define NSCC_LOSS_EWMA_MAX	8	/* EWMA updates per lossy ACK (4.6) */

static u32 sat_add32(u32 a, u64 b)
{
	u64 r = (u64)a + b;

	return r > U32_MAX ? U32_MAX : (u32)r;
}

static u32 sat_sub32(u32 a, u32 b)
{
	return a > b ? a - b : 0;
}

static u32 clamp_u64_u32(u64 v)
{
	return v > U32_MAX ? U32_MAX : (u32)v;
}

/* a * b >> shift for a 128-bit product, saturated to u64 */
static u64 mul_shr_sat(u64 a, u64 b, unsigned int shift)
{
	dcc_u128 p = ((dcc_u128)a * b) >> shift;

	return p > U64_MAX ? U64_MAX : (u64)p;
}

/* pct of v, u32 result saturated (v, pct are u32) */
static u32 pct_of(u32 v, u32 pct)
{
	return clamp_u64_u32((u64)v * pct / 100);
}

void nscc_resolve(const struct nscc_params *p, u32 base_us, u32 mss,
		  bool ecn, bool mnscc, struct nscc_cfg *c)
{
	u64 rate = (u64)p->nic_mbps * DCC_MBPS_TO_BPS;	/* <= 1e11 < 2^37 */
	u32 base = base_us ? base_us : 1000;
	u32 nrtt = p->network_rtt_us ? p->network_rtt_us : base;
	/* network BDP, <= 1e11 B (800 Gbit/s * 1 s) */
	u64 nbdp = dcc_rate_time_bytes(rate, nrtt, DCC_USEC_PER_SEC);
	u64 bdp = dcc_rate_time_bytes(rate, base, DCC_USEC_PER_SEC);
	u32 mark_pct;

	mss = mss ? mss : 1;
	*c = (struct nscc_cfg){ 0 };
	c->rate_bytes_ps = rate;
	c->base_us = base;
	c->nrtt_us = nrtt;
	/*
	 * alpha [H]: 4 * MSS_ref * scale_a * scale_b / target, with
	 * scale_b = target / 12 us, i.e. 4 * MSS_ref * scale_a / 12 us: a
	 * per-RTT proportional step alpha * (target - d) that is 4 MSS_ref
	 * per reference RTT of missing queue.  The "12 us" is the reference
	 * RTT at which [H] derived it; we use the network RTT instead (the
	 * same at the reference network), so that the step stays a fixed
	 * fraction of the BDP per RTT of missing queue at any RTT (at 10 ms,
	 * 12 us would make the step 800 x the BDP).  scale_a / nrtt =
	 * rate / ref_bdp, so alpha only depends on the rate:
	 *	alpha = gain * MSS_ref * rate / ref_bdp  (bytes per s of delay)
	 * Q24 bytes/us: rate << 24 < 2^61, times gain*4096 < 2^26: the
	 * 128-bit product divided by 1.5e13 is < 2^44.
	 */
	c->alpha_q24 = dcc_mul_div(rate << 24, (u64)p->prop_gain_x100 * NSCC_MSS_REF,
				   100ULL * NSCC_REF_BDP * DCC_USEC_PER_SEC);
	/* fi, eta: x100 * MSS_ref * nbdp / ref_bdp; nbdp * 2^26 < 2^63 */
	c->fi = dcc_mul_div(nbdp, (u64)p->fi_x100 * NSCC_MSS_REF,
			    100ULL * NSCC_REF_BDP);
	c->eta = dcc_mul_div(nbdp, (u64)p->eta_x100 * NSCC_MSS_REF,
			     100ULL * NSCC_REF_BDP);
	/* fi_scale Q16: x100/100 * nbdp / ref_bdp; nbdp << 16 < 2^53 */
	c->fi_scale_q16 = dcc_mul_div(nbdp << 16, p->fi_scale_x100,
				      100ULL * NSCC_REF_BDP);

	c->mss = mss;
	c->min_cwnd = clamp_u64_u32(2ULL * mss);	/* DCC_MIN_CWND packets */
	c->maxwnd = clamp_u64_u32(dcc_mul_div(bdp, p->maxwnd_pct, 100));
	c->maxwnd = max(c->maxwnd, c->min_cwnd);
	/* [H] starts at maxwnd (line rate); 0 = Linux's IW10 (A16) */
	c->init_cwnd = p->init_cwnd_pct ? pct_of(c->maxwnd, p->init_cwnd_pct) :
					  clamp_u64_u32(10ULL * mss);
	c->init_cwnd = clamp_val(c->init_cwnd, c->min_cwnd, c->maxwnd);

	c->target_us = p->target_us ? p->target_us : pct_of(nrtt, p->target_pct);
	c->target_us = max_t(u32, c->target_us, 1);
	c->fi_thresh_us = p->fi_thresh_us ? p->fi_thresh_us : max_t(u32, nrtt / 12, 1);
	c->qa_thresh_us = pct_of(c->target_us, p->qa_thresh_pct);
	c->fulfill_bytes = p->fulfill_bytes;
	mark_pct = ecn ? p->ecn_backstop_pct : p->noecn_mark_pct;
	c->mark_us = mark_pct ? max_t(u32, pct_of(c->target_us, mark_pct), 1) : 0;
	c->gamma_q16 = (u32)((u64)p->gamma_pct * 65536 / 100);
	c->floor_q16 = (u32)((u64)p->md_floor_pct * 65536 / 100);
	c->ewma_q16 = max_t(u32, (u32)((u64)p->delay_alpha_ppm * 65536 / 1000000), 1);
	c->qa_gate = (u8)min_t(u32, p->qa_gate, 31);
	c->hmax = mnscc ? (u8)clamp_t(u32, p->median_hmax, 1, NSCC_MED_HMAX) : 0;
	c->median_ewma = mnscc && p->median_ewma;
	c->median_lower = p->median_lower;
	c->cwnd_limited_only = p->cwnd_limited_only;
}

static void nscc_clamp(struct nscc_state *s, const struct nscc_cfg *c)
{
	s->cwnd = clamp_val(s->cwnd, c->min_cwnd, c->maxwnd);
}

void nscc_state_init(struct nscc_state *s, const struct nscc_cfg *c,
		     u32 now_us)
{
	*s = (struct nscc_state){ 0 };
	s->cwnd = c->init_cwnd;
	s->last_adjust = now_us;
	s->last_dec = now_us - c->base_us - 1;	/* an MD may come at once */
	dcc_med4_init(&s->med);
	s->flags = NSCC_S_INITED;
}

/*
 * W is "cwnd in packets" [M Eq. 9], and H counts ACKs.  On Linux (one ACK
 * per MSS-sized segment with quickack) that is cwnd / mss.  Spec A3 counts
 * W in 4160-byte reference packets instead; with 1448-byte segments that
 * shrinks H to 1 (no filter) below 8 KB... 33 KB of cwnd, i.e. exactly
 * when outliers have already pushed the window down: in the packet model
 * (test_nscc_law, 1 of 4 paths +30 ms) MNSCC then collapsed like NSCC.
 */
u16 nscc_median_h(const struct nscc_cfg *c, u32 cwnd)
{
	u32 w = max_t(u32, cwnd / max_t(u32, c->mss, 1), 1);

	if (!c->hmax)
		return 0;
	return (u16)clamp_t(u32, w / 2, 1, c->hmax);	/* [M] Eq. 9 */
}

u32 nscc_md_keep_q16(const struct nscc_cfg *c, u32 avg_us)
{
	u64 cut;

	if (avg_us <= c->target_us)
		return 65536;
	/* gamma (<= 2^16) * (avg - target) (< 2^28) fits; / avg < 2^16 */
	cut = div64_u64((u64)c->gamma_q16 * (avg_us - c->target_us), avg_us);
	return max_t(u32, 65536 - (u32)min_t(u64, cut, 65536), c->floor_q16);
}

/*
 * Three-case EWMA with trust bias [N 4d, H update_delay]: a high delay
 * without ECN is not trusted (it may be another path's queue, or noise), so
 * a small constant (base/4) is fed instead; a huge delay (> 5 base RTTs) is
 * always fed, with the hard-wired gain.  @d and the result are us.
 */
static void nscc_update_delay(struct nscc_state *s, const struct nscc_cfg *c,
			      u32 d, bool skip)
{
	u32 gain = c->ewma_q16;
	u64 sample = d;
	s64 diff;

	if (!skip && d > c->target_us)
		sample = c->base_us / 4;
	else if ((u64)d > 5ULL * c->base_us)
		gain = NSCC_EWMA_EMERG_Q16;
	/* d <= 1e6 (dcc clamps RTTs to 1 s) so sample << 8 < 2^28 */
	diff = (s64)(min_t(u64, sample, 1U << 23) << 8) - (s64)s->avg_q8;
	/* sign-safe: shift magnitudes only; |diff| * gain < 2^45 */
	if (diff >= 0)
		s->avg_q8 += (u32)(((u64)diff * gain) >> 16);
	else
		s->avg_q8 -= (u32)(((u64)-diff * gain) >> 16);
}

/*
 * Quick Adapt [N 5, H quick_adapt]: once per base_rtt + target of wall
 * clock (checked when an ACK arrives), if something bad happened (a loss,
 * or the ACK closing the window saw delay > qa_threshold) and the flow
 * delivered less than maxwnd >> qa_gate in the window, set cwnd to what
 * was delivered and ignore the ECN echoes of what is already in flight.
 * Returns true when this ACK must not be used further.
 */
static bool nscc_quick_adapt(struct nscc_state *s, const struct nscc_cfg *c,
			     const struct nscc_ack *a, bool is_loss, bool skip,
			     u32 delay, struct nscc_out *o)
{
	bool done = false;

	if (s->ignore_left && skip) {
		done = true;
		o->quadrant = NSCC_Q_IGNORED;
	} else if (!(s->flags & NSCC_S_QA_ARMED) || (s32)(a->now_us - s->qa_end) > 0) {
		/* a saturated achieved count is "a lot", never "too little" */
		if ((s->flags & NSCC_S_QA_ARMED) &&
		    ((s->flags & NSCC_S_TRIGGER_QA) || is_loss || delay > c->qa_thresh_us) &&
		    s->achieved != U32_MAX && s->achieved < (c->maxwnd >> c->qa_gate)) {
			s->cwnd = max(s->achieved, c->min_cwnd);
			s->ignore_left = a->inflight_bytes;
			s->flags &= ~NSCC_S_TRIGGER_QA;
			done = true;
			o->qa = true;
			o->quadrant = NSCC_Q_QA;
		}
		s->achieved = 0;
		s->qa_end = a->now_us + c->base_us + c->target_us;
		s->flags |= NSCC_S_QA_ARMED;
	}
	if (done) {
		s->inc_acc = 0;
		s->received = 0;
	}
	return done;
}

/* "The pipe is empty": multiplicative growth, applied at once [H]. */
static bool nscc_fast_increase(struct nscc_state *s, const struct nscc_cfg *c,
			       u32 b, u32 d)
{
	if (d < c->fi_thresh_us) {
		s->fi_count = sat_add32(s->fi_count, b);
		if (s->fi_count > s->cwnd || (s->flags & NSCC_S_INCREASE)) {
			/* b < 2^32, fi_scale < 2^54: 128-bit product */
			s->cwnd = sat_add32(s->cwnd, mul_shr_sat(b, c->fi_scale_q16, 16));
			s->flags |= NSCC_S_INCREASE;
			return true;
		}
	} else {
		s->fi_count = 0;
	}
	s->flags &= ~NSCC_S_INCREASE;
	return false;
}

static void nscc_md(struct nscc_state *s, const struct nscc_cfg *c,
		    u32 now, struct nscc_out *o)
{
	u32 avg = nscc_avg_us(s);

	s->flags &= ~NSCC_S_INCREASE;
	s->fi_count = 0;
	/* sized by the EWMA, at most once per base RTT [N 3b, H] */
	if (avg > c->target_us && (s32)(now - s->last_dec) > (s32)c->base_us) {
		s->cwnd = (u32)(((u64)s->cwnd * nscc_md_keep_q16(c, avg)) >> 16);
		s->cwnd = max(s->cwnd, c->min_cwnd);
		s->last_dec = now;
		o->md = true;
	}
}

/* Apply the batched credit, and eta once per network RTT [N 3c, H]. */
static void nscc_fulfill(struct nscc_state *s, const struct nscc_cfg *c,
			 const struct nscc_ack *a)
{
	s->cwnd = sat_add32(s->cwnd, div64_u64(s->inc_acc, max_t(u32, s->cwnd, 1)));
	if ((s32)(a->now_us - s->last_adjust) >= (s32)c->nrtt_us) {
		if (a->cwnd_limited || !c->cwnd_limited_only)
			s->cwnd = sat_add32(s->cwnd, c->eta);
		s->last_adjust = a->now_us;
	}
	s->inc_acc = 0;
	s->received = 0;
}

void nscc_on_ack(struct nscc_state *s, const struct nscc_cfg *c,
		 const struct nscc_ack *a, struct nscc_out *o)
{
	u32 b = a->acked_bytes, delay, raw = 0;
	bool valid = a->rtt_valid, mark, grow;

	*o = (struct nscc_out){ 0 };
	/* byte counters [H processAck]: fulfill, QA, post-QA filter */
	s->received = sat_add32(s->received, b);
	s->achieved = sat_add32(s->achieved, b);
	s->ignore_left = sat_sub32(s->ignore_left, b);

	/* queueing delay (2.2): RTT above the base RTT (min-tracked) */
	if (valid)
		raw = sat_sub32(a->rtt_us, c->base_us);

	/*
	 * Decision delay.  NSCC: the raw sample, or the EWMA when there is
	 * none.  MNSCC: the median of the last H samples ([M] III-B, A1),
	 * H = max(min(W/2, 4), 1) from cwnd; with no new sample, the median
	 * of the window still held; with an empty window, the EWMA (2.7).
	 */
	if (c->hmax) {
		u16 h = nscc_median_h(c, s->cwnd);

		if (valid)
			dcc_med4_push(&s->med, raw, h);
		if (!s->med.w.n)
			delay = nscc_avg_us(s);
		else if (c->median_lower)	/* nearest rank: n=4 -> 2nd */
			delay = dcc_medwin_percentile(&s->med.w, s->med.buf, 50);
		else
			delay = dcc_medwin_median(&s->med.w, s->med.buf);
	} else {
		delay = valid ? raw : nscc_avg_us(s);
	}

	/*
	 * "skip" is the ECN echo.  A delay at or above mark_us counts as a
	 * mark too: without ECN negotiated (mark_us = noecn_mark_pct of
	 * target) NSCC would otherwise have no decrease at all, and with ECN
	 * on a path that never marks (backstop) it would grow until loss
	 * (spec 6.3 / A13 fallback; see tcp_nscc.c).  The ECN bit itself is
	 * never median-filtered (A1); the delay-derived mark uses the
	 * decision delay, so MNSCC's is filtered.
	 */
	mark = a->ce || (c->mark_us && (valid || c->hmax) && delay >= c->mark_us);
	o->mark = mark;
	o->delay_us = delay;
	o->raw_us = raw;

	if (valid)
		nscc_update_delay(s, c, c->median_ewma ? delay : raw, mark);

	/* a loss is a NACK of lost bytes [H updateCwndOnNack_NSCC], 4.6 */
	if (a->lost_bytes) {
		u32 i, n = min_t(u32, max_t(u32, a->lost_pkts, 1), NSCC_LOSS_EWMA_MAX);

		s->ignore_left = sat_sub32(s->ignore_left, a->lost_bytes);
		for (i = 0; i < n; i++)
			nscc_update_delay(s, c, c->nrtt_us, true);
		s->flags |= NSCC_S_TRIGGER_QA;
		if (nscc_quick_adapt(s, c, a, true, true, 0, o))
			goto out;
		s->cwnd = max(sat_sub32(s->cwnd, a->lost_bytes), c->min_cwnd);
		o->quadrant = NSCC_Q_LOSS;
	}

	if (nscc_quick_adapt(s, c, a, false, mark, delay, o))
		goto out;

	/* the four quadrants [N 2, H updateCwndOnAck_NSCC] */
	grow = a->cwnd_limited || !c->cwnd_limited_only;	/* A15 */
	if (!mark && delay >= c->target_us) {
		o->quadrant = NSCC_Q_FAIR;
		if (grow)	/* fi (< 2^44) * b (< 2^32): 128-bit product */
			s->inc_acc = dcc_sat_add_u64(s->inc_acc, mul_shr_sat(c->fi, b, 0));
	} else if (!mark) {
		o->quadrant = NSCC_Q_PROP;
		if (grow && !nscc_fast_increase(s, c, b, delay)) {
			/* alpha (< 2^44) * dd (< 2^20) * b (< 2^32) >> 24 */
			dcc_u128 cr = (dcc_u128)c->alpha_q24 * (c->target_us - delay) * b;

			cr >>= 24;
			s->inc_acc = dcc_sat_add_u64(s->inc_acc,
						     cr > U64_MAX ? U64_MAX : (u64)cr);
		}
	} else if (delay >= c->target_us) {
		o->quadrant = NSCC_Q_MD;
		nscc_md(s, c, a->now_us, o);
	} else {
		/* steer only: the load balancer's business, cwnd unchanged */
		o->quadrant = NSCC_Q_STEER;
	}
	nscc_clamp(s, c);

	if (s->received > c->fulfill_bytes ||
	    (s32)(a->now_us - s->last_adjust) > (s32)c->nrtt_us) {
		nscc_fulfill(s, c, a);
		o->fulfill = true;
	}
out:
	nscc_clamp(s, c);
	s->quadrant = o->quadrant;
}

void nscc_on_rto(struct nscc_state *s, const struct nscc_cfg *c, u32 mss)
{
	s->cwnd = max(sat_sub32(s->cwnd, mss), c->min_cwnd);
}

void nscc_on_idle_restart(struct nscc_state *s, u32 now_us)
{
	s->flags &= ~(NSCC_S_QA_ARMED | NSCC_S_TRIGGER_QA | NSCC_S_INCREASE);
	s->fi_count = 0;
	s->inc_acc = 0;
	s->received = 0;
	s->last_adjust = now_us;
	dcc_med4_init(&s->med);
}
