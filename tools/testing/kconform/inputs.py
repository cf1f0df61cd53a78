# SPDX-License-Identifier: GPL-2.0
"""Every input of a run, read and checked once, before the first stage.

`check` turns the command line into `Inputs`; nothing below it reads
the command line.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from . import gate, guest, image, preflight, suites, tree
from .model import InputError, KconformError

REPO = Path(__file__).resolve().parents[3]


@dataclass
class Inputs:
	"""Every input of a run (or a parse), read and checked."""
	out: Path
	known: List[gate.KnownIssue]
	baseline: Optional[Dict[gate.Key, str]]
	extras: List[Path]
	selection: suites.Selection
	variant: guest.Variant
	fixes: str = 'apply'		# apply or omit the series' fixes
	tree: Optional[str] = None	# --tree DIR
	source: Optional[str] = None	# --source PACKAGE[=VERSION]
	image: Optional[str] = None	# --image PACKAGE[=VERSION] or FILE.deb
	prove_fixes: bool = False
	fail_on_flaky: bool = False
	kcidb: Optional[Path] = None
	retries: int = 1
	accel: str = 'auto'
	lanes: int = 2
	jobs: int = 1
	kunit_timeout: int = 300
	guest_timeout: int = 900
	silence_timeout: Optional[int] = None	# --silence-timeout S
	seeds: Path = REPO
	log: Optional[Path] = None	# parse: the console log
	ccache_remote: Optional[str] = None	# --ccache-remote URL
	cmdline: Tuple[str, ...] = ()		# --cmdline: more kernel parameters

	@property
	def source_name(self) -> str:
		"""The tree as the user named it (before it is extracted)."""
		return self.tree or self.source or 'linux-source-6.1'


def out_dir(path: str) -> Path:
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
	why = preflight.unwritable(out)
	if why:
		raise InputError(f'--out {out}: {why}')
	return out


def patch_file(path: str) -> Path:
	p = Path(path).resolve()
	gate.read_text(p, '--patch')		# exists, a file, readable text
	return p


def fixes_mode(args: argparse.Namespace) -> str:
	"""apply or omit the series' fixes: a user's tree is tested as it is."""
	if getattr(args, 'fixes', None):
		return str(args.fixes)
	if getattr(args, 'prove_fixes', False) or getattr(args, 'tree', None) \
			or getattr(args, 'source', None) or getattr(args, 'image', None):
		return 'omit'
	return 'apply'


def _check_tree(args: argparse.Namespace) -> None:
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


def _check_image(args: argparse.Namespace, extras: Sequence[Path],
		 variant: guest.Variant) -> None:
	if not getattr(args, 'image', None):
		return
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


def variant_of(args: argparse.Namespace) -> guest.Variant:
	"""--variant's entry of variants.toml; an unknown name is an error."""
	known_variants = guest.variants(REPO)
	variant = known_variants.get(getattr(args, 'variant', 'default'))
	if variant is None:
		raise InputError(f'--variant {args.variant}: unknown; known: '
				 f'{", ".join(known_variants)}')
	return variant


def _check_numbers(args: argparse.Namespace, variant: guest.Variant) -> None:
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


def check(args: argparse.Namespace, registry: Sequence[suites.SuiteSpec]) -> Inputs:
	"""Read every input once, before anything is written; InputError names
	the first bad one. The baseline is read here, so a run whose --out
	holds it is still compared with the earlier run, not with itself."""
	baseline = gate.load_baseline(Path(args.baseline)) if args.baseline else None
	known = gate.load_known(Path(args.known_issues))
	extras = [patch_file(p) for p in getattr(args, 'patch', None) or []]
	_check_tree(args)
	variant = variant_of(args)
	_check_image(args, extras, variant)
	_check_numbers(args, variant)
	selection = suites.selection(registry, args.suite or [], args.kind or [],
				     getattr(args, 'case', None) or [])
	out = out_dir(args.out)
	if getattr(args, 'cmd', None) == 'run' and not args.list:
		preflight.run(args, out, variant, baseline, selection.kinds)
	return Inputs(
		out, known, baseline, extras, selection, variant,
		fixes=fixes_mode(args), tree=getattr(args, 'tree', None),
		source=getattr(args, 'source', None), image=getattr(args, 'image', None),
		prove_fixes=getattr(args, 'prove_fixes', False),
		fail_on_flaky=args.fail_on_flaky,
		kcidb=Path(args.kcidb) if args.kcidb else None,
		retries=getattr(args, 'retries', 1), accel=args.accel,
		lanes=getattr(args, 'lanes', 2), jobs=getattr(args, 'jobs', 1),
		kunit_timeout=getattr(args, 'kunit_timeout', 300),
		guest_timeout=getattr(args, 'guest_timeout', 900),
		silence_timeout=getattr(args, 'silence_timeout', None),
		seeds=Path(getattr(args, 'seeds', REPO)),
		log=Path(args.log) if getattr(args, 'log', None) else None,
		ccache_remote=getattr(args, 'ccache_remote', None),
		cmdline=tuple(getattr(args, 'cmdline', None) or ()))
