"""``perfrigor history`` outputs: text and Markdown tables (changes first, newest first), the
contract's JSON, and an HTML page with one time-series plot per changed benchmark."""

from __future__ import annotations

import html
import io
import json
from collections.abc import Callable, Sequence

import perfrigor as pr

from .results import Change, HistoryResult, Pending, newest_first

FORMATS = ("text", "markdown", "json", "html")


def _change_text(speedup: float, lower: bool) -> str:
    """"5.0% slower" from a speedup (> 1 faster), in the metric's own terms."""
    delta = pr.display.change(speedup, lower)
    word = "faster" if speedup > 1 else "slower"
    return f"{pr.display.percent(abs(delta) if delta is not None else None, signed=False)} {word}"


def _p(p: float | None) -> str:
    return "-" if p is None else "< 1e-16" if p < 1e-16 else f"{p:.2g}"


def _range(c: Change) -> str:
    return c.commit if c.first == c.last else f"{c.first} .. {c.last}"


def _lower(result: HistoryResult, benchmark: str) -> bool:
    fit = result.fits.get(benchmark)
    return True if fit is None else fit.lower_is_better


def _rows(result: HistoryResult) -> tuple[list[str], list[list[str]], list[str], list[list[str]]]:
    level = f"{result.confidence:.0%}"
    head = ["benchmark", "commit", f"range ({level})", "change", f"speedup ({level} CI)", "p-value", "q-value"]
    rows = [[c.benchmark, c.commit, _range(c), _change_text(c.speedup, _lower(result, c.benchmark)),
             f"{c.speedup:.4g} ({c.ci_low:.4g} to {c.ci_high:.4g})", _p(c.pvalue), _p(c.qvalue)] for c in newest_first(result.changes)]
    phead = ["benchmark", "from commit", "commits since", "change", "p-value"]
    prows = [[p.benchmark, p.commit, str(p.commits), _change_text(p.speedup, _lower(result, p.benchmark)),
              _p(p.pvalue)] for p in newest_first(result.pending)]
    return head, rows, phead, prows


def _header(result: HistoryResult, source: str | None) -> list[str]:
    control = f", false discovery rate {result.fdr:.0%}" if result.fdr is not None else ""
    lines = [f"perfrigor history: {len(result.fits)} benchmark(s) over {len(result.commits)} commits"
             + (f" ({source})" if source else ""),
             f"Detector: {result.detector} ({result.method}{control}).", "", result.describe() + "."]
    unchanged = len(result.fits) - len({c.benchmark for c in result.changes})
    if unchanged:
        lines.append(f"No change: {unchanged} benchmark(s).")
    return lines


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    width = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    line = "  ".join(h.ljust(w) for h, w in zip(head, width, strict=True))
    out = ["  " + line.rstrip(), "  " + "  ".join("-" * w for w in width)]
    out += ["  " + "  ".join(c.ljust(w) for c, w in zip(r, width, strict=True)).rstrip() for r in rows]
    return out


def text(result: HistoryResult, source: str | None = None) -> str:
    head, rows, phead, prows = _rows(result)
    out = _header(result, source)
    if rows:
        out += ["", "Changes (newest first)", *_table(head, rows)]
    if prows:
        out += ["", "Pending (too few commits since to confirm)", *_table(phead, prows)]
    return "\n".join(out) + "\n"


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|")


def _md_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    return ["| " + " | ".join(map(_md_cell, head)) + " |", "|" + "---|" * len(head),
            *("| " + " | ".join(map(_md_cell, r)) + " |" for r in rows)]


def markdown(result: HistoryResult, source: str | None = None) -> str:
    head, rows, phead, prows = _rows(result)
    first, *rest = _header(result, source)
    out = [f"## {first}", *rest]
    if rows:
        out += ["", "### Changes (newest first)", "", *_md_table(head, rows)]
    if prows:
        out += ["", "### Pending (too few commits since to confirm)", "", *_md_table(phead, prows)]
    return "\n".join(out) + "\n"


def as_json(result: HistoryResult, source: str | None = None) -> str:
    return json.dumps(pr.to_jsonable(result.to_dict()), indent=2, allow_nan=False) + "\n"


# ---------------------------------------------------------------- HTML

_STYLE = """body{font:15px/1.45 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#1a202c}
table{border-collapse:collapse;margin:.5em 0 1.5em}th,td{padding:.25em .7em;border-bottom:1px solid #e2e8f0;
text-align:left}th{background:#f7fafc}td.slower{color:#c53030;font-weight:600}td.faster{color:#2f855a;
font-weight:600}figure{margin:1em 0 2em}figcaption{color:#4a5568;font-size:90%}h1{font-size:1.5em}"""
MAX_PLOTS = 60


def plot(result: HistoryResult, benchmark: str) -> str:
    """SVG of one benchmark over the commits: each commit's level with its runs' spread, the segments'
    levels, each change's range of commits shaded, pending ones marked."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    fit = result.fits[benchmark]
    fig = Figure(figsize=(10, 3.2))
    ax = fig.add_subplot()
    x = list(fit.commits)
    ax.errorbar(x, fit.centre, yerr=[[c - lo for c, lo in zip(fit.centre, fit.low, strict=True)],
                                     [hi - c for c, hi in zip(fit.centre, fit.high, strict=True)]],
                fmt="o", ms=2.5, lw=0.6, color="#4a5568", ecolor="#a0aec0", label="commit: mean, ± 1 sd of runs")
    for i, (a, b, level) in enumerate(fit.segments):
        ax.hlines(level, a - 0.5, b - 0.5, color="#2b6cb0", lw=2, label="segment level" if i == 0 else None)
    for i, c in enumerate(x for x in result.changes if x.benchmark == benchmark):
        colour = "#c53030" if c.outcome == "slower" else "#2f855a"
        ax.axvspan(c.first_index - 0.5, c.last_index + 0.5, color=colour, alpha=0.15,
                   label=f"change range ({result.confidence:.0%})" if i == 0 else None)
        ax.axvline(c.index - 0.5, color=colour, lw=1)
    for p in (x for x in result.pending if x.benchmark == benchmark):
        ax.axvspan(p.index - 0.5, max(x) + 0.5, color="#dd6b20", alpha=0.12, hatch="//", label="pending")
    if fit.damped:
        ax.plot(list(fit.damped), [fit.centre[fit.commits.index(d)] for d in fit.damped], "x", color="#dd6b20",
                label="spike (damped)")
    ax.set_xlabel("commit (in order)")
    ax.set_ylabel(fit.unit or "value")
    ax.set_title(benchmark, loc="left")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    fig.subplots_adjust(left=0.08, right=0.78, bottom=0.16)
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg")
    svg = buffer.getvalue()
    return svg[svg.index("<svg"):]


def _html_table(head: Sequence[str], rows: Sequence[Sequence[str]], tone: Callable[[int], str] | None = None) -> str:
    cells = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = []
    for i, r in enumerate(rows):
        cls = tone(i) if tone else ""
        body.append("<tr>" + "".join(f'<td class="{cls if j == 3 else ""}">{html.escape(c)}</td>'
                                     for j, c in enumerate(r)) + "</tr>")
    return f"<table><thead><tr>{cells}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def as_html(result: HistoryResult, source: str | None = None) -> str:
    head, rows, phead, prows = _rows(result)
    first, *rest = _header(result, source)
    ordered = newest_first(result.changes)
    parts = [f"<h1>{html.escape(first)}</h1>", *(f"<p>{html.escape(t)}</p>" for t in rest if t)]
    if rows:
        parts += ["<h2>Changes (newest first)</h2>", _html_table(head, rows, lambda i: ordered[i].outcome)]
    if prows:
        pend = newest_first(result.pending)
        parts += ["<h2>Pending (too few commits since to confirm)</h2>",
                  _html_table(phead, prows, lambda i: "faster" if pend[i].speedup > 1 else "slower")]
    changed = list(dict.fromkeys([c.benchmark for c in ordered] + [p.benchmark for p in result.pending]))
    if changed:
        parts.append("<h2>Changed benchmarks</h2>")
        for bench in changed[:MAX_PLOTS]:
            parts.append(f"<figure>{plot(result, bench)}<figcaption>{html.escape(bench)}: each commit's mean with "
                         "its runs' spread, the segments' levels, each change's range of commits shaded"
                         "</figcaption></figure>")
        if len(changed) > MAX_PLOTS:
            parts.append(f"<p>{len(changed) - MAX_PLOTS} more changed benchmark(s) not drawn.</p>")
    title = html.escape(first)
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title><style>{_STYLE}</style>"
            f"</head><body>{''.join(parts)}</body></html>\n")


RENDER: dict[str, Callable[[HistoryResult, str | None], str]] = {
    "text": text, "markdown": markdown, "json": as_json, "html": as_html}


def render(result: HistoryResult, fmt: str = "text", source: str | None = None) -> str:
    """The result in ``fmt`` (text, markdown, json, html)."""
    if fmt not in RENDER:
        raise pr.ConfigError(f"unknown format {fmt!r} for a history; formats: {', '.join(FORMATS)}")
    return RENDER[fmt](result, source)


__all__ = ["FORMATS", "Pending", "render"]
