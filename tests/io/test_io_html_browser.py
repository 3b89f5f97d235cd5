"""The bundled examples' HTML reports: their plots, and how they look in a real browser (headless Chromium).

The browser test is skipped where no Chromium is installed (CI has none): on Debian,
``apt-get install chromium``.
"""

from __future__ import annotations

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

    tmp_path.mkdir(parents=True, exist_ok=True)
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
    from perfrigor.renderers._figures import _rows

    example, report, page = example_page
    # the first screen of a laptop: not blank, the verdicts there in their colours
    screen = screenshot(page, tmp_path / "screen")
    assert screen.shape[:2] == (900, 1366)
    assert len(np.unique((screen * 255).astype(np.uint8).reshape(-1, 3), axis=0)) > 100
    assert (screen.mean(axis=-1) < 0.3).mean() > 0.002  # text
    outcomes = {r.outcome for r in _rows(report)[0]}  # what the forest plot draws
    assert outcomes
    for outcome in outcomes:
        assert _pixels_near(screen, OUTCOME_COLOURS[outcome]) > 30, outcome
    # the whole page: the plots add their marks in the outcome colours to those of the table
    tall = screenshot(page, tmp_path / "tall", height=4000)
    bare = screenshot(report.render("html", plots=False), tmp_path / "bare", height=4000)
    for outcome in outcomes:
        colour = OUTCOME_COLOURS[outcome]
        assert _pixels_near(tall, colour) > _pixels_near(bare, colour) + 150, outcome
    assert "<svg" in figures(page)["forest"]
