# SPDX-License-Identifier: GPL-2.0
# BPF programs of a kconform kselftest target, included after lib.mk.
# A target lists its programs as BPF_PROGS (progs/<name>.bpf.c); each
# becomes $(OUTPUT)/<name>.skel.h, which the target's tests (TEST_GEN_PROGS
# and TEST_GEN_PROGS_EXTENDED) include.
# vmlinux.h comes from the guest kernel's own BTF (bpftool btf dump of
# $(KDIR)/vmlinux), so programs see exactly the guest's types; the
# skeletons are Debian's `bpftool gen skeleton`, linked with libbpf 1.1.
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

# lib.mk's own rule would hand the skeletons to the compiler as inputs.
$(TEST_GEN_PROGS) $(TEST_GEN_PROGS_EXTENDED): $(OUTPUT)/%: %.c $(BPF_SKELS)
	$(LINK.c) $< $(LDLIBS) -o $@

.SECONDARY: $(patsubst %,$(OUTPUT)/%.bpf.o,$(BPF_PROGS))
