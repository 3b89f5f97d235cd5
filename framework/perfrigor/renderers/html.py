"""The report as one self-contained HTML page (inline CSS, every text escaped)."""

from __future__ import annotations

from html import escape

from ._blocks import Heading, Items, Para, Table, layout

CSS = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 72rem;
       padding: 0 1rem; color: #1d2327; }
h1 { font-size: 1.5rem; border-bottom: 2px solid #2c5282; padding-bottom: .3rem; }
h2 { font-size: 1.15rem; margin-top: 1.8rem; color: #2c5282; }
table { border-collapse: collapse; margin: .6rem 0 1rem; font-size: 14px; }
th, td { border: 1px solid #cbd5e0; padding: .25rem .6rem; text-align: left; vertical-align: top; }
th { background: #edf2f7; }
tr:nth-child(even) td { background: #f7fafc; }
td:not(:last-child) { white-space: nowrap; }
td.faster { color: #22543d; background: #f0fff4 !important; font-weight: 600; }
td.slower { color: #9b2c2c; background: #fff5f5 !important; font-weight: 600; }
ul { padding-left: 1.4rem; } li { margin: .2rem 0; white-space: pre-line; }
span.more { color: #4a5568; font-size: 13px; }
footer { margin-top: 2rem; color: #718096; font-size: 12px; }
"""


def _item(text: str) -> str:
    """First line as is; the following lines (key numbers) quieter."""
    first, _, rest = text.partition("\n")
    return escape(first) + (f'<br><span class="more">{escape(rest)}</span>' if rest else "")


def _css_class(tone: str) -> str:
    return f' class="{tone}"' if tone in ("faster", "slower") else ""


class HtmlRenderer:
    """A single HTML page: no external resources, safe to open from any report."""

    name = "html"
    suffix = ".html"

    def render(self, report) -> str:
        from .. import __version__

        body: list[str] = []
        for block in layout(report):
            if isinstance(block, Heading):
                body.append(f"<h{block.level}>{escape(block.text)}</h{block.level}>")
            elif isinstance(block, Para):
                body.append(f"<p>{escape(block.text)}</p>")
            elif isinstance(block, Items):
                body.append("<ul>" + "".join(f"<li>{_item(i)}</li>" for i in block.items) + "</ul>")
            elif isinstance(block, Table):
                head = "".join(f"<th>{escape(h)}</th>" for h in block.headers)
                tones = block.tones or [[""] * len(r) for r in block.rows]
                rows = "".join(
                    "<tr>" + "".join(f"<td{_css_class(t)}>{escape(c)}</td>" for c, t in zip(row, tone, strict=True))
                    + "</tr>"
                    for row, tone in zip(block.rows, tones, strict=True))
                body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
        title = escape(f"perfrigor report: {report.pipeline}")
        return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                f"<title>{title}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
                + "\n".join(body)
                + f"\n<footer>perfrigor {escape(__version__)}</footer>\n</body>\n</html>\n")
