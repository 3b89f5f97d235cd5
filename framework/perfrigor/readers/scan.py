"""Many numbers at once: the rules of the one number parser checked on whole arrays of tokens with numpy.

The values and tidy CSV readers cut a chunk of a file into tokens (``starts``, ``ends``:
byte offsets) and hand them here. :func:`numbers` checks every token against the syntax of
:mod:`perfrigor.readers.numbers` at once, with counts and positions of character classes
instead of a regular expression per token, and converts the valid ones with
``numpy.fromstring``, which calls ``PyOS_string_to_double`` as ``float()`` does (the same
correctly rounded float, bit for bit). A token that breaks a rule is reported by its index
only: the reader then parses that chunk line by line with the strict parser, which names the
line and says what is wrong. The tests hold the two parsers to the same verdict on every
token (tests/io/test_io_scan.py).
"""

from __future__ import annotations

import numpy as np

#: classes of bytes
OTHER, SPACE, NEWLINE, DIGIT, DOT, EXP, SIGN, COMMA = range(8)
CLASS = np.zeros(256, dtype=np.uint8)
CLASS[list(b" \t\r\v\f")] = SPACE
CLASS[ord("\n")] = NEWLINE
CLASS[list(b"0123456789")] = DIGIT
CLASS[ord(".")] = DOT
CLASS[list(b"eE")] = EXP
CLASS[list(b"+-")] = SIGN
CLASS[ord(",")] = COMMA
#: classes a number is written with
NUMBER_CHARS = np.zeros(8, dtype=bool)
NUMBER_CHARS[[DIGIT, DOT, EXP, SIGN]] = True


#: the classes of the few characters of a number that are not digits
_MARKS = np.zeros(8, dtype=bool)
_MARKS[[DOT, EXP, SIGN]] = True


def _marks(kinds: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where the points, exponent letters and signs inside tokens are: positions, their class, their token."""
    pos = np.flatnonzero(_MARKS[kinds])
    token = np.searchsorted(starts, pos, side="right") - 1
    keep = token >= 0
    keep[keep] = pos[keep] < ends[token[keep]]
    pos, token = pos[keep], token[keep]
    return pos, kinds[pos], token


def valid_numbers(kinds: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Which tokens are numbers in the syntax ``[+-] digits [. digits] [(e|E) [+-] digits]`` (one bool each).

    ``kinds``: the class of every byte of the chunk (:data:`CLASS`); the tokens ``[start, end)`` are
    sorted, apart, and hold number characters only (digits, ``.``, ``e``/``E``, signs), as the
    caller has checked. Then the syntax is: at most one ``.`` and one exponent letter, the ``.``
    before it; a sign first or right after the exponent letter; a digit in the mantissa, and one
    after the exponent letter if there is one. Only the few points, letters and signs are looked
    at: a token's digits are what is left of its length.
    """
    return _syntax(_marks(kinds, starts, ends), starts, ends)[0]


def _syntax(marks: tuple[np.ndarray, np.ndarray, np.ndarray], starts: np.ndarray,
            ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`valid_numbers` from the marks of :func:`_marks`; also which tokens have an exponent."""
    n = starts.size
    ok = ends > starts
    pos, cls, token = marks
    at = {}
    for mark in (EXP, DOT):
        mine = cls == mark
        owner = token[mine]
        ok[owner[1:][owner[1:] == owner[:-1]]] = False  # a second one in a token
        found = np.full(n, -1, dtype=np.int64)
        found[owner] = pos[mine]
        at[mark] = found
    signs, signed = pos[cls == SIGN], token[cls == SIGN]
    exp_at, dot_at = at[EXP], at[DOT]
    has_exp = exp_at >= 0
    ok &= ~has_exp | (dot_at < exp_at)
    first = signs == starts[signed]
    after_exp = has_exp[signed] & (signs == exp_at[signed] + 1)
    ok[signed[~(first | after_exp)]] = False
    sign_first = np.zeros(n, dtype=np.int64)
    sign_first[signed[first]] = 1
    sign_exp = np.zeros(n, dtype=np.int64)
    sign_exp[signed[after_exp]] = 1
    mantissa_digits = np.where(has_exp, exp_at, ends) - starts - sign_first - (dot_at >= 0)
    ok &= mantissa_digits >= 1
    ok &= ~has_exp | (ends - exp_at - 1 - sign_exp >= 1)
    return ok, has_exp


def read_numbers(raw: np.ndarray, kinds: np.ndarray, starts: np.ndarray, ends: np.ndarray,
                 text: bytes | np.ndarray | None = None) -> tuple[np.ndarray, int | None]:
    """The float of each token, and the index of the first token that is no finite number (None when all are).

    The tokens hold number characters only (see :func:`valid_numbers`); each is checked against
    the syntax and converted exactly as ``float()`` converts it (:func:`_floats`); ``text``: the
    chunk holding exactly these tokens between white space, when the caller has it.
    """
    if starts.size == 0:
        return np.empty(0), None
    ok, has_exp = _syntax(_marks(kinds, starts, ends), starts, ends)
    if not ok.all():
        return np.empty(0), int(np.argmin(ok))
    values = _floats(raw, starts, ends, has_exp, text)
    finite = np.isfinite(values)
    if not finite.all():
        return values, int(np.argmin(finite))  # too large for a float: the strict parser says so
    return values, None


def to_floats(chunk: bytes | np.ndarray, count: int) -> np.ndarray:
    """The ``count`` numbers of ``chunk``, which holds only valid numbers apart from ASCII white space.

    ``numpy.fromstring`` converts each with ``PyOS_string_to_double``, as ``float()`` does.
    """
    text = chunk.tobytes() if isinstance(chunk, np.ndarray) else chunk
    if count == 0:
        return np.empty(0)
    values = np.fromstring(text, dtype=float, sep=" ")
    if values.size != count:  # a chunk valid_numbers accepted holds exactly its numbers
        raise AssertionError(f"numpy.fromstring read {values.size} numbers where {count} were checked")
    return values


#: the most digits of a number converted by :func:`_short_floats` (its digits make an exact float)
SHORT = 15
_POWERS = 10.0 ** np.arange(SHORT + 1)


def _floats(raw: np.ndarray, starts: np.ndarray, ends: np.ndarray, has_exp: np.ndarray,
            text: bytes | np.ndarray | None) -> np.ndarray:
    """The floats of valid number tokens, each exactly as ``float()`` gives it.

    Short plain decimals (at most SHORT characters, no exponent: ``1.2345``, ``-17``, most of what
    benchmark tools write) are converted by :func:`_short_floats`; the others by ``numpy.fromstring``.
    """
    short = (ends - starts <= SHORT) & ~has_exp
    if short.all():
        return _short_floats(raw, starts, ends)
    if text is not None and short.mean() < 0.5:  # gathering the long ones would cost more than it saves
        values = to_floats(text, starts.size)
    else:
        values = np.empty(starts.size)
        values[short] = _short_floats(raw, starts[short], ends[short])
        rest = ~short
        values[rest] = to_floats(gather(raw, starts[rest], ends[rest]), int(rest.sum()))
    return values


def _short_floats(raw: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Valid numbers without exponent, of at most SHORT characters: digits / 10**(digits after the point).

    Both are integers below 10**15 < 2**53, so each is an exact float, and one IEEE division gives
    the correctly rounded quotient: the float ``float()`` gives (Clinger's fast path). Read column
    by column for all tokens at once (Horner's scheme).
    """
    n = starts.size
    if n == 0:
        return np.empty(0)
    lengths = ends - starts
    width = int(lengths.max())
    padded = np.concatenate((raw, np.full(width, ord(" "), dtype=np.uint8)))
    window = np.lib.stride_tricks.sliding_window_view(padded, width)[starts]
    window[np.arange(width) >= lengths[:, None]] = ord(" ")
    w = np.zeros(n)
    fraction = np.zeros(n, dtype=np.intp)
    after_point = np.zeros(n, dtype=bool)
    for k in range(width):
        char = window[:, k]
        digit = char - np.uint8(ord("0"))
        is_digit = digit < 10
        w = np.where(is_digit, w * 10.0 + digit, w)
        fraction += is_digit & after_point
        after_point |= char == ord(".")
    values = w / _POWERS[fraction]
    return np.where(window[:, 0] == ord("-"), -values, values)


def gather(buffer: np.ndarray, starts: np.ndarray, ends: np.ndarray, separator: int = ord(" ")) -> np.ndarray:
    """The bytes of each token ``[start, end)`` of ``buffer`` in turn, one ``separator`` after each."""
    lengths = ends - starts
    total = int(lengths.sum()) + starts.size
    out = np.full(total, separator, dtype=np.uint8)
    if total == starts.size:
        return out
    offsets = np.concatenate(([0], np.cumsum(lengths + 1)[:-1]))
    index = np.arange(total, dtype=np.int64)
    token = np.repeat(np.arange(starts.size), lengths + 1)
    source = index - offsets[token] + starts[token]
    keep = index - offsets[token] < lengths[token]
    out[keep] = buffer[source[keep]]
    return out
