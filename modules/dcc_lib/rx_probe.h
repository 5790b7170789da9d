/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcc_lib internal: the RX timestamp record, shared by the probe that
 * writes it (rx_probe.c) and the sample side that reads it (sample.c).
 */
#ifndef _DCC_RX_PROBE_H
#define _DCC_RX_PROBE_H

#include <linux/percpu.h>
#include <linux/hash.h>
#include "dcc/dcc.h"
#include "dcc/rxts.h"

enum dcc_rx_mode {
	DCC_RX_MODE_OFF,
	DCC_RX_MODE_SW,
	DCC_RX_MODE_HW,
	DCC_RX_MODE_AUTO,
};

/* rx_timestamps in force, rx_hw_clock (1: real), rx_host_max_us (READ_ONCE) */
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

int dcc_rx_init(void);
void dcc_rx_exit(void);

#endif /* _DCC_RX_PROBE_H */
