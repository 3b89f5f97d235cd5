"""matplotlib, lazily: one Figure without pyplot's global state, saved as SVG or an image file."""

from __future__ import annotations

import functools
import html
import io
import re
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..output import write_atomically

_RC = {
    "svg.fonttype": "none",  # text stays text: small, crisp, searchable
    "svg.hashsalt": "perfrigor",  # the same report gives the same file
    "text.parse_math": False,  # a name holding "$" is shown as written, not as (or failing as) TeX math
    "font.size": 9.0,
    "axes.titlesize": 10.0,
    "axes.labelsize": 9.0,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.fontsize": 8.0,
    "legend.frameon": False,
    "xtick.labelsize": 8.0,
    "ytick.labelsize": 8.5,
}


def _matplotlib() -> Any:
    try:
        import matplotlib
    except ImportError:  # pragma: no cover - a dependency; only a broken install lacks it
        raise ConfigError("plots need matplotlib, which perfrigor depends on: reinstall perfrigor "
                          "(pip install perfrigor) or pip install matplotlib") from None
    return matplotlib


def new_figure(width: float, height: float, **kwargs: Any) -> Any:
    """A matplotlib Figure (inches), outside pyplot: nothing global changes, nothing is shown."""
    _matplotlib()
    from matplotlib.figure import Figure

    with style():
        return Figure(figsize=(width, height), **kwargs)


def styled(draw: Callable[..., Any]) -> Callable[..., Any]:
    """Decorator: ``draw`` builds its whole figure in perfrigor's style (rc settings apply when artists are made)."""

    @functools.wraps(draw)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with style():
            return draw(*args, **kwargs)

    return wrapper


@contextmanager
def style():
    """perfrigor's plot style while drawing and saving."""
    matplotlib = _matplotlib()
    with matplotlib.rc_context(_RC):
        yield


_DECIMALS = re.compile(r"(\d\.\d\d)\d+")


def svg(fig: Any, prefix: str = "") -> str:
    """The figure as an SVG element to inline in a page.

    The XML prologue is dropped, and every id is prefixed with ``prefix``, so several
    plots in one page cannot take each other's clip paths or markers.
    """
    buf = io.StringIO()
    with style():
        fig.savefig(buf, format="svg", metadata={"Date": None})
    text = buf.getvalue()
    text = text[text.index("<svg"):]
    # inline in HTML the parser knows the SVG namespaces: drop the declarations and matplotlib's
    # metadata, so the page names no URL at all; 2 decimals of a point are plenty
    text = re.sub(r'\s+xmlns(:xlink)?="[^"]*"', "", text, count=2)
    text = re.sub(r"\s*<metadata>.*?</metadata>", "", text, count=1, flags=re.S)
    text = re.sub(r"<[^>]+>", lambda tag: _DECIMALS.sub(r"\1", tag.group(0)), text)  # in tags, not in texts
    # texts drawn shortened carry their whole text as an SVG <title>, which a browser shows on hover
    for gid, title in (getattr(fig, "perfrigor_titles", None) or {}).items():
        text = text.replace(f'<g id="{gid}">', f'<g id="{gid}"><title>{html.escape(title)}</title>', 1)
    if prefix:
        text = re.sub(r'(id="|url\(#|href="#)', lambda m: m.group(1) + prefix, text)
    return text


def save(fig: Any, path: str | Path, dpi: int = 110) -> Path:
    """Write the figure to ``path``, its format from the suffix (.png, .svg, .pdf), atomically.

    Drawn in memory first, so a failed drawing or write never leaves a truncated picture.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    buffer = io.BytesIO()
    with style():
        fig.savefig(buffer, format=suffix.lstrip(".") or "png", dpi=dpi,
                    metadata={"Date": None} if suffix == ".svg" else None)
    write_atomically(path, buffer.getvalue())
    return path


def human_axis(values: Any, unit: str) -> tuple[float, str]:
    """(divide by, axis label) for measurements in ``unit``: the display scale of perfrigor.display."""
    from ..display import scale_for, time_per

    scale = scale_for(values, unit)
    what = "time" if time_per(unit) is not None else "value"
    return scale.factor, f"{what} ({scale.label})" if scale.label else what


def log_axis(ax: Any, which: str = "x") -> None:
    """A logarithmic axis with plain tick labels (10, 20, 50, 100 rather than 10^1, 10^2)."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    axis = ax.xaxis if which == "x" else ax.yaxis
    (ax.set_xscale if which == "x" else ax.set_yscale)("log")
    axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    axis.set_minor_formatter(NullFormatter())


def margins_axes(fig: Any, left: float, right: float, bottom: float = 0.5, top: float = 0.15) -> Any:
    """One axes with fixed margins in inches: much faster than constrained layout, which per-benchmark
    plots of a 500-benchmark report cannot afford."""
    width, height = fig.get_size_inches()
    return fig.add_axes((left / width, bottom / height, 1 - (left + right) / width, 1 - (bottom + top) / height))


def text_width(labels: Any, size: float = 8.5) -> float:
    """Roughly how wide (inches) the longest of ``labels`` is at ``size`` points."""
    longest = max((len(str(x)) for x in labels), default=0)
    return longest * size * 0.55 / 72
