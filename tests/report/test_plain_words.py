"""The PDF reports and the Excel statement, as the app makes them, name no field of the code, hold no raw cell and
write every amount of $1,000 or more with its separator: under each village, on surveys shaped as users send them
(a developer's application and a steep-slope violation in Croton-on-Hudson, a Wesley Hills lot)."""

from __future__ import annotations

import io

import pytest

from tests.helpers import app_surveys
from tests.helpers.plain_words import field_names, problems

SURVEYS = {
    "developer_8": app_surveys.developer_8,
    "slope_violation_5": app_surveys.slope_violation_5,
    "wesley_hills_lot": app_surveys.wesley_hills_lot,
}


def _assess(tmp_path, name):
    from treecalc import assess, read_survey

    path = tmp_path / f"{name}.xlsx"
    path.write_bytes(SURVEYS[name]())
    return assess(read_survey(path)), path.name


def _pdf_text(a, name, kind):
    import pypdf

    from treecalc.app.wording import readable
    from treecalc.report import report_data, report_pdf

    pdf = report_pdf(report_data(a, name), kind=kind, words=readable)  # as treecalc.app.printable makes it
    return [line for page in pypdf.PdfReader(io.BytesIO(pdf)).pages for line in page.extract_text().splitlines()]


def _statement_cells(a):
    import openpyxl

    from treecalc.app.wording import readable
    from treecalc.messages import speaking
    from treecalc.report.statement import statement_bytes

    with speaking("app", readable):  # as treecalc.app.state makes it
        book = openpyxl.load_workbook(io.BytesIO(statement_bytes(a)), read_only=True)
    cells = [str(v) for ws in book.worksheets for row in ws.iter_rows(values_only=True) for v in row if v is not None]
    assert cells
    return cells


@pytest.mark.parametrize("survey", sorted(SURVEYS))
def test_reports_and_statement_say_no_field_name_and_no_raw_cell(tmp_path, survey):
    from treecalc.report import report_data

    a, name = _assess(tmp_path, survey)
    names = field_names(report_data(a, name))
    assert {"has_residence", "within_20ft_of_lot_line", "amount_usd"} & names  # the list is the code's, not empty
    texts = _statement_cells(a) + _pdf_text(a, name, "permit") + _pdf_text(a, name, "violation")
    assert len(texts) > 100
    found = problems(texts, names)
    assert not found, "\n".join(found[:40]) + f"\n({len(found)} in all)"
