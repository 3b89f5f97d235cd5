"""The threshold decision both ratio comparators share (Kalibera & Jones §4.2, §8.3)."""

from __future__ import annotations

import numpy as np
import perfrigor as pr
import pytest
from perfrigor_plugins.ratio import BootstrapRatio, Fieller, decide
from perfrigor_plugins.ratio.decision import speedup_interval, verdict


@pytest.mark.parametrize(("low", "high", "h", "expected"), [
    (0.90, 0.96, 0.00, "beyond"),       # excludes 1
    (0.90, 0.96, 0.03, "beyond"),       # upper < 0.97: "different" (§4.2's 0.97/1.03 example)
    (0.90, 0.975, 0.03, "inconclusive"),  # straddles 0.97
    (0.98, 1.01, 0.03, "within"),       # inside [0.97, 1.03]
    (0.98, 1.01, 0.00, "inconclusive"),  # contains 1, no threshold
    (1.04, 1.10, 0.03, "beyond"),       # lower > 1.03
    (1.00, 1.00, 0.00, "inconclusive"),
    (1.00, 1.00, 0.01, "within"),
])
def test_decide(low, high, h, expected):
    assert decide(low, high, h) == expected


def test_speedup_interval_is_the_reciprocal_for_times():
    assert speedup_interval(0.8, 0.5, 1.25, True) == (1.25, 0.8, 2.0, [])
    assert speedup_interval(1.2, 1.1, 1.3, False) == (1.2, 1.1, 1.3, [])


def test_verdict_states_the_change_as_the_paper_does():
    # "5.5% ± 2.5% faster": ratio interval (0.92, 0.97) centred on 0.945.
    text = verdict("beyond", 0.945, 0.92, 0.97, 0.95, 0.0, True, 1 / 0.945)
    assert text.startswith("candidate faster: mean time 5.5% ± 2.5% lower with 95% confidence")
    assert "speedup 1.058x" in text
    assert verdict("within", 1.0, 0.99, 1.01, 0.95, 0.02, True, 1.0).startswith(
        "no change beyond the ±2% threshold")
    assert verdict("inconclusive", 0.99, 0.97, 1.01, 0.95, 0.02, True, 1.01).startswith(
        "cannot tell whether the change exceeds the ±2% threshold")
    assert verdict("inconclusive", 0.97, 0.95, 0.99, 0.95, 0.02, True, 1.03).startswith(
        "candidate faster, but cannot tell whether by more than the ±2% threshold")
    assert verdict("inconclusive", 1.03, 1.01, 1.05, 0.95, 0.02, False, 1.03).startswith(
        "candidate faster, but cannot tell")  # throughput: higher is faster


def test_verdict_rounds_the_centre_and_estimate_like_the_half_width():
    # A file compared with itself gave "mean time 3.89e-05% ± 0.0882% higher (estimate +0%)".
    text = verdict("inconclusive", 1.0 + 1e-9, 0.999118389, 1.000882389, 0.95, 0.0, True, 1.0)
    assert text.startswith("no significant change: mean time 0% ± 0.0882% higher with 95% confidence "
                           "(estimate 0%,"), text
    assert "e-" not in text.split(", ratio")[0]
    # precision follows the half-width: 19.8% -> one decimal; 2.5% -> two decimals when needed
    assert "mean time between 15% and 54% lower" in verdict("beyond", 0.6494, 0.4576, 0.8544, 0.95, 0.0, True, 1.54)
    assert "(estimate -35.1%," in verdict("beyond", 0.6494, 0.4576, 0.8544, 0.95, 0.0, True, 1.54)
    assert "(estimate +12.35%," in verdict("beyond", 1.12345, 1.1, 1.15, 0.95, 0.0, True, 0.89)


@pytest.mark.parametrize("component", [Fieller(threshold=0.02), BootstrapRatio(threshold=0.02, random_state=0,
                                                                               n_bootstrap=2000)])
def test_threshold_on_both_comparators(component):
    rng = np.random.default_rng(5)
    base = rng.normal(10, 0.05, (12, 20))
    noise = rng.normal(0, 0.05, (12, 20))
    cases = {"beyond": base.mean() * 0.9 + noise, "within": base.mean() * 1.002 + noise}
    for expected, new in cases.items():
        r = component.compare(base, new)
        assert r.details["decision"] == expected and r.details["threshold"] == 0.02
        assert r.significant is (expected == "beyond")
    wide = rng.normal(10, 1.0, (12, 20))
    r = component.compare(base, wide * 0.98)
    assert r.details["decision"] == "inconclusive" and r.significant is False
    assert "cannot tell" in r.verdict


def test_threshold_is_a_parameter_in_configs():
    with pytest.raises(pr.ConfigError, match="threshold"):
        pr.Pipeline([{"component": "fieller", "threshold": -0.1}])
    p = pr.Pipeline([{"component": "fieller", "threshold": 0.02}])
    assert p.steps[0].component.threshold == 0.02


def test_the_centre_of_a_plus_minus_has_the_half_widths_decimals():
    """Fieller printed "1.5323% ± 0.023%": the centre had one decimal more than the half-width shown."""
    text = verdict("beyond", 1.015323, 1.015093, 1.015553, 0.95, 0.0, True, 1 / 1.015323)
    assert "mean time 1.532% ± 0.023% higher" in text, text


def test_plus_minus_only_around_the_estimate():
    """Issue 17: "7.1% ± 49% higher (estimate -9.8%)": the ± was centred on the interval's midpoint."""
    text = verdict("inconclusive", 0.902, 0.58, 1.56, 0.95, 0.0, True, 1 / 0.902)
    assert "±" not in text.split("(estimate")[0]
    assert "mean time between 42% lower and 56% higher with 95% confidence (estimate -9.8%," in text
    # one interval per sentence: the change's; the new/old ratio only as a labelled point ("ratio new/old")
    assert "CI" not in text and "ratio new/old 0.902;" in text
    # one-sided intervals name both ends on their side; symmetric ones keep the paper's form
    assert "between 1.0% and 9.0% higher" in verdict("beyond", 1.04, 1.01, 1.09, 0.95, 0.0, True, 1 / 1.04)
    assert "mean time 4% ± 3% higher" in verdict("beyond", 1.04, 1.01, 1.07, 0.95, 0.0, True, 1 / 1.04)
