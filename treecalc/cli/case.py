"""``treecalc case ...``: the case register from the command line.

No domain logic here: arguments → :class:`treecalc.register.Register` → text or JSON. ``TREECALC_DB`` (or
``--db``) picks the database; a verb that records acts as a signed-in account (``--by NAME`` and its password,
or a session: :func:`treecalc.cli.account.acting`), whose role the register checks. ``case new`` takes
every flag of ``treecalc assess`` (:func:`treecalc.cli.assess.add_assess_flags`), assesses with the same
pipeline and records the survey and the assessment's JSON.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path
from typing import Any

from treecalc.cli.account import acting, add_by
from treecalc.cli.assess import add_assess_flags, assess_args
from treecalc.cli.common import _json_default, dump_json, help_section
from treecalc.law.cites import cite

#: The largest row number a database integer (SQLite INTEGER, PostgreSQL BIGINT) holds: a bigger one would
#: escape from the driver as an OverflowError instead of "no case N".
MAX_ID = 2**63 - 1


def _number(text: str) -> int:
    """A case, bond, planting or hold number: a whole number from 1 to MAX_ID (argparse names the argument)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= n <= MAX_ID:
        raise argparse.ArgumentTypeError(f"{text!r}: a number from 1 to {MAX_ID:,}")
    return n


#: The entries and provisions of the register's law the verbs cite (their sections read from the law, never retyped)
WARRANTY, HOLD = "replacement.warranty_years", "sections.no_building_permit"


def _cite(key: str) -> str:
    """The section a verb's help cites for ``key``, in the law in force today (the register's law: the default one)."""
    return help_section(key)


def _said(key: str) -> str:
    """The section a line of the register's output cites for ``key``, in the law in force today (a data folder that
    cannot be read is refused, exit 2, as every read of it)."""
    return cite(None, key, dt.date.today())


def _common(p: argparse.ArgumentParser, *, writes: bool = True, json_flag: bool = True) -> None:
    p.add_argument(
        "--db", metavar="URL", help="the register's database (default: TREECALC_DB, else the user's data folder)"
    )
    if writes:
        add_by(p)
    if json_flag:
        p.add_argument("--json", action="store_true", help="print one JSON object")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("case", help="the case register: permits, violations, Fund payments, plantings")
    sub = p.add_subparsers(dest="case_command", required=True, metavar="VERB")

    q = sub.add_parser("new", help="assess a survey and open a case with it")
    q.add_argument("--survey", required=True, metavar="FILE", help="the survey spreadsheet")
    q.add_argument("--title", metavar="T", help="the case's title (default: the survey's file name)")
    q.add_argument(
        "--kind",
        metavar="K",
        help="permit, violation or excavation (default: violation when the assessment found offences, else permit)",
    )
    q.add_argument("--address", metavar="A", help="street address")
    q.add_argument("--lot", metavar="L", help="section-block-lot or parcel")
    add_assess_flags(q, survey_arg=False)
    _common(q)
    q.set_defaults(func=_new)
    _register_writes(sub)
    _register_reads(sub)


def _register_writes(sub: argparse._SubParsersAction) -> None:
    """The verbs that record: pay, decide, bond, plant, inspect, hold, note."""
    q = sub.add_parser("pay", help="record a payment into the Fund")
    q.add_argument("id", type=_number, help="case number")
    q.add_argument("--amount", required=True, metavar="USD", help="amount paid, dollars and cents")
    q.add_argument("--date", required=True, metavar="YYYY-MM-DD", help="date paid")
    q.add_argument("--ref", metavar="R", help="receipt or check number")
    _common(q)
    q.set_defaults(func=_pay)

    q = sub.add_parser(
        "decide",
        help="record the decision on a case: its outcome (--outcome), or the civil penalty the Planning Board "
        f"assessed after the hearing on a violation (--amount, an engineer's account: {_cite('penalty.civil_tiers')})",
    )
    q.add_argument("id", type=_number, help="case number")
    q.add_argument("--outcome", help="approved, approved-with-conditions or denied")
    q.add_argument("--amount", metavar="USD", help="the civil penalty the Planning Board assessed (0: released)")
    q.add_argument("--date", required=True, metavar="YYYY-MM-DD")
    q.add_argument("--conditions", metavar="TEXT", help="the conditions of an approval")
    q.add_argument("--reference", metavar="TEXT", help="the Board's resolution or minutes (with --amount)")
    _common(q)
    q.set_defaults(func=_decide)

    q = sub.add_parser("bond", help=f"post, release or forfeit a bond ({_cite('sections.bond')})")
    q.add_argument("action", choices=["post", "release", "forfeit"])
    q.add_argument("id", type=_number, help="case number (post) or bond number (release, forfeit)")
    q.add_argument("--amount", metavar="USD", help="the bond's amount (post)")
    q.add_argument("--date", required=True, metavar="YYYY-MM-DD")
    _common(q)
    q.set_defaults(func=_bond)

    q = sub.add_parser(
        "plant",
        help=f"record replacement trees provisionally accepted ({_cite(WARRANTY)}: inspected when the warranty of the law in "
        "force on that day ends; a replant's own period)",
    )
    q.add_argument("id", type=_number, help="case number")
    q.add_argument("--trees", required=True, type=int, metavar="N")
    q.add_argument("--accepted", required=True, metavar="YYYY-MM-DD", help="date of provisional acceptance")
    q.add_argument("--species", metavar="NAME")
    q.add_argument(
        "--replant-of", type=_number, metavar="PLANTING", help="a replant of trees of this planting that died"
    )
    _common(q)
    q.set_defaults(
        func=lambda a: _done(
            a,
            id=_reg(a).plant(
                a.id, by=_by(a), trees=a.trees, accepted_on=a.accepted, species=a.species, replant_of=a.replant_of
            ),
        )
    )

    q = sub.add_parser(
        "void",
        help="void a payment, planting, decision or bond recorded by mistake (it stays in the record, marked voided; "
        "an engineer or a clerk, with a reason)",
    )
    q.add_argument(
        "kind", metavar="KIND", help="payment, planting, decision, bond or penalty (the civil penalty decided)"
    )
    q.add_argument("entry", type=_number, metavar="ID", help="the entry's number (as case show lists it)")
    q.add_argument("--reason", required=True, metavar="TEXT", help="why it is voided (kept with the void)")
    q.add_argument("--date", metavar="YYYY-MM-DD", help="the day it stops counting (default: today)")
    _common(q)
    q.set_defaults(func=_void)

    q = sub.add_parser("inspect", help=f"record the {_cite(WARRANTY)} inspection of a planting")
    q.add_argument("planting", type=_number, help="planting number")
    q.add_argument("--date", required=True, metavar="YYYY-MM-DD")
    q.add_argument("--dead", type=int, default=0, metavar="N", help="trees found dead (to be replanted)")
    _common(q)
    q.set_defaults(
        func=lambda a: _done(a, id=_reg(a).inspect(a.planting, by=_by(a), on=a.date, dead=a.dead) or a.planting)
    )

    q = sub.add_parser("hold", help=f"open or close a {_cite(HOLD)} hold on building permits and certificates")
    q.add_argument("action", choices=["open", "close"])
    q.add_argument("id", type=_number, help="case number (open) or hold number (close)")
    q.add_argument("--date", required=True, metavar="YYYY-MM-DD")
    q.add_argument("--reason", metavar="TEXT")
    _common(q)
    q.set_defaults(func=_hold)

    q = sub.add_parser("note", help="add a note to a case")
    q.add_argument("id", type=_number, help="case number")
    q.add_argument("--text", required=True)
    _common(q)
    q.set_defaults(func=lambda a: _done(a, id=_reg(a).note(a.id, by=_by(a), text=a.text)))


def _register_reads(sub: argparse._SubParsersAction) -> None:
    """The verbs that read: show, list, due, fund, holds, bonds, export, audit, backup, restore."""
    q = sub.add_parser("show", help="one case: assessed, paid, balance, plantings, decisions, events")
    q.add_argument("id", type=_number, help="case number")
    _common(q, writes=False)
    q.set_defaults(func=_show)

    q = sub.add_parser("list", help="every case with its balance")
    _common(q, writes=False)
    q.set_defaults(func=_list)

    q = sub.add_parser("due", help=f"{_cite(WARRANTY)} inspections due in a period")
    q.add_argument("--from", dest="start", required=True, metavar="D", help="first day (YYYY-MM-DD)")
    q.add_argument("--to", dest="end", required=True, metavar="D", help="last day (YYYY-MM-DD)")
    _common(q, writes=False)
    q.set_defaults(func=_due)

    q = sub.add_parser(
        "fund",
        help=f"the Fund ledger: payments and forfeited bonds ({_cite('sections.bond_forfeited')}), by month and by case",
    )
    q.add_argument("--from", dest="start", required=True, metavar="D", help="first day (YYYY-MM-DD)")
    q.add_argument("--to", dest="end", required=True, metavar="D", help="last day (YYYY-MM-DD)")
    _common(q, writes=False)
    q.set_defaults(func=_fund)

    q = sub.add_parser("holds", help=f"open violations holding building permits and certificates ({_cite(HOLD)})")
    _common(q, writes=False)
    q.set_defaults(func=lambda a: _print(a, _reg(a).holds_open()))

    q = sub.add_parser("bonds", help="bonds held")
    _common(q, writes=False)
    q.set_defaults(func=lambda a: _print(a, _reg(a).bonds_held()))

    q = sub.add_parser("export", help="the register as CSV (one table) or xlsx (every table)")
    q.add_argument("--out", required=True, metavar="FILE", help="a .csv or .xlsx file")
    q.add_argument("--table", default="cases", help="for CSV: cases (default), payments, fund, due, holds, bonds")
    q.add_argument("--from", dest="start", metavar="D", help="first day of payments, ledger and due list")
    q.add_argument("--to", dest="end", metavar="D", help="last day of payments, ledger and due list")
    _common(q, writes=False)
    q.set_defaults(func=_export)

    q = sub.add_parser("audit", help="check the event chain and the tables against it")
    q.add_argument("--verify", action="store_true", required=True, help="verify (exit 0 intact, 1 broken)")
    q.add_argument(
        "--sign",
        action="store_true",
        help="sign the current head once the chain and the tables agree (a register never signed, moved, or whose "
        "last signed head was lost): read what the audit says first",
    )
    _common(q, writes=False)
    q.set_defaults(func=_audit)

    q = sub.add_parser("backup", help="write the whole register to FILE (portable: restores onto SQLite or PostgreSQL)")
    q.add_argument("file", metavar="FILE")
    _common(q, writes=False)
    q.set_defaults(func=_backup)

    q = sub.add_parser("restore", help="load a backup into an empty register")
    q.add_argument("file", metavar="FILE")
    _common(q, writes=False)
    q.set_defaults(func=_restore)


# -- helpers ------------------------------------------------------------------------------------------


def _reg(a: argparse.Namespace) -> Any:
    from treecalc.register import Register  # start-up: with the command that runs, not every command (sqlalchemy)

    return Register(a.db)


def _by(a: argparse.Namespace) -> str:
    """The signed-in account that acts (the register checks its role on the act)."""
    return acting(a, _reg(a))


def _print(a: argparse.Namespace, obj: Any, text: str | None = None) -> int:
    if getattr(a, "json", False) or text is None:
        dump_json(obj)
    else:
        print(text)
    return 0


def _done(a: argparse.Namespace, **obj: Any) -> int:
    return _print(a, obj, " ".join(f"{k} {v}" for k, v in obj.items()))


def _usd(v: str | None) -> str:
    if v is None:
        return "—"
    sign = "-" if v.startswith("-") else ""
    whole, _, cents = v.lstrip("-").partition(".")
    return f"{sign}${int(whole):,}.{cents}"


def _balance(v: str | None) -> str:
    """The balance in words: paid beyond the assessed amount reads "overpaid $12.50", not "balance -$12.50",
    which a clerk reads as still owed."""
    if v is not None and v.startswith("-"):
        return f"overpaid {_usd(v[1:])}"
    return f"balance {_usd(v)}"


# -- commands -----------------------------------------------------------------------------------------


def _new(a: argparse.Namespace) -> int:
    # start-up: with the command that runs, not every command (sqlalchemy)
    from treecalc.register.db import RegisterError

    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.report.json_text import assessment_json_text

    reg = _reg(a)  # the database first: a bad TREECALC_DB is said before the survey is read
    by = _by(a)
    path = Path(a.survey)
    if not path.is_file():  # a folder or a device (/dev/zero) exists: "no such file" would send the clerk looking
        raise RegisterError(f"--survey {a.survey}: " + ("not a file" if path.exists() else "no such file"))
    a.file = str(path)
    result, _ = assess_args(a)
    obj = json.loads(assessment_json_text(result, default=_json_default))
    kind = a.kind or ("violation" if obj.get("offences") else "permit")
    cid = reg.new_case(
        by=by,
        title=a.title or path.name,
        kind=kind,
        address=a.address,
        lot=a.lot,
        survey=(path.name, path.read_bytes()),
        assessment=obj,
    )
    return _print(a, {"id": cid}, f"case {cid} opened")


def _pay(a: argparse.Namespace) -> int:
    reg = _reg(a)
    pid = reg.pay(a.id, by=_by(a), amount=a.amount, on=a.date, reference=a.ref)
    show = reg.show(a.id, events=False)
    return _print(
        a,
        {"id": a.id, "payment": pid, "paid_usd": show["paid_usd"], "balance_usd": show["balance_usd"]},
        f"payment {pid} recorded on case {a.id}: paid {_usd(show['paid_usd'])}, {_balance(show['balance_usd'])}",
    )


def _void(a: argparse.Namespace) -> int:
    # start-up: with the command that runs, not every command (sqlalchemy)
    from treecalc.register.corrections import void

    vid = void(_reg(a), a.kind, a.entry, by=_by(a), reason=a.reason, on=a.date)
    kind = a.kind.strip().lower()
    return _print(a, {"void": vid, "entry": kind, "entry_id": a.entry}, f"{kind} {a.entry} voided (void {vid})")


def _voided(e: dict[str, Any]) -> str:
    v = e.get("voided")
    return f" — VOIDED on {v['date']} (void {v['void']}: {v['reason']})" if v else ""


def _show(a: argparse.Namespace) -> int:
    c = _reg(a).show(a.id)
    lines = [
        f"case {c['id']}: {c['title']} ({c['kind_words']})",
        f"  owed {_usd(c['owed_usd'])} (fund in lieu {_usd(c['fund_in_lieu_usd'])}, civil penalty "
        f"{_usd(c['civil_penalty']['amount_usd'])})   paid {_usd(c['paid_usd'])}   {_balance(c['balance_usd'])}",
        f"  decision: {c['decision'] or 'none yet'}"
        + (f"   holding building permits and certificates ({_said(HOLD)})" if c["holding_certificates"] else ""),
    ]
    lines += [
        f"  payment {p['id']}: {_usd(p['amount_usd'])} on {p['date']}"
        + (f" ({p['reference']})" if p["reference"] else "")
        + _voided(p)
        for p in c["payments"]
    ]
    lines += [
        f"  planting {p['id']}: {p['trees']} trees accepted {p['accepted']}"
        + (f", replant of planting {p['replant_of']}" if p["replant_of"] else "")
        + f", inspection due {p['inspection_due']} ({p['section']}: {p['warranty']})"
        + _voided(p)
        for p in c["plantings"]
    ]
    lines += [
        f"  bond {b['id']}: {_usd(b['amount_usd'])} posted {b['posted']}, {b['status']}"
        + (f" on {b['closed']}" if b["closed"] else "")
        + _voided(b)
        for b in c["bonds"]
    ]
    lines += [f"  decision {d['id']}: {d['outcome_words']} on {d['date']}" + _voided(d) for d in c["decisions"]]
    lines += [
        f"  void {v['id']}: {v['entry']} {v['entry_id']} voided from {v['date']} by {v['by']}: {v['reason']}"
        + (f" (reversed {_usd(v['reversed_usd'])})" if v["reversed_usd"] else "")
        for v in c["voids"]
    ]
    lines += _owed_lines(c)
    lines += [f"  reading: {r['reading']}" for r in c["readings"]]
    lines += [f"  event {e['seq']}: {e['kind']} by {e['by']} at {e['at']}" for e in c["events"]]
    lines.append(_signed(a, c))
    return _print(a, c, "\n".join(lines))


def _tree_penalty_line(t: dict[str, Any]) -> str:
    """One offence tree as ``case show`` prints it, with only what the assessment gave (a Wesley Hills offence has
    one fine and no species or DBH in its row: never a "None")."""
    what = " ".join(str(v) for v in (t["species_code"], f"{t['dbh_in']} in" if t["dbh_in"] is not None else None) if v)
    head = ", ".join(x for x in (f"tree {t['tag']}" + (f" {what}" if what else ""), t["action"], t["status"]) if x)
    amounts = [
        f"{label} up to {_usd(t[key])}" + (f" ({t[sec]})" if sec and t.get(sec) else "")
        for label, key, sec in (
            ("civil", "civil_max_usd", "civil_section"),
            ("criminal", "criminal_max_usd", "criminal_section"),
            ("fine", "fine_max_usd", None),
        )
        if t.get(key) is not None
    ]
    return f"    {head} ({t['offence_sections']}): " + ", ".join(amounts or ["no amount in the assessment"])


def _owed_lines(c: dict[str, Any]) -> list[str]:
    """What the case owes as ``case show`` prints it: penalties per tree, the Board's decisions, the replacement
    owed against planted, and the balance line by line (as the Cases page shows them)."""
    out: list[str] = []
    pen = c["penalties"]
    if pen and pen["trees"]:
        if pen["civil_max_usd"] is None and pen["criminal_max_usd"] is None and pen["fine_max_usd"] is not None:
            # a chapter with one fine per offence (Wesley Hills Ch. 95): no civil and criminal maxima to print
            cond = pen["fine_conditional_usd"]
            out.append(
                f"  penalties (the assessment's maxima): fine up to {_usd(pen['fine_max_usd'])}"
                + (f" (conditional {_usd(cond)})" if cond is not None else "")
            )
        else:
            out.append(
                f"  penalties (the assessment's maxima): civil up to {_usd(pen['civil_max_usd'])}"
                f" (conditional {_usd(pen['civil_conditional_usd'])}), criminal up to {_usd(pen['criminal_max_usd'])}"
            )
        out += [_tree_penalty_line(t) for t in pen["trees"]]
    out += [
        f"  civil penalty decision {d['id']}: {_usd(d['amount_usd'])} on {d['date']}"
        + (f" ({d['reference']})" if d["reference"] else "")
        + f" {d['section']}, recorded by {d['recorded_by']}"
        for d in c["penalty_decisions"]
    ]
    r = c["replacement_owed"]
    if r and r["required"]:
        out.append(
            f"  replacement owed ({r['sections']}): {r['trees_needed']} trees, {_usd(r['required_value_usd'])} "
            f"{r['value_unit'] or ''} ({r['trees_on_site']} on site, {r['trees_in_lieu']} in lieu); planted "
            f"{r['trees_planted']} ({_usd(r['value_planted_usd'])} at {_usd(r['value_per_tree_usd'])} a tree), "
            f"{r['trees_still_to_plant']} still to plant"
            + (f", {r['trees_dead_not_replanted']} dead not yet replanted" if r["trees_dead_not_replanted"] else "")
        )
    if r and r["conditional"]:
        out.append(f"  {r['conditional']}")
    out.append("  balance, line by line:")
    out += [
        f"    {ln['item']}" + (f" [{ln['section']}]" if ln["section"] else "") + f": {_usd(ln['usd'])}"
        for ln in c["balance_lines"]
    ]
    return out


def _list(a: argparse.Namespace) -> int:
    rows = _reg(a).cases()
    text = "\n".join(f"{r['id']:>6}  {r['kind']:<18} {r['title'][:40]:<40} {_balance(r['balance_usd'])}" for r in rows)
    return _print(a, rows, text or "no cases")


def _due(a: argparse.Namespace) -> int:
    rows = _reg(a).due(a.start, a.end)
    text = "\n".join(
        f"{r['inspection_due']}  case {r['case']} planting {r['planting']}: {r['trees']} trees ({r['title']}) "
        + _said(WARRANTY)
        for r in rows
    )
    return _print(a, rows, text or f"no inspections due from {a.start} to {a.end}")


def _fund(a: argparse.Namespace) -> int:
    led = _reg(a).fund_ledger(a.start, a.end)
    lines = [
        f"Fund receipts {led['from']} to {led['to']}: {_usd(led['total_usd'])} ({led['payments']} payments, "
        f"{led['forfeited_bonds']} forfeited bonds)"
    ]
    for r in led["by_month"]:
        lines.append(f"  {r['month']}  {_usd(r['usd'])}")
        lines += [
            f"    forfeited bond {f['bond']} of case {f['case']} ({f['title']}): {_usd(f['usd'])} on {f['date']} "
            f"({f['section']})"
            for f in led["forfeitures"]
            if f["date"].startswith(r["month"])
        ]
        lines += [
            f"    reversed: void {v['void']} of {v['entry']} {v['entry_id']} of case {v['case']} ({v['title']}): "
            f"{_usd(v['usd'])} on {v['date']} ({v['reason']})"
            for v in led["reversals"]
            if v["date"].startswith(r["month"])
        ]
    text = "\n".join([*lines, _signed(a, led)])
    return _print(a, led, text)


def _decide(a: argparse.Namespace) -> int:
    if (a.outcome is None) == (a.amount is None):
        raise ValueError("decide: give --outcome (the case's outcome) or --amount (the civil penalty), one of them")
    if a.amount is None:
        if a.reference is not None:
            raise ValueError("--reference goes with --amount (the Planning Board's civil penalty)")
        return _done(a, id=_reg(a).decide(a.id, by=_by(a), outcome=a.outcome, on=a.date, conditions=a.conditions))
    if a.conditions is not None:
        raise ValueError("--conditions go with --outcome (an approval's conditions)")
    # start-up: with the command that runs, not every command (sqlalchemy)
    from treecalc.register.decisions import decide_penalty

    reg = _reg(a)
    did = decide_penalty(reg, a.id, by=_by(a), amount=a.amount, on=a.date, reference=a.reference)
    show = reg.show(a.id, events=False)
    return _print(
        a,
        {"id": a.id, "decision": did, "civil_penalty": show["civil_penalty"], "balance_usd": show["balance_usd"]},
        f"civil penalty decision {did} recorded on case {a.id}: {show['civil_penalty']['words']}; "
        f"{_balance(show['balance_usd'])}",
    )


def _signed(a: argparse.Namespace, out: dict[str, Any]) -> str:
    """The register's latest signed head, put in ``out`` and said in a line: a printed statement carries it."""
    # start-up: with the command that runs, not every command (sqlalchemy)
    from treecalc.register.anchor import last_head, state

    url = _reg(a).url
    head = last_head(url)
    out["signed_head"] = head.as_dict() if head is not None else None
    return state(url)


def _bond(a: argparse.Namespace) -> int:
    reg = _reg(a)
    if a.action == "post":
        if a.amount is None:
            raise ValueError("--amount: a bond posted has an amount")
        return _done(a, id=reg.post_bond(a.id, by=_by(a), amount=a.amount, on=a.date))
    reg.close_bond(a.id, by=_by(a), how="released" if a.action == "release" else "forfeited", on=a.date)
    return _done(a, id=a.id)


def _hold(a: argparse.Namespace) -> int:
    reg = _reg(a)
    if a.action == "open":
        return _done(a, id=reg.open_hold(a.id, by=_by(a), on=a.date, reason=a.reason))
    reg.close_hold(a.id, by=_by(a), on=a.date)
    return _done(a, id=a.id)


def _export(a: argparse.Namespace) -> int:
    from treecalc.register.export import export  # start-up: with the command that runs, not every command (sqlalchemy)

    n = export(_reg(a), a.out, a.table, a.start, a.end)
    return _print(a, {"out": a.out, "rows": n}, f"{n} rows written to {a.out}")


def _audit(a: argparse.Namespace) -> int:
    # start-up: with the command that runs, not every command (sqlalchemy)
    from treecalc.register.anchor import last_head, sign_current, state
    from treecalc.register.audit import verify  # start-up: with the command that runs, not every command (sqlalchemy)

    reg = _reg(a)
    if a.sign and verify(reg, anchors=False) is None:
        sign_current(reg)
    broken = verify(reg)
    if broken is None:
        head = last_head(reg.url)
        _print(
            a,
            {"intact": True, "signed_head": head.as_dict() if head is not None else None},
            "the register is intact: every event chains to the one before, every row is what its event wrote, "
            f"every signed head is in the chain\n{state(reg.url)}",
        )
        return 0
    if a.json:
        _print(a, {"intact": False, "event": broken.seq, "why": broken.why})
    print(f"register broken: {broken}", file=sys.stderr)
    return 1


def _backup(a: argparse.Namespace) -> int:
    from treecalc.register.backup import backup  # start-up: with the command that runs, not every command (sqlalchemy)

    counts = backup(_reg(a), a.file)
    return _print(
        a, {"file": a.file, "rows": counts}, f"register written to {a.file} ({counts.get('events', 0)} events)"
    )


def _restore(a: argparse.Namespace) -> int:
    from treecalc.register.backup import restore  # start-up: with the command that runs, not every command (sqlalchemy)

    counts = restore(_reg(a), a.file)
    return _print(
        a,
        {"file": a.file, "rows": counts},
        f"register restored from {a.file} ({counts.get('events', 0)} events, audited)",
    )
