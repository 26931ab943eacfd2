"""Links stay links: who may share what, a link made from a link grants at most what it was given and dies with it,
a shared survey is kept only while a link to it is open, and anonymous shares stay out of the audited record.
On SQLite and PostgreSQL (``db_url``)."""

from __future__ import annotations

import hashlib

import pytest
from sqlalchemy import func, select, update

# a user's own survey shape (not the bundled sample): four trees on a lot
SURVEY = b"Tag,Species,DBH (in),Action\n101,Red maple,14,remove\n102,Pin oak,22,retain\n103,Sugar maple,9,remove\n"
SHA = hashlib.sha256(SURVEY).hexdigest()


@pytest.fixture
def reg(db_url):
    from treecalc.register import Register

    r = Register(db_url)
    r.add_user("eng", "engineer", "correct horse battery", by="setup")
    r.add_user("clk", "clerk", "correct horse battery", by="eng")  # every later account is an engineer's
    return r


def _events(reg):
    from treecalc.register import models as m

    with reg.reading() as s:
        return s.scalar(select(func.count()).select_from(m.Event))


def _shared(reg):
    from treecalc.register import models as m

    with reg.reading() as s:
        return set(s.scalars(select(m.SharedFile.sha256)))


def _view(reg, **kw):
    from treecalc.register import links

    args = {"by": "clk", "kind": "view", "survey": SURVEY, "survey_name": "lot 7.csv", "params": {}, **kw}
    return links.make_link(reg, **args)


def test_a_link_made_from_a_link_cannot_allow_the_original_file_it_was_not_given(reg):
    from treecalc.register import RegisterError, links

    l1 = _view(reg, allow_download=False)
    with pytest.raises(RegisterError, match="cannot either"):
        _view(reg, by="eng", parent=l1, allow_download=True)
    l2 = _view(reg, by="eng", parent=l1, days=300)
    got = links.open_link(reg, l2).link
    assert got is not None and not got.allow_download and got.survey_sha256 == SHA
    # no later expiry than the link it was made from (L1: the default 7 days, L2 asked for 300)
    assert got.expires_at == links.open_link(reg, l1).link.expires_at


def test_revoking_a_link_kills_the_links_made_from_it(reg):
    from treecalc.register import audit, links

    l1 = _view(reg)
    l2 = _view(reg, by="eng", parent=l1)
    l3 = _view(reg, by="eng", parent=l2)
    links.revoke_link(reg, l1, by="clk")
    for token in (l1, l2, l3):
        assert links.open_link(reg, token).link is None
        assert "revoked" in links.open_link(reg, token).why
    assert audit.verify(reg) is None  # the cascade is recorded as events: the chain and the tables agree


def test_a_link_below_a_link_that_is_no_longer_open_does_not_open_even_if_not_marked(reg):
    from treecalc.register import links
    from treecalc.register import models as m

    l1 = _view(reg)
    l2 = _view(reg, by="eng", parent=l1)
    with reg.engine.begin() as c:  # L1 expired (no event marks L2)
        c.execute(
            update(m.Link).where(m.Link.token_sha256 == links._sha(l1)).values(expires_at="2001-02-03T00:00+00:00")
        )
    assert "made from another link" in links.open_link(reg, l2).why


def test_the_shared_survey_is_purged_when_its_last_link_is_revoked_unless_a_case_holds_it(reg):
    from treecalc.register import links

    a, b = _view(reg), _view(reg)
    assert SHA in _shared(reg) and links.survey_of(reg, links.open_link(reg, a).link) == SURVEY
    links.revoke_link(reg, a, by="clk")
    assert SHA in _shared(reg)  # b still shows it
    links.revoke_link(reg, b, by="clk")
    assert SHA not in _shared(reg) and reg.blob(SHA) is None  # the bytes are gone from the register
    # the same survey in a case: the case keeps its own copy when the share is purged
    reg.new_case(by="clk", title="12 Elm St", kind="permit", survey=("lot 7.csv", SURVEY))
    c = _view(reg)
    links.revoke_link(reg, c, by="clk")
    assert SHA not in _shared(reg) and reg.blob(SHA) == SURVEY


def test_anonymous_shares_stay_out_of_the_audited_record_within_a_quota_and_go_on_expiry(reg):
    from treecalc.register import RegisterError, audit, links
    from treecalc.register import models as m

    before = _events(reg)
    tokens = [
        links.share_anonymously(reg, browser="browser-A", survey=SURVEY, survey_name="lot 7.csv", days=3)
        for _ in range(links.ANON_MAX_LINKS)
    ]
    assert len(tokens) == 5 and _events(reg) == before  # no event, nothing in the audited record
    assert audit.verify(reg) is None
    assert links.open_link(reg, tokens[0]).link.survey_name == "lot 7.csv"
    with pytest.raises(RegisterError, match="5 shared views open"):
        links.share_anonymously(reg, browser="browser-A", survey=SURVEY, survey_name="x.csv")
    # another browser has its own quota; none may share beyond 30 days nor without a key
    other = links.share_anonymously(reg, browser="browser-B", survey=None, survey_name=None)
    with pytest.raises(RegisterError, match="30 days"):
        links.share_anonymously(reg, browser="browser-B", survey=None, survey_name=None, days=31)
    with pytest.raises(RegisterError, match="sign in"):
        links.share_anonymously(reg, browser=None, survey=SURVEY, survey_name="x.csv")
    # expired: deleted with its survey at the next use of links
    with reg.engine.begin() as c:
        c.execute(update(m.AnonLink).values(expires_at="2001-02-03T00:00:00+00:00"))
    assert "expired" in links.open_link(reg, tokens[0]).why
    with reg.reading() as s:
        assert s.scalar(select(func.count()).select_from(m.AnonLink)) == 0
    assert _shared(reg) == set() and "not known" in links.open_link(reg, other).why
    assert links.share_anonymously(reg, browser="browser-A", survey=SURVEY, survey_name="again.csv")


def test_a_signed_in_user_lists_the_links_they_made_and_revokes_one(reg):
    from treecalc.register import RegisterError, links

    cid = reg.new_case(by="eng", title="12 Elm St", kind="permit", survey=("lot 7.csv", SURVEY))
    case_link = links.make_link(reg, by="eng", kind="case", case_id=cid, days=14)
    view = _view(reg, by="eng")
    _view(reg, by="clk")  # another's: not in eng's list
    for _ in range(2):
        links.open_link(reg, case_link, count=True)
    links.open_link(reg, case_link)  # a rerun of an open session: not counted again
    made = links.links_made(reg, "eng")
    assert [r["kind"] for r in made] == ["shared view", "applicant's link to a case"]
    row = made[1]
    assert row["case"] == cid and row["opened"] == 2 and row["state"] == "open"
    assert row["created"][:10] <= row["expires"][:10] and len(row["expires"]) == 16
    # a clerk may not revoke an applicant's link at all (the role matrix: the engineer's act), and nobody revokes
    # a shared view another made
    with pytest.raises(RegisterError, match="link to a case needs an account of the engineer role: 'clk' is"):
        links.revoke_made(reg, row["id"], by="clk")
    with pytest.raises(RegisterError, match="did not make this link"):
        links.revoke_made(reg, made[0]["id"], by="clk")
    links.revoke_made(reg, row["id"], by="eng")
    assert "revoked" in links.open_link(reg, case_link).why
    assert "revoked" in links.links_made(reg, "eng")[1]["state"]
    assert links.open_link(reg, view).link is not None
