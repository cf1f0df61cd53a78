# SPDX-License-Identifier: GPL-2.0
"""The gate on recorded inputs: strict known issues, scopes, fixed entries,
flaky reruns and the summary's vocabulary (issue 12, items 2, 12-15)."""

import datetime
import unittest
from pathlib import Path
from typing import List

from kconform import console, gate, report
from kconform.model import Case, InputError, Status, Suite

DATA = Path(__file__).parent / 'test_data' / 'gate'
TODAY = datetime.date(2026, 12, 4)


def console_suites(name: str) -> List[Suite]:
	raw = (DATA / name).read_text().splitlines()
	return console.suites_from_console(raw, 'kselftest', ['tcp_ehash'], False,
					   '<guest boot>')


def ksft(*cases: Case) -> List[Suite]:
	s = Suite('tcp_ehash', 'kselftest', list(cases))
	s.settle()
	return [s]


class KnownIssueTest(unittest.TestCase):

	def test_entry_must_name_its_case(self) -> None:
		# Item 2: `case` used to default to '*'.
		with self.assertRaisesRegex(InputError, r'issue #1: lacks case'):
			gate.load_known(DATA / 'known_wildcard.toml')

	def test_wildcard_never_accepts_a_kernel_report_or_panic(self) -> None:
		# Item 2: the KASAN report and the panic stay failures even for an
		# entry that accepts every status and every case.
		known = [gate.KnownIssue('tcp_ehash', '*', 'anything', TODAY,
					 status=frozenset({'fail', 'crash', 'timeout'}))]
		suites = console_suites('kselftest_kasan_panic.log')
		v = gate.decide(suites, known, None, TODAY)
		self.assertFalse(v.ok)
		self.assertIn('kselftest:tcp_ehash:<kernel report>', v.failures)

	def test_fail_only_unless_status_is_named(self) -> None:
		suites = ksft(Case('tcp_ehash_test/global.fallback', Status.CRASH,
				   'no result line: the output ended here (truncated)'))
		key = 'kselftest:tcp_ehash:tcp_ehash_test/global.fallback'
		fail_only = [gate.KnownIssue('tcp_ehash', 'tcp_ehash_test/*', 'r', TODAY)]
		self.assertEqual(gate.decide(suites, fail_only, None, TODAY).failures, [key])
		crash_too = [gate.KnownIssue('tcp_ehash', 'tcp_ehash_test/*', 'r', TODAY,
					     status=frozenset({'crash'}))]
		v = gate.decide(suites, crash_too, None, TODAY)
		self.assertEqual(v.failures, [])
		self.assertEqual(v.accepted, [f'{key} (r; until {TODAY})'])

	def test_bad_files_are_named(self) -> None:
		for name, words in (('known_typo_key.toml', r'issue #1: unknown key cases \(known: accel, case'),
				    ('known_datetime.toml', r'until = .* is not a TOML date'),
				    ('known_single_table.toml', r'\[issue\] is a single table'),
				    ('known_suite_int.toml', r'suite = 5 is not a string'),
				    ('known_latin1.toml', r'not UTF-8'),
				    ('.', r'not a regular file'),
				    ('missing.toml', r'no such file')):
			with self.subTest(name), self.assertRaisesRegex(InputError, words):
				gate.load_known(DATA / name)

	def test_status_values_are_checked(self) -> None:
		with self.assertRaisesRegex(InputError, r"status \['pass'\]"):
			gate._entry({'suite': 's', 'case': 'c', 'reason': 'r',
				     'until': TODAY, 'status': 'pass'}, 'x')

	def test_scope_by_kernel_and_accelerator(self) -> None:
		# Item 15: a TCG-only crash is not excused under KVM or on 6.6.
		known = gate.load_known(DATA / 'known_scoped.toml')
		slow = ksft(Case('tcp_ehash_test/global.slow', Status.CRASH, 'soft lockup'))
		key = 'kselftest:tcp_ehash:tcp_ehash_test/global.slow'
		self.assertTrue(gate.decide(slow, known, None, TODAY, '6.1.192', 'tcg').ok)
		v = gate.decide(slow, known, None, TODAY, '6.1.192', 'kvm')
		self.assertEqual(v.failures, [key])
		v = gate.decide(slow, known, None, TODAY, '6.6.1', 'tcg')
		self.assertEqual(v.failures, [key])

	def test_fixed_entry_fails_the_gate(self) -> None:
		# Item 13: the case of a non-intermittent entry now passes.
		known = gate.load_known(DATA / 'known_scoped.toml')
		suites = ksft(Case('tcp_ehash_test/global.loopback', Status.PASS),
			      Case('tcp_ehash_test/global.racy', Status.PASS))
		v = gate.decide(suites, known, None, TODAY, '6.1.192', 'tcg')
		self.assertFalse(v.ok)
		self.assertEqual(len(v.fixed), 1)
		self.assertIn('issue #3', v.fixed[0])
		self.assertIn('tcp_ehash_test/global.loopback now passes', v.fixed[0])
		self.assertIn('gate: fixed: remove this entry: ', '\n'.join(v.lines()))

	def test_intermittent_entry_may_pass(self) -> None:
		known = gate.load_known(DATA / 'known_scoped.toml')
		suites = ksft(Case('tcp_ehash_test/global.racy', Status.PASS))
		self.assertEqual(gate.decide(suites, known, None, TODAY).fixed, [])
		suites = ksft(Case('tcp_ehash_test/global.racy', Status.FAIL, 'race'))
		self.assertTrue(gate.decide(suites, known, None, TODAY).ok)


class FlakyTest(unittest.TestCase):

	def test_rerun_pass_is_flaky_never_silent(self) -> None:
		# Item 14: run 2 failed global.fallback, the rerun passed it.
		first = console_suites('kselftest_run2.log')
		self.assertEqual(gate.to_rerun(first, [], '6.1.192', 'tcg', TODAY),
				 {('kselftest', 'tcp_ehash')})
		again = console_suites('kselftest_run1.log')
		merged = gate.merge_rerun(first, again)
		fallback = next(c for c in merged[0].cases
				if c.name == 'tcp_ehash_test/global.fallback')
		self.assertEqual(fallback.status, Status.PASS)
		self.assertTrue(fallback.flaky)
		self.assertIn('Expected 32 == 64', fallback.message)
		v = gate.decide(merged, [], None, TODAY)
		self.assertTrue(v.ok)
		self.assertEqual(v.flaky, ['kselftest:tcp_ehash:tcp_ehash_test/global.fallback'])
		self.assertIn('gate: flaky: kselftest:tcp_ehash:tcp_ehash_test/global.fallback',
			      v.lines())
		strict = gate.decide(merged, [], None, TODAY, fail_on_flaky=True)
		self.assertFalse(strict.ok)

	def test_accepted_failure_is_not_rerun_and_kernel_reports_stay(self) -> None:
		known = [gate.KnownIssue('tcp_ehash', 'tcp_ehash_test/global.fallback',
					 'r', TODAY)]
		first = console_suites('kselftest_run2.log')
		self.assertEqual(gate.to_rerun(first, known, '', '', TODAY), set())
		crashed = console_suites('kselftest_kasan_panic.log')
		merged = gate.merge_rerun(crashed, console_suites('kselftest_run1.log'))
		self.assertIn('<kernel report>', [c.name for c in merged[0].cases])
		self.assertFalse(gate.decide(merged, [], None, TODAY).ok)


class SummaryTest(unittest.TestCase):

	def test_accepted_reads_accepted(self) -> None:
		# Item 12: the table said FAIL while the last line said 0 failed.
		known = [gate.KnownIssue('tcp_ehash', 'tcp_ehash_test/global.fallback',
					 'libbpf bug', TODAY)]
		suites = console_suites('kselftest_run2.log')
		v = gate.decide(suites, known, None, TODAY)
		rep = report.RunReport(report.KernelInfo('s', 'v'),
				       'tcg', suites, verdict=v)
		table = report.summary(rep)
		self.assertEqual(table[0], '== kselftest tcp_ehash: ACCEPTED (1 pass, 0 fail, '
			   '0 skip, 0 crash, 0 timeout, 1 accepted)')
		self.assertRegex(table[2], r'tcp_ehash_test/global.fallback\s+accepted  ')
		self.assertEqual(v.lines()[-2:], ['gate: of the 1 failed in results.json totals, '
						  'not failures: 1 accepted',
						  '1 passed, 0 failed, 0 skipped'])


if __name__ == '__main__':
	unittest.main()
