"""Benchmark: the case register at a village's size after many years.

    .venv/bin/python benchmarks/register.py [--db URL] [--cases 10000] [--payments 100000] [--plantings 20000]
                                            [--audit]

Method
------
1. A new register (a SQLite file in a temporary folder, or ``--db``, which must be empty) is filled with
   ``--cases`` cases, ``--payments`` payments over 2016-2026 and ``--plantings`` plantings, and in proportion
   to the cases every other table the program writes: decisions (6 in 10 cases), the Planning Board's civil
   penalties (1 in 10), bonds and links (1 in 5),
   holds (1 in 20), notes (1 a case), 5 staff accounts, 11 fee schedules (one Board resolution a year), and
   2 sign-ins a case (an audited event each, and a row of ``sign_ins``). Each row with its hash-chained
   event as :meth:`Register._write` makes it (loaded in bulk: one transaction per 5,000 events, the chain
   computed in Python with the register's own ``canonical``, ``chain_hash`` and ``row_values``), and each
   event's signed head appended to the anchor file as the write would have (:mod:`treecalc.register.anchor`;
   the key and the anchor files in the temporary folder unless ``TREECALC_ANCHOR_KEY``/``TREECALC_ANCHORS``
   are set).
2. Timed, each repeated ``--repeat`` times (median and worst printed), on the loaded register:
   ``case show`` of a random case (:meth:`Register.show` with its events, and the latest signed head that
   ``case show`` prints), the Fund ledger of one year, the inspections due in one month, the fee schedule in
   force on a day (what every assessment against the register asks), recording a payment
   (:meth:`Register.pay`: one transaction with its event, and its signed head appended), and recording an
   assessment (a 200-tree survey's bytes and its assessment JSON, as ``case new`` saves it:
   :meth:`Register.new_case`) — the time the register adds to saving an assessment. ``--audit``: the whole
   audit (chain, tables, signed heads) once, timed, without a goal.
3. Goals: show, ledger, due list and schedule in force ≤ 100 ms each; a payment ≤ 20 ms; an assessment
   ≤ 50 ms. Exit 1 when a median misses its goal. Wall times on a shared machine: the load average is
   printed with them.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def synthetic_rows(cases: int, payments: int, plantings: int) -> list[tuple[str, dict]]:
    """The rows of a register after years of use, each table as the program writes it: cases, payments,
    plantings, and (in proportion to the cases) decisions, bonds, holds, notes, links, staff accounts and the
    Board's fee schedules (one resolution a year). ``("sign-in", {...})`` rows stand for sign-ins: an event each
    (audited) and a row of ``sign_ins`` outside the chain."""
    from treecalc.register.core import anniversary, now
    from treecalc.register.readings import warranty_years

    rnd = random.Random(24)
    start = dt.date(2016, 1, 1)

    def day() -> dt.date:
        return start + dt.timedelta(days=rnd.randrange(11 * 365))

    def case() -> int:
        return rnd.randint(1, cases)

    rows: list[tuple[str, dict]] = [
        ("users", {"name": n, "role": r, "password_hash": f"$argon2id$v=19$m=65536,t=3,p=4${n}"})
        for n, r in [("eng", "engineer"), ("clk1", "clerk"), ("clk2", "clerk"), ("clk3", "clerk"), ("view", "viewer")]
    ]
    for i, year in enumerate(range(2016, 2027), start=1):
        row = {"id": i, "basis": "per_tree", "fee_per_tree_cents": 45000 + 2500 * i, "multiplier": None}
        row |= {"value_basis": None, "resolution_date": dt.date(year, 3, 1), "resolution": f"Res. {year}-{i}"}
        rows.append(("fee_schedules", row | {"recorded_by": "eng", "recorded_at": now()}))
    for i in range(1, cases + 1):
        title = f"{rnd.randint(1, 300)} {rnd.choice(['Elm', 'Oak', 'Maple', 'Grand'])} St"
        kind = rnd.choice(["permit_application", "violation", "excavation_permit"])
        lot = f"{rnd.randint(60, 80)}.{rnd.randint(1, 20)}-{rnd.randint(1, 9)}-{i}"
        rows.append(("cases", {"id": i, "kind": kind, "title": title, "address": None, "lot": lot, "opened_at": now()}))
        rows[-1][1]["opened_by"] = "bench"
    for i in range(1, payments + 1):
        rows.append(
            ("payments", {"id": i, "case_id": case(), "amount_cents": rnd.randint(100, 500_000), "paid_on": day()})
        )
        rows[-1][1]["reference"] = f"chk {i}"
    years = warranty_years(dt.date.today(), replant=False)  # §208-22G as held now (the days are synthetic)
    for i in range(1, plantings + 1):
        d = day()
        row = {"id": i, "case_id": case(), "trees": rnd.randint(1, 12), "species": "ACRU", "accepted_on": d}
        row |= {"inspection_due": anniversary(d, years), "inspected_on": None, "trees_dead": None, "replant_of": None}
        rows.append(("plantings", row))
    for i in range(1, cases * 6 // 10 + 1):  # most cases decided
        row = {"id": i, "case_id": case(), "outcome": rnd.choice(["approved", "denied"]), "conditions": None}
        rows.append(("decisions", row | {"decided_by": "eng", "decided_on": day()}))
    for i in range(1, cases // 10 + 1):  # the Planning Board's civil penalty on some violations (§208-29B)
        row = {"id": i, "case_id": case(), "amount_cents": rnd.randint(50_000, 1_000_000), "decided_on": day()}
        row |= {"reference": f"PB {i}", "section": "§208-29B", "recorded_by": "eng", "recorded_at": now()}
        rows.append(("penalty_decisions", row))
    for i in range(1, cases // 5 + 1):
        row = {"id": i, "case_id": case(), "amount_cents": rnd.randint(100_000, 2_000_000), "posted_on": day()}
        status = rnd.choice(["held", "held", "released", "forfeited"])
        rows.append(("bonds", row | {"status": status, "closed_on": None if status == "held" else day()}))
    for i in range(1, cases // 20 + 1):
        row = {"id": i, "case_id": case(), "opened_on": day(), "closed_on": None, "reason": "§208-29F"}
        rows.append(("holds", row))
    for i in range(1, cases + 1):
        rows.append(("notes", {"id": i, "case_id": case(), "text": f"site visit {i}", "written_at": now()}))
    for i in range(1, cases // 5 + 1):
        expires = (dt.datetime.now(dt.UTC) + dt.timedelta(days=rnd.choice([-30, 7]))).isoformat()
        row = {"token_sha256": f"{i:064x}", "kind": "case", "case_id": case(), "survey_sha256": None}
        row |= {"survey_name": None, "params": "{}", "allow_download": 0, "created_at": now()}
        rows.append(("links", row | {"expires_at": expires, "revoked_at": None}))
    rows += [("sign-in", {"name": rnd.choice(["eng", "clk1", "clk2", "clk3"]), "at": now()}) for _ in range(cases * 2)]
    return rows


def load(reg, cases: int, payments: int, plantings: int) -> None:
    """The rows of :func:`synthetic_rows`, each with its hash-chained event as :meth:`Register._write` makes it, and
    each event's signed head in the anchor file as the write would have appended it."""
    from sqlalchemy import insert
    from sqlalchemy.orm import Session

    from treecalc.register import models as m
    from treecalc.register.anchor import _read_key, anchor_file, register_id, signed_line
    from treecalc.register.core import canonical, chain_hash, now, row_values

    key, rid = _read_key(create=True), register_id(reg.url)
    assert key is not None
    anchors = anchor_file(reg.url)
    anchors.parent.mkdir(parents=True, exist_ok=True)
    models = {t: model for t, (model, _) in m.RECORDED.items()}
    kinds = {"cases": "case opened", "fee_schedules": "fee schedule", "users": "account", "links": "link made"}
    kinds["penalty_decisions"] = "civil penalty decided"
    prev, seq = "0" * 64, 0
    rows = synthetic_rows(cases, payments, plantings)
    batch = 5000
    for k in range(0, len(rows), batch):
        events, lines, by_table, sign_ins = [], [], {t: [] for t in models}, []
        for table, row in rows[k : k + batch]:
            seq += 1
            at = now()
            if table == "sign-in":
                kind, case_id, changes, by = "signed in", None, [], row["name"]
                sign_ins.append({"name": row["name"], "at": at, "ok": 1})
            else:
                kind, by = kinds.get(table, table.rstrip("s")), "bench"
                case_id = row["id"] if table == "cases" else row.get("case_id")
                key_col = m.RECORDED[table][1]
                plain = row_values(table, models[table](**row))
                changes = [{"table": table, "op": "insert", "key": row[key_col], "row": plain}]
                by_table[table].append(row)
            body = canonical({"seq": seq, "at": at, "by": by, "kind": kind, "case_id": case_id, "changes": changes})
            h = chain_hash(prev, body)
            events.append(
                {"seq": seq, "at": at, "by": by, "kind": kind, "case_id": case_id, "body": body}
                | {"prev_hash": prev, "hash": h}
            )
            lines.append(signed_line(key, rid, seq, h, at)[1])
            prev = h
        with Session(reg.engine) as s, s.begin():
            for table in m.RECORDED:  # in the order of their foreign keys (cases before their records)
                if by_table[table]:
                    s.execute(insert(models[table]), by_table[table])
            if sign_ins:
                s.execute(insert(m.SignIn), sign_ins)
            s.execute(insert(m.Event), events)
            s.execute(m.ChainHead.__table__.update().where(m.ChainHead.id == 1).values(seq=seq, hash=prev))
        with open(anchors, "a", encoding="utf-8") as f:
            f.writelines(lines)
    if reg.engine.dialect.name == "postgresql":
        from sqlalchemy import Integer, text

        with reg.engine.begin() as c:
            for table, (model, key_col) in m.RECORDED.items():
                if isinstance(model.__table__.columns[key_col].type, Integer):
                    c.execute(
                        text(
                            f"SELECT setval(pg_get_serial_sequence('{table}', '{key_col}'), "
                            f"COALESCE((SELECT MAX({key_col}) FROM {table}), 0) + 1, false)"
                        )
                    )
            c.execute(text("ANALYZE"))


def timed(fn, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), max(times)


def assessment_fixture() -> tuple[bytes, dict]:
    """A 200-tree survey and its assessment JSON (made once, not timed)."""
    import io
    import json

    from treecalc.assessment import assess
    from treecalc.cli.common import _json_default
    from treecalc.ingest import read_survey
    from treecalc.report.json_text import assessment_json_text

    rnd = random.Random(7)
    species = ["Red maple", "Northern red oak", "Sugar maple", "White pine", "Pin oak", "American beech"]
    lines = ["Tag,Species,DBH (in),Action"]
    for i in range(1, 201):
        lines.append(f"{i},{rnd.choice(species)},{rnd.randint(6, 36)},{rnd.choice(['remove', 'retain', 'retain'])}")
    data = ("\n".join(lines) + "\n").encode()
    sv = read_survey(io.BytesIO(data), filename="bench.csv")
    a = assess(sv, fee_per_tree_usd="450", plantable=0)
    return data, json.loads(assessment_json_text(a, default=_json_default))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", help="an empty database URL (default: a new SQLite file)")
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--payments", type=int, default=100_000)
    ap.add_argument("--plantings", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=30)
    ap.add_argument("--audit", action="store_true", help="time the whole audit once (no goal)")
    a = ap.parse_args()

    tmp = tempfile.TemporaryDirectory()
    # the benchmark's signed heads and key are its own, never the user's
    os.environ.setdefault("TREECALC_ANCHOR_KEY", str(Path(tmp.name) / "anchor.key"))
    os.environ.setdefault("TREECALC_ANCHORS", str(Path(tmp.name) / "anchors"))
    from treecalc.register import Register
    from treecalc.register.anchor import last_head
    from treecalc.register.fees import in_force

    url = a.db or f"sqlite:///{Path(tmp.name) / 'register.db'}"
    reg = Register(url)
    t = time.perf_counter()
    load(reg, a.cases, a.payments, a.plantings)
    from sqlalchemy import func, select

    from treecalc.register import models as mm

    with reg.reading() as s:
        counts = {t: s.scalar(select(func.count()).select_from(model)) for t, (model, _) in mm.RECORDED.items()}
        counts["events"] = s.scalar(select(func.count()).select_from(mm.Event))
        counts["sign_ins"] = s.scalar(select(func.count()).select_from(mm.SignIn))
    print(
        f"{reg.engine.dialect.name}: loaded in {time.perf_counter() - t:.1f} s; load average "
        f"{os.getloadavg()[0]:.2f}\n  " + ", ".join(f"{t} {n:,}" for t, n in counts.items() if n)
    )
    # every write is an account's, its role checked in the write (treecalc.register.roles): the first account
    reg.add_user("bench", "engineer", "a benchmark's password", by="bench")
    survey, obj = assessment_fixture()
    rnd = random.Random(1)
    checks = [
        (
            "case show (random case, events, signed head)",
            100,
            lambda: (reg.show(rnd.randint(1, a.cases)), last_head(reg.url)),
        ),
        ("fee schedule in force on a day", 100, lambda: in_force(reg, dt.date(2020 + rnd.randrange(7), 6, 1))),
        ("Fund ledger of 2024", 100, lambda: reg.fund_ledger("2024-01-01", "2024-12-31")),
        ("inspections due in March 2027", 100, lambda: reg.due("2027-03-01", "2027-03-31")),
        (
            "recording a payment",
            20,
            lambda: reg.pay(rnd.randint(1, a.cases), by="bench", amount="12.34", on="2026-05-01"),
        ),
        (
            "recording an assessment (200-tree survey + JSON)",
            50,
            lambda: reg.new_case(
                by="bench", title="bench", kind="permit", survey=("bench.csv", survey), assessment=obj
            ),
        ),
    ]
    failed = False
    for name, goal, fn in checks:
        fn()  # warm
        med, worst = timed(fn, a.repeat)
        ok = med <= goal
        failed |= not ok
        print(f"  {name:<50} median {med:7.1f} ms  worst {worst:7.1f} ms  goal {goal} ms  {'ok' if ok else 'MISSED'}")
    if a.audit:
        from treecalc.register.audit import verify

        t = time.perf_counter()
        broken = verify(reg)
        print(f"  audit of the whole register: {time.perf_counter() - t:.1f} s, {broken or 'intact'}")
    print(f"load average {os.getloadavg()[0]:.2f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
