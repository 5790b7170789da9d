// SPDX-License-Identifier: GPL-2.0
/*
 * The rate law of TIMELY, patched TIMELY and SQCC (Tang et al., Alg. 1-3),
 * plain C.  Scales and ranges: include/dcc/timely.h; theory and kernel
 * glue: modules/timely/tcp_timely.c.  Every product below names its bound;
 * none can overflow for inputs within the documented ranges.
 */
#include "dcc/timely.h"

void timely_win_reset(struct timely_win *w, u32 now_us)
{
	*w = (struct timely_win){
		.start_us = now_us, .rtt_us = U32_MAX, .rtt_dly_us = U32_MAX,
	};
}

bool timely_win_add(struct timely_win *w, u32 now_us, u32 rtt_us,
		    bool delayed, u32 bytes, u32 seg_bytes, u32 gap_us,
		    bool use_min, struct timely_win_out *o)
{
	u32 span = now_us - w->start_us;	/* mod 2^32: ~71 min */
	u32 rtt;

	if (rtt_us) {
		if (delayed)
			w->rtt_dly_us = min(w->rtt_dly_us, rtt_us);
		else
			w->rtt_us = use_min ? min(w->rtt_us, rtt_us) : rtt_us;
	}
	w->bytes = bytes > U32_MAX - w->bytes ? U32_MAX : w->bytes + bytes;
	if (w->bytes < seg_bytes || span < gap_us)
		return false;
	rtt = w->rtt_us != U32_MAX ? w->rtt_us : w->rtt_dly_us;
	if (rtt == U32_MAX)
		return false;	/* no sample yet: keep accumulating */
	o->rtt_us = rtt;
	o->bytes = w->bytes;
	o->span_us = span;
	timely_win_reset(w, now_us);
	return true;
}

u8 timely_sqcc_k(u32 n)
{
	/* floor(log10 N), clamped to >= 1 (spec G1, G2: Table II needs
	 * floor, base 10; N < 10 would give T_low = 0)
	 */
	if (n < 100)
		return 1;
	if (n < 1000)
		return 2;
	if (n < 10000)
		return 3;
	return 4;
}

u32 timely_sqcc_t_low(const struct timely_law_cfg *c, u8 k)
{
	/* k <= 4, t_low <= 10^6: product < 2^23.  At most T_high / 2 so the
	 * band [T_low, T_high) never vanishes (spec 4.4).
	 */
	return max_t(u32, 1, min_t(u32, (u32)k * c->t_low_us, c->t_high_us / 2));
}

u64 timely_sqcc_delta(const struct timely_law_cfg *c, u32 n, u8 k)
{
	/* C unknown: C = 1000 delta0 (the spec's scaling rule, reversed) */
	u64 C = c->link_bytes_ps ? c->link_bytes_ps : c->delta_bytes_ps * 1000;
	u64 nn = (u64)max_t(u32, n, 1) * max_t(u32, n, 1);	/* < 2^32 */

	/* C <= 2^40, k <= 4: C k < 2^42.  Paper: delta = C k / N^2 (the
	 * lower root of Eq. 24); capped at delta0 where that exceeds the
	 * initial step (small N, spec G3), floored at 1 B/s.
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

u32 timely_nest_push(struct timely_nest *e, u32 sample)
{
	e->s[e->idx] = (u16)clamp_t(u32, sample, 1, TIMELY_N_MAX);
	e->idx = e->idx >= 2 ? 0 : e->idx + 1;
	return dcc_med3(e->s[0], e->s[1], e->s[2]);
}

u64 timely_cwnd_bytes(const struct timely_law_cfg *c, u64 rate, u32 mss)
{
	u32 horizon = c->relative ? c->base_us + c->t_high_us :
				    max(c->t_high_us, c->base_us);

	/* rate <= 2^37, horizon <= 2^21 us: exact in dcc_rate_time_bytes */
	return 2 * dcc_rate_time_bytes(rate, horizon, DCC_USEC_PER_SEC) +
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
	u64 num, den;

	if (d >= th)
		return emax;
	if (d <= tl)
		return 0;
	/* th, d <= 2^20: th (d - tl) < 2^40, << 16 < 2^56; den >= 1 */
	num = ((u64)th * (d - tl)) << TIMELY_Q;
	den = (u64)tl * (th - d);
	return min(emax, div64_u64(num, den));
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

void timely_law_update(const struct timely_law_cfg *c,
		       struct timely_law_state *s, u32 rtt_us, u32 n,
		       bool app_limited, struct timely_law_out *o)
{
	u32 rtt = clamp_t(u32, rtt_us, 1, TIMELY_RTT_MAX);
	u32 tl = c->t_low_us, th = c->t_high_us, d, w;
	u64 rate = s->rate, delta = c->delta_bytes_ps, emax;
	s64 x, g;
	bool hai;

	*o = (struct timely_law_out){ 0 };
	if (c->kind == TIMELY_LAW_SQCC) {
		/* Alg. 3 line 5, on every event with the current N (G20) */
		o->k = timely_sqcc_k(n);
		tl = timely_sqcc_t_low(c, o->k);
		delta = timely_sqcc_delta(c, n, o->k);
	}
	o->t_low_us = tl;
	o->delta_bytes_ps = delta;
	/* relative mode (spec 6.5): thresholds apply to the queueing delay */
	d = !c->relative ? rtt : rtt > c->base_us ? rtt - c->base_us : 0;
	o->d_us = d;

	if (!s->prev_rtt) {
		/* G9: seed prevRTT, no difference from a zero previous RTT */
		s->prev_rtt = rtt;
		o->branch = TIMELY_BR_FIRST;
		return;
	}

	/* Alg. 1-3 lines 1-3: EWMA of the RTT difference, Q8 us.
	 * |diff| <= 2^20 -> x within +-2^29, alpha <= 2^16: product < 2^46
	 */
	x = ((s64)rtt - (s64)s->prev_rtt) * 256 - s->rtt_diff;
	s->prev_rtt = rtt;
	s->rtt_diff += (s32)div64_s64((s64)c->alpha_q16 * x, TIMELY_ONE);

	/* line 4: g = rttDiff / D_minRTT, Q16 (rtt_diff Q8 * 2^8 < 2^36) */
	g = div64_s64((s64)s->rtt_diff * 256, max_t(u32, c->dmin_us, 1));
	g = clamp_t(s64, g, -64 * TIMELY_ONE, 64 * TIMELY_ONE);
	o->g_q16 = (s32)g;
	s->neg_cnt = g < 0 ? min_t(u32, s->neg_cnt + 1, 255) : 0;
	hai = c->hai_thresh && s->neg_cnt >= c->hai_thresh;
	if (hai)
		delta *= TIMELY_HAI_MULT;	/* [17]: N = 5 in HAI */

	/* weight w(g) = clamp(2g + 0.5, 0, 1) (Eq. 5), |g| <= 2^22 */
	w = (u32)clamp_t(s64, 2 * g + TIMELY_ONE / 2, 0, TIMELY_ONE);
	emax = timely_emax_q16(c->beta_q20);

	if (d < tl) {
		/* line 5-6: additive increase (no HAI below T_low, as [17]) */
		rate += o->delta_bytes_ps;
		o->branch = TIMELY_BR_LOW;
	} else if (d > th && !(c->kind == TIMELY_LAW_SQCC && c->thigh_max_cut)) {
		/* line 7-8: rate *= 1 - beta (1 - T_high / d); d > th >= 1.
		 * (d - th) << 16 < 2^36; beta * frac <= 2^36
		 */
		u64 frac = div64_u64((u64)(d - th) << TIMELY_Q, d);

		rate = timely_cut(rate, (c->beta_q20 * frac) >> TIMELY_BETA_Q);
		o->branch = TIMELY_BR_HIGH;
	} else if (c->kind == TIMELY_LAW_GRADIENT) {
		if (g <= 0) {
			/* line 9-10 (+ HAI of [17]) */
			rate += delta;
			o->branch = TIMELY_BR_INC;
		} else {
			/* line 11-12: rate *= max(0, 1 - beta g); beta g < 2^43 */
			rate = timely_cut(rate, ((u64)c->beta_q20 * (u64)g) >>
					  TIMELY_BETA_Q);
			o->branch = TIMELY_BR_DEC;
		}
	} else {
		s64 err;

		if (c->kind == TIMELY_LAW_PATCHED) {
			/* Eq. 9: (d - RTT_ref) / RTT_ref, signed, >= -1 */
			u32 ref = max_t(u32, c->rtt_ref_us, 1);

			err = div64_s64(((s64)d - ref) * TIMELY_ONE, ref);
			err = min_t(s64, err, (s64)emax);
		} else {
			/* Eq. 16 (above T_high only with thigh_max_cut) */
			err = (s64)timely_sqcc_error(d, tl, th, emax);
		}
		o->w_q16 = w;
		o->err_q16 = err;
		rate = timely_blend(rate, delta, w, err, c->beta_q20);
		o->branch = TIMELY_BR_BLEND;
	}

	if (app_limited && rate > s->rate) {
		rate = s->rate;
		o->held = true;
	}
	s->rate = clamp_t(u64, rate, c->rate_min_bytes_ps,
			  max(c->rate_min_bytes_ps, c->rate_max_bytes_ps));
}
