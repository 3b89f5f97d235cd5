"""pandas DataFrames in and out: pr.read(df), Suite.from_frame(df), Report.to_frame() (skipped without pandas)."""

from __future__ import annotations

import math
import sys

import numpy as np
import perfrigor as pr
import pytest

pd = pytest.importorskip("pandas")

pytestmark = pytest.mark.usefixtures("toy")


def tidy_frame() -> pd.DataFrame:
    rows = [("fib", sys_, inv, it, base * (1 + 0.01 * inv) + 0.001 * it)
            for sys_, base in (("old", 10.0), ("new", 8.0)) for inv in (1, 2, 3) for it in (1, 2)]
    rows += [("sort", sys_, inv, it, base + 0.01 * inv * it)
             for sys_, base in (("old", 20.0), ("new", 19.0)) for inv in (1, 2, 3) for it in (1, 2)]
    return pd.DataFrame(rows, columns=["benchmark", "version", "invocation", "iteration", "time_ms"])


def test_read_a_tidy_frame_like_a_csv_file():
    df = tidy_frame()
    suite = pr.read(df)
    assert suite.benchmarks == ["fib", "sort"] and suite.systems == ("old", "new")
    s = suite["fib"]["new"]
    assert s.levels == ("invocation", "iteration") and s.shape == (3, 2) and s.unit == "ms"
    expected = df[(df.benchmark == "fib") & (df.version == "new")].time_ms.to_numpy().reshape(3, 2)
    assert np.array_equal(s.values, expected)
    assert pr.Suite.from_frame(df, levels=["invocation"]).benchmarks == ["fib", "sort"]


def test_one_sample_frame_and_from_frame_always_gives_a_suite():
    df = pd.DataFrame({"value": [1.0, 1.1, 1.2]})
    assert isinstance(pr.read(df), pr.Sample)
    suite = pr.Suite.from_frame(df)
    assert isinstance(suite, pr.Suite) and len(suite) == 1


def test_frame_errors_name_the_row():
    df = pd.DataFrame({"benchmark": ["a", "a", "a"], "value": [1.0, float("nan"), 2.0]})
    with pytest.raises(pr.DataError, match=r"^<DataFrame>, row 2: 'value' nan is not a finite number"):
        pr.read(df)
    with pytest.raises(pr.DataError, match="no rows"):
        pr.read(df.iloc[:0])
    with pytest.raises(pr.DataError, match="read as a tidy table, not with format 'jmh'"):
        pr.read(df, format="jmh")
    with pytest.raises(pr.DataError, match="takes a pandas DataFrame"):
        pr.Suite.from_frame({"value": [1]})


def test_a_pipeline_runs_on_a_frame_and_report_to_frame():
    report = pr.pipeline("toy").run(tidy_frame())
    frame = report.to_frame()
    assert list(frame.columns[:5]) == ["benchmark", "step", "component", "key", "result"]
    ratios = frame[(frame.step == "toy-ratio") & frame.benchmark.notna()]
    assert set(ratios.benchmark) == {"fib", "sort"} and ratios.key.tolist() == ["old -> new"] * 2
    fib = ratios[ratios.benchmark == "fib"].iloc[0]
    assert math.isclose(fib.estimate, report.result("toy-ratio", "fib").estimate)
    assert "toy-suite" in frame[frame.benchmark.isna()].step.tolist()


def test_to_frame_says_what_is_missing_without_pandas(monkeypatch):
    report = pr.pipeline("toy").run([1.0, 1.1, 1.2], [0.9, 1.0, 1.1])
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="needs pandas"):
        report.to_frame()


def test_numpy_scalars_in_an_object_column_are_numbers_and_junk_is_still_refused():
    """Issue 24.7: ``np.int64(7)`` and ``np.float32(1.5)`` are numbers, in the value and the level columns."""
    cells = pd.Series([np.int64(7), np.float32(1.5), np.int16(8), np.float16(2.5), np.uint8(3), 4.0], dtype=object)
    df = pd.DataFrame({"benchmark": ["a"] * 6, "system": ["x", "x", "x", "y", "y", "y"],
                       "run": pd.Series([np.int64(1), np.int64(2), np.int64(3)] * 2, dtype=object), "value": cells})
    suite = pr.read(df, levels=["run"])
    assert suite["a"]["x"].values.tolist() == [7.0, 1.5, 8.0] and suite["a"]["y"].values.tolist() == [2.5, 3.0, 4.0]
    for junk, message in ((np.bool_(True), "True is not a number"), ("x", "'x' is not a number"),
                          (np.float64("nan"), "nan is not a finite number"), (object(), "is a object, not a number")):
        bad = df.assign(value=pd.Series([*cells[:4], junk, 4.0], dtype=object))
        with pytest.raises(pr.DataError, match=rf"<DataFrame>, row 5: 'value' ?{message}"):
            pr.read(bad, levels=["run"])


def test_a_numeric_column_is_read_whole():
    df = pd.DataFrame({"benchmark": ["a"] * 4, "system": ["x", "x", "y", "y"],
                       "value": np.array([1, 2, 3, 4], dtype=np.float32)})
    assert pr.read(df)["a"]["y"].values.tolist() == [3.0, 4.0]
    with pytest.raises(pr.DataError, match=r"<DataFrame>, row 3: 'value' inf is not a finite number"):
        pr.read(df.assign(value=[1.0, 2.0, np.inf, 4.0]))
