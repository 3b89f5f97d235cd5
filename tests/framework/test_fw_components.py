"""Components: parameter helpers, get/set_params, repr, build errors; results and their dicts."""

from __future__ import annotations

import json
import math
import pickle

import attrs
import numpy as np
import perfrigor as pr
import pytest
from perfrigor.component import build


@attrs.define(repr=False)
class Demo(pr.Estimator):
    """Every kind of parameter."""

    name = "demo"
    confidence: float = pr.confidence_param()
    method: str = pr.choice_param("t", "bootstrap")
    n_bootstrap: int = pr.int_param(1000, minimum=10)
    levels: int | None = pr.int_param(None, minimum=1, optional=True)
    threshold: float = pr.float_param(0.5, minimum=0.0, maximum=1.0, strict=True)
    margin: float | None = pr.float_param(None, minimum=0.0, optional=True)
    random_state: int | None = pr.random_state_param()

    def estimate(self, sample):
        s = pr.as_sample(sample)
        rng = pr.check_random_state(self.random_state)
        return pr.Estimate(estimate=float(rng.choice(s.flat)))


def test_defaults_get_params_and_repr():
    d = Demo()
    assert d.get_params() == {"confidence": 0.95, "method": "t", "n_bootstrap": 1000, "levels": None,
                              "threshold": 0.5, "margin": None, "random_state": None}
    assert repr(d) == "Demo()"
    e = d.with_params(confidence=0.9, method="bootstrap", random_state=3)
    assert repr(e) == "Demo(confidence=0.9, method='bootstrap', random_state=3)"
    assert d.confidence == 0.95 and e is not d  # with_params returns a copy
    with pytest.warns(DeprecationWarning, match="use with_params"):
        f = d.set_params(confidence=0.8)  # deprecated: a copy under scikit-learn's name (which mutates)
    assert f.confidence == 0.8 and d.confidence == 0.95
    assert Demo.param_names()[0] == "confidence" and Demo.description() == "Every kind of parameter."
    assert pickle.loads(pickle.dumps(e)).get_params() == e.get_params()


@pytest.mark.parametrize("params, match", [
    ({"confidence": 1.0}, "confidence must be a level strictly between 0 and 1"),
    ({"confidence": "x"}, "could not convert"),
    ({"method": "mcmc"}, r"method must be one of \['t', 'bootstrap'\], got 'mcmc'"),
    ({"n_bootstrap": 5}, "n_bootstrap must be an integer >= 10"),
    ({"n_bootstrap": 100.0}, "n_bootstrap must be an integer"),
    ({"n_bootstrap": True}, "n_bootstrap must be an integer"),
    ({"levels": 0}, "levels must be an integer >= 1"),
    ({"threshold": 1.0}, r"threshold must lie in \(0.0, 1.0\), got 1.0"),
    ({"threshold": "a"}, "threshold must be a number"),
    ({"margin": -1}, r"margin must be >= 0.0, got -1"),  # was "must lie in [0.0, None]"
    ({"random_state": -3}, "random_state must be None, a non-negative int or a numpy Generator"),
    ({"random_state": 1.5}, "random_state must be None"),
    ({"confidnce": 0.9}, r"demo: unknown parameter\(s\) 'confidnce' \(did you mean 'confidence'\?\)"),
])
def test_bad_parameters_are_config_errors(params, match):
    with pytest.raises(pr.ConfigError, match=match):
        build(Demo, params)
    with pytest.raises(pr.ConfigError):
        Demo().with_params(**params)


def test_accepted_parameter_forms():
    d = build(Demo, {"confidence": 0.99, "n_bootstrap": np.int64(50), "threshold": 0.25, "margin": 0,
                     "random_state": np.random.default_rng(0), "levels": 2})
    assert isinstance(d.confidence, float) and d.n_bootstrap == 50


def test_check_random_state():
    g = np.random.default_rng(1)
    assert pr.check_random_state(g) is g
    assert pr.check_random_state(5).integers(1000) == np.random.default_rng(5).integers(1000)
    assert isinstance(pr.check_random_state(None), np.random.Generator)


def test_base_kinds_and_dispatch():
    samples = {"a": pr.Sample([1.0, 2.0]), "b": pr.Sample([1.0, 3.0])}
    out = Demo(random_state=0).run_benchmark(samples, "a", "b", {})
    assert set(out) == {"a", "b"}
    assert pr.pair_key("a", "b") == pr.PairKey("a", "b") and str(pr.pair_key("a", "b")) == "a -> b"
    with pytest.raises(NotImplementedError):
        pr.Comparator().compare([1], [2])
    with pytest.raises(pr.ConfigError, match="compares two systems"):
        pr.Comparator().run_suite(pr.Suite({"x": {"a": [1.0]}}), "a", None, {})
    assert pr.Test.n_samples == 2 and pr.Comparator.estimate_kind == "speedup"


def test_as_sample_and_mapping():
    assert pr.as_sample([1, 2], name="x").name == "x"
    m = pr.as_sample_mapping({"b1": [1, 2], "b2": pr.Sample([3, 4])}, "baseline")
    assert m["b1"].name == "b1" and isinstance(m["b2"], pr.Sample)
    with pytest.raises(pr.DataError, match="baseline, benchmark 'b1': value nan"):
        pr.as_sample_mapping({"b1": [1, float("nan")]}, "baseline")
    with pytest.raises(pr.DataError, match="takes a mapping"):
        pr.as_sample_mapping([1, 2], "baseline")
    with pytest.raises(pr.DataError, match="candidate: no benchmarks"):
        pr.as_sample_mapping({}, "candidate")


# ------------------------------------------------------------------------ results


def test_to_jsonable_strict_json():
    value = {"a": np.float64(1.5), "b": np.array([[1, 2]]), "c": (np.int32(3), np.bool_(True)),
             "d": float("nan"), "e": -np.inf, 1: {"nested": pr.Estimate(estimate=2.0)}, "f": {1, 2}, "g": object()}
    out = pr.to_jsonable(value)
    json.dumps(out, allow_nan=False)
    assert out["a"] == 1.5 and out["b"] == [[1, 2]] and out["c"] == [3, True]
    assert out["d"] is None and out["e"] is None and out["1"]["nested"]["estimate"] == 2.0
    assert out["1"]["nested"]["type"] == "Estimate" and isinstance(out["g"], str)


def test_results_fields_dicts_and_describe():
    t = pr.TestResult(statistic=np.float64(2.5), pvalue=0.01, alpha=0.05, reject=np.bool_(True), method="Welch")
    assert t.reject is True and t.confidence == pytest.approx(0.95)
    assert t.describe() == "Welch: statistic 2.5, p-value 0.01; H0 rejected at alpha 0.05 (two-sided)"
    c = pr.Comparison(estimate=np.float64(1.25), ci_low=1.1, ci_high=1.4, confidence=0.95, pvalue=None,
                      significant=np.bool_(True), verdict="faster", warnings=["few values"])
    assert c.significant is True and c.confidence_interval() == (1.1, 1.4) and c.describe() == "faster"
    d = c.to_dict()
    assert d["type"] == "Comparison" and d["warnings"] == ["few values"] and d["estimate"] == 1.25
    e = pr.Estimate(estimate=3.0, ci_low=2.0, ci_high=4.0, confidence=0.9)
    assert e.describe() == "3 (90% CI 2 to 4)" and pr.Estimate(estimate=None).describe() == "no estimate"
    s = pr.SuiteSummary(title="overall", values={"speedup": math.inf}, text="all good")
    assert s.describe() == "all good" and s.to_dict()["values"]["speedup"] is None
    assert pickle.loads(pickle.dumps(c)) == c
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        c.estimate = 2.0  # type: ignore[misc]
