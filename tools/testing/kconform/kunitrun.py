# SPDX-License-Identifier: GPL-2.0
"""The KUnit path: the tree's own kunit.py configures, builds and boots.

kunit.py is called, never copied. The fragments of the selected suites
are concatenated into one kunitconfig, so one kernel and one boot serve
every KUnit suite. After configuring, every requested symbol must be in
the .config: a test dropped by an unmet dependency is a failure.
"""

from __future__ import annotations

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


def execute(job: KunitJob, expected: Sequence[str], qemu_args: Sequence[str],
	    filter_glob: str = '', tag: str = '') -> List[Suite]:
	"""One boot of the KUnit kernel; filter_glob is kunit.filter_glob
	(`suite.case` globs), tag names this boot's logs (reruns)."""
	extra = [f'--timeout={job.timeout}', f'--json={job.out / f"kunit{tag}.json"}']
	if qemu_args:
		extra.append('--qemu_args=' + ' '.join(qemu_args))
	if filter_glob:
		extra.append(filter_glob)
	r = proc.run(_tool(job, 'exec', *extra), job.out / f'kunit-tool{tag}.log',
		     job.timeout + 120, cwd=job.tree)
	timed_out = r.timed_out or any('timed out after' in l for l in r.lines)
	log = job.build_dir / 'test.log'
	raw = log.read_text(errors='replace').splitlines() if log.exists() else []
	(job.out / f'kunit-console{tag}.log').write_text('\n'.join(raw) + '\n')
	suites = console.suites_from_console(raw, 'kunit', expected, timed_out,
					     '<kunit boot>')
	if not raw:
		for s in suites:
			s.fail_all(Status.TIMEOUT if timed_out else Status.FAIL,
				   'kunit.py produced no console log '
				   f'(see {r.log}):\n{r.tail(15)}')
	return suites
