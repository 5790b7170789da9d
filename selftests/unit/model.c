// SPDX-License-Identifier: GPL-2.0
/*
 * The shared bottleneck model (model.h says what it models).  Userspace
 * only: doubles are allowed here, in the statistics, never on the path
 * into a core.
 */
#include <stdlib.h>
#include <string.h>
#include "model.h"

enum model_ev_type {
	EV_SEND,	/* a flow may send (its pacing time came) */
	EV_ARRIVE,	/* a packet reaches the bottleneck */
	EV_DEPART,	/* a packet leaves the bottleneck */
	EV_ACK,		/* a packet's ACK reaches its sender */
	EV_LOSS,	/* a dropped packet is reported to its sender */
};

struct model_ev {
	u64 t;		/* when, ns */
	u64 seq;	/* insertion order: ties run first-in first-out */
	u64 send_ns;	/* the packet's send time */
	u64 deliv;	/* the flow's delivered count when it was sent */
	u64 pseq;	/* the packet's send sequence number in its flow */
	u16 flow;
	u8 type;	/* enum model_ev_type */
	u8 ce;		/* CE-marked (bottleneck, or slow_ce path) */
	u8 slow;	/* takes the slow path after the bottleneck */
};

/* ---- event heap: a binary min-heap on (t, seq) ------------------------- */

static bool ev_before(const struct model_ev *a, const struct model_ev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void ev_push(struct model *m, struct model_ev e)
{
	u32 i;

	if (m->nev == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 1024;
		m->ev = realloc(m->ev, m->cap * sizeof(*m->ev));
		if (!m->ev)
			abort();
	}
	e.seq = m->seq++;
	for (i = m->nev++; i; ) {
		u32 p = (i - 1) / 2;

		if (!ev_before(&e, &m->ev[p]))
			break;
		m->ev[i] = m->ev[p];
		i = p;
	}
	m->ev[i] = e;
}

static struct model_ev ev_pop(struct model *m)
{
	struct model_ev top = m->ev[0], last = m->ev[--m->nev];
	u32 i = 0;

	for (;;) {
		u32 c = 2 * i + 1;

		if (c >= m->nev)
			break;
		if (c + 1 < m->nev && ev_before(&m->ev[c + 1], &m->ev[c]))
			c++;
		if (!ev_before(&m->ev[c], &last))
			break;
		m->ev[i] = m->ev[c];
		i = c;
	}
	if (m->nev)
		m->ev[i] = last;
	return top;
}

/* ---- helpers ------------------------------------------------------------- */

static u64 rnd(struct model *m)	/* splitmix64 */
{
	u64 z = (m->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* the queue's byte-time integral up to now, before q_bytes changes */
static void q_account(struct model *m)
{
	m->st.q_area += (double)m->q_bytes * (double)(m->now_ns - m->q_last_ns);
	m->q_last_ns = m->now_ns;
}

/* the window in force, whole packets, as dcc_lib applies a decision */
static u32 cwnd_pkts(const struct model *m, const struct model_flow *f)
{
	u64 w = (f->d.cwnd_bytes + m->link.mss - 1) / m->link.mss;

	return (u32)(w < m->link.min_cwnd_pkts ? m->link.min_cwnd_pkts :
		     w > (1U << 30) ? (1U << 30) : w);
}

/* queue a send event for flow @i at its pacing time, once */
static void arm_send(struct model *m, int i)
{
	struct model_flow *f = &m->f[i];

	if (f->send_armed || !f->on || f->inflight >= cwnd_pkts(m, f))
		return;
	f->send_armed = true;
	ev_push(m, (struct model_ev){
		.t = f->next_send_ns > m->now_ns ? f->next_send_ns : m->now_ns,
		.type = EV_SEND, .flow = (u16)i });
}

/* hand a sample to the flow's core and take its decision */
static void deliver_sample(struct model *m, int i, const struct dcc_sample *s)
{
	struct model_flow *f = &m->f[i];

	struct dcc_decision d = f->d;

	/*
	 * A stopped flow still hears of the packets it had in flight.  As the
	 * kernel glue, the model applies a decision only when the core says
	 * it changed (sample.h); otherwise the one in force stands.
	 */
	d.changed = false;
	f->cc.on_ack(f->cc.cc, s, &d);
	if (d.changed)
		f->d = d;
	else
		f->d.flags = d.flags;
	arm_send(m, i);
}

/* ---- events -------------------------------------------------------------- */

static void on_send(struct model *m, const struct model_ev *e)
{
	struct model_flow *f = &m->f[e->flow];
	u64 rate = f->d.rate_bytes_ps < m->link.mss ? m->link.mss : f->d.rate_bytes_ps;

	f->send_armed = false;
	if (!f->on || f->inflight >= cwnd_pkts(m, f))
		return;		/* an ACK re-arms it */
	if (m->now_ns < f->next_send_ns) {
		arm_send(m, e->flow);	/* the rate was lowered since */
		return;
	}
	f->inflight++;
	ev_push(m, (struct model_ev){
		.t = m->now_ns + f->base_rtt_ns / 2, .type = EV_ARRIVE,
		.flow = e->flow, .send_ns = m->now_ns, .deliv = f->delivered,
		.pseq = f->next_seq++ });
	/* pacing as the stack's EDT: one packet's time at the rate, no credit */
	f->next_send_ns = m->now_ns + m->link.mss * DCC_NSEC_PER_SEC / rate;
	arm_send(m, e->flow);
}

/* the packet of @e leaves CE-marked (once), counted per link and flow */
static void mark_ce(struct model *m, struct model_ev *e)
{
	if (e->ce)
		return;
	e->ce = 1;
	m->st.marks++;
	m->f[e->flow].marks++;
}

static void on_arrive(struct model *m, struct model_ev e)
{
	u64 mss = m->link.mss;

	if (m->link.limit_bytes && m->q_bytes + mss > m->link.limit_bytes) {
		m->st.drops++;
		m->f[e.flow].drops++;
		/* a SACK-based sender learns of it about one RTT later */
		e.t = m->now_ns + m->f[e.flow].base_rtt_ns;
		e.type = EV_LOSS;
		ev_push(m, e);
		return;
	}
	if (m->link.ecn_k_bytes && m->q_bytes > m->link.ecn_k_bytes)
		mark_ce(m, &e);
	q_account(m);
	m->q_bytes += mss;
	if (m->q_bytes > m->st.q_max_bytes)
		m->st.q_max_bytes = m->q_bytes;
	if (m->busy_until_ns < m->now_ns)
		m->busy_until_ns = m->now_ns;
	/* served at the link rate: mss * 1e9 / rate ns, at most 6.6e13 */
	m->busy_until_ns += mss * DCC_NSEC_PER_SEC / m->link.rate_bytes_ps;
	e.t = m->busy_until_ns;
	e.type = EV_DEPART;
	ev_push(m, e);
}

static void on_depart(struct model *m, struct model_ev e)
{
	q_account(m);
	m->q_bytes -= m->link.mss;
	e.slow = m->link.slow_ppm && rnd(m) % 1000000 < m->link.slow_ppm;
	if (e.slow && m->link.slow_ce)
		mark_ce(m, &e);
	e.t = m->now_ns + m->f[e.flow].base_rtt_ns / 2 +
	      (e.slow ? m->link.slow_ns : 0);
	e.type = EV_ACK;
	ev_push(m, e);
}

/*
 * When the sender's stack takes the ACK in: its arrival plus the sample
 * noise, uniform in +-noise_ns, never before the packet's send time (the
 * kernel's rx_ns is its clock at processing, host delay included).
 */
static u64 measured_rx(struct model *m, u64 send_ns)
{
	u64 n = m->link.noise_ns, rx = m->now_ns;

	if (n) {
		u64 r = rnd(m) % (2 * n + 1);

		rx = rx + r > n ? rx + r - n : 0;
	}
	return rx > send_ns ? rx : send_ns + 1;
}

static void on_ack(struct model *m, const struct model_ev *e)
{
	struct model_flow *f = &m->f[e->flow];
	u64 rx = measured_rx(m, e->send_ns);
	/* as dcc_sample_get(): rtt clamped to 1 s, tx = rx - rtt */
	u64 rtt = rx - e->send_ns;
	struct dcc_sample s;

	if (rtt > DCC_SAMPLE_RTT_MAX_NS)
		rtt = DCC_SAMPLE_RTT_MAX_NS;
	f->inflight--;
	f->delivered++;
	f->bytes += m->link.mss;
	f->rtt_sum_ns += rtt;
	f->rtt_n++;
	if (!f->rtt_min_ns || rtt < f->rtt_min_ns)
		f->rtt_min_ns = (u32)rtt;
	if (rtt > f->rtt_max_ns)
		f->rtt_max_ns = (u32)rtt;
	s = (struct dcc_sample){
		.rx_ns = rx, .tx_ns = rx - rtt, .rtt_ns = (u32)rtt,
		.acked = 1, .acked_bytes = m->link.mss, .mss = m->link.mss,
		/* as Linux's rs->delivered: deliveries while it was in flight */
		.infl_pkts = (u32)(f->delivered - e->deliv),
		.ce = e->ce,
		.first_window = e->deliv == 0,
	};
	f->acked_once = true;
	f->ack_seq = e->pseq;
	deliver_sample(m, e->flow, &s);
}

static void on_loss(struct model *m, const struct model_ev *e)
{
	struct model_flow *f = &m->f[e->flow];
	struct dcc_sample s = {
		.rx_ns = m->now_ns,
		.mss = m->link.mss, .losses = 1,
		.why = DCC_SAMPLE_NO_ACKED | DCC_SAMPLE_NO_RTT,
	};

	f->inflight--;
	f->ack_seq = e->pseq;
	deliver_sample(m, e->flow, &s);
}

/* ---- API ----------------------------------------------------------------- */

void model_init(struct model *m, const struct model_link *link)
{
	memset(m, 0, sizeof(*m));
	m->link = *link;
	if (!m->link.mss)
		m->link.mss = 1500;
	if (!m->link.min_cwnd_pkts)
		m->link.min_cwnd_pkts = 2;
	if (!m->link.rate_bytes_ps)
		m->link.rate_bytes_ps = 1;
	m->rng = link->seed;
}

void model_free(struct model *m)
{
	free(m->ev);
	m->ev = NULL;
	m->nev = m->cap = 0;
}

int model_add_flow(struct model *m, u32 base_rtt_ns, struct model_cc cc,
		   struct dcc_decision d0)
{
	struct model_flow *f;

	if (m->nflows >= MODEL_MAX_FLOWS)
		return -1;
	f = &m->f[m->nflows];
	memset(f, 0, sizeof(*f));
	f->base_rtt_ns = base_rtt_ns;
	f->cc = cc;
	f->d = d0;
	f->on = true;
	f->next_send_ns = m->now_ns;
	arm_send(m, m->nflows);
	return m->nflows++;
}

void model_stop_flow(struct model *m, int i)
{
	m->f[i].on = false;
}

void model_run(struct model *m, u64 until_ns)
{
	while (m->nev && m->ev[0].t <= until_ns) {
		struct model_ev e = ev_pop(m);

		m->now_ns = e.t;
		switch (e.type) {
		case EV_SEND:
			on_send(m, &e);
			break;
		case EV_ARRIVE:
			on_arrive(m, e);
			break;
		case EV_DEPART:
			on_depart(m, e);
			break;
		case EV_ACK:
			on_ack(m, &e);
			break;
		case EV_LOSS:
			on_loss(m, &e);
			break;
		}
	}
	if (m->now_ns < until_ns)
		m->now_ns = until_ns;
	q_account(m);
}

void model_reset_stats(struct model *m)
{
	int i;

	memset(&m->st, 0, sizeof(m->st));
	m->st.t0_ns = m->now_ns;
	m->st.q_max_bytes = m->q_bytes;
	m->q_last_ns = m->now_ns;
	for (i = 0; i < m->nflows; i++) {
		struct model_flow *f = &m->f[i];

		f->bytes = f->rtt_sum_ns = f->rtt_n = 0;
		f->rtt_min_ns = f->rtt_max_ns = 0;
		f->drops = f->marks = 0;
	}
}

double model_mean_q_bytes(const struct model *m)
{
	u64 span = m->now_ns - m->st.t0_ns;

	return span ? m->st.q_area / (double)span : 0;
}

double model_flow_rate(const struct model *m, int i)
{
	u64 span = m->now_ns - m->st.t0_ns;

	return span ? (double)m->f[i].bytes * 1e9 / (double)span : 0;
}

double model_jain(const struct model *m, int first, int n)
{
	double s = 0, s2 = 0;
	int i;

	for (i = first; i < first + n; i++) {
		double x = model_flow_rate(m, i);

		s += x;
		s2 += x * x;
	}
	return s2 > 0 ? s * s / (n * s2) : 0;
}

double model_sustained_from(const u8 *ok_w, int n, int len, double w_rtt)
{
	int w, i;

	for (w = 0; w + len <= n; w++) {
		for (i = w; i < w + len && ok_w[i]; i++)
			;
		if (i == w + len)
			return w * w_rtt;
	}
	return MODEL_NEVER;
}
