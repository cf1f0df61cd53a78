# SPDX-License-Identifier: GPL-2.0
"""Kconfig fragments: merge them, and prove .config took every line."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Dict, Sequence, Set

_SET = re.compile(r'^(CONFIG_\w+)=(.*)$')
_UNSET = re.compile(r'^# (CONFIG_\w+) is not set$')
_DEFINE = re.compile(r'^\s*(?:menu)?config\s+(\w+)\s*$', re.M)


def parse(text: str) -> Dict[str, str]:
	"""Symbol -> value ('n' for "is not set"); other lines are ignored."""
	out: Dict[str, str] = {}
	for line in text.splitlines():
		line = line.strip()
		m = _SET.match(line)
		if m:
			out[m.group(1)] = m.group(2)
			continue
		m = _UNSET.match(line)
		if m:
			out[m.group(1)] = 'n'
	return out


def merge(fragments: Sequence[Path]) -> str:
	"""Concatenate fragments; later ones win, as in merge_config.sh."""
	parts = []
	for f in fragments:
		parts.append(f'# --- {f.name}\n{f.read_text()}')
	return '\n'.join(parts)


def lost(requested: str, dotconfig: str) -> Dict[str, str]:
	"""Requested symbols that .config does not hold: symbol -> readable
	line."""
	want = parse(requested)
	have = parse(dotconfig)
	out = {}
	for sym, val in want.items():
		got = have.get(sym, 'n')
		if got != val:
			out[sym] = f'{sym}={val} (.config has {sym}={got})'
	return out


def defined(tree: Path) -> Set[str]:
	"""Every symbol the tree's Kconfig files define (CONFIG_ prefixed)."""
	out: Set[str] = set()
	for root, dirs, files in os.walk(tree):
		dirs[:] = [d for d in dirs if not d.startswith('.')]
		for f in files:
			if f.startswith('Kconfig'):
				text = (Path(root) / f).read_text(errors='replace')
				out.update('CONFIG_' + m for m in _DEFINE.findall(text))
	return out
