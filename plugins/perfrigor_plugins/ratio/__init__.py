"""Confidence intervals for the ratio of means (Kalibera & Jones 2013): Fieller and hierarchical bootstrap."""

from __future__ import annotations

import perfrigor as pr

#: the public names, imported from their modules on first use (loading the plugin imports none)
EXPORTS = {"BootstrapRatio": "bootstrap", "Fieller": "fieller", "decide": "decision", "fieller_bounds": "fieller",
           "fieller_df": "fieller", "fieller_limits": "fieller", "verdict": "decision"}
__all__ = sorted(EXPORTS)
__getattr__ = pr.lazy_exports(__name__, EXPORTS)


@pr.hookimpl
def perfrigor_components() -> list[pr.LazyComponent]:
    return [
        pr.LazyComponent(f"{__name__}.fieller:Fieller", "fieller", "comparator",
                         "CI of the ratio of means by Fieller's theorem on top-level means (Kalibera & Jones eq. 12)."),
        pr.LazyComponent(f"{__name__}.bootstrap:BootstrapRatio", "bootstrap-ratio", "comparator",
                         "CI of the ratio of means by hierarchical bootstrap (percentile interval, Kalibera & Jones "
                         "Fig. 2)."),
    ]
