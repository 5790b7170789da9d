# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# dcc selftests: common part of the selection-path tests (test_select_*.sh).
# Source it (it sources lib.sh).
#
# A congestion control can be chosen before the handshake completes (the
# namespace default, setsockopt before connect()/listen(), a route's
# congctl) or after it (setsockopt on an established socket).  Each path
# reaches the module's init at a different point of the connection's life;
# each test here drives one path for every name dcc registers, with
# SEL_N short connections per name (dcc_conn short: client and accepted
# socket checked with getsockopt(TCP_CONGESTION) on every connection), and
# then checks that nothing stayed behind:
#   - slab: active objects of every kmalloc cache (kmalloc-*, kmalloc-cg-*,
#     kmalloc-rcl-*, dma-kmalloc-*) after flushing the per-cpu slabs
#     (/sys/kernel/slab/*/shrink) grow by less than SEL_SLAB_MAX plus one
#     slab of that cache (at most 512 objects, kmalloc-8; a reading moves
#     by whole slabs): one object lost per connection is SEL_N (2000)
#     objects or more, over every bound.  Frees the kernel defers (RCU
#     callbacks, socket and namespace teardown in workqueues) may lag the
#     last close: a reading over the bound is repeated for up to
#     SEL_SETTLE_S (5) seconds, and only growth that stays fails (6.12
#     left ~146 kmalloc-96 objects in flight 0.3 s after the connections
#     of one name, once; a leak never settles);
#   - module references: /sys/module/<mod>/refcnt back to its value before
#     the connections (exactly);
#   - live counters a module exposes as read-only parameters: any
#     parameter named *_flows of a dcc module back to its start value
#     exactly, *_entries (tables with expiry) at most SEL_TABLE_MAX above
#     it; absent ones are logged and skipped;
#   - SQCC's per-destination flow count through its behaviour as well
#     (n_source=2: N = this host's sqcc flows to the destination, shown by
#     ss as cwnd_gain): the N a lone sqcc flow sees, probed before and after
#     the connections, may grow by at most 2 (one lost count per connection
#     is SEL_N).
#
# Names: every module of Kbuild's obj-m list is loaded, and the names come
# from tcp_available_congestion_control, each mapped to its module with
# modprobe --resolve-alias tcp_NAME.
#
# Topology: two namespaces joined by one veth pair (no qdisc, no delay),
# client 10.77.0.1, server 10.77.0.2 (SEL_ADDR).
#
# Environment: DCC_SEL_CONNS (SEL_N, default 2000), DCC_SEL_SLAB_MAX
# (default 100), DCC_SEL_NAMES (restrict to these names, for debugging).

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SEL_CONN=$DCC_SELFTESTS_DIR/build/dcc_conn
SEL_N=${DCC_SEL_CONNS:-2000}
SEL_WARM=50		# connections before the "start" snapshot
SEL_SLAB_MAX=${DCC_SEL_SLAB_MAX:-100}
SEL_TABLE_MAX=4
SEL_ADDR=10.77.0.2
SEL_CADDR=10.77.0.1
SEL_PORT=5400
SEL_AVAIL=/proc/sys/net/ipv4/tcp_available_congestion_control
SEL_NAMES=()		# dcc's registered names
declare -A SEL_MOD=()	# name -> module
SEL_MODS=()		# Kbuild's obj-m, dcc_lib first

# sel_require: root, the tools, the helper binary and the modules; sets
# the plan's prerequisites.  A missing helper or module is a failure with
# DCC_REQUIRE_MODULES=1 (make check), a skip otherwise.
sel_require() {
	ktap_print_header
	require_root
	require_cmd modprobe modinfo ip sysctl ss
	if [[ ! -x $SEL_CONN ]]; then
		if [[ ${DCC_REQUIRE_MODULES:-0} == 1 ]]; then
			ktap_set_plan 1
			ktap_test_fail "$SEL_CONN exists (make -C selftests helpers on the host)"
			ktap_finished
		fi
		ktap_skip_all "$SEL_CONN missing (make -C selftests helpers on the host)"
	fi
	if ! modinfo dcc_lib >/dev/null 2>&1; then
		if [[ ${DCC_REQUIRE_MODULES:-0} == 1 ]]; then
			ktap_set_plan 1
			ktap_test_fail "dcc modules installed (DCC_REQUIRE_MODULES=1)"
			ktap_finished
		fi
		ktap_skip_all "dcc modules not installed"
	fi
	sel_discover || ktap_skip_all "no dcc congestion control registered"
}

# sel_discover: load every obj-m module, fill SEL_MODS, SEL_NAMES, SEL_MOD
sel_discover() {
	local kb=$DCC_SELFTESTS_DIR/../Kbuild m n owner
	SEL_MODS=()
	while read -r m; do
		SEL_MODS+=("$m")
	done < <(sed -n 's/^obj-m[[:space:]]*+=[[:space:]]*\([A-Za-z0-9_]*\)\.o.*/\1/p' "$kb")
	((${#SEL_MODS[@]})) || return 1
	for m in "${SEL_MODS[@]}"; do
		modprobe "$m" || log_warn "modprobe $m failed"
	done
	for n in $(<"$SEL_AVAIL"); do
		[[ -n ${DCC_SEL_NAMES:-} && " $DCC_SEL_NAMES " != *" $n "* ]] && continue
		owner=$(modprobe -R "tcp_$n" 2>/dev/null | head -n 1)
		[[ " ${SEL_MODS[*]} " == *" $owner "* && $owner != dcc_lib ]] || continue
		SEL_NAMES+=("$n")
		SEL_MOD[$n]=$owner
	done
	log_info "modules (Kbuild obj-m): ${SEL_MODS[*]}"
	log_info "names: $(for n in "${SEL_NAMES[@]}"; do printf '%s(%s) ' "$n" "${SEL_MOD[$n]}"; done)"
	((${#SEL_NAMES[@]}))
}

# ---- namespaces ---------------------------------------------------------------

# sel_ns_create CLIENT SERVER: the two namespaces and their veth
sel_ns_create() {
	local c=$1 s=$2
	dcc_ns_pair "$c" "$s" "$SEL_CADDR" "$SEL_ADDR" v0 v1 || return 1
	# no per-destination metrics; room for the server's TIME_WAITs
	ip netns exec "$c" sysctl -qw net.ipv4.tcp_no_metrics_save=1 \
		net.ipv4.ip_local_port_range="10000 65000" || return 1
	ip netns exec "$s" sysctl -qw net.ipv4.tcp_no_metrics_save=1 \
		net.ipv4.tcp_max_tw_buckets=262144 || return 1
}

sel_ns_delete() {
	local ns
	for ns in "$@"; do
		[[ -e /run/netns/$ns ]] && ip netns del "$ns"
	done
	return 0
}

# ---- what must come back ----------------------------------------------------

# sel_slab_snap VAR: VAR[cache] = active objects of every kmalloc cache,
# after flushing the per-cpu slabs; SEL_PERSLAB[cache] = objects per slab.
# SLUB counts the objects of a CPU's current slab as in use, and the reading
# itself allocates, so a reading moves by up to a slab: the bound adds one.
declare -A SEL_PERSLAB=()
sel_slab_snap() {
	local -n _snap=$1
	local f name act num size per rest
	for f in /sys/kernel/slab/kmalloc-*/shrink /sys/kernel/slab/dma-kmalloc-*/shrink; do
		[[ -e $f ]] && echo 1 >"$f" 2>/dev/null
	done
	_snap=()
	while read -r name act num size per rest; do
		[[ $name == kmalloc-* || $name == dma-kmalloc-* ]] || continue
		_snap[$name]=$act
		SEL_PERSLAB[$name]=$per
	done </proc/slabinfo
}

# sel_slab_growth BEFORE AFTER: prints "CACHE DELTA SLACK OVER", the cache
# that grew most, its growth and slack (objects per slab), and OVER: every
# cache over its bound SEL_SLAB_MAX + SLACK as CACHE+DELTA,... ("-": none)
sel_slab_growth() {
	local -n _b=$1 _a=$2
	local c d best=none bd=-999999999 over=
	for c in "${!_a[@]}"; do
		d=$((_a[$c] - ${_b[$c]:-0}))
		((d > bd)) && { bd=$d; best=$c; }
		((d < SEL_SLAB_MAX + ${SEL_PERSLAB[$c]:-0})) || over+="${over:+,}$c+$d"
	done
	echo "$best $bd ${SEL_PERSLAB[$best]:-0} ${over:--}"
}

# sel_slab_settle BEFORE AFTER: AFTER = a reading within the bound against
# BEFORE, or, if none comes within SEL_SETTLE_S seconds, the last reading
# (deferred frees: see the header).
SEL_SETTLE_S=${DCC_SEL_SETTLE_S:-5}
sel_slab_settle() {
	local -n _s0=$1
	local _name=$2 cache d slack over i
	for ((i = 0; i <= SEL_SETTLE_S * 2; i++)); do
		((i)) && sleep 0.5
		sel_slab_snap "$_name"
		read -r cache d slack over < <(sel_slab_growth _s0 "$_name")
		[[ $over == - ]] && return 0
	done
	log_info "slab over its bound after ${SEL_SETTLE_S} s: $over"
}

# sel_counters_snap VAR: VAR[mod/param] = value of every live counter
sel_counters_snap() {
	local -n _cnt=$1
	local m f p
	_cnt=()
	for m in "${SEL_MODS[@]}"; do
		for f in /sys/module/"$m"/parameters/*_flows /sys/module/"$m"/parameters/*_entries; do
			[[ -r $f ]] || continue
			# read-only only (n_flows, a tunable, is 0644); root passes -w
			(((8#$(stat -c %a "$f") & 8#222) == 0)) || continue
			p=${f#/sys/module/}
			_cnt[${p/\/parameters/}]=$(<"$f")
		done
	done
}

# sel_wait_refcnt MOD VALUE: wait up to 5 s for refcnt VALUE; prints it
sel_wait_refcnt() {
	local f=/sys/module/$1/refcnt i v
	for ((i = 0; i < 50; i++)); do
		v=$(<"$f")
		[[ $v == "$2" ]] && break
		sleep 0.1
	done
	echo "$v"
}

# sel_sqcc_probe CLIENT SERVER: prints the N a lone sqcc flow from CLIENT
# to SEL_ADDR uses (n_source=2, its local per-destination flow count)
sel_sqcc_probe() {
	local c=$1 s=$2 p=/sys/module/tcp_sqcc/parameters/n_source old tmp pid i n
	[[ -w $p ]] || { echo "-"; return; }
	old=$(<"$p")
	echo 2 >"$p"
	tmp=$DCC_OUT/$DCC_TEST_NAME-sqcc-probe.txt
	"$SEL_CONN" many --client-ns "$c" --server-ns "$s" --addr "$SEL_ADDR" \
		--port $((SEL_PORT + 1)) -n 1 -t 2 --warmup 0.1 --cc sqcc >"$tmp" 2>&1 &
	pid=$!
	for ((i = 0; i < 30; i++)); do
		grep -q '^connected' "$tmp" 2>/dev/null && break
		sleep 0.1
	done
	sleep 1
	n=$(ip netns exec "$c" ss -tin dst "$SEL_ADDR" 2>/dev/null |
		grep -o 'cwnd_gain:[0-9.]*' | head -n 1)
	wait "$pid"
	echo "$old" >"$p"
	n=${n#cwnd_gain:}
	echo "${n:--}"
}

# sel_check PATH NAME CLIENT SERVER DCC_CONN_ARGS...: the connections of one
# name over one path and the checks after them; two KTAP results:
#   "PATH NAME: SEL_N connections, both ends ran NAME"
#   "PATH NAME: nothing left behind (slab, refcnt, counters)"
sel_check() {
	local path=$1 name=$2 c=$3 s=$4
	shift 4
	local mod=${SEL_MOD[$name]} ref0 ref1 out rc cache d slack over why=() n0= n1
	local -A slab0 slab1 cnt0 cnt1
	local args=(--client-ns "$c" --server-ns "$s" --addr "$SEL_ADDR" --port "$SEL_PORT" "$@")

	# warm-up: per-namespace, per-route and first-use state
	"$SEL_CONN" short "${args[@]}" -n "$SEL_WARM" >/dev/null 2>&1
	[[ $name == sqcc ]] && n0=$(sel_sqcc_probe "$c" "$s")
	ref0=$(<"/sys/module/$mod/refcnt")
	sel_counters_snap cnt0
	sel_slab_snap slab0
	out=$("$SEL_CONN" short "${args[@]}" -n "$SEL_N" 2>&1)
	rc=$?
	ref1=$(sel_wait_refcnt "$mod" "$ref0")
	sleep 0.3
	sel_slab_settle slab0 slab1
	sel_counters_snap cnt1
	log_debug "$out"
	if ((rc == 0)); then
		ktap_test_pass "$path $name: $SEL_N connections, client and accepted socket ran $name ($(grep -o 'seconds=[0-9.]*' <<<"$out"))"
	else
		ktap_test_fail "$path $name: $SEL_N connections, client and accepted socket ran $name"
		sed 's/^/#   /' <<<"$out" | head -n 8
	fi

	read -r cache d slack over < <(sel_slab_growth slab0 slab1)
	[[ $over == - ]] || why+=("slab over bound: $over")
	[[ $ref1 == "$ref0" ]] || why+=("$mod refcnt $ref0 -> $ref1")
	local k msg="slab: most growth $cache +$d (bound < $SEL_SLAB_MAX + $slack, one slab), $mod refcnt $ref0 -> $ref1"
	for k in "${!cnt1[@]}"; do
		msg+=", $k ${cnt0[$k]:-?} -> ${cnt1[$k]}"
		if [[ $k == *_flows ]]; then
			[[ ${cnt1[$k]} == "${cnt0[$k]:-}" ]] || why+=("$k ${cnt0[$k]:-?} -> ${cnt1[$k]} (must be equal)")
		elif ((${cnt1[$k]} > ${cnt0[$k]:-0} + SEL_TABLE_MAX)); then
			why+=("$k ${cnt0[$k]:-?} -> ${cnt1[$k]} (bound +$SEL_TABLE_MAX)")
		fi
	done
	if [[ $name == sqcc ]]; then
		[[ -n ${cnt1[tcp_sqcc/dst_flows]:-} ]] ||
			log_info "tcp_sqcc has no read-only dst_flows parameter: that sub-check skipped"
		n1=$(sel_sqcc_probe "$c" "$s")
		msg+=", sqcc N seen by a new lone flow $n0 -> $n1 (bound: +2)"
		if [[ $n0 == - || $n1 == - ]]; then
			log_info "sqcc probe: no N read (no n_source parameter or no ss output)"
		elif ! fle "$n1" "$(fcalc "$n0 + 2")"; then
			why+=("a new lone sqcc flow sees N=$n0 flows to its destination before, N=$n1 after")
		fi
	fi
	if ((${#why[@]} == 0)); then
		ktap_test_pass "$path $name: nothing left behind: $msg"
	else
		ktap_test_fail "$path $name: nothing left behind: ${why[*]}"
		log_info "$msg"
	fi
	dcc_result "$path.$name.slab_max_growth" "$d $cache"
}
