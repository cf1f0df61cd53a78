# SPDX-License-Identifier: GPL-2.0
"""Coverage: seed diff -> current lines, lcov/gcov parsing, the console's
gcov block, the table, and the report in headless chromium.

Recorded data (test_data/coverage/): seed 007's diff and 6.1.192's
fs/stat.c (a hunk still whole in the file, moved 15 lines); seed 002's
kernel/bpf/cgroup_iter.c hunk and the tree's file (a new file changed
since: enums renamed, a static made VISIBLE_IF_KUNIT by the series);
demo.c compiled by clang --coverage, its llvm-cov gcov output and the
.info that geninfo made from it with `llvm-cov gcov` as its gcov tool.
"""

import base64
import io
import shutil
import subprocess
import tarfile
import tempfile
import unittest
from pathlib import Path
from typing import Dict, List
from unittest import mock

from kconform import coverage
from kconform.model import KconformError

DATA = Path(__file__).parent / 'test_data' / 'coverage'
REPO = Path(__file__).resolve().parents[4]


def text(name: str) -> str:
	return (DATA / name).read_text()


class MapTest(unittest.TestCase):

	def test_whole_hunk_maps_where_it_moved(self) -> None:
		hunks = coverage.parse_diff(text('seed-007.patch'))
		self.assertEqual(sorted(hunks), ['fs/stat.c', 'include/linux/stat.h',
						 'include/uapi/linux/stat.h'])
		self.assertEqual(hunks['fs/stat.c'][0].new_start, 611)
		got, gone = coverage.map_hunks(hunks['fs/stat.c'],
					       text('stat.c').splitlines())
		# 613-614 in the commit's file; 626-627 in 6.1.192's
		self.assertEqual((got, gone), ([626, 627], 0))

	def test_changed_file_maps_line_by_line(self) -> None:
		hunks = coverage.parse_diff(text('seed-002-cgroup_iter.patch'))
		cur = text('cgroup_iter.c').splitlines()
		got, gone = coverage.map_hunks(hunks['kernel/bpf/cgroup_iter.c'], cur)
		self.assertEqual((len(got), gone), (236, 5))
		# renamed since the commit: the most similar line in its place
		self.assertIn(79, got)
		self.assertEqual(cur[78].strip(),
				 'if (p->order == BPF_CGROUP_ITER_DESCENDANTS_PRE)')
		# unchanged lines map to themselves; the license line is line 1
		self.assertEqual(got[0], 1)
		self.assertIn(cur.index('static void *cgroup_iter_seq_start(struct '
					'seq_file *seq, loff_t *pos)') + 1, got)
		# the series' lines are not the seed's
		self.assertNotIn(cur.index('EXPORT_SYMBOL_IF_KUNIT(cgroup_iter_seq_info);') + 1
				 if 'EXPORT_SYMBOL_IF_KUNIT(cgroup_iter_seq_info);' in cur
				 else -1, got)

	def test_shift_and_deleted_line(self) -> None:
		diff = ('diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n'
			'@@ -1,3 +1,4 @@\n a();\n+b();\n c();\n d();\n'
			'@@ -10,2 +11,3 @@\n x();\n+y();\n+gone();\n z();\n')
		cur = ['new();', 'new();', 'a();', 'b();', 'c();', 'd();'] + \
		      ['pad();'] * 7 + ['x();', 'y();', 'z();']
		got, gone = coverage.map_hunks(coverage.parse_diff(diff)['f.c'], cur)
		self.assertEqual((got, gone), ([4, 15], 1))

	def test_function_span(self) -> None:
		cur = text('stat.c').splitlines()
		self.assertEqual(coverage.function_lines('cp_statx', cur), (596, 630))
		self.assertIsNone(coverage.function_lines('no_such_function', cur))
		helper = ['BPF_CALL_2(bpf_thing, int, a, int, b)', '{',
			  '\tif (a) {', '\t\treturn b;', '\t}', '\treturn 0;', '}']
		self.assertEqual(coverage.function_lines('bpf_thing', helper), (1, 7))
		proto = ['int f(void);', '', 'int f(void)', '{', '}']
		self.assertEqual(coverage.function_lines('f', proto), (3, 5))


class ParseTest(unittest.TestCase):

	def test_info(self) -> None:
		info = coverage.parse_info(text('demo.info'), '/build/demo')
		self.assertEqual(list(info.lines), ['demo.c'])
		da = info.lines['demo.c']
		self.assertEqual(sorted(da), [3, 5, 6, 7, 8, 10, 12, 13, 14, 15])
		self.assertEqual([n for n in da if da[n] == 0], [6, 13])

	def test_gcov_agrees_with_info(self) -> None:
		gcov = coverage.parse_gcov(text('demo.c.gcov'))
		info = coverage.parse_info(text('demo.info'), '/build/demo')
		self.assertEqual(gcov, info.lines['demo.c'])

	def test_row_counts_only_instrumented_lines(self) -> None:
		info = coverage.parse_info(text('demo.info'), '/build/demo')
		span = coverage.function_lines('twice', text('demo.c').splitlines())
		self.assertEqual(span, (3, 8))
		assert span is not None
		row = coverage._row('s', 'demo.c', range(span[0], span[1] + 1), info)
		self.assertEqual((row.changed, row.executed), ([3, 5, 6, 7, 8], [3, 5, 7, 8]))
		self.assertEqual(row.to_json()['unexecuted'], ['6'])
		missing = coverage._row('s', 'other.c', [1], info)
		self.assertEqual(missing.changed, [])
		self.assertIn('no gcov data', missing.note)

	def test_ranges(self) -> None:
		self.assertEqual(coverage.ranges([3, 4, 5, 9, 11, 12]), ['3-5', '9', '11-12'])
		self.assertEqual(coverage.ranges([]), [])


def _block(files: Dict[str, bytes]) -> str:
	buf = io.BytesIO()
	with tarfile.open(fileobj=buf, mode='w:gz') as tar:
		for name, data in files.items():
			info = tarfile.TarInfo(name)
			info.size = len(data)
			tar.addfile(info, io.BytesIO(data))
	b64 = base64.encodebytes(buf.getvalue()).decode()
	return b64


class ConsoleTest(unittest.TestCase):

	def test_block_survives_a_kernel_line(self) -> None:
		b64 = _block({'./work/build/kernel/bpf/ringbuf.gcda': b'gcda1',
			      './work/build/fs/ext4/inode.gcda': b'gcda2',
			      './work/build/fs/inode.gcda': b'other'}).splitlines()
		log = ['# ok 1 x', 'kconform: gcov begin', b64[0],
		       '[   12.3] random: crng init done', *b64[1:],
		       'kconform: gcov end', 'reboot: Restarting system']
		blobs = coverage.blocks(log)
		self.assertEqual([b.name for b in blobs], [''])
		with tempfile.TemporaryDirectory() as d:
			build = Path(d) / 'build'
			(build / 'kernel/bpf').mkdir(parents=True)
			(build / 'kernel/bpf/ringbuf.gcno').write_bytes(b'gcno')
			dest = Path(d) / 'out'
			found = coverage.unpack(blobs[0].data, dest, build,
						['kernel/bpf/ringbuf.c', 'fs/ext4/inode.c'])
			self.assertEqual(found, ['fs/ext4/inode.c', 'kernel/bpf/ringbuf.c'])
			self.assertEqual((dest / 'kernel/bpf/ringbuf.gcda').read_bytes(), b'gcda1')
			self.assertEqual((dest / 'kernel/bpf/ringbuf.gcno').read_bytes(), b'gcno')
			self.assertFalse((dest / 'fs/inode.gcda').exists())

	def test_damaged_block_is_an_error(self) -> None:
		with self.assertRaises(KconformError):
			coverage.blocks(['kconform: gcov begin', 'QUJ', 'kconform: gcov end'])
		# base64, but not a gzipped tar (a line lost in the middle)
		blob = coverage.blocks(['kconform: gcov begin', 'QUJD', 'kconform: gcov end'])
		with self.assertRaises(KconformError):
			coverage.unpack(blob[0].data, Path('/nonexistent'), Path('/nonexistent'), [])

	def test_no_block(self) -> None:
		self.assertEqual(coverage.blocks(['kconform: gcov begin', 'TAP']), [])


def _fake_lcov(argv: List[str], log: Path, what: str) -> None:
	"""lcov's tools as lcov_report runs them, on fake .gcda files that
	hold DA lines: geninfo writes them under the source's SF, lcov -a
	concatenates (parse_info adds the counts up); the rest do nothing."""
	if argv[0] == 'geninfo':
		dest = Path(argv[1])
		out = ''.join(f'SF:/tree/{g.relative_to(dest).with_suffix(".c")}\n'
			      f'{g.read_text()}end_of_record\n'
			      for g in sorted(dest.rglob('*.gcda')))
		Path(argv[argv.index('--output-filename') + 1]).write_text(out)
	elif '--add-tracefile' in argv:
		parts = [Path(argv[i + 1]).read_text() for i, a in enumerate(argv)
			 if a == '--add-tracefile']
		Path(argv[argv.index('--output-file') + 1]).write_text(''.join(parts))


class PerSuiteTest(unittest.TestCase):
	"""The coverage variant's blocks, one per kselftest target and one
	for the KUnit boot (guest/one-by-one, guest/after-kunit), each to its
	own .info; their sum is coverage.info."""

	def setUp(self) -> None:
		self.out = Path(tempfile.mkdtemp())
		self.addCleanup(shutil.rmtree, self.out)
		mock.patch.object(coverage, '_tool', _fake_lcov).start()
		self.addCleanup(mock.patch.stopall)

	def console(self, name: str, blocks: Dict[str, str]) -> None:
		"""A console log: per block name, net/a.c's DA lines."""
		lines = ['TAP version 13']
		for block, da in blocks.items():
			lines += [f'kconform: gcov begin{" " + block if block else ""}',
				  *_block({'./build/net/a.gcda': da.encode()}).splitlines(),
				  'kconform: gcov end', 'kconform: run_kselftest.sh exited with 0']
		(self.out / name).write_text('\n'.join(lines) + '\n')

	def test_each_target_and_kunit_get_their_own_info(self) -> None:
		self.console('kunit-console.log', {'kunit': 'DA:1,2\nDA:2,0\nDA:3,0\n'})
		self.console('guest-console.log', {
			'tcp_ehash': 'DA:1,1\nDA:2,4\nDA:3,0\n',
			'netlink_intro': 'DA:1,0\nDA:2,0\nDA:3,7\n'})
		info, said = coverage.lcov_report(self.out, self.out / 'build', self.out,
						  ['net/a.c'])
		self.assertEqual(sorted(p.name for p in (self.out / 'gcov').glob('*.info')),
				 ['kselftest-netlink_intro.info', 'kselftest-tcp_ehash.info',
				  'kunit.info'])
		self.assertEqual(said, ['kunit-console.log: 1 of 1 files',
					'guest-console.log: 2 blocks, 1 of 1 files'])
		self.assertEqual(info.lines['/tree/net/a.c'], {1: 3, 2: 4, 3: 7})
		by = coverage.by_suite(self.out)
		assert by is not None
		self.assertEqual({k: v.lines['/tree/net/a.c'] for k, v in by.items()},
				 {'kunit': {1: 2, 2: 0, 3: 0},
				  'tcp_ehash': {1: 1, 2: 4, 3: 0},
				  'netlink_intro': {1: 0, 2: 0, 3: 7}})

	def test_a_rerun_adds_to_its_target(self) -> None:
		self.console('guest-console.log', {'tcp_ehash': 'DA:1,1\nDA:2,0\n'})
		self.console('guest-console-rerun1.log', {'tcp_ehash': 'DA:1,0\nDA:2,1\n'})
		coverage.lcov_report(self.out, self.out / 'build', self.out, ['net/a.c'])
		by = coverage.by_suite(self.out)
		assert by is not None
		self.assertEqual(by['tcp_ehash'].lines['/tree/net/a.c'], {1: 1, 2: 1})

	def test_an_older_log_s_unnamed_block_is_its_boot(self) -> None:
		self.console('kunit-console.log', {'': 'DA:1,2\n'})
		self.console('guest-console.log', {'': 'DA:1,0\nDA:2,1\n'})
		info, _ = coverage.lcov_report(self.out, self.out / 'build', self.out,
					       ['net/a.c'])
		self.assertEqual(sorted(p.name for p in (self.out / 'gcov').glob('*.info')),
				 ['guest-console.info', 'kunit-console.info'])
		self.assertEqual(info.lines['/tree/net/a.c'], {1: 2, 2: 1})
		# which suite ran what: not recorded
		self.assertIsNone(coverage.by_suite(self.out))


class ConfigTest(unittest.TestCase):

	def test_profiled_files_and_make_vars(self) -> None:
		seeds = coverage.load(REPO)
		self.assertEqual([s.name for s in seeds],
				 [f'{n:03d}' for n in range(1, 12)])
		files = coverage.profiled(seeds, {'p.patch': ['drivers/of/kobj.c']})
		self.assertIn('kernel/bpf/cgroup_iter.c', files)
		self.assertIn('drivers/of/kobj.c', files)
		self.assertIn('GCOV_PROFILE_cgroup_iter.o=y', coverage.make_vars(files))
		self.assertNotIn('GCOV_PROFILE_ALL', ' '.join(coverage.make_vars(files)))

	def test_table(self) -> None:
		rows = [coverage.Row('009 d1e5e6408b30', 'net/ipv4/tcp.c', [1, 2, 3, 7], [1, 2]),
			coverage.Row('005', 'x.rs', [], [], 'no gcov data')]
		lines = coverage.table(rows, [coverage.Seed('005', 's', why=('rust',))])
		self.assertTrue(lines[3].startswith('009 d1e5e6408b30  net/ipv4/tcp.c'))
		self.assertTrue(lines[3].endswith('      4         2  50  3, 7'))
		self.assertEqual(lines[-1], '  005: rust')

	def test_table_totals_a_seed_of_several_files(self) -> None:
		"""The target is per seed commit: its files' sum after them."""
		rows = [coverage.Row('008 510156a7f0cb', 'a.c', [1, 2, 3, 4], [1, 2, 3]),
			coverage.Row('008 510156a7f0cb', 'b.c', [5, 6], [5]),
			coverage.Row('009', 'c.c', [1], [1])]
		lines = coverage.table(rows, [])
		self.assertEqual(len(lines), 7)
		self.assertTrue(lines[5].startswith('008 510156a7f0cb  (all its files)'))
		self.assertEqual(lines[5].split()[-3:], ['6', '4', '67'])
		self.assertTrue(lines[6].startswith('009               c.c'))


class ReportTest(unittest.TestCase):

	def test_genhtml_report_renders_in_chromium(self) -> None:
		"""The documented check: genhtml's report, opened in headless
		chromium, gives a screenshot."""
		for tool in ('genhtml', 'chromium'):
			if shutil.which(tool) is None:
				self.skipTest(f'{tool} is not installed (make deps ARGS=--coverage)')
		with tempfile.TemporaryDirectory() as d:
			info = Path(d) / 'demo.info'
			info.write_text(text('demo.info').replace('/build/demo', str(DATA)))
			subprocess.run(['genhtml', '--quiet', str(info), '-o', f'{d}/html',
					'--prefix', str(DATA)], check=True, timeout=120)
			png = Path(d) / 'shot.png'
			self.assertEqual(coverage.screenshot(Path(d) / 'html/index.html', png), '')
			self.assertEqual(png.read_bytes()[:8], b'\x89PNG\r\n\x1a\n')
