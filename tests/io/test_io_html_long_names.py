"""Issue 24 item 13: long benchmark names (golang/perf's bent: 67 benchmarks of ~100 characters) keep
the HTML report readable: the forest plot keeps its width, names are cut in the middle with the whole
name on hover, and the verdict table fits 1280 px without a column wrapping word by word."""

from __future__ import annotations

import json
import re
import subprocess

import numpy as np
import perfrigor as pr
import pytest

from .test_io_html_browser import _browser

pytest.importorskip("matplotlib")


def _name(i: int) -> str:
    return (f"golang.org/x/benchmarks/third_party/bent/very_long_package_name/very_long_package_name/"
            f"Benchmark{i:02d}/size=" + "x" * 40)[:100]


@pytest.fixture(scope="module")
def report():
    rng = np.random.default_rng(1)
    data = {_name(i): {"old": rng.normal(100, 1, 12), "new": rng.normal(100 / [1.0, 0.95, 1.08][i % 3], 1, 12)}
            for i in range(12)}
    return pr.pipeline("default").run(pr.Suite(data))


def test_the_forest_keeps_its_plotting_width_and_the_full_names_on_hover(report):
    from perfrigor.plots.forest import PLOT_WIDTH, Row, forest

    rows = [Row(_name(i), 1.0 + 0.01 * i, 0.99 + 0.01 * i, 1.01 + 0.01 * i, "faster", "+1.0% [+0.5%, +1.5%]")
            for i in range(12)]
    fig = forest(rows, threshold=0.01)
    fig.draw_without_rendering()  # constrained layout places the axes
    axes_inches = fig.axes[0].get_position().width * fig.get_size_inches()[0]
    assert axes_inches >= 0.9 * PLOT_WIDTH, axes_inches  # 100-character names once left it 190 px (2 in)
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert all(len(label) <= 40 and "…" in label for label in labels)
    assert len(set(labels)) == 12  # the ends that tell them apart are kept
    svg = pr.plots.svg(fig)
    assert all(f"<title>{_name(i).replace('/', '/')}</title>" in svg for i in range(12))


def test_the_tables_cut_long_names_with_the_whole_name_on_hover(report):
    page = report.render("html", plots=False)
    for i in range(12):
        assert f'title="{_name(i)}"' in page
    cells = re.findall(r'<span title="[^"]+">([^<]+)</span>', page)
    assert cells and all(len(c) <= 48 for c in cells)


@pytest.mark.slow
def test_the_page_is_readable_at_1280_pixels_in_chromium(report, tmp_path):
    browser = _browser()
    if browser is None:
        pytest.skip("no Chromium installed (apt-get install chromium): the HTML was not looked at in a browser")
    probe = """<script>
window.addEventListener('load', () => {
  const table = document.querySelector('table');
  const rows = [...table.querySelectorAll('tbody tr')].map(r => r.getBoundingClientRect().height);
  const forest = document.querySelector('#forest svg').getBoundingClientRect().width;
  document.body.setAttribute('data-metrics', JSON.stringify({rows, forest,
    page: document.documentElement.scrollWidth, viewport: document.documentElement.clientWidth,
    line: parseFloat(getComputedStyle(table.querySelector('td')).lineHeight)}));
});
</script></body>"""
    html = tmp_path / "report.html"
    html.write_text(report.render("html").replace("</body>", probe), encoding="utf-8")
    done = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                           "--disable-component-update", "--disable-sync", "--no-first-run",
                           f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1280,2000",
                           "--virtual-time-budget=5000", "--dump-dom", html.as_uri()],
                          check=True, capture_output=True, text=True, timeout=120)
    metrics = json.loads(re.search(r"data-metrics=\"([^\"]+)\"", done.stdout).group(1).replace("&quot;", '"'))
    assert metrics["page"] <= metrics["viewport"], metrics  # no sideways scrolling
    assert max(metrics["rows"]) <= 3.2 * metrics["line"], metrics  # "why" at most 3 lines, never word by word
    assert metrics["forest"] >= 600, metrics
