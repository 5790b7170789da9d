/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Batched least-squares (BLS) delay-gradient estimator (OSCAR, NSDI'26,
 * Algorithm 1 and Eq. 7).
 *
 * Every ACK contributes one point (x = send time of the sampled packet,
 * y = its RTT).  When the batch spans at least tau of send time and holds
 * at least min_samples points it closes and yields, for the packets it
 * covered:
 *   delay    = mean y                                   (caller time units)
 *   gradient = (n*Sxy - Sx*Sy) / (n*Sxx - Sx^2)         (dimensionless, Q16)
 *   inflight = packet-weighted mean inflight-at-send    (bytes)
 *   rate     = packets * bytes_per_pkt / span           (bytes/s)
 * Constant space (64 bytes), per-sample cost: 2 multiplies and 7 adds
 * (3 and 7 with the inflight weight), inline for a caller that fixes a
 * batch's bounds when it opens (dcc_bls_push()).  Per batch: a handful of
 * 64-bit divisions.
 *
 * The batch origin t0 is the send time of the sample that closed the
 * previous batch (Alg. 1; the origin sample belongs to the previous batch),
 * so n packets over span = t_last - t0 is an unbiased rate (an origin at the
 * batch's own first sample would overstate it by n/(n-1)).
 *
 * Overflow safety.  x = send - t0 and y = delay - y0 (y0 = first delay of
 * the batch) are both taken relative to the batch, after a right shift by
 * cfg->shift.  Per batch:
 *	|x| <= DCC_BLS_X_MAX = 2^22,  |y| <= DCC_BLS_Y_MAX = 2^28,
 *	n <= DCC_BLS_N_MAX = 2^12 (the batch is force-closed when full),
 * hence |Sx| <= 2^34, |Sy| <= 2^40, Sxx <= 2^56, |Sxy| <= 2^62: the per-ACK
 * path is pure 64-bit.  The slope's numerator and denominator (<= 2^75) are
 * formed in 128 bits and normalised by a common right shift before one
 * 64-bit division.  With us timestamps (shift 0) a batch may span 4.2 s and
 * a delay may exceed y0 by 268 s; dcc_bls_shift_for() picks the shift that
 * keeps 4*tau inside X_MAX for ns timestamps or very long RTTs.
 *
 * Range: a delay must stay below 2^32 << shift units (71 minutes in us,
 * 4.29 s in ns at shift 0) because the batch offset y0 is a u32; the
 * supported RTT range is 1 us .. 1 s.
 *
 * Timestamps are u64 and compared by modular difference, so a wrap of the
 * caller's clock inside a batch is harmless.  A sample sent more than
 * X_MAX before the origin (clock step, reordering across batches) resets
 * the batch instead of corrupting it.
 */
#ifndef _DCC_BLS_H
#define _DCC_BLS_H

#include "fixp.h"

#define DCC_BLS_X_MAX (1LL << 22)
#define DCC_BLS_Y_MAX (1LL << 28)
#define DCC_BLS_N_MAX (1U << 12)
#define DCC_BLS_SHIFT_MAX 40	/* cfg->shift above this is treated as 40 */
#define DCC_BLS_PKTS_MAX (1U << 16)	/* per-sample packet count cap */
#define DCC_BLS_INFL_MAX (1U << 24)	/* per-sample inflight cap, packets */
/* |gradient| cap: Q16 value fits an s32 with room for the caller's 1+g. */
#define DCC_BLS_GRAD_MAX_Q16 ((1 << 30) - 1)	/* |g| < 16384 */

struct dcc_bls_cfg {
	u64 tau;		/* batch length, caller units (OSCAR: RTT_base/2) */
	u64 stale;		/* span beyond which a batch is discarded as
				 * stale (idle gap); 0 = 4 * tau
				 */
	u64 units_per_sec;	/* caller time units per second (1e6 for us) */
	u32 min_samples;	/* points needed to close (paper: 3; min 2) */
	u32 bytes_per_pkt;	/* scales rate and inflight to bytes (mss) */
	u8 shift;		/* x and y are >> shift before accumulation
				 * (0..DCC_BLS_SHIFT_MAX; dcc_bls_shift_for())
				 */
};

struct dcc_bls_sample {
	u64 send_ts;	/* send time of the sampled packet, caller units */
	u64 delay;	/* its RTT (receive - send), caller units */
	u32 pkts;	/* packets this ACK newly covers (coalesced ACKs > 1) */
	u32 infl;	/* inflight when that packet was sent, packets */
};

struct dcc_bls_out {
	u64 delay;		/* mean delay of the batch, caller units */
	u64 infl_bytes;		/* packet-weighted mean inflight at send */
	u64 rate_bytes_ps;		/* send rate of the batch's packets (0 if stale) */
	u64 span;		/* send-time span of the batch, caller units */
	s32 grad_q16;		/* dimensionless slope, Q16.16 (0 if invalid) */
	u32 samples;		/* regression points */
	u32 pkts;		/* packets covered */
	bool grad_valid;	/* false when stale or all x were equal */
	bool stale;		/* span exceeded cfg->stale: rate, gradient 0 */
};

/* 64 bytes of per-flow state; zero-filled memory is a valid reset state. */
struct dcc_bls {
	u64 t0;		/* batch origin (send time), caller units */
	s64 sx, sy;	/* sum of x, sum of y (shifted units) */
	u64 sxx;	/* sum of x^2 */
	s64 sxy;	/* sum of x*y */
	u64 infl;	/* sum of infl_i * pkts_i */
	u32 pkts;	/* sum of pkts_i */
	u32 y0;		/* delay offset of this batch (shifted units) */
	u32 push_tau;	/* dcc_bls_push()'s tau and min_samples */
	u16 n;		/* regression points (<= N_MAX) */
	u8 started;	/* 0 until the first sample fixed t0 */
	u8 push_min_n;	/* (effective), saturated; 0 after a reset */
};

/* Forget the current batch; the next sample becomes the new origin. */
void dcc_bls_reset(struct dcc_bls *b);

/*
 * Add one ACK sample.  Returns true when the sample closed a batch; @out
 * then holds the batch's figures and the estimator has started the next
 * batch at this sample's send time.  Returns false otherwise (@out
 * untouched).  A stale batch (span > cfg->stale) is also reported (with
 * out->stale set) so the caller can still use its delay.
 */
bool dcc_bls_add(struct dcc_bls *b, const struct dcc_bls_cfg *cfg,
		 const struct dcc_bls_sample *s, struct dcc_bls_out *out);

/* The effective min_samples (dcc_bls_cfg): at least 2, at most N_MAX. */
static inline u32 dcc_bls_min_n(u32 min_samples)
{
	return clamp_val(min_samples, 2U, DCC_BLS_N_MAX);
}

/* Add one point (x, y): both shifted, |x| <= X_MAX, |y| <= Y_MAX. */
static inline void dcc_bls_sum(struct dcc_bls *b, s64 x, s64 y, u32 pkts,
			       u32 infl)
{
	b->sx += x;
	b->sy += y;
	b->sxx += (u64)(x * x);
	b->sxy += x * y;
	b->n++;
	b->pkts += pkts;
	b->infl += (u64)infl * pkts;
}

/*
 * Accumulate one point: @x = send offset >> shift, |x| <= X_MAX, and the
 * delay >> shift; the batch's first point fixes y0.  @pkts and @infl are
 * capped (PKTS_MAX, INFL_MAX).  Within the bounds above, pure 64-bit: 2
 * multiplies (x^2, x*y) and one for the inflight weight, 7 adds, no branch
 * but the first point's.
 */
static inline void dcc_bls_accumulate(struct dcc_bls *b, s64 x,
				      u64 delay_shifted, u32 pkts, u32 infl)
{
	s64 y;

	if (unlikely(b->n == 0))
		b->y0 = (u32)min_t(u64, delay_shifted, U32_MAX);
	y = (s64)min_t(u64, delay_shifted, S64_MAX) - (s64)b->y0;
	y = clamp_val(y, -DCC_BLS_Y_MAX, DCC_BLS_Y_MAX);
	dcc_bls_sum(b, x, y, pkts, infl);
}

/*
 * Fix dcc_bls_push()'s tau and min_samples now, as dcc_bls_add() does
 * from its cfg on every call: for a caller that fixes a batch's bounds
 * before its first point (saturated: dcc_bls_push() only errs towards
 * dcc_bls_add()).
 */
static inline void dcc_bls_push_bounds(struct dcc_bls *b, u64 tau,
				       u32 min_samples)
{
	b->push_tau = (u32)min_t(u64, tau, U32_MAX);
	b->push_min_n = (u8)min_t(u32, dcc_bls_min_n(min_samples), 0xff);
}

/* dcc_bls_push()'s checks of a point: true if it needs dcc_bls_add() */
static inline bool dcc_bls_needs_add(const struct dcc_bls *b,
				     const struct dcc_bls_sample *s, u64 span,
				     u64 span_max, u32 n)
{
	if (unlikely(span > span_max))
		return true;
	if (span >= b->push_tau && n + 1 >= b->push_min_n)
		return true;	/* it may close the batch */
	/* capped: dcc_bls_add() */
	return unlikely(s->pkts - 1 >= DCC_BLS_PKTS_MAX ||
			s->infl > DCC_BLS_INFL_MAX);
}

/* dcc_bls_push() of a batch's first point, which fixes y0 */
static inline bool dcc_bls_push_first(struct dcc_bls *b,
				      const struct dcc_bls_sample *s,
				      u64 span, u64 span_max, u8 shift)
{
	u64 dsh = s->delay >> shift;
	u32 y0 = (u32)min_t(u64, dsh, U32_MAX);
	s64 y = (s64)min_t(u64, dsh, S64_MAX) - (s64)y0;

	if (!b->started || dcc_bls_needs_add(b, s, span, span_max, 0) ||
	    y > DCC_BLS_Y_MAX)
		return false;
	b->y0 = y0;
	dcc_bls_sum(b, (s64)(span >> shift), y, s->pkts, s->infl);
	return true;
}

/*
 * dcc_bls_add()'s step for an ordinary point, inline, for a caller whose
 * dcc_bls_cfg is fixed for a batch (OSCAR: oscar_batch_open()).  An
 * ordinary point joins a batch whose origin is fixed, is sent no earlier
 * than the origin and at most @span_max after it, closes nothing (it is
 * not the N_MAX-th point, and it comes before tau of send time or before
 * the batch holds min_samples points) and needs no cap (its packet count
 * is 1 .. PKTS_MAX, its inflight at most INFL_MAX, its y within +-Y_MAX).
 * Such a point is accumulated exactly as dcc_bls_add() would (the batch's
 * first point fixes y0), and true returned.  Any other point (the origin,
 * reordered, stale, closing, capped) returns false with @b untouched: the
 * caller hands it to dcc_bls_add(), which does with it what it would have
 * done anyway.  So the split is invisible, and what dcc_bls_add() checks
 * and clamps per sample stays off the common path as a few compares.
 *
 * tau and min_samples are those the BLS keeps for this (push_tau,
 * push_min_n): of the last dcc_bls_add() call, or of
 * dcc_bls_push_bounds() if the caller fixed the batch's before its first
 * point; zero after a reset, which sends every point to dcc_bls_add();
 * saturated, which only sends more there.  The caller passes the rest of
 * its cfg: @shift = min(cfg->shift, DCC_BLS_SHIFT_MAX), and @span_max at
 * most the stale limit (cfg->stale, or 4 * tau) with @span_max >> @shift
 * <= DCC_BLS_X_MAX: a point within @span_max is then neither stale nor
 * out of x's range.
 */
static inline bool dcc_bls_push(struct dcc_bls *b, const struct dcc_bls_sample *s,
				u64 span_max, u8 shift)
{
	u64 span = s->send_ts - b->t0;	/* modular: before t0 is huge */
	u32 n = b->n;
	s64 y;

	/* 1 <= n and n + 1 < N_MAX: a point of an open batch that it cannot fill */
	if (unlikely(n - 1 >= DCC_BLS_N_MAX - 2))
		return !n && dcc_bls_push_first(b, s, span, span_max, shift);
	if (dcc_bls_needs_add(b, s, span, span_max, n))
		return false;
	/* span <= span_max < 2^63: x >= 0; delay >> shift < 2^64 >> shift */
	y = (s64)min_t(u64, s->delay >> shift, S64_MAX) - (s64)b->y0;
	if (unlikely((u64)(y + DCC_BLS_Y_MAX) > 2 * DCC_BLS_Y_MAX))
		return false;	/* clamped: dcc_bls_add() */
	dcc_bls_sum(b, (s64)(span >> shift), y, s->pkts, s->infl);
	return true;
}

/*
 * Smallest shift such that a batch of 4 * @tau (and a delay excursion of
 * 64 * @tau) fits DCC_BLS_X_MAX/Y_MAX: 0 for us timestamps up to
 * tau = 1 s; for ns timestamps, 0 up to tau ~ 1 ms.
 */
u8 dcc_bls_shift_for(u64 tau);

/*
 * The slope of Eq. 7 from raw sums, exposed for the unit tests and for
 * modules that keep their own sums (e.g. a second estimator on a
 * different signal).  Returns false (and *g_q16 = 0) when den <= 0.
 */
bool dcc_bls_slope_q16(u32 n, s64 sx, s64 sy, u64 sxx, s64 sxy, s32 *g_q16);

#endif /* _DCC_BLS_H */
