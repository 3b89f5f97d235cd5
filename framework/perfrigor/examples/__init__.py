"""Bundled example data sets (package data), used by ``perfrigor demo`` and the docs.

``names()`` lists them; ``path(name)`` gives the folder of one, ``files(name)`` its data files;
``load(name)`` reads them; ``copy_tour(folder)`` writes them under the README tour's names:
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
    """The data set read with ``pr.read``: ``(baseline, candidate)`` Samples for two files, else a Suite.

    The files are those ``perfrigor demo NAME`` analyses (:func:`perfrigor.inputs.data_files`);
    ``pr.Suite.from_inputs(*examples.files(name))`` gives the very suite the demo runs on.
    """
    from ..readers import read

    items = [read(p) for p in files(name)]
    return tuple(items) if len(items) > 1 else items[0]


#: the README tour's files (``perfrigor demo --copy DIR``): each name, and the bundled file it is
TOUR = {
    "old.txt": "two-versions/baseline.txt",
    "new.txt": "two-versions/candidate.txt",
    "modes-old.txt": "multimodal/baseline.txt",
    "modes-new.txt": "multimodal/candidate.txt",
    "suite.csv": "suite/suite.csv",
    "experiment.csv": "hierarchical/experiment.csv",
    "bench.cfg": "_tour/bench.cfg",
    "check.toml": "_tour/check.toml",
    "README.md": "_tour/README.md",
}


def copy_tour(folder: str | Path) -> list[Path]:
    """Write the README tour's files into ``folder`` (created if missing) and return them.

    Nothing is overwritten: a file of the same name already there is a DataError naming it, before
    anything is written.
    """
    target = Path(folder)
    if target.exists() and not target.is_dir():
        raise DataError(f"{target}: not a folder; give a folder to copy the examples into")
    taken = [name for name in TOUR if (target / name).exists()]
    if taken:
        raise DataError(f"{target}: already holds {', '.join(taken)}; the examples are copied only where "
                        "they replace nothing (give a new or empty folder)")
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for name, source in TOUR.items():
        (target / name).write_bytes((HERE / source).read_bytes())
        written.append(target / name)
    return written


def files(name: str) -> list[Path]:
    """The data files of data set ``name``: what ``load`` reads and ``perfrigor demo NAME`` analyses."""
    from ..inputs import data_files

    return data_files(path(name))
