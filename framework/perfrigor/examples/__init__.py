"""Bundled example data sets (package data), used by ``perfrigor demo`` and the docs.

``names()`` lists them; ``path(name)`` gives the folder of one; ``load(name)`` reads it:
``two-versions`` and ``multimodal`` give ``(baseline, candidate)`` Samples, ``hierarchical``
and ``suite`` a Suite. Every folder has a README.md saying how the data were measured
(``benchmarks/collect_examples.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import DataError, did_you_mean

HERE = Path(__file__).parent


def names() -> list[str]:
    """Names of the bundled data sets (sub-folders of this package)."""
    return sorted(p.name for p in HERE.iterdir() if p.is_dir() and not p.name.startswith("_"))


def path(name: str) -> Path:
    """The folder holding data set ``name``."""
    p = HERE / name
    if not p.is_dir():
        raise DataError(f"no bundled example {name!r}{did_you_mean(name, names())} "
                        f"(known: {', '.join(names()) or 'none'})")
    return p


def load(name: str) -> Any:
    """The data set read with ``pr.read``: ``(baseline, candidate)`` Samples for two files, else a Suite."""
    from ..readers import read

    folder = path(name)
    if (folder / "baseline.txt").exists():
        return read(folder / "baseline.txt"), read(folder / "candidate.txt")
    (table,) = sorted(folder.glob("*.csv"))
    return read(table)
