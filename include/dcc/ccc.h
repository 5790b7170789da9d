/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CCC control law (Jiang et al., "CCC: Re-architecting Delay-based
 * Congestion Control in Datacenter Networks", NSDI'26, eq. 1-10 and
 * Algorithm 1), as plain C shared by tcp_ccc.ko, the userspace unit tests,
 * the fuzzer and the benchmark.  The kernel glue and the theory are in
 * modules/ccc/tcp_ccc.c.
 *
 * The core's per-ACK entry is ccc_on_ack(): it takes the neutral per-ACK
 * sample of dcc/sample.h (nanoseconds) and returns a struct dcc_decision
 * (pacing rate and cwnd in bytes, CCC_D_* flags asking the glue to refresh
 * the shared inputs, once per RTT round).
 *
 * Fixed-point scales and ranges (the whole dcc range: 1 Mbit/s .. 800
 * Gbit/s, RTT 1 us .. 1 s):
 *   rates r, R_l, r_min, r_max: bytes/s, u64 (<= DCC_RATE_MAX_BPS < 2^37);
 *	r_min is kept in a u32 that saturates at 2^32 - 1 bytes/s (34
 *	Gbit/s): only a floor of 2 MSS per RTT_min above that (RTT_min
 *	below 0.7 us at 1500 bytes, 4.2 us at 9000) is lowered by it;
 *   S and the five S records: share of R_l, Q16 (CCC_SHARE_ONE = 1.0; a
 *	rate is <= r_max <= R_l, so a share is <= 2^16; records are u16 and
 *	saturate at 65535/65536 of R_l);
 *   times: ns.  RTT, RTT_min, q_B <= 1 s < 2^30 (dcc_sample_get() clamps
 *	RTT to DCC_SAMPLE_RTT_MAX_NS, ccc_cfg_resolve() RTT_min, the
 *	parameter range q_B), so q = RTT - RTT_min < 2^30 and every time
 *	the law derives from them (ut, span <= 4 RTT_min < 2^32) is u32.
 *	The two clocks the state keeps (the last ACK's time, for Itv, and
 *	the LSQ batch origin) are the low 32 bits of the u64 sample clock,
 *	compared by wrap-safe u32 differences: 2^32 ns is 4.29 s, and an
 *	ACK gap that long never reaches the law without an RTO or an idle
 *	restart first forgetting both (ccc_state_forget());
 *   Itv (u32 ns, <= 4.29 s), capped at RTT_min wherever it scales a step;
 *   q_v, delta, w_ai, w_md, rho, Irr/R_l: dimensionless Q16 in s32/u32
 *	(q_v clamped to [-1, CCC_QV_MAX], so |delta| <= 3 + 16 < 2^5);
 *   log2 values: Q16 from dcc_log2_q16 (eq. 10's piecewise-linear log2)
 *	of times in ns: < 30 << 16.  q is floored at q_B / 64 in the log
 *	domain (l2floor = log2 q_B - 6), so delta <= 3 - q_v exactly.
 * Every product below is bounded in the comment next to it; none exceeds
 * 2^63 (128-bit only inside dcc_mul_div / dcc_bls_slope_q16).
 */
#ifndef _DCC_CCC_H
#define _DCC_CCC_H

#include "fixp.h"
#include "bls.h"
#include "sample.h"

#define CCC_Q 16
#define CCC_ONE (1 << CCC_Q)		/* 1.0 in Q16 */
#define CCC_SHARE_ONE CCC_ONE		/* a rate equal to R_l */
#define CCC_QV_MAX 16			/* q_v <= 16 (not in the paper) */
#define CCC_QV_NEAR_DEFAULT (CCC_ONE / 20)	/* |q_v| < 0.05: "near C" (4.3.4) */
#define CCC_FAIR_AI_DEFAULT (CCC_ONE / 32)	/* R_l/32 per RTT_min, see ccc_law.c */
#define CCC_NREC 5			/* S records (4.3.4) */
#define CCC_N_AI_MAX_LIMIT 20		/* hard cap of the n_ai parameter */
#define CCC_LSQ_N_MAX 1023		/* batch force-closes at this count */
#define CCC_L2_FLOOR (6 << CCC_Q)	/* q floored at q_B / 2^6 (log2 domain) */
#define CCC_UT_FLOOR_NS 2000		/* under-utilised: q <= at least 2 us */
#define CCC_RTT_MAX_NS DCC_SAMPLE_RTT_MAX_NS	/* RTT_min and q_B cap: 1 s */

/*
 * The six regions of the (q, q_v) plane (paper Fig. 4).  The paper draws
 * them but never states their boundaries; these are reconstructed to fit
 * its text (4.2, 4.3.3, 4.3.4), with one change at q_v = 0, see
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

/*
 * The module parameters, in their sysfs units (tcp_ccc.c validates the
 * ranges: q_b_us 1..1e6, gamma_pct 0..99, ut_pct 1..100, qv_near_pct
 * 1..50, span_pct 1..400, min_samples 2..255, n_ai_max 0..20,
 * cwnd_gain_pct 50..255, cwnd_qb 0..1, fair_ai_pml 0..1000).  The glue-only ones (R_l,
 * RTT_min sources, start mode) stay in tcp_ccc.c's snapshot.
 */
struct ccc_knobs {
	u32 q_b_us;
	u32 gamma_pct;
	u32 ut_pct;
	u32 qv_near_pct;
	u32 span_pct;
	u32 min_samples;
	u32 n_ai_max;
	u32 cwnd_gain_pct;
	u32 cwnd_qb;
	u32 fair_ai_pml;
};

/* the module defaults (tcp_ccc.c's parameter defaults) */
static inline struct ccc_knobs ccc_knobs_default(void)
{
	return (struct ccc_knobs){
		.q_b_us = 50, .gamma_pct = 20, .ut_pct = 5, .qv_near_pct = 5,
		.span_pct = 25, .min_samples = 8, .n_ai_max = 10,
		.cwnd_gain_pct = 110, .cwnd_qb = 0, .fair_ai_pml = 31,
	};
}

/*
 * The parameters converted once into the law's units (ccc_params_init):
 * immutable, shared by every socket created while they were current
 * (tcp_ccc.c publishes a new snapshot on each parameter write).
 */
struct ccc_params {
	u32 qb_ns;	/* q_B, ns (1e3 .. 1e9) */
	u32 l2qb;	/* dcc_log2_q16(q_B in ns) (eq. 10), < 30 << 16 */
	u32 l2floor;	/* l2qb - CCC_L2_FLOOR: log2 of the floor of q */
	u32 q_floor_ns;	/* the least q whose log2 is >= l2floor (>= 1):
			 * below it the floor applies
			 */
	u32 gamma_q16;	/* q_v EWMA weight of the old value (0.2 = 13107) */
	u32 qv_near;	/* |q_v| < qv_near: "q_v is 0" (0.05 = 3277, 4.3.4) */
	u32 fair_ai;	/* additive fairness step per RTT_min near the
			 * target, share of R_l Q16 (<= 2^16); not in the
			 * paper: 0 = off
			 */
	u16 ut_pct;	/* under-utilised iff q <= ut_pct % of RTT_min (4.3.4) */
	u16 span_pct;	/* q_v: an LSQ batch spans >= span_pct % of RTT_min */
	u16 min_samples;	/* q_v: ACKs an LSQ batch needs (>= 2) */
	u8 n_ai_max;	/* v_ai = 2^n_ai, n_ai <= this */
	u8 cwnd_gain_pct;	/* cwnd = r RTT_min gain / 100 (section 5) */
	u8 cwnd_qb;	/* 1: cwnd = r (RTT_min + q_B) gain / 100 (not in
			 * the paper; 0, the paper's window, is the default)
			 */
	u32 qb_inv;	/* ccc_inv(q_B): Irr/R_l and w_md without a division */
	u8 qb_sh;	/* ccc_q16_div()'s shift for q_B: fls(q_B) + 6 */
};

/*
 * One socket's resolved config: the shared parameters plus what depends
 * on the socket's own inputs (R_l, RTT_min, MSS, sk_max_pacing_rate).
 * Resolved by ccc_cfg_resolve() at init and when the glue refreshes the
 * inputs (once per RTT round, when ccc_on_ack() asks), never per ACK.
 * 32 bytes: it lives in icsk_ca_priv next to the state, which leaves no
 * room for a word more.  So what the ACK path would otherwise derive
 * from RTT_min and R_l on every ACK -- the reciprocals that keep it free
 * of divisions (ccc_inv(): 23 bits) and the LSQ unit k -- rides in the
 * upper 27 bits of the two rates, which take 37 (DCC_RATE_MAX_BPS <
 * 2^37): read them through ccc_line(), ccc_rmax(), ccc_line_inv(),
 * ccc_rtt_inv() and ccc_lsq_shift().
 */
struct ccc_cfg {
	const struct ccc_params *p;
	u64 line_pk;		/* R_l, bytes/s (1 .. DCC_RATE_MAX_BPS), bits
				 * 0-36; ccc_inv(R_l), bits 41-63
				 */
	u64 rmax_pk;		/* rate ceiling r_max, bytes/s (<= R_l), bits
				 * 0-36; k of ccc_lsq_shift_of(), 37-40;
				 * ccc_inv(RTT_min) (0 = none), 41-63
				 */
	u32 r_min;		/* rate floor, bytes/s (<= r_max; saturates) */
	u32 rttmin_ns;		/* RTT_min (1 .. 1e9; 0 = none yet: the law
				 * must not run, ccc_cfg_resolve says so)
				 */
};

#define CCC_PK_RATE_BITS 37	/* a rate, bits 0-36 */
#define CCC_PK_RATE_MASK ((1ULL << CCC_PK_RATE_BITS) - 1)
#define CCC_PK_K_SHIFT CCC_PK_RATE_BITS	/* k, bits 37-40 */
#define CCC_PK_INV_SHIFT 41	/* a 23-bit ccc_inv(), bits 41-63 */

static inline u64 ccc_line(const struct ccc_cfg *c)
{
	return c->line_pk & CCC_PK_RATE_MASK;
}

static inline u64 ccc_rmax(const struct ccc_cfg *c)
{
	return c->rmax_pk & CCC_PK_RATE_MASK;
}

static inline u32 ccc_line_inv(const struct ccc_cfg *c)
{
	return (u32)(c->line_pk >> CCC_PK_INV_SHIFT);
}

static inline u32 ccc_rtt_inv(const struct ccc_cfg *c)
{
	return (u32)(c->rmax_pk >> CCC_PK_INV_SHIFT);
}

/*
 * Division by a divisor d that is fixed per parameter snapshot (q_B) or
 * per resolved config (RTT_min, R_l), without a division per ACK: its
 * reciprocal inv = floor((2^(22+l) - 1) / d), l = fls(d), so that
 * 2^22 <= inv < 2^23 (d in [2^(l-1), 2^l)) and inv / 2^(22+l) is 1/d
 * less a relative error below 2^-22.  The quotients below come out of a
 * multiply and a shift as the exact floor or one less, and one multiply
 * and compare makes them exact: every figure is what a division gives.
 * d <= 2^41 (every divisor here is < 2^37): 2^(22+l) - 1 fits a u64.
 */
static inline u32 ccc_inv(u64 d)
{
	return (u32)div64_u64((1ULL << (22 + fls64(d))) - 1, d);
}

/* fls(x) for x != 0: one bsr */
static inline u32 ccc_fls_nz(u64 x)
{
#ifdef __KERNEL__
	return __fls(x) + 1;
#else
	return 64 - __builtin_clzll(x);
#endif
}

/* the shift ccc_q16_div() takes for divisor d: fls(d) + 6 */
static inline u32 ccc_q16_sh(u64 d)
{
	return ccc_fls_nz(d) + 6;
}

/*
 * floor(n 2^16 / d) for n < d (a Q16 fraction below 1) from inv =
 * ccc_inv(d).  n < d < 2^l, inv < 2^23: n inv < 2^(l+23) <= 2^64; inv
 * > (2^(22+l) - 1) / d - 1, so the estimate n inv / 2^(l+6) falls short
 * of n 2^16 / d by less than (n / d + n) / 2^(l+6) < 2^-5: the floor or
 * one less, which the compare corrects; (q + 1) d <= 2^16 d < 2^57.
 */
static inline u32 ccc_q16_div(u64 n, u64 d, u32 inv, u32 sh)
{
	u32 q = (u32)((n * inv) >> sh);	/* sh = ccc_q16_sh(d) */

	return (u64)(q + 1) * d <= n << CCC_Q ? q + 1 : q;
}

/*
 * The law's per-flow state: 64 bytes (icsk_ca_priv holds it, the cfg and
 * the glue's round/RTO bookkeeping in 104).
 *
 * Delay-gradient estimator, inline: least squares of RTT over ACK time
 * (the paper's eq. 3-4 use the ACK interval Itv) on batches of at least
 * min_samples ACKs spanning at least span_pct % of RTT_min; the batch
 * slope is then EWMA'd into q_v with gamma as eq. 4 does per ACK.  Eq.
 * 4's two-point slope is the K = 2 case; with software timestamps one
 * ACK gap (~120 us at 100 Mbit/s) against hundreds of us of noise gives
 * |slope| >> 1, so a batch it is (a Linux adaptation).  The slope itself is
 * dcc_lib's dcc_bls_slope_q16(); the sums are kept here, 28 bytes instead
 * of struct dcc_bls's 64, because CCC's state must fit icsk_ca_priv.
 *
 * Both axes are in units of 2^k ns, k = ccc_lsq_shift(): the smallest k
 * with 2^(22+k) ns >= 64 max(RTT_min, q_B) (k = 0 up to 65 us, 8 at the
 * VM's 10 ms, 14 at 1 s), so ns resolution where it matters and
 *   x = ACK time - x0 <= 2^22 (an older batch is dropped: >= 64 RTT_min),
 *   y = (RTT >> k) - (RTT_min >> k), clamped to +-2^21 (>= 32 RTT_min);
 *   n <= CCC_LSQ_N_MAX (< 2^10), so sx < 2^32 (u32), |sy| < 2^31 (s32),
 *   sxx < 2^54, |sxy| < 2^53.
 * y is taken from RTT_min, not from the batch's first RTT (a slope does
 * not depend on the origin), which saves a word; when RTT_min changes
 * the open batch's sums are moved to the new origin, or the batch is
 * dropped if k changed with it: ccc_cfg_changed().
 */
struct ccc_state {
	u64 rate;		/* r, bytes/s */
	u64 lsq_sxx;		/* LSQ sums of the open batch, see above */
	s64 lsq_sxy;
	u32 lsq_sx;
	s32 lsq_sy;
	u32 lsq_x0;		/* the batch's first ACK time, 2^k ns, low 32 */
	u32 last_rx;		/* t(k-1), ns, low 32 bits (CCC_S_HAVE_PREV) */
	s32 qv;			/* q_v, Q16 */
	u32 basis;		/* S, share of R_l Q16 */
	u16 rec[CCC_NREC];	/* S records, share of R_l Q16 */
	u16 lsq_n;		/* samples in the open LSQ batch (0 = none) */
	u8 rec_idx;		/* next record slot (records held: rec_idx, or
				 * CCC_NREC once CCC_S_REC_FULL)
				 */
	u8 n_ai;		/* v_ai = 2^n_ai */
	u8 region;		/* enum ccc_region of the last ACK */
	u8 flags;		/* CCC_S_* */
};

#define CCC_S_UNDERUTIL	0x01	/* every sample of this round had q <= ut */
#define CCC_S_QV_VALID	0x02	/* q_v has had at least one batch */
#define CCC_S_BASIS_SET	0x04	/* S came from records, not from S0 */
#define CCC_S_REC_FULL	0x08	/* all CCC_NREC records hold a rate */
#define CCC_S_HAVE_PREV	0x10	/* last_rx is t(k-1): Itv is known */
#define CCC_S_REDECIDE	0x20	/* something the decision depends on moved
				 * besides r (the cfg was re-resolved, the
				 * glue set r): the next ACK reports its
				 * decision as changed
				 */

/* dcc_decision.flags */
#define CCC_D_NEW_ROUND	0x1	/* a new RTT round began: refresh the shared
				 * inputs (RTT_min, R_l) and re-resolve the
				 * cfg (the glue's dcc_auto_base_rtt_us() and
				 * dcc_shared_line_rate() run only then)
				 */

/* What the law computed on one ACK (tracepoint, tests); optional. */
struct ccc_ack_info {
	s64 step;		/* u(k), bytes/s (after gating/clamping) */
	u32 q_ns;		/* q(k) */
	s32 delta;		/* delta-hat(k), Q16 */
	u32 irr_frac;		/* Irr / R_l, Q16 */
	u32 rho;		/* min(1, Itv/RTT_min), Q16 */
	u32 itv_ns;		/* Itv(k): 0 after a restart (no step) */
	u8 region;		/* enum ccc_region */
	u8 f;			/* fairness factor f(k) */
	bool qv_updated;	/* an LSQ batch closed on this ACK */
};

/* Convert the parameters (sysfs units) into the law's, once. */
void ccc_params_init(struct ccc_params *p, const struct ccc_knobs *k);

/*
 * Resolve one socket's cfg: R_l (bytes/s), RTT_min (ns, 0 = none yet),
 * MSS and the socket's max pacing rate (bytes/s).  Returns false when
 * RTT_min is still unknown (the law must not run on that cfg).
 */
bool ccc_cfg_resolve(struct ccc_cfg *c, const struct ccc_params *p,
		     u64 line_bytes_ps, u32 rttmin_ns, u32 mss, u64 max_pacing);

/*
 * ccc_cfg_resolve() again, on @c's parameters, where @c holds a resolved
 * cfg or a zeroed one with its parameters set: the reciprocals of an
 * unchanged R_l or RTT_min are kept (the cfg is the one
 * ccc_cfg_resolve() gives), so the glue's refresh once per round divides
 * nothing while they stay.
 */
bool ccc_cfg_refresh(struct ccc_cfg *c, u64 line_bytes_ps, u32 rttmin_ns,
		     u32 mss, u64 max_pacing);

/*
 * The cfg was re-resolved, from one with RTT_min @old_rttmin_ns:
 * re-origin the batch, and have the next ACK report its decision.
 */
void ccc_cfg_changed(struct ccc_state *s, u32 old_rttmin_ns,
		     const struct ccc_cfg *c);

/* State at the start of a flow: rate r0, S0 = r0 (the paper has no S0). */
void ccc_state_init(struct ccc_state *s, const struct ccc_cfg *c, u64 r0);

/*
 * Forget the gradient and the ACK clock (RTO, restart after idle): batch
 * dropped, q_v = 0, v_ai = 1, no Itv until the next ACK.
 */
void ccc_state_forget(struct ccc_state *s);

/* delta-hat = 0.5 (log2 q_B - log2 q) - q_v (eq. 5 with eq. 10), Q16 */
s32 ccc_delta(const struct ccc_cfg *c, u32 q_ns, s32 qv);

/* Region of (q, q_v, delta). */
u8 ccc_region(const struct ccc_cfg *c, u32 q_ns, s32 qv, s32 delta);

/*
 * One per-ACK step of Algorithm 1 on the valid sample @s (s->why == 0,
 * c->rttmin_ns != 0): updates @st, sets @d's CCC_D_* flags and changed,
 * and its rate and cwnd only when changed (r moved, or CCC_S_REDECIDE),
 * and, if not NULL, fills @info.  @round_start: this ACK begins a new
 * delivered-based RTT round (the glue's tp->delivered bookkeeping, as
 * BBR's; the paper does not say how it counts RTTs).
 */
void ccc_on_ack(struct ccc_state *st, const struct ccc_cfg *c,
		const struct dcc_sample *s, bool round_start,
		struct dcc_decision *d, struct ccc_ack_info *info);

/* The decision for the current state (rate r, cwnd cap), no flags, changed. */
void ccc_decide(const struct ccc_state *st, const struct ccc_cfg *c,
		struct dcc_decision *d);

/*
 * cwnd cap for rate r (<= r_max): r * (RTT_min + q_B) * gain_pct / 100,
 * bytes (the paper's cap, 5, is r * RTT_min)
 */
u64 ccc_cwnd_bytes(const struct ccc_cfg *c, u64 rate);

/* S as bytes/s */
u64 ccc_basis_bytes_ps(const struct ccc_state *s, const struct ccc_cfg *c);

/* rate as a share of R_l, Q16, saturating at 1.0 */
u32 ccc_share(const struct ccc_cfg *c, u64 rate);

/* the fairness step's square root of a share x of R_l (Q16, clamped to
 * [1, 2^16]), as the law takes it: within 2% below sqrt
 */
u32 ccc_sqrt_q16(u32 x);

/*
 * The link is busy: q > ut, the under-utilisation margin max(2 us,
 * ut_pct % of RTT_min) (4.3.4).  floor(x / 100) < q iff x < 100 q, so
 * the percentage takes no division: RTT_min ut_pct <= 2^30 * 100 < 2^37.
 */
static inline bool ccc_busy(const struct ccc_cfg *c, u32 q)
{
	return q > CCC_UT_FLOOR_NS &&
	       (u64)c->rttmin_ns * c->p->ut_pct < (u64)q * 100;
}

/*
 * An LSQ batch spanning @t ns reaches the span max(1, span_pct % of
 * RTT_min): t >= floor(x / 100) iff 100 (t + 1) > x; t <= 2^36 (2^22
 * units of 2^k ns, k <= 14), RTT_min span_pct < 2^39.
 */
static inline bool ccc_span_reached(const struct ccc_cfg *c, u64 t)
{
	return t && 100 * (t + 1) > (u64)c->rttmin_ns * c->p->span_pct;
}

/* k of struct ccc_state's LSQ units (2^k ns) */
static inline u8 ccc_lsq_shift_of(u32 rttmin_ns, u32 qb_ns)
{
	u64 t = (u64)max(rttmin_ns, qb_ns) << 6;	/* < 2^37 */
	int k = fls64(t - 1) - 22;

	return k > 0 ? (u8)k : 0;
}

/* k of the cfg (ccc_cfg_resolve() packs ccc_lsq_shift_of(): <= 14) */
static inline u8 ccc_lsq_shift(const struct ccc_cfg *c)
{
	return (c->rmax_pk >> CCC_PK_K_SHIFT) & 15;
}

#endif /* _DCC_CCC_H */
