# SPDX-License-Identifier: GPL-2.0
"""ccache for every build of a run, and what each build took from it.

The local cache lives with the rest of kconform's cache. A remote
storage (`--ccache-remote URL` or CCACHE_REMOTE_STORAGE in the
environment: redis://, http://, file://) is shared by a team's runners.
Hits from a build in another folder (another machine's home, a CI
runner's checkout) need both settings below, measured with ccache 4.7.5
on two checkouts of the 6.1 tree (O= beside each, DEBUG_INFO): the
second checkout's 11 source compiles were 11 remote hits with both, 0
with neither or with the first alone, 1 with the second alone.
- CCACHE_BASEDIR = the kconform cache folder, which holds every tree and
  build folder: the paths below it are hashed relative to the build
  folder, the same wherever the cache is.
- CCACHE_NOHASHDIR: with -g, the build folder itself is not hashed (the
  debug info then names the folder of the build that filled the cache).
A setting the environment already has is kept.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
from pathlib import Path
from typing import Dict, Iterator, List, Mapping, MutableMapping, Optional

REMOTE_ENV = 'CCACHE_REMOTE_STORAGE'
# ccache --print-stats counters a build's record keeps
COUNTERS = ('direct_cache_hit', 'preprocessed_cache_hit', 'cache_miss',
	    'local_storage_hit', 'remote_storage_hit', 'remote_storage_miss',
	    'remote_storage_error', 'remote_storage_timeout')


def setup(cache: Path, remote: Optional[str],
	  env: MutableMapping[str, str] = os.environ) -> None:
	"""The environment every build of the run inherits."""
	env.setdefault('CCACHE_DIR', str(cache / 'ccache'))
	env.setdefault('CCACHE_MAXSIZE', '8G')
	env.setdefault('CCACHE_BASEDIR', str(cache.resolve()))
	env.setdefault('CCACHE_NOHASHDIR', 'true')
	if remote:
		env[REMOTE_ENV] = remote


def shown(url: str) -> str:
	"""A remote's URL without its credentials, for results and logs."""
	return re.sub(r'//[^/@]*@', '//', url)


def stats(env: Optional[Mapping[str, str]] = None) -> Dict[str, int]:
	"""ccache's counters ({} when ccache cannot say)."""
	try:
		r = subprocess.run(['ccache', '--print-stats'], capture_output=True,
				   text=True, check=False, env=env, timeout=60)
	except (OSError, subprocess.TimeoutExpired):
		return {}
	out = {}
	for line in r.stdout.splitlines() if r.returncode == 0 else []:
		key, _, value = line.partition('\t')
		if value.strip().isdigit():
			out[key] = int(value)
	return out


def difference(before: Mapping[str, int], after: Mapping[str, int]) -> Dict[str, int]:
	return {k: after[k] - before.get(k, 0) for k in COUNTERS if k in after}


@contextlib.contextmanager
def measured(into: Dict[str, Dict[str, int]], name: str,
	     env: Optional[Mapping[str, str]] = None) -> Iterator[None]:
	"""into[name]: what the build in the block took from ccache (its own
	statistics before and after; one build at a time uses the cache)."""
	before = stats(env)
	try:
		yield
	finally:
		after = stats(env)
		if before and after:
			into[name] = difference(before, after)


def record(builds: Mapping[str, Mapping[str, int]],
	   env: Mapping[str, str] = os.environ) -> Dict[str, object]:
	"""results.json's `ccache`: the remote (none: null) and each build."""
	remote = env.get(REMOTE_ENV)
	return {'remote': shown(remote) if remote else None,
		'builds': {k: dict(v) for k, v in builds.items()}}


def lines(doc: Mapping[str, object]) -> List[str]:
	"""The summary's lines for results.json's `ccache`."""
	builds = doc.get('builds')
	if not isinstance(builds, dict) or not builds:
		return []
	out = [f'ccache (remote {doc.get("remote") or "none"}):']
	for name, c in builds.items():
		hits = c.get('direct_cache_hit', 0) + c.get('preprocessed_cache_hit', 0)
		miss = c.get('cache_miss', 0)
		errors = c.get('remote_storage_error', 0) + c.get('remote_storage_timeout', 0)
		out.append(f'   {name}: {hits + miss} compiles, {hits} hits '
			   f'({c.get("local_storage_hit", 0)} local, '
			   f'{c.get("remote_storage_hit", 0)} remote), {miss} misses'
			   + (f', {errors} remote errors' if errors else ''))
	return out
