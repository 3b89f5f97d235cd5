"""Presets that combine several plugins' components: ``default`` and ``kalibera-jones``."""

from __future__ import annotations

import perfrigor as pr

DEFAULT = {
    "name": "default",
    "description": "What a person comparing two versions of a program should run.",
    "steps": [],
}


@pr.hookimpl
def perfrigor_pipelines() -> list[dict]:
    return []
