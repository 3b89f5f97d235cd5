"""Pair keys are typed (``pr.PairKey``), so system and benchmark names are arbitrary text.

A tidy CSV whose system is named ``git -> v1`` used to end in "internal error:
KeyError: 'git'" under the speedup-test preset: its summary split the key string.
"""

from __future__ import annotations

import json
import pickle

import numpy as np
import perfrigor as pr
import pytest
from hypothesis import given
from hypothesis import strategies as st
from perfrigor import cli


def _tidy(path, systems, benchmarks=("fib -> x", "sort")):
    rng = np.random.default_rng(1)
    lines = ["benchmark,version,time_ms"]
    for b in benchmarks:
        for i, s in enumerate(systems):
            lines += [f'"{b}","{s}",{v:.4f}' for v in rng.normal(10 - i, 0.3, 35)]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_system_named_like_a_pair_under_the_speedup_test_preset(tmp_path, capsys):
    if "speedup-test" not in pr.get_registry().presets:
        pytest.skip("the speedup-test plugin is not installed")
    data = _tidy(tmp_path / "arrows.csv", ["git -> v1", "v2 -> git"])
    code = cli.main(["run", "--pipeline", "speedup-test", str(data), "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    doc = json.loads(out)
    assert (doc["baseline"], doc["candidate"]) == ("git -> v1", "v2 -> git")
    steps = doc["benchmarks"]["fib -> x"]
    assert any("git -> v1 -> v2 -> git" in results for results in steps.values())  # JSON keeps the string form
    assert doc["suite"], "the suite summary (which split the key) is there"


def test_pair_key_fields_and_text():
    key = pr.pair_key("git -> v1", "v2")
    assert (key.baseline, key.candidate) == ("git -> v1", "v2") and str(key) == "git -> v1 -> v2"
    assert key.to_dict() == "git -> v1 -> v2"
    assert key != pr.PairKey("git", "v1 -> v2")  # same text, another pair
    assert pickle.loads(pickle.dumps(key)) == key and hash(key) == hash(pr.PairKey("git -> v1", "v2"))
    with pytest.raises(AttributeError):
        key.baseline = "x"


names = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12).filter(str.strip)


@pytest.fixture(scope="module")
def toys_only():
    import toys

    with pr.registry.temporary(allow=["core"], extra_plugins=[toys]):
        yield


@given(base=names, cand=names)
def test_any_two_system_names_give_results_under_their_pair(toys_only, base, cand):
    if base == cand:
        return
    report = pr.Pipeline(["toy-ratio"]).run(pr.Sample([1.0, 1.1, 1.2], name=base),
                                            pr.Sample([0.9, 1.0, 1.0], name=cand))
    (key,) = report.benchmark_results["benchmark"]["toy-ratio"]
    assert key == pr.PairKey(base, cand)
    assert report.result("toy-ratio", key=f"{base} -> {cand}") is report.result("toy-ratio", key=key)
    assert list(report.to_dict()["benchmarks"]["benchmark"]["toy-ratio"]) == [f"{base} -> {cand}"]
    assert report.render("text")
