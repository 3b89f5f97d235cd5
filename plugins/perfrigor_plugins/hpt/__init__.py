"""perfrigor plugin hpt: Hierarchical Performance Testing (Chen et al., IEEE TC 2014 / HPCA 2012).

Is one computer (program version) faster than another over a whole benchmark suite, with
what confidence, and by how much at least (the r-Speedup)? See docs/methods/hpt.md.
"""

from __future__ import annotations

import perfrigor as pr

#: the public names, imported from their modules on first use (loading the plugin imports none)
EXPORTS = {"HPT": "comparator"}
__all__ = sorted(EXPORTS)
__getattr__ = pr.lazy_exports(__name__, EXPORTS)

PRESET = {
    "name": "hpt",
    "description": "Hierarchical Performance Testing over a suite: confidence that the candidate "
                   "outperforms the baseline, and its 0.95-Speedup (Chen et al.)",
    "steps": [{"component": "hpt"}, {"component": "verdict"}],
}


@pr.hookimpl
def perfrigor_components() -> list[pr.LazyComponent]:
    return [pr.LazyComponent(f"{__name__}.comparator:HPT", "hpt", "comparator",
                             "Hierarchical Performance Testing (Chen et al.): confidence and r-Speedup over a suite.",
                             scope="suite")]


@pr.hookimpl
def perfrigor_pipelines() -> list[dict]:
    return [PRESET]
