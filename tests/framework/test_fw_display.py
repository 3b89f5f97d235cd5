"""perfrigor.display: human units for people (ns/µs/ms/s, K/M/G), one scale per column."""

from __future__ import annotations

import math
import re

import perfrigor as pr
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

d = pr.display


@pytest.mark.parametrize(("value", "unit", "text"), [
    (9.716e-05, "s", "97.16 µs"),
    (0.008185, "s", "8.185 ms"),
    (12.3, "s", "12.30 s"),
    (1.2e-9, "s", "1.200 ns"),
    (1500.0, "ns", "1.500 µs"),
    (2.5, "ms", "2.500 ms"),
    (1.2e6, "ops/s", "1.200M ops/s"),
    (2.5e9, "B/s", "2.500 GB/s"),
    (123.4, "score", "123.4 score"),
    (0.5, "", "0.5000"),
    (None, "s", "-"),
])
def test_quantity(value, unit, text):
    assert d.quantity(value, unit) == text


def test_a_column_shares_one_scale_when_it_reads_well():
    texts, scale = d.column([0.008185, 0.0512, 0.0024], "s")
    assert texts == ["8.185", "51.20", "2.400"] and scale.label == "ms"
    texts, scale = d.column([1e-8, 10.0], "s")  # ten decades: each value its own unit
    assert scale is None and texts == ["10.00 ns", "10.00 s"]


def test_percent_and_change():
    assert [d.percent(x) for x in (0.0052, -0.061, -0.34, 2.33, 0.0)] == ["+0.52%", "-6.1%", "-34.0%", "+233%", "±0%"]
    assert d.change(2.0, lower_is_better=True) == pytest.approx(-0.5)  # twice as fast: half the time
    assert d.change(2.0, lower_is_better=False) == pytest.approx(1.0)  # twice the throughput
    assert d.change(None) is None and d.change(0.0) is None


@settings(deadline=None)  # a loaded CI machine must not fail a microsecond test
@given(st.floats(min_value=1e-11, max_value=999.0, allow_nan=False))
def test_a_time_reads_back_within_four_digits(seconds):
    text = d.quantity(seconds, "s")
    number, unit = text.split()
    factor = {"ps": 1e-12, "ns": 1e-9, "µs": 1e-6, "ms": 1e-3, "s": 1.0}[unit]
    assert 1.0 <= float(number) < 1000.0 or unit == "ps" and float(number) < 1000.0
    assert float(number) * factor == pytest.approx(seconds, rel=6e-4)
    assert len(re.sub(r"\D", "", number).lstrip("0")) <= 4


@settings(deadline=None)
@given(st.lists(st.floats(min_value=1e-6, max_value=1e-2), min_size=1, max_size=20))
def test_a_column_within_four_decades_keeps_every_value(values):
    texts, scale = d.column(values, "s")
    assert scale is not None
    for v, t in zip(values, texts, strict=True):
        assert float(t) * scale.factor == pytest.approx(v, rel=6e-4, abs=scale.factor * 1e-3)


def test_signif_never_rounds_to_five_digits():
    assert d.signif(9.9996) == "10.00" and d.signif(123456.0) == "123456" and d.signif(-3.14159) == "-3.142"
    assert d.signif(float("inf")) == "inf" and not math.isnan(float(d.signif(0.0)))


def test_a_column_of_rates_gives_its_prefix_once_in_the_header():
    texts, scale = pr.display.column([1.2e6, 1.35e6], "ops/s")
    assert texts == ["1.200", "1.350"] and scale.label == "M ops/s"  # not "1.200M" under "M ops/s"
    texts, scale = pr.display.column([999.2, 1197.0], "")
    assert texts == ["0.9992", "1.197"] and scale.label == "K"
    assert pr.display.quantity(1.25e6, "ops/s") == "1.250M ops/s" and pr.display.quantity(1200.0) == "1.200K"


@pytest.mark.parametrize(("value", "unit", "text"), [  # issue 24.10: what Go and JMH files printed
    (4.612e6, "ns/op", "4.612 ms/op"),
    (24.45e9, "ns/op", "24.45 s/op"),
    (11.55e3, "us/op", "11.55 ms/op"),
    (1726.0, "ns/op", "1.726 µs/op"),
    (0.5, "sec/op", "500.0 ms/op"),
])
def test_a_time_per_operation_is_scaled_in_time_units_never_with_an_si_prefix(value, unit, text):
    assert d.quantity(value, unit) == text
    texts, scale = d.column([value, value * 1.1], unit)
    assert scale is not None and not re.search(r"[KMGTP]", scale.label) and scale.label.endswith("/op")


def test_rates_and_sizes_per_operation_keep_their_prefixes():
    assert d.quantity(1.2e6, "ops/s") == "1.200M ops/s"  # a rate: the time is below the line
    assert d.quantity(2e6, "B/op") == "2.000 MB/op"
    assert d.time_per("ops/ms") is None and d.time_per("ns/") is None and d.time_per("ms/op") == (1e-3, "/op")


def test_quantity_of_one_value_is_that_of_its_scale():
    """quantity() takes one value's reference without building an array: the text scale_for gives, every case."""
    import itertools

    from perfrigor import display

    values = [0.0, -0.0, 1e-12, 3.3e-9, 0.008185, 1.0, 999.4, 999.96, 1000.0, 1234567.0, -5.5e3, float("inf"),
              float("nan"), -float("inf"), 1e30, 2, 0.5, 7]
    units = ["", "s", "ms", "ns/op", "B/s", "ops/s", "min", "h", "us/op", "MB"]
    for v, unit, digits in itertools.product(values, units, (3, 4)):
        assert display.quantity(v, unit, digits) == display.scale_for([v], unit)(v, digits)
