// SPDX-License-Identifier: GPL-2.0
/*
 * The per-ACK sample every dcc core takes (include/dcc/sample.h), from the
 * stack's rate sample and the RX-timestamp record the probe left for this
 * ACK (rx_probe.c, include/dcc/rxts.h).
 *
 * This runs on every ACK of every dcc socket, so it is one function with
 * everything it needs inlined: no call on the common path (a call and its
 * return thunk cost more than most of what is done here), no division, no
 * clock read.  The stamp's clock is read through the stack's own reading
 * for this ACK: tcp_mstamp_refresh() read CLOCK_MONOTONIC into
 * tcp_clock_cache right after the probe, and CLOCK_REALTIME (or TAI) is
 * that plus an offset which changes only when the clock is set
 * (settimeofday, an NTP step, a leap second), never while it is slewed.
 * The offset is cached per CPU and read again once per jiffy
 * (ktime_mono_to_any()), so a clock that is set is followed within a jiffy
 * (4 ms at HZ = 250); in that jiffy a step of more than rx_host_max_us
 * makes the stamps look older than the bound or in the future, and they
 * are refused (rx_rejects); a smaller one shifts those few samples by the
 * step.
 */
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/win_minmax.h>
#include <net/tcp.h>
#include "dcc/dcc.h"
#include "rx_probe.h"

/* ---- clock offsets ------------------------------------------------------ */

struct dcc_rx_offs {
	unsigned long jif;	/* jiffies when read */
	s64 real;		/* CLOCK_REALTIME - CLOCK_MONOTONIC, ns */
	s64 tai;		/* CLOCK_TAI - CLOCK_MONOTONIC, ns */
	bool ok;		/* read at least once */
};
static DEFINE_PER_CPU(struct dcc_rx_offs, dcc_rx_offs);

/*
 * Offset from the stack's clock to CLOCK_REALTIME (@tai: CLOCK_TAI).  A
 * preempted backlog run may read another CPU's cache: an offset at most a
 * jiffy old, as its own.
 */
static __always_inline s64 dcc_rx_offset(bool tai)
{
	struct dcc_rx_offs *o = raw_cpu_ptr(&dcc_rx_offs);
	unsigned long j = READ_ONCE(jiffies);

	if (unlikely(!READ_ONCE(o->ok) || READ_ONCE(o->jif) != j)) {
		WRITE_ONCE(o->real, ktime_to_ns(ktime_mono_to_any(0, TK_OFFS_REAL)));
		WRITE_ONCE(o->tai, ktime_to_ns(ktime_mono_to_any(0, TK_OFFS_TAI)));
		WRITE_ONCE(o->jif, j);
		WRITE_ONCE(o->ok, true);
	}
	return tai ? READ_ONCE(o->tai) : READ_ONCE(o->real);
}

/* ---- the RX correction ---------------------------------------------------- */

#define DCC_RX_REFUSED U64_MAX

/*
 * The host delay of the stamp in word @w of the record of @ack_seq, read
 * on a clock that showed @now when the stack took the ACK: DCC_RX_REFUSED
 * unless the word is this ACK's and the rxts.h rules accept its age for
 * this sample.
 */
static __always_inline u64 dcc_rx_host(u64 w, u32 ack_seq, u64 now,
				       const struct dcc_sample *s,
				       bool has_rtt, u64 max_ns)
{
	u64 host = dcc_rxts_age(w, ack_seq, now);

	if (host == DCC_RXTS_NO_AGE ||
	    dcc_rxts_accept(host, has_rtt, s->rtt_ns, max_ns) != DCC_RXTS_OK)
		return DCC_RX_REFUSED;
	return host;
}

/*
 * The probe's nanosecond send time, if it is the one the stack timed (its
 * microseconds equal tcp_mstamp - rs->rtt_us): then the RTT is
 * tcp_clock_cache - tx in ns (the word's age), instead of rtt_us * 1000.
 */
static __always_inline void dcc_rx_exact_tx(const struct tcp_sock *tp,
					    const struct rate_sample *rs,
					    struct dcc_sample *s, u64 w)
{
	u64 now = tp->tcp_clock_cache;
	u64 rtt = dcc_rxts_age(w, tp->snd_una, now);
	/* the stack's send time in us, as ns: tx must lie in [us0, us0 + 1000) */
	u64 us0 = (tp->tcp_mstamp - (u64)rs->rtt_us) * NSEC_PER_USEC;

	/* a wrong tx lands outside, modulo 2^64 too */
	if (rtt == DCC_RXTS_NO_AGE || now - rtt - us0 >= NSEC_PER_USEC)
		return;
	s->rtt_ns = (u32)min_t(u64, rtt, DCC_SAMPLE_RTT_MAX_NS);
	s->tx_ns = s->rx_ns - s->rtt_ns;
	dcc_rx_count(DCC_RXC_TX_NS);
}

/*
 * A corrected RTT below the socket's minimum becomes the minimum, so
 * tcp_min_rtt(), ss -ti's minrtt, dcc_base_rtt_us() and the shared
 * per-destination table follow corrected samples.  A new minimum resets
 * the windowed filter in minmax_running_min() too (not exported), so
 * minmax_reset() is what the stack itself would do with this value.  The
 * stack keeps feeding its own (uncorrected, larger) samples, which never
 * lower the minimum below ours.  cong_control owns the socket: the cast
 * drops the const of dcc_sample_get()'s interface only.
 */
static __always_inline void dcc_rx_lower_min_rtt(const struct sock *sk,
						 u32 rtt_ns)
{
	struct tcp_sock *tp = tcp_sk((struct sock *)sk);
	u32 rtt_us = max_t(u32, rtt_ns / NSEC_PER_USEC, 1);

	if (unlikely(rtt_us < tcp_min_rtt(tp)))
		minmax_reset(&tp->rtt_min, tcp_jiffies32, rtt_us);
}

/*
 * Move @s's receive time (and, when @has_rtt, its RTT) to the ACK's RX
 * timestamp, if the probe left an acceptable one (the hardware stamp,
 * unless rx_timestamps=sw, else the software stamp, unless =hw), and its
 * send time to the nanosecond stamp of the skb the stack timed; count the
 * sample's source.  The host delay is measured to when the stack read its
 * clock for this ACK, so rx_ns - host_ns is the stamp itself, on the
 * stack's clock.
 */
static __always_inline void dcc_rx_correct(const struct sock *sk,
					   const struct rate_sample *rs,
					   struct dcc_sample *s, int mode,
					   bool has_rtt)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	u64 max_ns = (u64)READ_ONCE(dcc_rx_host_max_us) * NSEC_PER_USEC;
	u64 now = tp->tcp_clock_cache, host = DCC_RX_REFUSED, w;
	u32 ack = tp->snd_una, h = dcc_rx_hash(sk);
	const struct dcc_rx_slot *slot = dcc_rx_slot_of(h);
	bool stamped = false;

	if (atomic64_read(&slot->key) != dcc_rxts_key(ack, h >> DCC_RX_SLOT_BITS)) {
		dcc_rx_count(DCC_RXC_NO_RECORD);
		dcc_rx_count(DCC_RXC_STACK);
		return;
	}
	if (has_rtt)
		dcc_rx_exact_tx(tp, rs, s, atomic64_read(&slot->tx));
	w = atomic64_read(&slot->hw);
	if (mode != DCC_RX_MODE_SW && w) {
		stamped = true;
		host = dcc_rx_host(w, ack, now + dcc_rx_offset(!READ_ONCE(dcc_rx_hw_real)),
				   s, has_rtt, max_ns);
		if (host != DCC_RX_REFUSED)
			s->rx_src = DCC_RX_HW;
	}
	w = atomic64_read(&slot->sw);
	if (host == DCC_RX_REFUSED && mode != DCC_RX_MODE_HW && w) {
		stamped = true;
		host = dcc_rx_host(w, ack, now + dcc_rx_offset(false), s, has_rtt,
				   max_ns);
		if (host != DCC_RX_REFUSED)
			s->rx_src = DCC_RX_SW;
	}
	if (host == DCC_RX_REFUSED) {
		if (stamped)
			dcc_rx_count(DCC_RXC_REJECTS);
		dcc_rx_count(DCC_RXC_STACK);
		return;
	}

	/* host <= max_ns <= 1 s: fits the sample's u32 */
	s->host_ns = (u32)host;
	s->rx_ns -= host;
	if (has_rtt) {
		/* host < rtt_ns: the RTT stays positive; tx_ns is unchanged */
		s->rtt_ns -= (u32)host;
		dcc_rx_lower_min_rtt(sk, s->rtt_ns);
	}
	dcc_rx_count(s->rx_src == DCC_RX_HW ? DCC_RXC_HW : DCC_RXC_SW);
}

/* ---- the sample ------------------------------------------------------------ */

bool dcc_sample_get(const struct sock *sk, const struct rate_sample *rs,
		    struct dcc_sample *s, u32 policy)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	u32 mss = max_t(u32, tp->mss_cache, 1);
	int mode = READ_ONCE(dcc_rx_active);
	u32 why = 0;

	if (rs->rtt_us < 0)
		why |= DCC_SAMPLE_NO_RTT;
	if (rs->is_retrans)
		why |= DCC_SAMPLE_RETRANS;
	if (rs->is_ack_delayed && !(policy & DCC_SAMPLE_KEEP_DELAYED))
		why |= DCC_SAMPLE_DELAYED;
	if (!rs->acked_sacked)
		why |= DCC_SAMPLE_NO_ACKED;
	*s = (struct dcc_sample){
		/*
		 * The RX time source: the stack's clock when TCP processed
		 * the ACK (tcp_clock_cache, ns; tcp_mstamp is it in us).
		 */
		.rx_ns = tp->tcp_clock_cache,
		.rx_src = DCC_RX_STACK,
		.acked = rs->acked_sacked,
		.acked_bytes = rs->acked_sacked * mss,
		.mss = mss,
		.ce = max_t(s32, rs->delivered_ce, 0),
		.losses = max_t(int, rs->losses, 0),
		.why = why,
		.app_limited = rs->is_app_limited,
		.delayed = rs->is_ack_delayed,
		/*
		 * tp->delivered is 1 once the handshake is done (the SYN or
		 * SYN-ACK counts) and grows with the first data ACK, so a
		 * packet that left with tx.delivered <= 1 was sent before
		 * any data was acknowledged.
		 */
		.first_window = rs->prior_delivered <= 1,
	};
	if (!why) {
		/*
		 * rs->rtt_us is tcp_mstamp minus the send stamp (in us) of the
		 * newest skb this ACK (S)ACKed.  1 s bounds anything a
		 * datacenter path produces; a larger value is a stall and is
		 * clamped rather than let through unbounded.
		 */
		s->rtt_ns = (u32)min_t(long, rs->rtt_us, USEC_PER_SEC) * NSEC_PER_USEC;
		s->tx_ns = s->rx_ns - s->rtt_ns;
		/*
		 * rs->delivered = tp->delivered now minus when the sampled skb
		 * was sent: what the network delivered while it was in flight.
		 */
		s->infl_pkts = rs->delivered > 0 ? rs->delivered : rs->prior_in_flight;
	}
	/*
	 * The receive time and RTT exclude the receiving host's own delay
	 * when the ACK carries an acceptable RX stamp, and the send time is
	 * the skb's nanosecond stamp when the probe found it; rx_ns moves to
	 * the stamp even on an ACK without an RTT sample.
	 */
	if (mode != DCC_RX_MODE_OFF)
		dcc_rx_correct(sk, rs, s, mode, !why);
	return !why;
}
EXPORT_SYMBOL_GPL(dcc_sample_get);
