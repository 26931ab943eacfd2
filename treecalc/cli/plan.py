"""``treecalc plan``: the cheapest set of optional removals for each number of them.

No domain logic here: the assess flags (:func:`treecalc.cli.assess.add_assess_flags`) and
``--budget`` → :func:`treecalc.studies.plan.plan` → text or JSON.
"""

from __future__ import annotations

import argparse
from typing import Any

from treecalc.cli.assess import add_assess_flags, assess_inputs
from treecalc.cli.common import add_switches, dump_json
from treecalc.cli.fee_schedule import add_db_flag
from treecalc.cli.words import render


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "plan",
        help="the cheapest lawful plan: which optional removals to make, for each number of them "
        "(trees marked 'Must remove' are always removed)",
    )

    def switches() -> None:
        p.add_argument(
            "--budget", metavar="USD", help="what the applicant can spend; each step says if it is within it"
        )
        p.add_argument(
            "--max-assessments",
            type=int,
            metavar="N",
            help="the most candidate sets assessed (default 256, under a minute; past the plan's ceiling it is refused)",
        )
        add_switches(p, ("--json", "print one JSON object"))

    add_assess_flags(p, None, switches)

    add_db_flag(p)
    p.set_defaults(func=_cmd_plan)


def render_text(result: Any) -> str:
    out = [
        f"Must remove: {', '.join(result.must_remove) or 'none'}",
        f"Optional removals: {', '.join(result.optional) or 'none'}",
        f"Cost: {result.cost_basis}",
        "",
    ]
    lines: list[tuple[int, list[str]]] = [
        (k, [f"k={k}: no set of {k} optional removals can be priced", f"    {why}."])
        for k, why in result.unpriced.items()
    ]
    for s in result.frontier:
        flag = "" if s.within_budget else "  [over budget]"
        head = f"k={s.k}: remove {', '.join(s.remove) or 'nothing'}: ${s.cost_usd:,.2f}{flag}"
        lines.append((s.k, [head, *(f"    {r}" for r in s.reasons)]))
    for _, said in sorted(lines, key=lambda x: x[0]):
        out.extend(said)
    out.extend(f"note: {n}" for n in result.notes)
    return "\n".join(out)


def _cmd_plan(a: argparse.Namespace) -> int:
    from treecalc.quantities import in_range  # start-up: with the command that runs, not every command

    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.studies.plan import plan

    if a.budget is not None:
        in_range("--budget", a.budget, "usd")
    _, survey, kwargs = assess_inputs(a)
    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.studies.plan import MAX_ASSESSMENTS

    limit = MAX_ASSESSMENTS if a.max_assessments is None else a.max_assessments
    if limit < 1:
        raise ValueError(f"--max-assessments must be a whole number >= 1, got {a.max_assessments}")
    result = plan(survey, budget_usd=a.budget, max_assessments=limit, **kwargs)
    if a.json:
        dump_json(result.to_json())
    else:
        print(render(render_text(result)))
    return 0
