/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Receiver side of per-packet ("precise") ECN echo, as DCTCP needs it
 * (RFC 8257 3.2), for any dcc module whose sender reads one CE bit per ACK.
 *
 * Classic RFC 3168 echo sets ECE on every ACK from the first CE mark until
 * the sender's CWR arrives, so a sender counting marked ACKs sees about one
 * round trip of marks per mark.  Here the receiver echoes the CE state of
 * what it acknowledges: ECE on an ACK iff the segments it covers were CE.
 * Whenever the state flips, an ACK still owed for segments of the old run
 * is sent at once with the old state, and the next ACK goes out without
 * delay, so no ACK ever mixes the two runs.
 *
 * The stack raises CA_EVENT_ECN_IS_CE / CA_EVENT_ECN_NO_CE for every
 * received ECT/CE data segment only when the socket's ops carry
 * TCP_CONG_NEEDS_ECN; the module calls dcc_ecn_echo() from cwnd_event and
 * keeps two words of state (the receive point of the last state change and
 * the current state).  Kernel only (needs the socket).
 */
#ifndef _DCC_ECN_ECHO_H
#define _DCC_ECN_ECHO_H

#include <net/tcp.h>

/* Start state of a socket: call from init (rcv_nxt is known by then). */
static inline void dcc_ecn_echo_init(const struct sock *sk, u32 *prior_rcv_nxt)
{
	*prior_rcv_nxt = tcp_sk(sk)->rcv_nxt;
}

/*
 * Feed one CA_EVENT_ECN_IS_CE / CA_EVENT_ECN_NO_CE; @ce is the current CE
 * state, the new one is returned.  Other events: state returned unchanged.
 */
bool dcc_ecn_echo(struct sock *sk, enum tcp_ca_event ev, u32 *prior_rcv_nxt,
		  bool ce);

#endif /* _DCC_ECN_ECHO_H */
