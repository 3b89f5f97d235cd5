"""The scripts of ``benchmarks/`` as modules, for the tests that hold what the docs print from them.

They are scripts, not part of the package: a test loads one by name from the checkout (conftest.py
keeps this folder importable), and skips where the checkout has no ``benchmarks/`` (an installed
package's tests)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

FOLDER = Path(__file__).resolve().parents[1] / "benchmarks"


def load(name: str) -> ModuleType:
    """``benchmarks/<name>.py`` as the module ``name`` (registered in sys.modules: its classes pickle)."""
    path = FOLDER / f"{name}.py"
    if not path.exists():
        pytest.skip(f"{path} is not here (benchmarks/ is not part of an installed package)")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
