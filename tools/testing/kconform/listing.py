# SPDX-License-Identifier: GPL-2.0
"""--list: every suite and case a run would report, read from the sources.

Nothing is built. KUnit cases come from the `struct kunit_case` table
that a `struct kunit_suite` names; kselftest cases from the harness
macros of each program of the target (TEST, TEST_F, FIXTURE_VARIANT_ADD).
A parameterised KUnit case, a program that does not use the harness and a
benchmark print `*` where the names are known only at run time.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, List

from .suites import Selection

_SUITE = re.compile(r'struct kunit_suite\s+\w+\s*=\s*\{(.*?)\};', re.S)
_FIELD = re.compile(r'\.(name|test_cases)\s*=\s*("([^"]*)"|\w+)')
_CASES = r'struct kunit_case\s+{}\s*\[\]\s*=\s*\{{(.*?)\}};'
_KCASE = re.compile(r'KUNIT_CASE(_PARAM)?\(\s*(\w+)')
_TEST = re.compile(r'^TEST(?:_SIGNAL)?\(\s*(\w+)', re.M)
_TEST_F = re.compile(r'^TEST_F(?:_SIGNAL|_TIMEOUT)?\(\s*(\w+)\s*,\s*(\w+)', re.M)
_VARIANT = re.compile(r'^FIXTURE_VARIANT_ADD\(\s*(\w+)\s*,\s*(\w+)', re.M)
_PROGS = re.compile(r'^TEST_GEN_PROGS\s*[:+]?=\s*(.*)$', re.M)


def kunit_cases(root: Path) -> Dict[str, List[str]]:
	"""{suite: [case, ...]} of every KUnit source below root."""
	out: Dict[str, List[str]] = {}
	for f in sorted(root.rglob('*.c')):
		text = f.read_text(errors='replace')
		for m in _SUITE.finditer(text):
			fields = {k: (q or v) for k, v, q in _FIELD.findall(m.group(1))}
			if 'name' not in fields or 'test_cases' not in fields:
				continue
			table = re.search(_CASES.format(re.escape(fields['test_cases'])),
					  text, re.S)
			if table:
				out[fields['name']] = [n + ('/*' if p else '') for p, n in
						      _KCASE.findall(table.group(1))]
	return out


def harness_cases(source: str) -> List[str]:
	"""fixture[.variant].test names, as 6.1's kselftest_harness.h prints."""
	if 'TEST_HARNESS_MAIN' not in source:
		return ['*']
	variants: Dict[str, List[str]] = {}
	for fixture, variant in _VARIANT.findall(source):
		variants.setdefault(fixture, []).append(variant)
	out = [f'global.{t}' for t in _TEST.findall(source)]
	for fixture, test in _TEST_F.findall(source):
		for v in variants.get(fixture, ['']):
			out.append(f'{fixture}.{v}.{test}' if v else f'{fixture}.{test}')
	return sorted(out)


def kselftest_cases(target_dir: Path) -> List[str]:
	progs: List[str] = []
	mk = target_dir / 'Makefile'
	if mk.exists():
		for m in _PROGS.finditer(mk.read_text()):
			progs += m.group(1).split()
	out = []
	for prog in progs:
		# bpf.mk's <prog>_debian_libbpf twin: the same source
		src = target_dir / f'{prog.removesuffix("_debian_libbpf")}.c'
		cases = harness_cases(src.read_text()) if src.exists() else ['*']
		out += [f'{prog}/{c}' for c in cases]
	return out


def lines(repo: Path, sel: Selection) -> List[str]:
	"""`kind:suite:case` lines, in the gate's spelling, selection applied."""
	kunit = kunit_cases(repo / 'kunit')
	out = []
	for spec in sel.specs:
		for name in spec.kunit:
			out += [f'kunit:{name}:{c}' for c in kunit.get(name, ['*'])
				if sel.wants('kunit', name, c)]
		if spec.kselftest:
			out += [f'kselftest:{spec.kselftest}:{c}' for c in
				kselftest_cases(repo / 'kselftests' / spec.kselftest)
				if sel.wants('kselftest', spec.kselftest, c)]
		if spec.bench and sel.wants('bench', spec.name, '*'):
			out += [f'bench:{spec.name}:*']
	return out
