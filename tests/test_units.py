import pytest
from hypothesis import given
from hypothesis import strategies as st

from spellpress.units import UnitError, parse_length, parse_points


@pytest.mark.parametrize("text, mm", [
    ("3mm", 3.0), ("0.3cm", 3.0), ("0.125in", 3.175), ('2.5"', 63.5), ("72pt", 25.4),
    ("300px", 25.4), ("150px@150", 25.4), (3, 3.0), (2.5, 2.5), (" 4 mm ", 4.0),
])
def test_lengths_in_every_unit(text, mm):
    assert parse_length(text) == pytest.approx(mm)


def test_percent_needs_a_reference():
    assert parse_length("50%", reference_mm=63) == pytest.approx(31.5)
    with pytest.raises(UnitError):
        parse_length("50%")


@pytest.mark.parametrize("bad", ["3 miles", "mm", "", True, None, [3]])
def test_bad_lengths_are_refused(bad):
    with pytest.raises(UnitError):
        parse_length(bad)


def test_type_sizes_are_points_unless_a_unit_says_otherwise():
    assert parse_points(12) == 12
    assert parse_points("1in") == pytest.approx(72)


@given(st.floats(min_value=0, max_value=390, allow_nan=False))  # 393.7 in is the 10 m limit
@pytest.mark.slow
def test_inches_round_trip(value):
    assert parse_length(f"{value}in") == pytest.approx(value * 25.4)


@pytest.mark.parametrize("written", [float("nan"), float("inf"), -float("inf"), ".nan", "1e999", "inf mm", 1e300, "10001mm",
                                     "394in", "3px@0"])
def test_lengths_that_are_not_finite_or_beyond_ten_metres_are_refused(written):
    with pytest.raises(UnitError):
        parse_length(written)


def test_the_length_limit_is_ten_metres():
    assert parse_length("10000mm") == 10000.0
    assert parse_length(-10000) == -10000.0
