"""The app's pages, navigation and sidebar: :func:`main`, run by ``app.py`` (``streamlit run app.py``).

Opens on the bundled sample survey (``treecalc.reference.data.SAMPLE_SURVEY``); upload
your own on the Survey page. The app holds no domain logic: every number comes
from the treecalc library (``read_survey``, ``assess``, ``compute_benefits``,
``treecalc.rules.croton_on_hudson.ch223_water``, ``treecalc.excavation``,
``treecalc.report.statement``); the pages only draw what it returns.
"""

from __future__ import annotations

import contextlib

from treecalc.app import page_path
from treecalc.law.registry import DEFAULT, get_or_default


def main() -> None:
    """The pages, the navigation and the sidebar."""
    import streamlit as st  # optional dependency: streamlit ([app] extra)

    # heavy: pandas, numpy, pyarrow, ..., loaded only when this runs
    from treecalc.app import case_survey, cases, links, projects, state, ui

    st.set_page_config(page_title="treecalc", page_icon=ui.page_icon(), layout="wide")
    with contextlib.suppress(ValueError):  # a bad TREECALC_READ_BUDGET_GB is said by the survey read itself
        state.read_budget()  # the server's read budget, before any page reads a file (companions too)

    group = law_group()
    PAGES = {
        "Trees": [
            st.Page(page_path("survey"), title="Survey", icon=":material/upload_file:", default=True),
            st.Page(page_path("benefits"), title="Benefits", icon=":material/eco:"),
            st.Page(page_path("map"), title="Map", icon=":material/map:"),
        ],
        group: [
            st.Page(page_path("permit"), title="Permit & replacement", icon=":material/forest:"),
            st.Page(page_path("violations"), title="Violations & penalties", icon=":material/gavel:"),
            st.Page(page_path("fund"), title="Fund & fee schedule", icon=":material/account_balance:"),
        ],
        "Register": [
            st.Page(page_path("cases"), title="Cases", icon=":material/folder_shared:"),
        ],
        "Companions": [
            st.Page(page_path("water"), title="Water bill", icon=":material/water_drop:"),
            st.Page(page_path("excavation"), title="Excavation", icon=":material/landscape:"),
        ],
    }

    page = st.navigation(PAGES)
    if (case := st.query_params.get("case")) and page.url_path != "cases":
        st.switch_page(PAGES["Register"][0], query_params={"case": case})  # an applicant's link, wherever pasted
    projects.restore_from_url()  # a reload or a link: the survey and options from the URL
    shared_from = links.restore_from_link()  # a link made with "Share this view": kept in the register
    if shared_from is not None and shared_from != page.url_path:  # it opens on the page it was shared from
        to = next((p for group in PAGES.values() for p in group if p.url_path == shared_from), None)
        if to is not None:
            st.switch_page(to, query_params=dict(st.query_params))
    cases.remember_opening()  # before any page asks who is signed in: a link's session never takes a cookie's
    links.recheck()  # a link session checks its link on every run: revoked or expired, its survey goes
    if note := st.session_state.pop(projects._NOTE, None):  # what a link or a project could not give: in the main
        st.warning(note)  # area, above the page, which goes on with the rest

    with st.sidebar:
        ui.close_sidebar_on_phone(page.title)  # first: in place before this run draws, or is stopped by, a click
        survey_label = st.empty()  # filled after the page ran: an upload on this run is already the source

    links.main_area_notice()  # a link whose survey is not shown says so here, not in the collapsed sidebar
    case_note = st.container()  # a case's survey reopened: filled after the page ran (its options as they are now)
    page.run()
    case_survey.notice(case_note)

    src = state.source()
    if src is None and st.session_state.get(state.NO_SAMPLE):  # a link whose survey is not shown
        survey_label.caption("No survey loaded: the link's survey is not shown. Upload one on the Survey page.")
    elif src is None:
        survey_label.caption("No survey loaded: the bundled sample is not there yet. Upload one on the Survey page.")
    elif links.shows_link():  # a link's survey is no upload of this browser's
        survey_label.caption(f"Shared view of **{ui.md_text(src.name)}**")
    else:
        survey_label.caption(
            f"Survey: **{ui.md_text(src.name)}**" + (" (bundled sample)" if src.is_sample else " (uploaded)")
        )

    with st.sidebar:  # after the page: the saved project holds the options the page has just set
        projects.sidebar()
        links.share_sidebar(projects.browser_key(), page.url_path)
    projects.sync_url()
    if law_group() != group:  # the page read a survey under another law (an upload, a site fact): named at once
        st.rerun()


def law_group() -> str:
    """The navigation's heading of the pages of the tree law: the chapter of the law the survey last read names
    (its jurisdiction site fact, or the chooser on the Survey page), the default law's before any; the default law
    by its chapter's number alone ("Chapter 208"), another by its place too ("Milltown Chapter 201")."""
    from treecalc.app import state  # optional dependency: streamlit ([app] extra)

    sv = state.last_survey()
    rec = get_or_default((getattr(sv, "site", None) or {}).get("jurisdiction"))
    return f"Chapter {rec.chapter.split(' Chapter ')[-1]}" if rec.key == DEFAULT else rec.chapter
