// SPDX-License-Identifier: GPL-2.0
/*
 * Each simulator glue (sim/glue_<alg>.c), at its module defaults, behind
 * the unit tests' exact bottleneck model (selftests/unit/model.h) before
 * any simulator is involved: a glue that builds but does not run its core
 * as the module does fails here, in a second, not in an ns-3 run.
 *
 * Per algorithm, TAP: two flows from one host on a lossless 10 Gbit/s
 * link of 20 us base RTT (a rack's scale, where the defaults are meant to
 * work), every parameter at the module's default, the host's NIC
 * reporting its 10 Gbit/s (what dcc_lib's dev_speed reads on hardware),
 * ECN marking above 100 kB (~4 BDP) for the algorithms that need it.
 * After 10 ms (500 base RTTs) the next 10 ms must show: utilisation >=
 * 80%, each flow >= 20% of the link, a mean queue below 400 kB (16 BDP: a
 * law that holds no bound fills any buffer).  The TIMELY family fails
 * them at its defaults (known_defect(): reported as TAP TODO with the
 * reason, and the README's results say so).  Also: every parameter at its
 * default is in its range, and dcc_sim_param_set() refuses out-of-range
 * values and keeps the old one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcc_sim.h"
#include "model.h"

#define MSS 1500u
#define LINK_BPS (10000ULL * DCC_MBPS_TO_BPS)	/* 10 Gbit/s */
#define BASE_NS 20000u

static int tests_run, tests_failed;

static void ok(bool cond, const char *what, const char *alg)
{
	tests_run++;
	tests_failed += !cond;
	printf("%sok %d - %s: %s\n", cond ? "" : "not ", tests_run, alg, what);
}

/*
 * The TIMELY family at its defaults, measured here: two flows that start
 * at the line rate offer twice the link; TIMELY's first completion sees a
 * normalised gradient ~1.5, its cut 1 - beta * g < 0 sends both flows to
 * the 1 Mbit/s floor, where one 64 KB completion takes 0.5 s (utilisation
 * 0 over this run); patched TIMELY's 0.8% cut per completion lets the
 * start's overshoot build ~1.9 MB before it drains (mean queue 786 kB);
 * SQCC's error term cuts each flow to ~16% and its additive recovery takes
 * ~65 ms (utilisation 38%).  What a host with a NIC that reports its speed
 * gets from `modprobe tcp_timely`; reported as TODO, not hidden.
 */
static const char *known_defect(const char *alg)
{
	static const char *const timely_family[] = { "timely", "timely_p", "sqcc" };
	unsigned int i;

	for (i = 0; i < sizeof(timely_family) / sizeof(timely_family[0]); i++)
		if (!strcmp(alg, timely_family[i]))
			return "line-rate start of 2 flows: the TIMELY family's defaults overshoot (see known_defect())";
	return NULL;
}

/* a behavioural check: a known defect is a TODO, reported either way */
static void check(bool cond, const char *what, const char *alg)
{
	const char *why = known_defect(alg);

	if (!why) {
		ok(cond, what, alg);
		return;
	}
	tests_run++;
	printf("%sok %d - %s: %s # TODO %s\n", cond ? "" : "not ", tests_run, alg,
	       what, why);
}

struct glue_flow {
	struct dcc_sim_sock sk;
	struct model_flow *mf;
};

/* the model's ACK, through the glue, back as the decision the model applies */
static void glue_on_ack(void *cc, const struct dcc_sample *s,
			struct dcc_decision *d)
{
	struct glue_flow *f = cc;
	struct dcc_sim_sock *sk = &f->sk;
	u32 rtt_us = s->rtt_ns / 1000;

	sk->now_ns = s->rx_ns;
	sk->packets_out = f->mf->inflight;
	if (!s->why && rtt_us && (!sk->min_rtt_us || rtt_us < sk->min_rtt_us))
		sk->min_rtt_us = rtt_us;
	if (!s->why)
		sk->srtt_us = sk->srtt_us ? (sk->srtt_us * 7 + rtt_us) / 8 : rtt_us;
	sk->delivered += s->acked;
	sk->delivered_ce += s->ce;
	sk->alg->cong_control(sk, s);
	d->rate_bytes_ps = sk->pacing_rate;
	d->cwnd_bytes = (u64)sk->snd_cwnd * MSS;
	d->flags = 0;
	d->changed = true;
}

static void run_alg(const struct dcc_sim_alg *alg)
{
	struct dcc_sim_host host = { 0 };
	struct glue_flow fl[2];
	struct model *m = calloc(1, sizeof(*m));
	double util, r0, r1, q;
	int i;

	if (!m)
		abort();
	dcc_sim_params_reset(alg);
	host.dev_mbps = LINK_BPS / DCC_MBPS_TO_BPS;
	model_init(m, &(struct model_link){
		.rate_bytes_ps = LINK_BPS, .mss = MSS,
		.ecn_k_bytes = alg->needs_ecn ? 100000 : 0, .seed = 7 });
	memset(fl, 0, sizeof(fl));
	for (i = 0; i < 2; i++) {
		struct dcc_sim_sock *sk = &fl[i].sk;
		int k;

		sk->mss = MSS;
		sk->now_ns = m->now_ns;
		sk->max_pacing_rate = LINK_BPS;
		sk->min_rtt_us = BASE_NS / 1000;	/* the handshake's */
		sk->ecn_ok = alg->needs_ecn;
		if (dcc_sim_sock_init(sk, alg, &host))
			abort();
		k = model_add_flow(m, BASE_NS,
				   (struct model_cc){ glue_on_ack, &fl[i] },
				   (struct dcc_decision){
					.rate_bytes_ps = sk->pacing_rate,
					.cwnd_bytes = (u64)sk->snd_cwnd * MSS,
					.changed = true });
		fl[i].mf = &m->f[k];
	}
	model_run(m, 10000000);
	model_reset_stats(m);
	model_run(m, 20000000);
	r0 = model_flow_rate(m, 0);
	r1 = model_flow_rate(m, 1);
	util = (r0 + r1) / LINK_BPS;
	q = model_mean_q_bytes(m);
	printf("# %s: utilisation %.1f%%, flows %.1f%% %.1f%%, mean queue %.0f B\n",
	       alg->name, 100 * util, 100 * r0 / LINK_BPS, 100 * r1 / LINK_BPS, q);
	check(util >= 0.8, "two flows use >= 80% of the link", alg->name);
	check(r0 >= 0.2 * LINK_BPS && r1 >= 0.2 * LINK_BPS,
	      "each flow >= 20% of the link", alg->name);
	check(q < 400000, "mean queue < 400 kB (16 BDP)", alg->name);
	for (i = 0; i < 2; i++)
		dcc_sim_sock_release(&fl[i].sk);
	ok(host.nflows == 0, "every socket released", alg->name);
	model_free(m);
	free(m);
}

static void check_params(const struct dcc_sim_alg *alg)
{
	struct dcc_sim_param *p;
	bool in_range = true, refused = true;
	char buf[96], err[160];

	dcc_sim_params_reset(alg);
	for (p = alg->params; p && p->name; p++) {
		u32 old = *p->val;

		in_range &= p->def >= p->min && p->def <= p->max;
		if (p->max < 0xffffffffU) {
			snprintf(buf, sizeof(buf), "%s=%llu", p->name,
				 (unsigned long long)p->max + 1);
			refused &= dcc_sim_param_set(alg, buf, err, sizeof(err)) < 0 &&
				   *p->val == old;
		}
		snprintf(buf, sizeof(buf), "%s=-1", p->name);
		refused &= dcc_sim_param_set(alg, buf, err, sizeof(err)) < 0 &&
			   *p->val == old;
	}
	refused &= dcc_sim_param_set(alg, "no_such_param=1", err, sizeof(err)) < 0;
	ok(alg->params && alg->params->name, "has module parameters", alg->name);
	ok(in_range, "every default within its range", alg->name);
	ok(refused, "out-of-range and unknown values refused, old value kept",
	   alg->name);
}

/* --params: "alg name default min max" per parameter (sim/params-check.sh) */
static void dump_params(void)
{
	const struct dcc_sim_param *p;
	int i;

	for (i = 0; i < DCC_SIM_NALGS; i++)
		for (p = dcc_sim_algs[i] ? dcc_sim_algs[i]->params : NULL; p && p->name; p++)
			printf("%s %s %u %u %u\n", dcc_sim_algs[i]->name, p->name, p->def,
			       p->min, p->max);
}

int main(int argc, char **argv)
{
	int i;

	if (argc > 1 && !strcmp(argv[1], "--params")) {
		dump_params();
		return 0;
	}
	for (i = 0; i < DCC_SIM_NALGS; i++) {
		const struct dcc_sim_alg *alg = dcc_sim_algs[i];

		if (!alg)
			continue;
		if (argc > 1 && strcmp(argv[1], alg->name))
			continue;
		check_params(alg);
		run_alg(alg);
	}
	printf("1..%d\n", tests_run);
	return tests_failed ? 1 : 0;
}
