"""The report as one self-contained HTML page: inline CSS and inline SVG plots, nothing fetched.

Every text is escaped, so benchmark names or messages cannot inject markup. The plots
(matplotlib, imported only here and only when a plot is drawn) are inlined as SVG; the
method details are ``<details>`` groups a reader opens on demand.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape as _escape

from ..errors import ConfigError
from ..plots.style import OUTCOME_COLOURS
from ..textsafe import encodable, one_line, shortened
from ._blocks import Block, Details, Figure, Heading, Item, Items, Para, Table
from ._layout import Options, layout

_TONES = "\n".join(
    f"td.{name.replace(' ', '-')} {{ color: {colour}; font-weight: 600; }}" for name, colour in OUTCOME_COLOURS.items())

CSS = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 1.5rem auto; max-width: 76rem;
       padding: 0 1rem; color: #1d2327; }
h1 { font-size: 1.45rem; border-bottom: 2px solid #2c5282; padding-bottom: .3rem; margin-bottom: .4rem; }
h2 { font-size: 1.15rem; margin-top: 1.6rem; color: #2c5282; }
h3 { font-size: 1.02rem; margin-top: 1.2rem; color: #2c5282; }
table { border-collapse: collapse; margin: .6rem 0 .6rem; font-size: 14px; }
th, td { border: 1px solid #cbd5e0; padding: .22rem .55rem; text-align: left; vertical-align: top; }
th { background: #edf2f7; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr:nth-child(even) td { background: #f7fafc; }
td:not(:last-child) { white-space: nowrap; }
td:last-child { min-width: 14rem; }
ul { padding-left: 1.4rem; } li { margin: .2rem 0; white-space: pre-line; }
span.more { color: #4a5568; font-size: 13px; }
details { margin: .35rem 0; border-left: 3px solid #e2e8f0; padding-left: .7rem; }
details[open] { border-left-color: #90cdf4; }
summary { cursor: pointer; font-weight: 600; color: #2c5282; padding: .15rem 0; }
figure { margin: .5rem 0 1rem; }
figure svg { max-width: 100%; height: auto; display: block; }
p.note { color: #4a5568; font-size: 13px; }
footer { margin-top: 2rem; color: #718096; font-size: 12px; }
"""


def escape(text: str, quote: bool = True) -> str:
    """A text as HTML: markup escaped, on one line (a name's line break or control characters shown as
    escapes, as in the other formats: perfrigor.textsafe)."""
    return _escape(one_line(text), quote)


def _item(item: Item) -> str:
    """Its line as is; the further lines (key numbers, reasons) quieter, each on its own line."""
    first, *rest = [item.text, *item.more]
    more = "<br>".join(escape(line) for line in rest)
    return escape(first) + (f'<br><span class="more">{more}</span>' if rest else "")


#: the longest text a column that does not wrap shows whole (a longer one, a benchmark name of 100
#: characters, is cut in the middle and shown whole on hover): the table stays readable at 1280 px
CELL_CHARS = 48


def _cell(text: str, nowrap: bool) -> str:
    if not nowrap or len(text) <= CELL_CHARS:
        return escape(text)
    return f'<span title="{escape(text)}">{escape(shortened(text, CELL_CHARS))}</span>'


def _classes(tone: str, numeric: bool) -> str:
    names = [tone.replace(" ", "-")] if tone in OUTCOME_COLOURS else []
    names += ["num"] if numeric else []
    return f' class="{" ".join(names)}"' if names else ""


class HtmlRenderer:
    """A single HTML page: no external resources, safe to open from any report.

    ``plots=False`` leaves the plots out (a faster, smaller page); ``max_plots`` is how many
    benchmarks get plots (default 60, the changed and unclear ones first).
    """

    name = "html"
    suffix = ".html"

    def render(self, report, *, verbose: bool = False, plots: bool = True, max_plots: int = 60) -> str:
        # here, not top-level: the installed metadata is read when a page is written, not at start-up
        from .. import __version__

        if isinstance(max_plots, bool) or not isinstance(max_plots, int) or max_plots < 0:
            raise ConfigError(f"max_plots must be a whole number >= 0, got {max_plots!r}")
        self._plot_error: str | None = None
        body: list[str] = []
        self._blocks(layout(report, Options(verbose=verbose, figures=plots, max_plots=max_plots)), body)
        title = escape(f"perfrigor report: {report.pipeline}")
        # encodable: a lone surrogate in a name (valid JSON, not UTF-8) reaches the plots' texts too
        return encodable("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                f"<title>{title}</title>\n<style>{CSS}{_TONES}</style>\n</head>\n<body>\n"
                + "\n".join(body)
                + f"\n<footer>perfrigor {escape(__version__)}</footer>\n</body>\n</html>\n")

    def _blocks(self, blocks: Sequence[Block], body: list[str]) -> None:
        for block in blocks:
            if isinstance(block, Heading):
                body.append(f"<h{block.level}>{escape(block.text)}</h{block.level}>")
            elif isinstance(block, Para):
                body.append(f"<p>{escape(block.text)}</p>")
            elif isinstance(block, Items):
                body.append("<ul>" + "".join(f"<li>{_item(i)}</li>" for i in block.items) + "</ul>")
            elif isinstance(block, Table):
                body.append(self._table(block))
            elif isinstance(block, Details):
                body.append(f"<details{' open' if block.open else ''}><summary>{escape(block.summary)}</summary>")
                self._blocks(block.blocks, body)
                body.append("</details>")
            elif isinstance(block, Figure):
                body.append(self._figure(block))

    @staticmethod
    def _table(block: Table) -> str:
        head = "".join(f"<th>{escape(c.header)}</th>" for c in block.columns)
        last = len(block.columns) - 1
        rows = "".join(
            "<tr>" + "".join(f"<td{_classes(cell.tone, col.numeric)}>{_cell(cell.text, i < last)}</td>"
                             for i, (cell, col) in enumerate(zip(row, block.columns, strict=True))) + "</tr>"
            for row in block.rows)
        return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"

    def _figure(self, block: Figure) -> str:
        key = f' id="{escape(block.key)}"' if block.key else ""
        if self._plot_error is None:
            try:
                svg = block.draw()
            except ConfigError as exc:  # matplotlib missing: say so once, the report stays whole
                self._plot_error = str(exc)
                return f'<p class="note">Plots left out: {escape(str(exc))}</p>'
            label = escape(block.alt, quote=True)
            return f'<figure{key} role="img" aria-label="{label}">{svg}</figure>'
        return ""
