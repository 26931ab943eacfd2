"""The bills and payments of one water account, read from a CSV (``kind,date,amount[,bill]``).

Reading only: each row is a bill (its amount and due date) or a payment (its date and amount), in exact
cents; what a late bill owes is the law's (:mod:`treecalc.rules.croton_on_hudson.ch223_water`).
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence
from decimal import Decimal
from os import PathLike
from pathlib import Path

from treecalc.ingest import isolated
from treecalc.ingest.isolated import read_csv_rows
from treecalc.money import parse_money_cents
from treecalc.quantities import to_date

__all__ = ["MAX_ACCOUNT_ROWS", "read_account_csv"]

#: Bills and payments of one account: monthly bills for over 800 years (a million took minutes to walk).
MAX_ACCOUNT_ROWS = 20_000

_KIND = ("kind", "type", "entry")
_DATE = ("date", "due", "due_date")
_AMOUNT = ("amount", "amount_usd", "usd")
_LABEL = ("bill", "label", "account", "reference")


def read_account_csv(
    path: str | PathLike[str],
) -> tuple[list[tuple[Decimal, _dt.date, str | None]], list[tuple[_dt.date, Decimal]]]:
    """Bills and payments of one account from a CSV with columns ``kind,date,amount[,bill]``.

    ``kind`` is ``bill`` (``date`` is its due date) or ``payment``; amounts in US dollars and
    cents. Every row is a bill or a payment; anything else is refused naming the row. The file is read and
    its rows parsed in the bounded child of :mod:`treecalc.ingest.isolated`.
    """
    return isolated.run(_read_account_csv, path, what=f"account file {Path(str(path)).name}")


def _read_account_csv(
    path: str | PathLike[str],
) -> tuple[list[tuple[Decimal, _dt.date, str | None]], list[tuple[_dt.date, Decimal]]]:
    header, cells, lines = read_csv_rows(path, "account", max_rows=MAX_ACCOUNT_ROWS)
    if not cells:
        raise ValueError(f"account file {path} has no rows")
    if len(cells) > MAX_ACCOUNT_ROWS:  # before a row is read: a million rows took minutes to be refused
        raise ValueError(
            f"account file {path} has {len(cells):,} rows, over the limit of {MAX_ACCOUNT_ROWS:,} bills and "
            "payments for one account (monthly bills for over 800 years); split the account"
        )
    cols = {str(c).strip().lower(): c for c in header}
    # each row as a record of the header's names (a name given twice: its last cell, as a frame's records gave)
    rows: list[tuple[int, dict[str | None, str]]] = [(i + 2, dict(zip(header, r))) for i, r in zip(lines, cells)]

    def col(names: Sequence[str], required: bool = True) -> str | None:
        for n in names:
            if n in cols:
                return cols[n]
        if required:
            raise ValueError(f"account file {path}: no column {names[0]!r} (found: {', '.join(cols) or 'none'})")
        return None

    ck, cd, ca, cl = col(_KIND), col(_DATE), col(_AMOUNT), col(_LABEL, required=False)
    bills: list[tuple[Decimal, _dt.date, str | None]] = []
    pays: list[tuple[_dt.date, Decimal]] = []
    for i, r in rows:
        kind = str(r.get(ck) or "").strip().lower()
        where = f"account file row {i}"
        d = to_date(str(r.get(cd) or ""), f"{where} date")
        a = parse_money_cents(str(r.get(ca) or ""), f"{where} amount")
        if kind == "bill" and a < 0:
            raise ValueError(f"{where} amount must not be negative, got {r.get(ca)!r}")
        if kind == "payment" and a <= 0:
            raise ValueError(f"{where} amount of a payment must be positive, got {r.get(ca)!r}")
        if kind == "bill":
            bills.append((a, d, (str(r.get(cl)).strip() or None) if cl and r.get(cl) else None))
        elif kind == "payment":
            named = str(r.get(cl) or "").strip() if cl else ""
            if named and named.lower() != "nan":
                # a payment is applied to the oldest bill first (the partial-payment reading the statement states):
                # a bill named on a payment would be silently ignored, so it is refused instead
                raise ValueError(
                    f"{where}: a payment names bill {named!r}, but payments are applied to the oldest bill first "
                    "(its penalties, then its charge); leave the bill column of payment rows blank"
                )
            pays.append((d, a))
        else:
            raise ValueError(f"{where}: kind must be 'bill' or 'payment', got {r.get(ck)!r}")
    return bills, pays
