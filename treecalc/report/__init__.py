"""The printable report (PDF) of an assessment: :func:`report_pdf` of its JSON (:mod:`treecalc.report.json`).

Its names are imported when first used (PEP 562), so that ``treecalc.report.json`` — the JSON of
every ``treecalc assess --json`` — does not load the PDF library (fpdf2, a second of start-up under load).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from treecalc.report.content import penalties, plain_answer, report_data, trees_concerned
    from treecalc.report.pdf import report_pdf, write_pdf

_WHERE = {
    "penalties": "treecalc.report.content",
    "plain_answer": "treecalc.report.content",
    "report_data": "treecalc.report.content",
    "trees_concerned": "treecalc.report.content",
    "report_pdf": "treecalc.report.pdf",
    "write_pdf": "treecalc.report.pdf",
}

__all__ = ["penalties", "plain_answer", "report_data", "report_pdf", "trees_concerned", "write_pdf"]


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        # start-up: a name's module loaded on its first use (the PDF's fpdf only for a PDF)
        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
