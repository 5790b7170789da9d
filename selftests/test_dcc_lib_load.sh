#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Load and unload the dcc_lib helper module three times; then its RX
# timestamp parameters: every mode switch at run time, garbage refused
# with the value kept, and the sample counters moving under a dcc flow
# on loopback (rx_timestamps=auto: software stamps, else the stack clock).
# Skips (exit 4) when dcc_lib is not installed, unless DCC_REQUIRE_MODULES=1,
# in which case a missing module is a failure.
source "$(dirname "$0")/lib.sh"

CYCLES=${DCC_LIB_LOAD_CYCLES:-3}
MOD=dcc_lib

ktap_print_header
require_root
require_cmd modprobe modinfo

if ! modinfo "$MOD" >/dev/null 2>&1; then
	if [[ ${DCC_REQUIRE_MODULES:-0} == 1 ]]; then
		ktap_set_plan 1
		ktap_test_fail "$MOD module installed (DCC_REQUIRE_MODULES=1)"
		ktap_finished
	fi
	ktap_skip_all "$MOD.ko not installed"
fi

ktap_set_plan $((2 * CYCLES + 10))
dmesg_mark
log_info "$MOD: $(modinfo -n "$MOD")"

# A module that holds dcc_lib (an algorithm left loaded by an earlier test)
# has to go first; that fails if a socket still uses it.
unload() {
	local h
	if [[ -d /sys/module/$MOD/holders ]]; then
		for h in /sys/module/$MOD/holders/*; do
			[[ -e $h ]] && modprobe -r "$(basename "$h")" 2>/dev/null
		done
	fi
	modprobe -r "$MOD"
}

if [[ -d /sys/module/$MOD ]]; then
	if unload; then
		ktap_test_pass "$MOD was loaded; unloaded it first"
	else
		ktap_test_fail "$MOD was loaded and cannot be unloaded (refcnt $(cat /sys/module/$MOD/refcnt 2>/dev/null))"
	fi
else
	ktap_test_pass "$MOD not loaded at start"
fi

for ((i = 1; i <= CYCLES; i++)); do
	if log_cmd modprobe "$MOD" && [[ -d /sys/module/$MOD ]]; then
		ktap_test_pass "cycle $i: modprobe $MOD, /sys/module/$MOD exists"
	else
		ktap_test_fail "cycle $i: modprobe $MOD"
	fi
	if log_cmd modprobe -r "$MOD" && [[ ! -d /sys/module/$MOD ]]; then
		ktap_test_pass "cycle $i: modprobe -r $MOD, /sys/module/$MOD gone"
	else
		ktap_test_fail "cycle $i: modprobe -r $MOD"
	fi
done

# ---- RX timestamps (docs/rx-timestamps.md) ----
P=/sys/module/$MOD/parameters
rxsum() { echo $(($(cat $P/rx_hw) + $(cat $P/rx_sw) + $(cat $P/rx_stack))); }

log_cmd modprobe "$MOD" rx_timestamps=sw
ok=1
[[ $(cat $P/rx_timestamps) == sw ]] || { log_info "rx_timestamps=$(cat $P/rx_timestamps) after load with sw"; ok=0; }
[[ $(cat $P/rx_hw_clock) == tai && $(cat $P/rx_host_max_us) == 1000 ]] || {
	log_info "defaults: rx_hw_clock=$(cat $P/rx_hw_clock) rx_host_max_us=$(cat $P/rx_host_max_us)"; ok=0; }
for m in off hw auto sw off auto; do
	echo $m >$P/rx_timestamps && [[ $(cat $P/rx_timestamps) == "$m" ]] ||
		{ log_info "rx_timestamps write $m: reads $(cat $P/rx_timestamps)"; ok=0; }
done
for c in real tai; do
	echo $c >$P/rx_hw_clock && [[ $(cat $P/rx_hw_clock) == "$c" ]] || ok=0
done
echo 1 >$P/rx_host_max_us && echo 1000000 >$P/rx_host_max_us && echo 1000 >$P/rx_host_max_us || ok=0
ktap_test_result "rx_timestamps off/hw/auto/sw, rx_hw_clock, rx_host_max_us edges: accepted and read back" [ $ok = 1 ]

ktap_params_refused "$MOD" "rx_timestamps on" "rx_timestamps 1" "rx_timestamps autox" \
	"rx_timestamps -" "rx_hw_clock utc" "rx_hw_clock 0" "rx_host_max_us 0" \
	"rx_host_max_us 1000001" "rx_host_max_us -1" "rx_host_max_us 4294967296"
[[ $(cat $P/rx_timestamps) == auto ]]
ktap_test_result "rx_timestamps still auto after the refused writes" [ $? = 0 ]

if log_cmd modprobe -r "$MOD" && ! modprobe "$MOD" rx_timestamps=bogus 2>/dev/null &&
	[[ ! -d /sys/module/$MOD ]]; then
	ktap_test_pass "modprobe $MOD rx_timestamps=bogus fails"
else
	ktap_test_fail "modprobe $MOD rx_timestamps=bogus fails"
fi

# a dcc flow over loopback: samples are counted, the stamps used
CC=oscar
log_cmd modprobe "$MOD" rx_timestamps=auto
if command -v iperf3 >/dev/null && modprobe tcp_$CC 2>/dev/null; then
	before=$(rxsum)
	iperf3 -s -1 -p 5299 >/dev/null 2>&1 &
	srv=$!
	sleep 1
	iperf3 -c 127.0.0.1 -p 5299 -C $CC -t 3 >/dev/null 2>&1 || log_info "iperf3 client failed"
	wait $srv 2>/dev/null
	after=$(rxsum)
	log_info "auto: rx_hw $(cat $P/rx_hw) rx_sw $(cat $P/rx_sw) rx_stack $(cat $P/rx_stack) rx_rejects $(cat $P/rx_rejects) rx_no_record $(cat $P/rx_no_record) rx_tx_ns $(cat $P/rx_tx_ns)"
	# 307 in a TCG guest (64 KB loopback segments, few ACKs); any live
	# flow makes hundreds in 3 s, a dead probe path or counter none
	ktap_test_result "auto: a 3 s $CC flow counted $((after - before)) samples (>= 100)" [ $((after - before)) -ge 100 ]
	# loopback restamps at IP delivery (REALTIME): most samples use it
	ktap_test_result "auto: rx_sw $(cat $P/rx_sw) > half of the samples, rx_stack $(cat $P/rx_stack) >= rx_rejects + rx_no_record" \
		[ $(($(cat $P/rx_sw) * 2)) -gt $((after - before)) -a \
		  $(cat $P/rx_stack) -ge $(($(cat $P/rx_rejects) + $(cat $P/rx_no_record))) ]
	# the probe's ns send time matches the skb the stack timed
	ktap_test_result "auto: rx_tx_ns $(cat $P/rx_tx_ns) samples with a ns-exact send time (> 0)" \
		[ "$(cat $P/rx_tx_ns)" -gt 0 ]
	echo off >$P/rx_timestamps
	before=$(rxsum)
	iperf3 -s -1 -p 5299 >/dev/null 2>&1 &
	srv=$!
	sleep 1
	iperf3 -c 127.0.0.1 -p 5299 -C $CC -t 1 >/dev/null 2>&1 || log_info "iperf3 client failed"
	wait $srv 2>/dev/null
	ktap_test_result "off: no sample counted ($(($(rxsum) - before)))" [ "$(rxsum)" = "$before" ]
	modprobe -r tcp_$CC
else
	ktap_test_skip "auto: dcc flow counters (no iperf3 or tcp_$CC)"
	ktap_test_skip "auto: rx_sw share"
	ktap_test_skip "auto: rx_tx_ns"
	ktap_test_skip "off: no sample counted"
fi
unload

if check_dmesg_clean; then
	ktap_test_pass "no kernel warnings while loading/unloading"
else
	ktap_test_fail "no kernel warnings while loading/unloading"
fi
ktap_finished
