"""Benchmark: the case register at a village's size after many years.

    .venv/bin/python benchmarks/register.py [--db URL] [--cases 10000] [--payments 100000] [--plantings 20000]

Method
------
1. A new register (a SQLite file in a temporary folder, or ``--db``, which must be empty) is filled with
   ``--cases`` cases, ``--payments`` payments over 2016-2026 and ``--plantings`` plantings, each row with
   its hash-chained event as :meth:`Register._write` makes it (loaded in bulk: one transaction per 5,000 events,
   the chain computed in Python with the register's own ``canonical`` and ``chain_hash``).
2. Timed, each repeated ``--repeat`` times (median and worst printed), on the loaded register:
   ``case show`` of a random case (:meth:`Register.show` with its events), the Fund ledger of one year,
   the inspections due in one month, recording a payment (:meth:`Register.pay`: one transaction with its
   event), and recording an assessment (a 200-tree survey's bytes and its assessment JSON, as ``case new``
   saves it: :meth:`Register.new_case`) — the time the register adds to saving an assessment.
3. Goals: show, ledger and due list ≤ 100 ms each; a payment ≤ 20 ms; an assessment ≤ 50 ms. Exit 1 when
   a median misses its goal. Wall times on a shared machine: the load average is printed with them.
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


def load(reg, cases: int, payments: int, plantings: int) -> None:
    from sqlalchemy import insert
    from sqlalchemy.orm import Session

    from treecalc.register import models as m
    from treecalc.register.core import anniversary, canonical, chain_hash, now
    from treecalc.register.readings import warranty_years

    rnd = random.Random(24)
    rows: list[tuple[str, dict]] = []
    for i in range(1, cases + 1):
        rows.append(
            (
                "cases",
                {
                    "id": i,
                    "kind": rnd.choice(["permit_application", "violation", "excavation_permit"]),
                    "title": f"{rnd.randint(1, 300)} {rnd.choice(['Elm', 'Oak', 'Maple', 'Grand'])} St",
                    "address": None,
                    "lot": f"{rnd.randint(60, 80)}.{rnd.randint(1, 20)}-{rnd.randint(1, 9)}-{i}",
                    "opened_at": now(),
                    "opened_by": "bench",
                },
            )
        )
    start = dt.date(2016, 1, 1)
    for i in range(1, payments + 1):
        day = start + dt.timedelta(days=rnd.randrange(11 * 365))
        rows.append(
            (
                "payments",
                {
                    "id": i,
                    "case_id": rnd.randint(1, cases),
                    "amount_cents": rnd.randint(100, 500_000),
                    "paid_on": day,
                    "reference": f"chk {i}",
                },
            )
        )
    years = warranty_years(dt.date.today(), replant=False)  # §208-22G as held now (the days are synthetic)
    for i in range(1, plantings + 1):
        day = start + dt.timedelta(days=rnd.randrange(11 * 365))
        rows.append(
            (
                "plantings",
                {
                    "id": i,
                    "case_id": rnd.randint(1, cases),
                    "trees": rnd.randint(1, 12),
                    "species": "ACRU",
                    "accepted_on": day,
                    "inspection_due": anniversary(day, years),
                    "inspected_on": None,
                    "trees_dead": None,
                    "replant_of": None,
                },
            )
        )
    models = {"cases": m.Case, "payments": m.Payment, "plantings": m.Planting}
    prev, seq = "0" * 64, 0
    batch = 5000
    for k in range(0, len(rows), batch):
        part = rows[k : k + batch]
        events, by_table = [], {t: [] for t in models}
        for table, row in part:
            seq += 1
            at = now()
            plain = {c: (v.isoformat() if isinstance(v, dt.date) else v) for c, v in row.items()}
            case_id = row["id"] if table == "cases" else row["case_id"]
            kind = {"cases": "case opened", "payments": "payment", "plantings": "planting"}[table]
            changes = [{"table": table, "op": "insert", "key": row["id"], "row": plain}]
            body = canonical(
                {"seq": seq, "at": at, "by": "bench", "kind": kind, "case_id": case_id, "changes": changes}
            )
            h = chain_hash(prev, body)
            events.append(
                {
                    "seq": seq,
                    "at": at,
                    "by": "bench",
                    "kind": kind,
                    "case_id": case_id,
                    "body": body,
                    "prev_hash": prev,
                    "hash": h,
                }
            )
            prev = h
            by_table[table].append(row)
        with Session(reg.engine) as s, s.begin():
            for table, values in by_table.items():
                if values:
                    s.execute(insert(models[table]), values)
            s.execute(insert(m.Event), events)
            s.execute(m.ChainHead.__table__.update().where(m.ChainHead.id == 1).values(seq=seq, hash=prev))
    if reg.engine.dialect.name == "postgresql":
        from sqlalchemy import text

        with reg.engine.begin() as c:
            for table in models:
                c.execute(
                    text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT MAX(id) FROM {table}))")
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
    a = ap.parse_args()

    from treecalc.register import Register

    tmp = tempfile.TemporaryDirectory()
    url = a.db or f"sqlite:///{Path(tmp.name) / 'register.db'}"
    reg = Register(url)
    t = time.perf_counter()
    load(reg, a.cases, a.payments, a.plantings)
    print(
        f"{reg.engine.dialect.name}: loaded {a.cases:,} cases, {a.payments:,} payments, {a.plantings:,} plantings "
        f"in {time.perf_counter() - t:.1f} s; load average {os.getloadavg()[0]:.2f}"
    )
    # every write is an account's, its role checked in the write (treecalc.register.roles): the first account
    reg.add_user("bench", "engineer", "a benchmark's password", by="bench")
    survey, obj = assessment_fixture()
    rnd = random.Random(1)
    checks = [
        ("case show (random case, with events)", 100, lambda: reg.show(rnd.randint(1, a.cases))),
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
    print(f"load average {os.getloadavg()[0]:.2f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
