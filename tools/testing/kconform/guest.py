# SPDX-License-Identifier: GPL-2.0
"""The kernel: one build per variant, booted for KUnit and for kselftests.

A variant (tools/testing/guest/variants.toml) is allnoconfig plus
tools/testing/guest/base.config plus the `config` of every present
kselftest target plus the kunitconfig/ fragment of every present KUnit
suite (not only the selected ones, so the kernel does not change with
--suite), plus the variant's own fragment; built with TOOLCHAIN (LLVM=1
and Rust). kunit.py exec boots its image for the KUnit suites; for the
kselftests it boots with kunit.enable=0 and an initramfs holding Debian's
static busybox, the tests installed by the tree's own
`make -C tools/testing/selftests install` and the libraries they need.
A build or an initramfs whose inputs did not change is not made again:
the user space's inputs are what it reads of the tree and what it takes
from the build (products_key), so a KUnit test edited, relinked into a
kernel whose BTF, exports and modules are the same, keeps it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from . import (bench, ccache, image as package_image, kconfig, lanes, proc, tomlfile, tree,
	       upstream)
from .model import KconformError, Status, Suite, runner_made
from .suites import SuiteSpec

BUSYBOX = Path('/bin/busybox')
# The guest kernel's toolchain, for the kernel and for what kselftest
# targets build against it (external modules): Debian's clang/LLVM 14 and
# rustc 1.63, named by path, since another rustc (rustup's, without
# rust-src) may come first on PATH.
TOOLCHAIN = ('ARCH=x86_64', 'LLVM=1', 'CC=ccache clang',
	     'RUSTC=/usr/bin/rustc', 'HOSTRUSTC=/usr/bin/rustc',
	     'RUSTDOC=/usr/bin/rustdoc', 'BINDGEN=/usr/bin/bindgen')
# Host tools that stand in for Debian's during a make of the tree, first
# on its PATH: pahole without -j (hostbin/pahole says why).
HOSTBIN = 'tools/testing/hostbin'
UP_MARKER = 'kconform: guest userspace up'
# printk.time=1: the guest is configured from allnoconfig, without
# PRINTK_TIME; a time stamp is what lets the parser split a kernel line
# off a test's line that it interrupted on the serial console (seen:
# "# ok 13 fs.ext4_set_capacity_and_notify: 2 callbacks suppressed").
# kunit.enable=0: the KUnit suites built into the same image ran in
# their own boot (kunit.py exec).
CMDLINE = 'console=ttyS0 reboot=t panic=-1 loglevel=5 printk.time=1 kunit.enable=0'
VARIANTS = 'tools/testing/guest/variants.toml'
_VARIANT_KEYS = {'description', 'fragment', 'benches', 'cmdline', 'timeout_factor',
		 'coverage', 'upstream'}


@dataclass(frozen=True)
class Variant:
	"""One kernel variant of variants.toml."""
	name: str
	description: str
	fragment: Optional[Path] = None
	benches: bool = True
	cmdline: str = ''
	timeout_factor: float = 1.0
	# gcov on the files of coverage.toml, whose data the guest sends back
	coverage: bool = False
	# upstream's test_progs (suites.toml `upstream`) built and run, its
	# kernel config (upstream.CONFIG) applied
	upstream: bool = True


def variants(repo: Path) -> Dict[str, Variant]:
	path = repo / VARIANTS
	out = {}
	for name, entry in tomlfile.tables(path, _VARIANT_KEYS).items():
		frag = path.parent / entry['fragment'] if 'fragment' in entry else None
		if frag is not None and not frag.is_file():
			raise KconformError(f'{path}: [{name}]: no fragment {frag}')
		out[name] = Variant(name, str(entry.get('description', '')), frag,
				    bool(entry.get('benches', True)),
				    str(entry.get('cmdline', '')),
				    float(entry.get('timeout_factor', 1.0)),
				    bool(entry.get('coverage', False)),
				    bool(entry.get('upstream', True)))
	if 'default' not in out:
		raise KconformError(f'{path}: no [default] variant')
	return out


@dataclass
class GuestJob:
	repo: Path
	tree: Path
	build_dir: Path
	out: Path
	jobs: int
	timeout: int
	variant: Variant = Variant('default', '')
	# the variant's make variables (coverage: GCOV_PROFILE_<obj>=y)
	make_vars: Tuple[str, ...] = ()
	# a package's kernel (--image): booted as it is, nothing built;
	# build_dir then holds only the kselftests' user space
	package: Optional[package_image.Image] = None
	# kernel command-line parameters the kernel needs for the suites
	cmdline: str = ''
	# kselftest targets side by side in one boot (lanes.py)
	lanes: int = 1
	# per build made here, what it took from ccache (ccache.measured)
	ccache: Dict[str, Dict[str, int]] = field(default_factory=dict)
	# a boot whose console is silent this long (s) ends as a timeout
	silence: Optional[int] = None

	@property
	def image(self) -> Path:
		if self.package is not None:
			return self.package.vmlinuz
		return self.build_dir / 'arch/x86/boot/bzImage'

	@property
	def installed(self) -> Path:
		return self.build_dir / 'kselftest_install'

	@property
	def initramfs(self) -> Path:
		return self.build_dir / 'kconform-initramfs.cpio'

	def host(self) -> List[str]:
		"""How every make of the tree that may encode BTF starts: with
		HOSTBIN first on PATH."""
		return ['env', f'PATH={self.repo / HOSTBIN}:{os.environ.get("PATH", os.defpath)}']

	def make(self, *targets: str) -> List[str]:
		return [*self.host(), 'make', '-C', str(self.tree), f'O={self.build_dir}',
			*TOOLCHAIN, *self.make_vars, f'-j{self.jobs}', *targets]


def targets(specs: Sequence[SuiteSpec]) -> List[str]:
	return [s.kselftest for s in specs if s.kselftest]


def upstream_selectors(job: GuestJob, specs: Sequence[SuiteSpec]) -> List[str]:
	"""The test_progs selectors this variant runs of these suites."""
	return upstream.selectors(specs) if job.variant.upstream else []


def fragments(job: GuestJob, specs: Sequence[SuiteSpec]) -> List[Path]:
	"""The config fragments of a variant, in merge order."""
	frags = [job.repo / 'tools/testing/guest/base.config']
	frags += [job.tree / 'tools/testing/selftests' / t / 'config'
		  for t in targets(specs)
		  if (job.tree / 'tools/testing/selftests' / t / 'config').exists()]
	frags += [s.kunitconfig for s in specs if s.kunitconfig]
	if upstream_selectors(job, specs):
		frags.append(job.repo / upstream.CONFIG)
	if job.variant.fragment:
		frags.append(job.variant.fragment)
	return frags


def _suite_fragments(job: GuestJob, specs: Sequence[SuiteSpec]) -> Dict[Path, Tuple[str, str]]:
	"""The fragments that belong to one kind of one suite: (suite, kind)."""
	out = {}
	for s in specs:
		cfg = job.tree / 'tools/testing/selftests' / s.kselftest / 'config' \
			if s.kselftest else None
		if cfg is not None and cfg.exists():
			out[cfg] = (s.name, 'kselftest')
		if s.kunitconfig:
			out[s.kunitconfig] = (s.name, 'kunit')
	return out


def _configured(job: GuestJob, merged: str) -> bool:
	"""Whether the .config was already made from @merged."""
	frag = job.build_dir / 'kconform.config'
	return frag.exists() and frag.read_text() == merged and \
		(job.build_dir / '.config').exists()


def _lacks_error(lines: Sequence[str]) -> KconformError:
	return KconformError('guest .config lacks requested symbols '
			     '(unmet dependencies?):\n  ' + '\n  '.join(lines))


def _allnoconfig(job: GuestJob, merged: str) -> Dict[str, str]:
	"""Write the .config from @merged; the requested symbols it lacks.
	A symbol the tree's Kconfig does not define is not lacking: it is
	left out with a note (6.12 folded MEMCG_KMEM into MEMCG)."""
	frag = job.build_dir / 'kconform.config'
	frag.write_text(merged)
	proc.check(job.make(f'KCONFIG_ALLCONFIG={frag}', 'allnoconfig'),
		   job.out / 'guest-config.log', 600, 'guest kernel allnoconfig')
	lost = kconfig.lost(merged, (job.build_dir / '.config').read_text())
	if lost:
		known = kconfig.defined(job.tree)
		for sym in sorted(set(lost) - known):
			print(f'kconform: configure: {sym} is not a symbol of this '
			      'tree: left out', flush=True)
			del lost[sym]
	return lost


def config_lacks(job: GuestJob, specs: Sequence[SuiteSpec]) -> Dict[str, Dict[str, str]]:
	"""Configure for @specs; per suite and kind, why this tree cannot
	give the symbols that kind's own fragment asks for (unmet
	dependencies: 6.12's Rust needs a newer rustc than Debian 12 has).
	A lost symbol of base.config or of the variant's fragment is an
	error: every suite needs it."""
	merged = kconfig.merge(fragments(job, specs))
	job.build_dir.mkdir(parents=True, exist_ok=True)
	if _configured(job, merged):
		return {}
	lost = _allnoconfig(job, merged)
	if not lost:
		return {}
	(job.build_dir / 'kconform.config').unlink()
	owned = _suite_fragments(job, specs)
	common = [kconfig.parse(f.read_text()) for f in fragments(job, specs) if f not in owned]
	fatal = [line for sym, line in lost.items() if any(sym in c for c in common)]
	if fatal:
		raise _lacks_error(fatal)
	out: Dict[str, Dict[str, List[str]]] = {}
	for f, (name, kind) in owned.items():
		asked = kconfig.parse(f.read_text())
		lines = [line for sym, line in lost.items() if sym in asked]
		if lines:
			out.setdefault(name, {})[kind] = lines
	return {name: {kind: 'this tree cannot set the kernel config it asks for '
		       '(unmet dependencies): ' + '; '.join(lines)
		       for kind, lines in kinds.items()} for name, kinds in out.items()}


def configure(job: GuestJob, specs: Sequence[SuiteSpec]) -> bool:
	"""Write the .config; returns False when nothing changed."""
	merged = kconfig.merge(fragments(job, specs))
	job.build_dir.mkdir(parents=True, exist_ok=True)
	if _configured(job, merged):
		return False
	lost = _allnoconfig(job, merged)
	if lost:
		(job.build_dir / 'kconform.config').unlink()
		raise _lacks_error(list(lost.values()))
	return True


def _digest(*parts: str) -> str:
	return hashlib.sha256('\0'.join(parts).encode()).hexdigest()


def build_key(job: GuestJob, tree_state: Optional[str]) -> Optional[str]:
	"""What a build depends on: the tree's state (None: not known, so
	always run make), the .config and the toolchain."""
	if tree_state is None:
		return None
	return _digest(tree_state, (job.build_dir / '.config').read_text(),
		       *TOOLCHAIN, *job.make_vars)


def _fresh(stamp: Path, key: Optional[str], *made: Path) -> bool:
	return key is not None and stamp.exists() and \
		stamp.read_text() == key and all(p.exists() for p in made)


BUILD_TIMEOUT = 6 * 3600	# s, whatever the progress
BUILD_IDLE = 1200		# s without a line of make's output (BTF, a link)


def build(job: GuestJob, key: Optional[str]) -> bool:
	"""make all; False when the stamp says this key is built. The uapi
	headers are the user space's (install_tests): a KUnit verdict does
	not wait for them."""
	stamp = job.build_dir / 'kconform-built'
	if _fresh(stamp, key, job.image):
		return False
	stamp.unlink(missing_ok=True)
	# A build is ended when it stops making progress, not at a wall time:
	# a cold debug build on 2 busy cores took more than an hour.
	with ccache.measured(job.ccache, 'kernel'):
		proc.check(job.make('all'), job.out / 'guest-build.log', BUILD_TIMEOUT,
			   'kernel build', idle=BUILD_IDLE)
	if key is not None:
		stamp.write_text(key)
	return True


def package_kernel(job: GuestJob, tree_state: Optional[str]) -> Optional[str]:
	"""A package's kernel instead of a build: the tree's uapi headers
	(made once per tree for every package, in build_dir's sibling
	`package-uapi`; build_dir/usr points there, where KHDR_INCLUDES
	reads) and the package's vmlinux (its BTF, for vmlinux.h), made once
	per package and tree. Returns what the user space depends on (None:
	always remade, as for a user's tree)."""
	pkg = job.package
	if pkg is None:
		raise KconformError('package_kernel: no package')
	key = None if tree_state is None else _digest(
		'package', pkg.unpacked.package, pkg.unpacked.version, str(pkg.root),
		tree_state)
	stamp = job.build_dir / 'kconform-package'
	vmlinux = job.build_dir / 'vmlinux'
	uapi = job.build_dir.parent / 'package-uapi'
	if _fresh(stamp, key, vmlinux, job.build_dir / 'usr/include'):
		return key
	job.build_dir.mkdir(parents=True, exist_ok=True)
	stamp.unlink(missing_ok=True)
	uapi_stamp = uapi / 'kconform-headers'
	if not _fresh(uapi_stamp, tree_state, uapi / 'usr/include'):
		uapi_stamp.unlink(missing_ok=True)
		proc.check(['make', '-C', str(job.tree), f'O={uapi}', *TOOLCHAIN,
			    f'-j{job.jobs}', 'headers'], job.out / 'guest-headers.log',
			   600, 'uapi headers')
		if tree_state is not None:
			uapi_stamp.write_text(tree_state)
	usr = job.build_dir / 'usr'
	if not usr.is_symlink():
		shutil.rmtree(usr, ignore_errors=True)
		usr.symlink_to(uapi / 'usr')
	package_image.extract_vmlinux(job.tree, pkg, vmlinux,
				      job.out / 'extract-vmlinux.log')
	if key is not None:
		stamp.write_text(key)
	return key


# The guest's own scripts (tools/testing/guest/): where each goes.
GUEST_FILES = {'init': 'init', 'bin/kconform-timeout': 'timeout',
	       'bin/kconform-gcov': 'gcov', 'bin/kconform-one-by-one': 'one-by-one',
	       'bin/kconform-kmemleak': 'kmemleak', 'bin/kconform-mutants': 'mutants',
	       'usr/bin/perl': 'perl'}
# The KUnit boot's initramfs, for a variant whose command line asks for
# one of AFTER_KUNIT: what runs once KUnit's suites ran.
KUNIT_FILES = {'init': 'after-kunit', 'bin/kconform-gcov': 'gcov',
	       'bin/kconform-kmemleak': 'kmemleak', 'bin/kconform-mutants': 'mutants'}
# The coverage variant's parameter: each boot sends its gcov data, the
# kselftest boot target by target (guest/one-by-one).
GCOV = 'kconform.gcov'
AFTER_KUNIT = ('kconform.kmemleak', GCOV)
# mutate --schemata's loop over mutants (guest/mutants), after KUnit's
# suites too: a parameter with a value
MUTANTS = 'kconform.mutants='


# What the user space takes from a kernel build that the tree's own files,
# the .config and the toolchain do not decide: vmlinux's BTF (vmlinux.h,
# and the base every module's BTF refers to by type id), the exports (an
# external module's modpost), the modules and the lists modules_install
# copies, the release (/lib/modules/<release>, vermagic) and the signing
# key (modules signed at install; bpf_security's builtin.pem). All else
# it reads of the build (usr/include, include/generated, rust/*.rmeta,
# the host programs, samples/rust/hostprogs) is made from those three.
# Not read: System.map (depmod -e only warns with it) and utsversion.h.
PRODUCTS = ('Module.symvers', 'include/config/kernel.release', 'modules.order',
	    'modules.builtin', 'modules.builtin.modinfo', 'certs/signing_key.pem')


def elf_section(path: Path, name: str) -> Optional[bytes]:
	"""The bytes of one section of a 64-bit little-endian ELF file;
	None when the file is not one or has no such section."""
	with open(path, 'rb') as f:
		head = f.read(64)
		if len(head) < 64 or head[:6] != b'\x7fELF\x02\x01':
			return None
		shoff, = struct.unpack_from('<Q', head, 0x28)
		entsize, count, strndx = struct.unpack_from('<HHH', head, 0x3a)
		f.seek(shoff)
		table = f.read(entsize * count)
		if entsize < 40 or len(table) < entsize * count or strndx >= count:
			return None
		# sh_name, sh_offset and sh_size of section i
		def header(i: int) -> Tuple[int, int, int]:
			n, = struct.unpack_from('<I', table, i * entsize)
			off, size = struct.unpack_from('<QQ', table, i * entsize + 24)
			return n, off, size
		_, off, size = header(strndx)
		f.seek(off)
		names = f.read(size)
		for i in range(count):
			n, off, size = header(i)
			if names[n:].split(b'\0', 1)[0] == name.encode():
				f.seek(off)
				return f.read(size)
	return None


def _file_digest(path: Path) -> str:
	return tree.sha256(path) if path.is_file() else '-'


def products_key(job: GuestJob) -> Optional[str]:
	"""What the user space takes from the build in job.build_dir (with
	the .config and the toolchain that make the rest); None, so it is
	made again, when vmlinux has no BTF to read."""
	out = job.build_dir
	btf = elf_section(out / 'vmlinux', '.BTF') if (out / 'vmlinux').is_file() else None
	if btf is None:
		return None
	order = out / 'modules.order'
	modules = order.read_text().split() if order.is_file() else []
	return _digest((out / '.config').read_text(), *TOOLCHAIN, *job.make_vars,
		       'btf ' + hashlib.sha256(btf).hexdigest(),
		       *(f'{name} {_file_digest(out / name)}' for name in PRODUCTS),
		       *(f'{m} {_file_digest((out / m).with_suffix(".ko"))}' for m in modules))


def userspace_key(job: GuestJob, kernel: Optional[str], tree_state: Optional[str],
		  specs: Sequence[SuiteSpec]) -> Optional[str]:
	"""What the installed tests and the initramfs depend on: what they
	take from the kernel (kernel: products_key, or a package's key), what
	they read of the tree (tree_state: its kselftests, tools, headers,
	but not the KUnit tests, which reach them only through the kernel),
	the targets, the benches, upstream's selectors and how test_progs is
	installed, init, and Debian's packages. None (made
	again) when either is not known."""
	if kernel is None or tree_state is None:
		return None
	guest_files = [job.repo / 'tools/testing/guest' / f for f in GUEST_FILES.values()]
	status = Path('/var/lib/dpkg/status')
	return _digest(kernel, tree_state, ' '.join(targets(specs)),
		       ' '.join(upstream_selectors(job, specs)),
		       upstream.installed_as() if upstream_selectors(job, specs) else '',
		       ' '.join(f'{s.name}:{b}' for s in specs for b in s.bench),
		       ' '.join(m for s in specs for m in s.modules),
		       *(tree.sha256(f) for f in guest_files),
		       str(status.stat().st_mtime_ns) if status.exists() else '')


def userspace(job: GuestJob, specs: Sequence[SuiteSpec],
	      key: Optional[str]) -> bool:
	"""Install the tests and make the initramfs; False when the stamp
	says they are made for this key."""
	stamp = job.build_dir / 'kconform-userspace'
	if _fresh(stamp, key, job.installed, job.initramfs):
		return False
	stamp.unlink(missing_ok=True)
	installed = install_tests(job, specs)
	built = install_upstream(job, specs)
	make_initramfs(job, installed, specs)
	# a test_progs that did not build is tried again by the next run:
	# its failure need not come from what the key holds (a stale file
	# of the build folder, the runner's build steps)
	if key is not None and built:
		stamp.write_text(key)
	return True


def install_tests(job: GuestJob, specs: Sequence[SuiteSpec]) -> Path:
	"""The uapi headers in build_dir/usr/include (KHDR_INCLUDES; a
	package's are made with its kernel: package_kernel), then the
	kselftests installed."""
	dest = job.installed
	if dest.exists():
		shutil.rmtree(dest)
	if job.package is None:
		proc.check(job.make('headers'), job.out / 'guest-headers.log', 600,
			   'kernel headers')
	names = targets(specs)
	with ccache.measured(job.ccache, 'kselftests'):
		log = job.out / 'kselftest-install.log'
		proc.check([*job.host(), 'make', '-C', str(job.tree / 'tools/testing/selftests'),
			    f'O={job.build_dir}', *TOOLCHAIN, f'TARGETS={" ".join(names)}',
			    f'KSFT_INSTALL_PATH={dest}', f'-j{job.jobs}', 'install'],
			   log, 1800, 'kselftest install')
	# the selftests' make fails only when every target does: a target
	# that did not build is named with its compiler's words
	built = {e.split(':')[0] for e in installed_programs(dest)}
	missing = [n for n in names if n not in built]
	dest.mkdir(parents=True, exist_ok=True)
	(dest / NOT_BUILT).write_text(json.dumps(
		not_built(missing, log.read_text(errors='replace') if missing else ''),
		indent=1) + '\n')
	return dest


NOT_BUILT = 'kconform-not-built.json'


def not_built(names: Sequence[str], log: str) -> Dict[str, str]:
	"""target -> why it did not build: its first error lines in the
	kselftest install log (the part between make's entering and leaving
	its directory)."""
	out = {}
	for name in names:
		errors: List[str] = []
		inside = False
		for line in log.splitlines():
			if re.search(r"make\[\d+\]: Entering directory '.*/selftests/" +
				     re.escape(name) + "'", line):
				inside = True
			elif re.search(r"make\[\d+\]: Leaving directory '.*/selftests/" +
				       re.escape(name) + "'", line):
				inside = False
			elif inside and re.search(r'\berror\b', line) and len(errors) < 3:
				errors.append(line.strip())
		out[name] = (f'{name} did not build (kselftest-install.log): '
			     + ('; '.join(errors) or 'no error line in the log'))
	return out


def mark_not_built(out: List[Suite], why: Mapping[str, str]) -> List[Suite]:
	"""A suite whose target did not build fails with why, not with its
	absence from the console."""
	for suite in out:
		if suite.name in why:
			suite.cases = []
			suite.fail_all(Status.FAIL, why[suite.name])
	return out


def not_built_of(installed: Path) -> Dict[str, str]:
	"""What install_tests() found did not build."""
	try:
		data = json.loads((installed / NOT_BUILT).read_text())
	except (OSError, ValueError):
		return {}
	return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def install_upstream(job: GuestJob, specs: Sequence[SuiteSpec]) -> bool:
	"""upstream's test_progs for the suites' selectors (those of the
	tree's tests), built against the kernel (a package's: its vmlinux,
	no bpf_testmod.ko) and installed as `upstream:test_progs`. A build
	that fails is installed as a program that fails with its error: the
	other targets run. False when it failed."""
	wanted = upstream.known(job.tree, upstream_selectors(job, specs))
	if not wanted:
		return True
	try:
		with ccache.measured(job.ccache, 'upstream'):
			built = upstream.build(job.tree, job.build_dir / 'vmlinux',
					       None if job.package is not None else job.build_dir,
					       job.repo / upstream.CONFIG, job.build_dir / 'upstream',
					       wanted, job.jobs, job.out / 'upstream-build.log',
					       TOOLCHAIN)
		upstream.install(built, job.installed, upstream.tools())
	except KconformError as e:
		print(f'kconform: userspace: upstream test_progs: {e}', flush=True)
		upstream.install_failure(job.installed, str(e))
		return False
	return True


# What glibc dlopen()s rather than links, so ldd does not list it:
# libgcc_s for pthread_exit() and pthread_cancel() (without it a threaded
# program aborts, "libgcc_s.so.1 must be installed for pthread_exit to
# work": test_progs on a package's kernel, where no other program
# happened to link it).
DLOPENED_BY_LIBC = (Path('/lib/x86_64-linux-gnu/libgcc_s.so.1'),)


def _libraries(binary: Path) -> List[Path]:
	"""The shared libraries @binary needs in the guest."""
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
	if any(lib.name == 'libc.so.6' for lib in libs):
		libs += [lib for lib in DLOPENED_BY_LIBC if lib.exists()]
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
	root = job.build_dir / 'initramfs-root'
	if root.exists():
		shutil.rmtree(root)
	for d in ('bin', 'sbin', 'usr/bin', 'usr/sbin', 'proc', 'sys', 'dev',
		  'tmp', 'run', 'etc', 'lib', 'lib64'):
		(root / d).mkdir(parents=True)
	if not BUSYBOX.exists():
		raise KconformError(f'{BUSYBOX} is missing: install busybox-static')
	shutil.copy2(BUSYBOX, root / 'bin/busybox')
	_guest_files(job.repo, root, GUEST_FILES)
	shutil.copytree(installed, root / 'kselftest', symlinks=True)
	# What init runs under kconform.bench: "<target> <program>" lines.
	(root / 'kselftest/kconform-benches').write_text(''.join(
		f'{s.kselftest} {prog}\n' for s in specs if s.kselftest
		for prog in s.bench if job.variant.benches))
	if job.package is not None:
		# the package's config where libbpf looks for a program's
		# `__kconfig` externs (/boot/config-<release>; the package has
		# no /proc/config.gz): test_progs' bpf_iter/tcp4 and others
		conf = root / 'boot' / job.package.config_file.name
		conf.parent.mkdir(parents=True, exist_ok=True)
		shutil.copy2(job.package.config_file, conf)
		# the package's own modules that the targets name, with their
		# dependencies; init loads them with modprobe
		lacking = package_image.install_modules(
			job.package, [m for s in specs for m in s.modules], root)
		if lacking:
			raise KconformError(f'{job.package.name}: no module (nor built in) '
					    + ', '.join(lacking))
	elif 'CONFIG_MODULES=y' in (job.build_dir / '.config').read_text().splitlines():
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
	_cpio(root, job.initramfs)


def _guest_files(repo: Path, root: Path, files: Mapping[str, str]) -> None:
	for dest, name in files.items():
		shutil.copyfile(repo / 'tools/testing/guest' / name, root / dest)
		(root / dest).chmod(0o755)


def _cpio(root: Path, out: Path) -> None:
	files = sorted(str(p.relative_to(root)) for p in root.rglob('*'))
	with open(out, 'wb') as f:
		r = subprocess.run(['cpio', '--quiet', '-o', '-H', 'newc',
				    '-R', '0:0'], cwd=root, stdout=f,
				   input='\n'.join(['.'] + files).encode(),
				   stderr=subprocess.PIPE, check=False)
	if r.returncode != 0:
		raise KconformError('cpio failed: ' + r.stderr.decode(errors='replace'))


def kunit_initramfs(repo: Path, build_dir: Path) -> Path:
	"""The KUnit boot's initramfs: busybox and KUNIT_FILES."""
	root = build_dir / 'kunit-initramfs'
	if root.exists():
		shutil.rmtree(root)
	for d in ('bin', 'proc', 'sys', 'tmp', 'dev', 'sbin', 'usr/bin', 'usr/sbin'):
		(root / d).mkdir(parents=True)
	shutil.copy2(BUSYBOX, root / 'bin/busybox')
	_guest_files(repo, root, KUNIT_FILES)
	out = build_dir / 'kconform-kunit.cpio'
	_cpio(root, out)
	return out


SEED_ENV = 'KCONFORM_SEED'


def seed_arg(env: Mapping[str, str] = os.environ) -> str:
	"""`kconform.seed=N` for the kselftest boot's command line when
	KCONFORM_SEED=N is set on the host, else ''. The seeded kselftests
	(kselftests/kconform_fuzz.h) draw their inputs from it; without it
	they use their fixed default seed."""
	value = env.get(SEED_ENV, '').strip()
	if not value:
		return ''
	try:
		n = int(value, 0)
	except ValueError:
		raise KconformError(f'{SEED_ENV}={value}: not an integer') from None
	if not 0 <= n < 1 << 64:
		raise KconformError(f'{SEED_ENV}={value}: not a 64-bit unsigned integer')
	return f'kconform.seed={n}'


def qemu_argv(job: GuestJob, accel: Sequence[str], append: str) -> List[str]:
	return ['qemu-system-x86_64', '-nodefaults', '-nographic', '-no-reboot',
		'-m', '2048', '-smp', '2', '-serial', 'stdio',
		'-bios', 'qboot.rom', *accel, '-kernel', str(job.image),
		'-initrd', str(job.initramfs), '-append', append]


def probe(job: GuestJob, accel: Sequence[str], timeout: float) -> bool:
	"""Does a boot with these accelerator arguments reach userspace?"""
	r = proc.run(qemu_argv(job, accel, ' '.join(
		p for p in (CMDLINE, job.cmdline, 'kconform.probe') if p)),
		     job.out / 'accel-probe.log', timeout, stop_when=UP_MARKER)
	return any(UP_MARKER in l for l in r.lines)


# a boot with a mutant on (mutate --schemata): kconform.mutant=N, or the
# guest's loop of them, kconform.mutants=LIST, which runs the targets once
# per mutant; its times are no target's length for the lanes' next plan
MUTANT_PARAMS = ('kconform.mutant', 'kconform.mutants')


def entries(job: GuestJob, specs: Sequence[SuiteSpec]) -> List[str]:
	"""What run_kselftest.sh runs of these suites: their targets, and
	upstream's test_progs when it is installed and they name tests of it."""
	up = (job.installed / upstream.TARGET / upstream.PROGRAM).exists() and \
		upstream.known(job.tree, upstream_selectors(job, specs))
	return targets(specs) + ([upstream.TARGET] if up else [])


def installed_programs(installed: Path) -> List[str]:
	"""The `target:program` entries run_kselftest.sh knows."""
	f = installed / 'kselftest-list.txt'
	return f.read_text().split() if f.exists() else []


def boot(job: GuestJob, specs: Sequence[SuiteSpec], accel: Sequence[str],
	 echo: bool = False, run_list: Optional[Sequence[str]] = None,
	 log_name: str = 'guest-console.log') -> List[Suite]:
	"""One boot of the kselftests; run_list (`target` or `target:program`
	entries) limits what run_kselftest.sh runs. The targets run side by
	side in job.lanes lanes (lanes.py), those of `alone` suites first;
	under GCOV init runs them one after another (guest/one-by-one), so
	they are planned in no lane."""
	parts = [CMDLINE, job.variant.cmdline, job.cmdline] + \
		[s.cmdline for s in specs if s.cmdline]
	parts.append(seed_arg())
	run = list(run_list) if run_list is not None else entries(job, specs)
	selected = upstream.known(job.tree, upstream_selectors(job, specs))
	if any(e.split(':')[0] == upstream.TARGET for e in run):
		parts.append(f'{upstream.PARAM}=' + ','.join(selected))
	plan = lanes.plan(run, [s.kselftest for s in specs if s.alone and s.kselftest],
			  1 if GCOV in ' '.join(parts).split() else job.lanes,
			  lanes.known_seconds(job.build_dir, {
				  upstream.TARGET: upstream.SECONDS, **{
					  s.kselftest: s.seconds_on(job.variant.name) for s in specs
					  if s.kselftest and s.seconds_on(job.variant.name)}}))
	if plan.lanes or run_list is not None:
		parts += plan.cmdline()
	r = proc.run(qemu_argv(job, accel, ' '.join(p for p in parts if p)),
		     job.out / log_name,
		     job.timeout, echo=echo, idle=job.silence)
	out = mark_not_built(lanes.suites(r.lines, r.times, plan, r.timed_out),
			     not_built_of(job.installed))
	for s in out:
		if s.name == upstream.TARGET:
			s.cases += upstream.unreported(selected, s.cases)
	if not {w.split('=')[0] for w in ' '.join(parts).split()} & set(MUTANT_PARAMS):
		lanes.save_seconds(job.build_dir, lanes.seconds_of(
			[(s.name, [c.duration_s for c in s.cases if c.duration_s is not None])
			 for s in out if not runner_made(s.name)]))
	return out


# The benchmarks boot the variant's kernel (no kernel of their own) with
# its debugging options that cost at run time switched off: kmemleak
# (rust_samples' config) tracks every allocation and scans memory; the
# others are inactive unless asked for on the command line (slub_debug=,
# which only rust_samples' cmdline adds) or through debugfs (failslab,
# ftrace's nops). Variants whose options cannot be switched off at boot
# (debug, coverage) say `benches = false`.
BENCH_CMDLINE = 'kconform.bench kmemleak=off'


def boot_bench(job: GuestJob, specs: Sequence[SuiteSpec], accel: Sequence[str],
	       log_name: str = 'bench-console.log') -> List[Suite]:
	"""One boot that runs only the benchmarks (no kselftest), with each
	suite's bench_cmdline (not its cmdline) on the command line."""
	parts = [CMDLINE, BENCH_CMDLINE, job.cmdline] + \
		[s.bench_cmdline for s in specs if s.bench and s.bench_cmdline]
	r = proc.run(qemu_argv(job, accel, ' '.join(p for p in parts if p)),
		     job.out / log_name,
		     job.timeout)
	_, _, sections = bench.split_timed(r.lines, r.times)
	return bench.suites(sections, benches(specs), r.timed_out, r.times)
