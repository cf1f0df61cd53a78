# SPDX-License-Identifier: GPL-2.0
"""The KUnit path: kunit.py's command line and its raw console stream."""

import unittest
from pathlib import Path
from typing import List

from kconform import kunitrun, proc
from kconform.model import Status

from .test_console import DATA, by_name, load


def recorded(name: str) -> proc.Run:
	"""A kunit.py exec as proc.run saw it: lines and their host times."""
	lines = [l + '\n' for l in load(name + '.log')]
	times = [float(t) for t in load(name + '.times')]
	return proc.Run(['kunit.py'], lines, 0, False, 3.0,
			DATA / (name + '.log'), times)


class KunitRunTest(unittest.TestCase):

	def test_exec_argv(self) -> None:
		job = kunitrun.KunitJob(Path('/src/linux'), Path('/w/build/default'),
					Path('/w/out'), 300)
		argv: List[str] = kunitrun.exec_argv(job, ['-accel', 'kvm'])
		self.assertEqual(argv[1:], [
			'/src/linux/tools/testing/kunit/kunit.py', 'exec',
			'--arch=x86_64', '--build_dir=/w/build/default', '--timeout=300',
			'--raw_output=all', '--kernel_args=panic=-1',
			'--kernel_args=oops=panic', '--qemu_args=-accel kvm'])
		self.assertEqual(kunitrun.exec_argv(job, [], 'tcp_ehash.*')[-2:],
				 ['--kernel_args=oops=panic', 'tcp_ehash.*'])

	def test_exec_argv_variant_and_initrd(self) -> None:
		"""The variant's command line reaches the KUnit boot; with an
		initrd (coverage) the arguments end with `--`, so kunit.py's
		kunit_shutdown=reboot, added after them, goes to init and the boot
		reaches the initrd's /init."""
		job = kunitrun.KunitJob(Path('/src/linux'), Path('/w/build/debug'),
					Path('/w/out'), 300, ('kasan_multi_shot',))
		self.assertEqual(kunitrun.exec_argv(job, [], 'a.*')[-3:],
				 ['--kernel_args=oops=panic',
				  '--kernel_args=kasan_multi_shot', 'a.*'])
		job.initrd = Path('/w/build/coverage/kconform-gcov.cpio')
		argv = kunitrun.exec_argv(job, ['-accel', 'tcg'], 'a.*')
		self.assertEqual(argv[-5:], [
			'--kernel_args=kasan_multi_shot', '--kernel_args=console=ttyS0',
			'--kernel_args=kunit.filter_glob=a.*',
			'--kernel_args=kunit.enable=1 --',
			'--qemu_args=-accel tcg -initrd '
			'/w/build/coverage/kconform-gcov.cpio'])

	def test_panic_is_a_crash_with_its_excerpt(self) -> None:
		s = by_name(kunitrun.classify(recorded('kunit_raw_panic'),
					      ['tcp_ehash', 'example']))
		ehash = s['tcp_ehash']
		self.assertEqual(ehash.status, Status.CRASH)
		self.assertTrue(ehash.message.startswith(
			'kernel report in the console:\n    1..3\n'
			'    ok 1 tcp_ehash_test_roundup\n'
			'BUG: kernel NULL pointer dereference, address: '
			'0000000000000008\n'), ehash.message)
		self.assertIn('Kernel panic - not syncing: Fatal exception',
			      ehash.message)
		got = {c.name: (c.status, c.duration_s) for c in ehash.cases}
		self.assertEqual(got['tcp_ehash_test_roundup'],
				 (Status.PASS, 8124.673110 - 8124.562402))
		self.assertEqual(got['<kernel report>'][0], Status.CRASH)
		self.assertEqual(s['example'].status, Status.FAIL)
		self.assertEqual(set(s), {'tcp_ehash', 'example'})

	def test_no_ktap_at_all_shows_kunit_py(self) -> None:
		r = proc.Run(['kunit.py'], ['[05:31:02] Starting KUnit Kernel (1/1)...\n',
					    'qemu-system-x86_64: -accel kvm: failed to initialize kvm\n'],
			     1, False, 1.0, Path('kunit-console.log'), [1.0, 1.1])
		s = by_name(kunitrun.classify(r, ['tcp_ehash']))
		self.assertEqual(s['tcp_ehash'].status, Status.FAIL)
		self.assertIn('kunit.py showed no KTAP output (see kunit-console.log):\n'
			      '[05:31:02] Starting', s['tcp_ehash'].message)


if __name__ == '__main__':
	unittest.main()
