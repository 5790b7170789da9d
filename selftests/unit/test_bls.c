// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the BLS delay-gradient estimator (include/dcc/bls.h,
 * modules/dcc_lib/bls.c) against the header's contract:
 *
 *   - batch membership: the origin is the sample that closed the previous
 *     batch (or the first sample after a reset) and is NOT part of the
 *     batch; the closing sample is;
 *   - delay = mean delay, gradient = least-squares slope d(delay)/d(send)
 *     in Q16, rate = pkts * bytes_per_pkt * units_per_sec / span,
 *     inflight = packet-weighted mean inflight * bytes_per_pkt;
 *   - closing rules (tau, min_samples, N_MAX, stale), wrap safety,
 *     resets on samples far in the past;
 *   - the OSCAR accuracy target (the paper's Fig. 6c, 6.2: BLS MSE 0.0058
 *     against 0.079 for division + EWMA; here MSE <= 0.01 and 5x better).
 *
 * References are computed independently in long double (centred two-pass
 * least squares) and 128-bit integers, never with the estimator's own
 * formulas.
 */
#include <math.h>
#include <string.h>

#include "dcc/bls.h"
#include "tap.h"

typedef unsigned __int128 u128;
typedef __int128 s128;

#define MAXS (1 << 20)
static struct dcc_bls_sample S[MAXS];	/* the stream under test */

/* ---- reference figures of one batch ---------------------------------- */

struct bref {
	u32 n;
	u64 pkts, span, rate, infl_bytes;
	u64 dmin, dmax;		/* raw delays of the batch */
	long double mean_sh;	/* mean of (delay >> shift) */
	long double mean_raw;	/* mean of delay */
	long double g;		/* LS slope of (x >> s, d >> s), unitless */
	long double xrange;	/* max x - min x, shifted units */
	int den_pos;		/* x not all equal */
};

static u32 cap_pkts(u32 p)
{
	return p < 1 ? 1 : p > DCC_BLS_PKTS_MAX ? DCC_BLS_PKTS_MAX : p;
}

static u32 cap_infl(u32 i)
{
	return i > DCC_BLS_INFL_MAX ? DCC_BLS_INFL_MAX : i;
}

/* batch = samples (origin, last], origin's send time is t0 */
static void bref_compute(const struct dcc_bls_cfg *cfg,
			 const struct dcc_bls_sample *s, size_t origin,
			 size_t last, struct bref *r)
{
	u64 t0 = s[origin].send_ts;
	long double sx = 0, sy = 0, sd = 0, mx, my, sxx = 0, sxy = 0;
	long double xmin = 1e300L, xmax = -1e300L;
	u128 infl = 0;
	u32 n = 0;

	memset(r, 0, sizeof(*r));
	r->dmin = U64_MAX;
	for (size_t i = origin + 1; i <= last; i++) {
		long double x = (long double)((s64)(s[i].send_ts - t0) >>
					      cfg->shift);
		long double y = (long double)(s[i].delay >> cfg->shift);
		u32 p = cap_pkts(s[i].pkts);

		sx += x;
		sy += y;
		sd += (long double)s[i].delay;
		xmin = fminl(xmin, x);
		xmax = fmaxl(xmax, x);
		r->pkts += p;
		infl += (u128)cap_infl(s[i].infl) * p;
		r->dmin = s[i].delay < r->dmin ? s[i].delay : r->dmin;
		r->dmax = s[i].delay > r->dmax ? s[i].delay : r->dmax;
		n++;
	}
	r->n = n;
	mx = sx / n;
	my = sy / n;
	for (size_t i = origin + 1; i <= last; i++) {
		long double x = (long double)((s64)(s[i].send_ts - t0) >>
					      cfg->shift) - mx;
		long double y = (long double)(s[i].delay >> cfg->shift) - my;

		sxx += x * x;
		sxy += x * y;
	}
	r->den_pos = sxx > 0;
	r->g = r->den_pos ? sxy / sxx : 0;
	r->mean_sh = my;
	r->mean_raw = sd / n;
	r->xrange = xmax - xmin;
	r->span = s[last].send_ts - t0;
	r->infl_bytes = (u64)(infl * cfg->bytes_per_pkt / r->pkts);
	r->rate = r->span ? (u64)((u128)r->pkts * cfg->bytes_per_pkt *
				  cfg->units_per_sec / r->span) : 0;
}

static long double g_q16_ref(long double g)
{
	long double q = g * 65536.0L;

	if (q > DCC_BLS_GRAD_MAX_Q16)
		q = DCC_BLS_GRAD_MAX_Q16;
	if (q < -DCC_BLS_GRAD_MAX_Q16)
		q = -DCC_BLS_GRAD_MAX_Q16;
	return q;
}

/* gradient tolerance: 2 Q16 LSB + 1e-6 relative */
static int grad_ok(s32 got, long double want_q16)
{
	return fabsl((long double)got - want_q16) <= 2.0L + 1e-6L * fabsl(want_q16);
}

static u64 absdiff(u64 a, u64 b)
{
	return a > b ? a - b : b - a;
}

/*
 * Check every figure of a closed, non-stale batch against the reference.
 * Delay tolerance: 1 unit of the estimator's resolution (2^shift).
 */
static void check_batch(const char *ctx, const struct dcc_bls_cfg *cfg,
			const struct bref *r, const struct dcc_bls_out *o)
{
	long double dtol = (long double)(1ULL << cfg->shift);
	long double dwant = r->mean_sh * (long double)(1ULL << cfg->shift);

	CHECK(!o->stale, "%s: unexpected stale", ctx);
	CHECK(o->samples == r->n, "%s: samples got=%u want=%u", ctx,
	      o->samples, r->n);
	CHECK(o->pkts == r->pkts, "%s: pkts got=%u want=%llu", ctx, o->pkts,
	      (unsigned long long)r->pkts);
	CHECK(o->span == r->span, "%s: span got=%llu want=%llu", ctx,
	      (unsigned long long)o->span, (unsigned long long)r->span);
	CHECK(absdiff(o->rate_bytes_ps, r->rate) <= 1,
	      "%s: rate got=%llu want=%llu (pkts=%llu bpp=%u span=%llu)", ctx,
	      (unsigned long long)o->rate_bytes_ps, (unsigned long long)r->rate,
	      (unsigned long long)r->pkts, cfg->bytes_per_pkt,
	      (unsigned long long)r->span);
	CHECK(absdiff(o->infl_bytes, r->infl_bytes) <= 1,
	      "%s: infl_bytes got=%llu want=%llu", ctx,
	      (unsigned long long)o->infl_bytes,
	      (unsigned long long)r->infl_bytes);
	CHECK(fabsl((long double)o->delay - dwant) <= dtol,
	      "%s: delay got=%llu want=%.3Lf (+-%.0Lf)", ctx,
	      (unsigned long long)o->delay, dwant, dtol);
	if (r->den_pos) {
		CHECK(o->grad_valid && grad_ok(o->grad_q16, g_q16_ref(r->g)),
		      "%s: grad got=%d valid=%d want=%.3Lf (n=%u)", ctx,
		      o->grad_q16, o->grad_valid, g_q16_ref(r->g), r->n);
	} else {
		CHECK(!o->grad_valid && o->grad_q16 == 0,
		      "%s: all x equal: grad got=%d valid=%d", ctx,
		      o->grad_q16, o->grad_valid);
	}
}

/* A batch reported stale: it must be one, and carry no rate or slope. */
static void check_stale_batch(const char *ctx, const struct dcc_bls_cfg *cfg,
			      const struct bref *r, const struct dcc_bls_out *o)
{
	u64 stale = cfg->stale ? cfg->stale : 4 * cfg->tau;

	CHECK(r->span > stale || (r->span >> cfg->shift) > DCC_BLS_X_MAX,
	      "%s: stale but span %llu <= stale %llu", ctx,
	      (unsigned long long)r->span, (unsigned long long)stale);
	CHECK(o->rate_bytes_ps == 0 && o->grad_q16 == 0 && !o->grad_valid,
	      "%s: stale: rate=%llu grad=%d valid=%d", ctx,
	      (unsigned long long)o->rate_bytes_ps, o->grad_q16, o->grad_valid);
	CHECK(o->samples == r->n && o->pkts == r->pkts,
	      "%s: stale: samples=%u/%u pkts=%u/%llu", ctx, o->samples, r->n,
	      o->pkts, (unsigned long long)r->pkts);
	CHECK(o->delay >= ((r->dmin >> cfg->shift) << cfg->shift) &&
	      o->delay <= r->dmax, "%s: stale: delay %llu outside [%llu, %llu]",
	      ctx, (unsigned long long)o->delay,
	      (unsigned long long)r->dmin, (unsigned long long)r->dmax);
}

/*
 * Feed S[0..n) to a fresh estimator; call @cb for each closed batch with
 * the index of its origin and closing sample.  Returns batches closed.
 */
typedef void (*batch_cb)(const struct dcc_bls_cfg *cfg, size_t origin,
			 size_t last, const struct dcc_bls_out *o, void *ctx);

static size_t feed(const struct dcc_bls_cfg *cfg, size_t n, batch_cb cb,
		   void *ctx)
{
	struct dcc_bls b;
	struct dcc_bls_out o;
	size_t origin = 0, batches = 0;

	dcc_bls_reset(&b);
	for (size_t i = 0; i < n; i++) {
		memset(&o, 0xa5, sizeof(o));
		if (dcc_bls_add(&b, cfg, &S[i], &o)) {
			cb(cfg, origin, i, &o, ctx);
			origin = i;
			batches++;
		}
	}
	return batches;
}

struct gen_ctx {
	const char *name;
	int allow_stale;	/* stale batches expected: check them as such */
	u64 stale_batches;
	int shift_ideal;	/* check vs ideal gradient when resolvable */
	long double ideal_g;
	long double ideal_rate;
	u64 batches;
	long double max_rate_err, max_grad_err;
};

static void cb_generic(const struct dcc_bls_cfg *cfg, size_t origin,
		       size_t last, const struct dcc_bls_out *o, void *vctx)
{
	struct gen_ctx *c = vctx;
	struct bref r;
	char ctx[300];

	bref_compute(cfg, S, origin, last, &r);
	snprintf(ctx, sizeof(ctx), "%s batch %llu [%zu,%zu] tau=%llu ups=%llu shift=%u",
		 c->name, (unsigned long long)c->batches, origin, last,
		 (unsigned long long)cfg->tau,
		 (unsigned long long)cfg->units_per_sec, cfg->shift);
	if (c->allow_stale && o->stale) {
		check_stale_batch(ctx, cfg, &r, o);
		c->stale_batches++;
	} else {
		check_batch(ctx, cfg, &r, o);
	}
	c->batches++;
}

/* ---- 1. exact on linear data ------------------------------------------ */

struct lin_ctx {
	struct gen_ctx g;
	s64 p, q;		/* slope p/q */
	u64 T, A;		/* delay = A + p*(ts - T)/q */
};

static void cb_linear(const struct dcc_bls_cfg *cfg, size_t origin,
		      size_t last, const struct dcc_bls_out *o, void *vctx)
{
	struct lin_ctx *c = vctx;
	s64 want = llroundl((long double)c->p * 65536.0L / c->q);
	long double mean = 0;
	struct bref r;
	u32 n = 0;

	cb_generic(cfg, origin, last, o, &c->g);
	bref_compute(cfg, S, origin, last, &r);
	/* (all x equal is checked by cb_generic: no slope, grad invalid) */
	if (r.den_pos)
		CHECK(o->grad_valid && llabs((s64)o->grad_q16 - want) <= 1,
		      "%s: b=%lld/%lld grad got=%d want=%lld (n=%u tau=%llu)",
		      c->g.name, (long long)c->p, (long long)c->q,
		      o->grad_q16, (long long)want, o->samples,
		      (unsigned long long)cfg->tau);
	/* mean delay from the model, not from the samples */
	for (size_t i = origin + 1; i <= last; i++, n++)
		mean += (long double)c->A + (long double)c->p *
			(long double)(s64)(S[i].send_ts - c->T) / c->q;
	mean /= n;
	CHECK(fabsl((long double)o->delay - mean) <=
	      (long double)(1ULL << cfg->shift),
	      "%s: mean delay got=%llu want=%.2Lf", c->g.name,
	      (unsigned long long)o->delay, mean);
}

static void test_linear(void)
{
	static const s64 slopes[][2] = {
		{ 0, 1 }, { 1, 2 }, { -1, 2 }, { 2, 1 }, { 1, 1000 },
		{ -9, 10 },
	};
	static const u64 taus_us[] = { 3, 50, 1000, 25000, 500000 };

	for (unsigned int si = 0; si < 6; si++) {
		s64 p = slopes[si][0], q = slopes[si][1];
		struct lin_ctx c = { .p = p, .q = q };
		char name[64];

		snprintf(name, sizeof(name), "linear b=%lld/%lld",
			 (long long)p, (long long)q);
		c.g.name = name;
		tap_begin("bls: exact on linear data, b=%lld/%lld (us and ns, tau 3..5e5 us, n 2..~1000)",
			  (long long)p, (long long)q);
		for (unsigned int ti = 0; ti < 5 * 2; ti++) {
			int ns = ti >= 5;
			u64 tau = taus_us[ti % 5] * (ns ? 1000 : 1);
			u8 shift = dcc_bls_shift_for(tau);
			/* x step: multiple of q << shift so (d >> s) stays linear */
			u64 unit = (u64)q << shift;
			u64 steps_per_tau = tau / unit;
			u64 maxstep, ts, total = 0;
			struct dcc_bls_cfg cfg = {
				.tau = tau,
				.units_per_sec = ns ? DCC_NSEC_PER_SEC : DCC_USEC_PER_SEC,
				.min_samples = (u32)rnd_range(0, 6),
				.bytes_per_pkt = (u32)rnd_range(1, 9000),
				.shift = shift,
			};
			size_t n = 0;

			/* aim at 2..~1000 samples per batch */
			maxstep = steps_per_tau / rnd_range(1, 500);
			if (maxstep < 1)
				maxstep = 1;
			/* min_samples steps must fit in 4 tau (else stale) */
			if (cfg.min_samples * maxstep * unit > 4 * tau)
				cfg.min_samples = (u32)(4 * tau / (maxstep * unit));
			c.T = ts = rnd64();
			if (steps_per_tau < 1)
				continue;	/* slope step coarser than tau */
			/* keep every delay positive over the 40 tau stream */
			c.A = ((u64)rnd_range(1000, 1000000) +
			       (u64)llabs(p) * 42 * (tau >> shift) / (u64)q) << shift;
			while (n < 60000 && total < 40 * tau) {
				u64 dx = ts - c.T;

				S[n].send_ts = ts;
				S[n].delay = (u64)((s64)c.A + p * (s64)dx / q);
				S[n].pkts = (u32)rnd_range(1, 44);
				S[n].infl = (u32)rnd_range(0, 100000);
				n++;
				total = ts - c.T;
				/* mostly regular, some duplicate send times */
				ts += unit * (rnd_range(0, 9) ? rnd_range(1, maxstep) : 0);
			}
			c.g.batches = 0;
			feed(&cfg, n, cb_linear, &c);
			CHECK(c.g.batches >= 10, "tau=%llu only %llu batches",
			      (unsigned long long)tau,
			      (unsigned long long)c.g.batches);
		}
		tap_end();
	}
}

/* ---- 2. random data ----------------------------------------------------- */

static void test_random(void)
{
	struct gen_ctx c = { .name = "random" };
	u64 streams = 0;

	tap_begin("bls: random data (jittered send times, random delays) vs long-double LS, >= 10^4 batches");
	while (c.batches < 10000) {
		u64 tau = rnd_range(0, 3) ? rnd_range(1, 1000000) : rnd_range(1, 20);
		u64 m = rnd_range(2, 300);		/* samples per tau */
		u64 gapmax = 2 * tau / m;
		u64 R = (u64[]){ 0, 10, 1000, 1000000, 1ULL << 27 }[rnd_range(0, 4)];
		u64 base = rnd_range(1, 1000000);
		int walk = rnd_range(0, 1);
		struct dcc_bls_cfg cfg = {
			.tau = tau,
			.units_per_sec = DCC_USEC_PER_SEC,
			.min_samples = (u32)rnd_range(0, 10),
			.bytes_per_pkt = (u32)(u64[]){ 1, 1448, 9000, 65536 }[rnd_range(0, 3)],
			.shift = dcc_bls_shift_for(tau),
		};
		u64 ts = rnd64(), d = base + R / 2;
		size_t n = 2000 + rnd_range(0, 20000);
		u64 g1 = gapmax > 0 ? gapmax : 1;

		/* min_samples gaps must fit in 4 tau, or batches go stale */
		if (cfg.min_samples * g1 > 4 * tau)
			cfg.min_samples = (u32)(4 * tau / g1);

		for (size_t i = 0; i < n; i++) {
			S[i].send_ts = ts;
			ts += rnd_range(0, g1);
			if (walk) {	/* random walk inside [base, base + R] */
				s64 step = (s64)rnd_range(0, R / 16 + 1) *
					   (rnd_range(0, 1) ? 1 : -1);

				d = (u64)((s64)d + step);
				d = d < base ? base : d > base + R ? base + R : d;
			} else {
				d = base + rnd_range(0, R);
			}
			S[i].delay = d;
			S[i].pkts = (u32)rnd_range(1, 64);
			S[i].infl = (u32)rnd_range(0, 1000000);
		}
		feed(&cfg, n, cb_generic, &c);
		streams++;
	}
	tap_diag("random: %llu batches from %llu streams",
		 (unsigned long long)c.batches, (unsigned long long)streams);
	tap_end();
}

/* ---- 3. full range: us/ns, RTT 1 us..1 s, 1 Mb/s..800 Gb/s -------------- */

struct fr_ctx {
	struct gen_ctx g;
	long double rate_true;	/* generating rate, B/s */
	long double g_true;
	u64 checked_rate, checked_grad, total_stale;
	long double worst_rate, worst_grad;
};

static void cb_fullrange(const struct dcc_bls_cfg *cfg, size_t origin,
			 size_t last, const struct dcc_bls_out *o, void *vctx)
{
	struct fr_ctx *c = vctx;
	struct bref r;
	long double rel;

	cb_generic(cfg, origin, last, o, &c->g);
	if (o->stale)
		return;		/* checked as such by cb_generic */
	bref_compute(cfg, S, origin, last, &r);
	/* rate within 0.1% of bytes / span of the timestamps given */
	if (r.span) {
		long double truth = (long double)r.pkts * cfg->bytes_per_pkt *
				    cfg->units_per_sec / r.span;

		rel = fabsl((long double)o->rate_bytes_ps - truth) / truth;
		CHECK(rel <= 1e-3, "%s: rate %llu vs truth %.1Lf", c->g.name,
		      (unsigned long long)o->rate_bytes_ps, truth);
	}
	/* ... and of the generating rate when the span resolves 0.05% */
	if (r.span >= 2000) {
		rel = fabsl((long double)o->rate_bytes_ps - c->rate_true) / c->rate_true;
		CHECK(rel <= 1e-3, "%s: rate %llu vs generated %.1Lf (span %llu)",
		      c->g.name, (unsigned long long)o->rate_bytes_ps,
		      c->rate_true, (unsigned long long)r.span);
		c->worst_rate = fmaxl(c->worst_rate, rel);
		c->checked_rate++;
	}
	/* gradient vs the generating slope when x resolves it */
	if (r.xrange >= 200 && r.n >= 8) {
		long double e = fabsl((long double)o->grad_q16 / 65536 - c->g_true);

		CHECK(e <= 0.01, "%s: grad %.5Lf vs generated %.3Lf (xrange %.0Lf n %u)",
		      c->g.name, (long double)o->grad_q16 / 65536, c->g_true,
		      r.xrange, r.n);
		c->worst_grad = fmaxl(c->worst_grad, e);
		c->checked_grad++;
	}
}

static void test_full_range(void)
{
	static const u64 rtt_ns[] = {
		1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
	};
	static const u64 rates[] = {
		125000, 1250000, 125000000, 1250000000ULL, 12500000000ULL,
		DCC_RATE_MAX_BPS,
	};
	static const u32 bpps[] = { 1500, 9000, 65536 };
	struct fr_ctx c = { .g_true = 0.25L, .g.allow_stale = 1 };
	u64 configs = 0, batches = 0;

	tap_begin("bls: full range: us and ns, RTT 1us..1s, 1 Mb/s..800 Gb/s, 1500/9000/64K B: rate within 0.1%%, gradient, no overflow");
	for (int ns = 0; ns < 2; ns++)
	for (unsigned int ri = 0; ri < 7; ri++)
	for (unsigned int rt = 0; rt < 6; rt++)
	for (unsigned int bi = 0; bi < 3; bi++) {
		u64 ups = ns ? DCC_NSEC_PER_SEC : DCC_USEC_PER_SEC;
		long double rtt = (long double)rtt_ns[ri] * ups / 1e9L; /* units */
		u64 tau = (u64)(rtt / 2) ? (u64)(rtt / 2) : 1;
		u64 rate = rates[rt];
		u32 bpp = bpps[bi];
		/* ~64 samples per batch, each covering k packets */
		long double pkts_per_tau = (long double)rate * tau / ups / bpp;
		long double kf = ceill(pkts_per_tau / 64);
		u32 k = kf < 1 ? 1 : kf > DCC_BLS_PKTS_MAX ? DCC_BLS_PKTS_MAX : (u32)kf;
		long double gap = (long double)k * bpp * ups / rate; /* units */
		long double bdp = (long double)rate * rtt / ups / bpp;
		u32 infl = bdp > DCC_BLS_INFL_MAX ? DCC_BLS_INFL_MAX : (u32)(bdp + 1);
		struct dcc_bls_cfg cfg = {
			.tau = tau,
			.units_per_sec = ups,
			.min_samples = 3,
			.bytes_per_pkt = bpp,
			.shift = dcc_bls_shift_for(tau),
		};
		char name[160];
		u64 t_start = rnd64() >> 1;
		long double horizon;
		size_t n = 0;

		snprintf(name, sizeof(name), "%s rtt=%.0Lf rate=%llu bpp=%u k=%u",
			 ns ? "ns" : "us", rtt, (unsigned long long)rate, bpp, k);
		c.g.name = name;
		c.g.batches = 0;
		c.g.stale_batches = 0;
		c.rate_true = rate;
		/*
		 * >= 3 batches; the delay rises 0.25 unit per unit of send
		 * time.  Below ~1 packet per tau (1 Mb/s at a 1 us RTT) the
		 * batches span idle gaps and must come out stale.
		 */
		horizon = fmaxl(10 * (long double)tau, 30 * gap);
		for (long double t = 0; t <= horizon && n < MAXS; t += gap) {
			S[n].send_ts = t_start + (u64)llroundl(t);
			S[n].delay = (u64)llroundl(rtt + c.g_true * t);
			S[n].pkts = k;
			S[n].infl = infl;
			n++;
		}
		feed(&cfg, n, cb_fullrange, &c);
		CHECK(c.g.batches >= 3, "%s: only %llu batches from %zu samples",
		      name, (unsigned long long)c.g.batches, n);
		/* stale only when packets are further apart than tau */
		CHECK(c.g.stale_batches == 0 || gap > tau,
		      "%s: %llu stale batches at %.2Lf units per packet",
		      name, (unsigned long long)c.g.stale_batches, gap);
		batches += c.g.batches;
		c.total_stale += c.g.stale_batches;
		configs++;
	}
	tap_diag("full range: %llu configs, %llu batches (%llu stale: < 1 packet per tau); "
		 "rate vs generated checked %llu (worst %.2Le), gradient vs generated checked %llu (worst %.2Le)",
		 (unsigned long long)configs, (unsigned long long)batches,
		 (unsigned long long)c.total_stale, (unsigned long long)c.checked_rate,
		 c.worst_rate, (unsigned long long)c.checked_grad, c.worst_grad);
	CHECK(c.checked_rate > 100 && c.checked_grad > 100, "too few resolvable batches");
	tap_end();
}

/* ---- 4. timestamp wrap ---------------------------------------------------- */

struct rec {
	size_t n;
	size_t idx[4096];
	struct dcc_bls_out out[4096];
};

static void cb_record(const struct dcc_bls_cfg *cfg, size_t origin,
		      size_t last, const struct dcc_bls_out *o, void *vctx)
{
	struct rec *r = vctx;

	(void)cfg;
	(void)origin;
	if (r->n < 4096) {
		r->idx[r->n] = last;
		r->out[r->n] = *o;
	}
	r->n++;
}

static int out_equal(const struct dcc_bls_out *a, const struct dcc_bls_out *b)
{
	return a->delay == b->delay && a->infl_bytes == b->infl_bytes &&
	       a->rate_bytes_ps == b->rate_bytes_ps && a->span == b->span &&
	       a->grad_q16 == b->grad_q16 && a->samples == b->samples &&
	       a->pkts == b->pkts && a->grad_valid == b->grad_valid &&
	       a->stale == b->stale;
}

static void test_wrap(void)
{
	static struct rec ra, rb;

	tap_begin("bls: u64 send_ts wrap inside a batch gives the same results as unwrapped data");
	for (int iter = 0; iter < 400; iter++) {
		int ns = iter & 1;
		u64 tau = ns ? rnd_range(1000, 50000000) : rnd_range(1, 1000000);
		struct dcc_bls_cfg cfg = {
			.tau = tau,
			.units_per_sec = ns ? DCC_NSEC_PER_SEC : DCC_USEC_PER_SEC,
			.min_samples = 3,
			.bytes_per_pkt = 1448,
			.shift = dcc_bls_shift_for(tau),
		};
		u64 gapmax = tau / rnd_range(2, 100) + 1;
		size_t n = 300 + rnd_range(0, 2000);
		u64 far_base = (u64)rnd_range(1, 1ULL << 62);
		u64 rel = 0, before, wrap_base;
		int crossed = 0;

		for (size_t i = 0; i < n; i++) {
			S[i].send_ts = rel;	/* relative; based below */
			S[i].delay = rnd_range(10, 100000) << cfg.shift;
			S[i].pkts = (u32)rnd_range(1, 10);
			S[i].infl = (u32)rnd_range(0, 1000);
			rel += rnd_range(0, gapmax);
		}
		/* the wrap falls 1..5 tau after the first sample */
		rel = S[n - 1].send_ts;
		before = rnd_range(1, rel < 5 * tau ? rel : 5 * tau);
		wrap_base = (u64)0 - before;
		for (size_t i = 0; i < n; i++)
			S[i].send_ts += far_base;
		memset(&ra, 0, sizeof(ra));
		feed(&cfg, n, cb_record, &ra);
		for (size_t i = 0; i < n; i++) {
			S[i].send_ts = S[i].send_ts - far_base + wrap_base;
			crossed |= i && S[i].send_ts < S[i - 1].send_ts;
		}
		memset(&rb, 0, sizeof(rb));
		{
			struct gen_ctx gc = { .name = "wrapped" };

			/* also hold the wrapped run to the reference */
			feed(&cfg, n, cb_generic, &gc);
		}
		feed(&cfg, n, cb_record, &rb);
		if (!CHECK(ra.n == rb.n && ra.n > 0,
			   "iter %d tau=%llu: batches far=%zu wrapped=%zu", iter,
			   (unsigned long long)tau, ra.n, rb.n))
			continue;
		for (size_t k = 0; k < ra.n && k < 4096; k++)
			if (!CHECK(ra.idx[k] == rb.idx[k] &&
				   out_equal(&ra.out[k], &rb.out[k]),
				   "iter %d batch %zu: close at %zu vs %zu, grad %d vs %d, delay %llu vs %llu, rate %llu vs %llu",
				   iter, k, ra.idx[k], rb.idx[k],
				   ra.out[k].grad_q16, rb.out[k].grad_q16,
				   (unsigned long long)ra.out[k].delay,
				   (unsigned long long)rb.out[k].delay,
				   (unsigned long long)ra.out[k].rate_bytes_ps,
				   (unsigned long long)rb.out[k].rate_bytes_ps))
				break;
		CHECK(crossed,
		      "iter %d: test did not cross the wrap", iter);
	}
	tap_end();
}

/* ---- 5. batch closing rules ------------------------------------------------ */

static struct dcc_bls_cfg cfg_us(u64 tau, u32 min_samples)
{
	return (struct dcc_bls_cfg){
		.tau = tau, .units_per_sec = DCC_USEC_PER_SEC,
		.min_samples = min_samples, .bytes_per_pkt = 1000, .shift = 0,
	};
}

static int add(struct dcc_bls *b, const struct dcc_bls_cfg *cfg, u64 ts,
	       u64 delay, u32 pkts, struct dcc_bls_out *o)
{
	struct dcc_bls_sample s = {
		.send_ts = ts, .delay = delay, .pkts = pkts, .infl = 10,
	};

	memset(o, 0xa5, sizeof(*o));
	return dcc_bls_add(b, cfg, &s, o);
}

static void test_closing_rules(void)
{
	struct dcc_bls b;
	struct dcc_bls_out o;
	struct dcc_bls_cfg cfg;
	const u64 T = 1000000;
	int r;

	tap_begin("bls: the first sample after reset only sets the origin");
	cfg = cfg_us(100, 3);
	dcc_bls_reset(&b);
	CHECK(!add(&b, &cfg, T, 999999, 500, &o), "origin closed a batch");
	CHECK(!add(&b, &cfg, T + 40, 100, 1, &o), "closed after 1 sample");
	CHECK(!add(&b, &cfg, T + 80, 200, 2, &o), "closed after 2 samples");
	r = add(&b, &cfg, T + 100, 250, 3, &o);	/* y = 100 + 2.5 (x - 40) */
	CHECK(r, "span == tau and n == 3 did not close");
	if (r) {
		CHECK(o.samples == 3 && o.pkts == 6,
		      "origin counted: samples=%u pkts=%u (want 3, 6)",
		      o.samples, o.pkts);
		CHECK(o.delay == 183 || o.delay == 184,
		      "origin delay counted: delay=%llu want 183.3",
		      (unsigned long long)o.delay);
		CHECK(o.span == 100, "span=%llu want 100",
		      (unsigned long long)o.span);
		CHECK(o.rate_bytes_ps == 6ULL * 1000 * 1000000 / 100,
		      "rate=%llu want %llu (n/(span from the origin), unbiased)",
		      (unsigned long long)o.rate_bytes_ps, 6ULL * 1000 * 1000000 / 100);
		CHECK(o.grad_valid && abs(o.grad_q16 - 163840) <= 1,
		      "grad=%d want 163840", o.grad_q16);
	}
	/* a zero-filled struct is a valid reset state */
	memset(&b, 0, sizeof(b));
	CHECK(!add(&b, &cfg, 5, 1, 1, &o), "zeroed state: origin closed");
	CHECK(!add(&b, &cfg, 200, 1, 1, &o) && !add(&b, &cfg, 201, 1, 1, &o),
	      "zeroed state: closed before min_samples");
	CHECK(add(&b, &cfg, 202, 1, 1, &o) && o.samples == 3 && o.span == 197,
	      "zeroed state: samples=%u span=%llu", o.samples,
	      (unsigned long long)o.span);
	/* reset mid-batch: the next sample is a new origin */
	dcc_bls_reset(&b);
	add(&b, &cfg, T, 7, 1, &o);
	add(&b, &cfg, T + 50, 7, 1, &o);
	dcc_bls_reset(&b);
	CHECK(!add(&b, &cfg, T + 60, 9, 1, &o), "post-reset origin closed");
	add(&b, &cfg, T + 100, 9, 1, &o);
	add(&b, &cfg, T + 130, 9, 1, &o);
	CHECK(!add(&b, &cfg, T + 159, 9, 1, &o), "closed before tau after reset");
	CHECK(add(&b, &cfg, T + 160, 9, 1, &o) && o.samples == 4 &&
	      o.span == 100 && o.delay == 9,
	      "after reset: samples=%u span=%llu delay=%llu", o.samples,
	      (unsigned long long)o.span, (unsigned long long)o.delay);
	tap_end();

	tap_begin("bls: no close before span >= tau; closes exactly at tau; next origin = closing sample");
	cfg = cfg_us(100, 3);
	dcc_bls_reset(&b);
	add(&b, &cfg, T, 50, 1, &o);
	r = 0;
	for (u64 x = 1; x < 100; x++)
		r |= add(&b, &cfg, T + x, 50 + x, 1, &o);
	CHECK(!r, "closed before span reached tau");
	r = add(&b, &cfg, T + 100, 150, 1, &o);
	CHECK(r && o.samples == 100 && o.span == 100,
	      "at span == tau: closed=%d samples=%u span=%llu", r, o.samples,
	      (unsigned long long)o.span);
	CHECK(r && o.grad_valid && o.grad_q16 == 65536, "slope 1: grad=%d",
	      o.grad_q16);
	/* the next batch is measured from T + 100 */
	r = 0;
	for (u64 x = 101; x < 200; x += 33)
		r |= add(&b, &cfg, T + x, 10, 1, &o);
	CHECK(!r, "second batch closed early");
	r = add(&b, &cfg, T + 200, 10, 1, &o);
	CHECK(r && o.samples == 4 && o.span == 100,
	      "second batch: closed=%d samples=%u span=%llu", r, o.samples,
	      (unsigned long long)o.span);
	tap_end();

	tap_begin("bls: min_samples postpones the close (and is at least 2)");
	for (u32 ms = 0; ms <= 12; ms++) {
		u32 want = ms < 2 ? 2 : ms;
		u32 got = 0;

		cfg = cfg_us(100, ms);
		dcc_bls_reset(&b);
		add(&b, &cfg, T, 50, 1, &o);
		/* every sample is past tau but within stale (4 tau) */
		for (u32 i = 1; i <= 20 && !got; i++)
			if (add(&b, &cfg, T + 150 + i, 50, 1, &o))
				got = i;
		CHECK(got == want && o.samples == want,
		      "min_samples=%u: closed at sample %u (samples=%u), want %u",
		      ms, got, o.samples, want);
	}
	tap_end();

	tap_begin("bls: force close at DCC_BLS_N_MAX samples");
	for (int eq = 0; eq < 2; eq++) {
		u32 closed_at = 0;

		cfg = cfg_us(1000000, 3);
		dcc_bls_reset(&b);
		add(&b, &cfg, T, 50, 1, &o);
		for (u32 i = 1; i <= DCC_BLS_N_MAX + 5 && !closed_at; i++)
			if (add(&b, &cfg, T + (eq ? 0 : i), 50 + (eq ? 0 : i / 2),
				2, &o))
				closed_at = i;
		CHECK(closed_at == DCC_BLS_N_MAX && o.samples == DCC_BLS_N_MAX &&
		      o.pkts == 2 * DCC_BLS_N_MAX && !o.stale,
		      "%s: closed at %u samples=%u pkts=%u stale=%d",
		      eq ? "equal x" : "distinct x", closed_at, o.samples,
		      o.pkts, o.stale);
		if (eq) {
			CHECK(!o.grad_valid && o.grad_q16 == 0 && o.rate_bytes_ps == 0,
			      "all x equal: valid=%d grad=%d rate=%llu",
			      o.grad_valid, o.grad_q16,
			      (unsigned long long)o.rate_bytes_ps);
		} else {
			CHECK(o.grad_valid && abs(o.grad_q16 - 32768) <= 1,
			      "grad=%d want 32768", o.grad_q16);
			CHECK(o.span == DCC_BLS_N_MAX && o.rate_bytes_ps ==
			      2ULL * DCC_BLS_N_MAX * 1000 * 1000000 / DCC_BLS_N_MAX,
			      "span=%llu rate=%llu", (unsigned long long)o.span,
			      (unsigned long long)o.rate_bytes_ps);
		}
	}
	tap_end();

	tap_begin("bls: stale batch (span > stale, default 4 tau) reported stale, rate 0, grad invalid");
	/* default stale = 4 * tau = 400 */
	cfg = cfg_us(100, 3);
	dcc_bls_reset(&b);
	add(&b, &cfg, T, 50, 1, &o);
	add(&b, &cfg, T + 10, 60, 1, &o);
	add(&b, &cfg, T + 20, 70, 1, &o);
	r = add(&b, &cfg, T + 1000, 80, 1, &o);
	CHECK(r && o.stale && !o.grad_valid && o.grad_q16 == 0 && o.rate_bytes_ps == 0,
	      "idle gap 1000 > 400: closed=%d stale=%d valid=%d grad=%d rate=%llu",
	      r, o.stale, o.grad_valid, o.grad_q16,
	      (unsigned long long)o.rate_bytes_ps);
	CHECK(r && o.delay >= 60 && o.delay <= 80 && o.pkts >= 2 && o.pkts <= 3,
	      "stale batch keeps its delay: delay=%llu pkts=%u",
	      (unsigned long long)o.delay, o.pkts);
	/* the estimator carries on from the gap sample */
	add(&b, &cfg, T + 1050, 100, 1, &o);
	add(&b, &cfg, T + 1080, 100, 1, &o);
	r = add(&b, &cfg, T + 1100, 100, 1, &o);
	CHECK(r && !o.stale && o.samples == 3 && o.span == 100 && o.delay == 100,
	      "after the gap: closed=%d stale=%d samples=%u span=%llu delay=%llu",
	      r, o.stale, o.samples, (unsigned long long)o.span,
	      (unsigned long long)o.delay);
	/* explicit stale; span == stale is not stale */
	cfg = cfg_us(100, 3);
	cfg.stale = 150;
	dcc_bls_reset(&b);
	add(&b, &cfg, T, 50, 1, &o);
	add(&b, &cfg, T + 60, 50, 1, &o);
	add(&b, &cfg, T + 120, 50, 1, &o);
	r = add(&b, &cfg, T + 150, 50, 1, &o);
	CHECK(r && !o.stale && o.grad_valid && o.rate_bytes_ps > 0,
	      "span == stale: closed=%d stale=%d", r, o.stale);
	dcc_bls_reset(&b);
	add(&b, &cfg, T, 50, 1, &o);
	add(&b, &cfg, T + 60, 50, 1, &o);
	add(&b, &cfg, T + 120, 50, 1, &o);
	r = add(&b, &cfg, T + 151, 50, 1, &o);
	CHECK(r && o.stale && o.rate_bytes_ps == 0 && !o.grad_valid,
	      "span == stale + 1: closed=%d stale=%d rate=%llu valid=%d",
	      r, o.stale, (unsigned long long)o.rate_bytes_ps, o.grad_valid);
	/* a first sample past the stale limit: a stale batch of one sample */
	dcc_bls_reset(&b);
	add(&b, &cfg, T, 50, 1, &o);
	r = add(&b, &cfg, T + 100000, 77, 1, &o);
	CHECK(r && o.stale && !o.grad_valid && o.rate_bytes_ps == 0,
	      "lone sample after a long gap: closed=%d stale=%d", r, o.stale);
	/* a gap beyond X_MAX with a huge stale limit must not corrupt */
	cfg = cfg_us(100, 3);
	cfg.stale = 1ULL << 40;
	dcc_bls_reset(&b);
	add(&b, &cfg, T, 50, 1, &o);
	add(&b, &cfg, T + 10, 50, 1, &o);
	add(&b, &cfg, T + 20, 50, 1, &o);
	r = add(&b, &cfg, T + 3 * DCC_BLS_X_MAX, 50, 1, &o);
	CHECK(r && (o.stale || (o.grad_valid && abs(o.grad_q16) <= 1)),
	      "gap 3*X_MAX: closed=%d stale=%d valid=%d grad=%d", r, o.stale,
	      o.grad_valid, o.grad_q16);
	tap_end();

	tap_begin("bls: sample more than X_MAX before the origin resets; reordered samples within X_MAX count");
	for (int variant = 0; variant < 2; variant++) {
		u64 O = 100000000;	/* origin */
		u64 P = O - DCC_BLS_X_MAX - 1 - (variant ? 12345 : 0);
		int closed = 0;

		cfg = cfg_us(100, 3);
		dcc_bls_reset(&b);
		add(&b, &cfg, O, 1000000, 1, &o);
		add(&b, &cfg, O + 10, 1000000, 1000, &o);
		add(&b, &cfg, O + 20, 1000000, 1000, &o);
		r = add(&b, &cfg, P, 100, 1, &o);
		CHECK(!r, "the far-past sample closed a batch (stale=%d samples=%u)",
		      o.stale, o.samples);
		/* y = 100 + (x - P) / 2 from here on */
		for (u64 x = 10; x <= 400 && !closed; x += 10) {
			if (!add(&b, &cfg, P + x, 100 + x / 2, 1, &o))
				continue;
			closed = 1;
			CHECK(!o.stale && o.pkts <= 41 && o.samples <= 41 &&
			      o.delay >= 100 && o.delay <= 300,
			      "post-reset batch mixes old samples: stale=%d pkts=%u delay=%llu",
			      o.stale, o.pkts, (unsigned long long)o.delay);
			CHECK(o.grad_valid && abs(o.grad_q16 - 32768) <= 1,
			      "post-reset slope 0.5: grad=%d valid=%d", o.grad_q16,
			      o.grad_valid);
			CHECK(x <= 110, "first post-reset batch closed only at +%llu",
			      (unsigned long long)x);
		}
		CHECK(closed, "no batch closed after the reset");
	}
	/* reordering: a sample sent before the origin but within X_MAX */
	{
		static const s64 xs[] = { 30, -20, 60, 100 };
		static const u64 ds[] = { 500, 400, 560, 640 };	/* y = 440 + 2x */
		cfg = cfg_us(100, 3);
		dcc_bls_reset(&b);
		add(&b, &cfg, T, 440, 1, &o);
		r = 0;
		for (int i = 0; i < 4; i++)
			r = add(&b, &cfg, T + (u64)xs[i], ds[i], 1, &o);
		CHECK(r && o.samples == 4 && o.grad_valid &&
		      abs(o.grad_q16 - 131072) <= 1 && o.delay == 525,
		      "reordered: closed=%d samples=%u grad=%d delay=%llu (want 4, 131072, 525)",
		      r, o.samples, o.grad_q16, (unsigned long long)o.delay);
	}
	tap_end();

	tap_begin("bls: per-sample caps (pkts <= DCC_BLS_PKTS_MAX, infl <= DCC_BLS_INFL_MAX)");
	cfg = cfg_us(100, 3);
	dcc_bls_reset(&b);
	{
		struct dcc_bls_sample s = { .send_ts = T, .delay = 5, .pkts = 1,
					    .infl = 1 };

		dcc_bls_add(&b, &cfg, &s, &o);
		for (int i = 1; i <= 3; i++) {
			s.send_ts = T + 50 * i;
			s.pkts = 1U << 30;
			s.infl = U32_MAX;
			r = dcc_bls_add(&b, &cfg, &s, &o);
		}
		CHECK(r && o.pkts == 3 * DCC_BLS_PKTS_MAX &&
		      o.infl_bytes == (u64)DCC_BLS_INFL_MAX * 1000,
		      "pkts=%u infl_bytes=%llu", o.pkts,
		      (unsigned long long)o.infl_bytes);
	}
	tap_end();
}

/* ---- 6. dcc_bls_slope_q16 --------------------------------------------------- */

static int slope_from_points(const s64 *x, const s64 *y, u32 n, s32 *g,
			     long double *ref)
{
	s64 sx = 0, sy = 0, sxy = 0;
	u64 sxx = 0;
	long double mx = 0, my = 0, cxx = 0, cxy = 0;

	for (u32 i = 0; i < n; i++) {
		sx += x[i];
		sy += y[i];
		sxx += (u64)(x[i] * x[i]);
		sxy += x[i] * y[i];
		mx += x[i];
		my += y[i];
	}
	mx /= n;
	my /= n;
	for (u32 i = 0; i < n; i++) {
		cxx += (x[i] - mx) * (x[i] - mx);
		cxy += (x[i] - mx) * (y[i] - my);
	}
	*ref = cxx > 0 ? cxy / cxx : 0;
	return dcc_bls_slope_q16(n, sx, sy, sxx, sxy, g);
}

static void test_slope(void)
{
	static s64 x[DCC_BLS_N_MAX], y[DCC_BLS_N_MAX];
	long double ref;
	s32 g;
	int v;

	tap_begin("bls_slope_q16: degenerate input (all x equal, n < 2) -> false, g = 0");
	for (u32 n = 0; n <= 50; n++) {
		s64 xv = (s64)rnd_range(0, 2 * DCC_BLS_X_MAX) - DCC_BLS_X_MAX;

		for (u32 i = 0; i < n; i++) {
			x[i] = xv;
			y[i] = (s64)rnd_range(0, 2 * DCC_BLS_Y_MAX) - DCC_BLS_Y_MAX;
		}
		g = 12345;
		v = n ? slope_from_points(x, y, n, &g, &ref) :
			dcc_bls_slope_q16(0, 0, 0, 0, 0, &g);
		CHECK(!v && g == 0, "n=%u x=%lld: valid=%d g=%d", n,
		      (long long)xv, v, g);
	}
	g = 777;
	CHECK(!dcc_bls_slope_q16(1, 5, 9, 25, 45, &g) && g == 0, "n=1 g=%d", g);
	g = 777;
	CHECK(!dcc_bls_slope_q16(3, 0, 0, 0, 0, &g) && g == 0, "zeros g=%d", g);
	g = 777;	/* inconsistent sums with den < 0 */
	CHECK(!dcc_bls_slope_q16(2, 10, 0, 1, 0, &g) && g == 0, "den<0 g=%d", g);
	tap_end();

	tap_begin("bls_slope_q16: random point sets up to the header's bounds (N_MAX, X_MAX, Y_MAX) vs LS, clamped");
	for (int it = 0; it < 3000; it++) {
		u32 n = it < 20 ? DCC_BLS_N_MAX : (u32)rnd_range(2, it < 500 ? DCC_BLS_N_MAX : 64);
		int mode = (int)rnd_range(0, 4);
		long double want;

		for (u32 i = 0; i < n; i++) {
			switch (mode) {
			case 0:	/* extremes only */
				x[i] = rnd_range(0, 1) ? DCC_BLS_X_MAX : -DCC_BLS_X_MAX;
				y[i] = rnd_range(0, 1) ? DCC_BLS_Y_MAX : -DCC_BLS_Y_MAX;
				break;
			case 1:	/* steep: tiny x range, huge y -> clamp */
				x[i] = (s64)rnd_range(0, 1);
				y[i] = x[i] * DCC_BLS_Y_MAX * (it & 1 ? 1 : -1);
				break;
			case 2:	/* correlated with noise */
				x[i] = (s64)rnd_range(0, DCC_BLS_X_MAX);
				y[i] = x[i] / 3 - DCC_BLS_Y_MAX / 2 +
				       (s64)rnd_range(0, 1000);
				break;
			default:
				x[i] = (s64)rnd_range(0, 2 * DCC_BLS_X_MAX) - DCC_BLS_X_MAX;
				y[i] = (s64)rnd_range(0, 2 * DCC_BLS_Y_MAX) - DCC_BLS_Y_MAX;
			}
		}
		v = slope_from_points(x, y, n, &g, &ref);
		want = g_q16_ref(ref);
		if (v)
			CHECK(grad_ok(g, want), "it=%d n=%u mode=%d g=%d want=%.3Lf",
			      it, n, mode, g, want);
		else
			CHECK(ref == 0 && g == 0, "it=%d n=%u: invalid but LS slope %.6Lf",
			      it, n, ref);
		CHECK(g <= DCC_BLS_GRAD_MAX_Q16 && g >= -DCC_BLS_GRAD_MAX_Q16,
		      "g=%d beyond the cap", g);
	}
	/* the clamp keeps the sign */
	x[0] = 0; x[1] = 1; y[0] = 0; y[1] = DCC_BLS_Y_MAX;
	slope_from_points(x, y, 2, &g, &ref);
	CHECK(g == DCC_BLS_GRAD_MAX_Q16, "steep up: g=%d", g);
	y[1] = -DCC_BLS_Y_MAX;
	slope_from_points(x, y, 2, &g, &ref);
	CHECK(g == -DCC_BLS_GRAD_MAX_Q16, "steep down: g=%d", g);
	/* rounding to nearest: slope 1/3 -> 21845.33 -> 21845; 2/3 -> 43691 */
	x[0] = 0; x[1] = 3; y[0] = 0; y[1] = 1;
	slope_from_points(x, y, 2, &g, &ref);
	CHECK(g == 21845, "1/3: g=%d", g);
	y[1] = -2;
	slope_from_points(x, y, 2, &g, &ref);
	CHECK(g == -43691, "-2/3: g=%d", g);
	tap_end();
}

/* ---- 7. dcc_bls_shift_for -------------------------------------------------- */

static void test_shift_for(void)
{
	tap_begin("bls_shift_for: smallest shift with 4 tau >> s <= X_MAX and 64 tau >> s <= Y_MAX");
	/* header: 0 up to tau = 1 s in us (= 1 ms in ns) */
	CHECK(dcc_bls_shift_for(1000000) == 0, "us, tau = 1 s: %u",
	      dcc_bls_shift_for(1000000));
	CHECK(dcc_bls_shift_for(0) == 0 && dcc_bls_shift_for(1) == 0, "tiny tau");
	for (int i = 0; i < 200000; i++) {
		u64 tau = i < 64 * 3 ? (1ULL << (i / 3 % 41)) + (u64)(i % 3) - 1 :
			  rnd_range(1, 1ULL << 40);
		u8 s = dcc_bls_shift_for(tau);
		u128 t4 = (u128)tau * 4, t64 = (u128)tau * 64;

		if (!tau)
			continue;
		CHECK((t4 >> s) <= DCC_BLS_X_MAX && (t64 >> s) <= DCC_BLS_Y_MAX,
		      "tau=%llu shift=%u: 4tau>>s=%llu (X_MAX %lld)",
		      (unsigned long long)tau, s, (unsigned long long)(t4 >> s),
		      DCC_BLS_X_MAX);
		CHECK(s == 0 || (t4 >> (s - 1)) > DCC_BLS_X_MAX,
		      "tau=%llu shift=%u is not the smallest",
		      (unsigned long long)tau, s);
	}
	/*
	 * What the bound is for: with cfg->shift = shift_for(tau) and the
	 * default stale limit (4 tau), a batch spanning exactly 4 tau is not
	 * stale ("span > stale"), so it must not be cut as out of range.
	 */
	for (int i = 0; i < 2000; i++) {
		u64 tau = i < 64 ? (1ULL << (21 + i % 16)) + 1 + (u64)(i / 16) :
			  rnd_range(1, 1ULL << 36);
		struct dcc_bls_cfg cfg = {
			.tau = tau, .units_per_sec = DCC_NSEC_PER_SEC,
			.min_samples = 3, .bytes_per_pkt = 1500,
			.shift = dcc_bls_shift_for(tau),
		};
		struct dcc_bls b;
		struct dcc_bls_out o;
		struct dcc_bls_sample s = { .send_ts = 1000, .delay = 5000,
					    .pkts = 1 };
		int r;

		dcc_bls_reset(&b);
		dcc_bls_add(&b, &cfg, &s, &o);		/* origin */
		s.send_ts = 1001;
		dcc_bls_add(&b, &cfg, &s, &o);		/* n = 1 */
		s.send_ts = 1000 + 4 * tau;		/* span == stale */
		r = dcc_bls_add(&b, &cfg, &s, &o);	/* n = 2 < 3 */
		CHECK(!r, "tau=%llu shift=%u: a 4 tau span closed a 2-sample batch (stale=%d)",
		      (unsigned long long)tau, cfg.shift, o.stale);
		s.send_ts = 1000 + 4 * tau;
		r = dcc_bls_add(&b, &cfg, &s, &o);
		CHECK(r && !o.stale && o.samples == 3,
		      "tau=%llu shift=%u: 4 tau batch: closed=%d stale=%d samples=%u",
		      (unsigned long long)tau, cfg.shift, r, o.stale, o.samples);
	}
	tap_end();
}

/* ---- 8. OSCAR gradient accuracy (paper Fig. 6c) -------------------------- */

struct acc_ctx {
	long double ewma;		/* division + EWMA(0.2) estimate */
	long double (*ideal)(u64 t);
	long double se_bls, se_ewma;
	long double se_bls_g[3], se_ewma_g[3];
	u64 n, n_g[3];
	u64 t_first;
};

static long double phase_g(u64 trel, u64 phase)
{
	static const long double g[3] = { 0.5L, 0.0L, -0.5L };

	return g[(trel / phase) % 3];
}

/*
 * Two paced flows through one queue: A at a fixed rate, B at twice it,
 * then at it, then off (the paper's Fig. 6c run), i.e. ideal gradients
 * 0.5, 0, -0.5 in turn.  Send gaps ~ one packet time (jittered), delay
 * noise uniform +-noise.  BLS and per-packet division + EWMA(0.2) run on
 * the same samples; both are scored at every batch close.
 */
static void test_accuracy_one(const char *name, u64 ups, u64 rtt, u64 gap_lo,
			      u64 gap_hi, u64 noise, u64 phase, int cycles,
			      long double *mse_b, long double *mse_e)
{
	struct dcc_bls_cfg cfg = {
		.tau = rtt / 2, .units_per_sec = ups, .min_samples = 3,
		.bytes_per_pkt = 1500, .shift = dcc_bls_shift_for(rtt / 2),
	};
	struct dcc_bls b;
	struct dcc_bls_out o;
	long double q = 0, ewma = 0, se_b = 0, se_e = 0;
	long double se_bg[3] = { 0 }, se_eg[3] = { 0 };
	u64 nb = 0, nbg[3] = { 0 };
	u64 t0 = rnd64() >> 2, t = 0, end = phase * 3 * (u64)cycles;
	u64 prev_ts = 0, prev_d = 0;
	int have_prev = 0;

	dcc_bls_reset(&b);
	while (t < end) {
		u64 gap = rnd_range(gap_lo, gap_hi);
		long double g = phase_g(t, phase);
		struct dcc_bls_sample s;
		s64 nz = (s64)rnd_range(0, 2 * noise) - (s64)noise;

		/* queue integrates the ideal gradient over send time */
		q += g * gap;
		if (q < 0)
			q = 0;
		t += gap;
		s.send_ts = t0 + t;
		s.delay = (u64)((s64)rtt + (s64)llroundl(q) + nz);
		s.pkts = 1;
		s.infl = 10;
		if (have_prev && s.send_ts > prev_ts) {
			long double r = ((long double)(s64)(s.delay - prev_d)) /
					(long double)(s.send_ts - prev_ts);

			ewma = 0.8L * ewma + 0.2L * r;
		}
		have_prev = 1;
		prev_ts = s.send_ts;
		prev_d = s.delay;
		if (dcc_bls_add(&b, &cfg, &s, &o) && t > phase / 4) {
			long double gb = o.grad_valid ? o.grad_q16 / 65536.0L : 0;
			int k = (int)((t / phase) % 3);

			CHECK(!o.stale && o.grad_valid, "%s: batch stale/invalid", name);
			se_b += (gb - g) * (gb - g);
			se_e += (ewma - g) * (ewma - g);
			se_bg[k] += (gb - g) * (gb - g);
			se_eg[k] += (ewma - g) * (ewma - g);
			nbg[k]++;
			nb++;
		}
	}
	*mse_b = se_b / nb;
	*mse_e = se_e / nb;
	tap_diag("mse %s bls=%.5Lf ewma=%.5Lf ratio=%.1f (%llu batches; per g=+0.5/0/-0.5: bls %.5Lf/%.5Lf/%.5Lf ewma %.4Lf/%.4Lf/%.4Lf)",
		 name, *mse_b, *mse_e, (double)(*mse_e / *mse_b),
		 (unsigned long long)nb, se_bg[0] / nbg[0], se_bg[1] / nbg[1],
		 se_bg[2] / nbg[2], se_eg[0] / nbg[0], se_eg[1] / nbg[1],
		 se_eg[2] / nbg[2]);
	CHECK(nb >= 100, "%s: only %llu batches", name, (unsigned long long)nb);
	CHECK(*mse_b <= 0.01, "%s: BLS MSE %.5Lf > 0.01", name, *mse_b);
	CHECK(*mse_b * 5 <= *mse_e, "%s: BLS MSE %.5Lf not 5x below EWMA %.5Lf",
	      name, *mse_b, *mse_e);
}

static void test_accuracy(void)
{
	long double mb, me;

	tap_begin("bls: OSCAR Fig. 6c accuracy: MSE <= 0.01 vs ideal g in {0.5,0,-0.5} and >= 5x below division+EWMA(0.2)");
	/*
	 * ns clock, the paper's Fig. 6c shape: 20 Gb/s, 1500 B (600 ns/pkt,
	 * jittered 300..900 ns), RTT 20 us (tau 10 us), 500 us phases,
	 * delay noise +-1 us.
	 */
	test_accuracy_one("ns-20G", DCC_NSEC_PER_SEC, 20000, 300, 900, 1000,
			  500000, 20, &mb, &me);
	/*
	 * us clock (tcp_mstamp): 10 Gb/s (1.2 us/pkt -> integer gaps 0..3),
	 * RTT 100 us (tau 50 us), 2 ms phases, noise +-2 us.
	 */
	test_accuracy_one("us-10G", DCC_USEC_PER_SEC, 100, 0, 3, 2, 2000, 20,
			  &mb, &me);
	tap_end();
}

/* ---- 9. delays at the edges of the range -------------------------------- */

static void test_delay_range(void)
{
	struct gen_ctx c = { .name = "delay-range" };
	static const u64 rtts[] = { 1, 2, 1000000, 1000000000ULL };

	tap_begin("bls: delay mean/gradient over RTT 1 unit .. 1 s (ns) and excursions up to Y_MAX");
	for (unsigned int i = 0; i < 4; i++) {
		for (int excursion = 0; excursion < 2; excursion++) {
			u64 tau = 1000;
			struct dcc_bls_cfg cfg = {
				.tau = tau, .units_per_sec = DCC_NSEC_PER_SEC,
				.min_samples = 3, .bytes_per_pkt = 1500,
				.shift = dcc_bls_shift_for(tau),
			};
			size_t n = 2000;

			for (size_t k = 0; k < n; k++) {
				S[k].send_ts = 5000 + k * 37;
				/* delay swings by up to Y_MAX above the RTT */
				S[k].delay = rtts[i] + (excursion ?
					(u64)rnd_range(0, DCC_BLS_Y_MAX) : k % 7);
				S[k].pkts = 1;
				S[k].infl = 1;
			}
			feed(&cfg, n, cb_generic, &c);
		}
	}
	tap_end();
}

/*
 * Known limitation (not in bls.h): the batch's first delay y0 is kept in a
 * u32 of shifted units, so delays of 2^32 << shift units or more are
 * clamped: with ns timestamps at shift 0 (tau <= ~1 ms) that is 4.29 s.
 * Beyond the 1 s RTT range dcc targets, hence TODO rather than a failure;
 * the mean and the slope must still be right (or the header must say so).
 */
static void test_huge_delay(void)
{
	struct dcc_bls_cfg cfg = {
		.tau = 100000, .units_per_sec = DCC_NSEC_PER_SEC,
		.min_samples = 3, .bytes_per_pkt = 1500,
		.shift = dcc_bls_shift_for(100000),
	};
	struct gen_ctx c = { .name = "huge delay" };

	tap_begin("bls: delays beyond 2^32 << shift units (ns, shift 0, 5 s RTT, slope 0.5): mean and gradient");
	for (size_t k = 0; k < 100; k++) {
		S[k].send_ts = 1000 + k * 10000;
		S[k].delay = 5000000000ULL + k * 5000;
		S[k].pkts = 1;
		S[k].infl = 1;
	}
	feed(&cfg, 100, cb_generic, &c);
	CHECK(c.batches >= 5, "batches %llu", (unsigned long long)c.batches);
	tap_end_todo("y0 is a u32: delays >= 2^32 << shift are clamped (documented range limit in bls.h, beyond the 1 s RTT contract)");
}

int main(void)
{
	tap_header();
	tap_seed_from_env();
	test_linear();
	test_random();
	test_full_range();
	test_wrap();
	test_closing_rules();
	test_slope();
	test_shift_for();
	test_accuracy();
	test_delay_range();
	test_huge_delay();
	return tap_done();
}
