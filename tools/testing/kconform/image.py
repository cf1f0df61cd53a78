# SPDX-License-Identifier: GPL-2.0
"""A distributor's kernel package as the guest kernel (--image): no build.

`--image PACKAGE[=VERSION]` (or a local .deb) names a linux-image-*
package; archive.py fetches and unpacks it in the cache, never
installing it. A meta-package (linux-image-amd64) is followed to the
linux-image-* it depends on. The guest boots the package's vmlinuz with
our initramfs, which carries the package's own modules that the suites
name (`modules` in suites.toml) and their dependencies (the package's
modules.dep, made by depmod in the unpacked folder when the package
ships none); the guest's init loads them with modprobe.

Which suites can run is read from the package's config-*: a KUnit
suite's kunitconfig fragment and a kselftest target's `config` are
compared with it; a case that needs more than its target (`needs` in
suites.toml: a config line, or something only our own kernel build
makes) is judged alone. What cannot run is reported by name, each case
skipped with the reason, never dropped.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from . import archive, kconfig, proc
from .applicable import NotApplicable
from .model import InputError, KconformError, Kind
from .suites import SuiteSpec

# Config symbols whose value a kernel command-line parameter overrides at
# boot: a list the package lacks an item of is passed with that item.
CMDLINE_OVERRIDES = {'CONFIG_LSM': 'lsm'}
MODULES_LIST = 'etc/kconform-modules'	# in the initramfs: init modprobes each


@dataclass(frozen=True)
class Image:
	"""The unpacked package that holds the kernel, as --image asked it."""
	asked: str
	unpacked: archive.Unpacked
	release: str			# its `uname -r`, e.g. 6.1.0-57-amd64

	@property
	def root(self) -> Path:
		return self.unpacked.root

	@property
	def vmlinuz(self) -> Path:
		return self.root / 'boot' / f'vmlinuz-{self.release}'

	@property
	def config_file(self) -> Path:
		return self.root / 'boot' / f'config-{self.release}'

	@property
	def moddir(self) -> Path:
		return self.root / 'lib/modules' / self.release

	@property
	def name(self) -> str:
		return f'{self.unpacked.package} {self.unpacked.version}'

	@property
	def kernel_version(self) -> str:
		"""The upstream release the package was made from (6.1.192)."""
		m = re.match(r'(?:\d+:)?(\d+\.\d+(?:\.\d+)?)', self.unpacked.version)
		return m.group(1) if m else self.unpacked.version

	def config(self) -> Dict[str, str]:
		return kconfig.parse(self.config_file.read_text())


def parse_arg(arg: str) -> Tuple[str, Optional[str]]:
	"""--image PACKAGE[=VERSION]: (package, version or None)."""
	package, _, version = arg.partition('=')
	if not re.fullmatch(r'[a-z0-9][a-z0-9+.-]+', package) or \
			'=' in version or (_ and not version):
		raise InputError(f'--image {arg}: expected PACKAGE[=VERSION] or a .deb file')
	return package, version or None


def release(root: Path) -> Optional[str]:
	"""The kernel release of the one boot/vmlinuz-* in root, if any."""
	found = sorted((root / 'boot').glob('vmlinuz-*'))
	if len(found) > 1:
		raise KconformError(f'{root}: more than one kernel: '
				    + ', '.join(f.name for f in found))
	return found[0].name[len('vmlinuz-'):] if found else None


def fetch(arg: str, cache: Path, log_dir: Path) -> Image:
	"""The package (or the linux-image-* a meta-package depends on),
	unpacked, with its modules.dep."""
	log = log_dir / 'archive.log'
	if arg.endswith('.deb'):
		got = archive.fetch_deb(Path(arg).resolve(), cache, log_dir)
	else:
		got = archive.fetch(*parse_arg(arg), cache, log_dir)
	seen = [got.package]
	while release(got.root) is None:
		images = [(n, v) for n, v in archive.depends(
			archive.show(got.package, got.version, log))
			  if n.startswith('linux-image-') and n not in seen]
		if not images:
			raise InputError(f'--image {arg}: {got.package} {got.version} has '
					 'no boot/vmlinuz-* and depends on no linux-image-*')
		got = archive.fetch(images[0][0], images[0][1], cache, log_dir)
		seen.append(got.package)
	img = Image(arg, got, release(got.root) or '')
	for f in (img.vmlinuz, img.config_file):
		if not f.is_file():
			raise InputError(f'--image {arg}: {got.package} has no {f.name}')
	if img.moddir.is_dir() and not (img.moddir / 'modules.dep').exists():
		# Debian's packages leave modules.dep to depmod at install time;
		# it is made here, in the unpacked folder.
		proc.check(['depmod', '-b', str(img.root), '-F',
			    str(img.root / 'boot' / f'System.map-{img.release}'),
			    img.release], log, 300, f'depmod for {img.name}')
	return img


def extract_vmlinux(tree: Path, img: Image, dest: Path, log: Path) -> None:
	"""The ELF vmlinux of the package's vmlinuz (the tree's
	scripts/extract-vmlinux): its .BTF section is what vmlinux.h is
	dumped from (kselftests/bpf.mk reads $(O)/vmlinux)."""
	tmp = dest.with_suffix('.tmp')
	with open(tmp, 'wb') as out, open(log, 'ab') as err:
		r = subprocess.run([str(tree / 'scripts/extract-vmlinux'), str(img.vmlinuz)],
				   stdout=out, stderr=err, timeout=600, check=False)
	if r.returncode != 0 or tmp.stat().st_size == 0:
		raise KconformError(f'extract-vmlinux {img.vmlinuz}: failed (log: {log})')
	tmp.rename(dest)


# --- what can run on the package's kernel ---------------------------------

def unmet(want: Dict[str, str], have: Dict[str, str]) -> Tuple[List[str], List[str]]:
	"""(the wanted lines the kernel's config does not meet, kernel
	command-line parameters that meet the others). =y is met by =m (the
	module is loaded in the guest); a quoted list (CONFIG_LSM) is met
	when it holds every wanted item, or by its boot parameter."""
	reasons: List[str] = []
	params: List[str] = []
	for sym, val in want.items():
		got = have.get(sym, 'n')
		if got == val or val == 'y' and got == 'm':
			continue
		if val.startswith('"') and got.startswith('"'):
			items = [i for i in got.strip('"').split(',') if i]
			lack = [i for i in val.strip('"').split(',') if i and i not in items]
			if not lack:
				continue
			if sym in CMDLINE_OVERRIDES:
				params.append(f'{CMDLINE_OVERRIDES[sym]}={",".join(items + lack)}')
				continue
		shown = 'not set' if got == 'n' else f'{sym}={got}'
		reasons.append(f'{sym}={val} (its config: {shown})')
	return reasons, params


def plan(repo: Path, specs: Sequence[SuiteSpec], kinds: Sequence[str],
	 have: Dict[str, str], what: str) -> Tuple[List[NotApplicable], List[str]]:
	"""What cannot run on a kernel of config `have` (named `what`), and
	the command-line parameters the rest needs."""
	out: List[NotApplicable] = []
	params: List[str] = []
	for spec in specs:
		if Kind.KUNIT in kinds and spec.kunitconfig:
			reasons, p = unmet(kconfig.parse(spec.kunitconfig.read_text()), have)
			params += p
			if reasons:
				out += [NotApplicable(Kind.KUNIT, n, '*',
						      f'not applicable to {what}: ' +
						      '; '.join(reasons)) for n in spec.kunit]
		if Kind.KSELFTEST not in kinds or not spec.kselftest:
			continue
		frag = repo / 'kselftests' / spec.kselftest / 'config'
		want = kconfig.parse(frag.read_text()) if frag.exists() else {}
		per_case = {sym for _, line in spec.needs for sym in kconfig.parse(line)}
		reasons, p = unmet({k: v for k, v in want.items() if k not in per_case}, have)
		params += p
		if reasons:
			out.append(NotApplicable(Kind.KSELFTEST, spec.kselftest, '*',
						 f'not applicable to {what}: ' + '; '.join(reasons)))
			continue
		for glob, line in spec.needs:
			need = kconfig.parse(line)
			if need:
				reasons, p = unmet(need, have)
				params += p
			else:
				reasons = [line]
			if reasons:
				out.append(NotApplicable(Kind.KSELFTEST, spec.kselftest, glob,
							 f'not applicable to {what}: '
							 + '; '.join(reasons)))
	return out, sorted(set(params))


# --- the package's modules in the initramfs --------------------------------

def _modname(path: str) -> str:
	base = path.rsplit('/', 1)[-1]
	return re.sub(r'\.ko(\.(xz|gz|zst))?$', '', base).replace('-', '_')


def closure(modules_dep: str, names: Sequence[str]) -> Tuple[List[str], List[str]]:
	"""(module files, dependencies first, each once; names not in
	modules.dep) for the modules named."""
	deps: Dict[str, Tuple[str, List[str]]] = {}
	for line in modules_dep.splitlines():
		if ':' not in line:
			continue
		path, _, rest = line.partition(':')
		deps[_modname(path)] = (path.strip(), rest.split())
	files: List[str] = []
	missing: List[str] = []

	def add(path: str) -> None:
		if path in files:
			return
		for d in deps.get(_modname(path), (path, []))[1]:
			add(d)
		files.append(path)

	for name in names:
		key = name.replace('-', '_')
		if key in deps:
			add(deps[key][0])
		else:
			missing.append(name)
	return files, missing


def install_modules(img: Image, names: Sequence[str], root: Path) -> List[str]:
	"""The named modules and their dependencies into root's
	lib/modules/<release>, with the package's modules.* indexes, and
	the list init loads. Returns the names that are neither modules nor
	built in (the caller says so)."""
	files, missing = closure((img.moddir / 'modules.dep').read_text(), names)
	builtin_file = img.moddir / 'modules.builtin'
	builtin = {_modname(l) for l in builtin_file.read_text().split()} \
		if builtin_file.exists() else set()
	dest = root / 'lib/modules' / img.release
	dest.mkdir(parents=True, exist_ok=True)
	for f in img.moddir.glob('modules.*'):
		if f.is_file():
			shutil.copy2(f, dest / f.name)
	for rel in files:
		target = dest / rel
		target.parent.mkdir(parents=True, exist_ok=True)
		shutil.copy2(img.moddir / rel, target)
	load = [n for n in names if n not in missing]
	(root / MODULES_LIST).parent.mkdir(parents=True, exist_ok=True)
	(root / MODULES_LIST).write_text(''.join(n + '\n' for n in load))
	return [n for n in missing if n.replace('-', '_') not in builtin]
