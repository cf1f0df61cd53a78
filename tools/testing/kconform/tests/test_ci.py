# SPDX-License-Identifier: GPL-2.0
"""matrix --emit: the GitLab pipeline run for real by gitlab-ci-local
(shell executor) on recorded results, the GitHub workflow parsed."""

import contextlib
import importlib
import io
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest
import unittest.mock
from pathlib import Path
from typing import Any, Dict, List

from kconform import cli, deps, pipeline
from kconform.ci import OUT

DATA = Path(__file__).parent / 'test_data'
# each release's results: a recorded console log through `kconform parse`
RELEASES = {'6.1.192-3': 'kunit_pass.log', '6.1.190-1': 'kunit_fail_skip.log'}
GITLAB_CI_LOCAL = deps.npm_tool(pipeline.cache_dir() / 'npm', 'gitlab-ci-local')


def emitted(*argv: str) -> str:
	buf = io.StringIO()
	with contextlib.redirect_stdout(buf):
		rc = cli.main(['matrix', '--emit', *argv])
	assert rc == 0, rc
	return buf.getvalue()


def recorded(out: Path) -> None:
	"""results/matrix/<release>/results.json, as a release job leaves it."""
	for release, log in RELEASES.items():
		with contextlib.redirect_stdout(io.StringIO()):
			cli.main(['parse', '--kind', 'kunit', '--out', str(out / release),
				  str(DATA / log)])


def serial_matrix(out: Path, home: Path) -> str:
	"""The jobs' HOME is home: the same (empty) cache, so the changes
	between releases read the same in both."""
	cache = str(home / '.cache' / 'kconform')
	with contextlib.redirect_stdout(io.StringIO()), \
	     unittest.mock.patch.dict(os.environ, KCONFORM_CACHE=cache):
		cli.main(['matrix', *RELEASES, '--no-run', '--out', str(out)])
	return (out / 'matrix.txt').read_text()


def git(cwd: Path, *argv: str) -> None:
	subprocess.run(['git', '-c', 'user.name=kconform', '-c', 'user.email=kconform@localhost',
			*argv], cwd=cwd, check=True, capture_output=True)


@unittest.skipUnless(shutil.which('git'), 'needs git')
class GitlabPipelineTest(unittest.TestCase):

	def setUp(self) -> None:
		if not GITLAB_CI_LOCAL.exists():
			self.skipTest(f'gitlab-ci-local is not installed in {GITLAB_CI_LOCAL.parents[2]} '
				      '(make deps-tests; it needs npm)')
		self.tmp = Path(tempfile.mkdtemp())
		self.addCleanup(shutil.rmtree, self.tmp, True)

	def test_collect_job_writes_the_serial_matrix(self) -> None:
		"""Each release job's folder is its artifact; the collect job's
		matrix.txt is the one a serial `matrix --no-run` writes."""
		repo = self.tmp / 'repo'
		shutil.copytree(Path(cli.__file__).parent, repo / 'tools/testing/kconform',
				ignore=shutil.ignore_patterns('tests', '__pycache__'))
		recorded(repo / OUT)
		shutil.copytree(repo / OUT, self.tmp / 'serial')
		serial = serial_matrix(self.tmp / 'serial', self.tmp)
		(repo / '.gitlab-ci.yml').write_text(
			emitted('gitlab', '--no-run', '--kcidb', 'results/kcidb', *RELEASES))
		git(repo, 'init', '-q')
		git(repo, 'add', '.')
		git(repo, 'commit', '-q', '-m', 'recorded releases')
		# the image's jobs on this machine's shell: make and python3 are here
		r = subprocess.run([str(GITLAB_CI_LOCAL), '--force-shell-executor',
				    '--shell-isolation', '--no-color'], cwd=repo,
				   capture_output=True, text=True, timeout=600,
				   env=dict(os.environ, HOME=str(self.tmp)))
		self.assertEqual(r.returncode, 0, r.stdout[-3000:] + r.stderr[-2000:])
		for release in RELEASES:
			self.assertRegex(r.stdout, rf'PASS\s+kconform {re.escape(release)}')
		self.assertRegex(r.stdout, r'PASS\s+kconform matrix')
		# each job's artifacts, in a folder named after the job
		artifacts = repo / '.gitlab-ci-local/artifacts'
		for release in RELEASES:
			self.assertEqual(len(list(artifacts.glob(f'*/{OUT}/{release}/results.json'))),
					 1, sorted(artifacts.rglob('*')))
		matrix_txt = list(artifacts.glob(f'*/{OUT}/matrix.txt'))
		self.assertEqual(len(matrix_txt), 1, sorted(artifacts.rglob('*')))
		self.assertEqual(matrix_txt[0].read_text(), serial)
		self.assertIn('6.1.190-1', serial)
		for release in RELEASES:
			doc = json.loads((matrix_txt[0].parents[2] / 'results/kcidb' /
					  f'{release}.json').read_text())
			self.assertEqual(doc['version'], {'major': 5, 'minor': 3})
			self.assertTrue(doc['tests'])


# Debian's PyYAML has no type stubs; what it returns is checked here
yaml: Any
try:
	yaml = importlib.import_module('yaml')
except ImportError:
	yaml = None


@unittest.skipIf(yaml is None, 'needs PyYAML (python3-yaml: make deps-tests)')
class GithubWorkflowTest(unittest.TestCase):
	"""The structure GitHub Actions requires of a workflow."""

	def check_workflow(self, doc: Dict[str, Any]) -> None:
		self.assertTrue({'on', 'jobs'} <= doc.keys(), doc.keys())
		jobs = doc['jobs']
		for name, job in jobs.items():
			self.assertRegex(name, r'^[A-Za-z_][A-Za-z0-9_-]*$')
			self.assertIn('runs-on', job)
			for need in job.get('needs', []):
				self.assertIn(need, jobs)
			keys: List[str] = []
			include = job.get('strategy', {}).get('matrix', {}).get('include')
			if include is not None:
				self.assertIsInstance(include, list)
				keys = sorted(include[0])
				self.assertTrue(all(sorted(i) == keys for i in include))
			used = re.findall(r'\$\{\{\s*matrix\.([A-Za-z_]+)\s*\}\}', json.dumps(job))
			self.assertTrue(set(used) <= set(keys), (used, keys))
			self.assertTrue(job['steps'])
			for step in job['steps']:
				self.assertEqual(len({'uses', 'run'} & step.keys()), 1, step)
				if 'uses' in step:
					self.assertRegex(step['uses'], r'^[\w.-]+/[\w.-]+@\S+$')

	def test_one_job_per_release_then_collect(self) -> None:
		doc = yaml.safe_load(emitted('github', '--run-args', '--kind kunit',
					     '--kcidb', 'results/kcidb', *RELEASES,
					     'linux-source-6.1=6.1.187-1'))
		self.check_workflow(doc)
		rel = doc['jobs']['release']
		self.assertEqual(rel['strategy']['matrix']['include'], [
			{'release': r, 'folder': r} for r in RELEASES] + [
			{'release': 'linux-source-6.1=6.1.187-1',
			 'folder': 'linux-source-6.1=6.1.187-1'}])
		runs = [s['run'] for s in rel['steps'] if 'run' in s]
		self.assertIn('make deps', runs)
		self.assertIn('PYTHONPATH=tools/testing python3 -m kconform matrix "$RELEASE" '
			      f"--out {OUT} --run-args='--kind kunit'", runs)
		collect = doc['jobs']['collect']
		self.assertEqual(collect['needs'], ['release'])
		self.assertIn('PYTHONPATH=tools/testing python3 -m kconform matrix '
			      f'6.1.192-3 6.1.190-1 linux-source-6.1=6.1.187-1 --out {OUT} '
			      '--no-run --kcidb results/kcidb',
			      [s.get('run') for s in collect['steps']])

	def test_gitlab_form_parses_too(self) -> None:
		doc = yaml.safe_load(emitted('gitlab', *RELEASES))
		self.assertEqual([k for k in doc if k.startswith('kconform')],
				 ['kconform 6.1.192-3', 'kconform 6.1.190-1', 'kconform matrix'])
		self.assertEqual(doc['kconform matrix']['needs'],
				 [{'job': f'kconform {r}', 'artifacts': True} for r in RELEASES])
		self.assertEqual(doc['kconform 6.1.190-1']['artifacts']['paths'],
				 [f'{OUT}/6.1.190-1/'])


if __name__ == '__main__':
	unittest.main()
