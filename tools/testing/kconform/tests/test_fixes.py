# SPDX-License-Identifier: GPL-2.0
"""patches/fixes.toml and "bugs this tree carries" (issue 14, part 1)."""

import datetime
import unittest
from typing import List

from kconform import fixes, gate, inputs, listing, suites, tree
from kconform.model import Case, Status, Suite

LAYOUT = tree.Layout(inputs.REPO)
TODAY = datetime.date(2026, 12, 4)


def fix_list() -> List[fixes.Fix]:
	return fixes.load(LAYOUT.patches, LAYOUT.series())


def thermal(*cases: Case) -> List[Suite]:
	s = Suite('thermal_of', 'kunit', list(cases))
	s.settle()
	return [s]


NO_TRIPS = 'thermal_of_test_zone_without_trips'
EMPTY = 'thermal_of_test_empty_trips_refcount'


class FixesTest(unittest.TestCase):

	def test_every_guard_names_a_case_the_suite_has(self) -> None:
		sel = suites.selection(suites.load(inputs.REPO), [], [], [])
		listed = [(k, s, c) for k, s, c in (l.split(':', 2) for l in
							  listing.lines(inputs.REPO, sel))]
		for fix in fix_list():
			for glob in fix.guards:
				with self.subTest(fix.patch, guard=glob):
					one = fixes.Fix(fix.patch, '', '', (glob,))
					self.assertTrue(any(one.guards_case(k) for k in listed))
			for glob in fix.affected:
				if glob.split(':')[1].startswith('<'):
					continue	# a boot's reports (<kunit boot>)
				with self.subTest(fix.patch, affected=glob):
					one = fixes.Fix(fix.patch, '', '', (glob,))
					self.assertTrue(any(one.guards_case(k) for k in listed))
			for glob in fix.distro_guards:
				with self.subTest(fix.patch, distro_guard=glob):
					one = fixes.Fix(fix.patch, '', '', (glob,))
					self.assertTrue(any(one.guards_case(k) for k in listed))
		self.assertEqual(len([f for f in fix_list() if f.guards]), 12)

	def test_omitted_fix_whose_guard_fails_is_a_finding(self) -> None:
		run = thermal(Case(NO_TRIPS, Status.FAIL, 'Expected ret == 0, but ret == -22'),
			      Case(EMPTY, Status.PASS))
		table = fixes.verdicts(fix_list(), run, applied=False)
		by = {f['patch'][:4]: f for f in table}
		self.assertEqual(by['0103']['verdict'], fixes.CARRIES)
		self.assertEqual(by['0103']['failing'], [f'kunit:thermal_of:{NO_TRIPS}'])
		self.assertEqual(by['0105']['verdict'], fixes.FIXED)
		self.assertEqual(by['0201']['verdict'], fixes.UNKNOWN)
		v = gate.decide(run, [], None, TODAY,
				findings=fixes.findings(fix_list(), run, applied=False))
		self.assertTrue(v.ok)
		self.assertEqual(v.carried, [f'kunit:thermal_of:{NO_TRIPS}'])
		self.assertEqual(v.lines()[-2:], ['gate: of the 1 failed in results.json totals, '
						  'not failures: 1 carry a bug the series fixes',
						  '1 passed, 0 failed, 0 skipped'])
		text = '\n'.join(fixes.lines(table))
		self.assertIn('0103-thermal-of-fix-writable-trips-mask-of-zone-without-trips'
			      '.patch  carries the bug  (a thermal zone without trips', text)
		self.assertIn('upstream: 83c2d444ed9d', text)
		# 0201's guards are not in this run: one line, not a row each
		self.assertNotIn('0201', text)
		self.assertIn('and 11 more not determined: no guard of theirs in '
			      'this run', text)

	def test_a_run_without_any_guard_has_no_section(self) -> None:
		run = [Suite('tcp_ehash', 'bench')]
		self.assertEqual(fixes.lines(fixes.verdicts(fix_list(), run,
							    applied=True)), [])

	def test_guard_failing_with_its_fix_fails_the_gate(self) -> None:
		run = thermal(Case(NO_TRIPS, Status.FAIL, 'ret == -22'))
		table = fixes.verdicts(fix_list(), run, applied=True)
		self.assertEqual(table[0]['verdict'], fixes.BROKEN)
		v = gate.decide(run, [], None, TODAY,
				findings=fixes.findings(fix_list(), run, applied=True))
		self.assertFalse(v.ok)

	def test_proof_names_what_did_not_change(self) -> None:
		run = thermal(Case(NO_TRIPS, Status.FAIL, 'ret == -22'),
			      Case(EMPTY, Status.PASS))
		problems = fixes.proof(fixes.verdicts(fix_list(), run, applied=False),
				       ['kunit:thermal_of:other (pass -> fail)'])
		self.assertIn('0105-thermal-of-put-trips-node-without-trip-points.patch: its '
			      'guards did not fail without it (fixed)', problems)
		self.assertFalse(any(p.startswith('0103') for p in problems))
		self.assertIn('0403-libbpf-user_ring_buffer__reserve_blocking-wait-for-a.patch: '
			      'its guards did not fail without it (not determined)', problems)
		self.assertIn('changed without the fixes, but guards no fix: '
			      'kunit:thermal_of:other (pass -> fail)', problems)

	def test_omitting_fixes_changes_the_tree_digest(self) -> None:
		src = tree.Source('linux-source-6.1', inputs.REPO, inputs.REPO)
		with_fixes = tree.series_digest(LAYOUT, src)
		src.omit = tuple(f.patch for f in fix_list())
		self.assertNotEqual(tree.series_digest(LAYOUT, src), with_fixes)


	def test_an_affected_case_is_explained_but_decides_nothing(self) -> None:
		bad = 'thermal_of_test_bad_input/good'
		run = thermal(Case(bad, Status.FAIL, 'refs 11 != 10'),
			      Case('thermal_of_test_zone_node_refcount', Status.PASS))
		self.assertIn(('kunit', 'thermal_of', bad),
			      fixes.findings(fix_list(), run, applied=False))
		self.assertNotIn(('kunit', 'thermal_of', bad),
				 fixes.findings(fix_list(), run, applied=True))
		by = {f['patch'][:4]: f for f in fixes.verdicts(fix_list(), run, applied=False)}
		self.assertEqual(by['0104']['verdict'], fixes.FIXED)
		# the leaks' kmemleak report that appears without the fixes is
		# a finding of the proof run, not a change against the baseline
		boot = Suite('<kunit boot>', 'kunit', [Case('<kernel report>', Status.CRASH)])
		boot.settle()
		found = fixes.findings(fix_list(), run + [boot], applied=False)
		old = {('kunit', 'thermal_of', bad): 'pass',
		       ('kunit', 'thermal_of', 'thermal_of_test_zone_node_refcount'): 'pass'}
		v = gate.decide(run + [boot], [], old, TODAY,
				'6.1.192', 'tcg', False, found)
		self.assertEqual((v.appeared, v.new_failures), ([], []))


class PackageTest(unittest.TestCase):

	def test_a_tools_fix_is_not_determined_on_a_package_kernel(self) -> None:
		by = {f.patch[:4]: f for f in fix_list()}
		self.assertTrue(by['0403'].tools_only)
		self.assertFalse(by['0304'].tools_only)
		guard = 'user_ringbuf_test/urb.blocking_forever_partial_space'
		run = [Suite('bpf_user_ringbuf', 'kselftest', [
			Case(guard, Status.PASS),
			Case('user_ringbuf_test_debian_libbpf/urb.blocking_forever_partial_space',
			     Status.FAIL)])]
		got = [(f['patch'][:4], f.get('component', ''), f['verdict'])
		       for f in fixes.verdicts(fix_list(), run, False, package=True)
		       if f['patch'].startswith('0403')]
		self.assertEqual(got, [('0403', '', fixes.UNKNOWN),
				       ('0403', "Debian's libbpf", fixes.CARRIES)])
		# the tree's own run: the tree's libbpf has the fix
		got = [f['verdict'] for f in fixes.verdicts(fix_list(), run, True)
		       if f['patch'].startswith('0403')]
		self.assertEqual(got, [fixes.FIXED, fixes.CARRIES])


URB = 'user_ringbuf_test/urb.blocking_forever_partial_space'
URB_DEB = 'user_ringbuf_test_debian_libbpf/urb.blocking_forever_partial_space'


def ringbuf(tree_lib: Status, debian_lib: Status) -> List[Suite]:
	s = Suite('bpf_user_ringbuf', 'kselftest',
		  [Case(URB, tree_lib), Case(URB_DEB, debian_lib, 'after 0 ms: ENOSPC')])
	s.settle()
	return [s]


class DistroLibraryTest(unittest.TestCase):
	"""0403: the tree's libbpf by the fixes mechanism, Debian's by its twin."""

	def rows(self, table: List[dict]) -> List[dict]:	# type: ignore[type-arg]
		return [f for f in table if f['patch'].startswith('0403')]

	def test_debian_libbpf_carries_the_bug_with_the_fix_applied(self) -> None:
		run = ringbuf(Status.PASS, Status.FAIL)
		table = fixes.verdicts(fix_list(), run, applied=True)
		tree_row, debian = self.rows(table)
		self.assertEqual(tree_row['verdict'], fixes.FIXED)
		self.assertEqual((debian['component'], debian['verdict']),
				 ("Debian's libbpf", fixes.CARRIES))
		self.assertEqual(debian['failing'], [f'kselftest:bpf_user_ringbuf:{URB_DEB}'])
		v = gate.decide(run, [], None, TODAY,
				findings=fixes.findings(fix_list(), run, applied=True))
		self.assertTrue(v.ok)
		self.assertEqual(v.carried, [f'kselftest:bpf_user_ringbuf:{URB_DEB}'])
		self.assertIn("Debian's libbpf carries the bug  (user_ring_buffer__reserve_blocking",
			      '\n'.join(fixes.lines(table)))

	def test_proven_against_the_trees_libbpf(self) -> None:
		run = ringbuf(Status.FAIL, Status.FAIL)
		table = fixes.verdicts(fix_list(), run, applied=False)
		self.assertEqual([r['verdict'] for r in self.rows(table)],
				 [fixes.CARRIES, fixes.CARRIES])
		problems = fixes.proof(table, [])
		self.assertFalse(any(p.startswith('0403') for p in problems))

	def test_tree_guard_failing_with_the_fix_fails_the_gate(self) -> None:
		run = ringbuf(Status.FAIL, Status.PASS)
		table = fixes.verdicts(fix_list(), run, applied=True)
		self.assertEqual([r['verdict'] for r in self.rows(table)],
				 [fixes.BROKEN, fixes.FIXED])
		v = gate.decide(run, [], None, TODAY,
				findings=fixes.findings(fix_list(), run, applied=True))
		self.assertFalse(v.ok)


if __name__ == '__main__':
	unittest.main()
