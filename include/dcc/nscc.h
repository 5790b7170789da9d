/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NSCC / MNSCC control law (UE Network Signal Congestion Control, and the
 * median-filtered variant of Gerstein et al.), as plain C shared by
 * tcp_nscc.ko and the userspace unit tests.  Theory and kernel glue:
 * modules/nscc/tcp_nscc.c; spec: shared/spec/nscc.md.
 *
 * Units and fixed-point scales (ranges: 1 Mbit/s .. 800 Gbit/s, 1 us .. 1 s):
 *   times:    us.  Per-socket timestamps are the low 32 bits of the
 *             tcp_mstamp clock, compared wrap-safe with (s32)(a - b)
 *             (valid for gaps < 35 min).  Delays, targets <= 1e6 (< 2^20).
 *   cwnd:     bytes, u32.  Linux can never have more than sk_sndbuf
 *             (an int, < 2^31) bytes in flight, so a u32 window loses
 *             nothing; every update saturates at NSCC_CWND_MAX.
 *   avg_q8:   filtered queueing delay, us * 256 (Q24.8), <= 2^28.
 *   inc_acc:  increase credit in bytes^2 (u64, saturating): per-ACK credit
 *             sum(fi * b) or sum(alpha * (target - d) * b), divided by
 *             cwnd at "fulfill" (the fairness division, [N 3c]).
 *   alpha:    proportional gain, bytes per us of (target - delay), Q24,
 *             u64: alpha = prop_gain * MSS_ref * rate / ref_bdp; at
 *             800 Gbit/s 1.1e4 * 2^24 < 2^38, at 1 Mbit/s 0.0137 * 2^24
 *             = 229k (enough precision).
 *   fi, eta:  bytes (u64; fi <= 5 * 4096 * scale_a < 2^44 at the range
 *             top: 800 Gbit/s * 1 s network RTT).
 *   fi_scale: fast-increase bytes per acked byte, Q16 (u64).
 *   gamma, md floor, EWMA gains: Q16 (u32, <= 65536).
 *
 * Reference network [H initNsccParams]: 100 Gbit/s, 12 us, MSS_ref 4096,
 * MTU_ref 4160: ref_bdp = 150000 B.  Per-RTT steps are kept the same
 * fraction of the BDP as in htsim by deriving them from MSS_ref and
 * scale_a = network_bdp / ref_bdp, whatever the real MSS (spec 5).
 */
#ifndef _DCC_NSCC_H
#define _DCC_NSCC_H

#include "fixp.h"
#include "median.h"

#define NSCC_MSS_REF		4096u
#define NSCC_MTU_REF		4160u
#define NSCC_REF_BDP		150000u		/* 12.5 GB/s * 12 us */
#define NSCC_CWND_MAX		0xffffffffu
#define NSCC_MED_HMAX		4		/* [M] Eq. 9: H <= 4 */

/*
 * The module parameters, raw, as one snapshot (every socket keeps the
 * snapshot that was current at its init).  Percentages, ppm and x100 are
 * the units the parameters are written in; defaults in nscc_law.c.
 */
struct nscc_params {
	u32 nic_mbps;		/* host link rate */
	u32 network_rtt_us;	/* 0 = the flow's base RTT */
	u32 target_us;		/* 0 = target_pct of the network RTT */
	u32 target_pct;
	u32 prop_gain_x100;	/* alpha multiplier: 4 [H] */
	u32 fi_x100;		/* fair increase, MSS_ref per RTT: 5 */
	u32 eta_x100;		/* eta, MSS_ref per network RTT: 0.15 */
	u32 fi_scale_x100;	/* fast increase per acked byte: 0.25 */
	u32 fi_thresh_us;	/* 0 = 1 us * network_rtt / 12 us (A8) */
	u32 gamma_pct;		/* MD gain: 0.8 */
	u32 md_floor_pct;	/* MD keeps at least this: 0.5 */
	u32 delay_alpha_ppm;	/* EWMA gain: 0.0125 */
	u32 qa_gate;		/* QA if achieved < maxwnd >> qa_gate: 3 */
	u32 qa_thresh_pct;	/* QA delay test, % of target: 400 */
	u32 fulfill_bytes;	/* 8 * MTU_ref = 33280 */
	u32 maxwnd_pct;		/* maxwnd = 1.5 BDP */
	u32 init_cwnd_pct;	/* initial cwnd, % of maxwnd; 0 = IW10 */
	u32 noecn_mark_pct;	/* ECN off: delay >= this % of target marks */
	u32 ecn_backstop_pct;	/* ECN on: delay >= this % of target marks */
	u32 median_hmax;	/* MNSCC: max window H (Eq. 9: 4) */
	u32 median_ewma;	/* MNSCC: feed the EWMA the median (A1) */
	u32 median_lower;	/* MNSCC: even H takes the lower median (A2) */
	u32 cwnd_limited_only;	/* increase only when cwnd-limited (A15) */
	u32 pacing_gain_pct;	/* kernel glue: pacing = gain cwnd / srtt */
};

extern const struct nscc_params nscc_params_default;

/* Everything one ACK's law needs, resolved from a snapshot (nscc_resolve). */
struct nscc_cfg {
	u64 rate_bytes_ps;		/* nic rate, bytes/s */
	u64 alpha_q24;		/* bytes per us of (target - d), Q24 */
	u64 fi;			/* bytes per RTT */
	u64 eta;		/* bytes per network RTT */
	u64 fi_scale_q16;	/* bytes per acked byte, Q16 */
	u32 maxwnd;		/* bytes */
	u32 min_cwnd;		/* bytes */
	u32 init_cwnd;		/* bytes */
	u32 mss;		/* bytes: one ACK's worth with per-packet ACKs */
	u32 base_us;		/* this flow's base RTT */
	u32 nrtt_us;		/* network RTT (scaling, adjust period) */
	u32 target_us;
	u32 fi_thresh_us;
	u32 qa_thresh_us;
	u32 fulfill_bytes;
	u32 mark_us;		/* delay that counts as a mark (0 = none) */
	u32 gamma_q16;
	u32 floor_q16;
	u32 ewma_q16;
	u8 qa_gate;
	u8 hmax;		/* 0 = NSCC; 1..4 = MNSCC median window cap */
	bool median_ewma;
	bool median_lower;
	bool cwnd_limited_only;
};

/*
 * Resolve @p for a flow with base RTT @base_us (0: unknown, 1 ms is used),
 * MSS @mss, @ecn negotiated or not, @mnscc variant.  Cheap (a few 128-bit
 * mul/div): the kernel calls it once per ACK so that a falling base RTT
 * takes effect at once (spec 2.1).
 */
void nscc_resolve(const struct nscc_params *p, u32 base_us, u32 mss,
		  bool ecn, bool mnscc, struct nscc_cfg *c);

/* Law state flags */
#define NSCC_S_INCREASE		0x01	/* fast-increase latch */
#define NSCC_S_TRIGGER_QA	0x02	/* a loss asked for a QA check */
#define NSCC_S_QA_ARMED		0x04	/* qa_end is meaningful */
#define NSCC_S_INITED		0x08

/* The four quadrants [N 2], plus what else a decision can be. */
enum nscc_quadrant {
	NSCC_Q_PROP = 0,	/* low delay, no ECN: proportional increase */
	NSCC_Q_FAIR = 1,	/* high delay, no ECN: fair increase */
	NSCC_Q_MD = 2,		/* high delay, ECN: multiplicative decrease */
	NSCC_Q_STEER = 3,	/* low delay, ECN: no change (steer only) */
	NSCC_Q_QA = 4,		/* quick adapt fired */
	NSCC_Q_IGNORED = 5,	/* stale ECN after a QA: ignored */
	NSCC_Q_LOSS = 6,	/* loss: cwnd -= lost bytes */
};

/* Per-socket law state: 88 bytes (the kernel adds 16 around it). */
struct nscc_state {
	u64 inc_acc;		/* increase credit, bytes^2 */
	u32 cwnd;		/* bytes */
	u32 avg_q8;		/* EWMA of queueing delay, us Q8 */
	u32 received;		/* bytes since the last fulfill */
	u32 achieved;		/* bytes in the current QA window */
	u32 fi_count;		/* bytes acked at near-zero delay */
	u32 ignore_left;	/* bytes_to_ignore - bytes_ignored (post-QA) */
	u32 last_dec;		/* us: last MD */
	u32 last_adjust;	/* us: last eta */
	u32 qa_end;		/* us: end of the QA window */
	u8 flags;		/* NSCC_S_* */
	u8 quadrant;		/* last decision (enum nscc_quadrant) */
	u8 glue;		/* owned by the caller (kernel flags) */
	u8 pad;
	struct dcc_med4 med;	/* MNSCC: last H queueing delays, us */
};

/* One ACK, as the law wants it. */
struct nscc_ack {
	u32 now_us;
	u32 acked_bytes;	/* newly delivered (incl. SACKed) bytes */
	u32 rtt_us;		/* raw RTT sample (if rtt_valid) */
	u32 inflight_bytes;
	u32 lost_bytes;		/* marked lost on this ACK */
	u32 lost_pkts;
	bool rtt_valid;
	bool ce;		/* ECN echo ("skip") for this ACK */
	bool cwnd_limited;
};

/* What the ACK did (tracepoint / unit tests). */
struct nscc_out {
	u32 delay_us;		/* decision delay (raw, median or avg) */
	u32 raw_us;		/* raw queueing delay, 0 if invalid */
	u8 quadrant;		/* enum nscc_quadrant */
	bool md;		/* a multiplicative decrease was applied */
	bool qa;		/* quick adapt fired */
	bool fulfill;		/* credit was applied */
	bool mark;		/* ce, or a delay-derived mark */
};

void nscc_state_init(struct nscc_state *s, const struct nscc_cfg *c,
		     u32 now_us);

/* Per-ACK law: updates @s (cwnd in s->cwnd), reports in @o. */
void nscc_on_ack(struct nscc_state *s, const struct nscc_cfg *c,
		 const struct nscc_ack *a, struct nscc_out *o);

/* RTO (CA_EVENT_LOSS): cwnd -= one packet [H]. */
void nscc_on_rto(struct nscc_state *s, const struct nscc_cfg *c, u32 mss);

/* Restart after idle (CA_EVENT_TX_START): no QA or eta across the gap. */
void nscc_on_idle_restart(struct nscc_state *s, u32 now_us);

/* Kept fraction of the MD at filtered delay @avg_us, Q16 (unit tests). */
u32 nscc_md_keep_q16(const struct nscc_cfg *c, u32 avg_us);

/* MNSCC window H for @cwnd bytes: max(min(W/2, hmax), 1), W = cwnd / mss. */
u16 nscc_median_h(const struct nscc_cfg *c, u32 cwnd);

static inline u32 nscc_avg_us(const struct nscc_state *s)
{
	return s->avg_q8 >> 8;
}

#endif /* _DCC_NSCC_H */
