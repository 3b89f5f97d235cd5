"""What the reader tests share: writing a file to read, and the message of the DataError it raises."""

from __future__ import annotations

from pathlib import Path

import perfrigor as pr
import pytest


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def error(path, **options) -> str:
    with pytest.raises(pr.DataError) as info:
        pr.read(path, **options)
    return str(info.value)
