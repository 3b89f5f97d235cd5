"""Fieller and bootstrap-ratio return ``pr.RatioComparison``: the fields other components read are
typed attributes, the same values stay in ``details`` and the JSON is a plain Comparison's."""

from __future__ import annotations

import attrs
import numpy as np
import perfrigor as pr
import pytest
from perfrigor_plugins.ratio import BootstrapRatio, Fieller

OLD = [[[9, 11], [5, 6]], [[16, 13], [12, 8]], [[15, 7], [10, 14]]]
NEW = [[[10, 12], [6, 7]], [[9, 1], [11, 4]], [[8, 5], [3, 2]]]


@pytest.mark.parametrize("component", [Fieller(), BootstrapRatio(n_bootstrap=200, random_state=1)])
def test_attributes_match_details(component):
    r = component.compare(OLD, NEW)
    assert isinstance(r, pr.RatioComparison) and isinstance(r, pr.Comparison)
    d = r.details
    assert r.ratio == d["ratio"]["estimate"] == pytest.approx(6.5 / 10.5)
    assert r.ratio_interval() == (d["ratio"]["ci_low"], d["ratio"]["ci_high"])
    assert (r.baseline_mean, r.candidate_mean) == (d["baseline_mean"], d["candidate_mean"])
    assert (r.baseline_mean, r.candidate_mean) == pytest.approx((10.5, 6.5))
    assert r.decision == d["decision"] and r.decision in ("inconclusive", "undefined")  # no threshold


def test_fieller_counts_top_level_units_bootstrap_does_not():
    assert Fieller().compare(OLD, NEW).n_top == {"baseline": 3, "candidate": 3}
    r = BootstrapRatio(n_bootstrap=200, random_state=1).compare(OLD, NEW)
    assert r.n_top is None and "n_top" not in r.details


def test_json_is_a_plain_comparisons_and_its_own_fields_under_its_own_type():
    r = Fieller().compare(OLD, NEW)
    plain = pr.Comparison(**{f.name: getattr(r, f.name) for f in attrs.fields(pr.Comparison)})
    own = r.to_dict()
    assert {k: v for k, v in own.items() if k in plain.to_dict() and k != "type"} == \
        {k: v for k, v in plain.to_dict().items() if k != "type"}
    assert own["type"] == "RatioComparison" and "n_top" in own["details"] and own["ratio"] == r.ratio
    assert pr.saved.result_from_dict(own) == r  # a saved report rebuilds it exactly


def test_decision_is_checked():
    with pytest.raises(ValueError, match="decision must be one of"):
        pr.RatioComparison(estimate=1.0, ci_low=None, ci_high=None, confidence=0.95, pvalue=None,
                           significant=None, verdict="", ratio=1.0, baseline_mean=1.0, candidate_mean=1.0,
                           decision="maybe")


def test_threshold_decision_attribute():
    rng = np.random.default_rng(3)
    old = rng.normal(100, 1, 40)
    r = Fieller(threshold=0.02).compare(old, old * 0.9)
    assert r.decision == "beyond" == r.details["decision"]
