"""A town of the share-of-value family is a data folder alone: Alder Vale (tests/villages/alder_vale), a law file and
a readings file and no Python, found through ``TREECALC_TOWNS`` and assessed through ``treecalc assess --json``,
``treecalc jurisdictions``, the Excel statement, the PDF report and the app.

Alder Vale Chapter 12 (tests/villages/alder_vale/ordinance.txt): §12-3A a permit for a tree of 6 in DBH or more, §12-3B
for every tree when five or more are removed; §12-4A replacement trees carrying at least 75 % of the environmental
value of the trees removed under the permit; §12-4B each at least 2.5 in caliper, credited with its own value;
§12-5 a hazardous or a dead or dying tree is exempt; §12-6 the Green Fund is paid 10 times the value not carried;
§12-8 its penalties are left to a chapter not read (not held).
"""

from __future__ import annotations

import io
import json
import shutil
import tomllib
from decimal import ROUND_CEILING, Decimal
from pathlib import Path

import openpyxl
import pytest

from tests.helpers.town_pages import permit_page, site_survey
from treecalc.law import registry, towns

VILLAGE = Path(__file__).parent / "villages" / "alder_vale"
FOLDER = VILLAGE / "data"

SURVEY = (
    "Tag,Species,DBH (in),Action,Hazardous,Dead or diseased\n"
    "1,Acer rubrum,5.99,remove,no,no\n"  # under 6 in, four removals: no permit (§12-3A/B), not counted
    "2,Acer rubrum,6,remove,no,no\n"  # 6 in: permit, counted
    "3,Quercus rubra,18,remove,no,no\n"  # permit, counted
    "4,Quercus rubra,24,remove,yes,no\n"  # hazardous: permit, exempt from replacement (§12-5)
    "5,Acer rubrum,20,retain,no,no\n"  # retained
)


def _load(path: Path) -> dict:
    with open(path, "rb") as fh:
        return tomllib.load(fh)


def _register(monkeypatch, folder: Path) -> None:
    from treecalc.law.loader import clear_caches

    record = towns.record_of("alder_vale", _load(folder / "readings" / "alder_vale.toml"), folder)
    monkeypatch.setitem(registry.REGISTRY, "alder_vale", record)
    monkeypatch.setenv(towns.TOWNS_ENV, str(folder))  # a bounded child reading a survey finds the town too
    clear_caches()  # the law and readings read afresh from this folder


@pytest.fixture
def alder_vale(tmp_path, monkeypatch):
    _register(monkeypatch, FOLDER)
    f = tmp_path / "alder.csv"
    f.write_text(SURVEY)
    yield f
    from treecalc.law.loader import clear_caches

    clear_caches()


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(FOLDER, folder)
    return folder


def _json(capsys, *args: str) -> dict:
    from treecalc.cli import main

    assert main(["assess", *args, "--json", "--on", "2026-03-01"]) == 0
    return json.loads(capsys.readouterr().out)


def _up(x: Decimal) -> Decimal:
    return x.quantize(Decimal("0.01"), rounding=ROUND_CEILING)


def test_the_town_has_no_python():
    assert not list(VILLAGE.rglob("*.py"))
    assert sorted(p.name for p in FOLDER.rglob("*.toml")) == ["alder_vale.toml", "ch12_trees.toml"]


def test_the_cli_json_requires_75_percent_of_the_value_removed(alder_vale, capsys):
    d = _json(capsys, str(alder_vale), "--jurisdiction", "Alder Vale", "--plantable", "2")
    assert d["jurisdiction"] == "alder_vale" and d["jurisdiction_name"] == "Village of Alder Vale, Chapter 12"
    trees = {r["tag"]: r for r in d["per_tree"]}
    value = {t: Decimal(str(r["value_usd"])) for t, r in trees.items()}
    # §12-3A: trees 2-4 (6 in or more) need the permit; four removals, so §12-3B does not hold
    assert d["permit_required"] is True and d["permit_triggers"] == ["§12-3A"]
    assert [trees[t]["permit_needed"] for t in "12345"] == [False, True, True, True, False]
    # counted: trees 2 and 3 (removed under the permit); 4 is exempt (hazardous, §12-5), 1 needs no permit
    assert [trees[t]["counted"] for t in "12345"] == [False, True, True, False, False]
    removed = value["2"] + value["3"]  # $87.40 + $194.57 = $281.97 a year
    assert removed == Decimal("281.97")
    required = _up(removed * 75 / 100)  # 75 % of $281.97 = $211.4775, at least: up to the cent, $211.48
    assert required == Decimal("211.48")
    assert d["removed_value_usd"] == float(removed) and d["required_value_usd"] == float(required)
    assert d["required_value_cents"] == 21148 and d["replacement_percent"] == 75.0
    # the law sets a value, not a count: no count of replacement trees is given
    assert d["replacement_trees_required"] is None and d["replacement_trees_by_tag"] is None
    assert any("sets a value, not a count" in n for n in d["notes"]["replacement"])
    # §12-4B: each tree planted carries its own value, a 2.5 in red maple (the readings' stock, said): 2 x $67.26
    rep = d["replacement"]
    assert rep["species_code"] == "ACRU" and rep["dbh_in"] == 2.5 and rep["trees_planted"] == 2
    each = Decimal(str(rep["value_per_tree_usd"]))
    assert each == Decimal("67.26")
    carried = 2 * each  # $134.52
    # §12-6: 10 x ($211.48 - $134.52) = 10 x $76.96 = $769.60 into the Alder Vale Green Fund
    assert (required - carried) * 10 == Decimal("769.60")
    assert d["fund_in_lieu_usd"] == 769.6 and d["fund_in_lieu_cents"] == 76960 and d["fund_basis"] == "value"
    assert rep["planting_cost_cents"] is None  # a stock is not priced: not costed, never $0.00
    assert d["not_held"] == [
        "not held for Alder Vale: see §12-8 (the penalties, which §12-8 leaves to Chapter 1, § 1-15 (not read))"
    ]
    assert d["offences"] is None and d["fine_max_usd"] is None  # penalties not held: no amount printed
    assert not [w for w in d["warnings"] + d["assumptions"] if "Croton" in w or "Wesley" in w]


def test_five_removals_bring_every_tree_under_the_permit(alder_vale, capsys, tmp_path):
    # a fifth removal (tree 6, dead or dying: exempt, §12-5) makes §12-3B hold: tree 1, 5.99 in, is now counted
    f = tmp_path / "five.csv"
    f.write_text(SURVEY + "6,Acer saccharum,12,removed,no,yes\n")
    d = _json(capsys, str(f), "--jurisdiction", "alder_vale", "--plantable", "10")
    trees = {r["tag"]: r for r in d["per_tree"]}
    assert d["permit_triggers"] == ["§12-3A", "§12-3B"]
    assert [trees[t]["counted"] for t in "123456"] == [True, True, True, False, False, False]
    removed = sum(Decimal(str(trees[t]["value_usd"])) for t in "123")  # $87.33 + $87.40 + $194.57 = $369.30
    assert removed == Decimal("369.30")
    assert d["required_value_usd"] == float(_up(removed * 75 / 100)) == 276.98  # $276.975 up to $276.98
    # 10 trees of $67.26 carry $672.60, more than required: the value is met and nothing is paid in lieu
    assert d["fund_in_lieu_usd"] == 0.0
    assert any("earns no credit" in n for n in d["notes"]["replacement"])


def test_an_exemption_left_open_leaves_the_value_required_not_given(alder_vale, capsys, tmp_path):
    # tree 3's Hazardous cell says "unknown": exempt or counted, the value required differs, so none is given
    f = tmp_path / "open.csv"
    f.write_text(SURVEY.replace("3,Quercus rubra,18,remove,no,no", "3,Quercus rubra,18,remove,unknown,no"))
    d = _json(capsys, str(f), "--jurisdiction", "alder_vale", "--plantable", "2")
    assert d["required_value_usd"] is None and d["fund_in_lieu_usd"] is None and d["fund_in_lieu_cents"] is None
    said = [w for w in d["warnings"] if "tree 3" in w]
    assert said and "not given" in said[0], d["warnings"]


def test_a_rejected_removal_leaves_the_value_required_not_given(alder_vale, capsys, tmp_path):
    # row 7 (tree 7, removed, no DBH) is rejected: its value is unknown, so 75 % of the value removed is too
    f = tmp_path / "rejected.csv"
    f.write_text(SURVEY + "7,Acer rubrum,,remove,no,no\n")
    d = _json(capsys, str(f), "--jurisdiction", "alder_vale", "--plantable", "2")
    assert d["required_value_usd"] is None and d["fund_in_lieu_usd"] is None
    said = [w for w in d["warnings"] if w.startswith("row 7 was rejected")]
    assert said and "its value is not known" in said[0] and "count" not in said[0], d["warnings"]


def test_without_the_trees_planted_the_payment_is_not_determined(alder_vale, capsys):
    d = _json(capsys, str(alder_vale), "--jurisdiction", "alder_vale")
    assert d["required_value_usd"] == 211.48 and d["fund_in_lieu_usd"] is None
    assert any("plantable" in n for n in d["notes"]["fund"])


def test_a_value_basis_other_than_the_laws_is_refused(alder_vale, capsys):
    # §12-4 takes 75 % of the trees' annual benefits: an appraisal (many times larger) would charge what the text
    # does not set, so the command refuses it (exit 2) naming the law's basis, and prints no figure
    from treecalc.cli import main

    assert (
        main(["assess", str(alder_vale), "--jurisdiction", "alder_vale", "--value-basis", "appraised", "--json"]) == 2
    )
    got = capsys.readouterr()
    assert "is not the law's" in got.err and "'annual'" in got.err and got.out == ""


def test_the_statement_of_a_town_held_apart_verifies(alder_vale, capsys, tmp_path):
    # the town's law and readings are in its own folder, not the data folder: verify finds them where the
    # assessment read them (it said "law file missing: law/alder_vale/... is not in the data folder")
    from treecalc.cli import main

    out = tmp_path / "alder.xlsx"
    assert main(["assess", str(alder_vale), "--jurisdiction", "alder_vale", "--out", str(out)]) == 0
    capsys.readouterr()
    rc = main(["verify", str(out), str(alder_vale)])
    said = capsys.readouterr().out
    assert rc == 0 and said.startswith("verified:"), said


def test_jurisdictions_lists_the_town(alder_vale, capsys):
    from treecalc.cli import main

    assert main(["jurisdictions", "--json"]) == 0
    rows = {r["key"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["alder_vale"] == {
        "key": "alder_vale",
        "name": "Village of Alder Vale, Chapter 12",
        "family": "share_of_value",
        "chapter": "Alder Vale Chapter 12",
        "effective": "2025-01-01",
        "effective_placeholder": False,
        "held_from": None,
        "not_held": ["the penalties, which §12-8 leaves to Chapter 1, § 1-15 (not read): see §12-8"],
    }
    # Croton-on-Hudson is of the same family, applied by its own package
    assert rows["croton_on_hudson"]["family"] == "share_of_value" and rows["croton_on_hudson"]["not_held"] == []


def test_the_statement_and_the_pdf_are_alder_vales(alder_vale):
    from treecalc.assessment import assess
    from treecalc.report.content import report_data
    from treecalc.report.pdf import report_pdf
    from treecalc.report.statement import statement_bytes

    a = assess(str(alder_vale), jurisdiction="alder_vale", plantable=2, on="2026-03-01")
    wb = openpyxl.load_workbook(io.BytesIO(statement_bytes(a)))
    summary = {(r[0], r[1]): r[2] for r in wb["Summary"].iter_rows(values_only=True) if r[0] and r[1]}
    # $281.97 removed, 75 % of it $211.48 required, 10 x $76.96 = $769.60 paid in lieu
    assert summary[("§12-4", "Value of the trees removed")] == 281.97
    assert summary[("§12-4", "Value required of the replacements")] == 211.48
    assert summary[("§12-6", "Paid in lieu")] == 769.6
    cells = [str(c.value) for ws in wb for row in ws.iter_rows() for c in row if c.value is not None]
    text = "\n".join(cells)
    assert "Village of Alder Vale, Chapter 12" in text and "Alder Vale Green Fund" in text
    assert "Tree Preservation Fund" not in text and "§208" not in text and "Wesley" not in text
    # no stock is priced: no plan is said to be "no trees to plant" while trees are planted
    assert "no trees to plant" not in text and "credits the trees planted" in text
    trees = list(wb["Trees"].iter_rows(values_only=True))
    offence = trees[1].index("Offence (no permit held)")
    assert {r[offence] for r in trees[2:]} == {"not held (see §12-8)"}
    penalties = {r[0]: r[1] for r in wb["Penalties"].iter_rows(values_only=True) if r[0]}
    assert penalties["Offences"] == "not held (see §12-8)"
    import pypdf

    pdf = "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(report_pdf(report_data(a)))).pages)
    assert "Alder Vale" in pdf and "§12-4" in pdf and "2,318" not in pdf and "$769.60" in pdf
    assert "none counted: the law requires a value" in pdf and "nothing to replace" not in pdf
    assert "Tree Preservation Fund" not in pdf and "§208-19" not in pdf


def test_the_app_assesses_a_survey_naming_alder_vale(alder_vale):
    said, metrics = permit_page("alder.xlsx", site_survey(SURVEY, "Alder Vale"))
    assert "Alder Vale" in said and "§12-3A" in said, said
    assert "trees 2, 3, 4" in said, said  # §12-3A: the trees of 6 in or more removed
    # 75 % of $281.97 = $211.48 required (§12-4A), the figure of a metric
    assert any("211.48" in str(v) for v in metrics.values()), metrics


# ---------------------------------------------------------------------------------------- the family's data


def test_a_town_crediting_a_count_credits_the_laws_amount_per_tree(tmp_path, monkeypatch, capsys):
    # credit = "count" with [replacement.credit_per_tree_usd] $50: 3 trees planted credit 3 x $50 = $150;
    # 10 x ($211.48 - $150) = 10 x $61.48 = $614.80
    folder = _copy(tmp_path)
    readings = folder / "readings" / "alder_vale.toml"
    readings.write_text(readings.read_text().replace('credit = "value"', 'credit = "count"'))
    law = folder / "law" / "alder_vale" / "ch12_trees.toml"
    law.write_text(
        law.read_text()
        + '\n[replacement.credit_per_tree_usd]\nvalue = 50\nunit = "USD of environmental value per replacement tree'
        ' planted"\nsection = "§12-4B"\ntext = "Each replacement tree planted is credited with $50."\n'
    )
    _register(monkeypatch, folder)
    f = tmp_path / "alder.csv"
    f.write_text(SURVEY)
    d = _json(capsys, str(f), "--jurisdiction", "alder_vale", "--plantable", "3")
    assert d["required_value_usd"] == 211.48 and d["fund_in_lieu_usd"] == 614.8
    assert d["replacement"]["species_code"] is None  # a count credits no stock's value


def _with_fine(tmp_path: Path, monkeypatch) -> Path:
    """Alder Vale copied with [penalty.fine_per_tree_usd] $500 at §12-8 in place of its not-held penalties,
    registered; the path its test writes its survey to."""
    folder = _copy(tmp_path)
    readings = folder / "readings" / "alder_vale.toml"
    text = readings.read_text()
    readings.write_text(text[: text.index("[[not_held]]")] + "[site_why]\n")
    law = folder / "law" / "alder_vale" / "ch12_trees.toml"
    law.write_text(
        law.read_text() + '\n[penalty.fine_per_tree_usd]\nvalue = 500\nunit = "USD per tree"\nsection = "§12-8"\n'
        'text = "a fine of not more than $500 for each tree removed without a permit"\n'
    )
    _register(monkeypatch, folder)
    f = tmp_path / "done.csv"
    return f


#: The lot the fine tests assess: tree 2 removed, its permit cell "no" (definite); tree 3 removed, its permit cell
#: blank (conditional); tree 4 removed under its permit (no offence)
FINED_LOT = (
    "Tag,Species,DBH (in),Action,Permit\n"
    "2,Acer rubrum,6,removed,no\n"
    "3,Quercus rubra,18,removed,\n"
    "4,Quercus rubra,24,removed,yes\n"
)


def test_penalties_set_as_data_fine_the_trees_removed_without_a_permit(tmp_path, monkeypatch, capsys):
    # [penalty.fine_per_tree_usd] $500 in place of the not-held entry: tree 2 removed, its permit cell "no": one
    # definite offence, $500; tree 3 removed, its permit cell blank: conditional, $500 apart, never in the maximum;
    # tree 4 removed under its permit: none
    f = _with_fine(tmp_path, monkeypatch)
    f.write_text(FINED_LOT)
    d = _json(capsys, str(f), "--jurisdiction", "alder_vale", "--plantable", "0")
    assert d["not_held"] == []
    assert d["fine_max_usd"] == 500 and d["fine_conditional_usd"] == 500
    assert d["offences_definite"] == 1 and d["offences_conditional"] == 1
    assert {r["tag"]: r["status"] for r in d["offence_rows"]} == {"2": "definite", "3": "conditional"}


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        (
            "value = 75.0",
            "value = -75.0",
            r"ch12_trees.toml \[replacement.percent\]: value -75.0 is out of range; allowed: a percentage from 0 to 100",
        ),
        ("value = 75.0", "value = 175.0", r"\[replacement.percent\]: value 175.0 is out of range"),
        ("value = 10\n", 'value = "ten"\n', r"\[fund.in_lieu_multiplier\]: value 'ten' is not a number"),
        ("value = 10\n", "value = 0\n", r"\[fund.in_lieu_multiplier\]: value 0 is out of range; allowed: a multiple"),
        ("value = 5\n", "value = 4.5\n", r"\[permit.trees_removed_min\]: value 4.5 is out of range.*a whole number"),
    ],
)
def test_a_bad_entry_is_refused_naming_file_entry_and_range(tmp_path, monkeypatch, capsys, old, new, said):
    from treecalc.law.schema import LawSchemaError

    folder = _copy(tmp_path)
    law = folder / "law" / "alder_vale" / "ch12_trees.toml"
    assert old in law.read_text()
    law.write_text(law.read_text().replace(old, new, 1))
    _register(monkeypatch, folder)
    f = tmp_path / "alder.csv"
    f.write_text(SURVEY)
    from treecalc.assessment import assess

    with pytest.raises(LawSchemaError, match=said):
        assess(str(f), jurisdiction="alder_vale")


def test_a_credit_the_family_does_not_know_is_refused(tmp_path, monkeypatch):
    folder = _copy(tmp_path)
    readings = folder / "readings" / "alder_vale.toml"
    readings.write_text(readings.read_text().replace('credit = "value"', 'credit = "trees"'))
    _register(monkeypatch, folder)
    f = tmp_path / "alder.csv"
    f.write_text(SURVEY)
    from treecalc.assessment import assess

    with pytest.raises(ValueError, match=r"readings/alder_vale.toml \[replacement\] credit = 'trees': not one of"):
        assess(str(f), jurisdiction="alder_vale")


# ---------------------------------------------------------------------------------------- worked cases as data

from tests.cases.test_law_cases import assess_case, load_cases, mismatches  # noqa: E402

CASES = load_cases(VILLAGE / "cases")


def test_the_village_has_worked_cases():
    assert len(CASES) >= 4 and {j for _, j, _ in CASES} == {"alder_vale"}


@pytest.mark.parametrize(("jurisdiction", "case"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_worked_case(jurisdiction, case, tmp_path, monkeypatch):
    _register(monkeypatch, FOLDER)
    assert mismatches(assess_case(jurisdiction, case, tmp_path), case) == [], case["arithmetic"]


# ---------------------------------------------------------------------------------------- the report's figures


def _pdf(a) -> str:
    import pypdf

    from treecalc.report.content import report_data
    from treecalc.report.pdf import report_pdf

    return "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(report_pdf(report_data(a)))).pages)


def test_a_payment_not_determined_is_never_printed_or_summed_as_0(alder_vale, tmp_path):
    from treecalc.assessment import assess
    from treecalc.report.statement import statement_bytes

    # no --plantable: $211.48 required (75 % of $281.97), the value carried by the trees planted unknown, so
    # 10 x ($211.48 - carried) is not determined: never $0.00, and no total out of pocket is added up
    a = assess(str(alder_vale), jurisdiction="alder_vale", on="2026-03-01")
    pdf = _pdf(a)
    assert "Payment to the Alder Vale Green Fund not determined" in pdf
    assert "Total out of pocket not determined" in pdf and "$0.00 " not in pdf and "$0.00\n" not in pdf
    assert "not determined: give" in pdf and "plantable" in pdf
    wb = openpyxl.load_workbook(io.BytesIO(statement_bytes(a)))
    total = [r for r in wb["Summary"].iter_rows(values_only=True) if r[1] == "Total out of pocket"]
    assert total and total[0][2] == "not determined" and "plantable" in total[0][4]
    # tree 3's hazardous cell "unknown", 1 planted: the value required is undecided, so the payment is too
    f = tmp_path / "open.csv"
    f.write_text(SURVEY.replace("3,Quercus rubra,18,remove,no,no", "3,Quercus rubra,18,remove,unknown,no"))
    pdf = _pdf(assess(str(f), jurisdiction="alder_vale", plantable=1, on="2026-03-01"))
    assert "Payment to the Alder Vale Green Fund not determined" in pdf and "$0.00\n" not in pdf
    assert "not determined: §12-5" in pdf and "tree 3" in pdf


def test_a_fine_held_as_data_cites_its_own_section_and_a_conditional_tree_is_not_no(tmp_path, monkeypatch):
    from treecalc.assessment import assess

    # [penalty.fine_per_tree_usd] $500 at §12-8: tree 2 (permit "no") definite, $500; tree 3 (permit blank)
    # conditional, $500 apart; tree 4 (permit "yes") no offence
    f = _with_fine(tmp_path, monkeypatch)
    f.write_text(FINED_LOT)
    pdf = _pdf(assess(str(f), jurisdiction="alder_vale", plantable=0, on="2026-03-01"))
    assert "Ch. 95" not in pdf
    assert "§12-8 Fine, maximum 500.00" in pdf and "§12-8 Fine, maximum, if the conditions hold 500.00" in pdf
    assert "if established conditional" in pdf  # tree 3: not "no"


def test_a_fine_held_as_data_is_in_the_text_answer_and_its_lines(tmp_path, monkeypatch, capsys):
    # §12-8 $500 a tree: tree 2 (permit "no") definite, tree 3 (permit blank) conditional, tree 4 under its permit:
    # the text answer prints the maximum $500 and the conditional $500 apart, each at §12-8, as the JSON says them
    f = _with_fine(tmp_path, monkeypatch)
    f.write_text(FINED_LOT)
    from treecalc.cli import main

    assert main(["assess", str(f), "--jurisdiction", "alder_vale", "--plantable", "0", "--on", "2026-03-01"]) == 0
    text = capsys.readouterr().out
    assert "§12-8            Fine, maximum: $500  [up to $500 per tree; definite offences only]" in text
    assert "§12-8            Fine, conditional offences (on assumed facts): $500  [up to, only if" in text
    assert "§12-8            Trees removed without the permit (facts given): 1 tree" in text
    assert "§12-8            Trees whose permit is not given (conditional): 1 tree" in text
