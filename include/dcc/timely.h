/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rate-update skeleton shared by TIMELY, patched TIMELY and SQCC
 * (Tang et al., "SQCC: Stable Queue Congestion Control", Alg. 1-3), as
 * plain C compiled by tcp_timely.ko, tcp_timely_p.ko, tcp_sqcc.ko and the
 * userspace unit tests.  The kernel glue and the theory are in
 * modules/timely/tcp_timely.c.
 *
 * One completion event (a chunk of acked bytes, at most once per D_minRTT)
 * runs timely_law_update(): RTT-difference EWMA, normalised gradient g,
 * then the T_low / T_high bands with additive increase (and TIMELY's
 * hyperactive increase, HAI) below and the gentle T_high cut above.  The
 * three algorithms differ only in the in-band decrease law (enum
 * timely_law_kind).
 *
 * Fixed-point scales (ranges are what the callers guarantee):
 *   times: us, u32, RTTs clamped to [1, TIMELY_RTT_MAX = 2^20] (~1 s);
 *	thresholds T_low, T_high, RTT_ref in [1, 10^6].
 *   rates: bytes/s, u64, clamped to [rate_min, rate_max <= 10^11 < 2^37].
 *   rtt_diff: s32, us in Q8 (|rtt_diff| <= 2^20 us -> < 2^28).
 *   g, w, error, factors: Q16 (TIMELY_ONE = 1.0); g clamped to +-64,
 *	w in [0, 1], error in [-1, E_MAX], E_MAX = 1/beta <= 2^20 (Q16 < 2^36).
 *   alpha: Q16 in [1, 65536]; beta: Q20 in [1, 2^20] (Q20 so that the
 *	paper's 0.008 keeps precision: 8389, 0.002 % off).
 *   N: u32 in [1, 65535], so N^2 < 2^32.
 */
#ifndef _DCC_TIMELY_H
#define _DCC_TIMELY_H

#include "fixp.h"
#include "median.h"

#define TIMELY_Q 16
#define TIMELY_ONE (1 << TIMELY_Q)
#define TIMELY_BETA_Q 20
#define TIMELY_RTT_MAX (1U << 20)	/* us */
#define TIMELY_N_MAX 65535U
#define TIMELY_HAI_MULT 5		/* TIMELY [17]: 5 x delta in HAI */

/* Which in-band decrease law (the only difference between the three) */
enum timely_law_kind {
	TIMELY_LAW_GRADIENT = 0,	/* TIMELY, Alg. 1: rate *= 1 - beta g */
	TIMELY_LAW_PATCHED = 1,		/* patched TIMELY, Alg. 2: w(g), RTT_ref */
	TIMELY_LAW_SQCC = 2,		/* SQCC, Alg. 3: Eq. 16 error, adaptive */
};

/* Which branch a completion took (tracepoint, tests) */
enum timely_branch {
	TIMELY_BR_FIRST = 0,	/* first sample: seeds prev_rtt, no update */
	TIMELY_BR_LOW = 1,	/* d < T_low: rate += delta */
	TIMELY_BR_HIGH = 2,	/* d > T_high: rate *= 1 - beta(1 - T_high/d) */
	TIMELY_BR_INC = 3,	/* TIMELY, g <= 0: rate += delta (x5 in HAI) */
	TIMELY_BR_DEC = 4,	/* TIMELY, g > 0: rate *= 1 - beta g */
	TIMELY_BR_BLEND = 5,	/* patched/SQCC: delta(1-w) + rate(1 - beta err w) */
};

/*
 * A socket's law inputs, resolved from its parameter snapshot on every
 * completion (base_us follows tcp_min_rtt()).
 */
struct timely_law_cfg {
	u8 kind;		/* enum timely_law_kind */
	u8 hai_thresh;		/* HAI after this many g < 0 events, 0 = off */
	bool relative;		/* thresholds are queueing delay above base_us */
	bool thigh_max_cut;	/* SQCC option (spec G13): above T_high cut as
				 * at error = E_MAX instead of the gentle cut
				 */
	u32 t_low_us;		/* T_low (SQCC: T_low0 = seg/C, the k = 1 value) */
	u32 t_high_us;		/* T_high */
	u32 rtt_ref_us;		/* patched TIMELY's RTT_ref */
	u32 base_us;		/* base RTT (relative mode) */
	u32 dmin_us;		/* D_minRTT: gradient normaliser, >= 1 */
	u32 alpha_q16;		/* EWMA weight of the new difference */
	u32 beta_q20;		/* decrease factor */
	u64 delta_bytes_ps;		/* delta (SQCC: delta0, the cap of C k / N^2) */
	u64 link_bytes_ps;		/* C, for SQCC's delta = C k / N^2 */
	u64 rate_min_bytes_ps;
	u64 rate_max_bytes_ps;
};

/*
 * Per-flow law state (16 bytes, lives in icsk_ca_priv).  prev_rtt == 0
 * means "no previous sample" (RTTs are clamped to >= 1 us).
 */
struct timely_law_state {
	u64 rate;		/* bytes/s: the controlled variable */
	s32 rtt_diff;		/* EWMA of RTT differences, us Q8 */
	u32 prev_rtt : 24;	/* us (<= 2^20), 0 = none yet */
	u32 neg_cnt : 8;	/* consecutive completions with g < 0 (HAI) */
};

/* What one completion decided (tracepoint, get_info, tests). */
struct timely_law_out {
	u32 d_us;		/* delay compared with the thresholds */
	s32 g_q16;		/* normalised gradient */
	u32 w_q16;		/* weight w(g) (patched/SQCC), else 0 */
	s64 err_q16;		/* error (patched/SQCC), else 0 */
	u32 t_low_us;		/* T_low in force (SQCC: k T_low0) */
	u64 delta_bytes_ps;		/* delta in force (SQCC: min(delta0, C k/N^2)) */
	u8 k;			/* SQCC: max(1, floor(log10 N)), else 0 */
	u8 branch;		/* enum timely_branch */
	bool held;		/* app-limited: an increase was not applied */
};

/*
 * One completion event with RTT sample @rtt_us.  @n is SQCC's incast
 * degree (ignored by the others); @app_limited holds the rate instead of
 * raising it (an idle application is no evidence of spare capacity).
 */
void timely_law_update(const struct timely_law_cfg *c,
		       struct timely_law_state *s, u32 rtt_us, u32 n,
		       bool app_limited, struct timely_law_out *o);

/* Forget the gradient history (RTO, restart after idle); rate is kept. */
static inline void timely_law_reset_grad(struct timely_law_state *s)
{
	s->prev_rtt = 0;
	s->rtt_diff = 0;
	s->neg_cnt = 0;
}

/*
 * The completion-event clock (spec 4.1, [adapt] of Eq. 3): ACKs are
 * accumulated into one virtual completion that closes once at least
 * seg_bytes were (S)ACKed and at least D_minRTT elapsed since the last
 * one, i.e. every tau* = max(seg / R, D_minRTT).  The window's RTT is the
 * min (or the last) of its samples; samples from possibly delayed ACKs are
 * a fallback only.  16 bytes, in icsk_ca_priv.
 */
struct timely_win {
	u32 start_us;	/* low 32 bits of the us clock at the last close */
	u32 bytes;	/* bytes (S)ACKed since then (saturating) */
	u32 rtt_us;	/* chosen RTT of the window, U32_MAX = none */
	u32 rtt_dly_us;	/* min RTT from delayed ACKs, U32_MAX = none */
};

/* One closed window. */
struct timely_win_out {
	u32 rtt_us;	/* the completion's RTT sample */
	u32 bytes;	/* bytes the window covered */
	u32 span_us;	/* its duration */
};

/* Open a new window at @now_us. */
void timely_win_reset(struct timely_win *w, u32 now_us);

/*
 * Add one ACK: @rtt_us its RTT sample (0 = none), @delayed the ACK may
 * have been delayed, @bytes newly (S)ACKed.  Returns true and fills @o
 * when the window closes (then a new one is open); a window with no RTT
 * sample at all keeps accumulating.  @use_min: window RTT = min of the
 * samples (rtt_filter=min, default) instead of the last one.
 */
bool timely_win_add(struct timely_win *w, u32 now_us, u32 rtt_us,
		    bool delayed, u32 bytes, u32 seg_bytes, u32 gap_us,
		    bool use_min, struct timely_win_out *o);

/* SQCC (Eq. 25, spec G1/G2): k = max(1, floor(log10 N)) */
u8 timely_sqcc_k(u32 n);

/* SQCC: T_low = min(k T_low0, T_high / 2) */
u32 timely_sqcc_t_low(const struct timely_law_cfg *c, u8 k);

/* SQCC: delta = clamp(C k / N^2, 1, delta0) (spec G3) */
u64 timely_sqcc_delta(const struct timely_law_cfg *c, u32 n, u8 k);

/*
 * SQCC's sender-side N sample (spec 6.7, the paper's suggestion after
 * Alg. 3): with a queue the link is saturated and the aggregate arrival
 * rate is C (1 + g), so N ~ C (1 + g) / R_own.  g is clamped to
 * [-0.5, 1]; the result to [1, TIMELY_N_MAX].  0 if @own_bytes_ps is 0.
 */
u32 timely_n_sample(u64 link_bytes_ps, s32 g_q16, u64 own_bytes_ps);

/*
 * SQCC's N estimate filter: the median of the last 3 samples of
 * timely_n_sample() (dcc_med3, the shared 3-tap median), so that one
 * sample taken while the queue builds or drains cannot move N.  8 bytes.
 */
struct timely_nest {
	u16 s[3];
	u8 idx;
	u8 pad;
};

static inline void timely_nest_init(struct timely_nest *e, u16 n0)
{
	*e = (struct timely_nest){ .s = { n0, n0, n0 } };
}

/* Push a sample (clamped to [1, TIMELY_N_MAX]); returns the median. */
u32 timely_nest_push(struct timely_nest *e, u32 sample);

/*
 * cwnd cap for @rate: 2 x rate x (the RTT at T_high) + 3 packets, so that
 * pacing stays the binding limit up to a full T_high queue (spec 6.3).
 */
u64 timely_cwnd_bytes(const struct timely_law_cfg *c, u64 rate, u32 mss);

/* E_MAX = 1 / beta in Q16 */
static inline u64 timely_emax_q16(u32 beta_q20)
{
	return ((u64)TIMELY_ONE << TIMELY_BETA_Q) / (beta_q20 ? beta_q20 : 1);
}

/* ppm (parts per million) -> Q16 / Q20, rounded to nearest */
#define TIMELY_PPM_TO_Q16(ppm) ((u32)((((u64)(ppm) << 16) + 500000) / 1000000))
#define TIMELY_PPM_TO_Q20(ppm) ((u32)((((u64)(ppm) << 20) + 500000) / 1000000))

#endif /* _DCC_TIMELY_H */
