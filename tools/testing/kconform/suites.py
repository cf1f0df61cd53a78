# SPDX-License-Identifier: GPL-2.0
"""The suite registry, suites.toml: one entry per feature suite.

By convention an entry named N has kunitconfig/N.config (its KUnit part,
printing KTAP suite N unless `kunit` lists other names) and kselftests/N/
(its kselftest target). `requires` names kernel files, and optionally a
text in them, without which the suite's kernel code is missing.
`patches` globs the series patches (hooks) its code needs, per kind: on
a release tree where one does not apply, that kind of the suite is not
applicable; a key "kind:case-glob" needs them for those cases only (a
program of a kselftest target that drives a test module of the series),
which are then skipped by name while the others run.
`cmdline` is added to the guest kernel's command line. `bench` names
programs of the suite's kselftest target that the guest runs, as
benchmarks (see bench.py), in the boot of `--kind bench`, whose command
line has `bench_cmdline` instead of `cmdline`.
`modules` and `needs` say what a package's kernel (--image, image.py)
must load or have. `upstream` names the tree's own BPF selftests of the
feature, test_progs selectors (upstream.py).
"""

from __future__ import annotations

import dataclasses
import fnmatch
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from . import tomlfile
from .model import InputError, KconformError, Kind, Suite, runner_made

KINDS = (Kind.KUNIT, Kind.KSELFTEST)	# what a run runs unless --kind says
ALL_KINDS = KINDS + (Kind.BENCH,)	# bench: only when asked (make bench)
# the kselftest suite of every table's `upstream` tests (upstream.py)
UPSTREAM = 'upstream'
KEYS = ('kunit', 'requires', 'cmdline', 'bench', 'modules', 'needs',
	'bench_cmdline', 'patches', 'alone', 'seconds',
	'upstream', 'mutant_programs')	# of a suites.toml table


@dataclass(frozen=True)
class SuiteSpec:
	name: str
	kunitconfig: Optional[Path]
	kunit: Tuple[str, ...]
	kselftest: Optional[str]
	requires: Tuple[Tuple[str, Optional[str]], ...] = field(default=())
	cmdline: str = ''
	bench: Tuple[str, ...] = field(default=())
	# modules the guest loads when the kernel has the target's options
	# as modules (a package's kernel, --image)
	modules: Tuple[str, ...] = field(default=())
	# [case glob, need]: cases that need more than the target's config:
	# a config line, or what only our own kernel build makes (text)
	needs: Tuple[Tuple[str, str], ...] = field(default=())
	bench_cmdline: str = ''
	# (kind, series glob, case glob): the hook patches a kind of it
	# needs, for its cases of the case glob ('*': the whole kind)
	patches: Tuple[Tuple[str, str, str], ...] = field(default=())
	# why its kselftest target must not run beside others ('' if it may)
	alone: str = ''
	# its kselftest target's case time in a boot per variant ('' for
	# any), as shipped: the lanes' plan before this machine has timed a
	# boot of its own
	seconds: Tuple[Tuple[str, float], ...] = ()
	# upstream's test_progs selectors of the feature ("test[/subtest]")
	upstream: Tuple[str, ...] = field(default=())
	# mutate --schemata: of the kselftest targets that judge its mutants,
	# the programs that do, (target, program); the others run whole
	mutant_programs: Tuple[Tuple[str, str], ...] = field(default=())

	def names(self, kind: str) -> Tuple[str, ...]:
		"""The suite names results.json gives this suite of a kind."""
		if kind == Kind.KUNIT:
			return self.kunit
		if kind == Kind.KSELFTEST:
			return (self.kselftest,) if self.kselftest else ()
		return (self.name,) if kind == Kind.BENCH and self.bench else ()

	def seconds_on(self, variant: str) -> float:
		"""The shipped case time of its kselftest target on a variant
		(0: not known)."""
		times = dict(self.seconds)
		return times.get(variant, times.get('', 0.0))


def _seconds(name: str, value: Any) -> Tuple[Tuple[str, float], ...]:
	"""`seconds`: a number (every variant) or a table of them by variant."""
	items = value.items() if isinstance(value, dict) else [('', value)]
	for variant, v in items:
		if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
			raise KconformError(
				f'suites.toml: [{name}] seconds = {value!r}: want the seconds '
				'its kselftest target takes, a number >= 0 or a table of '
				'them by variant')
	return tuple((str(k), float(v)) for k, v in items)


def load(repo: Path) -> List[SuiteSpec]:
	data = tomlfile.tables(repo / 'suites.toml', KEYS)
	specs = []
	for name, entry in data.items():
		frag = repo / 'kunitconfig' / f'{name}.config'
		ksft = repo / 'kselftests' / name
		reqs = []
		for item in entry.get('requires', []):
			reqs.append((str(item[0]), str(item[1]) if len(item) > 1 else None))
		specs.append(SuiteSpec(
			name=name,
			kunitconfig=frag if frag.exists() else None,
			kunit=tuple(entry.get('kunit', [name] if frag.exists() else [])),
			kselftest=name if ksft.is_dir() else None,
			requires=tuple(reqs),
			cmdline=str(entry.get('cmdline', '')),
			bench=tuple(str(b) for b in entry.get('bench', [])),
			modules=tuple(str(m) for m in entry.get('modules', [])),
			needs=tuple((str(n[0]), str(n[1])) for n in entry.get('needs', [])),
			bench_cmdline=str(entry.get('bench_cmdline', '')),
			patches=_patches(name, entry.get('patches', {})),
			alone=str(entry.get('alone', '')),
			seconds=_seconds(name, entry.get('seconds', 0)),
			upstream=_upstream(name, entry.get('upstream', [])),
			mutant_programs=_programs(name, entry.get('mutant_programs', []))))
		if not specs[-1].kunitconfig and not specs[-1].kselftest:
			raise KconformError(f'suites.toml: {name} has neither '
					    f'{frag} nor {ksft}/')
		if specs[-1].bench and not specs[-1].kselftest:
			raise KconformError(f'suites.toml: {name} has a bench but '
					    f'no {ksft}/ to build it in')
	return specs


def _upstream(name: str, value: object) -> Tuple[str, ...]:
	if not isinstance(value, list) or not all(
			isinstance(v, str) and re.fullmatch(r'[A-Za-z0-9_]+(/[^/,]+)?', v)
			for v in value):
		raise KconformError(f'suites.toml: [{name}] upstream must be '
				    '["test", "test/subtest-glob", ...] (test_progs -a)')
	return tuple(value)


def _programs(name: str, value: object) -> Tuple[Tuple[str, str], ...]:
	if not isinstance(value, list) or not all(
			isinstance(v, str) and re.fullmatch(r'[A-Za-z0-9_]+:[A-Za-z0-9_.-]+', v)
			for v in value):
		raise KconformError(f'suites.toml: [{name}] mutant_programs must be '
				    '["target:program", ...]')
	return tuple((t, p) for t, _, p in (v.partition(':') for v in value))


def _patches(name: str, value: object) -> Tuple[Tuple[str, str, str], ...]:
	def key(k: str) -> Tuple[str, str]:
		kind, colon, cases = k.partition(':')
		return kind, cases if colon else '*'
	if not isinstance(value, dict) or not all(
			key(k)[0] in KINDS and key(k)[1] for k in value) or \
			not all(isinstance(v, list) for v in value.values()):
		raise KconformError(f'suites.toml: [{name}] patches must be '
				    '{kunit = [glob, ...], kselftest = [glob, ...], '
				    '"kselftest:case-glob" = [glob, ...]}')
	return tuple((key(k)[0], str(g), key(k)[1]) for k, globs in value.items() for g in globs)


def _dropped(spec: SuiteSpec, kind: str, cases: str, dropped: Dict[str, str]) -> List[str]:
	return [f'patch {p} does not apply ({r})' for p, r in dropped.items()
		if any(k == kind and c == cases and fnmatch.fnmatchcase(p, g)
		       for k, g, c in spec.patches)]


def not_applicable(spec: SuiteSpec, lacking: Sequence[str],
		   dropped: Dict[str, str]) -> Dict[str, str]:
	"""Why each kind of a suite cannot run on this tree (none when it
	can): its kernel code is missing, or a patch that kind needs does
	not apply."""
	out: Dict[str, str] = {}
	for kind in [k for k in KINDS if spec.names(k)]:
		why = _dropped(spec, kind, '*', dropped)
		if lacking:
			why.insert(0, 'its kernel code is missing: ' + '; '.join(lacking))
		if why:
			out[kind] = '; '.join(why)
	return out


def cases_not_applicable(spec: SuiteSpec, dropped: Dict[str, str]) -> List[Tuple[str, str, str]]:
	"""(kind, case glob, why) for the cases that need a patch that does
	not apply to this tree; the rest of their kind runs."""
	out = []
	for kind, cases in dict.fromkeys((k, c) for k, _, c in spec.patches if c != '*'):
		why = _dropped(spec, kind, cases, dropped)
		if why:
			out.append((kind, cases, '; '.join(why)))
	return out


def without(spec: SuiteSpec, kinds: Iterable[str]) -> SuiteSpec:
	"""The suite without these kinds (not applicable to the tree): what
	is left is configured, built and run as any suite."""
	gone = set(kinds)
	return dataclasses.replace(
		spec, kunitconfig=None if Kind.KUNIT in gone else spec.kunitconfig,
		kunit=() if Kind.KUNIT in gone else spec.kunit,
		kselftest=None if Kind.KSELFTEST in gone else spec.kselftest,
		bench=() if Kind.KSELFTEST in gone else spec.bench)


def select(specs: Sequence[SuiteSpec], names: Sequence[str]) -> List[SuiteSpec]:
	if not names:
		return list(specs)
	known = {s.name: s for s in specs}
	unknown = [n for n in names if n not in known]
	if unknown:
		raise InputError(f'--suite {", ".join(unknown)}: unknown suite(s); '
				 f'known: {", ".join(known)}')
	return [known[n] for n in names]


def _split(glob: str) -> Tuple[str, str]:
	"""--case SUITE.CASE, as kunit.filter_glob: the first dot splits."""
	suite, dot, case = glob.partition('.')
	return suite, case if dot else '*'


@dataclass(frozen=True)
class Selection:
	"""What --suite, --kind and --case ask for.

	A --case glob is `SUITE.CASE` as for kunit.filter_glob: SUITE globs a
	KUnit suite or a kselftest target, CASE a case name as results.json
	spells it (a kselftest case is `program/fixture[.variant].test`).
	The runner's own `<...>` cases are kept whatever the globs say.
	"""
	specs: Tuple[SuiteSpec, ...]
	kinds: Tuple[str, ...]
	cases: Tuple[str, ...] = ()
	whole: bool = True		# no --suite: every registered suite

	def _names(self, kind: str) -> List[str]:
		return [n for s in self.specs for n in s.names(kind)]

	def _known(self, kind: str) -> List[str]:
		"""The suite names a kind of the selection may report: its
		suites', and upstream's when they name upstream tests."""
		up = kind == Kind.KSELFTEST and any(s.upstream for s in self.specs)
		return self._names(kind) + ([UPSTREAM] if up else [])

	def wants(self, kind: str, suite: str, case: str) -> bool:
		if kind not in self.kinds:
			return False
		if suite not in self._known(kind) and not runner_made(suite):
			return False
		if not self.cases or runner_made(case):
			return True
		return any(fnmatch.fnmatchcase(suite, sg) and fnmatch.fnmatchcase(case, cg)
			   for sg, cg in map(_split, self.cases))

	def only(self, suites: Sequence[Suite]) -> List[Suite]:
		"""The suites with only the cases asked for (6.1's harness has no
		test filter, so a selected program may report more)."""
		if not self.cases:
			return list(suites)
		out = []
		for s in suites:
			s.cases = [c for c in s.cases if self.wants(s.kind, s.name, c.name)]
			if s.cases:
				s.settle()
				out.append(s)
		return out

	def expected(self, kind: str) -> List[str]:
		names = self._names(kind)
		if not self.cases:
			return names
		return [n for n in names
			if any(fnmatch.fnmatchcase(n, _split(g)[0]) for g in self.cases)]

	def kunit_globs(self, names: Sequence[str], everything: bool) -> List[str]:
		"""kunit.filter_glob values, one boot each ('' = every suite the
		kernel has). The KUnit kernel holds every suite, so a --suite
		selection is made here, at boot, not in its configuration."""
		if not self.cases:
			return [''] if everything else list(names)
		return [g for g in self.cases
			if any(fnmatch.fnmatchcase(n, _split(g)[0]) for n in names)]

	def kselftest_programs(self, installed: Sequence[str]) -> Optional[List[str]]:
		"""run_kselftest.sh `-t target:program` entries, None = all."""
		if not self.cases:
			return None
		out = []
		for entry in installed:
			target, _, prog = entry.partition(':')
			for sg, cg in map(_split, self.cases):
				# a kselftest case is program/..., upstream's test_progs:...
				pg = re.split('[/:]', cg, maxsplit=1)[0] if re.search('[/:]', cg) else '*'
				if fnmatch.fnmatchcase(target, sg) and \
						fnmatch.fnmatchcase(prog, pg):
					out.append(entry)
					break
		return out


def selection(registry: Sequence[SuiteSpec], names: Sequence[str],
	      kinds: Sequence[str], cases: Sequence[str]) -> Selection:
	specs = select(registry, names)
	chosen = tuple(kinds) or KINDS
	sel = Selection(tuple(specs), chosen, tuple(cases), not names)
	for glob in cases:
		sg = _split(glob)[0]
		if not any(fnmatch.fnmatchcase(n, sg) for k in chosen
			   for n in sel._known(k)):
			raise InputError(f'--case {glob}: its suite part {sg!r} matches '
					 f'no selected suite')
	return sel
