// SPDX-License-Identifier: GPL-2.0
/*
 * The egress device's link speed, for the line rate a module is not told:
 * OSCAR's mu and CCC's R_l with line_rate_mbps = 0 (dcc_shared_line_rate()),
 * NSCC's NIC rate with nic_mbps = 0 and the TIMELY family's C with
 * link_mbps = 0 (dcc_egress_speed_mbps()).
 *
 * Theory.  The laws take the line rate as known (the papers' mu, R_l, C,
 * UE's NIC rate): every flow's share u, its window cap and its steps are
 * fractions of it.  Estimated from delivery rates, it starts at init_rate_mbps and
 * grows by the estimate's 25% headroom per batch, each batch needing
 * min_samples ACKs at the rate the estimate allows: at 100 Gbit/s and a
 * 12 us base RTT a lone OSCAR flow took ~10 ms (~890 base RTTs) to
 * reach 90% of the link from the 100 Mbit/s default, at 25 Gbit/s and
 * 8 us ~1310 RTTs, and the ratchet then overshot to 1.7-1.9 times the
 * line (test_oscar_law, subtests 7 and 7b; the userspace model).
 * A NIC knows its speed: the link it negotiated.  No host sends faster
 * than that, and in a datacenter fabric of one link speed it is the
 * bottleneck's rate, the paper's mu.  So in estimate mode the line rate
 * is the egress device's speed where the device reports one, and the
 * delivery-rate estimate only where it does not.
 *
 * Which devices.  A device backed by hardware (one with a parent bus
 * device: a PCI NIC, a virtio NIC) reports the link it has.  Virtual
 * devices report a fixed figure that says nothing about the path: veth
 * says 10 Gbit/s whether its peer namespace leads to a 100 Gbit/s NIC or
 * to a 50 Mbit/s shaper, a bridge or a bond the sum or the minimum of
 * its ports.  So by default (dev_speed = 1) only devices with a parent
 * count; dev_speed = 2 takes every reported speed (the tests check the
 * mechanism on a veth with it), 0 none (the estimate alone, as before).
 * A VLAN, macvlan or bond over a NIC has no parent and falls back to the
 * estimate.
 *
 * How it is read.  ethtool's get_link_ksettings needs the RTNL lock,
 * which the socket paths that want the speed cannot take.  A netdevice
 * notifier runs under RTNL for every device event: on register, up and
 * change (a carrier or speed change reaches it through linkwatch as
 * NETDEV_CHANGE) the speed is read and cached; on down and unregister
 * it is forgotten.  Registering the notifier replays register and up for
 * every existing device of every namespace, so devices that were up
 * before dcc_lib loaded are cached too.
 *
 * The cache: DCC_SPEED_SLOTS words, one per hash of (namespace,
 * ifindex), each the full 32-bit hash, a hardware flag and the speed in
 * Mbit/s, written and read whole (atomic64).  Two live devices whose
 * hashes share a slot: the later event wins and the other reads as
 * unknown (its key no longer matches), i.e. falls back to the estimate;
 * a reader never takes another device's speed for its own.
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/ethtool.h>
#include <linux/jhash.h>
#include <linux/rtnetlink.h>
#include <net/netns/hash.h>
#include <net/tcp.h>
#include "dcc/dcc.h"
#include "dev_speed.h"

#define DCC_SPEED_SLOTS		256
#define DCC_SPEED_HW		BIT_ULL(31)	/* the device has a parent */
/* the modules' line-rate range: 800 Gbit/s */
#define DCC_SPEED_MBPS_MAX	((u32)(DCC_RATE_MAX_BPS / DCC_MBPS_TO_BPS))

static atomic64_t dcc_speed_tbl[DCC_SPEED_SLOTS];

/* 0: never, 1: hardware devices (default), 2: every device with a speed */
static u32 dcc_dev_speed_mode = 1;
dcc_param_range(dev_speed, dcc_dev_speed_mode, 0, 2, 0644,
		"a line rate the module is not told (OSCAR mu, CCC R_l, NSCC nic_mbps, TIMELY C): take the egress device's link speed: 0 = never (estimate from delivery rates), 1 = devices backed by hardware (default; not veth, bridges, bonds, VLANs), 2 = every device that reports one");

static u32 dcc_speed_hash(const struct net *net, int ifindex)
{
	return jhash_2words((u32)ifindex, net_hash_mix(net), 2);
}

/* Cache @mbps (0: forget) for @dev under its key. */
static void dcc_speed_note(const struct net_device *dev, u32 mbps)
{
	u32 h = dcc_speed_hash(dev_net(dev), dev->ifindex);
	atomic64_t *slot = &dcc_speed_tbl[h % DCC_SPEED_SLOTS];
	u64 w = 0;

	if (mbps)
		w = (u64)h << 32 | (dev->dev.parent ? DCC_SPEED_HW : 0) | mbps;
	else if ((u32)(atomic64_read(slot) >> 32) != h)
		return;		/* another device's entry: keep it */
	atomic64_set(slot, w);
}

/* The link speed @dev reports, Mbit/s; 0 if none (or out of range). RTNL. */
static u32 dcc_speed_read(struct net_device *dev)
{
	struct ethtool_link_ksettings ks;

	ASSERT_RTNL();
	if (!dev->ethtool_ops || !dev->ethtool_ops->get_link_ksettings ||
	    __ethtool_get_link_ksettings(dev, &ks))
		return 0;
	if (ks.base.speed == (u32)SPEED_UNKNOWN || !ks.base.speed ||
	    ks.base.speed > DCC_SPEED_MBPS_MAX)
		return 0;
	return ks.base.speed;
}

static int dcc_speed_event(struct notifier_block *nb, unsigned long event,
			   void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);

	switch (event) {
	case NETDEV_REGISTER:
	case NETDEV_UP:
	case NETDEV_CHANGE:
		dcc_speed_note(dev, netif_running(dev) ? dcc_speed_read(dev) : 0);
		break;
	case NETDEV_DOWN:
	case NETDEV_UNREGISTER:
		dcc_speed_note(dev, 0);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block dcc_speed_nb = {
	.notifier_call = dcc_speed_event,
};

u32 dcc_dev_speed_mbps(const struct net_device *dev)
{
	u32 mode = READ_ONCE(dcc_dev_speed_mode);
	u32 h;
	u64 w;

	if (!mode || !dev)
		return 0;
	h = dcc_speed_hash(dev_net(dev), dev->ifindex);
	w = atomic64_read(&dcc_speed_tbl[h % DCC_SPEED_SLOTS]);
	if ((u32)(w >> 32) != h || (mode == 1 && !(w & DCC_SPEED_HW)))
		return 0;
	return (u32)w & (u32)(DCC_SPEED_HW - 1);
}

int dcc_dev_speed_init(void)
{
	return register_netdevice_notifier(&dcc_speed_nb);
}

void dcc_dev_speed_exit(void)
{
	unregister_netdevice_notifier(&dcc_speed_nb);
}
