# SPDX-License-Identifier: GPL-2.0
"""Mutant schemata (issue 30; Untch, Offutt and Harrold 1993): one build
holds many mutants, each behind a run-time switch, so that a mutant
needs a boot with its switch on, not a build of its own.

Each mutated line is replaced, on the same line, by a form that picks
the original or one of the line's mutants by the active mutant's number
(`KC_MUTANT(n)`: include/linux/kconform_mutant.h, set by
`kconform.mutant=N` on the command line or at run time in
/sys/module/kconform/parameters/mutant):

- a whole simple statement: `{ if (KC_MUTANT(4)) { m4 } else if
  (KC_MUTANT(5)) { m5 } else { original } }`, one statement where one
  was, so it stays the body of an `if` or `for` without braces;
- the condition of an `if`, `while` or of a `for` head:
  `(KC_MUTANT(4) ? !!(m4) : !!(original))` (only its truth counts);
- an expression whose value counts (a `switch`'s, a `for` head's first
  or last, a declaration's initializer, each of a declaration of
  several names): `(KC_MUTANT(4) ? (m4) : (original))`;
- a statement, or an if/while condition, over several lines (a region):
  each mutant's copy of the whole of it, joined into one line without
  its comments, on its first line; the original stays, and its last
  line closes the switch. Lines keep their numbers.

A line takes a switch only where that is safe without a C parser: a
statement (parentheses balanced from the line before, which ends a
statement or a head), not a declaration (braces would end its scope;
its initializer takes the expression form), a label, a case, or an `if`
with an `else` on the next line. Everything else (a case label, an
array size, a static, a declaration over several lines, a preprocessor
line) is judged batch by batch, with the reason. Every switched file
gets the header's #include as a new first line: a compiler error at line
L of it is line L - 1 of the series tree, and names the mutants to take
out (culprits). A mutant of an __init function runs at boot, before a
loop sets a switch: it is judged by a boot of its own with
kconform.mutant=N on the command line.

The runs (Runner): one build, then per feature a loop boot that runs its
judges once per mutant (the guest's `mutants` script), between two runs
with no mutant on.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

from . import console, guest, mutate, suites
from .model import BAD, KconformError, Kind, Status

INCLUDE = '#include <linux/kconform_mutant.h>'
SHIFT = 1		# the include's line, above every switched line
STMT, BOOL, EXPR = 'statement', 'condition', 'expression'
FORMS = (STMT, BOOL, EXPR)
# the kernel side: the header and the switch, and the object's line
HEADER = 'include/linux/kconform_mutant.h'
SOURCE = 'lib/kconform_mutant.c'
MAKEFILE = 'lib/Makefile'
OBJECT = 'obj-y += kconform_mutant.o'
KERNEL_FILES = Path(__file__).parent / 'schemata'

_NOT_STMT = re.compile(r'^(?:case\b|default\b|else\b|do\b|for\b|while\b|switch\b|'
		       r'typedef\b|static\b|extern\b|register\b|struct\b|union\b|enum\b|'
		       r'const\b|volatile\b|unsigned\b|signed\b|[A-Za-z_]\w*\s*:(?!:)|'
		       r'(?:DEFINE|DECLARE)_\w*\s*\(|L?H?LIST_HEAD\s*\()')
_NOT_TYPE = {'return', 'goto', 'break', 'continue', 'sizeof', 'if', 'else', 'case',
	     'do', 'while', 'for', 'switch', 'default'}
# `type name`, `type *name`: a declaration (the first word a type)
_DECL = re.compile(r'^([A-Za-z_]\w*)(?:\s+|\s*\*[\s*]*)(?:const\s+)?[A-Za-z_]\w*\s*[=;,\[]')
_INIT = re.compile(r'^(?:const\s+)?(?:(?:struct|union|enum|unsigned|signed|long|short)\s+)*'
		   r'[A-Za-z_]\w*(?:\s+|\s*\*[\s*]*)(?:const\s+)?[A-Za-z_]\w*\s*=(?!=)\s*')
# a label or a case: kernel style writes `out:`, while a ternary's
# `a :` over several lines has a space before its colon
_LABELLED = re.compile(r'^(?:case\b.*|default\s*|[A-Za-z_]\w*):$')
_HEAD = re.compile(r'\b(if|while|switch|for)\s*\(')


@dataclass(frozen=True)
class Slot:
	"""A part of a line a switch can replace: [start, end) of it."""
	start: int
	end: int
	form: str


@dataclass
class Schemata:
	"""The switched form of a set of mutants: one patch for every file."""
	numbers: Dict[str, int] = field(default_factory=dict)	# mutant id -> n
	forms: Dict[str, str] = field(default_factory=dict)	# mutant id -> form
	fallback: Dict[str, str] = field(default_factory=dict)	# mutant id -> why not
	patch: str = ''
	# (file, line of the series tree) -> the mutant ids switched there
	lines: Dict[Tuple[str, int], List[str]] = field(default_factory=dict)
	# (file, line) -> its switched text and where each mutant's text is
	# in it (start, end, number): a compiler error's column names one
	switched: Dict[Tuple[str, int], Tuple[str, List[Tuple[int, int, int]]]] = \
		field(default_factory=dict)
	# the switched mutants of __init functions: they run at boot, before
	# a loop sets a switch, so each is judged by a boot of its own with
	# kconform.mutant=N on the command line
	boot: Set[str] = field(default_factory=set)


def at_boot(lines: Sequence[str], fns: Sequence[mutate.Function], line: int) -> bool:
	"""Is line in an __init function (run once, at boot)?"""
	fn = next((f for f in fns if f.first <= line <= f.last), None)
	return fn is not None and '__init' in re.findall(r'\w+', ' '.join(
		lines[fn.first - 1:fn.brace]))


def depths(code: Sequence[str]) -> List[int]:
	"""The parenthesis and bracket depth at the start of each masked line."""
	out = []
	depth = 0
	for text in code:
		out.append(depth)
		depth += sum(text.count(c) for c in '([') - sum(text.count(c) for c in ')]')
	return out


def _balanced(text: str) -> bool:
	depth = 0
	for ch in text:
		if ch in '([':
			depth += 1
		elif ch in ')]':
			depth -= 1
			if depth < 0:
				return False
	return depth == 0


def _near(code: Sequence[str], i: int, step: int) -> Tuple[int, str]:
	"""The nearest line with code before (step -1) or after (+1) line
	index i: (its index, its stripped mask); (-1, '') if none."""
	j = i + step
	while 0 <= j < len(code):
		if code[j].strip():
			return j, code[j].strip()
		j += step
	return -1, ''


def _ends_statement(prev: str, line: str) -> bool:
	"""Can the statement on line start after the line prev (stripped
	masks; the line starts at depth 0)?"""
	if not prev or prev[-1] in ';{}':
		return True
	if _LABELLED.match(prev) or prev in ('else', '} else'):
		return True
	# the end of a head (`if (...)`, over one line or several, a
	# for-each macro's): a name after a `)` cannot continue an
	# expression, as `*p` or `- x` could
	return prev.endswith(')') and bool(re.match(r'[A-Za-z_]', line))


def _statement(code: Sequence[str], deep: Sequence[int], i: int) -> Optional[Slot]:
	"""The whole line as a statement, from its first character to its
	last ';' (a comment after it stays out), or None."""
	text = code[i]
	s = text.strip()
	if deep[i] != 0 or not s.endswith(';') or '{' in s or '}' in s or not _balanced(s):
		return None
	if _NOT_STMT.match(s):
		return None
	d = _DECL.match(s)
	if d and d.group(1) not in _NOT_TYPE:
		return None
	_, prev = _near(code, i, -1)
	if not _ends_statement(prev, s):
		return None
	if s.startswith('if'):
		_, after = _near(code, i, 1)
		if re.match(r'else\b', after):
			return None	# the else would lose its if
	start = len(text) - len(text.lstrip())
	return Slot(start, text.rstrip().rindex(';') + 1, STMT)


def _parts(text: str, start: int, end: int, sep: str) -> List[Tuple[int, int]]:
	"""[a, b) of each sep-separated part of text[start:end] at depth 0,
	without the spaces around it."""
	out = []
	depth = 0
	begin = start
	for k in range(start, end + 1):
		ch = text[k] if k < end else sep
		if ch in '([':
			depth += 1
		elif ch in ')]':
			depth -= 1
		elif ch == sep and depth == 0:
			a, b = begin, k
			while a < b and text[a].isspace():
				a += 1
			while b > a and text[b - 1].isspace():
				b -= 1
			out.append((a, b))
			begin = k + 1
	return out


def _heads(code: Sequence[str], deep: Sequence[int], i: int) -> List[Slot]:
	"""The conditions and expressions of the heads (if, while, switch,
	for) on a line whose parentheses close on it, and a declaration's
	initializer."""
	text = code[i]
	out = []
	for m in _HEAD.finditer(text):
		end = mutate._close(text, m.end() - 1)
		if end < 0:
			continue
		inner = [(a, b) for a, b in _parts(text, m.end(), end, ';')]
		kw = m.group(1)
		if kw in ('if', 'while') and len(inner) == 1:
			out.append(Slot(*inner[0], BOOL))
		elif kw == 'switch' and len(inner) == 1:
			out.append(Slot(*inner[0], EXPR))
		elif kw == 'for' and len(inner) == 3:
			(a0, b0), (a1, b1), (a2, b2) = inner
			first = text[a0:b0]
			# an assignment, not a declaration (its scope is the loop)
			if b0 > a0 and not _DECL.match(first) and \
					len(_parts(text, a0, b0, ',')) == 1:
				out.append(Slot(a0, b0, EXPR))
			if b1 > a1:
				out.append(Slot(a1, b1, BOOL))
			if b2 > a2:
				out.append(Slot(a2, b2, EXPR))
	s = text.strip()
	lead = len(text) - len(text.lstrip())
	init = _INIT.match(s)
	decl = init or _DECL.match(s)
	if deep[i] == 0 and decl and s.endswith(';') and '{' not in s and '}' not in s and \
			decl.group(0).split()[0] not in _NOT_TYPE and _balanced(s):
		a, b = lead + (init.end() if init else 0), lead + len(s) - 1
		while b > a and text[b - 1].isspace():
			b -= 1
		if init and len(_parts(text, a, b, ',')) == 1:
			out.append(Slot(a, b, EXPR))
		else:
			out += _declarators(text, lead, lead + len(s) - 1)
	return out


def _declarators(text: str, start: int, end: int) -> List[Slot]:
	"""The initializers of a declaration of several names
	(`int pos, err = 0;`), each an expression slot."""
	out = []
	for a, b in _parts(text, start, end, ','):
		eq = re.search(r'(?<![=!<>])=(?!=)\s*', text[a:b])
		if eq and _balanced(text[a:a + eq.start()]) and b > a + eq.end():
			out.append(Slot(a + eq.end(), b, EXPR))
	return out


def slots(code: Sequence[str], deep: Sequence[int], i: int) -> List[Slot]:
	"""Where a switch can go on line index i of a masked file: the whole
	statement, else its heads' parts and initializer (disjoint)."""
	whole = _statement(code, deep, i)
	return [whole] if whole else _heads(code, deep, i)


def _span(before: str, after: str) -> Tuple[int, int]:
	"""[p, q) of before that after changes (common prefix and suffix
	taken off)."""
	p = 0
	while p < min(len(before), len(after)) and before[p] == after[p]:
		p += 1
	q = 0
	while q < min(len(before), len(after)) - p and before[-1 - q] == after[-1 - q]:
		q += 1
	return p, len(before) - q


def place(before: str, after: str, where: Sequence[Slot]) -> Optional[Slot]:
	"""The slot holding a mutant's change, or None."""
	p, q = _span(before, after)
	return next((s for s in where if s.start <= p and q <= s.end), None)


def _variant(before: str, after: str, slot: Slot) -> str:
	"""The slot's text in the mutant's line."""
	return after[slot.start:slot.end + len(after) - len(before)]


Piece = Tuple[str, int]		# text, and the mutant's number it is of (0: none)


def switch(original: str, form: str, variants: Sequence[Tuple[int, str]]) -> List[Piece]:
	"""The switched text of a slot, in pieces: each (number, mutated
	text) before the original."""
	out: List[Piece] = []
	if form == STMT:
		# in braces: the body of an `if` followed by an `else` (an
		# inner if-else there draws gcc's -Wdangling-else)
		out.append(('{ ', 0))
		for n, text in variants:
			out += [(f'if (KC_MUTANT({n})) {{ ', 0), (text, n), (' } else ', 0)]
		return out + [(f'{{ {original} }} }}', 0)]
	wrap = '!!' if form == BOOL else ''
	out.append(('(', 0))
	for n, text in variants:
		out += [(f'KC_MUTANT({n}) ? {wrap}(', 0), (text, n), (') : ', 0)]
	return out + [(f'{wrap}({original}))', 0)]


def switch_line(line: str, placed: Sequence[Tuple[int, str, Slot]]) -> List[Piece]:
	"""The line with every (number, mutant line, slot) switched, in
	pieces; the slots are disjoint."""
	by_slot: Dict[Slot, List[Tuple[int, str]]] = {}
	for n, after, slot in placed:
		by_slot.setdefault(slot, []).append((n, _variant(line, after, slot)))
	out: List[Piece] = []
	at = 0
	for slot in sorted(by_slot, key=lambda s: s.start):
		out += [(line[at:slot.start], 0)] + switch(line[slot.start:slot.end], slot.form,
							     by_slot[slot])
		at = slot.end
	return out + [(line[at:], 0)]


def arms(pieces: Sequence[Piece]) -> List[Tuple[int, int, int]]:
	"""(start, end, number): where each mutant's text is in the line."""
	out = []
	at = 0
	for text, n in pieces:
		if n:
			out.append((at, at + len(text), n))
		at += len(text)
	return out


def _why(code: str, deep: int) -> str:
	"""Why no switch holds a change of this (masked) line."""
	s = code.strip()
	if deep or not s.endswith((';', '{', ')', ':')):
		return MULTI
	if re.match(r'(?:case\b|default\b)', s):
		return 'a case label (a constant expression)'
	if '{' in s and '=' in s:
		return 'a braced initializer'
	d = _DECL.match(s)
	if d and d.group(1) not in _NOT_TYPE or re.match(r'(?:static|const|struct|unsigned)\b', s):
		return 'a declaration (an array size, a static)'
	return 'no switchable part holds the change'


@dataclass(frozen=True)
class Region:
	"""A statement or an if/while condition over several lines: from
	column start of line index first to column end of line index last."""
	first: int
	last: int
	start: int
	end: int
	form: str


REGION_LINES = 12	# the longest statement or condition a region takes
MULTI = 'a line of a statement over several lines'


def _uncomment(line: str) -> Optional[str]:
	"""The line without its comments, when they open and close on it
	and no quote is on it; None: cannot tell (a // would end a joined
	line)."""
	if '/*' not in line and '*/' not in line and '//' not in line:
		return line
	if '"' in line or "'" in line:
		return None
	line = re.sub(r'/\*.*?\*/', ' ', line)
	line = re.sub(r'//.*$', '', line)
	return None if '/*' in line or '*/' in line else line


def _clean(lines: Sequence[str], code: Sequence[str], a: int, b: int) -> bool:
	"""Can lines a..b be joined into one? Their comments (whole on a
	line) go; no preprocessor line, no continuation backslash."""
	return all(_uncomment(lines[k]) is not None and not lines[k].rstrip().endswith('\\')
		   and not lines[k].lstrip().startswith('#') for k in range(a, b + 1))


def _first(code: Sequence[str], deep: Sequence[int], i: int) -> int:
	"""The first line of the statement or head that line index i is in
	(-1: not found within REGION_LINES)."""
	a = i
	for _ in range(REGION_LINES):
		p, prev = _near(code, a, -1)
		if deep[a] == 0 and _ends_statement(prev, code[a].strip()):
			return a
		if p < 0:
			return -1
		a = p
	return -1


def region(lines: Sequence[str], code: Sequence[str], deep: Sequence[int],
	   i: int) -> Optional[Region]:
	"""The statement (a whole one, not a declaration) or the condition of
	an if or while head over several lines that holds line index i."""
	a = _first(code, deep, i)
	if a < 0:
		return None
	head = re.match(r'\s*(?:\}\s*)?(?:else\s+)?(if|while|for|switch)\s*\(', code[a])
	depth = 0
	for b in range(a, min(len(code), a + REGION_LINES)):
		text = code[b]
		for k, ch in enumerate(text):
			if b == a and head and k < head.end() - 1:
				continue
			if ch in '([':
				depth += 1
			elif ch in ')]':
				depth -= 1
				if head and depth == 0:
					if head.group(1) not in ('if', 'while') or b == a or i > b:
						return None
					return Region(a, b, head.end(), k, BOOL) \
						if _clean(lines, code, a, b) else None
			elif ch in '{}' and not head:
				return None
		if not head and depth == 0 and text.strip().endswith(';'):
			s = ' '.join(c.strip() for c in code[a:b + 1])
			d = _DECL.match(s)
			if b == a or i > b or _NOT_STMT.match(s) or re.match(r'(?:if|return\s*;)', s) \
					or (d and d.group(1) not in _NOT_TYPE) or not _clean(lines, code, a, b):
				return None
			first = code[a]
			return Region(a, b, len(first) - len(first.lstrip()),
				      text.rstrip().rindex(';') + 1, STMT)
	return None


def _in_region(r: Region, i: int, before: str, after: str) -> bool:
	"""Is a mutant's change of line index i inside the region?"""
	p, q = _span(before, after)
	return (i != r.first or p >= r.start) and (i != r.last or q <= r.end)


def region_text(r: Region, lines: Sequence[str], i: int, after: str) -> str:
	"""The region as one line, with line index i as the mutant has it."""
	seg = list(lines[r.first:r.last + 1])
	seg[i - r.first] = after
	end = r.end + (len(after) - len(lines[i]) if i == r.last else 0)
	parts = [seg[0][r.start:]] + [s.strip() for s in seg[1:-1]] + [seg[-1][:end].strip()]
	# comments go (_clean said they can); strings keep their spaces
	return ' '.join((_uncomment(p) or p).strip() for p in parts if p.strip())


def switch_region(r: Region, lines: Sequence[str],
		  variants: Sequence[Tuple[int, str]]) -> Tuple[List[Piece], str]:
	"""The region's first line, in pieces (each mutant's copy of the
	whole region in it, before the original), and its last line."""
	first = lines[r.first]
	out: List[Piece] = [(first[:r.start], 0)]
	if r.form == STMT:
		out.append(('{ ', 0))
		for n, text in variants:
			out += [(f'if (KC_MUTANT({n})) {{ ', 0), (text, n), (' } else ', 0)]
		out.append(('{ ', 0))
		suffix = ' } }'
	else:
		out.append(('(', 0))
		for n, text in variants:
			out += [(f'KC_MUTANT({n}) ? !!(', 0), (text, n), (') : ', 0)]
		out.append(('!!(', 0))
		suffix = '))'
	out.append((first[r.start:], 0))
	last = lines[r.last]
	return out, last[:r.end] + suffix + last[r.end:]


Placed = Dict[int, List[Tuple[str, str, Slot]]]	# line index -> (id, mutant line, slot)
Regions = Dict[Region, List[mutate.Mutant]]


def _place(path: str, lines: Sequence[str], mutants: Sequence[mutate.Mutant],
	   out: Schemata) -> Tuple[Placed, Regions]:
	"""Where each mutant of one file is switched: a slot of its line, a
	region of several lines, or neither (out.fallback, with why)."""
	code = mutate.mask(lines)
	deep = depths(code)
	placed: Placed = {}
	regions: Regions = {}
	for m in sorted(mutants, key=lambda m: (m.line, mutate.OPERATORS.index(m.operator), m.n)):
		i = m.line - 1
		if lines[i] != m.before:
			out.fallback[m.id] = 'the line is not the mutant\'s any more'
			continue
		slot = place(lines[i], m.after, slots(code, deep, i))
		if slot is not None:
			placed.setdefault(i, []).append((m.id, m.after, slot))
			out.forms[m.id] = slot.form
			continue
		r = region(lines, code, deep, i)
		if r is not None and _in_region(r, i, lines[i], m.after):
			regions.setdefault(r, []).append(m)
		else:
			out.fallback[m.id] = _why(code[i], deep[i])
	for r, inside in list(regions.items()):
		# a line of the region with a switch of its own: neither
		if any(k in placed for k in range(r.first, r.last + 1)):
			out.fallback.update({m.id: MULTI for m in inside})
			del regions[r]
		else:
			out.forms.update({m.id: r.form for m in inside})
	fns = mutate.functions(lines)
	out.boot.update(m.id for m in mutants if m.id in out.forms and at_boot(lines, fns, m.line))
	return placed, regions


def _switch_file(path: str, lines: Sequence[str], placed: Placed, regions: Regions,
		 out: Schemata) -> str:
	"""The file's diff, its switches numbered (out.numbers), each
	switch's line and where its mutants' texts are recorded in out."""
	new = list(lines)
	for i, these in placed.items():
		pieces = switch_line(lines[i], [(out.numbers[mid], after, slot)
						for mid, after, slot in these])
		new[i] = ''.join(text for text, _ in pieces)
		out.switched[(path, i + 1)] = (new[i], arms(pieces))
		out.lines[(path, i + 1)] = [mid for mid, _, _ in these]
	for r, ms in regions.items():
		pieces, new[r.last] = switch_region(r, lines, [
			(out.numbers[m.id], region_text(r, lines, m.line - 1, m.after)) for m in ms])
		new[r.first] = ''.join(text for text, _ in pieces)
		out.switched[(path, r.first + 1)] = (new[r.first], arms(pieces))
		out.lines[(path, r.first + 1)] = [m.id for m in ms]
	return ''.join(difflib.unified_diff(
		[l + '\n' for l in lines], [l + '\n' for l in [INCLUDE] + new],
		f'a/{path}', f'b/{path}', n=3))


def build(mutants: Sequence[mutate.Mutant],
	  read: Callable[[str], List[str]]) -> Schemata:
	"""The schemata of mutants (one number per distinct id, in the order
	given: a feature's mutants get consecutive numbers when they come
	sorted by feature); read(path) gives a file's lines."""
	out = Schemata()
	ids: Dict[str, mutate.Mutant] = {}
	for m in mutants:
		ids.setdefault(m.id, m)
	files = {path: read(path) for path in sorted({m.file for m in ids.values()})}
	where = {path: _place(path, lines, [m for m in ids.values() if m.file == path], out)
		 for path, lines in files.items()}
	for m in ids.values():
		if m.id in out.forms:
			out.numbers[m.id] = len(out.numbers) + 1
	for path, (placed, regions) in where.items():
		if placed or regions:
			out.patch += _switch_file(path, files[path], placed, regions, out)
	return out


def kernel_patch(read: Callable[[str], List[str]]) -> str:
	"""The switch itself: the header, lib/kconform_mutant.c and its line
	in lib/Makefile (read: the tree's lines of a file)."""
	out = ''
	for path in (HEADER, SOURCE):
		text = (KERNEL_FILES / Path(path).name).read_text().splitlines()
		out += f'--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{len(text)} @@\n' + \
			''.join(f'+{l}\n' for l in text)
	make = read(MAKEFILE)
	out += ''.join(difflib.unified_diff(
		[l + '\n' for l in make], [l + '\n' for l in make + [OBJECT]],
		f'a/{MAKEFILE}', f'b/{MAKEFILE}', n=3))
	return out


_ERROR = re.compile(r'^(\S+?):(\d+):(?:(\d+):)? (error|note: in expansion of macro)')


def culprits(log: Sequence[str], schemata: Schemata) -> Tuple[Set[str], List[str]]:
	"""The mutants a failed schemata build's compiler errors name (an
	error at line L of a switched file is at line L - SHIFT of the
	series tree; its column, when it falls in one mutant's text, names
	that one, else every mutant of the line), and the error lines that
	name none."""
	named: Set[str] = set()
	other = []
	files = {f for f, _ in schemata.lines}
	by_number = {n: i for i, n in schemata.numbers.items()}
	for line in log:
		m = _ERROR.match(line)
		if not m:
			continue
		path = next((f for f in files if m.group(1) == f or m.group(1).endswith('/' + f)),
			    None)
		where = (path or '', int(m.group(2)) - SHIFT)
		ids = schemata.lines.get(where, [])
		if ids and m.group(3) and where in schemata.switched:
			text, spans = schemata.switched[where]
			# clang's column counts bytes from 1 (a tab is one;
			# TOOLCHAIN is LLVM's, gcc would count display columns)
			at = int(m.group(3)) - 1
			ids = [by_number[n] for a, b, n in spans if a <= at < b] or ids
		named.update(ids)
		if not ids and m.group(4) == 'error':
			other.append(line)
	return named, other


def summary(mutants: Sequence[mutate.Mutant], schemata: Schemata,
	    dropped: Optional[Dict[str, str]] = None) -> List[str]:
	"""Per feature: the mutants, those switched by form, those judged
	batch by batch; then why, counted (no switch fits the line, or the
	switch did not compile: dropped)."""
	rows: List[Tuple[str, ...]] = [('feature', 'mutants', 'switched', *FORMS,
					'batch by batch')]
	for f in sorted({m.feature for m in mutants}):
		mine = [m for m in mutants if m.feature == f]
		forms = [schemata.forms.get(m.id, '') for m in mine]
		rows.append((f, str(len(mine)), str(sum(1 for x in forms if x)),
			     *(str(forms.count(x)) for x in FORMS),
			     str(sum(1 for x in forms if not x))))
	out = mutate._table(rows)
	reasons: Dict[str, int] = {}
	for why in {**schemata.fallback, **(dropped or {})}.values():
		reasons[why] = reasons.get(why, 0) + 1
	out += [f'batch by batch: {n} {why}'
		for why, n in sorted(reasons.items(), key=lambda r: -r[1])]
	boot = sum(1 for m in mutants if m.id in schemata.boot)
	if boot:
		out.append(f'switched, a boot each (in an __init function): {boot}')
	return out


# -- the runs -----------------------------------------------------------------

_MARK = re.compile(r'kconform: mutant (\d+) (begin|end)(?: (-?\d+))?\s*$')
SWITCH_PARAM, LOOP_PARAM = guest.MUTANT_PARAMS
# a kselftest loop kills a mutant's tests that outlive its share of the
# boot (guest/mutants --deadline; a netlink_intro mutant slowed every
# case to its 30 s harness timeout and took over ten minutes), after a
# line that gives the mutant a timed-out case of its own
DEADLINE_PARAM = 'kconform.mutant_deadline'
_DEADLINE = re.compile(r'kconform: mutant \d+ past its deadline of \d+ s')
DEADLINE_CASE = '<mutant deadline>'
# a boot with mutants on panics (and so ends: panic=-1, QEMU's
# -no-reboot) where a mutant broke the kernel beyond its next case: on an
# oops, as KUnit's boots always do (kunitrun.KERNEL_ARGS; a netlink_intro
# mutant oopsed with a lock held, and the guest sat silent until
# --silence-timeout ended it), and on an RCU stall (a task_iter mutant
# looped in task_seq_get_next(), and the stall warnings every 21 s kept
# the console from falling silent towards a 42-minute timeout)
ON_MUTANT = ('oops=panic', 'sysctl.kernel.panic_on_rcu_stall=1')
LOOP_LOG = 'guest-console.log'
BUILD_LOG = 'guest-build.log'
# --out's record of the switches a build found not to compile (id ->
# the mutated line), left out of the next run's first build at once
DROPPED = 'schemata-dropped.json'
NOT_COMPILING = 'its switch does not compile'


@dataclass
class Segment:
	"""The console of one mutant of the guest's loop (guest/mutants)."""
	number: int
	lines: List[str] = field(default_factory=list)
	ended: bool = False	# False: the boot ended inside it (a crash, a hang)


def segments(raw: Sequence[str]) -> List[Segment]:
	"""The loop boot's console cut at its marker lines, one segment per
	mutant begun; what comes before the first and after an end is no
	mutant's."""
	out: List[Segment] = []
	current: Optional[Segment] = None
	for line in raw:
		m = _MARK.search(line)
		if m and m.group(2) == 'begin':
			current = Segment(int(m.group(1)))
			out.append(current)
		elif m and current is not None and int(m.group(1)) == current.number:
			current.ended = True
			current = None
		elif current is not None:
			current.lines.append(line)
	return out


def judged(seg: Segment, kind: str, expected: Sequence[str]) -> mutate.Outcome:
	"""A mutant's cases from its segment of a loop boot: those its
	console shows (a boot that ended inside it: the rest gone), and
	DEADLINE_CASE timed out when the loop killed its tests."""
	got = mutate.Outcome(True, {
		(s.kind, s.name, c.name): c.status
		for s in console.suites_from_console(seg.lines, kind, expected, not seg.ended,
						     BOOT_CASE[Kind(kind)])
		for c in s.cases})
	if any(_DEADLINE.search(line) for line in seg.lines):
		got.cases[(str(kind), BOOT_CASE[Kind(kind)], DEADLINE_CASE)] = Status.TIMEOUT
	return got


def ranges(numbers: Sequence[int]) -> str:
	"""3,7-9: the loop's list, in the order given, runs of consecutive
	numbers as ranges (a feature's mutants are numbered together, so
	its list stays short on the command line)."""
	runs: List[List[int]] = []
	for n in numbers:
		if runs and n == runs[-1][-1] + 1:
			runs[-1].append(n)
		else:
			runs.append([n])
	return ','.join(str(r[0]) if len(r) == 1 else f'{r[0]}-{r[-1]}' for r in runs)


def merged(outs: Sequence[mutate.Outcome]) -> mutate.Outcome:
	"""The outcomes of a batch's boots as one (each boot ran its
	mutant's judges only, and a batch's judges do not overlap); a case
	two boots ran is as bad as the worse."""
	out = mutate.Outcome(all(o.built for o in outs),
			     error='\n'.join(o.error for o in outs if o.error),
			     ran={k: v for o in outs for k, v in o.ran.items()})
	for o in outs:
		for k, s in o.cases.items():
			if k not in out.cases or s in BAD:
				out.cases[k] = s
	return out


@dataclass(frozen=True)
class Judging:
	"""Who judges what, per kind (mutate.judges, mutate.judging)."""
	judges: Dict[str, Set[str]]		# feature -> the suites judging it
	kinded: Dict[str, Set[str]]		# kind -> the suites with cases of it
	# kind -> suite -> the console's suites of its cases (KUnit: its
	# KTAP suites; kselftest: its target, upstream's when they judge)
	names: Dict[str, Dict[str, List[str]]]
	# suite -> its kselftest target's case time on the variant (s)
	seconds: Dict[str, float] = field(default_factory=dict)
	# feature -> (target, program): of the targets judging its mutants,
	# the programs its loop runs (suites.toml mutant_programs)
	programs: Dict[str, Tuple[Tuple[str, str], ...]] = field(default_factory=dict)

	def cases(self, kind: str, feature: str, expected: Sequence[str]) -> List[str]:
		"""run --case globs of a feature's loop: its programs of the
		targets it narrows, every case of the other suites ([] if it
		narrows none)."""
		mine = self.programs.get(feature, ()) if kind == Kind.KSELFTEST else ()
		narrowed = {t for t, _ in mine}
		return [f'{t}.{p}/*' for t, p in mine] + \
			[f'{n}.*' for n in expected if n not in narrowed] if mine else []

	def ran(self, kind: str, feature: str) -> Dict[Tuple[str, str], FrozenSet[str]]:
		"""Outcome.ran of a feature's loop: (kind, target) -> its
		programs, for each target it narrows."""
		mine = self.programs.get(feature, ()) if kind == Kind.KSELFTEST else ()
		return {(str(kind), t): frozenset(p for u, p in mine if u == t) for t, _ in mine}

	def suites(self, kind: str, features: Sequence[str]) -> List[str]:
		return sorted(set().union(*(self.judges.get(f, {f}) for f in features)) &
			      self.kinded.get(str(kind), set()))

	def expected(self, kind: str, suites_: Sequence[str]) -> List[str]:
		return sorted({n for s in suites_ for n in self.names.get(str(kind), {}).get(s, [])})

	def per_mutant(self, kind: str, suites_: Sequence[str]) -> int:
		"""A mutant's share of a loop boot's timeout (s): three times
		its targets' case time, a minute at least."""
		if kind == Kind.KUNIT:
			return PER_KUNIT_MUTANT
		return max(60, int(3 * sum(self.seconds.get(s, 0.0) for s in suites_)))


# a loop boot's time besides its mutants (s), a KUnit mutant's share, and
# how long a loop boot may take before the rest goes to the next (a stop
# of the run loses the boot it is in)
LOOP_BASE = 600
PER_KUNIT_MUTANT = 60
LOOP_BUDGET = 1800
# a boot with mutants on whose console is silent this long (s), or for a
# mutant's share and two minutes where that is longer, is ended as a
# timeout: a mutant wedged the kernel (a netlink_intro mutant's oops left
# a lock held, and its loop boot sat silent towards its 42-minute timeout)
SILENCE = 300
TIMEOUT_OPTION = {Kind.KUNIT: '--kunit-timeout', Kind.KSELFTEST: '--guest-timeout'}
CONSOLE = {Kind.KUNIT: 'kunit-console.log', Kind.KSELFTEST: 'guest-console.log'}
BOOT_CASE = {Kind.KUNIT: '<kunit boot>', Kind.KSELFTEST: '<guest boot>'}
KUNIT_SUITES = 'kconform.kunit_suites'


def silence(per: int) -> int:
	"""--silence-timeout of a boot with mutants on, a mutant's share of
	its time being per (s)."""
	return max(SILENCE, per + 120)


class Runner:
	"""mutate's Runner on one build holding the switched mutants and the
	switch (run --patch, twice: the schemata and the kernel side). The
	baseline is a boot with no mutant on. A mutant's cases come from its
	feature's loop boot (kconform.mutants=: the judging suites once per
	mutant not judged yet, guest/mutants; KUnit's built-in suites through
	/sys/kernel/debug/kconform_kunit after they ran at boot), kept until
	evaluate() asks for them, so that its rerun one at a time boots
	nothing again. A mutant the boot ended inside (a crash, a hang) has
	the cases its console shows, the rest gone (killed, as a crash
	kills), and the next ask boots the loop again from the mutant after
	it.

	prepare() builds first: a build that fails is built again without
	the mutants its compiler errors name (culprits), which go back to
	the build per batch (dropped), as do all when an error names none."""

	def __init__(self, main: Callable[[Sequence[str]], int], out: Path, variant: str,
		     extra: Sequence[str], order: Sequence[mutate.Mutant],
		     read: Callable[[str], List[str]], judging: Judging) -> None:
		self.main = main
		self.out = out
		self.variant = variant
		self.extra = list(extra)
		self.order = list(order)
		# each file's lines as they were at its first read, before any
		# run: a run leaves its patches in the tree it built (a schemata
		# made again without a switch that did not compile, from the
		# patched tree, matched no mutant)
		self.read = functools.cache(read)
		self.judging = judging
		self.dropped: Dict[str, str] = self._not_compiling()	# id -> why its switch is out
		self.schemata = build([m for m in self.order if m.id not in self.dropped], self.read)
		self.baselines: Dict[str, mutate.Outcome] = {}
		self.seen: Dict[Tuple[str, str], mutate.Outcome] = {}	# (kind, key)
		# (kind, key) of the mutants run_all will ask about (a KUnit
		# kill, a journal's verdict: not in the kselftest loop)
		self.todo: Set[Tuple[str, str]] = set()
		# (kind, key) of the mutants to judge in a loop of their own
		self.alone: Set[Tuple[str, str]] = set()
		self.runs = 0

	def _not_compiling(self, found: Sequence[str] = ()) -> Dict[str, str]:
		"""The switches an earlier run on this --out found not to compile
		(the same mutated line), with found added to its record."""
		try:
			was = json.loads((self.out / DROPPED).read_text())
		except (OSError, ValueError):
			was = {}
		after = {m.id: m.after for m in self.order}
		known = {i: a for i, a in (was.items() if isinstance(was, dict) else ())
			 if after.get(i) == a}
		if found:
			known.update({i: after[i] for i in found})
			(self.out / DROPPED).write_text(json.dumps(known, indent=1, sort_keys=True) + '\n')
		return dict.fromkeys(known, NOT_COMPILING)

	def judge(self, chosen: Sequence[mutate.Mutant], kinds: Sequence[str],
		  specs: Sequence[suites.SuiteSpec], equivalents: Dict[str, str],
		  batched: mutate.Runner, files_of: Dict[str, Set[str]],
		  baseline: Optional[mutate.Outcome], upstream_runs: bool,
		  journal: Optional[mutate.Journal]) -> List[mutate.Verdict]:
		"""run() on these boots, and --out's schemata.txt: what mutate
		calls instead of run_all."""
		got = run(chosen, kinds, specs, equivalents, self, batched, files_of,
			  baseline, upstream_runs, journal)
		(self.out / REPORT).write_text('\n'.join(report(chosen, self)) + '\n')
		return got

	def planned(self, kind: str, mutants: Sequence[mutate.Mutant]) -> None:
		"""run_all's hook: the mutants kind will judge."""
		self.todo |= {(str(kind), m.key) for m in mutants}

	def switched(self) -> List[mutate.Mutant]:
		return [m for m in self.order if m.id in self.schemata.numbers]

	def _run(self, tag: str, kind: str, suites_: Sequence[str],
		 cmdline: Sequence[str], timeout: int = 0, silence: int = 0,
		 cases: Sequence[str] = ()) -> Path:
		folder = self.out / 'runs' / tag
		shutil.rmtree(folder, ignore_errors=True)
		(folder / 'patches').mkdir(parents=True)
		argv = ['run', '--variant', self.variant, '--kind', kind, '--retries', '0',
			'--out', str(folder), *(a for s in suites_ for a in ('--suite', s)),
			*(a for c in cases for a in ('--case', c)),
			*(a for w in cmdline for a in ('--cmdline', w))]
		for name, text in (('00-schemata.patch', self.schemata.patch),
				   ('01-switch.patch', kernel_patch(self.read))):
			(folder / 'patches' / name).write_text(text)
			argv += ['--patch', str(folder / 'patches' / name)]
		# after --run-args: a loop boot needs its own timeout
		argv += self.extra + ([TIMEOUT_OPTION[Kind(kind)], str(timeout)] if timeout else []) \
			+ (['--silence-timeout', str(silence)] if silence else [])
		print(f'kconform: mutate: {tag}: schemata of {len(self.schemata.numbers)} '
		      f'mutant(s), {" ".join(cmdline) or "no mutant on (baseline)"}', flush=True)
		self.runs += 1
		self.main(argv)
		return folder

	def prepare(self, kind: str, features: Sequence[str], tag: str) -> mutate.Outcome:
		"""The build (and the baseline boot of kind), culprits taken out
		until it builds."""
		while True:
			folder = self._run(tag, kind, self.judging.suites(kind, features)
					   if kind != Kind.KUNIT else [], [])
			got = mutate.outcome(folder / 'results.json')
			if got.built or not self.schemata.numbers:
				break
			log = folder / BUILD_LOG
			named, other = culprits(log.read_text(errors='replace').splitlines()
						if log.exists() else [], self.schemata)
			if not named or other:
				why = 'the schemata build failed: ' + (other or [got.error])[0]
				print(f'kconform: mutate: {why}: every mutant goes batch by batch',
				      flush=True)
				self.dropped.update({i: why for i in self.schemata.numbers})
				self.schemata = Schemata(fallback=self.schemata.fallback)
				continue	# the baseline again, with nothing switched
			print(f'kconform: mutate: the schemata build failed; the compiler '
			      f'names {len(named)} switch(es), built again without them: '
			      f'{", ".join(sorted(named))}', flush=True)
			self.dropped.update(self._not_compiling(sorted(named)))
			self.schemata = build([m for m in self.order if m.id not in self.dropped],
					      self.read)
		self.baselines[kind] = got
		return got

	def __call__(self, mutants: Sequence[mutate.Mutant], kind: str,
		     features: Sequence[str], tag: str) -> mutate.Outcome:
		if not mutants:
			return self.baselines.get(kind) or self.prepare(kind, features, tag)
		for m in mutants:
			if m.id in self.schemata.boot and (kind, m.key) not in self.seen:
				self._boot(m, kind, tag)
			# a kill in a boot some mutant's state spoilt: again, alone
			while (kind, m.key) not in self.seen:
				self._loop(m, kind, tag)
		return merged([self.seen[(kind, m.key)] for m in mutants])

	def _boot(self, m: mutate.Mutant, kind: str, tag: str) -> None:
		"""A mutant of an __init function: a boot with its switch on from
		the command line (KUnit: every suite, as batch by batch)."""
		n = self.schemata.numbers[m.id]
		suites_ = self.judging.suites(kind, [m.feature])
		folder = self._run(f'{tag}-boot-{n}', kind, suites_ if kind != Kind.KUNIT else [],
				   [f'{SWITCH_PARAM}={n}', *ON_MUTANT],
				   silence=silence(self.judging.per_mutant(kind, suites_)))
		self.seen[(kind, m.key)] = mutate.outcome(folder / 'results.json')

	def _pending(self, first: mutate.Mutant, kind: str, per: int) -> List[mutate.Mutant]:
		"""The mutants of first's loop boot: first and those after it in
		its feature that the kind judges and have no cases yet."""
		if (str(kind), first.key) in self.alone:
			return [first]
		mine = [m for m in self.switched() if m.feature == first.feature
			and m.id not in self.schemata.boot]
		pending = [m for m in mine[mine.index(first):] if (kind, m.key) not in self.seen
			   and (m is first or (str(kind), m.key) in self.todo and
				(str(kind), m.key) not in self.alone)]
		return pending[:max(1, LOOP_BUDGET // per)]

	def _loop(self, first: mutate.Mutant, kind: str, tag: str) -> None:
		"""One loop boot of first's feature, from first on, between two
		runs with no mutant on (number 0). The first says the suites
		pass when run again in one boot (else nothing of the loop can be
		trusted: an error); the last that no mutant left the kernel in
		a state that fails them. If one did, the boot's kills are judged
		again, each in a loop of its own."""
		suites_ = self.judging.suites(kind, [first.feature])
		per = self.judging.per_mutant(kind, suites_)
		pending = self._pending(first, kind, per)
		expected = self.judging.expected(kind, suites_)
		cmdline = [f'{LOOP_PARAM}='
			   f'{ranges([0, *(self.schemata.numbers[m.id] for m in pending), 0])}',
			   *ON_MUTANT]
		if kind == Kind.KUNIT:
			cmdline.append(f'{KUNIT_SUITES}={",".join(expected)}')
		else:
			cmdline.append(f'{DEADLINE_PARAM}={per}')
		folder = self._run(f'{tag}-loop-{first.feature}', kind,
				   suites_ if kind != Kind.KUNIT else [], cmdline,
				   LOOP_BASE + per * (len(pending) + 2), silence(per),
				   self.judging.cases(kind, first.feature, expected))
		got = mutate.outcome(folder / 'results.json')
		log = folder / CONSOLE[Kind(kind)]
		if not got.built and not log.exists():
			# not built: stillborn; a boot's console without its
			# results.json is still the mutants' verdicts
			self.seen[(kind, first.key)] = got
			return
		ran = self.judging.ran(kind, first.feature)
		outs = [(seg.number, dataclasses.replace(judged(seg, kind, expected), ran=ran))
			for seg in segments(log.read_text(errors='replace').splitlines()
					    if log.exists() else [])]
		controls = [o for n, o in outs if n == 0]
		base = self.baselines.get(kind)
		if controls and base and _new_bad(controls[0], base):
			raise KconformError(
				f'mutate: {folder.name}: with no mutant on, run again in one boot, '
				f'{", ".join(":".join(k) for k in _new_bad(controls[0], base))} '
				f'fail: a loop cannot judge these suites\' mutants (see {log})')
		leaked = len(controls) > 1 and bool(_new_bad(controls[-1], controls[0]))
		by_number = {self.schemata.numbers[m.id]: m for m in pending}
		for n, o in outs:
			m = by_number.get(n)
			if m is None:
				continue
			if leaked and len(pending) > 1 and _new_bad(o, controls[0]):
				self.alone.add((str(kind), m.key))	# judged again, alone
			else:
				self.seen[(kind, m.key)] = o
		if (kind, first.key) not in self.seen and (str(kind), first.key) not in self.alone:
			raise KconformError(f'mutate: {folder.name}: the guest ran no mutant of '
					    f'its loop (see {log})')


def _new_bad(got: mutate.Outcome, ref: mutate.Outcome) -> List[mutate.Key]:
	"""The cases bad in got and not in ref."""
	return sorted(k for k, s in got.cases.items() if s in BAD and ref.cases.get(k) not in BAD)


REPORT = 'schemata.txt'


def report(chosen: Sequence[mutate.Mutant], boots: Runner) -> List[str]:
	"""--out's schemata.txt: per feature the mutants switched and those
	judged batch by batch, then each of those with why (no switch fits
	its line, or its switch did not compile)."""
	why = {**boots.schemata.fallback, **boots.dropped}
	out = summary(chosen, boots.schemata, boots.dropped)
	out += ['batch by batch (the line, why):']
	out += [f'  {m.id} [{m.feature}]: {why[m.id]}' for m in chosen if m.id in why]
	return out


def run(chosen: Sequence[mutate.Mutant], kinds: Sequence[str],
	specs: Sequence[suites.SuiteSpec], equivalents: Dict[str, str], boots: Runner,
	batched: mutate.Runner, files_of: Dict[str, Set[str]],
	baseline: Optional[mutate.Outcome], upstream_runs: bool,
	journal: Optional[mutate.Journal]) -> List[mutate.Verdict]:
	"""mutate.run_all twice: the switched mutants on the schemata's build
	(boots), then the rest (no switch, a switch that does not compile,
	the equivalents) batch by batch as without schemata (batched). One
	journal, one baseline per kind (the schemata's, no mutant on)."""
	if boots.schemata.numbers:
		features = sorted({m.feature for m in boots.switched()})
		boots.prepare(kinds[0], features, f'{kinds[0]}-baseline')
	switched = boots.switched()
	rest = [m for m in chosen if m.id not in boots.schemata.numbers]
	done = {v.mutant.key: v for v in mutate.run_all(
		switched, kinds, specs, {}, boots, files_of, baseline, upstream_runs, journal,
		boots.planned, one_by_one=True)}
	done.update({v.mutant.key: v for v in mutate.run_all(
		rest, kinds, specs, equivalents, batched, files_of, baseline, upstream_runs,
		journal)})
	return [done[m.key] for m in chosen if m.key in done]
