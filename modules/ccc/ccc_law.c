// SPDX-License-Identifier: GPL-2.0
/*
 * CCC's per-ACK control law (Algorithm 1 with eq. 1-10), plain C.  See
 * include/dcc/ccc.h for the scales and modules/ccc/tcp_ccc.c for the
 * theory.  Compiled into tcp_ccc.ko and into the userspace unit tests.
 */
#include "dcc/ccc.h"

/*
 * log2 is taken of times in 1/64 us (CCC_L2_SHIFT), so that the floor
 * q_B/64 below which q counts as q_B/64 (log2 0 is undefined, and a
 * measured q of 0 is common on a us clock; spec 8-6) exists even for
 * q_B = 1 us.  log2(q_B/q) <= 6, |delta| <= 3 + |q_v|.  Values < 2^36.
 */
static inline u64 ccc_q_floor(const struct ccc_cfg *c)
{
	return c->qb_us;	/* in 1/64 us: q_B / 64 */
}

/* rate as a share of R_l, Q16, saturating at 1.0 */
static u32 ccc_share(const struct ccc_cfg *c, u64 rate)
{
	/* rate <= 2^37, * 2^16 = 2^53: fits u64 */
	return (u32)min_t(u64, div64_u64(rate << CCC_Q, c->line_bytes_ps),
			  CCC_SHARE_ONE);
}

/* share (Q16) of R_l as bytes/s: R_l < 2^37, share <= 2^16: < 2^53 */
static u64 ccc_share_bytes_ps(const struct ccc_cfg *c, u32 share)
{
	return (c->line_bytes_ps * share) >> CCC_Q;
}

u64 ccc_basis_bytes_ps(const struct ccc_state *s, const struct ccc_cfg *c)
{
	return ccc_share_bytes_ps(c, s->basis);
}

void ccc_state_reset_grad(struct ccc_state *s)
{
	s->lsq_n = 0;
	s->qv = 0;
	s->flags &= ~CCC_S_QV_VALID;
}

void ccc_state_init(struct ccc_state *s, const struct ccc_cfg *c, u64 r0)
{
	*s = (struct ccc_state){ 0 };
	s->rate = clamp_val(r0, c->r_min, c->r_max);
	s->basis = ccc_share(c, s->rate);	/* S0 = r0 (spec 8-7) */
	s->region = CCC_H2I;			/* not A: no S update yet */
}

s32 ccc_delta(const struct ccc_cfg *c, u32 q_us, s32 qv)
{
	/* both log2 values are < 2^22 (Q16 of < 37): s32 difference */
	s32 l2q = (s32)dcc_log2_q16(max((u64)q_us << CCC_L2_SHIFT,
					ccc_q_floor(c)));

	return ((s32)c->l2qb - l2q) / 2 - qv;
}

/*
 * Regions (paper Fig. 4; boundaries reconstructed, spec ccc.md 4.1 [R]):
 * the curve delta = 0, the vertical q = q_B and the horizontal q_v = 0
 * through the target (q_B, 0) cut the plane into six regions.
 *
 * One deliberate difference from the spec's table: q_v ~ 0 with q < q_B
 * (an idle or steady link: delay and gradient both 0, DAC 1) belongs to
 * H_2^i, not H_1^i; H_1^i is the clearly draining queue, q_v <= -0.05
 * (the paper's own tolerance for "q_v is 0", 4.3.4).  Otherwise H_1^i's
 * max(0, 1 - 2r/R_l) factor would stop a lone flow at R_l/2 on an empty
 * link for good, and the paper's own T_B (a flow left alone refills the
 * link in 280 us, Table 1) would be impossible; in H_2^i it ramps at
 * 0.1 * v_ai * S per RTT, v_ai doubling every idle RTT.
 *
 * The q <= 4 q_B bound of A^d mirrors A^i's q_v >= -1 bound [R]; A^d and
 * H_2^d use the same rule, so it only changes the S bookkeeping and the
 * telemetry (spec 8-1).
 */
u8 ccc_region(const struct ccc_cfg *c, u32 q_us, s32 qv, s32 delta)
{
	if (delta > 0) {
		if (q_us >= c->qb_us)
			return CCC_AI;		/* forces q_v < 0 */
		return qv <= -(s32)c->qv_near ? CCC_H1I : CCC_H2I;
	}
	if (q_us < c->qb_us)
		return CCC_H1D;			/* forces q_v > 0 */
	if (qv < 0 && (u64)q_us <= 4ULL * c->qb_us)
		return CCC_AD;
	return CCC_H2D;
}

/* Fold one (ACK time, RTT) point into the LSQ batch; true if q_v moved. */
static bool ccc_lsq_add(struct ccc_state *s, const struct ccc_cfg *c,
			u32 x_us, u32 y_us)
{
	struct ccc_lsq *l = &s->lsq;
	u32 dx = x_us - l->x0;		/* modular: wrap-safe */
	s64 dy, g64;
	s32 g;

	if (!s->lsq_n || dx > (1U << 22))
		goto restart;		/* first point, or a 4 s old batch */

	dy = clamp_t(s64, (s64)y_us - l->y0, -(1LL << 20), 1LL << 20);
	l->sx += dx;			/* n <= 2^10, dx <= 2^22: < 2^32 */
	l->sy += (s32)dy;		/* |sy| <= 2^30 */
	l->sxx += (u64)dx * dx;		/* <= 2^54 */
	l->sxy += (s64)dx * dy;		/* |.| <= 2^52 */
	s->lsq_n++;

	if (!((s->lsq_n >= c->min_samples && dx >= c->span_us) ||
	      s->lsq_n >= CCC_LSQ_N_MAX))
		return false;

	if (!dcc_bls_slope_q16(s->lsq_n, l->sx, l->sy, l->sxx, l->sxy, &g))
		goto restart;		/* all points at one instant */
	/* q_v = (R - C)/C >= -1 (4.2); an upper clamp bounds delta */
	g = clamp_t(s32, g, -CCC_ONE, CCC_QV_MAX * CCC_ONE);
	if (!(s->flags & CCC_S_QV_VALID)) {
		s->qv = g;		/* first batch: nothing to average */
	} else {
		/* eq. 4: q_v = gamma q_v + (1 - gamma) g; |.| <= 2^21 * 2^16 */
		g64 = (s64)c->gamma_q16 * s->qv +
		      (s64)(CCC_ONE - c->gamma_q16) * g;
		/* rounded: a floor would park q_v at -1/65536 for ever */
		s->qv = (s32)((g64 + (1 << (CCC_Q - 1))) >> CCC_Q);
	}
	s->flags |= CCC_S_QV_VALID;
	/* the closing point opens the next batch (as dcc_bls does) */
	l->x0 = x_us;
	l->y0 = y_us;
	l->sx = 0;
	l->sy = 0;
	l->sxx = 0;
	l->sxy = 0;
	s->lsq_n = 1;
	return true;

restart:
	*l = (struct ccc_lsq){ .x0 = x_us, .y0 = y_us };
	s->lsq_n = 1;
	return false;
}

/* v_ai bookkeeping (4.3.4; the round counting is spec 8-8 [R]) */
static void ccc_vai_update(struct ccc_state *s, const struct ccc_cfg *c,
			   u32 q_us, bool round_start)
{
	if (round_start) {
		if (s->flags & CCC_S_UNDERUTIL)
			s->n_ai = min_t(u8, s->n_ai + 1, c->n_ai_max);
		else
			s->n_ai = 0;
		s->flags |= CCC_S_UNDERUTIL;
	}
	if (q_us > c->ut_us) {		/* the streak of idle RTTs ended */
		s->n_ai = 0;
		s->flags &= ~CCC_S_UNDERUTIL;
	}
}

/*
 * S (4.3.4): "CCC records the latest 5 sending rates if |q_v(k)| < 0.05,
 * where the aggregate sending rate is close to C.  The value of S is
 * updated with the average value of the records when leaving A regions."
 *
 * The aggregate is close to C only if the queue is neither growing nor
 * empty: an idle link also has q_v = 0 (DAC 1).  So a rate is recorded
 * when |q_v| < 0.05 and q > ut_us (the under-utilisation margin), in any
 * region [R].  The spec (8-7) records only inside A; that leaves S at its
 * initial value (S0 = r0 = R_l after a line-rate start) until the first
 * A visit, and in an N-flow incast, which drains through H^d and often
 * refills through H^i before it ever reaches A, N flows probing with
 * S = R_l add N times too much (the model's 8-to-1 incast oscillated
 * between 0.4 and 3.7 C with it).
 */
static void ccc_basis_update(struct ccc_state *s, const struct ccc_cfg *c,
			     u8 region, u32 q_us, s32 qv)
{
	u32 sum = 0;
	int i;

	if ((s->flags & CCC_S_QV_VALID) && q_us > c->ut_us &&
	    qv > -(s32)c->qv_near && qv < (s32)c->qv_near) {
		s->rec[s->rec_idx] = (u16)min_t(u32, ccc_share(c, s->rate),
						65535U);
		s->rec_idx = (s->rec_idx + 1) % CCC_NREC;
		if (s->rec_cnt < CCC_NREC)
			s->rec_cnt++;
	}
	/*
	 * On leaving A (4.3.4); and, while S is still the initial guess S0,
	 * on entering H^i [R], so that a flow whose first records came from
	 * H^d does not probe with S0.
	 */
	if (!s->rec_cnt) {
		/*
		 * No record yet: S0 = r0 is only a guess (the paper gives
		 * none).  After a line-rate start, r0 = R_l is N times C/N
		 * for N flows, so until the first records S follows r down
		 * [R]: a flow's rate after its first decrease has C/N's
		 * magnitude, which is all S is for ("roughly estimated").
		 */
		if (!(s->flags & CCC_S_BASIS_SET))
			s->basis = min(s->basis, max_t(u32, 1, ccc_share(c, s->rate)));
		return;
	}
	if ((ccc_region_is_a(s->region) && !ccc_region_is_a(region)) ||
	    (!(s->flags & CCC_S_BASIS_SET) &&
	     (region == CCC_H1I || region == CCC_H2I))) {
		for (i = 0; i < s->rec_cnt; i++)
			sum += s->rec[i];
		s->basis = max_t(u32, 1, sum / s->rec_cnt);
		s->flags |= CCC_S_BASIS_SET;
	}
}

void ccc_on_ack(struct ccc_state *s, const struct ccc_cfg *c,
		const struct ccc_ack *a, struct ccc_decision *d)
{
	struct ccc_decision dd = { 0 };
	u32 q = a->rtt_us > c->rttmin_us ? a->rtt_us - c->rttmin_us : 0;
	u64 irr, mag, r = s->rate;
	s32 delta;
	u8 region;

	/* q_v (eq. 3-4, batched), v_ai, delta (eq. 5/10), region */
	dd.qv_updated = ccc_lsq_add(s, c, a->rx_us, a->rtt_us);
	ccc_vai_update(s, c, q, a->round_start);
	delta = ccc_delta(c, q, s->qv);
	region = ccc_region(c, q, s->qv, delta);

	/* Irr / R_l = max(0, 1 - q/q_B) (eq. 6); q < q_B here: < 2^48 */
	dd.irr_frac = q >= c->qb_us ? 0 :
		CCC_ONE - (u32)div_u64((u64)q << CCC_Q, c->qb_us);
	irr = ccc_share_bytes_ps(c, dd.irr_frac);

	/* f(k) = [(Irr - r) * delta > 0] (eq. 9); 0 on either boundary */
	dd.f = (delta > 0 && irr > r) || (delta < 0 && irr < r);

	ccc_basis_update(s, c, region, q, s->qv);

	/* smoothing factor Itv / RTT_min in (0, 1]; itv * 2^16 < 2^48 */
	dd.rho = (u32)min_t(u64, div_u64((u64)a->itv_us << CCC_Q, c->rttmin_us),
			    CCC_ONE);

	switch (region) {
	case CCC_AI: {
		/*
		 * Analytical rule (eq. 8): u = delta(q_pred) * M / RTT_min,
		 * q_pred = q + Itv * q_v (App. A).  M is the bytes this ACK
		 * covers (spec 8-5 [R]) and Itv the interval per packet it
		 * covers: the paper has one ACK per packet of size M, so a
		 * stretch ACK or a GRO batch of k packets carries the steps
		 * of the k ACKs it stands for.  Itv is bounded by RTT_min
		 * in the prediction and q_pred floored (spec 8-6 [R]).
		 */
		u32 itv = min(a->itv_us / max_t(u32, a->pkts, 1), c->rttmin_us);
		s64 qp = (s64)q + (((s64)itv * s->qv) >> CCC_Q);
						/* |.| <= 2^30 * 2^20 */
		s32 dp = ccc_delta(c, (u32)clamp_t(s64, qp, 0, U32_MAX),
				   s->qv);

		if (dp > 0) {
			/* dp <= 2^23, M * 1e6 <= 2^52: 128-bit in mul_div */
			mag = dcc_mul_div((u64)dp * a->acked_bytes,
					  DCC_USEC_PER_SEC,
					  (u64)c->rttmin_us << CCC_Q);
			dd.step = (s64)min_t(u64, mag, c->r_max);
		}
		break;
	}
	case CCC_H1I:
	case CCC_H2I: {
		/* probing increase: u = rho * v_ai * w_ai * f * S (4.3.4) */
		u32 w_ai;

		if (region == CCC_H1I) {
			/* 0.5 Irr/R_l * max(0, 1 - 2 r/R_l) */
			u32 r2 = 2 * ccc_share(c, r);

			w_ai = r2 >= CCC_ONE ? 0 :
			       (u32)((((u64)dd.irr_frac / 2) *
				      (CCC_ONE - r2)) >> CCC_Q);
		} else {
			/* 0.1 Irr/R_l (Alg. 1 line 10 drops /R_l: typo) */
			w_ai = (u32)(((u64)dd.irr_frac * 6554) >> CCC_Q);
		}
		if (!dd.f || a->app_limited)
			break;	/* an idle app is not spare capacity (8-10) */
		/* S <= 2^37; * w_ai <= 2^53; * rho <= 2^53; << n_ai <= 2^57 */
		mag = (ccc_basis_bytes_ps(s, c) * w_ai) >> CCC_Q;
		mag = ((mag * dd.rho) >> CCC_Q) << s->n_ai;
		dd.step = (s64)min_t(u64, mag, c->r_max);
		break;
	}
	default: {
		/* probing decrease: w_md = -0.25 min(|q - q_B| / q_B, 1) */
		u32 dist = q > c->qb_us ? q - c->qb_us : c->qb_us - q;
		u32 w_md = (u32)min_t(u64, div_u64((u64)dist << CCC_Q,
						   c->qb_us), CCC_ONE) / 4;

		if (!dd.f)
			break;
		/* u = rho * w_md * f * r; r <= 2^37, * 2^16: < 2^53 */
		mag = (((r * w_md) >> CCC_Q) * dd.rho) >> CCC_Q;
		dd.step = -(s64)mag;
		break;
	}
	}

	/*
	 * Stalled H^i: the additive fairness step [R] (issue 8).
	 *
	 * In H^i the paper lets only flows below Irr = R_l (1 - q/q_B)
	 * increase (f, eq. 9), so that "the gap among unfair flows is
	 * effectively reduced while the system keeps approaching
	 * delta(k) = 0" (4.3.4).  Just below q_B, Irr is below every
	 * flow's rate, and with the aggregate at C (|q_v| < 0.05, the
	 * paper's own "close to C" test, 4.3.4) no flow moves: the state
	 * stops short of (q_B, 0), in H_2^i, and the f gate, which only
	 * acts as the state sweeps q, stops acting too.  The guest and the
	 * model park there for hundreds of RTTs at any rate ratio (80:20
	 * joins took 530-1150 RTT_min in the model), because everything
	 * else CCC does there is multiplicative: the analytical step of
	 * eq. 8 is per ACK (App. A: the same u for every ACK of every
	 * flow, so a flow gains in proportion to its ACK rate, i.e. to r)
	 * and S, the mean of the flow's own past rates (4.3.4), is ~r too
	 * unless the flows are already fair.  Multiplicative increase with
	 * multiplicative decrease keeps the rate ratio (Chiu-Jain).
	 *
	 * So while the state is stalled there (H^i, |q_v| < 0.05, the link
	 * busy: q > the 4.3.4 under-utilisation margin), every flow adds
	 * the same rho * fair_ai * R_l, a per-RTT_min step independent of
	 * its rate and of f: an additive increase that moves the state on
	 * towards delta = 0 as eq. 1 intends, and that, with the
	 * multiplicative decreases of A^d/H^d (w_md r), is AIMD and
	 * converges to the fair share.  It is off as soon as the queue
	 * moves (|q_v| >= 0.05: the paper's probing steps act alone) and
	 * above q_B, so the transients and the A zig-zag are the paper's.
	 * fair_ai = 0 turns it off.  rho (Itv/RTT_min, 4.3.4) makes it a
	 * per-time step whatever the ACK rate.
	 * line_bytes_ps < 2^37, fair_ai <= 2^16, rho <= 2^16: < 2^53 each.
	 */
	if (c->fair_ai && (region == CCC_H1I || region == CCC_H2I) &&
	    !a->app_limited && q > c->ut_us &&
	    s->qv < (s32)c->qv_near && s->qv > -(s32)c->qv_near) {
		mag = (((c->line_bytes_ps * c->fair_ai) >> CCC_Q) * dd.rho) >> CCC_Q;
		dd.step += (s64)min_t(u64, mag, c->r_max);
	}

	/* r(k+1) = r(k) + u(k), kept in [r_min, r_max] (spec 4.5 [R]) */
	if (dd.step >= 0)
		r = min_t(u64, r + (u64)dd.step, c->r_max);
	else
		r = (u64)-dd.step >= r ? 0 : r - (u64)-dd.step;
	s->rate = clamp_val(r, c->r_min, c->r_max);
	s->region = region;

	if (d) {
		dd.q_us = q;
		dd.delta = delta;
		dd.region = region;
		*d = dd;
	}
}

u64 ccc_cwnd_bytes(const struct ccc_cfg *c, u64 rate, u32 gain_pct)
{
	/*
	 * The paper caps inflight at r * RTT_min (5); at the target the
	 * RTT is RTT_min + q_B, so that cap would hold the flow below r.
	 * Adding q_B (spec 6.4 [R]) makes it bind only above the target.
	 */
	u64 w = dcc_rate_time_bytes(rate, (u64)c->rttmin_us + c->qb_us,
				    DCC_USEC_PER_SEC);

	return dcc_mul_div(w, gain_pct, 100);
}
