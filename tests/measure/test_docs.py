"""docs/measure.md and docs/methods/measure.md: the examples run, the tables hold what they claim."""

from __future__ import annotations

import argparse
import re
import tomllib
from pathlib import Path

import pytest
from perfrigor_plugins.measure import plan_from
from perfrigor_plugins.measure.command import add_arguments

DOCS = Path(__file__).resolve().parents[2] / "docs"


def blocks(page: str, kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", (DOCS / page).read_text(encoding="utf-8"), flags=re.S)


def table(page: str, name: str) -> list[list[str]]:
    text = (DOCS / page).read_text(encoding="utf-8")
    part = text.split(f"<!-- measure calibration: {name} -->")[1].split(f"<!-- end of measure calibration: {name}")[0]
    return [[c.strip() for c in r.split("|")[1:-1]] for r in part.splitlines() if r.startswith("| ") and "---" not in r][1:]


def percent(cell: str) -> tuple[float, float]:
    parts = [float(x.strip().rstrip("%")) / 100 for x in cell.split("±")]
    return parts[0], parts[1] if len(parts) > 1 else 0.0


def test_the_methods_example_runs(capsys):
    (code,) = blocks("methods/measure.md", "python")
    exec(compile(code, "methods/measure.md", "exec"), {})
    out = capsys.readouterr().out
    assert "decided" in out and "faster" in out and "A/A false alarms" in out


def test_the_guides_python_example_compiles_and_its_config_is_a_plan():
    (code,) = blocks("measure.md", "python")
    compile(code, "measure.md", "exec")  # it runs real programs (old.py): compiled, not run
    (config,) = blocks("measure.md", "toml")
    plan = plan_from(tomllib.loads(config)["measure"])
    assert plan.names == ["old", "new"] and plan.rule.until == "clear" and plan.commands[1].prepare == "sync"


def test_the_aa_table_holds_the_bound_and_the_naive_rule_does_not():
    rows = table("methods/measure.md", "aa")
    assert len(rows) >= 5
    for row in rows:
        rate, se = percent(row[1])
        assert rate <= 0.05 + 2 * se, row
        assert percent(row[4])[0] > 0.2, row


def test_the_drift_table_keeps_interleaved_rates_and_shows_the_bias():
    rows = table("methods/measure.md", "drift")
    for row in rows:
        if "A/A" in row[1]:
            assert percent(row[6])[0] <= 0.06 and percent(row[7])[0] <= 0.06, row
            if "drift" in row[0]:
                assert percent(row[2])[0] > 0.5, row


@pytest.mark.parametrize("page", ["measure.md", "methods/measure.md"])
def test_the_pages_name_the_real_options(page):
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    known = {opt for action in parser._actions for opt in action.option_strings}
    used = set(re.findall(r"`(--[a-z-]+)", (DOCS / page).read_text(encoding="utf-8")))
    assert used and not used - known, used - known
