# SPDX-License-Identifier: GPL-2.0
"""The stages of a run as they happen: one status line each, timed."""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from typing import ContextManager, Dict, Iterator, Optional, Protocol


_SAY = threading.Lock()
WALL = 'run'		# results.json stages: the run's wall clock, no stage


def say(line: str) -> None:
	"""One whole line on stdout: the KUnit boot's stage runs in a thread
	beside the others (pipeline.stages), and print() writes the text and
	its newline apart."""
	with _SAY:
		sys.stdout.write(line + '\n')
		sys.stdout.flush()


class StageLog(Protocol):
	"""What a stage function is given to time its stages."""

	def stage(self, name: str, what: str) -> ContextManager[None]: ...


class Stages:
	"""One status line per stage, with its elapsed time."""

	def __init__(self) -> None:
		self.times: Dict[str, float] = {}
		self.failed: Optional[str] = None	# the stage an exception ended
		self.start = time.monotonic()

	def with_wall(self) -> Dict[str, float]:
		"""The stages' times and `run`, the whole run's wall clock so far
		(stages may overlap: the KUnit boot runs beside others)."""
		return {**self.times, WALL: time.monotonic() - self.start}

	@contextlib.contextmanager
	def stage(self, name: str, what: str) -> Iterator[None]:
		say(f'kconform: {name}: {what} ...')
		start = time.monotonic()
		try:
			yield
		except BaseException:
			dt = time.monotonic() - start
			self.times[name] = self.times.get(name, 0.0) + dt
			self.failed = self.failed or name
			say(f'kconform: {name}: FAILED after {dt:.1f} s')
			raise
		dt = time.monotonic() - start
		self.times[name] = self.times.get(name, 0.0) + dt
		say(f'kconform: {name}: done in {dt:.1f} s')
