# SPDX-License-Identifier: GPL-2.0
"""Turn one guest console log into suites: parse, then find crashes.

A kernel report (panic, oops, BUG, WARNING, KASAN, UBSAN, RCU stall, hung
task) marks the suite that was running when it was printed as crashed,
with the log excerpt; results parsed before it are kept. A run that hit
its timeout marks the unfinished suite, and every expected suite that
never started, as timed out.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable, List, Optional, Sequence, Tuple

from . import ktap
from .model import Case, Status, Suite

REPORTS = re.compile(
	r'^(Kernel panic - not syncing|Oops: |BUG: |kernel BUG at |WARNING: |'
	r'UBSAN: |general protection fault|'
	r'rcu: INFO: rcu_\w+ (self-)?detected stall|'
	r'INFO: rcu_\w+ (self-)?detected stall|'
	r'INFO: task \S+ blocked for more than)')
EXCERPT_BEFORE = 2
EXCERPT_AFTER = 25


_LINUX_VERSION = re.compile(r'Linux version (\S+)')


def kernel_version(raw: Sequence[str]) -> str:
	"""The release a console's banner names, or '?'."""
	for line in raw:
		m = _LINUX_VERSION.search(line)
		if m:
			return m.group(1)
	return '?'


def reports(lines: Sequence[ktap.Line]) -> List[Tuple[int, str]]:
	"""Every kernel report in the log, as (line index, excerpt)."""
	found = []
	pos = {idx: n for n, (idx, _) in enumerate(lines)}
	for idx, text in lines:
		if REPORTS.match(text):
			n = pos[idx]
			chunk = lines[max(0, n - EXCERPT_BEFORE):n + EXCERPT_AFTER]
			found.append((idx, '\n'.join(t for _, t in chunk)))
	return found


def _owner(level: ktap.Level, idx: int) -> Optional[ktap.Node]:
	for node in level.nodes:
		if node.first <= idx <= node.last or \
				(node.ok is None and idx >= node.first):
			return node
	return None


def suites_from_console(raw: Sequence[str], kind: str, expected: Iterable[str],
			timed_out: bool, boot_name: str) -> List[Suite]:
	"""Every suite the console shows, plus the expected ones it lacks."""
	lines = ktap.clean(raw)
	level = ktap.parse_level(lines)
	convert: Callable[[ktap.Level], List[Suite]] = \
		ktap.kunit_suites if kind == 'kunit' else ktap.kselftest_suites
	suites = convert(level)
	by_node = {id(n): s for s, n in zip(_suites_per_node(suites, level),
					    level.nodes)}

	for idx, excerpt in reports(lines):
		owner = _owner(level, idx)
		hit = by_node.get(id(owner)) if owner else None
		if hit is None:
			hit = _extra(suites, boot_name, kind)
		if hit.status != Status.CRASH:
			hit.fail_all(Status.CRASH, 'kernel report in the console:\n'
				     + excerpt)
		hit.cases.append(Case('<kernel report>', Status.CRASH, excerpt))

	if timed_out:
		for suite in suites:
			if any(c.status == Status.CRASH and 'truncated' in c.message
			       for c in suite.cases):
				suite.status = Status.TIMEOUT
				suite.message = 'the guest ran past its timeout here'
				for c in suite.cases:
					if c.status == Status.CRASH and \
							'truncated' in c.message:
						c.status = Status.TIMEOUT
						c.message = 'timed out: ' + c.message

	seen = {s.name for s in suites}
	for name in expected:
		if name not in seen:
			missing = Suite(name, kind)
			if timed_out:
				missing.fail_all(Status.TIMEOUT, 'never started: the '
						 'guest ran past its timeout')
			else:
				missing.fail_all(Status.FAIL, f'expected {kind} suite '
						 f'{name} did not appear in the console')
			suites.append(missing)

	problems = ktap.level_problems(level, 'KTAP' if kind == 'kunit' else 'TAP')
	if problems:
		extra = _extra(suites, boot_name, kind)
		for p in problems:
			extra.cases.append(Case('<tap>', Status.FAIL, p))
	for suite in suites:
		suite.settle()
	return suites


def _suites_per_node(suites: List[Suite], level: ktap.Level) -> List[Suite]:
	"""The suite each top-level node went into (kselftest groups them)."""
	by_name = {s.name: s for s in suites}
	out = []
	for node in level.nodes:
		out.append(by_name.get(ktap.ksft_program(node.name)[0],
				       suites[0] if suites else Suite('?', '?')))
	return out


def _extra(suites: List[Suite], name: str, kind: str) -> Suite:
	for s in suites:
		if s.name == name:
			return s
	suite = Suite(name, kind)
	suites.append(suite)
	return suite
