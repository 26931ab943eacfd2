"""The printable report (PDF) of what is on screen: the current survey and options (``treecalc.report``)."""

from __future__ import annotations

import streamlit as st

from app_support import state

_READY = "tc_pdf_ready"  # (key of the survey and options, the PDF's bytes)


@st.cache_data(show_spinner=False, max_entries=4)
def _pdf(sha256: str, name: str, read_json: str, opts_json: str, _data: bytes) -> bytes:
    from treecalc.report import report_data, report_pdf

    a = state._assess(sha256, name, read_json, opts_json, _data)
    return report_pdf(report_data(a, name))


def _key() -> tuple[str, str, str, str]:
    src = state.source()
    if src is None:
        raise state.AppError("No survey yet: upload one on the Survey page.")
    return state.cache_key(src), src.name, state._canon(state.read_opts()), state._canon(state.assess_kwargs())


def pdf_bytes() -> bytes:
    """The report of the current survey and options (built here, in the user's session; cached on both)."""
    state.assessment()  # its errors first, in their own words
    return _pdf(*_key(), state.source().data)


def pdf_button(key: str) -> None:
    """The printable report (attach it to the application; the Engineer signs it).

    Built on request (a few seconds on 20,000 trees, so never on every redraw), in this session, for the
    survey and options on screen; kept until they change, then offered to be built again.
    """
    k = _key()
    slot = st.empty()
    ready = st.session_state.get(_READY)
    if not (ready and ready[0] == k):
        if not slot.button(
            "Printable report (PDF)",
            key=f"{key}_pdf_make",
            icon=":material/picture_as_pdf:",
            help="Build the PDF of what this page shows: the plain answer, triggers, planting plan, "
            "fund, penalties, readings and method, each figure with its section, and "
            "signature lines, to attach to the application.",
        ):
            return
        with st.spinner("Building the printable report ..."):
            ready = (k, pdf_bytes())
        st.session_state[_READY] = ready
    stem = "".join(ch if ch.isalnum() else "_" for ch in k[1].rsplit(".", 1)[0]).strip("_") or "survey"
    slot.download_button(
        "Download the printable report (PDF)",
        data=ready[1],
        file_name=f"report_{stem}.pdf",
        mime="application/pdf",
        key=f"{key}_pdf",
        on_click="ignore",
        icon=":material/download:",
        help="The report of the survey and options on screen.",
    )
