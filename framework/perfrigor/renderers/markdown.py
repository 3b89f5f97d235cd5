"""The report as GitHub-flavoured Markdown: a pull-request comment, whatever the size of the suite.

What a reviewer needs is visible (the changed and unclear benchmarks first), the unchanged and the
method details sit in ``<details>`` blocks GitHub folds, and the whole fits ``max_chars`` (60,000
by default: a GitHub comment holds 65,536); see ``_comment``.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from ..errors import ConfigError
from ..textsafe import markdown_text, one_line, terminal_safe
from ._blocks import Block, Cell, Details, Figure, Heading, Items, Para, Table
from ._comment import comment
from ._layout import Options

#: the default size limit: a GitHub comment holds at most 65,536 characters
MAX_CHARS = 60_000
#: the smallest limit accepted: room for the header, the suite's line and the note
MIN_CHARS = 5_000


def _cell(text: str) -> str:
    # a pipe would end the cell and a newline the row: names are shown literally (perfrigor.textsafe)
    return markdown_text(text, line_start=False) or " "


def _tone(cell: Cell) -> str:
    """A cell; a slowdown in bold, so that a reader scanning the table stops at it."""
    return f"**{_cell(cell.text)}**" if cell.tone == "slower" else _cell(cell.text)


def _escape(text: str) -> str:
    return markdown_text(text)  # no link, heading, list or emphasis from a name (perfrigor.textsafe)


class MarkdownRenderer:
    """Markdown for a pull-request comment: the changed benchmarks first, the rest folded, within a size.

    ``max_chars``: at most this many characters (default 60,000; 0 or None: no limit); what does
    not fit is left out, and a note says what and where the whole report is (``full_report``: a
    file name or link to name there).
    """

    name = "markdown"
    suffix = ".md"

    def render(self, report, *, verbose: bool = False, max_chars: int | None = MAX_CHARS,
               full_report: str = "") -> str:
        if max_chars and not (isinstance(max_chars, int) and max_chars >= MIN_CHARS):
            raise ConfigError(f"markdown: max_chars must be 0 (no limit) or at least {MIN_CHARS:,}, got {max_chars!r}")
        return self.draw(comment(report, self.draw, max_chars, Options(verbose=verbose), full_report))

    def draw(self, blocks: Sequence[Block]) -> str:
        """Blocks as Markdown text."""
        out: list[str] = []
        self._blocks(blocks, out, 0)
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
                out += ["| " + " | ".join(_tone(c) for c in row) + " |" for row in block.rows]
                out.append("")
            elif isinstance(block, Figure):
                continue  # a comment cannot carry inline pictures; the HTML report has them
