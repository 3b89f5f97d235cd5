"""Renderers: Report -> text, markdown, json, html, junit. One module per format.

A renderer is an object with ``name``, ``suffix`` (for ``-o FILE`` format
detection) and ``render(report) -> str``. Plugins add more through the
``perfrigor_renderers`` hook.
"""

from __future__ import annotations

from .html import HtmlRenderer
from .json import JsonRenderer
from .junit import JunitRenderer
from .markdown import MarkdownRenderer
from .text import TextRenderer

BUILTIN_RENDERERS = [TextRenderer(), MarkdownRenderer(), JsonRenderer(), HtmlRenderer(), JunitRenderer()]
