"""One-sided comparators (Speedup-Test, accelerated proportion, HPT) in summaries and --fail-on-regression.

A one-sided method only asks "is the candidate faster?": its "not significant" is no evidence
of a slowdown, nor of no change, and a low share of accelerated benchmarks is no regression.
"""

from __future__ import annotations

import csv

import perfrigor as pr
import pytest
from perfrigor import cli
from perfrigor.examples import path as example_path

pytest.importorskip("perfrigor_plugins.speedup_test")

STEPS = '[[steps]]\ncomponent = "speedup-test"\nstatistic = "median"\n\n' \
        '[[steps]]\ncomponent = "accelerated-proportion"\n'


@pytest.fixture(autouse=True)
def installed_plugins():
    with pr.registry.temporary():
        yield


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def unchanged_suite(tmp_path):
    """The bundled suite's baseline O1 against an exact copy of itself."""
    rows = [r for r in csv.DictReader(open(example_path("suite") / "suite.csv")) if r["system"] == "O1"]
    target = tmp_path / "same.csv"
    with open(target, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows + [{**r, "system": "copy"} for r in rows])
    return target


def test_an_unchanged_candidate_is_no_regression(tmp_path, unchanged_suite, capsys):
    # Was exit 1: "0 of 14 accelerated, interval [0, 0.268]" was read as a probability below 1/2.
    cfg = tmp_path / "p.toml"
    cfg.write_text(STEPS + '\n[[steps]]\ncomponent = "fieller"\n')
    code, out, err = run(capsys, "run", cfg, unchanged_suite, "--fail-on-regression")
    assert code == 0, err
    assert "regression" not in err
    assert "speedup-test: 14 benchmarks: 14 not faster" in out  # was "14 no change"
    assert "fieller: 14 benchmarks: 14 no change" in out


def test_fail_on_regression_refuses_a_pipeline_that_cannot_see_a_slowdown(capsys, tmp_path):
    # Was exit 0 on a 1.54x slowdown: the one-sided Speedup-Test says "not significant".
    data = example_path("hierarchical") / "experiment.csv"
    config = tmp_path / "one-sided.toml"
    config.write_text('[pipeline]\nname = "one-sided"\n\n[[steps]]\ncomponent = "speedup-test"\n')
    code, _, err = run(capsys, "run", str(config), data, "--baseline", "O2", "--candidate", "O1",
                       "--fail-on-regression")
    assert code == 2
    assert err.count("\n") == 1 and "no step of pipeline 'one-sided' can show a slowdown" in err
    # every preset ends with the verdict, which sees the slowdown (Kalibera & Jones at the build level)
    code, _, err = run(capsys, "run", "-p", "speedup-test", data, "--baseline", "O2", "--candidate", "O1",
                       "--fail-on-regression")
    assert code == 1 and "perfrigor: regression: experiment: slower" in err
    code, _, err = run(capsys, "run", "-p", "kalibera-jones", data, "--baseline", "O2", "--candidate", "O1",
                       "--fail-on-regression")
    assert code == 1 and "perfrigor: regression: experiment: slower" in err and "[location-shift]" in err


def test_outcome_of_one_sided_results():
    from perfrigor.renderers._outcome import outcome

    def comparison(estimate, significant, low=None, high=None):
        return pr.Comparison(estimate=estimate, ci_low=low, ci_high=high, confidence=0.95, pvalue=None,
                             significant=significant, verdict="v", details={})

    assert outcome(comparison(0.6, False), "speedup", one_sided=True) == "not faster"
    assert outcome(comparison(1.3, True), "speedup", one_sided=True) == "faster"
    assert outcome(comparison(0.6, None), "speedup", one_sided=True) == "unclear"
    assert outcome(comparison(0.0, None, 0.0, 0.27), "probability", one_sided=True) == "not faster"
    assert outcome(comparison(0.0, None, 0.0, 0.27), "probability") == "slower"  # two-sided reading
