# SPDX-License-Identifier: GPL-2.0
"""Upstream's test_progs: suites.toml's selectors into the files a build
keeps, and the Makefile's command line (no kernel, no compiler)."""

import tempfile
import unittest
from pathlib import Path
from typing import List

from unittest import mock

from kconform import guest, proc, suites, upstream
from kconform.model import KconformError, Status

REPO = Path(__file__).resolve().parents[4]
# written from 6.1's test_progs.c print formats, not recorded: no
# test_progs has run in a guest yet
LOG = Path(__file__).parent / 'test_data/test_progs_6.1.log'


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
		'void test_bpf_iter(void)\n{\n}\n')
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
		(tmp / '.config').write_text('CONFIG_INET=y\nCONFIG_IPV6=y\n')
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


if __name__ == '__main__':
	unittest.main()
