# SPDX-License-Identifier: GPL-2.0
"""Deriving the patched tree with quilt, on a tiny fake kernel tree."""

import shutil
import tempfile
import time
import unittest
from pathlib import Path

from kconform import export, proc, tree
from kconform.model import KconformError

PATCH_OK = """From: kconform <kconform@example.org>
Subject: [PATCH] demo: say hello

Signed-off-by: kconform <kconform@example.org>
---
 a.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

--- a/a.c
+++ b/a.c
@@ -1,3 +1,3 @@
 int a;
-int b;
+int hello;
 int c;
"""

PATCH_BAD = PATCH_OK.replace('-int b;', '-int nothere;')


@unittest.skipUnless(shutil.which('quilt') and shutil.which('rsync') and shutil.which('git'),
		     'needs quilt, rsync and git (make deps installs them)')
class LogTailTest(unittest.TestCase):

	def test_first_error_comes_first(self) -> None:
		lines = ['make: Entering directory\n', '*** Rust compiler is too new\n',
			 '  CC      lib/error-inject.o\n',
			 'error[E0599]: no function named `try_with_capacity`\n',
			 '  --> samples/rust/rust_minimal.rs:24:35\n',
			 'make[1]: *** [Makefile:2065: .] Error 2\n']
		r = proc.Run([], lines, 2, False, 0.0, Path('x'))
		self.assertTrue(r.tail().startswith('error[E0599]'))
		self.assertEqual(proc.Run([], lines[:3], 2, False, 0.0, Path('x')).tail(2), ''.join(lines[1:3]))


class DeriveTest(unittest.TestCase):

	def setUp(self) -> None:
		self.tmp = Path(tempfile.mkdtemp())
		self.repo = self.tmp / 'repo'
		(self.repo / 'patches').mkdir(parents=True)
		(self.repo / 'kunit/lib').mkdir(parents=True)
		(self.repo / 'kselftests/demo').mkdir(parents=True)
		(self.repo / 'kunit/lib/demo_test.c').write_text('// test\n')
		(self.repo / 'kselftests/demo/Makefile').write_text('# make\n')
		self.pristine = self.tmp / 'pristine'
		self.pristine.mkdir()
		(self.pristine / 'a.c').write_text('int a;\nint b;\nint c;\n')
		(self.pristine / 'z.c').write_text('int z;\n')
		self.src = tree.Source('fake', self.pristine, self.tmp / 'work')
		self.layout = tree.Layout(self.repo)

	def write_series(self, body: str) -> None:
		(self.repo / 'patches/0001-demo.patch').write_text(body)
		(self.repo / 'patches/series').write_text('# demo\n0001-demo.patch\n')

	def test_applies_overlays_and_caches(self) -> None:
		self.write_series(PATCH_OK)
		digest, changed = tree.derive(self.layout, self.src, self.tmp / 'log')
		self.assertTrue(changed)
		t = self.src.tree
		self.assertIn('int hello;', (t / 'a.c').read_text())
		self.assertEqual((t / 'lib/demo_test.c').read_text(), '// test\n')
		self.assertTrue((t / 'tools/testing/selftests/demo/Makefile').exists())
		self.assertFalse((t / '.pc').exists())
		self.assertEqual((self.pristine / 'a.c').read_text(), 'int a;\nint b;\nint c;\n')
		again, changed = tree.derive(self.layout, self.src, self.tmp / 'log')
		self.assertEqual((again, changed), (digest, False))

	def test_unchanged_files_keep_their_timestamps(self) -> None:
		self.write_series(PATCH_OK)
		tree.derive(self.layout, self.src, self.tmp / 'log')
		z = self.src.tree / 'z.c'
		old = z.stat().st_mtime_ns
		time.sleep(0.05)
		(self.repo / 'kunit/lib/demo_test.c').write_text('// test 2\n')
		_, changed = tree.derive(self.layout, self.src, self.tmp / 'log')
		self.assertTrue(changed)
		self.assertEqual(z.stat().st_mtime_ns, old)

	def test_an_overlay_change_is_written_in_place(self) -> None:
		self.write_series(PATCH_OK)
		tree.derive(self.layout, self.src, self.tmp / 'log')
		kernel = tree.series_digest(self.layout, self.src, selftests=False)
		(self.repo / 'kselftests/demo/Makefile').write_text('# make 2\n')
		(self.repo / 'kselftests/demo/new.c').write_text('int n;\n')
		# No copy of the pristine tree: it could not be copied now.
		(self.pristine / 'a.c').rename(self.tmp / 'a.c')
		try:
			_, changed = tree.derive(self.layout, self.src, self.tmp / 'log')
		finally:
			(self.tmp / 'a.c').rename(self.pristine / 'a.c')
		self.assertIn('int hello;', (self.src.tree / 'a.c').read_text())
		self.assertTrue(changed)
		t = self.src.tree / 'tools/testing/selftests/demo'
		self.assertEqual((t / 'Makefile').read_text(), '# make 2\n')
		self.assertEqual((t / 'new.c').read_text(), 'int n;\n')
		self.assertEqual(tree.series_digest(self.layout, self.src, selftests=False),
				 kernel)
		(self.repo / 'kselftests/demo/new.c').unlink()
		tree.derive(self.layout, self.src, self.tmp / 'log')
		self.assertFalse((t / 'new.c').exists())
		self.assertEqual(tree.derive(self.layout, self.src, self.tmp / 'log')[1], False)
		# A KUnit test file is written in place too; it is the kernel's
		self.assertEqual(tree.series_digest(self.layout, self.src, selftests=False),
				 kernel)
		(self.repo / 'kunit/lib/demo_test.c').write_text('// test 3\n')
		self.assertNotEqual(tree.series_digest(self.layout, self.src, selftests=False),
				    kernel)
		(self.pristine / 'a.c').rename(self.tmp / 'a.c')
		try:
			self.assertTrue(tree.derive(self.layout, self.src, self.tmp / 'log')[1])
		finally:
			(self.tmp / 'a.c').rename(self.pristine / 'a.c')
		self.assertEqual((self.src.tree / 'lib/demo_test.c').read_text(), '// test 3\n')
		# a patch that changed takes the whole way again
		self.write_series(PATCH_OK.replace('int hello;', 'int hullo;'))
		tree.derive(self.layout, self.src, self.tmp / 'log')
		self.assertIn('int hullo;', (self.src.tree / 'a.c').read_text())

	def test_the_user_space_s_tree_leaves_out_kunit_tests_only(self) -> None:
		"""A KUnit test's own source reaches the user space only through
		the build; its headers, the kselftests and the patches do not."""
		self.write_series(PATCH_OK)
		(self.repo / 'kunit/lib/demo_test_root.dts').write_text('/dts-v1/;\n')
		(self.repo / 'kunit/lib/demo_test.h').write_text('int h;\n')

		def digest() -> str:
			return tree.series_digest(self.layout, self.src, kunit_tests=False)
		before = digest()
		kernel = tree.series_digest(self.layout, self.src, selftests=False)
		(self.repo / 'kunit/lib/demo_test.c').write_text('// a message changed\n')
		(self.repo / 'kunit/lib/other_test.c').write_text('// a new test\n')
		(self.repo / 'kunit/lib/demo_test_root.dts').write_text('/dts-v1/; / { };\n')
		self.assertEqual(digest(), before)
		self.assertNotEqual(tree.series_digest(self.layout, self.src, selftests=False),
				    kernel)
		for f, text in (('kunit/lib/demo_test.h', 'int h2;\n'),
				('kunit/lib/demo.c', 'int not_a_test;\n'),
				('kselftests/demo/Makefile', '# make 2\n')):
			(self.repo / f).write_text(text)
			self.assertNotEqual(digest(), before, f)
			before = digest()
		self.write_series(PATCH_OK.replace('int hello;', 'int hullo;'))
		self.assertNotEqual(digest(), before)

	def test_patch_that_does_not_apply_is_named_with_its_hunk(self) -> None:
		self.write_series(PATCH_OK)
		tree.derive(self.layout, self.src, self.tmp / 'log')
		self.write_series(PATCH_BAD)
		with self.assertRaises(KconformError) as ctx:
			tree.derive(self.layout, self.src, self.tmp / 'log')
		msg = str(ctx.exception)
		self.assertIn('patch 0001-demo.patch does not apply', msg)
		self.assertIn('-int nothere;', msg)
		# The build tree keeps the last good derivation, not a half one.
		self.assertIn('int hello;', (self.src.tree / 'a.c').read_text())
		self.assertFalse(list(self.src.tree.rglob('*.rej')))

	def test_export_is_git_am_able(self) -> None:
		# The hook patch names demo_test; its source joins that commit.
		self.write_series(PATCH_OK.replace('int hello;', 'int demo_test;'))
		files = export.export(self.layout, self.src, self.tmp / 'git',
				      self.tmp / 'out', self.tmp / 'log')
		names = [f.name for f in files]
		self.assertEqual(names[0], '0000-cover-letter.patch')
		self.assertEqual(len(names), 3)
		first = files[1].read_text()
		self.assertIn('demo: say hello', first)
		self.assertIn('lib/demo_test.c', first)
		self.assertIn('tools/testing/selftests/demo/Makefile', files[2].read_text())
		self.assertIn('base-commit:', files[0].read_text())

	def test_missing_code_is_named(self) -> None:
		self.assertEqual(tree.missing_code(self.pristine, [('a.c', 'int b;'),
								    ('a.c', 'int q;'),
								    ('no.c', None)]),
				 ["a.c has no 'int q;'", 'no.c does not exist'])


if __name__ == '__main__':
	unittest.main()
