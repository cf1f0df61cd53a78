# SPDX-License-Identifier: GPL-2.0
"""Releases from the archive, matrix and bisect (issue 14, parts 2-4),
on recorded data: apt-cache policy, quilt's output, results.json."""

import contextlib
import gzip
import io
import os
import shutil
import subprocess
import tempfile
import unittest
from unittest import mock
from pathlib import Path
from typing import Any, Dict, List, Tuple

from kconform import archive, bisect, changes, inputs, listing, matrix, suites, tree
from kconform.model import InputError, KconformError

DATA = Path(__file__).parent / 'test_data'


class PolicyTest(unittest.TestCase):

	def text(self, pkg: str) -> str:
		return (DATA / f'apt-policy-{pkg}.txt').read_text()

	def test_versions_newest_first(self) -> None:
		t = self.text('linux-source-6.1')
		self.assertEqual(archive.candidate(t), '6.1.192-3')
		self.assertEqual(archive.versions(t), ['6.1.192-3', '6.1.192-2', '6.1.192-1',
					    '6.1.190-1', '6.1.187-1', '6.1.176-1', '6.1.170-3'])

	def test_pick(self) -> None:
		t = self.text('linux-source-6.1')
		self.assertEqual(archive.pick('linux-source-6.1', '6.1.190-1', t), '6.1.190-1')
		self.assertEqual(archive.pick('linux-source-6.1', '6.1.192', t), '6.1.192-3')
		self.assertEqual(archive.pick('linux-source-6.1', None, t), '6.1.192-3')
		with self.assertRaisesRegex(InputError, r'6\.1\.191.*lists 6\.1\.192-3, '):
			archive.pick('linux-source-6.1', '6.1.191', t)

	def test_not_installed_candidate(self) -> None:
		t = self.text('linux-source-6.12')
		self.assertEqual(archive.candidate(t), '6.12.118-1~deb12u1')
		self.assertEqual(archive.versions(t)[-1], '6.12.107-1~deb12u1')
		self.assertEqual(archive.pick('linux-source-6.12', '6.12.115', t),
				 '6.12.115-2~deb12u1')

	def test_nothing_listed(self) -> None:
		with self.assertRaisesRegex(InputError, 'lists no version'):
			archive.pick('linux-source-9.9', None, 'N: Unable to locate package\n')

	def test_folder_per_version(self) -> None:
		self.assertEqual(archive.folder(Path('/c'), 'linux-source-6.12', '6.12.118-1~deb12u1'),
				 Path('/c/packages/linux-source-6.12_6.12.118-1~deb12u1'))


class ReleaseTest(unittest.TestCase):

	def test_parse(self) -> None:
		self.assertEqual(tree.parse_release('linux-source-6.1=6.1.190-1'),
				 ('linux-source-6.1', '6.1.190-1'))
		self.assertEqual(tree.parse_release('linux-source-6.12'),
				 ('linux-source-6.12', None))
		with self.assertRaises(InputError):
			tree.parse_release('linux-image-6.1=6.1.190-1')

	def test_one_work_folder_per_release(self) -> None:
		c = Path('/c')
		self.assertEqual(tree.release_work(c, 'linux-source-6.1', '6.1.170-3'),
				 c / 'work/linux-source-6.1_6.1.170-3')
		self.assertNotEqual(tree.release_work(c, 'linux-source-6.1', '6.1.170-3'),
				    tree.release_work(c, 'linux-source-6.1', '6.1.192-3'))
		self.assertEqual(tree.release_work(c, 'linux-source-6.12', '6.12.118-1~deb12u1'),
				 c / 'work/linux-source-6.12_6.12.118-1_deb12u1')

	def test_least_recently_used_dropped_first(self) -> None:
		g = 2**30
		old, mid, new = (tree.Work(Path(n), t, 10 * g) for n, t in
				 (('a', 100.0), ('b', 200.0), ('c', 300.0)))
		# enough free: nothing goes
		self.assertEqual(tree.to_drop([new, old, mid], 50 * g, 40 * g), [])
		# 25 GiB short of the bound by 15: the two oldest, oldest first
		self.assertEqual(tree.to_drop([new, old, mid], 25 * g, 40 * g), [old, mid])
		# even all of them are not enough: all, oldest first
		self.assertEqual(tree.to_drop([mid, new, old], 0, 40 * g), [old, mid, new])

	def test_claim_work_drops_stamped_siblings_only(self) -> None:
		with tempfile.TemporaryDirectory() as d:
			root = Path(d)
			for name, when in (('r1', 100), ('r2', 200)):
				(root / name).mkdir()
				(root / name / 'stamp').write_text('x')
				os.utime(root / name / 'stamp', (when, when))
			(root / 'pristine').mkdir()		# not a work folder
			with contextlib.redirect_stdout(io.StringIO()) as said:
				self.assertEqual(tree.claim_work(root / 'r3', keep_free=0), [])
				gone = tree.claim_work(root / 'r3', keep_free=2**62)
			self.assertEqual([w.path.name for w in gone], ['r1', 'r2'])
			self.assertEqual(sorted(p.name for p in root.iterdir()),
					 ['pristine', 'r3'])
			self.assertTrue((root / 'r3' / tree.USED).exists())
			self.assertIn('dropping the work folder r1', said.getvalue())

	def test_the_installed_release_is_the_installed_tree(self) -> None:
		"""--source of the installed version: no second copy and cold
		build of the same tree (the matrix names 6.1.192-3 so)."""
		with tempfile.TemporaryDirectory() as d:
			root = Path(d)
			(root / tree.DEBIAN_DIR).mkdir()
			tarball = root / 'linux-source-6.1.tar.xz'
			archive_made = subprocess.run(['tar', '-C', d, '-cJf', str(tarball),
						       tree.DEBIAN_DIR], check=False)
			self.assertEqual(archive_made.returncode, 0)
			changelog = root / 'changelog.Debian.gz'
			with gzip.open(changelog, 'wt') as f:
				f.write('linux-signed-amd64 (6.1.192-3) bookworm-security; urgency=high\n')
			cache = root / 'cache'
			with mock.patch.object(tree, 'DEBIAN_TARBALL', tarball), \
					mock.patch.object(tree, 'DEBIAN_CHANGELOG', changelog), \
					mock.patch.object(archive, 'fetch',
							  side_effect=AssertionError('fetched')):
				self.assertTrue(tree.installed('linux-source-6.1', '6.1.192-3'))
				self.assertFalse(tree.installed('linux-source-6.1', '6.1.190-1'))
				self.assertFalse(tree.installed('linux-source-6.12', '6.1.192-3'))
				src = tree.release_source(cache, 'linux-source-6.1', '6.1.192-3', root)
				self.assertEqual(src.work, cache / 'work' / 'debian')
				self.assertEqual(src.pristine, cache / 'pristine' / tree.DEBIAN_DIR)
				self.assertEqual(src.name, 'linux-source-6.1=6.1.192-3')
				self.assertTrue(src.lenient)
				with self.assertRaises(AssertionError):
					tree.release_source(cache, 'linux-source-6.1', '6.1.190-1', root)
				# and `changes` compares that tree, with the installed changelog
				with mock.patch.object(archive, 'resolve', return_value='6.1.192-3'):
					rel = changes.locate('6.1.192-3', cache, root, fetch=False)
				self.assertEqual(rel.tree, src.pristine)
				self.assertEqual(rel.version, '6.1.192-3')

	def test_why_not(self) -> None:
		lines = (DATA / 'quilt-push-fails.log').read_text().splitlines(True)
		self.assertEqual(tree.why_not(lines),
				 'net/ipv4/tcp_ipv4.c: 1 out of 3 hunks without their context; '
				 'net/ipv4/tcp_kunit_hook.c does not exist')
		self.assertEqual(tree.why_not(['Patch x does not apply\n']),
				 'does not apply (see patch.log)')

	def test_not_applicable(self) -> None:
		spec = suites.SuiteSpec('tcp_ehash', None, ('tcp_ehash',), 'tcp_ehash',
					patches=(('kunit', '0001-*', '*'), ('kunit', '0002-*', '*'),
						 ('kselftest', '0003-*', 'fam_test/*')))
		dropped = {'0001-tcp-x.patch': 'net/ipv4/tcp_ipv4.c: 1 out of 3 hunks',
			   '0101-of.patch': 'y'}
		# the KUnit part needs the hook; the kselftest runs without it
		self.assertEqual(suites.not_applicable(spec, [], dropped), {
			'kunit': 'patch 0001-tcp-x.patch does not apply '
			'(net/ipv4/tcp_ipv4.c: 1 out of 3 hunks)'})
		self.assertEqual(suites.not_applicable(spec, ['a.c does not exist'], {}), {
			'kunit': 'its kernel code is missing: a.c does not exist',
			'kselftest': 'its kernel code is missing: a.c does not exist'})
		self.assertEqual(suites.not_applicable(spec, [], {'0101-of.patch': 'y'}), {})
		self.assertEqual(suites.cases_not_applicable(spec, dropped), [])
		# a patch only some cases need leaves the kind, names the cases
		three = {'0003-fam.patch': 'lib/Kconfig: 1 out of 1 hunk'}
		self.assertEqual(suites.not_applicable(spec, [], three), {})
		self.assertEqual(suites.cases_not_applicable(spec, three), [
			('kselftest', 'fam_test/*', 'patch 0003-fam.patch does not apply '
			 '(lib/Kconfig: 1 out of 1 hunk)')])
		left = suites.without(spec, suites.not_applicable(spec, [], dropped))
		self.assertEqual((left.kunit, left.kunitconfig, left.kselftest),
				 ((), None, 'tcp_ehash'))

	def test_patches_by_kind_only(self) -> None:
		with tempfile.TemporaryDirectory() as d:
			(Path(d) / 'kselftests/x').mkdir(parents=True)
			for bad in ('["0001-*"]', '{bench = ["0001-*"]}', '{kunit = "0001-*"}',
				    '{"bench:x/*" = ["0001-*"]}', '{"kselftest:" = ["0001-*"]}'):
				(Path(d) / 'suites.toml').write_text(f'[x]\npatches = {bad}\n')
				with self.assertRaisesRegex(KconformError, 'patches must be'):
					suites.load(Path(d))

	def test_registry_globs_name_real_patches(self) -> None:
		repo = Path(__file__).resolve().parents[4]
		names = tree.Layout(repo).series()
		for spec in suites.load(repo):
			for kind, glob, cases in spec.patches:
				self.assertTrue(any(__import__('fnmatch').fnmatchcase(n, glob)
						    for n in names), f'{spec.name}: {glob}')
				listed = listing.kselftest_cases(repo / 'kselftests' / spec.name) \
					if kind == 'kselftest' else list(listing.kunit_cases(
						repo / 'kunit').get(spec.name, ['*']))
				self.assertTrue(any(__import__('fnmatch').fnmatchcase(n, cases)
						    for n in listed), f'{spec.name}: {cases}')


QUILT_FAKE = """From: k <k@example.org>
Subject: [PATCH] x

---
--- a/a.c
+++ b/a.c
@@ -1,3 +1,3 @@
 int a;
-int {old};
+int {new};
 int c;
"""


@unittest.skipUnless(shutil.which('quilt') and shutil.which('rsync'), 'needs quilt, rsync')
class LenientDeriveTest(unittest.TestCase):
	"""A release tree takes the patches that apply and names the others."""

	def setup(self, *patches: Tuple[str, str, str]) -> Tuple[Path, Path, Path]:
		"""(tmp, repo, pristine): a series of (name, old, new) patches of
		a.c, which is 'int a; int b; int c;' in the pristine tree."""
		tmp = Path(tempfile.mkdtemp())
		self.addCleanup(shutil.rmtree, tmp)
		repo = tmp / 'repo'
		(repo / 'patches').mkdir(parents=True)
		for name, old, new in patches:
			(repo / 'patches' / name).write_text(QUILT_FAKE.format(old=old, new=new))
		(repo / 'patches/series').write_text(''.join(f'{p[0]}\n' for p in patches))
		pristine = tmp / 'pristine'
		pristine.mkdir()
		(pristine / 'a.c').write_text('int a;\nint b;\nint c;\n')
		return tmp, repo, pristine

	def test_drops_and_remembers(self) -> None:
		tmp, repo, pristine = self.setup(('01-ok.patch', 'b', 'hello'),
						 ('02-bad.patch', 'zzz', 'q'),
						 ('03-ok.patch', 'hello', 'world'))
		layout = tree.Layout(repo)
		src = tree.Source('linux-source-6.1=6.1.190-1', pristine, tmp / 'work',
				  ident='x', lenient=True)
		tree.derive(layout, src, tmp)
		self.assertEqual(list(src.dropped), ['02-bad.patch'])
		self.assertIn('a.c: 1 out of 1 hunk without their context', src.dropped['02-bad.patch'])
		self.assertEqual((src.tree / 'a.c').read_text(), 'int a;\nint world;\nint c;\n')
		again = tree.Source(src.name, pristine, tmp / 'work', ident='x', lenient=True)
		_, changed = tree.derive(layout, again, tmp)
		self.assertFalse(changed)
		self.assertEqual(again.dropped, src.dropped)

	def test_last_patch_dropped(self) -> None:
		tmp, repo, pristine = self.setup(('01-ok.patch', 'b', 'hello'),
						 ('02-bad.patch', 'zzz', 'q'))
		src = tree.Source('r', pristine, tmp / 'work', ident='x', lenient=True)
		tree.derive(tree.Layout(repo), src, tmp)
		self.assertEqual(list(src.dropped), ['02-bad.patch'])
		self.assertEqual((src.tree / 'a.c').read_text(), 'int a;\nint hello;\nint c;\n')


def _results(cases: Dict[str, str], na: List[str] = []) -> Dict[str, Any]:
	suites_: Dict[str, Dict[str, Any]] = {}
	for key, st in cases.items():
		kind, suite, case = key.split(':', 2)
		suites_.setdefault(suite, {'kind': kind, 'name': suite, 'status': 'pass',
					   'message': '', 'cases': []})['cases'].append(
			{'name': case, 'status': st})
	out = list(suites_.values())
	for key in na:
		kind, suite = key.split(':')
		out.append({'kind': kind, 'name': suite, 'status': 'skip',
			    'message': 'not applicable: patch 0001 does not apply (x)',
			    'cases': [{'name': '<suite>', 'status': 'skip'}]})
	return {'suites': out, 'kernel': {'version': '6.1.x'}, 'totals': {},
		'not_applicable': [{'kind': k.split(':')[0], 'suite': k.split(':')[1],
				    'reason': 'patch 0001 does not apply (x)'} for k in na],
		'fixes': []}


class MatrixTest(unittest.TestCase):

	def test_run_args(self) -> None:
		self.assertEqual(matrix.run_args('6.1.190-1'),
				 ['--source', 'linux-source-6.1=6.1.190-1'])
		self.assertEqual(matrix.run_args('6.12.118-1~deb12u1'),
				 ['--source', 'linux-source-6.12=6.12.118-1~deb12u1'])
		self.assertEqual(matrix.run_args('linux-source-6.1=6.1.187-1'),
				 ['--source', 'linux-source-6.1=6.1.187-1'])
		self.assertEqual(matrix.run_args('linux-image-6.1.0-40-amd64=6.1.190-1'),
				 ['--image', 'linux-image-6.1.0-40-amd64=6.1.190-1'])
		self.assertEqual(matrix.run_args('default'), [])
		with self.assertRaises(ValueError):
			matrix.run_args('yesterday')

	def test_differences(self) -> None:
		a = _results({'kunit:t:x': 'pass', 'kunit:t:y': 'fail', 'kunit:u:z': 'pass'})
		b = _results({'kunit:t:x': 'pass', 'kunit:t:y': 'pass', 'kunit:u:z': 'pass'})
		c = _results({'kunit:t:x': 'pass', 'kunit:t:y': 'pass'}, na=['kunit:u'])
		lines, doc = matrix.summary(['A', 'B', 'C'], {'A': a, 'B': b, 'C': c}, {'A': 60.0})
		self.assertEqual(doc['differences'], [
			{'case': 'kunit:t:y', 'verdicts': {'A': 'fail', 'B': 'pass', 'C': 'pass'}},
			{'case': 'kunit:u:z', 'verdicts': {'A': 'pass', 'B': 'pass', 'C': 'n/a'}}])
		self.assertIn('      not applicable: kunit u: patch 0001 does not apply (x)', lines)
		self.assertEqual(doc['runs']['A']['wall_s'], 60.0)

	def test_not_applicable_cases_fold_per_suite_kind(self) -> None:
		rows = [('kunit:h:a', ['fail', 'fail', 'n/a']),
			('kunit:h:b', ['pass', 'pass', 'n/a']),
			('kunit:h:c', ['fail', 'pass', 'n/a']),
			('kunit:h:d', ['n/a', 'pass', 'pass']),
			('kselftest:k:x', ['pass', 'fail', 'skip'])]
		self.assertEqual(matrix.folded(rows), [
			('kunit:h:* (2 cases)', ['same', 'same', 'n/a']),
			('kunit:h:c', ['fail', 'pass', 'n/a']),
			('kunit:h:* (1 case)', ['n/a', 'same', 'same']),
			('kselftest:k:x', ['pass', 'fail', 'skip'])])
		a = _results({'kunit:t:x': 'pass', 'kunit:u:y': 'pass', 'kunit:u:z': 'fail'})
		b = _results({'kunit:t:x': 'fail'}, na=['kunit:u'])
		lines, doc = matrix.summary(['A', 'B'], {'A': a, 'B': b}, {})
		self.assertEqual(len(doc['differences']), 3)
		self.assertIn('   kunit:u:* (2 cases)  same     n/a    ', lines)

	def test_only_kinds_every_release_ran(self) -> None:
		a = _results({'kunit:t:x': 'pass', 'kselftest:k:p/f.t': 'fail'})
		b = _results({'kunit:t:x': 'fail'})
		_, doc = matrix.summary(['A', 'B'], {'A': a, 'B': b}, {})
		self.assertEqual([d['case'] for d in doc['differences']], ['kunit:t:x'])

	def test_fix_rows(self) -> None:
		a = _results({})
		a['fixes'] = [{'patch': '0103-x.patch', 'verdict': 'carries the bug'},
			      {'patch': '0403-y.patch', 'verdict': 'fixed'},
			      {'patch': '0403-y.patch', 'verdict': 'carries the bug',
			       'component': "Debian's libbpf"}]
		b = _results({})
		b['fixes'] = [{'patch': '0103-x.patch', 'verdict': 'fixed'}]
		self.assertEqual(matrix.fix_rows(['A', 'B'], {'A': a, 'B': b}), [
			('0103', ['carries the bug', 'fixed']), ('0403', ['fixed', '-']),
			("0403 (Debian's libbpf)", ['carries the bug', '-'])])

	def test_columns_fit_their_verdicts(self) -> None:
		head, row = matrix.table(['6.1.192-3', 'B'], [('0103', ['carries the bug', 'fixed'])])
		self.assertEqual(head.index('B'), row.index('fixed'))

	def test_same_everywhere(self) -> None:
		a = _results({'kunit:t:x': 'pass'})
		lines, doc = matrix.summary(['A', 'B'], {'A': a, 'B': a}, {})
		self.assertEqual(doc['differences'], [])
		self.assertIn('   every case has the same verdict in every release', lines)


class BisectTest(unittest.TestCase):

	def fake(self, first_bad: int, flaky: Dict[int, List[str]] = {}) -> Any:
		calls: List[int] = []

		def test(k: int) -> List[str]:
			calls.append(k)
			if k in flaky:
				return flaky[k]
			return bisect.repeat(lambda i: bisect.FAIL if k >= first_bad else bisect.PASS)
		return test, calls

	def test_finds_each_position(self) -> None:
		for bad in range(1, 10):
			test, calls = self.fake(bad)
			got = bisect.search(9, test)
			self.assertEqual(got.first_bad, bad, got.problem)
			self.assertEqual(got.verdict(bad), bisect.FAIL)
			self.assertEqual(got.steps[bad], ['fail'] * 3)
			self.assertEqual(got.steps[bad - 1], ['pass'] * 3)
			self.assertLessEqual(len(calls), 2 + 4)

	def test_repeat_stops_at_disagreement(self) -> None:
		seq = iter(['fail', 'pass', 'fail'])
		self.assertEqual(bisect.repeat(lambda i: next(seq)), ['fail', 'pass'])
		self.assertEqual(bisect.step_verdict(['fail', 'pass']), bisect.FLAKY)
		self.assertEqual(bisect.step_verdict(['pass'] * 3), bisect.PASS)
		self.assertEqual(bisect.step_verdict(['pass', 'untestable']), bisect.UNTESTABLE)

	def test_flaky_step_is_skipped_and_named(self) -> None:
		test, _ = self.fake(6, flaky={5: ['pass', 'fail']})
		got = bisect.search(9, test)
		self.assertIsNone(got.first_bad)
		self.assertEqual(got.candidates, [5, 6])
		lines = bisect.lines([f'p{i}' for i in range(1, 10)], got, 1.0)
		self.assertIn('flaky steps: 5', lines)
		test, _ = self.fake(6, flaky={3: ['pass', 'fail']})
		self.assertEqual(bisect.search(9, test).first_bad, 6)

	def test_ends_are_checked(self) -> None:
		test, calls = self.fake(10)		# never fails
		got = bisect.search(9, test)
		self.assertIsNone(got.first_bad)
		self.assertIn('step 9', got.problem)
		self.assertEqual(calls, [9])

	def test_attempt_verdict(self) -> None:
		res = _results({'kunit:h:fan/a': 'pass', 'kunit:h:fan/b': 'fail', 'kunit:h:t': 'fail'})
		want = lambda k, s, c: c.startswith('fan')	# noqa: E731
		self.assertEqual(bisect.attempt_verdict(res, want), bisect.FAIL)
		res = _results({'kunit:h:fan/a': 'pass', 'kunit:h:t': 'fail'})
		self.assertEqual(bisect.attempt_verdict(res, want), bisect.PASS)
		self.assertEqual(bisect.attempt_verdict({'suites': []}, want), bisect.UNTESTABLE)


if __name__ == '__main__':
	unittest.main()


class SourceFixesTest(unittest.TestCase):
	"""A release of the tree is tested as it is: fixes omitted by default."""

	def test_release_omits_fixes(self) -> None:
		from kconform import cli
		args = cli.parser().parse_args(['run', '--source', 'linux-source-6.1=6.1.190-1'])
		self.assertEqual(inputs.fixes_mode(args), 'omit')
		args = cli.parser().parse_args(['run', '--source', 'linux-source-6.1', '--fixes', 'apply'])
		self.assertEqual(inputs.fixes_mode(args), 'apply')
		self.assertEqual(inputs.fixes_mode(cli.parser().parse_args(['run'])), 'apply')

	def test_matrix_keeps_each_release_wall_time_with_its_results(self) -> None:
		import json
		from kconform import cli
		out = Path(tempfile.mkdtemp())
		self.addCleanup(shutil.rmtree, out)
		for r in ('6.1.190-1', '6.1.187-1'):
			(out / r).mkdir()
			(out / r / 'results.json').write_text(json.dumps(
				_results({'kunit:t:x': 'pass'})))
		(out / '6.1.190-1' / 'matrix-wall.json').write_text('{"wall_s": 2417.0}\n')
		self.assertEqual(cli.main(['matrix', '6.1.190-1', '6.1.187-1', '--no-run',
					   '--out', str(out)]), 0)
		doc = json.loads((out / 'matrix.json').read_text())
		self.assertEqual(doc['runs']['6.1.190-1']['wall_s'], 2417.0)
		self.assertIsNone(doc['runs']['6.1.187-1']['wall_s'])
		txt = (out / 'matrix.txt').read_text()
		self.assertIn('build 0 s, wall 2417 s', txt)
		self.assertIn('build 0 s, wall not recorded', txt)

	def test_matrix_and_bisect_need_their_inputs(self) -> None:
		from kconform import cli
		self.assertEqual(cli.main(['matrix', 'yesterday', '--no-run', '--out',
					   tempfile.mkdtemp()]), 2)
		self.assertEqual(cli.main(['bisect', '--case', 'hwmon_max31760.*']), 2)


class StrictSuitesTomlTest(unittest.TestCase):

	def test_an_unknown_key_names_file_table_and_key(self) -> None:
		# `cmdlin = ...` loaded as a suite with no command line.
		repo = Path(tempfile.mkdtemp())
		(repo / 'kunitconfig').mkdir()
		(repo / 'kunitconfig' / 'a.config').write_text('CONFIG_KUNIT=y\n')
		(repo / 'suites.toml').write_text('[a]\ncmdlin = "x=1"\n')
		with self.assertRaises(KconformError) as got:
			suites.load(repo)
		self.assertIn(f'{repo / "suites.toml"}: [a]: unknown key cmdlin', str(got.exception))
		(repo / 'suites.toml').write_text('[a]\ncmdline = "x=1"\n')
		self.assertEqual(suites.load(repo)[0].cmdline, 'x=1')
