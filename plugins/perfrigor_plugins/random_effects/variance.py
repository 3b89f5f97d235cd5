"""Estimator ``variance-components``: S_i² and T_i² per level (Kalibera & Jones §6.1, §7.6)."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import perfrigor as pr

from ._input import prepare, warmup_param


@attrs.frozen(kw_only=True)
class VarianceComponents(pr.Result):
    """Per-level variance estimates, every list **lowest level first** (as in the paper).

    ``S2``: the naive estimators S_i²; ``T2``: the unbiased variance components
    T_i² (may be negative above level 1); ``share``: each level's share of the
    variance of one measurement, Σ σ_i², from T² clipped at 0 (None when there is
    no variance at all); ``drop``: names of the levels whose T_i² <= 0, which the
    paper advises removing from the experiment.
    """

    levels: tuple[str, ...]
    counts: tuple[int, ...]
    S2: tuple[float, ...]
    T2: tuple[float, ...]
    share: tuple[float, ...] | None
    drop: tuple[str, ...]
    mean: float
    details: dict[str, Any] = attrs.field(factory=dict)

    def describe(self) -> str:
        parts = []
        for i, (name, t2) in enumerate(zip(self.levels, self.T2, strict=True)):
            share = "" if self.share is None else f" ({self.share[i]:.0%})"
            parts.append(f"{name} {t2:.4g}{share}")
        text = "variance components T² (lowest level first): " + ", ".join(parts)
        if self.drop:
            text += f"; T² <= 0 at {', '.join(self.drop)}: drop (repeat once) and re-estimate"
        return text

    def plot_layers(self, sample: Any) -> list:
        """The variance components per level (T² clipped at 0 when drawn), top level first."""
        return [pr.drawing.LevelVariances(self.levels[::-1], self.T2[::-1], "variance components T²")]


@attrs.define(repr=False)
class VarianceComponentsEstimator(pr.Estimator):
    """Variance of each level of a hierarchical sample: S_i² and unbiased T_i² (Kalibera & Jones)."""

    name: ClassVar[str] = "variance-components"
    describes: ClassVar[bool] = True

    warmup: int = warmup_param()

    def estimate(self, sample: Any) -> VarianceComponents:
        data = prepare(sample, self.warmup, component=self.name)
        stats = pr.hierarchy.level_statistics(data.values, data.names[::-1])
        warnings = []
        drop = []
        for i in stats.nonpositive_levels():
            name, below = data.names[i - 1], data.names[i - 2]
            drop.append(name)
            how = (f"one {name} only, its {below}s becoming the top-level units" if i == stats.n_levels
                   else f"one {name} per {data.names[i]}, its {below}s pooled")
            warnings.append(
                f"{data.label}: T² of level {i} ({name!r}) is {stats.T2[i - 1]:.4g} <= 0: it adds little "
                f"variation beyond the {below!r} level; drop it ({how}) and re-estimate, as Kalibera & "
                "Jones §6.1 advise")
        positive = [max(t, 0.0) for t in stats.T2]
        total = sum(positive)
        if total > 0:
            share = tuple(t / total for t in positive)
        else:
            share = None
            warnings.append(f"{data.label}: every measurement is equal ({stats.grand_mean:.6g}): "
                            "there is no variance to attribute to levels")
        relative = ([100.0 * s ** 0.5 / abs(stats.grand_mean) for s in stats.S2]
                    if stats.grand_mean != 0 else None)
        details = {
            "n_levels": stats.n_levels,
            "variance_of_mean": stats.variance_of_mean,
            # Table VII of the paper: 100 * sqrt(S_i²) / mean, per level
            "relative_variation_percent": relative,
            **data.warmup_note(),
        }
        return VarianceComponents(
            levels=data.names, counts=stats.counts, S2=stats.S2, T2=stats.T2, share=share,
            drop=tuple(drop), mean=stats.grand_mean, details=details, warnings=tuple(warnings))
