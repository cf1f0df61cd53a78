# SPDX-License-Identifier: GPL-2.0
"""Mutant schemata (schemata.py): the switched form of real lines of
the features' files (test_data/schemata/: verifier.c, genetlink.c,
max31760.c as the series leaves them), what falls back to the build per
batch, that the patch applies and compiles (forms.c, with gcc when there
is one), and the compiler errors mapped back to mutants (no kernel)."""

import contextlib
import io
import json
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set, Tuple

from kconform import mutate, schemata, suites
from kconform.model import KconformError, Kind, Status

DATA = Path(__file__).parent / 'test_data' / 'schemata'


def lines_of(name: str) -> List[str]:
	return (DATA / name).read_text().splitlines()


def mutants(name: str, feature: str = 'demo') -> List[mutate.Mutant]:
	lines = lines_of(name)
	return mutate.mutants_of(feature, name, lines, mutate.functions(lines))


def build(*names: str) -> schemata.Schemata:
	return schemata.build([m for n in names for m in mutants(n)], lines_of)


def after(s: schemata.Schemata, name: str) -> List[str]:
	"""The file's lines with the schemata patch applied (patch(1))."""
	with tempfile.TemporaryDirectory() as tmp:
		for f in {f for f, _ in s.lines}:
			shutil.copy(DATA / f, Path(tmp) / f)
		r = subprocess.run(['patch', '-s', '-p1'], input=s.patch, text=True,
				   cwd=tmp, capture_output=True)
		if r.returncode:
			raise AssertionError(f'patch: {r.stdout}{r.stderr}')
		return (Path(tmp) / name).read_text().splitlines()


def ids(name: str, line: int) -> Dict[str, str]:
	"""id -> mutated line, of one line."""
	return {m.id: m.after for m in mutants(name) if m.line == line}


class FormTest(unittest.TestCase):
	"""Each form on real lines: the exact switched line."""

	def test_a_statement_becomes_one_braced_statement(self) -> None:
		# max31760.c: `return regmap_bulk_write(..., 2);` (line 30)
		s = build('max31760.c')
		n1 = s.numbers['max31760.c:30:const:0']
		n2 = s.numbers['max31760.c:30:const:1']
		self.assertEqual(n2, n1 + 1)
		self.assertEqual(after(s, 'max31760.c')[30],
				 f'\t\t{{ if (KC_MUTANT({n1})) {{ return regmap_bulk_write('
				 'state->regmap, reg_temp, reg_val, 1); } '
				 f'else if (KC_MUTANT({n2})) {{ return regmap_bulk_write('
				 'state->regmap, reg_temp, reg_val, 3); } '
				 'else { return regmap_bulk_write(state->regmap, reg_temp, '
				 'reg_val, 2); } }')

	def test_a_condition_switches_its_truth_only(self) -> None:
		# genetlink.c: `if (n++ < fams_to_skip)` (line 16)
		s = build('genetlink.c')
		rel = s.numbers['genetlink.c:16:rel:0']
		self.assertEqual(s.forms['genetlink.c:16:rel:0'], schemata.BOOL)
		self.assertEqual(after(s, 'genetlink.c')[16],
				 f'\t\tif ((KC_MUTANT({rel}) ? !!(n++ <= fams_to_skip) : '
				 f'KC_MUTANT({rel + 1}) ? !!(1) : KC_MUTANT({rel + 2}) ? !!(0) : '
				 '!!(n++ < fams_to_skip)))')

	def test_an_initializer_takes_the_expression_form(self) -> None:
		# genetlink.c: `int fams_to_skip = cb->args[0];`: the declaration
		# stays where it is, its value is switched
		s = build('genetlink.c', 'verifier.c')
		n = s.numbers['genetlink.c:9:const:0']
		self.assertEqual(after(s, 'genetlink.c')[9],
				 f'\tint fams_to_skip = (KC_MUTANT({n}) ? (cb->args[1]) : '
				 '(cb->args[0]));')
		# verifier.c: a `return` in a braced if is a statement
		self.assertEqual(s.forms['verifier.c:33:errno:0'], schemata.STMT)

	def test_what_cannot_take_a_switch_falls_back_with_its_reason(self) -> None:
		s = build('genetlink.c', 'max31760.c', 'verifier.c', 'forms.c')
		# over several lines: a declaration
		self.assertEqual(s.fallback['forms.c:56:rel:0'], schemata.MULTI)
		# `case 2:` and `u8 reg_val[2];`: constant expressions
		self.assertEqual(s.fallback['max31760.c:76:const:0'],
				 'a case label (a constant expression)')
		self.assertEqual(s.fallback['max31760.c:11:const:0'],
				 'a declaration (an array size, a static)')
		# verifier.c's `case PTR_TO_MEM | MEM_RDONLY:`: a label
		self.assertIn('verifier.c:46:flag:0', s.fallback)
		self.assertFalse(set(s.fallback) & set(s.numbers))

	def test_a_condition_over_several_lines_is_copied_to_its_first(self) -> None:
		# genetlink.c's `if (ctrl_fill_info(...,` over lines 19-21
		s = build('genetlink.c')
		self.assertEqual(s.forms['genetlink.c:21:rel:0'], schemata.BOOL)
		n = s.numbers['genetlink.c:21:const:0']
		call = ('ctrl_fill_info(rt, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq, '
			'NLM_F_MULTI, skb, CTRL_CMD_NEWFAMILY)')
		new = after(s, 'genetlink.c')
		self.assertEqual(new[19], f'\t\tif ((KC_MUTANT({n - 1}) ? !!({call} <= 0) : '
				 f'KC_MUTANT({n}) ? !!({call} < 1) : '
				 '!!(ctrl_fill_info(rt, NETLINK_CB(cb->skb).portid,')
		self.assertEqual(new[20], lines_of('genetlink.c')[19])
		self.assertEqual(new[21], '\t\t\t\t   skb, CTRL_CMD_NEWFAMILY) < 0))) {')
		self.assertEqual(s.lines[('genetlink.c', 19)], ['genetlink.c:21:rel:0',
								'genetlink.c:21:const:0'])

	def test_a_statement_over_several_lines_is_copied_to_its_first(self) -> None:
		# forms.c's `size[0] = demo_get(d,` over lines 45-46
		s = build('forms.c')
		n = s.numbers['forms.c:46:rel:0']
		new = after(s, 'forms.c')
		self.assertIn(f' else if (KC_MUTANT({n})) {{ size[0] = demo_get(d, lo <= 1, hi); }}',
			      new[45])
		self.assertTrue(new[45].endswith(' else { size[0] = demo_get(d,'))
		self.assertEqual(new[46], '\t\t\t   lo < 1, hi); } }')

	def test_a_statement_s_comments_stay_out_of_its_copy(self) -> None:
		# forms.c: `first += demo_get(d, /* a comment ... */` over 57-58
		s = build('forms.c')
		n = s.numbers['forms.c:58:rel:0']
		self.assertIn(f'{{ if (KC_MUTANT({n})) {{ first += demo_get(d, lo >= 3, 1); }}',
			      after(s, 'forms.c')[57])

	def test_each_initializer_of_a_declaration_of_several_names(self) -> None:
		# forms.c: `int i, sum = 0;`
		s = build('forms.c')
		n = s.numbers['forms.c:22:const:0']
		self.assertEqual(after(s, 'forms.c')[22],
				 f'\tint i, sum = (KC_MUTANT({n}) ? (1) : (0));')

	def test_a_ternary_s_colon_over_lines_is_no_label(self) -> None:
		# forms.c: `x = lo > hi ?` / `lo :` / `hi + 1;`: the last line
		# is no statement of its own, the three lines are one
		s = build('forms.c')
		n = s.numbers['forms.c:74:const:0']
		new = after(s, 'forms.c')
		self.assertIn(f'if (KC_MUTANT({n})) {{ x = lo > hi ? lo : hi + 0; }}', new[72])
		self.assertEqual(new[73], '\t    lo :')
		self.assertEqual(new[74], '\t    hi + 1; } }')

	def test_an_if_with_an_else_next_keeps_its_else(self) -> None:
		# forms.c: `if (lo == 1) sum++;` then `else sum--;`: only the
		# condition is switched, never the whole if
		s = build('forms.c')
		self.assertEqual(s.forms['forms.c:43:rel:0'], schemata.BOOL)
		self.assertTrue(after(s, 'forms.c')[43].endswith(' sum++;'))


class PatchTest(unittest.TestCase):

	def test_each_switched_line_is_one_line_below_where_it_was(self) -> None:
		for name in ('verifier.c', 'genetlink.c', 'max31760.c'):
			s = build(name)
			new = after(s, name)
			self.assertEqual(new[0], schemata.INCLUDE)
			self.assertEqual(len(new), len(lines_of(name)) + schemata.SHIFT)
			for (path, line), these in s.lines.items():
				for mid in these:
					self.assertIn(f'KC_MUTANT({s.numbers[mid]})',
						      new[line - 1 + schemata.SHIFT], mid)
			# else only a region's last line changes: its suffix added
			switched = {l for _, l in s.lines}
			for i, (old, got) in enumerate(zip(lines_of(name), new[1:]), 1):
				if i not in switched and old != got:
					self.assertTrue(any(got[:k] + got[k + len(x):] == old
							    for x in ('))', ' } }')
							    for k in range(len(got))), got)

	def test_one_number_per_id_in_the_order_given(self) -> None:
		# verifier.c's mutants under two features (bpf_security and
		# bpf_user_ringbuf name the file): one switch each
		ms = mutants('verifier.c', 'bpf_security') + mutants('verifier.c', 'bpf_user_ringbuf')
		s = schemata.build(ms, lines_of)
		self.assertEqual(sorted(s.numbers.values()), list(range(1, len(s.numbers) + 1)))
		self.assertEqual(len(s.numbers) + len(s.fallback), len(ms) // 2)

	@unittest.skipUnless(shutil.which('clang') or shutil.which('gcc'), 'no C compiler')
	def test_the_switched_file_compiles_with_the_real_header(self) -> None:
		# clang: the kernel's compiler (guest.TOOLCHAIN); a mutant's own
		# out-of-bounds index (size[2]) is its warning, not the switch's
		s = build('forms.c')
		self.assertEqual(set(s.forms.values()), set(schemata.FORMS))
		with tempfile.TemporaryDirectory() as tmp:
			inc = Path(tmp) / 'linux'
			inc.mkdir()
			shutil.copy(schemata.KERNEL_FILES / 'kconform_mutant.h', inc)
			(inc / 'compiler.h').write_text(
				'#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))\n')
			(Path(tmp) / 'forms.c').write_text('\n'.join(after(s, 'forms.c')) + '\n')
			cc = shutil.which('clang') or 'gcc'
			r = subprocess.run([cc, '-fsyntax-only', '-Wall', '-Werror',
					    '-Wno-unused-label', '-Wno-array-bounds', f'-I{tmp}',
					    'forms.c'],
					   cwd=tmp, capture_output=True, text=True)
			self.assertEqual(r.returncode, 0, r.stderr)

	def test_the_kernel_side_adds_the_switch_and_its_object(self) -> None:
		make = ['# SPDX-License-Identifier: GPL-2.0', 'obj-y += a.o', 'obj-y += b.o']
		with tempfile.TemporaryDirectory() as tmp:
			(Path(tmp) / 'lib').mkdir()
			(Path(tmp) / 'lib' / 'Makefile').write_text('\n'.join(make) + '\n')
			patch = schemata.kernel_patch(lambda p: make)
			r = subprocess.run(['patch', '-s', '-p1'], input=patch, text=True,
					   cwd=tmp, capture_output=True)
			self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
			self.assertEqual((Path(tmp) / 'lib' / 'Makefile').read_text().splitlines()[-1],
					 schemata.OBJECT)
			self.assertIn('module_param_named(mutant, kconform_mutant, int, 0644);',
				      (Path(tmp) / schemata.SOURCE).read_text())
			self.assertIn('#define KC_MUTANT(n) (READ_ONCE(kconform_mutant) == (n))',
				      (Path(tmp) / schemata.HEADER).read_text())


class CulpritTest(unittest.TestCase):

	def test_compiler_errors_name_the_mutants_of_their_line(self) -> None:
		s = build('genetlink.c', 'max31760.c')
		log = [
			"../genetlink.c:17:23: error: lvalue required as increment operand",
			"../genetlink.c:17:23: note: each undeclared identifier is reported once",
			"max31760.c: In function 'max31760_write':",
			"/w/linux/max31760.c:31:10: error: too many arguments",
			"/w/linux/max31760.c:3:1: error: something else",
		]
		named, other = schemata.culprits(log, s)
		self.assertEqual(named, set(s.lines[('genetlink.c', 16)]) |
				 set(s.lines[('max31760.c', 30)]))
		self.assertEqual(other, ['/w/linux/max31760.c:3:1: error: something else'])

	def test_clang_s_errors_name_the_mutant_whose_text_they_point_at(self) -> None:
		# clang 14 on forms.c's schemata with -Werror: two mutants index
		# size[2]; each error's column is in that mutant's text
		s = build('forms.c')
		log = ['forms.c:48:68: error: array index 2 is past the end of the array '
		       '(which contains 2 elements) [-Werror,-Warray-bounds]',
		       'forms.c:25:2: note: array \'size\' declared here',
		       'forms.c:51:458: error: array index 2 is past the end of the array '
		       '(which contains 2 elements) [-Werror,-Warray-bounds]']
		self.assertEqual(schemata.culprits(log, s),
				 ({'forms.c:47:const:1', 'forms.c:50:const:3'}, []))

	def test_an_error_s_column_in_one_mutant_s_text_names_that_one(self) -> None:
		s = build('max31760.c')
		text, spans = s.switched[('max31760.c', 30)]
		second = spans[1]
		# clang counts bytes from 1, a tab as one
		column = second[0] + 1
		named, _ = schemata.culprits([f'max31760.c:31:{column}: error: x'], s)
		self.assertEqual(named, {'max31760.c:30:const:1'})
		self.assertEqual(s.numbers['max31760.c:30:const:1'], second[2])


class SummaryTest(unittest.TestCase):

	def test_per_feature_switched_by_form_and_fallback_reasons(self) -> None:
		ms = mutants('genetlink.c', 'netlink_intro') + mutants('max31760.c', 'hwmon_max31760')
		s = schemata.build(ms, lines_of)
		out = schemata.summary(ms, s)
		self.assertEqual(out[0].split(), ['feature', 'mutants', 'switched', *schemata.FORMS,
						  'batch', 'by', 'batch'])
		row = out[2].split()
		self.assertEqual(row[0], 'netlink_intro')
		self.assertEqual(int(row[1]), int(row[2]) + int(row[6]))
		self.assertTrue(any(l.startswith('batch by batch: ') and 'case label' in l
				    for l in out))


	def test_mutate_schemata_list_prints_the_table_and_the_count(self) -> None:
		ms = mutants('genetlink.c', 'netlink_intro')
		equivalent = {ms[0].id: 'why'}
		buf = io.StringIO()
		with contextlib.redirect_stdout(buf):
			self.assertEqual(mutate._list_schemata(ms, equivalent, DATA), 0)
		out = buf.getvalue().splitlines()
		self.assertEqual(out[0].split()[:3], ['feature', 'mutants', 'switched'])
		self.assertEqual(out[1].split()[:2], ['netlink_intro', str(len(ms))])
		switched = int(out[1].split()[2])
		self.assertEqual(out[-1], f'kconform: mutate: {switched} of {len(ms)} mutants '
				 f'switched in one build ({switched} switches), '
				 f'{len(ms) - switched} batch by batch (1 of them equivalent: '
				 'never run)')

class LoopTest(unittest.TestCase):
	"""The guest loop's console cut per mutant, and its list."""

	def test_segments_at_the_markers_and_the_one_a_crash_left_open(self) -> None:
		raw = ['kconform: guest userspace up', 'kconform: mutant 3 begin', 'ok 1 a',
		       'kconform: mutant 3 end 0', 'kconform: kmemleak scanned',
		       '[   12.5] kconform: mutant 4 begin', 'not ok 1 a',
		       '[   13.0] BUG: kernel NULL pointer dereference']
		self.assertEqual(schemata.segments(raw), [
			schemata.Segment(3, ['ok 1 a'], True),
			schemata.Segment(4, ['not ok 1 a', '[   13.0] BUG: kernel NULL pointer '
					     'dereference'], False)])

	def test_ranges_keep_the_order_and_join_runs(self) -> None:
		self.assertEqual(schemata.ranges([3, 7, 8, 9, 12, 13, 5]), '3,7-9,12-13,5')
		self.assertEqual(schemata.ranges([1]), '1')

	@unittest.skipUnless(Path('/bin/busybox').exists(), 'no busybox')
	def test_the_guest_loop_runs_each_number_between_its_markers(self) -> None:
		# guest/mutants under the guest's busybox, on stand-ins for the
		# switch and run_kselftest.sh (which prints the switch it sees)
		with tempfile.TemporaryDirectory() as tmp:
			switch = Path(tmp) / 'mutant'
			r = guest_loop(tmp, f'echo "run $* with $(cat {switch})"\n',
				       '0,3-4,0', 'fb', 'fa:prog')
			self.assertEqual(r.stdout.splitlines(), [
				line for n in (0, 3, 4, 0) for line in (
					f'kconform: mutant {n} begin', f'run -c fb -t fa:prog with {n}',
					f'kconform: mutant {n} end 0')])
			self.assertEqual(switch.read_text(), '0\n')
			segs = schemata.segments(r.stdout.splitlines())
			self.assertEqual([(s.number, s.ended) for s in segs],
					 [(0, True), (3, True), (4, True), (0, True)])
			# --kunit: the suites' globs written to the rerun file
			rerun = Path(tmp) / 'kconform_kunit'
			rerun.write_text('')
			r = guest_loop(tmp, '', '--kunit', 'fa,fb', '7',
				       KCONFORM_KUNIT_RUN=str(rerun))
			self.assertEqual(r.stdout.splitlines(), ['kconform: mutant 7 begin',
								 'kconform: mutant 7 end 0'])
			self.assertEqual(rerun.read_text(), 'fa,fb\n')

	@unittest.skipUnless(Path('/bin/busybox').exists(), 'no busybox')
	def test_each_mutant_starts_with_the_warn_onces_unfired(self) -> None:
		# the stand-in tests "fire" a WARN_ON_ONCE (empty the stand-in
		# of debugfs's clear_warn_once): each mutant's tests find it
		# written again, or a WARN that mutant 3 fired would be silent
		# under mutant 4 (btf.c's ref_regno WARN_ON_ONCE, first fired by
		# an upstream test under another mutant of the boot)
		with tempfile.TemporaryDirectory() as tmp:
			once = Path(tmp) / 'clear_warn_once'
			once.write_text('')
			r = guest_loop(tmp, f'echo "once $(cat {once})"; : > {once}\n',
				       '0,3-4,0', 'fb', KCONFORM_WARN_ONCE=str(once))
			self.assertEqual([line for line in r.stdout.splitlines()
					  if line.startswith('once')], ['once 1'] * 4)

	@unittest.skipUnless(Path('/bin/busybox').exists(), 'no busybox')
	def test_a_deadline_kills_the_mutants_tests_and_their_children(self) -> None:
		# mutant 5's stand-in run_kselftest.sh never ends (a child that
		# sleeps on, as a harness's test waits): both die at the deadline
		# and the loop goes on to 6
		with tempfile.TemporaryDirectory() as tmp:
			r = guest_loop(tmp, f'[ "$(cat {tmp}/mutant)" = 5 ] || {{ echo fast; exit 0; }}\n'
				       f'sleep 600 & echo $! > {tmp}/child\n'
				       f'echo $$ > {tmp}/parent\nwait\n', '--deadline', '1', '5-6', 'fb')
			self.assertEqual(r.stdout.splitlines(), [
				'kconform: mutant 5 begin',
				'kconform: mutant 5 past its deadline of 1 s: its tests killed',
				'kconform: mutant 5 end 137',
				'kconform: mutant 6 begin', 'fast', 'kconform: mutant 6 end 0'])
			for name in ('parent', 'child'):
				pid = int((Path(tmp) / name).read_text())
				self.assertFalse(alive(pid), f'{name} {pid} outlived the deadline')

	def test_the_guest_scripts_pass_shellcheck(self) -> None:
		if not shutil.which('shellcheck'):
			self.skipTest('no shellcheck')
		guest = schemata.KERNEL_FILES.parents[1] / 'guest'
		r = subprocess.run(['shellcheck', '-s', 'sh', str(guest / 'mutants'),
				    str(guest / 'after-kunit')], capture_output=True, text=True)
		self.assertEqual(r.returncode, 0, r.stdout)


# fa: a KUnit suite and a kselftest target judging max31760.c; fb: a
# kselftest target judging genetlink.c
SPECS = [suites.SuiteSpec('fa', None, ('fa',), 'fa'),
	 suites.SuiteSpec('fb', None, (), 'fb')]
CASES = {'kunit': [('kunit', 'fa', 'fa_test_one'), ('kunit', 'fa', 'fa_test_two')],
	 'kselftest': [('kselftest', t, c) for t in ('fa', 'fb')
		       for c in ('prog/t.one', 'prog/t.two')]}


class FakeRun:
	"""`kconform run` as the schemata runner calls it: a build that fails
	while one mutant's switch is in it, then results.json, and the loop
	boot's console: each mutant's segment, a killed one's second case
	failing, a crashing one's boot ending inside it."""

	def __init__(self, bad: str, kills: Set[str], crash: str,
		     loop_results: bool = True, spoils: str = '', rerun_fails: bool = False,
		     build: str = '', slow: str = '', other: bool = False) -> None:
		self.bad, self.kills, self.crash = bad, kills, crash
		self.other = other	# fb's target has a program 'other' too
		self.slow = slow	# a mutant whose tests the loop's deadline kills
		self.build = build		# results.json's kernel.build_dir
		self.loop_results = loop_results	# False: a loop boot writes none
		# a mutant that passes but leaves the kernel failing every run
		# after it in its boot; a suite that fails when run again
		self.spoils, self.rerun_fails = spoils, rerun_fails
		self.boots: Optional[schemata.Runner] = None
		self.calls: List[List[str]] = []

	def __call__(self, argv: Sequence[str]) -> int:
		self.calls.append(list(argv))
		assert self.boots is not None
		out = Path(argv[argv.index('--out') + 1])
		kind = argv[argv.index('--kind') + 1]
		words = [argv[i + 1] for i, a in enumerate(argv) if a == '--cmdline']
		s = self.boots.schemata
		if self.bad in s.numbers:
			# clang's column (bytes from 1) in the bad mutant's text
			path, line = next(k for k, ids in s.lines.items() if self.bad in ids)
			text, spans = s.switched[(path, line)]
			column = next(a for a, _, n in spans if n == s.numbers[self.bad]) + 2
			(out / schemata.BUILD_LOG).write_text(
				f'../linux/{path}:{line + schemata.SHIFT}:{column}: error: bad\n')
			(out / 'results.json').write_text(json.dumps(
				{'errors': ['kernel build: make failed'], 'suites': []}))
			return 1
		loop = [w.split('=', 1)[1] for w in words if w.startswith(schemata.LOOP_PARAM + '=')]
		# a boot with a switch on from the command line: its second
		# cases fail if the mutant is a killed one
		on = [int(w.split('=', 1)[1]) for w in words
		      if w.startswith(schemata.SWITCH_PARAM + '=')]
		killed = any(i in self.kills for i, n in s.numbers.items() if n in on)
		if self.loop_results or not loop:
			(out / 'results.json').write_text(json.dumps({
				'kernel': {'build_dir': self.build} if self.build else {},
				'errors': [], 'suites': [
				{'kind': kind, 'name': name, 'cases': [
					{'name': c, 'status': 'fail' if killed and c.endswith('two')
					 else 'pass'} for _, s, c in CASES[kind] if s == name] +
				 ([{'name': 'other/t.x', 'status': 'pass'}]
				  if self.other and name == 'fb' else [])}
				for name in sorted({s for _, s, _ in CASES[kind]})]}))
		target = next((argv[i + 1] for i, a in enumerate(argv) if a == '--suite'), '')
		if loop:
			(out / schemata.CONSOLE[Kind(kind)]).write_text(
				'\n'.join(self.console(kind, loop[0], target)))
		return 0

	def console(self, kind: str, ranges: str, target: str) -> List[str]:
		assert self.boots is not None
		mutant = {n: i for i, n in self.boots.schemata.numbers.items()}
		mutant[0] = '<no mutant>'
		out = []
		spoilt = False
		for n in expand(ranges):
			out.append(f'kconform: mutant {n} begin')
			bad = mutant[n] in self.kills or spoilt or (n == 0 and self.rerun_fails)
			spoilt |= mutant[n] == self.spoils
			if kind == 'kunit':
				out += ['KTAP version 1', '1..1', '    # Subtest: fa', '    1..2',
					'    ok 1 fa_test_one',
					f'    {"not ok" if bad else "ok"} 2 fa_test_two',
					f'{"not ok" if bad else "ok"} 1 fa']
			else:
				out += ['TAP version 13', '1..1', f'# selftests: {target}: prog',
					'# TAP version 13', '# 1..2', '# ok 1 t.one']
				if mutant[n] == self.crash:
					return out + ['[ 3.0] BUG: kernel NULL pointer dereference']
				if mutant[n] == self.slow:
					out += [f'kconform: mutant {n} past its deadline of 60 s: '
						'its tests killed', f'kconform: mutant {n} end 137']
					continue
				out += [f'# {"not ok" if bad else "ok"} 2 t.two',
					f'{"not ok" if bad else "ok"} 1 selftests: {target}: prog']
			out.append(f'kconform: mutant {n} end 0')
		return out


def guest_loop(tmp: str, tests: str, *args: str,
	       **env: str) -> subprocess.CompletedProcess[str]:
	"""guest/mutants ARGS under the guest's busybox, in tmp, on
	stand-ins for the switch (tmp/mutant) and run_kselftest.sh (a
	script of tests)."""
	switch = Path(tmp) / 'mutant'
	switch.write_text('0\n')
	run = Path(tmp) / 'run_kselftest.sh'
	run.write_text('#!/bin/busybox sh\n' + tests)
	run.chmod(0o755)
	return subprocess.run(['/bin/busybox', 'sh', str(schemata.KERNEL_FILES.parents[1] /
							  'guest' / 'mutants'), *args],
			      cwd=tmp, capture_output=True, text=True, timeout=60,
			      env={'KCONFORM_SWITCH': str(switch), 'PATH': '/bin:/usr/bin', **env})


def alive(pid: int) -> bool:
	"""Is pid a process that is not a zombie?"""
	try:
		return 'State:\tZ' not in Path(f'/proc/{pid}/status').read_text()
	except FileNotFoundError:
		return False


def tree(path: str) -> List[str]:
	"""The runner's tree: the test data, and a lib/Makefile."""
	return ['obj-y += a.o'] if path == schemata.MAKEFILE else lines_of(path)


class LiveTree:
	"""The runner's tree as runs leave it: from the first run on, the
	schemata's and the switch's patches are in it (each switched file
	one line down, the switch's object in lib/Makefile)."""

	def __init__(self, runs: FakeRun) -> None:
		self.runs = runs

	def __call__(self, path: str) -> List[str]:
		if not self.runs.calls:
			return tree(path)
		if path == schemata.MAKEFILE:
			return tree(path) + [schemata.OBJECT]
		return ['#include <linux/kconform_mutant.h>', *tree(path)]


def expand(ranges: str) -> List[int]:
	"""3,7-9 as guest/mutants reads it."""
	out: List[int] = []
	for r in ranges.split(','):
		a, _, b = r.partition('-')
		out += list(range(int(a), int(b or a) + 1))
	return out


def judge_fb(fake: FakeRun, ids: Sequence[str], name: str = 'genetlink.c',
	     also: Sequence[str] = (),
	     programs: Optional[Dict[str, Tuple[Tuple[str, str], ...]]] = None) -> Dict[str, str]:
	"""These mutants of a file, and of those also names (feature fb, a
	kselftest target), through the schemata runner and the fake run:
	id -> verdict."""
	fb = [m for n in (name, *also) for m in mutants(n, 'fb') if m.id in ids]
	judging = schemata.Judging({'fb': {'fb'}}, {'kselftest': {'fb'}},
				   {'kselftest': {'fb': ['fb']}}, {}, programs or {})
	with tempfile.TemporaryDirectory() as tmp:
		boots = schemata.Runner(fake, Path(tmp), 'default', [], fb, tree, judging)
		fake.boots = boots

		def batch(mutants: Sequence[mutate.Mutant], kind: str,
			  features: Sequence[str], tag: str) -> mutate.Outcome:
			raise AssertionError('every mutant is switched')

		with contextlib.redirect_stdout(io.StringIO()):
			return {v.mutant.id: v.status for v in schemata.run(
				fb, ['kselftest'], SPECS, {}, boots, batch,
				{'fb': {name, *also}}, None, False, None)}


class RunnerTest(unittest.TestCase):

	def test_kills_after_a_mutant_spoilt_the_boot_are_judged_alone(self) -> None:
		# 16:rel:0 (1) passes but fails everything after it, the last
		# run with no mutant on too: the kills of 16:true:0 (2) and
		# 16:false:0 (3) are judged again alone; only 2's stands
		ids = ['genetlink.c:16:false:0', 'genetlink.c:16:rel:0', 'genetlink.c:16:true:0']
		fake = FakeRun(bad='', kills={'genetlink.c:16:true:0'}, crash='',
			       spoils='genetlink.c:16:rel:0')
		self.assertEqual(judge_fb(fake, ids), {
			'genetlink.c:16:false:0': 'survived', 'genetlink.c:16:rel:0': 'survived',
			'genetlink.c:16:true:0': 'killed'})
		loops = [w for c in fake.calls for w in c if w.startswith('kconform.mutants=')]
		self.assertEqual(loops, ['kconform.mutants=0-3,0', 'kconform.mutants=0,2,0',
					 'kconform.mutants=0,3,0'])

	def test_a_mutant_of_an_init_function_is_judged_by_a_boot_of_its_own(self) -> None:
		# demo_init runs at boot, before a loop could set its switch:
		# kconform.mutant=N on the command line, one boot each
		s = build('forms.c')
		ids = sorted(m.id for m in mutants('forms.c') if m.line == 65)
		self.assertEqual(sorted(s.boot), ids)
		self.assertEqual(schemata.summary(mutants('forms.c'), s)[-1],
				 f'switched, a boot each (in an __init function): {len(ids)}')
		fake = FakeRun(bad='', kills={ids[0]}, crash='')
		got = judge_fb(fake, ids + ['forms.c:26:rel:0'], 'forms.c')
		self.assertEqual(got, {**{i: 'survived' for i in ids[1:]}, ids[0]: 'killed',
				       'forms.c:26:rel:0': 'survived'})
		# the runner's numbers: its schemata holds these mutants only
		n = schemata.build([m for m in mutants('forms.c', 'fb')
				    if m.id in ids + ['forms.c:26:rel:0']], lines_of).numbers
		words = [[w for w in c if w.startswith('kconform.') or w in schemata.ON_MUTANT]
			 for c in fake.calls]
		self.assertEqual(sorted(words[1:]), sorted(
			[[f'kconform.mutants={schemata.ranges([0, n["forms.c:26:rel:0"], 0])}',
			  'oops=panic', 'sysctl.kernel.panic_on_rcu_stall=1',
			  'kconform.mutant_deadline=60']] +
			[[f'kconform.mutant={n[i]}', 'oops=panic', 'sysctl.kernel.panic_on_rcu_stall=1']
			 for i in ids]))

	def test_a_mutant_past_its_deadline_is_killed_and_the_loop_goes_on(self) -> None:
		# guest/mutants killed 16:rel:0's tests at its share (per, 60 s)
		fake = FakeRun(bad='', kills={'genetlink.c:16:true:0'}, crash='',
			       slow='genetlink.c:16:rel:0')
		ids = ['genetlink.c:16:false:0', 'genetlink.c:16:rel:0', 'genetlink.c:16:true:0']
		self.assertEqual(judge_fb(fake, ids), {
			'genetlink.c:16:false:0': 'survived', 'genetlink.c:16:rel:0': 'killed',
			'genetlink.c:16:true:0': 'killed'})
		loops = [w for c in fake.calls for w in c if w.startswith('kconform.mutants=')]
		self.assertEqual(loops, ['kconform.mutants=0-3,0'])

	def test_the_deadline_line_is_a_timed_out_case_of_the_mutant(self) -> None:
		seg = schemata.Segment(4, ['TAP version 13', '1..1', '# selftests: fb: prog',
					   '# TAP version 13', '# 1..2', '# ok 1 t.one',
					   'kconform: mutant 4 past its deadline of 60 s: '
					   'its tests killed'], True)
		got = schemata.judged(seg, 'kselftest', ['fb'])
		self.assertEqual(got.cases[('kselftest', '<guest boot>', '<mutant deadline>')],
				 Status.TIMEOUT)
		self.assertEqual(got.cases[('kselftest', 'fb', 'prog/t.one')], Status.PASS)
		seg.lines.pop()
		self.assertNotIn(('kselftest', '<guest boot>', '<mutant deadline>'),
				 schemata.judged(seg, 'kselftest', ['fb']).cases)

	def test_a_loop_runs_only_the_programs_that_judge_its_feature(self) -> None:
		# fb's target has a program 'other' that the baseline ran and
		# mutant_programs leaves out of fb's loop: its cases are not gone
		ids = ['genetlink.c:16:rel:0', 'genetlink.c:16:true:0']
		fake = FakeRun(bad='', kills={'genetlink.c:16:true:0'}, crash='', other=True)
		self.assertEqual(judge_fb(fake, ids, programs={'fb': (('fb', 'prog'),)}), {
			'genetlink.c:16:rel:0': 'survived', 'genetlink.c:16:true:0': 'killed'})
		loops = [c for c in fake.calls if any(w.startswith(schemata.LOOP_PARAM) for w in c)]
		self.assertEqual([[c[i + 1] for i, a in enumerate(c) if a == '--case'] for c in loops],
				 [['fb.prog/*']])
		# not narrowed, a loop that ran no 'other' would have killed both
		fake = FakeRun(bad='', kills={'genetlink.c:16:true:0'}, crash='', other=True)
		self.assertEqual(set(judge_fb(fake, ids).values()), {'killed'})

	def test_suites_that_fail_when_run_again_stop_the_run(self) -> None:
		fake = FakeRun(bad='', kills=set(), crash='', rerun_fails=True)
		with self.assertRaisesRegex(KconformError, 'a loop cannot judge'):
			judge_fb(fake, ['genetlink.c:16:rel:0'])

	def test_a_loop_console_without_results_json_still_judges(self) -> None:
		# the run's own report of a loop boot is no verdict of ours: its
		# console is
		fake = FakeRun(bad='', kills={'genetlink.c:16:rel:0'}, crash='',
			       loop_results=False)
		got = judge_fb(fake, ['genetlink.c:16:rel:0', 'genetlink.c:16:true:0',
				      'genetlink.c:16:false:0'])
		self.assertEqual(got, {'genetlink.c:16:rel:0': 'killed', 'genetlink.c:16:true:0':
				       'survived', 'genetlink.c:16:false:0': 'survived'})

	def test_a_file_the_kernel_does_not_compile_is_in_no_loop(self) -> None:
		# the baseline's build folder has forms.o, not genetlink.o: fb's
		# loop runs forms.c's mutant only
		with tempfile.TemporaryDirectory() as b:
			for name in ('vmlinux', 'forms.o'):
				(Path(b) / name).touch()
			fake = FakeRun(bad='', kills=set(), crash='', build=b)
			got = judge_fb(fake, ['forms.c:26:rel:0', 'genetlink.c:16:rel:0',
					      'genetlink.c:16:true:0'], 'forms.c', ['genetlink.c'])
		self.assertEqual(got, {'forms.c:26:rel:0': 'survived',
				       'genetlink.c:16:rel:0': 'not_compiled',
				       'genetlink.c:16:true:0': 'not_compiled'})
		assert fake.boots is not None
		n = fake.boots.schemata.numbers
		loops = [w for c in fake.calls for w in c if w.startswith('kconform.mutants=')]
		self.assertEqual(loops, [f'kconform.mutants={schemata.ranges([0, n["forms.c:26:rel:0"], 0])}'])

	def test_schemata_then_the_rest_batch_by_batch(self) -> None:
		fa = [m for m in mutants('max31760.c', 'fa')
		      if m.id in ('max31760.c:30:const:0', 'max31760.c:30:const:1',
				  'max31760.c:11:const:0', 'max31760.c:23:errno:0')]
		fb = [m for m in mutants('genetlink.c', 'fb') if m.line in (9, 16, 21)
		      and m.operator in ('rel', 'true', 'false', 'const')]
		chosen = sorted(fa + fb, key=lambda m: (m.feature, m.id))
		fake = FakeRun(bad='max31760.c:30:const:1',
			       kills={'max31760.c:30:const:0', 'genetlink.c:16:rel:0'},
			       crash='genetlink.c:16:true:0')
		judging = schemata.Judging(
			{'fa': {'fa'}, 'fb': {'fb'}}, {'kunit': {'fa'}, 'kselftest': {'fa', 'fb'}},
			{'kunit': {'fa': ['fa']}, 'kselftest': {'fa': ['fa'], 'fb': ['fb']}},
			{'fb': 10.0})
		with tempfile.TemporaryDirectory() as tmp:
			# the build that fails leaves the tree patched: the
			# schemata without its culprit is still made from the
			# tree's lines before any run
			boots = schemata.Runner(fake, Path(tmp), 'debug', [], chosen,
						LiveTree(fake), judging)
			fake.boots = boots
			batched: List[List[str]] = []

			def batch(mutants: Sequence[mutate.Mutant], kind: str,
				  features: Sequence[str], tag: str) -> mutate.Outcome:
				batched.append([m.id for m in mutants])
				bad = any(m.id == 'max31760.c:30:const:1' for m in mutants)
				return mutate.Outcome(True, {k: Status.FAIL if bad and k[2] == 'fa_test_one'
							     else Status.PASS for k in CASES[kind]})

			with contextlib.redirect_stdout(io.StringIO()):
				got = {v.mutant.id: (v.status, v.by) for v in schemata.run(
					chosen, ['kunit', 'kselftest'], SPECS, {}, boots, batch,
					{'fa': {'max31760.c'}, 'fb': {'genetlink.c'}}, None, False,
					None)}
			# the next run on this --out (a tree derived again) builds
			# without it at once
			again = schemata.Runner(fake, Path(tmp), 'debug', [], chosen, tree, judging)
		self.assertEqual(boots.dropped, {'max31760.c:30:const:1': 'its switch does not compile'})
		self.assertEqual(again.dropped, boots.dropped)
		self.assertNotIn('max31760.c:30:const:1', again.schemata.numbers)
		self.assertIn('max31760.c:30:const:0', again.schemata.numbers)
		self.assertEqual(got['max31760.c:30:const:0'],
				 ('killed', ['kunit:fa:fa_test_two']))
		self.assertEqual(got['max31760.c:30:const:1'],
				 ('killed', ['kunit:fa:fa_test_one']))
		self.assertEqual(got['max31760.c:11:const:0'], ('survived', []))
		# a KUnit survivor goes to its feature's kselftest loop
		self.assertEqual(got['max31760.c:23:errno:0'], ('survived', []))
		self.assertEqual(got['genetlink.c:16:rel:0'],
				 ('killed', ['kselftest:fb:prog/t.two']))
		self.assertEqual(got['genetlink.c:16:true:0'][0], 'killed')
		self.assertEqual(got['genetlink.c:16:false:0'], ('survived', []))
		self.assertEqual(got['genetlink.c:9:const:0'], ('survived', []))
		self.assertEqual(got['genetlink.c:21:rel:0'], ('survived', []))
		self.assertEqual(got['genetlink.c:21:const:0'], ('survived', []))
		# the fallback and the dropped mutant, batch by batch (a KUnit
		# survivor of fa in its kselftest batch too)
		self.assertEqual(sorted(i for b in batched for i in b),
				 ['max31760.c:11:const:0', 'max31760.c:11:const:0',
				  'max31760.c:30:const:1'])
		# builds: the failed one, the KUnit baseline, one KUnit loop, the
		# kselftest baseline, the loop the crash ended, the loop after it
		loops = [[w for w in c if w.startswith('kconform.')] for c in fake.calls]
		n = boots.schemata.numbers

		def ranges(*ids: str) -> str:
			# each loop between two runs with no mutant on
			return schemata.ranges([0, *(n[i] for i in ids), 0])

		DEADLINE = f'{schemata.DEADLINE_PARAM}=60'
		# fb's loop: the crash (16:true:0) ends the first boot
		fb_ids = ['genetlink.c:16:false:0', 'genetlink.c:16:rel:0', 'genetlink.c:16:true:0',
			  'genetlink.c:21:const:0', 'genetlink.c:21:rel:0', 'genetlink.c:9:const:0']

		self.assertEqual(loops, [
			[], [],
			[f'kconform.mutants={ranges("max31760.c:23:errno:0", "max31760.c:30:const:0")}',
			 'kconform.kunit_suites=fa'],
			[],
			# the KUnit kill (30:const:0) is not in the kselftest loop
			# (each mutant's tests killed past its share, 60 s)
			[f'kconform.mutants={ranges("max31760.c:23:errno:0")}', DEADLINE],
			[f'kconform.mutants={ranges(*fb_ids)}', DEADLINE],
			[f'kconform.mutants={ranges(*fb_ids[3:])}', DEADLINE]])
		# a loop's timeout, and the silence that ends it sooner when a
		# mutant wedged the kernel
		self.assertEqual(fake.calls[2][-4:], ['--kunit-timeout', str(
			schemata.LOOP_BASE + 4 * schemata.PER_KUNIT_MUTANT),
			'--silence-timeout', '300'])
		self.assertEqual(fake.calls[5][-4:], ['--guest-timeout', str(
			schemata.LOOP_BASE + 8 * 60), '--silence-timeout', '300'])
		# schemata.txt: the dropped mutant with why, beside the fallback
		text = schemata.report(chosen, boots)
		self.assertIn('  max31760.c:30:const:1 [fa]: its switch does not compile', text)
		self.assertIn('  max31760.c:11:const:0 [fa]: a declaration (an array size, a static)',
			      text)
		self.assertEqual(text[1].split()[:3], ['fa', '4', '2'])


if __name__ == '__main__':
	unittest.main()
