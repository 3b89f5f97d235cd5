"""A report that round-trips (issue 28.1): saved as JSON, read back with only the core, rendered the same.

Every preset runs on a hierarchical suite of three benchmarks (and the default one on two flat
samples); the saved report is loaded inside ``pr.registry.temporary(allow=["core"])`` and its text,
Markdown and HTML (with plots) must equal the live rendering, character for character.
"""

from __future__ import annotations

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
    (json.dumps({MARKER: SCHEMA, "pipeline": "x"}), "a damaged saved report: KeyError"),
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
