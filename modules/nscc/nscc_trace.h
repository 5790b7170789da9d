/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoint nscc:nscc_ack: one event per control decision of tcp_nscc
 * (NSCC and MNSCC): every ACK that applied credit (fulfill), cut (MD),
 * reported a loss, reset (QA), was ignored after a QA, or landed in the
 * steer-only quadrant.
 * Proportional/fair increase ACKs only accumulate credit and are reported
 * by the fulfill that applies it.  tools/bpftrace/nscc.bt prints it live.
 * Units: us (the law's ns values / 1000, rounded down: delay_us, raw_us,
 * avg_us, target_us, and base_us: the base RTT raw_us is measured from),
 * bytes (cwnd, and prev_cwnd: the law's cwnd before this ACK, so each
 * event shows its own change), packets (snd_cwnd), bytes/s (pacing);
 * quadrant = enum nscc_quadrant (include/dcc/nscc.h);
 * flags: NSCC_TF_* below (the bpf tracepoint ABI allows 12 arguments:
 * all taken).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM nscc

#if !defined(_NSCC_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _NSCC_TRACE_H

#include <linux/tracepoint.h>

#define NSCC_TF_MARK	0x01	/* CE echo, or a delay-derived mark */
#define NSCC_TF_CE	0x02	/* CE echo on this ACK */
#define NSCC_TF_MD	0x04	/* multiplicative decrease applied */
#define NSCC_TF_QA	0x08	/* quick adapt fired */
#define NSCC_TF_FULFILL	0x10	/* increase credit applied */
#define NSCC_TF_MNSCC	0x20	/* the socket runs mnscc */
#define NSCC_TF_LOSS	0x40	/* the ACK reported losses: cwnd lost their
				 * bytes before the quadrant (shown unless QA
				 * fired) acted
				 */

TRACE_EVENT(nscc_ack,
	TP_PROTO(const struct sock *sk, u8 flags, u8 quadrant, u32 delay_us,
		 u32 raw_us, u32 avg_us, u32 target_us, u32 base_us,
		 u32 prev_cwnd, u32 cwnd, u32 snd_cwnd, u64 pacing_bytes_ps),
	TP_ARGS(sk, flags, quadrant, delay_us, raw_us, avg_us, target_us,
		base_us, prev_cwnd, cwnd, snd_cwnd, pacing_bytes_ps),
	TP_STRUCT__entry(
		__field(const void *, sk)
		__field(u16, sport)
		__field(u16, dport)
		__field(u8, flags)
		__field(u8, quadrant)
		__field(u32, delay_us)
		__field(u32, raw_us)
		__field(u32, avg_us)
		__field(u32, target_us)
		__field(u32, base_us)
		__field(u32, prev_cwnd)
		__field(u32, cwnd)
		__field(u32, snd_cwnd)
		__field(u64, pacing_bytes_ps)
	),
	TP_fast_assign(
		__entry->sk = sk;
		__entry->sport = inet_sk(sk)->inet_num;
		__entry->dport = ntohs(inet_sk(sk)->inet_dport);
		__entry->flags = flags;
		__entry->quadrant = quadrant;
		__entry->delay_us = delay_us;
		__entry->raw_us = raw_us;
		__entry->avg_us = avg_us;
		__entry->target_us = target_us;
		__entry->base_us = base_us;
		__entry->prev_cwnd = prev_cwnd;
		__entry->cwnd = cwnd;
		__entry->snd_cwnd = snd_cwnd;
		__entry->pacing_bytes_ps = pacing_bytes_ps;
	),
	TP_printk("sport=%u dport=%u flags=0x%x quadrant=%u delay_us=%u raw_us=%u avg_us=%u target_us=%u base_us=%u prev_cwnd=%u cwnd=%u snd_cwnd=%u pacing=%llu",
		  __entry->sport, __entry->dport, __entry->flags,
		  __entry->quadrant, __entry->delay_us, __entry->raw_us,
		  __entry->avg_us, __entry->target_us, __entry->base_us,
		  __entry->prev_cwnd,
		  __entry->cwnd,
		  __entry->snd_cwnd, __entry->pacing_bytes_ps)
);

#endif /* _NSCC_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE nscc_trace
#include <trace/define_trace.h>
