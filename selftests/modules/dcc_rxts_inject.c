// SPDX-License-Identifier: GPL-2.0
/*
 * dcc_rxts_inject: a test-only module that gives the received packets of one
 * network device receive timestamps, as a NIC that timestamps in hardware
 * (and/or the stack's software timestamping) would, so that dcc_lib's
 * host-delay removal can be tested on veth.  Never installed by DKMS, not in
 * the top-level Kbuild: selftests/modules/Makefile builds it per guest
 * kernel and selftests/test_rx_timestamps.sh loads it from selftests/build/.
 *
 * Where: the net:netif_receive_skb tracepoint, the first thing
 * __netif_receive_skb_core() does with a packet, before the taps, the
 * ingress qdisc and the protocol handlers.  The tracepoint is not exported
 * to modules (6.1, 6.12): it is found by name with
 * for_each_kernel_tracepoint() and attached with tracepoint_probe_register().
 *
 * What: an skb received on device ifindex (in the network namespace whose
 * nsfs inode is netns; 0 = any namespace) gets
 *   hw=1: skb_hwtstamps(skb)->hwtstamp = now(clock) + offset_ns
 *         (clock: tai or real, the two clocks a NIC's stamp may be in)
 *   sw=1: skb->tstamp = now(CLOCK_REALTIME) + offset_ns, a software
 *         receive stamp.
 * offset_ns > 0 makes a stamp in the future, offset_ns << 0 a stale one.
 *
 * The test's host delay: an ingress qdisc on the device redirects every
 * packet to an ifb whose netem delays it D, and ifb re-injects it with
 * netif_receive_skb() on the same device: the tracepoint fires again.  That
 * second pass is recognised by tc_skip_classify (ifb sets it so that the
 * ingress qdisc does not classify the packet twice; __netif_receive_skb_core
 * clears it after the tracepoint) and never re-stamps, so the stamps carry
 * the time before D: the receiver's TCP sees a host delay of D.
 *
 * Software stamps and the redirect: skb_set_redirected() (mirred from
 * ingress) clears a CLOCK_REALTIME skb->tstamp (skb_clear_tstamp(): a
 * receive stamp must not become a departure time on the redirect target)
 * and keeps only a delivery time (mono_delivery_time, 6.11+ tstamp_type).
 * So the first pass stores the software stamp as a delivery time, which
 * rides through mirred, netem and ifb untouched, and the second pass turns
 * it back into a CLOCK_REALTIME receive stamp.  Without the redirect no
 * second pass comes and ip_local_deliver() drops the delivery time
 * (skb_clear_delivery_time()): sw=1 needs the ifb.  The kernel's own
 * software stamp cannot stand in: it is taken again after the ifb
 * (netif_receive_skb_internal()), i.e. after D.
 *
 * Safety: only an skb whose shared info is its own (!skb_cloned()) has its
 * hwtstamps written; a clone's is shared with its siblings and is skipped
 * (counted).  No allocation, no lock, no WARN.  Unload unregisters the probe
 * and waits for running probes (tracepoint_synchronize_unregister()).
 *
 * Read-only counters: stamped (first-pass packets stamped), reinjected
 * (second passes seen, never re-stamped), sw_restored (software stamps
 * turned back into receive stamps), skipped_cloned, skipped_stamped (a
 * first pass that already had a hardware stamp).
 */
#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <linux/version.h>
#include <net/net_namespace.h>

/* 6.11 replaced mono_delivery_time by the 2-bit tstamp_type */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define INJ_DELIVERY_MONO	SKB_CLOCK_MONOTONIC
#define INJ_DELIVERY_REAL	SKB_CLOCK_REALTIME
#define inj_is_delivery_time(skb) ((skb)->tstamp_type != SKB_CLOCK_REALTIME)
#else
#define INJ_DELIVERY_MONO	true
#define INJ_DELIVERY_REAL	false
#define inj_is_delivery_time(skb) ((skb)->mono_delivery_time)
#endif

static int ifindex;
module_param(ifindex, int, 0644);
MODULE_PARM_DESC(ifindex, "device to stamp (0: none)");

static unsigned int netns;
module_param(netns, uint, 0644);
MODULE_PARM_DESC(netns, "its network namespace, as the nsfs inode (stat -L -c %i /run/netns/NAME); 0: any");

static long offset_ns;
module_param(offset_ns, long, 0644);
MODULE_PARM_DESC(offset_ns, "added to every stamp, ns (> 0: future, << 0: stale)");

static bool hw = true;
module_param(hw, bool, 0644);
MODULE_PARM_DESC(hw, "set skb_hwtstamps(skb)->hwtstamp (default 1)");

static bool sw;
module_param(sw, bool, 0644);
MODULE_PARM_DESC(sw, "set skb->tstamp, CLOCK_REALTIME (default 0; needs the ifb redirect)");

/* clock of the hardware stamp */
enum { INJ_CLOCK_TAI, INJ_CLOCK_REAL };
static int hw_clock = INJ_CLOCK_TAI;
static const char * const clock_names[] = { "tai", "real" };

static int clock_set(const char *val, const struct kernel_param *kp)
{
	int i = sysfs_match_string(clock_names, val);

	if (i < 0)
		return -EINVAL;
	WRITE_ONCE(hw_clock, i);
	return 0;
}

static int clock_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", clock_names[READ_ONCE(hw_clock)]);
}

static const struct kernel_param_ops clock_ops = {
	.set = clock_set,
	.get = clock_get,
};
module_param_cb(clock, &clock_ops, NULL, 0644);
MODULE_PARM_DESC(clock, "clock of the hardware stamp: tai (default) or real");

static atomic_long_t stamped, reinjected, sw_restored, skipped_cloned, skipped_stamped;

static int counter_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read((atomic_long_t *)kp->arg));
}

static const struct kernel_param_ops counter_ops = {
	.get = counter_get,
};
module_param_cb(stamped, &counter_ops, &stamped, 0444);
MODULE_PARM_DESC(stamped, "packets stamped");
module_param_cb(reinjected, &counter_ops, &reinjected, 0444);
MODULE_PARM_DESC(reinjected, "second passes (ifb re-injection) seen, not re-stamped");
module_param_cb(sw_restored, &counter_ops, &sw_restored, 0444);
MODULE_PARM_DESC(sw_restored, "software stamps turned back into receive stamps after the ifb");
module_param_cb(skipped_cloned, &counter_ops, &skipped_cloned, 0444);
MODULE_PARM_DESC(skipped_cloned, "packets not stamped: cloned (shared info not ours)");
module_param_cb(skipped_stamped, &counter_ops, &skipped_stamped, 0444);
MODULE_PARM_DESC(skipped_stamped, "packets not stamped: a hardware stamp already there");

static bool inj_our_device(const struct sk_buff *skb)
{
	const struct net_device *dev = skb->dev;
	unsigned int ns = READ_ONCE(netns);

	return dev && dev->ifindex == READ_ONCE(ifindex) &&
	       (!ns || dev_net(dev)->ns.inum == ns);
}

/*
 * The second pass: the software stamp back into a receive stamp.  Only with
 * sw=1, which made the first pass overwrite skb->tstamp: otherwise a delivery
 * time there is the peer's (TCP's departure time, kept across veth and
 * forwarding), for ip_local_deliver() to drop.
 */
static void inj_second_pass(struct sk_buff *skb)
{
	atomic_long_inc(&reinjected);
	if (READ_ONCE(sw) && skb->tstamp && inj_is_delivery_time(skb)) {
		skb_set_delivery_time(skb, skb->tstamp, INJ_DELIVERY_REAL);
		atomic_long_inc(&sw_restored);
	}
}

/* the hardware stamp, in the shared info: only an skb's own, only once */
static bool inj_stamp_hw(struct sk_buff *skb, long off)
{
	struct skb_shared_hwtstamps *hwts;

	if (skb_cloned(skb)) {
		atomic_long_inc(&skipped_cloned);
		return false;
	}
	hwts = skb_hwtstamps(skb);
	if (hwts->hwtstamp) {
		atomic_long_inc(&skipped_stamped);
		return false;
	}
	hwts->hwtstamp = ktime_add_ns(READ_ONCE(hw_clock) == INJ_CLOCK_REAL ?
				      ktime_get_real() : ktime_get_clocktai(), off);
	return true;
}

static void inj_first_pass(struct sk_buff *skb)
{
	long off = READ_ONCE(offset_ns);
	bool done = false;

	if (READ_ONCE(hw))
		done = inj_stamp_hw(skb, off);
	/*
	 * skb->tstamp is the skb's own, clone or not; a delivery time until
	 * the second pass (see the top)
	 */
	if (READ_ONCE(sw)) {
		skb_set_delivery_time(skb, ktime_add_ns(ktime_get_real(), off),
				      INJ_DELIVERY_MONO);
		done = true;
	}
	if (done)
		atomic_long_inc(&stamped);
}

static void inj_probe(void *data, struct sk_buff *skb)
{
	if (!inj_our_device(skb))
		return;
	if (skb->tc_skip_classify)
		inj_second_pass(skb);
	else
		inj_first_pass(skb);
}

static struct tracepoint *inj_tp;

static void inj_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "netif_receive_skb"))
		inj_tp = tp;
}

static int __init inj_init(void)
{
	int err;

	for_each_kernel_tracepoint(inj_find_tp, NULL);
	if (!inj_tp) {
		pr_err("dcc_rxts_inject: no netif_receive_skb tracepoint\n");
		return -ENOENT;
	}
	err = tracepoint_probe_register(inj_tp, inj_probe, NULL);
	if (err)
		pr_err("dcc_rxts_inject: tracepoint_probe_register: %d\n", err);
	return err;
}

static void __exit inj_exit(void)
{
	tracepoint_probe_unregister(inj_tp, inj_probe, NULL);
	tracepoint_synchronize_unregister();
}

module_init(inj_init);
module_exit(inj_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("dcc selftests: receive timestamps injected on one device (test only)");
