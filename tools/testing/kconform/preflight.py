# SPDX-License-Identifier: GPL-2.0
"""What a command checks before its first stage, and how it ends.

Every argument and every path, input or output, is checked before
anything is extracted, built or written: a bad one is an InputError
(exit 2, one line). No output may overwrite an input or another output
(the one exception: a --baseline in --out, read before the run writes
its results.json over it). A console is read as `run` reads the guest's
(undecodable bytes replaced), and no input is read past a bound: a
/dev/zero is refused, not read until memory runs out. A SIGINT or
SIGTERM is held while the outputs are written, so they are written
whole; one that comes while the log is read ends the command, with
nothing written.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import signal
import sys
import tempfile
from pathlib import Path
from typing import Iterator, List, Optional, Sequence, Tuple

from . import archive, gate, guest, image, tree
from .model import InputError

# The most a command reads of an input; one more byte and it is refused.
LOG_LIMIT = 256 << 20		# a console: a few MB; a flood of warnings: more
OUTPUTS = ('results.json', 'junit.xml', 'summary.txt')
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
REPORTED = 'interrupted by'


def resolved(path: str, what: str) -> Path:
	"""The absolute path, or an InputError (a symlink loop)."""
	try:
		return Path(path).resolve()
	except (OSError, RuntimeError) as e:
		raise InputError(f'{what} {path}: {e}') from e


def unwritable(path: Path) -> str:
	"""Why a file (or a new file in a folder) cannot be written, or ''.
	Tried, not read from mode bits: root passes every os.access test, and
	a file of /proc or /sys, or a read-only file system, fails only when
	written. An existing file is opened to append (nothing changes), a
	folder gets a file made and removed at once."""
	try:
		if path.is_dir():
			fd, name = tempfile.mkstemp(dir=path, prefix='.kconform-')
			os.close(fd)
			os.unlink(name)
		else:
			with open(path, 'ab'):
				pass
	except OSError as e:
		return f'not writable ({e.strerror or e})'
	return ''


def _writable(path: Path, what: str) -> None:
	"""An output that may be written: a file or nothing yet, in a
	writable folder."""
	if path.is_symlink() and not path.exists():
		raise InputError(f'{what} {path}: a dangling or looping symlink')
	if path.exists() and not path.is_file():
		raise InputError(f'{what} {path}: exists and is not a regular file')
	parent = path.parent
	if not parent.is_dir():
		raise InputError(f'{what} {path}: {parent} is not a folder')
	why = unwritable(path if path.exists() else parent)
	if why:
		raise InputError(f'{what} {path}: {why}')


def _same(a: Path, b: Path) -> bool:
	try:
		return a == b or (a.exists() and b.exists() and a.samefile(b))
	except OSError:
		return False


def outputs(args: argparse.Namespace, out: Path,
	    inputs: Sequence[Tuple[str, Path]]) -> None:
	"""Each output can be written and overwrites no input and no other
	output. inputs: (option, path) of what the command reads."""
	outs = [(f'--out {out}:', out / name) for name in OUTPUTS]
	if getattr(args, 'kcidb', None):
		outs.append(('--kcidb', resolved(args.kcidb, '--kcidb')))
	for what, path in outs:
		_writable(path, what)
	for n, (what, path) in enumerate(outs):
		for other, opath in outs[:n]:
			if _same(path, opath):
				raise InputError(f'{what} {path}: also {other} {opath}')
		for option, ipath in inputs:
			baseline_in_out = option == '--baseline' and path == out / 'results.json'
			if _same(path, ipath) and not baseline_in_out:
				raise InputError(f'{what} {path}: would overwrite the input '
						 f'{option} {ipath}')


def _inputs(args: argparse.Namespace) -> List[Tuple[str, Path]]:
	got = [('--known-issues', resolved(args.known_issues, '--known-issues'))]
	if getattr(args, 'baseline', None):
		got.append(('--baseline', resolved(args.baseline, '--baseline')))
	got += [('--patch', resolved(p, '--patch')) for p in getattr(args, 'patch', None) or []]
	if getattr(args, 'log', None):
		got.append(('LOG', resolved(args.log, 'LOG')))
	return got


def _baseline_kinds(args: argparse.Namespace, kinds: Sequence[str],
		    baseline: Optional[gate.Baseline]) -> None:
	"""A baseline of kinds this run has none of compares nothing."""
	have = {k for k, _, _ in baseline or {}}
	if baseline and not have & set(kinds):
		raise InputError(f'--baseline {args.baseline}: a run of '
				 f'{", ".join(sorted(have))}, this one is of '
				 f'{", ".join(kinds)}')


def run(args: argparse.Namespace, out: Path, variant: guest.Variant,
	baseline: Optional[gate.Baseline], kinds: Sequence[str]) -> None:
	"""`run`'s arguments beyond their syntax, and its outputs."""
	for option, value, least in (('--jobs', args.jobs, 1),
				     ('--kunit-timeout', args.kunit_timeout, 1),
				     ('--guest-timeout', args.guest_timeout, 1),
				     ('--silence-timeout', 1 if args.silence_timeout is None
				      else args.silence_timeout, 1)):
		if value < least:
			raise InputError(f'{option} {value}: must be {least} or more')
	if args.accel == 'kvm' and not os.access('/dev/kvm', os.R_OK | os.W_OK):
		raise InputError('--accel kvm: /dev/kvm is not usable here')
	if variant.coverage and not Path(args.seeds).is_dir():
		raise InputError(f'--seeds {args.seeds}: not a folder (--variant '
				 f'{variant.name} numbers the seeds\' lines)')
	if args.tree and not all((Path(args.tree) / f).exists()
				 for f in ('Makefile', 'Kconfig', 'arch')):
		raise InputError(f'--tree {args.tree}: not a kernel tree (no Makefile, '
				 'Kconfig and arch/)')
	if args.source:
		archive.resolve(*tree.parse_release(args.source), out / 'apt-policy.log')
	if args.image and not args.image.endswith('.deb'):
		archive.resolve(*image.parse_arg(args.image), out / 'apt-policy.log')
	_baseline_kinds(args, kinds, baseline)
	outputs(args, out, _inputs(args))


def parse(args: argparse.Namespace, out: Path,
	  baseline: Optional[gate.Baseline]) -> List[str]:
	"""`parse`'s outputs, then its console's lines, read as `run` reads
	the guest's; a signal while reading ends it with nothing written."""
	# a guest's console holds the benchmarks too
	_baseline_kinds(args, args.kind + ['bench'] * ('kselftest' in args.kind),
			baseline)
	outputs(args, out, _inputs(args))
	with held() as stop:
		text = gate.read_text(Path(args.log), 'LOG', LOG_LIMIT, 'replace')
	if stop:
		raise InputError(f'LOG {args.log}: {REPORTED} {stop[0]} while reading it; '
				 'nothing written')
	return text.splitlines()


def run_args(args: argparse.Namespace) -> List[str]:
	"""--run-args of matrix and bisect, split as a shell would."""
	try:
		return shlex.split(args.run_args)
	except ValueError as e:
		raise InputError(f'--run-args {args.run_args!r}: {e}') from e


def bisect(args: argparse.Namespace) -> List[str]:
	if args.repeats < 1:
		raise InputError(f'--repeats {args.repeats}: must be 1 or more')
	return run_args(args)


@contextlib.contextmanager
def held() -> Iterator[List[str]]:
	"""SIGINT, SIGTERM and SIGHUP wait until the block is done; the ones
	that came are then taken off (named in the list yielded), not
	delivered: the caller says what they stopped."""
	stop: List[str] = []
	blocked = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
	try:
		yield stop
	finally:
		pending = signal.sigpending() & set(SIGNALS)
		for sig in pending:
			signal.sigwait([sig])
			stop.append(signal.Signals(sig).name)
		signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


@contextlib.contextmanager
def writing() -> Iterator[None]:
	"""The outputs are written whole: a signal that comes meanwhile ends
	the command once they are, with one line and 128 + its number."""
	with held() as stop:
		yield
	if stop:
		print(f'kconform: {REPORTED} {stop[0]} while writing the outputs; '
		      'they are written whole', file=sys.stderr, flush=True)
		raise SystemExit(128 + signal.Signals[stop[0]].value)
