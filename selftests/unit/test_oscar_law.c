// SPDX-License-Identifier: GPL-2.0
/*
 * OSCAR control law in a deterministic packet-level model of one
 * bottleneck, driven through the real plain-C per-ACK core
 * (oscar_on_ack(), modules/oscar/oscar_law.c) that tcp_oscar.ko runs: every
 * ACK becomes a struct dcc_sample on a nanosecond clock and the senders
 * apply the struct dcc_decision it returns.
 *
 * Model: the shared bottleneck model (model.h): N senders, each paced at
 * u*mu and window-limited at min(u*D_target*mu, BDP); packets (MSS bytes)
 * cross half the base RTT, wait in a FIFO served at mu, and their ACKs
 * return after the other half, on a ns event clock.  Every ACK is one
 * sample whose infl_pkts is Linux's rs->delivered (the window, for a
 * window-bound flow: the paper's pktInfl), flagged first_window when the
 * packet left before the flow's first ACK (as dcc_sample_get() does).
 * The adapter below (struct oscar_flow) is tcp_oscar.c's glue: init,
 * oscar_on_ack() per ACK and, when a batch closes, the refresh of mu and
 * RTT_base.
 *
 * What the paper claims and these tests assert:
 *  - a lone flow fills the link with ~no queue (window capped at BDP);
 *  - a joining flow reaches its fair share in O(1) updates (paper: 1-2
 *    updates, ~2 RTTs; asserted: within 10 RTTs, both flows within 20%);
 *  - with >= 2 flows the queue settles near the 0.5 BDP target;
 *  - an 8-flow incast started at line rate drains to the target quickly and
 *    ends fair (Jain >= 0.95);
 *  - after flows leave, the survivor returns to >= 90% of mu quickly;
 *  - zero-mean timestamp noise of 15% of the base RTT causes no collapse,
 *    and with 30% an 8-flow incast stays fair.
 * And of the glue's estimated inputs (the paper assumes them known):
 *  - an estimated mu reaches the line and is the same for a host's flows;
 *  - an auto RTT_base shared per destination lets a flow joining a
 *    standing queue take its fair share.
 */
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dcc/bls.h"
#include "dcc/oscar.h"
#include "model.h"

#define MSS 1500u
#define MAXF 16
#define US 1000ULL	/* ns */

/* tcp_oscar's defaults: eps auto, delta 0, the refill */
static const struct oscar_params oscar_defaults = {
	.u_ai = OSCAR_PPM_TO_U(1000), .u_hai = OSCAR_PPM_TO_U(10000),
	.u_min = OSCAR_PPM_TO_U(1000), .eps_ns = 0, .hyst_ns = 0,
	.dt_pct = 150, .tau_pct = 50,
	.min_samples = OSCAR_MIN_SAMPLES_DEFAULT, .refill = true,
};

/*
 * What tcp_oscar's glue asks of the kernel's host-wide tables, for the
 * model's one egress device and one destination (dcc_lib.c): the shared
 * line-rate estimate (dcc_shared_line_rate(), a maximum in
 * OSCAR_RATE_STEP units) and the shared per-destination min RTT
 * (dcc_shared_min_rtt_us()).  The tables' expiry (tcp_min_rtt_wlen) is
 * longer than any run here and is left out.  The module parameters that
 * choose between given and estimated inputs are here too.
 */
#define OSCAR_RATE_STEP 8000ULL	/* dcc.h's DCC_RATE_STEP_BPS, bytes/s */

struct oscar_host {
	u64 line_rate;		/* line_rate_mbps, bytes/s; 0 = estimate mu */
	u32 base_us;		/* base_rtt_us; 0 = auto RTT_base */
	bool share_base;	/* share_base_rtt */
	bool shared_target;	/* shared_target */
	bool syn;		/* seed tcp_min_rtt() with the SYN's RTT */
	u64 init_rate;		/* init_rate_mbps, bytes/s */
	u32 rate_steps;		/* the line-rate table's entry, 0 = empty */
	u32 min_rtt_us;		/* the min-RTT table's entry, 0 = empty */
	u32 ref_rtt_us;		/* the reference-RTT entry, 0 = empty */
	const struct oscar_params *p;	/* the snapshot, NULL = defaults */
};

/* dcc_shared_line_rate(): fold @obs (0: read), the estimate, >= init_rate */
static u64 host_line_rate(struct oscar_host *h, u64 obs)
{
	u64 v = (obs < DCC_RATE_MAX_BPS ? obs : DCC_RATE_MAX_BPS) / OSCAR_RATE_STEP;

	if (v > h->rate_steps)
		h->rate_steps = (u32)v;
	v = (u64)h->rate_steps * OSCAR_RATE_STEP;
	return v > h->init_rate ? v : h->init_rate;
}

/* dcc_shared_min_rtt_us(): lower the entry with @own, the lower of both */
static u32 host_min_rtt_us(struct oscar_host *h, u32 own)
{
	if (!own)
		return h->min_rtt_us;
	if (!h->min_rtt_us || own < h->min_rtt_us)
		h->min_rtt_us = own;
	return h->min_rtt_us;
}

/* dcc_shared_ref_rtt_us(): one device, every destination */
static u32 host_ref_rtt_us(struct oscar_host *h, u32 own)
{
	if (own && (!h->ref_rtt_us || own < h->ref_rtt_us))
		h->ref_rtt_us = own;
	return h->ref_rtt_us;
}

/*
 * One OSCAR socket behind the model, as tcp_oscar.c runs it: the core's
 * state and config, and what the glue does around oscar_on_ack() --
 * oscar_init(), and oscar_refresh_inputs() when the core flags a batch
 * (OSCAR_D_BATCH).  With mu and RTT_base given (the tests' default, as
 * the paper assumes them known) the refresh finds nothing to change.
 */
struct oscar_flow {
	struct oscar_core st;
	struct oscar_cfg c;
	struct oscar_host *h;
	u32 min_rtt_us;		/* tcp_min_rtt() stand-in, 0 = no sample yet */
	u32 batches;
};

/* oscar_auto_base_us(): dcc_auto_base_rtt_us() on this flow, 0 = none */
static u32 oscar_flow_auto_base_us(struct oscar_flow *f)
{
	u32 b = f->min_rtt_us;

	return b && f->h->share_base ? host_min_rtt_us(f->h, b) : b;
}

/* oscar_ref_us() */
static u32 oscar_flow_ref_us(struct oscar_flow *f, u32 base_us)
{
	return f->h->shared_target ? host_ref_rtt_us(f->h, base_us) : base_us;
}

/* oscar_init(): u = 1 (line rate), mu and RTT_base given or looked up */
static struct dcc_decision oscar_flow_init(struct oscar_flow *f,
					   struct oscar_host *h)
{
	const struct oscar_params *p = h->p ? h->p : &oscar_defaults;
	struct dcc_decision d;
	u64 mu;
	u32 base_us, ref_us = 0;
	u32 syn_us = f->min_rtt_us;	/* the handshake's RTT, if seeded */

	memset(f, 0, sizeof(*f));
	f->min_rtt_us = syn_us;
	f->h = h;
	mu = h->line_rate ? h->line_rate : host_line_rate(h, 0);
	base_us = h->base_us;
	if (!base_us) {
		base_us = oscar_flow_auto_base_us(f);
		ref_us = oscar_flow_ref_us(f, base_us);
	}
	if (!base_us)
		base_us = 1000;
	oscar_core_init(&f->st, p);
	oscar_cfg_resolve(&f->c, p, mu, dcc_us_to_ns(base_us), dcc_us_to_ns(ref_us));
	oscar_decide(&f->st, &f->c, &d);
	return d;
}

/* oscar_refresh_inputs(): true if mu, RTT_base or RTT_ref moved (cfg resolved again) */
static bool oscar_flow_refresh(struct oscar_flow *f, const struct oscar_batch *b)
{
	u64 mu = f->c.mu_bytes_ps, base_ns = f->c.base_ns, ref_ns = f->c.ref_ns;
	struct oscar_cfg nc;

	if (!f->h->line_rate && b->bls.rate_bytes_ps && !b->app_limited) {
		u64 r = b->bls.rate_bytes_ps < DCC_RATE_MAX_BPS ?
			b->bls.rate_bytes_ps : DCC_RATE_MAX_BPS;
		u64 m = host_line_rate(f->h, r * 5 / 4);

		mu = m > mu ? m : mu;
	}
	if (!f->h->base_us) {
		u32 us = oscar_flow_auto_base_us(f);

		if (us) {
			base_ns = dcc_us_to_ns(us);
			ref_ns = dcc_us_to_ns(oscar_flow_ref_us(f, us));
		}
	}
	oscar_cfg_resolve(&nc, f->c.p, mu, base_ns, ref_ns);
	if (nc.mu_bytes_ps == f->c.mu_bytes_ps && nc.base_ns == f->c.base_ns &&
	    nc.ref_ns == f->c.ref_ns)
		return false;
	f->c = nc;
	return true;
}

/* oscar_cong_control(): the core, and the glue's step when a batch closed */
static void oscar_flow_on_ack(void *cc, const struct dcc_sample *s,
			      struct dcc_decision *d)
{
	struct oscar_flow *f = cc;
	struct oscar_batch b;

	/* the stack's tcp_min_rtt() filter sees every RTT sample first */
	if (!s->why && (!f->min_rtt_us || dcc_sample_rtt_us(s) < f->min_rtt_us))
		f->min_rtt_us = dcc_sample_rtt_us(s);
	oscar_on_ack(&f->st, &f->c, s, d, &b);
	if (d->flags & OSCAR_D_BATCH) {
		f->batches++;
		if (oscar_flow_refresh(f, &b))	/* the new mu applies now */
			oscar_on_refresh(&f->st, &f->c, s->mss, d);
	}
}

struct sim {
	struct model m;
	struct oscar_host h;
	struct oscar_flow f[MAXF];
	u64 mu;		/* bytes/s, the link's */
	u64 base_ns;	/* every flow's base RTT */
};

static int tests_run, tests_failed;

static void ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	tests_run++;
	if (!cond)
		tests_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tests_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* A known limitation: reported with the TAP TODO directive, not failed. */
static void todo(bool cond, const char *why, const char *fmt, ...)
{
	va_list ap;

	tests_run++;
	printf("%sok %d - ", cond ? "" : "not ", tests_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # TODO %s\n", why);
}

/* one bottleneck at @mu, every flow of base RTT @base_us, sample noise */
static void sim_init(struct sim *s, u64 mu, u32 base_us, u32 noise_us, u64 seed)
{
	memset(s->f, 0, sizeof(s->f));
	s->mu = mu;
	s->base_ns = dcc_us_to_ns(base_us);
	/* the module told the line rate and base RTT, as the paper assumes */
	s->h = (struct oscar_host){ .line_rate = mu, .base_us = base_us,
				    .share_base = true, .shared_target = true,
				    .init_rate = 100 * DCC_MBPS_TO_BPS };
	model_init(&s->m, &(struct model_link){
		.rate_bytes_ps = mu, .mss = MSS,
		.noise_ns = (u32)dcc_us_to_ns(noise_us), .seed = seed });
}

static void sim_free(struct sim *s)
{
	model_free(&s->m);
}

/*
 * flow @i, of base RTT @base_ns, starts now (the model's next flow).  With
 * h.syn the stack's tcp_min_rtt() holds the handshake's RTT at init, as
 * at tcp_init_transfer(): the base RTT plus the queue the SYN found;
 * without it no RTT is known until the first ACK (the older subtests).
 */
static void flow_start_rtt(struct sim *s, int i, u64 base_ns)
{
	struct dcc_decision d0;

	memset(&s->f[i], 0, sizeof(s->f[i]));
	if (s->h.syn)
		s->f[i].min_rtt_us = (u32)((base_ns + s->m.q_bytes * DCC_NSEC_PER_SEC /
					    s->mu) / 1000);
	d0 = oscar_flow_init(&s->f[i], &s->h);
	int k = model_add_flow(&s->m, (u32)base_ns,
			       (struct model_cc){ oscar_flow_on_ack, &s->f[i] }, d0);

	if (k != i)
		abort();
}

/* flow @i, of the sim's base RTT, starts now */
static void flow_start(struct sim *s, int i)
{
	flow_start_rtt(s, i, s->base_ns);
}

/*
 * Subtest 12's incast: 16 flows at @mu, @base_us, as a host runs them
 * (auto RTT_base seeded by the handshake), on a lossless link or a 1-BDP
 * drop-tail buffer (@droptail), started now.
 */
static void dc_incast16(struct sim *s, u64 mu, u32 base_us, bool droptail)
{
	sim_init(s, mu, base_us, 0, 1);
	s->h.base_us = 0;
	s->h.syn = true;
	if (droptail)
		s->m.link.limit_bytes = (u64)((double)mu * base_us / 1e6);
	for (int i = 0; i < 16; i++)
		flow_start(s, i);
}

/* Run for @us; per-flow throughput (bytes/s) and queue stats over that span. */
static void sim_run(struct sim *s, u64 us, double *tput)
{
	model_reset_stats(&s->m);
	model_run(&s->m, s->m.now_ns + us * US);
	for (int i = 0; tput && i < MAXF; i++)
		tput[i] = i < s->m.nflows ? model_flow_rate(&s->m, i) : 0;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
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

static double bdp_bytes(const struct sim *s)
{
	return (double)s->mu * (double)s->base_ns / 1e9;
}

static double mean_q_bdp(const struct sim *s)
{
	return model_mean_q_bytes(&s->m) / bdp_bytes(s);
}

/*
 * The paper's convergence claim, measured its way (footnote 1: reaching
 * the target state -- near-full utilisation, a shallow queue -- counted
 * in update steps, whatever the size of the perturbation; not fairness).
 * One long flow at its steady state; K flows join at line rate (u = 1,
 * as the paper starts them) for 40 RTT, then stop.  Sampled every 0.25
 * RTT:
 *  - landing: each flow's steps until its u first enters +-20% of
 *    1/(K+1): a joiner's own closed batches, the long flow's from its
 *    first batch after the join that moved u (the batches before it
 *    closed before the joiners' packets reached the queue);
 *  - sum u: the long flow's steps (counted as for landing) until sum(u)
 *    stays in [0.85, 1.2] for the rest of the burst;
 *  - recovery: RTTs from the burst's end until every 0.5-RTT window of
 *    the next 10 RTT carries >= 95% of the link.
 * BURST_NEVER: not within the burst (or 80 RTT after it).
 */
#define BURST_NEVER MODEL_NEVER


/*
 * Run @nwin 0.5-RTT windows of flows 0..@n-1 (after flows left): the RTTs
 * until every window of the next 10 RTT carries >= 95% of the link
 * (model_sustained_from(); BURST_NEVER if none), and the largest queue
 * (bytes) and the drops over the whole span into @qmax and @drops.
 */
static double link_back_rtt(struct sim *s, int n, int nwin, u64 *qmax,
			    u64 *drops)
{
	static u8 ok_w[400];
	double t[MAXF];
	int i, w;

	if (nwin > (int)sizeof(ok_w))
		abort();
	*qmax = 0;
	*drops = 0;
	for (w = 0; w < nwin; w++) {
		double sum = 0;

		sim_run(s, s->base_ns / US / 2, t);
		*qmax = max(*qmax, s->m.st.q_max_bytes);
		*drops += s->m.st.drops;
		for (i = 0; i < n; i++)
			sum += t[i];
		ok_w[w] = sum >= 0.95 * (double)s->mu;
	}
	return model_sustained_from(ok_w, nwin, 20, 0.5);	/* 10 RTT */
}

struct burst_res {
	int land;		/* the slowest flow's landing, steps */
	int sumu;		/* sum u settled, steps of the long flow */
	double rec_rtt;		/* recovery after the burst, RTTs */
	double qmax_bdp;	/* largest queue after the burst's end, BDPs */
	u64 drops;		/* drops after the burst's end */
};

/*
 * @nlong long flows (the landing and sum u are counted on the first), K
 * joiners; @limit_bdp: a drop-tail buffer of that many BDPs, 0 = lossless.
 */
static void burst_case(u64 mu, u32 base, const struct oscar_params *p,
		       int nlong, int k, double limit_bdp, struct burst_res *r)
{
	static struct sim s;
	int land_at[MAXF], sumu_at = -1, n = k + nlong, i, w;
	double tgt = 1.0 / n;
	u32 b0, u0, b1 = 0;
	u64 qmax;

	sim_init(&s, mu, base, 0, 1);
	s.m.link.limit_bytes = (u64)(limit_bdp * bdp_bytes(&s));
	s.h.p = p;
	for (i = 0; i < nlong; i++)
		flow_start(&s, i);
	sim_run(&s, 80 * base, NULL);
	b0 = s.f[0].batches;
	u0 = s.f[0].st.u;
	for (i = nlong; i < n; i++)
		flow_start(&s, i);
	for (i = 0; i < n; i++)
		land_at[i] = -1;
	for (w = 0; w < 160; w++) {		/* 40 RTT in quarters */
		double sum = 0;

		sim_run(&s, base / 4, NULL);
		if (!b1 && s.f[0].st.u != u0)
			b1 = s.f[0].batches - 1;	/* the reaction is step 1 */
		for (i = 0; i < n; i++) {
			double u = (double)s.f[i].st.u / OSCAR_U_ONE;
			int steps = (int)(s.f[i].batches - (i ? 0 : b1));

			sum += u;
			if (land_at[i] < 0 && (i || b1) &&
			    u >= 0.8 * tgt && u <= 1.2 * tgt)
				land_at[i] = steps;
		}
		if (sum < 0.85 || sum > 1.2)
			sumu_at = -1;
		else if (sumu_at < 0)
			sumu_at = (int)(s.f[0].batches - (b1 ? b1 : b0));
	}
	r->land = 0;
	for (i = 0; i < n; i++)
		r->land = land_at[i] < 0 ? BURST_NEVER : max(r->land, land_at[i]);
	r->sumu = sumu_at < 0 ? BURST_NEVER : sumu_at;

	for (i = nlong; i < n; i++)
		model_stop_flow(&s.m, i);
	r->rec_rtt = link_back_rtt(&s, n, 160, &qmax, &r->drops);	/* 80 RTT */
	r->qmax_bdp = (double)qmax / bdp_bytes(&s);
	sim_free(&s);
}

/*
 * Flows that leave one after the other: one long flow, three joiners (the
 * second 200 RTT after the first, the third 10 RTT after that, as the
 * join/leave bench starts them), then two leave together and the third
 * @gap RTT later, on a 1-BDP drop-tail buffer.  The survivor's RTTs from
 * the last leave until every 0.5-RTT window of the next 10 RTT carries
 * >= 95% of the link (BURST_NEVER: not within 200 RTT).
 */
static double stagger_leave_rtt(u64 mu, u32 base, const struct oscar_params *p,
				int gap, u32 noise_us, u64 seed)
{
	static struct sim s;
	u64 qmax, drops;
	double rec;

	sim_init(&s, mu, base, noise_us, seed);
	s.m.link.limit_bytes = (u64)bdp_bytes(&s);
	s.h.p = p;
	flow_start(&s, 0);
	sim_run(&s, 80 * base, NULL);
	flow_start(&s, 1);
	sim_run(&s, 200 * base, NULL);
	flow_start(&s, 2);
	sim_run(&s, 10 * base, NULL);
	flow_start(&s, 3);
	sim_run(&s, 190 * base, NULL);
	model_stop_flow(&s.m, 1);
	model_stop_flow(&s.m, 2);
	sim_run(&s, (u64)gap * base, NULL);
	model_stop_flow(&s.m, 3);
	rec = link_back_rtt(&s, 4, 400, &qmax, &drops);	/* 200 RTT */
	sim_free(&s);
	return rec;
}

int main(void)
{
	const u64 mu = 12500000;	/* 100 Mbit/s */
	const u32 base = 1000;		/* 1 ms: BDP = 12.5 KB... scaled below */
	double t[MAXF], bdp;
	static struct sim s;
	u32 noise_us = 0;	/* +- RTT sample noise, on the receive time */

	printf("TAP version 13\n");

	/* 1. lone flow: full link, ~no queue */
	sim_init(&s, mu * 8, base, noise_us, 1);	/* 800 Mbit/s, BDP 100 KB = 67 pkts */
	bdp = bdp_bytes(&s);
	flow_start(&s, 0);
	sim_run(&s, 50 * base, NULL);
	sim_run(&s, 50 * base, t);
	ok(t[0] >= 0.90 * (double)s.mu, "lone flow utilisation %.3f of mu (>= 0.90)",
	   t[0] / (double)s.mu);
	ok(mean_q_bdp(&s) <= 0.25, "lone flow mean queue %.3f BDP (<= 0.25)",
	   mean_q_bdp(&s));

	sim_free(&s);

	/*
	 * 2. a second flow joins a lone one.  The model is deterministic, so
	 * the outcome depends on the phase of the join relative to the first
	 * flow's batches; assert over several phases.
	 */
	{
		static const u32 phase_us[] = { 0, 137, 311, 523, 797, 1231, 1597, 1811 };
		const int np = sizeof(phase_us) / sizeof(phase_us[0]);
		int worst_rtt = 0, fails = 0;
		double jsum = 0, jmin = 1, usum = 0, qsum = 0;
		int leave_rtt[8], lmax = 0;

		for (int k = 0; k < np; k++) {
			int r_fair = -1;

			sim_init(&s, mu * 8, base, noise_us, 1);
			flow_start(&s, 0);
			sim_run(&s, 50 * base + phase_us[k], NULL);
			flow_start(&s, 1);
			for (int r = 1; r <= 40; r++) {
				sim_run(&s, base, t);
				if (r_fair < 0 && t[0] > 0.4 * (double)s.mu && t[0] < 0.6 * (double)s.mu &&
				    t[1] > 0.4 * (double)s.mu && t[1] < 0.6 * (double)s.mu)
					r_fair = r;
			}
			if (r_fair < 0 || r_fair > 10)
				fails++;
			worst_rtt = r_fair < 0 ? 99 : (r_fair > worst_rtt ? r_fair : worst_rtt);
			sim_run(&s, 100 * base, t);
			jsum += jain(t, 2);
			jmin = jain(t, 2) < jmin ? jain(t, 2) : jmin;
			usum += (t[0] + t[1]) / (double)s.mu;
			qsum += mean_q_bdp(&s);
			printf("# join phase %u us: fair after %d RTT, Jain %.4f, util %.3f, queue %.3f BDP\n",
			       phase_us[k], r_fair, jain(t, 2), (t[0] + t[1]) / (double)s.mu, mean_q_bdp(&s));
			/* the second flow leaves: the first refills the link */
			model_stop_flow(&s.m, 1);
			leave_rtt[k] = 99;
			for (int r = 1; r <= 40; r++) {
				sim_run(&s, base, t);
				if (t[0] >= 0.9 * (double)s.mu) {
					leave_rtt[k] = r;
					break;
				}
			}
			sim_free(&s);
		}
		ok(fails == 0, "join: every phase within 20%% of fair share by RTT 10 (worst %d RTT)",
		   worst_rtt);
		ok(jsum / np >= 0.95, "join: mean Jain %.4f over phases, RTT 40..140 (>= 0.95), min %.4f",
		   jsum / np, jmin);
		ok(jmin >= 0.85, "join: worst-phase Jain %.4f (>= 0.85)", jmin);
		ok(usum / np >= 0.95, "two flows utilisation %.3f (>= 0.95)", usum / np);
		ok(qsum / np > 0.25 && qsum / np < 0.9,
		   "two flows mean queue %.3f BDP (target 0.5: in 0.25..0.9)", qsum / np);
		/* paper Fig. 16: u -> 1 in one update; a batch that
		 * straddles the moment the queue empties understates g, and
		 * then only HAI (+U_HAI per batch) remains, so allow a slow
		 * tail */
		for (int k = 0; k < np; k++)
			lmax = leave_rtt[k] > lmax ? leave_rtt[k] : lmax;
		qsort(leave_rtt, np, sizeof(int), cmp_int);
		ok(leave_rtt[np / 2] <= 5,
		   "leave: survivor >= 0.9 mu after %d RTT in the median phase (<= 5), worst %d",
		   leave_rtt[np / 2], lmax);
		ok(lmax <= 25, "leave: worst phase back to >= 0.9 mu after %d RTT (<= 25)",
		   lmax);
	}

	/* 4. 8-to-1 incast, all at line rate at once */
	sim_init(&s, mu * 8, base, noise_us, 1);
	for (int i = 0; i < 8; i++)
		flow_start(&s, i);
	sim_run(&s, 10 * base, NULL);
	double peak = s.m.st.q_max_bytes / bdp;
	sim_run(&s, 10 * base, NULL);
	sim_run(&s, 100 * base, t);
	double sum = 0;
	for (int i = 0; i < 8; i++)
		sum += t[i];
	ok(peak <= 8.0, "incast peak queue %.2f BDP (<= 8: at most the initial windows)",
	   peak);
	ok(mean_q_bdp(&s) < 1.0, "incast steady queue %.3f BDP after 20 RTT (< 1.0)",
	   mean_q_bdp(&s));
	ok(sum >= 0.95 * (double)s.mu, "incast utilisation %.3f (>= 0.95)",
	   sum / (double)s.mu);
	ok(jain(t, 8) >= 0.95, "incast Jain %.4f (>= 0.95)", jain(t, 8));
	sim_free(&s);

	/*
	 * 5. software timestamps: zero-mean noise of +-15% of the base RTT
	 * on every RTT sample, on its receive time as host delay is (the
	 * send times, the BLS's x, are exact; model.h).  The BLS averages
	 * it out; what must not
	 * happen is a collapse of u (a lone flow or a pair losing the link).
	 * Biased noise (host latency that inflates the mean RTT beyond the
	 * 0.5 RTT_base target) is different: OSCAR reads it as queue and
	 * backs off by design; that is an operating limit, not tested here.
	 */
	noise_us = base * 15 / 100;
	sim_init(&s, mu * 8, base, noise_us, 1);
	flow_start(&s, 0);
	sim_run(&s, 50 * base, NULL);
	sim_run(&s, 50 * base, t);
	ok(t[0] >= 0.90 * (double)s.mu, "noise +-%u us: lone flow utilisation %.3f (>= 0.90)",
	   noise_us, t[0] / (double)s.mu);
	flow_start(&s, 1);
	sim_run(&s, 40 * base, NULL);
	sim_run(&s, 100 * base, t);
	ok(t[0] + t[1] >= 0.95 * (double)s.mu && jain(t, 2) >= 0.8,
	   "noise +-%u us: two flows utilisation %.3f (>= 0.95), Jain %.4f (>= 0.8: no flow starved)",
	   noise_us, (t[0] + t[1]) / (double)s.mu, jain(t, 2));
	sim_free(&s);

	/*
	 * 5b. a lone flow whose RTT_base is its own minimum RTT (auto, as a
	 * user runs it) under zero-mean noise of +-5%: the minimum is ~5%
	 * below the typical RTT, so a window capped at mu * RTT_base held
	 * the flow at ~95% of the link; the cap at RTT_base + eps (eps =
	 * RTT_base / 12) covers it, and the queue stays within eps.
	 */
	noise_us = base * 5 / 100;
	sim_init(&s, mu * 8, base, noise_us, 1);
	s.h.base_us = 0;
	flow_start(&s, 0);
	sim_run(&s, 50 * base, NULL);
	sim_run(&s, 50 * base, t);
	ok(t[0] >= 0.97 * (double)s.mu && mean_q_bdp(&s) <= 1.0 / 12,
	   "noise +-%u us, auto RTT_base %u us: lone flow utilisation %.3f (>= 0.97), mean queue %.3f BDP (<= eps = 1/12)",
	   noise_us, s.f[0].c.base_ns / 1000, t[0] / (double)s.mu, mean_q_bdp(&s));
	sim_free(&s);

	/*
	 * 6. the same noise doubled (+-30%) in an 8-flow incast: with 3-sample
	 * batches slow flows got trapped low (Jain 0.59); the default
	 * min_samples must keep them fair.
	 */
	noise_us = base * 30 / 100;
	sim_init(&s, mu * 8, base, noise_us, 1);
	for (int i = 0; i < 8; i++)
		flow_start(&s, i);
	sim_run(&s, 20 * base, NULL);
	sim_run(&s, 100 * base, t);
	ok(jain(t, 8) >= 0.9, "noise +-%u us: 8-flow incast Jain %.4f (>= 0.9), min_samples %d",
	   noise_us, jain(t, 8), OSCAR_MIN_SAMPLES_DEFAULT);
	sim_free(&s);


	/*
	 * 7. the glue's estimated mu (line_rate_mbps = 0): batch rates, with
	 * 25% headroom, folded into the host's shared maximum from
	 * init_rate_mbps = 100 Mbit/s (1/8 of this link) up.  The estimate
	 * must reach the line (else u = 1 cannot fill it) and the flows of a
	 * host must agree on it.  Its overshoot (mu above the line widens the
	 * window cap, hence a lone flow's queue) is reported, not asserted:
	 * the paper assumes mu known.
	 */
	sim_init(&s, mu * 8, base, 0, 1);
	s.h.line_rate = 0;
	flow_start(&s, 0);
	sim_run(&s, 50 * base, NULL);
	sim_run(&s, 50 * base, t);
	ok(t[0] >= 0.90 * (double)s.mu && s.f[0].c.mu_bytes_ps >= s.mu,
	   "estimated mu: lone flow utilisation %.3f (>= 0.90), mu %.3f of the line (>= 1; queue %.3f BDP)",
	   t[0] / (double)s.mu, (double)s.f[0].c.mu_bytes_ps / (double)s.mu, mean_q_bdp(&s));
	flow_start(&s, 1);
	sim_run(&s, 40 * base, NULL);
	sim_run(&s, 100 * base, t);
	ok(s.f[1].c.mu_bytes_ps == s.f[0].c.mu_bytes_ps && t[0] + t[1] >= 0.95 * (double)s.mu,
	   "estimated mu: a joiner takes the host's mu (%.3f, %.3f of the line), utilisation %.3f (>= 0.95; Jain %.4f, queue %.3f BDP)",
	   (double)s.f[0].c.mu_bytes_ps / (double)s.mu, (double)s.f[1].c.mu_bytes_ps / (double)s.mu,
	   (t[0] + t[1]) / (double)s.mu, jain(t, 2), mean_q_bdp(&s));
	sim_free(&s);

	/*
	 * 7b. the same estimate at datacenter scale (reported): from the
	 * 100 Mbit/s floor, 1.25x per batch of min_samples ACKs at the rate
	 * the estimate allows.  Why the glue takes a hardware NIC's link
	 * speed instead where it has one (dcc_lib's dev_speed.c).
	 */
	{
		static const struct { u64 mu; u32 base; } dc[] = {
			{ 12500000000ULL, 12 }, { 3125000000ULL, 8 },
		};

		for (size_t j = 0; j < sizeof(dc) / sizeof(dc[0]); j++) {
			int w;

			sim_init(&s, dc[j].mu, dc[j].base, 0, 1);
			s.h.line_rate = 0;
			flow_start(&s, 0);
			for (w = 1; w <= 400; w++) {	/* 4000 RTT in 10-RTT steps */
				sim_run(&s, 10ULL * dc[j].base, t);
				if (t[0] >= 0.9 * (double)s.mu)
					break;
			}
			printf("# estimated mu at %.0f Gbit/s, %u us, from %.0f Mbit/s: 90%% of the link after %d RTT, mu then %.2f of the line\n",
			       (double)dc[j].mu * 8 / 1e9, dc[j].base,
			       (double)s.h.init_rate * 8 / 1e6, w * 10,
			       (double)s.f[0].c.mu_bytes_ps / (double)s.mu);
			sim_free(&s);
		}
	}

	/*
	 * 8. auto RTT_base (base_rtt_us = 0): tcp_min_rtt(), lowered to the
	 * shared per-destination minimum (share_base_rtt = 1).  A flow that
	 * joins two others holding their queue near D_target never sees the
	 * empty path on its own; with the shared minimum it takes their
	 * RTT_base and its fair share (Jain over the three >= 0.95, the
	 * incast's bar).  Without sharing, the same join must show the
	 * joiner's RTT_base inflated by the queue (at least 0.125 RTT_base
	 * above the others'), or the scenario tests nothing.
	 */
	{
		u32 jb[2];
		double j3[2];

		for (int share = 1; share >= 0; share--) {
			sim_init(&s, mu * 8, base, 0, 1);
			s.h.base_us = 0;
			s.h.share_base = share;
			flow_start(&s, 0);
			flow_start(&s, 1);
			sim_run(&s, 50 * base, NULL);
			flow_start(&s, 2);
			sim_run(&s, 40 * base, NULL);
			sim_run(&s, 100 * base, t);
			j3[share] = jain(t, 3);
			jb[share] = s.f[2].c.base_ns;
			printf("# auto RTT_base, %s: Jain %.4f, util %.3f, queue %.3f BDP, RTT_base %u %u %u ns\n",
			       share ? "shared" : "own", j3[share], (t[0] + t[1] + t[2]) / (double)s.mu,
			       mean_q_bdp(&s), s.f[0].c.base_ns, s.f[1].c.base_ns, s.f[2].c.base_ns);
			if (share)
				ok(j3[1] >= 0.95 && jb[1] == s.f[0].c.base_ns,
				   "auto RTT_base, shared: a flow joining a standing queue gets the others' RTT_base (%u ns) and Jain %.4f (>= 0.95)",
				   jb[1], j3[1]);
			else
				ok(jb[0] >= s.f[0].c.base_ns + base * 1000 / 8,
				   "auto RTT_base, own: the joiner's RTT_base %u ns includes the queue (>= %u + 0.125 RTT_base; Jain %.4f)",
				   jb[0], s.f[0].c.base_ns, j3[0]);
			sim_free(&s);
		}
	}

	/*
	 * 9. the convergence claim (burst_case()): with the defaults (the
	 * refill on), without the refill (refill = 0, the paper's HAI), with
	 * the paper's parameters (3 samples per batch, Alg. 1) and the refill,
	 * as published (3 samples, no refill; reported, not bounded), with
	 * u_hmi_pct.  Goals: every flow lands in <= 2
	 * steps, sum u settles in <= 4, the link is back to >= 95% within 3
	 * RTT of the burst's end, for every K.  Landing holds (one step for the
	 * joiners, one or two for the long flow).  The recovery as published
	 * takes 24-43.5 RTT with 3 samples, 45.5 to > 80 with 16 (TODO); the
	 * refill is bounded by what that misses, the 3-RTT goal TODO.  Then two
	 * long flows on a drop-tail buffer of one BDP with the refill, the case
	 * where it could overshoot: both double together.
	 */
	{
		static const int ks[] = { 1, 3, 7 };
		static const char why_hai[] = "the drain's gradient is diluted in the long flow's batch, then HAI refills at +U_HAI per batch (refill = 0)";
		static const char why_refill[] = "a slow flow needs a full batch (min_samples) to see the queue empty, then doubles per RTT";
		struct oscar_params hai = oscar_defaults, paper, pub, hmi;
		/*
		 * rec_max: recovery bound asserted (0: none); report: figures
		 * only; land: landing and sum u checked; todo3: the 3-RTT goal
		 * reported as TODO with this reason; drops_max: drops after
		 * the burst asserted (< 0: none).
		 */
		const struct {
			const struct oscar_params *p;
			const char *name;
			int nlong;
			double limit_bdp, rec_max;
			bool report, land;
			const char *todo3;
			int drops_max;
		} cs[] = {
			{ &oscar_defaults, "defaults (refill)", 1, 0, 15, false, true, why_refill, -1 },
			{ &hai, "refill 0", 1, 0, 0, false, true, why_hai, -1 },
			{ &paper, "paper's 3 samples, refill", 1, 0, 10, false, true, why_refill, -1 },
			{ &pub, "as published (3 samples)", 1, 0, 0, true, false, NULL, -1 },
			{ &hmi, "3 samples, u_hmi_pct 100", 1, 0, 5, false, true, NULL, -1 },
			{ &oscar_defaults, "defaults, 2 long flows, 1-BDP drop-tail", 2, 1.0, 15, false, false, NULL, 5 },
			/*
			 * the refill's cost on a drop-tail buffer: eight
			 * survivors all double when the queue drains, so sum u
			 * overshoots to up to twice the link for the RTT
			 * before they see the queue again
			 */
			{ &oscar_defaults, "defaults (refill), 8 long flows, 1-BDP drop-tail", 8, 1.0, 0, true, false, NULL, -1 },
			{ &hai, "refill 0, 8 long flows, 1-BDP drop-tail", 8, 1.0, 0, true, false, NULL, -1 },
		};
		struct burst_res r;

		hai.refill = false;
		paper = oscar_defaults;
		paper.min_samples = 3;
		pub = paper;
		pub.refill = false;
		hmi = pub;
		hmi.hmi_pct = 100;
		for (unsigned int j = 0; j < sizeof(cs) / sizeof(cs[0]); j++) {
			int land = 0, sumu = 0;
			double rec = 0, qmax = 0;
			u64 drops = 0;
			char lv[64] = "", sv[64] = "", rv[64] = "", dv[64] = "";

			for (unsigned int q = 0; q < sizeof(ks) / sizeof(ks[0]); q++) {
				burst_case(mu * 8, base, cs[j].p, cs[j].nlong, ks[q],
					   cs[j].limit_bdp, &r);
				land = max(land, r.land);
				sumu = max(sumu, r.sumu);
				rec = r.rec_rtt > rec ? r.rec_rtt : rec;
				qmax = r.qmax_bdp > qmax ? r.qmax_bdp : qmax;
				drops += r.drops;
				snprintf(lv + strlen(lv), sizeof(lv) - strlen(lv), "%s%d", q ? "/" : "", r.land);
				snprintf(sv + strlen(sv), sizeof(sv) - strlen(sv), "%s%d", q ? "/" : "", r.sumu);
				snprintf(rv + strlen(rv), sizeof(rv) - strlen(rv), "%s%.1f", q ? "/" : "", r.rec_rtt);
				snprintf(dv + strlen(dv), sizeof(dv) - strlen(dv), "%s%llu", q ? "/" : "",
					 (unsigned long long)r.drops);
			}
			if (cs[j].report) {
				printf("# burst, %s, K = 1/3/7: lands in %s steps, sum u settled after %s, link >= 95%% again %s RTT after the burst's end, %s drops after it\n",
				       cs[j].name, lv, sv, rv, dv);
				continue;
			}
			if (cs[j].land) {
				ok(land <= 2,
				   "burst, %s, K = 1/3/7 joiners at line rate for 40 RTT: every flow lands within 20%% of 1/(K+1) in %s steps (<= 2)",
				   cs[j].name, lv);
				todo(sumu <= 4, "sum u rings while a lone joiner's initial window drains",
				     "burst, %s, K = 1/3/7: sum u settled in [0.85, 1.2] after %s steps (<= 4)",
				     cs[j].name, sv);
			}
			if (cs[j].rec_max > 0)
				ok(rec <= cs[j].rec_max,
				   "burst, %s, K = 1/3/7: link >= 95%% again %s RTT after the burst's end (<= %.0f; 999: not within 80 RTT); after it the queue peaks at %.2f BDP, %llu drops",
				   cs[j].name, rv, cs[j].rec_max, qmax, (unsigned long long)drops);
			if (cs[j].drops_max >= 0)
				ok(drops <= (u64)cs[j].drops_max,
				   "burst, %s: %llu drops after the burst's end (<= %d)",
				   cs[j].name, (unsigned long long)drops, cs[j].drops_max);
			if (cs[j].todo3)
				todo(rec <= 3, cs[j].todo3,
				     "burst, %s, K = 1/3/7: link >= 95%% again %s RTT after the burst's end (<= 3; 999: not within 80 RTT)",
				     cs[j].name, rv);
		}
	}

	/*
	 * 9b. leaves one after the other (stagger_leave_rtt()): 4 -> 2 -> 1
	 * with the second leave 0-20 RTT after the first, with the defaults
	 * and with the testbed's tau (1 RTT) and eps (15%), noise-free and
	 * under +-10% noise (3 seeds).  After the first leave the survivors
	 * refill and then ring for tens of RTT (the queue swings from twice
	 * the target to empty every 4-5 batches); a leave during the ring
	 * finds 3-4 queued batches since the last empty one, fewer than the
	 * refill's six (oscar_count_queued()), and HAI does the rest: the
	 * 15-RTT goal is a TODO for the defaults.  refill = 2 (the armed run:
	 * the seventh empty batch in a row after at least three queued ones,
	 * oscar_refill_due()) meets it with the default tau and eps (asserted;
	 * not the default for what it costs in the guest, tcp_oscar.c); with
	 * the testbed's one case (gap 20, no noise) still takes 50, the
	 * survivor's queue having stood above RTT_base + 2 eps for one batch
	 * only.  Tried before: a drain watch (the third empty batch in a row
	 * after fewer than six queued ones, not armed) met it here (6.5 / 9.0
	 * RTT), but in the guest it fired in the swings of flows that start
	 * together (4-flow incast Jain 0.86-0.91 against 0.99).  Arming on one
	 * queued batch also meets it, but moves the mixed-RTT cases below (2
	 * staggered at 1/4 ms: Jain 0.90 from 0.94).  refill 0 reported.
	 */
	{
		static const int gaps[] = { 0, 5, 10, 20 };
		struct oscar_params tb = oscar_defaults, hai = oscar_defaults;
		struct oscar_params run = oscar_defaults, tbrun;
		const struct oscar_params *ps[] = { &oscar_defaults, &tb, &hai, &run, &tbrun };
		double worst[5] = { 0, 0, 0, 0, 0 };

		tb.tau_pct = 100;
		tb.eps_ns = 150 * US;
		hai.refill = 0;
		run.refill = 2;
		tbrun = tb;
		tbrun.refill = 2;
		for (int j = 0; j < 5; j++)
			for (unsigned int g = 0; g < sizeof(gaps) / sizeof(gaps[0]); g++)
				for (int sd = 0; sd <= 3; sd++) {
					double r = stagger_leave_rtt(mu * 8, base, ps[j], gaps[g],
								     sd ? base / 10 : 0, sd ? sd : 1);

					worst[j] = r > worst[j] ? r : worst[j];
				}
		todo(worst[0] <= 15 && worst[1] <= 15,
		     "a leave while the survivors ring finds fewer than six queued batches: HAI refills (refill 2: next subtest)",
		     "staggered leave 4 -> 2 -> 1, second leave 0-20 RTT later, 1-BDP drop-tail: link >= 95%% again within %.1f RTT (defaults), %.1f (testbed tau and eps) of the last (<= 15; refill 0: %.1f)",
		     worst[0], worst[1], worst[2]);
		ok(worst[3] <= 15,
		   "staggered leave, refill 2 (the armed run): link >= 95%% again within %.1f RTT (<= 15), %.1f with the testbed's tau and eps (reported)",
		   worst[3], worst[4]);
	}

	/*
	 * 10. the start on a drop-tail buffer of one BDP: 16 flows start at
	 * once, at line rate (the paper, a lossless fabric's start) and at
	 * start_u_ppm = 100000 (start low; the start phase doubles u per
	 * batch below D_target).  Reported: drops in the first 20 RTT, RTTs
	 * until the link carries >= 95% in every 0.5-RTT window of 10 RTT; a
	 * lone flow's RTTs to reach that, the price of the low start; and
	 * K = 1, 3 flows joining one running flow: RTTs until every flow
	 * carries 1/(K+1) +-20% in every 2-RTT window of 10 RTT (the law
	 * scales rates, so a joiner that ends its start below its share is
	 * left to U_AI).
	 */
	{
		struct oscar_params lo = oscar_defaults;
		const struct oscar_params *ps[] = { &oscar_defaults, &lo };
		const char *pn[] = { "line-rate start", "start_u 0.1 (start phase)" };
		u64 drops[2];
		double fill[2], lone[2], join[2][2];

		lo.start_u = OSCAR_PPM_TO_U(100000);
		for (int j = 0; j < 2; j++) {
			for (int n = 16; n >= 1; n -= 15) {
				static u8 okw[200];
				int w, i;

				sim_init(&s, mu * 8, base, 0, 1);
				s.m.link.limit_bytes = (u64)bdp_bytes(&s);
				s.h.p = ps[j];
				for (i = 0; i < n; i++)
					flow_start(&s, i);
				if (n == 16)
					drops[j] = 0;
				for (w = 0; w < 200; w++) {	/* 100 RTT in halves */
					double sum = 0;

					sim_run(&s, base / 2, t);
					if (w < 40 && n == 16)	/* stats are per window */
						drops[j] += s.m.st.drops;
					for (i = 0; i < n; i++)
						sum += t[i];
					okw[w] = sum >= 0.95 * (double)s.mu;
				}
				*(n == 16 ? &fill[j] : &lone[j]) =
					model_sustained_from(okw, 200, 20, 0.5);	/* 10 RTT */
				sim_free(&s);
			}
			for (int k = 1; k <= 3; k += 2) {
				static u8 okw[50];
				int w, i;

				sim_init(&s, mu * 8, base, 0, 1);
				s.h.p = ps[j];
				flow_start(&s, 0);
				sim_run(&s, 50 * base, NULL);
				for (i = 1; i <= k; i++)
					flow_start(&s, i);
				for (w = 0; w < 50; w++) {	/* 100 RTT in 2-RTT windows */
					sim_run(&s, 2 * base, t);
					okw[w] = 1;
					for (i = 0; i <= k; i++)
						okw[w] &= fabs(t[i] * (k + 1) / (double)s.mu - 1) <= 0.2;
				}
				join[j][k / 2] = model_sustained_from(okw, 50, 5, 2);
				sim_free(&s);
			}
			printf("# start, %s: 16 flows on a 1-BDP drop-tail buffer: %llu drops in 20 RTT, link >= 95%% from %.1f RTT; a lone flow from %.1f RTT; K = 1/3 joiners fair from %.0f/%.0f RTT\n",
			       pn[j], (unsigned long long)drops[j], fill[j], lone[j], join[j][0], join[j][1]);
		}
		ok(join[0][0] <= 20 && join[1][0] <= 20,
		   "a joiner and the running flow within 20%% of 1/2 from %.0f RTT (line-rate start), %.0f RTT (start_u 0.1) (<= 20)",
		   join[0][0], join[1][0]);
		todo(join[1][1] <= 20, "a joiner leaves the start phase at the running flow's target queue, below its share, and only U_AI equalises",
		     "start_u 0.1: K = 3 joiners and the running flow within 20%% of 1/4 from %.0f RTT (<= 20; 999: not in 100 RTT; line-rate start %.0f)",
		     join[1][1], join[0][1]);
		ok(drops[1] * 10 <= drops[0] && fill[1] <= 5 && lone[1] <= 10,
		   "start_u 0.1 (doubling in the start phase), 16 flows on 1 BDP: %llu drops in 20 RTT (<= 1/10 of the line-rate start's %llu), link filled from %.1f RTT (<= 5); a lone flow from %.1f RTT (<= 10; line-rate start %.1f)",
		   (unsigned long long)drops[1], (unsigned long long)drops[0], fill[1], lone[1], lone[0]);
	}

	/*
	 * 11. mixed base RTTs, as a user runs OSCAR (auto RTT_base, each flow
	 * its own destination, so no shared minimum between the classes):
	 * two flows of 1 ms and two of 2 ms, short first and long first.
	 * Goal: no flow below half its fair share, Jain >= 0.9, utilisation
	 * >= 0.95.  With the paper's D_target (1.5 of each flow's own
	 * RTT_base) the long flows' standing queue (up to 1 ms) is above
	 * what the short ones allow (0.5 ms) and starves them, however the
	 * flows start (checked, or the scenario tests nothing); with the
	 * shared queue target (shared_target, the default) every flow
	 * targets the same queue.  Started together, each flow measures its
	 * own RTT_base and the goal is met; so it is with one flow of each
	 * class staggered by 20 RTT, the case (the joiner finds at
	 * most eps of queue behind a lone flow).  With four staggered it is
	 * not: the third and fourth flows join a queue at the target and
	 * measure their RTT_base with that queue in it, so their D_target is
	 * that much higher, they accelerate while the others decelerate, and
	 * max()/min() (Alg. 2 lines 9-10) ratchet the split their way (TODO:
	 * needs a known RTT_base or a shared minimum, as subtest 8 shows for
	 * one RTT).
	 */
	{
		struct mixed_case {
			const char *name;
			bool shared;
			u32 stagger;	/* RTTs between starts */
			int nf;		/* flows, alternating short and long */
			u32 mult;	/* long RTT / short RTT (1 ms) */
			int expect;	/* 1: ok(goal), 0: ok(!goal), -1: todo */
		} mc[] = {
			{ "paper's D_target, started together", false, 0, 4, 2, 0 },
			{ "shared target, started together", true, 0, 4, 2, 1 },
			{ "paper's D_target, 2 flows staggered", false, 20, 2, 2, 0 },
			{ "shared target, 2 flows staggered", true, 20, 2, 2, 1 },
			{ "paper's D_target, 4 flows staggered", false, 20, 4, 2, 0 },
			{ "shared target, 4 flows staggered", true, 20, 4, 2, -1 },
			{ "paper's D_target, started together", false, 0, 4, 4, 0 },
			{ "shared target, started together", true, 0, 4, 4, 1 },
			{ "shared target, 2 flows staggered", true, 20, 2, 4, 1 },
			{ "shared target, 4 flows staggered", true, 20, 4, 4, -1 },
		};

		for (size_t j = 0; j < sizeof(mc) / sizeof(mc[0]); j++) {
			double worst_lo = 1e300, worst_j = 1, worst_u = 1;
			char sh[160] = "";
			int nf = mc[j].nf;
			bool goal;

			for (int order = 0; order < 2; order++) {
				double lo_t = 1e300, tot = 0;

				sim_init(&s, mu * 8, base, 0, 1);
				s.h.base_us = 0;
				s.h.share_base = false;
				s.h.shared_target = mc[j].shared;
				for (int i = 0; i < nf; i++) {
					flow_start_rtt(&s, i, ((i + order) & 1 ? mc[j].mult : 1) * s.base_ns);
					if (i < nf - 1 && mc[j].stagger)
						sim_run(&s, mc[j].stagger * base, NULL);
				}
				sim_run(&s, 100 * base, NULL);
				sim_run(&s, 200 * base, t);
				for (int i = 0; i < nf; i++) {
					tot += t[i];
					lo_t = t[i] < lo_t ? t[i] : lo_t;
				}
				snprintf(sh + strlen(sh), sizeof(sh) - strlen(sh), "%s%s first",
					 order ? "; " : "", order ? "long" : "short");
				for (int i = 0; i < nf; i++)
					snprintf(sh + strlen(sh), sizeof(sh) - strlen(sh), " %.3f",
						 t[i] / (double)s.mu);
				worst_lo = lo_t < worst_lo ? lo_t : worst_lo;
				worst_j = jain(t, nf) < worst_j ? jain(t, nf) : worst_j;
				worst_u = tot / (double)s.mu < worst_u ? tot / (double)s.mu : worst_u;
				sim_free(&s);
			}
			goal = worst_lo >= 0.5 * (double)s.mu / nf && worst_j >= 0.9 && worst_u >= 0.95;
#define MIXED_FMT "mixed base RTTs 1/%u ms, auto RTT_base, %s: shares of mu %s (each >= %.3f), worst Jain %.4f (>= 0.9), worst utilisation %.3f (>= 0.95)%s"
#define MIXED_ARGS mc[j].mult, mc[j].name, sh, 0.5 / nf, worst_j, worst_u
			if (mc[j].expect == 1)
				ok(goal, MIXED_FMT, MIXED_ARGS, "");
			else if (mc[j].expect == 0)
				ok(!goal, MIXED_FMT, MIXED_ARGS, ": the goal is missed, as it should be here");
			else
				todo(goal, "a flow joining a standing queue measures it in its RTT_base",
				     MIXED_FMT, MIXED_ARGS, "");
#undef MIXED_ARGS
#undef MIXED_FMT
		}
	}

	/*
	 * 12. datacenter scale, as a host runs the module's defaults: mu the
	 * NIC's link speed (the glue reads it from the device), RTT_base the
	 * flows' own minimum shared per destination, tau 0.5 RTT_base, 16
	 * samples, the refill, the line-rate start; 100 Gbit/s and 12 us, 25
	 * Gbit/s and 8 us.  A lone flow fills the link at once (<= 5 RTT to
	 * 90%); a second flow 50 RTT later and a 16-flow incast share it
	 * (utilisation >= 0.95, Jain >= 0.9 over 500 RTT after 200) with the
	 * queue near the 0.5 BDP target (<= 1 BDP): 2 RTT, 0.99-1.0 Jain,
	 * 0.5-0.9 BDP here.  The handshake's RTT seeds tcp_min_rtt() (h.syn),
	 * as in the kernel: without it the base stands at 1 ms until a batch
	 * closes, and at these RTTs a window capped by that base is 100 BDPs.
	 * On a 1-BDP drop-tail buffer the incast drops (reported: 9.5% and
	 * 20% of the delivered packets; an upper bound, as this adapter has
	 * no loss response and the kernel's is dcc_lib's loss bound; at 25
	 * Gbit/s and 8 us a BDP is 17 packets, less than 16 flows' minimum
	 * windows).
	 */
	{
		static const struct { u64 mu; u32 base; } dc[] = {
			{ 12500000000ULL, 12 }, { 3125000000ULL, 8 },
		};

		for (size_t j = 0; j < sizeof(dc) / sizeof(dc[0]); j++) {
			double ramp = 0, u2, j2, q2, u16, j16, q16;
			u64 drops = 0, dcc_delivered = 0;
			u32 b = dc[j].base;
			int w, i;

			sim_init(&s, dc[j].mu, b, 0, 1);
			s.h.base_us = 0;
			s.h.syn = true;
			flow_start(&s, 0);
			for (w = 1; w <= 100 && !ramp; w++) {
				sim_run(&s, b, t);
				if (t[0] >= 0.9 * (double)s.mu)
					ramp = w;
			}
			sim_run(&s, 50ULL * b, NULL);
			flow_start(&s, 1);
			sim_run(&s, 200ULL * b, NULL);
			sim_run(&s, 500ULL * b, t);
			u2 = (t[0] + t[1]) / (double)s.mu;
			j2 = jain(t, 2);
			q2 = mean_q_bdp(&s);
			sim_free(&s);

			dc_incast16(&s, dc[j].mu, b, false);
			sim_run(&s, 200ULL * b, NULL);
			sim_run(&s, 500ULL * b, t);
			for (u16 = 0, i = 0; i < 16; i++)
				u16 += t[i] / (double)s.mu;
			j16 = jain(t, 16);
			q16 = mean_q_bdp(&s);
			sim_free(&s);

			dc_incast16(&s, dc[j].mu, b, true);
			sim_run(&s, 700ULL * b, t);
			drops = s.m.st.drops;
			for (i = 0; i < 16; i++)
				dcc_delivered += s.m.f[i].bytes / MSS;
			printf("# datacenter %.0f Gbit/s, %u us, defaults: lone flow 90%% after %.0f RTT; 2 flows util %.3f Jain %.4f queue %.2f BDP; 16 flows util %.3f Jain %.4f queue %.2f BDP; 16 flows on a 1-BDP drop-tail buffer: %llu drops in 700 RTT (%.2f%% of delivered), Jain %.4f\n",
			       (double)dc[j].mu * 8 / 1e9, b, ramp, u2, j2, q2, u16, j16, q16,
			       (unsigned long long)drops, 100.0 * drops / (double)(dcc_delivered ? dcc_delivered : 1),
			       jain(t, 16));
			sim_free(&s);
			ok(ramp && ramp <= 5 && u2 >= 0.95 && j2 >= 0.9 && q2 <= 1 &&
			   u16 >= 0.95 && j16 >= 0.9 && q16 <= 1,
			   "datacenter %.0f Gbit/s, %u us, module defaults (mu = the NIC's): lone flow at 90%% in %.0f RTT (<= 5); 2 flows util %.3f Jain %.4f queue %.2f BDP, 16 flows util %.3f Jain %.4f queue %.2f BDP (util >= 0.95, Jain >= 0.9, queue <= 1 BDP)",
			   (double)dc[j].mu * 8 / 1e9, b, ramp, u2, j2, q2, u16, j16, q16);
		}
	}

	printf("1..%d\n", tests_run);
	return tests_failed ? 1 : 0;
}
