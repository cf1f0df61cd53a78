# SPDX-License-Identifier: GPL-2.0
"""tools/testing/README.md maps every module of the runner, one line
each: a module added without its line fails here."""

import unittest
from pathlib import Path

KCONFORM = Path(__file__).resolve().parents[1]


class ModuleMapTest(unittest.TestCase):

	def test_every_module_has_its_line(self) -> None:
		text = (KCONFORM.parent / 'README.md').read_text()
		lacking = [p.name for p in sorted(KCONFORM.glob('*.py'))
			   if p.name != '__init__.py' and f'`{p.name}`' not in text]
		self.assertEqual(lacking, [])


if __name__ == '__main__':
	unittest.main()
