# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# A module's parameter defaults as its source sets them.  Source this file,
# then:
#
#   dcc_initialisers SRC   print "NAME VALUE" for every "static u32 NAME;"
#                          (VALUE 0) and "static u32 NAME = DIGITS;" in SRC
#                          and in the .c files SRC #includes (tcp_timely_p.c
#                          and tcp_sqcc.c include tcp_timely.c); an
#                          initialiser that is a macro is left out
#
# Used by tools/docs-check (the documented defaults) and tools/bench-selftest
# (testbed_params.sh's and dcc-tune's defaults).

dcc_initialisers() { # SRC
	local src=$1
	# the source, then the .c files it includes (word-split: paths)
	# shellcheck disable=SC2046
	cat "$src" $(sed -n 's|^#include "\([^"]*\.c\)".*|'"$(dirname "$src")"'/\1|p' "$src") |
		sed -n 's/^static u32 \([a-z_0-9]*\)\( = \([0-9][0-9]*\)\)\{0,1\};.*/\1 \3/p' |
		awk '{ print $1, ($2 == "" ? 0 : $2) }'
}
