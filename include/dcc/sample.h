/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-ACK sample every dcc control core takes, and the decision it
 * returns: plain C, shared by the kernel glue (dcc_sample_get() fills it
 * from a rate_sample), the userspace unit tests, the fuzzers, the
 * callgrind bench and any simulator adapter.  Nothing here needs a kernel.
 *
 * Time is nanoseconds on one clock, the one the core's caller runs on:
 * in the kernel the stack's tcp clock (tp->tcp_clock_cache, ktime_get_ns
 * based), corrected for the receiving host's own delay when an RX
 * timestamp is available (rx_src); in a model, the model's clock.  At a
 * 1 us datacenter RTT a microsecond clock would quantise every delay
 * sample by up to 100%; nanoseconds leave sub-percent quantisation down
 * to 100 ns RTTs.
 *
 * Ranges: rtt_ns and host_ns are u32 (< 4.29 s); dcc_sample_get() clamps
 * rtt_ns to DCC_SAMPLE_RTT_MAX_NS (1 s, above any path dcc is for).
 * rx_ns/tx_ns are u64 (585 years).  A core that keeps 32-bit timestamps
 * must compare them wrap-safe ((u32)(a - b)): 2^32 ns is 4.29 s.
 *
 * rx_ns is NOT monotonic per socket.  The RX-timestamp correction takes
 * each ACK's own host delay out, so an ACK whose stamp was refused (stack
 * clock) can be followed by one whose accepted stamp is earlier: rx_ns
 * may step back by up to rx_host_max_us (dcc_lib; 1 ms by default), and
 * a model's receive-time noise makes it step back too.  Ages and
 * intervals measured on rx_ns must read such a step as 0, never as a
 * wrapped 4.29 s or 585 years: dcc_rx_age32() / dcc_rx_age() do.  tx_ns
 * is the sender's own clock and only moves forward.
 */
#ifndef _DCC_SAMPLE_H
#define _DCC_SAMPLE_H

#include "fixp.h"

#define DCC_SAMPLE_RTT_MAX_NS 1000000000U	/* 1 s */

/* Why an ACK carries no RTT sample (bits of dcc_sample.why). */
enum dcc_sample_reject {
	DCC_SAMPLE_NO_RTT = 1 << 0,	/* nothing newly acked with a usable
					 * send time (Karn)
					 */
	DCC_SAMPLE_RETRANS = 1 << 1,	/* sampled packet was retransmitted */
	DCC_SAMPLE_DELAYED = 1 << 2,	/* receiver's delayed-ACK timer
					 * likely inflated the RTT
					 */
	DCC_SAMPLE_NO_ACKED = 1 << 3,	/* pure dupack: nothing newly acked */
};

/* Policy flags for dcc_sample_get(). */
#define DCC_SAMPLE_KEEP_DELAYED 1	/* keep rs->is_ack_delayed samples */

/* Where rx_ns came from (dcc_sample.rx_src). */
enum dcc_rx_src {
	DCC_RX_STACK = 0,	/* the stack's clock when TCP processed the ACK */
	DCC_RX_SW = 1,		/* the kernel's software receive stamp */
	DCC_RX_HW = 2,		/* the NIC's hardware receive stamp */
};

/*
 * One ACK, as the control cores want it.
 *
 * rx_ns - tx_ns = rtt_ns when the sample is valid (why == 0); rx_ns is
 * set on every ACK (it is the core's "now").  host_ns is what the RX
 * timestamp removed: the time between the stamp and TCP's processing of
 * the ACK (interrupt coalescing, softirq and backlog time), which a
 * delay-based law would otherwise read as queueing.
 */
struct dcc_sample {
	u64 rx_ns;		/* when the ACK reached the host */
	u64 tx_ns;		/* send time of the newest packet it covers */
	u32 rtt_ns;		/* rx_ns - tx_ns, <= DCC_SAMPLE_RTT_MAX_NS */
	u32 host_ns;		/* receive-path delay removed (0: rx_src STACK) */
	u32 acked;		/* packets newly (S)ACKed (>= 1 if valid) */
	u32 acked_bytes;	/* acked * mss */
	u32 mss;		/* bytes per packet (>= 1) */
	u32 infl_pkts;		/* packets delivered while the sampled packet
				 * was in flight: the inflight it saw when
				 * sent, exact when the flow is window-bound
				 * and loss-free
				 */
	u32 ce;			/* packets delivered CE-marked on this ACK (the
				 * model's meaning, and what a core gets);
				 * dcc_sample_get() can only fill the rate
				 * sample's count, rs->delivered_ce, which
				 * spans the sampled packet's whole flight: a
				 * glue whose core reads ce replaces it with
				 * the per-ACK change of tp->delivered_ce
				 * (tcp_nscc.c)
				 */
	u32 losses;		/* packets marked lost on this ACK */
	u32 why;		/* 0 if valid, else DCC_SAMPLE_* reject bits */
	u8 rx_src;		/* enum dcc_rx_src */
	bool app_limited;	/* sampled packet left with a bubble in the pipe */
	bool first_window;	/* sampled packet left before the connection's
				 * first ACK: its infl_pkts is a point on the
				 * initial window's ramp (0 -> cwnd), not a
				 * steady inflight
				 */
	bool delayed;		/* the stack thinks the receiver delayed this
				 * ACK (kept with DCC_SAMPLE_KEEP_DELAYED)
				 */
};

/*
 * What a core asks of its glue after an ACK: pace at rate_bytes_ps and
 * cap the window at cwnd_bytes (the glue turns bytes into packets and
 * applies the kernel's own clamps).  flags are the core's own
 * (e.g. "a batch closed: refresh the shared inputs").
 *
 * changed: the decision may differ from the last one, and rate_bytes_ps
 * and cwnd_bytes hold it: the glue applies it.  false: nothing the core
 * decides has moved since its last decision, which stands (the socket's
 * sk_pacing_rate and snd_cwnd still hold it), and rate_bytes_ps and
 * cwnd_bytes are not set.  Most ACKs only feed an estimator (a batch, a
 * completion window, a median), so most decisions do not change: a core
 * computes and a glue applies one only when it does, which keeps the
 * divisions of turning a rate into a window and a window into packets
 * off the common path.  A core that is asked for its decision at any time
 * (the loss bound holds the window while the stack recovers, dcc.h) also
 * has a *_decide() that always fills it.
 */
struct dcc_decision {
	u64 rate_bytes_ps;
	u64 cwnd_bytes;
	u32 flags;
	bool changed;
};

/*
 * The largest backwards step of rx_ns read as "no time passed" by the age
 * helpers below: 2^28 ns = 268 ms, above rx_host_max_us' default (1 ms)
 * and any model noise; a 32-bit age is then exact up to 4.29 s - 268 ms.
 */
#define DCC_RX_BACK_MAX_NS (1U << 28)

/* ns from @stamp (low 32 bits of an earlier rx_ns) to @now; 0 if @now is behind */
static inline u32 dcc_rx_age32(u64 now, u32 stamp)
{
	u32 age = (u32)now - stamp;

	return age > U32_MAX - DCC_RX_BACK_MAX_NS ? 0 : age;
}

/* ns from @then to @now (u64 rx_ns values); 0 if @now is behind */
static inline u64 dcc_rx_age(u64 now, u64 then)
{
	return now > then ? now - then : 0;
}

/* ns <-> us for the cores that keep a us parameter (u32 us -> u64 ns). */
static inline u64 dcc_us_to_ns(u32 us)
{
	return (u64)us * 1000;
}

/* ns -> us, rounded down, saturating at U32_MAX */
static inline u32 dcc_ns_to_us(u64 ns)
{
	u64 us = ns / 1000;

	return us > U32_MAX ? U32_MAX : (u32)us;
}

/*
 * A sample's RTT in whole microseconds, at least 1: what the stack's own
 * RTT estimators (tcp_min_rtt(), srtt) hold, for a trace field or a model
 * of them.  The sample has no microsecond fields: every core works in ns.
 */
static inline u32 dcc_sample_rtt_us(const struct dcc_sample *s)
{
	return s->rtt_ns >= 1000 ? s->rtt_ns / 1000 : 1;
}

#endif /* _DCC_SAMPLE_H */
