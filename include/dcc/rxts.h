/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RX timestamps of ACKs: the plain-C part (acceptance rule and the
 * per-CPU record's encoding), inline here because they run on every ACK
 * (modules/dcc_lib/rx_probe.c writes the record, modules/dcc_lib/sample.c
 * reads it) and are tested in userspace (selftests/unit/test_rxts.c).
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
 *  - present (non-zero: the path stamped the ACK);
 *  - not in the future and at most max_ns (rx_host_max_us) old: a stamp
 *    seconds old is a wrong clock, not a host delay, and a clock stepped
 *    back, or a NIC clock that is not the clock the parameter names, gives
 *    a "future" stamp.  Ages are taken modulo 2^48 ns (78 hours, the width
 *    a record keeps, below), so a stamp in the future reads as an age
 *    close to 2^48 ns, far above any bound: both cases are one test;
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
	DCC_RXTS_TOO_OLD,	/* host delay above the bound, or in the future */
	DCC_RXTS_NOT_BELOW_RTT,	/* host delay >= the uncorrected RTT */
};

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
 * The per-CPU record the probe leaves for cong_control.  The probe only
 * copies what the ACK carries; every clock read and every rule above runs
 * later, in cong_control (sample.c), where the stack's clock has just
 * been read (tcp_clock_cache) and the RTT is known.  The record is four
 * 64-bit words, each written and read whole:
 *
 *	key	bits 63..32 the ACK's ack_seq; bits 29..24 the tag (6 bits
 *		of a hash of the socket, other than the bits that chose
 *		the slot); bits 7..0 the ACK's IP TTL (IPv6 hop limit; 0:
 *		neither), which is not part of the match; the rest 0
 *	sw, hw, tx
 *		bits 63..48 the low 16 bits of ack_seq; bits 47..0 the low
 *		48 bits of a time in ns (2^48 ns = 78 hours): the software
 *		stamp (CLOCK_REALTIME), the hardware stamp (the NIC's
 *		clock), the newest send time of the data the ACK covers
 *		(the stack's clock); 0 = none
 *
 * A reader on the same CPU may be interrupted by a probe of another socket
 * that hashes to the same slot, and a probe may be interrupted between two
 * of its own stores: so every word carries ack_seq bits of its own, and a
 * word whose bits do not match the reader's ACK is not used
 * (dcc_rxts_age()).  A record of another ACK passes all four checks
 * only if its socket's tag and its ack_seq both match (1 in 2^38 for an
 * unrelated one).
 */
#define DCC_RXTS_TAG_BITS	6
#define DCC_RXTS_T_BITS		48
#define DCC_RXTS_T_MASK		((1ULL << DCC_RXTS_T_BITS) - 1)
#define DCC_RXTS_NO_AGE		U64_MAX

#define DCC_RXTS_TTL_MASK	0xffULL

/* The key a reader matches: ack_seq and tag (TTL bits 0). */
static inline u64 dcc_rxts_key(u32 ack_seq, u32 tag)
{
	return ((u64)ack_seq << 32) |
	       ((u64)(tag & ((1U << DCC_RXTS_TAG_BITS) - 1)) << 24);
}

/* Does the record's key word @k belong to the ACK whose key is @key? */
static inline bool dcc_rxts_key_match(u64 k, u64 key)
{
	return (k & ~DCC_RXTS_TTL_MASK) == key;
}

/*
 * Hops the ACK crossed, from its TTL (IPv6: hop limit): the smallest of
 * the initial TTLs in use (64: Linux and most hosts; 128: Windows; 255:
 * network gear) that is at least @ttl, minus @ttl, as Swift derives its
 * topology term's hop count.  0 for a TTL of 0 (none recorded): the
 * caller tells "none" by the TTL, not by the count.
 */
static inline u32 dcc_ttl_hops(u8 ttl)
{
	if (!ttl)
		return 0;
	if (ttl <= 64)
		return 64 - ttl;
	return ttl <= 128 ? 128 - ttl : 255 - ttl;
}

/* A time word for @ack_seq: @t_ns's low 48 bits; 0 (none) if @t_ns is 0. */
static inline u64 dcc_rxts_word(u32 ack_seq, u64 t_ns)
{
	if (!t_ns)
		return 0;
	return ((u64)(u16)ack_seq << DCC_RXTS_T_BITS) | (t_ns & DCC_RXTS_T_MASK);
}

/*
 * How long before @now_ns the time in word @w was, on the clock @now_ns
 * is read on, modulo 2^48 ns: exact for any age up to 78 hours, and a time
 * up to 78 hours in the future reads as an age above 2^47 ns (39 hours),
 * which every bound refuses.  DCC_RXTS_NO_AGE if the word is empty or
 * belongs to another ACK.  One subtraction and a mask: no reconstruction
 * of the full time is needed, because only ages are ever used.  A stamp
 * further off (a NIC clock on another timescale, a cookie) reads as some
 * age below 2^48 ns, which the rules refuse unless it is within
 * rx_host_max_us: for an arbitrary value, 1 s in 2^48 ns, about 1 in
 * 280000.
 */
static inline u64 dcc_rxts_age(u64 w, u32 ack_seq, u64 now_ns)
{
	if (!w || (u16)(w >> DCC_RXTS_T_BITS) != (u16)ack_seq)
		return DCC_RXTS_NO_AGE;
	return (now_ns - w) & DCC_RXTS_T_MASK;
}

#endif /* _DCC_RXTS_H */
