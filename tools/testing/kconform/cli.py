# SPDX-License-Identifier: GPL-2.0
"""kconform's command line: run, series, export, deps.

run: pristine tree -> patches -> config fragments -> build -> QEMU boot
-> KTAP/TAP -> results.json, junit.xml, summary -> gate.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import os
import re
import sys
import time
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Sequence

from . import deps, export, gate, guest, kunitrun, proc, report, suites, tree
from .model import KconformError, Status, Suite

REPO = Path(__file__).resolve().parents[3]
ACCEL_ARGS = {'kvm': ['-accel', 'kvm', '-cpu', 'host'], 'tcg': ['-accel', 'tcg']}
PROBE_TIMEOUT = 20.0


def cache_dir() -> Path:
	env = os.environ.get('KCONFORM_CACHE')
	return Path(env) if env else Path.home() / '.cache' / 'kconform'


def use_ccache() -> None:
	"""Keep ccache's objects with the rest of the cache, unless set."""
	os.environ.setdefault('CCACHE_DIR', str(cache_dir() / 'ccache'))
	os.environ.setdefault('CCACHE_MAXSIZE', '8G')


class Stages:
	"""One status line per stage, with its elapsed time."""

	def __init__(self) -> None:
		self.times: Dict[str, float] = {}

	@contextlib.contextmanager
	def stage(self, name: str, what: str) -> Iterator[None]:
		print(f'kconform: {name}: {what} ...', flush=True)
		start = time.monotonic()
		try:
			yield
		except BaseException:
			dt = time.monotonic() - start
			self.times[name] = self.times.get(name, 0.0) + dt
			print(f'kconform: {name}: FAILED after {dt:.1f} s', flush=True)
			raise
		dt = time.monotonic() - start
		self.times[name] = self.times.get(name, 0.0) + dt
		print(f'kconform: {name}: done in {dt:.1f} s', flush=True)


def _source(args: argparse.Namespace, out: Path, st: Stages) -> tree.Source:
	with st.stage('extract', 'pristine kernel tree'):
		if args.tree:
			src = tree.user_source(cache_dir(), Path(args.tree))
		else:
			src = tree.debian_source(cache_dir(), out)
	src.extras = [Path(p).resolve() for p in args.patch or []]
	return src


def _failed(specs: Sequence[suites.SuiteSpec], kind: str, msg: str) -> List[Suite]:
	out = []
	for spec in specs:
		for name in (spec.kunit if kind == 'kunit' else [spec.kselftest or '']):
			s = Suite(name, kind)
			s.fail_all(Status.FAIL, msg)
			out.append(s)
	return out


def _probe(job: guest.GuestJob, wanted: str, st: Stages) -> str:
	if wanted != 'auto':
		return wanted
	if not os.access('/dev/kvm', os.R_OK | os.W_OK):
		print('kconform: accel: /dev/kvm is not usable, using TCG', flush=True)
		return 'tcg'
	with st.stage('probe', f'KVM boot probe ({PROBE_TIMEOUT:.0f} s at most)'):
		ok = guest.probe(job, ACCEL_ARGS['kvm'], PROBE_TIMEOUT)
	print(f'kconform: accel: {"KVM reached userspace" if ok else "KVM did not reach userspace, using TCG"}',
	      flush=True)
	return 'kvm' if ok else 'tcg'


def cmd_run(args: argparse.Namespace) -> int:
	out = Path(args.out).resolve()
	out.mkdir(parents=True, exist_ok=True)
	st = Stages()
	deps.ensure(deps.RUN_PACKAGES)
	use_ccache()
	layout = tree.Layout(REPO)
	registry = suites.load(REPO)
	specs = suites.select(registry, args.suite or [])
	kinds = set(args.kind or ['kunit', 'kselftest'])
	src = _source(args, out, st)
	rep = report.RunReport(kernel={'source': src.name, 'version': '?',
				       'series_sha256': ''}, accel='tcg')
	results: List[Suite] = []
	try:
		with st.stage('patch', f'series + overlays onto {src.name}'):
			digest, changed = tree.derive(layout, src, out)
			print(f'kconform: patch: {"re-derived" if changed else "unchanged"}'
			      f' (series {digest[:12]})', flush=True)
	except KconformError as e:
		rep.errors.append(str(e))
		print(f'kconform: error: {e}', file=sys.stderr)
		for kind in ('kunit', 'kselftest'):
			results += _failed(specs, kind, str(e))
		return _finish(rep, results, st, out, args)
	rep.kernel.update(version=tree.kernel_version(src.tree), series_sha256=digest)

	lacking = {s.name: tree.missing_code(src.tree, list(s.requires)) for s in registry}
	present = []
	for spec in specs:
		lack = lacking[spec.name]
		if lack:
			msg = f'the kernel code of suite {spec.name} is missing: ' + '; '.join(lack)
			print(f'kconform: {msg}', flush=True)
			results += _failed([spec], 'kunit', msg) if spec.kunit else []
			results += _failed([spec], 'kselftest', msg) if spec.kselftest else []
		else:
			present.append(spec)
	ku_specs = [s for s in present if s.kunit] if 'kunit' in kinds else []
	gs_specs = [s for s in present if s.kselftest] if 'kselftest' in kinds else []
	build_root = src.work / 'build'
	kjob = kunitrun.KunitJob(src.tree, build_root / 'kunit', out, args.jobs,
				 args.kunit_timeout)
	gjob = guest.GuestJob(REPO, src.tree, build_root / 'guest', out, args.jobs,
			      args.guest_timeout)
	ku_ok = gs_ok = False
	if ku_specs:
		try:
			with st.stage('configure-kunit', 'kunit.py config'):
				kunitrun.configure(kjob, ku_specs)
			with st.stage('build-kunit', 'KUnit kernel (log: kunit-build.log)'):
				kunitrun.build(kjob)
			ku_ok = True
		except KconformError as e:
			rep.errors.append(str(e))
			results += _failed(ku_specs, 'kunit', str(e))
	if gs_specs:
		try:
			with st.stage('configure-guest', 'guest kernel config'):
				# Every registered target's config, whatever --suite says:
				# one guest kernel, not one per selection.
				guest.configure(gjob, [s for s in registry
						       if s.kselftest and not lacking[s.name]])
			with st.stage('build-guest', 'guest kernel (log: guest-build.log)'):
				guest.build(gjob)
			with st.stage('userspace', 'kselftest install + initramfs'):
				installed = guest.install_tests(gjob, gs_specs)
				guest.make_initramfs(gjob, installed, gs_specs)
			gs_ok = True
		except KconformError as e:
			rep.errors.append(str(e))
			results += _failed(gs_specs, 'kselftest', str(e))
	accel = args.accel
	if accel == 'auto':
		accel = _probe(gjob, accel, st) if gs_ok else 'tcg'
	rep.accel = accel
	if ku_ok:
		with st.stage('run-kunit', f'boot the KUnit kernel ({accel})'):
			results += kunitrun.execute(kjob, [n for s in ku_specs for n in s.kunit],
						    ACCEL_ARGS[accel])
	if gs_ok:
		with st.stage('run-kselftest', f'boot the guest ({accel})'):
			results += guest.boot(gjob, gs_specs, ACCEL_ARGS[accel])
	return _finish(rep, results, st, out, args)


def _finish(rep: report.RunReport, results: List[Suite], st: Stages, out: Path,
	    args: argparse.Namespace) -> int:
	rep.suites = results
	rep.stages = st.times
	report.write_json(rep, out / 'results.json')
	report.write_junit(rep, out / 'junit.xml')
	for line in report.summary(rep):
		print(line)
	known = gate.load_known(Path(args.known_issues) if args.known_issues else None)
	verdict = gate.decide(results, known, Path(args.baseline) if args.baseline else None,
			      datetime.date.today())
	print(f'kconform: results in {out} (results.json, junit.xml, logs)')
	lines = verdict.lines()
	(out / 'summary.txt').write_text('\n'.join(report.summary(rep) + lines) + '\n')
	for line in lines:
		print(line)
	return 0 if verdict.ok and not rep.errors else 1


def cmd_series(args: argparse.Namespace) -> int:
	"""Apply the series (and extras), then checkpatch --strict each patch."""
	out = Path(args.out).resolve()
	out.mkdir(parents=True, exist_ok=True)
	st = Stages()
	deps.ensure(deps.RUN_PACKAGES)
	layout = tree.Layout(REPO)
	src = _source(args, out, st)
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
	src = _source(args, out, st)
	with st.stage('export', 'throwaway git repository of the pristine tree'):
		files = export.export(tree.Layout(REPO), src, cache_dir() / 'export-git',
				      out, cache_dir() / 'export-logs')
	print(f'exported {len(files)} files to {out}')
	return 0


def cmd_deps(args: argparse.Namespace) -> int:
	deps.ensure(deps.RUN_PACKAGES + (deps.TEST_PACKAGES if args.tests else ()))
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

	run = sub.add_parser('run', help='build, boot, run every suite, report, gate')
	source_opts(run)
	run.add_argument('--out', default=str(REPO / 'results'), metavar='DIR')
	run.add_argument('--suite', action='append', metavar='NAME',
			 help='run only this suite of suites.toml (repeatable)')
	run.add_argument('--kind', action='append', choices=['kunit', 'kselftest'],
			 help='run only this kind of test (repeatable)')
	run.add_argument('--baseline', metavar='FILE',
			 help='an earlier results.json to compare against')
	run.add_argument('--known-issues', default=str(REPO / 'known-issues.toml'),
			 metavar='FILE')
	run.add_argument('--accel', choices=['auto', 'kvm', 'tcg'], default='auto')
	run.add_argument('--jobs', type=int, default=len(os.sched_getaffinity(0)))
	run.add_argument('--kunit-timeout', type=int, default=300, metavar='S')
	run.add_argument('--guest-timeout', type=int, default=900, metavar='S')
	run.set_defaults(func=cmd_run)

	series = sub.add_parser('series', help='apply the series, checkpatch --strict')
	source_opts(series)
	series.add_argument('--out', default=str(REPO / 'results'), metavar='DIR')
	series.set_defaults(func=cmd_series)

	export = sub.add_parser('export', help='git am-able series with a cover letter')
	source_opts(export)
	export.add_argument('--out', default=str(REPO / 'outgoing'), metavar='DIR')
	export.set_defaults(func=cmd_export)

	dp = sub.add_parser('deps', help='install the Debian packages needed')
	dp.add_argument('--tests', action='store_true',
			help='also what the project tests need')
	dp.set_defaults(func=cmd_deps)
	return p


def main(argv: Sequence[str]) -> int:
	args = parser().parse_args(argv)
	try:
		rc: int = args.func(args)
		return rc
	except KconformError as e:
		print(f'kconform: error: {e}', file=sys.stderr)
		return 2


def entry(argv: Optional[Sequence[str]] = None) -> None:
	proc.install_signal_handlers()
	sys.exit(main(sys.argv[1:] if argv is None else argv))
