"""The library's keywords (:mod:`treecalc.messages`) as the command line's flags.

:func:`flags` is read off the parsers themselves (each flag's ``dest`` is the keyword it gives), so a flag
renamed is renamed here too; a site fact with its value is ``--site name=value``.
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Callable

from treecalc.messages import render as _render

__all__ = ["flag", "flags", "render", "words"]

#: a flag whose dest is not the library's keyword: the keyword it gives
_KEYWORD = {
    "price": "prices",
    "budget": "budget_usd",
    "map": "column_map",
    "lot_area": "lot_area_sqft",
    "retaining_wall": "retaining_wall_height_ft",
    "home_price": "home_price_usd",
    "large_tree_leaf_area": "large_tree_leaf_area_m2",
    # the water commands' flags: the parameters of treecalc.water's functions they give
    "billed": "billed_consumption",
    "result": "registration_error_pct",
    "fee": "test_fee",
    "rate": "rate_usd_per_unit",
    "due": "due_date",
    "bill": "bills",
    "payment": "payments",
    # the register's flags (treecalc case): the parameters of treecalc.register.Register they give
    "ref": "reference",
    "accepted": "accepted_on",
}


#: the command line's whole parser, given by :mod:`treecalc.cli` (which imports this module: no cycle)
_BUILD: Callable[[], argparse.ArgumentParser] | None = None
#: the assessment's flags, read first (the law's options are its)
_ASSESS: Callable[[argparse.ArgumentParser], None] | None = None


def use_parser(
    build: Callable[[], argparse.ArgumentParser], assess_flags: Callable[[argparse.ArgumentParser], None]
) -> None:
    """Read the flags off ``build()``'s parser, ``assess_flags``' first (treecalc.cli gives both when it is
    imported: this module imports no other command's, so that each of them may render its messages here)."""
    global _BUILD, _ASSESS
    _BUILD, _ASSESS = build, assess_flags
    flags.cache_clear()


def _walk(p: argparse.ArgumentParser, out: dict[str, str]) -> None:
    for a in p._actions:
        if isinstance(a, argparse._SubParsersAction):
            for sub in a.choices.values():
                _walk(sub, out)
        elif a.option_strings and a.dest not in ("help", "version"):
            long = [s for s in a.option_strings if s.startswith("--")]
            out.setdefault(_KEYWORD.get(a.dest, a.dest), (long or a.option_strings)[0])


@functools.cache
def flags() -> dict[str, str]:
    """Each keyword a flag gives -> that flag: ``treecalc assess``'s first (the law's options are its), then
    every other command's for the keywords it alone has."""
    out: dict[str, str] = {}
    p = argparse.ArgumentParser(add_help=False)
    if _ASSESS is not None:
        _ASSESS(p)
    _walk(p, out)
    if _BUILD is not None:
        _walk(_BUILD(), out)
    return out


def flag(keyword: str) -> str:
    """The flag of ``keyword`` (a KeyError for a keyword no flag gives: a message naming it is a defect)."""
    return flags()[keyword]


def words(name: str, value: str | None) -> str:
    """A marker as the command line says it: ``--replacement-cost``, ``--site has_residence=true``."""
    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.ingest.site import SITE_FIELDS

    if value is not None and name in SITE_FIELDS:
        return f"--site {name}={value}"
    return flag(name) if value is None else f"{flag(name)} {value}"


def render(text: object) -> str:
    """``text`` with every keyword marker as its flag."""
    return _render(str(text), words)
