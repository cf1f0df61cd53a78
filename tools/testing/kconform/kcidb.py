# SPDX-License-Identifier: GPL-2.0
"""--kcidb FILE: the run as KCIDB I/O schema v5.0 JSON.

One checkout (patchset_hash = the series digest), one build per kernel
that the run built (the KUnit kernel, the guest kernel), one test per case
with a dotted `path` (kind.suite.case, each part reduced to the schema's
[a-zA-Z0-9_-]). crash and timeout are ERROR; a benchmark case is DONE,
one test per metric, with its number. A failure that a known issue
accepts is sent `waived`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Dict, List

from .model import Status
from .report import RunReport

ORIGIN = 'kconform'
STATUS = {Status.PASS: 'PASS', Status.FAIL: 'FAIL', Status.SKIP: 'SKIP',
	  Status.CRASH: 'ERROR', Status.TIMEOUT: 'ERROR'}
BUILDS = {'kunit': ('kunit', 'gcc (kunit.py)', 'build-kunit', 'kunit.py'),
	  'kselftest': ('guest', 'clang, LLVM=1 (Rust)', 'build-guest', 'guest kernel')}
MAX_EXCERPT = 16384


def path_part(text: str) -> str:
	return re.sub(r'[^A-Za-z0-9_-]', '_', text) or '_'


def test_path(kind: str, suite: str, case: str) -> str:
	parts = [kind, suite] + re.split(r'[/.]', case)
	return '.'.join(path_part(p) for p in parts)


def _build_status(rep: RunReport, kind: str) -> str:
	_, _, stage, words = BUILDS[kind]
	if any(e.startswith(words) or f'{words} build' in e for e in rep.errors):
		return 'FAIL'
	return 'PASS' if stage in rep.stages else 'MISS'


def convert(rep: RunReport) -> Dict[str, Any]:
	digest = rep.kernel.get('series_sha256', '')
	ident = digest[:16] or 'unknown'
	checkout: Dict[str, Any] = {
		'id': f'{ORIGIN}:{ident}', 'origin': ORIGIN,
		'comment': f'{rep.kernel.get("source", "?")} {rep.kernel.get("version", "?")}'
			   ' + the kconform series',
		'valid': not any('does not apply' in e for e in rep.errors)}
	if re.fullmatch(r'[0-9a-f]{64}', digest):
		checkout['patchset_hash'] = digest
	kinds = {('kselftest' if s.kind == 'bench' else s.kind) for s in rep.suites}
	builds = []
	for kind in [k for k in BUILDS if k in kinds]:
		name, compiler, stage, _ = BUILDS[kind]
		build: Dict[str, Any] = {
			'id': f'{ORIGIN}:{ident}-{name}', 'origin': ORIGIN,
			'checkout_id': checkout['id'], 'architecture': 'x86_64',
			'compiler': compiler, 'config_name': name,
			'status': _build_status(rep, kind)}
		if stage in rep.stages:
			build['duration'] = rep.stages[stage]
		builds.append(build)
	accepted = {tuple(a.split(' (', 1)[0].split(':', 2))
		    for a in rep.gate.get('accepted', [])}
	tests: List[Dict[str, Any]] = []
	for s in rep.suites:
		build_id = f'{ORIGIN}:{ident}-{BUILDS["kunit" if s.kind == "kunit" else "kselftest"][0]}'
		for n, c in enumerate(s.cases):
			path = test_path(s.kind, s.name, c.name)
			base: Dict[str, Any] = {'build_id': build_id, 'origin': ORIGIN,
						'comment': f'{s.kind}:{s.name}:{c.name}'}
			duration = getattr(c, 'duration_s', None)
			if duration is not None:
				base['duration'] = duration
			if c.message:
				base['log_excerpt'] = c.message[:MAX_EXCERPT]
			if c.flaky:
				base['misc'] = {'flaky': True}
			if (s.kind, s.name, c.name) in accepted:
				base['waived'] = True
			tid = f'{ORIGIN}:{ident}-{path}-{n}'
			if s.kind == 'bench' and c.status == Status.PASS and c.metrics:
				for k, v in c.metrics.items():
					tests.append({**base, 'id': f'{tid}-{k}',
						      'path': f'{path}.{path_part(k)}',
						      'status': 'DONE', 'number': {'value': v}})
				continue
			tests.append({**base, 'id': tid, 'path': path,
				      'status': STATUS[c.status]})
	return {'version': {'major': 5, 'minor': 0}, 'checkouts': [checkout],
		'builds': builds, 'tests': tests}


def write(rep: RunReport, path: Path) -> None:
	path.write_text(json.dumps(convert(rep), indent=1, allow_nan=False) + '\n')
