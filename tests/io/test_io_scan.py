"""The fast paths of the readers (numpy and pyarrow over whole chunks) agree with the strict per-line parser.

The strict parser (:func:`perfrigor.readers.values.strict_lines`, :func:`perfrigor.readers.numbers.parse_number`)
defines what a values file may hold; the fast paths (:mod:`perfrigor.readers.scan`,
:mod:`perfrigor.readers._arrow`) must accept only what it accepts, give the same floats bit for bit
and the same lines, and hand every chunk they refuse back to the strict parser, which names the
line (issue 23.4). The tidy CSV's fast paths (numpy or pyarrow, and grouping from runs of rows,
:mod:`perfrigor.readers.nested`) must read what the csv module's reading reads.
"""

from __future__ import annotations

import gzip
import random
import struct
import subprocess
import sys

import numpy as np
import perfrigor as pr
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from perfrigor.readers import _arrow, _common, nested, scan, tidy_csv, values
from perfrigor.readers.limits import limits
from perfrigor.readers.numbers import _DECIMAL

PIECES = ["0", "1", "7", "9", "12", "0.5", ".", "e", "E", "+", "-", ",", " ", "\t", "\r", "\n", "\n", "\n", "#",
          "x", "\u00a0", "_", "1e5", "2.5e-3", "inf", "nan", "\v", "\x00", "1e400", "1e-400", "١"]
#: what pyarrow's parser reads beyond the number syntax, or at its edges
ARROW_PIECES = PIECES + ["\r\n", "\n", "\n", "\n", "Infinity", "NaN", "+nan", "-inf", "1.#INF", "0x10", "1_0", "+.5",
                         "-.5", "5.", "1e+5", "2E-3", "1e308", "2e308", "5e-324", "2.4e-324", "9" * 30, "--", "e5"]


@pytest.fixture(params=["numpy", "pyarrow"])
def fast_path(request, monkeypatch):
    """Read with numpy's fast path (files under _arrow.LARGE) or pyarrow's (every file counted as large)."""
    if request.param == "pyarrow":
        monkeypatch.setattr(_arrow, "LARGE", 0)
    return request.param


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


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(ARROW_PIECES), max_size=40))
def test_pyarrow_accepts_only_what_the_strict_parser_accepts(pieces):
    text = "".join(pieces)
    found = _arrow.numbers(text.encode())
    if found is None:
        return  # numpy and the strict parser read (or refuse) the chunk
    slow = strict(text)
    assert slow is not None, text
    assert found.tolist() == slow[0] and slow[1] == list(range(1, found.size + 1)), text
    assert np.array_equal(found.view(np.int64), np.array(slow[0]).view(np.int64)), text  # -0.0 too


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
    by_arrow = _arrow.numbers(chunk)  # fast_float: correctly rounded, as float() is
    assert by_arrow is not None and np.array_equal(by_arrow.view(np.int64), expected.view(np.int64))


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
    monkeypatch.setattr(values, "line_chunks", lambda path, size=None: _common.line_chunks(path, chunk))
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
def test_a_bad_line_far_into_a_large_file_is_named(tmp_path, fast_path, text, line, message):
    path = tmp_path / "v.txt"
    path.write_bytes(b"1.5\n" * 300_000 + text.encode())  # the bad line is in the file's last chunk
    with pytest.raises(pr.DataError) as err:
        pr.read(path, format="values")
    assert str(err.value).startswith(f"{path}, line {300_000 + line}: {message}")


def test_a_large_values_file_is_read_by_pyarrow_with_its_lines(tmp_path, monkeypatch):
    taken = []
    monkeypatch.setattr(_arrow, "numbers", lambda chunk, read=_arrow.numbers: taken.append(read(chunk)) or taken[-1])
    numbers = np.random.default_rng(3).lognormal(0, 1, 600_000)
    path = tmp_path / "v.txt"
    path.write_text("# a comment, then numbers\r\n" + "".join(f"{v!r}\r\n" for v in numbers.tolist()))
    assert path.stat().st_size > _arrow.LARGE
    sample = pr.read(path, format="values")
    assert sum(t is not None for t in taken) >= len(taken) - 1  # every chunk but the commented one
    assert np.array_equal(sample.values, numbers) and sample.positions.tolist() == list(range(2, numbers.size + 2))


def test_small_files_and_start_up_do_not_import_pyarrow(tmp_path):
    path = tmp_path / "v.txt"
    path.write_text("1\n2\n")
    table = tmp_path / "t.csv"
    table.write_text("benchmark,system,value\nb,old,1\nb,new,2\n")
    code = (f"import sys, perfrigor as pr; pr.read({str(path)!r}); pr.read({str(table)!r}); "
            "print('pyarrow' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.split() == ["False"]


def test_a_gzip_values_file_is_read_and_a_bad_utf8_byte_is_named(tmp_path):
    path = tmp_path / "v.txt.gz"
    path.write_bytes(gzip.compress(b"# \xc3\xa9t\xc3\xa9\n1\n2\n"))
    assert pr.read(path, format="values").values.tolist() == [1.0, 2.0]
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"1\n" * 10 + b"# \xff\n")
    with pytest.raises(pr.DataError, match=r"line 11: not UTF-8 text \(invalid start byte at byte 22\)"):
        pr.read(bad, format="values")


def test_a_gzip_tidy_csv_is_recognised_by_its_name_before_gz(tmp_path):
    path = tmp_path / "times.csv.gz"
    path.write_bytes(gzip.compress(b"benchmark,system,value\nb,old,1\nb,old,2\nb,new,3\nb,new,4\n"))
    suite = pr.read(path)
    assert suite.benchmarks == ["b"] and suite["b"]["new"].values.tolist() == [3.0, 4.0]


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


@pytest.mark.parametrize("large", [False, True], ids=["numpy", "pyarrow"])
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_the_csv_fast_path_reads_what_the_csv_module_reads(tmp_path_factory, monkeypatch_module, large, data):
    path = tmp_path_factory.mktemp("csv") / "t.csv"
    path.write_text(_csv_text(data.draw), encoding="utf-8")
    with monkeypatch_module.context() as m:
        m.setattr(_arrow, "LARGE", 0 if large else _arrow.LARGE)
        fast = _outcome(path)
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


@st.composite
def _nested_table(draw) -> str:
    """A tidy CSV written unit after unit (as nested loops write it), perhaps then disturbed."""
    levels = draw(st.sampled_from([[], ["run"], ["invocation", "iteration"]]))
    has = {"benchmark": draw(st.booleans()), "system": draw(st.booleans()), "unit": draw(st.booleans())}
    header = [c for c in ("benchmark", "system") if has[c]] + levels + (["unit"] if has["unit"] else []) + ["time"]
    benchmarks = draw(st.lists(st.sampled_from(["a", "b", "fib", "x y"]), min_size=1, max_size=3, unique=True))
    systems = draw(st.lists(st.sampled_from(["old", "new", "1"]), min_size=1, max_size=2, unique=True))
    counts = [draw(st.integers(1, 3)) for _ in levels]
    per_unit = draw(st.integers(1, 3))
    pairs = [(b, s) for b in benchmarks for s in systems]
    if draw(st.booleans()):
        pairs = draw(st.permutations(pairs))
    rows = []

    def units(depth, prefix):
        if depth == len(levels):
            for _ in range(per_unit):
                rows.append([*prefix, draw(st.sampled_from(["1", "2.5", ".5", "1e3", "7"]))])
            return
        names = draw(st.permutations(["0", "1", "2", "10"]))[:counts[depth]]
        for name in names:
            units(depth + 1, [*prefix, name])

    for b, s in pairs:
        start = len(rows)
        units(0, [])
        unit = draw(st.sampled_from(["ms", "s"])) if has["unit"] else None
        for row in rows[start:]:
            row[:0] = [c for c, on in ((b, has["benchmark"]), (s, has["system"])) if on]
            if unit is not None:
                row.insert(len(row) - 1, unit)
    change = draw(st.sampled_from(["none", "none", "swap", "drop", "repeat", "unit", "later"]))
    if change != "none" and len(rows) > 1:
        i, j = draw(st.integers(0, len(rows) - 1)), draw(st.integers(0, len(rows) - 1))
        if change == "swap":
            rows[i], rows[j] = rows[j], rows[i]
        elif change == "drop":
            del rows[i]
        elif change == "repeat":
            rows.insert(j, list(rows[i]))
        elif change == "unit" and has["unit"]:
            rows[i][-2] = "us"
        elif change == "later":  # a run of rows moved to the end: a sample or unit written in two places
            rows += rows[i:i + 2]
            del rows[i:i + 2]
    return "\n".join(",".join(r) for r in [header, *rows]) + "\n"


def _by_pyarrow_and_not(monkeypatch_module, reader, outcome, path) -> tuple[object, object]:
    """``outcome(path)`` read by pyarrow (every file counts as large), then by the strict parser alone
    (``reader``'s fast path switched off)."""
    with monkeypatch_module.context() as m:
        m.setattr(_arrow, "LARGE", 0)
        fast = outcome(path)
        m.setattr(reader, "read_fast", lambda *args: None)
        return fast, outcome(path)


@settings(max_examples=300, deadline=None)
@given(text=_nested_table())
def test_tables_written_unit_after_unit_are_grouped_as_the_csv_module_groups_them(tmp_path_factory,
                                                                                  monkeypatch_module, text):
    path = tmp_path_factory.mktemp("nested") / "t.csv"
    path.write_text(text)
    fast, strict = _by_pyarrow_and_not(monkeypatch_module, tidy_csv, _outcome, path)
    assert fast == strict, text


def _peak_reading(path) -> tuple[int, object]:
    import tracemalloc

    tracemalloc.start()
    try:
        found = pr.read(path)
        return tracemalloc.get_traced_memory()[1], found
    finally:
        tracemalloc.stop()


def test_a_large_nested_table_costs_twice_its_numbers_a_row(tmp_path, monkeypatch):
    built = []
    monkeypatch.setattr(nested, "build", lambda *a, build=nested.build: built.append(1) or build(*a))
    rng = np.random.default_rng(1)
    peaks = []
    for runs in (25_000, 100_000):  # rows per sample: 8 samples
        path = tmp_path / f"t{runs}.csv"
        with path.open("w") as fh:
            fh.write("benchmark,system,invocation,iteration,time_ms\n")
            for b in range(4):
                for s in ("old", "new"):
                    fh.writelines(f"b{b},{s},{i // 1000},{i % 1000},{v:.4f}\n"
                                  for i, v in enumerate(rng.lognormal(0, 0.1, runs).tolist()))
        peak, suite = _peak_reading(path)
        peaks.append(peak)
        assert suite["b3"]["new"].shape == (runs // 1000, 1000) and suite["b3"]["new"].positions[-1, -1] == 8 * runs + 1
    assert len(built) == 2
    # what 600,000 more rows cost at the peak: their values and lines (16 bytes), no sort or index of every row
    assert peaks[1] - peaks[0] < 2.5 * 8 * 600_000


# ---------------------------------------------------------------- tidy JSON: pyarrow's path and the json module's

JSON_NAMES = ['"a"', '"b"', '" a"', '"fib"', '"x:y,{z}"', '""', '"\\u00e9"', '"é"', "1", "2", "1.0", "2.5", "-0",
              "12345678901234567890", "true", "null", "[1]", "NaN"]
JSON_VALUES = ["1", "2.5", "1e3", "-0", "-0.0", "0", '"1.5"', "null", "NaN", "Infinity", "1e400", "true", "7",
               "12345678901234567890", "[1]", "{}"]


@st.composite
def _json_records(draw) -> str:
    """A tidy JSON array (compact, pretty-printed or on one line), its records perhaps spoiled."""
    keys = draw(st.sampled_from([["benchmark", "system", "time"], ["benchmark", "system", "run", "time"],
                                 ["time"], ["system", "iteration", "unit", "time"]]))
    records = []
    for i in range(draw(st.integers(1, 12))):
        record = {}
        for key in keys:
            if key == "time":
                record[key] = draw(st.sampled_from(JSON_VALUES)) if draw(st.integers(0, 7)) == 0 else str(i % 3 + 1)
            elif key == "unit":
                record[key] = draw(st.sampled_from(['"ms"', '"s"']))
            else:
                record[key] = draw(st.sampled_from(JSON_NAMES)) if draw(st.integers(0, 7)) == 0 else f'"{i % 2}"'
        if draw(st.integers(0, 20)) == 0:
            record.pop(draw(st.sampled_from(keys)))
        if draw(st.integers(0, 20)) == 0:
            record["extra"] = draw(st.sampled_from(['"x"', "[1, 2]", "{}", "3"]))
        records.append(record)
    layout = draw(st.sampled_from(["lines", "pretty", "one line"]))

    def text(record):
        parts = [f'"{k}": {v}' for k, v in record.items()]
        if layout == "pretty":
            return "{\n    " + ",\n    ".join(parts) + "\n  }"
        return "{" + ", ".join(parts) + "}"

    glue = ", " if layout == "one line" else ",\n  "
    body = "[" + ("" if layout == "one line" else "\n  ") + glue.join(map(text, records)) + (
        "" if layout == "one line" else "\n") + "]\n"
    spoil = draw(st.sampled_from(["none"] * 12 + ["comma", "trailing", "bare", "garbage", "bom", "empty"]))
    if spoil == "comma":
        body = body.replace("},", "}", 1)
    elif spoil == "trailing":
        body = body.rstrip().rstrip("]") + ",]"
    elif spoil == "bare":
        body = body.replace("[", "[3, ", 1)
    elif spoil == "garbage":
        body += "x"
    elif spoil == "bom":
        body = "\ufeff" + body
    elif spoil == "empty":
        body = "[]"
    return body


def _json_outcome(path):
    try:
        data = pr.read(path, format="tidy-json")
    except (pr.DataError, pr.ConfigError) as exc:
        return ("error", str(exc))
    samples = [data] if isinstance(data, pr.Sample) else [s for per in data.data.values() for s in per.values()]
    keys = [] if isinstance(data, pr.Sample) else [(b, list(per)) for b, per in data.data.items()]
    return ("data", keys, [(s.values.view(np.int64).tolist(), s.shape, s.levels, s.unit, s.name, s.metadata,
                            None if s.positions is None else s.positions.tolist()) for s in samples])


@settings(max_examples=400, deadline=None)
@given(text=_json_records())
def test_pyarrow_reads_tidy_json_as_the_json_module_reads_it(tmp_path_factory, monkeypatch_module, text):
    from perfrigor.readers import tidy_json

    path = tmp_path_factory.mktemp("json") / "t.json"
    path.write_text(text, encoding="utf-8")
    fast, slow = _by_pyarrow_and_not(monkeypatch_module, tidy_json, _json_outcome, path)
    assert fast == slow, text


def test_a_large_tidy_json_file_is_read_by_pyarrow_with_each_values_line(tmp_path, monkeypatch):
    import json

    from perfrigor.readers import tidy_json

    taken = []
    monkeypatch.setattr(tidy_json, "read_fast", lambda *a, read=tidy_json.read_fast: taken.append(read(*a)) or taken[-1])
    values = np.random.default_rng(4).lognormal(0, 0.1, 40_000)
    records = [{"benchmark": f"b{i // 10_000}", "system": "old" if i % 10_000 < 5_000 else "new",
                "invocation": i % 5_000 // 100, "iteration": i % 100, "time_ms": v} for i, v in enumerate(values.tolist())]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(records, indent=2))  # 7 lines a record, the value on its 6th
    assert path.stat().st_size > _arrow.LARGE
    suite = pr.read(path)
    assert taken and taken[0] is not None
    sample = suite["b3"]["new"]
    assert sample.shape == (50, 100) and sample.levels == ("invocation", "iteration") and sample.unit == "ms"
    assert np.array_equal(sample.values.reshape(-1), values[-5_000:])
    assert sample.positions[-1, -1] == 7 * 40_000 and sample.positions[0, 1] - sample.positions[0, 0] == 7


@pytest.mark.parametrize("text", [
    '[{"time": 1.5}, {"time": -0}, {"time": 2}]',  # the json module reads -0 as the integer 0: +0.0
    '[{"time": 1.5}, {"time": -0.0}]',
    '[{"benchmark": 12345678901234567890, "system": "a", "time": 1}, {"benchmark": 1.5, "system": "a", "time": 2}]',
    '[{"benchmark": NaN, "time": 1}]',
    '[{"benchmark": "\\u00e9", "time": 1}]',
    '[{"benchmark": "a", "time": 1}, {"benchmark": "a", "time": 2, "benchmark": "b"}]',
    '[{"benchmark": "a", "time": 1}\n, {"benchmark": "a", "time": 2}]\n',
])
def test_tidy_json_edge_cases_read_the_same_both_ways(tmp_path, monkeypatch, text):
    from perfrigor.readers import tidy_json

    path = tmp_path / "t.json"
    path.write_text(text)
    monkeypatch.setattr(_arrow, "LARGE", 0)
    fast = _json_outcome(path)
    monkeypatch.setattr(tidy_json, "read_fast", lambda *args: None)
    assert fast == _json_outcome(path)


# ---------------------------------------------------------------- damaged large files: pyarrow's path names what the strict one names

_ROW = '{{"benchmark": "b{b}", "system": "{s}", "invocation": {i}, "iteration": {j}, "time_ms": {v}}}'


def _damaged(kind: str, bad: str) -> bytes:
    """A nested table of 4 samples (20 x 200 rows each) with ``bad`` as its row 14,000 (line 14,002), in the second chunk."""
    keys = [(b, s, i, j) for b in (0, 1) for s in ("old", "new") for i in range(20) for j in range(200)]
    if kind == "csv":
        lines = ["benchmark,system,invocation,iteration,time_ms"]
        lines += [f"b{b},{s},{i},{j},{1 + j / 1000:.3f}" for b, s, i, j in keys]
        return ("\n".join(lines[:14_001] + [bad] + lines[14_001:]) + "\n").encode()
    records = [_ROW.format(b=b, s=s, i=i, j=j, v=f"{1 + j / 1000:.3f}") for b, s, i, j in keys]
    return ("[\n" + ",\n".join(records[:14_000] + [bad] + records[14_000:]) + "\n]\n").encode()


@pytest.mark.parametrize(("kind", "bad", "message"), [
    ("csv", "b1,new,3,7,1,2", "line 14002: 6 field(s) where the header has 5"),
    ("csv", "b1,new,3,1.5", "line 14002: 4 field(s) where the header has 5"),
    ("csv", "b1,old,3,7,inf", "line 14002: 'time_ms' 'inf' is not a finite number"),
    ("csv", "b1,old,3,7,", "line 14002: missing 'time_ms'"),
    ("csv", "b1 ,new,3,7,1.5", "line 14002: column 'benchmark': the names 'b1' (line 8002) and 'b1 ' differ only"),
    ("csv", '"b1",old,3,7,1.5', "unbalanced"),
    ("json", _ROW.format(b=1, s="old", i=3, j=7, v='"1.5"'), "line 14002: 'time_ms' '1.5' is a string"),
    ("json", _ROW.format(b=1, s="old", i=3, j=7, v="NaN"), "line 14002: 'time_ms' nan is not a finite number"),
    ("json", _ROW.format(b=1, s="old", i=3, j=7, v="null"), "line 14002: missing 'time_ms'"),
    ("json", '{"benchmark": "b1", "system": "old", "invocation": 3, "iteration": 7}', "line 14002: missing 'time_ms'"),
    ("json", '{"benchmark": "b1", "system": "old", "invocation": 3, "iteration": 7, "time_ms": 1.5, "x": 1}',
     "unbalanced"),
])
def test_a_damaged_large_table_is_named_by_pyarrow_as_by_the_strict_reader(tmp_path, monkeypatch, kind, bad, message):
    path = tmp_path / f"t.{kind}.gz"  # gzip: large by the size its trailer states (data_size)
    path.write_bytes(gzip.compress(_damaged(kind, bad)))
    monkeypatch.setattr(_arrow, "LARGE", 100_000)  # over the packed size, under the unpacked
    monkeypatch.setattr(_arrow, "CHUNK", 1 << 18)  # the bad row in the second chunk, pyarrow's the first
    taken = []
    monkeypatch.setattr(_arrow, "_read", lambda *a, read=_arrow._read: taken.append(read(*a)) or taken[-1])
    monkeypatch.setattr(_arrow, "json_records", lambda *a, read=_arrow.json_records: taken.append(read(*a)) or taken[-1])
    with pytest.raises(pr.DataError) as fast:
        pr.read(path)
    assert taken and message in str(fast.value) and str(fast.value).startswith(f"{path}, line ")
    monkeypatch.setattr(_arrow, "_pyarrow", lambda: None)  # no pyarrow: numpy, the csv module and the strict parser
    monkeypatch.setattr(_arrow, "json_module", lambda: None)
    with pytest.raises(pr.DataError) as slow:
        pr.read(path)
    assert str(fast.value) == str(slow.value)


def test_the_size_of_gzip_data_is_the_size_its_trailer_states_within_bounds(tmp_path):
    plain = tmp_path / "v.txt"
    plain.write_bytes(b"1.5\n" * 100_000)
    packed = tmp_path / "v.txt.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    assert _common.data_size(plain) == _common.data_size(packed) == 400_000
    lying = tmp_path / "lie.gz"  # a trailer claiming 4 GiB - 1 from a few bytes: deflate's largest ratio at most
    lying.write_bytes(gzip.compress(b"1\n")[:-4] + (2**32 - 1).to_bytes(4, "little"))
    with limits("none"):
        assert _common.data_size(lying) == _common.DEFLATE_MAX_RATIO * lying.stat().st_size


def test_large_reads_keep_lines_in_32_bits(tmp_path):
    """A large file's samples hold their lines as int32 (half their memory), the same lines as before."""
    pytest.importorskip("pyarrow")
    rows = 45_000  # past _arrow.LARGE (4 MiB) in both files
    values = tmp_path / "v.txt"
    values.write_text(f"{1.5:.6f}\n" * (rows * 11))
    table = tmp_path / "t.json"
    table.write_text("[\n" + ",\n".join(f'{{"benchmark": "b", "system": "{s}", "run": {k}, "ms": 1.{k % 9}}}'
                                         for s in ("a", "z") for k in range(rows)) + "\n]\n")
    sample = pr.read(values)
    assert sample.positions.dtype == np.int32 and sample.positions[-1] == rows * 11
    suite = pr.read(table)
    z = suite["b"]["z"]
    assert z.positions.dtype == np.int32 and z.positions[0] == rows + 2 and z.positions[-1] == 2 * rows + 1


def test_tidy_json_pieces_of_one_line_and_many_line_records_keep_each_values_line(tmp_path, monkeypatch):
    """Records on one line take their value's line from their own (no search for the value); records
    over several lines, in the same pieces, search it; the lines carry from piece to piece; braces,
    brackets, colons and commas in names are inside strings (by the number of quotes before them)."""
    import json

    from perfrigor.readers import tidy_json

    rng = np.random.default_rng(5)
    parts = []
    for k, v in enumerate(rng.lognormal(0, 0.1, 6_000).tolist()):
        record = {"benchmark": f"b{{{k // 3_000}}}, [x]: y", "system": "old" if k % 3_000 < 1_500 else "new",
                  "run": k % 1_500, "time_ms": v}
        parts.append(json.dumps(record, indent=1 if k % 97 == 0 else None))  # every 97th over 6 lines
    monkeypatch.setattr(_arrow, "LARGE", 0)
    monkeypatch.setattr(tidy_json, "PIECE", 1 << 14)  # 34 pieces
    read_fast = tidy_json.read_fast
    for name, array in (("t.json", None), ("array.json", '{"benchmark": "b1", "run": [1], "time_ms": 1.5}')):
        path = tmp_path / name  # an array in a record of a middle piece: the slow way reads the file
        path.write_text("[\n" + ",\n".join(parts[:3_000] + [array] * (array is not None) + parts[3_000:]) + "\n]\n")
        taken = []
        monkeypatch.setattr(tidy_json, "read_fast", lambda *a, taken=taken: taken.append(read_fast(*a)) or taken[-1])
        fast = _json_outcome(path)
        assert (taken[0] is not None) == (array is None) and (fast[0] == "data") == (array is None)
        monkeypatch.setattr(tidy_json, "read_fast", lambda *args: None)
        assert fast == _json_outcome(path)
