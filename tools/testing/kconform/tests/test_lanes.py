# SPDX-License-Identifier: GPL-2.0
"""Kselftest lanes: the plan, and a console of two lanes split apart."""

import tempfile
import unittest
from pathlib import Path
from typing import Dict, List

from kconform import lanes, suites
from kconform.model import KconformError, Status, Suite

DATA = Path(__file__).parent / 'test_data'


def by_name(got: List[Suite]) -> Dict[str, Suite]:
	return {s.name: s for s in got}


class PlanTest(unittest.TestCase):

	def test_longest_first_into_the_lane_that_ends_soonest(self) -> None:
		p = lanes.plan(['tcp_ehash', 'rust_samples', 'bpf_user_ringbuf',
				'bpf_iter_params', 'statx_dioalign', 'netlink_intro',
				'bpf_security'], ['rust_samples'], 2,
			       {'tcp_ehash': 14, 'rust_samples': 9, 'bpf_user_ringbuf': 24,
				'bpf_iter_params': 18, 'statx_dioalign': 42,
				'netlink_intro': 6, 'bpf_security': 6})
		self.assertEqual(p.alone, ['rust_samples'])
		# 42 | 24, 24+18 = 42 | tcp_ehash to the first of equals: 56 |
		# 42+6 = 48, 54
		self.assertEqual(p.lanes, [['statx_dioalign', 'tcp_ehash'],
					   ['bpf_user_ringbuf', 'bpf_iter_params',
					    'netlink_intro', 'bpf_security']])
		self.assertEqual(p.cmdline(), [
			'kconform.run=rust_samples',
			'kconform.lane=statx_dioalign,tcp_ehash',
			'kconform.lane=bpf_user_ringbuf,bpf_iter_params,netlink_intro,bpf_security'])
		self.assertEqual(p.streams(), [['rust_samples'],
					       ['statx_dioalign', 'tcp_ehash'],
					       ['bpf_iter_params', 'bpf_security',
						'bpf_user_ringbuf', 'netlink_intro']])

	def test_unknown_lengths_count_as_the_mean_and_keep_their_order(self) -> None:
		p = lanes.plan(['a', 'b', 'c', 'd'], [], 2, {'a': 10, 'b': 2})
		# c and d count 6 each: a | c, b ... d goes where it ends soonest
		self.assertEqual(p.lanes, [['a', 'b'], ['c', 'd']])
		p = lanes.plan(['a', 'b', 'c'], [], 2, {})
		self.assertEqual(p.lanes, [['a', 'c'], ['b']])

	def test_a_targets_programs_stay_in_one_lane(self) -> None:
		p = lanes.plan(['a:x', 'b:y', 'a:z'], [], 2, {'a': 1, 'b': 5})
		self.assertEqual(p.lanes, [['b:y'], ['a:x', 'a:z']])
		self.assertEqual(p.streams(), [[], ['b'], ['a']])

	def test_one_lane_or_one_target_runs_as_before(self) -> None:
		p = lanes.plan(['a', 'b'], [], 1, {})
		self.assertEqual((p.alone, p.lanes), (['a', 'b'], []))
		self.assertEqual(p.cmdline(), ['kconform.run=a,b'])
		p = lanes.plan(['a', 'b:x'], ['a'], 2, {})
		self.assertEqual((p.alone, p.lanes), (['a', 'b:x'], []))

	def test_lengths_are_kept_between_runs(self) -> None:
		with tempfile.TemporaryDirectory() as d:
			self.assertEqual(lanes.load_seconds(Path(d)), {})
			lanes.save_seconds(Path(d), {'a': 1.5, 'b': 2.0})
			lanes.save_seconds(Path(d), {'b': 3.0})
			self.assertEqual(lanes.load_seconds(Path(d)), {'a': 1.5, 'b': 3.0})
			(Path(d) / lanes.DURATIONS).write_text('[1, 2]')
			self.assertEqual(lanes.load_seconds(Path(d)), {})

	def test_a_first_boot_is_planned_from_the_shipped_lengths(self) -> None:
		shipped = {'a': 10.0, 'b': 60.0, 'c': 50.0}
		with tempfile.TemporaryDirectory() as d:
			self.assertEqual(lanes.known_seconds(Path(d), shipped), shipped)
			first = lanes.plan(['a', 'b', 'c'], [], 2,
					   lanes.known_seconds(Path(d), shipped))
			self.assertEqual(first.lanes, [['b'], ['c', 'a']])
			lanes.save_seconds(Path(d), {'a': 70.0})
			self.assertEqual(lanes.known_seconds(Path(d), shipped),
					 {'a': 70.0, 'b': 60.0, 'c': 50.0})
		# without lengths, the order of the list decides
		self.assertEqual(lanes.plan(['a', 'b', 'c'], [], 2, {}).lanes,
				 [['a', 'c'], ['b']])

	def test_suites_toml_ships_a_length_for_every_kselftest_target(self) -> None:
		repo = Path(__file__).resolve().parents[4]
		specs = suites.load(repo)
		# for the variants a new machine boots first: make run, make check
		self.assertEqual([(s.name, v) for s in specs for v in ('default', 'debug')
				  if s.kselftest and not s.seconds_on(v)], [])
		self.assertEqual(specs[0].seconds_on('coverage'), 0.0)

	def test_a_bad_shipped_length_is_refused_by_name(self) -> None:
		with tempfile.TemporaryDirectory() as d:
			(Path(d) / 'kselftests' / 'x').mkdir(parents=True)
			for bad in ('"60"', '-1', 'true', '{debug = -1}', '{debug = "6"}'):
				(Path(d) / 'suites.toml').write_text(f'[x]\nseconds = {bad}\n')
				with self.assertRaisesRegex(KconformError, r'\[x\] seconds = '):
					suites.load(Path(d))


class DemuxTest(unittest.TestCase):

	def setUp(self) -> None:
		self.raw = (DATA / 'lanes-console.log').read_text().splitlines()
		self.plan = lanes.Plan(['rust_samples'], [['statx_dioalign'],
							  ['tcp_ehash', 'netlink_intro']])

	def test_each_lane_gets_its_lines_and_the_kernel_lines_while_it_runs(self) -> None:
		main, one, two = lanes.demux(self.raw, [float(i) for i in range(len(self.raw))], 2)
		self.assertIn('ok 1 selftests: rust_samples: rust_samples_test', main.lines)
		self.assertFalse(any('statx' in l or 'tcp_ehash' in l for l in main.lines))
		# an interrupted line is whole again in its own lane, the kernel
		# line that cut it in every lane running then
		kline = '[   12.345678] loop0: detected capacity change from 0 to 8192'
		self.assertEqual(one.lines[one.lines.index(kline) + 1],
				 '# ok 2 ext4.dirreports_zero')
		self.assertIn(kline, two.lines)
		self.assertFalse(any('reports_zero' in l for l in two.lines + main.lines))
		# also when the cut came right after the prefix
		kline = '[   11.000000] kselftest: Running tests in netlink_intro'
		self.assertEqual(two.lines[two.lines.index(kline) + 1],
				 '# ok 1 ehash.netns_alloc_fault_falls_back')
		self.assertIn(kline, one.lines)
		# the report came after lane 1 ended: lane 2 alone gets it
		self.assertFalse(any('KASAN' in l for l in one.lines))
		self.assertTrue(any('KASAN' in l for l in two.lines))
		self.assertTrue(one.ended and two.ended)
		self.assertEqual(len(two.times), len(two.lines))
		self.assertEqual(two.times[0], float(self.raw.index(
			'kconform-lane2: TAP version 13')))

	def test_suites_of_every_stream_with_the_report_on_the_running_one(self) -> None:
		got = by_name(lanes.suites(self.raw, [], self.plan, False))
		self.assertEqual(set(got), {'rust_samples', 'statx_dioalign', 'tcp_ehash',
					    'netlink_intro'})
		self.assertEqual(got['rust_samples'].status, Status.PASS)
		self.assertEqual(got['tcp_ehash'].status, Status.PASS)
		self.assertEqual(got['statx_dioalign'].status, Status.PASS)
		self.assertEqual({c.name: c.status for c in got['statx_dioalign'].cases},
				 {'statx_dioalign_test/ext4.regular_file_reports_values': Status.PASS,
				  'statx_dioalign_test/ext4.dirreports_zero': Status.PASS})
		self.assertEqual(got['netlink_intro'].status, Status.CRASH)
		self.assertIn('BUG: KASAN: slab-out-of-bounds', got['netlink_intro'].message)

	def test_a_lane_that_never_ran_is_missing_and_a_timeout_spares_ended_lanes(self) -> None:
		cut = self.raw[:self.raw.index('kconform-lane2: # ok 1 genl.getfamily_nlctrl')]
		got = by_name(lanes.suites(cut, [], self.plan, True))
		self.assertEqual(got['statx_dioalign'].status, Status.PASS)
		self.assertEqual(got['tcp_ehash'].status, Status.PASS)
		self.assertEqual(got['netlink_intro'].status, Status.TIMEOUT)
		self.assertEqual(got['rust_samples'].status, Status.PASS)
		before = self.raw[:self.raw.index('kconform: lanes begin')]
		got = by_name(lanes.suites(before, [], self.plan, False))
		for name in ('statx_dioalign', 'tcp_ehash', 'netlink_intro'):
			self.assertEqual(got[name].status, Status.FAIL, name)
			self.assertIn('did not appear', got[name].message)

	def test_nothing_alone_is_no_missing_tap(self) -> None:
		begin = self.raw.index(lanes.LANES_BEGIN)
		raw = self.raw[:2] + self.raw[begin:]
		got = by_name(lanes.suites(raw, [], lanes.Plan([], self.plan.lanes), False))
		self.assertEqual(set(got), {'statx_dioalign', 'tcp_ehash', 'netlink_intro'})

	def test_reports_of_two_streams_make_one_guest_boot_suite(self) -> None:
		# one between the two lanes' suites (both lanes see it, neither
		# suite was running), one after the lanes
		raw = self.raw + ['[   30.000000] unreferenced object 0xffff888004 (size 64):']
		raw.insert(raw.index('kconform-lane1: kconform: lane end'),
			   '[    1.000000] WARNING: CPU: 0 PID: 1 at lib/foo.c:1 foo+0x1/0x2')
		got = lanes.suites(raw, [], self.plan, False)
		boot = [s for s in got if s.name == '<guest boot>']
		self.assertEqual(len(boot), 1)
		self.assertEqual(boot[0].status, Status.CRASH)
		self.assertEqual([c.name for c in boot[0].cases],
				 ['<suite>', '<kernel report>', '<kernel report>'])
		self.assertIn('unreferenced object', boot[0].cases[1].message)
		self.assertIn('WARNING: CPU: 0', boot[0].cases[2].message)


if __name__ == '__main__':
	unittest.main()
