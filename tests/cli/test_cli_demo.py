"""`perfrigor demo` with the real plugins: the default preset on bundled data, and where the others are."""

from __future__ import annotations

import json

import perfrigor as pr
from perfrigor.cli import main


def test_demo_runs_the_default_preset_and_names_the_other_examples(capsys):
    with pr.registry.temporary():  # the installed plugins, whatever an earlier test left
        assert main(["demo", "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["pipeline"] == "default"
    assert "other bundled examples" in captured.err and "suite" in captured.err
    assert "perfrigor demo NAME" in captured.err
