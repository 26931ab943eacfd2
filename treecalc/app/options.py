"""Options from outside the app's controls (a link, a project file): taken only in the form its controls accept.

Only the options the app itself sets are taken, each only in the form and range its control accepts: a value
of another type or out of range would stop the page that draws the control, and an unknown key could reach the
law engine (``benefit: {fee_schedule: "/etc/passwd"}`` named a server file). A fee schedule is taken in its
in-line form (a dict) only, never as a path.

The options of :func:`treecalc.assess` are checked by the library itself (:meth:`AssessOptions.validated`, the
ranges of the command line's flags, refused in its words naming the option); what is checked here is only the
form of the control that sets each (a checkbox's true or false, a number field's number) and what the library
does not take (the app's species corrections, trees marked harmed, benefit parameters).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import streamlit as st

from treecalc.app import state
from treecalc.ingest.values import parse_condition
from treecalc.law.schema import as_date
from treecalc.money import OutOfRange
from treecalc.quantities import RANGES, in_range
from treecalc.reference import data
from treecalc.rules.context import AssessOptions

#: the session key of what a link or a project could not give (said above the page)
NOTE = "tc_url_note"


class Refused(ValueError):
    """A value no control of the app holds, said in words beside the option's name."""


def _number(lo: float | None = None, hi: float | None = None, whole: bool = False) -> Callable[[Any], Any]:
    """A number field's value within the field's own bounds."""

    def check(v: Any) -> Any:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise ValueError("not a number")
        if (lo is not None and v < lo) or (hi is not None and v > hi) or (whole and v != int(v)):
            raise ValueError("out of range")
        return int(v) if whole else float(v)

    return check


def _ranged(kind: str, name: str) -> Callable[[Any], Any]:
    """A number within the range of its flag (:data:`treecalc.quantities.RANGES`), for the parameters that are no
    option of :func:`treecalc.assess` (the benefit prices, a fee schedule's amounts)."""

    def check(v: Any) -> Any:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ValueError("not a number")
        x = in_range(name, v, kind)
        return int(x) if RANGES[kind].whole else x

    return check


def _assess(key: str, form: Callable[[Any], Any], cast: Callable[[Any], Any] | None = None) -> Callable[[Any], Any]:
    """The option ``key`` of :class:`treecalc.rules.context.AssessOptions`: in the ``form`` of its control, then
    validated by the library (its range, in its words: :class:`treecalc.money.OutOfRange` naming the option),
    ``cast`` to the control's type (the library keeps an amount of money as it was given)."""

    def check(v: Any) -> Any:
        value = getattr(AssessOptions(**{key: form(v)}).validated(), key)
        return value if cast is None or value is None else cast(value)

    return check


def _text(v: Any) -> str:
    if not isinstance(v, str) or len(v) > 500:
        raise ValueError("not a short text")
    return v


def _flag(v: Any) -> bool:
    if not isinstance(v, bool):
        raise ValueError("not true or false")
    return v


def _any_number(v: Any) -> Any:
    """A number (never true or false, never a text: a number field holds neither)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ValueError("not a number")
    return v


def _keep(v: Any) -> Any:
    return v


def _mapping(value: Any, check: Callable[[Any], Any], max_items: int = 100_000) -> dict[str, Any]:
    if not isinstance(value, dict) or len(value) > max_items:
        raise ValueError("not a table")
    return {_text(k): check(v) for k, v in value.items()}


def _one_of(*allowed: str) -> Callable[[Any], str]:
    def check(v: Any) -> str:
        if v not in allowed:
            raise ValueError("not one of the choices")
        return v

    return check


def _value_basis(v: Any) -> str:
    """One of the value basis control's choices (cumulative over 1 to 100 years, the control's bounds)."""
    kind, _, years = _text(v).partition(":")
    if kind not in ("annual", "cumulative", "appraised") or (
        years and (kind != "cumulative" or not years.isdigit() or not 1 <= int(years) <= 100)
    ):
        raise ValueError("not a value basis")
    return v


def _stock(v: Any) -> list[dict[str, Any]]:
    """The stock table's rows (species, DBH within the table's bounds, a unit cost or none)."""
    if not isinstance(v, list) or not 0 < len(v) <= 500:
        raise ValueError("not a stock list")
    rows = []
    for r in v:
        if not isinstance(r, dict) or not {"species", "dbh_in"} <= set(r) <= {"species", "dbh_in", "unit_cost_usd"}:
            raise ValueError("not a stock row")
        cost = r.get("unit_cost_usd")
        rows.append(
            {
                "species": _text(r["species"]),
                "dbh_in": _number(0.1, 60)(r["dbh_in"]),
                "unit_cost_usd": None if cost is None else float(_any_number(cost)),
            }
        )
    return rows


def _fee_schedule(v: Any) -> dict[str, Any]:
    """The Fund page's schedule, in its in-line form, with the date of the Board resolution it records (kept as
    written: a schedule saved with its date and reopened without it charged the fee of another resolution)."""
    keys = {"basis", "fee_per_tree_usd", "multiplier", "placeholder", "label", "resolution_date"}
    if not isinstance(v, dict) or not set(v) <= keys:
        raise ValueError("not an in-line fee schedule")
    out = dict(v)
    if "basis" in v:
        _one_of("per_tree", "value")(v["basis"])
    for k, kind in (("fee_per_tree_usd", "usd"), ("multiplier", "multiplier")):
        if k in v:
            try:
                amount = float(v[k]) if isinstance(v[k], str) else v[k]
            except ValueError:
                raise ValueError(f"{k} is not an amount") from None
            _ranged(kind, f"fee schedule {k}")(amount)
    if "placeholder" in v:
        _flag(v["placeholder"])
    if "label" in v:
        _text(v["label"])
    if "resolution_date" in v:
        as_date(_text(v["resolution_date"]), "fee schedule resolution_date")
    return out


def _zone(v: Any) -> str:
    """One of the climate zones the Benefits page offers."""
    if not isinstance(v, str) or v not in set(data.zones().index):
        raise ValueError("not a climate zone")
    return v


def _condition(v: Any) -> str:
    """A condition the survey reader reads (a class, a synonym or a percentage): any other text stopped the
    assessment on every page of the session."""
    if parse_condition(_text(v)) is None:
        raise Refused(f"condition {v[:60]!r} not recognised (excellent, good, fair, poor, dead)")
    return v


def _tree_fact(column: Any, value: Any) -> Any:
    if column == "condition":
        return _condition(value)
    return value if isinstance(value, bool) else _text(value)


def _tree_facts(v: Any) -> dict[str, Any]:
    """{tag: {column: value}}: yes/no flags and a condition, as the tree table writes them."""
    out = {}
    for tag, row in _mapping(v, _keep).items():
        try:
            out[tag] = {c: _tree_fact(c, x) for c, x in _mapping(row, _keep, 20).items()}
        except Refused as e:
            raise Refused(f"tree {tag[:40]}: {e}") from None
    return out


def _benefit(v: Any) -> dict[str, Any]:
    checks = {
        "zone": _zone,
        "home_price_usd": _ranged("home_price_usd", "home price (USD)"),
        "large_tree_leaf_area_m2": _ranged("leaf_area_m2", "large-tree leaf area (m2)"),
        "land_use": _text,
        "prices": lambda p: {
            _text(k): _ranged("price_usd", f"price {k}")(x) for k, x in _mapping(p, _keep, 100).items()
        },
    }
    if not isinstance(v, dict) or not set(v) <= set(checks):
        raise ValueError("not the benefit parameters")
    return {k: checks[k](x) for k, x in v.items()}


#: each option the app sets, with the check of what its control accepts
_OPTION_CHECKS: dict[str, Callable[[Any], Any]] = {
    "value_basis": _assess("value_basis", _value_basis),
    "replacement_species": _assess("replacement_species", _text),
    "_last_species": _text,
    "replacement_dbh_in": _assess("replacement_dbh_in", _number(0.1, 60)),
    "replacement_cost_usd": _assess("replacement_cost_usd", _any_number, float),
    "replacement_percent": _assess("replacement_percent", _any_number),
    "replacement_stock": _assess("replacement_stock", _stock),
    "plantable": _assess("plantable", _any_number),
    "plantable_area_sqft": _assess("plantable_area_sqft", _any_number),
    "continuing_days": _assess("continuing_days", _any_number),
    "violation": _assess("violation", _flag),
    "application_pending": _assess("application_pending", _flag),
    "clear_cutting": _assess("clear_cutting", _flag),
    "fee_schedule": _assess("fee_schedule", _fee_schedule),
    "mortality": _assess("mortality", _any_number),
    "benefit": _benefit,
    "species_fix": lambda v: _mapping(v, _text),
    "actions": lambda v: _mapping(
        v, _one_of("retain", "remove", "removed", "damaged", "topped", "excessively_pruned", "transplant")
    ),
    # a tree's facts changed in the tree table: yes/no flags and a condition
    "tree_facts": _tree_facts,
}
#: the read options the app sets (the Survey page's column map and site facts)
_READ_CHECKS: dict[str, Callable[[Any], Any]] = {
    "column_map": lambda v: _mapping(v, _text, 1000),
    "site": lambda v: _mapping(v, lambda x: x if x is None or isinstance(x, (bool, int, float)) else _text(x), 200),
}


def checked(given: Any, checks: dict[str, Callable[[Any], Any]]) -> tuple[dict[str, Any], list[str]]:
    """The entries of ``given`` that the app sets, in the form its controls take, and the keys left out."""
    if not isinstance(given, dict):
        return {}, ["(not a set of options)"]
    out, left = {}, []
    for k, v in given.items():
        if str(k).startswith("_") and k not in checks:
            continue  # the app's own bookkeeping of another version: not an option, nothing to say
        try:
            out[k] = checks[k](v)
        except (OutOfRange, Refused) as e:  # a number beyond its range (in the library's words), a refused text
            left.append(f"{str(k)[:40]} ({str(e)[:300]})")
        except (KeyError, TypeError, ValueError, AttributeError, RecursionError):
            left.append(str(k)[:40])
    return out, left


def safe_options(opts: dict[str, Any]) -> dict[str, Any]:
    """``opts`` as the app's controls take them (see :func:`checked`): no server paths, no bookkeeping."""
    return checked(opts, _OPTION_CHECKS)[0]


def _left_out_note(what: str, left: list[str]) -> str | None:
    if not left:
        return None
    names = ", ".join(left[:8]) + (f" and {len(left) - 8} more" if len(left) > 8 else "")
    return f"{what}: these options were not understood and are left out: {names}."


def take(read_opts: Any, opts: Any, whose: str) -> None:
    """Make checked options the session's (see :func:`checked`); say which were left out."""
    read_opts, left_read = checked(read_opts, _READ_CHECKS)
    opts, left = checked(opts, _OPTION_CHECKS)
    st.session_state[state._READ] = read_opts
    st.session_state[state._OPTS] = opts
    if note := _left_out_note(whose, left_read + left):
        st.session_state[NOTE] = note
