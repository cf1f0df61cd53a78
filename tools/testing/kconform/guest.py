# SPDX-License-Identifier: GPL-2.0
"""The kselftest path: one guest kernel, a busybox initramfs, one boot.

The guest kernel starts from allnoconfig plus tools/testing/guest/
base.config plus the `config` of every registered target (not only the
selected ones, so the kernel does not change with --suite), as kselftest
targets expect, built with TOOLCHAIN (LLVM=1 and Rust). The tests are built and installed by the tree's own
`make -C tools/testing/selftests install`; the initramfs holds Debian's
static busybox, the installed tests and the shared libraries they need.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence

from . import bench, console, kconfig, proc
from .model import KconformError, Suite
from .suites import SuiteSpec

BUSYBOX = Path('/bin/busybox')
# The guest kernel's toolchain, for the kernel and for what kselftest
# targets build against it (external modules): Debian's clang/LLVM 14 and
# rustc 1.63, named by path, since another rustc (rustup's, without
# rust-src) may come first on PATH.
TOOLCHAIN = ('ARCH=x86_64', 'LLVM=1', 'CC=ccache clang',
	     'RUSTC=/usr/bin/rustc', 'HOSTRUSTC=/usr/bin/rustc',
	     'RUSTDOC=/usr/bin/rustdoc', 'BINDGEN=/usr/bin/bindgen')
UP_MARKER = 'kconform: guest userspace up'
# printk.time=1: the guest is configured from allnoconfig, without
# PRINTK_TIME; a time stamp is what lets the parser split a kernel line
# off a test's line that it interrupted on the serial console (seen:
# "# ok 13 fs.ext4_set_capacity_and_notify: 2 callbacks suppressed").
CMDLINE = 'console=ttyS0 reboot=t panic=-1 loglevel=5 printk.time=1'


@dataclass
class GuestJob:
	repo: Path
	tree: Path
	build_dir: Path
	out: Path
	jobs: int
	timeout: int
	tag: str = ''	# the userspace of another boot of this kernel ('-bench')

	@property
	def image(self) -> Path:
		return self.build_dir / 'arch/x86/boot/bzImage'

	@property
	def initramfs(self) -> Path:
		return self.build_dir / f'kconform{self.tag}-initramfs.cpio'

	def make(self, *targets: str) -> List[str]:
		return ['make', '-C', str(self.tree), f'O={self.build_dir}',
			*TOOLCHAIN, f'-j{self.jobs}', *targets]


def targets(specs: Sequence[SuiteSpec]) -> List[str]:
	return [s.kselftest for s in specs if s.kselftest]


def configure(job: GuestJob, specs: Sequence[SuiteSpec]) -> bool:
	"""Write the guest .config; returns False when nothing changed."""
	frags = [job.repo / 'tools/testing/guest/base.config']
	frags += [job.tree / 'tools/testing/selftests' / t / 'config'
		  for t in targets(specs)
		  if (job.tree / 'tools/testing/selftests' / t / 'config').exists()]
	merged = kconfig.merge(frags)
	job.build_dir.mkdir(parents=True, exist_ok=True)
	frag = job.build_dir / 'kconform.config'
	dotconfig = job.build_dir / '.config'
	if frag.exists() and frag.read_text() == merged and dotconfig.exists():
		return False
	frag.write_text(merged)
	proc.check(job.make(f'KCONFIG_ALLCONFIG={frag}', 'allnoconfig'),
		   job.out / 'guest-config.log', 600, 'guest kernel allnoconfig')
	lost = kconfig.missing(merged, dotconfig.read_text())
	if lost:
		frag.unlink()
		raise KconformError('guest .config lacks requested symbols '
				    '(unmet dependencies?):\n  ' + '\n  '.join(lost))
	return True


def build(job: GuestJob) -> None:
	proc.check(job.make('all'), job.out / 'guest-build.log', 3600,
		   'guest kernel build')
	proc.check(job.make('headers'), job.out / 'guest-headers.log', 600,
		   'guest kernel headers')


def install_tests(job: GuestJob, specs: Sequence[SuiteSpec]) -> Path:
	dest = job.build_dir / f'kselftest{job.tag}_install'
	if dest.exists():
		shutil.rmtree(dest)
	names = targets(specs)
	proc.check(['make', '-C', str(job.tree / 'tools/testing/selftests'),
		    f'O={job.build_dir}', *TOOLCHAIN, f'TARGETS={" ".join(names)}',
		    f'KSFT_INSTALL_PATH={dest}', f'-j{job.jobs}', 'install'],
		   job.out / 'kselftest-install.log', 1800, 'kselftest install')
	return dest


def _libraries(binary: Path) -> List[Path]:
	try:
		out = subprocess.run(['ldd', str(binary)], capture_output=True,
				     text=True, timeout=30, check=False).stdout
	except (OSError, subprocess.TimeoutExpired):
		return []
	libs = []
	for line in out.splitlines():
		for word in line.split():
			if word.startswith('/') and os.path.exists(word):
				libs.append(Path(word))
	return libs


def _is_elf(path: Path) -> bool:
	try:
		with open(path, 'rb') as f:
			return f.read(4) == b'\x7fELF'
	except OSError:
		return False


def benches(specs: Sequence[SuiteSpec]) -> List[str]:
	return [s.name for s in specs if s.bench]


def make_initramfs(job: GuestJob, installed: Path,
		   specs: Sequence[SuiteSpec] = ()) -> None:
	root = job.build_dir / f'initramfs{job.tag}-root'
	if root.exists():
		shutil.rmtree(root)
	for d in ('bin', 'sbin', 'usr/bin', 'usr/sbin', 'proc', 'sys', 'dev',
		  'tmp', 'run', 'etc', 'lib', 'lib64'):
		(root / d).mkdir(parents=True)
	if not BUSYBOX.exists():
		raise KconformError(f'{BUSYBOX} is missing: install busybox-static')
	shutil.copy2(BUSYBOX, root / 'bin/busybox')
	init = root / 'init'
	shutil.copyfile(job.repo / 'tools/testing/guest/init', init)
	init.chmod(0o755)
	wrapper = root / 'bin/kconform-timeout'
	shutil.copyfile(job.repo / 'tools/testing/guest/timeout', wrapper)
	wrapper.chmod(0o755)
	shutil.copytree(installed, root / 'kselftest', symlinks=True)
	# What init runs after run_kselftest.sh: "<target> <program>" lines.
	(root / 'kselftest/kconform-benches').write_text(''.join(
		f'{s.kselftest} {prog}\n' for s in specs if s.kselftest
		for prog in s.bench))
	if 'CONFIG_MODULES=y' in (job.build_dir / '.config').read_text().splitlines():
		# /lib/modules/<release> with modules.dep, which busybox's
		# modinfo and modprobe read even for a module given by path.
		proc.check(job.make(f'INSTALL_MOD_PATH={root}', 'modules_install'),
			   job.out / 'guest-modules.log', 600, 'guest modules_install')
	libs = set()
	for f in (root / 'kselftest').rglob('*'):
		if f.is_file() and _is_elf(f):
			libs.update(_libraries(f))
	for lib in sorted(libs):
		target = root / str(lib.resolve()).lstrip('/')
		target.parent.mkdir(parents=True, exist_ok=True)
		shutil.copy2(lib.resolve(), target)
		alias = root / str(lib).lstrip('/')
		if not alias.exists():
			alias.parent.mkdir(parents=True, exist_ok=True)
			alias.symlink_to(lib.resolve())
	files = sorted(str(p.relative_to(root)) for p in root.rglob('*'))
	with open(job.initramfs, 'wb') as out:
		r = subprocess.run(['cpio', '--quiet', '-o', '-H', 'newc',
				    '-R', '0:0'], cwd=root, stdout=out,
				   input='\n'.join(['.'] + files).encode(),
				   stderr=subprocess.PIPE, check=False)
	if r.returncode != 0:
		raise KconformError('cpio failed: ' + r.stderr.decode(errors='replace'))


def qemu_argv(job: GuestJob, accel: Sequence[str], append: str) -> List[str]:
	return ['qemu-system-x86_64', '-nodefaults', '-nographic', '-no-reboot',
		'-m', '2048', '-smp', '2', '-serial', 'stdio',
		'-bios', 'qboot.rom', *accel, '-kernel', str(job.image),
		'-initrd', str(job.initramfs), '-append', append]


def probe(job: GuestJob, accel: Sequence[str], timeout: float) -> bool:
	"""Does a boot with these accelerator arguments reach userspace?"""
	r = proc.run(qemu_argv(job, accel, CMDLINE + ' kconform.probe'),
		     job.out / 'accel-probe.log', timeout, stop_when=UP_MARKER)
	return any(UP_MARKER in l for l in r.lines)


def installed_programs(installed: Path) -> List[str]:
	"""The `target:program` entries run_kselftest.sh knows."""
	f = installed / 'kselftest-list.txt'
	return f.read_text().split() if f.exists() else []


def boot(job: GuestJob, specs: Sequence[SuiteSpec], accel: Sequence[str],
	 echo: bool = False, run_list: Optional[Sequence[str]] = None,
	 log_name: str = 'guest-console.log') -> List[Suite]:
	"""One boot of the kselftests; run_list (`target` or `target:program`
	entries) limits what run_kselftest.sh runs."""
	parts = [CMDLINE] + [s.cmdline for s in specs if s.cmdline]
	expected = targets(specs)
	if run_list is not None:
		parts.append('kconform.run=' + ','.join(run_list))
		expected = sorted({e.split(':')[0] for e in run_list})
	r = proc.run(qemu_argv(job, accel, ' '.join(parts)), job.out / log_name,
		     job.timeout, echo=echo)
	return console.suites_from_console(r.lines, 'kselftest', expected,
					   r.timed_out, '<guest boot>', r.times)


# The benchmarks boot the kselftest guest kernel (no second kernel build)
# with its debugging options that cost at run time switched off: kmemleak
# (rust_samples' config) tracks every allocation and scans memory; the
# others are inactive unless asked for on the command line (slub_debug=,
# which only rust_samples' cmdline adds) or through debugfs (failslab,
# ftrace's nops).
BENCH_CMDLINE = 'kconform.bench kmemleak=off'


def boot_bench(job: GuestJob, specs: Sequence[SuiteSpec], accel: Sequence[str],
	       log_name: str = 'bench-console.log') -> List[Suite]:
	"""One boot that runs only the benchmarks (no kselftest), with each
	suite's bench_cmdline (not its cmdline) on the command line."""
	parts = [CMDLINE, BENCH_CMDLINE] + [s.bench_cmdline for s in specs
					    if s.bench and s.bench_cmdline]
	r = proc.run(qemu_argv(job, accel, ' '.join(parts)), job.out / log_name,
		     job.timeout)
	_, _, sections = bench.split_timed(r.lines, r.times)
	return bench.suites(sections, benches(specs), r.timed_out, r.times)
