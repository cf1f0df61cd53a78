#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The KUnit path alone: kconform's run limited to the KUnit suites.

It drives the patched tree's own tools/testing/kunit/kunit.py with the
fragments in kunitconfig/, --arch=x86_64, a build folder in the cache and
JSON output. Every option of `python3 -m kconform run` works here too,
for example: ./run_kunit.py --suite tcp_ehash
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / 'tools' / 'testing'))

from kconform.cli import entry  # noqa: E402

if __name__ == '__main__':
	entry(['run', '--kind', 'kunit', *sys.argv[1:]])
