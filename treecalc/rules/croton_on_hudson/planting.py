"""Croton-on-Hudson Chapter 208, the replacement stock: §208-22C native share, §208-22D minimum sizes,
§208-22E no invasive species, §208-6A spacing.

:func:`prepare_stock` accepts or refuses each stock entry offered and values each accepted tree (a
:class:`~treecalc.models.planting.StockOption` for the neutral :func:`treecalc.models.planting.plan`);
:func:`native_shortfall` says when the natives planted are not the share §208-22C asks for. The numbers are
the law file's (``data/law/croton_on_hudson/ch208_trees.toml``: ``[replacement.*]``, ``[spacing_ft.*]``), and so
are the comparisons (each entry's ``operator``); the reading of "predominantly" is treecalc's
(``data/readings/croton_on_hudson.toml``: ``predominantly_native_share`` and ``predominantly_native_operator``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from treecalc.law import readings
from treecalc.law.loader import entry
from treecalc.law.schema import compare
from treecalc.models.planting import StockOption
from treecalc.money import money
from treecalc.reference import data
from treecalc.reference.species import UnknownSpecies, resolve_one
from treecalc.rules.croton_on_hudson.cite import cited, provision

__all__ = ["UNLESS_WAIVED", "area_per_tree_sqft", "native_shortfall", "prepare_stock", "waived"]

#: the minimum sizes of the replacement entries hold "unless the Village Engineer provides a waiver or permits
#: modifications" (the entries' own section)
UNLESS_WAIVED = ", unless the Village Engineer waives the minimum size (‹size_waiver›; assess(size_waiver=True))"


def _minimum_size() -> str:
    """The section of the replacements' minimum sizes (the deciduous DBH's entry; the conifer height's is the same)."""
    return cited("replacement.deciduous_min_dbh_in")


def waived() -> str:
    """How a stock tree accepted under the Engineer's waiver of the minimum size is said."""
    return f"accepted under the Village Engineer's waiver of the minimum size {_minimum_size()}"


def area_per_tree_sqft(size_class: str, spacing_ft: dict[str, float]) -> float:
    """Ground one tree takes at the § 208-6A spacing of its size class (a square grid: spacing²)."""
    s = float(spacing_ft.get(str(size_class).lower(), spacing_ft["large"]))
    return s * s


def prepare_stock(
    entries: list[dict[str, Any]],
    rules: dict[str, Any],
    spacing_ft: dict[str, float],
    value_fn: Callable[[np.ndarray, np.ndarray], np.ndarray],
    *,
    size_waiver: bool = False,
) -> tuple[list[StockOption], list[dict[str, Any]]]:
    """Validate replacement stock (§ 208-22D sizes, § 208-22E no invasives) and value each tree.

    Returns the accepted options and a list describing every entry (accepted or refused,
    with its reasons), in the order given.
    """
    cat = data.catalogue()
    accepted: list[StockOption] = []
    report: list[dict[str, Any]] = []
    pending: list[tuple[int, dict[str, Any], Any, float, float | None, list[str]]] = []
    for k, e in enumerate(entries):
        name = e.get("species") or e.get("species_code")
        row: dict[str, Any] = {
            "species": name,
            "dbh_in": e.get("dbh_in"),
            "height_ft": e.get("height_ft"),
            "unit_cost_usd": e.get("unit_cost_usd"),
            "accepted": False,
            "refusals": [],
            "notes": [],
        }
        report.append(row)
        res = resolve_one(str(name or ""))
        if res.code is None:
            raise UnknownSpecies(str(name), res.suggestions)
        if res.warning:
            row["notes"].append(res.warning)
        c = cat.loc[res.code]
        row.update(species_code=res.code, scientific_name=c["scientific_name"], native=bool(c["native"]))
        if e.get("unit_cost_usd") is None:
            raise ValueError(f"replacement stock {name!r}: unit_cost_usd is required")
        cost = float(money(e["unit_cost_usd"], f"replacement stock {name!r} unit_cost_usd"))
        row["unit_cost_usd"] = cost
        if bool(c["invasive"]):
            # "in no event shall any invasive species of trees or plants be planted as replacements"
            row["refusals"].append(
                f"invasive (6 NYCRR 575 {c['part575']}): never accepted as a replacement {provision('invasive')}"
            )
        conifer = c["leaf_type"] == "conifer"
        height = e.get("height_ft")
        height = None if height is None or (isinstance(height, float) and math.isnan(height)) else float(height)
        if height is not None and not (math.isfinite(height) and height > 0):
            raise ValueError(f"replacement stock {name!r}: height_ft must be a positive number of feet")
        row["height_ft"] = height
        dbh = e.get("dbh_in")
        dbh = None if dbh is None or (isinstance(dbh, float) and math.isnan(dbh)) else float(dbh)
        dbh, notes = _sizes(name, conifer, height, dbh, rules, row["refusals"], size_waiver)
        if dbh is None or dbh <= 0:
            raise ValueError(f"replacement stock {name!r}: dbh_in must be a positive number of inches")
        row["dbh_in"] = dbh
        row["notes"].extend(notes)
        pending.append((k, row, c, dbh, height, notes))
    if pending:
        values = np.asarray(
            value_fn(
                np.array([p[2].name for p in pending], dtype=object), np.array([p[3] for p in pending], dtype=float)
            ),
            dtype=float,
        )
    for (_k, row, c, dbh, height, notes), v in zip(pending, values if pending else []):
        row["value_per_tree_usd"] = float(v)
        if not v > 0:
            row["refusals"].append("no positive value per tree on this value basis")
        if row["refusals"]:
            continue
        row["accepted"] = True
        accepted.append(
            StockOption(
                species_code=str(c.name),
                scientific_name=c["scientific_name"],
                common_name=c["common_name"],
                dbh_in=dbh,
                unit_cost_usd=float(row["unit_cost_usd"]),
                value_per_tree_usd=float(v),
                native=bool(c["native"]),
                size_class=str(c["size_class"]),
                leaf_type=str(c["leaf_type"]),
                area_sqft=area_per_tree_sqft(c["size_class"], spacing_ft),
                height_ft=height,
                notes=notes,
            )
        )
    return accepted, report


def _sizes(
    name: Any,
    conifer: bool,
    height: float | None,
    dbh: float | None,
    rules: dict[str, Any],
    refusals: list[str],
    size_waiver: bool,
) -> tuple[float | None, list[str]]:
    """§ 208-22D: a stock entry's size against the minimum for its kind (a conifer's height, a deciduous tree's
    DBH), a refusal added to ``refusals`` unless waived; the DBH it is valued at and the notes said."""
    notes: list[str] = []
    if conifer:
        # conifers have a minimum height, not a DBH; benefits need a DBH
        if height is not None and not _meets("conifer_min_height_ft", height, rules):
            if size_waiver:
                notes.append(
                    f"{height:g} ft, {_short('conifer_min_height_ft')} the {rules['conifer_min_height_ft']:g} ft "
                    f"minimum: {waived()}"
                )
            else:
                refusals.append(
                    f"conifer {height:g} ft is {_short('conifer_min_height_ft')} the "
                    f"{rules['conifer_min_height_ft']:g} ft minimum {cited('replacement.conifer_min_height_ft')}"
                    f"{UNLESS_WAIVED}"
                )
        if height is None:
            notes.append(
                f"conifer height not given: taken to meet the {rules['conifer_min_height_ft']:g} ft minimum "
                f"{cited('replacement.conifer_min_height_ft')}"
            )
        if dbh is None:
            dbh = float(readings("croton_on_hudson")["replacement"]["conifer_default_dbh_in"])
            notes.append(
                f"conifer valued at {dbh:g} in DBH, the documented default for a "
                f"{rules['conifer_min_height_ft']:g} ft conifer (data/readings/croton_on_hudson.toml)"
            )
    else:
        if dbh is None:
            raise ValueError(f"replacement stock {name!r}: dbh_in is required for a deciduous tree")
        if not _meets("deciduous_min_dbh_in", dbh, rules):
            if size_waiver:
                notes.append(
                    f"{dbh:g} in DBH, {_short('deciduous_min_dbh_in')} the {rules['deciduous_min_dbh_in']:g} in "
                    f"minimum: {waived()}"
                )
            else:
                refusals.append(
                    f"{dbh:g} in DBH is {_short('deciduous_min_dbh_in')} the {rules['deciduous_min_dbh_in']:g} "
                    "in minimum "
                    f"for deciduous trees {cited('replacement.deciduous_min_dbh_in')}{UNLESS_WAIVED}"
                )
    return dbh, notes


#: How a size short of a replacement's minimum is said, by the minimum's comparison.
_SHORT = {">=": "under", ">": "not over"}


def _operator(key: str) -> str:
    """The comparison the law file states for the §208-22D minimum ``replacement.<key>``."""
    op = entry("croton_on_hudson", f"replacement.{key}").operator
    if op not in _SHORT:
        raise ValueError(
            f"data/law/croton_on_hudson/ch208_trees.toml: [replacement.{key}] states operator {op!r}; a minimum "
            f"size is one of {', '.join(_SHORT)}"
        )
    return op


def _meets(key: str, x: float, rules: dict[str, Any]) -> bool:
    """``x`` meets the §208-22D minimum ``replacement.<key>`` by the law file's comparison (``>=``: "a minimum
    1.5-inch DBH"), against the value in force (``rules``, the chapter resolved on the assessment's date)."""
    return bool(compare(_operator(key), x, rules[key]))


def _short(key: str) -> str:
    """The words for a size that does not meet the minimum ``replacement.<key>``: "under" (``>=``), "not over"
    (``>``)."""
    return _SHORT[_operator(key)]


#: How natives short of the native share are said, by the reading's comparison (natives <op> share x planted):
#: ">" unmet is "not more than half", ">=" unmet is "fewer than half".
_NOT_SHARE = {">": "not more than", ">=": "fewer than", "<": "not fewer than", "<=": "more than"}


def share_words(share: float) -> str:
    """A share of the trees planted in words: "half" (0.5), else a percentage ("60%")."""
    return "half" if share == 0.5 else f"{share * 100:g}%"


def native_shortfall(native_planted: int, planted: int, rules: dict[str, Any]) -> str | None:
    """§208-22C "Replacement trees should predominantly be native trees": the warning when the natives planted
    are not ``predominantly_native_operator`` ``predominantly_native_share`` of the trees planted (read as more
    than a half), None when they are or nothing is planted. The warning says the share and comparison held."""
    op, share = str(rules["predominantly_native_operator"]), float(rules["predominantly_native_share"])
    if not planted or compare(op, native_planted, share * planted):
        return None
    return (
        f"native species are {_NOT_SHARE[op]} {share_words(share)} of the replacements ({native_planted} of "
        f"{planted}): replacement trees should predominantly be native ({provision('native_species')})"
    )
