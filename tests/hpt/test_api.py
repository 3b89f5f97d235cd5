"""The hpt component through perfrigor's public API: registry, preset, pipeline, tidy CSV,
command line, errors, serialisation, and the runnable example of docs/methods/hpt.md."""

from __future__ import annotations

import csv
import json
import math
import re
from pathlib import Path

import numpy as np
import perfrigor as pr
import pytest
from perfrigor_plugins.hpt import HPT

from .paper_data import TABLE3_X_TILDE, TABLE3_Y

DOC = Path(__file__).resolve().parents[2] / "docs" / "methods" / "hpt.md"


def suite_data(seed: int = 0, n: int = 12, runs: int = 5, speedup: float = 1.4):
    rng = np.random.default_rng(seed)
    base = {f"bench{i:02d}": (i + 1) * rng.lognormal(0, 0.03, runs) for i in range(n)}
    cand = {b: (i + 1) / speedup * rng.lognormal(0, 0.03, runs) for i, b in enumerate(base)}
    return base, cand


def write_tidy(path: Path, systems: dict[str, dict]) -> Path:
    with path.open("w", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(["benchmark", "system", "run", "value"])
        for system, data in systems.items():
            for bench, runs in data.items():
                out.writerows([bench, system, i, repr(float(v))] for i, v in enumerate(runs, 1))
    return path


def test_registered_component_and_preset():
    assert pr.components()["hpt"] == "comparator"
    comp = pr.get("hpt", confidence=0.9)
    assert isinstance(comp, HPT) and comp.scope == "suite" and comp.confidence == 0.9
    assert [s.component.name for s in pr.pipeline("hpt").steps] == ["hpt", "verdict"]


def test_conformance_battery():
    from perfrigor.testing import check_component

    check_component(HPT)


@pytest.mark.parametrize(("param", "value"), [
    ("benchmark_confidence", 0.3), ("benchmark_confidence", 1.0), ("exact_rule", "floor"), ("normalize", "mean"),
    ("speedup", 0), ("speedup", -1.5), ("max_speedup", 0.5), ("confidence", 95), ("alpha", 0.05),
])
def test_bad_parameters_are_config_errors(param, value):
    with pytest.raises(pr.ConfigError, match=param):
        pr.get("hpt", **{param: value})


def test_pipeline_on_a_suite_built_in_the_test():
    base, cand = suite_data()
    suite = pr.Suite.from_pairs(base, cand, names=("old", "new"))
    report = pr.pipeline("hpt").run(suite)
    res = report.result("hpt")
    direct = HPT().compare(base, cand)
    assert (report.baseline, report.candidate) == ("old", "new")
    assert res.estimate == direct.estimate and res.pvalue == direct.pvalue
    assert res.estimate is not None and 1.2 < res.estimate < 1.45
    assert "Geometric-mean speedup" in report.render("text")
    json.loads(report.render("json"))


def test_pipeline_picks_the_systems_of_a_larger_suite():
    base, cand = suite_data(1)
    _, other = suite_data(2, speedup=0.8)
    suite = pr.Suite({b: {"a": base[b], "b": other[b], "c": cand[b]} for b in base})
    report = pr.Pipeline([{"component": "hpt"}], baseline="a", candidate="c").run(suite)
    assert report.result("hpt").estimate == HPT().compare(base, cand).estimate


def test_tidy_csv_through_read_and_pipeline(tmp_path):
    base, cand = suite_data(3)
    path = write_tidy(tmp_path / "suite.csv", {"old": base, "new": cand})
    suite = pr.read(path)
    assert isinstance(suite, pr.Suite) and suite.systems == ("old", "new")
    from_file = pr.pipeline("hpt").run(path).result("hpt")
    assert from_file.estimate == HPT().compare(base, cand).estimate
    assert from_file.pvalue == pytest.approx(HPT().compare(base, cand).pvalue)


def test_one_file_per_system(tmp_path, capsys):
    from perfrigor import cli

    base, cand = suite_data(6)
    for name, data in (("old", base), ("new", cand)):
        with (tmp_path / f"{name}.csv").open("w", newline="") as fh:
            out = csv.writer(fh)
            out.writerow(["benchmark", "run", "value"])
            for bench, runs in data.items():
                out.writerows([bench, i, repr(float(v))] for i, v in enumerate(runs, 1))
    expected = HPT().compare(base, cand)
    report = pr.pipeline("hpt").run(tmp_path / "old.csv", tmp_path / "new.csv")
    assert report.result("hpt").estimate == expected.estimate
    assert cli.main(["compare", "--pipeline", "hpt", str(tmp_path / "old.csv"), str(tmp_path / "new.csv")]) == 0
    assert f"0.95-Speedup {expected.estimate:.2f}" in capsys.readouterr().out


def test_command_line_runs_the_preset(tmp_path, capsys):
    from perfrigor import cli

    base, cand = suite_data(4)
    path = write_tidy(tmp_path / "suite.csv", {"old": base, "new": cand})
    assert cli.main(["run", "--pipeline", "hpt", str(path), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    res = out["suite"]["hpt"]
    assert res["estimate"] == HPT().compare(base, cand).estimate
    assert res["details"]["gm_speedup"] == pytest.approx(HPT().compare(base, cand).details["gm_speedup"])


def test_result_serialises_to_strict_json():
    res = HPT(normalize="none").compare({b: pr.Sample(v, lower_is_better=False) for b, v in TABLE3_Y.items()},
                                        {b: pr.Sample(v, lower_is_better=False) for b, v in TABLE3_X_TILDE.items()})
    data = json.loads(json.dumps(res.to_dict(), allow_nan=False))
    assert data["details"]["benchmarks"]["fmm"]["winner"] == "tie"
    assert data["details"]["benchmarks"]["fmm"]["tied_runs"] == 6  # 1.05 x 4 and 1.04 x 2
    assert data["details"]["benchmarks"]["radiosity"]["tied_runs"] == 9  # 1.01 x 4 and 1.00 x 5
    assert data["details"]["R_A"] == 80 and data["type"] == "Comparison"
    assert res.describe() == res.verdict and "0.954712" not in res.verdict and "0.9547" in res.verdict


def test_array_likes_and_samples_agree():
    base, cand = suite_data(5)
    ref = HPT().compare({b: pr.Sample(v) for b, v in base.items()}, {b: pr.Sample(v) for b, v in cand.items()})
    lists = HPT().compare({b: v.tolist() for b, v in base.items()}, {b: v.tolist() for b, v in cand.items()})
    assert (lists.estimate, lists.pvalue) == (ref.estimate, ref.pvalue)


# ----------------------------------------------------------------------------------- errors

def test_different_benchmarks_are_a_data_error():
    base, cand = suite_data()
    cand["extra"] = cand.pop("bench00")
    with pytest.raises(pr.DataError, match=r"only in baseline: \['bench00'\].*only in candidate: \['extra'\]"):
        HPT().compare(base, cand)


def test_bad_values_are_data_errors_naming_the_benchmark():
    base, cand = suite_data()
    cand["bench03"] = cand["bench03"].copy()
    cand["bench03"][2] = math.nan
    with pytest.raises(pr.DataError, match="bench03"):
        HPT().compare(base, cand)
    cand["bench03"][2] = -1.0
    with pytest.raises(pr.DataError, match=r"benchmark 'bench03', candidate.*not positive"):
        HPT().compare(base, cand)


def test_mixed_directions_and_non_mappings_are_data_errors():
    base, cand = suite_data()
    cand = {b: pr.Sample(v, lower_is_better=(b != "bench05")) for b, v in cand.items()}
    with pytest.raises(pr.DataError, match=r"mixed metric directions: bench05 \(candidate\)"):
        HPT().compare(base, cand)
    units = {b: pr.Sample(v, unit="ms") for b, v in suite_data()[1].items()}
    with pytest.raises(pr.DataError, match=r"in 's' for the baseline but in 'ms' for the candidate"):
        HPT().compare(base, units)
    with pytest.raises(pr.DataError, match="two mappings"):
        HPT().compare([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])
    with pytest.raises(pr.DataError, match="no benchmarks"):
        HPT().compare({}, {})


# ------------------------------------------------------------------------------ the docs page

def test_docs_example_runs(tmp_path, monkeypatch, capsys):
    text = DOC.read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    exec(compile(code, str(DOC), "exec"), {})
    out = capsys.readouterr().out
    assert "0.95-Speedup 1.29" in out and "GM speedup 1.339" in out
    from perfrigor import cli

    assert "perfrigor run --pipeline hpt suite.csv" in text
    assert cli.main(["run", "--pipeline", "hpt", "suite.csv"]) == 0
    assert "0.95-Speedup 1.29" in capsys.readouterr().out
    toml = re.search(r"```toml\n(.*?)```", text, re.S).group(1)
    (tmp_path / "hpt.toml").write_text(toml)
    assert cli.main(["run", "hpt.toml", "suite.csv"]) == 0
    assert "0.9-Speedup" in capsys.readouterr().out
