"""Issue 24 item 15: the tests run against the project's own plugins only (conftest's ``OWN_PLUGINS``
through ``PERFRIGOR_PLUGINS``), so a third-party plugin installed alongside changes nothing else."""

from __future__ import annotations

import os
import sys

import perfrigor as pr
from perfrigor import cli

PLUGIN = '''
import attrs
import perfrigor as pr


@attrs.define
class Intruder(pr.Comparator):
    """A third-party comparator."""

    name = "intruder"

    def compare(self, baseline, candidate):
        raise AssertionError("never run by the project's tests")


class GreedyReader:
    """Claims every file."""

    name = "greedy"
    suffixes = (".txt", ".csv", ".json")
    priority = 0

    def sniff(self, path, head):
        return True

    def read(self, path, **options):
        raise AssertionError("never read by the project's tests")


def perfrigor_components():
    return [Intruder]


def perfrigor_pipelines():
    return [{"name": "intruder-preset", "steps": ["intruder"]}]


def perfrigor_readers():
    return [GreedyReader()]
'''


def _install(site):
    """A distribution ``perfrigor-intruder`` with an entry point in perfrigor's group, as pip would lay it out."""
    (site / "perfrigor_intruder.py").write_text(PLUGIN)
    info = site / "perfrigor_intruder-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: perfrigor-intruder\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[perfrigor]\nintruder = perfrigor_intruder\n")


def _names(registry):
    return {table: sorted(getattr(registry, table)) for table in
            ("components", "presets", "readers", "renderers", "commands")}


def _listing(capsys):
    assert cli.main(["list"]) == 0
    return capsys.readouterr().out


def test_the_allow_list_is_the_projects_own_entry_points():
    own = os.environ[pr.registry.ENV_ALLOW].split(",")  # set by tests/conftest.py
    assert {"core", "presets", "verdict", "speedup_test"} <= set(own)
    assert "intruder" not in own


def test_a_third_party_plugin_installed_alongside_changes_nothing(tmp_path, monkeypatch, capsys):
    with pr.registry.temporary() as own:
        before, listing = _names(own), _listing(capsys)
    _install(tmp_path)
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    with pr.registry.temporary() as registry:  # the tests' allow-list is in force
        assert _names(registry) == before
        assert _listing(capsys) == listing
        assert pr.registry.get_registry().reader("tidy-csv") is not None
    monkeypatch.delenv(pr.registry.ENV_ALLOW)
    with pr.registry.temporary() as everything:  # without it, the plugin is there: the check above can fail
        assert "intruder" in everything.components and "greedy" in everything.readers
        assert "intruder" in _listing(capsys)
