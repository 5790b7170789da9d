// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of include/dcc/shtbl.h and modules/dcc_lib/shtbl.c, the slot
 * logic of dcc_lib's shared min-RTT and line-rate tables.  tbl_fold()
 * below does what dcc_lib.c does with the table's atomic words: read the
 * key's group, pick its way, fold, store what changed.
 */
#include <string.h>

#include "dcc/shtbl.h"
#include "tap.h"

#define WLEN	300	/* tcp_min_rtt_wlen's default, s */

static u64 tbl[DCC_TBL_SLOTS];

static u32 tbl_fold(u32 hash, u32 now, u32 own, bool max)
{
	u64 *grp = &tbl[dcc_tbl_group(hash)];
	u32 key = dcc_tbl_key(hash);
	u32 way = dcc_tbl_way(grp, key, now, WLEN);

	return max ? dcc_tbl_fold_max(&grp[way], key, now, WLEN, own) :
		     dcc_tbl_fold_min(&grp[way], key, now, WLEN, own);
}

/* @n hashes with distinct keys whose group is @hash's */
static void same_group(u32 hash, u32 *out, unsigned int n)
{
	u32 g = dcc_tbl_group(hash), h = hash;
	unsigned int i = 0;

	out[i++] = hash;
	while (i < n) {
		h += 0x01000001;	/* another key (low 24 bits) each step */
		if (dcc_tbl_group(h) == g)
			out[i++] = h;
	}
}

static void test_pack(void)
{
	tap_begin("slot word: key, value and stamp round-trip at their widths");
	for (int i = 0; i < 10000; i++) {
		u32 k = (u32)rnd64() & DCC_VAL_MAX, v = (u32)rnd64() & DCC_VAL_MAX;
		u32 st = (u32)rnd64() & 0xffff;
		struct dcc_slot e = dcc_slot_unpack(dcc_slot_pack(k, v, st));

		CHECK(e.key == k && e.val == v && e.stamp == st,
		      "k=%x v=%x st=%x -> %x %x %x", k, v, st, e.key, e.val, e.stamp);
	}
	CHECK(dcc_tbl_group(0xdeadbeef) % DCC_TBL_WAYS == 0 &&
	      dcc_tbl_group(0xffffffff) + DCC_TBL_WAYS <= DCC_TBL_SLOTS,
	      "groups are aligned and inside the table");
	tap_end();
}

static void test_min_rules(void)
{
	u32 now = 100;

	memset(tbl, 0, sizeof(tbl));
	tap_begin("min fold: the lower value wins, a read of nothing is 0, expiry after wlen");
	CHECK(tbl_fold(7, now, 0, false) == 0, "empty: a read returns 0");
	CHECK(tbl_fold(7, now, 500, false) == 500, "claim returns own");
	CHECK(tbl_fold(7, now, 800, false) == 500, "higher own reads the entry");
	CHECK(tbl_fold(7, now, 300, false) == 300, "lower own lowers it");
	CHECK(tbl_fold(7, now, 0, false) == 300, "read");
	CHECK(tbl_fold(7, now, 0x7fffffff, false) == 300, "own above 24 bits is capped, reads the entry");
	/* still live just under wlen, gone at it */
	CHECK(tbl_fold(7, now + WLEN / DCC_TICK_SECS - 1, 0, false) == 300, "live within wlen");
	CHECK(tbl_fold(7, now + WLEN / DCC_TICK_SECS, 0, false) == 0, "expired at wlen");
	CHECK(tbl_fold(7, now + WLEN / DCC_TICK_SECS, 900, false) == 900, "an expired entry is reclaimed at any value");
	/* a confirmation (equal) renews the stamp, once per tick */
	now += WLEN / DCC_TICK_SECS;
	CHECK(tbl_fold(7, now + 100, 900, false) == 900 &&
	      tbl_fold(7, now + 100 + WLEN / DCC_TICK_SECS - 1, 0, false) == 900,
	      "an equal value confirms the entry");
	/* stamps wrap mod 2^16 */
	memset(tbl, 0, sizeof(tbl));
	CHECK(tbl_fold(9, 0xfffe, 40, false) == 40 && tbl_fold(9, 0x10003, 0, false) == 40,
	      "live across the stamp's wrap");
	tap_end();
}

static void test_max_rules(void)
{
	u32 now = 5;

	memset(tbl, 0, sizeof(tbl));
	tap_begin("max fold: the higher value wins, one within 1/8 below confirms");
	CHECK(tbl_fold(11, now, 0, true) == 0, "empty read 0");
	CHECK(tbl_fold(11, now, 800, true) == 800, "claim");
	CHECK(tbl_fold(11, now, 400, true) == 800, "lower reads the entry");
	CHECK(tbl_fold(11, now, 1000, true) == 1000, "higher raises it");
	/* 900 >= 1000 - 125: confirms at a later tick; 800 does not */
	CHECK(tbl_fold(11, now + 100, 900, true) == 1000, "near value reads the entry");
	CHECK(tbl_fold(11, now + 100 + WLEN / DCC_TICK_SECS - 1, 0, true) == 1000,
	      "a value within 1/8 below confirmed it");
	CHECK(tbl_fold(11, now + 200, 800, true) == 1000 &&
	      tbl_fold(11, now + 100 + WLEN / DCC_TICK_SECS, 0, true) == 0,
	      "a value more than 1/8 below does not confirm it");
	tap_end();
}

/*
 * The case that made the table set-associative: two flows' keys in one
 * group, one reading a minimum the other's key must not disturb.  Flow
 * A folds its own 20 ms into key a and 20 ms into key r; flow B folds
 * 10 ms into key r.  A must read r's 10 ms back, whatever the order.
 */
static void test_collision(void)
{
	u32 h[DCC_TBL_WAYS + 1];
	unsigned int i, bad = 0;

	memset(tbl, 0, sizeof(tbl));
	same_group(0x12345678, h, DCC_TBL_WAYS + 1);
	tap_begin("two live keys in one group keep their own entries (no mutual eviction)");
	for (i = 0; i < 200; i++) {
		u32 now = 10 + i / 4;

		if (i % 3 == 0)
			tbl_fold(h[1], now, 10000, false);	/* B into r */
		if (tbl_fold(h[0], now, 20000, false) != 20000)	/* A into a */
			bad++;
		if (tbl_fold(h[1], now, 20000, false) != 10000)	/* A into r */
			bad++;
	}
	CHECK(!bad, "%u of 400 reads lost to the other key", bad);
	tap_end();

	tap_begin("a full group: a fifth key evicts the one confirmed longest ago");
	memset(tbl, 0, sizeof(tbl));
	for (i = 0; i < DCC_TBL_WAYS; i++)
		tbl_fold(h[i], 100 + i, 1000 + i, false);	/* h[0] oldest */
	CHECK(tbl_fold(h[4], 110, 5000, false) == 5000, "the fifth claims a slot");
	CHECK(tbl_fold(h[0], 111, 0, false) == 0, "the oldest was evicted");
	for (i = 1; i < DCC_TBL_WAYS; i++)
		CHECK(tbl_fold(h[i], 111, 0, false) == 1000 + i, "key %u kept its entry", i);
	tap_end();
}

/*
 * Random keys, at most DCC_TBL_WAYS live per group: every fold reads
 * exactly the running minimum (maximum) of its key, as a map would.
 */
static void test_random(bool max)
{
	enum { NK = 40 };
	u32 hash[NK], ref[NK], per_group[DCC_TBL_SLOTS / DCC_TBL_WAYS] = { 0 };
	unsigned int n = 0, bad = 0, i;

	memset(tbl, 0, sizeof(tbl));
	while (n < NK) {
		u32 h = (u32)rnd64(), g = dcc_tbl_group(h) / DCC_TBL_WAYS;
		bool dup = false;

		for (i = 0; i < n; i++)
			dup |= dcc_tbl_key(hash[i]) == dcc_tbl_key(h);
		if (dup || per_group[g] == DCC_TBL_WAYS)
			continue;
		per_group[g]++;
		ref[n] = 0;
		hash[n++] = h;
	}
	tap_begin("random keys, <= 4 per group: every %s fold reads the key's running %s",
		  max ? "max" : "min", max ? "maximum" : "minimum");
	for (i = 0; i < 200000; i++) {
		unsigned int k = (unsigned int)rnd_range(0, NK - 1);
		u32 own = (u32)rnd_range(1, DCC_VAL_MAX), want, got;

		want = !ref[k] ? own : max ? (own > ref[k] ? own : ref[k]) :
					      (own < ref[k] ? own : ref[k]);
		/* 100 ticks: within wlen, so no entry expires */
		got = tbl_fold(hash[k], 1000 + i / 2000, own, max);
		ref[k] = want;
		if (got != want && bad++ < 3)
			tap_diag("key %u own %u: got %u want %u", k, own, got, want);
	}
	CHECK(!bad, "%u of 200000 folds differ from the reference", bad);
	tap_end();
}

int main(void)
{
	tap_header();
	tap_seed_from_env();
	test_pack();
	test_min_rules();
	test_max_rules();
	test_collision();
	test_random(false);
	test_random(true);
	return tap_done();
}
