"""The runs file: a tidy table appended and flushed after every run.

One row per value: ``benchmark, system, round, position, invocation[, iteration], value,
exit_code``. ``invocation`` counts each command's runs (round ``i`` is every command's
invocation ``i``), so perfrigor's tidy readers (docs/input-formats.md) read the file with
the levels it has: ``invocation`` (one value per run) or ``invocation`` × ``iteration``
(``--iterations``); ``round``, ``position`` and ``exit_code`` are other columns, which the
readers leave aside. The machine and the commands head the file: ``#`` comment lines above
the CSV header, an ``"environment"`` object in the first JSON record.

Every run's rows are written with one call and flushed, so a crash or Ctrl-C loses at most
the run under way: the file is always readable (a JSON file is a complete array after every
run: the closing bracket is rewritten each time). The first round alone is written when it is
complete, in the commands' order (its ``position`` column keeps the order it ran in): readers
take the first system they meet as the baseline, so the first command must come first.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

import attrs
import perfrigor as pr

#: the CSV header's comment lines stay short: the reader's format sniffing looks at the first 4 KB
COMMENT_BUDGET = 3000
SUFFIXES = {".csv": "csv", ".tsv": "csv", ".json": "json"}


@attrs.frozen
class Row:
    """One value of one run."""

    benchmark: str
    system: str
    round: int
    position: int
    invocation: int
    iteration: int | None
    value: float
    exit_code: int


def columns(iterations: int) -> list[str]:
    head = ["benchmark", "system", "round", "position", "invocation"]
    return [*head, *(["iteration"] if iterations > 1 else []), "value", "exit_code"]


def _cells(row: Row, iterations: int) -> list[Any]:
    cells: list[Any] = [row.benchmark, row.system, row.round, row.position, row.invocation]
    if iterations > 1:
        cells.append(row.iteration)
    return [*cells, repr(float(row.value)), row.exit_code]


def header_comments(metadata: Mapping[str, Any]) -> list[str]:
    """``# key: value`` lines (values as JSON), cut to :data:`COMMENT_BUDGET` characters in all."""
    lines, used = [], 0
    for key, value in metadata.items():
        text = json.dumps(value, ensure_ascii=False)
        line = f"# {key}: {text}"
        if len(line) > 400:
            line = line[:396] + " ..."
        if used + len(line) > COMMENT_BUDGET:
            lines.append("# ... (more metadata left out)")
            break
        lines.append(line.replace("\n", " ").replace("\r", " "))
        used += len(line) + 1
    return lines


class RunsFile:
    """The runs file being written; ``append(rows)`` adds one run's rows and flushes.

    Refuses to replace an existing file unless ``overwrite``: it may hold earlier measurements.
    """

    def __init__(self, path: str | os.PathLike, metadata: Mapping[str, Any], iterations: int,
                 overwrite: bool = False) -> None:
        self.path = Path(path)
        self.iterations = iterations
        self.kind = SUFFIXES.get(self.path.suffix.lower())
        if self.kind is None:
            raise pr.ConfigError(f"-o {path}: give a .csv, .tsv or .json file for the runs")
        if self.path.is_dir():
            raise pr.ConfigError(f"-o {path}: is a directory; give a file name")
        if self.path.exists() and not overwrite:
            raise pr.ConfigError(f"-o {path}: exists, and may hold earlier measurements; give another name "
                                 "or --force to replace it")
        try:
            self._fh: IO[bytes] = self.path.open("wb")
        except OSError as exc:
            raise pr.ConfigError(f"-o {path}: cannot write: {exc.strerror or exc}") from None
        self._metadata = dict(metadata)
        self._records = 0
        self._delimiter = "\t" if self.path.suffix.lower() == ".tsv" else ","
        if self.kind == "csv":
            head = "\n".join(header_comments(metadata)) + "\n"
            self._write(head + self._csv_line(columns(iterations)))
        else:
            self._write("[\n]\n")

    def _csv_line(self, cells: Sequence[Any]) -> str:
        buf = io.StringIO()
        csv.writer(buf, delimiter=self._delimiter, lineterminator="\n").writerow(cells)
        return buf.getvalue()

    def _write(self, text: str) -> None:
        self._fh.write(text.encode("utf-8"))
        self._fh.flush()

    def append(self, rows: Sequence[Row]) -> None:
        """One run's rows, written at once and flushed."""
        if not rows:
            return
        if self.kind == "csv":
            self._write("".join(self._csv_line(_cells(r, self.iterations)) for r in rows))
            return
        records = []
        for r in rows:
            values = (r.benchmark, r.system, r.round, r.position, r.invocation,
                      *([r.iteration] if self.iterations > 1 else []), float(r.value), r.exit_code)
            rec: dict[str, Any] = dict(zip(columns(self.iterations), values, strict=True))
            if not self._records:
                rec["environment"] = self._metadata
            records.append(json.dumps(rec, ensure_ascii=False, allow_nan=False))
            self._records += 1
        # write over the closing "]\n": the new records and the bracket again, a complete array
        self._fh.seek(-2, os.SEEK_END)
        sep = "" if self._records == len(records) else ",\n"
        self._write(sep + ",\n".join(records) + "\n]\n")

    def close(self) -> None:
        if not self._fh.closed:
            self._fh.close()
