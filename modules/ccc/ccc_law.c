// SPDX-License-Identifier: GPL-2.0
/*
 * CCC's per-ACK control law (Algorithm 1 with eq. 1-10), plain C.  See
 * include/dcc/ccc.h for the scales and modules/ccc/tcp_ccc.c for the
 * theory.  Compiled into tcp_ccc.ko (tcp_ccc.c includes it, so that the
 * per-ACK step, ccc_ack(), inlines into cong_control) and into the
 * userspace unit tests, the fuzzer and the benchmark.
 *
 * ccc_on_ack() is one step of Algorithm 1, as a list of named steps:
 *	Itv and q from the sample		ccc_itv_ns, ccc_queue_ns
 *	q_v (eq. 3-4, batched)			ccc_grad_update
 *	v_ai					ccc_vai_update
 *	delta (eq. 5/10), region (Fig. 4)	ccc_delta, ccc_region
 *	Irr/R_l (eq. 6), f (eq. 9)		ccc_irr_frac, ccc_fair_gate
 *	S records (4.3.4)			ccc_basis_update
 *	rho = min(1, Itv/RTT_min)		ccc_rho
 *	u(k): A^i analytical (eq. 8), H^i probing up, decrease probing down,
 *	      plus the fairness step near the target	ccc_step_*, ccc_fair_step
 *	r(k+1) = r(k) + u(k) in [r_min, r_max]	ccc_rate_update
 *	rate, cwnd, refresh request		ccc_decide
 *
 * The law runs on every ACK and r moves on most of them, so its cost is
 * the per-ACK cost of the module: no division on the way (q_B, RTT_min
 * and R_l divide through their reciprocals, ccc_q16_div(); the window's
 * 1e9 is a constant), and a decision is reported changed only when r
 * moved or the config was re-resolved (CCC_S_REDECIDE).
 */
#include "dcc/ccc.h"

#ifndef __KERNEL__	/* userspace: glibc's <sys/cdefs.h> has __always_inline */
#define noinline __attribute_noinline__
#endif

/* ---- config ------------------------------------------------------------ */

/*
 * dcc_log2_q16() (eq. 10's piecewise-linear log2) of a u32, inline: the
 * law takes one per ACK, and a call into dcc_lib costs more than the
 * log.  For x in [2^i, 2^(i+1)): i + (x - 2^i) / 2^i, Q16, truncated;
 * x 2^16 / 2^i = 2^16 + (x - 2^i) 2^16 / 2^i, the fraction's floor plus
 * one, either side of 2^16 (x 2^16 < 2^48: no bit lost, no branch).
 */
static __always_inline u32 ccc_log2_q16(u32 x)
{
	u32 i;

	if (!x)
		return 0;
	i = ccc_fls_nz(x) - 1;
	return ((i - 1) << CCC_Q) + (u32)(((u64)x << CCC_Q) >> i);
}

/*
 * The least x >= 1 with ccc_log2_q16(x) >= l (l < 30 << 16): for l in
 * octave i the chord's inverse, 2^i + ceil(frac 2^i / 2^16), then the
 * truncation of the log2 corrected by a step or two either way.
 */
static u32 ccc_log2_inv(u32 l)
{
	u32 i = l >> CCC_Q;
	u32 x = (1U << i) + (u32)((((u64)(l & (CCC_ONE - 1)) << i) +
				   CCC_ONE - 1) >> CCC_Q);

	while (x > 1 && ccc_log2_q16(x - 1) >= l)
		x--;
	while (ccc_log2_q16(x) < l)
		x++;
	return x;
}

void ccc_params_init(struct ccc_params *p, const struct ccc_knobs *k)
{
	u32 qb_ns = (u32)min_t(u64, dcc_us_to_ns(max_t(u32, k->q_b_us, 1)),
			       CCC_RTT_MAX_NS);
	u32 l2qb = dcc_log2_q16(qb_ns);		/* >= log2(1000) > 9 */

	*p = (struct ccc_params){
		.qb_ns = qb_ns,
		.l2qb = l2qb,
		.l2floor = l2qb > CCC_L2_FLOOR ? l2qb - CCC_L2_FLOOR : 0,
		.gamma_q16 = (u32)(((u64)min_t(u32, k->gamma_pct, 99) << CCC_Q) / 100),
		.qv_near = (u32)(((u64)clamp_t(u32, k->qv_near_pct, 1, 100) << CCC_Q) / 100),
		.fair_ai = (u32)(((u64)min_t(u32, k->fair_ai_pml, 1000) << CCC_Q) / 1000),
		.ut_pct = (u16)clamp_t(u32, k->ut_pct, 1, 100),
		.span_pct = (u16)clamp_t(u32, k->span_pct, 1, 400),
		.min_samples = (u16)clamp_t(u32, k->min_samples, 2, CCC_LSQ_N_MAX),
		.n_ai_max = (u8)min_t(u32, k->n_ai_max, CCC_N_AI_MAX_LIMIT),
		.cwnd_gain_pct = (u8)clamp_t(u32, k->cwnd_gain_pct, 1, 255),
		.cwnd_qb = k->cwnd_qb ? 1 : 0,
		.qb_inv = ccc_inv(qb_ns),
		.qb_sh = (u8)ccc_q16_sh(qb_ns),
	};
	p->q_floor_ns = ccc_log2_inv(p->l2floor);
}

/* (a * b) >> sh, the product in 128 bits (a 64x64 multiply) */
static inline u64 ccc_mul_shr(u64 a, u64 b, u32 sh)
{
	return (u64)(((dcc_u128)a * b) >> sh);
}

/*
 * min(floor(n / d), cap) for any n < 2^64, 1 <= d < 2^32 and cap < 2^40,
 * from inv = ccc_inv(d) (1/d less a relative 2^-21 at most): a first
 * quotient q1 short by less than q 2^-21 + 2, which for q1 < cap leaves
 * a remainder below (2^19 + 3) d < 2^52; a second pass on the remainder
 * is short by less than 2, the compare makes it exact.
 */
static u64 ccc_div_capped(u64 n, u32 d, u32 inv, u64 cap)
{
	u32 sh = 22 + ccc_fls_nz(d);
	u64 q = ccc_mul_shr(n, inv, sh);	/* n inv < 2^87 */

	if (q >= cap)
		return cap;
	q += ccc_mul_shr(n - q * d, inv, sh);	/* 2^52 * 2^23 */
	if (n - q * d >= d)
		q++;
	return min(q, cap);
}

/* the cfg of these inputs, with the reciprocals of R_l and RTT_min given */
static void ccc_cfg_fill(struct ccc_cfg *c, const struct ccc_params *p,
			 u64 line, u32 line_inv, u32 rtt, u32 rtt_inv, u32 mss,
			 u64 max_pacing)
{
	u64 r_max = max_t(u64, min_t(u64, line, max_pacing), 1);
	/* 2 MSS per RTT_min: 2^33 * 1e9 < 2^63 */
	u64 n = (u64)2 * max_t(u32, mss, 1) * DCC_NSEC_PER_SEC;
	/*
	 * r_min (ours): max(R_l / 1024, 2 MSS per RTT_min), at most r_max;
	 * capping the quotient at r_max first changes none of that
	 */
	u64 r_min = max_t(u64, line >> 10,
			  rtt ? ccc_div_capped(n, rtt, rtt_inv, r_max) :
				min(n, r_max));

	BUILD_BUG_ON(DCC_RATE_MAX_BPS >> CCC_PK_RATE_BITS);
	*c = (struct ccc_cfg){
		.p = p,
		.line_pk = line | (u64)line_inv << CCC_PK_INV_SHIFT,
		.rmax_pk = r_max |
			   (u64)ccc_lsq_shift_of(rtt, p->qb_ns) << CCC_PK_K_SHIFT |
			   (u64)rtt_inv << CCC_PK_INV_SHIFT,
		.r_min = (u32)min_t(u64, min(r_min, r_max), U32_MAX),
		.rttmin_ns = rtt,
	};
}

bool ccc_cfg_resolve(struct ccc_cfg *c, const struct ccc_params *p,
		     u64 line_bytes_ps, u32 rttmin_ns, u32 mss, u64 max_pacing)
{
	u64 line = clamp_t(u64, line_bytes_ps, 1, DCC_RATE_MAX_BPS);
	u32 rtt = min_t(u32, rttmin_ns, CCC_RTT_MAX_NS);

	ccc_cfg_fill(c, p, line, ccc_inv(line), rtt, rtt ? ccc_inv(rtt) : 0,
		     mss, max_pacing);
	return rtt != 0;
}

bool ccc_cfg_refresh(struct ccc_cfg *c, u64 line_bytes_ps, u32 rttmin_ns,
		     u32 mss, u64 max_pacing)
{
	u64 line = clamp_t(u64, line_bytes_ps, 1, DCC_RATE_MAX_BPS);
	u32 rtt = min_t(u32, rttmin_ns, CCC_RTT_MAX_NS);
	/* a cfg never resolved has R_l 0 and RTT_min 0 (inverse 0) */
	u32 line_inv = line == ccc_line(c) ? ccc_line_inv(c) : ccc_inv(line);
	u32 rtt_inv = rtt == c->rttmin_ns ? ccc_rtt_inv(c) :
		      rtt ? ccc_inv(rtt) : 0;

	ccc_cfg_fill(c, c->p, line, line_inv, rtt, rtt_inv, mss, max_pacing);
	return rtt != 0;
}

void ccc_cfg_changed(struct ccc_state *s, u32 old_rttmin_ns,
		     const struct ccc_cfg *c)
{
	u8 k = ccc_lsq_shift(c);
	s64 dy, sy;

	/*
	 * The window depends on RTT_min, r's bounds on the rest: the next
	 * ACK reports its decision whether r moves or not, as the decision
	 * of every ACK was before decisions had a changed bit.  Once per
	 * round (the glue re-resolves then), so it also bounds how long a
	 * change the stack makes under the decision (the MSS) waits.
	 */
	s->flags |= CCC_S_REDECIDE;
	if (c->rttmin_ns == old_rttmin_ns || !s->lsq_n)
		return;
	/*
	 * y = (RTT >> k) - (RTT_min >> k): a new RTT_min moves every point
	 * of the open batch by dy, which the sums take exactly (sy += n dy,
	 * sxy += sx dy; a slope does not depend on the origin).  A new unit
	 * k, or a move the bounds of struct ccc_state do not hold, drops
	 * the batch instead.
	 */
	dy = (s64)(old_rttmin_ns >> k) - (c->rttmin_ns >> k);
	sy = s->lsq_sy + dy * s->lsq_n;		/* |.| < 2^31 + 2^40 */
	if (k != ccc_lsq_shift_of(old_rttmin_ns, c->p->qb_ns) ||
	    dy > (1 << 20) || dy < -(1 << 20) || sy >= S32_MAX || sy <= S32_MIN) {
		s->lsq_n = 0;
		return;
	}
	s->lsq_sy = (s32)sy;
	s->lsq_sxy += dy * s->lsq_sx;		/* |.| < 2^53 + 2^52 */
}

/* ---- state ------------------------------------------------------------- */

/* min(floor(rate 2^16 / R_l), 1.0): rate < R_l < 2^37 divides by ccc_inv */
static __always_inline u32 ccc_share_of(const struct ccc_cfg *c, u64 rate)
{
	u64 line = ccc_line(c);

	if (rate >= line)
		return CCC_SHARE_ONE;
	return ccc_q16_div(rate, line, ccc_line_inv(c), ccc_q16_sh(line));
}

u32 ccc_share(const struct ccc_cfg *c, u64 rate)
{
	return ccc_share_of(c, rate);
}

/* share (Q16) of R_l as bytes/s: R_l < 2^37, share <= 2^16: < 2^53 */
static __always_inline u64 ccc_share_bytes_ps(const struct ccc_cfg *c,
					      u32 share)
{
	return (ccc_line(c) * share) >> CCC_Q;
}

u64 ccc_basis_bytes_ps(const struct ccc_state *s, const struct ccc_cfg *c)
{
	return ccc_share_bytes_ps(c, s->basis);
}

void ccc_state_forget(struct ccc_state *s)
{
	s->lsq_n = 0;
	s->qv = 0;
	s->n_ai = 0;
	s->flags &= ~(CCC_S_QV_VALID | CCC_S_HAVE_PREV);
}

void ccc_state_init(struct ccc_state *s, const struct ccc_cfg *c, u64 r0)
{
	*s = (struct ccc_state){ 0 };
	s->rate = clamp_t(u64, r0, c->r_min, ccc_rmax(c));
	s->basis = ccc_share(c, s->rate);	/* S0 = r0: a guess */
	s->region = CCC_H2I;			/* not A: no S update yet */
}

/* ---- the steps of one ACK ---------------------------------------------- */

/*
 * Itv(k) = t(k) - t(k-1), ns; 0 after a restart (rho = 0: no step) and for
 * an ACK timed before the previous one (rx_ns may step back: sample.h),
 * which then keeps the later time as t(k-1).
 */
static __always_inline u32 ccc_itv_ns(struct ccc_state *s,
				      const struct dcc_sample *smp)
{
	u32 rx = (u32)smp->rx_ns;
	u32 itv = (s->flags & CCC_S_HAVE_PREV) ? dcc_rx_age32(smp->rx_ns, s->last_rx) : 0;

	if (itv || !(s->flags & CCC_S_HAVE_PREV))
		s->last_rx = rx;
	s->flags |= CCC_S_HAVE_PREV;
	return itv;
}

/* q(k) = RTT(k) - RTT_min (eq. 2), >= 0 */
static __always_inline u32 ccc_queue_ns(const struct ccc_cfg *c, u32 rtt_ns)
{
	return rtt_ns > c->rttmin_ns ? rtt_ns - c->rttmin_ns : 0;
}

/* Open a batch at (x, y): the sums of its one point. */
static void ccc_grad_open(struct ccc_state *s, u32 x, s32 y)
{
	s->lsq_x0 = x;
	s->lsq_sx = 0;
	s->lsq_sy = y;
	s->lsq_sxx = 0;
	s->lsq_sxy = 0;
	s->lsq_n = 1;
}

/* eq. 4: q_v = gamma q_v + (1 - gamma) g, g the closed batch's slope */
static void ccc_grad_ewma(struct ccc_state *s, const struct ccc_cfg *c, s32 g)
{
	s64 g64;

	/* q_v = (R - C)/C >= -1 (4.2); an upper clamp bounds delta */
	g = clamp_t(s32, g, -CCC_ONE, CCC_QV_MAX * CCC_ONE);
	if (!(s->flags & CCC_S_QV_VALID)) {
		s->qv = g;		/* first batch: nothing to average */
	} else {
		/* |.| <= 2^21 * 2^16 */
		g64 = (s64)c->p->gamma_q16 * s->qv +
		      (s64)(CCC_ONE - c->p->gamma_q16) * g;
		/* rounded: a floor would park q_v at -1/65536 for ever */
		s->qv = (s32)((g64 + (1 << (CCC_Q - 1))) >> CCC_Q);
	}
	s->flags |= CCC_S_QV_VALID;
}

/*
 * Close the batch that (x, y) completed: eq. 4's EWMA of its slope into
 * q_v; true if q_v moved.  Once per batch (>= min_samples ACKs), out of
 * line: the per-ACK path keeps a smaller frame.
 */
static noinline bool ccc_grad_close(struct ccc_state *s,
				    const struct ccc_cfg *c, u32 x, s32 y)
{
	bool ok;
	s32 g;

	ok = dcc_bls_slope_q16(s->lsq_n, s->lsq_sx, s->lsq_sy, s->lsq_sxx,
			       s->lsq_sxy, &g);
	if (ok)		/* false: all points at one instant */
		ccc_grad_ewma(s, c, g);
	/* the closing point opens the next batch (as dcc_bls does) */
	ccc_grad_open(s, x, y);
	return ok;
}

/*
 * q_v (eq. 3-4, batched): fold (ACK time, RTT) into the LSQ batch, close
 * it when it has min_samples ACKs over span; true if q_v moved.  Units
 * and bounds: struct ccc_state.
 */
static __always_inline bool ccc_grad_update(struct ccc_state *s,
					    const struct ccc_cfg *c,
					    const struct dcc_sample *smp)
{
	u8 k = ccc_lsq_shift(c);
	u32 x = (u32)(smp->rx_ns >> k);
	u32 dx = x - s->lsq_x0;		/* modular: wrap-safe */
	/*
	 * RTT, RTT_min < 2^30; RTT_min >> k <= 2^16 (2^(22+k) >= 64 RTT_min),
	 * so y >= -2^16 and only the upper clamp can bind
	 */
	s32 y = min_t(s32, (s32)(smp->rtt_ns >> k) - (s32)(c->rttmin_ns >> k),
		      1 << 21);

	if (!s->lsq_n || dx > (1U << 22)) {
		ccc_grad_open(s, x, y);	/* first point, or a stale batch */
		return false;
	}
	s->lsq_sx += dx;		/* n < 2^10, dx <= 2^22: < 2^32 */
	s->lsq_sy += y;			/* < 2^31 */
	s->lsq_sxx += (u64)dx * dx;	/* < 2^54 */
	s->lsq_sxy += (s64)dx * y;	/* |.| < 2^53 */
	s->lsq_n++;

	if ((s->lsq_n >= c->p->min_samples &&
	     ccc_span_reached(c, (u64)dx << k)) ||
	    s->lsq_n >= CCC_LSQ_N_MAX)
		return ccc_grad_close(s, c, x, y);
	return false;
}

/* v_ai bookkeeping (4.3.4; the round counting, cap and reset are ours) */
static __always_inline void ccc_vai_update(struct ccc_state *s,
					   const struct ccc_cfg *c, bool busy,
					   bool round_start)
{
	if (round_start) {
		if (s->flags & CCC_S_UNDERUTIL)
			s->n_ai = min_t(u8, s->n_ai + 1, c->p->n_ai_max);
		else
			s->n_ai = 0;
		s->flags |= CCC_S_UNDERUTIL;
	}
	if (busy) {			/* the streak of idle RTTs ended */
		s->n_ai = 0;
		s->flags &= ~CCC_S_UNDERUTIL;
	}
}

static __always_inline s32 ccc_delta_of(const struct ccc_cfg *c, u32 q_ns,
					s32 qv)
{
	/*
	 * max(log2 q, l2floor): the log2 is monotonic, so below q_floor_ns
	 * it is the floor (and q, if 0, needs no test of its own); both
	 * values are < 2^21 (Q16 of < 32): s32 difference
	 */
	s32 l2q = (s32)(q_ns < c->p->q_floor_ns ? c->p->l2floor :
			ccc_log2_q16(q_ns));

	return ((s32)c->p->l2qb - l2q) / 2 - qv;
}

s32 ccc_delta(const struct ccc_cfg *c, u32 q_ns, s32 qv)
{
	return ccc_delta_of(c, q_ns, qv);
}

/*
 * Regions (paper Fig. 4; the text never states the boundaries, so they
 * are reconstructed to fit 4.2, 4.3.3 and 4.3.4): the curve delta = 0,
 * the vertical q = q_B and the horizontal q_v = 0 through the target
 * (q_B, 0) cut the plane into six regions.
 *
 * One deliberate difference from that plain cut: q_v ~ 0 with q < q_B
 * (an idle or steady link: delay and gradient both 0, DAC 1) belongs to
 * H_2^i, not H_1^i; H_1^i is the clearly draining queue, q_v <= -0.05
 * (the paper's own tolerance for "q_v is 0", 4.3.4).  Otherwise H_1^i's
 * max(0, 1 - 2r/R_l) factor would stop a lone flow at R_l/2 on an empty
 * link for good, and the paper's own T_B (a flow left alone refills the
 * link in 280 us, Table 1) would be impossible; in H_2^i it ramps at
 * 0.1 * v_ai * S per RTT, v_ai doubling every idle RTT.
 *
 * The q <= 4 q_B bound of A^d mirrors A^i's q_v >= -1 bound (reconstructed
 * too: an A^d open to the right fits the text as well); A^d and H_2^d use
 * the same rule, so it only changes the S bookkeeping and the telemetry.
 */
static inline u8 ccc_region_of(const struct ccc_cfg *c, u32 q_ns, s32 qv,
			       s32 delta)
{
	u32 qb = c->p->qb_ns;

	if (delta > 0) {
		if (q_ns >= qb)
			return CCC_AI;		/* forces q_v < 0 */
		return qv <= -(s32)c->p->qv_near ? CCC_H1I : CCC_H2I;
	}
	if (q_ns < qb)
		return CCC_H1D;			/* forces q_v > 0 */
	if (qv < 0 && (u64)q_ns <= 4ULL * qb)
		return CCC_AD;
	return CCC_H2D;
}

u8 ccc_region(const struct ccc_cfg *c, u32 q_ns, s32 qv, s32 delta)
{
	return ccc_region_of(c, q_ns, qv, delta);
}

/* f(k) = [(Irr - r) * delta > 0] (eq. 9); 0 on either boundary */
static __always_inline u8 ccc_fair_gate(s32 delta, u64 irr, u64 r)
{
	return delta > 0 ? irr > r : delta < 0 && irr < r;
}

/* where one ACK puts the state: region, Irr/R_l and f, in one pass */
struct ccc_place {
	u32 irr_frac;
	u8 region;
	u8 f;
};

/*
 * ccc_region(), Irr / R_l = max(0, 1 - q/q_B) (eq. 6, Q16) and
 * ccc_fair_gate() taken together on the side of q_B that q is on: at or
 * above it Irr = 0, below any r (>= r_min > 0), so f is delta < 0; below
 * it Irr / R_l divides by q_B through its reciprocal.  The region rules
 * are ccc_region_of()'s, split by the q_B test (calling it instead cost
 * 3 instructions per ACK in callgrind); fuzz_ccc checks every ACK's
 * region against ccc_region().
 */
static __always_inline struct ccc_place ccc_place_of(const struct ccc_cfg *c,
						     u32 q, s32 qv, s32 delta,
						     u64 r)
{
	u32 qb = c->p->qb_ns;
	struct ccc_place pl;

	if (q >= qb) {
		pl.irr_frac = 0;
		pl.f = delta < 0;
		if (delta > 0)
			pl.region = CCC_AI;
		else if (qv < 0 && (u64)q <= 4ULL * qb)
			pl.region = CCC_AD;
		else
			pl.region = CCC_H2D;
		return pl;
	}
	pl.irr_frac = CCC_ONE - ccc_q16_div(q, qb, c->p->qb_inv, c->p->qb_sh);
	pl.f = ccc_fair_gate(delta, ccc_share_bytes_ps(c, pl.irr_frac), r);
	if (delta > 0)
		pl.region = qv <= -(s32)c->p->qv_near ? CCC_H1I : CCC_H2I;
	else
		pl.region = CCC_H1D;
	return pl;
}

/* |q_v| < qv_near: q_v + qv_near - 1 in [0, 2 qv_near - 2] (qv_near >= 1) */
static __always_inline bool ccc_qv_near0(const struct ccc_cfg *c, s32 qv)
{
	u32 near = c->p->qv_near;

	return (u32)qv + near - 1 <= 2 * near - 2;
}

/*
 * sum / cnt for cnt 1..CCC_NREC (the S average) by ceil(2^32 / cnt) =
 * (2^32 + e) / cnt, e < cnt: the product over 2^32 exceeds sum / cnt by
 * sum e / (cnt 2^32), less than 1 / cnt while sum e < 2^32 (sum < 5 *
 * 2^16, e < 5): the floor is exact.
 */
static u32 ccc_div_small(u32 sum, u32 cnt)
{
	static const u32 recip[CCC_NREC + 1] = {
		0, 0, 1U << 31, 1431655766U, 1U << 30, 858993460U,
	};

	if (cnt == 1)
		return sum;
	return (u32)(((u64)sum * recip[cnt]) >> 32);
}

/*
 * S (4.3.4): "CCC records the latest 5 sending rates if |q_v(k)| < 0.05,
 * where the aggregate sending rate is close to C.  The value of S is
 * updated with the average value of the records when leaving A regions."
 *
 * The aggregate is close to C only if the queue is neither growing nor
 * empty: an idle link also has q_v = 0 (DAC 1).  So a rate is recorded
 * when |q_v| < 0.05 and q > ut (the under-utilisation margin,
 * ccc_busy()), in any region (the paper does not say where).  Recording only inside A leaves
 * S at its initial value (S0 = r0 = R_l after a line-rate start) until the
 * first A visit, and in an N-flow incast, which drains through H^d and often
 * refills through H^i before it ever reaches A, N flows probing with
 * S = R_l add N times too much (the model's 8-to-1 incast oscillated
 * between 0.4 and 3.7 C with it).
 */
static __always_inline void ccc_basis_update(struct ccc_state *s,
					     const struct ccc_cfg *c, u8 region,
					     bool busy)
{
	u32 sum = 0, cnt;
	bool leave_a;
	int i;

	if ((s->flags & CCC_S_QV_VALID) && busy && ccc_qv_near0(c, s->qv)) {
		s->rec[s->rec_idx] = (u16)min_t(u32, ccc_share_of(c, s->rate),
						65535U);
		if (++s->rec_idx == CCC_NREC) {
			s->rec_idx = 0;
			s->flags |= CCC_S_REC_FULL;
		}
	}
	/*
	 * On leaving A (4.3.4); and, while S is still the initial guess S0,
	 * on entering H^i (not in the paper), so that a flow whose first
	 * records came from H^d does not probe with S0.  Once S came from
	 * records (CCC_S_BASIS_SET, records >= 1), only leaving A.
	 */
	leave_a = ccc_region_is_a(s->region) && !ccc_region_is_a(region);
	if ((s->flags & CCC_S_BASIS_SET) && !leave_a)
		return;
	cnt = (s->flags & CCC_S_REC_FULL) ? CCC_NREC : s->rec_idx;
	if (!cnt) {
		/*
		 * No record yet: S0 = r0 is only a guess (the paper gives
		 * none).  After a line-rate start, r0 = R_l is N times C/N
		 * for N flows, so until the first records S follows r down
		 * (ours too): a flow's rate after its first decrease has C/N's
		 * magnitude, which is all S is for ("roughly estimated").
		 */
		s->basis = min(s->basis,
			       max_t(u32, 1, ccc_share_of(c, s->rate)));
		return;
	}
	if (leave_a || region == CCC_H1I || region == CCC_H2I) {
		for (i = 0; i < (int)cnt; i++)
			sum += s->rec[i];
		s->basis = max_t(u32, 1, ccc_div_small(sum, cnt));
		s->flags |= CCC_S_BASIS_SET;
	}
}

/* smoothing factor rho = min(1, Itv / RTT_min), Q16 */
static __always_inline u32 ccc_rho(const struct ccc_cfg *c, u32 itv)
{
	if (itv >= c->rttmin_ns)
		return CCC_ONE;
	return ccc_q16_div(itv, c->rttmin_ns, ccc_rtt_inv(c),
			   ccc_q16_sh(c->rttmin_ns));
}

/*
 * ceil(2^64 / a) for the packet counts an ACK covers, 2 .. 63 (a GRO
 * batch or a stretch ACK): Itv / a is the high word of Itv times it.  It
 * exceeds 2^64 / a by e < a, so Itv e < 2^32 * 64 < 2^64 keeps the
 * quotient exact (the error stays below 1/a).  The table holds
 * U64_MAX / a + 1 (fuzz_ccc checks the A^i step it feeds against a
 * division); no division per ACK below 64 packets.
 */
#define CCC_ACKED_RECIP 64
static const u64 ccc_acked_recip[CCC_ACKED_RECIP] = {
	0, 0,	/* 0, 1 */
	0x8000000000000000ULL, 0x5555555555555556ULL,	/* 2, 3 */
	0x4000000000000000ULL, 0x3333333333333334ULL,	/* 4, 5 */
	0x2aaaaaaaaaaaaaabULL, 0x2492492492492493ULL,	/* 6, 7 */
	0x2000000000000000ULL, 0x1c71c71c71c71c72ULL,	/* 8, 9 */
	0x199999999999999aULL, 0x1745d1745d1745d2ULL,	/* 10, 11 */
	0x1555555555555556ULL, 0x13b13b13b13b13b2ULL,	/* 12, 13 */
	0x124924924924924aULL, 0x1111111111111112ULL,	/* 14, 15 */
	0x1000000000000000ULL, 0x0f0f0f0f0f0f0f10ULL,	/* 16, 17 */
	0x0e38e38e38e38e39ULL, 0x0d79435e50d79436ULL,	/* 18, 19 */
	0x0ccccccccccccccdULL, 0x0c30c30c30c30c31ULL,	/* 20, 21 */
	0x0ba2e8ba2e8ba2e9ULL, 0x0b21642c8590b217ULL,	/* 22, 23 */
	0x0aaaaaaaaaaaaaabULL, 0x0a3d70a3d70a3d71ULL,	/* 24, 25 */
	0x09d89d89d89d89d9ULL, 0x097b425ed097b426ULL,	/* 26, 27 */
	0x0924924924924925ULL, 0x08d3dcb08d3dcb09ULL,	/* 28, 29 */
	0x0888888888888889ULL, 0x0842108421084211ULL,	/* 30, 31 */
	0x0800000000000000ULL, 0x07c1f07c1f07c1f1ULL,	/* 32, 33 */
	0x0787878787878788ULL, 0x0750750750750751ULL,	/* 34, 35 */
	0x071c71c71c71c71dULL, 0x06eb3e45306eb3e5ULL,	/* 36, 37 */
	0x06bca1af286bca1bULL, 0x0690690690690691ULL,	/* 38, 39 */
	0x0666666666666667ULL, 0x063e7063e7063e71ULL,	/* 40, 41 */
	0x0618618618618619ULL, 0x05f417d05f417d06ULL,	/* 42, 43 */
	0x05d1745d1745d175ULL, 0x05b05b05b05b05b1ULL,	/* 44, 45 */
	0x0590b21642c8590cULL, 0x0572620ae4c415caULL,	/* 46, 47 */
	0x0555555555555556ULL, 0x05397829cbc14e5fULL,	/* 48, 49 */
	0x051eb851eb851eb9ULL, 0x0505050505050506ULL,	/* 50, 51 */
	0x04ec4ec4ec4ec4edULL, 0x04d4873ecade304eULL,	/* 52, 53 */
	0x04bda12f684bda13ULL, 0x04a7904a7904a791ULL,	/* 54, 55 */
	0x0492492492492493ULL, 0x047dc11f7047dc12ULL,	/* 56, 57 */
	0x0469ee58469ee585ULL, 0x0456c797dd49c342ULL,	/* 58, 59 */
	0x0444444444444445ULL, 0x04325c53ef368eb1ULL,	/* 60, 61 */
	0x0421084210842109ULL, 0x0410410410410411ULL,	/* 62, 63 */
};

/*
 * min(floor(n / RTT_min), cap) for any n < 2^64 and cap < 2^40
 * (ccc_div_capped() with the cfg's reciprocal)
 */
static u64 ccc_div_rtt(const struct ccc_cfg *c, u64 n, u64 cap)
{
	return ccc_div_capped(n, c->rttmin_ns, ccc_rtt_inv(c), cap);
}

/*
 * A^i, the analytical rule (eq. 8): u = delta(q_pred) * M / RTT_min,
 * q_pred = q + Itv * q_v (App. A).  M is the bytes this ACK covers and Itv
 * the interval per packet it covers (a Linux adaptation): the paper has one
 * ACK per packet of size M, so a stretch ACK or a GRO batch of k packets
 * carries the steps of the k ACKs it stands for.  Itv is bounded by
 * RTT_min in the prediction and q_pred floored (not in the paper, which
 * leaves log2 of a q_pred <= 0 undefined).
 */
static noinline s64 ccc_step_analytical(const struct ccc_state *s,
					const struct ccc_cfg *c,
					const struct dcc_sample *smp, u32 q,
					u32 itv)
{
	u32 acked = smp->acked, itv_pkt;
	s64 qp;
	s32 dp;

	if (acked <= 1)
		itv_pkt = itv;
	else if (acked < CCC_ACKED_RECIP)
		itv_pkt = (u32)ccc_mul_shr(itv, ccc_acked_recip[acked], 64);
	else
		itv_pkt = itv / acked;
	itv_pkt = min(itv_pkt, c->rttmin_ns);
	/* itv_pkt <= 2^30, |q_v| <= 2^20: |.| <= 2^50 */
	qp = (s64)q + (((s64)itv_pkt * s->qv) >> CCC_Q);
	dp = ccc_delta_of(c, (u32)clamp_t(s64, qp, 0, U32_MAX), s->qv);
	if (dp <= 0)
		return 0;
	/*
	 * dp M 1e9 / (RTT_min 2^16): dp <= 2^18 (delta <= 3 - q_v), M <
	 * 2^32, so dp M 1e9 < 2^80 and its floor over 2^16 fits a u64; the
	 * floor of that over RTT_min is the floor of the whole
	 */
	return (s64)ccc_div_rtt(c, ccc_mul_shr((u64)dp * smp->acked_bytes,
					       DCC_NSEC_PER_SEC, CCC_Q),
				ccc_rmax(c));
}

/* H_1^i, H_2^i: probing increase u = rho * v_ai * w_ai * f * S (4.3.4) */
static __always_inline s64 ccc_step_probe_up(const struct ccc_state *s,
					     const struct ccc_cfg *c, u8 region,
					     u32 irr_frac, u32 rho)
{
	u32 w_ai, r2;
	u64 mag;

	if (region == CCC_H1I) {
		/* 0.5 Irr/R_l * max(0, 1 - 2 r/R_l) */
		r2 = 2 * ccc_share_of(c, s->rate);
		w_ai = r2 >= CCC_ONE ? 0 :
		       (u32)((((u64)irr_frac / 2) * (CCC_ONE - r2)) >> CCC_Q);
	} else {
		/* 0.1 Irr/R_l (Alg. 1 line 10 drops /R_l: typo) */
		w_ai = (u32)(((u64)irr_frac * 6554) >> CCC_Q);
	}
	/* S <= 2^37; * w_ai <= 2^53; * rho <= 2^53; << n_ai <= 2^57 */
	mag = (ccc_basis_bytes_ps(s, c) * w_ai) >> CCC_Q;
	mag = ((mag * rho) >> CCC_Q) << s->n_ai;
	return (s64)min_t(u64, mag, ccc_rmax(c));
}

/* A^d, H_1^d, H_2^d: probing decrease u = rho * w_md * f * r (4.3.4) */
static __always_inline s64 ccc_step_probe_down(const struct ccc_state *s,
					       const struct ccc_cfg *c, u32 q,
					       u32 rho)
{
	u32 qb = c->p->qb_ns;
	u32 dist = q > qb ? q - qb : qb - q;
	/* w_md = -0.25 min(|q - q_B| / q_B, 1) */
	u32 w_md = (dist >= qb ? CCC_ONE :
		    ccc_q16_div(dist, qb, c->p->qb_inv, c->p->qb_sh)) / 4;

	/* r <= 2^37, * 2^16: < 2^53 */
	return -(s64)((((s->rate * w_md) >> CCC_Q) * rho) >> CCC_Q);
}

/*
 * The additive fairness step near the target (not in the paper).
 *
 * In H^i the paper lets only flows below Irr = R_l (1 - q/q_B)
 * increase (f, eq. 9), so that "the gap among unfair flows is
 * effectively reduced while the system keeps approaching
 * delta(k) = 0" (4.3.4).  Near q_B, Irr is below every flow's rate,
 * and with the aggregate at C (|q_v| < 0.05, the paper's own "close
 * to C" test, 4.3.4) the f gate, which only acts as the state sweeps
 * q, stops acting: below q_B no flow moves (the state parks in
 * H_2^i), at and above it Irr = 0 and everything CCC does is
 * multiplicative: the analytical step of eq. 8 is per ACK (App. A:
 * the same u for every ACK of every flow, so a flow gains in
 * proportion to its ACK rate, i.e. to r), the decreases are w_md r,
 * and S, the mean of the flow's own past rates (4.3.4), is ~r too
 * unless the flows are already fair.  Multiplicative increase with
 * multiplicative decrease keeps the rate ratio (Chiu-Jain): 80:20
 * joins took 530-1150 RTT_min in the model, and with the paper's
 * window, which holds the pair at q_B, a guest join stayed at 1:2.
 *
 * So while the aggregate is at C near the target (|q_v| < 0.05, the
 * link busy: q > the 4.3.4 under-utilisation margin, q < 2 q_B), every
 * flow adds rho * fair_ai * R_l * min(1, 2 sqrt(r/R_l)) * w(q), w = 1
 * below q_B and fading linearly to 0 at 2 q_B: a per-RTT_min step
 * independent of f, in whatever region the state is, the same for
 * every flow above R_l/4 and concave in r below.  With the
 * multiplicative decreases of A^d/H^d (w_md r) that is AIMD (binomial
 * below R_l/4: the smaller flow gains the larger share of its rate),
 * whose only fixed point is equal rates.  The square root scales the
 * sum for large N: N flows at their fair shares add 2 sqrt(N) full
 * steps, not N (a 16-flow incast's sum of R_l/2 per RTT_min kept the
 * guest's backlog above one BDP for 440-460 RTT; with the root 83-413,
 * and a newcomer from 12% of C, whose step is 0.7 of the full one,
 * still levels in 1.6-2.1 s; the plain root, 0.35 of it there, left
 * that join at Jain 0.85).  The fade bounds the sum's effect on the
 * queue: it meets the decreases before 2 q_B, whatever N.  It is off
 * as soon as the queue moves (|q_v| >= 0.05: the paper's steps act
 * alone), so the transients are the paper's.  fair_ai = 0 turns it
 * off.  rho (Itv/RTT_min, 4.3.4) makes it a per-time step whatever the
 * ACK rate.
 * ccc_fair_on() tests the conditions but the app-limited one, which
 * is ccc_step()'s.
 */
static __always_inline bool ccc_fair_on(const struct ccc_state *s,
					const struct ccc_cfg *c, u32 q, bool busy)
{
	return c->p->fair_ai && busy && q < 2 * c->p->qb_ns &&
	       ccc_qv_near0(c, s->qv);
}

/*
 * sqrt(x) of a share x of R_l, Q16 in [1, 2^16]: x = 2^i (1 + f), f in
 * [0, 1), so sqrt(x 2^16) = 2^(i/2 + 8) sqrt(1 + f) for i even and
 * 2^((i - 1)/2 + 8) sqrt(2 (1 + f)) for i odd, the root taken on its
 * chord between the octave's ends (1 .. sqrt 2 = 92682 / 2^16, or
 * sqrt 2 .. 2): exact at the ends, at most 2% low between
 * (test_ccc_law checks every x).  m < 2^18, << 8: no overflow.
 */
static __always_inline u32 ccc_sqrt_share(u32 x)
{
	u32 i = ccc_fls_nz(x) - 1;		/* 0..16 */
	u32 f = (x << (CCC_Q - i)) - CCC_ONE;	/* Q16, < 2^16 */
	u32 m = i & 1 ? 92682 + (u32)(((u64)f * 38390) >> CCC_Q) :
			CCC_ONE + (u32)(((u64)f * 27146) >> CCC_Q);

	return (m << (i >> 1)) >> 8;
}

u32 ccc_sqrt_q16(u32 x)
{
	return ccc_sqrt_share(clamp_t(u32, x, 1, CCC_ONE));
}

/*
 * The step's scale for a flow at rate r: min(1, 2 sqrt(r / R_l)), Q16.
 * Full for a flow at R_l/4 or more (up to N = 4 flows at their fair
 * shares), 2/sqrt(N) of it at N: N flows add 2 sqrt(N) steps, not N.
 */
static __always_inline u32 ccc_fair_scale(const struct ccc_cfg *c, u64 r)
{
	u32 x = max_t(u32, ccc_share_of(c, r), 1);

	return x >= CCC_ONE / 4 ? CCC_ONE : 2 * ccc_sqrt_share(x);
}

/*
 * rho * fair_ai * R_l * scale(r) * w(q): w = 1 below q_B, 2 - q/q_B up
 * to 2 q_B (q - q_B < q_B divides through q_B's reciprocal, as Irr/R_l
 * does).  R_l fair_ai < 2^53; each further factor <= 2^16, shifted back.
 */
static __always_inline s64 ccc_fair_step(const struct ccc_state *s,
					 const struct ccc_cfg *c, u32 q,
					 u32 rho)
{
	u32 qb = c->p->qb_ns;
	u64 mag = (ccc_line(c) * c->p->fair_ai) >> CCC_Q;

	mag = (mag * ccc_fair_scale(c, s->rate)) >> CCC_Q;

	if (q > qb)	/* q < 2 q_B (ccc_fair_on): w in (0, 1) */
		mag = (mag * (CCC_ONE - ccc_q16_div(q - qb, qb, c->p->qb_inv,
						    c->p->qb_sh))) >> CCC_Q;
	mag = (mag * rho) >> CCC_Q;
	return (s64)min_t(u64, mag, ccc_rmax(c));
}

/*
 * u(k) of the region (eq. 8 or the probing rules), plus the fair step
 * when it is on.  rho (a multiply and a compare, ccc_rho) only where a
 * step takes it: the probing steps with f set, the fair step.
 */
static __always_inline s64 ccc_step(const struct ccc_state *s,
				    const struct ccc_cfg *c,
				    const struct dcc_sample *smp, u8 region,
				    u8 f, u32 q, u32 itv, u32 irr_frac,
				    bool busy)
{
	bool up = region == CCC_H1I || region == CCC_H2I;
	bool fair;
	u32 rho;
	s64 u = 0;

	/*
	 * no probing increase and no fair step on app-limited ACKs: an idle
	 * app is not spare capacity (eq. 8's A^i step stays the paper's)
	 */
	if (up && smp->app_limited)
		return 0;
	fair = !smp->app_limited && ccc_fair_on(s, c, q, busy);
	if (region == CCC_AI) {
		u = ccc_step_analytical(s, c, smp, q, itv);
		return fair ? u + ccc_fair_step(s, c, q, ccc_rho(c, itv)) : u;
	}
	if (!f && !fair)
		return 0;
	rho = ccc_rho(c, itv);
	if (f)
		u = up ? ccc_step_probe_up(s, c, region, irr_frac, rho) :
			 ccc_step_probe_down(s, c, q, rho);
	if (fair)
		u += ccc_fair_step(s, c, q, rho);
	return u;
}

/*
 * r(k+1) = r(k) + u(k), kept in [r_min, r_max] (bounds not in the
 * paper); r < 2^37 and |u| <= 2 r_max < 2^38: no overflow in s64
 */
static __always_inline void ccc_rate_update(struct ccc_state *s,
					    const struct ccc_cfg *c, s64 u)
{
	s64 r = max_t(s64, (s64)s->rate + u, c->r_min);

	s->rate = (u64)min_t(s64, r, ccc_rmax(c));
}

/*
 * cwnd cap for rate r: r (RTT_min [+ q_B]) / 1e9 * gain / 100, each
 * quotient floored; / 1e9 and / 100 are by constants, which the compiler
 * turns into multiplies.  t <= 2e9 < 2^31, so r t < 2^63 below r = 2^32
 * bytes/s (34 Gbit/s).  Above, r t < 2^68: 1e9 = 2^9 * 1953125, and
 * floor(r t / 2^9) = (r >> 9) t + floor((r & 511) t / 2^9) (< 2^59) over
 * 1953125 is the floor of r t / 1e9, without a 128-bit product (its
 * stack alignment would cost the whole per-ACK function a realigned
 * frame in the kernel).  * gain <= 2^38 * 255 < 2^46.
 */
static __always_inline u64 ccc_cwnd_of(const struct ccc_cfg *c, u64 rate)
{
	/*
	 * The paper caps inflight at r * RTT_min (section 5; cwnd_qb 0).
	 * At the target the RTT is RTT_min + q_B, so that window binds below
	 * r: the delivered rate is r RTT_min / RTT, and r settles at C/N (1 +
	 * q_B/RTT_min), self-clocking damping as long as r_max = R_l leaves
	 * room (N flows reach the target queue when N >= C (1 +
	 * q_B/RTT_min) / R_l; a lone flow fills the link with the window at
	 * R_l RTT_min and holds no standing queue).  cwnd_qb 1, the default
	 * (tcp_ccc.c says why), adds q_B: the window binds only above the
	 * target.
	 */
	u64 t = (u64)c->rttmin_ns + (c->p->cwnd_qb ? c->p->qb_ns : 0);
	u32 gain = c->p->cwnd_gain_pct;
	u64 w;

	if (likely(!(rate >> 32)))
		w = rate * t / DCC_NSEC_PER_SEC;
	else
		w = ((rate >> 9) * t + (((rate & 511) * t) >> 9)) / 1953125;

	return gain == 100 ? w : w * gain / 100;
}

u64 ccc_cwnd_bytes(const struct ccc_cfg *c, u64 rate)
{
	return ccc_cwnd_of(c, rate);
}

void ccc_decide(const struct ccc_state *st, const struct ccc_cfg *c,
		struct dcc_decision *d)
{
	d->rate_bytes_ps = st->rate;
	d->cwnd_bytes = ccc_cwnd_of(c, st->rate);
	d->flags = 0;
	d->changed = true;
}

/*
 * ccc_on_ack(), inline: tcp_ccc.c includes this file and calls it from
 * cong_control, so the per-ACK step costs no call (nor a second frame).
 */
static __always_inline void ccc_ack(struct ccc_state *st,
				    const struct ccc_cfg *c,
				    const struct dcc_sample *s,
				    bool round_start, struct dcc_decision *d,
				    struct ccc_ack_info *info)
{
	u64 r0 = st->rate;
	u32 itv = ccc_itv_ns(st, s);
	u32 q = ccc_queue_ns(c, s->rtt_ns);
	bool busy = ccc_busy(c, q);
	bool qv_updated = ccc_grad_update(st, c, s);
	struct ccc_place pl;
	s32 delta;
	s64 u;

	ccc_vai_update(st, c, busy, round_start);
	delta = ccc_delta_of(c, q, st->qv);
	pl = ccc_place_of(c, q, st->qv, delta, r0);
	ccc_basis_update(st, c, pl.region, busy);
	u = ccc_step(st, c, s, pl.region, pl.f, q, itv, pl.irr_frac, busy);
	ccc_rate_update(st, c, u);
	st->region = pl.region;

	/*
	 * The decision is r and the window of r: it changed when r moved or
	 * the config it is computed from did (CCC_S_REDECIDE).
	 */
	d->flags = round_start ? CCC_D_NEW_ROUND : 0;
	d->changed = st->rate != r0 || (st->flags & CCC_S_REDECIDE);
	if (d->changed) {
		st->flags &= ~CCC_S_REDECIDE;
		d->rate_bytes_ps = st->rate;
		d->cwnd_bytes = ccc_cwnd_of(c, st->rate);
	}
	if (info)
		*info = (struct ccc_ack_info){
			.step = u, .q_ns = q, .delta = delta,
			.irr_frac = pl.irr_frac, .rho = ccc_rho(c, itv),
			.itv_ns = itv, .region = pl.region, .f = pl.f,
			.qv_updated = qv_updated,
		};
}

void ccc_on_ack(struct ccc_state *st, const struct ccc_cfg *c,
		const struct dcc_sample *s, bool round_start,
		struct dcc_decision *d, struct ccc_ack_info *info)
{
	ccc_ack(st, c, s, round_start, d, info);
}
