# SPDX-License-Identifier: GPL-2.0
"""The kernel descriptions a run asks (kernels.py): a variant we build
and a package's kernel, told apart by nothing in the run."""

import contextlib
import dataclasses
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path
from typing import Iterator

from kconform import archive, guest, image, kernels, kunitrun, report
from kconform.suites import SuiteSpec

DATA = Path(__file__).parent / 'test_data' / 'image'
RELEASE = '6.1.0-57-amd64'


class Stages:
	def __init__(self) -> None:
		self.names: list[str] = []

	@contextlib.contextmanager
	def stage(self, name: str, what: str) -> Iterator[None]:
		self.names.append(name)
		yield


class KernelsTest(unittest.TestCase):

	def setUp(self) -> None:
		self.tmp = Path(tempfile.mkdtemp())
		self.addCleanup(shutil.rmtree, self.tmp)
		boot = self.tmp / 'pkg/boot'
		boot.mkdir(parents=True)
		shutil.copy(DATA / f'config-{RELEASE}.excerpt', boot / f'config-{RELEASE}')
		self.img = image.Image('linux-image-amd64=6.1.192-3', archive.Unpacked(
			'linux-image-6.1.0-57-amd64', '6.1.192-3', self.tmp / 'pkg'), RELEASE)
		kc = self.tmp / 'tcp.config'
		kc.write_text('CONFIG_KUNIT=y\n')
		self.specs = [SuiteSpec('tcp', kc, ('tcp', 'tcp_more'), None)]
		self.jobs = (guest.GuestJob(self.tmp, self.tmp, self.tmp / 'b', self.tmp, 1, 1),
			     kunitrun.KunitJob(self.tmp, self.tmp / 'b', self.tmp, 1, ()))

	def test_a_variant_is_built_in_its_folder_and_runs_every_suite(self) -> None:
		k = kernels.Built(guest.Variant('debug', 'KASAN'))
		self.assertEqual(k.folder(), 'debug')
		self.assertEqual(k.plan(self.tmp, self.specs, ('kunit',)), ([], []))
		self.assertTrue(k.tree_fixes('apply'))
		self.assertFalse(k.tree_fixes('omit'))
		kernel = report.KernelInfo('linux-source-6.1')
		k.describe(kernel, self.tmp / 'b')
		self.assertEqual(kernel, report.KernelInfo('linux-source-6.1', variant='debug',
							   build_dir=str(self.tmp / 'b')))
		k.prepare(self.tmp, *self.jobs, self.tmp, [])
		self.assertEqual((self.jobs[0].make_vars, self.jobs[1].initrd), ((), None))
		st = Stages()
		k.collect(self.tmp, self.tmp, self.jobs[0], self.tmp, self.tmp, self.tmp, [],
			  report.RunReport(kernel=report.KernelInfo(''), accel='tcg'), st)
		self.assertEqual(st.names, [])

	def test_the_coverage_variant_profiles_the_listed_files(self) -> None:
		repo = Path(__file__).resolve().parents[4]
		k = kernels.Built(guest.Variant('coverage', 'gcov', cmdline='kconform.gcov',
						coverage=True))
		k.prepare(repo, *self.jobs, repo / 'patches', [])
		self.assertIn('GCOV_PROFILE_cgroup_iter.o=y', self.jobs[0].make_vars)
		self.assertEqual(self.jobs[1].initrd, self.tmp / 'b/kconform-kunit.cpio')

	def test_the_kunit_boot_of_the_debug_variant_ends_with_a_kmemleak_scan(self) -> None:
		repo = Path(__file__).resolve().parents[4]
		k = kernels.Built(guest.Variant('debug', 'KASAN',
						cmdline='kasan_multi_shot kconform.kmemleak'))
		k.prepare(repo, *self.jobs, repo / 'patches', [])
		self.assertEqual(self.jobs[0].make_vars, ())
		cpio = self.tmp / 'b/kconform-kunit.cpio'
		self.assertEqual(self.jobs[1].initrd, cpio)
		with cpio.open('rb') as blob:
			listed = subprocess.run(['cpio', '-t', '--quiet'], stdin=blob,
						capture_output=True, text=True,
						check=True).stdout.split()
		for name in ('init', 'bin/busybox', 'bin/kconform-kmemleak', 'bin/kconform-gcov'):
			self.assertIn(name, listed)
		init = (self.tmp / 'b/kunit-initramfs/init').read_text()
		self.assertIn('/bin/kconform-kmemleak', init)

	def test_a_schemata_loop_gets_the_kunit_initramfs_on_any_variant(self) -> None:
		# mutate --schemata: `run --cmdline kconform.mutants=3-5`
		repo = Path(__file__).resolve().parents[4]
		k = kernels.Built(guest.Variant('default', ''))
		kjob = dataclasses.replace(self.jobs[1], kernel_args=('kconform.mutants=3-5',))
		k.prepare(repo, self.jobs[0], kjob, repo / 'patches', [])
		cpio = self.tmp / 'b/kconform-kunit.cpio'
		self.assertEqual(kjob.initrd, cpio)
		with cpio.open('rb') as blob:
			listed = subprocess.run(['cpio', '-t', '--quiet'], stdin=blob,
						capture_output=True, text=True,
						check=True).stdout.split()
		self.assertIn('bin/kconform-mutants', listed)
		init = (self.tmp / 'b/kunit-initramfs/init').read_text()
		self.assertIn('/bin/kconform-mutants --kunit', init)

	def test_a_package_is_booted_as_it_is_and_runs_no_kunit(self) -> None:
		k = kernels.Package(self.img)
		self.assertEqual(k.folder(), f'package-{RELEASE}_6.1.192-3')
		nas, _ = k.plan(self.tmp, self.specs, ('kunit',))
		self.assertEqual([(n.kind, n.suite, n.glob) for n in nas],
				 [('kunit', 'tcp', '*'), ('kunit', 'tcp_more', '*')])
		self.assertTrue(all('KUnit suites boot our own build' in n.reason or
				    'its config' in n.reason for n in nas))
		# the tree keeps its fixes: it only builds the kselftests
		self.assertTrue(k.tree_fixes('omit'))
		kernel = report.KernelInfo('linux-source-6.1')
		k.describe(kernel, self.tmp / 'b')
		self.assertIsNone(kernel.build_dir)
		self.assertEqual(kernel.source, 'linux-image-6.1.0-57-amd64 6.1.192-3')
		self.assertEqual(kernel.version, '6.1.192')
		assert kernel.package is not None
		self.assertEqual(kernel.package.tests_from, 'linux-source-6.1')
		self.assertEqual(kernel.package.release, RELEASE)
		k.prepare(self.tmp, *self.jobs, self.tmp, [])
		self.assertIs(self.jobs[0].package, self.img)
		self.assertEqual(self.jobs[0].image, self.tmp / f'pkg/boot/vmlinuz-{RELEASE}')

	def test_no_image_argument_is_the_variant(self) -> None:
		st = Stages()
		k = kernels.choose(None, guest.Variant('default', ''), self.tmp, self.tmp, st)
		self.assertEqual(k, kernels.Built(guest.Variant('default', '')))
		self.assertEqual(st.names, [])


if __name__ == '__main__':
	unittest.main()
