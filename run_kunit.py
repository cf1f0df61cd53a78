#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The KUnit suites alone: `python3 -m kconform run --kind kunit`.

It builds the run's kernel variant as a full run does (one kernel,
configured from every suite, in the cache) and boots it with the patched
tree's own tools/testing/kunit/kunit.py exec, whose KTAP console is
parsed and gated as in a full run: results.json, junit.xml and the
summary in --out. Every option of `run` works here too, for example:
./run_kunit.py --suite tcp_ehash
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / 'tools' / 'testing'))

from kconform.cli import entry  # noqa: E402

if __name__ == '__main__':
	entry(['run', '--kind', 'kunit', *sys.argv[1:]])
