"""A Board's amendment dated in the data: before its date the old number is applied and quoted, from it the new
one; a date-keyed table in any order; a fee schedule file that names two resolutions of one day is refused.

Each test amends a copy of the bundled data folder (as an Engineer would, through ``TREECALC_DATA``)."""

from __future__ import annotations

import datetime as dt
import importlib
import json
import os
import shutil
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from tests.helpers.headless import forget_app_caches
from treecalc.law import clear_caches, resolved
from treecalc.reference import datafolder
from treecalc.reference.datafolder import BUNDLED_DATA_DIR, DATA_ENV

CH208 = "law/croton_on_hudson/ch208_trees.toml"
CH95 = "law/wesley_hills/ch95_clearing.toml"
#: the Board's amendment takes effect on this day; the day before, the old number holds
AMENDED_ON = dt.date(2027, 3, 1)
DAY_BEFORE = dt.date(2027, 2, 28)

#: A Croton-on-Hudson lot cleared without a permit: five offence trees (four removed, one topped; §208-18A,
#: §208-18D) and two proposed removals, the tiers of §208-29B(1)-(3) by DBH (8 in and 12 in bounds).
CROTON_LOT = (
    "tag,species,dbh_in,action,condition\n"
    "201,Acer rubrum,15,removed,good\n"
    "202,Quercus rubra,24,removed,good\n"
    "203,Pinus strobus,10,removed,fair\n"
    "204,Acer saccharum,7,removed,good\n"
    "205,Liriodendron tulipifera,30,remove,good\n"
    "206,Acer rubrum,5,topped,good\n"
    "207,Quercus alba,20,retain,good\n"
    "208,Betula papyrifera,9,remove,good\n"
)
#: A Wesley Hills lot: two trees of 10 in or more removed farther than 200 ft from the house (§95-3A(1)(d)).
WESLEY_LOT = (
    "tag,species,dbh_in,action,distance_to_residence_ft\n"
    "1,Quercus rubra,16,removed,230\n"
    "2,Acer saccharum,11,removed,205\n"
    "3,Fagus grandifolia,14,retain,50\n"
)


def _amend(folder: Path, rel: str, header: str, old: str, new: str) -> None:
    p = folder / rel
    s = p.read_text(encoding="utf-8")
    i = s.index(header)
    j = s.index(old, i)
    p.write_text(s[:j] + new + s[j + len(old) :], encoding="utf-8")


@pytest.fixture
def data_copy(tmp_path, monkeypatch):
    """A copy of the bundled data folder, read in this process in place of the bundled one."""
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    monkeypatch.setattr(datafolder, "DATA_DIR", folder)
    clear_caches()
    forget_app_caches()
    yield folder
    monkeypatch.undo()
    clear_caches()
    forget_app_caches()


def _treecalc(folder: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**{k: v for k, v in os.environ.items() if k != DATA_ENV}, DATA_ENV: str(folder)}
    return subprocess.run(
        [sys.executable, "-m", "treecalc.cli", *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=300
    )


# --- a §208-29B tier amended on a date ----------------------------------------------------------------------------


def test_a_civil_tier_amended_on_a_date_holds_the_old_maximum_the_day_before(data_copy):
    # the Board raises §208-29B(3) (trees over 12 in) from $3,000 to $3,500 from 2027-03-01; the dates in the
    # table in reverse order (the file's order is not the law's)
    _amend(data_copy, CH208, "tier = 3", "usd = 3000", "usd = { 2027-03-01 = 3500, 2025-01-01 = 3000 }")
    clear_caches()
    assert resolved("croton_on_hudson", DAY_BEFORE)["penalty"]["tier3_usd"] == 3000
    assert resolved("croton_on_hudson", AMENDED_ON)["penalty"]["tier3_usd"] == 3500
    assert resolved("croton_on_hudson", AMENDED_ON)["penalty"]["civil_tiers"][2]["usd"] == 3500
    assert resolved("croton_on_hudson")["penalty"]["tier3_usd"] == 3500  # no date: the latest held
    # the untouched rows are as before
    assert resolved("croton_on_hudson", DAY_BEFORE)["penalty"]["tier2_usd"] == 1500


def test_a_civil_tier_amended_on_a_date_prices_the_offences_of_each_day(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    _amend(folder, CH208, "tier = 3", "usd = 3000", "usd = { 2027-03-01 = 3500, 2025-01-01 = 3000 }")
    (tmp_path / "lot.csv").write_text(CROTON_LOT, encoding="utf-8")
    got = {}
    for day in (DAY_BEFORE, AMENDED_ON):
        r = _treecalc(
            folder, "assess", "lot.csv", "--jurisdiction", "croton", "--on", day.isoformat(), "--json", cwd=tmp_path
        )
        assert r.returncode == 0, r.stderr
        got[day] = json.loads(r.stdout)["civil_penalty_max_usd"]
    # offence trees: 201 (15 in) and 202 (24 in) tier 3; 203 (10 in) tier 2 $1,500; 204 (7 in) and 206 (5 in)
    # tier 1 $500; five offence trees, more than three: doubled (§208-29B(7))
    # the day before: (3,000 + 3,000 + 1,500 + 500 + 500) x 2 = 8,500 x 2 = 17,000
    # from 2027-03-01: (3,500 + 3,500 + 1,500 + 500 + 500) x 2 = 9,500 x 2 = 19,000
    assert got == {DAY_BEFORE: 17000, AMENDED_ON: 19000}


def test_a_dated_tier_cell_that_is_no_table_of_dates_is_refused_naming_the_row(data_copy):
    from treecalc.law import LawSchemaError

    _amend(data_copy, CH208, "tier = 3", "usd = 3000", 'usd = { "2027-02-30" = 3500 }')
    clear_caches()
    with pytest.raises(LawSchemaError, match=r"row 3 usd: '2027-02-30' is not an ISO date"):
        resolved("croton_on_hudson", AMENDED_ON)


# --- fee schedules: two resolutions of one day -------------------------------------------------------------------

TWO_OF_ONE_DAY = """
[[schedule]]
basis = "per_tree"
fee_per_tree_usd = "600.00"
resolution_date = "2027-01-15"
label = "resolution A"

[[schedule]]
basis = "per_tree"
fee_per_tree_usd = "800.00"
resolution_date = 2027-01-15
label = "resolution B"
"""


def test_a_fee_schedule_file_with_two_resolutions_of_one_day_is_refused(tmp_path):
    from treecalc.rules.croton_on_hudson.schedule import load_fee_schedule, record_schedule

    f = tmp_path / "fees.toml"
    f.write_text(TWO_OF_ONE_DAY, encoding="utf-8")
    # $600 or $800 a tree from 2027-01-15: the file does not say which the Board adopted; neither is guessed
    with pytest.raises(ValueError, match="more than one schedule set by Board resolution of 2027-01-15"):
        load_fee_schedule(f, on=dt.date(2027, 2, 1))
    # nor is a later schedule recorded beside them, keeping the ambiguity
    with pytest.raises(ValueError, match="more than one schedule set by Board resolution of 2027-01-15"):
        record_schedule(f, {"basis": "per_tree", "fee_per_tree_usd": "700.00"}, "2027-06-01")
    assert "700.00" not in f.read_text(encoding="utf-8")


def test_fee_schedules_out_of_order_in_the_file_are_read_by_their_dates(tmp_path):
    from treecalc.rules.croton_on_hudson.schedule import load_fee_schedule

    f = tmp_path / "fees.toml"
    f.write_text(
        '[[schedule]]\nbasis = "per_tree"\nfee_per_tree_usd = "700.00"\nresolution_date = "2027-09-01"\n\n'
        '[[schedule]]\nbasis = "per_tree"\nfee_per_tree_usd = "600.00"\nresolution_date = "2027-03-01"\n',
        encoding="utf-8",
    )
    assert load_fee_schedule(f, on=dt.date(2027, 8, 31)).fee_per_tree_usd == Decimal("600.00")  # the day before
    assert load_fee_schedule(f, on=dt.date(2027, 9, 1)).fee_per_tree_usd == Decimal("700.00")  # the day of


# --- the command line's refusals name the flag --------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, said",
    [
        (["--fee-per-tree", "abc"], "error: --fee-per-tree: expected an amount in USD, got 'abc'"),
        ([], "error: --fee-per-tree must be more than $0 for basis per_tree"),
        (["--basis", "value", "--value-basis", "cumulative:0"], "error: --value-basis must be 'appraised'"),
        (["--basis", "value", "--multiplier", "x"], "error: --multiplier: expected a number, got 'x'"),
    ],
)
def test_fee_schedule_record_refuses_a_bad_flag_naming_it(tmp_path, args, said):
    r = _treecalc(
        BUNDLED_DATA_DIR,
        "fee-schedule",
        "record",
        "fees.toml",
        "--resolution-date",
        "2027-01-15",
        *args,
        cwd=tmp_path,
    )
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert said in r.stderr and "given as a dict" not in r.stderr
    assert not (tmp_path / "fees.toml").exists()


def test_an_empty_on_is_refused_not_taken_as_today(tmp_path):
    (tmp_path / "lot.csv").write_text(CROTON_LOT, encoding="utf-8")
    r = _treecalc(BUNDLED_DATA_DIR, "assess", "lot.csv", "--on", "", "--json", cwd=tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "--on is empty" in r.stderr


# --- sentences quote the number in force on the assessment's date -------------------------------------------------


def test_a_plan_quotes_the_permit_threshold_in_force_on_its_date(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    # §208-19A(1) amended: more than 5 trees in 12 months from 2027-03-01 (3 before)
    _amend(folder, CH208, "[permit.more_than_trees_12mo]", "value = 3", "values = { 2027-03-01 = 5, 2025-01-01 = 3 }")
    (tmp_path / "lot.csv").write_text(
        "tag,species,dbh_in,action,condition\n1,Acer rubrum,6,remove,good\n2,Acer rubrum,5,remove,good\n"
        "3,Quercus alba,6,retain,good\n",
        encoding="utf-8",
    )
    said = {}
    for day in (DAY_BEFORE, AMENDED_ON):
        r = _treecalc(folder, "plan", "lot.csv", "--on", day.isoformat(), "--site", "subdividable=false", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        said[day] = r.stdout
    # two removals of 5-6 in on a lot not capable of subdivision: no permit on either day, and the plan says why
    # with the number of that day: "more than 3" the day before, "more than 5" from 2027-03-01
    assert "(§208-19A(1) needs more than 3)" in said[DAY_BEFORE]
    assert "more than 5" not in said[DAY_BEFORE]
    assert "(§208-19A(1) needs more than 5)" in said[AMENDED_ON]


def test_the_app_states_the_law_in_force_today_not_an_amendment_yet_to_come(data_copy):
    importlib.import_module("streamlit")
    # an amendment the Board adopted that takes effect next year: §208-22F 120% -> 130%, §208-29B(3) $3,000 ->
    # $3,500. The app assesses on today's date, so its help texts say 120% and $3,000 until then.
    later = (dt.date.today() + dt.timedelta(days=366)).isoformat()
    _amend(
        data_copy,
        CH208,
        "[replacement.violation_percent]",
        "value = 120",
        f"values = {{ 2025-01-01 = 120, {later} = 130 }}",
    )
    _amend(data_copy, CH208, "tier = 3", "usd = 3000", f"usd = {{ 2025-01-01 = 3000, {later} = 3500 }}")
    clear_caches()
    from treecalc.app import map as app_map
    from treecalc.app import views

    assert views.law_today()["replacement"]["violation_percent"] == 120
    assert app_map.tier_words()["§208-29B(3)"].endswith("up to $3,000")


def _readings(folder: Path, survey: str, jurisdiction: str, day: dt.date, cwd: Path) -> str:
    (cwd / "lot.csv").write_text(survey, encoding="utf-8")
    r = _treecalc(
        folder, "assess", "lot.csv", "--jurisdiction", jurisdiction, "--on", day.isoformat(), "--json", cwd=cwd
    )
    assert r.returncode == 0, r.stderr
    return " ".join(x["reading"] for x in json.loads(r.stdout)["readings"])


def test_croton_readings_quote_the_numbers_in_force_on_the_assessments_date(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    # §208-22F 120% -> 130% and §208-29A $250 -> $400, both from 2027-03-01
    _amend(
        folder,
        CH208,
        "[replacement.violation_percent]",
        "value = 120",
        "values = { 2025-01-01 = 120, 2027-03-01 = 130 }",
    )
    _amend(folder, CH208, "[criminal.per_tree_usd]", "value = 250", "values = { 2025-01-01 = 250, 2027-03-01 = 400 }")
    before = _readings(folder, CROTON_LOT, "croton", DAY_BEFORE, tmp_path)
    # the day before the amendment the law is 120% and $250: the readings say so, and not 130% or $400
    assert "required value = 120%" in before and "up to $250 per offence tree" in before
    assert "130%" not in before and "$400" not in before


def test_wesley_hills_readings_quote_the_fine_in_force_on_the_assessments_date(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    # penalties A: $5,000 -> $6,000 a tree from 2027-03-01
    _amend(folder, CH95, "[fine.per_tree_usd]", "value = 5000", "values = { 2025-01-01 = 5000, 2027-03-01 = 6000 }")
    before = _readings(folder, WESLEY_LOT, "wesley-hills", DAY_BEFORE, tmp_path)
    assert "up to $5,000" in before and "$6,000" not in before


def test_the_dead_tree_reading_quotes_the_counts_in_force_on_the_assessments_date(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    # §208-19A(1) more than 3 -> 5 trees and §208-22A 3 -> 4 trees, both from 2027-03-01
    _amend(folder, CH208, "[permit.more_than_trees_12mo]", "value = 3", "values = { 2025-01-01 = 3, 2027-03-01 = 5 }")
    _amend(folder, CH208, "[replacement.min_trees]", "value = 3", "values = { 2025-01-01 = 3, 2027-03-01 = 4 }")

    def dead_tree_reading(day: dt.date) -> str:
        (tmp_path / "lot.csv").write_text(CROTON_LOT, encoding="utf-8")
        r = _treecalc(folder, "assess", "lot.csv", "--on", day.isoformat(), "--json", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        (said,) = [x["reading"] for x in json.loads(r.stdout)["readings"] if x["section"] == "§208-22B"]
        return said

    before, after = dead_tree_reading(DAY_BEFORE), dead_tree_reading(AMENDED_ON)
    assert "('more than three trees')" in before and "(§208-22A 'three or more trees')" in before
    assert "('more than five trees')" in after and "(§208-22A 'four or more trees')" in after


#: Run in a fresh process under the amended data folder: the help texts of the Permit page's replacement size and
#: the Excavation page's retaining wall, as Streamlit draws them.
_APP_HELPS = """
import json, sys
from streamlit.testing.v1 import AppTest
at = AppTest.from_file(sys.argv[1], default_timeout=120).run()
out = {}
for page, key in (("treecalc/app/pages/permit.py", "w_repl_dbh"), ("treecalc/app/pages/excavation.py", "w_exc_wall")):
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    out[key] = at.number_input(key=key).proto.help
print(json.dumps(out))
"""


def test_the_app_help_texts_of_replacement_size_and_retaining_wall_follow_an_amendment(tmp_path):
    importlib.import_module("streamlit")
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    # §208-22D deciduous 1.5 in -> 1.75 in, conifers 5 ft -> 6 ft; §120-8M retaining wall 4 ft -> 5 ft
    _amend(folder, CH208, "[replacement.deciduous_min_dbh_in]", "value = 1.5", "value = 1.75")
    _amend(folder, CH208, "[replacement.conifer_min_height_ft]", "value = 5.0", "value = 6.0")
    _amend(folder, "law/croton_on_hudson/ch120_excavation.toml", "[retaining_wall_height]", "value = 4", "value = 5")
    app = Path(__file__).resolve().parents[2] / "app.py"
    env = {**{k: v for k, v in os.environ.items() if k != DATA_ENV}, DATA_ENV: str(folder)}
    r = subprocess.run(
        [sys.executable, "-c", _APP_HELPS, str(app)], capture_output=True, text=True, env=env, timeout=600, cwd=tmp_path
    )
    assert r.returncode == 0, r.stderr[-2000:]
    helps = json.loads(r.stdout.strip().splitlines()[-1])
    assert helps["w_repl_dbh"] == "Deciduous trees at least 1.75 in DBH; conifers at least 6 ft tall (§208-22D)."
    assert helps["w_exc_wall"] == "§120-8M: over 5 ft needs a building permit. 0: none."


def test_croton_readings_quote_the_amended_permit_counts(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    # §208-19A(1) / §208-18A more than 3 -> 5 trees; §208-17 clear cutting 4 -> 6 trees (plain values: no date)
    _amend(folder, CH208, "[permit.more_than_trees_12mo]", "value = 3", "value = 5")
    _amend(folder, CH208, "[permit.clear_cutting_min_trees]", "value = 4", "value = 6")
    said = _readings(folder, CROTON_LOT, "croton", AMENDED_ON, tmp_path)
    # §208-29B(7)'s doubling count ("more than three (3) regulated trees") is its own entry, not amended here: the
    # readings keep it, so the old words are looked for where the amended counts are quoted
    assert "'more than three trees' removed" not in said and "more than three §208-18A" not in said
    assert "'the removal of four or more trees'" not in said and "removal of four or more trees from" not in said
    assert "'more than five trees' removed" in said and "more than five §208-18A" in said
    assert "'the removal of six or more trees'" in said and "removal of six or more trees from" in said
    assert "more than five (5) trees" in said and "six removed, one under its own permit, are five" in said


def test_a_law_file_broken_by_an_edit_is_refused_naming_the_file(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    # an amendment typed twice into one entry: TOML refuses the second value ("Cannot overwrite a value")
    _amend(folder, CH208, "[criminal.per_tree_usd]", "value = 250", "value = 250\nvalue = 400")
    (tmp_path / "lot.csv").write_text(CROTON_LOT, encoding="utf-8")
    r = _treecalc(folder, "assess", "lot.csv", "--on", "2027-03-01", cwd=tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "law/croton_on_hudson/ch208_trees.toml" in r.stderr and "is not valid TOML" in r.stderr


def test_a_dated_value_that_leaves_a_gap_after_the_chapters_effective_date_is_refused(data_copy):
    from treecalc.law import LawSchemaError

    # Chapter 208 is in force from 2025-01-01 ([effective]); a §208-29A maximum whose only value takes effect
    # 2027-03-01 leaves 2025-01-01 .. 2027-02-28 with no number: the file is refused, not an assessment of 2026
    _amend(data_copy, CH208, "[criminal.repeat_within_year_usd]", "value = 1000", "values = { 2027-03-01 = 1000 }")
    clear_caches()
    with pytest.raises(LawSchemaError, match=r"repeat_within_year_usd\]: its earliest value takes effect 2027-03-01"):
        resolved("croton_on_hudson", AMENDED_ON)
    _amend(
        data_copy,
        CH208,
        "[criminal.repeat_within_year_usd]",
        "values = { 2027-03-01",
        "values = { 2025-01-01 = 1000, 2027-03-01",
    )
    _amend(data_copy, CH208, "tier = 3", "usd = 3000", "usd = { 2027-03-01 = 3500 }")  # and the same of a tier
    clear_caches()
    with pytest.raises(LawSchemaError, match=r"civil_tiers\] row 3 usd: its earliest value takes effect 2027-03-01"):
        resolved("croton_on_hudson", AMENDED_ON)


def test_the_fund_page_shows_the_schedule_in_force_today_not_one_recorded_ahead(tmp_path, monkeypatch):
    importlib.import_module("streamlit")
    from treecalc.app.pages import fund as fund_page
    from treecalc.law import access
    from treecalc.rules.croton_on_hudson.schedule import record_schedule

    # the Board set $600 a tree last year and, adopted ahead, $900 from next year (§208-24C)
    today = dt.date.today()
    f = tmp_path / "fee_schedule.toml"
    record_schedule(f, {"basis": "per_tree", "fee_per_tree_usd": "600.00"}, today.replace(year=today.year - 1, day=1))
    record_schedule(f, {"basis": "per_tree", "fee_per_tree_usd": "900.00"}, today.replace(year=today.year + 1, day=1))
    monkeypatch.setattr(access, "DEFAULT_FEE_SCHEDULE", f)
    from treecalc.register import db

    monkeypatch.delenv("TREECALC_DB", raising=False)  # no register: the data folder's schedules are the fee
    monkeypatch.setattr(db, "default_path", lambda: tmp_path / "no register.db")
    # the page shows today's schedule, the one the assessment (on today) applies: $600
    assert fund_page._in_force()["fee_per_tree_usd"] == "600.00"


def test_a_companion_chapter_amended_on_a_date_reads_the_number_in_force_today(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    # §120-8M: a retaining wall over 4 ft (2025), over 5 ft from last month, over 6 ft from next year. The
    # excavation commands have no date: today's number, 5 ft, applies (the file refused them: "lacks value")
    today = dt.date.today()
    last_month, next_year = today - dt.timedelta(days=30), today.replace(year=today.year + 1, day=1)
    _amend(
        folder,
        "law/croton_on_hudson/ch120_excavation.toml",
        "[retaining_wall_height]",
        "value = 4",
        f"values = {{ {next_year} = 6, 2025-01-01 = 4, {last_month} = 5 }}",
    )
    said = {}
    for h in ("4.5", "5.5"):
        r = _treecalc(folder, "excavation", "check", "--retaining-wall", h, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        (said[h],) = [ln for ln in r.stdout.splitlines() if "§120-8M" in ln and "retaining wall" in ln]
    # 4.5 ft is not more than 5 ft: no building permit for the wall; 5.5 ft is
    assert "required if more than 5 ft" in said["5.5"] and "a building permit is required" in said["5.5"]
    assert "a building permit is required" not in said["4.5"]


def test_the_headers_that_quote_a_number_say_the_law_of_the_assessments_date(tmp_path):
    """A §208-19A(3) slope amended from 20% to 25% on 2027-03-01: a statement and a report assessed the day
    before head the slope flag "Slope over 20%" (the law applied), from the day on "Slope over 25%"; the
    trigger line says the same percentage as the header each day."""
    import openpyxl

    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    _amend(folder, CH208, "[permit.slope_percent]", "value = 20.0", "values = { 2025-01-01 = 20.0, 2027-03-01 = 25.0 }")
    # §208-19A(1)'s window 12 -> 18 months from the same day: the site fact's label says it
    _amend(folder, CH208, "[permit.window_months]", "value = 12", "values = { 2025-01-01 = 12, 2027-03-01 = 18 }")
    # tree 1: 14 in on the slope, proposed for removal (§208-19A(3): 4 in or more on a slope over the percentage)
    (tmp_path / "lot.csv").write_text(
        "Tag,Species,DBH (in),Action,Slope over 20%\n1,Acer rubrum,14,Remove,yes\n2,Quercus rubra,20,Remove,no\n",
        encoding="utf-8",
    )
    for day, pct, months in ((DAY_BEFORE, 20, 12), (AMENDED_ON, 25, 18)):
        out = tmp_path / f"{day}.xlsx"
        args = ("assess", "lot.csv", "--on", day.isoformat(), "--site", "prior_removals_12mo=0", "--out", str(out))
        r = _treecalc(folder, *args, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert f"on a slope over {pct}%" in r.stdout
        book = openpyxl.load_workbook(out, read_only=True)
        head = list(book["Trees"].iter_rows(min_row=2, max_row=2, values_only=True))[0]
        said = [str(c) for c in head if c and "Slope over" in str(c)]
        assert said == [f"Slope over {pct}%"], (day, said)
        site = [r[1] for r in book["Method & sources"].iter_rows(values_only=True) if r[0] == "Site"]
        assert f"Trees removed on the lot in the previous {months} months" in site, (day, site)


def test_a_slope_column_at_the_old_percentage_makes_no_definite_offence_after_the_amendment(tmp_path):
    """ "Slope over 20%" answered before the §208-19A(3) slope was amended to 25% (from 2027-03-01): a yes says
    over 20%, not over 25%. The day before, tree 1 (14 in, removed, tier (3)) is a definite offence, $3,000;
    from the amendment's day it is conditional, $3,000 summed apart, and the column is said to quote 20."""
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    _amend(folder, CH208, "[permit.slope_percent]", "value = 20.0", "values = { 2025-01-01 = 20.0, 2027-03-01 = 25.0 }")
    (tmp_path / "crew.csv").write_text(
        "Tag,Species,DBH (in),Action,Slope over 20%\n1,Acer rubrum,14,Removed,yes\n", encoding="utf-8"
    )
    site = ["--site", "subdividable=false", "--site", "has_residence=true", "--site", "site_plan_required=false"]
    got = {}
    for day in (DAY_BEFORE, AMENDED_ON):
        r = _treecalc(folder, "assess", "crew.csv", *site, "--on", day.isoformat(), "--json", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        got[day] = json.loads(r.stdout)
    before, after = got[DAY_BEFORE], got[AMENDED_ON]
    assert (before["civil_penalty_max_usd"], before["civil_penalty_conditional_usd"]) == (3000, 0)
    assert (after["civil_penalty_max_usd"], after["civil_penalty_conditional_usd"]) == (0, 3000)
    (said,) = [w for w in after["warnings"] if "its number is 20, not 25" in w]
    # the sentence follows the amended number: the law is quoted at 25%, the 20% only as the column's own header
    assert "is read as 'Slope over 25%' (§208-19A(3))" in said and said.count("20%") == 1


def test_a_label_of_a_law_not_yet_in_force_quotes_its_earliest_version_not_a_later_amendment(tmp_path):
    """A Wesley Hills statement of 2024-06-01 (Chapter 95 carries no effective date) still heads Chapter 208's slope
    column, whose law takes effect on 2025-01-01 ([effective]) and is amended to 25% on 2027-03-01: the label is the
    earliest version's "Slope over 20%", never the amendment's 25%."""
    import openpyxl

    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    _amend(folder, CH208, "[permit.slope_percent]", "value = 20.0", "values = { 2025-01-01 = 20.0, 2027-03-01 = 25.0 }")
    (tmp_path / "lot.csv").write_text(WESLEY_LOT, encoding="utf-8")
    out = tmp_path / "wh.xlsx"
    args = ("assess", "lot.csv", "--jurisdiction", "wesley-hills", "--on", "2024-06-01", "--out", str(out))
    r = _treecalc(folder, *args, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    head = list(openpyxl.load_workbook(out, read_only=True)["Trees"].iter_rows(min_row=2, max_row=2, values_only=True))
    assert "Slope over 20%" in head[0] and "Slope over 25%" not in head[0]
