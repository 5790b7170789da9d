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

/* First index i in s[0..n) with s[i] > v (insert after equal values). */
static u16 med_upper_bound(const u32 *s, u16 n, u32 v)
{
	u16 lo = 0, hi = n;

	while (lo < hi) {
		u16 mid = lo + (hi - lo) / 2;

		if (s[mid] <= v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* First index i in s[0..n) with s[i] >= v. */
static u16 med_lower_bound(const u32 *s, u16 n, u32 v)
{
	u16 lo = 0, hi = n;

	while (lo < hi) {
		u16 mid = lo + (hi - lo) / 2;

		if (s[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Remove the oldest sample from the ring and its copy from the sorted run. */
static void med_drop_oldest(struct dcc_medwin *w, u32 *buf)
{
	u32 *sorted = buf + w->cap;
	u32 old = buf[w->head];
	u16 i = med_lower_bound(sorted, w->n, old);

	memmove(&sorted[i], &sorted[i + 1], (size_t)(w->n - 1 - i) * sizeof(u32));
	w->head = (u16)((w->head + 1) % w->cap);
	w->n--;
}

void dcc_medwin_push(struct dcc_medwin *w, u32 *buf, u32 v, u16 h)
{
	u32 *sorted = buf + w->cap;
	u16 i;

	h = clamp_val(h, (u16)1, w->cap);
	if (w->n == w->cap)
		med_drop_oldest(w, buf);

	buf[(w->head + w->n) % w->cap] = v;
	i = med_upper_bound(sorted, w->n, v);
	memmove(&sorted[i + 1], &sorted[i], (size_t)(w->n - i) * sizeof(u32));
	sorted[i] = v;
	w->n++;

	while (w->n > h)
		med_drop_oldest(w, buf);
}
DCC_EXPORT(dcc_medwin_push);

u32 dcc_medwin_median(const struct dcc_medwin *w, const u32 *buf)
{
	const u32 *sorted = buf + w->cap;
	u32 a, b;

	if (!w->n)
		return 0;
	if (w->n & 1)
		return sorted[w->n / 2];
	a = sorted[w->n / 2 - 1];
	b = sorted[w->n / 2];
	return a + (b - a) / 2;		/* a <= b: no overflow */
}
DCC_EXPORT(dcc_medwin_median);

u32 dcc_medwin_percentile(const struct dcc_medwin *w, const u32 *buf, u32 pct)
{
	const u32 *sorted = buf + w->cap;
	u32 rank;

	if (!w->n)
		return 0;
	pct = min_t(u32, pct, 100);
	rank = (pct * w->n + 99) / 100;		/* ceil(pct/100 * n) */
	return sorted[rank ? rank - 1 : 0];
}
DCC_EXPORT(dcc_medwin_percentile);

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
