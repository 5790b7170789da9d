// SPDX-License-Identifier: GPL-2.0
/*
 * CCC control law: unit checks of the plain-C math (delta, regions, Irr/f,
 * stretch-ACK invariance, range extremes) and scenarios on the shared
 * packet-level bottleneck model (model.h) driven through the real code
 * tcp_ccc.ko runs: ccc_on_ack() fed dcc_samples in nanoseconds, its
 * decision's rate and cwnd applied by the model as dcc_lib applies them,
 * and each flow's ccc_cfg re-resolved (ccc_cfg_resolve) only when the
 * decision asks (CCC_D_NEW_ROUND), as the glue does.
 *
 * The adapter below (struct ccc_flow) is tcp_ccc.c's glue: ccc_init(),
 * ccc_cong_control() (the BBR-style delivered-based round, computed from
 * the sample's infl_pkts as the kernel computes it from rs->prior_delivered,
 * and ccc_resolve() on CCC_D_NEW_ROUND) and, in struct ccc_host, stand-ins
 * for the kernel's shared per-destination min-RTT table.  Model: N
 * senders paced at r, window-limited at ccc_cwnd_bytes(r), MSS-sized
 * packets, one FIFO served at C, one ACK per packet, on a ns event clock;
 * optional receive-time noise (uniform +-n us, model.h) and a constant
 * host bias (the VM's loaded RTT sits ~1 ms above its idle minimum) model
 * software timestamps.
 *
 * Scale: the VM testbed's (C = 100 Mbit/s, base RTT 10 ms, BDP 83
 * packets), q_B = 5 ms, R_l = C; everything CCC does is stated in RTTs,
 * so the claims carry over ("scale invariance").
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "dcc/ccc.h"
#include "model.h"

#define MSS 1500u
#define MAXF 64
#define US 1000ULL	/* ns */

/*
 * How a flow knows RTT_min: configured (the paper: "known", 4.3.1; the
 * module's base_rtt_us), its own minimum RTT, SYN included (Linux's
 * tcp_min_rtt(): a flow that starts while a queue stands never sees the
 * empty path), or that minimum shared by the flows to one destination
 * (tcp_ccc.ko's default with base_rtt_us = 0).
 */
enum { BASE_KNOWN, BASE_OWN, BASE_SHARED };

static u64 trace;	/* CCC_TRACE=us: print the state every that many us */

/* splitmix64, for the model-free tests' random ACKs */
struct rng {
	u64 rng;
};

static u64 rnd(struct rng *s)
{
	u64 z = (s->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * The module's defaults (gamma 0.2, ut 5 %, |q_v| < 0.05, batches of >= 8
 * ACKs over >= RTT_min / 4, n_ai <= 10), q_B as given, fair_ai 1/32 of
 * R_l (the module's 31 per mille, rounded to a power of two).
 */
static void params_init(struct ccc_params *p, u32 qb_us, u32 gain_pct)
{
	struct ccc_knobs k = ccc_knobs_default();

	k.q_b_us = qb_us;
	k.cwnd_gain_pct = gain_pct;
	/* CCC_CWND_QB=0: the paper's window r RTT_min (cwnd_qb) */
	if (getenv("CCC_CWND_QB"))
		k.cwnd_qb = (u32)atoi(getenv("CCC_CWND_QB"));
	ccc_params_init(p, &k);
	/* CCC_FAIR_AI=0: the law without the additive fairness step */
	p->fair_ai = getenv("CCC_FAIR_AI") ? (u32)atoi(getenv("CCC_FAIR_AI")) :
					    CCC_FAIR_AI_DEFAULT;
}

static void cfg_init(struct ccc_cfg *c, struct ccc_params *p, u64 line_bytes_ps,
		     u32 rttmin_us, u32 qb_us)
{
	params_init(p, qb_us, 100);
	ccc_cfg_resolve(c, p, line_bytes_ps, rttmin_us * 1000, MSS, U64_MAX);
}

/*
 * What tcp_ccc's glue asks of the kernel for the model's one destination:
 * the module parameters (the snapshot: params, R_l given, base_rtt_us or
 * auto, share_base_rtt) and dcc_lib's shared per-destination min-RTT
 * table (dcc_shared_min_rtt_us(): lowered by each flow's own min RTT when
 * that flow resolves; its expiry is longer than any run here).
 */
struct ccc_host {
	struct ccc_params p;	/* the parameter snapshot all flows share */
	u64 line;		/* R_l (line_rate_mbps), bytes/s */
	u32 base_us;		/* base_rtt_us; 0 = auto (own or shared) */
	bool share_base;	/* share_base_rtt */
	u32 min_rtt_us;		/* the shared table's entry, 0 = empty */
	u32 bias_us;		/* host bias added to every RTT sample */
	u32 noise_us;		/* RTT noise, uniform +-noise_us (see sim_init) */
	struct rng rng;
};

/* dcc_auto_base_rtt_us(): the flow's own min RTT, or the shared minimum */
static u32 host_auto_base_us(struct ccc_host *h, u32 own)
{
	if (!own || !h->share_base)
		return own;
	if (!h->min_rtt_us || own < h->min_rtt_us)
		h->min_rtt_us = own;
	return h->min_rtt_us;
}

/*
 * One CCC socket behind the model, as tcp_ccc.c runs it, plus the
 * per-ACK statistics the tests read (from struct ccc_ack_info).
 */
struct ccc_flow {
	struct ccc_state st;
	struct ccc_cfg cfg;	/* this flow's resolved config (the glue's) */
	struct ccc_host *h;
	u32 min_rtt;		/* tcp_min_rtt() stand-in, us (SYN included) */
	u64 delivered;		/* tp->delivered */
	u64 round_end;		/* the glue's ca->round_end */
	u64 regions[CCC_NREGIONS];
	u64 region_changes;
	double stepsum[CCC_NREGIONS];
	u64 fon[CCC_NREGIONS];
};

/* ccc_resolve(): RTT_min by the host's mode, R_l given */
static void ccc_flow_resolve(struct ccc_flow *f, u32 rtt_ns)
{
	u32 old = f->cfg.rttmin_ns, base = f->h->base_us * 1000;

	if (!base) {
		u32 b = host_auto_base_us(f->h, f->min_rtt);

		base = b ? (u32)min_t(u64, dcc_us_to_ns(b), CCC_RTT_MAX_NS) : old;
	}
	if (!base)
		base = rtt_ns;
	ccc_cfg_refresh(&f->cfg, f->h->line, base, MSS, U64_MAX);
	ccc_cfg_changed(&f->st, old, &f->cfg);
}

/* ccc_apply(): the initial window until an RTT_min exists */
static void ccc_flow_apply(const struct ccc_flow *f, struct dcc_decision *d)
{
	if (!f->cfg.rttmin_ns)
		d->cwnd_bytes = (u64)10 * MSS;	/* TCP_INIT_CWND */
	/* debugging: the window rounded down, as the private model once did */
	if (getenv("CCC_FLOORCW"))
		d->cwnd_bytes = d->cwnd_bytes / MSS * MSS;
}

/* ccc_init(): r0 = R_l (line-rate start); @syn_rtt_us: the SYN's RTT */
static struct dcc_decision ccc_flow_init(struct ccc_flow *f, struct ccc_host *h,
					 u32 syn_rtt_us, u64 r0)
{
	struct dcc_decision d;

	memset(f, 0, sizeof(*f));
	f->h = h;
	f->min_rtt = syn_rtt_us;
	f->cfg.p = &h->p;
	ccc_flow_resolve(f, 0);
	ccc_state_init(&f->st, &f->cfg, r0);
	ccc_decide(&f->st, &f->cfg, &d);
	ccc_flow_apply(f, &d);
	return d;
}

/* ccc_cong_control(): the round, the law, the refresh once per round */
static void ccc_flow_on_ack(void *cc, const struct dcc_sample *s0,
			    struct dcc_decision *d)
{
	struct ccc_flow *f = cc;
	struct dcc_sample s = *s0;
	struct ccc_ack_info i;
	bool round_start;
	u64 prior_delivered;
	u8 prev = f->st.region;

	f->delivered += s.acked;
	if (s.why) {		/* dcc_sample_get() false: no law step */
		d->changed = false;	/* the decision in force stands */
		return;
	}
	/*
	 * a constant host delay on every sample (the VM's bias) and the RTT
	 * noise, both on the send time: rx_ns stays the ACK's arrival
	 */
	if (f->h->bias_us || f->h->noise_us) {
		s64 n = f->h->noise_us ?
			(s64)(rnd(&f->h->rng) % (2 * f->h->noise_us + 1)) -
			f->h->noise_us : 0;
		s64 rtt = (s64)s.rtt_ns + (f->h->bias_us + n) * 1000;

		s.rtt_ns = (u32)clamp_t(s64, rtt, 0, DCC_SAMPLE_RTT_MAX_NS);
		s.tx_ns = s.rx_ns - s.rtt_ns;
	}
	/* the stack's tcp_min_rtt() filter sees every RTT sample first */
	if (!f->min_rtt || dcc_sample_rtt_us(&s) < f->min_rtt)
		f->min_rtt = dcc_sample_rtt_us(&s);
	if (unlikely(!f->cfg.rttmin_ns))	/* the first RTT sample */
		ccc_flow_resolve(f, max_t(u32, s.rtt_ns, 1));
	/*
	 * BBR-style delivered-based rounds: rs->prior_delivered is
	 * tp->delivered when the sampled packet left, i.e. tp->delivered now
	 * less rs->delivered (the model's infl_pkts)
	 */
	prior_delivered = f->delivered - s.infl_pkts;
	round_start = prior_delivered >= f->round_end;
	if (round_start)
		f->round_end = f->delivered;
	ccc_on_ack(&f->st, &f->cfg, &s, round_start, d, &i);
	if (d->changed)		/* the glue applies only a changed one */
		ccc_flow_apply(f, d);
	if (d->flags & CCC_D_NEW_ROUND)	/* once per RTT: shared inputs */
		ccc_flow_resolve(f, 0);
	f->regions[i.region]++;
	f->stepsum[i.region] += (double)i.step;
	f->fon[i.region] += i.f;
	if (i.region != prev)
		f->region_changes++;
}

struct sim {
	struct model m;
	struct ccc_host h;
	struct ccc_flow f[MAXF];
	u64 mu;			/* the bottleneck's rate, bytes/s */
	u32 base_us;		/* every flow's base RTT */
	double q_max;		/* the last sim_run's maximum queue, bytes */
};

static void sim_init(struct sim *s, u64 mu, u32 base_us, u32 qb_us, u32 noise_us)
{
	u32 gain = getenv("CCC_GAIN") ? (u32)atoi(getenv("CCC_GAIN")) :
					ccc_knobs_default().cwnd_gain_pct;

	/*
	 * Where the timestamp noise goes.  The model puts it on the receive
	 * time, independent per ACK, so rx_ns of successive ACKs steps back
	 * by up to 2 noise_us (model.h); a kernel socket's rx_ns never does,
	 * and CCC takes rx_ns as its ACK clock: Itv = rx - last_rx and the
	 * LSQ batch's x axis, both u32 differences that read a step back as
	 * ~4.29 s (a full-rho step; a batch dropped as stale).  So the noise
	 * goes on the send time here, rx_ns staying the ACK's arrival (the
	 * noise of the RTT samples is the same); CCC_RXNOISE=1 puts it on
	 * the receive time instead.
	 */
	bool rx_noise = getenv("CCC_RXNOISE") && atoi(getenv("CCC_RXNOISE"));
	/* CCC_SEED=n: another noise sequence (debugging; the tests use 1) */
	u64 seed = getenv("CCC_SEED") ? strtoull(getenv("CCC_SEED"), NULL, 0) : 1;

	memset(s->f, 0, sizeof(s->f));
	s->mu = mu;
	s->base_us = base_us;
	s->q_max = 0;
	/* the module told R_l and RTT_min (base_rtt_us), as the paper assumes */
	s->h = (struct ccc_host){ .line = mu, .base_us = base_us, .share_base = true,
				  .noise_us = rx_noise ? 0 : noise_us, .rng = { seed } };
	params_init(&s->h.p, qb_us, gain);
	model_init(&s->m, &(struct model_link){
		.rate_bytes_ps = mu, .mss = MSS,
		.noise_ns = rx_noise ? (u32)dcc_us_to_ns(noise_us) : 0, .seed = seed });
}

/* RTT_min: given, or auto (own or shared tcp_min_rtt) */
static void sim_base_mode(struct sim *s, int base_mode)
{
	s->h.base_us = base_mode == BASE_KNOWN ? s->base_us : 0;
	s->h.share_base = base_mode == BASE_SHARED;
}

static void sim_free(struct sim *s)
{
	model_free(&s->m);
}

/* flow @i starts now at rate @r0 (it must be the model's next flow) */
static void flow_start(struct sim *s, int i, u64 r0)
{
	/* the SYN's RTT: it waits in the bottleneck queue as data does */
	u32 syn = s->base_us + (u32)(s->m.q_bytes * 1000000ULL / s->mu) + s->h.bias_us;
	struct dcc_decision d0 = ccc_flow_init(&s->f[i], &s->h, syn, r0);

	if (getenv("CCC_INITCW"))	/* debugging: TCP_INIT_CWND until an ACK */
		d0.cwnd_bytes = (u64)atoi(getenv("CCC_INITCW")) * MSS;
	if (model_add_flow(&s->m, s->base_us * 1000,
			   (struct model_cc){ ccc_flow_on_ack, &s->f[i] }, d0) != i)
		abort();
}

static void sim_trace(const struct sim *s)
{
	double rs = 0;

	for (int i = 0; i < s->m.nflows; i++)
		rs += s->m.f[i].on ? (double)s->f[i].st.rate : 0;
	printf("# t %6.1f ms q %6.0f us | f0 r %5.1f Mb qv %+.3f reg %u nai %u S %.2f | f1 r %5.1f reg %u S %.2f | sum r %.3f C\n",
	       s->m.now_ns / 1e6, s->m.q_bytes * 1e6 / s->mu, s->f[0].st.rate * 8e-6,
	       s->f[0].st.qv / 65536.0, s->f[0].st.region, s->f[0].st.n_ai,
	       s->f[0].st.basis / 65536.0, s->f[1].st.rate * 8e-6, s->f[1].st.region,
	       s->f[1].st.basis / 65536.0, rs / s->mu);
}

/* Run for @us; per-flow throughput (bytes/s) and queue stats over that span. */
static void sim_run(struct sim *s, u64 us, double *tput)
{
	u64 end = s->m.now_ns + us * US;

	for (int i = 0; i < MAXF; i++) {
		memset(s->f[i].regions, 0, sizeof(s->f[i].regions));
		if (!getenv("CCC_STEPS_ACC")) {
			memset(s->f[i].stepsum, 0, sizeof(s->f[i].stepsum));
			memset(s->f[i].fon, 0, sizeof(s->f[i].fon));
		}
		s->f[i].region_changes = 0;
	}
	model_reset_stats(&s->m);
	if (trace) {
		while (s->m.now_ns + trace * US < end) {
			model_run(&s->m, s->m.now_ns + trace * US);
			sim_trace(s);
		}
	}
	model_run(&s->m, end);
	s->q_max = (double)s->m.st.q_max_bytes;
	for (int i = 0; tput && i < MAXF; i++)
		tput[i] = i < s->m.nflows ? model_flow_rate(&s->m, i) : 0;
}

static double jain(const double *x, int n)
{
	double a = 0, b = 0;

	for (int i = 0; i < n; i++) {
		a += x[i];
		b += x[i] * x[i];
	}
	return b > 0 ? a * a / (n * b) : 0;
}

/* mean queueing delay of the last sim_run, us */
static double mean_qdelay_us(const struct sim *s)
{
	return model_mean_q_bytes(&s->m) * 1e6 / (double)s->mu;
}

static double sum(const double *x, int n)
{
	double a = 0;

	for (int i = 0; i < n; i++)
		a += x[i];
	return a;
}

/* ---- math ------------------------------------------------------------ */

static void test_delta_regions(void)
{
	struct ccc_params p;
	struct ccc_cfg c;
	const u32 qbs[] = { 1, 5, 20, 50, 2500, 5000, 100000 };

	tap_begin("delta: 0 at the target, sign follows the curve 0.5 log2(qB/q) = q_v");
	for (unsigned i = 0; i < sizeof(qbs) / sizeof(qbs[0]); i++) {
		u32 qb = qbs[i] * 1000;	/* ns */

		cfg_init(&c, &p, 12500000, 10000, qbs[i]);
		CHECK(ccc_delta(&c, qb, 0) == 0, "qB=%u delta=%d", qb, ccc_delta(&c, qb, 0));
		CHECK(ccc_delta(&c, qb * 2, 0) < 0, "qB=%u", qb);
		if (qb >= 2)
			CHECK(ccc_delta(&c, qb / 2, 0) > 0, "qB=%u", qb);
		/* q = 4 qB: curve at q_v = -1 */
		CHECK(ccc_delta(&c, qb * 4, -CCC_ONE) == 0, "qB=%u d=%d", qb,
		      ccc_delta(&c, qb * 4, -CCC_ONE));
		/* q = 0 is floored, never undefined: bounded by 3 + |q_v| */
		CHECK(ccc_delta(&c, 0, 0) > 0 && ccc_delta(&c, 0, 0) <= 3 * CCC_ONE + CCC_ONE / 100,
		      "qB=%u d(0)=%d", qb, ccc_delta(&c, 0, 0));
	}
	/* piecewise-linear log2 error <= 0.0861: delta within 0.05 of exact */
	cfg_init(&c, &p, 12500000, 10000, 5000);
	for (u32 q = 100; q < 20000; q += 37) {
		double exact = 0.5 * log2(5000.0 / q);
		double got = ccc_delta(&c, q * 1000, 0) / 65536.0;

		CHECK(fabs(got - exact) <= 0.0862, "q=%u got %.4f exact %.4f", q, got, exact);
	}
	tap_end();

	tap_begin("regions: the six regions of Fig. 4 (boundaries reconstructed)");
	cfg_init(&c, &p, 12500000, 10000, 5000);
#define R(q, qv) ccc_region(&c, (q) * 1000, qv, ccc_delta(&c, (q) * 1000, qv))
	CHECK(R(6000, -CCC_ONE / 2) == CCC_AI, "A^i");
	CHECK(R(6000, -CCC_ONE / 100) == CCC_AD, "A^d");
	CHECK(R(3000, -CCC_ONE / 10) == CCC_H1I, "H1^i");
	CHECK(R(3000, CCC_ONE / 10) == CCC_H2I, "H2^i");
	CHECK(R(0, 0) == CCC_H2I, "idle link (0,0) is H2^i (see ccc_region)");
	CHECK(R(4000, CCC_ONE / 2) == CCC_H1D, "H1^d");
	CHECK(R(6000, CCC_ONE / 10) == CCC_H2D, "H2^d");
	CHECK(R(30000, -CCC_ONE / 2) == CCC_H2D, "q > 4qB: H2^d");
	CHECK(R(5000, 0) == CCC_H2D, "the target itself: delta = 0 -> decrease side");
#undef R
	tap_end();
}

/* a valid sample of @pkts MSS at @rx_us with RTT @rtt_us */
static struct dcc_sample sample_us(u64 rx_us, u32 rtt_us, u32 pkts)
{
	return (struct dcc_sample){
		.rx_ns = rx_us * 1000, .tx_ns = (rx_us - rtt_us) * 1000,
		.rtt_ns = rtt_us * 1000, .acked = pkts, .acked_bytes = pkts * MSS,
		.mss = MSS,
	};
}

/* one ACK of k MSS after Itv = k*gap vs k ACKs of 1 MSS, Itv = gap */
static void test_stretch_ack(void)
{
	struct ccc_params p;
	struct ccc_cfg c;
	struct dcc_decision d;
	struct { u32 q_base; s32 qv; const char *name; } cases[] = {
		{ 7000, -CCC_ONE / 2, "A^i analytical" },
		{ 1000, CCC_ONE / 4, "H2^i probing up" },
		{ 9000, CCC_ONE / 4, "H2^d probing down" },
	};

	tap_begin("stretch ACKs/GRO: a k-MSS ACK moves r as k 1-MSS ACKs do (k = 2..16)");
	cfg_init(&c, &p, 12500000, 10000, 5000);
	for (unsigned i = 0; i < 3; i++) {
		for (u32 k = 2; k <= 16; k *= 2) {
			struct ccc_state a, b;
			u32 rtt = 10000 + cases[i].q_base;
			u64 ra, rb, r0 = 6000000, t0 = 1000000;
			struct dcc_sample ack;

			ccc_state_init(&a, &c, r0);
			a.qv = cases[i].qv;
			a.flags |= CCC_S_QV_VALID | CCC_S_HAVE_PREV;
			a.basis = CCC_ONE / 2;
			b = a;
			/* the previous ACK: 120 us before each of a's ... */
			a.last_rx = (u32)((t0 - 120) * 1000);
			for (u32 j = 0; j < k; j++) {
				ack = sample_us(t0 + j * 120, rtt, 1);
				ccc_on_ack(&a, &c, &ack, false, &d, NULL);
			}
			/* ... and k * 120 us before b's one */
			b.last_rx = (u32)((t0 + (k - 1) * 120 - 120 * k) * 1000);
			ack = sample_us(t0 + (k - 1) * 120, rtt, k);
			ccc_on_ack(&b, &c, &ack, false, &d, NULL);
			ra = a.rate > r0 ? a.rate - r0 : r0 - a.rate;
			rb = b.rate > r0 ? b.rate - r0 : r0 - b.rate;
			CHECK(ra > 0 && llabs((long long)ra - (long long)rb) <= ra / 20 + 2,
			      "%s k=%u: %llu vs %llu", cases[i].name, k,
			      (unsigned long long)ra, (unsigned long long)rb);
		}
	}
	tap_end();
}

/*
 * The A^i step (eq. 8) for ACKs of 1..70 packets and any Itv, against
 * the same formula with divisions: the law divides Itv by the packet
 * count through a table of reciprocals (up to 63) and dp M 1e9 by
 * RTT_min 2^16 through RTT_min's 23-bit reciprocal.
 */
static void test_analytical_exact(void)
{
	struct ccc_params p;
	struct ccc_cfg c;
	struct rng rs = { .rng = 7 };
	const u32 rtts_us[] = { 10000, 37, 999983 };

	tap_begin("A^i step: exact for 1..70 packets per ACK, any Itv, RTT_min 37 us..1 s");
	for (unsigned j = 0; j < 3; j++) {
		u32 rtt = rtts_us[j], qb = rtt / 2 ? rtt / 2 : 1;

		cfg_init(&c, &p, 3125000000ULL, rtt, qb);
		p.fair_ai = 0;	/* eq. 8 alone: the fair step has its own test */
		for (u32 a = 1; a <= 70; a++) {
			for (int k = 0; k < 300; k++) {
				struct ccc_state st;
				struct ccc_ack_info i;
				struct dcc_decision d;
				u64 rx = 1000000000000ULL + rnd(&rs) % 1000000;
				/* Itv per packet mostly below RTT_min (no cap) */
				u32 itv = 1 + (u32)(rnd(&rs) % min_t(u64, 3000000000ULL,
								     (u64)a * rtt * 1100));
				u32 q = qb * 1000 + (u32)(rnd(&rs) % (qb * 2000ULL + 1));
				struct dcc_sample ack = {
					.rx_ns = rx, .rtt_ns = rtt * 1000 + q,
					.tx_ns = rx - (rtt * 1000 + q), .acked = a,
					.acked_bytes = a * MSS, .mss = MSS,
				};
				u32 itv_pkt = min(itv / a, c.rttmin_ns);
				s64 qp;
				s32 qv = -(s32)(rnd(&rs) % CCC_ONE), dp, l2;
				unsigned __int128 want;

				ccc_state_init(&st, &c, 1000000);
				st.qv = qv;
				st.flags |= CCC_S_QV_VALID | CCC_S_HAVE_PREV;
				st.last_rx = (u32)(rx - itv);
				ccc_on_ack(&st, &c, &ack, false, &d, &i);
				if (i.region != CCC_AI)
					continue;	/* delta <= 0 at this q_v */
				qp = (s64)q + (((s64)itv_pkt * qv) >> CCC_Q);
				qp = qp < 0 ? 0 : qp;
				l2 = (s32)max(dcc_log2_q16((u64)qp), p.l2floor);
				dp = ((s32)p.l2qb - l2) / 2 - qv;
				want = dp <= 0 ? 0 :
				       (unsigned __int128)((u64)dp * ack.acked_bytes) *
				       DCC_NSEC_PER_SEC / ((u64)c.rttmin_ns << CCC_Q);
				if (want > ccc_rmax(&c))
					want = ccc_rmax(&c);
				CHECK(i.step == (s64)want, "RTT_min %u us, %u pkts, Itv %u: step %lld want %lld",
				      rtt, a, itv, (long long)i.step, (long long)want);
			}
		}
	}
	tap_end();
}

/*
 * The fairness step's square root (ccc_sqrt_q16, a chord per octave):
 * within 2% below sqrt for every share, exact at the octaves' ends,
 * non-decreasing.
 */
static void test_sqrt_share(void)
{
	u32 prev = 0;

	tap_begin("fairness step's sqrt of a share: every x in 1..2^16 within 2%% below sqrt, non-decreasing");
	for (u32 x = 1; x <= CCC_ONE; x++) {
		u32 r = ccc_sqrt_q16(x);
		double want = 256.0 * sqrt((double)x);

		CHECK(r <= want + 1 && r >= 0.98 * want - 1, "x %u: %u, sqrt %.2f", x, r, want);
		CHECK(r >= prev, "x %u: %u after %u", x, r, prev);
		if (!(x & (x - 1)))
			CHECK(fabs(r - want) < 1.5, "x %u (a power of two): %u, sqrt %.2f", x, r, want);
		prev = r;
	}
	tap_end();
}

/* the extremes of the dcc range: no overflow (UBSan), r stays in bounds */
static void test_extremes(void)
{
	const u64 rates[] = { 125000, 12500000, 3125000000ULL, DCC_RATE_MAX_BPS };
	const u32 rtts[] = { 1, 20, 10000, 1000000 };

	tap_begin("range: 1 Mbit/s..800 Gbit/s x RTT 1 us..1 s, random ns ACKs keep r in [r_min, r_max]");
	for (unsigned i = 0; i < 4; i++) {
		for (unsigned j = 0; j < 4; j++) {
			struct ccc_params p, p255;
			struct ccc_cfg c, c255;
			struct ccc_state s;
			struct dcc_decision d;
			struct rng rs = { .rng = i * 4 + j + 1 };
			u32 qb = rtts[j] / 4 ? rtts[j] / 4 : 1;
			u64 now = rnd(&rs);

			cfg_init(&c, &p, rates[i], rtts[j], qb);
			ccc_state_init(&s, &c, rates[i]);
			ccc_decide(&s, &c, &d);	/* the decision in force */
			for (int k = 0; k < 20000; k++) {
				u32 pkts = (u32)(rnd(&rs) % 64);
				struct dcc_sample a = {
					.rtt_ns = (u32)(rnd(&rs) % (DCC_SAMPLE_RTT_MAX_NS + 1ULL)),
					.acked = pkts,
					.acked_bytes = (u32)(rnd(&rs) % (1U << 26)),
					.mss = MSS,
					.app_limited = rnd(&rs) & 1,
				};
				struct dcc_decision dk;

				/* any gap: 0 .. 2^(0..40) ns */
				now += rnd(&rs) % (1ULL << (rnd(&rs) % 41));
				a.rx_ns = now;
				if (k & 1)
					a.rtt_ns = rtts[j] * 1000 +
						   (u32)(rnd(&rs) % (8ULL * qb * 1000 + 1));
				a.tx_ns = a.rx_ns - a.rtt_ns;
				ccc_on_ack(&s, &c, &a, rnd(&rs) & 1, &dk, NULL);
				if (dk.changed)
					d = dk;
				CHECK(s.rate >= c.r_min && s.rate <= ccc_rmax(&c),
				      "R_l=%llu rtt=%u r=%llu", (unsigned long long)rates[i],
				      rtts[j], (unsigned long long)s.rate);
				CHECK(d.rate_bytes_ps == s.rate &&
				      d.cwnd_bytes == ccc_cwnd_bytes(&c, s.rate), "decision");
				CHECK(s.qv >= -CCC_ONE && s.qv <= CCC_QV_MAX * CCC_ONE, "qv=%d", s.qv);
				CHECK(s.n_ai <= p.n_ai_max, "n_ai=%u", s.n_ai);
			}
			p255 = p;
			p255.cwnd_gain_pct = 255;
			c255 = c;
			c255.p = &p255;
			CHECK(ccc_cwnd_bytes(&c255, ccc_rmax(&c)) <=
			      (ccc_rmax(&c) * 3 * ((u64)rtts[j] + qb)) / 1000000 + 1, "cwnd");
		}
	}
	tap_end();
}

/* ---- the bottleneck model ---------------------------------------------- */

static const u64 C = 12500000;		/* 100 Mbit/s */
static const u32 BASE = 10000;		/* 10 ms */
static const u32 QB = 5000;		/* 5 ms */

/*
 * A lone flow.  With the paper's window (cwnd_qb 0, the default) the
 * window binds at gain R_l RTT_min before the queue reaches q_B: the link
 * is full and the queue holds only what the window holds above C
 * RTT_min, ~(gain R_l/C - 1) RTT_min (1.1 ms at the default gain 110,
 * 100 us at 100 here).  With cwnd_qb 1 the window binds only above the
 * target, and the law holds the queue at q_B.
 */
static void test_lone_flow(u32 noise, u32 bias, bool qb_window)
{
	struct sim s;
	double t[MAXF], qd;

	if (qb_window)
		tap_begin("lone flow, cwnd_qb 1 (noise +-%u us, bias %u us): >= 90%% of C, mean queue within 50%% of q_B",
			  noise, bias);
	else
		tap_begin("lone flow, paper's window (noise +-%u us, bias %u us): >= 90%% of C, window-bound: mean queue <= 10%% of q_B + (gain - 1) RTT_min",
			  noise, bias);
	sim_init(&s, C, BASE, QB, noise);
	s.h.p.cwnd_qb = qb_window;
	if (qb_window)	/* the window the module shipped until cwnd_qb 0 */
		s.h.p.cwnd_gain_pct = 100;
	s.h.bias_us = bias;
	/* R_l = C, but the NIC's line rate counts fewer header bytes than the
	 * bottleneck: model that 1% (1514 vs 1500 bytes in the VM) */
	s.h.line = C * 101 / 100;
	flow_start(&s, 0, s.h.line);
	sim_run(&s, 100 * BASE, NULL);
	sim_run(&s, 200 * BASE, t);
	qd = mean_qdelay_us(&s);
	tap_diag("util %.3f, mean queue %.0f us (q_B %u), max %.0f us; A^i %llu A^d %llu H1i %llu H2i %llu H1d %llu H2d %llu ACKs",
		 t[0] / C, qd, QB, s.q_max * 1e6 / C,
		 (unsigned long long)s.f[0].regions[CCC_AI], (unsigned long long)s.f[0].regions[CCC_AD],
		 (unsigned long long)s.f[0].regions[CCC_H1I], (unsigned long long)s.f[0].regions[CCC_H2I],
		 (unsigned long long)s.f[0].regions[CCC_H1D], (unsigned long long)s.f[0].regions[CCC_H2D]);
	CHECK(t[0] >= 0.90 * C, "util %.3f", t[0] / C);
	if (qb_window)
		CHECK(qd + bias >= 0.5 * QB && qd + bias <= 1.5 * QB,
		      "measured queue %.0f us (+bias %u) vs q_B %u", qd, bias, QB);
	else
		CHECK(qd <= 0.1 * QB + (s.h.p.cwnd_gain_pct - 100) * BASE / 100.0,
		      "queue %.0f us vs q_B %u, gain %u%%", qd, QB, s.h.p.cwnd_gain_pct);
	sim_free(&s);
	tap_end();
}

static const char *base_name[] = { "known", "own min RTT", "shared min RTT" };

/*
 * Two flows, the second joins after 100 RTT_min at r1_pct % of C (100:
 * line rate, the paper's start; less: a flow that starts below its share,
 * as a Linux newcomer does for its first RTTs).  line_pct: R_l in % of C
 * (the guest's R_l counts fewer header bytes than the bottleneck, so a
 * lone flow at R_l keeps a standing queue, which the newcomer's SYN then
 * sees).  The criteria: both within 20% of the fair share for good
 * (3 bins of 5 RTT_min) within 120 RTT_min, then Jain >= 0.95 and the
 * link full.  check = false: report only.
 *
 * With the paper's window (the default) the pair sits at q_B, where
 * the reference Irr = R_l (1 - q/q_B) is ~0 and every step of the
 * paper's law is rate-proportional; the additive fairness step, which
 * now acts near the target on either side of q_B, levels a newcomer
 * from 5% of C in 50-55 RTT_min over noise seeds 1-8 (CCC_SEED), from
 * 20% in 40-65.  With the step only below q_B (as it once was) it took
 * 75-225, and the guest's join never got there; the bound, 120 RTT_min,
 * tells the two apart.  cwnd_qb 1 (CCC_CWND_QB=1): 55-100.  From line
 * rate: 5-10 RTT_min either way.
 */
static void test_two_flows(u32 noise, int base_mode, u32 line_pct, u32 r1_pct, bool check)
{
	struct sim s;
	double t[MAXF];
	int fair_rtt = -1, stay = 0;

	tap_begin("two flows, the second joins after 100 RTT at %u%% of C (noise +-%u us, R_l %u%% of C, RTT_min %s): %s",
		  r1_pct, noise, line_pct, base_name[base_mode],
		  check ? "within 20% of fair in 120 RTT, Jain >= 0.95" :
			  "report only; the newcomer's own min RTT includes the standing queue");
	sim_init(&s, C, BASE, QB, noise);
	sim_base_mode(&s, base_mode);
	s.h.line = C * line_pct / 100;
	flow_start(&s, 0, s.h.line);
	sim_run(&s, 100 * BASE, NULL);
	flow_start(&s, 1, r1_pct >= 100 ? s.h.line : C * r1_pct / 100);
	for (int r = 1; r <= 300; r++) {
		sim_run(&s, 5 * BASE, t);	/* 5-RTT bins */
		bool in = fabs(t[0] - t[1]) <= 0.4 * (t[0] + t[1]) / 2 &&
			  fabs(t[0] - (t[0] + t[1]) / 2) <= 0.2 * (t[0] + t[1]) / 2;
		if (in) {
			if (fair_rtt < 0)
				fair_rtt = 5 * r;
			stay++;
		} else if (stay < 3) {
			fair_rtt = -1;
			stay = 0;
		}
		if (fair_rtt > 0 && stay >= 3 && r * 5 > fair_rtt + 100)
			break;
	}
	if (stay < 3)
		fair_rtt = -1;
	sim_run(&s, 200 * BASE, t);
	tap_diag("fair (20%%) after %d RTT; then util %.3f, Jain %.4f, rates %.1f/%.1f Mbit/s, queue %.0f us, RTT_min used %u/%u us",
		 fair_rtt, sum(t, 2) / C, jain(t, 2), t[0] * 8e-6, t[1] * 8e-6, mean_qdelay_us(&s),
		 s.f[0].cfg.rttmin_ns / 1000, s.f[1].cfg.rttmin_ns / 1000);
	if (!check) {
		/* the report-only case: what the RTT_min sharing is for */
		CHECK(s.f[1].min_rtt > s.f[0].min_rtt + QB / 4,
		      "the newcomer's own RTT_min %u us includes the standing queue (incumbent's %u us)",
		      s.f[1].min_rtt, s.f[0].min_rtt);
	} else {
		CHECK(fair_rtt > 0 && fair_rtt <= 120, "fair after %d RTT (<= 120)", fair_rtt);
		CHECK(jain(t, 2) >= 0.95, "Jain %.4f", jain(t, 2));
		CHECK(sum(t, 2) >= 0.9 * C, "util %.3f", sum(t, 2) / C);
	}
	sim_free(&s);
	if (check) {
		tap_end();
		return;
	}
	/*
	 * Known: on the shared model the join's overshoot drains the queue
	 * to a few hundred us (window rounded up as dcc_lib applies it), so
	 * the newcomer's own min RTT sees nearly the empty path: 9909 vs
	 * 9839 us, Jain 0.9999.  The private model this test had rounded
	 * the window down; with that (CCC_FLOORCW=1) the newcomer reads
	 * 11256 us and takes the link (2.2/97.8 Mbit/s), as before.  Over
	 * noise seeds (CCC_SEED=1..12) the newcomer's own RTT_min is 0..0.9
	 * ms above the incumbent's (Jain 0.84..1.0), never the q_B/4 this
	 * asserts; rounded down, 2 of 12 pass.
	 */
	tap_end_todo("own RTT_min: the join drains the queue on the shared model, see above");
}

/*
 * N-to-1 incast, every flow from line rate.  The queue after the drain:
 * within 50% of q_B for 8 flows; for more, at most 2 q_B: the additive
 * fairness step is per flow, so N flows add N of them while the state
 * is near the target, and the gradient's lag lets the sum overshoot
 * (seeds 1-3: 16 flows 1.3-1.4 q_B, 32 1.4-1.5 q_B, the step scaled by
 * 2 sqrt(r/R_l) below R_l/4; unscaled 1.5 and 1.6-1.7; fair_ai 0:
 * 0.93-1.0 q_B, but Jain 0.90-0.92 at 32 flows, 0.92-0.93 here).  64
 * flows sit at 2.6 q_B with or without the step: their floors (r_min =
 * 2 MSS per RTT_min each, times the window's gain) alone exceed the
 * 83-packet BDP.  n <= MAXF.
 */
static void test_incast(int n, u32 noise, int base_mode, u32 line_pct)
{
	struct sim s;
	double t[MAXF], peak = 0, qd;
	u64 ai = 0, ad = 0, all = 0;
	int tl1 = 0;
	double qmax = n <= 8 ? 1.5 : 2.0;

	tap_begin("%d-to-1 incast at line rate (noise +-%u us, R_l %u%% of C, RTT_min %s): drains, >= 90%% of C, Jain >= 0.9, queue within [0.5, %.1f] q_B",
		  n, noise, line_pct, base_name[base_mode], qmax);
	sim_init(&s, C, BASE, QB, noise);
	sim_base_mode(&s, base_mode);
	s.h.line = C * line_pct / 100;
	for (int i = 0; i < n; i++)
		flow_start(&s, i, s.h.line);
	/* T_L1 (Table 1, S2): the queue below RTT_min (delay < 2 RTT_min) for good */
	for (int ms = 1; ms <= 100 * (int)BASE / 1000; ms++) {
		sim_run(&s, 1000, NULL);
		if (s.q_max * 1e6 / C >= BASE)
			tl1 = ms;
		peak = fmax(peak, s.q_max * 1e6 / C);
	}
	sim_run(&s, 30 * BASE, NULL);
	sim_run(&s, 200 * BASE, t);
	qd = mean_qdelay_us(&s);
	for (int i = 0; i < n; i++) {
		ai += s.f[i].regions[CCC_AI];
		ad += s.f[i].regions[CCC_AD];
		for (int r = 0; r < CCC_NREGIONS; r++)
			all += s.f[i].regions[r];
	}
	tap_diag("T_L1 %d ms = %.1f RTT_min (paper S2: 70 RTT_min)", tl1, tl1 * 1000.0 / BASE);
	tap_diag("peak queue %.1f ms in the first 100 RTT; then util %.3f Jain %.4f queue %.0f us (max %.0f); A %.0f%% of ACKs",
		 peak / 1000, sum(t, n) / C, jain(t, n), qd, s.q_max * 1e6 / C,
		 100.0 * (ai + ad) / all);
	CHECK(sum(t, n) >= 0.9 * C, "util %.3f", sum(t, n) / C);
	CHECK(jain(t, n) >= 0.9, "Jain %.4f", jain(t, n));
	CHECK(qd >= 0.5 * QB && qd <= qmax * QB, "queue %.0f us", qd);
	sim_free(&s);
	tap_end();
}

/* T_B (Table 1, S1): 4 of 5 flows leave, the survivor refills the link */
static void test_refill(void)
{
	struct sim s;
	double t[MAXF];
	int tb = -1;

	tap_begin("5 flows, 4 leave: the survivor is back above 95%% of C quickly (T_B)");
	sim_init(&s, C, BASE, QB, 0);
	for (int i = 0; i < 5; i++)
		flow_start(&s, i, C);
	sim_run(&s, 200 * BASE, t);
	tap_diag("5 flows: util %.3f Jain %.4f", sum(t, 5) / C, jain(t, 5));
	for (int i = 1; i < 5; i++)
		model_stop_flow(&s.m, i);
	for (int r = 1; r <= 100; r++) {
		sim_run(&s, BASE, t);
		if (t[0] >= 0.95 * C) {
			tb = r;
			break;
		}
	}
	tap_diag("T_B = %d RTT (paper: 280 us = 14 RTT_min)", tb);
	CHECK(tb > 0 && tb <= 30, "T_B %d RTT (<= 30)", tb);
	sim_free(&s);
	tap_end();
}

/*
 * Fig. 7: two flows start together at line rate; the state (q, q_v) goes
 * through H briefly, then stays mostly in A, zig-zagging between A^i and
 * A^d around delta = 0, and ends near (q_B, 0).  Run with the paper's
 * window (qb_window false, the default) and with cwnd_qb 1.
 */
static void test_trajectory(bool qb_window)
{
	struct sim s;
	double t[MAXF];
	u64 h = 0, a = 0, zig = 0;
	double min_q = 1e300;
	u8 last = CCC_NREGIONS;

	tap_begin("Fig. 7, %s: two flows started together: A^i/A^d zig-zag, converge to (q_B, 0)%s",
		  qb_window ? "cwnd_qb 1" : "the paper's window",
		  qb_window ? "" : ", the queue never below 0.5 q_B");
	sim_init(&s, C, BASE, QB, 100);
	s.h.p.cwnd_qb = qb_window;
	if (qb_window)	/* the window the module shipped until cwnd_qb 0 */
		s.h.p.cwnd_gain_pct = 100;
	flow_start(&s, 0, C);
	flow_start(&s, 1, C);
	sim_run(&s, 50 * BASE, NULL);
	for (int k = 0; k < 200; k++) {	/* 200 RTT, sampled every 0.5 ms */
		for (int j = 0; j < 20; j++) {
			u8 r;

			sim_run(&s, BASE / 20, NULL);
			min_q = s.m.q_bytes < min_q ? s.m.q_bytes : min_q;
			r = s.f[0].st.region;
			if (ccc_region_is_a(r)) {
				a++;
				if (ccc_region_is_a(last) && r != last)
					zig++;
			} else {
				h++;
			}
			last = r;
		}
	}
	sim_run(&s, 50 * BASE, t);
	tap_diag("after 50 RTT: A %.0f%% of samples, %llu A^i<->A^d switches, queue >= %.0f us in 200 RTT; then q %.0f us, q_v %+.3f, util %.3f, Jain %.4f",
		 100.0 * a / (a + h), (unsigned long long)zig, min_q * 1e6 / C,
		 mean_qdelay_us(&s), s.f[0].st.qv / 65536.0, sum(t, 2) / C, jain(t, 2));
	CHECK(zig >= 20, "%llu A^i/A^d switches", (unsigned long long)zig);
	/*
	 * the paper's window damps the swings: the queue stays above 0.5 q_B
	 * (0.91-0.96 q_B over seeds 1-8; cwnd_qb 1: down to 0-0.53 q_B)
	 */
	if (!qb_window)
		CHECK(min_q * 1e6 / C >= 0.5 * QB, "queue down to %.0f us", min_q * 1e6 / C);
	CHECK(mean_qdelay_us(&s) >= 0.5 * QB && mean_qdelay_us(&s) <= 1.5 * QB,
	      "queue %.0f us", mean_qdelay_us(&s));
	CHECK(s.f[0].st.qv > -CCC_ONE / 5 && s.f[0].st.qv < CCC_ONE / 5,
	      "q_v %+.3f", s.f[0].st.qv / 65536.0);
	tap_end();

	/*
	 * Known deviation from Fig. 7, where the state enters A after a
	 * brief H phase and slides along delta = 0 into (q_B, 0) from above
	 * and then stays mostly in A.  With the paper's window 44-48% of
	 * samples are in A (seeds 1-8), with 62-126 A^i/A^d switches in 200
	 * RTT and the queue at 1.12-1.14 q_B; the rest is H_1^d / H_2^i near
	 * the curve, where the probing AIMD acts.  With cwnd_qb 1 the first
	 * drain undershoots, the state slides along delta = 0 from below:
	 * 14-16% in A, 22-32 switches, the queue at 0.96-0.99 q_B.
	 */
	sim_free(&s);
	if (qb_window)
		return;
	tap_begin("Fig. 7, the paper's window: the state spends most of the time in A (after 50 RTT): %.0f%%",
		  100.0 * a / (a + h));
	CHECK(a > h, "A %llu vs H %llu samples", (unsigned long long)a, (unsigned long long)h);
	tap_end_todo("Fig. 7: the state stays near the curve, mostly in H_1^d / H_2^i (docs/ccc.md)");
}

/* tcp_ccc.c's parameters exactly (ccc_knobs_default()), R_l = C, RTT_min by @base_mode */
static void sim_init_module_defaults(struct sim *s, u64 mu, u32 base_us, int base_mode)
{
	const struct ccc_knobs k = ccc_knobs_default();

	sim_init(s, mu, base_us, k.q_b_us, 0);	/* R_l = mu */
	ccc_params_init(&s->h.p, &k);	/* fair_ai 31 per mille, not 1/32 */
	sim_base_mode(s, base_mode);
}

/*
 * tcp_ccc.ko as loaded, at datacenter scale: every module parameter at
 * its default (q_b_us 50, gamma_pct 20, ut_pct 5, qv_near_pct 5,
 * span_pct 25, min_samples 8, n_ai_max 10, cwnd_gain_pct 110, cwnd_qb 0,
 * fair_ai_pml 31, start_mode 0), line_rate_mbps 0 on a hardware NIC, so
 * R_l = the NIC's link speed (dcc_lib's dev_speed; C here, and r0 = R_l),
 * base_rtt_us 0: RTT_min is tcp_min_rtt(), the minimum shared by the
 * flows of one host (share_base_rtt 1), each host's its own.  100 Gbit/s
 * with 12 us (BDP 100 packets) and 25 Gbit/s with 8 us (16.7), no noise.
 * The rest of this file runs the VM's scale with R_l and RTT_min given.
 *
 * Measured: a lone flow is at >= 90% of C after 2 RTT and then holds
 * the link with 0.01 / 0.06 BDP queued (its window, 1.1 R_l RTT_min,
 * binds first); a second flow 50 RTT later, of the same host or another
 * (whose SYN sees that near-empty queue): Jain 1.0000, 1.20 / 1.28 BDP
 * queued (both at r = R_l, window-bound: q < q_B); a 16-to-1 incast from
 * 16 hosts at once: util 1.000, Jain 0.996, the queue at q_B: 4.74 / 7.01
 * BDP (57 / 56 us), after a peak of 16.6 / 17.3 BDP.  One host's flows
 * sharing the minimum give the same figures: every SYN sees the empty
 * path.  (The estimate the glue used before dev_speed split two hosts'
 * flows 72:28 for good: R_l ran ~1.28x above C, so the lone flow kept
 * 0.42 BDP queued, which the newcomer's SYN took as empty path.)
 *
 * Not achieved (TODO): q_B = 50 us, chosen above Linux's software
 * timestamp noise, is 4.2 / 6.3 BDP at these RTTs, and an incast's
 * queue stands there.  And flows of different hosts cannot share a
 * minimum: from the third host on, a joiner's SYN sees the others'
 * queue, its tcp_min_rtt() keeps it as empty path and it pushes the
 * queue up to its own target (4 hosts 5 RTT apart: the fourth takes
 * ~0.7 of C, Jain 0.44).  16 hosts 5 RTT apart ratchet the queue to 3
 * ms by the last join at 100 Gbit/s (~10 ms after): Jain 0.44 / 0.46,
 * the queue 602 / 669 BDP (7.2 / 5.4 ms) 200-700 RTT after the last
 * join.  With base_rtt_us set (BASE_KNOWN; the advice of docs/ccc.md across
 * hosts): Jain 0.995 / 1.000, 5.1 / 7.6 BDP.
 */
/* the two datacenter fabrics of the subtests below */
static const struct { u64 mu; u32 base_us; } dc_sc[] = {
	{ 12500000000ULL, 12 },	/* 100 Gbit/s, 12 us: BDP 100 packets */
	{ 3125000000ULL, 8 },	/* 25 Gbit/s, 8 us: BDP 16.7 packets */
};

static void test_datacenter_defaults(void)
{
	/* tcp_ccc.c's module_param defaults, the law's part */
	const struct ccc_knobs mod = {
		.q_b_us = 50, .gamma_pct = 20, .ut_pct = 5, .qv_near_pct = 5,
		.span_pct = 25, .min_samples = 8, .n_ai_max = 10,
		.cwnd_gain_pct = 110, .cwnd_qb = 0, .fair_ai_pml = 31,
	};
	const struct ccc_knobs k = ccc_knobs_default();
	const u32 qb = k.q_b_us;
	const int n = 16;
	double qinc[2], qinc_us[2], jst[2], qst[2];
	struct sim s;

	for (unsigned j = 0; j < 2; j++) {
		const u64 mu = dc_sc[j].mu;
		const u32 base = dc_sc[j].base_us;
		const double bdp = (double)mu * base / 1e6, g = mu * 8e-9;
		double t[MAXF], peak, qd;
		int first90 = -1;

		/* (a) a lone flow */
		tap_begin("datacenter scale, module defaults, %.0f Gbit/s %u us: a lone flow at >= 90%% of C within 5 RTT, then >= 95%% with <= 0.25 BDP queued",
			  g, base);
		CHECK(!memcmp(&k, &mod, sizeof(k)), "ccc_knobs_default() is not tcp_ccc.c's");
		sim_init_module_defaults(&s, mu, base, BASE_SHARED);
		flow_start(&s, 0, s.h.line);
		for (int r = 1; r <= 100 && first90 < 0; r++) {
			sim_run(&s, base, t);
			if (t[0] >= 0.9 * mu)
				first90 = r;
		}
		sim_run(&s, 200 * base, NULL);
		sim_run(&s, 500 * base, t);
		qd = mean_qdelay_us(&s);
		tap_diag("lone: >= 90%% of C after %d RTT; then util %.3f, queue %.2f BDP (%.2f us), max %.2f BDP",
			 first90, t[0] / mu, qd / base, qd, s.q_max / bdp);
		CHECK(first90 > 0 && first90 <= 5, "90%% after %d RTT", first90);
		CHECK(t[0] >= 0.95 * mu, "util %.3f", t[0] / mu);
		CHECK(qd <= 0.25 * base, "queue %.2f BDP", qd / base);
		sim_free(&s);
		tap_end();

		/* (b) a second flow 50 RTT later, from R_l: one host, two hosts */
		tap_begin("datacenter scale, module defaults, %.0f Gbit/s %u us: a second flow 50 RTT later, of the same host or another: Jain >= 0.95, >= 95%% of C after 200 RTT",
			  g, base);
		for (int h = 0; h < 2; h++) {
			const char *who = h ? "two hosts" : "one host";

			sim_init_module_defaults(&s, mu, base, h ? BASE_OWN : BASE_SHARED);
			flow_start(&s, 0, s.h.line);
			sim_run(&s, 50 * base, NULL);
			flow_start(&s, 1, s.h.line);
			sim_run(&s, 200 * base, NULL);
			sim_run(&s, 500 * base, t);
			qd = mean_qdelay_us(&s);
			tap_diag("two flows, %s: util %.3f, Jain %.4f (%.1f / %.1f Gbit/s), queue %.2f BDP (%.1f us), RTT_min %u / %u ns",
				 who, sum(t, 2) / mu, jain(t, 2), t[0] * 8e-9, t[1] * 8e-9,
				 qd / base, qd, s.f[0].cfg.rttmin_ns, s.f[1].cfg.rttmin_ns);
			CHECK(jain(t, 2) >= 0.95, "%s: Jain %.4f", who, jain(t, 2));
			CHECK(sum(t, 2) >= 0.95 * mu, "%s: util %.3f", who, sum(t, 2) / mu);
			sim_free(&s);
		}
		tap_end();

		/* (c) 16-to-1 incast from 16 hosts at once, no buffer limit */
		tap_begin("datacenter scale, module defaults, %.0f Gbit/s %u us: %d-to-1 incast, deep buffer: >= 95%% of C, Jain >= 0.95, queue within [0.5, 2] q_B",
			  g, base, n);
		sim_init_module_defaults(&s, mu, base, BASE_OWN);
		for (int i = 0; i < n; i++)
			flow_start(&s, i, s.h.line);
		sim_run(&s, 200 * base, NULL);
		peak = s.q_max;
		sim_run(&s, 500 * base, t);
		qd = mean_qdelay_us(&s);
		qinc[j] = qd / base;
		qinc_us[j] = qd;
		tap_diag("incast: peak queue %.1f BDP in the first 200 RTT; then util %.3f, Jain %.4f, queue %.2f BDP (%.1f us, q_B %u), max %.2f BDP",
			 peak / bdp, sum(t, n) / mu, jain(t, n), qd / base, qd, qb, s.q_max / bdp);
		CHECK(sum(t, n) >= 0.95 * mu, "util %.3f", sum(t, n) / mu);
		CHECK(jain(t, n) >= 0.95, "Jain %.4f", jain(t, n));
		CHECK(qd >= 0.5 * qb && qd <= 2.0 * qb, "queue %.1f us", qd);
		sim_free(&s);
		tap_end();
	}
	tap_begin("datacenter scale, module defaults: the %d-to-1 incast's queue within 1 BDP: %.2f BDP (%.0f us) at 100 Gbit/s 12 us, %.2f BDP (%.0f us) at 25 Gbit/s 8 us",
		  n, qinc[0], qinc_us[0], qinc[1], qinc_us[1]);
	CHECK(qinc[0] <= 1.0, "100 Gbit/s: %.2f BDP", qinc[0]);
	CHECK(qinc[1] <= 1.0, "25 Gbit/s: %.2f BDP", qinc[1]);
	tap_end_todo("q_B = 50 us (above software timestamp noise) is 4.2 / 6.3 BDP at these RTTs");

	/* 16 hosts joining 5 RTT apart: own tcp_min_rtt(), then base_rtt_us */
	for (unsigned j = 0; j < 2; j++) {
		const u64 mu = dc_sc[j].mu;
		const u32 base = dc_sc[j].base_us;
		double t[MAXF], qd;

		for (int m = BASE_OWN; m >= BASE_KNOWN; m--) {
			sim_init_module_defaults(&s, mu, base, m);
			for (int i = 0; i < n; i++) {
				flow_start(&s, i, s.h.line);
				sim_run(&s, 5 * base, NULL);
			}
			sim_run(&s, 200 * base, NULL);
			sim_run(&s, 500 * base, t);
			qd = mean_qdelay_us(&s);
			tap_diag("%.0f Gbit/s %u us, %s: util %.3f, Jain %.4f, queue %.1f BDP (%.0f us), the last flow's RTT_min %u us",
				 mu * 8e-9, base, m == BASE_OWN ? "own tcp_min_rtt()" : "base_rtt_us set",
				 sum(t, n) / mu, jain(t, n), qd / base, qd,
				 s.f[n - 1].cfg.rttmin_ns / 1000);
			if (m == BASE_OWN) {
				jst[j] = jain(t, n);
				qst[j] = qd / base;
			}
			sim_free(&s);
		}
	}
	tap_begin("datacenter scale, module defaults: %d hosts joining 5 RTT apart: Jain >= 0.95, queue within 2 q_B: Jain %.2f / %.2f, queue %.0f / %.0f BDP at 100 / 25 Gbit/s",
		  n, jst[0], jst[1], qst[0], qst[1]);
	for (unsigned j = 0; j < 2; j++) {
		CHECK(jst[j] >= 0.95, "%.0f Gbit/s: Jain %.4f", dc_sc[j].mu * 8e-9, jst[j]);
		CHECK(qst[j] * dc_sc[j].base_us <= 2.0 * qb, "%.0f Gbit/s: queue %.0f BDP",
		      dc_sc[j].mu * 8e-9, qst[j]);
	}
	tap_end_todo("flows of different hosts cannot share a minimum: set base_rtt_us (docs/ccc.md)");
}

/*
 * The set tools/dcc-tune prints for the same fabrics (its fabric profile,
 * the default 5 us of host noise, --pin-base-rtt): line_rate_mbps = C,
 * q_b_us = max(5, RTT/2, 2 x noise) = 10 us, base_rtt_us = the base RTT;
 * the rest at the module's defaults.  The two cases the defaults miss
 * above: a 16-host incast at once and 16 hosts joining 5 RTT apart.
 * Measured: util 1.000, Jain 0.998 / 0.991 (at once / 5 RTT apart) and
 * a queue of 11.5 us = 0.96 BDP at 100 Gbit/s; Jain 1.000 and 15 us =
 * 1.87 BDP at 25 Gbit/s (the defaults: 4.7 / 7.0 BDP at once, and 602 /
 * 669 BDP with Jain 0.44 / 0.46 when the hosts join 5 RTT apart).
 */
static void test_datacenter_tuned(void)
{
	const u32 qb = 10;	/* dcc-tune: max(5, RTT / 2, 2 x 5 us noise) */
	const int n = 16;
	struct sim s;

	for (unsigned j = 0; j < 2; j++) {
		const u64 mu = dc_sc[j].mu;
		const u32 base = dc_sc[j].base_us;

		tap_begin("datacenter scale, dcc-tune's set (q_B %u us, base_rtt_us %u), %.0f Gbit/s: %d hosts at once and %d hosts 5 RTT apart: >= 95%% of C, Jain >= 0.95, queue <= 2 q_B",
			  qb, base, mu * 8e-9, n, n);
		for (int gap = 0; gap <= 5; gap += 5) {
			struct ccc_knobs k = ccc_knobs_default();
			double t[MAXF], qd;

			k.q_b_us = qb;
			sim_init(&s, mu, base, qb, 0);
			ccc_params_init(&s.h.p, &k);
			sim_base_mode(&s, BASE_KNOWN);
			for (int i = 0; i < n; i++) {
				flow_start(&s, i, s.h.line);
				if (gap)
					sim_run(&s, gap * base, NULL);
			}
			sim_run(&s, 200 * base, NULL);
			sim_run(&s, 500 * base, t);
			qd = mean_qdelay_us(&s);
			tap_diag("%s: util %.3f, Jain %.4f, queue %.2f BDP (%.1f us)",
				 gap ? "5 RTT apart" : "at once", sum(t, n) / mu,
				 jain(t, n), qd / base, qd);
			CHECK(sum(t, n) >= 0.95 * mu, "gap %d: util %.3f", gap, sum(t, n) / mu);
			CHECK(jain(t, n) >= 0.95, "gap %d: Jain %.4f", gap, jain(t, n));
			CHECK(qd <= 2.0 * qb, "gap %d: queue %.1f us", gap, qd);
			sim_free(&s);
		}
		tap_end();
	}
}

int main(void)
{
	if (getenv("CCC_TRACE"))
		trace = strtoull(getenv("CCC_TRACE"), NULL, 0);
	if (getenv("CCC_ONLY")) {	/* debugging: one scenario */
		int k = atoi(getenv("CCC_ONLY"));
		u32 r1 = getenv("CCC_R1") ? (u32)atoi(getenv("CCC_R1")) : 100;
		u32 line = getenv("CCC_LINE") ? (u32)atoi(getenv("CCC_LINE")) : 101;
		int base = getenv("CCC_BASE") ? atoi(getenv("CCC_BASE")) : BASE_SHARED;

		if (k == 1)
			test_lone_flow(300, 0, true);
		if (k == 2)
			test_two_flows(300, base, line, r1, true);
		if (k == 3)
			test_incast(getenv("CCC_N") ?
				    clamp_t(int, atoi(getenv("CCC_N")), 1, MAXF) : 8,
				    300, base, line);
		if (k == 4)
			test_refill();
		if (k == 5)
			test_trajectory(false);
		return tap_done();
	}
	tap_header();
	test_delta_regions();
	test_stretch_ack();
	test_analytical_exact();
	test_sqrt_share();
	test_extremes();
	test_lone_flow(0, 0, true);
	test_lone_flow(300, 0, true);
	test_lone_flow(300, 0, false);
	test_two_flows(0, BASE_KNOWN, 100, 100, true);
	test_two_flows(300, BASE_KNOWN, 100, 100, true);
	/* joins as the guest sees them, and newcomers below share */
	test_two_flows(300, BASE_SHARED, 101, 100, true);
	test_two_flows(300, BASE_KNOWN, 101, 20, true);
	test_two_flows(300, BASE_SHARED, 101, 20, true);
	test_two_flows(300, BASE_SHARED, 101, 5, true);
	test_two_flows(0, BASE_SHARED, 101, 20, true);
	/* why tcp_ccc.ko shares RTT_min: with its own, a newcomer that
	 * started on a standing queue under-reads q and takes the link */
	test_two_flows(300, BASE_OWN, 101, 100, false);
	test_incast(8, 0, BASE_KNOWN, 100);
	test_incast(8, 300, BASE_KNOWN, 100);
	test_incast(8, 300, BASE_SHARED, 101);
	test_incast(32, 300, BASE_SHARED, 101);
	test_refill();
	test_trajectory(false);
	test_trajectory(true);
	test_datacenter_defaults();
	test_datacenter_tuned();
	return tap_done();
}
