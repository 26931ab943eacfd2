"""The assessment's JSON built column-wise (treecalc/report/json.py, issue 12) is the JSON built row by row.

The reference below is the per-row conversion ``Assessment.to_json`` used before (``DataFrame.to_dict``
records, each value made plain); the columnar builder must give the same text, key order included,
on the bundled sample and on a generated 2,000-tree survey with rejected rows, in both jurisdictions.
"""

from __future__ import annotations

import json
import random
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from treecalc.assessment import assess
from treecalc.reference.data import SAMPLE_SURVEY
from treecalc.report.json import assessment_json, records
from treecalc.schema import TREE_JSON_COLUMNS


def _ref_plain(v: Any) -> Any:
    if isinstance(v, np.bool_):
        return bool(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, (np.floating, Decimal)):
        return float(v)
    if isinstance(v, (list, tuple)):
        return [_ref_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _ref_plain(x) for k, x in v.items()}
    return v


def _ref_records(df: pd.DataFrame | None) -> list[dict[str, Any]]:
    """The per-row conversion the columnar one replaces."""
    if df is None or not len(df):
        return []
    out = df.astype(object).where(df.notna(), None)
    return [{k: _ref_plain(v) for k, v in r.items()} for r in out.to_dict(orient="records")]


def _text(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, default=str)


def _write_survey(path: Path, n: int = 2000) -> None:
    """A realistic survey: title row, header with units, misspelt species, multi-stem and bad DBH, flags, actions."""
    import xlsxwriter

    rnd = random.Random(7)
    species = ["Acer rubrum", "Red Mapel", "Quercus rubra", "White oak", "Tsuga canadensis", "Ailanthus altissima"]
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet("Trees")
    ws.write_string(0, 0, "Generated survey")
    for j, h in enumerate(["Tag #", "Species", "DBH (in)", "Condition", "Action", "Street Tree", "Landmark", "Notes"]):
        ws.write_string(1, j, h)
    for i in range(n):
        r = i + 2
        ws.write_string(r, 0, f"T{i + 1}")
        ws.write_string(r, 1, rnd.choice(species))
        if i % 41 == 0:
            ws.write_string(r, 2, f"{rnd.randint(4, 20)}, {rnd.randint(3, 12)}")
        elif i % 97 == 0:
            ws.write_string(r, 2, "twelve")  # rejected: the rejected_rows records
        else:
            ws.write_number(r, 2, round(rnd.uniform(2, 48), 1))
        ws.write_string(r, 3, rnd.choice(["Good", "Fair", "Poor"]))
        ws.write_string(r, 4, rnd.choice(["Retain", "Remove", "Removed", "Topped", "retain", ""]))
        if i % 13 == 0:
            ws.write_string(r, 5, "X")
        if i % 211 == 0:
            ws.write_string(r, 6, "Y")
        if i % 29 == 0:
            ws.write_string(r, 7, "near drive")
    wb.close()


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("json") / "survey_2000.xlsx"
    _write_survey(path)
    return path


@pytest.mark.parametrize("jurisdiction", ["croton_on_hudson", "wesley_hills"])
@pytest.mark.parametrize("which", ["sample", "generated"])
def test_json_is_the_row_by_row_json(which: str, jurisdiction: str, generated: Path) -> None:
    a = assess(SAMPLE_SURVEY if which == "sample" else generated, jurisdiction=jurisdiction)
    new = assessment_json(a)
    from treecalc.models.benefits import shown_dollars

    shown = shown_dollars(
        a.trees
    )  # the benefit dollars as every output shows them (tests/models/test_benefit_cents.py)
    trees = shown[[c for c in TREE_JSON_COLUMNS if c in shown]]
    if "offence_depends_on" in shown:
        trees = trees.assign(depends_on=shown["offence_depends_on"])
    expected = dict(new)
    expected["per_tree"] = _ref_records(trees)
    expected["rejected_rows"] = _ref_records(a.rejected)
    expected["offence_rows"] = _ref_plain(list(a.penalties.per_tree or []))
    expected["not_offences"] = _ref_plain(list(a.penalties.not_offences or []))
    assert _text(new) == _text(expected)
    # the test can fail: it sees every tree and the rejected rows (sample: 39 trees, tag 17 'twelve' rejected)
    assert len(new["per_tree"]) == len(a.trees) > 0 and new["rejected_rows"]
    if which == "sample":
        assert (new["trees"], new["rejected"]) == (39, 1)


def test_records_keep_types_and_missing_values() -> None:
    """Each dtype's values come out as the row-wise conversion gives them: ints stay ints, NaN/NaT/NA become None,
    numpy scalars and Decimals inside object columns become Python numbers, lists stay lists."""
    df = pd.DataFrame(
        {
            "i": np.array([1, 2, 3], dtype=np.int64),
            "f": [1.5, np.nan, 2.0],
            "b": [True, False, True],
            "o": [np.int64(4), Decimal("2.50"), None],
            "l": [["§208-19A(1)"], [], ["a", np.float64(1.25)]],
            "n": pd.array([1, None, 3], dtype="Int64"),
            "s": pd.array(["x", None, "z"], dtype="string"),
            "t": pd.to_datetime(["2024-01-02", None, "2024-03-04"]),
        }
    )
    got = records(df)
    assert _text(got) == _text(_ref_records(df))
    assert got[1] == {"i": 2, "f": None, "b": False, "o": 2.5, "l": [], "n": None, "s": None, "t": None}
    assert type(got[0]["i"]) is int and type(got[0]["o"]) is int and got[2]["l"] == ["a", 1.25]
    assert records(None) == [] and records(df.iloc[:0]) == []


# ------------------------------------------------------------------------------------------
# the text of `treecalc assess --json`, written a column at a time (treecalc/report/json_text.py)
# ------------------------------------------------------------------------------------------
def _cli_text(obj: Any) -> str:
    """The text json.dumps gives the object, as the command line wrote it before (its default for dates, Decimals)."""
    from treecalc.cli.common import _json_default

    return json.dumps(obj, ensure_ascii=False, default=_json_default)


@pytest.mark.parametrize("jurisdiction", ["croton_on_hudson", "wesley_hills"])
@pytest.mark.parametrize("which", ["sample", "generated"])
def test_json_text_is_json_dumps_of_the_object(which: str, jurisdiction: str, generated: Path) -> None:
    from treecalc.cli.common import _json_default
    from treecalc.report.json_text import assessment_json_text

    a = assess(SAMPLE_SURVEY if which == "sample" else generated, jurisdiction=jurisdiction)
    text = assessment_json_text(a, default=_json_default)
    assert text == _cli_text(assessment_json(a))
    # it can fail: every tree is in it (sample: 39 trees, 1 rejected; generated: 2,000 rows, every 97th rejected)
    j = json.loads(text)
    assert len(j["per_tree"]) == len(a.trees) and len(j["rejected_rows"]) == len(a.rejected) > 0


def _tricky_frame(n: int) -> pd.DataFrame:
    """Columns of every kind the tables hold, repeated so that columns of few values are written once per value
    and side by side once per combination: -0.0 and 0.0, NaN, infinities, large ints, quotes, control characters,
    '%', non-ASCII, lists, Decimals, dates, missing values of each kind."""
    base = pd.DataFrame(
        {
            "i": np.array([1, -2, 10**15, 0], dtype=np.int64),
            "f": [0.0, -0.0, np.nan, 1e-7],
            "g": [np.inf, -np.inf, 1e16, 2.5],
            "b": [True, False, True, True],
            "s": ['a "q"', "ü§…\n\t\x01", "100%", None],
            "t": ["x", "x", "y", "x"],
            "o": [np.int64(4), Decimal("2.50"), None, "4"],
            "m": [1, True, 1.0, None],
            "l": [["§208-19A(1)"], [], ["a", np.float64(1.25)], None],
            "c": pd.Categorical(["p", None, "q", "p"]),
            "n": pd.array([1, None, 3, 4], dtype="Int64"),
            "k": pd.array([True, None, False, True], dtype="boolean"),
            "u": pd.array(["x", None, "z", "x"], dtype="string"),
            "d": pd.to_datetime(["2024-01-02", None, "2024-03-04", "2024-01-02"]),
        }
    )
    return pd.concat([base] * n, ignore_index=True)


@pytest.mark.parametrize("n", [1, 3, 40])
def test_tables_text_is_json_dumps_of_the_records(n: int) -> None:
    from treecalc.report.json_text import _frame_text
    from treecalc.results import Records

    def dump(v: Any) -> str:
        return _cli_text(v)

    df = _tricky_frame(n)
    assert "".join(_frame_text(dump)(df)) == _cli_text(records(df))
    # rows a finding holds as columns (treecalc.results.Records): NaN is a value there, written NaN, not null
    cols = {
        "tag": ["1", "2", "3", "4"] * n,
        "x": [1.5, float("nan"), -0.0, 0.0] * n,
        "v": [3000, 500, 3000, 2**70] * n,
        "s": ["§208-18D", "§208-18D", "", "§208-19A; §208-18C"] * n,
        "z": [None, 1, "a", [1]] * n,
    }
    from treecalc.report.json import plain_rows
    from treecalc.report.json_text import _finding_text

    assert "".join(_finding_text(dump)(Records(cols))) == _cli_text(plain_rows(Records(cols)))
    assert "NaN" in _cli_text(plain_rows(Records(cols))) and "-0.0" in "".join(_frame_text(dump)(df))


def test_cli_json_into_a_pipe_is_the_objects_text(generated: Path) -> None:
    import subprocess
    import sys

    code = "import sys; from treecalc.cli import main; sys.exit(main(sys.argv[1:]))"
    out = subprocess.run(
        [sys.executable, "-c", code, "assess", str(generated), "--json"], capture_output=True, text=True, check=True
    ).stdout
    # the CLI records what it derived the assessment from (the last key); with the same, the text is the same
    a = assess(generated)
    a.fingerprint = json.loads(out)["fingerprint"]
    assert out == _cli_text(assessment_json(a)) + "\n"


#: Three 12 in red maples removed without a permit on a parcel capable of subdivision (§208-19A(2), §208-18A).
THREE_REMOVED = (
    "tag,species,dbh_in,action,condition\n"
    "1,Acer rubrum,12,removed,good\n"
    "2,Acer rubrum,12,removed,good\n"
    "3,Acer rubrum,12,removed,good\n"
)


def test_a_fund_known_in_dollars_alone_is_in_the_json_in_cents(tmp_path: Path) -> None:
    import dataclasses

    from treecalc.report.json import assessment_json

    lot = tmp_path / "lot.csv"
    lot.write_text(THREE_REMOVED, encoding="utf-8")
    a = assess(
        lot,
        site={"subdividable": True},
        replacement_stock=[{"species": "ACRU", "dbh_in": 12, "unit_cost_usd": 400}],
        plantable=0,
        fee_per_tree_usd="312.50",
    )
    # §208-22F: 120% of 3 x $127.11/yr = 1.2 x 381.33 = 457.596 -> $457.60/yr; an ACRU 12 in replacement is
    # $127.11/yr: ceil(457.60 / 127.11) = ceil(3.60) = 4 trees, none plantable: 4 x $312.50 = $1,250.00 in lieu
    assert (a.fund.trees_in_lieu, a.fund.fund_in_lieu_usd) == (4, 1250.0)
    alt_cents = assessment_json(a)["fund_alternative_22f_cents"]
    assert alt_cents is not None
    # a rules package whose Fund keeps the dollars alone (no exact Decimal): the cents are the dollars' cents
    a.fund = dataclasses.replace(a.fund, fund_in_lieu_exact=None, alternative_22f_exact=None)
    got = assessment_json(a)
    assert got["fund_in_lieu_cents"] == 125000 and got["fund_in_lieu_usd"] == 1250.0
    assert got["fund_alternative_22f_cents"] == alt_cents == round(a.fund.alternative_22f_usd * 100)
    # no amount at all (a law without a fund) stays no amount, never a made-up 0
    a.fund = dataclasses.replace(a.fund, fund_in_lieu_usd=None, alternative_22f_usd=None)
    got = assessment_json(a)
    assert got["fund_in_lieu_cents"] is None and got["fund_alternative_22f_cents"] is None


def test_the_json_carries_each_findings_notes_under_either_law(tmp_path, capsys):
    """The text output's "note:" lines are in the JSON's ``notes`` too, finding by finding: a Wesley Hills
    removal's JSON says who sets the fine and that Chapter 95 has no fund (its notes were in the text only)."""
    import json

    from treecalc.cli import main

    lot = tmp_path / "wh.csv"
    # tree 2: 20 in within 20 ft of a lot line, removed (§95-3A(1)(e)); no certificate of occupancy given
    lot.write_text(
        "Tag,Species,DBH (in),Action,Within 20 ft of lot line\n1,Acer rubrum,14,Removed,no\n"
        "2,Quercus rubra,20,Removed,yes\n"
    )
    site = {"wesley-hills": ["--site", "has_residence=true", "--site", "lot_area_acres=0.5"], "croton-on-hudson": []}
    assert len(site), "nothing to check: the loop below would pass on no item"
    for law, facts in site.items():
        args = ["assess", str(lot), *facts, "--jurisdiction", law]
        assert main(args) == 0
        text = capsys.readouterr().out
        assert main([*args, "--json"]) == 0
        notes = json.loads(capsys.readouterr().out)["notes"]
        said = [ln.removeprefix("note: ") for ln in text.splitlines() if ln.startswith("note: ")]
        assert said and said == [n for k in ("permit", "replacement", "fund", "penalties") for n in notes[k]], law
        if law == "wesley-hills":
            assert notes["fund"] == ["Wesley Hills Chapter 95 has no tree fund or payment in lieu"]
            assert any("a court sets the fine" in n for n in notes["penalties"])
