/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoint <alg>:rate_update, one event per completion event (= per rate
 * update), where <alg> is the module's algorithm name (timely, timely_p or
 * sqcc: TIMELY_TRACE_SYSTEM, set by tcp_timely.c per variant, so the three
 * modules can be loaded together).  tools/bpftrace/<alg>.bt prints it.
 * Units: us, bytes/s; g, w, err in Q16 (65536 = 1.0).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM TIMELY_TRACE_SYSTEM

#if !defined(_TIMELY_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TIMELY_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(rate_update,
	TP_PROTO(const struct sock *sk, u32 rtt_us, u32 d_us, s32 g_q16,
		 u32 w_q16, s64 err_q16, u32 t_low_us, u64 delta_bytes_ps, u32 n,
		 u64 rate_bytes_ps, u32 cwnd, u8 branch),
	TP_ARGS(sk, rtt_us, d_us, g_q16, w_q16, err_q16, t_low_us, delta_bytes_ps,
		n, rate_bytes_ps, cwnd, branch),
	TP_STRUCT__entry(
		__field(const void *, sk)
		__field(u16, sport)
		__field(u16, dport)
		__field(u32, rtt_us)
		__field(u32, d_us)
		__field(s32, g_q16)
		__field(u32, w_q16)
		__field(s64, err_q16)
		__field(u32, t_low_us)
		__field(u64, delta_bytes_ps)
		__field(u32, n)
		__field(u64, rate_bytes_ps)
		__field(u32, cwnd)
		__field(u8, branch)
	),
	TP_fast_assign(
		__entry->sk = sk;
		__entry->sport = inet_sk(sk)->inet_num;
		__entry->dport = ntohs(inet_sk(sk)->inet_dport);
		__entry->rtt_us = rtt_us;
		__entry->d_us = d_us;
		__entry->g_q16 = g_q16;
		__entry->w_q16 = w_q16;
		__entry->err_q16 = err_q16;
		__entry->t_low_us = t_low_us;
		__entry->delta_bytes_ps = delta_bytes_ps;
		__entry->n = n;
		__entry->rate_bytes_ps = rate_bytes_ps;
		__entry->cwnd = cwnd;
		__entry->branch = branch;
	),
	TP_printk("sport=%u dport=%u rtt_us=%u d_us=%u g_q16=%d w_q16=%u err_q16=%lld t_low_us=%u delta=%llu n=%u rate=%llu cwnd=%u branch=%u",
		  __entry->sport, __entry->dport, __entry->rtt_us,
		  __entry->d_us, __entry->g_q16, __entry->w_q16,
		  __entry->err_q16, __entry->t_low_us, __entry->delta_bytes_ps,
		  __entry->n, __entry->rate_bytes_ps, __entry->cwnd, __entry->branch)
);

#endif /* _TIMELY_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE timely_trace
#include <trace/define_trace.h>
