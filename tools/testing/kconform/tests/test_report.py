# SPDX-License-Identifier: GPL-2.0
"""results.json and junit.xml: well-formed whatever the console held."""

import json
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path

from kconform import console, report
from kconform.model import Case, Status, Suite

from .test_console import DATA


def garbage() -> report.RunReport:
	"""The recorded console read as bytes that are not all UTF-8: what
	is not becomes lone surrogates (surrogateescape)."""
	raw = (DATA / 'kunit_garbage.log').read_bytes().decode(
		'utf-8', errors='surrogateescape').splitlines()
	suites = console.suites_from_console(raw, 'kunit', ['tcp_ehash'], False,
					     '<kunit boot>')
	rep = report.RunReport({'source': 'linux-source-6.1'}, 'tcg', suites)
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


if __name__ == '__main__':
	unittest.main()
