"""Sample and Suite: validation, levels, direction, per-benchmark info, pickling."""

from __future__ import annotations

import pickle

import numpy as np
import perfrigor as pr
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from perfrigor.data import as_array

finite = st.floats(min_value=-1e12, max_value=1e12, allow_nan=False, allow_infinity=False)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(float, hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5), elements=finite))
def test_sample_round_trips_any_finite_balanced_array(values):
    s = pr.Sample(values)
    assert np.array_equal(np.asarray(s), values)
    assert s.shape == values.shape and len(s) == values.size and s.n_levels == values.ndim
    assert len(s.levels) == values.ndim and len(set(s.levels)) == values.ndim
    assert not np.asarray(s).flags.writeable
    assert np.array_equal(pr.Sample(values.tolist()).values, values)  # nested lists work the same
    again = pickle.loads(pickle.dumps(s))
    assert np.array_equal(again.values, values) and again.levels == s.levels
    assert not again.values.flags.writeable


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(float, hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4), elements=finite),
       st.data())
def test_any_non_finite_value_is_rejected_with_its_index(values, data):
    idx = tuple(data.draw(st.integers(0, n - 1)) for n in values.shape)
    bad = data.draw(st.sampled_from([np.nan, np.inf, -np.inf]))
    values = values.copy()
    values[idx] = bad
    with pytest.raises(pr.DataError, match="not a finite number") as err:
        pr.Sample(values, name="run.txt")
    assert "run.txt" in str(err.value)
    first = tuple(int(i) for i in np.argwhere(~np.isfinite(values))[0])
    assert str(first[0] if len(first) == 1 else first) in str(err.value)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=2, max_size=5).filter(lambda xs: len(set(xs)) > 1))
def test_ragged_lists_are_rejected_naming_the_unit(counts):
    nested = [[1.0] * c for c in counts]
    with pytest.raises(pr.DataError, match="unbalanced") as err:
        pr.Sample(nested, levels=("invocation", "iteration"), name="exp.csv")
    first_bad = next(i for i, c in enumerate(counts) if c != counts[0])
    msg = str(err.value)
    assert f"invocation {first_bad + 1} has {counts[first_bad]} iteration(s)" in msg
    assert f"invocation 1 has {counts[0]}" in msg and "exp.csv" in msg


def test_ragged_three_levels_names_the_build_and_invocation():
    data = [[[1, 2], [3, 4]], [[1, 2], [3]]]
    with pytest.raises(pr.DataError, match=r"build 2, invocation 2 has 1 iteration\(s\) where build 2, invocation 1 has 2"):
        pr.Sample(data)


@pytest.mark.parametrize("bad, match", [
    ([], "no measurements"),
    ([[]], "no measurements"),
    (3.0, "one number"),
    ("1 2 3", "string"),
    ({"a": [1, 2]}, "mapping"),
    (["1.5", "x"], "not numbers"),
    ([[1, 2], 3], "mixes numbers and lists"),
    (np.array([[1.0, 2.0], [3.0]], dtype=object), "unbalanced"),
])
def test_bad_values(bad, match):
    with pytest.raises(pr.DataError, match=match):
        pr.Sample(bad)


def test_data_error_is_a_value_error():
    with pytest.raises(ValueError):
        pr.Sample([np.nan])


def test_levels_default_given_and_checked():
    assert pr.Sample([1, 2]).levels == ("run",)
    assert pr.Sample(np.ones((2, 3))).levels == ("invocation", "iteration")
    assert pr.Sample(np.ones((2, 3, 4))).levels == ("build", "invocation", "iteration")
    assert pr.Sample(np.ones((2, 2, 2, 2))).levels == ("level1", "level2", "level3", "level4")
    assert pr.Sample(np.ones((2, 3)), levels=["vm", "iter"]).levels == ("vm", "iter")
    assert pr.Sample([1, 2], levels="trial").levels == ("trial",)
    with pytest.raises(pr.DataError, match=r"1 level name\(s\) \('a',\) for data with 2 dimension"):
        pr.Sample(np.ones((2, 3)), levels=("a",))
    with pytest.raises(pr.DataError, match="distinct"):
        pr.Sample(np.ones((2, 3)), levels=("a", "a"))
    with pytest.raises(pr.DataError, match="non-empty strings"):
        pr.Sample(np.ones((2, 3)), levels=("a", 3))


def test_direction_unit_and_names_are_validated():
    assert pr.Sample([1, 2], lower_is_better=np.bool_(False)).lower_is_better is False
    for bad in ("false", 0, None):
        with pytest.raises(pr.DataError, match="lower_is_better"):
            pr.Sample([1, 2], lower_is_better=bad)
    with pytest.raises(pr.DataError, match="unit"):
        pr.Sample([1, 2], unit=1)
    with pytest.raises(pr.DataError, match="name"):
        pr.Sample([1, 2], name=3)


def test_sample_helpers():
    s = pr.Sample([[1.0, 3.0], [5.0, 7.0]], name="x")
    assert np.array_equal(s.top_means(), [2.0, 6.0])
    assert np.array_equal(s.flat, [1, 3, 5, 7]) and s.is_hierarchical
    assert s.summary()["mean"] == 4.0 and s.summary()["levels"] == ["invocation", "iteration"]
    with pytest.raises(pr.DataError, match="at least 5"):
        s.require_size(5)
    with pytest.raises(pr.DataError, match=r"sample, index \(0, 1\): value -1.0 is not positive"):
        pr.Sample([[1, -1], [2, 2]]).require_positive()
    located = pr.Sample([3.0, -1.0], source="t.txt", positions=[2, 5])
    with pytest.raises(pr.DataError, match=r"^t.txt, line 5: value -1.0 is not positive"):
        located.require_positive()
    with pytest.raises(pr.DataError, match="positions of shape"):
        pr.Sample([1.0, 2.0], positions=[1])
    assert located.positions.dtype == np.int32 and not located.positions.flags.writeable  # half of int64's memory
    far = pr.Sample([1.0, 2.0], source="t.txt", positions=[3, 2**31])  # a file of more lines: 64 bits
    assert far.positions.dtype == np.int64 and far.locate(1) == "t.txt, line 2147483648"
    handed = np.array([[4, 9]], dtype=np.int32)
    handed.setflags(write=False)
    assert pr.Sample([[1.0, 2.0]], positions=handed).positions is handed  # a reader's frozen lines: not copied
    t = s.with_values([[2.0, 2.0]])
    assert t.name == "x" and t.shape == (1, 2)
    assert np.asarray(s, dtype=np.float32).dtype == np.float32
    assert np.asarray(s).base is not None or not np.asarray(s).flags.writeable
    c = np.array(s, copy=True)
    c[0, 0] = 99.0  # a copy is writable and leaves the sample alone
    assert s.values[0, 0] == 1.0
    assert pr.Sample.coerce(s) is s
    assert "shape=(2, 2)" in repr(s)


def test_values_are_copied_not_aliased():
    raw = np.array([1.0, 2.0, 3.0])
    s = pr.Sample(raw)
    raw[0] = 100.0
    assert s.values[0] == 1.0
    with pytest.raises(ValueError):
        s.values[0] = 5.0


def test_as_array_names_what():
    with pytest.raises(pr.DataError, match="^candidate: value nan at index 2"):
        as_array([1, 2, float("nan")], "candidate")


# ------------------------------------------------------------------------ Suite


def suite_data(n=3):
    return {f"b{i}": {"old": [1.0 + i, 1.1 + i, 1.2 + i], "new": [0.9 + i, 1.0 + i, 1.1 + i]} for i in range(n)}


def test_suite_basics_and_pickle():
    s = pr.Suite(suite_data(), source="s.csv")
    assert s.benchmarks == ["b0", "b1", "b2"] and s.systems == ("old", "new") and len(s) == 3
    assert list(s) == s.benchmarks and "b1" in s and "zz" not in s
    assert isinstance(s["b0"]["old"], pr.Sample) and s["b0"]["old"].name == "b0/old"
    assert set(s.system("new")) == {"b0", "b1", "b2"}
    again = pickle.loads(pickle.dumps(s))
    assert again.benchmarks == s.benchmarks and again.systems == s.systems
    assert np.array_equal(again["b2"]["new"].values, s["b2"]["new"].values)
    assert "3 benchmark(s)" in repr(s)
    with pytest.raises(KeyError, match="no benchmark 'zz'"):
        s["zz"]
    with pytest.raises(pr.DataError, match="no system 'mid'"):
        s.system("mid")


def test_suite_system_order():
    s = pr.Suite(suite_data(), systems=("new",))
    assert s.systems == ("new", "old")  # listed first, the others appended, none dropped
    with pytest.raises(pr.DataError, match="no measurements for system"):
        pr.Suite(suite_data(), systems=("old", "new", "mid"))
    with pytest.raises(pr.DataError, match="twice"):
        pr.Suite(suite_data(), systems=("old", "old"))


@pytest.mark.parametrize("data, match", [
    ({}, "no benchmarks"),
    ({"a": {}}, "'a': no systems"),
    ({"a": [1, 2]}, "expected a mapping"),
    ({"a": {"x": [1, 2], "y": [1, 2]}, "b": {"x": [1, 2]}}, r"'b' has no measurements for system\(s\) \['y'\]"),
    ({"a": {"x": [1, float("nan")]}}, "benchmark 'a', system 'x': value nan at index 1"),
    ({"a": {"x": pr.Sample([1, 2]), "y": pr.Sample([1, 2], lower_is_better=False)}}, "disagree on the direction"),
    ({"a": {"x": pr.Sample([1, 2]), "y": pr.Sample([1, 2], unit="B/op")}}, "measure different things"),
    ({"a": {"x": pr.Sample([1, 2]), "y": pr.Sample([1, 2], unit="cycles")}}, "'cycles' is not one perfrigor knows"),
    ([1, 2], "a suite is a mapping"),
])
def test_bad_suites(data, match):
    with pytest.raises(pr.DataError, match=match):
        pr.Suite(data)


def test_suite_info_weights_and_confidence():
    s = pr.Suite(suite_data(), info={"b0": {"weight": 2, "confidence": 0.9, "note": "x"},
                                     "b1": pr.BenchmarkInfo(weight=1.0), "b2": {"weight": 0.5}})
    assert s.weight("b0") == 2 and s.confidence("b0") == 0.9 and s.info["b0"].extra == {"note": "x"}
    assert s.weights() == {"b0": 2, "b1": 1.0, "b2": 0.5}
    assert s.confidence("b1") is None and pr.Suite(suite_data()).weights() is None
    with pytest.raises(pr.DataError, match=r"weights are given for some benchmarks but not for \['b2'\]"):
        pr.Suite(suite_data(), info={"b0": {"weight": 1}, "b1": {"weight": 1}}).weights()
    for bad, match in (({"b0": {"weight": 0}}, "'b0': benchmark weight"),
                       ({"b0": {"weight": float("inf")}}, "weight"),
                       ({"b0": {"confidence": 95}}, "'b0': benchmark confidence"),
                       ({"zz": {"weight": 1}}, r"unknown benchmark\(s\) \['zz'\]"),
                       ({"b0": 3}, "info must be a mapping")):
        with pytest.raises(pr.DataError, match=match):
            pr.Suite(suite_data(), info=bad)


def test_from_pairs():
    base = {"a": [1, 2, 3], "b": [2, 3, 4]}
    cand = {"a": [1, 2, 2], "b": [2, 2, 2]}
    s = pr.Suite.from_pairs(base, cand)
    assert s.systems == ("baseline", "candidate") and s.benchmarks == ["a", "b"]
    s2 = pr.Suite.from_pairs(base, cand, names=("v1", "v2"), info={"a": {"weight": 3}})
    assert s2.systems == ("v1", "v2") and s2.weight("a") == 3
    partial = pr.Suite.from_pairs(base, {"a": [1, 2], "c": [1, 2]}, info={"a": {"weight": 1}, "b": {"weight": 2}})
    assert partial.benchmarks == ["a"] and partial.only_in == {"baseline": ["b"], "candidate": ["c"]}
    assert list(partial.info) == ["a"]  # the weight of a benchmark not compared goes with it
    with pytest.raises(pr.DataError, match=r"no benchmark in common \(only in baseline: 'a', 'b'; only in "
                                           r"candidate: 'c'\)"):
        pr.Suite.from_pairs(base, {"c": [1, 2]})
    with pytest.raises(pr.DataError, match="two mappings"):
        pr.Suite.from_pairs([1, 2], cand)
    with pytest.raises(pr.DataError, match="different names"):
        pr.Suite.from_pairs(base, cand, names=("x", "x"))


def test_units_of_one_kind_are_converted_to_the_first_systems():
    s = pr.Suite({"a": {"x": pr.Sample([1.5, 2.0], unit="s"), "y": pr.Sample([1500.0, 2500.0], unit="ms")}})
    y = s["a"]["y"]
    assert y.unit == "s" and y.values.tolist() == [1.5, 2.5] and y.metadata["converted_from"] == "ms"
    rates = pr.Suite({"a": {"x": pr.Sample([2.0], unit="ops/ms", lower_is_better=False),
                            "y": pr.Sample([3000.0], unit="ops/s", lower_is_better=False)}})
    assert rates["a"]["y"].values.tolist() == [3.0] and rates["a"]["y"].unit == "ops/ms"


def test_only_in_is_validated():
    s = pr.Suite(suite_data(), only_in={"old": ["gone"], "new": []})
    assert s.only_in == {"old": ["gone"]}
    with pytest.raises(pr.DataError, match="listed in only_in but have data"):
        pr.Suite(suite_data(), only_in={"old": [next(iter(suite_data()))]})


def test_single():
    s = pr.Suite.single([1, 2, 3], [1, 2, 2])
    assert s.benchmarks == ["benchmark"] and s.systems == ("baseline", "candidate")
    assert pr.Suite.single([1, 2]).systems == ("baseline",)


names = st.text(alphabet="abcdefghij-_0123456789", min_size=1, max_size=6)


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(names, st.lists(finite, min_size=1, max_size=5), min_size=1, max_size=6), st.data())
def test_from_pairs_round_trips_any_benchmarks(base, data):
    cand = {b: [v * 0.5 for v in vals] for b, vals in base.items()}
    s = pr.Suite.from_pairs(base, cand, names=("v1", "v2"))
    assert s.benchmarks == list(base) and s.systems == ("v1", "v2")
    assert all(np.array_equal(s.system("v2")[b].values, np.asarray(cand[b])) for b in base)
    again = pickle.loads(pickle.dumps(s))
    assert again.benchmarks == s.benchmarks
    dropped = data.draw(st.sampled_from(sorted(base)))
    rest = {b: v for b, v in cand.items() if b != dropped}
    if rest:
        partial = pr.Suite.from_pairs(base, rest, names=("v1", "v2"))
        assert partial.benchmarks == [b for b in base if b != dropped] and partial.only_in == {"v1": [dropped]}
    else:
        with pytest.raises(pr.DataError, match="no benchmark in common"):
            pr.Suite.from_pairs(base, rest, names=("v1", "v2"))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5)
    | st.builds(np.float64, st.floats()) | st.builds(np.int64, st.integers(-2**62, 2**62)),
    lambda children: st.lists(children, max_size=4) | st.tuples(children, children)
    | st.dictionaries(st.text(max_size=4) | st.integers(), children, max_size=4)
    | st.builds(lambda xs: np.array(xs, dtype=float), st.lists(st.floats(), max_size=4)),
    max_leaves=20,
)


@settings(max_examples=80, deadline=None)
@given(json_values)
def test_to_jsonable_is_always_strict_json(value):
    import json

    json.dumps(pr.to_jsonable(value), allow_nan=False)
