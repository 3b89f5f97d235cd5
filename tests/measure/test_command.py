"""``perfrigor measure``: the measure plugin's command, on real (short) processes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import perfrigor as pr
import pytest
from perfrigor import cli

PY = sys.executable
QUICK = f'{PY} -c "pass"'
#: prints three in-process times (the documented line format) of a short sleep
TIMES = (f"{PY} -c \"import time\nfor _ in range(3):\n t = time.perf_counter(); time.sleep({{}})\n "
         "print('perfrigor-time:', (time.perf_counter() - t) * 1e3, 'ms')\"")


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_measure_comes_from_the_measure_plugin():
    assert pr.get_registry().commands["measure"].plugin.startswith("measure")
    assert pr.components()["sequential-verdict"] == "comparator"


def test_a_fixed_design_writes_the_runs_and_the_report(capsys, tmp_path):
    out = tmp_path / "runs.csv"
    code, stdout, err = run(capsys, "measure", QUICK, f'{PY} -c "x = 1"', "--runs", "3", "--seed", "4",
                            "-o", str(out), "--format", "json", "--name", "old", "--name", "new")
    assert code == 0, err
    assert "perfrigor measure: 3 interleaved round(s) of 2 commands" in err and "(seed 4); stopped: the 3 rounds" in err
    report = json.loads(stdout)
    assert report["baseline"] == "old" and report["candidate"] == "new" and report["source"] == str(out)
    suite = pr.read(out)
    assert suite.benchmarks == ["runs"] and [s.values.size for s in suite.data["runs"].values()] == [3, 3]


def test_until_clear_on_in_process_times_stops_with_the_verdict(capsys, tmp_path):
    out = tmp_path / "runs.csv"
    code, stdout, err = run(capsys, "measure", TIMES.format(0.01), TIMES.format(0.02), "--iterations", "3",
                            "--until", "clear", "--max-runs", "30", "-o", str(out), "--format", "json")
    assert code == 0, err
    v = json.loads(stdout)["verdicts"]["runs"]
    assert v["outcome"] == "slower" and v["method"] == "sequential-verdict" and "stopped when decided" in v["reasons"][0]
    sample = pr.read(out).data["runs"][TIMES.format(0.02)]
    assert sample.levels == ("invocation", "iteration") and sample.shape[1] == 3
    assert pr.pipeline("default").run(out).verdicts["runs"].outcome == "slower"


def test_fail_on_regression_reads_the_sequential_verdict(capsys):
    code, _, err = run(capsys, "measure", TIMES.format(0.01), TIMES.format(0.02), "--iterations", "3",
                       "--until", "clear", "--max-runs", "30", "--fail-on-regression")
    assert code == 1 and "perfrigor: regression: measure: slower" in err
    code, _, err = run(capsys, "measure", TIMES.format(0.01), TIMES.format(0.02), "--iterations", "3",
                       "--until", "clear", "--max-runs", "30", "--fail-on-regression=warn")
    assert code == 0 and "regression(s) would have failed this run" in err


def test_github_writes_the_summary_and_annotations(capsys, tmp_path, monkeypatch):
    summary, outputs = tmp_path / "summary.md", tmp_path / "outputs"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    monkeypatch.setenv("GITHUB_OUTPUT", str(outputs))
    code, out, err = run(capsys, "measure", TIMES.format(0.01), TIMES.format(0.02), "--iterations", "3",
                         "--until", "clear", "--max-runs", "30", "--github")
    assert code == 0, err
    assert "::error" in out and "sequential-verdict" in summary.read_text() and "regressions=1" in outputs.read_text()


def test_a_config_describes_the_commands_the_rule_and_the_analysis(capsys, tmp_path):
    config = tmp_path / "measure.toml"
    config.write_text(f"""
[measure]
runs = 3
seed = 2
benchmark = "noop"
[[measure.commands]]
name = "old"
command = '{QUICK}'
[[measure.commands]]
name = "new"
command = '{QUICK}'
prepare = "true"

[pipeline]
preset = "speedup-test"
""")
    code, stdout, err = run(capsys, "measure", "--config", str(config), "--format", "json")
    assert code == 0, err
    report = json.loads(stdout)
    assert report["pipeline"] == "speedup-test" and list(report["verdicts"]) == ["noop"]


@pytest.mark.parametrize("argv, needle", [
    ([QUICK], "at least two commands"),
    ([QUICK, QUICK], "two commands are named"),
    ([QUICK, "true", "--name", "a"], "--name given 1 time(s) for 2 commands"),
    ([QUICK, "true", "--min-runs", "9", "--max-runs", "3", "--until", "clear"], "min-runs 9 is more than"),
    ([QUICK, "true", "--format", "nope"], "nope"),
    ([QUICK, "true", "--candidate", "zzz"], "--candidate 'zzz'"),
    ([QUICK, "true", "--pipeline", "no-such-preset"], "no-such-preset"),
    (["python -c 'oops", "true"], "No closing quotation"),
    ([QUICK, "true", "--until", "clear", "--runs", "5"], "runs fixes the number of rounds"),
    ([QUICK, "true", "--min-runs", "5"], "min_runs bounds the rule of until = clear"),
    ([QUICK, "/no/such/program"], "cannot run '/no/such/program'"),
    ([QUICK, "false", "--runs", "2"], "command 'false' exited with code 1 in round 1"),
])
def test_usage_errors_are_one_line_and_exit_2(capsys, argv, needle):
    code, _, err = run(capsys, "measure", *argv)
    errors = [ln for ln in err.splitlines() if not ln.startswith("perfrigor: note: ")]  # the machine's load
    assert code == 2 and len(errors) == 1 and errors[0].startswith("perfrigor: error: ") and needle in err, err


def test_an_existing_runs_file_is_kept(capsys, tmp_path):
    out = tmp_path / "runs.csv"
    out.write_text("precious")
    code, _, err = run(capsys, "measure", QUICK, "true", "-o", str(out))
    assert code == 2 and "--force" in err and out.read_text() == "precious"


def test_ignore_failure_keeps_measuring(capsys, tmp_path):
    out = tmp_path / "runs.csv"
    code, _, err = run(capsys, "measure", "true", "false", "--runs", "3", "-i", "-o", str(out))
    assert code == 0, err
    rows = [ln for ln in out.read_text().splitlines() if ln.startswith("runs,false,")]
    assert len(rows) == 3 and all(ln.endswith(",1") for ln in rows)


def test_ctrl_c_leaves_a_readable_file_and_a_report(tmp_path):
    out = tmp_path / "runs.csv"
    slow = f'{PY} -c "import time; time.sleep(0.05)"'
    # SIGINT at its default, as for a command in a terminal: a suite run in the background of a
    # non-interactive shell (pytest &) would hand it down ignored, and Python keeps it ignored
    proc = subprocess.Popen([PY, "-m", "perfrigor", "measure", slow, QUICK, "--runs", "500", "-o", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    rows = 0
    while time.monotonic() < deadline and proc.poll() is None:  # wait for a few rounds on disk
        rows = sum(1 for line in out.read_text().splitlines() if not line.startswith("#")) - 1 if out.exists() else 0
        if rows >= 7:
            break
        time.sleep(0.05)
    if proc.poll() is not None:
        pytest.fail(f"the measurement ended (exit {proc.returncode}) before it was interrupted: {proc.stderr.read()}")
    assert rows >= 7, f"only {rows} run(s) on disk after 120 s: nothing to interrupt yet"
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "stopped: interrupted" in stderr and "Verdicts" in stdout
    suite = pr.read(out)  # complete rows only
    sizes = [s.values.size for s in suite.data["runs"].values()]
    assert min(sizes) >= 3 and max(sizes) - min(sizes) <= 1


@pytest.mark.slow
def test_acceptance_two_real_commands_ten_percent_apart(capsys, tmp_path):
    """The issue's acceptance: two python -c commands ~10% apart stop with the right verdict, and
    perfrigor on the runs file agrees. CPU time: the shared test machine's load disturbs wall time.

    ``perfrigor compare`` on the file gives exactly the fixed-n verdict the report cites (the file is the
    measurement). It compares the runs unpaired: when a loaded machine makes them serially dependent
    it may say "unclear" (docs/methods/measure.md, drift table) — never the opposite answer.
    """
    out = tmp_path / "runs.csv"
    old, new = f'{PY} -c "sum(range(4_000_000))"', f'{PY} -c "sum(range(3_400_000))"'
    code, stdout, err = run(capsys, "measure", old, new, "--until", "clear", "--timer", "cpu", "--min-runs", "20",
                            "--max-runs", "60", "-o", str(out), "--format", "json")
    assert code == 0, err
    v = json.loads(stdout)["verdicts"]["runs"]
    assert v["outcome"] == "faster" and "stopped when decided" in v["reasons"][0], v
    code, again, err = run(capsys, "compare", str(out), "--format", "json")
    fixed = json.loads(again)["verdicts"]["runs"]
    cited = v["details"]["fixed_verdict"]
    assert code == 0 and (fixed["outcome"], fixed["speedup"]) == (cited["outcome"], cited["speedup"])
    # a loaded machine's runs drift or depend on each other: the fixed-n verdict then widens its
    # interval (details' widening) or flags it, and may say unclear; on clean runs it must say faster
    disturbed = fixed["details"].get("flags") or fixed["details"].get("widening", {}).get("tau", 1) > 1
    if not disturbed:
        assert fixed["outcome"] == "faster", (fixed, v)
    assert fixed["outcome"] in ("faster", "unclear"), (fixed, v)


def test_the_live_line_is_drawn_on_a_terminal_only(capsys):
    import io

    stream = io.StringIO()
    bar = pr.progress.StderrBar(stream=stream, delay=0.0, tick=0)
    previous = pr.progress.set_reporter(bar)
    try:
        with pr.progress.status("perfrigor measure") as show:
            show("round 3/200 · ≤ 1 min left · speedup 1.050 (1.010 to 1.090)")
    finally:
        pr.progress.set_reporter(previous)
    text = stream.getvalue()
    assert "perfrigor measure" in text and "round 3/200" in text and text.endswith("\r")
    with pr.progress.status("quiet") as show:  # no reporter (not a terminal): nothing at all
        show("round 1")
    assert capsys.readouterr() == ("", "")


def test_the_environment_heads_the_file(capsys, tmp_path):
    out = tmp_path / "runs.csv"
    code, _, _ = run(capsys, "measure", QUICK, "true", "--runs", "1", "-o", str(out))
    head = [ln for ln in out.read_text().splitlines() if ln.startswith("#")]
    keys = {ln[2:].split(":")[0] for ln in head}
    assert {"cpu", "cpus", "load_average", "system", "python", "perfrigor", "rule"} <= keys
    assert os.path.getsize(out) > 0 and Path(out).read_text().count("\n") == len(head) + 1 + 2


def test_the_command_draws_rounds_and_the_interval_on_the_status_line():
    import io

    from perfrigor_plugins.measure.command import MEASURE

    args = cli.build_parser().parse_args(["measure", TIMES.format(0.001), TIMES.format(0.002), "--iterations", "3",
                                          "--until", "clear", "--max-runs", "8", "--min-runs", "8"])
    stream = io.StringIO()
    previous = pr.progress.set_reporter(pr.progress.StderrBar(stream=stream, delay=0.0, tick=0))
    try:
        MEASURE.run(args, pr.CommandContext(stdout=io.StringIO()))
    finally:
        pr.progress.set_reporter(previous)
    drawn = stream.getvalue()
    assert "perfrigor measure" in drawn and "round 1/8" in drawn and "round 8/8" in drawn
    assert "speedup " in drawn and " to " in drawn  # the first candidate's speedup, and its interval once it has one


def test_an_interrupt_before_two_rounds_says_so_and_exits_130(capsys, monkeypatch):
    from perfrigor_plugins.measure import SessionNoise, SimulatedExecutor, runner

    class Interrupting(SimulatedExecutor):
        def run(self, command, iterations):
            if self.runs == 3:
                raise KeyboardInterrupt
            return super().run(command, iterations)

    real = runner.measure
    monkeypatch.setattr(runner, "measure", lambda plan, **kw: real(
        plan, Interrupting(SessionNoise(), dict.fromkeys(plan.names, 1.0), random_state=0), **kw))
    code, out, err = run(capsys, "measure", "a", "b", "--seed", "1")
    assert code == 130 and out == "" and "interrupted too early to report" in err
