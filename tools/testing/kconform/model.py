# SPDX-License-Identifier: GPL-2.0
"""Result objects shared by every stage of a kconform run."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Dict, List, Optional


class Kind(enum.StrEnum):
	"""What a suite is: KUnit, a kselftest target, or benchmarks."""
	KUNIT = 'kunit'
	KSELFTEST = 'kselftest'
	BENCH = 'bench'


class Status(str, enum.Enum):
	PASS = 'pass'
	FAIL = 'fail'
	SKIP = 'skip'
	CRASH = 'crash'
	TIMEOUT = 'timeout'


BAD = (Status.FAIL, Status.CRASH, Status.TIMEOUT)


KERNEL_REPORT = '<kernel report>'	# a case per kind of report in the console


def runner_made(name: str) -> bool:
	"""Is this suite or case one the runner made (`<guest boot>`,
	`<suite>`, `<tap>`, ...), not one a test printed?"""
	return name.startswith('<')


class KconformError(Exception):
	"""A stage failed; the message names what and where, with evidence."""


class InputError(KconformError):
	"""A bad argument or input file, found before the first stage (exit 2)."""


@dataclass
class Case:
	name: str
	status: Status
	message: str = ''
	metrics: Dict[str, float] = field(default_factory=dict)	# benchmarks
	flaky: bool = False		# bad on the first run, passed on the rerun
	duration_s: Optional[float] = None	# host time, from console lines


@dataclass
class Suite:
	name: str
	kind: str			# 'kunit', 'kselftest' or 'bench'
	cases: List[Case] = field(default_factory=list)
	status: Status = Status.PASS
	message: str = ''

	def settle(self) -> None:
		"""Derive the suite status from its cases, unless already bad."""
		if self.status in (Status.CRASH, Status.TIMEOUT):
			return
		if not self.cases:
			self.status = Status.FAIL
			self.message = self.message or 'no test cases were reported'
			self.cases.append(Case('<suite>', Status.FAIL, self.message))
			return
		statuses = {c.status for c in self.cases}
		for bad in BAD:
			if bad in statuses:
				self.status = Status.FAIL if bad == Status.FAIL else bad
				return
		self.status = Status.SKIP if statuses == {Status.SKIP} else Status.PASS

	def fail_all(self, status: Status, message: str) -> None:
		"""Mark the suite bad; cases with no verdict yet get the message."""
		self.status = status
		self.message = message
		if not self.cases:
			self.cases.append(Case('<suite>', status, message))
