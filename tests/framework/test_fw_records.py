"""A report's errors, skips and warnings are typed records; their to_dict is the JSON report's shape."""

from __future__ import annotations

import json
import pickle

import attrs
import perfrigor as pr
import pytest
from hypothesis import given
from hypothesis import strategies as st


@attrs.define(repr=False)
class Doubtful(pr.Comparator):
    """A comparator whose every result carries a warning (the key of the warning: the pair)."""

    name = "doubtful"

    def compare(self, baseline, candidate):
        return pr.Comparison(estimate=1.0, ci_low=None, ci_high=None, confidence=None, pvalue=None,
                             significant=None, verdict="doubtful", warnings=("not sure <b>",))


@pytest.fixture
def report(toy_registry):
    """One run with a step error (b0), a skipped suite step (one benchmark) and a result's warning."""
    suite = pr.Suite({"b0": {"old": [2000.0, 2001.0, 2002.0], "new": [1.0, 2.0, 1.5]}})
    return pr.Pipeline(["toy-ratio", "toy-mean", Doubtful(), "toy-suite"]).run(suite)


def test_errors_skips_and_warnings_are_records(report):
    assert report.errors == [pr.StepError("toy-ratio", "b0", "b0/old: a value is above 1000 (the toy refuses it)")]
    assert report.skipped == [pr.StepSkip("toy-suite", "a suite method: it needs at least 2 benchmarks, the input "
                                                      "has 1")]
    assert all(isinstance(w, pr.ReportWarning) for w in report.warnings)
    assert report.analysis_warnings == [pr.ReportWarning("doubtful", "b0", pr.PairKey("old", "new"), "not sure <b>")]
    assert report.warnings[1:] == [pr.ReportWarning("toy-ratio", "b0", None, f"not run: {report.errors[0].message}")]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        report.errors[0].message = "changed"  # type: ignore[misc]


def test_to_dict_keeps_the_json_shape(report):
    doc = json.loads(report.render("json"))
    assert doc["errors"] == [{"step": "toy-ratio", "benchmark": "b0",
                              "message": "b0/old: a value is above 1000 (the toy refuses it)"}]
    assert doc["skipped"] == [{"step": "toy-suite",
                               "reason": "a suite method: it needs at least 2 benchmarks, the input has 1"}]
    assert [list(w) for w in doc["warnings"]] == [["step", "benchmark", "key", "message"]] * 2
    assert [w["key"] for w in doc["warnings"]] == ["old -> new", ""]  # the pair as text, "" for none
    assert doc["warnings"][1]["message"].startswith("not run: b0/old")
    # and back: a record is rebuilt from its dict (a pair key comes back as its text)
    assert [pr.StepError(**e) for e in doc["errors"]] == report.errors
    assert [pr.StepSkip(**s) for s in doc["skipped"]] == report.skipped
    assert [pr.ReportWarning(**w).to_dict() for w in doc["warnings"]] == doc["warnings"]


def test_an_input_warning_is_a_record_without_key(toy_registry):
    report = pr.Pipeline(["toy-mean"]).run(pr.Suite({"b0": {"old": [1.0, -1.0, 2.0], "new": [1.0, 2.0, 1.5]}}))
    (warning,) = report.warnings
    assert (warning.step, warning.benchmark, warning.key) == ("(input)", "b0", None)
    assert "old: 1 of 3 values are <= 0" in warning.message and warning.to_dict()["key"] == ""


def test_records_survive_pickling(report):
    again = pickle.loads(pickle.dumps(report))
    assert (again.errors, again.skipped, again.warnings) == (report.errors, report.skipped, report.warnings)


def test_a_report_refuses_untyped_records(report):
    with pytest.raises(TypeError, match="StepError"):
        attrs.evolve(report, errors=[{"step": "s", "benchmark": "b", "message": "m"}])
    with pytest.raises(TypeError, match="StepSkip"):
        attrs.evolve(report, skipped=[{"step": "s", "reason": "r"}])
    with pytest.raises(TypeError):
        pr.ReportWarning("s", "b", 3, "m")  # a key is a system name, a PairKey or None


def test_records_are_public():
    for name in ("StepError", "StepSkip", "ReportWarning"):
        assert name in pr.__all__ and attrs.has(getattr(pr, name))


text = st.text(max_size=20)


@given(text, text, text, text, text)
def test_records_round_trip_through_json_with_any_names(step, bench, system, other, message):
    for record in (pr.StepError(step, bench, message), pr.StepSkip(step, message),
                   pr.ReportWarning(step, bench, system, message)):
        doc = json.loads(json.dumps(record.to_dict()))
        assert type(record)(**doc) == record
    pair = pr.ReportWarning(step, bench, pr.PairKey(system, other), message)
    assert pair.to_dict()["key"] == f"{system} -> {other}"
