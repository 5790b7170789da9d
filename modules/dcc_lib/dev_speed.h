/* SPDX-License-Identifier: GPL-2.0 */
/* dcc_lib internal: the egress devices' link speeds (dev_speed.c). */
#ifndef _DCC_DEV_SPEED_H
#define _DCC_DEV_SPEED_H

#include <linux/netdevice.h>

int dcc_dev_speed_init(void);
void dcc_dev_speed_exit(void);

/*
 * The link speed @dev reported at its last up or change event, Mbit/s, if
 * the dev_speed parameter lets it count for @dev; 0 otherwise.  Lock-free.
 */
u32 dcc_dev_speed_mbps(const struct net_device *dev);

#endif /* _DCC_DEV_SPEED_H */
