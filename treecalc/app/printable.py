"""The printable report (PDF) of what is on screen: the current survey and options (``treecalc.report``)."""

from __future__ import annotations

import streamlit as st

from treecalc.app import state, ui

_READY = "tc_pdf_ready"  # (key of the survey and options, the PDF's bytes)


@st.cache_data(show_spinner=False, max_entries=4)
def _pdf(sha256: str, name: str, read_json: str, opts_json: str, _data: bytes, kind: str = "permit") -> bytes:
    from treecalc.app import views
    from treecalc.report import report_data, report_pdf

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


def pdf_bytes(kind: str = "permit") -> bytes:
    """The report of the current survey and options (built here, in the user's session; cached on both)."""
    state.assessment()  # its errors first, in their own words
    return _pdf(*_key(), state.current().data, kind)


def pdf_button(key: str) -> None:
    """The printable report (attach it to the application; the Engineer signs it).

    Built on request (a few seconds on 20,000 trees, so never on every redraw), in this session, for the
    survey and options on screen; kept until they change, then offered to be built again.
    """
    title, kind, stem_head = REPORTS.get(key, APPLICANT)
    k = (*_key(), kind)
    slot = st.empty()
    ready = st.session_state.get(_READY)
    if not (ready and ready[0] == k):
        if not slot.button(
            title,
            key=f"{key}_pdf_make",
            icon=":material/picture_as_pdf:",
            help=(
                "Build the violation report: offences and penalties, the replacement after a violation, the "
                "trees concerned, readings and method, each figure with its section, and the Engineer's "
                "signature line."
                if kind == "violation"
                else "Build the applicant's report: what the permit costs, triggers, planting plan, fund, "
                "penalties, readings and method, each figure with its section, and signature lines, to attach "
                "to the application."
            ),
        ):
            return
        with st.spinner("Building the printable report ..."):
            ready = (k, pdf_bytes(kind))
        st.session_state[_READY] = ready
    stem = "".join(ch if ch.isalnum() else "_" for ch in k[1].rsplit(".", 1)[0]).strip("_") or "survey"
    label, shown = f"Download the {title[:1].lower()}{title[1:]}", "The report of the survey and options on screen."
    ui.download(slot, label, ready[1], f"{stem_head}_{stem}.pdf", "application/pdf", f"{key}_pdf", help=shown)
