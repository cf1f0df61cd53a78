# SPDX-License-Identifier: GPL-2.0
"""The verdict: known issues, flaky cases and a baseline diff.

known-issues.toml lists expected failures, each with a reason and an
`until` date; after that date the failure counts again. An entry accepts
only a `fail` unless it names the statuses it accepts (`status`), names
its case (a glob whose wildcards never match the runner's own `<...>`
names, at any level: `prog/*` does not take `prog/<tap>`), may be scoped to a kernel version glob and an
accelerator, and may be `intermittent`. An entry whose cases all pass is
reported as fixed and fails the gate, so the file stays true.

A baseline is an earlier results.json, read and checked before the run
writes anything: the gate names new failures, new passes, and cases that
appeared or vanished, and passes that now skip, over the same cases on
both sides (scope). New failures and vanished cases fail the gate, and
so does a run that reported no case or did not finish.
"""

from __future__ import annotations

import datetime
import fnmatch
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

from . import tomlfile
from .model import BAD, KERNEL_REPORT, InputError, Status, Suite, runner_made
from .suites import Selection

Key = Tuple[str, str, str]
Baseline = Dict[Key, str]		# an earlier run's cases and statuses
# The most an input file may hold (a known-issues file, a results.json).
READ_LIMIT = 64 << 20
ACCEPTABLE = frozenset(s.value for s in BAD)
ENTRY_KEYS: Dict[str, Any] = {'kind': str, 'suite': str, 'case': str, 'reason': str,
	      'until': datetime.date, 'status': (str, list),
	      'intermittent': bool, 'kernel': str, 'accel': str}
REQUIRED = ('suite', 'case', 'reason', 'until')


def key_name(key: Key) -> str:
	return ':'.join(key)


def _translate(pattern: str) -> str:
	"""fnmatch's glob as a regular expression whose wildcards (*, ?,
	[...]) never match '<': that one only by a '<' the pattern spells."""
	out = []
	i = 0
	while i < len(pattern):
		ch = pattern[i]
		i += 1
		if ch == '*':
			out.append('[^<]*')
		elif ch == '?':
			out.append('[^<]')
		elif ch == '[':
			j = i + (1 if pattern[i:i + 1] in ('!', ']') else 0)
			j = pattern.find(']', j + (1 if pattern[j:j + 1] == ']' else 0))
			if j < 0:
				out.append(re.escape(ch))
				continue
			body = pattern[i:j].replace('\\', '\\\\')
			i = j + 1
			if body.startswith('!'):
				body = '^<' + body[1:]
			out.append(f'(?!<)[{body}]' if '<' not in body else f'[{body}]')
		else:
			out.append(re.escape(ch))
	return ''.join(out)


def glob(name: str, pattern: str) -> bool:
	"""fnmatch, except that a runner-made `<...>` part of a case name, at
	any level (`<kernel report>`, `prog/<tap>`), matches only a pattern
	that spells its '<'."""
	if '<' not in name:
		return fnmatch.fnmatchcase(name, pattern)
	return re.fullmatch(_translate(pattern), name, re.S) is not None


@dataclass(frozen=True)
class KnownIssue:
	suite: str
	case: str
	reason: str
	until: datetime.date
	kind: str = '*'
	status: FrozenSet[str] = frozenset({'fail'})
	intermittent: bool = False
	kernel: str = '*'
	accel: str = '*'
	where: str = ''

	def covers(self, key: Key) -> bool:
		kind, suite, case = key
		return (fnmatch.fnmatchcase(kind, self.kind) and
			fnmatch.fnmatchcase(suite, self.suite) and glob(case, self.case))

	def applies(self, kernel: str, accel: str) -> bool:
		"""Is the entry in scope for this kernel version and accelerator?"""
		return (fnmatch.fnmatchcase(kernel, self.kernel) and
			fnmatch.fnmatchcase(accel, self.accel))

	def label(self) -> str:
		return f'{self.reason}; until {self.until}'


def read_text(path: Path, what: str, limit: int = READ_LIMIT,
	      errors: str = 'strict') -> str:
	"""A regular UTF-8 file's text (errors='replace': what is not UTF-8
	replaced), at most limit bytes (a /dev/zero is refused, not read
	until memory runs out), or an InputError naming it."""
	if not path.exists():
		raise InputError(f'{what} {path}: no such file')
	if not path.is_file() and not str(path).startswith('/dev/'):
		raise InputError(f'{what} {path}: not a regular file')
	try:
		with path.open('rb') as f:
			data = f.read(limit + 1)
		if len(data) > limit:
			raise InputError(f'{what} {path}: larger than {limit >> 20} MiB')
		return data.decode('utf-8', errors)
	except UnicodeDecodeError as e:
		raise InputError(f'{what} {path}: not UTF-8 ({e})') from e
	except OSError as e:
		raise InputError(f'{what} {path}: {e.strerror}') from e


def _entry(item: Dict[str, Any], where: str) -> KnownIssue:
	lacking = [k for k in REQUIRED if k not in item]
	if lacking:
		raise InputError(f'{where}: lacks {", ".join(lacking)}')
	for k, v in item.items():
		# A TOML date-time is a datetime, which is also a date: refuse it.
		if not isinstance(v, ENTRY_KEYS[k]) or \
				(k == 'until' and isinstance(v, datetime.datetime)) or \
				(k == 'intermittent') != isinstance(v, bool):
			want = {'until': 'a TOML date (2027-01-31)',
				'intermittent': 'true or false',
				'status': 'a status or a list of them'}.get(k, 'a string')
			raise InputError(f'{where}: {k} = {v!r} is not {want}')
	status = item.get('status', 'fail')
	statuses = status if isinstance(status, list) else [status]
	bad = [s for s in statuses if s not in ACCEPTABLE]
	if bad or not statuses:
		raise InputError(f'{where}: status {bad or statuses!r} is not one of '
				 f'{", ".join(sorted(ACCEPTABLE))}')
	for k in ('suite', 'case', 'reason'):
		if not item[k].strip():
			raise InputError(f'{where}: {k} is empty')
	return KnownIssue(item['suite'], item['case'], item['reason'],
			  item['until'], item.get('kind', '*'), frozenset(statuses),
			  item.get('intermittent', False), item.get('kernel', '*'),
			  item.get('accel', '*'), where)


def load_known(path: Path) -> List[KnownIssue]:
	"""Every entry of a known-issues file, checked; InputError otherwise."""
	what = '--known-issues'
	items = tomlfile.array(path, 'issue', ENTRY_KEYS, what, read_text(path, what))
	return [_entry(item, f'{what} {path}: issue #{n}')
		for n, item in enumerate(items, 1)]


def load_baseline(path: Path) -> Baseline:
	"""An earlier results.json as {(kind, suite, case): status}."""
	text = read_text(path, '--baseline')
	try:
		data = json.loads(text)
		out = {}
		for s in data['suites']:
			for c in s['cases']:
				if c['status'] not in {st.value for st in Status}:
					raise ValueError(f'status {c["status"]!r}')
				out[(str(s['kind']), str(s['name']), str(c['name']))] = c['status']
		return out
	except (ValueError, KeyError, TypeError) as e:
		raise InputError(f'--baseline {path}: not a results.json ({e!r})') from e


@dataclass
class Verdict:
	accepted: List[str] = field(default_factory=list)
	expired: List[str] = field(default_factory=list)
	failures: List[str] = field(default_factory=list)
	fixed: List[str] = field(default_factory=list)
	flaky: List[str] = field(default_factory=list)
	new_failures: List[str] = field(default_factory=list)
	new_passes: List[str] = field(default_factory=list)
	new_skips: List[str] = field(default_factory=list)
	appeared: List[str] = field(default_factory=list)
	vanished: List[str] = field(default_factory=list)
	# the cases' statuses, as results.json totals counts them
	counts: Dict[str, int] = field(default_factory=dict)
	carried: List[str] = field(default_factory=list)	# omitted fixes' bugs
	problems: List[str] = field(default_factory=list)	# e.g. the fix proof
	marks: Dict[Key, str] = field(default_factory=dict)	# 'accepted', 'flaky', ...
	accepted_by: Dict[Key, KnownIssue] = field(default_factory=dict)
	fail_on_flaky: bool = False

	@property
	def ok(self) -> bool:
		return not (self.failures or self.new_failures or self.vanished or
			    self.fixed or self.problems or
			    (self.fail_on_flaky and self.flaky))

	def lines(self) -> List[str]:
		out: List[str] = []
		for title, items in (('accepted known issue', self.accepted),
				     ('known issue EXPIRED', self.expired),
				     ('fixed: remove this entry', self.fixed),
				     ('flaky' + (' (fails the gate)' if self.fail_on_flaky
						 else ''), self.flaky),
				     ('finding, a bug the series or a stable update fixes '
				      '(not a failure)', self.carried),
				     ('new failure', self.new_failures),
				     ('new pass', self.new_passes),
				     ('new skip', self.new_skips),
				     ('appeared', self.appeared),
				     ('vanished', self.vanished)):
			out.extend(f'gate: {title}: {i}' for i in items)
		out.extend(f'gate: FAILED: {p}' for p in self.problems)
		return out + self.tally()

	def tally(self) -> List[str]:
		"""The last line, in the plain form CI systems read: passed and
		skipped as results.json totals counts them, failed the failures
		that count against the run. Failed cases the gate spares (fail,
		crash and timeout in totals) are said on the line above it."""
		c = self.counts
		failed = sum(c.get(s.value, 0) for s in BAD)
		spared = [(n, word) for n, word in (
			(len(self.accepted), 'accepted'),
			(len(self.carried), 'carry a bug the series or a stable update fixes'))
			if n]
		line = (f'{c.get("pass", 0)} passed, {failed - sum(n for n, _ in spared)} '
			f'failed, {c.get("skip", 0)} skipped')
		if not spared:
			return [line]
		return [f'gate: of the {failed} failed in results.json totals, not failures: '
			+ ', '.join(f'{n} {word}' for n, word in spared), line]

	def to_json(self) -> Dict[str, Any]:
		return {'ok': self.ok, 'failures': self.failures,
			'carried': self.carried, 'problems': self.problems,
			'accepted': self.accepted, 'expired': self.expired,
			'fixed': self.fixed, 'flaky': self.flaky,
			'new_failures': self.new_failures,
			'new_passes': self.new_passes, 'new_skips': self.new_skips,
			'appeared': self.appeared, 'vanished': self.vanished,
			'counts': self.counts}


def _cases(suites: Sequence[Suite]) -> Dict[Key, str]:
	return {(s.kind, s.name, c.name): c.status.value
		for s in suites for c in s.cases}


def accepting(known: Sequence[KnownIssue], key: Key, status: Status,
	      kernel: str, accel: str) -> Optional[KnownIssue]:
	"""The in-scope entry that covers this case and status, if any."""
	return next((k for k in known if k.covers(key) and status.value in k.status
		     and k.applies(kernel, accel)), None)


def to_rerun(suites: Sequence[Suite], known: Sequence[KnownIssue], kernel: str,
	     accel: str, today: datetime.date,
	     findings: Optional[Set[Key]] = None) -> Set[Tuple[str, str]]:
	"""(kind, suite) pairs with a bad case no current entry accepts and
	that is no finding (the guard of an omitted fix)."""
	out = set()
	for s in suites:
		if s.kind == 'bench':
			continue
		for c in s.cases:
			if c.status in BAD and c.name != KERNEL_REPORT \
					and (s.kind, s.name, c.name) not in (findings or set()):
				k = accepting(known, (s.kind, s.name, c.name), c.status,
					      kernel, accel)
				if k is None or today > k.until:
					out.add((s.kind, s.name))
	return out


def merge_rerun(first: Sequence[Suite], again: Sequence[Suite]) -> List[Suite]:
	"""The first run's suites with each rerun suite's cases put in.

	A case bad the first time and passing on the rerun is flaky: it keeps
	the first message and counts as a pass only through the flaky list.
	A case that passed first and fails now stays a failure. Kernel
	reports of the first run are always kept.
	"""
	again_by = {(s.kind, s.name): s for s in again}
	out = []
	for s in first:
		redo = again_by.get((s.kind, s.name))
		if redo is None:
			out.append(s)
			continue
		before = {c.name: c for c in s.cases}
		merged = Suite(s.name, s.kind)
		for c in redo.cases:
			old = before.get(c.name)
			if old is not None and old.status in BAD and c.status == Status.PASS:
				c.flaky = True
				c.message = f'flaky: {old.status.value} on the first run, ' \
					    f'pass on the rerun:\n{old.message}'
			elif old is not None and old.status == Status.PASS and c.status in BAD:
				c.message = 'passed on the first run, ' \
					    f'{c.status.value} on the rerun:\n{c.message}'
			merged.cases.append(c)
		merged.cases += [c for c in s.cases if c.name == KERNEL_REPORT]
		merged.settle()
		out.append(merged)
	return out


def decide(suites: Sequence[Suite], known: Sequence[KnownIssue],
	   baseline: Optional[Dict[Key, str]], today: datetime.date,
	   kernel: str = '', accel: str = '', fail_on_flaky: bool = False,
	   findings: Optional[Set[Key]] = None,
	   scope: Optional[Callable[[Key], bool]] = None,
	   errors: Sequence[str] = ()) -> Verdict:
	"""findings: bad cases that show a bug the run chose to leave in
	(the guards of omitted fixes): reported, not counted as failures.
	scope: the cases of both sides the baseline comparison is about
	(what the run was asked for), None: all of them. A run that
	reported no case at all fails: nothing ran, nothing passed; so does
	one that did not finish (errors: what stopped it, a signal)."""
	v = Verdict(fail_on_flaky=fail_on_flaky)
	findings = findings or set()
	v.counts = {st.value: 0 for st in Status}
	used: Dict[KnownIssue, List[Tuple[Key, Status, bool]]] = {}
	for s in suites:
		for c in s.cases:
			key = (s.kind, s.name, c.name)
			name = key_name(key)
			for k in known:
				if k.covers(key) and k.applies(kernel, accel):
					used.setdefault(k, []).append((key, c.status, c.flaky))
			v.counts[c.status.value] += 1
			if c.status == Status.PASS:
				if c.flaky:
					v.flaky.append(name)
					v.marks[key] = 'flaky'
				continue
			if c.status == Status.SKIP:
				continue
			if key in findings:
				v.carried.append(name)
				v.marks[key] = 'carries the bug'
				continue
			issue = accepting(known, key, c.status, kernel, accel)
			if issue and today <= issue.until:
				v.accepted.append(f'{name} ({issue.label()})')
				v.marks[key] = 'accepted'
				v.accepted_by[key] = issue
				continue
			if issue:
				v.expired.append(f'{name} ({issue.reason}; expired {issue.until})')
			v.failures.append(name)
	for k, seen in used.items():
		if not k.intermittent and today <= k.until and \
				all(st == Status.PASS and not flaky for _, st, flaky in seen):
			v.fixed.append(f'{k.where} ({k.kind}:{k.suite}:{k.case}): '
				       f'{", ".join(key_name(x) for x, _, _ in seen)} '
				       f'now pass{"es" if len(seen) == 1 else ""} ({k.reason})')
	v.problems += [f'the run did not finish: {e.splitlines()[0] if e else "?"}'
		       for e in errors]
	# a result: a case a test printed, or one skipped with the reason
	# it cannot run here; not a runner-made failure saying none came
	if all(runner_made(c.name) and c.status != Status.SKIP
	       for s in suites for c in s.cases):
		v.problems.append('no test result at all: the console holds no '
				  'KTAP/TAP result of a suite asked for (or none '
				  'of the cases selected ran)')
	if baseline is not None:
		inside = scope or (lambda key: True)
		_compare(v, {k: s for k, s in baseline.items() if inside(k)},
			 {k: s for k, s in _cases(suites).items() if inside(k)})
	return v


def scope(sel: Selection, suites: Sequence[Suite]) -> Callable[[Key], bool]:
	"""The cases a baseline comparison is about, the same on both sides:
	every kind asked for or reported (a kselftest console's benchmarks,
	a suite suites.toml does not know); when --suite or --case narrowed
	the run, only what they ask for."""
	kinds = set(sel.kinds) | {s.kind for s in suites}
	if sel.whole and not sel.cases:
		return lambda key: key[0] in kinds
	return lambda key: key[0] in kinds and sel.wants(*key)


def _compare(v: Verdict, old: Dict[Key, str], new: Dict[Key, str]) -> None:
	bad = [b.value for b in BAD]
	for key in sorted(new.keys() | old.keys()):
		name = key_name(key)
		if key not in old:
			# a case that a bug the run left in makes appear (a kernel
			# report of it) is that bug's finding, not a change
			if v.marks.get(key) != 'carries the bug':
				v.appeared.append(f'{name} ({new[key]})')
		elif key not in new:
			v.vanished.append(f'{name} (was {old[key]})')
		elif new[key] in bad and old[key] not in bad:
			if v.marks.get(key) not in ('accepted', 'carries the bug'):
				v.new_failures.append(f'{name} ({old[key]} -> {new[key]})')
		elif new[key] == 'pass' and old[key] != 'pass':
			v.new_passes.append(f'{name} ({old[key]} -> pass)')
		elif new[key] == 'skip' and old[key] == 'pass':
			v.new_skips.append(f'{name} (pass -> skip)')
