"""Text made safe for a terminal: names from data files never carry control sequences.

Benchmark and system names come from the files being analysed. A name holding an ANSI
escape sequence (``ESC [ 2 J`` clears the screen, OSC 8 writes links, some terminals
answer queries) would act on the reader's terminal when a text or Markdown report is
printed; bidirectional overrides can make a name read as another. They are shown as
visible escapes instead (``\\x1b``, ``\\u202e``); newlines and tabs are kept.
"""

from __future__ import annotations

import re

#: C0 controls but tab and newline, DEL, C1 controls, and the bidirectional embeddings/overrides/isolates
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def terminal_safe(text: str) -> str:
    """``text`` with control and bidirectional-override characters shown as visible escapes."""
    return _UNSAFE.sub(_escape, text)
