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
    total = sum(o.seconds for o in outcomes)
    slowest = sorted(((round(o.seconds, 2), o.check) for o in outcomes), reverse=True)[:3]
    # ~2 s is the aim; the bound leaves room for a busy CI machine
    assert total < 10.0, f"{name}: the battery takes {total:.1f} s (slowest checks {slowest}); make the method faster"


def test_every_contract_component_is_registered() -> None:
    contract = {
        "shapiro-wilk", "fisher-f", "student-t", "welch-t", "wilcoxon-mann-whitney", "kolmogorov-smirnov",
        "speedup-test", "accelerated-proportion", "gmm", "gmm-fit", "mean-difference", "prob-faster",
        "prob-fastest", "variance-components", "mean-ci", "experiment-plan", "fieller", "bootstrap-ratio", "hpt",
    }
    missing = sorted(contract - set(NAMES))
    assert not missing, f"components of the contract not registered: {missing}"
