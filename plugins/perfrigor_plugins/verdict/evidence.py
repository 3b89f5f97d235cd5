"""What the verdict knows about one benchmark: the earlier steps' results, or its own runs of them.

The verdict reads the diagnostics (``independence``, ``mode-comparison``) and the
interval methods (``fieller``, ``speedup-test``) from the pipeline's earlier steps when
they are there, whatever their step ids, and otherwise runs the registered components
itself: a custom pipeline that has only the verdict still gets an answer. Other plugins'
results are read by their documented fields, never by their classes: fieller's through the
core's ``pr.RatioComparison`` attributes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
import perfrigor as pr


@attrs.frozen
class Found:
    """A result and where it came from: the id of the step that produced it, or the component's name."""

    source: str
    result: Any
    error: str | None = None  # why the component could not run on these data (result None)


@attrs.frozen
class Evidence:
    """The results the verdict's rules read, for one baseline -> candidate pair."""

    independence: tuple[Found | None, Found | None]
    modes: Found | None
    fieller: Found | None


def _registered(name: str) -> bool:
    return name in pr.get_registry().components


def find_or_run(previous: pr.Previous, component: str, key: str, run: Any, **params: Any) -> Found | None:
    """The earlier step's ``key`` result of ``component``, else the component run here, else None.

    ``run`` receives the built component and returns its result; a DataError (the method
    does not apply to these data) gives a Found with no result and the error's message.
    """
    found = previous.find(component, key) if isinstance(previous, pr.Previous) else None
    if found is not None:
        return Found(*found)
    if not _registered(component):
        return None
    try:
        return Found(component, run(pr.get(component, **params)))
    except pr.DataError as exc:
        return Found(component, None, str(exc))


def independence_of(sample: pr.Sample) -> Any:
    """The ``independence`` estimate of runs the pipeline has not checked (e.g. one mode's), or None."""
    if not _registered("independence"):
        return None
    try:
        return pr.get("independence").estimate(sample)
    except pr.DataError:
        return None


def gather(samples: Mapping[str, pr.Sample], baseline: str, candidate: str, previous: pr.Previous,
           confidence: float, need_modes: bool, need_fieller: bool) -> Evidence:
    """Collect (or compute) what the rules need; ``need_*`` skip work the chosen path cannot use."""
    pair = pr.pair_key(baseline, candidate)
    old, new = samples[baseline], samples[candidate]
    independence = tuple(find_or_run(previous, "independence", system, lambda c, s=s: c.estimate(s))
                         for system, s in ((baseline, old), (candidate, new)))
    modes = (find_or_run(previous, "mode-comparison", pair, lambda c: c.compare(old, new), confidence=confidence)
             if need_modes else None)
    fieller = (find_or_run(previous, "fieller", pair, lambda c: c.compare(old, new), confidence=confidence)
               if need_fieller else None)
    if fieller is not None and fieller.result is not None and not isinstance(fieller.result, pr.RatioComparison):
        fieller = Found(fieller.source, None, f"its result is a {type(fieller.result).__name__}, not a ratio of "
                                              "means (perfrigor.RatioComparison)")
    return Evidence(independence, modes, fieller)  # type: ignore[arg-type]


def comparisons(previous: pr.Previous, pair: str) -> dict[str, tuple[str, pr.Comparison]]:
    """Every earlier comparison of the pair: ``{step_id: (component, result)}`` (what the reasons weigh)."""
    components = getattr(previous, "components", {})
    out = {}
    for step_id, results in (previous or {}).items():
        res = results.get(pair) if isinstance(results, Mapping) else None
        if isinstance(res, pr.Comparison) and not isinstance(res, pr.Verdict):
            out[step_id] = (components.get(step_id, step_id), res)
    return out
