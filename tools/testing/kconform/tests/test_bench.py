# SPDX-License-Identifier: GPL-2.0
"""Benchmarks in the guest console: sections, metrics, failures."""

import unittest

from kconform import bench
from kconform.model import Status

from .test_console import by_name, cases, load


class BenchTest(unittest.TestCase):

	def test_sections_leave_the_kselftest_document_alone(self) -> None:
		rest, sections = bench.split(load('bench.log'))
		self.assertEqual([s.suite for s in sections],
				 ['bpf_user_ringbuf', 'other', 'twice'])
		self.assertEqual(rest[-1], 'kconform: run_kselftest.sh exited with 0')
		self.assertFalse(any('kconform-metric' in line for line in rest))

	def test_metrics_belong_to_the_next_result(self) -> None:
		_, sections = bench.split(load('bench.log'))
		s = by_name(bench.suites(sections, ['bpf_user_ringbuf'], False))
		rb = s['bpf_user_ringbuf']
		self.assertEqual(rb.kind, 'bench')
		self.assertEqual(rb.status, Status.PASS)
		got = {c.name: c.metrics for c in rb.cases}
		self.assertEqual(got, {
			'user_to_kernel_8B': {'samples_per_s': 2345678.0,
					      'mb_per_s': 18.8, 'runs': 5.0},
			'kernel_to_user_8B': {'samples_per_s': 1.5e6,
					      'mb_per_s': 12.0, 'runs': 5.0},
			'ratio_8B': {'ratio': 1.56}})

	def test_failures_are_named(self) -> None:
		_, sections = bench.split(load('bench.log'))
		s = by_name(bench.suites(sections, [], False))['other']
		self.assertEqual(s.status, Status.FAIL)
		self.assertEqual(cases(s), {'setup': Status.FAIL,
					    'after': Status.PASS,
					    '<metric>': Status.FAIL,
					    '<exit>': Status.FAIL})
		msgs = {c.name: c.message for c in s.cases}
		self.assertIn('could not create the map', msgs['setup'])
		self.assertIn('samples_per_s=fast', msgs['<metric>'])
		self.assertEqual(msgs['<exit>'], 'the benchmark exited with 1')

	def test_metrics_go_by_position_and_must_be_finite(self) -> None:
		_, sections = bench.split(load('bench.log'))
		s = by_name(bench.suites(sections, [], False))['twice']
		self.assertEqual([(c.name, c.status, c.metrics, c.message)
				  for c in s.cases], [
			('copy', Status.PASS, {'mb_per_s': 812.5}, ''),
			('copy', Status.PASS, {'mb_per_s': 97.25}, ''),
			('huge', Status.PASS, {}, ''),
			('<metric>', Status.FAIL, {}, 'malformed metric line: '
			 '# kconform-metric: mb_per_s=1e999')])
		self.assertEqual(s.status, Status.FAIL)

	def test_unfinished_and_missing_benchmarks(self) -> None:
		log = ['kconform: bench a begin', 'TAP version 13', '1..2',
		       'ok 1 x']
		_, sections = bench.split(log)
		s = by_name(bench.suites(sections, ['a', 'b'], True))
		self.assertEqual(s['a'].status, Status.TIMEOUT)
		self.assertEqual(cases(s['a'])['x'], Status.PASS)
		self.assertEqual(cases(s['a'])['<exit>'], Status.TIMEOUT)
		self.assertEqual(s['b'].status, Status.TIMEOUT)
		s = by_name(bench.suites(sections, ['a', 'b'], False))
		self.assertEqual(s['a'].status, Status.CRASH)
		self.assertEqual(s['b'].status, Status.FAIL)
		self.assertIn('did not run', s['b'].message)

	def test_kernel_report_in_a_benchmark(self) -> None:
		log = ['kconform: bench a begin', 'TAP version 13', '1..1',
		       'BUG: unable to handle page fault for address: 0',
		       'ok 1 x', 'kconform: bench a end 0']
		_, sections = bench.split(log)
		s = bench.suites(sections, ['a'], False)[0]
		self.assertEqual(s.status, Status.CRASH)
		self.assertIn('page fault', s.message)


if __name__ == '__main__':
	unittest.main()
