"""The PDF report from the app: the survey and options on screen (AppTest)."""

from __future__ import annotations

import importlib
import io
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

pypdf = importlib.import_module("pypdf")

SURVEY = (
    b"Tag,Species,DBH (in),Action\n101,Red maple,12,removed\n102,Red maple,12,removed\n"
    b"103,Red maple,12,removed\n104,Red maple,8,retain\n"
)


def _deferred(button) -> bytes:
    """The bytes a download button with deferred data gives when clicked: its callable run, as the server runs it."""
    import gc

    from streamlit.runtime.media_file_manager import MediaFileManager

    file_id = button.proto.deferred_file_id
    assert file_id, "the button holds its bytes already: the report was built before any click"
    for mgr in [o for o in gc.get_objects() if isinstance(o, MediaFileManager)]:
        entry = mgr._deferred_callables.get(file_id)
        if entry is not None:
            return entry["callable"]()
    raise AssertionError(f"no deferred download {file_id}")


def _report(at, title: str = "Applicant's permit report (PDF)"):
    """The page's one PDF button (a download, not a button that builds it first)."""
    (button,) = [b for b in at.get("download_button") if b.proto.label == title]
    return button


def test_permit_page_pdf_is_the_survey_and_options_on_screen():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.file_uploader(key="w_upload").set_value(("Hudson St lot 7.csv", SURVEY, "text/csv")).run()
    at.session_state["tc_read_opts"] = {"site": {"subdividable": "yes"}}
    at.switch_page("treecalc/app/pages/permit.py").run()
    at.number_input(key="w_repl_dbh").set_value(12.0).run()
    at.number_input(key="w_repl_cost").set_value(900.0).run()
    at.radio(key="w_plantable_kind").set_value("A number of trees").run()
    at.number_input(key="w_plantable").set_value(2).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    # one click: the page's button downloads the report itself, built when clicked (no build button first)
    assert not [b for b in at.button if "pdf" in str(b.key)]
    served = _deferred(_report(at))
    text = "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(served)).pages)
    # 120% of 3 x 127.11 = 457.60 -> ceil(3.60) = 4 ACRU 12 in; 2 planted x $900 = $1,800; 2 in lieu x $450 = $900
    assert "Survey: Hudson St lot 7.csv" in text and "Total out of pocket: $2,700.00" in text


def test_the_report_downloaded_is_of_the_options_on_screen_when_clicked():
    """The one button's report follows the options: changed, the next click downloads the report of the new ones."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.file_uploader(key="w_upload").set_value(("Hudson St lot 7.csv", SURVEY, "text/csv")).run()
    at.session_state["tc_read_opts"] = {"site": {"subdividable": "yes"}}
    at.switch_page("treecalc/app/pages/permit.py").run()
    at.number_input(key="w_repl_dbh").set_value(12.0).run()
    at.number_input(key="w_repl_cost").set_value(900.0).run()
    before = " ".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(_deferred(_report(at)))).pages)
    at.number_input(key="w_repl_cost").set_value(600.0).run()
    after = " ".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(_deferred(_report(at)))).pages)
    # 4 ACRU 12 in (above), all planted (every tree needed): 4 x $900 = $3,600, then 4 x $600 = $2,400
    assert "$3,600.00" in before and "$2,400.00" in after and "$3,600.00" not in after


def test_the_violations_page_downloads_its_report_in_one_click():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.file_uploader(key="w_upload").set_value(("Hudson St lot 7.csv", SURVEY, "text/csv")).run()
    at.switch_page("treecalc/app/pages/violations.py").run()
    assert not at.exception
    pdf = _deferred(_report(at, "Violation report for the Engineer (PDF)"))
    text = " ".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages)
    assert "Survey: Hudson St lot 7.csv" in text


def test_the_apps_pdf_verifies_against_the_uploaded_survey(tmp_path, capsys):
    """The report the app serves carries the fingerprint of the upload and the options on screen: ``treecalc
    verify`` derives it again from the same file (exit 0), and names a re-measured tree (exit 1)."""
    from streamlit.testing.v1 import AppTest

    from treecalc.cli import main

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.file_uploader(key="w_upload").set_value(("Hudson St lot 7.csv", SURVEY, "text/csv")).run()
    at.session_state["tc_read_opts"] = {"site": {"subdividable": "yes"}}
    at.switch_page("treecalc/app/pages/permit.py").run()
    at.number_input(key="w_repl_cost").set_value(900.0).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(_deferred(_report(at)))
    survey = tmp_path / "Hudson St lot 7.csv"
    survey.write_bytes(SURVEY)
    capsys.readouterr()
    assert main(["verify", str(pdf), str(survey)]) == 0, capsys.readouterr()
    survey.write_bytes(SURVEY.replace(b"104,Red maple,8,", b"104,Red maple,9,"))
    capsys.readouterr()
    assert main(["verify", str(pdf), str(survey)]) == 1
    assert "survey changed" in capsys.readouterr().out
