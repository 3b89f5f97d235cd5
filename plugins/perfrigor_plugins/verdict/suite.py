"""The suite's verdict: counts of outcomes, the geometric-mean speedup with its interval, the HPT line."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import perfrigor as pr

from .multiplicity import NAMES
from .reasons import between, pct
from .rules import FASTER, SAME, SLOWER, UNCLEAR

OUTCOMES = (FASTER, SLOWER, SAME, UNCLEAR)


def geometric_mean(verdicts: Mapping[str, pr.Verdict], confidence: float
                   ) -> tuple[float | None, float | None, float | None, list[str]]:
    """Geometric mean of the benchmarks' speedups, with an interval propagated from theirs.

    Each benchmark's interval gives a standard error on the log scale (half-width / z);
    the mean of k logs has the standard error sqrt(sum se²) / k (the benchmarks are measured
    independently). This is about *these* benchmarks; HPT answers for the population of
    programs they sample.
    """
    from scipy import special
    z = float(special.ndtri(0.5 + confidence / 2))
    logs, ses, left_out = [], [], []
    for bench, v in verdicts.items():
        own = v.details.get("unadjusted") or {}  # the benchmark's own interval, not the suite-adjusted one
        low, high = own.get("ci_low", v.ci_low), own.get("ci_high", v.ci_high)
        if v.speedup is None or low is None or high is None or low <= 0:
            left_out.append(bench)
            continue
        vz = float(special.ndtri(0.5 + (own.get("confidence") or v.confidence or confidence) / 2))
        logs.append(math.log(v.speedup))
        ses.append((math.log(high) - math.log(low)) / (2 * vz))
    if not logs:
        return None, None, None, left_out
    centre = float(np.mean(logs))
    se = math.sqrt(float(np.sum(np.square(ses)))) / len(logs)
    return math.exp(centre), math.exp(centre - z * se), math.exp(centre + z * se), left_out


def _named(benchmarks: Sequence[str], limit: int = 10) -> str:
    """The first names, then "and N more": a reason is read as one line (each benchmark has its verdict)."""
    more = len(benchmarks) - limit
    return ", ".join(benchmarks[:limit]) + (f" and {more} more" if more > 0 else "")


def suite_verdict(verdicts: Mapping[str, pr.Verdict], confidence: float, previous: pr.Previous | None
                  ) -> pr.SuiteVerdict:
    names = {o: tuple(b for b, v in verdicts.items() if v.outcome == o) for o in OUTCOMES}
    counts = {o: len(b) for o, b in names.items()}
    speedup, low, high, left_out = geometric_mean(verdicts, confidence)
    reasons = []
    if names[SLOWER]:
        reasons.append(f"slower: {_named(names[SLOWER])}")
    if speedup is not None:
        reasons.append(f"geometric mean {pct(speedup)} ({between(low, high)} at {confidence:.0%}) over "
                       f"{len(verdicts) - len(left_out)} benchmarks")
    if left_out:
        reasons.append(f"left out of the geometric mean (no interval): {', '.join(left_out)}")
    details: dict = {}
    control = next((v.details.get("suite_control") for v in verdicts.values() if v.details.get("suite_control")),
                   None)
    if control is not None:
        dropped = tuple(b for b, v in verdicts.items() if "unadjusted_outcome" in v.details)
        if control["method"] == "none":
            reasons.append(f"each of the {control['benchmarks']} benchmarks judged on its own (suite_control = none): "
                           f"about {control['level']:.0%} of unchanged benchmarks read faster or slower by chance")
        else:
            level = control.get("interval_level", confidence)
            what = ("false coverage rate" if control["method"] == "benjamini-hochberg" else "Holm's last step")
            reasons.append(f"changes decided over the {control['benchmarks']} benchmarks together: "
                           f"{NAMES[control['method']]} at {control['level']:.3g}; intervals adjusted to agree "
                           f"({what}: {level:.2%} each)"
                           + (f"; not significant over the suite: {_named(dropped)}" if dropped else ""))
        details["suite_control"] = {"method": control["method"], "level": control["level"],
                                    "benchmarks": control["benchmarks"], "not_significant_over_suite": list(dropped),
                                    "interval_level": control.get("interval_level", confidence)}
    hpt = previous.find("hpt") if isinstance(previous, pr.Previous) else None
    if hpt is not None and isinstance(hpt[1], pr.Comparison):
        # HPT's own sentence names it; a step of another id says which it is
        reasons.append(hpt[1].describe() if hpt[0] == "hpt" else f"{hpt[0]}: {hpt[1].describe()}")
        details["hpt"] = {"step": hpt[0], "estimate": hpt[1].estimate, "pvalue": hpt[1].pvalue,
                          "significant": hpt[1].significant}
    return pr.SuiteVerdict(counts=counts, benchmarks=names, speedup=speedup, ci_low=low, ci_high=high,
                           confidence=confidence, reasons=tuple(reasons), details=details)
