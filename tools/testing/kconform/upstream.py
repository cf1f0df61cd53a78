# SPDX-License-Identifier: GPL-2.0
"""Upstream's own tests of the features: the tree's BPF selftests runner,
test_progs, built with only the prog_tests the suites name.

suites.toml's `upstream` lists, per feature, test_progs selectors
("test" or "test/subtest-glob", as `test_progs -a` takes them). The plan
maps each test to the prog_tests/*.c file that defines it (the rule the
selftests' Makefile uses for tests.h) and each file to the progs/*.c its
skeletons come from. The build copies tools/ of the tree (64 MB; every
other top-level entry is a symlink) into its own folder, keeps only those
files, and runs the selftests' Makefile there: the Makefile builds every
prog_tests/*.c and progs/*.c it finds, and its own lists (linked and light
skeletons, extra files) are narrowed on its command line. The guest
kernel's build folder gives vmlinux (BTF for vmlinux.h) and, for
bpf_testmod.ko, the kernel to build the module against. cases() reads
test_progs' output (6.1 has no JSON output: -J is 6.4's) into cases.
Runs do not build or boot it yet.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set, Tuple

from . import kconfig, proc
from .guest import TOOLCHAIN
from .model import Case, KconformError, Status
from .suites import SuiteSpec

SELFTESTS = Path('tools/testing/selftests/bpf')
# what test_progs needs of the kernel beyond the features' configs
CONFIG = Path('tools/testing/guest/upstream.config')
# a test function, as the Makefile's tests.h rule finds it
_TEST = re.compile(r'^void (?:serial_)?test_([a-zA-Z0-9_]+)\((?:void)?\)', re.M)
_SKEL = re.compile(r'^#include\s+"([A-Za-z0-9_]+)\.(skel|lskel)\.h"', re.M)
# a program that includes another's source (test_sk_assign_libbpf.c)
_SOURCE = re.compile(r'^#include\s+"([A-Za-z0-9_]+\.c)"', re.M)
# resolve_btfids reads the BTF of this program when it links test_progs
ALWAYS = ('btf_data.c',)
# copied beside test_progs, which runs them: verify_pkcs7_sig's key setup
# script (the Makefile also builds the tree's sign-file, which it calls)
SCRIPTS = ('verify_sig_setup.sh',)
BUILD_TIMEOUT = 1800
# test_progs' result line (6.1 test_progs.c print_test_name and
# print_subtest_name): "#N name:RESULT" and "#N/M test/subtest:RESULT"
_RESULT = re.compile(r'^#(\d+)(/\d+)?\s+(.+):(OK|SKIP|FAIL)$')
_STATUS = {'OK': Status.PASS, 'SKIP': Status.SKIP, 'FAIL': Status.FAIL}
# after the results, with a failure and without -v, the failed tests'
# logs and result lines again
_ERROR_LOGS = 'All error logs:'
LOG_LINES = 40		# of a failed case's log, kept as its message


@dataclass(frozen=True)
class Plan:
	"""What one test_progs build holds."""
	selectors: Tuple[str, ...]	# for test_progs -a
	tests: Tuple[str, ...]		# prog_tests/*.c kept
	progs: Tuple[str, ...]		# progs/*.c kept
	light: Tuple[str, ...]		# progs/*.c whose light skeleton a test includes
	testmod: bool			# bpf_testmod.ko built (a kernel build folder)


@dataclass(frozen=True)
class Built:
	plan: Plan
	folder: Path			# test_progs and what it runs beside it
	files: Tuple[Path, ...]


def selectors(specs: Sequence[SuiteSpec]) -> List[str]:
	"""Every suite's upstream selectors, once each, in registry order."""
	out: List[str] = []
	for s in specs:
		out += [t for t in s.upstream if t not in out]
	return out


def _defined(prog_tests: Path) -> Dict[str, str]:
	"""Test name -> the prog_tests file that defines it."""
	out = {}
	for f in sorted(prog_tests.glob('*.c')):
		for name in _TEST.findall(f.read_text(errors='replace')):
			out[name] = f.name
	return out


def plan(selftests: Path, wanted: Sequence[str], testmod: bool) -> Plan:
	"""The prog_tests files and programs the selectors need; an unknown
	test or a skeleton without its own program source (a linked one) is
	an error naming it."""
	defined = _defined(selftests / 'prog_tests')
	unknown = [s for s in wanted if s.partition('/')[0] not in defined]
	if unknown:
		raise KconformError(f'upstream: no test_progs test {", ".join(unknown)} '
				    f'in {selftests}/prog_tests')
	tests = sorted({defined[s.partition('/')[0]] for s in wanted})
	progs = set(ALWAYS)
	light = set()
	for t in tests:
		for name, kind in _SKEL.findall((selftests / 'prog_tests' / t).read_text()):
			if not (selftests / 'progs' / f'{name}.c').is_file():
				raise KconformError(f'upstream: {t} includes {name}.{kind}.h, '
						    f'which has no progs/{name}.c (a linked '
						    'skeleton: not supported)')
			progs.add(f'{name}.c')
			if kind == 'lskel':
				light.add(f'{name}.c')
	return Plan(tuple(wanted), tuple(tests), tuple(sorted(_with_sources(selftests, progs))),
		    tuple(sorted(light)), testmod)


def _with_sources(selftests: Path, progs: Set[str]) -> Set[str]:
	"""The programs and the program sources they include, transitively."""
	out = set(progs)
	todo = list(progs)
	while todo:
		text = (selftests / 'progs' / todo.pop()).read_text(errors='replace')
		for name in _SOURCE.findall(text):
			if name not in out and (selftests / 'progs' / name).is_file():
				out.add(name)
				todo.append(name)
	return out


def source(tree: Path, dest: Path, p: Plan) -> Path:
	"""A tree for the build: tools/ copied with only the plan's tests and
	programs, every other top-level entry a symlink into the tree (the
	selftests read scripts/, kernel/bpf/ and include/ from there). The
	copy's selftests folder is returned."""
	if dest.exists():
		shutil.rmtree(dest)
	dest.mkdir(parents=True)
	for entry in sorted(tree.iterdir()):
		if entry.name != 'tools':
			(dest / entry.name).symlink_to(entry.resolve())
	shutil.copytree(tree / 'tools', dest / 'tools', symlinks=True)
	bpf = dest / SELFTESTS
	for folder, keep in (('prog_tests', p.tests), ('progs', p.progs)):
		for f in (bpf / folder).glob('*.c'):
			if f.name not in keep:
				f.unlink()
	# a tests.h left by an in-tree build would list every test
	(bpf / 'prog_tests/tests.h').unlink(missing_ok=True)
	return bpf


def make_args(p: Plan, selftests: Path, output: Path, vmlinux: Path,
	      kdir: Optional[Path], jobs: int) -> List[str]:
	"""The selftests' Makefile, told to build test_progs from the plan.
	The kernel's toolchain (LLVM=1) builds bpf_testmod.ko as Kbuild wants
	and the user space the same way as the kselftests."""
	extra = [str(output / 'sign-file'), *SCRIPTS]
	if p.testmod:
		extra.insert(0, str(output / 'bpf_testmod.ko'))
	return ['make', '-C', str(selftests), *TOOLCHAIN, f'-j{jobs}',
		f'OUTPUT={output}', f'VMLINUX_BTF={vmlinux}',
		*([f'KDIR={kdir}'] if kdir is not None else []),
		# none of the plan's tests uses a linked skeleton (plan checks)
		'LINKED_SKELS=', 'LSKELS=', f'LSKELS_EXTRA={" ".join(p.light)}',
		f'TRUNNER_EXTRA_FILES={" ".join(extra)}', 'test_progs']


def lacking(fragment: Path, dotconfig: Path) -> List[str]:
	"""The fragment's lines the kernel's .config does not hold."""
	return sorted(kconfig.lost(fragment.read_text(), dotconfig.read_text()).values())


def build(tree: Path, vmlinux: Path, kdir: Optional[Path], fragment: Path,
	  out: Path, wanted: Sequence[str], jobs: int, log: Path) -> Built:
	"""test_progs for the selectors, in out/build (its sources in
	out/src): vmlinux gives the BTF, kdir (the kernel's build folder, None
	for a package's kernel) bpf_testmod.ko; a kernel built without the
	fragment's options (CONFIG) is refused before anything is built."""
	if kdir is not None:
		missing = lacking(fragment, kdir / '.config')
		if missing:
			raise KconformError(f'upstream: the kernel of {kdir} lacks what '
					    f'test_progs needs ({fragment}): ' + ', '.join(missing))
	p = plan(tree / SELFTESTS, wanted, kdir is not None)
	selftests = source(tree, out / 'src', p)
	output = out / 'build'
	output.mkdir(parents=True, exist_ok=True)
	proc.check(make_args(p, selftests, output, vmlinux, kdir, jobs), log,
		   BUILD_TIMEOUT, 'upstream test_progs build', idle=600)
	files = [output / 'test_progs', output / 'sign-file',
		 *(output / s for s in SCRIPTS)]
	if p.testmod:
		files.append(output / 'bpf_testmod.ko')
	return Built(p, output, tuple(files))


def cases(output: str) -> List[Case]:
	"""test_progs' output as cases: `test/subtest` for each subtest line,
	`test` for a test without subtests (its own line after its subtests'
	is their sum, kept only when it fails while none of them does). A
	case's message is what test_progs printed for it before its line: the
	log of a failure (of every case with -v)."""
	out: List[Case] = []
	failed_sub: Dict[str, bool] = {}	# test number -> a subtest failed
	since_case: List[str] = []		# a subtest's log
	since_test: List[str] = []		# the test's, its subtests' too
	for line in output.splitlines():
		if line.strip() == _ERROR_LOGS:
			break
		m = _RESULT.match(line.rstrip())
		if not m:
			since_case.append(line.rstrip())
			since_test.append(line.rstrip())
			continue
		num, sub, name, result = m.groups()
		status = _STATUS[result]
		log = since_case if sub is not None else since_test
		message = '\n'.join(log[-LOG_LINES:]).strip() if status != Status.PASS else ''
		since_case = []
		if sub is not None:
			failed_sub[num] = failed_sub.get(num, False) or status == Status.FAIL
		else:
			since_test = []
			if num in failed_sub and (status != Status.FAIL or failed_sub[num]):
				continue
		out.append(Case(name, status, message))
	return out
