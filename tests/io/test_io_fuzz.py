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
    path.unlink(missing_ok=True)  # a new file: rewriting one in place costs a flush on some file systems
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
        path.unlink(missing_ok=True)
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


# ---------------------------------------------------------------- the oracle: what each file should read as
#
# Issue 16: per reader at least ORACLE_FILES generated files, each a generated document with one targeted mutation
# whose outcome is known before the file is read -- exactly these values (and names), or a DataError naming the
# file and the line. Anything else is a misread, a silent loss or a crash. Each hypothesis example writes its
# document once per mutation (every token of the tables below at one value, every structural change), so the
# count of files is reached in a few seconds; the test asserts it was.

ORACLE_FILES = 2000
ORACLE = settings(max_examples=80, deadline=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
ERROR = None  # the expected outcome "a DataError naming the line"

#: a token in place of a number in a text format (values, CSV, Go) -> the value it reads as, or ERROR
TEXT_TOKENS = {
    "1.5": 1.5, "+2": 2.0, ".5": 0.5, "1.": 1.0, "1E3": 1000.0, "1e-05": 1e-05, "2.5e+2": 250.0, " 7 ": 7.0,
    "4.9406564584124654E-324": 5e-324, "1e-400": 0.0,
    "1_000": ERROR, "\u0661\u0662\u0663": ERROR, "\uff11": ERROR, "0x10": ERROR, "inf": ERROR, "-Infinity": ERROR,
    "NaN": ERROR, "nan(0x1)": ERROR, "1.#INF": ERROR, "1e400": ERROR, "9" * 400: ERROR, "abc": ERROR,
    "1.5.5": ERROR, "\u22121": ERROR, "1e": ERROR, "e5": ERROR, "--1": ERROR, "1 2": ERROR, "\u00a01": ERROR,
}
#: a token in place of a number in JSON -> the value it reads as, or ERROR
JSON_TOKENS = {
    "1.5": 1.5, "1E3": 1000.0, "-0.5": -0.5, "10": 10.0, "1e-05": 1e-05, "4.9406564584124654E-324": 5e-324,
    "1e-400": 0.0,
    '"1.5"': ERROR, '"abc"': ERROR, "NaN": ERROR, "Infinity": ERROR, "-Infinity": ERROR, "1e400": ERROR,
    "9" * 400: ERROR, "9" * 5000: ERROR, "true": ERROR, "null": ERROR, "[]": ERROR, "{}": ERROR, "1_000": ERROR,
    "\u0661\u0662\u0663": ERROR, "": ERROR, ".5": ERROR, "+1": ERROR, "1.": ERROR, "01": ERROR, "0x10": ERROR,
    "1e": ERROR,
}
TEXT_FORMATS = {"values", "tidy-csv", "go"}
#: names as the oracle formats take them: '#' may begin one (a CSV row so is data, not a comment)
oracle_name = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp"),
                                             blacklist_characters='"\\,;\t'), min_size=1, max_size=6) \
    .filter(lambda s: s.strip() == s and not s[0].islower() and s[0] not in "-[{")
oracle_benches = st.dictionaries(oracle_name, st.lists(positive, min_size=2, max_size=4), min_size=1, max_size=3) \
    .filter(lambda d: len({k.lower() for k in d}) == len(d))


class Outcome:
    """What a file should read as: ``values`` (and ``names``), or a DataError at ``error_line`` (0: no line)."""

    def __init__(self, values=None, names=None, error_line=None) -> None:
        self.values, self.names, self.error_line = values, names, error_line


def _line_at(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _replace_nth(text: str, old: str, new: str, n: int) -> tuple[str, int]:
    """``text`` with the n-th (mod count) occurrence of ``old`` replaced, and where it starts."""
    starts, i = [], text.find(old)
    while i >= 0:
        starts.append(i)
        i = text.find(old, i + 1)
    at = starts[n % len(starts)]
    return text[:at] + new + text[at + len(old):], at


def token_mutations(fmt, doc, k: int):
    """Value k's token replaced by every token of the table, each with the reading the table gives."""
    tokens = TEXT_TOKENS if fmt in TEXT_FORMATS else JSON_TOKENS
    start, end = doc.spans[k]
    for token, expected in tokens.items():
        text = doc.text[:start] + token + doc.text[end:]
        if expected is ERROR:
            yield text, Outcome(error_line=_line_at(text, start))
        else:
            values = list(doc.values)
            values[k] = expected
            yield text, Outcome(values=values, names=doc.names)


def structural_mutations(fmt, doc, n: int):
    """Changes of structure the fuzzing found misread (issue 16), each with its known outcome."""
    text = doc.text
    same = Outcome(values=doc.values, names=doc.names)
    if fmt == "values":
        start = doc.spans[n % len(doc.spans)][0]
        line_start = text.rfind("\n", 0, start) + 1
        yield text[:line_start] + "# note 1.5\n" + text[line_start:], same  # a comment line is skipped
        k = n % len(doc.spans)
        values = [v for i, v in enumerate(doc.values) if i != k]  # '#' before a value: a comment, by the format
        yield text[:start] + "#" + text[start:], Outcome(values=values) if values else Outcome(error_line=0)
    elif fmt == "tidy-csv":
        yield "# measured on a quiet machine\n" + text, same
        header, _, body = text.partition("\n")
        rows = body.replace("\n", ",1\n")
        yield f"{header},VALUE\n{rows}", Outcome(error_line=1)  # columns differing in case only
        yield f"{header},value\n{rows}", Outcome(error_line=1)
    elif fmt == "tidy-json":
        hit = _replace_nth(text, '"value": ', '"VALUE": 1, "value": ', n)
        yield hit[0], Outcome(error_line=0)
        hit = _replace_nth(text, '"value": ', '"value": 1, "value": ', n)
        yield hit[0], Outcome(error_line=_line_at(hit[0], hit[1] + 11))
    elif fmt == "json" and len(doc.names) > 1:
        first, second = (json.dumps(b, ensure_ascii=False) for b in doc.names[:2])
        at = text.index(f" {second}: [")
        yield text[:at] + f" {first}: [" + text[at + len(second) + 4:], Outcome(error_line=_line_at(text, at))
    elif fmt == "pyperf":
        for new in ("true", "{}", '"x"', "[[1]]", "5", "[]", "[[2, 1.5], [1, 1.0]]", '[[1, "1.0"]]'):
            hit = _replace_nth(text, '"warmups": [[1, 1.0]]', f'"warmups": {new}', n)
            good = new in ("[]", "[[2, 1.5], [1, 1.0]]")
            yield hit[0], same if good else Outcome(error_line=_line_at(hit[0], hit[1]))
        for new in ("[]", '"x"', "5"):
            hit = _replace_nth(text, '"metadata": {"unit": "second"}', f'"metadata": {new}', 0)
            yield hit[0], Outcome(error_line=_line_at(hit[0], hit[1]))
        hit = _replace_nth(text, '{"name": ', '{"name": 1, "x": ', n)
        yield hit[0], Outcome(error_line=_line_at(hit[0], hit[1]))
    elif fmt == "hyperfine":
        k = n % len(doc.names)
        count = sum(1 for start, _ in doc.spans if text.count('"command"', 0, start) == k + 1)
        for size in (count, count - 1, count + 1):
            codes = json.dumps([(i * 7 + n) % 3 or None for i in range(size)])
            hit = _replace_nth(text, '{"command": ', f'{{"exit_codes": {codes}, "command": ', k)
            yield hit[0], same if size == count else Outcome(error_line=_line_at(hit[0], hit[1]))
        hit = _replace_nth(text, '{"command": ', '{"exit_codes": 0, "command": ', k)
        yield hit[0], Outcome(error_line=_line_at(hit[0], hit[1]))
    elif fmt == "gbench":
        for new in ('"name": ["x"], "n"', '"name": {"a": 1}, "n"', '"name": 5, "n"', '"run_name": 1, "name"',
                    '"run_type": [], "name"'):
            hit = _replace_nth(text, '"name"', new, n)
            yield hit[0], Outcome(error_line=_line_at(hit[0], hit[1]))


def w_hyperfine_named(data, s) -> tuple[Doc, str]:
    doc, filename = w_hyperfine(data, s)
    doc.names = list(data)  # the commands: hyperfine's systems
    return doc, filename


ORACLE_WRITERS = {**{f: WRITERS[f] for f in ("values", "tidy-csv", "tidy-json", "json", "pyperf", "gbench", "go")},
                  "hyperfine": w_hyperfine_named}


def check_outcome(fmt, path, outcome: Outcome) -> None:
    """The file reads as the oracle says: those values and names, or a one-line DataError at that line."""
    try:
        result = read_all(path, fmt)
    except pr.DataError as exc:
        msg = str(exc)
        assert outcome.values is None, f"refused a file that reads as {outcome.values}: {msg}"
        assert msg.startswith(str(path)) and "\n" not in msg, msg
        if outcome.error_line:
            assert msg.startswith(f"{path}, line {outcome.error_line}:"), (outcome.error_line, msg)
        return
    assert outcome.values is not None, f"read a file that must be refused (line {outcome.error_line})"
    got = [v for sample in samples_of(result) for v in sample.flat.tolist()]
    assert got == outcome.values
    if outcome.names:
        if fmt == "hyperfine":
            names = list(result.systems) if isinstance(result, pr.Suite) else [result.name]
        else:
            names = result.benchmarks if isinstance(result, pr.Suite) else [result.metadata.get("benchmark")]
        assert names == outcome.names


@pytest.mark.parametrize("fmt", sorted(ORACLE_WRITERS))
def test_oracle_every_mutated_file_reads_as_it_should(fmt, tmp_path):
    files = []

    @ORACLE
    @given(data=oracle_benches, s=style, k=st.integers(0, 11), n=st.integers(0, 7))
    def prop(data, s, k, n):
        doc, filename = ORACLE_WRITERS[fmt](data, s)
        cases = [(doc.text, Outcome(values=doc.values, names=doc.names)),
                 *token_mutations(fmt, doc, k % len(doc.spans)), *structural_mutations(fmt, doc, n)]
        for text, outcome in cases:
            path = save(tmp_path, Doc().raw(text), filename, s["bom"])
            check_outcome(fmt, path, outcome)
        files.append(len(cases))

    prop()
    assert sum(files) >= ORACLE_FILES, sum(files)
