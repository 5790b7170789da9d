/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoint swift:swift_decision, one event per control decision of
 * swift / lswift / mswift: every ACK that carries a delay sample (AI, MD or
 * hold), every SACK-detected loss event (fast-recovery cut or hold) and
 * every RTO.  tools/bpftrace/swift.bt prints it live.
 * Units: us; cwnd_q16 in Q16 packets (65536 = one packet); pacing in
 * bytes/s; action is enum swift_action (include/dcc/swift.h); variant
 * 0 swift, 1 lswift, 2 mswift.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM swift

#if !defined(_SWIFT_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SWIFT_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(swift_decision,
	TP_PROTO(const struct sock *sk, u8 variant, u8 action, u32 raw_us,
		 u32 delay_us, u32 target_us, u16 h, u64 cwnd_q16, u32 cwnd,
		 u64 pacing_bytes_ps),
	TP_ARGS(sk, variant, action, raw_us, delay_us, target_us, h, cwnd_q16,
		cwnd, pacing_bytes_ps),
	TP_STRUCT__entry(
		__field(const void *, sk)
		__field(u16, sport)
		__field(u16, dport)
		__field(u8, variant)
		__field(u8, action)
		__field(u16, h)
		__field(u32, raw_us)
		__field(u32, delay_us)
		__field(u32, target_us)
		__field(u64, cwnd_q16)
		__field(u32, cwnd)
		__field(u64, pacing_bytes_ps)
	),
	TP_fast_assign(
		__entry->sk = sk;
		__entry->sport = inet_sk(sk)->inet_num;
		__entry->dport = ntohs(inet_sk(sk)->inet_dport);
		__entry->variant = variant;
		__entry->action = action;
		__entry->h = h;
		__entry->raw_us = raw_us;
		__entry->delay_us = delay_us;
		__entry->target_us = target_us;
		__entry->cwnd_q16 = cwnd_q16;
		__entry->cwnd = cwnd;
		__entry->pacing_bytes_ps = pacing_bytes_ps;
	),
	TP_printk("sport=%u dport=%u variant=%u action=%u raw_us=%u delay_us=%u target_us=%u h=%u cwnd_q16=%llu cwnd=%u pacing=%llu",
		  __entry->sport, __entry->dport, __entry->variant,
		  __entry->action, __entry->raw_us, __entry->delay_us,
		  __entry->target_us, __entry->h, __entry->cwnd_q16,
		  __entry->cwnd, __entry->pacing_bytes_ps)
);

#endif /* _SWIFT_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE swift_trace
#include <trace/define_trace.h>
