# SPDX-License-Identifier: GPL-2.0
"""results.json (schema 1), junit.xml and the summary on stdout."""

from __future__ import annotations

import dataclasses
import json
import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple

from . import bench, ccache
from .applicable import NotApplicable
from .gate import Verdict
from .model import BAD, Case, Status, Suite

SCHEMA = 1
NAME_WIDTH = 60		# of the summary's name column; a longer name overflows


@dataclass(frozen=True)
class StageError:
	"""What ended a stage, and which stage it was."""
	stage: str
	message: str
	signal: bool = False	# a SIGINT or SIGTERM: a matrix or bisect stops too


@dataclass
class PackageInfo:
	"""The linux-image-* package whose own kernel a run booted."""
	asked: str		# as --image named it
	name: str
	version: str
	release: str
	tests_from: str		# the tree that built the kselftests


@dataclass
class KernelInfo:
	"""The kernel a run booted (results.json `kernel`): the tree or
	package, its version, the series on it."""
	source: str
	version: str = '?'
	series_sha256: str = ''
	# run: the --patch files on top of the series (parse: none known)
	extra_patches: Optional[List[Dict[str, str]]] = None
	fixes: str = 'apply'		# --fixes
	variant: Optional[str] = None	# the variant built, 'package' for --image
	package: Optional[PackageInfo] = None
	# hook patches dropped from the series, with the reason
	dropped_patches: Optional[Dict[str, str]] = None
	# a variant's build folder (O=): what it compiled (mutate's "not
	# compiled"); none for a package's kernel
	build_dir: Optional[str] = None

	def to_json(self) -> Dict[str, Any]:
		out: Dict[str, Any] = {'source': self.source, 'version': self.version,
				       'series_sha256': self.series_sha256}
		if self.extra_patches is not None:
			out['extra_patches'] = self.extra_patches
		out['fixes'] = self.fixes
		if self.variant is not None:
			out['variant'] = self.variant
		if self.package is not None:
			out['package'] = dataclasses.asdict(self.package)
		if self.dropped_patches is not None:
			out['dropped_patches'] = self.dropped_patches
		if self.build_dir is not None:
			out['build_dir'] = self.build_dir
		return out

	@classmethod
	def from_json(cls, doc: Mapping[str, Any]) -> KernelInfo:
		"""A results.json's `kernel` read back; what it lacks takes the
		defaults."""
		pkg = doc.get('package')
		return cls(str(doc.get('source', '?')), str(doc.get('version', '?')),
			   str(doc.get('series_sha256', '')), doc.get('extra_patches'),
			   str(doc.get('fixes', 'apply')), doc.get('variant'),
			   PackageInfo(**{f.name: str(pkg.get(f.name, ''))
					  for f in dataclasses.fields(PackageInfo)})
			   if isinstance(pkg, dict) else None,
			   doc.get('dropped_patches'), doc.get('build_dir'))


@dataclass
class RunReport:
	kernel: KernelInfo
	accel: str
	suites: List[Suite] = field(default_factory=list)
	stages: Dict[str, float] = field(default_factory=dict)
	stage_errors: List[StageError] = field(default_factory=list)
	verdict: Optional[Verdict] = None	# the gate's, with its marks
	# the suites not applicable to the tree, reported whole
	not_applicable: List[NotApplicable] = field(default_factory=list)
	fixes: List[Dict[str, Any]] = field(default_factory=list)	# fixes.verdicts
	coverage: List[Dict[str, Any]] = field(default_factory=list)	# coverage.Row
	coverage_lines: List[str] = field(default_factory=list)	# the summary's table
	# per build, what it took from ccache (ccache.measured)
	ccache: Dict[str, Dict[str, int]] = field(default_factory=dict)

	@property
	def errors(self) -> List[str]:
		return [e.message for e in self.stage_errors]

	@property
	def gate(self) -> Dict[str, Any]:
		return self.verdict.to_json() if self.verdict else {}

	@property
	def stopped(self) -> bool:
		"""Did a signal end the run?"""
		return any(e.signal for e in self.stage_errors)

	def fail(self, stage: str, message: str, signal: bool = False) -> None:
		self.stage_errors.append(StageError(stage, message, signal))

	def totals(self) -> Dict[str, int]:
		t = {s.value: 0 for s in Status}
		for suite in self.suites:
			for case in suite.cases:
				t[case.status.value] += 1
		return t

	def to_json(self) -> Dict[str, Any]:
		return {
			'schema': SCHEMA,
			'kernel': self.kernel.to_json(),
			'accel': self.accel,
			'suites': [{
				'name': s.name, 'kind': s.kind,
				'status': s.status.value,
				'message': s.message,
				'cases': [_case(c) for c in s.cases],
			} for s in self.suites],
			'totals': self.totals(),
			'stages': {k: round(v, 1) for k, v in self.stages.items()},
			'errors': self.errors,
			'gate': self.gate,
			'fixes': self.fixes,
			'not_applicable': [{'kind': n.kind, 'suite': n.suite,
					    'reason': n.reason} for n in self.not_applicable],
			**({'coverage': self.coverage} if self.coverage else {}),
			**({'ccache': ccache.record(self.ccache)} if self.ccache else {}),
		}


# What XML 1.0 cannot hold (NUL, ESC, BEL, BS, U+FFFE, lone surrogates:
# serial garbage, colour codes), and lone surrogates, which UTF-8 cannot.
_NOT_XML = re.compile('[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]')


def from_json(doc: Mapping[str, Any]) -> RunReport:
	"""A results.json read back (what the KCIDB conversion needs)."""
	rep = RunReport(kernel=KernelInfo.from_json(doc.get('kernel', {})), accel=str(doc.get('accel', 'tcg')),
			stages=dict(doc.get('stages', {})), fixes=list(doc.get('fixes', [])),
			stage_errors=[StageError('run', str(e)) for e in doc.get('errors', [])])
	for s in doc.get('suites', []):
		rep.suites.append(Suite(s['name'], s['kind'], [
			Case(c['name'], Status(c['status']), c.get('message', ''),
			     {k: v for k, v in c.get('metrics', {}).items() if v is not None},
			     bool(c.get('flaky', False)), c.get('duration_s'))
			for c in s.get('cases', [])], Status(s['status']), s.get('message', '')))
	return rep


def printable(text: str) -> str:
	"""Text that JSON and XML writers and readers all take: characters
	they cannot hold are written as \\xNN or \\uNNNN."""
	return _NOT_XML.sub(lambda m: f'\\x{ord(m.group()):02x}'
			    if ord(m.group()) < 0x100 else
			    f'\\u{ord(m.group()):04x}', text)


def _printable(value: Any) -> Any:
	if isinstance(value, str):
		return printable(value)
	if isinstance(value, dict):
		return {printable(k): _printable(v) for k, v in value.items()}
	if isinstance(value, list):
		return [_printable(v) for v in value]
	return value


def _case(c: Case) -> Dict[str, Any]:
	out: Dict[str, Any] = {'name': c.name, 'status': c.status.value,
			       'message': c.message}
	if c.metrics:
		# JSON has no Infinity or NaN: such a value is null.
		out['metrics'] = {k: v if math.isfinite(v) else None
				  for k, v in c.metrics.items()}
	if c.duration_s is not None:
		out['duration_s'] = round(c.duration_s, 3)
	if c.flaky:
		out['flaky'] = True
	return out


def stopped(results: Mapping[str, Any]) -> bool:
	"""Did a signal end that run (a matrix, bisect or mutate stops then
	too)?"""
	return any(str(e).startswith(('terminated by', 'interrupted'))
		   for e in results.get('errors', []))


def read(path: Path) -> Dict[str, Any]:
	"""A results.json as written (or one with the error that kept it
	from being read): the one reader of the files a run writes."""
	try:
		data = json.loads(path.read_text())
	except (OSError, ValueError) as e:
		return {'errors': [f'{path}: {e}'], 'suites': []}
	return data if isinstance(data, dict) else {'errors': [f'{path}: not an object']}


def as_json(report: RunReport) -> Dict[str, Any]:
	"""The report as results.json holds it."""
	data: Dict[str, Any] = _printable(report.to_json())
	return data


def write_json(report: RunReport, path: Path) -> None:
	path.write_text(json.dumps(as_json(report), indent=1,
				   allow_nan=False) + '\n')


def write_junit(report: RunReport, path: Path) -> None:
	root = ET.Element('testsuites', name='kconform')
	for s in report.suites:
		# JUnit: a failure is a test that failed, an error one that
		# could not finish (crash, timeout)
		failed = sum(1 for c in s.cases if c.status == Status.FAIL)
		errors = sum(1 for c in s.cases if c.status in BAD) - failed
		skipped = sum(1 for c in s.cases if c.status == Status.SKIP)
		suite = printable(f'{s.kind}.{s.name}')
		el = ET.SubElement(root, 'testsuite', name=suite,
				   tests=str(len(s.cases)), failures=str(failed),
				   errors=str(errors), skipped=str(skipped))
		for c in s.cases:
			tc = ET.SubElement(el, 'testcase', name=printable(c.name),
					   classname=suite)
			if c.duration_s is not None:
				tc.set('time', f'{c.duration_s:.3f}')
			message = printable(c.message)
			if c.status == Status.SKIP:
				ET.SubElement(tc, 'skipped', message=message)
			elif c.status in BAD:
				f = ET.SubElement(tc, 'failure' if c.status == Status.FAIL
						  else 'error', type=c.status.value,
						  message=message.split('\n', 1)[0])
				f.text = message
	ET.ElementTree(root).write(path, encoding='unicode', xml_declaration=True)


def slowest(report: RunReport, n: int = 5) -> List[str]:
	"""The n slowest cases, slowest first, one line each."""
	timed = [(c.duration_s, s, c) for s in report.suites for c in s.cases
		 if c.duration_s is not None]
	timed.sort(key=lambda t: -t[0])
	return [f'   {d:9.3f} s  {s.kind} {s.name}: {c.name}'
		for d, s, c in timed[:n]]


def summary(report: RunReport) -> List[str]:
	"""A table per suite, in the gate's words: a failure that a known issue
	accepts reads `accepted`, a case that passed only on a rerun `flaky`;
	failures come with the first lines of their message."""
	marks: Mapping[Tuple[str, str, str], str] = \
		report.verdict.marks if report.verdict else {}
	whole = {(n.kind, n.suite) for n in report.not_applicable}
	out = []
	for s in report.suites:
		words = [marks.get((s.kind, s.name, c.name), c.status.value)
			 for c in s.cases]
		counts = {w: words.count(w) for w in set(words)}
		head = 'NOT APPLICABLE' if (s.kind, s.name) in whole else s.status.value.upper()
		if not any(w in counts for w in ('fail', 'crash', 'timeout')):
			if 'carries the bug' in counts:
				head = 'CARRIES A FIXED BUG'
			elif 'accepted' in counts:
				head = 'ACCEPTED'
		parts = [f'{counts.get(w, 0)} {w}' for w in
			 ('pass', 'fail', 'skip', 'crash', 'timeout')]
		parts += [f'{counts[w]} {w}' for w in ('accepted', 'flaky', 'carries the bug')
			  if w in counts]
		out.append(f'== {s.kind} {s.name}: {head} ({", ".join(parts)})')
		width = min(NAME_WIDTH, max((len(c.name) for c in s.cases), default=10))
		for c, word in zip(s.cases, words):
			line = f'   {c.name:<{width}}  {word}'
			if c.metrics:
				line += '  ' + ' '.join(f'{k}={v:g}' for k, v in
							c.metrics.items())
			if word != 'pass' and c.message:
				first = c.message.strip().split('\n')
				line += '  ' + first[0][:150]
				for more in first[1:6] if word in ('fail', 'crash', 'timeout',
								   'carries the bug') else []:
					line += '\n   ' + ' ' * width + '    ' + more[:150]
			out.append(line)
	out += bench.ehash_table(report.suites)
	if report.ccache:
		out += ccache.lines(ccache.record(report.ccache))
	for e in report.errors:
		out.append('error: ' + e.split('\n', 1)[0])
	slow = slowest(report)
	if slow:
		out.append('slowest cases:')
		out.extend(slow)
	return out
