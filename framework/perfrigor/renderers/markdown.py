"""The report as GitHub-flavoured Markdown (tables GitHub renders)."""

from __future__ import annotations

from ._blocks import Heading, Items, Para, Table, layout


def _cell(text: str) -> str:
    # a pipe ends a cell and a newline ends a row: escape the one, join the other
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", "<br>") or " "


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("*", "\\*").replace("_", "\\_").replace("<", "&lt;")


class MarkdownRenderer:
    """Markdown: headings, bullet lists and pipe tables."""

    name = "markdown"
    suffix = ".md"

    def render(self, report) -> str:
        out: list[str] = []
        for block in layout(report):
            if isinstance(block, Heading):
                out += ["#" * block.level + " " + _escape(block.text), ""]
            elif isinstance(block, Para):
                out += [_escape(block.text), ""]
            elif isinstance(block, Items):
                out += ["- " + _escape(i).replace("\n", "  \n  ") for i in block.items] + [""]
            elif isinstance(block, Table):
                out.append("| " + " | ".join(_cell(h) for h in block.headers) + " |")
                out.append("|" + "|".join(" --- " for _ in block.headers) + "|")
                out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in block.rows]
                out.append("")
        return "\n".join(out).rstrip() + "\n"
