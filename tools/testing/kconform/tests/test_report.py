# SPDX-License-Identifier: GPL-2.0
"""results.json and junit.xml: well-formed whatever the console held."""

import json
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path

from kconform import bench, console, report
from kconform.model import Case, Status

from .test_console import DATA, load
from .test_gate import SHARED_CHECK

KERNEL = report.KernelInfo('linux-source-6.1', '6.1.0')


def garbage() -> report.RunReport:
	"""The recorded console read as bytes that are not all UTF-8: what
	is not becomes lone surrogates (surrogateescape)."""
	raw = (DATA / 'kunit_garbage.log').read_bytes().decode(
		'utf-8', errors='surrogateescape').splitlines()
	suites = console.suites_from_console(raw, 'kunit', ['tcp_ehash'], False,
					     '<kunit boot>')
	rep = report.RunReport(KERNEL, 'tcg', suites)
	rep.suites[0].cases.append(Case('bench', Status.PASS,
					metrics={'ops': float('1e999')}))
	return rep


class WriterTest(unittest.TestCase):

	def setUp(self) -> None:
		self.tmp = Path(tempfile.mkdtemp())

	def test_junit_is_well_formed(self) -> None:
		report.write_junit(garbage(), self.tmp / 'junit.xml')
		root = ET.parse(self.tmp / 'junit.xml').getroot()
		got = [(tc.get('name'), [(e.tag, e.get('message'))
					 for e in tc]) for tc in root.iter('testcase')]
		self.assertEqual(got, [
			('tcp_ehash_test_\\x1b[31mcolour\\x1b[0m', [(
				'failure', 'tcp_ehash_test_\\x1b[31mcolour\\x1b[0m: '
				'EXPECTATION FAILED at net/ipv4/tcp_ehash_test.c:80')]),
			('tcp_ehash_test_\\x00nul',
			 [('skipped', 'bell\\x07 and \\udcff')]),
			('tcp_ehash_test_\\udced\\udca0\\udc80surrogate', []),
			('bench', [])])
		failure = root.find('.//failure')
		assert failure is not None and failure.text is not None
		self.assertIn('Expected \\x00\\x07\\x08 == \\ufffe, but '
			      '\\udcff\\udcfe garbage', failure.text)

	def test_json_is_strict_json(self) -> None:
		report.write_json(garbage(), self.tmp / 'results.json')
		text = (self.tmp / 'results.json').read_text(encoding='utf-8')
		data = json.loads(text, strict=True, parse_constant=self.fail)
		cases = data['suites'][0]['cases']
		self.assertEqual([c['name'] for c in cases], [
			'tcp_ehash_test_\\x1b[31mcolour\\x1b[0m',
			'tcp_ehash_test_\\x00nul',
			'tcp_ehash_test_\\udced\\udca0\\udc80surrogate', 'bench'])
		self.assertEqual(cases[3]['metrics'], {'ops': None})
		text.encode('utf-8', errors='strict')
		if SHARED_CHECK.exists():
			r = subprocess.run([sys.executable, str(SHARED_CHECK),
					    str(self.tmp / 'results.json')],
					   capture_output=True, text=True, check=False)
			self.assertEqual(r.returncode, 0, r.stdout)


def timed() -> report.RunReport:
	"""The recorded guest console and the host times of its lines."""
	times = [float(t) for t in load('kselftest_timed.times')]
	rest, rest_times, sections = bench.split_timed(
		load('kselftest_timed.log'), times)
	suites = console.suites_from_console(rest, 'kselftest', ['tcp_ehash'],
					     False, '<guest boot>', rest_times)
	suites += bench.suites(sections, ['tcp_ehash'], False, times)
	return report.RunReport(KERNEL, 'kvm', suites)


class DurationTest(unittest.TestCase):

	def test_cases_are_timed_by_their_console_lines(self) -> None:
		rep = timed()
		got = [(s.kind, c.name, c.status, round(c.duration_s or -1, 6))
		       for s in rep.suites for c in s.cases]
		self.assertEqual(got, [
			('kselftest', 'tcp_ehash_test/global.default_child_is_zero',
			 Status.PASS, 0.51),
			('kselftest', 'tcp_ehash_test/global.child_rounds_up',
			 Status.PASS, 2.51),
			('kselftest', 'tcp_ehash_sysctl.sh', Status.PASS, 1.19),
			('bench', 'lookup_hot', Status.PASS, 1.001),
			('bench', 'lookup_cold', Status.PASS, 2.501)])
		self.assertEqual(report.slowest(rep), [
			'       2.510 s  kselftest tcp_ehash: '
			'tcp_ehash_test/global.child_rounds_up',
			'       2.501 s  bench tcp_ehash: lookup_cold',
			'       1.190 s  kselftest tcp_ehash: tcp_ehash_sysctl.sh',
			'       1.001 s  bench tcp_ehash: lookup_hot',
			'       0.510 s  kselftest tcp_ehash: '
			'tcp_ehash_test/global.default_child_is_zero'])
		self.assertEqual(report.summary(rep)[-6:],
				 ['slowest cases:'] + report.slowest(rep))

	def test_durations_are_written(self) -> None:
		tmp = Path(tempfile.mkdtemp())
		report.write_json(timed(), tmp / 'results.json')
		report.write_junit(timed(), tmp / 'junit.xml')
		data = json.loads((tmp / 'results.json').read_text())
		self.assertEqual([c['duration_s'] for s in data['suites']
				  for c in s['cases']], [0.51, 2.51, 1.19, 1.001, 2.501])
		root = ET.parse(tmp / 'junit.xml').getroot()
		self.assertEqual([tc.get('time') for tc in root.iter('testcase')],
				 ['0.510', '2.510', '1.190', '1.001', '2.501'])


if __name__ == '__main__':
	unittest.main()
