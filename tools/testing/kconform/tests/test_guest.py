# SPDX-License-Identifier: GPL-2.0
"""The kernel variants, their fragments, and what is not made twice."""

import os
import shutil
import struct
import subprocess
import tempfile
import unittest
from pathlib import Path
from typing import Dict, List
from unittest import mock

from kconform import guest, lanes, proc, suites
from kconform.model import Case, KconformError, Status, Suite

REPO = Path(__file__).resolve().parents[4]


class VariantsTest(unittest.TestCase):

	def test_the_repository_s_variants(self) -> None:
		v = guest.variants(REPO)
		self.assertEqual(v['default'].fragment, None)
		self.assertTrue(v['default'].benches)
		debug = v['debug']
		self.assertEqual(debug.fragment, REPO / 'tools/testing/guest/debug.config')
		self.assertFalse(debug.benches)
		self.assertIn('kconform.kmemleak', debug.cmdline.split())

	def test_seed_goes_to_the_command_line(self) -> None:
		self.assertEqual(guest.seed_arg({}), '')
		self.assertEqual(guest.seed_arg({'KCONFORM_SEED': ' '}), '')
		self.assertEqual(guest.seed_arg({'KCONFORM_SEED': '42'}), 'kconform.seed=42')
		self.assertEqual(guest.seed_arg({'KCONFORM_SEED': '0x10'}), 'kconform.seed=16')
		for bad in ('abc', '-1', str(1 << 64)):
			with self.assertRaises(KconformError):
				guest.seed_arg({'KCONFORM_SEED': bad})

	def test_bad_tables_are_named(self) -> None:
		tmp = Path(tempfile.mkdtemp())
		f = tmp / guest.VARIANTS
		f.parent.mkdir(parents=True)
		for text, says in (('[debug]\n', 'no [default] variant'),
				   ('[default]\nbenchs = false\n', '[default]: unknown key benchs'),
				   ('[default]\nfragment = "no.config"\n', 'no fragment')):
			f.write_text(text)
			with self.assertRaises(KconformError) as ctx:
				guest.variants(tmp)
			self.assertIn(says, str(ctx.exception))

	def test_fragments_base_targets_kunit_then_variant(self) -> None:
		registry = suites.load(REPO)
		job = guest.GuestJob(REPO, REPO / 'no-tree', Path('/b'), Path('/o'), 1, 1,
				     guest.variants(REPO)['debug'])
		names = [str(p.relative_to(REPO)) for p in guest.fragments(job, registry)]
		self.assertEqual(names[0], 'tools/testing/guest/base.config')
		self.assertEqual(names[-1], 'tools/testing/guest/debug.config')
		self.assertIn('kunitconfig/tcp_ehash.config', names)
		self.assertIn('kunitconfig/thermal_of.config', names)


class StampTest(unittest.TestCase):

	def setUp(self) -> None:
		self.tmp = Path(tempfile.mkdtemp())
		self.job = guest.GuestJob(REPO, self.tmp / 'tree', self.tmp / 'build',
					  self.tmp / 'out', 1, 1)
		self.job.build_dir.mkdir()
		(self.job.build_dir / '.config').write_text('CONFIG_A=y\n')
		self.made: List[List[str]] = []

		def fake_check(argv: List[str], *rest: object, **kw: object) -> proc.Run:
			self.made.append(argv[-1:])
			self.job.image.parent.mkdir(parents=True, exist_ok=True)
			self.job.image.write_text('bzImage')
			return proc.Run(argv, [], 0, False, 0.0, self.tmp / 'log')
		self.real = proc.check
		proc.check = fake_check		# type: ignore[assignment]

	def tearDown(self) -> None:
		proc.check = self.real

	def test_same_tree_config_toolchain_is_not_built_again(self) -> None:
		key = guest.build_key(self.job, 'tree-1')
		self.assertTrue(guest.build(self.job, key))
		self.assertEqual(self.made, [['all']])
		self.assertFalse(guest.build(self.job, guest.build_key(self.job, 'tree-1')))
		self.assertEqual(len(self.made), 1)
		(self.job.build_dir / '.config').write_text('CONFIG_A=m\n')
		self.assertTrue(guest.build(self.job, guest.build_key(self.job, 'tree-1')))
		self.assertTrue(guest.build(self.job, guest.build_key(self.job, 'tree-2')))
		self.assertEqual(len(self.made), 3)

	def test_the_headers_are_made_with_the_user_space(self) -> None:
		"""The KUnit boot does not wait for the uapi headers; the tests
		are never installed without them (a package's: its own)."""
		guest.install_tests(self.job, [])
		self.assertEqual(self.made, [['headers'], ['install']])
		self.job.package = mock.Mock()
		guest.install_tests(self.job, [])
		self.assertEqual(self.made[2:], [['install']])

	def test_unknown_tree_state_always_builds(self) -> None:
		self.assertIsNone(guest.build_key(self.job, None))
		self.assertTrue(guest.build(self.job, None))
		self.assertTrue(guest.build(self.job, None))

	def test_a_lost_image_or_a_failed_build_builds_again(self) -> None:
		key = guest.build_key(self.job, 'tree-1')
		guest.build(self.job, key)
		self.job.image.unlink()
		self.assertTrue(guest.build(self.job, key))

		def failing(argv: List[str], *rest: object, **kw: object) -> proc.Run:
			raise KconformError('kernel build failed')
		proc.check = failing		# type: ignore[assignment]
		with self.assertRaises(KconformError):
			guest.build(self.job, guest.build_key(self.job, 'tree-2'))
		self.assertFalse((self.job.build_dir / 'kconform-built').exists())


if __name__ == '__main__':
	unittest.main()


def elf(sections: Dict[str, bytes]) -> bytes:
	"""A 64-bit little-endian ELF file holding these sections."""
	names = [''] + list(sections) + ['.shstrtab']
	strtab = b'\0'.join(n.encode() for n in names) + b'\0'
	name_at = {n: strtab.index(b'\0' + n.encode() + b'\0') + 1 for n in names[1:]}
	body = b''
	where = {}
	for n, data in [*sections.items(), ('.shstrtab', strtab)]:
		where[n] = (64 + len(body), len(data))
		body += data
	shoff = 64 + len(body)
	table = bytes(64)	# the null section
	for n in names[1:]:
		off, size = where[n]
		table += struct.pack('<IIQQQQIIQQ', name_at[n], 1, 0, 0, off, size, 0, 0, 1, 0)
	head = struct.pack('<16sHHIQQQIHHHHHH', b'\x7fELF\x02\x01\x01', 1, 62, 1, 0, 0,
			   shoff, 0, 64, 0, 0, 64, len(names), len(names) - 1)
	return head + body + table


class ProductsTest(unittest.TestCase):
	"""What the user space takes from a build, and when it is made again."""

	def setUp(self) -> None:
		self.tmp = Path(tempfile.mkdtemp())
		self.job = guest.GuestJob(REPO, self.tmp / 'tree', self.tmp / 'build',
					  self.tmp / 'out', 1, 1)
		b = self.job.build_dir
		(b / 'lib').mkdir(parents=True)
		(b / '.config').write_text('CONFIG_MODULES=y\n')
		(b / 'vmlinux').write_bytes(elf({'.text': b'code', '.BTF': b'types'}))
		(b / 'Module.symvers').write_text('0x0\tkunit_do_failed_assertion\n')
		(b / 'modules.order').write_text('lib/test_genetlink.ko\n')
		(b / 'lib/test_genetlink.ko').write_bytes(b'module')
		(b / 'System.map').write_text('ffffffff81000000 T _text\n')

	def test_elf_section(self) -> None:
		vmlinux = self.job.build_dir / 'vmlinux'
		self.assertEqual(guest.elf_section(vmlinux, '.BTF'), b'types')
		self.assertEqual(guest.elf_section(vmlinux, '.text'), b'code')
		self.assertIsNone(guest.elf_section(vmlinux, '.BTF.ext'))
		self.assertIsNone(guest.elf_section(self.job.build_dir / '.config', '.BTF'))

	def test_a_relink_with_the_same_products_keeps_the_user_space(self) -> None:
		b = self.job.build_dir
		key = guest.products_key(self.job)
		self.assertIsNotNone(key)
		# a KUnit test's body changed: new code, addresses, same types
		(b / 'vmlinux').write_bytes(elf({'.text': b'code 2', '.BTF': b'types'}))
		(b / 'System.map').write_text('ffffffff81000000 T _stext\n')
		self.assertEqual(guest.products_key(self.job), key)
		tree = 'ident:tree-1'
		self.assertEqual(guest.userspace_key(self.job, key, tree, []),
				 guest.userspace_key(self.job, guest.products_key(self.job), tree, []))

	def test_what_the_user_space_takes_changed(self) -> None:
		b = self.job.build_dir
		seen = {guest.products_key(self.job)}
		for name, data in (('vmlinux', elf({'.text': b'code', '.BTF': b'types 2'})),
				   ('Module.symvers', b'0x0\tnew_export\n'),
				   ('lib/test_genetlink.ko', b'module 2'),
				   ('modules.order', b'lib/test_genetlink.ko\nlib/b.ko\n'),
				   ('include/config/kernel.release', b'6.1.192\n'),
				   ('certs/signing_key.pem', b'key\n'),
				   ('.config', b'CONFIG_MODULES=y\nCONFIG_A=y\n')):
			(b / name).parent.mkdir(parents=True, exist_ok=True)
			(b / name).write_bytes(data)
			key = guest.products_key(self.job)
			self.assertNotIn(key, seen, name)
			seen.add(key)

	def test_unknown_makes_it_again(self) -> None:
		(self.job.build_dir / 'vmlinux').write_bytes(elf({'.text': b'code'}))
		self.assertIsNone(guest.products_key(self.job))
		self.assertIsNone(guest.userspace_key(self.job, None, 'ident:tree-1', []))
		self.assertIsNone(guest.userspace_key(self.job, 'kernel', None, []))
		self.assertNotEqual(guest.userspace_key(self.job, 'kernel', 'ident:tree-1', []),
				    guest.userspace_key(self.job, 'kernel', 'ident:tree-2', []))

	def test_make_runs_pahole_without_jobs(self) -> None:
		"""hostbin/pahole, first on make's PATH, drops -j: BTF encoded in
		threads differs from one link to the next."""
		argv = self.job.make('all')
		self.assertEqual(argv[:2], ['env', f'PATH={REPO / guest.HOSTBIN}:{os.environ["PATH"]}'])
		fake = self.tmp / 'pahole'
		fake.write_text((REPO / guest.HOSTBIN / 'pahole').read_text().replace(
			'exec /usr/bin/pahole', 'exec printf "%s\\n"'))
		got = subprocess.run(['sh', str(fake), '-J', '--btf_gen_floats', '-j', '-j2',
				      '--jobs=4', '--lang_exclude=rust', 'a b'],
				     capture_output=True, text=True, check=True).stdout
		self.assertEqual(got.splitlines(), ['-J', '--btf_gen_floats',
						    '--lang_exclude=rust', 'a b'])


class ConfigLacksTest(unittest.TestCase):
	"""A release tree that cannot take a suite's kernel config (6.12:
	no Rust with Debian 12's rustc, no MEMCG_KMEM symbol at all)."""

	def setUp(self) -> None:
		self.tmp = Path(tempfile.mkdtemp())
		self.tree = self.tmp / 'tree'
		(self.tree / 'init').mkdir(parents=True)
		(self.tree / 'init/Kconfig').write_text(
			'config RUST\n\tbool "Rust"\nmenuconfig BPF\n\tbool\nconfig NET\n\tbool\n')
		for t, cfg in (('rust_samples', 'CONFIG_RUST=y\nCONFIG_MEMCG_KMEM=y\n'),
			       ('tcp_ehash', 'CONFIG_NET=y\n')):
			d = self.tree / 'tools/testing/selftests' / t
			d.mkdir(parents=True)
			(d / 'config').write_text(cfg)
		self.repo = self.tmp / 'repo'
		(self.repo / 'tools/testing/guest').mkdir(parents=True)
		self.base = self.repo / 'tools/testing/guest/base.config'
		self.base.write_text('CONFIG_BPF=y\n')
		self.job = guest.GuestJob(self.repo, self.tree, self.tmp / 'build',
					  self.tmp / 'out', 1, 10)
		(self.tmp / 'out').mkdir()
		self.specs = [suites.SuiteSpec('rust_samples', None, (), 'rust_samples'),
			      suites.SuiteSpec('tcp_ehash', None, (), 'tcp_ehash')]
		self.check = proc.check
		self.addCleanup(setattr, proc, 'check', self.check)

	def allnoconfig_gives(self, dotconfig: str) -> None:
		def fake(argv: List[str], log: Path, timeout: int, what: str) -> None:
			(self.tmp / 'build/.config').write_text(dotconfig)
		proc.check = fake	# type: ignore[assignment]

	def test_a_suite_s_unmet_symbol_takes_that_kind_off(self) -> None:
		self.allnoconfig_gives('CONFIG_BPF=y\nCONFIG_NET=y\n')
		lacks = guest.config_lacks(self.job, self.specs)
		self.assertEqual(list(lacks), ['rust_samples'])
		self.assertEqual(list(lacks['rust_samples']), ['kselftest'])
		self.assertIn('CONFIG_RUST=y (.config has CONFIG_RUST=n)',
			      lacks['rust_samples']['kselftest'])
		# not a symbol of this tree: left out, not lacking
		self.assertNotIn('MEMCG_KMEM', lacks['rust_samples']['kselftest'])
		# what is left configures cleanly
		self.assertTrue(guest.configure(self.job, self.specs[1:]))

	def test_a_symbol_every_suite_needs_is_an_error(self) -> None:
		self.allnoconfig_gives('CONFIG_NET=y\nCONFIG_RUST=y\n')
		with self.assertRaisesRegex(KconformError, 'CONFIG_BPF=y'):
			guest.config_lacks(self.job, self.specs)

	def test_nothing_lacking_is_nothing(self) -> None:
		self.allnoconfig_gives('CONFIG_BPF=y\nCONFIG_NET=y\nCONFIG_RUST=y\n')
		self.assertEqual(guest.config_lacks(self.job, self.specs), {})
		self.assertFalse(guest.configure(self.job, self.specs))


class LibrariesTest(unittest.TestCase):

	def test_what_libc_dlopens_comes_with_it(self) -> None:
		# test_progs aborted on --image: glibc dlopen()s libgcc_s for
		# pthread_exit(), and ldd does not list it
		libs = [lib.name for lib in guest._libraries(Path('/bin/true'))]
		self.assertIn('libc.so.6', libs)
		self.assertIn('libgcc_s.so.1', libs)


class NotBuiltTest(unittest.TestCase):
	"""A kselftest target that did not build is named with its compiler's
	words (the selftests' make fails only when every target does)."""

	LOG = (Path(__file__).parent / 'test_data' / 'kselftest-install-failed.log').read_text()

	def test_the_first_errors_of_the_target_that_did_not_build(self) -> None:
		got = guest.not_built(['tcp_ehash', 'bpf_user_ringbuf'], self.LOG)
		self.assertEqual(got['tcp_ehash'], (
			'tcp_ehash did not build (kselftest-install.log): '
			"tcp_ehash_test.c:1556:2: error: invalid application of 'typeof' "
			"to bit-field; tcp_ehash_test.c:1559:2: error: invalid application "
			"of 'typeof' to bit-field"))
		# no error line of its own: said so, not another target's
		self.assertEqual(got['bpf_user_ringbuf'], 'bpf_user_ringbuf did not build '
				 '(kselftest-install.log): no error line in the log')

	def test_the_boot_reports_it_in_place_of_did_not_appear(self) -> None:
		absent = Suite('tcp_ehash', 'kselftest')
		absent.fail_all(Status.FAIL, 'expected kselftest suite tcp_ehash did not appear')
		ran = Suite('statx_dioalign', 'kselftest', [Case('a', Status.PASS)])
		got = guest.mark_not_built([absent, ran], {'tcp_ehash': 'tcp_ehash did not build'})
		self.assertEqual([(c.name, c.status, c.message) for c in got[0].cases],
				 [('<suite>', Status.FAIL, 'tcp_ehash did not build')])
		self.assertEqual(got[1].cases, [Case('a', Status.PASS)])
		with tempfile.TemporaryDirectory() as d:
			installed = Path(d)
			(installed / guest.NOT_BUILT).write_text(
				'{"tcp_ehash": "tcp_ehash did not build (kselftest-install.log): x"}')
			self.assertEqual(guest.not_built_of(installed),
					 {'tcp_ehash': 'tcp_ehash did not build (kselftest-install.log): x'})
			(installed / guest.NOT_BUILT).write_text('[')
			self.assertEqual(guest.not_built_of(installed), {})


class CoverageBootTest(unittest.TestCase):
	"""The coverage variant's kselftest boot (kconform.gcov): the targets
	one after another, each from zeroed counters and followed by its gcov
	data under its name (guest/one-by-one), and the runner plans no lanes
	for it. The script runs here with stubs of run_kselftest.sh and
	kconform-gcov that only say how they were called."""

	def setUp(self) -> None:
		self.tmp = Path(tempfile.mkdtemp())
		self.addCleanup(shutil.rmtree, self.tmp)
		(self.tmp / 'bin').mkdir()
		for name, says in (('run_kselftest.sh', 'run'), ('bin/kconform-gcov', 'gcov')):
			(self.tmp / name).write_text(f'#!/bin/sh\necho {says} "$@"\n')
			(self.tmp / name).chmod(0o755)

	def one_by_one(self, *entries: str) -> List[str]:
		shell = ['busybox', 'sh'] if shutil.which('busybox') else ['sh']
		r = subprocess.run([*shell, str(REPO / 'tools/testing/guest/one-by-one'), *entries],
				   cwd=self.tmp, capture_output=True, text=True, check=True,
				   env={'PATH': f'{self.tmp / "bin"}:/usr/bin:/bin'}, timeout=60)
		return r.stdout.splitlines()

	def test_each_target_alone_between_a_reset_and_its_data(self) -> None:
		self.assertEqual(self.one_by_one('netlink_intro', 'tcp_ehash:a', 'statx_dioalign',
						 'tcp_ehash:b'), [
			'gcov reset', 'run -c netlink_intro',
			'kconform: run_kselftest.sh exited with 0', 'gcov netlink_intro',
			'gcov reset', 'run -t tcp_ehash:a -t tcp_ehash:b',
			'kconform: run_kselftest.sh exited with 0', 'gcov tcp_ehash',
			'gcov reset', 'run -c statx_dioalign',
			'kconform: run_kselftest.sh exited with 0', 'gcov statx_dioalign'])

	def test_no_entries_is_every_installed_target(self) -> None:
		(self.tmp / 'kselftest-list.txt').write_text(
			'tcp_ehash:tcp_ehash_test\ntcp_ehash:other\nnetlink_intro:genl_test\n')
		self.assertEqual([l for l in self.one_by_one() if l.startswith(('run', 'gcov '))
				  and l != 'gcov reset'],
				 ['run -c tcp_ehash', 'gcov tcp_ehash',
				  'run -c netlink_intro', 'gcov netlink_intro'])

	def test_init_hands_every_entry_to_it_under_kconform_gcov(self) -> None:
		init = (REPO / 'tools/testing/guest/init').read_text()
		gcov = init.index('if grep -qw kconform.gcov /proc/cmdline; then')
		self.assertIn('/bin/kconform-one-by-one $(echo "$only" $lanes', init[gcov:])
		# and sends no data of its own after the kselftests
		self.assertNotIn('/bin/kconform-gcov', init)
		self.assertEqual(guest.GUEST_FILES['bin/kconform-one-by-one'], 'one-by-one')

	def boot_cmdline(self, variant: guest.Variant) -> str:
		job = guest.GuestJob(REPO, self.tmp, self.tmp / 'b', self.tmp, 1, 60,
				     variant, lanes=2)
		(self.tmp / 'b').mkdir(exist_ok=True)
		specs = [s for s in suites.load(REPO) if s.kselftest in
			 ('tcp_ehash', 'netlink_intro', 'statx_dioalign')]
		with mock.patch.object(proc, 'run', return_value=proc.Run(
				[], [], 0, False, 0.0, self.tmp / 'log')) as run:
			guest.boot(job, specs, [])
		append: List[str] = run.call_args[0][0]
		return append[append.index('-append') + 1]

	def test_a_boot_with_a_mutant_on_keeps_no_target_lengths(self) -> None:
		# a loop boot runs each target once per mutant: 216 s for
		# bpf_iter_params, which the next make run would plan its lanes by
		variant = guest.variants(REPO)['default']
		for cmdline, kept in (('', True), ('kconform.mutants=0,3-5,0', False),
				      ('kconform.mutant=7 oops=panic', False)):
			job = guest.GuestJob(REPO, self.tmp, self.tmp / 'b', self.tmp, 1, 60,
					     variant, lanes=2, cmdline=cmdline)
			(self.tmp / 'b').mkdir(exist_ok=True)
			with mock.patch.object(proc, 'run', return_value=proc.Run(
					[], [], 0, False, 0.0, self.tmp / 'log')), \
					mock.patch.object(lanes, 'save_seconds') as save:
				guest.boot(job, [], [])
			self.assertEqual(save.called, kept, cmdline)

	def test_the_runner_plans_no_lanes_under_kconform_gcov(self) -> None:
		variants = guest.variants(REPO)
		self.assertIn('kconform.lane=', self.boot_cmdline(variants['default']))
		cov = self.boot_cmdline(variants['coverage'])
		self.assertIn('kconform.gcov', cov.split())
		self.assertNotIn('kconform.lane=', cov)
		self.assertNotIn('kconform.run=', cov)
