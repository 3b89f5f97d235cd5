"""perfrigor plugin hpt: Hierarchical Performance Testing (Chen et al., IEEE TC 2014 / HPCA 2012).

Is one computer (program version) faster than another over a whole benchmark suite, with
what confidence, and by how much at least (the r-Speedup)? See docs/methods/hpt.md.
"""

from __future__ import annotations

import perfrigor as pr

from .comparator import HPT

__all__ = ["HPT"]

PRESET = {
    "name": "hpt",
    "description": "Hierarchical Performance Testing over a suite: confidence that the candidate "
                   "outperforms the baseline, and its 0.95-Speedup (Chen et al.)",
    "steps": [{"component": "hpt"}, {"component": "verdict"}],
}


@pr.hookimpl
def perfrigor_components() -> list[type]:
    return [HPT]


@pr.hookimpl
def perfrigor_pipelines() -> list[dict]:
    return [PRESET]
