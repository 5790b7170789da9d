/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-ACK sample every dcc core takes (include/dcc/sample.h), from the
 * stack's rate sample and the RX-timestamp record the probe left for this
 * ACK (rx_probe.c, include/dcc/rxts.h).
 *
 * Kernel only (include/dcc/dcc.h includes it).  This runs on every ACK of
 * every dcc socket, so dcc_sample_get() is inline, into each module's
 * cong_control, with everything it needs: no call on the common path (a
 * call, its frame and its return thunk cost more than most of what is
 * done here), no division, no clock read.  dcc_lib owns and exports the
 * record, the counters, the clock-offset cache and the parameters read
 * here; nothing outside dcc_lib and this header touches them.
 *
 * The stamp's clock is read through the stack's own reading for this
 * ACK: tcp_mstamp_refresh() read CLOCK_MONOTONIC into
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
#ifndef _DCC_RX_SAMPLE_H
#define _DCC_RX_SAMPLE_H

#include <linux/percpu.h>
#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/win_minmax.h>
#include <net/tcp.h>
#include "dcc/sample.h"
#include "dcc/rxts.h"

enum dcc_rx_mode {
	DCC_RX_MODE_OFF,
	DCC_RX_MODE_SW,
	DCC_RX_MODE_HW,
	DCC_RX_MODE_AUTO,
};

/*
 * rx_timestamps in force, rx_hw_clock (1: real), rx_host_max_us: written
 * under dcc_lib's mutex, read here with READ_ONCE.
 */
extern int dcc_rx_active;
extern int dcc_rx_hw_real;
extern u32 dcc_rx_host_max_us;

/* Samples per source and refusals (the rx_* counters). */
enum {
	DCC_RXC_HW,
	DCC_RXC_SW,
	DCC_RXC_STACK,
	DCC_RXC_REJECTS,
	DCC_RXC_NO_RECORD,
	DCC_RXC_TX_NS,
	DCC_RXC_N,
};

struct dcc_rx_counts {
	u64 c[DCC_RXC_N];
};
DECLARE_PER_CPU(struct dcc_rx_counts, dcc_rx_counts);

static inline void dcc_rx_count(int i)
{
	this_cpu_inc(dcc_rx_counts.c[i]);
}

/* One ACK's record (include/dcc/rxts.h has the words' layout). */
struct dcc_rx_slot {
	atomic64_t key;		/* ack_seq and the socket's tag */
	atomic64_t sw;		/* software stamp, CLOCK_REALTIME */
	atomic64_t hw;		/* hardware stamp, the NIC's clock */
	atomic64_t tx;		/* newest send time of the data acked */
};				/* 32 bytes: half a cache line */

#define DCC_RX_SLOT_BITS 6
#define DCC_RX_SLOT_MASK ((1U << DCC_RX_SLOT_BITS) - 1)

struct dcc_rx_slots {
	struct dcc_rx_slot s[1 << DCC_RX_SLOT_BITS];
};				/* 2 KB per CPU */
DECLARE_PER_CPU_ALIGNED(struct dcc_rx_slots, dcc_rx_slots);

/* low DCC_RX_SLOT_BITS: the slot; the DCC_RXTS_TAG_BITS above: the tag */
static inline u32 dcc_rx_hash(const struct sock *sk)
{
	return hash_ptr((void *)sk, DCC_RX_SLOT_BITS + DCC_RXTS_TAG_BITS);
}

/*
 * Slots are this CPU's (raw_cpu_ptr): a backlog run may be preempted and
 * migrate; the other CPU's slot then fails the match.
 */
static inline struct dcc_rx_slot *dcc_rx_slot_of(u32 h)
{
	return &raw_cpu_ptr(&dcc_rx_slots)->s[h & DCC_RX_SLOT_MASK];
}

/* ---- clock offsets ------------------------------------------------------ */

struct dcc_rx_offs {
	unsigned long jif;	/* jiffies when read */
	s64 real;		/* CLOCK_REALTIME - CLOCK_MONOTONIC, ns */
	s64 tai;		/* CLOCK_TAI - CLOCK_MONOTONIC, ns */
};
DECLARE_PER_CPU(struct dcc_rx_offs, dcc_rx_offs);

/*
 * Read both offsets into @o (dcc_lib; once per jiffy per CPU, and for
 * every CPU when dcc_lib loads, so a cache is never empty).
 */
void dcc_rx_offs_refresh(struct dcc_rx_offs *o, unsigned long jif);

/*
 * Offset from the stack's clock to CLOCK_REALTIME (@tai: CLOCK_TAI).  A
 * preempted backlog run may read another CPU's cache: an offset at most a
 * jiffy old, as its own.
 */
static __always_inline s64 dcc_rx_offset(bool tai)
{
	struct dcc_rx_offs *o = raw_cpu_ptr(&dcc_rx_offs);
	unsigned long j = READ_ONCE(jiffies);

	if (unlikely(READ_ONCE(o->jif) != j))
		dcc_rx_offs_refresh(o, j);
	return tai ? READ_ONCE(o->tai) : READ_ONCE(o->real);
}

/* ---- the RX correction ---------------------------------------------------- */

/*
 * The probe's record of the ACK cong_control is running for (ack_seq ==
 * snd_una, this socket's tag), or NULL; *@key gets its key word (the TTL
 * in its low bits).
 */
static __always_inline const struct dcc_rx_slot *
dcc_rx_record_of(const struct sock *sk, u64 *key)
{
	u32 h = dcc_rx_hash(sk);
	const struct dcc_rx_slot *slot = dcc_rx_slot_of(h);

	*key = atomic64_read(&slot->key);
	if (!dcc_rxts_key_match(*key, dcc_rxts_key(tcp_sk(sk)->snd_una,
						   h >> DCC_RX_SLOT_BITS)))
		return NULL;
	return slot;
}

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
	u64 now = tp->tcp_clock_cache, host = DCC_RX_REFUSED, key, w;
	u32 ack = tp->snd_una;
	const struct dcc_rx_slot *slot = dcc_rx_record_of(sk, &key);
	bool stamped = false;

	if (!slot) {
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

/*
 * The IP TTL (IPv6: hop limit) of the ACK cong_control is running for, as
 * the probe recorded it; 0 when there is no record of this ACK
 * (rx_timestamps off, the probe missed it, another socket's record).  For
 * a law that scales its target by the hops a path crosses
 * (dcc_ttl_hops()); not part of the sample, which every core takes.
 */
static __always_inline u8 dcc_rx_ttl(const struct sock *sk)
{
	u64 k;

	return dcc_rx_record_of(sk, &k) ? (u8)(k & DCC_RXTS_TTL_MASK) : 0;
}

/* ---- the sample ------------------------------------------------------------ */

/*
 * Fill @s from this ACK.  Returns true when the sample carries a valid
 * RTT/send time for the estimators; false (with s->why set) otherwise, in
 * which case rx_ns, acked, ce and losses are still filled for bookkeeping.
 * With dcc_lib's rx_timestamps not off, rx_ns (and a valid sample's RTT)
 * exclude the receiving host's delay when the ACK carries an acceptable
 * RX stamp (s->rx_src, s->host_ns), and a corrected RTT below
 * tcp_min_rtt() lowers it.
 */
static __always_inline bool dcc_sample_get(const struct sock *sk,
					   const struct rate_sample *rs,
					   struct dcc_sample *s, u32 policy)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	u32 mss = max_t(u32, tp->mss_cache, 1);
	u32 acked = rs->acked_sacked, why = 0;
	int mode = READ_ONCE(dcc_rx_active);
	u32 rtt_ns = 0;

	if (rs->rtt_us < 0)
		why |= DCC_SAMPLE_NO_RTT;
	if (rs->is_retrans)
		why |= DCC_SAMPLE_RETRANS;
	if (rs->is_ack_delayed && !(policy & DCC_SAMPLE_KEEP_DELAYED))
		why |= DCC_SAMPLE_DELAYED;
	if (!acked)
		why |= DCC_SAMPLE_NO_ACKED;
	/*
	 * Every field is written, one by one: the caller's sample may be
	 * __uninitialized, which spares the per-ACK zeroing that
	 * CONFIG_INIT_STACK_ALL_ZERO (Debian's kernels) gives every local.
	 *
	 * The RX time source: the stack's clock when TCP processed the ACK
	 * (tcp_clock_cache, ns; tcp_mstamp is it in us).
	 */
	s->rx_ns = tp->tcp_clock_cache;
	s->host_ns = 0;
	s->rx_src = DCC_RX_STACK;
	s->acked = acked;
	s->acked_bytes = acked * mss;
	s->mss = mss;
	s->ce = max_t(s32, rs->delivered_ce, 0);
	s->losses = max_t(int, rs->losses, 0);
	s->why = why;
	s->app_limited = rs->is_app_limited;
	s->delayed = rs->is_ack_delayed;
	/*
	 * tp->delivered is 1 once the handshake is done (the SYN or SYN-ACK
	 * counts) and grows with the first data ACK, so a packet that left
	 * with tx.delivered <= 1 was sent before any data was acknowledged.
	 */
	s->first_window = rs->prior_delivered <= 1;
	s->infl_pkts = 0;
	if (!why) {
		/*
		 * rs->rtt_us is tcp_mstamp minus the send stamp (in us) of the
		 * newest skb this ACK (S)ACKed.  1 s bounds anything a
		 * datacenter path produces; a larger value is a stall and is
		 * clamped rather than let through unbounded.
		 */
		rtt_ns = (u32)min_t(long, rs->rtt_us, USEC_PER_SEC) * NSEC_PER_USEC;
		/*
		 * rs->delivered = tp->delivered now minus when the sampled skb
		 * was sent: what the network delivered while it was in flight.
		 */
		s->infl_pkts = rs->delivered > 0 ? rs->delivered : rs->prior_in_flight;
	}
	s->rtt_ns = rtt_ns;
	s->tx_ns = why ? 0 : s->rx_ns - rtt_ns;
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

#endif /* _DCC_RX_SAMPLE_H */
