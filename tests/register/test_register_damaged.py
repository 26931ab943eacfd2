"""Text the register cannot carry, and a register damaged behind its back: each refused naming what, never a
traceback, a bare database error or a write landing on top of the damage."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine

from tests.register.conftest import treecalc


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
        (lambda reg, cid: reg.note(cid, by="a\x00nn", text="paid"), "events.by"),
        (lambda reg, cid: reg.add_user("eve\x00", "clerk", "correct horse battery", by="ann"), "users.name"),
    ],
)
def test_a_nul_character_is_refused_in_every_text_field_naming_it(db_url, write, field):
    from treecalc.register import Register, RegisterError
    from treecalc.register.audit import verify

    reg = Register(db_url)
    cid = reg.new_case(by="ann", title="3 Oak Ln", kind="violation")
    with pytest.raises(RegisterError, match=rf"{field}: .*NUL"):
        write(reg, cid)
    # nothing of it was written: one event (the case), and the register still audits
    assert reg.show(cid)["events"][-1]["seq"] == 1
    assert verify(reg) is None


def test_a_nul_character_in_a_sign_in_name_is_refused_not_a_database_error(db_url):
    from treecalc.register import Register, RegisterError, auth

    reg = Register(db_url)
    with pytest.raises(RegisterError, match=r"(users|sign_ins)\.name: .*NUL"):
        auth.sign_in(reg, "ann\x00", "correct horse battery")


def test_a_sqlite_backup_holding_a_nul_is_refused_on_restore_naming_the_field(tmp_path, db_url):
    """A register written before NULs were refused (raw SQL here) backs up; its restore names the field."""
    from treecalc.register import Register

    src = f"sqlite:///{tmp_path / 'old.db'}"
    reg = Register(src)
    cid = reg.new_case(by="ann", title="3 Oak Ln", kind="violation")
    reg.note(cid, by="ann", text="paid")
    _raw(src, "UPDATE notes SET text = 'pa' || char(0) || 'id'")
    assert treecalc("case", "backup", tmp_path / "b.gz", db=src).returncode == 0
    r = treecalc("case", "restore", tmp_path / "b.gz", db=db_url)
    assert r.returncode == 2 and "notes.text" in r.stderr and "NUL" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
