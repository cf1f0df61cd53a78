# SPDX-License-Identifier: GPL-2.0
"""The KUnit path: the tree's own kunit.py configures, builds and boots.

kunit.py is called, never copied. The fragments of the selected suites
are concatenated into one kunitconfig, so one kernel and one boot serve
every KUnit suite. After configuring, every requested symbol must be in
the .config: a test dropped by an unmet dependency is a failure.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import List, Sequence

from . import console, kconfig, proc
from .model import KconformError, Status, Suite
from .suites import SuiteSpec

ARCH = 'x86_64'


@dataclass
class KunitJob:
	tree: Path
	build_dir: Path
	out: Path
	jobs: int
	timeout: int


def _tool(job: KunitJob, verb: str, *extra: str) -> List[str]:
	return [sys.executable, str(job.tree / 'tools/testing/kunit/kunit.py'),
		verb, f'--arch={ARCH}', f'--build_dir={job.build_dir}',
		'--make_options=CC=ccache gcc', *extra]


def _kunitconfig(job: KunitJob) -> Path:
	return job.build_dir.parent / 'kconform.kunitconfig'


def _validate(job: KunitJob) -> None:
	lost = kconfig.missing(_kunitconfig(job).read_text(),
			       (job.build_dir / '.config').read_text())
	if lost:
		raise KconformError('KUnit .config lacks requested symbols '
				    '(unmet dependencies?):\n  ' + '\n  '.join(lost))


def configure(job: KunitJob, specs: Sequence[SuiteSpec]) -> None:
	frags = [s.kunitconfig for s in specs if s.kunitconfig]
	job.build_dir.mkdir(parents=True, exist_ok=True)
	_kunitconfig(job).write_text(kconfig.merge([f for f in frags if f]))
	proc.check(_tool(job, 'config', f'--kunitconfig={_kunitconfig(job)}'),
		   job.out / 'kunit-config.log', 900, 'kunit.py config',
		   cwd=job.tree)
	_validate(job)


def build(job: KunitJob) -> None:
	# kunit.py build configures again: without the same kunitconfig it
	# would fall back to its default one (every test, KUNIT_ALL_TESTS).
	proc.check(_tool(job, 'build', f'--jobs={job.jobs}',
			 f'--kunitconfig={_kunitconfig(job)}'),
		   job.out / 'kunit-build.log', 3600, 'kunit.py build',
		   cwd=job.tree)
	_validate(job)


# kunit.py boots without panic=, so a panic hung the guest until the
# timeout. panic=-1 reboots at once, and kunit.py's QEMU runs with
# -no-reboot, so it exits; oops=panic does the same for an oops in a test
# case, whose kthread would die while KUnit waited for it until the
# timeout. A WARNING does not end the boot.
KERNEL_ARGS = ('panic=-1', 'oops=panic')
_KTAP = re.compile(r'(^|\] )K?TAP version \d+')


def exec_argv(job: KunitJob, qemu_args: Sequence[str],
	      filter_glob: str = '') -> List[str]:
	# --raw_output=all: kunit.py prints the console as it comes, so it
	# streams through proc.run, which gives every line its host time.
	extra = [f'--timeout={job.timeout}', '--raw_output=all',
		 *(f'--kernel_args={a}' for a in KERNEL_ARGS)]
	if qemu_args:
		extra.append('--qemu_args=' + ' '.join(qemu_args))
	if filter_glob:
		extra.append(filter_glob)
	return _tool(job, 'exec', *extra)


def execute(job: KunitJob, expected: Sequence[str], qemu_args: Sequence[str],
	    filter_glob: str = '', tag: str = '') -> List[Suite]:
	"""One boot of the KUnit kernel; filter_glob is kunit.filter_glob
	(`suite.case` globs), tag names this boot's log (reruns)."""
	# Unbuffered: kunit.py's print() to a pipe would hand the lines over
	# in blocks, with the time of the block.
	r = proc.run(exec_argv(job, qemu_args, filter_glob),
		     job.out / f'kunit-console{tag}.log', job.timeout + 120,
		     cwd=job.tree, env={'PYTHONUNBUFFERED': '1'})
	return classify(r, expected)


def classify(r: proc.Run, expected: Sequence[str]) -> List[Suite]:
	"""Suites from kunit.py's raw output: the guest console, between
	kunit.py's own lines."""
	timed_out = r.timed_out or any('timed out after' in l for l in r.lines)
	suites = console.suites_from_console(r.lines, 'kunit', expected,
					     timed_out, '<kunit boot>', r.times)
	if not any(_KTAP.search(l) for l in r.lines):
		for s in suites:
			s.fail_all(Status.TIMEOUT if timed_out else Status.FAIL,
				   'kunit.py showed no KTAP output '
				   f'(see {r.log}):\n{r.tail(15)}')
	return suites
