# SPDX-License-Identifier: GPL-2.0
# The C programs of a kconform kselftest target, included after lib.mk.
# lib.mk's rule hands every prerequisite of a program to the compiler;
# this one compiles the source alone, so that a target can list the
# headers its programs include as prerequisites (a change to one
# rebuilds them), e.g.
#	$(OUTPUT)/foo_test: foo_util.h ../kconform_fuzz.h
# KC_PROGS, the programs built so, are all of TEST_GEN_PROGS and
# TEST_GEN_PROGS_EXTENDED unless the target says otherwise (bpf.mk).
KC_PROGS ?= $(TEST_GEN_PROGS) $(TEST_GEN_PROGS_EXTENDED)

$(KC_PROGS): $(OUTPUT)/%: %.c
	$(LINK.c) $< $(LDLIBS) -o $@
