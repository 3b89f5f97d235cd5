"""History: reading histories, the history and e-divisive detectors, the perfrigor history command."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import perfrigor as pr
import pytest
from perfrigor.cli import main

FIXTURES = Path(__file__).parents[1] / "fixtures" / "mongodb-signal-processing"


def write_history(path: Path, levels: dict[str, np.ndarray], runs: int = 10, seed: int = 0, noise: float = 0.01,
                  order: bool = False) -> Path:
    """A tidy CSV: benchmark, commit, [order,] run, value; ``levels[b][c]`` the level of commit c."""
    rng = np.random.default_rng(seed)
    lines = ["benchmark,commit," + ("order," if order else "") + "run,value"]
    for bench, level in levels.items():
        for c, lv in enumerate(level):
            for r in range(runs):
                value = lv * math.exp(rng.normal(0, noise))
                lines.append(f"{bench},c{c:03d}," + (f"{c * 10}," if order else "") + f"{r},{value:.6g}")
    path.write_text("\n".join(lines) + "\n")
    return path


def steps(n: int, at: int | None = None, factor: float = 1.05) -> np.ndarray:
    level = np.ones(n)
    if at is not None:
        level[at:] *= factor
    return level


# ------------------------------------------------------------------ reading


def test_tidy_table_with_runs(tmp_path) -> None:
    path = write_history(tmp_path / "h.csv", {"a": steps(20), "b": steps(20)}, runs=3)
    h = pr.History.read(path)
    assert h.commits[:3] == ("c000", "c001", "c002") and len(h) == 20 and set(h.benchmarks) == {"a", "b"}
    b = h.benchmarks["a"]
    assert b.values.size == 60 and b.unit_id.max() == 2 and b.unit == "s" and b.lower_is_better
    assert list(h.samples("a"))[:2] == ["c000", "c001"]


def test_order_and_date_columns_sort_the_commits(tmp_path) -> None:
    path = tmp_path / "h.csv"
    path.write_text("benchmark,commit,date,value\nb,x,2024-03-01,1\nb,y,2024-01-05,2\nb,z,2024-02-01T10:00:00Z,3\n")
    h = pr.History.read(path)
    assert h.commits == ("y", "z", "x") and h.order == ("2024-01-05", "2024-02-01T10:00:00Z", "2024-03-01")
    assert h.benchmarks["b"].values[h.benchmarks["b"].commit == 0].tolist() == [2.0]
    path.write_text("benchmark,commit,order,value\nb,x,3,1\nb,y,1,2\nb,x,2,3\n")
    with pytest.raises(pr.DataError, match=r"line 4: commit 'x' has order '2'"):
        pr.History.read(path)


def test_forks_are_the_replication_unit(tmp_path) -> None:
    path = tmp_path / "h.csv"
    rows = ["benchmark,commit,fork,iteration,value"]
    rows += [f"b,{c},{f},{i},{1 + f + 0.1 * i}" for c in ("p", "q") for f in range(2) for i in range(3)]
    path.write_text("\n".join(rows) + "\n")
    b = pr.History.read(path).benchmarks["b"]
    commit, mean = b.units()
    assert commit.tolist() == [0, 0, 1, 1] and np.allclose(mean, [1.1, 2.1, 1.1, 2.1])


def test_bad_tables_are_named_by_line(tmp_path) -> None:
    path = tmp_path / "h.csv"
    path.write_text("benchmark,commit,value\nb,x,1\nb,y,fast\n")
    with pytest.raises(pr.DataError, match=r"line 3: value 'fast' is not a number"):
        pr.History.read(path)
    path.write_text("benchmark,commit,value\nb,,1\n")
    with pytest.raises(pr.DataError, match="line 2: missing commit"):
        pr.History.read(path)
    path.write_text("benchmark,value\nb,1\n")
    with pytest.raises(pr.DataError, match="no commit column"):
        pr.History.read(path)


def test_result_files_one_per_commit_by_name_and_by_manifest(tmp_path) -> None:
    d = tmp_path / "runs"
    d.mkdir()
    for i, level in enumerate((1.0, 1.0, 2.0)):
        (d / f"run{i + 8}.txt").write_text("\n".join(str(level + 0.01 * k) for k in range(5)) + "\n")
    h = pr.History.read(d)
    assert h.commits == ("run8", "run9", "run10")  # natural order, not run10 first
    assert h.benchmarks["benchmark"].values.size == 15
    (tmp_path / "m.csv").write_text("commit,file\nv3,runs/run10.txt\nv1,runs/run8.txt\n")
    h = pr.History.read(manifest=tmp_path / "m.csv")
    assert h.commits == ("v3", "v1") and h.benchmarks["benchmark"].values[:1].tolist() == [2.0]
    (tmp_path / "m.csv").write_text("commit,file\nv1,runs/run8.txt\nv1,runs/run9.txt\n")
    with pytest.raises(pr.DataError, match="listed twice"):
        pr.History.read(manifest=tmp_path / "m.csv")


def test_python_data_as_histories() -> None:
    h = pr.as_history(np.ones((30, 4)))
    assert len(h) == 30 and h.benchmarks["benchmark"].values.size == 120
    h = pr.as_history({"x": np.ones(10), "y": np.ones((10, 2, 3))})
    assert h.benchmarks["y"].units()[1].size == 20
    with pytest.raises(pr.DataError, match="different numbers of commits"):
        pr.as_history({"x": np.ones(10), "y": np.ones(9)})
    suite = pr.Suite({"b": {"v1": pr.Sample([1.0, 1.1]), "v2": pr.Sample([2.0, 2.1])}})
    assert pr.as_history(suite).commits == ("v1", "v2")
    assert pr.as_history(h) is h and h.head(4).commits == ("1", "2", "3", "4")


# ------------------------------------------------------------------ the history detector


def history(levels: dict[str, np.ndarray], runs: int = 10, seed: int = 0, noise: float = 0.01) -> pr.History:
    rng = np.random.default_rng(seed)
    return pr.as_history({b: lv[:, None] * np.exp(rng.normal(0, noise, (lv.size, runs))) for b, lv in levels.items()})


def test_a_step_is_found_with_its_commit_range_speedup_and_pvalue() -> None:
    res = pr.get("change-scan").detect(history({"a": steps(200, 120), "b": steps(200), "c": steps(200, 60, 0.95)}))
    found = {c.benchmark: c for c in res.changes}
    assert set(found) == {"a", "c"}
    a, c = found["a"], found["c"]
    assert a.index == 120 and a.first_index <= 120 <= a.last_index and a.outcome == "slower"
    assert a.ci_low < 1 / 1.05 < a.ci_high and a.speedup == pytest.approx(1 / 1.05, rel=0.005)
    assert c.outcome == "faster" and c.index == 60 and c.pvalue < 1e-6 and c.qvalue is not None
    doc = res.to_dict()
    assert set(doc) == {"changes", "pending"} and doc["changes"][0]["benchmark"] == "a"  # newest first
    assert {"benchmark", "commit", "index", "first", "last", "speedup", "ci_low", "ci_high", "pvalue",
            "outcome"} <= set(doc["changes"][0])


def test_no_change_no_false_alarm_and_a_spike_is_not_a_change() -> None:
    level = steps(150)
    level[70] *= 1.3  # one slow commit (a busy runner)
    res = pr.get("change-scan").detect(history({"a": level, "b": steps(150)}, seed=3))
    assert not res.changes and not res.pending and res.fits["a"].damped == (70,)


def test_the_last_commits_are_pending_not_changes() -> None:
    res = pr.get("change-scan").detect(history({"a": steps(100, 98, 1.1), "b": steps(100)}, seed=4))
    assert not res.changes and [(p.benchmark, p.index, p.commits) for p in res.pending] == [("a", 98, 2)]
    assert res.pending[0].speedup < 1 and res.to_dict()["pending"][0]["outcome"] == "slower"
    # once enough commits follow, the change is confirmed at the same commit
    res = pr.get("change-scan").detect(history({"a": steps(103, 98, 1.1), "b": steps(103)}, seed=4))
    assert [(c.benchmark, c.index) for c in res.changes] == [("a", 98)] and not res.pending


def test_changes_do_not_move_when_commits_are_appended() -> None:
    levels = steps(300, 80) * steps(300, 190, 0.93)
    full = history({"a": levels, "b": steps(300, 150, 1.03)}, seed=5)
    detector = pr.get("change-scan")
    before = detector.detect(full.head(220))
    after = detector.detect(full)
    key = [(c.benchmark, c.commit, c.first, c.last) for c in before.changes]
    assert sorted(key) == sorted((c.benchmark, c.commit, c.first, c.last) for c in after.changes)
    assert len(key) == 3


def test_false_discovery_rate_over_benchmarks() -> None:
    """Changes are decided together: the same weak step passes alone and not among 200 benchmarks
    without change whose tests the false discovery rate counts."""
    weak = {"w": steps(60, 30, 1.003)}
    alone = pr.get("change-scan").detect(history(weak, runs=1, seed=7, noise=0.01))
    crowd = pr.get("change-scan").detect(history({**weak, **{f"n{i}": steps(60) for i in range(200)}}, runs=1, seed=7,
                                             noise=0.01))
    assert crowd.tested > 200
    w_alone = [c for c in alone.changes if c.benchmark == "w"]
    w_crowd = [c for c in crowd.changes if c.benchmark == "w"]
    assert w_alone and w_alone[0].pvalue < 0.05 and not w_crowd
    assert not [c for c in crowd.changes if c.benchmark != "w"]


def test_throughputs_and_determinism() -> None:
    h = pr.as_history({"ops": pr.Sample(np.exp(np.random.default_rng(1).normal(0, 0.01, (80, 5)))
                                        * steps(80, 40, 1.1)[:, None], lower_is_better=False, unit="ops/s")})
    a = pr.get("change-scan").detect(h)
    assert a.changes[0].outcome == "faster" and a.changes[0].speedup == pytest.approx(1.1, rel=0.01)
    assert a.to_dict() == pr.get("change-scan").detect(h).to_dict()


def test_non_positive_values_are_refused() -> None:
    with pytest.raises(pr.DataError, match="log scale"):
        pr.get("change-scan").detect(np.r_[np.ones(10), 0.0])


def test_detectors_are_a_kind_of_their_own_and_not_pipeline_steps() -> None:
    assert pr.components()["change-scan"] == "detector" and pr.components()["e-divisive"] == "detector"
    assert isinstance(pr.get("change-scan"), pr.Detector)
    with pytest.raises(pr.ConfigError, match="is a detector"):
        pr.Pipeline([{"component": "change-scan"}])


# ------------------------------------------------------------------ e-divisive against MongoDB


@pytest.mark.parametrize("name", ["small", pytest.param("long_series", marks=pytest.mark.slow)])
def test_e_divisive_finds_mongodbs_change_points_with_their_settings(name: str) -> None:
    """signal-processing-algorithms' test data (tests/fixtures/mongodb-signal-processing/ORIGIN.md): the
    same change points as the package itself with pvalue=0.01, permutations=100."""
    from perfrigor_plugins.history.edivisive import e_divisive

    expected = json.loads((FIXTURES / "expected.json").read_text())[name]
    data = json.loads((FIXTURES / expected["file"]).read_text())
    series = data["series"] if isinstance(data, dict) else data
    found = sorted(e_divisive(series, pvalue=0.01, permutations=100, random_state=0))
    assert found == expected["change_points"] and len(found) == expected["expected_count"]


def test_e_divisive_detector_on_mongodbs_unit_cases() -> None:
    from perfrigor_plugins.history.edivisive import e_divisive

    assert e_divisive([0] * 100 + [1] * 100, pvalue=0.01, random_state=0) == [100]
    assert e_divisive([50] * 14 + [74] + [100] * 15, pvalue=0.01, random_state=0) == [15]
    assert e_divisive([50] * 14 + [76] + [100] * 15, pvalue=0.01, random_state=0) == [14]
    assert e_divisive([50] * 30, pvalue=0.01, random_state=0) == []
    res = pr.get("e-divisive", pvalue=0.01).detect(history({"a": steps(60, 30, 1.2)}, runs=3))
    assert [(c.index, c.first, c.last) for c in res.changes] == [(30, "31", "31")]
    assert res.changes[0].outcome == "slower" and res.fdr is None


# ------------------------------------------------------------------ the command


def test_cli_json_contract(tmp_path, capsys) -> None:
    path = write_history(tmp_path / "series.csv", {"a": steps(60, 40), "b": steps(60)})
    assert main(["history", str(path), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) == {"changes", "pending"}
    (change,) = doc["changes"]
    assert change["benchmark"] == "a" and change["commit"] == "c040" and change["index"] == 40
    assert change["first"] <= "c040" <= change["last"] and change["outcome"] == "slower"
    assert change["ci_low"] <= change["speedup"] <= change["ci_high"] and 0 <= change["pvalue"] < 0.05


def test_cli_formats_exit_codes_and_config(tmp_path, capsys) -> None:
    path = write_history(tmp_path / "series.csv", {"a": steps(60, 40), "b": steps(60)}, order=True)
    assert main(["history", str(path)]) == 0
    text = capsys.readouterr().out
    assert "Changes (newest first)" in text and "5.0% slower" in text and "No change: 1 benchmark(s)." in text
    assert main(["history", str(path), "-f", "markdown"]) == 0
    assert "| a | c040 |" in capsys.readouterr().out
    out = tmp_path / "h.html"
    assert main(["history", str(path), "-o", str(out)]) == 0
    page = out.read_text()
    assert page.count("<svg") == 1 and "change range (95%)" in page
    assert main(["history", str(path), "--fail-on-change"]) == 1
    capsys.readouterr()
    config = tmp_path / "h.toml"
    config.write_text('[history]\ndetector = "e-divisive"\npvalue = 0.01\n')
    assert main(["history", str(path), "--config", str(config), "-f", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["changes"][0]["first"] == "c040"
    config.write_text("[history]\nfdr = 2\n")
    assert main(["history", str(path), "--config", str(config)]) == 2
    assert "fdr" in capsys.readouterr().err
    bad = tmp_path / "bad.csv"
    bad.write_text("benchmark,commit,value\nb,x,oops\n")
    assert main(["history", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and "Traceback" not in err


def test_the_history_command_has_its_help(capsys) -> None:
    assert main(["history", "--help"]) == 0
    assert "--manifest" in capsys.readouterr().out


# ------------------------------------------------------------------ calibration (slow)


@pytest.mark.slow
def test_no_change_histories_rarely_raise_a_false_change() -> None:
    """benchmarks/calibration.py --history has the full table (docs/methods/history.md)."""
    rng = np.random.default_rng(21)
    detector = pr.get("change-scan")
    false = 0
    for i in range(60):
        n, runs = (50, 200)[i % 2], (1, 10)[(i // 2) % 2]
        h = pr.as_history(np.exp(rng.normal(0, 0.002, (n, 1)) + rng.normal(0, 0.01, (n, runs))))
        false += bool(detector.detect(h).changes)
    assert false / 60 <= 0.05 + 2 * math.sqrt(0.05 * 0.95 / 60)


@pytest.mark.slow
def test_a_five_percent_step_is_found_with_its_commit_in_the_range() -> None:
    """Issue 26's acceptance: a 5% step at 1% noise with 10 runs per commit."""
    detector = pr.get("change-scan")
    hits = 0
    for seed in range(20):
        res = detector.detect(history({"a": steps(200, 97, 1.05)}, seed=seed))
        hits += any(c.first_index <= 97 <= c.last_index for c in res.changes)
    assert hits >= 19


def test_the_benchmarks_spread_over_an_executor_give_the_same_result() -> None:
    import concurrent.futures as cf

    h = history({f"b{i}": steps(80, 20 + i, 1.05) if i % 3 == 0 else steps(80) for i in range(12)}, seed=9)
    serial = pr.get("change-scan").detect(h)
    with cf.ProcessPoolExecutor(2) as pool:
        spread = pr.get("change-scan").detect(h, executor=pool)
    assert spread.to_dict() == serial.to_dict() and len(serial.changes) == 4


@pytest.mark.slow
def test_the_benchmarks_spread_over_dask_give_the_same_result() -> None:
    distributed = pytest.importorskip("distributed")
    h = history({f"b{i}": steps(60, 30, 1.05) if i % 2 else steps(60) for i in range(6)}, seed=10)
    serial = pr.get("change-scan").detect(h)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) \
            as cluster, distributed.Client(cluster) as client:
        spread = pr.get("change-scan").detect(h, executor=client.get_executor())
    assert spread.to_dict() == serial.to_dict() and len(serial.changes) == 3
