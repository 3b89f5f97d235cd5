"""The units registry: exact conversion between units of one kind, refusal between kinds."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import perfrigor as pr
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from perfrigor import units

TIME = ["ns", "us", "ms", "s", "min", "h"]
RATE = ["ops/ns", "ops/us", "ops/ms", "ops/s", "ops/min", "ops/h"]


def test_spellings_of_tools_map_to_one_name():
    assert units.canonical("seconds") == "s" and units.canonical("µs") == "us" and units.canonical("nsec") == "ns"
    assert units.canonical("sec/op") == "s/op" and units.canonical("ops/hr") == "ops/h"
    assert units.canonical("  ms ") == "ms" and units.canonical("cycles") == "cycles"
    assert units.kind("ns/op") == "time/op" and units.kind("ops/ms") == "rate" and units.kind("MB/s") == "bytes/time"
    assert units.kind("allocs/op") is None


def test_factors_are_exact_fractions():
    assert units.factor("s", "ns") == 10**9 and units.factor("ns", "s") == Fraction(1, 10**9)
    assert units.factor("ops/ms", "ops/s") == 1000 and units.factor("min", "s") == 60
    assert units.factor("MB", "MiB") == Fraction(10**6, 2**20)
    assert units.factor("second", "s") == 1


def test_conversion_is_one_correctly_rounded_operation():
    values = np.array([0.1, 0.3, 1e-9, 123.456789, 7.0])
    assert units.convert(values, "s", "ns").tolist() == [v * 1e9 for v in values]
    assert units.convert(values, "ns", "s").tolist() == [v / 1e9 for v in values]  # a division, not * 1e-9
    assert units.convert(values, "ns", "ns").tolist() == values.tolist()


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(TIME), st.sampled_from(TIME), st.floats(1e-12, 1e12))
def test_time_conversions_are_exact_to_the_last_bit(a, b, v):
    exact = Fraction(v) * units.factor(a, b)
    got = units.convert(np.array([v]), a, b)[0]
    assert got == float(exact)  # float(Fraction) is the correctly rounded value


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(RATE), st.sampled_from(RATE), st.floats(1e-9, 1e9))
def test_rate_round_trip_is_within_one_rounding_each_way(a, b, v):
    back = units.convert(units.convert(np.array([v]), a, b), b, a)[0]
    assert back == pytest.approx(v, rel=4e-16)


def test_units_of_different_kinds_or_unknown_are_refused():
    with pytest.raises(pr.DataError, match="measure different things"):
        units.factor("ns/op", "B/op")
    with pytest.raises(pr.DataError, match="'cycles' is not one perfrigor knows"):
        units.factor("cycles", "ns")
    assert not units.convertible("ns", "ops/s") and units.convertible("us", "h")


def test_directions_of_units():
    assert units.lower_is_better("ns/op") is True and units.lower_is_better("ops/ms") is False
    assert units.lower_is_better("MB/s") is False and units.lower_is_better("widgets/s") is False
    assert units.lower_is_better("allocs/op") is None


def test_sample_to_unit_keeps_positions_and_notes_the_original_unit():
    s = pr.Sample([1.5, 2.0], unit="s", source="f.txt", positions=[3, 4])
    ms = s.to_unit("ms")
    assert ms.values.tolist() == [1500.0, 2000.0] and ms.unit == "ms" and ms.metadata["converted_from"] == "s"
    assert ms.locate(1) == "f.txt, line 4"
    assert s.to_unit("s") is s and s.to_unit("seconds").unit == "seconds"
    with pytest.raises(pr.DataError, match="f.txt: cannot convert 's'"):
        pr.Sample([1.0], unit="s", source="f.txt").to_unit("B")


def test_table_lists_every_unit():
    names = {row["name"] for row in units.table()}
    assert {"ns", "ns/op", "ops/ms", "MB/s", "B/op", "KiB"} <= names
