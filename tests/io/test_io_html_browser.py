"""The bundled examples' HTML reports: their plots, and how they look in a real browser (headless Chromium).

The browser test is skipped where no Chromium is installed (CI has none): on Debian,
``apt-get install chromium``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import perfrigor as pr
import pytest
from perfrigor import examples

from .test_io_html_plots import assert_self_contained, figures

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def _inputs(example: str) -> list[Path]:
    folder = examples.path(example)
    return [folder / "suite.csv"] if example == "suite" else [folder / "baseline.txt", folder / "candidate.txt"]


@pytest.fixture(scope="module", params=["suite", "two-versions"])
def example_page(request):
    report = pr.pipeline("default").run(*_inputs(request.param))
    return request.param, report, report.render("html")


@pytest.mark.slow
def test_the_examples_html_has_the_forest_and_the_distributions(example_page):
    _, report, page = example_page
    figs = figures(page)
    assert "forest" in figs
    dists = [k for k in figs if k.endswith("-dist")]
    assert len(dists) == len(report.benchmarks)
    assert any("fitted" in figs[k] for k in dists)  # the gmm step's mixtures, through plot_layers
    assert_self_contained(page)


def _browser() -> str | None:
    return next((found for name in BROWSERS if (found := shutil.which(name))), None)


def screenshot(page: str, tmp_path: Path, height: int = 900) -> np.ndarray:
    """The page as Chromium draws it at 1366 x ``height``, as an RGB array (values 0..1)."""
    browser = _browser()
    if browser is None:
        pytest.skip("no Chromium installed (apt-get install chromium): the HTML was not looked at in a browser")
    from matplotlib.image import imread

    html = tmp_path / "report.html"
    html.write_text(page, encoding="utf-8")
    png = tmp_path / "shot.png"
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
                    f"--user-data-dir={tmp_path / 'profile'}", f"--screenshot={png}",
                    f"--window-size=1366,{height}", html.as_uri()],
                   check=True, capture_output=True, timeout=120)
    return imread(png)[..., :3]


def _pixels_near(image: np.ndarray, colour: str, tolerance: float = 0.06) -> int:
    rgb = np.array([int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)])
    return int((np.abs(image - rgb).max(axis=-1) < tolerance).sum())


@pytest.mark.slow
def test_the_examples_look_right_in_chromium(example_page, tmp_path):
    from perfrigor.plots.style import OUTCOME_COLOURS

    example, report, page = example_page
    image = screenshot(page, tmp_path, height=2400)
    assert image.shape[:2] == (2400, 1366)
    # not blank: text, tables and plots give many distinct shades and dark pixels
    assert len(np.unique((image * 255).astype(np.uint8).reshape(-1, 3), axis=0)) > 200
    assert (image.mean(axis=-1) < 0.3).mean() > 0.005
    # the verdicts' colours are on screen (table cells and forest plot) for every outcome the report has
    from perfrigor.renderers._figures import _rows

    rows, _, _, _ = _rows(report)  # what the forest plot draws (verdicts, else a comparison's outcomes)
    assert rows
    for outcome in {r.outcome for r in rows}:
        assert _pixels_near(image, OUTCOME_COLOURS[outcome]) > 50, outcome
    # the forest plot is drawn: its SVG is in the page, with its marks in the outcome colours
    forest = figures(page)["forest"]
    assert re.search(r"#[0-9a-f]{6}", forest)
