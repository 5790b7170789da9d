// SPDX-License-Identifier: GPL-2.0
/*
 * TIMELY, patched TIMELY and SQCC: the shared per-ACK core (timely_law.c)
 * in exact checks of its steps, at the range extremes, and behind the
 * shared packet-level bottleneck model (model.h) whose senders run the
 * very core tcp_timely.ko, tcp_timely_p.ko and tcp_sqcc.ko run: the
 * config from module parameters (timely_cfg_resolve), timely_on_init per
 * flow and timely_on_ack per ACK with the model's nanosecond sample; the
 * model paces at and caps the window to the decision it returns.
 *
 * Model: N senders paced at their rate, window-capped at the decision's
 * cwnd (whole packets, rounded up, at least 2, as dcc_lib applies it);
 * packets cross half the base RTT, wait in a FIFO served at C, every
 * packet is ACKed and the ACK returns after the other half.  Event-driven
 * on a u64 ns clock.  The queue is counted in packets, the one in service
 * included; its distribution (std, p1, p99, empty share) is sampled every
 * 1 us here, its mean is the model's time-weighted one.  "empty" is thus
 * the share of time the link idles (nothing queued, nothing in service).
 *
 * Two scales:
 *  - the paper's (10 Gbit/s, D = 5 us, 1000-byte packets, absolute mode,
 *    T_low 50 us, T_high 500 us, delta 10 Mbit/s, beta 0.008, D_minRTT
 *    20 us): Fig. 1 (N = 60, patched vs error-only SQCC) and Fig. 2 (the
 *    delta adjustment at N = 40/60);
 *  - the VM testbed's (100 Mbit/s, 10 ms, 1500-byte packets, relative
 *    mode, T_low0 = seg/C = 5 ms, T_high = 50 ms, delta0 chosen so that
 *    E = delta N / (beta C) = 4 at N = 16):
 *    the single-flow and 16-to-1 incast claims the VM tests assert.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "dcc/timely.h"
#include "model.h"

#define MAXF 1024
#define QHIST 8192

/*
 * One TIMELY/SQCC socket behind the model, as tcp_timely.c runs it: the
 * core's state, the module's config, and the facts the glue passes to
 * timely_on_change() -- tcp_min_rtt() (here: the handshake's RTT over the
 * empty path, then the min of the samples), n_local = 1 (every modelled
 * sender is its own host: SQCC's N estimate is the sender-side one) and
 * the max pacing rate (the sender's NIC).
 */
struct tflow {
	struct timely_state st;
	const struct timely_cfg *c;
	u64 rate_max;
	u32 min_rtt_ns;
	u32 updates;
	/* the loss episode, as the stack plays it (drop-tail scenarios) */
	struct model_flow *mf;	/* the model's flow: ack_seq, next_seq */
	u64 rec_seq;		/* the episode ends when this is ACKed */
	bool in_rec;
};

/*
 * timely_cong_control(): the core on the sample dcc_sample_get() built; a
 * decision only when one is due (the model keeps the one in force)
 */
static void tflow_on_ack(void *cc, const struct dcc_sample *s,
			 struct dcc_decision *d)
{
	struct tflow *f = cc;
	struct timely_update u;

	/*
	 * Loss episodes as tcp_timely.c sees them: the first loss report
	 * enters recovery (ssthresh saves the undo rate, set_state cuts),
	 * which ends when the data sent up to then is acknowledged
	 * (snd_una passes high_seq: timely_on_recovered()).  The model
	 * retransmits nothing, so no undo.
	 */
	if (f->in_rec && !s->losses && f->mf->ack_seq >= f->rec_seq) {
		f->in_rec = false;
		timely_on_recovered(&f->st);
	}
	if (s->losses && !f->in_rec) {
		f->in_rec = true;
		f->rec_seq = f->mf->next_seq;
		timely_save_undo(&f->st);
		timely_on_loss(&f->st, f->c, false, s->rx_ns, f->min_rtt_ns,
			       s->mss, d);
		return;
	}
	if (!s->why && s->rtt_ns < f->min_rtt_ns)
		f->min_rtt_ns = s->rtt_ns;
	if (!timely_on_ack(&f->st, f->c, s))
		return;
	timely_on_change(&f->st, f->c, s, f->min_rtt_ns, 1, f->rate_max,
			 d, &u);
	if (d->flags & TIMELY_D_UPDATE)
		f->updates++;
}

struct sim {
	struct model m;
	struct timely_cfg c;
	u64 C;			/* B/s */
	u64 rate_max;		/* the sender NIC's rate (max pacing rate) */
	u32 base_us, mss;
	struct tflow f[MAXF];
	/* the queue sampled every 1 us over the last sim_run */
	u64 q_sum, q_sq, q_n, q_empty;
	u32 hist[QHIST];
};

struct qstats {
	double mean, std, p1, p99, empty;
};

/*
 * @c: the senders' config; SQCC's N from @n_fixed (TIMELY_N_FIXED) or,
 * with @n_fixed 0, the sender-side estimate (TIMELY_N_ESTIMATE, C known).
 * @noise_us: the receive-time noise, uniform in +-noise_us.
 */
static struct sim *sim_new(const struct timely_cfg *c, u64 rate_max, u64 C,
			   u32 base_us, u32 mss, u32 n_fixed, u32 noise_us)
{
	struct sim *s = calloc(1, sizeof(*s));

	if (!s)
		abort();
	s->c = *c;
	s->c.n_source = n_fixed ? TIMELY_N_FIXED : TIMELY_N_ESTIMATE;
	s->c.n_flows = n_fixed;
	s->rate_max = rate_max;
	s->C = C;
	s->base_us = base_us;
	s->mss = mss;
	model_init(&s->m, &(struct model_link){
		.rate_bytes_ps = C, .mss = mss,
		.noise_ns = noise_us * 1000, .seed = rnd64() });
	return s;
}

static void sim_free(struct sim *s)
{
	model_free(&s->m);
	free(s);
}

/* flow @i (the model's next) starts now at @rate: timely_init() */
static void flow_start(struct sim *s, int i, u64 rate)
{
	struct tflow *f = &s->f[i];
	struct dcc_decision d;
	u32 base_ns = s->base_us * 1000;

	memset(f, 0, sizeof(*f));
	f->c = &s->c;
	f->rate_max = s->rate_max;
	f->min_rtt_ns = base_ns;
	/* the initial window is the kernel's TCP_INIT_CWND packets */
	timely_on_init(&f->st, &s->c, rate, s->m.now_ns, base_ns,
		       (u64)TIMELY_INIT_CWND * s->mss, s->mss, s->rate_max, &d);
	if (model_add_flow(&s->m, base_ns,
			   (struct model_cc){ tflow_on_ack, f }, d) != i)
		abort();
	f->mf = &s->m.f[i];
}

/* Run @us; per-flow goodput (B/s) into @tput (may be NULL), queue stats. */
static void sim_run(struct sim *s, u64 us, double *tput, struct qstats *qs)
{
	u64 end = s->m.now_ns + us * 1000;

	model_reset_stats(&s->m);
	if (!qs) {
		model_run(&s->m, end);
	} else {
		s->q_sum = s->q_sq = s->q_n = s->q_empty = 0;
		memset(s->hist, 0, sizeof(s->hist));
		for (u64 t = 0; t < us; t++) {
			u64 q;

			model_run(&s->m, s->m.now_ns + 1000);
			q = s->m.q_bytes / s->mss;
			s->q_sum += q;
			s->q_sq += q * q;
			s->q_n++;
			s->q_empty += q == 0;
			s->hist[q < QHIST ? q : QHIST - 1]++;
		}
	}
	for (int i = 0; tput && i < MAXF; i++)
		tput[i] = i < s->m.nflows ? model_flow_rate(&s->m, i) : 0;
	if (qs) {
		u64 acc = 0;
		double n = (double)s->q_n;

		double smean = s->q_sum / n;

		qs->mean = model_mean_q_bytes(&s->m) / s->mss;
		qs->std = sqrt(fmax(0, s->q_sq / n - smean * smean));
		qs->empty = s->q_empty / n;
		qs->p1 = qs->p99 = -1;
		for (int i = 0; i < QHIST; i++) {
			acc += s->hist[i];
			if (qs->p1 < 0 && acc >= 0.01 * n)
				qs->p1 = i;
			if (qs->p99 < 0 && acc >= 0.99 * n)
				qs->p99 = i;
		}
	}
}

static double sum(const double *x, int n)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += x[i];
	return s;
}

static double jain(const double *x, int n)
{
	double s = 0, s2 = 0;

	for (int i = 0; i < n; i++) {
		s += x[i];
		s2 += x[i] * x[i];
	}
	return s2 > 0 ? s * s / (n * s2) : 0;
}

/* ---- configurations --------------------------------------------------- */

/* The paper's setting (§IV), absolute mode, as module parameters */
#define PAPER_C (10000 * DCC_MBPS_TO_BPS)
#define PAPER_RATE_MAX PAPER_C		/* NIC = link */
static struct timely_cfg paper_cfg_clock(int kind, u32 clock)
{
	struct timely_params p = {
		.delay_mode = 1,
		.t_low_us = 50, .t_high_us = 500, .rtt_ref_us = 50,
		.base_rtt_us = 5, .min_rtt_us = 20,
		.alpha_ppm = 875000,
		.beta_ppm = kind == TIMELY_LAW_GRADIENT ? 800000 : 8000,
		.hai_thresh = kind == TIMELY_LAW_GRADIENT ? 5 : 0,
		.delta_kbps = 10000, .link_mbps = 10000, .rate_min_kbps = 1000,
		.seg_bytes = 65536, .loss_md_pct = 50, .loss_regain = 1,
		.empty_hai = 1,	/* the modules' */
		.n_source = TIMELY_N_FIXED,
		.n_flows = 1,
		.update_clock = clock,
	};
	struct timely_cfg c;

	timely_cfg_resolve(&c, (u8)kind, &p);
	return c;
}

/* the completion clock (update_clock 0, the default) */
static struct timely_cfg paper_cfg(int kind)
{
	return paper_cfg_clock(kind, 0);
}

/*
 * The VM testbed's (selftests/timely_common.sh): 100 Mbit/s, 10 ms base
 * RTT, relative mode, T_low0 = 5 ms (~ seg/C = 5.2 ms), T_high = 10 T_low0,
 * D_minRTT = base RTT, delta0 = 200 kbit/s = C/500, so that at N = 16
 * E = delta N / (beta C) = 4, the paper's N = 32..40 operating point
 * (its Fig. 1 N = 40 has E = 5).  With delta0 = 375 kbit/s (E = 7.5, the
 * paper's N = 60) error-only SQCC cycles in this model: the whole
 * aggregate is cut to rate_min near T_high and each flow then needs
 * seg/rate_min = 0.5 s for its next completion (6 % link idle, 17 % of
 * the time no packet waiting).
 */
#define TB_C (100 * DCC_MBPS_TO_BPS)
#define TB_BASE 10000
#define TB_DELTA 25000		/* 200 kbit/s in B/s */
#define TB_RATE_MAX (10 * TB_C)	/* the sender's NIC (veth) is faster */
/*
 * The guest's software delay on the ACK path: 300 us of spread, as the
 * receive-time noise of the model, +-150 us (zero mean; the private model
 * this test had before added 0..300 us to the RTT).
 */
#define TB_NOISE_US 150
static struct timely_cfg tb_cfg_clock(int kind, u32 clock)
{
	struct timely_params p = {
		.t_low_us = 5000, .t_high_us = 50000, .rtt_ref_us = 5000,
		.min_rtt_us = TB_BASE,
		.alpha_ppm = 875000,
		.beta_ppm = kind == TIMELY_LAW_GRADIENT ? 800000 : 8000,
		.hai_thresh = kind == TIMELY_LAW_GRADIENT ? 5 : 0,
		.delta_kbps = TB_DELTA / 125, .link_mbps = 100,
		.rate_min_kbps = 1000, .seg_bytes = 65536, .loss_md_pct = 50,
		.loss_regain = 1, .empty_hai = 1,
		.n_source = TIMELY_N_FIXED, .n_flows = 1,
		.update_clock = clock,
	};
	struct timely_cfg c;

	timely_cfg_resolve(&c, (u8)kind, &p);
	return c;
}

static struct timely_cfg tb_cfg(int kind)
{
	return tb_cfg_clock(kind, 0);
}

static const char *const kname[] = { "timely", "timely_p", "sqcc" };

/* ---- exact checks of the core's steps (times in ns) -------------------- */

#define US 1000U	/* ns */
#define PAPER_BASE (5 * US)

/* timely_law_update at the paper's setting: base 5 us, N = 1 */
static void law(const struct timely_cfg *c, struct timely_state *s, u32 rtt_ns,
		struct timely_law_out *o)
{
	timely_law_update(c, s, rtt_ns, PAPER_BASE, 1, 0, false, PAPER_RATE_MAX, o);
}

static void seed(const struct timely_cfg *c, struct timely_state *s,
		 u64 rate, u32 rtt_ns)
{
	struct timely_law_out o;

	*s = (struct timely_state){ .rate = rate };
	law(c, s, rtt_ns, &o);	/* first: seeds only */
}

static void test_exact(void)
{
	struct timely_cfg c;
	struct timely_state s;
	struct timely_law_out o;

	tap_begin("law: first sample only seeds prevRTT (as HPCC's TIMELY); bands of Alg. 1");
	c = paper_cfg(TIMELY_LAW_GRADIENT);
	s = (struct timely_state){ .rate = 1000000000 };
	law(&c, &s, 300 * US, &o);
	CHECK(o.branch == TIMELY_BR_FIRST && s.rate == 1000000000 && s.prev_rtt_ns == 300 * US,
	      "branch %u rate %llu", o.branch, (unsigned long long)s.rate);
	law(&c, &s, 40 * US, &o);
	CHECK(o.branch == TIMELY_BR_LOW && s.rate == 1000000000 + (u64)c.delta_bytes_ps,
	      "below T_low: branch %u rate %llu", o.branch, (unsigned long long)s.rate);
	seed(&c, &s, 1000000000, 1000 * US);
	law(&c, &s, 1000 * US, &o);
	/* 1 - 0.8 (1 - 500/1000) = 0.6 */
	CHECK(o.branch == TIMELY_BR_HIGH && llabs((long long)s.rate - 600000000) < 100000,
	      "above T_high: rate %llu want 6e8", (unsigned long long)s.rate);
	/* g > 0: diff 10 us, alpha 0.875 -> rttDiff 8.75, g = 0.4375,
	 * rate *= 1 - 0.8 * 0.4375 = 0.65 */
	seed(&c, &s, 1000000000, 200 * US);
	law(&c, &s, 210 * US, &o);
	CHECK(o.branch == TIMELY_BR_DEC && llabs((long long)s.rate - 650000000) < 200000,
	      "gradient cut: g %d rate %llu want 6.5e8", o.g_q16, (unsigned long long)s.rate);
	tap_end();

	tap_begin("law: TIMELY HAI: 5 x delta after 5 negative gradients ([17])");
	seed(&c, &s, 1000000000, 400 * US);
	{
		u64 before = 0;
		int i;

		for (i = 0; i < 6; i++) {
			before = s.rate;
			law(&c, &s, (399 - i) * US, &o);
		}
		CHECK(s.rate - before == 5 * (u64)c.delta_bytes_ps, "6th step %llu",
		      (unsigned long long)(s.rate - before));
		c.hai_thresh = 0;	/* Alg. 1 literally */
		before = s.rate;
		law(&c, &s, 390 * US, &o);
		CHECK(s.rate - before == (u64)c.delta_bytes_ps, "hai off step %llu",
		      (unsigned long long)(s.rate - before));
	}
	tap_end();

	tap_begin("law: fixed point: g = 0, w = 0.5 and err = delta/(beta R) hold the rate (Eq. 6/19)");
	for (int kind = TIMELY_LAW_PATCHED; kind <= TIMELY_LAW_SQCC; kind++) {
		for (u32 d = 60; d < 460; d += 37) {
			u64 R = 300 * DCC_MBPS_TO_BPS, want_delta;
			double err;

			c = paper_cfg(kind);
			err = kind == TIMELY_LAW_PATCHED ? (d - 50.0) / 50.0 :
			      500.0 * (d - 50.0) / (50.0 * (500.0 - d));
			/* delta = beta err R: then delta (1 - w) = R beta err w */
			want_delta = (u64)(0.008 * err * (double)R + 0.5);
			c.delta_bytes_ps = want_delta;
			c.link_bytes_ps = 0;	/* SQCC at N = 1: delta = delta0 */
			seed(&c, &s, R, d * US);
			law(&c, &s, d * US, &o);
			CHECK(o.w_q16 == TIMELY_ONE / 2 && fabs((double)s.rate - R) < 1e-4 * R,
			      "%s d=%u err=%.3f w=%u rate %llu want %llu", kname[kind], d, err,
			      o.w_q16, (unsigned long long)s.rate, (unsigned long long)R);
		}
	}
	tap_end();

	tap_begin("law: SQCC error function Eq. 16 (0 at T_low, 10 at mid-band, E_MAX at T_high)");
	c = paper_cfg(TIMELY_LAW_SQCC);
	seed(&c, &s, 1000000000, 50 * US);
	law(&c, &s, 50 * US, &o);
	CHECK(o.err_q16 == 0, "d=T_low err %lld", (long long)o.err_q16);
	seed(&c, &s, 1000000000, 275 * US);
	law(&c, &s, 275 * US, &o);
	CHECK(o.err_q16 == 10 * TIMELY_ONE, "d=275 err %lld", (long long)o.err_q16);
	/* d -> T_high with a rising RTT: err = E_MAX, w = 1: rate to rate_min */
	seed(&c, &s, 1000000000, 400 * US);
	law(&c, &s, 500 * US, &o);
	CHECK(o.err_q16 == (s64)timely_emax_q16(c.beta_q20) && s.rate == c.rate_min_bytes_ps,
	      "d=T_high err %lld rate %llu", (long long)o.err_q16, (unsigned long long)s.rate);
	/* patched at the same point cuts only beta (500-50)/50 = 7.2 % */
	c = paper_cfg(TIMELY_LAW_PATCHED);
	seed(&c, &s, 1000000000, 400 * US);
	law(&c, &s, 500 * US, &o);
	CHECK(llabs((long long)s.rate - 928000000) < 100000, "patched at T_high: rate %llu",
	      (unsigned long long)s.rate);
	tap_end();

	tap_begin("law: SQCC self-adjustment (Eq. 25 at C = 10 Gbit/s; Table II, §IV.B)");
	{
		static const struct { u32 n; u8 k; u32 tl; double delta_mbps; } t[] = {
			{ 1, 1, 50, 10 }, { 10, 1, 50, 10 }, { 40, 1, 50, 6.25 },
			{ 60, 1, 50, 2.7778 }, { 100, 2, 100, 2 }, { 500, 2, 100, 0.08 },
			{ 1000, 3, 150, 0.03 }, { 65535, 4, 200, 0.0000093 },
		};

		c = paper_cfg(TIMELY_LAW_SQCC);
		for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
			u8 k = timely_sqcc_k(t[i].n);
			double dm = timely_sqcc_delta(&c, t[i].n, k) * 8 / 1e6;

			CHECK(k == t[i].k && timely_sqcc_t_low(&c, k) == t[i].tl * US &&
			      fabs(dm - t[i].delta_mbps) <= 0.001 * t[i].delta_mbps + 8e-6,
			      "N=%u k=%u T_low=%u ns delta=%.5f Mbit/s", t[i].n, k,
			      timely_sqcc_t_low(&c, k), dm);
		}
		CHECK(timely_n_sample(c.link_bytes_ps, 0, c.link_bytes_ps / 60) == 60, "N sample %u",
		      timely_n_sample(c.link_bytes_ps, 0, c.link_bytes_ps / 60));
		CHECK(timely_n_sample(c.link_bytes_ps, TIMELY_ONE, c.link_bytes_ps / 30) == 60,
		      "N sample g=1: %u", timely_n_sample(c.link_bytes_ps, TIMELY_ONE, c.link_bytes_ps / 30));
	}
	tap_end();

	tap_begin("law: empty_hai: nothing before a loss cut; after one, HAI's 5 delta at the 7th completion in a row below T_low/4, 10 delta from the 8th");
	{
		u64 r0 = 1000 * DCC_MBPS_TO_BPS / 8, dl;

		c = paper_cfg(TIMELY_LAW_PATCHED);	/* T_low 50 us, absolute */
		dl = c.delta_bytes_ps;
		seed(&c, &s, r0, 6 * US);
		for (int i = 0; i < 10; i++)
			law(&c, &s, 6 * US, &o);
		CHECK(o.branch == TIMELY_BR_LOW && !s.empty_cnt && s.rate == r0 + 10 * dl,
		      "unarmed: branch %u streak %u", o.branch, s.empty_cnt);
		s.flags |= TIMELY_S_LOSSY;	/* timely_on_loss() sets it */
		s.rate = r0;
		for (int i = 0; i < TIMELY_EMPTY_STREAK - 1; i++)
			law(&c, &s, 6 * US, &o);
		CHECK(o.branch == TIMELY_BR_LOW && s.empty_cnt == TIMELY_EMPTY_STREAK - 1 &&
		      s.rate == r0 + (TIMELY_EMPTY_STREAK - 1) * dl,
		      "streak: branch %u count %u", o.branch, s.empty_cnt);
		law(&c, &s, 6 * US, &o);
		CHECK(o.branch == TIMELY_BR_EMPTY &&
		      s.rate == r0 + (TIMELY_EMPTY_STREAK - 1 + TIMELY_HAI_MULT) * dl,
		      "7th: branch %u rate %llu", o.branch, (unsigned long long)s.rate);
		for (int i = 0; i < 2; i++)
			law(&c, &s, 6 * US, &o);
		CHECK(o.branch == TIMELY_BR_EMPTY && s.empty_cnt == TIMELY_EMPTY_STREAK &&
		      s.rate == r0 + (TIMELY_EMPTY_STREAK - 1 + 5 * TIMELY_HAI_MULT) * dl,
		      "8th, 9th: branch %u count %u rate %llu", o.branch, s.empty_cnt,
		      (unsigned long long)s.rate);
		/* 12.5 us = T_low / 4: not near empty, the streak restarts */
		law(&c, &s, 12500, &o);
		CHECK(o.branch == TIMELY_BR_LOW && !s.empty_cnt, "at T_low/4: branch %u streak %u",
		      o.branch, s.empty_cnt);
		c.empty_hai = 0;
		law(&c, &s, 6 * US, &o);
		CHECK(!s.empty_cnt, "empty_hai 0 counted");
	}
	tap_end();

	tap_begin("law: empty_hai in TIMELY's law: an early window of b bytes adds delta b / seg below T_low; HAI's step from the 20th near-empty update in a row; per-RTT windows from the 7th");
	{
		u64 r0 = 1000 * DCC_MBPS_TO_BPS / 8, dl, want;
		u32 n = timely_empty_streak(TIMELY_LAW_GRADIENT);

		c = paper_cfg(TIMELY_LAW_GRADIENT);	/* T_low 50 us, absolute */
		c.empty_hai = 1;
		dl = c.delta_bytes_ps;
		seed(&c, &s, r0, 6 * US);
		s.flags |= TIMELY_S_LOSSY;
		timely_law_update(&c, &s, 6 * US, PAPER_BASE, 1, c.seg_bytes / 4, false,
				  PAPER_RATE_MAX, &o);
		CHECK(o.branch == TIMELY_BR_LOW && s.rate == r0 + dl / 4 && s.empty_cnt == 1,
		      "a quarter window: rate %llu want %llu", (unsigned long long)s.rate,
		      (unsigned long long)(r0 + dl / 4));
		timely_law_update(&c, &s, 6 * US, PAPER_BASE, 1, 2 * c.seg_bytes, false,
				  PAPER_RATE_MAX, &o);
		CHECK(s.rate == r0 + dl / 4 + dl, "more than seg: a full step");
		want = s.rate;
		for (u32 i = 2; i < n - 1; i++) {
			law(&c, &s, 6 * US, &o);
			want += dl;
		}
		CHECK(n == 20 && o.branch == TIMELY_BR_LOW && s.empty_cnt == n - 1 &&
		      s.rate == want, "19 in a row: branch %u count %u", o.branch, s.empty_cnt);
		law(&c, &s, 6 * US, &o);
		CHECK(o.branch == TIMELY_BR_EMPTY && s.rate == want + TIMELY_HAI_MULT * dl &&
		      s.empty_cnt == n, "20th: branch %u rate %llu", o.branch,
		      (unsigned long long)s.rate);
		law(&c, &s, 6 * US, &o);
		CHECK(o.branch == TIMELY_BR_EMPTY &&
		      s.rate == want + 3 * TIMELY_HAI_MULT * dl, "21st: 10 delta");
		s.empty_cnt = TIMELY_EMPTY_CREDIT_GRAD - 1;
		CHECK(!timely_empty_credited(&s, TIMELY_LAW_GRADIENT) &&
		      timely_empty_credited(&s, TIMELY_LAW_PATCHED), "6 in a row: not yet");
		s.empty_cnt++;
		CHECK(timely_empty_credited(&s, TIMELY_LAW_GRADIENT), "the 7th: per RTT");
		c.seg_bytes = 0;	/* the RTT clock: a full step whatever */
		law(&c, &s, 100 * US, &o);	/* above T_low: out of the streak */
		want = s.rate + dl;
		timely_law_update(&c, &s, 6 * US, PAPER_BASE, 1, 1000, false,
				  PAPER_RATE_MAX, &o);
		CHECK(o.branch == TIMELY_BR_LOW && s.empty_cnt == 1 && s.rate == want,
		      "restart: branch %u rate %llu want %llu", o.branch,
		      (unsigned long long)s.rate, (unsigned long long)want);
	}
	tap_end();

	tap_begin("law: completion window closes per seg bytes and >= D_minRTT, min RTT, delayed fallback");
	{
		struct timely_win_out wo;
		bool closed;

		c = paper_cfg(TIMELY_LAW_GRADIENT);	/* seg 64 KB, RTT min */
		s = (struct timely_state){ 0 };
		timely_win_reset(&s, 1000 * US);
		closed = timely_win_add(&s, &c, 1010 * US, 300 * US, false, 40000, 20 * US, &wo);
		CHECK(!closed, "closed after 40 KB");
		closed = timely_win_add(&s, &c, 1015 * US, 0, false, 30000, 20 * US, &wo);
		CHECK(!closed, "closed before D_minRTT");
		closed = timely_win_add(&s, &c, 1030 * US, 200 * US, false, 1000, 20 * US, &wo);
		CHECK(closed && wo.rtt_ns == 200 * US && wo.bytes == 71000 && wo.span_ns == 30 * US,
		      "closed %d rtt %u bytes %u span %llu", closed, wo.rtt_ns, wo.bytes,
		      (unsigned long long)wo.span_ns);
		closed = timely_win_add(&s, &c, 1100 * US, 500 * US, true, 70000, 20 * US, &wo);
		CHECK(closed && wo.rtt_ns == 500 * US, "delayed-only window rtt %u", wo.rtt_ns);
		/* a delayed ACK's sample is the fallback: the next plain one wins */
		timely_win_add(&s, &c, 1110 * US, 100 * US, true, 1000, 20 * US, &wo);
		closed = timely_win_add(&s, &c, 1150 * US, 300 * US, false, 70000, 20 * US, &wo);
		CHECK(closed && wo.rtt_ns == 300 * US, "plain sample after a delayed one: rtt %u",
		      wo.rtt_ns);
		closed = timely_win_add(&s, &c, 1200 * US, 0, false, 70000, 20 * US, &wo);
		CHECK(!closed, "a window without any RTT sample closed");
		/* the clock is u64 ns: a window longer than 2^32 ns (4.29 s) */
		timely_win_reset(&s, 0xfffffff0u);
		closed = timely_win_add(&s, &c, 0x1fffffff0ULL, 100 * US, false, 70000, 20 * US, &wo);
		CHECK(closed && wo.span_ns == 0x100000000ULL, "span %llu",
		      (unsigned long long)wo.span_ns);
	}
	tap_end();
}

/* Random inputs across the whole documented range: invariants hold, no UB. */
static void test_extremes(void)
{
	static const u64 rates[] = { 125000, 1000000, 1250000000ULL, 100000000000ULL };
	static const u32 rtts[] = { 1, 1000, 20000, 500000, 100000000, 1000000000,
				    TIMELY_RTT_MAX_NS, 0xffffffffu };

	tap_begin("law: range extremes (1 Mbit/s..800 Gbit/s, 1 us..1 s, beta/alpha 1 ppm..1) keep invariants");
	for (int it = 0; it < 200000; it++) {
		struct timely_cfg c = {
			.kind = (u8)rnd_range(0, 2),
			.relative = rnd_range(0, 1),
			.thigh_max_cut = rnd_range(0, 1),
			.hai_thresh = (u8)rnd_range(0, 255),
			.t_high_ns = (u32)rnd_range(2, 1000000) * US,
			.dmin_ns = (u32)rnd_range(1, 1000000) * US,
			.alpha_q16 = TIMELY_PPM_TO_Q16(rnd_range(16, 1000000)),
			.beta_q20 = TIMELY_PPM_TO_Q20(rnd_range(1, 1000000)),
			.delta_bytes_ps = rnd_range(1, 100000000000ULL),
			.link_bytes_ps = rnd_range(0, 1) ? rnd_range(125000, 100000000000ULL) : 0,
			.rate_min_bytes_ps = rnd_range(1, 125000),
		};
		u64 rate_max = 100000000000ULL;
		u32 base = (u32)rnd_range(1, 1000000) * US;
		struct timely_state s = { .rate = rates[rnd_range(0, 3)] };
		struct timely_law_out o;

		if (!c.beta_q20)
			c.beta_q20 = 1;
		c.t_low_ns = (u32)rnd_range(1, c.t_high_ns / US - 1) * US;
		c.rtt_ref_ns = (u32)rnd_range(1, 1000000) * US;
		for (int j = 0; j < 8; j++) {
			u32 rtt = rnd_range(0, 3) ? rtts[rnd_range(0, 7)] : (u32)rnd_range(0, 2000000000);

			timely_law_update(&c, &s, rtt, base, (u32)rnd_range(0, 70000),
					  (u32)rnd_range(0, 5000000), rnd_range(0, 1),
					  rate_max, &o);
			CHECK(s.rate >= c.rate_min_bytes_ps && s.rate <= rate_max &&
			      o.g_q16 >= -64 * TIMELY_ONE && o.g_q16 <= 64 * TIMELY_ONE &&
			      o.w_q16 <= TIMELY_ONE && o.t_low_ns >= 1 && o.t_low_ns < c.t_high_ns &&
			      o.delta_bytes_ps >= 1 && timely_cwnd_bytes(&c, base, s.rate, 9000) < (1ULL << 60),
			      "kind %u rate %llu g %d w %u tl %u", (unsigned)c.kind,
			      (unsigned long long)s.rate, o.g_q16, o.w_q16, o.t_low_ns);
		}
		CHECK(timely_n_sample(rnd_range(0, 100000000000ULL), (s32)rnd_range(0, 1u << 31),
				      rnd_range(1, 100000000000ULL)) <= TIMELY_N_MAX, "n sample");
	}
	tap_end();
}

/* ---- model scenarios -------------------------------------------------- */

static void test_single(int kind)
{
	struct timely_cfg c = tb_cfg(kind);
	struct sim *m = sim_new(&c, TB_RATE_MAX, TB_C, TB_BASE, 1500, 1, TB_NOISE_US);
	struct qstats qs;
	double t[MAXF], util, dq_ms;

	flow_start(m, 0, TB_C);
	sim_run(m, 4000000, NULL, NULL);
	sim_run(m, 4000000, t, &qs);
	util = t[0] / TB_C;
	dq_ms = qs.mean * 1500 / (double)TB_C * 1e3;
	if (kind == TIMELY_LAW_GRADIENT) {
		/*
		 * Alg. 1 has no in-band fixed point (§II.A): the queue climbs
		 * by delta per completion below T_low, and the first gradient
		 * cut past T_low (beta = 0.8) drains it.  The same happens
		 * without noise (mean 10.8 pkts, p99 55): the cycle is the
		 * law's, not the noise's.  Asserted: the link stays full, the
		 * queue peaks in the band (T_low = 41.7 pkts <= p99 <= T_high
		 * = 417) and its mean stays below T_low.
		 */
		tap_begin("model %s: one flow at 100 Mbit/s, 10 ms: util %.3f (>= 0.90), queue p99 %.0f pkts in [T_low 41.7, T_high 417], mean %.1f pkts = %.2f ms < T_low 5 ms (no fixed point), empty %.3f, %u updates",
			  kname[kind], util, qs.p99, qs.mean, dq_ms, qs.empty, m->f[0].updates);
		CHECK(util >= 0.90, "util %.3f", util);
		CHECK(qs.p99 >= 41.7 && qs.p99 <= 417, "p99 %.0f", qs.p99);
		CHECK(dq_ms < 5, "mean %.2f ms", dq_ms);
	} else {
		tap_begin("model %s: one flow at 100 Mbit/s, 10 ms: util %.3f (>= 0.90), mean queue %.1f pkts = %.2f ms in [T_low/2 2.5, T_high 50] ms, p99 >= T_low (std %.1f, p1..p99 %.0f..%.0f, empty %.3f, %u updates)",
			  kname[kind], util, qs.mean, dq_ms, qs.std, qs.p1, qs.p99, qs.empty, m->f[0].updates);
		/*
		 * E = delta / (beta C) = 0.25 for one flow: the fixed point is
		 * 1.25 T_low (Eq. 6/17), but the only damping is the weight's
		 * 2 beta E, so a lone flow oscillates slowly around it and the
		 * mean lands near T_low.  Asserted: full link, the mean within
		 * [T_low / 2, T_high] and the queue reaching the band (p99).
		 */
		CHECK(util >= 0.90, "util %.3f", util);
		CHECK(dq_ms >= 2.5 && dq_ms <= 50, "queue %.2f ms", dq_ms);
		CHECK(qs.p99 * 1500 / (double)TB_C * 1e3 >= 5, "p99 %.0f pkts", qs.p99);
	}
	tap_end();
	sim_free(m);
}

struct incast_res {
	struct qstats qs;
	double util, jain;
	u32 n_med;
};

static void run_incast(struct sim *m, int nf, u64 warm_us, u64 meas_us,
		       struct incast_res *r)
{
	double t[MAXF];

	for (int i = 0; i < nf; i++)
		flow_start(m, i, m->C / nf);
	sim_run(m, warm_us, NULL, NULL);
	sim_run(m, meas_us, t, &r->qs);
	r->util = sum(t, nf) / m->C;
	r->jain = jain(t, nf);
	r->n_med = timely_n(&m->f[0].st, &m->c, 1);
}

/*
 * @nf senders of @kind at the testbed's scale, started at C/nf, with SQCC's
 * N fixed at @nf or (@estimate) from the sender-side estimate: 6 s to
 * settle, then @meas_us measured.
 */
static void run_tb_incast(int kind, int nf, bool estimate, u64 meas_us,
			  struct incast_res *r)
{
	struct timely_cfg c = tb_cfg(kind);
	struct sim *m = sim_new(&c, TB_RATE_MAX, TB_C, TB_BASE, 1500,
				estimate ? 0 : nf, TB_NOISE_US);

	run_incast(m, nf, 6000000, meas_us, r);
	sim_free(m);
}

static void test_incast_testbed(void)
{
	static const int nf = 16;
	struct incast_res r[4];
	const char *name[4] = { "timely_p", "sqcc (N fixed)", "sqcc (N estimated)", "timely" };

	for (int v = 0; v < 4; v++) {
		int kind = v == 0 ? TIMELY_LAW_PATCHED : v == 3 ? TIMELY_LAW_GRADIENT : TIMELY_LAW_SQCC;

		/* v = 2: N from the estimate */
		run_tb_incast(kind, nf, v == 2, 4000000, &r[v]);
		tap_diag("testbed 16-to-1 %s: util %.3f Jain %.4f queue mean %.1f std %.1f p1..p99 %.0f..%.0f pkts, empty %.3f, N %u",
			 name[v], r[v].util, r[v].jain, r[v].qs.mean, r[v].qs.std,
			 r[v].qs.p1, r[v].qs.p99, r[v].qs.empty, r[v].n_med);
	}
	tap_begin("model testbed 16-to-1: SQCC mean queue %.1f < timely_p %.1f pkts (ratio %.2f; Eq. 6/17 at E = 4: 149/208 = 0.71)",
		  r[1].qs.mean, r[0].qs.mean, r[1].qs.mean / r[0].qs.mean);
	CHECK(r[1].qs.mean < 0.85 * r[0].qs.mean, "ratio %.2f", r[1].qs.mean / r[0].qs.mean);
	CHECK(r[2].qs.mean < 0.85 * r[0].qs.mean, "estimate ratio %.2f", r[2].qs.mean / r[0].qs.mean);
	tap_end();
	tap_begin("model testbed 16-to-1: all converge: util >= 0.9 (timely: 0.8) and Jain >= 0.9 (timely_p %.3f/%.3f, sqcc %.3f/%.3f, sqcc-est %.3f/%.3f, timely %.3f/%.3f)",
		  r[0].util, r[0].jain, r[1].util, r[1].jain, r[2].util, r[2].jain, r[3].util, r[3].jain);
	/* TIMELY: no fixed point, the link idles an eighth of the time */
	for (int v = 0; v < 4; v++)
		CHECK(r[v].util >= (v == 3 ? 0.8 : 0.9) && r[v].jain >= 0.9,
		      "%s util %.3f jain %.3f", name[v], r[v].util, r[v].jain);
	tap_end();
	tap_begin("model testbed: SQCC's N estimate from C(1+g)/R lands near 16 (got %u, 8..32)",
		  r[2].n_med);
	CHECK(r[2].n_med >= 8 && r[2].n_med <= 32, "N %u", r[2].n_med);
	tap_end();
}

/*
 * The unstable regime at the testbed's scale (SQCC's claim: patched
 * TIMELY's queue grows with N and oscillates once E = delta N / (beta C)
 * passes ~8, SQCC's stays near k segments): N = 32, 40 and 48 senders
 * started at C/N, the 64 KB completion clock.  Patched TIMELY oscillates
 * there (std ~180 pkts, p1..p99 ~360..1030 in this model; 355..1110 at
 * N = 48, the VM test's N), where N = 16 sits still (std 1.3).
 * Asserted with N known (n_source fixed): SQCC's mean queue <= 0.5 of
 * patched TIMELY's, its p1..p99 range narrower, util >= 0.9.  With the
 * sender-side estimate (n_source 3) reported only: here C (1 + g) / R
 * reads N 2x high (R is a delivery rate, whose sum is C already) and the
 * link idles 40-54 % of the time at N = 32-40 (at 48 it reads N 36 and
 * holds a 622-packet queue); C / R read it right in this model but made
 * unequal flows in the guest read their own small share as a large N and
 * stay small (tcp_timely.c).
 */
static void test_unstable_testbed(void)
{
	static const int ns[] = { 32, 40, 48 };

	for (unsigned int i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		struct incast_res r[3];

		for (int v = 0; v < 3; v++)
			run_tb_incast(v ? TIMELY_LAW_SQCC : TIMELY_LAW_PATCHED,
				      ns[i], v == 2, 6000000, &r[v]);
		tap_begin("model testbed %d-to-1 (unstable for patched TIMELY): mean queue timely_p %.0f, sqcc %.0f pkts (<= 0.5x); p1..p99 %.0f..%.0f, %.0f..%.0f (narrower); util %.3f %.3f (>= 0.9)",
			  ns[i], r[0].qs.mean, r[1].qs.mean, r[0].qs.p1, r[0].qs.p99,
			  r[1].qs.p1, r[1].qs.p99, r[0].util, r[1].util);
		CHECK(r[1].qs.mean <= 0.5 * r[0].qs.mean, "mean %.0f", r[1].qs.mean);
		CHECK(r[1].qs.p99 - r[1].qs.p1 < r[0].qs.p99 - r[0].qs.p1, "range");
		CHECK(r[1].util >= 0.9, "util %.3f", r[1].util);
		tap_end();
		tap_begin("model testbed %d-to-1, SQCC with the sender-side N estimate: N %u, util %.3f (>= 0.9), mean queue %.0f pkts",
			  ns[i], r[2].n_med, r[2].util, r[2].qs.mean);
		CHECK(r[2].util >= 0.9, "util %.3f", r[2].util);
		tap_end_todo("C (1 + g) / R of a delivery rate reads N 2x high; C / R hurt unequal flows in the guest");
	}
}

/*
 * The VM fairness scenario: 4 flows joining 0.5 s apart at C/4 each
 * (init_rate_kbps), Jain's index over the last 5 s of 9.5 s.  The blend's
 * multiplicative term (beta err w, proportional to the rate) against the
 * equal additive term delta (1 - w) is AIMD: unequal rates converge.
 */
static void test_fairness_testbed(void)
{
	for (int kind = 0; kind < 3; kind++) {
		struct timely_cfg c = tb_cfg(kind);
		struct sim *m = sim_new(&c, TB_RATE_MAX, TB_C, TB_BASE, 1500, 4, TB_NOISE_US);
		struct qstats qs;
		double t[MAXF];

		for (int i = 0; i < 4; i++) {
			flow_start(m, i, TB_C / 4);
			sim_run(m, 500000, NULL, NULL);
		}
		sim_run(m, 3000000, NULL, NULL);
		sim_run(m, 5000000, t, &qs);
		tap_begin("model %s: 4 flows joining 0.5 s apart: Jain %.4f (>= 0.9; TIMELY: reported only), util %.3f (>= 0.9), queue mean %.1f pkts",
			  kname[kind], jain(t, 4), sum(t, 4) / TB_C, qs.mean);
		/* TIMELY has a continuum of fixed points, no fair one ([23]) */
		CHECK(kind == TIMELY_LAW_GRADIENT || jain(t, 4) >= 0.9, "jain %.4f", jain(t, 4));
		CHECK(sum(t, 4) / TB_C >= 0.9, "util %.3f", sum(t, 4) / TB_C);
		tap_end();
		sim_free(m);
	}
}

/*
 * The paper's Fig. 1 / Fig. 2 setting.  Without noise: the model's RNG is
 * unused and the figures do not depend on DCC_SEED.  At N = 60 a flow's
 * share of the 6-packet BDP is a tenth of a packet: the window as dcc_lib
 * applies it (rounded up, >= 2 packets) never binds and pacing alone
 * decides.  Error-only SQCC there is unfair (Jain 0.30 reported: 41 of
 * the 60 flows get under a tenth of their share, the others ~3 shares;
 * with windows rounded down to >= 1 packet, 0.76 and 14 such flows).
 * Only the mean queues are asserted.
 */
static void test_incast_paper(void)
{
	struct incast_res r[2][3];
	static const int ns[2] = { 40, 60 };

	for (int a = 0; a < 2; a++) {
		for (int v = 0; v < 3; v++) {
			int kind = v == 0 ? TIMELY_LAW_PATCHED : TIMELY_LAW_SQCC;
			struct timely_cfg c = paper_cfg(kind);
			/* v = 1: error function only (N unknown -> k = 1, delta0);
			 * v = 2: + delta = C k / N^2 */
			struct sim *m = sim_new(&c, PAPER_RATE_MAX, PAPER_C, 5, 1000,
						v == 2 ? ns[a] : 1, 0);

			run_incast(m, ns[a], 300000, 200000, &r[a][v]);
			tap_diag("paper scale %d-to-1 %s: util %.3f Jain %.4f queue mean %.1f std %.1f p1..p99 %.0f..%.0f pkts, empty %.3f",
				 ns[a], v == 0 ? "patched TIMELY" : v == 1 ? "SQCC error only" : "SQCC + delta",
				 r[a][v].util, r[a][v].jain, r[a][v].qs.mean, r[a][v].qs.std,
				 r[a][v].qs.p1, r[a][v].qs.p99, r[a][v].qs.empty);
			sim_free(m);
		}
	}
	tap_begin("model paper scale 60-to-1 (Fig. 1d): SQCC error-only mean queue %.1f <= 0.5 x patched %.1f pkts (ratio %.2f; paper ~0.2)",
		  r[1][1].qs.mean, r[1][0].qs.mean, r[1][1].qs.mean / r[1][0].qs.mean);
	CHECK(r[1][1].qs.mean <= 0.5 * r[1][0].qs.mean, "ratio %.2f",
	      r[1][1].qs.mean / r[1][0].qs.mean);
	tap_end();
	tap_begin("model paper scale (Fig. 2c): delta adjustment lowers the mean queue at N = 40 (%.1f -> %.1f) and N = 60 (%.1f -> %.1f)",
		  r[0][1].qs.mean, r[0][2].qs.mean, r[1][1].qs.mean, r[1][2].qs.mean);
	CHECK(r[0][2].qs.mean < r[0][1].qs.mean && r[1][2].qs.mean < r[1][1].qs.mean, "no drop");
	tap_end();
}

/*
 * Off the paper's lossless fabric: a 1-BDP drop-tail buffer (83 packets
 * at 100 Mbit/s, 10 ms), as a Linux user runs it.  T_high (50 ms) lies
 * beyond the buffer: the law's decrease above T_low is too gentle (beta
 * 0.008) to stop a rate that crossed C before the buffer overflows, so a
 * lone patched TIMELY or SQCC flow loses packets every cycle, and the
 * loss cut (50 %) was followed by the paper's additive increase only:
 * 200 kbit/s per completion.  The regain (loss_regain, on in every
 * module) doubles the rate per RTT while the queue is near empty, back to
 * 7/8 of the rate before the cut, or of the rate of the last window that
 * saw the queue below T_low if higher (a long flow the law cut for a
 * burst's queue before the burst's losses: the rate it had before the
 * burst); empty_hai (on in every module) updates once per RTT while the
 * queue stays near empty after a loss and adds HAI's 5 delta from the 7th
 * such update (in TIMELY's law: per RTT from the 7th, with delta in
 * proportion to the bytes the window carried, HAI from the 20th).  Each
 * scenario runs with
 * the module's defaults and with the paper's law after a loss (both
 * off), the burst also with each alone:
 *  - a lone flow starting at C: its rate over 1-6 s;
 *  - 16 flows starting together at C (the testbed's start) and staying:
 *    utilisation, Jain and drops over 1-4 s;
 *  - two long flows at C/2, 16 flows starting at C for 40 RTT, then gone:
 *    the RTTs until the long flows carry >= 0.90 C in every RTT of 10,
 *    their share of C over the 100 RTT after the burst, and their Jain
 *    index over RTT 100-300 after it.
 */
struct lossy {
	double lone, util, jain, rec, after, jain_after;
	u64 drops, delivered;
};

enum { LOSS_PAPER, LOSS_REGAIN, LOSS_EMPTY, LOSS_BOTH };

/* the testbed's link behind a 1-BDP drop-tail buffer */
static struct sim *sim_droptail(const struct timely_cfg *c)
{
	struct sim *m = sim_new(c, TB_RATE_MAX, TB_C, TB_BASE, 1500, 1,
				TB_NOISE_US);

	m->m.link.limit_bytes = (u64)TB_C * TB_BASE / 1000000;
	return m;
}

/* the testbed config of @kind with the loss handling @mode, update @clock */
static struct timely_cfg lossy_cfg(int kind, int mode, u32 clock)
{
	struct timely_cfg c = tb_cfg_clock(kind, clock);

	c.regain = mode == LOSS_REGAIN || mode == LOSS_BOTH;
	c.empty_hai = mode == LOSS_EMPTY || mode == LOSS_BOTH;
	return c;
}

/* the modules' default loss handling of @kind */
static int lossy_default(int kind)
{
	struct timely_cfg c = tb_cfg(kind);

	return c.empty_hai ? LOSS_BOTH : LOSS_REGAIN;
}

static void run_lone_and_16(int kind, int mode, u32 clock, struct lossy *r)
{
	struct timely_cfg c = lossy_cfg(kind, mode, clock);
	struct sim *m;
	double t[MAXF];

	m = sim_droptail(&c);
	flow_start(m, 0, TB_C);
	sim_run(m, 1000000, NULL, NULL);
	sim_run(m, 5000000, t, NULL);
	r->lone = t[0] / TB_C;
	sim_free(m);

	m = sim_droptail(&c);
	for (int i = 0; i < 16; i++)
		flow_start(m, i, TB_C);
	sim_run(m, 1000000, NULL, NULL);
	sim_run(m, 3000000, t, NULL);
	r->util = sum(t, 16) / TB_C;
	r->jain = jain(t, 16);
	r->drops = m->m.st.drops;
	r->delivered = (u64)(sum(t, 16) * 3 / 1500);
	sim_free(m);
}

static void run_burst(int kind, int mode, struct lossy *r)
{
	struct timely_cfg c = lossy_cfg(kind, mode, 0);
	struct sim *m = sim_droptail(&c);
	double t[MAXF], late[2] = { 0, 0 };
	u8 okw[300];

	r->after = 0;
	flow_start(m, 0, TB_C / 2);
	flow_start(m, 1, TB_C / 2);
	sim_run(m, 2000000, NULL, NULL);
	for (int i = 2; i < 18; i++)
		flow_start(m, i, TB_C);
	sim_run(m, 40 * TB_BASE, NULL, NULL);
	for (int i = 2; i < 18; i++)
		model_stop_flow(&m->m, i);
	for (int w = 0; w < 300; w++) {	/* one window per RTT */
		sim_run(m, TB_BASE, t, NULL);
		okw[w] = t[0] + t[1] >= 0.90 * TB_C;
		if (w < 100)
			r->after += (t[0] + t[1]) / TB_C / 100;
		else
			for (int i = 0; i < 2; i++)
				late[i] += t[i];
	}
	r->rec = model_sustained_from(okw, 300, 10, 1);
	r->jain_after = jain(late, 2);
	sim_free(m);
}

static void test_droptail(void)
{
	for (int kind = 0; kind < 3; kind++) {
		int def = lossy_default(kind);
		struct lossy on, off, b[4];

		run_lone_and_16(kind, def, 0, &on);
		run_lone_and_16(kind, LOSS_PAPER, 0, &off);
		tap_begin("model %s, 1-BDP drop-tail, defaults (paper's law after a loss): lone flow %.3f (%.3f) of C (>= 0.90); 16 flows from C: util %.3f (%.3f) (>= 0.90), Jain %.3f (%.3f) (>= 0.85), drops %llu (%llu) = %.2f%% of delivered (<= 2%%)",
			  kname[kind], on.lone, off.lone, on.util, off.util, on.jain, off.jain,
			  (unsigned long long)on.drops, (unsigned long long)off.drops,
			  100.0 * on.drops / (double)on.delivered);
		CHECK(on.lone >= 0.90, "lone %.3f", on.lone);
		/*
		 * Over 8 seeds: Jain 0.86-0.98 (timely_p, sqcc), 0.95-0.98
		 * (timely); drops 1.2-1.5 % (timely_p, sqcc: 0.4-0.6 %
		 * without empty_hai), 0.3-0.5 % (timely, either way)
		 */
		CHECK(on.util >= 0.90 && on.jain >= 0.85, "util %.3f jain %.3f", on.util, on.jain);
		CHECK(on.drops * 50 <= on.delivered, "drops %llu", (unsigned long long)on.drops);
		tap_end();

		for (int mode = 0; mode < 4; mode++)
			run_burst(kind, mode, &b[mode]);
		tap_begin("model %s, 1-BDP drop-tail, 40-RTT burst of 16 on 2 long flows: >= 0.90 C each RTT of 10 from %.0f RTT after (<= 100; 999 never), Jain %.3f in RTT 100-300 (>= 0.9), %.3f C in the first 100; regain+empty_hai %.0f, regain %.0f, empty_hai %.0f, neither %.0f",
			  kname[kind], b[def].rec, b[def].jain_after, b[def].after,
			  b[LOSS_BOTH].rec, b[LOSS_REGAIN].rec, b[LOSS_EMPTY].rec,
			  b[LOSS_PAPER].rec);
		CHECK(b[def].rec <= 100, "recovery %.0f RTT", b[def].rec);
		CHECK(b[def].jain_after >= 0.9, "Jain %.3f", b[def].jain_after);
		tap_end();
	}
}

/*
 * The update clock (update_clock): 0, the default, is the papers'
 * completion event (64 KB acked and >= D_minRTT: tau* = max(seg/R,
 * D_minRTT), Eq. 3); 1 updates once per D_minRTT whatever was acked.
 * Which of the paper's results reproduce depends on it, so both run:
 *  - Table II / Fig. 3b (500:1, 10 Gbit/s, 5 us; error-only SQCC: mean
 *    272.77 packets, std 122.38; full SQCC: 149.3, std 13.73) and Fig. 4
 *    (full SQCC, 1000:1: a steady queue within 100-200 packets).  With the
 *    completion clock a flow at C/500 updates once per 26 ms (~5000
 *    RTTs): error-only SQCC piles ~3500 packets and full SQCC swings
 *    0..~530; with the RTT clock both land on the paper's figures
 *    (asserted).
 *  - Fig. 1d (60:1, error-only SQCC against patched TIMELY, ratio ~0.2):
 *    the completion clock reproduces it (test_incast_paper: 0.15), the RTT
 *    clock does not (reported).
 *  - the testbed's 16 flows on a 1-BDP drop-tail buffer: with the RTT
 *    clock every flow adds delta per RTT, not per 8 RTTs, and the
 *    aggregate climbs into the buffer 8x faster (reported: ~4.5 % drops
 *    against 1.3-1.5 %); patched TIMELY's oscillation at N = 32
 *    (test_unstable_testbed) is a completion-clock effect: with the RTT
 *    clock its queue sits still (reported).
 * The default stays the completion clock: the papers define it, and it is
 * the one that holds on a drop-tail buffer.
 */
struct clock_res {
	struct incast_res err, full;
};

static void run_table2(int nf, u32 clock, struct clock_res *r)
{
	for (int v = 0; v < 2; v++) {
		struct timely_cfg c = paper_cfg_clock(TIMELY_LAW_SQCC, clock);
		/* v = 0: error function only (N = 1: k = 1, delta0) */
		struct sim *m = sim_new(&c, PAPER_RATE_MAX, PAPER_C, 5, 1000,
					v ? nf : 1, 0);

		run_incast(m, nf, 300000, 200000, v ? &r->full : &r->err);
		sim_free(m);
	}
}

static void test_update_clock(void)
{
	struct clock_res t[2][2];	/* [clock][N = 500, 1000] */
	struct incast_res f1[2];
	struct lossy l16;

	for (u32 k = 0; k < 2; k++)
		for (int a = 0; a < 2; a++) {
			run_table2(a ? 1000 : 500, k, &t[k][a]);
			for (int v = 0; v < 2; v++) {
				struct incast_res *r = v ? &t[k][a].full : &t[k][a].err;

				tap_diag("clock %s, %d:1, SQCC %s: util %.3f Jain %.4f queue mean %.1f std %.1f p1..p99 %.0f..%.0f",
					 k ? "rtt" : "completion", a ? 1000 : 500,
					 v ? "full" : "error-only", r->util, r->jain, r->qs.mean,
					 r->qs.std, r->qs.p1, r->qs.p99);
			}
		}
	tap_begin("model paper scale, RTT clock: Table II (500:1) error-only mean %.0f (paper 273; 0.5-2x), full %.0f std %.1f (149.3, 13.7; in [100, 200], std <= 0.25 mean); Fig. 4 (1000:1) full %.0f std %.1f (100-200); completion clock %.0f, %.0f std %.0f, %.0f",
		  t[1][0].err.qs.mean, t[1][0].full.qs.mean, t[1][0].full.qs.std,
		  t[1][1].full.qs.mean, t[1][1].full.qs.std, t[0][0].err.qs.mean,
		  t[0][0].full.qs.mean, t[0][0].full.qs.std, t[0][1].full.qs.mean);
	CHECK(t[1][0].err.qs.mean >= 0.5 * 272.77 && t[1][0].err.qs.mean <= 2 * 272.77,
	      "error-only %.1f", t[1][0].err.qs.mean);
	CHECK(t[1][0].full.qs.mean >= 100 && t[1][0].full.qs.mean <= 200 &&
	      t[1][0].full.qs.std <= 0.25 * t[1][0].full.qs.mean,
	      "full %.1f std %.1f", t[1][0].full.qs.mean, t[1][0].full.qs.std);
	CHECK(t[1][0].full.util >= 0.95 && t[1][1].full.util >= 0.95, "util %.3f %.3f",
	      t[1][0].full.util, t[1][1].full.util);
	tap_end();

	for (int v = 0; v < 2; v++) {
		struct timely_cfg c = paper_cfg_clock(v ? TIMELY_LAW_SQCC : TIMELY_LAW_PATCHED, 1);
		struct sim *m = sim_new(&c, PAPER_RATE_MAX, PAPER_C, 5, 1000, 1, 0);

		run_incast(m, 60, 300000, 200000, &f1[v]);
		sim_free(m);
	}
	run_lone_and_16(TIMELY_LAW_SQCC, LOSS_BOTH, 1, &l16);
	tap_diag("clock rtt: Fig. 1d (60:1) SQCC error-only %.1f / patched %.1f packets = %.2f (paper ~0.2; the completion clock: test_incast_paper); testbed sqcc on a 1-BDP drop-tail buffer: lone flow %.3f of C, 16 flows drops %.2f%% of delivered, Jain %.3f",
		 f1[1].qs.mean, f1[0].qs.mean, f1[1].qs.mean / f1[0].qs.mean, l16.lone,
		 100.0 * l16.drops / (double)l16.delivered, l16.jain);
}

/*
 * Datacenter scale with the modules' own defaults (no parameter set):
 * 100 Gbit/s with a 12 us base RTT and 25 Gbit/s with 8 us, 1500-byte
 * packets, the sender's NIC = the link (rate_max = C, and C is the link
 * speed the glue reads from the egress NIC, dcc_egress_speed_mbps()), a
 * lossless FIFO, no noise (the figures do not depend on DCC_SEED).
 * SQCC's N as the module's auto choice takes it: this host's flows
 * (n_source 2, n_local = 1 here), since link_mbps is not set.
 *
 * The link-rate defaults (timely_cfg_resolve_nic): the papers' 10 Gbit/s
 * values scaled with C, T_low0 = seg/C (5.2 and 21 us), T_high =
 * 10 seg/C, delta = C/1000, rate floor C/10^4, the initial rate C, and
 * above 10 Gbit/s one update per max(base RTT, seg/C) (the completion
 * event of a line-rate flow, for every flow) with g normalised by it.
 * The 10 Gbit/s defaults unscaled (T_low 50 us, T_high 500 us, delta
 * 10 Mbit/s per 64 KB completion, from the initial window over the RTT)
 * gave here: a lone flow at 0.9 C after 11112 RTT (133 ms) at 100 Gbit/s
 * and 2632 at 25; TIMELY's 16 flows cut to the 1 Mbit/s floor, where a
 * 64 KB completion takes 0.5 s (util 0.000); SQCC's at 100 Gbit/s too
 * (0.016); timely_p's and SQCC's at 25 Gbit/s at C with 3.5-3.8 ms of
 * queue (7x T_high).  Each part of the set was needed (same model): the
 * NIC's C alone fixed the lone flow only; the RTT clock without the
 * scaled thresholds left TIMELY at 0.72-0.84 of C; without the seg/C
 * gate TIMELY got 0.76 at 25 Gbit/s; with a 1 Mbit/s floor SQCC starved
 * flows for good.
 *
 * Asserted per scale, for the three: a lone flow carries >= 0.9 C in
 * every RTT of 10 from at most 100 RTT after its start; 16 flows started
 * together (each at the module's initial rate) carry >= 0.9 C over RTT
 * 3000-6000 with Jain >= 0.9, every flow >= half its fair share, a mean
 * queue <= T_high and a peak <= 2 T_high (T_high in force).  That they
 * settle within 1000 RTT (every 100-RTT block from then on at >= 0.9 C
 * and Jain >= 0.9) holds at 100 Gbit/s; at 25 Gbit/s it is a known limit.
 * Reported: 16 flows on a 1-BDP drop-tail buffer (drops), and SQCC
 * against patched TIMELY at N = 64 from C/64 (the unstable regime: E =
 * delta N / (beta C) = 8 with delta = C/1000).
 */
#define DC_NF 16
#define DC_RTT 6000		/* RTTs of a 16-flow run */
#define DC_FROM 3000		/* measured from */
#define DC_SETTLE 1000

static const struct { u32 mbps, base_us; } dc_scale[] = {
	{ 100000, 12 }, { 25000, 8 },
};

/* tcp_timely.c's parameter initialisers, per variant */
static struct timely_params dc_params(int kind)
{
	return (struct timely_params){
		.alpha_ppm = 875000,
		.beta_ppm = kind == TIMELY_LAW_GRADIENT ? 800000 : 8000,
		.seg_bytes = 65536,
		.hai_thresh = kind == TIMELY_LAW_GRADIENT ? 5 : 0,
		.loss_md_pct = 50, .loss_regain = 1,
		.empty_hai = 1,
		.update_clock = TIMELY_CLOCK_AUTO,
		/* t_low_us, t_high_us, rtt_ref_us, delta_kbps, rate_min_kbps,
		 * min_rtt_us, base_rtt_us, link_mbps, init_rate_kbps,
		 * n_source, n_flows, thigh_max_cut: 0
		 */
	};
}

/* the config tcp_timely.c resolves on a host whose NIC reports @mbps */
static struct timely_cfg dc_cfg(int kind, u32 mbps)
{
	struct timely_params p = dc_params(kind);
	struct timely_cfg c;

	timely_cfg_resolve_nic(&c, (u8)kind, &p, mbps);
	return c;
}

/* @c's senders on the scale's link; SQCC's N source as resolved */
static struct sim *dc_sim(const struct timely_cfg *c, u64 C, u32 base_us,
			  u64 limit_bytes)
{
	struct sim *m = sim_new(c, C, C, base_us, 1500, 1, 0);

	m->c.n_source = c->n_source;
	m->c.n_flows = c->n_flows;
	m->m.link.limit_bytes = limit_bytes;
	return m;
}

/* a lone flow: the first RTT of 10 in a row at >= 0.9 C (20000 = never) */
static u32 dc_lone(int kind, int sc)
{
	u64 C = dc_scale[sc].mbps * DCC_MBPS_TO_BPS;
	u32 base = dc_scale[sc].base_us, run = 0, w;
	struct timely_cfg c = dc_cfg(kind, dc_scale[sc].mbps);
	struct sim *m = dc_sim(&c, C, base, 0);
	double t[MAXF];

	flow_start(m, 0, 0);
	for (w = 0; w < 20000 && run < 10; w++) {
		sim_run(m, base, t, NULL);
		run = t[0] >= 0.9 * C ? run + 1 : 0;
	}
	sim_free(m);
	return run == 10 ? w - 10 : 20000;
}

struct dc_res {
	double util, jain, min_share, q_mean_us, q_max_us, t_high_us;
	u32 settle;		/* RTT from which every block is at 0.9/0.9 */
	u64 drops, sent;
};

/* @nf flows of @kind at once, each at the module's initial rate */
static void dc_incast(int kind, int sc, int nf, u64 limit_bytes,
		      struct dc_res *r)
{
	u64 C = dc_scale[sc].mbps * DCC_MBPS_TO_BPS;
	u32 base = dc_scale[sc].base_us;
	struct timely_cfg c = dc_cfg(kind, dc_scale[sc].mbps);
	struct sim *m = dc_sim(&c, C, base, limit_bytes);
	double t[MAXF], bytes[MAXF] = { 0 }, q = 0;
	int nb = 0;

	memset(r, 0, sizeof(*r));
	r->t_high_us = c.t_high_ns / 1e3;
	for (int i = 0; i < nf; i++)
		flow_start(m, i, 0);
	for (u32 b = 0; b < DC_RTT; b += 100) {
		double u;

		sim_run(m, 100ULL * base, t, NULL);
		u = sum(t, nf) / C;
		if (u < 0.9 || jain(t, nf) < 0.9)
			r->settle = b + 100;
		r->drops += m->m.st.drops;
		r->sent += (u64)(u * C * 100 * base / 1e6 / 1500);
		if (b < DC_FROM)
			continue;
		for (int i = 0; i < nf; i++)
			bytes[i] += t[i];
		q += model_mean_q_bytes(&m->m);
		r->q_max_us = fmax(r->q_max_us, m->m.st.q_max_bytes * 1e6 / C);
		nb++;
	}
	r->util = sum(bytes, nf) / nb / C;
	r->jain = jain(bytes, nf);
	r->min_share = 1e9;
	for (int i = 0; i < nf; i++)
		r->min_share = fmin(r->min_share, bytes[i] / nb / ((double)C / nf));
	r->q_mean_us = q / nb * 1e6 / C;
	sim_free(m);
}

/* N flows from C/N, SQCC with N known: the mean queue, pkts */
static double dc_unstable(int kind, int sc, int nf)
{
	u64 C = dc_scale[sc].mbps * DCC_MBPS_TO_BPS;
	u32 base = dc_scale[sc].base_us;
	struct timely_cfg c = dc_cfg(kind, dc_scale[sc].mbps);
	struct sim *m = dc_sim(&c, C, base, 0);
	struct qstats qs;

	if (kind == TIMELY_LAW_SQCC) {
		m->c.n_source = TIMELY_N_FIXED;
		m->c.n_flows = nf;
	}
	for (int i = 0; i < nf; i++)
		flow_start(m, i, C / nf);
	sim_run(m, 3000ULL * base, NULL, NULL);
	sim_run(m, 3000ULL * base, NULL, &qs);
	sim_free(m);
	return qs.mean;
}

static void test_datacenter_defaults(void)
{
	tap_begin("law: link-rate defaults: C unknown = the 10 Gbit/s values; the testbed's sqcc (link_mbps 100) unchanged; a 100 Gbit/s NIC: seg/C, 10 seg/C, C/1000, C/10^4, RTT clock gated at max(base, seg/C); explicit parameters win");
	for (int kind = 0; kind < 3; kind++) {
		struct timely_params p = dc_params(kind);
		struct timely_cfg c;
		struct timely_state st;
		struct dcc_decision d;

		timely_cfg_resolve_nic(&c, (u8)kind, &p, 0);
		CHECK(c.t_low_ns == 50 * US && c.t_high_ns == 500 * US &&
		      c.delta_bytes_ps == 1250000 && c.rate_min_bytes_ps == 125000 &&
		      c.seg_bytes == 65536 && !c.dmin_ns && !c.link_bytes_ps &&
		      c.rtt_ref_ns == (kind == TIMELY_LAW_PATCHED ? 50 * US : 0),
		      "%s C unknown: T %u/%u delta %llu floor %llu seg %u", kname[kind],
		      c.t_low_ns, c.t_high_ns, (unsigned long long)c.delta_bytes_ps,
		      (unsigned long long)c.rate_min_bytes_ps, c.seg_bytes);
		timely_cfg_resolve_nic(&c, (u8)kind, &p, 100000);
		CHECK(c.t_low_ns == 5242 && c.t_high_ns == 52420 &&
		      c.delta_bytes_ps == 12500000 && c.rate_min_bytes_ps == 1250000 &&
		      c.link_bytes_ps == 12500000000ULL && c.seg_bytes == 0 &&
		      c.dmin_floor && timely_dmin_ns(&c, 12 * US) == 12 * US &&
		      c.rtt_ref_ns == (kind == TIMELY_LAW_PATCHED ? 5242 : 0) &&
		      (kind != TIMELY_LAW_SQCC || c.n_source == TIMELY_N_LOCAL),
		      "%s 100G: T %u/%u delta %llu floor %llu seg %u src %u", kname[kind],
		      c.t_low_ns, c.t_high_ns, (unsigned long long)c.delta_bytes_ps,
		      (unsigned long long)c.rate_min_bytes_ps, c.seg_bytes,
		      (unsigned)c.n_source);
		/* 25 Gbit/s, 8 us: the gate and g's normaliser are seg/C */
		timely_cfg_resolve_nic(&c, (u8)kind, &p, 25000);
		timely_on_init(&st, &c, 0, 0, 8 * US, 15000, 1500, 25000 * DCC_MBPS_TO_BPS, &d);
		CHECK(c.t_low_ns == 20971 && timely_dmin_ns(&c, 8 * US) == 20971 &&
		      st.win.gate_ns == 20971 && st.rate == 25000 * DCC_MBPS_TO_BPS,
		      "%s 25G: T_low %u dmin %u gate %u rate %llu", kname[kind], c.t_low_ns,
		      timely_dmin_ns(&c, 8 * US), st.win.gate_ns, (unsigned long long)st.rate);
		/* 10 Gbit/s (the papers'): the completion clock */
		timely_cfg_resolve_nic(&c, (u8)kind, &p, 10000);
		CHECK(c.seg_bytes == 65536 && !c.dmin_ns && c.t_low_ns == 52428,
		      "%s 10G: seg %u T_low %u", kname[kind], c.seg_bytes, c.t_low_ns);
		/* the testbed's (testbed_params.sh at 100 Mbit/s, 10 ms) */
		p.t_high_us = 50000;
		p.t_low_us = 5000;
		p.delta_kbps = 200;
		p.rtt_ref_us = kind == TIMELY_LAW_PATCHED ? 5000 : 0;
		p.link_mbps = kind == TIMELY_LAW_SQCC ? 100 : 0;
		p.n_source = kind == TIMELY_LAW_SQCC ? TIMELY_N_LOCAL : 0;
		timely_cfg_resolve_nic(&c, (u8)kind, &p, 0);
		CHECK(c.t_low_ns == 5000 * US && c.t_high_ns == 50000 * US &&
		      c.delta_bytes_ps == 25000 && c.rate_min_bytes_ps == 125000 &&
		      c.seg_bytes == 65536 && !c.dmin_ns &&
		      (kind != TIMELY_LAW_SQCC || (c.link_bytes_ps == 12500000 &&
						   c.n_source == TIMELY_N_LOCAL)),
		      "%s testbed: T %u/%u delta %llu floor %llu seg %u", kname[kind],
		      c.t_low_ns, c.t_high_ns, (unsigned long long)c.delta_bytes_ps,
		      (unsigned long long)c.rate_min_bytes_ps, c.seg_bytes);
		/* explicit values on a 100 Gbit/s host win (update_clock 0 too) */
		p.update_clock = TIMELY_CLOCK_COMPLETION;
		p.rate_min_kbps = 1000;
		timely_cfg_resolve_nic(&c, (u8)kind, &p, 100000);
		CHECK(c.t_low_ns == 5000 * US && c.delta_bytes_ps == 25000 &&
		      c.rate_min_bytes_ps == 125000 && c.seg_bytes == 65536 && !c.dmin_ns,
		      "%s explicit: T_low %u delta %llu seg %u", kname[kind], c.t_low_ns,
		      (unsigned long long)c.delta_bytes_ps, c.seg_bytes);
	}
	tap_end();

	for (int sc = 0; sc < 2; sc++) {
		u32 mbps = dc_scale[sc].mbps, base = dc_scale[sc].base_us;
		struct dc_res r[3], dt[3];
		u32 t90[3];

		for (int k = 0; k < 3; k++) {
			t90[k] = dc_lone(k, sc);
			dc_incast(k, sc, DC_NF, 0, &r[k]);
			dc_incast(k, sc, DC_NF, (u64)mbps * DCC_MBPS_TO_BPS * base / 1000000, &dt[k]);
		}
		tap_begin("datacenter scale, module defaults, %u Gbit/s %u us: a lone flow at >= 0.9 C from RTT %u, %u, %u (timely, timely_p, sqcc; <= 100)",
			  mbps / 1000, base, t90[0], t90[1], t90[2]);
		for (int k = 0; k < 3; k++)
			CHECK(t90[k] <= 100, "%s: %u RTT", kname[k], t90[k]);
		tap_end();
		tap_begin("datacenter scale, module defaults, %u Gbit/s %u us: 16 flows at once, RTT %u-%u: util %.3f %.3f %.3f, Jain %.3f %.3f %.3f (>= 0.9), min share %.2f %.2f %.2f (>= 0.5), queue %.0f %.0f %.0f us, peak %.0f %.0f %.0f (T_high %.0f: <= 1x, 2x)",
			  mbps / 1000, base, DC_FROM, DC_RTT, r[0].util, r[1].util, r[2].util,
			  r[0].jain, r[1].jain, r[2].jain, r[0].min_share, r[1].min_share,
			  r[2].min_share, r[0].q_mean_us, r[1].q_mean_us, r[2].q_mean_us,
			  r[0].q_max_us, r[1].q_max_us, r[2].q_max_us, r[0].t_high_us);
		for (int k = 0; k < 3; k++)
			CHECK(r[k].util >= 0.9 && r[k].jain >= 0.9 && r[k].min_share >= 0.5 &&
			      r[k].q_mean_us <= r[k].t_high_us && r[k].q_max_us <= 2 * r[k].t_high_us,
			      "%s: util %.3f jain %.3f share %.2f q %.1f/%.1f us (T_high %.1f)",
			      kname[k], r[k].util, r[k].jain, r[k].min_share, r[k].q_mean_us,
			      r[k].q_max_us, r[k].t_high_us);
		tap_end();
		tap_begin("datacenter scale, module defaults, %u Gbit/s %u us: the 16 flows settle (each 100-RTT block at >= 0.9 C, Jain >= 0.9) from RTT %u, %u, %u (<= %u)",
			  mbps / 1000, base, r[0].settle, r[1].settle, r[2].settle, DC_SETTLE);
		for (int k = 0; k < 3; k++)
			CHECK(r[k].settle <= DC_SETTLE, "%s: %u", kname[k], r[k].settle);
		if (sc == 0)
			tap_end();
		else
			tap_end_todo("the line-rate start puts ~14 T_high of queue before the first decrease, the laws cut to the floor (C/10^4 = 2.5 Mbit/s: one packet, so one update, per 600 RTT at 8 us); timely and sqcc settle from RTT 1800-2300");
		tap_diag("datacenter scale, %u Gbit/s %u us: 16 flows at once on a 1-BDP drop-tail buffer, RTT 3000-6000: util %.3f %.3f %.3f, Jain %.3f %.3f %.3f; over the run drops %.2f%% %.2f%% %.2f%% of delivered (timely, timely_p, sqcc)",
			 mbps / 1000, base, dt[0].util, dt[1].util, dt[2].util, dt[0].jain,
			 dt[1].jain, dt[2].jain, 100.0 * dt[0].drops / fmax(dt[0].sent, 1),
			 100.0 * dt[1].drops / fmax(dt[1].sent, 1),
			 100.0 * dt[2].drops / fmax(dt[2].sent, 1));
		tap_diag("datacenter scale, %u Gbit/s %u us: 64 flows from C/64 (E = 8), mean queue: timely_p %.0f, sqcc (N known) %.0f pkts",
			 mbps / 1000, base, dc_unstable(TIMELY_LAW_PATCHED, sc, 64),
			 dc_unstable(TIMELY_LAW_SQCC, sc, 64));
	}
}

int main(void)
{
	tap_header();
	tap_seed_from_env();
	test_exact();
	test_extremes();
	for (int k = 0; k < 3; k++)
		test_single(k);
	test_incast_testbed();
	test_unstable_testbed();
	test_fairness_testbed();
	test_incast_paper();
	test_droptail();
	test_update_clock();
	test_datacenter_defaults();
	return tap_done();
}
