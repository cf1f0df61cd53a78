# SPDX-License-Identifier: GPL-2.0
"""Parse KTAP (KUnit) and nested TAP 13 (kselftest) from a console log.

One parser serves both paths. KUnit nests by four spaces of indentation;
kselftest's runner nests a program's own TAP behind "# ". A line that
fits neither the grammar nor the nesting is kernel noise or a diagnostic.
The parser never invents a pass: a missing result line, a plan that does
not match, or a malformed result line are reported as problems.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple

from . import upstream
from .model import BAD, Case, Status, Suite

Line = Tuple[int, str]

# printk's prefix: "[    1.234567]", with CONFIG_PRINTK_CALLER also
# "[    T1]" (task) or "[    C0]" (CPU), or the caller alone.
_PREFIX = r'(?:\[\s*\d+\.\d+\](?:\[\s*[TC]\d+\])?|\[\s*[TC]\d+\])'
_TIMESTAMP = re.compile(r'^' + _PREFIX + r'\s?')
# A kernel line glued to the end of a partial line on the serial console
# ("ok 3 test_x[   12.345] random: ..."): the line is cut before it.
_GLUED = re.compile(r'(?<=[^\]])(?=' + _PREFIX + r' )')


def is_kernel_line(text: str) -> bool:
	"""A printk line: it starts with printk's prefix."""
	return bool(_TIMESTAMP.match(text))


def split_glued(text: str) -> List[str]:
	"""A line, then each kernel line glued to its end (see clean())."""
	return _GLUED.split(text)


_HEADER = re.compile(r'^K?TAP version \d+\s*$')
# "1..0 # SKIP reason" is what ksft_exit_skip() prints for a program that
# skips as a whole.
_PLAN = re.compile(r'^1\.\.(\d+)(?:\s+#\s*(.*?))?\s*$')
_RESULT = re.compile(r'^(not ok|ok)\b(.*)$')
_RESULT_FULL = re.compile(r'^(not ok|ok) (\d+)(?: (?:- )?(.*))?$')
_SUBTEST = re.compile(r'^# Subtest: (.+)$')
# TAP's emergency stop: the producer gave up, whatever it printed before.
_BAIL = re.compile(r'^Bail out!(.*)$')
_STATS = re.compile(r'(pass:\d+ fail:\d+|^#?\s*Totals:|^# (PASSED|FAILED): |'
		    r'^#?\s*(RUN|OK|FAIL|SKIP)\s{2,}|^Starting \d+ tests)')
_KSFT_PROG = re.compile(r'^selftests: (\S+): (\S+)$')
# 6.1's kselftest_harness.h prints a skip as "ok N # SKIP reason", without
# the test's name; the name is on the harness's "RUN" line before it.
_HARNESS_RUN = re.compile(r'^RUN\s+(\S+) \.\.\.$')
MAX_MESSAGE = 2000
MESSAGE_TAIL = 400		# of MAX_MESSAGE: the end of a long message
# Deeper nesting than this is garbage (a line of 4000 spaces), not TAP:
# a reported problem, not a parse that recurses without bound.
MAX_DEPTH = 32


@dataclass
class Node:
	"""One result line and everything nested above it."""
	name: str
	ok: Optional[bool]		# None: the result line never came
	directive: str = ''
	diag: List[Line] = field(default_factory=list)
	children: List['Node'] = field(default_factory=list)
	problems: List[str] = field(default_factory=list)
	first: int = -1
	last: int = -1
	start: int = -1			# the line its duration counts from
	duration: Optional[float] = None	# host seconds, when timed


@dataclass
class Level:
	nodes: List[Node] = field(default_factory=list)
	plan: Optional[int] = None
	plan_directive: str = ''	# "SKIP reason" of a "1..0 # SKIP reason"
	structured: bool = False
	subtest: str = ''
	problems: List[str] = field(default_factory=list)
	diag: List[Line] = field(default_factory=list)
	doc_start: int = 0		# first node of the last TAP document

	@property
	def in_doc(self) -> int:
		"""Results of the last document, the one `plan` belongs to."""
		return len(self.nodes) - self.doc_start


def kernel_line(text: str) -> bool:
	"""Does the console line start with a printk timestamp?"""
	return bool(_TIMESTAMP.match(text))


def clean(raw: Sequence[str]) -> List[Line]:
	"""Number the lines and strip printk prefixes and line ends.

	A kernel line glued to the end of another becomes a line of its own,
	with the same number. When the other is a userspace line the kernel
	interrupted on the serial console, its rest (at least its newline)
	is the next line without a printk prefix; that is joined back to it,
	with its number ("ok 3 te[ 12.3] random: ..." then "st_x"), unless it
	starts a line of its own ("#", TAP, "kconform:" markers) and the cut
	line held more than the runner's "# ".
	"""
	out: List[Line] = []
	cut: Optional[int] = None	# in out: the interrupted userspace line
	for i, text in enumerate(raw):
		text = text.rstrip('\r\n').replace('\r', '')
		kernel = bool(_TIMESTAMP.match(text))
		if cut is not None and not kernel:
			if not _own_line(text) or _partial(out[cut][1]):
				text = out.pop(cut)[1] + text
			cut = None
		parts = _GLUED.split(text)
		if len(parts) > 1 and not kernel:
			cut = len(out)
		out.extend((i, _TIMESTAMP.sub('', part)) for part in parts)
	return out


def _partial(text: str) -> bool:
	"""A cut line that holds no more than the runner's "# " and the
	start of a result line ("# not "): what follows belongs to it."""
	rest = text.strip().lstrip('#').strip()
	return not rest or 'not ok'.startswith(rest)


def _own_line(text: str) -> bool:
	"""Not the rest of an interrupted line: a line that starts anew."""
	return text.startswith(('#', 'kconform:')) or _structural(text.strip())


def _structural(text: str) -> bool:
	return bool(_HEADER.match(text) or _PLAN.match(text) or
		    _RESULT.match(text) or _BAIL.match(text))


def _split_result(text: str) -> Tuple[bool, int, str, str]:
	m = _RESULT_FULL.match(text)
	if not m:
		raise ValueError(text)
	rest = m.group(3) or ''
	directive = ''
	if rest.startswith('# '):
		rest, directive = '', rest[2:]
	elif ' # ' in rest:
		rest, directive = rest.split(' # ', 1)
	return m.group(1) == 'ok', int(m.group(2)), rest.strip(), directive.strip()


def is_result(text: str) -> bool:
	"""A well-formed top-level result line."""
	return bool(_RESULT_FULL.match(text))


def result_name(text: str) -> str:
	return _split_result(text)[2]


def parse_level(lines: Sequence[Line], depth: int = 0,
		deep: Optional[List[str]] = None) -> Level:
	"""One nesting level; deeper levels recurse at most MAX_DEPTH times."""
	level = Level()
	child: List[Line] = []
	hash_child = False
	diag: List[Line] = []
	expected = 1
	previous: Optional[int] = None	# last header, plan or result line here
	top = deep is None
	too_deep: List[str] = [] if deep is None else deep

	def nested(idx: int, text: str) -> bool:
		"""Keep a nested line for the level below, unless too deep."""
		if depth < MAX_DEPTH:
			child.append((idx, text))
			return True
		if not too_deep:
			too_deep.append(f'line {idx + 1} is nested deeper than '
				    f'{MAX_DEPTH} levels; its nesting is not parsed')
		return False

	def close(node: Node, sub: Level) -> None:
		nonlocal child, diag, hash_child
		if sub.structured:
			node.children = sub.nodes
			node.problems = sub.problems
			node.diag = diag + sub.diag
			if sub.plan is not None and sub.plan != sub.in_doc:
				node.problems.append(
					f'plan says 1..{sub.plan} but {sub.in_doc} '
					f'results were reported')
			if not node.name:
				node.name = sub.subtest
			elif sub.subtest and node.name != sub.subtest:
				# a result line cut short ("ok 3 tcp_eh") or another
				# test's: the subtest it closes keeps its name
				node.problems.append(
					f'result line {node.last + 1} names {node.name!r} '
					f'but closes subtest {sub.subtest!r}')
				node.name = sub.subtest
			if sub.plan == 0 and _is_skip(sub.plan_directive) and \
					node.directive.strip().upper() == 'SKIP':
				node.directive = sub.plan_directive
		else:
			node.diag = sorted(diag + child)
		starts = [i for i, _ in diag + child]
		node.first = min(starts) if starts else node.last
		child, diag, hash_child = [], [], False

	def below() -> Level:
		return parse_level(child, depth + 1, too_deep) if child else Level()

	for idx, text in lines:
		if not text.strip():
			continue
		if text.startswith(('    ', '\t')):
			if not nested(idx, text[4:] if text[0] == ' ' else text[1:]):
				diag.append((idx, text.strip()))
			continue
		if text.startswith('#'):
			inner = text[2:] if text.startswith('# ') else text[1:]
			if hash_child or _structural(inner):
				if nested(idx, inner):
					hash_child = True
				else:
					diag.append((idx, inner.strip()))
				continue
		if _RESULT.match(text):
			level.structured = True
			try:
				ok, num, name, directive = _split_result(text)
			except ValueError:
				level.problems.append(
					f'malformed result line {idx + 1}: {text!r}')
				continue
			if num != expected:
				level.problems.append(
					f'result line {idx + 1} is numbered {num}, '
					f'expected {expected}')
			expected = num + 1
			node = Node(name, ok, directive, last=idx)
			close(node, below())
			node.start = node.first if previous is None else previous
			previous = idx
			if not node.name:
				node.name = _run_name(node) or f'<test {num}>'
			level.nodes.append(node)
			continue
		if _HEADER.match(text):
			# A new document (run_kselftest.sh prints one per target):
			# the one before it must have kept its plan.
			if level.in_doc:
				if level.plan is not None and level.plan != level.in_doc:
					level.problems.append(
						f'line {idx + 1}: the TAP document before it '
						f'planned 1..{level.plan} but reported '
						f'{level.in_doc} results')
				level.doc_start = len(level.nodes)
				level.plan = None
				expected = 1
			level.structured = True
			diag = []
			previous = idx
			continue
		m = _BAIL.match(text)
		if m:
			level.structured = True
			level.problems.append(f'line {idx + 1}: Bail out!{m.group(1)}')
			previous = idx
			continue
		m = _PLAN.match(text)
		if m:
			level.structured = True
			if level.plan is not None:
				level.problems.append(
					f'line {idx + 1}: a second plan line 1..{m.group(1)} '
					f'in one TAP document, after 1..{level.plan}')
			level.plan = int(m.group(1))
			level.plan_directive = (m.group(2) or '').strip()
			previous = idx
			continue
		m = _SUBTEST.match(text)
		if m:
			level.subtest = m.group(1).strip()
			continue
		diag.append((idx, text[1:].strip() if text.startswith('#')
			     else text.strip()))

	sub = below()
	if sub.structured:
		name = ''
		for _, d in reversed(diag):
			m = _KSFT_PROG.match(d)
			if m:
				name = d
				break
		node = Node(name, None, last=child[-1][0])
		close(node, sub)
		node.start = node.first if previous is None else previous
		node.name = node.name or '<unnamed>'
		level.nodes.append(node)
	else:
		level.diag = sorted(diag + child)
	if top:
		level.problems.extend(too_deep)
	return level


def _is_skip(directive: str) -> bool:
	return directive.partition(' ')[0].upper() == 'SKIP'


def _run_name(node: Node) -> str:
	for _, text in reversed(node.diag):
		m = _HARNESS_RUN.match(text)
		if m:
			return m.group(1)
	return ''


def parse(raw: Sequence[str]) -> Level:
	return parse_level(clean(raw))


def time_nodes(nodes: Sequence[Node], times: Sequence[float]) -> None:
	"""A node's duration: the host time of its result line minus that of
	the line that started it (the result, plan or header line before it
	on its level, else its first line). times has one per console line."""
	for node in nodes:
		if 0 <= node.start <= node.last < len(times):
			node.duration = max(0.0, times[node.last] - times[node.start])
		time_nodes(node.children, times)


def _message(node: Node) -> str:
	keep = [t for _, t in node.diag if t and not _STATS.search(t) and
		not _KSFT_PROG.match(t)]
	return cut('\n'.join(keep))


def cut(text: str, limit: int = MAX_MESSAGE) -> str:
	"""About limit characters: the head (where an assertion names its
	file:line) and the tail, with the cut marked."""
	if len(text) <= limit:
		return text
	tail = min(MESSAGE_TAIL, limit // 4)
	gone = len(text) - (limit - tail)
	return (text[:limit - tail] + f'\n[... {gone} characters cut ...]\n'
		+ text[-tail:])


def node_status(node: Node) -> Tuple[Status, str]:
	"""The verdict of one result line, with the reason for a non-pass."""
	if node.ok is None:
		return Status.CRASH, ('no result line: the output ended here '
				      '(truncated)\n' + _message(node)).strip()
	word, _, reason = node.directive.partition(' ')
	if word.upper() == 'SKIP':
		if reason.strip():
			return Status.SKIP, reason.strip()
		return Status.FAIL, 'skipped without a reason'
	if word.upper() == 'TIMEOUT':
		return Status.TIMEOUT, ('timed out ' + reason).strip()
	if node.ok:
		return Status.PASS, ''
	msg = _message(node)
	if node.directive:
		msg = (node.directive + '\n' + msg).strip()
	return Status.FAIL, msg or 'not ok, without a diagnostic'


def leaf_cases(node: Node, prefix: str = '') -> List[Case]:
	"""Flatten a node into cases: one per leaf, named by its path."""
	name = prefix + node.name
	status, msg = node_status(node)
	if not node.children:
		return [Case(name, status, msg, duration_s=node.duration)]
	cases: List[Case] = []
	for child in node.children:
		cases.extend(leaf_cases(child, name + '/'))
	for problem in node.problems:
		cases.append(Case(name + '/<ktap>', Status.FAIL, problem))
	if not _explained(node, status, cases):
		cases.append(Case(name, status, msg or
				  'the parent result is not ok although '
				  'no subtest failed', duration_s=node.duration))
	return cases


# A parent's directive that its failing children explain: none, or the
# exit status kselftest's harness gives a program with a failed test.
_PLAIN_FAIL = ('', 'exit=1')


def _explained(node: Node, status: Status, cases: Sequence[Case]) -> bool:
	"""Does the parent's result say nothing its subtests' cases do not?
	Not when no subtest failed (the others skipped: the parent's
	not ok would be lost), nor when it died otherwise (exit=139, a
	TIMEOUT) than a failed test makes it."""
	if status == Status.PASS:
		return True
	if all(c.status == Status.PASS for c in cases):
		return False
	if status not in BAD:
		return True
	return status == Status.FAIL and node.directive.strip() in _PLAIN_FAIL \
		and any(c.status in BAD for c in cases)


def _suite_from(node: Node, name: str, kind: str, cases: List[Case],
		own: str = '') -> Suite:
	"""own: the program whose result this is when its subtests are the
	cases (a kselftest target has several), named in the message of
	the parent's case; '' for a KUnit suite (its cases are subtests)
	and for a kselftest program without subtests (its case is itself)."""
	suite = Suite(name, kind, cases)
	status, msg = node_status(node)
	if own:
		msg = f'{own}: {msg}'
	if node.ok is None:
		suite.status, suite.message = status, f'{kind} suite {name}: {msg}'
		suite.cases.append(Case('<suite>', status, suite.message))
	elif status in (Status.FAIL, Status.TIMEOUT) and \
			(own or kind == 'kunit') and not _explained(node, status, cases):
		suite.cases.append(Case('<suite>', status, msg))
	return suite


def kunit_suites(level: Level) -> List[Suite]:
	suites = []
	for node in level.nodes:
		cases: List[Case] = []
		for child in node.children:
			cases.extend(leaf_cases(child))
		for problem in node.problems:
			cases.append(Case('<ktap>', Status.FAIL, problem))
		suites.append(_suite_from(node, node.name, 'kunit', cases))
	return suites


def ksft_program(name: str) -> Tuple[str, str]:
	"""(target, program) of a runner result "selftests: T: P"."""
	m = _KSFT_PROG.match(name)
	return (m.group(1), m.group(2)) if m else (name, name)


def kselftest_suites(level: Level, times: Sequence[float] = ()) -> List[Suite]:
	"""Group program results by kselftest target ("selftests: T: P");
	upstream's test_progs gives a case per test_progs result line, timed
	by times (host seconds per console line) when given."""
	suites: dict[str, Suite] = {}
	for node in level.nodes:
		target, prog = ksft_program(node.name)
		cases: List[Case] = []
		for child in node.children:
			cases.extend(leaf_cases(child, prog + '/'))
		for problem in node.problems:
			cases.append(Case(prog + '/<tap>', Status.FAIL, problem))
		if (target, prog) == (upstream.TARGET, upstream.PROGRAM) and not node.children:
			# upstream's test_progs: its own result lines are the cases
			timed = all(i < len(times) for i, _ in node.diag)
			cases = upstream.program_cases(
				[t for _, t in node.diag], *node_status(node),
				[times[i] for i, _ in node.diag] if timed else [])
		elif not node.children:
			status, msg = node_status(node)
			cases.append(Case(prog, status, msg,
					  duration_s=node.duration))
		new = _suite_from(node, target, 'kselftest', cases,
				  prog if node.children else '')
		if target in suites:
			old = suites[target]
			old.cases.extend(new.cases)
			if new.status in (Status.CRASH, Status.TIMEOUT):
				old.status, old.message = new.status, new.message
		else:
			suites[target] = new
	return list(suites.values())


def level_problems(level: Level, what: str) -> List[str]:
	problems = list(level.problems)
	if not level.structured:
		problems.append(f'no {what} output was found in the console log')
	elif level.plan is not None and level.plan != level.in_doc and \
			all(n.ok is not None for n in level.nodes):
		problems.append(f'top-level plan says 1..{level.plan} but '
				f'{level.in_doc} results were reported')
	return problems
