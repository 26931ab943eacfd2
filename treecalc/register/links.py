"""Links made on purpose: an applicant's link to one case, a shared view of a survey, and who may make which.

* A **signed-in staff member** makes links in the audited record (``links``, each made and revoked by an event):
  an applicant's link to a case, or a shared view of a survey.
* A **browser not signed in** may share the survey it uploaded (:func:`share_anonymously`): kept outside the
  audited record (``anon_links``), within :data:`ANON_MAX_LINKS` open links and :data:`ANON_MAX_MB` MB per browser
  (and :data:`ANON_TOTAL_LINKS` for all of them), for at most :data:`ANON_MAX_DAYS` days, deleted once it expired
  or was revoked. The audited record is the Village's: a passer-by's file does not belong in it for good.
* A shared survey's bytes are kept (``shared_files``, outside the record) only while a link to them is open: once
  the last one expires or is revoked they are purged (:func:`purge`); a case keeps its own copy (``blobs``).
* A link made **from a link** (``parent``) grants at most what that one gave (no original file when it gave none,
  no later expiry) and dies with it: revoking the parent revokes it, and opening it checks every link above it.

A token is kept only as its SHA-256: whoever reads the database cannot use a link from it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.orm import Session

from treecalc.register import models as m
from treecalc.register.core import Register, RegisterError, fits, now

LINK_DAYS = 7
MAX_DAYS = 366
#: an anonymous share: open links per browser, MB of their surveys per browser, days at most, open links in all
ANON_MAX_LINKS = 5
ANON_MAX_MB = 100
ANON_MAX_DAYS = 30
ANON_TOTAL_LINKS = 1000
#: how many links above a link are followed (a chain deeper than this is refused, made or opened)
MAX_DEPTH = 20


def _sha(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _utc(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text)


def _until(days: float) -> str:
    return (dt.datetime.now(dt.UTC) + dt.timedelta(days=days)).isoformat(timespec="microseconds")


@dataclass(frozen=True)
class Link:
    """What a link gives: a case (``kind="case"``) or a view of a survey (``"view"``)."""

    token_sha256: str
    kind: str
    case_id: int | None
    survey_sha256: str | None
    survey_name: str | None
    params: str | None
    allow_download: int
    created_at: str
    expires_at: str
    revoked_at: str | None
    made_by: str | None
    parent_sha256: str | None
    anonymous: bool


class LinkState:
    def __init__(self, link: Link | None, why: str | None) -> None:
        self.link, self.why = link, why


def _as_link(row: Any) -> Link:
    anonymous = isinstance(row, m.AnonLink)
    return Link(
        token_sha256=row.token_sha256,
        kind="view" if anonymous else row.kind,
        case_id=None if anonymous else row.case_id,
        survey_sha256=row.survey_sha256,
        survey_name=row.survey_name,
        params=row.params,
        allow_download=int(row.allow_download or 0),
        created_at=row.created_at,
        expires_at=row.expires_at,
        revoked_at=row.revoked_at,
        made_by=None if anonymous else row.made_by,
        parent_sha256=None if anonymous else row.parent_sha256,
        anonymous=anonymous,
    )


def _row(s: Session, sha: str) -> Link | None:
    row: m.Link | m.AnonLink | None = s.get(m.Link, sha)
    if row is None:
        row = s.get(m.AnonLink, sha)
    return None if row is None else _as_link(row)


def _dead(link: Link) -> str | None:
    if link.revoked_at:
        return f"This link was revoked on {link.revoked_at[:10]}."
    if _utc(link.expires_at) <= dt.datetime.now(dt.UTC):
        return f"This link expired on {link.expires_at[:10]}."
    return None


def _state(s: Session, sha: str) -> LinkState:
    """The link under ``sha`` and, when it does not open, why: itself or a link above it revoked or expired."""
    link = _row(s, sha)
    if link is None:
        return LinkState(
            None,
            "This link is not known to this server: it may have been mistyped, or it ended (revoked or expired) "
            "and was deleted.",
        )
    if why := _dead(link):
        return LinkState(None, why)
    above, depth = link.parent_sha256, 0
    while above is not None:
        depth += 1
        parent = _row(s, above)
        if parent is None or depth > MAX_DEPTH:
            return LinkState(None, "The link this one was made from is no longer known: it does not open.")
        if why := _dead(parent):
            return LinkState(None, f"This link was made from another link, which no longer opens: {why}")
        above = parent.parent_sha256
    return LinkState(link, None)


def open_link(reg: Register, token: str | None, *, count: bool = False) -> LinkState:
    """The link of a token, or why it does not open (unknown, expired, revoked, or made from a link that no longer
    opens). ``count``: this is a new opening (a new browser session), counted in the maker's list of links."""
    if not token:
        return LinkState(None, "This link has no token.")
    sha = _sha(token)
    with reg.reading() as s:
        got = _state(s, sha)
    if got.link is None and got.why and "not known" not in got.why:
        purge(reg)  # a dead link's survey is not kept a moment longer than needed
    if got.link is not None and count:
        with Session(reg.engine) as s, s.begin():
            row = s.get(m.LinkOpen, sha)
            if row is None:
                s.add(m.LinkOpen(token_sha256=sha, opened=1, last_at=now()))
            else:
                row.opened, row.last_at = int(row.opened or 0) + 1, now()
    return got


def params_of(reg: Register, token: str) -> dict[str, Any]:
    """The options a view's link carries, open or not (a link that no longer opens still says how it was viewed)."""
    with reg.reading() as s:
        link = _row(s, _sha(token))
    if link is None or link.kind != "view":
        return {}
    try:
        params = json.loads(link.params or "{}")
    except ValueError:
        return {}
    return params if isinstance(params, dict) else {}


def survey_of(reg: Register, link: Link) -> bytes | None:
    """The bytes of a view's survey: the copy kept for its links, else a case's; None when neither holds it."""
    if not link.survey_sha256:
        return None
    with reg.reading() as s:
        kept = s.get(m.SharedFile, link.survey_sha256)
        if kept is not None:
            return bytes(kept.content)
    return reg.blob(link.survey_sha256)


def _keep_survey(s: Session, data: bytes) -> str:
    sha = hashlib.sha256(data).hexdigest()
    if s.get(m.SharedFile, sha) is None:
        s.add(m.SharedFile(sha256=sha, size=len(data), content=data))
    return sha


def _check(kind: str, days: float, most: float = MAX_DAYS) -> None:
    if kind not in ("case", "view"):
        raise RegisterError(f"a link is to a case or a view, not {kind!r}")
    if not 0 < days <= most:
        raise RegisterError(f"a link lasts from a moment to {most:g} days, not {days}")


def make_link(
    reg: Register,
    *,
    by: str,
    kind: str,
    case_id: int | None = None,
    survey_sha256: str | None = None,
    survey_name: str | None = None,
    survey: bytes | None = None,
    params: dict[str, Any] | None = None,
    days: float = LINK_DAYS,
    allow_download: bool = False,
    parent: str | None = None,
) -> str:
    """A new link made by ``by`` (a signed-in staff member), recorded with its event; its token (shown once; only
    its SHA-256 is kept). ``survey``: the view's bytes, kept outside the record while a link to them is open.
    ``parent``: the token of the link the maker's session was opened from: the new link shows that link's survey
    only, allows the original file only if that one did, expires no later, and dies with it."""
    _check(kind, days)
    fits(survey_name, "the survey's file name", 500)
    expires = _until(days)
    parent_sha = None
    if parent is not None:
        above = open_link(reg, parent)
        if above.link is None:
            raise RegisterError(f"the link this session was opened from no longer opens: {above.why}")
        if above.link.kind != "view" or kind != "view":
            raise RegisterError("a link made from a link is a view of its survey")
        if allow_download and not above.link.allow_download:
            raise RegisterError(
                "the link this session was opened from does not let its holder download the original file: "
                "a link made from it cannot either"
            )
        if survey is not None and hashlib.sha256(survey).hexdigest() != above.link.survey_sha256:
            raise RegisterError("a link made from a link shows that link's survey")
        survey, survey_sha256, survey_name = None, above.link.survey_sha256, above.link.survey_name
        expires = min(expires, above.link.expires_at, key=_utc)
        parent_sha = above.link.token_sha256
    token = secrets.token_urlsafe(24)

    def do(rec: Any) -> Any:
        sha = _keep_survey(rec.session, survey) if survey is not None else survey_sha256
        link = m.Link(
            token_sha256=_sha(token),
            kind=kind,
            case_id=case_id,
            survey_sha256=sha,
            survey_name=survey_name,
            params=json.dumps(params or {}, sort_keys=True),
            allow_download=int(bool(allow_download)),
            created_at=now(),
            expires_at=expires,
            revoked_at=None,
            made_by=(by or "").strip() or None,
            parent_sha256=parent_sha,
        )
        return rec.insert("links", link)

    # an applicant's link to a case is the engineer's act; a view shared is the links' own (roles.MATRIX)
    reg._write(by, "case link made" if kind == "case" else "link made", case_id, do)
    purge(reg)
    return token


def share_anonymously(
    reg: Register,
    *,
    browser: str | None,
    survey: bytes | None,
    survey_name: str | None,
    params: dict[str, Any] | None = None,
    days: float = LINK_DAYS,
    allow_download: bool = False,
) -> str:
    """A view shared by a browser not signed in (``browser``: its own key, hashed here), kept outside the audited
    record within its quota; its token. Refused without a browser key, past the quota, or beyond
    :data:`ANON_MAX_DAYS` days."""
    if not browser:
        raise RegisterError("this browser sent no key of its own to count its shares by: sign in to share")
    _check("view", days, ANON_MAX_DAYS)
    fits(survey_name, "the survey's file name", 500)
    purge(reg)
    who = hashlib.sha256(b"treecalc share\0" + browser.encode("utf-8")).hexdigest()
    token = secrets.token_urlsafe(24)
    with Session(reg.engine) as s, s.begin():
        live = m.AnonLink.revoked_at.is_(None)
        mine = s.scalars(select(m.AnonLink).where(m.AnonLink.browser == who, live)).all()
        if len(mine) >= ANON_MAX_LINKS:
            raise RegisterError(
                f"this browser has {len(mine)} shared views open, the most a browser not signed in may have: "
                "revoke one, wait for one to expire, or sign in"
            )
        if (s.scalar(select(func.count()).select_from(m.AnonLink).where(live)) or 0) >= ANON_TOTAL_LINKS:
            raise RegisterError("this server holds as many shares of browsers not signed in as it keeps: sign in")
        shas = {x.survey_sha256 for x in mine if x.survey_sha256}
        held = s.scalar(select(func.coalesce(func.sum(m.SharedFile.size), 0)).where(m.SharedFile.sha256.in_(shas)))
        if survey is not None and (held or 0) + len(survey) > ANON_MAX_MB * 2**20:
            raise RegisterError(
                f"this browser's shared views would hold more than {ANON_MAX_MB} MB of surveys: revoke one, or sign in"
            )
        s.add(
            m.AnonLink(
                token_sha256=_sha(token),
                browser=who,
                survey_sha256=_keep_survey(s, survey) if survey is not None else None,
                survey_name=survey_name,
                params=json.dumps(params or {}, sort_keys=True),
                allow_download=int(bool(allow_download)),
                created_at=now(),
                expires_at=_until(days),
                revoked_at=None,
            )
        )
    return token


def _below(s: Session, sha: str) -> list[m.Link]:
    """The links made from the link ``sha``, and from those, ...: they die with it."""
    out: list[m.Link] = []
    level = [sha]
    for _ in range(MAX_DEPTH):
        rows = s.scalars(select(m.Link).where(m.Link.parent_sha256.in_(level), m.Link.revoked_at.is_(None))).all()
        if not rows:
            break
        out.extend(rows)
        level = [r.token_sha256 for r in rows]
    return out


def _revoke(reg: Register, sha: str, by: str, may: Any) -> None:
    with reg.reading() as s:
        anonymous, staff = s.get(m.AnonLink, sha) is not None, s.get(m.Link, sha) is not None
    if not anonymous and not staff:
        raise RegisterError("no such link")
    if anonymous:  # outside the record; a link made from it dies with it when opened (open_link checks above)
        with Session(reg.engine) as s, s.begin():
            s.execute(update(m.AnonLink).where(m.AnonLink.token_sha256 == sha).values(revoked_at=now()))
    else:

        def do(rec: Any) -> Any:
            link = rec.session.get(m.Link, sha)
            may(link)
            if not link.revoked_at:
                rec.update("links", link, revoked_at=now())
            for below in _below(rec.session, sha):  # the links made from it die with it, recorded so
                rec.update("links", below, revoked_at=now())
            return link

        with reg.reading() as s:
            known = s.get(m.Link, sha)
            event = "case link revoked" if known is not None and known.kind == "case" else "link revoked"
        reg._write(by, event, None, do)
    purge(reg)


def revoke_link(reg: Register, token: str, *, by: str) -> None:
    """Revoke the link of ``token`` (its maker's session holds it) and every link made from it."""
    _revoke(reg, _sha(token), by, lambda link: None)


def revoke_made(reg: Register, token_sha256: str, *, by: str) -> None:
    """Revoke, from a list of links, one that ``by`` made (an engineer may revoke any), and the links made from it."""

    def may(link: m.Link) -> None:
        if link.made_by != by:
            with reg.reading() as s:
                user = s.get(m.User, by)
                role = user.role if user is not None else None
            if role != "engineer":
                raise RegisterError(f"{by} did not make this link: its maker or an engineer revokes it")

    with reg.reading() as s:
        if s.get(m.Link, token_sha256) is None:
            raise RegisterError("no such link")
    _revoke(reg, token_sha256, by, may)


def links_made(reg: Register, by: str) -> list[dict[str, Any]]:
    """The links ``by`` made, newest first: kind, case, created, expires, how often opened, and whether open."""
    with reg.reading() as s:
        rows = s.scalars(select(m.Link).where(m.Link.made_by == by).order_by(m.Link.created_at.desc())).all()
        opens = {
            o.token_sha256: int(o.opened or 0)
            for o in s.scalars(select(m.LinkOpen).where(m.LinkOpen.token_sha256.in_([r.token_sha256 for r in rows])))
        }
        out = []
        for r in rows:
            got = _state(s, r.token_sha256)
            out.append(
                {
                    "id": r.token_sha256,
                    "kind": "applicant's link to a case" if r.kind == "case" else "shared view",
                    "case": r.case_id,
                    "survey": r.survey_name,
                    "created": r.created_at[:16].replace("T", " "),
                    "expires": r.expires_at[:16].replace("T", " "),
                    "opened": opens.get(r.token_sha256, 0),
                    "original file": bool(r.allow_download),
                    "state": "open" if got.link is not None else (got.why or "closed"),
                }
            )
    return out


def purge(reg: Register) -> None:
    """Delete the anonymous shares that expired or were revoked, and every shared survey no open link shows (a case
    keeps its own copy). Run whenever a link is made, revoked or found dead."""
    stamp = now()
    with Session(reg.engine) as s, s.begin():
        dead = or_(m.AnonLink.revoked_at.is_not(None), m.AnonLink.expires_at <= stamp)
        gone = s.scalars(select(m.AnonLink.token_sha256).where(dead)).all()
        if gone:
            s.execute(delete(m.LinkOpen).where(m.LinkOpen.token_sha256.in_(gone)))
            s.execute(delete(m.AnonLink).where(m.AnonLink.token_sha256.in_(gone)))
        for sha in s.scalars(select(m.SharedFile.sha256)).all():
            if s.scalar(select(m.AnonLink.token_sha256).where(m.AnonLink.survey_sha256 == sha).limit(1)):
                continue  # an open anonymous share (the dead ones were deleted above)
            staff = s.scalars(
                select(m.Link.token_sha256).where(
                    m.Link.survey_sha256 == sha, m.Link.revoked_at.is_(None), m.Link.expires_at > stamp
                )
            ).all()
            if not any(_state(s, t).link is not None for t in staff):
                s.execute(delete(m.SharedFile).where(m.SharedFile.sha256 == sha))
