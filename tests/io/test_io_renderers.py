"""Renderers: every format on a report with per-benchmark results, suite results, warnings and errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import perfrigor as pr
import pytest

FIX = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def suite_report(toy):
    suite = pr.read(FIX / "tidy.csv")
    data = {b: dict(systems) for b, systems in suite.data.items()}
    # a third benchmark where mean-ci cannot run (one value): an error, "not run"
    data["tiny <i>"] = {"old": pr.Sample([1.0, 1.1, 1.2], name="old"), "new": pr.Sample([1.0], name="new")}
    return pr.pipeline("toy").run(pr.Suite(data, systems=("old", "new")))


@pytest.fixture(scope="module")
def single_report(toy):
    return pr.pipeline("toy").run([1.0, 1.1, 1.2, 1.05], [0.8, 0.9, 0.85, 0.82])


def test_report_has_what_the_renderers_show(suite_report):
    assert suite_report.errors and suite_report.errors[0].benchmark == "tiny <i>"
    assert any("<b>&" in w.message for w in suite_report.warnings)
    assert "toy-ratio" in suite_report.suite_results and "toy-suite" in suite_report.suite_results


def test_text(suite_report, single_report):
    text = suite_report.render("text")
    for needle in ("pipeline toy", "baseline old, candidate new", "Inputs", "fib", "sort", "2x3",
                   "invocation, iteration", "toy-ratio", "95% [1.197, 1.323]", "toy-ratio: toy overall", "Suite results",
                   "mean speedup", "Warnings", "tiny <i>:", "Not run", "mean-ci on tiny <i>"):
        assert needle in text, needle
    assert "toy-ratio: 3 benchmarks: 2 faster, 1 no change" in text
    assert "toy-suite (suite): 100% of benchmarks faster" in text
    one = single_report.render("text")
    assert "Summary" in one and "toy-ratio: toy speedup" in one
    assert "baseline -> candidate: toy speedup" in one and "significant yes" in one
    assert "baseline: 1.087 (95% CI" in one or "baseline: 1.0875" in one


def test_markdown_tables(suite_report):
    md = suite_report.render("markdown")
    assert md.startswith("# perfrigor report: pipeline toy")
    table_lines = [ln for ln in md.splitlines() if ln.startswith("|")]
    assert any(ln.startswith("| benchmark | estimate | CI |") for ln in table_lines)
    # every table row has as many cells as its header (a '|' inside a cell is escaped)
    blocks = re.split(r"\n(?!\|)", md)
    for block in blocks:
        rows = [ln for ln in block.splitlines() if ln.startswith("|")]
        if rows:
            widths = {len(re.split(r"(?<!\\)\|", r)) for r in rows}
            assert len(widths) == 1, rows
    assert "toy speedup 1.260 \\| ratio" in md


def test_json_is_strict_and_complete(suite_report):
    text = suite_report.render("json")

    def no_constants(name):
        raise AssertionError(f"non-strict JSON constant {name}")

    doc = json.loads(text, parse_constant=no_constants)
    assert doc == json.loads(json.dumps(suite_report.to_dict()))
    assert doc["benchmarks"]["fib"]["toy-ratio"]["old -> new"]["significant"] is True
    assert doc["suite"]["toy-ratio"]["values"]["benchmarks"] == 3
    assert doc["errors"][0]["step"] == "mean-ci"


def test_json_is_written_entry_by_entry_as_json_dumps_writes_it(suite_report):
    """The JSON renderer's text is ``json.dumps(to_dict(), indent=2)`` to the byte, encoded a benchmark's step at a
    time: no piece holds more than one entry of the report's nested sections (at 10^5 benchmarks json.dumps' own
    list of every token took 14 GB beside the 3 GB of text)."""
    from perfrigor.renderers.json import pieces

    doc = suite_report.to_dict()
    whole = json.dumps(doc, indent=2, allow_nan=False)
    assert suite_report.render("json") == whole + "\n"
    parts = list(pieces(doc))
    entries = [json.dumps(r, indent=2) for steps in doc["benchmarks"].values() for r in steps.values()]
    assert len(parts) > len(entries) and max(map(len, parts)) <= max(max(map(len, entries)), len(
        json.dumps(doc["steps"], indent=2)), len(json.dumps(doc["inputs"], indent=2))) * 1.5
    for odd in ({}, {"a": {}}, {"a": {"b": {"c": {"d": [1, {}, [], "x\ny"]}}}}, {"é": {"\n": [1.5, None, True]}},
                {"a": {1: 2}}, [], 3, {"a": [{"b": {}}]}):
        assert "".join(pieces(odd)) == json.dumps(odd, indent=2), odd
    with pytest.raises(ValueError):
        "".join(pieces({"a": {"b": float("nan")}}))


def test_html_is_one_escaped_page(suite_report):
    html = suite_report.render("html")
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert "<style>" in html and "<script" not in html and "http" not in html.split("<body>")[0].split("</style>")[1]
    assert "&lt;b&gt;&amp;" in html and "<b>&" not in html
    assert "tiny &lt;i&gt;" in html and "<i>" not in html
    assert html.count("<table>") >= 4
    assert html.count('class="faster"') == 2 and 'class="slower"' not in html


def test_outcome_rule():
    from perfrigor.renderers._outcome import outcome

    def comp(**kw):
        return pr.Comparison(**{"estimate": 1.0, "ci_low": None, "ci_high": None, "confidence": 0.95,
                                "pvalue": None, "significant": None, "verdict": "v", **kw})

    assert outcome(comp(estimate=0.8, significant=True)) == "slower"
    assert outcome(comp(estimate=0.9, ci_low=0.8, ci_high=0.95)) == "slower"
    assert outcome(comp(estimate=1.2, significant=True)) == "faster"
    assert outcome(comp(estimate=1.1, ci_low=0.9, ci_high=1.3)) == "no change"
    assert outcome(comp(estimate=0.9, significant=False)) == "no change"
    assert outcome(comp()) == "unclear"
    assert outcome(comp(estimate=0.4, significant=True), "probability") == "slower"
    assert outcome(comp(estimate=0.4, significant=True), "other") is None
    assert outcome(pr.Estimate(estimate=1.0)) is None


def test_every_builtin_renderer_is_registered(toy):
    assert {"text", "markdown", "json", "html"} <= set(pr.get_registry().renderers)


def test_unknown_format_is_a_config_error(single_report):
    with pytest.raises(pr.ConfigError, match="unknown output format 'htm'.*did you mean 'html'"):
        single_report.render("htm")


def test_generic_result_types_use_to_dict(toy):
    from perfrigor.renderers._format import key_numbers

    res = toy.ToyPlanResult(repetitions=[3, 4], text="two lines\nhere")
    assert ("repetitions", "[3, 4]") in key_numbers(res)


def test_pipeline_pairs_two_one_system_files_by_benchmark(toy):
    report = pr.pipeline("toy").run(FIX / "gbench.json", FIX / "gbench.json")
    assert report.benchmarks == ["BM_StringCopy/64", "BM_StringCompare/1024"]
    assert report.result("toy-ratio", "BM_StringCopy/64").estimate == pytest.approx(1.0)


def test_summary_of_estimates_without_a_conclusion_says_where_they_lie():
    # Was "mean-difference: 3 benchmarks: 3 unclear" for the I1 mean speedups of a suite.
    from perfrigor.report import Report, StepInfo

    def comp(estimate):
        return pr.Comparison(estimate=estimate, ci_low=None, ci_high=None, confidence=None, pvalue=None,
                             significant=None, verdict="v", details={})

    results = {b: {"s": {pr.PairKey("a", "b"): comp(e)}} for b, e in (("x", 0.8), ("y", 1.3), ("z", 2.5))}
    report = Report(pipeline="p", steps=[StepInfo("s", "unregistered", "comparator", "benchmark", {})],
                    baseline="a", candidate="b", inputs={}, benchmark_results=results, suite_results={})
    text = report.render("text")
    assert "s: 3 benchmarks: speedup above 1 on 2, below on 1 (median 1.3, range 0.8 to 2.5)" in text
    assert "unclear" not in text.split("Steps")[0]

