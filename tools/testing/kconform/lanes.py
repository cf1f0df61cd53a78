# SPDX-License-Identifier: GPL-2.0
"""Kselftest targets side by side in one boot: the plan and the console.

The guest has two vCPUs and a target mostly keeps one busy, so the
targets run in `lanes` (one run_kselftest.sh each, started together by
init). A target whose tests change state that others read (suites.toml
`alone`: failslab's global filters, a kmemleak scan) runs by itself
first, on the console as before. The runner plans the lanes from how
long each target took in the variant's last boot, or before the first
boot from suites.toml's `seconds` (longest first, each to the lane that
ends soonest) and tells init with `kconform.lane=`.

init prefixes each lane's lines with `kconform-laneN: ` and prints
LANES_BEGIN / LANES_END around them (and LANE_END as a lane's last
line). demux() splits the console into the main stream and one stream
per lane; a kernel line printed while lanes ran (a report, a panic)
goes into the stream of every lane still running: the suites running
then all fail with it, as one suite would when run alone (run again with
--lanes 1 to tell which).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from . import console, ktap
from .model import Status, Suite

LANES_BEGIN = 'kconform: lanes begin'
LANES_END = 'kconform: lanes end'
LANE_END = 'kconform: lane end'
_PREFIX = re.compile(r'^kconform-lane(\d+): ')
DURATIONS = 'kconform-durations.json'


@dataclass
class Plan:
	"""Entries (`target` or `target:program`) run alone, then the lanes."""
	alone: List[str] = field(default_factory=list)
	lanes: List[List[str]] = field(default_factory=list)

	def cmdline(self) -> List[str]:
		"""kconform.run= (the entries run alone; every entry when there
		are no lanes) and one kconform.lane= per lane."""
		out = [f'kconform.run={",".join(self.alone)}'] if self.alone else []
		return out + [f'kconform.lane={",".join(lane)}' for lane in self.lanes]

	def streams(self) -> List[List[str]]:
		"""The targets expected in each stream: main, then each lane."""
		def targets(entries: Sequence[str]) -> List[str]:
			return sorted({e.split(':')[0] for e in entries})
		return [targets(self.alone)] + [targets(lane) for lane in self.lanes]


def plan(entries: Sequence[str], alone: Sequence[str], lanes: int,
	 seconds: Mapping[str, float]) -> Plan:
	"""Longest target first (with all its entries), each into the lane
	that ends soonest; a target of unknown length counts as the mean of
	the known ones. Fewer than two targets to share, or lanes <= 1: all
	run alone."""
	solo = [e for e in entries if e.split(':')[0] in alone]
	groups: Dict[str, List[str]] = {}
	for e in entries:
		if e.split(':')[0] not in alone:
			groups.setdefault(e.split(':')[0], []).append(e)
	if lanes <= 1 or len(groups) < 2:
		return Plan(list(entries), [])
	known = [seconds[t] for t in groups if t in seconds]
	guess = sum(known) / len(known) if known else 1.0
	order = list(groups)
	out: List[List[str]] = [[] for _ in range(min(lanes, len(groups)))]
	load = [0.0] * len(out)
	for t in sorted(order, key=lambda t: (-seconds.get(t, guess), order.index(t))):
		i = load.index(min(load))
		out[i] += groups[t]
		load[i] += seconds.get(t, guess)
	return Plan(solo, out)


@dataclass
class Stream:
	lines: List[str] = field(default_factory=list)
	times: List[float] = field(default_factory=list)
	ended: bool = False		# a lane that printed LANE_END


def demux(raw: Sequence[str], times: Sequence[float], lanes: int) -> List[Stream]:
	"""The main stream, then one stream per lane (see the module doc).

	While lanes run, a lane's line that a kernel line interrupted on the
	serial console ("kconform-lane2: # ok 3 te[ 12.3] kselftest: ..."
	and "st_x" on the next line, or the cut right after the prefix) is
	joined again before it is given to its lane: its rest is the next
	line that is not the kernel's, as one lane's write holds the tty.
	"""
	streams = [Stream() for _ in range(lanes + 1)]
	running = False
	pending: Optional[str] = None	# a lane's line cut by a kernel line

	def add(s: Stream, i: int, text: str) -> None:
		s.lines.append(text)
		if i < len(times):
			s.times.append(times[i])

	def kernel(i: int, text: str) -> None:
		for s in streams[1:]:
			if not s.ended:
				add(s, i, text)

	for i, line in enumerate(raw):
		text = line.rstrip('\r\n').replace('\r', '')
		if not running:
			running = text == LANES_BEGIN
			add(streams[0], i, text)
			continue
		if ktap.is_kernel_line(text):
			kernel(i, text)
			continue
		user, *glued = ktap.split_glued(text)
		if pending is not None:
			user, pending = pending + user, None
		for part in glued:
			kernel(i, part)
		if glued:
			pending = user
			continue
		m = _PREFIX.match(user)
		if m and 1 <= int(m.group(1)) <= lanes:
			lane = streams[int(m.group(1))]
			rest = user[m.end():]
			add(lane, i, rest)
			lane.ended = lane.ended or rest == LANE_END
		else:
			running = user != LANES_END
			add(streams[0], i, user)
	return streams


def suites(raw: Sequence[str], times: Sequence[float], plan: Plan,
	   timed_out: bool) -> List[Suite]:
	"""The kselftest suites of one boot run by @plan: each stream parsed
	on its own; the <guest boot> findings of all streams in one suite."""
	out: List[Suite] = []
	for stream, expected in zip(demux(raw, times, len(plan.lanes)), plan.streams()):
		got = console.suites_from_console(
			stream.lines, 'kselftest', expected, timed_out and not stream.ended,
			'<guest boot>', stream.times)
		for suite in got:
			same = [s for s in out if s.name == suite.name]
			if same:	# one <suite> case, the reports of each
				same[0].cases += [c for c in suite.cases if c.name != '<suite>']
				same[0].status = Status.PASS
				same[0].settle()
			else:
				out.append(suite)
	return out


def recorded(raw: Sequence[str], expected: Sequence[str]) -> List[Suite]:
	"""The kselftest suites of a saved console (parse), split as its
	boot's were: in as many lanes as its lines name, each target where
	the console shows it; the expected targets that never appear fail."""
	n = max((int(m.group(1)) for m in map(_PREFIX.match, raw) if m), default=0)
	out = suites(raw, [], Plan(list(expected) if not n else [],
				   [[] for _ in range(n)]), False)
	for name in [e for e in expected if e not in {s.name for s in out}]:
		missing = Suite(name, 'kselftest')
		missing.fail_all(Status.FAIL, f'expected kselftest suite {name} did '
				 'not appear in the console')
		out.append(missing)
	return out


def load_seconds(build_dir: Path) -> Dict[str, float]:
	"""Each target's length in the variant's last kselftest boot."""
	try:
		data = json.loads((build_dir / DURATIONS).read_text())
	except (OSError, ValueError):
		return {}
	if not isinstance(data, dict):
		return {}
	return {str(k): float(v) for k, v in data.items()
		if isinstance(v, (int, float))}


def known_seconds(build_dir: Path, shipped: Mapping[str, float]) -> Dict[str, float]:
	"""Each target's length for the plan: this build's last boot's,
	else the one suites.toml ships (`seconds`), so that a machine's
	first boot is planned as well as its next ones."""
	out = dict(shipped)
	out.update(load_seconds(build_dir))
	return out


def save_seconds(build_dir: Path, got: Mapping[str, float]) -> None:
	"""Keep the targets' lengths for the next plan (merged: a run of
	some targets keeps the others' lengths)."""
	merged = load_seconds(build_dir)
	merged.update(got)
	(build_dir / DURATIONS).write_text(json.dumps(merged, indent=1, sort_keys=True)
					   + '\n')


def seconds_of(suites: Sequence[Tuple[str, Sequence[float]]]) -> Dict[str, float]:
	"""(target, its cases' durations) -> target: total seconds."""
	return {name: round(sum(d), 1) for name, d in suites if d}
