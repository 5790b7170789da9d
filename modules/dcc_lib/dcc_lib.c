// SPDX-License-Identifier: GPL-2.0
/*
 * dcc_lib: shared helper module for the dcc congestion-control modules.
 *
 * It holds what more than one algorithm needs, so nothing is copied
 * between algorithm modules: the batched least-squares gradient estimator
 * (bls.c), sliding-window medians (median.c), fixed-point helpers (fixp.c),
 * the shared tables' slot logic (shtbl.c), the per-ACK sample (sample.c)
 * with the RX timestamps (rx_probe.c), and, in this file, the rest of the
 * kernel glue: the base RTT (own or shared per destination), the line-rate
 * estimate, idle detection, applying a rate and a cwnd cap, validated
 * module parameters and counters, and the parameter snapshots sockets take
 * at init.  The API is documented in include/dcc/dcc.h.
 *
 * Nothing here sleeps or allocates, and every function may run in
 * softirq, except the snapshot writers (dcc_snaps_init/exit,
 * dcc_snap_publish and the parameter writes that call it): process
 * context.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/jhash.h>
#include <linux/slab.h>
#include <net/tcp.h>
#include <net/netns/hash.h>
#include "dcc/dcc.h"
#include "dcc/shtbl.h"
#include "rx_probe.h"
#include "dev_speed.h"

u32 dcc_base_rtt_us(const struct sock *sk, u32 param_us)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	u32 min_rtt = tcp_min_rtt(tp);

	if (param_us)
		return param_us;
	if (min_rtt && min_rtt != ~0U)
		return min_rtt;
	if (tp->srtt_us)
		return max_t(u32, tp->srtt_us >> 3, 1);
	return 0;
}
EXPORT_SYMBOL_GPL(dcc_base_rtt_us);

/*
 * Shared base RTT.  An algorithm that measures queueing delay against
 * RTT_min needs every flow of a bottleneck to see the same empty-path
 * RTT.  tcp_min_rtt() is per socket, and a flow that starts while the
 * others hold a standing queue never sees the empty path: its SYN and
 * all its samples include that queue, so it reads its queueing delay low
 * by up to the queue, keeps increasing while the others decrease, and
 * takes the link (CCC: a guest join ended at 80 vs 15 Mbit/s).
 * So a flow may use the lowest min RTT that any dcc flow of its network
 * namespace has seen to the same destination address: flows that share a
 * path then share the base RTT, as the delay-based papers assume.
 *
 * Keyed by destination address and network namespace, as the kernel's
 * own per-destination cache (tcp_metrics) is: one namespace's path never
 * lends its minimum to another's (the testbed's sender namespaces stand
 * for separate hosts with their own base RTTs).  A key collision (24 bits
 * of a hash of both, within one group) gives the slower path a low base:
 * it reads more queue and backs off early, the safe direction; a key
 * evicted from a full group (five live keys) falls back to the socket's
 * own minimum until it claims a slot again.  Two
 * flows of one namespace to one address are assumed to share a path (one
 * route; ECMP legs differ by microseconds).  Flows of different hosts
 * cannot share a minimum at all: where they meet (incast), the base RTT
 * must be known (the modules' base_rtt_us), as the papers assume.  An
 * entry expires, as tcp_min_rtt()'s window does, when it has not been
 * confirmed for tcp_min_rtt_wlen seconds.
 *
 * The line-rate estimate (dcc_shared_line_rate) lives in a second table
 * of the same shape, keyed by namespace and egress device: a maximum
 * instead of a minimum.
 *
 * Each slot is one atomic 64-bit word (key, value and stamp packed as
 * include/dcc/shtbl.h describes), read and written whole, so a reader
 * never pairs one entry's value with another's stamp.  64 slots per
 * table in groups of four, a key in any slot of its group (shtbl.h:
 * with one slot per hash, two flows whose keys collide would overwrite
 * each other on every batch and each read back only its own value).
 * The machine's shortest base RTT (OSCAR's RTT_ref,
 * dcc_shared_ref_rtt_us()) has a word of its own, outside the table: no
 * destination's entry can evict it.  Writes are plain stores: two flows
 * updating one slot at once only lose an update.  A confirmation
 * rewrites a slot at most once per stamp tick, so the host-wide cache
 * line is written every 2 s, not per ACK; the callers look up once per
 * RTT or per batch.
 */
static atomic64_t dcc_rtt_tbl[DCC_TBL_SLOTS];
static atomic64_t dcc_rate_tbl[DCC_TBL_SLOTS];
static atomic64_t dcc_ref_rtt;	/* RTT_ref: key DCC_REF_KEY */
#define DCC_REF_KEY	1

static u32 dcc_tick(void)
{
	return (u32)(jiffies / (DCC_TICK_SECS * HZ)) & 0xffff;
}

/* the namespace's expiry window of shared entries: tcp_min_rtt_wlen, s */
static u32 dcc_wlen(const struct sock *sk)
{
	return READ_ONCE(sock_net(sk)->ipv4.sysctl_tcp_min_rtt_wlen);
}

/* @hash's word in @tbl (dcc_tbl_way()), its tag in *@key, its value in *@v */
static atomic64_t *dcc_tbl_slot(atomic64_t *tbl, u32 hash, u32 now, u32 wlen,
				u32 *key, u64 *v)
{
	atomic64_t *grp = &tbl[dcc_tbl_group(hash)];
	u64 w[DCC_TBL_WAYS];
	u32 i;

	for (i = 0; i < DCC_TBL_WAYS; i++)
		w[i] = atomic64_read(&grp[i]);
	*key = dcc_tbl_key(hash);
	i = dcc_tbl_way(w, *key, now, wlen);
	*v = w[i];
	return &grp[i];
}

/*
 * Fold @own into @slot's entry for @key (read as @v): the lower of both,
 * or with @max the higher (dcc_tbl_fold_min/max()); store the word only
 * if it changed.  Returns what the key reads back.
 */
static u32 dcc_slot_fold(atomic64_t *slot, u64 v, u32 key, u32 now, u32 wlen,
			 u32 own, bool max)
{
	u64 nv = v;
	u32 r = max ? dcc_tbl_fold_max(&nv, key, now, wlen, own) :
		      dcc_tbl_fold_min(&nv, key, now, wlen, own);

	if (nv != v)
		atomic64_set(slot, nv);
	return r;
}

static u32 dcc_dst_hash(const struct sock *sk)
{
	u32 addr = (__force u32)sk->sk_daddr;

#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6 &&
	    !ipv6_addr_v4mapped(&sk->sk_v6_daddr))
		addr = ipv6_addr_hash(&sk->sk_v6_daddr);
#endif
	return jhash_2words(addr, net_hash_mix(sock_net(sk)), 0);
}

/* Fold @own_us into the min-RTT table's entry for @hash; the lower of both. */
static u32 dcc_shared_min_us(const struct sock *sk, u32 hash, u32 own_us)
{
	u32 key, now = dcc_tick(), wlen = dcc_wlen(sk);
	u64 v;
	atomic64_t *slot = dcc_tbl_slot(dcc_rtt_tbl, hash, now, wlen, &key, &v);

	return dcc_slot_fold(slot, v, key, now, wlen, own_us, false);
}

u32 dcc_shared_min_rtt_us(const struct sock *sk, u32 own_us)
{
	return dcc_shared_min_us(sk, dcc_dst_hash(sk), own_us);
}
EXPORT_SYMBOL_GPL(dcc_shared_min_rtt_us);

u32 dcc_auto_base_rtt_us(const struct sock *sk, bool share)
{
	u32 b = dcc_base_rtt_us(sk, 0);

	return b && share ? dcc_shared_min_rtt_us(sk, b) : b;
}
EXPORT_SYMBOL_GPL(dcc_auto_base_rtt_us);

/*
 * The egress device's index (0 if the socket has no route yet) and, into
 * *@mbps, its link speed if dev_speed lets it count (dev_speed.c; else 0).
 */
static int dcc_egress_ifindex(const struct sock *sk, u32 *mbps)
{
	const struct dst_entry *dst;
	int ifindex = 0;

	*mbps = 0;
	rcu_read_lock();
	dst = __sk_dst_get((struct sock *)sk);
	if (dst && dst->dev) {
		ifindex = dst->dev->ifindex;
		*mbps = dcc_dev_speed_mbps(dst->dev);
	}
	rcu_read_unlock();
	return ifindex;
}

/*
 * The shortest base RTT of the machine's dcc flows: one word for every
 * namespace and device (dcc_ref_rtt, outside the table), not per
 * destination.  It stands for the fabric's
 * nearest path (in a datacenter every host talks within its rack), which
 * flows of every path can agree on without being told it; namespaces
 * share it because containers of one host share its fabric, and the
 * testbed's sender namespaces, standing for separate hosts, share it as
 * the hosts of one fabric would.  Loopback flows, and sockets without a
 * route at the moment, neither fold into it nor read it (their path is no
 * path of the fabric, or unknown).
 */
u32 dcc_shared_ref_rtt_us(const struct sock *sk, u32 own_us)
{
	const struct dst_entry *dst;
	bool skip;

	/* no route (yet, or reset): the path is unknown, so not shared */
	rcu_read_lock();
	dst = __sk_dst_get((struct sock *)sk);
	skip = !dst || !dst->dev || (dst->dev->flags & IFF_LOOPBACK);
	rcu_read_unlock();
	if (skip)
		return own_us;
	return dcc_slot_fold(&dcc_ref_rtt, atomic64_read(&dcc_ref_rtt),
			     DCC_REF_KEY, dcc_tick(), dcc_wlen(sk), own_us, false);
}
EXPORT_SYMBOL_GPL(dcc_shared_ref_rtt_us);

u32 dcc_egress_speed_mbps(const struct sock *sk)
{
	u32 mbps;

	dcc_egress_ifindex(sk, &mbps);
	return mbps;
}
EXPORT_SYMBOL_GPL(dcc_egress_speed_mbps);

u64 dcc_shared_line_rate(const struct sock *sk, u64 observed_bytes_ps, u64 floor_bytes_ps)
{
	u32 key, now, wlen, mbps, hash, obs, best;
	int ifindex = dcc_egress_ifindex(sk, &mbps);
	atomic64_t *slot;
	u64 v;

	/* the device's own speed: the estimate is not needed (dev_speed.c) */
	if (mbps)
		return min_t(u64, (u64)mbps * DCC_MBPS_TO_BPS, DCC_RATE_MAX_BPS);
	now = dcc_tick();
	wlen = dcc_wlen(sk);
	hash = jhash_2words((u32)ifindex, net_hash_mix(sock_net(sk)), 1);
	slot = dcc_tbl_slot(dcc_rate_tbl, hash, now, wlen, &key, &v);
	obs = (u32)min_t(u64, div_u64(min_t(u64, observed_bytes_ps, DCC_RATE_MAX_BPS),
				      DCC_RATE_STEP_BPS), DCC_VAL_MAX);
	/* raise, claim, or confirm within 1/8 (dcc_tbl_fold_max()) */
	best = dcc_slot_fold(slot, v, key, now, wlen, obs, true);
	return max_t(u64, (u64)best * DCC_RATE_STEP_BPS, floor_bytes_ps);
}
EXPORT_SYMBOL_GPL(dcc_shared_line_rate);

/* Live entries of both tables and RTT_ref (read-only parameter shared_entries). */
static int dcc_shared_entries_get(char *buf, const struct kernel_param *kp)
{
	u32 now = dcc_tick(), n = 0, i;
	/* the expiry window of the initial namespace bounds what is shown */
	u32 wlen = READ_ONCE(init_net.ipv4.sysctl_tcp_min_rtt_wlen);
	struct dcc_slot ref;

	for (i = 0; i < DCC_TBL_SLOTS; i++) {
		struct dcc_slot r = dcc_slot_unpack(atomic64_read(&dcc_rtt_tbl[i]));
		struct dcc_slot l = dcc_slot_unpack(atomic64_read(&dcc_rate_tbl[i]));

		n += dcc_slot_live(&r, now, wlen);
		n += dcc_slot_live(&l, now, wlen);
	}
	ref = dcc_slot_unpack(atomic64_read(&dcc_ref_rtt));
	n += dcc_slot_live(&ref, now, wlen);
	return sysfs_emit(buf, "%u\n", n);
}

static const struct kernel_param_ops dcc_shared_entries_ops = {
	.get = dcc_shared_entries_get,
};
module_param_cb(shared_entries, &dcc_shared_entries_ops, NULL, 0444);
MODULE_PARM_DESC(shared_entries,
		 "live entries of the shared min-RTT and line-rate tables and RTT_ref (read-only; at most 129)");

/*
 * Write-only parameter shared_reset: writing 1 forgets every shared entry
 * (both tables and RTT_ref), as a reload of dcc_lib would, without closing
 * a socket: for an operator after a topology change (an entry otherwise
 * lives tcp_min_rtt_wlen, 300 s by default), and for a test suite whose
 * scenarios must not inherit each other's paths (a 2 ms path's flow left
 * RTT_ref at 2 ms for the next 300 s, and OSCAR's 10 and 20 ms paths
 * then disagreed on the shared target).  A flow that reads an emptied slot
 * claims it again with its own value.  Anything but 1 is -EINVAL.
 */
static int dcc_shared_reset_set(const char *val, const struct kernel_param *kp)
{
	u32 i, v;

	if (kstrtou32(val, 0, &v) || v != 1)
		return -EINVAL;
	for (i = 0; i < DCC_TBL_SLOTS; i++) {
		atomic64_set(&dcc_rtt_tbl[i], 0);
		atomic64_set(&dcc_rate_tbl[i], 0);
	}
	atomic64_set(&dcc_ref_rtt, 0);
	return 0;
}

static const struct kernel_param_ops dcc_shared_reset_ops = {
	.set = dcc_shared_reset_set,
};
module_param_cb(shared_reset, &dcc_shared_reset_ops, NULL, 0200);
MODULE_PARM_DESC(shared_reset,
		 "write 1: forget every entry of the shared tables and RTT_ref (write-only)");

bool dcc_tx_start_after_idle(const struct sock *sk, u32 gap_us)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	u64 last = tp->delivered_mstamp;

	return tp->app_limited && last && tp->tcp_mstamp > last &&
	       tp->tcp_mstamp - last > max_t(u32, gap_us, 1);
}
EXPORT_SYMBOL_GPL(dcc_tx_start_after_idle);

void dcc_pacing_init(struct sock *sk)
{
	/* Leave fq in charge if it is there; otherwise TCP paces itself. */
	cmpxchg(&sk->sk_pacing_status, SK_PACING_NONE, SK_PACING_NEEDED);
}
EXPORT_SYMBOL_GPL(dcc_pacing_init);

u64 dcc_cwnd_bytes(u64 rate_bytes_ps, u32 rtt_us, u32 gain_q8, u32 mss)
{
	u64 bdp;

	if (!rtt_us)
		return (u64)TCP_INIT_CWND * max_t(u32, mss, 1);
	bdp = dcc_rate_time_bytes(rate_bytes_ps, rtt_us, DCC_USEC_PER_SEC);
	return dcc_mul_div(bdp, gain_q8, 256);
}
EXPORT_SYMBOL_GPL(dcc_cwnd_bytes);

/* Half of what was in the network when a loss was detected, packets. */
static u32 dcc_loss_half(u32 in_flight)
{
	return max_t(u32, in_flight >> 1, DCC_MIN_CWND);
}

/* The law's window @cwnd (packets) under the loss bound (dcc.h). */
static u32 dcc_loss_bound(struct sock *sk, u32 cwnd)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u8 state = inet_csk(sk)->icsk_ca_state;

	if (state == TCP_CA_Loss) {
		/*
		 * An RTO whose episode asked no ssthresh (it began in a
		 * recovery that an undo had lifted) still leaves a bound.
		 */
		if (tp->snd_ssthresh == TCP_INFINITE_SSTHRESH)
			tp->snd_ssthresh = dcc_loss_half(tp->packets_out);
		/* from the stack's one packet, + what each ACK delivers */
		cwnd = min(cwnd, tcp_snd_cwnd(tp) + tp->snd_cwnd_cnt);
		tp->snd_cwnd_cnt = 0;
	}
	if (cwnd > tp->snd_ssthresh)
		cwnd = tp->snd_ssthresh;
	else if (state == TCP_CA_Open)
		tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;	/* lifted */
	return max_t(u32, cwnd, DCC_MIN_CWND);
}

static void dcc_apply_cwnd(struct sock *sk, u64 rate_bytes_ps, u64 cwnd_bytes,
			   bool bounded)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 mss = max_t(u32, tp->mss_cache, 1);
	u64 max_rate = READ_ONCE(sk->sk_max_pacing_rate);
	u32 cwnd = dcc_cwnd_pkts(tp, cwnd_bytes);

	rate_bytes_ps = clamp_t(u64, rate_bytes_ps, mss, max_rate);
	WRITE_ONCE(sk->sk_pacing_rate, (unsigned long)rate_bytes_ps);
	if (bounded && (unlikely(tp->snd_ssthresh != TCP_INFINITE_SSTHRESH) ||
			inet_csk(sk)->icsk_ca_state == TCP_CA_Loss))
		cwnd = dcc_loss_bound(sk, cwnd);
	tcp_snd_cwnd_set(tp, cwnd);
}

void dcc_apply(struct sock *sk, u64 rate_bytes_ps, u64 cwnd_bytes)
{
	dcc_apply_cwnd(sk, rate_bytes_ps, cwnd_bytes, false);
}
EXPORT_SYMBOL_GPL(dcc_apply);

void dcc_apply_bounded(struct sock *sk, u64 rate_bytes_ps, u64 cwnd_bytes)
{
	dcc_apply_cwnd(sk, rate_bytes_ps, cwnd_bytes, true);
}
EXPORT_SYMBOL_GPL(dcc_apply_bounded);

u32 dcc_loss_ssthresh(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 used = min(tcp_snd_cwnd(tp), tp->packets_out);

	/*
	 * The stack has just saved the bound for an undo (prior_ssthresh; 0:
	 * no undo).  Were there none, the undo of a spurious loss would lift
	 * the window to the law's; it restores what was in flight instead.
	 */
	if (tp->prior_ssthresh == TCP_INFINITE_SSTHRESH)
		tp->prior_ssthresh = max_t(u32, used, DCC_MIN_CWND);
	return dcc_loss_half(used);
}
EXPORT_SYMBOL_GPL(dcc_loss_ssthresh);

bool __dcc_loss_ack(struct sock *sk, const struct rate_sample *rs)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 bound = tp->snd_ssthresh;
	u8 state = inet_csk(sk)->icsk_ca_state;

	if (state == TCP_CA_Loss) {
		/* dcc_apply_bounded() adds it to cwnd: a slow start */
		tp->snd_cwnd_cnt = min_t(u32, rs->acked_sacked, DCC_MAX_CWND);
		return true;
	}
	if (bound == TCP_INFINITE_SSTHRESH)
		return false;
	/* a bound the window is above: the stack has just set it */
	if (tcp_snd_cwnd(tp) > bound)
		return true;
	if (!rs->acked_sacked || state != TCP_CA_Open)
		return false;
	/* snd_cwnd_cnt < bound + 2^31: one ACK covers < 2^31 packets */
	tp->snd_cwnd_cnt += rs->acked_sacked;
	if (tp->snd_cwnd_cnt < bound)
		return false;
	tp->snd_cwnd_cnt = 0;
	/* bound < 2^30 + 2^27: never TCP_INFINITE_SSTHRESH (2^31 - 1) */
	tp->snd_ssthresh = min_t(u32, bound + max_t(u32, bound >> 3, 1),
				 DCC_MAX_CWND);
	return true;
}
EXPORT_SYMBOL_GPL(__dcc_loss_ack);

/* ---- validated module parameters -------------------------------------- */

/* Parse @val into *r->val if it is a u32 in [min, max]; else keep it. */
static int dcc_param_store(const struct dcc_param_range *r, const char *val)
{
	u32 v;

	if (kstrtou32(val, 0, &v) || v < r->min || v > r->max)
		return -EINVAL;
	WRITE_ONCE(*r->val, v);
	return 0;
}

static int dcc_param_show(const struct dcc_param_range *r, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(*r->val));
}

static int dcc_param_set_range(const char *val, const struct kernel_param *kp)
{
	return dcc_param_store(kp->arg, val);
}

static int dcc_param_get_range(char *buf, const struct kernel_param *kp)
{
	return dcc_param_show(kp->arg, buf);
}

const struct kernel_param_ops dcc_param_ops_range = {
	.set = dcc_param_set_range,
	.get = dcc_param_get_range,
};
EXPORT_SYMBOL_GPL(dcc_param_ops_range);

/* ---- parameter snapshots (dcc.h) -------------------------------------- */

void dcc_snap_put(struct dcc_snaps *ss, struct dcc_snap *s)
{
	if (s && s != ss->fallback && refcount_dec_and_test(&s->ref))
		kfree_rcu(s, rcu);	/* s is the start of the allocation */
}
EXPORT_SYMBOL_GPL(dcc_snap_put);

struct dcc_snap *dcc_snap_get(struct dcc_snaps *ss)
{
	struct dcc_snap *s;

	rcu_read_lock();
	do {	/* a replaced snapshot may drop to 0: read the new pointer */
		s = rcu_dereference(ss->cur);
	} while (s && !refcount_inc_not_zero(&s->ref));
	rcu_read_unlock();
	return s ? s : ss->fallback;
}
EXPORT_SYMBOL_GPL(dcc_snap_get);

/*
 * Make @s (NULL: none, for good) the current snapshot and drop the one it
 * replaces.  -ENODEV, and @s freed, once none was made current.
 */
static int dcc_snap_replace(struct dcc_snaps *ss, struct dcc_snap *s)
{
	struct dcc_snap *old;

	spin_lock_bh(&ss->lock);
	if (ss->closed) {		/* a write racing with module exit */
		spin_unlock_bh(&ss->lock);
		kfree(s);
		return -ENODEV;
	}
	old = rcu_replace_pointer(ss->cur, s, lockdep_is_held(&ss->lock));
	ss->closed = !s;
	spin_unlock_bh(&ss->lock);
	dcc_snap_put(ss, old);
	return 0;
}

int dcc_snap_publish(struct dcc_snaps *ss)
{
	struct dcc_snap *s = kzalloc(ss->size, GFP_KERNEL);

	if (!s)
		return -ENOMEM;
	refcount_set(&s->ref, 1);	/* ss->cur's reference */
	ss->fill(s);
	return dcc_snap_replace(ss, s);
}
EXPORT_SYMBOL_GPL(dcc_snap_publish);

int dcc_snaps_init(struct dcc_snaps *ss)
{
	ss->fill(ss->fallback);
	return dcc_snap_publish(ss);
}
EXPORT_SYMBOL_GPL(dcc_snaps_init);

void dcc_snaps_exit(struct dcc_snaps *ss)
{
	dcc_snap_replace(ss, NULL);	/* kfree(NULL) if already closed */
	rcu_barrier();	/* the kfree_rcu()s done before the module goes */
}
EXPORT_SYMBOL_GPL(dcc_snaps_exit);

/*
 * A snapshot parameter: the range check (-EINVAL, value kept), then a new
 * snapshot; if that cannot be built, the old value again.
 */
static int dcc_param_set_snap(const char *val, const struct kernel_param *kp)
{
	const struct dcc_param_snap *p = kp->arg;
	u32 old = READ_ONCE(*p->r.val);
	int err = dcc_param_store(&p->r, val);

	if (err)
		return err;
	err = dcc_snap_publish(p->snaps);
	if (err)
		WRITE_ONCE(*p->r.val, old);
	return err;
}

static int dcc_param_get_snap(char *buf, const struct kernel_param *kp)
{
	const struct dcc_param_snap *p = kp->arg;

	return dcc_param_show(&p->r, buf);
}

const struct kernel_param_ops dcc_param_ops_snap = {
	.set = dcc_param_set_snap,
	.get = dcc_param_get_snap,
};
EXPORT_SYMBOL_GPL(dcc_param_ops_snap);

static int dcc_param_get_counter(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read((const atomic_t *)kp->arg));
}

const struct kernel_param_ops dcc_param_ops_counter = {
	.get = dcc_param_get_counter,
};
EXPORT_SYMBOL_GPL(dcc_param_ops_counter);

static int __init dcc_lib_init(void)
{
	int err;

	/* the BLS sums must stay within one cache line of per-flow state */
	BUILD_BUG_ON(sizeof(struct dcc_bls) != 64);
	err = dcc_dev_speed_init();
	if (err)
		return err;
	err = dcc_rx_init();
	if (err)
		dcc_dev_speed_exit();
	return err;
}

static void __exit dcc_lib_exit(void)
{
	dcc_rx_exit();
	dcc_dev_speed_exit();
}

module_init(dcc_lib_init);
module_exit(dcc_lib_exit);

MODULE_AUTHOR("dcc developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("dcc shared helpers: BLS gradient estimator, medians, fixed point, pacing");
