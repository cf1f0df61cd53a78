# SPDX-License-Identifier: GPL-2.0
"""Debian packages as data: fetched from the archive, unpacked, never installed.

fetch(package, version, cache) runs `apt-get download PACKAGE=VERSION`
into the cache and `dpkg-deb -x` once; the unpacked folder is keyed by
name and version, so a second run (or another stage asking for the same
package) finds it. Nothing is installed on the host and dpkg's database
is not touched. A version of None is the candidate of `apt-cache policy`.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Tuple

from . import proc
from .model import InputError, KconformError

DONE = 'kconform-unpacked'	# stamp: the unpacked folder is whole


@dataclass(frozen=True)
class Unpacked:
	"""One package, unpacked: its files below root."""
	package: str
	version: str
	root: Path


def candidate(policy: str) -> Optional[str]:
	"""The candidate version in `apt-cache policy PACKAGE`'s text."""
	m = re.search(r'^\s*Candidate:\s*(\S+)', policy, re.M)
	return m.group(1) if m and m.group(1) != '(none)' else None


def versions(policy: str) -> List[str]:
	"""Every version of `apt-cache policy`'s version table."""
	table = policy.split('Version table:', 1)[-1] if 'Version table:' in policy else ''
	return re.findall(r'^\s+(?:\*\*\*\s+)?(\S+)\s+-?\d+\s*$', table, re.M)


def depends(show: str) -> List[Tuple[str, Optional[str]]]:
	"""(package, exact version or None) of the first stanza's Depends;
	of alternatives, the first."""
	stanza = show.split('\n\n', 1)[0]
	m = re.search(r'^Depends:\s*(.*(?:\n\s+.*)*)', stanza, re.M)
	if not m:
		return []
	out: List[Tuple[str, Optional[str]]] = []
	for item in m.group(1).split(','):
		d = re.match(r'\s*([^\s:(|]+)(?::\S+)?\s*(?:\(\s*=\s*([^)\s]+)\s*\))?',
			     item.split('|')[0])
		if d:
			out.append((d.group(1), d.group(2)))
	return out


def _query(argv: List[str], log: Path) -> str:
	r = proc.run(argv, log, 120)
	if r.returncode != 0 or r.timed_out:
		raise InputError(f'{" ".join(argv)}: failed (log: {log})')
	return ''.join(r.lines)


def pick(package: str, wanted: Optional[str], policy: str) -> str:
	"""The version wanted names in `apt-cache policy`'s text: exact, or
	an upstream version without its Debian revision (6.1.190 ->
	6.1.190-1, the first listed: apt lists newest first), or, for None,
	the candidate. InputError lists what the archive has."""
	known = versions(policy)
	if not known:
		raise InputError(f'{package}: apt-cache policy lists no version '
				 '(unknown package, or run apt-get update)')
	if wanted is None:
		return candidate(policy) or known[0]
	if wanted in known:
		return wanted
	prefix = [v for v in known if v.startswith(wanted + '-')]
	if prefix:
		return prefix[0]
	raise InputError(f'{package}={wanted}: not in the archive; apt-cache '
			 f'policy lists {", ".join(known)}')


def resolve(package: str, version: Optional[str], log: Path) -> str:
	"""The version to fetch (pick) from `apt-cache policy PACKAGE`."""
	return pick(package, version, _query(['apt-cache', 'policy', package], log))


def show(package: str, version: str, log: Path) -> str:
	"""`apt-cache show PACKAGE=VERSION`: the package's control stanza."""
	return _query(['apt-cache', 'show', f'{package}={version}'], log)


def folder(cache: Path, package: str, version: str) -> Path:
	"""Where PACKAGE=VERSION is kept: root/ (unpacked), download/."""
	return cache / 'packages' / f'{package}_{version.replace(":", "%3a")}'


def unpack(deb: Path, dest: Path, log: Path) -> None:
	"""dpkg-deb -x into dest (replaced), then the stamp."""
	if dest.exists():
		shutil.rmtree(dest)
	dest.mkdir(parents=True)
	proc.check(['dpkg-deb', '-x', str(deb), str(dest)], log, 900,
		   f'unpack {deb.name}')
	(dest / DONE).write_text(deb.name + '\n')


def fetch(package: str, version: Optional[str], cache: Path,
	  log_dir: Path) -> Unpacked:
	"""The package unpacked in the cache; downloaded first if it is not."""
	log = log_dir / 'archive.log'
	version = resolve(package, version, log)
	root = folder(cache, package, version) / 'root'
	if (root / DONE).exists():
		return Unpacked(package, version, root)
	spool = root.parent / 'download'
	if spool.exists():
		shutil.rmtree(spool)
	spool.mkdir(parents=True)
	proc.check(['apt-get', 'download', '-q', f'{package}={version}'], log, 1800,
		   f'apt-get download {package}={version}', cwd=spool)
	debs = sorted(spool.glob('*.deb'))
	if len(debs) != 1:
		raise KconformError(f'apt-get download {package}={version}: expected '
				    f'one .deb in {spool}, found {len(debs)}')
	unpack(debs[0], root, log)
	shutil.rmtree(spool)
	return Unpacked(package, version, root)


def fetch_deb(deb: Path, cache: Path, log_dir: Path) -> Unpacked:
	"""A local .deb, unpacked in the cache under its own name and version."""
	log = log_dir / 'archive.log'
	if not deb.is_file():
		raise InputError(f'{deb}: no such file')
	r = proc.run(['dpkg-deb', '-f', str(deb), 'Package', 'Version'], log, 60)
	fields = dict(l.split(':', 1) for l in r.lines if ':' in l)
	package = fields.get('Package', '').strip()
	version = fields.get('Version', '').strip()
	if r.returncode != 0 or not package or not version:
		raise InputError(f'{deb}: not a Debian package (dpkg-deb -f: log {log})')
	# keyed by content too: a rebuilt .deb may keep its name and version
	digest = hashlib.sha256(deb.read_bytes()).hexdigest()[:12]
	root = folder(cache, package, f'{version}_local-{digest}') / 'root'
	if not (root / DONE).exists():
		unpack(deb, root, log)
	return Unpacked(package, version, root)
