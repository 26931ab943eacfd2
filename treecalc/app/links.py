"""Links made on purpose, kept in the case register so that they survive a restart.

* **Share this view** (sidebar): the current survey is kept in the register (content-addressed) and a link
  ``?link=TOKEN`` is made with the options of the view: an unguessable token (``secrets.token_urlsafe``) that
  expires (default :data:`DEFAULT_DAYS` days, ``TREECALC_LINK_DAYS``) and can be revoked. Its holder sees
  the view; the original file can be downloaded (Save project) only when the sharer ticked it.
* **An applicant's link** ``?case=TOKEN`` (made on the Cases page) shows that one case, read-only.
* A link whose survey is not held, expired or was revoked says so **in the main area**
  (:func:`main_area_notice`), keeps the options it carried, and shows no survey at all — never the
  bundled sample's figures in its place (:data:`state.NO_SAMPLE`).
"""

from __future__ import annotations

import json
import os
from typing import Any

import streamlit as st

from treecalc.app import cases, options, state

_DONE = "tc_link_restored"
_NOTICE = "tc_link_notice"
_NO_DOWNLOAD = "tc_link_no_download"
_MADE = "tc_link_made"
_FROM = "tc_link_survey"  # the hash of the survey a shared view opened (its session's own survey until another)


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


def restore_from_link() -> None:
    """Once per session: a ``?link=TOKEN`` opens its view (survey from the register, options from the link)."""
    if st.session_state.get(_DONE):
        return
    st.session_state[_DONE] = True
    token = st.query_params.get("link")
    if not token:
        return
    from treecalc.register import auth

    try:
        reg = cases.register()
    except state.AppError as e:
        not_held(f"This shared view cannot be opened: {e}")
        return
    got = auth.open_link(reg, token)
    link = got.link
    if link is None:
        # an expired or revoked link still knows its options: keep them, show no survey
        from sqlalchemy.orm import Session

        from treecalc.register import models as m

        with Session(reg.engine) as s:
            row = s.get(m.Link, auth._sha(token))
            params = json.loads(row.params or "{}") if row is not None and row.kind == "view" else {}
        _take(params)
        not_held(f"{got.why} Its survey is not shown; ask whoever shared it for a new link, or upload the survey.")
        return
    if link.kind != "view":
        return
    params = json.loads(link.params or "{}")
    data = reg.blob(link.survey_sha256) if link.survey_sha256 else None
    if link.survey_sha256 and data is None:
        _take(params)
        not_held(
            "The survey of this shared view is no longer held by the register. Its options are kept; upload the survey again."
        )
        return
    if data is not None:
        state.set_source(link.survey_name or "survey", data)
    else:
        state.use_sample()
    _take(params)
    st.session_state[_NO_DOWNLOAD] = not bool(link.allow_download)
    src = state.source()
    st.session_state[_FROM] = src.sha256 if src is not None else None


def from_link(src: state.Source | None) -> bool:
    """True while the session shows the survey its shared view opened (a reload opens the link again, so that
    its expiry and revocation hold; no reload token of the session's own is made for it)."""
    return src is not None and "link" in st.query_params and st.session_state.get(_FROM) == src.sha256


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
    """False while a session shows the survey of a shared view whose sharer did not allow the original file
    (a survey the holder uploads afterwards is theirs to save)."""
    if not st.session_state.get(_NO_DOWNLOAD):
        return True
    src = state.source()
    return src is not None and st.session_state.get(_FROM) != src.sha256


def share_sidebar() -> None:
    """ "Share this view": a link to the survey and options as they are now, made on purpose."""
    src = state.source()
    with st.expander("Share this view", icon=":material/share:"):
        if src is None:
            st.caption("Upload a survey first.")
            return
        days = st.number_input(
            "Link lasts (days)", min_value=1, max_value=366, value=int(default_days()), step=1, key="w_share_days"
        )
        allow = st.checkbox("Let the holder download the original file", value=False, key="w_share_download")
        if st.button("Make a link", key="w_share_make", icon=":material/link:"):
            from treecalc.register import auth

            reg = cases.register()
            who = cases.user()
            by = who[0] if who else "app (not signed in)"
            sha = None if src.is_sample else reg.put_blob(src.data, by=by)
            token = auth.make_link(
                reg,
                by=by,
                kind="view",
                survey_sha256=sha,
                survey_name=None if src.is_sample else src.name,
                params={"read": state.read_opts(), "opts": state.opts()},
                days=float(days),
                allow_download=allow,
            )
            st.session_state[_MADE] = token
        made = st.session_state.get(_MADE)
        if made:
            st.code(f"?link={made}", language=None)
            st.caption(f"Add this to the app's address. It lasts {int(days)} days unless revoked.")
            if st.button("Revoke this link", key="w_share_revoke"):
                from treecalc.register import auth

                who = cases.user()
                auth.revoke_link(cases.register(), made, by=who[0] if who else "app (not signed in)")
                st.session_state.pop(_MADE, None)
                st.caption("Revoked: the link no longer opens.")
