# SPDX-License-Identifier: GPL-2.0
"""image.py: a package's kernel (--image) on a small recorded listing of
linux-image-6.1.0-57-amd64 6.1.192-3 (modules.dep and config excerpts in
test_data/image/): module selection, config reading, what cannot run."""

import fnmatch
import shutil
import tempfile
import unittest
from pathlib import Path
from typing import Any, Optional
from unittest import mock

from kconform import applicable, archive, fixes, image, inputs, kconfig, suites
from kconform.model import Case, InputError, Status, Suite
from kconform.suites import SuiteSpec

DATA = Path(__file__).parent / 'test_data' / 'image'
CONFIG = kconfig.parse((DATA / 'config-6.1.0-57-amd64.excerpt').read_text())
WHAT = 'linux-image-6.1.0-57-amd64 6.1.192-3'


class ClosureTest(unittest.TestCase):

	def setUp(self) -> None:
		self.dep = (DATA / 'modules.dep').read_text()

	def test_dependencies_first_each_once(self) -> None:
		files, missing = image.closure(self.dep, ['loop', 'ext4', 'xfs', 'f2fs'])
		self.assertEqual(files, [
			'kernel/drivers/block/loop.ko',
			'kernel/lib/crc16.ko', 'kernel/fs/mbcache.ko', 'kernel/fs/jbd2/jbd2.ko',
			'kernel/fs/ext4/ext4.ko',
			'kernel/lib/libcrc32c.ko', 'kernel/fs/xfs/xfs.ko',
			'kernel/lib/lz4/lz4hc_compress.ko', 'kernel/lib/lz4/lz4_compress.ko',
			'kernel/lib/zstd/zstd_compress.ko', 'kernel/fs/f2fs/f2fs.ko'])
		self.assertEqual(missing, [])

	def test_shared_dependency_once_and_dash_names(self) -> None:
		dep = ('kernel/a/x-y.ko.xz: kernel/lib/c.ko.xz\n'
		       'kernel/a/z.ko.xz: kernel/lib/c.ko.xz kernel/a/x-y.ko.xz\n'
		       'kernel/lib/c.ko.xz:\n')
		files, missing = image.closure(dep, ['z', 'x_y', 'nothere'])
		self.assertEqual(files, ['kernel/lib/c.ko.xz', 'kernel/a/x-y.ko.xz',
					 'kernel/a/z.ko.xz'])
		self.assertEqual(missing, ['nothere'])

	def test_only_what_is_named(self) -> None:
		files, _ = image.closure(self.dep, ['crc32c_generic'])
		self.assertEqual(files, ['kernel/crypto/crc32c_generic.ko'])


class UnmetTest(unittest.TestCase):

	def test_recorded_config(self) -> None:
		want = kconfig.parse('CONFIG_BPF_SYSCALL=y\nCONFIG_BLK_DEV_LOOP=y\n'
				     'CONFIG_EXT4_FS=y\nCONFIG_KUNIT=y\n'
				     'CONFIG_TEST_GENETLINK=m\nCONFIG_MEMCG=m\n')
		reasons, params = image.unmet(want, CONFIG)
		self.assertEqual(reasons, [
			'CONFIG_KUNIT=y (its config: not set)',
			'CONFIG_TEST_GENETLINK=m (its config: not set)',
			'CONFIG_MEMCG=m (its config: CONFIG_MEMCG=y)'])
		self.assertEqual(params, [])

	def test_lsm_list_met_by_the_package_or_the_command_line(self) -> None:
		reasons, params = image.unmet({'CONFIG_LSM': '"bpf"'}, CONFIG)
		self.assertEqual((reasons, params), ([], []))
		reasons, params = image.unmet({'CONFIG_LSM': '"bpf"'},
					      {'CONFIG_LSM': '"yama,apparmor"'})
		self.assertEqual((reasons, params), ([], ['lsm=yama,apparmor,bpf']))

	def test_other_string_must_match(self) -> None:
		reasons, _ = image.unmet({'CONFIG_X': '"a"'}, {'CONFIG_X': '"b"'})
		self.assertEqual(reasons, ['CONFIG_X="a" (its config: CONFIG_X="b")'])


class PlanTest(unittest.TestCase):
	"""What cannot run, by name, and the marking of the results."""

	def setUp(self) -> None:
		self.repo = Path(tempfile.mkdtemp())
		self.addCleanup(shutil.rmtree, self.repo)
		t = self.repo / 'kselftests'
		for name, config, src in (
				('netlink_intro', 'CONFIG_NET=y\nCONFIG_TEST_GENETLINK=m\n',
				 {'a_test': 'TEST(one) {}\nTEST(two) {}\n', 'genl_test': 'TEST(fam) {}\n'}),
				('rust_samples', 'CONFIG_RUST=y\n', {'r_test': 'TEST(r) {}\n'}),
				('statx', 'CONFIG_EXT4_FS=y\n', {'s_test': 'TEST(s) {}\n'})):
			(t / name).mkdir(parents=True)
			(t / name / 'config').write_text(config)
			(t / name / 'Makefile').write_text('TEST_GEN_PROGS := ' + ' '.join(src) + '\n')
			for prog, text in src.items():
				(t / name / f'{prog}.c').write_text(text + 'TEST_HARNESS_MAIN\n')
		(self.repo / 'kunitconfig').mkdir()
		kc = self.repo / 'kunitconfig/tcp.config'
		kc.write_text('CONFIG_KUNIT=y\nCONFIG_TCP_KUNIT_TEST=y\n')
		(self.repo / 'kunit').mkdir()
		(self.repo / 'kunit/tcp_test.c').write_text(
			'static struct kunit_case tcp_cases[] = {\n\tKUNIT_CASE(tcp_test_a),\n\t{}\n};\n'
			'static struct kunit_suite tcp_suite = {\n\t.name = "tcp",\n'
			'\t.test_cases = tcp_cases,\n};\n')
		self.specs = [
			SuiteSpec('netlink_intro', None, (), 'netlink_intro',
				  needs=(('genl_test/*', 'CONFIG_TEST_GENETLINK=m'),
					 ('a_test/global.two', 'our build: a key'))),
			SuiteSpec('rust_samples', None, (), 'rust_samples'),
			SuiteSpec('statx', None, (), 'statx', modules=('ext4',)),
			SuiteSpec('tcp', kc, ('tcp',), None)]

	def test_plan_names_each_case_set_with_the_reason(self) -> None:
		nas, params = image.plan(self.repo, self.specs, ('kunit', 'kselftest'),
					 CONFIG, WHAT)
		self.assertEqual(params, [])
		got = [(n.kind, n.suite, n.glob, n.reason) for n in nas]
		pre = f'not applicable to {WHAT}: '
		self.assertEqual(got, [
			('kselftest', 'netlink_intro', 'genl_test/*',
			 pre + 'CONFIG_TEST_GENETLINK=m (its config: not set)'),
			('kselftest', 'netlink_intro', 'a_test/global.two', pre + 'our build: a key'),
			('kselftest', 'rust_samples', '*', pre + 'CONFIG_RUST=y (its config: not set)'),
			('kunit', 'tcp', '*', pre + 'CONFIG_KUNIT=y (its config: not set); '
			 'CONFIG_TCP_KUNIT_TEST=y (its config: not set)')])
		self.assertTrue(applicable.whole(nas, 'kselftest', 'rust_samples'))
		self.assertFalse(applicable.whole(nas, 'kselftest', 'netlink_intro'))
		self.assertFalse(applicable.whole(nas, 'kselftest', 'statx'))

	def test_mark_skips_by_name_never_drops(self) -> None:
		nas, _ = image.plan(self.repo, self.specs, ('kunit', 'kselftest'), CONFIG, WHAT)
		ran = Suite('netlink_intro', 'kselftest', [
			Case('a_test/global.one', Status.PASS),
			Case('a_test/global.two', Status.FAIL, 'no key'),
			Case('genl_test/global.fam', Status.FAIL, 'modprobe failed')])
		ran.settle()
		statx = Suite('statx', 'kselftest', [Case('s_test/global.s', Status.PASS)])
		statx.settle()
		out = applicable.mark([ran, statx], nas, applicable.listed(self.repo, nas))
		by = {(s.kind, s.name): s for s in out}
		nl = by[('kselftest', 'netlink_intro')]
		self.assertEqual([(c.name, c.status) for c in nl.cases], [
			('a_test/global.one', Status.PASS), ('a_test/global.two', Status.SKIP),
			('genl_test/global.fam', Status.SKIP)])
		self.assertIn('CONFIG_TEST_GENETLINK=m', nl.cases[2].message)
		self.assertEqual(nl.status, Status.PASS)
		rust = by[('kselftest', 'rust_samples')]
		self.assertEqual([(c.name, c.status) for c in rust.cases],
				 [('r_test/global.r', Status.SKIP)])
		self.assertEqual(rust.status, Status.SKIP)
		self.assertIn('CONFIG_RUST=y', rust.message)
		tcp = by[('kunit', 'tcp')]
		self.assertEqual([c.name for c in tcp.cases], ['tcp_test_a'])
		self.assertEqual(tcp.status, Status.SKIP)
		self.assertEqual(by[('kselftest', 'statx')].status, Status.PASS)
		# marking twice (after a rerun) changes nothing
		again = applicable.mark(out, nas, applicable.listed(self.repo, nas))
		self.assertEqual(len(again), 4)
		self.assertEqual(len(again[0].cases), 3)

	def test_a_case_that_did_not_run_is_added_by_name(self) -> None:
		nas, _ = image.plan(self.repo, self.specs, ('kselftest',), CONFIG, WHAT)
		ran = Suite('netlink_intro', 'kselftest', [Case('a_test/global.one', Status.PASS)])
		out = applicable.mark([ran], nas, applicable.listed(self.repo, nas))
		self.assertEqual(sorted(c.name for c in out[0].cases),
				 ['a_test/global.one', 'a_test/global.two', 'genl_test/global.fam'])


class CarriesTest(unittest.TestCase):

	def test_section_is_about_the_package_kernel(self) -> None:
		fix = fixes.Fix('0301-x.patch', 'c12e785e8648', 'a thread is skipped',
				('kselftest:bpf_iter_params:task_iter_test/*',))
		ran = Suite('bpf_iter_params', 'kselftest',
			    [Case('task_iter_test/tasks.a.b', Status.FAIL)])
		table = fixes.verdicts([fix], [ran], applied=False)
		self.assertEqual(fixes.lines(table, WHAT)[:2], [
			f"== bugs this kernel carries ({WHAT}: none of the series' fixes)",
			'   0301-x.patch  carries the bug  (a thread is skipped)'])


class PackageTest(unittest.TestCase):
	"""fetch() follows a meta-package; install_modules() picks modules."""

	def setUp(self) -> None:
		self.tmp = Path(tempfile.mkdtemp())
		self.addCleanup(shutil.rmtree, self.tmp)
		self.meta = self.tmp / 'meta'
		self.meta.mkdir()
		self.kernel = self.tmp / 'kernel'
		rel = '6.1.0-57-amd64'
		for f in (f'boot/vmlinuz-{rel}', f'boot/System.map-{rel}'):
			(self.kernel / f).parent.mkdir(parents=True, exist_ok=True)
			(self.kernel / f).write_text('x\n')
		shutil.copy(DATA / 'config-6.1.0-57-amd64.excerpt',
			    self.kernel / f'boot/config-{rel}')
		mods = self.kernel / 'lib/modules' / rel
		mods.mkdir(parents=True)
		shutil.copy(DATA / 'modules.dep', mods / 'modules.dep')
		shutil.copy(DATA / 'modules.builtin', mods / 'modules.builtin')
		(mods / 'modules.alias').write_text('alias fs-ext4 ext4\n')
		for line in (DATA / 'modules.dep').read_text().splitlines():
			ko = mods / line.split(':')[0]
			ko.parent.mkdir(parents=True, exist_ok=True)
			ko.write_text(ko.name)

	def fake_fetch(self, package: str, version: Optional[str], cache: Path,
		       logs: Path) -> archive.Unpacked:
		if package == 'linux-image-amd64':
			return archive.Unpacked(package, version or '6.1.192-3', self.meta)
		self.assertEqual((package, version), ('linux-image-6.1.0-57-amd64', '6.1.192-3'))
		return archive.Unpacked(package, '6.1.192-3', self.kernel)

	def fetch(self, arg: str) -> image.Image:
		show = (DATA / 'show-linux-image-amd64.txt').read_text()
		with mock.patch.object(archive, 'fetch', side_effect=self.fake_fetch), \
		     mock.patch.object(archive, 'show', return_value=show):
			return image.fetch(arg, self.tmp / 'cache', self.tmp)

	def test_meta_package_is_followed_to_the_kernel(self) -> None:
		img = self.fetch('linux-image-amd64')
		self.assertEqual(img.name, WHAT)
		self.assertEqual(img.release, '6.1.0-57-amd64')
		self.assertEqual(img.kernel_version, '6.1.192')
		self.assertEqual(img.vmlinuz, self.kernel / 'boot/vmlinuz-6.1.0-57-amd64')
		self.assertEqual(img.config()['CONFIG_EXT4_FS'], 'm')
		self.assertEqual(img.config()['CONFIG_KUNIT'], 'n')

	def test_bad_arguments(self) -> None:
		for bad in ('linux-image-amd64=', 'a=b=c', 'Linux', ''):
			with self.assertRaises(InputError, msg=bad):
				image.parse_arg(bad)
		self.assertEqual(image.parse_arg('linux-image-amd64=6.1.176-1'),
				 ('linux-image-amd64', '6.1.176-1'))

	def test_install_modules_selects_the_closure(self) -> None:
		img = self.fetch('linux-image-amd64')
		root = self.tmp / 'initramfs'
		lacking = image.install_modules(img, ['loop', 'xfs', 'zstd_common', 'nope'], root)
		self.assertEqual(lacking, ['nope'])	# zstd_common is built in
		dest = root / 'lib/modules/6.1.0-57-amd64'
		kos = sorted(str(p.relative_to(dest)) for p in dest.rglob('*.ko'))
		self.assertEqual(kos, ['kernel/drivers/block/loop.ko',
				       'kernel/fs/xfs/xfs.ko', 'kernel/lib/libcrc32c.ko'])
		self.assertTrue((dest / 'modules.dep').is_file())
		self.assertTrue((dest / 'modules.alias').is_file())
		self.assertEqual((root / image.MODULES_LIST).read_text(), 'loop\nxfs\n')

	def test_no_kernel_anywhere(self) -> None:
		def meta_only(package: str, version: Any, cache: Path, logs: Path) -> archive.Unpacked:
			return archive.Unpacked(package, '1', self.meta)
		with mock.patch.object(archive, 'fetch', side_effect=meta_only), \
		     mock.patch.object(archive, 'show', return_value='Package: x\nDepends: kmod\n'):
			with self.assertRaises(InputError) as e:
				image.fetch('linux-image-foo', self.tmp / 'cache', self.tmp)
		self.assertIn('no boot/vmlinuz-*', str(e.exception))


if __name__ == '__main__':
	unittest.main()


class DebianKernelTest(unittest.TestCase):
	"""Debian's packaged kernel lacks fault injection (FAULT_INJECTION,
	FAILSLAB): only the fail-nth cases that need it are not applicable,
	never their whole targets."""

	def test_only_the_fail_nth_cases_are_not_applicable(self) -> None:
		specs = suites.load(inputs.REPO)
		nas, _ = image.plan(inputs.REPO, specs, ('kselftest',), CONFIG, WHAT)
		targets = ('tcp_ehash', 'bpf_iter_params', 'bpf_user_ringbuf', 'netlink_intro')
		for t in targets:
			self.assertFalse(applicable.whole(nas, 'kselftest', t), t)
		listed = applicable.listed(inputs.REPO, [n for n in nas if n.suite in targets])
		skipped = {(n.suite, c) for n in nas if n.suite in targets
			   for c in listed[('kselftest', n.suite)] if fnmatch.fnmatchcase(c, n.glob)
			   and 'FAILSLAB' in n.reason}
		self.assertEqual(skipped, {
			('tcp_ehash', 'tcp_ehash_test/ehash.netns_alloc_fault_falls_back'),
			('bpf_iter_params', 'cgroup_iter_test/param.link_create_and_read_fault_injection'),
			('bpf_iter_params', 'task_iter_test/tasks.large_reads.link_create_and_read_fault_injection'),
			('bpf_iter_params', 'task_iter_test/tasks.record_per_read.link_create_and_read_fault_injection'),
			('bpf_user_ringbuf', 'user_ringbuf_test/fault.map_create_fault_injection'),
			('bpf_user_ringbuf', 'user_ringbuf_test_debian_libbpf/fault.map_create_fault_injection'),
			('netlink_intro', 'netlink_intro_test/genl.ack_and_reply_allocation_faults'),
			('netlink_intro', 'genl_family_test/reg.family_registration_fault_injection')})
