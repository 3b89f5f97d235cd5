"""Presets that combine several plugins' components: ``default`` and ``kalibera-jones``.

Each method plugin registers its own preset (``speedup-test``, ``gmm``, ``hpt``);
the presets here span plugins, so they live in a plugin of their own.
"""

from __future__ import annotations

import perfrigor as pr

KALIBERA_JONES = {
    "name": "kalibera-jones",
    "description": (
        "Kalibera & Jones: variance per level and CI of each system's mean, then the speedup "
        "(ratio of means) with Fieller's and the hierarchical-bootstrap interval, and the verdict."
    ),
    "steps": [
        {"component": "variance-components"},
        {"component": "mean-ci"},
        {"component": "fieller"},
        {"component": "bootstrap-ratio", "random_state": 0},
        {"component": "independence"},
        {"component": "verdict"},
    ],
}

DEFAULT = {
    "name": "default",
    "description": (
        "What a person comparing two versions of a program should run: one verdict per benchmark "
        "(faster, slower, same or unclear) from the method whose assumptions hold for the data, with "
        "the evidence: is the median speedup significant (Speedup-Test), how big is the speedup of the "
        "mean (Fieller and hierarchical bootstrap intervals), how often is one run faster (I2), are the "
        "timings multimodal (GMM, modes compared), are the runs independent; over a suite, the share "
        "of accelerated benchmarks and HPT."
    ),
    "steps": [
        {"component": "speedup-test", "statistic": "median"},
        {"component": "fieller"},
        {"component": "bootstrap-ratio", "random_state": 0},
        {"component": "prob-faster"},
        {"component": "gmm"},
        {"component": "independence"},
        {"component": "mode-comparison"},
        {"component": "accelerated-proportion", "statistic": "median"},
        {"component": "hpt"},
        {"component": "verdict"},
    ],
}


@pr.hookimpl
def perfrigor_pipelines() -> list[dict]:
    return [KALIBERA_JONES, DEFAULT]
