// SPDX-License-Identifier: GPL-2.0
/*
 * Precise (per-packet) ECN echo on the receiver; see include/dcc/ecn_echo.h.
 * Softirq context, never sleeps.
 */
#include <linux/module.h>
#include <net/tcp.h>
#include "dcc/compat.h"
#include "dcc/ecn_echo.h"

/* ECE on our next ACKs iff @ce: TCP_ECN_DEMAND_CWR is what tcp_ecn_send()
 * turns into the ECE bit of an outgoing ACK.
 */
static void dcc_ecn_echo_set(struct tcp_sock *tp, bool ce)
{
	if (ce)
		tp->ecn_flags |= TCP_ECN_DEMAND_CWR;
	else
		tp->ecn_flags &= ~TCP_ECN_DEMAND_CWR;
}

bool dcc_ecn_echo(struct sock *sk, enum tcp_ca_event ev, u32 *prior_rcv_nxt,
		  bool ce)
{
	struct inet_connection_sock *icsk = inet_csk(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	bool now_ce;

	if (ev != CA_EVENT_ECN_IS_CE && ev != CA_EVENT_ECN_NO_CE)
		return ce;
	now_ce = ev == CA_EVENT_ECN_IS_CE;
	if (now_ce != ce) {
		/*
		 * The run of CE (or non-CE) segments ended.  If a delayed ACK
		 * is pending it covers only the old run: send it now, for
		 * the old receive point, echoing the old state.
		 */
		if (icsk->icsk_ack.pending & ICSK_ACK_TIMER) {
			dcc_ecn_echo_set(tp, ce);
			dcc_tcp_send_ack(sk, *prior_rcv_nxt);
		}
		/* and acknowledge the new run's first segment at once */
		icsk->icsk_ack.pending |= ICSK_ACK_NOW;
	}
	*prior_rcv_nxt = tp->rcv_nxt;
	dcc_ecn_echo_set(tp, now_ce);
	return now_ce;
}
EXPORT_SYMBOL_GPL(dcc_ecn_echo);
