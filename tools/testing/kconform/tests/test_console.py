# SPDX-License-Identifier: GPL-2.0
"""The parser and crash detection on recorded console logs."""

import unittest
from pathlib import Path
from typing import Dict, List

from kconform import console, ktap
from kconform.model import Status, Suite

DATA = Path(__file__).parent / 'test_data'


def load(name: str) -> List[str]:
	return (DATA / name).read_text().splitlines()


def cases(suite: Suite) -> Dict[str, Status]:
	return {c.name: c.status for c in suite.cases}


def by_name(suites: List[Suite]) -> Dict[str, Suite]:
	return {s.name: s for s in suites}


class KunitTest(unittest.TestCase):

	def run_log(self, name: str, expected: List[str], timed_out: bool = False) -> Dict[str, Suite]:
		return by_name(console.suites_from_console(
			load(name), 'kunit', expected, timed_out, '<kunit boot>'))

	def test_all_passed_with_params_and_noise(self) -> None:
		s = self.run_log('kunit_pass.log', ['tcp_ehash', 'example'])
		self.assertEqual(set(s), {'tcp_ehash', 'example'})
		self.assertEqual(cases(s['tcp_ehash']), {
			'tcp_ehash_test_roundup/1 -> 1': Status.PASS,
			'tcp_ehash_test_roundup/3 -> 4': Status.PASS,
			'tcp_ehash_test_roundup/100 -> 128': Status.PASS,
			'tcp_ehash_test_defaults': Status.PASS})
		self.assertEqual(s['tcp_ehash'].status, Status.PASS)
		self.assertEqual(s['example'].status, Status.PASS)

	def test_failure_message_and_skip_reasons(self) -> None:
		s = self.run_log('kunit_fail_skip.log', ['tcp_ehash'])['tcp_ehash']
		self.assertEqual(s.status, Status.FAIL)
		got = {c.name: c for c in s.cases}
		fail = got['tcp_ehash_test_defaults']
		self.assertEqual(fail.status, Status.FAIL)
		self.assertIn('EXPECTATION FAILED at net/ipv4/tcp_ehash_test.c:80',
			      fail.message)
		self.assertIn('tw == 32 (0x20)', fail.message)
		self.assertEqual(got['tcp_ehash_test_fallback'].status, Status.SKIP)
		self.assertEqual(got['tcp_ehash_test_fallback'].message,
				 'needs CONFIG_FAILSLAB')
		# A skip must say why: one without a reason is a failure.
		self.assertEqual(got['tcp_ehash_test_silent'].status, Status.FAIL)
		self.assertEqual(got['tcp_ehash_test_silent'].message,
				 'skipped without a reason')
		self.assertEqual(got['tcp_ehash_test_free'].status, Status.PASS)

	def test_panic_mid_suite_keeps_earlier_results(self) -> None:
		s = self.run_log('kunit_panic.log', ['tcp_ehash', 'example'])
		ehash = s['tcp_ehash']
		self.assertEqual(ehash.status, Status.CRASH)
		self.assertIn('BUG: kernel NULL pointer dereference', ehash.message)
		self.assertIn('Kernel panic', ehash.message)
		self.assertEqual(cases(ehash)['tcp_ehash_test_roundup'], Status.PASS)
		self.assertIn(Status.CRASH, cases(ehash).values())
		self.assertNotIn(Status.PASS, [c.status for c in ehash.cases
					       if c.name.startswith('<')])
		# The suite that never ran is reported, not forgotten.
		self.assertEqual(s['example'].status, Status.FAIL)
		self.assertIn('did not appear', s['example'].cases[0].message)

	def test_truncated_output_is_not_a_pass(self) -> None:
		s = self.run_log('kunit_truncated.log', ['tcp_ehash'])['tcp_ehash']
		self.assertEqual(s.status, Status.CRASH)
		self.assertIn('truncated', s.message)
		self.assertEqual(cases(s)['tcp_ehash_test_defaults'], Status.PASS)

	def test_truncated_by_timeout_is_a_timeout(self) -> None:
		s = self.run_log('kunit_truncated.log', ['tcp_ehash', 'later'], timed_out=True)
		self.assertEqual(s['tcp_ehash'].status, Status.TIMEOUT)
		self.assertEqual(s['later'].status, Status.TIMEOUT)
		self.assertIn('never started', s['later'].cases[0].message)

	def test_malformed_line_is_reported(self) -> None:
		s = self.run_log('kunit_malformed.log', ['tcp_ehash'])['tcp_ehash']
		self.assertEqual(s.status, Status.FAIL)
		msgs = [c.message for c in s.cases if c.name == '<ktap>']
		self.assertTrue(any("malformed result line 7: 'ok two tcp_ehash_test_defaults'"
				    in m for m in msgs), msgs)
		self.assertTrue(any('plan says 1..3 but 2 results' in m for m in msgs), msgs)

	def test_no_output_at_all(self) -> None:
		s = self.run_log('no_output.log', ['tcp_ehash'])
		self.assertEqual(s['tcp_ehash'].status, Status.FAIL)
		boot = s['<kunit boot>']
		self.assertEqual(boot.status, Status.FAIL)
		self.assertIn('no KTAP output', boot.cases[0].message)


class KselftestTest(unittest.TestCase):

	def run_log(self, name: str, timed_out: bool = False) -> Dict[str, Suite]:
		return by_name(console.suites_from_console(
			load(name), 'kselftest', ['tcp_ehash'], timed_out, '<guest boot>'))

	def test_nested_tap(self) -> None:
		s = self.run_log('kselftest_nested.log')
		self.assertEqual(set(s), {'tcp_ehash'})
		got = {c.name: c for c in s['tcp_ehash'].cases}
		self.assertEqual({n: c.status for n, c in got.items()}, {
			'tcp_ehash_test/global.default_child_is_zero': Status.PASS,
			'tcp_ehash_test/global.child_rounds_up': Status.FAIL,
			'tcp_ehash_test/global.fallback_memcg': Status.SKIP,
			'tcp_ehash_test/global.loopback': Status.PASS})
		self.assertIn('Expected entries (100) == 128',
			      got['tcp_ehash_test/global.child_rounds_up'].message)
		self.assertEqual(got['tcp_ehash_test/global.fallback_memcg'].message,
				 'memory controller not available')
		self.assertEqual(s['tcp_ehash'].status, Status.FAIL)

	def test_qemu_timeout_mid_test(self) -> None:
		s = self.run_log('kselftest_timeout.log', timed_out=True)['tcp_ehash']
		self.assertEqual(s.status, Status.TIMEOUT)
		self.assertEqual(cases(s)['tcp_ehash_test/global.default_child_is_zero'],
				 Status.PASS)
		self.assertIn(Status.TIMEOUT, cases(s).values())

	def test_truncated_without_timeout_is_a_crash(self) -> None:
		s = self.run_log('kselftest_timeout.log')['tcp_ehash']
		self.assertEqual(s.status, Status.CRASH)

	def test_one_tap_document_per_target(self) -> None:
		s = by_name(console.suites_from_console(
			load('kselftest_two_targets.log'), 'kselftest',
			['tcp_ehash', 'rust_samples'], False, '<guest boot>'))
		self.assertEqual(set(s), {'tcp_ehash', 'rust_samples'})
		self.assertEqual(s['tcp_ehash'].status, Status.PASS)
		self.assertEqual(len(s['tcp_ehash'].cases), 10)
		self.assertEqual(s['rust_samples'].status, Status.FAIL)
		self.assertEqual(cases(s['rust_samples'])[
			'rust_samples_test/module.rmmod_prints_numbers_then_exit'], Status.PASS)

	def test_gcov_data_between_documents_is_not_tap(self) -> None:
		# The coverage variant sends each target's gcov data after it
		# (guest/one-by-one): base64 lines, one of which starts with
		# "ok" (seen in a real run: "malformed result line"); a kernel
		# line in the block is still read.
		raw = load('kselftest_two_targets.log')
		block = ['kconform: gcov begin tcp_ehash',
			 'H4sIAAAAAAAAA+2d',
			 'ok+1sjVZjPUPUgziIZ7ZxYVQchDvkNZgpcS/xftWEOdgadUvm1onDTk7F3E',
			 '[   12.345678] BUG: KASAN: use-after-free in gcov_seq_next+0x1/0x2',
			 'not+ok/ZjPUPUgz',
			 'kconform: gcov end']
		s = by_name(console.suites_from_console(
			raw[:81] + block + raw[81:], 'kselftest',
			['tcp_ehash', 'rust_samples'], False, '<guest boot>'))
		self.assertEqual(len(s['tcp_ehash'].cases), 10)
		self.assertEqual(cases(s['rust_samples'])[
			'rust_samples_test/module.rmmod_prints_numbers_then_exit'], Status.PASS)
		self.assertNotIn('malformed', ' '.join(
			c.message for suite in s.values() for c in suite.cases))
		self.assertIn('KASAN', ' '.join(
			c.message for suite in s.values() for c in suite.cases))

	def test_document_short_of_its_plan(self) -> None:
		log = ['TAP version 13', '1..2', 'ok 1 selftests: a: x',
		       'TAP version 13', '1..1', 'ok 1 selftests: b: y']
		problems = ktap.level_problems(ktap.parse(log), 'TAP')
		self.assertEqual(problems, ['line 4: the TAP document before it '
					    'planned 1..2 but reported 1 results'])

	def test_kernel_warning_marks_running_suite(self) -> None:
		s = self.run_log('kselftest_warning.log')['tcp_ehash']
		self.assertEqual(s.status, Status.CRASH)
		self.assertIn('WARNING: CPU: 0 PID: 77 at mm/page_alloc.c', s.message)
		self.assertEqual(cases(s)['tcp_ehash_test/global.fallback_memcg'], Status.PASS)
		self.assertEqual(cases(s)['<kernel report>'], Status.CRASH)


class RobustnessTest(unittest.TestCase):

	def test_deep_indentation_is_a_problem_not_a_crash(self) -> None:
		s = by_name(console.suites_from_console(
			load('kselftest_deep_indent.log'), 'kselftest', ['tcp_ehash'],
			False, '<guest boot>'))
		self.assertEqual(cases(s['tcp_ehash']), {
			'tcp_ehash_test/global.default_child_is_zero': Status.PASS,
			'tcp_ehash_test/global.child_rounds_up': Status.FAIL,
			'tcp_ehash_test/global.fallback_memcg': Status.SKIP,
			'tcp_ehash_test/global.loopback': Status.PASS})
		boot = s['<guest boot>']
		self.assertEqual([(c.name, c.status, c.message) for c in boot.cases],
				 [('<tap>', Status.FAIL, 'line 10 is nested deeper than '
				   '32 levels; its nesting is not parsed')])

	def test_program_that_skips_as_a_whole(self) -> None:
		s = by_name(console.suites_from_console(
			load('kselftest_skip_program.log'), 'kselftest', ['tcp_ehash'],
			False, '<guest boot>'))
		got = {c.name: (c.status, c.message) for c in s['tcp_ehash'].cases}
		self.assertEqual(got, {
			'tcp_ehash_test': (Status.SKIP, 'memory controller not available'),
			'tcp_ehash_silent': (Status.FAIL, 'skipped without a reason')})

	def test_long_failure_keeps_its_head(self) -> None:
		s = by_name(console.suites_from_console(
			load('kunit_long_failure.log'), 'kunit', ['tcp_ehash'], False,
			'<kunit boot>'))['tcp_ehash']
		msg = s.cases[0].message
		self.assertTrue(msg.startswith(
			'tcp_ehash_test_defaults: EXPECTATION FAILED at '
			'net/ipv4/tcp_ehash_test.c:80\nExpected tw == 64, but\n'
			'tw == 32 (0x20)\n'), msg[:200])
		self.assertIn('\n[... 4394 characters cut ...]\n', msg)
		self.assertTrue(msg.endswith(
			'tcp_ehash_test_defaults: dump ends here'), msg[-100:])
		self.assertEqual(len(msg), 2031)


class KernelReportTest(unittest.TestCase):

	def reports(self, name: str, kind: str = 'kselftest') -> Dict[str, Suite]:
		return by_name(console.suites_from_console(
			load(name), kind, ['tcp_ehash'], False, '<boot>'))

	def test_every_kind_of_report_is_found(self) -> None:
		s = self.reports('kselftest_reports.log')['tcp_ehash']
		self.assertEqual(s.status, Status.CRASH)
		self.assertEqual([c.message.split('\n', 1)[0] for c in s.cases
				  if c.name == '<kernel report>'], [
			'watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [lockup:71]',
			'BUG kmalloc-16 (Not tainted): Redzone overwritten',
			'divide error: 0000 [#1] PREEMPT SMP NOPTI',
			'invalid opcode: 0000 [#2] PREEMPT SMP NOPTI',
			'WARNING: CPU: 0 PID: 75 at net/ipv4/tcp_ehash.c:41 '
			'tcp_ehash_check+0x33/0x50',
			'WARNING: CPU: 1 PID: 76 at net/ipv4/tcp_ehash.c:99 '
			'tcp_ehash_warn+0x12/0x30 (and 1 more like it; the first 2 '
			'follow)'])
		self.assertTrue(s.message.startswith(
			'kernel report in the console:\n# TAP version 13\n# 1..1\n'
			'watchdog: BUG: soft lockup'), s.message)
		self.assertEqual(len([c for c in s.cases if c.status == Status.PASS]), 7)

	def test_each_pattern_of_the_table(self) -> None:
		for line in ['BUG: KASAN: slab-out-of-bounds in tcp_ehash_init+0x2/0x9',
			     'UBSAN: shift-out-of-bounds in net/ipv4/tcp.c:4660:19',
			     'kernel BUG at net/ipv4/tcp.c:4660!',
			     'Unable to handle kernel paging request at virtual address 0',
			     'list_add corruption. next->prev should be prev (ffff8880), '
			     'but was 0000000000000000.',
			     'BUG: sleeping function called from invalid context at '
			     'mm/slab.h:723',
			     'WARNING: possible circular locking dependency detected',
			     'unreferenced object 0xffff888003a4b000 (size 16):',
			     'kconform: kmemleak could not scan: leaks were not checked',
			     'general protection fault, probably for non-canonical '
			     'address 0xdffffc0000000001: 0000 [#1] PREEMPT SMP KASAN',
			     'Kernel panic - not syncing: hung_task: blocked tasks',
			     '---[ end trace 0000000000000000 ]---']:
			lines = ktap.clean(['[    1.000000][    T1] ' + line])
			self.assertEqual(console.reports(lines), [0], line)
		self.assertEqual(console.reports(ktap.clean(
			['[    1.0] ======================================', 'BUG : no',
			 'a WARNING: in a sentence'])), [])

	def test_an_oops_belongs_to_its_fault(self) -> None:
		s = self.reports('kunit_panic.log', 'kunit')['tcp_ehash']
		self.assertEqual([c.message.split('\n', 1)[0] for c in s.cases
				  if c.name == '<kernel report>'], [
			'BUG: kernel NULL pointer dereference, address: 0000000000000008',
			'Kernel panic - not syncing: Fatal exception'])

	def test_a_flood_of_warnings_is_one_case(self) -> None:
		s = self.reports('kselftest_warn_flood.log')['tcp_ehash']
		got = [c for c in s.cases if c.name == '<kernel report>']
		self.assertEqual(len(got), 1)
		head, *excerpts = got[0].message.split('\n\n')
		self.assertEqual(head, 'WARNING: CPU: 0 PID: 100 at net/ipv4/'
				 'tcp_ehash.c:99 tcp_ehash_warn+0x12/0x30 (and 299 '
				 'more like it; the first 3 follow)')
		self.assertEqual(len(excerpts), 3)
		self.assertIn('PID: 102 at', excerpts[2])
		self.assertEqual(console.signature(
			'WARNING: CPU: 1 PID: 101 at net/ipv4/tcp_ehash.c:99 '
			'tcp_ehash_warn+0x12/0x30'),
			'WARNING: CPU: N PID: N at net/ipv4/tcp_ehash.c:99 '
			'tcp_ehash_warn+X/X')

	def test_kernel_line_glued_to_a_result_line(self) -> None:
		s = self.reports('kunit_glued.log', 'kunit')['tcp_ehash']
		self.assertEqual(cases(s), {'tcp_ehash_test_roundup': Status.PASS,
					    'tcp_ehash_test_defaults': Status.PASS,
					    'tcp_ehash_test_free': Status.PASS})
		self.assertEqual(s.status, Status.PASS)

	def test_printk_caller_prefix(self) -> None:
		s = self.reports('kunit_caller.log', 'kunit')['tcp_ehash']
		self.assertEqual([(c.name, c.status, c.message) for c in s.cases], [
			('tcp_ehash_test_defaults', Status.FAIL,
			 'tcp_ehash_test_defaults: EXPECTATION FAILED at '
			 'net/ipv4/tcp_ehash_test.c:80\nExpected tw == 64, but\n'
			 'tw == 32 (0x20)'),
			('tcp_ehash_test_fallback', Status.SKIP, 'needs CONFIG_FAILSLAB'),
			('tcp_ehash_test_silent', Status.FAIL, 'skipped without a reason'),
			('tcp_ehash_test_free', Status.PASS, '')])

	def test_userspace_line_interrupted_by_the_kernel(self) -> None:
		s = self.reports('kselftest_glued.log')
		self.assertEqual(set(s), {'tcp_ehash'})
		self.assertEqual(cases(s['tcp_ehash']), {
			'tcp_ehash_test/global.default_child_is_zero': Status.PASS,
			'tcp_ehash_test/global.child_rounds_up': Status.PASS,
			'tcp_ehash_test/global.loopback': Status.PASS})
		self.assertEqual(ktap.clean(load('kselftest_glued.log'))[9:15], [
			(9, 'random: crng init done'),
			(10, 'random: 7 urandom warning(s) missed due to ratelimiting'),
			(11, '# ok 2 global.child_rounds_up'),
			(12, 'tcp_ehash: table resized to 256 buckets'),
			(13, 'tcp_ehash: loopback done'),
			(14, '# ok 3 global.loopback')])


class ParserUnitTest(unittest.TestCase):

	def test_directive_split(self) -> None:
		level = ktap.parse(['1..1', 'not ok 1 selftests: a: b # TIMEOUT 45 seconds'])
		status, msg = ktap.node_status(level.nodes[0])
		self.assertEqual(status, Status.TIMEOUT)
		self.assertEqual(msg, 'timed out 45 seconds')

	def test_numbering_gap(self) -> None:
		level = ktap.parse(['1..2', 'ok 1 a', 'ok 3 b'])
		self.assertEqual(level.problems, ['result line 3 is numbered 3, expected 2'])


if __name__ == '__main__':
	unittest.main()
