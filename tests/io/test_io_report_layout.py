"""What a person reads first: the verdict table, the suite line, then the details (text, Markdown)."""

from __future__ import annotations

import attrs
import numpy as np
import perfrigor as pr
import pytest


def _suite_file():
    from perfrigor import examples

    return examples.path("suite") / "suite.csv"


@pytest.fixture(scope="module")
def verdict_report(toy):
    return pr.pipeline("toy-verdict").run(_suite_file())


def test_text_leads_with_one_row_per_benchmark(verdict_report):
    text = verdict_report.render("text")
    head = text.splitlines()[:40]
    benches = verdict_report.benchmarks
    assert len(benches) == 14
    rows = [ln for ln in head if ln.strip().split(" ")[0] in benches]
    assert [r.split()[0] for r in rows] == benches
    for row, bench in zip(rows, benches, strict=True):
        assert verdict_report.verdicts[bench].outcome in row.split()
    header = next(ln for ln in head if ln.strip().startswith("benchmark"))
    assert "baseline (ms)" in header and "candidate (ms)" in header and "change [95% CI]" in header
    fib = next(r for r in rows if r.split()[0] == "fib")
    # times: change = 1/speedup - 1, negative = faster, interval ends swapped accordingly
    v = verdict_report.verdicts["fib"]
    assert f"{100 * (1 / v.speedup - 1):+.1f}%" in fib and "6.685" in fib and "2.802" in fib
    assert f"[{100 * (1 / v.ci_high - 1):+.1f}%, {100 * (1 / v.ci_low - 1):+.1f}%]" in fib
    assert "e-0" not in "\n".join(head)  # no 9.716e-05 s
    assert text.index("Suite: 14 benchmarks") < text.index("Reasons, per benchmark") < text.index("Inputs")
    assert "HPT: toy suite line" in text


def test_higher_is_better_changes_read_as_gains(toy):
    rng = np.random.default_rng(3)
    old = pr.Sample(rng.normal(1000.0, 5, 20), unit="ops/s", lower_is_better=False, name="old")
    new = pr.Sample(rng.normal(1200.0, 5, 20), unit="ops/s", lower_is_better=False, name="new")
    report = pr.pipeline("toy-verdict").run(old, new)
    (v,) = report.verdicts.values()
    assert v.speedup > 1 and v.outcome == "faster"
    text = report.render("text")
    assert f"{100 * (v.speedup - 1):+.1f}% [{100 * (v.ci_low - 1):+.1f}%, {100 * (v.ci_high - 1):+.1f}%]" in text
    assert "K ops/s" in text and "positive = better" in text


def test_the_legend_names_what_changed(toy):
    """Times read "in time (negative = faster)"; a lower-is-better metric that is not a time (memory)
    must not be called a time."""
    rng = np.random.default_rng(4)
    for unit, said in (("ms", "change: in time (negative = faster)"),
                       ("bytes", "change: in the value (negative = better)")):
        old = pr.Sample(rng.normal(1000.0, 5, 20), unit=unit, name="old")
        new = pr.Sample(rng.normal(900.0, 5, 20), unit=unit, name="new")
        text = pr.pipeline("toy-verdict").run(old, new).render("text")
        assert said in text and "of the time" not in text


def test_the_steps_parameters_only_in_the_verbose_report(verdict_report):
    text = verdict_report.render("text")
    assert "tolerance: 0.05" not in text and "Steps: mean-ci, toy-ratio, toy-verdict" in text
    verbose = verdict_report.render("text", verbose=True)
    assert "tolerance: 0.05" in verbose.split("Results of each step")[1]
    assert verbose.rstrip().splitlines()[-1].startswith("  * toy-verdict: toy-verdict (comparator")
    assert "tolerance: 0.05" in verdict_report.render("markdown", verbose=True)


def test_unknown_render_options_are_config_errors(verdict_report, toy):
    with pytest.raises(pr.ConfigError, match=r"text renderer takes no option 'colour' \(its options: verbose\)"):
        verdict_report.render("text", colour=True)

    class Plain:
        name, suffix = "plain", ".plain"

        def render(self, report):
            return "plain"

    import types

    plugin = types.ModuleType("plain_renderer_plugin")
    plugin.perfrigor_renderers = pr.hookimpl(lambda: [Plain()])
    with pr.registry.temporary(allow=["core"], extra_plugins=[toy, plugin]):
        assert verdict_report.render("plain") == "plain"
        with pytest.raises(pr.ConfigError, match="plain renderer takes no option 'verbose'"):
            verdict_report.render("plain", verbose=True)


def test_markdown_is_a_pull_request_comment(verdict_report):
    md = verdict_report.render("markdown")
    lines = md.splitlines()
    table = lines.index("## Verdicts") + 2
    assert lines[table].startswith("| benchmark | baseline (ms) | candidate (ms) | change [95% CI] | verdict | why |")
    assert lines[table + 1] == "| --- | ---: | ---: | ---: | --- | --- |"
    assert md.index("Suite: 14 benchmarks") < md.index("<details><summary>Reasons, per benchmark</summary>")
    assert md.count("<details") == md.count("</details>") >= 4
    assert "toy second reason &lt;b>" in md and "<b>" not in md


def test_not_compared_benchmarks_and_missing_verdicts_are_listed(verdict_report):
    report = attrs.evolve(verdict_report, only_in={"O1": ["lonely <x>"], "O2": []},
                          errors=[pr.StepError("toy-verdict", "extra", "too few runs")])
    text = report.render("text")
    assert "Not compared (measured by one system only): only in O1: lonely <x>." in text
    assert "Not run (1)" in text and "toy-verdict on extra: too few runs" in text
    assert "&lt;x&gt;" in report.render("html", plots=False)


def test_a_benchmark_without_verdict_keeps_its_row(toy):
    report = pr.pipeline("toy-verdict").run(_suite_file())
    verdicts = dict(report.benchmark_results)
    verdicts["fib"] = {k: v for k, v in verdicts["fib"].items() if k != "toy-verdict"}
    report = attrs.evolve(report, benchmark_results=verdicts,
                          errors=[pr.StepError("toy-verdict", "fib", "fewer than 2 runs")])
    row = next(ln for ln in report.render("text").splitlines() if ln.strip().startswith("fib "))
    assert "no verdict: fewer than 2 runs" in row and "6.685" in row


def test_without_verdicts_the_methods_summary_comes_first(toy):
    report = pr.pipeline("toy").run(_suite_file())
    text = report.render("text")
    assert "Verdicts" not in text and text.index("Summary") < text.index("Inputs") < text.index("toy-ratio\n")
    assert "mean (ms)" in text and "Steps: mean-ci, toy-ratio, toy-suite" in text


def test_cli_verbose(toy, capsys, tmp_path):
    from perfrigor.cli import main

    code = main(["run", "--pipeline", "toy-verdict", str(_suite_file()), "--verbose"])
    out = capsys.readouterr().out
    assert code == 0 and "tolerance: 0.05" in out
    code = main(["run", "--pipeline", "toy-verdict", str(_suite_file())])
    assert code == 0 and "tolerance: 0.05" not in capsys.readouterr().out


def test_a_long_suite_leads_with_its_line(verdict_report, monkeypatch):
    from perfrigor.renderers import _layout

    text = verdict_report.render("text")
    assert text.index("Verdicts") < text.index("Suite: 14 benchmarks")
    monkeypatch.setattr(_layout, "LONG_SUITE", 10)
    text = verdict_report.render("text")
    assert text.index("Suite: 14 benchmarks") < text.index("Verdicts") < text.index("matmul")


def test_the_why_column_keeps_the_reason_short():
    from perfrigor.renderers._verdicts import short_why

    assert short_why("typical run 69% faster (p = 0.0089)") == "typical run 69% faster (p = 0.0089)"
    long = ("the runs are so dependent that 10 count as about 1 independent ones, too few to tell (at least 5): "
            "record the runs' grouping (invocations, sessions) as levels, or run more separate processes")
    assert short_why(long) == "the runs are so dependent that 10 count as about 1 independent ones, too few to tell…"
    assert short_why("word " * 40).endswith("word…") and len(short_why("word " * 40)) <= 90
