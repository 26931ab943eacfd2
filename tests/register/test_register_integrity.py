"""Nothing lost, nothing altered unseen: migrations, the audit, a killed writer, concurrent writers, backups."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text

from tests.register.conftest import PASSWORD, ROOT, staff, treecalc


def test_alembic_migrates_an_empty_database_to_head(db_url):
    from alembic.script import ScriptDirectory

    from treecalc.register import Register
    from treecalc.register.db import HEAD, alembic_config

    engine = create_engine(db_url)
    if engine.dialect.name == "sqlite":  # no file yet (connecting would leave one of 0 bytes, refused as cut)
        assert not Path(engine.url.database).exists()
    else:
        with engine.connect() as c:
            assert not inspect(c).get_table_names()  # empty
    Register(db_url)
    with engine.connect() as c:
        tables = set(inspect(c).get_table_names())
        assert {"cases", "events", "payments", "bonds", "plantings", "holds", "notes", "blobs", "users"} <= tables
        assert c.execute(text("SELECT version_num FROM alembic_version")).scalar() == HEAD
        assert c.execute(text("SELECT seq, hash FROM chain_head")).one() == (0, "0" * 64)
    engine.dispose()
    # the HEAD constant that skips Alembic on an up-to-date database is the scripts' own head
    assert ScriptDirectory.from_config(alembic_config(db_url)).get_current_head() == HEAD


def _raw(db_url, sql):
    engine = create_engine(db_url)
    with engine.begin() as c:
        c.exec_driver_sql(sql)  # raw SQL, behind the register's back
    engine.dispose()


def test_audit_finds_an_amount_altered_with_raw_sql(db_url):

    reg = staff(db_url, "ann", "bob")
    cid = reg.new_case(by="ann", title="3 Oak Ln", kind="violation")
    reg.pay(cid, by="bob", amount="100.00", on="2026-02-01")
    reg.pay(cid, by="bob", amount="250.75", on="2026-02-02")
    reg.note(cid, by="ann", text="paid in two parts")
    assert treecalc("case", "audit", "--verify", db=db_url).returncode == 0
    _raw(db_url, "UPDATE payments SET amount_cents = 2507 WHERE amount_cents = 25075")  # $250.75 -> $25.07
    r = treecalc("case", "audit", "--verify", db=db_url)
    assert r.returncode == 1
    # events: 1 and 2 the accounts, 3 case opened, 4 first payment, 5 second payment (the altered one), 6 note
    assert "event 5: payments 2: amount_cents is 2507 in the database, the event wrote 25075" in r.stderr
    assert reg.show(cid, events=False)["paid_usd"] == "125.07"  # what the altered table now sums to


def test_audit_finds_an_event_edited_removed_or_a_row_added(db_url):
    from treecalc.register.audit import verify

    reg = staff(db_url, "ann", "bob")  # events 1 and 2
    cid = reg.new_case(by="ann", title="3 Oak Ln", kind="violation")
    reg.pay(cid, by="bob", amount="10.00", on="2026-02-01")
    reg.pay(cid, by="bob", amount="20.00", on="2026-02-02")
    # both the row and its event rewritten: the event's hash no longer matches its content
    _raw(db_url, "UPDATE payments SET amount_cents = 1 WHERE id = 1")
    _raw(db_url, "UPDATE events SET body = REPLACE(body, '\"amount_cents\":1000', '\"amount_cents\":1') WHERE seq = 4")
    broken = verify(reg)
    assert broken is not None and broken.seq == 4 and "does not match its hash" in broken.why
    _raw(db_url, "DELETE FROM events WHERE seq = 5")
    assert verify(reg).seq == 4  # still the first break
    # a row no event wrote
    reg2 = staff(db_url.replace("register.db", "other.db"), "ann") if db_url.startswith("sqlite") else None
    if reg2 is not None:
        c = reg2.new_case(by="ann", title="x", kind="permit")
        _raw(reg2.url, f"INSERT INTO payments (case_id, amount_cents, paid_on) VALUES ({c}, 500, '2026-01-01')")
        assert "no event wrote it" in verify(reg2).why


_KILLED_WRITER = """
import sys, time, pathlib
from treecalc.register import core
real = core.Register._append_event
def slow(self, *a, **k):
    ev = real(self, *a, **k)
    pathlib.Path(sys.argv[2]).write_text("in the transaction")
    time.sleep(600)  # killed here: the rows and the event are written, not committed
    return ev
core.Register._append_event = slow
reg = core.Register(sys.argv[1])
reg.pay(1, by="bob", amount="999.99", on="2026-03-01")
"""


def test_a_writer_killed_mid_write_leaves_the_register_as_it_was(db_url, tmp_path):
    from treecalc.register.audit import verify

    reg = staff(db_url, "ann", "bob")
    cid = reg.new_case(by="ann", title="3 Oak Ln", kind="violation")
    reg.pay(cid, by="bob", amount="10.00", on="2026-02-01")
    marker = tmp_path / "marker"
    p = subprocess.Popen([sys.executable, "-c", _KILLED_WRITER, db_url, str(marker)], cwd=ROOT)
    try:
        deadline = time.monotonic() + 120
        while not marker.exists():
            assert p.poll() is None, "the writer ended before it was killed"
            assert time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        p.send_signal(signal.SIGKILL)
        p.wait()
    shown = reg.show(cid)
    assert shown["paid_usd"] == "10.00" and len(shown["events"]) == 2
    assert verify(reg) is None
    reg.pay(cid, by="bob", amount="5.00", on="2026-02-03")  # the next write is not blocked by the dead one
    assert reg.show(cid)["paid_usd"] == "15.00" and verify(reg) is None


_WRITER = """
import sys
from treecalc.register import Register
reg = Register(sys.argv[1])
w = int(sys.argv[2])
for i in range(int(sys.argv[3])):
    reg.pay(1, by=f"writer {w}", amount=f"{w}.{i:02d}", on="2026-04-01", reference=f"{w}-{i}")
"""


def test_concurrent_writers_from_several_processes_all_land(db_url):
    from treecalc.register.audit import verify

    writers, each = 4, 15
    reg = staff(db_url, "ann", *(f"writer {w}" for w in range(1, writers + 1)))  # events 1 to 5
    cid = reg.new_case(by="ann", title="3 Oak Ln", kind="violation")
    procs = [
        subprocess.Popen([sys.executable, "-c", _WRITER, db_url, str(w), str(each)], cwd=ROOT)
        for w in range(1, writers + 1)
    ]
    # and two CLI calls at the same time
    env = {**os.environ, "TREECALC_DB": db_url, "TREECALC_USER": "ann", "TREECALC_PASSWORD": PASSWORD}
    clis = [
        subprocess.Popen(
            [sys.executable, "-m", "treecalc.cli", "case", "pay", str(cid), "--amount", "0.50", "--date", "2026-04-02"],
            env=env,
            cwd=ROOT,
        )
        for _ in range(2)
    ]
    assert [p.wait(timeout=300) for p in procs + clis] == [0] * (writers + 2)
    shown = reg.show(cid)
    # writer w pays w.00, w.01, ... w.14: 15w dollars and 0+1+...+14 = 105 cents each;
    # 15 x (1+2+3+4) = 150.00 + 4 x 1.05 = 4.20, + 2 x 0.50 = 1.00 from the CLI: 155.20
    assert len(shown["payments"]) == writers * each + 2
    assert shown["paid_usd"] == "155.20"
    # after the 5 accounts' events (1-5): the case's (6) and each payment's (62), and each CLI call's sign-in and
    # sign-out, audited but not the case's (2 x 2): 5 + 1 + 62 + 4 = 72 events, numbered without a gap
    case_seqs = [e["seq"] for e in shown["events"]]
    assert case_seqs[0] == 6 and len(case_seqs) == 1 + writers * each + 2 and case_seqs == sorted(case_seqs)
    from sqlalchemy import select

    from treecalc.register import models as m

    with reg.reading() as s:
        rows = s.execute(select(m.Event.seq, m.Event.kind, m.Event.by).order_by(m.Event.seq)).all()
    assert [r.seq for r in rows] == list(range(1, 5 + 1 + writers * each + 2 + 4 + 1))
    others = sorted((r.kind, r.by) for r in rows if r.seq > 5 and r.seq not in case_seqs)
    assert others == [("signed in", "ann")] * 2 + [("signed out", "ann")] * 2
    assert verify(reg) is None


def test_backup_and_restore_round_trip(db_url, tmp_path, survey_csv):
    from treecalc.register import Register
    from treecalc.register.audit import verify

    reg = staff(db_url, "ann", "bob")
    cid = reg.new_case(by="ann", title="14 Elm St", kind="permit", survey=(survey_csv.name, survey_csv.read_bytes()))
    reg.pay(cid, by="bob", amount="1,234.56", on="2026-02-01", reference="chk 7")
    reg.plant(cid, by="bob", trees=4, accepted_on="2026-04-15")
    b = reg.post_bond(cid, by="bob", amount="800", on="2026-04-16")
    reg.close_bond(b, by="ann", how="released", on="2026-10-01")
    reg.open_hold(cid, by="ann", on="2026-05-01")
    backup = tmp_path / "register.backup"
    r = treecalc("case", "backup", str(backup), "--json", db=db_url)
    assert r.returncode == 0, r.stderr
    # into a new SQLite file, whatever the source
    target = f"sqlite:///{tmp_path / 'restored.db'}"
    r = treecalc("case", "restore", str(backup), db=target)
    assert r.returncode == 0, r.stderr
    restored = Register(target)
    before, after = reg.show(cid), restored.show(cid)
    assert after == before
    assert restored.blob(before["surveys"][0]["sha256"]) == survey_csv.read_bytes()
    assert verify(restored) is None
    restored.pay(cid, by="bob", amount="0.44", on="2026-02-02")  # the ids go on after the restored ones
    assert restored.show(cid)["paid_usd"] == "1235.00"  # 1,234.56 + 0.44
    # a restore into a register that holds events is refused, and writes nothing
    r = treecalc("case", "restore", str(backup), db=target)
    assert r.returncode == 2 and "already holds" in r.stderr
    # a damaged backup is refused
    bad = tmp_path / "bad.backup"
    bad.write_bytes(b"not a backup")
    r = treecalc("case", "restore", str(bad), db=f"sqlite:///{tmp_path / 'empty.db'}")
    assert r.returncode == 2 and "not a register backup" in r.stderr


def test_a_sqlite_backup_restores_onto_postgresql(tmp_path, pg_url, survey_csv):
    from treecalc.register import Register
    from treecalc.register.backup import backup, restore

    src = staff(f"sqlite:///{tmp_path / 'r.db'}", "ann", "bob")
    cid = src.new_case(by="ann", title="14 Elm St", kind="permit", survey=(survey_csv.name, survey_csv.read_bytes()))
    src.pay(cid, by="bob", amount="99.99", on="2026-02-01")
    backup(src, tmp_path / "b")
    dst = Register(pg_url)
    restore(dst, tmp_path / "b")
    assert dst.show(cid) == src.show(cid)
    assert dst.pay(cid, by="bob", amount="0.01", on="2026-02-02") == 2  # PostgreSQL's sequences moved on
    assert dst.show(cid)["paid_usd"] == "100.00"


def test_backup_of_a_missing_folder_exits_2(tmp_path):
    r = treecalc("case", "backup", str(tmp_path / "no" / "b"), db=f"sqlite:///{tmp_path / 'r.db'}")
    assert r.returncode == 2 and "does not exist" in r.stderr


@pytest.mark.parametrize("kind", ["sqlite"])
def test_the_default_register_is_a_file_in_the_user_data_folder(tmp_path, monkeypatch, kind):
    monkeypatch.delenv("TREECALC_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    from treecalc.register.db import database_url

    assert database_url() == f"sqlite:///{tmp_path / 'data' / 'treecalc' / 'register.db'}"
    assert Path(tmp_path / "data" / "treecalc").is_dir()
    assert json.loads(json.dumps({"ok": True}))


def test_the_migrations_make_exactly_the_models_tables(tmp_path):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from treecalc.register import Register
    from treecalc.register.models import Base

    url = f"sqlite:///{tmp_path / 'r.db'}"
    Register(url)
    engine = create_engine(url)
    with engine.connect() as c:
        assert compare_metadata(MigrationContext.configure(c), Base.metadata) == []
    engine.dispose()
