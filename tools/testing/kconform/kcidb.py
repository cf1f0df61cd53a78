# SPDX-License-Identifier: GPL-2.0
"""--kcidb FILE: the run as KCIDB I/O schema v5.3 JSON (kcidb-io).

One checkout (patchset_hash = the series digest), one build (the kernel
of the run's variant, which serves KUnit and kselftests), one test per
case. crash and timeout are ERROR; a benchmark case is DONE, one test
per metric, with its number. A failure that a known issue accepts, and
a guard failing because the tree carries a bug the series or a stable update fixes, is
sent as it is (FAIL, ERROR) with an incident of an issue: the known
issue, or the fix's bug.

Every id holds the run's identity and its variant, so two runs never
overwrite each other's objects. A test's `path` is kind.suite.case with
the case's '/' levels as further parts; inside a part, what the schema
does not allow ([a-zA-Z0-9_-]) and '-' itself are written -XX (the
UTF-8 bytes in hex), so two names never share a path.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import re
import secrets
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple

from .gate import Key, KnownIssue, Verdict, key_name
from .model import Status
from .report import RunReport, from_json, printable

ORIGIN = 'kconform'
VERSION = {'major': 5, 'minor': 3}
STATUS = {Status.PASS: 'PASS', Status.FAIL: 'FAIL', Status.SKIP: 'SKIP',
	  Status.CRASH: 'ERROR', Status.TIMEOUT: 'ERROR'}
COMPILER = 'clang, LLVM=1 (Rust)'
MAX_EXCERPT = 16384
ISSUE_VERSION = 1
_PLAIN = re.compile(r'[A-Za-z0-9_]')


def path_part(text: str) -> str:
	"""One part of a path, injectively: [A-Za-z0-9_] as it is, every
	other byte -XX; '' is '-'."""
	if not text:
		return '-'
	return ''.join(ch if _PLAIN.match(ch) else
		       ''.join(f'-{b:02x}' for b in ch.encode('utf-8', 'surrogatepass'))
		       for ch in text)


def test_path(kind: str, suite: str, case: str) -> str:
	return '.'.join(path_part(p) for p in [kind, suite, *case.split('/')])


def text(value: str, limit: Optional[int] = None) -> str:
	"""A string the schema takes: no NUL (nor what JSON readers choke
	on), at most limit characters."""
	out = printable(value)
	return out if limit is None else out[:limit]


def run_id() -> str:
	"""The run's identity: when it was written and a random part."""
	now = datetime.datetime.now(datetime.timezone.utc)
	return f'{now:%Y%m%dT%H%M%SZ}-{secrets.token_hex(4)}'


def _build_status(rep: RunReport) -> str:
	if any(e.startswith(('kernel build', 'kernel headers', 'guest .config'))
	       for e in rep.errors):
		return 'FAIL'
	return 'PASS' if 'build' in rep.stages else 'MISS'


def _digest(*parts: str) -> str:
	return hashlib.sha256('\0'.join(parts).encode('utf-8', 'surrogatepass')
			      ).hexdigest()[:16]


def _issues(rep: RunReport, verdict: Verdict) -> Tuple[
		List[Dict[str, Any]], Dict[Key, List[str]]]:
	"""The issues of this run's incidents, and per case the ids of its
	issues: the known issue that accepts it, the fixes whose bug it
	shows."""
	issues: Dict[str, Dict[str, Any]] = {}
	by_case: Dict[Key, List[str]] = {}

	def known(k: KnownIssue) -> str:
		iid = f'{ORIGIN}:known-{_digest(k.kind, k.suite, k.case, k.reason)}'
		issues.setdefault(iid, {
			'id': iid, 'version': ISSUE_VERSION, 'origin': ORIGIN,
			'comment': text(f'known issue {k.kind}:{k.suite}:{k.case}: '
					f'{k.reason}; accepted until {k.until}'),
			'misc': {'until': str(k.until), 'intermittent': k.intermittent}})
		return iid

	for accepted, k in verdict.accepted_by.items():
		by_case.setdefault(accepted, []).append(known(k))
	carried = {key_name(key): key for key, mark in verdict.marks.items()
		   if mark == 'carries the bug'}
	for fix in rep.fixes:
		for name in fix.get('failing', []):
			key = carried.get(name)
			if key is None:		# a guard that is no finding
				continue
			who = fix.get('component', '')
			iid = f'{ORIGIN}:fix-{_digest(fix["patch"], who)}'
			issues.setdefault(iid, {
				'id': iid, 'version': ISSUE_VERSION, 'origin': ORIGIN,
				'culprit': {'code': True, 'tool': False, 'harness': False},
				'comment': text(f'{who + " " if who else ""}carries the bug '
						f'{fix["patch"]} fixes: {fix["effect"]}'
						+ (f' (upstream: {fix["upstream"]})'
						   if fix.get('upstream') else ''))})
			by_case.setdefault(key, []).append(iid)
	return list(issues.values()), by_case


def convert(rep: RunReport, verdict: Verdict, run: str) -> Dict[str, Any]:
	"""run: the run's identity (run_id()), part of every id."""
	digest = rep.kernel.series_sha256
	variant = path_part(rep.kernel.variant or 'default')
	checkout: Dict[str, Any] = {
		'id': f'{ORIGIN}:{run}', 'origin': ORIGIN,
		'comment': text(f'{rep.kernel.source} {rep.kernel.version} + the kconform series'),
		'valid': not any('does not apply' in e for e in rep.errors)}
	if re.fullmatch(r'[0-9a-f]{64}', digest):
		checkout['patchset_hash'] = digest
	build: Dict[str, Any] = {
		'id': f'{ORIGIN}:{run}-{variant}', 'origin': ORIGIN,
		'checkout_id': checkout['id'], 'architecture': 'x86_64',
		'compiler': COMPILER, 'config_name': text(variant),
		'status': _build_status(rep)}
	if 'build' in rep.stages:
		build['duration'] = rep.stages['build']
	issues, by_case = _issues(rep, verdict)
	tests: List[Dict[str, Any]] = []
	incidents: List[Dict[str, Any]] = []
	used: Dict[str, int] = {}

	def add(test: Dict[str, Any], key: Key) -> None:
		n = used[test['path']] = used.get(test['path'], 0) + 1
		test['id'] = f'{build["id"]}:{test["path"]}' + (f'#{n}' if n > 1 else '')
		tests.append(test)
		for iid in by_case.get(key, []):
			incidents.append({'id': f'{iid}:{test["id"]}', 'origin': ORIGIN,
					  'issue_id': iid, 'issue_version': ISSUE_VERSION,
					  'test_id': test['id'], 'present': True})

	for s in rep.suites:
		for c in s.cases:
			key = (s.kind, s.name, c.name)
			path = test_path(*key)
			base: Dict[str, Any] = {'build_id': build['id'], 'origin': ORIGIN,
						'comment': text(key_name(key))}
			if c.duration_s is not None:
				base['duration'] = c.duration_s
			if c.message:
				base['log_excerpt'] = text(c.message, MAX_EXCERPT)
			if c.flaky:
				base['misc'] = {'flaky': True}
			if s.kind == 'bench' and c.status == Status.PASS and c.metrics:
				for k, v in c.metrics.items():
					add({**base, 'path': f'{path}.{path_part(k)}',
					     'status': 'DONE', 'number': {'value': v}}, key)
				continue
			add({**base, 'path': path, 'status': STATUS[c.status]}, key)
	return {'version': dict(VERSION), 'checkouts': [checkout],
		'builds': [build] if rep.suites or rep.stages else [],
		'tests': tests, 'issues': issues, 'incidents': incidents}


def write(rep: RunReport, verdict: Verdict, path: Path) -> None:
	path.write_text(json.dumps(convert(rep, verdict, run_id()), indent=1,
				   allow_nan=False) + '\n')


def write_releases(folder: Path, results: Mapping[str, Mapping[str, Any]]) -> None:
	"""A matrix's releases, one file each: folder/<release>.json from
	its results.json. The gate's objects are not in results.json, so
	these files carry the tests and no issues or incidents."""
	folder.mkdir(parents=True, exist_ok=True)
	for name, doc in results.items():
		write(from_json(doc), Verdict(), folder / f'{name}.json')
