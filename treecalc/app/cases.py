"""The app's side of the case register: the database, staff sign-in and roles.

The register is :class:`treecalc.register.Register` (``TREECALC_DB``, else the SQLite file in the user's
data folder). Staff sign in with an account made by ``treecalc user add NAME --role R``; the session holds
only the sign-in token (kept in the database as its SHA-256, expiring after
:data:`treecalc.register.auth.SESSION_HOURS` hours). What each role may record is the register's
(:data:`treecalc.register.roles.MATRIX`): a form is drawn only for a role that may use it, and the register
refuses the act itself whatever the page draws.
Nothing here computes: the register sums and dates, the library assesses.
"""

from __future__ import annotations

import json
import os
from typing import Any

import streamlit as st

from treecalc.app import server, state
from treecalc.cli.common import _json_default

_TOKEN = "tc_staff_token"
_COOKIE_DO = "tc_staff_cookie"  # ("POST", nonce) after a sign-in, ("DELETE", None) after a sign-out
_OPENED_FROM_LINK = "tc_opened_from_link"
_COOKIE_DEAD = "tc_staff_cookie_dead"


@st.cache_resource(show_spinner=False)
def _register(url: str) -> Any:
    from treecalc.register import Register  # heavy: sqlalchemy, loaded only when this runs

    return Register(url or None)


def register() -> Any:
    """The register (raises :class:`state.AppError` naming the database when it cannot be opened)."""
    try:
        return _register(os.environ.get("TREECALC_DB", ""))
    except Exception as e:  # a bad URL, a server down: a message, not a traceback
        from treecalc.app.wording import readable  # heavy: pandas, numpy, pyarrow, ..., loaded only when this runs

        raise state.AppError(f"The case register could not be opened: {readable(str(e))}") from e


def remember_opening() -> None:
    """Once per session, on its first run: was it opened from a link (``?link=``, ``?case=``)? Such a session
    stays what its link gives for its whole life: a staff cookie of the same browser does not sign it in."""
    if _OPENED_FROM_LINK not in st.session_state:
        st.session_state[_OPENED_FROM_LINK] = bool(st.query_params.get("link") or st.query_params.get("case"))


def _cookie_token() -> str | None:
    """The session token of this browser's HttpOnly cookie (:mod:`treecalc.app.server`), as the page's first
    request sent it: a reload of a signed-in page."""
    if st.session_state.get(_OPENED_FROM_LINK, True):  # opened from a link, or not known: never
        return None
    try:
        token = st.context.cookies.get(server.COOKIE)
    except Exception:  # no browser request behind this run (a headless test): no cookie
        return None
    if not isinstance(token, str) or not token:  # a headless test's stand-in for the request: no cookie
        return None
    return None if token == st.session_state.get(_COOKIE_DEAD) else token


def user() -> tuple[str, str] | None:
    """(name, role) of the signed-in staff member, or None (never signed in, signed out, session expired)."""
    from treecalc.register import auth  # heavy: sqlalchemy, loaded only when this runs

    token = st.session_state.get(_TOKEN) or _cookie_token()
    if not token:
        return None
    who = auth.session_user(register(), token)
    if who is None:
        st.session_state.pop(_TOKEN, None)
        st.session_state[_COOKIE_DEAD] = token  # ended or expired: not asked again in this session
    else:
        st.session_state[_TOKEN] = token
    return who


def may(action: str) -> bool:
    """Whether the signed-in account's role may do ``action`` (an act of the register's role matrix)."""
    from treecalc.register import roles  # heavy: sqlalchemy, loaded only when this runs

    who = user()
    return who is not None and roles.may(who[1], action)


def sign_in_form() -> None:
    """The sign-in form; a wrong password says so, the fourth attempt within the window is refused."""
    from treecalc.register import auth  # heavy: sqlalchemy, loaded only when this runs

    st.info("The case register needs sign-in. The calculator pages (Survey, Benefits, Permit, ...) stay open.")
    with st.form("w_sign_in"):
        name = st.text_input("Name", key="w_sign_in_name")
        password = st.text_input("Password", type="password", key="w_sign_in_password")
        go = st.form_submit_button("Sign in")
    if go:
        try:
            token, _role = auth.sign_in(register(), name.strip(), password)
        except auth.Throttled as e:
            st.error(str(e))
        except ValueError as e:
            st.error(str(e))
        else:
            st.session_state[_TOKEN] = token
            st.session_state[_COOKIE_DO] = ("POST", server.hand_off(token))
            st.rerun()


def sign_out() -> None:
    """The session ended in the register (a reload, or its cookie replayed, is signed out) and the cookie cleared."""
    from treecalc.register import auth  # heavy: sqlalchemy, loaded only when this runs

    token = st.session_state.pop(_TOKEN, None)
    if token:
        auth.sign_out(register(), token)
    st.session_state[_COOKIE_DO] = ("DELETE", None)


def sync_cookie() -> None:
    """After a sign-in or a sign-out: the browser asks the app's server to set or clear the HttpOnly cookie (the
    page is given a one-time nonce, never the session token)."""
    do = st.session_state.pop(_COOKIE_DO, None)
    if do is None:
        return
    method, nonce = do
    body = f", headers: {{'Content-Type': 'application/json'}}, body: {json.dumps(json.dumps({'nonce': nonce}))}"
    st.html(
        f"<script>fetch({json.dumps(server.PATH)}, {{method: {json.dumps(method)}, credentials: 'same-origin'"
        f"{body if nonce else ''}}});</script>",
        unsafe_allow_javascript=True,  # our own script; the nonce is ours (secrets.token_urlsafe)
    )


def has_account() -> bool:
    from treecalc.register import auth  # heavy: sqlalchemy, loaded only when this runs

    return bool(auth.has_account(register()))


def first_account_form() -> None:
    """An empty register's first account, made with the setup token printed on the server's machine."""
    from treecalc.register import auth  # heavy: sqlalchemy, loaded only when this runs

    st.warning(
        "The case register has no account yet. Its first account (an engineer) is made with the setup token "
        "shown on the server's console at start, or printed by `treecalc user setup` on the server's machine."
    )
    with st.form("w_first_account"):
        token = st.text_input("Setup token", type="password", key="w_setup_token")
        name = st.text_input("Name", key="w_setup_name")
        password = st.text_input("Password", type="password", key="w_setup_password")
        again = st.text_input("Password again", type="password", key="w_setup_again")
        go = st.form_submit_button("Make the first account")
    if go:
        if password != again:
            st.error("The two passwords differ.")
            return
        try:
            auth.first_account(register(), token.strip(), name.strip(), password)
        except ValueError as e:
            st.error(str(e))
        else:
            st.success(f"Account {name.strip()} (engineer) made: sign in with it.")


def assessment_json(a: Any) -> dict[str, Any]:
    """The assessment's JSON object as ``treecalc assess --json`` prints it (exact amounts as text)."""
    # heavy: pandas, numpy, pyarrow, ..., loaded only when this runs
    from treecalc.report.json_text import assessment_json_text

    return json.loads(assessment_json_text(a, default=_json_default))


def open_case(title: str, kind: str, address: str | None, lot: str | None) -> int:
    """A case from the current survey and options: its bytes and its assessment recorded."""
    who = user()
    if who is None:
        raise state.AppError("Sign in to open a case.")
    src = state.source()
    if src is None:
        raise state.AppError("No survey yet: upload one on the Survey page.")
    obj = assessment_json(state.assessment())
    obj["app_options"] = {"read": state.read_opts(), "opts": state.opts()}  # reopened as they were (case_survey)
    return int(
        register().new_case(
            by=who[0],
            title=title,
            kind=kind,
            address=address or None,
            lot=lot or None,
            survey=(src.name, src.data),
            assessment=obj,
        )
    )
