"""Nothing compared partially in silence: systems no pair step compares are named, with why (issue 17)."""

from __future__ import annotations

import json

import numpy as np
import perfrigor as pr
import pytest
from perfrigor.cli import main


def hyperfine_export(path, commands: dict[str, float]) -> None:
    """A hyperfine ``--export-json`` file: one result per command, 12 runs each around ``mean`` seconds."""
    rng = np.random.default_rng(0)
    results = []
    for command, mean in commands.items():
        times = (mean * (1 + 0.005 * rng.standard_normal(12))).tolist()
        results.append({"command": command, "mean": float(np.mean(times)), "stddev": float(np.std(times)),
                        "median": float(np.median(times)), "user": 0.0, "system": 0.0,
                        "min": min(times), "max": max(times), "times": times})
    path.write_text(json.dumps({"results": results}), encoding="utf-8")


@pytest.fixture
def three(tmp_path):
    path = tmp_path / "three.json"
    hyperfine_export(path, {"sleep 0.10": 0.10, "sleep 0.11": 0.11, "sleep 0.09": 0.09})
    return path


def test_the_third_command_of_a_hyperfine_export_is_named_with_why(three):
    report = pr.pipeline("default").run(three)
    assert (report.baseline, report.candidate) == ("sleep 0.10", "sleep 0.11")
    assert list(report.not_compared) == ["sleep 0.09"]
    why = report.not_compared["sleep 0.09"]
    assert "baseline sleep 0.10 with candidate sleep 0.11" in why and "--candidate 'sleep 0.09'" in why
    assert report.to_dict()["not_compared"] == {"sleep 0.09": why}
    for fmt in ("text", "markdown", "html"):
        text = report.render(fmt)
        assert "Not compared: 1 of the 3 systems in the data (sleep 0.09)" in text, fmt


def test_the_named_candidate_is_compared_and_the_other_named(three, capsys):
    assert main(["run", "-p", "default", str(three), "--candidate", "sleep 0.09"]) == 0
    out = capsys.readouterr().out
    assert "candidate sleep 0.09" in out and "Not compared: 1 of the 3 systems in the data (sleep 0.11)" in out


def test_two_systems_and_estimates_only_leave_nothing_out(three, tmp_path):
    two = tmp_path / "two.json"
    hyperfine_export(two, {"a": 0.1, "b": 0.11})
    assert pr.pipeline("default").run(two).not_compared == {}
    report = pr.Pipeline(["gmm"]).run(three)  # an estimator describes every system: none is left out
    assert report.not_compared == {}
    assert "Not compared" not in report.render("text")


def test_a_multi_system_step_is_said_to_compare_every_system(three):
    report = pr.Pipeline(["prob-fastest", "speedup-test"]).run(three)
    assert "prob-fastest compares every system" in report.not_compared["sleep 0.09"]
