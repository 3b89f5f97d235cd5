"""What to measure and when to stop: the commands, the stopping rule, the design (typed records).

``perfrigor measure``'s options, a measure config's ``[measure]`` table and the Python API
all build these; the runner (:mod:`.runner`) takes them as they are.
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Sequence
from typing import Any

import attrs
import perfrigor as pr

from .sequential import PRIOR_SCALE

UNTIL = ("runs", "clear")


def _positive_int(name: str, value: Any, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise pr.ConfigError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


@attrs.frozen
class MeasuredCommand:
    """One command to measure: its name (the system in the runs file) and how to run it.

    ``command`` is split into an argv (``shlex``) and run without a shell unless ``shell``;
    ``setup`` runs once before the first run, ``prepare`` before every run (untimed, both through
    ``/bin/sh -c``); ``cwd`` is the working directory.
    """

    command: str
    name: str = ""
    shell: bool = False
    setup: str | None = None
    prepare: str | None = None
    cwd: str | None = None

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.command, str) or not self.command.strip():
            raise pr.ConfigError(f"a command to measure must be a non-empty string, got {self.command!r}")
        if not self.name:
            object.__setattr__(self, "name", self.command.strip())
        if not self.shell:
            self.argv()  # an unbalanced quote is an error now, not at the first run

    def argv(self) -> list[str]:
        """The command as the process is started: ``sh -c COMMAND`` with ``shell``, else its words."""
        if self.shell:
            return ["/bin/sh", "-c", self.command]
        try:
            words = shlex.split(self.command)
        except ValueError as exc:
            raise pr.ConfigError(f"command {self.command!r}: {exc} (quote it as a shell would, or use --shell)") \
                from None
        if not words:
            raise pr.ConfigError(f"command {self.command!r} has no words to run")
        return words


@attrs.frozen
class StoppingRule:
    """When a measurement stops.

    ``until="runs"``: a fixed design of ``runs`` rounds. ``until="clear"``: after every round
    from ``min_runs`` on, stop when the anytime-valid interval of every candidate's speedup
    decides (faster, slower, or same within ±``threshold``), at ``confidence`` over all
    candidates (Bonferroni: each at 1 - (1 - confidence)/(k - 1)). Either way at most
    ``max_runs`` rounds and ``max_time`` seconds.
    """

    until: str = "runs"
    runs: int = 10
    min_runs: int = 5
    max_runs: int = 200
    max_time: float | None = None
    confidence: float = 0.95
    threshold: float = 0.01
    prior_scale: float = PRIOR_SCALE

    def __attrs_post_init__(self) -> None:
        if self.until not in UNTIL:
            raise pr.ConfigError(f"until must be one of {', '.join(UNTIL)}, got {self.until!r}")
        for name in ("runs", "min_runs", "max_runs"):
            _positive_int(name.replace("_", "-"), getattr(self, name), 2 if name == "min_runs" else 1)
        if self.min_runs > self.max_runs:
            raise pr.ConfigError(f"min-runs {self.min_runs} is more than max-runs {self.max_runs}")
        if self.max_time is not None and not (isinstance(self.max_time, int | float)
                                              and not isinstance(self.max_time, bool)
                                              and self.max_time > 0 and math.isfinite(self.max_time)):
            raise pr.ConfigError(f"max-time must be a number of seconds > 0, got {self.max_time!r}")
        if isinstance(self.confidence, bool) or not isinstance(self.confidence, int | float) \
                or not 0.5 <= self.confidence < 1:
            raise pr.ConfigError(f"confidence must lie in [0.5, 1), got {self.confidence!r}")
        if isinstance(self.threshold, bool) or not isinstance(self.threshold, int | float) \
                or not 0 <= self.threshold < 1:
            raise pr.ConfigError(f"threshold must be a relative change in [0, 1) (0.01: ±1%), got {self.threshold!r}")
        if isinstance(self.prior_scale, bool) or not isinstance(self.prior_scale, int | float) \
                or not self.prior_scale > 0:
            raise pr.ConfigError(f"prior-scale must be > 0, got {self.prior_scale!r}")

    @property
    def limit(self) -> int:
        """The most rounds this rule runs."""
        return min(self.runs, self.max_runs) if self.until == "runs" else self.max_runs

    def level(self, comparisons: int) -> float:
        """The confidence of each of ``comparisons`` candidate-vs-baseline sequences (Bonferroni)."""
        return 1.0 - (1.0 - self.confidence) / max(1, comparisons)


@attrs.frozen
class Plan:
    """A whole measurement: the commands (the first is the baseline), the rule and the design.

    ``warmup`` untimed rounds first; ``iterations`` K > 1 reads K in-process times from each
    run's output (:mod:`.executors`: lines ``perfrigor-time: VALUE [UNIT]``); else a run's value
    is its wall-clock time, or with ``timer="cpu"`` the CPU time it used; ``seed`` seeds the
    order of each round; ``benchmark`` names the benchmark in the runs file.
    """

    commands: tuple[MeasuredCommand, ...] = attrs.field(converter=tuple)
    rule: StoppingRule = attrs.field(factory=StoppingRule)
    warmup: int = 0
    iterations: int = 1
    seed: int | None = None
    ignore_failure: bool = False
    benchmark: str = "measure"
    timer: str = "wall"

    def __attrs_post_init__(self) -> None:
        if len(self.commands) < 2:
            raise pr.ConfigError(f"give at least two commands to compare (got {len(self.commands)})")
        names = [c.name for c in self.commands]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise pr.ConfigError(f"two commands are named {twice[0]!r}; name them apart (--name)")
        _positive_int("warmup", self.warmup, 0)
        _positive_int("iterations", self.iterations, 1)
        if self.seed is not None:
            _positive_int("seed", self.seed, 0)
        if self.timer not in ("wall", "cpu"):
            raise pr.ConfigError(f"timer must be 'wall' or 'cpu', got {self.timer!r}")
        if self.timer == "cpu" and self.iterations > 1:
            raise pr.ConfigError("timer 'cpu' times whole runs; with iterations the commands print their own times")
        if not isinstance(self.benchmark, str) or not self.benchmark.strip():
            raise pr.ConfigError(f"benchmark must be a non-empty name, got {self.benchmark!r}")

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.commands]


def commands(texts: Sequence[str], names: Sequence[str] = (), shell: bool = False,
             setup: Sequence[str] = (), prepare: Sequence[str] = (), cwd: str | None = None) -> list[MeasuredCommand]:
    """Commands from the command line's lists: ``names``, ``setup`` and ``prepare`` give one value
    for all commands or one per command (as hyperfine's options)."""
    def spread(option: str, values: Sequence[str]) -> list[str | None]:
        if not values:
            return [None] * len(texts)
        if len(values) == 1 and option != "--name":
            return [values[0]] * len(texts)
        if len(values) != len(texts):
            each = "one per command" if option == "--name" else "one for all commands or one per command"
            raise pr.ConfigError(f"{option} given {len(values)} time(s) for {len(texts)} commands: give {each}")
        return list(values)

    return [MeasuredCommand(text, name or "", shell, s, p, cwd) for text, name, s, p in
            zip(texts, spread("--name", names), spread("--setup", setup), spread("--prepare", prepare),
                strict=True)]
