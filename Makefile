# SPDX-License-Identifier: GPL-2.0
# kconform: the two commands of the README are `make run` (the main job)
# and `make check` (the project's tests). Both install what is missing
# from Debian's packages first.

PYTHON ?= python3
SYSTEM_PYTHON ?= /usr/bin/python3
SHARED ?= ../shared
ARGS ?=
KCONFORM = PYTHONPATH=tools/testing $(PYTHON) -m kconform

.PHONY: run bench check deps deps-tests unit typecheck series export coverage matrix

## The main job: build the patched kernels, boot them, run every suite, report.
run: deps
	$(KCONFORM) run $(ARGS)

## The benchmarks alone (suites.toml `bench`): one boot of the guest kernel
## with its debugging options off, no kselftest; results/bench/results.json,
## summary.txt and the tcp_ehash plot.
bench: deps
	$(KCONFORM) run --kind bench --out results/bench $(ARGS)

## The project's tests: runner unit tests, types, the series, the full run
## on the debug variant (KASAN, UBSAN, KFENCE, lockdep, kmemleak: any
## report fails), then the proof of every fix: the same run without the
## series' fixes, in which each fix's guards must fail and nothing else
## may change. One kernel (the debug variant's) serves both runs; the
## benchmarks (make bench) never run on it.
CHECK_VARIANT ?= debug
check: deps-tests unit typecheck series
	@rc=0; $(KCONFORM) run --variant $(CHECK_VARIANT) $(ARGS) || rc=1; \
	if [ -f $(SHARED)/tools/check-results ]; then \
		$(PYTHON) $(SHARED)/tools/check-results results/results.json || rc=1; \
	else echo "check-results: $(SHARED)/tools/check-results not found, shape not checked"; fi; \
	cp results/results.json results/with-fixes.json; \
	$(KCONFORM) run --variant $(CHECK_VARIANT) --prove-fixes \
		--baseline results/with-fixes.json \
		--out results/without-fixes $(ARGS) > results/prove-fixes.log 2>&1 \
		|| { rc=1; echo "prove-fixes FAILED (results/prove-fixes.log):"; \
		     grep -E '^gate: FAILED|^error' results/prove-fixes.log; }; \
	sed -n '/^== bugs this tree carries/,/^gate:\|^[0-9]* passed/p' \
		results/without-fixes/summary.txt 2>/dev/null | grep -v '^gate:'; \
	[ $$rc = 0 ] || { echo "== what failed (results/summary.txt, first 30):"; \
		grep -E '^== .*: (FAIL|CRASH|TIMEOUT) |^   .*  (fail|crash|timeout)(  |$$)|^gate: (FAILED|new failure|vanished|known issue EXPIRED|fixed)' \
			results/summary.txt 2>/dev/null | cut -c1-200 | head -n 30; }; \
	tail -n 1 results/summary.txt; exit $$rc

## Coverage (README "Coverage"): every suite on the coverage variant (gcov
## on coverage.toml's files), then results/coverage/html/index.html, its
## screenshot, and per seed commit the changed lines executed (the table
## at the end of results/coverage/summary.txt, results.json `coverage`).
coverage:
	$(KCONFORM) deps --coverage
	$(KCONFORM) run --variant coverage --out results/coverage \
		--seeds $(SHARED)/seeds $(ARGS)

## A matrix of releases (README "Releases"): one run per release of
## VERSIONS (results/matrix/<release>/), then the cases whose verdict
## differs and the bugs each release carries (matrix.txt, matrix.json).
## The default: Debian 12's linux-source-6.1 releases in the archive, oldest
## first (each neighbouring pair's changes follow), and 6.12's newest.
VERSIONS ?= 6.1.170-3 6.1.176-1 6.1.187-1 6.1.190-1 6.1.192-3 linux-source-6.12
matrix: deps
	$(KCONFORM) matrix $(VERSIONS) --run-args="$(ARGS)"

deps:
	$(KCONFORM) deps

deps-tests:
	$(KCONFORM) deps --tests

unit:
	PYTHONPATH=tools/testing $(PYTHON) -m unittest discover -s tools/testing/kconform/tests -t tools/testing

typecheck:
	cd tools/testing && $(SYSTEM_PYTHON) -m mypy --strict kconform

series: deps
	$(KCONFORM) series $(ARGS)

## The series as a git am-able set with a cover letter, in outgoing/.
export: deps
	$(KCONFORM) export $(ARGS)
