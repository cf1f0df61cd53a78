# SPDX-License-Identifier: GPL-2.0
"""kconform changes: hunks between two releases, their stable commit by
title, whether a case runs them, the verdicts that differ.

Recorded data (test_data/changes/): lines 1155-1450 of 6.1.170-3's
net/netlink/genetlink.c and the same part of 6.1.192-3's (old/, new/:
a tiny pair of trees), and an excerpt of 6.1.192-3's changelog.Debian.gz
(changelog.txt).
"""

import gzip
import json
import re
import shutil
import tempfile
import unittest
from pathlib import Path
from typing import Any, Dict, List

from kconform import changes, coverage, matrix
from kconform.model import KconformError

DATA = Path(__file__).parent / 'test_data' / 'changes'
GENL = 'net/netlink/genetlink.c'
PIN = 'genetlink: pin family module during policy dump (CVE-2026-97901)'


class ChangelogTest(unittest.TestCase):

	def test_titles_above_the_old_release(self) -> None:
		got = changes.parse_changelog((DATA / 'changelog.txt').read_text(), '6.1.170-3')
		self.assertEqual([t.text for t in got], [
			'nfsd: preflight SEQUENCE replies before accepting a slot (CVE-2026-99362)',
			'New upstream stable update:',
			'io-wq: order the exit bit against worker creation task work',
			'Bluetooth: btqcomsmd: destroy RPMsg endpoints before freeing hci_dev '
			'(CVE-2026-97908)',
			PIN,
			'xen-netback: Fix UAF when reading statistics data (CVE-2026-100080)',
			'inet: reject unhashed sockets during established lookups (CVE-2026-99288)',
			'New upstream stable update:',
			'genetlink: Use internal flags for multicast groups',
			'New upstream stable update:',
			'ptrace: slightly saner \'get_dumpable()\' logic'])
		pin = next(t for t in got if t.text == PIN)
		self.assertEqual((pin.debian, pin.stable), ('6.1.192-1', '6.1.191'))
		# Debian's own change, after the stable lists of its entry
		inet = next(t for t in got if t.text.startswith('inet:'))
		self.assertEqual((inet.debian, inet.stable), ('6.1.192-1', ''))

	def test_old_release_not_listed_stops_at_its_series(self) -> None:
		got = changes.parse_changelog((DATA / 'changelog.txt').read_text(), '6.1.171-1')
		self.assertEqual(got[-1].debian, '6.1.172-1')
		self.assertEqual(len(changes.parse_changelog(
			(DATA / 'changelog.txt').read_text(), None)), 13)


class MatchTest(unittest.TestCase):

	def hunks(self) -> Dict[str, coverage.Hunk]:
		text = changes.diff_file(DATA / 'old', DATA / 'new', GENL)
		return {f'{changes.hunk_function(h)}:{h.old_start}': h
			for h in coverage.parse_diff(text)[GENL]}

	def test_hunks_and_their_functions(self) -> None:
		self.assertEqual(sorted(self.hunks()), [
			'ctrl_dump_policy_ctx:5', 'ctrl_dumppolicy_done:218',
			'ctrl_dumppolicy_start:48', 'ctrl_dumppolicy_start:56',
			'ctrl_dumppolicy_start:78', 'genl_bind:277'])
		self.assertEqual(changes.function_of('BPF_CALL_2(bpf_foo, int, a)'), 'bpf_foo')
		self.assertEqual(changes.function_of(
			'static const struct nla_policy ctrl_policy[CTRL_ATTR_MAX + 1] = {'),
			'ctrl_policy')

	def test_title_matches_by_file_and_function(self) -> None:
		titles = changes.parse_changelog((DATA / 'changelog.txt').read_text(), '6.1.170-3')
		h = self.hunks()['ctrl_dumppolicy_start:48']
		code = '\n'.join(x for t, x in h.lines + h.old if t != ' ')
		self.assertEqual([t.text for t in changes.match(
			titles, GENL, 'ctrl_dumppolicy_start', code)], [PIN])
		# the same words in another subsystem's title do not match
		self.assertEqual(changes.score('nfsd: pin family module during policy dump',
					       GENL, 'ctrl_dumppolicy_start', code), 0)
		# genl_bind's flags: the title of the commit names no identifier of it
		h = self.hunks()['genl_bind:277']
		code = '\n'.join(x for t, x in h.lines + h.old if t != ' ')
		self.assertEqual(changes.match(titles, GENL, 'genl_bind', code), [])


class Trees(unittest.TestCase):
	"""A repository of one feature (netlink_intro, genetlink.c) and the
	two recorded trees."""

	def setUp(self) -> None:
		self.tmp = Path(tempfile.mkdtemp())
		self.addCleanup(shutil.rmtree, self.tmp)
		repo = self.tmp / 'repo'
		(repo / 'patches').mkdir(parents=True)
		(repo / 'patches' / 'series').write_text('')
		(repo / 'suites.toml').write_text('[netlink_intro]\n')
		(repo / 'kselftests' / 'netlink_intro').mkdir(parents=True)
		(repo / 'coverage.toml').write_text(
			'[008]\nsuite = "netlink_intro"\n'
			'functions = {"net/netlink/genetlink.c" = ["ctrl_dumppolicy_start"]}\n')
		self.repo = repo
		log = self.tmp / 'cl.gz'
		with gzip.open(log, 'wt') as f:
			f.write((DATA / 'changelog.txt').read_text())
		self.old = changes.Release('6.1.170-3', 'linux-source-6.1=6.1.170-3',
					   DATA / 'old', None, None, '6.1.170-3')
		self.new = changes.Release('6.1.192-3', 'linux-source-6.1=6.1.192-3',
					   DATA / 'new', None, log, '6.1.192-3')
		self.results = self.tmp / 'matrix'

	def run_of(self, release: str, status: str) -> None:
		d = self.results / matrix.folder_name(release)
		d.mkdir(parents=True)
		(d / 'results.json').write_text(json.dumps({'suites': [
			{'kind': 'kselftest', 'name': 'netlink_intro', 'status': 'pass',
			 'cases': [{'name': 'policy_dump_pins_family', 'status': status},
				   {'name': 'ack', 'status': 'pass'}]}]}))

	def coverage_of_new(self, run: str, unrun: str, name: str = 'coverage') -> None:
		"""The new tree's line data: a line containing `run` executed,
		lines containing `unrun` not; name: the run's coverage.info, or
		gcov/<name>.info."""
		lines = (DATA / 'new' / GENL).read_text().splitlines()
		da = [f'DA:{i + 1},{5 if run and run in l else 0}' for i, l in enumerate(lines)
		      if (run and run in l) or unrun in l]
		d = self.results / matrix.folder_name('6.1.192-3')
		f = d / f'{name}.info' if name == 'coverage' else d / 'gcov' / f'{name}.info'
		f.parent.mkdir(parents=True, exist_ok=True)
		f.write_text(f'SF:/c/work/x/linux/{GENL}\n' + '\n'.join(da) + '\nend_of_record\n')

	def hunk(self, doc: Dict[str, Any], func: str) -> Dict[str, Any]:
		return next(h for f in doc['features'] for h in f['hunks']
			    if h['function'] == func)


class CompareTest(Trees):

	def test_without_runs(self) -> None:
		doc = changes.compare(self.repo, self.old, self.new, self.results)
		self.assertEqual(changes.counts(doc), {'hunks': 6, 'matched': 5,
						       changes.NOT_RUN: 6,
						       changes.UNCLASSIFIED: 6})
		self.assertFalse(doc['verdicts_compared'])
		h = self.hunk(doc, 'ctrl_dumppolicy_done')
		self.assertEqual(h['commit'][0]['stable'], '6.1.191')
		self.assertEqual(h['in_functions'], [])
		h = next(h for f in doc['features'] for h in f['hunks'] if h['old_start'] == 56)
		self.assertEqual((h['commit'][0]['title'], h['in_functions']),
				 (PIN, ['ctrl_dumppolicy_start']))
		# a hunk without a title of its own takes its function's
		hunks: List[Dict[str, Any]] = [
			{'file': 'x.c', 'function': 'f', 'commit': [{'title': 't'}]},
			 {'file': 'x.c', 'function': 'f', 'commit': []},
			 {'file': 'x.c', 'function': 'g', 'commit': []}]
		changes._by_function(hunks, 'x.c')
		self.assertEqual([h['commit'] for h in hunks[1:]], [
			[{'title': 't', 'by': 'another hunk of the function'}], []])
		self.assertEqual(self.hunk(doc, 'genl_bind')['commit'], [])
		text = '\n'.join(changes.text(doc))
		self.assertIn('commit: no match found', text)
		self.assertIn('verdicts: not compared', text)

	def test_run_untested_and_verdicts(self) -> None:
		self.run_of('6.1.170-3', 'fail')
		self.run_of('6.1.192-3', 'pass')
		self.coverage_of_new('try_module_get(ctx->owner)', 'module_put(ctx->owner)')
		doc = changes.compare(self.repo, self.old, self.new, self.results)
		by = {(h['function'], h['old_start']): h for f in doc['features']
		      for h in f['hunks']}
		# the pin is run; its release in ctrl_dumppolicy_done is not
		self.assertEqual(by['ctrl_dumppolicy_start', 48]['status'], 'run')
		self.assertEqual(by['ctrl_dumppolicy_start', 48]['coverage']['new'],
				 {'lines': 1, 'executed': 1, 'ran_by': None,
				  'mapped_onto': 'pristine', 'gone': 0})
		# coverage.info alone (a run from before the per-suite data)
		self.assertFalse(doc['new']['suites_recorded'])
		self.assertIn('      run: new 1 of 1 code lines run (suites not recorded); ',
			      '\n'.join(changes.text(doc)))
		self.assertEqual(by['ctrl_dumppolicy_done', 218]['status'], changes.UNTESTED)
		# a struct member is no code; the old side has no coverage run
		self.assertEqual(by['ctrl_dump_policy_ctx', 5]['status'], 'no code')
		self.assertEqual(by['ctrl_dumppolicy_start', 56]['coverage']['old'],
				 {'coverage': changes.NOT_RUN})
		self.assertEqual(doc['features'][0]['verdicts'], [
			{'case': 'kselftest:netlink_intro:policy_dump_pins_family',
			 'old': 'fail', 'new': 'pass'}])
		lines = changes.brief(doc)
		self.assertIn('kselftest:netlink_intro:policy_dump_pins_family fail -> pass',
			      ' '.join(lines))
		self.assertIn(f'{changes.UNTESTED}: {GENL}:231 ctrl_dumppolicy_done: "{PIN}"',
			      '\n'.join(lines))
		section = matrix.changes_section([['a -> b', *lines]])
		self.assertEqual(section[:2], [section[0], '   a -> b'])
		self.assertTrue(all(l.startswith('      ') for l in section[2:]))

	def test_the_suites_that_ran_a_hunk(self) -> None:
		"""Per suite line data (gcov/kselftest-<target>.info,
		gcov/kunit.info): the suites whose data ran the hunk's lines."""
		pin, put = 'try_module_get(ctx->owner)', 'module_put(ctx->owner)'
		self.coverage_of_new(pin, put)
		self.coverage_of_new(pin, put, 'kselftest-netlink_intro')
		self.coverage_of_new('', pin, 'kselftest-tcp_ehash')
		self.coverage_of_new(pin, put, 'kunit')
		doc = changes.compare(self.repo, self.old, self.new, self.results)
		self.assertTrue(doc['new']['suites_recorded'])
		by = {(h['function'], h['old_start']): h for f in doc['features']
		      for h in f['hunks']}
		self.assertEqual(by['ctrl_dumppolicy_start', 48]['coverage']['new']['ran_by'],
				 ['netlink_intro', 'kunit'])
		# code no suite ran
		self.assertEqual(by['ctrl_dumppolicy_done', 218]['coverage']['new']['ran_by'], [])
		text = '\n'.join(changes.text(doc))
		self.assertIn('      run: new 1 of 1 code lines run (by: netlink_intro, kunit); ',
			      text)
		self.assertIn(f'      {changes.UNTESTED}: new 0 of 1 code lines run; ', text)

	def test_series_files_but_maintainers(self) -> None:
		(self.repo / 'patches' / 'series').write_text('0001-x.patch\n')
		(self.repo / 'patches' / '0001-x.patch').write_text(
			'--- a/MAINTAINERS\n+++ b/MAINTAINERS\n@@ -1 +1,2 @@\n a\n+b\n'
			'--- a/lib/x.h\n+++ b/lib/x.h\n@@ -1 +1,2 @@\n a\n+b\n')
		got = {f.name: f.files for f in changes.features(self.repo)}
		self.assertEqual(got, {'netlink_intro': [GENL], changes.SERIES: ['lib/x.h']})

	def test_written(self) -> None:
		doc = changes.compare(self.repo, self.old, self.new, self.results)
		changes.write(doc, self.tmp / 'out')
		back = json.loads((self.tmp / 'out' / 'changes.json').read_text())
		self.assertEqual(len(back['features'][0]['hunks']), 6)
		self.assertTrue((self.tmp / 'out' / 'changes.txt').read_text().startswith(
			'== changes: linux-source-6.1=6.1.170-3 (6.1.170-3) -> '))


# the hunks of test_data/changes by changes.toml's key
PIN_START = f'{GENL}:ctrl_dumppolicy_start:5addf2f7b7'
PIN_ERRORS = f'{GENL}:ctrl_dumppolicy_start:125fb26532'
PIN_DONE = f'{GENL}:ctrl_dumppolicy_done:96edddae55'
BIND = f'{GENL}:genl_bind:2f04c491fb'
GUARD = 'kselftest:netlink_intro:genl_family_test/fam.getpolicy_dump_pins_the_family_module'


class JudgedTest(Trees):
	"""changes.toml: the hand reading of hunks."""

	def setUp(self) -> None:
		super().setUp()
		(self.repo / 'patches' / 'fixes.toml').write_text(
			'[stable."genetlink: pin family module during policy dump"]\n'
			'release = "6.1.192-1"\nupstream = "6.1.191"\neffect = "x"\n'
			f'guards = ["{GUARD}"]\n')
		self.judged(
			'[[change]]\nclass = "test-visible"\n'
			'fix = "genetlink: pin family module during policy dump"\n'
			'reason = "a module reference"\n'
			f'hunks = ["{PIN_START}", "{PIN_ERRORS}", "{PIN_DONE}"]\n'
			'[[change]]\nclass = "not test-visible"\n'
			'title = "genetlink: Use internal flags for multicast groups"\n'
			'reason = "refactor: the same two capability checks"\n'
			# a hunk of another pair of releases is no error
			f'hunks = ["{BIND}", "net/x.c:f:0123456789"]\n')

	def judged(self, text: str) -> None:
		(self.repo / changes.JUDGED).write_text(text)

	def test_class_reason_cases_and_unclassified(self) -> None:
		doc = changes.compare(self.repo, self.old, self.new, self.results)
		n = changes.counts(doc)
		self.assertEqual((n[changes.VISIBLE], n[changes.HIDDEN], n[changes.UNCLASSIFIED]),
				 (3, 1, 2))
		by = {h['key']: h for f in doc['features'] for h in f['hunks']}
		self.assertEqual((by[PIN_DONE]['class'], by[PIN_DONE]['cases']),
				 (changes.VISIBLE, [GUARD]))
		# the hand title replaces the match (none here), with its changelog entry
		self.assertEqual(by[BIND]['commit'], [
			{'title': 'genetlink: Use internal flags for multicast groups',
			 'stable': '6.1.176', 'debian': '6.1.176-1', 'by': changes.JUDGED}])
		text = changes.text(doc)
		self.assertIn('   unclassified: 2 (no entry of changes.toml lists their key)', text)
		self.assertIn(f'      {GENL}:87 ctrl_dumppolicy_start key '
			      f'{GENL}:ctrl_dumppolicy_start:8e905ccd0c', text)
		self.assertIn(f'      {GENL}:5 ctrl_dump_policy_ctx key '
			      f'{GENL}:ctrl_dump_policy_ctx:10d5cf12ea', text)
		self.assertIn('      not test-visible: refactor: the same two capability '
			      'checks', text)
		self.assertIn(f'      test-visible: a module reference; cases: {GUARD} '
			      '(fixes.toml [stable."genetlink: pin family module during '
			      'policy dump"])', text)

	def test_untested_change_explained_and_its_verdict(self) -> None:
		self.run_of('6.1.170-3', 'fail')
		self.run_of('6.1.192-3', 'pass')
		self.judged(
			'[[change]]\nclass = "test-visible"\nreason = "a module reference"\n'
			'cases = ["kselftest:netlink_intro:policy_dump_*"]\n'
			f'hunks = ["{PIN_DONE}"]\n')
		self.coverage_of_new('try_module_get(ctx->owner)', 'module_put(ctx->owner)')
		doc = changes.compare(self.repo, self.old, self.new, self.results)
		lines = changes.brief(doc)
		self.assertIn(f'{changes.UNTESTED}: {GENL}:231 ctrl_dumppolicy_done: "{PIN}" '
			      '(6.1.191, 6.1.192-1): explained: test-visible: a module '
			      'reference; cases: kselftest:netlink_intro:policy_dump_*', lines)
		h = next(h for f in doc['features'] for h in f['hunks'] if h['key'] == PIN_DONE)
		self.assertEqual(h['case_verdicts'], [
			{'case': 'kselftest:netlink_intro:policy_dump_pins_family',
			 'old': 'fail', 'new': 'pass'}])
		self.assertIn('      verdict: kselftest:netlink_intro:policy_dump_pins_family: '
			      'fail -> pass', changes.text(doc))

	def test_bad_entries_are_named(self) -> None:
		head = '[[change]]\nclass = "not test-visible"\nreason = "r"\n' \
			f'hunks = ["{BIND}"]\n'
		for entry, error in [
			('class = "visible"\nreason = "r"\nhunks = ["a.c:f:0123456789"]',
			 "#2: class 'visible': expected"),
			('class = "test-visible"\nreason = "r"\nfix = "no such fix"\n'
			 'hunks = ["a.c:f:0123456789"]',
			 '#2 ("no such fix"): fix: patches/fixes.toml has no [stable."no such fix"]'),
			('class = "test-visible"\nreason = "r"\nhunks = ["a.c:f:0123456789"]',
			 '#2: a change that is test-visible names the cases'),
			('class = "not test-visible"\nreason = "r"\ncases = ["kunit:s:c"]\n'
			 'hunks = ["a.c:f:0123456789"]', '#2: a change that is not test-visible'),
			('class = "test-visible"\nreason = "r"\ncases = ["s:c"]\n'
			 'hunks = ["a.c:f:0123456789"]', "#2: case 's:c': expected"),
			('class = "not test-visible"\nreason = "r"\nhunks = ["a.c:12"]',
			 "#2: hunk 'a.c:12': expected file:function:digest"),
			('class = "not test-visible"\nhunks = ["a.c:f:0123456789"]',
			 '#2: needs a reason and its hunks'),
			('class = "not test-visible"\nreason = "r"\nhunk = ["a.c:f:0123456789"]',
			 'change #2: unknown key hunk'),
			('class = "not test-visible"\ntitle = "t"\nreason = "r"\n'
			 f'hunks = ["{BIND}"]', f'#2 ("t"): hunk {BIND} is also in [[change]] #1')]:
			with self.subTest(error=error):
				self.judged(head + '[[change]]\n' + entry + '\n')
				with self.assertRaisesRegex(KconformError, re.escape(error)):
					changes.compare(self.repo, self.old, self.new, self.results)


class KeyTest(unittest.TestCase):

	def key(self, diff: str) -> str:
		h = coverage.parse_diff('--- a/x.c\n+++ b/x.c\n' + diff)['x.c'][0]
		return changes.hunk_key('x.c', changes.hunk_function(h), h)

	def test_survives_moved_lines_context_and_indentation(self) -> None:
		one = self.key('@@ -10,3 +10,3 @@ int f(void)\n a\n-\treturn x;\n+\treturn y;\n c\n')
		self.assertEqual(one, 'x.c:f:' + changes.digest([('-', 'return x;'),
								('+', 'return y;')]))
		self.assertEqual(one, self.key(
			'@@ -90,3 +92,3 @@ int f(void)\n other\n-  return  x;\n+    return y;\n lines\n'))
		self.assertNotEqual(one, self.key(
			'@@ -10,3 +10,3 @@ int f(void)\n a\n-\treturn x;\n+\treturn z;\n c\n'))
		self.assertNotEqual(one, self.key(
			'@@ -10,3 +10,3 @@ int g(void)\n a\n-\treturn x;\n+\treturn y;\n c\n'))


class DiffSidesTest(unittest.TestCase):

	def test_old_side_and_reverse(self) -> None:
		text = ('--- a/x.c\n+++ b/x.c\n@@ -1,3 +1,3 @@ int f(void)\n a\n-b\n+B\n c\n'
			'--- a/y.c\n+++ b/y.c\n@@ -5 +5 @@\n-y\n+Y\n')
		got = coverage.parse_diff(text)
		self.assertEqual(sorted(got), ['x.c', 'y.c'])
		h = got['x.c'][0]
		self.assertEqual((h.old_start, h.func), (1, 'int f(void)'))
		self.assertEqual(h.old, [(' ', 'a'), ('-', 'b'), (' ', 'c')])
		self.assertEqual(h.reverse().lines, [(' ', 'a'), ('+', 'b'), (' ', 'c')])
		self.assertEqual(got['y.c'][0].old, [('-', 'y')])


if __name__ == '__main__':
	unittest.main()
