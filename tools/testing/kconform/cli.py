# SPDX-License-Identifier: GPL-2.0
"""kconform's command line: run, parse, series, export, deps.

run: pristine tree -> patches -> config fragments -> build -> QEMU boot
-> KTAP/TAP -> results.json, junit.xml, summary -> gate.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from . import (bench, bisect, changes, ci, deps, export, kcidb, listing, matrix, mutate,
	       pipeline, preflight, proc, report, suites, tree)
from .inputs import REPO, check, out_dir, patch_file
from .model import InputError, KconformError
from .stages import Stages


def cmd_run(args: argparse.Namespace) -> int:
	registry = suites.load(REPO)
	inputs = check(args, registry)
	if args.list:
		for line in listing.lines(REPO, inputs.selection):
			print(line)
		return 0
	return pipeline.run(inputs, registry)[0]


def cmd_parse(args: argparse.Namespace) -> int:
	"""A console log saved elsewhere, through the same parser and gate."""
	inputs = check(args, suites.load(REPO))
	raw = preflight.parse(args, inputs.out, inputs.baseline)
	return pipeline.parse(inputs, args.kind[0], raw)[0]


def cmd_series(args: argparse.Namespace) -> int:
	"""Apply the series (and extras), then checkpatch --strict each patch."""
	out = Path(args.out).resolve()
	out.mkdir(parents=True, exist_ok=True)
	st = Stages()
	deps.ensure(deps.RUN_PACKAGES)
	layout = tree.Layout(REPO)
	src = pipeline.source(args.tree, args.source, out,
			      [patch_file(p) for p in args.patch or []], st)
	with st.stage('patch', 'apply the series'):
		digest, _ = tree.derive(layout, src, out)
	print(f'series applies: {len(layout.series())} patches, sha256 {digest[:12]}')
	dirty = []
	checkpatch = src.tree / 'scripts/checkpatch.pl'
	files = [layout.patches / p for p in layout.series()]
	with st.stage('checkpatch', f'{len(files)} patches, --strict'):
		for f in files:
			r = proc.run(['perl', str(checkpatch), '--strict', '--color=never',
				      str(f)], out / 'checkpatch.log', 300, cwd=src.tree)
			text = ''.join(r.lines)
			if r.returncode != 0 or not re.search(
					r'total: 0 errors, 0 warnings, 0 checks', text):
				dirty.append(f'{f.name}:\n{text[-3000:]}')
		for f, dest in layout.overlays():
			if f.suffix not in ('.c', '.h'):
				continue
			r = proc.run(['perl', str(checkpatch), '--strict', '--color=never',
				      '--no-tree', '-f', str(f)], out / 'checkpatch.log',
				     300, cwd=src.tree)
			text = ''.join(r.lines)
			if not re.search(r'total: 0 errors, 0 warnings, 0 checks', text):
				dirty.append(f'{dest}:\n{text[-3000:]}')
	for d in dirty:
		print('checkpatch: ' + d)
	print(f'checkpatch: {len(dirty)} file(s) not clean')
	return 1 if dirty else 0


def cmd_export(args: argparse.Namespace) -> int:
	"""Export the series as a git am-able set with a cover letter."""
	out = Path(args.out).resolve()
	st = Stages()
	src = pipeline.source(args.tree, args.source, out,
			      [patch_file(p) for p in args.patch or []], st)
	with st.stage('export', 'throwaway git repository of the pristine tree'):
		files = export.export(tree.Layout(REPO), src, pipeline.cache_dir() / 'export-git',
				      out, pipeline.cache_dir() / 'export-logs')
	print(f'exported {len(files)} files to {out}')
	return 0


def run_report(argv: Sequence[str], out: Path) -> Dict[str, Any]:
	"""One run of `kconform run ARGV` (as results.json has it); a run
	that cannot start leaves what its --out holds; one that refuses its
	arguments (InputError) stops the caller, as the next would too."""
	try:
		args = parser().parse_args(['run', *argv])
		registry = suites.load(REPO)
		_, rep = pipeline.run(check(args, registry), registry)
	except InputError:
		raise
	except KconformError as e:
		print(f'kconform: error: {e}'.split('\n', 1)[0], file=sys.stderr)
		return report.read(out / 'results.json')
	return report.as_json(rep)


def cmd_matrix(args: argparse.Namespace) -> int:
	"""One run per release, then the table of what differs."""
	out = out_dir(args.out)
	extra = preflight.run_args(args)
	for r in args.releases:
		try:
			matrix.run_args(r)
		except ValueError as e:
			raise InputError(str(e)) from e
	if args.emit:
		print(ci.emit_matrix(args.emit, args.releases, args.run_args, args.no_run,
				     args.kcidb, args.ci_image), end='')
		return 0
	walls: Dict[str, float] = {}
	results: Dict[str, Dict[str, Any]] = {}
	for r in args.releases:
		folder = out / matrix.folder_name(r)
		# a release's wall time stays with its results, for --no-run
		# and for matrices of other releases
		wall_file = folder / 'matrix-wall.json'
		if not args.no_run:
			print(f'kconform: matrix: {r} ...', flush=True)
			start = time.monotonic()
			results[r] = run_report([*matrix.run_args(r), '--out', str(folder),
						 *extra], folder)
			wall = round(time.monotonic() - start, 1)
			folder.mkdir(parents=True, exist_ok=True)
			wall_file.write_text(json.dumps({'wall_s': wall}) + '\n')
			print(f'kconform: matrix: {r} done in {wall:.0f} s', flush=True)
			if report.stopped(results[r]):
				print('kconform: matrix: stopped by a signal', flush=True)
				return 1
		else:
			results[r] = report.read(folder / 'results.json')
		if wall_file.exists():
			walls[r] = float(report.read(wall_file).get('wall_s', 0.0))
	table, doc = matrix.summary(args.releases, results, walls)
	table += matrix.changes_section([
		changes.between(REPO, pipeline.cache_dir(), a, b, out, out / 'changes')
		for a, b in zip(args.releases, args.releases[1:])])
	(out / 'matrix.json').write_text(json.dumps(doc, indent=1) + '\n')
	(out / 'matrix.txt').write_text('\n'.join(table) + '\n')
	if args.kcidb:
		kcidb.write_releases(Path(args.kcidb), {matrix.folder_name(r): results[r]
							for r in args.releases})
	for line in table:
		print(line)
	print(f'kconform: matrix in {out} (matrix.json, matrix.txt, a folder per release)')
	return 0 if all(not r.get('errors') for r in results.values()) else 1


def cmd_changes(args: argparse.Namespace) -> int:
	"""Every hunk of the features' files between two releases (changes.py)."""
	out = out_dir(args.out)
	old, new = (changes.locate(r, pipeline.cache_dir(), out) for r in (args.old, args.new))
	for line in changes.write(changes.compare(REPO, old, new, Path(args.results)), out):
		print(line)
	return 0


def cmd_timing(args: argparse.Namespace) -> int:
	"""Two or more runs' times side by side (bench.timing)."""
	runs = []
	for arg in args.results:
		label, _, name = arg.rpartition('=')
		path = Path(name)
		try:
			doc = report.from_json(json.loads(path.read_text()))
		except (OSError, ValueError, KeyError) as e:
			raise InputError(f'{path}: {e}') from None
		runs.append(bench.Timed(label or path.parent.name, doc.stages, doc.suites))
	for line in bench.timing(runs):
		print(line)
	return 0


def _in_repo(patch: Path) -> str:
	"""A patch as a CI job names it: a path in the repository it checks out."""
	try:
		return str(patch.relative_to(REPO))
	except ValueError:
		raise InputError(f'--emit: --patch {patch} is not in the repository '
				 f'({REPO}), which is all a CI job has') from None


def _bisect_attempt(args: argparse.Namespace, wants: Callable[[str, str, str], bool],
		    patches: Sequence[Path], picked: Sequence[str], extra: Sequence[str],
		    out: Path, walls: Dict[Tuple[int, int], float]) -> Callable[[int, int], str]:
	"""Attempt i (1, 2, …) of step k: a run with the first k patches, or
	with --no-run the one recorded in its folder; its wall time in walls."""
	start = time.monotonic()

	def attempt(k: int, i: int) -> str:
		folder = out / bisect.folder(k, i)
		if args.no_run:
			got = report.read(folder / 'results.json')
			walls[k, i] = float(report.read(folder / bisect.WALL).get('wall_s', 0.0))
		else:
			print(f'kconform: bisect: step {k} (patches 1..{k}), attempt {i}',
			      flush=True)
			begin = time.monotonic()
			got = run_report([*[a for p in patches[:k] for a in ('--patch', str(p))],
					  '--retries', '0', '--out', str(folder), *picked, *extra],
					 folder)
			walls[k, i] = round(time.monotonic() - begin, 1)
			folder.mkdir(parents=True, exist_ok=True)
			(folder / bisect.WALL).write_text(json.dumps({'wall_s': walls[k, i]}) + '\n')
			if report.stopped(got):
				raise KconformError('bisect stopped by a signal')
		v = bisect.attempt_verdict(got, wants)
		print(f'kconform: bisect: step {k} attempt {i}: {v} '
		      f'({time.monotonic() - start:.0f} s so far)', flush=True)
		return v
	return attempt


def cmd_bisect(args: argparse.Namespace) -> int:
	"""The first patch of the stack that makes the case fail."""
	registry = suites.load(REPO)
	sel = suites.selection(registry, args.suite or [], args.kind or [],
			       args.case or [])
	if not args.case and not args.suite:
		raise InputError('bisect needs --case GLOB or --suite NAME')
	patches = [patch_file(p) for p in args.patch or []]
	if not patches:
		raise InputError('bisect needs the stack: --patch A --patch B ...')
	if args.step is not None and not 0 <= args.step <= len(patches) or args.attempt < 1:
		raise InputError(f'--step {args.step} --attempt {args.attempt}: a step is '
				 f'0..{len(patches)}, an attempt 1 or more')
	extra = preflight.bisect(args)
	picked = [a for name in args.suite or [] for a in ('--suite', name)] + \
		[a for kind in args.kind or [] for a in ('--kind', kind)] + \
		[a for glob in args.case or [] for a in ('--case', glob)]
	if args.emit:
		argv = [*picked, *[a for p in patches for a in ('--patch', _in_repo(p))],
			'--repeats', str(args.repeats),
			*([f'--run-args={args.run_args}'] if args.run_args else [])]
		print(ci.emit_bisect(args.emit, argv, len(patches), args.repeats,
				     args.no_run, args.ci_image), end='')
		return 0
	out = out_dir(args.out)
	walls: Dict[Tuple[int, int], float] = {}
	attempt = _bisect_attempt(args, sel.wants, patches, picked, extra, out, walls)
	if args.step is not None:
		# one CI job: the collect job (--no-run) reads the verdict
		return 1 if attempt(args.step, args.attempt) == bisect.UNTESTABLE else 0
	start = time.monotonic()
	got = bisect.search(len(patches), lambda k: bisect.repeat(
		lambda i: attempt(k, i + 1), args.repeats), args.repeats)
	# --no-run: the time the runs searched took, one after another
	wall = sum(walls.values()) if args.no_run else time.monotonic() - start
	table = bisect.lines([p.name for p in patches], got, wall)
	(out / 'bisect.txt').write_text('\n'.join(table) + '\n')
	(out / 'bisect.json').write_text(json.dumps({
		'patches': [{'name': p.name, 'sha256': tree.sha256(p)} for p in patches],
		'steps': {str(k): {'attempts': a, 'verdict': got.verdict(k)}
			  for k, a in sorted(got.steps.items())},
		'first_bad': got.first_bad, 'candidates': got.candidates,
		'problem': got.problem, 'wall_s': round(wall, 1)}, indent=1) + '\n')
	for line in table:
		print(line)
	if args.no_run:
		print(f'kconform: bisect: searched {len(walls)} of the '
		      f'{len(list(out.glob("step-*/try-*/results.json")))} attempts recorded in {out}')
	return 0 if got.first_bad else 1


def cmd_mutate(args: argparse.Namespace) -> int:
	return mutate.command(args, REPO, pipeline.cache_dir(), main)


def cmd_deps(args: argparse.Namespace) -> int:
	deps.ensure(deps.RUN_PACKAGES + (deps.TEST_PACKAGES if args.tests else ()) +
		    (deps.COVERAGE_PACKAGES if args.coverage else ()))
	why = (deps.ensure_npm(pipeline.cache_dir() / 'npm', deps.NPM_TEST_PACKAGES)
	       if args.tests else None)
	if why:
		print(f'kconform: {why} (the tests that need it are skipped)')
	print('kconform: every Debian package needed is installed')
	return 0


def parser() -> argparse.ArgumentParser:
	p = argparse.ArgumentParser(prog='kconform', description=__doc__)
	sub = p.add_subparsers(dest='cmd', required=True)

	def source_opts(sp: argparse.ArgumentParser) -> None:
		sp.add_argument('--tree', metavar='DIR',
				help='your kernel source tree instead of linux-source-6.1 '
				     '(the series goes onto a scratch copy of it)')
		sp.add_argument('--patch', action='append', metavar='FILE',
				help='an extra patch to apply after the series (repeatable)')
		sp.add_argument('--source', metavar='PACKAGE[=VERSION]',
				help='a release of the tree from the archive, e.g. '
				     'linux-source-6.1=6.1.190-1 (apt-get download, '
				     'never installed); a suite whose hook patch does '
				     'not apply is not applicable')

	def gate_opts(sp: argparse.ArgumentParser) -> None:
		sp.add_argument('--out', default=str(REPO / 'results'), metavar='DIR')
		sp.add_argument('--suite', action='append', metavar='NAME',
				help='only this suite of suites.toml (repeatable)')
		sp.add_argument('--case', action='append', metavar='GLOB',
				help='only cases matching SUITE.CASE, as kunit.filter_glob '
				     '(repeatable)')
		sp.add_argument('--baseline', metavar='FILE',
				help='an earlier results.json to compare against')
		sp.add_argument('--known-issues', default=str(REPO / 'known-issues.toml'),
				metavar='FILE')
		sp.add_argument('--fail-on-flaky', action='store_true',
				help='a case that passed only on a rerun fails the gate')
		sp.add_argument('--kcidb', metavar='FILE',
				help='also write the run as KCIDB v5.3 JSON')
		sp.add_argument('--fixes', choices=['apply', 'omit'],
				help="the series' bug fixes (patches/fixes.toml): apply "
				     '(default for linux-source-6.1) or omit them and '
				     'report which bugs the tree carries (default for --tree)')

	run = sub.add_parser('run', help='build, boot, run every suite, report, gate')
	source_opts(run)
	gate_opts(run)
	run.add_argument('--kind', action='append', choices=suites.ALL_KINDS,
			 help='run only this kind (repeatable); the default is kunit '
			 'and kselftest, `bench` (make bench) boots for the '
			 'benchmarks alone')
	run.add_argument('--prove-fixes', action='store_true',
			 help='omit the fixes and fail unless every fix\'s guards '
			      'fail and no other case differs from --baseline')
	run.add_argument('--image', metavar='PACKAGE[=VERSION]|FILE.deb',
			 help='boot this linux-image-* package\'s own kernel and modules '
			      '(apt-get download into the cache, never installed); '
			      'nothing is built, what it cannot run is named')
	run.add_argument('--list', action='store_true',
			 help='print every suite and case the run would report, build nothing')
	run.add_argument('--retries', type=int, default=1, metavar='N',
			 help='rerun a suite with a failing case N times (default 1)')
	run.add_argument('--accel', choices=['auto', 'kvm', 'tcg'], default='auto')
	run.add_argument('--lanes', type=int, default=2, metavar='N',
			 help='kselftest targets side by side in the boot (default 2, '
			 'the guest\'s vCPUs; 1: one after the other, which also says '
			 'which target a kernel report came from)')
	run.add_argument('--variant', default='default', metavar='NAME',
			 help='the kernel variant (tools/testing/guest/variants.toml)')
	run.add_argument('--seeds', default=str(REPO.parent / 'shared' / 'seeds'),
			 metavar='DIR', help='the seed commits coverage.toml numbers '
			 '(--variant coverage; default ../shared/seeds)')
	run.add_argument('--ccache-remote', metavar='URL',
			 help='ccache remote storage for every build of the run '
			 '(redis://HOST:PORT, http://…, file://DIR); '
			 'CCACHE_REMOTE_STORAGE in the environment does the same')
	run.add_argument('--cmdline', action='append', metavar='WORD',
			 help='add WORD to the kernel command line of every boot '
			 '(repeatable; mutate --schemata: kconform.mutant=N)')
	run.add_argument('--jobs', type=int, default=len(os.sched_getaffinity(0)))
	run.add_argument('--kunit-timeout', type=int, default=300, metavar='S')
	run.add_argument('--guest-timeout', type=int, default=900, metavar='S')
	run.add_argument('--silence-timeout', type=int, metavar='S',
			 help='end a boot whose console prints nothing for S seconds, '
			 'as a timeout (mutate --schemata\'s loop boots: a mutant that '
			 'wedged the kernel; default: only the timeouts above)')
	run.set_defaults(func=cmd_run)

	ps = sub.add_parser('parse', help='a saved console log through the same '
			    'parser and gate as run')
	gate_opts(ps)
	ps.add_argument('--kind', action='append', choices=['kunit', 'kselftest'],
			required=True)
	ps.add_argument('--accel', choices=['kvm', 'tcg'], default='tcg',
			help='what the log was recorded under (known-issue scopes)')
	ps.add_argument('log', metavar='LOG')
	ps.set_defaults(func=cmd_parse)

	series = sub.add_parser('series', help='apply the series, checkpatch --strict')
	source_opts(series)
	series.add_argument('--out', default=str(REPO / 'results'), metavar='DIR')
	series.set_defaults(func=cmd_series)

	export = sub.add_parser('export', help='git am-able series with a cover letter')
	source_opts(export)
	export.add_argument('--out', default=str(REPO / 'outgoing'), metavar='DIR')
	export.set_defaults(func=cmd_export)

	mx = sub.add_parser('matrix', help='one run per release, the table of '
			    'cases whose verdict differs, the bugs each carries')
	mx.add_argument('releases', nargs='+', metavar='RELEASE',
			help='linux-source-6.1=6.1.190-1, 6.1.190-1, '
			     'linux-image-…=VERSION or default')
	mx.add_argument('--out', default=str(REPO / 'results' / 'matrix'), metavar='DIR')
	mx.add_argument('--run-args', default='', metavar='ARGS',
			help="options for each run, one string (--run-args='--kind kunit')")
	mx.add_argument('--no-run', action='store_true',
			help='tabulate the results already in --out')
	ci.matrix_options(mx)
	mx.set_defaults(func=cmd_matrix)

	ch = sub.add_parser('changes', help='every hunk of the features\' files between '
			    'two releases: its stable commit, whether a case runs it')
	ch.add_argument('old', metavar='OLD', help='a release as matrix names it, or a tree folder')
	ch.add_argument('new', metavar='NEW')
	ch.add_argument('--out', default=str(REPO / 'results' / 'changes'), metavar='DIR')
	ch.add_argument('--results', default=str(REPO / 'results' / 'matrix'), metavar='DIR',
			help='the matrix runs whose verdicts and coverage to read')
	ch.set_defaults(func=cmd_changes)

	tm = sub.add_parser('timing', help="runs' stage and case times side "
			    'by side (README "Timing a change")')
	tm.add_argument('results', nargs='+', metavar='[LABEL=]RESULTS_JSON',
			help="each run's results.json, the reference first "
			     '(label: its folder\'s name)')
	tm.set_defaults(func=cmd_timing)

	bs = sub.add_parser('bisect', help='the first patch of a stack that '
			    'makes a case fail, each step built, booted and repeated')
	bs.add_argument('--patch', action='append', metavar='FILE',
			help='the stack, in order (repeatable)')
	bs.add_argument('--case', action='append', metavar='GLOB')
	bs.add_argument('--suite', action='append', metavar='NAME')
	bs.add_argument('--kind', action='append', choices=['kunit', 'kselftest'])
	bs.add_argument('--repeats', type=int, default=bisect.REPEATS, metavar='N',
			help='a step counts when it fails (passes) N times (default 3)')
	bs.add_argument('--out', default=str(REPO / 'results' / 'bisect'), metavar='DIR')
	bs.add_argument('--run-args', default='', metavar='ARGS',
			help="more options for each run, one string")
	bs.add_argument('--step', type=int, metavar='K',
			help='run one attempt of step K alone (a CI job), in '
			     'step-KK/try-I/ of --out')
	bs.add_argument('--attempt', type=int, default=1, metavar='I',
			help='--step: which attempt (default 1)')
	bs.add_argument('--no-run', action='store_true',
			help='bisect over the attempts already in --out (a CI '
			     'pipeline\'s collect job)')
	ci.options(bs, 'every attempt of every step')
	bs.set_defaults(func=cmd_bisect)

	mu = sub.add_parser('mutate', help="mutants of the features' C code, "
			    'built and booted: which ones the suites kill')
	mutate.options(mu, REPO)
	mu.set_defaults(func=cmd_mutate)

	dp = sub.add_parser('deps', help='install the Debian packages needed')
	dp.add_argument('--tests', action='store_true',
			help='also what the project tests need')
	dp.add_argument('--coverage', action='store_true',
			help='also what make coverage needs (lcov, chromium)')
	dp.set_defaults(func=cmd_deps)
	return p


def main(argv: Sequence[str]) -> int:
	args = parser().parse_args(argv)
	if args.cmd == 'parse' and len(args.kind) != 1:
		print('kconform: error: parse takes one --kind', file=sys.stderr)
		return 2
	try:
		rc: int = args.func(args)
		return rc
	except InputError as e:
		print(f'kconform: error: {e}'.split('\n', 1)[0], file=sys.stderr)
		return 2
	except KconformError as e:
		print(f'kconform: error: {e}', file=sys.stderr)
		return 2


def entry(argv: Optional[Sequence[str]] = None) -> None:
	proc.install_signal_handlers()
	sys.exit(main(sys.argv[1:] if argv is None else argv))
