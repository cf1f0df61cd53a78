# SPDX-License-Identifier: GPL-2.0
# BPF programs of a kconform kselftest target, included after lib.mk.
# A target lists its programs as BPF_PROGS (progs/<name>.bpf.c); each
# becomes $(OUTPUT)/<name>.skel.h, which the target's tests (TEST_GEN_PROGS
# and TEST_GEN_PROGS_EXTENDED) include.
# vmlinux.h comes from the guest kernel's own BTF (bpftool btf dump of
# $(KDIR)/vmlinux), so programs see exactly the guest's types; the
# skeletons are Debian's `bpftool gen skeleton`, linked with libbpf 1.1.
# A target may list programs in TREE_LIBBPF: those link the tree's own
# tools/lib/bpf (static, with its headers), so a fix of the series there
# (0403) is what they test, and each gets a twin <prog>_debian_libbpf, the
# same source linked with Debian's libbpf-dev, whose cases show whether
# Debian's libbpf carries the bug (patches/fixes.toml `distro_guards`).
BPFTOOL ?= /usr/sbin/bpftool
BPF_CLANG ?= clang
KDIR ?= $(abspath $(or $(O),$(top_srcdir)))

BPF_SKELS := $(patsubst %,$(OUTPUT)/%.skel.h,$(BPF_PROGS))
CFLAGS += -I$(OUTPUT)
LDLIBS += -lbpf -lelf -lz
EXTRA_CLEAN += $(OUTPUT)/vmlinux.h $(BPF_SKELS) \
	$(patsubst %,$(OUTPUT)/%.bpf.o,$(BPF_PROGS))

$(OUTPUT)/vmlinux.h: $(KDIR)/vmlinux
	$(BPFTOOL) btf dump file $< format c > $@.tmp
	mv $@.tmp $@

$(OUTPUT)/%.bpf.o: progs/%.bpf.c $(OUTPUT)/vmlinux.h ../bpf.mk
	$(BPF_CLANG) -g -O2 -Wall -target bpf -mcpu=v3 -D__TARGET_ARCH_x86 \
		-I$(OUTPUT) -Iprogs -c $< -o $@

$(OUTPUT)/%.skel.h: $(OUTPUT)/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $* > $@.tmp
	mv $@.tmp $@

LIBBPF_SRC := $(abspath $(top_srcdir)/tools/lib/bpf)
LIBBPF_OUT := $(OUTPUT)/libbpf
LIBBPF_A := $(LIBBPF_OUT)/libbpf.a
TREE_LIBBPF_BINS := $(patsubst %,$(OUTPUT)/%,$(TREE_LIBBPF))
TREE_LIBBPF_TWINS := $(patsubst %,$(OUTPUT)/%_debian_libbpf,$(TREE_LIBBPF))
PLAIN_PROGS := $(filter-out $(TREE_LIBBPF_BINS) $(TREE_LIBBPF_TWINS),\
	$(TEST_GEN_PROGS) $(TEST_GEN_PROGS_EXTENDED))
EXTRA_CLEAN += $(LIBBPF_OUT)

$(LIBBPF_A): $(wildcard $(LIBBPF_SRC)/*.[ch] $(LIBBPF_SRC)/Makefile)
	mkdir -p $(LIBBPF_OUT)
	$(MAKE) -C $(LIBBPF_SRC) OUTPUT=$(LIBBPF_OUT)/ DESTDIR=$(LIBBPF_OUT) \
		prefix= $(LIBBPF_A) install_headers

# kconform.mk's rule, not lib.mk's, which would hand the skeletons to the
# compiler as inputs.
KC_PROGS := $(PLAIN_PROGS)
include ../kconform.mk
$(PLAIN_PROGS): $(BPF_SKELS)

$(TREE_LIBBPF_BINS): $(OUTPUT)/%: %.c $(BPF_SKELS) $(LIBBPF_A)
	$(CC) $(CFLAGS) -I$(LIBBPF_OUT)/include $(LDFLAGS) $< $(LIBBPF_A) \
		$(filter-out -lbpf,$(LDLIBS)) -o $@

$(TREE_LIBBPF_TWINS): $(OUTPUT)/%_debian_libbpf: %.c $(BPF_SKELS)
	$(LINK.c) $< $(LDLIBS) -o $@

.SECONDARY: $(patsubst %,$(OUTPUT)/%.bpf.o,$(BPF_PROGS))
