# SPDX-License-Identifier: GPL-2.0
"""Benchmarks: programs the guest runs after the kselftests.

A suite's `bench` programs (suites.toml) live in its kselftest target
and are installed with it, but run_kselftest.sh does not run them; the
guest's init runs each between two marker lines,

	kconform: bench <suite> begin
	... a TAP document ...
	kconform: bench <suite> end <exit status>

Each result line of the document is a measured case; the lines
`# kconform-metric: key=value ...` before it are its numbers. A
benchmark never fails on speed: a case fails only when the program says
`not ok` (it could not measure), exits non-zero, prints a malformed
metric, crashes the kernel or never finishes.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from . import console, ktap
from .model import Case, Status, Suite
from .stages import WALL

BEGIN = re.compile(r'^kconform: bench (\S+) begin$')
END = re.compile(r'^kconform: bench (\S+) end (-?\d+)$')
METRIC_PREFIX = '# kconform-metric:'
METRIC = re.compile(r'^# kconform-metric:((?: [A-Za-z_]\w*=[-+]?\d+(?:\.\d+)?'
		    r'(?:[eE][-+]?\d+)?)+)\s*$')


@dataclass
class Section:
	suite: str
	lines: List[ktap.Line] = field(default_factory=list)
	rc: Optional[int] = None	# None: the end marker never came


def split(raw: Sequence[str]) -> Tuple[List[str], List[Section]]:
	"""The console without the bench sections, and the sections."""
	rest, _, sections = split_timed(raw, ())
	return rest, sections


def split_timed(raw: Sequence[str], times: Sequence[float]) -> Tuple[
		List[str], List[float], List[Section]]:
	"""split(), and the host times of the lines kept (times has one per
	raw line)."""
	rest: List[str] = []
	rest_times: List[float] = []
	sections: List[Section] = []
	current: Optional[Section] = None
	kept = -1			# a raw line split in parts is kept once
	for idx, text in ktap.clean(raw):
		begin, end = BEGIN.match(text), END.match(text)
		if begin:
			current = Section(begin.group(1))
			sections.append(current)
		elif end and current and end.group(1) == current.suite:
			current.rc = int(end.group(2))
			current = None
		elif current:
			current.lines.append((idx, text))
		elif idx != kept:
			kept = idx
			rest.append(raw[idx])
			if idx < len(times):
				rest_times.append(times[idx])
	return rest, rest_times, sections


def _parse_metric(text: str) -> Optional[Dict[str, float]]:
	"""The numbers of one metric line; None if it is malformed (a value
	too large for a float, 1e999, is: JSON has no Infinity)."""
	m = METRIC.match(text)
	if not m:
		return None
	out = {}
	for pair in m.group(1).split():
		key, _, value = pair.partition('=')
		out[key] = float(value)
		if not math.isfinite(out[key]):
			return None
	return out


def _metrics(lines: Sequence[ktap.Line]) -> Tuple[Dict[int, Dict[str, float]],
						  List[str]]:
	"""Metrics by the line number of the result line they precede (two
	cases may share a name); bad lines."""
	out: Dict[int, Dict[str, float]] = {}
	bad: List[str] = []
	pending: Dict[str, float] = {}
	for idx, text in lines:
		if text.startswith(METRIC_PREFIX):
			numbers = _parse_metric(text)
			if numbers is None:
				bad.append(text)
			else:
				pending.update(numbers)
		elif ktap.is_result(text):
			if pending:
				out[idx] = pending
			pending = {}
	if pending:
		bad.append('metrics after the last result line: ' +
			   ' '.join(f'{k}={v:g}' for k, v in pending.items()))
	return out, bad


def _suite(sec: Section, timed_out: bool, times: Sequence[float]) -> Suite:
	suite = Suite(sec.suite, 'bench')
	level = ktap.parse_level(sec.lines)
	ktap.time_nodes(level.nodes, times)
	metrics, bad = _metrics(sec.lines)
	for node in level.nodes:
		for case in ktap.leaf_cases(node):
			case.metrics = metrics.get(node.last, {}) \
				if case.name == node.name else {}
			suite.cases.append(case)
	for text in bad:
		suite.cases.append(Case('<metric>', Status.FAIL,
					'malformed metric line: ' + text))
	for problem in ktap.level_problems(level, 'TAP'):
		suite.cases.append(Case('<tap>', Status.FAIL, problem))
	console.crash(suite, sec.lines, console.reports(sec.lines))
	if sec.rc is None:
		status = Status.TIMEOUT if timed_out else Status.CRASH
		tail = '\n'.join(t for _, t in sec.lines[-10:])
		msg = ('the benchmark never reached its end marker' +
		       (' (guest timeout)' if timed_out else '') + ':\n' + tail)
		suite.fail_all(status, msg)
		suite.cases.append(Case('<exit>', status, msg))
	elif sec.rc != 0:
		suite.cases.append(Case('<exit>', Status.FAIL,
					f'the benchmark exited with {sec.rc}'))
	suite.settle()
	return suite


def suites(sections: Sequence[Section], expected: Iterable[str],
	   timed_out: bool, times: Sequence[float] = ()) -> List[Suite]:
	"""A bench suite per section, and a failing one per missing suite."""
	out = [_suite(s, timed_out, times) for s in sections]
	seen = {s.suite for s in sections}
	for name in expected:
		if name not in seen:
			missing = Suite(name, 'bench')
			missing.fail_all(Status.TIMEOUT if timed_out else Status.FAIL,
					 f'benchmark {name} did not run' +
					 (': the guest ran past its timeout'
					  if timed_out else ''))
			missing.settle()
			out.append(missing)
	return out


# The per-netns ehash benchmark (kselftests/tcp_ehash/tcp_ehash_bench.c):
# a case chain_<L> per chain length, ns_per_chain_element, netns_dismantle.
EHASH_SUITE = 'tcp_ehash'
EHASH_KEYS = ('chain', 'sockets', 'shared_kpps', 'shared_min', 'shared_max',
	      'per_netns_kpps', 'per_netns_min', 'per_netns_max', 'ratio')
SYSTEM_PYTHON = '/usr/bin/python3'	# Debian's, with python3-matplotlib


def ehash_rows(results: Sequence[Suite]) -> List[Dict[str, float]]:
	"""The measured chain lengths, shortest first."""
	rows = [c.metrics for s in results
		if s.kind == 'bench' and s.name == EHASH_SUITE
		for c in s.cases if c.name.startswith('chain_')
		and c.status == Status.PASS and all(k in c.metrics for k in EHASH_KEYS)]
	return sorted(rows, key=lambda r: r['chain'])


def _metric(results: Sequence[Suite], case: str) -> Dict[str, float]:
	return next((c.metrics for s in results
		     if s.kind == 'bench' and s.name == EHASH_SUITE
		     for c in s.cases if c.name == case and c.status == Status.PASS),
		    {})


def _within(row: Dict[str, float], ref: Dict[str, float]) -> bool:
	"""The per-netns repetitions of row and ref overlap (min-max)."""
	return row['per_netns_min'] <= ref['per_netns_max'] and \
		ref['per_netns_min'] <= row['per_netns_max']


def shape(rows: Sequence[Dict[str, float]]) -> List[str]:
	"""The seed's claim, checked on the numbers (information, never a
	verdict): the shared series falls with the chain length, in the
	medians and beyond the spread (the min-max ranges of two points do
	not overlap), and the per-netns one stays within the spread of chain
	length 1 (its range overlaps chain 1's)."""
	if len(rows) < 2:
		return ['shape: fewer than 2 chain lengths measured']
	steps = list(zip(rows, rows[1:]))
	medians = sum(1 for a, b in steps if b['shared_kpps'] < a['shared_kpps'])
	beyond = sum(1 for a, b in steps if b['shared_max'] < a['shared_min'])
	below = [r['chain'] for r in rows[1:]
		 if r['shared_max'] < rows[0]['shared_min']]
	flat = sum(1 for r in rows[1:] if _within(r, rows[0]))
	out = []
	if all('ratio_min' in r and 'ratio_max' in r for r in rows):
		# The ratio is taken per repetition, whose two sides shared the
		# host's load: the steadier view of the same claim.
		r_medians = sum(1 for a, b in steps if b['ratio'] < a['ratio'])
		r_beyond = sum(1 for a, b in steps if b['ratio_max'] < a['ratio_min'])
		out.append(f'shape: ratio {rows[0]["ratio"]:.3f} -> '
			   f'{rows[-1]["ratio"]:.3f}; its median falls at {r_medians} '
			   f'of {len(steps)} steps, beyond the spread at {r_beyond}')
	first = rows[0]['shared_kpps']
	factor = f'x{rows[-1]["shared_kpps"] / first:.2f}' if first else 'from 0'
	return [f'shape: shared {rows[0]["shared_kpps"]:.1f} -> '
		f'{rows[-1]["shared_kpps"]:.1f} kpps '
		f'({factor}); its median '
		f'falls at {medians} of {len(steps)} steps, beyond the spread at '
		f'{beyond}; below chain {rows[0]["chain"]:g}\'s spread at '
		+ (', '.join(f'{c:g}' for c in below) or 'no length'),
		f'shape: per-netns {rows[0]["per_netns_kpps"]:.1f} -> '
		f'{rows[-1]["per_netns_kpps"]:.1f} kpps; within chain '
		f'{rows[0]["chain"]:g}\'s spread at {flat} of {len(rows) - 1} lengths'] + out


def ehash_table(results: Sequence[Suite]) -> List[str]:
	"""The seed's table (chain length, sockets, shared, per-netns, ratio),
	medians in kpps with the min-max of the repetitions."""
	rows = ehash_rows(results)
	if not rows:
		return []
	out = [f'== bench {EHASH_SUITE}: TCP lookups (RST to a closed 4-tuple) '
	       'in a netns sharing the global ehash vs owning one, kpps, '
	       'median [min-max]; ratio shared/own per repetition',
	       f'   {"length":>6}  {"sockets":>7}  {"shared":>22}  '
	       f'{"per-netns":>22}  {"ratio":>19}']
	for r in rows:
		spread = (f' [{r["ratio_min"]:.3f}-{r["ratio_max"]:.3f}]'
			  if 'ratio_min' in r and 'ratio_max' in r else '')
		out.append(f'   {r["chain"]:>6.0f}  {r["sockets"]:>7.0f}  '
			   f'{r["shared_kpps"]:>7.1f} [{r["shared_min"]:6.1f}-'
			   f'{r["shared_max"]:6.1f}]  {r["per_netns_kpps"]:>7.1f} '
			   f'[{r["per_netns_min"]:6.1f}-{r["per_netns_max"]:6.1f}]  '
			   f'{r["ratio"]:5.3f}{spread}')
	out += ['   ' + line for line in shape(rows)]
	cost = _metric(results, 'ns_per_chain_element')
	if 'ns_per_element' in cost:
		out.append(f'   cost per chain element: {cost["ns_per_element"]:.1f} ns '
			   f'(least squares of the extra ns per packet when shared, '
			   f'over {cost.get("points", 0):.0f} lengths; intercept '
			   f'{cost.get("intercept_ns", 0):.0f} ns)')
	tw = _metric(results, 'netns_dismantle')
	if 'shared_ms' in tw:
		out.append(f'   dismantle of a netns with {tw.get("tw_sockets", 0):.0f} '
			   f'TIME_WAIT sockets ({tw.get("population", 0):.0f} others in '
			   f'the global table): shared {tw["shared_ms"]:.1f} ms '
			   f'[{tw["shared_min"]:.1f}-{tw["shared_max"]:.1f}], own '
			   f'{tw["per_netns_ms"]:.1f} ms [{tw["per_netns_min"]:.1f}-'
			   f'{tw["per_netns_max"]:.1f}]')
	return out


def draw(rows: Sequence[Dict[str, float]], path: Path) -> None:
	"""The plot: both series, and their ratio per repetition; needs
	matplotlib (python3-matplotlib)."""
	# Imported here: the runner and its tests work without matplotlib.
	import matplotlib  # type: ignore[import]
	matplotlib.use('Agg')
	from matplotlib import pyplot
	fig, (top, bottom) = pyplot.subplots(2, 1, sharex=True, figsize=(7, 7),
					     gridspec_kw={'height_ratios': [3, 2]})
	x = [r['chain'] for r in rows]
	for key, label in (('shared', 'netns sharing the global ehash'),
			   ('per_netns', 'netns with its own ehash')):
		y = [r[f'{key}_kpps'] for r in rows]
		err = [[r[f'{key}_kpps'] - r[f'{key}_min'] for r in rows],
		       [r[f'{key}_max'] - r[f'{key}_kpps'] for r in rows]]
		top.errorbar(x, y, yerr=err, marker='o', capsize=3, label=label)
	top.set_ylabel('lookups per second (thousands)')
	top.set_ylim(bottom=0)
	top.set_title('tcp_ehash: TCP lookups in a child netns (median, min-max)')
	top.legend()
	ratio = [r['ratio'] for r in rows]
	err = [[r['ratio'] - r.get('ratio_min', r['ratio']) for r in rows],
	       [r.get('ratio_max', r['ratio']) - r['ratio'] for r in rows]]
	bottom.errorbar(x, ratio, yerr=err, marker='o', capsize=3, color='C2')
	bottom.set_ylabel('shared / own')
	bottom.set_ylim(0, max(1.2, max(r.get('ratio_max', 1.0) for r in rows)))
	bottom.set_xscale('log', base=2)
	bottom.set_xticks(x)
	bottom.set_xticklabels([f'{v:g}' for v in x], rotation=45)
	bottom.minorticks_off()
	bottom.set_xlabel('mean chain length of the global ehash '
			  '(idle sockets in the initial netns / buckets)')
	for ax in (top, bottom):
		ax.grid(True, alpha=0.3)
	fig.tight_layout()
	fig.savefig(str(path), dpi=100)
	pyplot.close(fig)


def write_plots(results: Sequence[Suite], out: Path) -> List[Path]:
	"""tcp_ehash.png next to results.json, drawn here when this Python
	has matplotlib, else by Debian's python3 (another interpreter, a
	pyenv one, may run kconform); nothing without measurements or
	matplotlib (said on stderr)."""
	rows = ehash_rows(results)
	if not rows:
		return []
	path = out / f'{EHASH_SUITE}.png'
	try:
		draw(rows, path)
		return [path]
	except ImportError:
		pass
	if not os.path.exists(SYSTEM_PYTHON) or \
			os.path.realpath(sys.executable) == os.path.realpath(SYSTEM_PYTHON):
		print('kconform: no plot: python3-matplotlib is not installed',
		      file=sys.stderr)
		return []
	code = ('import json, sys; from pathlib import Path; '
		'from kconform import bench; '
		'bench.draw(json.loads(sys.stdin.read()), Path(sys.argv[1]))')
	env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
	r = subprocess.run([SYSTEM_PYTHON, '-c', code, str(path)], env=env,
			   input=json.dumps(rows), capture_output=True, text=True,
			   timeout=120, check=False)
	if r.returncode != 0:
		print('kconform: no plot: ' + (r.stderr.strip().splitlines() or ['?'])[-1],
		      file=sys.stderr)
		return []
	return [path]


# The runner's own times, two runs side by side (`kconform timing`): what
# the suite costs to use, from the stages and case durations that every
# results.json records; the benchmarks above measure the features.
TIMED_STAGES = (('run', 'the run, wall clock'),
		('run-kselftest', 'kselftest boot'), ('run-kunit', 'KUnit boot'),
		('build', 'kernel build'), ('userspace', 'kselftest user space'))
SLOWEST = 8


@dataclass(frozen=True)
class Timed:
	"""One run's times: its label, results.json's stages and suites."""
	label: str
	stages: Dict[str, float]
	suites: Sequence[Suite]


def _case_times(run: Timed, kind: str) -> Dict[Tuple[str, str], float]:
	return {(s.name, c.name): c.duration_s for s in run.suites if s.kind == kind
		for c in s.cases if c.duration_s is not None}


def _row(name: str, values: Sequence[Optional[float]]) -> str:
	"""Seconds per run, the last run's ratio to the first, the name."""
	cells = ''.join(f'{v:>10.1f}' if v is not None else f'{"-":>10}'
			for v in values)
	first, last = values[0], values[-1]
	ratio = f'x{last / first:.2f}' if first and last is not None else ''
	return f'{cells}{ratio:>8}  {name}'


def timing(runs: Sequence[Timed]) -> List[str]:
	"""Seconds per stage, the stages summed, the kselftest case time per
	target, and the slowest kselftest cases of any of the runs, one
	column per run (the last column's ratio to the first)."""
	out = ['== times in seconds (results.json: stages, case duration_s)',
	       ''.join(f'{r.label[:9]:>10}' for r in runs) + f'{"ratio":>8}']
	for key, name in TIMED_STAGES:
		if any(key in r.stages for r in runs):
			out.append(_row(f'{name} ({key})', [r.stages.get(key) for r in runs]))
	out.append(_row('stages summed', [sum(v for k, v in r.stages.items() if k != WALL)
					  for r in runs]))
	times = [_case_times(r, 'kselftest') for r in runs]
	out.append(_row('kselftest cases summed', [sum(t.values()) for t in times]))
	for target in sorted({s for t in times for s, _ in t}):
		out.append(_row(f'  {target}', [sum(v for (s, _), v in t.items()
						   if s == target) or None
						for t in times]))
	slowest = {k for t in times
		   for k in sorted(t, key=lambda k: -t[k])[:SLOWEST]}
	out.append(f'   slowest kselftest cases ({SLOWEST} of each run):')
	for case in sorted(slowest, key=lambda k: -max(t.get(k, 0.0) for t in times)):
		out.append(_row(f'  {case[0]}: {case[1]}', [t.get(case) for t in times]))
	return out
