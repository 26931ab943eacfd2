"""The assessment's JSON object (``treecalc assess --json``, :func:`assessment_json`), the public contract.

Built column by column from the assessment's frames: a 50,000-tree survey's ``per_tree`` list is
made from one Python list per column (``Series.tolist``) zipped into dicts, with the per-value
conversion (:func:`plain`) only on the columns that hold Python objects. The object is the same,
key for key and value for value, as the per-row conversion it replaces (``tests/report/test_report_json.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from treecalc.law.registry import by_key
from treecalc.models.benefits import USD_PARTS, shown_dollars
from treecalc.money import cents
from treecalc.report.held import parts_not_held
from treecalc.results import exact_cents, plain
from treecalc.schema import TREE_JSON_COLUMNS

if TYPE_CHECKING:
    from treecalc.assessment import Assessment
    from treecalc.results import Fund, Replacement, ReplacementPart


_NATIVE = (str, int, float, bool, type(None))
_NATIVE_SET = frozenset(_NATIVE)


def _plain_values(values: list[Any]) -> list[Any]:
    """``plain`` of each value, skipping the (most) values that are plain already."""
    if set(map(type, values)) <= _NATIVE_SET:  # one pass in C: a column of str, int, float, bool, None
        return values
    return [v if type(v) in _NATIVE_SET else plain(v) for v in values]


def plain_columns(rows: Any) -> tuple[list[Any], list[list[Any]]] | None:
    """(names, plain values of each column) of rows held as columns (:class:`treecalc.results.Records`), made
    plain column-wise; None for rows held otherwise."""
    cols = getattr(rows, "_cols", None)
    if isinstance(cols, dict) and cols and len(rows) == len(next(iter(cols.values()))):
        return list(cols), [_plain_values(np.asarray(v, dtype=object).tolist()) for v in cols.values()]
    return None


def plain_rows(rows: Any) -> list[Any]:
    """``plain(list(rows))`` for rows (dicts) most of whose values are plain already: such a row is kept as it is
    (its values' types are checked in C, ``map``), only the others are converted value by value."""
    columns = plain_columns(rows)
    if columns is not None:
        names, values = columns
        return [dict(zip(names, row)) for row in zip(*values)]
    native = _NATIVE_SET.__contains__
    return [r if type(r) is dict and all(map(native, map(type, r.values()))) else plain(r) for r in (rows or [])]


def _column(s: pd.Series) -> list[Any]:
    """One column as plain Python values, a missing value (NaN, NaT, NA) as None."""
    missing = s.isna().to_numpy()
    values = s.astype(object).tolist()
    if missing.any():
        for i in np.flatnonzero(missing).tolist():
            values[i] = None
    if s.dtype == object or not isinstance(s.dtype, np.dtype):
        # objects may be numpy scalars, Decimals, lists: convert those only (most are str/int/float already)
        values = _plain_values(values)
    return values


def records(df: pd.DataFrame | None) -> list[dict[str, Any]]:
    """The rows of ``df`` as dicts of plain Python values (None for a missing value), built column-wise."""
    if df is None or not len(df):
        return []
    names = list(df.columns)
    columns = [_column(df.iloc[:, j]) for j in range(df.shape[1])]
    if not columns:
        return [{} for _ in range(len(df))]
    return [dict(zip(names, row)) for row in zip(*columns)]


def dollars_as_shown(trees: pd.DataFrame) -> pd.DataFrame:
    """``trees`` with its benefit dollars as every output shows them (:func:`treecalc.models.benefits.shown_dollars`: a
    tree's total to the cent, its parts the cents that add up to it), the other columns not copied (a frame of
    500,000 trees is hundreds of MB; only the six dollar columns are made anew)."""
    dollars = [*USD_PARTS, "usd_total_annual"]
    if not len(trees) or not all(c in trees for c in dollars):
        return trees
    shown = shown_dollars(trees[dollars])
    return trees.assign(**{c: shown[c] for c in dollars})


def _per_tree_frame(trees: pd.DataFrame, tree_columns: tuple[str, ...]) -> pd.DataFrame:
    """The per-tree columns; ``offence_depends_on`` is also given as ``depends_on`` (the offence rows' name)."""
    trees = dollars_as_shown(trees)  # a tree's benefit dollars as every output shows them (the total to the cent)
    frame = trees[[c for c in tree_columns if c in trees]]
    if "offence_depends_on" in trees:
        frame = frame.assign(depends_on=trees["offence_depends_on"])
    return frame


def _cents(finding: Replacement | ReplacementPart, key: str) -> int | None:
    """``<key>_cents`` of a finding (exact), else its ``<key>_usd`` in cents (a rules module that keeps none)."""
    exact = getattr(finding, f"{key}_cents")
    return int(exact) if exact is not None else exact_cents(getattr(finding, f"{key}_usd"))


def _fund_cents(fund: Fund, key: str) -> int | None:
    """A Fund's amount ``<key>`` in exact cents: its exact Decimal ``<key>_exact``, else its dollars ``<key>_usd`` (a
    rules package that keeps no exact amount). Cents whenever the dollar figure is known; None only where the
    finding has no such amount (a law without a fund), never a default."""
    exact = getattr(fund, f"{key}_exact")
    return exact_cents(exact if exact is not None else getattr(fund, f"{key}_usd"))


def _plan_cost_cents(plan: list[dict[str, Any]]) -> int:
    """The planting plan's cost in exact cents: each row's unit cost (dollars and cents) x its count."""
    total = sum((Decimal(repr(float(r["unit_cost_usd"]))) * int(r["count"]) for r in plan), Decimal(0))
    return int(cents(total) * 100)


def assessment_json(a: Assessment) -> dict[str, Any]:
    """The JSON object of ``treecalc assess --json``: every figure of the assessment, totals also in cents."""
    return _assessment_object(a, records, plain_rows)


def _fingerprint(a: Assessment) -> dict[str, Any]:
    """``{"fingerprint": ...}`` when the assessment carries one (:mod:`treecalc.report.fingerprint`), else nothing."""
    fp = getattr(a, "fingerprint", None)
    return {"fingerprint": fp} if fp else {}


def _assessment_object(
    a: Assessment, frame_rows: Callable[[pd.DataFrame | None], Any], finding_rows: Callable[[Any], Any]
) -> dict[str, Any]:
    """The JSON object, its tables made by ``frame_rows`` (a DataFrame's rows) and ``finding_rows`` (rows a finding
    holds): lists of dicts for :func:`assessment_json`, their JSON text for :func:`assessment_json_text`."""
    rep, fund, pen = a.replacement, a.fund, a.penalties
    plan = rep.plan or []
    first = plan[0] if plan else (rep.stock or [{}])[0]
    permit_sections = list(dict.fromkeys(t["section"] for t in a.permit.triggers))
    n = len(a.trees)
    # a law whose penalties are not held counts no offence: null, never 0 or false (its notes say what is not held)
    offences_held = "penalties" not in parts_not_held(a)
    per_tree = a.trees if offences_held or "offence" not in a.trees else a.trees.assign(offence=None)
    return {
        "jurisdiction": a.jurisdiction,
        "jurisdiction_name": by_key(a.jurisdiction).name,
        "zone": (a.options.get("zone") or {}).get("zone"),
        "rows_read": a.rows_read,
        "trees": n,
        "rejected": len(a.rejected),
        # removals proposed and done; a damaged (topped, injured) tree stands, so it is in trees_harmed only
        "trees_removed": int(a.trees["action"].isin(["remove", "removed"]).sum()) if n else 0,
        "trees_harmed": int(a.trees["harmed"].sum()) if n else 0,
        # None: the law's permit section is not held (a count-by-class town read in part)
        "permit_required": None if a.permit.required is None else bool(a.permit.required),
        "permit_triggers": permit_sections,
        "permit_exceptions": [e["section"] for e in a.permit.exceptions_applied],
        "replacement_required": bool(rep.required),
        # the count of replacement trees the law requires (None: not computed, or the text leaves a tree undecided)
        "replacement_trees_required": rep.trees_needed,
        "replacement_trees_by_tag": rep.trees_by_tag,
        # a caliper-inches law's DBH counted and caliper inches required, and each removed tree's (None elsewhere)
        "replacement_inches_removed": rep.inches_removed,
        "replacement_inches_required": rep.inches_required,
        "replacement_inches_by_tag": rep.inches_by_tag,
        "not_held": list(rep.not_held),
        "replacement_percent": rep.percent,
        "value_basis": a.options["value_basis"],
        "value_basis_label": a.options["value_basis_label"],
        "removed_value_usd": rep.removed_value_usd,
        "required_value_usd": rep.required_value_usd,
        # the amounts of money again in exact integer cents (a JSON float loses cents above ~$9 x 10^13)
        "removed_value_cents": _cents(rep, "removed_value"),
        "required_value_cents": _cents(rep, "required_value"),
        "fund_in_lieu_cents": _fund_cents(fund, "fund_in_lieu"),
        "fund_alternative_22f_cents": _fund_cents(fund, "alternative_22f"),
        "replacement": {
            "species_code": first.get("species_code"),
            "dbh_in": first.get("dbh_in"),
            "value_per_tree_usd": first.get("value_per_tree_usd"),
            "trees_needed": rep.trees_needed,
            "trees_planted": rep.trees_planted,
            "trees_in_lieu": rep.trees_in_lieu,
            "planting_cost_usd": rep.planting_cost_usd,
            # a law counting trees, or one crediting the trees planted by their value, prices no stock: its planting
            # is not costed (None), not $0.00
            "planting_cost_cents": None
            if rep.planting_cost_usd is None and (rep.trees_by_tag is not None or rep.required)
            else _plan_cost_cents(plan),
            "native_share": rep.native_share,
            "plan": plan,
        },
        "fund_in_lieu_usd": fund.fund_in_lieu_usd,
        "fund_basis": fund.basis,
        "fund_placeholder": fund.placeholder,
        # which schedule the fee is (a Board resolution and its date, or the placeholder): None without a fund
        "fund_schedule": getattr(fund, "label", None) or None,
        # each amount as the law's findings give it: None where the law has no such penalty or fine
        "civil_penalty_max_usd": pen.civil_penalty_max_usd,
        # the doubling is of civil penalties: said by a law that has them
        "civil_penalty_doubled": pen.doubled if pen.civil_penalty_max_usd is not None else None,
        "criminal_fine_max_usd": pen.criminal_fine_max_usd,
        "fine_max_usd": pen.fine_max_usd,
        # offences resting on an assumed fact, summed apart from the maxima (definite offences)
        "civil_penalty_conditional_usd": pen.civil_penalty_conditional_usd,
        "criminal_fine_conditional_usd": pen.criminal_fine_conditional_usd,
        "fine_conditional_usd": pen.fine_conditional_usd,
        "offences_definite": pen.offences_definite if offences_held else None,
        "offences_conditional": pen.offences_conditional if offences_held else None,
        "offence_rows": finding_rows(pen.per_tree),
        "not_offences": finding_rows(pen.not_offences),
        "replacement_parts": [
            {
                **{k: plain(getattr(p, k)) for k in ("section", "percent", "trees", "value_usd", "required_value_usd")},
                "value_cents": _cents(p, "value"),
                "required_value_cents": _cents(p, "required_value"),
            }
            for p in (rep.parts or [])
        ],
        "fund_alternative_22f_usd": fund.alternative_22f_usd,
        # the violation standard on conditional offences, apart from the parts and totals; present only when there are some
        **(
            {"replacement_conditional": {k: plain(v) for k, v in rep.conditional_22f.items()}}
            if rep.conditional_22f
            else {}
        ),
        "offences": (int(a.trees["offence"].sum()) if n else 0) if offences_held else None,
        # the 20-year projection's mortality and payback year: the assessment's, computed once
        "projection": a.projection_summary,
        "per_tree": frame_rows(_per_tree_frame(per_tree, TREE_JSON_COLUMNS)),
        "rejected_rows": frame_rows(a.rejected),
        "lines": a.lines,
        # what each finding says beside its figures (the text output's "note:" lines), by finding
        "notes": {
            "permit": list(a.permit.notes or []),
            "replacement": list(rep.notes or []),
            "fund": list(fund.notes or []),
            "penalties": list(pen.notes or []),
        },
        # each reading of unclear text this assessment applied, with its section
        "readings": [dict(r) for r in a.method.get("reading_items") or []],
        "assumptions": a.assumptions,
        # the site facts the law read that were not given (an assumed value filled in); a fact given, 0 or no
        # included, is never listed
        "site_facts_assumed": list(getattr(a, "site_assumed", ()) or ()),
        "warnings": a.warnings,
        "options": {k: v for k, v in a.options.items() if k != "benefit_params"},
    } | _fingerprint(a)
