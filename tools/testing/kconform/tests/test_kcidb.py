# SPDX-License-Identifier: GPL-2.0
"""KCIDB output against kcidb-io's own JSON schema (v5.3), checked by
Debian's python3-jsonschema: every recorded console, ids, paths, NUL,
accepted failures and findings as issues and incidents."""

import dataclasses
import datetime
import json
import os
import subprocess
import tempfile
import unittest
from typing import Any, Dict, List, Sequence

from kconform import bench, console, gate, kcidb, report
from kconform.model import Case, Status, Suite

from .test_console import DATA

SCHEMA = DATA / 'kcidb' / 'kcidb-io-v05_03.schema.json'
# Debian's interpreter, whose python3-jsonschema `make deps-tests` installs
# (another one, a pyenv python, may run the tests)
SYSTEM_PYTHON = '/usr/bin/python3'
VALIDATE = '''
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
check = jsonschema.Draft7Validator(schema, format_checker=jsonschema.draft7_format_checker)
out = []
for doc in json.load(open(sys.argv[2])):
	out.append([f"{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}"
		    for e in check.iter_errors(doc)][:5])
print(json.dumps(out))
'''
TODAY = datetime.date(2026, 12, 5)
KERNEL = report.KernelInfo('linux-source-6.1', '6.1.192', 'ab' * 32, variant='debug')


def schema_errors(docs: Sequence[Dict[str, Any]]) -> List[List[str]]:
	"""Per document, the schema's complaints (none: valid)."""
	with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False) as f:
		json.dump(list(docs), f)
	try:
		r = subprocess.run([SYSTEM_PYTHON, '-c', VALIDATE, str(SCHEMA), f.name],
				   capture_output=True, text=True, check=False, timeout=300)
	finally:
		os.unlink(f.name)
	if r.returncode != 0:
		raise AssertionError(f'{SYSTEM_PYTHON} could not validate (make deps-tests '
				     f'installs python3-jsonschema): {r.stderr[-2000:]}')
	got: List[List[str]] = json.loads(r.stdout)
	return got


def recorded() -> List[report.RunReport]:
	"""A run report of every recorded console, as `parse` makes it."""
	out = []
	logs = sorted([*DATA.glob('*.log'), *(DATA / 'gate').glob('*.log'),
		       *(DATA / 'bad').glob('*.log')])
	for log in logs:
		raw = log.read_bytes().decode('utf-8', 'replace').splitlines()
		if 'kunit' in log.name:
			suites = console.suites_from_console(raw, 'kunit', [], False,
							     '<kunit boot>')
		else:
			rest, sections = bench.split(raw)
			suites = console.suites_from_console(rest, 'kselftest', [], False,
							     '<guest boot>')
			suites += bench.suites(sections, [], False)
		out.append(report.RunReport(dataclasses.replace(KERNEL, source=f'console log {log.name}'),
					    'tcg', suites))
	return out


def convert(rep: report.RunReport, run: str = 'r1',
	    known: Sequence[gate.KnownIssue] = ()) -> Dict[str, Any]:
	v = gate.decide(rep.suites, known, None, TODAY)
	return kcidb.convert(rep, v, run)


class KcidbSchemaTest(unittest.TestCase):

	def test_every_recorded_console_is_valid_v5_3(self) -> None:
		reps = recorded()
		self.assertGreater(len(reps), 30)
		docs = [convert(rep) for rep in reps]
		for rep, doc, errors in zip(reps, docs, schema_errors(docs)):
			self.assertEqual(errors, [], rep.kernel.source)
			self.assertEqual(doc['version'], {'major': 5, 'minor': 3})
			ids = [t['id'] for t in doc['tests']]
			self.assertEqual(len(ids), len(set(ids)), rep.kernel.source)

	def test_accepted_failures_and_findings_are_incidents(self) -> None:
		ks = Suite('tcp_ehash', 'kselftest', [
			Case('t/global.slow (x 2)', Status.TIMEOUT, 'late'),
			Case('t/global.fl', Status.PASS, 'flaky', flaky=True),
			Case('t/guard', Status.FAIL, 'bug\x00here')])
		be = Suite('bpf_user_ringbuf', 'bench', [Case('u2k 8 B', Status.PASS, '',
							     {'samples_per_s': 5.1e6})])
		rep = report.RunReport(dataclasses.replace(KERNEL), 'tcg', [ks, be], {'build': 500.0})
		rep.fixes = [{'patch': '0101-x.patch', 'upstream': 'abc', 'effect': 'leaks',
			      'failing': ['kselftest:tcp_ehash:t/guard'],
			      'verdict': 'carries the bug'}]
		known = [gate.KnownIssue('tcp_ehash', 't/global.slow*', 'slow under TCG',
					 datetime.date(2027, 1, 1), status=frozenset({'timeout'}))]
		v = gate.decide(rep.suites, known, None, TODAY,
				findings={('kselftest', 'tcp_ehash', 't/guard')})
		doc = kcidb.convert(rep, v, 'r1')
		self.assertEqual(schema_errors([doc]), [[]])
		by_path = {t['path']: t for t in doc['tests']}
		slow = by_path['kselftest.tcp_ehash.t.global-2eslow-20-28x-202-29']
		self.assertEqual(slow['status'], 'ERROR')
		guard = by_path['kselftest.tcp_ehash.t.guard']
		self.assertEqual((guard['status'], guard['log_excerpt']), ('FAIL', 'bug\\x00here'))
		incidents = {i['test_id']: i['issue_id'] for i in doc['incidents']}
		issues = {i['id']: i for i in doc['issues']}
		self.assertIn('slow under TCG', issues[incidents[slow['id']]]['comment'])
		self.assertIn('0101-x.patch', issues[incidents[guard['id']]]['comment'])
		self.assertEqual(len(incidents), 2)
		done = by_path['bench.bpf_user_ringbuf.u2k-208-20B.samples_per_s']
		self.assertEqual((done['status'], done['number']), ('DONE', {'value': 5.1e6}))

	def test_ids_hold_the_run_and_paths_never_collide(self) -> None:
		s = Suite('x', 'kunit', [Case('a.b', Status.PASS), Case('a/b', Status.PASS),
					 Case('a_b', Status.PASS), Case('a-b', Status.PASS),
					 Case('<kernel report>', Status.CRASH, 'one'),
					 Case('<kernel report>', Status.CRASH, 'two')])
		rep = report.RunReport(dataclasses.replace(KERNEL), 'tcg', [s])
		one, two = convert(rep, 'r1'), convert(rep, 'r2')
		self.assertEqual(schema_errors([one, two]), [[], []])
		paths = [t['path'] for t in one['tests']]
		self.assertEqual(len(set(paths[:4])), 4, paths)
		ids = [t['id'] for d in (one, two) for t in d['tests']] + \
			[b['id'] for d in (one, two) for b in d['builds']]
		self.assertEqual(len(ids), len(set(ids)))
		self.assertTrue(one['builds'][0]['id'].endswith('-debug'))
		self.assertNotEqual(kcidb.run_id(), kcidb.run_id())


if __name__ == '__main__':
	unittest.main()
