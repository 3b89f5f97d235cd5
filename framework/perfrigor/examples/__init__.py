"""Bundled example data sets (package data), used by ``perfrigor demo`` and the docs.

``names()`` lists them; ``path(name)`` gives the folder of one, ``files(name)`` its data files;
``load(name)`` reads them:
``two-versions`` and ``multimodal`` give ``(baseline, candidate)`` Samples, ``hierarchical``
and ``suite`` a Suite. Every folder has a README.md saying how the data were measured
(``benchmarks/collect_examples.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import DataError

HERE = Path(__file__).parent


def names() -> list[str]:
    """Names of the bundled data sets (sub-folders of this package)."""
    return sorted(p.name for p in HERE.iterdir() if p.is_dir() and not p.name.startswith("_"))


def path(name: str) -> Path:
    """The folder holding data set ``name``."""
    p = HERE / name
    if not p.is_dir():
        from ..registry import did_you_mean

        raise DataError(f"no bundled example {name!r}{did_you_mean(name, names())} "
                        f"(known: {', '.join(names()) or 'none'})")
    return p


def load(name: str) -> Any:
    """The data set read with ``pr.read``: ``(baseline, candidate)`` Samples for two files, else a Suite.

    The files are those ``perfrigor demo NAME`` analyses (:func:`perfrigor.inputs.data_files`);
    ``pr.Suite.from_inputs(*examples.files(name))`` gives the very suite the demo runs on.
    """
    from ..readers import read

    items = [read(p) for p in files(name)]
    return tuple(items) if len(items) > 1 else items[0]


def files(name: str) -> list[Path]:
    """The data files of data set ``name``: what ``load`` reads and ``perfrigor demo NAME`` analyses."""
    from ..inputs import data_files

    return data_files(path(name))
