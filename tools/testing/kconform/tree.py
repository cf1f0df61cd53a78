# SPDX-License-Identifier: GPL-2.0
"""The kernel tree: pristine copy, patched copy, and what goes into it.

The pristine tree (Debian's linux-source-6.1, or the user's own tree) is
never written. The series and the overlays (kunit/, kselftests/) are
applied in a staging copy; only a staging copy that took every patch is
synced into the build tree, by content, so files whose content did not
change keep their timestamps and nothing is rebuilt for them.
"""

from __future__ import annotations

import dataclasses
import datetime
import gzip
import hashlib
import json
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from . import archive, proc
from .model import InputError, KconformError

DEBIAN_TARBALL = Path('/usr/src/linux-source-6.1.tar.xz')
DEBIAN_DIR = 'linux-source-6.1'
DEBIAN_CHANGELOG = Path('/usr/share/doc') / DEBIAN_DIR / 'changelog.Debian.gz'


@dataclass(frozen=True)
class Layout:
	"""Where the repository keeps what goes into the tree."""
	repo: Path

	@property
	def patches(self) -> Path:
		return self.repo / 'patches'

	def series(self) -> List[str]:
		out = []
		for line in (self.patches / 'series').read_text().splitlines():
			line = line.split('#', 1)[0].strip()
			if line:
				out.append(line.split()[0])
		return out

	def overlays(self) -> Iterator[Tuple[Path, str]]:
		"""(file in the repo, path inside the kernel tree), sorted."""
		for base, dest in (('kunit', ''),
				   ('kselftests', 'tools/testing/selftests/')):
			root = self.repo / base
			for f in sorted(root.rglob('*')):
				if f.is_file() and f.name != 'README.md':
					yield f, dest + str(f.relative_to(root))

	def kunit_test(self, f: Path) -> bool:
		"""Whether an overlay is a KUnit test's own source: a C file or
		device tree of kunit/ named for its test (`<area>_test.c`,
		`thermal_of_test_root.dts`), which only the kernel build compiles,
		into the kernel or a module. Its headers are not."""
		return f.is_relative_to(self.repo / 'kunit') and \
			f.suffix in ('.c', '.dts') and '_test' in f.stem


@dataclass
class Source:
	"""A pristine tree and the cache folder of everything derived from it."""
	name: str
	pristine: Path
	work: Path
	extras: List[Path] = field(default_factory=list)
	omit: Tuple[str, ...] = ()	# series patches left out (--fixes omit)
	ident: Optional[str] = None	# the pristine tree's identity, if known
	# A release tree (--source) takes the series patches that apply and
	# names the others (dropped: patch -> why), instead of failing.
	lenient: bool = False
	dropped: Dict[str, str] = field(default_factory=dict)

	def state(self, digest: str) -> Optional[str]:
		"""The derived tree's identity: pristine + series digest. None for
		a user's tree, which may change under us: then make always runs."""
		return f'{self.ident}:{digest}' if self.ident else None

	@property
	def tree(self) -> Path:
		return self.work / 'linux'


def debian_source(cache: Path, log_dir: Path) -> Source:
	"""Extract Debian's tarball once into the cache."""
	if not DEBIAN_TARBALL.exists():
		raise KconformError(f'{DEBIAN_TARBALL} is missing: install the '
				    'package linux-source-6.1')
	root = cache / 'pristine'
	tree = root / DEBIAN_DIR
	stamp = root / 'stamp'
	ident = f'{DEBIAN_TARBALL.stat().st_size}:{DEBIAN_TARBALL.stat().st_mtime_ns}'
	if not (stamp.exists() and stamp.read_text() == ident and tree.is_dir()):
		if root.exists():
			shutil.rmtree(root)
		root.mkdir(parents=True)
		proc.check(['tar', '-C', str(root), '-xf', str(DEBIAN_TARBALL)],
			   log_dir / 'extract.log', 900, 'extract linux-source-6.1')
		stamp.write_text(ident)
	return Source('linux-source-6.1', tree, cache / 'work' / 'debian',
		      ident=ident)


def changelog_version(path: Optional[Path]) -> Optional[str]:
	"""The Debian version of a changelog.Debian.gz's first entry."""
	if path is None or not path.exists():
		return None
	with gzip.open(path, 'rt', errors='replace') as f:
		m = re.match(r'^\S+ \(([^)]+)\)', f.readline())
	return m.group(1) if m else None


def version_lt(a: str, b: str) -> bool:
	"""Is the Debian version a before b (dpkg's order)?"""
	return subprocess.run(['dpkg', '--compare-versions', a, 'lt', b],
			      check=False).returncode == 0


def parse_release(spec: str) -> Tuple[str, Optional[str]]:
	"""--source PACKAGE[=VERSION]: a Debian linux-source package."""
	package, _, version = spec.partition('=')
	if not re.fullmatch(r'linux-source-\d+\.\d+', package):
		raise InputError(f'--source {spec}: not linux-source-X.Y[=VERSION]')
	return package, version or None


def release_work(cache: Path, package: str, version: str) -> Path:
	"""One work folder (patched tree, builds) per release, so that going
	back to a release built before is a warm run; the installed
	linux-source-6.1's is the default tree's (`debian`). Its name has
	no '=' (nor ':' or '~'): kbuild's tools (resolve_btfids' libbpf and
	libsubcmd) are made in O= below it, and make takes a path with '='
	for a variable assignment (the build of 6.1.170-3 failed so)."""
	return cache / 'work' / re.sub(r'[^A-Za-z0-9.+_-]', '_', f'{package}_{version}')


# A new build of the debug variant takes ~15 GiB; before a run writes
# into a work folder, the others are dropped, least recently used
# first, until this much disk is free.
KEEP_FREE = 40 * 2**30
USED = 'last-used'		# its mtime: when a run last derived the folder


@dataclass(frozen=True)
class Work:
	"""A work folder in the cache: when it was last used, its size."""
	path: Path
	used: float
	size: int


def to_drop(others: Sequence[Work], free: int, keep_free: int) -> List[Work]:
	"""The work folders to drop, least recently used first, until
	keep_free bytes are free (every one of them, if even that is not
	enough)."""
	out = []
	for w in sorted(others, key=lambda w: (w.used, str(w.path))):
		if free >= keep_free:
			break
		out.append(w)
		free += w.size
	return out


def _size(path: Path) -> int:
	total = 0
	for f in path.rglob('*'):
		try:
			if f.is_file() and not f.is_symlink():
				total += f.stat().st_size
		except OSError:
			pass
	return total


def claim_work(work: Path, keep_free: int = KEEP_FREE) -> List[Work]:
	"""Mark a work folder used now; with less than keep_free bytes free,
	drop the other work folders beside it (those a derivation stamped),
	least recently used first, each with a message. Returns those dropped."""
	work.mkdir(parents=True, exist_ok=True)
	(work / USED).touch()
	if shutil.disk_usage(work).free >= keep_free:
		return []
	others = []
	for p in sorted(work.parent.iterdir()):
		if p.is_dir() and p != work and ((p / USED).exists() or (p / 'stamp').exists()):
			stamp = p / USED
			used = (stamp if stamp.exists() else p).stat().st_mtime
			others.append(Work(p, used, _size(p)))
	dropped = to_drop(others, shutil.disk_usage(work).free, keep_free)
	for w in dropped:
		when = datetime.datetime.fromtimestamp(w.used).strftime('%Y-%m-%d %H:%M')
		print(f'kconform: cache: dropping the work folder {w.path.name} (last used '
		      f'{when}, {w.size / 2**30:.1f} GiB): less than '
		      f'{keep_free / 2**30:.0f} GiB free; that release builds cold next time',
		      flush=True)
		shutil.rmtree(w.path, ignore_errors=True)
	return dropped


def installed(package: str, version: str) -> bool:
	"""Is PACKAGE=VERSION the linux-source-6.1 installed on this machine?"""
	return package == DEBIAN_DIR and DEBIAN_TARBALL.exists() and \
		changelog_version(DEBIAN_CHANGELOG) == version


def release_source(cache: Path, package: str, version: str,
		   log_dir: Path) -> Source:
	"""PACKAGE=VERSION from the archive, its tarball extracted once; the
	installed release is the installed tree, in its work folder (a
	second copy of it would be a cold build and another 15 GiB; a
	derivation syncs only the files that differ, such as the fixes a
	release run omits)."""
	if installed(package, version):
		return dataclasses.replace(debian_source(cache, log_dir),
					   name=f'{package}={version}', lenient=True)
	unpacked = archive.fetch(package, version, cache, log_dir).root
	tarball = unpacked / 'usr' / 'src' / f'{package}.tar.xz'
	if not tarball.exists():
		raise KconformError(f'{package}={version}: no {tarball}')
	root = archive.folder(cache, package, version) / 'tree'
	stamp = root / 'stamp'
	if not (stamp.exists() and (root / package).is_dir()):
		if root.exists():
			shutil.rmtree(root)
		root.mkdir(parents=True)
		proc.check(['tar', '-C', str(root), '-xf', str(tarball)],
			   log_dir / 'extract.log', 900, f'extract {package}={version}')
		stamp.write_text(f'{package}={version}\n')
	name = f'{package}={version}'
	return Source(name, root / package, release_work(cache, package, version),
		      ident=name, lenient=True)


def user_source(cache: Path, path: Path) -> Source:
	path = path.resolve()
	if not (path / 'Makefile').exists() or not (path / 'Kconfig').exists():
		raise KconformError(f'--tree {path}: not a kernel source tree '
				    '(no Makefile and Kconfig)')
	tag = hashlib.sha256(str(path).encode()).hexdigest()[:12]
	return Source(f'tree:{path}', path, cache / 'work' / f'tree-{tag}')


def sha256(path: Path) -> str:
	return hashlib.sha256(path.read_bytes()).hexdigest()


SELFTESTS = 'tools/testing/selftests/'


def series_digest(layout: Layout, src: Source, selftests: bool = True,
		  overlays: bool = True, kunit_tests: bool = True) -> str:
	"""Content hash of everything the patched tree is made from; without
	the kselftest overlays (selftests=False), of what the kernel is made
	from; without any overlay (overlays=False), of the patches alone;
	without the KUnit tests' sources (kunit_tests=False), of what the
	user space reads of the tree itself (the rest of a KUnit test reaches
	it only through the build's products: guest.products_key)."""
	h = hashlib.sha256()
	h.update(f'source {src.name}\n'.encode())
	h.update((layout.patches / 'series').read_bytes())
	for name in layout.series():
		if name in src.omit:
			h.update(f'omit {name}\n'.encode())
			continue
		h.update(f'patch {name}\n'.encode())
		h.update((layout.patches / name).read_bytes())
	for f, dest in layout.overlays() if overlays else ():
		if (selftests or not dest.startswith(SELFTESTS)) and \
				(kunit_tests or not layout.kunit_test(f)):
			h.update(f'overlay {dest}\n'.encode())
			h.update(f.read_bytes())
	for extra in src.extras:
		h.update(f'extra {extra.name}\n'.encode())
		h.update(extra.read_bytes())
	return h.hexdigest()


def kernel_version(tree: Path) -> str:
	values = {}
	for line in (tree / 'Makefile').read_text().splitlines()[:10]:
		m = re.match(r'^(VERSION|PATCHLEVEL|SUBLEVEL|EXTRAVERSION)\s*=\s*(.*)$',
			     line)
		if m:
			values[m.group(1)] = m.group(2).strip()
	return '{}.{}.{}{}'.format(values.get('VERSION', '?'),
				   values.get('PATCHLEVEL', '?'),
				   values.get('SUBLEVEL', '?'),
				   values.get('EXTRAVERSION', ''))


def _quilt_dir(layout: Layout, src: Source) -> Path:
	qdir = src.work / 'quilt'
	if qdir.exists():
		shutil.rmtree(qdir)
	qdir.mkdir(parents=True)
	lines = []
	for name in layout.series():
		if name in src.omit:
			continue
		target = qdir / name
		target.parent.mkdir(parents=True, exist_ok=True)
		shutil.copyfile(layout.patches / name, target)
		lines.append(name)
	for n, extra in enumerate(src.extras, 1):
		if not extra.is_file():
			raise KconformError(f'--patch {extra}: no such file')
		name = f'extra/{n:02d}-{extra.name}'
		(qdir / 'extra').mkdir(exist_ok=True)
		shutil.copyfile(extra, qdir / name)
		lines.append(name)
	(qdir / 'series').write_text(''.join(l + '\n' for l in lines))
	return qdir


def _rejects(staging: Path) -> str:
	parts = []
	for rej in sorted(staging.rglob('*.rej')):
		parts.append(f'--- {rej.relative_to(staging)}\n{rej.read_text(errors="replace")}')
	return '\n'.join(parts)[:6000]


def _resync_overlays(layout: Layout, src: Source, stamp: Path,
		     patches: str) -> bool:
	"""When only overlays (kunit/, kselftests/) changed since the last
	derivation, write those into the tree in place (seconds, not a copy
	of the tree). False when a patch changed or a file would be lost."""
	if not (stamp.exists() and src.tree.is_dir()):
		return False
	lines = stamp.read_text().splitlines()
	if len(lines) < 2 or lines[1] != patches:
		return False
	now = dict((dest, f) for f, dest in layout.overlays())
	for dest in lines[2:]:
		if dest not in now:
			if (src.pristine / dest).exists():
				return False
			(src.tree / dest).unlink(missing_ok=True)
	for dest, f in now.items():
		target = src.tree / dest
		data = f.read_bytes()
		if not target.exists() or target.read_bytes() != data:
			target.parent.mkdir(parents=True, exist_ok=True)
			target.write_bytes(data)
		shutil.copymode(f, target)
	return True


def derive(layout: Layout, src: Source, log_dir: Path) -> Tuple[str, bool]:
	"""Make src.tree the pristine tree plus series, extras and overlays.

	Returns (digest, changed). Raises KconformError naming the patch that
	does not apply, with its rejected hunks; the build tree is then left
	as it was. The stamp holds the digest, the patches' digest and
	the overlays written, so a change to kunit/ or kselftests/ alone is
	written in place.
	"""
	digest = series_digest(layout, src)
	claim_work(src.work)
	stamp = src.work / 'stamp'
	dropped = src.work / 'dropped.json'
	if stamp.exists() and stamp.read_text().split('\n', 1)[0] == digest \
			and src.tree.is_dir():
		src.dropped = _read_dropped(dropped)
		return digest, False
	patches = series_digest(layout, src, overlays=False)
	manifest = '\n'.join([digest, patches, *(d for _, d in layout.overlays())]) + '\n'
	if _resync_overlays(layout, src, stamp, patches):
		src.dropped = _read_dropped(dropped)
		stamp.write_text(manifest)
		return digest, True
	staging = src.work / 'staging'
	staging.mkdir(parents=True, exist_ok=True)
	proc.check(['rsync', '-a', '--delete', '--exclude=/.git',
		    f'{src.pristine}/', f'{staging}/'],
		   log_dir / 'patch-copy.log', 1800, 'copy the pristine tree')
	qdir = _quilt_dir(layout, src)
	env = {'QUILT_PATCHES': str(qdir), 'QUILT_PC': '.pc'}
	src.dropped = {}
	while True:
		push = proc.run(['quilt', '--quiltrc=-', 'push', '-a', '--fuzz=0'],
				log_dir / 'patch.log', 600, cwd=staging, env=env)
		if push.returncode == 2 and src.dropped and \
				'fully applied' in ''.join(push.lines):
			break		# the patch dropped last was the series' last
		if not (qdir / 'series').read_text() or push.returncode == 0 \
				or not src.lenient:
			break
		failed = re.findall(r'Patch (\S+) does not apply', ''.join(push.lines))
		if not failed or failed[-1].startswith('extra/'):
			break
		src.dropped[failed[-1]] = why_not(push.lines)
		left = [l for l in (qdir / 'series').read_text().splitlines()
			if l != failed[-1]]
		(qdir / 'series').write_text(''.join(l + '\n' for l in left))
		print(f'kconform: patch: {failed[-1]} does not apply to {src.name}: '
		      f'{src.dropped[failed[-1]]}', flush=True)
	if (qdir / 'series').read_text() and push.returncode != 0 and not \
			(src.dropped and 'fully applied' in ''.join(push.lines)):
		failed = re.findall(r'Patch (\S+) does not apply', ''.join(push.lines))
		name = failed[-1] if failed else '(unknown patch)'
		proc.run(['quilt', '--quiltrc=-', 'push', '-f', '--fuzz=0'],
			 log_dir / 'patch-force.log', 600, cwd=staging, env=env)
		rejected = _rejects(staging)
		shutil.rmtree(staging, ignore_errors=True)
		raise KconformError(
			f'patch {name} does not apply to {src.name} '
			f'(log: {log_dir / "patch.log"})\n{push.tail(15)}\n'
			f'rejected hunks:\n{rejected or "(none written)"}')
	for f, dest in layout.overlays():
		target = staging / dest
		target.parent.mkdir(parents=True, exist_ok=True)
		shutil.copyfile(f, target)
		shutil.copymode(f, target)
	if stamp.exists():
		stamp.unlink()
	src.tree.mkdir(parents=True, exist_ok=True)
	proc.check(['rsync', '-rlpc', '--delete', '--exclude=/.pc',
		    f'{staging}/', f'{src.tree}/'],
		   log_dir / 'patch-sync.log', 1800, 'sync the patched tree')
	dropped.write_text(json.dumps(src.dropped, indent=1) + '\n')
	stamp.write_text(manifest)
	return digest, True


def _read_dropped(path: Path) -> Dict[str, str]:
	try:
		data = json.loads(path.read_text())
	except (OSError, ValueError):
		return {}
	return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def why_not(lines: List[str]) -> str:
	"""Why a patch does not apply, in one line, from `quilt push`'s
	output: the files whose hunks lack their context, the missing ones."""
	out = []
	missing = False
	for line in lines:
		m = re.search(r'(\d+ out of \d+ hunks?) FAILED -- (?:saving )?rejects? '
			      r'(?:in|to) file (\S+?)(?:\.rej)?$', line.strip())
		if m:
			out.append(f'{m.group(2)}: {m.group(1)} without their context')
		if "can't find file to patch" in line:
			missing = True
		m = re.match(r'^\|\+\+\+ b/(\S+)', line)
		if m and missing:
			out.append(f'{m.group(1)} does not exist')
			missing = False
		m = re.search(r'The next patch would (create|delete) the file (\S+),',
			      line)
		if m:
			out.append(f'{m.group(2)} already '
				   f'{"exists" if m.group(1) == "create" else "is gone"}')
	return '; '.join(dict.fromkeys(out)) or 'does not apply (see patch.log)'


def missing_code(tree: Path, requires: List[Tuple[str, Optional[str]]]) -> List[str]:
	"""Which (file, text) requirements the tree does not meet."""
	out = []
	for path, text in requires:
		f = tree / path
		if not f.exists():
			out.append(f'{path} does not exist')
		elif text and text not in f.read_text(errors='replace'):
			out.append(f'{path} has no {text!r}')
	return out
