"""The Excel statement, the PDF report and the GIS layers of a law read in part (Milltown Chapter 201, Manalapan
Chapter 222) say "not held (see <section>)" where a part of the law is not held (the permit, the penalties, the
fund a payment goes into), and never the 0, "no" or $0.00 the findings hold in those places; the figures the law
does give (the trees its table requires, the payment in lieu) are the table's, worked out by hand below.

Milltown, data/law/milltown/ch201_trees.toml (Tree Replacement Requirements Table, "from A to B" read as
A <= DBH <= B):
  Category 1: 2.5 (street trees) or 6 (other trees) to 12.99 -> 1 tree, $250
  Category 2: 13 to 22.99 -> 2 trees, $500
  Category 3: 23 to 32.99 -> 3 trees, $750
  Category 4: 33 or greater -> 4 trees, $1,000
  each fee divided by its trees: $250 a replacement tree in every category (readings/milltown.toml "fee").
Not held (readings/milltown.toml [[not_held]]): the permit (Ch. 201 Regulated Activities), the exemptions, the fund
the fee is paid to (Ch. 201 Tree Replacement Requirements Table), the penalties (Ch. 201 (penalties)), the adoption
date.

Manalapan, data/law/manalapan/ch222_trees.toml (A: "greater than A and up to B" read as A < DBH <= B):
  >4 to 12 -> 1 tree, $350; >12 to 18 -> 2, $700; >18 to 24 -> 3, $1,050; >24 to 36 -> 4, $1,450; >36 -> 5, $1,750
  a replacement tree's share: $350, but $1,450 / 4 = $362.50 in >24 to 36; trees planted count against the dearest.
Held: the Tree Escrow Fund (Ch. 222 replacement C). Not held: the permit (§ 222-17), the penalties
(Ch. 222 (penalties)).
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import openpyxl
import pyogrio
import pypdf
import pytest

from treecalc.cli import main

MILLTOWN_CSV = (
    "Tag,Species,DBH (in),Action,Street Tree\n"
    "M1,Red maple,5.99,removed,no\n"  # under 6, not a street tree: no category, 0
    "M2,Red maple,6,removed,no\n"  # Category 1 from 6: 1
    "M3,Red maple,12.99,removed,no\n"  # Category 1 to 12.99: 1
    "M4,Red maple,13,removed,no\n"  # Category 2 from 13: 2
    "M5,Pin oak,22.99,removed,no\n"  # Category 2 to 22.99: 2
    "M6,Pin oak,23,removed,no\n"  # Category 3 from 23: 3
    "M7,Pin oak,32.99,removed,no\n"  # Category 3 to 32.99: 3
    "M8,Pin oak,33,removed,no\n"  # Category 4, 33 or greater: 4
    "M9,Red maple,2.5,removed,yes\n"  # a street tree from 2.5: Category 1, 1
    "M10,Red maple,2.49,removed,yes\n"  # a street tree under 2.5: 0
    "M11,Pin oak,40,retain,no\n"  # retained: not counted
)
# Category 1: M2, M3, M9 = 3 trees removed; Category 2: M4, M5 = 2; Category 3: M6, M7 = 2; Category 4: M8 = 1.
# Replacement trees: 3 x 1 + 2 x 2 + 2 x 3 + 1 x 4 = 17. With 5 planted on site: 12 in lieu x $250 = $3,000.
MILLTOWN_BY_TAG = {"M1": 0, "M2": 1, "M3": 1, "M4": 2, "M5": 2, "M6": 3, "M7": 3, "M8": 4, "M9": 1, "M10": 0}
MILLTOWN_PERMIT = "not held (see Ch. 201 Regulated Activities)"
MILLTOWN_PENALTIES = "not held (see Ch. 201 (penalties))"
MILLTOWN_FUND = "not held (see Ch. 201 Tree Replacement Requirements Table)"

MANALAPAN_CSV = (
    "Tag,Species,DBH (in),Action\n"
    "N1,Red maple,4,removed\n"  # not greater than 4: 0
    "N2,Red maple,4.01,removed\n"  # >4 to 12: 1 ($350)
    "N3,Red maple,12,removed\n"  # >4 to 12: 1 ($350)
    "N4,Pin oak,12.01,removed\n"  # >12 to 18: 2 ($700: $350 each)
    "N5,Pin oak,24,removed\n"  # >18 to 24: 3 ($1,050: $350 each)
    "N6,Pin oak,24.01,removed\n"  # >24 to 36: 4 ($1,450: $362.50 each)
    "N7,Pin oak,36.01,removed\n"  # >36: 5 ($1,750: $350 each)
    "N8,Pin oak,30,retain\n"  # retained: not counted
)
# Replacement trees: 0 + 1 + 1 + 2 + 3 + 4 + 5 = 16. With 3 planted on site, against the dearest share first
# (three of N6's four $362.50): in lieu 1 x $362.50 + 12 x $350 = $362.50 + $4,200 = $4,562.50.
MANALAPAN_BY_TAG = {"N1": 0, "N2": 1, "N3": 1, "N4": 2, "N5": 3, "N6": 4, "N7": 5}
MANALAPAN_PERMIT = "not held (see § 222-17)"
MANALAPAN_PENALTIES = "not held (see Ch. 222 (penalties))"


def _assess(folder: Path, name: str, survey: str, town: str, *extra: str) -> Path:
    src = folder / f"{name}.csv"
    src.write_text(survey, encoding="utf-8")
    assert main(["assess", str(src), "--jurisdiction", town, "-q", *extra]) == 0
    return src


@pytest.fixture(scope="module")
def milltown(tmp_path_factory) -> dict[str, Path]:
    """Milltown's outputs with 5 trees planted on site, and a layer and report without the planting space."""
    d = tmp_path_factory.mktemp("milltown")
    out = {
        "xlsx": d / "m.xlsx",
        "pdf": d / "m.pdf",
        "gpkg": d / "m.gpkg",
        "bare_pdf": d / "b.pdf",
        "bare": d / "b.geojson",
    }
    out["survey"] = _assess(
        d, "m", MILLTOWN_CSV, "milltown", "--plantable", "5", "--out", str(out["xlsx"]), "--pdf", str(out["pdf"])
    )
    _assess(d, "m", MILLTOWN_CSV, "milltown", "--plantable", "5", "--out", str(out["gpkg"]))
    _assess(d, "m", MILLTOWN_CSV, "milltown", "--out", str(out["bare"]), "--pdf", str(out["bare_pdf"]))
    return out


@pytest.fixture(scope="module")
def manalapan(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("manalapan")
    out = {"xlsx": d / "n.xlsx", "pdf": d / "n.pdf", "geojson": d / "n.geojson"}
    out["survey"] = _assess(
        d, "n", MANALAPAN_CSV, "manalapan", "--plantable", "3", "--out", str(out["xlsx"]), "--pdf", str(out["pdf"])
    )
    _assess(d, "n", MANALAPAN_CSV, "manalapan", "--plantable", "3", "--out", str(out["geojson"]))
    return out


def _rows(path: Path, sheet: str) -> list[tuple[Any, ...]]:
    ws = openpyxl.load_workbook(path)[sheet]
    return [r for r in ws.iter_rows(values_only=True) if any(v is not None for v in r)]


def _items(path: Path, sheet: str, key: int = 0, value: int = 1) -> dict[Any, list[Any]]:
    """Each row's value by its item (a sheet of Item | Value | ... rows), every value an item has."""
    out: dict[Any, list[Any]] = {}
    for r in _rows(path, sheet):
        if len(r) > value:
            out.setdefault(r[key], []).append(r[value])
    return out


def _pdf_text(path: Path) -> str:
    return "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(path.read_bytes())).pages)


def _flat(text: str) -> str:
    return " ".join(text.split())


# --------------------------------------------------------------------------- the statement


def test_milltown_statement_summary_says_the_permit_is_not_held(milltown):
    lines = {(r[1]): r for r in _rows(milltown["xlsx"], "Summary") if len(r) >= 3 and r[1]}
    assert lines["Tree removal permit required"][2] == "not held for Milltown: see Ch. 201 Regulated Activities"
    assert lines["Replacement trees required"][2] == 17  # 3x1 + 2x2 + 2x3 + 1x4
    assert lines["Replacement trees planted on site"][2] == 5
    assert lines["Paid in lieu"][2] == 3000  # 12 x $250
    titles = [r[0] for r in _rows(milltown["xlsx"], "Summary")]
    assert f"Permit triggers: {MILLTOWN_PERMIT}" in titles
    assert "Permit triggers that hold: none" not in titles


def test_milltown_statement_trees_say_not_held_in_every_row(milltown):
    rows = _rows(milltown["xlsx"], "Trees")
    head = rows[1]
    permit, offence = head.index("Permit needed"), head.index("Offence (no permit held)")
    trees = rows[2:]
    assert len(trees) == 11
    assert {r[permit] for r in trees} == {MILLTOWN_PERMIT}
    assert {r[offence] for r in trees} == {MILLTOWN_PENALTIES}
    assert "the penalties: not held (see Ch. 201 (penalties))" in rows[0][0]


def test_milltown_statement_replacement_sheet(milltown):
    items = _items(milltown["xlsx"], "Replacement plan")
    assert items["Replacement trees needed"] == [17]
    assert items["Trees planted"] == [5]
    assert items["Trees paid for in lieu"] == [12]
    # a violation and the removals under a permit rest on the penalties and the permit, not held: never No / 0
    assert items["Violation"] == [MILLTOWN_PENALTIES]
    assert items["Removals under permit"] == [MILLTOWN_PERMIT]
    by_tag = {k.split(" › ")[1]: v[0] for k, v in items.items() if str(k).startswith("Trees by tag › ")}
    assert by_tag == MILLTOWN_BY_TAG
    assert len(items["Not held"]) == 5  # the five [[not_held]] of readings/milltown.toml, a row each
    titles = [r[0] for r in _rows(milltown["xlsx"], "Replacement plan")]
    assert "Planting plan (the cheapest mix that meets the requirement): no trees to plant" not in titles
    # the share of value's texts the count leaves empty are no rows
    assert "Percent note" not in items and "Policy" not in items


def test_milltown_statement_fund_sheet_names_the_fund_not_held(milltown):
    rows = _rows(milltown["xlsx"], "Fund")
    assert rows[0][0].startswith(f"Fund {MILLTOWN_FUND}")
    items = {r[0]: r for r in rows}
    assert items["Fund paid into"][1:4] == (MILLTOWN_FUND, "text", "Ch. 201 Tree Replacement Requirements Table")
    # the amount is the table's (12 x $250), the fund it goes into is not held: said beside it
    assert items["Payment in lieu to the Fund"][1] == 3000
    assert items["Payment in lieu to the Fund"][4] == f"the fund it is paid into: {MILLTOWN_FUND}"
    assert "Alternative 22f calculation" not in items and "Calculation" not in items


def test_milltown_statement_penalties_are_not_held_never_zero(milltown):
    rows = _rows(milltown["xlsx"], "Penalties")
    assert rows[0][0].endswith(MILLTOWN_PENALTIES)
    items = {r[0]: r[1] for r in rows[2:] if len(r) > 1 and r[1] is not None}
    for item in ("Penalties", "Offences definite", "Offences conditional", "Offences", "Clear cutting"):
        assert items[item] == MILLTOWN_PENALTIES, item
    values = [v for r in rows for v in r if v is not None]
    assert not [v for v in values if v in (0, "No", "no")], values
    assert not [v for v in values if str(v).endswith(": none")], values
    assert f"Offences, tree by tree: {MILLTOWN_PENALTIES}" in [r[0] for r in rows]


def test_milltown_statement_verifies(milltown, capsys):
    capsys.readouterr()
    assert main(["verify", str(milltown["xlsx"]), str(milltown["survey"])]) == 0, capsys.readouterr().out
    assert main(["verify", str(milltown["pdf"]), str(milltown["survey"])]) == 0, capsys.readouterr().out


def test_manalapan_statement_names_its_fund_and_says_permit_and_penalties_not_held(manalapan):
    lines = {r[1]: r for r in _rows(manalapan["xlsx"], "Summary") if len(r) >= 3 and r[1]}
    assert lines["Tree removal permit required"][2] == "not held for Manalapan: see § 222-17"
    assert lines["Replacement trees required"][2] == 16
    assert lines["Paid in lieu"][2] == 4562.5  # 1 x $362.50 + 12 x $350
    fund = _rows(manalapan["xlsx"], "Fund")
    assert fund[0][0].startswith("Tree Escrow Fund — Township of Manalapan, NJ, Chapter 222")
    assert "Fund paid into" not in {r[0] for r in fund}  # the Tree Escrow Fund is held
    pen = {r[0]: r[1] for r in _rows(manalapan["xlsx"], "Penalties")[2:] if len(r) > 1}
    assert pen["Offences"] == pen["Offences definite"] == MANALAPAN_PENALTIES
    rows = _rows(manalapan["xlsx"], "Trees")
    permit = rows[1].index("Permit needed")
    assert {r[permit] for r in rows[2:]} == {MANALAPAN_PERMIT}
    text = "\n".join(
        str(v)
        for sheet in ("Summary", "Replacement plan", "Fund", "Penalties")
        for r in _rows(manalapan["xlsx"], sheet)
        for v in r
    )
    assert "Tree Preservation Fund" not in text and "§208" not in text


# --------------------------------------------------------------------------- the PDF report


def test_milltown_pdf_says_not_held_and_gives_the_tables_figures(milltown):
    text = _flat(_pdf_text(milltown["pdf"]))
    assert f"Permit required {MILLTOWN_PERMIT}" in text
    assert "Replacement trees required 17" in text
    assert "$3,000.00" in text  # 12 in lieu x $250
    assert f"Payment in lieu; the fund it is paid into: {MILLTOWN_FUND}" in text
    assert f"Penalties: {MILLTOWN_PENALTIES}" in text
    # each tree's count and its permit and offence not held, in the table of trees
    assert "M8 Pin oak (QUPA) 33.00 removed 4" in text
    assert f"Approving authority: {MILLTOWN_PERMIT}" in text
    for never in (
        "Offences (trees harmed",
        "Village Engineer",
        "No planting plan: nothing to replace",
        "§208",
        "Tree Preservation Fund",
    ):
        assert never not in text, never


def test_milltown_pdf_without_the_planting_space_gives_no_amount(milltown):
    text = _flat(_pdf_text(milltown["bare_pdf"]))
    assert "Replacement trees required 17" in text
    # no planting space given: neither the payment nor the total can be worked out, and neither is $0.00
    assert not re.search(r"\$0\.00(?!\d)", text), text  # ($0.008/gal, the stormwater price, is no amount)
    assert "Total out of pocket: not determined" in text


def test_manalapan_pdf_pays_the_tree_escrow_fund(manalapan):
    text = _flat(_pdf_text(manalapan["pdf"]))
    assert "Payment to the Tree Escrow Fund $4,562.50" in text
    assert f"Permit required {MANALAPAN_PERMIT}" in text
    assert f"Penalties: {MANALAPAN_PENALTIES}" in text
    assert "Offences (trees harmed" not in text and "Tree Preservation Fund" not in text and "§208" not in text


# --------------------------------------------------------------------------- the GIS layers


def _summary(gpkg: Path) -> dict[str, Any]:
    s = pyogrio.read_dataframe(gpkg, layer="summary")
    return {n: json.loads(v) for n, v in zip(s["name"], s["value"])}


def test_milltown_gpkg_trees_say_not_held_and_carry_their_count(milltown):
    trees = pyogrio.read_dataframe(milltown["gpkg"], layer="trees")
    assert list(trees["tag"]) == [f"M{i}" for i in range(1, 12)]
    assert set(trees["permit_needed"]) == {MILLTOWN_PERMIT}
    counts = dict(zip(trees["tag"], trees["replacement_trees"]))
    assert {t: counts[t] for t in MILLTOWN_BY_TAG} == MILLTOWN_BY_TAG
    assert counts["M11"] != counts["M11"]  # retained: no count (null, read as NaN), not 0


def test_milltown_gpkg_summary_says_not_held_never_zero(milltown):
    s = _summary(milltown["gpkg"])
    assert s["permit_required"] == MILLTOWN_PERMIT
    for k in ("offences", "offences_definite", "offences_conditional", "civil_penalty_max_usd", "fine_max_usd"):
        assert s[k] == MILLTOWN_PENALTIES, k
    assert s["fund_paid_into"] == MILLTOWN_FUND
    assert s["replacement_trees_required"] == 17
    assert s["fund_in_lieu_cents"] == 300_000  # $3,000.00
    assert len(s["not_held"]) == 5


def test_milltown_geojson_sidecar_without_the_planting_space(milltown):
    sidecar = milltown["bare"].with_name("b.summary.json")
    s = json.loads(sidecar.read_text(encoding="utf-8"))
    assert s["permit_required"] == MILLTOWN_PERMIT and s["offences"] == MILLTOWN_PENALTIES
    assert s["replacement_trees_required"] == 17
    # the payment and the planting are not determined: null, never 0
    assert s["fund_in_lieu_cents"] is None and s["replacement"]["planting_cost_cents"] is None
    # the penalties' and the permit's figures: none null, 0 or false
    held_not = [k for k in s if k.startswith(("offence", "civil", "criminal", "fine_max", "fine_cond", "permit"))]
    assert len(held_not) == 11, held_not
    assert {s[k] for k in held_not} == {MILLTOWN_PENALTIES, MILLTOWN_PERMIT}


def test_manalapan_geojson_sidecar(manalapan):
    s = json.loads(manalapan["geojson"].with_name("n.summary.json").read_text(encoding="utf-8"))
    assert s["permit_required"] == MANALAPAN_PERMIT and s["offences"] == MANALAPAN_PENALTIES
    assert s["fund_in_lieu_cents"] == 456_250  # $4,562.50
    assert "fund_paid_into" not in s  # the Tree Escrow Fund is held
    layer = pyogrio.read_dataframe(manalapan["geojson"])
    counts = dict(zip(layer["tag"], layer["replacement_trees"]))
    assert {t: counts[t] for t in MANALAPAN_BY_TAG} == MANALAPAN_BY_TAG
    assert counts["N8"] != counts["N8"]  # retained: null
    assert set(layer["permit_needed"]) == {MANALAPAN_PERMIT}


@pytest.mark.parametrize(("town", "survey"), [("milltown", MILLTOWN_CSV), ("manalapan", MANALAPAN_CSV)])
def test_the_json_counts_no_offence_where_the_penalties_are_not_held(tmp_path, capsys, town, survey):
    # both towns' penalties are not held: every tree was removed without a word of a permit, yet the JSON may not say
    # "0 offences" nor "offence: false" (a finding the text does not support); it says null, and its notes why
    src = tmp_path / "lot.csv"
    src.write_text(survey, encoding="utf-8")
    capsys.readouterr()
    assert main(["assess", str(src), "--jurisdiction", town, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["offences"] is None and doc["offences_definite"] is None and doc["offences_conditional"] is None
    assert len(doc["per_tree"]) == survey.count("\n") - 1  # every tree of the survey (the header line apart)
    assert [t["offence"] for t in doc["per_tree"]] == [None] * len(doc["per_tree"])
    assert any("not held" in n for n in doc["notes"]["penalties"]), doc["notes"]["penalties"]
    # the replacement trees are held: counted (17 and 16, worked out above)
    assert doc["replacement_trees_required"] == {"milltown": 17, "manalapan": 16}[town]
