"""``treecalc fee-schedule record | list``: the Engineer records a fee schedule the Board set (§208-24C), with the
date of its resolution; the schedules recorded before are kept, and an assessment reads the one in force on its
date (``--on``).

With a register configured (``TREECALC_DB`` or ``--db``) the schedule is recorded there, by an account of the
engineer role (``--by``; the register refuses any other), and ``assess``, ``plan`` and ``case new`` charge the
register's schedule in force (:func:`in_force_for`). Without one, ``record FILE`` adds it to a schedule file as
before. No domain logic here: :mod:`treecalc.register.fees`, :func:`treecalc.rules.croton_on_hudson.schedule.
record_schedule`."""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
from typing import Any

from treecalc.cli.account import acting, add_by
from treecalc.cli.common import dump_json, help_section
from treecalc.cli.words import flags
from treecalc.law.cites import cite
from treecalc.law.schema import as_date


def _section(on: Any = None) -> str:
    """The section under which the Board sets the fee schedule, as the default law in force on ``on`` (a date; today
    when not given) cites it, never retyped."""
    return cite(None, "sections.fee_schedule", on or dt.date.today())


def register(subparsers: argparse._SubParsersAction) -> None:
    said = help_section("sections.fee_schedule")
    p = subparsers.add_parser("fee-schedule", help=f"record a Tree Preservation Fund fee schedule ({said})")
    sub = p.add_subparsers(dest="fee_command", required=True)
    r = sub.add_parser("record", help="add a schedule set by Board resolution; earlier schedules are kept")
    r.add_argument(
        "file",
        nargs="?",
        help="without a register: the fee schedule file (TOML) to add it to; made if it does not exist",
    )
    r.add_argument("--resolution-date", required=True, metavar="YYYY-MM-DD", help="the Board resolution's date")
    r.add_argument("--basis", choices=("per_tree", "value"), default="per_tree", help="per_tree (default) or value")
    r.add_argument("--fee-per-tree", dest="fee_per_tree_usd", metavar="USD", help="fee per tree not planted")
    r.add_argument("--multiplier", metavar="X", help="multiplier of the value basis (default 1)")
    r.add_argument("--value-basis", metavar="BASIS", help="capital basis: appraised (default) or cumulative:N")
    r.add_argument("--label", help="how outputs name the schedule (default: the resolution and its date)")
    r.add_argument("--resolution", metavar="REF", help="the Board resolution's reference (number), as minuted")
    add_db_flag(r)
    add_by(r)  # an account of the engineer role in the register, signed in
    r.set_defaults(func=_cmd_record)
    q = sub.add_parser("list", help="the schedules recorded in the register, oldest resolution first")
    add_db_flag(q)
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.set_defaults(func=_cmd_list)


def add_db_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--db",
        metavar="URL",
        help="the register whose fee schedule is the Village's (default: TREECALC_DB; without either, none)",
    )


def configured(a: argparse.Namespace) -> str | None:
    """The register's URL when one is configured (``--db``, else ``TREECALC_DB``), else None."""
    db = getattr(a, "db", None)
    if db is not None:
        return str(db)
    env = os.environ.get("TREECALC_DB")
    return env if env is not None else None


def in_force_for(a: argparse.Namespace, on: str, *, always: bool = False) -> dict[str, Any] | None:
    """The register's fee schedule in force on ``on`` (in line), where a register is configured (``always``: the
    register ``treecalc case`` writes to, its default included); None when it holds none in force then."""
    url = configured(a)
    if url is None and not always:
        return None
    from treecalc.register import Register, fees  # start-up: with the command that runs, not every command (sqlalchemy)

    return fees.in_force(Register(url), on)


def _cmd_list(a: argparse.Namespace) -> int:
    from treecalc.register import Register, fees  # start-up: with the command that runs, not every command (sqlalchemy)

    rows = fees.history(Register(configured(a)))
    if a.json:
        dump_json({"fee_schedules": rows})
        return 0
    if not rows:
        print(f"no fee schedule is recorded in the register: assessments charge the data folder's ({_section()})")
    for r in rows:
        fee = (
            f"${float(r['fee_per_tree_usd']):,.2f} a tree"
            if r["basis"] == "per_tree"
            else (f"the value of the trees not planted ({r['value_basis']}) x {r['multiplier']}")
        )
        print(f"{r['resolution_date']}  {fee}  {r['label']}  recorded by {r['recorded_by']} on {r['recorded_at'][:10]}")
    return 0


def _in_flags(message: str) -> str:
    """A message about the schedule being recorded, its keys said as the flags that gave them (the keyword
    table's: :mod:`treecalc.cli.words`)."""
    given = "fee schedule given as a dict: "
    message = re.sub(re.escape(given) + r"([a-z_]+)", lambda m: flags().get(m.group(1), m.group(1)), message)
    return message.replace(given, "")


def _record_in_register(a: argparse.Namespace, url: str) -> int:
    from treecalc.register import Register, fees  # start-up: with the command that runs, not every command (sqlalchemy)

    if a.label is not None:
        raise ValueError("--label: a schedule in the register is named by its resolution (--resolution, its date)")

    reg = Register(url)
    by = acting(a, reg)  # signed in; the register checks the engineer role
    sid = fees.record(
        reg,
        by=by,
        resolution_date=a.resolution_date,
        basis=a.basis,
        fee_per_tree_usd=a.fee_per_tree_usd,
        multiplier=a.multiplier,
        value_basis=a.value_basis,
        resolution=a.resolution,
    )
    print(f"fee schedule {sid} of {a.resolution_date} recorded in the register by {by}")
    return 0


def _cmd_record(a: argparse.Namespace) -> int:
    url = configured(a)
    if a.file is None:
        if url is None:
            raise ValueError(
                "give the register (--db or TREECALC_DB) to record the Village's fee schedule in, or a schedule FILE"
            )
        try:
            return _record_in_register(a, url)
        except ValueError as e:
            raise ValueError(_in_flags(str(e)).replace("‹resolution_date›", "--resolution-date")) from None
    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.rules.croton_on_hudson.schedule import record_schedule

    when = as_date(a.resolution_date, "--resolution-date")
    if when is None:
        raise ValueError("--resolution-date is required (YYYY-MM-DD)")
    schedule: dict[str, object] = {"basis": a.basis}
    if a.fee_per_tree_usd is not None:
        schedule["fee_per_tree_usd"] = a.fee_per_tree_usd
    if a.multiplier is not None:
        schedule["multiplier"] = a.multiplier
    if a.value_basis is not None:
        schedule["value_basis"] = a.value_basis
    schedule["placeholder"] = False
    schedule["label"] = a.label or f"Board resolution of {when.isoformat()} ({_section(when)})"
    try:
        record_schedule(a.file, schedule, when)
    except ValueError as e:
        raise ValueError(_in_flags(str(e))) from None
    print(f"fee schedule of {when.isoformat()} recorded in {a.file}")
    return 0
