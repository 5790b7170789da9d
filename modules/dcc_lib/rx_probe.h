/* SPDX-License-Identifier: GPL-2.0 */
/* dcc_lib internal: the RX-timestamp probe's setup (rx_probe.c). */
#ifndef _DCC_RX_PROBE_H
#define _DCC_RX_PROBE_H

#include "dcc/dcc.h"

int dcc_rx_init(void);
void dcc_rx_exit(void);

#endif /* _DCC_RX_PROBE_H */
