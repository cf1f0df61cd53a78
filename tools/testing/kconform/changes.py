# SPDX-License-Identifier: GPL-2.0
"""What changed in the features' code between two releases of the tree.

`kconform changes OLD NEW`: a release is named as `matrix` names it
(`6.1.170-3`, `linux-source-6.12`, `default`) or is a folder (`--tree`'s
kind of tree, or `tree:DIR`). Both pristine trees come from tree.py (the
archive's package, extracted once in the cache). Per feature (a table of
suites.toml: coverage.toml's files for its suite, its `requires` files and
the files of the series' patches it needs; a patch no suite claims is the
feature `series`), every hunk of `diff -u` between the two trees, with

- the stable commit it belongs to, by title: the newer release's
  changelog.Debian.gz lists the titles of the stable commits each Debian
  version took; a title matches a hunk when its subsystem prefix names
  the file's folder or name and its words name the hunk's function or an
  identifier the hunk changes (otherwise: no match found);
- whether a case executes its lines: the lcov data of a coverage run of
  either release (results/matrix/<release>/coverage.info, or
  results/coverage/ when its results.json names the release), the
  hunk's added lines mapped into the run's patched tree (new side) and
  its removed lines into the old one's, as coverage.py maps seed hunks;
  a hunk with code that no case runs is an untested change; and the
  suites whose line data (coverage.by_suite: each kselftest target, the
  KUnit boot) ran them, or that the run did not record them;
- the cases whose verdict differs between the two releases' results
  (results/matrix/<release>/results.json), per feature;
- its class and reason, read by hand: changes.toml's entry that lists
  the hunk's key (file:function:digest of its changed lines), with the
  commit's title where the match above is wrong or missing, and for a
  test-visible change the cases that tell the two sides apart (a
  fixes.toml stable fix's guards, or cases named in the entry); a hunk
  no entry lists is unclassified.

changes.txt and changes.json go to --out.
"""

from __future__ import annotations

import fnmatch
import functools
import gzip
import hashlib
import json
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, FrozenSet, List, Mapping, Optional, Sequence, Set, Tuple

from . import archive, coverage, fixes, matrix, suites, tomlfile, tree
from .model import InputError, KconformError

SERIES = 'series'	# the feature of the series' patches no suite claims
# files of the series that are no feature's code (a patch's entry there)
NOT_CODE = ('MAINTAINERS',)
NO_MATCH = 'no match found'
NOT_RUN = 'coverage not run'
NOT_RECORDED = 'suites not recorded'	# a run with no per-suite line data
UNTESTED = 'untested change'
JUDGED = 'changes.toml'		# the hand reading of hunks, in the repository
VISIBLE = 'test-visible'
HIDDEN = 'not test-visible'
UNCLASSIFIED = 'unclassified'
CHANGE_KEYS = ('class', 'reason', 'title', 'fix', 'cases', 'hunks')
HUNK_KEY = re.compile(r'[^:\s]+:\w*:[0-9a-f]{10}')
CASE = re.compile(r'(kunit|kselftest):[^:\s]+:\S+')


@dataclass(frozen=True)
class Release:
	"""One side of the comparison: its pristine tree and what goes with it."""
	name: str			# as given
	source: str			# tree.Source's name (results.json kernel.source)
	tree: Path			# pristine
	patched: Optional[Path]		# the series' tree of a run, if one is in the cache
	changelog: Optional[Path]
	version: Optional[str]		# the Debian version (its changelog's first entry)


def _release(name: str, src: tree.Source, changelog: Optional[Path]) -> Release:
	patched = src.tree if (src.work / 'stamp').exists() and src.tree.is_dir() else None
	have = changelog if changelog and changelog.exists() else None
	return Release(name, src.name, src.pristine, patched, have,
		       tree.changelog_version(have))


def locate(name: str, cache: Path, log_dir: Path, fetch: bool = True) -> Release:
	"""A release as matrix names it, or a folder; fetched and extracted
	by tree.py when it is not in the cache yet (fetch), else an error
	naming what is missing."""
	if name.startswith('tree:') or Path(name).is_dir():
		path = Path(name[len('tree:'):] if name.startswith('tree:') else name)
		if not path.is_dir():
			raise InputError(f'{name}: not a folder')
		return _release(name, tree.user_source(cache, path), None)
	try:
		args = matrix.run_args(name)
	except ValueError as e:
		raise InputError(str(e)) from e
	if args and args[0] != '--source':
		raise InputError(f'{name}: a package\'s kernel has no source tree to compare')
	package, version = tree.DEBIAN_DIR, ''
	if args:
		package, wanted = tree.parse_release(args[1])
		version = archive.resolve(package, wanted, log_dir / 'apt-policy.log')
	if not args or tree.installed(package, version):
		if not fetch and not (cache / 'pristine' / 'stamp').exists():
			raise KconformError(f'{name}: its tree is not extracted in {cache}')
		src = tree.debian_source(cache, log_dir)
		return _release(name, src, tree.DEBIAN_CHANGELOG)
	if not fetch and not (archive.folder(cache, package, version) / 'tree' / 'stamp').exists():
		raise KconformError(f'{name}: its tree is not extracted in {cache}')
	src = tree.release_source(cache, package, version, log_dir)
	return _release(name, src, archive.folder(cache, package, version) / 'root' /
			'usr' / 'share' / 'doc' / package / 'changelog.Debian.gz')


@dataclass
class Feature:
	"""A suite's files: those whose every hunk counts, and for a seed
	that names functions, which ones (file -> names)."""
	name: str
	files: List[str] = field(default_factory=list)
	functions: Dict[str, List[str]] = field(default_factory=dict)
	suites: Set[str] = field(default_factory=set)	# KTAP suite and kselftest names
	whole: Set[str] = field(default_factory=set)	# files all of whose lines count


def features(repo: Path) -> List[Feature]:
	"""Per suite of suites.toml, its files; then the series' other files.
	A file may be several features' (compare() lists its hunks under the
	first)."""
	layout = tree.Layout(repo)
	series = layout.series()
	seeds = coverage.load(repo)
	out: List[Feature] = []
	taken: Set[str] = set()
	for spec in suites.load(repo):
		f = Feature(spec.name, suites={*spec.kunit, *([spec.kselftest] if spec.kselftest else [])})
		names: List[str] = []
		for s in seeds:
			if s.suite != spec.name:
				continue
			names += s.files
			f.whole.update(s.files)
			for path, funcs in s.functions:
				names.append(path)
				f.functions.setdefault(path, []).extend(funcs)
		names += [path for path, _ in spec.requires]
		for _, glob, _ in spec.patches:
			for p in series:
				if fnmatch.fnmatchcase(p, glob):
					changed = [x for fs in coverage.patch_files(
						layout.patches, [p], c_only=False).values() for x in fs]
					names += changed
					f.whole.update(changed)
		f.files = [n for n in dict.fromkeys(names) if n not in NOT_CODE]
		taken.update(f.files)
		out.append(f)
	rest = [x for fs in coverage.patch_files(layout.patches, series, c_only=False).values()
		for x in fs if x not in taken and x not in NOT_CODE]
	if rest:
		out.append(Feature(SERIES, list(dict.fromkeys(rest))))
	return out


@dataclass(frozen=True)
class Title:
	"""A commit the changelog lists: its title, the Debian version that
	took it, the stable release it came with ('' for Debian's own)."""
	text: str
	debian: str
	stable: str


def parse_changelog(text: str, since: Optional[str]) -> List[Title]:
	"""The titles of the entries above the one of version since (all of
	them when since is None; when since is not listed, those above the
	first older entry: 6.12's changelog has 6.1's unstable entries)."""
	out: List[Title] = []
	listed = since is not None and f'({since})' in text
	version = stable = ''
	item: Optional[List[str]] = None
	indent = 0		# where the item's text starts: its continuation's

	def close() -> None:
		if item:
			out.append(Title(' '.join(item), version, stable))

	for line in text.splitlines():
		m = re.match(r'^\S+ \(([^)]+)\)', line)
		if m:
			close()
			item = None
			version, stable = m.group(1), ''
			if since is not None and (version == since or (
					listed is False and tree.version_lt(version, since))):
				return out
			continue
		m = re.search(r'ChangeLog-(\d+\.\d+\.\d+)', line)
		if m:
			close()
			item, stable = None, m.group(1)
			continue
		m = re.match(r'^(\s+[*-] )(.*)$', line)
		if m:
			close()
			item, indent = [m.group(2).strip()], len(m.group(1))
			if line.startswith('  * '):
				stable = ''	# Debian's own change, not a stable update's
		elif item is not None and line.strip() and \
				len(line) - len(line.lstrip()) >= indent:
			item.append(line.strip())
		else:
			close()
			item = None
	close()
	return out


_STOP = {'fix', 'fixes', 'the', 'and', 'for', 'from', 'with', 'when', 'into', 'that',
	 'this', 'use', 'add', 'remove', 'don', 'not', 'avoid', 'check', 'make',
	 'after', 'before', 'only', 'its', 'are', 'can', 'should', 'correct',
	 'properly', 'instead', 'missing', 'also', 'void', 'static', 'int',
	 'struct', 'return', 'const', 'unsigned', 'long', 'bool', 'true', 'false',
	 'null', 'err', 'ret', 'else', 'goto', 'out', 'sizeof', 'case', 'break'}


def function_of(header: str) -> str:
	"""The function (or table) a hunk is in, from diff -p's line."""
	m = re.match(r'^\s*(?:BPF_CALL_\d|SYSCALL_DEFINE\d|COMPAT_SYSCALL_DEFINE\d)'
		     r'\(\s*(\w+)', header)
	if m:
		return m.group(1)
	m = re.search(r'(\w+)\s*\(', header) or re.search(r'(\w+)\s*(?:\[|=|\{)', header)
	return m.group(1) if m else ''


def hunk_function(h: coverage.Hunk) -> str:
	"""The function (struct, table) a hunk changes: a definition among
	its leading context lines, else the one diff -p names."""
	head = ''
	for tag, line in h.old:
		if tag != ' ':
			break
		if re.match(r'^[A-Za-z_].*[({=]', line) and not line.rstrip().endswith(';'):
			head = line
	return function_of(head or h.func)


def _idents(text: str) -> Set[str]:
	return set(re.findall(r'[A-Za-z_]\w*', text))


def _words(idents: Set[str]) -> Set[str]:
	"""Identifiers split at _ and lowered, short ones and keywords left out."""
	return {w for i in idents for w in i.lower().split('_')
		if len(w) > 2 and w not in _STOP}


@functools.lru_cache(maxsize=None)
def _title(title: str) -> Tuple[FrozenSet[str], FrozenSet[str], FrozenSet[str]]:
	"""A title's subsystem prefix words, identifiers and words."""
	prefix, _, rest = title.rpartition(': ')
	pwords = frozenset(w for w in re.split(r'[\s,/:()\[\]]+', prefix.lower()) if w)
	idents = _idents(rest)
	return pwords, frozenset(idents), frozenset(_words(idents) - pwords)


def score(title: str, path: str, func: str, changed: str) -> int:
	"""How well a title names a hunk: 0 unless its subsystem prefix names
	the file's folder or name and it names the hunk's function or an
	identifier the hunk changes (3 each), or a word of the function's
	name (a part of it) among at least two words the title and the
	changed lines share (1 each)."""
	return _score(_title(title), path, func, _idents(changed) | {func})


def _score(t: Tuple[FrozenSet[str], FrozenSet[str], FrozenSet[str]], path: str,
	   func: str, code: Set[str]) -> int:
	pwords, idents, words = t
	parts = _parts(path)
	if not pwords & parts:
		return 0
	exact = {i for i in idents if ('_' in i or i == func) and i in code}
	if exact:
		return 3 * len(exact)
	tw = words - parts
	common = tw & _words(code)
	named = {w for w in tw if len(w) > 3 and any(w in f for f in _words({func}))}
	common |= named
	return len(common) if named and len(common) >= 2 else 0


@functools.lru_cache(maxsize=None)
def _parts(path: str) -> FrozenSet[str]:
	"""The words of a file's path a subsystem prefix may name."""
	return frozenset(re.split(r'[/._-]', path.lower())) | {Path(path).stem.lower()}


def about(titles: Sequence[Title], path: str) -> List[Title]:
	"""The titles whose subsystem prefix names the file's folder or name."""
	return [t for t in titles if _title(t.text)[0] & _parts(path)]


def match(titles: Sequence[Title], path: str, func: str, changed: str) -> List[Title]:
	"""The titles that name a hunk best (ties: all of them, up to 3)."""
	code = _idents(changed) | {func}
	scored = [(_score(_title(t.text), path, func, code), t) for t in titles]
	best = max((s for s, _ in scored), default=0)
	return [t for s, t in scored if s == best][:3] if best else []


def digest(lines: Sequence[Tuple[str, str]]) -> str:
	"""Of a hunk's lines in diff order (tag, text): its changed lines,
	whitespace runs made one space, so that a re-indented context or
	another line number keeps it."""
	changed = [t + ' '.join(x.split()) for t, x in lines if t in '+-']
	return hashlib.sha256('\n'.join(changed).encode()).hexdigest()[:10]


def hunk_key(rel: str, func: str, h: coverage.Hunk) -> str:
	"""How changes.toml names a hunk: file:function:digest."""
	return f'{rel}:{func}:{digest(_unified(h))}'


@dataclass(frozen=True)
class Judgement:
	"""A hand reading of hunks: one [[change]] of changes.toml."""
	name: str			# how errors and the output name it
	cls: str			# VISIBLE or HIDDEN
	reason: str
	title: str = ''			# the commit, where the title match is wrong or missing
	fix: str = ''			# fixes.toml's [stable."<fix>"] (test-visible)
	cases: Tuple[str, ...] = ()	# the cases that tell the two sides apart


def judgements(repo: Path) -> Dict[str, Judgement]:
	"""changes.toml: hunk key -> its judgement ({} without the file). An
	entry that lists no hunk of a comparison is fine (another pair of
	releases'); a malformed one is an error that names it."""
	path = repo / JUDGED
	if not path.exists():
		return {}
	entries = tomlfile.array(path, 'change', CHANGE_KEYS)
	stable: Dict[str, fixes.Fix] = {}
	if any('fix' in e for e in entries):
		layout = tree.Layout(repo)
		stable = {f.patch: f for f in fixes.load(layout.patches, layout.series())
			  if f.release}
	out: Dict[str, Judgement] = {}
	for n, entry in enumerate(entries, 1):
		j, keys = _judgement(path, f'[[change]] #{n}', entry, stable)
		for key in keys:
			if key in out:
				raise KconformError(f'{path}: {j.name}: hunk {key} is also '
						    f'in {out[key].name}')
			out[key] = j
	return out


def _judgement(path: Path, name: str, entry: Mapping[str, Any],
	       stable: Mapping[str, fixes.Fix]) -> Tuple[Judgement, List[str]]:
	"""One entry, checked, and the hunks it lists."""
	def strings(key: str) -> List[str]:
		v = entry.get(key, [])
		if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
			raise KconformError(f'{path}: {name}: {key}: expected a list of strings')
		return v

	for key in ('class', 'reason', 'title', 'fix'):
		if not isinstance(entry.get(key, ''), str):
			raise KconformError(f'{path}: {name}: {key}: expected a string')
	title, fix, cls = entry.get('title', ''), entry.get('fix', ''), entry.get('class')
	name += f' ("{title or fix}")' if title or fix else ''
	hunks, cases = strings('hunks'), strings('cases')
	if cls not in (VISIBLE, HIDDEN):
		raise KconformError(f'{path}: {name}: class {cls!r}: expected '
				    f'"{VISIBLE}" or "{HIDDEN}"')
	if not entry.get('reason') or not hunks:
		raise KconformError(f'{path}: {name}: needs a reason and its hunks')
	bad = [h for h in hunks if not HUNK_KEY.fullmatch(h)]
	if bad:
		raise KconformError(f'{path}: {name}: hunk {bad[0]!r}: expected '
				    'file:function:digest (10 hex digits), as changes.json\'s key')
	bad = [c for c in cases if not CASE.fullmatch(c)]
	if bad:
		raise KconformError(f'{path}: {name}: case {bad[0]!r}: expected '
				    'kunit:SUITE:CASE or kselftest:TARGET:CASE')
	if cls == HIDDEN and (fix or cases):
		raise KconformError(f'{path}: {name}: a change that is {HIDDEN} has '
				    'no fix or cases')
	if cls == VISIBLE and bool(fix) == bool(cases):
		raise KconformError(f'{path}: {name}: a change that is {VISIBLE} names '
				    'the cases that tell its two sides apart: a fix (a '
				    'stable table of patches/fixes.toml, its guards) or '
				    'cases, one of them')
	if fix and fix not in stable:
		raise KconformError(f'{path}: {name}: fix: patches/fixes.toml has no '
				    f'[stable."{fix}"]')
	return Judgement(name, str(cls), str(entry['reason']), title, fix,
			 stable[fix].guards if fix else tuple(cases)), hunks


def judge(h: Dict[str, Any], j: Optional[Judgement], titles: Sequence[Title],
	  ran: Optional[Sequence[Tuple[str, List[str]]]]) -> None:
	"""A hunk's class, reason and cases (with the verdicts of those that
	differ, when compared) from its judgement; its title replaces the
	match (the changelog's entry of it, when listed)."""
	h['class'] = j.cls if j else None
	h['reason'] = j.reason if j else ''
	h['fix'] = j.fix if j else ''
	h['cases'] = list(j.cases) if j else []
	h['case_verdicts'] = None if ran is None or j is None else [
		{'case': k, 'old': r[0], 'new': r[1]} for k, r in ran
		if fixes.names_case(_case_key(k), j.cases)]
	title = (j.title or j.fix) if j else ''
	if title:
		listed = [t for t in titles if t.text == title or t.text.startswith(title + ' (')]
		h['commit'] = [{'title': t.text, 'stable': t.stable, 'debian': t.debian,
				'by': JUDGED} for t in listed[:1]] or [
			{'title': title, 'stable': '', 'debian': '', 'by': JUDGED}]


def _case_key(key: str) -> fixes.Key:
	kind, suite, case = (key.split(':', 2) + ['', ''])[:3]
	return kind, suite, case


def diff_file(old: Path, new: Path, rel: str) -> str:
	"""diff -u of one file of the two trees (a missing side is empty),
	each hunk headed by the function it is in."""
	a, b = old / rel, new / rel
	if not a.exists() and not b.exists():
		return ''
	r = subprocess.run(['diff', '-u', '-N', '-F', '^[[:alpha:]$_].*[({=]',
			    '--label', f'a/{rel}', '--label', f'b/{rel}', str(a), str(b)],
			   capture_output=True, text=True, errors='replace', check=False)
	if r.returncode > 1:
		raise KconformError(f'diff {a} {b}: {r.stderr.strip()}')
	return r.stdout


@functools.lru_cache(maxsize=None)
def _spans(path: Path, names: Tuple[str, ...]) -> Tuple[Tuple[str, int, int], ...]:
	if not path.exists():
		return ()
	text = path.read_text(errors='replace').splitlines()
	found = ((n, coverage.function_lines(n, text)) for n in names)
	return tuple((n, s[0], s[1]) for n, s in found if s)


def in_functions(path: Path, names: Sequence[str], start: int, lines: int) -> List[str]:
	"""Which of the named functions lines start..start+lines-1 of a file touch."""
	return [n for n, first, last in _spans(path, tuple(names))
		if first <= start + max(lines, 1) - 1 and start <= last]


def _lookup(info: coverage.Info, rel: str) -> Optional[Dict[int, int]]:
	"""A file's line data, by its path in the tree (lcov's are absolute)."""
	for path, da in info.lines.items():
		if path == rel or path.endswith('/' + rel):
			return da
	return None


@dataclass(frozen=True)
class LineData:
	"""A coverage run's line data of a release: the sum of its boots,
	where it is from, and what each suite ran (coverage.by_suite: "kunit"
	and each kselftest target; None for a run that kept no such data)."""
	info: coverage.Info
	where: str
	by: Optional[Dict[str, coverage.Info]] = None


def line_data(rel: Release, results: Path, repo: Path) -> Optional[LineData]:
	"""A coverage run's line data of the release; None when no coverage
	run of it is found."""
	places = [results / matrix.folder_name(rel.name)]
	other = repo / 'results' / 'coverage'
	try:
		source = json.loads((other / 'results.json').read_text()).get(
			'kernel', {}).get('source')
	except (OSError, ValueError, AttributeError):
		source = None
	if source == rel.source:
		places.append(other)
	for p in places:
		f = p / 'coverage.info'
		if f.exists():
			return LineData(coverage.parse_info(f.read_text(errors='replace')), str(f),
					coverage.by_suite(p))
	return None


def ran_by(by: Optional[Mapping[str, coverage.Info]], rel: str,
	   lines: Sequence[int]) -> Optional[List[str]]:
	"""The suites whose line data has a count on one of the lines of the
	file (kselftest targets, then "kunit"); None when not recorded."""
	if by is None:
		return None
	out = []
	for name, info in by.items():
		da = _lookup(info, rel) or {}
		if any(da.get(n, 0) > 0 for n in lines):
			out.append(name)
	return sorted(out, key=lambda n: (n == coverage.KUNIT, n))


def executed(h: coverage.Hunk, rel: str, side: Release,
	     data: Optional[LineData]) -> Dict[str, Any]:
	"""The hunk's lines on one side (its added lines: pass the hunk; its
	removed ones: its reverse) that are code, those a case ran, and the
	suites that ran them (ran_by; None: the run did not record them)."""
	if not any(t == '+' and x.strip() for t, x in h.lines):
		return {'added': 0}
	if data is None:
		return {'coverage': NOT_RUN}
	da = _lookup(data.info, rel)
	if da is None:
		return {'coverage': 'no line data for the file (not profiled or not built)'}
	base = side.patched or side.tree
	f = base / rel
	current = f.read_text(errors='replace').splitlines() if f.exists() else []
	mapped, gone = coverage.map_hunks([h], current)
	code = [n for n in mapped if n in da]
	return {'lines': len(code), 'executed': len([n for n in code if da[n] > 0]),
		'ran_by': ran_by(data.by, rel, code),
		'mapped_onto': 'patched' if side.patched else 'pristine', 'gone': gone}


def status(new: Mapping[str, Any], old: Mapping[str, Any]) -> str:
	"""run / untested change / no code / coverage not run, of both sides
	(a side with no lines of its own does not count)."""
	sides = [s for s in (new, old) if s.get('added', 1)]
	if any(s.get('executed', 0) for s in sides):
		return 'run'
	measured = [s for s in sides if 'executed' in s]
	if any(s['lines'] for s in measured):
		return UNTESTED
	return 'no code' if measured and len(measured) == len(sides) else NOT_RUN


def _results(results: Path, rel: Release) -> Optional[Dict[str, Any]]:
	try:
		data = json.loads((results / matrix.folder_name(rel.name) / 'results.json').read_text())
	except (OSError, ValueError):
		return None
	return data if isinstance(data, dict) else None


def verdict_changes(old: Optional[Mapping[str, Any]], new: Optional[Mapping[str, Any]]
		    ) -> Optional[List[Tuple[str, List[str]]]]:
	"""The cases whose verdict differs (old, new), None unless both ran."""
	if old is None or new is None:
		return None
	return matrix.differences({'old': matrix.verdicts(old), 'new': matrix.verdicts(new)})


def compare(repo: Path, old: Release, new: Release, results: Path) -> Dict[str, Any]:
	"""changes.json's document."""
	titles: List[Title] = []
	if new.changelog:
		with gzip.open(new.changelog, 'rt', errors='replace') as f:
			titles = parse_changelog(f.read(), old.version)
	infos = {s: line_data(r, results, repo) for s, r in (('old', old), ('new', new))}
	ran = verdict_changes(_results(results, old), _results(results, new))
	judged = judgements(repo)
	feats = []
	first: Dict[str, str] = {}	# file -> the feature its hunks are listed under
	found_features = features(repo)
	# a file only named by functions (no feature has all of it): the
	# functions of every feature in it
	whole = {f for feat in found_features for f in feat.whole}
	scoped: Dict[str, List[str]] = {}
	for feat in found_features:
		for rel, names in feat.functions.items():
			if rel not in whole:
				scoped.setdefault(rel, []).extend(names)
	for feat in found_features:
		hunks = []
		shared = {rel: first[rel] for rel in feat.files if rel in first}
		for rel in feat.files:
			if rel in shared:
				continue
			first[rel] = feat.name
			text = diff_file(old.tree, new.tree, rel)
			near = about(titles, rel)
			for h in coverage.parse_diff(text).get(rel, []):
				added = [x for t, x in h.lines if t == '+']
				removed = [x for t, x in h.old if t == '-']
				func = hunk_function(h)
				found = match(near, rel, func, '\n'.join(added + removed))
				sides = {'new': executed(h, rel, new, infos['new']),
					 'old': executed(h.reverse(), rel, old, infos['old'])}
				entry: Dict[str, Any] = {
					'file': rel, 'function': func,
					'key': hunk_key(rel, func, h),
					'old_start': h.old_start, 'old_lines': len(h.old),
					'new_start': h.new_start, 'new_lines': len(h.lines),
					'added': len(added), 'removed': len(removed),
					'commit': [{'title': t.text, 'stable': t.stable,
						    'debian': t.debian} for t in found],
					'coverage': sides,
					'status': status(sides['new'], sides['old']),
					'diff': [t + x for t, x in _unified(h)]}
				if rel in scoped:
					entry['in_functions'] = sorted(set(
						in_functions(new.tree / rel, scoped[rel], h.new_start,
							     len(h.lines)) +
						in_functions(old.tree / rel, scoped[rel], h.old_start,
							     len(h.old))))
				hunks.append(entry)
			_by_function(hunks, rel)
		for entry in hunks:
			judge(entry, judged.get(entry['key']), titles, ran)
		differ = None if ran is None else [
			{'case': k, 'old': r[0], 'new': r[1]} for k, r in ran
			if k.split(':')[1] in feat.suites]
		feats.append({'name': feat.name, 'files': feat.files, 'hunks': hunks,
			      'listed_under': shared, 'verdicts': differ})
	return {'old': _side(old, infos['old']), 'new': _side(new, infos['new']),
		'titles': len(titles),
		'changelog': str(new.changelog) if new.changelog else None,
		'verdicts_compared': ran is not None,
		'features': feats}


def _by_function(hunks: List[Dict[str, Any]], rel: str) -> None:
	"""A hunk of the file with no title of its own takes the title of
	another hunk in the same function (one commit's several hunks)."""
	titles = {h['function']: h['commit'] for h in hunks
		  if h['file'] == rel and h['commit'] and h['function']}
	for h in hunks:
		if h['file'] == rel and not h['commit'] and h['function'] in titles:
			h['commit'] = [dict(c, by='another hunk of the function')
				       for c in titles[h['function']]]


def _side(r: Release, data: Optional[LineData]) -> Dict[str, Any]:
	return {'name': r.name, 'source': r.source, 'version': r.version,
		'tree': str(r.tree), 'patched': str(r.patched) if r.patched else None,
		'coverage': data.where if data else None,
		'suites_recorded': bool(data and data.by is not None)}


def _unified(h: coverage.Hunk) -> List[Tuple[str, str]]:
	"""The hunk's lines in diff order, from its two sides."""
	out: List[Tuple[str, str]] = []
	i = j = 0
	while i < len(h.old) or j < len(h.lines):
		if i < len(h.old) and h.old[i][0] == '-':
			out.append(h.old[i])
			i += 1
		elif j < len(h.lines) and h.lines[j][0] == '+':
			out.append(h.lines[j])
			j += 1
		else:
			out.append((' ', h.lines[j][1] if j < len(h.lines) else h.old[i][1]))
			i += 1
			j += 1
	return out


def counts(doc: Mapping[str, Any]) -> Dict[str, int]:
	hunks = [h for f in doc['features'] for h in f['hunks']]
	out = {'hunks': len(hunks), 'matched': len([h for h in hunks if h['commit']])}
	for h in hunks:
		out[h['status']] = out.get(h['status'], 0) + 1
	for h in hunks:
		out[h['class'] or UNCLASSIFIED] = out.get(h['class'] or UNCLASSIFIED, 0) + 1
	out.setdefault(UNCLASSIFIED, 0)
	return out


def unclassified(doc: Mapping[str, Any]) -> List[Dict[str, Any]]:
	return [h for f in doc['features'] for h in f['hunks'] if not h['class']]


def brief(doc: Mapping[str, Any]) -> List[str]:
	"""A pair's lines for matrix.txt: the counts, the untested changes."""
	n = counts(doc)
	lines = [', '.join(f'{v} {k}' for k, v in n.items())]
	if not doc['verdicts_compared']:
		lines.append('verdicts not compared (results of both releases not found)')
	for f in doc['features']:
		if f['verdicts']:
			lines += [f'{f["name"]}: {v["case"]} {v["old"]} -> {v["new"]}'
				  for v in f['verdicts']]
		for h in f['hunks']:
			if h['status'] == UNTESTED:
				lines.append(f'{UNTESTED}: {_where(h)}: {_commit(h)}' + (
					f': explained: {_judged(h)}' if h['class'] else ''))
	return lines


def _judged(h: Mapping[str, Any]) -> str:
	"""The hunk's class and reason, and the cases that tell it apart."""
	if not h['class']:
		return f'{UNCLASSIFIED} (key {h["key"]})'
	fix = f' (fixes.toml [stable."{h["fix"]}"])' if h['fix'] else ''
	cases = f'; cases: {", ".join(h["cases"])}{fix}' if h['cases'] else ''
	return f'{h["class"]}: {h["reason"]}{cases}'


def _where(h: Mapping[str, Any]) -> str:
	return f'{h["file"]}:{h["new_start"]} {h["function"] or "(top)"}'


def _commit(h: Mapping[str, Any]) -> str:
	if not h['commit']:
		return NO_MATCH
	return ' | '.join(f'"{c["title"]}" ' + (
		f'({c["stable"] or "Debian"}, {c["debian"]})' if c['debian'] else
		'(not in the changelog)') + (f' [{JUDGED}]' if c.get('by') == JUDGED else '')
		for c in h['commit'])


def _ran(s: Mapping[str, Any]) -> str:
	if 'coverage' in s:
		return str(s['coverage'])
	if 'executed' not in s:
		return 'no lines of its own'
	out = f'{s["executed"]} of {s["lines"]} code lines run'
	if not s['executed']:
		return out
	if s.get('ran_by') is None:
		return f'{out} ({NOT_RECORDED})'
	return f'{out} (by: ' + (', '.join(s['ran_by']) or "none in the suites' data") + ')'


def text(doc: Mapping[str, Any]) -> List[str]:
	"""changes.txt."""
	o, n = doc['old'], doc['new']
	out = [f'== changes: {o["source"]} ({o["version"] or "?"}) -> '
	       f'{n["source"]} ({n["version"] or "?"})',
	       f'   stable commit titles: {doc["titles"]} listed in '
	       f'{doc["changelog"] or "(no changelog: every hunk is " + NO_MATCH + ")"}',
	       f'   coverage: old {o["coverage"] or NOT_RUN}; new {n["coverage"] or NOT_RUN}',
	       '   ' + ', '.join(f'{v} {k}' for k, v in counts(doc).items())]
	if not doc['verdicts_compared']:
		out.append('   verdicts: not compared (results/matrix/<release>/results.json '
			   'of both releases not found)')
	loose = unclassified(doc)
	out.append(f'   {UNCLASSIFIED}: {len(loose)}' + (
		f' (no entry of {JUDGED} lists their key)' if loose else ''))
	out += [f'      {_where(h)} key {h["key"]}' for h in loose]
	for f in doc['features']:
		out.append(f'-- {f["name"]}: {len(f["hunks"])} hunks in {len(f["files"])} files')
		by: Dict[str, List[str]] = {}
		for rel, other in f['listed_under'].items():
			by.setdefault(other, []).append(rel)
		out += [f'   its {", ".join(rels)}: see {other}' for other, rels in by.items()]
		if f['verdicts'] is not None:
			out += [f'   verdict: {v["case"]}: {v["old"]} -> {v["new"]}'
				for v in f['verdicts']] or ['   verdicts: none differ']
		for h in f['hunks']:
			scope = ''
			if 'in_functions' in h:
				scope = '; in ' + (', '.join(h['in_functions']) or
						   'none of the feature\'s functions')
			out.append(f'   {h["file"]} @@ -{h["old_start"]},{h["old_lines"]} '
				   f'+{h["new_start"]},{h["new_lines"]} @@ {h["function"]} '
				   f'(+{h["added"]} -{h["removed"]}{scope})')
			out.append(f'      commit: {_commit(h)}')
			out.append(f'      {h["status"]}: new {_ran(h["coverage"]["new"])}; '
				   f'old {_ran(h["coverage"]["old"])}')
			out.append(f'      {_judged(h)}')
			out += [f'      verdict: {v["case"]}: {v["old"]} -> {v["new"]}'
				for v in h['case_verdicts'] or []]
	return out


def write(doc: Mapping[str, Any], out: Path) -> List[str]:
	out.mkdir(parents=True, exist_ok=True)
	lines = text(doc)
	(out / 'changes.txt').write_text('\n'.join(lines) + '\n')
	(out / 'changes.json').write_text(json.dumps(doc, indent=1) + '\n')
	return lines


def older(a: Release, b: Release) -> bool:
	"""Is a's Debian version before b's (False when either is unknown)?"""
	if not a.version or not b.version:
		return False
	return tree.version_lt(a.version, b.version)


def between(repo: Path, cache: Path, a: str, b: str, results: Path,
	    out: Path) -> List[str]:
	"""For matrix.txt: the changes from the older of a and b to the other,
	written to out/<old>..<new>/; a line saying why not when they cannot be
	compared. Only trees already in the cache are compared (a matrix that
	ran has them): a table of recorded results downloads nothing."""
	out.mkdir(parents=True, exist_ok=True)
	try:
		ra, rb = locate(a, cache, out, fetch=False), locate(b, cache, out, fetch=False)
		old, new = (rb, ra) if older(rb, ra) else (ra, rb)
		doc = compare(repo, old, new, results)
		folder = out / f'{matrix.folder_name(old.name)}..{matrix.folder_name(new.name)}'
		write(doc, folder)
		return [f'{old.name} -> {new.name} ({folder / "changes.txt"})', *brief(doc)]
	except KconformError as e:
		return [f'{a} / {b}: not compared: ' + str(e).split('\n', 1)[0]]
