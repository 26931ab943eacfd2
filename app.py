"""treecalc app: ``streamlit run app.py`` (or ``make app``).

Opens on the bundled sample survey (``treecalc.data.SAMPLE_SURVEY``); upload
your own on the Survey page. The app holds no domain logic: every number comes
from the treecalc library (``read_survey``, ``assess``, ``compute_benefits``,
``treecalc.water``, ``treecalc.rules.excavation``, ``treecalc.statement``); the
pages only draw what it returns.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:  # app_support/ next to this file, whatever the working directory
    sys.path.insert(0, str(ROOT))


def main() -> None:
    """The pages, the navigation and the sidebar."""
    import contextlib

    import streamlit as st

    from app_support import links, projects, state, ui

    st.set_page_config(page_title="treecalc", page_icon=ui.page_icon(), layout="wide")
    with contextlib.suppress(ValueError):  # a bad TREECALC_READ_BUDGET_GB is said by the survey read itself
        state.read_budget()  # the server's read budget, before any page reads a file (companions too)

    PAGES = {
        "Trees": [
            st.Page("treecalc_app/survey.py", title="Survey", icon=":material/upload_file:", default=True),
            st.Page("treecalc_app/benefits.py", title="Benefits", icon=":material/eco:"),
            st.Page("treecalc_app/map.py", title="Map", icon=":material/map:"),
        ],
        "Chapter 208": [
            st.Page("treecalc_app/permit.py", title="Permit & replacement", icon=":material/forest:"),
            st.Page("treecalc_app/violations.py", title="Violations & penalties", icon=":material/gavel:"),
            st.Page("treecalc_app/fund.py", title="Fund & fee schedule", icon=":material/account_balance:"),
        ],
        "Register": [
            st.Page("treecalc_app/cases.py", title="Cases", icon=":material/folder_shared:"),
        ],
        "Companions": [
            st.Page("treecalc_app/water.py", title="Water bill", icon=":material/water_drop:"),
            st.Page("treecalc_app/excavation.py", title="Excavation", icon=":material/landscape:"),
        ],
    }

    page = st.navigation(PAGES)
    projects.restore_from_url()  # a reload or a link: the survey and options from the URL
    links.restore_from_link()  # a link made with "Share this view": kept in the register, survives a restart
    if note := st.session_state.pop(projects._NOTE, None):  # what a link or a project could not give: in the main
        st.warning(note)  # area, above the page, which goes on with the rest

    with st.sidebar:
        survey_label = st.empty()  # filled after the page ran: an upload on this run is already the source

    links.main_area_notice()  # a link whose survey is not shown says so here, not in the collapsed sidebar
    page.run()

    src = state.source()
    if src is None and st.session_state.get(state.NO_SAMPLE):  # a link whose survey is not shown
        survey_label.caption("No survey loaded: the link's survey is not shown. Upload one on the Survey page.")
    elif src is None:
        survey_label.caption("No survey loaded: the bundled sample is not there yet. Upload one on the Survey page.")
    else:
        survey_label.caption(
            f"Survey: **{ui.md_text(src.name)}**" + (" (bundled sample)" if src.is_sample else " (uploaded)")
        )

    with st.sidebar:  # after the page: the saved project holds the options the page has just set
        projects.sidebar()
        links.share_sidebar()
        ui.close_sidebar_on_phone(page.title)
    projects.sync_url()


# Streamlit runs this script as __main__. The survey reader's child processes (treecalc.ingest.limits, started by
# forkserver or spawn) import the parent's main script again, as __mp_main__: unguarded, each read ran the whole
# app there, outside any session, and the server log filled with "missing ScriptRunContext" warnings.
if __name__ == "__main__":
    main()
