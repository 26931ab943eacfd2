"""The one schema of every law file (``data/law/<village>/<chapter>.toml``).

A file is a tree of tables. Top-level scalars (``name``, ``chapter``) name the law; ``[effective]``
says when it took effect (``date``; ``placeholder = true`` when the date is not the law's own). Every
other table is one of:

- an **entry**, one number of the law: ``value`` (or ``values``, a table keyed by the ISO date each value
  took effect), ``unit``, ``section``, ``text`` (the ordinance's words) and, for a comparison,
  ``operator`` (one of :data:`OPERATORS`);
- a **bracket**, a table of rows (``rows``, an array of tables, each with its own ``section`` and ``text``
  and the numeric ``columns`` the bracket names with their units); ``flatten`` (``"tier{tier}_{column}"``)
  names each cell for the rules that read them as plain keys; ``operators`` gives a column's comparison
  (``{ max_dbh_in = "<=" }``: "up to and including"); a cell amended on a date is a table keyed by
  the ISO date each value took effect (``usd = { 2025-01-01 = 3000, 2027-03-01 = 3500 }``), as ``values`` is;
- a **group** of entries and brackets (``[permit]``, ``[penalty]``).

``[sections.<name>]`` records cite a provision the rules apply that states no number (an exception, a definition,
an offence): its ``section`` and ``text`` (the ordinance's words), so that a rule cites it from the data as it cites
an entry's section.

Modelled on OpenFisca / PolicyEngine parameters (dated values, unit, reference), kept in TOML.
"""

from __future__ import annotations

import calendar
import datetime as dt
import math
import operator
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

#: The comparisons an entry's ``operator`` may state (the value on the right: ``dbh > 12``).
OPERATORS = (">", ">=", "<", "<=")
#: How each comparison is said in a sentence built from the entry ("more than 60 days overdue").
OPERATOR_WORDS = {">": "more than", ">=": "at least", "<": "less than", "<=": "at most"}
#: The keys of an entry, and those it needs (``min`` / ``max``: the range the law allows the value, where it is not
#: its unit's: :data:`UNIT_KINDS`).
ENTRY_KEYS = {"value", "values", "unit", "section", "text", "operator", "min", "max", "whole"}
ENTRY_NEEDS = ("unit", "section", "text")
#: The top-level keys that describe the file, not a number.
META_KEYS = {"name", "chapter", "effective", "sections"}
#: The keys of a ``[sections.<name>]`` record, all of them needed: a provision the rules apply or the outputs cite
#: that sets no number (an exception, a definition, the value basis, the hold on building permits). Not entries
#: (they have no value to amend): :func:`treecalc.law.cites.section` and the rules' ``cite`` read them.
SECTION_KEYS = ("section", "text")
#: What a record may also say: the text it was quoted from, where that is not the chapter's own source.
SECTION_MAY = ("source",)
#: The table of records, and the prefix of their keys among the sections an assessment cites.
PROVISIONS = "sections"


class LawSchemaError(ValueError):
    """A law file that does not follow the schema: names the file and the key."""


class LawNotInForce(ValueError):
    """A date before the earliest version of the law (or fee schedule) treecalc holds: names that version."""


@dataclass(frozen=True)
class Entry:
    """One number of the law: its value in force on a date, its dated values, unit, section, words, comparison."""

    key: str
    value: Any
    unit: str
    section: str
    text: str
    operator: str | None = None
    values: tuple[tuple[dt.date, Any], ...] = ()

    def __str__(self) -> str:
        return f"{self.value} {self.unit} ({self.section})"

    def compare(self, x: Any) -> bool:
        """``x <operator> value`` (the entry's comparison; an entry without one has none to make)."""
        if self.operator is None:
            raise LawSchemaError(f"{self.key} states no operator")
        return compare(self.operator, x, self.value)


@dataclass(frozen=True)
class Bracket:
    """A table of the law: rows of numbers (each row with its own section and words)."""

    key: str
    section: str
    columns: dict[str, str]
    rows: tuple[dict[str, Any], ...]
    flatten: str | None = None
    text: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    operators: dict[str, str] = field(default_factory=dict)  # a column's comparison (``max_dbh_in``: ``<=``)

    def flat(self) -> dict[str, Any]:
        """Each cell under the name ``flatten`` gives it (``tier1_usd``), for the rules' plain keys."""
        out: dict[str, Any] = {}
        if not self.flatten:
            return out
        for row in self.rows:
            for col in self.columns:
                if col in row:
                    out[self.flatten.format(column=col, **row)] = row[col]
        return out


#: Relative distance below which a measured number is its bound: a unit conversion's float rounding (20.32 cm x
#: (1 / 2.54) = 7.999999999999999 in, exactly 8 in), far below any measurement's precision.
SAME_AS_BOUND_RTOL = 1e-9


def compare(op: str, x: Any, v: Any) -> Any:
    """``x op v`` for an operator of :data:`OPERATORS` (arrays compare elementwise).

    A float within :data:`SAME_AS_BOUND_RTOL` of ``v`` is ``v``: a tree measured 20.32 cm is "eight (8) inches
    or more" (§208-19A(2)) and "up to and including eight inches" (§208-29B(1)), not 7.999999999999999 in."""
    fn = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le}.get(op)
    if fn is None:
        raise LawSchemaError(f"operator {op!r} is not one of {', '.join(OPERATORS)}")
    out = fn(x, v)
    if isinstance(v, (bool, Decimal)) or (type(x) is int and type(v) in (int, float)):  # as below, without numpy
        return out
    if type(x) is float and type(v) in (int, float):  # numpy's isclose(x, v, rtol, atol=0), as below
        vf = float(v)
        finite = abs(x) < math.inf and abs(vf) < math.inf  # not finite: close only when equal (never NaN)
        return op in (">=", "<=") if (abs(x - vf) <= SAME_AS_BOUND_RTOL * abs(vf) if finite else x == vf) else out

    import numpy as np  # start-up: with the command that runs, not every command (numpy)

    xa = np.asarray(x)
    if xa.dtype.kind != "f" or isinstance(v, bool) or not isinstance(v, (int, float, np.number)):
        return out
    at_bound = np.isclose(xa, float(v), rtol=SAME_AS_BOUND_RTOL, atol=0.0)
    if not at_bound.any():
        return out
    if xa.ndim == 0:
        return op in (">=", "<=")
    return (out | at_bound) if op in (">=", "<=") else (out & ~at_bound)


def is_entry(t: dict[str, Any]) -> bool:
    return "value" in t or "values" in t


def is_bracket(t: dict[str, Any]) -> bool:
    return "rows" in t


def _date(k: Any, where: str) -> dt.date:
    if isinstance(k, dt.date) and not isinstance(k, dt.datetime):
        return k
    try:
        return dt.date.fromisoformat(str(k))
    except ValueError:
        raise LawSchemaError(f"{where}: {k!r} is not an ISO date (YYYY-MM-DD)") from None


def _number(v: Any, where: str) -> Decimal:
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        raise LawSchemaError(f"{where}: value {v!r} is not a number")
    try:
        d = Decimal(str(v).strip())
    except ArithmeticError:
        raise LawSchemaError(f"{where}: value {v!r} is not a number") from None
    if not d.is_finite():  # TOML's nan and inf (or the text "NaN"): no law sets one, and the arithmetic breaks on it
        raise LawSchemaError(f"{where}: value {v!r} is not a finite number")
    return d


#: Beyond any number a law of a village sets (a length, an area, a multiple, a count): a value past it is a typing
#: slip (``1e308``), refused before the arithmetic overflows on it.
LAW_NUMBER_CAP = Decimal(10) ** 9
#: The most money treecalc computes with (:data:`treecalc.money.MAX_MONEY`, one trillion dollars).
MONEY_CAP = Decimal(10) ** 12


@dataclass(frozen=True)
class UnitKind:
    """What a unit's value may be: its lowest (``low_open``: strictly above it) and highest, a whole number or not."""

    starts: tuple[str, ...]  # the words the unit begins with ("USD per offence" is money)
    name: str
    low: Decimal
    high: Decimal
    integer: bool = False
    low_open: bool = False

    def said(self) -> str:
        low = f"more than {self.low}" if self.low_open else f"from {self.low}"
        whole = ", a whole number" if self.integer else ""
        return f"{self.name}{whole} {low} to {self.high:,}"


#: The kind of each unit of the law files, by the words the unit begins with (the first that matches): the range a
#: value in it may take unless its entry states its own ``min`` / ``max``. A percentage of the law above 100 (a
#: violation's 120 % standard) says so in its entry.
UNIT_KINDS = (
    UnitKind(("USD",), "an amount of money", Decimal(0), MONEY_CAP),
    # a slope's percentage is rise over run: 100 % is 45 degrees, and a steeper slope is more
    UnitKind(("percent slope",), "a slope in percent (rise over run)", Decimal(0), LAW_NUMBER_CAP),
    UnitKind(("percent",), "a percentage", Decimal(0), Decimal(100)),
    UnitKind(("month of the year",), "a month of the year", Decimal(1), Decimal(12), integer=True),
    UnitKind(("day of the month",), "a day of the month", Decimal(1), Decimal(31), integer=True),
    UnitKind(("hour of the day",), "an hour of the day", Decimal(0), Decimal(23), integer=True),
    UnitKind(("trees", "regulated trees"), "a count of trees", Decimal(0), LAW_NUMBER_CAP, integer=True),
    # a number of days may be none: a term of imprisonment of not more than 0 days (none), more than 0 days overdue
    UnitKind(("days",), "a number of days", Decimal(0), LAW_NUMBER_CAP, integer=True),
    UnitKind(("months", "years", "year"), "a period", Decimal(1), LAW_NUMBER_CAP, integer=True),
    UnitKind(
        ("in", "ft", "sq ft", "cu yd", "acres"), "a length, area or volume", Decimal(0), LAW_NUMBER_CAP, low_open=True
    ),
    UnitKind(("times",), "a multiple", Decimal(0), LAW_NUMBER_CAP, low_open=True),
)


def unit_kind(unit: str) -> UnitKind | None:
    """The kind of ``unit`` ("percent of the environmental value removed" is a percentage); None: not one known."""
    for kind in UNIT_KINDS:
        if any(re.match(re.escape(w) + r"\b", unit) for w in kind.starts):
            return kind
    return None


def _exceeded(t: dict[str, Any]) -> bool:
    """A length the law says "more than" (``>``: "excavation in excess of four feet") may be 0 ("in excess of zero
    feet" is any depth); a length it measures, divides by or bounds "at least" / "at most" is more than 0."""
    return t.get("operator") == ">"


def check_range(v: Any, unit: str, where: str, t: dict[str, Any] | None = None) -> None:
    """Refuse a value its unit (or its entry's ``min`` / ``max``) does not allow, naming ``where`` and the range: a
    percentage of -90 would have been applied as a negative required value, a 3.7-tree threshold compared silently,
    ``inf`` or ``nan`` met by the arithmetic as a traceback."""
    kind = unit_kind(unit)
    if kind is None:
        known = "; ".join(" / ".join(k.starts) for k in UNIT_KINDS)
        raise LawSchemaError(
            f"{where}: unit {unit!r} is not one treecalc knows the range of (it begins with one of: {known})"
        )
    t = t or {}
    low = _number(t["min"], f"{where} min") if "min" in t else kind.low
    high = _number(t["max"], f"{where} max") if "max" in t else kind.high
    stated = "min" in t or "max" in t
    allowed = (
        f"allowed: {kind.name} from {low} to {high:,} (the entry's min and max)"
        if stated
        else f"allowed: {kind.name} from {low} to {high:,} (a threshold the law says more than)"
        if kind.low_open and _exceeded(t)
        else f"allowed: {kind.said()}"
    )
    try:
        d = _number(v, where)
    except LawSchemaError as e:
        raise LawSchemaError(f"{e}; {allowed}") from None
    # ``whole = true``: the rules compute with this number in whole units (whole dollars, a whole multiple), so a
    # fraction the unit would allow is refused rather than cut off (5000.50 would be charged as 5000)
    whole = kind.integer or t.get("whole") is True
    if t.get("whole") is True:
        allowed += "; a whole number (the rules compute it in whole units)"
    too_low = d <= low if kind.low_open and "min" not in t and not _exceeded(t) else d < low
    if too_low or d > high or (whole and d != d.to_integral_value()):
        raise LawSchemaError(f"{where}: value {v!r} is out of range; {allowed}")


def check_entry(t: dict[str, Any], where: str) -> None:
    unknown = sorted(set(t) - ENTRY_KEYS)
    if unknown:
        raise LawSchemaError(f"{where}: unknown keys {unknown} (an entry has {sorted(ENTRY_KEYS)})")
    missing = [k for k in ENTRY_NEEDS if not isinstance(t.get(k), str) or not t[k].strip()]
    if missing:
        raise LawSchemaError(f"{where}: lacks {', '.join(missing)}")
    if ("value" in t) == ("values" in t):
        raise LawSchemaError(f"{where}: give value or values (keyed by effective date), not both")
    if "values" in t:
        if not isinstance(t["values"], dict) or not t["values"]:
            raise LawSchemaError(f"{where}: values must be a table keyed by effective date")
        for k in t["values"]:
            _date(k, where)
    if "operator" in t and t["operator"] not in OPERATORS:
        raise LawSchemaError(f"{where}: operator {t['operator']!r} is not one of {', '.join(OPERATORS)}")
    for k, v in t["values"].items() if "values" in t else [(None, t["value"])]:
        check_range(v, t["unit"], where if k is None else f"{where} values[{k}]", t)


def check_bracket(t: dict[str, Any], where: str) -> None:
    unknown = sorted(set(t) - {"rows", "section", "columns", "flatten", "text", "operators", "whole"})
    if unknown:
        raise LawSchemaError(f"{where}: unknown keys {unknown}")
    # the columns the rules compute with in whole units (``whole = ["usd"]``): a fraction is refused, not cut off
    whole = set(t.get("whole") or ())
    if not whole <= set(t.get("columns") or {}):
        raise LawSchemaError(f"{where}: whole = {sorted(whole)}: not all columns of the bracket")
    for c, op in (t.get("operators") or {}).items():  # a column's comparison: "up to and including" is <=
        if c not in (t.get("columns") or {}) or op not in OPERATORS:
            raise LawSchemaError(f"{where}: operators.{c} = {op!r}: not a column with one of {', '.join(OPERATORS)}")
    if not isinstance(t.get("section"), str) or not isinstance(t.get("columns"), dict) or not t["columns"]:
        raise LawSchemaError(f"{where}: a bracket needs section and columns (each column's unit)")
    rows = t["rows"]
    if not isinstance(rows, list) or not rows:
        raise LawSchemaError(f"{where}: rows must be an array of tables")
    for i, row in enumerate(rows, 1):
        w = f"{where} row {i}"
        if not isinstance(row, dict):
            raise LawSchemaError(f"{w}: not a table")
        for k in ("section", "text"):
            if not isinstance(row.get(k), str) or not row[k].strip():
                raise LawSchemaError(f"{w}: lacks {k}")
        if not any(c in row for c in t["columns"]):
            raise LawSchemaError(f"{w}: none of the columns {sorted(t['columns'])}")
        for c in t["columns"]:
            if isinstance(row.get(c), dict):  # a cell amended on a date: its values keyed by effective date
                if not row[c]:
                    raise LawSchemaError(f"{w} {c}: a dated cell must be a table keyed by effective date")
                for k, v in row[c].items():
                    _date(k, f"{w} {c}")
                    check_range(v, t["columns"][c], f"{w} {c}[{k}]", {"whole": c in whole})
            elif c in row:
                check_range(row[c], t["columns"][c], f"{w} {c}", {"whole": c in whole})


def _check_day_of_month(t: dict[str, Any], where: str) -> None:
    """A table's day of the month and month of the year (§223-12F(2)'s "April 15") make a date of every year: the
    day exists in that month (31 April does not; 29 February not every year)."""

    def of(kind: str) -> list[tuple[str, dict[str, Any]]]:
        return [
            (k, v)
            for k, v in t.items()
            if isinstance(v, dict) and is_entry(v) and str(v.get("unit", "")).startswith(kind)
        ]

    months, days = of("month of the year"), of("day of the month")
    if len(months) != 1 or len(days) != 1:
        return
    (mk, m), (dk, d) = months[0], days[0]
    for month in m["values"].values() if "values" in m else [m["value"]]:
        for day in d["values"].values() if "values" in d else [d["value"]]:
            last = calendar.monthrange(2023, int(month))[1]  # a year not leap: the date falls every year
            if int(day) > last:
                at = f"{where[:-1]}.{dk}]" if where.endswith("]") else f"{where} [{dk}]"
                raise LawSchemaError(
                    f"{at}: day {day} is not a day of {calendar.month_name[int(month)]} (the month of {mk}, "
                    f"{month}); allowed: a day of the month from 1 to {last}"
                )


def _on_each_date(cells: list[Any], where: str) -> Iterator[tuple[dt.date | None, list[Any]]]:
    """``cells`` (plain values, or tables keyed by the date each took effect) as in force on every date one of them
    changes, and on the latest: two numbers that contradict each other on any day are refused."""
    days = sorted({_date(k, where) for c in cells if isinstance(c, dict) for k in c})
    for on in [*days, None]:
        try:
            yield on, [dated_value(c, on, where)[0] if isinstance(c, dict) else c for c in cells]
        except LawNotInForce:  # a day before one of them took effect: nothing to compare
            continue


def _said_on(on: dt.date | None) -> str:
    return f" (in force from {on.isoformat()})" if on is not None else ""


def _check_order(t: dict[str, Any], where: str) -> None:
    """Numbers of one table the law orders: a minimum no more than its maximum (``fine_first_min`` /
    ``fine_first_max``: "not less than $500 nor more than $1,000"); a bracket's upper bounds (a column compared
    ``<=`` or ``<``: §208-29B's "up to and including eight inches", then 12) increasing row by row, and its
    amounts not decreasing over those classes and the class above the last bound (a larger tree is fined no
    less). Each refused naming both entries."""
    for k, v in t.items():
        if not isinstance(v, dict) or k in META_KEYS:
            continue
        at = f"{where[:-1]}.{k}]" if where.endswith("]") else f"{where} [{k}]"
        if is_bracket(v):
            _check_bracket_order(v, at)
        elif not is_entry(v):
            _check_order(v, at)
        elif k.endswith("_min") and isinstance(t.get(f"{k[:-4]}_max"), dict) and is_entry(t[f"{k[:-4]}_max"]):
            hi_key = f"{k[:-4]}_max"
            hi = t[hi_key]
            cells = [v["values"] if "values" in v else v["value"], hi["values"] if "values" in hi else hi["value"]]
            for on, (low, high) in _on_each_date(cells, at):
                if _number(low, at) > _number(high, at):
                    other = f"{where[:-1]}.{hi_key}]" if where.endswith("]") else f"[{hi_key}]"
                    raise LawSchemaError(
                        f"{at}: the minimum {low} is more than the maximum {high} of {other}{_said_on(on)}; a "
                        "minimum is at most its maximum"
                    )


def _check_bracket_order(t: dict[str, Any], where: str) -> None:
    ops = t.get("operators") or {}
    for bound in [c for c in t["columns"] if ops.get(c) in ("<", "<=")]:
        rows = t["rows"]
        bounded = [i for i, r in enumerate(rows) if bound in r]
        if not bounded or bounded != list(range(bounded[0], bounded[-1] + 1)):
            continue  # the classes are consecutive rows; any other layout is not one treecalc orders
        classes = bounded + ([bounded[-1] + 1] if bounded[-1] + 1 < len(rows) else [])
        for col in t["columns"]:
            seq = [(i, rows[i][col]) for i in (bounded if col == bound else classes) if col in rows[i]]
            for (i, a), (j, b) in zip(seq, seq[1:]):
                for on, (x, y) in _on_each_date([a, b], f"{where} row {j + 1} {col}"):
                    if _number(y, where) > _number(x, where) or (
                        col != bound and _number(y, where) == _number(x, where)
                    ):
                        continue
                    rising = "upper bounds increase" if col == bound else "amounts do not decrease"
                    raise LawSchemaError(
                        f"{where}: row {j + 1} ({rows[j].get('section', '')}) {col} {y} is "
                        f"{'not more than' if col == bound else 'less than'} row {i + 1}'s "
                        f"({rows[i].get('section', '')}) {x}{_said_on(on)}; over the classes of {bound} the "
                        f"{rising} row by row"
                    )


def validate(raw: dict[str, Any], name: str) -> None:
    """Raise :class:`LawSchemaError` naming ``name`` and the key where ``raw`` (a parsed law file) breaks the schema."""
    eff = raw.get("effective")
    if eff is not None:
        if not isinstance(eff, dict):
            raise LawSchemaError(f"{name}: [effective] must be a table")
        if "date" in eff:
            _date(eff["date"], f"{name} [effective]")
        if "read" in eff:  # the day the text was read: a chapter whose adoption date is not held is known from it
            _date(eff["read"], f"{name} [effective] read")
    _check_sections(raw.get("sections", {}), name)
    for k, v in raw.items():
        if k in META_KEYS:
            continue
        if not isinstance(v, dict):
            raise LawSchemaError(f"{name}: {k} = {v!r} is not an entry (value, unit, section, text)")
        _check_table(v, f"{name} [{k}]")
    _check_day_of_month(raw, name)
    _check_order(raw, name)
    since = _date(eff["date"], f"{name} [effective]") if isinstance(eff, dict) and "date" in eff else None
    if since is not None:
        for where, dated in _dated(raw, name):
            first = min(_date(d, where) for d in dated)
            if first > since:  # the chapter is in force from its date: each of its numbers must be too
                raise LawSchemaError(
                    f"{where}: its earliest value takes effect {first.isoformat()}, after the chapter's effective "
                    f"date {since.isoformat()}; give the value in force from {since.isoformat()} as well"
                )


def _check_sections(t: Any, name: str) -> None:
    """Each ``[sections.<name>]`` record has a non-blank section and the ordinance's words, and nothing else."""
    if not isinstance(t, dict):
        raise LawSchemaError(f"{name}: [sections] must be a table of records (section, text)")
    for k, r in t.items():
        where = f"{name} [sections.{k}]"
        if not isinstance(r, dict):
            raise LawSchemaError(f"{where}: {r!r} is not a record (section, text)")
        for need in SECTION_KEYS:
            if not isinstance(r.get(need), str) or not r[need].strip():
                raise LawSchemaError(f"{where}: lacks {need} (a record has section and text, the ordinance's words)")
        extra = sorted(set(r) - set(SECTION_KEYS) - set(SECTION_MAY))
        if extra:
            raise LawSchemaError(f"{where}: {', '.join(extra)} is not a key of a record (section, text, source)")


def entry_keys(t: dict[str, Any], prefix: str = "") -> dict[str, str]:
    """Every entry and bracket of a parsed law file by its dotted key (``"replacement.percent"``) -> its section."""
    out: dict[str, str] = {}
    for k, v in t.items():
        if not isinstance(v, dict) or (not prefix and k in META_KEYS):
            continue
        if is_entry(v) or is_bracket(v):
            out[f"{prefix}{k}"] = str(v.get("section", ""))
        else:
            out.update(entry_keys(v, f"{prefix}{k}."))
    return out


def _dated(t: dict[str, Any], where: str) -> Any:
    """Every table of dated values in a parsed file: (where, the table keyed by date)."""
    for k, v in t.items():
        if not isinstance(v, dict) or k in META_KEYS:
            continue
        w = f"{where} [{k}]" if not where.endswith("]") else f"{where[:-1]}.{k}]"
        if is_entry(v):
            if isinstance(v.get("values"), dict):
                yield w, v["values"]
        elif is_bracket(v):
            for i, row in enumerate(v["rows"], 1):
                for c, cell in row.items():
                    if isinstance(cell, dict) and cell:
                        yield f"{w} row {i} {c}", cell
        else:
            yield from _dated(v, w)


def _check_table(t: dict[str, Any], where: str) -> None:
    if not is_entry(t) and not is_bracket(t) and {"unit", "section", "text"} & set(t):
        # an entry whose value was deleted: said so, not "its unit is not an entry"
        raise LawSchemaError(f"{where}: lacks value (an entry has value or values, unit, section, text)")
    if is_entry(t):
        check_entry(t, where)
    elif is_bracket(t):
        check_bracket(t, where)
    else:
        _check_day_of_month(t, where)
        for k, v in t.items():
            if not isinstance(v, dict):
                raise LawSchemaError(
                    f"{where[:-1]}.{k}]: {v!r} is not an entry (value, unit, section, text); "
                    "treecalc's own readings go to data/readings/"
                )
            _check_table(v, f"{where[:-1]}.{k}]")


def as_date(x: Any, name: str = "on") -> dt.date | None:
    """``x`` (a date, or ISO text ``YYYY-MM-DD``) as a date; None stays None; ValueError naming ``name``."""
    if x is None or x == "":
        return None
    if isinstance(x, dt.datetime):
        return x.date()
    if isinstance(x, dt.date):
        return x
    try:
        return dt.date.fromisoformat(str(x).strip())
    except ValueError:
        raise ValueError(f"{name} must be a date YYYY-MM-DD, got {x!r}") from None


def value_on(t: dict[str, Any], on: dt.date | None, where: str) -> tuple[Any, tuple[tuple[dt.date, Any], ...]]:
    """The value of entry ``t`` in force on ``on`` (the latest dated value on or before it; ``None``: the latest)."""
    if "value" in t:
        return t["value"], ()
    return dated_value(t["values"], on, where)


def dated_value(values: dict[Any, Any], on: dt.date | None, where: str) -> tuple[Any, tuple[tuple[dt.date, Any], ...]]:
    """Of ``values`` keyed by the date each took effect (in any order), the one in force on ``on`` (``None``: the
    latest) and all of them in date order; :class:`LawNotInForce` naming the earliest for a date before it."""
    dated = tuple(sorted((_date(k, where), v) for k, v in values.items()))
    chosen = [v for d, v in dated if on is None or d <= on]
    if not chosen:
        raise LawNotInForce(f"{where}: no value in force on {on} (the earliest held takes effect {dated[0][0]})")
    return chosen[-1], dated
