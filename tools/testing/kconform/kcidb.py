# SPDX-License-Identifier: GPL-2.0
"""--kcidb FILE: the run as KCIDB I/O schema v5.0 JSON.

One checkout (patchset_hash = the series digest), one build (the kernel
of the run's variant, which serves KUnit and kselftests), one test per case
with a dotted `path` (kind.suite.case, each part reduced to the schema's
[a-zA-Z0-9_-]). crash and timeout are ERROR; a benchmark case is DONE,
one test per metric, with its number. A failure that a known issue
accepts is sent `waived`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Dict, List, Mapping

from .model import Status
from .report import RunReport, from_json

ORIGIN = 'kconform'
STATUS = {Status.PASS: 'PASS', Status.FAIL: 'FAIL', Status.SKIP: 'SKIP',
	  Status.CRASH: 'ERROR', Status.TIMEOUT: 'ERROR'}
COMPILER = 'clang, LLVM=1 (Rust)'
MAX_EXCERPT = 16384


def path_part(text: str) -> str:
	return re.sub(r'[^A-Za-z0-9_-]', '_', text) or '_'


def test_path(kind: str, suite: str, case: str) -> str:
	parts = [kind, suite] + re.split(r'[/.]', case)
	return '.'.join(path_part(p) for p in parts)


def _build_status(rep: RunReport) -> str:
	if any(e.startswith(('kernel build', 'kernel headers', 'guest .config'))
	       for e in rep.errors):
		return 'FAIL'
	return 'PASS' if 'build' in rep.stages else 'MISS'


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
	variant = str(rep.kernel.get('variant', 'default'))
	build: Dict[str, Any] = {
		'id': f'{ORIGIN}:{ident}-{variant}', 'origin': ORIGIN,
		'checkout_id': checkout['id'], 'architecture': 'x86_64',
		'compiler': COMPILER, 'config_name': variant,
		'status': _build_status(rep)}
	if 'build' in rep.stages:
		build['duration'] = rep.stages['build']
	accepted = {tuple(a.split(' (', 1)[0].split(':', 2))
		    for a in rep.gate.get('accepted', [])}
	tests: List[Dict[str, Any]] = []
	for s in rep.suites:
		build_id = build['id']
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
		'builds': [build] if rep.suites or rep.stages else [], 'tests': tests}


def write(rep: RunReport, path: Path) -> None:
	path.write_text(json.dumps(convert(rep), indent=1, allow_nan=False) + '\n')


def write_releases(folder: Path, results: Mapping[str, Mapping[str, Any]]) -> None:
	"""A matrix's releases, one file each: folder/<release>.json from
	its results.json."""
	folder.mkdir(parents=True, exist_ok=True)
	for name, doc in results.items():
		write(from_json(doc), folder / f'{name}.json')
