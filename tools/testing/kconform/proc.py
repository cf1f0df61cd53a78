# SPDX-License-Identifier: GPL-2.0
"""Run commands: argument lists only, output teed to a log, hard timeouts.

Every child runs in a process group of its own, registered while it
lives: whatever ends the runner (SIGTERM, SIGINT, SIGHUP, an exception,
exit) kills those groups, so no make -j, tar or QEMU outlives it.
"""

from __future__ import annotations

import atexit
import os
import re
import shlex
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Dict, List, Optional, Sequence, Set

from .model import KconformError

LOG_TAIL = 40


@dataclass
class Run:
	argv: List[str]
	lines: List[str]
	returncode: int
	timed_out: bool
	elapsed: float
	log: Path
	times: List[float] = field(default_factory=list)	# monotonic, per line

	def tail(self, n: int = LOG_TAIL) -> str:
		"""The first compiler/make error with what follows it, else the end."""
		for i, line in enumerate(self.lines):
			if _ERROR.search(line):
				return ''.join(self.lines[i:i + n])
		return ''.join(self.lines[-n:])


class Terminated(BaseException):
	"""SIGTERM or SIGHUP: like KeyboardInterrupt, no stage may swallow it,
	and the run still writes what results it has."""

	def __init__(self, signum: int) -> None:
		super().__init__(f'terminated by {signal.Signals(signum).name}')
		self.signum = signum


_LIVE: Set[int] = set()		# process groups of running children
_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


def kill_children() -> None:
	"""Kill every live child's process group."""
	for pgid in list(_LIVE):
		try:
			os.killpg(pgid, signal.SIGKILL)
		except ProcessLookupError:
			pass
		_LIVE.discard(pgid)


def _on_signal(signum: int, frame: Optional[FrameType]) -> None:
	kill_children()
	if signum == signal.SIGINT:
		raise KeyboardInterrupt
	raise Terminated(signum)


def install_signal_handlers() -> None:
	"""For the runner's main thread: a signal kills the children and
	raises in the main thread; exit kills what is left."""
	for sig in _SIGNALS:
		signal.signal(sig, _on_signal)
	atexit.register(kill_children)


# A compiler's "error:" / "error[E0599]:" or make's "*** [...] Error N".
_ERROR = re.compile(r'(^|\s)error(\[E\d+\])?:|\*\*\* \[.*\] Error \d+')


def run(argv: Sequence[str], log: Path, timeout: float,
	cwd: Optional[Path] = None, env: Optional[Dict[str, str]] = None,
	stop_when: Optional[str] = None, echo: bool = False,
	idle: Optional[float] = None) -> Run:
	"""Run argv, write its output to log, kill its group at the timeout,
	or once it printed nothing for idle seconds (a build's progress).

	stop_when ends the run early (as a success) once a line holds it.
	"""
	log.parent.mkdir(parents=True, exist_ok=True)
	start = time.monotonic()
	lines: List[str] = []
	times: List[float] = []
	seen = threading.Event()
	with open(log, 'w', encoding='utf-8', errors='replace') as out:
		out.write('$ ' + ' '.join(shlex.quote(a) for a in argv) + '\n')
		out.flush()
		proc = _start(argv, cwd, env)
		assert proc.stdout is not None

		def reader() -> None:
			assert proc.stdout is not None
			for raw in proc.stdout:
				text = raw.decode('utf-8', errors='replace')
				times.append(time.monotonic())
				lines.append(text)
				out.write(text)
				out.flush()
				if echo:
					print(text, end='', flush=True)
				if stop_when and stop_when in text:
					seen.set()
		thread = threading.Thread(target=reader, daemon=True)
		thread.start()
		try:
			timed_out = _watch(proc, start, start + timeout, idle, times, seen)
		finally:
			if proc.poll() is None:
				_kill(proc)
			proc.wait()
			_LIVE.discard(proc.pid)
			thread.join(timeout=5)
			proc.stdout.close()
	code = 0 if seen.is_set() else proc.returncode
	n = min(len(lines), len(times))	# a reader still stuck after join
	return Run(list(argv), lines[:n], code, timed_out,
		   time.monotonic() - start, log, times[:n])


def _start(argv: Sequence[str], cwd: Optional[Path],
	   env: Optional[Dict[str, str]]) -> 'subprocess.Popen[bytes]':
	"""argv started in a process group of its own, known to the signal
	handlers before any signal can arrive."""
	full_env = dict(os.environ)
	if env:
		full_env.update(env)
	# No signal between the start and the registration of the group.
	blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
	try:
		proc = subprocess.Popen(list(argv), cwd=cwd, env=full_env,
					stdin=subprocess.DEVNULL,
					stdout=subprocess.PIPE,
					stderr=subprocess.STDOUT,
					start_new_session=True)
		_LIVE.add(proc.pid)
	except OSError as e:
		raise KconformError(f'cannot run {argv[0]}: {e}') from e
	finally:
		signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
	return proc


def _watch(proc: 'subprocess.Popen[bytes]', start: float, deadline: float,
	   idle: Optional[float], times: List[float], seen: threading.Event) -> bool:
	"""Wait for proc; kill its group once stop_when was seen, at the
	deadline or after idle seconds without output. Did it time out?"""
	while proc.poll() is None:
		if seen.is_set():
			_kill(proc)
			return False
		now = time.monotonic()
		if now > deadline or idle is not None and \
				now - (times[-1] if times else start) > idle:
			_kill(proc)
			return True
		time.sleep(0.1)
	return False


def _kill(proc: 'subprocess.Popen[bytes]') -> None:
	try:
		os.killpg(proc.pid, signal.SIGKILL)
	except ProcessLookupError:
		pass


def check(argv: Sequence[str], log: Path, timeout: float, what: str,
	  cwd: Optional[Path] = None, env: Optional[Dict[str, str]] = None,
	  idle: Optional[float] = None) -> Run:
	"""Run argv and raise KconformError with the log tail if it fails."""
	r = run(argv, log, timeout, cwd=cwd, env=env, idle=idle)
	if r.timed_out:
		why = f'no output for {idle:.0f} s' if idle is not None and \
			r.elapsed < timeout else f'timed out after {timeout:.0f} s'
		raise KconformError(f'{what}: {why} (log: {log})\n{r.tail()}')
	if r.returncode != 0:
		raise KconformError(f'{what}: failed with exit code '
				    f'{r.returncode} (log: {log})\n{r.tail()}')
	return r
