"""The fast path of the values reader (numpy over whole chunks) agrees with the strict per-line parser.

The strict parser (:func:`perfrigor.readers.values.strict_lines`, :func:`perfrigor.readers.numbers.parse_number`)
defines what a values file may hold; the fast path (:mod:`perfrigor.readers.scan`) must accept
exactly what it accepts, give the same floats bit for bit and the same lines, and hand every
chunk it refuses back to the strict parser, which names the line (issue 23.4).
"""

from __future__ import annotations

import gzip
import random
import struct

import numpy as np
import perfrigor as pr
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from perfrigor.readers import _common, scan, values
from perfrigor.readers.numbers import _DECIMAL

PIECES = ["0", "1", "7", "9", "12", "0.5", ".", "e", "E", "+", "-", ",", " ", "\t", "\r", "\n", "\n", "\n", "#",
          "x", "\u00a0", "_", "1e5", "2.5e-3", "inf", "nan", "\v", "\x00", "1e400", "1e-400", "١"]


def strict(text: str):
    try:
        return values.strict_lines(text, pr.Sample.__name__)  # any path name: only the verdict matters
    except pr.DataError:
        return None


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40))
def test_the_fast_path_accepts_exactly_what_the_strict_parser_accepts(pieces):
    text = "".join(pieces)
    fast = values.fast_lines(text.encode())
    slow = strict(text)
    if fast is None:
        return  # the strict parser reads (or refuses) the chunk itself
    assert slow is not None, text
    numbers, lines = fast
    assert numbers.tolist() == slow[0] and (lines + 1).tolist() == slow[1], text


def test_every_float_is_read_bit_for_bit_as_float_reads_it():
    rng = random.Random(0)
    tokens = []
    for i in range(30_000):
        x = struct.unpack("d", struct.pack("Q", rng.getrandbits(64)))[0]
        if not np.isfinite(x):
            continue
        tokens.append([repr(x), f"{x:.17g}", f"{x:.6e}", f"{x:.18e}", f"{x % 1000:.3f}", str(rng.getrandbits(70)),
                       f"-{rng.random():.{rng.randint(0, 9)}f}"][i % 7])
    tokens += ["0", "-0", "-0.0", "1.", ".5", "+3", "-.5", "5e-324", "2.2250738585072011e-308", "1e-400",
               "9007199254740993", "0.30000000000000004", "999999999999999", "1234567890123456", "0e999"]
    chunk = "\n".join(tokens).encode()
    numbers, lines = values.fast_lines(chunk)
    expected = np.array([float(t) for t in tokens])
    assert np.array_equal(numbers.view(np.int64), expected.view(np.int64))  # same bits, signs of zeros too
    assert np.array_equal(lines, np.arange(len(tokens)))


def test_the_syntax_check_is_the_number_parsers_syntax():
    rng = random.Random(1)
    tokens = ["".join(rng.choice("0123456789.eE+-") for _ in range(rng.randint(1, 7))) for _ in range(50_000)]
    blob = " ".join(tokens).encode()
    raw = np.frombuffer(blob, dtype=np.uint8)
    lengths = np.array([len(t) for t in tokens])
    starts = np.concatenate(([0], np.cumsum(lengths + 1)[:-1]))
    ok = scan.valid_numbers(scan.CLASS[raw], starts, starts + lengths)
    assert [bool(v) for v in ok] == [_DECIMAL.fullmatch(t) is not None for t in tokens]


@pytest.mark.parametrize("chunk", [64, 1000])
def test_chunks_of_whole_lines_give_the_same_values_and_lines(tmp_path, monkeypatch, chunk):
    monkeypatch.setattr(_common, "LINE_CHUNK", chunk)
    monkeypatch.setattr(values, "line_chunks", lambda path: _common.line_chunks(path, chunk))
    rows = ["# header", ""] + [f"{v:.6f}" if i % 50 else f"  {float(v)!r} ,, " for i, v in
                               enumerate(np.random.default_rng(0).lognormal(0, 1, 3000))]
    path = tmp_path / "v.txt"
    path.write_text("\ufeff" + "\r\n".join(rows) + "\n")
    s = pr.read(path, format="values")
    assert s.values.tolist() == [float(r.strip(" ,")) for r in rows[2:]]
    assert s.positions.tolist() == list(range(3, len(rows) + 1))


@pytest.mark.parametrize(("text", "line", "message"), [
    ("1\n2\n1_000\n", 3, "value '1_000' is not a number (no digit separators"),
    ("1\n\u0661\u0662\n", 2, "value '١٢' is not a number (character '١', U+0661, is not ASCII"),
    ("1\nnan\n", 2, "value 'nan' is not a finite number"),
    ("1\n-inf\n", 2, "value '-inf' is not a finite number"),
    ("1\n0x1p-3\n", 2, "value '0x1p-3' is not a number"),
    ("1\n1e400\n", 2, "value '1e400' is too large for a floating-point number"),
    ("1\n2 3\n", 2, "'2 3' is several values"),
    ("1\n# fine\n 5 # not a comment\n", 3, "'5 # not a comment' is several values"),
    ("1\n,\n", 2, "missing value"),
])
def test_a_bad_line_far_into_a_large_file_is_named(tmp_path, text, line, message):
    path = tmp_path / "v.txt"
    path.write_bytes(b"1.5\n" * 300_000 + text.encode())  # the bad line is in the file's last chunk
    with pytest.raises(pr.DataError) as err:
        pr.read(path, format="values")
    assert str(err.value).startswith(f"{path}, line {300_000 + line}: {message}")


def test_a_gzip_values_file_is_read_and_a_bad_utf8_byte_is_named(tmp_path):
    path = tmp_path / "v.txt.gz"
    path.write_bytes(gzip.compress(b"# \xc3\xa9t\xc3\xa9\n1\n2\n"))
    assert pr.read(path, format="values").values.tolist() == [1.0, 2.0]
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"1\n" * 10 + b"# \xff\n")
    with pytest.raises(pr.DataError, match=r"line 11: not UTF-8 text \(invalid start byte at byte 22\)"):
        pr.read(bad, format="values")


# ---------------------------------------------------------------- tidy CSV: the fast path and the csv module

LABELS = ["a", "b", " a", "a ", "fib", "fib\u00a0", "", " ", "é", "1", "#x", "x y", "x  y"]
CELLS = ["1", "2.5", "1e3", " 3 ", "", "x", "1_0", "nan", "-0", ".5", "1e400", "4\t"]
HEADERS = ["benchmark,system,value", "benchmark,system,run,value", "bench;system;time", "value", "benchmark,value",
           "benchmark,system,unit,value", "benchmark\tsystem\tvalue"]


def _csv_text(draw) -> str:
    header = draw(st.sampled_from(HEADERS))
    sep = "\t" if "\t" in header else ";" if ";" in header else ","
    width = header.count(sep) + 1
    lines = [draw(st.sampled_from(["", "# comment", "  "]))] if draw(st.booleans()) else []
    lines.append(header)
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.integers(0, 20))
        if kind == 0:
            lines.append(draw(st.sampled_from(["", "  ", sep * (width - 1), "#c", '"q"' + sep * (width - 1)])))
            continue
        n = width + (kind == 1) - (kind == 2)
        cells = [draw(st.sampled_from(LABELS)) for _ in range(n - 1)] + [draw(st.sampled_from(CELLS))]
        if "unit" in header and n == width:
            cells[2] = draw(st.sampled_from(["ms", "s", " ms"]))
        lines.append(sep.join(cells))
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    return ending.join(lines) + draw(st.sampled_from(["", ending]))


def _outcome(path):
    try:
        data = pr.read(path, format="tidy-csv")
    except pr.DataError as exc:
        return ("error", str(exc))
    samples = [data] if isinstance(data, pr.Sample) else [s for per in data.data.values() for s in per.values()]
    keys = [] if isinstance(data, pr.Sample) else [(b, list(per)) for b, per in data.data.items()]
    return ("data", keys, [(s.values.tolist(), s.shape, s.levels, s.unit, s.name, s.lower_is_better,
                            None if s.positions is None else s.positions.tolist()) for s in samples])


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_the_csv_fast_path_reads_what_the_csv_module_reads(tmp_path_factory, monkeypatch_module, data):
    from perfrigor.readers import tidy_csv

    path = tmp_path_factory.mktemp("csv") / "t.csv"
    path.write_text(_csv_text(data.draw), encoding="utf-8")
    fast = _outcome(path)
    with monkeypatch_module.context() as m:
        m.setattr(tidy_csv, "read_fast", lambda *args: None)
        strict = _outcome(path)
    assert fast == strict, path.read_text()


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as m:
        yield m


def test_a_large_tidy_csv_is_read_by_the_fast_path_and_a_bad_row_far_in_is_named(tmp_path, monkeypatch):
    from perfrigor.readers import tidy_csv

    rows = ["benchmark,system,invocation,iteration,time_ms"]
    rng = np.random.default_rng(0)
    for b in range(3):
        for s in ("old", "new"):
            rows += [f"b{b},{s},{i // 500},{i % 500},{v:.4f}" for i, v in enumerate(rng.lognormal(0, 0.1, 10_000))]
    path = tmp_path / "t.csv"
    path.write_text("\n".join(rows) + "\n")
    monkeypatch.setattr(tidy_csv, "build_table", None)  # the csv module's reading of every row is never reached
    suite = pr.read(path)
    assert suite.benchmarks == ["b0", "b1", "b2"] and suite.systems == ("old", "new")
    sample = suite["b2"]["new"]
    assert sample.shape == (20, 500) and sample.levels == ("invocation", "iteration") and sample.unit == "ms"
    assert sample.values[-1, -1] == float(rows[-1].rsplit(",", 1)[1]) and sample.positions[-1, -1] == len(rows)
    monkeypatch.undo()
    path.write_text("\n".join(rows[:50_000] + ["b1,new,3,7,1,2"] + rows[50_000:]) + "\n")
    with pytest.raises(pr.DataError, match=r"line 50001: 6 field\(s\) where the header has 5"):
        pr.read(path)
    path.write_text("\n".join(rows[:50_000] + ["b1,new,3,7,0x1p3"] + rows[50_000:]) + "\n")
    with pytest.raises(pr.DataError, match=r"line 50001: 'time_ms' '0x1p3' is not a number"):
        pr.read(path)
