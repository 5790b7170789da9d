/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Swift / LSwift / MSwift per-ACK core (Kumar et al., SIGCOMM'20,
 * Algorithm 1; the lazy-loss and median variants of Gerstein, Silberstein,
 * Keslassy, "Congestion Control for Spraying with Congested Paths"), plain
 * C.  tcp_swift.ko, the unit-test model (test_swift_law.c), the fuzzer
 * (fuzz_swift.c) and the callgrind bench (bench_swift*.c) all call the
 * same entry points; the kernel glue only gathers what the stack knows
 * (struct swift_in), applies the decision and traces.  The theory is in
 * modules/swift/tcp_swift.c.
 *
 * Per ACK (swift_on_ack, inline below: the shape of tcp_bbr.c's bbr_main):
 *	MSwift's segments-per-ACK EWMA (its H counts ACKs)
 *	swift_fr_cut		SACK-detected loss: cut by max_mdf once per
 *				RTT; LSwift/MSwift only past lswift_k
 *				successive missing segments
 *	swift_median_delay	the delay the law uses: the sample, or (MSwift)
 *				the median of the last H, after dropping a
 *				window gone stale
 *	swift_aimd		Algorithm 1: AI below the target, MD above
 *	swift_decision_stands	most ACKs: the decision in force stands
 *	swift_decide_mark	else pacing rate and snd_cwnd from the window
 * The steps an ACK rarely takes are out of line in swift_law.c.
 * Events: swift_core_init, swift_on_rto (every set_state(Loss)),
 * swift_on_recovery_start (ssthresh: remember the window),
 * swift_on_undo, swift_on_idle_restart, swift_core_release.
 *
 * Units: times in ns (the sample's clock), windows in Q16 packets, rates in
 * bytes/s.  Module parameters keep their sysfs units (us, per mille,
 * milli-packets, packets) in struct swift_params and are converted once,
 * by swift_cfg_init(), into struct swift_cfg.
 *
 * Fixed-point scales and overflow bounds (dcc range: 1 Mbit/s .. 800
 * Gbit/s, RTT 1 us .. 1 s, windows 0.001 .. 2^30 packets; a BDP is at most
 * 1e11 B/s * 1 s / 1448 B ~ 2^26 packets):
 *   cwnd, min_cwnd, max_cwnd, init_cwnd: Q16 packets in u64 (SWIFT_ONE = 1
 *	packet), clamped to [min_cwnd >= 1 (= 1/65536 packet; 0.001 packet is
 *	65), max_cwnd <= SWIFT_CWND_MAX = 2^30 packets]: cwnd < 2^47.
 *   ai: Q16 packets per RTT, <= 65.535 packets < 2^23.  AI adds
 *	ai * acked / cwnd (ai * acked < 2^23 * 2^32 = 2^55; times 2^16 a
 *	64-bit division while ai * acked < 2^48, i.e. acked < 2^25, else a
 *	128-bit dcc_mul_div) or, below one packet, ai * acked (< 2^55: the
 *	sum < 2^56 before the clamp).
 *   beta, max_mdf: Q16 fractions in [0, 1] (<= 2^16); cwnd * f < 2^63.
 *   fs_rmin, fs_rmax: 1/sqrt(cwnd in packets) in Q24, <= 2^32 for any
 *	cwnd >= 1/65536 (swift_inv_sqrt: Newton's iterations in Q32 and
 *	Q63, 128-bit products); fs = fs_range * (r - rmax) / (rmin - rmax)
 *	with fs_range <= 1e9 ns < 2^30 and r - rmax <= 2^32: < 2^62, times
 *	fs_magic <= 2^63 in 128 bits.
 *   target_base_ns: (base_target + hops * hop_us) us in ns, <= 2.65e10
 *	(< 2^35); plus the flow's own base (swift_in.base_ns): the min RTT
 *	(<= 2^29 us from the stack, < 2^49 ns) in relative mode, or the
 *	per-path hop term (<= 255 * 1e5 us < 2^35 ns), plus fs: < 2^50.
 *   delay, rtt_ns: u32 ns <= 1e9 (the sample's clamp); the median window
 *	keeps them as they are.  MD cut = beta * (delay - t) / delay:
 *	2^16 * 2^30 < 2^47.
 *   now, t_last_decrease: u64 ns (585 years; no wrap).  last_push_ns:
 *	the low 32 bits, aged with dcc_rx_age32() (exact to 4.0 s, twice
 *	the 1 s RTT range's 2 srtt staleness test; an idle restart empties
 *	the window whatever its age).
 *   srtt_ns: the stack's srtt (< 2^29 us, so < 2^49 ns); 1 ms before the
 *	first sample.  The once-per-RTT guard compares ns differences with it.
 *   pacing rate = pct/100 * cwnd * mss / rtt (pct 100 below one packet):
 *	cwnd * mss < 2^47 * 2^16 = 2^63, times 1e9 * pct (< 2^40) in 128
 *	bits, over rtt_ns * 100 (< 2^56); the quotient then shifted down by
 *	16 (floor of a floor is the floor of the whole: exact).  Below one
 *	packet cwnd * mss < 2^32, times 1e9 < 2^62: 64 bits.  At the
 *	range's top (2^30 packets of 64 KB in 1 us) it saturates at U64_MAX,
 *	which the glue clamps to sk_max_pacing_rate.
 *   cwnd_bytes = max(1, floor(cwnd)) * mss < 2^30 * 2^16 = 2^46.
 *   fs_ns: fs <= fs_range <= 1e9 ns, kept in u32.
 *   spa_q8: segments per ACK, Q8, EWMA 1/8 of min(acked, 255): <= 2^16.
 *   H = max(W/2, 1) ACKs of spa segments: (W << 8) / (2 spa) < 2^39.
 *   dec_cwnd = cwnd >> dec_shift, dec_shift in [11, 16]: < 2^31.
 *   dec_srtt_ns: the decision's srtt below 2^32 ns (4.3 s), else 0.
 */
#ifndef _DCC_SWIFT_H
#define _DCC_SWIFT_H

#include "fixp.h"
#include "median.h"
#include "sample.h"

#define SWIFT_SHIFT 16
#define SWIFT_ONE (1ULL << SWIFT_SHIFT)		/* one packet, Q16 */
#define SWIFT_CWND_MAX (1ULL << (30 + SWIFT_SHIFT))	/* 2^30 packets */
#define SWIFT_INV_SQRT_SHIFT 24
/* per-mille (module parameters) -> Q16 fraction */
#define SWIFT_PM_TO_Q16(pm) ((u32)(((u64)(pm) << SWIFT_SHIFT) / 1000))
/* milli-packets -> Q16 packets (rounded down, at least 1) */
#define SWIFT_MPKT_TO_Q16(m) max_t(u64, (u64)(m) * SWIFT_ONE / 1000, 1)
/* srtt before the first RTT sample (as tcp_bbr's initial pacing), ns */
#define SWIFT_SRTT_DEFAULT_NS 1000000ULL

/* The module parameters, in their sysfs units (tcp_swift.c: ranges). */
struct swift_params {
	u32 base_target_us;	/* 1..1e6 */
	u32 target_mode;	/* 0 relative to the min RTT, 1 absolute */
	u32 hops;		/* 0..255 */
	u32 hop_us;		/* 0..1e5 */
	u32 hop_ttl;		/* 0..1: hops from the ACK's TTL */
	u32 fs_range_us;	/* 0..1e6 */
	u32 fs_min_cwnd_mpkt;	/* 1..65535 */
	u32 fs_max_cwnd;	/* 1..1e9 packets */
	u32 ai_mpkt;		/* 1..65535 */
	u32 beta_pm;		/* 0..1000 */
	u32 max_mdf_pm;		/* 1..1000 */
	u32 min_cwnd_mpkt;	/* 1..65535 */
	u32 init_cwnd;		/* 1..65535 packets */
	u32 retx_reset;		/* 1..255 */
	u32 lswift_k;		/* 1..255 */
	u32 h_cap;		/* 1..1024 */
	u32 pctl;		/* 0..100 */
	u32 pacing_pct;		/* 100..1000 */
};

/*
 * What the core needs of the parameters, converted once (swift_cfg_init).
 * Immutable once built: tcp_swift shares one per parameter set among its
 * sockets.  The per-socket inputs (min RTT, snd_cwnd_clamp) come per ACK
 * in struct swift_in.
 */
struct swift_cfg {
	u64 target_base_ns;	/* base_target (+ hops * hop_us), ns */
	u64 fs_range_ns;	/* flow-scaling range, ns (0 = off) */
	u64 fs_rmin;		/* 1/sqrt(fs_min_cwnd), Q24 */
	u64 fs_rmax;		/* 1/sqrt(fs_max_cwnd), Q24, < fs_rmin */
	u64 fs_zero_cwnd;	/* fs = 0 from this window up (Q16) */
	u64 fs_full_cwnd;	/* fs = fs_range up to this window (Q16) */
	u64 fs_magic;		/* / (rmin - rmax) as * fs_magic >> fs_magic_shift */
	u64 min_cwnd;		/* Q16 packets, >= 1 */
	u64 init_cwnd;		/* Q16 packets */
	u32 ai;			/* Q16 packets per RTT */
	u32 beta;		/* Q16 */
	u32 max_mdf;		/* Q16, > 0 */
	u32 retx_reset;		/* RETX_RESET_THRESHOLD, consecutive RTOs */
	u32 lswift_k;		/* successive missing segments for a cut */
	u32 pctl;		/* MSwift percentile (50 = median) */
	u16 h_cap;		/* MSwift window cap, ACKs */
	u16 pacing_pct;		/* pacing at >= 1 packet, % of cwnd / srtt */
	u32 hop_ns;		/* h, per-hop target increment, ns (<= 1e8) */
	u8 hops;		/* the hop count where no TTL gives one */
	u8 fs_magic_shift;	/* 62 + ceil(log2(rmin - rmax)) */
	bool relative;		/* target above the flow's min RTT */
	/*
	 * hop_ttl: target_base_ns has no hop term; the glue adds hops *
	 * hop_ns per path, the count from the ACKs' TTL (swift_in.base_ns)
	 */
	bool hop_ttl;
};

/* Variant bits of struct swift_core.flags. */
#define SWIFT_LAZY	0x1	/* LSwift gate + undo (lswift, mswift) */
#define SWIFT_MEDIAN	0x2	/* median-filtered delay (mswift) */

/*
 * When a decision stands (swift_on_ack reports changed = false): the
 * window is in the bucket of the decision's, [k, k + 1) * 2^dec_shift Q16
 * with dec_shift = min(16, log2(cwnd) - SWIFT_DEC_CWND_SHIFT), so the
 * whole-packet window is the same and the window moved by less than 1/32
 * of itself; srtt is within 1/16 of the decision's; the MSS is the same.
 * The pacing rate in force is then within about 10% of the exact one, at
 * 2x (pacing_pct) the window's rate: a bound on bursts, not the limit.
 * Below one packet the pacer is the window and every ACK decides.  An
 * event the stack follows with its own snd_cwnd (RTO, undo) marks the
 * decision stale, dec_shift SWIFT_DEC_STALE: no window is in that bucket.
 */
#define SWIFT_DEC_CWND_SHIFT	5
#define SWIFT_DEC_SRTT_SHIFT	4
#define SWIFT_DEC_STALE		63

/*
 * One flow's state, 96 bytes (tcp_swift keeps it in icsk_ca_priv).
 * fs_cwnd / fs_ns cache the flow-scaling term of the window it was last
 * computed for, so the square root runs once per window change; after an
 * ACK with a delay sample fs_ns is fs of the window the law compared at
 * (swift_law_target_ns).  The cache is keyed on the window alone (a
 * socket's swift_cfg never changes) and holds windows below 2^32 (65536
 * packets; above, fs is recomputed, or 0 past fs_max_cwnd).
 * dec_* describe the decision in force (SWIFT_DEC_*): 11 bytes, paid for
 * by the target the law used (now swift_law_target_ns(), from fs_ns) and
 * fs_cwnd's upper half.
 */
struct swift_core {
	u64 cwnd;		/* Q16 packets */
	u64 t_last_decrease;	/* ns; 0 = never */
	struct dcc_medbuf med;	/* MSwift window (zero otherwise), 40 B */
	u32 last_push_ns;	/* MSwift: when the last sample entered */
	u32 glue_base_us;	/* owned by the caller (tcp_swift: the shared
				 * base RTT last read); the core never reads it
				 */
	u32 fs_cwnd;		/* window of the cached fs_ns (0: none) */
	u32 fs_ns;		/* fs(fs_cwnd), ns (<= fs_range <= 1e9) */
	u32 last_delay_ns;	/* delay the law used last (MSwift: median) */
	u32 prior_cwnd;		/* packets, for undo */
	u32 dec_srtt_ns;	/* srtt of the decision (0: >= 2^32 ns) */
	u32 dec_cwnd;		/* cwnd >> dec_shift of the decision */
	u16 dec_mss;		/* MSS of the decision */
	u16 spa_q8;		/* MSwift: EWMA of segments per ACK, Q8 */
	u8 dec_shift;		/* the decision's window bucket, log2 */
	u8 retx_cnt;		/* consecutive RTOs (saturates at 255) */
	u8 flags;		/* SWIFT_LAZY | SWIFT_MEDIAN */
	u8 glue_hops;		/* owned by the caller (tcp_swift: 1 + the hop
				 * count last read from an ACK's TTL, 0: none
				 * yet); the law never reads it, only the glues'
				 * helper swift_hop_term_ns()
				 */
};

/*
 * What only the stack knows, per ACK or event, as plain values.
 */
struct swift_in {
	u64 now_ns;		/* events: the clock (swift_on_ack: s->rx_ns) */
	u64 srtt_ns;		/* smoothed RTT; SWIFT_SRTT_DEFAULT_NS if none */
	u64 base_ns;		/* the flow's own part of the target, ns:
				 * relative mode its min RTT (0 = none
				 * yet), absolute mode the hop term the
				 * glue reads per path (tcp_swift.c:
				 * hop_ttl), else 0; the core adds it to
				 * target_base_ns whatever the mode
				 */
	u32 cwnd_clamp;		/* snd_cwnd_clamp, packets */
	u32 missing;		/* successive segments missing at snd_una
				 * (neither SACKed nor delivered), counted up
				 * to lswift_k; read only when s->losses > 0
				 */
	bool cwnd_limited;	/* AI allowed */
	bool in_loss;		/* TCP_CA_Loss: the SACK reaction is off */
};

/* What a call did (tracepoint "action"). */
enum swift_action {
	SWIFT_AI = 0,		/* delay < target: additive increase */
	SWIFT_MD = 1,		/* delay >= target: multiplicative decrease */
	SWIFT_HOLD = 2,		/* delay >= target, already cut this RTT */
	SWIFT_FR = 3,		/* fast-recovery (SACK hole) cut by max_mdf */
	SWIFT_FR_HOLD = 4,	/* fast-recovery event, already cut this RTT */
	SWIFT_RTO = 5,		/* RTO cut by max_mdf (or held) */
	SWIFT_RESET = 6,	/* retx_reset consecutive RTOs: cwnd = min */
	SWIFT_NO_AI = 7,	/* below target but not cwnd-limited */
	SWIFT_NONE = 15,	/* no such decision on this ACK */
};

/*
 * dcc_decision.flags of swift_on_ack: the AI/MD action (SWIFT_NONE if the
 * ACK had no delay sample), the SACK-hole action (SWIFT_NONE if no loss
 * was acted on) and MSwift's H (0 otherwise), for the tracepoint.
 */
#define SWIFT_D_LAW(f)		((enum swift_action)((f) & 0xf))
#define SWIFT_D_FR(f)		((enum swift_action)(((f) >> 4) & 0xf))
#define SWIFT_D_H(f)		((u16)((f) >> 16))
#define SWIFT_D_MAKE(law, fr, h) \
	((u32)(law) | ((u32)(fr) << 4) | ((u32)(h) << 16))

/* Convert the parameters once. */
void swift_cfg_init(struct swift_cfg *c, const struct swift_params *p);

/* The socket's window clamp: [min_cwnd, min(clamp, 2^30) packets]. */
static inline u64 swift_max_cwnd(const struct swift_cfg *c, u32 cwnd_clamp)
{
	u64 m = min_t(u64, (u64)cwnd_clamp << SWIFT_SHIFT, SWIFT_CWND_MAX);

	return max_t(u64, m, c->min_cwnd);
}

/*
 * Start a flow: cwnd = init_cwnd within the clamps; MSwift's window
 * (dcc_medbuf_init: 0, or -ENOMEM on the 3-sample fallback).
 */
int swift_core_init(struct swift_core *st, const struct swift_cfg *c,
		    u8 flags, u32 cwnd_clamp);
/* Undo swift_core_init; safe on a zero-filled state. */
void swift_core_release(struct swift_core *st);

/*
 * The pacing rate and window of the current state (any event); always
 * fills @d (changed = true).  It does not mark the decision in force:
 * the ACK after an event that called it decides again (SWIFT_DEC_STALE).
 */
void swift_decide(struct swift_core *st, const struct swift_cfg *c,
		  const struct swift_in *in, u32 mss, struct dcc_decision *d);

/*
 * The target the law compared the last ACK's delay with: target_base +
 * the flow's own base on that ACK (@base_ns, swift_in) + fs of the window
 * before the ACK.  Valid right after an ACK with a delay sample (trace).
 */
static inline u64 swift_law_target_ns(const struct swift_core *st,
				      const struct swift_cfg *c, u64 base_ns)
{
	return c->target_base_ns + base_ns + st->fs_ns;
}

/* An RTO (every set_state(Loss)): cut, count, drop stale samples. */
enum swift_action swift_on_rto(struct swift_core *st, const struct swift_cfg *c,
			       const struct swift_in *in);
/* Recovery or RTO begins (ssthresh): remember the window for undo. */
void swift_on_recovery_start(struct swift_core *st);
/* A loss proven spurious: LSwift/MSwift take the cut back.  Packets. */
u32 swift_on_undo(struct swift_core *st);
/* Restart after idle: the median window's samples are stale. */
void swift_on_idle_restart(struct swift_core *st);

/* ---- the per-ACK path ------------------------------------------------- */

/*
 * What an ACK rarely needs, out of line (swift_law.c): the flow-scaling
 * term of a new window (into the cache), the multiplicative decrease,
 * the SACK-hole cut, a new decision.  They take values, not the caller's
 * struct swift_in, so that it never leaves registers on the way.
 */
u64 swift_fs_update(struct swift_core *st, const struct swift_cfg *c);
void swift_md(struct swift_core *st, const struct swift_cfg *c, u64 delay_ns,
	      u64 target_ns);
enum swift_action swift_fr_cut(struct swift_core *st, const struct swift_cfg *c,
			       u64 srtt_ns, u32 cwnd_clamp, u64 now_ns);
void swift_decide_mark(struct swift_core *st, const struct swift_cfg *c,
		       u64 srtt_ns, u64 base_ns, u32 mss,
		       struct dcc_decision *d);

/* The cwnd may be cut now: at most once per RTT (now - t_last >= srtt). */
static inline bool swift_can_decrease(const struct swift_core *st,
				      const struct swift_in *in, u64 now_ns)
{
	/* htsim compares against its smoothed RTT; so does this */
	if (!st->t_last_decrease)
		return true;
	/* a clock behind the last cut (an earlier RX stamp) is within it */
	return now_ns >= st->t_last_decrease &&
	       now_ns - st->t_last_decrease >= in->srtt_ns;
}

/*
 * Clamp a window the law moved and record a decrease.  Strict "<": an
 * unchanged window must not push the once-per-RTT guard forward.  A
 * window inside both clamps (every ACK's but those that cross one) is
 * left as it is: the same as clamping it, in three tests.
 */
static inline void swift_finish(struct swift_core *st, const struct swift_cfg *c,
				const struct swift_in *in, u64 prev, u64 now_ns)
{
	u64 cwnd = st->cwnd;

	if (unlikely(cwnd < c->min_cwnd || cwnd > SWIFT_CWND_MAX ||
		     cwnd > (u64)in->cwnd_clamp << SWIFT_SHIFT)) {
		cwnd = clamp_t(u64, cwnd, c->min_cwnd,
			       swift_max_cwnd(c, in->cwnd_clamp));
		st->cwnd = cwnd;
	}
	if (cwnd < prev)
		st->t_last_decrease = now_ns ? now_ns : 1;
}

/*
 * swift_finish() of a window the law did not move.  Every window is in
 * [min_cwnd, SWIFT_CWND_MAX] (init and every move clamp it; an undo
 * restores one that was): only the socket's clamp, which a route or a
 * BPF program may lower, can have come down on it.
 */
static inline void swift_finish_held(struct swift_core *st,
				     const struct swift_cfg *c,
				     const struct swift_in *in, u64 now_ns)
{
	if (unlikely(st->cwnd > (u64)in->cwnd_clamp << SWIFT_SHIFT))
		swift_finish(st, c, in, st->cwnd, now_ns);
}

/*
 * Algorithm 1 on one delay: AI below the target (+ai/cwnd per packet
 * acked, or +ai per packet acked below one packet), else MD by
 * max(1 - beta * (delay - target) / delay, 1 - max_mdf) at most once per
 * RTT (swift_md).  AI only while cwnd-limited.  Resets the consecutive-RTO
 * count.  The target's fs comes from the cache unless the window moved,
 * and is 0 without a look at the window's square root from fs_max_cwnd
 * on (fs_zero_cwnd: 0 too when flow scaling is off).
 */
static inline enum swift_action swift_aimd(struct swift_core *st,
					   const struct swift_cfg *c,
					   const struct swift_in *in, u64 now_ns,
					   u64 delay_ns, u32 acked)
{
	u64 prev = st->cwnd, fs, t;
	enum swift_action a;

	if (likely(prev == st->fs_cwnd)) {
		fs = st->fs_ns;
	} else if (prev >= c->fs_zero_cwnd) {
		/* at or past fs_max_cwnd: no flow scaling, no square root */
		fs = 0;
		st->fs_ns = 0;
		st->fs_cwnd = 0;
	} else {
		fs = swift_fs_update(st, c);
	}
	t = c->target_base_ns + in->base_ns + fs;
	st->retx_cnt = 0;
	if (delay_ns < t && in->cwnd_limited) {
		if (prev >= SWIFT_ONE) {
			/*
			 * ai * acked / cwnd: ai < 2^23, acked < 2^32: < 2^55;
			 * in Q16 a 64-bit division below 2^48 (acked < 2^25),
			 * the 128-bit one above
			 */
			u64 n = (u64)c->ai * acked;

			st->cwnd += likely(n < (1ULL << 48)) ?
				div64_u64(n << SWIFT_SHIFT, prev) :
				dcc_mul_div(n, SWIFT_ONE, prev);
		} else {
			/* below one packet: + ai per packet acked ([S] Alg. 1) */
			st->cwnd += (u64)c->ai * acked;
		}
		a = SWIFT_AI;
	} else if (delay_ns >= t && swift_can_decrease(st, in, now_ns)) {
		swift_md(st, c, delay_ns, t);
		a = SWIFT_MD;
	} else {
		/* not cwnd-limited, or already cut within this RTT */
		swift_finish_held(st, c, in, now_ns);
		return delay_ns < t ? SWIFT_NO_AI : SWIFT_HOLD;
	}
	swift_finish(st, c, in, prev, now_ns);
	return a;
}

/*
 * Does the decision in force still stand (SWIFT_DEC_*)?  The window in the
 * decision's bucket (never while stale: cwnd >> 63 is 0, dec_cwnd not),
 * the same MSS, srtt within 1/16 of the decision's: srtt - dec + tol <=
 * 2 tol in u64 is |srtt - dec| <= tol either way.
 */
static inline bool swift_decision_stands(const struct swift_core *st,
					 const struct swift_in *in, u32 mss)
{
	u64 tol = st->dec_srtt_ns >> SWIFT_DEC_SRTT_SHIFT;

	return (st->cwnd >> st->dec_shift) == st->dec_cwnd &&
	       mss == st->dec_mss &&
	       in->srtt_ns - st->dec_srtt_ns + tol <= 2 * tol;
}

/*
 * MSwift's median window H = max(W/2, 1) ACKs (Eq. 8), W = cwnd in packets,
 * in ACKs of @spa_q8 segments each, clamped to [1, cap].
 */
static inline u16 swift_median_h(u64 cwnd, u32 spa_q8, u16 cap)
{
	u64 w = max_t(u64, cwnd >> SWIFT_SHIFT, 1);
	u64 h;

	spa_q8 = max_t(u32, spa_q8, 256);	/* at least one segment per ACK */
	/*
	 * W / (2 * spa): W < 2^31, << 8 < 2^39.  The EWMA settles on a
	 * power of two (1 segment per ACK: 256; delayed ACKs: 512), where
	 * the division is a shift.
	 */
	if (!(spa_q8 & (spa_q8 - 1)))
		h = (w << 8) >> (ilog2(spa_q8) + 1);
	else
		h = (w << 8) / (2ULL * spa_q8);
	return (u16)clamp_t(u64, h, 1, max_t(u16, cap, 1));
}

/*
 * MSwift's delay, into last_delay_ns: the median (or pctl-th percentile)
 * of the last H = max(W/2, 1) ACKs (Eq. 8), the window emptied first when
 * no sample arrived for 2 srtt ([M] III-A: samples older than 1-2 RTTs
 * are ignored); without a window (zero state) the sample itself.
 * Returns H (0 without a window), for the trace.
 */
static inline u16 swift_median_delay(struct swift_core *st,
				     const struct swift_cfg *c,
				     const struct swift_in *in,
				     const struct dcc_sample *s)
{
	struct dcc_medwin *w = &st->med.w;
	u64 now = s->rx_ns;
	u16 h;

	if (unlikely(!st->med.buf)) {
		st->last_delay_ns = s->rtt_ns;
		return 0;
	}
	/* rx_ns may step back (sample.h): that is no staleness */
	if (w->n && dcc_rx_age32(now, st->last_push_ns) > 2 * in->srtt_ns)
		swift_on_idle_restart(st);	/* empties the window */
	st->last_push_ns = (u32)now;
	h = swift_median_h(st->cwnd, st->spa_q8, c->h_cap);
	dcc_medwin_push(w, st->med.buf, s->rtt_ns, h);
	st->last_delay_ns = c->pctl == 50 ? dcc_medwin_median(w, st->med.buf) :
		dcc_medwin_percentile(w, st->med.buf, c->pctl);
	return h;
}

/*
 * One ACK, in the shape of tcp_bbr.c's bbr_main.  @s is the neutral sample
 * (rx_ns is the clock on every ACK; why == 0 when it carries a delay
 * sample); @d receives the SWIFT_D_* trace facts and, when the decision
 * moved (d->changed, SWIFT_DEC_*), the pacing rate and the window (whole
 * packets times mss, at least one packet: below one packet the rate is
 * the limit).  Otherwise the decision in force stands and d's rate and
 * window are left alone.  Inline: it runs inside the glue's
 * cong_control, where the compiler keeps @in and @d in registers, and an
 * ACK that moves nothing calls nothing (MSwift: the median window's push).
 */
static inline void swift_on_ack(struct swift_core *st, const struct swift_cfg *c,
				const struct swift_in *in,
				const struct dcc_sample *s,
				struct dcc_decision *d)
{
	enum swift_action law = SWIFT_NONE, fr = SWIFT_NONE;
	u16 h = 0;

	/* segments per ACK, EWMA 1/8, Q8: MSwift's H counts ACKs */
	if ((st->flags & SWIFT_MEDIAN) && s->acked) {
		u32 seg = min_t(u32, s->acked, 255) << 8;

		st->spa_q8 = (u16)((st->spa_q8 * 7U + seg) / 8);
	}
	/*
	 * Swift's SACK-hole reaction: an ACK on which the stack marked
	 * packets lost, outside the Loss state, cuts by max_mdf once per
	 * RTT.  LSwift and MSwift cut only when lswift_k successive segments
	 * are missing at snd_una: a packet late on a slow path leaves a
	 * one-segment hole among SACKed ones, a drop-tail overflow a run.
	 */
	if (unlikely(s->losses) && !in->in_loss &&
	    (!(st->flags & SWIFT_LAZY) || in->missing >= c->lswift_k))
		fr = swift_fr_cut(st, c, in->srtt_ns, in->cwnd_clamp, s->rx_ns);
	if (!s->why) {
		/* the delay the law uses: the sample, or MSwift's median */
		if (st->flags & SWIFT_MEDIAN)
			h = swift_median_delay(st, c, in, s);
		else
			st->last_delay_ns = s->rtt_ns;
		law = swift_aimd(st, c, in, s->rx_ns, st->last_delay_ns, s->acked);
	}
	d->flags = SWIFT_D_MAKE(law, fr, h);
	/* most ACKs move nothing the decision is made of: it stands */
	if (likely(swift_decision_stands(st, in, s->mss))) {
		d->changed = false;
	} else {
		/* a local for the call, so the caller's @d may stay in registers */
		struct dcc_decision nd;

		swift_decide_mark(st, c, in->srtt_ns, in->base_ns, s->mss, &nd);
		d->rate_bytes_ps = nd.rate_bytes_ps;
		d->cwnd_bytes = nd.cwnd_bytes;
		d->changed = true;
	}
}

/* ---- the steps, exposed for the unit tests ---------------------------- */

/* 1/sqrt(x / 2^16) in Q24 for x (Q16 packets) >= 1; 2^32 for x = 0..1. */
u64 swift_inv_sqrt(u64 cwnd);

/*
 * Resolve fs_rmin / fs_rmax from fs_min_cwnd / fs_max_cwnd (Q16 packets),
 * and the windows where fs saturates (fs_zero_cwnd, fs_full_cwnd) and the
 * multiplier that divides by rmin - rmax: swift_fs_ns() takes a square
 * root only between the two, and divides nowhere.
 */
void swift_cfg_fs(struct swift_cfg *c, u64 fs_min_cwnd, u64 fs_max_cwnd);

/*
 * Flow-scaling term ([S] 3.5):
 *	fs(cwnd) = clamp(alpha / sqrt(cwnd) + beta, 0, fs_range)
 * with alpha, beta chosen so fs(fs_min_cwnd) = fs_range and
 * fs(fs_max_cwnd) = 0, i.e. fs = range * (r - rmax) / (rmin - rmax) with
 * r = 1/sqrt(cwnd).  0 when cwnd = 0 (as htsim).  ns.
 */
u64 swift_fs_ns(const struct swift_cfg *c, u64 cwnd);

/* target(cwnd) = target_base + the flow's base (swift_in) + fs(cwnd), ns */
u64 swift_target_ns(const struct swift_cfg *c, u64 base_ns, u64 cwnd);

/*
 * For the glues' swift_in.base_ns: the path's hop term with hop_ttl, ns
 * (0 without: target_base_ns has it then), from the count a glue keeps in
 * st->glue_hops (1 + hops; 0: none read, the parameter's hops instead).
 * <= 255 * 1e8 ns < 2^35.
 */
static inline u64 swift_hop_term_ns(const struct swift_core *st,
				    const struct swift_cfg *c)
{
	if (!c->hop_ttl)
		return 0;
	return (u64)(st->glue_hops ? st->glue_hops - 1U : c->hops) * c->hop_ns;
}

/*
 * Pacing rate, bytes/s: pct/100 * cwnd * mss / rtt, pct 100 below one
 * packet (one packet every rtt / cwnd, [S] 3.3).  @rtt_ns 0 counts as 1.
 */
u64 swift_pacing_rate(u64 cwnd, u32 mss, u64 rtt_ns, u32 pct);

/* Whole packets for snd_cwnd: max(1, floor(cwnd)), <= U32_MAX. */
u32 swift_cwnd_pkts(u64 cwnd);

#endif /* _DCC_SWIFT_H */
