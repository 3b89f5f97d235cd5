"""Renderers: Report -> text, markdown, json, html. One module per format."""

from __future__ import annotations

from .json import JsonRenderer
from .text import TextRenderer

BUILTIN_RENDERERS = [TextRenderer(), JsonRenderer()]
