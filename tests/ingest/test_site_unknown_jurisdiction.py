"""A Site sheet naming a jurisdiction treecalc does not know ("Crotn", "Elm Grov") is refused: never assessed
under Croton-on-Hudson's law instead. ``treecalc assess`` exits 2 naming the cell and the laws known (with the
closest); the app says so on the page and shows no figures."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pytest

from treecalc.cli import main
from treecalc.ingest import read_survey
from treecalc.ingest.errors import SurveyError

ROOT = Path(__file__).resolve().parents[2]


def _survey(jurisdiction: str) -> bytes:
    """Three street trees of a client's lot, with the Site sheet an engineer fills (field in A, value in B)."""
    trees = pd.DataFrame(
        {"Tag": ["1", "2", "3"], "Species": ["Acer rubrum", "Quercus rubra", "Tilia cordata"], "DBH (in)": [14, 9, 22]}
    )
    site = pd.DataFrame({"field": ["address", "jurisdiction"], "value": ["12 Elm St", jurisdiction]})
    buf = io.BytesIO()
    with pd.ExcelWriter(buf, engine="openpyxl") as xw:
        trees.to_excel(xw, sheet_name="Trees", index=False)
        site.to_excel(xw, sheet_name="Site", index=False, header=False)
    return buf.getvalue()


@pytest.mark.parametrize(("typed", "meant"), [("Crotn", "croton-on-hudson"), ("Wesly Hill", "wesley-hills")])
def test_the_reader_refuses_naming_the_cell_the_laws_and_the_closest(tmp_path, typed, meant):
    f = tmp_path / "lot.xlsx"
    f.write_bytes(_survey(typed))
    with pytest.raises(SurveyError) as e:
        read_survey(f)
    said = str(e.value)
    # the jurisdiction is on the Site sheet's second row, its value in column B
    assert (
        f"Site sheet cell B2 (jurisdiction): {typed!r} is not one of croton-on-hudson, wesley-hills, la-grange-park, manalapan, milltown"
        in said
    )
    assert f"did you mean {meant!r}?" in said


def test_treecalc_assess_exits_2_and_assesses_nothing(tmp_path, capsys):
    f = tmp_path / "lot.xlsx"
    f.write_bytes(_survey("Crotn"))
    out = tmp_path / "out.json"
    assert main(["assess", str(f), "--json"]) == 2
    err = capsys.readouterr()
    assert "Site sheet cell B2 (jurisdiction): 'Crotn'" in err.err and "did you mean 'croton-on-hudson'?" in err.err
    assert "Chapter 208" not in err.out and not out.exists()


def test_a_known_spelling_still_reads(tmp_path):
    f = tmp_path / "lot.xlsx"
    f.write_bytes(_survey("Village of Wesley Hills"))
    assert read_survey(f).site["jurisdiction"] == "wesley_hills"


def test_the_app_says_so_on_the_page_and_shows_no_figures():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.file_uploader(key="w_upload").set_value(("lot.xlsx", _survey("Crotn"), "application/octet-stream")).run()
    at.switch_page("treecalc/app/pages/permit.py").run()
    assert not at.exception, [e.value for e in at.exception]
    errors = " ".join(str(e.value) for e in at.error)
    assert "Site sheet cell B2 (jurisdiction): 'Crotn'" in errors and "croton-on-hudson" in errors, errors
    assert not at.metric, {m.label: m.value for m in at.metric}  # no figures under a law the survey did not name
