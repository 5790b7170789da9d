/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The slot logic of dcc_lib's host-wide shared tables (the min-RTT table
 * behind the shared base RTT and RTT_ref, the line-rate table): which
 * slot a key lives in, and how a value is folded into it.  Plain C on
 * 64-bit words, shared by dcc_lib.ko (which reads and writes the words
 * atomically) and the userspace unit tests; dcc_lib.c explains what the
 * tables hold and why.
 *
 * A word, read and written whole so that a reader never pairs one
 * entry's value with another's stamp:
 *
 *	bits 63..40  key   (24 bits of the entry's hash)
 *	bits 39..16  value (24 bits; 0 = empty): a min RTT in us, capped
 *		     at 2^24 - 1 = 16.7 s; or a rate in DCC_RATE_STEP_BPS
 *		     units, 800 Gbit/s = 12.5e6 < 2^24
 *	bits 15..0   stamp (DCC_TICK_SECS-second ticks, mod 2^16 = 36 h at
 *		     2 s, more than tcp_min_rtt_wlen's 24 h maximum)
 *
 * Set-associative: a hash picks a group of DCC_TBL_WAYS adjacent slots
 * (one 32-byte piece of a cache line) and a key may take any slot of its
 * group.  With one slot per hash, two live keys that hash alike evict
 * each other on every write, and each then reads only its own value
 * back: the sharing is lost for as long as both run, with no sign of
 * it.  With four ways that takes five live keys in one group of sixteen.
 * A key absent from its group claims an empty or expired slot, else the
 * one confirmed longest ago.  Two flows claiming at once may take two
 * slots for one key: lookups find the first, the other expires unused.
 */
#ifndef _DCC_SHTBL_H
#define _DCC_SHTBL_H

#include "fixp.h"

#define DCC_TBL_BITS	6			/* 64 slots per table */
#define DCC_TBL_SLOTS	(1U << DCC_TBL_BITS)
#define DCC_WAY_BITS	2
#define DCC_TBL_WAYS	(1U << DCC_WAY_BITS)	/* slots per group */
#define DCC_VAL_MAX	0xffffffU		/* 24-bit value and key */
#define DCC_TICK_SECS	2

struct dcc_slot {
	u32 key;	/* 24 bits */
	u32 val;	/* 24 bits; 0 = empty */
	u32 stamp;	/* 16 bits */
};

static inline struct dcc_slot dcc_slot_unpack(u64 v)
{
	return (struct dcc_slot){
		.key = (u32)(v >> 40),
		.val = (u32)(v >> 16) & DCC_VAL_MAX,
		.stamp = (u32)v & 0xffff,
	};
}

static inline u64 dcc_slot_pack(u32 key, u32 val, u32 stamp)
{
	return ((u64)(key & DCC_VAL_MAX) << 40) |
	       ((u64)(val & DCC_VAL_MAX) << 16) | (stamp & 0xffff);
}

/* @e was confirmed within @wlen seconds of tick @now (and is not empty). */
static inline bool dcc_slot_live(const struct dcc_slot *e, u32 now, u32 wlen)
{
	return e->val && ((now - e->stamp) & 0xffff) * DCC_TICK_SECS < wlen;
}

/* The first slot of @hash's group (a multiplicative hash of all 32 bits). */
static inline u32 dcc_tbl_group(u32 hash)
{
	return (u32)(hash * 0x61c88647U) >> (32 - DCC_TBL_BITS + DCC_WAY_BITS)
						<< DCC_WAY_BITS;
}

/* The 24-bit tag a slot stores for @hash. */
static inline u32 dcc_tbl_key(u32 hash)
{
	return hash & DCC_VAL_MAX;
}

/*
 * Which of the DCC_TBL_WAYS words @grp (one group, as read) holds @key:
 * its live slot, else the one a claim takes (empty or expired, else the
 * one confirmed longest ago).
 */
u32 dcc_tbl_way(const u64 *grp, u32 key, u32 now, u32 wlen);

/*
 * Fold @own (> 0; capped at DCC_VAL_MAX) into @key's entry in *@word,
 * the word dcc_tbl_way() chose, at tick @now.  Returns what the key
 * reads back; *@word is rewritten where it changes (the caller stores it
 * if it differs from what was read):
 *  - min: the lower of @own and a live entry.  A lower @own, a claim,
 *    or an equal one once per tick (a confirmation) rewrite the slot.
 *    @own = 0 only reads (0: no live entry);
 *  - max: the higher of both.  A higher @own, a claim, or one within 1/8
 *    below the entry once per tick rewrite it: the maximum lasts while
 *    flows run near it and lapses wlen after they stop.
 */
u32 dcc_tbl_fold_min(u64 *word, u32 key, u32 now, u32 wlen, u32 own);
u32 dcc_tbl_fold_max(u64 *word, u32 key, u32 now, u32 wlen, u32 own);

#endif /* _DCC_SHTBL_H */
