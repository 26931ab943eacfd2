"""The app's own HTTP side, beside Streamlit's (``app.py`` builds ``st.App`` with it, which ``streamlit run
app.py`` serves): a staff session kept in an HttpOnly cookie, and the setup token of an empty register shown on
the server's console at start.

A Streamlit page talks to its server over a websocket and cannot set a cookie, and a cookie that page scripts
could set could also be read by them. So after a sign-in the page is handed a one-time *nonce* (60 seconds, kept
in this process only) and posts it to ``/_treecalc/session``; the answer sets the session token as an HttpOnly,
SameSite=Strict cookie that lasts as long as the session does. The token itself never reaches the page, a URL
or a share link. A reload sends the cookie with the websocket's request, where :func:`st.context.cookies`
reads it (:func:`treecalc.app.cases.user`). Signing out ends the session in the register and clears the cookie.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import secrets
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

COOKIE = "treecalc_session"
PATH = "/_treecalc/session"
#: how long a nonce handed to the page after a sign-in can be exchanged for the cookie
NONCE_SECONDS = 60

_LOG = logging.getLogger("treecalc.app")
_PENDING: dict[str, tuple[str, float]] = {}
_LOCK = threading.Lock()


def hand_off(token: str) -> str:
    """A nonce the page exchanges once, within :data:`NONCE_SECONDS`, for ``token`` set as the cookie."""
    nonce = secrets.token_urlsafe(24)
    with _LOCK:
        now = time.monotonic()
        for k in [k for k, (_, at) in _PENDING.items() if now - at > NONCE_SECONDS]:
            del _PENDING[k]
        _PENDING[nonce] = (token, now)
    return nonce


def _claim(nonce: str) -> str | None:
    with _LOCK:
        got = _PENDING.pop(nonce, None)
    if got is None or time.monotonic() - got[1] > NONCE_SECONDS:
        return None
    return got[0]


def _same_origin(request: Any) -> bool:
    """A browser says where a POST comes from: refuse one from another site's page."""
    origin = request.headers.get("origin")
    return origin is None or origin == f"{request.url.scheme}://{request.headers.get('host', '')}"


def _register() -> Any:
    from treecalc.register import Register  # heavy: sqlalchemy, loaded only when this runs

    return Register(os.environ.get("TREECALC_DB") or None)


async def session(request: Any) -> Any:
    """POST ``{"nonce": …}``: the nonce's session token set as the cookie. DELETE: the cookie's session ended
    in the register and the cookie cleared."""
    from starlette.concurrency import run_in_threadpool  # heavy: starlette, loaded only when this runs
    from starlette.responses import Response  # heavy: starlette, loaded only when this runs

    from treecalc.register import auth  # heavy: sqlalchemy, loaded only when this runs

    if not _same_origin(request):
        return Response(status_code=403)
    secure = request.url.scheme == "https"
    if request.method == "DELETE":
        if token := request.cookies.get(COOKIE):
            await run_in_threadpool(lambda: auth.sign_out(_register(), token))
        out = Response(status_code=204)
        out.delete_cookie(COOKIE, path="/", secure=secure, httponly=True, samesite="strict")
        return out
    try:
        nonce = json.loads(await request.body()).get("nonce")
    except (ValueError, AttributeError):
        nonce = None
    token = _claim(nonce) if isinstance(nonce, str) else None
    if token is None:
        return Response(status_code=403)
    out = Response(status_code=204)
    out.set_cookie(
        COOKIE,
        token,
        max_age=int(dt.timedelta(hours=auth.SESSION_HOURS).total_seconds()),
        path="/",
        secure=secure,
        httponly=True,
        samesite="strict",
    )
    return out


def routes() -> list[Any]:
    from starlette.routing import Route  # heavy: starlette, loaded only when this runs

    return [Route(PATH, session, methods=["POST", "DELETE"])]


def announce_setup() -> str | None:
    """At start: a register that exists and has no account gets a setup token, printed on this console (only
    who sees the server's console can make the first account). The user's own register file is not created
    here when it does not exist yet."""
    from treecalc.register import auth  # heavy: sqlalchemy, loaded only when this runs
    from treecalc.register.db import default_path  # heavy: sqlalchemy, loaded only when this runs

    if not os.environ.get("TREECALC_DB") and not default_path().exists():
        return None
    try:
        token = auth.setup_token(_register())
    except Exception:  # an account exists (the usual case), or the register cannot be opened: the pages say so
        return None
    print(
        f"treecalc: the case register has no account yet. Setup token (works once, for {auth.SETUP_MINUTES} "
        f"minutes): {token}\n  On the Cases page, 'Make the first account' with it.",
        flush=True,
    )
    return token


@asynccontextmanager
async def lifespan(_app: Any) -> AsyncIterator[None]:
    from starlette.concurrency import run_in_threadpool  # heavy: starlette, loaded only when this runs

    await run_in_threadpool(announce_setup)
    yield
