# SPDX-License-Identifier: GPL-2.0
"""Upstream's test_progs: suites.toml's selectors into the files a build
keeps, and the Makefile's command line (no kernel, no compiler)."""

import dataclasses
import os
import tempfile
import types
import unittest
from pathlib import Path
from typing import List

from unittest import mock

from kconform import applicable, guest, lanes, pipeline, proc, suites, tree, upstream
from kconform.model import Case, KconformError, Status, Suite

REPO = Path(__file__).resolve().parents[4]
# written from 6.1's test_progs.c print formats, not recorded: no
# test_progs has run in a guest yet
LOG = Path(__file__).parent / 'test_data/test_progs_6.1.log'
# a kselftest boot's console in two lanes, upstream:test_progs in the
# second (runner.sh's "# " before each of its lines), written from
# runner.sh's and test_progs.c's formats
LANES = Path(__file__).parent / 'test_data/lanes-console-upstream.log'


def _selftests(root: Path) -> Path:
	"""A selftests/bpf folder shaped as 6.1's: bpf_iter.c defines two
	tests, kfunc_call.c includes a light skeleton too."""
	bpf = root / upstream.SELFTESTS
	(bpf / 'prog_tests').mkdir(parents=True)
	(bpf / 'progs').mkdir()
	(bpf / 'prog_tests/bpf_iter.c').write_text(
		'#include <test_progs.h>\n#include "bpf_iter_task.skel.h"\n'
		'#include "bpf_iter_tcp6.skel.h"\n'
		'void test_bpf_sockmap_map_iter_fd(void)\n{\n}\n'
		'void test_bpf_iter(void)\n{\n\tif (test__start_subtest("task_tid"))\n'
		'\t\treturn;\n\tif (test__start_subtest("vma_offset"))\n\t\treturn;\n}\n')
	(bpf / 'prog_tests/kfunc_call.c').write_text(
		'#include "kfunc_call_test.skel.h"\n#include "kfunc_call_test.lskel.h"\n'
		'#include "cap_helpers.h"\nvoid serial_test_kfunc_call(void)\n{\n}\n')
	(bpf / 'prog_tests/other.c').write_text(
		'#include "other.skel.h"\nvoid test_other(void)\n{\n}\n')
	(bpf / 'prog_tests/linked.c').write_text(
		'#include "linked_maps.skel.h"\nvoid test_linked(void)\n{\n}\n')
	for prog in ('bpf_iter_task', 'bpf_iter_tcp6', 'kfunc_call_test', 'other',
		     'linked_maps1', 'btf_data'):
		(bpf / 'progs' / f'{prog}.c').write_text('\n')
	(bpf / 'progs/bpf_misc.h').write_text('\n')
	return bpf


class PlanTest(unittest.TestCase):

	def setUp(self) -> None:
		self.root = Path(tempfile.mkdtemp())
		self.bpf = _selftests(self.root)

	def test_selectors_keep_their_files_and_programs(self) -> None:
		p = upstream.plan(self.bpf, ['bpf_iter/task_*', 'kfunc_call/destructive'], True)
		self.assertEqual(p.tests, ('bpf_iter.c', 'kfunc_call.c'))
		# btf_data.c: resolve_btfids reads its BTF when test_progs links
		self.assertEqual(p.progs, ('bpf_iter_task.c', 'bpf_iter_tcp6.c',
					   'btf_data.c', 'kfunc_call_test.c'))
		self.assertEqual(p.light, ('kfunc_call_test.c',))
		self.assertEqual(p.selectors, ('bpf_iter/task_*', 'kfunc_call/destructive'))

	def test_a_program_s_included_source_is_kept(self) -> None:
		# 6.1's test_sk_assign_libbpf.c includes test_sk_assign.c
		(self.bpf / 'prog_tests/other.c').write_text(
			'#include "test_sk_assign_libbpf.skel.h"\nvoid test_other(void)\n{\n}\n')
		(self.bpf / 'progs/test_sk_assign_libbpf.c').write_text(
			'#define TEST_SK_ASSIGN_LIBBPF\n#include "test_sk_assign.c"\n')
		(self.bpf / 'progs/test_sk_assign.c').write_text('#include "bpf_misc.h"\n')
		p = upstream.plan(self.bpf, ['other'], True)
		self.assertEqual(p.progs, ('btf_data.c', 'test_sk_assign.c',
					   'test_sk_assign_libbpf.c'))

	def test_a_file_of_two_tests_is_kept_once(self) -> None:
		p = upstream.plan(self.bpf, ['bpf_iter', 'bpf_sockmap_map_iter_fd'], False)
		self.assertEqual(p.tests, ('bpf_iter.c',))

	def test_an_unknown_test_is_named(self) -> None:
		with self.assertRaises(KconformError) as ctx:
			upstream.plan(self.bpf, ['bpf_iter', 'task_iter/x'], True)
		self.assertIn('task_iter/x', str(ctx.exception))
		self.assertNotIn('bpf_iter,', str(ctx.exception))

	def test_a_linked_skeleton_is_refused(self) -> None:
		with self.assertRaises(KconformError) as ctx:
			upstream.plan(self.bpf, ['linked'], True)
		self.assertIn('linked_maps.skel.h', str(ctx.exception))


class SourceTest(unittest.TestCase):

	def test_tools_copied_with_only_the_plan_the_rest_linked(self) -> None:
		tree = Path(tempfile.mkdtemp()) / 'linux'
		bpf = _selftests(tree)
		(bpf / 'prog_tests/tests.h').write_text('DEFINE_TEST(other)\n')
		(tree / 'scripts').mkdir()
		(tree / 'Makefile').write_text('\n')
		p = upstream.plan(bpf, ['kfunc_call'], True)
		dest = tree.parent / 'out/src'
		got = upstream.source(tree, dest, p)
		self.assertEqual(got, dest / upstream.SELFTESTS)
		self.assertTrue((dest / 'scripts').is_symlink())
		self.assertTrue((dest / 'Makefile').is_symlink())
		self.assertFalse((dest / 'tools').is_symlink())
		self.assertEqual(sorted(f.name for f in (got / 'prog_tests').iterdir()),
				 ['kfunc_call.c'])
		self.assertEqual(sorted(f.name for f in (got / 'progs').iterdir()),
				 ['bpf_misc.h', 'btf_data.c', 'kfunc_call_test.c'])
		# the tree itself is left whole
		self.assertTrue((bpf / 'prog_tests/other.c').exists())
		self.assertTrue((bpf / 'prog_tests/tests.h').exists())


class MakeArgsTest(unittest.TestCase):

	def _args(self, testmod: bool) -> List[str]:
		p = upstream.Plan(('kfunc_call',), ('kfunc_call.c',),
				  ('btf_data.c', 'kfunc_call_test.c'), ('kfunc_call_test.c',), testmod)
		return upstream.make_args(p, Path('/s'), Path('/o'), Path('/b/vmlinux'),
					  Path('/b') if testmod else None, 2, guest.TOOLCHAIN)

	def test_lists_narrowed_on_the_command_line(self) -> None:
		args = self._args(True)
		self.assertEqual(args[:3], ['make', '-C', '/s'])
		self.assertIn('LLVM=1', args)
		for want in ('OUTPUT=/o', 'VMLINUX_BTF=/b/vmlinux', 'KDIR=/b',
			     'LINKED_SKELS=', 'LSKELS=', 'LSKELS_EXTRA=kfunc_call_test.c',
			     'TRUNNER_EXTRA_FILES=/o/bpf_testmod.ko /o/sign-file verify_sig_setup.sh'):
			self.assertIn(want, args)
		self.assertEqual(args[-1], 'test_progs')

	def test_no_module_without_a_kernel_build(self) -> None:
		args = self._args(False)
		self.assertFalse([a for a in args if a.startswith('KDIR=')])
		self.assertIn('TRUNNER_EXTRA_FILES=/o/sign-file verify_sig_setup.sh', args)


class RebuildTest(unittest.TestCase):

	def test_the_test_objects_dependency_files_go_before_make(self) -> None:
		tmp = Path(tempfile.mkdtemp())
		_selftests(tmp / 'linux')
		kdir = tmp / 'kdir'
		kdir.mkdir()
		(kdir / '.config').write_text(''.join(
			f'{line}\n' for line in (REPO / upstream.CONFIG).read_text().splitlines()
			if line.startswith('CONFIG_')))
		output = tmp / 'out/build'
		output.mkdir(parents=True)
		# as 6.12's first build left it: the light skeleton by its bare name
		(output / 'kfunc_call.test.d').write_text(
			'kfunc_call.test.o: kfunc_call_test.lskel.h\n')
		(output / 'libbpf.d').write_text('x\n')
		seen: List[List[str]] = []
		with mock.patch.object(proc, 'check', side_effect=lambda *a, **k: seen.append(
				sorted(f.name for f in output.iterdir()))):
			upstream.build(tmp / 'linux', kdir / 'vmlinux', kdir, REPO / upstream.CONFIG,
				       tmp / 'out', ['kfunc_call'], 2, tmp / 'log', guest.TOOLCHAIN)
		self.assertEqual(seen, [['libbpf.d']])


class ConfigTest(unittest.TestCase):

	def test_a_kernel_without_the_fragment_is_refused_before_make(self) -> None:
		tmp = Path(tempfile.mkdtemp())
		kdir = tmp / 'build'
		kdir.mkdir()
		# the debug variant's kernel of 6.1.192 as built today: no IPv6
		(kdir / '.config').write_text('CONFIG_INET=y\n# CONFIG_IPV6 is not set\n')
		with mock.patch.object(proc, 'check') as make:
			with self.assertRaises(KconformError) as ctx:
				upstream.build(tmp / 'linux', kdir / 'vmlinux', kdir,
					       REPO / upstream.CONFIG, tmp / 'out', ['bpf_iter'], 2,
					       tmp / 'log', guest.TOOLCHAIN)
			make.assert_not_called()
		self.assertIn('CONFIG_IPV6=y (.config has CONFIG_IPV6=n)', str(ctx.exception))

	def test_a_kernel_with_it_passes(self) -> None:
		tmp = Path(tempfile.mkdtemp())
		(tmp / '.config').write_text('CONFIG_INET=y\nCONFIG_IPV6=y\nCONFIG_IKCONFIG=y\n'
						   'CONFIG_IKCONFIG_PROC=y\nCONFIG_DEBUG_INFO_BTF_MODULES=y\n')
		self.assertEqual(upstream.lacking(REPO / upstream.CONFIG, tmp / '.config'), [])


class CasesTest(unittest.TestCase):

	def setUp(self) -> None:
		self.got = {c.name: c for c in upstream.cases(LOG.read_text())}

	def test_subtests_are_cases_and_their_test_s_sum_is_not(self) -> None:
		self.assertEqual(list(self.got), [
			'bpf_iter/task_tid', 'bpf_iter/task_pid', 'bpf_iter/task_file',
			'bpf_iter/tcp6', 'cgroup_iter/cgroup_iter__invalid_cgroup',
			'cgroup_iter/cgroup_iter__preorder', 'cgroup_hierarchical_stats',
			'kfunc_call/destructive', 'kfunc_call', 'lookup_key',
			'deny_namespace/unpriv_userns_create_no_bpf'])
		self.assertEqual(self.got['bpf_iter/task_tid'].status, Status.PASS)
		self.assertEqual(self.got['bpf_iter/tcp6'].status, Status.SKIP)
		# test_progs prints a skip's log with -v only
		self.assertEqual(self.got['bpf_iter/tcp6'].message, upstream.SKIPPED)
		self.assertEqual(self.got['lookup_key'].status, Status.PASS)

	def test_a_failure_carries_its_own_log(self) -> None:
		c = self.got['bpf_iter/task_file']
		self.assertEqual(c.status, Status.FAIL)
		self.assertIn('actual 1 != expected 2', c.message)
		self.assertNotIn('WARNING', c.message)
		self.assertIn('errno 16', self.got['cgroup_hierarchical_stats'].message)

	def test_a_test_failing_outside_its_subtests_is_a_case(self) -> None:
		c = self.got['kfunc_call']
		self.assertEqual(c.status, Status.FAIL)
		self.assertIn('kfunc_call_test__open_and_load', c.message)
		self.assertEqual(self.got['kfunc_call/destructive'].status, Status.PASS)

	def test_the_error_log_summary_is_not_counted_again(self) -> None:
		names = [c.name for c in upstream.cases(LOG.read_text())]
		self.assertEqual(names.count('bpf_iter/task_file'), 1)


class RegistryTest(unittest.TestCase):

	def test_the_features_name_their_upstream_tests(self) -> None:
		specs = {s.name: s for s in suites.load(REPO)}
		self.assertEqual(specs['bpf_user_ringbuf'].upstream, ('user_ringbuf',))
		self.assertIn('deny_namespace', specs['bpf_security'].upstream)
		self.assertEqual(specs['tcp_ehash'].upstream, ())
		got = upstream.selectors(list(specs.values()))
		# cgroup_iter is named by two features, selected once
		self.assertEqual(got.count('cgroup_iter'), 1)
		self.assertEqual(got[0], 'cgroup_iter')

	def test_a_bad_selector_is_refused(self) -> None:
		tmp = Path(tempfile.mkdtemp())
		(tmp / 'kselftests/x').mkdir(parents=True)
		for bad in ('"user_ringbuf"', '["a/b/c"]', '["a,b"]', '[1]'):
			(tmp / 'suites.toml').write_text(f'[x]\nupstream = {bad}\n')
			with self.assertRaises(KconformError) as ctx:
				suites.load(tmp)
			self.assertIn('[x] upstream', str(ctx.exception))


class UpstreamLaneTest(unittest.TestCase):

	def setUp(self) -> None:
		self.raw = LANES.read_text().splitlines()

	def _suites(self, got: List[Suite]) -> dict[str, Suite]:
		return {s.name: s for s in got}

	def test_the_test_progs_lane_is_suite_upstream_a_case_per_result(self) -> None:
		plan = lanes.Plan([], [['bpf_user_ringbuf'], [upstream.TARGET]])
		got = self._suites(lanes.suites(self.raw, [], plan, False))
		up = got['upstream']
		self.assertEqual(up.kind, 'kselftest')
		self.assertEqual([(c.name, c.status) for c in up.cases], [
			('test_progs:user_ringbuf/test_user_ringbuf_mappings', Status.PASS),
			('test_progs:user_ringbuf/test_user_ringbuf_post_misaligned', Status.PASS),
			('test_progs:user_ringbuf/test_user_ringbuf_loop', Status.FAIL),
			('test_progs:user_ringbuf/test_user_ringbuf_msg_handler', Status.PASS),
			('test_progs:lookup_key/lookup_key', Status.SKIP),
			('test_progs:cgroup_hierarchical_stats', Status.PASS)])
		self.assertEqual(up.status, Status.FAIL)
		loop = up.cases[2]
		self.assertIn('errno 16', loop.message)
		# the kernel line printed meanwhile is in its lane's log too
		self.assertIn('bpf_testmod: loading', loop.message)
		# the other lane is a kselftest target as before
		ring = got['bpf_user_ringbuf']
		self.assertEqual([c.status for c in ring.cases], [Status.PASS, Status.PASS])
		self.assertFalse(any('test_progs' in c.name for c in ring.cases))

	def test_its_cases_are_timed_so_the_lanes_learn_its_length(self) -> None:
		plan = lanes.Plan([], [['bpf_user_ringbuf'], [upstream.TARGET]])
		times = [float(i) for i in range(len(self.raw))]
		got = self._suites(lanes.suites(self.raw, times, plan, False))
		up = got['upstream'].cases
		start = self.raw.index('kconform-lane2: # selftests: upstream: test_progs')
		first = self.raw.index('kconform-lane2: # #194/1   user_ringbuf/'
				       'test_user_ringbuf_mappings:OK')
		last = self.raw.index('kconform-lane2: # #11      cgroup_hierarchical_stats:OK')
		self.assertEqual(up[0].duration_s, first - start)
		self.assertEqual(lanes.seconds_of([('upstream', [
			c.duration_s for c in up if c.duration_s is not None])]),
				 {'upstream': float(last - start)})

	def test_a_saved_console_reads_the_same(self) -> None:
		got = self._suites(lanes.recorded(self.raw, ['bpf_user_ringbuf', upstream.TARGET]))
		self.assertEqual(len(got['upstream'].cases), 6)
		self.assertEqual(got['upstream'].cases[0].name,
				 'test_progs:user_ringbuf/test_user_ringbuf_mappings')


class ProgramCasesTest(unittest.TestCase):

	def test_a_timeout_is_a_case_of_its_own_after_what_ran(self) -> None:
		got = upstream.program_cases(
			['selftests: upstream: test_progs', '#1/1     a/b:OK'],
			Status.TIMEOUT, 'timed out 1200 seconds')
		self.assertEqual([(c.name, c.status) for c in got],
				 [('test_progs:a/b', Status.PASS), ('test_progs', Status.TIMEOUT)])

	def test_no_result_line_fails(self) -> None:
		got = upstream.program_cases(['selftests: upstream: test_progs'], Status.PASS, '')
		self.assertEqual([(c.name, c.status) for c in got], [('test_progs', Status.FAIL)])
		self.assertIn('no result line', got[0].message)

	def test_a_failure_no_case_explains_is_kept(self) -> None:
		got = upstream.program_cases(['#1       a:OK'], Status.FAIL, 'exit=139')
		self.assertEqual([(c.name, c.status) for c in got],
				 [('test_progs:a', Status.PASS), ('test_progs', Status.FAIL)])
		self.assertEqual(got[1].message, 'exit=139')

	def test_a_failed_case_explains_exit_1(self) -> None:
		got = upstream.program_cases(['#1       a:FAIL'], Status.FAIL, 'exit=1')
		self.assertEqual([c.name for c in got], ['test_progs:a'])


class SideBySideTest(unittest.TestCase):

	def setUp(self) -> None:
		self.specs = suites.load(REPO)
		plan = lanes.Plan([], [['bpf_user_ringbuf'], [upstream.TARGET]])
		self.results = lanes.suites(LANES.read_text().splitlines(), [], plan, False)
		self.results.append(Suite('bpf_user_ringbuf', 'kunit', [
			Case('a', Status.PASS), Case('b', Status.SKIP, 'why')]))

	def test_counts_per_feature_and_the_disagreement_named(self) -> None:
		got = upstream.side_by_side(self.specs, self.results)
		self.assertEqual(got[0], "== upstream's tests (test_progs of the tree) "
				 "beside ours, per feature")
		i = got.index('   bpf_user_ringbuf: ours 3 pass, 0 fail, 1 skip; '
			      'upstream 3 pass, 1 fail, 0 skip')
		self.assertEqual(got[i + 1], '      disagree: upstream fails, ours passes: '
				 'test_progs:user_ringbuf/test_user_ringbuf_loop')
		# lookup_key is bpf_security's: no suite of ours ran, none failed
		self.assertIn('   bpf_security: ours 0 pass, 0 fail, 0 skip; '
			      'upstream 0 pass, 0 fail, 1 skip', got)
		# cgroup_hierarchical_stats is bpf_cgroup_iter's
		self.assertIn('   bpf_cgroup_iter: ours 0 pass, 0 fail, 0 skip; '
			      'upstream 1 pass, 0 fail, 0 skip', got)
		self.assertFalse(any('tcp_ehash' in line for line in got))

	def ours_fail_upstream_passes(self) -> None:
		"""Upstream's failures dropped, our KUnit case a failed."""
		for s in self.results:
			if s.name == 'upstream':
				s.cases = [c for c in s.cases if c.status != Status.FAIL]
			if s.kind == 'kunit':
				s.cases[0].status, s.cases[0].message = Status.FAIL, 'x'

	def test_ours_failing_alone_is_named_too(self) -> None:
		self.ours_fail_upstream_passes()
		got = upstream.side_by_side(self.specs, self.results)
		self.assertIn('      disagree: ours fails, upstream passes: a', got)

	def test_a_bug_the_gate_explains_is_no_disagreement(self) -> None:
		self.ours_fail_upstream_passes()
		got = upstream.side_by_side(self.specs, self.results, {
			('kunit', 'bpf_user_ringbuf', 'a'): 'carries the bug'})
		self.assertFalse(any('disagree' in line for line in got))

	def test_no_disagreement_when_ours_did_not_run(self) -> None:
		got = upstream.side_by_side(self.specs, [
			s for s in self.results if s.name == 'upstream'])
		self.assertIn('   bpf_user_ringbuf: ours 0 pass, 0 fail, 0 skip; '
			      'upstream 3 pass, 1 fail, 0 skip', got)
		self.assertFalse(any('disagree' in line for line in got))

	def test_no_upstream_suite_no_section(self) -> None:
		self.assertEqual(upstream.side_by_side(
			self.specs, [s for s in self.results if s.name != 'upstream']), [])


class NotApplicableTest(unittest.TestCase):

	def setUp(self) -> None:
		self.root = Path(tempfile.mkdtemp())
		bpf = _selftests(self.root)
		# 6.1's kfunc_call_race.c calls the module's kfunc
		(bpf / 'progs/kfunc_call_test.c').write_text(
			'extern void bpf_testmod_test_mod_kfunc(int i) __ksym;\n')

	def test_a_test_the_tree_lacks_and_one_needing_the_module(self) -> None:
		got = upstream.not_applicable(self.root, ['bpf_iter/task_*', 'nosuch/x', 'kfunc_call'],
					      False, 'linux-source-6.12', 'linux-image-x')
		self.assertEqual([(n.kind, n.suite, n.glob) for n in got], [
			('kselftest', 'upstream', 'test_progs:nosuch/x'),
			('kselftest', 'upstream', 'test_progs:kfunc_call'),
			('kselftest', 'upstream', 'test_progs:kfunc_call/*')])
		self.assertIn('not applicable to linux-source-6.12: no test_progs test nosuch',
			      got[0].reason)
		self.assertIn('not applicable to linux-image-x: kfunc_call.c needs bpf_testmod.ko',
			      got[1].reason)
		# our own kernel build gives the module
		self.assertEqual([n.glob for n in upstream.not_applicable(
			self.root, ['kfunc_call', 'nosuch'], True, 't', 'k')], ['test_progs:nosuch'])

	def test_a_subtest_its_file_lacks(self) -> None:
		got = upstream.not_applicable(self.root, ['bpf_iter/task_*', 'bpf_iter/task_vma'],
					      True, 'linux-source-6.12', 'k')
		self.assertEqual([n.glob for n in got], ['test_progs:bpf_iter/task_vma'])
		self.assertIn('not applicable to linux-source-6.12: test_progs test bpf_iter '
			      'has no subtest task_vma (its tools/testing/selftests/bpf/'
			      'prog_tests/bpf_iter.c)', got[0].reason)
		# one named at run time may be there: the run says (unreported())
		(self.root / upstream.SELFTESTS / 'prog_tests/other.c').write_text(
			'void test_other(void)\n{\n\tRUN_TESTS(other);\n}\n')
		self.assertEqual(upstream.not_applicable(self.root, ['other/any'], True, 't', 'k'), [])

	def test_a_selector_no_result_line_matches_fails(self) -> None:
		ran = [Case('test_progs:bpf_iter/task_tid', Status.PASS),
		       Case('test_progs:cgroup_iter', Status.PASS)]
		got = upstream.unreported(['bpf_iter/task_*', 'bpf_iter/vma_offset', 'cgroup_iter',
					   'lookup_key'], ran)
		self.assertEqual([(c.name, c.status) for c in got], [
			('test_progs:bpf_iter/vma_offset', Status.FAIL),
			('test_progs:lookup_key', Status.FAIL)])
		self.assertIn('test_progs printed no result line of it', got[0].message)
		# a program that printed no result at all has its own case
		self.assertEqual(upstream.unreported(['lookup_key'], [
			Case('test_progs', Status.FAIL, 'not built')]), [])

	def test_marked_skipped_never_dropped(self) -> None:
		nas = upstream.not_applicable(self.root, ['nosuch', 'kfunc_call'], False, 't', 'k')
		ran = Suite('upstream', 'kselftest', [Case('test_progs:kfunc_call/a', Status.FAIL, 'x')])
		got = applicable.mark([ran], nas, applicable.listed(REPO, nas))
		self.assertEqual([(c.name, c.status) for c in got[0].cases], [
			('test_progs:kfunc_call/a', Status.SKIP), ('test_progs:nosuch', Status.SKIP),
			('test_progs:kfunc_call', Status.SKIP)])
		self.assertTrue(all('not applicable to' in c.message for c in got[0].cases))


class GuestTest(unittest.TestCase):

	def _job(self, variant: str) -> guest.GuestJob:
		tmp = Path(tempfile.mkdtemp())
		return guest.GuestJob(REPO, tmp / 'tree', tmp / 'build', tmp / 'out', 1, 1,
				      guest.variants(REPO)[variant])

	def test_the_config_of_the_variants_that_run_it(self) -> None:
		registry = suites.load(REPO)
		for variant, has in (('default', True), ('debug', False), ('coverage', False)):
			frags = guest.fragments(self._job(variant), registry)
			self.assertEqual(REPO / upstream.CONFIG in frags, has, variant)
		job = self._job('debug')
		job.variant = dataclasses.replace(job.variant, upstream=True)
		# before the variant's own fragment, which wins
		self.assertEqual(guest.fragments(job, registry)[-2:], [
			REPO / upstream.CONFIG, REPO / 'tools/testing/guest/debug.config'])
		# no suite names upstream tests: nothing to configure
		self.assertNotIn(REPO / upstream.CONFIG, guest.fragments(
			self._job('default'), [s for s in registry if not s.upstream]))

	def test_installed_as_a_program_of_run_kselftest(self) -> None:
		job = self._job('default')
		out = job.build_dir / 'upstream/build'
		out.mkdir(parents=True)
		for f in ('test_progs', 'sign-file', 'verify_sig_setup.sh', 'a.bpf.o'):
			(out / f).write_text(f)
		built = upstream.Built(upstream.Plan(('a',), ('a.c',), ('a.c',), (), True), out,
				       tuple(out / f for f in ('test_progs', 'sign-file',
							       'verify_sig_setup.sh', 'a.bpf.o')))
		job.installed.mkdir(parents=True)
		(job.installed / 'kselftest-list.txt').write_text('tcp_ehash:tcp_ehash_test\n')
		tool = job.build_dir / 'keyctl'
		tool.write_text('keyctl')
		upstream.install(built, job.installed, {'keyctl': tool})
		self.assertEqual(guest.installed_programs(job.installed),
				 ['tcp_ehash:tcp_ehash_test', 'upstream:test_progs'])
		dest = job.installed / 'upstream'
		self.assertTrue(os.access(dest / 'test_progs', os.X_OK))
		self.assertIn('exec ./test_progs -v -a "$sel"', (dest / 'test_progs').read_text())
		self.assertEqual(sorted(f.name for f in (dest / 'bpf').iterdir()),
				 ['a.bpf.o', 'sign-file', 'test_progs', 'verify_sig_setup.sh'])
		self.assertEqual((dest / 'settings').read_text(), f'timeout={upstream.TIMEOUT}\n')
		self.assertEqual((dest / 'bin/keyctl').read_text(), 'keyctl')

	def test_the_user_space_is_made_again_when_the_wrapper_changes(self) -> None:
		job = self._job('default')
		specs = suites.load(REPO)
		with mock.patch.object(tree, 'sha256', return_value='x'):
			before = guest.userspace_key(job, 'k', 't', specs)
			with mock.patch.object(upstream, 'WRAPPER', upstream.WRAPPER + '# \n'):
				self.assertNotEqual(guest.userspace_key(job, 'k', 't', specs), before)
			# and when the selectors change
			fewer = [dataclasses.replace(s, upstream=()) if s.name == 'bpf_security'
				 else s for s in specs]
			self.assertNotEqual(guest.userspace_key(job, 'k', 't', fewer), before)

	def test_a_failed_build_is_a_failing_program_the_others_run(self) -> None:
		job = self._job('default')
		_selftests(job.tree)
		job.installed.mkdir(parents=True)
		(job.installed / 'kselftest-list.txt').write_text('tcp_ehash:tcp_ehash_test\n')
		job.build_dir.mkdir(parents=True, exist_ok=True)
		specs = [s for s in suites.load(REPO) if s.name == 'bpf_task_iter']
		with mock.patch.object(upstream, 'build', side_effect=KconformError(
				"upstream test_progs build failed:\nmake: *** [Makefile:1] it's broken")):
			guest.install_upstream(job, specs)
		self.assertEqual(guest.installed_programs(job.installed),
				 ['tcp_ehash:tcp_ehash_test', 'upstream:test_progs'])
		script = (job.installed / 'upstream/test_progs').read_text()
		self.assertIn('make: *** [Makefile:1] its broken', script)
		self.assertTrue(script.endswith('exit 1\n'))
		# read back from the console as one failing case with the error
		got = upstream.program_cases(['test_progs was not built:', 'make: *** x'],
					     Status.FAIL, 'exit=1')
		self.assertEqual([(c.name, c.status) for c in got], [('test_progs', Status.FAIL)])

	def test_a_failed_build_is_tried_again_by_the_next_run(self) -> None:
		job = self._job('default')
		job.build_dir.mkdir(parents=True)
		specs = [s for s in suites.load(REPO) if s.name == 'bpf_task_iter']
		stamp = job.build_dir / 'kconform-userspace'
		for ok, stamped in ((False, False), (True, True)):
			with mock.patch.object(guest, 'install_tests', return_value=job.installed), \
					mock.patch.object(guest, 'install_upstream', return_value=ok), \
					mock.patch.object(guest, 'make_initramfs'):
				self.assertTrue(guest.userspace(job, specs, 'key'))
			self.assertEqual(stamp.exists(), stamped)

	def test_the_boot_runs_it_in_a_lane_with_the_selectors(self) -> None:
		job = self._job('default')
		job.lanes = 2
		_selftests(job.tree)
		(job.installed / 'upstream').mkdir(parents=True)
		(job.installed / 'upstream/test_progs').write_text(upstream.WRAPPER)
		job.build_dir.mkdir(parents=True, exist_ok=True)
		job.out.mkdir(parents=True)
		specs = [s for s in suites.load(REPO) if s.name in ('bpf_user_ringbuf', 'bpf_task_iter')]
		# the fake tree defines bpf_iter, not user_ringbuf
		with mock.patch.object(proc, 'run', return_value=proc.Run(
				[], LANES.read_text().splitlines(), 0, False, 1.0, job.out / 'log')) as run:
			got = guest.boot(job, specs, ['-accel', 'tcg'])
		append = run.call_args.args[0][run.call_args.args[0].index('-append') + 1].split()
		self.assertIn('kconform.upstream=bpf_iter/task_*,bpf_iter/vma_offset', append)
		self.assertIn('kconform.lane=upstream', append)
		self.assertIn('kconform.lane=bpf_user_ringbuf', append)
		self.assertIn('upstream', [s.name for s in got])



class RerunTest(unittest.TestCase):

	def test_a_failed_upstream_case_boots_test_progs_again(self) -> None:
		specs = suites.load(REPO)
		b = types.SimpleNamespace(
			plan=types.SimpleNamespace(kunit=[], kselftest=[
				s for s in specs if s.name in ('tcp_ehash', 'bpf_user_ringbuf',
							       'bpf_task_iter')]),
			built=True, userspace=True, run_list=None, accel='tcg')
		with mock.patch.object(pipeline, 'kselftest_boot', return_value=[]) as boot:
			pipeline.rerun(mock.Mock(), b, {('kselftest', 'upstream')}, 1)  # type: ignore[arg-type]
		_, _, booted, run_list, _ = boot.call_args.args
		self.assertEqual(run_list, ['upstream'])
		# the suites whose selectors it runs, not the others
		self.assertEqual([s.name for s in booted], ['bpf_task_iter', 'bpf_user_ringbuf'])


if __name__ == '__main__':
	unittest.main()
