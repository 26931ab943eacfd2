"""How a value is labelled on the statement: each key's label, unit and number format (from
:func:`treecalc.schema.describe`, the one registry of them), a unit's number format, nested values flattened
into labelled rows, a finding's fields by name, and the blocks the sheets are made of (Item | Value | Unit |
Section | Note rows, a sub-table of records)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import fields
from typing import Any

import numpy as np
import pandas as pd

from treecalc.report.xlsx import Grid, as_text, cell_value, is_missing, scalar
from treecalc.results import NotHeld, QuotedLabels, Records
from treecalc.results import records as _records
from treecalc.schema import (
    INT,
    NUM,
    NUM0,
    NUM1,
    NUM2,
    SHARE,
    SURVEY_FIELD_COLUMNS,
    SURVEY_KEY_COLUMNS,
    USD,
    USD_RATE,
    describe,
    humanize,
)

__all__ = [
    "TREE_FIRST",
    "finding_fields",
    "flatten",
    "fmt_for_unit",
    "header",
    "key_info",
    "kv_block",
    "kv_header",
    "path_labels",
    "records_table",
    "unit_text",
]


def key_info(key: Any, labels: QuotedLabels | None = None) -> tuple[str, str, str | None]:
    """(label, unit, number format) of a key, known or inferred from its suffix (:func:`treecalc.schema.describe`).

    A survey flag or a site fact whose label quotes a law's number ("Slope over 20%", "Trees removed on the lot
    in the previous 12 months") is labelled as ``labels`` (an assessment's :attr:`~treecalc.assessment.Assessment.labels`:
    the law of its date) says; without them, as ``treecalc/columns.csv`` does."""
    c = describe(key)
    by_law = _quoted(str(key), labels) if labels is not None else None
    return (by_law or str(c.label), c.unit, c.fmt)


def _quoted(key: str, labels: QuotedLabels) -> str | None:
    """A column's label that quotes a law's number, else a site fact's without its unit in brackets ("(trees)":
    the statement gives the unit a column of its own)."""
    if key in labels.columns:
        return labels.columns[key]
    said = labels.site.get(key)
    return re.sub(r"\s*\([^()]*\)$", "", said) if said else None


def finding_fields(finding: Any, leave: Iterable[str] = ()) -> dict[str, Any]:
    """A typed finding's fields by name, in their order, but those named in ``leave`` (tables a sheet writes from
    their columns); its tables of rows (:class:`treecalc.results.Records`) as lists of rows. ``{}`` for no
    finding."""
    if finding is None:
        return {}
    # the law's entries and the sentences quoting them are where the figures come from, not figures: the
    # statement quotes them where it cites them
    leave = {*leave, "entries", "said"}
    out = {}
    for f in fields(finding):
        if f.name in leave:
            continue
        v = getattr(finding, f.name)
        out[f.name] = list(v) if isinstance(v, Records) else v
    return out


def header(key: Any, unit_override: str | None = None, labels: QuotedLabels | None = None) -> str:
    label, unit, _ = key_info(key, labels)
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


def path_labels(path: Sequence[str], labels: QuotedLabels | None = None) -> list[str]:
    """Labels of a flattened path; the last key loses its unit suffix (the unit has its own column)."""
    out = [p if p.startswith("[") else humanize(p) for p in path[:-1]]
    if path:
        p = path[-1]
        out.append(p if p.startswith("[") else key_info(p, labels)[0])
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


#: Column order on the Trees sheet; unknown columns (flags...) go after ``notes``.
TREE_FIRST = (*SURVEY_KEY_COLUMNS, "scientific_name", "common_name", *SURVEY_FIELD_COLUMNS)


def kv_block(
    grid: Grid,
    d: Mapping[str, Any] | None,
    *,
    skip: Iterable[str] = (),
    order: Sequence[str] = (),
    default_section: str = "",
    list_rows: Iterable[str] = (),
    tables: list[tuple[str, list[dict[str, Any]]]] | None = None,
    labels: QuotedLabels | None = None,
    not_held: Mapping[str, NotHeld] | None = None,
    skip_empty_text: bool = False,
) -> None:
    """Rows Item | Value | Unit | Section | Note for the scalar entries of ``d``.

    Keys in ``list_rows`` get one row per element (notes, warnings).
    Nested dicts are flattened ("parent › child"). A list of dicts is appended
    to ``tables`` as (label, records), for the caller to write as a table
    after the block (without ``tables`` it is joined into one cell). ``labels``: :func:`key_info`'s.
    A key of ``not_held`` (its part of the law not held) says so in the place of its figure, under the section to
    see, with what is not held beside it: never the 0 or "no" the finding holds for it. ``skip_empty_text``: an
    empty text is no row (a field of another law's reckoning the law applied leaves empty).
    """
    if not d:
        return
    skip = set(skip)
    list_rows = set(list_rows)
    not_held = dict(not_held or {})
    keys = [k for k in order if k in d] + [k for k in d if k not in order]
    for k in keys:
        if k in skip:
            continue
        v = d[k]
        if is_missing(scalar(v)) if not isinstance(v, (list, tuple, Mapping, pd.DataFrame, np.ndarray)) else False:
            continue  # not applicable here (e.g. no civil penalty in Wesley Hills)
        if isinstance(v, (list, tuple)) and not v:
            continue  # nothing to list (no doubling reasons)
        if skip_empty_text and isinstance(v, str) and not v:
            continue  # a text the law applied has none of (no percentage note under a count of trees)
        label, unit, fmt = key_info(k, labels)
        if k in not_held:
            grid.add([label, not_held[k].short, "text", not_held[k].section, not_held[k].what])
            continue
        if k in list_rows and isinstance(v, (list, tuple)):
            for x in v:
                grid.add([label.rstrip("s") if label.endswith("s") else label, as_text(x), "text", default_section, ""])
            continue
        if tables is not None and isinstance(v, (list, tuple)) and v and all(isinstance(x, Mapping) for x in v):
            tables.append((label, _records(v)))
            grid.add([label, len(v), "rows", default_section, "see the table below"], [None, INT])
            continue
        if isinstance(v, Mapping):
            for path, x in flatten(v, [str(k)]):
                lab = " › ".join(path_labels(path, labels))
                _, u2, f2 = key_info(path[-1])
                x = cell_value(x)
                grid.add(
                    [lab, x, unit_text(u2, x), default_section, ""],
                    [None, f2 if isinstance(x, (int, float)) else None],
                )
            continue
        x = cell_value(v) if not isinstance(v, (list, tuple, set)) else as_text(v)
        grid.add(
            [label, x, unit_text(unit, x), default_section, ""], [None, fmt if isinstance(x, (int, float)) else None]
        )


def records_table(
    g: Grid, title: str, records: list[dict[str, Any]], labels: QuotedLabels | None = None
) -> tuple[int, int]:
    """A sub-table: heading, header row, one row per record (headed as :func:`key_info` with ``labels``). Returns
    (header row, last row)."""
    g.blank()
    g.subtitle(title)
    keys = list(dict.fromkeys(k for r in records for k in r))
    first = [k for k in TREE_FIRST if k in keys]
    keys = first + [k for k in keys if k not in first]
    h = g.header([header(k, labels=labels) for k in keys])
    fmts = [key_info(k)[2] for k in keys]
    for r in records:
        g.add([r.get(k) for k in keys], fmts)
    return h, g.next_row - 1


def columns_table(
    g: Grid,
    title: str,
    names: Sequence[str],
    columns: Sequence[Sequence[Any]],
    labels: QuotedLabels | None = None,
) -> tuple[int, int]:
    """:func:`records_table` of rows held as columns (``columns[j]``: the plain values of the key ``names[j]``, row
    by row), written a column at a time (:meth:`Grid.table`): a dict per row and a tuple per cell cost ~1 KB an
    offence, 17,000 offences at 50,000 trees. The same cells. Returns (header row, last row)."""
    g.blank()
    g.subtitle(title)
    first = [k for k in TREE_FIRST if k in names]
    keys = first + [k for k in names if k not in first]
    h = g.header([header(k, labels=labels) for k in keys])
    at = {k: j for j, k in enumerate(names)}
    frame = pd.DataFrame({j: pd.Series(columns[at[k]], dtype=object) for j, k in enumerate(keys)})
    return h, g.table(frame, [key_info(k)[2] for k in keys])


def kv_header(g: Grid, given: Any, item: str, rule: str) -> int:
    """The Item/Value/Unit/Section/Note header of a sheet of key-value rows; a 'not applicable' row when the
    assessment gave nothing for it (no ``rule`` rule was applied). Returns the header's row."""
    hdr = g.header(["Item", "Value", "Unit", "Section", "Note"])
    if not given:
        g.add([item, "not applicable", "text", "", f"no {rule} rule was applied"])
    return hdr
