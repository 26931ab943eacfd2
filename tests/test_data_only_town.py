"""A town of an existing replacement family is a data folder alone: Birch Hollow (tests/villages/birch_hollow), a
law file and a readings file and no Python, found through ``TREECALC_TOWNS`` and assessed through
``treecalc assess --json``, ``treecalc jurisdictions``, the Excel statement, the PDF report and the app.

Birch Hollow Chapter 9 (tests/villages/birch_hollow/ordinance.txt): §9-2 a permit for a tree of 8 in DBH or more;
§9-4 A 8 to under 16 in: 1 tree or $300; B 16 to under 30 in: 2 trees or $600; C 30 in or more: 3 trees or $900;
§9-5 a tree certified hazardous is exempt; §9-6 the Tree Bank Fund.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import openpyxl
import pytest

from tests.helpers.town_pages import permit_page, site_survey
from treecalc.law import registry, towns

FOLDER = Path(__file__).parent / "villages" / "birch_hollow" / "data"

SURVEY = (
    "Tag,Species,DBH (in),Action,Hazardous\n"
    "1,Acer rubrum,7.99,removed,no\n"  # under 8 in: no class, no permit
    "2,Acer rubrum,8,removed,no\n"  # 8 <= d < 16: A, 1 tree
    "3,Quercus rubra,15.99,remove,no\n"  # A, 1 tree
    "4,Quercus rubra,16,remove,no\n"  # 16 <= d < 30: B, 2 trees
    "5,Quercus rubra,30,remove,no\n"  # 30 or more: C, 3 trees
    "6,Quercus rubra,40,remove,yes\n"  # hazardous: exempt (§9-5), 0 trees; still needs the permit (§9-2)
    "7,Acer rubrum,25,retain,no\n"  # retained: no removal
)
# replacement trees: 0 + 1 + 1 + 2 + 3 + 0 = 7; with 3 planted on site, 4 in lieu x $300 = $1,200 (every class's
# share: $300 / 1 = $600 / 2 = $900 / 3 = $300)


@pytest.fixture
def birch_hollow(tmp_path, monkeypatch):
    readings = tomllib_load(FOLDER / "readings" / "birch_hollow.toml")
    monkeypatch.setitem(registry.REGISTRY, "birch_hollow", towns.record_of("birch_hollow", readings, FOLDER))
    # a bounded child reading a survey (the app's) finds the town by its folder
    monkeypatch.setenv(towns.TOWNS_ENV, str(FOLDER))
    f = tmp_path / "birch.csv"
    f.write_text(SURVEY)
    return f


def tomllib_load(path: Path) -> dict:
    import tomllib

    with open(path, "rb") as fh:
        return tomllib.load(fh)


def test_the_town_has_no_python():
    assert not list(FOLDER.parent.rglob("*.py"))
    assert sorted(p.name for p in FOLDER.rglob("*.toml")) == ["birch_hollow.toml", "ch9_trees.toml"]


def test_the_cli_json_counts_by_class(birch_hollow, capsys):
    from treecalc.cli import main

    assert main(["assess", str(birch_hollow), "--jurisdiction", "Birch Hollow", "--json", "--plantable", "3"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["jurisdiction"] == "birch_hollow" and d["jurisdiction_name"] == "Town of Birch Hollow, Chapter 9"
    assert d["replacement_trees_by_tag"] == {"1": 0, "2": 1, "3": 1, "4": 2, "5": 3, "6": 0}
    assert d["replacement_trees_required"] == 7
    # 7 - 3 planted = 4 in lieu x $300 = $1,200
    assert d["fund_in_lieu_usd"] == 1200.0 and d["fund_in_lieu_cents"] == 120000
    # §9-2: trees 2-6 removed at 8 in or more need the permit (6, hazardous, too: §9-5 exempts replacement only)
    assert d["permit_required"] is True and d["permit_triggers"] == ["§9-2"]
    assert d["not_held"] == [
        "not held for Birch Hollow: see Ch. 9 (penalties) (the penalties for removing a tree without a permit)"
    ]
    assert not [w for w in d["warnings"] if "Croton" in w or "Wesley" in w]


def test_jurisdictions_lists_the_town(birch_hollow, capsys):
    from treecalc.cli import main

    assert main(["jurisdictions", "--json"]) == 0
    rows = {r["key"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["birch_hollow"] == {
        "key": "birch_hollow",
        "name": "Town of Birch Hollow, Chapter 9",
        "family": "count_by_class",
        "chapter": "Birch Hollow Chapter 9",
        "effective": "2024-05-01",
        "effective_placeholder": False,
        "held_from": None,
        "not_held": ["the penalties for removing a tree without a permit: see Ch. 9 (penalties)"],
    }
    assert rows["milltown"]["family"] == rows["manalapan"]["family"] == "count_by_class"
    assert rows["croton_on_hudson"]["family"] == "share_of_value" and rows["croton_on_hudson"]["not_held"] == []


def test_the_statement_and_the_pdf_are_birch_hollows(birch_hollow):
    from treecalc.assessment import assess
    from treecalc.report.content import report_data
    from treecalc.report.pdf import report_pdf
    from treecalc.report.statement import statement_bytes

    a = assess(str(birch_hollow), jurisdiction="birch_hollow", plantable=3)
    wb = openpyxl.load_workbook(io.BytesIO(statement_bytes(a)))
    cells = [str(c.value) for ws in wb for row in ws.iter_rows() for c in row if c.value is not None]
    text = "\n".join(cells)
    assert "Town of Birch Hollow, Chapter 9" in text and "Replacement trees required" in text
    assert "§9-4" in cells and "7" in cells  # 7 replacement trees
    assert "Tree Preservation Fund" not in text and "§208" not in text and "Wesley" not in text
    # its permit is held (§9-2: trees 2-6, 8 in or more, removed), its penalties are not (the readings' part)
    trees = list(wb["Trees"].iter_rows(values_only=True))
    need, offence = trees[1].index("Permit needed"), trees[1].index("Offence (no permit held)")
    assert [r[need] for r in trees[2:]] == ["No", "Yes", "Yes", "Yes", "Yes", "Yes", "No"]
    assert {r[offence] for r in trees[2:]} == {"not held (see Ch. 9 (penalties))"}
    penalties = {r[0]: r[1] for r in wb["Penalties"].iter_rows(values_only=True) if r[0]}
    assert penalties["Offences"] == penalties["Offences definite"] == "not held (see Ch. 9 (penalties))"
    import pypdf

    pdf = "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(report_pdf(report_data(a)))).pages)
    assert "Birch Hollow" in pdf and "§9-4" in pdf
    assert "Tree Preservation Fund" not in pdf and "§208-19" not in pdf


def test_the_app_assesses_a_survey_naming_birch_hollow(birch_hollow):
    said, metrics = permit_page("birch.xlsx", site_survey(SURVEY, "Birch Hollow"))
    assert "Birch Hollow" in said and "§9-2" in said, said
    # trees 2-6 (removed or to be removed, 8 in or more) need the permit (§9-2): its trigger names them
    assert "trees 2, 3, 4, 5, 6" in said, said
    # 0 + 1 + 1 + 2 + 3 + 0 = 7 replacement trees (§9-4), the figure of the metric
    counts = [v for k, v in metrics.items() if k.startswith("Replacement trees required")]
    assert counts == ["7"], metrics


def test_jurisdictions_says_each_town_and_what_is_not_held(capsys):
    from treecalc.cli import main

    assert main(["jurisdictions"]) == 0
    out = capsys.readouterr().out
    assert "milltown: Borough of Milltown, NJ, Chapter 201" in out
    # no adoption date held: the day the text was read is said, before which no date is answered
    assert (
        "  family: count_by_class; chapter: Manalapan Chapter 222; effective: no date held; held as read on "
        "2026-12-07: no earlier date is answered"
    ) in out
    assert "Wesley Hills Chapter 95; effective: no date held\n" in out  # no date, no read date: no PLACEHOLDER said
    # Croton-on-Hudson's date stands in for a filing date its Local Law does not give: said so, never as a fact
    assert (
        "  family: share_of_value; chapter: Croton-on-Hudson Chapter 208; effective: 2025-01-01 (a PLACEHOLDER: the "
        "date it took effect is not in the text read)"
    ) in out
    # Milltown's exemptions are not in the text read: said, with the section to see
    assert "  not held: the exemptions from replacement" in out and "see Ch. 201 (exemptions)" in out


def test_a_rejected_removal_leaves_the_site_count_undetermined(tmp_path, capsys):
    # Manalapan: tree 1 (14 in, over 12 up to 18) -> 2 replacement trees; row 3 (tree 2, removed, no DBH) is
    # rejected: its count is unknown, so the site's is too (2 would be a floor, not the total)
    from treecalc.cli import main

    f = tmp_path / "s.csv"
    f.write_text(
        "Tag,Common Name,DBH (in.),Action\n1,Red Maple,14,Removed\n2,Red Maple,,Removed\n3,Red Maple,,Retain\n"
    )
    main(["assess", str(f), "--jurisdiction", "manalapan", "--json", "--plantable", "0"])
    d = json.loads(capsys.readouterr().out)
    assert d["replacement_trees_required"] is None and d["fund_in_lieu_usd"] is None, d["replacement_trees_required"]
    said = [w for w in d["warnings"] if "row 3" in w]
    assert said and "none for the site" in said[0], d["warnings"]
    assert not [w for w in d["warnings"] if "row 4" in w and "none for the site" in w]  # the retained row


def test_plan_without_the_trees_planted_says_the_cost_is_not_determined(tmp_path, capsys):
    # Manalapan: removing trees 2 (20 in) and 3 (30 in) needs 3 + 4 replacement trees; what they cost depends on
    # how many the site takes ($350 or $362.50 each in lieu, C): without ‹plantable› no cost is known, not $0.00
    from treecalc.cli import main

    f = tmp_path / "p.csv"
    f.write_text(
        "Tag,Species,DBH,Action\n1,Acer rubrum,14,Removed\n2,Quercus rubra,20,Remove\n3,Quercus rubra,30,Remove\n"
    )
    rc = main(["plan", str(f), "--jurisdiction", "manalapan"])
    out, err = capsys.readouterr()
    assert rc == 2 and "$0.00" not in out, out
    assert "not determined" in err and "trees planted on site" in err, err


def test_a_not_held_part_the_outputs_do_not_know_is_refused(tmp_path, monkeypatch):
    # a [[not_held]] whose part stands beside no figure of the outputs would leave that figure printed as found
    # (0, "no"): the town's readings are refused, naming the entry and the parts known
    import shutil

    from treecalc.assessment import assess

    folder = tmp_path / "data"
    shutil.copytree(FOLDER, folder)
    readings = folder / "readings" / "birch_hollow.toml"
    readings.write_text(readings.read_text().replace('part = "penalties"', 'part = "fines"'))
    record = towns.record_of("birch_hollow", tomllib_load(readings), folder)
    monkeypatch.setitem(registry.REGISTRY, "birch_hollow", record)
    survey = tmp_path / "birch.csv"
    survey.write_text(SURVEY)
    from treecalc.law.loader import clear_caches

    clear_caches()  # the files read are kept by their path in the folder: the copy's readings, read afresh
    try:
        with pytest.raises(
            ValueError, match="part 'fines' is not one of permit, exemptions, fund, penalties, adoption"
        ):
            assess(str(survey), jurisdiction="birch_hollow")
    finally:
        clear_caches()  # and forgotten: the next test reads Birch Hollow's own
