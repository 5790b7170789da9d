// SPDX-License-Identifier: GPL-2.0
/*
 * Batched least-squares delay-gradient estimator; see include/dcc/bls.h
 * for the model, the units and the overflow bounds.  Plain C: this file is
 * built into dcc_lib.ko and into the userspace unit tests and fuzzers.
 */
#include "dcc/bls.h"

void dcc_bls_reset(struct dcc_bls *b)
{
	*b = (struct dcc_bls){ 0 };
}
DCC_EXPORT(dcc_bls_reset);

u8 dcc_bls_shift_for(u64 tau)
{
	/* 4 * tau, saturated: tau is a caller value, any u64 */
	u64 t4 = tau > U64_MAX / 4 ? U64_MAX : 4 * tau;
	/* t4 >> shift has at most 22 bits: < 2^22 = X_MAX, fits */
	int shift = fls64(t4) - 22;

	if (shift <= 0)
		return 0;
	/*
	 * One less gives 23 bits, which fit only as X_MAX itself; test the
	 * truncated value exactly as dcc_bls_add() computes it.
	 */
	if ((t4 >> (shift - 1)) <= (u64)DCC_BLS_X_MAX)
		shift--;
	return (u8)min_t(int, shift, DCC_BLS_SHIFT_MAX);
}
DCC_EXPORT(dcc_bls_shift_for);

/* Number of significant bits of a non-negative 128-bit value. */
static int bls_bits128(dcc_s128 v)
{
	u64 hi = (u64)((dcc_u128)v >> 64);

	return hi ? 64 + fls64(hi) : fls64((u64)v);
}

bool dcc_bls_slope_q16(u32 n, s64 sx, s64 sy, u64 sxx, s64 sxy, s32 *g_q16)
{
	/*
	 * Eq. 7: g = (n*Sxy - Sx*Sy) / (n*Sxx - Sx^2).  Within the header's
	 * bounds |num| <= 2^75 and den <= 2^69; both are exact in 128 bits
	 * (each product is a single 64x64->128 multiply).
	 */
	dcc_s128 num = (dcc_s128)n * sxy - (dcc_s128)sx * sy;
	dcc_s128 den = (dcc_s128)n * (dcc_s128)sxx - (dcc_s128)sx * sx;
	dcc_s128 lim;
	s64 q;
	int k;

	*g_q16 = 0;
	if (den <= 0)
		return false;	/* all x equal: no slope */

	/*
	 * Normalise by a common right shift so den < 2^31; the relative
	 * error this adds is below 2^-30 (den keeps >= 30 significant bits).
	 */
	k = bls_bits128(den) - 31;
	if (k > 0) {
		den >>= k;
		num >>= k;	/* arithmetic shift: floor, error < 1/den */
	}

	/* |g| < 2^14 so that num << 16 fits in 63 bits (den < 2^31). */
	lim = den << 14;
	if (num > lim)
		num = lim;
	else if (num < -lim)
		num = -lim;

	/* round to nearest: (num * 2^16 +- den/2) / den */
	q = (s64)num * DCC_Q16_ONE;
	q += q >= 0 ? (s64)den / 2 : -((s64)den / 2);
	q = div64_s64(q, (s64)den);
	*g_q16 = (s32)clamp_val(q, -(s64)DCC_BLS_GRAD_MAX_Q16,
				(s64)DCC_BLS_GRAD_MAX_Q16);
	return true;
}
DCC_EXPORT(dcc_bls_slope_q16);

/* Start a new, empty batch whose origin is @t0 (dcc_bls_push()'s bounds kept). */
static void bls_restart(struct dcc_bls *b, u64 t0)
{
	*b = (struct dcc_bls){
		.t0 = t0, .started = 1,
		.push_tau = b->push_tau, .push_min_n = b->push_min_n,
	};
}

/* Round-to-nearest signed division by a positive count. */
static s64 bls_div_round(s64 a, u32 n)
{
	return div64_s64(a + (a >= 0 ? (s64)(n / 2) : -(s64)(n / 2)), n);
}

static void bls_close(struct dcc_bls *b, const struct dcc_bls_cfg *cfg,
		      u64 span, bool stale, struct dcc_bls_out *out)
{
	u32 bpp = cfg->bytes_per_pkt;
	s64 mean = (s64)b->y0 + bls_div_round(b->sy, b->n);

	out->delay = mean > 0 ? (u64)mean << min_t(u8, cfg->shift, DCC_BLS_SHIFT_MAX) : 0;
	out->infl_bytes = dcc_mul_div(b->infl, bpp, b->pkts);
	out->span = span;
	out->samples = b->n;
	out->pkts = b->pkts;
	out->stale = stale;
	if (stale) {
		/* an idle gap inside the batch: its rate and slope say nothing */
		out->rate_bytes_ps = 0;
		out->grad_q16 = 0;
		out->grad_valid = false;
		return;
	}
	out->rate_bytes_ps = dcc_bytes_per_sec((u64)b->pkts * bpp, span,
					       cfg->units_per_sec);
	out->grad_valid = dcc_bls_slope_q16(b->n, b->sx, b->sy, b->sxx, b->sxy,
					    &out->grad_q16);
}

bool dcc_bls_add(struct dcc_bls *b, const struct dcc_bls_cfg *cfg,
		 const struct dcc_bls_sample *s, struct dcc_bls_out *out)
{
	u32 pkts = clamp_val(s->pkts, 1U, DCC_BLS_PKTS_MAX);
	u32 infl = min_t(u32, s->infl, DCC_BLS_INFL_MAX);
	u32 min_n = dcc_bls_min_n(cfg->min_samples);
	u64 stale = cfg->stale ? cfg->stale : 4 * cfg->tau;
	u64 span = s->send_ts - b->t0;	/* modular: wrap-safe */
	u8 shift = min_t(u8, cfg->shift, DCC_BLS_SHIFT_MAX);
	s64 x = (s64)span >> shift;

	dcc_bls_push_bounds(b, cfg->tau, cfg->min_samples);

	if (!b->started) {
		/* the first sample only fixes the origin (Alg. 1 startTs) */
		bls_restart(b, s->send_ts);
		return false;
	}

	if (x < -DCC_BLS_X_MAX) {
		/* sent long before the origin: clock step or stale reorder */
		bls_restart(b, s->send_ts);
		return false;
	}

	if (x > 0 && (span > stale || x > DCC_BLS_X_MAX)) {
		/*
		 * The batch spans an idle gap.  Its delays are still real
		 * (the caller may use the mean), but no rate or slope is
		 * computed (the artifact's 3-tau discard).  This sample's
		 * x is out of range, so it counts towards the mean only.
		 */
		dcc_bls_accumulate(b, 0, s->delay >> shift, pkts, infl);
		bls_close(b, cfg, span, true, out);
		bls_restart(b, s->send_ts);
		return true;
	}

	dcc_bls_accumulate(b, x, s->delay >> shift, pkts, infl);

	if ((x > 0 && span >= cfg->tau && b->n >= min_n) ||
	    b->n >= DCC_BLS_N_MAX) {
		bls_close(b, cfg, x > 0 ? span : 0, false, out);
		bls_restart(b, s->send_ts);
		return true;
	}
	return false;
}
DCC_EXPORT(dcc_bls_add);
