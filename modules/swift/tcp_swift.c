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
 * Paper symbol -> field (struct swift_core per socket, struct swift_cfg
 * shared; include/dcc/swift.h):
 *	cwnd, t_last_decrease, retransmit_cnt	core.cwnd (Q16), .t_last_decrease (ns),
 *						.retx_cnt
 *	base_target, hops * h			cfg.target_base_ns, + swift_in.base_ns (the
 *						min RTT if relative; hops * h per path, hop_ttl)
 *	fs_range, fs_min_cwnd, fs_max_cwnd	cfg.fs_range_ns, .fs_rmin, .fs_rmax (1/sqrt, Q24)
 *	ai, beta, max_mdf			cfg.ai, .beta, .max_mdf (Q16)
 *	min_cwnd, RETX_RESET_THRESHOLD		cfg.min_cwnd, .retx_reset
 *	H (MSwift), its cap			swift_median_h(), cfg.h_cap; core.med (dcc_medbuf)
 *	LSwift's "5 successive delayed pkts"	cfg.lswift_k
 *	delay					dcc_sample.rtt_ns (rs->rtt_us * 1000)
 *
 * What the papers leave open, and what this does (differences from the papers):
 *  - target: Swift's absolute target assumes NIC timestamps; with software
 *    timestamps the unloaded RTT is a host property, so the default
 *    target_mode 0 (relative) uses target = min RTT + base_target +
 *    hops * hop_us + fs; target_mode 1 is [S]'s absolute target.  The
 *    relative base is tcp_min_rtt lowered to the lowest min RTT the
 *    namespace's dcc flows have seen to the destination (share_base_rtt,
 *    default on: a flow that starts into a standing queue otherwise aims
 *    above it and takes the link; swift_share_read() has the measurements).
 *    With it, flows of different base RTTs (one class per destination)
 *    each aim at the same queueing delay above their own base: fair
 *    across RTT classes without the operator knowing any path's RTT,
 *    unless a class starts into a queue another class (another host or
 *    namespace, which cannot share a minimum) already holds.
 *  - hops: a CC callback cannot see the ACK's TTL ([S] derives the hop
 *    count from it); dcc_lib's RX probe can, and records it with the
 *    ACK's stamps, so with hop_ttl (default 1) each path's count is its
 *    ACKs' (swift_hops_read()); the parameter hops is the count where
 *    there is no record (rx_timestamps=off) or hop_ttl is 0.  The
 *    operator's recipe for paths of different base RTTs in a fabric
 *    whose RTT grows with the hops a path crosses: target_mode 1,
 *    base_target_us = the RTT the hop term does not cover plus the
 *    queueing allowance, hop_us = the RTT one hop adds (docs/swift.md,
 *    "Mixed base RTTs").
 *  - the SACK-hole cut: applied on every ACK on which Linux marks packets
 *    lost (rs->losses > 0, i.e. SACK/RACK loss detection, the analogue of a
 *    hole in Swift's SACK bitmap), outside the Loss state, subject to the
 *    once-per-RTT guard ([H] applies it per recovery episode).  Swift has no
 *    undo ([S], [H]): undo_cwnd keeps the cut.  LSwift/MSwift: the cut
 *    needs lswift_k successive missing segments at snd_una (our reading of
 *    LTCP-U's "successive delayed packets"; a count of ACKs instead
 *    would pass for any single packet delayed by more than five ACK
 *    times, which is every slow-path packet), and undo_cwnd restores
 *    the window when DSACK/timestamps prove the loss spurious.
 *  - RTO: every expiry of the retransmission timer calls set_state(Loss)
 *    (tcp_enter_loss), while CA_EVENT_LOSS and ssthresh come only once per
 *    loss episode; so set_state(Loss) is Swift's "retransmit timeout", and
 *    the count of consecutive RTOs resets on the next ACK with a delay
 *    sample.  The stack then sets cwnd = inflight + 1 for the retransmit;
 *    the cut window takes over on the next ACK, its pacing rate at once.
 *  - the median window: H in ACKs of segs_per_ack segments
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
 *    nothing in flight, the closed socket stuck in LAST-ACK).  Every new
 *    decision (below one packet: every ACK) keeps the stamp within one
 *    window at its rate.
 *  - a decision (pacing rate, snd_cwnd) is made and applied only when
 *    what it is made of moved: the whole-packet window, the window by
 *    1/32 or srtt by 1/16 (the pacing rate at >= 1 packet is a bound on
 *    bursts at 2x the window's rate: within 10% it bounds the same), the
 *    MSS; below one packet, where the pacer is the window, on every ACK.
 *  - no slow start: Swift starts at init_cwnd and adds ai per RTT ([M]
 *    starts at the ideal window; set init_cwnd to the BDP to do the same).
 *  - fs_min_cwnd >= fs_max_cwnd (cross-parameter, not refusable one write
 *    at a time) disables flow scaling for the sockets that snapshot it.
 *  - max_cwnd: the socket's snd_cwnd_clamp (route / sysctl), at most 2^30.
 *  - ecwnd (endpoint congestion) is not implemented: TCP does not carry the
 *    remote NIC timestamps it needs.
 *  - defaults where [S] gives no value follow Google's production Swift
 *    (its Falcon simulator's rue/algorithm/swift defaults), not the
 *    htsim reference [H]: 1 us per hop (hop_us; [H] base_target / 6.55 =
 *    3.8 us at 25 us), the flow-scaling range 5 base_target capped at
 *    100 us (fs_range_us 100; [H] 125 at 25 us) over 0.1..256 packets
 *    (fs_max_cwnd 256; [H] 100), the reset to min_cwnd after 3
 *    consecutive RTOs (retx_reset; [H]'s "guess" 5); ai 1, beta 0.8,
 *    max_mdf 0.5 as both.  Kept: min_cwnd 0.001 packet ([S]; production
 *    0.01), no window ceiling but snd_cwnd_clamp (production's 256
 *    packets of its MTU would cap a 1448-byte-segment flow at 370 KB, 30
 *    us at 100 Gbit/s, below a cross-pod BDP); the RTO is the stack's
 *    (production: 2 RTT, at least 1 ms; on Linux the route's rto_min).
 *    The testbed (testbed_params.sh) sets its own fs_range_us and
 *    fs_max_cwnd, scaled, and leaves hop_us at 1 us: the guest's paths
 *    cross one router (one hop, 1 us over a 10 ms RTT).
 *
 * Code layout: everything per ACK that is not a kernel call lives in the
 * plain-C core (include/dcc/swift.h: swift_on_ack, inline, with the steps
 * an ACK rarely takes and the event functions in swift_law.c), which the
 * unit-test model, the fuzzer and the bench call too.  This file gathers
 * the stack's facts (struct swift_in: srtt, min RTT, cwnd-limited,
 * snd_cwnd_clamp, LSwift's missing-segment run), applies a new decision
 * (snd_cwnd, sk_pacing_rate, the pacing-stamp bound) and traces.
 *
 * State: struct swift in icsk_ca_priv (<= 104 bytes, BUILD_BUG_ON'd): the
 * core's 96 bytes and a pointer to the parameter snapshot the socket took
 * at init.  The snapshot (struct swift_cfg, 104 bytes, converted once from
 * the module parameters) does not fit per socket, so every parameter
 * write publishes a new immutable one (dcc.h: parameter snapshots) and
 * each socket holds a reference to the one current at its init: a
 * running flow never sees its parameters change.  For mswift, plus the
 * median buffer of 8 * h_cap bytes from dcc_medbuf.  Init acquires both,
 * release gives both back (dcc.h: lifecycle; hooks before init leave the
 * state alone).  Nothing sleeps.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <net/tcp.h>
#include <linux/inet_diag.h>
#include "dcc/dcc.h"
#include "dcc/swift.h"

#define CREATE_TRACE_POINTS
#include "swift_trace.h"

/* ---- tunables (validated; published as an immutable snapshot) ---------- */

static u32 base_target_us = 25;	/* queueing allowance (relative mode) */
static u32 target_mode;			/* 0 relative, 1 absolute ([S]) */
static u32 hops;			/* topology term off by default */
static u32 hop_us = 1;			/* production ([H]: base_target / 6.55) */
static u32 hop_ttl = 1;			/* hops from the ACKs' TTL (production) */
static u32 fs_range_us = 100;		/* production: 5 * base_target, <= 100 us */
static u32 fs_min_cwnd_mpkt = 100;	/* 0.1 packet ([H]) */
static u32 fs_max_cwnd = 256;		/* packets (production; [H]: 100) */
static u32 ai_mpkt = 1000;		/* 1 packet per RTT ([M] III-C) */
static u32 beta_pm = 800;		/* 0.8 ([H]) */
static u32 max_mdf_pm = 500;		/* 0.5 ([H]) */
static u32 min_cwnd_mpkt = 1;		/* 0.001 packet ([S]) */
static u32 init_cwnd = 10;		/* packets (Linux IW) */
static u32 retx_reset = 3;		/* RETX_RESET_THRESHOLD (production; [H]: 5) */
static u32 lswift_k = 5;		/* successive missing pkts ([M] III-B) */
static u32 h_cap = 128;			/* MSwift window cap */
static u32 pctl = 50;			/* 50 = median; 10/90: [M] Fig. 12 */
static u32 pacing_pct = 200;		/* pacing at >= 1 packet, % of cwnd/srtt */
static u32 share_base_rtt = 1;		/* relative base: the namespace's
					 * minimum for the destination
					 */

/* One immutable configuration; sockets hold references (dcc.h). */
struct swift_snap {
	struct dcc_snap snap;	/* first: dcc_lib allocates and frees it */
	struct swift_cfg cfg;
	bool share;		/* share_base_rtt, relative mode only */
};

static void swift_params_now(struct swift_params *p)
{
	*p = (struct swift_params){
		.base_target_us = READ_ONCE(base_target_us),
		.target_mode = READ_ONCE(target_mode),
		.hops = READ_ONCE(hops),
		.hop_us = READ_ONCE(hop_us),
		.hop_ttl = READ_ONCE(hop_ttl),
		.fs_range_us = READ_ONCE(fs_range_us),
		.fs_min_cwnd_mpkt = READ_ONCE(fs_min_cwnd_mpkt),
		.fs_max_cwnd = READ_ONCE(fs_max_cwnd),
		.ai_mpkt = READ_ONCE(ai_mpkt),
		.beta_pm = READ_ONCE(beta_pm),
		.max_mdf_pm = READ_ONCE(max_mdf_pm),
		.min_cwnd_mpkt = READ_ONCE(min_cwnd_mpkt),
		.init_cwnd = READ_ONCE(init_cwnd),
		.retx_reset = READ_ONCE(retx_reset),
		.lswift_k = READ_ONCE(lswift_k),
		.h_cap = READ_ONCE(h_cap),
		.pctl = READ_ONCE(pctl),
		.pacing_pct = READ_ONCE(pacing_pct),
	};
}

/* Convert the current values once into a snapshot. */
static void swift_snap_fill(struct dcc_snap *ds)
{
	struct swift_snap *s = container_of(ds, struct swift_snap, snap);
	struct swift_params p;

	swift_params_now(&p);
	swift_cfg_init(&s->cfg, &p);
	s->share = s->cfg.relative && READ_ONCE(share_base_rtt);
}

DEFINE_DCC_SNAPS(swift_snaps, struct swift_snap, snap, swift_snap_fill);

/* the socket's snapshot reference, if init took one */
static void swift_snap_put(struct swift_snap *s)
{
	if (s)
		dcc_snap_put(&swift_snaps, &s->snap);
}

/* each accepted write publishes a new snapshot (dcc_param_snap()) */
#define swift_param(name, lo, hi, desc)					\
	dcc_param_snap(name, name, lo, hi, swift_snaps, desc)

swift_param(base_target_us, 1, 1000000,
	    "target delay in us: above the min RTT (target_mode 0) or absolute (1)");
swift_param(target_mode, 0, 1,
	    "0 = target relative to tcp_min_rtt, 1 = absolute target as in Swift");
swift_param(hops, 0, 255,
	    "hop count for the topology-scaling term where the ACK's TTL gives none (or hop_ttl 0)");
swift_param(hop_us, 0, 100000, "per-hop target increment h in us");
swift_param(hop_ttl, 0, 1,
	    "1: the hop count is each path's, from its ACKs' IP TTL (needs dcc_lib rx_timestamps on); 0: hops");
swift_param(fs_range_us, 0, 1000000, "flow-scaling range in us (0 = no flow scaling)");
swift_param(fs_min_cwnd_mpkt, 1, 65535,
	    "cwnd at which flow scaling reaches fs_range, milli-packets");
swift_param(fs_max_cwnd, 1, 1000000000,
	    "cwnd at and above which flow scaling is 0, packets");
swift_param(ai_mpkt, 1, 65535, "additive increment ai per RTT, milli-packets");
swift_param(beta_pm, 0, 1000, "multiplicative-decrease gain beta, per mille");
swift_param(max_mdf_pm, 1, 1000, "largest multiplicative decrease max_mdf, per mille");
swift_param(min_cwnd_mpkt, 1, 65535,
	    "smallest cwnd, milli-packets (below 1000 the pacer enforces it)");
swift_param(init_cwnd, 1, 65535, "initial cwnd, packets");
swift_param(retx_reset, 1, 255, "consecutive RTOs after which cwnd = min_cwnd");
swift_param(lswift_k, 1, 255,
	    "lswift/mswift: successive missing segments for a fast-recovery cut");
swift_param(h_cap, 1, 1024, "mswift: cap of the median window H = max(W/2, 1), ACKs");
swift_param(pctl, 0, 100, "mswift: percentile of the window's delays (50 = median)");
swift_param(pacing_pct, 100, 1000, "pacing rate at cwnd >= 1 packet, % of cwnd * mss / srtt");
swift_param(share_base_rtt, 0, 1,
	    "target_mode 0: the base is the lowest min RTT the namespace's dcc flows have seen to the destination (1)");

/* mswift sockets whose median buffer allocation failed (3-sample window) */
static atomic_t medbuf_fallbacks = ATOMIC_INIT(0);
dcc_param_counter(medbuf_fallbacks, medbuf_fallbacks,
		  "mswift sockets started on the 3-sample fallback window");

/* ---- per-socket state: <= 104 bytes, BUILD_BUG_ON'd -------------------- */

enum swift_variant { SWIFT_V_SWIFT = 0, SWIFT_V_LSWIFT = 1, SWIFT_V_MSWIFT = 2 };

/* 104 bytes; init sets snap, so snap != NULL is "initialised" (dcc.h) */
struct swift {
	struct swift_core core;		/* 96 B */
	struct swift_snap *snap;	/* parameters taken at init */
};

static bool swift_inited(const struct swift *ca)
{
	return ca->snap;
}

/* the variant, from the core's bits (tracepoint) */
static u8 swift_variant(const struct swift *ca)
{
	if (ca->core.flags & SWIFT_MEDIAN)
		return SWIFT_V_MSWIFT;
	return ca->core.flags & SWIFT_LAZY ? SWIFT_V_LSWIFT : SWIFT_V_SWIFT;
}

static u8 swift_variant_of(const struct sock *sk);

/* srtt in ns; 1 ms before the first sample (as tcp_bbr's initial pacing) */
static u64 swift_srtt_ns(const struct sock *sk)
{
	u32 srtt = tcp_sk(sk)->srtt_us >> 3;

	return srtt ? (u64)srtt * NSEC_PER_USEC : SWIFT_SRTT_DEFAULT_NS;
}

/*
 * The relative target's base, ns: the socket's own minimum
 * (dcc_base_rtt_us(sk, 0): tcp_min_rtt(), else srtt, else 0), lowered to
 * the shared minimum last read (core.glue_base_us, 0: none; see
 * swift_share_read()).  Inline because every ACK of a relative-mode flow
 * reads it and a call into dcc_lib costs more than the reads.
 */
static u64 swift_base_rtt_ns(const struct sock *sk, const struct swift *ca)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	u32 min_rtt = tcp_min_rtt(tp);
	u32 shared = ca->core.glue_base_us;

	if (min_rtt && min_rtt != ~0U)
		return (u64)(shared && shared < min_rtt ? shared : min_rtt) *
		       NSEC_PER_USEC;
	if (tp->srtt_us)
		return (u64)max_t(u32, tp->srtt_us >> 3, 1) * NSEC_PER_USEC;
	return 0;
}

/*
 * hop_ttl: the hop count of the socket's path, from its ACKs' IP TTL as
 * dcc_lib's RX probe recorded it (dcc_rx_ttl(), dcc_ttl_hops()), as Swift
 * takes its topology term's count from the TTL: read at the first ACK
 * that has a record and then when dcc_share_due() (a path changes hops
 * only with its route), kept in core.glue_hops as 1 + hops.  Without a
 * record (dcc_lib rx_timestamps=off, or the probe missed every ACK so
 * far) the count is the parameter hops.  Why per path: with an absolute
 * target (target_mode 1) the hop term is what gives a longer path a
 * higher target, as its base RTT is higher, without the operator setting
 * a target per path and without a min RTT that a queue standing when the
 * flow starts inflates (relative mode's limit; docs/swift.md, "Mixed
 * base RTTs").  Capped at 254 hops.
 */
static void swift_hops_read(const struct sock *sk, struct swift *ca, u32 acked)
{
	u8 ttl;

	if (ca->core.glue_hops && !dcc_share_due(tcp_sk(sk), acked))
		return;
	ttl = dcc_rx_ttl(sk);
	if (ttl)
		ca->core.glue_hops = 1 + min_t(u32, dcc_ttl_hops(ttl), 254);
}

/*
 * The flow's own part of the target, ns (swift_in.base_ns): the relative
 * base (swift_base_rtt_ns()) in relative mode, plus with hop_ttl the
 * path's hop term hops * h (target_base_ns has none then).
 */
static u64 swift_flow_base_ns(const struct sock *sk, const struct swift *ca)
{
	const struct swift_cfg *c = &ca->snap->cfg;

	return (c->relative ? swift_base_rtt_ns(sk, ca) : 0) +
	       swift_hop_term_ns(&ca->core, c);
}

/*
 * share_base_rtt (relative mode): read the lowest min RTT the
 * namespace's dcc flows have seen to this socket's destination
 * (dcc_shared_min_rtt_us(), which folds the socket's own in) at its first
 * RTT sample and then when dcc_share_due() (a hash and a shared cache
 * line: not per ACK).  Why: a
 * relative target is min RTT + base_target, and a flow that starts while
 * others hold a queue measures that queue into its min RTT, so it aims
 * above them and takes the link (Vegas' latecomer problem).  In the
 * userspace model (test_swift_law, 8 flows started 20 ms apart, 1 ms,
 * 1 Gbit/s) its own minimum gives Jain 0.18 (swift) / 0.21 (mswift), the
 * shared one 1.00; flows of two base-RTT classes (1 and 2 ms, a class per
 * destination) 0.19 / 0.30 alone, 0.96 / 0.98 shared.  Flows of other
 * hosts or namespaces cannot share (dcc_lib.c: keying).
 */
static void swift_share_read(const struct sock *sk, struct swift *ca, u32 acked)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	u32 min_rtt = tcp_min_rtt(tp);

	if (!min_rtt || min_rtt == ~0U)
		return;
	if (ca->core.glue_base_us && !dcc_share_due(tp, acked))
		return;
	ca->core.glue_base_us = dcc_shared_min_rtt_us(sk, min_rtt);
}

/* The stack's facts the core needs on every ACK and event. */
static void swift_in_get(const struct sock *sk, const struct swift *ca,
			 struct swift_in *in)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	*in = (struct swift_in){
		.now_ns = tp->tcp_clock_cache,
		.srtt_ns = swift_srtt_ns(sk),
		/* relative mode: 0 before any RTT sample */
		.base_ns = swift_flow_base_ns(sk, ca),
		.cwnd_clamp = tp->snd_cwnd_clamp,
		.in_loss = inet_csk(sk)->icsk_ca_state == TCP_CA_Loss,
	};
}

/*
 * LSwift/MSwift gate input: successive segments missing at snd_una
 * (neither SACKed nor delivered), counted up to @k.  O(k) skbs.
 */
static u32 swift_missing_run(struct sock *sk, u32 k)
{
	struct sk_buff *skb = tcp_rtx_queue_head(sk);
	u32 run = 0;

	while (skb && run < k) {
		if (TCP_SKB_CB(skb)->sacked & TCPCB_SACKED_ACKED)
			return 0;
		run += tcp_skb_pcount(skb);
		skb = skb_rb_next(skb);
	}
	return run;
}

/* sk_pacing_rate: never 0 (a zero rate turns internal pacing off) */
static void swift_set_rate(struct sock *sk, u64 rate)
{
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
 * at 2 min, the closed socket in LAST-ACK holding the module.  So every
 * applied decision keeps the stamp within one window (snd_cwnd packets,
 * which bounds what the stack sends at once) at the new rate: a send
 * waits at most rtt / cwnd below one packet, srtt * 100 / pacing_pct
 * above.  Only a new decision needs it: while one stands, the rate and
 * the window are those the stamp was last bounded with, and a paced send
 * moves the stamp by at most one window at that rate past the clock
 * (below one packet every ACK decides, and after an RTO, whose
 * retransmission is not paced, the next ACK does).
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

/*
 * Apply a decision just made from the core's state: the pacing rate,
 * snd_cwnd (whole packets, at least one: below one packet the rate is the
 * window), the pacing-stamp bound.  snd_cwnd is the core's own
 * swift_cwnd_pkts(), which the decision's cwnd_bytes is times mss: no
 * division back.  Idempotent.
 */
static void swift_apply(struct sock *sk, const struct swift *ca, u64 rate_bytes_ps)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 pkts = swift_cwnd_pkts(ca->core.cwnd);

	swift_set_rate(sk, rate_bytes_ps);
	tcp_snd_cwnd_set(tp, min3(pkts, tp->snd_cwnd_clamp, DCC_MAX_CWND));
	swift_bound_wstamp(sk);
}

/* Trace units: us (raw, delay, target), Q16 packets, packets, bytes/s. */
static void swift_trace(struct sock *sk, const struct swift *ca, u8 action,
			u32 raw_us, u64 target_ns, u16 h)
{
	trace_swift_decision(sk, swift_variant(ca), action, raw_us,
			     ca->core.last_delay_ns / NSEC_PER_USEC,
			     dcc_ns_to_us(target_ns), h, ca->core.cwnd,
			     tcp_snd_cwnd(tcp_sk(sk)), READ_ONCE(sk->sk_pacing_rate));
}

/* target at the current window, ns (loss-event traces, get_info) */
static u64 swift_target_now(const struct sock *sk, const struct swift *ca, u64 cwnd)
{
	const struct swift_cfg *c = &ca->snap->cfg;

	return swift_target_ns(c, swift_flow_base_ns(sk, ca), cwnd);
}

static void swift_init(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct swift *ca = inet_csk_ca(sk);
	u8 v = swift_variant_of(sk);
	struct swift_snap *snap;
	struct dcc_decision d;
	struct swift_in in;

	BUILD_BUG_ON(sizeof(struct swift) > ICSK_CA_PRIV_SIZE);
	BUILD_BUG_ON(sizeof(struct swift) > 104);
	BUILD_BUG_ON(DCC_MED_CAP_MAX < 1024);	/* h_cap's range */

	/* the stack inits once per assignment; should that ever change,
	 * a second init must not leak the first one's references
	 */
	if (swift_inited(ca)) {
		swift_core_release(&ca->core);
		swift_snap_put(ca->snap);
	}
	snap = dcc_snap_get_as(&swift_snaps, struct swift_snap, snap);
	ca->snap = snap;
	if (swift_core_init(&ca->core, &snap->cfg,
			    (v != SWIFT_V_SWIFT ? SWIFT_LAZY : 0) |
			    (v == SWIFT_V_MSWIFT ? SWIFT_MEDIAN : 0),
			    tp->snd_cwnd_clamp))
		atomic_inc(&medbuf_fallbacks);

	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;	/* no slow start */
	dcc_pacing_init(sk);
	swift_in_get(sk, ca, &in);
	swift_decide(&ca->core, &snap->cfg, &in, tp->mss_cache, &d);
	swift_apply(sk, ca, d.rate_bytes_ps);
}

static void swift_release(struct sock *sk)
{
	struct swift *ca = inet_csk_ca(sk);

	/* safe on a zero-filled state whose init never ran (and for swift) */
	swift_core_release(&ca->core);
	swift_snap_put(ca->snap);	/* NULL before init */
	ca->snap = NULL;
}

/*
 * The core's ACK and what follows it.  struct swift_in is initialised
 * where it is declared: a declaration without one would be zeroed first
 * (the kernel's automatic-variable initialisation) for nothing, the
 * inline core keeping its fields in registers.
 */
static __always_inline void swift_ack(struct sock *sk, struct swift *ca,
				      const struct dcc_sample *s)
{
	const struct swift_cfg *c = &ca->snap->cfg;
	/* read by the core only on an ACK that marks losses */
	bool in_loss = unlikely(s->losses) &&
		       inet_csk(sk)->icsk_ca_state == TCP_CA_Loss;
	const struct swift_in in = {
		.srtt_ns = swift_srtt_ns(sk),
		.base_ns = swift_flow_base_ns(sk, ca),
		.cwnd_clamp = tcp_sk(sk)->snd_cwnd_clamp,
		.cwnd_limited = tcp_is_cwnd_limited(sk),
		.in_loss = in_loss,
		/* LSwift/MSwift's gate, only on an ACK that marks losses */
		.missing = unlikely(s->losses) && (ca->core.flags & SWIFT_LAZY) &&
			   !in_loss ? swift_missing_run(sk, c->lswift_k) : 0,
	};
	struct dcc_decision d = {};	/* as in: kept in registers */

	swift_on_ack(&ca->core, c, &in, s, &d);
	if (d.changed)
		swift_apply(sk, ca, d.rate_bytes_ps);

	if (!trace_swift_decision_enabled())	/* a static branch */
		return;
	if (SWIFT_D_FR(d.flags) != SWIFT_NONE)
		swift_trace(sk, ca, SWIFT_D_FR(d.flags), 0,
			    swift_target_now(sk, ca, ca->core.cwnd), 0);
	if (SWIFT_D_LAW(d.flags) != SWIFT_NONE)
		swift_trace(sk, ca, SWIFT_D_LAW(d.flags), dcc_sample_rtt_us(s),
			    swift_law_target_ns(&ca->core, c, in.base_ns),
			    SWIFT_D_H(d.flags));
}

/*
 * Per ACK: the sample, the stack's facts, the core; a decision is applied
 * only when the core reports one (dcc_decision.changed).  In between,
 * snd_cwnd and sk_pacing_rate hold the last one: for a cong_control CC
 * the stack sets neither except where the core is told and decides again
 * on the next ACK (SWIFT_DEC_STALE): an RTO (tcp_enter_loss sets snd_cwnd
 * = inflight + 1; set_state(Loss) -> swift_on_rto) and an undo (snd_cwnd
 * = undo_cwnd's -> swift_on_undo); an MTU probe's success rescales
 * snd_cwnd and changes the MSS, which moves the decision by itself.  The
 * idle restart and application-limited cwnd cuts skip cong_control CCs;
 * snd_cwnd_clamp is set before init, and a BPF program lowering it later
 * moves the core's window (swift_finish_held), hence the decision.  One
 * departure: SO_MAX_PACING_RATE clamps sk_pacing_rate at once, but
 * raising it again takes effect with the next decision, not the next ACK.
 */
static void swift_cong_control(DCC_CONG_CONTROL_ARGS(sk, rs))
{
	struct swift *ca = inet_csk_ca(sk);
	struct dcc_sample s;

	if (unlikely(!swift_inited(ca)))
		return;		/* the handshake's ACK (dcc.h: lifecycle) */
	dcc_sample_get(sk, rs, &s, 0);
	if (ca->snap->share)
		swift_share_read(sk, ca, s.acked);
	if (ca->snap->cfg.hop_ttl)
		swift_hops_read(sk, ca, s.acked);
	swift_ack(sk, ca, &s);
}

/*
 * set_state(Loss) runs on every retransmission timeout (tcp_enter_loss),
 * also the second and later ones of an episode, which neither ssthresh
 * nor CA_EVENT_LOSS see: so it is where Swift counts consecutive RTOs.
 */
static void swift_set_state(struct sock *sk, u8 new_state)
{
	struct swift *ca = inet_csk_ca(sk);
	struct dcc_decision d;
	struct swift_in in;
	u8 a;

	if (new_state != TCP_CA_Loss || !swift_inited(ca))
		return;
	swift_in_get(sk, ca, &in);
	a = swift_on_rto(&ca->core, &ca->snap->cfg, &in);
	/*
	 * the stack has set cwnd = inflight + 1: only the rate changes now;
	 * the core decides again on the next ACK, which applies the window
	 */
	swift_decide(&ca->core, &ca->snap->cfg, &in, tcp_sk(sk)->mss_cache, &d);
	swift_set_rate(sk, d.rate_bytes_ps);
	if (trace_swift_decision_enabled())
		swift_trace(sk, ca, a, 0, swift_target_now(sk, ca, ca->core.cwnd), 0);
}

static void swift_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	struct swift *ca = inet_csk_ca(sk);

	/*
	 * Restart after idle: the window's samples are stale.  Not every
	 * TX_START: a window that one ACK clears raises it every round.
	 */
	if (ev == CA_EVENT_TX_START && swift_inited(ca) &&
	    dcc_tx_start_after_idle(sk, dcc_base_rtt_us(sk, 0)))
		swift_on_idle_restart(&ca->core);
}

static u32 swift_ssthresh(struct sock *sk)
{
	struct swift *ca = inet_csk_ca(sk);

	/* before init (an RTO of the SYN) the zeroed state is left alone;
	 * after it, recovery or RTO begins: remember the window for undo
	 */
	if (swift_inited(ca))
		swift_on_recovery_start(&ca->core);
	return tcp_sk(sk)->snd_ssthresh;	/* the core cuts nothing itself */
}

static u32 swift_undo_cwnd(struct sock *sk)
{
	struct swift *ca = inet_csk_ca(sk);

	/* the loss was spurious (DSACK / timestamps) */
	if (!swift_inited(ca))
		return tcp_snd_cwnd(tcp_sk(sk));
	return min(swift_on_undo(&ca->core), DCC_MAX_CWND);
}

/* min_tso_segs: 1 while the pacer enforces a window below one packet */
static u32 swift_min_tso_segs(struct sock *sk)
{
	const struct swift *ca = inet_csk_ca(sk);

	if (swift_inited(ca) && ca->core.cwnd < SWIFT_ONE)
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
	u64 cwnd = READ_ONCE(ca->core.cwnd);
	u32 delay = READ_ONCE(ca->core.last_delay_ns) / NSEC_PER_USEC;
	u32 target;

	if (!(ext & (1 << (INET_DIAG_BBRINFO - 1))) &&
	    !(ext & (1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;
	if (!swift_inited(ca))
		return 0;

	target = dcc_ns_to_us(swift_target_now(sk, ca, cwnd));
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

DCC_ACK_HOOK(swift_cong_control);	/* modinfo: what the tools time and check */

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

	ret = dcc_snaps_init(&swift_snaps);
	if (ret)
		return ret;
	for (i = 0; i < ARRAY_SIZE(swift_ops); i++) {
		ret = dcc_register_ca(&swift_ops[i]);
		if (ret) {
			while (--i >= 0)
				dcc_unregister_ca(&swift_ops[i]);
			dcc_snaps_exit(&swift_snaps);
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
	/* no socket is left (each held a module reference) */
	dcc_snaps_exit(&swift_snaps);
}

module_init(swift_register);
module_exit(swift_unregister);

MODULE_ALIAS("tcp_lswift");
MODULE_ALIAS("tcp_mswift");
MODULE_AUTHOR("dcc developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Swift, LSwift and MSwift delay-based congestion control (SIGCOMM'20; median for spraying)");
