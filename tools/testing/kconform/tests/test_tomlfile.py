# SPDX-License-Identifier: GPL-2.0
"""Every TOML file of the project is read by one strict loader
(tomlfile.py): a bad file is an error naming the file, the table and the
key, whichever loader reads it, never a traceback or a silent default."""

import tempfile
import unittest
from pathlib import Path

from kconform import fixes, gate, guest, mutate
from kconform.model import InputError, KconformError


class StrictLoaderTest(unittest.TestCase):

	def setUp(self) -> None:
		self.tmp = Path(tempfile.mkdtemp())

	def write(self, name: str, data: bytes) -> Path:
		path = self.tmp / name
		path.parent.mkdir(parents=True, exist_ok=True)
		path.write_bytes(data)
		return path

	def test_variants(self) -> None:
		for text, says in ((b'default = 3\n', '[default]: expected a table'),
				   (b'[default]\n\xff = 1\n', 'variants.toml: ')):
			with self.subTest(text):
				self.write(guest.VARIANTS, text)
				with self.assertRaisesRegex(KconformError, says.replace('[', r'\[')):
					guest.variants(self.tmp)

	def test_fixes(self) -> None:
		patch = '0101-x.patch'
		self.write(patch, b'+++ b/a.c\n')
		for text, says in ((b'["0101-x.patch"]\nupstream = ""\neffect = "e"\n'
				    b'guards = []\nnote = "n"\nefect = "typo"\n',
				    r'\[0101-x.patch\]: unknown key efect \(known: affected'),
				   (b'["0101-x.patch"]\nnote = "\xff"\n', 'fixes.toml: ')):
			with self.subTest(text):
				self.write('fixes.toml', text)
				with self.assertRaisesRegex(KconformError, says):
					fixes.load(self.tmp, [patch])

	def test_equivalents_name_the_key(self) -> None:
		path = self.write('eq.toml', b'["fs/stat.c:12:rel:0"]\nreason = "r"\n'
				  b'until = 2027-01-01\n')
		with self.assertRaisesRegex(InputError, r'--equivalents .*eq.toml: '
					    r"\[fs/stat.c:12:rel:0\]: unknown key until"):
			mutate.load_equivalents(path)

	def test_known_issues_name_the_entry_and_key(self) -> None:
		path = self.write('k.toml', b'[[issue]]\nsuite = "s"\ncase = "c"\n'
				  b'reason = "r"\nuntil = 2027-01-01\ncases = "x"\n')
		with self.assertRaisesRegex(InputError, r'--known-issues .*k.toml: issue #1: '
					    r'unknown key cases \(known: accel'):
			gate.load_known(path)


if __name__ == '__main__':
	unittest.main()
