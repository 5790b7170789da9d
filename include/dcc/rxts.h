/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RX timestamps of ACKs: the plain-C part (acceptance rule and the
 * per-CPU record's encoding), compiled by the kernel (modules/dcc_lib/rxts.c)
 * and by the userspace unit test (selftests/unit/test_rxts.c).
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
enum dcc_rxts_verdict dcc_rxts_host_delay(u64 now_ns, u64 stamp_ns,
					  u64 *host_ns);

/*
 * May @host_ns be removed from this ACK's sample?  @has_rtt: the ACK has
 * an RTT sample, @rtt_ns (uncorrected); @max_ns: the bound.
 */
enum dcc_rxts_verdict dcc_rxts_accept(u64 host_ns, bool has_rtt, u64 rtt_ns,
				      u64 max_ns);

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

u64 dcc_rxts_pack(u32 ack_seq, u32 src, u32 tag, u64 host_ns);
struct dcc_rxts_rec dcc_rxts_unpack(u64 v);

#endif /* _DCC_RXTS_H */
