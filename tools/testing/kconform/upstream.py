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

In a run (a variant whose `upstream` is true, guest.py), the user space
stage builds it when a suite names `upstream` and installs it as the
kselftest program `upstream:test_progs` (install()): a script that runs
the real test_progs, beside its programs, with `-a` and the selectors of
the boot's suites (kconform.upstream= on the command line). It runs in
the kselftest boot as one more target of the lanes; its TAP node is read
into the cases of the kselftest suite `upstream`, named
`test_progs:<test>/<subtest>` (program_cases(), from ktap.py).
"""

from __future__ import annotations

import fnmatch
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Sequence, Set, Tuple

from . import applicable, kconfig, proc
from .model import BAD, Case, KconformError, Kind, Status, Suite
from .suites import UPSTREAM, SuiteSpec

SELFTESTS = Path('tools/testing/selftests/bpf')
# the kselftest target and program it is installed as; its suite's cases
# are `test_progs:<test>/<subtest>`
TARGET = UPSTREAM
PROGRAM = 'test_progs'
PARAM = 'kconform.upstream'	# the boot's selectors, comma-separated
# runner.sh's timeout of the program (its `settings`), and its length in
# the lanes' plan until a boot has timed it (lanes.py)
TIMEOUT = 1200
SECONDS = 15.0		# 14.6 s on the default variant, TCG
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
# what that script runs that the guest's busybox lacks: Debian's, into
# the target's bin/ (WRAPPER puts it on PATH, bash at /bin/bash for the
# script's #!), each with its Debian package
TOOLS = {'bash': 'bash', 'openssl': 'openssl', 'keyctl': 'keyutils'}
BUILD_TIMEOUT = 1800
# test_progs' result line (6.1 test_progs.c print_test_name and
# print_subtest_name): "#N name:RESULT" and "#N/M test/subtest:RESULT"
_RESULT = re.compile(r'^#(\d+)(/\d+)?\s+(.+):(OK|SKIP|FAIL)$')
_STATUS = {'OK': Status.PASS, 'SKIP': Status.SKIP, 'FAIL': Status.FAIL}
# after the results, with a failure and without -v, the failed tests'
# logs and result lines again
_ERROR_LOGS = 'All error logs:'
LOG_LINES = 40		# of a failed case's log, kept as its message
# a skip's message when test_progs printed no log for it (without -v)
SKIPPED = 'skipped by the test (test__skip()); test_progs printed no log of it'


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
	      kdir: Optional[Path], jobs: int, toolchain: Sequence[str]) -> List[str]:
	"""The selftests' Makefile, told to build test_progs from the plan.
	The kernel's toolchain (LLVM=1) builds bpf_testmod.ko as Kbuild wants
	and the user space the same way as the kselftests."""
	extra = [str(output / 'sign-file'), *SCRIPTS]
	if p.testmod:
		extra.insert(0, str(output / 'bpf_testmod.ko'))
	return ['make', '-C', str(selftests), *toolchain, f'-j{jobs}',
		f'OUTPUT={output}', f'VMLINUX_BTF={vmlinux}',
		*([f'KDIR={kdir}'] if kdir is not None else []),
		# none of the plan's tests uses a linked skeleton (plan checks)
		'LINKED_SKELS=', 'LSKELS=', f'LSKELS_EXTRA={" ".join(p.light)}',
		f'TRUNNER_EXTRA_FILES={" ".join(extra)}', 'test_progs']


def lacking(fragment: Path, dotconfig: Path) -> List[str]:
	"""The fragment's lines the kernel's .config does not hold."""
	return sorted(kconfig.lost(fragment.read_text(), dotconfig.read_text()).values())


def build(tree: Path, vmlinux: Path, kdir: Optional[Path], fragment: Path,
	  out: Path, wanted: Sequence[str], jobs: int, log: Path,
	  toolchain: Sequence[str]) -> Built:
	"""test_progs for the selectors, in out/build (its sources in
	out/src): vmlinux gives the BTF, kdir (the kernel's build folder, None
	for a package's kernel) bpf_testmod.ko; a kernel built without the
	fragment's options (CONFIG) is refused before anything is built.
	Selectors whose test the tree lacks are left out (not_applicable()
	says so)."""
	if kdir is not None:
		missing = lacking(fragment, kdir / '.config')
		if missing:
			raise KconformError(f'upstream: the kernel of {kdir} lacks what '
					    f'test_progs needs ({fragment}): ' + ', '.join(missing))
	p = plan(tree / SELFTESTS, known(tree, wanted), kdir is not None)
	selftests = source(tree, out / 'src', p)
	output = out / 'build'
	output.mkdir(parents=True, exist_ok=True)
	# A test object's dependency file names the light skeletons it
	# includes without their folder (6.12's kfunc_call.test.d:
	# "kfunc_call_test.lskel.h"), which the next build's make cannot
	# find: "No rule to make target" (seen on 6.12's second build).
	# The Makefile lists every skeleton as an explicit prerequisite of
	# the test objects, so without these files nothing is missed.
	for stale in output.glob('*.test.d'):
		stale.unlink()
	proc.check(make_args(p, selftests, output, vmlinux, kdir, jobs, toolchain), log,
		   BUILD_TIMEOUT, 'upstream test_progs build', idle=600)
	# the programs some tests open by file name, beside the skeletons'
	files = [output / 'test_progs', output / 'sign-file',
		 *(output / s for s in SCRIPTS), *sorted(output.glob('*.bpf.o'))]
	if p.testmod:
		files.append(output / 'bpf_testmod.ko')
	return Built(p, output, tuple(files))


def cases(output: str, times: Sequence[float] = ()) -> List[Case]:
	"""test_progs' output as cases: `test/subtest` for each subtest line,
	`test` for a test without subtests (its own line after its subtests'
	is their sum, kept only when it fails while none of them does). A
	case's message is what test_progs printed for it before its line: the
	log of a failure (of every case with -v). times (host seconds, one per
	line) time each case from the result line before it."""
	lines = output.splitlines()
	timed = len(times) == len(lines) and bool(lines)
	last = times[0] if timed else 0.0	# the previous result line's time
	out: List[Case] = []
	failed_sub: Dict[str, bool] = {}	# test number -> a subtest failed
	since_case: List[str] = []		# a subtest's log
	since_test: List[str] = []		# the test's, its subtests' too
	for n, line in enumerate(lines):
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
		if status == Status.SKIP and not message:
			message = SKIPPED
		since_case = []
		if sub is not None:
			failed_sub[num] = failed_sub.get(num, False) or status == Status.FAIL
		else:
			since_test = []
			if num in failed_sub and (status != Status.FAIL or failed_sub[num]):
				continue	# its time goes to the next case
		took = max(0.0, times[n] - last) if timed else None
		last = times[n] if timed else last
		out.append(Case(name, status, message, duration_s=took))
	return out


def known(tree: Path, wanted: Sequence[str]) -> List[str]:
	"""The selectors whose test the tree's prog_tests define."""
	defined = _defined(tree / SELFTESTS / 'prog_tests')
	return [s for s in wanted if s.partition('/')[0] in defined]


def _uses_testmod(selftests: Path, test_file: str) -> bool:
	"""Does a prog_tests file, or a program its skeletons come from,
	name bpf_testmod (its kfuncs, its tracepoints, the module)?"""
	text = (selftests / 'prog_tests' / test_file).read_text(errors='replace')
	progs = {f'{name}.c' for name, _ in _SKEL.findall(text)
		 if (selftests / 'progs' / f'{name}.c').is_file()}
	return 'bpf_testmod' in text or any(
		'bpf_testmod' in (selftests / 'progs' / f).read_text(errors='replace')
		for f in _with_sources(selftests, progs))


# a subtest test_progs starts by its literal name, and one it names at
# run time (a table's entry, test_loader.c's RUN_TESTS: a program's name)
_SUBTEST = re.compile(r'test__start_subtest\(\s*"([^"]*)"')
_SUBTEST_NAMED = re.compile(r'test__start_subtest\(\s*[^"\s]|\bRUN_TESTS\(')


def _lacks_subtest(selftests: Path, test_file: str, sub: str) -> bool:
	"""Does a prog_tests file certainly start no subtest that the glob
	sub matches (every subtest it starts named by a literal, none
	matching)?"""
	text = (selftests / 'prog_tests' / test_file).read_text(errors='replace')
	return not _SUBTEST_NAMED.search(text) and \
		not any(fnmatch.fnmatchcase(name, sub) for name in _SUBTEST.findall(text))


def _globs(selector: str) -> List[str]:
	"""The case names (globs) of one selector: a test's own case and
	its subtests', or the subtests it names."""
	test, slash, sub = selector.partition('/')
	if slash:
		return [f'{PROGRAM}:{selector}']
	return [f'{PROGRAM}:{test}', f'{PROGRAM}:{test}/*']


def not_applicable(tree: Path, wanted: Sequence[str], testmod: bool,
		   tree_name: str, kernel_name: str) -> List[applicable.NotApplicable]:
	"""The selectors that cannot run: their test is not in the tree's
	prog_tests, or the subtest they name is not in its file (either way
	the selector is its one case), or (testmod False: a package's
	kernel) it needs bpf_testmod.ko, which only a kernel build of ours
	gives (the cases it prints are skipped)."""
	selftests = tree / SELFTESTS
	defined = _defined(selftests / 'prog_tests')
	out = []
	for s in wanted:
		test, _, sub = s.partition('/')
		if test not in defined:
			out.append(applicable.NotApplicable(
				Kind.KSELFTEST, TARGET, f'{PROGRAM}:{s}',
				f'not applicable to {tree_name}: no test_progs test {test} '
				f'in its {SELFTESTS}/prog_tests'))
		elif sub and _lacks_subtest(selftests, defined[test], sub):
			out.append(applicable.NotApplicable(
				Kind.KSELFTEST, TARGET, f'{PROGRAM}:{s}',
				f'not applicable to {tree_name}: test_progs test {test} has no '
				f'subtest {sub} (its {SELFTESTS}/prog_tests/{defined[test]})'))
		elif not testmod and _uses_testmod(selftests, defined[test]):
			out += [applicable.NotApplicable(
				Kind.KSELFTEST, TARGET, g,
				f'not applicable to {kernel_name}: {defined[test]} needs '
				'bpf_testmod.ko, built against our kernel\'s build folder; '
				'a package\'s kernel has none') for g in _globs(s)]
	return out


def listed(nas: Sequence[applicable.NotApplicable]) -> List[str]:
	"""The case names the suite's not-applicable records give, for
	those that never ran: each one's glob but a test's subtests'."""
	return [n.glob for n in nas if n.suite == TARGET and not n.glob.endswith('/*')]


# The program run_kselftest.sh runs: test_progs, in bpf/ beside its
# programs (its name must not have a '-': test_progs takes what follows
# one as a flavor's folder), with the boot's selectors.
WRAPPER = f'''#!/bin/sh
# kconform: upstream's test_progs with the selectors of the boot's suites
sel=$(tr ' ' '\\n' < /proc/cmdline | sed -n 's/^{PARAM}=//p')
if [ -z "$sel" ]; then
	echo "no {PARAM}= on the command line: no test selected"
	exit 4
fi
here=$(cd "$(dirname "$0")" && pwd)
[ -e /bin/bash ] || ln -s "$here/bin/bash" /bin/bash
# what BPF CI's guest has: cgroup_helpers.c mounts cgroup2 on /mnt, and
# bpffs on /sys/fs/bpf for the tests that pin there
mkdir -p /mnt
grep -q ' /sys/fs/bpf bpf ' /proc/mounts || mount -t bpf bpf /sys/fs/bpf
export PATH="$PATH:$here/bin"
cd "$here/bpf" || exit 1
# -v: every test's log, which says why one skipped
exec ./test_progs -v -a "$sel"
'''


def installed_as() -> str:
	"""What install() makes of a build that the build does not say:
	the user space is made again when it changes."""
	return f'{WRAPPER}\ntimeout={TIMEOUT}\n{sorted(TOOLS)}'


def tools() -> Dict[str, Path]:
	"""TOOLS on this host, or an error naming the package to install."""
	out = {}
	for name, package in TOOLS.items():
		found = shutil.which(name)
		if found is None:
			raise KconformError(f'upstream: no {name} on this host (Debian package '
					    f'{package}): verify_sig_setup.sh runs it in the guest')
		out[name] = Path(found)
	return out


def install(built: Built, installed: Path, host_tools: Mapping[str, Path]) -> None:
	"""test_progs into the installed kselftests as the program
	`upstream:test_progs` (WRAPPER), with its runner.sh timeout and
	the host's tools it runs (the initramfs gets their libraries)."""
	dest = installed / TARGET
	if dest.exists():
		shutil.rmtree(dest)
	(dest / 'bpf').mkdir(parents=True)
	(dest / 'bin').mkdir()
	for f in built.files:
		shutil.copy2(f, dest / 'bpf' / f.name)
	for name, path in host_tools.items():
		shutil.copy2(path.resolve(), dest / 'bin' / name)
	(dest / PROGRAM).write_text(WRAPPER)
	(dest / PROGRAM).chmod(0o755)
	(dest / 'settings').write_text(f'timeout={TIMEOUT}\n')
	_listed(installed)


def _listed(installed: Path) -> None:
	listed = installed / 'kselftest-list.txt'
	entries = listed.read_text().split() if listed.exists() else []
	entry = f'{TARGET}:{PROGRAM}'
	if entry not in entries:
		listed.write_text('\n'.join(entries + [entry]) + '\n')


def install_failure(installed: Path, error: str) -> None:
	"""In place of test_progs, a program that prints why it is not
	there and fails: its case says so in the run's results."""
	dest = installed / TARGET
	if dest.exists():
		shutil.rmtree(dest)
	dest.mkdir(parents=True)
	text = '\n'.join(line.replace("'", '') for line in error.splitlines()[:LOG_LINES])
	(dest / PROGRAM).write_text(f"#!/bin/sh\necho 'test_progs was not built:'\n"
				    f"cat <<'EOF'\n{text}\nEOF\nexit 1\n")
	(dest / PROGRAM).chmod(0o755)
	_listed(installed)


def program_cases(diag: Sequence[str], status: Status, message: str,
		  times: Sequence[float] = ()) -> List[Case]:
	"""The cases of the program's TAP node (its output, ktap.py's diag
	lines, their times, and its verdict): `test_progs:` and each case of
	cases(), timed, so that the lanes' plan learns the target's length;
	the program's own verdict too when it says what no case does (a
	timeout, a crash, a failure without a failed case, no case at all)."""
	out = [Case(f'{PROGRAM}:{c.name}', c.status, c.message, duration_s=c.duration_s)
	       for c in cases('\n'.join(diag), times)]
	explained = status == Status.PASS or (
		status == Status.FAIL and any(c.status == Status.FAIL for c in out))
	if not out and status == Status.PASS:
		status, message = Status.FAIL, 'test_progs printed no result line:\n' + message
	if not explained or not out:
		out.append(Case(PROGRAM, status, message or 'no result line'))
	return out


def unreported(selectors: Sequence[str], cases: Sequence[Case]) -> List[Case]:
	"""After test_progs printed its results (a case of its own), a
	failing case for each selector of the boot that no result line
	matches: a subtest the tree renamed that not_applicable() could not
	see (one named at run time), or a run cut short before it. A
	selector is never dropped in silence."""
	if not any(c.name.startswith(f'{PROGRAM}:') for c in cases):
		return []	# the program's own case says why it printed none
	return [Case(f'{PROGRAM}:{s}', Status.FAIL,
		     f'selected ({PARAM}=...{s}...), but test_progs printed no result '
		     'line of it: the tree\'s test_progs has no such test or subtest '
		     '(renamed?), or the run ended before it')
		for s in selectors if not any(_matches(c.name, s) for c in cases)]


def _matches(case: str, selector: str) -> bool:
	name = case.removeprefix(f'{PROGRAM}:')
	return any(fnmatch.fnmatchcase(f'{PROGRAM}:{name}', g) for g in _globs(selector))


def of_feature(spec: SuiteSpec, case: str) -> bool:
	"""Is a case of suite `upstream` one of the feature's (matched by one
	of its selectors)?"""
	return any(_matches(case, sel) for sel in spec.upstream)


def _counts(cases: Sequence[Case]) -> str:
	return ', '.join(f'{sum(1 for c in cases if c.status == s)} {s.value}'
			 for s in (Status.PASS, Status.FAIL, Status.SKIP))


def side_by_side(specs: Sequence[SuiteSpec], results: Sequence[Suite],
		 marks: Mapping[Tuple[str, str, str], str] = {}) -> List[str]:
	"""The summary's section "upstream's tests": per feature that names
	upstream tests, our suites' counts and upstream's (its cases that
	the feature's selectors match), and the features where one suite
	fails and the other, which ran too, does not, with the failing
	cases named: there the two disagree about the feature's behaviour.
	A failure the gate's marks explain (a known issue, a bug the tree
	carries) is no disagreement. Nothing when the run has no upstream
	suite."""
	theirs = [c for s in results if (s.kind, s.name) == (Kind.KSELFTEST, TARGET)
		  for c in s.cases]
	explained = {id(c) for s in results for c in s.cases
		     if marks.get((s.kind, s.name, c.name)) in ('accepted', 'carries the bug')}
	if not theirs:
		return []
	out = ["== upstream's tests (test_progs of the tree) beside ours, per feature"]
	for spec in specs:
		if not spec.upstream:
			continue
		ours = [c for s in results for c in s.cases
			if s.name in spec.names(s.kind) and s.kind != Kind.BENCH]
		up = [c for c in theirs if of_feature(spec, c.name)]
		out.append(f'   {spec.name}: ours {_counts(ours)}; upstream {_counts(up)}')
		bad_ours = [c.name for c in ours if c.status in BAD and id(c) not in explained]
		bad_up = [c.name for c in up if c.status in BAD and id(c) not in explained]
		ran = all(any(c.status != Status.SKIP for c in side) for side in (ours, up))
		if ran and bool(bad_ours) != bool(bad_up):
			who, names = ('upstream fails, ours passes', bad_up) if bad_up \
				else ('ours fails, upstream passes', bad_ours)
			out.append(f'      disagree: {who}: {", ".join(names[:8])}'
				   + (f' (and {len(names) - 8} more)' if len(names) > 8 else ''))
	return out
