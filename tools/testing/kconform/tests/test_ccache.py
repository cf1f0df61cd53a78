# SPDX-License-Identifier: GPL-2.0
"""ccache's remote storage, for real: Debian's redis-server on 127.0.0.1,
two checkouts in other folders, two empty local caches."""

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path
from typing import Dict

from kconform import ccache, report
from kconform.model import Case, Status, Suite

SHARED_CHECK = Path(__file__).resolve().parents[5] / 'shared/tools/check-results'
SOURCES = 3


def free_port() -> int:
	with socket.socket() as s:
		s.bind(('127.0.0.1', 0))
		port: int = s.getsockname()[1]
		return port


def answers(port: int) -> bool:
	try:
		with socket.create_connection(('127.0.0.1', port), timeout=1) as s:
			s.sendall(b'PING\r\n')
			return s.recv(16).startswith(b'+PONG')
	except OSError:
		return False


class Redis:
	"""redis-server on a free port of 127.0.0.1, nothing saved to disk."""

	def __init__(self, folder: Path) -> None:
		self.port = free_port()
		self.proc = subprocess.Popen(
			['redis-server', '--bind', '127.0.0.1', '--port', str(self.port),
			 '--save', '', '--appendonly', 'no', '--dir', str(folder)],
			stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

	def up(self, timeout: float = 10.0) -> bool:
		end = time.monotonic() + timeout
		while time.monotonic() < end and self.proc.poll() is None:
			if answers(self.port):
				return True
			time.sleep(0.1)
		return False

	def stop(self) -> None:
		self.proc.terminate()
		try:
			self.proc.wait(10)
		except subprocess.TimeoutExpired:
			self.proc.kill()
			self.proc.wait()

	@property
	def url(self) -> str:
		return f'redis://127.0.0.1:{self.port}'


def checkout(cache: Path) -> Path:
	"""A tree and its O= build folder inside a kconform cache folder, as
	the runner lays them out (work/debian/linux, work/debian/build/)."""
	tree = cache / 'work/debian/linux'
	(tree / 'include').mkdir(parents=True)
	(tree / 'lib').mkdir()
	(tree / 'include/answer.h').write_text('#define ANSWER 42\n')
	(tree / 'include/kconfig.h').write_text('#define CONFIG_X 1\n')
	for i in range(SOURCES):
		(tree / f'lib/f{i}.c').write_text(
			'#include <answer.h>\n'
			f'int f{i}(void) {{ return ANSWER + CONFIG_X + {i}; }}\n')
	build = cache / 'work/debian/build/default'
	(build / 'lib').mkdir(parents=True)
	return build


def compile_all(cache: Path, env: Dict[str, str]) -> Dict[str, int]:
	"""kbuild's way: from the build folder, absolute -I and -include, -g;
	what the compiles took from ccache."""
	build = checkout(cache)
	tree = cache / 'work/debian/linux'
	got: Dict[str, Dict[str, int]] = {}
	with ccache.measured(got, 'kernel', env):
		for i in range(SOURCES):
			subprocess.run(['ccache', 'clang', f'-Wp,-MMD,lib/.f{i}.o.d',
					f'-I{tree}/include', '-include', f'{tree}/include/kconfig.h',
					'-g', '-O2', '-c', '-o', f'lib/f{i}.o', f'{tree}/lib/f{i}.c'],
				       cwd=build, env=env, check=True)
	return got['kernel']


@unittest.skipUnless(shutil.which('ccache') and shutil.which('clang'),
		     'needs ccache and clang (make deps)')
class RemoteStorageTest(unittest.TestCase):

	def setUp(self) -> None:
		self.tmp = Path(tempfile.mkdtemp())
		self.addCleanup(shutil.rmtree, self.tmp, True)
		if not shutil.which('redis-server'):
			self.skipTest('redis-server is not installed (make deps-tests)')
		(self.tmp / 'redis').mkdir()
		self.redis = Redis(self.tmp / 'redis')
		self.addCleanup(self.redis.stop)
		if not self.redis.up():
			self.skipTest(f'redis-server did not answer on 127.0.0.1:{self.redis.port}')

	def env(self, cache: Path, settings: bool = True) -> Dict[str, str]:
		env = {k: v for k, v in os.environ.items() if not k.startswith('CCACHE_')}
		ccache.setup(cache, self.redis.url, env)
		if not settings:
			del env['CCACHE_BASEDIR'], env['CCACHE_NOHASHDIR']
		return env

	def test_second_checkout_hits_the_remote(self) -> None:
		alice = self.tmp / 'home/alice/.cache/kconform'
		runner = self.tmp / 'builds/group/project/cache'
		first = compile_all(alice, self.env(alice))
		self.assertEqual((first['cache_miss'], first['remote_storage_hit']), (SOURCES, 0))
		second = compile_all(runner, self.env(runner))
		self.assertEqual((second['cache_miss'], second['remote_storage_hit'],
				  second['local_storage_hit']), (0, SOURCES, 0), second)
		self.assertEqual(ccache.lines(ccache.record({'kernel': second}, self.env(runner))),
				 [f'ccache (remote {self.redis.url}):',
				  f'   kernel: {SOURCES} compiles, {SOURCES} hits (0 local, '
				  f'{SOURCES} remote), 0 misses'])
		# the same checkout again: its own local cache answers
		again = self.tmp / 'again'
		shutil.copytree(runner / 'ccache', again / 'ccache')
		third = compile_all(again, self.env(again))
		self.assertEqual((third['local_storage_hit'], third['remote_storage_hit']),
				 (SOURCES, 0))

	def test_without_the_settings_no_checkout_hits_another(self) -> None:
		"""Why setup sets CCACHE_BASEDIR and CCACHE_NOHASHDIR."""
		alice = self.tmp / 'home/alice/.cache/kconform'
		runner = self.tmp / 'builds/group/project/cache'
		compile_all(alice, self.env(alice, settings=False))
		second = compile_all(runner, self.env(runner, settings=False))
		self.assertEqual((second['cache_miss'], second['remote_storage_hit']), (SOURCES, 0))


class SetupTest(unittest.TestCase):

	def test_option_sets_the_remote_and_keeps_the_environment(self) -> None:
		env = {'CCACHE_DIR': '/elsewhere', 'CCACHE_REMOTE_STORAGE': 'file:///x'}
		ccache.setup(Path('/c'), None, env)
		self.assertEqual(env, {'CCACHE_DIR': '/elsewhere', 'CCACHE_MAXSIZE': '8G',
				       'CCACHE_BASEDIR': '/c', 'CCACHE_NOHASHDIR': 'true',
				       'CCACHE_REMOTE_STORAGE': 'file:///x'})
		ccache.setup(Path('/c'), 'redis://u:secret@h:6379', env)
		self.assertEqual(env['CCACHE_REMOTE_STORAGE'], 'redis://u:secret@h:6379')
		self.assertEqual(ccache.record({}, env)['remote'], 'redis://h:6379')

	def test_results_and_summary_keep_each_build(self) -> None:
		s = Suite('tcp_ehash', 'kunit', [Case('roundup', Status.PASS)])
		s.settle()
		rep = report.RunReport(kernel=report.KernelInfo('s', 'v'), accel='tcg', suites=[s])
		rep.ccache['kernel'] = {'direct_cache_hit': 90, 'preprocessed_cache_hit': 5,
					'cache_miss': 5, 'local_storage_hit': 15,
					'remote_storage_hit': 80, 'remote_storage_error': 1}
		tmp = Path(tempfile.mkdtemp())
		self.addCleanup(shutil.rmtree, tmp)
		report.write_json(rep, tmp / 'results.json')
		doc = json.loads((tmp / 'results.json').read_text())
		self.assertEqual(doc['ccache']['builds']['kernel']['remote_storage_hit'], 80)
		self.assertIn('   kernel: 100 compiles, 95 hits (15 local, 80 remote), '
			      '5 misses, 1 remote errors', report.summary(rep))
		if SHARED_CHECK.exists():
			r = subprocess.run([sys.executable, str(SHARED_CHECK), str(tmp / 'results.json')],
					   capture_output=True, text=True, check=False)
			self.assertEqual(r.returncode, 0, r.stdout)


if __name__ == '__main__':
	unittest.main()
