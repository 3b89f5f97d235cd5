"""The report as strict JSON (``Report.to_dict()``; NaN and infinities become null)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

#: the mappings nested this deep are written entry by entry (the report's sections, their benchmarks, each
#: benchmark's steps): see :func:`pieces`
SPLIT_DEPTH = 3


class JsonRenderer:
    """Strict JSON: the report's ``to_dict()``, for programs (raw numbers in the samples' units)."""

    name = "json"
    suffix = ".json"

    def render(self, report, *, verbose: bool = False) -> str:
        # verbose changes nothing: the JSON report always holds every parameter
        return "".join(pieces(report.to_dict())) + "\n"


def pieces(value: Any, level: int = 0, depth: int = SPLIT_DEPTH) -> Iterator[str]:
    """``json.dumps(value, indent=2, allow_nan=False)`` in pieces, the same text: the mappings of the first
    ``depth`` levels entry by entry, each entry by ``json.dumps`` with its lines indented where it sits.

    ``json.dumps`` with an indent encodes in Python and joins a list of every token it wrote: about 140 KB
    a benchmark beside the 32 KB of text, a 10⁵-benchmark report's 3 GB of JSON would take 14 GB more. Here
    that list holds one entry (one step of one benchmark) at a time. A JSON text breaks lines only between
    tokens (a string's line breaks are escaped), so indenting each entry's lines is exact."""
    if depth > 0 and type(value) is dict and value and all(type(k) is str for k in value):
        inner = "\n" + "  " * (level + 1)
        yield "{"
        for i, (key, item) in enumerate(value.items()):
            yield ("," if i else "") + inner + json.dumps(key) + ": "
            yield from pieces(item, level + 1, depth - 1)
        yield "\n" + "  " * level + "}"
        return
    text = json.dumps(value, indent=2, allow_nan=False)
    yield text.replace("\n", "\n" + "  " * level) if level else text
