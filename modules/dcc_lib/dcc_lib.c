// SPDX-License-Identifier: GPL-2.0
/*
 * dcc_lib: shared helper module for the dcc congestion-control modules.
 *
 * It holds what more than one algorithm needs, so nothing is copied
 * between algorithm modules: the batched least-squares gradient estimator
 * (bls.c), sliding-window medians (median.c), fixed-point helpers (fixp.c),
 * and, in this file, the kernel glue: turning a rate_sample into a clean
 * per-ACK sample, the base RTT (own or shared per destination), applying
 * a rate and a cwnd cap, and validated module parameters.  The API is
 * documented in include/dcc/dcc.h.
 *
 * Nothing here sleeps or allocates: every function may run in softirq.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/jhash.h>
#include <net/tcp.h>
#include <net/netns/hash.h>
#include "dcc/dcc.h"

bool dcc_sample_get(const struct sock *sk, const struct rate_sample *rs,
		    struct dcc_sample *s, u32 policy)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	u32 mss = max_t(u32, tp->mss_cache, 1);

	*s = (struct dcc_sample){
		.rx_us = dcc_rx_time_us(sk),
		.acked = rs->acked_sacked,
		.acked_bytes = rs->acked_sacked * mss,
		.ce = max_t(s32, rs->delivered_ce, 0),
		.losses = max_t(int, rs->losses, 0),
		.app_limited = rs->is_app_limited,
		/*
		 * tp->delivered is 1 once the handshake is done (the SYN or
		 * SYN-ACK counts) and grows with the first data ACK, so a
		 * packet that left with tx.delivered <= 1 was sent before
		 * any data was acknowledged.
		 */
		.first_window = rs->prior_delivered <= 1,
	};

	if (rs->rtt_us < 0)
		s->why |= DCC_SAMPLE_NO_RTT;
	if (rs->is_retrans)
		s->why |= DCC_SAMPLE_RETRANS;
	if (rs->is_ack_delayed && !(policy & DCC_SAMPLE_KEEP_DELAYED))
		s->why |= DCC_SAMPLE_DELAYED;
	if (!rs->acked_sacked)
		s->why |= DCC_SAMPLE_NO_ACKED;
	if (s->why)
		return false;

	/*
	 * rs->rtt_us is tcp_mstamp minus the send stamp of the newest skb
	 * this ACK (S)ACKed, so the send time is recovered exactly.  1 s
	 * bounds anything a datacenter path produces; a larger value is a
	 * stall and is clamped rather than let through unbounded.
	 */
	s->rtt_us = (u32)min_t(long, rs->rtt_us, USEC_PER_SEC);
	s->tx_us = s->rx_us - s->rtt_us;
	/*
	 * rs->delivered = tp->delivered now minus when the sampled skb was
	 * sent: what the network delivered while it was in flight.
	 */
	s->infl_pkts = rs->delivered > 0 ? rs->delivered : rs->prior_in_flight;
	return true;
}
EXPORT_SYMBOL_GPL(dcc_sample_get);

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
 * takes the link (CCC, issue 8: a guest join ended at 80 vs 15 Mbit/s).
 * So a flow may use the lowest min RTT that any dcc flow of its network
 * namespace has seen to the same destination address: flows that share a
 * path then share the base RTT, as the delay-based papers assume.
 *
 * Keyed by destination address and network namespace, as the kernel's
 * own per-destination cache (tcp_metrics) is: one namespace's path never
 * lends its minimum to another's (the testbed's sender namespaces stand
 * for separate hosts with their own base RTTs).  A key collision (a
 * 32-bit hash of both) gives the slower path a low base: it reads more
 * queue and backs off early, the safe direction; a hash-slot collision
 * just falls back to the socket's own minimum.  Two flows of one
 * namespace to one address are assumed to share a path (one route; ECMP
 * legs differ by microseconds).  Flows of different hosts cannot share a
 * minimum at all: where they meet (incast), the base RTT must be known
 * (the modules' base_rtt_us), as the papers assume.  An entry expires, as
 * tcp_min_rtt()'s window does, when it has not been confirmed for
 * tcp_min_rtt_wlen seconds.  64 slots, one per destination in use; races
 * between ACKs of different sockets only lose an update.
 */
#define DCC_DST_BITS 6
static struct {
	u64 v;			/* key << 32 | min RTT (us), 0 = empty */
	unsigned long stamp;	/* jiffies it was last lowered or confirmed */
} dcc_dst[1 << DCC_DST_BITS];

static u32 dcc_dst_key(const struct sock *sk)
{
	u32 addr = (__force u32)sk->sk_daddr;

#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6 &&
	    !ipv6_addr_v4mapped(&sk->sk_v6_daddr))
		addr = ipv6_addr_hash(&sk->sk_v6_daddr);
#endif
	return jhash_2words(addr, net_hash_mix(sock_net(sk)), 0);
}

u32 dcc_shared_min_rtt_us(const struct sock *sk, u32 own_us)
{
	u32 key = dcc_dst_key(sk);
	u32 slot = hash_32(key, DCC_DST_BITS);
	u64 v = READ_ONCE(dcc_dst[slot].v);
	unsigned long stamp = READ_ONCE(dcc_dst[slot].stamp);
	unsigned long wlen = (unsigned long)READ_ONCE(
		sock_net(sk)->ipv4.sysctl_tcp_min_rtt_wlen) * HZ;
	u32 min_us = (u32)v;
	bool valid = (u32)(v >> 32) == key && min_us &&
		     time_before(jiffies, stamp + wlen);

	if (!own_us)
		return valid ? min_us : 0;
	if (valid && min_us < own_us)
		return min_us;
	/*
	 * Claim, lower or renew the entry; confirming an equal minimum
	 * writes at most once a second (one cache line shared by the host).
	 */
	if (!valid || own_us < min_us || time_after(jiffies, stamp + HZ)) {
		WRITE_ONCE(dcc_dst[slot].v, ((u64)key << 32) | own_us);
		WRITE_ONCE(dcc_dst[slot].stamp, jiffies);
	}
	return own_us;
}
EXPORT_SYMBOL_GPL(dcc_shared_min_rtt_us);

void dcc_pacing_init(struct sock *sk)
{
	/* Leave fq in charge if it is there; otherwise TCP paces itself. */
	cmpxchg(&sk->sk_pacing_status, SK_PACING_NONE, SK_PACING_NEEDED);
}
EXPORT_SYMBOL_GPL(dcc_pacing_init);

u64 dcc_cwnd_bytes(u64 rate_Bps, u32 rtt_us, u32 gain_q8, u32 mss)
{
	u64 bdp;

	if (!rtt_us)
		return (u64)TCP_INIT_CWND * max_t(u32, mss, 1);
	bdp = dcc_rate_time_bytes(rate_Bps, rtt_us, DCC_USEC_PER_SEC);
	return dcc_mul_div(bdp, gain_q8, 256);
}
EXPORT_SYMBOL_GPL(dcc_cwnd_bytes);

void dcc_apply(struct sock *sk, u64 rate_Bps, u64 cwnd_bytes)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 mss = max_t(u32, tp->mss_cache, 1);
	u64 max_rate = READ_ONCE(sk->sk_max_pacing_rate);
	u64 cwnd;

	rate_Bps = clamp_t(u64, rate_Bps, mss, max_rate);
	WRITE_ONCE(sk->sk_pacing_rate, (unsigned long)rate_Bps);

	cwnd = DIV_ROUND_UP_ULL(cwnd_bytes, mss);
	cwnd = clamp_t(u64, cwnd, DCC_MIN_CWND, tp->snd_cwnd_clamp);
	tcp_snd_cwnd_set(tp, (u32)cwnd);
}
EXPORT_SYMBOL_GPL(dcc_apply);

/* ---- validated module parameters -------------------------------------- */

static int dcc_param_set_range(const char *val, const struct kernel_param *kp)
{
	const struct dcc_param_range *r = kp->arg;
	u32 v;

	if (kstrtou32(val, 0, &v) || v < r->min || v > r->max)
		return -EINVAL;
	WRITE_ONCE(*r->val, v);
	return 0;
}

static int dcc_param_get_range(char *buf, const struct kernel_param *kp)
{
	const struct dcc_param_range *r = kp->arg;

	return sysfs_emit(buf, "%u\n", READ_ONCE(*r->val));
}

const struct kernel_param_ops dcc_param_ops_range = {
	.set = dcc_param_set_range,
	.get = dcc_param_get_range,
};
EXPORT_SYMBOL_GPL(dcc_param_ops_range);

static int __init dcc_lib_init(void)
{
	/* the BLS sums must stay within one cache line of per-flow state */
	BUILD_BUG_ON(sizeof(struct dcc_bls) != 64);
	return 0;
}

static void __exit dcc_lib_exit(void)
{
}

module_init(dcc_lib_init);
module_exit(dcc_lib_exit);

MODULE_AUTHOR("dcc developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("dcc shared helpers: BLS gradient estimator, medians, fixed point, pacing");
