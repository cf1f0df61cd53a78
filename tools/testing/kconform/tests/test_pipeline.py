# SPDX-License-Identifier: GPL-2.0
"""The run's plan (pipeline.py), made before anything is built: what is
not applicable to a tree is reported whole, one <suite> case each."""

import signal
import tempfile
import threading
import unittest
from pathlib import Path
from typing import Any, List, Tuple
from unittest import mock

from kconform import (applicable, cli, deps, guest, inputs, kernels, kunitrun, pipeline, proc,
		      report, suites, tree, upstream)

from kconform.model import Case, InputError, Kind, Status, Suite

from .test_bad_console import says_what_is_missing

KNOWN = Path(__file__).parent / 'test_data' / 'gate' / 'known_none.toml'


def plan_of(src: tree.Source, *extra: str) -> Tuple[List[suites.SuiteSpec], pipeline.RunPlan]:
	"""The registry and the plan of `run` (and @extra) on @src, whose
	config lacks nothing the suites ask for."""
	args = cli.parser().parse_args(['run', '--out', str(src.work.parent / 'out'),
					'--known-issues', str(KNOWN), *extra])
	registry = suites.load(inputs.REPO)
	inp = inputs.check(args, registry)
	kern = kernels.Built(inp.variant)
	gjob, kjob = pipeline.jobs(inp, kern, src, tree.Layout(inputs.REPO), {})

	def lacks(self: Any, job: Any, present: Any) -> Any:
		return {}

	with mock.patch.object(kernels.Built, 'config_lacks', lacks):
		return registry, pipeline.plan(inp, registry, kern, src, gjob, kjob)


def with_code(name: str) -> Tuple[tree.Source, suites.SuiteSpec]:
	"""A linux-source-6.12 tree holding what suite @name requires (its
	kernel code is there), and the suite."""
	tmp = Path(tempfile.mkdtemp())
	src = tree.Source('linux-source-6.12', tmp / 'linux', tmp / 'work')
	spec = next(s for s in suites.load(inputs.REPO) if s.name == name)
	for path, text in spec.requires:
		(src.tree / path).parent.mkdir(parents=True, exist_ok=True)
		(src.tree / path).write_text(text or '')
	return src, spec


class PlanTest(unittest.TestCase):

	def test_a_suite_whose_code_is_missing_is_one_skipped_case(self) -> None:
		tmp = Path(tempfile.mkdtemp())
		src = tree.Source('linux-source-6.1', tmp / 'none', tmp / 'work')
		src.dropped = {'0501-genl.patch': 'rejected'}
		registry, plan = plan_of(src)
		self.assertEqual((plan.kunit, plan.kselftest, plan.runnable), ([], [], []))
		got = pipeline.mark([], plan)
		whole = [n for n in plan.not_applicable if not n.named]
		rep = report.as_json(report.RunReport(kernel=report.KernelInfo(''), accel='tcg', suites=got,
						      not_applicable=whole))
		every = [(k.value, n) for s in registry for k in suites.KINDS for n in s.names(k)]
		# and upstream's tests, which the tree lacks too: each selector
		# is a skipped case, never dropped
		self.assertEqual([(s['kind'], s['name']) for s in rep['suites']],
				 every + [('kselftest', 'upstream')])
		netlink = next(s for s in rep['suites'] if s['name'] == 'netlink_intro')
		self.assertEqual([c['name'] for c in netlink['cases']], [applicable.WHOLE])
		self.assertEqual(netlink['status'], 'skip')
		self.assertTrue(netlink['message'].startswith('not applicable: its kernel '
							      'code is missing: '))
		# only genl_family_test needs 0501: the whole kind says why it is
		# not applicable, once
		self.assertNotIn('0501', netlink['message'])
		self.assertEqual([(n['kind'], n['suite']) for n in rep['not_applicable']], every)
		up = next(s for s in rep['suites'] if s['name'] == 'upstream')
		self.assertEqual(len(up['cases']), len(upstream.selectors(registry)))
		self.assertEqual({c['status'] for c in up['cases']}, {'skip'})
		self.assertIn('== kselftest netlink_intro: NOT APPLICABLE (0 pass',
			      '\n'.join(report.summary(report.RunReport(
				      kernel=report.KernelInfo(''), accel='tcg', suites=got,
				      not_applicable=whole))))


	def test_a_dropped_hook_patch_skips_only_the_cases_that_need_it(self) -> None:
		src, _ = with_code('netlink_intro')
		src.dropped = {'0501-lib-add-a-generic-netlink-test-family.patch': 'rejected'}
		_, plan = plan_of(src, '--suite', 'netlink_intro')
		self.assertEqual([s.name for s in plan.kselftest], ['netlink_intro'])
		ran = Suite('netlink_intro', Kind.KSELFTEST, cases=[
			Case('netlink_intro_test/ack.capped_ack', Status.PASS),
			Case('genl_family_test/reg.family_registration', Status.FAIL, 'no family')])
		got = pipeline.mark([ran], plan)[0]
		verdict = {c.name: (c.status, c.message) for c in got.cases}
		self.assertEqual(verdict['netlink_intro_test/ack.capped_ack'], (Status.PASS, ''))
		why = ('not applicable to linux-source-6.12: patch '
		       '0501-lib-add-a-generic-netlink-test-family.patch does not apply (rejected)')
		self.assertEqual(verdict['genl_family_test/reg.family_registration'],
				 (Status.SKIP, why))
		# the cases that did not run are named from the sources, not dropped
		genl = [n for n in verdict if n.startswith('genl_family_test/')]
		self.assertGreater(len(genl), 5)
		self.assertEqual({verdict[n] for n in genl}, {(Status.SKIP, why)})
		self.assertEqual(got.status, Status.PASS)


	def test_upstream_s_tests_run_where_the_kunit_hooks_do_not_apply(self) -> None:
		src, spec = with_code('bpf_cgroup_iter')
		tests = src.tree / upstream.SELFTESTS / 'prog_tests'
		tests.mkdir(parents=True)
		(tests / 'cgroup_iter.c').write_text('void test_cgroup_iter(void)\n{\n}\n')
		src.dropped = {'0302-bpf-let-KUnit-drive-the-cgroup-task-and-task_file-it.patch':
			       'rejected'}
		_, plan = plan_of(src, '--suite', 'bpf_cgroup_iter')
		self.assertEqual(plan.kunit, [])
		# its KUnit suite is one skipped case; upstream's cgroup_iter
		# runs in the kselftest boot, cgroup_hierarchical_stats (not in
		# this tree) is skipped with the reason
		self.assertEqual([(s.name, s.kunit, s.upstream) for s in plan.kselftest],
				 [('bpf_cgroup_iter', (), spec.upstream)])
		self.assertEqual([(n.suite, n.glob) for n in plan.not_applicable], [
			('bpf_cgroup_iter', '*'),
			('upstream', 'test_progs:cgroup_hierarchical_stats')])


class CmdlineTest(unittest.TestCase):

	def test_cmdline_words_reach_the_kunit_boot(self) -> None:
		# mutate --schemata: `run --cmdline kconform.mutant=7`
		tmp = Path(tempfile.mkdtemp())
		src = tree.Source('linux-source-6.1', tmp / 'linux', tmp / 'work')
		args = cli.parser().parse_args([
			'run', '--out', str(tmp / 'out'), '--known-issues', str(KNOWN),
			'--variant', 'debug', '--cmdline', 'kconform.mutant=7',
			'--cmdline', 'x=1'])
		inp = inputs.check(args, suites.load(inputs.REPO))
		self.assertEqual(inp.cmdline, ('kconform.mutant=7', 'x=1'))
		_, kjob = pipeline.jobs(inp, kernels.Built(inp.variant), src,
					tree.Layout(inputs.REPO), {})
		self.assertEqual(kjob.kernel_args, (*inp.variant.cmdline.split(),
						    'kconform.mutant=7', 'x=1'))


	def test_a_silent_console_ends_both_boots(self) -> None:
		# mutate --schemata's loop boots: `run --silence-timeout S`,
		# scaled as the variant scales its timeouts, reaches the guest's
		# and the KUnit boot's proc.run as its idle limit
		tmp = Path(tempfile.mkdtemp())
		src = tree.Source('linux-source-6.1', tmp / 'linux', tmp / 'work')
		args = cli.parser().parse_args([
			'run', '--out', str(tmp / 'out'), '--known-issues', str(KNOWN),
			'--variant', 'debug', '--silence-timeout', '300'])
		inp = inputs.check(args, suites.load(inputs.REPO))
		gjob, kjob = pipeline.jobs(inp, kernels.Built(inp.variant), src,
					   tree.Layout(inputs.REPO), {})
		want = int(300 * inp.variant.timeout_factor)
		self.assertEqual((gjob.silence, kjob.silence), (want, want))
		gjob.build_dir.mkdir(parents=True, exist_ok=True)
		ran = proc.Run([], [], 0, True, 0.0, tmp / 'log')
		with mock.patch.object(proc, 'run', return_value=ran) as run:
			guest.boot(gjob, [], [])
			kunitrun.execute(kjob, [], [])
		self.assertEqual([c.kwargs['idle'] for c in run.call_args_list], [want, want])
		with self.assertRaisesRegex(InputError, '--silence-timeout 0: must be 1 or more'):
			inputs.check(cli.parser().parse_args([
				'run', '--out', str(tmp / 'out'), '--silence-timeout', '0']),
				suites.load(inputs.REPO))


class StageErrorTest(unittest.TestCase):

	def stop_in_the_build(self, signal: BaseException) -> Tuple[report.RunReport, Path]:
		out = Path(tempfile.mkdtemp())
		args = cli.parser().parse_args(['run', '--out', str(out),
						'--known-issues', str(KNOWN)])
		registry = suites.load(inputs.REPO)

		def broken(r: pipeline.Run) -> None:
			with r.st.stage('build', 'the kernel'):
				raise signal

		with mock.patch.object(pipeline, 'stages', broken), \
				mock.patch.object(deps, 'ensure', lambda packages: None):
			rc, rep = pipeline.run(inputs.check(args, registry), registry)
		self.assertEqual(rc, 1)
		self.assertEqual([(e.stage, e.signal) for e in rep.stage_errors],
				 [('build', True)])
		self.assertTrue(rep.stopped)
		return rep, out / 'results.json'

	def test_an_error_names_the_stage_it_ended(self) -> None:
		_, path = self.stop_in_the_build(KeyboardInterrupt())
		self.assertEqual(report.read(path)['errors'],
				 ['interrupted (SIGINT): results so far are kept'])
		# a run stopped before any suite still has them in results.json
		says_what_is_missing(self, path, 'no result: interrupted (SIGINT)')

	def test_sigterm_in_the_build_is_a_stopped_run_to_its_readers(self) -> None:
		# mutate, matrix and bisect stop on a run a signal ended: a
		# SIGTERM during a mutant's build was once written with its
		# traceback, which report.stopped() did not know, and mutate
		# went on to the next batch
		_, path = self.stop_in_the_build(proc.Terminated(signal.SIGTERM))
		data = report.read(path)
		self.assertEqual(data['errors'],
				 ['terminated by SIGTERM: results so far are kept'])
		self.assertTrue(report.stopped(data))


class BesideTest(unittest.TestCase):
	"""The KUnit boot runs beside the user space and the kselftest boot."""

	def test_the_kunit_boot_runs_beside_the_kselftests(self) -> None:
		kselftests_started = threading.Event()
		order: List[str] = []
		ku = Suite('ku', 'kunit', [Case('a', Status.PASS)])
		ks = Suite('ks', 'kselftest', [Case('b', Status.PASS)])
		b = mock.MagicMock(built=True, accel='auto', userspace=True)
		r = mock.MagicMock(results=[Suite('na', 'kselftest', [])])
		r.inputs.accel = 'tcg'
		r.inputs.retries = 0
		r.inputs.selection.only = lambda results: results

		def kunit_stage(r: Any, b: Any) -> List[Suite]:
			# sequential stages would wait here for the whole timeout
			order.append('kunit' if kselftests_started.wait(10) else 'kunit alone')
			return [ku]

		def kselftest_stage(r: Any, b: Any) -> None:
			kselftests_started.set()
			r.results.append(ks)

		with mock.patch.multiple(pipeline, derive=lambda r: b, build=lambda r, b: None,
					 kunit_stage=kunit_stage, userspace=lambda r, b: None,
					 kselftest_stage=kselftest_stage,
					 bench_stage=lambda r, b: order.append('bench'),
					 mark=lambda results, p: results):
			pipeline.stages(r)
		self.assertEqual(order, ['kunit', 'bench'])
		# the KUnit suites keep their place: after what came before the boots
		self.assertEqual([s.name for s in r.results], ['na', 'ku', 'ks'])
