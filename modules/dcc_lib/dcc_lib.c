// SPDX-License-Identifier: GPL-2.0
/*
 * dcc_lib: shared helper module for the dcc congestion-control modules.
 *
 * It holds what more than one algorithm needs, so nothing is copied
 * between algorithm modules: the batched least-squares gradient estimator
 * (bls.c), sliding-window medians (median.c), fixed-point helpers (fixp.c),
 * and, in this file, the kernel glue: turning a rate_sample into a clean
 * per-ACK sample, applying a rate and a cwnd cap, and validated module
 * parameters.  The API is documented in include/dcc/dcc.h.
 *
 * Nothing here sleeps or allocates: every function may run in softirq.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <net/tcp.h>
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
