"""The printable report (PDF) of what is on screen: the current survey and options (``treecalc.report``)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app_support import state


@st.cache_data(show_spinner=False, max_entries=4)
def _pdf(sha256: str, name: str, read_json: str, opts_json: str, _data: bytes) -> bytes:
    from treecalc.report import report_data, report_pdf

    a = state._assess(sha256, name, read_json, opts_json, _data)
    return report_pdf(report_data(a, name))


def pdf_bytes() -> bytes:
    """The report of the current survey and options (built here, in the user's session; cached on both)."""
    src = state.source()
    if src is None:
        raise state.AppError("No survey yet: upload one on the Survey page.")
    state.assessment()  # its errors first, in their own words
    return _pdf(src.sha256, src.name, state._canon(state.read_opts()), state._canon(state.assess_kwargs()), src.data)


def pdf_button(key: str) -> None:
    """A download button for the printable report (attach it to the application; the Engineer signs it)."""
    try:
        data: Any = pdf_bytes()
    except ImportError as e:
        st.caption(f"The printable report is not available: {e}")
        return
    src = state.source()
    stem = "".join(ch if ch.isalnum() else "_" for ch in src.name.rsplit(".", 1)[0]).strip("_") or "survey"
    st.download_button("Printable report (PDF)", data=data, file_name=f"report_{stem}.pdf", mime="application/pdf",
                       key=f"{key}_pdf", on_click="ignore", icon=":material/picture_as_pdf:",
                       help="The plain answer, triggers, planting plan, fund, penalties, readings and method, each "
                            "figure with its section, and signature lines: attach it to the application.")


__all__ = ["pdf_bytes", "pdf_button"]
