// SPDX-License-Identifier: GPL-2.0
/*
 * Swift (Kumar et al., "Swift: Delay is Simple and Effective for Congestion
 * Control in the Datacenter", SIGCOMM'20) and its spraying-robust variants
 * LSwift and MSwift (Gerstein, Silberstein, Keslassy, "Congestion Control
 * for Spraying with Congested Paths"), for Linux as tcp_congestion_ops
 * "swift", "lswift" and "mswift", from one code base (one module; the
 * other names are module aliases, so `modprobe tcp_mswift` works).
 *
 * Theory.  Swift keeps the end-to-end delay near a target with AIMD on a
 * window that may be fractional:
 *
 *	target = base_target + hops * h + fs(cwnd)
 *	fs(cwnd) = clamp(alpha / sqrt(cwnd) + beta, 0, fs_range)
 *	delay <  target:  cwnd += ai / cwnd per packet acked    (+ai per RTT)
 *			  (cwnd < 1: cwnd += ai per packet acked)
 *	delay >= target:  cwnd *= max(1 - beta_md * (delay - target) / delay,
 *				      1 - max_mdf), at most once per RTT
 *	SACK-detected loss (fast recovery): cwnd *= 1 - max_mdf, once per RTT
 *	RTO: cwnd *= 1 - max_mdf; retx_reset consecutive RTOs: cwnd = min_cwnd
 *
 * The flow-scaling term fs grows the target as 1/sqrt(cwnd): many flows
 * with small windows settle at a somewhat larger queue, which is what keeps
 * an N-flow incast fair and stable (with N flows of window w sharing a
 * queue, each flow's target rises as its share shrinks).  Below one packet
 * the window is enforced by pacing: one packet every rtt / cwnd.
 *
 * Under packet spraying a fraction q of a flow's packets crosses congested
 * paths.  Swift reacts to the latest ACK, so every slow-path ACK (and every
 * SACK hole its late arrival makes) is a congestion signal: the window
 * collapses as Theta(1/sqrt(q)) (M: Thm 3, Thm 5).  MSwift feeds the very
 * same law the median of the last H delays instead, H = max(W/2, 1) ACKs
 * (Eq. 8: the Nyquist rate of Swift's +1 packet per RTT), so as long as
 * q < 1/3 the uncongested majority decides (Thm 6); and, like LSwift, it
 * cuts on a SACK-detected loss only when lswift_k successive packets are
 * missing, and takes the cut back when Linux proves it spurious (undo).
 *
 * Paper symbol -> field (per socket, struct swift):
 *	cwnd, t_last_decrease, retransmit_cnt	law.cwnd (Q16), .t_last_decrease,
 *						.retx_cnt (struct swift_law)
 *	base_target, hops * h			base_us (+ tcp_min_rtt in relative mode)
 *	fs_range, fs_min_cwnd, fs_max_cwnd	fs_range_us, fs_rmin, fs_rmax (1/sqrt, Q24)
 *	ai, beta, max_mdf			ai_mpkt, beta_pm, max_mdf_pm
 *	min_cwnd, RETX_RESET_THRESHOLD		min_cwnd_mpkt, retx_reset
 *	H (MSwift), its cap			swift_median_h(), h_cap; med (dcc_medbuf)
 *	LSwift's "5 successive delayed pkts"	lswift_k
 *	delay					dcc_sample.rtt_us (rs->rtt_us)
 *
 * What the papers leave open, and what this does (spec swift.md section 8):
 *  - target: Swift's absolute target assumes NIC timestamps; with software
 *    timestamps the unloaded RTT is a host property, so the default
 *    target_mode 0 (relative) uses target = tcp_min_rtt + base_target +
 *    hops * hop_us + fs (spec 6.5); target_mode 1 is [S]'s absolute target.
 *  - hops: a CC callback cannot see the ACK's TTL ([S] derives the hop
 *    count from it), so hops is a module parameter (fabric diameter),
 *    default 0: the per-hop term is off unless the operator sets it.
 *  - the SACK-hole cut: applied on every ACK on which Linux marks packets
 *    lost (rs->losses > 0, i.e. SACK/RACK loss detection, the analogue of a
 *    hole in Swift's SACK bitmap), outside the Loss state, subject to the
 *    once-per-RTT guard ([H] applies it per recovery episode).  Swift has no
 *    undo ([S], [H]): undo_cwnd keeps the cut.  LSwift/MSwift: the cut
 *    needs lswift_k successive missing segments at snd_una (our reading of
 *    LTCP-U's "successive delayed packets"; a count of ACKs, as spec 4.2
 *    proposes, would pass for any single packet delayed by more than five
 *    ACK times, which is every slow-path packet), and undo_cwnd restores
 *    the window when DSACK/timestamps prove the loss spurious.
 *  - RTO: every expiry of the retransmission timer calls set_state(Loss)
 *    (tcp_enter_loss), while CA_EVENT_LOSS and ssthresh come only once per
 *    loss episode; so set_state(Loss) is Swift's "retransmit timeout", and
 *    the count of consecutive RTOs resets on the next ACK with a delay
 *    sample.  The stack then sets cwnd = inflight + 1 for the retransmit;
 *    the cut window takes over on the next ACK, its pacing rate at once.
 *  - the median window (spec 8-B3): H in ACKs of segs_per_ack segments
 *    each (EWMA), capped at h_cap, kept by dcc_lib's dcc_medbuf (GFP_NOWAIT
 *    buffer; on allocation failure a 3-sample window, counted in the
 *    read-only parameter medbuf_fallbacks).  Staleness ([M] III-A: ignore
 *    samples older than 1-2 RTTs): the window is emptied when no sample
 *    arrived for 2 srtt, after an RTO and on restart after idle -- the
 *    helper keeps no per-sample timestamps, and a flow that keeps sending
 *    refills H samples within half an RTT.  Even H: mean of the two middle
 *    samples; the median drives both the AI/MD test and the MD magnitude.
 *  - no sample on an ACK (Karn, delayed ACK): no AI/MD on it.
 *  - AI only while the flow is cwnd-limited (an idle application is not an
 *    invitation to grow the window without bound).
 *  - pacing at >= 1 packet: pacing_pct (default 200%, Linux's own ratio)
 *    of cwnd / srtt, so the window, not the pacer, is the limit as in [S].
 *  - pacing below one packet: [S]'s rtt / cwnd with rtt = srtt capped at
 *    max(target, last delay sample), not srtt alone: the ACK that ends a
 *    blackhole feeds srtt a timestamp RTT of up to the last RTO interval
 *    (198 ms for a 200 us path in test_swift_rto), which at min_cwnd
 *    meant 7 B/s; the law's delay samples are Karn-clean and never see it.
 *  - the stack's pacing stamp (tcp_wstamp_ns) only moves forward, so a
 *    packet sent at a sub-packet rate would hold the flow for that whole
 *    interval after an ACK has raised the window (before this bound: 207 s,
 *    nothing in flight, the closed socket stuck in LAST-ACK).  Every ACK
 *    keeps the stamp within one window at the current rate.
 *  - no slow start: Swift starts at init_cwnd and adds ai per RTT ([M]
 *    starts at the ideal window; set init_cwnd to the BDP to do the same).
 *  - fs_min_cwnd >= fs_max_cwnd (cross-parameter, not refusable one write
 *    at a time) disables flow scaling for the sockets that snapshot it.
 *  - max_cwnd: the socket's snd_cwnd_clamp (route / sysctl), at most 2^30.
 *  - ecwnd (endpoint congestion) is not implemented: TCP does not carry the
 *    remote NIC timestamps it needs.
 *
 * State: 104 bytes in icsk_ca_priv (BUILD_BUG_ON'd) plus, for mswift, the
 * median buffer of 8 * h_cap bytes from dcc_medbuf, acquired by init and
 * freed by release (dcc.h: lifecycle; hooks before init leave the state
 * alone).  Nothing sleeps.
 */
#include <linux/module.h>
#include <net/tcp.h>
#include <linux/inet_diag.h>
#include "dcc/dcc.h"
#include "dcc/swift.h"

#define CREATE_TRACE_POINTS
#include "swift_trace.h"

/* ---- tunables (validated; snapshotted per socket in swift_init) ------- */

static u32 base_target_us = 25;	/* queueing allowance (relative mode) */
static u32 target_mode;			/* 0 relative, 1 absolute ([S]) */
static u32 hops;			/* topology term off by default */
static u32 hop_us = 4;			/* h = base_target / 6.55 ([H]) */
static u32 fs_range_us = 125;		/* 5 * base_target ([H]) */
static u32 fs_min_cwnd_mpkt = 100;	/* 0.1 packet ([H]) */
static u32 fs_max_cwnd = 100;		/* packets ([H]); ~ the BDP */
static u32 ai_mpkt = 1000;		/* 1 packet per RTT ([M] III-C) */
static u32 beta_pm = 800;		/* 0.8 ([H]) */
static u32 max_mdf_pm = 500;		/* 0.5 ([H]) */
static u32 min_cwnd_mpkt = 1;		/* 0.001 packet ([S]) */
static u32 init_cwnd = 10;		/* packets (Linux IW) */
static u32 retx_reset = 5;		/* RETX_RESET_THRESHOLD ([H]) */
static u32 lswift_k = 5;		/* successive missing pkts ([M] III-B) */
static u32 h_cap = 128;			/* MSwift window cap (spec 8-B3) */
static u32 pctl = 50;			/* 50 = median; 10/90: [M] Fig. 12 */
static u32 pacing_pct = 200;		/* pacing at >= 1 packet, % of cwnd/srtt */

dcc_param_range(base_target_us, base_target_us, 1, 1000000, 0644,
		"target delay in us: above the min RTT (target_mode 0) or absolute (1)");
dcc_param_range(target_mode, target_mode, 0, 1, 0644,
		"0 = target relative to tcp_min_rtt, 1 = absolute target as in Swift");
dcc_param_range(hops, hops, 0, 255, 0644,
		"hop count for the topology-scaling term (CC cannot see the TTL)");
dcc_param_range(hop_us, hop_us, 0, 100000, 0644,
		"per-hop target increment h in us");
dcc_param_range(fs_range_us, fs_range_us, 0, 1000000, 0644,
		"flow-scaling range in us (0 = no flow scaling)");
dcc_param_range(fs_min_cwnd_mpkt, fs_min_cwnd_mpkt, 1, 65535, 0644,
		"cwnd at which flow scaling reaches fs_range, milli-packets");
dcc_param_range(fs_max_cwnd, fs_max_cwnd, 1, 1000000000, 0644,
		"cwnd at and above which flow scaling is 0, packets");
dcc_param_range(ai_mpkt, ai_mpkt, 1, 65535, 0644,
		"additive increment ai per RTT, milli-packets");
dcc_param_range(beta_pm, beta_pm, 0, 1000, 0644,
		"multiplicative-decrease gain beta, per mille");
dcc_param_range(max_mdf_pm, max_mdf_pm, 1, 1000, 0644,
		"largest multiplicative decrease max_mdf, per mille");
dcc_param_range(min_cwnd_mpkt, min_cwnd_mpkt, 1, 65535, 0644,
		"smallest cwnd, milli-packets (below 1000 the pacer enforces it)");
dcc_param_range(init_cwnd, init_cwnd, 1, 65535, 0644,
		"initial cwnd, packets");
dcc_param_range(retx_reset, retx_reset, 1, 255, 0644,
		"consecutive RTOs after which cwnd = min_cwnd");
dcc_param_range(lswift_k, lswift_k, 1, 255, 0644,
		"lswift/mswift: successive missing segments for a fast-recovery cut");
dcc_param_range(h_cap, h_cap, 1, 1024, 0644,
		"mswift: cap of the median window H = max(W/2, 1), ACKs");
dcc_param_range(pctl, pctl, 0, 100, 0644,
		"mswift: percentile of the window's delays (50 = median)");
dcc_param_range(pacing_pct, pacing_pct, 100, 1000, 0644,
		"pacing rate at cwnd >= 1 packet, % of cwnd * mss / srtt");

/* mswift sockets whose median buffer allocation failed (3-sample window) */
static atomic_t medbuf_fallbacks = ATOMIC_INIT(0);
dcc_param_counter(medbuf_fallbacks, medbuf_fallbacks,
		  "mswift sockets started on the 3-sample fallback window");

/* ---- per-socket state: 104 bytes, BUILD_BUG_ON'd ---------------------- */

enum swift_variant { SWIFT_V_SWIFT = 0, SWIFT_V_LSWIFT = 1, SWIFT_V_MSWIFT = 2 };

#define SWIFT_F_INITED	0x1
#define SWIFT_F_ABS	0x2	/* absolute target (target_mode 1) */
#define SWIFT_F_LAZY	0x4	/* LSwift gate + undo (lswift, mswift) */
#define SWIFT_F_MEDIAN	0x8	/* median-filtered delay (mswift) */

struct swift {
	struct swift_law law;	/* cwnd Q16, once-per-RTT guard (16 B) */
	struct dcc_medbuf med;	/* mswift window (40 B; zero otherwise) */
	u32 prior_cwnd;		/* packets, for undo_cwnd */
	u32 base_us;		/* base_target + hops * hop_us (snapshot) */
	u32 fs_range_us;	/* snapshot */
	u32 fs_rmin;		/* 1/sqrt(fs_min_cwnd), Q24 (<= 2^30) */
	u32 fs_rmax;		/* 1/sqrt(fs_max_cwnd), Q24 */
	u32 last_delay_us;	/* delay the law used last (median for mswift) */
	u32 last_push_us;	/* low 32 bits of the clock at the last sample */
	u16 ai_mpkt;		/* snapshots ... */
	u16 min_cwnd_mpkt;
	u16 beta_pm;
	u16 max_mdf_pm;
	u16 h_cap;
	u16 spa_q8;		/* EWMA of segments per ACK, Q8 (256 = 1) */
	u16 pacing_pct;
	u8 retx_reset;
	u8 lswift_k;
	u8 pctl;
	u8 variant;		/* enum swift_variant */
	u8 flags;		/* SWIFT_F_* */
	u8 pad;
};

static u8 swift_variant_of(const struct sock *sk);

/* Resolve the law's inputs for this socket from its snapshot. */
static void swift_cfg(const struct sock *sk, const struct swift *ca,
		      struct swift_law_cfg *c)
{
	u64 base = ca->base_us;

	if (!(ca->flags & SWIFT_F_ABS))
		base += dcc_base_rtt_us(sk, 0);	/* 0 before any RTT sample */
	*c = (struct swift_law_cfg){
		.target_base_ns = base * NSEC_PER_USEC,
		.fs_range_ns = (u64)ca->fs_range_us * NSEC_PER_USEC,
		.fs_rmin = ca->fs_rmin,
		.fs_rmax = ca->fs_rmax,
		.min_cwnd = SWIFT_MPKT_TO_Q16(ca->min_cwnd_mpkt),
		.max_cwnd = min_t(u64, (u64)tcp_sk(sk)->snd_cwnd_clamp << SWIFT_SHIFT,
				  SWIFT_CWND_MAX),
		.ai = (u32)(((u64)ca->ai_mpkt << SWIFT_SHIFT) / 1000),
		.beta = SWIFT_PM_TO_Q16(ca->beta_pm),
		.max_mdf = SWIFT_PM_TO_Q16(ca->max_mdf_pm),
		.retx_reset = ca->retx_reset,
	};
	c->max_cwnd = max(c->max_cwnd, c->min_cwnd);
}

/* srtt in us; 1 ms before the first sample (as tcp_bbr's initial pacing) */
static u32 swift_srtt_us(const struct sock *sk)
{
	u32 srtt = tcp_sk(sk)->srtt_us >> 3;

	return srtt ? srtt : USEC_PER_MSEC;
}

/* target at the current window, us (get_info, loss-event traces, pacing) */
static u32 swift_target_us(const struct sock *sk, const struct swift *ca)
{
	struct swift_law_cfg c;

	swift_cfg(sk, ca, &c);
	return (u32)min_t(u64, div_u64(swift_target_ns(&c, ca->law.cwnd),
				       NSEC_PER_USEC), U32_MAX);
}

/*
 * The pacing rate from the Q16 window.  Below one packet the pacer is the
 * window: one packet per rtt / cwnd ([S] 3.3), the rtt being the path's.
 * srtt is not always that: the ACK that ends a blackhole acknowledges
 * retransmitted data, has no delay sample (Karn), but its timestamp echo
 * still feeds srtt the time since the last retransmission.  Measured in
 * test_swift_rto (1 s of lost ACKs, 7 RTOs, cwnd reset to 0.001): srtt
 * 182 us -> 198 ms on that ACK, so 0.001 * 1448 B / 198 ms = 7 B/s, and
 * the next packet pushed the stack's pacing stamp 207 s ahead.  So below
 * one packet srtt is capped at max(target, last delay): the law's own
 * Karn-clean delay (the rtt of [S]'s Algorithm 1), or the target it holds
 * the flow to, whichever is larger -- here min(198 ms, max(2.1 ms, 41 us))
 * = 2.1 ms, a packet every 2.1 s at min_cwnd.  A path whose delay really
 * is above target keeps pacing by srtt, as [S] does (capping at the target
 * alone paced a loopback mswift flow with 40 ms delayed-ACK RTTs and a
 * 161 us target 240x faster than before; in test_swift_basic its window
 * sat below 1/256 packet).
 */
static void swift_pace(struct sock *sk, const struct swift *ca)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 rtt_us = swift_srtt_us(sk);
	u64 rate;

	if (ca->law.cwnd < SWIFT_ONE)
		rtt_us = min(rtt_us, max3(swift_target_us(sk, ca),
					  READ_ONCE(ca->last_delay_us), 1U));
	rate = swift_pacing_rate(ca->law.cwnd, max_t(u32, tp->mss_cache, 1),
				 rtt_us, ca->pacing_pct);
	/* never 0: a zero sk_pacing_rate turns internal pacing off */
	rate = clamp_t(u64, rate, 1, READ_ONCE(sk->sk_max_pacing_rate));
	WRITE_ONCE(sk->sk_pacing_rate, (unsigned long)rate);
}

/*
 * The stack paces by departure time: each send moves tp->tcp_wstamp_ns
 * len / sk_pacing_rate ahead, nothing ever moves it back, and a send with
 * nothing in flight waits for it (pacing hrtimer; the RTO and probe0
 * timers are pushed back by as much, up to TCP_RTO_MAX).  A packet sent
 * at a sub-packet window's rate therefore holds the flow for a whole
 * sub-packet interval even after the next ACK has raised the window.
 * Measured (test_swift_rto, before this bound): the one packet sent at
 * cwnd 0.001 was ACKed, cwnd 1.001 (rate 16760 B/s, 86 ms a packet), but
 * the stamp stayed 207 s ahead: nothing in flight, 3.4 MB unsent, probe0
 * at 2 min, the closed socket in LAST-ACK holding the module.  So on
 * every ACK the stamp is kept within one window (snd_cwnd packets, which
 * bounds what the stack sends at once) at the current rate: a send waits
 * at most rtt / cwnd below one packet, srtt * 100 / pacing_pct above.
 * A pacing timer armed for the old stamp is moved (its socket reference
 * goes with it); one already firing finds the new stamp.
 */
static void swift_bound_wstamp(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	unsigned long rate = READ_ONCE(sk->sk_pacing_rate);
	u64 now = tp->tcp_clock_cache, lim;

	if (tp->tcp_wstamp_ns <= now || !rate || rate == ~0UL)
		return;
	lim = dcc_mul_div((u64)tcp_snd_cwnd(tp) * max_t(u32, tp->mss_cache, 1),
			  NSEC_PER_SEC, rate);
	if (tp->tcp_wstamp_ns - now <= lim)
		return;
	tp->tcp_wstamp_ns = now + lim;
	if (hrtimer_try_to_cancel(&tp->pacing_timer) == 1)
		hrtimer_start(&tp->pacing_timer, ns_to_ktime(tp->tcp_wstamp_ns),
			      HRTIMER_MODE_ABS_PINNED_SOFT);
}

/* snd_cwnd and the pacing rate from the Q16 window: idempotent, every ACK. */
static void swift_apply(struct sock *sk, const struct swift *ca)
{
	struct tcp_sock *tp = tcp_sk(sk);

	swift_pace(sk, ca);
	tcp_snd_cwnd_set(tp, min3(swift_cwnd_pkts(ca->law.cwnd), tp->snd_cwnd_clamp,
				  DCC_MAX_CWND));
	swift_bound_wstamp(sk);
}

static void swift_trace(struct sock *sk, const struct swift *ca, u8 action,
			u32 raw_us, u32 target_us, u16 h)
{
	trace_swift_decision(sk, ca->variant, action, raw_us, ca->last_delay_us,
			     target_us, h, ca->law.cwnd,
			     tcp_snd_cwnd(tcp_sk(sk)), READ_ONCE(sk->sk_pacing_rate));
}

static void swift_init(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct swift *ca = inet_csk_ca(sk);
	u8 v = swift_variant_of(sk);
	struct swift_law_cfg c = { .fs_range_ns = 1 }, lc;

	BUILD_BUG_ON(sizeof(struct swift) > ICSK_CA_PRIV_SIZE);
	BUILD_BUG_ON(DCC_MED_CAP_MAX < 1024);	/* h_cap's range */

	/* the stack inits once per assignment; should that ever change,
	 * a second init must not leak the first one's median buffer
	 */
	if (ca->flags & SWIFT_F_INITED)
		dcc_medbuf_release(&ca->med);

	*ca = (struct swift){
		.base_us = (u32)min_t(u64, (u64)READ_ONCE(base_target_us) +
				      (u64)READ_ONCE(hops) * READ_ONCE(hop_us), U32_MAX),
		.fs_range_us = READ_ONCE(fs_range_us),
		.ai_mpkt = READ_ONCE(ai_mpkt),
		.min_cwnd_mpkt = READ_ONCE(min_cwnd_mpkt),
		.beta_pm = READ_ONCE(beta_pm),
		.max_mdf_pm = READ_ONCE(max_mdf_pm),
		.h_cap = READ_ONCE(h_cap),
		.spa_q8 = 256,
		.pacing_pct = READ_ONCE(pacing_pct),
		.retx_reset = READ_ONCE(retx_reset),
		.lswift_k = READ_ONCE(lswift_k),
		.pctl = READ_ONCE(pctl),
		.variant = v,
		.flags = SWIFT_F_INITED |
			 (READ_ONCE(target_mode) ? SWIFT_F_ABS : 0) |
			 (v != SWIFT_V_SWIFT ? SWIFT_F_LAZY : 0) |
			 (v == SWIFT_V_MSWIFT ? SWIFT_F_MEDIAN : 0),
	};
	/* 1/sqrt of fs_min (>= 1/1000 pkt: <= 2^29.1) and fs_max: fit u32 */
	swift_cfg_fs(&c, SWIFT_MPKT_TO_Q16(READ_ONCE(fs_min_cwnd_mpkt)),
		     (u64)READ_ONCE(fs_max_cwnd) << SWIFT_SHIFT);
	ca->fs_rmin = (u32)min_t(u64, c.fs_rmin, U32_MAX);
	ca->fs_rmax = (u32)min_t(u64, c.fs_rmax, U32_MAX);
	/* the law keeps cwnd in [min_cwnd, max_cwnd]: so does the start */
	swift_cfg(sk, ca, &lc);
	ca->law.cwnd = clamp_t(u64, (u64)READ_ONCE(init_cwnd) << SWIFT_SHIFT,
			       lc.min_cwnd, lc.max_cwnd);

	if ((ca->flags & SWIFT_F_MEDIAN) && dcc_medbuf_init(&ca->med, ca->h_cap))
		atomic_inc(&medbuf_fallbacks);

	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;	/* no slow start */
	dcc_pacing_init(sk);
	swift_apply(sk, ca);
}

static void swift_release(struct sock *sk)
{
	struct swift *ca = inet_csk_ca(sk);

	/* safe on a zero-filled state whose init never ran (and for swift) */
	dcc_medbuf_release(&ca->med);
}

/* Empty the median window (stale samples: idle, RTO, a gap of 2 srtt). */
static void swift_median_reset(struct swift *ca)
{
	if ((ca->flags & SWIFT_F_MEDIAN) && ca->med.buf)
		dcc_medwin_init(&ca->med.w, ca->med.w.cap);
}

/*
 * MSwift: push the sample, return the window's median (or pctl-th
 * percentile) over the last H = max(W/2, 1) ACKs (Eq. 8).
 */
static u32 swift_median_delay(struct swift *ca, u32 rtt_us, u32 now32,
			      u32 srtt_us, u16 *h)
{
	if (!ca->med.buf)	/* defensive: init never ran */
		return rtt_us;
	if (ca->med.w.n && (u32)(now32 - ca->last_push_us) > 2 * srtt_us)
		swift_median_reset(ca);
	ca->last_push_us = now32;
	*h = swift_median_h(ca->law.cwnd, ca->spa_q8, ca->h_cap);
	dcc_medwin_push(&ca->med.w, ca->med.buf, rtt_us, *h);
	if (ca->pctl == 50)
		return dcc_medwin_median(&ca->med.w, ca->med.buf);
	return dcc_medwin_percentile(&ca->med.w, ca->med.buf, ca->pctl);
}

/*
 * LSwift/MSwift gate for the fast-recovery cut: at least lswift_k
 * successive segments missing at snd_una (neither SACKed nor delivered).
 * A packet late on a slow path leaves a hole of one segment among SACKed
 * ones; a drop-tail overflow leaves a run.  O(lswift_k) skbs.
 */
static bool swift_lazy_gate(struct sock *sk, const struct swift *ca)
{
	struct sk_buff *skb = tcp_rtx_queue_head(sk);
	u32 run = 0;

	while (skb && run < ca->lswift_k) {
		if (TCP_SKB_CB(skb)->sacked & TCPCB_SACKED_ACKED)
			return false;
		run += tcp_skb_pcount(skb);
		skb = skb_rb_next(skb);
	}
	return run >= ca->lswift_k;
}

static void swift_cong_control(DCC_CONG_CONTROL_ARGS(sk, rs))
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct swift *ca = inet_csk_ca(sk);
	struct swift_law_cfg c;
	struct dcc_sample s;
	u64 now = tp->tcp_mstamp, target_ns;
	u32 srtt = swift_srtt_us(sk), delay_us;
	u16 h = 1;
	u8 a;

	if (unlikely(!(ca->flags & SWIFT_F_INITED)))
		return;		/* the handshake's ACK (dcc.h: lifecycle) */
	swift_cfg(sk, ca, &c);

	/* segments per ACK, EWMA 1/8, Q8: acked_sacked <= 2^16 in practice */
	if (rs->acked_sacked > 0) {
		u32 seg = min_t(u32, rs->acked_sacked, 255) << 8;

		ca->spa_q8 = (u16)((ca->spa_q8 * 7U + seg) / 8);
	}

	/* a SACK/RACK-detected loss: Swift's SACK-hole reaction */
	if (rs->losses > 0 && inet_csk(sk)->icsk_ca_state != TCP_CA_Loss &&
	    (!(ca->flags & SWIFT_F_LAZY) || swift_lazy_gate(sk, ca))) {
		a = swift_on_fast_recovery(&ca->law, &c, now, srtt);
		swift_apply(sk, ca);
		if (trace_swift_decision_enabled())
			swift_trace(sk, ca, a, 0, swift_target_us(sk, ca), 0);
	}

	if (!dcc_sample_get(sk, rs, &s, 0)) {
		swift_apply(sk, ca);
		return;
	}
	delay_us = s.rtt_us;
	if (ca->flags & SWIFT_F_MEDIAN)
		delay_us = swift_median_delay(ca, s.rtt_us, (u32)now, srtt, &h);
	a = swift_on_ack(&ca->law, &c, now, srtt, (u64)delay_us * NSEC_PER_USEC,
			 s.acked, tcp_is_cwnd_limited(sk), &target_ns);
	WRITE_ONCE(ca->last_delay_us, delay_us);
	swift_apply(sk, ca);
	swift_trace(sk, ca, a, s.rtt_us,
		    (u32)min_t(u64, div_u64(target_ns, NSEC_PER_USEC), U32_MAX), h);
}

/*
 * set_state(Loss) runs on every retransmission timeout (tcp_enter_loss),
 * also the second and later ones of an episode, which neither ssthresh
 * nor CA_EVENT_LOSS see: so it is where Swift counts consecutive RTOs.
 */
static void swift_set_state(struct sock *sk, u8 new_state)
{
	struct swift *ca = inet_csk_ca(sk);
	struct swift_law_cfg c;
	u8 a;

	if (new_state != TCP_CA_Loss || !(ca->flags & SWIFT_F_INITED))
		return;
	swift_cfg(sk, ca, &c);
	a = swift_on_rto(&ca->law, &c, tcp_sk(sk)->tcp_mstamp,
			 swift_srtt_us(sk));
	swift_median_reset(ca);		/* samples before the stall are stale */
	swift_pace(sk, ca);		/* the core has set cwnd = inflight + 1 */
	if (trace_swift_decision_enabled())
		swift_trace(sk, ca, a, 0, swift_target_us(sk, ca), 0);
}

static void swift_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	struct swift *ca = inet_csk_ca(sk);

	/*
	 * Restart after idle: the window's samples are stale.  Not every
	 * TX_START: a window that one ACK clears raises it every round.
	 */
	if (ev == CA_EVENT_TX_START && (ca->flags & SWIFT_F_INITED) &&
	    dcc_tx_start_after_idle(sk, dcc_base_rtt_us(sk, 0)))
		swift_median_reset(ca);
}

static u32 swift_ssthresh(struct sock *sk)
{
	struct swift *ca = inet_csk_ca(sk);

	/* before init (an RTO of the SYN) the zeroed state is left alone */
	if (!(ca->flags & SWIFT_F_INITED))
		return tcp_sk(sk)->snd_ssthresh;
	/* recovery or RTO begins: remember the window for undo_cwnd */
	ca->prior_cwnd = (u32)min_t(u64, ca->law.cwnd >> SWIFT_SHIFT, U32_MAX);
	return tcp_sk(sk)->snd_ssthresh;	/* the core cuts nothing itself */
}

static u32 swift_undo_cwnd(struct sock *sk)
{
	struct swift *ca = inet_csk_ca(sk);

	/*
	 * The loss was spurious (DSACK / timestamps).  Swift has no undo and
	 * keeps its cut; LSwift/MSwift take it back (spec 6.1).
	 */
	if (!(ca->flags & SWIFT_F_INITED))
		return tcp_snd_cwnd(tcp_sk(sk));
	if (ca->flags & SWIFT_F_LAZY)
		ca->law.cwnd = max_t(u64, ca->law.cwnd,
				     (u64)ca->prior_cwnd << SWIFT_SHIFT);
	return min(swift_cwnd_pkts(ca->law.cwnd), DCC_MAX_CWND);
}

/* min_tso_segs: 1 while the pacer enforces a window below one packet */
static u32 swift_min_tso_segs(struct sock *sk)
{
	const struct swift *ca = inet_csk_ca(sk);

	if ((ca->flags & SWIFT_F_INITED) && ca->law.cwnd < SWIFT_ONE)
		return 1;
	return READ_ONCE(sock_net(sk)->ipv4.sysctl_tcp_min_tso_segs);
}

/*
 * ss -ti: reuses the BBR info layout, which ss prints in full:
 *	bw		pacing rate (bytes/s)
 *	mrtt		target delay at the current window (us)
 *	pacing_gain	cwnd in packets, fractional (ss divides by 256)
 *	cwnd_gain	delay used / target (1.0 = on target; for mswift the
 *			median of the window)
 */
static size_t swift_get_info(struct sock *sk, u32 ext, int *attr,
			     union tcp_cc_info *info)
{
	const struct swift *ca = inet_csk_ca(sk);
	u64 bw = READ_ONCE(sk->sk_pacing_rate);
	/* ss may read while an ACK updates: each per-ACK field once */
	u64 cwnd = READ_ONCE(ca->law.cwnd);
	u32 delay = READ_ONCE(ca->last_delay_us);
	struct swift_law_cfg c;
	u32 target;

	if (!(ext & (1 << (INET_DIAG_BBRINFO - 1))) &&
	    !(ext & (1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;

	swift_cfg(sk, ca, &c);
	target = (u32)min_t(u64, div_u64(swift_target_ns(&c, cwnd), NSEC_PER_USEC),
			    U32_MAX);
	memset(&info->bbr, 0, sizeof(info->bbr));
	info->bbr.bbr_bw_lo = (u32)bw;
	info->bbr.bbr_bw_hi = (u32)(bw >> 32);
	info->bbr.bbr_min_rtt = target;
	info->bbr.bbr_pacing_gain = (u32)min_t(u64, cwnd >> (SWIFT_SHIFT - 8), U32_MAX);
	info->bbr.bbr_cwnd_gain = target ?
		(u32)min_t(u64, div_u64((u64)delay << 8, target), U32_MAX) : 0;
	*attr = INET_DIAG_BBRINFO;
	return sizeof(info->bbr);
}

#define SWIFT_OPS(var, str) {				\
	.name		= str,				\
	.owner		= THIS_MODULE,			\
	.init		= swift_init,			\
	.release	= swift_release,		\
	.cong_control	= swift_cong_control,		\
	.ssthresh	= swift_ssthresh,		\
	.undo_cwnd	= swift_undo_cwnd,		\
	.set_state	= swift_set_state,		\
	.cwnd_event	= swift_cwnd_event,		\
	.min_tso_segs	= swift_min_tso_segs,		\
	.get_info	= swift_get_info,		\
}

static struct tcp_congestion_ops swift_ops[] __read_mostly = {
	[SWIFT_V_SWIFT] = SWIFT_OPS(SWIFT_V_SWIFT, "swift"),
	[SWIFT_V_LSWIFT] = SWIFT_OPS(SWIFT_V_LSWIFT, "lswift"),
	[SWIFT_V_MSWIFT] = SWIFT_OPS(SWIFT_V_MSWIFT, "mswift"),
};

/* Which of the three a socket runs: its ops pointer says. */
static u8 swift_variant_of(const struct sock *sk)
{
	const struct tcp_congestion_ops *ops = inet_csk(sk)->icsk_ca_ops;

	if (ops == &swift_ops[SWIFT_V_MSWIFT])
		return SWIFT_V_MSWIFT;
	if (ops == &swift_ops[SWIFT_V_LSWIFT])
		return SWIFT_V_LSWIFT;
	return SWIFT_V_SWIFT;
}

static int __init swift_register(void)
{
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(swift_ops); i++) {
		ret = dcc_register_ca(&swift_ops[i]);
		if (ret) {
			while (--i >= 0)
				dcc_unregister_ca(&swift_ops[i]);
			return ret;
		}
	}
	return 0;
}

static void __exit swift_unregister(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(swift_ops); i++)
		dcc_unregister_ca(&swift_ops[i]);
}

module_init(swift_register);
module_exit(swift_unregister);

MODULE_ALIAS("tcp_lswift");
MODULE_ALIAS("tcp_mswift");
MODULE_AUTHOR("dcc developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Swift, LSwift and MSwift delay-based congestion control (SIGCOMM'20; median for spraying)");
