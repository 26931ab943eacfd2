"""The outputs read the assessment's findings, never the law again: each finding carries the law's entries it
applied and the sentences quoting them, the assessment the labels that quote a number of the law, all of the law
in force on the assessment's date; the projection is the assessment's, computed once.

So a statement, a PDF or a JSON written of an assessment made on the day before an amendment quote the numbers
that assessment applied, even when the law files can no longer be read."""

from __future__ import annotations

import ast
import io
import shutil
from pathlib import Path

import openpyxl
import pytest

from treecalc.assessment import assess
from treecalc.ingest import read_survey
from treecalc.law import clear_caches, loader
from treecalc.models import projection as projections
from treecalc.reference import datafolder
from treecalc.reference.datafolder import BUNDLED_DATA_DIR
from treecalc.report.content import report_data
from treecalc.report.json import assessment_json
from treecalc.report.pdf import report_pdf
from treecalc.report.statement import statement_bytes

ROOT = Path(__file__).resolve().parents[2]
CH208 = "law/croton_on_hudson/ch208_trees.toml"

#: A Croton-on-Hudson lot: three trees proposed for removal, tree 1 (14 in) on a slope (§208-19A(3): 4 in or more
#: on a slope over the percentage: a permit), trees 2 and 3 on the flat. The site's facts given, so that the slope
#: is the one trigger.
LOT = (
    "Tag,Species,DBH (in),Action,Slope over 20%\n"
    "1,Acer rubrum,14,Remove,yes\n"
    "2,Quercus rubra,20,Remove,no\n"
    "3,Acer saccharum,12,Remove,no\n"
)
SITE = {"prior_removals_12mo": 0, "subdividable": False, "has_residence": True}


def _amend(folder: Path, header: str, old: str, new: str) -> None:
    p = folder / CH208
    s = p.read_text(encoding="utf-8")
    j = s.index(old, s.index(header))
    p.write_text(s[:j] + new + s[j + len(old) :], encoding="utf-8")


@pytest.fixture
def amended(tmp_path, monkeypatch):
    """A data folder whose §208-19A(3) slope is 20% until 2027-02-28 and 25% from 2027-03-01, and whose §208-22A
    count is three trees until then and five from then (as a Board would amend it, dated)."""
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    _amend(folder, "[permit.slope_percent]", "value = 20.0", "values = { 2025-01-01 = 20.0, 2027-03-01 = 25.0 }")
    _amend(folder, "[replacement.min_trees]", "value = 3", "values = { 2025-01-01 = 3, 2027-03-01 = 5 }")
    monkeypatch.setattr(datafolder, "DATA_DIR", folder)
    clear_caches()
    yield folder
    monkeypatch.undo()
    clear_caches()


def _no_law(monkeypatch) -> None:
    """From here on any read of a law file fails: an output that reads the law again cannot be written."""

    def gone(relpath: str) -> dict:
        raise AssertionError(f"the law was read again while an output was written ({relpath})")

    clear_caches()
    monkeypatch.setattr(loader, "_raw", gone)


def test_outputs_of_an_assessment_before_an_amendment_quote_its_law_without_reading_the_law(amended, monkeypatch):
    """Assessed on 2027-02-28, the day before the amendment: the slope 20% (§208-19A(3)) and the count three
    (§208-22A) are the law applied. Tree 1 needs a permit (14 in >= 4 in on a slope over 20%), so the permit covers
    the three removals: 3 >= three, §208-22A's part covers all three trees. The outputs, written after the law
    files became unreadable, say 20% and "three" (from the amendment's day they would say 25% and five)."""
    a = assess(read_survey(LOT.encode("utf-8"), filename="lot.csv"), on="2027-02-28", site=SITE)
    # what the findings carry: the entries in force that day, with their sections
    entry = a.replacement.entries["replacement.min_trees"]
    assert (entry.value, entry.section) == (3, "§208-22A")
    slope = a.permit.entries["permit.slope_percent"]
    assert (slope.value, slope.section) == (20.0, "§208-19A(3)")
    assert a.replacement.said["min_trees"] == "three"
    assert a.labels.columns["slope_over_20pct"] == "Slope over 20%"
    assert [(p.section, p.trees) for p in a.replacement.parts] == [("§208-22A", 3)]

    _no_law(monkeypatch)
    book = openpyxl.load_workbook(io.BytesIO(statement_bytes(a)), read_only=True)
    head = next(book["Trees"].iter_rows(min_row=2, max_row=2, values_only=True))
    assert [str(c) for c in head if c and "Slope over" in str(c)] == ["Slope over 20%"]
    said = [str(r[0]) for r in book["Replacement plan"].iter_rows(values_only=True) if r and r[0]]
    assert any("under a permit for three or more trees" in s for s in said), said
    assert assessment_json(a)["replacement_parts"][0]["section"] == "§208-22A"
    assert report_pdf(report_data(a)).startswith(b"%PDF")


def test_the_projection_is_computed_once_for_the_json_the_statement_and_the_pdf(monkeypatch):
    """The projection (every tree valued each of 20 years) is the assessment's: the JSON's payback, the
    statement's year-by-year table and the PDF read the one computed, never a second."""
    calls = []
    real = projections.projection

    def counted(*args, **kwargs):
        calls.append(args[1:])
        return real(*args, **kwargs)

    monkeypatch.setattr(projections, "projection", counted)
    a = assess(read_survey(LOT.encode("utf-8"), filename="lot.csv"), on="2026-11-01", site=SITE)
    assert a.replacement.required and a.replacement.plan  # a plan to project: the statement draws its table
    assert calls == []  # not at assessment time: a plan's many candidate assessments never pay for it
    j = assessment_json(a)
    statement_bytes(a)
    report_pdf(report_data(a))
    assert calls == [(projections.HORIZON_YEARS,)]
    assert j["projection"] == a.projection_summary and j["projection"]["years"] == 20


def _runtime_imports(path: Path) -> list[str]:
    """The modules a file imports outside ``if TYPE_CHECKING:`` (a type is no read), a function's imports too."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    types_only = {
        id(n)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for n in ast.walk(node)
    }
    out = []
    for node in ast.walk(tree):
        if id(node) in types_only:
            continue
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            out += [node.module] + [f"{node.module}.{a.name}" for a in node.names]
    return out


def test_the_report_modules_read_no_law():
    """treecalc/report/ imports neither the rules nor the law's loader (its types only, for mypy): what it prints
    of the law is in the findings. A module that reached for the law again (``labels_on``, ``law()``) fails here."""
    # the verifier (fingerprint.py) derives the assessment again, through the rules, to compare it
    files = sorted(f for f in (ROOT / "treecalc" / "report").glob("*.py") if f.name != "fingerprint.py")
    assert len(files) >= 5  # json, statement, pdf, content, cells at least
    # the registry (treecalc.law.registry) names the villages and their records, not their law's numbers
    bad = {
        f"{f.name}: {m}"
        for f in files
        for m in _runtime_imports(f)
        if (
            m in ("treecalc.rules", "treecalc.law.access.labels_on")
            or m.startswith(("treecalc.rules.", "treecalc.law."))
        )
        and not m.startswith("treecalc.law.registry")
    }
    assert sorted(bad) == []
