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
 * Constant space (64 bytes), per-sample cost: 2 multiplies and 7 adds.
 * Per batch: a handful of 64-bit divisions.
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
	u32 n;		/* regression points */
	u32 y0;		/* delay offset of this batch (shifted units) */
	u32 started;	/* 0 until the first sample fixed t0 */
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
