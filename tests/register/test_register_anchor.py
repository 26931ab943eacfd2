"""The audit chain anchored outside the database: edits that recompute every hash are found.

Whoever can write the database can rewrite the events and recompute their hashes and the head, so the chain alone
calls such a register intact (each test asserts that first). Every write also appends its signed head (HMAC under
a key kept apart from the database) to an anchor file outside the database; the audit checks the events against
those heads. The tests' key and anchor folder are their own (tests/conftest.py sets TREECALC_ANCHOR_KEY and
TREECALC_ANCHORS).

The register of each test: every write is an account's, so events 1 and 2 make the accounts of engineer "ann" and
clerk "bob"; event 3 opens case "22 Birch Rd", event 4 records a payment of $100.00 (payment 1), event 5 a payment
of $250.00 (payment 2); every write signed, so the anchor file holds heads 1 to 5.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from tests.register.conftest import staff, treecalc


@pytest.fixture
def paid(db_url):
    from treecalc.register import Register

    reg = staff(Register(db_url), "ann")  # event 1: engineer ann
    staff(reg, "bob", role="clerk")  # event 2: clerk bob, made by ann
    cid = reg.new_case(by="ann", title="22 Birch Rd", kind="violation", address="22 Birch Rd")
    reg.pay(cid, by="bob", amount="100.00", on="2026-03-02", reference="check 1041")
    reg.pay(cid, by="bob", amount="250.00", on="2026-03-03", reference="check 1042")
    return reg, cid


def _bodies(url: str) -> list[dict]:
    eng = create_engine(url)
    with eng.connect() as c:
        rows = c.execute(text("SELECT body FROM events ORDER BY seq")).scalars().all()
    eng.dispose()
    assert rows  # the register has events to rewrite
    return [json.loads(b) for b in rows]


def _rechain(url: str, bodies: list[dict], *state_sql: str) -> None:
    """Write ``bodies`` as the whole chain, numbered from 1, every hash and the head recomputed, and the state
    tables edited to match (``state_sql``): what anyone who can write the database can do."""
    from treecalc.register.core import GENESIS, canonical, chain_hash

    eng = create_engine(url)
    prev, seq = GENESIS, 0
    with eng.begin() as c:
        c.execute(text("DELETE FROM events"))
        for seq, b in enumerate(bodies, start=1):
            body = canonical({**b, "seq": seq})
            h = chain_hash(prev, body)
            c.execute(
                text(
                    'INSERT INTO events (seq, at, "by", kind, case_id, body, prev_hash, hash) '
                    "VALUES (:seq, :at, :by, :kind, :case_id, :body, :prev, :hash)"
                ),
                {
                    **{k: b[k] for k in ("at", "by", "kind", "case_id")},
                    "seq": seq,
                    "body": body,
                    "prev": prev,
                    "hash": h,
                },
            )
            prev = h
        c.execute(text("UPDATE chain_head SET seq = :s, hash = :h WHERE id = 1"), {"s": seq, "h": prev})
        for sql in state_sql:
            c.exec_driver_sql(sql)
    eng.dispose()


def test_the_last_payment_and_its_event_deleted_and_the_head_wound_back(paid):
    from treecalc.register.audit import verify

    reg, _ = paid
    _rechain(reg.url, _bodies(reg.url)[:4], "DELETE FROM payments WHERE id = 2")  # event 5 (payment 2) gone
    assert verify(reg, anchors=False) is None  # the chain and the tables agree: the chain alone cannot see it
    broken = verify(reg)
    assert broken is not None and broken.seq == 5, broken  # the signed head of event 5 has no event
    assert "not in the register, which ends at event 4: events were removed" in broken.why


def test_100_dollars_changed_to_a_cent_with_its_event(paid):
    from treecalc.register.audit import verify

    reg, cid = paid
    bodies = _bodies(reg.url)
    assert bodies[3]["changes"][0]["row"]["amount_cents"] == 10000  # event 4: payment 1, $100.00
    bodies[3]["changes"][0]["row"]["amount_cents"] = 1  # $0.01
    _rechain(reg.url, bodies, "UPDATE payments SET amount_cents = 1 WHERE id = 1")
    assert verify(reg, anchors=False) is None
    assert reg.show(cid, events=False)["paid_usd"] == "250.01"  # what the rewritten register now says
    broken = verify(reg)
    assert broken is not None and broken.seq == 4, broken  # the rewritten event itself (payment 1's)
    assert "rewritten, hashes and all" in broken.why


def test_a_forged_event_inserted_in_the_middle(paid):
    from treecalc.register.audit import verify

    reg, cid = paid
    bodies = _bodies(reg.url)
    forged = {**bodies[3], "kind": "note", "by": "ann", "changes": []}
    _rechain(reg.url, [*bodies[:3], forged, *bodies[3:]])  # between the case's opening and payment 1
    assert verify(reg, anchors=False) is None
    broken = verify(reg)
    assert broken is not None and broken.seq == 4, broken  # the forged event now holds number 4
    assert "rewritten, hashes and all" in broken.why


def test_a_forged_payment_appended(paid):
    from treecalc.register.audit import verify

    reg, cid = paid
    bodies = _bodies(reg.url)
    row = {"id": 3, "case_id": cid, "amount_cents": 500000, "paid_on": "2026-03-04", "reference": None}
    forged = {**bodies[4], "changes": [{"table": "payments", "op": "insert", "key": 3, "row": row}]}
    _rechain(
        reg.url,
        [*bodies, forged],
        f"INSERT INTO payments (id, case_id, amount_cents, paid_on) VALUES (3, {cid}, 500000, '2026-03-04')",
    )
    assert verify(reg, anchors=False) is None
    assert reg.show(cid, events=False)["paid_usd"] == "5350.00"  # 100 + 250 + 5,000 forged
    broken = verify(reg)
    assert broken is not None and broken.seq == 6, broken  # events 1-5 signed, the forged one is 6
    assert "written after the last signed head (event 5)" in broken.why
    r = treecalc("case", "audit", "--verify", db=reg.url)
    assert r.returncode == 1 and "event 6: written after the last signed head" in r.stderr, r.stderr


def test_an_intact_register_prints_its_signed_head(paid):
    from treecalc.register.anchor import anchor_file, key_path

    reg, cid = paid
    r = treecalc("case", "audit", "--verify", db=reg.url)
    assert r.returncode == 0, r.stderr
    assert "signed head: event 5, hash" in r.stdout, r.stdout  # the accounts' two events, the case's three
    r = treecalc("case", "fund", "--from", "2026-03-01", "--to", "2026-03-31", db=reg.url)
    assert r.returncode == 0 and "$350.00" in r.stdout and "signed head: event 5, hash" in r.stdout, r.stdout
    r = treecalc("case", "show", cid, "--json", db=reg.url)
    assert json.loads(r.stdout)["signed_head"]["seq"] == 5
    lines = anchor_file(reg.url).read_text().splitlines()
    assert [json.loads(x)["seq"] for x in lines] == [1, 2, 3, 4, 5]  # one signed head a write
    assert stat.S_IMODE(key_path().stat().st_mode) == 0o600  # the key: its owner's only
    assert len(key_path().read_text().strip()) == 64


def test_an_anchor_line_edited_or_the_key_changed_is_found(paid, tmp_path, monkeypatch):
    from treecalc.register.anchor import anchor_file
    from treecalc.register.audit import verify

    reg, _ = paid
    path = anchor_file(reg.url)
    lines = path.read_text().splitlines()
    d = json.loads(lines[1])
    d["hash"] = "0" * 64  # the head of event 2 made to agree with a rewritten chain, without the key
    path.write_text("\n".join([lines[0], json.dumps(d), *lines[2:]]) + "\n")
    broken = verify(reg)
    assert (
        broken is not None
        and "line 2 of the anchor file" in broken.why
        and "not signed by the anchor key" in broken.why
    )
    path.write_text("\n".join(lines) + "\n")
    assert verify(reg) is None
    monkeypatch.setenv("TREECALC_ANCHOR_KEY", str(tmp_path / "another.key"))  # the key lost
    broken = verify(reg)
    assert broken is not None and "the anchor key" in broken.why and "is missing" in broken.why


def test_deleted_anchors_are_found_and_signed_again_on_purpose(paid, tmp_path, monkeypatch):
    reg, _ = paid
    monkeypatch.setenv("TREECALC_ANCHORS", str(tmp_path / "elsewhere"))  # the anchor files gone
    r = treecalc("case", "audit", "--verify", db=reg.url)
    assert r.returncode == 1 and "no signed head of this register" in r.stderr, r.stderr
    r = treecalc("case", "audit", "--verify", "--sign", db=reg.url)
    assert r.returncode == 0 and "signed head: event 5" in r.stdout, (r.stdout, r.stderr)
    assert treecalc("case", "audit", "--verify", db=reg.url).returncode == 0


def test_a_write_signs_its_head_and_a_new_key_is_made_on_the_first(db_url, tmp_path, monkeypatch):
    from treecalc.register import Register
    from treecalc.register.anchor import last_head

    monkeypatch.setenv("TREECALC_ANCHOR_KEY", str(tmp_path / "keys" / "anchor.key"))
    assert not (tmp_path / "keys").exists()
    reg = staff(Register(db_url), "ann")  # event 1: ann's account, the first write
    reg.new_case(by="ann", title="9 Ash Ct", kind="permit")  # event 2
    head = last_head(reg.url)
    assert head is not None and head.seq == 2
    assert (tmp_path / "keys" / "anchor.key").is_file()


def test_sign_ins_and_sign_outs_are_audited(db_url):
    from treecalc.register import Register, RegisterError, auth
    from treecalc.register.audit import verify

    reg = Register(db_url)
    reg.add_user("eng1", "engineer", "correct horse battery", by="setup")  # event 1
    with pytest.raises(RegisterError):
        auth.sign_in(reg, "eng1", "wrong horse battery")  # event 2
    token, role = auth.sign_in(reg, "eng1", "correct horse battery")  # event 3
    assert role == "engineer" and auth.session_user(reg, token) == ("eng1", "engineer")
    auth.sign_out(reg, token)  # event 4
    assert auth.session_user(reg, token) is None
    auth.sign_out(reg, token)  # already out: nothing to record
    with pytest.raises(RegisterError):
        auth.sign_in(reg, "nobody", "whatever password")  # event 5: a name without an account
    eng = create_engine(reg.url)
    with eng.connect() as c:
        rows = c.execute(text('SELECT seq, "by", kind FROM events ORDER BY seq')).all()
    eng.dispose()
    assert [tuple(r) for r in rows] == [
        (1, "setup", "account"),
        (2, "eng1", "sign-in failed"),
        (3, "eng1", "signed in"),
        (4, "eng1", "signed out"),
        (5, "nobody", "sign-in failed"),
    ]
    assert verify(reg) is None


def test_a_restored_register_is_signed(db_url, tmp_path, paid):
    from treecalc.register import Register
    from treecalc.register.anchor import last_head
    from treecalc.register.audit import verify
    from treecalc.register.backup import backup, restore

    reg, _ = paid
    backup(reg, tmp_path / "b.gz")
    other = Register(f"sqlite:///{tmp_path / 'restored.db'}")
    restore(other, tmp_path / "b.gz")
    head = last_head(other.url)
    assert head is not None and head.seq == 5  # the accounts' two events and the case's three
    assert verify(other) is None
    assert Path(other.url.removeprefix("sqlite:///")).is_file()


def test_the_printed_head_is_read_from_the_anchor_files_end(paid, monkeypatch):
    from treecalc.register import anchor

    reg, _ = paid
    lines = anchor.anchor_file(reg.url).read_text().splitlines()
    assert len(lines) == 5
    # only the end of the file read: the last line whole and the one before cut (its first bytes not read)
    monkeypatch.setattr(anchor, "TAIL_BYTES", len(lines[4]) + 1 + len(lines[3]) // 2)
    head = anchor.last_head(reg.url)
    assert head is not None and head.seq == 5
