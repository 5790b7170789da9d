/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RX timestamps of ACKs: the plain-C part (acceptance rule and the
 * per-CPU record's encoding), inline here because they run on every ACK
 * (modules/dcc_lib/rx_probe.c) and are tested in userspace
 * (selftests/unit/test_rxts.c).
 *
 * The stack takes an ACK's receive time when TCP processes it
 * (tcp_mstamp_refresh() in tcp_rcv_established()), after interrupt
 * coalescing, softirq queueing and, for a socket its owner holds, the
 * backlog.  A delay-based law reads that host delay as network queueing.
 * The NIC's hardware stamp or the kernel's software stamp (taken when the
 * driver hands the packet to the stack) tells how long the ACK sat in the
 * host: host delay = that stamp's clock now - the stamp.  dcc_lib removes
 * it from the sample's receive time and RTT (docs/rx-timestamps.md).
 *
 * A stamp is only believed when it is sane:
 *  - non-zero (zero: the path did not stamp);
 *  - not in the future: now - stamp, as a signed 64-bit difference, is
 *    >= 0 (a clock stepped back, or a NIC clock that is not the clock the
 *    parameter names, gives a "future" stamp; the difference is taken
 *    modulo 2^64 so a stamp just before a wrap of the counter works);
 *  - the host delay is at most max_ns (rx_host_max_us): a stamp seconds
 *    old is a wrong clock, not a host delay;
 *  - the host delay is less than the uncorrected RTT of this ACK: the ACK
 *    cannot have arrived before the data it acknowledges left.  An ACK
 *    with no RTT sample (nothing newly acked with a send time) has only
 *    the other rules.
 */
#ifndef _DCC_RXTS_H
#define _DCC_RXTS_H

#include "fixp.h"

/* Why a stamp was refused (0: accepted). */
enum dcc_rxts_verdict {
	DCC_RXTS_OK = 0,
	DCC_RXTS_NONE,		/* no stamp (zero) */
	DCC_RXTS_FUTURE,	/* stamp later than its clock's now */
	DCC_RXTS_TOO_OLD,	/* host delay above the bound */
	DCC_RXTS_NOT_BELOW_RTT,	/* host delay >= the uncorrected RTT */
};

/*
 * The host delay of a stamp taken on a clock that reads @now_ns: sets
 * *@host_ns and returns DCC_RXTS_OK, or says why there is none.
 */
static inline enum dcc_rxts_verdict dcc_rxts_host_delay(u64 now_ns,
							u64 stamp_ns,
							u64 *host_ns)
{
	u64 d = now_ns - stamp_ns;	/* modulo 2^64: wrap-safe */

	*host_ns = 0;
	if (!stamp_ns)
		return DCC_RXTS_NONE;
	if ((s64)d < 0)
		return DCC_RXTS_FUTURE;
	*host_ns = d;
	return DCC_RXTS_OK;
}

/*
 * May @host_ns be removed from this ACK's sample?  @has_rtt: the ACK has
 * an RTT sample, @rtt_ns (uncorrected); @max_ns: the bound.
 */
static inline enum dcc_rxts_verdict dcc_rxts_accept(u64 host_ns, bool has_rtt,
						    u64 rtt_ns, u64 max_ns)
{
	if (host_ns > max_ns)
		return DCC_RXTS_TOO_OLD;
	if (has_rtt && host_ns >= rtt_ns)
		return DCC_RXTS_NOT_BELOW_RTT;
	return DCC_RXTS_OK;
}

/*
 * The per-CPU record the probe leaves for cong_control: one 64-bit word,
 * written and read whole, so a reader never pairs one ACK's delay with
 * another's sequence number.
 *
 *	bits 63..32  ack_seq of the ACK
 *	bits 31..30  source: DCC_RXTS_REC_NONE/SW/HW/REFUSED
 *	bits 29..24  tag (6 bits of a hash of the socket, other than the
 *		     bits that chose the slot)
 *	bit  23      scale: 0 = delay in ns, 1 = delay in 128 ns units
 *	bits 22..0   delay: < 2^23 ns (8.4 ms) exact; above, in 128 ns
 *		     units up to 2^30 ns (1.07 s), saturating there -- more
 *		     than rx_host_max_us's 1 s maximum, so a saturated delay
 *		     is always refused by the bound
 */
enum dcc_rxts_rec_src {
	DCC_RXTS_REC_NONE = 0,		/* ACK had no stamp */
	DCC_RXTS_REC_SW = 1,		/* software stamp, delay valid */
	DCC_RXTS_REC_HW = 2,		/* hardware stamp, delay valid */
	DCC_RXTS_REC_REFUSED = 3,	/* a stamp, refused by the probe */
};

#define DCC_RXTS_TAG_BITS	6
#define DCC_RXTS_DELAY_BITS	23
#define DCC_RXTS_SCALE_SHIFT	7	/* 128 ns units */
#define DCC_RXTS_DELAY_MAX	((1ULL << DCC_RXTS_DELAY_BITS) - 1)
/* the largest delay a record holds: (2^23 - 1) * 128 ns */
#define DCC_RXTS_REC_MAX_NS	(DCC_RXTS_DELAY_MAX << DCC_RXTS_SCALE_SHIFT)

struct dcc_rxts_rec {
	u32 ack_seq;
	u32 src;	/* enum dcc_rxts_rec_src */
	u32 tag;
	u64 host_ns;	/* rounded down to 128 ns above 2^23 ns */
};

static inline u64 dcc_rxts_pack(u32 ack_seq, u32 src, u32 tag, u64 host_ns)
{
	u64 d = host_ns, scale = 0;

	if (d > DCC_RXTS_DELAY_MAX) {
		scale = 1;
		d >>= DCC_RXTS_SCALE_SHIFT;
		if (d > DCC_RXTS_DELAY_MAX)
			d = DCC_RXTS_DELAY_MAX;
	}
	return ((u64)ack_seq << 32) | ((u64)(src & 3) << 30) |
	       ((u64)(tag & ((1U << DCC_RXTS_TAG_BITS) - 1)) << 24) |
	       (scale << DCC_RXTS_DELAY_BITS) | d;
}

static inline struct dcc_rxts_rec dcc_rxts_unpack(u64 v)
{
	u64 d = v & DCC_RXTS_DELAY_MAX;

	if (v & (1ULL << DCC_RXTS_DELAY_BITS))
		d <<= DCC_RXTS_SCALE_SHIFT;
	return (struct dcc_rxts_rec){
		.ack_seq = (u32)(v >> 32),
		.src = (u32)(v >> 30) & 3,
		.tag = (u32)(v >> 24) & ((1U << DCC_RXTS_TAG_BITS) - 1),
		.host_ns = d,
	};
}

#endif /* _DCC_RXTS_H */
