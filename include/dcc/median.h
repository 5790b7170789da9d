/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sliding-window median (and percentile) of the last H samples.
 *
 * MSwift and MNSCC replace the per-ACK delay with the median of the last
 * H delays so that a minority of packets crossing congested paths cannot
 * drive the controller ("Congestion Control for Spraying with Congested
 * Paths", Thm 6); CCC/OSCAR can use a 3-tap median as a spike prefilter.
 *
 * The window keeps two arrays of the same capacity in caller-provided
 * storage: a ring in arrival order and the same values sorted.  A push on a
 * window at its size H replaces the oldest sample: one binary search for
 * it in the sorted run, then the entries between its rank and the new
 * sample's shift by one (O(H) moves at worst, as many as the two values
 * are apart in rank: one by one up to DCC_MED_SHORT samples, past that
 * after a second search, in one memmove); a push that grows the window is
 * a binary search and one shift of the tail.  No division, no
 * allocation, nothing sleeps; a median is O(1), inline.  H may change
 * from push to push (MSwift's H = W/2 follows cwnd): the window trims its
 * oldest samples down to the requested H, and grows again as new samples
 * arrive.
 *
 * Storage: u32 buf[2 * cap].  Small windows live inline in icsk_ca_priv
 * (struct dcc_med4: cap 4, 36 bytes); large ones in a buffer the module
 * allocates with GFP_NOWAIT in init and frees in release, falling back to
 * a 3-sample inline window when that allocation fails (struct dcc_medbuf).
 */
#ifndef _DCC_MEDIAN_H
#define _DCC_MEDIAN_H

#include "fixp.h"

#define DCC_MED_CAP_MAX 1024

struct dcc_medwin {
	u16 cap;	/* capacity of each array in buf */
	u16 n;		/* samples held, <= cap */
	u16 head;	/* ring index of the oldest sample */
	u16 pad;
};

/* Inline window of up to 4 samples (MNSCC's H <= 4, 3-tap prefilters). */
struct dcc_med4 {
	struct dcc_medwin w;
	u32 buf[2 * 4];
};

/* @cap in 1..DCC_MED_CAP_MAX; @buf must hold 2 * cap u32. */
void dcc_medwin_init(struct dcc_medwin *w, u16 cap);

/*
 * The two halves of a push (dcc_medwin_push).  dcc_medwin_replace(): @v
 * replaces the oldest sample of a window of n >= 1 samples, moving the
 * sorted entries in between one by one (it calls nothing: the step of a
 * short window at its size).  dcc_medwin_push_slow(): any push (the
 * window grows by one, or the newest replaces the oldest, by a search and
 * a memmove, and the window is trimmed down to @h, clamped to 1..cap).
 */
#define DCC_MED_SHORT 16
void dcc_medwin_replace(struct dcc_medwin *w, u32 *buf, u32 v);
void dcc_medwin_push_slow(struct dcc_medwin *w, u32 *buf, u32 v, u16 h);

/*
 * Push @v, then drop the oldest samples until at most @h remain
 * (h is clamped to 1..cap).
 */
static inline void dcc_medwin_push(struct dcc_medwin *w, u32 *buf, u32 v, u16 h)
{
	/* the common case: a short window at its size, the oldest goes */
	if (likely(w->n == clamp_val(h, (u16)1, w->cap) && w->n <= DCC_MED_SHORT))
		dcc_medwin_replace(w, buf, v);
	else
		dcc_medwin_push_slow(w, buf, v, h);
}

/*
 * Median of the samples held: the middle one for odd n, the mean of the
 * two middle ones (rounded down) for even n; 0 when empty.  Inline: a
 * load or two, read after every push.
 */
static inline u32 dcc_medwin_median(const struct dcc_medwin *w, const u32 *buf)
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

/*
 * Nearest-rank percentile, @pct in 0..100 (0 = min, 100 = max,
 * rank = ceil(pct/100 * n)); 0 when empty.
 */
static inline u32 dcc_medwin_percentile(const struct dcc_medwin *w, const u32 *buf,
					u32 pct)
{
	const u32 *sorted = buf + w->cap;
	u32 rank;

	if (!w->n)
		return 0;
	pct = min_t(u32, pct, 100);
	rank = (pct * w->n + 99) / 100;		/* ceil(pct/100 * n) */
	return sorted[rank ? rank - 1 : 0];
}

static inline void dcc_med4_init(struct dcc_med4 *m)
{
	dcc_medwin_init(&m->w, 4);
}

static inline u32 dcc_med4_push(struct dcc_med4 *m, u32 v, u16 h)
{
	dcc_medwin_push(&m->w, m->buf, v, h);
	return dcc_medwin_median(&m->w, m->buf);
}

/*
 * A window whose storage lives outside icsk_ca_priv (MSwift's H up to 128):
 * dcc_medbuf_init() allocates 2 * cap u32 with GFP_NOWAIT | __GFP_NOWARN
 * (init may run in softirq on a passive open; nothing may sleep) and, if
 * that fails, falls back to the inline 3-sample window (a 3-tap median:
 * degraded, still robust to one outlier in three).  dcc_medbuf_release()
 * frees it and is safe on a zero-filled struct whose init never ran
 * (release also runs for sockets closed before init).  40 bytes.
 */
#define DCC_MEDBUF_FALLBACK 3

struct dcc_medbuf {
	struct dcc_medwin w;
	u32 *buf;			/* heap storage, or fb */
	u32 fb[2 * DCC_MEDBUF_FALLBACK];
};

/* 0 on success; -ENOMEM (12) when the fallback window is in use. */
int dcc_medbuf_init(struct dcc_medbuf *m, u16 cap);
void dcc_medbuf_release(struct dcc_medbuf *m);

/* Push @v (window trimmed to @h, clamped to the capacity), return the median. */
static inline u32 dcc_medbuf_push(struct dcc_medbuf *m, u32 v, u16 h)
{
	dcc_medwin_push(&m->w, m->buf, v, h);
	return dcc_medwin_median(&m->w, m->buf);
}

#ifndef __KERNEL__
/* userspace tests: make the next N dcc_medbuf_init() allocations fail */
extern int dcc_medbuf_fail_allocs;
#endif

/* Median of three, branch-light (3-tap spike filter). */
static inline u32 dcc_med3(u32 a, u32 b, u32 c)
{
	u32 lo = min(a, b), hi = max(a, b);

	return max(lo, min(hi, c));
}

#endif /* _DCC_MEDIAN_H */
