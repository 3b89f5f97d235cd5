"""Every registered component passes the conformance battery (perfrigor.testing.check_component).

Parametrised by registry name, so a new plugin is covered as soon as it is registered.
"""

from __future__ import annotations

import perfrigor as pr
import pytest
from perfrigor.testing import check_component

NAMES = sorted(pr.components())


@pytest.mark.parametrize("name", NAMES)
def test_component_conforms(name: str) -> None:
    outcomes = check_component(name)
    slow = [(o.check, round(o.seconds, 2)) for o in outcomes if o.seconds > 2.0]
    assert not slow, f"{name}: checks should take < 2 s each (use small n_bootstrap in tests): {slow}"


def test_every_contract_component_is_registered() -> None:
    contract = {
        "shapiro-wilk", "fisher-f", "student-t", "welch-t", "wilcoxon-mann-whitney", "kolmogorov-smirnov",
        "speedup-test", "accelerated-proportion", "gmm", "gmm-fit", "mean-difference", "prob-faster",
        "prob-fastest", "variance-components", "mean-ci", "experiment-plan", "fieller", "bootstrap-ratio", "hpt",
    }
    missing = sorted(contract - set(NAMES))
    assert not missing, f"components of the contract not registered: {missing}"
