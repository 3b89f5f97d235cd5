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
A gap clear in either system cuts both systems' runs at its midpoint (the same modes, as the mode
rules fit both systems pooled once either has several); the dominant mode is the one most runs
of both share, compared as the mode rules' (:func:`.paths.modes`).
"""

from __future__ import annotations

import math

import numpy as np
import perfrigor as pr

from .shift import grid_of, resolution

#: fewer runs than this in a system, and the mode rules (a mixture's) do not look for modes: the gaps do
FOR_MIXTURES = 20
#: a gap is clear when it is at least this many times the runs' spread within the clusters it leaves
CLEAR_GAP = 8.0
#: and at least this far apart on the log scale (the mode rules' smallest gap between modes: 2%)
MIN_GAP = math.log1p(0.02)
#: the most gaps a system is cut at (three modes)
MAX_CUTS = 3
#: the fewest runs of each system the compared mode holds (Welch's test on 2 runs a side is liberal: 7.5% at 5%)
MODE_RUNS = 3


def clusters(logs: np.ndarray, rounding: float = 0.0) -> np.ndarray:
    """Each run's cluster (0, 1, ... in increasing order of value), cut at clear gaps; all 0 where there is none.

    Cuts at the j largest gaps (j = 1 .. MAX_CUTS, at least 2 degrees of freedom left), the j whose smallest
    cut gap is the most spreads wide, when that is ``CLEAR_GAP`` or more. ``rounding``: the grid step the
    values were read on (a coarse timer; log scale): its rounding variance step²/12 joins the spread
    (Sheppard), so that gaps of one or two whole ticks between identical readings are no modes."""
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
        within = float(np.sum((s - np.repeat(means, np.diff(edges))) ** 2)) / (n - j - 1) + rounding**2 / 12
        if within <= 0.0:
            continue
        ratio = smallest / math.sqrt(within)
        if ratio >= best:
            best, cuts = ratio, at
    if cuts is not None:
        labels[order] = np.searchsorted(cuts, np.arange(n), side="right")
    return labels


def cut_points(logs: np.ndarray, rounding: float = 0.0) -> np.ndarray:
    """Where a system's runs are cut into clusters: the midpoints of its clear gaps (log scale; empty: none)."""
    v = np.asarray(logs, dtype=float)
    labels = clusters(v, rounding)
    return np.array([(v[labels == k].max() + v[labels == k + 1].min()) / 2.0 for k in range(int(labels.max()))])


def small_modes(old: pr.Sample, new: pr.Sample, confidence: float) -> pr.ModeComparison | None:
    """The two systems' modes by clear gaps, as a ``pr.ModeComparison`` the verdict's modes path reads (None: no
    clear gap in either system, a timer's grid, or no mode with ``MODE_RUNS`` runs of each).

    A gap clear in one system cuts both (its midpoint): the other system's runs there may be too few, or its
    modes too close, for a gap of its own, and comparing one system's mode with all of the other's runs would
    read the other's share of slow runs as a change. Two cuts with no run of either system between them cut
    the same gap: one is kept."""
    x, y = old.flat, new.flat
    if resolution(np.concatenate([x, y])) is not None:  # values on a timer's common grid: gaps of whole ticks
        return None
    rounding = math.log1p(grid_of(x, y) or 0.0)  # or on grids of their own (shift.grid_of)
    lx, ly = np.log(x), np.log(y)
    cuts = np.sort(np.concatenate([cut_points(lx, rounding), cut_points(ly, rounding)]))
    if cuts.size == 0:
        return None
    both = np.concatenate([lx, ly])
    kept = [cuts[0]]
    for c in cuts[1:]:
        if np.any((both > kept[-1]) & (both < c)):
            kept.append(c)
    edges = np.array(kept)
    ax, ay = np.searchsorted(edges, lx), np.searchsorted(edges, ly)
    bins = edges.size + 1
    counts = np.array([np.bincount(ax, minlength=bins), np.bincount(ay, minlength=bins)])
    present = np.flatnonzero(counts.sum(axis=0) > 0)
    counts = counts[:, present]
    index = np.full(bins, -1)
    index[present] = np.arange(present.size)
    if np.minimum(counts[0], counts[1]).max() < MODE_RUNS:
        return None
    dominant = int(np.argmax(np.minimum(counts[0], counts[1])))
    modes = [pr.MatchedMode(
        baseline_location=float(np.median(x[ax == k])) if counts[0, i] else None,
        candidate_location=float(np.median(y[ay == k])) if counts[1, i] else None,
        baseline_share=counts[0, i] / x.size, candidate_share=counts[1, i] / y.size,
        baseline_runs=int(counts[0, i]), candidate_runs=int(counts[1, i])) for i, k in enumerate(present)]
    return pr.ModeComparison(
        estimate=None, ci_low=None, ci_high=None, pvalue=None, significant=None,
        kind="shared", modes=tuple(modes), dominant=dominant, shares_pvalue=pr.stats.shares_pvalue(counts),
        baseline_modes=tuple(int(i) for i in index[ax]), candidate_modes=tuple(int(i) for i in index[ay]),
        confidence=confidence, verdict=f"{len(modes)} modes separated by clear gaps")
