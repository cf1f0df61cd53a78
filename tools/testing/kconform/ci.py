# SPDX-License-Identifier: GPL-2.0
"""`kconform matrix --emit gitlab|github RELEASE…`: the matrix as a CI
pipeline, not a run. One job per release runs `kconform matrix RELEASE`
(its results/matrix/<release>/ is the job's artifact); one collect job
then runs `kconform matrix RELEASE… --no-run` on those artifacts and
keeps matrix.txt, matrix.json and (--kcidb DIR) each release's KCIDB
JSON. GitLab: a child pipeline, for a parent's `trigger: include:
artifact`; GitHub Actions: a workflow whose release job is an `include`
matrix. Every job installs what it needs with the README's commands
(`make deps`), after the image's make and python3; a runner's
CCACHE_REMOTE_STORAGE (a CI/CD variable, an Actions secret) reaches
every build.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
from typing import Any, Dict, List, Optional, Sequence

from . import matrix

OUT = 'results/matrix'
KCONFORM = 'PYTHONPATH=tools/testing python3 -m kconform'
IMAGE = 'debian:bookworm'
# a bare Debian image has neither
BOOTSTRAP = ('command -v make >/dev/null && command -v python3 >/dev/null || '
	     '{ apt-get update -q && apt-get install -y -q --no-install-recommends '
	     'make python3; }')
REMOTE_SECRET = '${{ secrets.CCACHE_REMOTE_STORAGE }}'
RELEASE_TIMEOUT_MIN = 180	# a cold build (~35 min) and both boots, with room
_PLAIN = re.compile(r'[A-Za-z0-9_./][A-Za-z0-9_ ./=+~@:-]*')
_YAML_WORDS = {'y', 'n', 'yes', 'no', 'on', 'off', 'true', 'false', 'null', '~'}


def options(mx: argparse.ArgumentParser) -> None:
	"""The matrix command's options for CI."""
	mx.add_argument('--emit', choices=['gitlab', 'github'],
			help='print the matrix as a CI pipeline instead of running '
			     'it: a GitLab child pipeline or a GitHub Actions workflow')
	mx.add_argument('--ci-image', default=IMAGE, metavar='IMAGE',
			help=f'--emit: the jobs\' container image (default {IMAGE}; '
			     '"": the runner\'s own)')
	mx.add_argument('--kcidb', metavar='DIR',
			help='also write each release\'s results as KCIDB v5 JSON, '
			     'DIR/<release>.json')


def _scalar(value: Any) -> str:
	if isinstance(value, str) and _PLAIN.fullmatch(value) and \
			value.lower() not in _YAML_WORDS and ': ' not in value and \
			not value.endswith((' ', ':')) and \
			not re.fullmatch(r'[0-9.+-]+', value):
		return value
	return json.dumps(value, ensure_ascii=False)


def yaml(value: Any, level: int = 0) -> List[str]:
	"""Block YAML of dicts, lists and scalars (a string that could read
	as anything else is a JSON string, which YAML reads as written)."""
	pad = '  ' * level
	out: List[str] = []
	if isinstance(value, dict):
		for k, v in value.items():
			if isinstance(v, (dict, list)) and v:
				out.append(f'{pad}{_scalar(k)}:')
				out += yaml(v, level + 1)
			else:
				out.append(f'{pad}{_scalar(k)}: ' +
					   ('{}' if v == {} else '[]' if v == [] else _scalar(v)))
	else:
		for item in value:
			if isinstance(item, (dict, list)) and item:
				lines = yaml(item, level + 1)
				out.append(f'{pad}- ' + lines[0].lstrip())
				out += lines[1:]
			else:
				out.append(f'{pad}- {_scalar(item)}')
	return out


def _matrix(releases: Sequence[str], *more: str) -> str:
	return ' '.join([KCONFORM, 'matrix', *releases, '--out', OUT, *more])


def _run_opts(run_args: str, no_run: bool) -> List[str]:
	return (['--no-run'] if no_run else []) + \
		([f'--run-args={shlex.quote(run_args)}'] if run_args else [])


def _collect_opts(kcidb: Optional[str]) -> List[str]:
	return ['--no-run'] + (['--kcidb', shlex.quote(kcidb)] if kcidb else [])


def gitlab(releases: Sequence[str], run_args: str = '', no_run: bool = False,
	   kcidb: Optional[str] = None, image: str = IMAGE) -> Dict[str, Any]:
	doc: Dict[str, Any] = {'stages': ['release', 'collect'],
			       'default': {**({'image': image} if image else {}),
					   'before_script': [BOOTSTRAP]}}
	jobs = []
	for r in releases:
		name = f'kconform {r}'
		jobs.append(name)
		doc[name] = {
			'stage': 'release', 'timeout': f'{RELEASE_TIMEOUT_MIN} minutes',
			'script': ([] if no_run else ['make deps']) +
			[_matrix([shlex.quote(r)], *_run_opts(run_args, no_run))],
			'artifacts': {'when': 'always',
				      'paths': [f'{OUT}/{matrix.folder_name(r)}/']}}
	doc['kconform matrix'] = {
		'stage': 'collect', 'when': 'always',
		'needs': [{'job': j, 'artifacts': True} for j in jobs],
		'script': [_matrix([shlex.quote(r) for r in releases], *_collect_opts(kcidb))],
		'artifacts': {'when': 'always',
			      'paths': [f'{OUT}/matrix.txt', f'{OUT}/matrix.json',
					*([f'{kcidb}/'] if kcidb else [])]}}
	return doc


def github(releases: Sequence[str], run_args: str = '', no_run: bool = False,
	   kcidb: Optional[str] = None, image: str = IMAGE) -> Dict[str, Any]:
	where: Dict[str, Any] = {'runs-on': 'ubuntu-latest',
				 **({'container': image} if image else {})}
	setup = [{'uses': 'actions/checkout@v4'}, {'run': BOOTSTRAP}]
	release = {
		**where, 'timeout-minutes': RELEASE_TIMEOUT_MIN,
		'strategy': {'fail-fast': False, 'matrix': {'include': [
			{'release': r, 'folder': matrix.folder_name(r)} for r in releases]}},
		'env': {'CCACHE_REMOTE_STORAGE': REMOTE_SECRET,
			'RELEASE': '${{ matrix.release }}'},
		'steps': setup + ([] if no_run else [{'run': 'make deps'}]) + [
			{'run': _matrix(['"$RELEASE"'], *_run_opts(run_args, no_run))},
			{'if': 'always()', 'uses': 'actions/upload-artifact@v4',
			 'with': {'name': '${{ matrix.folder }}',
				  'path': f'{OUT}/${{{{ matrix.folder }}}}/'}}]}
	collect = {
		'needs': ['release'], 'if': 'always()', **where,
		'steps': setup + [
			{'uses': 'actions/download-artifact@v4', 'with': {'path': OUT}},
			{'run': _matrix([shlex.quote(r) for r in releases], *_collect_opts(kcidb))},
			{'if': 'always()', 'uses': 'actions/upload-artifact@v4',
			 'with': {'name': 'kconform-matrix',
				  'path': '\n'.join([f'{OUT}/matrix.txt', f'{OUT}/matrix.json',
						     *([f'{kcidb}/'] if kcidb else [])])}}]}
	return {'name': 'kconform matrix', 'on': {'workflow_dispatch': {}},
		'jobs': {'release': release, 'collect': collect}}


def emit(kind: str, releases: Sequence[str], run_args: str = '',
	 no_run: bool = False, kcidb: Optional[str] = None, image: str = IMAGE) -> str:
	"""The pipeline's text, headed by the command that wrote it."""
	doc = (gitlab if kind == 'gitlab' else github)(releases, run_args, no_run,
							kcidb, image)
	head = ' '.join(['kconform matrix --emit', kind, *map(shlex.quote, releases)])
	return '\n'.join([f'# written by {head}: one job per release, then the matrix',
			  *yaml(doc)]) + '\n'
