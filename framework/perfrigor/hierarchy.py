"""Hierarchical (multi-level) samples: level means and the Kalibera & Jones variance estimators.

Shared by the random-effects and ratio plugins, and public for third-party plugins.

Conventions (Kalibera & Jones, "Quantifying performance changes with effect size
confidence intervals", §6.1 and §7):

* Data are balanced arrays of shape ``(n_top, ..., n_lowest)``, outermost level
  first, as in :class:`perfrigor.Sample` (axis 0 is the top level).
* Levels are numbered as in the paper: level 1 is the lowest (the innermost
  repetition, e.g. iterations within one execution), level ``n + 1`` the top.
  Level ``i`` is array axis ``ndim - i``.
* Every per-level list returned here is ordered **lowest level first**
  (``[S_1², S_2², ..., S_{n+1}²]``), as in the paper.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from .data import Sample, as_array
from .errors import ConfigError, DataError

__all__ = [
    "LevelStatistics", "PrunedHierarchy", "counts", "drop_nonpositive_levels", "drop_warmup",
    "grand_mean", "level_means", "level_names", "level_statistics", "level_variances",
    "merge_level", "predicted_variance_of_mean", "top_means", "variance_components",
    "variance_of_mean",
]


def _values(values: Any) -> np.ndarray:
    """A validated float array from a Sample or an array-like (balanced, finite)."""
    return values.values if isinstance(values, Sample) else as_array(values)


def _check_level(level: int, ndim: int) -> int:
    if isinstance(level, bool) or not isinstance(level, int | np.integer) or not 1 <= level <= ndim:
        raise ConfigError(f"level must be an integer from 1 (lowest) to {ndim} (top), got {level!r}")
    return int(level)


def counts(values: Any) -> tuple[int, ...]:
    """Repetition counts ``(n_1, ..., n_{n+1})``, lowest level first."""
    return tuple(int(k) for k in _values(values).shape[::-1])


def level_names(values: Any, names: Sequence[str] | None = None) -> list[str]:
    """Level names lowest first (from a Sample's ``levels``, ``names`` outermost first, or ``level<i>``)."""
    y = _values(values)
    if names is None and isinstance(values, Sample):
        names = values.levels
    if names is None:
        return [f"level {i}" for i in range(1, y.ndim + 1)]
    if len(names) != y.ndim:
        raise ConfigError(f"{len(names)} level names {tuple(names)} for data with {y.ndim} level(s)")
    return list(names)[::-1]


def level_means(values: Any, level: int) -> np.ndarray:
    """Mean of every unit at ``level``: the average over all levels below it.

    Level 1 gives the measurements themselves, level 2 the execution means (one
    per execution), level ``n + 1`` the top-level unit means (shape ``(n_top,)``).
    """
    y = _values(values)
    level = _check_level(level, y.ndim)
    if level == 1:
        return y.copy()
    return y.mean(axis=tuple(range(y.ndim - level + 1, y.ndim)))


def top_means(values: Any) -> np.ndarray:
    """Mean of each top-level unit (the values themselves for flat data)."""
    y = _values(values)
    return y.reshape(y.shape[0], -1).mean(axis=1)


def grand_mean(values: Any) -> float:
    """The arithmetic mean of all measurements (eq. 4; the mean of the top means when balanced)."""
    return float(_values(values).mean())


def level_variances(values: Any, names: Sequence[str] | None = None) -> np.ndarray:
    """The naive per-level variance estimators ``[S_1², ..., S_{n+1}²]`` (lowest first).

    ``S_i²``: average over the levels below ``i`` (M), sample variance with
    denominator ``k - 1`` across the units of level ``i`` under each parent (V),
    then the mean of those variances over all parents (M) — Table II of the paper.
    ``S_{n+1}²`` is the sample variance of the top-level means. For flat data this
    is the one sample variance.
    """
    y = _values(values)
    n = counts(y)
    single = [i for i, k in enumerate(n, start=1) if k < 2]
    if single:
        i = single[0]
        name = level_names(values, names)[i - 1]
        raise DataError(f"level {i} ({name!r}) has {n[i - 1]} unit per parent: its variance cannot be "
                        "estimated (at least 2 are needed; remove the level or repeat it)")
    out = np.empty(y.ndim)
    for i in range(1, y.ndim + 1):  # one vectorised reduction per level
        out[i - 1] = level_means(y, i).var(axis=-1, ddof=1).mean()
    return out


def variance_components(values: Any, names: Sequence[str] | None = None) -> np.ndarray:
    """The unbiased variance components ``[T_1², ..., T_{n+1}²]`` (lowest first).

    ``T_1² = S_1²`` and ``T_i² = S_i² - S_{i-1}² / n_{i-1}`` (§6.1, §7.6: the
    correction uses S, not T, of the level below). ``T_i²`` estimates ``σ_i²``
    without bias and may be negative for ``i > 1``: the level then induces
    little variation and can be removed (see :func:`drop_nonpositive_levels`).
    """
    return _unbiased(level_variances(values, names), counts(values))


def _unbiased(s2: np.ndarray, n: Sequence[int]) -> np.ndarray:
    """T_1² = S_1², T_i² = S_i² - S_{i-1}² / n_{i-1}."""
    t2 = s2.copy()
    t2[1:] -= s2[:-1] / np.asarray(n[:-1], dtype=float)
    return t2


def variance_of_mean(values: Any) -> float:
    """Unbiased estimate of var(Ȳ): ``S_{n+1}² / n_{n+1}``, from the top-level means only (§7.6)."""
    means = top_means(values)
    if means.size < 2:
        raise DataError("one top-level unit: the variance of the mean cannot be estimated (at least 2 needed)")
    return float(means.var(ddof=1) / means.size)


def predicted_variance_of_mean(variances: Sequence[float], counts: Sequence[float]) -> float:
    """var(Ȳ) = Σ_i σ_i² / ∏_{k>=i} n_k (eq. 10), both lists lowest level first.

    Used to predict the precision of a planned experiment from variance estimates.
    """
    s = np.asarray(variances, dtype=float)
    n = np.asarray(counts, dtype=float)
    if s.shape != n.shape or s.ndim != 1:
        raise ConfigError(f"{s.size} variances for {n.size} repetition counts: give one of each per level")
    if np.any(n <= 0):
        raise ConfigError(f"repetition counts must be positive, got {n.tolist()}")
    products = np.cumprod(n[::-1])[::-1]  # ∏_{k=i}^{n+1} n_k for each i
    return float(np.sum(s / products))


def merge_level(values: Any, level: int) -> np.ndarray:
    """Remove ``level`` (2 <= level <= n+1) by pooling: its units' children join one parent.

    The units of level ``level - 1`` become direct children of level ``level + 1``
    (for the top level: they become the top-level units). This is how the paper
    drops a level whose T² <= 0 (Table III -> Table IV: 3 binaries x 2 executions
    x 2 measurements become 3 binaries x 4 measurements).
    """
    y = _values(values)
    level = _check_level(level, y.ndim)
    if level == 1:
        raise ConfigError("the lowest level (1) cannot be merged into a level below it")
    axis = y.ndim - level
    shape = y.shape[:axis] + (y.shape[axis] * y.shape[axis + 1],) + y.shape[axis + 2:]
    return y.reshape(shape)


def drop_warmup(values: Any, warmup: int) -> np.ndarray:
    """Drop the first ``warmup`` measurements of every execution (the lowest level, last axis).

    The paper (§6.1) leaves finding this count (c_1) to the experimenter.
    """
    y = _values(values)
    if isinstance(warmup, bool) or not isinstance(warmup, int | np.integer) or warmup < 0:
        raise ConfigError(f"warmup must be an integer >= 0, got {warmup!r}")
    if warmup >= y.shape[-1]:
        raise DataError(f"warmup {warmup} drops every one of the {y.shape[-1]} measurements per "
                        f"{'execution' if y.ndim > 1 else 'sample'}; at least one must remain")
    return y[..., warmup:]


@attrs.frozen(kw_only=True)
class LevelStatistics:
    """Per-level statistics of a balanced sample, every list lowest level first."""

    names: tuple[str, ...]
    counts: tuple[int, ...]
    S2: tuple[float, ...]
    T2: tuple[float, ...]
    grand_mean: float
    variance_of_mean: float

    @property
    def n_levels(self) -> int:
        return len(self.counts)

    def nonpositive_levels(self) -> list[int]:
        """Levels i > 1 whose T_i² <= 0 (candidates for removal)."""
        return [i for i, t in enumerate(self.T2, start=1) if i > 1 and t <= 0]


def level_statistics(values: Any, names: Sequence[str] | None = None) -> LevelStatistics:
    """S_i², T_i², counts, the grand mean and var(Ȳ) of a balanced sample in one call."""
    y = _values(values)
    s2 = level_variances(values, names)
    n = counts(y)
    t2 = _unbiased(s2, n)
    return LevelStatistics(
        names=tuple(level_names(values, names)), counts=n, S2=tuple(float(v) for v in s2),
        T2=tuple(float(v) for v in t2), grand_mean=float(y.mean()),
        variance_of_mean=float(s2[-1] / n[-1]),
    )


@attrs.frozen(kw_only=True)
class PrunedHierarchy:
    """The result of :func:`drop_nonpositive_levels`.

    ``values``: the pooled data; ``kept``: original level numbers still present
    (lowest first); ``dropped``: one record per removal, in order, with the
    statistics that justified it; ``statistics``: the statistics of the pooled data.
    """

    values: np.ndarray
    kept: tuple[int, ...]
    dropped: tuple[dict[str, Any], ...]
    statistics: LevelStatistics


def drop_nonpositive_levels(values: Any, names: Sequence[str] | None = None) -> PrunedHierarchy:
    """Iteratively remove levels whose T_i² <= 0 and re-estimate (§6.1, §7.6).

    The paper says to remove such levels iteratively but not in which order when
    several qualify; we remove the **lowest** one first, because removing level
    ``i`` changes only T² of the levels next to it, then recompute everything on
    the pooled data and repeat until every T_i² (i > 1) is positive or one level is left.
    """
    y = _values(values)
    all_names = level_names(values, names)
    kept = list(range(1, y.ndim + 1))
    dropped: list[dict[str, Any]] = []
    while True:
        stats = level_statistics(y, [all_names[k - 1] for k in kept][::-1])
        bad = stats.nonpositive_levels()
        if not bad:
            break
        i = bad[0]
        original = kept[i - 1]
        dropped.append({"level": original, "name": all_names[original - 1], "T2": stats.T2[i - 1],
                        "S2": list(stats.S2), "T2_before": list(stats.T2), "counts_before": list(stats.counts)})
        y = merge_level(y, i)
        del kept[i - 1]
        if y.ndim == 1:
            stats = level_statistics(y, [all_names[kept[0] - 1]])
            break
    return PrunedHierarchy(values=y, kept=tuple(kept), dropped=tuple(dropped), statistics=stats)
