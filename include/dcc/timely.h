/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-ACK control core of TIMELY, patched TIMELY and SQCC (Tang et
 * al., "SQCC: Stable Queue Congestion Control", Alg. 1-3), as plain C
 * compiled by tcp_timely.ko, tcp_timely_p.ko, tcp_sqcc.ko, the userspace
 * unit model, the fuzzer and the callgrind bench.  Per ACK,
 * timely_on_ack() takes the neutral sample of dcc/sample.h into the
 * completion window and says whether the decision may change; only then
 * does timely_on_change() run the law and return the pacing rate and the
 * window cap in bytes.  The three algorithms differ only in the config's
 * kind (the in-band decrease law).
 * The theory is in modules/timely/tcp_timely.c, the code in
 * modules/timely/timely_law.c.
 *
 * Per ACK (timely_on_ack, inline: the window and nothing else):
 *	timely_win_feed		the completion window: 64 KB (seg) of
 *				(S)ACKed bytes and >= D_minRTT; its RTT is
 *				the min (or last) sample, delayed ACKs only
 *				as a fallback
 *	timely_win_due		the window may close (or an event left the
 *				decision stale): a decision is due
 * Only when one is due (timely_on_change, the steps of bbr_main's shape):
 *	timely_completion	on a closed window: N (SQCC), then
 *	  timely_law_update	  Alg. 1/2/3 once, then
 *	  timely_n_update	  SQCC's sender-side N sample
 *	timely_decide		window cap from the rate (first-window cap
 *				before the first completion)
 * So the rate, the cap and the window's D_minRTT gate move only at a
 * decision: the base RTT they depend on is read there, not per ACK
 * (struct timely_state: win.gate_ns, TIMELY_S_STALE).
 * Events: timely_on_init, timely_save_undo / timely_on_loss /
 * timely_on_recovered / timely_on_undo (loss, RTO), timely_on_restart
 * (restart after idle).
 *
 * Units and fixed-point scales, derived for RTTs of 1 us - 1 s and rates
 * of 1 Mbit/s - 800 Gbit/s (the ranges every caller guarantees):
 *   times: ns.  The clock ("now") is the sample's rx_ns, u64; the window
 *	start is kept as u64 too (no wrap).  RTTs are u32 ns, clamped to
 *	[1, TIMELY_RTT_MAX_NS = 2^30] (1.07 s > DCC_SAMPLE_RTT_MAX_NS), so a
 *	difference of two fits in s32 (|diff| < 2^30).  T_low, T_high,
 *	RTT_ref, D_minRTT, base RTT: u32 ns <= 10^9 < 2^30 (parameters are
 *	us <= 10^6, times 1000).  Sums like base + T_high (< 2^31) are u64.
 *   rates: bytes/s, u64, clamped to [rate_min, rate_max <= 10^11 < 2^37].
 *	delta, rate_min <= 1.25 * 10^10 < 2^34; C <= 10^11 < 2^37 (the
 *	config's bit fields: delta and C 37 bits, rate_min 34).
 *   rtt_diff: s32 ns, an EWMA of differences, so |rtt_diff| < 2^30.
 *   g, w, error, factors: Q16 (TIMELY_ONE = 1.0); g = rtt_diff / D_minRTT
 *	clamped to +-64, w in [0, 1], error in [-1, E_MAX], E_MAX = 1/beta
 *	<= 2^20 (Q16 < 2^36).
 *   alpha: Q16 in [1, 65536]; beta: Q20 in [1, 2^20] (Q20 so that the
 *	paper's 0.008 keeps precision: 8389, 0.002 % off).
 *   N: u32 in [1, 65535], so N^2 < 2^32.
 * Products and their bounds (each named again where it is computed):
 *   alpha x (diff - rtt_diff): 2^17 x 2^31 = 2^48 (s64)
 *   rtt_diff << 16: 2^46 (s64);  (d - T_high) << 16: 2^46
 *   beta x g: 2^21 x 2^22 = 2^43;  beta x error: 2^21 x 2^36 = 2^57
 *   rate x factor (Q16, <= 2): 2^37 x 2^17 = 2^54;  delta (x5 HAI) x
 *	(1 - w): 2^37 x 2^16 = 2^53
 *   SQCC error T_high (d - T_low) << 16 / (T_low (T_high - d)):
 *	2^30 x 2^46 = 2^76, a 128-bit product (dcc_mul_div); the
 *	denominator < 2^60
 *   SQCC k T_low0: 4 x 10^9 < 2^32 (computed in u64);  C k: 2^39
 *   N sample C (1 + g) / R: 2^37 x 2^17, 128-bit (dcc_mul_div)
 *   cwnd: rate x (base + T_high) ns / 10^9: 2^37 x 2^31, 128-bit
 *	(dcc_rate_time_bytes); the result < 2^38 bytes
 *   N's own rate bytes x 10^9 / span_ns: 2^32 x 2^30, 128-bit
 */
#ifndef _DCC_TIMELY_H
#define _DCC_TIMELY_H

#include "fixp.h"
#include "median.h"
#include "sample.h"

#define TIMELY_Q 16
#define TIMELY_ONE (1 << TIMELY_Q)
#define TIMELY_BETA_Q 20
#define TIMELY_RTT_MAX_NS (1U << 30)	/* ~1.07 s */
#define TIMELY_N_MAX 65535U
#define TIMELY_HAI_MULT 5		/* TIMELY [17]: 5 x delta in HAI */
#define TIMELY_INIT_CWND 10		/* TCP_INIT_CWND (BUILD_BUG_ON'd) */

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
	TIMELY_BR_REGAIN = 6,	/* after a loss cut, an empty queue: rate
				 * doubles towards 7/8 of the regain's
				 * reference (timely_on_loss())
				 */
	TIMELY_BR_EMPTY = 7,	/* the queue near empty for
				 * timely_empty_streak() completions in a
				 * row: rate += 5 delta (HAI's step), 10
				 * delta after (timely_empty_step())
				 */
};

/*
 * The regain after a loss cut (loss_regain, not in the papers: their
 * fabric is lossless): its target is its reference (the rate before the
 * cut, or the rate of the last window with the queue below T_low if
 * higher) less 1/2^TIMELY_REGAIN_SHIFT of it (that rate overflowed the
 * buffer), and it doubles only on a completion whose delay is below
 * T_low / 2.
 */
#define TIMELY_REGAIN_SHIFT 3

/*
 * The increase while the queue stays near empty (empty_hai, not in the
 * papers: their fabric is lossless).  Armed by the flow's first loss cut
 * (TIMELY_S_LOSSY: the network drops, so an overshoot ends in a loss cut,
 * not in a standing queue the law's gentle decrease drains for seconds).
 * Near empty: the completion's delay below T_low / TIMELY_EMPTY_DIV.
 * From the first such completion every window closes after D_minRTT (one
 * update per RTT, not per seg_bytes: a flow a burst left at 1/30 of C
 * needs 16 RTTs for 64 KB), and from the TIMELY_EMPTY_STREAK-th in a row
 * the step below T_low is HAI's, TIMELY_HAI_MULT delta, and twice that
 * from the next one on (timely_empty_step()).  Measured in the model
 * (test_timely_law, 1-BDP drop-tail): T_low / 2 fires in the short
 * standing queues of 16 flows that share the link (drops 2-10x); a streak
 * of 4 adds drops there (2.1-2.4 % of their packets against 1.3-1.5 % at
 * 6-7); each completion more delays a recovery by an RTT.  The doubled
 * step (DCC_SEED 1-8): two long flows carry >= 0.9 C again 33-49 RTT
 * (timely_p) and 33-47 RTT (sqcc) after a 16-flow burst, against 54-66
 * and 52-74 with 5 delta throughout, their Jain after it >= 0.98; a lone
 * flow 0.970-0.973 of C (0.962-0.968); the 16 flows that stay never reach
 * it (the same drops and Jain).  Doubling it once more (20 delta) was
 * faster on average but left long flows at Jain 0.90 (other seeds), and
 * 40 delta several below 0.9.
 *
 * TIMELY's own law (the gradient cut, beta 0.8) drains the queue for tens
 * of RTTs in every cycle of flows that share the link, so there the
 * per-RTT windows start only at the TIMELY_EMPTY_CREDIT_GRAD-th
 * completion near empty in a row (the ones before run on the paper's
 * clock), add delta in proportion to the bytes the window carried at its
 * rate (TIMELY's increase per byte: only its clock is faster), and HAI's
 * step waits for the TIMELY_EMPTY_STREAK_GRAD-th.  Model (test_timely_law,
 * the burst over DCC_SEED 1-8, 16 flows that stay over 48 seeds; without
 * empty_hai: 37-75 RTT, their Jain >= 0.947, 0.46 % drops): the others'
 * rule (per-RTT windows from the first, a full delta, HAI from the 7th)
 * 8-16 RTT, Jain down to 0.92 and 2.1 % drops (8 seeds); per-RTT windows
 * from the first with delta pro-rated and HAI from the 40th, 36-51 RTT,
 * 0.63 %, but Jain down to 0.70 (the faster clock alone, without HAI:
 * 0.83); from the 2nd, 3rd, 4th, 5th: Jain 0.80, 0.70, 0.75, 0.92; from
 * the 7th with HAI from the 20th: 7-29 RTT, Jain >= 0.951, 0.47 % (HAI
 * from the 10th or 14th: Jain 0.88, 0.93; a full delta per RTT: 0.91).
 */
#define TIMELY_EMPTY_DIV 4
#define TIMELY_EMPTY_STREAK 7
#define TIMELY_EMPTY_CREDIT_GRAD 7	/* TIMELY's law: per-RTT windows */
#define TIMELY_EMPTY_STREAK_GRAD 20	/* TIMELY's law: HAI (u8 empty_cnt) */

/* the near-empty updates in a row before HAI's step, for @kind */
static inline u32 timely_empty_streak(u32 kind)
{
	return kind == TIMELY_LAW_GRADIENT ? TIMELY_EMPTY_STREAK_GRAD :
	       TIMELY_EMPTY_STREAK;
}

/*
 * The near-empty updates in a row after which every window closes after
 * D_minRTT (empty_hai's per-RTT clock), for @kind
 */
static inline u32 timely_empty_credit(u32 kind)
{
	return kind == TIMELY_LAW_GRADIENT ? TIMELY_EMPTY_CREDIT_GRAD : 1;
}

/*
 * empty_hai's step on a completion near empty, @cnt (st->empty_cnt before
 * it: 0..@streak) in a row before it: TIMELY_HAI_MULT delta at the
 * @streak-th, twice that after.  delta < 2^37: < 2^41.
 */
static inline u64 timely_empty_step(u64 delta, u32 cnt, u32 streak)
{
	return (TIMELY_HAI_MULT * delta) << (cnt >= streak);
}

/* Where SQCC's incast degree N comes from (timely_cfg.n_source) */
enum timely_n_source {
	TIMELY_N_AUTO = 0,	/* parameter only: ESTIMATE if C is set, else LOCAL */
	TIMELY_N_FIXED = 1,	/* n_flows */
	TIMELY_N_LOCAL = 2,	/* the caller's n_local (this host's flows) */
	TIMELY_N_ESTIMATE = 3,	/* max(n_local, median of C (1 + g) / R) */
};

/*
 * The link-rate defaults (a parameter left at 0, update_clock 2): with C
 * known (link_mbps, else the egress NIC's link speed the glue passes to
 * timely_cfg_resolve_nic()), the papers' 10 Gbit/s values scaled with
 * C / 10 Gbit/s, i.e. docs/timely.md's recipe: T_low0 = seg/C (52 us at
 * 10 Gbit/s: the paper's 50), T_high = TIMELY_AUTO_THIGH_MULT T_low0,
 * RTT_ref = T_low0, delta = C / TIMELY_AUTO_DELTA_DIV (10 Mbit/s at
 * 10 Gbit/s), rate_min = C / TIMELY_AUTO_FLOOR_DIV but never below
 * TIMELY_RATE_MIN_KBPS (1 Mbit/s); with C unknown, the 10 Gbit/s values
 * themselves.  update_clock 2: above TIMELY_AUTO_CLOCK_MBPS (the papers'
 * 10 Gbit/s) one update per max(D_minRTT, seg/C) whatever was acked
 * (Eq. 3's tau* of a line-rate flow, for every flow; without a
 * min_rtt_us that is also g's normaliser), at or below it (or C
 * unknown) the completion clock.
 */
#define TIMELY_T_LOW_US 50		/* C unknown: the paper's 10 Gbit/s */
#define TIMELY_T_HIGH_US 500
#define TIMELY_DELTA_KBPS 10000
#define TIMELY_RATE_MIN_KBPS 1000
#define TIMELY_AUTO_THIGH_MULT 10
#define TIMELY_AUTO_DELTA_DIV 1000
#define TIMELY_AUTO_FLOOR_DIV 10000
#define TIMELY_AUTO_CLOCK_MBPS 10000	/* the papers' line rate */

/* update_clock */
#define TIMELY_CLOCK_COMPLETION 0
#define TIMELY_CLOCK_RTT 1
#define TIMELY_CLOCK_AUTO 2

/*
 * The module parameters, in their sysfs units: the glue's snapshot at
 * init, turned into a struct timely_cfg once by timely_cfg_resolve_nic().
 */
struct timely_params {
	u32 t_low_us, t_high_us;	/* 0..10^6, t_low < t_high; 0 = from C */
	u32 rtt_ref_us;			/* patched TIMELY, 0..10^6, 0 = T_low */
	u32 alpha_ppm, beta_ppm;	/* 1..10^6 */
	u32 delta_kbps;			/* 0..10^8, 0 = from C */
	u32 min_rtt_us;			/* D_minRTT, 0..10^6, 0 = base RTT */
	u32 base_rtt_us;		/* 0..10^6, 0 = the measured min RTT */
	u32 seg_bytes;			/* 1448..4194304 */
	u32 link_mbps;			/* C, 0..800000, 0 = unknown */
	u32 rate_min_kbps;		/* 0..10^8, 0 = from C */
	u32 init_rate_kbps;		/* 0..8 * 10^8, 0 = link or IW / RTT */
	u32 hai_thresh;			/* 0..255 */
	u32 loss_md_pct;		/* 0..100 */
	u32 loss_regain;		/* 0..1 */
	u32 empty_hai;			/* 0..1 */
	u32 update_clock;		/* 0 completion, 1 RTT, 2 auto */
	u32 delay_mode;			/* 0 relative, 1 absolute */
	u32 rtt_filter;			/* 0 min, 1 last */
	u32 n_source;			/* SQCC: enum timely_n_source */
	u32 n_flows;			/* SQCC: 0..65535 */
	u32 thigh_max_cut;		/* SQCC: 0..1 */
};

/*
 * A socket's resolved config: parameters in the core's units, fixed from
 * init on (48 bytes, in icsk_ca_priv, hence the bit fields: each is wide
 * enough for its whole parameter range, with room: delta below 2^35
 * B/s, C below 2^37, rate_min below 2^34, alpha 17 bits for [1, 2^16], beta 21
 * for [1, 2^20], N below 2^16).  Only seg_bytes and rtt_last are read on
 * every ACK (plain u32 and a bit); the fields a completion reads are
 * bit fields, a mask or a shift each.  The measured base RTT is an input
 * of every decision (it moves with tcp_min_rtt); base_ns, when set,
 * overrides it, and the values derived from the base (D_minRTT = base,
 * relative thresholds, the cwnd horizon) are single operations where used.
 */
struct timely_cfg {
	u64 delta_bytes_ps : 34;	/* delta (SQCC: delta0, the cap of
					 * C k / N^2), <= 1.25e10 < 2^34
					 */
	u64 dmin_floor : 1;	/* dmin_ns is a floor under the base RTT
				 * (update_clock 2: seg/C), not D_minRTT
				 */
	u64 regain : 1;		/* loss_regain: regain after a loss cut */
	u64 empty_hai : 1;	/* empty_hai: HAI's step while the queue
				 * stays near empty
				 */
	u64 alpha_q16 : 17;	/* EWMA weight of the new difference */
	u64 hai_thresh : 8;	/* HAI after this many g < 0 events, 0 = off */
	u64 kind : 2;		/* enum timely_law_kind */
	u64 rate_min_bytes_ps : 34;	/* <= 1.25e10 < 2^34 */
	u64 beta_q20 : 21;	/* decrease factor */
	u64 loss_md_pct : 7;	/* rate cut per loss episode, percent */
	u64 n_source : 2;	/* SQCC: enum timely_n_source, never AUTO */
	u64 link_bytes_ps : 37;	/* C, 0 = unknown (SQCC's delta, N estimate) */
	u64 n_flows : 16;	/* SQCC, TIMELY_N_FIXED */
	u64 n_key : 8;		/* the caller's key of its n_local count
				 * (kernel: the destination bucket); the core
				 * does not read it
				 */
	u64 relative : 1;	/* thresholds are queueing delay above base */
	u64 rtt_last : 1;	/* window RTT: last sample, not the min */
	u64 thigh_max_cut : 1;	/* SQCC option: above T_high cut as at
				 * error = E_MAX instead of the gentle cut
				 */
	u32 t_low_ns;		/* T_low (SQCC: T_low0, the k = 1 value) */
	u32 t_high_ns;		/* T_high, >= 2 us */
	u32 rtt_ref_ns;		/* patched TIMELY's RTT_ref, else 0 */
	u32 dmin_ns;		/* D_minRTT, 0 = the base RTT */
	u32 base_ns;		/* base RTT, 0 = the measured one */
	u32 seg_bytes;		/* bytes per completion; 0 = the RTT clock
				 * (update_clock 1: a window closes on its
				 * D_minRTT gate alone)
				 */
};

/* the base RTT in force: the fixed parameter, else the measured min */
static inline u32 timely_base_ns(const struct timely_cfg *c, u32 min_rtt_ns)
{
	return c->base_ns ? c->base_ns : min_rtt_ns;
}

/* The completion window (24 bytes). */
struct timely_win {
	u64 start_ns;	/* rx_ns at the last close */
	u32 bytes;	/* bytes (S)ACKed since then (saturating) */
	u32 rtt_ns;	/* the min (or last) RTT of the ACKs not delayed,
			 * U32_MAX = none yet
			 */
	u32 dly_ns;	/* the min RTT of the possibly delayed ACKs, the
			 * window's RTT while it has no other; U32_MAX = none
			 */
	u32 gate_ns;	/* D_minRTT, the least span before the window closes,
			 * as of the last decision (timely_state)
			 */
};

/* timely_state.flags */
#define TIMELY_S_INITED		0x1	/* timely_on_init ran */
#define TIMELY_S_CUT		0x2	/* this loss episode's cut is done */
#define TIMELY_S_STALE		0x4	/* the decision in force is not the
					 * core's current one (an event moved
					 * the rate or the gradient history,
					 * or no base RTT was known at the
					 * last decision): the next ACK
					 * decides
					 */
#define TIMELY_S_REGAIN		0x8	/* regaining after a loss cut: every
					 * window closes after D_minRTT, its
					 * byte count credited
					 * (timely_regain_credit)
					 */
#define TIMELY_S_LOSSY		0x10	/* the flow has had a loss cut: the
					 * network drops (empty_hai arms)
					 */

/*
 * Per-flow state (56 bytes, in icsk_ca_priv).  prev_rtt_ns == 0 means
 * "no previous sample" (RTTs are clamped to >= 1 ns): before the first
 * completion of the connection, or since an RTO or an idle restart.
 *
 * win.gate_ns is the window's D_minRTT gate as of the last decision taken
 * on an ACK (timely_on_change) or at init: the parameter, else the base
 * RTT then.  So the per-ACK step needs no base RTT: a decision comes at
 * least once per window (its completion), and a base that moves within a
 * window gates from the next decision on (tcp_min_rtt moves on a new
 * minimum, or when its 5-minute window expires).  Before any base RTT is
 * known the gate is 0 and TIMELY_S_STALE stays set: every ACK decides
 * until one comes.
 */
struct timely_state {
	u64 rate;		/* bytes/s: the controlled variable */
	struct timely_win win;	/* 24 B: the completion clock */
	s32 rtt_diff;		/* EWMA of RTT differences, ns */
	u32 prev_rtt_ns;	/* 0 = none yet */
	u16 undo_rate;		/* rate before the loss cut (the undo's),
				 * B/s as dcc_f16
				 */
	u16 good_rate;		/* rate of the last window that saw the
				 * queue below T_low, outside a regain, B/s
				 * as dcc_f16 (0 = none yet)
				 */
	u16 nest[3];		/* SQCC: the last 3 N samples (median) */
	u16 n_hat;		/* N used by the last update (get_info) */
	u8 last_w;		/* w of the last update, Q7 (get_info) */
	u8 empty_cnt;		/* empty_hai: completions in a row with the
				 * queue near empty, saturating at
				 * timely_empty_streak()
				 */
	u8 neg_cnt;		/* consecutive completions with g < 0 (HAI) */
	u8 flags : 5;		/* TIMELY_S_* (low bits: one-insn tests) */
	u8 nest_idx : 2;	/* next nest[] slot */
};

/* empty_hai's per-RTT clock is on (the next window is credited) */
static inline bool timely_empty_credited(const struct timely_state *st,
					 u32 kind)
{
	return st->empty_cnt >= timely_empty_credit(kind);
}

/* What one completion's law step decided (tracepoint, tests). */
struct timely_law_out {
	u32 d_ns;		/* delay compared with the thresholds */
	s32 g_q16;		/* normalised gradient */
	u32 w_q16;		/* weight w(g) (patched/SQCC), else 0 */
	s64 err_q16;		/* error (patched/SQCC), else 0 */
	u32 t_low_ns;		/* T_low in force (SQCC: k T_low0) */
	u64 delta_bytes_ps;	/* delta in force (SQCC: min(delta0, C k/N^2)) */
	u8 k;			/* SQCC: max(1, floor(log10 N)), else 0 */
	u8 branch;		/* enum timely_branch */
	bool held;		/* app-limited: an increase was not applied */
};

/* One closed completion window. */
struct timely_win_out {
	u32 rtt_ns;		/* the completion's RTT sample */
	u32 bytes;		/* bytes the window covered */
	u64 span_ns;		/* its duration */
};

/*
 * What timely_on_ack() returns, 0 on the common path: a decision is due
 * (timely_on_change()), for a window that may close, for a stale decision
 * or both.  After timely_on_change(), d->flags has TIMELY_D_UPDATE when a
 * completion ran (a window that may close with the gate in force closes
 * unless this ACK's base RTT raised its gate).
 */
#define TIMELY_D_UPDATE 0x1		/* the window holds seg bytes, an RTT
					 * and its gate's time: it may close
					 */
#define TIMELY_D_STALE TIMELY_S_STALE	/* the decision in force is stale */

struct timely_update {
	struct timely_win_out win;
	struct timely_law_out law;
	u32 n;			/* N of this update (1 but for SQCC) */
};

/* ---- configuration ---------------------------------------------------- */

/*
 * Parameters -> config, once per socket: T_low < T_high (a reader may
 * see one half of a two-write change), alpha/beta to Q16/Q20 (>= 1),
 * rates to bytes/s, times to ns, SQCC's automatic N source (from
 * link_mbps only), the link-rate defaults of the parameters left at 0
 * from C = link_mbps, else @nic_mbps (the egress NIC's link speed,
 * dcc_egress_speed_mbps(); 0 = unknown), which is also the initial rate
 * and SQCC's C.
 */
void timely_cfg_resolve_nic(struct timely_cfg *c, u8 kind,
			    const struct timely_params *p, u32 nic_mbps);

/* the same with the NIC's speed unknown */
static inline void timely_cfg_resolve(struct timely_cfg *c, u8 kind,
				      const struct timely_params *p)
{
	timely_cfg_resolve_nic(c, kind, p, 0);
}

/* the initial rate parameter in bytes/s (0 = derive it, timely_on_init) */
static inline u64 timely_params_init_rate(const struct timely_params *p)
{
	return (u64)p->init_rate_kbps * 125;
}

/* ---- the per-ACK core and its events ---------------------------------- */

/*
 * A new flow at @now_ns (the config resolved): rate @init_rate_bps if
 * set, else C if known, else @iw_bytes (the initial window) over the base
 * RTT (1 ms if none yet), clamped to [rate_min, rate_max]; the first window opens.
 */
void timely_on_init(struct timely_state *st, const struct timely_cfg *c,
		    u64 init_rate_bps, u64 now_ns, u32 min_rtt_ns, u64 iw_bytes,
		    u32 mss, u64 rate_max, struct dcc_decision *d);

/*
 * The window's RTT: the min (rtt_filter=min) or the last of its samples;
 * a possibly delayed ACK's sample only while there is no other (their
 * min): each kind in its own field, so the per-ACK step is one min.
 */
static inline void timely_win_sample(struct timely_state *st,
				     const struct timely_cfg *c, u32 rtt_ns,
				     bool delayed)
{
	struct timely_win *w = &st->win;

	if (unlikely(delayed))
		w->dly_ns = min(w->dly_ns, rtt_ns);
	else
		w->rtt_ns = c->rtt_last ? rtt_ns : min(w->rtt_ns, rtt_ns);
}

/*
 * Add one ACK to the window: its RTT sample @rtt_ns (0 = none; @delayed:
 * the ACK may have been delayed) and its newly (S)ACKed @bytes
 * (saturating at U32_MAX).
 */
static inline void timely_win_feed(struct timely_state *st,
				   const struct timely_cfg *c, u32 rtt_ns,
				   bool delayed, u32 bytes)
{
	struct timely_win *w = &st->win;

	if (rtt_ns)
		timely_win_sample(st, c, rtt_ns, delayed);
	w->bytes = bytes > U32_MAX - w->bytes ? U32_MAX : w->bytes + bytes;
}

/*
 * The window may close at @now_ns: it holds >= seg_bytes, opened
 * >= @gap_ns ago (a clock that stepped back counts as no time) and has an
 * RTT; a window without one keeps accumulating.  The byte test first: it
 * fails on all but the last ACKs of a window.
 */
static inline bool timely_win_due(const struct timely_state *st,
				  const struct timely_cfg *c, u64 now_ns,
				  u32 gap_ns)
{
	const struct timely_win *w = &st->win;

	return w->bytes >= c->seg_bytes &&
	       dcc_rx_age(now_ns, w->start_ns) >= gap_ns &&
	       min(w->rtt_ns, w->dly_ns) != U32_MAX;
}

/*
 * One ACK: all the per-ACK work, inline.  @s: the sample (taken with
 * DCC_SAMPLE_KEEP_DELAYED: a delayed ACK's RTT is the window's fallback
 * only; s->rx_ns is "now"; an invalid sample or rtt_ns == 0 adds its
 * bytes but no RTT) goes into the completion window, whose gate is
 * st->win.gate_ns.  Returns 0 when the decision in force stands (the
 * common path: nothing else to do, no decision to apply), else what is
 * due (TIMELY_D_UPDATE, TIMELY_D_STALE): the caller then passes the same
 * sample to timely_on_change().
 */
static inline u32 timely_on_ack(struct timely_state *st,
				const struct timely_cfg *c,
				const struct dcc_sample *s)
{
	timely_win_feed(st, c, s->why ? 0 : s->rtt_ns, s->delayed,
			s->acked_bytes);
	if (timely_win_due(st, c, s->rx_ns, st->win.gate_ns))
		return TIMELY_D_UPDATE;
	return unlikely(st->flags & TIMELY_S_STALE) ? TIMELY_D_STALE : 0;
}

/*
 * A decision is due on the ACK of @s (timely_on_ack() returned non-zero
 * for it).  Kernel facts, read only for a decision: @min_rtt_ns the
 * measured base RTT (tcp_min_rtt; 0 = none yet; the config's base_ns
 * overrides it), @n_local this host's flows to the destination (SQCC's N
 * sources LOCAL/ESTIMATE), @rate_max the highest rate allowed (the
 * socket's max pacing rate).  The window's gate becomes the D_minRTT in
 * force now; if the window may close with it, it closes and its
 * completion runs (TIMELY_D_UPDATE in d->flags, @u filled).  Then the
 * window cap for the rate: @d filled, d->changed set.
 */
void timely_on_change(struct timely_state *st, const struct timely_cfg *c,
		      const struct dcc_sample *s, u32 min_rtt_ns, u32 n_local,
		      u64 rate_max, struct dcc_decision *d,
		      struct timely_update *u);

/*
 * The decision for the current rate, at any time: the window cap (the
 * decision of every event, and of every ACK while the loss bound holds
 * the window, dcc.h).  d->changed is set; the state is not touched.
 */
void timely_decide(const struct timely_state *st, const struct timely_cfg *c,
		   u32 min_rtt_ns, u32 mss, struct dcc_decision *d);

/* Entering recovery or loss (before timely_on_loss): save the undo rate. */
static inline void timely_save_undo(struct timely_state *st)
{
	st->undo_rate = dcc_f16_pack(st->rate);
}

/*
 * Loss recovery (@rto false) or RTO (@rto: the gradient and the open
 * window are forgotten at @now_ns, the samples span the stall): one cut
 * of loss_md_pct per episode.  Returns true and fills @d when it cut
 * (later losses of the episode change nothing to apply).  With
 * loss_regain the cut starts the regain (TIMELY_S_REGAIN): until the
 * rate is back at 7/8 of its reference (the rate before the cut,
 * st->undo_rate, or the rate of the last window that saw the queue below
 * T_low, st->good_rate, if that was higher: timely_regain_target()), a
 * window closes every D_minRTT whatever it acked, and a completion whose
 * delay is below T_low / 2 (the queue is near empty: the link has room)
 * at least doubles the rate, up to that target (TIMELY_BR_REGAIN); any
 * other completion runs the paper's law.  The regain ends at the target,
 * or with the next cut, which starts its own (good_rate is not written
 * during a regain: a burst that cuts a flow again and again leaves it the
 * same target).
 */
bool timely_on_loss(struct timely_state *st, const struct timely_cfg *c,
		    bool rto, u64 now_ns, u32 min_rtt_ns, u32 mss,
		    struct dcc_decision *d);

/* The episode is over (TCP_CA_Open): the next loss cuts again. */
static inline void timely_on_recovered(struct timely_state *st)
{
	st->flags &= ~TIMELY_S_CUT;
}

/*
 * The loss was spurious: the rate before the cut comes back, and with it
 * the decision, on the next ACK (TIMELY_S_STALE).
 */
static inline void timely_on_undo(struct timely_state *st)
{
	st->rate = max(st->rate, dcc_f16_unpack(st->undo_rate));
	st->flags &= ~(TIMELY_S_CUT | TIMELY_S_REGAIN);
	st->flags |= TIMELY_S_STALE;
}

/*
 * Restart after idle (and RTO): no difference may span the gap.  The
 * first-window cap holds again from the next ACK (TIMELY_S_STALE).
 */
void timely_on_restart(struct timely_state *st, u64 now_ns);

/* SQCC's N for an update: from the config's source and @n_local. */
u32 timely_n(const struct timely_state *st, const struct timely_cfg *c,
	     u32 n_local);

/* ---- the steps (exported for the exact tests) ------------------------- */

/* Open a new window at @now_ns. */
void timely_win_reset(struct timely_state *st, u64 now_ns);

/*
 * Add one ACK: @rtt_ns its RTT sample (0 = none), @delayed the ACK may
 * have been delayed, @bytes newly (S)ACKed.  Closes (returns true, fills
 * @o, opens the next) once >= seg_bytes were acked and >= @gap_ns passed
 * and the window has an RTT; a window with no RTT keeps accumulating.
 * (timely_on_ack()'s steps with an explicit gate, and the close.)
 */
bool timely_win_add(struct timely_state *st, const struct timely_cfg *c,
		    u64 now_ns, u32 rtt_ns, bool delayed, u32 bytes,
		    u32 gap_ns, struct timely_win_out *o);

/*
 * One completion event with RTT sample @rtt_ns: one evaluation of
 * Alg. 1/2/3.  @n is SQCC's N (ignored by the others); @ai_bytes, for
 * TIMELY's law, a window empty_hai closed early: the bytes it carried at
 * its rate, which scale the additive step below T_low to ai_bytes /
 * seg_bytes of delta (0: a full completion); @app_limited holds the rate
 * instead of raising it (an idle application is no evidence of spare
 * capacity); the result is clamped to [rate_min, rate_max].
 */
void timely_law_update(const struct timely_cfg *c, struct timely_state *st,
		       u32 rtt_ns, u32 base_ns, u32 n, u32 ai_bytes,
		       bool app_limited, u64 rate_max,
		       struct timely_law_out *o);

/* Forget the gradient history (RTO, restart after idle); rate is kept. */
static inline void timely_law_reset_grad(struct timely_state *st)
{
	st->prev_rtt_ns = 0;
	st->rtt_diff = 0;
	st->neg_cnt = 0;
}

/*
 * D_minRTT in force: the parameter, else the base RTT (>= 1 ns), at
 * least seg/C with update_clock 2 (dmin_floor)
 */
static inline u32 timely_dmin_ns(const struct timely_cfg *c, u32 base_ns)
{
	if (c->dmin_ns && !c->dmin_floor)
		return c->dmin_ns;
	return max_t(u32, max_t(u32, base_ns, c->dmin_ns), 1);
}

/* SQCC (Eq. 25): k = max(1, floor(log10 N)) */
u8 timely_sqcc_k(u32 n);

/* SQCC: T_low = min(k T_low0, T_high / 2), >= 1 ns */
u32 timely_sqcc_t_low(const struct timely_cfg *c, u8 k);

/* SQCC: delta = clamp(C k / N^2, 1, delta0) */
u64 timely_sqcc_delta(const struct timely_cfg *c, u32 n, u8 k);

/*
 * SQCC's sender-side N sample (the paper's suggestion after Alg. 3):
 * with a queue the link is saturated and the aggregate arrival rate is
 * C (1 + g), so N ~ C (1 + g) / R_own.  g is clamped to [-0.5, 1]; the
 * result to [1, TIMELY_N_MAX].  0 if @own_bytes_ps is 0.
 */
u32 timely_n_sample(u64 link_bytes_ps, s32 g_q16, u64 own_bytes_ps);

/*
 * SQCC's N estimate filter: the median of the last 3 samples of
 * timely_n_sample() (dcc_med3), so that one sample taken while the queue
 * builds or drains cannot move N.
 */
static inline void timely_nest_init(struct timely_state *st, u16 n0)
{
	st->nest[0] = n0;
	st->nest[1] = n0;
	st->nest[2] = n0;
	st->nest_idx = 0;
}

/* the current N estimate: the median of the three */
static inline u32 timely_nest_get(const struct timely_state *st)
{
	return dcc_med3(st->nest[0], st->nest[1], st->nest[2]);
}

/* Push a sample (clamped to [1, TIMELY_N_MAX]); returns the median. */
u32 timely_nest_push(struct timely_state *st, u32 sample);

/*
 * cwnd cap for @rate: 2 x rate x (the RTT at T_high) + 3 packets, so
 * that pacing stays the binding limit up to a full T_high queue.
 */
u64 timely_cwnd_bytes(const struct timely_cfg *c, u32 base_ns, u64 rate,
		      u32 mss);

/* E_MAX = 1 / beta in Q16 */
static inline u64 timely_emax_q16(u32 beta_q20)
{
	return ((u64)TIMELY_ONE << TIMELY_BETA_Q) / (beta_q20 ? beta_q20 : 1);
}

/* ppm (parts per million) -> Q16 / Q20, rounded to nearest */
#define TIMELY_PPM_TO_Q16(ppm) ((u32)((((u64)(ppm) << 16) + 500000) / 1000000))
#define TIMELY_PPM_TO_Q20(ppm) ((u32)((((u64)(ppm) << 20) + 500000) / 1000000))

#endif /* _DCC_TIMELY_H */
