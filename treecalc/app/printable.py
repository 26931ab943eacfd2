"""The printable report (PDF) of what is on screen: the current survey and options (``treecalc.report``)."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from treecalc.app import state, ui, views
from treecalc.app.wording import PAGE_SAID
from treecalc.report import report_data, report_pdf


@st.cache_data(show_spinner=False, max_entries=4)
def _pdf(sha256: str, name: str, read_json: str, opts_json: str, _data: bytes, kind: str = "permit") -> bytes:
    a = state._assess(sha256, name, read_json, opts_json, _data)
    # the law engine's lines name keywords (‹site›, treecalc.messages): the report names the app's controls
    return report_pdf(report_data(a, name), kind=kind, words=views.readable)


#: Each page's report: its name on the button, the report's kind (``treecalc.report.pdf.KINDS``), its file
REPORTS = {
    "violations": ("Violation report for the Engineer (PDF)", "violation", "violation_report"),
}
APPLICANT = ("Applicant's permit report (PDF)", "permit", "permit_report")


def _key() -> tuple[str, str, str, str]:
    src = state.current()
    return state.cache_key(src), src.name, state.read_key(), state._canon(state.assess_kwargs())


def pdf_job(kind: str = "permit") -> Callable[[], bytes]:
    """A call that builds the report of the survey and options *as they are now*: taken in the script run (a
    download's deferred ``data`` runs outside the session, see ``state.statement_job``), built when clicked."""
    state.assessment()  # its errors first, in their own words
    key, data = _key(), state.current().data
    page = str(st.session_state.get("tc_page_name") or "")  # the page asked from, said as the page says it

    def job() -> bytes:
        said = PAGE_SAID.set(page)
        try:
            return _pdf(*key, data, kind)
        except Exception as e:  # noqa: BLE001 - a download cannot show st.error: the file says why
            return f"The printable report could not be made: {e}".encode()
        finally:
            PAGE_SAID.reset(said)

    return job


def pdf_button(key: str) -> None:
    """The printable report (attach it to the application; the Engineer signs it): one button that downloads it.

    Built when clicked (a few seconds on 20,000 trees, so never on every redraw), in this session, for the
    survey and options on screen: a button that first built the report and then swapped in a second one to
    download it took two clicks, and the second was easily missed.
    """
    title, kind, stem_head = REPORTS.get(key, APPLICANT)
    src = state.current()
    stem = "".join(ch if ch.isalnum() else "_" for ch in src.name.rsplit(".", 1)[0]).strip("_") or "survey"
    what = (
        "The violation report: offences and penalties, the replacement after a violation, the trees concerned, "
        "readings and method, each figure with its section, and the Engineer's signature line."
        if kind == "violation"
        else "The applicant's report: what the permit costs, triggers, planting plan, fund, penalties, readings "
        "and method, each figure with its section, and signature lines, to attach to the application."
    )
    help_ = f"{what} Built for the survey and options on screen when you click (a few seconds on a large survey)."
    ui.download(
        st,
        title,
        pdf_job(kind),
        f"{stem_head}_{stem}.pdf",
        "application/pdf",
        f"{key}_pdf",
        icon="picture_as_pdf",
        help=help_,
    )
