from __future__ import annotations

import perfrigor as pr
import pytest
import toys  # tests/toys.py, importable by name (tests/conftest.py)


@pytest.fixture
def toy_registry():
    """The registry with only the core plugin and the toy components; restored afterwards."""
    with pr.registry.temporary(allow=["core"], extra_plugins=[toys]) as reg:
        yield reg
