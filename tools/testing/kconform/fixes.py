# SPDX-License-Identifier: GPL-2.0
"""The bug fixes (patches/fixes.toml) and the bugs a tree carries.

The series' fixes: every other patch of the series is a test hook. A
run applies the fixes or omits them (`--fixes omit`, the default for a
user's --tree): then a fix's guards tell whether the tree still carries
the bug. The upstream stable fixes (fixes.toml's `stable` table) are in
the tree from a Debian release on: a release before it, another series
or a user's tree may carry their bugs. A tree that carries a known bug
is a finding, not a gate failure; a guard that fails with its fix in
the tree is a failure, as any case.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Set, Tuple

from . import gate, tomlfile, tree
from .model import BAD, KconformError, Status, Suite
from .report import KernelInfo

Key = Tuple[str, str, str]
KEYS = {'upstream', 'effect', 'guards', 'note', 'distro', 'distro_guards', 'affected'}
STABLE = 'stable'	# fixes.toml's table of upstream stable fixes
STABLE_KEYS = {'release', 'upstream', 'effect', 'guards', 'note'}
CARRIES = 'carries the bug'
FIXED = 'fixed'
UNKNOWN = 'not determined'
BROKEN = 'guard fails with the fix applied'


@dataclass(frozen=True)
class Fix:
	# the series' patch, or an upstream stable fix's title
	patch: str
	upstream: str
	effect: str
	guards: Tuple[str, ...]
	note: str = ''
	# A fix of a library the distribution ships too (0403, libbpf): the
	# same cases built against the distribution's library (distro_guards)
	# say whether it carries the bug, whatever the series does.
	distro: str = ''
	distro_guards: Tuple[str, ...] = ()
	# the patch changes only the tree's tools/ (a library the kselftests
	# link): on a package's kernel its guards say nothing of the kernel
	tools_only: bool = False
	# cases that also fail while the bug is there, but check more than it:
	# they explain a change without the fixes, not this fix's verdict
	affected: Tuple[str, ...] = ()
	# an upstream stable fix (not a patch of the series): the first
	# Debian release of linux-source-6.1 that has it
	release: str = ''

	def in_tree(self, applied: bool, release: Optional[str]) -> bool:
		"""Does the tree have the fix? A series' fix when the run applies
		the fixes; a stable fix on linux-source-6.1 from self.release on
		(release: the run's, None when it is not such a release)."""
		if not self.release:
			return applied
		return release is not None and not tree.version_lt(release, self.release)

	def guards_case(self, key: Key, globs: Optional[Sequence[str]] = None) -> bool:
		return names_case(key, self.guards if globs is None else globs)


def names_case(key: Key, globs: Sequence[str]) -> bool:
	"""Does one of the globs (kind:suite:case, as guards are written)
	name the case?"""
	for glob in globs:
		kind, suite, case = (glob.split(':', 2) + ['', ''])[:3]
		if fnmatch.fnmatchcase(key[0], kind) and \
				fnmatch.fnmatchcase(key[1], suite) and \
				gate.glob(key[2], case):
			return True
	return False


def load(patches: Path, series: Sequence[str]) -> List[Fix]:
	"""The series' fixes, then the upstream stable fixes."""
	path = patches / 'fixes.toml'
	data = tomlfile.load(path)
	out = []
	for patch, entry in data.items():
		if patch == STABLE:
			continue
		if patch not in series:
			raise KconformError(f'{path}: [{patch}] is not in patches/series')
		if not {'upstream', 'effect', 'guards'} <= \
				set(tomlfile.table(path, f'[{patch}]', entry, KEYS)):
			raise KconformError(f'{path}: [{patch}] needs upstream, effect '
					    'and guards')
		if not entry['guards'] and not entry.get('note'):
			raise KconformError(f'{path}: [{patch}] has no guards: say why in note')
		if bool(entry.get('distro')) != bool(entry.get('distro_guards')):
			raise KconformError(f'{path}: [{patch}] distro and distro_guards '
					    'go together')
		try:
			files = re.findall(r'^\+\+\+ b/(\S+)', (patches / patch).read_text(),
					   re.M)
		except OSError as e:
			raise KconformError(f'{path}: [{patch}]: {e}') from e
		out.append(Fix(patch, str(entry['upstream']), str(entry['effect']),
			       tuple(str(g) for g in entry['guards']),
			       str(entry.get('note', '')), str(entry.get('distro', '')),
			       tuple(str(g) for g in entry.get('distro_guards', [])),
			       bool(files) and all(f.startswith('tools/') for f in files),
			       tuple(str(g) for g in entry.get('affected', []))))
	return out + _stable(path, data.get(STABLE, {}))


def _stable(path: Path, table: Any) -> List[Fix]:
	out = []
	for title, entry in (table.items() if isinstance(table, dict) else []):
		if not isinstance(entry, dict) or set(entry) - STABLE_KEYS or \
				not {'release', 'upstream', 'effect', 'guards'} <= set(entry):
			raise KconformError(f'{path}: [stable."{title}"] needs release, '
					    'upstream, effect, guards (and may have note), '
					    'nothing else')
		if not re.fullmatch(r'6\.1\.\d+-\d+', str(entry['release'])):
			raise KconformError(f'{path}: [stable."{title}"] release '
					    f'{entry["release"]!r}: not a version of '
					    f'{tree.DEBIAN_DIR} (6.1.N-M)')
		if not entry['guards'] and not entry.get('note'):
			raise KconformError(f'{path}: [stable."{title}"] has no guards: '
					    'say why in note')
		out.append(Fix(str(title), str(entry['upstream']), str(entry['effect']),
			       tuple(str(g) for g in entry['guards']),
			       str(entry.get('note', '')), release=str(entry['release'])))
	return out


def release_of(kernel: KernelInfo) -> Optional[str]:
	"""The Debian version of linux-source-6.1 that a run's kernel (results.json
	`kernel`) is: the installed package's, a --source linux-source-6.1=V's
	V, a --image package's version when it is a 6.1 kernel; None for a
	user's tree and another series."""
	if kernel.package is not None:
		version = kernel.package.version
		return version if re.match(r'6\.1\.\d+-', version) else None
	source = kernel.source
	if source == tree.DEBIAN_DIR:
		return tree.changelog_version(tree.DEBIAN_CHANGELOG)
	if source.startswith(tree.DEBIAN_DIR + '='):
		return source.partition('=')[2] or None
	return None


def verdicts(fixes: Sequence[Fix], suites: Sequence[Suite], applied: bool,
	     package: bool = False, release: Optional[str] = None
	     ) -> List[Dict[str, Any]]:
	"""Per fix: patch, upstream, effect, guards (the cases seen), applied
	(the fix is in the tree), verdict (carries the bug / fixed / not
	determined / guard fails with the fix applied); a stable fix's row
	has its release. On a package's kernel (its tree only builds the
	kselftests) a fix of the tree's tools/ is not determined. release:
	the run's (release_of()), which decides the stable fixes."""
	out = []
	for fix in fixes:
		out.append(_verdict(fix, suites, fix.in_tree(applied, release), fix.guards))
		if package and fix.tools_only:
			out[-1].update(verdict=UNKNOWN, failing=[], note=(
				"a fix of the tree's tools/, which the kselftests link; "
				"the package's kernel has nothing of it"))
		if fix.distro_guards:
			out.append(_verdict(fix, suites, False, fix.distro_guards, True))
			out[-1]['component'] = fix.distro
	return out


def _verdict(fix: Fix, suites: Sequence[Suite], applied: bool,
	     globs: Sequence[str], distro: bool = False) -> Dict[str, Any]:
	seen = [((s.kind, s.name, c.name), c.status) for s in suites
		for c in s.cases if fix.guards_case((s.kind, s.name, c.name), globs)]
	bad = [':'.join(k) for k, st in seen if st in BAD]
	if not globs or not seen or \
			any(st == Status.SKIP for _, st in seen) and not bad:
		verdict = UNKNOWN
	elif bad:
		verdict = BROKEN if applied else CARRIES
	else:
		verdict = FIXED
	row = {'patch': fix.patch, 'upstream': fix.upstream,
	       'effect': fix.effect, 'applied': applied,
	       'guards': [':'.join(k) for k, _ in seen] or list(globs),
	       'failing': bad, 'verdict': verdict,
	       'note': ('' if distro else fix.note) or
	       ('no guard ran' if verdict == UNKNOWN else '')}
	if fix.release:
		row['release'] = fix.release
	return row


def findings(fixes: Sequence[Fix], suites: Sequence[Suite], applied: bool,
	     release: Optional[str] = None) -> Set[Key]:
	"""Guard cases that fail because the bug of a fix the tree lacks is
	there (an omitted fix of the series, a stable fix before its
	release), and distribution guards (the distribution's library
	carries the bug)."""
	lacks = [f for f in fixes if not f.in_tree(applied, release)]
	return {(s.kind, s.name, c.name) for s in suites for c in s.cases
		if c.status in BAD and (any(
			f.guards_case((s.kind, s.name, c.name)) or
			f.guards_case((s.kind, s.name, c.name), f.affected)
			for f in lacks) or any(
			f.guards_case((s.kind, s.name, c.name), f.distro_guards)
			for f in fixes))}


def proof(table: Sequence[Dict[str, Any]], changes: Sequence[str]) -> List[str]:
	"""What keeps a run without the fixes from proving each of them: a
	fix whose guards did not fail, a case outside the guards that
	changed against the run with the fixes. The stable fixes stay in the
	tree: not proven here (their breaking patches do that)."""
	out = [f'{f["patch"]}: its guards did not fail without it ({f["verdict"]})'
	       for f in table if f['guards'] and f['verdict'] != CARRIES
	       and not f.get('component') and not f.get('release')]
	out += [f'changed without the fixes, but guards no fix: {c}' for c in changes]
	return out


def lines(table: Sequence[Dict[str, Any]], package: str = '') -> List[str]:
	"""The summary's section "bugs this tree carries" (of a package's
	kernel, which has none of the series' fixes: "this kernel"): the
	series' fixes, then the upstream stable fixes."""
	ran = [f for f in table if f['note'] != 'no guard ran']
	if all(f['verdict'] == UNKNOWN for f in table):
		return []	# a run of other suites (--suite, --kind bench)
	series = [f for f in table if not f.get('release')]
	out = [f'== bugs this kernel carries ({package}: none of the series\' fixes)'
	       if package else '== bugs this tree carries (the series\' fixes '
	       + ('applied' if not series or series[0]['applied'] else 'omitted') + ')']
	out += _rows([f for f in ran if not f.get('release')])
	stable = [f for f in ran if f.get('release')]
	if stable:
		out.append('   upstream stable fixes (in linux-source-6.1 from the '
			   'Debian release named):')
		out += _rows(stable, '"')
	if len(ran) < len(table):
		out.append(f'   and {len(table) - len(ran)} more not determined: no guard '
			   'of theirs in this run (results.json fixes)')
	return out


def _rows(ran: Sequence[Dict[str, Any]], quote: str = '') -> List[str]:
	out: List[str] = []
	width = max((len(f['patch']) for f in ran), default=0) + 2 * len(quote)
	for f in ran:
		who = f'{f["component"]} ' if f.get('component') else ''
		name = f'{quote}{f["patch"]}{quote}'
		out.append(f'   {name:<{width}}  {who}{f["verdict"]}'
			   + (f'  ({f["effect"]})' if f['verdict'] in (CARRIES, BROKEN) else ''))
		if f['upstream'] and not who:
			out.append(f'   {"":<{width}}  upstream: {f["upstream"]}'
				   + (f'; Debian {f["release"]}' if f.get('release') else ''))
		if f['note'] and f['verdict'] == UNKNOWN:
			out.append(f'   {"":<{width}}  {f["note"]}')
	return out
