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


def _served(url: str) -> bytes:
    """The bytes behind a download button's media URL (AppTest keeps them in an in-memory media store)."""
    import gc

    from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage

    file_id = url.rsplit("/", 1)[-1].split(".")[0]
    for store in [o for o in gc.get_objects() if isinstance(o, MemoryMediaFileStorage)]:
        try:
            return store.get_file(file_id).content
        except Exception:  # noqa: BLE001 - another store: look on
            continue
    raise AssertionError(f"no media file {file_id}")


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
    assert not [b for b in at.get("download_button") if "permit report" in b.proto.label]  # built on request
    at.button(key="permit_pdf_make").click().run()
    assert not at.exception and not at.error
    buttons = [b for b in at.get("download_button") if "permit report" in b.proto.label]
    assert len(buttons) == 1
    served = _served(buttons[0].proto.url)
    text = "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(served)).pages)
    # 120% of 3 x 127.11 = 457.60 -> ceil(3.60) = 4 ACRU 12 in; 2 planted x $900 = $1,800; 2 in lieu x $450 = $900
    assert "Survey: Hudson St lot 7.csv" in text and "Total out of pocket: $2,700.00" in text


def test_changing_an_option_asks_for_the_report_again():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.switch_page("treecalc/app/pages/permit.py").run()
    at.button(key="permit_pdf_make").click().run()
    assert [b for b in at.get("download_button") if "permit report" in b.proto.label]
    at.number_input(key="w_repl_cost").set_value(600.0).run()
    # the PDF built before is of other options: not offered; the build button is back
    assert not [b for b in at.get("download_button") if "permit report" in b.proto.label]
    assert at.button(key="permit_pdf_make")


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
    at.button(key="permit_pdf_make").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    (button,) = [b for b in at.get("download_button") if "permit report" in b.proto.label]
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(_served(button.proto.url))
    survey = tmp_path / "Hudson St lot 7.csv"
    survey.write_bytes(SURVEY)
    capsys.readouterr()
    assert main(["verify", str(pdf), str(survey)]) == 0, capsys.readouterr()
    survey.write_bytes(SURVEY.replace(b"104,Red maple,8,", b"104,Red maple,9,"))
    capsys.readouterr()
    assert main(["verify", str(pdf), str(survey)]) == 1
    assert "survey changed" in capsys.readouterr().out
