"""Links made on purpose, kept in the case register so that they survive a restart.

* **Share this view** (sidebar): a link ``?link=TOKEN`` to the survey with the options of the view: an
  unguessable token (``secrets.token_urlsafe``) that expires (default :data:`DEFAULT_DAYS` days,
  ``TREECALC_LINK_DAYS``) and can be revoked. A signed-in staff member shares into the register's record; the
  browser that uploaded the survey may share it without signing in, outside the record and within a quota
  (:mod:`treecalc.register.links`). The survey is kept only while a link to it is open. Its holder sees the
  view; the original file can be downloaded (Save project) only when the sharer ticked it.
* **A link session**: a session opened from ``?link=TOKEN`` stays one for its whole life. Every run checks the
  link again (:func:`recheck`): revoked or expired, the survey goes and the main area says why. The address keeps
  the link (a reload opens it again), and no reload token of the session's own is ever made
  (:func:`treecalc.app.projects.sync_url`). A link made in it grants at most what it was given and dies with it.
* **An applicant's link** (made on the Cases page) is a full address ``…/cases?case=TOKEN`` that shows that one
  case, read-only, wherever it is pasted (``/?case=TOKEN`` at the root opens the Cases page too).
* A link whose survey is not held, expired or was revoked says so **in the main area**
  (:func:`main_area_notice`), keeps the options it carried, and shows no survey at all — never the
  bundled sample's figures in its place (:data:`state.NO_SAMPLE`).
"""

from __future__ import annotations

import os
import urllib.parse
from typing import Any

import pandas as pd
import streamlit as st

from treecalc.app import PAGES_DIR, cases, options, state
from treecalc.app.wording import readable

_DONE = "tc_link_restored"
_NOTICE = "tc_link_notice"
_NO_DOWNLOAD = "tc_link_no_download"
_MADE = "tc_link_made"
_MADE_ON = "tc_link_made_on"  # the page the link was made on: its address opens that page
_FROM = "tc_link_survey"  # the hash of the survey a shared view opened (its session's own survey until another)
_LINK = "tc_link_token"  # the link this session was opened from: it is a link session for its whole life
_ANON = "app (not signed in)"


def default_days() -> float:
    try:
        days = float(os.environ.get("TREECALC_LINK_DAYS", "") or 7)
    except ValueError:
        days = 7.0
    return days if 0 < days <= 366 else 7.0


DEFAULT_DAYS = 7


def not_held(message: str) -> None:
    """The link's survey cannot be shown: say so in the main area and show no other survey in its place."""
    st.session_state[_NOTICE] = message
    st.session_state[state.NO_SAMPLE] = True


def session_link() -> str | None:
    """The token of the link this session was opened from (None: not a link session)."""
    token = st.session_state.get(_LINK)
    return token if isinstance(token, str) and token else None


def _shows_link(src: state.Source | None) -> bool:
    return src is not None and session_link() is not None and st.session_state.get(_FROM) == src.sha256


def shows_link() -> bool:
    """This session shows the survey of the link it was opened from (a shared view, not the holder's upload)."""
    return _shows_link(state.source())


def address(token: str, page: str = "") -> str:
    """The address of a link: the page it was shared from (its path; "" the first page), with the token."""
    return f"{app_root()}/{page}?link={token}" if page else f"{app_root()}/?link={token}"


def restore_from_link() -> str | None:
    """Once per session: a ``?link=TOKEN`` opens its view (survey from the register, options from the link), and
    makes this session a link session. Returns the page the view was shared from (its path, "" the first page;
    None: no view, or a link made before links kept their page), to be opened: a link pasted as the bare address
    would otherwise open on the Survey page, not on the answer that was shared."""
    if st.session_state.get(_DONE):
        return None
    st.session_state[_DONE] = True
    token = st.query_params.get("link")
    if not token:
        return None
    st.session_state[_LINK] = token
    st.session_state[_NO_DOWNLOAD] = True  # until the link is found to allow it
    from treecalc.register import links as shared  # heavy: sqlalchemy, loaded only when this runs

    try:
        reg = cases.register()
    except state.AppError as e:
        not_held(f"This shared view cannot be opened: {e}")
        return None
    got = shared.open_link(reg, token, count=True)
    link = got.link
    if link is None:
        # an expired or revoked link still knows its options: keep them, show no survey
        _take(shared.params_of(reg, token))
        not_held(f"{got.why} Its survey is not shown; ask whoever shared it for a new link, or upload the survey.")
        return None
    if link.kind != "view":
        return None
    params = shared.params_of(reg, token)
    data = shared.survey_of(reg, link)
    if link.survey_sha256 and data is None:
        _take(params)
        not_held(
            "The survey of this shared view is no longer held by the register. Its options are kept; upload the survey again."
        )
        return None
    if data is not None:
        state.set_source(link.survey_name or "survey", data)
    else:
        state.use_sample()
    _take(params)
    st.session_state[_NO_DOWNLOAD] = not bool(link.allow_download)
    src = state.source()
    st.session_state[_FROM] = src.sha256 if src is not None else None
    page = params.get("page")
    return page if isinstance(page, str) else None


def recheck() -> None:
    """Every run of a link session: the link is opened again. Revoked or expired (or made from a link that no longer
    opens), its survey leaves the session and the main area says why; a survey the holder uploaded stays theirs."""
    token = session_link()
    if token is None or st.session_state.get(_FROM) is None:
        return
    from treecalc.register import links as shared  # heavy: sqlalchemy, loaded only when this runs

    try:
        got = shared.open_link(cases.register(), token)
    except (state.AppError, ValueError) as e:
        got = shared.LinkState(None, f"The link cannot be checked: {e}")
    if got.link is not None:
        return
    if _shows_link(state.source()):
        st.session_state.pop(state._SOURCE, None)
        for memo in (state._MEMO_SURVEY, state._MEMO_ASSESS):
            st.session_state.pop(memo, None)
        not_held(
            f"{got.why} Its survey is no longer shown; ask whoever shared it for a new link, or upload the survey."
        )
    st.session_state[_FROM] = None


def _take(params: dict[str, Any]) -> None:
    options.take(params.get("read") or {}, params.get("opts") or {}, "The link")


def main_area_notice() -> None:
    """Above the page: why a link's survey is not shown (the main area, not the collapsed sidebar)."""
    if msg := st.session_state.get(_NOTICE):
        if st.session_state.get(state._SOURCE) is not None:  # the user has uploaded a survey since
            st.session_state.pop(_NOTICE, None)
            return
        st.error(msg, icon=":material/link_off:")


def download_allowed() -> bool:
    """False while a link session shows its link's survey and the sharer did not allow the original file (a survey
    the holder uploads afterwards is theirs to save)."""
    src = state.source()
    if session_link() is None or not _shows_link(src):
        return True
    return not st.session_state.get(_NO_DOWNLOAD, True)


def app_root() -> str:
    """The app's own address (scheme, host, port and any base path), without the page or the query: where a link
    made here opens. ``TREECALC_PUBLIC_URL`` when the server is reached under another address (a proxy)."""
    public = os.environ.get("TREECALC_PUBLIC_URL", "").strip()
    if public:
        return public.rstrip("/")
    try:
        here = st.context.url or ""
    except Exception:  # no browser behind this run
        here = ""
    if not here:
        return ""
    u = urllib.parse.urlsplit(here)
    path = u.path.rstrip("/")
    pages = {p.stem for p in PAGES_DIR.glob("*.py")}
    if path.rsplit("/", 1)[-1] in pages:
        path = path.rsplit("/", 1)[0]
    return urllib.parse.urlunsplit((u.scheme, u.netloc, path, "", ""))


def _share_words(src: state.Source, days: int, allow: bool, signed_in: bool) -> str:
    what = "the bundled sample" if src.is_sample else f"the survey {src.name}"
    said = (
        f"Whoever holds the link sees {what} with the options as they are now, read-only, for {days} days unless "
        f"you revoke it, {'and may download the original file' if allow else 'without the original file'}. "
    )
    if not src.is_sample:
        said += (
            "The survey is kept in the register until the link expires or is revoked; then it is deleted, "
            "unless a case holds it. "
        )
    if not signed_in:
        from treecalc.register import links as shared  # heavy: sqlalchemy, loaded only when this runs

        said += (
            f"Not signed in: the share is kept apart from the Village's audited record, at most "
            f"{shared.ANON_MAX_LINKS} open shares and {shared.ANON_MAX_DAYS} days for this browser, and deleted "
            "when it expires or is revoked."
        )
    return said


def share_sidebar(browser: str | None, page: str = "") -> None:
    """ "Share this view": a link to the survey and options as they are now, made on purpose, by a signed-in staff
    member or by the browser that uploaded the survey (``browser``: its own key, to count its shares by), that
    opens on the page it was made on (``page``: its path, "" the first page)."""
    src = state.source()
    with st.expander("Share this view", icon=":material/share:"):
        try:
            who = cases.user()
        except state.AppError as e:
            st.caption(str(e))
            return
        if who is not None:
            _links_made(who[0])
        if src is None:
            st.caption("Upload a survey first.")
            return
        parent = session_link() if _shows_link(src) else None
        if parent is not None and who is None:
            st.caption(
                "This view was opened from a link: it is shared again only by a signed-in staff member, or by "
                "whoever uploaded the survey."
            )
            return
        given = parent is None or not st.session_state.get(_NO_DOWNLOAD, True)
        from treecalc.register import links as shared  # heavy: sqlalchemy, loaded only when this runs

        most = shared.MAX_DAYS if who is not None else shared.ANON_MAX_DAYS
        days = st.number_input(
            "Link lasts (days)",
            min_value=1,
            max_value=most,
            value=min(int(default_days()), most),
            step=1,
            key="w_share_days",
        )
        allow = st.checkbox(
            "Let the holder download the original file",
            value=False,
            key="w_share_download",
            disabled=not given,
            help=None if given else "The link this view was opened from does not let its holder download it.",
        )
        allow = bool(allow and given)
        st.caption(_share_words(src, int(days), allow, who is not None))
        if st.button("Make a link", key="w_share_make", icon=":material/link:"):
            _make(src, who, int(days), allow, parent, browser, page)
        made = st.session_state.get(_MADE)
        if made:
            st.code(address(made, str(st.session_state.get(_MADE_ON) or "")), language=None)
            st.caption(f"Send this address. It lasts {int(days)} days unless revoked.")
            if st.button("Revoke this link", key="w_share_revoke"):
                shared.revoke_link(cases.register(), made, by=who[0] if who else _ANON)
                st.session_state.pop(_MADE, None)
                st.caption("Revoked: the link no longer opens.")


def _make(
    src: state.Source,
    who: tuple[str, str] | None,
    days: int,
    allow: bool,
    parent: str | None,
    browser: str | None,
    page: str = "",
) -> None:
    from treecalc.register import links as shared  # heavy: sqlalchemy, loaded only when this runs

    reg = cases.register()
    data = None if src.is_sample or parent is not None else src.data
    name = None if src.is_sample else src.name
    # the page too: a link opened at the bare address (or its page left out when pasted) opens there all the same
    params = {"read": state.read_opts(), "opts": state.opts(), "page": page}
    try:
        if who is not None:
            token = shared.make_link(
                reg,
                by=who[0],
                kind="view",
                survey=data,
                survey_name=name,
                params=params,
                days=float(days),
                allow_download=allow,
                parent=parent,
            )
        else:
            token = shared.share_anonymously(
                reg,
                browser=browser,
                survey=data,
                survey_name=name,
                params=params,
                days=float(days),
                allow_download=allow,
            )
    except ValueError as e:
        st.error(readable(str(e)))
        return
    st.session_state[_MADE] = token
    st.session_state[_MADE_ON] = page


def _links_made(name: str) -> None:
    """The links the signed-in user made (shared views and applicants' links), with revoke."""
    from treecalc.register import links as shared  # heavy: sqlalchemy, loaded only when this runs

    reg = cases.register()
    rows = shared.links_made(reg, name)
    st.markdown(f"**Your links** ({len(rows)})")
    if not rows:
        st.caption("None yet.")
        return
    table = pd.DataFrame(rows).drop(columns=["id"])
    st.dataframe(table, hide_index=True, width="stretch")
    open_rows = [r for r in rows if r["state"] == "open"]
    if not open_rows:
        return
    said = {
        r["id"]: f"{r['kind']}" + (f" (case {r['case']})" if r["case"] else "") + f", made {r['created']}"
        for r in open_rows
    }
    pick = st.selectbox("Revoke a link", list(said), format_func=lambda i: said[i], key="w_links_pick")
    if st.button("Revoke", key="w_links_revoke"):
        shared.revoke_made(reg, pick, by=name)
        st.rerun()
