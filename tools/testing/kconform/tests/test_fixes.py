# SPDX-License-Identifier: GPL-2.0
"""patches/fixes.toml and "bugs this tree carries" (issue 14, part 1)."""

import datetime
import unittest
from pathlib import Path
from typing import List

from kconform import fixes, gate, inputs, lanes, listing, matrix, suites, tree
from kconform.report import KernelInfo
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
		self.assertEqual(len([f for f in fix_list() if f.guards and not f.release]), 16)
		self.assertEqual(len([f for f in fix_list() if f.release]), 7)

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
						  'not failures: 1 carry a bug the series or a stable update fixes',
						  '1 passed, 0 failed, 0 skipped'])
		text = '\n'.join(fixes.lines(table))
		self.assertIn('0103-thermal-of-fix-writable-trips-mask-of-zone-without-trips'
			      '.patch  carries the bug  (a thermal zone without trips', text)
		self.assertIn('upstream: 83c2d444ed9d', text)
		# 0201's guards are not in this run: one line, not a row each
		self.assertNotIn('0201', text)
		self.assertIn('and 22 more not determined: no guard of theirs in '
			      'this run', text)

	def test_a_run_without_any_guard_has_no_section(self) -> None:
		run = [Suite('tcp_ehash', 'bench')]
		self.assertEqual(fixes.lines(fixes.verdicts(fix_list(), run,
							    applied=True)), [])

	def test_guard_failing_with_its_fix_fails_the_gate(self) -> None:
		run = thermal(Case(NO_TRIPS, Status.FAIL, 'ret == -22'))
		table = fixes.verdicts(fix_list(), run, applied=True)
		self.assertEqual(next(f for f in table if f['patch'].startswith('0103'))['verdict'],
				 fixes.BROKEN)
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



# the console of a kselftest boot of 6.1.192 with the eight upstream
# changes reverted (tools/testing/breakage/stable-*.patch): what a release
# before them shows
STABLE_LOG = Path(__file__).parent / 'test_data' / 'stable_reverted.log'
STABLE_TARGETS = ['tcp_ehash', 'netlink_intro', 'bpf_iter_params']
RMEM = 'tcp: do not let tcp_rmem be set below 4096'
NSID = 'net: netlink: fix sending unassigned nsid after assigned one'


def reverted() -> List[Suite]:
	return lanes.recorded(STABLE_LOG.read_text().splitlines(), STABLE_TARGETS)


class StableFixesTest(unittest.TestCase):
	"""fixes.toml's stable table: upstream fixes a Debian release lacks."""

	def by_title(self, table: List[dict]) -> dict:	# type: ignore[type-arg]
		return {f['patch']: f for f in table if f.get('release')}

	def test_each_stable_fix_names_its_first_release(self) -> None:
		got = {f.patch: f.release for f in fix_list() if f.release}
		self.assertEqual(got[RMEM], '6.1.190-1')
		self.assertEqual(got[NSID], '6.1.176-1')
		self.assertEqual(got['genetlink: pin family module during policy dump'],
				 '6.1.192-1')
		# the series is not changed by them
		src = tree.Source('linux-source-6.1', inputs.REPO, inputs.REPO)
		src.omit = tuple(f.patch for f in fix_list() if not f.release)
		self.assertTrue(all(p in LAYOUT.series() for p in src.omit))

	def test_release_of_the_runs_kernel(self) -> None:
		self.assertEqual(fixes.release_of(KernelInfo.from_json({'source': 'linux-source-6.1=6.1.170-3'})),
				 '6.1.170-3')
		self.assertIsNone(fixes.release_of(KernelInfo.from_json({'source': 'linux-source-6.12=6.12.118-1'})))
		self.assertIsNone(fixes.release_of(KernelInfo.from_json({'source': '/home/me/linux'})))
		self.assertEqual(fixes.release_of(KernelInfo.from_json({'source': 'linux-image-6.1.0-40-amd64 6.1.170-3',
						   'package': {'version': '6.1.170-3'}})),
				 '6.1.170-3')
		self.assertIsNone(fixes.release_of(KernelInfo.from_json({'package': {'version': '6.12.118-1'}})))
		self.assertEqual(fixes.release_of(KernelInfo.from_json({'source': 'linux-source-6.1'})),
				 tree.changelog_version(tree.DEBIAN_CHANGELOG))

	def test_a_release_before_the_fixes_carries_their_bugs(self) -> None:
		run = reverted()
		table = fixes.verdicts(fix_list(), run, True, release='6.1.170-3')
		by = self.by_title(table)
		self.assertEqual({t: f['verdict'] for t, f in by.items()},
				 {t: fixes.CARRIES for t in by})
		self.assertEqual(by[RMEM]['failing'], [
			'kselftest:tcp_ehash:tcp_ehash_test/stable.tcp_rmem_minimum_is_4096'])
		v = gate.decide(run, [], None, TODAY, findings=fixes.findings(
			fix_list(), run, True, '6.1.170-3'))
		# the TS offset is a behaviour 6.1.192 has, no fix: a failure
		self.assertEqual(v.failures, [
			'kselftest:tcp_ehash:tcp_ehash_test/stable.ts_offset_depends_on_ports'])
		self.assertEqual(len(v.carried), 7)
		text = '\n'.join(fixes.lines(table, ''))
		self.assertIn('upstream stable fixes (in linux-source-6.1 from the Debian '
			      'release named):', text)
		self.assertIn(f'"{RMEM}"', text)
		self.assertIn('carries the bug  (net.ipv4.tcp_rmem accepts a minimum '
			      'below 4096 (down to 1))', text)
		self.assertIn('upstream: 6.1.189; Debian 6.1.190-1', text)

	def test_between_the_releases_some_are_fixed(self) -> None:
		run = reverted()
		for s in run:	# as 6.1.190-1 would: the rmem and nsid guards pass
			for c in s.cases:
				if c.name.endswith(('tcp_rmem_minimum_is_4096',
						    'own_netns_gets_no_nsid')):
					c.status = Status.PASS
		by = self.by_title(fixes.verdicts(fix_list(), run, True,
						  release='6.1.190-1'))
		self.assertEqual(by[RMEM]['verdict'], fixes.FIXED)
		self.assertEqual(by[NSID]['verdict'], fixes.FIXED)
		self.assertEqual(by['tcp: clamp route advmss to TCP_MIN_MSS']['verdict'],
				 fixes.CARRIES)
		self.assertEqual(by[RMEM]['release'], '6.1.190-1')

	def test_a_release_with_the_fixes_fails_on_their_guards(self) -> None:
		run = reverted()
		table = fixes.verdicts(fix_list(), run, True, release='6.1.192-3')
		self.assertEqual({f['verdict'] for f in self.by_title(table).values()},
				 {fixes.BROKEN})
		v = gate.decide(run, [], None, TODAY, findings=fixes.findings(
			fix_list(), run, True, '6.1.192-3'))
		self.assertFalse(v.ok)
		self.assertEqual(len(v.failures), 8)
		# the proof of the series' fixes leaves the stable ones out
		self.assertFalse(any(p.startswith(RMEM) for p in fixes.proof(table, [])))

	def test_a_users_tree_or_a_package_is_judged_by_its_guards(self) -> None:
		run = reverted()
		tree_rows = self.by_title(fixes.verdicts(fix_list(), run, False))
		self.assertEqual(tree_rows[RMEM]['verdict'], fixes.CARRIES)
		self.assertFalse(tree_rows[RMEM]['applied'])
		name = 'linux-image-6.1.0-40-amd64 6.1.170-3'
		pkg = {'source': name, 'package': {'version': '6.1.170-3'}}
		table = fixes.verdicts(fix_list(), run, True, True, fixes.release_of(KernelInfo.from_json(pkg)))
		self.assertEqual(self.by_title(table)[NSID]['verdict'], fixes.CARRIES)
		self.assertIn('"net: netlink: fix sending unassigned nsid after assigned '
			      'one"', '\n'.join(fixes.lines(table, name)))

	def test_matrix_row_per_stable_fix(self) -> None:
		table = fixes.verdicts(fix_list(), reverted(), True, release='6.1.170-3')
		rows = dict(matrix.fix_rows(['6.1.170-3'], {'6.1.170-3': {'fixes': table}}))
		self.assertEqual(rows[RMEM], [fixes.CARRIES])
		self.assertEqual(rows['0103'], [fixes.UNKNOWN])


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
