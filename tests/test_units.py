"""User-given numbers: refused with the parameter's name, never passed on as NaN or a wrong type."""

import re

import pytest

from treecalc.units import number


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
    from treecalc.units import RANGES, in_range

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
    from treecalc.units import small_file

    with pytest.raises(ValueError, match="--fee-schedule /dev/zero: not a regular file"):
        small_file("--fee-schedule", "/dev/zero", 1_000)
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * 1_001)
    with pytest.raises(ValueError, match="1,001 bytes, over the 1,000-byte limit"):
        small_file("--fee-schedule", big, 1_000)
    small_file("--fee-schedule", tmp_path / "absent.toml", 1_000)  # left to the reader's own message
