"""``treecalc verify STATEMENT SURVEY``: does a statement follow from a survey? (:func:`treecalc.report.fingerprint.verify`)

Exit 0 when the assessment derived again matches the statement's fingerprint, 1 naming each difference, 2 on bad
input (a statement without a fingerprint, a missing file, one beyond the bounds a survey is read within). The
files read are those given here, never one the statement names. No domain logic here.
"""

from __future__ import annotations

import argparse
from typing import Any

from treecalc.cli.fee_schedule import add_db_flag, configured, in_force_for


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "verify",
        help="check that a statement (JSON, Excel or PDF) follows from a survey: same survey, law, data, version",
    )
    p.add_argument("statement", help="the statement: treecalc assess --json output (.json), --out (.xlsx) or --pdf")
    p.add_argument("survey", help="the survey file the statement says it was derived from")
    p.add_argument(
        "--fee-schedule",
        metavar="F.toml",
        help="the fee schedule given apart when the statement was made (verify reads only the files it is given)",
    )

    add_db_flag(p)
    p.set_defaults(func=_cmd_verify)


def _cmd_verify(a: argparse.Namespace) -> int:
    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.report.fingerprint import verify

    in_force = None

    if configured(a) is not None:  # the Village's schedule in force on the statement's date, from the register

        def in_force(on: Any) -> Any:
            return in_force_for(a, str(on))

    verdict = verify(a.statement, a.survey, isolated=True, fee_schedule=a.fee_schedule, in_force=in_force)
    if verdict.matches:
        print(f"verified: {a.statement} follows from {a.survey}")
        for item in verdict.checked:
            print(f"  {item}")
        if verdict.money:  # it follows, but from a fee that is not the Village's: said, never passed as the Fund's
            print("but its money options are not the Village's fee schedule in force (a what-if, not what is owed):")
            for m in verdict.money:
                print(f"  - {m}")
        return 0
    print(f"NOT verified: {a.statement} does not follow from {a.survey}")
    for d in verdict.differences:
        print(f"  - {d}")
    return 1
