"""Every registered component passes the conformance battery (perfrigor.testing.check_component).

Parametrised by registry name, so a new plugin is covered as soon as it is registered.
"""

from __future__ import annotations

import perfrigor as pr
import pytest
from perfrigor.testing import CHECKS, check_component

NAMES = sorted(pr.components())


@pytest.mark.parametrize("name", NAMES)
def test_component_conforms(name: str) -> None:
    # every check, the statistics' calibration included. Its time is not asserted (a busy machine would
    # fail a sound method): the costly components guard their work by counting it instead
    # (tests/gmm/test_ksfit_window.py counts KSfit's EM work, tests/test_scale.py the selection's)
    outcomes = check_component(name)
    assert [o.check for o in outcomes] == list(CHECKS)


def test_every_contract_component_is_registered() -> None:
    contract = {
        "shapiro-wilk", "fisher-f", "student-t", "welch-t", "wilcoxon-mann-whitney", "kolmogorov-smirnov",
        "speedup-test", "accelerated-proportion", "gmm", "gmm-fit", "mean-difference", "prob-faster",
        "prob-fastest", "variance-components", "mean-ci", "experiment-plan", "fieller", "bootstrap-ratio", "hpt",
    }
    missing = sorted(contract - set(NAMES))
    assert not missing, f"components of the contract not registered: {missing}"
