# SPDX-License-Identifier: GPL-2.0
#
# dcc: datacenter delay-based TCP congestion control modules.
#
#   make                  build all modules for the running kernel
#   make KDIR=/path       ... for another kernel's build tree
#   make check            the test suite: userspace unit tests + fuzz,
#                         module build, DKMS build, kselftests in a qemu guest
#   make bench            the head-to-head benchmark in a qemu guest
#   make sim              every module at datacenter scale in ns-3 (tools/sim)
#   make lint             checkpatch --strict and sparse (tools/lint)
#   make install          modules_install into /lib/modules/$(KVER)/updates/dcc
#
# `check` and `bench` install what they need (apt) and boot Debian's cloud
# kernels (6.1, and 6.12 for check's second-kernel subset) under qemu; see
# docs/development.md.

KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build
PWD := $(CURDIR)

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(PWD) modules

install modules_install: modules
	$(MAKE) -C $(KDIR) M=$(PWD) INSTALL_MOD_DIR=updates/dcc modules_install
	depmod -a $(KVER)

clean:
	$(MAKE) -C $(KDIR) M=$(PWD) clean 2>/dev/null || \
		rm -f *.ko *.o *.mod *.mod.c *.mod.o modules.order Module.symvers
	find modules -name '*.o' -o -name '.*.cmd' | xargs rm -f
	$(MAKE) -C selftests/unit clean

unit:
	$(MAKE) -C selftests/unit run

check:
	@tools/check

bench:
	@tools/bench $(BENCH_ARGS)

sim:
	@tools/sim $(SIM_ARGS)

lint:
	@tools/lint

.PHONY: all modules install modules_install clean unit check bench sim lint
