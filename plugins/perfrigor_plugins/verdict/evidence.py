"""What the verdict knows about one benchmark: the earlier steps' evidence, read by type.

The verdict reads five kinds of evidence, each a core type (``perfrigor.evidence``):
a dependence check and a steady-state check per system (``pr.DependenceCheck``,
``pr.SteadyStateCheck``: :mod:`.steady`), a mode comparison (``pr.ModeComparison``), a ratio
of means (``pr.RatioComparison``) and a location shift (``pr.ShiftComparison``). Whatever step produced it, built-in or third-party, under any step
id, feeds the verdict (``previous.of_type``); the last such step wins. Where the pipeline has
none, the verdict runs the registered default (``independence``, ``steady-state``,
``mode-comparison``, ``fieller``; the location shift is its own, ``location-shift``), so a pipeline that has only
the verdict still gets an answer. ``Found.source`` names what produced each piece: a step id,
or the default component's name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs
import perfrigor as pr

#: the component run for each kind of evidence the pipeline lacks
DEFAULTS = {pr.DependenceCheck: "independence", pr.ModeComparison: "mode-comparison",
            pr.RatioComparison: "fieller", pr.ShiftComparison: "location-shift",
            pr.SteadyStateCheck: "steady-state"}


@attrs.frozen
class Found:
    """A piece of evidence and what produced it: the id of a step, or the default component's name."""

    source: str
    result: Any
    error: str | None = None  # why the default could not run on these data (result None)
    component: str = ""  # the component behind the step (the default's name when the verdict ran it)


@attrs.frozen
class Evidence:
    """The evidence the verdict's paths read, for one baseline -> candidate pair."""

    dependence: tuple[Found | None, Found | None]
    modes: Found | None = None
    ratio: Found | None = None
    shift: Found | None = None

    def checks(self) -> tuple[pr.DependenceCheck | None, pr.DependenceCheck | None]:
        return tuple(f.result if f is not None else None for f in self.dependence)  # type: ignore[return-value]


def _registered(name: str) -> bool:
    return name in pr.get_registry().components


def find(previous: pr.Previous, kind: type, key: str) -> Found | None:
    """The last earlier step's ``key`` result of type ``kind``, or None."""
    found = previous.of_type(kind, key) if isinstance(previous, pr.Previous) else []
    if not found:
        return None
    step, result = found[-1]
    return Found(step, result, component=getattr(previous, "components", {}).get(step, step))


def run_default(kind: type, run: Callable[[pr.Component], Any], **params: Any) -> Found | None:
    """The registered default component for ``kind`` run here (None when none is registered).

    A DataError (the method does not apply to these data) gives a Found with no result and
    its message.
    """
    name = DEFAULTS[kind]
    if not _registered(name):
        return None
    try:
        result = run(pr.get(name, **params))
    except pr.DataError as exc:
        return Found(name, None, str(exc), name)
    if not isinstance(result, kind):
        return Found(name, None, f"its result is a {type(result).__name__}, not a {kind.__name__}", name)
    return Found(name, result, component=name)


def find_or_run(previous: pr.Previous, kind: type, key: str, run: Callable[[pr.Component], Any],
                **params: Any) -> Found | None:
    """The pipeline's evidence of type ``kind`` for ``key``, else the registered default run here."""
    return find(previous, kind, key) or run_default(kind, run, **params)


def dependence_of(sample: pr.Sample) -> pr.DependenceCheck | None:
    """The default dependence check of runs the pipeline has not checked (e.g. one mode's), or None."""
    found = run_default(pr.DependenceCheck, lambda c: c.estimate(sample))
    return found.result if found is not None else None


def gather(samples: Mapping[str, pr.Sample], baseline: str, candidate: str, previous: pr.Previous,
           confidence: float, need_modes: bool, need_ratio: bool) -> Evidence:
    """Collect (or compute) what the paths need; ``need_*`` skip work the chosen path cannot use."""
    pair = pr.pair_key(baseline, candidate)
    old, new = samples[baseline], samples[candidate]
    dependence = tuple(find_or_run(previous, pr.DependenceCheck, system, lambda c, s=s: c.estimate(s))
                       for system, s in ((baseline, old), (candidate, new)))
    modes = (find_or_run(previous, pr.ModeComparison, pair, lambda c: c.compare(old, new), confidence=confidence)
             if need_modes else None)
    ratio = (find_or_run(previous, pr.RatioComparison, pair, lambda c: c.compare(old, new), confidence=confidence)
             if need_ratio else None)
    return Evidence(dependence, modes, ratio, find(previous, pr.ShiftComparison, pair))  # type: ignore[arg-type]


def comparisons(previous: pr.Previous, pair: str) -> dict[str, tuple[str, pr.Comparison]]:
    """Every earlier comparison of the pair: ``{step_id: (component, result)}`` (what the reasons weigh)."""
    components = getattr(previous, "components", {})
    return {step: (components.get(step, step), res)
            for step, res in (previous.of_type(pr.Comparison, pair) if isinstance(previous, pr.Previous) else [])
            if not isinstance(res, pr.Verdict)}
