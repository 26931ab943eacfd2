"""``treecalc verify STATEMENT SURVEY``: every statement (JSON, Excel, PDF) carries a fingerprint of what it was
derived from, and verify derives it again: exit 0 when it matches, 1 naming what differs, 2 on bad input.

The surveys are small ones of the kind a village receives (a lot cleared for a house, a Wesley Hills lot), not the
bundled sample. Hashes are worked out here with hashlib from the files' bytes, apart from treecalc's code.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from treecalc import __version__
from treecalc.cli import main
from treecalc.reference.datafolder import BUNDLED_DATA_DIR

#: A lot in Croton-on-Hudson cleared for a house: two trees taken down already, one to come down, two kept.
CROTON_LOT = (
    "tag,species,dbh_in,action,condition\n"
    "101,Acer rubrum,14,removed,good\n"
    "102,Quercus rubra,26,removed,fair\n"
    "103,Pinus strobus,11.5,remove,good\n"
    "104,Acer saccharum,9,retain,good\n"
    "105,Fagus grandifolia,31,retain,good\n"
)
#: The same survey with one diameter re-measured (tree 102: 26 in -> 28 in).
CROTON_LOT_REMEASURED = CROTON_LOT.replace("102,Quercus rubra,26,", "102,Quercus rubra,28,")

ASSESS_OPTIONS = ["--jurisdiction", "croton-on-hudson", "--days", "3", "--site", "subdividable=false"]


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def lot(tmp_path: Path) -> Path:
    p = tmp_path / "lot_17_grand_st.csv"
    p.write_text(CROTON_LOT, encoding="utf-8")
    return p


def _assess(capsys, survey: Path, *extra: str) -> str:
    capsys.readouterr()
    assert main(["assess", str(survey), *ASSESS_OPTIONS, *extra]) == 0
    return capsys.readouterr().out


def _json_statement(capsys, survey: Path, tmp_path: Path) -> Path:
    out = tmp_path / "statement.json"
    out.write_text(_assess(capsys, survey, "--json"), encoding="utf-8")
    return out


def _verify(capsys, statement: Path, survey: Path, *extra: str) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(["verify", str(statement), str(survey), *extra])
    got = capsys.readouterr()
    return rc, got.out, got.err


# -- what the fingerprint records ------------------------------------------------------------------------------------
def test_the_json_records_the_survey_the_law_files_the_version_and_the_options(capsys, lot, tmp_path):
    fp = json.loads(_json_statement(capsys, lot, tmp_path).read_text())["fingerprint"]
    assert fp["survey"] == {"file": lot.name, "bytes": len(CROTON_LOT.encode()), "sha256": _sha(lot)}
    assert fp["treecalc_version"] == __version__
    # the Chapter 208 law, the site facts and the fee schedule it read, and the species tables the values rest on
    for rel in (
        "law/croton_on_hudson/ch208_trees.toml",
        "readings/site_facts.toml",
        "law/croton_on_hudson/fee_schedule.toml",
        "species/catalogue.csv",
    ):
        assert fp["data_files"][rel] == _sha(BUNDLED_DATA_DIR / rel), rel
    assert not any(rel.startswith("examples/") for rel in fp["data_files"])  # the sample survey is no data file
    assert fp["options"]["continuing_days"] == 3
    assert fp["options"]["site"] == {"subdividable": "false"}
    assert fp["options"]["jurisdiction"] == "croton-on-hudson"
    assert len(fp["result_sha256"]) == 64


_FILES_OF = (
    "import json, sys\n"
    "from treecalc.reference.datafolder import data_files_read\n"
    "from treecalc.report.fingerprint import assess_file\n"
    "if sys.argv[2] == 'busy':  # a server that assessed other towns and companions before\n"
    "    from treecalc.cli import main\n"
    "    main(['assess', sys.argv[3], '--jurisdiction', 'wesley-hills', '--json'])\n"
    "    main(['assess', sys.argv[3], '--jurisdiction', 'milltown', '--json'])\n"
    "    main(['excavation', 'check', '--jurisdiction', 'wesley-hills', '--excavate', '500:3', '--json'])\n"
    "    main(['benefits', '--species', 'Acer rubrum', '--dbh', '12', '--zone', 'PiedmtCLT', '--json'])\n"
    "a = assess_file(sys.argv[1], {'jurisdiction': 'croton-on-hudson'})\n"
    "print(json.dumps({'listed': sorted(a.fingerprint['data_files']), 'read': sorted(data_files_read())}))\n"
)


def test_the_files_listed_are_the_same_in_a_fresh_process_and_after_other_towns_were_assessed(lot, tmp_path):
    # a server assesses every town; a Croton statement made there must list what one made in a fresh process
    # lists (else it depends on the process's history), and never another town's law or readings (else an
    # amendment of Milltown's law would stop Croton's statements from verifying)
    other = tmp_path / "other.csv"
    other.write_text("Tag,Species,DBH (in),Action\n1,Red maple,14,remove\n", encoding="utf-8")
    runs = {
        how: json.loads(
            subprocess.run(
                [sys.executable, "-c", _FILES_OF, str(lot), how, str(other)],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.splitlines()[-1]
        )
        for how in ("fresh", "busy")
    }
    fresh, busy = runs["fresh"], runs["busy"]
    assert fresh["listed"] == busy["listed"]
    # the busy process did read the other towns' files: the test sees the history it must be immune to
    assert "law/milltown/ch201_trees.toml" in busy["read"] and "law/wesley_hills/ch95_clearing.toml" in busy["read"]
    other_laws = ("law/milltown", "law/wesley_hills", "law/manalapan", "law/la_grange_park")
    assert not [f for f in fresh["listed"] if f.startswith(other_laws)]
    assert not {"readings/milltown.toml", "readings/wesley_hills.toml"} & set(fresh["listed"])
    # every file the fresh assessment read is listed, but the other towns' (the registry reads every town's law
    # to know its name and sections; none of their numbers enters a Croton assessment)
    others = ("law/milltown/", "law/wesley_hills/", "law/manalapan/", "readings/milltown", "readings/wesley_hills")
    towns = ("readings/manalapan", "law/la_grange_park/", "readings/la_grange_park")
    used = {f for f in fresh["read"] if not f.startswith((*others, *towns))}
    assert used <= set(fresh["listed"]), used - set(fresh["listed"])
    assert "law/croton_on_hudson/ch208_trees.toml" in fresh["listed"]


# -- exit 0 ----------------------------------------------------------------------------------------------------------
def test_a_json_statement_verifies_against_its_survey(capsys, lot, tmp_path):
    rc, out, err = _verify(capsys, _json_statement(capsys, lot, tmp_path), lot)
    assert (rc, err) == (0, ""), out
    assert out.startswith("verified:") and _sha(lot) in out


def test_the_excel_statement_and_the_pdf_verify_against_their_survey(capsys, lot, tmp_path):
    import openpyxl
    from pypdf import PdfReader

    xlsx, pdf = tmp_path / "statement.xlsx", tmp_path / "report.pdf"
    _assess(capsys, lot, "--out", str(xlsx), "--pdf", str(pdf))
    for statement in (xlsx, pdf):
        rc, out, err = _verify(capsys, statement, lot)
        assert (rc, err) == (0, ""), (statement, out)
    # a reader sees the survey's hash on the Fingerprint sheet and at the end of the PDF
    wb = openpyxl.load_workbook(xlsx, read_only=True)
    rows = {r[0]: r[1] for r in wb["Fingerprint"].iter_rows(values_only=True)}
    assert rows["Survey SHA-256"] == _sha(lot)
    assert rows["SHA-256 of law/croton_on_hudson/ch208_trees.toml"] == _sha(
        BUNDLED_DATA_DIR / "law/croton_on_hudson/ch208_trees.toml"
    )
    text = "".join(p.extract_text() for p in PdfReader(pdf).pages).replace("\n", "")
    assert _sha(lot) in text.replace(" ", "")


# -- exit 1 ----------------------------------------------------------------------------------------------------------
def test_a_changed_survey_is_named(capsys, lot, tmp_path):
    statement = _json_statement(capsys, lot, tmp_path)
    lot.write_text(CROTON_LOT_REMEASURED, encoding="utf-8")  # tree 102 re-measured after the statement
    rc, out, _ = _verify(capsys, statement, lot)
    assert rc == 1
    assert "survey changed" in out and "per_tree" in out
    assert "law file" not in out and "version changed" not in out


def test_an_excel_statement_of_another_survey_is_named(capsys, lot, tmp_path):
    xlsx = tmp_path / "statement.xlsx"
    _assess(capsys, lot, "--out", str(xlsx))
    other = tmp_path / "lot_19_grand_st.csv"
    other.write_text(CROTON_LOT_REMEASURED, encoding="utf-8")
    rc, out, _ = _verify(capsys, xlsx, other)
    assert rc == 1 and "survey changed" in out and "result changed" in out


def test_a_statement_of_another_treecalc_version_is_named(capsys, lot, tmp_path):
    statement = _json_statement(capsys, lot, tmp_path)
    doc = json.loads(statement.read_text())
    doc["fingerprint"]["treecalc_version"] = "0.0.9"  # as an older treecalc would have written it
    statement.write_text(json.dumps(doc))
    rc, out, _ = _verify(capsys, statement, lot)
    assert rc == 1
    assert f"version changed: the statement was derived with treecalc 0.0.9, this is {__version__}" in out
    assert "survey changed" not in out


def test_options_that_do_not_give_the_statement_are_named(capsys, lot, tmp_path):
    statement = _json_statement(capsys, lot, tmp_path)
    doc = json.loads(statement.read_text())
    doc["fingerprint"]["options"]["continuing_days"] = 30  # the record says 30 days; the statement shows 3
    statement.write_text(json.dumps(doc))
    rc, out, _ = _verify(capsys, statement, lot)
    assert rc == 1
    assert "options: the statement shows continuing_days=3 where the recorded options give continuing_days=30" in out
    assert "result changed" in out


def test_an_edited_figure_is_named(capsys, lot, tmp_path):
    statement = _json_statement(capsys, lot, tmp_path)
    doc = json.loads(statement.read_text())
    # two trees removed, permit not known (§208-29B): the conditional civil penalty, lowered by hand
    assert doc["civil_penalty_conditional_usd"] > 0
    doc["civil_penalty_conditional_usd"] = 500  # the figure changed, the fingerprint left as it was
    statement.write_text(json.dumps(doc))
    rc, out, _ = _verify(capsys, statement, lot)
    assert rc == 1
    assert "the statement's figures differ from the assessment derived again: civil_penalty_conditional_usd" in out
    assert "survey changed" not in out


def test_a_changed_fee_schedule_given_apart_is_named(capsys, lot, tmp_path):
    fee = tmp_path / "fees_2026.toml"
    shutil.copy(BUNDLED_DATA_DIR / "law" / "croton_on_hudson" / "fee_schedule.toml", fee)
    statement = tmp_path / "statement.json"
    statement.write_text(_assess(capsys, lot, "--json", "--fee-schedule", str(fee)))
    assert json.loads(statement.read_text())["fingerprint"]["fee_schedule_file"] == {
        "path": str(fee),
        "sha256": _sha(fee),
    }
    assert _verify(capsys, statement, lot, "--fee-schedule", str(fee))[0] == 0
    fee.write_text(fee.read_text() + "\n# a later Board resolution\n")
    rc, out, _ = _verify(capsys, statement, lot, "--fee-schedule", str(fee))
    assert rc == 1 and f"fee schedule changed: {fee}" in out
    # without the file the statement was derived with a schedule verify is not given: it asks for it
    rc, _, err = _verify(capsys, statement, lot)
    assert rc == 2 and "fees_2026.toml" in err and "--fee-schedule" in err


def _treecalc(data: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """The command line in a fresh interpreter: the data folder (TREECALC_DATA) is chosen when treecalc is imported."""
    env = {**os.environ, "TREECALC_DATA": str(data)}
    code = "import sys; from treecalc.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, env=env, timeout=300)


def test_a_changed_law_file_is_named(lot, tmp_path):
    data = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, data, ignore=shutil.ignore_patterns("examples"))
    r = _treecalc(data, "assess", str(lot), *ASSESS_OPTIONS, "--json")
    assert r.returncode == 0, r.stderr
    statement = tmp_path / "statement.json"
    statement.write_text(r.stdout)
    r = _treecalc(data, "verify", str(statement), str(lot))
    assert r.returncode == 0, r.stdout + r.stderr
    law = data / "law" / "croton_on_hudson" / "ch208_trees.toml"
    law.write_text(law.read_text() + "\n# amended by Local Law No. 1 of 2027\n")  # the Village's copy amended
    r = _treecalc(data, "verify", str(statement), str(lot))
    assert r.returncode == 1, r.stderr
    assert "law file changed: law/croton_on_hudson/ch208_trees.toml" in r.stdout
    assert "readings/site_facts.toml" not in r.stdout and "species file" not in r.stdout
    assert "survey changed" not in r.stdout


# -- exit 2 ----------------------------------------------------------------------------------------------------------
def test_bad_input_is_one_error_line(capsys, lot, tmp_path):
    from treecalc.assessment import assess
    from treecalc.report import write_pdf

    no_fp = tmp_path / "old.json"
    no_fp.write_text(json.dumps({"jurisdiction": "croton_on_hudson"}))
    broken = tmp_path / "broken.xlsx"
    broken.write_bytes(b"not a workbook")
    old_pdf = tmp_path / "old.pdf"
    write_pdf(assess(lot), old_pdf)  # a report written without a fingerprint
    garbled = tmp_path / "garbled.json"
    garbled.write_text("{")
    notes = tmp_path / "notes.txt"
    notes.write_text("hello")
    statement = _json_statement(capsys, lot, tmp_path)
    malformed = tmp_path / "malformed.json"
    doc = json.loads(statement.read_text())
    doc["fingerprint"]["survey"] = "lot_17_grand_st.csv"  # a hand-made fingerprint: no hash of the survey
    malformed.write_text(json.dumps(doc))
    cases = [
        (malformed, lot, "the fingerprint is malformed"),
        (tmp_path / "missing.json", lot, "no such file"),
        (notes, lot, "give the JSON (.json), the Excel statement (.xlsx) or the PDF report (.pdf)"),
        (no_fp, lot, "no fingerprint in this JSON"),
        (garbled, lot, "not a JSON statement"),
        (broken, lot, "not an Excel statement"),
        (old_pdf, lot, "no treecalc-fingerprint.json attached"),
        (statement, tmp_path / "missing.csv", "missing.csv: no such file"),
    ]
    assert cases, "nothing to check: the loop below would pass on no item"
    for stmt, survey, said in cases:
        rc, out, err = _verify(capsys, stmt, survey)
        assert rc == 2, (stmt, out, err)
        assert err.startswith("error: ") and said in err and "Traceback" not in err, err
        assert out == ""


def test_an_edited_cell_of_the_excel_statement_is_named(capsys, lot, tmp_path):
    import openpyxl

    xlsx = tmp_path / "statement.xlsx"
    _assess(capsys, lot, "--out", str(xlsx))
    wb = openpyxl.load_workbook(xlsx)
    ws = wb["Summary"]
    cell = next(c for row in ws.iter_rows() for c in row if isinstance(c.value, (int, float)) and c.value > 100)
    cell.value = 1  # a figure lowered by hand; the Fingerprint sheet left as it was
    wb.save(xlsx)
    rc, out, _ = _verify(capsys, xlsx, lot)
    assert rc == 1
    assert f"the statement's cells differ from the statement written again: Summary!{cell.coordinate}" in out
    assert "survey changed" not in out and "result changed" not in out


def test_an_excel_statement_saved_again_unedited_verifies_and_a_small_edit_is_still_named(capsys, lot, tmp_path):
    """Opening a statement and saving it again writes its numbers to fewer digits (202.11666666666667 becomes
    202.1166666666667 under openpyxl, 202.116666666667 under LibreOffice's 15 significant digits): that is no
    edit. A figure changed in its tenth significant digit still is."""
    import openpyxl

    xlsx = tmp_path / "statement.xlsx"
    _assess(capsys, lot, "--out", str(xlsx))
    wb = openpyxl.load_workbook(xlsx)
    floats = [c for ws in wb.worksheets for row in ws.iter_rows() for c in row if type(c.value) is float]
    assert floats, "the statement holds no fractional figure to round"
    for c in floats:  # what a spreadsheet keeps: 15 significant digits
        c.value = float(f"{c.value:.15g}")
    wb.save(xlsx)
    rc, out, _ = _verify(capsys, xlsx, lot)
    assert rc == 0, out
    target = next(c for c in floats if abs(c.value) > 1)
    target.value = target.value * (1 + 1e-9)  # $1,000.00 -> $1,000.000001: an edit, however small
    wb.save(xlsx)
    rc, out, _ = _verify(capsys, xlsx, lot)
    assert rc == 1
    assert f"{target.parent.title}!{target.coordinate}" in out


def test_a_pdf_report_with_other_figures_under_a_true_fingerprint_is_named(capsys, lot, tmp_path):
    from treecalc.report.content import report_data
    from treecalc.report.fingerprint import assess_file, read_fingerprint
    from treecalc.report.pdf import report_pdf

    pdf = tmp_path / "report.pdf"
    _assess(capsys, lot, "--pdf", str(pdf))
    fp, _ = read_fingerprint(pdf)
    a = assess_file(lot, fp["options"])
    d = report_data(a, lot.name)
    d["fingerprint"] = fp
    d["civil_penalty_conditional_usd"] = 500  # the report made again with a lower penalty and the true fingerprint
    forged = tmp_path / "forged.pdf"
    forged.write_bytes(report_pdf(d))
    assert _verify(capsys, pdf, lot)[0] == 0
    rc, out, _ = _verify(capsys, forged, lot)
    assert rc == 1 and "the report's text differs from the report written again on page" in out


def test_a_survey_renamed_since_still_verifies(capsys, lot, tmp_path):
    xlsx, pdf = tmp_path / "statement.xlsx", tmp_path / "report.pdf"
    _assess(capsys, lot, "--out", str(xlsx), "--pdf", str(pdf))
    renamed = tmp_path / "received_from_applicant.csv"
    shutil.copy(lot, renamed)
    for statement in (xlsx, pdf):
        rc, out, _ = _verify(capsys, statement, renamed)
        assert rc == 0, out


def test_a_wesley_hills_statement_records_chapter_95_and_verifies(capsys, tmp_path):
    lot = tmp_path / "12_grandview_ave.csv"
    lot.write_text(
        "tag,species,dbh_in,action,distance_to_residence_ft\n"
        "1,Quercus alba,18,remove,40\n"
        "2,Acer rubrum,7,remove,15\n"
        "3,Tsuga canadensis,12,retain,60\n",
        encoding="utf-8",
    )
    capsys.readouterr()
    assert main(["assess", str(lot), "--jurisdiction", "wesley-hills", "--site", "lot_area_acres=1.2", "--json"]) == 0
    statement = tmp_path / "statement.json"
    statement.write_text(capsys.readouterr().out)
    fp = json.loads(statement.read_text())["fingerprint"]
    assert fp["data_files"]["law/wesley_hills/ch95_clearing.toml"] == _sha(
        BUNDLED_DATA_DIR / "law/wesley_hills/ch95_clearing.toml"
    )
    assert fp["options"]["site"] == {"lot_area_acres": 1.2} and fp["options"]["jurisdiction"] == "wesley-hills"
    rc, out, _ = _verify(capsys, statement, lot)
    assert rc == 0, out


@pytest.mark.parametrize("suffix", [".xlsx", ".json"])
def test_a_statement_with_site_facts_given_out_of_alphabetical_order_verifies(tmp_path, capsys, suffix):
    """An applicant gives three site facts in the order they think of them (has_residence, subdividable,
    site_plan_required). The fingerprint keeps its options with sorted keys, so the assessment derived again from
    it had the facts in another order: the statement's Options rows and the result's SHA-256 differed, and a
    statement written a minute earlier from the same survey read "NOT verified". The order facts are given in
    decides nothing, so it must not decide the verdict."""
    survey = tmp_path / "lot.csv"
    survey.write_text(CROTON_LOT, encoding="utf-8")
    out = tmp_path / f"statement{suffix}"
    site = ["--site", "has_residence=yes", "--site", "subdividable=no", "--site", "site_plan_required=no"]
    if suffix == ".json":
        assert main(["assess", str(survey), *site, "--json"]) == 0
        out.write_text(capsys.readouterr().out, encoding="utf-8")
    else:
        assert main(["assess", str(survey), *site, "--out", str(out)]) == 0
        capsys.readouterr()
    assert main(["verify", str(out), str(survey)]) == 0, capsys.readouterr().out


# -- money options that are not the Village's fee schedule --------------------------------------------------------
def test_a_fee_per_tree_given_is_listed_as_not_the_schedule_in_force(capsys, lot, tmp_path, monkeypatch):
    monkeypatch.delenv("TREECALC_DB", raising=False)
    plain = _json_statement(capsys, lot, tmp_path)
    rc, out, _ = _verify(capsys, plain, lot)
    assert rc == 0 and "not the Village's fee schedule" not in out  # the data folder's own schedule: nothing to say
    cheap = tmp_path / "cheap.json"
    cheap.write_text(_assess(capsys, lot, "--fee-per-tree", "0.01", "--json"), encoding="utf-8")
    rc, out, _ = _verify(capsys, cheap, lot)
    # it follows from the survey (exit 0), and the $0.01 fee is said not to be the data folder's $450.00 a tree
    assert rc == 0 and out.startswith("verified:")
    assert "not the Village's fee schedule in force" in out
    assert "$0.01 a tree" in out and "$450.00 a tree" in out


def test_verify_names_the_registers_schedule_in_force(capsys, lot, tmp_path, monkeypatch):
    from treecalc.register import Register, fees

    url = f"sqlite:///{tmp_path / 'register.db'}"
    reg = Register(url)
    reg.add_user("eng", "engineer", "correct horse battery", by="setup")
    fees.record(reg, by="eng", resolution_date="2026-03-02", fee_per_tree_usd="1125", resolution="2026-41")
    cheap = tmp_path / "cheap.json"
    # made without the register (the user's own machine), checked against the Village's
    monkeypatch.delenv("TREECALC_DB", raising=False)
    cheap.write_text(_assess(capsys, lot, "--fee-per-tree", "0.01", "--on", "2026-06-01", "--json"), encoding="utf-8")
    monkeypatch.setenv("TREECALC_DB", url)
    rc, out, _ = _verify(capsys, cheap, lot)
    assert rc == 0
    assert "$0.01 a tree" in out and "$1,125.00 a tree" in out and "Board resolution 2026-41 of 2026-03-02" in out


# -- hostile statements: refused within bounds, naming the statement; no file read that verify was not given --------
def _forged(statement: Path, path: Path, change) -> Path:
    doc = json.loads(statement.read_text())
    change(doc["fingerprint"])
    path.write_text(json.dumps(doc))
    return path


def test_forged_json_statements_are_refused_at_once_and_no_file_they_name_is_read(capsys, lot, tmp_path, monkeypatch):
    import time

    from treecalc.reference.datafolder import DATA_DIR
    from treecalc.report import fingerprint

    statement = _json_statement(capsys, lot, tmp_path)
    hashed: list[Path] = []
    real = fingerprint._sha256_file
    monkeypatch.setattr(fingerprint, "_sha256_file", lambda p: hashed.append(Path(p)) or real(p))
    deep = tmp_path / "deep.json"  # 100,000 levels: json.loads died with a RecursionError traceback
    deep.write_text('{"fingerprint": ' + "[" * 100_000 + "]" * 100_000 + "}")

    def fee_file(fp):  # a schedule "given apart" that is any local file: verify hashed what the statement named
        fp["fee_schedule_file"] = {"path": "/etc/passwd", "sha256": "0" * 64}

    def fee_option(fp):  # the option alone: the assessment read /etc/passwd as the fee schedule
        fp["options"]["fee_schedule"] = "/etc/passwd"

    def data_file(fp):  # a data file out of the data folder: verify hashed DATA_DIR / "../../../etc/passwd"
        fp["data_files"]["../../../../../../etc/passwd"] = "0" * 64

    def column_map(fp):  # 200,000 entries, applied for 27 s and echoed whole in the error
        fp["options"]["read"] = {"column_map": {f"col{i}": "species" for i in range(200_000)}}

    cases = [
        (deep, "nests deeper than 32 levels"),
        (_forged(statement, tmp_path / "fee_file.json", fee_file), "give that file: --fee-schedule"),
        (_forged(statement, tmp_path / "fee_option.json", fee_option), "names a fee schedule /etc/passwd outside"),
        (_forged(statement, tmp_path / "data_file.json", data_file), "names a data file ../../../../../../etc/passwd"),
        (_forged(statement, tmp_path / "column_map.json", column_map), "column map has 200,000 entries"),
    ]
    for stmt, said in cases:
        start = time.monotonic()
        rc, out, err = _verify(capsys, stmt, lot)
        assert rc == 2, (stmt, out, err)
        assert err.startswith(f"error: {stmt}") and said in err and "Traceback" not in err, err
        assert len(err) < 600 and out == ""  # one sentence, not the 200,000 names
        assert time.monotonic() - start < 30
    # nothing was hashed but the survey given and the verifier's own data folder
    assert all(p == lot or p.resolve().is_relative_to(DATA_DIR.resolve()) for p in hashed), hashed
    assert Path("/etc/passwd") not in hashed


def test_an_excel_statement_reaching_the_last_cell_is_refused_before_it_is_read(capsys, lot, tmp_path):
    # one cell at XFD1048576 of the Summary sheet: a read-only openpyxl pads every row to 16,384 columns,
    # 17 billion cells (a 2.9 MB statement grew to 3 GB and died after 117 s); the survey's own limits refuse it
    import openpyxl

    xlsx = tmp_path / "statement.xlsx"
    _assess(capsys, lot, "--out", str(xlsx))
    wb = openpyxl.load_workbook(xlsx)
    wb["Summary"]["XFD1048576"] = "x"
    wb.save(xlsx)
    rc, out, err = _verify(capsys, xlsx, lot)
    assert rc == 2 and out == ""
    assert err.startswith(f"error: {xlsx}") and "16,384 columns" in err and "Traceback" not in err, err


def test_a_pdf_whose_attached_fingerprint_nests_100000_deep_is_refused(capsys, lot, tmp_path):
    from pypdf import PdfReader, PdfWriter

    pdf = tmp_path / "report.pdf"
    _assess(capsys, lot, "--pdf", str(pdf))
    w = PdfWriter()
    w.append(PdfReader(pdf))
    w.add_attachment("treecalc-fingerprint.json", ("[" * 100_000 + "]" * 100_000).encode())
    forged = tmp_path / "forged.pdf"
    w.write(forged)
    rc, out, err = _verify(capsys, forged, lot)
    assert rc == 2 and out == ""
    assert err.startswith(f"error: {forged}") and "nests deeper than 32 levels" in err and "Traceback" not in err


def test_the_recorded_hash_is_printed_plainly_and_a_topojson_given_is_named(capsys, lot, tmp_path):
    """A hash is no user input: it is printed as a plain prefix, as the given survey's is, never quoted with a
    length. A TopoJSON file (a GIS format treecalc does not read) given as the survey is refused by its own name, not by the survey's name the statement
    records."""
    xlsx = tmp_path / "statement.xlsx"
    _assess(capsys, lot, "--out", str(xlsx))
    gj = tmp_path / "trees_export.csv"  # a TopoJSON layer saved under a .csv name
    gj.write_text(
        json.dumps(
            {
                "type": "Topology",
                "objects": {
                    "trees": {"type": "GeometryCollection", "geometries": [{"type": "Point", "coordinates": [0, 0]}]}
                },
                "arcs": [],
            }
        ),
        encoding="utf-8",
    )
    rc, out, _ = _verify(capsys, xlsx, gj)
    assert rc == 1, out
    recorded, given = _sha(lot), _sha(gj)
    assert f"SHA-256 {recorded[:12]}…" in out and f"SHA-256 {given[:12]}…" in out, out
    assert "characters)" not in out and f"'{recorded[:12]}'" not in out, out
    (line,) = [x for x in out.splitlines() if "could not be derived again" in x]
    assert "trees_export.csv: unsupported file" in line and "TopoJSON" in line, line
    assert lot.name not in line, line


def test_a_folder_given_is_said_to_be_a_folder(capsys, lot, tmp_path):
    statement = _json_statement(capsys, lot, tmp_path)
    folder = tmp_path / "surveys"
    folder.mkdir()
    for stmt, survey, said in (
        (statement, folder, f"survey {folder}: a folder, not a file"),
        (folder, lot, f"statement {folder}: a folder, not a file"),
    ):
        rc, out, err = _verify(capsys, stmt, survey)
        assert (rc, out) == (2, ""), (stmt, out, err)
        assert said in err and "no such file" not in err, err


def test_a_statement_verifies_on_another_copy_of_the_checkout_and_of_the_data(capsys, lot, tmp_path):
    # before: the Excel statement recorded the law file and the fee schedule by their absolute paths
    # (/home/.../data/law/croton_on_hudson/ch208_trees.toml), so verifying it where treecalc or its data folder
    # lives elsewhere said "the statement's cells differ ...: Fund!B11, Method & sources!C28" (exit 1)
    import openpyxl

    xlsx, pdf = tmp_path / "statement.xlsx", tmp_path / "report.pdf"
    _assess(capsys, lot, "--out", str(xlsx), "--pdf", str(pdf))
    cells = [
        c
        for r in openpyxl.load_workbook(xlsx, read_only=True)["Method & sources"].iter_rows(values_only=True)
        for c in r
    ]
    assert "law/croton_on_hudson/ch208_trees.toml" in cells and str(BUNDLED_DATA_DIR) not in str(cells)
    checkout = Path(__file__).resolve().parents[2]
    copy = tmp_path / "elsewhere" / "treecalc-checkout"
    shutil.copytree(
        checkout / "treecalc", copy / "treecalc", symlinks=True, ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copytree(BUNDLED_DATA_DIR, copy / "data")
    data_copy = tmp_path / "another data folder"
    shutil.copytree(BUNDLED_DATA_DIR, data_copy)
    base = {k: v for k, v in os.environ.items() if k != "TREECALC_DATA"}
    for label, env in (
        ("another checkout", {**base, "PYTHONPATH": str(copy)}),
        ("another data folder", {**base, "TREECALC_DATA": str(data_copy)}),
    ):
        where = subprocess.run(
            [sys.executable, "-c", "import treecalc.reference.datafolder as d; print(d.DATA_DIR)"],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=120,
        ).stdout.strip()
        assert Path(where).resolve() != BUNDLED_DATA_DIR.resolve(), label  # the copy is the one read
        for statement in (xlsx, pdf):
            r = subprocess.run(
                [sys.executable, "-m", "treecalc.cli", "verify", str(statement), str(lot)],
                capture_output=True,
                text=True,
                env=env,
                cwd=tmp_path,
                timeout=300,
            )
            assert (r.returncode, r.stderr) == (0, ""), (label, statement.name, r.stdout)
    # the data folder is recorded by what it holds: the same SHA-256 wherever it is
    fp = json.loads(_assess(capsys, lot, "--json"))["fingerprint"]
    files = json.dumps(fp["data_files"], sort_keys=True).encode("utf-8")
    assert fp["data_folder_sha256"] == hashlib.sha256(files).hexdigest()
