#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Selection by route, for every name dcc registers: `ip route ... congctl
# NAME` on the client's route to the server and on the server's route back,
# so the client socket takes NAME at connect() and the accepted one when
# the request socket is set up: both before the handshake completes, so the
# stack may call cong_control on the handshake's ACK before init.  The
# namespaces' default stays the kernel's.  SEL_N short connections per name
# with no setsockopt, getsockopt on both ends; nothing left behind
# (select_common.sh).  A route with an unknown congctl is refused and the
# routes stay as they were; without the congctl routes the sockets are back
# on the namespace default.
source "$(dirname "$0")/select_common.sh"

sel_require
ktap_set_plan $((2 * ${#SEL_NAMES[@]} + 3))
dmesg_mark

C=selrc$$ S=selrs$$
dcc_on_exit sel_ns_delete "$C" "$S"
sel_ns_create "$C" "$S" || ktap_skip_all "cannot create the namespaces"
def=$(ip netns exec "$C" sysctl -n net.ipv4.tcp_congestion_control)
log_info "$SEL_N connections per name; routes $SEL_ADDR/32 in $C and $SEL_CADDR/32 in $S with congctl NAME; namespace default $def"

for n in "${SEL_NAMES[@]}"; do
	if ! ip -n "$C" route replace "$SEL_ADDR/32" dev v0 congctl "$n" ||
		! ip -n "$S" route replace "$SEL_CADDR/32" dev v1 congctl "$n"; then
		ktap_test_fail "route $n: ip route replace ... congctl $n"
		ktap_test_skip "route $n: nothing left behind (no route)"
		continue
	fi
	log_debug "$(ip -n "$C" route show "$SEL_ADDR/32")"
	sel_check route "$n" "$C" "$S"
done

# an unknown congctl: refused, the routes stay
before=$(ip -n "$C" route show)
err=$(ip -n "$C" route replace "$SEL_ADDR/32" dev v0 congctl dcc_no_such_cc 2>&1)
rc=$?
after=$(ip -n "$C" route show)
if ((rc != 0)) && [[ $before == "$after" ]]; then
	ktap_test_pass "ip route replace ... congctl dcc_no_such_cc refused (${err//$'\n'/ }), routes unchanged"
else
	ktap_test_fail "ip route replace ... congctl dcc_no_such_cc refused, routes unchanged (exit $rc)"
	log_info "before: $before"
	log_info "after: $after"
fi

# routes gone: the namespace default again
ip -n "$C" route del "$SEL_ADDR/32" dev v0
ip -n "$S" route del "$SEL_CADDR/32" dev v1
ktap_test_result "congctl routes deleted: client and accepted sockets run the default $def (20 connections)" \
	log_cmd "$SEL_CONN" short --client-ns "$C" --server-ns "$S" --addr "$SEL_ADDR" \
	--port "$SEL_PORT" -n 20 --expect "$def"
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
