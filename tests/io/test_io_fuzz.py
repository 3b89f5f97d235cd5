"""Fuzzing every reader: a value is read exactly, or the reader stops with a DataError naming the file (and the
line, where the damage is in one value) -- never another exception, never a silent misread.

Each format has a writer that renders generated benchmarks (unicode names, any finite values) in one of the
ways tools write them (byte-order mark, CRLF line ends, pretty-printed or compact), remembering where each
value's text is. Three properties per format:

- round trip: the file reads back to exactly the values (and names) written, each at its line;
- one value replaced by NaN, infinity, a number too large for a float, garbage, an empty cell or null: a
  DataError naming the file and that value's line, or (a number in another spelling) exactly that number;
- the text truncated, or one character replaced, deleted or duplicated: a value read or a DataError naming
  the file, nothing else.

Derandomised (tests/conftest.py) and lean: the whole module runs in a few seconds.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

import perfrigor as pr
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.usefixtures("core_only")

FUZZ = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


class Doc:
    """Text under construction that remembers where each value's token is."""

    def __init__(self, crlf: bool = False) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.spans: list[tuple[int, int]] = []
        self.values: list[float] = []
        self.names: list[str] = []
        self.crlf = crlf

    def raw(self, text: str) -> Doc:
        if self.crlf:
            text = text.replace("\n", "\r\n")
        self.parts.append(text)
        self.size += len(text)
        return self

    def value(self, v: float, token: str | None = None, expect: float | None = None) -> Doc:
        token = repr(float(v)) if token is None else token
        self.spans.append((self.size, self.size + len(token)))
        self.values.append(v if expect is None else expect)
        return self.raw(token)

    def values_list(self, vals, s) -> Doc:
        """Comma-separated values, each on its own line (the arrays every JSON writer below needs)."""
        for i, v in enumerate(vals):
            self.raw(("," if i else "") + nl(s)).value(v)
        return self

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def line_of(self, k: int) -> int:
        return self.text.count("\n", 0, self.spans[k][0]) + 1


# ---------------------------------------------------------------- strategies

finite = st.floats(min_value=-1e300, max_value=1e300, allow_nan=False, allow_infinity=False) \
    | st.sampled_from([0.0, 1e-300, 5e-324, 1.7976931348623157e308, 123456789.123456789, 1e15])
positive = st.floats(min_value=1e-9, max_value=1e9, allow_nan=False)
name = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp"),
                                      blacklist_characters='"\\,;\t#'), min_size=1, max_size=8) \
    .filter(lambda s: s.strip() == s and not s[0].islower() and s[0] not in "-[{")
benches = st.dictionaries(name, st.lists(finite, min_size=2, max_size=4), min_size=1, max_size=3)
style = st.fixed_dictionaries({"bom": st.booleans(), "crlf": st.booleans(), "pretty": st.booleans()})
BAD = ["NaN", "nan", "inf", "-Infinity", "1e400", "-1e999", "9" * 400, "abc", "", "null", "\u00e9", "1.5.5"]


# ---------------------------------------------------------------- writers: (data, style) -> Doc, file name


def nl(s: dict) -> str:
    return "\n" if s["pretty"] else ""


def w_values(data, s) -> tuple[Doc, str]:
    d = Doc(s["crlf"]).raw("# times\n")
    for v in next(iter(data.values())):
        d.value(v).raw("\n")
    return d, "v.txt"


def w_tidy_csv(data, s) -> tuple[Doc, str]:
    d = Doc(s["crlf"]).raw("benchmark,system,run,,value\n")  # an empty column, ignored
    for b, vals in data.items():
        for i, v in enumerate(vals):
            d.raw(f"{b},old,{i},,").value(v).raw("\n")
    d.names = list(data)
    return d, "t.csv"


def w_tidy_json(data, s) -> tuple[Doc, str]:
    d = Doc(s["crlf"]).raw("[" + nl(s))
    first = True
    for b, vals in data.items():
        for v in vals:
            d.raw(("" if first else "," + nl(s)) + f' {{"benchmark": {json.dumps(b)}, "value": ').value(v).raw("}")
            first = False
    d.names = list(data)
    return d.raw(nl(s) + "]"), "r.json"


def w_json(data, s) -> tuple[Doc, str]:
    d = Doc(s["crlf"]).raw("{" + nl(s))
    for j, (b, vals) in enumerate(data.items()):
        d.raw(("," + nl(s) if j else "") + f" {json.dumps(b, ensure_ascii=False)}: [")
        for i, v in enumerate(vals):
            d.raw(("," if i else "") + nl(s) + "  ").value(v)
        d.raw("]")
    d.names = list(data)
    return d.raw(nl(s) + "}"), "j.json"


def w_pyperf(data, s) -> tuple[Doc, str]:
    d = Doc(s["crlf"]).raw('{"version": "1.0", "benchmarks": [' + nl(s))
    for j, (b, vals) in enumerate(data.items()):
        d.raw(("," + nl(s) if j else "") + f'{{"metadata": {{"name": {json.dumps(b)}}}, "runs": [')
        d.raw('{"warmups": [[1, 1.0]], "values": [')
        d.values_list(vals, s)
        d.raw("]}]}")
    d.names = list(data)
    return d.raw(nl(s) + '], "metadata": {"unit": "second"}}'), "p.json"


def w_hyperfine(data, s) -> tuple[Doc, str]:
    d = Doc(s["crlf"]).raw('{"results": [' + nl(s))
    for j, (b, vals) in enumerate(data.items()):
        d.raw(("," + nl(s) if j else "") + f'{{"command": {json.dumps(b)}, "times": [')
        d.values_list(vals, s)
        d.raw("]}")
    return d.raw(nl(s) + "]}"), "h.json"


def w_gbench(data, s) -> tuple[Doc, str]:
    d = Doc(s["crlf"]).raw('{"context": {"num_cpus": 2},' + nl(s) + '"benchmarks": [' + nl(s))
    first = True
    for b, vals in data.items():
        for v in vals:
            d.raw(("" if first else "," + nl(s)) + f'{{"name": {json.dumps(b)}, "run_type": "iteration", '
                  + nl(s) + '"real_time": ').value(v).raw(', "cpu_time": 1, "time_unit": "ns"}')
            first = False
    d.names = list(data)
    return d.raw(nl(s) + "]}"), "g.json"


def w_jmh(data, s) -> tuple[Doc, str]:
    d = Doc(s["crlf"]).raw("[" + nl(s))
    for j, (b, vals) in enumerate(data.items()):
        d.raw(("," + nl(s) if j else "") + f'{{"benchmark": {json.dumps(b)}, "mode": "avgt", "primaryMetric": '
              '{"score": 1, "scoreUnit": "us/op", "rawData": [[')
        d.values_list(vals, s)
        d.raw("]]}}")
    d.names = [f"{b} [avgt]" for b in data]
    return d.raw(nl(s) + "]"), "jmh.json"


def w_pytest_benchmark(data, s) -> tuple[Doc, str]:
    d = Doc(s["crlf"]).raw('{"machine_info": {}, "benchmarks": [' + nl(s))
    for j, (b, vals) in enumerate(data.items()):
        d.raw(("," + nl(s) if j else "") + f'{{"name": {json.dumps(b)}, "fullname": "t.py::x{j}", "stats": {{"data": [')
        d.values_list(vals, s)
        d.raw("]}}")
    d.names = list(data)
    return d.raw(nl(s) + "]}"), "pb.json"


def w_criterion(data, s) -> tuple[Doc, str]:
    vals = next(iter(data.values()))
    iters = [float(i + 1) for i in range(len(vals))]
    d = Doc(s["crlf"]).raw('{"sampling_mode": "Linear", "iters": [' + ", ".join(map(repr, iters)) + "]," + nl(s))
    d.raw('"times": [')
    for i, (v, n) in enumerate(zip(vals, iters, strict=True)):
        d.raw(("," if i else "") + nl(s)).value(v, expect=v / n)
    return d.raw("]}"), "sample.json"


def w_go(data, s) -> tuple[Doc, str]:
    d = Doc(s["crlf"]).raw("goos: linux\ngoarch: amd64\n")
    for b, vals in data.items():
        for v in vals:
            d.raw(f"Benchmark{b}-8   \t 1000\t ").value(v).raw(" ns/op\t 16 B/op\n")
    d.names = [f"{b}-8" for b in data]
    return d.raw("PASS\nok  \texample.com/x\t1.0s\n"), "go.txt"


WRITERS: dict[str, Callable] = {
    "values": w_values, "tidy-csv": w_tidy_csv, "tidy-json": w_tidy_json, "json": w_json, "pyperf": w_pyperf,
    "hyperfine": w_hyperfine, "gbench": w_gbench, "jmh": w_jmh, "pytest-benchmark": w_pytest_benchmark,
    "criterion": w_criterion, "go": w_go,
}
#: formats whose writer takes any finite value (the others' values are times: positive)
ANY_SIGN = {"values", "tidy-csv", "tidy-json", "json", "gbench", "jmh", "go"}


def save(tmp_path: Path, doc: Doc, filename: str, bom: bool) -> Path:
    path = tmp_path / filename
    path.write_bytes(("\ufeff" if bom else "").encode() + doc.text.encode("utf-8"))
    return path


def samples_of(data) -> list[pr.Sample]:
    if isinstance(data, pr.Sample):
        return [data]
    return [s for per in data.data.values() for s in per.values()]


def read_all(path: Path, fmt: str):
    return pr.read(path, format=fmt)


def check_data_error(exc: pr.DataError, path: Path, line: int | None = None) -> None:
    msg = str(exc)
    assert msg.startswith(str(path)), msg
    assert "\n" not in msg
    if line is not None:
        assert msg.startswith(f"{path}, line {line}:"), (line, msg)


# ---------------------------------------------------------------- the three properties


@pytest.mark.parametrize("fmt", sorted(WRITERS))
def test_round_trip_reads_every_value_exactly_where_it_is(fmt, tmp_path):
    @FUZZ
    @given(data=benches, s=style, values=st.data())
    def prop(data, s, values):
        if fmt not in ANY_SIGN:
            data = {b: values.draw(st.lists(positive, min_size=len(v), max_size=len(v))) for b, v in data.items()}
        doc, filename = WRITERS[fmt](data, s)
        path = save(tmp_path, doc, filename, s["bom"])
        result = read_all(path, fmt)
        got = [v for sample in samples_of(result) for v in sample.flat.tolist()]
        assert got == doc.values
        lines = [ln for sample in samples_of(result) for ln in sample.positions.reshape(-1).tolist()]
        assert lines == [doc.line_of(k) for k in range(len(doc.values))]
        if doc.names and isinstance(result, pr.Suite):
            assert result.benchmarks == doc.names
        elif doc.names:
            assert result.metadata.get("benchmark") == doc.names[0]

    prop()


@pytest.mark.parametrize("fmt", sorted(WRITERS))
def test_a_bad_value_is_named_with_its_line(fmt, tmp_path):
    @FUZZ
    @given(data=benches, s=style, pick=st.integers(0, 100), bad=st.sampled_from(BAD))
    def prop(data, s, pick, bad):
        data = {b: [abs(v) + 1.0 for v in vals] for b, vals in data.items()}
        doc, filename = WRITERS[fmt](data, s)
        k = pick % len(doc.spans)
        start, end = doc.spans[k]
        text = doc.text[:start] + bad + doc.text[end:]
        path = save(tmp_path, Doc().raw(text), filename, s["bom"])
        try:
            result = read_all(path, fmt)
        except pr.DataError as exc:
            check_data_error(exc, path, None if bad == "" and fmt == "values" else doc.line_of(k))
            return
        got = [v for sample in samples_of(result) for v in sample.flat.tolist()]
        want = list(doc.values)
        if bad == "" and fmt == "values":  # a blank line, which that format skips by definition
            del want[k]
        else:  # read: the token was a number after all, and is read as that number
            expected = float(bad)
            assert math.isfinite(expected)
            want[k] = expected if fmt != "criterion" else expected / (k + 1)
        assert got == want

    prop()


@pytest.mark.parametrize("fmt", sorted(WRITERS))
def test_damaged_files_never_raise_anything_but_a_data_error(fmt, tmp_path):
    chars = st.sampled_from(list('0123456789.-+eE,;:"[]{}\n\r\t #aZé€\ufeff\x00')) | st.characters()

    @FUZZ
    @given(data=benches, s=style, cut=st.floats(0, 1), how=st.sampled_from(["truncate", "replace", "delete",
                                                                            "duplicate"]), ch=chars)
    def prop(data, s, cut, how, ch):
        data = {b: [abs(v) + 1.0 for v in vals] for b, vals in data.items()}
        doc, filename = WRITERS[fmt](data, s)
        text = doc.text
        k = min(int(cut * len(text)), len(text) - 1)
        damaged = {"truncate": text[:k], "replace": text[:k] + ch + text[k + 1:], "delete": text[:k] + text[k + 1:],
                   "duplicate": text[:k] + text[k:k + 7] + text[k:]}[how]
        path = tmp_path / filename
        raw = damaged.encode("utf-8", errors="surrogatepass")
        path.write_bytes(("\ufeff".encode() if s["bom"] else b"") + raw)
        try:
            result = read_all(path, fmt)
        except pr.DataError as exc:
            check_data_error(exc, path)
            return
        for sample in samples_of(result):
            assert sample.flat.size > 0 and all(math.isfinite(v) for v in sample.flat.tolist())

    prop()
