"""The HTML report's plots: forest, distributions, run order, levels; the drawing protocol; self-contained."""

from __future__ import annotations

import re
import subprocess
import sys
import types
from typing import ClassVar

import attrs
import numpy as np
import perfrigor as pr
import pytest
from perfrigor import examples

SUITE = examples.path("suite") / "suite.csv"
FIX = __import__("pathlib").Path(__file__).parent / "fixtures"


@attrs.frozen(kw_only=True)
class BumpResult(pr.Result):
    """A third-party result: a made-up density around the median, its peak, and the level variances."""

    centre: float
    spread: float
    levels: tuple = ()

    def plot_layers(self, sample):
        pdf = lambda x: np.exp(-0.5 * ((np.asarray(x) - self.centre) / self.spread) ** 2)  # noqa: E731
        out = [pr.drawing.Density(pdf, "bump density <k>"), pr.drawing.Marks([self.centre], "bump peak"),
               pr.drawing.Interval(self.centre, self.centre - self.spread, self.centre + self.spread, "bump interval")]
        if self.levels:
            out.append(pr.drawing.LevelVariances(self.levels, [self.spread ** 2, 2 * self.spread ** 2]))
        return out


@attrs.define(repr=False)
class Bump(pr.Estimator):
    """Median and spread, drawn as a bump (no statistics: the protocol's test)."""

    name: ClassVar[str] = "toy-bump"

    def estimate(self, sample):
        s = pr.as_sample(sample)
        levels = tuple(s.levels) if s.n_levels > 1 else ()
        return BumpResult(centre=float(np.median(s.flat)), spread=float(np.std(s.flat)) or 1.0, levels=levels)


@pytest.fixture(scope="module")
def bump(toy):
    plugin = types.ModuleType("bump_plugin")
    plugin.perfrigor_components = pr.hookimpl(lambda: [Bump])
    with pr.registry.temporary(allow=["core"], extra_plugins=[toy, plugin]):
        yield


@pytest.fixture(scope="module")
def html(bump):
    report = pr.Pipeline(["toy-bump", {"component": "toy-verdict", "flags": ["trend"]}]).run(SUITE)
    return report.render("html")


def figures(page: str) -> dict[str, str]:
    return dict(re.findall(r'<figure id="([^"]+)".*?>(.*?)</figure>', page, flags=re.S))


def assert_self_contained(page: str) -> None:
    assert "<script" not in page and "http:" not in page and "https:" not in page
    assert not re.search(r"""(src|href)=["'](?!#|data:)""", page)
    assert not re.search(r"url\((?!#)", page)
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids)), "ids must be unique across the inlined plots"


def test_forest_and_one_distribution_plot_per_benchmark(html):
    figs = figures(html)
    assert "forest" in figs and "<svg" in figs["forest"]
    assert sum(key.endswith("-dist") for key in figs) == 14
    assert "geometric mean" in figs["forest"] and "faster (" in figs["forest"]
    # the notes beside the rows are the time change, not the axis' speedup: labelled so (issue 17)
    assert "time change [" in figs["forest"]
    assert_self_contained(html)
    # the noteworthy benchmarks first, open; the verdict table before the plots
    assert html.index("<h2>Verdicts</h2>") < html.index('id="forest"') < html.index("<h2>Benchmarks</h2>")
    first = re.search(r"<h2>Benchmarks</h2>.*?<details( open)?><summary>([^<]*)</summary>", html, flags=re.S)
    assert first.group(1) == " open" and first.group(2).startswith("saxpy: faster")


def test_a_plugins_layers_are_drawn(html):
    dist = figures(html)["b0-dist"]
    for label in ("bump density &lt;k&gt;", "bump peak", "bump interval", "median compared"):
        assert label in dist, label


def test_run_order_where_the_verdict_noticed_a_trend(html, bump):
    assert sum(key.endswith("-runs") for key in figures(html)) == 14
    plain = pr.Pipeline(["toy-bump", "toy-verdict"]).run(SUITE).render("html", max_plots=3)
    assert not any(key.endswith("-runs") for key in figures(plain))


def test_variance_per_level_for_hierarchical_data(bump):
    page = pr.Pipeline(["toy-bump", "toy-verdict"]).run(FIX / "tidy.csv").render("html")
    levels = [k for k in figures(page) if k.endswith("-levels")]
    assert levels and "share of the variance" in figures(page)[levels[0]]
    assert_self_contained(page)


def test_hierarchical_data_get_their_levels_even_without_a_result_offering_them(bump):
    page = pr.Pipeline(["toy-verdict"]).run(FIX / "tidy.csv").render("html")
    levels = [k for k in figures(page) if k.endswith("-levels")]
    assert levels and "invocation" in figures(page)[levels[0]] and "iteration" in figures(page)[levels[0]]
    flat = pr.Pipeline(["toy-verdict"]).run(SUITE).render("html", max_plots=2)
    assert not any(k.endswith("-levels") for k in figures(flat))


def test_plots_can_be_left_out(bump):
    page = pr.Pipeline(["toy-bump", "toy-verdict"]).run(SUITE).render("html", plots=False)
    assert "<svg" not in page and "<h2>Verdicts</h2>" in page


def test_layers_must_be_drawing_layers():
    class Bad(pr.Result):
        def plot_layers(self, sample):
            return ["a line"]

    with pytest.raises(TypeError, match="Bad.plot_layers returned str"):
        pr.drawing.layers(Bad(), pr.Sample([1.0, 2.0]))
    assert pr.drawing.layers(pr.Estimate(estimate=1.0), pr.Sample([1.0, 2.0])) == []
    with pytest.raises(ValueError, match="2 levels but 1 variances"):
        pr.drawing.LevelVariances(("a", "b"), [1.0])


def test_many_benchmarks_open_the_noteworthy_and_fold_the_rest(bump, monkeypatch):
    from perfrigor.renderers import _figures

    monkeypatch.setattr(_figures, "FOREST_ROWS", 5)
    monkeypatch.setattr(_figures, "OPEN_PLOTS", 3)
    report = pr.Pipeline(["toy-verdict"]).run(SUITE)
    page = report.render("html", max_plots=5)
    noteworthy = sum(v.outcome != "same" for v in report.verdicts.values())
    assert "All 14 benchmarks" in page and "forest-all" in figures(page)
    assert "The 5 benchmarks that changed or are unclear (the largest changes)" in page or noteworthy < 5
    groups = re.findall(r"<details( open)?><summary>", page.split("<h2>Benchmarks</h2>")[1])
    assert groups.count(" open") == 3 and "3 plot group(s) open" in page


def test_reports_without_verdicts_draw_a_comparisons_forest(bump):
    from perfrigor.renderers import _figures

    report = pr.Pipeline(["toy-bump", "toy-ratio"]).run(SUITE)
    rows, suite, _, source = _figures._rows(report)
    assert source == "toy-ratio" and len(rows) == 14 and suite is None
    assert "forest" in figures(report.render("html", max_plots=0))


def test_neither_help_nor_text_reports_import_matplotlib():
    code = ("import sys, perfrigor as pr\n"
            "from perfrigor.cli import main\n"
            "main(['--help'])\n"
            "assert 'matplotlib' not in sys.modules, 'perfrigor --help imported matplotlib'\n"
            "report = pr.Pipeline(['fieller', 'verdict']).run([1.0, 1.1, 1.2, 1.05] * 3, [0.9, 0.95, 1.0, 0.92] * 3)\n"
            "for fmt in ('text', 'markdown', 'json'):\n"
            "    report.render(fmt, verbose=True)\n"
            "assert 'matplotlib' not in sys.modules, 'a text report imported matplotlib'\n"
            "report.render('html')\n"
            "assert 'matplotlib' in sys.modules, 'the html report drew no plot'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_max_plots_names_the_benchmarks_left_undrawn(bump, capsys, tmp_path):
    report = pr.Pipeline(["toy-verdict"]).run(SUITE)
    page = report.render("html", max_plots=2)
    assert sum(k.endswith("-dist") for k in figures(page)) == 2
    assert "12 more benchmark(s), not drawn" in page and "--max-plots 14" in page
    with pytest.raises(pr.ConfigError, match="max_plots must be a whole number"):
        report.render("html", max_plots=-1)
    from perfrigor.cli import main

    out = tmp_path / "r.html"
    assert main(["run", "--pipeline", "toy-verdict", str(SUITE), "-o", str(out), "--max-plots", "1"]) == 0
    assert sum(k.endswith("-dist") for k in figures(out.read_text())) == 1
    assert main(["run", "--pipeline", "toy-verdict", str(SUITE), "--max-plots", "1"]) == 2
    assert "--max-plots: the text renderer takes no option 'max_plots'" in capsys.readouterr().err


def test_thousands_of_points_become_one_embedded_bitmap():
    from perfrigor.plots import svg
    from perfrigor.plots.distributions import RASTER_ABOVE, Side, distributions

    rng = np.random.default_rng(0)
    big = [Side("a", rng.normal(1.0, 0.1, 3 * RASTER_ABOVE), "#4a5568"), Side("b", rng.normal(0.9, 0.1, 50), "#3182ce")]
    page = svg(distributions(big, "s"), "t-")
    assert page.count("<image") == 1 and 'href="data:image/png;base64,' in page
    assert len(page) < 200_000
    assert_self_contained(page)


def test_forest_spans_at_least_five_percent_around_one():
    pytest.importorskip("matplotlib")
    from perfrigor.plots.forest import Row, forest

    fig = forest([Row("only", 1.009, None, None, "unclear", "-0.9%")], threshold=0.01)
    low, high = fig.axes[0].get_xlim()
    assert low <= 1 / 1.05 and high >= 1.05  # the dot is not pushed to the axis' edge
