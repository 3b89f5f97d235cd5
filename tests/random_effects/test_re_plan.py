"""Estimator experiment-plan and the planning formulas (Kalibera & Jones §6.1, §7.4-7.5, §8.5)."""

from __future__ import annotations

import json
import math

import numpy as np
import perfrigor as pr
import pytest
from perfrigor_plugins.random_effects import planning
from scipy import optimize

from .kj_data import LIBKALIBERA, TABLE_III, TABLE_IV

# ------------------------------------------------------------ §6.1 worked example


def test_paper_example_from_the_rounded_values_gives_18():
    """§6.1 prints n_1 = ⌈sqrt(10 · 12.7/0.4)⌉ = 18, from the rounded T² (spec §9.1 note)."""
    optimal = planning.optimal_repetitions([12.7, 0.4], [10.0])
    assert optimal[0] == pytest.approx(math.sqrt(317.5))
    assert planning.round_repetitions(optimal) == [18]


def test_paper_example_from_the_data_gives_19():
    """The same step from the raw Table IV data: sqrt(10 · 12.7222/0.38194) = 18.25 → 19."""
    plan = pr.get("experiment-plan", costs=[10.0]).estimate(TABLE_IV)
    assert plan.repetitions == (19,)
    assert plan.optimal[0] == pytest.approx(18.2508, abs=1e-4)
    assert plan.dropped_levels == ()
    assert plan.top_count is None


def test_paper_example_from_three_levels_drops_executions():
    """Table III: T_2² < 0 → one execution per binary, measurements pooled (Table IV), then n_1.

    The paper gives only c_1 = 10; after the execution level is dropped a new binary costs
    c_1 + c_2 (the build), so a negligible build cost reproduces the paper's two-level step.
    """
    plan = pr.get("experiment-plan", costs=[10.0, 1e-9]).estimate(TABLE_III)
    assert plan.dropped_levels == ("invocation",)
    assert plan.repetitions == (19, 1)
    assert plan.optimal[0] == pytest.approx(18.2508, abs=1e-4) and plan.optimal[1] is None
    np.testing.assert_allclose(plan.T2, [16.5, -5.6666667, 2.2708333])
    np.testing.assert_allclose(plan.details["T2_used"], [12.7222222, 0.3819444], rtol=1e-6)
    assert any("invocation" in w and "<= 0" in w for w in plan.warnings)
    assert "invocation" in plan.describe() and "19 per invocation" in plan.describe()
    # with a real build cost the merged cost is c_1 + c_2
    plan = pr.get("experiment-plan", costs=[10.0, 200.0]).estimate(TABLE_III)
    assert plan.details["costs_used"] == [210.0]
    assert plan.optimal[0] == pytest.approx(math.sqrt(210 * 12.7222222 / 0.3819444), rel=1e-6)


# ------------------------------------------------------------ libkalibera cross-check


def test_libkalibera_optimal_repetitions():
    """libkalibera test_data.py: optimalreps(i, (100, 20, 3), round=False) = [4.2937, 1.3023]; rounded [5, 2]."""
    lk = pr.get("experiment-plan", costs=[100, 20, 3], cost_convention="libkalibera").estimate(LIBKALIBERA)
    np.testing.assert_allclose(lk.optimal, [4.2937, 1.3023], atol=5e-5)
    assert lk.details["optimal"] == list(lk.optimal)
    assert lk.repetitions == (5, 2)
    # the same in the paper's units: c = [20/3, 100/3]
    paper = pr.get("experiment-plan", costs=[20 / 3, 100 / 3]).estimate(LIBKALIBERA)
    np.testing.assert_allclose(paper.optimal, lk.optimal)
    np.testing.assert_allclose(planning.costs_from_libkalibera([100, 20, 3]), [20 / 3, 100 / 3])


def test_libkalibera_budget_is_in_its_time_unit():
    lk = pr.get("experiment-plan", costs=[100, 20, 3], cost_convention="libkalibera",
                budget=3000).estimate(LIBKALIBERA)
    assert lk.details["budget_measurements"] == pytest.approx(1000)
    # one build: 100/3 + 2 * (20/3 + 5) measurements = 56.67 → ⌊1000/56.67⌋ = 17
    assert lk.top_count == 17


# ------------------------------------------------------------ closed form vs numerical optimum


def _h(n: np.ndarray, s: np.ndarray, c: np.ndarray) -> float:
    """§7.5 eq. 22/23 up to the constant 1/c: (c_n + k_n) (s_{n+1} + Σ s_i / (n_i ... n_n))."""
    k = n[0]
    for i in range(1, n.size):
        k = (c[i - 1] + k) * n[i]
    tail = np.cumprod(n[::-1])[::-1]
    return (c[-1] + k) * (s[-1] + np.sum(s[:-1] / tail))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("ways", [1, 2, 3])
def test_closed_form_is_the_minimum_of_the_cost_function(ways, seed):
    rng = np.random.default_rng(100 * ways + seed)
    s = rng.uniform(0.1, 5.0, ways + 1)
    c = np.cumsum(rng.uniform(1.0, 50.0, ways))  # costs grow with the level, as in practice
    closed = planning.optimal_repetitions(s, c)
    scale = _h(np.ones(ways), s, c)
    res = optimize.minimize(lambda x: _h(np.exp(x), s, c) / scale, np.zeros(ways), method="Nelder-Mead",
                            options={"xatol": 1e-9, "fatol": 1e-14, "maxiter": 20000})
    assert res.success, res.message
    np.testing.assert_allclose(np.exp(res.x), closed, rtol=1e-3)
    assert _h(closed, s, c) / scale <= res.fun * (1 + 1e-9)


def test_drop_level_costs():
    assert planning.drop_level_costs([5, 40, 900], 2) == ([45.0, 900.0], 0.0)
    assert planning.drop_level_costs([5, 40, 900], 3) == ([5.0, 940.0], 0.0)
    assert planning.drop_level_costs([5, 40, 900], 4) == ([5.0, 40.0], 900.0)
    with pytest.raises(pr.ConfigError):
        planning.drop_level_costs([5, 40], 1)


def test_cost_model_eq_13():
    # 3 levels: c = (c_2 + (c_1 + n_1) n_2) n_3
    assert planning.experiment_cost([4, 28, 16], [19, 5343]) == (5343 + (19 + 4) * 28) * 16
    assert planning.cost_per_top_unit([4, 28], [19, 5343]) == 5343 + 23 * 28


# ------------------------------------------------------------ §8.5 and Table VIII


SEVENTH = {  # Table VII: relative variation 100·sqrt(S_i²)/Ȳ, compilation / execution / measurement
    "FFT NA OPT": (3.4, 8.2, 1.4), "FFT NA": (3.4, 7.8, 1.4), "FFT OPT": (4.4, 8.2, 4.3),
    "FFT": (4.1, 6.7, 4.6), "HTTP OPT": (0.2, 0.0, 22.5), "HTTP": (0.2, 0.0, 21.5),
    "Rijndael OPT": (0.4, 3.5, 9.3), "Rijndael": (0.4, 3.2, 9.1), "TCP OPT": (0.6, 0.0, 41.8),
    "TCP": (0.6, 0.0, 38.6),
}
EIGHTH = {  # Table VIII: 95% half-width % of the mean, our / default, for 3, 6, 9 hours
    "FFT NA OPT": ((3.3, 7.5), (2.0, 4.6), (1.5, 3.6)), "FFT NA": ((3.2, 7.1), (1.9, 4.4), (1.5, 3.4)),
    "FFT OPT": ((4.3, 8.6), (2.5, 5.3), (2.0, 4.1)), "FFT": ((3.6, 7.6), (2.3, 4.7), (1.8, 3.7)),
    "HTTP OPT": ((0.5, 18.8), (0.3, 11.5), (0.3, 9.1)), "HTTP": ((0.4, 18.0), (0.3, 11.1), (0.2, 8.7)),
    "Rijndael OPT": ((1.3, 8.3), (0.2, 5.1), (0.1, 4.0)), "Rijndael": ((0.6, 8.1), (0.2, 5.0), (0.2, 3.9)),
    "TCP OPT": ((1.3, 34.9), (0.8, 21.5), (0.6, 16.9)), "TCP": ((1.3, 32.2), (0.8, 19.8), (0.6, 15.5)),
}
COSTS = [19.0, 5343.0]  # §8.5: 19 warm-up measurements; 5343 measurements in a 20-minute build
MEASUREMENT_SECONDS = 1200 / 5343


def _t2(name: str) -> list[float]:
    """T² in %² from Table VII (spec §9.4 recipe: 45 kept measurements, 100 executions)."""
    comp, exe, meas = SEVENTH[name]
    t2 = exe**2 - meas**2 / 45 if name.startswith("FFT") else exe**2  # parenthesised T for the others
    return [meas**2, t2, comp**2 - exe**2 / 100]


def test_section_8_5_fft_example():
    """§8.5: n_1 = 4, n_2 = 28, ⌊6·3600/1350⌋ = 16 binaries, 1792 samples, half-width ≈ 2.3%."""
    t2 = _t2("FFT")
    counts = planning.round_repetitions(planning.optimal_repetitions(t2, COSTS))
    assert counts == [4, 28]
    binaries = planning.affordable_top_count(6 * 3600 / MEASUREMENT_SECONDS, counts, COSTS)
    assert binaries == 16 and 16 * 28 * 4 == 1792
    assert planning.predicted_half_width(t2, [*counts, binaries]) == pytest.approx(2.3, abs=0.05)


@pytest.mark.parametrize("name", sorted(EIGHTH))
def test_table_viii_default_column(name):
    """One measurement per binary (the usual method): ⌊W / (1200 s + 20 measurements)⌋ binaries."""
    t2 = _t2(name)
    for hours, (_, expected) in zip((3, 6, 9), EIGHTH[name], strict=True):
        m = planning.affordable_top_count(hours * 3600 / MEASUREMENT_SECONDS, [1, 1], COSTS)
        assert planning.predicted_half_width(t2, [1, 1, m]) == pytest.approx(expected, abs=0.15)


@pytest.mark.parametrize("name", ["FFT NA OPT", "FFT NA", "FFT OPT", "FFT"])
def test_table_viii_our_column_fft(name):
    """Our method (the Rijndael/HTTP/TCP cells need costs the paper does not give; spec §9.4)."""
    t2 = _t2(name)
    counts = planning.round_repetitions(planning.optimal_repetitions(t2, COSTS))
    for hours, (expected, _) in zip((3, 6, 9), EIGHTH[name], strict=True):
        b = planning.affordable_top_count(hours * 3600 / MEASUREMENT_SECONDS, counts, COSTS)
        assert planning.predicted_half_width(t2, [*counts, b]) == pytest.approx(expected, abs=0.1)


# ------------------------------------------------------------ the estimator


def _three_level(seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (100 + rng.normal(0, 2.0, (6, 1, 1)) + rng.normal(0, 3.0, (6, 5, 1))
            + rng.normal(0, 4.0, (6, 5, 10)))


def test_budget_and_target():
    y = _three_level()
    plan = pr.get("experiment-plan", costs=[10, 500], budget=20000).estimate(y)
    t2 = plan.details["T2_used"]
    reps = list(plan.repetitions)
    per_build = 500 + reps[1] * (10 + reps[0])
    assert plan.details["cost_per_top_unit"] == per_build
    assert plan.top_count == 20000 // per_build
    assert plan.predicted_half_width == pytest.approx(
        planning.predicted_half_width(t2, [*reps, plan.top_count]))
    assert plan.predicted_relative_half_width == pytest.approx(plan.predicted_half_width / y.mean())
    target = pr.get("experiment-plan", costs=[10, 500], target_half_width=0.01).estimate(y)
    m = target.top_count
    mean = target.details["mean"]
    assert planning.predicted_half_width(t2, [*reps, m]) <= 0.01 * mean
    assert planning.predicted_half_width(t2, [*reps, m - 1]) > 0.01 * mean
    both = pr.get("experiment-plan", costs=[10, 500], target_half_width=0.001, budget=20000).estimate(y)
    assert any("the budget pays for" in w for w in both.warnings)
    assert both.details["affordable_top_count"] == plan.top_count


def test_budget_in_time_with_the_measurement_time():
    y = _three_level()
    measurements = pr.get("experiment-plan", costs=[10, 500], budget=20000).estimate(y)
    seconds = pr.get("experiment-plan", costs=[10, 500], budget=20000 * 0.25, measurement_time=0.25).estimate(y)
    assert seconds.top_count == measurements.top_count
    assert seconds.details["budget_measurements"] == pytest.approx(20000)
    assert "/ 0.25 per measurement" in seconds.text
    with pytest.raises(pr.ConfigError):
        pr.get("experiment-plan", costs=[1, 2, 3], cost_convention="libkalibera", measurement_time=1.0,
               budget=10).estimate(y)
    mean = pr.get("experiment-plan", costs=[10, 500], budget=20000 * y.mean(),
                  measurement_time="mean").estimate(y)
    assert mean.details["budget_measurements"] == pytest.approx(20000)
    assert mean.top_count == measurements.top_count
    assert "(the pilot's mean)" in mean.text
    with pytest.raises(pr.DataError, match="needs times"):
        pr.get("experiment-plan", costs=[10, 500], budget=10, measurement_time="mean").estimate(
            pr.Sample(y, lower_is_better=False))
    with pytest.raises(pr.ConfigError):
        pr.get("experiment-plan", costs=[10, 500], measurement_time="median")


def test_small_budget_is_reported():
    plan = pr.get("experiment-plan", costs=[10, 500], budget=600).estimate(_three_level())
    assert plan.top_count in (0, 1)
    assert any("at least 2" in w for w in plan.warnings)
    assert plan.predicted_half_width is None


def test_text_explains_every_step():
    plan = pr.get("experiment-plan", costs="10,200", budget=5000).estimate(TABLE_III)
    text = plan.explain()
    assert text == plan.text
    for needle in ("c_1 = 10", "c_2 = 200", "T² = -5.667 <= 0, dropped", "ceil(sqrt(210", "= 84", "build (top level kept)",
                   "Predicted 95% CI half-width"):
        assert needle in text, needle
    assert plan.describe().startswith("plan: iteration: 84 per invocation; invocation: 1 per build")
    json.dumps(plan.to_dict())


def test_dropping_the_top_level():
    rng = np.random.default_rng(0)
    y = np.broadcast_to(rng.normal(0, 1, (1, 6, 8)), (4, 6, 8)) + 10  # identical builds: T_3² < 0
    plan = pr.get("experiment-plan", costs=[10, 500], budget=5000).estimate(y)
    assert "build" in plan.dropped_levels
    assert plan.top_level == "invocation"
    assert plan.repetitions[1] == plan.top_count  # invocations per (single) build, from the budget
    assert plan.details["fixed_cost"] == 500.0
    assert plan.top_count == (5000 - 500) // (10 + plan.repetitions[0])
    no_budget = pr.get("experiment-plan", costs=[10, 500]).estimate(y)
    assert no_budget.repetitions[1] is None


def test_warmup_option():
    y = _three_level()
    plan = pr.get("experiment-plan", costs=[5, 500], warmup=8).estimate(y)
    assert plan.details["warmup"] == 8 and plan.details["counts_initial"] == [2, 5, 6]
    assert any("c_1 = 5 is smaller than the 8 warm-up" in w for w in plan.warnings)


def test_parameters_and_data_are_validated():
    with pytest.raises(pr.ConfigError):
        pr.get("experiment-plan")
    with pytest.raises(pr.ConfigError):
        pr.get("experiment-plan", costs=[10, -1])
    with pytest.raises(pr.ConfigError):
        pr.get("experiment-plan", costs="ten")
    with pytest.raises(pr.ConfigError):
        pr.get("experiment-plan", costs=[10], budget=-5)
    with pytest.raises(pr.ConfigError, match="1 cost"):
        pr.get("experiment-plan", costs=[10]).estimate(TABLE_III)
    with pytest.raises(pr.ConfigError, match="one value per level"):
        pr.get("experiment-plan", costs=[10, 2], cost_convention="libkalibera").estimate(TABLE_III)
    with pytest.raises(pr.DataError, match="at least 2 levels"):
        pr.get("experiment-plan", costs=[10]).estimate([1.0, 2.0, 3.0])
    assert pr.get("experiment-plan", costs="10, 200").costs == (10.0, 200.0)


def test_random_battery_data_runs_and_is_reproducible():
    rng = np.random.default_rng(42)
    y = rng.normal(10, 0.5, (6, 4, 5))
    est = pr.get("experiment-plan", **pr.get("experiment-plan", costs=[10.0, 100.0]).get_params())
    a, b = est.estimate(y), est.estimate(y)
    assert a.to_dict() == b.to_dict()
    assert all(r is None or r >= 1 for r in a.repetitions)
    json.dumps(a.to_dict())


def test_constant_data_plans_one_of_everything():
    plan = pr.get("experiment-plan", costs=[10, 100], budget=1000).estimate(np.full((3, 2, 4), 5.0))
    assert set(plan.dropped_levels) == {"invocation", "build"}
    assert plan.predicted_half_width == 0.0


@pytest.mark.parametrize("dropped", [2, 3])
def test_merged_costs_minimise_the_full_cost_model_with_one_unit_at_the_dropped_level(dropped):
    """Dropping level i fixes n_i = 1 in eq. 13: the merged cost c_{i-1} + c_i gives that optimum."""
    rng = np.random.default_rng(dropped)
    s = rng.uniform(0.5, 3.0, 4)
    s[dropped - 1] = 0.0  # the dropped level adds no variance
    c = np.array([5.0, 40.0, 900.0])
    merged, _ = planning.drop_level_costs(c, dropped)
    closed = planning.optimal_repetitions(np.delete(s, dropped - 1), merged)

    def h_full(x):
        n = np.insert(np.exp(x), dropped - 1, 1.0)
        return _h(n, s, c)

    res = optimize.minimize(h_full, np.zeros(2), method="Nelder-Mead",
                            options={"xatol": 1e-9, "fatol": 1e-9, "maxiter": 20000})
    assert res.success, res.message
    np.testing.assert_allclose(np.exp(res.x), closed, rtol=1e-3)


def test_four_levels_with_a_dropped_middle_level():
    rng = np.random.default_rng(1)  # a seed where the invocations' T² comes out <= 0
    shape = (5, 4, 3, 6)  # machine x build x invocation x iteration; invocations add nothing
    y = (50 + rng.normal(0, 2, (5, 1, 1, 1)) + rng.normal(0, 2, (5, 4, 1, 1)) + rng.normal(0, 1, shape))
    sample = pr.Sample(y, levels=("machine", "build", "invocation", "iteration"))
    plan = pr.get("experiment-plan", costs=[5, 40, 900]).estimate(sample)
    assert plan.dropped_levels == ("invocation",)
    assert plan.details["costs_used"] == [45.0, 900.0]
    assert plan.details["kept_levels"] == ["iteration", "build", "machine"]
    pooled = pr.hierarchy.variance_components(pr.hierarchy.merge_level(y, 2))
    expected = planning.round_repetitions(planning.optimal_repetitions(pooled, [45.0, 900.0]))
    assert plan.repetitions == (expected[0], 1, expected[1])
    assert "starting a new build now costs 5 + 40 = 45" in plan.text
