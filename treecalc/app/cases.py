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
from typing import Any

import streamlit as st

from treecalc.app import state

_TOKEN = "tc_staff_token"


@st.cache_resource(show_spinner=False)
def _register(url: str) -> Any:
    from treecalc.register import Register

    return Register(url or None)


def register() -> Any:
    """The register (raises :class:`state.AppError` naming the database when it cannot be opened)."""
    import os

    try:
        return _register(os.environ.get("TREECALC_DB", ""))
    except Exception as e:  # a bad URL, a server down: a message, not a traceback
        from treecalc.app.wording import readable

        raise state.AppError(f"The case register could not be opened: {readable(str(e))}") from e


def user() -> tuple[str, str] | None:
    """(name, role) of the signed-in staff member, or None (never signed in, signed out, session expired)."""
    from treecalc.register import auth

    token = st.session_state.get(_TOKEN)
    if not token:
        return None
    who = auth.session_user(register(), token)
    if who is None:
        st.session_state.pop(_TOKEN, None)
    return who


def may(action: str) -> bool:
    """Whether the signed-in account's role may do ``action`` (an act of the register's role matrix)."""
    from treecalc.register import roles

    who = user()
    return who is not None and roles.may(who[1], action)


def sign_in_form() -> None:
    """The sign-in form; a wrong password says so, the fourth attempt within the window is refused."""
    from treecalc.register import auth

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
            st.rerun()


def sign_out() -> None:
    from treecalc.register import auth

    token = st.session_state.pop(_TOKEN, None)
    if token:
        auth.sign_out(register(), token)


def assessment_json(a: Any) -> dict[str, Any]:
    """The assessment's JSON object as ``treecalc assess --json`` prints it (exact amounts as text)."""
    from treecalc.cli.common import _json_default
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
