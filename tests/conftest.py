"""Test-wide settings and fixtures.

Property tests are derandomised so CI runs are reproducible. Tests that swap the
plugin registry (a toy plugin, core only) do it with ``pr.registry.temporary(...)``,
which puts the registry in use before back afterwards.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import perfrigor as pr
import pytest
from hypothesis import settings

settings.register_profile("perfrigor", derandomize=True, print_blob=True)
settings.load_profile("perfrigor")

TOY_PLUGIN = Path(__file__).resolve().parent / "cli" / "toy_plugin.py"


def load_toy_plugin():
    """The CLI/IO tests' toy plugin module, importable by name (process pools pickle its classes)."""
    spec = importlib.util.spec_from_file_location("perfrigor_toy_plugin", TOY_PLUGIN)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def toy():
    """The registry with only the core plugin and the toy plugin, for a whole test module."""
    module = load_toy_plugin()
    with pr.registry.temporary(allow=["core"], extra_plugins=[module]):
        yield module


@pytest.fixture(scope="module")
def core_only():
    """Only the framework's own plugin (readers, renderers), for a whole test module."""
    with pr.registry.temporary(allow=["core"]):
        yield
