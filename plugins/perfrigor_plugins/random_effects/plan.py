"""Estimator ``experiment-plan``: the paper's §6.1 procedure on an initial experiment.

Estimate T_i², drop the levels with T_i² <= 0 (pooling their data, re-estimating),
compute the optimal repetition counts (eq. 14, rounded up) and, from a budget or a
target precision, the number of top-level units; explain every step in ``text``.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import attrs
import numpy as np
import perfrigor as pr

from . import planning
from ._input import prepare, warmup_param

#: Below this count the paper advises considering removing the level (§6.1: "say, below 5").
SMALL_COUNT = 5


def _to_costs(value: Any) -> tuple[float, ...]:
    """Costs from a sequence of numbers or a comma-separated string ("10,200")."""
    if isinstance(value, str):
        value = [v for v in value.replace(";", ",").split(",") if v.strip()]
    if isinstance(value, int | float):
        value = [value]
    try:
        out = tuple(float(v) for v in value)
    except (TypeError, ValueError):
        raise ValueError(f"costs must be numbers, lowest level first (e.g. [10, 200]), got {value!r}") from None
    return out


def _check_costs(instance: Any, attribute: attrs.Attribute, value: tuple[float, ...]) -> None:
    if not value or not all(math.isfinite(v) and v > 0 for v in value):
        raise ValueError(f"costs must be one or more positive numbers, got {list(value)}")


def _check_measurement_time(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if value is None or value == "mean":
        return
    if isinstance(value, bool) or not isinstance(value, int | float | np.number) or not 0 < value < math.inf:
        raise ValueError(f"measurement_time must be a positive time, 'mean' or None, got {value!r}")


def _fmt(x: float) -> str:
    return f"{x:.4g}"


@attrs.frozen(kw_only=True)
class ExperimentPlan(pr.Result):
    """An experiment design. Every per-level list is **lowest level first**.

    ``repetitions[i-1]``: how many units of level i to run per unit of level i+1,
    for i = 1 .. n (the top level excluded): the optimal count rounded up, 1 for a
    dropped level, and for the highest kept level when the top was dropped, the
    budget's count (None without a budget or target). ``optimal``: the same, unrounded
    (None where not optimised). ``top_count``: how many units of ``top_level`` (the
    highest level kept) to run, from ``budget`` or ``target_half_width`` (None without).
    """

    levels: tuple[str, ...]
    repetitions: tuple[int | None, ...]
    optimal: tuple[float | None, ...]
    top_level: str
    top_count: int | None
    dropped_levels: tuple[str, ...]
    costs: tuple[float, ...]
    S2: tuple[float, ...]
    T2: tuple[float, ...]
    predicted_half_width: float | None
    predicted_relative_half_width: float | None
    text: str
    details: dict[str, Any] = attrs.field(factory=dict)

    def describe(self) -> str:
        parts = []
        for i, n in enumerate(self.repetitions):
            name, parent = self.levels[i], self.levels[i + 1]
            dropped = " (dropped: T² <= 0)" if name in self.dropped_levels else ""
            parts.append(f"{name}: {n if n is not None else 'as budget allows'} per {parent}{dropped}")
        top = self.details["original_top_level"]
        if top in self.dropped_levels:
            parts.append(f"{top}: 1 (dropped: T² <= 0)")
        else:
            parts.append(f"{top}: {self.top_count if self.top_count is not None else 'as many as you can afford'}")
        text = "plan: " + "; ".join(parts)
        if self.predicted_relative_half_width is not None:
            text += (f"; predicted {self.details['confidence']:.0%} CI ±{self.predicted_relative_half_width:.2%}"
                     " of the mean")
        return text

    def explain(self) -> str:
        """The multi-line explanation of every step (same as ``text``)."""
        return self.text


@attrs.define(repr=False)
class ExperimentPlanner(pr.Estimator):
    """Optimal repetition counts per level from an initial experiment and costs (Kalibera & Jones §6.1)."""

    name: ClassVar[str] = "experiment-plan"
    min_levels: ClassVar[int] = 2
    example_params: ClassVar[dict[str, Any]] = {"costs": [10.0, 100.0]}

    #: c_1 .. c_n, lowest level first, in measurements (see planning.py); libkalibera: one per level
    costs: tuple[float, ...] = attrs.field(converter=_to_costs, validator=_check_costs, metadata={
        "help": "cost of one repetition per level, lowest level first, in measurements (libkalibera: one "
                "per level)"})
    #: "measurements" (the paper's c_i) or "libkalibera" (time per level, highest first, measurement last)
    cost_convention: str = pr.choice_param("measurements", "libkalibera",
                                           help="'measurements' (the paper's c_i) or 'libkalibera' (time "
                                                "per level, highest first, measurement last)")
    #: total budget: in measurements, or in time when measurement_time is given (libkalibera: its time unit)
    budget: float | None = pr.float_param(None, minimum=0, optional=True, strict=True,
                                          help="total budget: in measurements, or in time when "
                                               "measurement_time is given")
    #: time of one lowest-level measurement in the budget's time unit, or "mean" (the pilot's mean
    #: measurement, when the measurements are times); None: the budget is in measurements
    measurement_time: float | str | None = attrs.field(default=None, validator=_check_measurement_time, metadata={
        "help": "time of one lowest-level measurement in the budget's unit, or 'mean' (the pilot's "
                "mean); None: budget in measurements"})
    #: wanted half-width of the t-interval as a fraction of the mean (0.02: ±2%)
    target_half_width: float | None = pr.float_param(None, minimum=0, optional=True, strict=True,
                                                     help="wanted half-width of the t-interval as a "
                                                          "fraction of the mean (0.02: ±2%)")
    confidence: float = pr.confidence_param(help="level of the interval the plan aims at")
    warmup: int = warmup_param()

    def _measurement_time(self, data: Any) -> float | None:
        """The time of one measurement in the budget's unit (None: the budget is in measurements)."""
        if self.measurement_time != "mean":
            return self.measurement_time
        mean = float(data.values.mean())
        if not data.sample.lower_is_better or mean <= 0:
            raise pr.DataError(f"{data.label}: measurement_time='mean' needs times (lower is better, positive "
                               f"mean; got mean {mean:.6g}, lower_is_better={data.sample.lower_is_better})")
        return mean

    def _paper_costs(self, n_levels: int, measurement_time: float | None) -> tuple[np.ndarray, float]:
        """Costs c_1..c_n in measurements and the budget in measurements (or nan)."""
        budget = math.nan if self.budget is None else float(self.budget)
        if self.cost_convention == "libkalibera":
            if self.measurement_time is not None:
                raise pr.ConfigError(f"{self.name}: with libkalibera costs the time of a measurement is the last "
                                     "cost; do not also give measurement_time")
            if len(self.costs) != n_levels:
                raise pr.ConfigError(f"{self.name}: libkalibera costs need one value per level ({n_levels}, "
                                     f"highest first, one measurement last), got {len(self.costs)}")
            return planning.costs_from_libkalibera(self.costs), budget / self.costs[-1]
        if len(self.costs) != n_levels - 1:
            raise pr.ConfigError(f"{self.name}: {len(self.costs)} cost(s) for {n_levels} levels: give "
                                 f"{n_levels - 1} (c_1 .. c_{n_levels - 1}, lowest level first, in measurements)")
        if measurement_time is not None:
            budget /= measurement_time
        return np.asarray(self.costs, dtype=float), budget

    def estimate(self, sample: Any) -> ExperimentPlan:  # noqa: C901 - one procedure, step by step
        data = prepare(sample, self.warmup, min_levels=2, component=self.name)
        names = data.names
        n_levels = len(names)
        measurement_time = self._measurement_time(data)
        costs, budget = self._paper_costs(n_levels, measurement_time)
        initial = pr.hierarchy.level_statistics(data.values, names[::-1])
        pruned = pr.hierarchy.drop_nonpositive_levels(data.values, names[::-1])
        warnings: list[str] = []
        lines = [
            f"Experiment plan for {data.label} (Kalibera & Jones, §6.1), from an initial experiment of "
            + " x ".join(f"{k} {nm}" for nm, k in zip(names[::-1], initial.counts[::-1], strict=True))
            + (f", after dropping the first {data.warmup} {names[0]}(s) of every {names[1]} as warm-up"
               if data.warmup else "") + ".",
            "Costs, in measurements (multiples of the time of one " + names[0] + "): "
            + ", ".join(f"c_{i} = {_fmt(c)} (a new {names[i]})" for i, c in enumerate(costs, start=1)) + ".",
            "Variance components T² (unbiased, lowest level first): "
            + ", ".join(f"{nm} {_fmt(t)}" for nm, t in zip(names, initial.T2, strict=True)) + ".",
        ]
        if self.cost_convention == "libkalibera":
            lines.insert(1, f"libkalibera costs {list(self.costs)} (highest level first, time units) "
                            f"divided by the cost of one {names[0]} ({_fmt(self.costs[-1])}).")
        if self.cost_convention == "measurements" and data.warmup and costs[0] < data.warmup:
            warnings.append(f"{data.label}: c_1 = {_fmt(costs[0])} is smaller than the {data.warmup} warm-up "
                            f"{names[0]}s dropped per {names[1]}; c_1 should include them")

        # -- drop levels with T² <= 0, merging their costs (their count becomes 1 in eq. 13)
        kept = list(range(1, n_levels + 1))
        cur_costs = [float(c) for c in costs]
        overhead = 0.0  # paid once: the dropped top levels' start-up
        for rec in pruned.dropped:
            pos = kept.index(rec["level"]) + 1
            name = rec["name"]
            child = names[kept[pos - 2] - 1]  # the kept level just below
            before = cur_costs
            cur_costs, once = planning.drop_level_costs(cur_costs, pos)
            overhead += once
            if pos == len(kept):
                how = (f"one {name} only; its {child}s become the top-level units and its cost is paid "
                       f"once; a comparison then ignores {name}-to-{name} variation, so use a threshold")
            else:
                how = (f"1 {name} per {names[kept[pos] - 1]}, its {child}s pooled; starting a new "
                       f"{names[kept[pos] - 1]} now costs {_fmt(before[pos - 2])} + {_fmt(before[pos - 1])} "
                       f"= {_fmt(cur_costs[pos - 2])}")
            del kept[pos - 1]
            warnings.append(f"{data.label}: level {name!r} has T² = {rec['T2']:.4g} <= 0: it adds little "
                            f"variation, so it is dropped from the plan ({how}); see Kalibera & Jones §6.1")
            lines.append(f"Level {name}: T² = {_fmt(rec['T2'])} <= 0, dropped ({how}).")
        stats = pruned.statistics
        t2 = np.asarray(stats.T2)
        if pruned.dropped:
            lines.append("Re-estimated on the pooled data: T² "
                         + ", ".join(f"{nm} {_fmt(t)}" for nm, t in zip(stats.names, t2, strict=True)) + ".")

        # -- optimal counts below the highest kept level (eq. 14)
        if len(kept) >= 2:
            optimal = planning.optimal_repetitions(t2, cur_costs)
            rounded = planning.round_repetitions(optimal)
        else:
            optimal, rounded = np.empty(0), []
        top_kept = kept[-1]
        top_name = names[top_kept - 1]
        unit_cost = planning.cost_per_top_unit(rounded, cur_costs)

        # -- the top count: from the target precision, else from the budget
        mean = stats.grand_mean
        affordable = None if math.isnan(budget) else planning.affordable_top_count(budget, rounded, cur_costs,
                                                                                   overhead)
        required = None
        if self.target_half_width is not None:
            if mean == 0:
                raise pr.DataError(f"{data.label}: the mean is 0, a relative target half-width is undefined")
            required = planning.top_count_for_half_width(t2, rounded, self.target_half_width * abs(mean),
                                                         self.confidence)
            if required is None:
                warnings.append(f"{data.label}: ±{self.target_half_width:.2%} is out of reach "
                                f"(more than 10^7 {top_name} units needed)")
        top_count = required if self.target_half_width is not None else affordable
        if affordable is not None and affordable < 2:
            warnings.append(f"{data.label}: the budget pays for {affordable} {top_name} unit(s) of "
                            f"{_fmt(unit_cost)} measurements each: a confidence interval needs at least 2")
        if required is not None and affordable is not None and affordable < required:
            warnings.append(f"{data.label}: ±{self.target_half_width:.2%} needs {required} {top_name} units, "
                            f"the budget pays for {affordable}")

        # -- per original level: counts and reasoning
        repetitions: list[int | None] = [1] * (n_levels - 1)
        optimal_full: list[float | None] = [None] * (n_levels - 1)
        lines.append("Repetitions per level (eq. 14, n_i = ceil(sqrt(c_i / c_(i-1) · T_i² / T_(i+1)²)), "
                     "c_0 = 1, rounded up):")
        previous_cost = 1.0
        for j, level in enumerate(kept[:-1]):
            repetitions[level - 1] = rounded[j]
            optimal_full[level - 1] = float(optimal[j])
            lines.append(f"  {names[level - 1]} per {names[level]}: ceil(sqrt({_fmt(cur_costs[j])} / "
                         f"{_fmt(previous_cost)} · {_fmt(t2[j])} / {_fmt(t2[j + 1])})) = "
                         f"ceil({optimal[j]:.4f}) = {rounded[j]}")
            previous_cost = cur_costs[j]
        for rec in pruned.dropped:
            parent = f" per {names[rec['level']]}" if rec["level"] < n_levels else " (top level)"
            lines.append(f"  {rec['name']}{parent}: 1 (level dropped)")
        if top_kept < n_levels:
            repetitions[top_kept - 1] = top_count
        count_text = {None: "set it from your time budget (parameter budget) or a target precision; more "
                            f"{top_name} units give a narrower interval"}
        if affordable is not None:
            unit_time = self.costs[-1] if self.cost_convention == "libkalibera" else measurement_time
            origin = " (the pilot's mean)" if self.measurement_time == "mean" else ""
            in_time = ("" if unit_time is None
                       else f" = {_fmt(self.budget)} / {_fmt(unit_time)} per measurement{origin}")
            count_text["budget"] = (f"{affordable} (budget {_fmt(budget)} measurements{in_time}"
                                    + (f" - {_fmt(overhead)} paid once" if overhead else "")
                                    + f", {_fmt(unit_cost)} per {top_name}, floored)")
        if required is not None:
            count_text["target"] = (f"{required} (the fewest giving a {self.confidence:.0%} t-interval within "
                                    f"±{self.target_half_width:.2%} of the mean {_fmt(mean)})")
        key = "target" if required is not None else ("budget" if affordable is not None else None)
        lines.append(f"  {top_name} (top level kept): {count_text[key]}")
        if key == "target" and "budget" in count_text:
            lines.append(f"  (the budget alone would pay for {count_text['budget']})")

        predicted = relative = None
        if top_count is not None and top_count >= 2:
            predicted = planning.predicted_half_width(t2, [*rounded, top_count], self.confidence)
            relative = predicted / abs(mean) if mean != 0 else None
            total = overhead + unit_cost * top_count
            lines.append(f"Predicted {self.confidence:.0%} CI half-width with {top_count} {top_name} units: "
                         f"±{_fmt(predicted)}" + (f" ({relative:.2%} of the mean)" if relative is not None else "")
                         + f"; total cost {_fmt(total)} measurements"
                         + f" ({int(np.prod(rounded, dtype=float) * top_count)} measurements kept).")
        small = [names[k - 1] for k, n in zip(kept[:-1], rounded, strict=True) if n < SMALL_COUNT]
        if small:
            lines.append(f"Advice: counts below {SMALL_COUNT} at {', '.join(small)}; the paper suggests you may "
                         "remove such a level to simplify, and extra lowest-level measurements are cheap "
                         "(no new warm-up) and help spot unusual behaviour.")
        if stats.T2[0] <= 0 and len(kept) > 1:
            lines.append(f"No variation between {names[0]}s: one per {names[kept[1] - 1]} is enough.")
        lines.append("Run the final experiment with these counts for both systems, then use mean-ci "
                     "(one system) and fieller or bootstrap-ratio (the change).")
        details = {
            "confidence": self.confidence, "original_top_level": names[-1], "optimal": list(optimal_full),
            "kept_levels": [names[k - 1] for k in kept], "costs_used": cur_costs,
            "fixed_cost": overhead, "cost_per_top_unit": unit_cost, "T2_used": list(stats.T2),
            "S2_used": list(stats.S2), "counts_initial": list(initial.counts), "mean": mean,
            "budget_measurements": None if math.isnan(budget) else budget,
            "affordable_top_count": affordable, "required_top_count": required,
            "cost_convention": self.cost_convention, **data.warmup_note(),
        }
        return ExperimentPlan(
            levels=names, repetitions=tuple(repetitions), optimal=tuple(optimal_full), top_level=top_name,
            top_count=top_count, dropped_levels=tuple(r["name"] for r in pruned.dropped),
            costs=tuple(float(c) for c in costs), S2=initial.S2, T2=initial.T2,
            predicted_half_width=predicted, predicted_relative_half_width=relative,
            text="\n".join(lines), details=details, warnings=tuple(warnings))
