"""Suite-level error control: the benchmarks' "faster"/"slower" decided together, not one by one.

A suite of 100 unchanged benchmarks tested at 5% each gives about five false changes: a
regression gate would fail on almost every run. The verdict therefore decides a suite's
changes on p-values adjusted for the number of benchmarks compared:

- ``benjamini-hochberg`` (the default): the false discovery rate, the expected share of
  false changes among those claimed, stays at most 1 - confidence (Benjamini & Hochberg 1995;
  valid for independent or positively dependent tests). When nothing changed, any claim is
  a false one, so the chance that a gate fires on an unchanged suite is also at most that.
- ``holm``: the family-wise error rate, the chance of any false change over the suite,
  stays at most 1 - confidence whatever the dependence (Holm 1979); fewer true changes found.
- ``none``: every benchmark on its own (the single-benchmark rule).

The adjustment only removes claims: a "faster"/"slower" verdict whose adjusted p-value does
not reach the level becomes "unclear", and says so. Intervals stay per benchmark at
``confidence``; the reasons and the suite verdict name the adjustment.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs
import numpy as np
import perfrigor as pr

from .rules import FASTER, SLOWER, UNCLEAR

METHODS = ("benjamini-hochberg", "holm", "none")
#: how the reasons and the report name each control
NAMES = {"benjamini-hochberg": "Benjamini-Hochberg (false discovery rate)",
         "holm": "Holm (family-wise error rate)", "none": "none (each benchmark on its own)"}
SHORT = {"benjamini-hochberg": "Benjamini-Hochberg", "holm": "Holm", "none": "unadjusted"}


def adjusted_pvalues(pvalues: Sequence[float], method: str) -> list[float]:
    """Holm's step-down or Benjamini-Hochberg's step-up adjusted p-values (as R's ``p.adjust``)."""
    p = np.asarray(pvalues, dtype=float)
    m = p.size
    if m == 0 or method == "none":
        return p.tolist()
    if method == "benjamini-hochberg":
        from scipy.stats import false_discovery_control  # scipy at run time only (start-up)

        return false_discovery_control(p, method="bh").tolist()
    if method != "holm":
        raise ValueError(f"unknown adjustment {method!r} (one of {', '.join(METHODS)})")
    # Holm's step-down by hand: scipy has no family-wise adjustment
    order = np.argsort(p, kind="stable")
    out = np.empty(m)
    out[order] = np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * p[order]))
    return out.tolist()


def _pvalue(v: pr.Verdict) -> float:
    """The verdict's two-sided p-value; 1 where it has none (nothing it could claim)."""
    p = v.details.get("pvalue")
    return float(p) if isinstance(p, int | float) and np.isfinite(p) else 1.0


def adjust(verdicts: Mapping[str, pr.Verdict], method: str, confidence: float) -> dict[str, pr.Verdict]:
    """Every verdict with its suite-adjusted p-value recorded; claims that do not survive become unclear."""
    names = list(verdicts)
    m = len(names)
    adjusted = adjusted_pvalues([_pvalue(verdicts[b]) for b in names], method)
    alpha = 1.0 - confidence
    out = {}
    for bench, p_adj in zip(names, adjusted, strict=True):
        v = verdicts[bench]
        control = {"method": method, "benchmarks": m, "pvalue": p_adj, "level": alpha}
        details = {**v.details, "suite_control": control}
        if v.outcome in (FASTER, SLOWER) and p_adj >= alpha:
            first = (f"not significant over the {m} benchmarks (adjusted p = {p_adj:.2g}, {SHORT[method]}): "
                     f"{v.reasons[0] if v.reasons else v.outcome}")
            details["flags"] = [*details.get("flags", []), "suite"]
            details["unadjusted_outcome"] = v.outcome
            out[bench] = attrs.evolve(v, outcome=UNCLEAR, reasons=(first, *v.reasons[1:]), details=details)
        else:
            out[bench] = attrs.evolve(v, details=details)
    return out
