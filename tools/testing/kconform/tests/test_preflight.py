# SPDX-License-Identifier: GPL-2.0
"""Every path and argument is checked before the first stage; inputs
are read within bounds; a signal loses no output and passes no gate."""

import json
import os
import signal
import tempfile
import time
import unittest
from pathlib import Path
from typing import Any, List
from unittest import mock

from kconform import archive, console, deps, gate, pipeline, proc, report

from .test_bad_console import main, says_what_is_missing
from .test_console import DATA

GATE = DATA / 'gate'
NO_KNOWN = ['--known-issues', str(GATE / 'known_none.toml')]
LOG = str(GATE / 'kselftest_run1.log')


class OutputPathTest(unittest.TestCase):
	"""No output overwrites an input or another output, and each can be
	written: refused before the parse, one line, exit 2."""

	def setUp(self) -> None:
		self.tmp = Path(tempfile.mkdtemp())
		self.out = self.tmp / 'out'

	def refused(self, *args: str, log: str = LOG) -> str:
		rc, stdout, err = main('parse', '--kind', 'kselftest', '--out', str(self.out),
				       *NO_KNOWN, *args, log)
		self.assertEqual(rc, 2, stdout + err)
		self.assertEqual(len(err.strip().splitlines()), 1, err)
		self.assertNotIn('kconform: parse:', stdout)	# no stage started
		self.assertFalse((self.out / 'results.json').is_file())
		return err

	def test_kcidb_over_results_json(self) -> None:
		self.assertIn('also --out', self.refused('--kcidb', str(self.out / 'results.json')))

	def test_kcidb_over_the_log(self) -> None:
		log = self.tmp / 'console.log'
		log.write_text(Path(LOG).read_text())
		err = self.refused('--kcidb', str(log), log=str(log))
		self.assertIn('would overwrite the input LOG', err)
		self.assertEqual(log.read_text(), Path(LOG).read_text())

	def test_kcidb_over_the_baseline(self) -> None:
		base = self.tmp / 'base.json'
		rc, _, _ = main('parse', '--kind', 'kselftest', '--out', str(self.tmp / 'b'),
				*NO_KNOWN, LOG)
		base.write_text((self.tmp / 'b' / 'results.json').read_text())
		self.assertIn('would overwrite the input --baseline',
			      self.refused('--baseline', str(base), '--kcidb', str(base)))

	def test_a_baseline_of_another_kind(self) -> None:
		rc, _, _ = main('parse', '--kind', 'kselftest', '--out', str(self.tmp / 'b'),
				*NO_KNOWN, LOG)
		rc, stdout, err = main('parse', '--kind', 'kunit', '--out', str(self.out),
				       *NO_KNOWN, '--baseline', str(self.tmp / 'b' / 'results.json'),
				       str(DATA / 'kunit_pass.log'))
		self.assertEqual(rc, 2, stdout + err)
		self.assertIn('a run of kselftest, this one is of kunit', err)

	def test_kcidb_under_a_missing_folder(self) -> None:
		self.assertIn('is not a folder', self.refused('--kcidb', str(self.tmp / 'no' / 'k.json')))

	def test_results_json_is_a_folder(self) -> None:
		(self.out / 'results.json').mkdir(parents=True)
		self.assertIn('is not a regular file', self.refused())

	def test_outputs_that_not_even_root_can_write(self) -> None:
		# mode bits say root may write both; writing fails all the same
		self.assertIn('--kcidb /proc/version: not writable',
			      self.refused('--kcidb', '/proc/version'))
		if Path('/sys/kernel').is_dir():
			rc, stdout, err = main('parse', '--kind', 'kselftest', '--out',
					       '/sys/kernel', *NO_KNOWN, LOG)
			self.assertEqual(rc, 2, stdout + err)
			self.assertIn('--out /sys/kernel: not writable', err)

	def test_a_symlink_loop(self) -> None:
		loop = self.tmp / 'loop'
		loop.symlink_to(loop)
		self.assertIn('--kcidb', self.refused('--kcidb', str(loop)))


class BoundedReadTest(unittest.TestCase):
	"""/dev/zero is refused within a bound; a console is read as run
	reads the guest's."""

	def test_dev_zero_is_refused(self) -> None:
		out = tempfile.mkdtemp()
		for args in (['--known-issues', '/dev/zero', LOG],
			     [*NO_KNOWN, '--baseline', '/dev/zero', LOG],
			     [*NO_KNOWN, '/dev/zero']):
			with self.subTest(args[:2]):
				start = time.monotonic()
				with mock.patch.object(gate, 'READ_LIMIT', 1 << 20):
					rc, _, err = main('parse', '--kind', 'kunit', '--out', out,
							  *args)
				self.assertEqual(rc, 2, err)
				self.assertIn('larger than', err)
				self.assertLess(time.monotonic() - start, 30)

	def test_serial_noise_is_replaced_not_refused(self) -> None:
		out = Path(tempfile.mkdtemp())
		rc, stdout, err = main('parse', '--kind', 'kunit', '--out', str(out), *NO_KNOWN,
				       str(DATA / 'kunit_garbage.log'))
		self.assertNotEqual(rc, 2, err)
		names = [c['name'] for s in json.loads((out / 'results.json').read_text())['suites']
			 for c in s['cases']]
		self.assertEqual(len(names), 3, names)
		self.assertIn('tcp_ehash_test_\\x00nul', names)


class RunArgumentTest(unittest.TestCase):
	"""run refuses what it cannot do before it extracts anything."""

	def setUp(self) -> None:
		self.tmp = Path(tempfile.mkdtemp())
		# Should an argument get through, no stage may start: no
		# package installed, nothing extracted into the shared cache.
		def no_stage(*args: Any) -> None:
			raise AssertionError('a stage started')
		for target, name in ((pipeline, 'stages'), (deps, 'ensure')):
			patcher = mock.patch.object(target, name, no_stage)
			patcher.start()
			self.addCleanup(patcher.stop)

	def refused(self, *args: str) -> str:
		rc, out, err = main('run', '--out', str(self.tmp / 'out'), *NO_KNOWN, *args)
		self.assertEqual(rc, 2, out + err)
		self.assertEqual(len(err.strip().splitlines()), 1, err)
		self.assertNotIn('kconform: extract', out)
		return err

	def test_each_bad_argument(self) -> None:
		notree = self.tmp / 'notree'
		notree.mkdir()
		policy = (DATA / 'apt-policy-linux-source-6.1.txt').read_text()
		real_access = os.access
		with mock.patch.object(archive, '_query', lambda argv, log:
				       policy if argv[-1] == 'linux-source-6.1' else ''), \
				mock.patch.object(os, 'access', lambda p, m: False if str(p) == '/dev/kvm'
						  else real_access(p, m)):
			for args, words in ((['--jobs', '0'], r'--jobs 0: must be 1 or more'),
					    (['--kunit-timeout', '-5'], r'--kunit-timeout -5'),
					    (['--guest-timeout', '0'], r'--guest-timeout 0'),
					    (['--accel', 'kvm'], r'--accel kvm: /dev/kvm'),
					    (['--variant', 'coverage', '--seeds', '/missing'],
					     r'--seeds /missing: not a folder'),
					    (['--tree', str(notree)], r'not a kernel tree'),
					    (['--source', 'linux-source-6.1=6.1.999-9'],
					     r'6.1.999-9: not in the archive'),
					    (['--image', 'linux-image-missing'],
					     r'linux-image-missing: apt-cache policy lists no version')):
				with self.subTest(args):
					self.assertRegex(self.refused(*args), words)

	def test_matrix_and_bisect_arguments(self) -> None:
		afile = self.tmp / 'a.patch'
		afile.write_text('x')
		for args, words in ((['matrix', 'default', '--run-args', "'--kind", '--out',
				      str(self.tmp / 'm')], r'--run-args .*: No closing quotation'),
				    (['bisect', '--suite', 'tcp_ehash', '--patch', str(afile),
				      '--repeats', '0', '--out', str(self.tmp / 'b')],
				     r'--repeats 0: must be 1 or more')):
			with self.subTest(args[0]):
				rc, out, err = main(*args)
				self.assertEqual(rc, 2, out + err)
				self.assertRegex(err, words)

	def test_a_matrix_stops_when_its_run_refuses_an_argument(self) -> None:
		rc, out, err = main('matrix', 'default', '6.1.190-1', '--run-args', '--jobs 0',
				    '--out', str(self.tmp / 'm'))
		self.assertEqual(rc, 2, out + err)
		self.assertEqual(out.count('kconform: matrix: '), 1, out)


class SignalTest(unittest.TestCase):
	"""A signal while reading writes nothing; one in the parse fails the
	gate; one while writing loses no file."""

	def setUp(self) -> None:
		self.out = Path(tempfile.mkdtemp()) / 'out'
		self.saved = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
		proc.install_signal_handlers()

	def tearDown(self) -> None:
		for s, h in self.saved.items():
			signal.signal(s, h)

	def parse(self) -> Any:
		return main('parse', '--kind', 'kselftest', '--out', str(self.out),
			    *NO_KNOWN, LOG)

	def test_an_interrupted_parse_fails_the_gate(self) -> None:
		def interrupted(*args: Any, **kw: Any) -> List[Any]:
			os.kill(os.getpid(), signal.SIGINT)
			time.sleep(1)
			return []
		with mock.patch.object(console, 'suites_from_console', interrupted):
			rc, _, _ = self.parse()
		self.assertEqual(rc, 1)
		data = json.loads((self.out / 'results.json').read_text())
		self.assertFalse(data['gate']['ok'])
		self.assertTrue(data['errors'][0].startswith('interrupted'))
		says_what_is_missing(self, self.out / 'results.json', 'no result: interrupted')

	def test_a_signal_while_reading_the_log_writes_nothing(self) -> None:
		real = gate.read_text

		def read(*args: Any) -> str:
			if args[1] == 'LOG':
				os.kill(os.getpid(), signal.SIGTERM)
			return real(*args)
		with mock.patch.object(gate, 'read_text', read):
			rc, _, err = self.parse()
		self.assertEqual(rc, 2)
		self.assertIn('interrupted by SIGTERM while reading it', err)
		self.assertFalse((self.out / 'results.json').exists())

	def test_a_signal_while_writing_loses_no_file(self) -> None:
		real = report.write_junit

		def write(*args: Any) -> None:
			os.kill(os.getpid(), signal.SIGTERM)
			real(*args)
		with mock.patch.object(report, 'write_junit', write):
			with self.assertRaises(SystemExit) as stop:
				self.parse()
		self.assertEqual(stop.exception.code, 128 + signal.SIGTERM)
		for name in ('results.json', 'junit.xml', 'summary.txt'):
			self.assertTrue((self.out / name).is_file(), name)


if __name__ == '__main__':
	unittest.main()
