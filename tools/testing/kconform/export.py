# SPDX-License-Identifier: GPL-2.0
"""Export the series as a git am-able set, with a cover letter.

A throwaway git repository of the pristine tree takes each patch with
`git am`; an overlay file (a KUnit source, say) joins the commit of the
first patch that names it (its Makefile hook), the rest get one commit
per folder. `git format-patch --cover-letter --base` writes the set.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Dict, List, Tuple

from . import proc
from .tree import Layout, Source

ENV = {'GIT_AUTHOR_NAME': 'kconform', 'GIT_AUTHOR_EMAIL': 'kconform@example.org',
       'GIT_COMMITTER_NAME': 'kconform',
       'GIT_COMMITTER_EMAIL': 'kconform@example.org'}


def _git(scratch: Path, logs: Path, *argv: str) -> None:
	proc.check(['git', *argv], logs / 'export-git.log', 1800,
		   'git ' + ' '.join(argv[:2]), cwd=scratch, env=ENV)


def _place(root: Path, logs: Path, f: Path, dest: str) -> None:
	target = root / dest
	target.parent.mkdir(parents=True, exist_ok=True)
	shutil.copyfile(f, target)
	shutil.copymode(f, target)
	_git(root, logs, 'add', dest)


def export(layout: Layout, src: Source, scratch: Path, out: Path,
	   logs: Path) -> List[Path]:
	if scratch.exists():
		shutil.rmtree(scratch)
	proc.check(['rsync', '-a', '--exclude=/.git', f'{src.pristine}/',
		    f'{scratch}/'], logs / 'export-copy.log', 1800, 'copy the tree')
	_git(scratch, logs, 'init', '-q')
	_git(scratch, logs, 'add', '-A')
	_git(scratch, logs, 'commit', '-q', '-m', f'{src.name} pristine')
	base = subprocess.run(['git', 'rev-parse', 'HEAD'], cwd=scratch,
			      capture_output=True, text=True, check=True).stdout.strip()
	pending = list(layout.overlays())
	for name in layout.series():
		patch = layout.patches / name
		_git(scratch, logs, 'am', '-q', str(patch))
		text = patch.read_text(errors='replace')
		mine = [(f, d) for f, d in pending if Path(d).stem in text]
		for f, dest in mine:
			_place(scratch, logs, f, dest)
		if mine:
			_git(scratch, logs, 'commit', '-q', '--amend', '--no-edit')
			pending = [p for p in pending if p not in mine]
	groups: Dict[str, List[Tuple[Path, str]]] = {}
	for f, dest in pending:
		groups.setdefault(str(Path(dest).parent), []).append((f, dest))
	for folder, items in groups.items():
		for f, dest in items:
			_place(scratch, logs, f, dest)
		_git(scratch, logs, 'commit', '-q', '-s', '-m',
		     f'kconform: add {folder}\n\nTest sources for {folder}.')
	if out.exists():
		shutil.rmtree(out)
	_git(scratch, logs, 'format-patch', '-q', '--cover-letter', f'--base={base}',
	     '-o', str(out), f'{base}..HEAD')
	return sorted(out.glob('*.patch'))
