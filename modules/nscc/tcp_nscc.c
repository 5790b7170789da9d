// SPDX-License-Identifier: GPL-2.0
/*
 * NSCC: the Ultra Ethernet "Network Signal Congestion Control", and MNSCC,
 * its median-filtered variant for packet spraying (Gerstein, Silberstein,
 * Keslassy, "Congestion Control for Spraying with Congested Paths"), for
 * Linux as tcp_congestion_ops "nscc" and "mnscc" (one module, one code
 * base; "mnscc" autoloads this module through its alias).
 *
 * Theory.  Two signals that fail differently: queueing delay (RTT minus
 * base RTT) is graded but mixes every path and lags; ECN is per path,
 * binary and early.  Every ACK compares its delay d with target_Qdelay and
 * reads its CE echo, and the pair picks one of four quadrants [N 2]:
 *
 *	             no ECN                        ECN
 *	d < target   proportional increase          no change (steer only:
 *	             alpha * (target - d) per RTT,  the path, not the
 *	             fast increase if the pipe is   network, is congested)
 *	             empty (x1.25 per RTT)
 *	d >= target  fair increase, fi per RTT      multiplicative decrease
 *	                                            cwnd *= max(1 - gamma *
 *	                                            (avg - target) / avg, 0.5)
 *
 * "Fast trigger, slow actuator" [N 1]: increases accumulate as credit and
 * are applied in batches every 8 MTU of ACKs or network RTT ("fulfill",
 * credit divided by cwnd: equal per-RTT steps for all flows = fairness);
 * eta adds liveness once per network RTT; MD is immediate but sized by a
 * slow EWMA of the delay that trusts high delays only when they carry ECN,
 * and comes at most once per base RTT.  Quick Adapt resets cwnd to what
 * was delivered in the last base_rtt + target when a flow nearly stalled
 * and something bad (loss, delay > 4 target) happened: incast in O(1) RTT.
 * All gains scale with the network BDP against 100 Gbit/s x 12 us.
 *
 * MNSCC [M III-B]: under spraying, the few packets that cross a congested
 * path return large delays again and again; a controller that acts on the
 * latest sample backs off far too often (throughput Theta(1/sqrt(q))).
 * MNSCC decides on the median of the last H ACKs' delays, H =
 * max(min(W/2, 4), 1), which a minority of bad paths cannot move.
 *
 * Linux mapping: cwnd is kept in bytes by the law (nscc_law.c);
 * snd_cwnd = cwnd / mss and the socket paces at pacing_gain * cwnd /
 * min(srtt, base RTT + target) (nscc_pacing_srtt())
 * (internal pacing, as BBR; TSO autosizing needs the rate anyway).  The
 * per-ACK ECN bit is the change of tp->delivered_ce (the packets this ACK
 * delivered were echoed CE).  The receiving socket must echo CE per packet
 * (DCTCP's receiver, dcc_ecn_echo()): run nscc/mnscc (or dctcp) on both
 * ends; iperf3 -C sets it on the server's data socket too.  Classic echo
 * still works, with about one RTT of echoes per mark.  A loss reported by
 * SACK/RACK (rs->losses) is NSCC's NACK (cwnd -= lost bytes, QA trigger);
 * an RTO takes one packet off; spurious-recovery undo restores the window.
 *
 * Decisions where the papers and [H] are silent or do not fit Linux (each is
 * also at its code):
 *  - alpha normalised by the network RTT, not by the absolute 12 us of
 *    the reference ([H] writes 4 MSS scale_a / 12 us): identical at the
 *    reference network, and a per-RTT step that is a fixed fraction of the
 *    BDP at any RTT (nscc_resolve());
 *  - no ECN negotiated, or a path that never marks: NSCC alone has no
 *    decrease then but a loss's (UE assumes a fabric that marks).
 *    Without ECN a delay at or above noecn_mark_pct (125%) of the target
 *    counts as a mark (there is no other signal, and no UE behaviour to
 *    keep).  With ECN the marks are the network's alone, as in UE
 *    (ecn_backstop_mode 0, the default); mode 1 adds a backstop for a
 *    network that may not mark: a delay at or above ecn_backstop_pct
 *    (150%) of the target is a mark until the flow's first CE echo, after
 *    which the path is left to its marks.  Measured in the packet model
 *    (test_nscc_law, 100 Mbit/s, 10 ms, target 5 ms): 8 flows on a path
 *    that never marks stand an 11-BDP queue (each at maxwnd) by default,
 *    6.9 ms in mode 1; under spraying (1 path of 4 +20 ms) a backstop on
 *    every ACK (mode 2, this module's default before) kept NSCC at 0.50
 *    of the link where UE's law keeps 0.97.  125% without
 *    ECN, not 100%: a mark at the target leaves no fair-increase band,
 *    and with the EWMA scaled (below) 8 flows split to Jain 0.88-0.94
 *    (6 seeds); at 125%, 0.997-0.998 with a 6.5 ms queue.  A fallback
 *    that marks when delay and the EWMA are above target would never
 *    fire: the EWMA feeds base/4 for unmarked high delays, so it stays
 *    below target.  0 = UE behaviour;
 *  - the delay EWMA's gain (0.0125 per ACK in [H], whose ACKs each carry
 *    a 4 KB packet: 36.6 per RTT at the reference network) is spread
 *    over the bytes of a reference RTT and applied per acked byte
 *    (nscc_ewma_per_byte()), so its time constant is [H]'s 2.2 RTTs at
 *    any BDP, MSS or ACK aggregation, as every other gain here scales
 *    with the BDP.  Per ACK it was 2.4x faster in RTTs at the testbed
 *    (86 ACKs per RTT) and ~2.8x at 100 Gbit/s with 1448-byte segments;
 *  - MNSCC: W = cwnd / mss (one ACK per segment), and an even window
 *    takes the lower median (both chosen on the packet model, see
 *    nscc_median_h() and test_nscc_law.c);
 *  - base RTT: min-tracked as in [H] (tcp_min_rtt, so a falling base RTT
 *    takes effect at once), from base_rtt_us if set ([H]'s configured
 *    starting value), and lowered to the lowest min RTT the namespace's
 *    dcc flows have seen to the destination (share_base_rtt, default on:
 *    a flow that starts into a standing queue otherwise takes that queue
 *    as its base; nscc_share_read() has the measurement);
 *  - the per-RTT increases (alpha's step, fi) scaled by the flow's base
 *    RTT over the network RTT, so that flows of different base RTTs gain
 *    the same per second (nscc_rtt_fair() has the measurement);
 *  - network_rtt: parameter, else the flow's base RTT; nic rate:
 *    parameter, else the egress NIC's link speed (dcc_lib's dev_speed:
 *    a NIC backed by hardware), else the 100 Gbit/s reference: with the
 *    reference on a 25 Gbit/s host the windows were 6 BDPs and every gain
 *    four times too large (a 5-BDP queue at 8 us, userspace model;
 *    nscc_resolve_nic()); target default 1.0 network RTT (no trims).
 *  - WTD / q3_pressure (optional single-path arms, default off in UE) and
 *    flow-label rehashing are not implemented.
 *
 * Every paper constant is a validated module parameter.  A write publishes
 * a new immutable snapshot (dcc.h: parameter snapshots); each socket takes a reference
 * to the snapshot current at its init, so a running flow never sees its
 * parameters change.  The law's configuration (nscc_cfg: ns durations,
 * fixed-point gains) is resolved from that snapshot once at init, into a
 * small per-socket allocation next to the reference (struct nscc_conf),
 * and again only when an input changes (base RTT, MSS, ECN).  The per-ACK
 * path is dcc_sample_get(), a few compares (nscc_conf_current()),
 * nscc_on_ack(), and dcc_apply() only on the ACKs whose decision changed
 * (a window or pacing-band move, CA_Loss: nscc.h, Decisions); the others
 * leave snd_cwnd and sk_pacing_rate as the last decision set them.
 * The allocation and the reference are what init acquires and release
 * gives back (dcc.h: lifecycle; hooks before init leave the state alone).
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <net/tcp.h>
#include <linux/inet_diag.h>
#include "dcc/dcc.h"
#include "dcc/ecn_echo.h"
#include "dcc/nscc.h"

#define CREATE_TRACE_POINTS
#include "nscc_trace.h"

/* ---- tunables ----------------------------------------------------------- */

static u32 nic_mbps;		/* 0: the egress NIC's speed, else 100000 */
static u32 network_rtt_us;
static u32 target_us;
static u32 target_pct = 100;
static u32 prop_gain_x100 = 400;
static u32 fi_x100 = 500;
static u32 eta_x100 = 15;
static u32 fi_scale_x100 = 25;
static u32 fi_thresh_us;
static u32 gamma_pct = 80;
static u32 md_floor_pct = 50;
static u32 delay_alpha_ppm = 12500;
static u32 qa_gate = 3;
static u32 qa_thresh_pct = 400;
static u32 fulfill_bytes = 8 * NSCC_MTU_REF;
static u32 maxwnd_pct = 150;
static u32 init_cwnd_pct = 100;
static u32 noecn_mark_pct = 125;
static u32 ecn_backstop_pct = 150;
static u32 ecn_backstop_mode = NSCC_BACKSTOP_OFF;
static u32 median_hmax = NSCC_MED_HMAX;
static u32 median_ewma;
static u32 median_lower = 1;
static u32 cwnd_limited_only = 1;
static u32 pacing_gain_pct = 120;
static u32 base_rtt_us;
static u32 share_base_rtt = 1;

/* One immutable parameter set; sockets hold references (dcc.h). */
struct nscc_snap {
	struct dcc_snap snap;	/* first: dcc_lib allocates and frees it */
	struct nscc_params p;
	/* the glue's: where the base RTT comes from (nscc_base_of()) */
	u32 base_rtt_us;
	bool share_base_rtt;
};

/* The current parameter values, as one snapshot. */
static void nscc_snap_fill(struct dcc_snap *ds)
{
	struct nscc_snap *s = container_of(ds, struct nscc_snap, snap);

	s->p = (struct nscc_params){
		.nic_mbps = READ_ONCE(nic_mbps),
		.network_rtt_us = READ_ONCE(network_rtt_us),
		.target_us = READ_ONCE(target_us),
		.target_pct = READ_ONCE(target_pct),
		.prop_gain_x100 = READ_ONCE(prop_gain_x100),
		.fi_x100 = READ_ONCE(fi_x100),
		.eta_x100 = READ_ONCE(eta_x100),
		.fi_scale_x100 = READ_ONCE(fi_scale_x100),
		.fi_thresh_us = READ_ONCE(fi_thresh_us),
		.gamma_pct = READ_ONCE(gamma_pct),
		.md_floor_pct = READ_ONCE(md_floor_pct),
		.delay_alpha_ppm = READ_ONCE(delay_alpha_ppm),
		.qa_gate = READ_ONCE(qa_gate),
		.qa_thresh_pct = READ_ONCE(qa_thresh_pct),
		.fulfill_bytes = READ_ONCE(fulfill_bytes),
		.maxwnd_pct = READ_ONCE(maxwnd_pct),
		.init_cwnd_pct = READ_ONCE(init_cwnd_pct),
		.noecn_mark_pct = READ_ONCE(noecn_mark_pct),
		.ecn_backstop_pct = READ_ONCE(ecn_backstop_pct),
		.ecn_backstop_mode = READ_ONCE(ecn_backstop_mode),
		.median_hmax = READ_ONCE(median_hmax),
		.median_ewma = READ_ONCE(median_ewma),
		.median_lower = READ_ONCE(median_lower),
		.cwnd_limited_only = READ_ONCE(cwnd_limited_only),
		.pacing_gain_pct = READ_ONCE(pacing_gain_pct),
	};
	s->base_rtt_us = READ_ONCE(base_rtt_us);
	s->share_base_rtt = READ_ONCE(share_base_rtt);
}

DEFINE_DCC_SNAPS(nscc_snaps, struct nscc_snap, snap, nscc_snap_fill);

/* each accepted write publishes a new snapshot (dcc_param_snap()) */
#define nscc_param(name, lo, hi, desc)					\
	dcc_param_snap(name, name, lo, hi, nscc_snaps, desc)

nscc_param(nic_mbps, 0, 800000,
	   "host link (NIC) rate, Mbit/s: sets the BDP, maxwnd and the gains; 0 = the egress device's link speed (dcc_lib dev_speed), else UE's reference 100000");
nscc_param(network_rtt_us, 0, 1000000,
	   "network RTT for the gains and the eta period, us; 0 = the flow's base RTT");
nscc_param(target_us, 0, 1000000, "target queueing delay, us; 0 = target_pct of the network RTT");
nscc_param(target_pct, 1, 1000,
	   "target queueing delay as % of the network RTT (UE: 100, 75 with trimming)");
nscc_param(prop_gain_x100, 0, 10000,
	   "proportional increase: x100 MSS_ref per network RTT of missing queue (4)");
nscc_param(fi_x100, 0, 10000, "fair increase fi: x100 MSS_ref x scale_a per RTT (5)");
nscc_param(eta_x100, 0, 10000, "eta: x100 MSS_ref x scale_a per network RTT (0.15)");
nscc_param(fi_scale_x100, 0, 10000, "fast increase: x100 scale_a bytes per acked byte (0.25)");
nscc_param(fi_thresh_us, 0, 1000000, "fast-increase delay threshold, us; 0 = network RTT / 12");
nscc_param(gamma_pct, 1, 100, "multiplicative decrease gain gamma, % (80)");
nscc_param(md_floor_pct, 1, 99, "MD keeps at least this % of cwnd (50)");
nscc_param(delay_alpha_ppm, 1, 1000000, "delay EWMA gain, ppm (12500 = 0.0125)");
nscc_param(qa_gate, 0, 16, "quick adapt if delivered < maxwnd >> qa_gate in a window (3)");
nscc_param(qa_thresh_pct, 100, 10000, "quick adapt delay threshold, % of target (400)");
nscc_param(fulfill_bytes, 1, 1073741824,
	   "apply increase credit every this many acked bytes (33280 = 8 MTU_ref)");
nscc_param(maxwnd_pct, 100, 1000, "maxwnd as % of the flow's BDP (150)");
nscc_param(init_cwnd_pct, 0, 100, "initial cwnd, % of maxwnd (UE: 100); 0 = IW10");
nscc_param(noecn_mark_pct, 0, 10000,
	   "ECN not negotiated: a delay >= this % of target is a mark; 0 = never (UE)");
nscc_param(ecn_backstop_pct, 0, 10000,
	   "ECN negotiated: a delay >= this % of target is a mark too (ecn_backstop_mode); 0 = never (UE)");
nscc_param(ecn_backstop_mode, 0, 2,
	   "ECN backstop: 0 never (UE, default), 1 until the path's first CE echo (for a network that may not mark), 2 always");
nscc_param(median_hmax, 1, 4, "MNSCC: largest median window H, ACKs (4)");
nscc_param(median_ewma, 0, 1, "MNSCC: feed the delay EWMA the median instead of raw samples");
nscc_param(median_lower, 0, 1,
	   "MNSCC: even windows take the lower median (1) or the mean of the middle two (0)");
nscc_param(cwnd_limited_only, 0, 1, "increase only while cwnd-limited (RFC 7661 spirit)");
nscc_param(pacing_gain_pct, 100, 1000,
	   "pacing rate = this % of cwnd / min(srtt, base RTT + target)");
nscc_param(base_rtt_us, 0, 1000000,
	   "the path's base RTT if known, us: the flow's base is the lower of this and its measured minimum (UE's configured base_rtt); 0 = measured");
nscc_param(share_base_rtt, 0, 1,
	   "lower the base RTT to the lowest min RTT the namespace's dcc flows have seen to the destination (1)");

/* ---- per-socket state: 104 bytes, BUILD_BUG_ON'd ----------------------- */

/* struct nscc_state.glue bits (the law never touches them) */
#define NSCC_G_MNSCC	0x01	/* this socket runs mnscc */
#define NSCC_G_CE	0x02	/* receiver: CE state of the current run */

/*
 * The socket's resolved configuration, what it was resolved from, and
 * what the last decision applied left on the socket.  Too large for
 * icsk_ca_priv, so init allocates it (GFP_NOWAIT: init may run in softirq
 * on a passive open) and release frees it.  It is resolved at init and
 * again only when the base RTT, the MSS or ECN change (ECN is not known
 * yet when init runs in SYN_SENT).
 *
 * Per ACK, nscc_conf_current() compares the raw inputs and what the socket
 * holds with the copies kept here: a change of either sends the ACK
 * through nscc_conf_refresh(), which re-resolves if an input of c changed
 * and has the law decide again (its decision no longer holds on the
 * socket).
 */
struct nscc_conf {
	struct nscc_snap *snap;		/* parameters at init (reference) */
	struct nscc_cfg c;		/* c.mss: the MSS it was resolved for */
	u32 base_us;			/* nscc_base_of() c was resolved for */
	u32 shared_us;			/* the shared minimum last read; 0: none */
	bool ecn;			/* ECN c was resolved for */
	/* the fast per-ACK check (nscc_conf_current) */
	u32 min_rtt_us;			/* tcp_min_rtt() at the last check */
	u32 mss_cache;			/* tp->mss_cache then; 0: check every ACK */
	u32 snd_cwnd;			/* snd_cwnd the last decision set */
	bool share;			/* snap->share_base_rtt */
	unsigned long max_rate;		/* sk_max_pacing_rate it was capped to */
};

struct nscc {
	struct nscc_state st;		/* the law's state (88 B) */
	/*
	 * NULL if init's allocation failed: the socket then resolves the
	 * current parameters on the stack per ACK (slower, same law)
	 */
	struct nscc_conf *conf;
	u32 prev_delivered_ce;		/* tp->delivered_ce at the last ACK */
	u32 prior_rcv_nxt;		/* receiver: precise ECN echo */
};

static struct tcp_congestion_ops tcp_nscc;
static struct tcp_congestion_ops tcp_mnscc;

static bool nscc_ecn_ok(const struct sock *sk)
{
	return tcp_sk(sk)->ecn_flags & TCP_ECN_OK;
}

/*
 * The flow's base RTT, us (0: none yet, nscc_resolve() then uses 1 ms):
 * its own minimum (dcc_base_rtt_us(): tcp_min_rtt(), srtt before the
 * first sample), lowered to @p->base_rtt_us when that is set (UE's
 * configured base_rtt, which min-tracking lowers further: a value set too
 * high costs nothing) and to @shared_us, the namespace's minimum for the
 * destination (0: none).
 */
static u32 nscc_base_of(const struct sock *sk, const struct nscc_snap *p,
			u32 shared_us)
{
	u32 b = dcc_base_rtt_us(sk, 0);

	if (p->base_rtt_us && (!b || p->base_rtt_us < b))
		b = p->base_rtt_us;
	if (shared_us && (!b || shared_us < b))
		b = shared_us;
	return b;
}

/*
 * Read the lowest min RTT the namespace's dcc flows have seen to this
 * socket's destination (dcc_shared_min_rtt_us(), which folds @own_us,
 * the socket's tcp_min_rtt(), in), when share_base_rtt and a sample: on
 * every refresh, which the first sample brings and then dcc_share_due()
 * (a hash and a shared cache line: not per ACK).  Why: a flow
 * that starts while others hold a queue measures that queue into its
 * minimum (its SYN and all its samples wait in it), so it reads its
 * queueing delay low by up to the queue and takes a maxwnd and a QA gate
 * scaled by the inflated base.  Measured in the guest (test_nscc_quadrants
 * D: 16 flows from one namespace into a 2000-packet buffer, 10.0 ms path):
 * the six flows that started 24 ms after the first ten took base RTTs of
 * 10.9-27.4 ms, a delay read up to 17 ms (3.4 targets) low, and QA set
 * windows to up to 58 KB, 2.5x the 23 KB gate of the true base.  Flows of
 * other hosts cannot share (dcc_lib.c: keying): there, base_rtt_us.
 */
static void nscc_share_read(const struct sock *sk, struct nscc_conf *k,
			    u32 own_us)
{
	if (k->share && own_us)
		k->shared_us = dcc_shared_min_rtt_us(sk, own_us);
}

/*
 * Re-resolve the socket's config if one of its inputs changed, and have
 * the law decide again when the config changed or the socket no longer
 * holds the decision in force: called when nscc_conf_current() saw an
 * input, snd_cwnd or the pacing cap move, or the shared minimum is due.
 * Out of line: it may read the shared table and call nscc_resolve()
 * (128-bit divisions).
 */
static noinline void nscc_conf_refresh(const struct sock *sk, struct nscc *ca)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct nscc_conf *k = ca->conf;
	u32 min_rtt = tcp_min_rtt(tp);
	bool sampled = min_rtt && min_rtt != ~0U;
	u32 mss = max_t(u32, tp->mss_cache, 1);
	bool ecn = nscc_ecn_ok(sk);
	u32 base_us;

	nscc_share_read(sk, k, sampled ? min_rtt : 0);
	base_us = nscc_base_of(sk, k->snap, k->shared_us);
	if (base_us != k->base_us || mss != k->c.mss || ecn != k->ecn) {
		nscc_resolve_nic(&k->snap->p, dcc_egress_speed_mbps(sk),
				 dcc_us_to_ns(base_us), mss, ecn,
				 ca->st.glue & NSCC_G_MNSCC, &k->c);
		k->base_us = base_us;
		k->ecn = ecn;
		nscc_decision_stale(&ca->st);	/* new bounds */
	} else if (k->snd_cwnd != tcp_snd_cwnd(tp) ||
		   k->max_rate != READ_ONCE(sk->sk_max_pacing_rate)) {
		nscc_decision_stale(&ca->st);
	}
	/*
	 * dcc_base_rtt_us() is tcp_min_rtt() whenever that holds a sample
	 * (>= 1 us: the stack records a 0 us RTT as a jiffy); without one
	 * (~0U) the base follows srtt, so mss_cache 0 (never an MSS: at least
	 * TCP_MIN_SND_MSS) sends every ACK here until a sample comes.
	 */
	k->min_rtt_us = min_rtt;
	k->mss_cache = sampled ? tp->mss_cache : 0;
}

/*
 * The socket runs on the config and the decision it was given: the
 * inputs of c (the base RTT through tcp_min_rtt(), the MSS, ECN) are
 * those of the last check, the shared minimum is not due, and snd_cwnd
 * and the pacing cap are as the last decision applied left them.  The
 * stack writes snd_cwnd itself at times (tcp_enter_loss(), an undo, an
 * MTU probe's -1 / +1, a CC set in SYN_SENT before tcp_init_transfer()
 * sets IW10), and a raised SO_MAX_PACING_RATE wants the law's rate back:
 * the law's decision then no longer holds on the socket, and it is
 * decided and applied again.
 */
static bool nscc_conf_current(const struct sock *sk, const struct nscc_conf *k,
			      u32 acked)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	return k->min_rtt_us == tcp_min_rtt(tp) && k->mss_cache == tp->mss_cache &&
	       k->ecn == nscc_ecn_ok(sk) && k->snd_cwnd == tcp_snd_cwnd(tp) &&
	       k->max_rate == READ_ONCE(sk->sk_max_pacing_rate) &&
	       !(k->share && dcc_share_due(tp, acked));
}

/*
 * The law's configuration for this socket outside the per-ACK path (init,
 * RTO): its resolved one, refreshed; without one (allocation failed), the
 * current parameters resolved into @tmp.
 */
static const struct nscc_cfg *nscc_cfg(const struct sock *sk, struct nscc *ca,
				       struct nscc_cfg *tmp)
{
	bool mnscc = ca->st.glue & NSCC_G_MNSCC;
	const struct nscc_snap *snap;

	if (likely(ca->conf)) {
		nscc_conf_refresh(sk, ca);
		nscc_decision_stale(&ca->st);
		return &ca->conf->c;
	}
	rcu_read_lock();
	snap = container_of(dcc_snap_peek(&nscc_snaps), struct nscc_snap, snap);
	/* no room to keep a shared read: the own minimum and base_rtt_us */
	nscc_resolve_nic(&snap->p, dcc_egress_speed_mbps(sk),
			 dcc_us_to_ns(nscc_base_of(sk, snap, 0)),
			 max_t(u32, tcp_sk(sk)->mss_cache, 1), nscc_ecn_ok(sk), mnscc, tmp);
	rcu_read_unlock();
	return tmp;
}

/* The kernel's smoothed RTT in ns (tp->srtt_us is us << 3); 0 if none. */
static u64 nscc_srtt_ns(const struct tcp_sock *tp)
{
	return (u64)tp->srtt_us * NSEC_PER_USEC >> 3;
}

static void nscc_conf_free(struct nscc *ca)
{
	if (ca->conf) {
		dcc_snap_put(&nscc_snaps, &ca->conf->snap->snap);
		kfree(ca->conf);
		ca->conf = NULL;
	}
}

/*
 * Put a decision on the socket, and note what it left there for
 * nscc_conf_current().  Only for a changed decision: dcc_apply() divides.
 */
static void nscc_apply(struct sock *sk, struct nscc *ca,
		       const struct dcc_decision *d)
{
	struct nscc_conf *k = ca->conf;

	dcc_apply(sk, d->rate_bytes_ps, d->cwnd_bytes);
	if (likely(k)) {
		k->snd_cwnd = tcp_snd_cwnd(tcp_sk(sk));
		k->max_rate = READ_ONCE(sk->sk_max_pacing_rate);
	}
}

static void nscc_init(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct nscc *ca = inet_csk_ca(sk);
	bool mnscc = inet_csk(sk)->icsk_ca_ops == &tcp_mnscc;
	const struct nscc_cfg *c;
	struct dcc_decision d;
	struct nscc_cfg tmp;

	BUILD_BUG_ON(sizeof(struct nscc) > ICSK_CA_PRIV_SIZE);
	BUILD_BUG_ON(sizeof(struct nscc) > 104);

	nscc_conf_free(ca);	/* re-init without release: keep no stale ref */
	/* zeroed: c.mss 0 is no MSS, so the first nscc_cfg() resolves */
	ca->conf = kzalloc(sizeof(*ca->conf), GFP_NOWAIT | __GFP_NOWARN);
	if (ca->conf) {
		ca->conf->snap = dcc_snap_get_as(&nscc_snaps,
						 struct nscc_snap, snap);
		ca->conf->share = ca->conf->snap->share_base_rtt;
	}
	ca->st.glue = mnscc ? NSCC_G_MNSCC : 0;
	c = nscc_cfg(sk, ca, &tmp);
	nscc_state_init(&ca->st, c, tp->tcp_clock_cache);
	ca->st.glue = mnscc ? NSCC_G_MNSCC : 0;
	ca->prev_delivered_ce = tp->delivered_ce;
	dcc_ecn_echo_init(sk, &ca->prior_rcv_nxt);
	/* init also runs in SYN_SENT (ECN not known yet): log established only */
	if (sk->sk_state == TCP_ESTABLISHED && !nscc_ecn_ok(sk))
		pr_info_once("%s: ECN not negotiated on a socket: controlling on delay alone (noecn_mark_pct)\n",
			     inet_csk(sk)->icsk_ca_ops->name);

	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;	/* no slow start */
	dcc_pacing_init(sk);
	nscc_decide(&ca->st, c, nscc_srtt_ns(tp), &d);
	nscc_apply(sk, ca, &d);
}

static void nscc_release(struct sock *sk)
{
	nscc_conf_free(inet_csk_ca(sk));	/* NULL if init never ran */
}

/*
 * Tracepoint fields stay in us (nscc_trace.h); the law's times are ns.
 * Out of line: the caller tests trace_nscc_ack_enabled(), a static branch.
 */
static noinline void nscc_trace(struct sock *sk, const struct nscc *ca,
				const struct nscc_cfg *c, const struct dcc_sample *s,
				const struct nscc_out *o, u32 prev_cwnd)
{
	u8 f;

	if (!(o->md || o->qa || o->fulfill || s->losses ||
	      o->quadrant >= NSCC_Q_STEER))
		return;
	f = (o->mark ? NSCC_TF_MARK : 0) | (s->ce ? NSCC_TF_CE : 0) |
	    (o->md ? NSCC_TF_MD : 0) | (o->qa ? NSCC_TF_QA : 0) |
	    (o->fulfill ? NSCC_TF_FULFILL : 0) | (s->losses ? NSCC_TF_LOSS : 0) |
	    (ca->st.glue & NSCC_G_MNSCC ? NSCC_TF_MNSCC : 0);
	trace_nscc_ack(sk, f, o->quadrant, o->delay_ns / NSEC_PER_USEC,
		       o->raw_ns / NSEC_PER_USEC,
		       nscc_avg_ns(&ca->st) / NSEC_PER_USEC,
		       c->target_ns / NSEC_PER_USEC, c->base_ns / NSEC_PER_USEC,
		       prev_cwnd, ca->st.cwnd,
		       tcp_snd_cwnd(tcp_sk(sk)), READ_ONCE(sk->sk_pacing_rate));
}

/*
 * One ACK through the law on config @c; a changed decision is applied.
 * Inline in both callers below: the common path makes two calls,
 * dcc_sample_get() and nscc_on_ack(), and divides nowhere.
 */
static __always_inline void nscc_ack(struct sock *sk, struct nscc *ca,
				     const struct rate_sample *rs,
				     const struct nscc_cfg *c)
{
	struct tcp_sock *tp = tcp_sk(sk);
	/*
	 * No zeroing: dcc_sample_get() writes every field of the sample, and
	 * nscc_on_ack() the decision and its outputs before they are read.
	 */
	struct dcc_decision d __uninitialized;
	struct dcc_sample s __uninitialized;
	struct nscc_out o __uninitialized;
	u32 prev_cwnd = ca->st.cwnd;	/* the tracepoint's, before the law */

	dcc_sample_get(sk, rs, &s, 0);
	/*
	 * rs->delivered_ce (s.ce) counts CE over the rate sample's interval
	 * (an RTT); NSCC's ECN bit is this ACK's: DCTCP's per-ACK delta.
	 */
	s.ce = tp->delivered_ce - ca->prev_delivered_ce;
	ca->prev_delivered_ce = tp->delivered_ce;
	nscc_on_ack(&ca->st, c, &s, nscc_srtt_ns(tp), tcp_packets_in_flight(tp),
		    tcp_is_cwnd_limited(sk),
		    inet_csk(sk)->icsk_ca_state == TCP_CA_Loss, &d, &o);
	if (d.changed)
		nscc_apply(sk, ca, &d);
	if (trace_nscc_ack_enabled())
		nscc_trace(sk, ca, c, &s, &o, prev_cwnd);
}

/*
 * No config of its own (init's allocation failed): the current parameters
 * resolved per ACK on the stack, a new config each time, so the law
 * decides on every ACK (slower, same law).
 */
static noinline void nscc_ack_unresolved(struct sock *sk, struct nscc *ca,
					 const struct rate_sample *rs)
{
	const struct nscc_cfg *c;
	struct nscc_cfg tmp;

	c = nscc_cfg(sk, ca, &tmp);
	nscc_decision_stale(&ca->st);
	nscc_ack(sk, ca, rs, c);
}

static void nscc_cong_control(DCC_CONG_CONTROL_ARGS(sk, rs))
{
	struct nscc *ca = inet_csk_ca(sk);
	struct nscc_conf *k = ca->conf;

	if (unlikely(!(ca->st.flags & NSCC_S_INITED)))
		return;		/* the handshake's ACK (dcc.h: lifecycle) */
	if (unlikely(!k)) {
		nscc_ack_unresolved(sk, ca, rs);
		return;
	}
	if (unlikely(!nscc_conf_current(sk, k, rs->acked_sacked)))
		nscc_conf_refresh(sk, ca);
	nscc_ack(sk, ca, rs, &k->c);
}

/*
 * RTO: one packet less [H] (the stack set snd_cwnd to inflight + 1; the
 * law conserves packets while in Loss).  Out of line, with its config
 * buffer: cwnd_event also runs per CE change on a receiver.
 */
static noinline void nscc_rto(struct sock *sk, struct nscc *ca)
{
	struct nscc_cfg tmp;

	nscc_on_rto(&ca->st, nscc_cfg(sk, ca, &tmp),
		    max_t(u32, tcp_sk(sk)->mss_cache, 1));
}

static void nscc_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	struct nscc *ca = inet_csk_ca(sk);
	bool ce;

	switch (ev) {
	case CA_EVENT_ECN_IS_CE:
	case CA_EVENT_ECN_NO_CE:
		/* receiver: echo CE per packet (DCTCP's state machine) */
		ce = dcc_ecn_echo(sk, ev, &ca->prior_rcv_nxt,
				  ca->st.glue & NSCC_G_CE);
		ca->st.glue = (ca->st.glue & ~NSCC_G_CE) | (ce ? NSCC_G_CE : 0);
		break;
	case CA_EVENT_LOSS:
		if (ca->st.flags & NSCC_S_INITED)
			nscc_rto(sk, ca);
		break;
	case CA_EVENT_TX_START:
		/*
		 * Sending with nothing in flight.  That also happens every
		 * round when one ACK covers a whole (small) window, so only a
		 * gap of more than a base RTT since the last delivery is an
		 * idle restart: then no QA decision and no eta may span it.
		 */
		if ((ca->st.flags & NSCC_S_INITED) &&
		    dcc_tx_start_after_idle(sk, dcc_base_rtt_us(sk, 0)))
			nscc_on_idle_restart(&ca->st, tcp_sk(sk)->tcp_clock_cache);
		break;
	default:
		break;
	}
}

static u32 nscc_ssthresh(struct sock *sk)
{
	/* ECE (CWR), recovery, RTO: NSCC cuts cwnd itself, not the core */
	return tcp_sk(sk)->snd_ssthresh;
}

static u32 nscc_undo_cwnd(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct nscc *ca = inet_csk_ca(sk);
	u64 prior = (u64)tp->prior_cwnd * max_t(u32, tp->mss_cache, 1);

	if (!(ca->st.flags & NSCC_S_INITED))	/* before init: nothing to undo */
		return tcp_snd_cwnd(tp);
	/* a spurious recovery (DSACK, timestamps): give back the loss cut */
	if (prior > ca->st.cwnd)
		ca->st.cwnd = (u32)min_t(u64, prior, NSCC_CWND_MAX);
	/* in u64: a u32 window near NSCC_CWND_MAX would wrap rounding up */
	return dcc_cwnd_pkts(tp, ca->st.cwnd);
}

/*
 * ss -ti: reuses the DCTCP info layout (ss prints "dctcp:(...)"):
 *	enabled		ECN negotiated (ss shows "dctcp:fallback_mode" if not:
 *			the socket controls on delay alone)
 *	ce_state	last decision: 0 proportional increase, 1 fair
 *			increase, 2 MD quadrant, 3 steer only, 4 quick adapt,
 *			5 ECN ignored after QA, 6 loss
 *	alpha		filtered queueing delay avg_delay, us
 *	ab_ecn, ab_tot	packets delivered CE-echoed / in total (not bytes)
 */
static size_t nscc_get_info(struct sock *sk, u32 ext, int *attr,
			    union tcp_cc_info *info)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	const struct nscc *ca = inet_csk_ca(sk);

	if (!(ext & (1 << (INET_DIAG_DCTCPINFO - 1))) &&
	    !(ext & (1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;
	memset(&info->dctcp, 0, sizeof(info->dctcp));
	info->dctcp.dctcp_enabled = nscc_ecn_ok(sk);
	/* ss may read while an ACK updates: each per-ACK field once */
	info->dctcp.dctcp_ce_state = READ_ONCE(ca->st.quadrant);
	info->dctcp.dctcp_alpha = READ_ONCE(ca->st.avg_ns) / NSEC_PER_USEC;
	info->dctcp.dctcp_ab_ecn = tp->delivered_ce;
	info->dctcp.dctcp_ab_tot = tp->delivered;
	*attr = INET_DIAG_DCTCPINFO;
	return sizeof(info->dctcp);
}

static struct tcp_congestion_ops tcp_nscc __read_mostly = {
	.name		= "nscc",
	.owner		= THIS_MODULE,
	.flags		= TCP_CONG_NEEDS_ECN,
	.init		= nscc_init,
	.release	= nscc_release,
	.cong_control	= nscc_cong_control,
	.ssthresh	= nscc_ssthresh,
	.undo_cwnd	= nscc_undo_cwnd,
	.cwnd_event	= nscc_cwnd_event,
	.get_info	= nscc_get_info,
};

static struct tcp_congestion_ops tcp_mnscc __read_mostly = {
	.name		= "mnscc",
	.owner		= THIS_MODULE,
	.flags		= TCP_CONG_NEEDS_ECN,
	.init		= nscc_init,
	.release	= nscc_release,
	.cong_control	= nscc_cong_control,
	.ssthresh	= nscc_ssthresh,
	.undo_cwnd	= nscc_undo_cwnd,
	.cwnd_event	= nscc_cwnd_event,
	.get_info	= nscc_get_info,
};

DCC_ACK_HOOK(nscc_cong_control);	/* both names; modinfo: what the tools time and check */

static int __init nscc_register(void)
{
	int err;

	err = dcc_snaps_init(&nscc_snaps);
	if (err)
		return err;
	err = dcc_register_ca(&tcp_nscc);
	if (err)
		goto put;
	err = dcc_register_ca(&tcp_mnscc);
	if (err) {
		dcc_unregister_ca(&tcp_nscc);
		goto put;
	}
	return 0;
put:
	dcc_snaps_exit(&nscc_snaps);
	return err;
}

static void __exit nscc_unregister(void)
{
	dcc_unregister_ca(&tcp_mnscc);
	dcc_unregister_ca(&tcp_nscc);
	/* no socket is left (each held a module reference) */
	dcc_snaps_exit(&nscc_snaps);
}

module_init(nscc_register);
module_exit(nscc_unregister);

MODULE_AUTHOR("dcc developers");
MODULE_LICENSE("GPL");
MODULE_ALIAS("tcp_mnscc");
MODULE_DESCRIPTION("NSCC (UE network signal congestion control) and MNSCC (median-filtered, for spraying)");
