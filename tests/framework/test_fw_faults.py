"""Faults and safety (issue 18, and the feasibility part of issue 14): each reproducer is a test.

No hang on overflowing data, no NaN or infinite parameter taken at face value, no
parameter that cannot fit in memory, no lost or half-written report, no report written
onto an input, no hang or "a bug" when a worker dies, progress and warnings for long
work, and no terminal escape sequence from a benchmark name.
"""

from __future__ import annotations

import concurrent.futures as cf
import io
import os
import signal
import sys
import threading
import time
from contextlib import contextmanager

import faulty
import numpy as np
import perfrigor as pr
import pytest
from perfrigor import cli, progress
from perfrigor.executors import Watched
from perfrigor.output import write_atomically
from perfrigor.params import float_param
from perfrigor.textsafe import terminal_safe
from perfrigor_plugins.gmm import em


@contextmanager
def deadline(seconds: int):
    """Fail (instead of hanging the suite) when the block runs past ``seconds``."""
    def expire(signum, frame):
        raise TimeoutError(f"still running after {seconds} s: a hang")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(code, err, *needles):
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("perfrigor: error: "), err
    assert "internal error" not in err and "Traceback" not in err
    for needle in needles:
        assert needle in err, (needle, err)


@pytest.fixture
def files(tmp_path):
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_text("\n".join(str(10 + 0.1 * (i % 7)) for i in range(20)) + "\n")
    new.write_text("\n".join(str(9 + 0.1 * (i % 7)) for i in range(20)) + "\n")
    return tmp_path, old, new


# ---------------------------------------------------------------- parameters


@pytest.mark.parametrize(("param", "needle"), [
    ("hpt.speedup=nan", "hpt: speedup must be a finite number, got nan"),
    ("prob-faster.margin=nan", "prob-faster: margin must be a finite number, got nan"),
    ("hpt.max_speedup=inf", "hpt: max_speedup must be a finite number, got inf"),
    ("hpt.max_speedup=1e12", "max_speedup must lie in [1.0, 10000.0]"),
])
def test_nan_and_infinite_parameters_are_refused(files, capsys, param, needle):
    _, old, new = files
    one_error_line(*run(capsys, "compare", old, new, "--param", param)[::2], needle)


@pytest.mark.parametrize("level", ["0.9999999999999999", "1e-16"])
def test_a_confidence_the_quantiles_cannot_express_is_refused(files, capsys, level):
    _, old, new = files
    code, _, err = run(capsys, "compare", old, new, "--param", f"verdict.confidence={level}")
    one_error_line(code, err, "verdict: confidence", "to compute with; give a level in [1e-06, 0.999999999]")
    assert pr.get("verdict", confidence=0.999999999).confidence == 0.999999999


def test_functions_given_a_confidence_next_to_one_do_not_overflow():
    from perfrigor_plugins.verdict.reasons import pct

    shift = pr.stats.hodges_lehmann(np.arange(40.0), np.arange(40.0) + 3, confidence=0.9999999999999999)
    assert shift.ci_low is None and shift.ci_high is None
    assert pct(0.0) == "any factor slower" and pct(0.5) == "2x slower"


def test_infinity_is_accepted_where_a_parameter_allows_it():
    import attrs

    @attrs.define
    class Limit(pr.Estimator):
        name = "limit"
        cap: float = float_param(10.0, minimum=0.0, allow_inf=True)

    assert Limit(cap=float("inf")).cap == float("inf")
    with pytest.raises(ValueError, match="finite"):
        Limit(cap=float("nan"))


def test_a_bad_parameter_names_the_step_by_its_id(files, capsys):
    tmp, old, new = files
    config = tmp / "c.toml"
    config.write_text('[[steps]]\ncomponent = "prob-faster"\nid = "chance"\nmargin = nan\n')
    one_error_line(*run(capsys, "run", config, old, new)[::2], "step 'chance': prob-faster: margin")
    one_error_line(*run(capsys, "run", "--pipeline", "default", old, new, "--param", "verdict.threshold=nan")[::2],
                   "threshold")


def test_a_count_beyond_the_machines_memory_is_refused_when_built(files, capsys):
    _, old, new = files
    code, _, err = run(capsys, "compare", old, new, "--param", "bootstrap-ratio.n_bootstrap=1000000000000")
    one_error_line(code, err, "n_bootstrap = 1000000000000 needs about", "available now", "fit)")
    with pytest.raises(pr.ConfigError, match="n_bootstrap = 1000000000000 needs about"):
        pr.get("mean-ci", method="bootstrap", n_bootstrap=10**12)
    with pytest.raises(pr.ConfigError, match="n_bootstrap"):
        pr.resampling.bootstrap_means(np.arange(5.0), n_bootstrap=10**13)


# ---------------------------------------------------------------- iterative algorithms, overflow


def test_overflowing_values_are_refused_before_any_work(files, capsys):
    tmp, old, _ = files
    big = tmp / "big.txt"
    big.write_text("1e308\n1e308\n1\n2\n")
    with deadline(60):
        for argv in (["compare", big, old], ["describe", big], ["compare", big, old, "-p", "gmm"]):
            one_error_line(*run(capsys, *argv)[::2], "big.txt, line 1: value 1e+308 is too large")


def test_mixture_em_stops_on_overflowing_data():
    with deadline(30):
        search = em.bic_search(np.array([[1e308, 1e308, 1.0, 2.0]]))
    assert search.n_components.shape == (1,)
    with pytest.raises(pr.DataError, match="too large for a mixture fit"):
        pr.get("gmm").estimate([1e308, 1e308, 1.0, 2.0, 3.0])


def test_mixture_em_has_an_iteration_cap(monkeypatch):
    rng = np.random.default_rng(1)
    x = np.sort(np.concatenate([rng.normal(0, 1, 40), rng.normal(3, 1, 40)]))[None]
    xs = (x - x.mean()) / x.std()
    free = em.fit_batch(xs, 2, np.array([False]), np.zeros(1))
    assert free.ok[0] and free.iterations[0] > 3
    monkeypatch.setattr(em, "MAX_ITERATIONS", 3)
    capped = em.fit_batch(xs, 2, np.array([False]), np.zeros(1))
    assert not capped.ok[0] and capped.iterations[0] == 3


def test_fieller_says_data_error_on_overflowing_moments():
    with pytest.raises(pr.DataError, match="overflow floating point"):
        pr.get("fieller").compare([1e308, 1e308, 1.0, 2.0], [1.0, 2.0, 3.0])


# ---------------------------------------------------------------- -o


def test_output_onto_an_input_through_a_symlink_is_refused(files, capsys):
    tmp, old, new = files
    link = tmp / "report.txt"
    link.symlink_to(old)
    before = old.read_text()
    one_error_line(*run(capsys, "compare", old, new, "-o", link)[::2], "is the input file")
    assert old.read_text() == before
    one_error_line(*run(capsys, "compare", old, new, "-o", new)[::2], "is the input file")


def test_bad_output_target_fails_before_the_analysis(files, capsys, monkeypatch):
    tmp, old, new = files
    ran = []
    monkeypatch.setattr(pr.Pipeline, "run", lambda *a, **k: ran.append(1))
    one_error_line(*run(capsys, "compare", old, new, "-o", tmp)[::2], "is a directory")
    one_error_line(*run(capsys, "compare", old, new, "-o", tmp / "missing" / "r.txt")[::2], "no such directory")
    assert not ran


def test_output_is_written_atomically(tmp_path, monkeypatch):
    target = tmp_path / "report.md"
    target.write_text("the good old report\n")
    target.chmod(0o640)

    def broken(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(OSError, match="No space"):
        write_atomically(target, "a new report that never lands\n")
    assert target.read_text() == "the good old report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.md"]  # no temporary file left
    monkeypatch.undo()
    write_atomically(target, "new\n")
    assert target.read_text() == "new\n" and (target.stat().st_mode & 0o777) == 0o640
    fresh = tmp_path / "fresh.txt"
    old_mask = os.umask(0o027)
    try:
        write_atomically(fresh, "x\n")
    finally:
        os.umask(old_mask)
    assert (fresh.stat().st_mode & 0o777) == 0o640  # a new file: what the umask gives, not mkstemp's 0600


def test_plots_are_written_atomically_and_never_onto_the_input(tmp_path, capsys, monkeypatch):
    pytest.importorskip("matplotlib")
    data = tmp_path / "times.txt"
    data.write_text("".join(f"{10 + 0.1 * (k % 7)}\n" for k in range(30)))
    picture = tmp_path / "times.png"
    picture.write_bytes(b"the good old picture")
    monkeypatch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(28, "No space left on device")))
    code, _, err = run(capsys, "describe", data, "--plot", picture)
    assert code == 2 and "No space" in err
    assert picture.read_bytes() == b"the good old picture"  # not a truncated PNG
    monkeypatch.undo()
    assert run(capsys, "describe", data, "--plot", picture)[0] == 0 and picture.read_bytes()[:4] == b"\x89PNG"
    same = tmp_path / "same.png"
    same.write_text(data.read_text())
    code, _, err = run(capsys, "describe", same, "--plot", same)
    one_error_line(code, err, "is the input file")


def test_demo_output_never_replaces_a_bundled_example(capsys):
    from perfrigor import examples

    bundled = examples.path("two-versions") / "baseline.txt"
    before = bundled.read_bytes()
    code, _, err = run(capsys, "demo", "-o", bundled)
    assert code == 2 and "is the input file" in err, err
    assert bundled.read_bytes() == before


def test_cli_output_replaces_a_report_and_reports_a_write_failure(files, capsys, monkeypatch):
    tmp, old, new = files
    out = tmp / "r.txt"
    out.write_text("old report\n")
    code, _, err = run(capsys, "compare", old, new, "-p", "speedup-test", "-o", out)
    assert code == 0 and "wrote text report" in err and "speedup" in out.read_text()
    good = out.read_text()

    def fail(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    one_error_line(*run(capsys, "compare", old, new, "-p", "speedup-test", "-o", out)[::2], "No space left")
    assert out.read_text() == good


# ---------------------------------------------------------------- executors


def suite(n=4):
    return pr.Suite({f"b{i}": {"old": np.arange(1.0, 6.0), "new": np.arange(1.0, 6.0) * 0.9} for i in range(n)})


def test_a_dead_process_pool_worker_is_an_execution_error():
    pipeline = pr.Pipeline([faulty.DiesInWorker(parent=os.getpid())])
    with deadline(120), pytest.raises(pr.errors.ExecutionError, match="a worker process died"):
        pipeline.run(suite(), executor="process")


def test_a_task_past_its_timeout_is_an_execution_error_and_does_not_wait_for_it(tmp_path):
    finished = tmp_path / "finished"
    pipeline = pr.Pipeline([faulty.Sleeps(seconds=30.0, finished=str(finished))])
    with deadline(60), pytest.raises(pr.errors.ExecutionError, match="no result within the timeout of 0.5 s"):
        pipeline.run(suite(2), executor="process", timeout=0.5)
    assert not finished.exists()  # the run returned before the task could finish: nobody waited for it
    with pytest.raises(pr.ConfigError, match="timeout"):
        pipeline.run(suite(2), timeout=-1)


def test_a_timeout_without_an_executor_applies_too(tmp_path):
    """Pipeline.run(timeout=...) alone (serial): the tasks run in one worker process, which is stopped
    at the limit, as the command line's --timeout without --jobs (it was silently ignored)."""
    finished = tmp_path / "finished"
    pipeline = pr.Pipeline([faulty.Sleeps(seconds=30.0, finished=str(finished))])
    with deadline(60), pytest.raises(pr.errors.ExecutionError, match="no result within the timeout of 0.5 s"):
        pipeline.run(suite(2), timeout=0.5)
    assert not finished.exists()  # the run returned before the task could finish
    report = pr.Pipeline([faulty.Sleeps(seconds=0.0)]).run(suite(2), timeout=60)
    assert len(report.benchmarks) == 2 and not report.errors
    with pytest.raises(pr.ConfigError, match="executor='serial' runs them in the calling thread"):
        pipeline.run(suite(2), executor="serial", timeout=0.5)


@pytest.mark.parametrize("executor", [None, "process"])
@pytest.mark.parametrize("seconds", [1e308, float("inf")])
def test_a_timeout_beyond_any_wait_is_no_limit_in_python_too(executor, seconds):
    """The command line took --timeout 1e308 as no limit, Pipeline.run raised OverflowError (a bug's exit)."""
    report = pr.Pipeline([faulty.Sleeps(seconds=0.0)]).run(suite(2), executor=executor, timeout=seconds)
    assert len(report.benchmarks) == 2 and not report.errors


def test_cli_timeout_must_be_positive(files, capsys):
    _, old, new = files
    one_error_line(*run(capsys, "compare", old, new, "--jobs", "2", "--timeout", "0")[::2], "--timeout")


def test_lost_cluster_workers_fail_the_tasks_instead_of_hanging():
    release = threading.Event()
    alive = [1]
    watched = Watched(cf.ThreadPoolExecutor(1), workers=lambda: alive[0], what="--dask tcp://x", grace=0.2,
                      poll=0.05, startup=30.0)
    try:
        fut = watched.submit(release.wait, 30)
        time.sleep(0.3)
        assert not fut.done()  # a worker is alive: the task may take its time
        alive[0] = 0  # ... and then it dies
        with pytest.raises(pr.errors.ExecutionError, match="--dask tcp://x: no worker has been alive for 0.2 s"):
            fut.result(timeout=10)
    finally:
        release.set()
        watched.shutdown()


def test_a_cluster_without_workers_gets_a_startup_delay_then_an_error():
    release = threading.Event()
    watched = Watched(cf.ThreadPoolExecutor(1), workers=lambda: 0, grace=0.05, poll=0.05, startup=0.5)
    try:
        start = time.monotonic()
        with pytest.raises(pr.errors.ExecutionError, match="no worker joined in 0.5 s"):
            watched.submit(release.wait, 30).result(timeout=10)
        assert time.monotonic() - start >= 0.45
    finally:
        release.set()
        watched.shutdown()


def test_cluster_errors_become_execution_errors_and_task_errors_pass_through():
    killed = type("KilledWorker", (Exception,), {"__module__": "distributed.scheduler"})

    def boom(exc):
        raise exc

    watched = Watched(cf.ThreadPoolExecutor(1), workers=lambda: 1, grace=0.2, poll=0.05)
    try:
        with pytest.raises(pr.errors.ExecutionError, match="a task failed in the cluster: KilledWorker"):
            watched.submit(boom, killed("worker died 3 times")).result(timeout=10)
        with pytest.raises(pr.DataError, match="bad data"):
            watched.submit(boom, pr.DataError("bad data")).result(timeout=10)
        assert watched.submit(sum, [1, 2]).result(timeout=10) == 3
    finally:
        watched.shutdown()


# ---------------------------------------------------------------- progress and forecasts


def test_serial_runs_advance_the_bar_after_every_task():
    events = []

    class Recorder:
        def start(self, total, description):
            return lambda n=1: events.append("advance")

        def finish(self):
            pass

    class Logs(pr.Estimator):
        name = "logs"

        def estimate(self, sample):
            events.append("work")
            return pr.Estimate(estimate=1.0)

    previous = progress.set_reporter(Recorder())
    try:
        pr.Pipeline([Logs()]).run(suite(3), batch_size=1)
    finally:
        progress.set_reporter(previous)
    assert events == ["work", "work", "advance", "work", "work", "advance", "work", "work", "advance"]


def test_bar_ticks_while_one_long_piece_of_work_runs():
    stream = io.StringIO()
    bar = progress.StderrBar(stream=stream, delay=0.0, tick=0.02)
    bar.start(10, "long step")
    time.sleep(0.3)  # no advance() call meanwhile
    bar.finish()
    assert "long step [" in stream.getvalue()


def test_a_long_stage_is_announced_when_its_first_task_is_done(monkeypatch):
    notes = []
    monkeypatch.setattr(progress, "LONG_TASK", 0.0)
    previous = progress.set_notifier(notes.append)
    try:
        pr.Pipeline([faulty.Sleeps(seconds=0.01)]).run(suite(4), batch_size=1)
    finally:
        progress.set_notifier(previous)
    assert len(notes) == 1 and notes[0].startswith("sleeps (4 benchmarks): will take about")
    assert "(1 of 4 done in" in notes[0]


def test_only_the_outermost_task_forecasts_and_short_ones_say_nothing(monkeypatch):
    notes = []
    previous = progress.set_notifier(notes.append)
    try:
        with progress.task(4, "outer") as advance:
            monkeypatch.setattr(progress, "LONG_TASK", 0.0)
            with progress.task(2, "inner") as inner:
                inner(1)
            advance(1)
        monkeypatch.setattr(progress, "LONG_TASK", 3600.0)
        with progress.task(4, "quick") as advance:
            advance(1)
    finally:
        progress.set_notifier(previous)
    assert [n.split(":")[0] for n in notes] == ["outer"]


def test_a_huge_bootstrap_is_announced_before_it_starts(monkeypatch):
    notes = []
    monkeypatch.setattr(pr.resampling, "LONG_DRAWS", 3000)
    previous = progress.set_notifier(notes.append)
    try:
        pr.resampling.bootstrap_means(np.arange(100.0), n_bootstrap=20, random_state=0)
        assert notes == []
        pr.resampling.bootstrap_ratio(np.arange(100.0), np.arange(1.0, 101.0), n_bootstrap=50, random_state=0)
    finally:
        progress.set_notifier(previous)
    assert len(notes) == 1 and "50 replicates of 200 values" in notes[0]


def test_cli_prints_notices_as_one_line_notes(files, capsys, monkeypatch):
    _, old, new = files
    monkeypatch.setattr(pr.resampling, "LONG_DRAWS", 1000)
    code, _, err = run(capsys, "compare", old, new, "-p", "kalibera-jones")
    assert code == 0, err
    assert "perfrigor: note: bootstrap ratio: 10000 replicates of 40 values" in err


# ---------------------------------------------------------------- names on terminals


def test_terminal_safe_escapes_controls_and_bidi_overrides_only():
    assert terminal_safe("a\x1b[2Jb\tc\nd\x9b\u202ee") == "a\\x1b[2Jb\tc\nd\\x9b\\u202ee"
    assert terminal_safe("plain é ü 中文") == "plain é ü 中文"


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_reports_do_not_print_escape_sequences_from_names(fmt):
    data = {"\x1b[2J\x1b]8;;http://evil\x07bench": {"old\x1b[31m": np.arange(1.0, 9.0),
                                                     "new": np.arange(1.0, 9.0) * 0.8}}
    report = pr.Pipeline(["fieller"]).run(pr.Suite(data))
    text = pr.registry.get_registry().renderer(fmt).render(report)
    assert "\x1b" not in text and "\x07" not in text
    # shown as a visible escape; Markdown escapes that escape's own backslash in turn
    assert ("\\\\x1b[2J" if fmt == "markdown" else "\\x1b[2J") in text


def test_regression_lines_do_not_print_escape_sequences_from_names(tmp_path, capsys):
    suite = tmp_path / "suite.csv"
    noise = np.random.default_rng(1).normal(1.0, 0.01, size=(2, 12))
    suite.write_text("benchmark,system,value\n" + "".join(
        f"\x1b[2Jb,{s},{v * e}\n" for (s, v), row in zip((("old", 10), ("new", 13)), noise, strict=True) for e in row))
    code, _, err = run(capsys, "run", "--pipeline", "default", suite, "--fail-on-regression")
    assert code == 1, err
    assert "\x1b" not in err and "perfrigor: regression: \\x1b[2Jb" in err


def test_cli_reports_a_dead_worker_in_one_line(files, capsys, monkeypatch):
    _, old, new = files
    monkeypatch.setattr(sys.modules["perfrigor.scheduler"], "_run_batch", faulty.die)  # pickled by name: forked
    tmp = files[0]
    suite = tmp / "suite.csv"
    suite.write_text("benchmark,system,value\n" + "".join(
        f"b{i},{s},{v + 0.1 * k}\n" for i in range(3) for s, v in (("old", 10), ("new", 9)) for k in range(5)))
    with deadline(120):
        code, _, err = run(capsys, "run", "--pipeline", "speedup-test", suite, "--jobs", "2")
    one_error_line(code, err, "a worker process died", "rerun with fewer --jobs")


@pytest.mark.slow
def test_dask_run_whose_only_worker_goes_away_ends_with_an_execution_error():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, processes=True, threads_per_worker=1, dashboard_address=":0") as cluster:
        client = distributed.Client(cluster.scheduler_address)
        watched = Watched(client.get_executor(), lambda: len(client.scheduler_info().get("workers", {})),
                          what="--dask test", grace=2.0)
        threading.Timer(3.0, cluster.scale, args=(0,)).start()  # the only worker leaves mid-run
        try:
            with deadline(120), pytest.raises(pr.errors.ExecutionError, match="no worker has been alive for 2 s"):
                pr.Pipeline([faulty.Sleeps(seconds=2.0)]).run(suite(4), executor=watched)
        finally:
            watched.shutdown(wait=False)
            client.close()


def test_extreme_but_valid_levels_of_suite_methods_end_in_a_result(tmp_path, capsys):
    rows = ["benchmark,system,time"] + [f"b{i},{s},{v + 0.01 * k}" for i in range(6)
                                        for s, v in (("old", 10 + i), ("new", 9 + i)) for k in range(5)]
    data = tmp_path / "suite.csv"
    data.write_text("\n".join(rows) + "\n")
    config = tmp_path / "c.toml"
    config.write_text('[[steps]]\ncomponent = "hpt"\nbenchmark_confidence = 0.9999999\n')
    code, out, err = run(capsys, "run", config, data)
    assert code == 0, err
    assert "more than 12 runs per system" in out
    config.write_text('[[steps]]\ncomponent = "accelerated-proportion"\nprecision = 1e-300\n')
    one_error_line(*run(capsys, "run", config, data)[::2], "precision must lie in (1e-09, 1.0), got 1e-300")


def test_memory_limit_is_the_smaller_of_the_machine_and_its_container(monkeypatch, tmp_path):
    from perfrigor import memory
    physical = memory.machine_memory()
    limit = tmp_path / "memory.max"
    limit.write_text("1048576\n")
    monkeypatch.setattr(memory, "_CGROUP_LIMITS", (str(tmp_path / "absent"), str(limit)))
    monkeypatch.setattr(memory, "_CGROUP_USAGE", (str(tmp_path / "absent"), str(tmp_path / "absent too")))
    assert memory.machine_memory() == 1048576
    with pytest.raises(pr.ConfigError, match=r"n_bootstrap = 100000 needs about 3.05 MiB of memory, more than "
                                             r"the 1 MiB available now \(at most about 32768 fit\)"):
        pr.get("bootstrap-ratio", n_bootstrap=100_000)
    limit.write_text("max\n")
    assert memory.machine_memory() == physical


def test_the_memory_check_counts_what_is_available_not_the_machines_total(monkeypatch, tmp_path):
    """Issue 24 item 7: a machine whose memory other programs hold refuses what would fit in its total."""
    from perfrigor import memory
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       67108864 kB\nMemFree:          100000 kB\nMemAvailable:       2048 kB\n")
    monkeypatch.setattr(memory, "_MEMINFO", str(meminfo))
    monkeypatch.setattr(memory, "_CGROUP_LIMITS", (str(tmp_path / "absent"),) * 2)
    assert memory.available_memory() == 2 * 1024 * 1024
    with pytest.raises(pr.ConfigError, match=r"more than the 2 MiB available now"):
        pr.get("bootstrap-ratio", n_bootstrap=100_000)
    # in a container: what is left of its limit, when that is less
    limit, used = tmp_path / "memory.max", tmp_path / "memory.current"
    limit.write_text("3145728\n")
    used.write_text("2621440\n")
    meminfo.write_text("MemAvailable:   67108864 kB\n")
    monkeypatch.setattr(memory, "_CGROUP_LIMITS", (str(limit), str(tmp_path / "absent")))
    monkeypatch.setattr(memory, "_CGROUP_USAGE", (str(used), str(tmp_path / "absent")))
    assert memory.available_memory() == 524288
    assert pr.get("bootstrap-ratio", n_bootstrap=1_000).n_bootstrap == 1_000
