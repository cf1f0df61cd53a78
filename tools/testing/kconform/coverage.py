# SPDX-License-Identifier: GPL-2.0
"""Coverage: which changed lines of each seed commit the suites
execute, from gcov data of the coverage variant.

coverage.toml names, per seed commit, the kernel C files (or, for a merge
message or a document, the functions) that count. The coverage variant
profiles those files and the C files the series' patches change: make
gets GCOV_PROFILE_<object>=y on its command line for each (kbuild's own
per-object switch, scripts/Makefile.lib; a command-line variable reaches
every directory's Makefile, so no kernel file changes and the other
variants build as before; it matches the object's base name, so a few
same-named objects elsewhere are profiled too and left out of the report).

Both boots of the image send debugfs gcov/ to the console: a gzipped
tar in base64 between two marker lines, the first naming what ran. The
KUnit boot's /init (guest/after-kunit) sends it after KUnit's suites as
"kunit"; the kselftest boot runs its targets one after another
(guest/one-by-one), each from counters set to zero, and sends each
target's under its name. The host unpacks each block next to the build
tree's .gcno files and runs Debian's lcov (geninfo with `llvm-cov gcov`
as its gcov tool): gcov/kunit.info, gcov/kselftest-<target>.info (a log
from before the blocks were named: gcov/<console>.info, the whole boot).
It adds them all up (coverage.info) and writes an HTML report (genhtml). Per seed, the lines the commit added are found in
the tree's current files (map_hunks) and counted against lcov's DA
records: results.json's `coverage` list and the summary's last table.
"""

from __future__ import annotations

import base64
import binascii
import difflib
import io
import re
import shutil
import subprocess
import tarfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from . import tomlfile
from .model import KconformError

CONFIG = 'coverage.toml'
BEGIN = 'kconform: gcov begin'
END = 'kconform: gcov end'
# "kconform: gcov begin NAME" (guest/gcov); no NAME in older logs
_BEGIN = re.compile(r'kconform: gcov begin(?: ([\w.+-]+))?$')
# the lcov data of each suite, in a run's gcov/ (lcov_report)
KUNIT = 'kunit'
KSELFTEST = 'kselftest-'
# geninfo runs "<tool> <options> file": llvm-cov's gcov mode is a sub-command.
GCOV_TOOL = '#!/bin/sh\nexec llvm-cov gcov "$@"\n'


@dataclass(frozen=True)
class Seed:
	"""One table of coverage.toml."""
	name: str			# 001 ...
	suite: str
	files: Tuple[str, ...] = ()
	functions: Tuple[Tuple[str, Tuple[str, ...]], ...] = ()
	why: Tuple[str, ...] = ()


def load(repo: Path) -> List[Seed]:
	path = repo / CONFIG
	data = tomlfile.tables(path, ('suite', 'files', 'functions', 'why'))
	out = []
	for name, entry in data.items():
		funcs = entry.get('functions', {})
		out.append(Seed(name, str(entry.get('suite', '')),
				tuple(str(f) for f in entry.get('files', [])),
				tuple((str(f), tuple(str(n) for n in names))
				      for f, names in funcs.items()),
				tuple(str(w) for w in entry.get('why', []))))
	return out


def patch_files(patches: Path, series: Sequence[str],
		c_only: bool = True) -> Dict[str, List[str]]:
	"""The kernel C files (c_only=False: every file) each patch of the
	series changes (not tools/)."""
	out: Dict[str, List[str]] = {}
	for name in series:
		files = []
		for line in (patches / name).read_text(errors='replace').splitlines():
			m = re.match(r'\+\+\+ b/(\S+)', line)
			if m and (m.group(1).endswith('.c') or not c_only) and \
					not m.group(1).startswith('tools/'):
				files.append(m.group(1))
		if files:
			out[name] = files
	return out


def profiled(seeds: Sequence[Seed], patched: Dict[str, List[str]]) -> List[str]:
	"""Every file the coverage variant profiles, sorted."""
	files: Set[str] = set()
	for s in seeds:
		files.update(s.files)
		files.update(f for f, _ in s.functions)
	for fs in patched.values():
		files.update(fs)
	return sorted(files)


def make_vars(files: Iterable[str]) -> Tuple[str, ...]:
	"""kbuild's per-object gcov switch, one per base name."""
	return tuple(sorted({f'GCOV_PROFILE_{Path(f).stem}.o=y' for f in files}))


_B64 = re.compile(r'^[A-Za-z0-9+/=]+$')


@dataclass(frozen=True)
class Block:
	"""One gcov block of a console log: what ran (a target's name,
	"kunit"; '' in a log from before the blocks were named: the whole
	boot) and the gzipped tar."""
	name: str
	data: bytes


def blocks(lines: Iterable[str]) -> List[Block]:
	"""The gcov blocks of a console log: base64 lines between the markers
	(kernel lines that interrupt them are skipped: they have spaces)."""
	out: List[Block] = []
	body: Optional[List[str]] = None
	name = ''
	for line in lines:
		text = line.rstrip('\r\n')
		begin = _BEGIN.search(text)
		if begin:
			body, name = [], begin.group(1) or ''
		elif text.endswith(END) and body is not None:
			try:
				out.append(Block(name, base64.b64decode(''.join(body), validate=True)))
			except (binascii.Error, ValueError) as e:
				raise KconformError(f'gcov data on the console is damaged: {e}') from e
			body = None
		elif body is not None and _B64.match(text.strip()):
			body.append(text.strip())
	return out


def label(console: Path, block: Block) -> str:
	"""The name of a block's lcov data (gcov/<label>.info): "kunit" for
	the KUnit boots', kselftest-<target> for a target's; a block that
	names nothing (an older log) is its console's whole boot."""
	if not block.name:
		return console.stem
	return block.name if console.name.startswith('kunit-console') else \
		KSELFTEST + block.name


def chosen(got: Sequence[Block]) -> List[Block]:
	"""The blocks of a console that count: every named one; of unnamed
	ones (an older log), the last, as before."""
	return [b for b in got if b.name] + [b for b in got if not b.name][-1:]


def by_suite(folder: Path) -> Optional[Dict[str, Info]]:
	"""What each suite ran, from a coverage run's folder: "kunit" (the
	KUnit boots, gcov/kunit.info) and each kselftest target
	(gcov/kselftest-<target>.info); None when the run kept no such data
	(a run from before: one .info per boot, or coverage.info alone)."""
	gcov = folder / 'gcov'
	out: Dict[str, Info] = {}
	for p in sorted(gcov.glob('*.info')) if gcov.is_dir() else []:
		if p.stem == KUNIT or p.stem.startswith(KSELFTEST):
			out[p.stem[len(KSELFTEST):] if p.stem != KUNIT else KUNIT] = \
				parse_info(p.read_text(errors='replace'))
	return out or None


def unpack(blob: bytes, dest: Path, build_dir: Path,
	   wanted: Sequence[str]) -> List[str]:
	"""The .gcda files of one boot for the wanted sources (paths in the
	tree) into dest, each beside a copy of its .gcno from the build tree;
	returns the sources found."""
	found = []
	suffix = {str(Path(w).with_suffix('.gcda')): w for w in wanted}
	try:
		tar = tarfile.open(fileobj=io.BytesIO(blob), mode='r:gz')
		members = tar.getmembers()
	except (tarfile.TarError, OSError, EOFError) as e:
		raise KconformError(f'gcov data on the console is not a gzipped tar: {e}') from e
	with tar:
		for member in members:
			if not member.isfile():
				continue
			name = member.name.lstrip('./')
			rel = next((k for k in suffix if name == k or name.endswith('/' + k)), None)
			if rel is None:
				continue
			target = dest / rel
			target.parent.mkdir(parents=True, exist_ok=True)
			data = tar.extractfile(member)
			if data is None:
				continue
			target.write_bytes(data.read())
			gcno = build_dir / Path(rel).with_suffix('.gcno')
			if gcno.exists():
				shutil.copy2(gcno, target.with_suffix('.gcno'))
			found.append(suffix[rel])
	return sorted(found)


@dataclass
class Info:
	"""One lcov tracefile: per source path, line -> count (DA records)."""
	lines: Dict[str, Dict[int, int]] = field(default_factory=dict)


def parse_info(text: str, strip: str = '') -> Info:
	"""An lcov .info; strip: a prefix taken off the SF paths (the tree)."""
	info = Info()
	current: Optional[Dict[int, int]] = None
	for raw in text.splitlines():
		line = raw.strip()
		if line.startswith('SF:'):
			path = line[3:]
			if strip and path.startswith(strip.rstrip('/') + '/'):
				path = path[len(strip.rstrip('/')) + 1:]
			current = info.lines.setdefault(path, {})
		elif line.startswith('DA:') and current is not None:
			parts = line[3:].split(',')
			try:
				n, count = int(parts[0]), int(float(parts[1]))
			except (IndexError, ValueError):
				continue
			current[n] = current.get(n, 0) + count
		elif line == 'end_of_record':
			current = None
	return info


def parse_gcov(text: str) -> Dict[int, int]:
	"""A .gcov file (gcov/llvm-cov gcov text): line -> count, for the
	lines that are code ('-' is not code, '#####' is code never run)."""
	out: Dict[int, int] = {}
	for raw in text.splitlines():
		parts = raw.split(':', 2)
		if len(parts) < 3:
			continue
		count, num = parts[0].strip(), parts[1].strip()
		if not num.isdigit() or int(num) == 0 or count == '-':
			continue
		if count in ('#####', '====='):
			out[int(num)] = 0
		else:
			try:
				out[int(num)] = int(count.rstrip('*'))
			except ValueError:
				continue
	return out


@dataclass
class Hunk:
	"""One hunk of a unified diff, as the new file reads it; old_start and
	old, as the old file reads it; func, the text after the second @@
	(diff -p's enclosing function)."""
	new_start: int
	lines: List[Tuple[str, str]]		# (' ' or '+', text), no '-' lines
	old_start: int = 0
	old: List[Tuple[str, str]] = field(default_factory=list)	# (' ' or '-', text)
	func: str = ''

	def reverse(self) -> 'Hunk':
		"""The hunk of the reverse diff: the old file's lines as added."""
		return Hunk(self.old_start, [('+' if t == '-' else ' ', x) for t, x in self.old],
			    self.new_start, [('-' if t == '+' else ' ', x) for t, x in self.lines],
			    self.func)


def parse_diff(text: str) -> Dict[str, List[Hunk]]:
	"""Per new file path, its hunks (a deleted file has none)."""
	out: Dict[str, List[Hunk]] = {}
	hunks: Optional[List[Hunk]] = None
	hunk: Optional[Hunk] = None
	left = [0, 0]		# the hunk's old and new lines still to come
	for line in text.splitlines():
		if hunk is not None and left[0] <= 0 and left[1] <= 0:
			hunk = None
		if line.startswith('diff --git '):
			hunks, hunk = None, None
		elif line.startswith('+++ ') and hunk is None:
			name = line[4:].split('\t')[0]
			hunks = None if name == '/dev/null' else \
				out.setdefault(name[2:] if name.startswith('b/') else name, [])
			hunk = None
		elif line.startswith('@@') and hunks is not None:
			m = re.match(r'@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)', line)
			if m:
				hunk = Hunk(int(m.group(3)), [], int(m.group(1)), [],
					    m.group(5).strip())
				left = [int(m.group(2) or 1), int(m.group(4) or 1)]
				hunks.append(hunk)
		elif hunk is not None and (line[:1] in (' ', '+', '-') or line == ''):
			tag, body = (line[0], line[1:]) if line else (' ', '')
			if tag != '-':
				hunk.lines.append((tag, body))
				left[1] -= 1
			if tag != '+':
				hunk.old.append((tag, body))
				left[0] -= 1
		elif hunk is not None and line[:1] != '\\':
			hunk = None
	return out


def _norm(text: str) -> str:
	return ' '.join(text.split())


def map_hunks(hunks: Sequence[Hunk], current: Sequence[str]) -> Tuple[List[int], int]:
	"""The current line numbers (1-based) of the lines the hunks add, and
	how many added lines are no longer in the file. A hunk whose new text
	is still whole in the file maps at the copy nearest to where the diff
	put it (shifted as the hunks before it were). Otherwise the hunk's new
	text is aligned with the file (difflib's longest common pieces), and a
	line changed since (a rename) maps to the most similar line (75 %)
	between its mapped neighbours."""
	cur = [_norm(l) for l in current]
	mapped: List[int] = []
	gone = 0
	shift = 0
	for h in hunks:
		post = [_norm(t) for _, t in h.lines]
		added = [i for i, (tag, _) in enumerate(h.lines) if tag == '+' and post[i]]
		if not added:
			continue
		expect = h.new_start - 1 + shift
		starts = [s for s in range(len(cur) - len(post) + 1)
			  if cur[s:s + len(post)] == post]
		if starts:
			start = min(starts, key=lambda s: abs(s - expect))
			shift = start - (h.new_start - 1)
			mapped += [start + i + 1 for i in added]
			continue
		at: Dict[int, int] = {}		# index in the hunk -> current index
		# the longest common pieces of the hunk's new text and the file
		sm = difflib.SequenceMatcher(None, post, cur, autojunk=False)
		wanted = set(added)
		for blk in sm.get_matching_blocks():
			for k in range(blk.size):
				if blk.a + k in wanted:
					at[blk.a + k] = blk.b + k
		for i in added:
			if i in at:
				continue
			lo = max([at[j] for j in at if j < i], default=max(expect, 0) - 1)
			hi = min([at[j] for j in at if j > i], default=lo + 40)
			taken = set(at.values())
			best, score = -1, 0.75
			for n in range(lo + 1, min(hi, len(cur))):
				if n in taken:
					continue
				r = difflib.SequenceMatcher(None, post[i], cur[n]).ratio()
				if r > score:
					best, score = n, r
			if best >= 0:
				at[i] = best
			else:
				gone += 1
		mapped += [n + 1 for n in at.values()]
		if at:
			i = max(at)
			shift = at[i] - (h.new_start - 1 + i)
	return sorted(set(mapped)), gone


def function_lines(name: str, current: Sequence[str]) -> Optional[Tuple[int, int]]:
	"""The first and last line (1-based) of a C function definition, or
	of a BPF_CALL_n(name, ...) helper, by its name and its braces."""
	pat = re.compile(r'(^|[\s*(])' + re.escape(name) + r'\s*[(,]')
	for i, line in enumerate(current):
		if not pat.search(line) or line.startswith((' ', '\t', '#')) or \
				line.rstrip().endswith(';'):
			continue
		depth = 0
		opened = False
		for j in range(i, len(current)):
			code = re.sub(r'"(\\.|[^"])*"|\'(\\.|[^\'])*\'|//.*', '', current[j])
			if not opened and ';' in code and '{' not in code:
				break
			for ch in code:
				if ch == '{':
					depth += 1
					opened = True
				elif ch == '}':
					depth -= 1
			if opened and depth == 0:
				return i + 1, j + 1
	return None


@dataclass
class Row:
	"""A line of the coverage table."""
	seed: str
	file: str
	changed: List[int]
	executed: List[int]
	note: str = ''

	def to_json(self) -> Dict[str, object]:
		return {'seed': self.seed, 'file': self.file,
			'changed': len(self.changed), 'executed': len(self.executed),
			'unexecuted': ranges(sorted(set(self.changed) - set(self.executed))),
			'note': self.note}


def ranges(lines: Sequence[int]) -> List[str]:
	"""[3, 4, 5, 9] -> ['3-5', '9']"""
	out: List[str] = []
	start = prev = None
	for n in lines:
		if prev is not None and n == prev + 1:
			prev = n
			continue
		if start is not None and prev is not None:
			out.append(f'{start}-{prev}' if prev != start else f'{start}')
		start = prev = n
	if start is not None and prev is not None:
		out.append(f'{start}-{prev}' if prev != start else f'{start}')
	return out


def _row(seed: str, path: str, lines: Iterable[int], info: Info,
	 note: str = '') -> Row:
	da = info.lines.get(path)
	if da is None:
		return Row(seed, path, [], [], note or 'no gcov data (not built, or not run)')
	changed = sorted(n for n in set(lines) if n in da)
	if not changed and not note:
		note = 'no code among the changed lines (declarations, exports)'
	return Row(seed, path, changed, [n for n in changed if da[n] > 0], note)


def seed_file(seeds_dir: Path, name: str) -> Optional[Path]:
	found = sorted(seeds_dir.glob(f'{name}-*'))
	return found[0] if found else None


def seed_label(path: Optional[Path], name: str) -> str:
	"""001 c12a03766788: the seed's number and commit."""
	m = re.search(r'-commit-([0-9a-f]{12})', path.name) if path else None
	return f'{name} {m.group(1)}' if m else name


def rows(seeds: Sequence[Seed], seeds_dir: Optional[Path], tree: Path,
	 info: Info, patched: Dict[str, List[str]], patches: Path) -> List[Row]:
	"""The table: per seed and file, its changed lines and those run."""
	out: List[Row] = []
	for s in seeds:
		path = seed_file(seeds_dir, s.name) if seeds_dir else None
		label = seed_label(path, s.name)
		if not s.files and not s.functions:
			out.append(Row(label, '-', [], [], 'no C code to measure (see below)'))
		diff = parse_diff(path.read_text(errors='replace')) if path and s.files else {}
		for f in s.files:
			src = tree / f
			if not src.exists():
				out.append(Row(label, f, [], [], 'not in the tree'))
				continue
			if path is None:
				out.append(Row(label, f, [], [], f'seed {s.name} not found in {seeds_dir}'))
				continue
			current = src.read_text(errors='replace').splitlines()
			mapped, gone = map_hunks(diff.get(f, []), current)
			out.append(_row(label, f, mapped, info,
					f'{gone} added lines no longer in the file' if gone else ''))
		for f, names in s.functions:
			src = tree / f
			if not src.exists():
				out.append(Row(label, f, [], [], 'not in the tree'))
				continue
			current = src.read_text(errors='replace').splitlines()
			lines: List[int] = []
			missing = []
			for n in names:
				span = function_lines(n, current)
				if span is None:
					missing.append(n)
				else:
					lines += range(span[0], span[1] + 1)
			out.append(_row(label, f, lines, info,
					('functions not found: ' + ', '.join(missing)) if missing
					else 'functions: ' + ', '.join(names)))
	for name, files in patched.items():
		diff = parse_diff((patches / name).read_text(errors='replace'))
		for f in files:
			src = tree / f
			if not src.exists():
				continue
			mapped, _ = map_hunks(diff.get(f, []), src.read_text(errors='replace').splitlines())
			out.append(_row(name, f, mapped, info))
	return out


def table(out: Sequence[Row], seeds: Sequence[Seed]) -> List[str]:
	"""The summary's coverage table, then why some lines are not reached."""
	head = ('seed', 'file', 'changed', 'executed', '%', 'first unexecuted lines')
	body = []
	for i, r in enumerate(out):
		pct = f'{100.0 * len(r.executed) / len(r.changed):.0f}' if r.changed else '-'
		miss = ranges(sorted(set(r.changed) - set(r.executed)))
		first = ', '.join(miss[:4]) + (', ...' if len(miss) > 4 else '')
		if not r.changed and r.note:
			first = r.note
		body.append((r.seed, r.file, str(len(r.changed)), str(len(r.executed)), pct, first))
		# the target is per seed commit: a seed of several files gets
		# its total after its last row
		if i + 1 < len(out) and out[i + 1].seed == r.seed:
			continue
		mine = [x for x in out if x.seed == r.seed]
		changed = sum(len(x.changed) for x in mine)
		if len([x for x in mine if x.changed]) > 1:
			executed = sum(len(x.executed) for x in mine)
			body.append((r.seed, '(all its files)', str(changed), str(executed),
				     f'{100.0 * executed / changed:.0f}', ''))
	width = [max(len(x[i]) for x in [head, *body]) for i in range(5)]
	lines = ['', '== coverage: changed lines of each seed commit (and of the series) '
		 'that the suites executed']
	for x in [head, *body]:
		lines.append('  '.join(x[i].ljust(width[i]) if i in (0, 1) else
				       x[i].rjust(width[i]) for i in range(5)) + '  ' + x[5])
	whys = [(s.name, w) for s in seeds for w in s.why]
	if whys:
		lines.append('not reachable in a guest (coverage.toml):')
		lines += [f'  {n}: {w}' for n, w in whys]
	return lines


def _tool(argv: List[str], log: Path, what: str) -> None:
	with open(log, 'a') as f:
		f.write('$ ' + ' '.join(argv) + '\n')
		f.flush()
		r = subprocess.run(argv, stdout=f, stderr=subprocess.STDOUT, check=False,
				   timeout=1800)
	if r.returncode != 0:
		raise KconformError(f'{what} failed (exit {r.returncode}); see {log}')


def consoles(out: Path) -> List[Path]:
	"""The boots' console logs of a run: KUnit's and the kselftests'."""
	return sorted(out.glob('kunit-console*.log')) + sorted(out.glob('guest-console*.log'))


def lcov_report(out: Path, build_dir: Path, tree: Path,
		wanted: Sequence[str]) -> Tuple[Info, List[str]]:
	"""gcov data of every boot -> out/gcov/<label>.info (label(): one per
	suite, a target run in several boots added up), their sum
	out/coverage.info and out/html/; returns the sum and one line per
	boot saying what it gave."""
	gcov = out / 'gcov'
	if gcov.exists():
		shutil.rmtree(gcov)
	html = out / 'html'
	if html.exists():
		shutil.rmtree(html)
	gcov.mkdir(parents=True)
	tool = gcov / 'llvm-gcov'
	tool.write_text(GCOV_TOOL)
	tool.chmod(0o755)
	log = out / 'lcov.log'
	log.write_text('')
	parts: Dict[str, List[Path]] = {}	# label -> its blocks' geninfo data
	said = []
	for console in consoles(out):
		got = chosen(blocks(console.read_text(errors='replace').splitlines()))
		if not got:
			said.append(f'{console.name}: no gcov data')
			continue
		files: Set[str] = set()
		for k, block in enumerate(got):
			name = label(console, block)
			dest = gcov / console.stem / f'{k}-{name}'
			found = unpack(block.data, dest, build_dir, wanted)
			files.update(found)
			if not found:
				continue
			info = gcov / console.stem / f'{k}-{name}.info'
			_tool(['geninfo', str(dest), '--gcov-tool', str(tool), '--quiet',
			       '--base-directory', str(build_dir),
			       '--output-filename', str(info)], log, 'geninfo')
			parts.setdefault(name, []).append(info)
		said.append(f'{console.name}: ' + (f'{len(got)} blocks, ' if len(got) > 1 else '')
			    + f'{len(files)} of {len(wanted)} files')
	infos = []
	for name, got_infos in parts.items():
		info = gcov / f'{name}.info'
		if len(got_infos) == 1:
			shutil.copy2(got_infos[0], info)
		else:	# a target or KUnit in several boots (reruns)
			argv = ['lcov', '--quiet', '--output-file', str(info)]
			for i in got_infos:
				argv += ['--add-tracefile', str(i)]
			_tool(argv, log, 'lcov --add-tracefile')
		infos.append(info)
	merged = out / 'coverage.info'
	argv = ['lcov', '--quiet', '--output-file', str(merged)]
	for i in infos:
		argv += ['--add-tracefile', str(i)]
	_tool(argv, log, 'lcov --add-tracefile')
	# Only the listed files: not the headers their inline code is from.
	_tool(['lcov', '--quiet', '--extract', str(merged),
	       *(f'*/{w}' for w in wanted), '--output-file', str(merged)],
	      log, 'lcov --extract')
	_tool(['genhtml', str(merged), '--quiet', '--output-directory', str(html),
	       '--prefix', str(tree), '--title', 'kconform coverage',
	       '--legend'], log, 'genhtml')
	return parse_info(merged.read_text(), str(tree)), said


def screenshot(html: Path, png: Path) -> str:
	"""The report's first page in headless chromium: '' or why not."""
	exe = shutil.which('chromium')
	if exe is None:
		return 'chromium is not installed (apt-get install chromium)'
	r = subprocess.run([exe, '--headless', '--no-sandbox', '--disable-gpu',
			    '--hide-scrollbars', '--window-size=1280,1000',
			    f'--screenshot={png}', html.resolve().as_uri()],
			   capture_output=True, text=True, timeout=300, check=False)
	if r.returncode != 0 or not png.exists() or png.stat().st_size < 1000:
		return f'chromium made no screenshot (exit {r.returncode}): {r.stderr[-500:]}'
	return ''


def collect(repo: Path, out: Path, build_dir: Path, tree: Path,
	    seeds_dir: Optional[Path], patches: Path,
	    series: Sequence[str]) -> Tuple[List[Row], List[str]]:
	"""After a coverage run: the report, and the table's rows and lines."""
	seeds = load(repo)
	patched = patch_files(patches, series)
	wanted = profiled(seeds, patched)
	info, said = lcov_report(out, build_dir, tree, wanted)
	got = rows(seeds, seeds_dir if seeds_dir and seeds_dir.is_dir() else None,
		   tree, info, patched, patches)
	lines = table(got, seeds)
	lines.append(f'coverage: {out / "html/index.html"} ({"; ".join(said)})')
	return got, lines
