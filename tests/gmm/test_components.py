"""The gmm plugin's components through the public API: results, errors, direction, preset, plot."""

from __future__ import annotations

import json

import numpy as np
import perfrigor as pr
import pytest
from perfrigor_plugins.gmm.mixture import Mixture

RNG = np.random.default_rng(42)
TWO_MODES = Mixture([0.6, 0.4], [1.00, 1.20], [0.01, 0.015]).sample(80, RNG)


def test_gmm_result_fields_and_describe():
    res = pr.get("gmm").estimate(TWO_MODES)
    assert res.n_components == 2 and res.modes == 2 and res.model in ("E", "V")
    assert list(res.means) == sorted(res.means)
    assert sum(res.weights) == pytest.approx(1.0)
    assert len(res.classification) == TWO_MODES.size and set(res.classification) == {0, 1}
    assert set(res.bic_table) == {"E", "V"} and len(res.bic_table["E"]) == 9
    assert res.bic == max(v for t in res.bic_table.values() for v in t if v is not None)
    text = res.describe()
    assert "2 components" in text and "2 modes" in text
    json.dumps(res.to_dict())


def test_model_and_max_components_parameters():
    res = pr.get("gmm", model="V", max_components=3).estimate(TWO_MODES)
    assert res.model == "V" and set(res.bic_table) == {"V"} and len(res.bic_table["V"]) == 3
    with pytest.raises(pr.ConfigError):
        pr.get("gmm", model="VVV")
    with pytest.raises(pr.ConfigError):
        pr.get("gmm-fit", n_bootstrap=100)  # the paper: N >= 200
    with pytest.raises(pr.ConfigError):
        pr.get("gmm-fit", undersampling=0.0)


@pytest.mark.parametrize("values, words", [([5.0] * 20, "zero variance"),
                                           ([1.0, 2.0] * 10, "distinct values")])
def test_constant_or_too_few_values_is_a_data_error(values, words):
    with pytest.raises(pr.DataError, match=words):
        pr.get("gmm").estimate(values)
    with pytest.raises(pr.DataError, match=words):
        pr.get("prob-faster", estimator="parametric").compare(values, TWO_MODES)
    # the default, non-parametric estimate needs no mixture: it is computed, the parametric one is missing
    res = pr.get("prob-faster").compare(values, TWO_MODES)
    assert res.details["parametric"] is None and any(words in w for w in res.warnings)


def test_hierarchical_sample_is_flattened_with_a_warning():
    res = pr.get("gmm").estimate(TWO_MODES.reshape(8, 10))
    assert res.n == 80
    assert any("flattened" in w for w in res.warnings)
    flat = pr.get("gmm").estimate(TWO_MODES)
    assert res.means == flat.means


def test_many_ties_are_reported():
    res = pr.get("gmm").estimate(np.round(TWO_MODES, 2))
    assert any("repeat" in w for w in res.warnings)


def test_gmm_fit_result():
    res = pr.get("gmm-fit", n_bootstrap=200, random_state=5).test(TWO_MODES)
    assert isinstance(res, pr.TestResult)
    assert 0.0 <= res.pvalue <= 1.0 and res.pvalue * 200 == pytest.approx(round(res.pvalue * 200))
    assert res.reject == (res.pvalue < 0.05)
    assert res.details["n_bootstrap"] == 200 and sum(res.details["bootstrap_components"].values()) == 200
    assert "KSfit" in res.describe() and "p-value" in res.describe()
    again = pr.get("gmm-fit", n_bootstrap=200, random_state=5).test(TWO_MODES)
    assert again.pvalue == res.pvalue and again.details == res.details
    under = pr.get("gmm-fit", n_bootstrap=200, undersampling=0.9, random_state=5, max_components=3)
    assert under.test(TWO_MODES).details["bootstrap_size"] == 72  # floor(0.9 * 80)


def test_gmm_fit_rejects_a_clearly_non_gaussian_mixture_shape():
    # 300 uniform values: no mixture of a few normals has such flat edges
    x = np.random.default_rng(9).uniform(0, 1, 300)
    res = pr.get("gmm-fit", n_bootstrap=200, random_state=1, max_components=2).test(x)
    assert res.reject


@pytest.mark.parametrize("lower", [True, False])
def test_direction_of_probabilities_and_speedup(lower):
    base = pr.Sample(TWO_MODES, lower_is_better=lower)
    better = TWO_MODES / 1.1 if lower else TWO_MODES * 1.1
    cand = pr.Sample(better, lower_is_better=lower)
    p = pr.get("prob-faster").compare(base, cand)
    assert p.estimate > 0.5 and p.details["parametric"] > 0.5
    q = pr.get("prob-faster").compare(cand, base)
    assert q.estimate == pytest.approx(1 - p.estimate)  # no ties: P(A<B) + P(B<A) = 1
    m = pr.get("mean-difference").compare(base, cand)
    assert m.estimate == pytest.approx(1.1)
    assert m.details["nonparametric"] > 0
    f = pr.get("prob-fastest").compare(base, cand)
    assert f.estimate == pytest.approx(p.estimate)


def test_estimator_parameter_chooses_the_headline():
    x, y = TWO_MODES, TWO_MODES * 0.99
    a = pr.get("prob-faster").compare(x, y)
    b = pr.get("prob-faster", estimator="parametric").compare(x, y)
    assert a.estimate == a.details["nonparametric"] and b.estimate == b.details["parametric"]
    assert a.details["parametric"] == b.details["parametric"]


def test_margin_widens_prob_faster():
    x = TWO_MODES
    plain = pr.get("prob-faster").compare(x, x + 0.02)
    margin = pr.get("prob-faster", margin=0.05).compare(x, x + 0.02)
    assert margin.estimate > plain.estimate
    assert margin.details["margin"] == 0.05


def test_prob_fastest_compare_many_sums_to_one():
    rng = np.random.default_rng(1)
    systems = {"a": rng.normal(10, 1, 40), "b": rng.normal(10.5, 1, 35), "c": rng.normal(9.8, 2, 50)}
    res = pr.get("prob-fastest").compare_many(systems)
    for key in ("parametric", "nonparametric"):
        assert sum(res.details[key].values()) == pytest.approx(1.0, abs=1e-9)
    assert res.details["best"] == max(res.details["probabilities"], key=res.details["probabilities"].get)
    assert res.estimate == res.details["probabilities"][res.details["best"]]


def test_directions_must_agree():
    with pytest.raises(pr.DataError, match="lower_is_better"):
        pr.get("prob-faster").compare(pr.Sample(TWO_MODES), pr.Sample(TWO_MODES, lower_is_better=False))


def test_preset_runs_on_two_versions():
    config = pr.pipeline("gmm").to_config()
    steps = [s["component"] for s in config["steps"]]
    assert steps == ["gmm", "gmm-fit", "mean-difference", "prob-faster", "prob-fastest", "mode-comparison", "verdict"]
    for step in config["steps"]:  # the preset's steps, with a smaller bootstrap to keep the test fast
        if step["component"] == "gmm-fit":
            step["params"].update(n_bootstrap=200, random_state=1)
    rng = np.random.default_rng(3)
    report = pr.Pipeline.from_config(config).run(rng.normal(10, 0.5, 40), rng.normal(9.5, 0.5, 40))
    text = report.render("text")
    assert "probability" in text and "KSfit" in text


def test_mixture_offers_its_density_and_modes_to_the_plots():
    est = pr.get("gmm")
    sample = pr.Sample(TWO_MODES, name="two modes")
    fit = est.estimate(sample)
    density, marks = pr.drawing.layers(fit, sample)
    grid = np.linspace(min(TWO_MODES), max(TWO_MODES), 50)
    assert np.allclose(density.pdf(grid), fit.mixture().pdf(grid))
    assert density.components(grid).shape == (50, fit.n_components) and density.cdf is not None
    assert marks.at == fit.distinct_modes and len(marks.at) == 2


def test_cli_describe_shows_the_mixture_and_draws_the_plot(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    from perfrigor.cli import main

    data = tmp_path / "times.txt"
    data.write_text("\n".join(f"{v:.6f}" for v in TWO_MODES))
    png = tmp_path / "mixture.png"
    code = main(["describe", str(data), "--plot", str(png), "--seed", "1",
                 "--param", "gmm-fit.n_bootstrap=200", "--param", "gmm-fit.max_components=3"])
    assert code == 0
    out = capsys.readouterr().out
    assert "Gaussian mixture, 2 components" in out and "KSfit" in out and "bootstrap p-value" in out
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_nonparametric_metrics_need_no_mixture():
    # Found on SPEC2000 samples recorded to 2 decimals: 2 distinct values are enough for I1..I3
    # computed from the runs; only the parametric estimate (a mixture fit) is impossible.
    import perfrigor as pr

    base, cand = [1.0, 1.0, 2.0, 2.0, 1.0], [0.5, 0.5, 0.6, 0.5, 0.6]
    r = pr.get("prob-faster").compare(base, cand)
    assert r.estimate == 1.0 and r.details["parametric"] is None
    assert any("no parametric estimate" in w and "baseline" in w for w in r.warnings)
    assert "parametric n/a" in r.verdict
    assert pr.get("prob-fastest").compare(base, cand).details["parametric"] is None
    assert pr.get("mean-difference").compare(base, cand).details["nonparametric"] == pytest.approx(0.86)
    with pytest.raises(pr.DataError, match="distinct"):
        pr.get("prob-faster", estimator="parametric").compare(base, cand)


def test_mean_difference_verdict_says_which_mean_is_lower():
    faster = pr.get("mean-difference").compare(pr.Sample([1.0, 1.2, 1.1, 1.3, 1.25], unit=""),
                                               pr.Sample([0.9, 0.95, 1.0, 0.92, 0.97], unit=""))
    assert "candidate mean 0.222 lower than the baseline's" in faster.verdict
    assert "  " not in faster.verdict  # no gap left by an empty unit
    slower = pr.get("mean-difference").compare([1.0, 1.2, 1.1, 1.3, 1.25], [1.9, 1.95, 2.0, 1.92, 1.97])
    assert "0.778 s higher than the baseline's" in slower.verdict
