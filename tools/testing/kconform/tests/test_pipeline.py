# SPDX-License-Identifier: GPL-2.0
"""The run's plan (pipeline.py), made before anything is built: what is
not applicable to a tree is reported whole, one <suite> case each."""

import tempfile
import unittest
from pathlib import Path
from typing import Any
from unittest import mock

from kconform import applicable, cli, deps, inputs, kernels, pipeline, report, suites, tree

from .test_bad_console import says_what_is_missing

KNOWN = Path(__file__).parent / 'test_data' / 'gate' / 'known_none.toml'


class PlanTest(unittest.TestCase):

	def test_a_suite_whose_code_is_missing_is_one_skipped_case(self) -> None:
		tmp = Path(tempfile.mkdtemp())
		args = cli.parser().parse_args(['run', '--out', str(tmp / 'out'),
						'--known-issues', str(KNOWN)])
		registry = suites.load(inputs.REPO)
		inp = inputs.check(args, registry)
		kern = kernels.Built(inp.variant)
		src = tree.Source('linux-source-6.1', tmp / 'none', tmp / 'work')
		src.dropped = {'0501-genl.patch': 'rejected'}
		gjob, kjob = pipeline.jobs(inp, kern, src, tree.Layout(inputs.REPO), {})

		def lacks(self: Any, job: Any, present: Any) -> Any:
			return {}

		with mock.patch.object(kernels.Built, 'config_lacks', lacks):
			plan = pipeline.plan(inp, registry, kern, src, gjob, kjob)
		self.assertEqual((plan.kunit, plan.kselftest, plan.runnable), ([], [], []))
		got = pipeline.mark([], plan)
		whole = [n for n in plan.not_applicable if not n.named]
		rep = report.as_json(report.RunReport(kernel=report.KernelInfo(''), accel='tcg', suites=got,
						      not_applicable=whole))
		every = [(k.value, n) for s in registry for k in suites.KINDS for n in s.names(k)]
		self.assertEqual([(s['kind'], s['name']) for s in rep['suites']], every)
		netlink = next(s for s in rep['suites'] if s['name'] == 'netlink_intro')
		self.assertEqual([c['name'] for c in netlink['cases']], [applicable.WHOLE])
		self.assertEqual(netlink['status'], 'skip')
		self.assertTrue(netlink['message'].startswith('not applicable: its kernel '
							      'code is missing: '))
		self.assertIn('patch 0501-genl.patch does not apply (rejected)',
			      netlink['message'])
		self.assertEqual([(n['kind'], n['suite']) for n in rep['not_applicable']], every)
		self.assertIn('== kselftest netlink_intro: NOT APPLICABLE (0 pass',
			      '\n'.join(report.summary(report.RunReport(
				      kernel=report.KernelInfo(''), accel='tcg', suites=got,
				      not_applicable=whole))))


class StageErrorTest(unittest.TestCase):

	def test_an_error_names_the_stage_it_ended(self) -> None:
		out = Path(tempfile.mkdtemp())
		args = cli.parser().parse_args(['run', '--out', str(out),
						'--known-issues', str(KNOWN)])
		registry = suites.load(inputs.REPO)

		def broken(r: pipeline.Run) -> None:
			with r.st.stage('build', 'the kernel'):
				raise KeyboardInterrupt

		with mock.patch.object(pipeline, 'stages', broken), \
				mock.patch.object(deps, 'ensure', lambda packages: None):
			rc, rep = pipeline.run(inputs.check(args, registry), registry)
		self.assertEqual(rc, 1)
		self.assertEqual([(e.stage, e.signal) for e in rep.stage_errors],
				 [('build', True)])
		self.assertTrue(rep.stopped)
		self.assertEqual(report.read(out / 'results.json')['errors'],
				 ['interrupted (SIGINT): results so far are kept'])
		# a run stopped before any suite still has them in results.json
		says_what_is_missing(self, out / 'results.json',
				     'no result: interrupted (SIGINT)')
