/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoint ccc:ccc_ack, one event per control decision (CCC decides on
 * every ACK that carries an RTT sample).  tools/bpftrace/ccc.bt prints the
 * trajectory in the (q, q_v) plane from it.  Units: us, bytes/s; q_v and
 * delta in Q16 (65536 = 1.0); rho in Q16; basis S as a share of R_l in
 * Q16 (RTT = q + RTT_min, see ss -ti); region is enum ccc_region (0 A^i, 1 A^d, 2 H_1^i, 3 H_2^i,
 * 4 H_1^d, 5 H_2^d); step is u(k) in bytes/s (negative: decrease).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ccc

#if !defined(_CCC_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _CCC_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(ccc_ack,
	TP_PROTO(const struct sock *sk, u32 q_us, s32 qv,
		 s32 delta, u8 region, u8 f, u32 rho, s64 step, u64 rate,
		 u32 basis, u8 n_ai, u32 cwnd),
	TP_ARGS(sk, q_us, qv, delta, region, f, rho, step, rate,
		basis, n_ai, cwnd),
	TP_STRUCT__entry(
		__field(const void *, sk)
		__field(u16, sport)
		__field(u16, dport)
		__field(u32, q_us)
		__field(s32, qv)
		__field(s32, delta)
		__field(u8, region)
		__field(u8, f)
		__field(u8, n_ai)
		__field(u32, rho)
		__field(s64, step)
		__field(u64, rate)
		__field(u32, basis)
		__field(u32, cwnd)
	),
	TP_fast_assign(
		__entry->sk = sk;
		__entry->sport = inet_sk(sk)->inet_num;
		__entry->dport = ntohs(inet_sk(sk)->inet_dport);
		__entry->q_us = q_us;
		__entry->qv = qv;
		__entry->delta = delta;
		__entry->region = region;
		__entry->f = f;
		__entry->n_ai = n_ai;
		__entry->rho = rho;
		__entry->step = step;
		__entry->rate = rate;
		__entry->basis = basis;
		__entry->cwnd = cwnd;
	),
	TP_printk("sport=%u dport=%u q_us=%u qv_q16=%d delta_q16=%d region=%u f=%u rho_q16=%u step=%lld rate=%llu basis_q16=%u n_ai=%u cwnd=%u",
		  __entry->sport, __entry->dport, __entry->q_us, __entry->qv,
		  __entry->delta, __entry->region,
		  __entry->f, __entry->rho, __entry->step, __entry->rate,
		  __entry->basis, __entry->n_ai, __entry->cwnd)
);

#endif /* _CCC_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ccc_trace
#include <trace/define_trace.h>
