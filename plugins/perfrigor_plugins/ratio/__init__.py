"""Confidence intervals for the ratio of means (Kalibera & Jones 2013): Fieller and hierarchical bootstrap."""

from __future__ import annotations

import perfrigor as pr

from .bootstrap import BootstrapRatio
from .decision import decide, verdict
from .fieller import Fieller, fieller_bounds, fieller_df, fieller_limits

__all__ = ["BootstrapRatio", "Fieller", "decide", "fieller_bounds", "fieller_df", "fieller_limits", "verdict"]


@pr.hookimpl
def perfrigor_components() -> list[type[pr.Component]]:
    return [Fieller, BootstrapRatio]
