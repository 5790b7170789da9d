/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcc_lib: what every dcc congestion-control module shares in the kernel.
 *
 *  - sample extraction: dcc_sample_get() (inline, rx_sample.h) turns what
 *    cong_control receives (rate_sample + tcp_sock, and the ACK's RX
 *    timestamps) into one clean per-ACK sample, or says why there is none;
 *  - rate application: dcc_pacing_init() requests internal pacing the way
 *    tcp_bbr does (no fq qdisc needed) and dcc_apply() writes the pacing
 *    rate and the cwnd cap derived from it;
 *  - validated module parameters: dcc_param_ops_range for u32 knobs with
 *    a [min, max] that rejects anything else with -EINVAL;
 *  - parameter snapshots: the immutable, RCU-published parameter set a
 *    socket takes at init (dcc_snaps, dcc_param_snap());
 *  - the plain-C math (bls.h, median.h, fixp.h), exported from the same
 *    module.
 *
 * Per-ACK samples carry nanoseconds on the tcp clock (sample.h), with a
 * microsecond view for the code not yet moved; the rest of this API is
 * microseconds (base RTT, idle gaps, the shared tables); rates are bytes/s.
 */
#ifndef _DCC_DCC_H
#define _DCC_DCC_H

#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <net/tcp.h>
#include "compat.h"
#include "fixp.h"
#include "bls.h"
#include "median.h"
#include "sample.h"

/*
 * Lifecycle: what every dcc module assumes of the stack, and does.
 *
 * The stack zeroes icsk_ca_priv whenever it assigns a CC, but calls init
 * only when the connection is established (tcp_init_transfer()), or at
 * once for setsockopt(TCP_CONGESTION) on an established socket.  When the
 * CC is chosen earlier -- the system or namespace default, setsockopt
 * before connect(), a route's congctl, a listener's CC inherited by its
 * children -- the handshake's own ACK reaches cong_control, and an RTO of
 * the SYN reaches ssthresh, set_state and cwnd_event, before init; a
 * connection that never completes gets release without init.  So, in
 * every module:
 *  - the state carries an "initialised" flag, set by init;
 *  - before init, cong_control returns without acting (the handshake ACK
 *    carries nothing a CC needs: tcp_min_rtt() keeps its RTT sample) and
 *    the other hooks leave the state alone;
 *  - init never runs twice on one state: a hook must not call it (the
 *    stack will, and a second init leaks what the first acquired);
 *  - release undoes exactly what init acquired, and nothing when init
 *    never ran.
 */

/* The per-ACK sample (struct dcc_sample) is plain C: sample.h. */

/*
 * Register / unregister a dcc congestion control: tcp_(un)register_
 * congestion_control() plus dcc_lib's short list of dcc CCs, which the RX
 * timestamp probe checks so that only dcc sockets pay for it (rx_probe.c,
 * docs/rx-timestamps.md).  At most 16 registered at once (-ENOSPC).
 * Process context (module init/exit).
 */
int dcc_register_ca(struct tcp_congestion_ops *ops);
void dcc_unregister_ca(struct tcp_congestion_ops *ops);

/*
 * dcc_sample_get(sk, rs, s, policy) fills the per-ACK sample; it runs on
 * every ACK, so it is inline: rx_sample.h.
 */
#include "rx_sample.h"

/* Base RTT: @param_us if non-zero, else tcp_min_rtt(), else srtt, else 0. */
u32 dcc_base_rtt_us(const struct sock *sk, u32 param_us);

/*
 * The lowest min RTT any dcc flow of this socket's network namespace has
 * seen to its destination address (expires after tcp_min_rtt_wlen), with
 * @own_us (the socket's own minimum, 0 = none) folded in: min(table,
 * own), or 0 if neither exists.  For flows that join a standing queue
 * (dcc_lib.c explains the keying and its limits).  Any context; costs a
 * hash and a shared cache line, so callers look it up once per RTT or
 * per batch, not per ACK.
 */
u32 dcc_shared_min_rtt_us(const struct sock *sk, u32 own_us);

/*
 * dcc_base_rtt_us(sk, 0), lowered to dcc_shared_min_rtt_us() when @share:
 * the auto base RTT of the modules that share it (OSCAR, CCC).
 */
u32 dcc_auto_base_rtt_us(const struct sock *sk, bool share);

/*
 * For the modules that keep a read of dcc_shared_min_rtt_us() per socket
 * (NSCC, Swift): read again when this ACK's @acked packets (newly
 * delivered or SACKed) carried tp->delivered across a multiple of
 * DCC_SHARE_PKTS, a power of 2: a few times per RTT at most, never per
 * ACK, with no state of its own.
 */
#define DCC_SHARE_PKTS	128
static inline bool dcc_share_due(const struct tcp_sock *tp, u32 acked)
{
	return (tp->delivered ^ (tp->delivered - acked)) >= DCC_SHARE_PKTS;
}

/*
 * The lowest base RTT @own_us (0 = only read) folded in by any dcc flow of
 * the machine (every namespace; a loopback or routeless socket gets @own_us), within
 * tcp_min_rtt_wlen: the fabric's nearest path, which flows of every path
 * can agree on (OSCAR's shared queue target; dcc_lib.c has why machine-wide).
 * Same table, same cost and same once-per-batch rule as
 * dcc_shared_min_rtt_us().
 */
u32 dcc_shared_ref_rtt_us(const struct sock *sk, u32 own_us);

/*
 * Estimated line rate for flows that are not told it (estimate mode of
 * OSCAR's mu and CCC's R_l): the egress device's link speed where it
 * reports one and dcc_lib's dev_speed lets it count (dev_speed.c: NICs
 * backed by hardware, by default); else the highest rate @observed_bytes_ps any dcc flow
 * of this network namespace has reported through the same egress device,
 * within tcp_min_rtt_wlen seconds, at least @floor_bytes_ps.  @observed_bytes_ps = 0
 * only reads.  Per device, so a loopback flow's rate is no estimate for
 * the NIC; per namespace, as the min-RTT table; windowed, so one burst
 * does not raise it for as long as the module stays loaded.  Bytes/s, in
 * steps of DCC_RATE_STEP_BPS, at most DCC_RATE_MAX_BPS.
 */
u64 dcc_shared_line_rate(const struct sock *sk, u64 observed_bytes_ps, u64 floor_bytes_ps);

/*
 * The link speed of the socket's egress device, Mbit/s, as the device
 * reported it at its last up or link change, if dcc_lib's dev_speed lets
 * it count (by default: NICs backed by hardware; dev_speed.c); 0 if not,
 * or if the socket has no route.  Lock-free; for once-per-socket or
 * once-per-batch use.
 */
u32 dcc_egress_speed_mbps(const struct sock *sk);
#define DCC_RATE_STEP_BPS 8000ULL	/* 64 kbit/s: the table's rate unit */

/*
 * CA_EVENT_TX_START means "a send with nothing in flight": after a real
 * idle period, but also every round of a flow whose whole window one ACK
 * clears, and every send of a flow paced so slowly that each packet (or
 * TSO pair) is acknowledged before the next leaves.  True only for the
 * first: the application had nothing to send (tp->app_limited, as
 * tcp_bbr's idle restart tests it) and the last delivery
 * (tp->delivered_mstamp, us) is more than @gap_us (at least 1 us) before
 * this send.  Without the application test a flow a loss cut to 1 Mbit/s
 * (two packets every 23 ms) behind a 10 ms base RTT "restarted" on every
 * send and no completion, batch or ACK-clock round ever closed again: it
 * stayed at its floor for seconds (guest, test_timely_burst).  Call from
 * cwnd_event(CA_EVENT_TX_START), which runs before the stack stamps the
 * new skb.
 */
bool dcc_tx_start_after_idle(const struct sock *sk, u32 gap_us);

/*
 * Ask the stack to pace this socket itself (SK_PACING_NEEDED) unless fq
 * already does (tcp_bbr's bbr_init pattern).  Call from init.
 */
void dcc_pacing_init(struct sock *sk);

/* Floor for any cwnd dcc sets, packets (TSO/delayed-ACK safe). */
#define DCC_MIN_CWND 2
/*
 * Ceiling, packets: tcp_snd_cwnd_set() warns at >= 2^31, and a route or
 * sysctl may leave snd_cwnd_clamp at ~0U; 2^30 packets is 1.5 TB in flight.
 */
#define DCC_MAX_CWND (1U << 30)

/* cwnd in packets from a byte window, within [DCC_MIN_CWND, the clamps] */
static inline u32 dcc_cwnd_pkts(const struct tcp_sock *tp, u64 cwnd_bytes)
{
	u32 mss = max_t(u32, tp->mss_cache, 1);
	/* <= 2^30 * 2^32 before rounding up: no overflow */
	u64 cwnd = DIV_ROUND_UP_ULL(min_t(u64, cwnd_bytes,
					  (u64)DCC_MAX_CWND * mss), mss);

	return (u32)clamp_t(u64, cwnd, DCC_MIN_CWND,
			    min_t(u32, tp->snd_cwnd_clamp, DCC_MAX_CWND));
}

/*
 * Apply a decision: pacing rate @rate_bytes_ps (clamped to sk_max_pacing_rate,
 * at least 1 packet per second) and cwnd = ceil(@cwnd_bytes / mss), clamped
 * to [DCC_MIN_CWND, min(snd_cwnd_clamp, DCC_MAX_CWND)].  Idempotent and
 * cheap: call on every ACK.  dcc_apply_bounded() also holds cwnd to the
 * loss bound below.
 */
void dcc_apply(struct sock *sk, u64 rate_bytes_ps, u64 cwnd_bytes);
void dcc_apply_bounded(struct sock *sk, u64 rate_bytes_ps, u64 cwnd_bytes);

/*
 * Loss bound: the window a rate-driven law may not exceed after the stack
 * reported a loss.
 *
 * OSCAR, CCC and the TIMELY family set cwnd from a rate and read only
 * delay; their papers assume a lossless fabric.  Each law has a floor
 * (u_min, r_min, 2 packets), so once N flows' floors exceed the link --
 * a thousand flows on one port, or any incast wider than the buffer --
 * a drop-tail queue overflows every round and no law backs off: the
 * link fills with retransmissions and timeouts instead of data.  So a
 * loss bounds the window, as in every loss-based TCP, and the law
 * governs again once it no longer asks for more than the bound:
 *
 *  - on a reduction the stack asks for (ssthresh: entering fast
 *    recovery, an RTO, local congestion), the bound becomes half of
 *    min(cwnd, packets_out), at least DCC_MIN_CWND: half of what was in
 *    the network when the loss was detected;
 *  - after an RTO the window restarts from the stack's one packet and
 *    grows by what each ACK delivers up to the bound (slow start, as
 *    tcp_bbr after a timeout): a thousand flows that lost their whole
 *    windows come back with two packets each, not half a window each.
 *    An RTO whose episode asked no ssthresh and finds no bound (an undo
 *    restored a larger one, then it was lifted) sets half of
 *    packets_out itself;
 *  - in the Open state it grows once per bound's worth of ACKed packets
 *    (about a round) by max(1, bound/8) packets: Reno's additive
 *    increase at the small windows where many flows overflow a queue,
 *    12.5% a round at large ones so a single flow's one startup loss
 *    costs tens of rounds, not a BDP's worth;
 *  - it is lifted as soon as the law's own window is within it.
 *
 * The bound lives in the stack's own fields: tp->snd_ssthresh
 * (TCP_INFINITE_SSTHRESH = none; ss -ti shows it as ssthresh);
 * tp->prior_ssthresh, what the stack's undo of a spurious loss restores:
 * the previous bound, or, where there was none, what was in flight at the
 * loss, so an undo resumes what the flow was doing instead of jumping to
 * the law's window (the TIMELY family's is 2 rate (base + T_high): at
 * 1000 flows, the flows an undo lifted to ~900 packets held the queue
 * full); and tp->snd_cwnd_cnt (the ACK count towards the next increase;
 * in the Loss state, this ACK's delivered packets).  A module opts in by
 * returning dcc_loss_ssthresh() from its ssthresh hook, calling
 * dcc_loss_ack() from cong_control first (when it returns true, applying
 * its current decision even if the law's did not change), and applying
 * every decision with dcc_apply_bounded().
 */
u32 dcc_loss_ssthresh(struct sock *sk);

/*
 * Is the loss bound in force?  A bound is set (snd_ssthresh), or the
 * stack is in the Loss state (an RTO: the window restarts from one
 * packet).  Otherwise snd_cwnd and sk_pacing_rate hold the last decision
 * applied, and a glue whose core's decision did not change
 * (dcc_decision.changed false) has nothing to do.
 */
static inline bool dcc_loss_bound_active(const struct sock *sk)
{
	return unlikely(tcp_sk(sk)->snd_ssthresh != TCP_INFINITE_SSTHRESH ||
			inet_csk(sk)->icsk_ca_state == TCP_CA_Loss);
}

/* dcc_loss_ack() while the bound is in force */
bool __dcc_loss_ack(struct sock *sk, const struct rate_sample *rs);

/*
 * The loss bound's per-ACK step; inline, so that without a bound it costs
 * a test.  Returns true when the window must be applied again on this
 * ACK even if the law's decision did not change: the Loss state (the
 * window grows by what each ACK delivers), a bound that grew on this ACK,
 * or a window above the bound (the stack set a new one).  The glue then
 * applies the core's current decision (its *_decide()) through
 * dcc_apply_bounded().  Between those ACKs the window is min(law, bound)
 * as last applied, and both are unchanged; a bound the law's window has
 * come back under is lifted at the next application.
 */
static inline bool dcc_loss_ack(struct sock *sk, const struct rate_sample *rs)
{
	return dcc_loss_bound_active(sk) && __dcc_loss_ack(sk, rs);
}

/*
 * cwnd cap for a rate: rate * rtt * gain, gain in Q8 (256 = 1.0).  Before
 * the first RTT sample (rtt_us == 0) returns the initial window
 * (TCP_INIT_CWND packets of @mss) so nothing is ever zero.
 */
u64 dcc_cwnd_bytes(u64 rate_bytes_ps, u32 rtt_us, u32 gain_q8, u32 mss);

/* ---- validated u32 module parameters ---------------------------------- */

struct dcc_param_range {
	u32 *val;
	u32 min, max;
};

/* kernel_param_ops whose .set parses a u32 and rejects it outside [min, max] */
extern const struct kernel_param_ops dcc_param_ops_range;

/*
 * dcc_param_range(name, var, min, max, perm, desc): a module parameter
 * backed by u32 @var that accepts only decimal values in [min, max];
 * anything else (garbage, overflow, out of range) is refused with
 * -EINVAL and @var keeps its old value.
 */
#define dcc_param_range(name, var, lo, hi, perm, desc)			\
	static struct dcc_param_range __dcc_range_##name = {		\
		.val = &(var), .min = (lo), .max = (hi) };		\
	module_param_cb(name, &dcc_param_ops_range,			\
			&__dcc_range_##name, perm);			\
	MODULE_PARM_DESC(name, desc " [" #lo ".." #hi "]")

/* kernel_param_ops that shows an atomic_t (no .set: read-only) */
extern const struct kernel_param_ops dcc_param_ops_counter;

/*
 * dcc_param_counter(name, var, desc): a read-only module parameter showing
 * atomic_t @var, for counters that sockets update concurrently.
 */
#define dcc_param_counter(name, var, desc)				\
	module_param_cb(name, &dcc_param_ops_counter, &(var), 0444);	\
	MODULE_PARM_DESC(name, desc " (read-only)")

/* ---- parameter snapshots ----------------------------------------------- */

/*
 * A socket's parameters are fixed at its init: a write to a module
 * parameter applies to the sockets that start after it, never to a
 * running flow (whose law was resolved from the old values, and whose
 * state may not fit the new ones), yet writes stay live for new sockets
 * without reloading the module.  Copying the values into the socket would
 * do that, but icsk_ca_priv (104 bytes) has no room for them next to the
 * law's state.  So every write publishes one immutable snapshot of all
 * the module's parameters, converted once to the law's units; a socket
 * holds a reference to the snapshot current at its init (a pointer, 8
 * bytes) and gives it back at release (dcc.h: lifecycle).
 *
 * The current snapshot is an RCU pointer: init may run in softirq (a
 * passive open), so taking a reference must not sleep or lock against a
 * writer.  dcc_snap_get() reads it under rcu_read_lock() and takes a
 * reference unless the count already fell to 0 (a writer replaced it and
 * the last socket let go), then reads again.  The last put frees it after
 * a grace period (kfree_rcu), so a reader that saw the old pointer may
 * still look at it.  Writers (parameter writes, module init and exit)
 * replace the pointer under the spinlock.
 *
 * A module embeds struct dcc_snap as the FIRST member of its snapshot
 * (dcc_lib allocates, zeroes and frees the whole struct) and keeps its
 * container_of() from the parameters to the snapshot:
 *
 *	struct foo_snap { struct dcc_snap snap; struct foo_params p; };
 *	static void foo_snap_fill(struct dcc_snap *s);	// current values
 *	DEFINE_DCC_SNAPS(foo_snaps, struct foo_snap, snap, foo_snap_fill);
 *	dcc_param_snap(knob, knob, 0, 100, foo_snaps, "what it does");
 *
 * fill() converts the module's current parameter values (READ_ONCE) into
 * a zeroed snapshot; it runs in process context and may not fail.  The
 * fallback is a static snapshot (name##_fallback) that dcc_snap_get()
 * returns when none is published (before dcc_snaps_init() or after
 * dcc_snaps_exit(), when no socket exists): filled by dcc_snaps_init(),
 * never NULL, never counted, never freed.
 */
struct dcc_snap {
	refcount_t ref;
	struct rcu_head rcu;
};

struct dcc_snaps {
	struct dcc_snap __rcu *cur;	/* holds one reference */
	spinlock_t lock;		/* serialises writers of cur */
	bool closed;			/* dcc_snaps_exit() ran: publish no more */
	size_t size;			/* of the module's snapshot struct */
	void (*fill)(struct dcc_snap *s);
	struct dcc_snap *fallback;
};

/* static struct dcc_snaps @name of @type snapshots, and its fallback */
#define DEFINE_DCC_SNAPS(name, type, member, fill_fn)			\
	static type name##_fallback;					\
	static struct dcc_snaps name = {				\
		.lock = __SPIN_LOCK_UNLOCKED(name.lock),		\
		.size = sizeof(type) +					\
			BUILD_BUG_ON_ZERO(offsetof(type, member)),	\
		.fill = (fill_fn),					\
		.fallback = &name##_fallback.member,			\
	}

/*
 * Module init: fill the fallback with the current values and publish the
 * first snapshot (-ENOMEM).  Module exit, and init's error path after
 * dcc_snaps_init() succeeded: drop the current snapshot and wait for the
 * pending frees.  No socket may hold a snapshot then (each held a module
 * reference).  Process context.
 */
int dcc_snaps_init(struct dcc_snaps *ss);
void dcc_snaps_exit(struct dcc_snaps *ss);

/*
 * Build a snapshot of the current values and make it the current one:
 * -ENOMEM if it cannot be allocated, -ENODEV after dcc_snaps_exit().
 * Process context (GFP_KERNEL).
 */
int dcc_snap_publish(struct dcc_snaps *ss);

/*
 * A reference to the current snapshot (the fallback if none), for a
 * socket's init; dcc_snap_put() gives it back (NULL and the fallback are
 * no-ops).  Any context.
 */
struct dcc_snap *dcc_snap_get(struct dcc_snaps *ss);
void dcc_snap_put(struct dcc_snaps *ss, struct dcc_snap *s);

/* dcc_snap_get() as the module's @type, whose @member is the dcc_snap */
#define dcc_snap_get_as(ss, type, member)				\
	container_of(dcc_snap_get(ss), type, member)

/*
 * The current snapshot without a reference (the fallback if none): valid
 * until the caller's rcu_read_unlock().
 */
static inline const struct dcc_snap *dcc_snap_peek(struct dcc_snaps *ss)
{
	const struct dcc_snap *s = rcu_dereference(ss->cur);

	return s ? s : ss->fallback;
}

/* A u32 parameter of a snapshot: its range, and where it publishes. */
struct dcc_param_snap {
	struct dcc_param_range r;
	struct dcc_snaps *snaps;
};

/* kernel_param_ops: dcc_param_ops_range's check, then dcc_snap_publish() */
extern const struct kernel_param_ops dcc_param_ops_snap;

/*
 * dcc_param_snap(name, var, min, max, ss, desc): a 0644 module
 * parameter backed by u32 @var, validated as dcc_param_range() (-EINVAL,
 * @var keeps its value), whose every accepted write publishes a new
 * snapshot of struct dcc_snaps @ss; if that fails (-ENOMEM) the old value is restored
 * and the write fails.  Writes are serialised by the module's parameter
 * lock.
 */
#define dcc_param_snap(name, var, lo, hi, ss, desc)			\
	static struct dcc_param_snap __dcc_snap_##name = {		\
		.r = { .val = &(var), .min = (lo), .max = (hi) },	\
		.snaps = &(ss) };					\
	module_param_cb(name, &dcc_param_ops_snap,			\
			&__dcc_snap_##name, 0644);			\
	MODULE_PARM_DESC(name, desc " [" #lo ".." #hi "]")

/*
 * Module metadata for the tools (modinfo fields, read from the built or
 * installed .ko, never from the C source):
 *
 *	dcc_ack_hook=FN[@N]	a function every ACK of the module's sockets
 *				enters: tools/bench times it per ACK (the
 *				socket in argument N, 0 without @), and
 *				tools/divcheck holds it to no division;
 *	dcc_ack_path=FN		a function those ACKs also run, out of line
 *				(checked by tools/divcheck, not timed: its
 *				time is its caller's).
 *
 * DCC_ACK_HOOK(fn) names the module's .cong_control, next to the
 * tcp_congestion_ops initialiser that uses it.  tools/divcheck (make
 * check) fails on a module that declares none, on one that declares a
 * function it does not hold (renamed, inlined away), and on two modules
 * declaring the same name, which a kprobe by name could not tell apart:
 * static functions are fine, their names reach kallsyms.
 */
#define DCC_ACK_HOOK(fn)	MODULE_INFO(dcc_ack_hook, __stringify(fn))
#define DCC_ACK_PROBE(fn, argn)	\
	MODULE_INFO(dcc_ack_hook, __stringify(fn) "@" __stringify(argn))
#define DCC_ACK_PATH(fn)	MODULE_INFO(dcc_ack_path, __stringify(fn))

#endif /* _DCC_DCC_H */
