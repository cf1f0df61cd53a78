# SPDX-License-Identifier: GPL-2.0
"""Known issues, baseline comparison, results.json and JUnit output."""

import datetime
import json
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path

from kconform import gate, report
from kconform.model import Case, KconformError, Status, Suite

SHARED_CHECK = Path(__file__).resolve().parents[5] / 'shared/tools/check-results'
TODAY = datetime.date(2026, 12, 3)


def sample() -> list[Suite]:
	a = Suite('tcp_ehash', 'kunit', [Case('roundup', Status.PASS),
					 Case('fallback', Status.FAIL, 'Expected 1 == 2')])
	b = Suite('tcp_ehash', 'kselftest', [Case('t/global.loopback', Status.SKIP, 'no memcg')])
	for s in (a, b):
		s.settle()
	return [a, b]


class GateTest(unittest.TestCase):

	def setUp(self) -> None:
		self.tmp = Path(tempfile.mkdtemp())

	def known(self, until: str) -> list[gate.KnownIssue]:
		f = self.tmp / 'known.toml'
		f.write_text('[[issue]]\nkind = "kunit"\nsuite = "tcp_ehash"\n'
			     f'case = "fall*"\nreason = "bug 1"\nuntil = {until}\n')
		return gate.load_known(f)

	def test_failure_fails_the_gate(self) -> None:
		v = gate.decide(sample(), [], None, TODAY)
		self.assertFalse(v.ok)
		self.assertEqual(v.failures, ['kunit:tcp_ehash:fallback'])
		self.assertEqual(v.lines()[-1], '1 passed, 1 failed, 1 skipped')

	def test_known_issue_accepted_until_its_date(self) -> None:
		v = gate.decide(sample(), self.known('2026-12-03'), None, TODAY)
		self.assertTrue(v.ok)
		self.assertEqual(v.lines()[-2:], ['gate: of the 1 failed in results.json totals, '
						  'not failures: 1 accepted',
						  '1 passed, 0 failed, 1 skipped'])
		self.assertIn('bug 1', v.accepted[0])

	def test_known_issue_expires(self) -> None:
		v = gate.decide(sample(), self.known('2026-12-02'), None, TODAY)
		self.assertFalse(v.ok)
		self.assertIn('expired 2026-12-02', v.expired[0])

	def test_known_issue_needs_a_date(self) -> None:
		f = self.tmp / 'bad.toml'
		f.write_text('[[issue]]\nsuite = "x"\ncase = "y"\nreason = "r"\n')
		with self.assertRaisesRegex(KconformError, 'lacks until'):
			gate.load_known(f)

	def test_baseline_diff(self) -> None:
		old = report.RunReport(report.KernelInfo('s', 'v', 'x'), 'tcg')
		old.suites = [Suite('tcp_ehash', 'kunit', [Case('roundup', Status.FAIL, 'm'),
							   Case('fallback', Status.PASS),
							   Case('gone', Status.PASS)])]
		path = self.tmp / 'base.json'
		report.write_json(old, path)
		v = gate.decide(sample(), [], gate.load_baseline(path), TODAY)
		self.assertEqual(v.new_failures, ['kunit:tcp_ehash:fallback (pass -> fail)'])
		self.assertEqual(v.new_passes, ['kunit:tcp_ehash:roundup (fail -> pass)'])
		self.assertEqual(v.vanished, ['kunit:tcp_ehash:gone (was pass)'])
		self.assertEqual(v.appeared, ['kselftest:tcp_ehash:t/global.loopback (skip)'])

	def test_bad_baseline_is_named(self) -> None:
		path = self.tmp / 'junk.json'
		path.write_text('{"suites": 3}')
		with self.assertRaisesRegex(KconformError, 'not a results.json'):
			gate.load_baseline(path)


class ReportTest(unittest.TestCase):

	def test_json_shape_and_junit(self) -> None:
		tmp = Path(tempfile.mkdtemp())
		rep = report.RunReport(report.KernelInfo('linux-source-6.1', '6.1.192', 'ab'), 'tcg', sample(), {'build': 1.25})
		report.write_json(rep, tmp / 'results.json')
		data = json.loads((tmp / 'results.json').read_text())
		self.assertEqual(data['schema'], 1)
		self.assertEqual(data['totals'], {'pass': 1, 'fail': 1, 'skip': 1,
						  'crash': 0, 'timeout': 0})
		self.assertEqual(data['suites'][0]['status'], 'fail')
		self.assertEqual(data['suites'][1]['status'], 'skip')
		if SHARED_CHECK.exists():
			r = subprocess.run([sys.executable, str(SHARED_CHECK),
					    str(tmp / 'results.json')],
					   capture_output=True, text=True, check=False)
			self.assertEqual(r.returncode, 0, r.stdout)
		report.write_junit(rep, tmp / 'junit.xml')
		root = ET.parse(tmp / 'junit.xml').getroot()
		suites = root.findall('testsuite')
		self.assertEqual([s.get('name') for s in suites],
				 ['kunit.tcp_ehash', 'kselftest.tcp_ehash'])
		self.assertEqual(suites[0].get('failures'), '1')
		failure = suites[0].find("testcase[@name='fallback']/failure")
		assert failure is not None
		self.assertEqual(failure.text, 'Expected 1 == 2')


if __name__ == '__main__':
	unittest.main()
