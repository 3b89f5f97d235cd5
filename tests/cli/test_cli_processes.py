"""Worker processes (issue 23.5): ``--jobs`` is capped at the CPUs and the benchmarks, and a run
stopped by SIGTERM (a CI cancel) or SIGINT (Ctrl-C) leaves no process behind.

The signal tests start ``perfrigor run --jobs 2`` in a session of its own, wait until its
workers are up, signal the main process and check that its whole process group is gone. The
bounds are generous (a loaded machine): they catch workers left running, not slowness.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import perfrigor as pr
import pytest
from perfrigor.cli import main
from perfrigor.executors import cpu_count

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads process groups from /proc")


def _group(pgid: int) -> list[int]:
    """The live processes of a process group (zombies, already dead, are not counted)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # after "pid (comm) ": state, ppid, pgrp, ...
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def _catches(pid: int, signum: int) -> bool:
    """Does process ``pid`` handle ``signum`` (Python installs its SIGINT handler at start-up)?"""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next(int(line.split()[1], 16) for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(caught >> (signum - 1) & 1)


def _as_in_a_terminal() -> None:
    """The child gets SIGINT's default disposition, as a foreground command in a terminal has: a suite
    run in the background of a non-interactive shell (``pytest &``) inherits SIGINT ignored, and
    Python then keeps ignoring it (no KeyboardInterrupt: the run would finish, exit 0)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _wait(condition, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


@pytest.fixture
def suite_file(tmp_path: Path) -> Path:
    """A suite large enough that the default pipeline runs for a while on 2 workers."""
    rng = np.random.default_rng(5)
    rows = ["benchmark,system,value"]
    for b in range(400):
        for system, scale in (("old", 1.0), ("new", 0.98)):
            rows += [f"b{b:03d},{system},{v:.6g}" for v in rng.lognormal(0, 0.05, 30) * scale]
    path = tmp_path / "suite.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_stops_every_worker(suite_file: Path, signum: int) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "perfrigor", "run", "--pipeline", "default", str(suite_file),
                             "--jobs", "2", "--format", "json"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True, text=True, preexec_fn=_as_in_a_terminal)
    try:
        workers = min(2, cpu_count())
        up = _wait(lambda: (len(_group(proc.pid)) > workers and _catches(proc.pid, signum))
                   or proc.poll() is not None, 120)
        if proc.poll() is not None:
            pytest.fail(f"the run ended (exit {proc.returncode}) before its workers were seen: {proc.stderr.read()}")
        assert up, f"no {workers} workers with the signal handled within 120 s: {_group(proc.pid)}"
        proc.send_signal(signum)
        code = proc.wait(timeout=30)
        assert _wait(lambda: not _group(proc.pid), 10), f"left behind: {_group(proc.pid)}"
        err = proc.stderr.read()
        assert code == 128 + signum, err
        assert err.strip().splitlines()[-1] == ("perfrigor: terminated" if signum == signal.SIGTERM
                                                else "perfrigor: interrupted"), err
    finally:
        if proc.poll() is None or _group(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_jobs_beyond_the_cpus_and_benchmarks_say_what_they_used(tmp_path: Path, capsys) -> None:
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_text("\n".join(str(10 + 0.1 * i) for i in range(8)) + "\n")
    new.write_text("\n".join(str(9 + 0.1 * i) for i in range(8)) + "\n")
    code = main(["compare", str(old), str(new), "--pipeline", "speedup-test", "--jobs", "1000"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert f"--jobs 1000: using 1 process ({cpu_count()} CPU(s), 1 benchmark(s))" in err


def test_the_process_executor_starts_no_more_workers_than_benchmarks(monkeypatch) -> None:
    from perfrigor import executors, scheduler

    made = []
    real = executors.process_pool
    monkeypatch.setattr(scheduler, "process_pool", lambda n: made.append(n) or real(n))
    rng = np.random.default_rng(1)
    pr.Pipeline(["welch-t"]).run(rng.normal(10, 1, 20), rng.normal(9, 1, 20), executor="process")
    assert made == [1]
