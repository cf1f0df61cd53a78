# SPDX-License-Identifier: GPL-2.0
"""The verdict: known issues that are still accepted, and a baseline diff.

known-issues.toml lists expected failures, each with a reason and an
`until` date; after that date the failure counts again. A baseline is an
earlier results.json: the gate names new failures, new passes, and cases
that appeared or vanished. New failures and vanished cases fail the gate.
"""

from __future__ import annotations

import datetime
import fnmatch
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from .model import BAD, KconformError, Status, Suite

Key = Tuple[str, str, str]


@dataclass(frozen=True)
class KnownIssue:
	kind: str
	suite: str
	case: str
	reason: str
	until: datetime.date

	def matches(self, kind: str, suite: str, case: str) -> bool:
		return (fnmatch.fnmatchcase(kind, self.kind) and
			fnmatch.fnmatchcase(suite, self.suite) and
			fnmatch.fnmatchcase(case, self.case))


def load_known(path: Optional[Path]) -> List[KnownIssue]:
	if path is None or not path.exists():
		return []
	try:
		data = tomllib.loads(path.read_text())
	except tomllib.TOMLDecodeError as e:
		raise KconformError(f'{path}: {e}') from e
	out: List[KnownIssue] = []
	for n, item in enumerate(data.get('issue', []), 1):
		try:
			until = item['until']
			if not isinstance(until, datetime.date):
				raise KeyError('until (a TOML date)')
			out.append(KnownIssue(item.get('kind', '*'), item['suite'],
					      item.get('case', '*'), item['reason'], until))
		except KeyError as e:
			raise KconformError(f'{path}: issue #{n} lacks {e}') from e
	return out


@dataclass
class Verdict:
	accepted: List[str] = field(default_factory=list)
	expired: List[str] = field(default_factory=list)
	failures: List[str] = field(default_factory=list)
	new_failures: List[str] = field(default_factory=list)
	new_passes: List[str] = field(default_factory=list)
	appeared: List[str] = field(default_factory=list)
	vanished: List[str] = field(default_factory=list)
	counts: Dict[str, int] = field(default_factory=dict)

	@property
	def ok(self) -> bool:
		return not (self.failures or self.new_failures or self.vanished)

	def lines(self) -> List[str]:
		out: List[str] = []
		for title, items in (('accepted known issue', self.accepted),
				     ('known issue EXPIRED', self.expired),
				     ('new failure', self.new_failures),
				     ('new pass', self.new_passes),
				     ('appeared', self.appeared),
				     ('vanished', self.vanished)):
			out.extend(f'gate: {title}: {i}' for i in items)
		c = self.counts
		tail = f'{c.get("pass", 0)} passed, {c.get("failed", 0)} failed, ' \
		       f'{c.get("skip", 0)} skipped'
		out.append(tail)
		return out


def _cases(suites: List[Suite]) -> Dict[Key, str]:
	return {(s.kind, s.name, c.name): c.status.value
		for s in suites for c in s.cases}


def _baseline(path: Path) -> Dict[Key, str]:
	try:
		data = json.loads(path.read_text())
		return {(s['kind'], s['name'], c['name']): c['status']
			for s in data['suites'] for c in s['cases']}
	except (OSError, ValueError, KeyError, TypeError) as e:
		raise KconformError(f'baseline {path}: not a results.json ({e})') from e


def decide(suites: List[Suite], known: List[KnownIssue],
	   baseline: Optional[Path], today: datetime.date) -> Verdict:
	v = Verdict()
	passed = failed = skipped = 0
	for s in suites:
		for c in s.cases:
			name = f'{s.kind}:{s.name}:{c.name}'
			if c.status == Status.PASS:
				passed += 1
				continue
			if c.status == Status.SKIP:
				skipped += 1
				continue
			issue = next((k for k in known if k.matches(s.kind, s.name, c.name)),
				     None)
			if issue and today <= issue.until:
				v.accepted.append(f'{name} ({issue.reason}; until {issue.until})')
				continue
			if issue:
				v.expired.append(f'{name} ({issue.reason}; expired {issue.until})')
			failed += 1
			v.failures.append(name)
	v.counts = {'pass': passed, 'failed': failed, 'skip': skipped}
	if baseline is not None:
		old = _baseline(baseline)
		new = _cases(suites)
		for key in sorted(new.keys() | old.keys()):
			name = ':'.join(key)
			if key not in old:
				v.appeared.append(f'{name} ({new[key]})')
			elif key not in new:
				v.vanished.append(f'{name} (was {old[key]})')
			elif new[key] in [b.value for b in BAD] and \
					old[key] not in [b.value for b in BAD]:
				v.new_failures.append(f'{name} ({old[key]} -> {new[key]})')
			elif new[key] == 'pass' and old[key] != 'pass':
				v.new_passes.append(f'{name} ({old[key]} -> pass)')
	return v
