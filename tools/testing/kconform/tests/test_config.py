# SPDX-License-Identifier: GPL-2.0
"""Config fragments and the suite registry."""

import tempfile
import unittest
from pathlib import Path

from kconform import kconfig, suites
from kconform.model import KconformError


class KconfigTest(unittest.TestCase):

	def test_dropped_symbol_is_named(self) -> None:
		want = 'CONFIG_KUNIT=y\nCONFIG_TCP_EHASH_KUNIT_TEST=y\n# CONFIG_SLOB is not set\n'
		have = 'CONFIG_KUNIT=y\n# CONFIG_TCP_EHASH_KUNIT_TEST is not set\n'
		self.assertEqual(list(kconfig.lost(want, have).values()),
				 ['CONFIG_TCP_EHASH_KUNIT_TEST=y (.config has '
				  'CONFIG_TCP_EHASH_KUNIT_TEST=n)'])

	def test_value_mismatch(self) -> None:
		self.assertEqual(list(kconfig.lost('CONFIG_NR_CPUS=8\n', 'CONFIG_NR_CPUS=64\n').values()),
				 ['CONFIG_NR_CPUS=8 (.config has CONFIG_NR_CPUS=64)'])

	def test_later_fragment_wins(self) -> None:
		tmp = Path(tempfile.mkdtemp())
		(tmp / 'a').write_text('CONFIG_A=y\n')
		(tmp / 'b').write_text('# CONFIG_A is not set\n')
		self.assertEqual(kconfig.parse(kconfig.merge([tmp / 'a', tmp / 'b'])),
				 {'CONFIG_A': 'n'})


class RegistryTest(unittest.TestCase):

	def setUp(self) -> None:
		self.repo = Path(tempfile.mkdtemp())
		(self.repo / 'kunitconfig').mkdir()
		(self.repo / 'kselftests/both').mkdir(parents=True)
		(self.repo / 'kunitconfig/both.config').write_text('CONFIG_KUNIT=y\n')
		(self.repo / 'kunitconfig/ku.config').write_text('CONFIG_KUNIT=y\n')

	def test_conventions(self) -> None:
		(self.repo / 'suites.toml').write_text(
			'[both]\nrequires = [["net/x.c", "sym"]]\n'
			'[ku]\nkunit = ["ku_a", "ku_b"]\n')
		got = {s.name: s for s in suites.load(self.repo)}
		self.assertEqual(got['both'].kunit, ('both',))
		self.assertEqual(got['both'].kselftest, 'both')
		self.assertEqual(got['both'].requires, (('net/x.c', 'sym'),))
		self.assertEqual(got['ku'].kunit, ('ku_a', 'ku_b'))
		self.assertIsNone(got['ku'].kselftest)
		with self.assertRaisesRegex(KconformError, '--suite nope: unknown suite'):
			suites.select(list(got.values()), ['nope'])

	def test_cmdline(self) -> None:
		(self.repo / 'suites.toml').write_text('[both]\ncmdline = "slub_debug=A"\n')
		self.assertEqual(suites.load(self.repo)[0].cmdline, 'slub_debug=A')

	def test_entry_without_files(self) -> None:
		(self.repo / 'suites.toml').write_text('[ghost]\n')
		with self.assertRaisesRegex(KconformError, 'ghost has neither'):
			suites.load(self.repo)


if __name__ == '__main__':
	unittest.main()
