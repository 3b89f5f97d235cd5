"""Test-wide settings and fixtures.

Only the project's own plugins are loaded (``OWN_PLUGINS``, through ``PERFRIGOR_PLUGINS``).
Property tests are derandomised so CI runs are reproducible. Tests that swap the
plugin registry (a toy plugin, core only) do it with ``pr.registry.temporary(...)``,
which puts the registry in use before back afterwards.
"""

from __future__ import annotations

import importlib.metadata
import os
import sys
from pathlib import Path

import perfrigor as pr
import pytest
from hypothesis import settings

#: the project's own plugins: the entry points the perfrigor distribution declares. The tests run
#: against these only (as llm's tests do with LLM_LOAD_PLUGINS), so a third-party plugin installed in
#: the same environment changes nothing here; subprocesses inherit the allow-list.
OWN_PLUGINS = sorted(ep.name for ep in importlib.metadata.entry_points(group=pr.registry.ENTRY_POINT_GROUP)
                     if ep.dist is not None and ep.dist.name == "perfrigor")
os.environ[pr.registry.ENV_ALLOW] = ",".join(OWN_PLUGINS)
pr.registry.reload()  # in case something built the registry before this line

settings.register_profile("perfrigor", derandomize=True, print_blob=True)
settings.load_profile("perfrigor")

# the toy plugin (tests/toys.py) is imported by name here, in the tests and in worker processes
# (process pools pickle its classes, dask workers get this folder on PYTHONPATH): keep this folder
# importable whether or not tests/ is a package
TESTS = str(Path(__file__).resolve().parent)
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)

import toys  # noqa: E402


@pytest.fixture(scope="module")
def toy():
    """The registry with only the core plugin and the toy plugin, for a whole test module."""
    with pr.registry.temporary(allow=["core"], extra_plugins=[toys]):
        yield toys


@pytest.fixture(scope="module")
def core_only():
    """Only the framework's own plugin (readers, renderers), for a whole test module."""
    with pr.registry.temporary(allow=["core"]):
        yield
