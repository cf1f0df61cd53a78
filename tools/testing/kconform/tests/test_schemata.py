# SPDX-License-Identifier: GPL-2.0
"""Mutant schemata (schemata.py): the switched form of real lines of
the features' files (test_data/schemata/: verifier.c, genetlink.c,
max31760.c as the series leaves them), what falls back to the build per
batch, that the patch applies and compiles (forms.c, with gcc when there
is one), and the compiler errors mapped back to mutants (no kernel)."""

import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path
from typing import Dict, List

from kconform import mutate, schemata

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
		s = build('genetlink.c', 'max31760.c', 'verifier.c')
		self.assertEqual(s.fallback['genetlink.c:21:rel:0'],
				 'a line of a statement over several lines')
		# `case 2:` and `u8 reg_val[2];`: constant expressions
		self.assertEqual(s.fallback['max31760.c:76:const:0'],
				 'a case label (a constant expression)')
		self.assertEqual(s.fallback['max31760.c:11:const:0'],
				 'a declaration (an array size, several declarators, static)')
		# verifier.c's `case PTR_TO_MEM | MEM_RDONLY:`: a label
		self.assertIn('verifier.c:46:flag:0', s.fallback)
		self.assertFalse(set(s.fallback) & set(s.numbers))

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
			untouched = {l for _, l in s.lines}
			self.assertEqual([l for i, l in enumerate(lines_of(name), 1)
					  if i not in untouched],
					 [l for i, l in enumerate(new[1:], 1) if i not in untouched])

	def test_one_number_per_id_in_the_order_given(self) -> None:
		# verifier.c's mutants under two features (bpf_security and
		# bpf_user_ringbuf name the file): one switch each
		ms = mutants('verifier.c', 'bpf_security') + mutants('verifier.c', 'bpf_user_ringbuf')
		s = schemata.build(ms, lines_of)
		self.assertEqual(sorted(s.numbers.values()), list(range(1, len(s.numbers) + 1)))
		self.assertEqual(len(s.numbers) + len(s.fallback), len(ms) // 2)

	@unittest.skipUnless(shutil.which('gcc'), 'no gcc')
	def test_the_switched_file_compiles_with_the_real_header(self) -> None:
		s = build('forms.c')
		self.assertEqual(set(s.forms.values()), set(schemata.FORMS))
		with tempfile.TemporaryDirectory() as tmp:
			inc = Path(tmp) / 'linux'
			inc.mkdir()
			shutil.copy(schemata.KERNEL_FILES / 'kconform_mutant.h', inc)
			(inc / 'compiler.h').write_text(
				'#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))\n')
			(Path(tmp) / 'forms.c').write_text('\n'.join(after(s, 'forms.c')) + '\n')
			r = subprocess.run(['gcc', '-fsyntax-only', '-Wall', '-Werror',
					    '-Wno-unused-label', f'-I{tmp}', 'forms.c'],
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


class SummaryTest(unittest.TestCase):

	def test_per_feature_switched_by_form_and_fallback_reasons(self) -> None:
		ms = mutants('genetlink.c', 'netlink_intro') + mutants('max31760.c', 'hwmon_max31760')
		s = schemata.build(ms, lines_of)
		out = schemata.summary(ms, s)
		self.assertEqual(out[0].split(), ['feature', 'mutants', 'switched', *schemata.FORMS,
						  'fallback'])
		row = out[2].split()
		self.assertEqual(row[0], 'netlink_intro')
		self.assertEqual(int(row[1]), int(row[2]) + int(row[6]))
		self.assertTrue(any(l.startswith('fallback: ') and 'case label' in l for l in out))


if __name__ == '__main__':
	unittest.main()
