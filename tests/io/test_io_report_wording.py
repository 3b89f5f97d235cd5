"""Issue 24 items 11-12: a report says one thing. A verdict row's columns, its change and the line
under the table name one statistic; the reasons say what was measured, not a contradiction."""

from __future__ import annotations

import re

import attrs
import numpy as np
import perfrigor as pr
import pytest


def _verdict_rows(text: str) -> list[str]:
    return text.split("Verdicts\n--------\n", 1)[1].split("\n\n", 1)[0].splitlines()[2:]


def test_a_row_of_few_runs_shows_the_geometric_means_its_change_is_computed_from():
    # hyperfine's 1brc: medians 11.82 -> 12.05 looked slower beside a change of geometric means that was not
    old, new = [11.0, 11.82, 13.0], [11.5, 12.05, 12.2]
    report = pr.pipeline("default").run(old, new)
    v = report.verdicts["benchmark"] if "benchmark" in report.verdicts else next(iter(report.verdicts.values()))
    assert v.details["statistic"] == "geometric mean"
    geo = [float(np.exp(np.mean(np.log(s)))) for s in (old, new)]
    assert v.details["baseline"] == pytest.approx(geo[0]) and v.details["candidate"] == pytest.approx(geo[1])
    assert 1.0 / v.speedup - 1.0 == pytest.approx(geo[1] / geo[0] - 1.0)  # the change is theirs, exactly
    text = report.render("text")
    (row,) = _verdict_rows(text)
    assert "11.91" in row and "11.82" not in row and "12.05" not in row
    assert "the geometric mean each verdict compared" in text and "the mean each" not in text


def test_heavy_tailed_runs_show_the_medians_of_the_rank_path():
    # the typical run of heavy-tailed runs is compared on ranks: the row shows each side's median
    rng = np.random.default_rng(2)
    old, new = 10.0 + 0.1 * rng.standard_t(2, 40), 9.0 + 0.1 * rng.standard_t(2, 40)
    v = next(iter(pr.pipeline("default").run(old, new).verdicts.values()))
    assert v.details["statistic"] == "median"
    assert [v.details["baseline"], v.details["candidate"]] == pytest.approx([np.median(old), np.median(new)])


def test_the_median_line_says_its_change_is_the_median_of_the_pairwise_ratios():
    rng = np.random.default_rng(4)  # heavy tails: the verdict compares the typical run on ranks (the median path)
    text = pr.pipeline("default").run(10 + 0.1 * rng.standard_t(2, 30), 9 + 0.1 * rng.standard_t(2, 30)).render("text")
    assert "the median each verdict compared" in text
    assert "from the median of the ratios of all pairs of runs" in text


def test_the_threshold_is_stated_as_a_rule_not_beside_the_outcome_as_a_finding():
    rng = np.random.default_rng(4)
    text = pr.pipeline("default").run(rng.normal(10, 0.1, 30), rng.normal(9, 0.1, 30)).render("text")
    assert "faster" in text
    assert "same within" not in text
    assert re.search(r"faster, speedup .*\(changes within ±1\.0% count as the same\)", text)


def test_a_mode_the_baseline_lacks_is_not_called_the_same_mode():
    # bent's trie.Hash-12: "the same 2 modes: 0% vs 56% of runs at 3.458K"
    rng = np.random.default_rng(7)
    old = np.concatenate([rng.normal(3500, 10, 80), rng.normal(3800, 10, 20)])
    new = np.concatenate([rng.normal(3300, 10, 56), rng.normal(3500, 10, 34), rng.normal(3800, 10, 10)])
    rng.shuffle(old)
    rng.shuffle(new)
    report = pr.pipeline("default").run(old, new)
    v = next(iter(report.verdicts.values()))
    said = " ".join(v.reasons)
    assert "multimodal" in v.details["flags"], v.reasons
    assert "the same 3 modes" not in said and not re.search(r"(?<![\d.])0% vs", said)
    assert "56% of the candidate's runs at" in said and "where the baseline has none" in said
    assert "the modes did not move" not in said
    comparison = pr.get("mode-comparison").compare(old, new)
    assert comparison.verdict.startswith("partly shared modes")
    assert not re.search(r"(?<![\d.])0% vs", comparison.verdict)


def test_a_single_run_apart_is_said_as_one_run_not_a_share():
    """Ten runs of which one is slow: "one run of the baseline at 7.457 ms", not "10% of the baseline's runs"
    (a share reads as a mode the system keeps returning to)."""
    one = pr.evidence.MatchedMode(baseline_location=7.457, candidate_location=None, baseline_share=0.1,
                                  candidate_share=0.0, baseline_runs=1, candidate_runs=0)
    assert one.shares("7.457 ms") == "one run of the baseline at 7.457 ms, where the candidate has none"
    two = attrs.evolve(one, baseline_share=0.2, baseline_runs=2)
    assert two.shares("7.457 ms") == "20% of the baseline's runs at 7.457 ms, where the candidate has none"
