"""``treecalc assess``: text and JSON output (the survey reader is stood in for)."""

import json
import math
from types import SimpleNamespace

import pandas as pd
import pytest

import treecalc.assessment as assessment  # noqa: E402
from tests.helpers.rules import make_trees
from treecalc.cli import main  # noqa: E402


@pytest.fixture
def fake_survey(monkeypatch):
    rows = [{"species_code": "ACRU", "dbh_in": 12, "action": "removed"}] * 3
    s = SimpleNamespace(
        trees=make_trees(rows),
        rejected=pd.DataFrame(),
        site={},
        site_assumptions=[],
        warnings=[],
        rows_read=3,
        source={},
    )
    monkeypatch.setattr(
        assessment, "_load_survey", lambda path, progress=None, species_map=None, zone=None, column_map=None: s
    )
    import treecalc.ingest

    # the CLI reads the survey itself, in a bounded child process (treecalc.ingest.limits)
    monkeypatch.setattr(treecalc.ingest, "read_survey", lambda path, **kw: s)
    return s


def test_json(fake_survey, capsys):
    rc = main(
        [
            "assess",
            "x.xlsx",
            "--json",
            "--site",
            "subdividable=true",
            "--replacement-species",
            "ACRU",
            "--replacement-dbh",
            "12",
            "--replacement-cost",
            "900",
            "--plantable",
            "2",
        ]
    )
    assert rc == 0
    j = json.loads(capsys.readouterr().out)
    for key in (
        "jurisdiction",
        "rows_read",
        "trees",
        "rejected",
        "trees_removed",
        "permit_required",
        "permit_triggers",
        "replacement_required",
        "replacement_percent",
        "value_basis",
        "removed_value_usd",
        "required_value_usd",
        "replacement",
        "fund_in_lieu_usd",
        "civil_penalty_max_usd",
        "civil_penalty_doubled",
        "criminal_fine_max_usd",
        "fine_max_usd",
        "lines",
        "assumptions",
        "warnings",
    ):
        assert key in j
    # 120% of 3 x 127.11 (ACRU 12 in by hand, tests/test_assessment.py) = 381.33 x 1.2 = 457.596 -> 457.60;
    # ceil(457.60 / 127.11) = 4 needed, 2 planted, 2 in lieu x $450 placeholder = $900
    assert j["required_value_usd"] == 457.6 and j["replacement"]["trees_in_lieu"] == 2
    assert j["fund_in_lieu_usd"] == 900.0
    assert j["civil_penalty_max_usd"] == 4500  # 3 x $1,500 (§208-29B(2))


def test_text(fake_survey, capsys):
    assert main(["assess", "x.xlsx", "--site", "subdividable=true", "--days", "2"]) == 0
    out = capsys.readouterr().out
    assert "§208-19A(2)" in out and "§208-22F" in out and "Civil penalty, maximum: $9,000" in out
    assert "Assumptions" in out and "Value basis" in out


def test_errors_are_one_line(fake_survey, capsys):
    assert main(["assess", "x.xlsx", "--value-basis", "yearly"]) == 2
    assert capsys.readouterr().err.startswith("error: unknown value basis")


# -- --out (from the review of the law engine) ----------------------------------------------------------------------------------
def test_out_bad_folder_and_extension_are_one_clean_error(fake_survey, capfd, tmp_path):
    assert main(["assess", "x.xlsx", "--out", str(tmp_path / "missing" / "x.xlsx")]) == 2
    err = capfd.readouterr().err
    assert err.startswith("error: --out") and "does not exist" in err and "Exception ignored" not in err
    assert main(["assess", "x.xlsx", "--out", str(tmp_path / "x.csv")]) == 2
    assert ".xlsx" in capfd.readouterr().err and not (tmp_path / "x.csv").exists()
    out = tmp_path / "s.xlsx"
    assert main(["assess", "x.xlsx", "--out", str(out)]) == 0
    assert out.read_bytes()[:2] == b"PK" and [p.name for p in tmp_path.iterdir()] == ["s.xlsx"]


def test_cli_validation_messages(fake_survey, capsys, tmp_path):
    bad = tmp_path / "fees.toml"
    bad.write_text('basis = "per_tree"\nfee_per_tree_usd = "1"\nmultiplier = = 2\n')
    for args, msg in (
        [["--days", "2.5"], "--days must be a whole number"],
        [["--replacement-percent", "nan"], "--replacement-percent"],
        [["--plantable", "-1"], "--plantable"],
        [["--plantable-area", "-5"], "--plantable-area"],
        [["--fee-schedule", str(bad)], f"fee schedule {bad}: invalid TOML at line 3"],
        [["--fee-schedule", str(tmp_path / "nope.toml")], f"fee schedule {tmp_path / 'nope.toml'} not found"],
        [["--site", "violation=maybe"], "site fact violation"],
    ):
        assert main(["assess", "x.xlsx", *args]) == 2, args
        assert msg in capsys.readouterr().err, args


def test_cli_replacement_height(fake_survey, capsys):
    assert (
        main(
            [
                "assess",
                "x.xlsx",
                "--json",
                "--site",
                "subdividable=true",
                "--replacement-species",
                "pine",
                "--replacement-dbh",
                "2",
                "--replacement-height",
                "6",
                "--replacement-cost",
                "300",
            ]
        )
        == 0
    )
    j = json.loads(capsys.readouterr().out)
    assert j["replacement"]["species_code"] == "PI2" and j["options"]["replacement_height_ft"] == 6.0
    assert math.isfinite(j["required_value_usd"])


def test_every_option_flag_reaches_assess_under_its_keyword(fake_survey, monkeypatch, capsys):
    """The dest of each option flag is the keyword of assess() it sets (the CLI passes them by name)."""
    from dataclasses import fields

    seen: dict = {}
    real = assessment.assess

    def spy(survey, **kw):
        seen.update(kw)
        return real(survey, **kw)

    monkeypatch.setattr(assessment, "assess", spy)
    monkeypatch.delenv("TREECALC_DB", raising=False)
    flags = ["--violation", "--application-pending", "--clear-cutting", "--days", "3", "--value-basis", "appraised"]
    flags += ["--replacement-percent", "130", "--replacement-species", "ACRU", "--replacement-dbh", "3"]
    flags += ["--replacement-height", "6", "--replacement-cost", "450", "--plantable-area", "400", "--size-waiver"]
    assert main(["assess", "x.xlsx", "--json", *flags, "--fee-per-tree", "700"]) == 0
    capsys.readouterr()
    given = {
        "size_waiver": True,
        "violation": True,
        "application_pending": True,
        "clear_cutting": True,
        "continuing_days": 3,
        "value_basis": "appraised",
        "replacement_percent": 130.0,
        "replacement_species": "ACRU",
        "replacement_dbh_in": 3.0,
        "replacement_height_ft": 6.0,
        "replacement_cost_usd": "450",
        "plantable_area_sqft": 400.0,
        "fee_per_tree_usd": "700",
        "plantable": None,
        "fee_schedule": None,
    }
    assert {k: seen[k] for k in given} == given
    # the options no flag sets are left to assess()'s defaults; the register's fee schedule in force is given
    # only where a register is configured (TREECALC_DB or --db: not here)
    options = {f.name for f in fields(assessment.AssessOptions)}
    assert options - set(seen) == {"replacement_stock", "in_lieu_policy", "fee_schedule_in_force"}


# every Chapter 208 flag of `assess`, with a value where it takes one (Wesley Hills Chapter 95 reads none of them)
CROTON_FLAGS = [
    ["--violation"],
    ["--application-pending"],
    ["--clear-cutting"],
    ["--replacement-percent", "150"],
    ["--replacement-species", "ACRU"],
    ["--replacement-dbh", "3"],
    ["--replacement-height", "6"],
    ["--replacement-cost", "450"],
    ["--plantable", "2"],
    ["--plantable-area", "400"],
    ["--fee-per-tree", "300"],
    ["--size-waiver"],
]


@pytest.mark.parametrize("flag", CROTON_FLAGS, ids=lambda f: f[0])
def test_a_croton_flag_with_wesley_hills_is_an_error_naming_it(fake_survey, capsys, flag):
    from treecalc.cli.assess import _flag
    from treecalc.law import cites
    from treecalc.law.registry import by_key, said

    # before: exit 0 and Chapter 95's findings, the flag dropped without a word
    assert main(["assess", "x.xlsx", "--jurisdiction", "wesley-hills", *flag]) == 2
    out, err = capsys.readouterr()
    name = flag[0]
    held = cites.sections("croton_on_hudson")
    section = next(said(s, held) for k, s in by_key("croton_on_hudson").options.items() if _flag(k) == name)
    assert out == "" and err == (
        f"error: {name} is a Croton-on-Hudson Chapter 208 option ({section}): Wesley Hills Chapter 95 has no "
        "violation standard, replacement, tree fund or doubling, so it would not be used; leave it out, or give "
        "--jurisdiction croton-on-hudson\n"
    )


def test_a_croton_flag_with_wesley_hills_from_the_site_sheet_is_an_error(fake_survey, capsys, tmp_path):
    fake_survey.site["jurisdiction"] = "wesley-hills"  # the law named by the survey, not by a flag
    fee = tmp_path / "fee.toml"
    from treecalc.reference.datafolder import BUNDLED_DATA_DIR

    fee.write_text((BUNDLED_DATA_DIR / "law" / "croton_on_hudson" / "fee_schedule.toml").read_text())
    argv = ["assess", "x.xlsx", "--replacement-percent", "150", "--fee-schedule", str(fee), "--days", "3"]
    # before: exit 0 with a warning for the percentage and nothing for the fee schedule
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "error: --replacement-percent, --fee-schedule are Croton-on-Hudson Chapter 208 options "
        "(§208-22F replacement percentage; §208-24C Tree Preservation Fund): Wesley Hills Chapter 95 has no "
    ), err
    assert "--days" not in err  # days of a continuing violation have a Chapter 95 meaning (penalties B)
    # without them, the same survey is assessed under Chapter 95: 3 removals, 12 in each
    assert main(["assess", "x.xlsx", "--days", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["jurisdiction"] == "wesley_hills"


def test_a_croton_site_fact_with_wesley_hills_is_an_error_naming_it(fake_survey, capsys):
    # Chapter 95 reads has_residence (§95-3A(1)(c)) but not subdividable or department_approval (§208-19A(2),
    # §208-5C/D): before, they were dropped without a word and the exit was 0
    argv = ["assess", "x.xlsx", "--site", "subdividable=false", "--site", "has_residence=true"]
    assert main([*argv, "--site", "department_approval=true", "--jurisdiction", "wesley-hills"]) == 2
    assert capsys.readouterr().err == (
        # each with its section, from the chapter's [site_why] (before: no section)
        "error: --site subdividable (§208-19A(2)), --site department_approval (§208-5C, §208-14) are site facts of "
        "Croton-on-Hudson Chapter 208 "
        "that Wesley Hills Chapter 95 does not read, so they would not be used; leave them out, or give "
        "--jurisdiction croton-on-hudson\n"
    )
    # the jurisdiction given as a site fact: the same check, after the assessment, before any output
    assert main([*argv, "--site", "jurisdiction=wesley-hills"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(
        "error: --site subdividable (§208-19A(2)) is a site fact of Croton-on-Hudson Chapter 208"
    )
    # the facts Chapter 95 reads, the law and the coordinate system pass
    ok = ["--site", "has_residence=true", "--site", "crs=EPSG:2263", "--jurisdiction", "wesley-hills", "--json"]
    assert main(["assess", "x.xlsx", *ok]) == 0
    assert json.loads(capsys.readouterr().out)["jurisdiction"] == "wesley_hills"


def test_a_site_fact_spelt_as_a_synonym_is_checked_as_its_field_with_wesley_hills(fake_survey, capsys):
    # --site takes the Site sheet's spellings ("lot area", "has residence", "village": treecalc.ingest.site);
    # before: each was refused as "a site fact of Croton-on-Hudson Chapter 208", though Chapter 95 reads
    # lot_area_acres (§95-3A(1)(d)) and has_residence (§95-3A(1)(c)) and every law reads the jurisdiction
    ok = ["--site", "lot area=0.5", "--site", "has residence=yes", "--site", "village=wesley hills"]
    assert main(["assess", "x.xlsx", *ok, "--json"]) == 0
    j = json.loads(capsys.readouterr().out)
    assert j["jurisdiction"] == "wesley_hills"
    # both were given, so neither is assumed (with site={} both are: "the lot area is assumed to be 1.5 acres
    # or more", "the lot is assumed vacant")
    assert not any("lot area is assumed" in a or "assumed vacant" in a for a in j["assumptions"]), j["assumptions"]
    # a synonym of a fact Chapter 95 does not read is refused, named as the user wrote it
    assert main(["assess", "x.xlsx", "--jurisdiction", "wesley-hills", "--site", "can be subdivided=no"]) == 2
    assert capsys.readouterr().err.startswith(
        "error: --site can be subdivided (§208-19A(2)) is a site fact of Croton-on-Hudson Chapter 208 that Wesley"
    )
    # a name no law knows is the unknown field it is, not "a site fact of Croton-on-Hudson Chapter 208"
    assert main(["assess", "x.xlsx", "--jurisdiction", "wesley-hills", "--site", "colour=green"]) == 2
    assert capsys.readouterr().err.startswith("error: --site: unknown site field 'colour'")


def test_a_wesley_hills_site_fact_with_croton_is_an_error_naming_it(fake_survey, capsys):
    # Chapter 208 reads neither vacant_lot (§95-3A(1)(c)) nor lot_area_acres (§95-3A(1)(d)): before, a Wesley Hills
    # survey assessed without --jurisdiction (Croton-on-Hudson assumed) dropped them without a word, exit 0
    argv = ["assess", "x.xlsx", "--site", "vacant_lot=yes", "--site", "lot area=2", "--site", "has_residence=no"]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (
        "error: --site vacant_lot (§95-3A(1)(c)), --site lot area (§95-3A(1)(d)) are site facts of Wesley Hills "
        "Chapter 95 that Croton-on-Hudson "
        "Chapter 208 does not read, so they would not be used; leave them out, or give --jurisdiction wesley-hills\n"
    )
    # named with the flag: the same before the survey is read
    assert main([*argv, "--jurisdiction", "croton-on-hudson"]) == 2
    assert capsys.readouterr().err.startswith("error: --site vacant_lot (§95-3A(1)(c)), --site lot area")
    # the facts Chapter 208 reads pass (has_residence: §208-19A(2))
    assert main(["assess", "x.xlsx", "--site", "has_residence=no", "--site", "crs=EPSG:2263", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["jurisdiction"] == "croton_on_hudson"
    # and with --jurisdiction wesley-hills the Chapter 95 facts are read
    assert main([*argv, "--jurisdiction", "wesley-hills", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["jurisdiction"] == "wesley_hills"


def test_an_output_naming_the_survey_read_is_refused_and_the_survey_kept(capsys, tmp_path):
    # the survey written over by its own statement would be lost: refused before any work, by any path to it
    survey = tmp_path / "lot.xlsx"
    pd.DataFrame({"Tag": [1], "Species": ["Red maple"], "DBH (in)": [12], "Action": ["Remove"]}).to_excel(
        survey, index=False
    )
    before = survey.read_bytes()
    (tmp_path / "link.xlsx").symlink_to(survey)
    assert main(["assess", str(survey), "--out", str(tmp_path / "link.xlsx")]) == 2
    assert "is the survey being read" in capsys.readouterr().err
    assert survey.read_bytes() == before
