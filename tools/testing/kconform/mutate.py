# SPDX-License-Identifier: GPL-2.0
"""Mutation testing: break the features' C code the way regressions do,
and see which breakages the suites let through.

Targets: the functions of each feature (suites.toml name) that
coverage.toml names, that contain a line a seed commit of coverage.toml
added, or that contain a line a series patch adds (a patch's file goes to
the features whose seeds name it; else to the features that need the
patch as a hook or whose cases guard it as a fix). Function extents come
from a scan of the top-level braces (kernel style puts a function's
braces in column 0) with comments, strings and preprocessor lines
masked: no C parser is needed and macro-made functions (BPF_CALL_n) are
found by their first argument.

Mutants: one change in one line of a function's body, by an operator of
OPERATORS; each has the id file:line:operator:n (n counts that
operator's mutants of the line) and is a patch on the series that the
runner's --patch applies (the same scratch tree and the same build as
any run). `--per-feature N --seed S` samples N mutants per feature,
reproducibly; without it, every mutant (the nightly form).

Runs: mutants of different features, in different files and features
that share no file, are built and booted together, each judged by its own
feature's cases and those of every other suite whose `requires` names
one of the feature's files (bpf_iter_params' kselftests judge cgroup_iter.c
beside bpf_cgroup_iter's KUnit cases): a case that passes without mutants
and is bad with them kills the mutants it judges. Mutants whose judges
overlap are never in one batch. A batch whose kernel does not build
is halved until the mutants that do not build are found (stillborn). A
batch with a crash, a timeout or a report outside its mutants' suites
(the boot's own kmemleak scan: `<kunit boot>`) is rerun one mutant at a
time; alone, such a report kills its mutant (a dropped put judged by
kmemleak). KUnit boots come first; a survivor of a feature with a
kselftest target then goes to the guest boot.

On a variant that runs upstream's tests (issue 31), the guest boot judges
the mutants by them too: an upstream case is the features' whose
selectors match it, and a mutant whose judges name upstream tests goes
there even when KUnit killed it, so that mutate.txt's "by suite" tells
ours only, upstream's only, both and neither apart. A verdict's status
(the score) stays ours; its `upstream` lists upstream's killing cases.

mutants-equivalent.toml lists mutants that cannot change behaviour,
each with its reason: they are counted apart, never run. So are the
mutants of a file the judged kernel does not compile (not compiled: its
baseline's build folder has no object of it, net/dccp/proto.c without
CONFIG_IP_DCCP), judged before the first batch.

--schemata (schemata.py) judges the mutants that take a run-time switch
on one build instead, in loop boots; run_all and its verdicts stay.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import fnmatch
import hashlib
import json
import random
import re
import shlex
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import (TYPE_CHECKING, Callable, Dict, FrozenSet, Iterable, List, Optional, Protocol,
		    Sequence, Set, Tuple)

from . import coverage, fixes, gate, guest, inputs, report, suites, tomlfile, tree, upstream
from .model import BAD, InputError, KconformError, Kind, Status

if TYPE_CHECKING:
	from . import schemata		# which builds on this module

OPERATORS = ('rel', 'const', 'not', 'true', 'false', 'logic', 'errno', 'ret0',
	     'flag', 'swap', 'put')
EQUIVALENTS = 'mutants-equivalent.toml'
KILLED, SURVIVED, STILLBORN, EQUIVALENT = 'killed', 'survived', 'stillborn', 'equivalent'
NOT_COMPILED = 'not_compiled'
# the statuses counted per feature; the score is of the first two
STATUSES = (KILLED, SURVIVED, STILLBORN, EQUIVALENT, NOT_COMPILED)
Key = Tuple[str, str, str]		# kind, suite, case: as the gate names cases


# -- C text -----------------------------------------------------------------

def mask(lines: Sequence[str]) -> List[str]:
	"""The lines with comments, the insides of string and character
	literals and preprocessor lines blanked, each as long as before, so a
	match in the mask is at the same place in the line."""
	out = []
	comment = False
	pre = False
	for line in lines:
		if pre or (not comment and line.lstrip().startswith('#')):
			pre = line.rstrip().endswith('\\')
			out.append(' ' * len(line))
			continue
		buf = []
		i = 0
		while i < len(line):
			if comment:
				j = line.find('*/', i)
				end = len(line) if j < 0 else j + 2
				buf.append(' ' * (end - i))
				comment = j < 0
				i = end
			elif line.startswith('/*', i):
				comment = True
				buf.append('  ')
				i += 2
			elif line.startswith('//', i):
				buf.append(' ' * (len(line) - i))
				i = len(line)
			elif line[i] in '"\'':
				j = i + 1
				while j < len(line) and line[j] != line[i]:
					j += 2 if line[j] == '\\' else 1
				j = min(j, len(line) - 1)
				buf.append(line[i] + ' ' * (j - i - 1) + line[j])
				i = j + 1
			else:
				buf.append(line[i])
				i += 1
		out.append(''.join(buf))
	return out


@dataclass(frozen=True)
class Function:
	name: str
	first: int		# 1-based: the header's first line
	brace: int		# the line of the opening brace
	last: int		# the line of the closing brace

	def body(self) -> range:
		return range(self.brace + 1, self.last)


_ATTRS = {'__attribute__', '__printf', '__scanf', '__must_hold', '__acquires',
	  '__releases', '__section', '__aligned', '__diag_ignore', 'noinline'}
_CALL = re.compile(r'\b([A-Za-z_]\w*)\s*\(')


def _flat(text: str) -> str:
	"""text without what its parentheses hold."""
	prev = None
	while prev != text:
		prev, text = text, re.sub(r'\([^()]*\)', '', text)
	return text


def _name(header: str) -> Optional[str]:
	"""The defined function's name in a header, or None (an initializer,
	a struct)."""
	if '=' in _flat(header) or '(' not in header:
		return None
	for m in _CALL.finditer(header):
		ident = m.group(1)
		if ident in _ATTRS:
			continue
		if re.fullmatch(r'[A-Z][A-Z0-9_]*', ident) and not header[:m.start()].strip():
			# a macro that defines it: BPF_CALL_4(name, ...)
			first = re.match(r'\s*(\w+)', header[m.end():])
			return first.group(1) if first else None
		return ident
	return None


def functions(lines: Sequence[str]) -> List[Function]:
	"""Every top-level function definition, in order."""
	code = mask(lines)
	out = []
	depth = 0
	start = 0
	opened = 0
	for i, text in enumerate(code):
		if depth == 0 and not text.strip():
			start = i + 1
			continue
		for ch in text:
			if ch == '{':
				if depth == 0:
					opened = i
				depth += 1
			elif ch == '}':
				depth -= 1
				if depth == 0:
					header = ' '.join(code[start:opened + 1])
					name = _name(header[:header.rfind('{')])
					if name:
						out.append(Function(name, start + 1, opened + 1, i + 1))
					start = i + 1
			elif ch == ';' and depth == 0:
				start = i + 1
	return out


def _params(header: str) -> Dict[str, str]:
	"""name -> type of a function header's parameters."""
	m = re.search(r'\((.*)\)', header)
	out: Dict[str, str] = {}
	if not m:
		return out
	for part in _split_args(m.group(1)):
		p = part[1].strip()
		if '(' in p or '[' in p:
			continue
		d = re.fullmatch(r'(.*?[\s*])(\w+)', p)
		if d and d.group(1).strip():
			out[d.group(2)] = _norm_type(d.group(1))
	return out


_KEYWORDS = {'return', 'goto', 'case', 'else', 'do', 'break', 'continue',
	     'default', 'if', 'while', 'for', 'switch', 'sizeof'}
_DECL = re.compile(r'^\t((?:(?:const|unsigned|signed|struct|enum|union|long|short|'
		   r'volatile)\s+)*[A-Za-z_]\w*)\s+([^;=()\[\]{}]+?)\s*;\s*$')


def _norm_type(text: str) -> str:
	return re.sub(r'\s*\*\s*', '*', ' '.join(text.split()))


def types(lines: Sequence[str], fn: Function) -> Dict[str, str]:
	"""name -> declared type, for the parameters and the one-tab-deep
	declarations without initializers of a function (what a swap of two
	arguments needs to be sure the two have one type)."""
	code = mask(lines)
	out = _params(' '.join(code[fn.first - 1:fn.brace]))
	for n in fn.body():
		m = _DECL.match(code[n - 1])
		if not m or m.group(1).split()[-1] in _KEYWORDS:
			continue
		for piece in m.group(2).split(','):
			d = re.fullmatch(r'\s*(\**)\s*(\w+)\s*', piece)
			if d:
				out[d.group(2)] = _norm_type(m.group(1) + d.group(1))
	return out


def _close(code: str, start: int) -> int:
	"""The index of the ')' that closes the '(' at start, or -1."""
	depth = 0
	for i in range(start, len(code)):
		if code[i] == '(':
			depth += 1
		elif code[i] == ')':
			depth -= 1
			if depth == 0:
				return i
	return -1


def _split_args(text: str, base: int = 0) -> List[Tuple[int, str]]:
	"""(offset, text) of each comma-separated part at depth 0."""
	out = []
	depth = 0
	begin = 0
	for i, ch in enumerate(text):
		if ch in '([{':
			depth += 1
		elif ch in ')]}':
			depth -= 1
		elif ch == ',' and depth == 0:
			out.append((base + begin, text[begin:i]))
			begin = i + 1
	out.append((base + begin, text[begin:]))
	return out


# -- operators ----------------------------------------------------------------

# Each errno goes to one other, a confusion a regression makes.
ERRNO_SWAP = {
	'EINVAL': 'EOPNOTSUPP', 'EOPNOTSUPP': 'EINVAL', 'ENOTSUPP': 'EINVAL',
	'ENOENT': 'ENODEV', 'ENODEV': 'ENOENT', 'ENXIO': 'ENODEV',
	'ENOMEM': 'ENOSPC', 'ENOSPC': 'ENOMEM', 'EPERM': 'EACCES',
	'EACCES': 'EPERM', 'EBUSY': 'EAGAIN', 'EAGAIN': 'EBUSY',
	'EEXIST': 'EBUSY', 'E2BIG': 'EINVAL', 'EFAULT': 'EINVAL',
	'ERANGE': 'EINVAL', 'ENODATA': 'ENOENT', 'ESRCH': 'ENOENT',
	'EBADF': 'EINVAL', 'EINTR': 'EAGAIN', 'EIO': 'EINVAL',
	'EOVERFLOW': 'ERANGE', 'ENOTDIR': 'ENOENT', 'EISDIR': 'EINVAL',
	'EMSGSIZE': 'EINVAL', 'ENOBUFS': 'ENOMEM', 'EPROTO': 'EINVAL',
	'EADDRINUSE': 'EBUSY', 'ECONNREFUSED': 'ENOENT', 'EKEYREJECTED': 'EINVAL',
	'ENOKEY': 'ENOENT', 'EBADMSG': 'EINVAL', 'ENOTTY': 'EINVAL',
	'ETIMEDOUT': 'EAGAIN', 'EPROBE_DEFER': 'ENODEV', 'ENOSYS': 'EOPNOTSUPP',
	'EMFILE': 'ENFILE', 'ENFILE': 'EMFILE', 'ESTALE': 'ENOENT',
}
# a call alone on its line that drops a reference or frees: dropping it
# leaks (kmemleak, refcount cases)
_PUT = re.compile(r'^(\s*)((?:\w+_put|put_\w+|kv?free|kfree_skb|consume_skb|fput|'
		  r'mmput|fdput|\w+_put_\w+)\s*\(.*\)\s*;)\s*$')
_NOT_PUT = ('nla_', 'nlmsg_', 'genlmsg_', 'skb_', '__skb_', 'seq_', '__nla_',
	    'bpf_probe_', 'copy_')
# commutative or type-taking helpers: a swap of their arguments is no mutant
_NO_SWAP = {'min', 'max', 'min_t', 'max_t', 'clamp', 'clamp_t', 'swap',
	    'sizeof', 'typeof', 'offsetof', 'container_of', 'min3', 'max3'}

_REL = re.compile(r'(?<![<>=!-])(<=|>=|<|>|==|!=)(?![<>=])')
_REL_SWAP = {'<': '<=', '<=': '<', '>': '>=', '>=': '>', '==': '!=', '!=': '=='}
_INT = re.compile(r'(?<![\w.])(0[xX][0-9a-fA-F]+|\d+)([uUlL]*)(?![\w.])')
_NOT = re.compile(r'!(?!=)')
_COND = re.compile(r'\b(if|while)\s*\(')
_LOGIC = re.compile(r'&&|\|\|')
_ERRNO = re.compile(r'-\s*(E[A-Z0-9_]+)\b')
_RET = re.compile(r'\breturn\s+-\s*E[A-Z0-9_]+\s*;')
# a flag: an upper-case name (a macro or an enum constant), not a call
_FLAG = r'(?<!\w)_*[A-Z][A-Z0-9_]*[A-Z0-9]\b(?!\s*\()'
_FLAG_BEFORE = re.compile(_FLAG + r'\s*(?<![|])\|(?![|=])\s*')
_FLAG_AFTER = re.compile(r'\s*(?<![|])\|(?![|=])\s*' + _FLAG)
_FLAG_SET = re.compile(r'\|=\s*(' + _FLAG + r')\s*;')


def _int_variants(text: str) -> List[int]:
	value = int(text, 0) if not re.fullmatch(r'0\d+', text) else int(text, 8)
	if value == 0:
		return [1]
	if value == 1:
		return [0, 2]
	return [value - 1, value + 1]


def _int_text(value: int, like: str) -> str:
	if like[:2].lower() == '0x':
		digits = f'{value:x}'
		return like[:2] + (digits.upper() if any(c in 'ABCDEF' for c in like[2:])
				   else digits)
	return str(value)


def _put(line: str, code: str) -> List[str]:
	m = _PUT.match(code)
	if not m or m.group(2).startswith(_NOT_PUT):
		return []
	end = code.rstrip()[:-1].rstrip()	# without the ';'
	if _close(code, code.index('(')) != len(end) - 1:
		return []		# f(a)->b(c); or f(a), g(b);
	return [line[:len(m.group(1))] + ';']


def _swap(line: str, code: str, known: Dict[str, str]) -> List[str]:
	out = []
	for m in _CALL.finditer(code):
		if m.group(1) in _NO_SWAP or m.group(1) in _KEYWORDS:
			continue
		end = _close(code, m.end() - 1)
		if end < 0:
			continue
		args = _split_args(code[m.end():end], m.end())
		for (a0, t0), (a1, t1) in zip(args, args[1:]):
			n0, n1 = t0.strip(), t1.strip()
			if n0 == n1 or not (re.fullmatch(r'\w+', n0) and re.fullmatch(r'\w+', n1)):
				continue
			if n0 in known and known[n0] == known.get(n1):
				s0 = a0 + t0.index(n0)
				s1 = a1 + t1.index(n1)
				out.append(line[:s0] + n1 + line[s0 + len(n0):s1] + n0 +
					   line[s1 + len(n1):])
	return out


def mutate_line(line: str, code: str, known: Dict[str, str]) -> List[Tuple[str, int, str]]:
	"""(operator, n, new line) for every mutant of one line; code is the
	line's mask, known the types of the function's names (swap)."""
	out: List[Tuple[str, int, str]] = []

	def add(op: str, new: Iterable[str]) -> None:
		seen = {line}
		for text in new:
			if text not in seen:
				out.append((op, len(seen) - 1, text))
				seen.add(text)

	def at(m: 're.Match[str]', repl: str, group: int = 0) -> str:
		return line[:m.start(group)] + repl + line[m.end(group):]

	add('rel', (at(m, _REL_SWAP[m.group(1)], 1) for m in _REL.finditer(code)))
	add('const', (at(m, _int_text(v, m.group(1)), 1) for m in _INT.finditer(code)
		      for v in _int_variants(m.group(1))))
	add('not', (at(m, '') for m in _NOT.finditer(code)))
	conds = []
	for m in _COND.finditer(code):
		end = _close(code, m.end() - 1)
		inside = code[m.end():end].strip() if end > 0 else ''
		if inside and inside not in ('0', '1'):
			conds.append((m, end))
	add('true', (line[:m.end()] + '1' + line[end:] for m, end in conds
		     if m.group(1) == 'if'))
	add('false', (line[:m.end()] + '0' + line[end:] for m, end in conds))
	add('logic', (at(m, '||' if m.group() == '&&' else '&&') for m in _LOGIC.finditer(code)))
	add('errno', (at(m, ERRNO_SWAP[m.group(1)], 1) for m in _ERRNO.finditer(code)
		      if m.group(1) in ERRNO_SWAP))
	add('ret0', (at(m, 'return 0;') for m in _RET.finditer(code)))
	add('flag', [at(m, '') for m in _FLAG_BEFORE.finditer(code)] +
	    [at(m, '') for m in _FLAG_AFTER.finditer(code)] +
	    [at(m, '0', 1) for m in _FLAG_SET.finditer(code)])
	add('swap', _swap(line, code, known))
	add('put', _put(line, code))
	return out


# -- mutants ------------------------------------------------------------------

@dataclass(frozen=True)
class Mutant:
	feature: str
	file: str
	line: int
	operator: str
	n: int
	function: str
	before: str
	after: str
	diff: str

	@property
	def id(self) -> str:
		return f'{self.file}:{self.line}:{self.operator}:{self.n}'

	@property
	def key(self) -> str:
		return f'{self.feature}:{self.id}'


def _diff(path: str, lines: Sequence[str], line: int, new: str) -> str:
	after = list(lines)
	after[line - 1] = new
	return ''.join(difflib.unified_diff(
		[l + '\n' for l in lines], [l + '\n' for l in after],
		f'a/{path}', f'b/{path}', n=3))


def mutants_of(feature: str, path: str, lines: Sequence[str],
	       fns: Sequence[Function]) -> List[Mutant]:
	"""Every mutant of these functions of one file."""
	code = mask(lines)
	out = []
	for fn in fns:
		known = types(lines, fn)
		for n in fn.body():
			for op, k, new in mutate_line(lines[n - 1], code[n - 1], known):
				out.append(Mutant(feature, path, n, op, k, fn.name,
						  lines[n - 1], new, _diff(path, lines, n, new)))
	return out


@dataclass(frozen=True)
class Target:
	feature: str
	file: str
	function: str


def _owners(specs: Sequence[suites.SuiteSpec]) -> Dict[Tuple[str, str], str]:
	"""(kind, KTAP suite or target name) -> feature."""
	out = {}
	for s in specs:
		for n in s.kunit:
			out[('kunit', n)] = s.name
		if s.kselftest:
			out[('kselftest', s.kselftest)] = s.name
	return out


def _kind_suite(name: str) -> Tuple[str, str]:
	"""kind:suite:case (a fix's guard) -> (kind, suite)."""
	kind, suite = (name.split(':') + [''])[:2]
	return kind, suite


def _new_files(patch: Path) -> Set[str]:
	text = patch.read_text(errors='replace')
	return set(re.findall(r'^--- /dev/null\n\+\+\+ b/(\S+)', text, re.M))


def _changed(diff: Path, path: str, src: Path) -> List[int]:
	"""The lines of src/path that diff adds, where they are now."""
	hunks = coverage.parse_diff(diff.read_text(errors='replace')).get(path, [])
	if not hunks or not (src / path).exists():
		return []
	return coverage.map_hunks(hunks, (src / path).read_text(errors='replace').splitlines())[0]


def targets(repo: Path, src: Path, seeds_dir: Optional[Path],
	    specs: Sequence[suites.SuiteSpec]) -> Dict[str, Set[Target]]:
	"""feature -> the functions its mutants change, in the tree src."""
	layout = tree.Layout(repo)
	names = {s.name for s in specs}
	out: Dict[str, Set[Target]] = {}
	lines: Dict[Tuple[str, str], List[int]] = {}
	seed_files: Dict[str, Set[str]] = {}
	for s in coverage.load(repo):
		for path, named in s.functions:
			seed_files.setdefault(path, set()).add(s.suite)
			if s.suite in names:
				out.setdefault(s.suite, set()).update(
					Target(s.suite, path, fn) for fn in named)
		diff = coverage.seed_file(seeds_dir, s.name) if seeds_dir else None
		for path in s.files:
			seed_files.setdefault(path, set()).add(s.suite)
			if diff and s.suite in names:
				lines.setdefault((s.suite, path), []).extend(_changed(diff, path, src))
	owners = _owners(specs)
	series = layout.series()
	fix_suites = {f.patch: {owners.get(_kind_suite(g), '') for g in f.guards + f.affected}
		      for f in fixes.load(layout.patches, series)}
	for name, files in coverage.patch_files(layout.patches, series).items():
		new = _new_files(layout.patches / name)
		hooks = {s.name for s in specs for _, g, _ in s.patches
			 if fnmatch.fnmatchcase(name, g)}
		for path in files:
			if path in new:
				continue	# a file the series adds: test code
			for feature in (seed_files.get(path) or
					hooks | fix_suites.get(name, set())) & names:
				lines.setdefault((feature, path), []).extend(
					_changed(layout.patches / name, path, src))
	for (feature, path), changed in sorted(lines.items()):
		fns = functions((src / path).read_text(errors='replace').splitlines())
		for n in set(changed):
			fn = next((f for f in fns if f.first <= n <= f.last), None)
			if fn:
				out.setdefault(feature, set()).add(Target(feature, path, fn.name))
	return out


def generate(src: Path, wanted: Dict[str, Set[Target]]) -> List[Mutant]:
	"""Every mutant of the targets, sorted by feature and id."""
	out: List[Mutant] = []
	files = sorted({(t.feature, t.file) for ts in wanted.values() for t in ts})
	for feature, path in files:
		lines = (src / path).read_text(errors='replace').splitlines()
		names = {t.function for t in wanted[feature] if t.file == path}
		out += mutants_of(feature, path, lines,
				  [f for f in functions(lines) if f.name in names])
	return sorted(out, key=lambda m: (m.feature, m.file, m.line, OPERATORS.index(m.operator), m.n))


def sample(mutants: Sequence[Mutant], per_feature: Optional[int], seed: int,
	   named: Sequence[str] = ()) -> List[Mutant]:
	"""per_feature mutants of each feature, the same for the same seed
	whatever other features there are; None: all. named: these ids
	only (each must be a mutant)."""
	if named:
		unknown = sorted(set(named) - {m.id for m in mutants})
		if unknown:
			raise InputError(f'--mutant {", ".join(unknown)}: no such mutant '
					 '(--list names them)')
		return [m for m in mutants if m.id in named]
	if per_feature is None:
		return list(mutants)
	out: List[Mutant] = []
	for feature in sorted({m.feature for m in mutants}):
		mine = sorted((m for m in mutants if m.feature == feature), key=lambda m: m.id)
		rng = random.Random(f'{seed}:{feature}')
		out += rng.sample(mine, min(per_feature, len(mine)))
	return sorted(out, key=lambda m: (m.feature, m.id))


# -- equivalent mutants -------------------------------------------------------

_ID = re.compile(r'[\w./+-]+\.[ch]:[1-9]\d*:(' + '|'.join(OPERATORS) + r'):\d+')


def load_equivalents(path: Path) -> Dict[str, str]:
	"""mutant id -> why it is equivalent; every entry checked."""
	if not path.exists():
		return {}
	what = '--equivalents'
	data = tomlfile.tables(path, ('reason',), what, gate.read_text(path, what))
	out = {}
	for mid, entry in data.items():
		where = f'--equivalents {path}: ["{mid}"]'
		if not _ID.fullmatch(mid):
			raise InputError(f'{where}: not a mutant id (file:line:operator:n)')
		if 'reason' not in entry:
			raise InputError(f'{where}: needs reason')
		if not isinstance(entry['reason'], str) or not entry['reason'].strip():
			raise InputError(f'{where}: reason must be a non-empty string')
		out[mid] = entry['reason']
	return out


# -- runs ---------------------------------------------------------------------

@dataclass
class Outcome:
	"""One build and boot: did it build, and each case's status."""
	built: bool
	cases: Dict[Key, Status] = field(default_factory=dict)
	error: str = ''
	# the folder its kernel was built in (results.json kernel.build_dir);
	# None: not known (a results.json of before it was recorded)
	build_dir: Optional[Path] = None
	# (kind, target) -> the programs a run asked for of a target it ran
	# in part (a schemata loop runs only the programs that judge the
	# feature): the others' cases are not gone, they were not asked for
	ran: Dict[Tuple[str, str], FrozenSet[str]] = field(default_factory=dict)


class Runner(Protocol):
	def __call__(self, mutants: Sequence[Mutant], kind: str,
		     features: Sequence[str], tag: str) -> Outcome: ...


@dataclass
class Verdict:
	"""A mutant's fate. Its status is our suites' verdict (killed: a case
	of ours killed it), the score's and issue 30's target; upstream's
	tests say theirs apart (a mutant they kill and ours do not survives)."""
	mutant: Mutant
	status: str
	by: List[str] = field(default_factory=list)	# our cases that killed it
	note: str = ''
	reason: str = ''			# equivalent, not compiled: why
	# upstream's cases that killed it; None: upstream's tests did not
	# judge it (a variant without them, no selectors among its judges)
	upstream: Optional[List[str]] = None


def judges(specs: Sequence[suites.SuiteSpec],
	   files_of: Dict[str, Set[str]]) -> Dict[str, Set[str]]:
	"""feature -> the suites whose cases judge its mutants: itself and
	every suite that requires one of its files."""
	return {f: {f} | {s.name for s in specs if {r[0] for r in s.requires} & files}
		for f, files in files_of.items()}


def judging(specs: Sequence[suites.SuiteSpec], kind: str, upstream_runs: bool) -> Set[str]:
	"""The suites with cases of a kind: KUnit suites, kselftest targets
	and, when the variant runs upstream's tests (in the kselftest boot),
	the suites that name some."""
	return {s.name for s in specs if s.names(kind) or
		kind == Kind.KSELFTEST and upstream_runs and bool(s.upstream)}


def _theirs(k: Key) -> bool:
	"""Is it a case of upstream's tests?"""
	return (k[0], k[1]) == (Kind.KSELFTEST, suites.UPSTREAM)


def batches(mutants: Sequence[Mutant], files_of: Dict[str, Set[str]],
	    judged: Optional[Dict[str, Set[str]]] = None) -> List[List[Mutant]]:
	"""Mutants to build together: one per feature, features that share
	no file (and so one per file) and no judging suite."""
	pending = {f: [m for m in mutants if m.feature == f]
		   for f in sorted({m.feature for m in mutants})}
	out = []
	while any(pending.values()):
		batch: List[Mutant] = []
		used: Set[str] = set()
		for feature, left in pending.items():
			mine = files_of.get(feature, set()) | {m.file for m in left} | \
				{f'suite:{j}' for j in (judged or {}).get(feature, {feature})}
			if left and not mine & used:
				batch.append(left.pop(0))
				used |= mine
		out.append(batch)
	return out


@dataclass
class Judge:
	"""Which new bad cases a run has, and whose they are."""
	owners: Dict[Tuple[str, str], str]
	baseline: Outcome
	# the suites whose upstream tests the boot runs (their selectors
	# attribute upstream's cases); none in a KUnit boot
	upstream: Sequence[suites.SuiteSpec] = ()

	def of(self, k: Key) -> Set[str]:
		"""The features a case is of: its suite's; an upstream case's,
		those whose selectors match it (cgroup_iter: two)."""
		if _theirs(k):
			return {s.name for s in self.upstream if upstream.of_feature(s, k[2])}
		owner = self.owners.get((k[0], k[1]))
		return {owner} if owner else set()

	def new_bad(self, got: Outcome, kind: str, features: Set[str]) -> Dict[Key, Status]:
		out = {k: s for k, s in got.cases.items()
		       if s in BAD and self.baseline.cases.get(k) not in BAD}
		for k, s in self.baseline.cases.items():
			# a case that passed and is gone: its suite did not finish
			if k not in got.cases and s not in BAD and k[0] == kind and \
					self.of(k) & features and \
					k[2].split('/')[0] in got.ran.get((k[0], k[1]), {k[2].split('/')[0]}):
				out[k] = Status.CRASH
		return out


def _names(keys: Iterable[Key], theirs: bool) -> List[str]:
	"""Our cases (or upstream's) among keys, as kind:suite:case."""
	return sorted(':'.join(k) for k in keys if _theirs(k) == theirs)


def evaluate(batch: Sequence[Mutant], kind: str, run: Runner, judge: Judge,
	     tag: str, judged: Optional[Dict[str, Set[str]]] = None) -> List[Verdict]:
	"""The verdicts of a batch: halved while it does not build, rerun one
	by one after a crash or a report outside its mutants' suites.
	judged: feature -> the suites that judge its mutants (default itself)."""
	def of(m: Mutant) -> Set[str]:
		return (judged or {}).get(m.feature, {m.feature})
	features = sorted(set().union(*(of(m) for m in batch)))
	got = run(batch, kind, features, tag)
	if not got.built:
		if len(batch) == 1:
			return [Verdict(batch[0], STILLBORN, note=got.error.split('\n')[0])]
		half = len(batch) // 2
		return evaluate(batch[:half], kind, run, judge, tag + 'a', judged) + \
			evaluate(batch[half:], kind, run, judge, tag + 'b', judged)
	new = judge.new_bad(got, kind, set(features))
	outside = [k for k in new if not judge.of(k) & set(features)]
	if len(batch) > 1 and (outside or any(s in (Status.CRASH, Status.TIMEOUT)
					      for s in new.values())):
		return [v for i, m in enumerate(batch)
			for v in evaluate([m], kind, run, judge, f'{tag}-{i}', judged)]
	out = []
	for m in batch:
		mine = [k for k in new if judge.of(k) & of(m)]
		alone = outside if len(batch) == 1 else []
		ours = _names(mine, False) + _names(alone, False)
		theirs = _names(mine, True) + _names(alone, True)
		judged_up = theirs or any(s.name in of(m) for s in judge.upstream)
		out.append(Verdict(m, KILLED if ours else SURVIVED, ours,
				   'a report outside its suites' if alone and not mine else '',
				   upstream=theirs if judged_up else None))
	return out


def not_compiled(build: Optional[Path], files: Iterable[str]) -> Dict[str, str]:
	"""file -> why the kernel built in build lacks it: a C file with no
	object there (kbuild: foo.c -> foo.o in the O= folder; or its
	.foo.o.cmd, which stays when a failed build, a stillborn mutant's,
	deletes the object) that no object's dependencies name either
	(kernel/sched/build_policy.o #includes rt.c). None when the folder is
	not known or holds no kernel: what cannot be told is run."""
	if build is None or not (build / 'vmlinux').exists():
		return {}
	lacking = {f for f in files if f.endswith('.c') and not (
		(build / f).with_suffix('.o').exists() or
		(build / f).with_name(f'.{Path(f).stem}.o.cmd').exists())}
	if lacking:
		named = re.compile(r'[\s/](' + '|'.join(map(re.escape, sorted(lacking))) + r')\s')
		for cmd in build.rglob('.*.o.cmd'):
			lacking -= {m.group(1) for m in named.finditer(cmd.read_text(errors='replace'))}
	return {f: f'{f[:-2]}.o is not built: the variant\'s config does not compile {f}'
		for f in sorted(lacking)}


JOURNAL = 'journal.jsonl'


class Journal:
	"""--journal (--out's journal.jsonl): what a run was (its first
	line: variant, series digest, run options) and each verdict per kind
	and baseline as it comes, so that a run stopped by the end of a
	session or a signal goes on where it stopped (the whole set is a
	night's work; a journal kept in the repository goes on on the next
	machine).
	A journal of another tree or variant is set aside, as is any with
	fresh, and a line that does not parse ends what is read (the run
	was stopped while writing it).
	One of the same kernel (context's 'patches'), variant and options
	whose suites changed (a case added for a survivor) is set aside too,
	but its verdicts are carried: any stands once the suites that judged
	it are unchanged (suites: suite_digests(), the journal's 'suites'
	line), a kill too once the new baseline still passes each case that
	killed it (run_all), and the rest is judged again."""

	def __init__(self, path: Path, context: Dict[str, object], fresh: bool,
		     suites_: Optional[Dict[str, str]] = None) -> None:
		self.path = path
		path.parent.mkdir(parents=True, exist_ok=True)
		self.verdicts: Dict[Tuple[str, str], Dict[str, object]] = {}
		self.carried: Dict[Tuple[str, str], Dict[str, object]] = {}
		self.baselines: Dict[str, Outcome] = {}
		self.suites = dict(suites_ or {})
		self.was: Dict[str, str] = {}	# the set-aside journal's suites
		lines = self.path.read_text().splitlines() if self.path.exists() else []
		head = {'context': context}
		if lines and (fresh or _json_line(lines[0]) != head):
			old = self.path.with_name(self.path.name + '.old')
			self.path.replace(old)
			if not fresh and _suites_only(_json_line(lines[0]), context):
				self.carried, _, self.was = self._entries(lines[1:])
				same = sorted(k for k, v in self.suites.items() if self.was.get(k) == v)
				print(f'kconform: mutate: {old.name}: the journal of the same kernel '
				      f'with other suites, set aside: of its {len(self.carried)} '
				      'verdict(s), those whose judges are unchanged stand '
				      f'({", ".join(same) or "none"}), and the kills and stillborns '
				      'where the new baseline passes the cases that killed them; '
				      'the rest is judged again', flush=True)
			else:
				print(f'kconform: mutate: {old.name}: the journal of '
				      f'{"an earlier run" if fresh else "another tree, variant or options"}, '
				      'set aside: every mutant is judged again', flush=True)
			lines = []
		if not lines:
			self.path.write_text(json.dumps(head) + '\n')
		self.verdicts, self.baselines, had = self._entries(lines[1:])
		# the journal's suites, from its first run on (the same series:
		# the same suites' files)
		if self.suites and not had:
			self._append({'suites': self.suites})
		if self.verdicts:
			print(f'kconform: mutate: {len(self.verdicts)} verdict(s) of a stopped run '
			      f'of this tree in {self.path} are kept (--fresh judges them '
			      'again)', flush=True)

	@staticmethod
	def _entries(lines: Sequence[str]) -> Tuple[Dict[Tuple[str, str], Dict[str, object]],
						    Dict[str, Outcome], Dict[str, str]]:
		"""The verdicts, the baselines and the suites of a journal's lines."""
		verdicts: Dict[Tuple[str, str], Dict[str, object]] = {}
		baselines: Dict[str, Outcome] = {}
		suites_: Dict[str, str] = {}
		for line in lines:
			entry = _json_line(line)
			if not isinstance(entry, dict):
				break
			if 'suites' in entry:
				got = entry['suites']
				suites_ = {str(k): str(v) for k, v in got.items()} \
					if isinstance(got, dict) else {}
			elif 'baseline' in entry:
				build = entry.get('build_dir')
				baselines[str(entry['baseline'])] = Outcome(True, {
					(str(c[0]), str(c[1]), str(c[2])): Status(str(c[3]))
					for c in _list(entry.get('cases')) if isinstance(c, list)},
					build_dir=Path(build) if isinstance(build, str) else None)
			else:
				verdicts[(str(entry['kind']), str(entry['mutant']))] = entry
		return verdicts, baselines, suites_

	def _append(self, entry: Dict[str, object]) -> None:
		with self.path.open('a') as f:
			f.write(json.dumps(entry, sort_keys=True) + '\n')

	def verdict(self, kind: str, m: Mutant, carried: bool = False) -> Optional[Verdict]:
		"""m's verdict in this journal (carried: in the set-aside one of
		other suites, a kill or a stillborn)."""
		e = (self.carried if carried else self.verdicts).get((kind, m.key))
		if e is None or e.get('after') != m.after:
			return None
		up = e.get('upstream')
		return Verdict(m, str(e['status']), [str(c) for c in _list(e.get('by'))],
			       str(e.get('note', '')),
			       upstream=None if up is None else [str(c) for c in _list(up)])

	def add(self, kind: str, v: Verdict) -> None:
		self._append({'kind': kind, 'mutant': v.mutant.key, 'after': v.mutant.after,
			      'status': v.status, 'by': v.by, 'note': v.note,
			      'upstream': v.upstream})

	def unchanged(self, kind: str, names: Iterable[str]) -> bool:
		"""Are the suites (names) that judge a kind's mutant what they
		were in the set-aside journal?"""
		return all(self.was.get(k) is not None and self.was.get(k) == self.suites.get(k)
			   for k in (f'{kind}:{n}' for n in names))

	def baseline(self, kind: str) -> Optional[Outcome]:
		"""This tree's baseline of kind, run before the stop."""
		return self.baselines.get(kind)

	def add_baseline(self, kind: str, base: Outcome) -> None:
		if kind not in self.baselines:
			self.baselines[kind] = base
			self._append({'baseline': kind, 'cases': sorted(
				[*k, s.value] for k, s in base.cases.items()),
				'build_dir': str(base.build_dir) if base.build_dir else None})


# a KUnit test file's KTAP suite: `.name = "thermal_of",` in its struct
# kunit_suite
KTAP_NAME = re.compile(r'^\s*\.name\s*=\s*"([^"]+)"', re.M)


def suite_digests(layout: tree.Layout, specs: Sequence[suites.SuiteSpec]) -> Dict[str, str]:
	"""'kind:suite' -> a hash of the files a suite's cases of a kind are
	made of: KUnit, the test files naming its KTAP suites and the other
	files of their folders (headers, device trees); kselftest, its
	target's folder, the files kselftests/ shares and its upstream
	selectors. A journal's survivor is carried while these are the
	same (Journal); a suite none of whose files is found has none, and
	its survivors are judged again."""
	overlays = list(layout.overlays())
	selftests = layout.repo / 'kselftests'
	named = {f: set(KTAP_NAME.findall(f.read_text(errors='replace')))
		 for f, _ in overlays if layout.kunit_test(f) and f.suffix == '.c'}
	out: Dict[str, str] = {}
	for s in specs:
		for kind in suites.KINDS:
			if kind == Kind.KUNIT:
				tests = {f for f, n in named.items() if n & set(s.names(kind))}
				mine = [f for f, _ in overlays if f in tests or f.parent in
					{t.parent for t in tests} and f.suffix != '.c']
				extra = ''
			elif s.names(kind) or s.upstream:
				mine = [f for f, _ in overlays if f.parent == selftests or
					s.kselftest and f.is_relative_to(selftests / s.kselftest)]
				extra = ' '.join(s.upstream)
			else:
				continue
			if not mine or kind == Kind.KUNIT and not tests:
				continue
			h = hashlib.sha256(f'{extra}\n'.encode())
			for f in mine:
				h.update(f'{f.relative_to(layout.repo)}\n'.encode())
				h.update(f.read_bytes())
			out[f'{kind}:{s.name}'] = h.hexdigest()
	return out


def _suites_only(old: object, now: Dict[str, object]) -> bool:
	"""Is old the head of a journal whose context differs from now in
	the suites alone (its series digest, not its patches)?"""
	if not isinstance(old, dict) or not isinstance(old.get('context'), dict):
		return False
	was = old['context']
	return 'patches' in now and {k: v for k, v in was.items() if k != 'series'} == \
		{k: v for k, v in now.items() if k != 'series'}


def stands(v: Verdict, base: Outcome) -> bool:
	"""Does a carried verdict stand on a baseline of the new suites: a
	stillborn (the kernel is the same), a kill whose every case passes
	there or is a boot's (a crash, a report, a deadline: the mutant's,
	not a case's)?"""
	passing = {':'.join(k) for k, s in base.cases.items() if s == Status.PASS}
	return v.status == STILLBORN or v.status == KILLED and all(
		c in passing or c.split(':', 2)[1].startswith('<') for c in v.by)


def _json_line(line: str) -> object:
	try:
		return json.loads(line)
	except ValueError:
		return None


def _list(value: object) -> List[object]:
	return list(value) if isinstance(value, list) else []


def _merged(before: Optional[Verdict], after: Verdict) -> Verdict:
	"""A mutant's verdict after the guest boot: one that KUnit killed
	(it went there for upstream's tests) stays killed by those cases."""
	if before is None or before.status != KILLED:
		return after
	return dataclasses.replace(after, status=KILLED, by=before.by + after.by,
				   note=before.note or after.note)


def run_all(mutants: Sequence[Mutant], kinds: Sequence[str],
	    specs: Sequence[suites.SuiteSpec], equivalents: Dict[str, str],
	    run: Runner, files_of: Dict[str, Set[str]],
	    baseline: Optional[Outcome] = None, upstream_runs: bool = False,
	    journal: Optional[Journal] = None,
	    planned: Optional[Callable[[str, Sequence[Mutant]], None]] = None,
	    one_by_one: bool = False) -> List[Verdict]:
	"""Every mutant's verdict: KUnit boots first, then the survivors
	that a suite with a kselftest target judges, in the guest boot.
	baseline: an earlier run without mutants instead of a new one.
	upstream_runs: the variant runs upstream's tests in the guest boot;
	they judge the mutants of the suites naming them, those KUnit killed
	too (else "both" could not be told from "ours only").
	journal: the verdicts (and baselines) of an interrupted run of the
	same tree, not judged again; each new one is added as it comes.
	planned(kind, mutants): told the mutants a kind will judge, before
	its first batch (schemata's loop boots judge only those).
	one_by_one: each mutant a batch of its own, a feature's together
	(schemata's runner judges each by its own run of its loop boot, so
	a loop's verdicts reach the journal as soon as it ends, not after
	every feature's first loop)."""
	owners = _owners(specs)
	theirs = [s for s in specs if upstream_runs and s.upstream]
	everyone = judges(specs, files_of)
	done: Dict[str, Verdict] = {}
	for m in mutants:
		if m.id in equivalents:
			done[m.key] = Verdict(m, EQUIVALENT, reason=equivalents[m.id])
	for kind in [k for k in suites.KINDS if k in kinds]:
		suites_of_kind = judging(specs, kind, upstream_runs)
		judged = {f: js & suites_of_kind for f, js in everyone.items()}
		up = [s for s in theirs if kind == Kind.KSELFTEST]
		upjudged = {f for f, js in judged.items() if any(s.name in js for s in up)}
		todo = [m for m in mutants if judged.get(m.feature) and
			(m.key not in done or done[m.key].status == SURVIVED or
			 done[m.key].status == KILLED and m.feature in upjudged)]
		had = {m.key: v for m in todo
		       for v in [journal.verdict(kind, m) if journal else None] if v}
		for key, v in had.items():
			done[key] = _merged(done.get(key), v)
		todo = [m for m in todo if m.key not in had]
		if not todo:
			continue
		features = sorted(set().union(*(judged[m.feature] for m in todo)))
		base = baseline or (journal and journal.baseline(kind)) or \
			run([], kind, features, f'{kind}-baseline')
		if not base.built:
			raise KconformError(f'mutate: the kernel without mutants does not '
					    f'build:\n{base.error}')
		if journal and not baseline:
			journal.add_baseline(kind, base)
		# the set-aside journal's verdicts of other suites that still
		# stand: those of unchanged judges (the same kernel, the same
		# cases), and kills whose cases pass
		for m in list(todo):
			kept = journal.verdict(kind, m, carried=True) if journal else None
			if kept and journal and (journal.unchanged(kind, judged[m.feature])
						 or stands(kept, base)):
				journal.add(kind, kept)
				done[m.key] = _merged(done.get(m.key), kept)
				todo.remove(m)
		# a file the kernel does not compile: no case can see its
		# mutants, so none is built (judged again on every run: a
		# look at the build folder, not a verdict to journal)
		lacking = not_compiled(base.build_dir, {m.file for m in todo})
		for m in todo:
			if m.file in lacking:
				done[m.key] = Verdict(m, NOT_COMPILED, reason=lacking[m.file])
		todo = [m for m in todo if m.file not in lacking]
		judge = Judge(owners, base, up)
		# features whose judges name one upstream test (cgroup_iter) are
		# never one batch either: its case would judge both
		apart = {f: js | {f'{suites.UPSTREAM}:{sel.partition("/")[0]}'
				  for s in up if s.name in js for sel in s.upstream}
			 for f, js in judged.items()}
		# one by one, our kills that upstream's tests judge again (for
		# the by-suite table alone) come after the mutants whose fate
		# is still open, each round planned apart (schemata's loops)
		again = {m.key for m in todo if m.key in done and done[m.key].status == KILLED} \
			if one_by_one else set()
		n = 0
		for todo in [r for r in ([m for m in todo if m.key not in again],
					 [m for m in todo if m.key in again]) if r]:
			todo, twins = _twins(todo, judged)
			if planned:
				planned(kind, todo)
			groups = [[m] for m in sorted(todo, key=lambda m: m.feature)] if one_by_one \
				else batches(todo, files_of, apart)
			for batch in groups:
				for v in evaluate(batch, kind, run, judge, f'{kind}-{n:03d}', judged):
					for w in [v] + [dataclasses.replace(v, mutant=t)
							for t in twins.get(v.mutant.key, [])]:
						if journal:
							journal.add(kind, w)
						done[w.mutant.key] = _merged(done.get(w.mutant.key), w)
				n += 1
	return [done[m.key] for m in mutants if m.key in done]


def _twins(todo: Sequence[Mutant], judged: Dict[str, Set[str]]
	   ) -> Tuple[List[Mutant], Dict[str, List[Mutant]]]:
	"""The mutants to run, and per key the other features' copies of it
	that share its verdict: one line of a file two features share
	(task_iter.c: bpf_task_iter's and bpf_iter_params') with the same
	judges runs the same cases with the same switch, so it is judged
	once."""
	first: Dict[Tuple[str, FrozenSet[str]], Mutant] = {}
	twins: Dict[str, List[Mutant]] = {}
	out = []
	for m in todo:
		k = (m.id, frozenset(judged.get(m.feature, ())))
		if k in first:
			twins.setdefault(first[k].key, []).append(m)
		else:
			first[k] = m
			out.append(m)
	return out, twins


class KernelRunner:
	"""A build and boot through the runner's own `run --patch`: each
	mutant a patch on the series, in the run's scratch tree."""

	def __init__(self, main: Callable[[Sequence[str]], int], out: Path,
		     variant: str, extra: Sequence[str]) -> None:
		self.main = main
		self.out = out
		self.variant = variant
		self.extra = list(extra)
		self.runs = 0

	def __call__(self, mutants: Sequence[Mutant], kind: str,
		     features: Sequence[str], tag: str) -> Outcome:
		folder = self.out / 'runs' / tag
		# an earlier invocation's run of this tag (the same --out) is
		# not this one's
		shutil.rmtree(folder, ignore_errors=True)
		(folder / 'patches').mkdir(parents=True)
		# KUnit: one boot runs every suite (a --suite selection would boot
		# once per suite); the guest boots the selected targets only
		picked = [a for f in features for a in ('--suite', f)] if kind != 'kunit' else []
		argv = ['run', '--variant', self.variant, '--kind', kind, '--retries', '0',
			'--out', str(folder), *picked]
		for i, m in enumerate(mutants):
			p = folder / 'patches' / f'{i:02d}-{m.feature}.patch'
			p.write_text(m.diff)
			argv += ['--patch', str(p)]
		print(f'kconform: mutate: {tag}: {len(mutants)} mutant(s): '
		      f'{", ".join(m.id for m in mutants) or "none (baseline)"}', flush=True)
		self.runs += 1
		self.main(argv + self.extra)
		return outcome(folder / 'results.json')


def outcome(path: Path) -> Outcome:
	"""A run's results.json as an Outcome: not built when the kernel
	did not build or a mutant's patch did not apply."""
	try:
		data = json.loads(path.read_text())
	except (OSError, ValueError) as e:
		return Outcome(False, error=f'no results.json: {e}')
	if report.stopped(data):
		# what a stopped boot lacks is no kill: nothing of it is kept
		raise KconformError(f'mutate: {path.parent.name} was stopped by a signal')
	errors = [str(e) for e in data.get('errors', [])]
	stillborn = [e for e in errors if e.startswith(('kernel build:', 'patch extra/'))]
	if stillborn:
		return Outcome(False, error=stillborn[0])
	cases = {(s['kind'], s['name'], c['name']): Status(c['status'])
		 for s in data.get('suites', []) for c in s.get('cases', [])}
	build = report.KernelInfo.from_json(data.get('kernel', {})).build_dir
	return Outcome(True, cases, '\n'.join(errors), Path(build) if build else None)


def load_baseline(path: Path, kinds: Sequence[str], upstream_runs: bool = False) -> Outcome:
	"""--baseline: a run without mutants (a mutate run's
	runs/<kind>-baseline/results.json) with cases of every kind judged,
	and upstream's when they judge (a failure the baseline lacks would
	count as a kill)."""
	got = outcome(path)
	if not got.built:
		raise InputError(f'--baseline {path}: not a built run: {got.error}')
	missing = [k for k in kinds if not any(c[0] == k for c in got.cases)]
	if upstream_runs and not any(_theirs(c) for c in got.cases):
		missing.append(f'{suites.UPSTREAM} (a variant that runs upstream\'s tests)')
	if missing:
		raise InputError(f'--baseline {path}: no {"/".join(missing)} cases')
	return got


# -- coverage of a survivor's line -------------------------------------------

def load_coverage(folder: Optional[Path]) -> Dict[str, coverage.Info]:
	"""what ran -> its lcov data, from a `make coverage` run's folder
	(gcov/<name>.info: kunit, kselftest-<target>; an older run's, one
	per boot by its console log's name); {} when there is none."""
	if folder is None or not (folder / 'gcov').is_dir():
		return {}
	return {p.stem: coverage.parse_info(p.read_text(errors='replace'))
		for p in sorted((folder / 'gcov').glob('*.info'))}


def executed(infos: Dict[str, coverage.Info], path: str, line: int) -> Optional[Dict[str, int]]:
	"""boot -> times the line ran, for the boots with a record of it;
	None: no data for the file."""
	out: Dict[str, int] = {}
	seen = False
	for boot, info in infos.items():
		for sf, counts in info.lines.items():
			if sf == path or sf.endswith('/' + path):
				seen = True
				if line in counts:
					out[boot] = out.get(boot, 0) + counts[line]
	return out if seen else None


def why_survived(infos: Dict[str, coverage.Info], m: Mutant) -> str:
	runs = executed(infos, m.file, m.line)
	if runs is None:
		return 'coverage not measured'
	if not runs:
		return 'no code there in the coverage build (compiled out?)'
	ran = {b: n for b, n in runs.items() if n}
	if not ran:
		return 'not covered'
	return 'not checked (executed: ' + ', '.join(f'{b} {n}x' for b, n in sorted(ran.items())) + ')'


# -- report -------------------------------------------------------------------

def scores(verdicts: Sequence[Verdict]) -> Dict[str, Dict[str, object]]:
	out: Dict[str, Dict[str, object]] = {}
	for f in sorted({v.mutant.feature for v in verdicts}):
		n = {s: sum(1 for v in verdicts if v.mutant.feature == f and v.status == s)
		     for s in STATUSES}
		judged = n[KILLED] + n[SURVIVED]
		out[f] = {**n, 'score': round(100.0 * n[KILLED] / judged, 1) if judged else None}
	return out


# the by-suite table's columns: which side's cases killed a mutant that
# both judged (ours: the status; upstream's: Verdict.upstream)
SIDES = {(True, False): 'ours_only', (False, True): 'upstream_only',
	 (True, True): 'both', (False, False): 'neither'}


def by_suite(verdicts: Sequence[Verdict]) -> Dict[str, Dict[str, int]]:
	"""feature -> how many of its mutants that upstream's tests judged
	too each side killed (SIDES)."""
	out: Dict[str, Dict[str, int]] = {}
	for v in verdicts:
		if v.upstream is not None and v.status in (KILLED, SURVIVED):
			side = SIDES[(v.status == KILLED, bool(v.upstream))]
			out.setdefault(v.mutant.feature, dict.fromkeys(SIDES.values(), 0))[side] += 1
	return out


def upstream_only(verdicts: Sequence[Verdict]) -> List[Verdict]:
	"""The mutants upstream's tests kill and ours do not: each needs a
	case of ours."""
	return [v for v in verdicts if v.status == SURVIVED and v.upstream]


def _table(rows: Sequence[Sequence[str]]) -> List[str]:
	"""Rows in columns, the first left-aligned, the others right."""
	width = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
	return ['  '.join(r[0].ljust(width[0]) if i == 0 else r[i].rjust(width[i])
			  for i in range(len(r))) for r in rows]


def by_suite_lines(verdicts: Sequence[Verdict], why_none: str) -> List[str]:
	"""mutate.txt's section "by suite": why there is none, or per feature
	its mutants by the side that killed them and the list of those only
	upstream's tests kill."""
	if why_none:
		return [f'by suite (ours, upstream\'s): none: {why_none}']
	table = by_suite(verdicts)
	if not table:
		return ['by suite (ours, upstream\'s): none: no mutant of a suite '
			'that names upstream tests was judged']
	out = ['by suite (ours, upstream\'s): which side killed the mutants both judged']
	out += _table([('feature', 'judged', *(c.replace('_', ' ') for c in SIDES.values()))] +
		      [(f, str(sum(n.values())), *(str(n[c]) for c in SIDES.values()))
		       for f, n in table.items()])
	only = upstream_only(verdicts)
	if only:
		out.append('killed by upstream\'s only (each needs a case of ours):')
	out += [f'  {v.mutant.id} [{v.mutant.feature}, {v.mutant.function}]: '
		+ ', '.join(v.upstream or []) for v in only]
	return out


def lines(verdicts: Sequence[Verdict], infos: Dict[str, coverage.Info],
	  head: str, generated: Dict[str, int], stale: Sequence[str],
	  why_no_table: str = '') -> List[str]:
	"""mutate.txt, also the summary's section; why_no_table: why upstream's
	tests judged nothing ('' if they may have)."""
	table = scores(verdicts)
	out = ['', f'== mutation testing: {head}']
	cols = ('feature', 'generated', 'run', *(s.replace('_', ' ') for s in STATUSES), 'score')
	out += _table([cols] + [(f, str(generated.get(f, 0)),
				 str(sum(int(str(t[s])) for s in STATUSES)),
				 *(str(t[s]) for s in STATUSES),
				 '-' if t['score'] is None else f'{t["score"]:.0f} %')
				for f, t in table.items()])
	surv = [v for v in verdicts if v.status == SURVIVED]
	if surv:
		out.append('survivors (the line, why, the mutant):')
	for v in surv:
		m = v.mutant
		out.append(f'  {m.id} [{m.feature}, {m.function}]: {why_survived(infos, m)}')
		out.append(f'    -{m.before}')
		out.append(f'    +{m.after}')
	for status, label in ((STILLBORN, 'stillborn (does not build)'),
			      (EQUIVALENT, 'equivalent (mutants-equivalent.toml)')):
		these = [v for v in verdicts if v.status == status]
		if these:
			out.append(f'{label}:')
			out += [f'  {v.mutant.id} [{v.mutant.feature}]' +
				(f': {v.reason}' if v.reason else '') for v in these]
	# one line per file: its mutants share the reason (tcp_ehash: 90 in
	# net/dccp/proto.c)
	unbuilt: Dict[Tuple[str, str], List[Verdict]] = {}
	for v in verdicts:
		if v.status == NOT_COMPILED:
			unbuilt.setdefault((v.mutant.file, v.mutant.feature), []).append(v)
	if unbuilt:
		out.append('not compiled (never built or booted; mutate.json lists each):')
	out += [f'  {path} [{feature}]: {len(vs)} mutant(s): {vs[0].reason}'
		for (path, feature), vs in unbuilt.items()]
	if stale:
		out.append('equivalents that match no mutant any more: ' + ', '.join(stale))
	return out + by_suite_lines(verdicts, why_no_table)


def to_json(verdicts: Sequence[Verdict], infos: Dict[str, coverage.Info],
	    meta: Dict[str, object], why_no_table: str = '') -> Dict[str, object]:
	return {**meta, 'features': scores(verdicts), 'by_suite': {
		'none': why_no_table,
		'features': {} if why_no_table else by_suite(verdicts),
		'upstream_only': [{'id': v.mutant.id, 'feature': v.mutant.feature,
				   'file': v.mutant.file, 'line': v.mutant.line,
				   'upstream': v.upstream} for v in upstream_only(verdicts)],
	}, 'mutants': [{
		'id': v.mutant.id, 'feature': v.mutant.feature,
		'function': v.mutant.function, 'operator': v.mutant.operator,
		'verdict': v.status, 'killed_by': v.by, 'note': v.note,
		'killed_by_upstream': v.upstream,
		'reason': v.reason, 'diff': v.mutant.diff,
		**({'survived': why_survived(infos, v.mutant)} if v.status == SURVIVED else {}),
	} for v in verdicts]}


# -- the command --------------------------------------------------------------

def options(p: argparse.ArgumentParser, repo: Path) -> None:
	p.add_argument('--per-feature', type=int, metavar='N',
		       help='N mutants per feature, sampled with --seed (default: all)')
	p.add_argument('--seed', type=int, default=1, metavar='S')
	p.add_argument('--feature', action='append', metavar='NAME',
		       help='only this feature (suites.toml name; repeatable)')
	p.add_argument('--mutant', action='append', metavar='ID',
		       help='only this mutant (file:line:operator:n as --list '
		       'prints it; repeatable; instead of --per-feature)')
	p.add_argument('--baseline', metavar='FILE',
		       help='results.json of a run without mutants on the same '
		       'tree and variant (a mutate run\'s runs/<kind>-baseline/), '
		       'instead of a new one')
	p.add_argument('--kind', action='append', choices=list(suites.KINDS),
		       help='judge by these kinds of suites only (repeatable; '
		       'default both: KUnit first, then the guest boot)')
	p.add_argument('--variant', default='debug', metavar='NAME',
		       help='the kernel variant (default debug: kmemleak judges a dropped put)')
	p.add_argument('--list', action='store_true',
		       help='print the mutants that would run, build nothing (the '
		       'patched tree is still derived in the cache, as a run does)')
	p.add_argument('--equivalents', default=str(repo / EQUIVALENTS), metavar='FILE')
	p.add_argument('--coverage', default=str(repo / 'results' / 'coverage'), metavar='DIR',
		       help='a make coverage run: which suites ran a survivor\'s line')
	p.add_argument('--seeds', default=str(repo.parent / 'shared' / 'seeds'), metavar='DIR')
	p.add_argument('--out', default=str(repo / 'results' / 'mutate'), metavar='DIR')
	p.add_argument('--run-args', default='', metavar='ARGS',
		       help='more options for each run, one string')
	p.add_argument('--schemata', action='store_true',
		       help='mutant schemata (README "Mutant schemata"): one build '
		       'holds every mutant that can take a run-time switch, '
		       'each judged with its switch on in its feature\'s loop '
		       'boot; the rest batch by batch as without; with --list, '
		       'per feature how many can')
	p.add_argument('--journal', metavar='FILE',
		       help='the verdicts as they come, and those a stopped run of '
		       'the same tree left, which are not judged again (default '
		       '--out\'s journal.jsonl; a file in the repository carries a '
		       'run across machines)')
	p.add_argument('--fresh', action='store_true',
		       help='judge every mutant again, not only those a stopped run '
		       'of the same tree left (--journal)')


def no_table(variant: guest.Variant, kinds: Sequence[str]) -> str:
	"""Why upstream's tests judge no mutant of a mutate run ('' when
	they do): the by-suite table needs a kselftest boot that runs them."""
	if not variant.upstream:
		return (f'variant {variant.name} runs no upstream tests (variants.toml '
			'upstream = false); --variant default does')
	if Kind.KSELFTEST not in kinds:
		return '--kind kunit: upstream\'s tests run in the kselftest boot'
	return ''


def command(args: argparse.Namespace, repo: Path, cache: Path,
	    main: Callable[[Sequence[str]], int]) -> int:
	start = time.monotonic()
	specs = suites.load(repo)
	kinds = args.kind or list(suites.KINDS)
	unknown = sorted(set(args.feature or []) - {s.name for s in specs})
	if unknown:
		raise InputError(f'--feature {", ".join(unknown)}: not in suites.toml')
	if args.per_feature is not None and args.per_feature < 1:
		raise InputError(f'--per-feature {args.per_feature}: must be 1 or more')
	if args.mutant and args.per_feature is not None:
		raise InputError('--mutant and --per-feature: one or the other')
	equivalents = load_equivalents(Path(args.equivalents))
	# upstream's tests judge too on a variant that runs them (the
	# by-suite table); the score stays ours (Verdict)
	why_no_table = no_table(inputs.variant_of(args), kinds)
	upstream_runs = not why_no_table
	baseline = load_baseline(Path(args.baseline), kinds, upstream_runs) \
		if args.baseline else None
	out = Path(args.out).resolve()
	out.mkdir(parents=True, exist_ok=True)
	# the tree the mutants are made from: the series on the pristine tree,
	# derived as a run derives it (and left for the runs to re-derive)
	src = tree.debian_source(cache, out)
	digest, _ = tree.derive(tree.Layout(repo), src, out)
	seeds = Path(args.seeds)
	wanted = targets(repo, src.tree, seeds if seeds.is_dir() else None, specs)
	# the features a suite of these kinds judges
	judged = judges(specs, {f: {t.file for t in ts} for f, ts in wanted.items()})
	kinded = set().union(*(judging(specs, k, upstream_runs) for k in kinds))
	everyone = generate(src.tree, wanted)
	# an equivalent is stale when no feature has its mutant, whatever
	# --feature and --kind pick
	stale = sorted(set(equivalents) - {m.id for m in everyone})
	wanted = {f: ts for f, ts in wanted.items()
		  if (not args.feature or f in args.feature) and judged[f] & kinded}
	every = [m for m in everyone if m.feature in wanted]
	generated = {f: sum(1 for m in every if m.feature == f) for f in wanted}
	chosen = sample(every, args.per_feature, args.seed, args.mutant or ())
	if args.schemata and args.list:
		return _list_schemata(chosen, equivalents, src.tree)
	if args.list:
		for m in chosen:
			print(f'{m.feature}\t{m.id}\t{m.function}\t{m.after.strip()}')
		print(f'kconform: mutate: {len(chosen)} of {len(every)} mutants')
		return 0
	runner = KernelRunner(main, out, args.variant, shlex.split(args.run_args))
	files_of = {f: {t.file for t in ts} for f, ts in wanted.items()}
	journal = Journal(Path(args.journal).resolve() if args.journal else out / JOURNAL,
			  {'variant': args.variant, 'series': digest,
			   'patches': tree.series_digest(tree.Layout(repo), src, overlays=False),
			   'run_args': args.run_args, 'baseline': args.baseline or ''},
			  args.fresh, suite_digests(tree.Layout(repo), specs))
	boots = _boots(args, main, out, chosen, equivalents, src.tree, specs, files_of,
		       upstream_runs) if args.schemata else None
	judged_by = (chosen, kinds, specs, equivalents, runner, files_of, baseline,
		     upstream_runs, journal)
	verdicts = boots.judge(*judged_by) if boots else run_all(*judged_by)
	runs = runner.runs + (boots.runs if boots else 0)
	wall = round(time.monotonic() - start, 1)
	infos = load_coverage(Path(args.coverage))
	head = (f'variant {args.variant}, kinds {"+".join(kinds)}, '
		+ (f'{len(chosen)} named mutant(s)' if args.mutant else
		   f'{args.per_feature} per feature, seed {args.seed}'
		   if args.per_feature else 'every mutant')
		+ (f', baseline {args.baseline}' if args.baseline else '')
		+ (f', schemata ({len(boots.schemata.numbers)} switched)' if boots else '')
		+ f', {runs} builds and boots, {wall:.0f} s')
	text = lines(verdicts, infos, head, generated, stale, why_no_table)
	(out / 'mutate.txt').write_text('\n'.join(text) + '\n')
	(out / 'mutate.json').write_text(json.dumps(to_json(verdicts, infos, {
		'variant': args.variant, 'kinds': kinds, 'seed': args.seed,
		'per_feature': args.per_feature, 'generated': generated,
		'runs': runs, 'wall_s': wall, 'stale_equivalents': stale},
		why_no_table), indent=1) + '\n')
	base = [out / 'runs' / f'{k}-baseline' / 'summary.txt' for k in kinds]
	summary: List[str] = next((b.read_text().splitlines() for b in base
				   if b.exists()), [])
	(out / 'summary.txt').write_text('\n'.join(summary + text) + '\n')
	for line in text:
		print(line)
	print(f'kconform: mutate: {out}/mutate.txt, mutate.json, summary.txt')
	return 0


def _read(src: Path) -> Callable[[str], List[str]]:
	return lambda path: (src / path).read_text(errors='replace').splitlines()


def _list_schemata(chosen: Sequence[Mutant], equivalents: Dict[str, str], src: Path) -> int:
	"""--schemata --list: per feature the mutants a switch holds, by
	form, and those that fall back to the build per batch, with why."""
	from . import schemata		# it builds on this module
	plan = schemata.build([m for m in chosen if m.id not in equivalents], _read(src))
	for line in schemata.summary(chosen, plan):
		print(line)
	switched = sum(1 for m in chosen if m.id in plan.numbers)
	print(f'kconform: mutate: {switched} of {len(chosen)} mutants switched in one build '
	      f'({len(plan.numbers)} switches), {len(chosen) - switched} batch by batch '
	      f'({sum(1 for m in chosen if m.id in equivalents)} of them equivalent: never run)')
	return 0


def _boots(args: argparse.Namespace, main: Callable[[Sequence[str]], int], out: Path,
	   chosen: Sequence[Mutant], equivalents: Dict[str, str], src: Path,
	   specs: Sequence[suites.SuiteSpec], files_of: Dict[str, Set[str]],
	   upstream_runs: bool) -> 'schemata.Runner':
	"""--schemata's runner: the switched mutants' build and boots."""
	from . import schemata		# it builds on this module
	judging_ = schemata.Judging(
		judges(specs, files_of),
		{str(k): judging(specs, k, upstream_runs) for k in suites.KINDS},
		{Kind.KUNIT: {s.name: list(s.kunit) for s in specs},
		 Kind.KSELFTEST: {s.name: [t for t in (s.kselftest, suites.UPSTREAM if
						       upstream_runs and s.upstream else None) if t]
				  for s in specs}},
		{s.name: s.seconds_on(args.variant) for s in specs},
		{s.name: s.mutant_programs for s in specs if s.mutant_programs})
	return schemata.Runner(main, out, args.variant, shlex.split(args.run_args),
			       [m for m in chosen if m.id not in equivalents], _read(src),
			       judging_)
