from __future__ import annotations

import perfrigor as pr
import pytest
import toys


@pytest.fixture
def toy_registry():
    """The registry with only the core plugin and the toy components; restored afterwards."""
    reg = pr.registry.reload(allow=["core"], extra_plugins=[toys])
    yield reg
    pr.registry.reload()
