"""``treecalc fee-schedule record``: the Engineer records a fee schedule the Board set (§208-24C), with the date
of its resolution; the schedules recorded before stay in the file, and an assessment reads the one in force on
its date (``--on``). No domain logic here: :func:`treecalc.rules.croton_on_hudson.schedule.record_schedule`."""

from __future__ import annotations

import argparse
import re


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("fee-schedule", help="record a Tree Preservation Fund fee schedule (§208-24C)")
    sub = p.add_subparsers(dest="fee_command", required=True)
    r = sub.add_parser("record", help="add a schedule set by Board resolution; earlier schedules are kept")
    r.add_argument("file", help="the fee schedule file (TOML) to add it to; made if it does not exist")
    r.add_argument("--resolution-date", required=True, metavar="YYYY-MM-DD", help="the Board resolution's date")
    r.add_argument("--basis", choices=("per_tree", "value"), default="per_tree", help="per_tree (default) or value")
    r.add_argument("--fee-per-tree", dest="fee_per_tree_usd", metavar="USD", help="fee per tree not planted")
    r.add_argument("--multiplier", metavar="X", help="multiplier of the value basis (default 1)")
    r.add_argument("--value-basis", metavar="BASIS", help="capital basis: appraised (default) or cumulative:N")
    r.add_argument("--label", help="how outputs name the schedule (default: the resolution and its date)")
    r.set_defaults(func=_cmd_record)


def _in_flags(message: str) -> str:
    """A message about the schedule being recorded, its keys said as the flags that gave them (the keyword
    table's: :mod:`treecalc.cli.words`)."""
    from treecalc.cli.words import flags

    given = "fee schedule given as a dict: "
    message = re.sub(re.escape(given) + r"([a-z_]+)", lambda m: flags().get(m.group(1), m.group(1)), message)
    return message.replace(given, "")


def _cmd_record(a: argparse.Namespace) -> int:
    from treecalc.law.schema import as_date
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
    schedule["label"] = a.label or f"Board resolution of {when.isoformat()} (§208-24C)"
    try:
        record_schedule(a.file, schedule, when)
    except ValueError as e:
        raise ValueError(_in_flags(str(e))) from None
    print(f"fee schedule of {when.isoformat()} recorded in {a.file}")
    return 0
