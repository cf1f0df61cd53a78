# SPDX-License-Identifier: GPL-2.0
"""The kernel a run boots, as a description.

Either a variant we build (tools/testing/guest/variants.toml: default,
debug, coverage) or a package's own kernel (--image: booted as it is,
nothing built). The run asks its kernel what it needs and never asks
which one it is: how it is obtained, where it is kept, what cannot run
on it, and what is collected after the boots.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from . import applicable, coverage, guest, image, kunitrun
from .applicable import NotApplicable
from .model import Kind
from .report import KernelInfo, PackageInfo, RunReport
from .stages import StageLog
from .suites import SuiteSpec


@dataclass
class Built:
	"""A variant of our own kernel, configured from every present suite."""
	variant: guest.Variant

	@property
	def name(self) -> str:
		return self.variant.name

	def folder(self) -> str:
		return self.variant.name

	@property
	def modules(self) -> bool:
		"""Its build folder builds external modules (bpf_testmod.ko)."""
		return True

	def tree_fixes(self, mode: str) -> bool:
		"""Whether the series' fixes go into the tree (--fixes)."""
		return mode != 'omit'

	def describe(self, kernel: KernelInfo, build_dir: Path) -> None:
		kernel.variant = self.variant.name
		kernel.build_dir = str(build_dir)

	def plan(self, repo: Path, available: Sequence[SuiteSpec],
		 kinds: Sequence[str]) -> Tuple[List[NotApplicable], List[str]]:
		"""What cannot run on it (nothing: it is configured for every
		present suite) and the command-line parameters the rest needs."""
		return [], []

	def prepare(self, repo: Path, gjob: guest.GuestJob, kjob: kunitrun.KunitJob,
		    patches: Path, series: Sequence[str]) -> None:
		if self.variant.coverage:
			gjob.make_vars = coverage.make_vars(coverage.profiled(
				coverage.load(repo), coverage.patch_files(patches, series)))
		if any(w in guest.AFTER_KUNIT or w.startswith(guest.MUTANTS)
		       for w in [*self.variant.cmdline.split(), *kjob.kernel_args]):
			# kmemleak's scan, the gcov data, a loop over mutants
			# (mutate --schemata): after KUnit's suites
			gjob.build_dir.mkdir(parents=True, exist_ok=True)
			kjob.initrd = guest.kunit_initramfs(repo, gjob.build_dir)

	def config_lacks(self, gjob: guest.GuestJob,
			 present: Sequence[SuiteSpec]) -> Dict[str, Dict[str, str]]:
		"""Per suite and kind, the kernel config it asks for that
		this tree cannot give."""
		return guest.config_lacks(gjob, present)

	def obtain(self, gjob: guest.GuestJob, present: Sequence[SuiteSpec],
		   state: Optional[str], st: StageLog) -> Optional[str]:
		"""Configure and build; what the user space takes from the
		build (None when the tree's state is not known: it is made again)."""
		with st.stage('configure', f'{self.name} kernel config'):
			# Every present suite, whatever --suite says: one kernel
			# per variant, not one per selection.
			guest.configure(gjob, present)
		key = guest.build_key(gjob, state)
		with st.stage('build', f'{self.name} kernel (log: guest-build.log)'):
			if not guest.build(gjob, key):
				print('kconform: build: unchanged (tree, .config and '
				      'toolchain as last built)', flush=True)
			return None if key is None else guest.products_key(gjob)

	def collect(self, repo: Path, out: Path, gjob: guest.GuestJob, tree: Path,
		    seeds: Path, patches: Path, series: Sequence[str],
		    report: RunReport, st: StageLog) -> None:
		"""After the boots: the coverage variant's report."""
		if not self.variant.coverage:
			return
		with st.stage('coverage', 'gcov data -> lcov report, per seed table'):
			got, report.coverage_lines = coverage.collect(
				repo, out, gjob.build_dir, tree, seeds, patches, series)
			report.coverage = [r.to_json() for r in got]
			why = coverage.screenshot(out / 'html/index.html', out / 'screenshot.png')
			print('kconform: coverage: ' + (f'no screenshot: {why}' if why else
			      f'screenshot of the report: {out / "screenshot.png"}'), flush=True)


@dataclass
class Package:
	"""A linux-image-* package's kernel and modules, booted as they are;
	the tree gives the kselftests and their uapi headers only."""
	img: image.Image

	@property
	def name(self) -> str:
		return self.img.name

	def folder(self) -> str:
		return f'package-{self.img.release}_{self.img.unpacked.version}'

	@property
	def modules(self) -> bool:
		return False	# no build folder to build a module against

	def tree_fixes(self, mode: str) -> bool:
		# the tree only builds the kselftests (and the tree's libbpf
		# some link): its fixes stay, the package's kernel is as it is
		return True

	def describe(self, kernel: KernelInfo, build_dir: Path) -> None:
		# build_dir holds the kselftests' user space, no kernel's
		# objects: none recorded
		kernel.package = PackageInfo(self.img.asked, self.img.unpacked.package,
					     self.img.unpacked.version, self.img.release,
					     tests_from=kernel.source)
		kernel.source = self.img.name
		kernel.version = self.img.kernel_version
		kernel.variant = 'package'	# none of ours

	def plan(self, repo: Path, available: Sequence[SuiteSpec],
		 kinds: Sequence[str]) -> Tuple[List[NotApplicable], List[str]]:
		"""What its config-* cannot run, and every KUnit suite: the KUnit
		boot (kunit.py exec) is of a kernel we build."""
		nas, params = image.plan(repo, available, kinds, self.img.config(),
					 self.img.name)
		nas += [NotApplicable(Kind.KUNIT, n, '*', f'not applicable to '
					    f'{self.img.name}: KUnit suites boot our own '
					    'build (kunit.py exec)')
			for s in available for n in s.kunit
			if not applicable.whole(nas, Kind.KUNIT, n)]
		return nas, params

	def prepare(self, repo: Path, gjob: guest.GuestJob, kjob: kunitrun.KunitJob,
		    patches: Path, series: Sequence[str]) -> None:
		gjob.package = self.img

	def config_lacks(self, gjob: guest.GuestJob,
			 present: Sequence[SuiteSpec]) -> Dict[str, Dict[str, str]]:
		return {}	# the package's config-*: plan() says what it lacks

	def obtain(self, gjob: guest.GuestJob, present: Sequence[SuiteSpec],
		   state: Optional[str], st: StageLog) -> Optional[str]:
		with st.stage('kernel', f'{self.name}, not built: the tree\'s uapi '
			      'headers, the package\'s vmlinux (BTF)'):
			return guest.package_kernel(gjob, state)

	def collect(self, repo: Path, out: Path, gjob: guest.GuestJob, tree: Path,
		    seeds: Path, patches: Path, series: Sequence[str],
		    report: RunReport, st: StageLog) -> None:
		return None


Kernel = Built | Package


def choose(image_arg: Optional[str], variant: guest.Variant, cache: Path,
	   out: Path, st: StageLog) -> Kernel:
	"""--image's package (fetched and unpacked once), else the variant."""
	if not image_arg:
		return Built(variant)
	with st.stage('fetch', f'kernel package {image_arg} (apt-get download, '
		      'unpacked in the cache, not installed)'):
		return Package(image.fetch(image_arg, cache, out))
