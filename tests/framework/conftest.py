from __future__ import annotations

import sys
from pathlib import Path

import pytest

# `toys` is imported by name here, in the tests and in worker processes (process pools, dask):
# keep this folder importable whether or not tests/ is a package.
HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import perfrigor as pr  # noqa: E402
import toys  # noqa: E402


@pytest.fixture
def toy_registry():
    """The registry with only the core plugin and the toy components; restored afterwards."""
    with pr.registry.temporary(allow=["core"], extra_plugins=[toys]) as reg:
        yield reg
