# SPDX-License-Identifier: GPL-2.0
"""Children do not outlive the runner; output lines carry host times."""

import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

from kconform import proc
from kconform.model import KconformError

TESTING = Path(__file__).resolve().parents[2]

# A runner in miniature: proc.run on a shell that prints its pid (its
# process group) and then sleeps, in the main thread or in a thread.
DRIVER = '''
import sys, threading, time
from pathlib import Path
from kconform import proc
proc.install_signal_handlers()
argv = ['sh', '-c', 'echo $$; exec sleep 60']
log = Path(sys.argv[1])
def go():
	proc.run(argv, log, 120, echo=True)
if sys.argv[2] == 'thread':
	threading.Thread(target=go, daemon=True).start()
	time.sleep(1)
	sys.exit(0)
try:
	go()
except proc.Terminated as e:
	print(e, flush=True)
	sys.exit(128 + e.signum)
'''


def alive(pid: int) -> bool:
	"""Running, not a zombie waiting for its parent's wait."""
	try:
		with open(f'/proc/{pid}/stat') as f:
			return f.read().rsplit(')', 1)[1].split()[0] != 'Z'
	except FileNotFoundError:
		return False


class ChildrenTest(unittest.TestCase):

	def driver(self, mode: str) -> 'subprocess.Popen[str]':
		log = Path(tempfile.mkdtemp()) / 'sleep.log'
		return subprocess.Popen(
			[sys.executable, '-c', DRIVER, str(log), mode],
			stdout=subprocess.PIPE, text=True,
			env=dict(os.environ, PYTHONPATH=str(TESTING)))

	def child(self, driver: 'subprocess.Popen[str]') -> int:
		assert driver.stdout is not None
		pid = int(driver.stdout.readline())
		self.addCleanup(self.reap, pid)
		self.assertTrue(alive(pid))
		return pid

	def reap(self, pid: int) -> None:
		"""Leave nothing behind, even when the test fails."""
		try:
			os.killpg(pid, signal.SIGKILL)
		except ProcessLookupError:
			pass

	def gone(self, pid: int) -> bool:
		for _ in range(50):
			if not alive(pid):
				return True
			time.sleep(0.1)
		return False

	def test_sigterm_kills_the_child_group(self) -> None:
		d = self.driver('main')
		pid = self.child(d)
		d.send_signal(signal.SIGTERM)
		out, _ = d.communicate(timeout=20)
		self.assertEqual(d.returncode, 128 + signal.SIGTERM)
		self.assertEqual(out, 'terminated by SIGTERM\n')
		self.assertTrue(self.gone(pid))

	def test_exit_kills_the_child_group(self) -> None:
		d = self.driver('thread')
		pid = self.child(d)
		d.communicate(timeout=20)
		self.assertTrue(self.gone(pid))


class TimesTest(unittest.TestCase):

	def test_each_line_has_its_host_time(self) -> None:
		log = Path(tempfile.mkdtemp()) / 'out.log'
		before = time.monotonic()
		r = proc.run(['sh', '-c', 'echo a; sleep 0.5; echo b'], log, 30)
		self.assertEqual(r.lines, ['a\n', 'b\n'])
		self.assertEqual(len(r.times), 2)
		self.assertLessEqual(before, r.times[0])
		self.assertGreater(r.times[1] - r.times[0], 0.4)


class IdleTest(unittest.TestCase):

	def test_progress_keeps_a_run_alive_past_the_idle_limit(self) -> None:
		log = Path(tempfile.mkdtemp()) / 'out.log'
		r = proc.run(['sh', '-c', 'for i in 1 2 3 4 5; do echo $i; sleep 0.3; done'],
			     log, 30, idle=1)
		self.assertFalse(r.timed_out)
		self.assertEqual(len(r.lines), 5)

	def test_silence_ends_it_and_check_says_so(self) -> None:
		log = Path(tempfile.mkdtemp()) / 'out.log'
		with self.assertRaisesRegex(KconformError, r'^build: no output for 1 s'):
			proc.check(['sh', '-c', 'echo started; sleep 30'], log, 60,
				   'build', idle=1)


if __name__ == '__main__':
	unittest.main()
