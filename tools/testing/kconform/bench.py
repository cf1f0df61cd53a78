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

import math
import re
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from . import console, ktap
from .model import Case, Status, Suite

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
