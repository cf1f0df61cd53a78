# SPDX-License-Identifier: GPL-2.0
"""The command line on recorded inputs, no kernel: bad arguments, parse,
the baseline in --out, --list and --case, KCIDB (issue 12, items 1, 7,
10, 16, 18, 19)."""

import contextlib
import io
import json
import tempfile
import unittest
from pathlib import Path
from typing import Any, List, Tuple

from unittest import mock

from kconform import cli, deps, inputs, kunitrun, pipeline, suites
from kconform.model import Case, Status, Suite

DATA = Path(__file__).parent / 'test_data'
GATE = DATA / 'gate'
NO_KNOWN = ['--known-issues', str(GATE / 'known_none.toml')]


def main(*argv: str) -> Tuple[int, str, str]:
	out, err = io.StringIO(), io.StringIO()
	with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
		rc = cli.main(list(argv))
	return rc, out.getvalue(), err.getvalue()


class BadInputTest(unittest.TestCase):
	"""Item 7: every input is checked before the first stage; exit 2 and
	one line naming the input."""

	def setUp(self) -> None:
		self.tmp = Path(tempfile.mkdtemp())

	def check(self, args: List[str], words: str) -> None:
		rc, out, err = main('run', '--out', str(self.tmp / 'out'), *args)
		self.assertEqual(rc, 2, out + err)
		self.assertEqual(len(err.strip().splitlines()), 1, err)
		self.assertRegex(err, words)
		self.assertNotIn('kconform: extract', out)	# no stage started

	def test_each_bad_input_is_named(self) -> None:
		afile = self.tmp / 'afile'
		afile.write_text('x')
		for args, words in (
				(['--patch', '/nonexistent'], r'--patch /nonexistent: no such file'),
				(['--patch', str(self.tmp)], r'--patch .*: not a regular file'),
				(['--known-issues', str(GATE / 'known_datetime.toml')],
				 r'until = .* is not a TOML date'),
				(['--known-issues', str(GATE / 'known_single_table.toml')],
				 r'single table'),
				(['--known-issues', str(GATE / 'known_suite_int.toml')],
				 r'suite = 5'),
				(['--known-issues', str(GATE / 'known_latin1.toml')], r'not UTF-8'),
				(['--known-issues', str(self.tmp)], r'not a regular file'),
				(['--known-issues', str(self.tmp / 'nope.toml')], r'no such file'),
				(['--baseline', str(GATE / 'known_scoped.toml')],
				 r'--baseline .*: not a results.json'),
				(['--suite', 'nope'], r'--suite nope: unknown suite'),
				(['--case', 'nope.*'], r"--case nope.\*: .* matches no selected suite"),
				(['--retries', '-1'], r'--retries -1'),
				(['--tree', str(afile)], r'--tree .*: not a folder'),
				(['--source', 'linux-image-6.1=6.1.190-1'],
				 r'--source linux-image-6.1=6.1.190-1: not linux-source-X.Y'),
				(['--source', 'linux-source-6.1=6.1.190-1', '--tree', str(self.tmp)],
				 r'--source and --tree: one tree at a time'),
				(['--image', 'linux-image-amd64='], r'--image .*: expected PACKAGE'),
				(['--image', '/nonexistent/k.deb'], r'--image /nonexistent/k.deb: no such file'),
				(['--image', 'linux-image-amd64', '--patch', str(afile)],
				 r"--image boots a package's kernel as it is; --patch"),
				(['--image', 'linux-image-amd64', '--fixes', 'apply'],
				 r'--fixes apply would change a kernel we build'),
				(['--image', 'linux-image-amd64', '--variant', 'debug'],
				 r'--variant would change')):
			with self.subTest(args):
				self.check(args, words)

	def test_out_under_a_regular_file(self) -> None:
		afile = self.tmp / 'afile'
		afile.write_text('x')
		rc, out, err = main('run', '--out', str(afile / 'results'))
		self.assertEqual(rc, 2)
		self.assertRegex(err, r'--out .*afile/results: .*afile is not a folder')


class ParseTest(unittest.TestCase):
	"""Items 19 and 1: a saved console through the same parser and gate;
	a baseline inside --out is read before this run overwrites it."""

	def setUp(self) -> None:
		self.out = Path(tempfile.mkdtemp()) / 'results'

	def parse(self, log: str, *extra: str) -> Tuple[int, str, str]:
		return main('parse', '--kind', 'kselftest', '--out', str(self.out),
			    *NO_KNOWN, *extra, str(GATE / log))

	def test_passing_log_then_regression_against_itself(self) -> None:
		rc, out, _ = self.parse('kselftest_run1.log')
		self.assertEqual(rc, 0, out)
		self.assertEqual(out.strip().splitlines()[-1], '3 passed, 0 failed, 0 skipped')
		data = json.loads((self.out / 'results.json').read_text())
		self.assertEqual(data['kernel']['source'],
				 f'console log {GATE / "kselftest_run1.log"}')
		baseline = str(self.out / 'results.json')
		rc, out, _ = self.parse('kselftest_run2.log', '--baseline', baseline)
		self.assertEqual(rc, 1)
		self.assertIn('gate: new failure: kselftest:tcp_ehash:'
			      'tcp_ehash_test/global.fallback (pass -> fail)', out)
		self.assertIn('gate: vanished: kselftest:tcp_ehash:'
			      'tcp_ehash_test/global.racy (was pass)', out)
		self.assertTrue((self.out / 'junit.xml').exists())
		self.assertTrue((self.out / 'summary.txt').read_text().endswith(
			'1 passed, 1 failed, 0 skipped\n'))

	def test_a_failure_in_a_lane_fails_as_in_run(self) -> None:
		# A saved two-lane console was never split: 0 suites, exit 0.
		rc, out, _ = main('parse', '--kind', 'kselftest', '--out', str(self.out),
				  *NO_KNOWN, str(DATA / 'lanes-console-fail.log'))
		self.assertEqual(rc, 1, out)
		got = {(s['name'], c['name']): c['status'] for s in json.loads(
			(self.out / 'results.json').read_text())['suites'] for c in s['cases']}
		self.assertEqual(got[('statx_dioalign', 'statx_dioalign_test/'
				      'ext4.regular_file_reports_values')], 'fail')
		self.assertEqual(got[('netlink_intro', 'netlink_intro_test/'
				      'genl.dump_families')], 'pass')

	def test_a_console_before_the_stable_fixes_carries_their_bugs(self) -> None:
		# a saved console names no release: the stable fixes' failing
		# guards are what the tree carries; the TS offset, no fix, fails
		rc, out, _ = main('parse', '--kind', 'kselftest', '--out', str(self.out),
				  *NO_KNOWN, str(DATA / 'stable_reverted.log'))
		self.assertEqual(rc, 1, out)
		summary = (self.out / 'summary.txt').read_text()
		self.assertEqual(summary.count('  carries the bug  ('), 7, summary)
		self.assertIn('not failures: 7 carry a bug the series or a stable '
			      'update fixes', summary)
		data = json.loads((self.out / 'results.json').read_text())
		self.assertEqual(data['gate']['failures'], [
			'kselftest:tcp_ehash:tcp_ehash_test/stable.ts_offset_depends_on_ports'])
		fixes = data['fixes']
		rmem = [f for f in fixes if f['patch'] == 'tcp: do not let tcp_rmem be '
			'set below 4096']
		self.assertEqual([(f['release'], f['applied'], f['verdict']) for f in rmem],
				 [('6.1.190-1', False, 'carries the bug')])

	def test_kernel_report_fails(self) -> None:
		rc, out, _ = self.parse('kselftest_kasan_panic.log')
		self.assertEqual(rc, 1)
		self.assertIn('BUG: KASAN: slab-out-of-bounds', out)

	def test_kunit_log_and_case_selection(self) -> None:
		rc, out, _ = main('parse', '--kind', 'kunit', '--out', str(self.out),
				  *NO_KNOWN, '--case', 'tcp_ehash.*roundup*',
				  str(DATA / 'kunit_pass.log'))
		self.assertEqual(rc, 0, out)
		names = [c['name'] for s in json.loads(
			(self.out / 'results.json').read_text())['suites'] for c in s['cases']]
		self.assertEqual(names, ['tcp_ehash_test_roundup/1 -> 1',
					 'tcp_ehash_test_roundup/3 -> 4',
					 'tcp_ehash_test_roundup/100 -> 128'])


class LaterStageFailureTest(unittest.TestCase):
	"""Item 6: whatever ends a run, the results that exist are written."""

	def test_results_survive_an_exception_in_a_stage(self) -> None:
		out = Path(tempfile.mkdtemp())

		def broken(r: pipeline.Run) -> None:
			r.results.append(Suite('tcp_ehash', 'kunit', [Case('a', Status.PASS)]))
			raise RecursionError('maximum recursion depth exceeded')

		with mock.patch.object(pipeline, 'stages', broken), \
				mock.patch.object(deps, 'ensure', lambda packages: None):
			rc, _, err = main('run', '--out', str(out), *NO_KNOWN)
		self.assertEqual(rc, 1)
		self.assertIn('RecursionError', err)
		data = json.loads((out / 'results.json').read_text())
		self.assertEqual(data['suites'][0]['cases'][0]['name'], 'a')
		self.assertIn('RecursionError: maximum recursion depth exceeded',
			      data['errors'][0])
		self.assertTrue((out / 'junit.xml').exists())
		self.assertIn('error: RecursionError', (out / 'summary.txt').read_text())


class ExtraPatchTest(unittest.TestCase):

	def test_extra_patches_are_recorded(self) -> None:
		# Item 11: an extra --patch was not recorded in results.json.
		out = Path(tempfile.mkdtemp())
		patch = out / 'candidate.patch'
		patch.write_text('--- a/x\n+++ b/x\n')

		def nothing(r: pipeline.Run) -> None:
			pass

		with mock.patch.object(pipeline, 'stages', nothing), \
				mock.patch.object(deps, 'ensure', lambda packages: None):
			main('run', '--out', str(out), *NO_KNOWN, '--patch', str(patch))
		kernel = json.loads((out / 'results.json').read_text())['kernel']
		self.assertEqual(kernel['extra_patches'], [{
			'name': 'candidate.patch',
			'sha256': '922dd52a81ff1c3d456cb861de7ad959496295c809971e848d414d3cdfe3fb23'}])


class KunitBootTest(unittest.TestCase):

	def test_every_selected_suite_is_expected(self) -> None:
		# An unfiltered boot expected no suite at all, so a KUnit suite
		# missing from the console went unreported.
		registry = suites.load(inputs.REPO)
		calls: List[Tuple[str, List[str]]] = []

		def execute(job: Any, expected: List[str], accel: Any,
			    filter_glob: str = '', tag: str = '') -> List[Suite]:
			calls.append((filter_glob, expected))
			return []

		selections: List[List[str]] = [[], ['tcp_ehash', 'thermal_of']]
		with mock.patch.object(kunitrun, 'execute', execute):
			for names in selections:
				sel = suites.selection(registry, names, ['kunit'], [])
				pipeline.kunit_boot(mock.Mock(), sel.specs, sel, [], '')
		every = [n for s in registry for n in s.kunit]
		self.assertEqual(calls, [('', every), ('tcp_ehash', ['tcp_ehash']),
					 ('thermal_of', ['thermal_of'])])


class FailedSuitesTest(unittest.TestCase):

	def test_patch_failure_names_only_real_suites_of_the_kinds_asked(self) -> None:
		# Item 10: suites without a kselftest target became suites named ''.
		registry = suites.load(inputs.REPO)
		both = pipeline.failed(registry, ['kunit', 'kselftest'], 'patch 0001 does not apply')
		self.assertNotIn('', [s.name for s in both])
		self.assertIn(('kselftest', 'statx_dioalign'), [(s.kind, s.name) for s in both])
		only = pipeline.failed(registry, ['kunit'], 'x')
		self.assertEqual({s.kind for s in only}, {'kunit'})


class ListTest(unittest.TestCase):
	"""Item 16: --list without a build; --case as kunit.filter_glob."""

	def test_list_names_cases_as_results_json_does(self) -> None:
		rc, out, _ = main('run', '--list', *NO_KNOWN,
				  '--out', tempfile.mkdtemp())
		self.assertEqual(rc, 0)
		lines = out.splitlines()
		self.assertIn('kselftest:statx_dioalign:statx_dioalign_test/'
			      'bdev.lbs_512.values_are_the_queue_limits', lines)
		self.assertIn('kselftest:statx_dioalign:statx_dioalign_test/'
			      'global.bdev_node_without_disk_has_no_dioalign', lines)
		self.assertIn('kselftest:bpf_user_ringbuf:user_ringbuf_test/'
			      'urb.blocking_forever_partial_space', lines)
		self.assertFalse(any(l.startswith('bench:') for l in lines))
		self.assertTrue(any(l.startswith('kunit:tcp_ehash:') for l in lines))
		self.assertFalse(any('kconform:' in l for l in lines))

	def test_bench_list_names_only_the_benchmarks(self) -> None:
		rc, out, _ = main('run', '--kind', 'bench', '--list', *NO_KNOWN,
				  '--out', tempfile.mkdtemp())
		self.assertEqual(rc, 0)
		self.assertEqual(out.splitlines(), ['bench:tcp_ehash:*',
						    'bench:bpf_user_ringbuf:*'])

	def test_a_variant_without_benchmarks_refuses_kind_bench(self) -> None:
		rc, _, err = main('run', '--kind', 'bench', '--variant', 'debug',
				  '--list', *NO_KNOWN, '--out', tempfile.mkdtemp())
		self.assertEqual(rc, 2)
		self.assertIn('variant debug runs no benchmarks', err)

	def test_list_with_case_glob(self) -> None:
		rc, out, _ = main('run', '--list', *NO_KNOWN, '--out', tempfile.mkdtemp(),
				  '--case', 'statx_dioalign.*bdev.lbs_4096.*')
		self.assertEqual(rc, 0)
		lines = out.splitlines()
		self.assertEqual(len(lines), 5, lines)
		self.assertTrue(all('bdev.lbs_4096.' in l for l in lines))

	def test_selection(self) -> None:
		registry = suites.load(inputs.REPO)
		sel = suites.selection(registry, [], [],
				       ['tcp_ehash.*roundup*', 'statx_dioalign.statx_dioalign_test/fs.*'])
		self.assertEqual(sel.kunit_globs(['tcp_ehash', 'thermal_of'], False),
				 ['tcp_ehash.*roundup*'])
		suite_only = suites.selection(registry, ['tcp_ehash', 'thermal_of'], [], [])
		self.assertEqual(suite_only.kunit_globs(['tcp_ehash', 'thermal_of'], False),
				 ['tcp_ehash', 'thermal_of'])
		self.assertEqual(suite_only.kunit_globs(['tcp_ehash'], True), [''])
		self.assertEqual(sel.kselftest_programs(
			['tcp_ehash:tcp_ehash_test', 'rust_samples:rust_samples_test',
			 'statx_dioalign:statx_dioalign_test']),
			# tcp_ehash is a KUnit suite and a kselftest target: '*roundup*'
			# may match its program's cases too, so the program runs.
			['tcp_ehash:tcp_ehash_test', 'statx_dioalign:statx_dioalign_test'])
		self.assertIsNone(suites.selection(registry, [], [], []).kselftest_programs([]))
		self.assertTrue(sel.wants('kselftest', 'statx_dioalign', '<suite>'))
		self.assertFalse(sel.wants('kselftest', 'statx_dioalign',
					   'statx_dioalign_test/bdev.x'))


if __name__ == '__main__':
	unittest.main()
