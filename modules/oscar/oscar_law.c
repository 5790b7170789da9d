// SPDX-License-Identifier: GPL-2.0
/*
 * OSCAR's per-batch control law (Algorithm 2), plain C.  See
 * include/dcc/oscar.h for the scales and modules/oscar/tcp_oscar.c for the
 * theory.  Overflow bounds are noted per line; the inputs are bounded by
 * the BLS estimator (delay <= 2^28 us after y0, infl/rate from packets
 * capped per batch) and by the parameter ranges (mu <= 1e11 B/s).
 */
#include "dcc/oscar.h"

u64 oscar_rate(const struct oscar_law_cfg *c, u32 u)
{
	/* mu < 2^37, u <= 2^21: product < 2^58 */
	return (c->mu_bytes_ps * u) >> OSCAR_U_SHIFT;
}

u64 oscar_cwnd_bytes(const struct oscar_law_cfg *c, u32 u)
{
	u64 bdp = dcc_rate_time_bytes(c->mu_bytes_ps, c->base_us, DCC_USEC_PER_SEC);
	u64 w = dcc_rate_time_bytes(oscar_rate(c, u), c->dt_us,
				    DCC_USEC_PER_SEC);

	/*
	 * Alg. 2 line 12 prints max(), but the paper's text says the window
	 * is never set above the base BDP ("would not increase throughput but
	 * only increase delay"), the artifact uses min(), and a 200-flow
	 * incast converging to a 230 KB queue (Fig. 20) is impossible with a
	 * per-flow floor of one BDP.  So: min.
	 */
	return min(w, bdp);
}

/* rate (bytes/s) -> share of mu in Q20; rate is clamped to 2 * mu first */
static u32 oscar_ratio(const struct oscar_law_cfg *c, u64 rate_bytes_ps)
{
	rate_bytes_ps = min(rate_bytes_ps, 2 * c->mu_bytes_ps);
	/* <= 2^38 * 2^20 / mu: fits; result <= 2^21 */
	return (u32)dcc_mul_div(rate_bytes_ps, OSCAR_U_ONE, c->mu_bytes_ps);
}

void oscar_law_step(const struct oscar_law_cfg *c, const struct dcc_bls_out *b,
		    u32 u, bool app_limited, struct oscar_decision *d)
{
	u32 old = u;
	s32 g;

	*d = (struct oscar_decision){ 0 };

	if (b->delay <= (u64)c->base_us + c->eps_us) {
		/* Alg. 2 line 4-5: the queue is empty, both signals are blind */
		u = min(u + c->u_hai, OSCAR_U_ONE);
		d->branch = OSCAR_HAI;
	} else {
		/*
		 * line 7, <delay, window>: u_w = inflight / (delay * mu), i.e.
		 * the reference window scaled by D_target / delay, as a share
		 * of D_target * mu.  infl * 1e6 < 2^40 * 2^20 fits u64.
		 */
		u64 r_w = dcc_mul_div(b->infl_bytes, DCC_USEC_PER_SEC,
				      max_t(u64, b->delay, 1));

		d->u_w = oscar_ratio(c, r_w);

		/*
		 * line 8, <gradient, rate>: u_r = rate / ((1 + g) * mu).  With
		 * g >= -0.9 the divisor 1 + g is >= 0.1 (6554 in Q16).  A
		 * stale or degenerate batch has no rate signal; the window
		 * loop stands in for it (artifact).
		 */
		if (b->grad_valid && b->rate_bytes_ps) {
			g = max_t(s32, b->grad_q16, OSCAR_GRAD_FLOOR_Q16);
			d->u_r = oscar_ratio(c, dcc_mul_div(b->rate_bytes_ps,
							    DCC_Q16_ONE, DCC_Q16_ONE + g));
		} else {
			d->u_r = d->u_w;
		}

		/* lines 9-10: the delay target decides the direction */
		if (b->delay + c->hyst_us < c->dt_us) {
			u = max(d->u_w, d->u_r);
			d->branch = OSCAR_ACCEL;
		} else {
			u = min(d->u_w, d->u_r);
			d->branch = OSCAR_DECEL;
		}
		/* line 11: AI after every MIMD step, for fairness (Thm D.3) */
		u += c->u_ai;
	}

	u = clamp_val(u, c->u_min, OSCAR_U_ONE);
	if (app_limited && u < old) {
		u = old;
		d->held = true;
	}
	d->u = u;
}
