# SPDX-License-Identifier: GPL-2.0
"""Benchmarks in the guest console: sections, metrics, failures."""

import json
import unittest

from kconform import bench, report
from kconform.model import Status

from .test_console import DATA, by_name, cases, load


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


def timed(label: str, name: str) -> bench.Timed:
	doc = report.from_json(json.loads((DATA / name).read_text()))
	return bench.Timed(label, doc.stages, doc.suites)


class TimingTest(unittest.TestCase):
	"""Two recorded runs (results.json trimmed to a few cases) side by
	side: each figure in its run's column, the ratio last to first."""

	def setUp(self) -> None:
		self.lines = bench.timing([timed('before', 'timing-before.json'),
					   timed('after', 'timing-after.json')])

	def row(self, name: str) -> str:
		return next(line for line in self.lines if line.endswith(name))

	def test_stages_side_by_side(self) -> None:
		self.assertEqual(self.lines[1].split(), ['before', 'after', 'ratio'])
		self.assertEqual(self.row('kselftest boot (run-kselftest)').split()[:3],
				 ['77.8', '78.0', 'x1.00'])
		self.assertEqual(self.row('KUnit boot (run-kunit)').split()[:2],
				 ['9.4', '11.2'])
		self.assertEqual(self.row('stages summed').split()[:2],
				 ['1516.2', '470.8'])

	def test_the_wall_clock_beside_the_overlapping_stages(self) -> None:
		# the KUnit boot ran beside the kselftest boot: the run took 51 s,
		# less than its stages summed
		lines = bench.timing([bench.Timed('a', {'run': 51.0, 'run-kunit': 11.6,
							'run-kselftest': 49.3}, [])])
		first = {name: next(line.split()[0] for line in lines if line.endswith(name))
			 for name in ('the run, wall clock (run)', 'stages summed')}
		self.assertEqual(list(first.values()), ['51.0', '60.9'])
		self.assertNotIn('the run, wall clock (run)', '\n'.join(self.lines))

	def test_case_time_per_target_and_kunit_left_out(self) -> None:
		self.assertEqual(self.row(' statx_dioalign').split()[:3],
				 ['13.0', '8.7', 'x0.67'])
		self.assertEqual(self.row('kselftest cases summed').split()[:2],
				 ['25.4', '21.3'])

	def test_slowest_cases_of_either_run(self) -> None:
		row = self.row('statx_dioalign_test/fs.ext4_lbs_512.regular_file_reports_values')
		self.assertEqual(row.split()[:2], ['4.4', '-'])
		row = self.row('tcp_ehash: tcp_ehash_test/ehash.netns_alloc_fault_falls_back')
		self.assertEqual(row.split()[:3], ['10.9', '11.2', 'x1.03'])
		slow = self.lines.index('   slowest kselftest cases (8 of each run):')
		self.assertIn('netns_alloc_fault_falls_back', self.lines[slow + 1])


if __name__ == '__main__':
	unittest.main()
