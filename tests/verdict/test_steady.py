"""The verdict compares the steady parts: each series' warm-up left out, as a steady-state check finds it."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import attrs
import benchmark_scripts
import numpy as np
import perfrigor as pr
import pytest
from perfrigor import cli

HERE = Path(__file__).resolve().parent
TRAINI = HERE.parent / "fixtures" / "traini-steady-state" / "forks.json.gz"
SHARED = HERE.parents[1] / ".." / "shared" / "data"


def fading(rng, n, w, height=0.4, cv=0.01):
    """n runs at ``cv`` noise warming up for ``w`` runs from ``height`` slower (a decay reaching 1% at w)."""
    x = 1.0 + cv * rng.standard_normal(n)
    if w:
        x[:w] *= 1.0 + height * np.exp(np.log(0.01 / height) * np.arange(w) / w)
    return x


def forks(rng, warmups, n=400, speedup=1.0, never=()):
    """Forks x n iterations (0.5% fork effect, 1% noise), fork i warming up ``warmups[i]`` iterations; the
    forks in ``never`` get 10% slower over their last 15% (never steady)."""
    rows = []
    for i, w in enumerate(warmups):
        x = fading(rng, n, w) * (1.0 + 0.005 * rng.standard_normal())
        if i in never:
            x[int(0.85 * n):] *= 1.10
        rows.append(x / speedup)
    return pr.Sample(np.array(rows), unit="s", levels=("fork", "iteration"))


def test_forks_are_compared_on_their_steady_iterations_and_the_warmup_is_said() -> None:
    rng = np.random.default_rng(1)
    old = forks(rng, [300, 0, 250, 200, 0, 280])
    new = forks(rng, [0, 0, 0, 100, 0, 0], speedup=1.05)
    v = pr.get("verdict").compare(old, new)
    whole = pr.get("verdict", steady=False).compare(old, new)
    # a fading warm-up is steady once within the relevance (5%): what is left of it weighs in, by < 1% here
    assert v.outcome == "faster" and abs(v.speedup / 1.05 - 1) < 0.01 and v.ci_high / v.ci_low < 1.02
    assert "warmup" in v.details["flags"]
    assert any(r.startswith("baseline: warm-up left out: first ~") and "of 4 of 6 forks" in r for r in v.reasons)
    # without the steady parts the baseline's warm-ups weigh in its fork means: a biased, much wider answer
    assert whole.speedup > 1.08 and whole.ci_high / whole.ci_low > 1.05
    assert not any("warm-up left out" in r for r in whole.reasons)
    assert v.details["steady"]["baseline"]["source"] == "steady-state"


def test_forks_that_never_settle_are_left_out_named_and_widen_the_interval() -> None:
    rng = np.random.default_rng(2)
    old = forks(rng, [0] * 6, never=(1, 4))
    new = forks(rng, [0] * 6, speedup=1.05)
    v = pr.get("verdict").compare(old, new)
    assert "unsteady" in v.details["flags"] and v.details["n_top"] == {"baseline": 4, "candidate": 6}
    assert any("baseline: 2 of 6 forks never reach a steady state: left out" in r for r in v.reasons)
    assert v.ci_low <= 1.05 <= v.ci_high
    # fewer forks: a wider interval than when all six settle
    settled = pr.get("verdict").compare(forks(np.random.default_rng(2), [0] * 6), new)
    assert v.ci_high / v.ci_low > settled.ci_high / settled.ci_low
    # too few settle to leave the others out: all kept whole, and said
    worse = pr.get("verdict").compare(forks(np.random.default_rng(2), [0] * 6, never=(0, 1, 2, 3, 4)), new)
    assert any("5 of 6 forks never reach a steady state: kept whole" in r for r in worse.reasons)
    assert worse.details["n_top"]["baseline"] == 6


def test_a_slowdown_is_named_not_hidden() -> None:
    rng = np.random.default_rng(3)
    x = 1.0 + 0.01 * rng.standard_normal(600)
    x[150:] *= 1.10  # gets 10% slower after 150 runs and stays there
    v = pr.get("verdict").compare(x, 1.0 + 0.01 * rng.standard_normal(600))
    assert "slowdown" in v.details["flags"]
    assert any(r.startswith("baseline slows down: from run 151 of 600") for r in v.reasons)
    f = pr.get("verdict").compare(forks(rng, [0] * 4), pr.Sample(
        np.array([np.concatenate([np.ones(100), np.full(300, 1.1)]) * (1 + 0.01 * rng.standard_normal(400))
                  for _ in range(4)]), unit="s", levels=("fork", "iteration")))
    assert "slowdown" in f.details["flags"] and f.outcome == "slower"
    assert any("candidate: 4 of 4 forks slow down" in r for r in f.reasons)


def test_flat_runs_that_never_settle_are_compared_whole_and_named() -> None:
    rng = np.random.default_rng(8)
    x = 1.0 + 0.01 * rng.standard_normal(600)
    x[520:] *= 1.10  # still moving at the end of the run
    v = pr.get("verdict").compare(x, 1.0 + 0.01 * rng.standard_normal(600))
    assert "unsteady" in v.details["flags"] and v.details["steady"]["baseline"]["starts"] == [None]
    assert any(r.startswith("baseline's runs never reach a steady state") for r in v.reasons)


def test_a_long_flat_warmup_is_left_out_and_the_rest_compared() -> None:
    rng = np.random.default_rng(4)
    old, new = 1.0 + 0.01 * rng.standard_normal(3000), 1.0 + 0.01 * rng.standard_normal(3000)
    old[:800] *= 1.3  # a JIT compiles the hot loop after 800 runs of the baseline, 100 of the candidate
    new[:100] *= 1.3
    v = pr.get("verdict").compare(old, new)
    assert v.outcome == "same" and "warmup" in v.details["flags"]
    assert any(r.startswith("baseline: warm-up left out: the first") for r in v.reasons)
    assert pr.get("verdict", steady=False).compare(old, new).outcome != "same"


@pytest.mark.parametrize("seed", range(4))
def test_clean_runs_are_judged_as_without_the_steady_state_check(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for n in (30, 200):
        x, y = 1.0 + 0.01 * rng.standard_normal(n), (1.0 + 0.01 * rng.standard_normal(n)) / 1.005
        on, off = pr.get("verdict").compare(x, y), pr.get("verdict", steady=False).compare(x, y)
        assert (on.outcome, on.ci_low, on.ci_high) == (off.outcome, off.ci_low, off.ci_high)


@attrs.frozen(kw_only=True)
class _Fixed(pr.SteadyStateCheck):
    pass


@attrs.define
class FixedStarts(pr.Estimator):
    """A third-party steady-state detector: every series steady from iteration ``start``."""

    name = "fixed-starts"
    start: int = 0

    def estimate(self, sample):
        s = pr.as_sample(sample)
        rows = s.values.reshape(-1, s.values.shape[-1])
        series = tuple(pr.SeriesState(name=f"series {i}", classification="warmup", steady_start=self.start,
                                      n=rows.shape[1]) for i in range(rows.shape[0]))
        return _Fixed(estimate=None, series=series, classification="warmup", steady_start=self.start)


def test_any_step_whose_result_is_a_steady_state_check_feeds_the_verdict() -> None:
    rng = np.random.default_rng(5)
    old, new = forks(rng, [200] * 4), forks(rng, [200] * 4)
    pipe = pr.Pipeline([FixedStarts(start=350), {"component": "verdict"}])
    report = pipe.run(pr.Suite({"bench": {"baseline": old, "candidate": new}}, systems=("baseline", "candidate")))
    v = next(iter(report.benchmark_results["bench"]["verdict"].values()))
    assert v.details["steady"]["baseline"] == {"source": "fixed-starts", "starts": [350] * 4, "counts": {}}
    assert any("first ~350 iterations of 4 of 4 forks" in r for r in v.reasons)


def test_a_pipelines_steady_state_step_is_read_not_rerun_and_the_switch_is_reachable(tmp_path) -> None:
    rng = np.random.default_rng(6)
    old, new = fading(rng, 800, 400), fading(rng, 800, 0) / 1.03
    (tmp_path / "old.txt").write_text("\n".join(f"{v:.6f}" for v in old))
    (tmp_path / "new.txt").write_text("\n".join(f"{v:.6f}" for v in new))
    cfg = tmp_path / "p.toml"
    cfg.write_text('[[steps]]\ncomponent = "steady-state"\nid = "warm"\n\n[[steps]]\ncomponent = "verdict"\n')
    out = tmp_path / "r.json"
    assert cli.main(["compare", str(tmp_path / "old.txt"), str(tmp_path / "new.txt"), "-c", str(cfg),
                     "-f", "json", "-o", str(out)]) == 0
    text = out.read_text()
    assert "as warm finds the steady state" in text
    cfg.write_text('[[steps]]\ncomponent = "verdict"\nsteady = false\n')
    assert cli.main(["compare", str(tmp_path / "old.txt"), str(tmp_path / "new.txt"), "-c", str(cfg),
                     "-f", "json", "-o", str(out)]) == 0
    assert "warm-up left out" not in out.read_text()
    assert cli.main(["compare", str(tmp_path / "old.txt"), str(tmp_path / "new.txt"), "-p", "default",
                     "--param", "verdict.steady=false", "-f", "json", "-o", str(out)]) == 0
    assert "warm-up left out" not in out.read_text()


def test_a_suite_revises_hierarchical_verdicts_on_the_steady_iterations() -> None:
    rng = np.random.default_rng(7)
    data = {f"b{i}": {"baseline": forks(rng, [250, 0, 200, 150]), "candidate": forks(rng, [0] * 4, speedup=1.05)}
            for i in range(3)}
    report = pr.Pipeline([{"component": "verdict"}]).run(pr.Suite(data, systems=("baseline", "candidate")))
    for b in data:
        v = next(iter(report.benchmark_results[b]["verdict"].values()))
        assert abs(v.speedup / 1.05 - 1) < 0.01 and v.outcome == "faster", (b, v.reasons)


def test_real_jmh_forks_warmups_left_out() -> None:
    """Two forks of RxJava's FlattenRangePerf.observable (Traini et al.'s labels: steady from iterations 2,381
    and 1,589 of 3,000; tests/fixtures/traini-steady-state/ORIGIN.md) on each side, the candidate 5% faster:
    the warm-ups are found and left out, and the fork means' interval narrows."""
    rows = json.loads(gzip.decompress(TRAINI.read_bytes()))
    both = np.array([rows[0]["values"], rows[1]["values"]])
    old = pr.Sample(both, unit="s", levels=("fork", "iteration"))
    new = pr.Sample(both[::-1] / 1.05, unit="s", levels=("fork", "iteration"))
    v, whole = pr.get("verdict").compare(old, new), pr.get("verdict", steady=False).compare(old, new)
    starts = v.details["steady"]["baseline"]["starts"]
    assert abs(starts[0] - 2381) <= 3 and abs(starts[1] - 1589) <= 3
    assert any(re.search(r"baseline: warm-up left out: first ~19\d\d iterations of 2 of 2 forks", r)
               for r in v.reasons), v.reasons
    assert v.ci_high / v.ci_low < whole.ci_high / whole.ci_low


def _script():
    """benchmarks/steady_verdict.py, the families and the real-data check of docs/methods/steady-state.md."""
    return benchmark_scripts.load("steady_verdict")


@pytest.mark.slow
def test_warmed_up_forks_hold_the_level_and_the_steady_parts_find_the_change() -> None:
    """The warmup-forks family (docs/methods/steady-state.md's table, small): A/A false alarms within the bound,
    a true 5% change found where the verdict without the steady parts mostly misses it, never the wrong way."""
    noise = _script().FAMILIES["warmup-forks"]
    verdict = pr.get("verdict", dependence="benchmark", suite_control="none")
    aa = [verdict.compare(a, b).outcome for a, b in noise.pairs(6, 24, 1.0, 11)]
    assert sum(o in ("faster", "slower") for o in aa) <= 3  # 5% + 2 SE of 24 replicates: 13.9%
    pairs = noise.pairs(6, 16, 1.05, 12)
    found = [verdict.compare(a, b).outcome for a, b in pairs]
    assert found.count("faster") >= 14 and "slower" not in found
    plain = pr.get("verdict", dependence="benchmark", suite_control="none", steady=False)
    assert sum(plain.compare(a, b).outcome == "faster" for a, b in pairs) <= 12


def _aipt_dirs() -> list[Path]:
    return sorted(p.parent for p in SHARED.glob("**/timeseries") if p.is_dir()) if SHARED.is_dir() else []


@pytest.mark.slow
def test_real_jmh_forks_in_shared_data_split_five_against_five() -> None:
    """Every benchmark of JMH forks in ../shared/data (AIPT layout: timeseries/*.json), forks 1-5 against 6-10:
    unchanged code is never called changed the wrong way round, and a 5% change is never called the other way."""
    dirs = _aipt_dirs()
    if not dirs:
        pytest.skip("no JMH forks (timeseries/*.json) in ../shared/data")
    rows = {r["method"]: r for r in _script().real(dirs[0])}
    assert rows["verdict"]["wrong"] == 0
    assert rows["verdict"]["alarm"] <= max(1, 0.1 * rows["verdict"]["splits"])
