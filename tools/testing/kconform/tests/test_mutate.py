# SPDX-License-Identifier: GPL-2.0
"""kconform mutate: the operators on recorded C (test_data/mutate/demo.c),
the function scan, sampling, mutants-equivalent.toml, and the batching
with a fake runner (no kernel)."""

import argparse
import contextlib
import io
import json
import shutil
import tempfile
import unittest
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set, Tuple

from kconform import coverage, guest, mutate, report, suites, tree
from kconform.model import Case, InputError, KconformError, Status, Suite

DATA = Path(__file__).parent / 'test_data' / 'mutate'
REPO = Path(__file__).resolve().parents[4]
DEMO = (DATA / 'demo.c').read_text().splitlines()


def demo_mutants() -> List[mutate.Mutant]:
	return mutate.mutants_of('demo', 'demo.c', DEMO, mutate.functions(DEMO))


def changed(line: int) -> List[Tuple[str, str]]:
	"""(id, new line) of every mutant of one line of demo.c."""
	return [(m.id, m.after) for m in demo_mutants() if m.line == line]


class ScanTest(unittest.TestCase):

	def test_functions_skip_initializers_and_name_bpf_helpers(self) -> None:
		self.assertEqual(mutate.functions(DEMO), [
			mutate.Function('demo_check', 10, 11, 25),
			mutate.Function('demo_helper', 27, 28, 33),
			mutate.Function('DEMO_OF', 35, 36, 38)])

	def test_types_of_parameters_and_declarations(self) -> None:
		self.assertEqual(mutate.types(DEMO, mutate.functions(DEMO)[0]),
				 {'d': 'struct demo*', 'lo': 'u32', 'hi': 'u32',
				  'span': 'u32', 'p': 'char*'})

	def test_comments_strings_and_preprocessor_lines_are_masked(self) -> None:
		code = mutate.mask(DEMO)
		self.assertEqual(code[3].strip(), '')		# #define
		self.assertEqual(code[14], '\tif (!d || lo > hi)\t' +
				 ' ' * len('/* "lo > hi" in a comment stays */'))
		self.assertEqual(code[21], '\tpr_info("' + ' ' * len(r'if (x == 1) %d\n') + '", span);')
		self.assertEqual([len(c) for c in code], [len(l) for l in DEMO])


class OperatorTest(unittest.TestCase):
	"""Each operator on demo.c: the exact lines it makes."""

	def test_relational_not_condition_and_logic(self) -> None:
		self.assertEqual(changed(15), [
			('demo.c:15:rel:0', '\tif (!d || lo >= hi)\t/* "lo > hi" in a comment stays */'),
			('demo.c:15:not:0', '\tif (d || lo > hi)\t/* "lo > hi" in a comment stays */'),
			('demo.c:15:true:0', '\tif (1)\t/* "lo > hi" in a comment stays */'),
			('demo.c:15:false:0', '\tif (0)\t/* "lo > hi" in a comment stays */'),
			('demo.c:15:logic:0', '\tif (!d && lo > hi)\t/* "lo > hi" in a comment stays */')])

	def test_errno_and_return_of_an_error(self) -> None:
		self.assertEqual(changed(16), [('demo.c:16:errno:0', '\t\treturn -EOPNOTSUPP;'),
					       ('demo.c:16:ret0:0', '\t\treturn 0;')])

	def test_constants_keep_their_base_and_flags_drop_one_bit(self) -> None:
		self.assertEqual(changed(18), [
			('demo.c:18:const:0', '\tp = kmalloc(15, GFP_KERNEL | __GFP_NOWARN);'),
			('demo.c:18:const:1', '\tp = kmalloc(17, GFP_KERNEL | __GFP_NOWARN);'),
			('demo.c:18:flag:0', '\tp = kmalloc(16, __GFP_NOWARN);'),
			('demo.c:18:flag:1', '\tp = kmalloc(16, GFP_KERNEL);')])
		self.assertEqual(changed(19), [('demo.c:19:flag:0', '\td->flags |= 0;')])
		self.assertEqual(changed(24), [
			('demo.c:24:rel:0', '\treturn span > 0x1F && d->count != 1;'),
			('demo.c:24:rel:1', '\treturn span >= 0x1F && d->count == 1;'),
			('demo.c:24:const:0', '\treturn span >= 0x1E && d->count != 1;'),
			('demo.c:24:const:1', '\treturn span >= 0x20 && d->count != 1;'),
			('demo.c:24:const:2', '\treturn span >= 0x1F && d->count != 0;'),
			('demo.c:24:const:3', '\treturn span >= 0x1F && d->count != 2;'),
			('demo.c:24:logic:0', '\treturn span >= 0x1F || d->count != 1;')])

	def test_a_flag_in_the_middle_of_a_mask_is_one_mutant(self) -> None:
		line = '\tm = FMODE_READ | FMODE_WRITE | FMODE_EXEC;'
		self.assertEqual(mutate.mutate_line(line, line, {}), [
			('flag', 0, '\tm = FMODE_WRITE | FMODE_EXEC;'),
			('flag', 1, '\tm = FMODE_READ | FMODE_EXEC;'),
			('flag', 2, '\tm = FMODE_READ | FMODE_WRITE;')])

	def test_swap_only_arguments_of_one_declared_type(self) -> None:
		self.assertEqual(changed(21), [('demo.c:21:swap:0', '\tdemo_set(d, hi, lo);')])
		line = '\tdemo_set(d, lo, p);'		# u32 and char *: no swap
		self.assertEqual(mutate.mutate_line(line, line, mutate.types(
			DEMO, mutate.functions(DEMO)[0])), [])
		line = '\tx = min(lo, hi);'		# commutative: no swap
		self.assertEqual(mutate.mutate_line(line, line, {'lo': 'u32', 'hi': 'u32'}), [])

	def test_a_dropped_put_or_free_is_an_empty_statement(self) -> None:
		self.assertEqual(changed(23), [('demo.c:23:put:0', '\t;')])
		self.assertEqual(changed(31), [('demo.c:31:put:0', '\t;')])
		for line in ('\tnla_put(skb, 1, 0, NULL);', '\tx = foo_put(a);',
			     '\tfoo_put(a)->b(c);'):
			self.assertEqual([m for m in mutate.mutate_line(line, line, {})
					  if m[0] == 'put'], [], line)

	def test_a_forced_true_loop_is_not_made_and_strings_are_not_touched(self) -> None:
		self.assertEqual(changed(29), [
			('demo.c:29:rel:0', '\twhile (d->count <= 3)'),
			('demo.c:29:const:0', '\twhile (d->count < 2)'),
			('demo.c:29:const:1', '\twhile (d->count < 4)'),
			('demo.c:29:false:0', '\twhile (0)')])
		self.assertEqual(changed(22), [])
		self.assertEqual(changed(12), [])		# declarations

	def test_the_diff_is_one_line_with_context(self) -> None:
		m = next(x for x in demo_mutants() if x.id == 'demo.c:16:ret0:0')
		self.assertEqual(m.diff.splitlines()[:3], ['--- a/demo.c', '+++ b/demo.c',
							   '@@ -13,7 +13,7 @@'])
		self.assertEqual([l for l in m.diff.splitlines() if l[:1] in '+-'][2:],
				 ['-\t\treturn -EINVAL;', '+\t\treturn 0;'])


def fake(feature: str, n: int, path: str = '') -> mutate.Mutant:
	return mutate.Mutant(feature, path or f'{feature}.c', n, 'rel', 0, 'f',
			     'a < b', 'a <= b', '')


class SampleTest(unittest.TestCase):

	def test_the_same_seed_picks_the_same_mutants(self) -> None:
		every = [fake(f, n) for f in ('a', 'b') for n in range(1, 40)]
		one = [m.id for m in mutate.sample(every, 3, 7)]
		self.assertEqual(one, [m.id for m in mutate.sample(list(reversed(every)), 3, 7)])
		self.assertEqual(len(one), 6)
		self.assertNotEqual(one, [m.id for m in mutate.sample(every, 3, 8)])
		# a feature's sample does not depend on the other features
		alone = [m.id for m in mutate.sample([m for m in every if m.feature == 'a'], 3, 7)]
		self.assertEqual(alone, one[:3])
		self.assertEqual(mutate.sample(every, None, 7), every)

	def test_named_mutants_are_run_and_an_unknown_id_is_an_error(self) -> None:
		every = [fake(f, n) for f in ('a', 'b') for n in range(1, 5)]
		self.assertEqual([m.key for m in mutate.sample(every, None, 1, ['b.c:2:rel:0'])],
				 ['b:b.c:2:rel:0'])
		with self.assertRaisesRegex(InputError, 'b.c:9:rel:0: no such mutant'):
			mutate.sample(every, None, 1, ['b.c:9:rel:0'])


class EquivalentsTest(unittest.TestCase):

	def load(self, text: str) -> Dict[str, str]:
		with tempfile.TemporaryDirectory() as d:
			p = Path(d) / 'eq.toml'
			p.write_text(text)
			return mutate.load_equivalents(p)

	def test_strict_entries(self) -> None:
		self.assertEqual(self.load('["fs/stat.c:12:rel:0"]\nreason = "x is 0 or 2"\n'),
				 {'fs/stat.c:12:rel:0': 'x is 0 or 2'})
		for bad in ('["fs/stat.c:12:rel:0"]\nreason = ""\n',
			    '["fs/stat.c:12:rel:0"]\nreason = "r"\nuntil = 2027-01-01\n',
			    '["fs/stat.c:12:bogus:0"]\nreason = "r"\n',
			    '["fs/stat.c:12:rel:0"]\n',
			    'reason = "no table"\n'):
			with self.subTest(bad):
				with self.assertRaises(InputError):
					self.load(bad)

	def test_the_project_file_loads(self) -> None:
		mutate.load_equivalents(REPO / mutate.EQUIVALENTS)


class FakeRunner:
	"""A build fails with a stillborn mutant in it; a mutant kills its
	feature's case; a crash mutant crashes another feature's suite."""

	def __init__(self, stillborn: Set[str], kills: Set[str], crashes: Set[str],
		     build: Optional[Path] = None) -> None:
		self.stillborn, self.kills, self.crashes = stillborn, kills, crashes
		self.build = build		# the kernel's build folder, as results.json names it
		self.calls: List[List[str]] = []
		self.renamed: Set[str] = set()	# features whose one case is 'case2'

	def __call__(self, mutants: Sequence[mutate.Mutant], kind: str,
		     features: Sequence[str], tag: str) -> mutate.Outcome:
		self.calls.append([m.id for m in mutants])
		if any(m.id in self.stillborn for m in mutants):
			return mutate.Outcome(False, error='kernel build: failed with exit code 2')
		def case(f: str) -> Tuple[str, str, str]:
			return (kind, f, 'case2' if f in self.renamed else 'case')
		cases = {case(f): Status.PASS for f in features}
		cases[(kind, '<kunit boot>', '<boot>')] = Status.PASS
		for m in mutants:
			if m.id in self.kills:
				cases[case(m.feature)] = Status.FAIL
			if m.id in self.crashes:
				other = next((f for f in features if f != m.feature), m.feature)
				cases[(kind, other, 'case')] = Status.CRASH
				cases[(kind, '<kunit boot>', '<boot>')] = Status.FAIL
		return mutate.Outcome(True, cases, build_dir=self.build)


SPECS = [suites.SuiteSpec(f, None, (f,), None) for f in ('a', 'b', 'c')]


class BatchTest(unittest.TestCase):

	def test_features_that_share_a_file_are_not_built_together(self) -> None:
		ms = [fake('a', 1), fake('a', 2), fake('b', 1), fake('c', 1, 'a.c')]
		got = mutate.batches(ms, {'a': {'a.c'}, 'b': {'b.c'}, 'c': {'a.c'}})
		self.assertEqual([[m.key for m in b] for b in got],
				 [['a:a.c:1:rel:0', 'b:b.c:1:rel:0'], ['a:a.c:2:rel:0'],
				  ['c:a.c:1:rel:0']])

	def verdicts(self, runner: FakeRunner, ms: List[mutate.Mutant],
		     equivalent: Dict[str, str]) -> Dict[str, str]:
		got = mutate.run_all(ms, ['kunit'], SPECS, equivalent, runner,
				     {m.feature: {m.file} for m in ms})
		return {v.mutant.id: v.status for v in got}

	def test_a_batch_that_does_not_build_is_halved_to_its_stillborn_mutant(self) -> None:
		ms = [fake('a', 1), fake('b', 1), fake('c', 1)]
		runner = FakeRunner({'b.c:1:rel:0'}, {'a.c:1:rel:0'}, set())
		self.assertEqual(self.verdicts(runner, ms, {}), {
			'a.c:1:rel:0': 'killed', 'b.c:1:rel:0': 'stillborn',
			'c.c:1:rel:0': 'survived'})
		self.assertEqual(runner.calls, [[], ['a.c:1:rel:0', 'b.c:1:rel:0', 'c.c:1:rel:0'],
						['a.c:1:rel:0'], ['b.c:1:rel:0', 'c.c:1:rel:0'],
						['b.c:1:rel:0'], ['c.c:1:rel:0']])

	def test_one_by_one_asks_each_mutant_alone_a_feature_after_another(self) -> None:
		# schemata's order: a feature's loop boot, then its verdicts
		# journaled, before the next feature's
		ms = [fake('a', 1), fake('b', 1), fake('a', 2), fake('b', 2)]
		runner = FakeRunner(set(), {'b.c:1:rel:0'}, set())
		got = mutate.run_all(ms, ['kunit'], SPECS, {}, runner,
				     {m.feature: {m.file} for m in ms}, one_by_one=True)
		self.assertEqual(runner.calls, [[], ['a.c:1:rel:0'], ['a.c:2:rel:0'],
						['b.c:1:rel:0'], ['b.c:2:rel:0']])
		self.assertEqual([v.status for v in got], ['survived', 'killed', 'survived',
							   'survived'])

	def test_a_line_two_features_share_with_the_same_judges_is_judged_once(self) -> None:
		# a and b have no KUnit suite; c requires their file: the same
		# mutant of x.c is c's cases' to judge, once, for both
		specs = [suites.SuiteSpec('a', None, (), None), suites.SuiteSpec('b', None, (), None),
			 suites.SuiteSpec('c', None, ('c',), None, requires=(('x.c', None),))]
		ms = [fake('a', 1, 'x.c'), fake('b', 1, 'x.c'), fake('a', 2, 'x.c')]
		calls: List[List[str]] = []

		def run(mutants: Sequence[mutate.Mutant], kind: str,
			features: Sequence[str], tag: str) -> mutate.Outcome:
			calls.append([m.key for m in mutants])
			bad = any(m.line == 1 for m in mutants)
			return mutate.Outcome(True, {('kunit', 'c', 'case'):
						     Status.FAIL if bad else Status.PASS})

		path = Path(tempfile.mkdtemp()) / mutate.JOURNAL
		for _ in range(2):	# the second run: every verdict journaled
			with contextlib.redirect_stdout(io.StringIO()):
				got = mutate.run_all(ms, ['kunit'], specs, {}, run,
						     {'a': {'x.c'}, 'b': {'x.c'}, 'c': {'c.c'}},
						     one_by_one=True, journal=mutate.Journal(
							     path, JournalTest.CONTEXT, False))
			self.assertEqual(calls, [[], ['a:x.c:1:rel:0'], ['a:x.c:2:rel:0']])
			self.assertEqual([(v.mutant.key, v.status, v.by) for v in got], [
				('a:x.c:1:rel:0', 'killed', ['kunit:c:case']),
				('b:x.c:1:rel:0', 'killed', ['kunit:c:case']),
				('a:x.c:2:rel:0', 'survived', [])])

	def test_a_crash_outside_its_feature_reruns_the_batch_one_by_one(self) -> None:
		ms = [fake('a', 1), fake('b', 1)]
		runner = FakeRunner(set(), set(), {'a.c:1:rel:0'})
		got = mutate.run_all(ms, ['kunit'], SPECS, {}, runner,
				     {m.feature: {m.file} for m in ms})
		self.assertEqual(runner.calls, [[], ['a.c:1:rel:0', 'b.c:1:rel:0'],
						['a.c:1:rel:0'], ['b.c:1:rel:0']])
		# alone, its crash is in its own suite and its boot's report
		self.assertEqual([(v.mutant.id, v.status, v.by) for v in got], [
			('a.c:1:rel:0', 'killed', ['kunit:a:case', 'kunit:<kunit boot>:<boot>']),
			('b.c:1:rel:0', 'survived', [])])

	def test_an_equivalent_mutant_is_counted_apart_and_never_run(self) -> None:
		ms = [fake('a', 1), fake('a', 2)]
		runner = FakeRunner(set(), {'a.c:2:rel:0'}, set())
		self.assertEqual(self.verdicts(runner, ms, {'a.c:1:rel:0': 'a is never b'}),
				 {'a.c:1:rel:0': 'equivalent', 'a.c:2:rel:0': 'killed'})
		self.assertNotIn(['a.c:1:rel:0'], runner.calls)
		self.assertEqual(mutate.scores([mutate.Verdict(fake('a', 1), 'equivalent'),
						mutate.Verdict(fake('a', 2), 'killed'),
						mutate.Verdict(fake('a', 3), 'survived'),
						mutate.Verdict(fake('a', 4), 'stillborn')]),
				 {'a': {'killed': 1, 'survived': 1, 'stillborn': 1,
					'equivalent': 1, 'not_compiled': 0, 'score': 50.0}})

	def test_a_baseline_of_an_earlier_run_is_not_run_again(self) -> None:
		ms = [fake('a', 1), fake('b', 1)]
		runner = FakeRunner(set(), {'a.c:1:rel:0'}, set())
		base = mutate.Outcome(True, {('kunit', f, 'case'): Status.PASS for f in 'ab'})
		got = mutate.run_all(ms, ['kunit'], SPECS, {}, runner,
				     {m.feature: {m.file} for m in ms}, base)
		self.assertEqual(runner.calls, [['a.c:1:rel:0', 'b.c:1:rel:0']])
		self.assertEqual([v.status for v in got], ['killed', 'survived'])

	def build_folder(self) -> Path:
		"""A kernel's build folder (O=) that compiled a.c, c.c (its
		object deleted by a failed build: its .cmd stays) and lib/d.c
		(#included by lib/x.c: named in x.o's dependencies), not b.c."""
		d = Path(tempfile.mkdtemp())
		self.addCleanup(shutil.rmtree, d)
		for name in ('vmlinux', 'a.o', '.c.o.cmd', 'lib/x.o', 'lib/.x.o.cmd'):
			(d / name).parent.mkdir(parents=True, exist_ok=True)
			(d / name).touch()
		(d / 'lib/.x.o.cmd').write_text('deps_lib/x.o := \\\n  ../../linux/lib/d.c \\\n')
		return d

	def test_a_mutant_of_a_file_the_kernel_does_not_compile_is_never_built(self) -> None:
		ms = [fake('a', 1), fake('b', 1), fake('c', 1), fake('d', 1, 'lib/d.c'), fake('b', 2)]
		runner = FakeRunner(set(), {'a.c:1:rel:0'}, set(), self.build_folder())
		got = mutate.run_all(ms, ['kunit'], SPECS + [suites.SuiteSpec('d', None, ('d',), None)],
				     {}, runner, {m.feature: {m.file} for m in ms})
		why = "b.o is not built: the variant's config does not compile b.c"
		self.assertEqual([(v.mutant.id, v.status, v.reason) for v in got], [
			('a.c:1:rel:0', 'killed', ''), ('b.c:1:rel:0', 'not_compiled', why),
			('c.c:1:rel:0', 'survived', ''), ('lib/d.c:1:rel:0', 'survived', ''),
			('b.c:2:rel:0', 'not_compiled', why)])
		# after the baseline, one batch without b's mutants
		self.assertEqual(runner.calls, [[], ['a.c:1:rel:0', 'c.c:1:rel:0', 'lib/d.c:1:rel:0']])
		# counted apart, not in the score
		self.assertEqual(mutate.scores(got)['b'], {
			'killed': 0, 'survived': 0, 'stillborn': 0, 'equivalent': 0,
			'not_compiled': 2, 'score': None})
		text = mutate.lines(got, {}, 'head', {'a': 1, 'b': 2, 'c': 1, 'd': 1}, [])
		self.assertEqual(text[2:4], [
			'feature  generated  run  killed  survived  stillborn  equivalent'
			'  not compiled  score',
			'a                1    1       1         0          0           0'
			'             0  100 %'])
		self.assertIn('b                2    2       0         0          0           0'
			      '             2      -', text)
		at = text.index('not compiled (never built or booted; mutate.json lists each):')
		self.assertEqual(text[at + 1], f'  b.c [b]: 2 mutant(s): {why}')
		doc = json.loads(json.dumps(mutate.to_json(got, {}, {})))
		self.assertEqual([(m['verdict'], m['reason']) for m in doc['mutants']
				  if m['id'] == 'b.c:1:rel:0'], [('not_compiled', why)])

	def test_an_unknown_build_folder_judges_nothing_not_compiled(self) -> None:
		# a results.json of before kernel.build_dir, or a folder with no
		# kernel in it: every mutant is run
		d = self.build_folder()
		self.assertEqual(mutate.not_compiled(None, ['b.c']), {})
		(d / 'vmlinux').unlink()
		self.assertEqual(mutate.not_compiled(d, ['b.c']), {})
		# a header has no object of its own
		self.assertEqual(mutate.not_compiled(self.build_folder(), ['b.h']), {})

	def test_a_baseline_file_names_its_kernels_build_folder(self) -> None:
		build = self.build_folder()
		p = build / 'results.json'
		report.write_json(report.RunReport(
			kernel=report.KernelInfo('', build_dir=str(build)), accel='tcg', suites=[
				Suite('a', 'kunit', [Case('case', Status.PASS)]),
				Suite('b', 'kunit', [Case('case', Status.PASS)])]), p)
		base = mutate.load_baseline(p, ['kunit'])
		self.assertEqual(base.build_dir, build)
		ms = [fake('a', 1), fake('b', 1)]
		runner = FakeRunner(set(), set(), set())
		got = mutate.run_all(ms, ['kunit'], SPECS, {}, runner,
				     {m.feature: {m.file} for m in ms}, base)
		self.assertEqual([v.status for v in got], ['survived', 'not_compiled'])
		self.assertEqual(runner.calls, [['a.c:1:rel:0']])

	def test_a_suite_that_requires_a_features_file_judges_its_mutants(self) -> None:
		# 'c' has KUnit cases only; kselftest target 'k' requires c.c and
		# fails with c's mutant: the guest boot judges c's survivor by k
		specs = SPECS + [suites.SuiteSpec('k', None, (), 'k', requires=(('c.c', None),))]
		ms = [fake('b', 1), fake('c', 1), fake('k', 1, 'k.c')]
		calls: List[Tuple[str, List[str], List[str]]] = []

		def run(mutants: Sequence[mutate.Mutant], kind: str,
			features: Sequence[str], tag: str) -> mutate.Outcome:
			calls.append((kind, [m.id for m in mutants], list(features)))
			cases = {(kind, f, 'case'): Status.PASS for f in features}
			if kind == 'kselftest' and any(m.feature == 'c' for m in mutants):
				cases[(kind, 'k', 'case')] = Status.FAIL
			return mutate.Outcome(True, cases)

		got = mutate.run_all(ms, ['kunit', 'kselftest'], specs, {}, run,
				     {m.feature: {m.file} for m in ms})
		self.assertEqual([(v.mutant.id, v.status, v.by) for v in got], [
			('b.c:1:rel:0', 'survived', []),
			('c.c:1:rel:0', 'killed', ['kselftest:k:case']),
			('k.c:1:rel:0', 'survived', [])])
		# c's and k's mutants share judge k: never one batch
		self.assertEqual(calls[-3:], [
			('kselftest', [], ['k']),
			('kselftest', ['c.c:1:rel:0'], ['k']),
			('kselftest', ['k.c:1:rel:0'], ['k'])])

	def test_a_case_failing_without_mutants_kills_nothing(self) -> None:
		judge = mutate.Judge({('kunit', 'a'): 'a'}, mutate.Outcome(True, {
			('kunit', 'a', 'x'): Status.FAIL, ('kunit', 'a', 'y'): Status.PASS}))
		got = mutate.Outcome(True, {('kunit', 'a', 'x'): Status.FAIL})
		self.assertEqual(judge.new_bad(got, 'kunit', {'a'}),
				 {('kunit', 'a', 'y'): Status.CRASH})


# upstream's tests (issue 31): a and c name some and have KUnit cases
# only, b has a kselftest target too; each selector gives one case
UP_SPECS = [suites.SuiteSpec('a', None, ('a',), None, upstream=('ta',)),
	    suites.SuiteSpec('b', None, ('b',), 'b', upstream=('tb/x*',)),
	    suites.SuiteSpec('c', None, ('c',), None, upstream=('tc',))]
UP_A = ('kselftest', 'upstream', 'test_progs:ta/x1')


class UpstreamRunner:
	"""Each boot's suites' cases (KUnit, kselftest target) and, in the
	kselftest boot, one case of upstream's per selector of the boot's
	suites, as --suite picks them; a mutant fails the cases named for it."""

	def __init__(self, fails: Dict[str, List[mutate.Key]],
		     specs: Sequence[suites.SuiteSpec] = UP_SPECS) -> None:
		self.fails, self.specs = fails, specs
		self.calls: List[Tuple[str, List[str]]] = []

	def __call__(self, mutants: Sequence[mutate.Mutant], kind: str,
		     features: Sequence[str], tag: str) -> mutate.Outcome:
		self.calls.append((kind, [m.id for m in mutants]))
		specs = [s for s in self.specs if s.name in features]
		cases = {(kind, n, 'case'): Status.PASS for s in specs for n in s.names(kind)}
		if kind == 'kselftest':
			cases.update({('kselftest', 'upstream', f'test_progs:{sel.split("/")[0]}/x1'):
				      Status.PASS for s in specs for sel in s.upstream})
		for m in mutants:
			cases.update({k: Status.FAIL for k in self.fails.get(m.id, []) if k[0] == kind})
		return mutate.Outcome(True, cases)


class UpstreamTest(unittest.TestCase):
	"""Ours and upstream's tests judge the same mutants (issue 31)."""

	def run_up(self, fails: Dict[str, List[mutate.Key]], upstream_runs: bool = True,
		   ms: Sequence[mutate.Mutant] = (fake('a', 1), fake('b', 1)),
		   specs: Sequence[suites.SuiteSpec] = UP_SPECS, one_by_one: bool = False
		   ) -> Tuple[UpstreamRunner, List[mutate.Verdict]]:
		runner = UpstreamRunner(fails, specs)
		got = mutate.run_all(ms, ['kunit', 'kselftest'], specs, {}, runner,
				     {m.feature: {m.file} for m in ms}, upstream_runs=upstream_runs,
				     planned=lambda kind, ms: runner.calls.append(
					     (f'{kind} planned', [m.id for m in ms])) if one_by_one else None,
				     one_by_one=one_by_one)
		return runner, got

	def test_one_by_one_our_kills_go_to_upstreams_tests_last(self) -> None:
		# a.c:1 is KUnit's kill: upstream's tests judge it for the
		# by-suite table only, after the survivors (schemata's loops)
		ms = (fake('a', 1), fake('b', 1), fake('a', 2))
		runner, got = self.run_up({'a.c:1:rel:0': [('kunit', 'a', 'case'), UP_A]},
					  ms=ms, one_by_one=True)
		self.assertEqual(runner.calls[-6:], [
			('kselftest', []), ('kselftest planned', ['b.c:1:rel:0', 'a.c:2:rel:0']),
			('kselftest', ['a.c:2:rel:0']), ('kselftest', ['b.c:1:rel:0']),
			('kselftest planned', ['a.c:1:rel:0']), ('kselftest', ['a.c:1:rel:0'])])
		self.assertEqual([(v.status, v.upstream) for v in got], [
			('killed', ['kselftest:upstream:test_progs:ta/x1']), ('survived', []),
			('survived', [])])

	def test_an_upstream_case_is_its_features_and_reruns_nothing(self) -> None:
		# a has no kselftest target: its mutant goes to the kselftest boot
		# for upstream's tests, whose case of a's selector judges it
		runner, got = self.run_up({'a.c:1:rel:0': [UP_A]})
		self.assertEqual(runner.calls, [('kunit', []), ('kunit', ['a.c:1:rel:0', 'b.c:1:rel:0']),
						('kselftest', []),
						('kselftest', ['a.c:1:rel:0', 'b.c:1:rel:0'])])
		self.assertEqual([(v.mutant.id, v.status, v.by, v.upstream) for v in got], [
			('a.c:1:rel:0', 'survived', [], ['kselftest:upstream:test_progs:ta/x1']),
			('b.c:1:rel:0', 'survived', [], [])])

	def test_a_mutant_kunit_killed_is_judged_by_upstreams_too(self) -> None:
		runner, got = self.run_up({'a.c:1:rel:0': [('kunit', 'a', 'case'), UP_A],
					   'b.c:1:rel:0': [('kunit', 'b', 'case')]})
		self.assertEqual(runner.calls[-1], ('kselftest', ['a.c:1:rel:0', 'b.c:1:rel:0']))
		self.assertEqual([(v.status, v.by, v.upstream) for v in got], [
			('killed', ['kunit:a:case'], ['kselftest:upstream:test_progs:ta/x1']),
			('killed', ['kunit:b:case'], [])])
		none = {'ours_only': 0, 'upstream_only': 0, 'both': 0, 'neither': 0}
		self.assertEqual(mutate.by_suite(got), {'a': {**none, 'both': 1},
							'b': {**none, 'ours_only': 1}})
		# the score stays ours: both killed
		self.assertEqual(mutate.scores(got)['a']['score'], 100.0)

	def test_a_mutant_only_upstreams_tests_kill_is_listed(self) -> None:
		_, got = self.run_up({'a.c:1:rel:0': [UP_A]})
		text = mutate.lines(got, {}, 'head', {'a': 1, 'b': 1}, [])
		at = text.index("by suite (ours, upstream's): which side killed the mutants both judged")
		self.assertEqual(text[at + 1:], [
			'feature  judged  ours only  upstream only  both  neither',
			'a             1          0              1     0        0',
			'b             1          0              0     0        1',
			"killed by upstream's only (each needs a case of ours):",
			'  a.c:1:rel:0 [a, f]: kselftest:upstream:test_progs:ta/x1'])
		doc = json.loads(json.dumps(mutate.to_json(got, {}, {})))
		self.assertEqual(doc['by_suite']['upstream_only'], [{
			'id': 'a.c:1:rel:0', 'feature': 'a', 'file': 'a.c', 'line': 1,
			'upstream': ['kselftest:upstream:test_progs:ta/x1']}])
		self.assertEqual(doc['by_suite']['features']['b']['neither'], 1)
		self.assertEqual(doc['mutants'][0]['killed_by_upstream'],
				 ['kselftest:upstream:test_progs:ta/x1'])

	def test_an_upstream_case_of_a_feature_outside_the_batch_reruns_it(self) -> None:
		# c's case in a boot of a's and b's suites: one mutant at a time;
		# alone, it kills a's mutant as upstream's
		up_c = ('kselftest', 'upstream', 'test_progs:tc/x1')
		runner, got = self.run_up({'a.c:1:rel:0': [up_c]})
		self.assertEqual(runner.calls[-3:], [('kselftest', ['a.c:1:rel:0', 'b.c:1:rel:0']),
						     ('kselftest', ['a.c:1:rel:0']),
						     ('kselftest', ['b.c:1:rel:0'])])
		self.assertEqual([(v.status, v.by, v.upstream, v.note) for v in got], [
			('survived', [], ['kselftest:upstream:test_progs:tc/x1'],
			 'a report outside its suites'),
			('survived', [], [], '')])

	def test_a_variant_without_upstreams_tests_has_no_table(self) -> None:
		runner, got = self.run_up({'a.c:1:rel:0': [('kunit', 'a', 'case'), UP_A]}, False)
		# KUnit's kill is final; a's mutant never boots the guest
		self.assertEqual(runner.calls[-2:], [('kselftest', []), ('kselftest', ['b.c:1:rel:0'])])
		self.assertEqual([v.upstream for v in got], [None, None])
		variants = guest.variants(REPO)
		self.assertEqual(mutate.no_table(variants['default'], ['kunit', 'kselftest']), '')
		self.assertIn('--kind kunit', mutate.no_table(variants['default'], ['kunit']))
		why = mutate.no_table(variants['debug'], ['kunit', 'kselftest'])
		self.assertTrue(why.startswith('variant debug runs no upstream tests'), why)
		text = mutate.lines(got, {}, 'head', {}, [], why)
		self.assertEqual(text[-1], f"by suite (ours, upstream's): none: {why}")
		self.assertEqual(mutate.to_json(got, {}, {}, why)['by_suite'],
				 {'none': why, 'features': {}, 'upstream_only': []})

	def test_features_whose_selectors_name_one_test_are_never_one_batch(self) -> None:
		specs = UP_SPECS + [suites.SuiteSpec('d', None, ('d',), None, upstream=('ta/x*',))]
		runner, _ = self.run_up({}, ms=(fake('a', 1), fake('d', 1)), specs=specs)
		self.assertEqual(runner.calls[-2:], [('kselftest', ['a.c:1:rel:0']),
						     ('kselftest', ['d.c:1:rel:0'])])

	def test_a_baseline_without_upstreams_cases_is_refused(self) -> None:
		with tempfile.TemporaryDirectory() as d:
			p = Path(d) / 'results.json'
			report.write_json(report.RunReport(kernel=report.KernelInfo(''), accel='tcg', suites=[
				Suite('b', 'kselftest', [Case('one', Status.PASS)])]), p)
			mutate.load_baseline(p, ['kselftest'])
			with self.assertRaisesRegex(InputError, 'no upstream'):
				mutate.load_baseline(p, ['kselftest'], True)


class Stop(Exception):
	"""The end of a session in the middle of a run."""


class JournalTest(unittest.TestCase):
	"""A run stopped between batches goes on where it stopped."""

	CONTEXT: Dict[str, object] = {'variant': 'debug', 'series': 'abc', 'patches': 'p'}

	def run_twice(self, stop_after: int, context2: Dict[str, object],
		      fresh: bool = False, renamed: Set[str] = set(),
		      suites: Tuple[Dict[str, str], Dict[str, str]] = ({}, {})
		      ) -> Tuple[List[List[str]], List[mutate.Verdict], Path]:
		"""Stop the first run at its stop_after-th build; the second
		run's builds and verdicts (suites: each run's suite digests)."""
		ms = [fake('a', 1), fake('b', 1), fake('a', 2), fake('b', 2)]
		files = {m.feature: {m.file} for m in ms}
		first = FakeRunner(set(), {'a.c:1:rel:0', 'b.c:2:rel:0'}, set())

		def stopping(mutants: Sequence[mutate.Mutant], kind: str,
			     features: Sequence[str], tag: str) -> mutate.Outcome:
			if len(first.calls) == stop_after:
				raise Stop()
			return first(mutants, kind, features, tag)

		d = Path(tempfile.mkdtemp())
		with contextlib.redirect_stdout(io.StringIO()):
			with contextlib.suppress(Stop):	# (none: stop_after past the end)
				mutate.run_all(ms, ['kunit'], SPECS, {}, stopping, files,
					       journal=mutate.Journal(d / mutate.JOURNAL, self.CONTEXT, False,
								      suites[0]))
			second = FakeRunner(set(), {'a.c:1:rel:0', 'b.c:2:rel:0'}, set())
			second.renamed = renamed
			got = mutate.run_all(ms, ['kunit'], SPECS, {}, second, files,
					     journal=mutate.Journal(d / mutate.JOURNAL, context2, fresh,
								    suites[1]))
		return second.calls, got, d

	def test_the_second_run_judges_only_what_the_first_left(self) -> None:
		# the first run: its baseline and one batch (a.c:1, b.c:1), then
		# the stop during the second batch
		calls, got, _ = self.run_twice(2, self.CONTEXT)
		self.assertEqual(calls, [['a.c:2:rel:0', 'b.c:2:rel:0']])
		self.assertEqual([(v.mutant.id, v.status) for v in got], [
			('a.c:1:rel:0', 'killed'), ('b.c:1:rel:0', 'survived'),
			('a.c:2:rel:0', 'survived'), ('b.c:2:rel:0', 'killed')])
		self.assertEqual(got[0].by, ['kunit:a:case'])

	def test_other_suites_on_the_same_kernel_keep_the_kills_that_stand(self) -> None:
		# a case added for a survivor: the series digest changed, the
		# patches did not. a.c:1's kill stands (kunit:a:case still
		# passes without mutants), b.c:1 survived and is judged again
		other: Dict[str, object] = {**self.CONTEXT, 'series': 'def'}
		calls, got, d = self.run_twice(2, other)
		self.assertEqual(calls, [[], ['a.c:2:rel:0', 'b.c:1:rel:0'], ['b.c:2:rel:0']])
		self.assertEqual([(v.status, v.by) for v in got], [
			('killed', ['kunit:a:case']), ('survived', []), ('survived', []),
			('killed', ['kunit:b:case'])])
		self.assertTrue((d / (mutate.JOURNAL + '.old')).exists())
		# the kept kill is in the new journal: a third run judges nothing
		with contextlib.redirect_stdout(io.StringIO()):
			j = mutate.Journal(d / mutate.JOURNAL, other, False)
		self.assertEqual(len(j.verdicts), 4)
		# a's case renamed: the case that killed a.c:1 is gone, and it is
		# judged again (and killed by the new name)
		calls, got, _ = self.run_twice(2, other, renamed={'a'})
		self.assertEqual(calls, [[], ['a.c:1:rel:0', 'b.c:1:rel:0'],
					 ['a.c:2:rel:0', 'b.c:2:rel:0']])
		self.assertEqual(got[0].by, ['kunit:a:case2'])
		# other patches: nothing is carried
		calls, _, _ = self.run_twice(2, {**other, 'patches': 'q'})
		self.assertEqual(len(calls), 3)

	def test_a_survivor_whose_judges_are_unchanged_is_carried(self) -> None:
		# the first run judged all four (a.c:2 and b.c:1 survived);
		# then b's suite changed: only b's survivor is judged again
		other: Dict[str, object] = {**self.CONTEXT, 'series': 'def'}
		was = {'kunit:a': '1', 'kunit:b': '1'}
		calls, got, d = self.run_twice(4, other, suites=(was, {**was, 'kunit:b': '2'}))
		self.assertEqual(calls, [[], ['b.c:1:rel:0']])
		self.assertEqual([v.status for v in got],
				 ['killed', 'survived', 'survived', 'killed'])
		# both changed: both survivors again; a journal without the
		# suites' line (before it was kept) carries no survivor
		pairs: List[Tuple[Dict[str, str], Dict[str, str]]] = [
			(was, {'kunit:a': '2', 'kunit:b': '2'}), ({}, was)]
		for before, now in pairs:
			calls, _, _ = self.run_twice(4, other, suites=(before, now))
			self.assertEqual(calls, [[], ['a.c:2:rel:0', 'b.c:1:rel:0']])
		# the new journal has its own suites' line: it carries next time
		with contextlib.redirect_stdout(io.StringIO()):
			j = mutate.Journal(d / mutate.JOURNAL, {**other, 'series': 'ghi'}, False,
					   {**was, 'kunit:b': '2'})
		self.assertTrue(j.unchanged('kunit', ['a', 'b']))
		self.assertFalse(j.unchanged('kunit', ['c']))

	def test_a_kill_by_a_report_stands_while_its_judges_are_unchanged(self) -> None:
		# a report in a's suite killed a.c:1: no case of the new
		# baseline says it again, the unchanged suite does
		ms = [fake('a', 1)]
		was = {'kunit:a': '1'}
		for now, calls in ((was, []), ({'kunit:a': '2'}, [['a.c:1:rel:0']])):
			d = Path(tempfile.mkdtemp())
			with contextlib.redirect_stdout(io.StringIO()):
				mutate.Journal(d / mutate.JOURNAL, self.CONTEXT, False, was).add(
					'kunit', mutate.Verdict(ms[0], 'killed', ['kunit:a:<kernel report>']))
				runner = FakeRunner(set(), set(), set())
				got = mutate.run_all(ms, ['kunit'], SPECS, {}, runner, {'a': {'a.c'}},
						     journal=mutate.Journal(d / mutate.JOURNAL, {
							     **self.CONTEXT, 'series': 'def'}, False, now))
			self.assertEqual(runner.calls[1:], calls)
			self.assertEqual(got[0].status, 'survived' if calls else 'killed')

	def test_another_tree_or_fresh_judges_everything_again(self) -> None:
		other: Dict[str, object] = {'variant': 'debug', 'series': 'def', 'patches': 'q'}
		for context, fresh in ((other, False), (self.CONTEXT, True)):
			calls, got, d = self.run_twice(2, context, fresh)
			self.assertEqual(calls[0], [])		# a new baseline
			self.assertEqual(len(calls), 3)
			self.assertTrue((d / (mutate.JOURNAL + '.old')).exists())
			self.assertEqual([v.status for v in got],
					 ['killed', 'survived', 'survived', 'killed'])

	def test_a_line_cut_short_by_the_stop_ends_what_is_read(self) -> None:
		with tempfile.TemporaryDirectory() as d:
			with contextlib.redirect_stdout(io.StringIO()):
				j = mutate.Journal(Path(d) / mutate.JOURNAL, self.CONTEXT, False)
				j.add('kunit', mutate.Verdict(fake('a', 1), 'killed', ['kunit:a:case']))
				j.add('kunit', mutate.Verdict(fake('b', 1), 'survived'))
				text = (Path(d) / mutate.JOURNAL).read_text()
				(Path(d) / mutate.JOURNAL).write_text(text[:-20])
				again = mutate.Journal(Path(d) / mutate.JOURNAL, self.CONTEXT, False)
			self.assertIsNotNone(again.verdict('kunit', fake('a', 1)))
			self.assertIsNone(again.verdict('kunit', fake('b', 1)))
			# a mutant whose line changed is not the one judged
			self.assertIsNone(again.verdict('kunit', mutate.Mutant(
				'a', 'a.c', 1, 'rel', 0, 'f', 'x', 'y', '')))

	def test_a_journal_outside_out_goes_on_from_there(self) -> None:
		# --journal FILE: a file of the repository, kept from machine to
		# machine, in a folder the first run makes
		with tempfile.TemporaryDirectory() as d:
			path = Path(d) / 'repo' / 'mutants-journal.jsonl'
			with contextlib.redirect_stdout(io.StringIO()):
				mutate.Journal(path, self.CONTEXT, False).add(
					'kunit', mutate.Verdict(fake('a', 1), 'killed', ['kunit:a:case']))
				again = mutate.Journal(path, self.CONTEXT, False)
			v = again.verdict('kunit', fake('a', 1))
			assert v is not None
			self.assertEqual((v.status, v.by), ('killed', ['kunit:a:case']))
			# another tree's journal is set aside beside it, by its name
			with contextlib.redirect_stdout(io.StringIO()):
				mutate.Journal(path, {**self.CONTEXT, 'patches': 'q'}, False)
			self.assertEqual(sorted(p.name for p in path.parent.iterdir()),
					 ['mutants-journal.jsonl', 'mutants-journal.jsonl.old'])

	def test_a_baseline_keeps_its_build_folder(self) -> None:
		# a resumed run judges what its kernel does not compile by the
		# stopped run's baseline
		with tempfile.TemporaryDirectory() as d:
			with contextlib.redirect_stdout(io.StringIO()):
				j = mutate.Journal(Path(d) / mutate.JOURNAL, self.CONTEXT, False)
				j.add_baseline('kunit', mutate.Outcome(True, build_dir=Path('/b/debug')))
				again = mutate.Journal(Path(d) / mutate.JOURNAL, self.CONTEXT, False).baseline('kunit')
		assert again is not None
		self.assertEqual(again.build_dir, Path('/b/debug'))


class SuiteDigestTest(unittest.TestCase):
	"""What a change of one suite's files leaves carried (Journal)."""

	FILES = {'kunit/d/x_test.c': 'static struct kunit_suite s = {\n\t.name = "x",\n};\n',
		 'kunit/d/x_test.dts': '/dts-v1/;\n',
		 'kunit/e/y_test.c': '\t.name = "y",\n',
		 'kselftests/kconform.mk': 'CFLAGS += -Wall\n',
		 'kselftests/t/t_test.c': 'int main(void) { return 0; }\n',
		 'kselftests/u/u_test.c': 'int main(void) { return 0; }\n'}

	def digests(self, changed: str = '') -> Dict[str, str]:
		with tempfile.TemporaryDirectory() as d:
			for name, text in self.FILES.items():
				(Path(d) / name).parent.mkdir(parents=True, exist_ok=True)
				(Path(d) / name).write_text(text + ('/* edit */\n' if name == changed else ''))
			specs = [suites.SuiteSpec('x', None, ('x',), 't'),
				 suites.SuiteSpec('y', None, ('y',), 'u', upstream=('bpf_iter',))]
			return mutate.suite_digests(tree.Layout(Path(d)), specs)

	def test_an_edit_changes_the_digests_of_the_suites_made_of_it(self) -> None:
		was = self.digests()
		self.assertEqual(sorted(was), ['kselftest:x', 'kselftest:y', 'kunit:x', 'kunit:y'])
		for changed, suites_ in (('kunit/d/x_test.dts', ['kunit:x']),
					 ('kunit/e/y_test.c', ['kunit:y']),
					 ('kselftests/t/t_test.c', ['kselftest:x']),
					 ('kselftests/kconform.mk', ['kselftest:x', 'kselftest:y'])):
			now = self.digests(changed)
			self.assertEqual(sorted(k for k in was if was[k] != now[k]), suites_, changed)


class KernelRunnerTest(unittest.TestCase):
	"""The real runner's reading of a run's results.json."""

	def run_with(self, errors: List[str], suites: List[Suite]) -> Tuple[mutate.Outcome, List[str]]:
		seen: List[str] = []

		def main(argv: Sequence[str]) -> int:
			seen.extend(argv)
			out = Path(argv[argv.index('--out') + 1])
			rep = report.RunReport(kernel=report.KernelInfo(''), accel='tcg', suites=suites,
					       stage_errors=[report.StageError('run', e) for e in errors])
			report.write_json(rep, out / 'results.json')
			return 1

		with tempfile.TemporaryDirectory() as d:
			r = mutate.KernelRunner(main, Path(d), 'debug', ['--jobs', '2'])
			m = demo_mutants()[0]
			got = r([m], 'kunit', ['demo'], 'kunit-000')
			self.assertEqual(Path(seen[seen.index('--patch') + 1]).name, '00-demo.patch')
		return got, seen

	def test_a_build_error_is_a_stillborn_run(self) -> None:
		got, argv = self.run_with(['kernel build: failed with exit code 2 (log: x)'], [])
		self.assertFalse(got.built)
		self.assertEqual(argv[:9], ['run', '--variant', 'debug', '--kind', 'kunit',
					    '--retries', '0', '--out', argv[8]])
		self.assertEqual(argv[9:], ['--patch', argv[10], '--jobs', '2'])

	def test_the_cases_of_a_run(self) -> None:
		s = Suite('demo', 'kunit', [Case('one', Status.PASS), Case('two', Status.FAIL)])
		got, _ = self.run_with([], [s])
		self.assertTrue(got.built)
		self.assertEqual(got.cases, {('kunit', 'demo', 'one'): Status.PASS,
					     ('kunit', 'demo', 'two'): Status.FAIL})


	def test_a_run_that_writes_no_results_is_not_read_from_an_earlier_one(self) -> None:
		# the same --out again: kunit-000 holds an earlier invocation's
		# results.json, and a run that stops before writing its own must
		# not be judged by it
		with tempfile.TemporaryDirectory() as d:
			old = Path(d) / 'runs' / 'kunit-000'
			old.mkdir(parents=True)
			report.write_json(report.RunReport(kernel=report.KernelInfo(''), accel='tcg', suites=[
				Suite('demo', 'kunit', [Case('one', Status.PASS)])]), old / 'results.json')
			r = mutate.KernelRunner(lambda argv: 1, Path(d), 'debug', [])
			got = r([demo_mutants()[0]], 'kunit', ['demo'], 'kunit-000')
		self.assertFalse(got.built)
		self.assertIn('no results.json', got.error)

	def test_a_run_stopped_by_a_signal_judges_nothing(self) -> None:
		s = Suite('demo', 'kunit', [Case('one', Status.PASS)])
		with self.assertRaisesRegex(KconformError, 'stopped by a signal'):
			self.run_with(['terminated by signal 15 (SIGTERM)'], [s])

	def test_a_baseline_file_must_hold_the_judged_kinds(self) -> None:
		with tempfile.TemporaryDirectory() as d:
			p = Path(d) / 'results.json'
			report.write_json(report.RunReport(kernel=report.KernelInfo(''), accel='tcg', suites=[
				Suite('demo', 'kunit', [Case('one', Status.PASS)])]), p)
			self.assertEqual(mutate.load_baseline(p, ['kunit']).cases,
					 {('kunit', 'demo', 'one'): Status.PASS})
			with self.assertRaisesRegex(InputError, 'no kselftest cases'):
				mutate.load_baseline(p, ['kunit', 'kselftest'])
			with self.assertRaisesRegex(InputError, 'not a built run'):
				mutate.load_baseline(Path(d) / 'none.json', ['kunit'])


class ReportTest(unittest.TestCase):

	def test_a_survivor_is_not_covered_or_not_checked(self) -> None:
		info = coverage.parse_info('SF:/tree/demo.c\nDA:15,3\nDA:16,0\nend_of_record\n')
		infos = {'kunit-console': info}
		ms = {m.id: m for m in demo_mutants()}
		vs = [mutate.Verdict(ms['demo.c:15:rel:0'], 'survived'),
		      mutate.Verdict(ms['demo.c:16:ret0:0'], 'survived'),
		      mutate.Verdict(ms['demo.c:18:const:0'], 'killed', ['kunit:demo:x'])]
		text = mutate.lines(vs, infos, 'head', {'demo': 30}, [])
		self.assertEqual(text[2:5], [
			'feature  generated  run  killed  survived  stillborn  equivalent'
			'  not compiled  score',
			'demo            30    3       1         2          0           0'
			'             0   33 %',
			'survivors (the line, why, the mutant):'])
		self.assertIn('  demo.c:15:rel:0 [demo, demo_check]: not checked '
			      '(executed: kunit-console 3x)', text)
		self.assertIn('  demo.c:16:ret0:0 [demo, demo_check]: not covered', text)
		self.assertEqual(mutate.why_survived(infos, ms['demo.c:18:const:0']),
				 'no code there in the coverage build (compiled out?)')
		self.assertEqual(mutate.why_survived({}, ms['demo.c:16:ret0:0']),
				 'coverage not measured')
		doc = mutate.to_json(vs, infos, {'seed': 1})
		self.assertEqual(json.loads(json.dumps(doc))['mutants'][1]['survived'], 'not covered')

	def test_the_command_line_takes_its_options(self) -> None:
		p = argparse.ArgumentParser()
		mutate.options(p, REPO)
		a = p.parse_args(['--per-feature', '3', '--seed', '1', '--kind', 'kunit'])
		self.assertEqual((a.per_feature, a.seed, a.kind, a.variant), (3, 1, ['kunit'], 'debug'))


class TargetsTest(unittest.TestCase):
	"""Which functions are a feature's: coverage.toml's, a seed's changed
	lines', a series patch's (hook or fix), never a file the series adds."""

	def test_targets_of_a_small_repository(self) -> None:
		with tempfile.TemporaryDirectory() as d:
			repo, src, seeds = Path(d) / 'repo', Path(d) / 'linux', Path(d) / 'seeds'
			for p in (repo / 'patches', repo / 'kunitconfig', src / 'lib', seeds):
				p.mkdir(parents=True)
			(src / 'lib/demo.c').write_text((DATA / 'demo.c').read_text())
			(src / 'lib/other.c').write_text('int other(int a)\n{\n\treturn a;\n}\n')
			(src / 'lib/demo_test.c').write_text('static void t(void)\n{\n\tx();\n}\n')
			(repo / 'kunitconfig/demo.config').write_text('CONFIG_KUNIT=y\n')
			(repo / 'kunitconfig/other.config').write_text('CONFIG_KUNIT=y\n')
			(repo / 'suites.toml').write_text('[demo]\npatches = {kunit = ["0001-*"]}\n[other]\n')
			(repo / 'coverage.toml').write_text(
				'[001]\nsuite = "demo"\nfunctions = {"lib/demo.c" = ["demo_check"]}\n'
				'[002]\nsuite = "other"\nfiles = ["lib/other.c"]\n')
			(seeds / '002-commit-0123456789ab-other.patch').write_text(
				'--- a/lib/other.c\n+++ b/lib/other.c\n@@ -1,3 +1,3 @@\n'
				' int other(int a)\n {\n-\treturn 0;\n+\treturn a;\n')
			(repo / 'patches/0001-hook.patch').write_text(
				'--- a/lib/demo.c\n+++ b/lib/demo.c\n@@ -29,3 +29,3 @@\n'
				' \twhile (d->count < 3)\n \t\td->count++;\n-\tput(d);\n+\tdemo_put(d);\n'
				'--- /dev/null\n+++ b/lib/demo_test.c\n@@ -0,0 +1,4 @@\n'
				'+static void t(void)\n+{\n+\tx();\n+}\n')
			(repo / 'patches/series').write_text('0001-hook.patch\n')
			(repo / 'patches/fixes.toml').write_text('')
			got = mutate.targets(repo, src, seeds, suites.load(repo))
		self.assertEqual({f: sorted((t.file, t.function) for t in ts) for f, ts in got.items()}, {
			'demo': [('lib/demo.c', 'demo_check'), ('lib/demo.c', 'demo_helper')],
			'other': [('lib/other.c', 'other')]})


if __name__ == '__main__':
	unittest.main()
