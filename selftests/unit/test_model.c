// SPDX-License-Identifier: GPL-2.0
/*
 * The shared bottleneck model against what queueing theory says of it,
 * with cores that hold a fixed decision: if the model is wrong, every
 * algorithm test built on it is.  Each check states the figure it expects
 * from first principles (BDPs, service times), not from a previous run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "model.h"

static struct model m;

/* A core that never changes its decision, and counts what it is told. */
struct fixed_cc {
	u64 acks, ce, losses, first_window, bad_rtt;
	u64 infl_sum, infl_n;
	u64 last_rx_ns;
	bool rx_backwards;
	/* receive-time noise: rx_ns - the model's clock at the ACK */
	s64 rx_off_min, rx_off_max, rx_off_sum;
	/* send times off the pacing grid (tx_grid_ns, 0 = not checked) */
	u64 tx_grid_ns, tx_off_grid;
};

static void fixed_on_ack(void *cc, const struct dcc_sample *s,
			 struct dcc_decision *d)
{
	struct fixed_cc *c = cc;
	s64 off = (s64)(s->rx_ns - m.now_ns);

	(void)d;
	if (s->rx_ns < c->last_rx_ns)
		c->rx_backwards = true;
	c->last_rx_ns = s->rx_ns;
	c->losses += s->losses;
	if (s->why)
		return;
	c->acks++;
	c->ce += s->ce;
	c->first_window += s->first_window;
	if (s->rx_ns - s->tx_ns != s->rtt_ns || !s->rtt_ns)
		c->bad_rtt++;
	if (c->tx_grid_ns && s->tx_ns % c->tx_grid_ns)
		c->tx_off_grid++;
	c->rx_off_min = off < c->rx_off_min ? off : c->rx_off_min;
	c->rx_off_max = off > c->rx_off_max ? off : c->rx_off_max;
	c->rx_off_sum += off;
	c->infl_sum += s->infl_pkts;
	c->infl_n++;
}

static int add_fixed(struct fixed_cc *c, u32 base_ns, u64 rate, u64 cwnd_bytes)
{
	memset(c, 0, sizeof(*c));
	return model_add_flow(&m, base_ns, (struct model_cc){ fixed_on_ack, c },
			      (struct dcc_decision){ .rate_bytes_ps = rate,
						     .cwnd_bytes = cwnd_bytes });
}

static bool near(double got, double want, double tol)
{
	return fabs(got - want) <= tol * fabs(want);
}

#define C100M 12500000ULL	/* 100 Mbit/s in bytes/s */
#define MS 1000000U		/* 1 ms in ns */

/* paced below the link: no queue but the packet in service */
static void test_paced_half(void)
{
	struct fixed_cc c;

	tap_begin("model: a flow paced at 50%% of the link gets 50%%, RTT = base + one service time");
	model_init(&m, &(struct model_link){ .rate_bytes_ps = C100M });
	add_fixed(&c, 10 * MS, C100M / 2, 1ULL << 40);
	model_run(&m, 100 * MS);
	model_reset_stats(&m);
	model_run(&m, 1100 * MS);
	CHECK(near(model_flow_rate(&m, 0), C100M / 2, 0.01), "rate %.0f want %llu",
	      model_flow_rate(&m, 0), C100M / 2);
	/* 1500 B at 12.5e6 B/s = 120 us of service, half the time busy */
	CHECK(m.f[0].rtt_min_ns == 10 * MS + 120000 && m.f[0].rtt_max_ns == 10 * MS + 120000,
	      "rtt %u..%u want %u", m.f[0].rtt_min_ns, m.f[0].rtt_max_ns, 10 * MS + 120000);
	CHECK(near(model_mean_q_bytes(&m), 750, 0.02), "mean queue %.1f B want 750",
	      model_mean_q_bytes(&m));
	CHECK(c.bad_rtt == 0 && !c.rx_backwards, "bad rtt %llu", (unsigned long long)c.bad_rtt);
	model_free(&m);
	tap_end();
}

/* window-limited at 2 BDP: the link is full and the queue holds one BDP */
static void test_window_2bdp(u64 rate, u32 base_ns, const char *what)
{
	struct fixed_cc c;
	u64 bdp = rate * base_ns / DCC_NSEC_PER_SEC;
	u64 svc = 1500 * DCC_NSEC_PER_SEC / rate;
	u32 w = (u32)((2 * bdp + 1499) / 1500);	/* packets */

	tap_begin("model: %s, window 2 BDP: link full, queue 1 BDP, RTT 2 base", what);
	model_init(&m, &(struct model_link){ .rate_bytes_ps = rate });
	add_fixed(&c, base_ns, rate * 10, 2 * bdp);
	model_run(&m, 50ULL * base_ns);
	model_reset_stats(&m);
	c.infl_sum = c.infl_n = 0;	/* past the initial window's ramp */
	model_run(&m, 250ULL * base_ns);
	CHECK(near(model_flow_rate(&m, 0), (double)rate, 0.01), "rate %.0f want %llu",
	      model_flow_rate(&m, 0), (unsigned long long)rate);
	/* w packets circulate: base RTT worth on the wire, the rest queued */
	CHECK(near(model_mean_q_bytes(&m), (double)w * 1500 - (double)bdp, 0.05),
	      "mean queue %.0f B want %.0f", model_mean_q_bytes(&m), (double)w * 1500 - (double)bdp);
	CHECK(near(m.f[0].rtt_sum_ns / (double)m.f[0].rtt_n, (double)w * svc, 0.02),
	      "mean rtt %.0f ns want %llu", m.f[0].rtt_sum_ns / (double)m.f[0].rtt_n,
	      (unsigned long long)(w * svc));
	/* Linux's rs->delivered for a window-bound flow: the window */
	CHECK(c.infl_n && c.infl_sum / c.infl_n == w, "infl %llu want %u",
	      (unsigned long long)(c.infl_n ? c.infl_sum / c.infl_n : 0), w);
	model_free(&m);
	tap_end();
}

/* drop-tail: a sender at twice the link loses half, and is told so */
static void test_droptail(void)
{
	struct fixed_cc c;
	u64 pre;

	tap_begin("model: drop-tail at 1 BDP, sender at 2x the link: drops reported, queue bounded");
	model_init(&m, &(struct model_link){ .rate_bytes_ps = C100M, .limit_bytes = 125000 });
	add_fixed(&c, 10 * MS, 2 * C100M, 1ULL << 40);
	model_run(&m, 100 * MS);
	pre = m.st.drops;
	model_reset_stats(&m);
	model_run(&m, 1100 * MS);
	CHECK(near(model_flow_rate(&m, 0), C100M, 0.01), "rate %.0f", model_flow_rate(&m, 0));
	CHECK(m.st.q_max_bytes <= 125000, "queue max %llu > limit", (unsigned long long)m.st.q_max_bytes);
	/* half of what is sent is dropped */
	CHECK(near((double)m.st.drops, (double)m.f[0].bytes / 1500, 0.02), "drops %llu delivered %llu",
	      (unsigned long long)m.st.drops, (unsigned long long)m.f[0].bytes / 1500);
	model_stop_flow(&m, 0);
	model_run(&m, 1200 * MS);	/* the last drops' reports arrive */
	CHECK(c.losses == pre + m.st.drops, "losses told %llu, dropped %llu",
	      (unsigned long long)c.losses, (unsigned long long)(pre + m.st.drops));
	model_free(&m);
	tap_end();
}

/* ECN: a step marker at K, told to the sender on the ACK */
static void test_ecn(void)
{
	struct fixed_cc c;

	tap_begin("model: CE marks above K only, each reported on its ACK");
	/* window 2 BDP: the queue stands at ~1 BDP = 125000 B */
	model_init(&m, &(struct model_link){ .rate_bytes_ps = C100M, .ecn_k_bytes = 60000 });
	add_fixed(&c, 10 * MS, 10 * C100M, 250000);
	model_run(&m, 2000 * MS);
	model_stop_flow(&m, 0);
	model_run(&m, 2100 * MS);	/* every marked packet's ACK is back */
	CHECK(m.st.marks > 0 && c.ce == m.st.marks, "marks %llu told %llu",
	      (unsigned long long)m.st.marks, (unsigned long long)c.ce);
	CHECK((double)c.ce > 0.9 * (double)c.acks, "ce %llu of %llu acks", (unsigned long long)c.ce,
	      (unsigned long long)c.acks);
	model_free(&m);
	/* K = the window: the queue can never hold more */
	model_init(&m, &(struct model_link){ .rate_bytes_ps = C100M, .ecn_k_bytes = 250000 });
	add_fixed(&c, 10 * MS, 10 * C100M, 250000);
	model_run(&m, 2000 * MS);
	CHECK(m.st.marks == 0 && c.ce == 0, "marks %llu with K above the queue",
	      (unsigned long long)m.st.marks);
	model_free(&m);
	tap_end();
}

/* flows of different base RTTs paced below the link each get their rate */
static void test_mixed_rtt_and_stop(void)
{
	struct fixed_cc a, b;

	tap_begin("model: two base RTTs, paced at 40%% each: each gets 40%%; one stops, the other keeps its rate");
	model_init(&m, &(struct model_link){ .rate_bytes_ps = C100M });
	add_fixed(&a, 1 * MS, C100M * 2 / 5, 1ULL << 40);
	add_fixed(&b, 8 * MS, C100M * 2 / 5, 1ULL << 40);
	model_run(&m, 100 * MS);
	model_reset_stats(&m);
	model_run(&m, 1100 * MS);
	CHECK(near(model_flow_rate(&m, 0), C100M * 0.4, 0.01) &&
	      near(model_flow_rate(&m, 1), C100M * 0.4, 0.01), "rates %.0f %.0f",
	      model_flow_rate(&m, 0), model_flow_rate(&m, 1));
	CHECK(model_jain(&m, 0, 2) > 0.999, "jain %.4f", model_jain(&m, 0, 2));
	CHECK(m.f[0].rtt_min_ns >= 1 * MS && m.f[0].rtt_max_ns < 2 * MS &&
	      m.f[1].rtt_min_ns >= 8 * MS && m.f[1].rtt_max_ns < 9 * MS, "rtts %u..%u %u..%u",
	      m.f[0].rtt_min_ns, m.f[0].rtt_max_ns, m.f[1].rtt_min_ns, m.f[1].rtt_max_ns);
	model_stop_flow(&m, 1);
	model_run(&m, 1200 * MS);
	model_reset_stats(&m);
	model_run(&m, 2200 * MS);
	CHECK(model_flow_rate(&m, 1) == 0 && near(model_flow_rate(&m, 0), C100M * 0.4, 0.01),
	      "after stop %.0f %.0f", model_flow_rate(&m, 0), model_flow_rate(&m, 1));
	model_free(&m);
	tap_end();
}

/* noise, the slow path and the first window reach the samples as stated */
static void test_noise_slow_first(void)
{
	struct fixed_cc c;
	u64 acks1, ce1;
	double n = 200000;

	tap_begin("model: noise on rx within +-n, tx exact, slow path on ~q of packets, first window flagged, same seed same run");
	model_init(&m, &(struct model_link){ .rate_bytes_ps = C100M, .noise_ns = 200000,
					     .slow_ppm = 250000, .slow_ns = 5 * MS, .seed = 7 });
	add_fixed(&c, 10 * MS, C100M / 2, 1ULL << 40);
	/* paced at 50%: a packet every 240 us from time 0, exactly */
	c.tx_grid_ns = 240000;
	model_run(&m, 1000 * MS);
	/* true RTT 10.12 ms, slow ones 15.12 ms, +-0.2 ms noise */
	CHECK(m.f[0].rtt_min_ns >= 10 * MS + 120000 - 200000 &&
	      m.f[0].rtt_max_ns <= 15 * MS + 120000 + 200000 &&
	      m.f[0].rtt_max_ns > 15 * MS, "rtt %u..%u", m.f[0].rtt_min_ns, m.f[0].rtt_max_ns);
	/* the slow share: mean RTT = base + q * slow, q = 0.25 */
	CHECK(near(m.f[0].rtt_sum_ns / (double)m.f[0].rtt_n, 10.12e6 + 0.25 * 5e6, 0.01),
	      "mean rtt %.0f", m.f[0].rtt_sum_ns / (double)m.f[0].rtt_n);
	/* paced at 50%: one BDP/2 = 42 packets leave before the first ACK */
	CHECK(c.first_window >= 40 && c.first_window <= 44, "first window %llu",
	      (unsigned long long)c.first_window);
	CHECK(c.bad_rtt == 0, "rtt identity rx - tx = rtt");
	/*
	 * the noise is on the receive time: the send times are the exact
	 * pacing grid, rx_ns strays from the ACK's arrival by at most n, and
	 * zero-mean: over ~4000 ACKs the mean offset is within 0.05 n (its
	 * standard error is n / sqrt(3 * 4000) = 0.009 n)
	 */
	CHECK(c.acks > 4000 && c.tx_off_grid == 0, "tx off the pacing grid: %llu of %llu",
	      (unsigned long long)c.tx_off_grid, (unsigned long long)c.acks);
	CHECK(c.rx_off_min >= -n && c.rx_off_max <= n &&
	      c.rx_off_min < -0.9 * n && c.rx_off_max > 0.9 * n,
	      "rx offset %lld..%lld want within +-%.0f, both ends reached",
	      (long long)c.rx_off_min, (long long)c.rx_off_max, n);
	CHECK(fabs((double)c.rx_off_sum / (double)c.acks) <= 0.05 * n, "rx offset mean %.0f",
	      (double)c.rx_off_sum / (double)c.acks);
	acks1 = c.acks;
	ce1 = m.f[0].rtt_sum_ns;
	model_free(&m);
	model_init(&m, &(struct model_link){ .rate_bytes_ps = C100M, .noise_ns = 200000,
					     .slow_ppm = 250000, .slow_ns = 5 * MS, .seed = 7 });
	add_fixed(&c, 10 * MS, C100M / 2, 1ULL << 40);
	model_run(&m, 1000 * MS);
	CHECK(c.acks == acks1 && m.f[0].rtt_sum_ns == ce1, "second run differs");
	model_free(&m);
	tap_end();
}

/* without noise rx_ns is the ACK's arrival: in order, no offset */
static void test_no_noise_rx_exact(void)
{
	struct fixed_cc c;

	tap_begin("model: without noise rx_ns is the model's clock at the ACK, in order");
	model_init(&m, &(struct model_link){ .rate_bytes_ps = C100M });
	add_fixed(&c, 10 * MS, C100M * 2, 250000);
	model_run(&m, 500 * MS);
	CHECK(c.acks > 1000 && c.rx_off_min == 0 && c.rx_off_max == 0 && !c.rx_backwards,
	      "rx offset %lld..%lld, backwards %d", (long long)c.rx_off_min,
	      (long long)c.rx_off_max, c.rx_backwards);
	CHECK(c.bad_rtt == 0, "rtt identity rx - tx = rtt");
	model_free(&m);
	tap_end();
}

/* A core that keeps the scoreboard of ack_seq / next_seq the model exposes. */
#define SEQ_CAP (1U << 16)

struct seq_cc {
	int idx;			/* its flow in the model */
	u64 acks, losses, ooo, slow, dup, beyond;
	u64 hi;				/* 1 + the highest sequence number ACKed */
	u64 max_lag;			/* most an ACK came behind the highest */
	u32 slow_rtt_ns;		/* an RTT above this took the slow path */
	unsigned char seen[SEQ_CAP];	/* ACKed or reported lost */
};

static void seq_on_ack(void *cc, const struct dcc_sample *s, struct dcc_decision *d)
{
	struct seq_cc *c = cc;
	const struct model_flow *f = &m.f[c->idx];
	u64 q = f->ack_seq;

	(void)d;
	if (q >= f->next_seq || q >= SEQ_CAP) {
		c->beyond++;
		return;
	}
	c->dup += c->seen[q];
	c->seen[q] = 1;
	if (s->losses) {
		c->losses += s->losses;
		return;
	}
	c->acks++;
	c->slow += s->rtt_ns > c->slow_rtt_ns;
	if (q + 1 < c->hi) {
		c->ooo++;
		if (c->hi - 1 - q > c->max_lag)
			c->max_lag = c->hi - 1 - q;
	} else {
		c->hi = q + 1;
	}
}

static int add_seq(struct seq_cc *c, u32 base_ns, u64 rate, u64 cwnd_bytes)
{
	memset(c, 0, sizeof(*c));
	c->idx = m.nflows;
	return model_add_flow(&m, base_ns, (struct model_cc){ seq_on_ack, c },
			      (struct dcc_decision){ .rate_bytes_ps = rate,
						     .cwnd_bytes = cwnd_bytes });
}

/* per-packet sequence numbers: reordering as the slow path makes it */
static void test_seq_spray(void)
{
	struct seq_cc *c = calloc(1, sizeof(*c));

	tap_begin("model: ack_seq out of order exactly for the slow path's packets,"
		  " at most slow_ns of sends behind");
	model_init(&m, &(struct model_link){ .rate_bytes_ps = C100M, .slow_ppm = 250000,
					     .slow_ns = 5 * MS, .seed = 11 });
	add_seq(c, 10 * MS, C100M / 2, 1ULL << 40);
	/* fast RTT 10.12 ms, slow 15.12 ms (no noise): split at 12.5 ms */
	c->slow_rtt_ns = 12500000;
	model_run(&m, 1000 * MS);
	/*
	 * Paced at 50%: a packet every 240 us.  A slow packet's ACK comes
	 * 5 ms late, after those of the 20 packets sent in the 4.8 ms behind
	 * it that took the fast path (all 20 slow too: 0.25^20, never): so
	 * every slow ACK and no other arrives below the highest ACKed, at
	 * most 20 behind it, and 20 behind it whenever packet seq + 20 was
	 * fast (0.75 of them).  The slow share is q = 0.25 of ~4100 ACKs
	 * (binomial sd 0.7%): within 10%.
	 */
	CHECK(c->acks > 4000 && c->ooo == c->slow, "out of order %llu, slow %llu of %llu",
	      (unsigned long long)c->ooo, (unsigned long long)c->slow,
	      (unsigned long long)c->acks);
	CHECK(near((double)c->slow, 0.25 * (double)c->acks, 0.1), "slow share %.3f want 0.25",
	      (double)c->slow / (double)c->acks);
	CHECK(c->max_lag == 20, "most behind the highest ACKed: %llu want 20",
	      (unsigned long long)c->max_lag);
	CHECK(c->dup == 0 && c->beyond == 0, "dup %llu, beyond next_seq %llu",
	      (unsigned long long)c->dup, (unsigned long long)c->beyond);
	model_free(&m);

	/* without the slow path the ACKs come in send order */
	model_init(&m, &(struct model_link){ .rate_bytes_ps = C100M, .noise_ns = 200000,
					     .seed = 11 });
	add_seq(c, 10 * MS, C100M * 2, 250000);
	c->slow_rtt_ns = UINT32_MAX;
	model_run(&m, 500 * MS);
	CHECK(c->acks > 1000 && c->ooo == 0 && c->hi == c->acks,
	      "no slow path: %llu out of order, hi %llu, acks %llu", (unsigned long long)c->ooo,
	      (unsigned long long)c->hi, (unsigned long long)c->acks);
	model_free(&m);
	free(c);
	tap_end();
}

/* every packet sent is ACKed or reported lost, exactly once */
static void test_seq_once(void)
{
	struct seq_cc *c = calloc(1, sizeof(*c));
	u64 sent, missing = 0;

	tap_begin("model: every sequence number sent is ACKed or reported lost exactly once");
	/* drop-tail at 1 BDP, sender at 2x the link, sprayed, noisy */
	model_init(&m, &(struct model_link){ .rate_bytes_ps = C100M, .limit_bytes = 125000,
					     .slow_ppm = 250000, .slow_ns = 2 * MS,
					     .noise_ns = 100000, .seed = 5 });
	add_seq(c, 10 * MS, 2 * C100M, 1ULL << 40);
	c->slow_rtt_ns = UINT32_MAX;
	model_run(&m, 2000 * MS);
	model_stop_flow(&m, 0);
	model_run(&m, 2200 * MS);	/* every ACK and loss report is in */
	sent = m.f[0].next_seq;
	for (u64 q = 0; q < sent && q < SEQ_CAP; q++)
		missing += !c->seen[q];
	CHECK(sent > 30000 && sent < SEQ_CAP, "sent %llu", (unsigned long long)sent);
	CHECK(c->dup == 0 && c->beyond == 0 && missing == 0,
	      "dup %llu, beyond next_seq %llu, never heard of %llu", (unsigned long long)c->dup,
	      (unsigned long long)c->beyond, (unsigned long long)missing);
	CHECK(c->acks + c->losses == sent && c->losses == m.st.drops && m.f[0].inflight == 0,
	      "acks %llu + losses %llu vs sent %llu, drops %llu", (unsigned long long)c->acks,
	      (unsigned long long)c->losses, (unsigned long long)sent,
	      (unsigned long long)m.st.drops);
	CHECK(c->losses > 10000 && c->ooo > 1000, "drops %llu, reordering %llu: both exercised",
	      (unsigned long long)c->losses, (unsigned long long)c->ooo);
	model_free(&m);
	free(c);
	tap_end();
}

int main(void)
{
	tap_header();
	test_paced_half();
	test_window_2bdp(C100M, 10 * MS, "100 Mbit/s, 10 ms");
	/* the datacenter corners: 800 Gbit/s at 1 us, 1 Mbit/s at the longest RTT */
	test_window_2bdp(100000000000ULL, 1000, "800 Gbit/s, 1 us");
	/* (a 2-BDP RTT must stay under the samples' 1 s ceiling) */
	test_window_2bdp(125000, 400 * MS, "1 Mbit/s, 400 ms");
	test_droptail();
	test_ecn();
	test_mixed_rtt_and_stop();
	test_noise_slow_first();
	test_no_noise_rx_exact();
	test_seq_spray();
	test_seq_once();
	return tap_done();
}
