// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for dcc's shared math (built with
 * -fsanitize=fuzzer,address,undefined: any UB aborts the run).
 *
 * The first input byte picks a mode:
 *   BLS     arbitrary configuration (tau, stale, shift, min_samples,
 *           units_per_sec 1e6/1e9, bytes_per_pkt) and an arbitrary
 *           sample stream (steps, jumps, reordering, u64 wrap, bursts of
 *           thousands of samples, resets) fed to dcc_bls_add().  A model
 *           tracks batch membership from the header's rules alone and every
 *           closed batch is checked:
 *             - it closes exactly when the header says (span >= tau and
 *               n >= max(2, min_samples); n == N_MAX; span > stale);
 *             - samples == points since the origin, <= DCC_BLS_N_MAX,
 *               pkts == sum of the (capped) packet counts;
 *             - stale: rate 0, gradient 0, grad_valid false;
 *             - |grad_q16| <= DCC_BLS_GRAD_MAX_Q16 and, unless y was
 *               clamped to +-Y_MAX, equal to the exact least-squares slope
 *               (2 Q16 LSB + 1e-6 relative);
 *             - delay within [min, max] of the batch's delays (and within
 *               one unit of the exact mean when nothing was clamped);
 *             - rate == pkts * bytes_per_pkt * units_per_sec / span and
 *               inflight == packet-weighted mean, both +-1 (saturating);
 *             - a second estimator fed the same stream through
 *               dcc_bls_push() first (dcc_bls_add() for what it leaves)
 *               holds the same state after every sample and closes the
 *               same batches: the inline step is invisible.
 *   MEDWIN  dcc_medwin_* (and dcc_med4/dcc_med3) against a sort-based
 *           reference window, random cap and h.
 *   MULDIV  dcc_mul_div / rate helpers against __int128, dcc_log2_q16
 *           against log2l.
 *
 * Delays are kept below 2^32 << shift: the estimator keeps the batch's
 * first delay (y0) in a u32 of shifted units, a limit bls.h states
 * (see the unit test "delays beyond 2^32 units").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcc/bls.h"
#include "dcc/median.h"

typedef unsigned __int128 u128;
typedef __int128 s128;

#define ASSERT(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "fuzz_bls.c:%d: assertion failed: %s: ", \
				__LINE__, #cond);			\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			abort();					\
		}							\
	} while (0)

/*
 * The model and its checks are not what we want coverage feedback from,
 * and their comparison tracing costs more than the estimator itself.
 */
#if defined(__clang__) && __clang_major__ >= 13
#define HARNESS __attribute__((no_sanitize("coverage")))
#else
#define HARNESS
#endif

/* ---- input reader: little-endian, zeros once the input runs out ------- */

struct rd {
	const u8 *p;
	size_t n;
};

static u64 rd(struct rd *r, int bytes)
{
	u64 v = 0;

	for (int i = 0; i < bytes; i++) {
		u64 b = 0;

		if (r->n) {
			b = *r->p++;
			r->n--;
		}
		v |= b << (8 * i);
	}
	return v;
}

/* ---- BLS ------------------------------------------------------------------- */

#define MAX_ADDS 12000

static struct dcc_bls_sample batch[DCC_BLS_N_MAX + 2];	/* since origin */

struct model {
	struct dcc_bls b;
	struct dcc_bls pb;	/* the same stream, dcc_bls_push() first */
	struct dcc_bls_cfg cfg;
	u64 t0;
	int started;
	u32 n;			/* samples in batch[] */
	u32 min_n;		/* effective min_samples */
	u64 stale;		/* effective stale limit */
	u64 span_max;		/* dcc_bls_push()'s: <= stale, fits x */
	u64 dlimit;		/* largest delay fed (see top comment) */
	u64 adds;
};

static u32 pk_lo(u32 p)
{
	return p > DCC_BLS_PKTS_MAX ? DCC_BLS_PKTS_MAX : p;
}

static u32 pk_hi(u32 p)
{
	return p < 1 ? 1 : pk_lo(p);
}

/* the estimator treats cfg->shift above DCC_BLS_SHIFT_MAX as the maximum */
static u8 eff_shift(const struct dcc_bls_cfg *c)
{
	return c->shift < DCC_BLS_SHIFT_MAX ? c->shift : DCC_BLS_SHIFT_MAX;
}

HARNESS static void check_batch(const struct model *m, const struct dcc_bls_out *o,
			int want_stale, s64 x_last, u64 span_last)
{
	const struct dcc_bls_cfg *c = &m->cfg;
	u8 s = eff_shift(c);
	u64 lo = 0, hi = 0, dmin = U64_MAX, dmax = 0;
	u64 y0s = batch[0].delay >> s;
	int clamped = y0s > U32_MAX;
	s128 sx = 0, sy = 0, sxx = 0, sxy = 0, n = m->n;
	u128 dsum = 0;

	ASSERT(o->samples == m->n, "samples %u, model %u", o->samples, m->n);
	ASSERT(o->samples >= 1 && o->samples <= DCC_BLS_N_MAX, "samples %u",
	       o->samples);
	ASSERT(!!o->stale == !!want_stale, "stale %d, want %d (span %llu stale %llu x %lld)",
	       o->stale, want_stale, (unsigned long long)span_last,
	       (unsigned long long)m->stale, (long long)x_last);
	for (u32 i = 0; i < m->n; i++) {
		const struct dcc_bls_sample *p = &batch[i];
		s64 x = (s64)(p->send_ts - m->t0) >> s;
		s64 y = (s64)(p->delay >> s) - (s64)y0s;

		lo += pk_lo(p->pkts);
		hi += pk_hi(p->pkts);
		dmin = p->delay < dmin ? p->delay : dmin;
		dmax = p->delay > dmax ? p->delay : dmax;
		dsum += p->delay >> s;
		if (y > DCC_BLS_Y_MAX || y < -DCC_BLS_Y_MAX)
			clamped = 1;
		if (i == m->n - 1 && want_stale)
			x = 0;	/* out of range: not a regression point */
		ASSERT(x >= -DCC_BLS_X_MAX && x <= DCC_BLS_X_MAX,
		       "model: x %lld out of range in a batch", (long long)x);
		sx += x;
		sy += y;
		sxx += (s128)x * x;
		sxy += (s128)x * y;
	}
	ASSERT(o->pkts >= lo && o->pkts <= hi, "pkts %u not in [%llu, %llu]",
	       o->pkts, (unsigned long long)lo, (unsigned long long)hi);

	/* delay: inside the batch's range, and the mean if nothing clamped */
	ASSERT(o->delay >= ((dmin >> s) << s) && o->delay <= dmax,
	       "delay %llu outside [%llu, %llu] (shift %u, n %u)",
	       (unsigned long long)o->delay, (unsigned long long)dmin,
	       (unsigned long long)dmax, s, m->n);
	if (!clamped) {
		s128 e = (s128)(o->delay >> s) * n - (s128)dsum;

		ASSERT(e <= 2 * n && e >= -2 * n,
		       "delay %llu not the mean (sum %llu / %u, shift %u)",
		       (unsigned long long)o->delay, (unsigned long long)dsum,
		       m->n, s);
	}

	/* inflight: packet-weighted mean * bytes_per_pkt */
	{
		int zeros_as_one = o->pkts == hi;
		u128 isum = 0, psum = 0;

		for (u32 i = 0; i < m->n; i++) {
			u32 p = zeros_as_one ? pk_hi(batch[i].pkts) :
				pk_lo(batch[i].pkts);
			u32 in = batch[i].infl > DCC_BLS_INFL_MAX ?
				 DCC_BLS_INFL_MAX : batch[i].infl;

			isum += (u128)in * p;
			psum += p;
		}
		if (psum) {
			u128 want = isum * c->bytes_per_pkt / psum;

			ASSERT((u128)o->infl_bytes + 1 >= want &&
			       o->infl_bytes <= want + 1,
			       "infl_bytes %llu want %llu",
			       (unsigned long long)o->infl_bytes,
			       (unsigned long long)want);
		}
	}

	if (want_stale) {
		ASSERT(o->rate_bytes_ps == 0 && o->grad_q16 == 0 && !o->grad_valid,
		       "stale batch: rate %llu grad %d valid %d",
		       (unsigned long long)o->rate_bytes_ps, o->grad_q16,
		       o->grad_valid);
		return;
	}

	/* span and rate */
	if (x_last > 0)
		ASSERT(o->span == span_last, "span %llu want %llu",
		       (unsigned long long)o->span,
		       (unsigned long long)span_last);
	if (o->span) {
		u128 want = (u128)o->pkts * c->bytes_per_pkt * c->units_per_sec /
			    o->span;
		u64 w = want > U64_MAX ? U64_MAX : (u64)want;

		ASSERT((u128)o->rate_bytes_ps + 1 >= w && o->rate_bytes_ps <= (u128)w + 1,
		       "rate %llu want %llu (pkts %u span %llu)",
		       (unsigned long long)o->rate_bytes_ps, (unsigned long long)w,
		       o->pkts, (unsigned long long)o->span);
	} else {
		ASSERT(o->rate_bytes_ps == 0, "rate %llu over span 0",
		       (unsigned long long)o->rate_bytes_ps);
	}

	/* gradient */
	ASSERT(o->grad_q16 <= DCC_BLS_GRAD_MAX_Q16 &&
	       o->grad_q16 >= -DCC_BLS_GRAD_MAX_Q16, "grad %d", o->grad_q16);
	{
		s128 num = n * sxy - sx * sy, den = n * sxx - sx * sx;

		ASSERT(!!o->grad_valid == (den > 0), "grad_valid %d, den %s 0",
		       o->grad_valid, den > 0 ? ">" : "<=");
		if (den <= 0) {
			ASSERT(o->grad_q16 == 0, "invalid grad %d", o->grad_q16);
		} else if (!clamped) {
			long double g = (long double)num / (long double)den * 65536.0L;

			if (g > DCC_BLS_GRAD_MAX_Q16)
				g = DCC_BLS_GRAD_MAX_Q16;
			if (g < -DCC_BLS_GRAD_MAX_Q16)
				g = -DCC_BLS_GRAD_MAX_Q16;
			ASSERT(fabsl(o->grad_q16 - g) <= 2.0L + 1e-6L * fabsl(g),
			       "grad %d want %.3Lf (n %u)", o->grad_q16, g, m->n);
		}
	}
}

HARNESS static void model_add(struct model *m, u64 ts, u64 delay, u32 pkts, u32 infl)
{
	struct dcc_bls_sample s = {
		.send_ts = ts, .delay = delay > m->dlimit ? m->dlimit : delay,
		.pkts = pkts, .infl = infl,
	};
	struct dcc_bls_out o, po;
	bool pushed, pr;
	u64 span = ts - m->t0;
	s64 x = (s64)span >> eff_shift(&m->cfg);
	int origin = !m->started || x < -DCC_BLS_X_MAX;
	int want_stale = 0, want_close = 0;
	bool r;

	m->adds++;
	if (!origin) {
		batch[m->n++] = s;
		want_stale = x > 0 && (span > m->stale || x > DCC_BLS_X_MAX);
		want_close = want_stale ||
			     (x > 0 && span >= m->cfg.tau && m->n >= m->min_n) ||
			     m->n >= DCC_BLS_N_MAX;
	}
	memset(&o, 0x5a, sizeof(o));
	memset(&po, 0x5a, sizeof(po));
	r = dcc_bls_add(&m->b, &m->cfg, &s, &o);
	/*
	 * The inline step takes what it can and leaves the rest to
	 * dcc_bls_add(), invisibly: the same state, the same batches.
	 */
	pushed = dcc_bls_push(&m->pb, &s, m->span_max, eff_shift(&m->cfg));
	pr = !pushed && dcc_bls_add(&m->pb, &m->cfg, &s, &po);
	ASSERT(pr == r && !memcmp(&m->pb, &m->b, sizeof(m->b)) &&
	       (!r || !memcmp(&po, &o, sizeof(o))),
	       "push path diverged (pushed %d, closed %d/%d, n %u/%u)", pushed,
	       pr, r, m->pb.n, m->b.n);
	ASSERT(!pushed || (!origin && !want_close),
	       "pushed an origin or a closing point (x %lld, n %u)",
	       (long long)x, m->n);
	ASSERT(r == want_close,
	       "closed=%d want %d (origin %d, x %lld, span %llu, n %u, tau %llu, min %u)",
	       r, want_close, origin, (long long)x, (unsigned long long)span,
	       m->n, (unsigned long long)m->cfg.tau, m->min_n);
	if (r)
		check_batch(m, &o, want_stale, x, span);
	if (origin || r) {
		m->t0 = ts;
		m->started = 1;
		m->n = 0;
	}
	ASSERT(m->b.n == m->n, "estimator holds %u points, model %u", m->b.n,
	       m->n);
}

static void fuzz_bls(struct rd *in)
{
	static struct model m;
	u8 flags = (u8)rd(in, 1);
	u64 ts, base, seed;

	memset(&m, 0, sizeof(m));
	m.cfg.units_per_sec = flags & 1 ? DCC_NSEC_PER_SEC : DCC_USEC_PER_SEC;
	m.cfg.tau = rd(in, 5) & ((1ULL << 36) - 1);
	if (flags & 2)
		m.cfg.tau &= 0xfff;
	m.cfg.stale = flags & 4 ? rd(in, 5) : 0;
	m.cfg.shift = flags & 8 ? (u8)(rd(in, 1) % 64) :
		      dcc_bls_shift_for(m.cfg.tau);
	m.cfg.min_samples = (u32)rd(in, 2);
	m.cfg.bytes_per_pkt = flags & 16 ? (u32)rd(in, 4) : 1448;
	m.min_n = m.cfg.min_samples < 2 ? 2 :
		  m.cfg.min_samples > DCC_BLS_N_MAX ? DCC_BLS_N_MAX :
		  m.cfg.min_samples;
	m.stale = m.cfg.stale ? m.cfg.stale : 4 * m.cfg.tau;
	/* the largest span dcc_bls_push() may take, or a smaller one */
	m.span_max = ((u64)(DCC_BLS_X_MAX + 1) << eff_shift(&m.cfg)) - 1;
	if (m.stale < m.span_max)
		m.span_max = m.stale;
	if (flags & 128)
		m.span_max >>= rd(in, 1) % 64;
	m.dlimit = eff_shift(&m.cfg) >= 32 ? U64_MAX :
		   ((u64)U32_MAX << eff_shift(&m.cfg)) | ((1ULL << eff_shift(&m.cfg)) - 1);
	ts = flags & 32 ? rd(in, 8) : (u64)0 - rd(in, 3);	/* near the wrap */
	base = rd(in, 4) << (flags & 64 ? eff_shift(&m.cfg) : 0);
	seed = 0x9e3779b97f4a7c15ULL ^ ts;
	dcc_bls_reset(&m.b);
	dcc_bls_reset(&m.pb);

	while (in->n && m.adds < MAX_ADDS) {
		u8 op = (u8)rd(in, 1);
		u32 pkts, infl;
		u64 d = base;

		switch ((op >> 3) & 3) {
		case 0: pkts = 1; break;
		case 1: pkts = (u32)rd(in, 1); break;
		case 2: pkts = (u32)rd(in, 2) + 1; break;
		default: pkts = (u32)rd(in, 4); break;
		}
		infl = op & 0x20 ? (u32)rd(in, 4) : 10;
		if (op & 0x40)
			d = base + rd(in, 2);

		switch (op & 7) {
		case 0:		/* small step */
			ts += rd(in, 1);
			break;
		case 1:		/* medium step, delay offset either way */
			ts += rd(in, 2);
			d = base + (u64)(s64)(s16)rd(in, 2);
			break;
		case 2:		/* jump (idle gap, beyond X_MAX, ...) */
			ts += rd(in, 5);
			break;
		case 3:		/* back in time (reordering or a clock step) */
			ts -= op & 0x80 ? rd(in, 4) : rd(in, 2);
			break;
		case 4:		/* arbitrary time and delay */
			ts = rd(in, 8);
			d = rd(in, 8);
			break;
		case 5: {	/* burst: a linear queue with noise */
			u32 cnt = (u32)(rd(in, 2) % 5000);
			u64 step = rd(in, 2) + 1;
			s64 slope = (s8)rd(in, 1);	/* /16 */
			u64 noise = rd(in, 1);
			u64 q = 0;

			for (u32 i = 0; i < cnt && m.adds < MAX_ADDS; i++) {
				seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
				ts += seed >> 60 ? step : 0;
				q = (u64)((s64)q + slope * (s64)step / 16);
				if ((s64)q < 0)
					q = 0;
				d = base + q + (noise ? (seed >> 20) % (noise + 1) : 0);
				model_add(&m, ts, d, pkts, infl);
			}
			continue;
		}
		case 6:		/* caller resets the estimator */
			dcc_bls_reset(&m.b);
			dcc_bls_reset(&m.pb);
			m.started = 0;
			m.n = 0;
			continue;
		default:	/* new base delay */
			base = op & 0x80 ? rd(in, 8) : rd(in, 4);
			d = base;
			break;
		}
		model_add(&m, ts, d, pkts, infl);
	}
}

/* ---- sliding-window median ---------------------------------------------- */

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

HARNESS static void ref_drop_oldest(u32 *win, u32 *sorted, u32 *n)
{
	u32 i = 0;

	while (sorted[i] != win[0])
		i++;
	memmove(sorted + i, sorted + i + 1, (*n - 1 - i) * sizeof(u32));
	memmove(win, win + 1, (*n - 1) * sizeof(u32));
	(*n)--;
}

static void fuzz_medwin(struct rd *in)
{
	static u32 buf[2 * DCC_MED_CAP_MAX], win[DCC_MED_CAP_MAX],
		   sorted[DCC_MED_CAP_MAX];
	u16 cap = (u16)(rd(in, 2) % DCC_MED_CAP_MAX + 1);
	struct dcc_med4 m4;
	struct dcc_medwin w;
	u32 n = 0, *b = buf;
	int use4 = cap == 4;
	u16 h = cap;

	if (use4) {
		dcc_med4_init(&m4);
		b = m4.buf;
	} else {
		dcc_medwin_init(&w, cap);
	}
	for (int step = 0; in->n && step < 5000; step++) {
		u8 op = (u8)rd(in, 1);
		u32 v, got, want, pct, hh;

		switch (op & 3) {
		case 0: break;
		case 1: h = (u16)rd(in, 2); break;
		case 2: h = (u16)(rd(in, 1) % (cap + 2)); break;
		default: h = cap; break;
		}
		switch ((op >> 2) & 3) {
		case 0: v = (u32)rd(in, 1); break;
		case 1: v = (u32)rd(in, 4); break;
		case 2: v = 0; break;
		default: v = U32_MAX - (u32)rd(in, 1); break;
		}
		if (use4) {
			got = dcc_med4_push(&m4, v, h);
		} else {
			dcc_medwin_push(&w, buf, v, h);
			got = dcc_medwin_median(&w, buf);
		}
		/*
		 * Reference: the last values in arrival order, the oldest
		 * trimmed down to clamp(h); a sorted copy kept by linear
		 * search (independent of the binary searches in median.c).
		 */
		hh = h < 1 ? 1 : h > cap ? cap : h;
		if (n == cap)
			ref_drop_oldest(win, sorted, &n);
		{
			u32 i = n;

			while (i > 0 && sorted[i - 1] > v) {
				sorted[i] = sorted[i - 1];
				i--;
			}
			sorted[i] = v;
			win[n++] = v;
		}
		while (n > hh)
			ref_drop_oldest(win, sorted, &n);
		want = n & 1 ? sorted[n / 2] :
		       (u32)(((u64)sorted[n / 2 - 1] + sorted[n / 2]) / 2);
		ASSERT((use4 ? m4.w.n : w.n) == n, "cap %u: n %u want %u", cap,
		       use4 ? m4.w.n : w.n, n);
		ASSERT(got == want, "cap %u n %u: median %u want %u", cap, n, got,
		       want);
		pct = (u32)(rd(in, 1) % 101);
		got = dcc_medwin_percentile(use4 ? &m4.w : &w, b, pct);
		{
			u64 rank = ((u64)pct * n + 99) / 100;

			want = sorted[rank ? rank - 1 : 0];
		}
		ASSERT(got == want, "cap %u n %u: p%u %u want %u", cap, n, pct,
		       got, want);
		if (op & 0x80) {
			u32 a = v, c = (u32)rd(in, 4), d = (u32)rd(in, 1);
			u32 t[3] = { a, c, d };

			qsort(t, 3, sizeof(u32), cmp_u32);
			ASSERT(dcc_med3(a, c, d) == t[1], "med3(%u,%u,%u)", a, c, d);
		}
	}
}

/* ---- mul_div, rate helpers, log2 ---------------------------------------- */

static void fuzz_muldiv(struct rd *in)
{
	while (in->n) {
		u8 sel = (u8)rd(in, 1);
		u64 a = rd(in, 1 + (sel & 7));
		u64 b = rd(in, 1 + ((sel >> 3) & 7));
		u64 c = sel & 0x40 ? rd(in, 8) : rd(in, 4);
		u128 q = c ? (u128)a * b / c : 0;
		u64 want = !c || q > U64_MAX ? U64_MAX : (u64)q;
		u64 got = dcc_mul_div(a, b, c);
		u32 l;
		long double e;

		ASSERT(got == want, "mul_div(%llu, %llu, %llu) = %llu want %llu",
		       (unsigned long long)a, (unsigned long long)b,
		       (unsigned long long)c, (unsigned long long)got,
		       (unsigned long long)want);
		got = dcc_bytes_per_sec(a, b, c);	/* bytes, t, units/s */
		want = 0;
		if (b) {
			u128 r = (u128)a * c / b;

			want = r > U64_MAX ? U64_MAX : (u64)r;
		}
		ASSERT(got == want, "bytes_per_sec(%llu, %llu, %llu) = %llu want %llu",
		       (unsigned long long)a, (unsigned long long)b,
		       (unsigned long long)c, (unsigned long long)got,
		       (unsigned long long)want);
		l = dcc_log2_q16(a);
		if (a) {
			e = log2l((long double)a) - l / 65536.0L;
			ASSERT(e >= -1e-12L && e <= 0.0861L + 1.0L / 65536,
			       "log2(%llu) approx %u err %.9Lf",
			       (unsigned long long)a, l, e);
			if (a > 1)
				ASSERT(dcc_log2_q16(a - 1) <= l, "log2 not monotone at %llu",
				       (unsigned long long)a);
		} else {
			ASSERT(l == 0, "log2(0) = %u", l);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rd in = { data, size };
	u8 mode;

	if (!size)
		return 0;
	mode = (u8)rd(&in, 1);
	switch (mode % 8) {
	case 5:
	case 6:
		fuzz_medwin(&in);
		break;
	case 7:
		fuzz_muldiv(&in);
		break;
	default:
		fuzz_bls(&in);
		break;
	}
	return 0;
}
