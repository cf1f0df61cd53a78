# SPDX-License-Identifier: GPL-2.0
from .cli import entry

entry()
