"""The report as plain text for a terminal."""

from __future__ import annotations

from collections.abc import Sequence

from ..textsafe import one_line, terminal_safe
from ._blocks import Block, Details, Figure, Heading, Items, Para, Table
from ._layout import Options, layout

_UNDERLINE = {1: "=", 2: "-"}


def _table(t: Table) -> list[str]:
    texts = [[one_line(cell.text) for cell in row] for row in t.rows]
    headers = [one_line(h) for h in t.headers]
    cols = list(zip(*([headers] + texts), strict=True)) if texts else [[h] for h in headers]
    widths = [max(len(c) for c in col) for col in cols]
    numeric = [c.numeric for c in t.columns]

    def line(cells, header: bool = False) -> str:
        # the last column (usually a sentence) is not padded, so long sentences do not widen the table
        out = []
        for i, (c, w) in enumerate(zip(cells, widths, strict=True)):
            if i == len(widths) - 1:
                out.append(c)
            else:
                out.append(c.rjust(w) if numeric[i] and not header else c.ljust(w))
        return "  ".join(out).rstrip()

    out = [line(headers, header=True), line(["-" * w for w in widths])]
    out += [line(r) for r in texts]
    return out


class TextRenderer:
    """Plain text: headings underlined, aligned tables (numbers right-aligned)."""

    name = "text"
    suffix = ".txt"

    def render(self, report, *, verbose: bool = False) -> str:
        lines: list[str] = []
        self._blocks(layout(report, Options(verbose=verbose)), lines, 0)
        return terminal_safe("\n".join(lines) + "\n")  # names come from data files

    def _blocks(self, blocks: Sequence[Block], lines: list[str], depth: int) -> None:
        for block in blocks:
            if isinstance(block, Details):
                self._heading(block.summary, 2 + depth, lines)
                self._blocks(block.blocks, lines, depth + 1)
            elif isinstance(block, Heading):
                self._heading(block.text, block.level + (depth if block.level > 1 else 0), lines)
            elif isinstance(block, Para):
                if lines and lines[-1].startswith("  "):
                    lines.append("")
                lines.append(one_line(block.text))
            elif isinstance(block, Items):
                for item in block.items:
                    first, *rest = [one_line(line) for line in (item.text, *item.more)]
                    lines.append(f"  * {first}")
                    lines += [f"    {r}" for r in rest]
            elif isinstance(block, Table):
                lines += ["  " + ln for ln in _table(block)]
            elif isinstance(block, Figure):
                continue  # pictures are for the formats that show them

    @staticmethod
    def _heading(text: str, level: int, lines: list[str]) -> None:
        text = one_line(text)  # a name in a heading must not start a line of its own
        if lines:
            lines.append("")
        lines += [text, _UNDERLINE.get(level, "~") * len(text)]
