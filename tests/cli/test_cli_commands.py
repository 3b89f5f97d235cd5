"""The command line, in-process (``main([...])``) with a toy plugin, and as the installed console script."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import types
from pathlib import Path

import perfrigor as pr
import pytest
from perfrigor import cli

HERE = Path(__file__).parent
FIX = HERE.parent / "io" / "fixtures"


@pytest.fixture
def files(tmp_path):
    old = tmp_path / "old.txt"
    new = tmp_path / "new.txt"
    slow = tmp_path / "slow.txt"
    old.write_text("\n".join(str(10 + 0.01 * i) for i in range(8)) + "\n")
    new.write_text("\n".join(str(8 + 0.01 * i) for i in range(8)) + "\n")
    slow.write_text("\n".join(str(13 + 0.01 * i) for i in range(8)) + "\n")
    bad = tmp_path / "bad.txt"
    bad.write_text("1.0\n2.0\nnot-a-number\n3.0\n")
    return {"old": str(old), "new": str(new), "slow": str(slow), "bad": str(bad), "dir": tmp_path}


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_usage_error(code, err, *needles):
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("perfrigor: error: "), err
    assert "Traceback" not in err
    for n in needles:
        assert n in err, (n, err)


# ---------------------------------------------------------------- list


def test_list_shows_components_presets_readers_renderers(toy, capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    for needle in ("toy-ratio", "comparator", "toy-suite", "comparator, suite", "Ratio of means",
                   "toy", "mean-ci -> toy-ratio -> toy-suite", "tidy-csv", "pyperf", "html"):
        assert needle in out, needle
    code, out, _ = run(capsys, "list", "--format", "json")
    doc = json.loads(out)
    assert {c["name"] for c in doc["components"]} == {"toy-ratio", "mean-ci", "toy-suite", "experiment-plan",
                                                  "toy-verdict", "toy-mean", "toy-boot", "toy-batch-mean",
                                                  "toy-levels", "toy-reader", "toy-crash"}
    assert doc["presets"][0]["name"] == "toy"


# ---------------------------------------------------------------- compare


def test_compare_text_and_json(toy, files, capsys):
    code, out, err = run(capsys, "compare", files["old"], files["new"], "--pipeline", "toy")
    assert code == 0 and "old.txt -> new.txt" in out and "toy speedup 1.249" in out
    code, out, _ = run(capsys, "compare", files["old"], files["new"], "-p", "toy", "--format", "json")
    doc = json.loads(out)
    assert doc["baseline"] == "old.txt" and doc["candidate"] == "new.txt"
    assert doc["benchmarks"]["benchmark"]["toy-ratio"]["old.txt -> new.txt"]["estimate"] == pytest.approx(10.035 / 8.035)


def test_compare_same_file_twice(toy, files, capsys):
    code, out, _ = run(capsys, "compare", files["old"], files["old"], "-p", "toy", "--format", "json")
    assert code == 0 and json.loads(out)["baseline"] == "baseline"


def test_compare_one_file_holding_both_systems(toy, tmp_path, capsys):
    """``perfrigor compare FILE``: a tidy file with two systems (what ``perfrigor measure`` writes) is
    compared as ``run`` would, the first system the baseline."""
    rows = [f"b,{sys},{v}" for i in range(8) for sys, v in (("old", 10 + 0.01 * i), ("new", 8 + 0.01 * i))]
    both = tmp_path / "runs.csv"
    both.write_text("benchmark,system,value\n" + "\n".join(rows) + "\n")
    code, out, _ = run(capsys, "compare", str(both), "-p", "toy", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and (doc["baseline"], doc["candidate"]) == ("old", "new")
    assert doc["benchmarks"]["b"]["toy-ratio"]["old -> new"]["estimate"] == pytest.approx(10.035 / 8.035)


def test_bad_input_exits_2_naming_the_line(toy, files, capsys):
    code, _, err = run(capsys, "compare", files["bad"], files["old"], "-p", "toy")
    assert_usage_error(code, err, "line 3", "bad.txt", "not-a-number")


@pytest.mark.parametrize("argv, needles", [
    (["compare", "{old}", "-p", "toy"], ["holds one system", "perfrigor compare BASELINE CANDIDATE"]),
    (["compare", "a", "b", "--confidence", "high"], ["invalid float value"]),
    (["frobnicate"], ["invalid choice"]),
    (["compare", "{old}", "{new}", "-p", "nope"], ["no pipeline preset 'nope'", "known: toy"]),
    (["compare", "{old}", "{new}", "-p", "toy", "--format", "htm"], ["unknown output format 'htm'"]),
    (["compare", "{old}", "{new}", "-p", "toy", "--param", "toy-ratio.colour=1"], ["unknown parameter", "colour"]),
    (["compare", "{old}", "{new}", "-p", "toy", "--param", "nostep.x=1"], ["no step 'nostep'"]),
    (["compare", "{old}", "{new}", "-p", "tyo"], ["no pipeline preset 'tyo'", "did you mean 'toy'?"]),
    (["compare", "{old}", "{new}", "-p", "toy", "--param", "toy-ratoi.tolerance=1"],
     ["no step 'toy-ratoi'", "did you mean 'toy-ratio'?"]),
    (["compare", "{old}", "{new}", "-p", "toy", "--param", "noequals"], ["expected KEY=VALUE"]),
    (["compare", "{old}", "{new}", "-p", "toy", "--confidence", "1.5"], ["confidence", "between 0 and 1"]),
    (["compare", "{old}", "{dir}/missing.txt", "-p", "toy"], ["missing.txt: no such file"]),
    (["compare", "{old}", "{new}", "-p", "toy", "-o", "{dir}/r.weird"], ["cannot tell the format"]),
    (["compare", "{old}", "{new}", "-p", "toy", "--jobs", "0"], ["--jobs must be at least 1"]),
    (["compare", "{old}", "{new}", "-p", "toy", "-o", "{dir}/no/such/dir/r.txt"], ["cannot write"]),
    (["compare", "{old}", "{new}", "-p", "toy", "-o", "{dir}/no/r.txt", "-f", "json"], ["-o", "no such directory"]),
    (["compare", "{old}", "{new}", "-p", "toy", "--jobs", "2", "--dask", "tcp://x:1"], ["--jobs or --dask"]),
    (["run", "{dir}/missing.toml", "{old}"], ["missing.toml", "cannot read config"]),
    (["toy-count"], ["the following arguments are required: DATA"]),
    (["compare", "{old}", "{new}", "-p", "toy", "--input", "value=x"], ["unknown option 'value' (it takes unit=, lower_is_better=)"]),
])
def test_usage_and_input_errors_exit_2(toy, files, capsys, argv, needles):
    argv = [a.format(**files) for a in argv]
    code, _, err = run(capsys, *argv)
    assert_usage_error(code, err, *needles)


def test_output_file_format_from_suffix(toy, files, capsys):
    target = files["dir"] / "report.html"
    code, out, err = run(capsys, "compare", files["old"], files["new"], "-p", "toy", "-o", str(target))
    assert code == 0 and out == "" and "wrote html report" in err
    assert target.read_text().startswith("<!DOCTYPE html>")
    md = files["dir"] / "r.txt"
    code, _, _ = run(capsys, "compare", files["old"], files["new"], "-p", "toy", "-o", str(md), "--format", "markdown")
    assert code == 0 and md.read_text().startswith("# perfrigor report")


def test_param_confidence_seed(toy, files, capsys):
    code, out, _ = run(capsys, "compare", files["old"], files["new"], "-p", "toy", "--format", "json",
                       "--param", "toy-ratio.tolerance=0.5", "--confidence", "0.9", "--seed", "7")
    assert code == 0
    steps = {s["id"]: s["params"] for s in json.loads(out)["steps"]}
    assert steps["toy-ratio"] == {"confidence": 0.9, "tolerance": 0.5, "random_state": 7}
    assert steps["mean-ci"] == {"confidence": 0.9}


def test_fail_on_regression(toy, files, capsys):
    code, _, err = run(capsys, "compare", files["old"], files["slow"], "-p", "toy", "--fail-on-regression")
    assert code == 1 and "perfrigor: regression: benchmark: toy-ratio" in err
    code, _, err = run(capsys, "compare", files["old"], files["new"], "-p", "toy", "--fail-on-regression")
    assert code == 0 and "regression" not in err
    # without the flag a slowdown is reported, not failed
    code, _, _ = run(capsys, "compare", files["old"], files["slow"], "-p", "toy")
    assert code == 0


def test_regression_rule():
    def report_with(**fields):
        res = pr.Comparison(**{"estimate": 0.9, "ci_low": None, "ci_high": None, "confidence": 0.95,
                               "pvalue": None, "significant": None, "verdict": "v", "details": {}, **fields})
        from perfrigor.report import Report, StepInfo

        return Report(pipeline="p", steps=[StepInfo("s", "unregistered", "comparator", "benchmark", {})],
                      baseline="a", candidate="b", inputs={}, benchmark_results={"x": {"s": {pr.PairKey("a", "b"): res}}},
                      suite_results={})

    assert cli.regressions(report_with(significant=True)) == ["x: s: v"]
    assert cli.regressions(report_with(significant=False)) == []
    assert cli.regressions(report_with(significant=None, ci_low=0.8, ci_high=0.95))  # CI below 1
    assert not cli.regressions(report_with(significant=None, ci_low=0.8, ci_high=1.05))
    assert not cli.regressions(report_with(estimate=1.2, significant=True))


def test_jobs_give_the_same_report(toy, capsys):
    base = ["run", "--pipeline", "toy", str(FIX / "tidy.csv"), "--format", "json"]
    code, serial, _ = run(capsys, *base)
    code2, parallel, _ = run(capsys, *base, "--jobs", "2")
    assert code == code2 == 0 and json.loads(serial) == json.loads(parallel)


@pytest.mark.slow
def test_dask_executor(toy, capsys):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=":0") as cluster:
        code, out, err = run(capsys, "run", "-p", "toy", str(FIX / "tidy.csv"), "--format", "json",
                             "--dask", cluster.scheduler_address)
    assert code == 0, err
    assert json.loads(out)["benchmarks"]["fib"]["toy-ratio"]["old -> new"]["significant"] is True


# ---------------------------------------------------------------- run


def test_run_config_and_data(toy, files, capsys):
    cfg = files["dir"] / "check.toml"
    cfg.write_text('[pipeline]\nname = "mine"\nbaseline = "new"\ncandidate = "old"\n\n'
                   '[input]\nvalue = "time_ms"\n\n[[steps]]\ncomponent = "toy-ratio"\ntolerance = 0.01\n')
    code, out, err = run(capsys, "run", str(cfg), str(FIX / "tidy.csv"), "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["pipeline"] == "mine" and doc["baseline"] == "new"
    assert doc["benchmarks"]["fib"]["toy-ratio"]["new -> old"]["estimate"] < 1
    code, out, err = run(capsys, "run", "--config", str(cfg), str(FIX / "tidy.csv"), "--fail-on-regression")
    assert code == 1 and "regression" in err


def test_run_preset_on_several_files(toy, files, capsys):
    code, out, _ = run(capsys, "run", "-p", "toy", files["old"], files["new"], files["slow"], "--format", "json")
    assert code == 0
    assert json.loads(out)["inputs"]["benchmark"].keys() == {"old.txt", "new.txt", "slow.txt"}


def test_run_joins_one_system_suites_by_benchmark(toy, tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text('{"x": [1, 1.1, 1.2], "y": [2, 2.1, 2.2]}')
    b.write_text('{"x": [0.5, 0.6, 0.55], "y": [2, 2.1, 2.2]}')
    code, out, _ = run(capsys, "compare", str(a), str(b), "-p", "toy", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["baseline"] == "a.json" and set(doc["benchmarks"]) == {"x", "y"}
    c = tmp_path / "c.json"  # different benchmark sets: the common ones are compared, the others listed
    c.write_text('{"x": [1, 2], "z": [1, 2]}')
    code, out, _ = run(capsys, "compare", str(a), str(c), "-p", "toy", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and set(doc["benchmarks"]) == {"x"} and doc["only_in"] == {"a.json": ["y"], "c.json": ["z"]}
    c.write_text('{"x": [1, 2]}')  # one benchmark of one system: a Sample that knows its benchmark
    code, out, _ = run(capsys, "compare", str(a), str(c), "-p", "toy", "--format", "json")
    assert code == 0 and json.loads(out)["only_in"] == {"a.json": ["y"]}
    c.write_text('{"w": [1, 2], "z": [1, 2]}')
    code, _, err = run(capsys, "compare", str(a), str(c), "-p", "toy")
    assert_usage_error(code, err, "no benchmark in common", "only in a.json: 'x', 'y'", "only in c.json: 'w', 'z'")
    c.write_text('[1, 2]')  # a Sample without a benchmark name cannot be paired with a suite
    code, _, err = run(capsys, "compare", str(a), str(c), "-p", "toy")
    assert_usage_error(code, err, "do not hold the same benchmarks", "one unnamed benchmark")
    code, _, err = run(capsys, "compare", str(FIX / "tidy.csv"), str(a), "-p", "toy")
    assert_usage_error(code, err, "holds several systems")


def test_run_weight_and_precision_shorthands(toy, capsys):
    code, out, err = run(capsys, "run", "-p", "toy", str(FIX / "tidy.csv"), "--weight", "custom",
                         "--precision", "0.1", "--format", "json")
    assert code == 0, err
    steps = {s["id"]: s["params"] for s in json.loads(out)["steps"]}
    assert steps["toy-suite"] == {"weight": "custom", "precision": 0.1}
    code, _, err = run(capsys, "run", "-p", "toy", str(FIX / "tidy.csv"), "--precision", "2")
    assert_usage_error(code, err, "precision must lie in")


def test_run_usage(toy, files, capsys):
    code, _, err = run(capsys, "run")
    assert_usage_error(code, err, "give a pipeline config")
    code, _, err = run(capsys, "run", files["old"])
    assert_usage_error(code, err, "is not a pipeline config")
    code, _, err = run(capsys, "run", "-p", "toy")
    assert_usage_error(code, err, "no data files")
    cfg = files["dir"] / "noweight.toml"
    cfg.write_text('[[steps]]\ncomponent = "toy-ratio"\n')
    code, _, err = run(capsys, "run", str(cfg), files["old"], files["new"], "--weight", "equal")
    assert_usage_error(code, err, "--weight: no step of pipeline 'custom' has a parameter 'weight'")
    bad = files["dir"] / "bad.toml"
    bad.write_text("[[steps]\ncomponent = 1\n")
    code, _, err = run(capsys, "run", str(bad), files["old"])
    assert_usage_error(code, err, "bad.toml", "invalid TOML")


def test_toml_values():
    assert cli.toml_value("0.5") == 0.5 and cli.toml_value("true") is True
    assert cli.toml_value("[1, 2]") == [1, 2] and cli.toml_value("median") == "median"
    assert cli.toml_value('"a b"') == "a b"


# ---------------------------------------------------------------- describe, plan, demo


def test_describe_with_plot(toy, tmp_path, capsys):
    plot = tmp_path / "d.png"
    code, out, err = run(capsys, "describe", str(FIX / "tidy.csv"), "--plot", str(plot))
    assert code == 0, err
    assert "mean-ci" in out and "fib" in out
    drawn = sorted(p.name for p in tmp_path.iterdir())
    assert "d-fib-old.png" in drawn and len(drawn) == 4
    assert all((tmp_path / name).read_bytes()[:4] == b"\x89PNG" for name in drawn)
    one = tmp_path / "one.svg"
    code, _, _ = run(capsys, "describe", str(FIX / "values.txt"), "--plot", str(one))
    assert code == 0 and "<svg" in one.read_text()
    code, out, err = run(capsys, "describe", str(FIX / "values.txt"), "--plot", str(tmp_path / "p.txt"))
    assert out == ""
    assert_usage_error(code, err, "--plot", ".png, .svg or .pdf")
    # a missing folder is said before the work, not after a full report on stdout
    code, out, err = run(capsys, "describe", str(FIX / "values.txt"), "--plot", str(tmp_path / "no" / "p.png"))
    assert out == ""
    assert_usage_error(code, err, "--plot", "no such directory")


def test_describe_without_components(toy, capsys, files):
    with pr.registry.temporary(allow=["core"]):
        code, _, err = run(capsys, "describe", files["old"])
    assert_usage_error(code, err, "no registered component describes these data")


def test_a_plugin_adds_a_command(toy, capsys, files):
    """A third-party plugin's command (hook perfrigor_commands): in --help, parsed, run, errors as usual."""
    assert "toy-count" in cli.build_parser().format_help()
    code, out, _ = run(capsys, "toy-count", files["old"], "--times", "2")
    assert code == 0 and out == "8 values\n8 values\n"
    code, out, _ = run(capsys, "toy-count", str(FIX / "tidy.csv"), "--input-format", "tidy-csv")
    assert code == 0 and out.endswith(" values\n")
    code, _, err = run(capsys, "toy-count", files["bad"])
    assert_usage_error(code, err, "bad.txt", "line 3")
    code, _, err = run(capsys, "toy-count", files["old"], "--times", "x")
    assert_usage_error(code, err, "--times", "invalid int value")
    code, _, err = run(capsys, "plan", files["old"], "--costs", "1")  # plan is the random-effects plugin's
    assert_usage_error(code, err, "invalid choice: 'plan'")


def test_a_plugin_command_cannot_take_a_builtin_name(toy, capsys, files):
    clash = types.ModuleType("clash_plugin")
    clash.perfrigor_commands = pr.hookimpl(
        lambda: [pr.Command(name="list", help="mine", run=lambda args, context: 0)])
    with pr.registry.temporary(allow=["core"], extra_plugins=[clash]):
        code, _, err = run(capsys, "list")
    assert_usage_error(code, err, "clash_plugin", "command 'list' is a built-in command")
    bad = types.ModuleType("bad_plugin")
    bad.perfrigor_commands = pr.hookimpl(lambda: ["plan"])
    with pytest.raises(pr.ConfigError, match="bad_plugin: perfrigor_commands\\(\\) returned 'plan', not a perfrigor.Command"):
        pr.registry.reload(allow=["core"], extra_plugins=[bad])
    assert "toy-count" in pr.get_registry().commands  # a failed reload leaves the registry as it was


def test_demo_needs_the_default_preset(toy, capsys):
    code, _, err = run(capsys, "demo")
    assert code == 2 and "'default' preset is not registered" in err
    code, out, err = run(capsys, "demo", "--pipeline", "toy")
    assert code == 0, err
    assert "baseline.txt -> candidate.txt" in out


def test_progress_bar_draws_after_delay():
    stream = io.StringIO()
    bar = pr.progress.StderrBar(stream=stream, delay=0.0)
    previous = pr.progress.set_reporter(bar)
    try:
        with pr.progress.task(10, "bootstrap") as advance:
            advance(5)
    finally:
        pr.progress.set_reporter(previous)
    assert "bootstrap [" in stream.getvalue() and "50%" in stream.getvalue()
    quiet = io.StringIO()
    slow = pr.progress.StderrBar(stream=quiet, delay=60.0)
    adv = slow.start(3, "x")
    adv(3)
    slow.finish()
    assert quiet.getvalue() == ""


# ---------------------------------------------------------------- the installed console script


def _exe() -> str:
    exe = Path(sys.executable).parent / "perfrigor"
    found = str(exe) if exe.exists() else shutil.which("perfrigor")
    if not found:
        pytest.skip("the perfrigor console script is not installed")
    return found


def script(*args):
    # with the tests' allow-list (tests/conftest.py): a third-party plugin installed alongside changes nothing
    return subprocess.run([_exe(), *args], capture_output=True, text=True, timeout=120, env=dict(os.environ))


def test_script_version_list_and_bad_input(files):
    r = script("--version")
    assert r.returncode == 0 and r.stdout.startswith("perfrigor ")
    r = script("list")
    assert r.returncode == 0 and "Input formats" in r.stdout
    r = script("compare", files["bad"], files["old"])
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines() == [r.stderr.strip()] and "line 3" in r.stderr
    r = script("compare", "--nope")
    assert r.returncode == 2 and "Traceback" not in r.stderr and r.stderr.startswith("perfrigor: error:")

