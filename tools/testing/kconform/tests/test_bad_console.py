# SPDX-License-Identifier: GPL-2.0
"""Bad consoles that must not pass the gate, on recorded inputs
(test_data/bad/): no output, a parent's lost failure, the runner's own
cases in a glob, the baseline's scope, kernel reports, plans."""

import contextlib
import datetime
import io
import json
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import List, Tuple

from kconform import applicable, bench, cli, console, fixes, gate, inputs, ktap, lanes, report, suites
from kconform.model import Case, Status, Suite

from .test_console import DATA, by_name, cases
from .test_gate import SHARED_CHECK

BAD = DATA / 'bad'
GATE = DATA / 'gate'
NO_KNOWN = ['--known-issues', str(GATE / 'known_none.toml')]
TODAY = datetime.date(2026, 12, 5)


def bad(name: str) -> List[str]:
	return (BAD / name).read_text().splitlines()


def ksft(name: str) -> List[Suite]:
	return console.suites_from_console(bad(name), 'kselftest', [], False,
					   '<guest boot>')


def main(*argv: str) -> Tuple[int, str, str]:
	out, err = io.StringIO(), io.StringIO()
	with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
		rc = cli.main(list(argv))
	return rc, out.getvalue(), err.getvalue()


class NoOutputTest(unittest.TestCase):
	"""A console without a result fails, and says what was missing."""

	def test_consoles_without_results_fail(self) -> None:
		out = Path(tempfile.mkdtemp())
		for log, kind in ((BAD / 'empty.log', 'kselftest'),
				  (BAD / 'boot_stops_at_init.log', 'kselftest'),
				  (BAD / 'dmesg_T.log', 'kunit'),
				  (Path('/dev/null'), 'kunit')):
			with self.subTest(log.name):
				rc, stdout, _ = main('parse', '--kind', kind, '--out',
						     str(out / log.name), *NO_KNOWN, str(log))
				self.assertEqual(rc, 1, stdout)
				self.assertIn('gate: FAILED: no test result at all', stdout)
				self.assert_says_what_is_missing(
					out / log.name / 'results.json',
					'KTAP' if kind == 'kunit' else 'TAP')

	def test_a_case_selection_that_ran_nothing_fails(self) -> None:
		out = Path(tempfile.mkdtemp())
		rc, stdout, _ = main('parse', '--kind', 'kselftest', '--out',
				     str(out), *NO_KNOWN, '--case',
				     'tcp_ehash.tcp_ehash_test/never*',
				     str(GATE / 'kselftest_run1.log'))
		self.assertEqual(rc, 1, stdout)
		self.assertIn('gate: FAILED: no test result at all', stdout)
		self.assert_says_what_is_missing(out / 'results.json',
						 'tcp_ehash.tcp_ehash_test/never*')

	def test_only_runner_made_cases_is_no_result_unless_skipped(self) -> None:
		# every suite not applicable here (skipped with the reason) is
		# a result; every suite failed by the runner for want of one is not
		na = Suite('tcp_ehash', 'kunit', [Case(applicable.WHOLE, Status.SKIP,
							  'not applicable: no KUnit')])
		na.settle()
		self.assertTrue(gate.decide([na], [], None, TODAY).ok)
		gone = Suite('tcp_ehash', 'kunit')
		gone.fail_all(Status.FAIL, 'the console holds no KTAP result of this suite')
		v = gate.decide([gone], [], None, TODAY)
		self.assertTrue(any(p.startswith('no test result at all') for p in v.problems),
				v.problems)

	def assert_says_what_is_missing(self, path: Path, missing: str) -> None:
		says_what_is_missing(self, path, missing)


def says_what_is_missing(tc: unittest.TestCase, path: Path, missing: str) -> None:
	"""results.json has the agreed shape: the suites asked for, each
	failing with a runner-made case that names what was missing."""
	data = json.loads(path.read_text())
	tc.assertFalse(data['gate']['ok'])
	tc.assertTrue(data['suites'])
	for s in data['suites']:
		tc.assertEqual(s['status'], 'fail')
		tc.assertEqual([c['name'] for c in s['cases']], ['<suite>'])
		tc.assertIn(missing, s['cases'][0]['message'])
	tc.assertEqual(data['totals']['fail'], len(data['suites']))
	if SHARED_CHECK.exists():	# beside the project's checkout, as make check finds it
		r = subprocess.run([sys.executable, str(SHARED_CHECK), str(path)],
				   capture_output=True, text=True, check=False)
		tc.assertEqual(r.returncode, 0, r.stdout)


class ParentFailureTest(unittest.TestCase):
	"""A parent's not ok is a case of its own when its children do not
	explain it: they passed or skipped, or it died otherwise."""

	def test_segfault_after_a_skip(self) -> None:
		s = by_name(ksft('kselftest_segv_after_skip.log'))['tcp_ehash']
		self.assertEqual(s.status, Status.FAIL)
		parent = [c for c in s.cases if c.name == '<suite>']
		self.assertEqual(len(parent), 1, s.cases)
		self.assertIn('tcp_ehash_test: exit=139', parent[0].message)
		# exit=1 after a failed test adds nothing: no second case
		s = by_name(ksft('kselftest_cut_not.log'))['tcp_ehash']
		self.assertNotIn('<suite>', cases(s))

	def test_timeout_after_a_skip(self) -> None:
		s = by_name(ksft('kselftest_timeout_after_skip.log'))['tcp_ehash']
		self.assertEqual(s.status, Status.FAIL)
		self.assertIn(Status.TIMEOUT, cases(s).values())
		self.assertTrue(any('timed out TIMEOUT' in c.message or '45 seconds' in c.message
				    for c in s.cases if c.status == Status.TIMEOUT))

	def test_kunit_suite_and_parameterised_test(self) -> None:
		got = by_name(console.suites_from_console(
			bad('kunit_parent_not_ok_skip.log'), 'kunit',
			['tcp_ehash', 'statx_dioalign'], False, '<kunit boot>'))
		self.assertEqual(cases(got['tcp_ehash'])['<suite>'], Status.FAIL)
		self.assertEqual(got['tcp_ehash'].status, Status.FAIL)
		self.assertEqual(cases(got['statx_dioalign'])['statx_dioalign_test_params'],
				 Status.FAIL)
		self.assertEqual(got['statx_dioalign'].status, Status.FAIL)


class RunnerCasesTest(unittest.TestCase):
	"""A `<...>` name at any level matches only a glob that spells it."""

	def test_known_issue_glob_does_not_accept_a_truncated_program(self) -> None:
		got = ksft('kselftest_truncated_program.log')
		self.assertIn('tcp_ehash_test/<tap>', cases(by_name(got)['tcp_ehash']))
		known = [gate.KnownIssue('tcp_ehash', 'tcp_ehash_test/*', 'r',
					 datetime.date(2027, 1, 1))]
		v = gate.decide(got, known, None, TODAY)
		self.assertEqual(v.failures, ['kselftest:tcp_ehash:tcp_ehash_test/<tap>'])
		self.assertEqual(len(v.accepted), 1)	# global.fallback
		spelt = [gate.KnownIssue('tcp_ehash', 'tcp_ehash_test/<tap>', 'r',
					 datetime.date(2027, 1, 1))]
		self.assertTrue(spelt[0].covers(('kselftest', 'tcp_ehash',
						 'tcp_ehash_test/<tap>')))

	def test_a_guard_glob_does_not_take_a_truncated_guard(self) -> None:
		fix = fixes.Fix('0001-x.patch', '', 'e', ('kselftest:tcp_ehash:tcp_ehash_test/*',))
		got = ksft('kselftest_truncated_program.log')
		bad_keys = fixes.findings([fix], got, applied=False)
		self.assertNotIn(('kselftest', 'tcp_ehash', 'tcp_ehash_test/<tap>'), bad_keys)
		self.assertIn(('kselftest', 'tcp_ehash', 'tcp_ehash_test/global.fallback'),
			      bad_keys)


class BaselineScopeTest(unittest.TestCase):
	"""The baseline and the results are compared over the same cases."""

	def test_a_stock_suite_that_vanished_is_reported(self) -> None:
		got = console.suites_from_console(bad('kunit_stock_suite.log'), 'kunit',
						  [], False, '<kunit boot>')
		old = {('kunit', 'list-kernel-test', 'list_test_list_init'): 'pass',
		       ('kunit', 'list-kernel-test', 'list_test_list_del'): 'pass',
		       ('kunit', 'list-kernel-test', 'list_test_list_add'): 'pass',
		       ('kunit', 'tcp_ehash', 'tcp_ehash_test_defaults'): 'pass'}
		sel = suites.selection(suites.load(inputs.REPO), [], ['kunit'], [])
		v = gate.decide(got, [], old, TODAY, scope=gate.scope(sel, got))
		self.assertEqual(v.vanished, ['kunit:list-kernel-test:list_test_list_del (was pass)'])
		self.assertEqual(v.appeared, [])
		self.assertFalse(v.ok)

	def test_a_vanished_benchmark_case_is_reported(self) -> None:
		old = {('bench', 'bpf_user_ringbuf', 'user_to_kernel_8B'): 'pass',
		       ('bench', 'bpf_user_ringbuf', 'gone'): 'pass'}
		got = [Suite('bpf_user_ringbuf', 'bench',
			     [Case('user_to_kernel_8B', Status.PASS)])]
		sel = suites.selection(suites.load(inputs.REPO), [], ['kselftest'], [])
		v = gate.decide(got, [], old, TODAY, scope=gate.scope(sel, got))
		self.assertEqual(v.vanished, ['bench:bpf_user_ringbuf:gone (was pass)'])

	def test_a_pass_that_now_skips_is_reported(self) -> None:
		got = [Suite('tcp_ehash', 'kunit', [Case('a', Status.SKIP, 'no memcg')])]
		v = gate.decide(got, [], {('kunit', 'tcp_ehash', 'a'): 'pass'}, TODAY)
		self.assertIn('gate: new skip: kunit:tcp_ehash:a (pass -> skip)', v.lines())


class KernelReportTest(unittest.TestCase):

	def test_reports_the_table_missed(self) -> None:
		lines = ktap.clean(bad('kernel_reports_round2.log'))
		heads = [lines[n][1].split(' ', 3)[:3] for n in console.reports(lines)]
		self.assertEqual([' '.join(h) for h in heads], [
			'rcu: INFO: rcu_preempt', 'INFO: trying to',
			'sysfs: cannot create', 'kc_driver: something this',
			'kmemleak: 3 new', 'unregister_netdevice: waiting for',
			'INFO: task kworker/u4:2'])
		# a stack dump that informs is none
		lines = ktap.clean(['a invoked oom-killer: gfp_mask=0x0, order=0',
				    'CPU: 1 PID: 103 Comm: a Not tainted 6.1.192 #1',
				    'Call Trace:', ' <TASK>', ' </TASK>'])
		self.assertEqual(console.reports(lines), [])
		lines = ktap.clean(['FAULT_INJECTION: forcing a failure.',
				    'name failslab, interval 1, probability 0, space 0, times 1',
				    'CPU: 1 PID: 103 Comm: a Not tainted 6.1.192 #1',
				    'Call Trace:', ' <TASK>', ' </TASK>'])
		self.assertEqual(console.reports(lines), [])

	def test_an_injected_enomem_in_a_lane_is_no_report(self) -> None:
		# A debug run's tcp_ehash fail-nth: sysctl's register of a new
		# netns got -ENOMEM and dumped its stack, between the other
		# lane's TAP lines; the dump was read as a report of its own.
		raw = bad('fail-nth-sysctl-enomem.log')
		self.assertEqual(console.reports(ktap.clean(raw)), [])
		self.assertEqual(lanes.recorded(raw, []), [])
		# the same dump after a header that is no allocation failure
		raw = [t.replace('/net/core -12', '/net/core -17') for t in raw]
		self.assertEqual(len(console.reports(ktap.clean(raw))), 1)

	def test_an_injected_failure_is_no_report_after_another_message(self) -> None:
		# A KUnit boot beside the kselftest boot: fault injection's dump
		# of a failure thermal_of's fail-nth case forced, after the
		# clocksource watchdog's lines (a starved TCG guest), which
		# stood between "FAULT_INJECTION: forcing a failure." and it.
		raw = bad('failslab-dump-after-tsc-watchdog.log')
		self.assertEqual(console.reports(ktap.clean(raw)), [])
		# the same stack, dumped by a WARN_ON instead, is a report
		raw = [t.replace('should_fail_ex+', 'bind_tz+') for t in raw]
		self.assertEqual([ktap.clean(raw)[n][1] for n in console.reports(ktap.clean(raw))],
				 ['tsc: Marking TSC unstable due to clocksource watchdog'])

	def test_another_cpus_line_inside_the_preamble_is_passed_over(self) -> None:
		# A default run's tcp_ehash fail-nth: netlink_intro's lane, on the
		# other CPU, logged "attribute type 1 has an invalid length"
		# between dump_stack()'s "CPU: " and "Hardware name: " lines; it
		# was taken for the dump's header, so both lanes crashed.
		raw = bad('fail-nth-sysctl-enomem-interleaved.log')
		self.assertEqual(console.reports(ktap.clean(raw)), [])
		raw = [t.replace('/net/ipv4/conf/default -12', '/net/ipv4/conf/default -17')
		       for t in raw]
		found = console.reports(ktap.clean(raw))
		self.assertEqual([ktap.clean(raw)[n][1] for n in found],
				 ['sysctl could not get directory: /net/ipv4/conf/default -17'])

	def test_a_kselftest_kmsg_marker_above_the_preamble_is_passed_over(self) -> None:
		# 6.1.187-1's release run, tcp_ehash's fail-nth beside
		# bpf_security's lane: run_kselftest.sh wrote "kselftest: Running
		# tests in bpf_security" to /dev/kmsg between the sysctl -ENOMEM
		# line and dump_stack()'s "CPU: " line; it was taken for the
		# dump's header, so tcp_ehash and upstream crashed.
		raw = bad('fail-nth-sysctl-enomem-kmsg-marker.log')
		self.assertEqual(console.reports(ktap.clean(raw)), [])
		raw = [t.replace('/net/ipv6 -12', '/net/ipv6 -17') for t in raw]
		found = console.reports(ktap.clean(raw))
		self.assertEqual([ktap.clean(raw)[n][1] for n in found],
				 ['sysctl could not get directory: /net/ipv6 -17'])


class PlanTest(unittest.TestCase):

	def test_a_second_plan_line_is_a_problem(self) -> None:
		s = by_name(ksft('kselftest_two_plans.log'))['tcp_ehash']
		self.assertEqual(cases(s)['tcp_ehash_test/<tap>'], Status.FAIL)
		self.assertIn('a second plan line 1..1 in one TAP document, after 1..3',
			      '\n'.join(c.message for c in s.cases))

	def test_bail_out_fails(self) -> None:
		s = by_name(ksft('kselftest_bail_out.log'))['tcp_ehash']
		self.assertEqual(s.status, Status.FAIL)
		self.assertIn('Bail out! could not create the netns',
			      '\n'.join(c.message for c in s.cases))


class CutLineTest(unittest.TestCase):

	def test_a_log_cut_in_its_last_result_invents_no_suite(self) -> None:
		got = by_name(console.suites_from_console(
			bad('kunit_cut_last_result.log'), 'kunit', ['tcp_ehash'], False,
			'<kunit boot>'))
		self.assertEqual(set(got), {'tcp_ehash'})
		self.assertEqual(got['tcp_ehash'].status, Status.FAIL)

	def test_a_kernel_line_inside_not_ok_invents_no_pass(self) -> None:
		got = by_name(ksft('kselftest_cut_not.log'))
		self.assertEqual(set(got), {'tcp_ehash'})
		self.assertEqual(cases(got['tcp_ehash']),
				 {'tcp_ehash_test/global.loopback': Status.FAIL})


class OutputTest(unittest.TestCase):
	"""What the outputs make of odd but possible results."""

	def test_a_bench_metric_of_zero(self) -> None:
		rows = [dict.fromkeys(bench.EHASH_KEYS, 0.0), dict.fromkeys(bench.EHASH_KEYS, 1.0)]
		rows[1]['chain'] = 2.0
		self.assertIn('from 0', bench.shape(rows)[0])

	def test_junit_counts_errors(self) -> None:
		s = Suite('tcp_ehash', 'kunit', [Case('a', Status.CRASH, 'oops'),
						 Case('b', Status.FAIL, 'no'),
						 Case('c', Status.TIMEOUT, 'late')])
		path = Path(tempfile.mkdtemp()) / 'junit.xml'
		report.write_junit(report.RunReport(report.KernelInfo(''), 'tcg', [s]), path)
		el = ET.parse(path).getroot().find('testsuite')
		assert el is not None
		self.assertEqual((el.get('failures'), el.get('errors')), ('1', '2'))
		self.assertEqual(len(el.findall('testcase/error')), 2)

	def test_a_huge_line_beside_a_warning_is_cut(self) -> None:
		raw = ['TAP version 13', '1..1', '# selftests: tcp_ehash: t',
		       '# TAP version 13', '# 1..1', '# ' + 'x' * 3_000_000,
		       '[    1.000000] WARNING: CPU: 0 PID: 1 at a.c:1 f+0x1/0x2',
		       '# ok 1 a', 'ok 1 selftests: tcp_ehash: t']
		s = by_name(console.suites_from_console(raw, 'kselftest', [], False,
							'<guest boot>'))['tcp_ehash']
		self.assertEqual(s.status, Status.CRASH)
		self.assertLess(len(s.message), 20_000)
		self.assertLess(max(len(c.message) for c in s.cases), 20_000)

	def test_a_long_case_name_pads_no_other_row(self) -> None:
		s = Suite('tcp_ehash', 'kunit', [Case('a', Status.PASS),
						 Case('n' * 10_000, Status.PASS)])
		lines = report.summary(report.RunReport(report.KernelInfo(''), 'tcg', [s]))
		self.assertLess(len(lines[1]), 100)

	def test_totals_and_the_last_line_say_the_same(self) -> None:
		s = Suite('bpf_user_ringbuf', 'kselftest', [Case('a', Status.PASS),
							    Case('guard', Status.FAIL, 'bug')])
		rep = report.RunReport(report.KernelInfo(''), 'tcg', [s])
		v = gate.decide([s], [], None, TODAY,
				findings={('kselftest', 'bpf_user_ringbuf', 'guard')})
		self.assertTrue(v.ok)
		self.assertEqual(v.counts, rep.totals())
		# the last line is the plain one CI systems read; the one above
		# says how it differs from totals
		self.assertEqual(v.lines()[-2:], ['gate: of the 1 failed in results.json totals, '
						  'not failures: 1 carry a bug the series or a stable update fixes',
						  '1 passed, 0 failed, 0 skipped'])


if __name__ == '__main__':
	unittest.main()
