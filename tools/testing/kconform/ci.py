# SPDX-License-Identifier: GPL-2.0
"""`kconform matrix|bisect … --emit gitlab|github`: a CI pipeline, not a
run, of one shape (Fanout): independent jobs, each keeping its folder as
its artifact, then one collect job that reads them all with `--no-run`.

matrix: one job per release runs `kconform matrix RELEASE` (its
results/matrix/<release>/); the collect job runs `kconform matrix
RELEASE… --no-run` and keeps matrix.txt, matrix.json and (--kcidb DIR)
each release's KCIDB JSON.

bisect: a bisect's steps depend on each other's verdicts, so the
pipeline tests every step of the stack at once instead: one job per
attempt of every step 0..n (`kconform bisect … --step K --attempt I`,
its results/bisect/step-KK/try-I/), then `kconform bisect … --no-run`
searches those results as the serial bisect would have, attempt by
attempt, and writes the same bisect.txt and bisect.json.

GitLab: a child pipeline, for a parent's `trigger: include: artifact`;
GitHub Actions: a workflow whose first job is an `include` matrix. Every
job installs what it needs with the README's commands (`make deps`),
after the image's make and python3; a runner's CCACHE_REMOTE_STORAGE (a
CI/CD variable, an Actions secret) reaches every build.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence

from . import bisect, matrix

OUT = 'results/matrix'
BISECT_OUT = 'results/bisect'
KCONFORM = 'PYTHONPATH=tools/testing python3 -m kconform'
IMAGE = 'debian:bookworm'
# a bare Debian image has neither
BOOTSTRAP = ('command -v make >/dev/null && command -v python3 >/dev/null || '
	     '{ apt-get update -q && apt-get install -y -q --no-install-recommends '
	     'make python3; }')
REMOTE_SECRET = '${{ secrets.CCACHE_REMOTE_STORAGE }}'
JOB_TIMEOUT_MIN = 180	# a cold build (~35 min) and the boots, with room
_PLAIN = re.compile(r'[A-Za-z0-9_./][A-Za-z0-9_ ./=+~@:-]*')
_YAML_WORDS = {'y', 'n', 'yes', 'no', 'on', 'off', 'true', 'false', 'null', '~'}


def options(p: argparse.ArgumentParser, what: str) -> None:
	"""--emit and --ci-image, for the matrix and bisect commands."""
	p.add_argument('--emit', choices=['gitlab', 'github'],
		       help=f'print {what} as a CI pipeline instead of running '
			    'it: a GitLab child pipeline or a GitHub Actions workflow')
	p.add_argument('--ci-image', default=IMAGE, metavar='IMAGE',
		       help=f'--emit: the jobs\' container image (default {IMAGE}; '
			    '"": the runner\'s own)')


def matrix_options(mx: argparse.ArgumentParser) -> None:
	"""The matrix command's options for CI."""
	options(mx, 'the matrix')
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


@dataclass(frozen=True)
class Fanout:
	"""A pipeline's shape: independent jobs (a matrix's releases, a
	bisect's attempts), then one collect job on all their artifacts."""
	name: str			# the collect job's and the workflow's
	stage: str			# the jobs' stage (GitLab), their job (GitHub)
	title: str			# a job's GitLab name, with its {variable}s
	out: str			# the folder every artifact is under
	rows: List[Dict[str, str]]	# each job's variables; 'folder' its artifact under out
	command: Callable[[Mapping[str, str]], str]	# a job's, given its variables
	collect: str			# the collect job's command
	keeps: List[str]		# the collect job's artifacts
	upload: Dict[str, str]		# GitHub: a job's artifact (actions/upload-artifact)
	download: Dict[str, Any]	# and how the collect job takes them all
	no_run: bool			# the jobs read recorded results: no make deps


def gitlab(f: Fanout, image: str = IMAGE) -> Dict[str, Any]:
	doc: Dict[str, Any] = {'stages': [f.stage, 'collect'],
			       'default': {**({'image': image} if image else {}),
					   'before_script': [BOOTSTRAP]}}
	jobs = []
	for row in f.rows:
		name = f.title.format(**row)
		jobs.append(name)
		doc[name] = {
			'stage': f.stage, 'timeout': f'{JOB_TIMEOUT_MIN} minutes',
			'script': ([] if f.no_run else ['make deps']) +
			[f.command({k: shlex.quote(v) for k, v in row.items()})],
			'artifacts': {'when': 'always',
				      'paths': [f'{f.out}/{row["folder"]}/']}}
	doc[f.name] = {
		'stage': 'collect', 'when': 'always',
		'needs': [{'job': j, 'artifacts': True} for j in jobs],
		'script': [f.collect],
		'artifacts': {'when': 'always', 'paths': f.keeps}}
	return doc


def github(f: Fanout, image: str = IMAGE) -> Dict[str, Any]:
	where: Dict[str, Any] = {'runs-on': 'ubuntu-latest',
				 **({'container': image} if image else {})}
	setup = [{'uses': 'actions/checkout@v4'}, {'run': BOOTSTRAP}]
	keys = [k for k in f.rows[0] if k != 'folder']
	job = {
		**where, 'timeout-minutes': JOB_TIMEOUT_MIN,
		'strategy': {'fail-fast': False, 'matrix': {'include': f.rows}},
		'env': {'CCACHE_REMOTE_STORAGE': REMOTE_SECRET,
			**{k.upper(): f'${{{{ matrix.{k} }}}}' for k in keys}},
		'steps': setup + ([] if f.no_run else [{'run': 'make deps'}]) + [
			{'run': f.command({k: f'"${k.upper()}"' for k in keys})},
			{'if': 'always()', 'uses': 'actions/upload-artifact@v4',
			 'with': f.upload}]}
	collect = {
		'needs': [f.stage], 'if': 'always()', **where,
		'steps': setup + [
			{'uses': 'actions/download-artifact@v4', 'with': f.download},
			{'run': f.collect},
			{'if': 'always()', 'uses': 'actions/upload-artifact@v4',
			 'with': {'name': f.name.replace(' ', '-'),
				  'path': '\n'.join(f.keeps)}}]}
	return {'name': f.name, 'on': {'workflow_dispatch': {}},
		'jobs': {f.stage: job, 'collect': collect}}


def emit(kind: str, f: Fanout, head: str, image: str = IMAGE) -> str:
	"""The pipeline's text, headed by the command that wrote it."""
	doc = (gitlab if kind == 'gitlab' else github)(f, image)
	return '\n'.join([f'# written by {head}', *yaml(doc)]) + '\n'


def _run_opts(run_args: str, no_run: bool) -> List[str]:
	return (['--no-run'] if no_run else []) + \
		([f'--run-args={shlex.quote(run_args)}'] if run_args else [])


def _matrix(releases: Sequence[str], *more: str) -> str:
	return ' '.join([KCONFORM, 'matrix', *releases, '--out', OUT, *more])


def matrix_fanout(releases: Sequence[str], run_args: str = '', no_run: bool = False,
		  kcidb: Optional[str] = None) -> Fanout:
	"""One job per release (`kconform matrix RELEASE`), then the matrix."""
	return Fanout(
		name='kconform matrix', stage='release', title='kconform {release}', out=OUT,
		rows=[{'release': r, 'folder': matrix.folder_name(r)} for r in releases],
		command=lambda v: _matrix([v['release']], *_run_opts(run_args, no_run)),
		collect=_matrix([shlex.quote(r) for r in releases], '--no-run',
				*(['--kcidb', shlex.quote(kcidb)] if kcidb else [])),
		keeps=[f'{OUT}/matrix.txt', f'{OUT}/matrix.json', *([f'{kcidb}/'] if kcidb else [])],
		upload={'name': '${{ matrix.folder }}', 'path': f'{OUT}/${{{{ matrix.folder }}}}/'},
		download={'path': OUT}, no_run=no_run)


def emit_matrix(kind: str, releases: Sequence[str], run_args: str = '',
		no_run: bool = False, kcidb: Optional[str] = None, image: str = IMAGE) -> str:
	head = ' '.join(['kconform matrix --emit', kind, *map(shlex.quote, releases)])
	return emit(kind, matrix_fanout(releases, run_args, no_run, kcidb),
		    f'{head}: one job per release, then the matrix', image)


def bisect_fanout(argv: Sequence[str], patches: int, repeats: int,
		  no_run: bool = False) -> Fanout:
	"""One job per attempt of every step 0..patches (the ends first: with
	few runners they start first), then the bisect over their results;
	argv is the bisect's own options (stack, cases, --repeats, --run-args)."""
	base = ' '.join([KCONFORM, 'bisect', *map(shlex.quote, argv), '--out', BISECT_OUT])
	return Fanout(
		name='kconform bisect', stage='step', title='kconform step {step} attempt {attempt}',
		out=BISECT_OUT,
		rows=[{'step': str(k), 'attempt': str(i), 'folder': bisect.folder(k, i)}
		      for k in [patches, 0, *range(1, patches)] for i in range(1, repeats + 1)],
		command=lambda v: f'{base} --step {v["step"]} --attempt {v["attempt"]}' +
		(' --no-run' if no_run else ''),
		collect=f'{base} --no-run',
		keeps=[f'{BISECT_OUT}/bisect.txt', f'{BISECT_OUT}/bisect.json'],
		# a job's --out holds its attempt alone, under step-KK/try-I/
		upload={'name': 'step-${{ matrix.step }}-attempt-${{ matrix.attempt }}',
			'path': f'{BISECT_OUT}/'},
		download={'path': BISECT_OUT, 'pattern': 'step-*', 'merge-multiple': True},
		no_run=no_run)


def emit_bisect(kind: str, argv: Sequence[str], patches: int, repeats: int,
		no_run: bool = False, image: str = IMAGE) -> str:
	return emit(kind, bisect_fanout(argv, patches, repeats, no_run),
		    f'kconform bisect --emit {kind}: one job per attempt of every '
		    'step of the stack, then the bisect', image)
