# SPDX-License-Identifier: GPL-2.0
"""archive.py: apt-cache's answers, fetch and unpack once (no network:
apt is stood in for; the .deb is a tiny one made by dpkg-deb -b)."""

import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path
from typing import Any, List, Sequence
from unittest import mock

from kconform import archive, proc
from kconform.model import InputError

DATA = Path(__file__).parent / 'test_data' / 'image'
REAL_CHECK = proc.check


def make_deb(where: Path, package: str, version: str, files: Sequence[str]) -> Path:
	"""A .deb holding the files given (each with its own path as text)."""
	root = where / f'build-{package}'
	(root / 'DEBIAN').mkdir(parents=True)
	(root / 'DEBIAN/control').write_text(
		f'Package: {package}\nVersion: {version}\nArchitecture: amd64\n'
		'Maintainer: kconform <kconform@example.org>\nDescription: test\n')
	for f in files:
		(root / f).parent.mkdir(parents=True, exist_ok=True)
		(root / f).write_text(f + '\n')
	deb = where / f'{package}_{version}_amd64.deb'
	subprocess.run(['dpkg-deb', '--root-owner-group', '-b', str(root), str(deb)],
		       check=True, capture_output=True)
	shutil.rmtree(root)
	return deb


class ParseTest(unittest.TestCase):

	def test_candidate_and_versions_of_recorded_policy(self) -> None:
		policy = (DATA / 'policy-linux-image-amd64.txt').read_text()
		self.assertEqual(archive.candidate(policy), '6.1.192-3')
		self.assertEqual(archive.versions(policy), ['6.1.192-3', '6.1.176-1'])

	def test_installed_version_is_listed_too(self) -> None:
		policy = ('linux-image-amd64:\n  Installed: 6.1.176-1\n  Candidate: 6.1.192-3\n'
			  '  Version table:\n     6.1.192-3 500\n        500 http://x bookworm/main\n'
			  ' *** 6.1.176-1 100\n        100 /var/lib/dpkg/status\n')
		self.assertEqual(archive.versions(policy), ['6.1.192-3', '6.1.176-1'])

	def test_no_candidate(self) -> None:
		self.assertIsNone(archive.candidate('x:\n  Installed: (none)\n  Candidate: (none)\n'))

	def test_depends_of_recorded_meta_package(self) -> None:
		show = (DATA / 'show-linux-image-amd64.txt').read_text()
		self.assertEqual(archive.depends(show), [('linux-image-6.1.0-57-amd64', '6.1.192-3')])

	def test_depends_alternatives_and_ranges(self) -> None:
		show = ('Package: a\nDepends: kmod, linux-base (>= 4.3~), initramfs-tools | '
			'linux-initramfs-tool,\n libc6:any (= 2.36-9)\n\nPackage: b\nDepends: z\n')
		self.assertEqual(archive.depends(show), [
			('kmod', None), ('linux-base', None), ('initramfs-tools', None),
			('libc6', '2.36-9')])


class FetchTest(unittest.TestCase):

	def setUp(self) -> None:
		self.tmp = Path(tempfile.mkdtemp())
		self.addCleanup(shutil.rmtree, self.tmp)
		self.cache = self.tmp / 'cache'
		self.logs = self.tmp / 'logs'
		self.logs.mkdir()
		self.deb = make_deb(self.tmp, 'linux-image-6.1.0-57-amd64', '6.1.192-3',
				    ['boot/vmlinuz-6.1.0-57-amd64'])
		self.downloads: List[str] = []

	def fake_check(self, argv: Sequence[str], log: Path, timeout: float, what: str,
		       cwd: Any = None, env: Any = None) -> proc.Run:
		if argv[:2] == ['apt-get', 'download']:
			self.downloads.append(argv[-1])
			shutil.copy(self.deb, cwd)
			return proc.Run(list(argv), [], 0, False, 0.0, log)
		return REAL_CHECK(argv, log, timeout, what, cwd=cwd, env=env)

	def fetch(self, version: Any) -> archive.Unpacked:
		policy = (DATA / 'policy-linux-image-amd64.txt').read_text()
		with mock.patch.object(archive, '_query', return_value=policy), \
		     mock.patch.object(proc, 'check', side_effect=self.fake_check):
			return archive.fetch('linux-image-6.1.0-57-amd64', version,
					     self.cache, self.logs)

	def test_download_unpack_once_keyed_by_name_and_version(self) -> None:
		got = self.fetch(None)
		self.assertEqual((got.package, got.version), ('linux-image-6.1.0-57-amd64',
							      '6.1.192-3'))
		self.assertEqual(got.root, self.cache / 'packages' /
				 'linux-image-6.1.0-57-amd64_6.1.192-3' / 'root')
		self.assertEqual((got.root / 'boot/vmlinuz-6.1.0-57-amd64').read_text(),
				 'boot/vmlinuz-6.1.0-57-amd64\n')
		self.assertEqual(self.downloads, ['linux-image-6.1.0-57-amd64=6.1.192-3'])
		# the spool is gone, the unpacked folder stays and is reused
		self.assertFalse((got.root.parent / 'download').exists())
		again = self.fetch('6.1.192-3')
		self.assertEqual(again.root, got.root)
		self.assertEqual(len(self.downloads), 1)

	def test_unknown_version_is_named_with_the_known_ones(self) -> None:
		with self.assertRaises(InputError) as e:
			self.fetch('6.1.99-1')
		self.assertIn('6.1.192-3, 6.1.176-1', str(e.exception))
		self.assertEqual(self.downloads, [])

	def test_interrupted_unpack_is_redone(self) -> None:
		got = self.fetch(None)
		(got.root / archive.DONE).unlink()
		self.fetch(None)
		self.assertEqual(len(self.downloads), 2)
		self.assertTrue((got.root / archive.DONE).exists())

	def test_local_deb_keyed_by_content(self) -> None:
		got = archive.fetch_deb(self.deb, self.cache, self.logs)
		self.assertEqual((got.package, got.version), ('linux-image-6.1.0-57-amd64',
							      '6.1.192-3'))
		self.assertTrue((got.root / 'boot/vmlinuz-6.1.0-57-amd64').is_file())
		other = make_deb(self.tmp / 'x', 'linux-image-6.1.0-57-amd64', '6.1.192-3',
				 ['boot/vmlinuz-6.1.0-57-amd64', 'boot/extra'])
		got2 = archive.fetch_deb(other, self.cache, self.logs)
		self.assertNotEqual(got.root, got2.root)
		self.assertTrue((got2.root / 'boot/extra').is_file())

	def test_not_a_deb(self) -> None:
		junk = self.tmp / 'junk.deb'
		junk.write_text('no\n')
		with self.assertRaises(InputError):
			archive.fetch_deb(junk, self.cache, self.logs)


if __name__ == '__main__':
	unittest.main()
