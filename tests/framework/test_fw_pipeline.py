"""Pipeline: step order, earlier results, suite steps, errors, executors, config and presets."""

from __future__ import annotations

import concurrent.futures as cf
import json
import os
import sys
from pathlib import Path

import numpy as np
import perfrigor as pr
import pytest
from perfrigor.scheduler import stages as _stages

HERE = Path(__file__).resolve().parent


def make_suite(n=6, bad=None, seed=0):
    rng = np.random.default_rng(seed)
    data = {}
    for i in range(n):
        old = rng.normal(10 + i, 0.3, 12)
        new = old / (1.2 if i % 3 else 0.9)
        if bad is not None and i == bad:
            old = old + 2000  # toy-ratio refuses values above 1000
        data[f"b{i}"] = {"old": old, "new": new}
    return pr.Suite(data)


def test_steps_by_name_mapping_instance_and_class(toy_registry):
    from toys import ToyMean, ToyRatio

    p = pr.Pipeline(["toy-ratio", {"component": "toy-boot", "params": {"n_bootstrap": 20}, "random_state": 3},
                     ToyMean(), ToyRatio])
    assert [s.id for s in p.steps] == ["toy-ratio", "toy-boot", "toy-mean", "toy-ratio-2"]
    assert p.steps[1].component.get_params() == {"confidence": 0.95, "n_bootstrap": 20, "random_state": 3}
    assert "toy-boot" in repr(p)
    cfg = p.to_config()
    assert pr.Pipeline.from_config(cfg).to_config() == cfg


@pytest.mark.parametrize("steps, match", [
    ([], "no steps"),
    ("toy-ratio", "must be a list"),
    (["toy-rati"], r"unknown component 'toy-rati' \(did you mean 'toy-ratio'"),
    ([{"component": "toy-ratio", "confidnce": 0.9}], r"'confidnce' \(did you mean 'confidence'\?\)"),
    ([{"component": "toy-ratio", "confidence": 2}], "confidence must be a level"),
    ([{"params": {}}], "needs a 'component' name"),
    ([{"component": "toy-ratio", "confidence": 0.9, "params": {"confidence": 0.8}}], "given twice"),
    ([3], "expected a component"),
])
def test_bad_steps(toy_registry, steps, match):
    with pytest.raises(pr.ConfigError, match=match):
        pr.Pipeline(steps)


def test_two_samples_results_and_keys(toy_registry):
    rng = np.random.default_rng(1)
    old = rng.normal(10, 0.2, 30)
    report = pr.Pipeline(["toy-mean", "toy-ratio", "toy-reader"]).run(old, old / 1.25)
    assert report.baseline == "baseline" and report.candidate == "candidate"
    res = report.benchmark_results["benchmark"]
    assert set(res["toy-mean"]) == {"baseline", "candidate"}
    ratio = report.result("toy-ratio")
    assert ratio.estimate == pytest.approx(1.25)
    # a later step reads the earlier one through `previous`
    assert report.result("toy-reader", key="baseline -> candidate").estimate == pytest.approx(2.5)
    d = report.to_dict()
    json.dumps(d, allow_nan=False)
    assert d["steps"][1]["component"] == "toy-ratio" and not d["errors"]


def test_samples_keep_their_names_as_systems(toy_registry):
    a = pr.Sample([1.0, 1.1, 1.2], name="v1")
    b = pr.Sample([0.9, 1.0, 1.0], name="v2")
    report = pr.Pipeline(["toy-ratio"]).run(a, b)
    assert (report.baseline, report.candidate) == ("v1", "v2")
    assert list(report.benchmark_results["benchmark"]["toy-ratio"]) == [pr.PairKey("v1", "v2")]


def test_suite_steps_run_once_and_see_earlier_results(toy_registry):
    suite = make_suite()
    report = pr.Pipeline(["toy-ratio", "toy-suite", "toy-mean"]).run(suite)
    assert report.benchmarks == suite.benchmarks
    top = report.suite_results["toy-suite"]
    assert top.estimate == pytest.approx(4 / 6)  # benchmarks 0 and 3 are slowed down
    assert top.details["earlier_steps"] == ["toy-ratio"]  # toy-mean comes later
    assert "toy-mean" in report.benchmark_results["b5"]
    assert [s.scope for s in report.steps] == ["benchmark", "suite", "benchmark"]
    assert [[s.id for s in st] for st in _stages(pr.Pipeline(["toy-ratio", "toy-mean", "toy-suite", "toy-mean"]).steps)] \
        == [["toy-ratio", "toy-mean"], ["toy-suite"], ["toy-mean-2"]]


def test_baseline_and_candidate_can_be_chosen(toy_registry):
    suite = make_suite()
    report = pr.Pipeline(["toy-ratio"], baseline="new", candidate="old").run(suite)
    assert report.result("toy-ratio", "b1").estimate == pytest.approx(1 / 1.2)
    with pytest.raises(pr.ConfigError, match=r"baseline system 'v0' is not in the data \(systems: 'old', 'new'\)"):
        pr.Pipeline(["toy-ratio"], baseline="v0").run(suite)
    with pytest.raises(pr.ConfigError, match=r"system 'New' is not in the data \(did you mean 'new'\?\)"):
        pr.Pipeline(["toy-ratio"], candidate="New").run(suite)


def test_a_suite_comparator_on_one_system_names_the_data_in_words():
    # Was "... the suite has only ['A']": a Python list, and no file.
    suite = pr.Suite({"x": {"A": [1.0, 2.0, 3.0]}}, source="runs.csv")
    with pytest.raises(pr.ConfigError, match=r"^demo compares two systems; runs.csv holds only 'A'$"):
        pr.Comparator.run_suite(type("Demo", (), {"name": "demo"})(), suite, "A", None, {})


def test_one_failing_benchmark_is_recorded_not_dropped(toy_registry):
    suite = make_suite(bad=2)
    report = pr.Pipeline(["toy-ratio", "toy-mean", "toy-suite"]).run(suite)
    assert report.errors == [pr.StepError("toy-ratio", "b2", "b2/old: a value is above 1000 (the toy refuses it)")]
    assert "toy-ratio" not in report.benchmark_results["b2"]
    assert "toy-mean" in report.benchmark_results["b2"]  # later steps still run on it
    assert all("toy-ratio" in report.benchmark_results[b] for b in suite.benchmarks if b != "b2")
    assert any(w.benchmark == "b2" and w.message.startswith("not run:") for w in report.warnings)
    assert report.to_dict()["errors"] == [e.to_dict() for e in report.errors]


def test_single_benchmark_errors_are_recorded_unless_nothing_runs(toy_registry):
    report = pr.Pipeline(["toy-ratio", "toy-mean"]).run([2000.0, 2001.0], [1.0, 2.0])
    assert [e.step for e in report.errors] == ["toy-ratio"] and "toy-mean" in report.benchmark_results["benchmark"]
    with pytest.raises(pr.DataError, match=r"^toy-ratio: .*above 1000 \(the toy refuses it\)$"):
        pr.Pipeline(["toy-ratio"]).run([2000.0, 2001.0], [1.0, 2.0])
    with pytest.raises(pr.DataError, match=r"^toy-levels on benchmark 'flat': .* \(and 1 more error\(s\)\)$"):
        pr.Pipeline(["toy-levels"]).run(pr.Suite({"flat": {"a": [1.0, 2.0]}, "flat2": {"a": [1.0, 2.0]}}))


def test_min_levels_is_checked(toy_registry):
    suite = pr.Suite({"flat": {"a": [1.0, 2.0, 3.0], "b": [1.0, 2.0, 3.0]},
                      "deep": {"a": np.ones((3, 2)), "b": np.ones((3, 2))}})
    report = pr.Pipeline(["toy-levels"]).run(suite)
    assert [e.benchmark for e in report.errors] == ["flat"]
    assert "toy-levels needs hierarchical data with at least 2 levels; system 'a' has 1 (run)" in report.errors[0].message


def test_a_crash_propagates_with_step_and_benchmark(toy_registry):
    with pytest.raises(ZeroDivisionError) as err:
        pr.Pipeline(["toy-crash"]).run(make_suite())
    assert "in step 'toy-crash' (toy-crash) on benchmark 'b0'" in "\n".join(getattr(err.value, "__notes__", []))


def test_nothing_to_run_and_bad_executor(toy_registry):
    with pytest.raises(pr.DataError, match="nothing to analyse"):
        pr.Pipeline(["toy-ratio"]).run()
    with pytest.raises(pr.ConfigError, match="executor"):
        pr.Pipeline(["toy-ratio"]).run([1, 2], [1, 2], executor="gpu")


def _canonical(report):
    d = report.to_dict()
    return json.dumps(d, sort_keys=True)


STEPS = ["toy-ratio", {"component": "toy-boot", "random_state": 11, "n_bootstrap": 64}, "toy-reader",
         "toy-suite", "toy-mean", "toy-batch-mean"]


def test_results_do_not_depend_on_the_executor(toy_registry):
    suite = make_suite(n=10, bad=4)
    serial = _canonical(pr.Pipeline(STEPS).run(suite))
    with cf.ProcessPoolExecutor(max_workers=2) as pool:
        pooled = _canonical(pr.Pipeline(STEPS).run(suite, executor=pool))
    with cf.ThreadPoolExecutor(max_workers=3) as pool:
        threaded = _canonical(pr.Pipeline(STEPS).run(suite, executor=pool))
    assert serial == pooled == threaded
    assert _canonical(pr.Pipeline(STEPS).run(suite, executor="process")) == serial


def test_results_do_not_depend_on_batching(toy_registry):
    suite = make_suite(n=10, bad=4)
    serial = _canonical(pr.Pipeline(STEPS).run(suite))
    for size in (1, 3, 64):
        assert _canonical(pr.Pipeline(STEPS).run(suite, batch_size=size)) == serial
    with cf.ProcessPoolExecutor(max_workers=2) as pool:
        assert _canonical(pr.Pipeline(STEPS).run(suite, executor=pool, batch_size=4)) == serial
    with pytest.raises(pr.ConfigError, match="batch_size must be a positive integer"):
        pr.Pipeline(STEPS).run(suite, batch_size=0)


def test_prepare_sees_each_batch_once_before_its_step(toy_registry):
    from toys import HITS, PREPARED

    PREPARED.clear()
    HITS.clear()
    report = pr.Pipeline(["toy-mean", "toy-batch-mean"]).run(make_suite(n=7), batch_size=3)
    assert PREPARED == [("b0", "b1", "b2"), ("b3", "b4", "b5"), ("b6",)]
    assert len(HITS) == 14  # every sample's mean came from the batch's workspace
    assert [report.result("toy-batch-mean", b, "old").estimate for b in report.benchmarks] == \
        [report.result("toy-mean", b, "old").estimate for b in report.benchmarks]
    assert pr.current_workspace() is None  # a task's workspace ends with it: nothing stays cached


def test_prepare_errors_are_left_to_the_benchmark_or_propagate(toy_registry):
    from toys import HITS

    HITS.clear()
    report = pr.Pipeline(["toy-batch-mean"]).run(make_suite(n=4, bad=1), batch_size=2)
    assert [e.benchmark for e in report.errors] == ["b1"] and "above 1000" in report.errors[0].message
    assert len(HITS) == 4  # the other batch was prepared; the failed batch ran one by one
    assert report.result("toy-batch-mean", "b0", "old").estimate == pytest.approx(report.data["b0"]["old"].flat.mean())
    suite = pr.Suite({"b0": {"old": -5000 + np.zeros(3) + [0, 1, 2], "new": [1.0, 2.0, 3.0]}})
    with pytest.raises(RuntimeError) as err:
        pr.Pipeline(["toy-batch-mean"]).run(suite)
    assert "in step 'toy-batch-mean' (toy-batch-mean), preparing 1 benchmark(s)" in err.value.__notes__[0]


def test_workspace_is_current_only_inside_with():
    assert pr.current_workspace() is None
    with pr.Workspace() as outer:
        outer.put(("t", 1), "a")
        with pr.Workspace() as inner:
            assert pr.current_workspace() is inner and ("t", 1) not in inner
        assert pr.current_workspace() is outer and outer.get(("t", 1)) == "a" and len(outer) == 1
    assert pr.current_workspace() is None


def test_generator_random_state_is_split_per_benchmark_identically(toy_registry):
    suite = make_suite(n=8)

    def run(executor=None):
        steps = [{"component": "toy-boot", "random_state": np.random.default_rng(5), "n_bootstrap": 32}]
        return pr.Pipeline(steps).run(suite, executor=executor)

    first = run()
    with cf.ProcessPoolExecutor(max_workers=2) as pool:
        assert _canonical(run(pool)) == _canonical(first)
    draws = [first.result("toy-boot", b).details["first_draw"] for b in suite.benchmarks]
    assert len(set(draws)) == len(draws)  # each benchmark got its own stream


@pytest.mark.slow
def test_dask_distributed_executor_gives_the_same_results(toy_registry):
    distributed = pytest.importorskip("distributed")
    suite = make_suite(n=10, bad=4)
    serial = _canonical(pr.Pipeline(STEPS).run(suite))
    env = {"PYTHONPATH": os.pathsep.join([str(HERE.parent), *sys.path])}  # tests/toys.py
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  env=env) as cluster, distributed.Client(cluster) as client:
        report = pr.Pipeline(STEPS).run(suite, executor=client.get_executor())
        assert _canonical(report) == serial
        workers = client.run(os.getpid)
        assert len(set(workers.values())) == 2 and os.getpid() not in workers.values()


# ------------------------------------------------------------------------ config and presets


def test_from_config_toml_json_and_mapping(toy_registry, tmp_path):
    toml = tmp_path / "check.toml"
    toml.write_text('''
[pipeline]
name = "nightly"
description = "toy check"
baseline = "old"
candidate = "new"

[[steps]]
component = "toy-ratio"
confidence = 0.9

[[steps]]
component = "toy-boot"
id = "boot"
[steps.params]
n_bootstrap = 40
random_state = 2
''')
    p = pr.Pipeline.from_config(toml)
    assert p.name == "nightly" and p.baseline == "old" and [s.id for s in p.steps] == ["toy-ratio", "boot"]
    assert p.steps[0].component.confidence == 0.9 and p.steps[1].component.n_bootstrap == 40
    js = tmp_path / "check.json"
    js.write_text(json.dumps(p.to_config()))
    assert pr.Pipeline.from_config(js).to_config() == p.to_config()
    report = pr.Pipeline.from_config(str(toml)).run(make_suite())
    assert report.pipeline == "nightly" and report.result("boot", "b1").estimate == pytest.approx(1.2)


def test_config_extends_a_preset(toy_registry):
    p = pr.Pipeline.from_config({"pipeline": {"preset": "toy-seeded"}, "steps": [{"component": "toy-mean"}]})
    assert p.name == "toy-seeded" and [s.id for s in p.steps] == ["toy-ratio", "toy-boot", "toy-mean"]
    assert pr.pipeline("toy-seeded").steps[1].component.random_state == 1
    with pytest.raises(pr.ConfigError, match=r"unknown pipeline preset 'ty' \(did you mean 'toy'"):
        pr.pipeline("ty")


@pytest.mark.parametrize("text, match", [
    ("[pipeline\nname = 1", "invalid TOML"),
    ("[pipeline]\nname = 'x'\n", "no steps"),
    ("[pipeline]\nnme = 'x'\n[[steps]]\ncomponent = 'toy-ratio'\n", r"unknown key\(s\) 'nme' in \[pipeline\] \(did you mean 'name'\?\)"),
    ("[pipelines]\n", r"unknown section\(s\) 'pipelines' \(did you mean 'pipeline'\?\); expected 'baseline', "),
    ("[[steps]]\ncomponent = 'toy-ratio'\nconfidence = 1.5\n", "check.toml: .*confidence must be a level"),
    ("[[steps]]\ncomponent = 'toy-rato'\n", "did you mean 'toy-ratio'"),
])
def test_bad_configs_name_the_file(toy_registry, tmp_path, text, match):
    path = tmp_path / "check.toml"
    path.write_text(text)
    with pytest.raises(pr.ConfigError, match=match) as err:
        pr.Pipeline.from_config(path)
    assert "check.toml" in str(err.value)


def test_bad_json_and_missing_file(toy_registry, tmp_path):
    path = tmp_path / "c.json"
    path.write_text('{"steps": [\n{"component": }]}')
    with pytest.raises(pr.ConfigError, match=r"c.json, line 2: invalid JSON"):
        pr.Pipeline.from_config(path)
    with pytest.raises(pr.ConfigError, match="cannot read config"):
        pr.Pipeline.from_config(tmp_path / "missing.toml")
    with pytest.raises(pr.ConfigError, match="a pipeline config is a table"):
        pr.Pipeline.from_config([1, 2])  # type: ignore[arg-type]


@pytest.mark.parametrize("config, match", [
    ({"pipeline": "x", "steps": [{"component": "toy-ratio"}]}, r"\[pipeline\] must be a table"),
    ({"input": [1], "steps": [{"component": "toy-ratio"}]}, r"\[input\] must be a table"),
    ({"steps": {"component": "toy-ratio"}}, r"\[steps\] must be an array of tables"),
    ({"steps": [3]}, "step 1 must be a table"),
])
def test_config_structure_errors(toy_registry, config, match):
    with pytest.raises(pr.ConfigError, match=match):
        pr.Pipeline.from_config(config)


def test_config_steps_as_names_and_input_options(toy_registry, tmp_path):
    p = pr.Pipeline.from_config({"steps": ["toy-ratio", "toy-mean"], "input": {"unit": "ms"}})
    assert [s.id for s in p.steps] == ["toy-ratio", "toy-mean"] and p.input_options == {"unit": "ms"}
    data = tmp_path / "old.txt"
    data.write_text("1.0\n1.1\n1.2\n")
    new = tmp_path / "new.txt"
    new.write_text("0.9\n1.0\n1.0\n")
    report = p.run(data, new)
    assert (report.baseline, report.candidate) == ("old.txt", "new.txt")
    assert report.inputs["benchmark"]["old.txt"]["unit"] == "ms"


def test_report_result_lookup_errors_say_why(toy_registry):
    report = pr.Pipeline(["toy-ratio", "toy-mean", "toy-suite"]).run(make_suite(bad=2))
    assert report.result("toy-suite").estimate == pytest.approx(4 / 6)
    assert report.result("toy-mean", "b1", "new").estimate == pytest.approx(np.mean(make_suite()["b1"]["new"].values))
    for args, match in ((("toy-boot",), "no step 'toy-boot'"), (("toy-mean",), "name the benchmark"),
                        (("toy-ratio", "zz"), "no benchmark 'zz'"),
                        (("toy-ratio", "b2"), "no result for benchmark 'b2': it failed: b2/old: a value is above 1000"),
                        (("toy-mean", "b1", "mid"), r"no result 'mid' \(keys: \['old', 'new'\]\)")):
        with pytest.raises(KeyError, match=match):
            report.result(*args)
    assert report.result("toy-ratio").title == "toy overall"  # a step's suite summary needs no benchmark
    # toy-ratio (b2 failed), toy-mean, toy-ratio's suite summary, toy-suite
    assert len(list(report.iter_results())) == 5 + 6 * 2 + 1 + 1
    assert str(report) == report.render("text")


def test_registered_presets_give_the_same_report_on_a_process_pool():
    """The real plugins are executor-safe: the default preset on 4 benchmarks of the bundled suite."""
    from perfrigor import examples

    full = pr.read(examples.path("suite") / "suite.csv")
    suite = pr.Suite({b: full[b] for b in full.benchmarks[:4]})
    pipeline = pr.pipeline("default")
    serial = _canonical(pipeline.run(suite))
    with cf.ProcessPoolExecutor(max_workers=2) as pool:
        assert _canonical(pipeline.run(suite, executor=pool)) == serial


def test_two_one_system_suites_are_paired_by_benchmark(toy_registry):
    a = pr.Suite({"x": {"v1": [1.0, 1.1]}, "y": {"v1": [2.0, 2.1]}}, source="a.csv")
    b = pr.Suite({"y": {"v2": [1.0, 1.1]}, "x": {"v2": [0.5, 0.55]}}, source="b.csv")
    report = pr.Pipeline(["toy-ratio"]).run(a, b)
    assert report.benchmarks == ["x", "y"] and report.result("toy-ratio", "x").estimate == pytest.approx(2.0)
    assert report.source == "a.csv, b.csv"
    partial = pr.Pipeline(["toy-ratio"]).run(pr.Suite({"z": {"v1": [1.0, 1.2]}, **a.data}), b)
    assert partial.benchmarks == ["x", "y"] and partial.only_in == {"baseline": ["z"]}
    assert partial.to_dict()["only_in"] == {"baseline": ["z"]}
    with pytest.raises(pr.DataError, match=r"no benchmark in common \(only in baseline: 'z'; only in candidate"):
        pr.Pipeline(["toy-ratio"]).run(pr.Suite({"z": {"v1": [1.0, 1.2]}}), b)
    with pytest.raises(pr.DataError, match="holds several systems"):
        pr.Pipeline(["toy-ratio"]).run(make_suite(), b)


def test_per_benchmark_settings_reach_the_component(toy_registry):
    base = make_suite(n=3)
    suite = pr.Suite(base.data, info={"b1": {"confidence": 0.8}})
    report = pr.Pipeline(["toy-ratio"]).run(suite)
    assert [report.result("toy-ratio", b).confidence for b in suite] == [0.95, 0.8, 0.95]


def test_progress_over_benchmarks_is_reported(toy_registry):
    from perfrigor import progress

    class Recorder:
        def __init__(self):
            self.events = []

        def start(self, total, description):
            self.events.append(("start", total, description))
            return lambda n=1: self.events.append(("advance", n))

        def finish(self):
            self.events.append(("finish",))

    rec = Recorder()
    previous = progress.set_reporter(rec)
    try:
        pr.Pipeline(["toy-ratio", "toy-mean", "toy-suite"]).run(make_suite(n=4))
        pr.Pipeline(["toy-ratio", "toy-mean", "toy-suite"]).run(make_suite(n=4), batch_size=3)
    finally:
        progress.set_reporter(previous)
    assert rec.events[0] == ("start", 4, "toy-ratio, toy-mean (4 benchmarks)")
    assert rec.events[1:3] == [("advance", 4), ("finish",)]  # one batch of 4 benchmarks
    assert rec.events[3:] == [rec.events[0], ("advance", 3), ("advance", 1), ("finish",)]


def test_pipeline_run_reads_in_a_screen():
    """The run engine lives in perfrigor.scheduler; Pipeline.run only checks the inputs and hands over."""
    import inspect

    lines = inspect.getsource(pr.Pipeline.run).splitlines()
    assert len(lines) <= 40, f"Pipeline.run has {len(lines)} lines: keep the engine in the scheduler"


def test_dask_client_keeps_short_logs():
    """The CLI's dask client keeps DASK_LOG_LENGTH messages in its log to the scheduler, not dask's 1,000
    (each a task with its benchmarks' samples and earlier results); dask's own setting is left as it was."""
    distributed = pytest.importorskip("distributed")
    import dask
    from perfrigor.executors import DASK_LOG_LENGTH, dask_client

    before = dask.config.get("distributed.admin.low-level-log-length")
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster:
        client = dask_client(cluster.scheduler_address, timeout="10s")
        try:
            assert client.scheduler_comm.recent_message_log.maxlen == DASK_LOG_LENGTH < before
        finally:
            client.close()
    assert dask.config.get("distributed.admin.low-level-log-length") == before
