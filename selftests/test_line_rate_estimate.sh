#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The estimate-mode line rate (OSCAR's mu, CCC's R_l with line_rate_mbps = 0)
# is shared by the flows of one network namespace through one egress device
# (dcc_lib's dcc_shared_line_rate), not host-wide: a flow over loopback or a
# fast local link runs at whatever the CPU allows, and if its rate became
# the NIC's mu every later flow would take a share u of a rate the path
# never had.  Namespace a has two veths: va1 to namespace b, unshaped, and
# va2 to namespace c, shaped to 50 Mbit/s.  An OSCAR flow a -> b raises
# mu on va1; then a flow a -> c, same namespace, other device, must keep
# the estimate floor (init_rate_mbps, 100 Mbit/s).  mu is read from ss
# (bw = u * mu, pacing_gain = u).  dcc_lib's shared_entries must stay within
# its 129 slots (two tables of 64 and the RTT_ref word); its write-only
# shared_reset refuses anything but 1 and, written 1, empties them (every
# scenario test's net_setup does, so that none inherits this test's 2 ms
# RTT_ref).  The fast flow runs
# with eps_us = 65535 (every batch reads
# as an empty queue, so u stays 1 and mu climbs 1.25x per batch to what the
# CPU sustains; at the default the guest's RTT noise holds u below 0.8 and mu
# at the floor, and the test could not tell shared from separate) and the
# receivers ACK every segment (route quickack: a delayed ACK's RTT is no
# sample, and loopback's 64 KB segments are all delayed-ACKed, so loopback
# cannot serve).  va1 adds 2 ms of delay: on a bare veth (~11 us RTT) the
# window is 2 packets, and the stack marks nearly every ACK of a 2-packet
# window "maybe delayed" (rs->is_ack_delayed), which dcc_sample_get()
# refuses, so no batch would close and mu could not move either way.
# Offloads are off on both veths (as on the testbed's paths): with GRO, one
# ACK covers ~9 segments, a batch of min_samples ACKs outlasts OSCAR's
# staleness limit (sized for one ACK per segment), and every batch closes
# stale, without a rate.
#
# Where the egress device reports a link speed, estimate mode takes it
# instead (dcc_lib's dev_speed): by default only from devices backed by
# hardware, so a veth's fixed 10 Gbit/s is ignored (the checks above run
# with the default) and the guest's two wired virtio NICs (tools/vmtest:
# 25 Gbit/s) are taken at once; dev_speed = 2 takes the veth's too, 0 none.
source "$(dirname "$0")/lib.sh"

MOD=tcp_oscar
P=/sys/module/$MOD/parameters
L=/sys/module/dcc_lib/parameters
NS=dcclre$$

ktap_print_header
require_root
require_cmd modprobe iperf3 jq ip tc ss ethtool
if ! modinfo "$MOD" >/dev/null 2>&1; then
	[[ ${DCC_REQUIRE_MODULES:-0} == 1 ]] || ktap_skip_all "$MOD.ko not installed"
fi
ktap_set_plan 10
dmesg_mark
modprobe "$MOD" || ktap_skip_all "modprobe $MOD failed"
old_line=$(cat $P/line_rate_mbps)
old_init=$(cat $P/init_rate_mbps)
old_eps=$(cat $P/eps_us)

old_speed=$(cat $L/dev_speed)

cleanup() {
	echo "$old_line" >$P/line_rate_mbps
	echo "$old_init" >$P/init_rate_mbps
	echo "$old_eps" >$P/eps_us
	echo "$old_speed" >$L/dev_speed
	local n
	for n in a b c d e; do
		ip netns pids "${NS}$n" 2>/dev/null | xargs -r kill 2>/dev/null
		ip netns del "${NS}$n" 2>/dev/null
	done
	# the NICs fall back to the initial namespace when theirs goes; the
	# tests after this one own that namespace's device names (net_lib
	# creates eth0): unbind them if this test bound them
	((loaded_nic)) && modprobe -r virtio_net 2>/dev/null
	return 0
}
loaded_nic=0
dcc_on_exit cleanup
echo 0 >$P/line_rate_mbps	# estimate mode (the default)
echo 100 >$P/init_rate_mbps	# its floor (the default)

# veth va<k> in a (10.9.<k>.1) to vb in namespace <peer> (10.9.<k>.2)
link_pair() { # K PEER
	ip link add "va$1" netns "${NS}a" type veth peer name vb netns "${NS}$2" &&
		ip -n "${NS}a" addr add "10.9.$1.1/24" dev "va$1" &&
		ip -n "${NS}$2" addr add "10.9.$1.2/24" dev vb &&
		ip -n "${NS}a" link set "va$1" up && ip -n "${NS}$2" link set vb up &&
		ip -n "${NS}$2" link set lo up &&
		ip -n "${NS}$2" route replace "10.9.$1.0/24" dev vb quickack 1 &&
		ip netns exec "${NS}a" ethtool -K "va$1" tso off gso off gro off >/dev/null &&
		ip netns exec "${NS}$2" ethtool -K vb tso off gso off gro off >/dev/null
}
ip netns add "${NS}a" && ip netns add "${NS}b" && ip netns add "${NS}c" &&
	ip -n "${NS}a" link set lo up && link_pair 1 b && link_pair 2 c &&
	ip netns exec "${NS}a" tc qdisc add dev va1 root netem delay 2ms limit 10000 &&
	ip netns exec "${NS}a" tc qdisc add dev va2 root tbf rate 50mbit burst 16k latency 20ms ||
	ktap_skip_all "could not build the three-namespace paths"

# mu of the first oscar flow ss shows in namespace $1 to port $2, Mbit/s
oscar_mu_mbps() {
	ip netns exec "$1" ss -tinH "dport = :$2" 2>/dev/null | awk '
	function bps(v) {
		if (v ~ /Gbps$/) return v * 1e9; if (v ~ /Mbps$/) return v * 1e6
		if (v ~ /Kbps$/) return v * 1e3; return v + 0
	}
	/oscar/ && match($0, /bw:[0-9.]+[KMG]?bps/) {
		bw = bps(substr($0, RSTART + 3, RLENGTH - 3))
		if (match($0, /pacing_gain:[0-9.]+/)) g = substr($0, RSTART + 12, RLENGTH - 12) + 0
		if (g > 0) { printf "%.1f\n", bw / g / 1e6; exit }
	}'
}

# 1. a fast flow a -> b through va1
ip netns exec "${NS}b" iperf3 -s -D -p 5320
ip netns exec "${NS}c" iperf3 -s -D -p 5321
sleep 0.3
echo 65535 >$P/eps_us		# snapshotted by the fast flow's sockets
ip netns exec "${NS}a" timeout 20 iperf3 -c 10.9.1.2 -p 5320 -t 3 -C oscar -J \
	>/tmp/lre-lo.json 2>/dev/null &
sleep 1
echo "$old_eps" >$P/eps_us
sleep 1.5
mu_lo=$(oscar_mu_mbps "${NS}a" 5320)
wait
lo_bps=$(jq -r '.end.sum_received.bits_per_second // 0' /tmp/lre-lo.json)
log_info "fast flow (va1): $(fround "$lo_bps/1e6" 1) Mbit/s, its mu ${mu_lo:-?} Mbit/s"

# 2. then a flow a -> c through the 50 Mbit/s va2, same namespace
ip netns exec "${NS}a" timeout 20 iperf3 -c 10.9.2.2 -p 5321 -t 3 -C oscar -J \
	>/tmp/lre-veth.json 2>/dev/null &
sleep 2
mu_veth=$(oscar_mu_mbps "${NS}a" 5321)
wait
veth_bps=$(jq -r '.end.sum_received.bits_per_second // 0' /tmp/lre-veth.json)
log_info "shaped flow (va2): $(fround "$veth_bps/1e6" 1) Mbit/s, its mu ${mu_veth:-?} Mbit/s"
dcc_result mu_fast_mbps "${mu_lo:-0}"
dcc_result mu_shaped_mbps "${mu_veth:-0}"

ktap_expect "the fast flow's mu grew past the floor" "$mu_lo" '>' 200 Mbit/s \
	"else this test cannot tell"
ktap_expect "a flow on another device keeps its own estimate: mu" "$mu_veth" '<' 200 Mbit/s \
	"floor 100, path 50"
# 3. the veth's reported speed (10 Gbit/s) counts only with dev_speed = 2
# (eps_us 65535 as for the fast flow: u stays 1, so ss's bw is mu itself;
# at u ~ 0.005, as mu = 10 Gbit/s on the 50 Mbit/s path would leave it,
# pacing_gain's 1/256 steps would make bw / pacing_gain meaningless)
speed_flow() { # NS ADDR PORT: mu (Mbit/s) of a 2 s oscar flow from NS
	echo 65535 >$P/eps_us
	ip netns exec "$1" timeout 20 iperf3 -c "$2" -p "$3" -t 2 -C oscar \
		>/dev/null 2>&1 &
	sleep 1
	echo "$old_eps" >$P/eps_us
	oscar_mu_mbps "$1" "$3"
	wait
}
echo 2 >$L/dev_speed
mu_any=$(speed_flow "${NS}a" 10.9.2.2 5321)
echo "$old_speed" >$L/dev_speed
log_info "dev_speed 2, shaped flow (va2, veth says 10000 Mbit/s): mu ${mu_any:-?} Mbit/s"
ktap_expect "dev_speed 2: a flow on a veth takes its reported speed as mu" "$mu_any" in 9999..10001 Mbit/s

# 4. the guest's two wired virtio NICs (25 Gbit/s): hardware, taken by default
hw_nics=()
[[ -d /sys/module/virtio_net ]] || loaded_nic=1
if modprobe virtio_pci 2>/dev/null && modprobe virtio_net 2>/dev/null; then
	sleep 0.5
	for d in /sys/class/net/*; do
		[[ $(readlink -f "$d/device/driver" 2>/dev/null) == */virtio_net ]] || continue
		# a name of our own: they come back to this namespace at the end
		ip link set "${d##*/}" name "dcchw${#hw_nics[@]}" 2>/dev/null &&
			hw_nics+=("dcchw${#hw_nics[@]}")
	done
fi
if ((${#hw_nics[@]} == 2)) && ip netns add "${NS}d" && ip netns add "${NS}e" &&
	ip link set "${hw_nics[0]}" netns "${NS}d" && ip link set "${hw_nics[1]}" netns "${NS}e" &&
	ip -n "${NS}d" addr add 10.9.3.1/24 dev "${hw_nics[0]}" &&
	ip -n "${NS}e" addr add 10.9.3.2/24 dev "${hw_nics[1]}" &&
	ip -n "${NS}d" link set "${hw_nics[0]}" up && ip -n "${NS}e" link set "${hw_nics[1]}" up &&
	ip -n "${NS}e" route replace 10.9.3.0/24 dev "${hw_nics[1]}" quickack 1; then
	ip netns exec "${NS}e" iperf3 -s -D -p 5322
	sleep 1		# the virtio link up, its speed read (NETDEV_UP/CHANGE)
	spd=$(ip netns exec "${NS}d" ethtool "${hw_nics[0]}" 2>/dev/null | awk '/Speed:/ { print $2 + 0 }')
	mu_hw=$(speed_flow "${NS}d" 10.9.3.2 5322)
	echo 0 >$L/dev_speed
	mu_off=$(speed_flow "${NS}d" 10.9.3.2 5322)
	echo "$old_speed" >$L/dev_speed
	log_info "virtio NIC ${hw_nics[0]} (ethtool: ${spd:-?} Mbit/s): mu ${mu_hw:-?} Mbit/s by default, ${mu_off:-?} with dev_speed 0"
	ktap_expect "a hardware NIC's link speed is mu at once" "$mu_hw" in 24999..25001 Mbit/s \
		"ethtool ${spd:-?}"
	ktap_expect "dev_speed 0: the same NIC is estimated, mu" "$mu_off" '<' 24999 Mbit/s
else
	ktap_test_skip "a hardware NIC's link speed is mu at once: no pair of virtio NICs (tools/vmtest wires two)"
	ktap_test_skip "dev_speed 0: the same NIC is estimated"
fi

# 5. bad input: refused, the value kept
bad_ok=1
for v in 3 -1 x ""; do
	echo "$v" >$L/dev_speed 2>/dev/null && bad_ok=0
done
ktap_test_result "dev_speed refuses 3, -1, x and empty, keeps $(cat $L/dev_speed) ($old_speed)" \
	eval '((bad_ok)) && [[ $(cat $L/dev_speed) == "$old_speed" ]]'

n=$(cat /sys/module/dcc_lib/parameters/shared_entries 2>/dev/null)
ktap_test_result "dcc_lib shared_entries ${n:-?} within its 129 slots and > 0" \
	eval '[[ -n $n ]] && ((n > 0 && n <= 129))'
# shared_reset (write-only): anything but 1 refused and nothing forgotten;
# 1 empties both tables and RTT_ref
R=$L/shared_reset
bad_ok=1
for v in 0 2 x ""; do
	echo "$v" >"$R" 2>/dev/null && { log_info "shared_reset=$v was accepted"; bad_ok=0; }
done
n2=$(cat $L/shared_entries 2>/dev/null)
ktap_test_result "dcc_lib shared_reset refuses 0, 2, x and empty, forgets nothing (entries ${n2:-?}, were ${n:-?})" \
	eval '((bad_ok)) && [[ -n $n2 && $n2 == "$n" ]]'
echo 1 >"$R" 2>/dev/null || log_info "shared_reset=1 was refused"
ktap_expect "dcc_lib shared_entries after shared_reset=1" \
	"$(cat $L/shared_entries 2>/dev/null)" == 0
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
