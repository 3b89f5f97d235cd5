"""The steady-state estimator: classes, steady start and level, summaries, reports, real labelled forks."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import numpy as np
import perfrigor as pr
import pytest
from perfrigor_plugins.steady_state.series import _window_quantiles, outlier_mask

N = 3000
FIXTURE = Path(__file__).parents[1] / "fixtures" / "traini-steady-state" / "forks.json.gz"


def noisy(level: np.ndarray, seed: int = 0, cv: float = 0.01) -> np.ndarray:
    return level * (1 + cv * np.random.default_rng(seed).normal(size=level.size))


def classify(x, **kw):
    return pr.get("steady-state").estimate(pr.Sample(x, **kw))


def test_the_four_classes_and_the_steady_start() -> None:
    t = np.arange(N)
    flat = classify(noisy(np.ones(N)))
    assert (flat.classification, flat.steady_start) == ("flat", 0)
    warm = classify(noisy(np.where(t < 700, 1.3, 1.0)))
    assert warm.classification == "warmup" and abs(warm.steady_start - 700) <= 3
    slow = classify(noisy(np.where(t < 700, 0.85, 1.0)))
    assert slow.classification == "slowdown" and abs(slow.steady_start - 700) <= 3
    never = classify(noisy(np.where(t > 2700, 1.2, 1.0)))
    assert (never.classification, never.steady_start, never.estimate) == ("no steady state", None, None)


def test_direction_throughput_warms_up_from_below() -> None:
    t = np.arange(N)
    r = classify(noisy(np.where(t < 500, 0.8, 1.0)), lower_is_better=False, unit="ops/s")
    assert r.classification == "warmup"
    r = classify(noisy(np.where(t < 500, 0.8, 1.0)))  # the same values as times: faster first
    assert r.classification == "slowdown"


def test_steady_level_and_its_interval() -> None:
    x = noisy(np.where(np.arange(N) < 400, 2.0, 1.0), seed=3)
    r = classify(x, unit="ms")
    steady = x[r.steady_start:]
    assert r.estimate == pytest.approx(steady.mean(), rel=1e-3)
    assert r.ci_low < 1.0 < r.ci_high and r.ci_high - r.ci_low < 0.002
    assert r.confidence == 0.95 and "ms" in r.describe()


def test_a_significant_but_irrelevant_drift_is_not_a_change_of_state() -> None:
    """+0.5% over 3,000 iterations: Mann-Kendall calls it a trend (issue 29); it is below relevance."""
    x = noisy(1 + 0.005 * np.arange(N) / N, seed=1)
    check = pr.get("independence").estimate(x)  # significant (issue 29), but below relevance: no flag
    assert check.runs.trend_pvalue < 1e-6 and not check.trending
    assert classify(x).classification == "flat"
    assert pr.get("steady-state", relevance=0.001).estimate(x).classification != "flat"


def test_a_series_switching_between_recurring_levels_is_steady() -> None:
    x = noisy(np.where((np.arange(N) // 400) % 2 == 0, 1.0, 1.1), seed=2)
    r = classify(x)
    assert r.classification == "flat" and len(r.series[0].levels) == 2
    assert "switches between 2 levels" in r.describe()


def test_a_new_level_at_the_end_is_no_steady_state_even_if_brief_before() -> None:
    t = np.arange(N)
    x = noisy(np.where(((t > 1000) & (t < 1030)) | (t > 2800), 1.15, 1.0), seed=5)
    assert classify(x).classification == "no steady state"


def test_outliers_are_left_out_of_the_segmentation() -> None:
    x = noisy(np.ones(N), seed=6)
    x[::97] *= 2.0
    assert outlier_mask(x)[::97].all()
    r = classify(x)
    assert r.classification == "flat" and r.series[0].outliers >= N // 97
    assert classify(x[:1000] * 1.0).classification == "flat"


def test_short_series_are_not_classified() -> None:
    r = classify(np.ones(10) + np.arange(10) * 0.01)
    assert r.classification is None and r.steady_start is None and "too few" in r.describe()


def test_forks_summed_up() -> None:
    rng = np.random.default_rng(4)
    rows = []
    for w in (0, 800, 750, 900, 0, 850, 820, 0, 0, 0):
        rows.append(np.where(np.arange(2000) < w, 1.5, 1.0) * (1 + 0.01 * rng.normal(size=2000)))
    rows[4] = rows[4] * np.where(np.arange(2000) > 1900, 1.3, 1.0)
    r = pr.get("steady-state").estimate(pr.Sample(np.array(rows), levels=("fork", "iteration"), unit="s"))
    assert r.counts == {"flat": 4, "warmup": 5, "no steady state": 1}
    assert r.classification == "no steady state" and not r.consistent
    assert abs(r.steady_start - 900) <= 3  # drop that many from every fork: all steady ones are steady
    text = r.describe()
    assert text.startswith("9 of 10 forks reach a steady state, after about 820 iterations; 1 never does")
    assert "fork 5: no steady state" in text
    assert any("1 of 10 forks never reaches a steady state" in w for w in r.warnings)
    d = r.to_dict()
    json.dumps(d, allow_nan=False)
    assert [s["classification"] for s in d["series"]][:2] == ["flat", "warmup"]
    assert d["series"][1]["segments"][0]["end"] == r.series[1].steady_start


def test_many_forks_name_the_unsteady_ones() -> None:
    rng = np.random.default_rng(8)
    rows = 1 + 0.01 * rng.normal(size=(30, 200))
    rows[7, 170:] *= 1.3
    r = pr.get("steady-state").estimate(pr.Sample(rows, levels=("invocation", "iteration")))
    assert "29 of 30 invocations" in r.describe() and "invocation 8: no steady state" in r.describe()


def test_plot_layers_shade_the_warmup_and_mark_the_start() -> None:
    rows = np.ones((3, 300)) + 0.01 * np.random.default_rng(1).normal(size=(3, 300))
    rows[1, :100] *= 1.5
    rows[2, 250:] *= 1.3
    sample = pr.Sample(rows, levels=("fork", "iteration"))
    r = pr.get("steady-state").estimate(sample)
    spans = [x for x in r.plot_layers(sample) if isinstance(x, pr.drawing.RunOrderSpans)]
    marks = [x for x in r.plot_layers(sample) if isinstance(x, pr.drawing.RunOrderMarks)]
    assert spans[0].spans == ((300, 300 + r.series[1].steady_start),) and spans[1].spans == ((600, 900),)
    assert spans[1].hatched and marks[0].at == (300 + r.series[1].steady_start,)


def test_in_a_pipeline_every_format_says_it_and_the_run_order_plot_shows_it() -> None:
    rng = np.random.default_rng(2)
    base = 1 + 0.01 * rng.normal(size=(4, 300))
    base[:, :60] *= 1.4
    cand = 0.9 * (1 + 0.01 * rng.normal(size=(4, 300)))
    pipe = pr.Pipeline([{"component": "steady-state"}, {"component": "mean-ci"}])
    report = pipe.run(pr.Sample(base, levels=("fork", "iteration"), name="old"),
                      pr.Sample(cand, levels=("fork", "iteration"), name="new"))
    sentence = "all 4 forks reach a steady state, after about 60 iterations"
    for fmt in ("text", "markdown", "html"):
        assert sentence in report.render(fmt), fmt
    assert json.loads(report.render("json"))["benchmarks"]["benchmark"]["steady-state"]["old"]["steady_start"] >= 59
    html = report.render("html")
    assert "in run order (warm-up)" in html and "in run order" in html


def test_describe_command_shows_the_classification_per_series(tmp_path, capsys) -> None:
    from perfrigor.cli import main

    rows = 1 + 0.01 * np.random.default_rng(0).normal(size=(2, 200))
    rows[0, :40] *= 1.5
    path = tmp_path / "forks.csv"
    path.write_text("fork,iteration,time\n" + "".join(f"{f},{i},{rows[f, i]:.6f}\n" for f in range(2)
                                                      for i in range(200)))
    with pr.registry.temporary(allow=["core", "steady_state"]):  # describe runs every describing component
        assert main(["describe", str(path)]) == 0
    out = capsys.readouterr().out
    assert "steady-state" in out and "fork 1: warmup, steady from iteration 40" in out
    assert "fork 2: flat" in out


def test_parameters_and_reproducibility() -> None:
    x = noisy(np.where(np.arange(N) < 300, 1.2, 1.0))
    a, b = classify(x).to_dict(), classify(x).to_dict()
    assert a == b
    assert pr.get("steady-state", penalty_factor=15.0, min_size=5).estimate(x).classification == "warmup"
    with pytest.raises(pr.ConfigError, match="relevance"):
        pr.get("steady-state", relevance=1.5)
    with pytest.raises(pr.DataError):
        pr.get("steady-state").estimate([1.0, float("nan")] * 20)


def test_labelled_real_forks_from_traini_et_al() -> None:
    """8 JMH forks with the published labels (tests/fixtures/traini-steady-state/ORIGIN.md): two-class
    agreement and the steady start within 10% of the length, as the issue measures them (the whole
    set of 150 forks: benchmarks/steady_state.py labelled, docs/methods/steady-state.md)."""
    forks = json.loads(gzip.decompress(FIXTURE.read_bytes()))
    est = pr.get("steady-state")
    agree = within = steady = 0
    found = []
    for f in forks:
        r = est.estimate(f["values"])
        found.append((r.classification, r.steady_start))
        agree += (r.classification != "no steady state") == (f["label"] == "steady state")
        if f["label"] == "steady state":
            steady += 1
            within += r.steady_start is not None and abs(r.steady_start - f["steady_state_start"]) <= 300
    assert agree >= 6 and within >= 4, found
    # the two long warm-ups the independence step does not see (issue 29): found within 3 iterations
    assert abs(found[0][1] - 2381) <= 3 and abs(found[1][1] - 1589) <= 3


@pytest.mark.slow
def test_simulated_warmups_are_found_within_ten_percent_of_the_length() -> None:
    """Steps and exponential decays ending at 5 to 2,000 iterations (benchmarks/steady_state.py has the
    full table): the start within 10% of the length in at least 90% (issue 29's acceptance)."""
    import sys

    sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
    import steady_state as bench

    rng = np.random.default_rng(11)
    est = pr.get("steady-state")
    hits = total = 0
    for shape in bench.SHAPES:
        for w in (5, 100, 1000, 2000):
            n = N if w > 100 else 1000
            for kind in ("gaussian", "AR(1) 0.5"):
                for _ in range(2):
                    shaped = est.with_params(relevance=bench.relevance(shape))
                    r = shaped.estimate(bench.warmup_series(shape, w, n, rng, kind))
                    hits += r.steady_start is not None and abs(r.steady_start - w) <= 0.1 * n
                    total += 1
    assert hits / total >= 0.9


@pytest.mark.slow
def test_clean_series_are_flat() -> None:
    rng = np.random.default_rng(12)
    est = pr.get("steady-state")
    alarms = sum(est.estimate(1 + 0.02 * rng.normal(size=1000)).classification != "flat" for _ in range(60))
    assert alarms / 60 <= 0.05 + 2 * math.sqrt(0.05 * 0.95 / 60)


def test_a_saved_report_keeps_the_warmup_shading(tmp_path) -> None:
    rows = 1 + 0.01 * np.random.default_rng(3).normal(size=(3, 300))
    rows[0, :90] *= 1.5
    report = pr.Pipeline([{"component": "steady-state"}]).run(pr.Sample(rows, levels=("fork", "iteration")),
                                                               pr.Sample(rows * 0.9, levels=("fork", "iteration")))
    path = tmp_path / "report.json"
    path.write_text(report.render("json"))
    again = pr.load_report(path)
    assert "in run order (warm-up)" in again.render("html") and "2 of 3 forks" not in again.render("text")
    span = pr.drawing.RunOrderSpans([(0, 90)], "warm-up", hatched=True)
    assert pr.drawing.layer_from_dict(pr.drawing.layer_to_dict(span, rows)) == span


@pytest.mark.parametrize("w", [5, 6, 7, 33, 199, 200])
def test_the_window_statistics_are_numpys_median_and_percentiles_bit_for_bit(w):
    rng = np.random.default_rng(w)
    quantiles = _window_quantiles(w)
    for win in (rng.lognormal(size=(2000, w)), np.round(rng.normal(size=(2000, w)), 1),
                rng.integers(0, 3, size=(2000, w)).astype(float)):  # continuous, rounded, few values
        med, p10, p90 = quantiles(win)
        assert np.array_equal(med, np.median(win, axis=1))
        assert np.array_equal(np.stack([p10, p90]), np.percentile(win, [10.0, 90.0], axis=1))
