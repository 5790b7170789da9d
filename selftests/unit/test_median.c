// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of include/dcc/median.h and modules/dcc_lib/median.c against
 * a straightforward reference: the window is the list of the last pushed
 * values, trimmed from the oldest end to h (clamped to 1..cap) after each
 * push; median/percentile are order statistics of that list.
 */
#include <string.h>

#include "dcc/median.h"
#include "tap.h"

/* ---- reference window ------------------------------------------------ */

struct refwin {
	u32 v[DCC_MED_CAP_MAX];	/* oldest first */
	unsigned int n, cap;
};

static void ref_push(struct refwin *r, u32 v, u16 h)
{
	unsigned int hh = h < 1 ? 1 : h > r->cap ? r->cap : h;

	if (r->n == r->cap) {		/* full: the oldest falls out */
		memmove(r->v, r->v + 1, (r->n - 1) * sizeof(u32));
		r->n--;
	}
	r->v[r->n++] = v;
	if (r->n > hh) {		/* trim the oldest down to h */
		memmove(r->v, r->v + (r->n - hh), hh * sizeof(u32));
		r->n = hh;
	}
}

/* k-th smallest (0-based): quickselect with a 3-way partition */
static u32 ref_kth(const struct refwin *r, unsigned int k)
{
	static u32 t[DCC_MED_CAP_MAX];
	int lo = 0, hi = (int)r->n - 1, kk = (int)k;

	memcpy(t, r->v, r->n * sizeof(u32));
	for (;;) {
		u32 p = t[lo + (hi - lo) / 2], x;
		int lt = lo, i = lo, gt = hi;

		if (lo >= hi)
			return t[lo];
		/* t[lo,lt) < p, t[lt,i) == p, t(gt,hi] > p */
		while (i <= gt) {
			if (t[i] < p) {
				x = t[lt]; t[lt] = t[i]; t[i] = x;
				lt++;
				i++;
			} else if (t[i] > p) {
				x = t[gt]; t[gt] = t[i]; t[i] = x;
				gt--;
			} else {
				i++;
			}
		}
		if (kk < lt)
			hi = lt - 1;
		else if (kk > gt)
			lo = gt + 1;
		else
			return p;
	}
}

static u32 ref_median(const struct refwin *r)
{
	u64 a, b;

	if (!r->n)
		return 0;
	if (r->n & 1)
		return ref_kth(r, r->n / 2);
	a = ref_kth(r, r->n / 2 - 1);
	b = ref_kth(r, r->n / 2);
	return (u32)((a + b) / 2);
}

static u32 ref_percentile(const struct refwin *r, u32 pct)
{
	u64 rank;

	if (!r->n)
		return 0;
	rank = ((u64)pct * r->n + 99) / 100;	/* ceil(pct/100 * n) */
	return ref_kth(r, rank ? (unsigned int)rank - 1 : 0);
}

/* a sort-based cross-check of the quickselect reference itself */
static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static int ref_selfcheck(const struct refwin *r)
{
	static u32 t[DCC_MED_CAP_MAX];

	memcpy(t, r->v, r->n * sizeof(u32));
	qsort(t, r->n, sizeof(u32), cmp_u32);
	for (unsigned int k = 0; k < r->n; k++)
		if (ref_kth(r, k) != t[k])
			return 0;
	return 1;
}

/*
 * The window's own state against the reference: the ring holds the
 * reference list oldest first from head, and the sorted run is that list
 * sorted.  The median and percentiles follow from these; checking them
 * directly pins the push (replace-the-oldest shift, growth, trim) to the
 * exact window, not only to the order statistics read from it.
 */
static int win_matches_ref(const struct dcc_medwin *w, const u32 *buf,
			   const struct refwin *r)
{
	static u32 t[DCC_MED_CAP_MAX];
	const u32 *sorted = buf + w->cap;

	if (w->n != r->n || w->head >= w->cap)
		return 0;
	for (unsigned int k = 0; k < r->n; k++)
		if (buf[(w->head + k) % w->cap] != r->v[k])
			return 0;
	memcpy(t, r->v, r->n * sizeof(u32));
	qsort(t, r->n, sizeof(u32), cmp_u32);
	return !memcmp(t, sorted, r->n * sizeof(u32));
}

/* ---- value and h generators ----------------------------------------- */

static u32 gen_value(int dist)
{
	switch (dist) {
	case 0:				/* heavy duplicates */
		return (u32)rnd_range(0, 3);
	case 1:				/* small range */
		return (u32)rnd_range(0, 100);
	case 2:				/* extremes mixed in */
		switch (rnd_range(0, 3)) {
		case 0: return 0;
		case 1: return U32_MAX;
		case 2: return U32_MAX - 1;
		default: return (u32)rnd64();
		}
	default:			/* full range */
		return (u32)rnd64();
	}
}

static u16 gen_h(u16 cap, u16 cur)
{
	/*
	 * Mostly keep h, so that even a 1024 window fills up between
	 * changes; sometimes jump (incl. 0 and > cap, which are clamped).
	 */
	if (rnd_range(0, 3 * (u64)cap + 30))
		return cur;
	switch (rnd_range(0, 6)) {
	case 0: return 0;
	case 1: return 1;
	case 2: return cap;
	case 3: return (u16)(cap + rnd_range(1, 100));
	case 4: return 0xffff;
	case 5: return (u16)rnd_range(1, cap);
	default: return cur > 1 ? cur - 1 : cur + 1;	/* MSwift H = W/2 drift */
	}
}

/* ---- tests ------------------------------------------------------------ */

static void test_medwin_random(u16 cap, int pushes)
{
	u32 *buf = calloc(2 * (size_t)cap, sizeof(u32));
	struct dcc_medwin w;
	static struct refwin r;
	u16 h = cap;
	int dist = 0;
	u64 sum_n = 0, full = 0;

	tap_begin("medwin cap=%u: window, median, percentile == reference over %d pushes, h varying",
		  cap, pushes);
	memset(&r, 0, sizeof(r));
	r.cap = cap;
	/* buf is exactly 2*cap u32 on the heap: ASan flags any access past it */
	dcc_medwin_init(&w, cap);
	CHECK(dcc_medwin_median(&w, buf) == 0, "empty median");
	CHECK(dcc_medwin_percentile(&w, buf, 50) == 0, "empty percentile");
	for (int i = 0; i < pushes; i++) {
		u32 v, got, want, pct;

		if (i % 5000 == 0)
			dist = (int)rnd_range(0, 3);
		h = gen_h(cap, h);
		v = gen_value(dist);
		dcc_medwin_push(&w, buf, v, h);
		ref_push(&r, v, h);

		if (!CHECK(w.n == r.n, "push %d v=%u h=%u: n got=%u want=%u",
			   i, v, h, w.n, r.n))
			break;
		sum_n += r.n;
		full += r.n == cap;
		got = dcc_medwin_median(&w, buf);
		want = ref_median(&r);
		if (!CHECK(got == want,
			   "push %d v=%u h=%u n=%u: median got=%u want=%u",
			   i, v, h, r.n, got, want))
			break;
		pct = (i & 7) == 0 ? 0 : (i & 7) == 1 ? 100 :
		      (u32)rnd_range(0, 100);
		got = dcc_medwin_percentile(&w, buf, pct);
		want = ref_percentile(&r, pct);
		if (!CHECK(got == want,
			   "push %d n=%u: p%u got=%u want=%u", i, r.n, pct,
			   got, want))
			break;
		if ((i & 1023) == 0)
			CHECK(ref_selfcheck(&r), "reference quickselect broken");
		/* every push up to cap 128 (MSwift's default H cap), else sampled */
		if ((cap <= 128 || i % 61 == 0) &&
		    !CHECK(win_matches_ref(&w, buf, &r),
			   "push %d v=%u h=%u n=%u: ring/sorted run differ from the window",
			   i, v, h, r.n))
			break;
	}
	free(buf);
	tap_diag("cap=%u: mean window %.1f, %llu pushes on a full window", cap,
		 (double)sum_n / pushes, (unsigned long long)full);
	CHECK(full > 0, "cap=%u: the window never filled", cap);
	tap_end();
}

/* medians of 1..4 values straight from the definition */
static u32 def_median(const u32 *v, unsigned int n)
{
	u32 t[8];

	if (!n)
		return 0;
	memcpy(t, v, n * sizeof(u32));
	qsort(t, n, sizeof(u32), cmp_u32);
	if (n & 1)
		return t[n / 2];
	return (u32)(((u64)t[n / 2 - 1] + t[n / 2]) / 2);
}

static void test_med4_exhaustive(void)
{
	static const u32 alpha[] = { 0, 1, 2, U32_MAX - 1, U32_MAX };
	const int na = 5, len = 6;
	int total = 1;

	for (int i = 0; i < len; i++)
		total *= na;
	tap_begin("med4: exhaustive value sequences (5^6) x h patterns vs definition");
	for (int hp = 0; hp < 8; hp++) {
		for (int code = 0; code < total; code++) {
			struct dcc_med4 m;
			u32 win[8];
			unsigned int n = 0;
			int c = code;

			dcc_med4_init(&m);
			for (int i = 0; i < len; i++) {
				u32 v = alpha[c % na];
				/* h patterns: constant 0..5, then two varying */
				u16 h = hp < 6 ? (u16)hp :
					hp == 6 ? (u16)((code >> i) % 5) :
					(u16)(4 - i % 4);
				unsigned int hh = h < 1 ? 1 : h > 4 ? 4 : h;
				u32 got, want;

				c /= na;
				if (n == 4) {
					memmove(win, win + 1, 3 * sizeof(u32));
					n--;
				}
				win[n++] = v;
				if (n > hh) {
					memmove(win, win + n - hh,
						hh * sizeof(u32));
					n = hh;
				}
				got = dcc_med4_push(&m, v, h);
				want = def_median(win, n);
				if (!CHECK(got == want && m.w.n == n,
					   "code=%d hp=%d step=%d v=%u h=%u: got=%u (n=%u) want=%u (n=%u)",
					   code, hp, i, v, h, got, m.w.n, want,
					   n))
					break;
			}
		}
	}
	tap_end();

	tap_begin("med4: exhaustive h sequences (0..5)^6 on a fixed value stream");
	total = 1;
	for (int i = 0; i < len; i++)
		total *= 6;
	for (int code = 0; code < total; code++) {
		static const u32 vals[] = { 7, U32_MAX, 0, 7, 3, U32_MAX };
		struct dcc_med4 m;
		u32 win[8];
		unsigned int n = 0;
		int c = code;

		dcc_med4_init(&m);
		for (int i = 0; i < len; i++) {
			u16 h = (u16)(c % 6);
			unsigned int hh = h < 1 ? 1 : h > 4 ? 4 : h;
			u32 got, want;

			c /= 6;
			if (n == 4) {
				memmove(win, win + 1, 3 * sizeof(u32));
				n--;
			}
			win[n++] = vals[i];
			if (n > hh) {
				memmove(win, win + n - hh, hh * sizeof(u32));
				n = hh;
			}
			got = dcc_med4_push(&m, vals[i], h);
			want = def_median(win, n);
			if (!CHECK(got == want,
				   "code=%d step=%d h=%u got=%u want=%u", code,
				   i, h, got, want))
				break;
		}
	}
	tap_end();
}

static void test_med3_exhaustive(void)
{
	static const u32 set[] = {
		0, 1, 2, 3, 4, 5, 6, 7, 1U << 31, U32_MAX - 1, U32_MAX,
	};
	const int ns = sizeof(set) / sizeof(set[0]);

	tap_begin("med3: exhaustive over 11^3 triples (0..7 and extremes) vs sort");
	for (int i = 0; i < ns; i++)
		for (int j = 0; j < ns; j++)
			for (int k = 0; k < ns; k++) {
				u32 v[3] = { set[i], set[j], set[k] };
				u32 got = dcc_med3(v[0], v[1], v[2]);
				u32 want = def_median(v, 3);

				CHECK(got == want, "med3(%u,%u,%u) got=%u want=%u",
				      v[0], v[1], v[2], got, want);
			}
	tap_end();
}

/* Hand-checked values of the documented definitions. */
static void test_medwin_definitions(void)
{
	u32 buf[2 * 8];
	struct dcc_medwin w;

	tap_begin("medwin: documented definitions on hand-checked windows");
	dcc_medwin_init(&w, 8);
	dcc_medwin_push(&w, buf, 10, 8);
	CHECK(dcc_medwin_median(&w, buf) == 10, "one sample");
	dcc_medwin_push(&w, buf, 21, 8);
	CHECK(dcc_medwin_median(&w, buf) == 15, "even n: mean rounded down");
	dcc_medwin_push(&w, buf, U32_MAX, 8);
	dcc_medwin_push(&w, buf, U32_MAX, 8);
	CHECK(dcc_medwin_median(&w, buf) == (u32)(((u64)21 + U32_MAX) / 2),
	      "no overflow in the mean: got %u", dcc_medwin_median(&w, buf));
	/* window {10, 21, MAX, MAX}: nearest rank */
	CHECK(dcc_medwin_percentile(&w, buf, 0) == 10, "p0 = min");
	CHECK(dcc_medwin_percentile(&w, buf, 25) == 10, "p25: rank 1");
	CHECK(dcc_medwin_percentile(&w, buf, 26) == 21, "p26: rank 2");
	CHECK(dcc_medwin_percentile(&w, buf, 50) == 21, "p50: rank 2");
	CHECK(dcc_medwin_percentile(&w, buf, 51) == U32_MAX, "p51: rank 3");
	CHECK(dcc_medwin_percentile(&w, buf, 100) == U32_MAX, "p100 = max");
	/* shrink to h = 2 drops the OLDEST (10 and 21), not the smallest */
	dcc_medwin_push(&w, buf, 5, 2);
	CHECK(w.n == 2, "n after trim: %u", w.n);
	CHECK(dcc_medwin_median(&w, buf) == (u32)(((u64)5 + U32_MAX) / 2),
	      "trim keeps {MAX, 5}: got %u", dcc_medwin_median(&w, buf));
	CHECK(dcc_medwin_percentile(&w, buf, 0) == 5, "min of {MAX,5}");
	/* grow again: old samples do not come back */
	dcc_medwin_push(&w, buf, 6, 8);
	CHECK(w.n == 3 && dcc_medwin_median(&w, buf) == 6, "regrow: n=%u med=%u",
	      w.n, dcc_medwin_median(&w, buf));
	/* h = 0 is clamped to 1: the newest sample only */
	dcc_medwin_push(&w, buf, 99, 0);
	CHECK(w.n == 1 && dcc_medwin_median(&w, buf) == 99, "h=0 -> 1");
	tap_end();
}

/*
 * dcc_medbuf: heap window (the kernel's GFP_NOWAIT buffer) matches the
 * definition; a failed allocation falls back to a 3-sample window; release
 * is safe on a zeroed struct and after a fallback (ASan: no bad free, no
 * leak).
 */
/* sort-based median of any n (mean of the two middles, rounded down) */
static u32 ref_median_sorted(u32 *v, int n)
{
	qsort(v, (size_t)n, sizeof(u32), cmp_u32);
	return n & 1 ? v[n / 2] : v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

static void test_medbuf(void)
{
	struct dcc_medbuf m, z = { 0 };
	u32 hist[128];
	int n = 0;

	tap_begin("medbuf: heap window == definition; failed alloc -> 3-tap fallback; safe release");
	CHECK(dcc_medbuf_init(&m, 128) == 0 && m.buf != m.fb && m.w.cap == 128,
	      "init cap 128: buf %p fb %p cap %u", (void *)m.buf, (void *)m.fb, m.w.cap);
	for (int i = 0; i < 5000; i++) {
		u32 v = (u32)rnd_range(0, 1000), h = (u32)rnd_range(1, 128);
		u32 got = dcc_medbuf_push(&m, v, (u16)h);
		u32 last[128];
		int k;

		hist[n % 128] = v;
		n++;
		/* the window holds at most h of the newest samples; trimming
		 * only drops, so its size is min(h, what it held + 1) */
		k = m.w.n;
		for (int j = 0; j < k; j++)
			last[j] = hist[(n - k + j) % 128];
		u32 want = ref_median_sorted(last, k);

		CHECK(got == want, "push %d h %u n %d: got %u want %u", i, h, k, got, want);
	}
	dcc_medbuf_release(&m);
	CHECK(m.buf == NULL, "release clears buf");

	dcc_medbuf_fail_allocs = 1;
	CHECK(dcc_medbuf_init(&m, 128) == -12 && m.buf == m.fb &&
	      m.w.cap == DCC_MEDBUF_FALLBACK, "failed alloc: ret, fallback cap %u", m.w.cap);
	dcc_medbuf_push(&m, 5, 128);
	dcc_medbuf_push(&m, 1000000, 128);	/* one outlier in three */
	CHECK(dcc_medbuf_push(&m, 7, 128) == 7, "fallback is a 3-tap median");
	dcc_medbuf_release(&m);
	dcc_medbuf_release(&z);		/* init never ran */
	CHECK(z.buf == NULL, "release on a zeroed struct");
	tap_end();
}

int main(void)
{
	static const u16 caps[] = { 1, 2, 3, 4, 7, 64, 128, 1024 };

	tap_header();
	tap_seed_from_env();
	test_medwin_definitions();
	for (unsigned int i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
		test_medwin_random(caps[i], 100000);
	test_med4_exhaustive();
	test_med3_exhaustive();
	test_medbuf();
	return tap_done();
}
