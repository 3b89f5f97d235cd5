"""The r-Speedup search against a plain linear scan (Algorithm 1), and HPT's properties (spec §11)."""

from __future__ import annotations

import numpy as np
import perfrigor as pr
import pytest
from perfrigor_plugins.hpt import HPT
from perfrigor_plugins.hpt.engine import Engine
from perfrigor_plugins.hpt.scores import prepare


def random_suite(seed: int, n: int = 14, speedup: float = 1.4, runs=(5,), decimals: int | None = 2,
                 ragged: bool = False):
    """Times of a baseline and a candidate about ``speedup`` times faster; rounding makes ties.
    ``ragged``: every third benchmark's candidate has one run fewer."""
    rng = np.random.default_rng(seed)
    base, cand = {}, {}
    for i in range(n):
        m = runs[i % len(runs)]
        scale = rng.lognormal(0, 1)
        s = rng.lognormal(np.log(speedup), 0.3)
        b = scale * rng.lognormal(0, 0.05, m)
        c = scale / s * rng.lognormal(0, 0.05, m - (ragged and i % 3 == 0))
        if decimals is not None:
            b, c = np.round(b, decimals) + 10 ** -decimals, np.round(c, decimals) + 10 ** -decimals
        base[f"b{i}"], cand[f"b{i}"] = b, c
    return base, cand


def linear_scan(engine: Engine, confidence: float, limit: int = 2000):
    """Algorithm 1 (Chen et al.), returning the last passing gamma: 1.00, 1.01, ... each re-run in full."""
    for q in range(limit):
        if engine.evaluate((100 + q) / 100).confidence < confidence - 1e-12:
            return None if q == 0 else (100 + q - 1) / 100
    raise AssertionError("no failure within the limit")


@pytest.mark.parametrize("rule", ["p-value", "critical-value"])
@pytest.mark.parametrize(("seed", "runs", "n", "ragged"), [
    (0, (5,), 14, False), (1, (3,), 8, False), (2, (3, 7, 15), 12, False), (3, (12, 4), 30, False),
    (4, (6,), 26, False), (5, (2, 5), 10, False),
    (6, (5, 6, 7, 8), 20, True), (7, (9, 10, 13, 16), 16, True),  # padded groups
])
def test_vectorised_search_equals_linear_scan(rule, seed, runs, n, ragged):
    base, cand = random_suite(seed, n=n, runs=runs, ragged=ragged)
    engine = Engine(prepare(base, cand), rule=rule)
    for confidence in (0.9, 0.95):
        estimate, capped = engine.r_speedup(confidence, max_speedup=100)
        assert not capped
        assert estimate == linear_scan(engine, confidence)


def test_search_equals_linear_scan_without_ties_and_with_slower_candidate():
    base, cand = random_suite(11, n=20, speedup=0.8, runs=(9,), decimals=None)
    engine = Engine(prepare(base, cand))
    assert engine.r_speedup(0.95, 100) == (linear_scan(engine, 0.95), False)
    swapped = Engine(prepare(cand, base))
    assert swapped.r_speedup(0.95, 100)[0] == linear_scan(swapped, 0.95)


@pytest.mark.parametrize("seed", [12, 13, 14])
def test_search_below_one_equals_a_downward_scan(seed):
    base, cand = random_suite(seed, n=16, speedup=0.7, runs=(5, 8))
    engine = Engine(prepare(base, cand))
    assert engine.r_speedup(0.95, 100)[0] is None
    expected = next((1 - q / 100 for q in range(1, 100) if engine.evaluate(1 - q / 100).confidence >= 0.95), None)
    assert engine.speedup_below_one(0.95) == expected and expected is not None


def test_padded_groups_give_the_same_results_as_one_benchmark_at_a_time():
    base, cand = random_suite(9, n=12, runs=(5, 6, 7, 8, 11, 12, 13), ragged=True)
    res = HPT(speedup=1.2).compare(base, cand)
    assert len({v["runs"]["candidate"] for v in res.details["benchmarks"].values()}) > 5
    for b, v in res.details["benchmarks"].items():
        alone = HPT(speedup=1.2).compare({b: base[b]}, {b: cand[b]}).details["benchmarks"][b]
        for key in ("rank_sum_candidate", "pvalue_candidate_better", "pvalue_baseline_better", "winner",
                    "tied_runs", "median_candidate", "median_baseline", "level1_method", "runs"):
            assert v[key] == alone[key], (b, key)


def test_search_stops_at_max_speedup_and_says_so():
    # m = 2: level 1 can never reject, every d = 0, confidence stays about 0.48 >= 0.3 forever
    base, cand = random_suite(5, n=12, runs=(2,))
    res = HPT(confidence=0.3, max_speedup=1.5).compare(base, cand)
    assert res.estimate == 1.5 and res.details["search_limit_reached"]
    assert any("max_speedup" in w for w in res.warnings) and "0.3-Speedup at least 1.50" in res.verdict
    assert any("can never reach" in w for w in res.warnings)


# ------------------------------------------------------------------------------ properties

@pytest.mark.parametrize("seed", range(4))
def test_rank_sum_identities(seed):
    base, cand = random_suite(seed, n=25, runs=(5,))
    d = HPT(speedup=1.3).compare(base, cand).details
    assert d["R_A"] + d["R_B"] == 25 * 26 / 2
    for v in d["benchmarks"].values():
        assert v["rank_sum_candidate"] + v["rank_sum_baseline"] == 5 * 11
    assert d["z_B"] == pytest.approx((d["R_B"] - 25 * 26 / 4) / np.sqrt(25 * 26 * 51 / 24))


def test_same_system_twice_concludes_nothing():
    base, _ = random_suite(0)
    res = HPT().compare(base, base)
    assert res.details["wins"]["tie"] == 14
    assert res.details["R_A"] == res.details["R_B"] == 14 * 15 / 4
    assert res.details["confidence_at_speedup"] <= 0.5
    assert res.significant is False and res.details["r_speedup"] is None
    assert res.estimate < 1  # only "more than 0.9x times as fast" is supported


def test_scaling_both_systems_changes_nothing():
    base, cand = random_suite(1)
    ref = HPT(normalize="none").compare(base, cand)
    scaled = HPT(normalize="none").compare({b: 7.5 * np.asarray(v) for b, v in base.items()},
                                                     {b: 7.5 * np.asarray(v) for b, v in cand.items()})
    assert (scaled.estimate, scaled.pvalue) == (ref.estimate, pytest.approx(ref.pvalue))
    assert scaled.details["R_B"] == ref.details["R_B"]


def test_scaling_one_benchmark_only_moves_its_rank():
    # spec §11.5: scaling both systems' runs of one benchmark by c > 0 never changes a level-1
    # decision; with scores as given (normalize="none") only that benchmark's |d| rank may move,
    # and with the default normalisation nothing changes at all
    base, cand = random_suite(10, n=16)
    scaled_b, scaled_c = dict(base), dict(cand)
    scaled_b["b3"], scaled_c["b3"] = 40 * np.asarray(base["b3"]), 40 * np.asarray(cand["b3"])
    for normalize in ("none", "baseline-median"):
        ref = HPT(normalize=normalize, speedup=1.3).compare(base, cand).details["benchmarks"]
        new = HPT(normalize=normalize, speedup=1.3).compare(scaled_b, scaled_c).details["benchmarks"]
        assert [v["winner"] for v in ref.values()] == [v["winner"] for v in new.values()]
        moved = [b for b in ref if ref[b]["rank"] != new[b]["rank"]]
        if normalize == "baseline-median":
            assert moved == []
        else:
            assert "b3" in moved and ref["b3"]["rank"] != new["b3"]["rank"]


def test_times_and_rates_give_the_same_answer():
    # an odd number of runs, so the median of 1/t is 1/median(t): the scores are identical
    base, cand = random_suite(2, runs=(5,))
    times = HPT().compare({b: pr.Sample(v) for b, v in base.items()},
                                  {b: pr.Sample(v) for b, v in cand.items()})
    rates = HPT().compare({b: pr.Sample(1 / np.asarray(v), lower_is_better=False) for b, v in base.items()},
                                  {b: pr.Sample(1 / np.asarray(v), lower_is_better=False) for b, v in cand.items()})
    assert times.estimate == rates.estimate and times.estimate is not None and times.estimate > 1
    assert times.pvalue == pytest.approx(rates.pvalue)
    assert times.details["gm_speedup"] == pytest.approx(rates.details["gm_speedup"])


def test_pvalue_and_significance_at_the_speedup_under_test():
    base, cand = random_suite(3, n=20)
    hpt = HPT()
    r_speedup = hpt.compare(base, cand).estimate
    at = hpt.with_params(speedup=r_speedup).compare(base, cand)
    above = hpt.with_params(speedup=round(r_speedup + 0.01, 2)).compare(base, cand)
    assert at.significant and at.details["confidence_at_speedup"] == pytest.approx(1 - at.pvalue)
    assert at.details["confidence_at_speedup"] >= 0.95 > above.details["confidence_at_speedup"]
    assert not above.significant
    assert at.estimate == above.estimate == r_speedup  # the r-Speedup does not depend on `speedup`


def test_slower_candidate_has_no_r_speedup_and_the_verdict_says_why():
    base, cand = random_suite(4, speedup=1 / 1.5)
    res = HPT().compare(base, cand)
    assert res.details["r_speedup"] is None and res.significant is False
    # the estimate extends the r-Speedup below 1: "more than 0.xx times as fast", a speedup < 1
    assert res.estimate == res.details["speedup_below_one"] < 1
    assert any("even at speedup 1" in w for w in res.warnings)
    rev = res.details["reverse"]
    assert rev["confidence"] > 0.95 and rev["r_speedup"] > 1.1
    assert "baseline outperforms the candidate" in res.verdict
    assert f"{rev['r_speedup']:.2f} times faster" in res.verdict


def test_gm_speedup_is_reported_with_its_hpt_confidence():
    base, cand = random_suite(6, n=20)
    res = HPT().compare(base, cand)
    med = [np.median(np.asarray(base[b])) / np.median(np.asarray(cand[b])) for b in base]
    assert res.details["gm_speedup"] == pytest.approx(np.exp(np.mean(np.log(med))))
    gm_conf = HPT(speedup=res.details["gm_speedup"]).compare(base, cand).details["confidence_at_speedup"]
    assert res.details["gm_speedup_confidence"] == pytest.approx(gm_conf)
    assert f"Geometric-mean speedup {res.details['gm_speedup']:.3f}" in res.verdict


def test_too_few_runs_and_benchmarks_are_warned_about():
    base, cand = random_suite(7, n=3, runs=(2,))
    res = HPT().compare(base, cand)
    text = " ".join(res.warnings)
    assert "2 candidate and 2 baseline run(s)" in text and "never reach confidence 0.9" in text
    assert "with 3 benchmark(s) the signed-rank test can never reach confidence 0.95" in text


def test_hierarchical_samples_use_one_value_per_top_level_unit():
    rng = np.random.default_rng(8)
    base = {f"b{i}": rng.lognormal(0, 0.05, (5, 4)) for i in range(10)}
    cand = {f"b{i}": rng.lognormal(-0.2, 0.05, (5, 4)) for i in range(10)}
    res = HPT().compare(base, cand)
    flat = HPT().compare({b: v.mean(axis=1) for b, v in base.items()},
                                 {b: v.mean(axis=1) for b, v in cand.items()})
    assert res.estimate == flat.estimate and res.pvalue == flat.pvalue
    assert any("each top-level unit (invocation) counts as one run" in w for w in res.warnings)
    assert res.details["benchmarks"]["b0"]["runs"] == {"candidate": 5, "baseline": 5}
