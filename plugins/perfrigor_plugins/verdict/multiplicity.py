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
not reach the level becomes "unclear", and says so; every interval is given at the level that
makes it agree with the decisions (:func:`interval_level`; :mod:`.suite_control`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

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


def interval_level(method: str, confidence: float, pvalues: Sequence[float]) -> tuple[float, int]:
    """The level at which every interval of a suite is the dual of the suite's decisions, and the changes found.

    Under Benjamini-Hochberg, Benjamini & Yekutieli's false-coverage-rate level 1 - max(R, 1) q / m
    (``pr.stats.false_coverage_confidence``); under Holm, 1 - q / (m - R), its last step's level (the
    changes found have p-values below it, the others above); under none, ``confidence``.
    """
    import perfrigor as pr

    m = len(pvalues)
    q = 1.0 - confidence
    found = int(sum(p < q for p in adjusted_pvalues(pvalues, method)))
    if method == "none" or m < 2:
        return confidence, found
    if method == "holm":
        return 1.0 - q / max(m - found, 1), found
    return pr.stats.false_coverage_confidence(pvalues, confidence)
