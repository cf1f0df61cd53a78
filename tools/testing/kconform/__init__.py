# SPDX-License-Identifier: GPL-2.0
"""kconform: conformance and regression gating for Linux 6.1 features."""
