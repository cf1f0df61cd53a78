# SPDX-License-Identifier: GPL-2.0
"""The suite registry, suites.toml: one entry per feature suite.

By convention an entry named N has kunitconfig/N.config (its KUnit part,
printing KTAP suite N unless `kunit` lists other names) and kselftests/N/
(its kselftest target). `requires` names kernel files, and optionally a
text in them, without which the suite's kernel code is missing.
`cmdline` is added to the guest kernel's command line. `bench` names
programs of the suite's kselftest target that the guest runs after the
kselftests, as benchmarks (see bench.py).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from .model import KconformError


@dataclass(frozen=True)
class SuiteSpec:
	name: str
	kunitconfig: Optional[Path]
	kunit: Tuple[str, ...]
	kselftest: Optional[str]
	requires: Tuple[Tuple[str, Optional[str]], ...] = field(default=())
	cmdline: str = ''
	bench: Tuple[str, ...] = field(default=())


def load(repo: Path) -> List[SuiteSpec]:
	path = repo / 'suites.toml'
	try:
		data = tomllib.loads(path.read_text())
	except (OSError, tomllib.TOMLDecodeError) as e:
		raise KconformError(f'{path}: {e}') from e
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
			bench=tuple(str(b) for b in entry.get('bench', []))))
		if not specs[-1].kunitconfig and not specs[-1].kselftest:
			raise KconformError(f'suites.toml: {name} has neither '
					    f'{frag} nor {ksft}/')
		if specs[-1].bench and not specs[-1].kselftest:
			raise KconformError(f'suites.toml: {name} has a bench but '
					    f'no {ksft}/ to build it in')
	return specs


def select(specs: Sequence[SuiteSpec], names: Sequence[str]) -> List[SuiteSpec]:
	if not names:
		return list(specs)
	known = {s.name: s for s in specs}
	unknown = [n for n in names if n not in known]
	if unknown:
		raise KconformError(f'unknown suite(s) {", ".join(unknown)}; '
				    f'known: {", ".join(known)}')
	return [known[n] for n in names]
