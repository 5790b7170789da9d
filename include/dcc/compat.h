/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel compatibility shims for dcc, in one place.
 *
 * Supported: Linux 6.1 (Debian 12) up to current mainline; CI builds and
 * runs the modules on every Debian 12 cloud kernel series installed (6.1
 * and 6.12).  The API differences the modules see:
 *
 *  - cong_control() gained (ack, flag) in 6.10 (commit 57bfc7605ca5).
 *    Modules define
 *
 *	static void oscar_cong_control(DCC_CONG_CONTROL_ARGS(sk, rs))
 *
 *    and use sk/rs as usual.
 *  - skb->mono_delivery_time became skb->tstamp_type in 6.11
 *    (dcc_skb_tstamp_is_real(), for the RX-timestamp probe).
 *  - __tcp_send_ack() gained a third argument, the extra TCP header flags
 *    of the ACK (the Accurate ECN preparation).  It reached 6.12 through a
 *    stable update (Debian's 6.12 has it, 6.12.0 has not), so no version
 *    number tells: dcc_tcp_send_ack() below picks the call by the
 *    function's own type.
 */
#ifndef _DCC_COMPAT_H
#define _DCC_COMPAT_H

#include <linux/version.h>
#include <net/tcp.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define DCC_CONG_CONTROL_ARGS(sk, rs) \
	struct sock *sk, u32 dcc_ack __maybe_unused, \
	int dcc_flag __maybe_unused, const struct rate_sample *rs
#else
#define DCC_CONG_CONTROL_ARGS(sk, rs) \
	struct sock *sk, const struct rate_sample *rs
#endif

/* tcp_snd_cwnd()/tcp_snd_cwnd_set() arrived in 5.19; 6.1 has them. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 19, 0)
#error "dcc needs Linux >= 5.19 (6.1 is the oldest tested)"
#endif

/*
 * dcc_tcp_send_ack(sk, rcv_nxt): __tcp_send_ack() with no extra header
 * flags, whichever of its two prototypes the kernel has: the function's
 * type selects (__builtin_choose_expr, at compile time) the wrapper whose
 * parameter has exactly that type; the other one is never called, so
 * neither needs a cast.
 */
typedef void (*dcc_send_ack2_fn)(struct sock *sk, u32 rcv_nxt);
typedef void (*dcc_send_ack3_fn)(struct sock *sk, u32 rcv_nxt, u16 flags);

static inline void dcc_send_ack2(dcc_send_ack2_fn fn, struct sock *sk,
				 u32 rcv_nxt)
{
	fn(sk, rcv_nxt);
}

static inline void dcc_send_ack3(dcc_send_ack3_fn fn, struct sock *sk,
				 u32 rcv_nxt)
{
	fn(sk, rcv_nxt, 0);
}

#define dcc_tcp_send_ack(sk, rcv_nxt)					\
	(__builtin_choose_expr(__same_type(&__tcp_send_ack, dcc_send_ack3_fn), \
			       dcc_send_ack3, dcc_send_ack2)		\
		(&__tcp_send_ack, (sk), (rcv_nxt)))

/*
 * skb->tstamp holds a CLOCK_REALTIME receive stamp, not a sender's
 * monotonic delivery time (EDT) carried across a veth or loopback: 6.11
 * replaced the mono_delivery_time bit by tstamp_type.
 */
static inline bool dcc_skb_tstamp_is_real(const struct sk_buff *skb)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
	return skb->tstamp_type == SKB_CLOCK_REALTIME;
#else
	return !skb->mono_delivery_time;
#endif
}

#endif /* _DCC_COMPAT_H */
