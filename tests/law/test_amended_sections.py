"""Chapter 95's sections renumbered in a copy of the data folder: every section the Wesley Hills rules cite is the
one the data gives, the law file's entries (§95-3A(1)(c)-(e)) and the readings' ``[sections]`` (the exceptions and
deemed permits, which state no number), never one written in the code.

The copy renumbers §95-3 as §95-9 (a section no version of Chapter 95 has), so a §95-9 in an output can only have
come from the amended data.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from treecalc.law import clear_caches
from treecalc.reference import datafolder
from treecalc.reference.datafolder import BUNDLED_DATA_DIR
from treecalc.report.json import assessment_json

CH95 = "law/wesley_hills/ch95_clearing.toml"
READINGS = "readings/wesley_hills.toml"

#: (file, table, new section): each table's ``section`` line is rewritten in the copy.
RENUMBERED = [
    (CH95, "permit.measured_above_ground_in", "§95-9A(1)"),
    (CH95, "permit.vacant_lot_min_dbh_in", "§95-9A(1)(c)"),
    (CH95, "permit.large_lot_min_dbh_in", "§95-9A(1)(d)"),
    (CH95, "permit.lot_line_min_dbh_in", "§95-9A(1)(e)"),
    (READINGS, "sections.operation", "§95-9A(1)(a)"),
    (READINGS, "sections.building_permit", "§95-9C(1)"),
    (READINGS, "sections.subdivision_plans_approved", "§95-9C(2)"),
    (READINGS, "sections.site_plan_approved", "§95-9C(3)"),
    (READINGS, "sections.waiver", "§95-9D(1)"),
    (READINGS, "sections.village_work", "§95-9D(2)"),
    (READINGS, "sections.normal_farming", "§95-9D(3)"),
    (READINGS, "sections.lawns_and_gardens", "§95-9D(4)"),
]

#: Tree 1, 18 in removed, its distance to the residence blank: (c) on the lot assumed vacant (no residence given),
#: (d) assumed farther than 200 ft on a lot whose area is not given; tree 2, 7 in removed, its lot-line cell blank:
#: (e), assumed within 20 ft. Approved subdivision plans are given: the §95-3C(2) exception is applied.
LOT = (
    "tag,species,dbh_in,action,distance_to_residence_ft,within_20ft_of_lot_line\n"
    "1,Quercus alba,18,removed,,no\n"
    "2,Acer rubrum,7,removed,50,\n"
)


def _renumber(folder: Path, rel: str, table: str, section: str) -> None:
    """Set the ``section`` of ``[table]`` in the copy's file ``rel``."""
    p = folder / rel
    s = p.read_text(encoding="utf-8")
    start = s.index(f"\n[{table}]\n")
    end = s.find("\n[", start + 1)
    end = len(s) if end < 0 else end
    hit = re.compile(r"^section = .*$", re.M).search(s, start, end)
    assert hit, f"{rel}: [{table}] has no section"
    p.write_text(s[: hit.start()] + f'section = "{section}"' + s[hit.end() :], encoding="utf-8")


def _assess(lot: Path, folder: Path) -> tuple[dict[str, Any], str]:
    """The JSON and the CLI text of the lot assessed under Chapter 95 read from ``folder`` (the JSON with the
    permit's approving authority, which the app's permit page says)."""
    from treecalc.assessment import assess
    from treecalc.cli.assess import render_text

    saved = datafolder.DATA_DIR
    datafolder.DATA_DIR = folder
    clear_caches()
    try:
        a = assess(str(lot), jurisdiction="wesley_hills", site={"subdivision_plans_approved": True})
        return {**assessment_json(a), "approving_authority": a.permit.approving_authority}, render_text(a)
    finally:
        datafolder.DATA_DIR = saved
        clear_caches()


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[dict[str, Any], str]]:
    tmp = tmp_path_factory.mktemp("sections")
    lot = tmp / "lot.csv"
    lot.write_text(LOT, encoding="utf-8")
    folder = tmp / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    for rel, table, section in RENUMBERED:
        _renumber(folder, rel, table, section)
    return {"bundled": _assess(lot, BUNDLED_DATA_DIR), "renumbered": _assess(lot, folder)}


def test_the_bundled_data_never_says_the_new_numbers(outputs):
    d, text = outputs["bundled"]
    assert d["permit_triggers"] == ["§95-3A(1)(c)", "§95-3A(1)(d)", "§95-3A(1)(e)"]
    assert "§95-9" not in json.dumps(d, ensure_ascii=False) + text


def test_the_triggers_and_their_assumptions_cite_the_entries(outputs):
    d, text = outputs["renumbered"]
    assert d["permit_triggers"] == ["§95-9A(1)(c)", "§95-9A(1)(d)", "§95-9A(1)(e)"]
    rows = {r["tag"]: r for r in d["per_tree"]}
    # tree 1's lot-line cell says no: not within 20 ft, so no (e) (the column's own name is the law's 20 ft)
    assert rows["1"]["permit_triggers"] == "§95-9A(1)(c); §95-9A(1)(d)"
    assert rows["2"]["permit_triggers"] == "§95-9A(1)(e)"
    said = d["assumptions"]
    assert (
        "1 tree(s) without distance_to_residence_ft are assumed farther than 200 ft from a residence (§95-9A(1)(d))"
        in said
    )
    assert "1 tree(s) without within_20ft_of_lot_line are assumed within 20 ft of a lot line (§95-9A(1)(e))" in said
    assert d["approving_authority"] == "Planning Board (clearing permit, Wesley Hills Chapter 95, §95-9A(1))"
    required = [ln for ln in d["lines"] if ln["item"] == "Clearing permit required (Wesley Hills Ch. 95)"]
    assert [ln["section"] for ln in required] == ["§95-9A(1)"]
    assert "§95-9A(1)(e)" in text


def test_the_exceptions_and_the_sections_applied_cite_the_readings(outputs):
    d, _ = outputs["renumbered"]
    assert d["permit_exceptions"] == ["§95-9C(2)"]
    texts = [r["reading"] for r in d["readings"]]
    assert texts, "no readings in the output"
    assert "§95-9A(1): diameters are measured 54 inches above ground, which is DBH (4.5 ft)." in texts
    assert any(t.startswith("§95-9A(1)(c)-(e) 'inches or more in diameter'") for t in texts)
    (exceptions,) = [t for t in texts if t.startswith("Exceptions read from the text:")]
    for words in (
        "§95-9D(2) operations by or for the Village",
        "§95-9C(2) approved subdivision construction plans",
        "§95-9C(1) (building permit) and §95-9C(3) (approved site plan)",
        "§95-9D(1), (4) concern excavation",
    ):
        assert words in exceptions
    assert any(t.startswith("§95-9D(3) (the chapter does not prohibit") for t in texts)


def test_the_offence_rule_and_the_sections_applied_read_the_renumbered_data(tmp_path):
    """The module-level readings (PEP 562) are read from the data folder when asked for."""
    import treecalc.rules.wesley_hills as wh

    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    for rel, table, section in RENUMBERED:
        _renumber(folder, rel, table, section)
    saved = datafolder.DATA_DIR
    datafolder.DATA_DIR = folder
    clear_caches()
    try:
        applied, rule = wh.SECTIONS_APPLIED, wh.OFFENCE_RULE
    finally:
        datafolder.DATA_DIR = saved
        clear_caches()
    assert applied == [
        "§95-9A(1)(c)",
        "§95-9A(1)(d)",
        "§95-9A(1)(e)",
        "§95-9C(2)",
        "§95-9D(2)",
        "§95-9D(3)",
        "Ch. 95 penalties A",
        "Ch. 95 penalties B",
    ]
    assert "removed where §95-9A(1) required a clearing permit" in rule


def test_the_excavation_check_cites_the_renumbered_entries(tmp_path):
    """The excavation rules read their law at import: a fresh process on the renumbered copy (TREECALC_DATA)."""
    import os
    import subprocess
    import sys

    from treecalc.reference.datafolder import DATA_ENV

    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    for rel, table, section in RENUMBERED:
        _renumber(folder, rel, table, section)
    excavation = "law/wesley_hills/ch95_excavation.toml"
    for table, section in (
        ("cellar_multiple", "§95-9C(1)"),
        ("waiver_volume", "§95-9D(1)"),
        ("slope_rise", "§95-9E(1)(a)"),
        ("rock_slope", "§95-9E(1)(b)"),
        ("topsoil_depth", "§95-9E(1)(c)"),
    ):
        _renumber(folder, excavation, table, section)
    code = (
        "import json\n"
        "from treecalc.rules.wesley_hills import excavation as x\n"
        "c = x.wesley_hills_building_permit_check(40, 30, 8, 900, 700)\n"
        "notes, readings = x._wesley_hills_readings(True)\n"
        "try:\n"
        "    x.wesley_hills_topsoil_cy(100, 2)\n"
        "except ValueError as e:\n"
        "    topsoil = str(e)\n"
        "print(json.dumps({'sections': [e['section'] for e in c.explanations], 'notes': c.notes + notes,\n"
        "    'slope': x.wesley_hills_slope_check(1, 1)['section'],\n"
        "    'rock': x.wesley_hills_slope_check(7, 1, rock=True)['section'], 'topsoil': topsoil}))\n"
    )
    env = {**os.environ, DATA_ENV: str(folder)}
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    # two comparisons of the building-permit rule (fill, excavated material), then the waiver's own entry
    assert got["sections"][:2] == ["§95-9C(1)", "§95-9C(1)"]
    assert any(n.startswith("§95-9C(1) read as: the fill added") for n in got["notes"])
    assert any(n.startswith("§95-9A(1)(c)-(e): tree removal triggers") for n in got["notes"])
    assert "Wesley Hills section numbers (§95-9A, §95-9C(1), §95-9D(1), §95-9E) are reconstructed" in " ".join(
        got["notes"]
    )
    assert (got["slope"], got["rock"]) == ("§95-9E(1)(a)", "§95-9E(1)(b)")
    assert "minimum of §95-9E(1)(c), got 2" in got["topsoil"]
    # a fill is an operation (§95-3A(1)(a)); topsoil placed alone may be the lawns-and-gardens exception (§95-3D(4))
    cli = [sys.executable, "-m", "treecalc.cli", "excavation", "check", "--jurisdiction", "wesley-hills", "--json"]
    fill = subprocess.run([*cli, "--fill", "200:2"], env=env, capture_output=True, text=True, timeout=120)
    assert fill.returncode == 0, fill.stderr
    assert json.loads(fill.stdout)["triggers"] == ["§95-9A(1)(a)"]
    top = subprocess.run([*cli, "--place-topsoil", "100:2"], env=env, capture_output=True, text=True, timeout=120)
    assert top.returncode == 0, top.stderr
    assert "§95-9D(4)" in top.stdout
    assert "§95-3D(4)" not in top.stdout and "§95-3A(1)(a)" not in fill.stdout + top.stdout
