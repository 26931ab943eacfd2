"""User-given numbers: refused with the parameter's name, never passed on as NaN or a wrong type."""

import re

import pytest

from treecalc.quantities import number


@pytest.mark.parametrize(
    "value,kw,msg",
    [
        ("abc", {}, "must be a number"),
        (True, {}, "must be a number"),
        (float("nan"), {}, "finite"),
        ("inf", {}, "finite"),
        (-1, {"low": 0}, "at least 0"),
        (0, {"low": 0, "strict": True}, "greater than 0"),
        (2, {"high": 1}, "at most 1"),
        (1.5, {"whole": True}, "whole number"),
        (0, {"low": 1, "whole": True}, "a whole number at least 1"),
    ],
)
def test_refusals_name_the_parameter(value, kw, msg):
    with pytest.raises(ValueError, match=msg) as e:
        number("days", value, **kw)
    assert str(e.value).startswith("days must be")


def test_accepted_values():
    assert number("x", "2.5", low=0) == 2.5
    assert number("x", 3, low=1, whole=True) == 3.0


def test_plausible_ranges_name_the_flag_and_the_range():
    from treecalc.quantities import RANGES, in_range

    assert in_range("--days", "36500", "days") == 36_500  # 100 years, the top of the range
    assert in_range("--home-price", "$750,000", "home_price_usd") == 750_000
    for flag, value, kind, says in [
        ("--days", "36501", "days", "--days must be a whole number from 1 to 36,500 days"),
        ("--days", "1e20", "days", "got '1e20'"),
        ("--days", "2.5", "days", "whole number"),
        ("--price electricity", "1e308", "price_usd", "from 0 to 1,000,000 USD per unit"),
        ("--replacement-percent", "0", "percent", "greater than 0 and at most 1,000 %"),
        ("--max-mb", "inf", "max_mb", "--max-mb must be"),
        ("--plantable", "nan", "plantable", "--plantable must be"),
    ]:
        with pytest.raises(ValueError, match=re.escape(says)):
            in_range(flag, value, kind)
    assert all(r.low < r.high and r.why for r in RANGES.values())


def test_small_file_refuses_devices_and_big_files(tmp_path):
    from treecalc.quantities import small_file

    with pytest.raises(ValueError, match="--fee-schedule /dev/zero: not a regular file"):
        small_file("--fee-schedule", "/dev/zero", 1_000)
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * 1_001)
    with pytest.raises(ValueError, match="1,001 bytes, over the 1,000-byte limit"):
        small_file("--fee-schedule", big, 1_000)
    small_file("--fee-schedule", tmp_path / "absent.toml", 1_000)  # left to the reader's own message


# --------------------------------------------------------------------------- money, dates, jurisdictions
def test_money_rounds_half_up_to_the_cent_exactly():
    from decimal import Decimal

    from treecalc.money import cents, money, round2

    # 2.675 is 2.67499999... as a binary float; through its repr it is the decimal 2.675 -> 2.68 (half up)
    assert round2(2.675) == 2.68
    assert round2(Decimal("0.005")) == 0.01  # half up, not half even (0.00)
    assert round2(Decimal("1234.5649")) == 1234.56
    assert cents(Decimal("10") / 3) == Decimal("3.33")  # 3.333... -> 3.33
    assert cents(0.125) == Decimal("0.13")  # 0.125 exact in binary; half up -> 0.13
    assert money("$1,450.50") == Decimal("1450.50")
    for bad in ("-1", "abc", True, "inf"):
        with pytest.raises(ValueError, match="fee: expected"):
            money(bad, "fee")


def test_date_times_and_nonnegative_numbers_name_the_input():
    import datetime as dt

    from treecalc.money import nonneg
    from treecalc.quantities import to_datetime

    assert to_datetime("2026-03-07T19:59") == dt.datetime(2026, 3, 7, 19, 59)
    with pytest.raises(ValueError, match="date-time YYYY-MM-DDTHH:MM"):
        to_datetime("yesterday")
    with pytest.raises(ValueError, match="depth_ft must not be negative"):
        nonneg("-0.5", "depth_ft")


def test_one_range_table_for_the_companions():
    from treecalc.quantities import RANGES, within
    from treecalc.rules import excavation

    # the excavation bounds are rows of the one table, not a table of their own
    assert excavation.MAX_AREA_SQFT == RANGES["earthwork_area_sqft"].high == 100_000_000
    assert excavation.MAX_DEPTH_IN == RANGES["depth_in"].high == 120
    with pytest.raises(ValueError, match="wall must be from 0 ft to 200 ft, got 201"):
        within("201", "wall", "wall_height_ft")


@pytest.mark.parametrize(
    "name",
    ["croton-on-hudson", "croton_on_hudson", "Croton on Hudson", "Village of Croton-on-Hudson, NY", "croton"],
)
def test_jurisdiction_spellings_give_one_key(name):
    from treecalc.law.access import jurisdiction_key

    assert jurisdiction_key(name) == "croton_on_hudson"


def test_survey_and_excavation_keep_the_one_key(tmp_path):
    from treecalc.ingest.site import coerce
    from treecalc.law.access import jurisdiction_key
    from treecalc.rules.excavation import check_permit

    assert coerce("jurisdiction", "wesley-hills") == coerce("jurisdiction", "wesley_hills") == "wesley_hills"
    assert check_permit(jurisdiction="wesley-hills").jurisdiction == "wesley_hills"
    with pytest.raises(
        ValueError, match="not one of croton-on-hudson, wesley-hills, la-grange-park, manalapan, milltown"
    ):
        jurisdiction_key("Ossining")


@pytest.mark.parametrize(
    "field,value,says",
    [
        ("lot_area_acres", "1e308", "from 0 to 100,000 acres"),
        ("prior_removals_12mo", "1e12", "a whole number from 0 to 10,000,000 trees"),
    ],
)
def test_site_facts_have_a_plausible_range(field, value, says):
    from treecalc.ingest.site import coerce
    from treecalc.rules.croton_on_hudson import SITE_DEFAULTS, resolve_site

    with pytest.raises(ValueError, match=f"site {field} must be {re.escape(says)}"):
        coerce(field, value)
    with pytest.raises(ValueError, match=f"site fact {field} must be {re.escape(says)}"):
        resolve_site({field: value}, SITE_DEFAULTS)
    assert coerce("lot_area_acres", "100000") == 100_000.0  # the top of the range is accepted
    with pytest.raises(ValueError, match="site lot_area_acres must be from 0 to 100,000 acres"):
        coerce("lot_area_acres", "inf")


def test_at_least_a_percentage_rounds_up_to_the_cent():
    from decimal import Decimal

    from treecalc.money import percent_of_up

    assert percent_of_up(11.16, 90) == Decimal("10.05")  # 11.16 x 0.9 = 10.044 -> up to 10.05
    assert percent_of_up(Decimal("10.00"), 120) == Decimal("12.00")  # exact: no rounding
    assert percent_of_up(0.01, 50) == Decimal("0.01")  # 0.005 -> up to 0.01
