/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CCC control law (Jiang et al., "CCC: Re-architecting Delay-based
 * Congestion Control in Datacenter Networks", NSDI'26, eq. 1-10 and
 * Algorithm 1), as plain C shared by tcp_ccc.ko and the userspace unit
 * tests.  The kernel glue and the theory are in modules/ccc/tcp_ccc.c.
 *
 * Fixed-point scales and ranges (the whole dcc range: 1 Mbit/s .. 800
 * Gbit/s, RTT 1 us .. 1 s):
 *   rates r, R_l, r_min, r_max: bytes/s, u64 (<= DCC_RATE_MAX_BPS < 2^37);
 *   S and the five S records: share of R_l, Q16 (CCC_SHARE_ONE = 1.0; a
 *	rate is <= r_max <= R_l, so a share is <= 2^16; records are u16 and
 *	saturate at 65535/65536 of R_l);
 *   times (q, q_B, RTT, RTT_min, Itv, thresholds): us, u32 (<= 2^30);
 *   q_v, delta, w_ai, w_md, rho, Irr/R_l: dimensionless Q16 in s32/u32
 *	(q_v clamped to [-1, CCC_QV_MAX], so |delta| <= 64 + 16 < 2^7);
 *   log2 values: Q16 from dcc_log2_q16 (eq. 10's piecewise-linear log2)
 *	of times in 1/64 us (CCC_L2_SHIFT): < 37 << 16.
 * Every product below is bounded in the comment next to it; none exceeds
 * 2^63 (128-bit only inside dcc_mul_div / dcc_bls_slope_q16).
 */
#ifndef _DCC_CCC_H
#define _DCC_CCC_H

#include "fixp.h"
#include "bls.h"

#define CCC_Q 16
#define CCC_ONE (1 << CCC_Q)		/* 1.0 in Q16 */
#define CCC_SHARE_ONE CCC_ONE		/* a rate equal to R_l */
#define CCC_QV_MAX 16			/* q_v clamp (spec 2.2 step 6) */
#define CCC_QV_NEAR_DEFAULT (CCC_ONE / 20)	/* |q_v| < 0.05: "near C" (4.3.4) */
#define CCC_FAIR_AI_DEFAULT (CCC_ONE / 32)	/* R_l/32 per RTT_min, see ccc_law.c */
#define CCC_NREC 5			/* S records (4.3.4) */
#define CCC_N_AI_MAX_LIMIT 20		/* hard cap of the n_ai parameter */
#define CCC_LSQ_N_MAX 1023		/* batch force-closes at this count */
#define CCC_L2_SHIFT 6			/* log2 of times in 1/64 us */

/*
 * The six regions of the (q, q_v) plane (paper Fig. 4).  The paper draws
 * them but never states their boundaries; these are the reconstruction
 * of spec ccc.md 4.1 (marked [R] there), with one change at q_v = 0, see
 * ccc_region() in ccc_law.c.
 */
enum ccc_region {
	CCC_AI = 0,	/* A^i:   delta > 0, q >= q_B             analytical up */
	CCC_AD = 1,	/* A^d:   delta <= 0, q_B <= q <= 4q_B, q_v < 0  probe down */
	CCC_H1I = 2,	/* H_1^i: delta > 0, q < q_B, q_v <= -qv_near  probe up */
	CCC_H2I = 3,	/* H_2^i: delta > 0, q < q_B, q_v > -qv_near   probe up */
	CCC_H1D = 4,	/* H_1^d: delta <= 0, q < q_B             probe down */
	CCC_H2D = 5,	/* H_2^d: delta <= 0, q >= q_B, q_v >= 0 or q > 4q_B */
	CCC_NREGIONS
};

static inline bool ccc_region_is_a(u8 r)
{
	return r == CCC_AI || r == CCC_AD;
}

/* What one socket's law needs, resolved from its parameter snapshot. */
struct ccc_cfg {
	u64 line_bytes_ps;	/* R_l, bytes/s (> 0) */
	u64 r_min;	/* rate floor, bytes/s */
	u64 r_max;	/* rate ceiling, bytes/s (<= R_l) */
	u32 qb_us;	/* q_B, target queueing delay (>= 1) */
	u32 rttmin_us;	/* RTT_min (>= 1) */
	u32 ut_us;	/* under-utilised iff q <= ut_us (4.3.4) */
	u32 span_us;	/* q_v: an LSQ batch spans at least this much ACK time */
	u32 gamma_q16;	/* q_v EWMA weight of the old value (0.2 = 13107) */
	u32 l2qb;	/* dcc_log2_q16(q_B << CCC_L2_SHIFT), precomputed (eq. 10) */
	u32 qv_near;	/* |q_v| < qv_near: "q_v is 0" (0.05 = 3277, 4.3.4) */
	u32 fair_ai;	/* stalled-H^i additive step per RTT_min, share of
			 * R_l Q16 (<= 2^16; 0 = off, paper-exact) [R]
			 */
	u16 min_samples;	/* q_v: ACKs an LSQ batch needs (>= 2) */
	u8 n_ai_max;	/* v_ai = 2^n_ai, n_ai <= this */
};

/*
 * Delay-gradient estimator, inline: least squares of RTT over ACK time
 * (the paper's eq. 3-4 use the ACK interval Itv) on batches of at least
 * min_samples ACKs spanning at least span_us; the batch slope is then
 * EWMA'd into q_v with gamma as eq. 4 does per ACK.  Eq. 4's two-point
 * slope is the K = 2 case; with software timestamps one ACK gap (~120 us
 * at 100 Mbit/s) against hundreds of us of noise gives |slope| >> 1, so a
 * batch it is (spec 2.2 step 6).  The slope itself is dcc_lib's
 * dcc_bls_slope_q16(); the sums are kept here, 32 bytes instead of
 * struct dcc_bls's 64, because CCC's state must fit icsk_ca_priv.
 *   x = ACK time - x0 (us, <= 2^22: a batch older than that is dropped),
 *   y = RTT - y0 (us, clamped to +-2^20), n <= CCC_LSQ_N_MAX (2^10), so
 *   |sx| < 2^32 (u32 holds it), |sy| <= 2^30, sxx <= 2^54, |sxy| <= 2^52.
 */
struct ccc_lsq {
	u64 sxx;
	s64 sxy;
	u32 sx;
	s32 sy;
	u32 x0;		/* ACK time of the batch's first sample (us, low 32) */
	u32 y0;		/* RTT of the batch's first sample (us) */
};

/* The law's per-flow state (lives inside struct ccc in icsk_ca_priv). */
struct ccc_state {
	u64 rate;		/* r, bytes/s */
	struct ccc_lsq lsq;
	s32 qv;			/* q_v, Q16 */
	u32 basis;		/* S, share of R_l Q16 */
	u16 rec[CCC_NREC];	/* S records, share of R_l Q16 */
	u16 lsq_n;		/* samples in the open LSQ batch (0 = none) */
	u8 rec_idx;		/* next record slot */
	u8 rec_cnt;		/* records held (<= CCC_NREC) */
	u8 n_ai;		/* v_ai = 2^n_ai */
	u8 region;		/* enum ccc_region of the last ACK */
	u8 flags;		/* CCC_S_* */
};

#define CCC_S_UNDERUTIL	0x1	/* every sample of this round had q <= ut */
#define CCC_S_QV_VALID	0x2	/* q_v has had at least one batch */
#define CCC_S_BASIS_SET	0x4	/* S came from records, not from S0 */

/* One ACK as the law sees it. */
struct ccc_ack {
	u32 rx_us;		/* ACK processing time (us, low 32 bits) */
	u32 rtt_us;		/* RTT(k) */
	u32 itv_us;		/* Itv(k) = t(k) - t(k-1); 0 = unknown (first) */
	u32 acked_bytes;	/* M_k: bytes newly (S)ACKed by this ACK */
	u32 pkts;		/* packets it covers (Itv per packet = Itv/pkts) */
	bool app_limited;	/* do not probe up on it */
	bool round_start;	/* first ACK of a new (delivered-based) RTT round */
};

/* What the law decided on one ACK (tracepoint, get_info, tests). */
struct ccc_decision {
	s64 step;		/* u(k), bytes/s (after gating/clamping) */
	u32 q_us;		/* q(k) */
	s32 delta;		/* delta-hat(k), Q16 */
	u32 irr_frac;		/* Irr / R_l, Q16 */
	u32 rho;		/* min(1, Itv/RTT_min), Q16 */
	u8 region;		/* enum ccc_region */
	u8 f;			/* fairness factor f(k) */
	bool qv_updated;	/* an LSQ batch closed on this ACK */
};

/* State at the start of a flow: rate r0, S0 = r0 (spec 4.6, 8-7). */
void ccc_state_init(struct ccc_state *s, const struct ccc_cfg *c, u64 r0);

/* Forget the gradient (RTO, idle restart): batch dropped, q_v = 0. */
void ccc_state_reset_grad(struct ccc_state *s);

/* delta-hat = 0.5 (log2 q_B - log2 q) - q_v (eq. 5 with eq. 10), Q16 */
s32 ccc_delta(const struct ccc_cfg *c, u32 q_us, s32 qv);

/* Region of (q, q_v, delta). */
u8 ccc_region(const struct ccc_cfg *c, u32 q_us, s32 qv, s32 delta);

/* One per-ACK step of Algorithm 1: updates @s, fills @d (may be NULL). */
void ccc_on_ack(struct ccc_state *s, const struct ccc_cfg *c,
		const struct ccc_ack *a, struct ccc_decision *d);

/* cwnd cap for rate r: r * (RTT_min + q_B) * gain_pct / 100, bytes (6.4) */
u64 ccc_cwnd_bytes(const struct ccc_cfg *c, u64 rate, u32 gain_pct);

/* S as bytes/s */
u64 ccc_basis_bytes_ps(const struct ccc_state *s, const struct ccc_cfg *c);

#endif /* _DCC_CCC_H */
