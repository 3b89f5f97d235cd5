"""Bundled example data sets (package data), used by ``perfrigor demo`` and the docs.

``names()`` lists them; ``path(name)`` gives the file or folder of one.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import DataError

HERE = Path(__file__).parent


def names() -> list[str]:
    """Names of the bundled data sets (sub-folders of this package)."""
    return sorted(p.name for p in HERE.iterdir() if p.is_dir() and not p.name.startswith("_"))


def path(name: str) -> Path:
    """The folder holding data set ``name``."""
    p = HERE / name
    if not p.is_dir():
        raise DataError(f"no bundled example {name!r} (known: {', '.join(names()) or 'none'})")
    return p
