"""The register reads Chapter 208 as the assessment does: the Fund ledger takes in forfeited bonds (§208-23C,
§208-24B), and a planting's inspection falls on the warranty the law in force on its acceptance gives it
(§208-22G: the replacements' anniversary, a replant's own period), from the data folder (``TREECALC_DATA``)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.register.conftest import PASSWORD, ROOT, staff, treecalc
from treecalc.reference.datafolder import BUNDLED_DATA_DIR, DATA_ENV

CH208 = "law/croton_on_hudson/ch208_trees.toml"


def _new(survey, db):
    staff(db, "eng")
    out = treecalc(
        "case", "new", "--survey", survey, "--fee-per-tree", "450", "--title", "14 Elm St", "--by", "eng", "--json",
        db=db, check=True,
    )  # fmt: skip
    return json.loads(out.stdout)["id"]


def _run(db, *args):
    """A verb that records (as the engineer) or reads, its JSON."""
    by = ("--by", "eng") if args[1] in ("bond", "pay", "plant", "inspect") else ()
    return json.loads(treecalc(*args, *by, "--json", db=db, check=True).stdout)


def test_a_forfeited_bond_is_a_receipt_of_the_fund_in_its_month(db_url, survey_csv):
    from treecalc.law import readings

    cid = _new(survey_csv, db_url)
    b1 = _run(db_url, "case", "bond", "post", str(cid), "--amount", "2,000.00", "--date", "2026-03-10")["id"]
    b2 = _run(db_url, "case", "bond", "post", str(cid), "--amount", "750", "--date", "2026-03-11")["id"]
    _run(db_url, "case", "pay", str(cid), "--amount", "150.25", "--date", "2026-08-03")
    _run(db_url, "case", "bond", "forfeit", str(b1), "--date", "2026-08-20")
    _run(db_url, "case", "bond", "release", str(b2), "--date", "2026-08-21")  # released: returned, no receipt
    shown = _run(db_url, "case", "show", str(cid))
    assert [(b["id"], b["status"], b["closed"]) for b in shown["bonds"]][0] == (b1, "forfeited", "2026-08-20")

    led = _run(db_url, "case", "fund", "--from", "2026-08-01", "--to", "2026-08-31")
    # August: the $150.25 payment and the $2,000.00 forfeited bond (§208-23C): $2,150.25; the released $750 is
    # no receipt
    assert led["total_usd"] == "2150.25"
    assert (led["payments"], led["forfeited_bonds"]) == (1, 1)
    assert led["by_month"] == [
        {
            "month": "2026-08",
            "usd": "2150.25",
            "payments_usd": "150.25",
            "forfeited_bonds_usd": "2000.00",
            "reversals_usd": "0.00",  # no receipt voided
        }
    ]
    assert led["by_case"] == [{"case": cid, "usd": "2150.25"}]
    section = readings("croton_on_hudson")["fund"]["forfeited_bond_sections"]  # the data's, not this test's
    assert "§208-23C" in section and "§208-24B" in section
    assert led["forfeitures"] == [
        {"bond": b1, "case": cid, "title": "14 Elm St", "date": "2026-08-20", "usd": "2000.00", "section": section}
    ]
    text = treecalc("case", "fund", "--from", "2026-08-01", "--to", "2026-08-31", db=db_url, check=True).stdout
    line = next(ln for ln in text.splitlines() if "forfeited bond" in ln and "$2,000.00" in ln)
    assert f"case {cid}" in line and "14 Elm St" in line and "2026-08-20" in line and section in line
    assert "2026-08  $2,150.25" in text

    # a forfeiture dated ahead would sit outside every ledger run until then: refused, as a payment dated ahead
    b3 = _run(db_url, "case", "bond", "post", str(cid), "--amount", "500", "--date", "2026-03-12")["id"]
    r = treecalc("case", "bond", "forfeit", str(b3), "--date", "2099-01-01", "--by", "eng", db=db_url)
    assert r.returncode == 2 and "2099-01-01" in r.stderr and "Traceback" not in r.stderr
    # the month before has none of it; the year has it once
    july = _run(db_url, "case", "fund", "--from", "2026-07-01", "--to", "2026-07-31")
    assert (july["total_usd"], july["forfeitures"], july["by_month"]) == ("0.00", [], [])
    year = _run(db_url, "case", "fund", "--from", "2026-01-01", "--to", "2026-12-31")
    assert year["total_usd"] == "2150.25" and len(year["forfeitures"]) == 1
    assert treecalc("case", "audit", "--verify", db=db_url).returncode == 0


def test_a_replant_is_inspected_two_years_after_its_own_acceptance(db_url, survey_csv):
    from treecalc.law import entry

    cid = _new(survey_csv, db_url)
    p1 = _run(db_url, "case", "plant", str(cid), "--trees", "6", "--accepted", "2025-04-15")["id"]
    _run(db_url, "case", "inspect", str(p1), "--date", "2026-04-20", "--dead", "1")
    p2 = _run(db_url, "case", "plant", str(cid), "--trees", "1", "--accepted", "2026-05-01", "--replant-of", str(p1))[
        "id"
    ]
    shown = _run(db_url, "case", "show", str(cid))
    got = {p["id"]: p for p in shown["plantings"]}
    # §208-22G: the replacements "in a healthy state on the third anniversary" of acceptance: 2025-04-15 + 3 years;
    # the replant "survived in a healthy state for two years from when ... provisionally accepted": 2026-05-01 + 2
    assert got[p1]["inspection_due"] == "2028-04-15" and got[p1]["warranty_years"] == 3
    assert got[p2]["inspection_due"] == "2028-05-01" and got[p2]["warranty_years"] == 2
    replant = entry("croton_on_hudson", "replacement.replant_warranty_years")
    assert (replant.value, replant.section) == (2, "§208-22G") and "for two years from when" in replant.text
    due = _run(db_url, "case", "due", "--from", "2028-05-01", "--to", "2028-05-31")
    assert [(d["planting"], d["inspection_due"], d["section"]) for d in due] == [(p2, "2028-05-01", "§208-22G")]
    assert _run(db_url, "case", "due", "--from", "2029-01-01", "--to", "2029-12-31") == []

    text = treecalc("case", "show", str(cid), db=db_url, check=True).stdout
    line = next(ln for ln in text.splitlines() if ln.strip().startswith(f"planting {p2}:"))
    assert "inspection due 2028-05-01" in line and "two years" in line and "§208-22G" in line
    assert f"replant of planting {p1}" in line
    # the reading is said where it is applied (docs/readings.md, data/readings/croton_on_hudson.toml)
    assert any(
        ln.strip().startswith("reading: §208-22G") and "own provisional acceptance" in ln for ln in text.split("\n")
    )
    assert treecalc("case", "audit", "--verify", db=db_url).returncode == 0


def _cli(env_data: Path | None, db: str, *args: str) -> subprocess.CompletedProcess:
    """``treecalc ARGS`` in a fresh process (the data folder is read at import), ``TREECALC_DATA`` the copy."""
    env = {**os.environ, "TREECALC_DB": db, "PYTHONPATH": str(ROOT), "TREECALC_PASSWORD": PASSWORD}
    env.pop(DATA_ENV, None)
    if env_data is not None:
        env[DATA_ENV] = str(env_data)
    return subprocess.run(
        [sys.executable, "-m", "treecalc.cli", *args], env=env, capture_output=True, text=True, timeout=300
    )


def _amend(folder: Path, table: str, new_value: str) -> None:
    path = folder / CH208
    text = path.read_text(encoding="utf-8")
    head = text.index(f"[{table}]\n")
    body = text.index("\nvalue = ", head)
    end = text.index("\n", body + 1)
    path.write_text(text[: body + 1] + new_value + text[end:], encoding="utf-8")


def test_the_inspection_follows_the_warranty_of_the_law_in_force_on_the_acceptance(tmp_path, survey_csv):
    # an amended data folder: §208-22G's three years become two from 2026-01-01, a replant's two years become one
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    _amend(folder, "replacement.warranty_years", "values = { 2025-01-01 = 3, 2026-01-01 = 2 }")
    _amend(folder, "replacement.replant_warranty_years", "value = 1")
    db = f"sqlite:///{tmp_path / 'register.db'}"
    cid = _new(survey_csv, db)

    def plant(*args: str) -> int:
        r = _cli(folder, db, "case", "plant", str(cid), "--by", "eng", "--json", *args)
        assert r.returncode == 0, r.stderr
        return int(json.loads(r.stdout)["id"])

    before = plant("--trees", "2", "--accepted", "2025-06-01")  # three years then: 2028-06-01
    after = plant("--trees", "3", "--accepted", "2026-06-01")  # two years from 2026-01-01: 2028-06-01
    replant = plant("--trees", "1", "--accepted", "2026-10-01", "--replant-of", str(after))  # one year: 2027-10-01
    shown = _run(db, "case", "show", str(cid))
    got = {p["id"]: (p["inspection_due"], p["warranty_years"]) for p in shown["plantings"]}
    assert got == {before: ("2028-06-01", 3), after: ("2028-06-01", 2), replant: ("2027-10-01", 1)}

    # the assessment under the same copy says the amended warranty too
    r = _cli(folder, db, "assess", str(survey_csv), "--fee-per-tree", "450", "--on", "2026-06-01", "--json")
    assert r.returncode == 0, r.stderr
    notes = json.dumps(json.loads(r.stdout)["notes"])
    assert "for two years" in notes and "for three years" not in notes


def test_a_planting_before_the_law_held_is_refused_naming_it(db_url, survey_csv):
    cid = _new(survey_csv, db_url)
    r = treecalc("case", "plant", str(cid), "--trees", "1", "--accepted", "2024-06-01", "--by", "eng", db=db_url)
    assert r.returncode == 2
    assert "2024-06-01" in r.stderr and re.search(r"effective 2025-01-01", r.stderr), r.stderr
    assert "Traceback" not in r.stderr
    assert _run(db_url, "case", "show", str(cid))["plantings"] == []


def test_a_data_copy_without_the_replant_period_is_refused_naming_the_entry(tmp_path, survey_csv):
    # a data folder copied before Chapter 208's file held a replant's period: refused when the law is loaded, by the
    # first command that reads it, naming the entry and where to copy it from; no planting is recorded, so none is
    # ever scheduled on the first replacements' period (before: the first planting was recorded, the replant refused)
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    path = folder / CH208
    text = path.read_text(encoding="utf-8")
    head = text.index("[replacement.replant_warranty_years]\n")
    path.write_text(text[:head] + text[text.index("\n[", head) + 1 :], encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'register.db'}"
    cid = _new(survey_csv, db)
    r = _cli(folder, db, "case", "plant", str(cid), "--trees", "2", "--accepted", "2026-06-01", "--by", "eng")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"{path}: lacks the entry [replacement.replant_warranty_years] (§208-22G)" in r.stderr, r.stderr
    assert f"copy it from {BUNDLED_DATA_DIR / CH208}" in r.stderr
    assert _run(db, "case", "show", str(cid))["plantings"] == []
