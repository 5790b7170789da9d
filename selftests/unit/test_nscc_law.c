// SPDX-License-Identifier: GPL-2.0
/*
 * NSCC / MNSCC control law (modules/nscc/nscc_law.c, the very file
 * tcp_nscc.ko runs): worked examples of the UE NSCC notes, fixed-point
 * range extremes, and the real per-ACK law driven through the shared
 * packet-level bottleneck model (model.h).
 *
 * Model: the shared one (model.h says what it models): N senders,
 * window-limited at the law's cwnd (whole packets, rounded up, at least 2,
 * as dcc_apply() sets snd_cwnd) and paced at the rate the law returns
 * (pacing_gain * cwnd / srtt); MSS-sized packets wait in one FIFO served at
 * mu that CE-marks on enqueue above K bytes (a step marker, like
 * net_setup --ecn-k-bytes) and drops above its limit; after service a
 * packet may take a slow path (per-packet spraying over paths of which
 * some are congested, [M]'s model); every packet is ACKed on arrival with
 * its own RTT (per-packet ACKs, quickack); a drop is reported one base RTT
 * later as an ACK-less sample.  Sample noise is on the receive time.
 *
 * The adapter below (struct nscc_flow) is tcp_nscc.c's glue around the one
 * per-ACK entry point nscc_on_ack(): the stack's smoothed RTT (srtt, 1/8
 * EWMA) and min RTT (tcp_min_rtt(); the SYN's RTT at the start), the
 * configuration resolved at the flow's start and again when its base RTT
 * falls (nscc_cfg()), the ACK's own CE bit (only if ECN was negotiated:
 * a non-ECT packet's mark never reaches the sender), packets in flight
 * after the ACK, cwnd-limited (always: the model's senders are bound by
 * the window or by pacing at >= cwnd / srtt) and never in CA_Loss (the
 * model has no RTO).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dcc/nscc.h"
#include "model.h"
#include "tap.h"

#define MSS 1500u
#define MAXF 32

static u64 rnd(u64 *state)	/* splitmix64 */
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* One ACK as dcc_sample_get() fills it: per-packet ACKs, ns times. */
static struct dcc_sample mk_sample(u64 now_ns, u32 rtt_ns, u32 acked_bytes,
				   u32 mss, u32 ce, u32 losses, bool valid)
{
	struct dcc_sample s = {
		.rx_ns = now_ns,
		.rtt_ns = valid ? rtt_ns : 0,
		.tx_ns = valid ? now_ns - rtt_ns : 0,
		.acked = acked_bytes / mss,
		.acked_bytes = acked_bytes,
		.mss = mss,
		.ce = ce,
		.losses = losses,
		.why = valid ? 0 : DCC_SAMPLE_NO_RTT,
	};

	return s;
}

/*
 * One NSCC / MNSCC socket behind the model, as tcp_nscc.c runs it: the
 * core's state and config and what the glue and the stack feed it.
 */
struct nscc_flow {
	struct nscc_state st;
	struct nscc_cfg c;	/* resolved for min_rtt_us */
	const struct nscc_params *p;
	const struct model *m;	/* for the flow's packets in flight */
	int idx;		/* the flow's index in the model */
	bool ecn;		/* ECN negotiated */
	bool mnscc;
	u32 min_rtt_us;		/* tcp_min_rtt() */
	u32 srtt_us;		/* tp->srtt_us >> 3 */
	u32 qa, md, marks, acks, loss_reports;
};

/* nscc_cfg(): resolved for the flow's base RTT, MSS and ECN */
static void nscc_flow_cfg(struct nscc_flow *f)
{
	nscc_resolve(f->p, dcc_us_to_ns(f->min_rtt_us), MSS, f->ecn, f->mnscc, &f->c);
}

/* nscc_cong_control(): the stack's RTT filters, then the core */
static void nscc_flow_on_ack(void *cc, const struct dcc_sample *s,
			     struct dcc_decision *d)
{
	struct nscc_flow *f = cc;
	struct dcc_sample a = *s;
	struct nscc_out o;

	if (!s->why) {
		u32 rtt_us = dcc_sample_rtt_us(s);

		f->srtt_us = (f->srtt_us * 7 + rtt_us) / 8;
		if (rtt_us < f->min_rtt_us) {	/* an input of the config changed */
			f->min_rtt_us = rtt_us;
			nscc_flow_cfg(f);
			nscc_decision_stale(&f->st);	/* nscc_conf_refresh() */
		}
	}
	a.ce = f->ecn && s->ce;
	if (s->losses)
		f->loss_reports++;
	/* the model's inflight is already net of this ACK, as Linux's */
	nscc_on_ack(&f->st, &f->c, &a, (u64)f->srtt_us * 1000,
		    f->m->f[f->idx].inflight, true, false, d, &o);
	f->acks++;
	f->qa += o.qa;
	f->md += o.md;
	f->marks += o.mark;
}

struct sim {
	struct nscc_params p;
	struct model_link link;	/* set before the first flow starts */
	u64 mu;			/* bytes/s */
	u32 base;		/* base RTT, us */
	bool ecn;		/* ECN negotiated */
	bool started;		/* the model is initialised */
	int n;			/* flows */
	struct nscc_flow f[MAXF];
	struct model m;
};

static void sim_init(struct sim *s, u32 mbps, u32 base_us)
{
	memset(s, 0, sizeof(*s));
	s->p = nscc_params_default;
	s->p.nic_mbps = mbps;
	s->mu = (u64)mbps * 125000;
	s->base = base_us;
	s->ecn = true;
	s->link = (struct model_link){
		.rate_bytes_ps = s->mu, .mss = MSS, .limit_bytes = 4000 * MSS,
		.seed = 42,
	};
}

static void sim_free(struct sim *s)
{
	if (s->started)
		model_free(&s->m);
}

/* flow @i (the next one) starts now: init as nscc_init() */
static void flow_start(struct sim *s, int i, bool mnscc)
{
	struct nscc_flow *f = &s->f[i];
	struct dcc_decision d;

	if (!s->started) {
		model_init(&s->m, &s->link);
		s->started = true;
	}
	memset(f, 0, sizeof(*f));
	f->p = &s->p;
	f->m = &s->m;
	f->idx = i;
	f->ecn = s->ecn;
	f->mnscc = mnscc;
	f->min_rtt_us = s->base;	/* the SYN's RTT, as at tcp_init_transfer */
	f->srtt_us = s->base;
	nscc_flow_cfg(f);
	nscc_state_init(&f->st, &f->c, s->m.now_ns);
	nscc_decide(&f->st, &f->c, (u64)f->srtt_us * 1000, &d);
	if (model_add_flow(&s->m, (u32)dcc_us_to_ns(s->base),
			   (struct model_cc){ nscc_flow_on_ack, f }, d) != i)
		abort();
	s->n = i + 1;
}

struct stats {
	double util, jain, q_us, q_max_us, ce_frac;
	u64 drops;
	u32 qa, md;
};

/* Run for @us; link and law statistics over that span. */
static void sim_run(struct sim *s, u64 us, struct stats *st)
{
	u32 qa0 = 0, md0 = 0;
	u64 pkts = 0;
	double sum = 0;

	for (int i = 0; i < s->n; i++) {
		qa0 += s->f[i].qa;
		md0 += s->f[i].md;
	}
	model_reset_stats(&s->m);
	model_run(&s->m, s->m.now_ns + us * 1000);
	if (!st)
		return;
	memset(st, 0, sizeof(*st));
	for (int i = 0; i < s->n; i++) {
		sum += model_flow_rate(&s->m, i);
		pkts += s->m.f[i].bytes / MSS;
		st->qa += s->f[i].qa;
		st->md += s->f[i].md;
	}
	st->qa -= qa0;
	st->md -= md0;
	st->util = sum / (double)s->mu;
	st->jain = model_jain(&s->m, 0, s->n);
	st->q_us = model_mean_q_bytes(&s->m) * 1e6 / (double)s->mu;
	st->q_max_us = (double)s->m.st.q_max_bytes * 1e6 / (double)s->mu;
	st->drops = s->m.st.drops;
	/* marks per packet that reached the bottleneck (delivered or dropped) */
	pkts += st->drops;
	st->ce_frac = pkts ? (double)s->m.st.marks / (double)pkts : 0;
}

static void show(const char *what, const struct stats *st)
{
	tap_diag("%s: util %.3f jain %.4f queue %.0f us (max %.0f) CE %.3f drops %llu qa %u md %u",
		 what, st->util, st->jain, st->q_us, st->q_max_us, st->ce_frac,
		 (unsigned long long)st->drops, st->qa, st->md);
}

static bool near(double got, double want, double tol)
{
	return fabs(got - want) <= tol;
}

/* ---- worked examples ----------------------------------------------------- */

/* the examples are written in us; the law takes ns */
static u64 us(u64 x)
{
	return x * 1000;
}

static u32 avg_us(const struct nscc_state *s)
{
	return nscc_avg_ns(s) / 1000;
}

/* alpha in bytes per us of (target - d) */
static double alpha_us(const struct nscc_cfg *c)
{
	return (double)c->alpha_q40 * 1000 / 1099511627776.0;
}

static void test_constants(void)
{
	struct nscc_params p = nscc_params_default;
	struct nscc_cfg c;

	/* reference: 100G, 12 us, target 9 us (trimming), 4 KB MSS */
	tap_begin("constants at the reference network (UE reference values)");
	p.nic_mbps = 100000;
	p.network_rtt_us = 12;
	p.target_us = 9;
	nscc_resolve(&p, us(12), 4096, true, false, &c);
	CHECK(c.fi == 20480, "fi %llu want 20480", (unsigned long long)c.fi);
	CHECK(c.eta == 614, "eta %llu want 614", (unsigned long long)c.eta);
	CHECK(c.fi_scale_q16 == 16384, "fi_scale %llu", (unsigned long long)c.fi_scale_q16);
	/* alpha * target = 4 MSS * 9/12 = 12288 B */
	CHECK(near(alpha_us(&c) * 9, 12288, 2), "alpha*target %.1f", alpha_us(&c) * 9);
	CHECK(c.maxwnd == 225000, "maxwnd %u want 225000", c.maxwnd);
	CHECK(c.base_ns + c.target_ns == us(21), "QA window %u ns want 21 us",
	      c.base_ns + c.target_ns);
	CHECK(c.qa_thresh_ns == us(36), "qa_threshold %llu ns want 36 us",
	      (unsigned long long)c.qa_thresh_ns);
	CHECK(c.fi_thresh_ns == us(1), "fi_thresh %u ns want 1 us", c.fi_thresh_ns);
	/* [H]'s EWMA gain, 0.0125 per ACK of MSS_ref bytes: 819.2 in Q16 */
	CHECK(((4096 * c.ewma_pb_q48) >> 32) == 819, "EWMA gain per 4 KB ACK %llu want 819",
	      (unsigned long long)((4096 * c.ewma_pb_q48) >> 32));
	tap_end();

	/* Linux example: 100G, 25 us measured, no trimming: target 25 us */
	tap_begin("constants at 100G / 25 us, target = 1.0 network RTT");
	p = nscc_params_default;
	nscc_resolve(&p, us(25), 4096, true, false, &c);
	CHECK(c.target_ns == us(25), "target %u ns", c.target_ns);
	CHECK(near((double)c.fi, 42667, 2), "fi %llu want 42.7 KB", (unsigned long long)c.fi);
	CHECK(near((double)c.eta, 1280, 1), "eta %llu want 1.28 KB", (unsigned long long)c.eta);
	CHECK(near((double)c.fi_scale_q16 / 65536, 0.52, 0.01), "fi_scale %.3f",
	      (double)c.fi_scale_q16 / 65536);
	CHECK(near((double)c.maxwnd, 468750, 1), "maxwnd %u want 469 KB", c.maxwnd);
	CHECK(c.base_ns + c.target_ns == us(50) && c.qa_thresh_ns == us(100), "QA %u / %llu ns",
	      c.base_ns + c.target_ns, (unsigned long long)c.qa_thresh_ns);
	/*
	 * alpha * target: [H] normalises by 12 us (71.1 KB here); we by
	 * the network RTT (34.1 KB = 4 MSS_ref * scale_a): see nscc_law.c
	 */
	CHECK(near(alpha_us(&c) * 25, 34133, 3), "alpha*target %.1f", alpha_us(&c) * 25);
	tap_end();

	/* the testbed: 100 Mbit/s, 10 ms */
	tap_begin("constants at the testbed scale, 100 Mbit/s / 10 ms");
	p.nic_mbps = 100;
	nscc_resolve(&p, us(10000), 1448, true, false, &c);
	CHECK(c.maxwnd == 187500, "maxwnd %u want 1.5 BDP = 187500", c.maxwnd);
	CHECK(near((double)c.fi, 17067, 1), "fi %llu want 5*4096*0.833", (unsigned long long)c.fi);
	/* network RTT / 12 in ns: 833.333 us (833 us when the law ran in us) */
	CHECK(c.fi_thresh_ns == 833333, "fi_thresh %u ns want 833333", c.fi_thresh_ns);
	CHECK(c.init_cwnd == c.maxwnd, "init cwnd %u", c.init_cwnd);
	CHECK(c.mark_ns == U64_MAX, "ECN: no delay marks by default, as UE (%llu)",
	      (unsigned long long)c.mark_ns);
	/*
	 * the EWMA's per-RTT decay is the reference's: 0.0125 * 150 KB /
	 * 4096 B spread over this BDP (125 KB), i.e. 0.0053 per 1448-byte
	 * ACK (347.6 in Q16), not 0.0125 per ACK
	 */
	CHECK(((1448 * c.ewma_pb_q48) >> 32) == 347, "EWMA gain per 1448-byte ACK %llu want 347",
	      (unsigned long long)((1448 * c.ewma_pb_q48) >> 32));
	nscc_resolve(&p, us(10000), 1448, false, true, &c);
	CHECK(c.mark_ns == us(12500) && c.hmax == 4 && !c.mark_disarm,
	      "no ECN: mark at 1.25 target for good (%llu ns), hmax %u",
	      (unsigned long long)c.mark_ns, c.hmax);
	p.ecn_backstop_mode = NSCC_BACKSTOP_UNTIL_CE;
	nscc_resolve(&p, us(10000), 1448, true, false, &c);
	CHECK(c.mark_ns == us(15000) && c.mark_disarm == NSCC_S_SAW_CE,
	      "backstop mode 1: 1.5 x target until the first CE (%llu)", (unsigned long long)c.mark_ns);
	p.ecn_backstop_mode = NSCC_BACKSTOP_ALWAYS;
	nscc_resolve(&p, us(10000), 1448, true, false, &c);
	CHECK(c.mark_ns == us(15000) && !c.mark_disarm, "backstop mode 2: for good (%llu)",
	      (unsigned long long)c.mark_ns);
	tap_end();
}

static void test_md_table(void)
{
	static const u32 gam[] = { 50, 80, 100 };
	static const double keep15[] = { 0.833, 0.733, 0.667 };
	static const double keep2[] = { 0.75, 0.60, 0.50 };
	struct nscc_params p = nscc_params_default;
	struct nscc_cfg c;

	tap_begin("MD kept fraction: N 3b gamma table, floor 0.5 beyond 2.67 target");
	for (int i = 0; i < 3; i++) {
		p.gamma_pct = gam[i];
		p.target_us = 1000;
		nscc_resolve(&p, us(1000), 1448, true, false, &c);
		CHECK(near(nscc_md_keep_q16(&c, us(1500)) / 65536.0, keep15[i], 0.002),
		      "gamma %u at 1.5 target: %.4f", gam[i], nscc_md_keep_q16(&c, us(1500)) / 65536.0);
		CHECK(near(nscc_md_keep_q16(&c, us(2000)) / 65536.0, keep2[i], 0.002),
		      "gamma %u at 2 target: %.4f", gam[i], nscc_md_keep_q16(&c, us(2000)) / 65536.0);
		CHECK(nscc_md_keep_q16(&c, us(1000)) == 65536, "no cut at target");
	}
	p.gamma_pct = 80;
	nscc_resolve(&p, us(1000), 1448, true, false, &c);
	CHECK(nscc_md_keep_q16(&c, us(2600)) > 32768, "2.6 target: above the floor");
	CHECK(nscc_md_keep_q16(&c, us(2700)) == 32768, "2.7 target: the 0.5 floor");
	CHECK(nscc_md_keep_q16(&c, us(1000000)) == 32768, "1 s: the floor");
	tap_end();
}

/* an ACK at @now us with an RTT of @rtt us, as dcc_sample_get() fills it */
static struct dcc_sample ack_at(u32 now, u32 rtt, bool ce)
{
	return mk_sample(us(now), (u32)us(rtt), 1448, 1448, ce, 0, true);
}

/* the glue's call: ~100 KB in flight, cwnd-limited, not in CA_Loss */
static void law(struct nscc_state *s, const struct nscc_cfg *c,
		const struct dcc_sample *a, struct nscc_out *o)
{
	struct dcc_decision d;

	nscc_on_ack(s, c, a, 0, 100000 / 1448, true, false, &d, o);
}

static void test_quadrants(void)
{
	struct nscc_params p = nscc_params_default;
	struct nscc_cfg c;
	struct nscc_state s;
	struct dcc_sample a;
	struct nscc_out o;
	u32 before, t = 1000;

	p.nic_mbps = 100;
	p.target_us = 2000;
	p.init_cwnd_pct = 50;
	nscc_resolve(&p, us(10000), 1448, true, false, &c);

	tap_begin("quadrants: choice from delay vs target and ECN (N 2)");
	nscc_state_init(&s, &c, us(t));
	a = ack_at(t, 10000 + 500, false);	/* first ACK arms QA */
	law(&s, &c, &a, &o);
	a = ack_at(++t, 10000 + 1500, false);
	law(&s, &c, &a, &o);
	CHECK(o.quadrant == NSCC_Q_PROP, "low delay, no ECN -> %u", o.quadrant);
	a = ack_at(++t, 10000 + 2500, false);
	law(&s, &c, &a, &o);
	CHECK(o.quadrant == NSCC_Q_FAIR, "high delay, no ECN -> %u", o.quadrant);
	before = s.cwnd;
	a = ack_at(++t, 10000 + 1000, true);
	law(&s, &c, &a, &o);
	CHECK(o.quadrant == NSCC_Q_STEER, "low delay, ECN -> %u", o.quadrant);
	CHECK(s.cwnd == before, "steer only: cwnd unchanged %u -> %u", before, s.cwnd);
	a = ack_at(++t, 10000 + 3000, true);
	law(&s, &c, &a, &o);
	CHECK(o.quadrant == NSCC_Q_MD, "high delay, ECN -> %u", o.quadrant);
	CHECK(!o.md, "MD needs the EWMA above target (avg %u us)", avg_us(&s));
	/* the EWMA above target: one cut, then none for a base RTT */
	s.avg_ns = (u32)us(4000);
	before = s.cwnd;
	a = ack_at(++t, 10000 + 3000, true);
	law(&s, &c, &a, &o);
	CHECK(o.md && near((double)s.cwnd / before, 0.6, 0.01), "MD at avg 2 target: %u -> %u",
	      before, s.cwnd);
	before = s.cwnd;
	a = ack_at(t + 5000, 10000 + 3000, true);
	law(&s, &c, &a, &o);
	CHECK(!o.md && s.cwnd == before, "no second MD within a base RTT");
	a = ack_at(t + 10002, 10000 + 3000, true);
	law(&s, &c, &a, &o);
	CHECK(o.md, "MD again after a base RTT");
	tap_end();

	/*
	 * The ECN backstop (ECN negotiated; 150% of the 2 ms target): a delay
	 * of 3.5 ms without CE is a mark before and after the flow's first CE
	 * echo in mode 2, before it only in mode 1 (then the path marks, and
	 * UE decides on its marks alone), never in mode 0 (UE, the default).
	 */
	tap_begin("ECN backstop: a high delay is a mark until the first CE (mode 1), always (2), never (0)");
	for (u32 mode = 0; mode <= 2; mode++) {
		struct nscc_params pb = p;
		bool m0, m1;

		pb.ecn_backstop_mode = mode;
		nscc_resolve(&pb, us(10000), 1448, true, false, &c);
		nscc_state_init(&s, &c, us(t));
		a = ack_at(++t, 10000 + 3500, false);
		law(&s, &c, &a, &o);
		m0 = o.mark;
		a = ack_at(++t, 10000 + 1000, true);
		law(&s, &c, &a, &o);
		CHECK(o.mark && o.quadrant == NSCC_Q_STEER, "mode %u: CE at low delay -> %u", mode,
		      o.quadrant);
		a = ack_at(++t, 10000 + 3500, false);
		law(&s, &c, &a, &o);
		m1 = o.mark;
		CHECK(m0 == (mode != 0) && m1 == (mode == 2),
		      "mode %u: 3.5 ms without CE a mark before the first CE %d, after %d", mode, m0, m1);
		CHECK(m1 || o.quadrant == NSCC_Q_FAIR, "mode %u: unmarked high delay -> %u", mode,
		      o.quadrant);
	}
	nscc_resolve(&p, us(10000), 1448, false, false, &c);
	nscc_state_init(&s, &c, us(t));
	a = ack_at(++t, 10000 + 1000, true);	/* a CE echo without ECN: impossible, */
	law(&s, &c, &a, &o);			/* and the delay marks stay */
	a = ack_at(++t, 10000 + 2600, false);
	law(&s, &c, &a, &o);
	CHECK(o.mark, "ECN not negotiated: delay marks at 1.25 target stay (%u us)", 2600);
	tap_end();

	/*
	 * [H]'s time constant is 80 ACKs of MSS_ref: 80 * 4096 / 150 KB =
	 * 2.18 BDPs of acked bytes, whatever the BDP and the ACK size
	 * (nscc_ewma_per_byte()).  Here (100 Mbit/s, 10 ms: 125 KB) that is
	 * 189 ACKs of 1448 bytes, or 95 of two segments each.
	 */
	tap_begin("EWMA: untrusted high delay feeds base/4; 63%% after 2.18 BDPs acked (80 reference ACKs)");
	p.ecn_backstop_pct = 0;		/* no delay-derived marks here */
	nscc_resolve(&p, us(10000), 1448, true, false, &c);
	for (int seg = 1; seg <= 2; seg++) {
		int n = (int)(80.0 * 4096 / 150000 * 125000 / (1448 * seg) + 0.5);

		nscc_state_init(&s, &c, us(t));
		for (int i = 0; i < n; i++) {
			a = mk_sample(us(++t), (u32)us(10000 + 1800), 1448 * seg, 1448 * seg,
				      false, 0, true);
			law(&s, &c, &a, &o);
		}
		CHECK(near(avg_us(&s), 1800 * 0.632, 30), "avg %u after %d ACKs of %d x 1448 B at 1800 us",
		      avg_us(&s), n, seg);
	}
	nscc_state_init(&s, &c, us(t));
	for (int i = 0; i < 2000; i++) {
		a = ack_at(++t, 10000 + 9000, false);	/* above target, no ECN */
		law(&s, &c, &a, &o);
	}
	CHECK(near(avg_us(&s), 2500, 30), "avg %u: untrusted samples fed as base/4",
	      avg_us(&s));
	nscc_state_init(&s, &c, us(t));
	for (int i = 0; i < 2000; i++) {
		a = ack_at(++t, 10000 + 9000, true);
		law(&s, &c, &a, &o);
	}
	CHECK(avg_us(&s) > 8900, "avg %u: ECN-marked samples are trusted", avg_us(&s));
	tap_end();

	tap_begin("fulfill: credit / cwnd, eta once per network RTT");
	nscc_state_init(&s, &c, us(t));
	a = ack_at(++t, 10000, false);
	law(&s, &c, &a, &o);
	{
		/* 24 ACKs at delay target/2: proportional credit, one fulfill */
		u32 c0 = s.cwnd, nf = 0;
		double want = 0;

		s.fi_count = 0;
		s.received = 0;
		s.inc_acc = 0;
		for (int i = 0; i < 23; i++) {	/* 23 * 1448 > 33280 */
			a = ack_at(++t, 10000 + 1000, false);
			law(&s, &c, &a, &o);
			nf += o.fulfill;
			want += alpha_us(&c) * 1000 * 1448;
		}
		CHECK(o.fulfill && nf == 1, "one fulfill, after > 33280 bytes (%u)", nf);
		CHECK(near(s.cwnd - c0, want / c0, 2), "cwnd +%u want %.1f", s.cwnd - c0, want / c0);
		c0 = s.cwnd;
		a = ack_at(t + 10001, 10000 + 1000, false);
		law(&s, &c, &a, &o);
		CHECK(s.cwnd >= c0 + (u32)c.eta, "eta added after a network RTT: %u -> %u",
		      c0, s.cwnd);
	}
	tap_end();
}

/*
 * N 2, Attempt 1: 16 paths, one at 20 us and the rest at ~2 us, target
 * 6 us, no ECN on the good paths.  NSCC only increases (fair or
 * proportional) on those; MNSCC's median of 4 stays below target.
 */
static void test_sampling_noise(void)
{
	struct nscc_params p = nscc_params_default;
	struct nscc_cfg cn, cm;
	struct nscc_state sn, sm;
	struct dcc_sample a;
	struct nscc_out o;
	u32 t = 100, md = 0, above_m = 0, above_n = 0;

	p.nic_mbps = 100000;
	p.network_rtt_us = 12;
	p.target_us = 6;
	p.ecn_backstop_pct = 0;
	nscc_resolve(&p, us(10), 4096, true, false, &cn);
	nscc_resolve(&p, us(10), 4096, true, true, &cm);
	nscc_state_init(&sn, &cn, us(t));
	nscc_state_init(&sm, &cm, us(t));
	tap_begin("N 2, Attempt 1: one slow path of 16, no ECN: NSCC only increases, MNSCC below target");
	for (int i = 0; i < 1600; i++) {
		u32 d = (i % 16 == 5) ? 20 : 2;

		a = ack_at(t += 1, 10 + d, false);
		a.acked_bytes = 4096;
		a.acked = 2;
		law(&sn, &cn, &a, &o);
		CHECK(o.quadrant == NSCC_Q_PROP || o.quadrant == NSCC_Q_FAIR ||
		      o.quadrant == NSCC_Q_QA, "NSCC quadrant %u", o.quadrant);
		md += o.md;
		above_n += o.delay_ns >= us(6);
		law(&sm, &cm, &a, &o);
		if (sm.cwnd >= 8 * NSCC_MTU_REF)
			above_m += o.delay_ns >= us(6);
	}
	CHECK(md == 0, "no MD without ECN (%u)", md);
	CHECK(above_n == 100, "NSCC decided on 100 slow samples (%u)", above_n);
	CHECK(above_m == 0, "MNSCC (H = 4): median never at/above target (%u)", above_m);
	tap_end();
}

/*
 * The clock: "now" is the sample's u64 rx_ns and the state keeps 32-bit ns
 * stamps read as ages.  The same ACKs from any start (0, just before a
 * 2^32 ns wrap, 11.6 days in) give the same decisions, and a 3 s silence
 * (beyond s32's 2.1 s, within the 4.29 s age) still lets an MD through.
 */
static void test_clock(void)
{
	static const u64 starts[] = { 0, (1ULL << 32) - 3000000, 1000000000000000ULL };
	struct nscc_params p = nscc_params_default;
	u32 cw[3] = { 0 }, md[3] = { 0 }, qa[3] = { 0 };
	struct nscc_state s;
	struct nscc_cfg c;
	struct nscc_out o;

	p.nic_mbps = 100;
	p.target_us = 2000;
	nscc_resolve(&p, us(10000), 1448, true, false, &c);
	tap_begin("clock: 32-bit ns stamps give the same law at any u64 rx_ns");
	for (int k = 0; k < 3; k++) {
		u64 seed = 99;

		nscc_state_init(&s, &c, starts[k]);
		for (u32 i = 0; i < 20000; i++) {
			u64 r = (seed = seed * 6364136223846793005ULL + 1442695040888963407ULL) >> 33;
			/* 116 us per ACK: 2.3 s, across the wrap for k = 1 */
			struct dcc_sample a = mk_sample(starts[k] + us((u64)i * 116),
							(u32)us(10000 + r % 6000), 1448,
							1448, r % 7 == 0, r % 501 == 0, true);
			struct dcc_decision d;

			nscc_on_ack(&s, &c, &a, 0, 50, true, false, &d, &o);
			cw[k] ^= s.cwnd * (i + 1);
			md[k] += o.md;
			qa[k] += o.qa;
		}
	}
	CHECK(md[0] > 10 && cw[0] == cw[1] && cw[0] == cw[2] && md[0] == md[1] &&
	      md[0] == md[2] && qa[0] == qa[1] && qa[0] == qa[2],
	      "cwnd hash %u %u %u, MDs %u %u %u, QAs %u %u %u", cw[0], cw[1], cw[2],
	      md[0], md[1], md[2], qa[0], qa[1], qa[2]);
	for (int k = 0; k < 3; k++) {
		u64 t = starts[k] + us(1000);
		struct dcc_sample a = mk_sample(t, (u32)us(13000), 1448, 1448, 1, 0, true);
		struct dcc_decision d;
		u32 before;

		nscc_state_init(&s, &c, starts[k]);
		s.avg_ns = (u32)us(4000);
		nscc_on_ack(&s, &c, &a, 0, 50, true, false, &d, &o);
		CHECK(o.md, "first MD (start %llu)", (unsigned long long)starts[k]);
		before = s.cwnd;
		s.avg_ns = (u32)us(4000);
		a = mk_sample(t + 3000000000ULL, (u32)us(13000), 1448, 1448, 1, 0, true);
		nscc_on_ack(&s, &c, &a, 0, 50, true, false, &d, &o);
		CHECK(o.md && s.cwnd < before, "MD after a 3 s silence (start %llu): %u -> %u",
		      (unsigned long long)starts[k], before, s.cwnd);
	}
	tap_end();
}

/* every step of the law stays within its bounds at the range extremes */
static void test_range(void)
{
	static const u32 rates[] = { 1, 100, 100000, 800000 };
	static const u32 rtts[] = { 1, 12, 10000, 1000000 };
	struct nscc_params p = nscc_params_default;
	u64 rs = 7;	/* the random ACKs' seed */
	struct nscc_cfg c;
	struct nscc_state s;
	struct nscc_out o;

	tap_begin("range: 1 Mbit/s .. 800 Gbit/s x 1 us .. 1 s, random ACKs");
	for (int ri = 0; ri < 4; ri++) {
		for (int ti = 0; ti < 4; ti++) {
			for (int m = 0; m < 2; m++) {
				u32 t = 5;

				p.nic_mbps = rates[ri];
				nscc_resolve(&p, us(rtts[ti]), 1448, m, m, &c);
				CHECK(c.maxwnd >= c.min_cwnd && c.init_cwnd >= c.min_cwnd,
				      "rate %u rtt %u", rates[ri], rtts[ti]);
				nscc_state_init(&s, &c, us(t));
				for (int i = 0; i < 20000; i++) {
					u64 r = rnd(&rs);
					struct dcc_decision d;
					struct dcc_sample a = mk_sample(
						us(t += (u32)(r % 3000)),
						(u32)us(rtts[ti] + (u32)((r >> 24) % 2000000)),
						(u32)(r >> 8) % 3 == 0 ? 0 : (u32)((r >> 16) % 2000000),
						1448, (r >> 41) & 1,
						(r >> 42) % 50 == 0 ? (u32)((r >> 50) % 40) : 0,
						(r >> 40) & 1);

					nscc_on_ack(&s, &c, &a, 0, (u32)(r >> 32) / 1448,
						    (r >> 43) & 1, false, &d, &o);
					CHECK(s.cwnd >= c.min_cwnd && s.cwnd <= c.maxwnd,
					      "cwnd %u in [%u, %u] rate %u rtt %u", s.cwnd,
					      c.min_cwnd, c.maxwnd, rates[ri], rtts[ti]);
					CHECK(avg_us(&s) <= 2100000, "avg %u", avg_us(&s));
				}
			}
		}
	}
	tap_end();
}

/* ---- packet-level model ----------------------------------------------------- */

/* testbed scale: 100 Mbit/s, 10 ms base RTT, the VM tests' settings */
#define TB_MBPS 100
#define TB_RTT 10000
#define TB_TARGET 5000		/* 0.5 base RTT */
#define TB_K (75000)		/* CE above 75 KB = 6 ms (0.6 BDP) */

static void tb_init(struct sim *s)
{
	sim_init(s, TB_MBPS, TB_RTT);
	s->p.target_us = TB_TARGET;
	s->p.network_rtt_us = TB_RTT;
	s->link.ecn_k_bytes = TB_K;
	/*
	 * host latency: the measured RTT spread over 300 us above the
	 * lowest one, as the guest's.  The model's noise is zero-mean on
	 * the receive time, +-150 us, so min RTT (the base the law
	 * subtracts) takes its lowest draw and every queueing delay the law
	 * sees carries 0..300 us of it, mean 150 us.
	 */
	s->link.noise_ns = 150000;
}

static void test_spray(void);
static void test_spray_q(void);

static void test_model(void)
{
	static struct sim s;
	struct stats st;

	for (int m = 0; m < 2; m++) {
		tb_init(&s);
		flow_start(&s, 0, m);
		sim_run(&s, 1000000, NULL);
		sim_run(&s, 4000000, &st);
		show(m ? "MNSCC single" : "NSCC single", &st);
		tap_begin("%s one flow: util >= 0.95, queue near target, CE fraction low",
			  m ? "MNSCC" : "NSCC");
		CHECK(st.util >= 0.95, "util %.3f", st.util);
		CHECK(st.q_us >= 0.5 * TB_TARGET && st.q_us <= 1.5 * TB_TARGET,
		      "queue %.0f us, target %u", st.q_us, TB_TARGET);
		CHECK(st.ce_frac <= 0.1, "CE fraction %.3f", st.ce_frac);
		CHECK(st.drops == 0, "drops %llu", (unsigned long long)st.drops);
		tap_end();
		sim_free(&s);
	}

	for (int m = 0; m < 2; m++) {
		struct stats st0;

		tb_init(&s);
		s.link.limit_bytes = 1500 * MSS;
		for (int i = 0; i < 8; i++)
			flow_start(&s, i, m);
		sim_run(&s, 3000000, &st0);
		show(m ? "MNSCC incast start" : "NSCC incast start", &st0);
		sim_run(&s, 5000000, &st);
		show(m ? "MNSCC incast" : "NSCC incast", &st);
		/*
		 * 8 flows each get 1/8 of the link, which over a QA window
		 * (base + target = 1.5 base) is exactly maxwnd / 8: QA sits
		 * on its threshold (it fired 4 times); MD does the work.
		 */
		tap_begin("%s 8-to-1 incast at maxwnd: no loss, util >= 0.95, Jain >= 0.9",
			  m ? "MNSCC" : "NSCC");
		CHECK(st0.drops + st.drops == 0, "drops %llu", (unsigned long long)(st0.drops + st.drops));
		CHECK(st.util >= 0.95, "util %.3f", st.util);
		CHECK(st.jain >= 0.9, "Jain %.4f", st.jain);
		CHECK(st.q_us <= 3 * TB_TARGET, "steady queue %.0f us", st.q_us);
		tap_end();
		sim_free(&s);
	}

	/* N 7 scenario 2, scaled: 32 senders, QA must fire and drain the queue */
	for (int m = 0; m < 2; m++) {
		struct stats st0;

		tb_init(&s);
		s.link.limit_bytes = 6000 * MSS;
		for (int i = 0; i < 32; i++)
			flow_start(&s, i, m);
		sim_run(&s, 1000000, &st0);
		show(m ? "MNSCC 32-incast start" : "NSCC 32-incast start", &st0);
		sim_run(&s, 3000000, &st);
		show(m ? "MNSCC 32-incast" : "NSCC 32-incast", &st);
		tap_begin("%s 32-to-1 incast at maxwnd: QA >= 1 per flow, queue drained, no loss",
			  m ? "MNSCC" : "NSCC");
		CHECK(st0.qa >= 32, "QA count %u in the first second", st0.qa);
		CHECK(st0.drops + st.drops == 0, "drops %llu", (unsigned long long)(st0.drops + st.drops));
		CHECK(st.q_us <= 3 * TB_TARGET, "queue %.0f us after 1 s", st.q_us);
		/* each flow's share is below maxwnd / 8 per QA window, so
		 * every queue excursion above 4 x target fires QA again */
		CHECK(st.util >= 0.9, "util %.3f", st.util);
		CHECK(st.jain >= 0.9, "Jain %.4f", st.jain);
		tap_end();
		sim_free(&s);
	}

	/*
	 * no ECN marking on the path (ECN negotiated): UE's law (the
	 * default) has no decrease there (8 flows at maxwnd stand 11 BDP of
	 * queue: reported, and that no MD came); the backstop (mode 1)
	 * holds it
	 */
	for (int m = 0; m < 2; m++) {
		struct stats ue;

		tb_init(&s);
		s.link.ecn_k_bytes = 0;
		for (int i = 0; i < 8; i++)
			flow_start(&s, i, m);
		sim_run(&s, 2000000, NULL);
		sim_run(&s, 3000000, &ue);
		show(m ? "MNSCC no marking, defaults (UE)" : "NSCC no marking, defaults (UE)", &ue);
		sim_free(&s);
		tb_init(&s);
		s.link.ecn_k_bytes = 0;
		s.p.ecn_backstop_mode = NSCC_BACKSTOP_UNTIL_CE;
		for (int i = 0; i < 8; i++)
			flow_start(&s, i, m);
		sim_run(&s, 2000000, NULL);
		sim_run(&s, 5000000, &st);
		show(m ? "MNSCC no marking, backstop" : "NSCC no marking, backstop", &st);
		tap_begin("%s 8 flows, path never marks: the defaults (UE) never cut (%u MDs, queue %.0f us); the backstop (mode 1) holds the queue <= 3 target",
			  m ? "MNSCC" : "NSCC", ue.md, ue.q_us);
		CHECK(ue.md == 0 && ue.q_us > 5 * TB_RTT, "UE: MDs %u, queue %.0f us", ue.md, ue.q_us);
		CHECK(st.util >= 0.95, "util %.3f", st.util);
		CHECK(st.q_us <= 3 * TB_TARGET, "queue %.0f us", st.q_us);
		CHECK(st.md > 0, "MDs %u", st.md);
		CHECK(st.jain >= 0.9, "Jain %.4f", st.jain);
		tap_end();
		sim_free(&s);
	}
	/* ECN not negotiated: marks from delay at the target */
	for (int m = 0; m < 2; m++) {
		tb_init(&s);
		s.ecn = false;
		for (int i = 0; i < 8; i++)
			flow_start(&s, i, m);
		sim_run(&s, 2000000, NULL);
		sim_run(&s, 5000000, &st);
		show(m ? "MNSCC no ECN" : "NSCC no ECN", &st);
		tap_begin("%s 8 flows, ECN not negotiated: delay alone holds the queue <= 2 target",
			  m ? "MNSCC" : "NSCC");
		CHECK(st.util >= 0.95, "util %.3f", st.util);
		CHECK(st.q_us <= 2 * TB_TARGET, "queue %.0f us", st.q_us);
		CHECK(st.jain >= 0.9, "Jain %.4f", st.jain);
		tap_end();
		sim_free(&s);
	}

	test_spray();
}

/*
 * Spraying over 4 paths, one congested: a quarter of the packets (at
 * random, per packet) take a path with extra one-way delay.  Three
 * regimes, NSCC against MNSCC on each, one flow at the testbed scale:
 *  - delay marks (ecn_backstop_mode 2: a delay >= 150% of the target is a
 *    mark on every ACK, the module's default before the backstop became
 *    an option): the slow path's delays are marks, and MNSCC's median
 *    filters them (the delay-derived mark is taken on the decision delay)
 *    where NSCC cuts on each: MNSCC >= NSCC asserted, the ratio reported;
 *  - the defaults (UE: no delay marks; the bottleneck marks above K):
 *    NSCC asserted >= 0.9 of the link at +10 and +20 ms (the slow path's
 *    delay is no mark), as MNSCC;
 *  - the spraying paper's assumption: the congested path CE-marks its
 *    packets (slow_ce): a CE echo is never median-filtered, so MNSCC's
 *    median helps only with the delay; reported, MNSCC >= NSCC asserted.
 */
static void test_spray(void)
{
	static const u32 extra[] = { 10000, 20000, 30000 };
	static const char *const rname[] = { "delay marks", "defaults", "congested path marks" };
	static struct sim s;
	struct stats st;
	double u[3][3][2], ce[3][3][2];

	for (int r = 0; r < 3; r++) {
		for (int e = 0; e < 3; e++) {
			for (int m = 0; m < 2; m++) {
				tb_init(&s);
				s.link.slow_ppm = 250000;
				s.link.slow_ns = extra[e] * 1000ULL;
				s.link.slow_ce = r == 2;
				if (r == 0)
					s.p.ecn_backstop_mode = NSCC_BACKSTOP_ALWAYS;
				flow_start(&s, 0, m);
				sim_run(&s, 1000000, NULL);
				sim_run(&s, 5000000, &st);
				u[r][e][m] = st.util;
				ce[r][e][m] = (s.f[0].st.flags & NSCC_S_SAW_CE) ? 1 : 0;
				tap_diag("spray, %s, extra %u us %s: util %.3f queue %.0f us md %u CE seen %s",
					 rname[r], extra[e], m ? "MNSCC" : "NSCC", st.util, st.q_us,
					 st.md, ce[r][e][m] ? "yes" : "no");
				sim_free(&s);
			}
		}
	}
	tap_begin("spraying, 1 of 4 paths +10/20/30 ms, delay marks (backstop mode 2): MNSCC/NSCC goodput %.2f %.2f %.2f (>= 0.98)",
		  u[0][0][1] / u[0][0][0], u[0][1][1] / u[0][1][0], u[0][2][1] / u[0][2][0]);
	for (int e = 0; e < 3; e++)
		CHECK(u[0][e][1] >= u[0][e][0] * 0.98, "extra %u us: MNSCC %.3f NSCC %.3f",
		      extra[e], u[0][e][1], u[0][e][0]);
	tap_end();
	tap_begin("spraying, defaults: NSCC %.3f %.3f %.3f, MNSCC %.3f %.3f %.3f of the link; NSCC >= 0.9 at +10/+20 ms",
		  u[1][0][0], u[1][1][0], u[1][2][0], u[1][0][1], u[1][1][1], u[1][2][1]);
	for (int e = 0; e < 2; e++)
		CHECK(u[1][e][0] >= 0.9, "extra %u us: NSCC %.3f", extra[e], u[1][e][0]);
	tap_end();
	tap_begin("spraying, congested path marks: NSCC %.3f %.3f %.3f, MNSCC %.3f %.3f %.3f (MNSCC >= 0.98 NSCC)",
		  u[2][0][0], u[2][1][0], u[2][2][0], u[2][0][1], u[2][1][1], u[2][2][1]);
	for (int e = 0; e < 3; e++)
		CHECK(u[2][e][1] >= u[2][e][0] * 0.98, "extra %u us: MNSCC %.3f NSCC %.3f",
		      extra[e], u[2][e][1], u[2][e][0]);
	tap_end();
	test_spray_q();
}

/*
 * [M]'s single-flow model: a packet crosses the congested path with
 * probability q (0.01..0.2, its runs' range), which adds T_l - T_s and
 * CE-marks it.  Its Thm 4 (SMaRTT, NSCC's basis): throughput
 * Theta(1/sqrt(q)) below the link rate; Thm 6: a median over >= 3 ACKs
 * avoids the collapse for q < 1/3 -- for a signal it filters; MNSCC
 * filters the delay, not CE (a CE echo is a mark on its own: [M] III-B
 * applies the median to NSCC's delay signals).  NSCC's MD needs the delay
 * EWMA above the target, and the EWMA trusts the marked samples, so it
 * reads about q (T_l - T_s): no cut at all while that is under the target
 * (with +20 ms and the 5 ms target: none up to q = 0.2, 0.99 of the link).
 * [M]'s congested queues are many times its ~1 us target, so the
 * congested path here adds 100 ms (20 targets; T_l = 11 T_s).  Reported:
 * the utilisation at each q, and u * sqrt(q) where u < 0.8 (Thm 4 says
 * it stays within a constant).  Asserted: the collapse is there (NSCC
 * under 0.5 of the link at q = 0.2, falling with q) and MNSCC >= NSCC at
 * every q (within 2%).
 */
static void test_spray_q(void)
{
	static const u32 qppm[] = { 10000, 20000, 50000, 100000, 200000 };
	enum { NQ = sizeof(qppm) / sizeof(qppm[0]) };
	static struct sim s;
	struct stats st;
	double u[NQ][2];
	char line[2][256];
	bool ok_mono = true, ok_m = true;

	for (int i = 0; i < NQ; i++) {
		for (int m = 0; m < 2; m++) {
			tb_init(&s);
			s.link.slow_ppm = qppm[i];
			s.link.slow_ns = 100000000ULL;
			s.link.slow_ce = true;
			flow_start(&s, 0, m);
			sim_run(&s, 1000000, NULL);
			sim_run(&s, 5000000, &st);
			u[i][m] = st.util;
			sim_free(&s);
		}
		if (i && u[i][0] > u[i - 1][0] + 0.02)
			ok_mono = false;
		if (u[i][1] < u[i][0] * 0.98)
			ok_m = false;
	}
	for (int m = 0; m < 2; m++) {
		int n = 0;

		for (int i = 0; i < NQ; i++)
			n += snprintf(line[m] + n, sizeof(line[m]) - n, " q %.2f: %.3f%s", qppm[i] / 1e6,
				      u[i][m], u[i][m] < 0.8 ? "" : " (link)");
		tap_diag("spray, q sweep, congested path +100 ms and CE, %s:%s", m ? "MNSCC" : "NSCC",
			 line[m]);
		n = 0;
		for (int i = 0; i < NQ; i++)
			if (u[i][m] < 0.8)
				n += snprintf(line[m] + n, sizeof(line[m]) - n, " %.3f",
					      u[i][m] * sqrt(qppm[i] / 1e6));
		tap_diag("spray, q sweep, %s: u * sqrt(q) where u < 0.8:%s", m ? "MNSCC" : "NSCC",
			 n ? line[m] : " none");
	}
	tap_begin("spraying, q = 0.01..0.2 on a CE-marking congested path (+100 ms): NSCC %.3f..%.3f, MNSCC %.3f..%.3f of the link; NSCC falls with q to < 0.5 at q = 0.2, MNSCC >= 0.98 NSCC at every q",
		  u[0][0], u[NQ - 1][0], u[0][1], u[NQ - 1][1]);
	CHECK(ok_mono && u[NQ - 1][0] < 0.5, "NSCC %.3f at q = 0.2, monotone %d", u[NQ - 1][0], ok_mono);
	CHECK(ok_m, "MNSCC below NSCC at some q");
	tap_end();
}

/*
 * Two base-RTT classes: 4 flows of 10 ms and 4 of @b2_us, all started at
 * once at maxwnd (1500-packet buffer), with network_rtt_us @nrtt_us and
 * target_us @target_us (0, 0: the defaults, gains and target from each
 * flow's own base RTT).  Returns Jain over 5 s after 3 s; *minfair the
 * smallest flow over its fair share, *lshare the long class's share.
 */
static double rtt_classes(int m, u32 b2_us, u32 nrtt_us, u32 target_us,
			  double *minfair, double *lshare)
{
	static struct sim s;
	struct stats st;
	double tot = 0, lng = 0, mn = 1e18;

	tb_init(&s);
	s.p.network_rtt_us = nrtt_us;
	s.p.target_us = target_us;
	s.link.limit_bytes = 1500 * MSS;
	for (int i = 0; i < 8; i++) {
		s.base = (i & 1) ? b2_us : TB_RTT;
		flow_start(&s, i, m);
	}
	sim_run(&s, 3000000, NULL);
	sim_run(&s, 5000000, &st);
	for (int i = 0; i < 8; i++) {
		double r = model_flow_rate(&s.m, i);

		tot += r;
		lng += (i & 1) ? r : 0;
		mn = fmin(mn, r);
	}
	*minfair = mn / (tot / 8);
	*lshare = lng / tot;
	sim_free(&s);
	return st.jain;
}

/*
 * Mixed base RTTs: with one network RTT and target for all flows (UE's
 * configuration, docs/nscc.md's recipe) and the per-RTT increases scaled by
 * base / network RTT (nscc_rtt_fair()); and with the defaults.
 */
static void test_rtt_classes(void)
{
	for (u32 b2 = 20000; b2 <= 40000; b2 += 20000)
		for (int m = 0; m < 2; m++) {
			double mf, ls, j = rtt_classes(m, b2, TB_RTT, TB_TARGET, &mf, &ls);

			tap_begin("%s, 4 + 4 flows of base RTT 10 and %u ms (network_rtt_us %u, target_us %u): Jain %.3f, smallest %.2f of fair, long class %.2f of the link",
				  m ? "MNSCC" : "NSCC", b2 / 1000, TB_RTT, TB_TARGET, j, mf, ls);
			CHECK(j >= 0.9 && mf >= 0.5, "no flow below half its fair share");
			if (m == 0 && b2 == 20000)
				tap_end();
			else
				tap_end_todo("the long class still gets less (docs/nscc.md)");
		}
	for (int m = 0; m < 2; m++) {
		double mf, ls, j = rtt_classes(m, 20000, 0, 0, &mf, &ls);

		tap_begin("%s, 4 + 4 flows of base RTT 10 and 20 ms, the defaults (target = each flow's base RTT): Jain %.3f, smallest %.2f of fair, long class %.2f of the link",
			  m ? "MNSCC" : "NSCC", j, mf, ls);
		CHECK(j >= 0.9 && mf >= 0.5, "no flow below half its fair share");
		tap_end_todo("per-flow targets: the long class aims at twice the queue (docs/nscc.md: set target_us fabric-wide)");
	}
}

/*
 * Datacenter scale with the module's defaults (target 1.0 network RTT,
 * maxwnd 1.5 BDP, start at maxwnd; the NIC's rate is the link's, as the
 * glue reads it from the egress device): 32 flows start at once into a
 * switch that CE-marks above a third of a BDP, at 100 Gbit/s and 12 us
 * and at 25 Gbit/s and 8 us.  Quick adapt cuts every window to what it
 * delivered; the pacer must not then hold the flows below the link
 * while srtt still carries the incast's queue: with the pacing RTT
 * uncapped the link carried under half its rate in 40-43 of the first
 * 200 base RTTs here, up to 30 in a row (nscc_pacing_srtt()).  What is left
 * is the law's own: 32 flows cut together on the marks (MD) and the link
 * dips for an RTT or two as the queue empties (7 such RTTs at 100
 * Gbit/s).  Goals: at most 10 of the first 200 RTTs under half the link,
 * none 3 in a row, and over RTTs 200-700 utilisation >= 0.95 and Jain
 * >= 0.9.
 */
static void test_datacenter(void)
{
	static const struct { u32 mbps, base_us; } dc[] = {
		{ 100000, 12 }, { 25000, 8 },
	};
	static struct sim s;

	for (size_t j = 0; j < sizeof(dc) / sizeof(dc[0]); j++)
		for (int m = 0; m < 2; m++) {
			double bdp = (double)dc[j].mbps * 125000.0 * dc[j].base_us / 1e6;
			struct stats st;
			int idle = 0, run = 0, longest = 0;

			sim_init(&s, dc[j].mbps, dc[j].base_us);
			s.link.ecn_k_bytes = (u64)(bdp / 3);
			s.link.limit_bytes = 0;
			for (int i = 0; i < 32; i++)
				flow_start(&s, i, m);
			for (int w = 0; w < 200; w++) {
				sim_run(&s, dc[j].base_us, &st);
				run = w >= 1 && st.util < 0.5 ? run + 1 : 0;
				idle += run > 0;
				longest = max(longest, run);
			}
			sim_run(&s, 500ULL * dc[j].base_us, &st);
			tap_diag("%s 32 flows at %u Gbit/s, %u us: %d RTTs under half the link in the first 200 (longest run %d); then util %.3f Jain %.4f queue %.1f us (%.2f BDP)",
				 m ? "MNSCC" : "NSCC", dc[j].mbps / 1000, dc[j].base_us, idle,
				 longest, st.util, st.jain, st.q_us, st.q_us / dc[j].base_us);
			tap_begin("%s defaults, 32-flow incast at %u Gbit/s, %u us, CE above BDP/3: <= 10 of the first 200 RTTs under half the link, none 3 in a row, then util >= 0.95, Jain >= 0.9",
				  m ? "MNSCC" : "NSCC", dc[j].mbps / 1000, dc[j].base_us);
			CHECK(idle <= 10 && longest <= 2, "%d RTTs under half the link, %d in a row",
			      idle, longest);
			CHECK(st.util >= 0.95, "util %.3f", st.util);
			CHECK(st.jain >= 0.9, "Jain %.4f", st.jain);
			tap_end();
			sim_free(&s);
		}
}

int main(void)
{
	tap_header();
	test_constants();
	test_md_table();
	test_quadrants();
	test_sampling_noise();
	test_clock();
	test_range();
	test_model();
	test_rtt_classes();
	test_datacenter();
	return tap_done();
}
