"""The paper's single-run comparison metrics as comparators: I1, I2, I3 (section 6).

Each computes the non-parametric (raw samples) and the parametric (fitted
mixtures) estimate; ``estimator`` chooses which is the headline, the other is
in ``details``. The paper found neither more precise (MSE ratios close to 1,
section 6.5), so the default is "nonparametric": it does not depend on the
mixture fitting well (KSfit rejected 17% of the paper's real samples).

How ``Comparison.estimate`` honours the contract (docs/methods/gmm.md):
``prob-faster`` and ``prob-fastest`` are ``estimate_kind = "probability"``:
the estimate is the probability that a candidate run is faster (>0.5:
candidate better). I1 = E|X - Y| has no direction, so ``mean-difference``
keeps the default kind: its estimate is the speedup of the means, and I1 is
in ``details`` and in the verdict.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs
import numpy as np
import perfrigor as pr

from . import metrics
from .estimator import max_components_param, min_component_runs_param, model_param

if TYPE_CHECKING:
    from .mixture import Mixture
    from .results import MixtureFit


@attrs.frozen
class _Side:
    """One system ready for the metrics: values and mixture oriented so that lower is better.

    ``mixture`` and ``fit`` are None when no mixture can be fitted (too few distinct
    values) and only the non-parametric estimate was asked for; ``why`` says why.
    """

    sample: pr.Sample
    values: np.ndarray
    mixture: Mixture | None
    fit: MixtureFit | None
    why: str | None = None


def _oriented(samples: Mapping[str, Any], max_components: int, model: str,
              need_mixture: bool = True, min_component_runs: int = 1) -> dict[str, _Side]:
    from .fitting import fit_mixture  # (the EM engine is imported when a mixture is fitted)

    out = {}
    for name, obj in samples.items():
        try:
            s, x, fit = fit_mixture(obj, max_components, model, what=name, min_component_runs=min_component_runs)
        except pr.DataError as exc:
            if need_mixture:
                raise
            # the non-parametric metrics need no mixture: keep them, say why the parametric is missing
            s = pr.as_sample(obj, what=name)
            x, fit = np.asarray(s.flat, dtype=float), None
            out[name] = _Side(s, -x if not s.lower_is_better else x, None, None, f"{name}: {exc}")
            continue
        mix = fit.mixture()
        if not s.lower_is_better:
            x, mix = -x, mix.negated()
        out[name] = _Side(s, x, mix, fit)
    directions = {side.sample.lower_is_better for side in out.values()}
    if len(directions) > 1:
        raise pr.DataError(f"{', '.join(out)}: the samples disagree on lower_is_better; compare like with like")
    return out


def _mean_speedup(base: _Side, cand: _Side) -> tuple[float | None, list[str]]:
    """How many times faster the candidate's mean is (None when a mean is not positive)."""
    mb, mc = float(base.sample.flat.mean()), float(cand.sample.flat.mean())
    if mb <= 0 or mc <= 0:
        return None, [f"means {mb:g} and {mc:g}: a speedup needs positive values"]
    return (mb / mc if base.sample.lower_is_better else mc / mb), []


def _word(lower_is_better: bool) -> str:
    return "faster" if lower_is_better else "better (higher)"


@attrs.define(repr=False)
class _MixtureComparator(pr.Comparator):
    estimator: str = pr.choice_param("nonparametric", "parametric")
    max_components: int = max_components_param()
    model: str = model_param()
    min_component_runs: int = min_component_runs_param()

    @classmethod
    def prepare(cls, jobs: Sequence[pr.BenchmarkJob]) -> None:
        """The mixtures of the systems compared on every benchmark, fitted together (one batched EM)."""
        from .fitting import fit_jobs

        def systems(job: pr.BenchmarkJob) -> list[str]:
            if cls.multi_system and len(job.samples) > 2:
                return list(job.samples)
            return [job.baseline] + ([job.candidate] if job.candidate is not None else [])

        fit_jobs(jobs, systems)

    def _sides(self, samples: Mapping[str, Any]) -> dict[str, _Side]:
        return _oriented(samples, self.max_components, self.model, need_mixture=self.estimator == "parametric",
                         min_component_runs=self.min_component_runs)

    def _pick(self, parametric: Any, nonparametric: Any) -> tuple[Any, str, Any]:
        if self.estimator == "parametric":
            return parametric, "non-parametric", nonparametric
        return nonparametric, "parametric", parametric

    @staticmethod
    def _fitted(sides: Mapping[str, _Side]) -> bool:
        return all(side.mixture is not None for side in sides.values())

    @staticmethod
    def _warnings(sides: Mapping[str, _Side]) -> list[str]:
        out = [w for side in sides.values() if side.fit is not None for w in side.fit.warnings]
        out += [f"no parametric estimate: {side.why}" for side in sides.values() if side.why]
        return out

    @staticmethod
    def _fits(sides: Mapping[str, _Side]) -> dict[str, Any]:
        return {name: None if s.fit is None else
                {"n_components": s.fit.n_components, "model": s.fit.model, "modes": s.fit.modes,
                 "distinct_modes": len(s.fit.distinct_modes)}
                for name, s in sides.items()}


def _num(value: float | None, spec: str) -> str:
    return "n/a" if value is None else format(value, spec)


@attrs.define(repr=False)
class MeanDifference(_MixtureComparator):
    """I1 = E|X - Y|: how far apart single runs of the two versions are on average; estimate = mean speedup."""

    name: ClassVar[str] = "mean-difference"

    def compare(self, baseline: Any, candidate: Any) -> pr.Comparison:
        sides = self._sides({"baseline": baseline, "candidate": candidate})
        b, c = sides["baseline"], sides["candidate"]
        i1_np = metrics.mean_abs_difference(c.values, b.values)
        i1_p = metrics.mean_abs_difference_gm(c.mixture, b.mixture) if self._fitted(sides) else None
        value, other_name, other = self._pick(i1_p, i1_np)
        speedup, extra = _mean_speedup(b, c)
        unit = c.sample.unit
        diff = float(b.sample.flat.mean() - c.sample.flat.mean())
        speed = "n/a" if speedup is None else f"{speedup:.4g}x"
        u = f" {unit}" if unit else ""
        side = "lower" if diff > 0 else "higher" if diff < 0 else "equal"
        gap = f"{abs(diff):.4g}{u} {side} than the baseline's" if diff else "equal to the baseline's"
        verdict = (f"single runs of the two versions differ by {value:.4g}{u} on average "
                   f"(I1 = E|X - Y|, {self.estimator}; {other_name} {_num(other, '.4g')}); "
                   f"mean speedup {speed} (candidate mean {gap})")
        return pr.Comparison(
            estimate=speedup, ci_low=None, ci_high=None, confidence=None, pvalue=None, significant=None,
            verdict=verdict,
            details={"metric": "I1 = E|X - Y| (mean absolute difference of single runs)", "value": value,
                     "estimator": self.estimator, "parametric": i1_p, "nonparametric": i1_np,
                     "speedup": speedup, "mean_difference": diff, "unit": unit, "fits": self._fits(sides)},
            warnings=tuple(self._warnings(sides) + extra))


@attrs.define(repr=False)
class ProbFaster(_MixtureComparator):
    """I2 = P[a candidate run is faster than a baseline run (+ margin)], parametric and non-parametric."""

    name: ClassVar[str] = "prob-faster"
    estimate_kind: ClassVar[str] = "probability"
    margin: float = pr.float_param(0.0)
    ties: str = pr.choice_param("strict", "half")

    def compare(self, baseline: Any, candidate: Any) -> pr.Comparison:
        sides = self._sides({"baseline": baseline, "candidate": candidate})
        b, c = sides["baseline"], sides["candidate"]
        p_np = metrics.prob_less(c.values, b.values, self.margin, self.ties)
        p_p = metrics.prob_less_gm(c.mixture, b.mixture, self.margin) if self._fitted(sides) else None
        value, other_name, other = self._pick(p_p, p_np)
        speedup, extra = _mean_speedup(b, c)
        word = _word(c.sample.lower_is_better)
        unit = c.sample.unit
        cond = f"{word} than a baseline run" + (f" give or take a margin of {self.margin:g} {unit}"
                                                if self.margin else "")
        verdict = (f"a candidate run is {cond} with probability {value:.3f} "
                   f"(I2, {self.estimator}; {other_name} {_num(other, '.3f')})")
        return pr.Comparison(
            estimate=value, ci_low=None, ci_high=None, confidence=None, pvalue=None, significant=None,
            verdict=verdict,
            details={"metric": "I2 = P[candidate run faster than baseline run + margin]", "value": value,
                     "estimator": self.estimator, "parametric": p_p, "nonparametric": p_np,
                     "margin": self.margin, "ties": self.ties, "speedup": speedup, "unit": unit,
                     "fits": self._fits(sides)},
            warnings=tuple(self._warnings(sides) + extra))


@attrs.define(repr=False)
class ProbFastest(_MixtureComparator):
    """I3 = P[a system's run is the fastest of one run of each], for k >= 2 systems."""

    name: ClassVar[str] = "prob-fastest"
    estimate_kind: ClassVar[str] = "probability"
    multi_system: ClassVar[bool] = True
    ties: str = pr.choice_param("strict", "half")

    def _probabilities(self, sides: Mapping[str, _Side]) -> tuple[dict[str, float | None], dict[str, float]]:
        names = list(sides)
        par: dict[str, float | None] = {}
        nonpar: dict[str, float] = {}
        fitted = self._fitted(sides)
        for name in names:
            order = [name] + [o for o in names if o != name]
            par[name] = metrics.prob_smallest_gm([sides[o].mixture for o in order]) if fitted else None
            nonpar[name] = metrics.prob_smallest([sides[o].values for o in order], self.ties)
        return par, nonpar

    def compare(self, baseline: Any, candidate: Any) -> pr.Comparison:
        sides = self._sides({"baseline": baseline, "candidate": candidate})
        par, nonpar = self._probabilities(sides)
        value, other_name, other = self._pick(par["candidate"], nonpar["candidate"])
        speedup, extra = _mean_speedup(sides["baseline"], sides["candidate"])
        word = _word(sides["candidate"].sample.lower_is_better)
        verdict = (f"a candidate run is the {word.split()[0].replace('faster', 'fastest').replace('better', 'best')}"
                   f" of the two with probability {value:.3f} (I3, {self.estimator}; {other_name} {_num(other, '.3f')})")
        return pr.Comparison(
            estimate=value, ci_low=None, ci_high=None, confidence=None, pvalue=None, significant=None,
            verdict=verdict,
            details={"metric": "I3 = P[candidate run < every other system's run]", "value": value,
                     "estimator": self.estimator, "parametric": par["candidate"],
                     "nonparametric": nonpar["candidate"], "ties": self.ties, "speedup": speedup,
                     "fits": self._fits(sides)},
            warnings=tuple(self._warnings(sides) + extra))

    def compare_many(self, samples: Mapping[str, Any]) -> pr.Comparison:
        """I3 of every system in turn (they sum to 1 for continuous data); estimate = the largest."""
        if not isinstance(samples, Mapping) or len(samples) < 2:
            raise pr.ConfigError("prob-fastest.compare_many takes a mapping {system: sample} of >= 2 systems")
        sides = self._sides({str(k): v for k, v in samples.items()})
        par, nonpar = self._probabilities(sides)
        chosen = par if self.estimator == "parametric" else nonpar
        best = max(chosen, key=chosen.__getitem__)
        word = "fastest" if next(iter(sides.values())).sample.lower_is_better else "best"
        listing = ", ".join(f"{k} {v:.3f}" for k, v in sorted(chosen.items(), key=lambda kv: -kv[1]))
        verdict = (f"{best} has the highest probability ({chosen[best]:.3f}) of the {word} single run among "
                   f"{len(sides)} systems (I3, {self.estimator}: {listing})")
        return pr.Comparison(
            estimate=chosen[best], ci_low=None, ci_high=None, confidence=None, pvalue=None, significant=None,
            verdict=verdict,
            details={"metric": "I3 = P[a system's run < every other system's run]", "best": best,
                     "probabilities": chosen, "estimator": self.estimator, "parametric": par,
                     "nonparametric": nonpar, "ties": self.ties, "fits": self._fits(sides)},
            warnings=tuple(self._warnings(sides)))
