"""Modes of runs too few for a mixture: clusters that a clear gap separates (below the mode rules' 20 runs).

A mixture needs about 20 runs a system to tell modes from noise (``mode-comparison``); below,
the verdict compared multimodal runs as one mode, where a slow mode's share, which moves from
session to session, reads as a change of the typical run (Mann-Whitney: 14% A/A false alarms
on ``session-modes`` at 10 runs) and a true change within the modes is lost in their spread.
A few runs can still show modes that a gap separates by far more than the runs' noise: each
system's log values, sorted, are cut at their one to three largest gaps where the smallest of
those gaps is at least ``CLEAR_GAP`` times the runs' spread within the clusters it leaves (the
pooled standard deviation, the clusters' means fitted) and at least ``MIN_GAP`` apart (as the
mode rules' 2%). The rule reads each system's runs on their own, never the shift between
them; a gap of 8 such spreads occurs in 0.3% of 10 independent normal runs, 2% of Student t3
(an outlier split off its system's bulk), and in most runs with two modes 15% or more apart.
Clusters of the two systems are the same mode when their medians are closer than half the
smallest gap that separates clusters; the dominant mode is the one most runs of both share,
compared as the mode rules' (:func:`.paths.modes`).
"""

from __future__ import annotations

import math

import numpy as np
import perfrigor as pr

from .shift import resolution

#: fewer runs than this in a system, and the mode rules (a mixture's) do not look for modes: the gaps do
FOR_MIXTURES = 20
#: a gap is clear when it is at least this many times the runs' spread within the clusters it leaves
CLEAR_GAP = 8.0
#: and at least this far apart on the log scale (the mode rules' smallest gap between modes: 2%)
MIN_GAP = math.log1p(0.02)
#: the most gaps a system is cut at (three modes)
MAX_CUTS = 3


def clusters(logs: np.ndarray) -> np.ndarray:
    """Each run's cluster (0, 1, ... in increasing order of value), cut at clear gaps; all 0 where there is none.

    Cuts at the j largest gaps (j = 1 .. MAX_CUTS, at least 2 degrees of freedom left), the j whose smallest
    cut gap is the most spreads wide, when that is ``CLEAR_GAP`` or more."""
    v = np.asarray(logs, dtype=float)
    n = v.size
    labels = np.zeros(n, dtype=np.int64)
    order = np.argsort(v, kind="stable")
    s = v[order]
    gaps = np.diff(s)
    widest = np.argsort(gaps, kind="stable")[::-1]
    best, cuts = CLEAR_GAP, None
    for j in range(1, min(MAX_CUTS, n - 3) + 1):
        smallest = gaps[widest[j - 1]]
        if smallest < MIN_GAP:
            break
        at = np.sort(widest[:j]) + 1
        edges = np.concatenate(([0], at, [n]))
        sums = np.add.reduceat(s, edges[:-1])
        means = sums / np.diff(edges)
        within = float(np.sum((s - np.repeat(means, np.diff(edges))) ** 2)) / (n - j - 1)
        if within <= 0.0:
            continue
        ratio = smallest / math.sqrt(within)
        if ratio >= best:
            best, cuts = ratio, at
    if cuts is not None:
        labels[order] = np.searchsorted(cuts, np.arange(n), side="right")
    return labels


def small_modes(old: pr.Sample, new: pr.Sample, confidence: float) -> pr.ModeComparison | None:
    """The two systems' modes by clear gaps, as a ``pr.ModeComparison`` the verdict's modes path reads (None: no
    clear gap in either system, a timer's grid, or no mode with 2 runs of each)."""
    x, y = old.flat, new.flat
    if resolution(np.concatenate([x, y])) is not None:  # values on a timer's grid: gaps of whole ticks
        return None
    lx, ly = np.log(x), np.log(y)
    ax, ay = clusters(lx), clusters(ly)
    if ax.max() == 0 and ay.max() == 0:
        return None
    cx = [float(np.median(lx[ax == k])) for k in range(ax.max() + 1)]
    cy = [float(np.median(ly[ay == k])) for k in range(ay.max() + 1)]
    cut_gaps = [_gap(lx, ax, k) for k in range(ax.max())] + [_gap(ly, ay, k) for k in range(ay.max())]
    near = min(cut_gaps) / 2.0
    pairs = []  # modes: (baseline cluster or None, candidate cluster or None)
    taken: set[int] = set()
    for a, c in enumerate(cx):
        b = min(range(len(cy)), key=lambda k: abs(cy[k] - c))
        if abs(cy[b] - c) < near and b not in taken:
            pairs.append((a, b))
            taken.add(b)
        else:
            pairs.append((a, None))
    pairs += [(None, b) for b in range(len(cy)) if b not in taken]
    pairs.sort(key=lambda p: cx[p[0]] if p[0] is not None else cy[p[1]])
    counts = np.array([[int((ax == a).sum()) if a is not None else 0 for a, _ in pairs],
                       [int((ay == b).sum()) if b is not None else 0 for _, b in pairs]])
    both = np.minimum(counts[0], counts[1])
    if both.max() < 2:
        return None
    dominant = int(np.argmax(both))
    modes = [pr.MatchedMode(
        baseline_location=float(np.median(x[ax == a])) if a is not None else None,
        candidate_location=float(np.median(y[ay == b])) if b is not None else None,
        baseline_share=counts[0, i] / x.size, candidate_share=counts[1, i] / y.size,
        baseline_runs=int(counts[0, i]), candidate_runs=int(counts[1, i])) for i, (a, b) in enumerate(pairs)]
    index_x = {a: i for i, (a, _) in enumerate(pairs) if a is not None}
    index_y = {b: i for i, (_, b) in enumerate(pairs) if b is not None}
    return pr.ModeComparison(
        estimate=None, ci_low=None, ci_high=None, pvalue=None, significant=None,
        kind="shared", modes=tuple(modes), dominant=dominant, shares_pvalue=_shares_pvalue(counts),
        baseline_modes=tuple(index_x[int(a)] for a in ax), candidate_modes=tuple(index_y[int(b)] for b in ay),
        confidence=confidence, verdict=f"{len(modes)} modes separated by clear gaps")


def _gap(logs: np.ndarray, labels: np.ndarray, k: int) -> float:
    """The gap between cluster k and cluster k + 1."""
    return float(logs[labels == k + 1].min() - logs[labels == k].max())


def _shares_pvalue(counts: np.ndarray) -> float | None:
    """Do the systems' shares of the modes differ (Fisher's exact test for two modes, else chi-square)?"""
    from scipy import stats as sps
    if counts.shape[1] < 2:
        return None
    if counts.shape[1] == 2:
        return float(sps.fisher_exact(counts).pvalue)
    return float(sps.chi2_contingency(counts).pvalue)
