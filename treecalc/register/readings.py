"""What the register reads of Chapter 208 (the law file and treecalc's readings of it, in the data folder): the
§208-22G warranty a planting is inspected on, in force on the day it was accepted, and the Fund's receipts of
forfeited bonds (§208-23C, §208-24B), with the readings they rest on."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from treecalc.law import LawNotInForce, entry, law_files, readings, resolved
from treecalc.law.words import period_words, spelled_years
from treecalc.messages import mark
from treecalc.reference.datafolder import BUNDLED_DATA_DIR
from treecalc.register.db import RegisterError

#: The law whose warranty the plantings follow and which sends forfeited bonds to the Fund
PLANTING_LAW = "croton_on_hudson"
#: The warranty's periods, by whether the planting is a replant: the entries of the law file that give them
WARRANTY_ENTRIES = {False: "replacement.warranty_years", True: "replacement.replant_warranty_years"}


def planting_law(on: dt.date, what: str = "‹accepted_on›") -> dict[str, Any]:
    """Chapter 208 in force on ``on`` (with treecalc's readings): the law a planting accepted that day is warranted
    under; a day before the earliest version held is refused naming it (its warranty is not held)."""
    try:
        return resolved(PLANTING_LAW, on)
    except LawNotInForce as e:
        # the law's refusal asks for a later assessment date; here the date to give is the one refused

        raise RegisterError(f"{what} {on.isoformat()}: {str(e).replace(mark('on'), what)}") from None


def warranty_years(on: dt.date, *, replant: bool) -> int:
    """§208-22G's warranty of a planting provisionally accepted on ``on``, in whole years, of the law in force that
    day: the replacements' anniversary (``replacement.warranty_years``), or a replant's own period
    (``replacement.replant_warranty_years``)."""
    key = WARRANTY_ENTRIES[replant]
    table, _, name = key.partition(".")
    years = (planting_law(on).get(table) or {}).get(name)
    if years is None:
        raise _lacks(key)
    if isinstance(years, bool) or not float(years).is_integer() or not 0 < float(years) <= 100:
        raise RegisterError(f"{key} = {years!r} (the law in force on {on}): a whole number of years is needed")
    return int(years)


def warranty_section(replant: bool = False) -> str:
    """The section of §208-22G's warranty entry (as the law file cites it)."""
    try:
        return entry(PLANTING_LAW, WARRANTY_ENTRIES[replant]).section
    except KeyError:
        raise _lacks(WARRANTY_ENTRIES[replant]) from None


def _lacks(key: str) -> RegisterError:
    """The refusal of a data folder copied before the law file held ``key``: names the file and the entry."""
    where = law_files(PLANTING_LAW)[0]
    return RegisterError(f"{where} of the data folder has no entry {key}: copy it from {BUNDLED_DATA_DIR / where}")


def warranty_words(years: int, replant: bool) -> str:
    """A planting's warranty in words: "three years from provisional acceptance", a replant's "from its own"."""
    own = "its own " if replant else ""
    return f"{spelled_years(years)} from {own}provisional acceptance"


def replant_reading(on: dt.date) -> str:
    """How §208-22G's period of a replant is read (``replacement.replant_warranty_reading`` of the readings), its
    periods those of the law in force on ``on`` (the latest held for a day before it)."""
    try:
        held = planting_law(on)
    except RegisterError:  # a planting recorded before plantings were checked against the law held
        held = resolved(PLANTING_LAW)
    return _held(readings(PLANTING_LAW), "replacement", "replant_warranty_reading").format_map(period_words(held))


def fund_reading() -> dict[str, str]:
    """How the register reads §208-23C/§208-24B (``[fund]`` of the readings): ``forfeited_bond_sections`` and the
    ``forfeited_bond_reading`` sentence, filled."""
    law = readings(PLANTING_LAW)
    held = {k: _held(law, "fund", k) for k in ("forfeited_bond_sections", "forfeited_bond_reading")}
    return {k: v.format_map(held) for k, v in held.items()}


def _held(read: dict[str, Any], table: str, key: str) -> str:
    """A reading's text of the data folder's readings; a folder copied before it was added is refused naming it."""
    text = (read.get(table) or {}).get(key)
    if not isinstance(text, str):
        where = f"readings/{PLANTING_LAW}.toml"
        raise RegisterError(
            f"{where} of the data folder has no [{table}] {key}: copy it from {BUNDLED_DATA_DIR / where}"
        )
    return text


def case_readings(plantings: Any, bonds: Any) -> list[dict[str, str]]:
    """The readings a case's records rest on: a replant's warranty, a forfeited bond received into the Fund."""
    readings = []
    replants = [p.accepted_on for p in plantings if p.replant_of is not None]
    if replants:
        readings.append({"section": warranty_section(True), "reading": replant_reading(max(replants))})
    if any(b.status == "forfeited" for b in bonds):
        fund = fund_reading()
        readings.append({"section": fund["forfeited_bond_sections"], "reading": fund["forfeited_bond_reading"]})
    return readings


def ledger(
    a: dt.date,
    b: dt.date,
    days: Any,
    cases: Any,
    forfeited: list[tuple[Any, ...]],
    cents_to_usd: Callable[[int], str | None],
) -> dict[str, Any]:
    """The Fund ledger from ``a`` to ``b`` of the payments summed by day (day, cents, count) and by case (case,
    cents) and the bonds forfeited then (bond, case, cents, day, title): by month, by case, the total, each
    forfeiture with its case and sections; amounts as ``cents_to_usd`` writes them (the register's exact text)."""
    paid: dict[str, int] = {}
    count = 0
    for day, cents, n in days:
        key = f"{day.year:04d}-{day.month:02d}"
        paid[key] = paid.get(key, 0) + int(cents)
        count += int(n)
    by_case = {int(c): int(v) for c, v in cases}
    # a forfeited bond is a receipt, its full amount, on the day it was forfeited (data/readings: [fund])
    bonds: dict[str, int] = {}
    for _, case_id, cents, day, _ in forfeited:
        key = f"{day.year:04d}-{day.month:02d}"
        bonds[key] = bonds.get(key, 0) + cents
        by_case[case_id] = by_case.get(case_id, 0) + cents
    months = sorted(set(paid) | set(bonds))
    section = fund_reading()["forfeited_bond_sections"] if forfeited else None
    total = sum(paid.values()) + sum(bonds.values())
    return {
        "from": a.isoformat(),
        "to": b.isoformat(),
        "total_usd": cents_to_usd(total),
        "payments": count,
        "forfeited_bonds": len(forfeited),
        "by_month": [
            {
                "month": k,
                "usd": cents_to_usd(paid.get(k, 0) + bonds.get(k, 0)),
                "payments_usd": cents_to_usd(paid.get(k, 0)),
                "forfeited_bonds_usd": cents_to_usd(bonds.get(k, 0)),
            }
            for k in months
        ],
        "by_case": [{"case": k, "usd": cents_to_usd(v)} for k, v in sorted(by_case.items())],
        "forfeitures": [
            {
                "bond": bond,
                "case": case_id,
                "title": title,
                "date": day.isoformat(),
                "usd": cents_to_usd(cents),
                "section": section,
            }
            for bond, case_id, cents, day, title in forfeited
        ],
    }
