# SPDX-License-Identifier: GPL-2.0
"""Debian packages the run needs: check, and install them when root."""

from __future__ import annotations

import os
import subprocess
from typing import List, Sequence

from .model import KconformError

# What each stage needs, by Debian package name.
RUN_PACKAGES = (
	'linux-source-6.1',		# the pristine tree
	'build-essential', 'flex', 'bison', 'bc', 'libelf-dev', 'libssl-dev',
	'dwarves', 'ccache', 'python3',	# kernel builds
	'quilt', 'rsync', 'perl', 'git',	# the series (checkpatch is perl)
	'qemu-system-x86', 'busybox-static', 'cpio', 'kmod', 'xz-utils',
	# the guest kernel: LLVM=1 with Rust (rustc's own rust-src, bindgen)
	'clang', 'lld', 'llvm', 'rustc', 'rust-src', 'bindgen',
	# BPF kselftests: skeletons from the guest's BTF, linked with libbpf
	'bpftool', 'libbpf-dev', 'zlib1g-dev',
	# statx_dioalign: mkfs of the file systems it tests, run in the guest
	'e2fsprogs', 'xfsprogs', 'f2fs-tools',
	# netlink_intro: iproute2's genl, a real client run in the guest
	'iproute2',
	# bpf_security: the guest build's module signing key (certs/Makefile
	# runs openssl req) and the test keys and PKCS#7 signatures
	'openssl',
	# make bench: the tcp_ehash plot (drawn by Debian's python3, see
	# bench.write_plot, whatever interpreter runs kconform)
	'python3-matplotlib',
)
# make check: ccache's remote storage tested against a real redis-server
TEST_PACKAGES = ('python3-mypy', 'redis-server')
# make coverage: the report (geninfo, genhtml; llvm-cov is llvm's) and
# the screenshot of it that checks it renders (headless chromium)
COVERAGE_PACKAGES = ('lcov', 'llvm', 'chromium')


def missing(packages: Sequence[str]) -> List[str]:
	"""The packages not installed (one dpkg-query for all of them; one
	it does not know at all is missing too)."""
	r = subprocess.run(['dpkg-query', '-W', '-f=${Package}\t${Status}\n', *packages],
			   capture_output=True, text=True, check=False)
	installed = {line.split('\t')[0].split(':')[0] for line in r.stdout.splitlines()
		     if line.endswith('install ok installed')}
	return [p for p in packages if p not in installed]


def ensure(packages: Sequence[str]) -> None:
	"""Install what is missing, or stop with the command to run."""
	need = missing(packages)
	if not need:
		return
	cmd = ['apt-get', 'install', '-y', '--no-install-recommends', *need]
	if os.geteuid() != 0:
		raise KconformError('missing Debian packages: ' + ' '.join(need) +
				    '\nrun: sudo apt-get update && sudo ' + ' '.join(cmd))
	print('kconform: installing ' + ' '.join(need), flush=True)
	env = dict(os.environ, DEBIAN_FRONTEND='noninteractive')
	for argv in (['apt-get', 'update', '-q'], cmd):
		r = subprocess.run(argv, env=env, capture_output=True, text=True,
				   check=False)
		if r.returncode != 0:
			raise KconformError(f'{" ".join(argv)} failed:\n'
					    + (r.stdout + r.stderr)[-3000:])
	still = missing(need)
	if still:
		raise KconformError('still missing after apt-get: ' + ' '.join(still))
