// SPDX-License-Identifier: GPL-2.0
/*
 * Slot logic of dcc_lib's shared tables; see include/dcc/shtbl.h.
 * Plain C, shared by dcc_lib.ko and the userspace tests.
 */
#include "dcc/shtbl.h"

/* How long ago @e was confirmed, in ticks; above any live age if it is not live. */
static u32 dcc_slot_age(const struct dcc_slot *e, u32 now, u32 wlen)
{
	return dcc_slot_live(e, now, wlen) ? (now - e->stamp) & 0xffff : 0x10000;
}

u32 dcc_tbl_way(const u64 *grp, u32 key, u32 now, u32 wlen)
{
	u32 i, pick = 0, pick_age = 0;

	for (i = 0; i < DCC_TBL_WAYS; i++) {
		struct dcc_slot e = dcc_slot_unpack(grp[i]);
		u32 age = dcc_slot_age(&e, now, wlen);

		if (e.key == key && age <= 0xffff)
			return i;
		if (age > pick_age || i == 0) {
			pick = i;
			pick_age = age;
		}
	}
	return pick;
}
DCC_EXPORT(dcc_tbl_way);

/* @e is @key's live entry. */
static bool dcc_slot_mine(const struct dcc_slot *e, u32 key, u32 now, u32 wlen)
{
	return e->key == key && dcc_slot_live(e, now, wlen);
}

u32 dcc_tbl_fold_min(u64 *word, u32 key, u32 now, u32 wlen, u32 own)
{
	struct dcc_slot e = dcc_slot_unpack(*word);
	bool mine = dcc_slot_mine(&e, key, now, wlen);

	own = min_t(u32, own, DCC_VAL_MAX);
	if (!own)
		return mine ? e.val : 0;
	if (mine && e.val < own)
		return e.val;
	/* claim, lower, or confirm (an equal value: once per tick) */
	if (!mine || own < e.val || e.stamp != (now & 0xffff))
		*word = dcc_slot_pack(key, own, now);
	return own;
}
DCC_EXPORT(dcc_tbl_fold_min);

u32 dcc_tbl_fold_max(u64 *word, u32 key, u32 now, u32 wlen, u32 own)
{
	struct dcc_slot e = dcc_slot_unpack(*word);
	u32 best = dcc_slot_mine(&e, key, now, wlen) ? e.val : 0;

	own = min_t(u32, own, DCC_VAL_MAX);
	if (own > best ||
	    (own && own >= best - best / 8 && e.stamp != (now & 0xffff)))
		*word = dcc_slot_pack(key, max(own, best), now);
	return max(own, best);
}
DCC_EXPORT(dcc_tbl_fold_max);
