// SPDX-License-Identifier: GPL-2.0
/*
 * Sliding-window median over the last H samples; see include/dcc/median.h.
 * Plain C, shared by dcc_lib.ko and the userspace tests.
 *
 * buf[0 .. cap)       ring, arrival order; ring[head] is the oldest
 * buf[cap .. 2*cap)   the same n values, sorted ascending
 */
#include "dcc/median.h"

#ifdef __KERNEL__
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/errno.h>
#define DCC_MED_ENOMEM ENOMEM
static u32 *med_alloc(size_t n)
{
	/* softirq-safe, no warning splat on failure: the caller falls back */
	return kmalloc_array(n, sizeof(u32), GFP_NOWAIT | __GFP_NOWARN);
}
#define med_free(p) kfree(p)
#else
#include <string.h>
#include <stdlib.h>
#define DCC_MED_ENOMEM 12
int dcc_medbuf_fail_allocs;
static u32 *med_alloc(size_t n)
{
	if (dcc_medbuf_fail_allocs > 0) {
		dcc_medbuf_fail_allocs--;
		return NULL;
	}
	return malloc(n * sizeof(u32));
}
#define med_free(p) free(p)
#endif

void dcc_medwin_init(struct dcc_medwin *w, u16 cap)
{
	w->cap = clamp_val(cap, (u16)1, (u16)DCC_MED_CAP_MAX);
	w->n = 0;
	w->head = 0;
	w->pad = 0;
}
DCC_EXPORT(dcc_medwin_init);

/*
 * Indices are u32 here (at most DCC_MED_CAP_MAX = 1024, so lo + hi does
 * not overflow): u16 arithmetic costs a zero extension per use.
 */

/* First index i in s[0..n) with s[i] > v (insert after equal values). */
static u32 med_upper_bound(const u32 *s, u32 n, u32 v)
{
	u32 lo = 0, hi = n;

	while (lo < hi) {
		u32 mid = (lo + hi) / 2;

		if (s[mid] <= v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* First index i in s[0..n) with s[i] >= v. */
static inline u32 med_lower_bound(const u32 *s, u32 n, u32 v)
{
	u32 lo = 0, hi = n;

	while (lo < hi) {
		u32 mid = (lo + hi) / 2;

		if (s[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Ring index @i (< 2 * cap: head + n at most) wrapped into [0, cap): a
 * compare, not a '%' (a division per use on the per-ACK path).
 */
static u32 med_wrap(u32 i, u32 cap)
{
	return i >= cap ? i - cap : i;
}

/* Remove the oldest sample from the ring and its copy from the sorted run. */
static void med_drop_oldest(struct dcc_medwin *w, u32 *buf)
{
	u32 cap = w->cap, n = w->n;
	u32 *sorted = buf + cap;
	u32 i = med_lower_bound(sorted, n, buf[w->head]);

	memmove(&sorted[i], &sorted[i + 1], (size_t)(n - 1 - i) * sizeof(u32));
	w->head = (u16)med_wrap(w->head + 1U, cap);
	w->n = (u16)(n - 1);
}

/*
 * The window is at its size: the newest sample takes the oldest one's
 * place.  In the ring that is the slot after the newest (the oldest's own
 * when the ring is full), and head moves on.  In the sorted run only the
 * entries between the oldest's rank and the newest's move, by one,
 * towards the oldest's slot: the run then holds what a removal and an
 * insertion leave (equal values are interchangeable), for one binary
 * search and a shift as long as the two values are apart in rank,
 * instead of two searches and two shifts of the tail.  Returns the
 * oldest's slot in the sorted run, where the shift starts.
 */
static inline u32 med_replace_ring(struct dcc_medwin *w, u32 *buf, u32 v)
{
	u32 cap = w->cap, n = w->n, head = w->head;
	u32 old = buf[head];

	buf[med_wrap(head + n, cap)] = v;
	w->head = (u16)med_wrap(head + 1, cap);
	return med_lower_bound(buf + cap, n, old);
}

void dcc_medwin_replace(struct dcc_medwin *w, u32 *buf, u32 v)
{
	u32 n = w->n, i = med_replace_ring(w, buf, v);
	u32 *sorted = buf + w->cap;

	if (v > sorted[i]) {
		/* the entries in (old, v] move down over old's slot */
		for (; i + 1 < n && sorted[i + 1] <= v; i++)
			sorted[i] = sorted[i + 1];
	} else {
		/* the entries in (v, old) move up over old's slot */
		for (; i > 0 && sorted[i - 1] > v; i--)
			sorted[i] = sorted[i - 1];
	}
	sorted[i] = v;
}
DCC_EXPORT(dcc_medwin_replace);

/*
 * A long window's replacement: the new value's slot by a binary search on
 * the side of the old value's slot it belongs to, then one memmove of
 * the entries in between (a spread window's two values are a third of
 * it apart in rank on average: fewer instructions than one by one).
 */
static void med_replace_long(struct dcc_medwin *w, u32 *buf, u32 v)
{
	u32 n = w->n, i = med_replace_ring(w, buf, v), j;
	u32 *sorted = buf + w->cap;

	if (v > sorted[i]) {
		j = i + med_upper_bound(sorted + i + 1, n - i - 1, v);
		memmove(&sorted[i], &sorted[i + 1], (size_t)(j - i) * sizeof(u32));
	} else {
		j = med_upper_bound(sorted, i, v);
		memmove(&sorted[j + 1], &sorted[j], (size_t)(i - j) * sizeof(u32));
	}
	sorted[j] = v;
}

void dcc_medwin_push_slow(struct dcc_medwin *w, u32 *buf, u32 v, u16 h)
{
	u32 cap = w->cap, n = w->n;
	u32 *sorted = buf + cap;
	u32 i;

	h = clamp_val(h, (u16)1, w->cap);
	if (n >= h) {
		/* the newest replaces the oldest, then trim down to H */
		med_replace_long(w, buf, v);
		while (w->n > h)
			med_drop_oldest(w, buf);
		return;
	}
	/* the window grows by one (n < h <= cap: the ring has room) */
	buf[med_wrap(w->head + n, cap)] = v;
	i = med_upper_bound(sorted, n, v);
	memmove(&sorted[i + 1], &sorted[i], (size_t)(n - i) * sizeof(u32));
	sorted[i] = v;
	w->n = (u16)(n + 1);
}
DCC_EXPORT(dcc_medwin_push_slow);

int dcc_medbuf_init(struct dcc_medbuf *m, u16 cap)
{
	cap = clamp_val(cap, (u16)1, (u16)DCC_MED_CAP_MAX);
	m->buf = cap > DCC_MEDBUF_FALLBACK ? med_alloc(2 * (size_t)cap) : NULL;
	if (m->buf) {
		dcc_medwin_init(&m->w, cap);
		return 0;
	}
	m->buf = m->fb;
	dcc_medwin_init(&m->w, min_t(u16, cap, DCC_MEDBUF_FALLBACK));
	return cap > DCC_MEDBUF_FALLBACK ? -DCC_MED_ENOMEM : 0;
}
DCC_EXPORT(dcc_medbuf_init);

void dcc_medbuf_release(struct dcc_medbuf *m)
{
	if (m->buf && m->buf != m->fb)
		med_free(m->buf);
	m->buf = NULL;
	m->w.n = 0;
}
DCC_EXPORT(dcc_medbuf_release);
