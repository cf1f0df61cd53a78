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


if __name__ == '__main__':
	unittest.main()
