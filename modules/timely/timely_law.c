// SPDX-License-Identifier: GPL-2.0
/*
 * The per-ACK core of TIMELY, patched TIMELY and SQCC (Tang et al.,
 * Alg. 1-3), plain C.  Scales, ranges and overflow bounds:
 * include/dcc/timely.h; theory and kernel glue: modules/timely/tcp_timely.c.
 * Every product below names its bound; none can overflow for inputs
 * within the documented ranges.  All times are ns.
 */
#include "dcc/timely.h"

#ifndef WRITE_ONCE	/* userspace: the fields get_info reads unlocked */
#define WRITE_ONCE(x, v) ((x) = (v))
#endif

/* ---- configuration ---------------------------------------------------- */

/* a threshold parameter in ns, or @auto_ns (0 = from C) when it is 0 */
static u32 timely_param_ns(u32 us, u32 auto_ns)
{
	return us ? (u32)dcc_us_to_ns(us) : auto_ns;	/* <= 10^9 */
}

void timely_cfg_resolve_nic(struct timely_cfg *c, u8 kind,
			    const struct timely_params *p, u32 nic_mbps)
{
	/* C: the parameter, else the egress NIC's; <= 10^11 B/s < 2^37 */
	u64 C = min_t(u64, (u64)(p->link_mbps ? p->link_mbps : nic_mbps) *
			   DCC_MBPS_TO_BPS, DCC_RATE_MAX_BPS);
	/* seg/C, ns: seg < 2^23, 10^9 < 2^30: < 2^53; clamped to 10^8 (the
	 * T_high it gives stays <= 10^9)
	 */
	u32 segc = C ? (u32)min_t(u64, div64_u64((u64)p->seg_bytes *
						 DCC_NSEC_PER_SEC, C),
				  100000000) : 0;
	u32 tl = timely_param_ns(p->t_low_us, C ? max_t(u32, segc, 1000) :
				 TIMELY_T_LOW_US * 1000);
	u32 th = timely_param_ns(p->t_high_us,
				 C ? TIMELY_AUTO_THIGH_MULT * max_t(u32, segc, 1000) :
				     TIMELY_T_HIGH_US * 1000);
	/* C / 1000, C / 10^4: <= 10^8 B/s; the params' <= 1.25 * 10^10 */
	u64 delta = p->delta_kbps ? (u64)p->delta_kbps * 125 :
		    C ? div_u64(C, TIMELY_AUTO_DELTA_DIV) :
			(u64)TIMELY_DELTA_KBPS * 125;
	u64 rmin = p->rate_min_kbps ? (u64)p->rate_min_kbps * 125 :
		   max_t(u64, div_u64(C, TIMELY_AUTO_FLOOR_DIV),
			 (u64)TIMELY_RATE_MIN_KBPS * 125);
	/* update_clock 2: the RTT clock above the papers' line rate */
	bool rtt_clock = p->update_clock == TIMELY_CLOCK_RTT ||
			 (p->update_clock == TIMELY_CLOCK_AUTO &&
			  C > (u64)TIMELY_AUTO_CLOCK_MBPS * DCC_MBPS_TO_BPS);

	/* together 104 bytes, icsk_ca_priv's size (tcp_timely.c) */
	BUILD_BUG_ON(sizeof(struct timely_cfg) > 48);
	BUILD_BUG_ON(sizeof(struct timely_state) > 56);
	/* a reader may see one threshold of a two-write change: keep tl < th
	 * (half of T_high, in whole us, >= 1 us; T_high >= 2 us)
	 */
	if (tl >= th)
		tl = max_t(u32, th / 2000 * 1000, 1000);
	th = max_t(u32, th, 2000);
	*c = (struct timely_cfg){
		.delta_bytes_ps = max_t(u64, delta, 1),
		.link_bytes_ps = C,
		.rate_min_bytes_ps = rmin,
		.t_low_ns = tl,
		.t_high_ns = th,
		.rtt_ref_ns = kind == TIMELY_LAW_PATCHED ?
			      timely_param_ns(p->rtt_ref_us, tl) : 0,
		.dmin_ns = (u32)dcc_us_to_ns(p->min_rtt_us),
		.base_ns = (u32)dcc_us_to_ns(p->base_rtt_us),
		/* the RTT clock: a window closes on its gate alone */
		.seg_bytes = rtt_clock ? 0 : p->seg_bytes,
		.alpha_q16 = max_t(u32, TIMELY_PPM_TO_Q16(p->alpha_ppm), 1),
		.hai_thresh = (u8)min_t(u32, p->hai_thresh, 255),
		.kind = kind,
		.relative = !p->delay_mode,
		.rtt_last = !!p->rtt_filter,
		.beta_q20 = max_t(u32, TIMELY_PPM_TO_Q20(p->beta_ppm), 1),
		.loss_md_pct = (u8)min_t(u32, p->loss_md_pct, 100),
		.regain = !!p->loss_regain,
		.empty_hai = !!p->empty_hai,
	};
	/* update_clock 2: the gate (and g's normaliser) at least seg/C */
	if (rtt_clock && p->update_clock == TIMELY_CLOCK_AUTO && !c->dmin_ns) {
		c->dmin_ns = segc;
		c->dmin_floor = 1;
	}
	if (kind == TIMELY_LAW_SQCC) {
		c->n_flows = (u16)min_t(u32, p->n_flows, TIMELY_N_MAX);
		c->n_source = p->n_source & 3;
		if (c->n_source == TIMELY_N_AUTO)
			c->n_source = p->link_mbps ? TIMELY_N_ESTIMATE :
						     TIMELY_N_LOCAL;
		c->thigh_max_cut = !!p->thigh_max_cut;
	}
}

/* ---- the completion window -------------------------------------------- */

/* the gate stays: it is the last decision's (timely_settle) */
void timely_win_reset(struct timely_state *st, u64 now_ns)
{
	st->win.start_ns = now_ns;
	st->win.bytes = 0;
	st->win.rtt_ns = U32_MAX;
	st->win.dly_ns = U32_MAX;
}

/* Close the window at @now_ns: what it covered into @o, the next opens. */
static void timely_win_close(struct timely_state *st, u64 now_ns,
			     struct timely_win_out *o)
{
	/* the delayed ACKs' RTT only if no other ACK had one */
	o->rtt_ns = st->win.rtt_ns != U32_MAX ? st->win.rtt_ns :
						st->win.dly_ns;
	o->bytes = st->win.bytes;
	o->span_ns = dcc_rx_age(now_ns, st->win.start_ns);
	timely_win_reset(st, now_ns);
}

bool timely_win_add(struct timely_state *st, const struct timely_cfg *c,
		    u64 now_ns, u32 rtt_ns, bool delayed, u32 bytes,
		    u32 gap_ns, struct timely_win_out *o)
{
	timely_win_feed(st, c, rtt_ns, delayed, bytes);
	if (!timely_win_due(st, c, now_ns, gap_ns))
		return false;
	timely_win_close(st, now_ns, o);
	return true;
}

/* ---- SQCC's N, k, T_low, delta ------------------------------------------ */

u8 timely_sqcc_k(u32 n)
{
	/* floor(log10 N), clamped to >= 1 (Table II needs floor, base 10;
	 * N < 10 would give T_low = 0)
	 */
	if (n < 100)
		return 1;
	if (n < 1000)
		return 2;
	if (n < 10000)
		return 3;
	return 4;
}

u32 timely_sqcc_t_low(const struct timely_cfg *c, u8 k)
{
	/* k <= 4, T_low0 <= 10^9 ns: product < 2^32, taken in u64.  At most
	 * T_high / 2 so the band [T_low, T_high) never vanishes.
	 */
	u64 tl = min_t(u64, (u64)k * c->t_low_ns, c->t_high_ns / 2);

	return (u32)max_t(u64, tl, 1);
}

u64 timely_sqcc_delta(const struct timely_cfg *c, u32 n, u8 k)
{
	/* C unknown: C = 1000 delta0 (the scaling rule, reversed) */
	u64 C = c->link_bytes_ps ? c->link_bytes_ps :
				    (u64)c->delta_bytes_ps * 1000;
	u64 nn = (u64)max_t(u32, n, 1) * max_t(u32, n, 1);	/* < 2^32 */

	/* C <= 2^44 (1000 delta0), k <= 4: C k < 2^46.  Paper: delta =
	 * C k / N^2 (the lower root of Eq. 24); capped at delta0 where that
	 * exceeds the initial step (small N), floored at 1 B/s.
	 */
	return clamp_t(u64, div64_u64(C * k, nn), 1, c->delta_bytes_ps);
}

u32 timely_n_sample(u64 link_bytes_ps, s32 g_q16, u64 own_bytes_ps)
{
	s32 g = clamp_t(s32, g_q16, -TIMELY_ONE / 2, TIMELY_ONE);
	u64 n;

	if (!own_bytes_ps)
		return 0;
	/* C (1 + g) / R: C < 2^40, (1 + g) <= 2^17 in Q16, 128-bit product */
	n = dcc_mul_div(link_bytes_ps, (u64)(TIMELY_ONE + g), own_bytes_ps);
	n = (n + TIMELY_ONE / 2) >> TIMELY_Q;
	return (u32)clamp_t(u64, n, 1, TIMELY_N_MAX);
}

u32 timely_nest_push(struct timely_state *st, u32 sample)
{
	st->nest[st->nest_idx] = (u16)clamp_t(u32, sample, 1, TIMELY_N_MAX);
	st->nest_idx = st->nest_idx >= 2 ? 0 : st->nest_idx + 1;
	return timely_nest_get(st);
}

u32 timely_n(const struct timely_state *st, const struct timely_cfg *c,
	     u32 n_local)
{
	u32 local = max_t(u32, n_local, 1);

	if (c->kind != TIMELY_LAW_SQCC)
		return 1;
	switch (c->n_source) {
	case TIMELY_N_FIXED:
		return max_t(u32, c->n_flows, 1);
	case TIMELY_N_ESTIMATE:
		return min_t(u32, max_t(u32, local, timely_nest_get(st)),
			     TIMELY_N_MAX);
	default:
		return min_t(u32, local, TIMELY_N_MAX);
	}
}

/* ---- the rate law ------------------------------------------------------- */

u64 timely_cwnd_bytes(const struct timely_cfg *c, u32 base_ns, u64 rate,
		      u32 mss)
{
	u64 horizon = c->relative ? (u64)base_ns + c->t_high_ns :
				    max(c->t_high_ns, base_ns);

	/* rate <= 2^37, horizon < 2^31 ns: exact in dcc_rate_time_bytes */
	return 2 * dcc_rate_time_bytes(rate, horizon, DCC_NSEC_PER_SEC) +
	       3ULL * mss;
}

/* rate * (1 - md): md in [0, 1] Q16, rate < 2^37: product < 2^53 */
static u64 timely_cut(u64 rate, u64 md_q16)
{
	return (rate * (TIMELY_ONE - min_t(u64, md_q16, TIMELY_ONE))) >> TIMELY_Q;
}

/* Eq. 16: T_high (d - T_low) / (T_low (T_high - d)), capped at E_MAX */
static u64 timely_sqcc_error(u32 d, u32 tl, u32 th, u64 emax)
{
	if (d >= th)
		return emax;
	if (d <= tl)
		return 0;
	/* th < 2^30, (d - tl) << 16 < 2^46: 128-bit product; den < 2^60 */
	return min(emax, dcc_mul_div(th, (u64)(d - tl) << TIMELY_Q,
				     (u64)tl * (th - d)));
}

/*
 * The blended update of Alg. 2 line 18 / Alg. 3 line 19:
 *	rate = delta (1 - w) + rate (1 - beta err w),  factor clamped to [0, 2]
 * err may be negative (patched TIMELY with RTT_ref > T_low).
 */
static u64 timely_blend(u64 rate, u64 delta, u32 w, s64 err, u32 beta_q20)
{
	/* |err| <= 2^36, beta <= 2^20: |beta err| < 2^57; >> 20 <= 2^37,
	 * times w <= 2^16: < 2^53.  Divisions, not shifts, keep the signed
	 * arithmetic portable.
	 */
	s64 be = div64_s64((s64)beta_q20 * err, 1 << TIMELY_BETA_Q);
	s64 fac = TIMELY_ONE - div64_s64(be * (s64)w, TIMELY_ONE);

	fac = clamp_t(s64, fac, 0, 2 * TIMELY_ONE);
	/* rate < 2^37, fac <= 2^17; delta <= 2^37 (x5 HAI < 2^40), 1 - w <= 2^16 */
	return ((rate * (u64)fac) >> TIMELY_Q) +
	       ((delta * (TIMELY_ONE - w)) >> TIMELY_Q);
}

/* Alg. 1-3 lines 1-4: the RTT-difference EWMA and the gradient g, Q16 */
static s64 timely_gradient(const struct timely_cfg *c, struct timely_state *st,
			   u32 rtt, u32 base_ns)
{
	/* |diff| < 2^30, |rtt_diff| < 2^30: |x| < 2^31, alpha <= 2^17:
	 * product < 2^48.  rtt_diff stays a convex combination of diffs.
	 */
	s64 x = ((s64)rtt - (s64)st->prev_rtt_ns) - st->rtt_diff;
	s64 g;

	st->prev_rtt_ns = rtt;
	st->rtt_diff += (s32)div64_s64((s64)c->alpha_q16 * x, TIMELY_ONE);

	/* line 4: g = rttDiff / D_minRTT, Q16: rtt_diff << 16 < 2^46 */
	g = div64_s64((s64)st->rtt_diff * TIMELY_ONE, timely_dmin_ns(c, base_ns));
	return clamp_t(s64, g, -64 * TIMELY_ONE, 64 * TIMELY_ONE);
}

/*
 * The regain's target: its reference less 1/8 of it.  The reference is the
 * rate before the cut, or the rate of the last window that saw the queue
 * below T_low if that is higher: a flow the law had already cut for a
 * burst's queue before the burst's losses comes back to what it had
 * before the burst, not to the little the law left it (the paper's
 * increase, delta per completion, then takes hundreds of RTTs:
 * test_timely_law, the burst).  good_rate is not written during a regain,
 * so the target holds still while it lasts.  Both unpack to < 2^43 B/s.
 */
static u64 timely_regain_target(const struct timely_state *st)
{
	u64 ref = max(dcc_f16_unpack(st->undo_rate),
		      dcc_f16_unpack(st->good_rate));

	return ref - (ref >> TIMELY_REGAIN_SHIFT);
}

/*
 * empty_hai, armed (the flow has had a loss cut): the delay @d of this
 * completion says the queue is near empty (T_low @tl in force)
 */
static bool timely_near_empty(const struct timely_cfg *c,
			      const struct timely_state *st, u32 d, u32 tl)
{
	return c->empty_hai && (st->flags & TIMELY_S_LOSSY) &&
	       d < tl / TIMELY_EMPTY_DIV;
}

/*
 * An additive step @step (delta, or TIMELY's HAI step 5 delta < 2^40) for
 * a window of @ai_bytes (timely_law_update()): its ai_bytes / seg_bytes
 * share when 0 < ai_bytes < seg_bytes (< 2^23: product < 2^63), else all
 */
static u64 timely_ai_step(const struct timely_cfg *c, u64 step, u32 ai_bytes)
{
	if (!ai_bytes || ai_bytes >= c->seg_bytes)
		return step;
	return div_u64(step * ai_bytes, c->seg_bytes);
}

void timely_law_update(const struct timely_cfg *c, struct timely_state *st,
		       u32 rtt_ns, u32 base_ns, u32 n, u32 ai_bytes,
		       bool app_limited, u64 rate_max,
		       struct timely_law_out *o)
{
	u32 streak = timely_empty_streak(c->kind);
	u32 rtt = clamp_t(u32, rtt_ns, 1, TIMELY_RTT_MAX_NS);
	u32 tl = c->t_low_ns, th = c->t_high_ns, beta = c->beta_q20, d, w;
	u64 rate = st->rate, delta = (u64)c->delta_bytes_ps, emax;
	s64 g;

	*o = (struct timely_law_out){ 0 };
	if (c->kind == TIMELY_LAW_SQCC) {
		/* Alg. 3 line 5, on every event with the current N */
		o->k = timely_sqcc_k(n);
		tl = timely_sqcc_t_low(c, o->k);
		delta = timely_sqcc_delta(c, n, o->k);
	}
	o->t_low_ns = tl;
	o->delta_bytes_ps = delta;
	/* relative mode: thresholds apply to the queueing delay */
	d = !c->relative ? rtt : rtt > base_ns ? rtt - base_ns : 0;
	o->d_ns = d;

	if (!st->prev_rtt_ns) {
		/* seed prevRTT: no difference from a zero previous RTT */
		st->prev_rtt_ns = rtt;
		o->branch = TIMELY_BR_FIRST;
		return;
	}

	g = timely_gradient(c, st, rtt, base_ns);
	o->g_q16 = (s32)g;
	st->neg_cnt = g < 0 ? min_t(u32, st->neg_cnt + 1, 255) : 0;
	if (c->hai_thresh && st->neg_cnt >= c->hai_thresh)
		delta *= TIMELY_HAI_MULT;	/* [17]: N = 5 in HAI */

	/* weight w(g) = clamp(2g + 0.5, 0, 1) (Eq. 5), |g| <= 2^22 */
	w = (u32)clamp_t(s64, 2 * g + TIMELY_ONE / 2, 0, TIMELY_ONE);
	emax = timely_emax_q16(beta);

	if (d < tl) {
		/* line 5-6: additive increase (no HAI below T_low, as [17]);
		 * an early window's share of it
		 */
		rate += timely_ai_step(c, o->delta_bytes_ps, ai_bytes);
		o->branch = TIMELY_BR_LOW;
		if ((st->flags & TIMELY_S_REGAIN) && d < tl / 2 &&
		    2 * st->rate > rate) {
			/* st->rate < 2^37: 2 st->rate < 2^38 */
			rate = min(2 * st->rate, max(rate, timely_regain_target(st)));
			o->branch = TIMELY_BR_REGAIN;
		} else if (timely_near_empty(c, st, d, tl) &&
			   st->empty_cnt >= streak - 1) {
			/* the room has lasted `streak' RTTs.
			 * rate < 2^37, the step < 2^41: sum < 2^42
			 */
			rate = st->rate + timely_empty_step(o->delta_bytes_ps,
							    st->empty_cnt, streak);
			o->branch = TIMELY_BR_EMPTY;
		}
	} else if (d > th && !(c->kind == TIMELY_LAW_SQCC && c->thigh_max_cut)) {
		/* line 7-8: rate *= 1 - beta (1 - T_high / d); d > th >= 1.
		 * (d - th) << 16 < 2^46; beta * frac <= 2^36
		 */
		u64 frac = div64_u64((u64)(d - th) << TIMELY_Q, d);

		rate = timely_cut(rate, (beta * frac) >> TIMELY_BETA_Q);
		o->branch = TIMELY_BR_HIGH;
	} else if (c->kind == TIMELY_LAW_GRADIENT) {
		if (g <= 0) {
			/* line 9-10 (+ HAI of [17]); an early window's share */
			rate += timely_ai_step(c, delta, ai_bytes);
			o->branch = TIMELY_BR_INC;
		} else {
			/* line 11-12: rate *= max(0, 1 - beta g); beta g < 2^43 */
			rate = timely_cut(rate, ((u64)beta * (u64)g) >>
					  TIMELY_BETA_Q);
			o->branch = TIMELY_BR_DEC;
		}
	} else {
		s64 err;

		if (c->kind == TIMELY_LAW_PATCHED) {
			/* Eq. 9: (d - RTT_ref) / RTT_ref, signed, >= -1;
			 * |d - ref| << 16 < 2^46
			 */
			u32 ref = max_t(u32, c->rtt_ref_ns, 1);

			err = div64_s64(((s64)d - ref) * TIMELY_ONE, ref);
			err = min_t(s64, err, (s64)emax);
		} else {
			/* Eq. 16 (above T_high only with thigh_max_cut) */
			err = (s64)timely_sqcc_error(d, tl, th, emax);
		}
		o->w_q16 = w;
		o->err_q16 = err;
		rate = timely_blend(rate, delta, w, err, beta);
		o->branch = TIMELY_BR_BLEND;
	}

	if (app_limited && rate > st->rate) {
		rate = st->rate;
		o->held = true;
	}
	st->rate = clamp_t(u64, rate, c->rate_min_bytes_ps,
			   max_t(u64, c->rate_min_bytes_ps, rate_max));
	/* the streak empty_hai counts (T_low of this event: SQCC's k T_low0) */
	if (timely_near_empty(c, st, d, tl) && !app_limited)
		st->empty_cnt = min_t(u32, st->empty_cnt + 1, streak);
	else
		st->empty_cnt = 0;
}

/* ---- the per-ACK core ----------------------------------------------------- */

/*
 * SQCC's sender-side N sample, after an update: it needs a queue (a
 * saturated link: d >= T_low0) and C, and the flow's own rate over the
 * window (not app-limited).
 */
static void timely_n_update(struct timely_state *st, const struct timely_cfg *c,
			    const struct timely_update *u, bool app_limited)
{
	u64 own;

	if (c->kind != TIMELY_LAW_SQCC || c->n_source != TIMELY_N_ESTIMATE ||
	    !c->link_bytes_ps || u->law.d_ns < c->t_low_ns ||
	    !u->win.span_ns || app_limited)
		return;
	/* bytes < 2^32, 10^9 < 2^30: 128-bit in dcc_bytes_per_sec */
	own = dcc_bytes_per_sec(u->win.bytes, u->win.span_ns, DCC_NSEC_PER_SEC);
	timely_nest_push(st, timely_n_sample(c->link_bytes_ps, u->law.g_q16,
					     own));
}

/*
 * TIMELY's law on a window empty_hai closed after D_minRTT: the bytes it
 * carried at its rate (at least 1, at most seg_bytes), which its additive
 * step is scaled by; 0 (a full step) for every other window and law.
 */
static u32 timely_ai_bytes(const struct timely_state *st,
			   const struct timely_cfg *c, u64 span_ns)
{
	if (c->kind != TIMELY_LAW_GRADIENT || !c->seg_bytes ||
	    !timely_empty_credited(st, c->kind) ||
	    (st->flags & TIMELY_S_REGAIN))
		return 0;
	return (u32)clamp_t(u64, dcc_rate_time_bytes(st->rate, span_ns,
						     DCC_NSEC_PER_SEC),
			    1, c->seg_bytes);
}

/* One completion event: one evaluation of Alg. 1/2/3. */
static void timely_completion(struct timely_state *st,
			      const struct timely_cfg *c, u32 base_ns,
			      u32 n_local, u64 rate_max, bool app_limited,
			      struct timely_update *u)
{
	/* a credited window's bytes are not its own: no N sample from it */
	bool credited = (st->flags & TIMELY_S_REGAIN) ||
			timely_empty_credited(st, c->kind);
	u64 sent_at = st->rate;		/* the rate this window went out at */

	u->n = timely_n(st, c, n_local);
	timely_law_update(c, st, u->win.rtt_ns, base_ns, u->n,
			  timely_ai_bytes(st, c, u->win.span_ns), app_limited,
			  rate_max, &u->law);
	WRITE_ONCE(st->n_hat, (u16)u->n);
	WRITE_ONCE(st->last_w, (u8)(u->law.w_q16 >> 9));	/* <= 128 */
	if (!credited)
		timely_n_update(st, c, u, app_limited);
	/*
	 * A window sent at a rate the link carried with the queue below
	 * T_low: the regain's reference, should a loss cut come (a regain's
	 * own windows are not: their rate is the cut's)
	 */
	if (u->law.branch != TIMELY_BR_FIRST && u->law.d_ns < u->law.t_low_ns &&
	    !app_limited && !(st->flags & TIMELY_S_REGAIN))
		st->good_rate = dcc_f16_pack(sent_at);
	/*
	 * The regain ends at its target, whichever branch got it there (or
	 * a later ssthresh lowered the target: a second one in an episode
	 * saves the cut rate)
	 */
	if (credited && st->rate >= timely_regain_target(st))
		st->flags &= ~TIMELY_S_REGAIN;
}

/*
 * While the regain lasts, and after a completion that saw the queue near
 * empty (empty_hai), the open window is credited the segment's bytes: it
 * closes on its first ACK with an RTT after D_minRTT (the gate), whatever
 * it acked, so that a flow the cut (or a burst) left near rate_min
 * updates once per RTT, not once per seg_bytes at that rate (64 KB at
 * 1 Mbit/s: 0.5 s).  The per-ACK test is unchanged.
 */
static void timely_regain_credit(struct timely_state *st,
				 const struct timely_cfg *c)
{
	if ((st->flags & TIMELY_S_REGAIN) || timely_empty_credited(st, c->kind))
		st->win.bytes = max(st->win.bytes, c->seg_bytes);
}

/*
 * The window cap: 2 rate (base + T_high), so pacing binds.  Before the
 * first completion (of the connection, or since an RTO or an idle
 * restart) no RTT has confirmed the rate yet, and that cap is tens of
 * BDPs: at most one BDP at the rate over the base RTT, or the initial
 * window, goes out.
 */
static inline void __timely_decide(const struct timely_state *st,
				   const struct timely_cfg *c, u32 base_ns,
				   u32 mss, struct dcc_decision *d)
{
	u64 cwnd = timely_cwnd_bytes(c, base_ns, st->rate, mss);

	if (!st->prev_rtt_ns) {
		u64 iw = (u64)TIMELY_INIT_CWND * max_t(u32, mss, 1);
		u64 bdp = base_ns ? dcc_rate_time_bytes(st->rate, base_ns,
							DCC_NSEC_PER_SEC) : 0;

		cwnd = min(cwnd, max(iw, bdp));
	}
	d->rate_bytes_ps = st->rate;
	d->cwnd_bytes = cwnd;
	d->changed = true;
}

void timely_decide(const struct timely_state *st, const struct timely_cfg *c,
		   u32 min_rtt_ns, u32 mss, struct dcc_decision *d)
{
	__timely_decide(st, c, timely_base_ns(c, min_rtt_ns), mss, d);
}

/*
 * A decision taken with base RTT @base_ns (on an ACK, or at init): the
 * window's gate becomes the D_minRTT in force (the parameter, else the
 * base; 0 before any base RTT), and the decision in force is current.
 * Unless no base RTT is known yet: the cap's BDP and horizon and the gate
 * would all move with the first one, so the decision stays stale and
 * every ACK decides until a base comes (the handshake gives one in the
 * kernel; a model may start without).
 */
static void timely_settle(struct timely_state *st, const struct timely_cfg *c,
			  u32 base_ns)
{
	st->win.gate_ns = c->dmin_floor ? max(c->dmin_ns, base_ns) :
			  c->dmin_ns ? c->dmin_ns : base_ns;
	if (base_ns)
		st->flags &= ~TIMELY_S_STALE;
	else
		st->flags |= TIMELY_S_STALE;
}

/*
 * The window is tested again with the gate of this ACK's base RTT, so
 * that on every ACK that decides (and while no base is known, every ACK
 * does) the window closes exactly when the base now says.
 */
void timely_on_change(struct timely_state *st, const struct timely_cfg *c,
		      const struct dcc_sample *s, u32 min_rtt_ns, u32 n_local,
		      u64 rate_max, struct dcc_decision *d,
		      struct timely_update *u)
{
	u32 base_ns = timely_base_ns(c, min_rtt_ns);

	d->flags = 0;
	timely_settle(st, c, base_ns);
	if (timely_win_due(st, c, s->rx_ns, st->win.gate_ns)) {
		timely_win_close(st, s->rx_ns, &u->win);
		timely_completion(st, c, base_ns, n_local, rate_max,
				  s->app_limited, u);
		timely_regain_credit(st, c);
		d->flags = TIMELY_D_UPDATE;
	}
	__timely_decide(st, c, base_ns, s->mss, d);
}

/* ---- events ----------------------------------------------------------------- */

void timely_on_init(struct timely_state *st, const struct timely_cfg *c,
		    u64 init_rate_bps, u64 now_ns, u32 min_rtt_ns, u64 iw_bytes,
		    u32 mss, u64 rate_max, struct dcc_decision *d)
{
	u32 base_ns = timely_base_ns(c, min_rtt_ns);
	u64 rate = init_rate_bps;

	/*
	 * Initial rate: the parameter if set; else the link rate when it is
	 * configured (the ns-3 convention), else the initial window over
	 * the handshake RTT.  Additive increase climbs delta per
	 * completion, so where RTTs are long an operator who knows the fair
	 * share should start there.
	 */
	if (!rate && c->link_bytes_ps)
		rate = c->link_bytes_ps;
	else if (!rate)
		rate = dcc_rate_time_bytes(iw_bytes, DCC_NSEC_PER_SEC,
					   base_ns ? base_ns : 1000000);
	*st = (struct timely_state){
		.rate = clamp_t(u64, rate, c->rate_min_bytes_ps,
				max_t(u64, c->rate_min_bytes_ps, rate_max)),
		.n_hat = 1,
		.flags = TIMELY_S_INITED,
	};
	timely_nest_init(st, 1);
	timely_win_reset(st, now_ns);
	timely_settle(st, c, base_ns);
	__timely_decide(st, c, base_ns, mss, d);
	d->flags = 0;
}

void timely_on_restart(struct timely_state *st, u64 now_ns)
{
	timely_law_reset_grad(st);
	timely_win_reset(st, now_ns);
	st->empty_cnt = 0;	/* no streak spans the gap */
	st->flags |= TIMELY_S_STALE;	/* the first-window cap, next ACK */
}

bool timely_on_loss(struct timely_state *st, const struct timely_cfg *c,
		    bool rto, u64 now_ns, u32 min_rtt_ns, u32 mss,
		    struct dcc_decision *d)
{
	if (rto)
		timely_on_restart(st, now_ns);	/* samples span the stall */
	if (st->flags & TIMELY_S_CUT)
		return false;
	/* the paper's fabric is lossless; one cut per episode.
	 * rate < 2^37, x 100: < 2^44
	 */
	st->flags |= TIMELY_S_CUT | TIMELY_S_LOSSY;
	st->empty_cnt = 0;	/* the loss says there was no room */
	st->rate = max_t(u64, c->rate_min_bytes_ps,
			 div_u64(st->rate * (100 - (u32)c->loss_md_pct), 100));
	if (c->regain && st->rate < timely_regain_target(st)) {
		st->flags |= TIMELY_S_REGAIN;
		timely_regain_credit(st, c);
	} else {
		st->flags &= ~TIMELY_S_REGAIN;
	}
	timely_decide(st, c, min_rtt_ns, mss, d);
	d->flags = 0;
	return true;
}
