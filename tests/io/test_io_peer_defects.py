"""Peers' files read as their users expect (issue 24, items 8 and 9), each on its minimal input.

- 24.8: Go files where only some benchmarks report a metric (benchstat's ``zero.txt``) are compared
  on the benchmarks that have it; the others are listed, with why, never dropped in silence.
- 24.9: ``describe`` on one repetition per benchmark (Google Benchmark's ``test2_run.json``, a
  one-iteration JMH file) shows n and the value and says why nothing was fitted.
"""

from __future__ import annotations

import json
from pathlib import Path

import perfrigor as pr
import pytest
from perfrigor.cli import main

FIXTURES = Path(__file__).parents[1] / "fixtures"
ZERO = FIXTURES / "benchstat" / "zero.txt"
GBENCH_ONE = FIXTURES / "google-benchmark" / "test2_run.json"


def test_a_metric_some_go_benchmarks_lack_compares_those_that_have_it_and_lists_the_others():
    suite = pr.read(ZERO, metric="a-bytes", system="note")
    assert suite.benchmarks == ["Imperceptible", "Imperceptible2"] and suite.systems == ("before", "after")
    assert suite.excluded == {"ZeroOverZero": "no a-bytes; it reports x", "ZeroOverZero2": "no a-bytes; it reports x",
                              "NonZeroOverZero": "no a-bytes; it reports y",
                              "NonZeroOverZero2": "no a-bytes; it reports y"}
    report = pr.pipeline("default").run(suite)
    assert list(report.verdicts) == ["Imperceptible", "Imperceptible2"]
    assert report.to_dict()["excluded"] == suite.excluded
    again = pr.Report.from_dict(json.loads(report.render("json")))  # a saved report keeps the list
    assert again.excluded == suite.excluded and again.data.excluded == suite.excluded
    for fmt in ("text", "markdown", "html"):
        text = report.render(fmt)
        assert "Not compared (no a-bytes; it reports x): ZeroOverZero, ZeroOverZero2." in text, fmt
        assert "Not compared (no a-bytes; it reports y): NonZeroOverZero, NonZeroOverZero2." in text, fmt


@pytest.mark.parametrize("metric", ["a-bytes", "b-bytes", "c-bytes"])
def test_every_metric_of_zero_txt_that_has_positive_values_is_compared_on_the_cli(metric, capsys):
    assert main(["run", "-p", "default", str(ZERO), "--input", "system=note", "--metric", metric, "-f", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert sorted(doc["verdicts"]) == ["Imperceptible", "Imperceptible2"] and len(doc["excluded"]) == 4


def test_two_go_files_keep_the_benchmarks_without_the_metric_listed(tmp_path):
    lines = ZERO.read_text().splitlines()
    cut = lines.index("note: after")
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_text("\n".join(lines[:cut]) + "\n")
    new.write_text("\n".join(lines[cut:]) + "\n")
    report = pr.pipeline("default").run(pr.Suite.from_inputs(old, new, metric="a-bytes"))
    assert list(report.verdicts) == ["Imperceptible", "Imperceptible2"]
    assert sorted(report.excluded) == ["NonZeroOverZero", "NonZeroOverZero2", "ZeroOverZero", "ZeroOverZero2"]


def test_a_benchmark_reporting_the_metric_in_some_of_its_results_only_is_an_error(tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_text("BenchmarkA 1 10 ns/op 5 B/op\nBenchmarkA 1 11 ns/op\nBenchmarkB 1 10 ns/op\n")
    with pytest.raises(pr.DataError, match=r"mixed.txt, line 2: benchmark 'A' has no B/op here .* but does in other"):
        pr.read(path, metric="B/op")
    path.write_text("BenchmarkA 1 10 ns/op\n")
    with pytest.raises(pr.DataError, match=r"mixed.txt: no metric 'B/op' \(metrics: sec/op\)"):
        pr.read(path, metric="B/op")


def test_describe_on_one_repetition_per_benchmark_shows_each_value_and_says_why_nothing_was_fitted(capsys):
    assert main(["describe", str(GBENCH_ONE)]) == 0
    out = capsys.readouterr().out
    assert "BM_Hi             test2_run.json  1  1      run     42.00 ms  42.00 ms" in out
    assert "Steps: none ran (gmm, gmm-fit, variance-components, mean-ci, steady-state): every system has one value" \
        in out
    assert main(["describe", str(GBENCH_ONE), "-f", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["inputs"]["BM_Bye"]["test2_run.json"]["n"] == 1 and doc["inputs"]["BM_Bye"]["test2_run.json"]["mean"] == 11
    assert {s["step"] for s in doc["skipped"]} == {"gmm", "gmm-fit", "variance-components", "mean-ci", "steady-state"}


def test_describe_on_one_repetition_of_two_systems_names_both(capsys):
    # zero.txt by x, before and after: the header said "Systems: before." above rows of both
    assert main(["describe", str(ZERO), "--input", "system=note", "--metric", "x"]) == 0
    assert "Systems: baseline before, candidate after. Benchmarks: 2." in capsys.readouterr().out


def test_describe_on_a_one_iteration_jmh_file(tmp_path, capsys):
    record = {"jmhVersion": "1.36", "benchmark": "benchmarks.MyBenchmark.measure", "mode": "thrpt", "threads": 1,
              "forks": 1, "warmupIterations": 0, "measurementIterations": 1,
              "primaryMetric": {"score": 17551.660360749385, "scoreError": "NaN", "scoreConfidence": ["NaN", "NaN"],
                                "scoreUnit": "ops/s", "rawData": [[17551.660360749385]]},
              "secondaryMetrics": {}}
    path = tmp_path / "jmh.json"
    path.write_text(json.dumps([record, {**record, "benchmark": "benchmarks.MyBenchmark.measure2"}], indent=4))
    assert main(["describe", str(path)]) == 0
    out = capsys.readouterr().out
    assert "mean (K ops/s)" in out and " 17.55 " in out and "Steps: none ran" in out


def test_a_single_value_among_others_names_why_its_mixture_is_not_fitted(tmp_path):
    path = tmp_path / "v.json"
    path.write_text(json.dumps({"one": [42.0], "many": [1.0, 1.2, 0.9, 1.1, 1.05]}))
    report = pr.Pipeline(["gmm"]).run(pr.read(path))
    assert [e.message for e in report.errors] == [
        f"{path.name}: one value (42): no mixture to fit (it needs at least 3 distinct values); repeat the measurement"]
