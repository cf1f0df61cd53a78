# SPDX-License-Identifier: GPL-2.0
"""results.json (schema 1), junit.xml and the summary on stdout."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List

from .model import BAD, Case, Status, Suite

SCHEMA = 1


@dataclass
class RunReport:
	kernel: Dict[str, str]
	accel: str
	suites: List[Suite] = field(default_factory=list)
	stages: Dict[str, float] = field(default_factory=dict)
	errors: List[str] = field(default_factory=list)

	def totals(self) -> Dict[str, int]:
		t = {s.value: 0 for s in Status}
		for suite in self.suites:
			for case in suite.cases:
				t[case.status.value] += 1
		return t

	def to_json(self) -> Dict[str, Any]:
		return {
			'schema': SCHEMA,
			'kernel': self.kernel,
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
		}


def _case(c: Case) -> Dict[str, Any]:
	out: Dict[str, Any] = {'name': c.name, 'status': c.status.value,
			       'message': c.message}
	if c.metrics:
		out['metrics'] = c.metrics
	return out


def write_json(report: RunReport, path: Path) -> None:
	path.write_text(json.dumps(report.to_json(), indent=1) + '\n')


def write_junit(report: RunReport, path: Path) -> None:
	root = ET.Element('testsuites', name='kconform')
	for s in report.suites:
		bad = sum(1 for c in s.cases if c.status in BAD)
		skipped = sum(1 for c in s.cases if c.status == Status.SKIP)
		el = ET.SubElement(root, 'testsuite', name=f'{s.kind}.{s.name}',
				   tests=str(len(s.cases)), failures=str(bad),
				   skipped=str(skipped))
		for c in s.cases:
			tc = ET.SubElement(el, 'testcase', name=c.name,
					   classname=f'{s.kind}.{s.name}')
			if c.status == Status.SKIP:
				ET.SubElement(tc, 'skipped', message=c.message)
			elif c.status in BAD:
				f = ET.SubElement(tc, 'failure', type=c.status.value,
						  message=c.message.split('\n', 1)[0])
				f.text = c.message
	ET.ElementTree(root).write(path, encoding='unicode', xml_declaration=True)


def summary(report: RunReport) -> List[str]:
	"""A table per suite, failures with the first lines of their message."""
	out = []
	for s in report.suites:
		counts = {st: sum(1 for c in s.cases if c.status == st) for st in Status}
		out.append(f'== {s.kind} {s.name}: {s.status.value.upper()} '
			   f'({counts[Status.PASS]} pass, {counts[Status.FAIL]} fail, '
			   f'{counts[Status.SKIP]} skip, {counts[Status.CRASH]} crash, '
			   f'{counts[Status.TIMEOUT]} timeout)')
		width = max((len(c.name) for c in s.cases), default=10)
		for c in s.cases:
			line = f'   {c.name:<{width}}  {c.status.value}'
			if c.metrics:
				line += '  ' + ' '.join(f'{k}={v:g}' for k, v in
							c.metrics.items())
			if c.status != Status.PASS and c.message:
				first = c.message.strip().split('\n')
				line += '  ' + first[0][:150]
				for more in first[1:6] if c.status in BAD else []:
					line += '\n   ' + ' ' * width + '    ' + more[:150]
			out.append(line)
	for e in report.errors:
		out.append('error: ' + e.split('\n', 1)[0])
	return out
