"""A village's copy of a law file whose number its unit cannot hold (a negative percentage, a fraction of a tree,
``inf``, ``nan``, an overflowing ``1e308``) or that lacks an entry a rule applies is refused when the law is loaded:
exit 2, naming the file, the entry and the range allowed, never applied and never a traceback.

Each case runs the command line in a fresh interpreter on an amended copy of the data folder (``TREECALC_DATA``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from treecalc.law import LawSchemaError, validate
from treecalc.reference import datafolder

CH208 = Path("law") / "croton_on_hudson" / "ch208_trees.toml"
CH223 = Path("law") / "croton_on_hudson" / "ch223_water.toml"


def _amended(tmp_path: Path, rel: Path, old: str, new: str) -> Path:
    folder = tmp_path / "village_data"
    shutil.copytree(datafolder.BUNDLED_DATA_DIR, folder)
    path = folder / rel
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not once in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return folder


def _treecalc(folder: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, datafolder.DATA_ENV: str(folder)}
    return subprocess.run(
        [sys.executable, "-m", "treecalc.cli", *argv], capture_output=True, text=True, env=env, timeout=180
    )


PERCENT = "[replacement.percent]\nvalue = 90\n"
WINDOW = "# months before the removal\nvalue = 12\n"
TREES = "[permit.more_than_trees_12mo]\nvalue = 3\n"


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        # before: applied, the sample's required replacement value -$766.35 (-90 % of the value removed), exit 0
        (
            PERCENT,
            PERCENT.replace("90", "-90"),
            "[replacement.percent]: value -90 is out of range; allowed: a percentage from 0 to 100",
        ),
        # before: decimal.InvalidOperation traceback from percent_of_up
        (
            PERCENT,
            PERCENT.replace("90", "inf"),
            "[replacement.percent]: value inf is not a finite number; allowed: a percentage from 0 to 100",
        ),
        (
            PERCENT,
            PERCENT.replace("90", "1e308"),
            "[replacement.percent]: value 1e+308 is out of range; allowed: a percentage from 0 to 100",
        ),
        # before: "cannot convert NaN to integer"
        (
            PERCENT,
            PERCENT.replace("90", "nan"),
            "[replacement.percent]: value nan is not a finite number; allowed: a percentage",
        ),
        # the entry's value deleted, its words kept
        (PERCENT, "[replacement.percent]\n", "[replacement.percent]: lacks value"),
        # the whole entry deleted: before, "error: 'percent'" (the KeyError of the rule that reads it)
        (
            PERCENT,
            "[replacement.percent_gone]\nvalue = 90\n",
            ": lacks the entry [replacement.percent] (§208-22A) that treecalc applies",
        ),
        # before: a window of -12 months and a 3.7-tree threshold were compared silently
        (
            WINDOW,
            WINDOW.replace("12", "-12"),
            "[permit.window_months]: value -12 is out of range; allowed: a period, a whole number from 1 to",
        ),
        (
            TREES,
            TREES.replace("3", "3.7"),
            "[permit.more_than_trees_12mo]: value 3.7 is out of range; allowed: a count of trees, a whole number from 0 to",
        ),
        # the rules compute §208-29B(7)'s multiple and §208-29A's fines in whole units: before, a factor of 1.5 was
        # charged as int(1.5) = 1 (the sample's civil maximum $10,500, not $15,750) and $5,000.50 as $5,000, exit 0
        (
            'value = 2\nunit = "times the fine per tree"',
            'value = 1.5\nunit = "times the fine per tree"',
            "[penalty.doubling_factor]: value 1.5 is out of range; allowed: a multiple more than 0 to 1,000,000,000; "
            "a whole number (the rules compute it in whole units)",
        ),
        (
            'value = 5000\nunit = "USD per offence (not more than)"',
            'value = 5000.50\nunit = "USD per offence (not more than)"',
            "[criminal.section_208_18_usd]: value 5000.5 is out of range",
        ),
    ],
    ids=[
        "minus-90-percent",
        "inf",
        "1e308",
        "nan",
        "no-value",
        "no-entry",
        "minus-12-months",
        "3.7-trees",
        "1.5-times",
        "cents-criminal",
    ],
)
def test_a_number_the_law_cannot_hold_is_refused_at_load(tmp_path, old, new, said):
    folder = _amended(tmp_path, CH208, old, new)
    r = _treecalc(folder, "assess", "--json")
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""
    assert r.stderr.startswith(f"error: {folder / CH208}"), r.stderr
    assert said in r.stderr, r.stderr


def test_the_water_chapter_is_validated_when_it_loads(tmp_path):
    # §223-12F(2)'s 5 % penalty rate typed as -5: before, a negative penalty was computed
    folder = _amended(tmp_path, CH223, 'value = "5"', 'value = "-5"')
    r = _treecalc(folder, "water-penalty", "--amount", "300", "--due", "2026-01-15", "--as-of", "2026-01-20", "--json")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert f"{folder / CH223} [first_penalty_rate]: value '-5' is out of range; allowed: a percentage" in r.stderr


def _entry(unit: str, value: object, **extra: object) -> dict[str, object]:
    return {"p": {"n": {"value": value, "unit": unit, "section": "§1", "text": "t", **extra}}}


def test_each_unit_kind_has_its_range():
    validate(_entry("percent of x", 0), "x.toml")
    validate(_entry("percent of x", 100), "x.toml")
    with pytest.raises(LawSchemaError, match=r"x.toml \[p.n\]: value 101 is out of range; allowed: a percentage"):
        validate(_entry("percent of x", 101), "x.toml")
    # a percentage the law sets above 100 (§208-22F's 120 %) states its own range
    validate(_entry("percent of x", 120, min=0, max=1000), "x.toml")
    with pytest.raises(LawSchemaError, match=r"from 0 to 1,000 \(the entry's min and max\)"):
        validate(_entry("percent of x", 1200, min=0, max=1000), "x.toml")
    with pytest.raises(LawSchemaError, match="allowed: an amount of money from 0"):
        validate(_entry("USD per tree", -1), "x.toml")
    with pytest.raises(LawSchemaError, match="allowed: a length, area or volume more than 0"):
        validate(_entry("in DBH", 0), "x.toml")
    with pytest.raises(LawSchemaError, match="allowed: a month of the year, a whole number from 1 to 12"):
        validate(_entry("month of the year", 13), "x.toml")
    with pytest.raises(LawSchemaError, match="allowed: a period, a whole number"):
        validate(_entry("years since", 1.5), "x.toml")
    with pytest.raises(LawSchemaError, match="is not a number"):
        validate(_entry("trees", True), "x.toml")
    with pytest.raises(LawSchemaError, match="unit 'furlongs' is not one treecalc knows"):
        validate(_entry("furlongs", 3), "x.toml")
    # a dated value is checked as the value is, and a bracket's cell by its column's unit
    with pytest.raises(LawSchemaError, match=r"values\[2026-01-01\]: value -3 is out of range"):
        validate(
            {
                "p": {
                    "n": {"values": {"2025-01-01": 3, "2026-01-01": -3}, "unit": "trees", "section": "§1", "text": "t"}
                }
            },
            "x.toml",
        )
    bracket = {
        "columns": {"usd": "USD per tree"},
        "section": "§1",
        "rows": [{"section": "§1", "text": "t", "usd": -500}],
    }
    with pytest.raises(LawSchemaError, match=r"row 1 usd: value -500 is out of range; allowed: an amount of money"):
        validate({"p": {"tiers": bracket}}, "x.toml")


def test_an_hour_of_24_is_refused_at_load():
    # before: allowed (0-24), then said "12:00 p.m." (noon) for the end of work and a traceback in work_time_check
    with pytest.raises(LawSchemaError, match=r"value 24 is out of range; allowed: an hour of the day, a whole number"):
        validate(_entry("hour of the day, local time (work stops at)", 24), "x.toml")
    validate(_entry("hour of the day, local time (work stops at)", 23), "x.toml")


def test_a_deleted_tier_row_is_refused_naming_the_row(tmp_path):
    # §208-29B(6)'s row (protected native plant, up to $7,500) deleted from a village's copy: before, the civil
    # penalty reached for tier6_usd and said only "error: 'tier6_usd'"
    folder = _amended(
        tmp_path,
        CH208,
        '[[penalty.civil_tiers.rows]]\ntier = 6\nusd = 7500\nsection = "§208-29B(6)"\n'
        'text = "as a protected native plant: up to $7,500."\n',
        "",
    )
    r = _treecalc(folder, "assess", "--json")
    assert r.returncode == 2 and "Traceback" not in r.stderr and r.stdout == "", r.stderr
    assert r.stderr.startswith(f"error: {folder / CH208}: lacks the row §208-29B(6) of [penalty.civil_tiers]"), r.stderr
    assert "(tier6_usd), which treecalc applies; copy it from " in r.stderr, r.stderr


def test_a_relevy_day_not_in_its_month_is_refused_at_load(tmp_path):
    # §223-12F(2)'s "April 15" typed as day 31: before, "error: day is out of range for month" naming nothing
    folder = _amended(tmp_path, CH223, 'value = 15\nunit = "day of the month"', 'value = 31\nunit = "day of the month"')
    r = _treecalc(folder, "water-penalty", "--amount", "300", "--due", "2026-01-15", "--as-of", "2026-01-20", "--json")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert (
        f"{folder / CH223} [relevy_day]: day 31 is not a day of April (the month of relevy_month, 4); "
        "allowed: a day of the month from 1 to 30"
    ) in r.stderr, r.stderr


def test_a_day_of_february_is_one_of_every_year():
    # 29 February is a day of the month only in a leap year: a relevy set on it would fail three years in four
    month = {"value": 2, "unit": "month of the year", "section": "§1", "text": "t"}
    day = {"value": 29, "unit": "day of the month", "section": "§1", "text": "t"}
    with pytest.raises(LawSchemaError, match=r"x.toml \[g.d\]: day 29 is not a day of February .* from 1 to 28"):
        validate({"g": {"m": month, "d": day}}, "x.toml")
    validate({"g": {"m": month, "d": {**day, "value": 28}}}, "x.toml")


CH120 = Path("law") / "croton_on_hudson" / "ch120_excavation.toml"


def _amend(folder: Path, rel: Path, old: str, new: str) -> None:
    path = folder / rel
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not once in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_numbers_the_law_may_set_are_loaded(tmp_path):
    # each was refused at load before (a period from 1, a percentage to 100, a length more than 0), though a law may
    # set it: no imprisonment (0 days), a slope steeper than 45 degrees (150 % = 1.5 ft rise per ft run), "in excess
    # of zero feet" (any depth), "more than 0 days overdue"
    folder = _amended(
        tmp_path, CH208, 'value = 15\nunit = "days (not more than)"', 'value = 0\nunit = "days (not more than)"'
    )
    _amend(folder, CH208, 'value = 20.0\nunit = "percent slope"', 'value = 150.0\nunit = "percent slope"')
    _amend(folder, CH120, "[cut_depth]\nvalue = 2", "[cut_depth]\nvalue = 0")
    _amend(folder, CH120, "[imprisonment_max]\nvalue = 15", "[imprisonment_max]\nvalue = 0")
    _amend(folder, CH223, 'value = 60\nunit = "days overdue"', 'value = 0\nunit = "days overdue"')
    r = _treecalc(folder, "assess", "--json")
    assert r.returncode == 0, r.stderr
    assert "on a slope over 150%" in r.stdout and "up to 0 days' imprisonment" in r.stdout
    # 600 sq ft dug 1 ft deep: 1 ft > 0 ft over 600 sq ft >= 500 sq ft is §120-3A(2)'s permit (at 2 ft, none)
    r = _treecalc(folder, "excavation", "check", "--lot-area", "20000", "--excavate", "600:1", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["triggers"] == ["§120-3A(2)"]
    # due 10 April 2026: 15 April 2026 is 5 days after, more than 0 days overdue, so that day's relevy (at more than
    # 60 days, 15 April 2027)
    r = _treecalc(folder, "water-penalty", "--amount", "300", "--due", "2026-04-10", "--as-of", "2026-05-20", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["relevy_date"] == "2026-04-15"


def test_a_length_bounded_at_least_or_measured_is_still_more_than_0():
    # a slope's run divides its rise (§95-4E(1)(a)): 0 ft horizontal per ft vertical is refused, as a length measured
    with pytest.raises(LawSchemaError, match="allowed: a length, area or volume more than 0"):
        validate(_entry("ft horizontal per 1 ft vertical (at least)", 0, operator=">="), "x.toml")
    validate(_entry("ft (strictly deeper than)", 0, operator=">"), "x.toml")
    with pytest.raises(LawSchemaError, match=r"allowed: a length, area or volume from 0 to .*says more than"):
        validate(_entry("ft (strictly deeper than)", -1, operator=">"), "x.toml")
    # a window of months is still a period of at least one
    with pytest.raises(LawSchemaError, match="allowed: a period, a whole number from 1"):
        validate(_entry("months preceding the removal", 0), "x.toml")


def _ch208() -> dict[str, Any]:
    with open(datafolder.BUNDLED_DATA_DIR / CH208, "rb") as f:
        return tomllib.load(f)


def test_numbers_that_contradict_each_other_are_refused_naming_both(tmp_path):
    # §120-12A "a fine of not less than $500 nor more than $1,000", the minimum typed 1500: before, a fine range
    # of $1,500 to $1,000 was said without a word
    folder = _amended(tmp_path, CH120, "[fine_first_min]\nvalue = 500", "[fine_first_min]\nvalue = 1500")
    r = _treecalc(folder, "excavation", "check", "--lot-area", "20000", "--excavate", "600:3", "--json")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert (
        f"{folder / CH120} [fine_first_min]: the minimum 1500 is more than the maximum 1000 of [fine_first_max]"
    ) in r.stderr, r.stderr


def test_tiers_out_of_order_are_refused_naming_both_rows():
    # §208-29B(1)-(3) are DBH classes: up to 8 in $500, over 8 up to 12 in $1,500, over 12 in $3,000
    raw = _ch208()
    raw["penalty"]["civil_tiers"]["rows"][1]["max_dbh_in"] = 8.0  # (2)'s bound typed as (1)'s: no tree is in (2)
    with pytest.raises(
        LawSchemaError,
        match=re.escape(
            "[penalty.civil_tiers]: row 2 (§208-29B(2)) max_dbh_in 8.0 is not more than row 1's (§208-29B(1)) 8.0"
        ),
    ):
        validate(raw, "x.toml")
    raw = _ch208()
    raw["penalty"]["civil_tiers"]["rows"][2]["usd"] = 1000  # over 12 in fined less than 8-12 in
    with pytest.raises(
        LawSchemaError,
        match=re.escape("row 3 (§208-29B(3)) usd 1000 is less than row 2's (§208-29B(2)) 1500"),
    ):
        validate(raw, "x.toml")
    # an amendment that puts them out of order from its date on is refused naming that date
    raw = _ch208()
    raw["penalty"]["civil_tiers"]["rows"][2]["usd"] = {"2025-01-01": 3000, "2027-03-01": 1400}
    with pytest.raises(
        LawSchemaError, match=re.escape("usd 1400 is less than row 2's (§208-29B(2)) 1500 (in force from 2027-03-01)")
    ):
        validate(raw, "x.toml")
    # equal amounts are in order (a larger tree fined no less); the categories (4)-(6) are not classes of size
    raw = _ch208()
    raw["penalty"]["civil_tiers"]["rows"][2]["usd"] = 1500
    raw["penalty"]["civil_tiers"]["rows"][4]["usd"] = 100
    validate(raw, "x.toml")
