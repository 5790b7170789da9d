/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NSCC / MNSCC control law (UE Network Signal Congestion Control, and the
 * median-filtered variant of Gerstein et al.), as plain C shared by
 * tcp_nscc.ko, the userspace unit tests, the fuzzer and the bench.  Theory
 * and kernel glue: modules/nscc/tcp_nscc.c.
 *
 * One per-ACK entry point, nscc_on_ack(): it takes the neutral sample of
 * include/dcc/sample.h as it is (times in ns, "now" = the sample's rx_ns)
 * plus the few facts only the kernel knows (srtt, packets in flight,
 * cwnd-limited, CA_Loss) and returns the pacing rate and the window in
 * bytes (struct dcc_decision).  The configuration (struct nscc_cfg) is
 * resolved from the parameters once per socket and again only when one of
 * its inputs changes (base RTT, MSS, ECN): nscc_resolve() is not per ACK.
 *
 * Units and fixed-point scales, re-derived for 1 Mbit/s .. 800 Gbit/s
 * (rate <= 1e11 B/s < 2^37) and 1 us .. 1 s RTT:
 *   parameters: the sysfs units (us, %, ppm, x100), converted to ns and
 *             fixed point by nscc_resolve() only.
 *   durations (cfg): ns, u32.  base_ns, nrtt_ns, target_ns, fi_thresh_ns
 *             are clamped to [1 us, 1 s] (DCC_SAMPLE_RTT_MAX_NS: no RTT
 *             sample exceeds 1 s, so no delay reaches a longer target);
 *             the QA period base + target <= 2 s.  qa_thresh_ns and
 *             mark_ns are u64 (up to 100 x target = 100 s).
 *   delays:   ns, u32: RTT sample (<= 1e9 from dcc_sample_get(), any u32
 *             accepted) minus base_ns; the median window holds them too.
 *   clocks:   "now" is the sample's rx_ns (u64).  The per-socket stamps
 *             last_dec, last_adjust, qa_start keep its low 32 bits (the
 *             state must fit icsk_ca_priv) and are only ever read as an
 *             age, (u32)(now - stamp), compared with a period <= 2 s: exact
 *             while the age is < 2^32 ns = 4.29 s.  Every stamp is
 *             refreshed on the first ACK after its period ends (last_dec is
 *             pulled up to "one base RTT + 1 ns ago" each ACK once an MD is
 *             allowed again), so an age can only alias after more than
 *             4.29 s - 2 s = 2.29 s without any ACK (an RTO backoff); the
 *             worst case is then one QA window, eta or MD deferred by at
 *             most its period, after which the stamp is fresh again.
 *   cwnd:     bytes, u32.  Linux can never have more than sk_sndbuf
 *             (an int, < 2^31) bytes in flight, so a u32 window loses
 *             nothing; every update saturates at NSCC_CWND_MAX.
 *   avg_ns:   EWMA of the queueing delay, ns, u32 (<= the largest sample,
 *             < 2^32).  Step: |sample - avg| (< 2^32) * gain (<= 2^16)
 *             >> 16, < 2^48 in u64.  Resolution 1 ns; a step rounds to 0
 *             below 80 ns of difference at the default gain 819/65536.
 *   inc_acc:  increase credit in bytes^2 (u64, saturating): per-ACK credit
 *             sum(fi * b) or sum(alpha * (target - d) * b), divided by
 *             cwnd at "fulfill" (the fairness division, [N 3c]).
 *   alpha:    proportional gain, bytes per ns of (target - delay), Q40,
 *             u64: alpha = prop_gain * MSS_ref * rate / ref_bdp / 1e9.  At
 *             800 Gbit/s 10.9 B/ns * 2^40 < 2^44 (default gain 4), < 2^50
 *             (gain 100, the parameter's top); at 1 Mbit/s 1.37e-8 B/ns
 *             * 2^40 = 15011 (relative step 7e-5).  Per-ACK credit alpha
 *             (< 2^50) * (target - d) (< 2^30) * b (< 2^32) < 2^112 in 128
 *             bits, >> 40, saturated to u64.  Resolve: rate * gain *
 *             MSS_ref (< 2^37 * 2^14 * 2^12 = 2^63) * 2^40 / 1.5e16 in
 *             128 bits (dcc_mul_div).
 *   fi, eta:  bytes (u64; fi <= 5 * 4096 * scale_a < 2^44 at the range
 *             top: 800 Gbit/s * 1 s network RTT).
 *   fi_scale: fast-increase bytes per acked byte, Q16 (u64).
 *   gamma, md floor: Q16 (u32, <= 65536).
 *   EWMA:     gain per acked byte, Q48 (u64, < 2^54: delay_alpha *
 *             ref_bdp / MSS_ref < 36.7 over the network BDP >= 1 byte);
 *             an ACK's gain is bytes * that >> 32 (128-bit product),
 *             clamped to [1, 65536] in Q16.
 *   pacing:   cwnd (< 2^32) * gain_pct (<= 1000) * 1e9 / (srtt_ns * 100),
 *             128-bit product (dcc_mul_div), bytes/s.  Computed only when
 *             the decision changes (below); srtt_lo/srtt_span: the srtt
 *             band (ns, u64: the stack's srtt is us << 3, < 2^42 ns) in
 *             which the rate in force still stands.
 *
 * Decisions.  nscc_on_ack() reports a decision (dcc_decision.changed)
 * only when one may differ from the one in force: the window in bytes
 * moved (fulfill, fast increase, MD, QA, loss, a clamp, an RTO or undo
 * between ACKs), srtt left the band of the rate in force (NSCC_SRTT_FALL,
 * NSCC_SRTT_RISE), the socket is in CA_Loss (the conserved window follows
 * inflight every ACK) or just left it, or the caller marked the decision
 * stale (nscc_decision_stale(): config refreshed, the stack wrote
 * snd_cwnd).  Every other ACK only feeds the estimators and credit.
 *
 * Reference network [H initNsccParams]: 100 Gbit/s, 12 us, MSS_ref 4096,
 * MTU_ref 4160: ref_bdp = 150000 B.  Per-RTT steps are kept the same
 * fraction of the BDP as in htsim by deriving them from MSS_ref and
 * scale_a = network_bdp / ref_bdp, whatever the real MSS.
 */
#ifndef _DCC_NSCC_H
#define _DCC_NSCC_H

#include "fixp.h"
#include "sample.h"

#define NSCC_MSS_REF		4096u
#define NSCC_MTU_REF		4160u
#define NSCC_REF_BDP		150000u		/* 12.5 GB/s * 12 us */
#define NSCC_CWND_MAX		0xffffffffu
#define NSCC_MED_HMAX		4		/* [M] Eq. 9: H <= 4 (a power of 2) */

/*
 * The band of srtt around the one the rate in force was computed for in
 * which it still stands, as shifts of that srtt: a fall of more than 1/32
 * or a rise of more than 1/8 asks for a new decision.  The pacing rate is
 * a loose bound (pacing_gain_pct, 120% by default, of cwnd / srtt, srtt
 * capped at base RTT + target: the window binds): a falling srtt would
 * let it bind, so it follows within 3%; a rising one only loosens it (at
 * most +12.5% above the gain), and above the cap it moves nothing.
 */
#define NSCC_SRTT_FALL		5		/* srtt >> 5: 1/32 */
#define NSCC_SRTT_RISE		3		/* srtt >> 3: 1/8 */

/*
 * The module parameters, raw, as one snapshot (every socket keeps the
 * snapshot that was current at its init).  Percentages, ppm and x100 are
 * the units the parameters are written in; defaults in nscc_law.c.
 */
struct nscc_params {
	u32 nic_mbps;		/* host link rate; 0 = the caller's (the
				 * egress NIC's), else NSCC_NIC_REF_MBPS
				 */
	u32 network_rtt_us;	/* 0 = the flow's base RTT */
	u32 target_us;		/* 0 = target_pct of the network RTT */
	u32 target_pct;
	u32 prop_gain_x100;	/* alpha multiplier: 4 [H] */
	u32 fi_x100;		/* fair increase, MSS_ref per RTT: 5 */
	u32 eta_x100;		/* eta, MSS_ref per network RTT: 0.15 */
	u32 fi_scale_x100;	/* fast increase per acked byte: 0.25 */
	u32 fi_thresh_us;	/* 0 = 1 us * network_rtt / 12 us ([H]: 1 us) */
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
	u32 ecn_backstop_mode;	/* enum nscc_backstop_mode */
	u32 median_hmax;	/* MNSCC: max window H (Eq. 9: 4) */
	u32 median_ewma;	/* MNSCC: feed the EWMA the median (option) */
	u32 median_lower;	/* MNSCC: even H takes the lower median */
	u32 cwnd_limited_only;	/* increase only when cwnd-limited */
	u32 pacing_gain_pct;	/* kernel glue: pacing = gain cwnd / srtt */
};

extern const struct nscc_params nscc_params_default;

/*
 * When the ECN backstop (ecn_backstop_pct) marks, on a flow that
 * negotiated ECN.  UE's NSCC takes its marks from the network alone (the
 * default), and a path that never marks leaves it no decrease but a
 * loss's; mode 1 keeps the backstop until the path has marked once (the
 * flow's first CE echo), from when on the marks are the network's, as in
 * UE: the setting for a network that may not mark.
 */
enum nscc_backstop_mode {
	NSCC_BACKSTOP_OFF = 0,		/* never: UE (default) */
	NSCC_BACKSTOP_UNTIL_CE = 1,	/* until the first CE echo */
	NSCC_BACKSTOP_ALWAYS = 2,	/* on every ACK, CE seen or not */
};

/*
 * Everything one ACK's law needs, resolved from a parameter snapshot by
 * nscc_resolve() once per socket and again when base RTT, MSS or ECN
 * change.  Times in ns.
 */
struct nscc_cfg {
	u64 rate_bytes_ps;	/* nic rate, bytes/s */
	u64 alpha_q40;		/* bytes per ns of (target - d), Q40 */
	u64 fi;			/* bytes per RTT */
	u64 eta;		/* bytes per network RTT */
	u64 fi_scale_q16;	/* bytes per acked byte, Q16 */
	u64 qa_thresh_ns;	/* QA delay test */
	u64 mark_ns;		/* delay that counts as a mark (U64_MAX: none) */
	u64 ewma_pb_q48;	/* delay EWMA gain per acked byte, Q48 */
	u64 emerg_pb_q48;	/* the emergency branch's, Q48 */
	u64 med_full_cwnd;	/* MNSCC: cwnd from which H = hmax, bytes */
	u32 maxwnd;		/* bytes */
	u32 min_cwnd;		/* bytes */
	u32 init_cwnd;		/* bytes */
	u32 mss;		/* bytes: one ACK's worth with per-packet ACKs */
	u32 base_ns;		/* this flow's base RTT */
	u32 nrtt_ns;		/* network RTT (scaling, adjust period) */
	u32 target_ns;
	u32 fi_thresh_ns;
	u32 qa_ns;		/* QA period: base_ns + target_ns (<= 2 s) */
	u32 emerg_ns;		/* EWMA emergency: min(5 base_ns, U32_MAX) */
	u32 untrusted_ns;	/* EWMA input for an untrusted delay: base / 4 */
	u32 fulfill_bytes;
	u32 gamma_q16;
	u32 floor_q16;
	u32 pacing_gain_pct;	/* pacing = gain * cwnd / srtt */
	u8 qa_gate;
	u8 mark_disarm;		/* state flags that end delay marks: SAW_CE */
	u8 hmax;		/* 0 = NSCC; 1..4 = MNSCC median window cap */
	bool median_ewma;
	bool median_lower;
	bool cwnd_limited_only;
};

/*
 * Resolve @p for a flow with base RTT @base_ns (0: unknown, 1 ms is used;
 * clamped to 1 s), MSS @mss, @ecn negotiated or not, @mnscc variant.  A
 * handful of 128-bit mul/div: call it at socket init and when an input
 * changes, never per ACK.
 */
void nscc_resolve(const struct nscc_params *p, u64 base_ns, u32 mss,
		  bool ecn, bool mnscc, struct nscc_cfg *c);

/* UE's reference NIC, 100 Gbit/s: the host link rate when none is known */
#define NSCC_NIC_REF_MBPS	100000U

/*
 * nscc_resolve() for a host link of @nic_mbps (the egress NIC's link
 * speed; 0: unknown) where @p leaves it open (p->nic_mbps = 0): the rate
 * is p->nic_mbps if set, else @nic_mbps, else NSCC_NIC_REF_MBPS.
 */
void nscc_resolve_nic(const struct nscc_params *p, u32 nic_mbps, u64 base_ns,
		      u32 mss, bool ecn, bool mnscc, struct nscc_cfg *c);

/* Law state flags */
#define NSCC_S_INCREASE		0x01	/* fast-increase latch */
#define NSCC_S_TRIGGER_QA	0x02	/* a loss asked for a QA check */
#define NSCC_S_QA_ARMED		0x04	/* qa_end is meaningful */
#define NSCC_S_INITED		0x08
#define NSCC_S_SAW_CE		0x10	/* a CE echo came: the path marks */

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

/*
 * Per-socket law state: 88 bytes (the kernel adds 16 around it).  MNSCC's
 * window of raw delays is a ring of NSCC_MED_HMAX samples: med_n newest
 * ones held, the next written at med_pos & (NSCC_MED_HMAX - 1) (nscc_law.c).
 */
struct nscc_state {
	u64 inc_acc;		/* increase credit, bytes^2 */
	u64 srtt_lo;		/* ns: the rate in force stands for srtt in */
	u64 srtt_span;		/* [srtt_lo, srtt_lo + srtt_span] */
	u32 cwnd;		/* bytes */
	u32 dec_cwnd;		/* cwnd of the decision in force; 0 = stale */
	u32 avg_ns;		/* EWMA of queueing delay, ns */
	u32 received;		/* bytes since the last fulfill */
	u32 achieved;		/* bytes in the current QA window */
	u32 fi_count;		/* bytes acked at near-zero delay */
	u32 ignore_left;	/* bytes_to_ignore - bytes_ignored (post-QA) */
	u32 last_dec;		/* ns, low 32 bits: last MD */
	u32 last_adjust;	/* ns, low 32 bits: last eta */
	u32 qa_start;		/* ns, low 32 bits: start of the QA window */
	u32 med[NSCC_MED_HMAX];	/* MNSCC: ring of raw queueing delays, ns */
	u8 med_n;		/* samples in the median window, <= H */
	u8 med_pos;		/* ring slot of the next sample (mod 4) */
	u8 flags;		/* NSCC_S_* */
	u8 quadrant;		/* last decision (enum nscc_quadrant) */
	u8 glue;		/* owned by the caller (kernel flags) */
};

/* What the ACK did (tracepoint / unit tests). */
struct nscc_out {
	u32 delay_ns;		/* decision delay (raw, median or avg) */
	u32 raw_ns;		/* raw queueing delay, 0 if invalid */
	u8 quadrant;		/* enum nscc_quadrant */
	bool md;		/* a multiplicative decrease was applied */
	bool qa;		/* quick adapt fired */
	bool fulfill;		/* credit was applied */
	bool mark;		/* ce, or a delay-derived mark */
};

void nscc_state_init(struct nscc_state *st, const struct nscc_cfg *c,
		     u64 now_ns);

/*
 * The per-ACK law.  @s: the sample, with s->ce the packets this ACK
 * delivered CE-echoed (the ECN "skip" bit is s->ce != 0), s->losses the
 * packets it marked lost, s->why == 0 for a usable RTT.  Kernel facts:
 * @srtt_ns (0: base RTT), @inflight_pkts (packets in flight after the
 * ACK), @cwnd_limited, @in_loss (CA_Loss: packet conservation after an
 * RTO).  Updates @st; @o gets what the ACK did.  @d: changed = false when
 * the decision in force stands (most ACKs; rate and window are then not
 * set), else changed = true with the pacing rate and the window in bytes,
 * which become the decision in force.
 */
void nscc_on_ack(struct nscc_state *st, const struct nscc_cfg *c,
		 const struct dcc_sample *s, u64 srtt_ns, u32 inflight_pkts,
		 bool cwnd_limited, bool in_loss, struct dcc_decision *d,
		 struct nscc_out *o);

/*
 * Pacing rate and window for the current state, always filled (socket
 * init, and a caller that lost track): they become the decision in force.
 */
void nscc_decide(struct nscc_state *st, const struct nscc_cfg *c,
		 u64 srtt_ns, struct dcc_decision *d);

/*
 * The decision in force no longer holds on the socket (the caller resolved
 * a new config, or the stack wrote snd_cwnd itself): the next ACK decides
 * again.  No window is 0 bytes (cwnd >= min_cwnd >= 2).
 */
static inline void nscc_decision_stale(struct nscc_state *st)
{
	st->dec_cwnd = 0;
}

/* RTO (CA_EVENT_LOSS): cwnd -= one packet [H]. */
void nscc_on_rto(struct nscc_state *st, const struct nscc_cfg *c, u32 mss);

/* Restart after idle (CA_EVENT_TX_START): no QA or eta across the gap. */
void nscc_on_idle_restart(struct nscc_state *st, u64 now_ns);

/* Kept fraction of the MD at filtered delay @avg_ns, Q16 (unit tests). */
u32 nscc_md_keep_q16(const struct nscc_cfg *c, u32 avg_ns);

/* MNSCC window H for @cwnd bytes: max(min(W/2, hmax), 1), W = cwnd / mss. */
u16 nscc_median_h(const struct nscc_cfg *c, u32 cwnd);

static inline u32 nscc_avg_ns(const struct nscc_state *st)
{
	return st->avg_ns;
}

#endif /* _DCC_NSCC_H */
