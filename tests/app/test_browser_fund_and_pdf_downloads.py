"""In Chromium (Playwright), on ``streamlit run app.py``: the Fund page's fund.csv and the PDF as a user downloads them.

An xlsx survey of my own is uploaded on the Survey page; the Fund page's ``fund.csv`` and the printable
report (PDF) are downloaded and read back, and the server's log is read for the warnings it gave
("missing ScriptRunContext" from the reader's child processes, Arrow's refusal of the rejected rows).
"""

from __future__ import annotations

import importlib
import io
import logging
import os
from pathlib import Path

import pytest

from tests.app.test_browser import CHROMIUM, streamlit_server, survey_page
from tests.helpers.app_surveys import BOARD_LABEL, board_register

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium not found at /usr/bin/chromium"),
]


def _survey(path: Path) -> Path:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    for row in (
        ("Tag", "Species", "DBH (in)", "Action"),
        # topped without a permit: a definite offence (§208-18D, whatever the size or place), so the §208-22F
        # part is charged (a removal with no site facts is only a conditional offence, its §208-22F shown apart)
        (1, "Bur oak", 20, "topped"),
        (2, "Red maple", 16, "topped"),
        (3, "Red maple", 10, "remove"),
        (103, "White pine", "eighteen", "Remove"),  # rejected: not a number (sheet row 5)
        (105, "Pin oak", -4, "Remove"),  # rejected: not positive (row 6), written -4, read -4.0
        ("T-8", "Red oak", None, "Remove"),  # rejected: no DBH (row 7)
    ):
        ws.append(list(row))
    wb.save(path)
    return path


def test_fund_csv_and_pdf_downloads_carry_the_fixed_text_and_the_log_stays_clean(tmp_path, chromium):
    pypdf = importlib.import_module("pypdf")
    survey = _survey(tmp_path / "Birch Rd survey.xlsx")
    # the Board's schedule is the register's (the Fund page has no control of its own): $450.00 a tree
    env = {**os.environ, "TREECALC_DB": board_register(tmp_path)}
    with (
        streamlit_server(tmp_path, env) as (_, url),
        survey_page(chromium, url, survey, timeout_ms=90_000) as page,
    ):
        page.get_by_role("tab", name="Rejected rows").click()
        page.locator('[data-testid="stDataFrame"]:visible').first.wait_for()  # the rejected rows drawn (canvas)
        page.locator('[data-testid="stSidebarNav"]').get_by_text("Fund").click()
        page.get_by_text("Payment in lieu").first.wait_for()
        page.get_by_text(BOARD_LABEL).first.wait_for()  # the schedule in force, named on the page
        page.wait_for_timeout(1000)
        page.locator('[data-testid="stStatusWidget"]').wait_for(state="hidden")  # the rerun is over
        with page.expect_download() as dl:
            page.get_by_role("button", name="Fund (CSV)", exact=True).click()
        fund_csv = Path(dl.value.path()).read_bytes().decode("utf-8-sig")
        with page.expect_download() as dl:  # one click: the button downloads the report, built when clicked
            page.get_by_role("button", name="Applicant's permit report (PDF)").click()
        pdf = Path(dl.value.path()).read_bytes()
    log = (tmp_path / "streamlit.log").read_text(errors="replace")

    # fund.csv: columns.csv labels with units, per year on the annual basis (the default), words for the
    # basis and for the schedule set on the page (the app gives it as a dict)
    for want in (
        "Payment in lieu to the Fund (USD),",
        "Value not met by planting (USD/yr),",
        "Or: payment in place of the §208-22F replacement (USD),",
        "Basis of payment,a fee per tree not planted",
        f"Fee schedule from,{BOARD_LABEL}",
    ):
        assert want in fund_csv, want
    for gone in ("Alternative 22f", "given as a dict", "Unmet value (USD)"):
        assert gone not in fund_csv, gone
    # the PDF lists the 3 rejected rows: sheet row (header = row 1), column, reason, the value written
    text = " ".join(" ".join(pg.extract_text() for pg in pypdf.PdfReader(io.BytesIO(pdf)).pages).split())
    part = text.split("Rejected rows (3)")[1].split("The statement, section by section")[0]
    assert "5 DBH (in) 'eighteen' is not a number eighteen" in part
    assert "6 DBH (in) '-4' is not a positive diameter -4 " in part
    assert "7 DBH (in) no DBH given" in part
    # no warning in the server's log (Streamlit logs Arrow's refusal at INFO: the frame is checked in
    # test_display_money_and_tables.py)
    assert "ScriptRunContext" not in log and "WARNING" not in log, log[-3000:]
    logging.getLogger(__name__).info("server log: %s", log)
