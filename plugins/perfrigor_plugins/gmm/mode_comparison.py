"""``mode-comparison``: do the two systems share their modes, and how does each mode move?

Multimodal timings (a slow mode from frequency scaling, page placement, a JIT tier) break
comparisons of means and medians: when only the *shares* of the modes change from one
session to the next, the mean and the median move though no mode does. This comparator
fits both systems' mixtures (and the pooled one), groups components into modes
(:mod:`.modes`) and tells the cases apart:

- "unimodal": neither system has two clear modes; the estimate is the overall shift;
- "shared": the modes lie at the same places in both systems (the pooled fit's modes hold
  runs of both); each mode's shift is measured on its own runs;
- "shifted": the modes moved (the pooled fit separates the systems) but both systems have
  the same number of modes: they are matched in order and each shift is measured;
- "different": the systems have different numbers of modes; no shift is defined.

The estimate is the speedup within the dominant mode (the one with most runs on both
sides): the Hodges-Lehmann shift of log times within it, with its rank-sum interval.
``shares_pvalue`` tests whether the modes' shares differ (Fisher's exact test for two
modes, chi-square otherwise).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import attrs
import numpy as np
import perfrigor as pr

from .estimator import max_components_param, min_component_runs_param, model_param
from .mixture import Mixture
from .modes import MIN_GAP, MIN_RUNS_FOR_MODES, SEPARATION, Mode, assign, supported_modes

UNIMODAL, SHARED, SHIFTED, DIFFERENT = "unimodal", "shared", "shifted", "different"


#: the core evidence types (perfrigor.evidence): the verdict, and any other step, reads a mode comparison by type
MatchedMode = pr.MatchedMode
ModeComparison = pr.ModeComparison


#: a sample's modes are kept in the workspace up to this many runs (the key holds the values)
MEMO_MAX_RUNS = 100_000


def _fit_modes(values: np.ndarray, max_components: int, model: str, separation: float, min_gap: float,
               min_component_runs: int) -> tuple[Mixture | None, list[Mode]]:
    """The mixture and its modes; one mode (no mixture) when none can be fitted (too few distinct values).

    Kept in the task's workspace: ``prepare`` and ``compare`` both ask for each system's modes.
    """
    from .fitting import fit_mixture  # (the EM engine is imported when a mixture is fitted)

    ws = pr.current_workspace() if values.size <= MEMO_MAX_RUNS else None
    key = ("perfrigor_plugins.gmm", "modes", values.tobytes(), max_components, model, separation, min_gap,
           min_component_runs)
    found = None if ws is None else ws.get(key)
    if found is not None:
        return found[0], list(found[1])
    try:
        fit = fit_mixture(values, max_components, model, min_component_runs=min_component_runs)[2]
    except pr.DataError:
        return None, [Mode((0,), float(np.median(values)), 1.0)]
    mix = fit.mixture()
    modes = supported_modes(mix, values.size, fit.bic_gain, separation, min_gap, min_component_runs)
    if ws is not None:
        ws.put(key, (mix, tuple(modes)))
    return mix, modes


def _labels(mix: Mixture | None, modes: list[Mode], values: np.ndarray) -> np.ndarray:
    return np.zeros(values.size, dtype=int) if mix is None else assign(mix, modes, values)


def _membership(masks: list[np.ndarray]) -> np.ndarray:
    """Per run, the index of the first mask holding it (-1: none)."""
    out = np.full(masks[0].size, -1, dtype=int)
    for i, mask in reversed(list(enumerate(masks))):
        out[mask] = i
    return out


@attrs.define(repr=False)
class ModeComparisonComparator(pr.Comparator):
    """Do both systems have the same modes? The shift within each mode, and the change of their shares.

    ``separation`` (Ashman's D) and ``min_gap`` (relative gap) decide when neighbouring
    mixture components are distinct modes; ``min_component_runs`` is the fewest runs a
    mixture component (K is searched up to n // it) and a mode need; ``confidence`` is the
    level of the per-mode intervals and of the shares test.
    """

    name: ClassVar[str] = "mode-comparison"
    confidence: float = pr.confidence_param(help="level of the per-mode intervals and of the shares test")
    max_components: int = max_components_param()
    model: str = model_param()
    separation: float = pr.float_param(SEPARATION, minimum=0.0, strict=True,
                                       help="Ashman's D above which neighbouring mixture components are "
                                            "distinct modes")
    min_gap: float = pr.float_param(MIN_GAP, minimum=0.0,
                                    help="relative gap between neighbouring components below which they are "
                                         "one mode")
    min_component_runs: int = min_component_runs_param()

    @classmethod
    def prepare(cls, jobs: Sequence[pr.BenchmarkJob]) -> None:
        """The mixtures of both systems of every benchmark, fitted together (shared with gmm and I1-I3)."""
        from .fitting import fit_jobs, fit_many

        jobs = [job for job in jobs if job.candidate is not None]
        fit_jobs(jobs, lambda job: (job.baseline, job.candidate))
        pooled: list[np.ndarray] = []  # where a system has several modes, compare fits both pooled too
        options: list[tuple[int, str]] = []
        for job in jobs:
            c = job.component
            x, y = job.samples[job.baseline].flat, job.samples[job.candidate].flat
            if min(x.size, y.size) < MIN_RUNS_FOR_MODES:
                continue
            fit = (c.max_components, c.model, c.separation, c.min_gap, c.min_component_runs)
            if len(_fit_modes(x, *fit)[1]) > 1 or len(_fit_modes(y, *fit)[1]) > 1:
                pooled.append(np.concatenate([x, y]))
                options.append((c.max_components, c.model, c.min_component_runs))
        fit_many(pooled, [o[0] for o in options], [o[1] for o in options], [o[2] for o in options])

    def compare(self, baseline: Any, candidate: Any) -> ModeComparison:
        old = pr.as_sample(baseline, what="baseline")
        new = pr.as_sample(candidate, what="candidate")
        old.require_positive(f"baseline {old.label}")
        new.require_positive(f"candidate {new.label}")
        if old.lower_is_better != new.lower_is_better:
            raise pr.DataError(f"baseline {old.label} and candidate {new.label} disagree on lower_is_better")
        x, y = old.flat, new.flat
        if x.size < 2 or y.size < 2:
            raise pr.DataError(f"mode-comparison needs at least 2 runs per system, got {x.size} and {y.size}")
        fit = (self.max_components, self.model, self.separation, self.min_gap, self.min_component_runs)
        warnings: list[str] = []
        if old.is_hierarchical or new.is_hierarchical:
            warnings.append("hierarchical samples: the modes of all runs pooled, ignoring the levels")
        if min(x.size, y.size) < MIN_RUNS_FOR_MODES:
            warnings.append(f"{min(x.size, y.size)} runs: too few to tell modes from noise (at least "
                            f"{MIN_RUNS_FOR_MODES} per system); compared as one mode")
            kind, groups = UNIMODAL, [(np.ones(x.size, bool), np.ones(y.size, bool), None, None)]
        else:
            kind, groups = self._correspond(x, y, fit)
        matched = [self._match(x, y, in_x, in_y, loc_x, loc_y, old.lower_is_better)
                   for in_x, in_y, loc_x, loc_y in groups]
        counts = np.array([[m.baseline_runs for m in matched], [m.candidate_runs for m in matched]])
        shares_p = pr.stats.shares_pvalue(counts) if kind in (SHARED, SHIFTED) else None
        both = [min(m.baseline_runs, m.candidate_runs) if m.speedup is not None else -1 for m in matched]
        dominant = int(np.argmax(both)) if kind != DIFFERENT and max(both) >= 0 else None
        labels = tuple(_membership([g[k] for g in groups]) for k in (0, 1))
        return self._result(kind, matched, dominant, shares_p, old, warnings, labels)

    def _correspond(self, x: np.ndarray, y: np.ndarray, fit: tuple) -> tuple[str, list[tuple]]:
        """The kind of correspondence and the groups of runs to compare: (in_x, in_y, location_x, location_y)."""
        mix_x, modes_x = _fit_modes(x, *fit)
        mix_y, modes_y = _fit_modes(y, *fit)
        if len(modes_x) == 1 and len(modes_y) == 1:
            return UNIMODAL, [(np.ones(x.size, bool), np.ones(y.size, bool), None, None)]
        pooled = np.concatenate([x, y])
        mix_p, modes_p = _fit_modes(pooled, *fit)
        lab = _labels(mix_p, modes_p, pooled)
        lx, ly = lab[:x.size], lab[x.size:]
        both = [i for i in range(len(modes_p)) if (lx == i).sum() >= 2 and (ly == i).sum() >= 2]
        pooled_groups = [(lx == i, ly == i, modes_p[i].location, modes_p[i].location) for i in range(len(modes_p))]
        if len(modes_p) > 1 and len(both) == len(modes_p):
            return SHARED, pooled_groups
        if len(modes_x) == len(modes_y):
            ax, ay = _labels(mix_x, modes_x, x), _labels(mix_y, modes_y, y)
            return SHIFTED, [(ax == i, ay == i, modes_x[i].location, modes_y[i].location)
                             for i in range(len(modes_x))]
        if len(modes_p) > 1 and both:  # some modes shared, others in one system only: their shares changed
            return SHARED, pooled_groups
        ax, ay = _labels(mix_x, modes_x, x), _labels(mix_y, modes_y, y)
        return DIFFERENT, ([(ax == i, np.zeros(y.size, bool), m.location, None) for i, m in enumerate(modes_x)]
                           + [(np.zeros(x.size, bool), ay == i, None, m.location) for i, m in enumerate(modes_y)])

    def _match(self, x: np.ndarray, y: np.ndarray, in_x: np.ndarray, in_y: np.ndarray,
               loc_x: float | None, loc_y: float | None, lower_is_better: bool) -> MatchedMode:
        nx, ny = int(in_x.sum()), int(in_y.sum())
        out = dict(baseline_location=loc_x if loc_x is None or nx else None,
                   candidate_location=loc_y if loc_y is None or ny else None,
                   baseline_share=nx / x.size, candidate_share=ny / y.size, baseline_runs=nx, candidate_runs=ny)
        if nx:
            out["baseline_median"] = float(np.median(x[in_x]))
            if loc_x is None:
                out["baseline_location"] = out["baseline_median"]
        if ny:
            out["candidate_median"] = float(np.median(y[in_y]))
            if loc_y is None:
                out["candidate_location"] = out["candidate_median"]
        if nx >= 2 and ny >= 2:
            shift = pr.stats.hodges_lehmann(np.log(x[in_x]), np.log(y[in_y]), self.confidence)
            sign = 1.0 if lower_is_better else -1.0
            ends = [None if e is None else float(np.exp(sign * e)) for e in (shift.ci_low, shift.ci_high)]
            lo, hi = (ends if sign > 0 else ends[::-1])
            out.update(speedup=float(np.exp(sign * shift.estimate)), ci_low=lo, ci_high=hi, pvalue=shift.pvalue)
        return MatchedMode(**out)

    def _result(self, kind: str, matched: list[MatchedMode], dominant: int | None, shares_p: float | None,
                old: pr.Sample, warnings: list[str], labels: tuple[np.ndarray, np.ndarray]) -> ModeComparison:
        main = matched[dominant] if dominant is not None else None
        alpha = 1.0 - self.confidence
        significant = None
        if main is not None and main.pvalue is not None and main.ci_low is not None:
            significant = main.pvalue < alpha

        def q(x: float) -> str:
            return pr.display.quantity(x, old.unit)

        where = ", ".join(q(m.location) for m in matched)
        if kind == UNIMODAL:
            head = "one mode in each system"
        elif kind == DIFFERENT:
            head = (f"the systems have different modes: baseline at "
                    f"{', '.join(q(m.baseline_location) for m in matched if m.baseline_runs)}, "
                    f"candidate at {', '.join(q(m.candidate_location) for m in matched if m.candidate_runs)}")
        else:
            shares = "; ".join(m.shares(q(m.location)) + (f" -> {q(m.candidate_location)}" if kind == SHIFTED else "")
                               for m in matched)
            what = "shifted" if kind == SHIFTED else "shared" if all(m.in_both for m in matched) else "partly shared"
            head = (f"{what} modes at {where}: {shares}"
                    + ("" if shares_p is None else f" (shares differ: p = {shares_p:.2g})" if shares_p < alpha
                       else f" (shares do not differ significantly, p = {shares_p:.2g})"))
        if main is not None and main.speedup is not None:
            mode = "" if kind == UNIMODAL else f" in the mode at {q(main.location)}"
            head += f"; speedup{mode} {main.speedup:.4g}"
            if main.ci_low is not None:
                head += f" ({self.confidence:.0%} CI {main.ci_low:.4g} to {main.ci_high:.4g})"
        return ModeComparison(
            estimate=None if main is None else main.speedup, ci_low=None if main is None else main.ci_low,
            ci_high=None if main is None else main.ci_high, confidence=self.confidence,
            pvalue=None if main is None else main.pvalue, significant=significant, verdict=head,
            kind=kind, modes=tuple(matched), dominant=dominant, shares_pvalue=shares_p,
            baseline_modes=labels[0].tolist(), candidate_modes=labels[1].tolist(),
            details={"unit": old.unit, "lower_is_better": old.lower_is_better}, warnings=tuple(warnings))
