"""Modes of a fitted mixture, and how two systems' modes correspond.

A mixture's components are not its modes: BIC often splits one hump into two
overlapping normals, and precise timers show micro-modes a fraction of a percent
apart. A *mode* here is a group of adjacent components (sorted by mean) that no
clear gap separates: two neighbours start a new mode when they are well separated
(Ashman's D >= ``separation``) and apart by at least ``min_gap`` of their location.
Runs are assigned to modes by their MAP component.
"""

from __future__ import annotations

import attrs
import numpy as np

from .mixture import Mixture

#: Ashman's D between neighbouring components above which they are distinct modes (D > 2 is the
#: usual threshold for a clean separation of two normals; 3 leaves no doubt)
SEPARATION = 3.0
#: neighbouring components closer than this share of their location are one mode for performance
#: purposes (micro-modes of a precise timer)
MIN_GAP = 0.02
#: fewest runs a mixture component needs (the default of ``min_component_runs``): K is searched up to
#: n // 5, so 10 runs get at most 2 components, 30 runs 6. A normal component is three numbers (weight,
#: mean, sd); below about 5 runs each, BIC's large-sample penalty no longer holds back components that
#: fit single runs (mclust gives 10 runs 9 components of one run each). The large samples of the
#: mclust cross-checks (n >= 31) are fitted exactly as mclust fits them.
MIN_COMPONENT_RUNS = 5
#: a group of components holding fewer runs than this is a few outliers, not a mode: it joins the
#: nearest mode (the same minimum as a component's)
MIN_MODE_RUNS = MIN_COMPONENT_RUNS
#: fewer runs than this per system, and a mixture's components say more about noise than modes
MIN_RUNS_FOR_MODES = 20
#: several modes are a finding only when the mixture's BIC beats one normal's by this much: "very strong"
#: evidence on Kass & Raftery's scale (BIC ~ 2 log marginal likelihood). Unimodal runs with a chance gap
#: gain less (30 skewed runs: at most 12 in 200 seeds, 9 of them below 6); two real modes gain 70 and more
MIN_BIC_GAIN = 10.0


@attrs.frozen
class Mode:
    """One mode: its components (indices in the mixture, sorted by mean), location and weight."""

    components: tuple[int, ...]
    location: float
    weight: float


def ashman_d(m1: float, s1: float, m2: float, s2: float) -> float:
    """Ashman's D = |m1 - m2| / sqrt((s1² + s2²) / 2): how far apart two normals are."""
    spread = np.sqrt((s1 * s1 + s2 * s2) / 2.0)
    return float(abs(m1 - m2) / spread) if spread > 0 else float("inf")


def group_modes(mix: Mixture, n: int, separation: float = SEPARATION, min_gap: float = MIN_GAP,
                min_runs: int = MIN_MODE_RUNS) -> list[Mode]:
    """The modes of a mixture fitted to ``n`` runs: separated groups of components, each of ``min_runs`` or more."""
    order = np.argsort(mix.means, kind="stable")
    groups: list[list[int]] = [[int(order[0])]]
    for a, b in zip(order[:-1], order[1:], strict=True):
        d = ashman_d(mix.means[a], mix.sds[a], mix.means[b], mix.sds[b])
        base = min(abs(mix.means[a]), abs(mix.means[b]))
        gap = abs(mix.means[b] - mix.means[a]) / base if base > 0 else float("inf")
        if d >= separation and gap >= min_gap:
            groups.append([int(b)])
        else:
            groups[-1].append(int(b))
    modes = [_mode(mix, g) for g in groups]
    while len(modes) > 1:
        small = min(range(len(modes)), key=lambda i: modes[i].weight)
        if modes[small].weight * n >= min_runs:
            break
        # a few outliers: they join the neighbouring mode nearest to them
        near = [i for i in (small - 1, small + 1) if 0 <= i < len(modes)]
        into = min(near, key=lambda i: abs(modes[i].location - modes[small].location))
        merged = _mode(mix, [*modes[into].components, *modes[small].components])
        modes = [m for i, m in enumerate(modes) if i not in (small, into)]
        modes.insert(min(small, into), merged)
    return modes


def supported_modes(mix: Mixture, n: int, bic_gain: float, separation: float = SEPARATION,
                    min_gap: float = MIN_GAP, min_runs: int = MIN_MODE_RUNS) -> list[Mode]:
    """The modes that are findings: ``group_modes``, and one mode when the split is not supported.

    ``bic_gain`` is how much the mixture's BIC beats one normal's; below ``MIN_BIC_GAIN``
    separated groups are a chance gap in the runs, not modes. The caller decides whether
    ``n`` runs are enough to look for modes at all (``MIN_RUNS_FOR_MODES``).
    """
    modes = group_modes(mix, n, separation, min_gap, min_runs)
    if len(modes) > 1 and bic_gain < MIN_BIC_GAIN:
        return [_mode(mix, range(mix.n_components))]
    return modes


def peak(mix: Mixture, mode: Mode, maxima: np.ndarray) -> float:
    """Where a mode's density is highest: the tallest of the density's maxima (``Mixture.modes()``) whose
    MAP component is one of the mode's, else the mode's weighted mean (a broad component's mean is not
    where the runs are: one tall narrow component beside it is)."""
    maxima = np.asarray(maxima, dtype=float)
    inside = maxima[np.isin(mix.classify(maxima), mode.components)] if maxima.size else maxima
    return float(inside[np.argmax(mix.pdf(inside))]) if inside.size else mode.location


def _mode(mix: Mixture, components: list[int] | tuple[int, ...] | range) -> Mode:
    w = mix.weights[list(components)]
    return Mode(tuple(sorted(components)), float(w @ mix.means[list(components)] / w.sum()), float(w.sum()))


def assign(mix: Mixture, modes: list[Mode], values: np.ndarray) -> np.ndarray:
    """The index of each value's mode (its MAP component's mode)."""
    of_component = np.empty(mix.n_components, dtype=int)
    for i, mode in enumerate(modes):
        of_component[list(mode.components)] = i
    return of_component[mix.classify(values)]
