// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the RX timestamp acceptance rule and record encoding
 * (include/dcc/rxts.h): zero and future stamps,
 * counter wraps at 2^32 and 2^64, host delay against the RTT and the
 * bound at and around their exact boundaries, and the record's pack /
 * unpack round trip over its two delay scales.
 */
#include "dcc/rxts.h"
#include "tap.h"

#define MS 1000000ULL	/* ns */

static void test_host_delay(void)
{
	u64 h = 12345;

	tap_begin("host delay: zero stamp, future stamp, plain delay");
	CHECK(dcc_rxts_host_delay(1000, 0, &h) == DCC_RXTS_NONE, "zero stamp");
	CHECK(h == 0, "zero stamp leaves host 0, got %llu", (unsigned long long)h);
	CHECK(dcc_rxts_host_delay(1000, 1001, &h) == DCC_RXTS_FUTURE,
	      "1 ns in the future");
	CHECK(h == 0, "future stamp leaves host 0");
	CHECK(dcc_rxts_host_delay(1000, 1000, &h) == DCC_RXTS_OK && h == 0,
	      "stamp == now: delay 0 accepted, got %llu", (unsigned long long)h);
	CHECK(dcc_rxts_host_delay(1000, 999, &h) == DCC_RXTS_OK && h == 1,
	      "1 ns old");
	CHECK(dcc_rxts_host_delay(1700000000ULL * 1000000000ULL + 5000,
				  1700000000ULL * 1000000000ULL, &h) ==
	      DCC_RXTS_OK && h == 5000, "realistic REALTIME stamp, 5 us");
	/* a kernel pointer misread as a stamp (ndo_get_tstamp cookie) */
	CHECK(dcc_rxts_host_delay(1700000000ULL * 1000000000ULL,
				  0xffff888000000000ULL, &h) != DCC_RXTS_OK ||
	      dcc_rxts_accept(h, false, 0, 1000000000ULL) != DCC_RXTS_OK,
	      "pointer-valued stamp refused");
	tap_end();
}

static void test_wraps(void)
{
	u64 h;

	tap_begin("host delay: 32-bit and 64-bit wraps");
	/* across 2^32: nothing special happens in 64 bits */
	CHECK(dcc_rxts_host_delay((1ULL << 32) + 10, (1ULL << 32) - 10, &h) ==
	      DCC_RXTS_OK && h == 20, "across 2^32: got %llu",
	      (unsigned long long)h);
	CHECK(dcc_rxts_host_delay((1ULL << 32) - 10, (1ULL << 32) + 10, &h) ==
	      DCC_RXTS_FUTURE, "2^32 + 10 is after 2^32 - 10");
	/* across 2^64: the counter wrapped between stamp and now */
	CHECK(dcc_rxts_host_delay(5, U64_MAX, &h) == DCC_RXTS_OK && h == 6,
	      "across 2^64: got %llu", (unsigned long long)h);
	CHECK(dcc_rxts_host_delay(U64_MAX, 5, &h) == DCC_RXTS_FUTURE,
	      "stamp 5 seen at U64_MAX is 6 ns past a wrap: the future");
	/* the signed difference decides: 2^63 - 1 old is past, 2^63 is not */
	CHECK(dcc_rxts_host_delay(1ULL << 63, 1, &h) == DCC_RXTS_OK &&
	      h == (1ULL << 63) - 1, "2^63 - 1 old is in the past");
	CHECK(dcc_rxts_host_delay((1ULL << 63) + 1, 1, &h) == DCC_RXTS_FUTURE,
	      "a difference of 2^63 reads as the future");
	CHECK(dcc_rxts_host_delay(10, (1ULL << 63) + 11, &h) == DCC_RXTS_OK &&
	      h == (1ULL << 63) - 1, "2^63 - 1 old across the wrap");
	tap_end();
}

static void test_accept_rtt(void)
{
	u64 max = 1000 * 1000;	/* 1 ms */

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
	tap_end();
}

static void test_accept_bound(void)
{
	tap_begin("accept: the rx_host_max_us bound, exact edges");
	CHECK(dcc_rxts_accept(1000, true, 1 * MS * 1000, 1000) == DCC_RXTS_OK,
	      "host == bound accepted");
	CHECK(dcc_rxts_accept(1001, true, 1 * MS * 1000, 1000) == DCC_RXTS_TOO_OLD,
	      "bound + 1 refused");
	CHECK(dcc_rxts_accept(1001, false, 0, 1000) == DCC_RXTS_TOO_OLD,
	      "bound + 1 refused without an RTT too");
	/* the bound is checked first: both rules broken reports the bound */
	CHECK(dcc_rxts_accept(5000, true, 10, 1000) == DCC_RXTS_TOO_OLD,
	      "above bound and RTT: TOO_OLD");
	/* the parameter's range: 1 us .. 1 s */
	CHECK(dcc_rxts_accept(1000, false, 0, 1000) == DCC_RXTS_OK, "1 us");
	CHECK(dcc_rxts_accept(1000 * MS, false, 0, 1000 * MS) == DCC_RXTS_OK,
	      "1 s");
	CHECK(dcc_rxts_accept(1000 * MS + 1, false, 0, 1000 * MS) ==
	      DCC_RXTS_TOO_OLD, "1 s + 1 ns");
	tap_end();
}

static void test_record(void)
{
	static const u64 delays[] = {
		0, 1, 999, 1000, 123456, DCC_RXTS_DELAY_MAX,
		DCC_RXTS_DELAY_MAX + 1, 50 * MS, 999999999, 1000 * MS,
		DCC_RXTS_REC_MAX_NS,
	};
	struct dcc_rxts_rec r;
	unsigned int i;

	tap_begin("record: pack/unpack round trip, both scales, saturation");
	for (i = 0; i < sizeof(delays) / sizeof(delays[0]); i++) {
		u64 d = delays[i];
		/* exact below 2^23 ns, rounded down to 128 ns above */
		u64 want = d <= DCC_RXTS_DELAY_MAX ? d : d & ~127ULL;

		r = dcc_rxts_unpack(dcc_rxts_pack(0xdeadbeef, DCC_RXTS_REC_SW,
						  0x2a, d));
		CHECK(r.ack_seq == 0xdeadbeef && r.src == DCC_RXTS_REC_SW &&
		      r.tag == 0x2a && r.host_ns == want,
		      "delay %llu: got seq %x src %u tag %x host %llu",
		      (unsigned long long)d, r.ack_seq, r.src, r.tag,
		      (unsigned long long)r.host_ns);
	}
	/* the record holds more than the largest bound (1 s) */
	CHECK(DCC_RXTS_REC_MAX_NS > 1000 * MS, "max %llu",
	      (unsigned long long)DCC_RXTS_REC_MAX_NS);
	/* saturation stays above every bound, so the delay is refused */
	r = dcc_rxts_unpack(dcc_rxts_pack(1, DCC_RXTS_REC_HW, 0, U64_MAX));
	CHECK(r.host_ns == DCC_RXTS_REC_MAX_NS, "saturated %llu",
	      (unsigned long long)r.host_ns);
	CHECK(dcc_rxts_accept(r.host_ns, false, 0, 1000 * MS) == DCC_RXTS_TOO_OLD,
	      "saturated delay refused by the largest bound");
	/* fields do not bleed into each other */
	r = dcc_rxts_unpack(dcc_rxts_pack(U32_MAX, DCC_RXTS_REC_REFUSED, 0xff, 0));
	CHECK(r.ack_seq == U32_MAX && r.src == DCC_RXTS_REC_REFUSED &&
	      r.tag == 0x3f && r.host_ns == 0, "all-ones fields");
	r = dcc_rxts_unpack(dcc_rxts_pack(0, DCC_RXTS_REC_NONE, 0,
					  DCC_RXTS_REC_MAX_NS));
	CHECK(r.ack_seq == 0 && r.src == DCC_RXTS_REC_NONE && r.tag == 0,
	      "largest delay leaves the other fields 0");
	tap_end();
}

int main(void)
{
	tap_header();
	test_host_delay();
	test_wraps();
	test_accept_rtt();
	test_accept_bound();
	test_record();
	return tap_done();
}
