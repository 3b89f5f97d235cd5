"""Estimator ``mean-ci``: the mean of one system with a confidence interval (Kalibera & Jones §6.2, §7.2).

``method="t"``: Ȳ ± t_{1-α/2, ν} · sqrt(S_{n+1}² / n_{n+1}) with ν = n_{n+1} - 1, i.e. a
one-sample t-interval on the top-level unit means (the paper's recommended, conservative
"asymptotic" interval). ``method="bootstrap"``: the percentile interval of hierarchical
bootstrap replicate means (resampling at every level, Fig. 1), from ``pr.resampling``.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import attrs
import numpy as np
import perfrigor as pr

from ._input import prepare, warmup_param

#: memory held per bootstrap replicate: its mean, and the copy the percentile interval partitions
REPLICATE_BYTES = 16


def _check_resampling(instance: Any, attribute: attrs.Attribute, value: str) -> None:
    word = value.strip().lower() if isinstance(value, str) else None
    if word in ("all", "top", "flat") or (word and set(word) <= {"r", "n"}):
        return
    raise ValueError(f"{attribute.name} must be 'all', 'top', 'flat' or R/N letters, one per level "
                     f"top first (e.g. 'RRN'), got {value!r}")


@attrs.frozen(kw_only=True)
class MeanEstimate(pr.Estimate):
    """``mean-ci``'s result: an Estimate that reads as a sentence (mean, unit, interval, how)."""

    def describe(self) -> str:
        d = self.details
        how = ("t interval" if d.get("method") == "t" else "hierarchical bootstrap") + \
            f", {d.get('n_top')} {d.get('top_level')}s"
        rel = d.get("relative_half_width")
        pm = f" (± {100 * rel:.3g}%)" if rel is not None else ""
        q = pr.display.quantity
        unit = d.get("unit") or ""
        return (f"mean {q(self.estimate, unit)}, {self.confidence:.0%} CI {q(self.ci_low, unit)} to "
                f"{q(self.ci_high, unit)}{pm}; {how}")

    def interval_at(self, confidence: float) -> tuple[float, float] | None:
        """The t interval at another level (``confidence_interval(0.99)``): mean ± t quantile x standard
        error, both kept in ``details``; None for a bootstrap interval (its replicates are not kept)."""
        from scipy import stats

        d = self.details
        if d.get("method") != "t" or self.estimate is None:
            return None
        half = float(stats.t.ppf(0.5 + confidence / 2, d["dof"])) * d["std_error"]
        return (self.estimate - half, self.estimate + half)

    def plot_layers(self, sample: Any) -> list:
        """The mean and its interval, drawn below the sample's distribution."""
        if self.estimate is None:
            return []
        return [pr.drawing.Interval(self.estimate, self.ci_low, self.ci_high, f"mean, {self.confidence:.0%} CI")]


@attrs.define(repr=False)
class MeanCI(pr.Estimator):
    """Mean of one system with its t or hierarchical-bootstrap confidence interval (Kalibera & Jones)."""

    name: ClassVar[str] = "mean-ci"
    describes: ClassVar[bool] = True

    confidence: float = pr.confidence_param(help="level of the interval of the mean")
    method: str = pr.choice_param("t", "bootstrap",
                                  help="'t' interval on top-level means or hierarchical 'bootstrap'")
    n_bootstrap: int = pr.int_param(10_000, minimum=100, bytes_each=REPLICATE_BYTES,
                                    help="bootstrap replicates (method 'bootstrap')")
    random_state: Any = pr.random_state_param()
    #: bootstrap variant: "all" levels resampled (the paper's RRR), "top", "flat" or R/N letters
    resampling: str = attrs.field(default="all", validator=_check_resampling, metadata={
        "help": "levels resampled: 'all' (the paper's RRR), 'top', 'flat', or an R/N pattern"})
    warmup: int = warmup_param()

    def estimate(self, sample: Any) -> pr.Estimate:
        from scipy import stats
        data = prepare(sample, self.warmup, component=self.name)
        y = data.values
        means = pr.hierarchy.top_means(y)
        n_top = means.size
        top = data.names[-1]
        if n_top < 2:
            raise pr.DataError(f"{data.label}: one {top!r} unit: a confidence interval of the mean needs at "
                               f"least 2 top-level units (the top level's variance is unknown otherwise)")
        mean = float(y.mean())
        s2_top = float(means.var(ddof=1))
        std_error = math.sqrt(s2_top / n_top)
        details: dict[str, Any] = {
            "method": self.method, "n_top": n_top, "top_level": top, "levels": list(data.names),
            "counts": list(pr.hierarchy.counts(y)), "n": int(y.size),
            "S2_top": s2_top, "std_error": std_error, "unit": data.sample.unit, **data.warmup_note(),
        }
        warnings = []
        if s2_top == 0:
            warnings.append(f"{data.label}: the {n_top} {top} means are all equal: the interval has zero "
                            "width, which says nothing about variation between further units")
        if self.method == "t":
            dof = n_top - 1
            quantile = float(stats.t.ppf(0.5 + self.confidence / 2, dof))
            half = quantile * std_error
            low, high = mean - half, mean + half
            details.update(dof=dof, t_quantile=quantile)
        else:
            reps = pr.resampling.bootstrap_means(y, self.n_bootstrap, self.random_state,
                                                 levels=self.resampling)
            low, high = pr.resampling.percentile_interval(reps, self.confidence)
            half = (high - low) / 2
            details.update(n_bootstrap=self.n_bootstrap, resampling=self.resampling,
                           bootstrap_sd=float(np.std(reps, ddof=1)))
        details["half_width"] = half
        details["relative_half_width"] = half / abs(mean) if mean != 0 else None
        return MeanEstimate(estimate=mean, ci_low=float(low), ci_high=float(high),
                           confidence=self.confidence, details=details, warnings=tuple(warnings))
