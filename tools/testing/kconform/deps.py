# SPDX-License-Identifier: GPL-2.0
"""Debian packages the run needs: check, and install them when root."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import List, Optional, Sequence

from .model import KconformError

# What each stage needs, by Debian package name.
RUN_PACKAGES = (
	'linux-source-6.1',		# the pristine tree
	'build-essential', 'flex', 'bison', 'bc', 'libelf-dev', 'libssl-dev',
	'dwarves', 'ccache', 'python3',	# kernel builds
	'quilt', 'rsync', 'perl', 'git',	# the series (checkpatch is perl)
	'qemu-system-x86', 'busybox-static', 'cpio', 'kmod', 'xz-utils',
	'lz4',				# the bzImage's compression (base.config)
	# the guest kernel: LLVM=1 with Rust (rustc's own rust-src, bindgen)
	'clang', 'lld', 'llvm', 'rustc', 'rust-src', 'bindgen',
	# BPF kselftests: skeletons from the guest's BTF, linked with libbpf
	'bpftool', 'libbpf-dev', 'zlib1g-dev',
	# statx_dioalign: mkfs of the file systems it tests (images made on
	# the host, mounted in the guest), xfs_io run in the guest
	'e2fsprogs', 'xfsprogs', 'f2fs-tools',
	# netlink_intro: iproute2's genl, a real client run in the guest
	'iproute2',
	# bpf_security: the guest build's module signing key (certs/Makefile
	# runs openssl req) and the test keys and PKCS#7 signatures; upstream's
	# verify_pkcs7_sig runs openssl and keyctl in the guest (upstream.TOOLS)
	'openssl', 'keyutils',
	# make bench: the tcp_ehash plot (drawn by Debian's python3, see
	# bench.write_plot, whatever interpreter runs kconform)
	'python3-matplotlib',
)
# make check: the KCIDB output checked against kcidb-io's JSON schema;
# ccache's remote storage tested against a real redis-server; matrix
# --emit github: the workflow parsed
TEST_PACKAGES = ('python3-mypy', 'python3-jsonschema', 'redis-server',
		 'python3-yaml')
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


# make check: the generated GitLab pipeline, run locally (shell executor);
# its releases from 4.74 on need Node.js 22, Debian 12's and this
# machine kind's are older
NPM_TEST_PACKAGES = ('gitlab-ci-local@4.73.0',)


def npm_tool(prefix: Path, name: str) -> Path:
	"""A command of an npm package installed under prefix."""
	return prefix / 'node_modules' / '.bin' / name


def ensure_npm(prefix: Path, packages: Sequence[str]) -> Optional[str]:
	"""Install the npm packages missing under prefix; why not, or None."""
	need = [p for p in packages if not npm_tool(prefix, p.rsplit('@', 1)[0]).exists()]
	if not need:
		return None
	if shutil.which('npm') is None:
		return f'npm is not installed, so neither is {" ".join(need)}'
	print('kconform: npm install ' + ' '.join(need), flush=True)
	r = subprocess.run(['npm', 'install', '--prefix', str(prefix), '--no-audit',
			    '--no-fund', *need], capture_output=True, text=True, check=False)
	if r.returncode != 0:
		return f'npm install {" ".join(need)} failed: ' + (r.stdout + r.stderr)[-1000:]
	return None
