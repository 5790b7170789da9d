// SPDX-License-Identifier: GPL-2.0
/*
 * RX timestamps: the acceptance rule and the record encoding, plain C
 * (include/dcc/rxts.h explains both).  The kernel glue -- the probe, the
 * parameters, the correction of the sample -- is rx_probe.c.
 */
#include "dcc/rxts.h"

enum dcc_rxts_verdict dcc_rxts_host_delay(u64 now_ns, u64 stamp_ns,
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

enum dcc_rxts_verdict dcc_rxts_accept(u64 host_ns, bool has_rtt, u64 rtt_ns,
				      u64 max_ns)
{
	if (host_ns > max_ns)
		return DCC_RXTS_TOO_OLD;
	if (has_rtt && host_ns >= rtt_ns)
		return DCC_RXTS_NOT_BELOW_RTT;
	return DCC_RXTS_OK;
}

u64 dcc_rxts_pack(u32 ack_seq, u32 src, u32 tag, u64 host_ns)
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

struct dcc_rxts_rec dcc_rxts_unpack(u64 v)
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
