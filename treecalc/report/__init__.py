"""The printable report (PDF) of an assessment: :func:`report_pdf` of ``Assessment.to_json()``."""

from treecalc.report.content import penalties, plain_answer, report_data, trees_concerned
from treecalc.report.pdf import report_pdf, write_pdf

__all__ = ["penalties", "plain_answer", "report_data", "report_pdf", "trees_concerned", "write_pdf"]
