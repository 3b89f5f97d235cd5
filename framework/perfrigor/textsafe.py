"""Text made safe for each output: names from data files never act, never forge a line.

Benchmark and system names come from the files being analysed. A name holding an ANSI
escape sequence (``ESC [ 2 J`` clears the screen, OSC 8 writes links, some terminals
answer queries) would act on the reader's terminal when a text or Markdown report is
printed; bidirectional overrides can make a name read as another; a line break in a name
would start a line of the report's own (a forged verdict row); a lone surrogate (valid in
a JSON string, not in UTF-8) cannot be written at all. They are shown as visible escapes
instead (``\\x1b``, ``\\u202e``, ``\\n``, ``\\ud800``). Each format escapes its own syntax on
top: :func:`markdown_text` for Markdown; the HTML renderer escapes markup and applies
:func:`encodable`.
"""

from __future__ import annotations

import re

#: lone surrogates: a JSON string may hold one (``"\\ud800"``), UTF-8 cannot encode it
_SURROGATES = "\ud800-\udfff"
#: C0 controls but tab and newline, DEL, C1 controls, the bidirectional embeddings/overrides/isolates,
#: the Unicode line and paragraph separators, and lone surrogates
_UNSAFE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029{_SURROGATES}]")
_UNENCODABLE = re.compile(f"[{_SURROGATES}]")
#: Markdown's inline syntax: code, emphasis, strikethrough, entities, table cells, and the bracket that
#: would close a link, image or reference ("[95% CI]" alone stays as it is)
_MARKDOWN_INLINE = re.compile(r"([\\`*_~&|]|\](?=[(\[:]))")
#: what GitHub links or notifies in a comment's text (an @mention, a #123, GH-123 or owner/repo#123 reference):
#: a zero-width space after the @, # or GH- breaks it and reads the same
_GITHUB_REFERENCE = re.compile(r"(@|#|\bGH-)(?=\w)", re.IGNORECASE)
#: what makes a line a heading, quote, list item, task box, thematic break or setext underline where it
#: starts a line
_MARKDOWN_LINE_START = re.compile(r"^(\s*)(?:([#>\[]|[-+=](?=[-+=\s]|$))|(\d+)([.)])(?=\s|$))")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def terminal_safe(text: str) -> str:
    """``text`` with control, bidirectional-override and unencodable characters shown as visible escapes
    (newlines and tabs kept: a whole report goes through here)."""
    return _UNSAFE.sub(_escape, text)


def one_line(text: str) -> str:
    """``text`` as :func:`terminal_safe` shows it, with line breaks shown as ``\\n`` too: a report's cell,
    heading or line, which a name must not break."""
    return terminal_safe(text).replace("\n", "\\n")


def encodable(text: str) -> str:
    """``text`` with lone surrogates shown as escapes (``\\ud800``), so that UTF-8 can write it."""
    return _UNENCODABLE.sub(_escape, text)


def markdown_text(text: str, line_start: bool = True) -> str:
    """Plain ``text`` as Markdown that shows it literally, on one line: no link, image, emphasis, code,
    HTML, heading, quote or list can be formed, nor a table cell ended (GitHub-flavoured Markdown), and
    no GitHub @mention or issue reference (a report posted as a comment notifies nobody; as Renovate does,
    a zero-width space, ``&#8203;``, follows the ``@``, ``#`` or ``GH-``).

    ``line_start=False`` for a table cell, where what starts a line (``#``, ``-``, ``1.``) means nothing.
    """
    text = _MARKDOWN_INLINE.sub(r"\\\1", one_line(text)).replace("<", "&lt;")
    text = _GITHUB_REFERENCE.sub(lambda m: m.group(1) + "&#8203;", text)
    if not line_start:
        return text
    return _MARKDOWN_LINE_START.sub(lambda m: m.group(1) + (f"\\{m.group(2)}" if m.group(2)
                                                            else f"{m.group(3)}\\{m.group(4)}"), text)


def shortened(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters in the middle ("golang.org/x/…/Benchmark07"), where the
    start and the end, which tell long benchmark names apart, both stay; shorter text as it is."""
    if len(text) <= limit:
        return text
    tail = (limit - 1) * 3 // 5  # the end tells most apart: BenchmarkX/size=N
    return text[:limit - 1 - tail] + "…" + text[len(text) - tail:]
