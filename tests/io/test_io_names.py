"""Names that differ only in white space are never pooled (issue 24.4): every reader refuses such a pair, naming both.

Tidy tables trim names (``" fib "`` is ``fib``: a CSV written with ", " reads well), so ``a``
and `` a`` would fall into one sample; the JSON mapping reader keeps keys exact, so they would
be two benchmarks shown alike. Either is a guess: both are errors naming the two names.
"""

from __future__ import annotations

import json

import perfrigor as pr
import pytest


@pytest.mark.parametrize(("rows", "message"), [
    (["a,old,1", "a,old,2", " a,old,3", "a,new,4"],
     "line 4: column 'benchmark': the names 'a' (line 2) and ' a' differ only in white space"),
    (["a,old,1", "a,old ,2", "a,new,3"], "line 3: column 'system': the names 'old' (line 2) and 'old ' differ"),
    (["a,old,1", "a\u00a0,old,2", "a,new,3"], "line 3: column 'benchmark': the names 'a' (line 2) and 'a\\xa0'"),
    (["x y,old,1", "x  y,old,2"], "line 3: column 'benchmark': the names 'x y' (line 2) and 'x  y'"),
])
def test_a_tidy_csv_refuses_names_that_differ_only_in_white_space(tmp_path, rows, message):
    path = tmp_path / "t.csv"
    path.write_text("benchmark,system,value\n" + "\n".join(rows) + "\n")
    with pytest.raises(pr.DataError, match="pooling them would be a guess") as err:
        pr.read(path)
    assert str(err.value).startswith(f"{path}, {message}")


def test_consistent_padding_is_trimmed_as_before(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("benchmark, system, value\nfib, old, 1\nfib, old, 2\nfib, new, 3\nfib, new, 4\n")
    suite = pr.read(path)
    assert suite.benchmarks == ["fib"] and suite.systems == ("old", "new")


def test_tidy_json_records_and_frames_refuse_them_too(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps([{"benchmark": "a", "system": "old", "value": 1.0},
                                {"benchmark": "a", "system": "old ", "value": 2.0}], indent=1))
    with pytest.raises(pr.DataError, match=r"line 7: column 'system': the names 'old' \(line 2\) and 'old '"):
        pr.read(path)
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"benchmark": ["a", " a"], "system": ["old", "old"], "value": [1.0, 2.0]})
    with pytest.raises(pr.DataError, match=r"<DataFrame>, row 2: column 'benchmark': the names 'a' \(row 1\) and ' a'"):
        pr.read(df)


def test_a_json_mapping_refuses_keys_that_differ_only_in_white_space(tmp_path):
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"a": [1, 2, 3], " a": [1, 2, 3]}))
    with pytest.raises(pr.DataError, match=r"the benchmark names 'a' and ' a' differ only in white space"):
        pr.read(path)
    path.write_text(json.dumps({"a": {"old": [1, 2, 3], "old\t": [1, 2, 3]}}))
    with pytest.raises(pr.DataError, match=r"the system names 'old' and 'old\\t' differ only in white space"):
        pr.read(path)


def test_names_of_other_white_space_stay_apart(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("benchmark,system,value\nab,old,1\na b,old,2\nab,new,3\na b,new,4\n")
    assert pr.read(path).benchmarks == ["ab", "a b"]
