# SPDX-License-Identifier: GPL-2.0
"""What cannot run, and why: one record from every source of it.

A suite's kind is not applicable to a tree when its kernel code is
missing (suites.toml `requires`), a hook patch it needs was dropped
(`patches`) or the tree cannot set the config it asks for; those are
reported whole, as one `<suite>` case whose message starts
"not applicable: ". Cases are not applicable to a package's kernel
(--image) when its config-* lacks what they need; those are skipped by
name (the names read from the sources, as --list). `mark` is the one
place either is applied: a case that ran gets the reason instead of its
verdict, one that did not is added; nothing is dropped.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

from . import listing, upstream
from .model import Case, Kind, Status, Suite

WHOLE = '<suite>'	# the one case of a suite not applicable to the tree
NOT_APPLICABLE = 'not applicable: '	# its message, before the reason


@dataclass(frozen=True)
class NotApplicable:
	"""Cases (a glob of the gate's case names) that cannot run, and why."""
	kind: str
	suite: str
	glob: str
	reason: str
	# the cases are named from the sources; False: the suite is
	# reported whole, as one <suite> case (not applicable to the tree)
	named: bool = True

	@property
	def message(self) -> str:
		"""What the cases it marks say."""
		return self.reason if self.named else NOT_APPLICABLE + self.reason


def to_tree(kind: str, suite: str, why: str) -> NotApplicable:
	"""A suite's kind that cannot run on the tree at all."""
	return NotApplicable(kind, suite, '*', why, named=False)


def whole(nas: Sequence[NotApplicable], kind: str, suite: str) -> bool:
	return any(n.kind == kind and n.suite == suite and n.glob == '*' for n in nas)


def listed(repo: Path, nas: Sequence[NotApplicable]) -> Dict[Tuple[str, str], List[str]]:
	"""The case names (from the sources, as --list) of each suite named."""
	kunit = listing.kunit_cases(repo / 'kunit')
	out: Dict[Tuple[str, str], List[str]] = {}
	for n in nas:
		if not n.named:
			out[(n.kind, n.suite)] = [WHOLE]
		elif n.kind == Kind.KUNIT:
			out[(n.kind, n.suite)] = kunit.get(n.suite, ['*'])
		elif n.suite == upstream.TARGET:
			out[(n.kind, n.suite)] = upstream.listed(nas)
		else:
			out[(n.kind, n.suite)] = listing.kselftest_cases(
				repo / 'kselftests' / n.suite)
	return out


def mark(results: List[Suite], nas: Sequence[NotApplicable],
	 names: Dict[Tuple[str, str], List[str]]) -> List[Suite]:
	"""Every not-applicable case skipped with its reason: a case that ran
	gets the reason instead of its verdict, one that did not is added by
	name; a suite none of whose cases ran is added whole."""
	for n in nas:
		suite = next((s for s in results if (s.kind, s.name) == (n.kind, n.suite)), None)
		if suite is None:
			suite = Suite(n.suite, n.kind)
			results.append(suite)
		if n.glob == '*':
			suite.cases = [c for c in suite.cases if c.name != WHOLE]
		for c in suite.cases:
			if fnmatch.fnmatchcase(c.name, n.glob):
				c.status, c.message = Status.SKIP, n.message
		have = {c.name for c in suite.cases}
		suite.cases += [Case(name, Status.SKIP, n.message)
				for name in names.get((n.kind, n.suite), ['*'])
				if fnmatch.fnmatchcase(name, n.glob) and name not in have]
		if n.glob == '*':
			suite.status, suite.message = Status.PASS, n.message
		suite.settle()
	return results
