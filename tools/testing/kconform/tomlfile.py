# SPDX-License-Identifier: GPL-2.0
"""The project's TOML files, read strictly: a file of tables, each of
known keys; an unknown key (a typo such as `cmdlin`) is an error that
names the file, the table and the key, never a silent default."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Dict, Iterable

from .model import KconformError


def tables(path: Path, keys: Iterable[str]) -> Dict[str, Dict[str, Any]]:
	"""Every table of the file (name -> its keys), each key one of keys."""
	try:
		data = tomllib.loads(path.read_text())
	except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
		raise KconformError(f'{path}: {e}') from e
	known = set(keys)
	for name, entry in data.items():
		if not isinstance(entry, dict):
			raise KconformError(f'{path}: {name}: expected a table [{name}]')
		unknown = sorted(set(entry) - known)
		if unknown:
			raise KconformError(f'{path}: [{name}]: unknown key '
					    f'{", ".join(unknown)} (known: {", ".join(sorted(known))})')
	return data
