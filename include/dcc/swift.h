/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Swift / MSwift control law (Kumar et al., SIGCOMM'20, Algorithm 1; the
 * median variant of Gerstein, Silberstein, Keslassy, "Congestion Control
 * for Spraying with Congested Paths"), plain C shared by tcp_swift.ko and
 * the userspace unit tests.  The kernel glue and the theory are in
 * modules/swift/tcp_swift.c.
 *
 * Fixed-point scales and ranges (dcc range: 1 Mbit/s .. 800 Gbit/s, RTT
 * 1 us .. 1 s, so a BDP is at most 1e11 B / 1448 B ~ 2^26 packets):
 *   cwnd, min_cwnd, max_cwnd: Q16 packets in u64 (SWIFT_ONE = 1 packet).
 *	Clamped to [min_cwnd >= 1 (= 1/65536 pkt), max_cwnd <= SWIFT_CWND_MAX
 *	= 2^30 packets], so cwnd < 2^46 and cwnd * 2^16 < 2^62.
 *   ai: Q16 packets per RTT (<= 100 packets, < 2^23).
 *   beta, max_mdf: Q16 fractions in [0, 1] (<= 2^16).
 *   fs_rmin, fs_rmax: 1/sqrt(cwnd in packets) in Q24; for cwnd >= 1/65536
 *	packet that is <= 256 * 2^24 = 2^32.
 *   target, delay: ns (u64; a 1 s RTT is 1e9 < 2^30).
 *   now, srtt: us on the tcp_mstamp clock; t_last_decrease keeps its low
 *	32 bits and is compared wrap-safe (an RTT < 71 minutes).
 */
#ifndef _DCC_SWIFT_H
#define _DCC_SWIFT_H

#include "fixp.h"

#define SWIFT_SHIFT 16
#define SWIFT_ONE (1ULL << SWIFT_SHIFT)		/* one packet, Q16 */
#define SWIFT_CWND_MAX (1ULL << (30 + SWIFT_SHIFT))	/* 2^30 packets */
#define SWIFT_INV_SQRT_SHIFT 24
/* per-mille (module parameters) -> Q16 fraction */
#define SWIFT_PM_TO_Q16(pm) ((u32)(((u64)(pm) << SWIFT_SHIFT) / 1000))
/* milli-packets -> Q16 packets (rounded down, at least 1) */
#define SWIFT_MPKT_TO_Q16(m) max_t(u64, (u64)(m) * SWIFT_ONE / 1000, 1)

/* What one socket's law needs, resolved once from its parameter snapshot. */
struct swift_law_cfg {
	u64 target_base_ns;	/* target without the flow-scaling term:
				 * base_target (+ min RTT in relative mode)
				 * + hops * per-hop, ns
				 */
	u64 fs_range_ns;	/* flow-scaling range, ns (0 = off) */
	u64 fs_rmin;		/* 1/sqrt(fs_min_cwnd), Q24 */
	u64 fs_rmax;		/* 1/sqrt(fs_max_cwnd), Q24, < fs_rmin */
	u64 min_cwnd;		/* Q16 packets, >= 1 */
	u64 max_cwnd;		/* Q16 packets, <= SWIFT_CWND_MAX */
	u32 ai;			/* Q16 packets per RTT */
	u32 beta;		/* Q16 */
	u32 max_mdf;		/* Q16, > 0 */
	u32 retx_reset;		/* RETX_RESET_THRESHOLD, consecutive RTOs */
};

/* The law's per-flow state. */
struct swift_law {
	u64 cwnd;		/* Q16 packets */
	u32 t_last_decrease;	/* us, low 32 bits of the clock; 0 = never
				 * (16 bytes in all: it lives in icsk_ca_priv)
				 */
	u32 retx_cnt;		/* consecutive RTOs */
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
};

/* 1/sqrt(x / 2^16) in Q24 for x (Q16 packets) >= 1; 2^32 for x = 0..1. */
u64 swift_inv_sqrt(u64 cwnd);

/* Resolve fs_rmin / fs_rmax from fs_min_cwnd / fs_max_cwnd (Q16 packets). */
void swift_cfg_fs(struct swift_law_cfg *c, u64 fs_min_cwnd, u64 fs_max_cwnd);

/*
 * Flow-scaling term ([S] 3.5, spec 2.2):
 *	fs(cwnd) = clamp(alpha / sqrt(cwnd) + beta, 0, fs_range)
 * with alpha, beta chosen so fs(fs_min_cwnd) = fs_range and
 * fs(fs_max_cwnd) = 0, i.e. fs = range * (r - rmax) / (rmin - rmax) with
 * r = 1/sqrt(cwnd).  0 when cwnd = 0 (as htsim).  ns.
 */
u64 swift_fs_ns(const struct swift_law_cfg *c, u64 cwnd);

/* target(cwnd) = target_base + fs(cwnd), ns */
u64 swift_target_ns(const struct swift_law_cfg *c, u64 cwnd);

/* The cwnd may be cut now: at most once per RTT (now - t_last >= srtt). */
bool swift_can_decrease(const struct swift_law *l, u64 now_us, u32 srtt_us);

/*
 * One ACK with a delay sample (Algorithm 1): AI below target (+ai/cwnd per
 * packet acked, or +ai per packet acked below one packet), else MD by
 * max(1 - beta * (delay - target) / delay, 1 - max_mdf) at most once per
 * RTT.  @grow false suppresses AI (the flow is not cwnd-limited).  Resets
 * the consecutive-RTO count.  *target_ns receives the target used.
 */
enum swift_action swift_on_ack(struct swift_law *l, const struct swift_law_cfg *c,
			       u64 now_us, u32 srtt_us, u64 delay_ns,
			       u32 acked, bool grow, u64 *target_ns);

/* A SACK-detected loss (fast recovery): cwnd *= 1 - max_mdf, once per RTT. */
enum swift_action swift_on_fast_recovery(struct swift_law *l,
					 const struct swift_law_cfg *c,
					 u64 now_us, u32 srtt_us);

/* An RTO: cut by max_mdf once per RTT; min_cwnd after retx_reset of them. */
enum swift_action swift_on_rto(struct swift_law *l, const struct swift_law_cfg *c,
			       u64 now_us, u32 srtt_us);

/* Whole packets for snd_cwnd: max(1, floor(cwnd)), <= U32_MAX. */
u32 swift_cwnd_pkts(u64 cwnd);

/*
 * Pacing rate, bytes/s.  Below one packet Swift paces one packet every
 * rtt / cwnd ([S] 3.3): rate = cwnd * mss / srtt, @srtt_us being the path
 * RTT the caller chose (tcp_swift: srtt capped at max(target, last delay)
 * there).  At or above one packet the window is the limit and pacing only
 * smooths:
 * rate = pct/100 * cwnd * mss / srtt (pct 200 = Linux's default ratio).
 * @srtt_us 0 is treated as 1 us.
 */
u64 swift_pacing_rate(u64 cwnd, u32 mss, u32 srtt_us, u32 pct);

/*
 * MSwift's median window H = max(W/2, 1) ACKs (Eq. 8), W = cwnd in packets,
 * in ACKs of @spa_q8 segments each (EWMA of segments per ACK, Q8; spec
 * 8-B3), clamped to [1, cap].
 */
u16 swift_median_h(u64 cwnd, u32 spa_q8, u16 cap);

#endif /* _DCC_SWIFT_H */
