# SPDX-License-Identifier: GPL-2.0
"""kconform's command line: run, parse, series, export, deps.

run: pristine tree -> patches -> config fragments -> build -> QEMU boot
-> KTAP/TAP -> results.json, junit.xml, summary -> gate.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import fnmatch
import json
import os
import re
import shlex
import shutil
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, Set

from . import (archive, bench, bisect, console, deps, export, fixes, gate, guest,
	       image, kcidb, kernels, kunitrun, listing, matrix, mutate, proc, report, suites,
	       tree)
from .model import NOT_APPLICABLE, InputError, KconformError, Status, Suite

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


@dataclass
class Inputs:
	"""Every input of a run, read and checked before the first stage."""
	out: Path
	known: List[gate.KnownIssue]
	baseline: Optional[Dict[gate.Key, str]]
	extras: List[Path]
	selection: suites.Selection
	variant: guest.Variant


def _out_dir(path: str) -> Path:
	out = Path(path).resolve()
	for p in [out, *out.parents]:
		if p.exists():
			if not p.is_dir():
				raise InputError(f'--out {out}: {p} is not a folder')
			break
	try:
		out.mkdir(parents=True, exist_ok=True)
	except OSError as e:
		raise InputError(f'--out {out}: {e.strerror}') from e
	if not os.access(out, os.W_OK):
		raise InputError(f'--out {out}: not writable')
	return out


def _patch_file(path: str) -> Path:
	p = Path(path).resolve()
	gate.read_text(p, '--patch')		# exists, a file, readable text
	return p


def check_inputs(args: argparse.Namespace,
		 registry: Sequence[suites.SuiteSpec]) -> Inputs:
	"""Read every input once, before anything is written; InputError names
	the first bad one. The baseline is read here, so a run whose --out
	holds it is still compared with the earlier run, not with itself."""
	baseline = gate.load_baseline(Path(args.baseline)) if args.baseline else None
	known = gate.load_known(Path(args.known_issues))
	extras = [_patch_file(p) for p in getattr(args, 'patch', None) or []]
	tree_arg = getattr(args, 'tree', None)
	if tree_arg and not Path(tree_arg).is_dir():
		raise InputError(f'--tree {tree_arg}: not a folder')
	if getattr(args, 'source', None):
		if tree_arg:
			raise InputError('--source and --tree: one tree at a time')
		tree.parse_release(args.source)
	if getattr(args, 'prove_fixes', False) and not args.baseline:
		raise InputError('--prove-fixes needs --baseline: the run with the fixes')
	if getattr(args, 'prove_fixes', False) and args.fixes == 'apply':
		raise InputError('--prove-fixes omits the fixes; --fixes apply contradicts it')
	known_variants = guest.variants(REPO)
	variant = known_variants.get(getattr(args, 'variant', 'default'))
	if variant is None:
		raise InputError(f'--variant {args.variant}: unknown; known: '
				 f'{", ".join(known_variants)}')
	if getattr(args, 'image', None):
		# a package's kernel is booted as it is: nothing of ours goes in
		if not args.image.endswith('.deb'):
			image.parse_arg(args.image)
		elif not Path(args.image).is_file():
			raise InputError(f'--image {args.image}: no such file')
		clash = [o for o, bad in (('--patch', bool(extras)),
					  ('--fixes apply', args.fixes == 'apply'),
					  ('--prove-fixes', getattr(args, 'prove_fixes', False)),
					  ('--variant', variant.name != 'default')) if bad]
		if clash:
			raise InputError(f'--image boots a package\'s kernel as it is; '
					 f'{", ".join(clash)} would change a kernel we build')
	if 'bench' in (getattr(args, 'kind', None) or []) and not variant.benches:
		raise InputError(f'--kind bench: variant {variant.name} runs no '
				 'benchmarks (variants.toml benches = false)')
	try:
		guest.seed_arg()
	except KconformError as e:
		raise InputError(str(e)) from None
	if getattr(args, 'retries', 0) < 0:
		raise InputError(f'--retries {args.retries}: must be 0 or more')
	if getattr(args, 'lanes', 1) < 1:
		raise InputError(f'--lanes {args.lanes}: must be 1 or more')
	selection = suites.selection(registry, args.suite or [], args.kind or [],
				     getattr(args, 'case', None) or [])
	return Inputs(_out_dir(args.out), known, baseline, extras, selection, variant)


def _source(args: argparse.Namespace, out: Path, extras: List[Path],
	    st: Stages) -> tree.Source:
	with st.stage('extract', 'pristine kernel tree'):
		if args.tree:
			src = tree.user_source(cache_dir(), Path(args.tree))
		elif getattr(args, 'source', None):
			package, wanted = tree.parse_release(args.source)
			version = archive.resolve(package, wanted, out / 'apt-policy.log')
			src = tree.release_source(cache_dir(), package, version, out)
		else:
			src = tree.debian_source(cache_dir(), out)
	src.extras = extras
	return src


def _failed(specs: Sequence[suites.SuiteSpec], kinds: Sequence[str],
	    msg: str) -> List[Suite]:
	"""A failing suite for each (spec, kind) that exists and was asked for."""
	out = []
	for spec in specs:
		names = {'kunit': list(spec.kunit),
			 'kselftest': [spec.kselftest] if spec.kselftest else [],
			 'bench': [spec.name] if spec.bench else []}
		for kind in kinds:
			for name in names.get(kind, []):
				s = Suite(name, kind)
				s.fail_all(Status.FAIL, msg)
				out.append(s)
	return out


def _not_applicable(spec: suites.SuiteSpec, kinds: Sequence[str],
		    why: str) -> List[Suite]:
	"""A suite that cannot run on this tree: skipped, with the reason."""
	out = []
	names = {'kunit': list(spec.kunit),
		 'kselftest': [spec.kselftest] if spec.kselftest else []}
	for kind in kinds:
		for name in names.get(kind, []):
			s = Suite(name, kind)
			s.fail_all(Status.SKIP, NOT_APPLICABLE + why)
			out.append(s)
	return out


def _probe_key(job: guest.GuestJob) -> str:
	"""What a probe's verdict depends on: host boot, QEMU, guest image."""
	boot = Path('/proc/sys/kernel/random/boot_id')
	try:
		qemu = proc.run(['qemu-system-x86_64', '--version'],
				job.out / 'qemu-version.log', 30).lines[:1]
	except KconformError:
		qemu = []
	return '\n'.join([boot.read_text().strip() if boot.exists() else '?',
			  ''.join(qemu).strip(), tree.sha256(job.image)])


def _probe(job: guest.GuestJob, wanted: str, st: Stages) -> str:
	"""auto: KVM if /dev/kvm works and a probe boot reaches userspace.
	The verdict is cached per host boot, QEMU version and guest image;
	--accel kvm|tcg bypasses it."""
	if wanted != 'auto':
		return wanted
	if not os.access('/dev/kvm', os.R_OK | os.W_OK):
		print('kconform: accel: /dev/kvm is not usable, using TCG', flush=True)
		return 'tcg'
	key = _probe_key(job)
	cached = cache_dir() / 'accel-probe'
	if cached.exists() and cached.read_text().startswith(key + '\n'):
		accel = cached.read_text().split('\n')[-1]
		print(f'kconform: accel: {accel} (probe cached for this host boot, '
		      'QEMU and image; --accel bypasses)', flush=True)
		return accel
	with st.stage('probe', f'KVM boot probe ({PROBE_TIMEOUT:.0f} s at most)'):
		ok = guest.probe(job, ACCEL_ARGS['kvm'], PROBE_TIMEOUT)
	print(f'kconform: accel: {"KVM reached userspace" if ok else "KVM did not reach userspace, using TCG"}',
	      flush=True)
	accel = 'kvm' if ok else 'tcg'
	cached.write_text(f'{key}\n{accel}')
	return accel


def _describe(e: BaseException) -> str:
	if isinstance(e, KconformError):
		return str(e)
	if isinstance(e, KeyboardInterrupt):
		return 'interrupted (SIGINT): results so far are kept'
	tb = ''.join(traceback.format_exception(e)[-6:])
	return f'{type(e).__name__}: {e} (the run stopped here; results so far are kept)\n{tb}'


def cmd_run(args: argparse.Namespace) -> int:
	registry = suites.load(REPO)
	inputs = check_inputs(args, registry)
	if args.list:
		for line in listing.lines(REPO, inputs.selection):
			print(line)
		return 0
	st = Stages()
	deps.ensure(deps.RUN_PACKAGES)
	use_ccache()
	rep = report.RunReport(kernel={'source': args.tree or args.source or
				       'linux-source-6.1',
				       'version': '?', 'series_sha256': '',
				       'extra_patches': [
					       {'name': p.name, 'sha256': tree.sha256(p)}
					       for p in inputs.extras],
				       'fixes': _fixes_mode(args)},
			       accel='tcg')
	results: List[Suite] = []
	try:
		_run(args, inputs, registry, rep, results, st)
	except BaseException as e:	# noqa: B902 - whatever ended it, write what exists
		rep.errors.append(_describe(e))
		print(f'kconform: error: {rep.errors[-1]}', file=sys.stderr, flush=True)
	for png in bench.write_plots(results, inputs.out):
		print(f'kconform: plot {png}', flush=True)
	return _finish(rep, results, st, inputs, args)


def _fixes_mode(args: argparse.Namespace) -> str:
	"""apply or omit the series' fixes: a user's tree is tested as it is."""
	if getattr(args, 'fixes', None):
		return str(args.fixes)
	if getattr(args, 'prove_fixes', False) or getattr(args, 'tree', None) \
			or getattr(args, 'source', None) or getattr(args, 'image', None):
		return 'omit'
	return 'apply'


def _run(args: argparse.Namespace, inputs: Inputs,
	 registry: Sequence[suites.SuiteSpec], rep: report.RunReport,
	 results: List[Suite], st: Stages) -> None:
	"""The stages; appends to results as they come, so none are lost."""
	sel = inputs.selection
	specs = sel.specs
	kinds = sel.kinds
	kern = kernels.choose(args.image, inputs.variant, cache_dir(), inputs.out, st)
	src = _source(args, inputs.out, inputs.extras, st)
	rep.kernel['source'] = src.name
	layout = tree.Layout(REPO)
	fix_list = fixes.load(layout.patches, layout.series())
	if not kern.tree_fixes(rep.kernel['fixes']):
		src.omit = tuple(f.patch for f in fix_list)
	try:
		with st.stage('patch', f'series + overlays onto {src.name}'):
			digest, changed = tree.derive(layout, src, inputs.out)
			print(f'kconform: patch: {"re-derived" if changed else "unchanged"}'
			      f' (series {digest[:12]})', flush=True)
	except KconformError as e:
		rep.errors.append(str(e))
		print(f'kconform: error: {e}', file=sys.stderr)
		results += _failed(specs, kinds, str(e))
		return
	rep.kernel.update(version=tree.kernel_version(src.tree), series_sha256=digest)
	kern.describe(rep.kernel)

	if src.dropped:
		rep.kernel['dropped_patches'] = dict(src.dropped)
	variant = inputs.variant
	build_root = src.work / 'build'
	_migrate(build_root)
	gjob = guest.GuestJob(REPO, src.tree, build_root / kern.folder(),
			      inputs.out, args.jobs,
			      int(args.guest_timeout * variant.timeout_factor),
			      variant, lanes=args.lanes)
	kjob = kunitrun.KunitJob(src.tree, gjob.build_dir, inputs.out,
				 int(args.kunit_timeout * variant.timeout_factor),
				 tuple(variant.cmdline.split()))
	kern.prepare(REPO, gjob, kjob, layout.patches, layout.series())
	# A kind of a suite that cannot run on the tree (its kernel code
	# missing, a hook patch it needs dropped) is reported and taken off
	# the suite; what is left is configured, built and run.
	why = {s.name: suites.not_applicable(
		s, tree.missing_code(src.tree, list(s.requires)), src.dropped)
		for s in registry}
	# ... or the kernel config a kind of a suite asks for cannot be set
	# in this tree (6.12: Rust needs a newer rustc than Debian 12's)
	try:
		lacks = kern.config_lacks(gjob, [left for left in (
			suites.without(s, why[s.name]) for s in registry)
			if left.kunit or left.kselftest])
	except KconformError:
		lacks = {}	# every suite's symbol: the build stage reports it
	for name, kinds_lacking in lacks.items():
		why[name].update(kinds_lacking)
	present = []
	for spec in specs:
		for kind, reason in why[spec.name].items():
			print(f'kconform: {spec.name} ({kind}): not applicable to '
			      f'{src.name}: {reason}', flush=True)
			results += _not_applicable(spec, [k for k in kinds if k == kind], reason)
		left = suites.without(spec, why[spec.name])
		if left.kunit or left.kselftest:
			present.append(left)
	runnable = [left for left in (suites.without(s, why[s.name]) for s in registry)
		    if left.kunit or left.kselftest]
	# What the kernel cannot run (a package's: its config-*), by name.
	available = list(runnable)
	nas, params = kern.plan(REPO, available, suites.KINDS)
	# a target that cannot run is not built, whatever the selection
	available = [s for s in available
		     if not (s.kselftest and image.whole(nas, 'kselftest', s.kselftest))]
	ku_specs = [s for s in present if s.kunit and not all(
		image.whole(nas, 'kunit', n) for n in s.kunit)] if 'kunit' in kinds else []
	gs_specs = [s for s in present if s in available and s.kselftest] \
		if 'kselftest' in kinds else []
	bn_specs = [s for s in present if s in available and s.bench] \
		if 'bench' in kinds else []
	wanted = {(k, n) for s in specs for k, names in
		  (('kunit', s.kunit), ('kselftest', (s.kselftest,))) for n in names
		  if k in kinds}
	nas = [n for n in nas if (n.kind, n.suite) in wanted]
	for n in nas:
		print(f'kconform: {n.kind}:{n.suite}:{n.glob}: {n.reason}', flush=True)
	gjob.cmdline = ' '.join(params)
	built = False
	key: Optional[str] = None
	if ku_specs or gs_specs or bn_specs:
		try:
			key = kern.obtain(gjob, runnable,
					  src.state(tree.series_digest(layout, src,
								       selftests=False)), st)
			built = True
		except KconformError as e:
			rep.errors.append(str(e))
			results += _failed(ku_specs + gs_specs + bn_specs, kinds, str(e))
	# The KUnit verdict does not wait for the kselftests' user space
	# when the accelerator is known without a probe boot.
	accel = args.accel
	if accel == 'auto' and not os.access('/dev/kvm', os.R_OK | os.W_OK):
		accel = _probe(gjob, accel, st)
	ku_done = False
	if built and ku_specs and accel != 'auto':
		results += _kunit_stage(kjob, ku_specs, sel, accel, st)
		ku_done = True
	gs_ok = False
	run_list: Optional[List[str]] = None
	if built and (gs_specs or bn_specs):
		try:
			with st.stage('userspace', 'kselftest install + initramfs'):
				# Every present target, whatever --suite says; the
				# selection is made at boot (kconform.run=), so the
				# initramfs does not change with it.
				every = [s for s in available if s.kselftest]
				if not guest.userspace(gjob, every, guest.userspace_key(
						gjob, key, digest, every)):
					print('kconform: userspace: unchanged', flush=True)
				run_list = sel.kselftest_programs(
					guest.installed_programs(gjob.installed))
				if run_list is None and not sel.whole:
					run_list = guest.targets(gs_specs)
			gs_ok = True
		except KconformError as e:
			rep.errors.append(str(e))
			results += _failed(gs_specs + bn_specs, [k for k in kinds
							      if k != 'kunit'], str(e))
	if accel == 'auto':
		accel = _probe(gjob, accel, st) if gs_ok else 'tcg'
	rep.accel = accel
	if built and ku_specs and not ku_done:
		results += _kunit_stage(kjob, ku_specs, sel, accel, st)
	if gs_ok and gs_specs and run_list != []:
		with st.stage('run-kselftest', f'boot the guest ({accel})'):
			results += sel.only(guest.boot(gjob, gs_specs, ACCEL_ARGS[accel],
						       run_list=run_list))
	if gs_ok and bn_specs:
		with st.stage('run-bench', f'boot the guest for the benchmarks ({accel})'):
			results += guest.boot_bench(gjob, bn_specs, ACCEL_ARGS[accel])
	# not-applicable cases that ran anyway (in a program with others)
	# are skipped with the reason before any rerun is considered
	results[:] = sel.only(image.mark(results, nas, image.listed(REPO, nas)))
	today = datetime.date.today()
	for attempt in range(1, args.retries + 1):
		redo = gate.to_rerun(results, inputs.known, rep.kernel['version'],
				     accel, today, fixes.findings(
					     fix_list, results, rep.kernel['fixes'] == 'apply'))
		if not redo:
			break
		names = ', '.join(f'{k}:{n}' for k, n in sorted(redo))
		again: List[Suite] = []
		with st.stage('rerun', f'attempt {attempt + 1} of {names}'):
			ku = [s for s in ku_specs if any(('kunit', n) in redo for n in s.kunit)]
			if built and ku:
				again += _kunit(kjob, ku, sel, ACCEL_ARGS[accel],
						f'-rerun{attempt}',
						only={n for k, n in redo if k == 'kunit'})
			gs = {s.kselftest for s in gs_specs
			      if s.kselftest and ('kselftest', s.kselftest) in redo}
			if gs_ok and gs:
				rl = sorted(gs) if run_list is None else \
					[t for t in run_list if t.split(':')[0] in gs]
				again += sel.only(guest.boot(
					gjob, [s for s in gs_specs if s.kselftest in gs],
					ACCEL_ARGS[accel], run_list=rl,
					log_name=f'guest-console-rerun{attempt}.log'))
		results[:] = image.mark(gate.merge_rerun(
			results, [s for s in again if (s.kind, s.name) in redo]),
			nas, image.listed(REPO, nas))
	if built:
		kern.collect(REPO, inputs.out, gjob, src.tree, Path(args.seeds),
			     layout.patches, layout.series(), rep, st)


def _migrate(build_root: Path) -> None:
	"""Caches of before one build per variant: the KUnit kernel's folder
	goes, the guest kernel's becomes the default variant's."""
	old = build_root / 'kunit'
	if old.is_dir():
		shutil.rmtree(old, ignore_errors=True)
	(build_root / 'kconform.kunitconfig').unlink(missing_ok=True)
	if (build_root / 'guest').is_dir() and not (build_root / 'default').exists():
		(build_root / 'guest').rename(build_root / 'default')


def _kunit_stage(job: kunitrun.KunitJob, specs: Sequence[suites.SuiteSpec],
		 sel: suites.Selection, accel: str, st: Stages) -> List[Suite]:
	"""Boot the KUnit kernel and say its verdict at once."""
	with st.stage('run-kunit', f'boot the KUnit kernel ({accel})'):
		got = _kunit(job, specs, sel, ACCEL_ARGS[accel], '')
	counts = {st_: sum(1 for s in got for c in s.cases if c.status == st_)
		  for st_ in Status}
	print(f'kconform: kunit: {counts[Status.PASS]} passed, '
	      f'{sum(counts[b] for b in (Status.FAIL, Status.CRASH, Status.TIMEOUT))} '
	      f'not passed, {counts[Status.SKIP]} skipped (before known issues)',
	      flush=True)
	return got


def _kunit(job: kunitrun.KunitJob, specs: Sequence[suites.SuiteSpec],
	   sel: suites.Selection, accel: Sequence[str], tag: str,
	   only: Optional[Set[str]] = None) -> List[Suite]:
	"""One boot per --case glob (kunit.filter_glob takes one), or one."""
	out: List[Suite] = []
	names = [n for s in specs for n in s.kunit if only is None or n in only]
	globs = sel.kunit_globs(names, everything=only is None and sel.whole)
	for n, glob in enumerate(globs):
		# '' boots every suite: each one selected must then appear.
		expected = [s for s in names
			    if not glob or fnmatch.fnmatchcase(s, glob.split('.')[0])]
		got = kunitrun.execute(job, expected, accel, filter_glob=glob,
				       tag=f'{tag}-{n}' if len(globs) > 1 else tag)
		for s in got:
			have = next((o for o in out if o.name == s.name), None)
			if have is None:
				out.append(s)
			else:
				have.cases += [c for c in s.cases
					       if c.name not in {x.name for x in have.cases}]
				have.settle()
	return sel.only(out)


def _finish(rep: report.RunReport, results: List[Suite], st: Stages,
	    inputs: Inputs, args: argparse.Namespace) -> int:
	rep.suites = results
	rep.stages = st.times
	baseline = inputs.baseline
	if baseline is not None:
		baseline = {k: v for k, v in baseline.items() if inputs.selection.wants(*k)}
	layout = tree.Layout(REPO)
	try:
		fix_list = fixes.load(layout.patches, layout.series())
	except KconformError as e:	# results are written whatever it says
		rep.errors.append(str(e))
		fix_list = []
	applied = rep.kernel.get('fixes', 'apply') == 'apply'
	rep.fixes = fixes.verdicts(fix_list, results, applied, 'package' in rep.kernel)
	verdict = gate.decide(results, inputs.known, baseline, datetime.date.today(),
			      rep.kernel.get('version', '?'), rep.accel,
			      getattr(args, 'fail_on_flaky', False),
			      fixes.findings(fix_list, results, applied))
	if getattr(args, 'prove_fixes', False):
		verdict.problems += fixes.proof(rep.fixes, verdict.new_failures +
						verdict.new_passes + verdict.appeared +
						verdict.vanished)
	rep.gate = verdict.to_json()
	out = inputs.out
	report.write_json(rep, out / 'results.json')
	report.write_junit(rep, out / 'junit.xml')
	if getattr(args, 'kcidb', None):
		kcidb.write(rep, Path(args.kcidb))
	table = report.summary(rep, verdict.marks) + \
		fixes.lines(rep.fixes, rep.kernel['source'] if 'package' in rep.kernel
			    else '') + \
		rep.coverage_lines
	for line in table:
		print(line)
	print(f'kconform: results in {out} (results.json, junit.xml, logs)')
	lines = verdict.lines()
	(out / 'summary.txt').write_text('\n'.join(table + lines) + '\n')
	for line in lines:
		print(line)
	return 0 if verdict.ok and not rep.errors else 1


def cmd_parse(args: argparse.Namespace) -> int:
	"""A console log saved elsewhere, through the same parser and gate."""
	registry = suites.load(REPO)
	inputs = check_inputs(args, registry)
	text = gate.read_text(Path(args.log), 'LOG')
	raw = text.splitlines()
	expected = inputs.selection.expected(args.kind[0]) if args.suite else []
	rep = report.RunReport(kernel={'source': f'console log {args.log}',
				       'version': console.kernel_version(raw),
				       'series_sha256': '',
				       'fixes': args.fixes or 'apply'}, accel=args.accel)
	results: List[Suite] = []
	st = Stages()
	try:
		with st.stage('parse', f'{args.kind[0]} console {args.log}'):
			if args.kind[0] == 'kunit':
				results += console.suites_from_console(
					raw, 'kunit', expected, False, '<kunit boot>')
			else:
				rest, sections = bench.split(raw)
				results += console.suites_from_console(
					rest, 'kselftest', expected, False, '<guest boot>')
				results += bench.suites(sections, [], False)
			results[:] = inputs.selection.only(results)
	except BaseException as e:	# noqa: B902 - whatever ended it, write what exists
		rep.errors.append(_describe(e))
	return _finish(rep, results, st, inputs, args)


def cmd_series(args: argparse.Namespace) -> int:
	"""Apply the series (and extras), then checkpatch --strict each patch."""
	out = Path(args.out).resolve()
	out.mkdir(parents=True, exist_ok=True)
	st = Stages()
	deps.ensure(deps.RUN_PACKAGES)
	layout = tree.Layout(REPO)
	src = _source(args, out, [_patch_file(p) for p in args.patch or []], st)
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
	src = _source(args, out, [_patch_file(p) for p in args.patch or []], st)
	with st.stage('export', 'throwaway git repository of the pristine tree'):
		files = export.export(tree.Layout(REPO), src, cache_dir() / 'export-git',
				      out, cache_dir() / 'export-logs')
	print(f'exported {len(files)} files to {out}')
	return 0


def _read_results(path: Path) -> Dict[str, Any]:
	try:
		data = json.loads(path.read_text())
	except (OSError, ValueError) as e:
		return {'errors': [f'{path}: {e}'], 'suites': []}
	return data if isinstance(data, dict) else {'errors': [f'{path}: not an object']}


def _stopped(path: Path) -> bool:
	"""Did a signal end that run (a matrix or bisect stops then too)?"""
	return any(str(e).startswith(('terminated by', 'interrupted'))
		   for e in _read_results(path).get('errors', []))


def cmd_matrix(args: argparse.Namespace) -> int:
	"""One run per release, then the table of what differs."""
	out = _out_dir(args.out)
	extra = shlex.split(args.run_args)
	for r in args.releases:
		try:
			matrix.run_args(r)
		except ValueError as e:
			raise InputError(str(e)) from e
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
			main(['run', *matrix.run_args(r), '--out', str(folder), *extra])
			wall = round(time.monotonic() - start, 1)
			folder.mkdir(parents=True, exist_ok=True)
			wall_file.write_text(json.dumps({'wall_s': wall}) + '\n')
			print(f'kconform: matrix: {r} done in {wall:.0f} s', flush=True)
			if _stopped(folder / 'results.json'):
				print('kconform: matrix: stopped by a signal', flush=True)
				return 1
		if wall_file.exists():
			walls[r] = float(_read_results(wall_file).get('wall_s', 0.0))
		results[r] = _read_results(folder / 'results.json')
	table, doc = matrix.summary(args.releases, results, walls)
	(out / 'matrix.json').write_text(json.dumps(doc, indent=1) + '\n')
	(out / 'matrix.txt').write_text('\n'.join(table) + '\n')
	for line in table:
		print(line)
	print(f'kconform: matrix in {out} (matrix.json, matrix.txt, a folder per release)')
	return 0 if all(not r.get('errors') for r in results.values()) else 1


def cmd_bisect(args: argparse.Namespace) -> int:
	"""The first patch of the stack that makes the case fail."""
	registry = suites.load(REPO)
	sel = suites.selection(registry, args.suite or [], args.kind or [],
			       args.case or [])
	if not args.case and not args.suite:
		raise InputError('bisect needs --case GLOB or --suite NAME')
	patches = [_patch_file(p) for p in args.patch or []]
	if not patches:
		raise InputError('bisect needs the stack: --patch A --patch B ...')
	out = _out_dir(args.out)
	extra = shlex.split(args.run_args)
	picked = [a for name in args.suite or [] for a in ('--suite', name)] + \
		[a for kind in args.kind or [] for a in ('--kind', kind)] + \
		[a for glob in args.case or [] for a in ('--case', glob)]
	start = time.monotonic()

	def test(k: int) -> List[str]:
		def attempt(i: int) -> str:
			folder = out / f'step-{k:02d}' / f'try-{i + 1}'
			print(f'kconform: bisect: step {k} (patches 1..{k}), attempt {i + 1}',
			      flush=True)
			main(['run', *[a for p in patches[:k] for a in ('--patch', str(p))],
			      '--retries', '0', '--out', str(folder), *picked, *extra])
			if _stopped(folder / 'results.json'):
				raise KconformError('bisect stopped by a signal')
			v = bisect.attempt_verdict(_read_results(folder / 'results.json'),
						   sel.wants)
			print(f'kconform: bisect: step {k} attempt {i + 1}: {v} '
			      f'({time.monotonic() - start:.0f} s so far)', flush=True)
			return v
		return bisect.repeat(attempt, args.repeats)

	got = bisect.search(len(patches), test)
	wall = time.monotonic() - start
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
	return 0 if got.first_bad else 1


def cmd_mutate(args: argparse.Namespace) -> int:
	return mutate.command(args, REPO, cache_dir(), main)


def cmd_deps(args: argparse.Namespace) -> int:
	deps.ensure(deps.RUN_PACKAGES + (deps.TEST_PACKAGES if args.tests else ()) +
		    (deps.COVERAGE_PACKAGES if args.coverage else ()))
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
				help='also write the run as KCIDB v5 JSON')
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
	run.add_argument('--jobs', type=int, default=len(os.sched_getaffinity(0)))
	run.add_argument('--kunit-timeout', type=int, default=300, metavar='S')
	run.add_argument('--guest-timeout', type=int, default=900, metavar='S')
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
	mx.set_defaults(func=cmd_matrix)

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
