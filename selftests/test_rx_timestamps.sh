#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dcc_lib's receive timestamps: the host delay between an ACK's receive
# stamp (NIC hardware stamp, else software stamp) and TCP's processing of
# it is taken out of the RTT samples and of tcp_min_rtt (ss minrtt).
#
# Setup: the usual sender -> router -> receiver path (net_lib.sh), base RTT
# RTT_MS (10 ms: the testbed's; the guest's ~0.3 ms of RTT noise is then
# far below the D it must tell apart) at 20 Mbit/s (a light load for the
# TCG guest), one OSCAR flow per case (the testbed's parameters).  On the
# sender, a known host delay D = D_US after the stamp: the test module
# selftests/modules/dcc_rxts_inject.c stamps every packet received on the
# sender's eth0 at netif_receive_skb, before the ingress qdisc, which
# redirects (mirred) every packet to ifb0, whose netem holds it D; ifb
# re-injects it on eth0 (not stamped again) and TCP sees it D after its
# stamp, as a busy host would.  rx_host_max_us is raised above D.
#
# Cases (dcc_lib parameters / inject module parameters): the sender's ss
# minrtt against the idle ping RTT measured before the ifb (BASE):
#   off                      minrtt >= BASE + D - MARGIN  (D included)
#   hw, hw stamps            |minrtt - BASE| <= TOL, rx_hw rose
#   auto, sw stamps only     |minrtt - BASE| <= TOL, rx_sw rose
#   hw, stamp 1 s ahead      D included, rx_rejects rose
#   hw, stamp 10 s old       D included, rx_rejects rose
#   hw, D > rx_host_max_us   D included, rx_rejects rose
# then, with the guest's TAI offset set to TAI_S (dcc_tai; 0 otherwise, and
# TAI and REALTIME would read the same), the NIC clock's timescale:
#   hw, stamp tai, rx_hw_clock tai    |minrtt - BASE| <= TOL, rx_hw rose
#   hw, stamp real, rx_hw_clock tai   D included (TAI_S s old), rx_rejects rose
#   hw, stamp tai, rx_hw_clock real   D included (TAI_S s ahead), rx_rejects rose
# and bad writes to rx_timestamps / rx_hw_clock / rx_host_max_us refused.
# Measured (icount guest, 6.1 and 6.12 alike, D = 3 ms): BASE 10.035 ms,
# ping through the ifb 13.04 ms; minrtt off 13.03 ms, hw and sw 10.02 ms,
# refused stamps 13.03 ms; ~4100 samples per 3 s flow, each counted in
# rx_hw, rx_sw or rx_rejects as the case wants; with TAI = UTC + 37 s,
# TAI stamps read as TAI 10.02 ms, in the wrong timescale 13.03 ms.  Without the feature the
# hw, sw, refused and parameter cases fail (minrtt 13.03 ms, no counters).
source "$(dirname "$0")/lib.sh"
export OSC_RATE_MBIT=${OSC_RATE_MBIT:-20}
source "$(dirname "$0")/oscar_common.sh"

D_US=${RXTS_D_US:-3000}          # host delay added after the stamp
TOL_US=${RXTS_TOL_US:-1000}      # |minrtt - base| when D is taken out
MARGIN_US=${RXTS_MARGIN_US:-500} # minrtt >= base + D - margin when it is not
DUR=${RXTS_DUR:-3}               # seconds per flow
TAI_S=${RXTS_TAI_S:-37}          # TAI - UTC for the timescale cases
TAI=$DCC_SELFTESTS_DIR/build/dcc_tai
LIB=/sys/module/dcc_lib/parameters
INJ_NAME=dcc_rxts_inject
INJ=/sys/module/$INJ_NAME/parameters

ktap_print_header
require_root
require_cmd iperf3 tc ss jq ping insmod rmmod
[[ -x $TAI ]] || ktap_skip_all "$TAI not built (make -C selftests helpers)"
kver=${DCC_KVER:-$(uname -r)}
ko=$DCC_SELFTESTS_DIR/build/$INJ_NAME-$kver.ko
if [[ ! -f $ko ]]; then
	[[ ${DCC_REQUIRE_MODULES:-0} == 1 ]] || ktap_skip_all "$ko not built (make -C selftests modules KDIR=...)"
	ktap_set_plan 1
	ktap_test_fail "$ko built (make -C selftests modules KDIR=<headers of $kver>)"
	ktap_finished
fi
oscar_require
ktap_set_plan 34

# ---- dcc_lib's parameters -------------------------------------------------
# lib_set PARAM VALUE: write it; a missing parameter or a refusal is logged
lib_set() {
	if [[ ! -e $LIB/$1 ]]; then
		log_info "dcc_lib has no parameter $1"
		return 1
	fi
	echo "$2" 2>/dev/null >"$LIB/$1" || { log_info "dcc_lib $1=$2 refused (now $(cat "$LIB/$1"))"; return 1; }
}
lib_get() { cat "$LIB/$1" 2>/dev/null || echo missing; }
lib_restore() {
	local p v
	for p in rx_timestamps=auto rx_hw_clock=tai rx_host_max_us=1000; do
		v=${p#*=} p=${p%%=*}
		[[ -e $LIB/$p ]] && echo "$v" 2>/dev/null >"$LIB/$p"
	done
	return 0
}
dcc_on_exit lib_restore
COUNTERS=(rx_hw rx_sw rx_stack rx_rejects rx_no_record)
# counters_snap ARRAY: the dcc_lib counters (missing = -1) into ARRAY
counters_snap() {
	local -n _a=$1
	local c v
	for c in "${COUNTERS[@]}"; do
		v=$(lib_get "$c")
		[[ $v =~ ^[0-9]+$ ]] || v=-1
		_a[$c]=$v
	done
}

# ---- the inject module ----------------------------------------------------
inj_get() { cat "$INJ/$1" 2>/dev/null || echo missing; }
inj_set() { echo "$2" >"$INJ/$1"; }
inj_unload() { [[ -d /sys/module/$INJ_NAME ]] && rmmod "$INJ_NAME"; return 0; }

net_setup --rate-mbit "$OSC_RATE" --rtt-ms "$OSC_RTT" --limit-pkts 100 ||
	{ ktap_test_fail "net_setup"; ktap_finished; }
net_quickack
S=${NET_NS_S[0]}
base=$(net_ping_rtt --count 20)
base_us=$(fround "$base * 1000" 0)
log_info "idle RTT (ping, before the ifb): BASE $base ms; D $D_US us, tolerance $TOL_US us, margin $MARGIN_US us"
dcc_result base_rtt_us "$base_us"

# 1. the module loads; stamps only the sender's eth0 (ifindex + netns)
dcc_on_exit inj_unload
ifidx=$(ip -n "$S" -o link show dev eth0 | awk -F: '{ print $1; exit }')
nsino=$(ip netns exec "$S" readlink /proc/self/ns/net | tr -dc '0-9')
if log_cmd insmod "$ko" ifindex="$ifidx" netns="$nsino" && [[ $(inj_get stamped) == 0 ]]; then
	ktap_test_pass "insmod $INJ_NAME ifindex=$ifidx netns=$nsino (sender eth0), counters read 0"
else
	ktap_test_fail "insmod $INJ_NAME ifindex=$ifidx netns=$nsino"
	ktap_finished
fi

# the host delay: eth0 ingress -> ifb0 (netem D) -> back into eth0
printf '%s\n' "link add ifb0 type ifb" "link set ifb0 up" | ip -n "$S" -b - &&
	printf '%s\n' "qdisc add dev ifb0 root netem delay ${D_US}us limit 100000" \
		"qdisc add dev eth0 handle ffff: ingress" \
		"filter add dev eth0 parent ffff: protocol all prio 1 matchall action mirred egress redirect dev ifb0" |
	tc -n "$S" -b - || { ktap_test_fail "ifb0 + netem ${D_US}us on the sender's ingress"; ktap_finished; }

# 2. the path adds D (ping), every packet stamped once, re-injection seen
s0=$(inj_get stamped) r0=$(inj_get reinjected)
pd=$(net_ping_rtt --count 10)
s1=$(inj_get stamped) r1=$(inj_get reinjected)
ds=$((s1 - s0)) dr=$((r1 - r0))
log_info "ping through the ifb: $pd ms (expected >= BASE + D - margin = $(fcalc "($base_us + $D_US - $MARGIN_US) / 1000") ms); stamped +$ds, reinjected +$dr (11 pings)"
ktap_expect "ifb + netem add D: ping (BASE $base ms)" "$pd" '>=' "$(fcalc "($base_us + $D_US - $MARGIN_US) / 1000")" ms "BASE + D - margin"
ktap_expect "ifb: packets stamped (11 pings)" "$ds" '>=' 11
ktap_expect "ifb: packets re-injected, each once and not re-stamped" "$dr" == "$ds"

lib_set rx_host_max_us $((2 * D_US)) || log_info "(rx_host_max_us not settable: the feature is missing)"

# run_case NAME: one flow; sets MINRTT_US (the sender's last ss minrtt) and
# the counters' deltas in DELTA[...]; inject counters in ISTAMP, IRESTORE
declare -A C0 C1 DELTA
run_case() {
	local name=$1 st0 sr0 mr
	counters_snap C0
	st0=$(inj_get stamped) sr0=$(inj_get sw_restored)
	net_run_flows --cc oscar --n 1 --duration "$DUR" || log_warn "$name: the flow reported an error"
	counters_snap C1
	ISTAMP=$(($(inj_get stamped) - st0)) IRESTORE=$(($(inj_get sw_restored) - sr0))
	for c in "${COUNTERS[@]}"; do
		if ((C0[$c] < 0 || C1[$c] < 0)); then DELTA[$c]=missing; else DELTA[$c]=$((C1[$c] - C0[$c])); fi
	done
	mr=$(awk -F, 'NR > 1 && $2 == 0 && $10 != "" { m = $10 } END { print m }' "$NET_RUN/flows.csv")
	if [[ -z $mr ]]; then
		MINRTT_US=nan
	else
		MINRTT_US=$(fround "$mr * 1000" 0)
	fi
	log_info "$name: minrtt $MINRTT_US us (BASE $base_us, D $D_US); dcc_lib counters: $(for c in "${COUNTERS[@]}"; do printf '%s +%s ' "$c" "${DELTA[$c]}"; done); inject: stamped +$ISTAMP sw_restored +$IRESTORE"
	dcc_result "${name}_minrtt_us" "$MINRTT_US"
	for c in "${COUNTERS[@]}"; do dcc_result "${name}_$c" "${DELTA[$c]}"; done
}
# expect_excludes NAME: D taken out, minrtt within TOL of BASE
expect_excludes() {
	ktap_expect "$1: minrtt" "$MINRTT_US" in "$((base_us - TOL_US))..$((base_us + TOL_US))" us "BASE $base_us us +- $TOL_US: D $D_US us taken out"
}
# expect_includes NAME: D kept, minrtt >= BASE + D - MARGIN
expect_includes() {
	ktap_expect "$1: minrtt" "$MINRTT_US" '>=' $((base_us + D_US - MARGIN_US)) us "BASE + D - margin: D kept"
}
# expect_rose NAME COUNTER: the dcc_lib counter rose in the run
expect_rose() { ktap_expect "$1: dcc_lib $2" "${DELTA[$2]}" '>' 0; }
# expect_stamped NAME: the module stamped ACKs of the flow (>= 100 in DUR s)
expect_stamped() { ktap_expect "$1: packets the inject module stamped" "$ISTAMP" '>=' 100; }

# 3. off: the stamps are ignored, D stays in
inj_set hw 1
inj_set sw 0
inj_set offset_ns 0
lib_set rx_timestamps off
run_case off
expect_includes off
expect_stamped off

# 4. hw: the NIC stamp takes D out
lib_set rx_timestamps hw
run_case hw
expect_excludes "hw stamps"
expect_rose "hw stamps" rx_hw

# 5. auto with software stamps only
inj_set hw 0
inj_set sw 1
lib_set rx_timestamps auto
run_case sw
expect_excludes "auto, sw stamps only"
expect_rose "auto, sw stamps only" rx_sw
ktap_expect "auto, sw stamps only: sw stamps carried through the ifb" "$IRESTORE" '>=' 100

# 6-8. refused stamps: fall back to the stack clock, D stays in
inj_set hw 1
inj_set sw 0
lib_set rx_timestamps hw
refused_case() { # NAME DESC
	run_case "$1"
	expect_includes "$2: refused"
	expect_rose "$2" rx_rejects
	expect_stamped "$2"
}
inj_set offset_ns 1000000000
refused_case future "stamp 1 s in the future"
inj_set offset_ns -10000000000
refused_case stale "stamp 10 s old"
inj_set offset_ns 0
lib_set rx_host_max_us $((D_US / 2))
refused_case over_max "host delay D $D_US us > rx_host_max_us $((D_US / 2))"
lib_set rx_host_max_us $((2 * D_US))

# 9-11. the NIC clock's timescale, told apart by a TAI offset of TAI_S s
tai0=$("$TAI")
tai_restore() { "$TAI" "$tai0" >/dev/null; }
dcc_on_exit tai_restore
if [[ $("$TAI" "$TAI_S") == "$TAI_S" ]]; then
	inj_set clock tai
	lib_set rx_hw_clock tai
	run_case tai_tai
	expect_excludes "TAI $TAI_S s, stamps in TAI, rx_hw_clock tai"
	expect_rose "TAI $TAI_S s, stamps in TAI, rx_hw_clock tai" rx_hw
	inj_set clock real
	refused_case real_as_tai "stamps in REALTIME read as TAI ($TAI_S s old)"
	inj_set clock tai
	lib_set rx_hw_clock real
	refused_case tai_as_real "stamps in TAI read as REALTIME ($TAI_S s ahead)"
	lib_set rx_hw_clock tai
else
	# as many results as the three cases give (2 + 3 + 3)
	for c in "tai stamps read as tai" "real stamps read as tai" "tai stamps read as real"; do
		for n in 1 2 3; do
			[[ $c == "tai stamps read as tai" && $n == 3 ]] && continue
			ktap_test_fail "$c ($n): cannot set the TAI offset to $TAI_S s (dcc_tai)"
		done
	done
fi
tai_restore

# 12-14. bad parameter writes: refused, value kept
bad_writes() { # PARAM GOOD BAD...
	local p=$1 good=$2 all=1 v
	shift 2
	[[ -e $LIB/$p ]] || { log_info "dcc_lib has no parameter $p"; return 1; }
	lib_set "$p" "$good" || return 1
	for v in "$@"; do
		param_write_refused dcc_lib "$p" "$v" || all=0
	done
	[[ $all == 1 && $(lib_get "$p") == *"$good"* ]]
}
ktap_test_result "rx_timestamps: writes bogus, \"\", HW, 1 refused, value (sw) kept" \
	bad_writes rx_timestamps sw bogus "" HW 1
ktap_test_result "rx_hw_clock: writes bogus, \"\", mono refused, value (real) kept" \
	bad_writes rx_hw_clock real bogus "" mono
ktap_test_result "rx_host_max_us: writes 0, 1000001, -1, x refused, value (2000) kept" \
	bad_writes rx_host_max_us 2000 0 1000001 -1 x
lib_restore

# 15. the inject module's own clock parameter
ok=1
param_write_refused "$INJ_NAME" clock bogus || ok=0
inj_set clock real && [[ $(inj_get clock) == real ]] || ok=0
inj_set clock tai
ktap_test_result "$INJ_NAME clock: bogus refused, real accepted" [ $ok = 1 ]

# 16. unload
net_cleanup
if log_cmd rmmod "$INJ_NAME" && [[ ! -d /sys/module/$INJ_NAME ]]; then
	ktap_test_pass "rmmod $INJ_NAME"
else
	ktap_test_fail "rmmod $INJ_NAME"
fi
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
