// SPDX-License-Identifier: GPL-2.0
/*
 * RX timestamps for dcc samples: the receive time of an ACK is when the
 * NIC (hardware stamp) or the driver's hand-off to the stack (software
 * stamp) saw it, not when TCP got round to it.
 *
 * Theory.  The stack times an ACK in tcp_rcv_established() (tcp_mstamp_
 * refresh) after interrupt coalescing, the softirq's queue and, when the
 * socket's owner held the lock, the socket backlog.  Every microsecond of
 * that is read by a delay-based law as network queueing, and lands in
 * tcp_min_rtt() too.  An RX stamp taken earlier measures it: host delay =
 * (the stamp's clock now) - stamp; the sample's receive time and RTT are
 * corrected by it (rx_ns = tcp_clock_cache - host, rtt = rtt - host).
 *
 * Where the stamp is read.  The tcp:tcp_probe tracepoint is the first
 * statement of tcp_rcv_established(), before tcp_mstamp_refresh() and
 * tcp_ack(), on the fast and the slow path, and for ACKs processed from
 * the backlog (sk_backlog_rcv -> tcp_v{4,6}_do_rcv) as for direct ones.
 * Its tracepoint is not exported: it is found by name with
 * for_each_kernel_tracepoint() and our probe attached with
 * tracepoint_probe_register() while rx_timestamps is not off.  ACKs of
 * sockets in other states (tcp_rcv_state_process) do not pass it: their
 * samples keep the stack clock (rx_no_record).
 *
 * The kprobe fallback.  Where the tracepoint cannot be found or attached
 * (rx_hook=auto), or when the operator asks for it (rx_hook=kprobe), the
 * same probe runs from a kprobe on the entry of tcp_rcv_established(),
 * which is the same place: the pre-handler takes sk and skb from the
 * argument registers (regs_get_kernel_argument(): the kprobe sits on the
 * first instruction, before the prologue moves them) and calls the
 * filter the tracepoint calls.  Pre-handlers run with preemption off, as
 * tracepoint probes do, so the per-CPU record is the same.  On x86-64
 * kernels with ftrace (fentry) the probe on a function's entry is
 * ftrace-based ([FTRACE] in /sys/kernel/debug/kprobes/list): a call
 * from the patched fentry site through the ftrace trampoline that saves
 * pt_regs, some tens of ns per segment for every TCP socket, against a
 * few ns for a tracepoint's static call.  If neither hook can be
 * attached, every sample keeps the stack clock, said once in the log and
 * counted in rx_no_record.
 *
 * How the probe hands the stamp to cong_control.  There is no room in
 * the socket (icsk_ca_priv is full in every dcc module), but the probe
 * and cong_control (tcp_ack -> tcp_cong_control) run in the same
 * tcp_rcv_established() call, under the socket lock, normally on one CPU
 * with nothing in between.  So the probe leaves a record in a per-CPU
 * array of 64 slots, indexed by a hash of the socket pointer: the ACK's
 * ack_seq with 6 more bits of the socket hash (tag) and its IP TTL, the
 * software and hardware stamps as the skb carries them, and the send time
 * of the data acknowledged (include/dcc/rxts.h has the layout).  It copies and
 * nothing else: no clock is read in the probe.  dcc_sample_get() reads its
 * CPU's slot and believes it only if the tag matches and ack_seq ==
 * tp->snd_una (after tcp_ack(), snd_una is the ack_seq of every ACK that
 * reaches cong_control), and each word again by its own ack_seq bits.
 * There it converts the stack's clock reading for this ACK
 * (tcp_clock_cache, CLOCK_MONOTONIC, read by tcp_mstamp_refresh() right
 * after the probe) to the stamp's timescale (ktime_mono_to_any(): an
 * offset read, not a clock read): host delay = that - stamp.  Each word
 * is written and read whole (atomic64_set/read), so none is torn;
 * anything that gets in between -- a softirq on this CPU stamping a
 * socket of the same slot while the backlog is processed, a migration of
 * a preemptible backlog run to another CPU -- leaves words that do not
 * match, and the sample falls back to the stack clock (rx_no_record).
 * The record is not cleared after use: the next ACK of the socket
 * overwrites it first.
 *
 * Only dcc sockets pay: the probe returns after two tests (ACK flag;
 * icsk_ca_ops in the short list of dcc_register_ca()) for anything else.
 * For a dcc ACK it walks the acknowledged skbs for their send time and
 * writes four words.
 *
 * Clocks.  The software stamp (skb->tstamp) is CLOCK_REALTIME and set on
 * receive only while someone holds net_enable_timestamp(), which
 * rx_timestamps=sw|auto does.  skb->tstamp also carries a sender's
 * monotonic delivery time (EDT) across a veth or loopback, flagged
 * (6.1: mono_delivery_time; 6.11+: tstamp_type): only a REALTIME stamp is
 * used.  Such a forwarded skb is restamped by ip_local_deliver_finish(),
 * so on veth/loopback the software stamp measures only the time from IP
 * delivery to TCP (the backlog), not the softirq queue.  The hardware
 * stamp is in the NIC's clock: TAI when the NIC clock is disciplined by
 * PTP (ptp4l's default), REALTIME when phc2sys or the driver keeps it on
 * UTC (rx_hw_clock).  A driver that keeps a private cookie instead of a
 * time in the stamp (ndo_get_tstamp) gives values that fail the sanity
 * rules and are refused.
 *
 * Parameters (read and written under dcc_rx_mutex; the hot path reads
 * dcc_rx_active and the bound with READ_ONCE):
 *   rx_timestamps  off|sw|hw|auto: off = no probe, no net timestamps, the
 *                  samples exactly as before; sw = software stamp only;
 *                  hw = hardware stamp only; auto = hardware stamp if the
 *                  ACK has an acceptable one, else software.
 *   rx_hw_clock    tai|real: the NIC clock's timescale.
 *   rx_host_max_us the largest host delay believed (1..1000000 us).
 *   rx_hook        auto|tracepoint|kprobe: where the probe is attached
 *                  (auto: the tracepoint, else the kprobe).
 *   rx_hook_active none|tracepoint|kprobe: where it is attached now
 *                  (read-only; none while rx_timestamps=off).
 *   rx_hw, rx_sw, rx_stack    samples per source (one per dcc_sample_get
 *                  while rx_timestamps != off);
 *   rx_rejects     samples that had a stamp and kept the stack clock
 *                  because the stamp was refused (rxts.h rules);
 *   rx_no_record   samples with no matching probe record;
 *   rx_tx_ns       samples whose send time is the skb's nanosecond stamp
 *                  (dcc_rx_newest_tx), not rx - rtt_us * 1000.
 *   rx_stack >= rx_rejects + rx_no_record; the rest of rx_stack had no
 *   stamp at all.
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/hash.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/kprobes.h>
#include <linux/netdevice.h>
#include <linux/timekeeping.h>
#include <linux/win_minmax.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/tcp.h>
#include "dcc/dcc.h"
#include "dcc/rxts.h"
#include "rx_probe.h"

/* ---- parameters ------------------------------------------------------- */

static const char * const dcc_rx_mode_names[] = {
	[DCC_RX_MODE_OFF] = "off",
	[DCC_RX_MODE_SW] = "sw",
	[DCC_RX_MODE_HW] = "hw",
	[DCC_RX_MODE_AUTO] = "auto",
};

static const char * const dcc_rx_clock_names[] = { "tai", "real" };

static DEFINE_MUTEX(dcc_rx_mutex);
static int dcc_rx_mode = DCC_RX_MODE_AUTO;	/* what the operator set */
/* the three below are read by every module's dcc_sample_get() (rx_sample.h) */
int dcc_rx_active;		/* the mode in force (OFF before init) */
EXPORT_SYMBOL_GPL(dcc_rx_active);
int dcc_rx_hw_real;		/* rx_hw_clock: 0 tai, 1 real */
EXPORT_SYMBOL_GPL(dcc_rx_hw_real);
u32 dcc_rx_host_max_us = 1000;
EXPORT_SYMBOL_GPL(dcc_rx_host_max_us);
static bool dcc_rx_ready;	/* init ran: mode changes act at once */
static struct tracepoint *dcc_rx_tp;
static bool dcc_rx_ever_attached;	/* tracepoint: synchronise at exit */

enum dcc_rx_hook {
	DCC_RX_HOOK_AUTO,	/* tracepoint, else kprobe */
	DCC_RX_HOOK_TP,
	DCC_RX_HOOK_KPROBE,
};

static const char * const dcc_rx_hook_names[] = {
	[DCC_RX_HOOK_AUTO] = "auto",
	[DCC_RX_HOOK_TP] = "tracepoint",
	[DCC_RX_HOOK_KPROBE] = "kprobe",
};

static int dcc_rx_hook = DCC_RX_HOOK_AUTO;	/* what the operator set */
static bool dcc_rx_on_tp;	/* our probe is on dcc_rx_tp */
static bool dcc_rx_on_kp;	/* our kprobe is registered */
static bool dcc_rx_netstamp;	/* we hold net_enable_timestamp() */

dcc_param_range(rx_host_max_us, dcc_rx_host_max_us, 1, 1000000, 0644,
		"largest host receive delay believed from an RX stamp, us");

/* ---- the dcc CC registry ---------------------------------------------- */

#define DCC_RX_MAX_OPS 16	/* 10 ops in the tree today */
static struct tcp_congestion_ops *dcc_rx_ops[DCC_RX_MAX_OPS];
static int dcc_rx_nops;

/*
 * "Is this socket's CC a dcc one?" is asked for every TCP segment the
 * host receives, so it is one load and one compare: a table indexed by
 * the low bits of the ops' key (the jhash of its name that
 * tcp_register_congestion_control() sets) holds the dcc ops of that
 * index.  An index two dcc names share holds DCC_RX_OPS_MANY and the
 * list decides (none do today).
 */
#define DCC_RX_KEY_BITS	6
#define DCC_RX_KEY_MASK	((1U << DCC_RX_KEY_BITS) - 1)
#define DCC_RX_OPS_MANY	((struct tcp_congestion_ops *)1UL)
static struct tcp_congestion_ops *dcc_rx_by_key[1 << DCC_RX_KEY_BITS];

static bool dcc_rx_in_list(const struct tcp_congestion_ops *ops)
{
	/* pairs with dcc_(un)register_ca()'s release: entries [0, n) are set */
	int i, n = smp_load_acquire(&dcc_rx_nops);

	for (i = 0; i < n; i++)
		if (READ_ONCE(dcc_rx_ops[i]) == ops)
			return true;
	return false;
}

/* Is @sk's CC a dcc one?  Any context; a racing (un)register at worst
 * misses one ACK.
 */
static bool dcc_rx_is_dcc(const struct sock *sk)
{
	const struct tcp_congestion_ops *ops = READ_ONCE(inet_csk(sk)->icsk_ca_ops);
	const struct tcp_congestion_ops *e =
		READ_ONCE(dcc_rx_by_key[ops->key & DCC_RX_KEY_MASK]);

	if (likely(e != DCC_RX_OPS_MANY))
		return e == ops;
	return dcc_rx_in_list(ops);
}

/* Rebuild dcc_rx_by_key from the list.  Mutex held. */
static void dcc_rx_index(void)
{
	u32 k;
	int i;

	for (k = 0; k <= DCC_RX_KEY_MASK; k++) {
		struct tcp_congestion_ops *e = NULL;

		for (i = 0; i < dcc_rx_nops; i++)
			if ((dcc_rx_ops[i]->key & DCC_RX_KEY_MASK) == k)
				e = e ? DCC_RX_OPS_MANY : dcc_rx_ops[i];
		WRITE_ONCE(dcc_rx_by_key[k], e);
	}
}

int dcc_register_ca(struct tcp_congestion_ops *ops)
{
	int err;

	mutex_lock(&dcc_rx_mutex);
	if (dcc_rx_nops >= DCC_RX_MAX_OPS) {
		err = -ENOSPC;
		goto out;
	}
	err = tcp_register_congestion_control(ops);
	if (err)
		goto out;
	WRITE_ONCE(dcc_rx_ops[dcc_rx_nops], ops);
	/* the entry is visible before the count that covers it */
	smp_store_release(&dcc_rx_nops, dcc_rx_nops + 1);
	dcc_rx_index();		/* after the register: it set ops->key */
out:
	mutex_unlock(&dcc_rx_mutex);
	return err;
}
EXPORT_SYMBOL_GPL(dcc_register_ca);

void dcc_unregister_ca(struct tcp_congestion_ops *ops)
{
	int i, n;

	mutex_lock(&dcc_rx_mutex);
	n = dcc_rx_nops;
	for (i = 0; i < n; i++) {
		if (dcc_rx_ops[i] != ops)
			continue;
		/* the last entry takes its place; readers at worst miss one */
		WRITE_ONCE(dcc_rx_ops[i], dcc_rx_ops[n - 1]);
		/* the moved entry is visible before the shorter count */
		smp_store_release(&dcc_rx_nops, n - 1);
		WRITE_ONCE(dcc_rx_ops[n - 1], NULL);
		dcc_rx_index();
		break;
	}
	mutex_unlock(&dcc_rx_mutex);
	tcp_unregister_congestion_control(ops);
}
EXPORT_SYMBOL_GPL(dcc_unregister_ca);

/* ---- counters ----------------------------------------------------------- */

DEFINE_PER_CPU(struct dcc_rx_counts, dcc_rx_counts);
EXPORT_PER_CPU_SYMBOL_GPL(dcc_rx_counts);

static int dcc_rx_count_get(char *buf, const struct kernel_param *kp)
{
	unsigned long i = (unsigned long)kp->arg;
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(&dcc_rx_counts, cpu)->c[i]);
	return sysfs_emit(buf, "%llu\n", sum);
}

static const struct kernel_param_ops dcc_rx_count_ops = {
	.get = dcc_rx_count_get,
};

#define dcc_rx_counter(name, idx, desc)					\
	module_param_cb(name, &dcc_rx_count_ops, (void *)(idx), 0444);	\
	MODULE_PARM_DESC(name, desc " (read-only)")

dcc_rx_counter(rx_hw, DCC_RXC_HW, "samples timed by the NIC's RX stamp");
dcc_rx_counter(rx_sw, DCC_RXC_SW, "samples timed by the kernel's RX stamp");
dcc_rx_counter(rx_stack, DCC_RXC_STACK, "samples timed by the stack's clock");
dcc_rx_counter(rx_rejects, DCC_RXC_REJECTS,
	       "samples whose RX stamp was refused (kept the stack clock)");
dcc_rx_counter(rx_no_record, DCC_RXC_NO_RECORD,
	       "samples with no RX record (not established, probe missing)");
dcc_rx_counter(rx_tx_ns, DCC_RXC_TX_NS,
	       "samples whose send time and RTT are nanosecond-exact");

/* ---- the per-CPU records ------------------------------------------------ */

DEFINE_PER_CPU_ALIGNED(struct dcc_rx_slots, dcc_rx_slots);
EXPORT_PER_CPU_SYMBOL_GPL(dcc_rx_slots);

/* ---- clock offsets (rx_sample.h: dcc_rx_offset()) ------------------------ */

DEFINE_PER_CPU(struct dcc_rx_offs, dcc_rx_offs);
EXPORT_PER_CPU_SYMBOL_GPL(dcc_rx_offs);

void dcc_rx_offs_refresh(struct dcc_rx_offs *o, unsigned long jif)
{
	WRITE_ONCE(o->real, ktime_to_ns(ktime_mono_to_any(0, TK_OFFS_REAL)));
	WRITE_ONCE(o->tai, ktime_to_ns(ktime_mono_to_any(0, TK_OFFS_TAI)));
	WRITE_ONCE(o->jif, jif);
}
EXPORT_SYMBOL_GPL(dcc_rx_offs_refresh);

/* ---- the probe ------------------------------------------------------------ */

/*
 * The nanosecond send time of the data this ACK acknowledges (0: none):
 * the stack's rs->rtt_us is whole microseconds (tcp_mstamp minus the send
 * stamp in us of the last skb, in sequence order, that the ACK covers,
 * partly covered TSO skbs included), which quantises a 10 us RTT by up to
 * 10%.  Before tcp_ack() runs, the retransmission queue still holds those
 * skbs with their skb_mstamp_ns: the one the stack times is the last that
 * starts below ack_seq, found by one descent of the queue's rbtree (keyed
 * by sequence), without a call, in as many steps as the tree is deep
 * (2 log2 of the skbs in flight at most).  (Walking from the head instead,
 * as an ACK covers one or two skbs, measured no cheaper: the head is as
 * deep as the skb searched for.)  A SACKed or retransmitted skb may be
 * what the stack timed instead: the microsecond check on the reader's side
 * then refuses the time.
 */
static u64 dcc_rx_newest_tx(const struct sock *sk, u32 ack_seq)
{
	const struct rb_node *n = sk->tcp_rtx_queue.rb_node;
	const struct sk_buff *last = NULL;

	while (n) {
		const struct sk_buff *skb = rb_to_skb(n);

		if (before(TCP_SKB_CB(skb)->seq, ack_seq)) {
			last = skb;
			n = n->rb_right;
		} else {
			n = n->rb_left;
		}
	}
	return last ? last->skb_mstamp_ns : 0;
}

/*
 * The ACK's IP TTL (IPv6: hop limit), for the hop count a law may scale
 * its target with (dcc_rx_ttl(), dcc_ttl_hops()); 0 for another protocol.
 */
static u8 dcc_skb_ttl(const struct sk_buff *skb)
{
	if (skb->protocol == htons(ETH_P_IP))
		return ip_hdr(skb)->ttl;
	if (skb->protocol == htons(ETH_P_IPV6))
		return ipv6_hdr(skb)->hop_limit;
	return 0;
}

/*
 * Leave this dcc ACK's record for dcc_rx_correct(): copies only, no clock
 * read and no rule (both run in cong_control, which has the stack's clock
 * and the RTT).  The key word goes last, but a reader does not rely on the
 * order: each word carries its own ack_seq bits (rxts.h).
 */
static noinline void dcc_rx_record(struct sock *sk, struct sk_buff *skb, int mode)
{
	u32 ack_seq = TCP_SKB_CB(skb)->ack_seq;
	u32 h = dcc_rx_hash(sk);
	struct dcc_rx_slot *slot = dcc_rx_slot_of(h);
	u64 sw = 0, hw = 0;

	if (mode != DCC_RX_MODE_SW)
		hw = ktime_to_ns(skb_hwtstamps(skb)->hwtstamp);
	if (mode != DCC_RX_MODE_HW && dcc_skb_tstamp_is_real(skb))
		sw = ktime_to_ns(skb->tstamp);
	atomic64_set(&slot->tx, dcc_rxts_word(ack_seq, dcc_rx_newest_tx(sk, ack_seq)));
	atomic64_set(&slot->sw, dcc_rxts_word(ack_seq, sw));
	atomic64_set(&slot->hw, dcc_rxts_word(ack_seq, hw));
	atomic64_set(&slot->key, dcc_rxts_key(ack_seq, h >> DCC_RX_SLOT_BITS) |
				 dcc_skb_ttl(skb));
}

/*
 * tcp:tcp_probe, first statement of tcp_rcv_established().  The filter
 * is kept apart from dcc_rx_record() so that other sockets' segments run
 * no prologue: a flag test, a load and the list compares (about 10 + 4 per
 * registered dcc CC instructions on x86-64).
 */
static void dcc_rx_probe(void *data, struct sock *sk, struct sk_buff *skb)
{
	int mode = READ_ONCE(dcc_rx_active);

	if (!(TCP_SKB_CB(skb)->tcp_flags & TCPHDR_ACK) ||
	    mode == DCC_RX_MODE_OFF || !dcc_rx_is_dcc(sk))
		return;
	dcc_rx_record(sk, skb, mode);
}

/* modinfo: every dcc socket's ACK runs both (the socket is argument 1) */
DCC_ACK_PROBE(dcc_rx_probe, 1);
DCC_ACK_PATH(dcc_rx_record);

/*
 * The same probe from a kprobe on tcp_rcv_established()'s entry, where
 * tracepoints are off.  The arguments are still in their registers.
 */
#if IS_ENABLED(CONFIG_KPROBES) && IS_ENABLED(CONFIG_HAVE_FUNCTION_ARG_ACCESS_API)
#define DCC_RX_HAVE_KPROBE 1

static int dcc_rx_kprobe_pre(struct kprobe *p, struct pt_regs *regs)
{
	dcc_rx_probe(NULL, (struct sock *)regs_get_kernel_argument(regs, 0),
		     (struct sk_buff *)regs_get_kernel_argument(regs, 1));
	return 0;
}

static struct kprobe dcc_rx_kp;

/* Mutex held.  A kprobe is registered afresh each time (addr is set by
 * the previous registration and may not be given with the symbol).
 */
static int dcc_rx_kprobe_attach(void)
{
	memset(&dcc_rx_kp, 0, sizeof(dcc_rx_kp));
	dcc_rx_kp.symbol_name = "tcp_rcv_established";
	dcc_rx_kp.pre_handler = dcc_rx_kprobe_pre;
	return register_kprobe(&dcc_rx_kp);
}

/* Mutex held.  Returns when no CPU runs the pre-handler any more. */
static void dcc_rx_kprobe_detach(void)
{
	unregister_kprobe(&dcc_rx_kp);
}
#else
#define DCC_RX_HAVE_KPROBE 0
static int dcc_rx_kprobe_attach(void) { return -EOPNOTSUPP; }
static void dcc_rx_kprobe_detach(void) { }
#endif

/* ---- switching modes ------------------------------------------------------ */

static void dcc_rx_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "tcp_probe"))
		*(struct tracepoint **)priv = tp;
}

static bool dcc_rx_tp_attach(void)
{
	int err;

	if (dcc_rx_on_tp)
		return true;
	if (!dcc_rx_tp)
		return false;
	err = tracepoint_probe_register(dcc_rx_tp, dcc_rx_probe, NULL);
	if (err) {
		pr_info("dcc_lib: cannot attach to tcp:tcp_probe (%d)\n", err);
		return false;
	}
	dcc_rx_on_tp = true;
	dcc_rx_ever_attached = true;
	return true;
}

static bool dcc_rx_kp_attach(void)
{
	int err;

	if (dcc_rx_on_kp)
		return true;
	err = dcc_rx_kprobe_attach();
	if (err) {
		pr_info("dcc_lib: cannot register a kprobe on tcp_rcv_established (%d)\n",
			err);
		return false;
	}
	dcc_rx_on_kp = true;
	return true;
}

/*
 * Attach the probe where @hook says, then take it off the other hook
 * (so a switch leaves no gap; an ACK probed twice in between writes the
 * same record twice).  Mutex held.
 */
static void dcc_rx_attach(int hook)
{
	bool tp = false, kp = false;

	if (hook != DCC_RX_HOOK_KPROBE)
		tp = dcc_rx_tp_attach();
	if (hook == DCC_RX_HOOK_KPROBE || (hook == DCC_RX_HOOK_AUTO && !tp))
		kp = dcc_rx_kp_attach();
	if (!tp && dcc_rx_on_tp) {
		/* the probe's code stays until module exit synchronises */
		tracepoint_probe_unregister(dcc_rx_tp, dcc_rx_probe, NULL);
		dcc_rx_on_tp = false;
	}
	if (!kp && dcc_rx_on_kp) {
		dcc_rx_kprobe_detach();
		dcc_rx_on_kp = false;
	}
	if (!tp && !kp)
		pr_info("dcc_lib: no RX probe attached (rx_hook=%s): samples keep the stack clock (rx_no_record)\n",
			dcc_rx_hook_names[hook]);
}

/* Put @mode in force: probe and net timestamps as it needs.  Mutex held. */
static void dcc_rx_apply(int mode)
{
	bool probe = mode != DCC_RX_MODE_OFF;
	bool sw = mode == DCC_RX_MODE_SW || mode == DCC_RX_MODE_AUTO;

	lockdep_assert_held(&dcc_rx_mutex);
	if (sw && !dcc_rx_netstamp) {
		net_enable_timestamp();
		dcc_rx_netstamp = true;
	}
	if (probe)
		dcc_rx_attach(dcc_rx_hook);
	WRITE_ONCE(dcc_rx_active, mode);
	if (!probe && dcc_rx_on_tp) {
		tracepoint_probe_unregister(dcc_rx_tp, dcc_rx_probe, NULL);
		dcc_rx_on_tp = false;
	}
	if (!probe && dcc_rx_on_kp) {
		dcc_rx_kprobe_detach();
		dcc_rx_on_kp = false;
	}
	if (!sw && dcc_rx_netstamp) {
		net_disable_timestamp();
		dcc_rx_netstamp = false;
	}
}

/*
 * rx_timestamps, rx_hook and rx_hw_clock take one word of @names each
 * (anything else: -EINVAL, value kept).  Written under dcc_rx_mutex; once
 * init ran, @changed (if any) puts the new value in force.
 */
struct dcc_rx_word {
	const char * const *names;
	size_t n;
	int *val;
	void (*changed)(int v);		/* dcc_rx_mutex held */
};

static int dcc_rx_word_set(const char *val, const struct kernel_param *kp)
{
	const struct dcc_rx_word *w = kp->arg;
	int v = __sysfs_match_string(w->names, w->n, val);

	if (v < 0)
		return -EINVAL;
	mutex_lock(&dcc_rx_mutex);
	WRITE_ONCE(*w->val, v);
	if (dcc_rx_ready && w->changed)
		w->changed(v);
	mutex_unlock(&dcc_rx_mutex);
	return 0;
}

static int dcc_rx_word_get(char *buf, const struct kernel_param *kp)
{
	const struct dcc_rx_word *w = kp->arg;

	return sysfs_emit(buf, "%s\n", w->names[READ_ONCE(*w->val)]);
}

static const struct kernel_param_ops dcc_rx_word_ops = {
	.set = dcc_rx_word_set,
	.get = dcc_rx_word_get,
};

static struct dcc_rx_word dcc_rx_mode_word = {
	.names = dcc_rx_mode_names, .n = ARRAY_SIZE(dcc_rx_mode_names),
	.val = &dcc_rx_mode, .changed = dcc_rx_apply,
};
module_param_cb(rx_timestamps, &dcc_rx_word_ops, &dcc_rx_mode_word, 0644);
MODULE_PARM_DESC(rx_timestamps,
		 "ACK receive time source: off|sw|hw|auto (auto: NIC stamp, else kernel stamp, else stack clock)");

/* a new hook is attached at once only while the probe is in use */
static void dcc_rx_hook_changed(int hook)
{
	if (dcc_rx_active != DCC_RX_MODE_OFF)
		dcc_rx_attach(hook);
}

static struct dcc_rx_word dcc_rx_hook_word = {
	.names = dcc_rx_hook_names, .n = ARRAY_SIZE(dcc_rx_hook_names),
	.val = &dcc_rx_hook, .changed = dcc_rx_hook_changed,
};
module_param_cb(rx_hook, &dcc_rx_word_ops, &dcc_rx_hook_word, 0644);
MODULE_PARM_DESC(rx_hook,
		 "where the RX probe is attached: auto|tracepoint|kprobe (auto: tcp:tcp_probe, else a kprobe on tcp_rcv_established)");

static int dcc_rx_hook_active_get(char *buf, const struct kernel_param *kp)
{
	const char *s;

	mutex_lock(&dcc_rx_mutex);
	s = dcc_rx_on_tp ? "tracepoint" : dcc_rx_on_kp ? "kprobe" : "none";
	mutex_unlock(&dcc_rx_mutex);
	return sysfs_emit(buf, "%s\n", s);
}

static const struct kernel_param_ops dcc_rx_hook_active_ops = {
	.get = dcc_rx_hook_active_get,
};
module_param_cb(rx_hook_active, &dcc_rx_hook_active_ops, NULL, 0444);
MODULE_PARM_DESC(rx_hook_active,
		 "where the RX probe is attached now: none|tracepoint|kprobe (read-only)");

static struct dcc_rx_word dcc_rx_clock_word = {
	.names = dcc_rx_clock_names, .n = ARRAY_SIZE(dcc_rx_clock_names),
	.val = &dcc_rx_hw_real,		/* read per ACK, as it is */
};
module_param_cb(rx_hw_clock, &dcc_rx_word_ops, &dcc_rx_clock_word, 0644);
MODULE_PARM_DESC(rx_hw_clock, "timescale of NIC RX stamps: tai (PTP) or real");

int dcc_rx_init(void)
{
	unsigned long j = jiffies;
	int cpu;

	/* every CPU's offsets valid from the start: the reader tests jiffies only */
	for_each_possible_cpu(cpu)
		dcc_rx_offs_refresh(per_cpu_ptr(&dcc_rx_offs, cpu), j);
	for_each_kernel_tracepoint(dcc_rx_find_tp, &dcc_rx_tp);
	if (!dcc_rx_tp)
		pr_info("dcc_lib: tracepoint tcp:tcp_probe not found%s\n",
			DCC_RX_HAVE_KPROBE ? ": rx_hook=auto uses a kprobe" : "");
	mutex_lock(&dcc_rx_mutex);
	dcc_rx_ready = true;
	dcc_rx_apply(dcc_rx_mode);
	mutex_unlock(&dcc_rx_mutex);
	return 0;
}

void dcc_rx_exit(void)
{
	mutex_lock(&dcc_rx_mutex);
	dcc_rx_apply(DCC_RX_MODE_OFF);
	dcc_rx_ready = false;
	mutex_unlock(&dcc_rx_mutex);
	/* no CPU may still run dcc_rx_probe once the module is freed */
	if (dcc_rx_ever_attached)
		tracepoint_synchronize_unregister();
}
