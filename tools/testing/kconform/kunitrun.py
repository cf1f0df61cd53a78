# SPDX-License-Identifier: GPL-2.0
"""The KUnit path: the tree's own kunit.py boots the kernel and parses.

kunit.py is called, never copied. It does not build here: the kernel of
the run's variant (guest.py) holds every present KUnit suite, built in,
and `kunit.py exec --build_dir` boots that image with kunit.enable=1, so
one build serves the KUnit suites and the kselftests. A suite's
kunitconfig/ fragment still works on its own with `kunit.py run`.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from . import console, proc
from .model import Status, Suite

ARCH = 'x86_64'


@dataclass
class KunitJob:
	tree: Path
	build_dir: Path
	out: Path
	timeout: int
	# the variant's command line, added to the boot's
	kernel_args: Tuple[str, ...] = ()
	# an initramfs whose /init runs once KUnit is done (coverage: the
	# gcov data to the console); kunit.py's own kunit_shutdown=reboot
	# would end the boot first, so then the arguments end with `--`
	# (the kernel leaves what follows to init: kunit.py's additions)
	initrd: Optional[Path] = None
	# a boot whose console is silent this long (s) ends as a timeout
	silence: Optional[int] = None


def _tool(job: KunitJob, verb: str, *extra: str) -> List[str]:
	return [sys.executable, str(job.tree / 'tools/testing/kunit/kunit.py'),
		verb, f'--arch={ARCH}', f'--build_dir={job.build_dir}', *extra]


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
	args = [*KERNEL_ARGS, *job.kernel_args]
	qemu = list(qemu_args)
	if job.initrd is not None:
		qemu += ['-initrd', str(job.initrd)]
		args.append('console=ttyS0')
		if filter_glob:
			args.append(f'kunit.filter_glob={filter_glob}')
		# one argument: argparse drops a bare `--` value
		args.append('kunit.enable=1 --')
		filter_glob = ''
	extra = [f'--timeout={job.timeout}', '--raw_output=all',
		 *(f'--kernel_args={a}' for a in args)]
	if qemu:
		extra.append('--qemu_args=' + ' '.join(qemu))
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
		     cwd=job.tree, env={'PYTHONUNBUFFERED': '1'}, idle=job.silence)
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
