"""``treecalc jurisdictions``: the laws treecalc applies, each with its replacement family, chapter, effective date
and what of its text is not held. Registered by :mod:`treecalc.cli` through :func:`register`."""

from __future__ import annotations

import argparse
import json
from typing import Any

from treecalc.law import registry, towns


def register(sub: Any) -> None:
    p = sub.add_parser(
        "jurisdictions",
        help="the laws treecalc applies: family, chapter, effective date, what is not held",
        description="List every jurisdiction treecalc applies (those held as a data folder alone included): the "
        "name --jurisdiction takes, its replacement family, chapter, effective date and what of its ordinance "
        "treecalc has not read (an assessment says so and gives no amount for it).",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="a JSON list of {key, name, family, chapter, effective, effective_placeholder, held_from, not_held}",
    )
    p.set_defaults(func=run)


def rows() -> list[dict[str, Any]]:
    return [towns.summary(r.key) for r in registry.records()]


def run(a: argparse.Namespace) -> int:
    found = rows()
    if a.json:
        print(json.dumps(found, indent=2))
        return 0
    for row in found:
        spelled = registry.by_key(row["key"]).user_spelling
        print(f"{spelled}: {row['name']}")
        date = row["effective"] or "no date held"
        if row["effective_placeholder"]:
            date += " (a PLACEHOLDER: the date it took effect is not in the text read)"
        if row["held_from"]:
            date += f"; held as read on {row['held_from']}: no earlier date is answered"
        print(f"  family: {row['family']}; chapter: {row['chapter']}; effective: {date}")
        for n in row["not_held"]:
            print(f"  not held: {n}")
    return 0
