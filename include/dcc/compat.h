/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel compatibility shims for dcc, in one place.
 *
 * Supported: Linux 6.1 (Debian 12) up to current mainline.  The only
 * ABI break the algorithms see is the cong_control() signature, which
 * gained (ack, flag) in 6.10 (commit 57bfc7605ca5).  Modules define
 *
 *	static void oscar_cong_control(DCC_CONG_CONTROL_ARGS(sk, rs))
 *
 * and use sk/rs as usual.
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

#endif /* _DCC_COMPAT_H */
