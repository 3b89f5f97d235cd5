"""Who runs a command: a real process (:class:`ProcessExecutor`) or a simulation (``.simulation``).

The runner asks an executor to ``setup`` a command once, ``prepare`` it before each run and
``run`` it, and reads its ``clock``; any object with these four methods will do (the
:class:`Executor` protocol), so the calibration drives the very same loop with simulated
commands.

With ``iterations`` K > 1 a run reports its own times: the command prints K lines

    perfrigor-time: VALUE [UNIT]

(anywhere in its standard output, among other lines; UNIT ``s`` (default), ``ms``, ``us`` or
``ns``), one per in-process iteration, and those are the run's values. Without, the value is
the run's wall-clock time from starting the process to its exit, in seconds, or with
``timer="cpu"`` the CPU time (user + system) the process used.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import time
from typing import IO, Protocol

import attrs
import perfrigor as pr

from .plan import MeasuredCommand

#: what a run's value is without ``iterations``: the wall-clock time, or the CPU time (user + system)
#: the process used, which other processes competing for the CPUs disturb far less
TIMERS = ("wall", "cpu")
#: one in-process time in a command's output (the documented line format)
TIME_LINE = re.compile(r"^\s*perfrigor-time:\s*(?P<value>\S+)\s*(?P<unit>[^\s\d][^\s]*)?\s*$")


@attrs.frozen
class RunResult:
    """One run: its values in seconds (the wall time, or the K times it printed), its exit code,
    and the last line it wrote to stderr (to say why it failed)."""

    values: tuple[float, ...]
    exit_code: int = 0
    message: str = ""


class Executor(Protocol):
    def setup(self, command: MeasuredCommand) -> None: ...

    def prepare(self, command: MeasuredCommand) -> None: ...

    def run(self, command: MeasuredCommand, iterations: int) -> RunResult: ...

    def clock(self) -> float: ...


def parse_times(output: str, iterations: int, command: str) -> tuple[float, ...]:
    """The ``perfrigor-time:`` lines of a run's output, in seconds; DataError unless exactly ``iterations``."""
    found = []
    for number, line in enumerate(output.splitlines(), 1):
        m = TIME_LINE.match(line)
        if m is None:
            continue
        where = f"command {command!r}, output line {number}"
        value = pr.parse_number(m["value"], where, "time")
        unit = m["unit"] or "s"
        if pr.units.lookup(unit) is None or not pr.units.convertible(unit, "s"):
            raise pr.DataError(f"{where}: unit {unit!r} is not a time (s, ms, us, ns)")
        seconds = float(pr.units.convert([value], unit, "s")[0])
        if not seconds > 0:
            raise pr.DataError(f"{where}: time {m['value']} is not positive")
        found.append(seconds)
    if len(found) != iterations:
        raise pr.DataError(f"command {command!r} printed {len(found)} 'perfrigor-time: VALUE [UNIT]' line(s); "
                           f"--iterations {iterations} expects {iterations}")
    return tuple(found)


def _tail(handle: IO[bytes]) -> str:
    """The last non-empty line a process wrote to ``handle`` (a temporary file)."""
    handle.seek(0, os.SEEK_END)
    size = handle.tell()
    handle.seek(max(0, size - 4096))
    lines = [ln.strip() for ln in handle.read().decode("utf-8", "replace").splitlines() if ln.strip()]
    return lines[-1][:200] if lines else ""


class ProcessExecutor:
    """Runs commands as processes and times them with ``time.perf_counter``.

    Output goes to temporary files (never a pipe the timing would wait on): standard output is
    read only with ``iterations`` > 1, the last line of standard error only when a run fails.
    A run interrupted (Ctrl-C) has its process killed and reaped before the interrupt goes on.
    """

    def __init__(self, timer: str = "wall") -> None:
        if timer not in TIMERS:
            raise pr.ConfigError(f"timer must be one of {', '.join(TIMERS)}, got {timer!r}")
        self.timer = timer
        self._out: IO[bytes] = tempfile.TemporaryFile()
        self._err: IO[bytes] = tempfile.TemporaryFile()

    def clock(self) -> float:
        return time.monotonic()

    def setup(self, command: MeasuredCommand) -> None:
        if command.setup:
            self._helper(command.setup, command, "--setup")

    def prepare(self, command: MeasuredCommand) -> None:
        if command.prepare:
            self._helper(command.prepare, command, "--prepare")

    def _helper(self, text: str, command: MeasuredCommand, option: str) -> None:
        result = self._spawn(["/bin/sh", "-c", text], command.cwd, capture=False)
        if result.exit_code != 0:
            why = f": {result.message}" if result.message else ""
            raise pr.DataError(f"{option} {text!r} of command {command.name!r} exited with code "
                               f"{result.exit_code}{why}")

    def run(self, command: MeasuredCommand, iterations: int) -> RunResult:
        result = self._spawn(command.argv(), command.cwd, capture=iterations > 1)
        if iterations == 1:
            return result
        self._out.seek(0)
        output = self._out.read().decode("utf-8", "replace")
        try:
            return attrs.evolve(result, values=parse_times(output, iterations, command.name))
        except pr.DataError:
            if result.exit_code == 0:
                raise
            return attrs.evolve(result, values=())  # a failed run that printed no times: it has none

    def _spawn(self, argv: list[str], cwd: str | None, capture: bool) -> RunResult:
        for handle in (self._out, self._err):
            handle.seek(0)
            handle.truncate()
        start = time.perf_counter()
        try:
            proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL,
                                    stdout=self._out if capture else subprocess.DEVNULL, stderr=self._err)
        except OSError as exc:
            raise pr.DataError(f"cannot run {argv[0]!r}: {exc.strerror or exc}"
                               + (f" (in {cwd})" if cwd else "")) from None
        try:
            _, status, usage = os.wait4(proc.pid, 0)  # the child's own CPU times come with it
        except BaseException:  # Ctrl-C: the process goes too, and is reaped
            proc.kill()
            proc.wait()
            raise
        elapsed = time.perf_counter() - start
        proc.returncode = code = os.waitstatus_to_exitcode(status)
        value = elapsed if self.timer == "wall" else usage.ru_utime + usage.ru_stime
        return RunResult((value,), code, _tail(self._err) if code != 0 else "")

    def close(self) -> None:
        self._out.close()
        self._err.close()
