"""A third village is a data folder and one rules package: Elm Grove (tests/villages/), registered by its
record alone, assessed through ``treecalc assess --json``, the Excel statement, the PDF report and the app, with no
file of treecalc touched.

Elm Grove Chapter 7 (tests/villages/elm_grove/ordinance.txt): §7-2 a permit for a tree of 8 in DBH or more;
§7-5 up to $750 for each tree removed without one.
"""

from __future__ import annotations

import importlib.util
import io
import json
import sys
from pathlib import Path

import openpyxl
import pytest

from tests.helpers.town_pages import permit_page, site_survey

HERE = Path(__file__).parent / "villages"
sys.path.insert(0, str(HERE))

from treecalc.law import registry as jurisdictions  # noqa: E402

#: the village's record, as its own file holds it (read by treecalc through TREECALC_JURISDICTIONS)
RECORD_FILE = HERE / "elm_grove" / "record.py"
_spec = importlib.util.spec_from_file_location("elm_grove_record", RECORD_FILE)
assert _spec is not None and _spec.loader is not None
_record = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_record)
ELM_GROVE = _record.ELM_GROVE


SURVEY = (
    "Tag,Species,DBH (in),Action\n"
    "1,Acer rubrum,12,removed\n"  # 12 >= 8: a permit was needed, none held: an offence
    "2,Quercus rubra,8,removed\n"  # 8 >= 8 ("8 inches or more"): an offence
    "3,Acer rubrum,7.9,removed\n"  # under 8 in: no permit needed
    "4,Acer rubrum,20,remove\n"  # proposed: needs a permit, no offence
    "5,Acer rubrum,30,retain\n"
)


@pytest.fixture
def elm_grove(tmp_path, monkeypatch):
    monkeypatch.setitem(jurisdictions.REGISTRY, "elm_grove", ELM_GROVE)
    # a bounded child reading a survey (the app's) finds the village by its record file
    monkeypatch.setenv(jurisdictions.RECORDS_ENV, str(RECORD_FILE))
    f = tmp_path / "elm.csv"
    f.write_text(SURVEY)
    return f


def test_the_json_of_the_cli_is_elm_groves(elm_grove, capsys):
    from treecalc.cli import main

    assert main(["assess", str(elm_grove), "--jurisdiction", "Elm Grove", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["jurisdiction"] == "elm_grove" and d["jurisdiction_name"] == "Village of Elm Grove, Chapter 7"
    # trees 1, 2 (removed, 12 and 8 in) need the permit and are offences; 4 (proposed, 20 in) needs it only
    assert d["permit_required"] is True and d["permit_triggers"] == ["§7-2"]
    assert d["offences"] == 2
    # 2 trees x $750 (§7-5) = $1,500; no Croton-on-Hudson penalty, doubling or fund
    assert d["fine_max_usd"] == 1500
    assert d["civil_penalty_max_usd"] is None and d["civil_penalty_doubled"] is None
    assert d["fund_in_lieu_usd"] is None and d["replacement_required"] is False
    assert {"section": "§7-5", "reading": READING} in d["readings"]
    assert not [w for w in d["warnings"] if "Croton" in w or "Wesley" in w]


READING = "§7-5 'for each tree so removed': a removal proposed is no offence; one done is one"


def test_an_option_of_another_law_is_refused_naming_the_law_that_reads_it(elm_grove, capsys):
    from treecalc.cli import main

    assert main(["assess", str(elm_grove), "--jurisdiction", "elm-grove", "--violation"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "error: --violation is a Croton-on-Hudson Chapter 208 option (§208-22F violation standard): "
        "Elm Grove Chapter 7 does not read it, so it would not be used"
    )


def test_the_statement_and_the_pdf_are_elm_groves(elm_grove):
    from treecalc.assessment import assess
    from treecalc.report.content import report_data
    from treecalc.report.pdf import report_pdf
    from treecalc.report.statement import statement_bytes

    a = assess(str(elm_grove), jurisdiction="elm_grove")
    wb = openpyxl.load_workbook(io.BytesIO(statement_bytes(a)))
    cells = [str(c.value) for ws in wb for row in ws.iter_rows() for c in row if c.value is not None]
    text = "\n".join(cells)
    assert "Village of Elm Grove, Chapter 7" in text and "Tree permit required" in text
    # the fine line: 2 x $750 = 1500, under §7-5
    assert "§7-5" in cells and "1500" in cells
    # nothing of another law: no Croton-on-Hudson section or fund, no Wesley Hills rule (the value basis, the
    # distance to a residence Chapter 95 reads are the other laws' words)
    assert "Tree Preservation Fund" not in text and "§208" not in text and "Wesley" not in text
    import pypdf

    pdf = "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(report_pdf(report_data(a)))).pages)
    assert "Elm Grove" in pdf and "Permit triggers (§7-2)" in pdf
    assert "Tree Preservation Fund" not in pdf and "§208-19" not in pdf


def test_the_apps_permit_page_assesses_a_survey_naming_elm_grove(elm_grove):
    said, metrics = permit_page("elm_grove.xlsx", site_survey(SURVEY, "Elm Grove"))
    assert "Elm Grove" in said and "§7-2" in said, said
    # trees 1, 2 (removed) and 4 (proposed) are of 8 in or more: 3 need the permit (§7-2); it is required
    assert metrics.get("Tree permit required (Elm Grove §7-2)") == "Yes", metrics
    assert metrics.get("Trees needing a tree permit (trees, §7-2)") == "3", metrics
    # ... in its own record's words: not Wesley Hills' clearing permit nor its §95-3A(1) subsection
    assert "clearing" not in said.lower() and "A(1)" not in said, said
    # the other laws' words are not this village's: no Croton-on-Hudson fund, no Chapter 208 section
    assert "Tree Preservation Fund" not in said and "§208" not in said, said


def test_the_register_keeps_the_hashes_of_elm_groves_law_files(elm_grove):
    """A case's assessment keeps the SHA-256 of each law file it read (the register's record of the law it was made
    under): a third village's tree chapter and readings, read from its own folder, and the site facts assumed. A
    list of two village names kept only the site facts of any other."""
    import hashlib

    from treecalc.register.lawfiles import law_files

    held = law_files({"jurisdiction": "elm_grove"})
    data = HERE / "elm_grove" / "data"
    for name in ("law/elm_grove/ch7_trees.toml", "readings/elm_grove.toml"):
        assert held[name] == hashlib.sha256((data / name).read_bytes()).hexdigest()
    assert "readings/site_facts.toml" in held
