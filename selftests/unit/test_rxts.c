// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the RX timestamp acceptance rule and record encoding
 * (include/dcc/rxts.h): a word's age modulo 2^48 (stamps just old, in
 * the future, across a 2^48 boundary of the low bits, across 2^64, far
 * off), the ack_seq check of every word, the key's layout, and the host
 * delay against the RTT and the bound at and around their exact
 * boundaries.
 */
#include "dcc/rxts.h"
#include "tap.h"

#define MS 1000000ULL	/* ns */
#define S (1000 * MS)

/* a REALTIME now in 2026, and the stack clock's 20 s after boot */
static const u64 real = 1795000000ULL * 1000000000ULL + 123456789;
static const u64 mono = 20ULL * S;
static const u64 span = DCC_RXTS_T_MASK + 1;	/* 2^48 ns */

/* is a stamp @t of ACK @seq, read at @now, accepted with a 1 ms bound? */
static bool accepted(u64 t, u64 now, bool has_rtt, u64 rtt)
{
	u64 age = dcc_rxts_age(dcc_rxts_word(7, t), 7, now);

	return age != DCC_RXTS_NO_AGE &&
	       dcc_rxts_accept(age, has_rtt, rtt, 1 * MS) == DCC_RXTS_OK;
}

static void test_age(void)
{
	u64 w;

	tap_begin("age: plain, future, 2^48 and 2^64 boundaries, far off");
	w = dcc_rxts_word(0x12345678, real - 5000);
	CHECK(dcc_rxts_age(w, 0x12345678, real) == 5000, "5 us old stamp: 5000 ns");
	CHECK(dcc_rxts_age(dcc_rxts_word(1, real), 1, real) == 0, "stamp == now: 0");
	CHECK(accepted(real, real, false, 0), "delay 0 accepted");
	CHECK(dcc_rxts_age(dcc_rxts_word(1, real + 1), 1, real) == span - 1,
	      "1 ns in the future reads 2^48 - 1");
	CHECK(!accepted(real + 1, real, false, 0), "1 ns in the future refused");
	CHECK(!accepted(real + 10 * S, real, false, 0), "10 s in the future refused");
	CHECK(!accepted(real - 10 * S, real, false, 0), "10 s old refused");
	/* the low 48 bits wrap between stamp and now, both ways */
	w = dcc_rxts_word(3, span * 5 - 100);
	CHECK(dcc_rxts_age(w, 3, span * 5 + 100) == 200,
	      "stamp before a 2^48 boundary of the low bits, now after it");
	CHECK(!accepted(span * 5 + 100, span * 5 - 100, false, 0),
	      "stamp after a 2^48 boundary, now before it: the future, refused");
	/* the clock's 64 bits wrap between stamp and now */
	CHECK(dcc_rxts_age(dcc_rxts_word(3, U64_MAX), 3, 5) == 6,
	      "across 2^64: 6 ns");
	/* the stack's monotonic clock (small values): the send time of 1 ms ago */
	CHECK(dcc_rxts_age(dcc_rxts_word(9, mono - MS), 9, mono) == MS,
	      "tx on the stack clock, 1 ms");
	/* a far-off or garbage stamp is refused */
	CHECK(!accepted(real - span / 2, real, false, 0), "39 hours old refused");
	CHECK(!accepted(0xffff888000001234ULL, real, false, 0),
	      "pointer-valued stamp (ndo_get_tstamp cookie) refused");
	CHECK(dcc_rxts_age(dcc_rxts_word(9, real + span), 9, real) == 0,
	      "exactly 2^48 off aliases to now (the documented limit)");
	tap_end();
}

static void test_words(void)
{
	u64 w;

	tap_begin("words: key layout, empty words, ack_seq check");
	CHECK(dcc_rxts_key(0xdeadbeef, 0x2a) == 0xdeadbeef2a000000ULL,
	      "key layout: %llx",
	      (unsigned long long)dcc_rxts_key(0xdeadbeef, 0x2a));
	CHECK(dcc_rxts_key(1, 0xff) == dcc_rxts_key(1, 0x3f), "tag keeps 6 bits");
	CHECK(dcc_rxts_key(1, 1) != dcc_rxts_key(1, 2) &&
	      dcc_rxts_key(1, 1) != dcc_rxts_key(2, 1),
	      "key tells ack_seq and tag apart");
	CHECK(dcc_rxts_key_match(dcc_rxts_key(5, 3) | 61, dcc_rxts_key(5, 3)) &&
	      ((dcc_rxts_key(5, 3) | 61) & DCC_RXTS_TTL_MASK) == 61,
	      "the TTL rides in bits 7..0, outside the match");
	CHECK(!dcc_rxts_key_match(dcc_rxts_key(5, 3) | 61, dcc_rxts_key(6, 3)) &&
	      !dcc_rxts_key_match(dcc_rxts_key(5, 3) | 61, dcc_rxts_key(5, 4)),
	      "a TTL does not make another ACK's key match");
	CHECK(dcc_ttl_hops(0) == 0 && dcc_ttl_hops(64) == 0 &&
	      dcc_ttl_hops(61) == 3 && dcc_ttl_hops(1) == 63 &&
	      dcc_ttl_hops(65) == 63 && dcc_ttl_hops(120) == 8 &&
	      dcc_ttl_hops(128) == 0 && dcc_ttl_hops(129) == 126 &&
	      dcc_ttl_hops(250) == 5 && dcc_ttl_hops(255) == 0,
	      "hops from the TTL: initial 64, 128 or 255");
	CHECK(dcc_rxts_word(7, 0) == 0, "no time: word 0");
	CHECK(dcc_rxts_age(0, 7, real) == DCC_RXTS_NO_AGE, "word 0: no age");
	w = dcc_rxts_word(0x12345678, real - 5000);
	CHECK(dcc_rxts_age(w, 0x12345679, real) == DCC_RXTS_NO_AGE,
	      "another ack_seq's word is not used");
	CHECK(dcc_rxts_age(w, 0xabcd5678, real) == 5000,
	      "only the low 16 bits of ack_seq are in the word");
	CHECK(dcc_rxts_age(w, 0x12345678, real) == 5000 &&
	      (w >> DCC_RXTS_T_BITS) == 0x5678, "word layout");
	tap_end();
}

static void test_accept_rtt(void)
{
	u64 max = 1 * MS;

	tap_begin("accept: host delay against the RTT");
	CHECK(dcc_rxts_accept(0, true, 1, max) == DCC_RXTS_OK, "0 < 1");
	CHECK(dcc_rxts_accept(9999, true, 10000, max) == DCC_RXTS_OK,
	      "rtt - 1 accepted");
	CHECK(dcc_rxts_accept(10000, true, 10000, max) == DCC_RXTS_NOT_BELOW_RTT,
	      "host == rtt refused");
	CHECK(dcc_rxts_accept(10001, true, 10000, max) == DCC_RXTS_NOT_BELOW_RTT,
	      "host > rtt refused");
	CHECK(dcc_rxts_accept(0, true, 0, max) == DCC_RXTS_NOT_BELOW_RTT,
	      "rtt 0: nothing can be removed");
	CHECK(dcc_rxts_accept(10001, false, 10000, max) == DCC_RXTS_OK,
	      "no RTT sample: only the bound applies");
	CHECK(accepted(real - 9999, real, true, 10000) &&
	      !accepted(real - 10000, real, true, 10000),
	      "through the word: rtt - 1 accepted, rtt refused");
	tap_end();
}

static void test_accept_bound(void)
{
	tap_begin("accept: the rx_host_max_us bound, exact edges");
	CHECK(dcc_rxts_accept(1000, true, 1 * S, 1000) == DCC_RXTS_OK,
	      "host == bound accepted");
	CHECK(dcc_rxts_accept(1001, true, 1 * S, 1000) == DCC_RXTS_TOO_OLD,
	      "bound + 1 refused");
	CHECK(dcc_rxts_accept(1001, false, 0, 1000) == DCC_RXTS_TOO_OLD,
	      "bound + 1 refused without an RTT too");
	/* the bound is checked first: both rules broken reports the bound */
	CHECK(dcc_rxts_accept(5000, true, 10, 1000) == DCC_RXTS_TOO_OLD,
	      "above bound and RTT: TOO_OLD");
	/* the parameter's range: 1 us .. 1 s */
	CHECK(dcc_rxts_accept(1000, false, 0, 1000) == DCC_RXTS_OK, "1 us");
	CHECK(dcc_rxts_accept(1 * S, false, 0, 1 * S) == DCC_RXTS_OK, "1 s");
	CHECK(dcc_rxts_accept(1 * S + 1, false, 0, 1 * S) == DCC_RXTS_TOO_OLD,
	      "1 s + 1 ns");
	CHECK(accepted(real - MS, real, false, 0) && !accepted(real - MS - 1, real, false, 0),
	      "through the word: 1 ms accepted, 1 ms + 1 ns refused");
	tap_end();
}

int main(void)
{
	tap_header();
	test_age();
	test_words();
	test_accept_rtt();
	test_accept_bound();
	return tap_done();
}
