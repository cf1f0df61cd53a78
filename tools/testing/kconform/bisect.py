# SPDX-License-Identifier: GPL-2.0
"""Bisect an ordered stack of candidate patches: the first that breaks.

Step k is the tree with the first k patches of the stack (each step a
real build and boot). A step's verdict counts only when it repeats: it
fails REPEATS times in a row, or passes REPEATS times; a step that does
both is flaky and left out of the search, as `git bisect skip` does, and
so is a step that cannot be tested (the build failed, the case did not
run). As KernelCI's bisection requires, the answer k holds only when
step k failed REPEATS times and step k - 1 passed REPEATS times; the
ends are checked first (step n must fail, step 0 must pass). A CI
pipeline (ci.py) runs every attempt of every step at once; the same
search then reads their recorded results (bisect --no-run).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence

from .model import BAD, runner_made

PASS = 'pass'
FAIL = 'fail'
FLAKY = 'flaky'
UNTESTABLE = 'untestable'
REPEATS = 3
WALL = 'wall.json'	# an attempt's wall time, beside its results.json


def folder(k: int, attempt: int) -> str:
	"""Attempt (1, 2, …) of step k, under the bisect's --out."""
	return f'step-{k:02d}/try-{attempt}'


def attempt_verdict(results: Mapping[str, Any], wanted: Callable[[str, str, str], bool]) -> str:
	"""One run's verdict on the cases bisected: fail if one of them is
	bad, pass if all passed, untestable if none ran (or one skipped)."""
	seen = [str(c['status']) for s in results.get('suites', [])
		for c in s.get('cases', []) if wanted(s['kind'], s['name'], c['name'])
		and not runner_made(c['name'])]
	if any(st in {b.value for b in BAD} for st in seen):
		return FAIL
	if seen and all(st == PASS for st in seen):
		return PASS
	return UNTESTABLE


def repeat(attempt: Callable[[int], str], repeats: int = REPEATS) -> List[str]:
	"""Attempts until repeats agree or one disagrees (then flaky)."""
	out: List[str] = []
	for i in range(repeats):
		out.append(attempt(i))
		if out[-1] == UNTESTABLE or len(set(out)) > 1:
			break
	return out


def step_verdict(attempts: Sequence[str], repeats: int = REPEATS) -> str:
	if UNTESTABLE in attempts:
		return UNTESTABLE
	if len(set(attempts)) > 1:
		return FLAKY
	return attempts[0] if len(attempts) >= repeats else UNTESTABLE


@dataclass
class Outcome:
	repeats: int = REPEATS		# a verdict counts when it repeats this often
	steps: Dict[int, List[str]] = field(default_factory=dict)	# k -> attempts
	first_bad: Optional[int] = None		# 1-based patch number
	candidates: List[int] = field(default_factory=list)	# when skips hide it
	problem: str = ''

	def verdict(self, k: int) -> str:
		return step_verdict(self.steps[k], self.repeats)


def search(n: int, test: Callable[[int], List[str]], repeats: int = REPEATS) -> Outcome:
	"""Find the first k in 1..n whose step fails, given test(k) -> the
	attempts of step k."""
	out = Outcome(repeats)

	def run(k: int) -> str:
		if k not in out.steps:
			out.steps[k] = test(k)
		return out.verdict(k)

	if run(n) != FAIL:
		out.problem = f'with every patch (step {n}) the case does not fail ' \
			f'{repeats} times: {out.verdict(n)} {out.steps[n]}'
		return out
	if run(0) != PASS:
		out.problem = f'without the patches (step 0) the case does not pass ' \
			f'{repeats} times: {out.verdict(0)} {out.steps[0]}'
		return out
	good, bad = 0, n
	while True:
		inside = [k for k in range(good + 1, bad) if k not in out.steps]
		if not inside:
			break
		mid = (good + bad) // 2
		# the untested step nearest the middle (skipped ones are tested)
		k = min(inside, key=lambda x: (abs(x - mid), x))
		v = run(k)
		if v == FAIL:
			bad = k
		elif v == PASS:
			good = k
	# good passed and bad failed, repeats times each; the steps between
	# them (if any) were flaky or untestable.
	if bad == good + 1:
		out.first_bad = bad
	else:
		out.candidates = list(range(good + 1, bad + 1))
		out.problem = (f'steps {", ".join(str(k) for k in range(good + 1, bad))} '
			       'are flaky or untestable: the first bad patch is one of '
			       + ', '.join(str(k) for k in out.candidates))
	return out


def lines(patches: Sequence[str], out: Outcome, wall: float) -> List[str]:
	res = ['== bisect: step k = the tree with the first k patches']
	for k in sorted(out.steps):
		name = patches[k - 1] if k else '(none: the tree alone)'
		res.append(f'   step {k}: {out.verdict(k):<10} {" ".join(out.steps[k]):<16} {name}')
	if out.first_bad:
		res.append(f'first bad patch: {out.first_bad}: {patches[out.first_bad - 1]} '
			   f'(failed {out.repeats} times; step {out.first_bad - 1} passed '
			   f'{out.repeats} times)')
	if out.problem:
		res.append('bisect: ' + out.problem)
	flaky = [k for k in out.steps if out.verdict(k) == FLAKY]
	if flaky:
		res.append('flaky steps: ' + ', '.join(str(k) for k in flaky))
	res.append(f'bisect: {len(out.steps)} steps, '
		   f'{sum(len(a) for a in out.steps.values())} boots, wall {wall:.0f} s')
	return res
