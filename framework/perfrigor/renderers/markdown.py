"""The report as GitHub-flavoured Markdown: the verdict table first, the details folded.

Suits a pull-request comment: what a reviewer needs is visible, the method details sit in
``<details>`` blocks GitHub folds.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from ..textsafe import markdown_text, one_line, terminal_safe
from ._blocks import Block, Details, Figure, Heading, Items, Para, Table
from ._layout import Options, layout


def _cell(text: str) -> str:
    # a pipe would end the cell and a newline the row: names are shown literally (perfrigor.textsafe)
    return markdown_text(text, line_start=False) or " "


def _escape(text: str) -> str:
    return markdown_text(text)  # no link, heading, list or emphasis from a name (perfrigor.textsafe)


class MarkdownRenderer:
    """Markdown: headings, bullet lists, pipe tables, ``<details>`` for the method details."""

    name = "markdown"
    suffix = ".md"

    def render(self, report, *, verbose: bool = False) -> str:
        out: list[str] = []
        self._blocks(layout(report, Options(verbose=verbose)), out, 0)
        return terminal_safe("\n".join(out).rstrip() + "\n")  # names come from data files

    def _blocks(self, blocks: Sequence[Block], out: list[str], depth: int) -> None:
        for block in blocks:
            if isinstance(block, Details):
                summary = html.escape(one_line(block.summary))  # HTML, not Markdown, inside <summary>
                out += [f"<details{' open' if block.open else ''}><summary>{summary}</summary>", ""]
                self._blocks(block.blocks, out, depth + 1)
                out += ["</details>", ""]
            elif isinstance(block, Heading):
                level = block.level + (depth if block.level > 1 else 0)
                out += ["#" * min(level, 6) + " " + _escape(block.text), ""]
            elif isinstance(block, Para):
                out += [_escape(block.text), ""]
            elif isinstance(block, Items):
                out += ["- " + "  \n  ".join(_escape(line) for line in (i.text, *i.more)) for i in block.items] + [""]
            elif isinstance(block, Table):
                out.append("| " + " | ".join(_cell(h) for h in block.headers) + " |")
                out.append("|" + "|".join(" ---: " if c.numeric else " --- " for c in block.columns) + "|")
                out += ["| " + " | ".join(_cell(c.text) for c in row) + " |" for row in block.rows]
                out.append("")
            elif isinstance(block, Figure):
                continue  # a comment cannot carry inline pictures; the HTML report has them
