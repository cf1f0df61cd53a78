# SPDX-License-Identifier: GPL-2.0
"""A run: its plan, then its stages, then the finish `run` and `parse` share.

As kunit.py's run_tests is config -> build -> exec, a run is (the
names are the stages' status lines and results.json `stages`)

  fetch          --image: the package's kernel, unpacked (kernels.py)
  extract        the pristine tree
  patch          derive(): the series and overlays onto it
  (plan)         plan(): what runs, what is not applicable and why, the
                 kernel's command-line parameters, the timeouts; nothing
                 is built yet
  configure, build (or kernel: a package's)   build()
  probe          KVM or TCG (--accel auto)
  run-kunit      kunit_stage(): the KUnit boot, beside the next two
  userspace      userspace(): the kselftests installed, the initramfs
  run-kselftest  kselftest_stage(); then run-bench: bench_stage()
  rerun          reruns(): a suite with a failing case, through the same
                 boot functions
  coverage       collect (the coverage variant)
  finish()       the gate, results.json, junit.xml, summary (parse too)

Each stage appends to the results as they come, so none are lost when a
later one fails.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import datetime
import fnmatch
import os
import shutil
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set, Tuple

from . import (applicable, archive, bench, ccache, console, deps, fixes, gate, guest, kcidb,
	       kernels, kunitrun, lanes, preflight, proc, report, suites, tree, upstream)
from .inputs import REPO, Inputs
from .model import KconformError, Kind, Status, Suite
from .stages import Stages, say

ACCEL_ARGS = {'kvm': ['-accel', 'kvm', '-cpu', 'host'], 'tcg': ['-accel', 'tcg']}
PROBE_TIMEOUT = 20.0


def cache_dir() -> Path:
	env = os.environ.get('KCONFORM_CACHE')
	return Path(env) if env else Path.home() / '.cache' / 'kconform'


@dataclass
class RunPlan:
	"""What a run will do, decided before anything is built."""
	kunit: List[suites.SuiteSpec]		# booted in the KUnit kernel
	kselftest: List[suites.SuiteSpec]	# booted in the guest
	bench: List[suites.SuiteSpec]		# booted for the benchmarks
	# every suite the tree can run, whatever the selection: one kernel
	# per variant is configured and built, not one per selection
	runnable: List[suites.SuiteSpec]
	installed: List[suites.SuiteSpec]	# whose kselftest target is installed
	# not applicable to the tree (whole suites), then on the kernel
	not_applicable: List[applicable.NotApplicable]
	params: List[str]			# kernel command-line parameters
	kunit_timeout: int
	guest_timeout: int

	@property
	def builds(self) -> bool:
		return bool(self.kunit or self.kselftest or self.bench)


@dataclass
class Run:
	"""What the stages of one run share."""
	inputs: Inputs
	registry: Sequence[suites.SuiteSpec]
	rep: report.RunReport
	st: Stages
	results: List[Suite] = field(default_factory=list)


@dataclass
class Boots:
	"""The kernel a run boots, once its tree is derived."""
	kern: kernels.Kernel
	src: tree.Source
	layout: tree.Layout
	fix_list: List[fixes.Fix]
	gjob: guest.GuestJob
	kjob: kunitrun.KunitJob
	plan: RunPlan
	key: Optional[str] = None	# what the user space depends on
	built: bool = False
	accel: str = 'auto'
	userspace: bool = False
	run_list: Optional[List[str]] = None


def source(tree_arg: Optional[str], source_arg: Optional[str], out: Path,
	   extras: List[Path], st: Stages) -> tree.Source:
	with st.stage('extract', 'pristine kernel tree'):
		if tree_arg:
			src = tree.user_source(cache_dir(), Path(tree_arg))
		elif source_arg:
			package, wanted = tree.parse_release(source_arg)
			version = archive.resolve(package, wanted, out / 'apt-policy.log')
			src = tree.release_source(cache_dir(), package, version, out)
		else:
			src = tree.debian_source(cache_dir(), out)
	src.extras = extras
	return src


def failing(kind: str, names: Sequence[str], msg: str) -> List[Suite]:
	"""These suites, each failed with a runner-made case saying msg."""
	out = []
	for name in names:
		s = Suite(name, kind)
		s.fail_all(Status.FAIL, msg)
		out.append(s)
	return out


def failed(specs: Sequence[suites.SuiteSpec], kinds: Sequence[str],
	   msg: str) -> List[Suite]:
	"""A failing suite for each (spec, kind) that exists and was asked for."""
	return [s for spec in specs for kind in kinds
		for s in failing(kind, spec.names(kind), msg)]


def nothing_ran(inputs: Inputs, kinds: Sequence[str], errors: Sequence[str],
		why: str) -> List[Suite]:
	"""The results of a run or parse that gave no suite at all: each
	suite the selection expected fails, saying why (the error that ended
	it first), so results.json still has the suites it expected; a
	runner-made suite when it expected none by name."""
	if errors:
		why = f'no result: {errors[-1].splitlines()[0] if errors[-1] else "?"}'
	out = [s for kind in kinds
	       for s in failing(kind, inputs.selection.expected(kind), why)]
	return out or failing(kinds[0], ['<no suite>'], why)


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


def probe(job: guest.GuestJob, wanted: str, st: Stages) -> str:
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


def stopped(e: BaseException) -> bool:
	"""Did a signal end it (SIGINT, SIGTERM)?"""
	return isinstance(e, (KeyboardInterrupt, proc.Terminated))


def describe(e: BaseException) -> str:
	if isinstance(e, KconformError):
		return str(e)
	if isinstance(e, KeyboardInterrupt):
		return 'interrupted (SIGINT): results so far are kept'
	if isinstance(e, proc.Terminated):
		# report.stopped() knows a stopped run's results.json by this
		return f'{e}: results so far are kept'
	tb = ''.join(traceback.format_exception(e)[-6:])
	return f'{type(e).__name__}: {e} (the run stopped here; results so far are kept)\n{tb}'


# --- run ---------------------------------------------------------------------

def run(inputs: Inputs, registry: Sequence[suites.SuiteSpec]
	) -> Tuple[int, report.RunReport]:
	"""Build, boot, run every suite selected, report and gate."""
	deps.ensure(deps.RUN_PACKAGES)
	ccache.setup(cache_dir(), inputs.ccache_remote)
	rep = report.RunReport(kernel=report.KernelInfo(
		inputs.source_name,
		extra_patches=[{'name': p.name, 'sha256': tree.sha256(p)}
			       for p in inputs.extras],
		fixes=inputs.fixes), accel='tcg')
	r = Run(inputs, registry, rep, Stages())
	try:
		stages(r)
	except BaseException as e:	# noqa: B902 - whatever ended it, write what exists
		rep.fail(r.st.failed or 'run', describe(e), stopped(e))
		print(f'kconform: error: {rep.errors[-1]}', file=sys.stderr, flush=True)
	if not r.results:
		r.results += nothing_ran(inputs, inputs.selection.kinds, rep.errors,
					 'no suite ran')
	for png in bench.write_plots(r.results, inputs.out):
		print(f'kconform: plot {png}', flush=True)
	return finish(rep, r.results, r.st, inputs), rep


def stages(r: Run) -> None:
	"""The stages in their order; each appends to r.results."""
	b = derive(r)
	if b is None:
		return
	build(r, b)
	# The KUnit verdict does not wait for the kselftests' user space
	# when the accelerator is known without a probe boot.
	b.accel = r.inputs.accel
	if b.accel == 'auto' and not os.access('/dev/kvm', os.R_OK | os.W_OK):
		b.accel = probe(b.gjob, b.accel, r.st)
	with concurrent.futures.ThreadPoolExecutor(1) as beside:
		# The KUnit boot (one vCPU) runs beside the user space and the
		# kselftest boot, whose kernel boot and waits leave a CPU idle;
		# its verdict is printed as soon as it is known.
		at, ku = len(r.results), None
		if b.built and b.plan.kunit and b.accel != 'auto':
			ku = beside.submit(kunit_stage, r, b)
		userspace(r, b)
		if b.accel == 'auto':
			b.accel = probe(b.gjob, b.accel, r.st) if b.userspace else 'tcg'
		r.rep.accel = b.accel
		if b.built and b.plan.kunit and ku is None:
			ku = beside.submit(kunit_stage, r, b)
		kselftest_stage(r, b)
		if ku is not None:
			r.results[at:at] = ku.result()
	bench_stage(r, b)
	# not-applicable cases that ran anyway (in a program with others)
	# are skipped with the reason before any rerun is considered
	r.results[:] = r.inputs.selection.only(mark(r.results, b.plan))
	reruns(r, b)
	if b.built:
		b.kern.collect(REPO, r.inputs.out, b.gjob, b.src.tree, r.inputs.seeds,
			       b.layout.patches, b.layout.series(), r.rep, r.st)


def derive(r: Run) -> Optional[Boots]:
	"""The kernel, the tree with the series, the jobs and the plan; None
	when the series does not apply (every selected suite fails)."""
	inputs, rep = r.inputs, r.rep
	kern = kernels.choose(inputs.image, inputs.variant, cache_dir(), inputs.out, r.st)
	src = source(inputs.tree, inputs.source, inputs.out, inputs.extras, r.st)
	rep.kernel.source = src.name
	layout = tree.Layout(REPO)
	fix_list = fixes.load(layout.patches, layout.series())
	if not kern.tree_fixes(rep.kernel.fixes):
		src.omit = tuple(f.patch for f in fix_list if not f.release)
	try:
		with r.st.stage('patch', f'series + overlays onto {src.name}'):
			digest, changed = tree.derive(layout, src, inputs.out)
			print(f'kconform: patch: {"re-derived" if changed else "unchanged"}'
			      f' (series {digest[:12]})', flush=True)
	except KconformError as e:
		rep.fail('patch', str(e))
		print(f'kconform: error: {e}', file=sys.stderr)
		sel = inputs.selection
		r.results += failed(sel.specs, sel.kinds, str(e))
		return None
	rep.kernel.version = tree.kernel_version(src.tree)
	rep.kernel.series_sha256 = digest
	if src.dropped:
		rep.kernel.dropped_patches = dict(src.dropped)
	gjob, kjob = jobs(inputs, kern, src, layout, rep.ccache)
	kern.describe(rep.kernel, gjob.build_dir)
	p = plan(inputs, r.registry, kern, src, gjob, kjob)
	# the suites not applicable to the tree come first, as they are known
	r.rep.not_applicable = [n for n in p.not_applicable if not n.named]
	r.results += mark([], dataclasses.replace(p, not_applicable=r.rep.not_applicable))
	gjob.cmdline = ' '.join([*p.params, *inputs.cmdline])
	return Boots(kern, src, layout, fix_list, gjob, kjob, p)


def _migrate(build_root: Path) -> None:
	"""Caches of before one build per variant: the KUnit kernel's folder
	goes, the guest kernel's becomes the default variant's."""
	old = build_root / 'kunit'
	if old.is_dir():
		shutil.rmtree(old, ignore_errors=True)
	(build_root / 'kconform.kunitconfig').unlink(missing_ok=True)
	if (build_root / 'guest').is_dir() and not (build_root / 'default').exists():
		(build_root / 'guest').rename(build_root / 'default')


def jobs(inputs: Inputs, kern: kernels.Kernel, src: tree.Source, layout: tree.Layout,
	 stats: Dict[str, Dict[str, int]]) -> Tuple[guest.GuestJob, kunitrun.KunitJob]:
	"""The guest's and the KUnit kernel's jobs, with the variant's
	timeouts."""
	variant = inputs.variant
	build_root = src.work / 'build'
	_migrate(build_root)
	silence = int(inputs.silence_timeout * variant.timeout_factor) \
		if inputs.silence_timeout else None
	gjob = guest.GuestJob(REPO, src.tree, build_root / kern.folder(),
			      inputs.out, inputs.jobs,
			      int(inputs.guest_timeout * variant.timeout_factor),
			      variant, lanes=inputs.lanes, ccache=stats, silence=silence)
	kjob = kunitrun.KunitJob(src.tree, gjob.build_dir, inputs.out,
				 int(inputs.kunit_timeout * variant.timeout_factor),
				 tuple(variant.cmdline.split()) + inputs.cmdline,
				 silence=silence)
	kern.prepare(REPO, gjob, kjob, layout.patches, layout.series())
	return gjob, kjob


def runs(left: suites.SuiteSpec, src: tree.Source, gjob: guest.GuestJob) -> bool:
	"""Is anything of a suite left to run on the tree (what is not
	applicable taken out): its KUnit suites, its kselftest target, or
	upstream's tests of it that the tree has, which need no hook of
	ours (6.12 runs cgroup_iter's and task_iter's though their KUnit
	hooks do not apply)."""
	return bool(left.kunit or left.kselftest or
		    upstream.known(src.tree, guest.upstream_selectors(gjob, [left])))


def _tree_lacks(registry: Sequence[suites.SuiteSpec], kern: kernels.Kernel,
		src: tree.Source, gjob: guest.GuestJob) -> dict[str, dict[str, str]]:
	"""Per suite, the kinds of it that cannot run on the tree, and why:
	its kernel code missing, a hook patch it needs dropped, or kernel
	config it asks for that this tree cannot set (6.12: Rust needs a
	newer rustc than Debian 12's)."""
	why = {s.name: suites.not_applicable(
		s, tree.missing_code(src.tree, list(s.requires)), src.dropped)
		for s in registry}
	try:
		lacks = kern.config_lacks(gjob, [left for left in (
			suites.without(s, why[s.name]) for s in registry)
			if runs(left, src, gjob)])
	except KconformError:
		lacks = {}	# every suite's symbol: the build stage reports it
	for name, kinds_lacking in lacks.items():
		why[name].update(kinds_lacking)
	return why


def plan(inputs: Inputs, registry: Sequence[suites.SuiteSpec], kern: kernels.Kernel,
	 src: tree.Source, gjob: guest.GuestJob, kjob: kunitrun.KunitJob) -> RunPlan:
	"""What the run will build and boot, and what is not applicable."""
	sel = inputs.selection
	kinds = sel.kinds
	why = _tree_lacks(registry, kern, src, gjob)
	present, whole = [], []
	for spec in sel.specs:
		for kind, reason in why[spec.name].items():
			print(f'kconform: {spec.name} ({kind}): not applicable to '
			      f'{src.name}: {reason}', flush=True)
			whole += [applicable.to_tree(kind, n, reason) for n in spec.names(kind)
				  if kind in kinds]
		for kind, glob, reason in suites.cases_not_applicable(spec, src.dropped):
			if kind in kinds and kind not in why[spec.name]:
				print(f'kconform: {spec.name} ({kind}) {glob}: not applicable '
				      f'to {src.name}: {reason}', flush=True)
				whole += [applicable.NotApplicable(
					kind, n, glob, f'not applicable to {src.name}: {reason}')
					for n in spec.names(kind)]
		left = suites.without(spec, why[spec.name])
		if runs(left, src, gjob):
			present.append(left)
	runnable = [left for left in (suites.without(s, why[s.name]) for s in registry)
		    if runs(left, src, gjob)]
	# What the kernel cannot run (a package's: its config-*), by name.
	nas, params = kern.plan(REPO, runnable, suites.KINDS)
	# a target that cannot run is not built, whatever the selection
	available = [s for s in runnable if not (
		s.kselftest and applicable.whole(nas, Kind.KSELFTEST, s.kselftest))]
	ku = [s for s in present if s.kunit and not all(
		applicable.whole(nas, Kind.KUNIT, n) for n in s.kunit)] \
		if Kind.KUNIT in kinds else []
	# a suite's upstream tests run in the kselftest boot too
	gs = [s for s in present if s in available and
	      (s.kselftest or guest.upstream_selectors(gjob, [s]))] \
		if Kind.KSELFTEST in kinds else []
	bn = [s for s in present if s in available and s.bench] \
		if Kind.BENCH in kinds else []
	wanted = {(k, n) for s in sel.specs for k in suites.KINDS for n in s.names(k)
		  if k in kinds}
	nas = [n for n in nas if (n.kind, n.suite) in wanted]
	if Kind.KSELFTEST in kinds:
		# every selected suite's: one whose own kinds do not apply too
		nas += upstream.not_applicable(src.tree, guest.upstream_selectors(gjob, sel.specs),
					       kern.modules, src.name, kern.name)
	for n in nas:
		print(f'kconform: {n.kind}:{n.suite}:{n.glob}: {n.reason}', flush=True)
	return RunPlan(ku, gs, bn, runnable, available, whole + nas, params,
		       kjob.timeout, gjob.timeout)


def build(r: Run, b: Boots) -> None:
	"""Configure and build the kernel (or unpack the package's); on
	failure every suite that would have booted fails with the reason."""
	p = b.plan
	if not p.builds:
		return
	try:
		b.key = b.kern.obtain(b.gjob, p.runnable, b.src.state(tree.series_digest(
			b.layout, b.src, selftests=False)), r.st)
		b.built = True
	except KconformError as e:
		r.rep.fail('build', str(e))
		r.results += failed(p.kunit + p.kselftest + p.bench,
				    r.inputs.selection.kinds, str(e))


def kunit_stage(r: Run, b: Boots) -> List[Suite]:
	"""Boot the KUnit kernel and say its verdict at once."""
	with r.st.stage('run-kunit', f'boot the KUnit kernel ({b.accel})'):
		got = kunit_boot(b.kjob, b.plan.kunit, r.inputs.selection,
				 ACCEL_ARGS[b.accel], '')
	counts = {st_: sum(1 for s in got for c in s.cases if c.status == st_)
		  for st_ in Status}
	say(f'kconform: kunit: {counts[Status.PASS]} passed, '
	    f'{sum(counts[bad] for bad in (Status.FAIL, Status.CRASH, Status.TIMEOUT))} '
	    f'not passed, {counts[Status.SKIP]} skipped (before known issues)')
	return got


def kunit_boot(job: kunitrun.KunitJob, specs: Sequence[suites.SuiteSpec],
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


def userspace(r: Run, b: Boots) -> None:
	"""The kselftests installed and the initramfs: every installable
	target, whatever --suite says; the selection is made at boot
	(kconform.run=), so the initramfs does not change with it."""
	p, sel = b.plan, r.inputs.selection
	if not b.built or not (p.kselftest or p.bench):
		return
	try:
		with r.st.stage('userspace', 'kselftest install + initramfs'):
			every = p.installed
			if not guest.userspace(b.gjob, every, guest.userspace_key(
					b.gjob, b.key, b.src.state(tree.series_digest(
						b.layout, b.src, kunit_tests=False)), every)):
				say('kconform: userspace: unchanged')
			b.run_list = sel.kselftest_programs(
				guest.installed_programs(b.gjob.installed))
			if b.run_list is None and not sel.whole:
				b.run_list = guest.entries(b.gjob, p.kselftest)
		b.userspace = True
	except KconformError as e:
		r.rep.fail('userspace', str(e))
		r.results += failed(p.kselftest + p.bench,
				    [k for k in sel.kinds if k != Kind.KUNIT], str(e))


def kselftest_boot(r: Run, b: Boots, specs: Sequence[suites.SuiteSpec],
		   run_list: Optional[List[str]], log_name: str) -> List[Suite]:
	return r.inputs.selection.only(guest.boot(
		b.gjob, specs, ACCEL_ARGS[b.accel], run_list=run_list, log_name=log_name))


def kselftest_stage(r: Run, b: Boots) -> None:
	if b.userspace and b.plan.kselftest and b.run_list != []:
		with r.st.stage('run-kselftest', f'boot the guest ({b.accel})'):
			r.results += kselftest_boot(r, b, b.plan.kselftest, b.run_list,
						    'guest-console.log')


def bench_stage(r: Run, b: Boots) -> None:
	if b.userspace and b.plan.bench:
		with r.st.stage('run-bench', f'boot the guest for the benchmarks ({b.accel})'):
			r.results += guest.boot_bench(b.gjob, b.plan.bench, ACCEL_ARGS[b.accel])


def mark(results: List[Suite], p: RunPlan) -> List[Suite]:
	"""The cases the kernel cannot run skipped with the reason."""
	return applicable.mark(results, p.not_applicable,
			       applicable.listed(REPO, p.not_applicable))


def reruns(r: Run, b: Boots) -> None:
	"""A suite with a failing case (no known issue, no fix's finding)
	booted again, --retries times at most; a case bad then good is flaky."""
	today = datetime.date.today()
	for attempt in range(1, r.inputs.retries + 1):
		redo = gate.to_rerun(r.results, r.inputs.known, r.rep.kernel.version,
				     b.accel, today, fixes.findings(
					     b.fix_list, r.results, r.rep.kernel.fixes == 'apply',
					     fixes.release_of(r.rep.kernel)))
		if not redo:
			break
		names = ', '.join(f'{k}:{n}' for k, n in sorted(redo))
		with r.st.stage('rerun', f'attempt {attempt + 1} of {names}'):
			again = rerun(r, b, redo, attempt)
		r.results[:] = mark(gate.merge_rerun(
			r.results, [s for s in again if (s.kind, s.name) in redo]), b.plan)


def rerun(r: Run, b: Boots, redo: Set[Tuple[str, str]], attempt: int) -> List[Suite]:
	"""One rerun of the suites named, through the boots of the first run."""
	again: List[Suite] = []
	ku = [s for s in b.plan.kunit if any((Kind.KUNIT, n) in redo for n in s.kunit)]
	if b.built and ku:
		again += kunit_boot(b.kjob, ku, r.inputs.selection, ACCEL_ARGS[b.accel],
				    f'-rerun{attempt}',
				    only={n for k, n in redo if k == Kind.KUNIT})
	gs = {s.kselftest for s in b.plan.kselftest
	      if s.kselftest and (Kind.KSELFTEST, s.kselftest) in redo}
	# upstream's test_progs, with the selectors of the suites naming them
	up = (Kind.KSELFTEST, upstream.TARGET) in redo
	gs |= {upstream.TARGET} if up else set()
	if b.userspace and gs:
		rl = sorted(gs) if b.run_list is None else \
			[t for t in b.run_list if t.split(':')[0] in gs]
		again += kselftest_boot(r, b, [s for s in b.plan.kselftest if s.kselftest in gs
					       or (up and s.upstream)],
					rl, f'guest-console-rerun{attempt}.log')
	return again


# --- parse -------------------------------------------------------------------

def parse(inputs: Inputs, kind: str, raw: List[str]) -> Tuple[int, report.RunReport]:
	"""A console log saved elsewhere (raw: its lines, read as a run reads
	the guest's), through the same parser and gate."""
	sel = inputs.selection
	expected = sel.expected(kind) if not sel.whole else []
	rep = report.RunReport(kernel=report.KernelInfo(
		f'console log {inputs.log}', console.kernel_version(raw),
		fixes=inputs.fixes), accel=inputs.accel)
	results: List[Suite] = []
	st = Stages()
	try:
		with st.stage('parse', f'{kind} console {inputs.log}'):
			if kind == Kind.KUNIT:
				results += console.suites_from_console(
					raw, Kind.KUNIT, expected, False, '<kunit boot>')
			else:
				rest, sections = bench.split(raw)
				results += lanes.recorded(rest, expected)
				results += bench.suites(sections, [], False)
			results[:] = sel.only(results)
	except BaseException as e:	# noqa: B902 - whatever ended it, write what exists
		rep.fail('parse', describe(e), stopped(e))
	if not results:
		results += nothing_ran(inputs, [kind], rep.errors, (
			f'none of the cases selected ({", ".join(sel.cases)}) is in '
			'the console' if sel.cases else
			f'the console holds no {"KTAP" if kind == Kind.KUNIT else "TAP"} '
			'result of this suite'))
	return finish(rep, results, st, inputs), rep


# --- finish ------------------------------------------------------------------

def _fixes_verdicts(rep: report.RunReport, results: List[Suite]
		    ) -> Tuple[List[fixes.Fix], bool, Optional[str]]:
	layout = tree.Layout(REPO)
	try:
		fix_list = fixes.load(layout.patches, layout.series())
	except KconformError as e:	# results are written whatever it says
		rep.fail('finish', str(e))
		fix_list = []
	applied = rep.kernel.fixes == 'apply'
	release = fixes.release_of(rep.kernel)
	rep.fixes = fixes.verdicts(fix_list, results, applied, rep.kernel.package is not None,
				   release)
	return fix_list, applied, release


def decide(rep: report.RunReport, results: List[Suite], st: Stages,
	   inputs: Inputs) -> gate.Verdict:
	"""The report's suites, fixes and gate."""
	rep.suites = results
	rep.stages = st.with_wall()
	fix_list, applied, release = _fixes_verdicts(rep, results)
	verdict = gate.decide(results, inputs.known, inputs.baseline, datetime.date.today(),
			      rep.kernel.version, rep.accel,
			      inputs.fail_on_flaky,
			      fixes.findings(fix_list, results, applied, release),
			      gate.scope(inputs.selection, results), rep.errors)
	if inputs.prove_fixes:
		verdict.problems += fixes.proof(rep.fixes, verdict.new_failures +
						verdict.new_passes + verdict.appeared +
						verdict.vanished)
	rep.verdict = verdict
	return verdict


def finish(rep: report.RunReport, results: List[Suite], st: Stages,
	   inputs: Inputs) -> int:
	"""The gate, then every output, written whole; the exit code."""
	with preflight.writing():
		return _finish(rep, results, st, inputs)


def _finish(rep: report.RunReport, results: List[Suite], st: Stages,
	    inputs: Inputs) -> int:
	verdict = decide(rep, results, st, inputs)
	out = inputs.out
	report.write_json(rep, out / 'results.json')
	report.write_junit(rep, out / 'junit.xml')
	if inputs.kcidb:
		kcidb.write(rep, verdict, inputs.kcidb)
	table = report.summary(rep) + \
		upstream.side_by_side(inputs.selection.specs, results, verdict.marks) + \
		fixes.lines(rep.fixes, rep.kernel.source if rep.kernel.package is not None
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
