"""Test-wide settings and fixtures.

Property tests are derandomised so CI runs are reproducible. Tests that swap the
plugin registry (a toy plugin, core only) do it with ``pr.registry.temporary(...)``,
which puts the registry in use before back afterwards.
"""

from __future__ import annotations

import sys
from pathlib import Path

import perfrigor as pr
import pytest
from hypothesis import settings

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
