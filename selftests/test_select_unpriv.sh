#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Selection by an unprivileged process, for every name dcc registers:
# dcc_conn drops to uid/gid 65534 with no capabilities (after creating the
# listener socket, which entering the namespaces needs root for) and calls
# setsockopt(TCP_CONGESTION, NAME) on its client sockets before connect()
# and on the listener before listen().
#   - NAME not in net.ipv4.tcp_allowed_congestion_control: every attempt
#     fails with EPERM, before and after the handshake, and the socket keeps
#     the namespace default; no module reference is taken;
#   - NAME allowed: SEL_N short connections run NAME on both ends, nothing
#     left behind (select_common.sh).
# The allowed list is global (written in the initial namespace) and put
# back at exit.
source "$(dirname "$0")/select_common.sh"

UID_NOBODY=65534
sel_require
ktap_set_plan $((3 * ${#SEL_NAMES[@]} + 1))
dmesg_mark

ALLOWED=/proc/sys/net/ipv4/tcp_allowed_congestion_control
orig_allowed=$(<$ALLOWED)
C=seluc$$ S=selus$$
dcc_on_exit "sel_ns_delete $C $S; echo '$orig_allowed' >$ALLOWED"
sel_ns_create "$C" "$S" || ktap_skip_all "cannot create the namespaces"
def=$(ip netns exec "$C" sysctl -n net.ipv4.tcp_congestion_control)
log_info "uid $UID_NOBODY; allowed at start '$orig_allowed'; namespace default $def; $SEL_N connections per allowed name"

for n in "${SEL_NAMES[@]}"; do
	mod=${SEL_MOD[$n]}
	# not allowed: the list without NAME (the default stays allowed)
	notallowed=$(tr ' ' '\n' <<<"$orig_allowed $def" | grep -v -x -e "$n" -e '' | sort -u | tr '\n' ' ')
	echo "$notallowed" >$ALLOWED
	ref0=$(<"/sys/module/$mod/refcnt")
	out=
	ok=1
	for when in before after; do
		out+=$("$SEL_CONN" short --client-ns "$C" --server-ns "$S" --addr "$SEL_ADDR" \
			--port "$SEL_PORT" -n 20 --uid $UID_NOBODY --cc "$n" --when "$when" \
			--refuse EPERM --expect "$def" 2>&1)$'\n' || ok=0
	done
	ref1=$(sel_wait_refcnt "$mod" "$ref0")
	if ((ok)) && [[ $ref1 == "$ref0" ]]; then
		ktap_test_pass "unpriv $n not allowed ('$(<$ALLOWED)'): EPERM before and after the handshake, client and server, sockets keep $def, $mod refcnt $ref0 -> $ref1"
	else
		ktap_test_fail "unpriv $n not allowed: EPERM, sockets keep $def, $mod refcnt unchanged ($ref0 -> $ref1)"
		sed 's/^/#   /' <<<"$out" | head -n 10
	fi
	echo "$orig_allowed $n" >$ALLOWED
	sel_check unpriv-allowed "$n" "$C" "$S" --uid $UID_NOBODY --cc "$n" --when before
	echo "$orig_allowed" >$ALLOWED
done
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
