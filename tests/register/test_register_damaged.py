"""Text the register cannot carry, and a register damaged behind its back: each refused naming what, never a
traceback, a bare database error or a write landing on top of the damage."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine

from tests.register.conftest import PASSWORD, staff, treecalc


def _raw(db_url, sql, *params):
    engine = create_engine(db_url)
    with engine.begin() as c:
        c.exec_driver_sql(sql, *params)  # raw SQL, behind the register's back
    engine.dispose()


# -- a NUL character: SQLite stores it, PostgreSQL refuses it, so a backup would not restore there ---------


@pytest.mark.parametrize(
    ("write", "field"),
    [
        (lambda reg, cid: reg.note(cid, by="ann", text="paid\x00 in full"), "notes.text"),
        (lambda reg, cid: reg.new_case(by="ann", title="3 Oak\x00 Ln", kind="violation"), "cases.title"),
        (
            lambda reg, cid: reg.pay(cid, by="ann", amount="10", on="2026-02-01", reference="chk\x00 12"),
            "payments.reference",
        ),
        (lambda reg, cid: reg.open_hold(cid, by="ann", on="2026-02-01", reason="\x00"), "holds.reason"),
        (lambda reg, cid: reg.note(cid, by="a\x00nn", text="paid"), "users.name"),
        (lambda reg, cid: reg.add_user("eve\x00", "clerk", "correct horse battery", by="ann"), "users.name"),
    ],
)
def test_a_nul_character_is_refused_in_every_text_field_naming_it(db_url, write, field):
    from treecalc.register import RegisterError
    from treecalc.register.audit import verify

    reg = staff(db_url, "ann", "bob")
    cid = reg.new_case(by="ann", title="3 Oak Ln", kind="violation")
    with pytest.raises(RegisterError, match=rf"{field}: .*NUL"):
        write(reg, cid)
    # nothing of it was written: three events (the two accounts, the case), and the register still audits
    assert reg.show(cid)["events"][-1]["seq"] == 3
    assert verify(reg) is None


def test_a_nul_character_in_a_sign_in_name_is_refused_not_a_database_error(db_url):
    from treecalc.register import Register, RegisterError, auth

    reg = Register(db_url)
    with pytest.raises(RegisterError, match=r"(users|sign_ins)\.name: .*NUL"):
        auth.sign_in(reg, "ann\x00", "correct horse battery")


def test_a_sqlite_backup_holding_a_nul_is_refused_on_restore_naming_the_field(tmp_path, db_url):
    """A register written before NULs were refused (raw SQL here) backs up; its restore names the field."""

    src = f"sqlite:///{tmp_path / 'old.db'}"
    reg = staff(src, "ann")
    cid = reg.new_case(by="ann", title="3 Oak Ln", kind="violation")
    reg.note(cid, by="ann", text="paid")
    _raw(src, "UPDATE notes SET text = 'pa' || char(0) || 'id'")
    assert treecalc("case", "backup", tmp_path / "b.gz", db=src).returncode == 0
    r = treecalc("case", "restore", tmp_path / "b.gz", db=db_url)
    assert r.returncode == 2 and "notes.text" in r.stderr and "NUL" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


# -- a register damaged behind the program's back: the audit names what, writes are refused ----------------


@pytest.fixture
def paid(tmp_path):
    """A SQLite register: case 1 (event 1), a payment of $100 (event 2), a note (event 3)."""

    url = f"sqlite:///{tmp_path / 'register.db'}"
    reg = staff(url, "ann", "bob")
    cid = reg.new_case(by="ann", title="3 Oak Ln", kind="violation")
    reg.pay(cid, by="bob", amount="100.00", on="2026-02-01")
    reg.note(cid, by="ann", text="paid by check")
    assert treecalc("case", "audit", "--verify", db=url).returncode == 0
    return url


def _events(url):
    engine = create_engine(url)
    with engine.connect() as c:
        n = c.exec_driver_sql("SELECT count(*) FROM events").scalar()
    engine.dispose()
    return n


def test_an_event_stored_as_bytes_is_named_by_the_audit_and_writes_are_refused(paid):
    _raw(paid, "UPDATE events SET body = CAST(body AS BLOB) WHERE seq = 4")
    r = treecalc("case", "audit", "--verify", db=paid)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert "event 4: events.body is stored as bytes" in r.stderr
    _raw(paid, "UPDATE events SET body = CAST(body AS TEXT) WHERE seq = 4")  # mended: intact again
    assert treecalc("case", "audit", "--verify", db=paid).returncode == 0
    _raw(paid, "UPDATE events SET body = CAST(body AS BLOB) WHERE seq = 5")  # the last event
    r = treecalc("case", "pay", 1, "--amount", "5", "--date", "2026-02-02", "--by", "bob", db=paid)
    assert r.returncode == 1 and "event 5: events.body is stored as bytes" in r.stderr, r.stderr
    assert _events(paid) == 5  # nothing written on top of the damage


def test_a_payment_date_that_is_not_a_date_is_named_with_its_event(paid):
    _raw(paid, "UPDATE payments SET paid_on = 'not-a-date' WHERE id = 1")
    r = treecalc("case", "audit", "--verify", db=paid)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    # events: 1 and 2 the accounts, 3 case opened, 4 the payment (which wrote paid_on), 5 the note
    assert "event 4: payments 1: paid_on is 'not-a-date', not a date" in r.stderr
    r = treecalc("case", "show", 1, db=paid)
    assert r.returncode == 1 and "payments 1: paid_on is 'not-a-date', not a date" in r.stderr, r.stderr


def test_a_damaged_last_page_is_named_and_pay_does_not_write_to_it(paid):
    """Text that is not UTF-8 where the last event's body was (what a torn last page reads as)."""
    _raw(paid, "UPDATE events SET body = CAST(X'7b2273657122ff80fe' AS TEXT) WHERE seq = 5")
    r = treecalc("case", "audit", "--verify", db=paid)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert "event 5: events.body is not UTF-8 text" in r.stderr
    r = treecalc("case", "pay", 1, "--amount", "5", "--date", "2026-02-02", "--by", "bob", db=paid)
    assert r.returncode == 1 and "event 5: events.body is not UTF-8 text" in r.stderr, r.stderr
    assert "case audit --verify" in r.stderr
    assert _events(paid) == 5


def test_a_register_of_a_newer_schema_is_refused_with_a_sentence(db_url):
    from treecalc.register import core

    staff(db_url, "ann").new_case(by="ann", title="3 Oak Ln", kind="violation")
    core._ENGINES.pop(db_url, None)  # a later process, opening it afresh
    _raw(db_url, "UPDATE alembic_version SET version_num = '0042_bonds_v2'")
    for args in (
        ["case", "show", "1"],
        ["case", "audit", "--verify"],
        ["case", "note", "1", "--text", "x", "--by", "a"],
    ):
        r = treecalc(*args, db=db_url)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        assert "this register was written by a newer treecalc (schema 0042_bonds_v2); upgrade treecalc" in r.stderr, (
            r.stderr
        )


# -- a register file cut to 0 bytes is not a new register -------------------------------------------------


def test_a_register_file_cut_to_zero_bytes_is_refused_not_recreated_empty(tmp_path):
    from treecalc.register import core

    path = tmp_path / "register.db"
    url = f"sqlite:///{path}"
    reg = staff(url, "ann")
    reg.new_case(by="ann", title="3 Oak Ln", kind="violation")
    reg.engine.dispose()
    core._ENGINES.pop(url, None)  # a later process
    for extra in ("-wal", "-shm"):
        (tmp_path / f"register.db{extra}").unlink(missing_ok=True)
    path.write_bytes(b"")  # cut to 0 bytes
    for args in (["case", "audit", "--verify"], ["case", "list"], ["case", "note", "1", "--text", "x", "--by", "a"]):
        r = treecalc(*args, db=url)
        assert r.returncode == 2 and str(path) in r.stderr and "0 bytes" in r.stderr, r.stderr
    assert path.stat().st_size == 0  # left as found: no empty register made in its place
    # a file that does not exist yet is a new register, made on first use
    fresh = f"sqlite:///{tmp_path / 'new.db'}"
    assert treecalc("case", "audit", "--verify", db=fresh).returncode == 0


def test_a_torn_last_page_of_the_file_is_named_and_pay_writes_nothing(tmp_path, monkeypatch):
    """The file's last page overwritten (a torn write): SQLite finds it malformed; every command meeting it
    says the file is damaged (exit 1) and a payment is not written."""
    import sqlite3

    from treecalc.register import auth, core

    path = tmp_path / "register.db"
    url = f"sqlite:///{path}"
    reg = staff(url, "ann", "bob")
    cid = reg.new_case(by="ann", title="3 Oak Ln", kind="violation")
    for i in range(30):
        reg.pay(cid, by="bob", amount="1.00", on="2026-02-01", reference=f"r{i}")
        reg.note(cid, by="ann", text="a note " * 20)
    # bob's session, made before the damage: the command below acts without recording a sign-in
    token, _ = auth.sign_in(reg, "bob", PASSWORD)
    reg.engine.dispose()
    core._ENGINES.pop(url, None)
    c = sqlite3.connect(path)
    c.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # everything in the file itself
    c.close()
    size = path.stat().st_size
    with open(path, "r+b") as f:
        f.seek(size - 4096)
        f.write(b"\xff" * 4096)
    r = treecalc("case", "audit", "--verify", db=url)
    assert r.returncode == 1 and "its file is damaged (SQLite: database disk image is malformed)" in r.stderr, r.stderr
    monkeypatch.setenv("TREECALC_SESSION", token)
    r = treecalc("case", "pay", cid, "--amount", "5", "--date", "2026-02-02", db=url, password=None)
    assert r.returncode == 1 and "its file is damaged" in r.stderr and "nothing was written" in r.stderr, r.stderr
    wal = tmp_path / "register.db-wal"  # where SQLite would have put the payment first
    assert not wal.exists() or wal.stat().st_size == 0
    assert path.stat().st_size == size and path.read_bytes()[-4096:] == b"\xff" * 4096
