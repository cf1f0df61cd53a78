# SPDX-License-Identifier: GPL-2.0
"""A matrix of releases: one run per release, one table of what differs.

A release is a string the run takes: `linux-source-6.1=6.1.190-1`
(--source), a bare Debian version (`6.1.190-1`: linux-source-X.Y of its
major version), `linux-image-…=VERSION` (--image, where the run has it)
or `default` (the installed linux-source-6.1). Each run writes its own
results.json; matrix.json holds, per release, its kernel, totals, stage
times and wall time, the cases whose verdict differs between releases,
and the bugs each release carries.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from . import fixes, report

ABSENT = '-'
NA = 'n/a'


def run_args(release: str) -> List[str]:
	"""The run options that select a release."""
	if release in ('default', 'linux-source-6.1'):
		return []
	if release.startswith('linux-image-'):
		return ['--image', release]
	if release.startswith('linux-source-'):
		return ['--source', release]
	m = re.match(r'^(\d+)\.(\d+)\.\d+', release)
	if m:
		return ['--source', f'linux-source-{m.group(1)}.{m.group(2)}={release}']
	raise ValueError(f'{release}: not a release (linux-source-X.Y=VERSION, '
			 'VERSION, linux-image-…=VERSION or default)')


def folder_name(release: str) -> str:
	return re.sub(r'[^A-Za-z0-9.=+~_-]', '_', release)


def verdicts(results: Mapping[str, Any]) -> Dict[str, str]:
	"""kind:suite:case -> verdict word (pass, fail, skip, crash, timeout,
	flaky; n/a for a whole suite not applicable, as kind:suite:*)."""
	out: Dict[str, str] = {}
	for s in results.get('suites', []):
		msg = str(s.get('message', ''))
		if s.get('status') == 'skip' and msg.startswith('not applicable: '):
			out[f'{s["kind"]}:{s["name"]}:*'] = NA
			continue
		for c in s.get('cases', []):
			word = 'flaky' if c.get('flaky') else str(c['status'])
			out[f'{s["kind"]}:{s["name"]}:{c["name"]}'] = word
	return out


def _lookup(v: Mapping[str, str], key: str) -> str:
	if key in v:
		return v[key]
	kind, suite, _ = key.split(':', 2)
	return v.get(f'{kind}:{suite}:*', ABSENT)


def differences(runs: Mapping[str, Mapping[str, str]]) -> List[Tuple[str, List[str]]]:
	"""Every case whose verdict is not the same in every release, with
	its verdict per release (in the order of runs). Only the kinds every
	release ran are compared (a --kind kunit run has no kselftest cases)."""
	kinds = [{k.split(':', 1)[0] for k in v} for v in runs.values()]
	common = set.intersection(*kinds) if kinds else set()
	keys = sorted({k for v in runs.values() for k in v
		       if not k.endswith(':*') and k.split(':', 1)[0] in common})
	out = []
	for key in keys:
		row = [_lookup(v, key) for v in runs.values()]
		if len(set(row)) > 1:
			out.append((key, row))
	return out


def _fold_key(key: str, row: Sequence[str]) -> Optional[Tuple[str, Tuple[str, ...]]]:
	"""kind:suite and the row to show, for a case whose only difference
	is being not applicable somewhere; None for a real difference."""
	if NA not in row or len({v for v in row if v != NA}) != 1:
		return None
	kind, suite, _ = key.split(':', 2)
	return f'{kind}:{suite}', tuple(NA if v == NA else 'same' for v in row)


def folded(rows: Sequence[Tuple[str, List[str]]]) -> List[Tuple[str, List[str]]]:
	"""The table's rows, with the cases of a suite kind that differ only
	by being not applicable somewhere (each case has one verdict wherever
	it ran) folded into one row, `kind:suite:* (N cases)`: n/a where it
	did not run, `same` where it did. Cases that differ where they ran
	keep their own rows; matrix.json keeps every case."""
	count = Counter(g for g in (_fold_key(k, r) for k, r in rows) if g)
	out: List[Tuple[str, List[str]]] = []
	for key, row in rows:
		g = _fold_key(key, row)
		if g is None:
			out.append((key, row))
		elif g in count:
			n = count.pop(g)
			out.append((f'{g[0]}:* ({n} case{"s" if n > 1 else ""})', list(g[1])))
	return out


def table(releases: Sequence[str], rows: Sequence[Tuple[str, List[str]]]) -> List[str]:
	if not rows:
		return ['every case has the same verdict in every release']
	width = max(len(k) for k, _ in rows)
	cols = [max([len(r), 7] + [len(row[i]) for _, row in rows])
		for i, r in enumerate(releases)]
	out = [f'{"case":<{width}}  ' + '  '.join(f'{r:<{w}}' for r, w in zip(releases, cols))]
	for key, row in rows:
		out.append(f'{key:<{width}}  ' + '  '.join(f'{v:<{w}}' for v, w in zip(row, cols)))
	return out


def fix_rows(releases: Sequence[str], results: Mapping[str, Mapping[str, Any]]
	     ) -> List[Tuple[str, List[str]]]:
	"""Per fix (and distribution library), its verdict per release."""
	names: Dict[str, Dict[str, str]] = {}
	for r in releases:
		for f in results[r].get('fixes', []):
			key = (f['patch'] if f.get('release') else f['patch'][:4]) + \
				(f' ({f["component"]})' if f.get('component') else '')
			names.setdefault(key, {})[r] = str(f['verdict'])
	return [(k, [v.get(r, ABSENT) for r in releases]) for k, v in names.items()]


def summary(releases: Sequence[str], results: Mapping[str, Mapping[str, Any]],
	    walls: Mapping[str, float]) -> Tuple[List[str], Dict[str, Any]]:
	"""The matrix's summary lines and matrix.json."""
	runs = {r: verdicts(results[r]) for r in releases}
	rows = differences(runs)
	lines = ['== releases']
	for r in releases:
		res = results[r]
		k = report.KernelInfo.from_json(res.get('kernel', {}))
		t = res.get('totals', {})
		lines.append(f'   {r}: {k.version}, {t.get("pass", 0)} passed, '
			     f'{sum(t.get(s, 0) for s in ("fail", "crash", "timeout"))} not passed, '
			     f'{t.get("skip", 0)} skipped; build {res.get("stages", {}).get("build", 0):.0f} s, '
			     + (f'wall {walls[r]:.0f} s' if r in walls else 'wall not recorded'))
		for na in res.get('not_applicable', []):
			lines.append(f'      not applicable: {na["kind"]} {na["suite"]}: {na["reason"]}')
		for e in res.get('errors', []):
			lines.append('      error: ' + str(e).split('\n', 1)[0])
	lines.append('== cases whose verdict differs between releases')
	lines += ['   ' + l for l in table(releases, folded(rows))]
	lines.append('== bugs per release, the series\' (fixes omitted) and the upstream stable fixes\' (carries / fixed)')
	lines += ['   ' + l for l in table(releases, fix_rows(releases, results))]
	for r in releases:
		fx = results[r].get('fixes', [])
		if fx:
			lines.append(f'-- {r}')
			lines += fixes.lines(fx)
	doc = {'releases': list(releases),
	       'runs': {r: {'kernel': results[r].get('kernel', {}),
			    'totals': results[r].get('totals', {}),
			    'stages': results[r].get('stages', {}),
			    'wall_s': round(walls[r], 1) if r in walls else None,
			    'not_applicable': results[r].get('not_applicable', []),
			    'errors': results[r].get('errors', []),
			    'fixes': [{'patch': f['patch'], 'verdict': f['verdict']}
				      for f in results[r].get('fixes', [])]}
		    for r in releases},
	       'differences': [{'case': k, 'verdicts': dict(zip(releases, row))}
			       for k, row in rows]}
	return lines, doc


def changes_section(pairs: Sequence[Sequence[str]]) -> List[str]:
	"""matrix.txt's last section: per neighbouring pair of releases, the
	lines of changes.between (the first names the pair)."""
	out = ['== changes between releases (kconform changes: the features\' hunks)']
	for lines in pairs:
		out += ['   ' + lines[0]] + ['      ' + l for l in lines[1:]]
	return out
