// SPDX-License-Identifier: GPL-2.0
/*
 * OSCAR: O(1)-step convergence, delay-based congestion control
 * (Zhang et al., "OSCAR: O(1)-Step Convergence And Readily-deployable
 * Congestion Control", NSDI'26), for Linux as tcp_congestion_ops "oscar".
 *
 * Theory.  With a standing bottleneck queue, the RTT d reflects the
 * aggregate window (d = sum(w)/mu when flows are window-bound) and the
 * delay gradient g = dd/dt reflects the aggregate arrival rate
 * (1 + g = sum(r)/mu when flows are rate-bound).  A multiplicative step
 * whose factor comes from such a measurement of the aggregate lands every
 * flow on target at once, whatever n is: scale windows by D_target/d, or
 * rates by 1/(1 + g).  So OSCAR keeps one unified ratio u (a share of the
 * line rate mu), sets
 *
 *	cwnd = min(u * D_target * mu, mu * (RTT_base + eps)),
 *	pacing rate = u * mu,
 *
 * and every batch of ACKs (tau ~ RTT_base/2 of send time) recomputes u from
 * the batch itself:
 *
 *	delay <= RTT_base + eps:  u += U_HAI			(empty queue)
 *	else:  u_w = inflight / (delay * mu)			(delay -> window)
 *	       u_r = rate / ((1 + g) * mu)			(gradient -> rate)
 *	       u = delay < D_target ? max(u_w, u_r) : min(u_w, u_r)
 *	       u += U_AI					(fairness)
 *
 * where delay, g, inflight and rate are the batch's mean RTT, least-squares
 * slope of RTT over send time, mean inflight at send and send rate
 * (dcc_lib's BLS estimator).  Because inflight and rate are those of the
 * very packets that produced the signal, a stale signal re-applied to its
 * stale state gives the same u again instead of compounding (no
 * overreaction), which is what allows a multiplicative step every half
 * RTT.  An imprecise signal only under-states its magnitude, hence max()
 * when accelerating and min() when decelerating.  U_AI after every MIMD
 * step raises Jain's index monotonically (Thm D.3).
 *
 * Paper symbol -> field:
 *	u			oscar->st.u (Q20, 1.0 = OSCAR_U_ONE)
 *	mu			oscar->c.mu_bytes_ps (bytes/s)
 *	RTT_base		oscar->c.base_ns
 *	D_target		base_ns + ref_ns * (dt_pct - 100) / 100
 *				(oscar_dt_ns(); ref_ns = base_ns unless
 *				shared_target, below)
 *	tau			base_ns * tau_pct / 100 (oscar_tau_ns())
 *	U_AI, U_HAI, eps	oscar_params .u_ai, .u_hai (Q20), .eps_ns
 *	"counts >= 3" (Alg. 1)	oscar_params.min_samples (default 16, oscar.h)
 *	sendTs, recvTs		dcc_sample.tx_ns, .rx_ns (ns)
 *	pktInfl			dcc_sample.infl_pkts (rs->delivered)
 *	BE (Alg. 1)		oscar->st.bls (struct dcc_bls)
 *
 * The claim, as the paper defines it (footnote 1): reaching the target
 * state (near-full utilisation, a shallow queue) in a number of update
 * steps independent of the perturbation.  In the userspace model
 * (test_oscar_law, burst: K = 1, 3, 7 flows join one at line rate for 40
 * RTT, then stop) the landing holds: every flow within 20% of 1/(K+1) in
 * 1-2 steps.  The recovery after the burst does not, as published (5 to
 * 43.5 RTT with the paper's 3 samples, 3 to > 80 with 16): the long
 * flow's batch spans more than the ~0.5-RTT drain, the drain's gradient
 * is diluted, and the empty queue then leaves HAI's +0.01 per batch
 * (guest, tools/bench --scenarios burst: 34-79 RTT at K = 3, Swift's AIMD
 * 56-66).  The refill (parameter refill, below; oscar_law.c) doubles the
 * rate per round trip once a queue that stood is seen empty: 3/7/11.5
 * RTT in the model, 2.4-11.8 / 3.2-6.0 / 6.2-12.6 in the guest, growing
 * with log2(K+1), not O(1) (a slow flow needs a full batch to see the
 * queue empty); it is on by default (refill = 0 is the paper's HAI).
 * docs/oscar.md has the figures.
 *
 * The whole per-ACK sequence (first-window skip, batching, staleness,
 * app-limited hold, the law, rate and window) is the plain-C core of
 * oscar.h and oscar_law.c (oscar_on_ack(), in ns), which the unit-test
 * model, the fuzzer and the bench call too: the common ACK only adds a
 * point to the open batch, inline; a batch's close makes the decision.
 * This file is the kernel's side of it: the sample, the module
 * parameters, the two shared inputs (base RTT, mu) refreshed when the
 * core reports a closed batch, and applying the decision.
 *
 * What the paper leaves open, and how this module does it:
 *  - loss/RTO/recovery: u has no loss-driven decrease (the paper has
 *    none), but the window does: dcc_lib's loss bound (dcc.h) holds cwnd
 *    to half of what was in flight at each loss, growing back per round
 *    until u's own window fits.  Without it, 1000 flows that each start
 *    at u = 1 overflowed a 2000-packet drop-tail queue for the whole run
 *    and filled 10.5-11.2 of 20 Mbit/s; with it 19.7-19.9
 *    (test_many_flows.sh).  The batch is reset on RTO since its samples
 *    span the stall;
 *  - idle restart (CA_EVENT_TX_START): u is kept, the batch is reset so
 *    no batch spans the idle gap; batches longer than 4 tau are
 *    discarded as stale anyway;
 *  - app-limited batches (most samples app-limited): u may rise, not fall;
 *  - the initial window's packets (sent before the first ACK) join no
 *    batch: their inflight is a ramp, not a reference state (see
 *    oscar_sample_usable() in oscar_law.c);
 *  - the window cap: the paper never sets the window above the base BDP
 *    (min, where Alg. 2 line 12 prints max); here the cap is the BDP at
 *    RTT_base + eps, the delay the law itself reads as an empty queue.
 *    RTT_base is a minimum, and the RX correction takes the receiving
 *    host's delay out of it while that delay stays inside the ACK clock's
 *    loop, so a cap at mu * RTT_base held a lone flow at RTT_base / loop
 *    RTT of the link: 91.5% of the wire rate in the testbed (bench
 *    steady), 95.6% (the payload ceiling) with the eps, at the default
 *    eps (RTT_base / 12) and at the testbed's 1.5 ms alike, with a
 *    standing queue of 8 and 14 packets (~eps); in the model, with a
 *    min-RTT base 5% under the typical RTT, 0.960 -> 1.000
 *    (test_oscar_law).  A host delay above eps still costs the lone
 *    flow that share;
 *  - start_u_ppm (line rate by default, 4.2): a lower start for networks
 *    that drop.  Below line rate a flow starts in a start phase: u at
 *    least doubles per batch while the batch's delay is under D_target,
 *    and the phase ends at the first batch at or above it (or at u = 1),
 *    slow start with a delay exit (oscar_core_init()).  In the model, at
 *    0.1 of mu, 16 flows on a 1-BDP drop-tail buffer lose 85 packets
 *    instead of 4124, a lone flow ramps in 9 RTT instead of 1, and a
 *    joiner is within 20% of half the link from 16 RTT (10 at line
 *    rate).  Not the default: three joiners end their start phase at the
 *    running flow's queue, below their share, which the law keeps (it
 *    scales rates; only U_AI equalises them: not within 100 RTT, against
 *    86 at line rate);
 *  - refill (on by default; 0: the paper's HAI): the first batch that finds
 *    the queue empty after six that saw it stand (above RTT_base + 2 eps,
 *    more than a lone flow's window cap holds) starts a refill (refill =
 *    2: so does the seventh empty batch in a row after at least three
 *    that saw it, a drain the six missed; oscar_refill_due() has what it
 *    gains and costs): every
 *    empty batch sets u to at least twice the rate that batch was sent
 *    at, and closes after 3 ACKs, until a batch sees a
 *    queue again or u = 1 (oscar_phase_of() and oscar_refill_step() in
 *    oscar_law.c have why each part is as it is).  After K = 1/3/7 of
 *    K + 1 flows leave, the link is back in 3/7/11.5 RTT instead of
 *    3/45.5/> 80 (model), 2.4-11.8 / 3.2-6.0 / 6.2-12.6 instead of 34-79
 *    at K = 3 and 67 at K = 7 (guest); two long flows refilling together
 *    on a 1-BDP drop-tail buffer lose 0-1 packets (model).  What it
 *    costs: it keeps the ratio the flows have when the queue empties.
 *    While a lone flow's own queue (up to eps, the window cap) counted
 *    as one that stood, an incumbent was armed when others joined and
 *    kept up to twice a joiner's rate (guest, one flow joining one:
 *    65/30 Mbit/s), and the refill was off by default; counted above
 *    2 eps, the join/leave bench's 2-flow phase is at Jain 0.923-0.994
 *    (0.961-1.000 without the refill), its loss 0.21-0.47% (0.16-0.19%),
 *    and 4 -> 1 recovers in 7-81 RTT (77 without; docs/oscar.md);
 *  - u_hmi_pct (off by default): on an empty queue u may grow by a share
 *    of itself instead of U_HAI's fixed step, on every empty batch, not
 *    only after a drain (model: recovery 3-4.5 RTT with 3 samples per
 *    batch at K = 1-7, but two long flows on a 1-BDP buffer lose 8-14);
 *  - the shared queue target (shared_target, on by default): D_target =
 *    RTT_base + (dtarget_pct - 100) % of RTT_ref, and eps = RTT_ref / 12,
 *    where RTT_ref is the shortest RTT_base of the machine's OSCAR flows
 *    (dcc_shared_ref_rtt_us(); a path more than OSCAR_REF_SPAN = 8 times
 *    it keeps its own), and U_AI per batch is scaled by RTT_base /
 *    RTT_ref.  The paper's D_target = 1.5 RTT_base gives each path its
 *    own target queue, so flows of different base RTTs that share a
 *    bottleneck disagree on it: the long path's flows hold a queue that
 *    is congestion to the short path's, which sink to their floor (model,
 *    1 and 2 ms, two of each started together: 0.03 of the link each
 *    against 0.47; guest, docs/oscar.md).  With one target queue, one
 *    empty-queue margin and the same increase per second (a long path's
 *    batches are longer) the split is even: Jain 0.994 (2x) and 0.955
 *    (4x) in the model, against 0.57 and 0.86.  With one RTT the law is
 *    the paper's.  What is left: a flow that joins a standing queue
 *    measures it in its RTT_base (subtest 8), its D_target is that much
 *    higher, and with four staggered flows of two RTTs that still skews
 *    the split (model: Jain 0.76 at 2x, 0.75 at 4x; docs/oscar.md);
 *  - mu: module parameter; 0 = estimate, RTT_base: parameter, else
 *    tcp_min_rtt() lowered to the shared per-destination minimum;
 *    both refreshed once per batch (oscar_refresh_inputs()).
 *
 * Lifecycle as in dcc.h: hooks before init leave the state alone; init
 * takes a reference to the current parameter snapshot, release gives it
 * back.
 *
 * Per socket (icsk_ca_priv, 104 bytes): the core's state (80 B) and its
 * config (24 B: a pointer to the immutable parameter snapshot current at
 * init, mu, RTT_base and RTT_ref).  A parameter write publishes a new snapshot
 * (dcc.h: parameter snapshots), so a running flow keeps the parameters
 * it started with, as when each socket copied them, in 8 bytes instead of
 * the copy, which would not fit next to the ns config.  Nothing on the ACK
 * path sleeps or allocates.
 */
#include <linux/module.h>
#include <net/tcp.h>
#include <linux/inet_diag.h>
#include "dcc/dcc.h"
#include "dcc/oscar.h"

#define CREATE_TRACE_POINTS
#include "oscar_trace.h"

/* ---- tunables (validated; published as one snapshot per write) -------- */

static u32 line_rate_mbps;		/* mu; 0 = estimate */
static u32 base_rtt_us;			/* 0 = tcp_min_rtt() */
static u32 dtarget_pct = 150;		/* D_target = 1.5 RTT_base (Table 4) */
static u32 tau_pct = 50;		/* tau = 0.5 RTT_base (4.4) */
static u32 u_ai_ppm = 1000;		/* U_AI = 0.001 (Table 4) */
static u32 u_hai_ppm = 10000;		/* U_HAI = 0.01 (Table 4) */
static u32 u_min_ppm = 1000;		/* u floor 0.001 (artifact) */
static u32 eps_us;			/* 0 = auto: max(2, RTT_base / 12) */
static u32 hyst_us;			/* delta, 0 as the paper writes it */
static u32 init_rate_mbps = 100;	/* estimate mode: mu before any sample */
static u32 min_samples = OSCAR_MIN_SAMPLES_DEFAULT;	/* see oscar.h */
static u32 u_hmi_pct;			/* 0: the paper's additive HAI only */
static u32 refill = 1;			/* 1: refill after a drain
					 * (oscar_law.c); 0: the paper's HAI;
					 * 2: also after an armed empty run
					 */
static u32 start_u_ppm = 1000000;	/* line rate at the start (4.2) */
static u32 share_base_rtt = 1;		/* auto RTT_base: min over the netns's
					 * dcc flows to the destination
					 */
static u32 shared_target = 1;		/* auto RTT_base: the target queue is
					 * scaled from the machine's shortest
					 * OSCAR RTT_base (RTT_ref)
					 */

/*
 * One immutable parameter set, in the core's units (ns, Q20), plus the
 * two modes it fixes for the socket; sockets hold references (dcc.h:
 * parameter snapshots).
 */
struct oscar_snap {
	struct dcc_snap snap;	/* first: dcc_lib allocates and frees it */
	struct oscar_params p;
	u32 line_rate_mbps;	/* 0 = estimate mu */
	u32 base_rtt_us;	/* 0 = auto RTT_base */
};

static struct oscar_snap *oscar_snap_of(const struct oscar_params *p)
{
	return container_of(p, struct oscar_snap, p);
}

/* The current parameter values, converted once to the core's units. */
static void oscar_snap_fill(struct dcc_snap *ds)
{
	struct oscar_snap *s = container_of(ds, struct oscar_snap, snap);

	s->p = (struct oscar_params){
		.u_ai = OSCAR_PPM_TO_U(READ_ONCE(u_ai_ppm)),
		.u_hai = OSCAR_PPM_TO_U(READ_ONCE(u_hai_ppm)),
		.u_min = max_t(u32, 1, OSCAR_PPM_TO_U(READ_ONCE(u_min_ppm))),
		.eps_ns = (u32)dcc_us_to_ns(READ_ONCE(eps_us)),	/* <= 6.6e7 */
		.hyst_ns = (u32)dcc_us_to_ns(READ_ONCE(hyst_us)),
		.dt_pct = READ_ONCE(dtarget_pct),
		.tau_pct = READ_ONCE(tau_pct),
		.min_samples = READ_ONCE(min_samples),
		.hmi_pct = READ_ONCE(u_hmi_pct),
		.refill = READ_ONCE(refill),
		.start_u = OSCAR_PPM_TO_U(READ_ONCE(start_u_ppm)),
	};
	s->line_rate_mbps = READ_ONCE(line_rate_mbps);
	s->base_rtt_us = READ_ONCE(base_rtt_us);
}

DEFINE_DCC_SNAPS(oscar_snaps, struct oscar_snap, snap, oscar_snap_fill);

/* each accepted write publishes a new snapshot (dcc_param_snap()) */
#define oscar_param(name, lo, hi, desc)					\
	dcc_param_snap(name, name, lo, hi, oscar_snaps, desc)

oscar_param(line_rate_mbps, 0, 800000,
	    "bottleneck (line) rate mu in Mbit/s, 0 = the egress device's link speed (dcc_lib dev_speed), else estimated from delivery rates");
oscar_param(base_rtt_us, 0, 1000000,
	    "base RTT in us, 0 = tcp_min_rtt() of each socket");
oscar_param(dtarget_pct, 101, 1000,
	    "target delay D_target as % of the base RTT");
oscar_param(tau_pct, 10, 200,
	    "batch length / control period tau as % of the base RTT");
oscar_param(u_ai_ppm, 0, 100000,
	    "additive increase U_AI per batch, ppm of mu");
oscar_param(u_hai_ppm, 0, 1000000,
	    "hyper additive increase U_HAI on an empty queue, ppm of mu");
oscar_param(u_min_ppm, 1, 1000000,
	    "floor of the unified ratio u, ppm of mu");
oscar_param(eps_us, 0, 65535,
	    "empty-queue margin epsilon in us, 0 = max(2, base RTT / 12)");
oscar_param(hyst_us, 0, 65535,
	    "hysteresis delta on the accelerate test, us");
oscar_param(min_samples, 3, 255,
	    "ACKs a batch needs before it closes (paper: 3; 16 resists timestamp noise)");
oscar_param(start_u_ppm, 1, 1000000,
	    "u at a flow's start, ppm of mu (1000000: line rate, the paper's start for lossless fabrics; lower: doubles per batch until D_target)");
oscar_param(u_hmi_pct, 0, 1000,
	    "empty queue: u grows by at least this % of itself per batch (0 = additive U_HAI only, as the paper)");
oscar_param(refill, 0, 2,
	    "1 (default): when a queue that stood drains away, double each empty batch's send rate until it is back (0 = U_HAI only, as the paper; 2 = also after 7 empty batches in a row that follow a queue)");
/* read live, not snapshotted */
dcc_param_range(init_rate_mbps, init_rate_mbps, 1, 800000, 0644,
		"estimate mode only: mu in Mbit/s before any delivery-rate sample");
dcc_param_range(share_base_rtt, share_base_rtt, 0, 1, 0644,
		"base_rtt_us = 0: use the lowest min RTT of the dcc flows of this network namespace to the same destination");
dcc_param_range(shared_target, shared_target, 0, 1, 0644,
		"base_rtt_us = 0: D_target = RTT_base + (dtarget_pct - 100)% of the shortest RTT_base of the machine's OSCAR flows (all namespaces, not loopback; paths up to 8x it), one queue target for near and far paths (0: dtarget_pct % of each flow's own RTT_base, as the paper)");

/*
 * Estimate mode (line_rate_mbps = 0): mu is the egress device's link
 * speed where the device reports one (a NIC backed by hardware, by
 * default: dcc_lib's dev_speed; at 100 Gbit/s the estimate below took
 * ~890 base RTTs to reach 90% of the link from init_rate_mbps), else
 * the highest batch send rate, with 25% headroom, that any dcc flow of
 * the socket's network namespace has measured through the same egress
 * device within tcp_min_rtt_wlen (dcc_shared_line_rate), never below
 * init_rate_mbps.  Shared so that
 * the flows of a host agree on mu (u is a share of it, and U_AI must be
 * the same absolute step for fairness).  Each batch's rate is at most
 * u * mu <= mu, so the headroom lets mu grow by up to 1.25x per batch
 * until the path, not mu, limits the rate; a socket's mu never falls.
 * Operators who know their line rate should set it: the paper assumes mu
 * is known.
 */

/* ---- per-socket state: 104 bytes, BUILD_BUG_ON'd ---------------------- */

struct oscar {
	struct oscar_core st;	/* u, the open batch, ... (80 B) */
	struct oscar_cfg c;	/* snapshot pointer, mu, RTT_base, tau (24 B) */
};

static const struct oscar_snap *oscar_snap_cur(const struct oscar *ca)
{
	return oscar_snap_of(ca->c.p);
}

/* Estimate mode: the shared mu after folding in @rate_bytes_ps (0: read) */
static u64 oscar_mu_shared(const struct sock *sk, u64 rate_bytes_ps)
{
	u64 floor = (u64)READ_ONCE(init_rate_mbps) * DCC_MBPS_TO_BPS;

	return dcc_shared_line_rate(sk, rate_bytes_ps, floor);	/* <= 1e11 */
}

/*
 * Auto base RTT follows tcp_min_rtt() (a windowed min, 300 s default),
 * lowered to the shared per-destination minimum (share_base_rtt, read
 * live).  The paper takes RTT_base as known.  A flow that joins
 * while the others hold a queue near D_target never sees the empty path
 * on its own: its RTT_base includes that queue, so its D_target = 1.5
 * RTT_base sits above the queue the others hold, it keeps increasing
 * while they decrease, and it takes the link (bench joinleave, 4 -> 8
 * flows from one host, 10 s phases: three newcomers at RTT_base 11.9-12.2
 * vs 10.0 ms, Jain 0.30 and 0.35 in two of three repetitions).  dcc_lib.c
 * explains the table's limits.  Before any RTT sample: 1 ms.
 */
static u32 oscar_auto_base_us(const struct sock *sk)
{
	return dcc_auto_base_rtt_us(sk, READ_ONCE(share_base_rtt));
}

/*
 * RTT_ref for an auto RTT_base of @base_us (0: none yet, only read): the
 * shortest RTT_base of the machine's OSCAR flows (shared_target, read
 * live; dcc_shared_ref_rtt_us()), else @base_us itself (the paper's
 * D_target).  See "the shared queue target" above.
 */
static u32 oscar_ref_us(const struct sock *sk, u32 base_us)
{
	return READ_ONCE(shared_target) ? dcc_shared_ref_rtt_us(sk, base_us) :
					  base_us;
}

/*
 * A batch closed (the core says so; never per ACK): fold its rate into
 * the shared mu (estimate mode; an app-limited batch's rate says nothing
 * about mu) and look the base RTT up again (auto mode: the table is a
 * host-wide cache line and the base moves on the scale of RTTs).  The
 * config changes only if one of them moved (with RTT_ref: shared_target).
 * Returns true then.
 */
static bool oscar_refresh_inputs(struct sock *sk, struct oscar *ca,
				 const struct oscar_batch *b)
{
	const struct oscar_snap *snap = oscar_snap_cur(ca);
	u64 mu = ca->c.mu_bytes_ps;
	u64 base_ns = ca->c.base_ns, ref_ns = ca->c.ref_ns;
	struct oscar_cfg nc;

	if (!snap->line_rate_mbps && b->bls.rate_bytes_ps && !b->app_limited) {
		/*
		 * 25% headroom.  A batch of a few ns may report a saturated
		 * rate (up to U64_MAX): cap it at the table's ceiling first.
		 */
		u64 r = min_t(u64, b->bls.rate_bytes_ps, DCC_RATE_MAX_BPS);
		u64 m = oscar_mu_shared(sk, r * 5 / 4);

		mu = max(mu, m);
	}
	if (!snap->base_rtt_us) {
		u32 us = oscar_auto_base_us(sk);

		if (us) {
			base_ns = dcc_us_to_ns(us);
			ref_ns = dcc_us_to_ns(oscar_ref_us(sk, us));
		}
	}
	oscar_cfg_resolve(&nc, ca->c.p, mu, base_ns, ref_ns);
	if (nc.mu_bytes_ps == ca->c.mu_bytes_ps && nc.base_ns == ca->c.base_ns &&
	    nc.ref_ns == ca->c.ref_ns)
		return false;
	/* get_info reads the inputs without the socket lock */
	WRITE_ONCE(ca->c.mu_bytes_ps, nc.mu_bytes_ps);
	WRITE_ONCE(ca->c.base_ns, nc.base_ns);
	WRITE_ONCE(ca->c.ref_ns, nc.ref_ns);
	return true;
}

static void oscar_init(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct oscar *ca = inet_csk_ca(sk);
	struct oscar_snap *snap;
	struct dcc_decision d;
	u64 mu;
	u32 base_us, ref_us = 0;

	BUILD_BUG_ON(sizeof(struct oscar) > ICSK_CA_PRIV_SIZE);

	if (ca->c.p)		/* re-init without release: keep no stale ref */
		dcc_snap_put(&oscar_snaps, &oscar_snap_of(ca->c.p)->snap);
	snap = dcc_snap_get_as(&oscar_snaps, struct oscar_snap, snap);
	mu = snap->line_rate_mbps ?
		(u64)snap->line_rate_mbps * DCC_MBPS_TO_BPS : oscar_mu_shared(sk, 0);
	base_us = snap->base_rtt_us;
	if (!base_us) {
		base_us = oscar_auto_base_us(sk);
		ref_us = oscar_ref_us(sk, base_us);
	}
	if (!base_us)
		base_us = USEC_PER_MSEC;
	oscar_core_init(&ca->st, &snap->p);
	oscar_cfg_resolve(&ca->c, &snap->p, mu, dcc_us_to_ns(base_us),
			  dcc_us_to_ns(ref_us));

	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;	/* no slow start */
	dcc_pacing_init(sk);
	oscar_decide(&ca->st, &ca->c, &d);
	dcc_apply_bounded(sk, d.rate_bytes_ps, d.cwnd_bytes);
}

static void oscar_release(struct sock *sk)
{
	struct oscar *ca = inet_csk_ca(sk);

	if (ca->c.p)		/* NULL if init never ran */
		dcc_snap_put(&oscar_snaps, &oscar_snap_of(ca->c.p)->snap);
	ca->c.p = NULL;
}

static void oscar_trace_batch(struct sock *sk, const struct oscar_batch *b)
{
	trace_oscar_batch(sk, dcc_ns_to_us(b->bls.delay), b->bls.grad_q16,
			  b->bls.infl_bytes, b->bls.rate_bytes_ps, b->bls.samples,
			  b->step.u_w, b->step.u_r, b->step.u, b->step.branch,
			  tcp_snd_cwnd(tcp_sk(sk)), READ_ONCE(sk->sk_pacing_rate));
}

/* The decision in force, applied under the loss bound (dcc.h). */
static noinline void oscar_apply_bound(struct sock *sk, struct oscar *ca)
{
	struct dcc_decision d;

	oscar_decide(&ca->st, &ca->c, &d);
	dcc_apply_bounded(sk, d.rate_bytes_ps, d.cwnd_bytes);
}

/*
 * What oscar_on_ack_fast() leaves: the first point after a reset, a point
 * outside the batch's bounds, or one that closes it.  When a batch closed
 * (u moved, d.changed): refresh the shared inputs (the new mu or base
 * applies to the decision and to the batch that just opened), apply,
 * trace.  Otherwise the decision stands, applied again only when the
 * loss bound moves the window (@hold, dcc_loss_ack()).  Out of line: the
 * batch and the decision live here, off the common path's stack.
 */
static noinline void oscar_ack_slow(struct sock *sk, struct oscar *ca,
				    const struct dcc_sample *s, bool hold)
{
	struct dcc_decision d = { 0 };
	struct oscar_batch b;

	oscar_on_ack_slow(&ca->st, &ca->c, s, &d, &b);
	if (!d.changed) {
		if (hold)
			oscar_apply_bound(sk, ca);
		return;
	}
	if (oscar_refresh_inputs(sk, ca, &b))
		oscar_on_refresh(&ca->st, &ca->c, s->mss, &d);
	dcc_apply_bounded(sk, d.rate_bytes_ps, d.cwnd_bytes);
	oscar_trace_batch(sk, &b);
}

/*
 * An ACK while the loss bound is in force (dcc.h): its per-ACK step, then
 * the ACK as on the common path, and the decision in force applied again
 * on the ACKs where the bound moves the window.  Out of line, so the
 * common path carries neither the step nor its result.
 */
static noinline void oscar_ack_bounded(struct sock *sk,
				       const struct rate_sample *rs,
				       struct oscar *ca)
{
	struct dcc_sample s __uninitialized;
	bool hold = __dcc_loss_ack(sk, rs);

	dcc_sample_get(sk, rs, &s, 0);
	if (!oscar_on_ack_fast(&ca->st, &s))
		oscar_ack_slow(sk, ca, &s, hold);
	else if (hold)
		oscar_apply_bound(sk, ca);
}

/*
 * Per ACK: the core folds the sample into the open batch, inline and
 * without a division (oscar_on_ack_fast()), and decides only when a batch
 * closes (oscar_ack_slow()); the socket's sk_pacing_rate and snd_cwnd
 * hold the last decision in between.  What else may move them: recovery,
 * CWR, an RTO (tcp_enter_loss() sets cwnd) and an undo all leave a finite
 * ssthresh or the Loss state, so the loss bound is in force and applies
 * the decision under it wherever it moves the window, until the bound
 * lifts in the Open state with the law's own window applied.  The stack's
 * idle restart, application-limited window decay and
 * tcp_update_pacing_rate() skip cong_control modules.  MTU probing's
 * one-packet cwnd steps, an MSS change, a new window clamp and a raised
 * SO_MAX_PACING_RATE (a lower one lowers sk_pacing_rate itself) are met
 * at the next batch (within tau of send time, the staleness limit at
 * most), where every ACK used to meet them.
 */
static void oscar_cong_control(DCC_CONG_CONTROL_ARGS(sk, rs))
{
	struct oscar *ca = inet_csk_ca(sk);
	/* dcc_sample_get() fills every field the core reads (dcc.h) */
	struct dcc_sample s __uninitialized;

	if (unlikely(!(ca->st.flags & OSCAR_S_INIT)))
		return;		/* the handshake's ACK (dcc.h: lifecycle) */
	if (dcc_loss_bound_active(sk)) {
		oscar_ack_bounded(sk, rs, ca);
		return;
	}
	dcc_sample_get(sk, rs, &s, 0);	/* s.why says if it is usable */
	if (unlikely(!oscar_on_ack_fast(&ca->st, &s)))
		oscar_ack_slow(sk, ca, &s, false);
}

static void oscar_set_state(struct sock *sk, u8 new_state)
{
	struct oscar *ca = inet_csk_ca(sk);

	/* RTO, not in the paper: samples across the stall are stale; keep u */
	if (new_state == TCP_CA_Loss && (ca->st.flags & OSCAR_S_INIT))
		oscar_on_rto(&ca->st);
}

static void oscar_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	struct oscar *ca = inet_csk_ca(sk);

	/*
	 * Restart after idle (ours): no batch may span the gap.  Not
	 * every TX_START: a small window that one ACK clears raises it every
	 * round, and each reset would throw the open batch away.
	 */
	if (ev == CA_EVENT_TX_START && (ca->st.flags & OSCAR_S_INIT) &&
	    dcc_tx_start_after_idle(sk, dcc_ns_to_us(ca->c.base_ns)))
		oscar_on_idle_restart(&ca->st);
}

static u32 oscar_ssthresh(struct sock *sk)
{
	const struct oscar *ca = inet_csk_ca(sk);

	/* u is kept (the paper has no loss response); the window is bounded */
	if (!(ca->st.flags & OSCAR_S_INIT))	/* an RTO of the SYN */
		return tcp_sk(sk)->snd_ssthresh;
	return dcc_loss_ssthresh(sk);
}

static u32 oscar_undo_cwnd(struct sock *sk)
{
	return tcp_snd_cwnd(tcp_sk(sk));
}

/*
 * ss -ti: reuses the BBR info layout, which ss prints in full:
 *	bw		pacing rate u * mu (bytes/s)
 *	mrtt		RTT_base (us)
 *	pacing_gain	u (ss shows it / 256: 1.0 = line rate)
 *	cwnd_gain	last batch delay / D_target (1.0 = on target)
 */
static size_t oscar_get_info(struct sock *sk, u32 ext, int *attr,
			     union tcp_cc_info *info)
{
	const struct oscar *ca = inet_csk_ca(sk);
	struct oscar_cfg c;
	u32 u, delay_ns;
	u64 bw, dt_ns;

	if (!(ext & (1 << (INET_DIAG_BBRINFO - 1))) &&
	    !(ext & (1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;
	if (!(ca->st.flags & OSCAR_S_INIT) || !ca->c.p)
		return 0;

	/* ss may read while an ACK updates: each per-batch field once */
	u = READ_ONCE(ca->st.u);
	delay_ns = READ_ONCE(ca->st.last_delay_ns);
	c = (struct oscar_cfg){
		.p = ca->c.p,
		.mu_bytes_ps = READ_ONCE(ca->c.mu_bytes_ps),
		.base_ns = max_t(u32, READ_ONCE(ca->c.base_ns), 1),
		.ref_ns = READ_ONCE(ca->c.ref_ns),
	};
	bw = oscar_rate(&c, u);
	dt_ns = oscar_dt_ns(&c);
	memset(&info->bbr, 0, sizeof(info->bbr));
	info->bbr.bbr_bw_lo = (u32)bw;
	info->bbr.bbr_bw_hi = (u32)(bw >> 32);
	info->bbr.bbr_min_rtt = dcc_ns_to_us(c.base_ns);
	info->bbr.bbr_pacing_gain = u >> (OSCAR_U_SHIFT - 8);
	info->bbr.bbr_cwnd_gain = dt_ns ?
		(u32)div64_u64((u64)delay_ns << 8, dt_ns) : 0;
	*attr = INET_DIAG_BBRINFO;
	return sizeof(info->bbr);
}

static struct tcp_congestion_ops tcp_oscar __read_mostly = {
	.name		= "oscar",
	.owner		= THIS_MODULE,
	.init		= oscar_init,
	.release	= oscar_release,
	.cong_control	= oscar_cong_control,
	.ssthresh	= oscar_ssthresh,
	.undo_cwnd	= oscar_undo_cwnd,
	.set_state	= oscar_set_state,
	.cwnd_event	= oscar_cwnd_event,
	.get_info	= oscar_get_info,
};

DCC_ACK_HOOK(oscar_cong_control);	/* modinfo: what the tools time and check */

static int __init oscar_register(void)
{
	int err;

	err = dcc_snaps_init(&oscar_snaps);
	if (err)
		return err;
	err = dcc_register_ca(&tcp_oscar);
	if (err)
		dcc_snaps_exit(&oscar_snaps);
	return err;
}

static void __exit oscar_unregister(void)
{
	dcc_unregister_ca(&tcp_oscar);
	/* no socket is left (each held a module reference) */
	dcc_snaps_exit(&oscar_snaps);
}

module_init(oscar_register);
module_exit(oscar_unregister);

MODULE_AUTHOR("dcc developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("OSCAR: O(1)-step convergence delay-based congestion control (NSDI'26)");
