# SPDX-License-Identifier: GPL-2.0
"""matrix and bisect --emit: the GitLab pipelines run for real by
gitlab-ci-local (shell executor) on recorded results, the GitHub
workflows parsed; the bisect's collect step (--no-run) against a serial
bisect on the same recorded attempts (a fake runner, no kernel)."""

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
from typing import Any, Dict, List, Mapping, Sequence, Tuple

from kconform import bisect, cli, deps, pipeline
from kconform.ci import BISECT_OUT, OUT
from kconform.inputs import REPO

DATA = Path(__file__).parent / 'test_data'
# each release's results: a recorded console log through `kconform parse`
RELEASES = {'6.1.192-3': 'kunit_pass.log', '6.1.190-1': 'kunit_fail_skip.log'}
GITLAB_CI_LOCAL = deps.npm_tool(pipeline.cache_dir() / 'npm', 'gitlab-ci-local')


def emitted(*argv: str, cmd: str = 'matrix') -> str:
	buf = io.StringIO()
	with contextlib.redirect_stdout(buf):
		rc = cli.main([cmd, '--emit', *argv])
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


# the bisect's stack and case; a step's attempts, as its jobs record them
STACK = sorted((DATA / 'bisect_stack').glob('*.patch'))
CASE = ['--kind', 'kunit', '--case', 'hwmon_max31760.hwmon_max31760_test_fan_input*']
Attempts = Mapping[int, Sequence[str]]


def attempts(n: int, first_bad: int, odd: Mapping[int, Sequence[str]] = {},
	     repeats: int = bisect.REPEATS) -> Attempts:
	"""Step k's verdict per attempt: fail from first_bad on, pass before."""
	return {k: odd.get(k, [bisect.FAIL if k >= first_bad else bisect.PASS] * repeats)
		for k in range(n + 1)}


def bisect_argv(n: int, repeats: int) -> List[str]:
	return [*CASE, *[a for p in STACK[:n] for a in ('--patch', str(p))],
		'--repeats', str(repeats)]


def fake_run(table: Attempts, runs: List[Tuple[int, int]]) -> Any:
	"""cli.run_report as a run leaves it: results.json in its --out, the
	case's status from table (step: how many --patch, attempt: try-I)."""
	def run(argv: Sequence[str], out: Path) -> Dict[str, Any]:
		k, i = argv.count('--patch'), int(out.name.split('-')[1])
		runs.append((k, i))
		res = {'suites': [{'kind': 'kunit', 'name': 'hwmon_max31760', 'status': 'pass',
				   'message': '', 'cases': [
					   {'name': 'hwmon_max31760_test_fan_input_pulses',
					    'status': table[k][i - 1]}]}], 'errors': []}
		out.mkdir(parents=True)
		(out / 'results.json').write_text(json.dumps(res))
		return res
	return unittest.mock.patch.object(cli, 'run_report', run)


def bisect_files(out: Path) -> Tuple[Dict[str, Any], List[str]]:
	"""bisect.json without the wall time, bisect.txt without its line's."""
	doc = json.loads((out / 'bisect.json').read_text())
	doc.pop('wall_s')
	txt = (out / 'bisect.txt').read_text().splitlines()
	return doc, [re.sub(r', wall \d+ s$', '', line) for line in txt]


def bisected(argv: Sequence[str], out: Path) -> Tuple[int, Dict[str, Any], List[str]]:
	"""`kconform bisect ARGV --out OUT`: its status and files."""
	with contextlib.redirect_stdout(io.StringIO()):
		rc = cli.main(['bisect', *argv, '--out', str(out)])
	return (rc, *bisect_files(out))


def fan_out(table: Attempts, argv: Sequence[str], out: Path) -> List[Tuple[int, int]]:
	"""Every attempt of every step, each as its CI job runs it."""
	runs: List[Tuple[int, int]] = []
	with fake_run(table, runs):
		for k, tries in table.items():
			for i in range(1, len(tries) + 1):
				with contextlib.redirect_stdout(io.StringIO()):
					rc = cli.main(['bisect', *argv, '--out', str(out),
						       '--step', str(k), '--attempt', str(i)])
				assert rc == 0, (k, i, rc)
	return runs


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

	def repo(self) -> Path:
		"""A repository with the runner alone, for recorded results."""
		repo = self.tmp / 'repo'
		shutil.copytree(Path(cli.__file__).parent, repo / 'tools/testing/kconform',
				ignore=shutil.ignore_patterns('tests', '__pycache__'))
		return repo

	def pipeline(self, repo: Path, ci_yml: str) -> 'subprocess.CompletedProcess[str]':
		"""ci_yml as repo's .gitlab-ci.yml, committed, run by gitlab-ci-local."""
		(repo / '.gitlab-ci.yml').write_text(ci_yml)
		git(repo, 'init', '-q')
		git(repo, 'add', '.')
		git(repo, 'commit', '-q', '-m', 'recorded results')
		# the image's jobs on this machine's shell: make and python3 are here
		r = subprocess.run([str(GITLAB_CI_LOCAL), '--force-shell-executor',
				    '--shell-isolation', '--no-color'], cwd=repo,
				   capture_output=True, text=True, timeout=600,
				   env=dict(os.environ, HOME=str(self.tmp)))
		self.assertEqual(r.returncode, 0, r.stdout[-3000:] + r.stderr[-2000:])
		return r

	def test_collect_job_writes_the_serial_matrix(self) -> None:
		"""Each release job's folder is its artifact; the collect job's
		matrix.txt is the one a serial `matrix --no-run` writes."""
		repo = self.repo()
		recorded(repo / OUT)
		shutil.copytree(repo / OUT, self.tmp / 'serial')
		serial = serial_matrix(self.tmp / 'serial', self.tmp)
		r = self.pipeline(repo, emitted('gitlab', '--no-run', '--kcidb', 'results/kcidb',
						*RELEASES))
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

	def test_bisect_collect_job_writes_the_serial_bisect(self) -> None:
		"""One job per attempt of every step (--no-run: its recorded
		results are its artifact); the collect job's bisect.json is the
		one a serial bisect writes on the same attempts."""
		n, repeats = 4, 2
		table = attempts(n, 3, {1: ['pass', 'fail']}, repeats)
		argv = bisect_argv(n, repeats)
		repo = self.repo()
		# what the bisect's --case is checked against (suites.load)
		shutil.copy(REPO / 'suites.toml', repo)
		for top in ('kunitconfig', 'kselftests'):
			shutil.copytree(REPO / top, repo / top)
		for patch in STACK[:n]:
			dest = repo / patch.relative_to(REPO)
			dest.parent.mkdir(parents=True, exist_ok=True)
			shutil.copy(patch, dest)
		fan_out(table, argv, repo / BISECT_OUT)
		with fake_run(table, []):
			rc, serial, serial_txt = bisected(argv, self.tmp / 'serial')
		self.assertEqual((rc, serial['first_bad']), (0, 3), serial_txt)
		r = self.pipeline(repo, emitted('gitlab', '--no-run', *argv, cmd='bisect'))
		artifacts = repo / '.gitlab-ci-local/artifacts'
		for k in range(n + 1):
			for i in range(1, repeats + 1):
				self.assertRegex(r.stdout, rf'PASS\s+kconform step {k} attempt {i}\b')
				self.assertEqual(len(list(artifacts.glob(
					f'*/{BISECT_OUT}/{bisect.folder(k, i)}/results.json'))), 1)
		self.assertRegex(r.stdout, r'PASS\s+kconform bisect')
		got = list(artifacts.glob(f'*/{BISECT_OUT}/bisect.json'))
		self.assertEqual(len(got), 1, sorted(artifacts.rglob('*')))
		self.assertEqual(bisect_files(got[0].parent), (serial, serial_txt))


class BisectCollectTest(unittest.TestCase):
	"""The pipeline's parts in process: each job's attempt, then the
	collect step (--no-run) over all of them."""

	def setUp(self) -> None:
		self.tmp = Path(tempfile.mkdtemp())
		self.addCleanup(shutil.rmtree, self.tmp, True)

	def check(self, table: Attempts, first_bad: Any,
		  repeats: int = bisect.REPEATS) -> Dict[str, Any]:
		argv = bisect_argv(len(STACK), repeats)
		fanout = self.tmp / 'fanout'
		runs = fan_out(table, argv, fanout)
		self.assertEqual(len(runs), sum(len(t) for t in table.values()))
		for wall in fanout.glob(f'step-*/try-*/{bisect.WALL}'):
			wall.write_text('{"wall_s": 60.0}\n')	# a build and a boot
		serial_runs: List[Tuple[int, int]] = []
		with fake_run(table, serial_runs):
			rc, serial, serial_txt = bisected(argv, self.tmp / 'serial')
		self.assertEqual(serial['first_bad'], first_bad, serial_txt)
		with unittest.mock.patch.object(cli, 'run_report', side_effect=AssertionError):
			got_rc, got, got_txt = bisected([*argv, '--no-run'], fanout)
		self.assertEqual(got, serial)
		self.assertEqual(got_txt, serial_txt)
		self.assertEqual(got_rc, rc)
		# the wall time: the attempts searched, one after another
		boots = sum(len(a['attempts']) for a in serial['steps'].values())
		self.assertEqual(json.loads((fanout / 'bisect.json').read_text())['wall_s'],
				 60.0 * boots)
		return serial

	def test_collect_is_the_serial_bisect(self) -> None:
		# step 4 passes, fails, passes: the serial bisect stops at the
		# second attempt and skips the step; so must the collect step
		serial = self.check(attempts(len(STACK), 6, {4: ['pass', 'fail', 'pass']}), 6)
		self.assertEqual(serial['steps']['4'], {'attempts': ['pass', 'fail'],
							'verdict': bisect.FLAKY})
		self.assertEqual(sorted(map(int, serial['steps'])), [0, 3, 4, 5, 6, 9])

	def test_repeats_is_how_often_a_verdict_must_repeat(self) -> None:
		serial = self.check(attempts(len(STACK), 2, repeats=2), 2, repeats=2)
		self.assertEqual(serial['steps']['2'], {'attempts': ['fail'] * 2,
							'verdict': bisect.FAIL})
		self.assertEqual(serial['steps']['1']['verdict'], bisect.PASS)

	def test_collect_names_a_broken_end(self) -> None:
		serial = self.check(attempts(len(STACK), 10), None)
		self.assertIn('step 9', serial['problem'])

	def test_a_job_keeps_its_attempt_alone(self) -> None:
		"""What a job uploads (its whole --out) is its own attempt, with
		the wall time the collect step adds up."""
		argv = bisect_argv(3, 2)
		with fake_run(attempts(3, 2), []):
			with contextlib.redirect_stdout(io.StringIO()):
				rc = cli.main(['bisect', *argv, '--out', str(self.tmp / 'job'),
					       '--step', '2', '--attempt', '2'])
		self.assertEqual(rc, 0)
		self.assertEqual(sorted(str(p.relative_to(self.tmp / 'job'))
					for p in (self.tmp / 'job').rglob('*') if p.is_file()),
				 ['step-02/try-2/results.json', f'step-02/try-2/{bisect.WALL}'])
		with contextlib.redirect_stderr(io.StringIO()) as err:
			self.assertEqual(cli.main(['bisect', *argv, '--out', str(self.tmp),
						   '--step', '4']), 2)
		self.assertIn('a step is 0..3', err.getvalue())

	def test_the_stack_must_be_in_the_repository(self) -> None:
		"""A CI job has the repository alone."""
		shutil.copy(STACK[0], self.tmp / STACK[0].name)
		with contextlib.redirect_stderr(io.StringIO()) as err:
			self.assertEqual(cli.main(['bisect', '--emit', 'gitlab', *CASE,
						   '--patch', str(self.tmp / STACK[0].name)]), 2)
		self.assertIn('not in the repository', err.getvalue())


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


class BisectWorkflowTest(unittest.TestCase):
	"""bisect --emit: one job per attempt of every step, ends first."""

	def setUp(self) -> None:
		if yaml is None:
			self.skipTest('needs PyYAML (python3-yaml: make deps-tests)')

	def test_github(self) -> None:
		argv = bisect_argv(2, 2)
		doc = yaml.safe_load(emitted('github', '--run-args', '--variant debug', *argv, cmd='bisect'))
		GithubWorkflowTest().check_workflow(doc)
		step = doc['jobs']['step']
		self.assertEqual([(r['step'], r['attempt']) for r in step['strategy']['matrix']['include']],
				 [('2', '1'), ('2', '2'), ('0', '1'), ('0', '2'), ('1', '1'), ('1', '2')])
		stack = ' '.join(f'--patch {p.relative_to(REPO)}' for p in STACK[:2])
		base = ('PYTHONPATH=tools/testing python3 -m kconform bisect --kind kunit --case '
			f"'hwmon_max31760.hwmon_max31760_test_fan_input*' {stack} --repeats 2 "
			f"'--run-args=--variant debug' --out {BISECT_OUT}")
		runs = [s['run'] for s in step['steps'] if 'run' in s]
		self.assertIn('make deps', runs)
		self.assertIn(f'{base} --step "$STEP" --attempt "$ATTEMPT"', runs)
		self.assertEqual(step['steps'][-1]['with']['path'], f'{BISECT_OUT}/')
		collect = doc['jobs']['collect']
		self.assertEqual(collect['needs'], ['step'])
		self.assertIn({'path': BISECT_OUT, 'pattern': 'step-*', 'merge-multiple': True},
			      [s.get('with') for s in collect['steps']])
		self.assertIn(f'{base} --no-run', [s.get('run') for s in collect['steps']])

	def test_gitlab(self) -> None:
		doc = yaml.safe_load(emitted('gitlab', *bisect_argv(1, 3), cmd='bisect'))
		jobs = [f'kconform step {k} attempt {i}' for k in (1, 0) for i in (1, 2, 3)]
		self.assertEqual([k for k in doc if k.startswith('kconform')],
				 [*jobs, 'kconform bisect'])
		self.assertEqual(doc['stages'], ['step', 'collect'])
		self.assertEqual(doc['kconform bisect']['needs'],
				 [{'job': j, 'artifacts': True} for j in jobs])
		self.assertEqual(doc['kconform step 0 attempt 3']['artifacts']['paths'],
				 [f'{BISECT_OUT}/step-00/try-3/'])


if __name__ == '__main__':
	unittest.main()
