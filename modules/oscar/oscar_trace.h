/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoint oscar:oscar_batch, one event per closed batch (= per control
 * decision, about every tau = RTT_base/2).  tools/bpftrace/oscar.bt prints
 * it live.  Units: us, bytes, bytes/s; g in Q16; u, u_w, u_r in Q20.
 * delay_us is the batch's mean delay, which the core keeps in ns, divided
 * by 1000 and rounded down (the field kept its unit).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM oscar

#if !defined(_OSCAR_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _OSCAR_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(oscar_batch,
	TP_PROTO(const struct sock *sk, u32 delay_us, s32 grad_q16,
		 u64 infl_bytes, u64 rate_bytes_ps, u32 samples, u32 u_w, u32 u_r,
		 u32 u, u8 branch, u32 cwnd, u64 pacing_bytes_ps),
	TP_ARGS(sk, delay_us, grad_q16, infl_bytes, rate_bytes_ps, samples, u_w,
		u_r, u, branch, cwnd, pacing_bytes_ps),
	TP_STRUCT__entry(
		__field(const void *, sk)
		__field(u16, sport)
		__field(u16, dport)
		__field(u32, delay_us)
		__field(s32, grad_q16)
		__field(u64, infl_bytes)
		__field(u64, rate_bytes_ps)
		__field(u32, samples)
		__field(u32, u_w)
		__field(u32, u_r)
		__field(u32, u)
		__field(u8, branch)
		__field(u32, cwnd)
		__field(u64, pacing_bytes_ps)
	),
	TP_fast_assign(
		__entry->sk = sk;
		__entry->sport = inet_sk(sk)->inet_num;
		__entry->dport = ntohs(inet_sk(sk)->inet_dport);
		__entry->delay_us = delay_us;
		__entry->grad_q16 = grad_q16;
		__entry->infl_bytes = infl_bytes;
		__entry->rate_bytes_ps = rate_bytes_ps;
		__entry->samples = samples;
		__entry->u_w = u_w;
		__entry->u_r = u_r;
		__entry->u = u;
		__entry->branch = branch;
		__entry->cwnd = cwnd;
		__entry->pacing_bytes_ps = pacing_bytes_ps;
	),
	TP_printk("sport=%u dport=%u delay_us=%u g_q16=%d infl=%llu rate=%llu n=%u u_w=%u u_r=%u u=%u branch=%u cwnd=%u pacing=%llu",
		  __entry->sport, __entry->dport, __entry->delay_us,
		  __entry->grad_q16, __entry->infl_bytes, __entry->rate_bytes_ps,
		  __entry->samples, __entry->u_w, __entry->u_r, __entry->u,
		  __entry->branch, __entry->cwnd, __entry->pacing_bytes_ps)
);

#endif /* _OSCAR_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE oscar_trace
#include <trace/define_trace.h>
