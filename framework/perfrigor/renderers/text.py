"""The report as plain text for a terminal."""

from __future__ import annotations

from ._blocks import Heading, Items, Para, Table, layout


def _table(t: Table) -> list[str]:
    cols = list(zip(*([list(t.headers)] + [list(r) for r in t.rows]), strict=True)) if t.rows else [[h] for h in t.headers]
    widths = [max(len(c) for c in col) for col in cols]

    def line(cells) -> str:
        # the last column (usually a verdict) is not padded, so long sentences do not widen the table
        return "  ".join(c.ljust(w) if i < len(widths) - 1 else c for i, (c, w) in enumerate(zip(cells, widths, strict=True))).rstrip()

    out = [line(t.headers), line(["-" * w for w in widths])]
    out += [line(r) for r in t.rows]
    return out


class TextRenderer:
    """Plain text: headings underlined, aligned tables."""

    name = "text"
    suffix = ".txt"

    def render(self, report) -> str:
        lines: list[str] = []
        for block in layout(report):
            if isinstance(block, Heading):
                if lines:
                    lines.append("")
                lines += [block.text, ("=" if block.level == 1 else "-") * len(block.text)]
            elif isinstance(block, Para):
                if lines and lines[-1].startswith("  "):
                    lines.append("")
                lines.append(block.text)
            elif isinstance(block, Items):
                for item in block.items:
                    first, *rest = item.splitlines() or [""]
                    lines.append(f"  * {first}")
                    lines += [f"    {r}" for r in rest]
            elif isinstance(block, Table):
                lines += ["  " + ln for ln in _table(block)]
        return "\n".join(lines) + "\n"
