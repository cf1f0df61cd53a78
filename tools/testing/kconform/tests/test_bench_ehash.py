# SPDX-License-Identifier: GPL-2.0
"""The per-netns ehash benchmark: its metrics, table, shape and plot."""

import subprocess
import tempfile
import unittest
from pathlib import Path
from typing import List

from kconform import bench, report
from kconform.model import Status, Suite

from .test_console import by_name, load


def ehash_suites() -> List[Suite]:
	_, sections = bench.split(load('bench_ehash.log'))
	return bench.suites(sections, ['tcp_ehash'], False)


def have_matplotlib() -> bool:
	for python in ('python3', bench.SYSTEM_PYTHON):
		try:
			if subprocess.run([python, '-c', 'import matplotlib'],
					  capture_output=True, timeout=60,
					  check=False).returncode == 0:
				return True
		except OSError:
			pass
	return False


class EhashBenchTest(unittest.TestCase):

	def test_cases_and_their_numbers(self) -> None:
		s = by_name(ehash_suites())['tcp_ehash']
		self.assertEqual(s.kind, 'bench')
		self.assertEqual(s.status, Status.PASS)
		self.assertEqual([(c.name, c.status) for c in s.cases], [
			('chain_1', Status.PASS), ('chain_384', Status.PASS),
			('chain_9999', Status.SKIP), ('ns_per_chain_element', Status.PASS),
			('netns_dismantle', Status.PASS)])
		self.assertEqual(s.cases[1].metrics, {
			'chain': 384.0, 'sockets': 6144.0, 'buckets': 16.0, 'reps': 5.0,
			'shared_kpps': 30.0, 'shared_min': 29.0, 'shared_max': 31.0,
			'per_netns_kpps': 49.5, 'per_netns_min': 48.0,
			'per_netns_max': 51.0, 'ratio': 0.606})

	def test_rows_are_the_measured_lengths(self) -> None:
		rows = bench.ehash_rows(ehash_suites())
		self.assertEqual([r['chain'] for r in rows], [1.0, 384.0])

	def test_table_like_the_seed(self) -> None:
		lines = bench.ehash_table(ehash_suites())
		self.assertTrue(lines[0].startswith('== bench tcp_ehash: '))
		self.assertEqual(lines[2:4], [
			'        1       16     50.0 [  48.0-  52.0]     50.5 [  48.5-  52.0]  0.990',
			'      384     6144     30.0 [  29.0-  31.0]     49.5 [  48.0-  51.0]  0.606'])
		self.assertEqual(lines[4:6], [
			'   shape: shared 50.0 -> 30.0 kpps (x0.60); its median falls at '
			"1 of 1 steps, beyond the spread at 1; below chain 1's spread "
			'at 384',
			"   shape: per-netns 50.5 -> 49.5 kpps; within chain 1's spread "
			'at 1 of 1 lengths'])
		self.assertIn('cost per chain element: 34.2 ns', lines[6])
		self.assertIn('2048 TIME_WAIT sockets (6144 others in the global '
			      'table): shared 40.0 ms [35.0-45.0], own 30.0 ms '
			      '[28.0-33.0]', lines[7])

	def test_overlapping_points_do_not_count_as_a_fall(self) -> None:
		rows = bench.ehash_rows(ehash_suites())
		rows[1] = dict(rows[1], shared_max=48.5, per_netns_kpps=40.0,
			       per_netns_min=39.0, per_netns_max=41.0)
		self.assertIn('falls at 1 of 1 steps, beyond the spread at 0; '
			      "below chain 1's spread at no length", bench.shape(rows)[0])
		self.assertIn('at 0 of 1 lengths', bench.shape(rows)[1])

	def test_summary_carries_the_table(self) -> None:
		rep = report.RunReport(kernel=report.KernelInfo(''), accel='tcg', suites=ehash_suites())
		lines = report.summary(rep)
		self.assertIn(bench.ehash_table(rep.suites)[2], lines)

	def test_no_rows_no_table_no_plot(self) -> None:
		self.assertEqual(bench.ehash_table([]), [])
		self.assertEqual(bench.write_plots([], Path(tempfile.mkdtemp())), [])

	@unittest.skipUnless(have_matplotlib(), 'python3-matplotlib is not installed')
	def test_plot_file_written(self) -> None:
		out = Path(tempfile.mkdtemp())
		self.assertEqual(bench.write_plots(ehash_suites(), out),
				 [out / 'tcp_ehash.png'])
		self.assertEqual((out / 'tcp_ehash.png').read_bytes()[:8],
				 b'\x89PNG\r\n\x1a\n')


if __name__ == '__main__':
	unittest.main()


class RecordedEhashBenchTest(unittest.TestCase):
	"""The console of a `make bench` recorded under TCG (guest kernel,
	kmemleak=off, thash_entries=16, a 2-core host at load ~7)."""

	def setUp(self) -> None:
		_, sections = bench.split(load('bench_ehash_tcg.log'))
		self.suites = bench.suites(sections, ['tcp_ehash', 'bpf_user_ringbuf'],
					   False)

	def test_every_case_measured(self) -> None:
		s = by_name(self.suites)
		self.assertEqual(s['bpf_user_ringbuf'].status, Status.PASS)
		self.assertEqual(s['tcp_ehash'].status, Status.PASS)
		self.assertEqual([c.name for c in s['tcp_ehash'].cases],
				 [f'chain_{n}' for n in (1, 8, 16, 32, 64, 128, 192,
							 256, 320, 384, 768, 1536)]
				 + ['ns_per_chain_element', 'netns_dismantle'])
		self.assertEqual(s['tcp_ehash'].cases[-1].metrics,
				 {'tw_sockets': 1024.0, 'population': 24576.0,
				  'reps': 7.0, 'shared_ms': 84.01, 'shared_min': 52.0,
				  'shared_max': 124.01, 'per_netns_ms': 56.0,
				  'per_netns_min': 48.0, 'per_netns_max': 92.01})

	def test_table(self) -> None:
		lines = bench.ehash_table(self.suites)
		self.assertEqual(len(lines), 2 + 12 + 3 + 2)
		self.assertEqual(lines[11], '      384     6144     10.2 [   8.3-'
				 '  13.4]     85.6 [  67.4-  95.1]  0.120 [0.110-0.141]')
		self.assertEqual(lines[14:17], [
			'   shape: shared 88.5 -> 1.5 kpps (x0.02); its median falls at '
			"8 of 11 steps, beyond the spread at 3; below chain 1's spread "
			'at 128, 256, 320, 384, 768, 1536',
			"   shape: per-netns 99.3 -> 96.2 kpps; within chain 1's spread "
			'at 11 of 11 lengths',
			'   shape: ratio 0.965 -> 0.016; its median falls at 10 of 11 '
			'steps, beyond the spread at 5'])
		self.assertIn('cost per chain element: 420.0 ns', lines[17])

	@unittest.skipUnless(have_matplotlib(), 'python3-matplotlib is not installed')
	def test_plot(self) -> None:
		out = Path(tempfile.mkdtemp())
		self.assertEqual(bench.write_plots(self.suites, out),
				 [out / 'tcp_ehash.png'])
		self.assertGreater((out / 'tcp_ehash.png').stat().st_size, 10000)
