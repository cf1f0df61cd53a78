# SPDX-License-Identifier: GPL-2.0
"""Turn one guest console log into suites: parse, then find crashes.

A kernel report (panic, oops, BUG, WARNING, KASAN, UBSAN, RCU stall, hung
task, ...: REPORT_STARTS) marks the suite that was running when it was
printed as crashed, with the log excerpt; results parsed before it are
kept. A run that hit
its timeout marks the unfinished suite, and every expected suite that
never started, as timed out.
"""

from __future__ import annotations

import re
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from . import coverage, ktap
from .model import KERNEL_REPORT, Case, Status, Suite

# The first line of each kind of kernel report, matched after the printk
# prefix. A report runs to its "---[ end" line, if it prints one.
REPORT_STARTS = (
	r'Kernel panic - not syncing',
	r'Oops: ',
	r'.*: [0-9a-f]{4} \[#\d+\]',	# oops counter: divide error, invalid opcode
	r'(\S+: )?BUG: ',		# KASAN, KFENCE, sleeping function, soft lockup
	r'BUG \S+ \((Not tainted|Tainted: [^)]*)\): ',	# SLUB debug
	r'kernel BUG at ',
	r'WARNING: ',			# WARN(), lockdep, suspicious RCU usage
	r'UBSAN: ',
	r'general protection fault',
	r'Unable to handle kernel ',
	r'list_(add|del) corruption',
	r'unreferenced object 0x',	# kmemleak
	r'kconform: kmemleak could not scan',	# init: kmemleak disabled itself
	r'(rcu: )?INFO: rcu_\w+ (self-)?detected (expedited )?stall',
	r'INFO: task .+:\d+ blocked for more than',	# the name may hold spaces
	r'INFO: trying to register non-static key',	# lockdep
	r'(NMI )?watchdog: Watchdog detected hard LOCKUP',
	r'sysfs: cannot create duplicate filename',
	r'kmemleak: \d+ new suspected memory leaks',	# a scan someone else ran
	r'unregister_netdevice: waiting for \S+ to become free',
)
REPORTS = re.compile('^(' + '|'.join(REPORT_STARTS) + ')')
# The end of a report; one whose first line was lost is still a report.
REPORT_END = re.compile(r'^-+\[ end (trace|Kernel panic)')
# A fault that the oops line ("Oops: 0002 [#1]", "invalid opcode: 0000
# [#1]") follows within OOPS_WITHIN lines, as part of the same report.
OOPS_LEADS = re.compile(r'^(BUG: (kernel NULL pointer|unable to handle)|'
			r'kernel BUG at |Unable to handle kernel )')
OOPS = re.compile(r'^(Oops: |.*: [0-9a-f]{4} \[#\d+\])')
OOPS_WITHIN = 10
# A stack dump outside every report that starts above (or a second one
# in it): a report of its own, whose first line is the one above
# dump_stack()'s preamble.
CALL_TRACE = re.compile(r'^Call Trace:')
PREAMBLE = re.compile(r'^(\s|$|CPU: |Hardware name: |Workqueue: |Modules linked in:|'
		      r'RIP: |Code: |RSP: |RAX: |RDX: |RBP: |R\d+: |FS: |CS: |'
		      r'CR2: |DR\d: |Tainted: |task:|<TASK>|name \S+, interval \d+)')
PREAMBLE_SPAN = 15
PREAMBLE_START = re.compile(r'^CPU: \d+ PID: ')
# What user space writes to /dev/kmsg: a kernel line of no context of
# the dump's (run_kselftest.sh's, as each lane starts a target)
USER_KMSG = ('kselftest: Running tests in ',)
# Stack dumps that inform rather than report a bug: the OOM killer at
# work, an allocation failure the caller handles (warn_alloc(); sysctl's
# register of a table that got -ENOMEM, as fail-nth makes it in a new
# netns), a failure injected on purpose (failslab, fail-nth with verbose
# on).
INFORMS = re.compile(r'(.*( invoked oom-killer: |: page allocation failure: |'
		     r': vmalloc error: )|FAULT_INJECTION: forcing a failure|'
		     r'sysctl could not get directory: \S+ -12$)')
# The frame under dump_stack() of such a dump: fault injection's own
# report of a failure it forced, warn_alloc() of an allocation failure
# its caller handles, the OOM killer's header.
INFORMING_FRAME = re.compile(r'(should_fail_ex|warn_alloc|dump_header)\+0x')
FRAMES_LOOKED_AT = 4
REPORTED = 'kernel report in the console:\n'
EXCERPT_BEFORE = 2
EXCERPT_AFTER = 25
REPORT_SPAN = 400		# lines from a report's start to its end at most
EXCERPTS_KEPT = 3		# per kind of report; the rest are counted
LINE_KEPT = 500			# characters of one line of an excerpt


_LINUX_VERSION = re.compile(r'Linux version (\S+)')


def kernel_version(raw: Sequence[str]) -> str:
	"""The release a console's banner names, or '?'."""
	for line in raw:
		m = _LINUX_VERSION.search(line)
		if m:
			return m.group(1)
	return '?'


def reports(lines: Sequence[ktap.Line]) -> List[int]:
	"""The position in lines of the start of every kernel report."""
	found: List[int] = []
	start: Optional[int] = None	# of the report still open
	leads: Optional[int] = None	# of a fault an oops line may follow
	traced = False			# the open report printed its stack
	for n, (_, text) in enumerate(lines):
		if CALL_TRACE.match(text):
			if start is None or n - start > REPORT_SPAN or traced:
				start = _header(lines, n)
				if not INFORMS.match(lines[start][1]) and \
						not _informing_frame(lines, n):
					found.append(start)
			traced = True
		elif REPORT_END.match(text):
			if start is None or n - start > REPORT_SPAN:
				found.append(n)
			start = None
		elif REPORTS.match(text):
			if leads is not None and n - leads <= OOPS_WITHIN and \
					OOPS.match(text):
				leads = None
				continue
			found.append(n)
			start = n
			traced = False
			leads = n if OOPS_LEADS.match(text) else None
	return found


def _informing_frame(lines: Sequence[ktap.Line], n: int) -> bool:
	"""The stack dumped at n (its Call Trace line) was dumped by code
	that only informs (INFORMING_FRAME), whatever its header: another
	context may have logged lines between that header and the dump."""
	frames = [t.strip() for _, t in lines[n + 1:n + 1 + FRAMES_LOOKED_AT]]
	frames = [f for f in frames if f != '<TASK>' and not f.startswith('?')]
	if frames and frames[0].startswith('dump_stack'):
		frames = frames[1:]
	return bool(frames) and bool(INFORMING_FRAME.match(frames[0]))


def _header(lines: Sequence[ktap.Line], n: int) -> int:
	"""The line above the preamble of the stack dump at n, or n. Test
	output between them (another lane's TAP or its lane prefix, written
	meanwhile, or a line user space wrote to /dev/kmsg: USER_KMSG) is
	passed over: it is no line of the dump's context. So is what another
	CPU logged inside the preamble, which dump_stack() starts with its
	"CPU: " line."""
	top = next((m for m in range(n - 1, max(-1, n - PREAMBLE_SPAN), -1)
		    if PREAMBLE_START.match(lines[m][1])), n)
	for m in range(top - 1, max(-1, n - PREAMBLE_SPAN), -1):
		text = lines[m][1]
		if text.startswith(('#', 'kconform-lane', *USER_KMSG)) or ktap.is_result(text):
			continue
		if not PREAMBLE.match(text):
			return m
	return n


def excerpt(lines: Sequence[ktap.Line], n: int) -> str:
	chunk = lines[max(0, n - EXCERPT_BEFORE):n + EXCERPT_AFTER]
	return '\n'.join(ktap.cut(t, LINE_KEPT) for _, t in chunk)


_HEX = re.compile(r'\b(0x)?[0-9a-f]*\d[0-9a-f]*\b')
_NUMBER = re.compile(r'(?<![A-Za-z_\d])(?<!\.[ch]:)(?<!\.rs:)\d+')


def signature(text: str) -> str:
	"""A report's first line without what changes between two reports
	of one bug: addresses, PIDs, CPUs, times (file:line is kept)."""
	return _NUMBER.sub('N', _HEX.sub(lambda m: m.group(0) if
					 m.group(0).isdigit() else 'X', text))


def report_cases(lines: Sequence[ktap.Line], found: Sequence[int]) -> List[Case]:
	"""One case per kind of report (its signature), with how often it
	came and its first excerpts: 200 000 WARNINGs are one case."""
	groups: Dict[str, List[int]] = {}
	for n in found:
		groups.setdefault(signature(lines[n][1]), []).append(n)
	cases = []
	for where in groups.values():
		head = ktap.cut(lines[where[0]][1], LINE_KEPT)
		if len(where) > 1:
			head += (f' (and {len(where) - 1} more like it; the first '
				 f'{min(len(where), EXCERPTS_KEPT)} follow)')
		cases.append(Case(KERNEL_REPORT, Status.CRASH, '\n\n'.join(
			[head] + [excerpt(lines, n) for n in where[:EXCERPTS_KEPT]])))
	return cases


def crash(suite: Suite, lines: Sequence[ktap.Line], found: Sequence[int]) -> None:
	"""Mark the suite crashed by the reports found in its lines."""
	if not found:
		return
	if not suite.message.startswith(REPORTED):
		suite.fail_all(Status.CRASH, REPORTED + excerpt(lines, found[0]))
	suite.cases.extend(report_cases(lines, found))


def _owner(level: ktap.Level, idx: int) -> Optional[ktap.Node]:
	for node in level.nodes:
		if node.first <= idx <= node.last or \
				(node.ok is None and idx >= node.first):
			return node
	return None


def data_blanked(raw: Sequence[str]) -> List[str]:
	"""raw with the userspace lines of each gcov data block (base64
	between `kconform: gcov begin` and `kconform: gcov end`, coverage.py's)
	made empty: data, not TAP, and a line of it may well start with "ok".
	Kernel lines in a block stay (a report during the dump is still seen),
	and so does the count of lines (times are per raw line)."""
	out: List[str] = []
	inside = False
	for text in raw:
		line = text.rstrip('\r\n')
		if ktap.kernel_line(line):
			out.append(text)
		elif inside or line.startswith(coverage.BEGIN):
			inside = line != coverage.END
			out.append('')
		else:
			out.append(text)
	return out


def suites_from_console(raw: Sequence[str], kind: str, expected: Iterable[str],
			timed_out: bool, boot_name: str,
			times: Sequence[float] = ()) -> List[Suite]:
	"""Every suite the console shows, plus the expected ones it lacks;
	times (host seconds, one per raw line) give the cases durations."""
	lines = ktap.clean(data_blanked(raw))
	level = ktap.parse_level(lines)
	ktap.time_nodes(level.nodes, times)
	suites = ktap.kunit_suites(level) if kind == 'kunit' else \
		ktap.kselftest_suites(level, times)
	by_node = {id(n): s for s, n in zip(_suites_per_node(suites, level),
					    level.nodes)}

	hits: Dict[int, Tuple[Suite, List[int]]] = {}
	for n in reports(lines):
		owner = _owner(level, lines[n][0])
		hit = by_node.get(id(owner)) if owner else None
		if hit is None:
			hit = _extra(suites, boot_name, kind)
		hits.setdefault(id(hit), (hit, []))[1].append(n)
	for hit, found in hits.values():
		crash(hit, lines, found)

	if timed_out:
		for suite in suites:
			if any(c.status == Status.CRASH and 'truncated' in c.message
			       for c in suite.cases):
				suite.status = Status.TIMEOUT
				suite.message = 'the guest ran past its timeout here'
				for c in suite.cases:
					if c.status == Status.CRASH and \
							'truncated' in c.message:
						c.status = Status.TIMEOUT
						c.message = 'timed out: ' + c.message

	seen = {s.name for s in suites}
	for name in expected:
		if name not in seen:
			missing = Suite(name, kind)
			if timed_out:
				missing.fail_all(Status.TIMEOUT, 'never started: the '
						 'guest ran past its timeout')
			else:
				missing.fail_all(Status.FAIL, f'expected {kind} suite '
						 f'{name} did not appear in the console')
			suites.append(missing)

	problems = ktap.level_problems(level, 'KTAP' if kind == 'kunit' else 'TAP')
	if not level.structured and not expected:
		problems = []	# none was expected (lanes.py's main stream)
	if problems:
		extra = _extra(suites, boot_name, kind)
		for p in problems:
			extra.cases.append(Case('<tap>', Status.FAIL, p))
	for suite in suites:
		suite.settle()
	return suites


def _suites_per_node(suites: List[Suite], level: ktap.Level) -> List[Suite]:
	"""The suite each top-level node went into (kselftest groups them)."""
	by_name = {s.name: s for s in suites}
	out = []
	for node in level.nodes:
		out.append(by_name.get(ktap.ksft_program(node.name)[0],
				       suites[0] if suites else Suite('?', '?')))
	return out


def _extra(suites: List[Suite], name: str, kind: str) -> Suite:
	for s in suites:
		if s.name == name:
			return s
	suite = Suite(name, kind)
	suites.append(suite)
	return suite
