"""A report that round-trips (issue 28.1): saved as JSON, read back with only the core, rendered the same.

Every preset runs on a hierarchical suite of three benchmarks (and the default one on two flat
samples); the saved report is loaded inside ``pr.registry.temporary(allow=["core"])`` and its text,
Markdown and HTML (with plots) must equal the live rendering, character for character.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import attrs
import numpy as np
import perfrigor as pr
import pytest
from perfrigor.cli import main
from perfrigor.saved import MARKER, SCHEMA, StoredResult, result_from_dict

FORMATS = ("text", "markdown", "html")
PRESETS = ("default", "speedup-test", "kalibera-jones", "gmm", "hpt")


def _suite() -> pr.Suite:
    rng = np.random.default_rng(3)

    def hierarchical(shift: float) -> pr.Sample:
        values = rng.normal(10 - shift, 0.3, (5, 1)) + rng.normal(0, 0.2, (5, 6))
        return pr.Sample(values, levels=("invocation", "iteration"), unit="ms")

    return pr.Suite({f"b{i}": {"old": hierarchical(0.0), "new": hierarchical(0.3 * i)} for i in range(3)})


def _quick(pipeline: pr.Pipeline) -> pr.Pipeline:
    """The preset with its resampling counts lowered (KSfit's refits dominate the gmm preset's time)."""
    steps = []
    for step in pipeline.steps:
        component = step.component
        if "n_bootstrap" in component.param_names():
            component = component.with_params(n_bootstrap=200)
        steps.append({"component": component.name, "id": step.id, **component.get_params()})
    return pr.Pipeline(steps, name=pipeline.name)


@pytest.fixture(scope="module")
def reports() -> dict[str, pr.Report]:
    suite = _suite()
    out = {preset: _quick(pr.pipeline(preset)).run(suite) for preset in PRESETS}
    rng = np.random.default_rng(1)
    out["flat"] = pr.pipeline("default").run(rng.lognormal(0, 0.1, 40), rng.lognormal(-0.05, 0.1, 40))
    return out


@pytest.mark.parametrize("name", [*PRESETS, "flat"])
def test_a_saved_report_renders_as_the_live_one_with_only_the_core(reports, name):
    live = reports[name]
    saved = json.loads(live.render("json"))
    with pr.registry.temporary(allow=["core"]):
        assert "gmm" not in pr.components()  # only the core is loaded
        loaded = pr.Report.from_dict(saved)
        for fmt in FORMATS:
            assert loaded.render(fmt) == live.render(fmt), f"{name}: {fmt} differs"
        assert loaded.to_dict() == saved  # and saves again as it was


@pytest.mark.parametrize("name", ["default", "kalibera-jones", "flat"])
def test_core_types_come_back_as_themselves_others_keep_their_core_base(reports, name):
    live = reports[name]
    with pr.registry.temporary(allow=["core"]):
        loaded = pr.Report.from_dict(json.loads(live.render("json")))
    pairs = list(zip(live.iter_results(), loaded.iter_results(), strict=True))
    stored = 0
    for (bench, step, key, res), (bench2, step2, key2, back) in pairs:
        assert (bench, step, key) == (bench2, step2, key2)
        assert back.to_dict() == res.to_dict() and back.describe() == res.describe()
        if pr.results.is_core_type(type(res)):
            assert type(back) is type(res)
        else:
            stored += 1
            assert isinstance(back, StoredResult) and isinstance(back, res.core_base())
            assert type(back).__name__ == type(res).__name__ and back.type_tag() == res.type_tag()
    assert stored  # the plugins' own types were there
    assert loaded.verdicts == live.verdicts
    assert [str(k) for k in loaded.benchmark_results[live.benchmarks[0]][live.steps[0].id]] == \
        [str(k) for k in live.benchmark_results[live.benchmarks[0]][live.steps[0].id]]


def test_a_plugins_result_keeps_its_fields_description_and_layers(reports):
    live = reports["flat"]
    fit = live.result("gmm", key="baseline")
    with pr.registry.temporary(allow=["core"]):
        back = pr.Report.from_dict(json.loads(live.render("json"))).result("gmm", key="baseline")
        mode = pr.Report.from_dict(json.loads(live.render("json"))).result("mode-comparison")
    assert back.type_tag() == fit.type_tag() == "gmm:MixtureFit"
    assert back.means == list(fit.means) and back.describe() == fit.describe()
    # a mode comparison is a core evidence type (issue 28): rebuilt as itself, its modes as records
    assert isinstance(mode, pr.ModeComparison) and mode.type_tag() == "ModeComparison"
    assert mode.modes[0].location == live.result("mode-comparison").modes[0].location
    sample = live.data["benchmark"]["baseline"]
    grid = np.linspace(sample.flat.min(), sample.flat.max(), 7)
    (density, *_), (again, *_) = fit.plot_layers(sample), back.plot_layers(sample)
    assert np.array_equal(density.pdf(grid), again.pdf(grid)) and density.label == again.label
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        back.nothing  # noqa: B018


def test_type_tags_name_the_plugin_package_and_the_class():
    assert pr.Comparison.type_tag() == "Comparison" and pr.RatioComparison.type_tag() == "RatioComparison"
    assert pr.get("gmm").estimate(np.arange(20.0) % 7).type_tag() == "gmm:MixtureFit"

    @attrs.frozen(kw_only=True)
    class Renamed(pr.Estimate):
        type_name = "mine:OldName"

    assert Renamed.type_tag() == "mine:OldName" and Renamed.core_base() is pr.Estimate
    d = Renamed(estimate=1.0).to_dict()
    assert d["type"] == "mine:OldName" and d["base"] == "Estimate" and d["description"] == "1"
    back = result_from_dict(d)
    assert isinstance(back, pr.Estimate) and back.estimate == 1.0 and back.describe() == "1"


def test_a_density_given_as_functions_is_saved_tabulated():
    """A third-party result drawing a density from a plain function: the saved report keeps it tabulated."""
    x = np.random.default_rng(2).normal(10, 1, 50)

    @attrs.frozen(kw_only=True)
    class Smooth(pr.Result):
        def plot_layers(self, sample):
            return [pr.drawing.Density(lambda g: np.exp(-0.5 * (np.asarray(g) - 10) ** 2) / np.sqrt(2 * np.pi),
                                       "smooth"),
                    pr.drawing.RunOrderLine(lambda i: 10 + 0.01 * np.asarray(i), "trend")]

    saved = pr.saved.result_to_dict(Smooth(), pr.Sample(x))
    assert [layer["layer"] for layer in saved["layers"]] == ["density", "run-order"]
    density, line = result_from_dict(saved).plot_layers(None)
    grid = np.linspace(9, 11, 5)
    assert np.allclose(density.pdf(grid), np.exp(-0.5 * (grid - 10) ** 2) / np.sqrt(2 * np.pi), atol=1e-4)
    assert np.array_equal(line.values(np.arange(50)), 10 + 0.01 * np.arange(50))  # at every run: exact


def test_reading_a_saved_report_as_data_says_what_it_is(tmp_path, reports):
    path = tmp_path / "report.json"
    path.write_text(reports["flat"].render("json"))
    with pytest.raises(pr.DataError, match=r"report.json: a saved perfrigor report, not measurements: "
                                           r"render it with 'perfrigor render"):
        pr.read(path)
    assert pr.load_report(path).verdicts == reports["flat"].verdicts


@pytest.mark.parametrize(("content", "message"), [
    ("1.0\n2.0\n", "not a saved perfrigor report \\(not JSON"),
    ('{"pipeline": "default", "benchmarks": {}}', "no 'perfrigor_report' key"),
    (json.dumps({MARKER: SCHEMA + 1}), f"layout version {SCHEMA + 1}; this perfrigor reads up to {SCHEMA}"),
    (json.dumps({MARKER: SCHEMA, "pipeline": "x"}), "a damaged saved report: its 'baseline' is missing"),
])
def test_what_is_not_a_saved_report_is_one_clear_error(tmp_path, content, message):
    path = tmp_path / "r.json"
    path.write_text(content)
    with pytest.raises(pr.DataError, match=message):
        pr.load_report(path)


def test_perfrigor_render_writes_what_the_analysis_wrote(tmp_path, capsys):
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_text("".join(f"{10 + 0.1 * (i % 5)}\n" for i in range(20)))
    new.write_text("".join(f"{9.5 + 0.1 * (i % 5)}\n" for i in range(20)))
    saved = tmp_path / "report.json"
    assert main(["compare", str(old), str(new), "-o", str(saved)]) == 0
    assert main(["compare", str(old), str(new), "--format", "markdown"]) == 0
    live = capsys.readouterr().out
    with pr.registry.temporary(allow=["core"]):
        assert main(["render", str(saved), "--format", "markdown"]) == 0
        assert capsys.readouterr().out == live
        assert main(["render", str(saved), "-o", str(tmp_path / "report.html")]) == 0
    assert Path(tmp_path / "report.html").read_text().startswith("<!DOCTYPE html>")
    assert main(["render", str(old)]) == 2
    assert "old.txt: not a saved perfrigor report" in capsys.readouterr().err


# ---------------------------------------------------------------- a plugin drawing from functions; big samples


@attrs.frozen(kw_only=True)
class KernelDensity(pr.Result):
    """A third party's result that draws from plain functions (the drawing module's own example)."""

    bandwidth: float

    def plot_layers(self, sample):
        from scipy import stats

        x = np.asarray(sample, dtype=float).ravel()
        kde = stats.gaussian_kde(x[:: max(1, x.size // 500)], self.bandwidth)
        return [pr.drawing.Density(kde, "kernel density", span=(x.min(), np.inf)),
                pr.drawing.RunOrderLine(lambda i: x.mean() + 0.001 * np.sin(np.asarray(i, dtype=float)), "wave"),
                pr.drawing.Interval(float(x.mean()), np.nan, np.inf, "mean, no interval"),
                pr.drawing.Marks([np.median(x), np.nan], "median")]


@attrs.define
class Kde(pr.Estimator):
    """A kernel density estimate (a third party's estimator)."""

    name = "kde"

    def estimate(self, sample):
        pr.as_sample(sample)
        return KernelDensity(bandwidth=0.3)


def _live_and_saved(report: pr.Report) -> tuple[pr.Report, dict]:
    saved = json.loads(report.render("json"))  # strict JSON: NaN and infinities of the layers as null
    with pr.registry.temporary(allow=["core"]):
        return pr.Report.from_dict(saved), saved


def test_a_plugins_densities_and_curves_from_functions_draw_the_same_saved():
    """Issue 28.1's acceptance for a third party's result: a density and a run-order curve given as
    functions, numbers that are not finite. The live report draws them as the saved one keeps them
    (tabulated), so the HTML is the same with only the core, and the JSON is strict (it was not: NaN)."""
    rng = np.random.default_rng(5)
    report = pr.Pipeline([Kde(), "speedup-test"]).run(rng.lognormal(0, 0.1, 60), rng.lognormal(-0.05, 0.1, 60))
    with pr.registry.temporary(allow=["core"]):
        loaded, saved = _live_and_saved(report)
        assert loaded.render("html") == report.render("html")
        assert loaded.to_dict() == saved
    layers = saved["benchmarks"]["benchmark"]["kde"]["baseline"]["layers"]
    assert [layer["layer"] for layer in layers] == ["density", "run-order", "interval", "marks"]
    assert layers[0]["span"][1] is None and layers[2]["low"] is None and layers[3]["at"][1] is None


def test_a_large_sample_is_saved_and_drawn_as_one_fixed_subsample():
    """A report of many runs stays small when saved: the plots, live and saved, draw the same fixed
    subsample of at most PLOTTED_VALUES values (balanced for a hierarchy), its runs where they were
    measured; the summaries and results come from every value."""
    limit = pr.drawing.PLOTTED_VALUES
    rng = np.random.default_rng(6)
    flat = pr.Sample(rng.lognormal(0, 0.1, 3 * limit))
    nested = pr.Sample(rng.lognormal(-0.05, 0.1, (3, 4, limit // 4)), levels=("build", "invocation", "iteration"))
    report = pr.Pipeline([Kde(), "mean-ci"]).run(pr.Suite({"big": {"flat": flat, "nested": nested}}))
    loaded, saved = _live_and_saved(report)
    values = {s: np.asarray(d["values"]) for s, d in saved["data"]["benchmarks"]["big"].items()}
    assert values["flat"].shape == (limit,) and values["nested"].shape == (3, 4, limit // 4 // 3)
    assert np.isin(values["flat"], flat.flat).all() and np.isin(values["nested"], nested.flat).all()
    assert saved["inputs"]["big"]["flat"]["n"] == 3 * limit  # what was measured, all of it
    run_order = saved["benchmarks"]["big"]["kde"]["flat"]["layers"][1]["values"]["x"]
    assert len(run_order) == limit and run_order == sorted(run_order) and run_order[-1] < 3 * limit
    with pr.registry.temporary(allow=["core"]):
        html = loaded.render("html")
        assert html == report.render("html")
    assert f"Drawn: a fixed subsample, {limit:,} of the {3 * limit:,} runs of flat" in html
    assert pr.drawing.plotted(loaded.data["big"]["flat"]) is loaded.data["big"]["flat"]  # drawn again: the same
    again = report.render("json")
    assert json.loads(again) == saved  # the subsample is fixed
    every = copy.deepcopy(saved)  # a report saved with every value (before the subsample) draws the same
    every["data"]["benchmarks"]["big"]["flat"]["values"] = flat.values.tolist()
    with pr.registry.temporary(allow=["core"]):
        assert pr.Report.from_dict(every).render("html") == html


@attrs.frozen(kw_only=True)
class JuryVerdict(pr.Verdict):
    """A third party's verdict type, holding a result of its own beyond the base's fields."""

    votes: tuple = ()
    inner: pr.Result | None = None

    def describe(self) -> str:
        return f"the jury says {self.outcome} ({sum(self.votes)} votes)"


@attrs.define
class Jury(pr.Comparator):
    """A third party's comparator that gives verdicts."""

    name = "jury"

    def compare(self, baseline, candidate):
        old, new = pr.as_sample(baseline, "baseline"), pr.as_sample(candidate, "candidate")
        s = float(np.median(old.flat) / np.median(new.flat))
        inner = pr.Estimate(estimate=s, ci_low=0.9 * s, ci_high=1.1 * s, confidence=0.95)
        return JuryVerdict(outcome="slower" if s < 0.95 else "faster" if s > 1.05 else "same", speedup=s,
                           ci_low=0.9 * s, ci_high=1.1 * s, confidence=0.95, method="jury", reasons=("votes",),
                           votes=(1, 2), inner=inner, details={"inner": inner})


def test_a_plugins_verdict_type_is_a_verdict_saved_with_its_own_results_rebuilt():
    rng = np.random.default_rng(8)
    suite = pr.Suite({f"b{i}": {"old": rng.lognormal(0, 0.1, 30), "new": rng.lognormal(0.1 * i, 0.1, 30)}
                      for i in range(3)})
    report = pr.Pipeline(["speedup-test", Jury()]).run(suite)
    loaded, saved = _live_and_saved(report)
    with pr.registry.temporary(allow=["core"]):
        for fmt in FORMATS:
            assert loaded.render(fmt) == report.render(fmt), fmt
    verdict = loaded.verdicts["b2"]
    assert isinstance(verdict, pr.Verdict) and isinstance(verdict, StoredResult) and verdict.outcome == "slower"
    assert loaded.regressions() == report.regressions() and loaded.regressions()
    assert verdict.inner == report.verdicts["b2"].inner  # a result beyond the base's fields: rebuilt too
    assert verdict.details["inner"] == report.verdicts["b2"].inner and verdict.votes == [1, 2]


# ---------------------------------------------------------------- a damaged saved report: one error, exit 2

PAIR = "baseline -> candidate"


def _damage(saved: dict, part: str) -> None:
    """One way to damage a saved report of the flat default run (each once crashed a renderer: exit 3)."""
    bench = saved["benchmarks"]["benchmark"]
    layers = bench["gmm"]["baseline"]["layers"]
    summary = saved["inputs"]["benchmark"]["baseline"]
    damage = {
        "benchmarks a list": lambda: saved.update(benchmarks=[]),
        "a result null": lambda: bench["verdict"].update({PAIR: None}),
        "a result a string": lambda: bench.update(gmm="x"),
        "a speedup a string": lambda: bench["verdict"][PAIR].update(speedup="fast"),
        "warnings a string": lambda: bench["gmm"]["baseline"].update(warnings="abc"),
        "inputs a list": lambda: saved.update(inputs=[]),
        "a step id an object": lambda: saved["steps"][0].update(id={"a": 1}),
        "a level name null": lambda: summary.update(levels=[None]),
        "a mean an object": lambda: summary.update(mean={"a": 1}),
        "a shape of another size": lambda: summary.update(shape=[10 ** 12]),
        "a shape beyond any": lambda: summary.update(shape=[10 ** 30]),
        "a shape not numbers": lambda: summary.update(shape="x"),
        "a layer of no kind": lambda: layers[0].update(layer="blob"),
        "a layer's span empty": lambda: layers[0].update(span=[]),
        "normals of unequal lengths": lambda: layers[0]["normals"].update(weights=[]),
        "layers a number": lambda: bench["gmm"]["baseline"].update(layers=5),
        "the version true": lambda: saved.update(perfrigor_report=True),
        "a layer's label an object": lambda: layers[0].update(label={"a": 1}),
    }
    damage[part]()


@pytest.mark.parametrize("part", ["benchmarks a list", "a result null", "a result a string", "a speedup a string",
                                  "warnings a string", "inputs a list", "a step id an object", "a level name null",
                                  "a mean an object", "a shape of another size", "a shape beyond any",
                                  "a shape not numbers", "a layer of no kind", "a layer's span empty",
                                  "normals of unequal lengths", "layers a number", "the version true",
                                  "a layer's label an object"])
def test_a_damaged_saved_report_is_one_data_error_not_a_crash(reports, tmp_path, part):
    """Found by mutating saved reports (2,000 mutations of six reports, every format): a saved report is a
    file, and a damaged one is refused when it is read, in one line naming what is wrong, not a crash
    when it is drawn."""
    saved = json.loads(reports["flat"].render("json"))
    _damage(saved, part)
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(saved))
    with pr.registry.temporary(allow=["core"]), pytest.raises(pr.DataError, match=r"damaged\.json: ") as caught:
        pr.load_report(path)
    assert "\n" not in str(caught.value)


def test_a_saved_report_nested_too_deeply_is_one_data_error(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text('{"perfrigor_report": 1, "x": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(pr.DataError, match="deep.json: not a saved perfrigor report .JSON nested too deeply"):
        pr.load_report(path)


def test_a_plugins_result_read_by_duck_typing_renders_whatever_its_attributes_hold(reports):
    """The step tables read ``pvalue`` of any result by name: a plugin's (live or stored) holding a list
    there crashed the text report (float() of a list)."""
    saved = json.loads(reports["default"].render("json"))
    saved["benchmarks"]["b1"]["gmm"]["old"]["pvalue"] = [1, 2]
    with pr.registry.temporary(allow=["core"]):
        text = pr.Report.from_dict(saved).render("text")
    assert "[1, 2]" in text
