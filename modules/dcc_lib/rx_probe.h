/* SPDX-License-Identifier: GPL-2.0 */
/* dcc_lib internal: the RX timestamp glue (rx_probe.c) seen by dcc_lib.c. */
#ifndef _DCC_RX_PROBE_H
#define _DCC_RX_PROBE_H

#include "dcc/dcc.h"

/*
 * Move @s's receive time (and, when @has_rtt, its RTT) to the ACK's RX
 * timestamp left by the probe, if there is an acceptable one, and its
 * send time to the nanosecond stamp of the skb the stack timed; counts
 * the sample's source.  Nothing when rx_timestamps=off.
 */
void dcc_rx_correct(const struct sock *sk, const struct rate_sample *rs,
		    struct dcc_sample *s, bool has_rtt);

int dcc_rx_init(void);
void dcc_rx_exit(void);

#endif /* _DCC_RX_PROBE_H */
