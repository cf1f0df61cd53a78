# SPDX-License-Identifier: GPL-2.0
"""Debian packages of any version the archive lists, never installed.

`apt-get download PACKAGE=VERSION` into the cache, `dpkg-deb -x` into
a folder of its own, once per package and version; the .deb is then
dropped. Nothing is installed over the system's packages.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import List, Optional, Tuple

from . import proc
from .model import InputError, KconformError


def policy_versions(text: str) -> Tuple[Optional[str], List[str]]:
	"""(candidate, every version of the version table, as listed) of
	one package's `apt-cache policy` output."""
	cand = re.search(r'^\s*Candidate:\s*(\S+)', text, re.M)
	versions = re.findall(r'^\s*(?:\*\*\*\s+)?(\S+)\s+-?\d+\s*$',
			      text.split('Version table:', 1)[-1], re.M)
	candidate = cand.group(1) if cand and cand.group(1) != '(none)' else None
	return candidate, versions


def pick(package: str, wanted: Optional[str], text: str) -> str:
	"""The archive version wanted names: exact, or an upstream version
	without its Debian revision (6.1.190 -> 6.1.190-1, the first listed,
	which apt lists newest first), or none: the candidate. InputError
	lists what the archive has."""
	candidate, versions = policy_versions(text)
	if not versions:
		raise InputError(f'{package}: apt-cache policy lists no version '
				 '(apt-get update? a bookworm-security source?)')
	if not wanted:
		if candidate is None:
			raise InputError(f'{package}: no candidate version')
		return candidate
	if wanted in versions:
		return wanted
	prefix = [v for v in versions if v.startswith(wanted + '-')]
	if prefix:
		return prefix[0]
	raise InputError(f'{package}={wanted}: not in the archive; '
			 f'apt-cache policy lists {", ".join(versions)}')


def resolve(package: str, wanted: Optional[str], log: Path) -> str:
	r = proc.run(['apt-cache', 'policy', package], log, 120)
	return pick(package, wanted, ''.join(r.lines))


def folder(cache: Path, package: str, version: str) -> Path:
	"""The unpacked package: one folder per package and version."""
	safe = re.sub(r'[^A-Za-z0-9.+~-]', '_', version)
	return cache / 'archive' / package / safe


def fetch(package: str, version: str, cache: Path, log_dir: Path) -> Path:
	"""Download and unpack PACKAGE=VERSION once; the unpacked folder."""
	dest = folder(cache, package, version)
	stamp = dest.parent / f'{dest.name}.ok'
	if stamp.exists() and dest.is_dir():
		return dest
	dl = dest.parent / f'{dest.name}.download'
	for d in (dest, dl):
		if d.exists():
			shutil.rmtree(d)
	dl.mkdir(parents=True)
	proc.check(['apt-get', 'download', f'{package}={version}'],
		   log_dir / f'download-{package}.log', 1800,
		   f'apt-get download {package}={version}', cwd=dl)
	debs = sorted(dl.glob('*.deb'))
	if len(debs) != 1:
		raise KconformError(f'apt-get download {package}={version}: '
				    f'{len(debs)} .deb files in {dl}')
	proc.check(['dpkg-deb', '-x', str(debs[0]), str(dest)],
		   log_dir / f'unpack-{package}.log', 900,
		   f'dpkg-deb -x {debs[0].name}')
	shutil.rmtree(dl)
	stamp.write_text(f'{package}={version}\n')
	return dest
