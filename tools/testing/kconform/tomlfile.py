# SPDX-License-Identifier: GPL-2.0
"""The project's TOML files, read strictly: a file of tables (or of one
array of tables), each of known keys; an unknown key (a typo such as
`cmdlin`) is an error that names the file, the table and the key, never
a silent default.

A file of the project's own is a KconformError; a user's (what: the
option that named it, its text read bounded by the caller) an
InputError naming the option.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional

from .model import InputError, KconformError


def _error(path: Path, what: str, message: str) -> KconformError:
	if what:
		return InputError(f'{what} {path}: {message}')
	return KconformError(f'{path}: {message}')


def load(path: Path, what: str = '', text: Optional[str] = None) -> Dict[str, Any]:
	"""The file's top level, or the error naming it."""
	try:
		return tomllib.loads(path.read_text() if text is None else text)
	except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
		raise _error(path, what, str(e)) from e


def table(path: Path, name: str, entry: Any, known: Iterable[str],
	  what: str = '') -> Dict[str, Any]:
	"""entry, checked to be a table of known keys; name: how the file
	spells it (`[x]`, `[stable."y"]`), for the error."""
	if not isinstance(entry, dict):
		raise _error(path, what, f'{name}: expected a table')
	unknown = sorted(set(entry) - set(known))
	if unknown:
		raise _error(path, what, f'{name}: unknown key {", ".join(unknown)} '
			     f'(known: {", ".join(sorted(known))})')
	return entry


def tables(path: Path, keys: Iterable[str], what: str = '',
	   text: Optional[str] = None) -> Dict[str, Dict[str, Any]]:
	"""Every table of the file (name -> its keys), each key one of keys."""
	known = list(keys)
	return {name: table(path, f'[{name}]', entry, known, what)
		for name, entry in load(path, what, text).items()}


def array(path: Path, name: str, keys: Iterable[str], what: str = '',
	  text: Optional[str] = None) -> List[Dict[str, Any]]:
	"""The entries of a file that holds one array of tables, [[name]],
	each key one of keys."""
	data = load(path, what, text)
	extra = sorted(set(data) - {name})
	if extra:
		raise _error(path, what, f'unknown table(s) {", ".join(extra)}; '
			     f'entries are [[{name}]]')
	items = data.get(name, [])
	if not isinstance(items, list):
		raise _error(path, what, f'[{name}] is a single table; write each '
			     f'entry as [[{name}]]')
	known = list(keys)
	return [table(path, f'{name} #{n}', item, known, what)
		for n, item in enumerate(items, 1)]
