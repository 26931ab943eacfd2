"""How a value is labelled on the statement: each key's label, unit and number format (from
:func:`treecalc.schema.describe`, the one registry of them), a unit's number format, nested values flattened
into labelled rows, and a finding's fields by name."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import fields
from typing import Any

import numpy as np
import pandas as pd

from treecalc.report.xlsx import as_text
from treecalc.results import Records
from treecalc.schema import INT, NUM, NUM0, NUM1, NUM2, SHARE, USD, USD_RATE, describe, humanize

__all__ = ["finding_fields", "flatten", "fmt_for_unit", "header", "key_info", "path_labels", "unit_text"]


def key_info(key: Any) -> tuple[str, str, str | None]:
    """(label, unit, number format) of a key, known or inferred from its suffix (:func:`treecalc.schema.describe`)."""
    c = describe(key)
    return (str(c.label), c.unit, c.fmt)


def finding_fields(finding: Any) -> dict[str, Any]:
    """A typed finding's fields by name, in their order; its tables of rows (:class:`treecalc.results.Records`)
    as lists of rows. ``{}`` for no finding."""
    if finding is None:
        return {}
    out = {}
    for f in fields(finding):
        v = getattr(finding, f.name)
        out[f.name] = list(v) if isinstance(v, Records) else v
    return out


def header(key: Any, unit_override: str | None = None) -> str:
    label, unit, _ = key_info(key)
    unit = unit_override if unit_override is not None else unit
    return f"{label} ({unit})" if unit and unit != "share" else label


def fmt_for_unit(unit: str, value: Any) -> str | None:
    """Number format for a value given with a free-text unit (Summary lines)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return None
    u = (unit or "").strip().lower()
    if u in ("$", "usd", "us$", "dollars") or u.startswith(("usd", "$")):
        if "/" in u and not u.endswith(("/yr", "/year", "/tree", "/day")):
            return USD_RATE
        return USD
    if u in ("trees", "tree", "rows", "row", "days", "day", "count", "species"):
        return INT if float(value).is_integer() else NUM
    if u in ("share", "fraction"):
        return SHARE
    if u in ("in", "inches", "ft", "feet"):
        return NUM1
    if u in ("sq ft", "ft²", "ft2", "square feet"):
        return NUM2
    if u.startswith(("gal", "gallons")):
        return NUM0
    return NUM if isinstance(value, float) else INT


def unit_text(unit: str, value: Any) -> str:
    if unit:
        return unit
    if value is None:
        return ""
    if isinstance(value, str) and value.strip().lower() in ("yes", "no"):
        return "yes/no"
    if isinstance(value, (int, float)):
        return "number"
    return "text"


def path_labels(path: Sequence[str]) -> list[str]:
    """Labels of a flattened path; the last key loses its unit suffix (the unit has its own column)."""
    out = [p if p.startswith("[") else humanize(p) for p in path[:-1]]
    if path:
        p = path[-1]
        out.append(p if p.startswith("[") else key_info(p)[0])
    return out


def flatten(obj: Any, path: list[str]) -> Iterator[tuple[list[str], Any]]:
    """(path, scalar) pairs of a nested structure of dicts, lists and DataFrames."""
    if isinstance(obj, pd.DataFrame):
        obj = obj.to_dict("records")
    if isinstance(obj, pd.Series):
        obj = obj.to_dict()
    if isinstance(obj, Mapping):
        if not obj:
            yield path, "(none)"
        for k, v in obj.items():
            yield from flatten(v, path + [str(k)])
    elif isinstance(obj, (list, tuple, set, frozenset, np.ndarray)):
        items = list(obj)
        if not items:
            yield path, "(none)"
        elif (
            all(not isinstance(x, (Mapping, list, tuple, set, pd.DataFrame)) for x in items)
            and sum(len(as_text(x)) for x in items) <= 120
        ):
            yield path, "; ".join(as_text(x) for x in items)
        else:
            for i, x in enumerate(items, 1):
                if isinstance(x, Mapping) or isinstance(x, (list, tuple)):
                    yield from flatten(x, path + [f"[{i}]"])
                else:
                    yield path, x
    else:
        yield path, obj
