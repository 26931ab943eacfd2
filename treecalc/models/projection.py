"""Projected value: the replacements against the trees removed, year by year.

:func:`treecalc.models.growth.dbh_path` grows each tree (the same curves as
the ``cumulative:N`` value basis) and :func:`treecalc.compute_benefits`
values it each year with the assessment's own benefit parameters. The series
are annual benefits (USD/yr) in each year:

* the trees counted toward replacement, had they stayed;
* the planting plan (each stock entry times its count), from planting.

Both are expected values under the assessment's annual mortality m (``options["mortality_rate"]``:
the rate given, the fee schedule's, or Roman & Scatena's (2011) 4.3 %/yr street-tree default,
:func:`treecalc.models.growth.default_mortality_rate`): year t's benefits count the share
(1 - m)^t still alive, the removed trees and the replacements alike, the new planting from the
year it is planted (its establishment years included). :func:`payback` reads the two series.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import pandas as pd

from treecalc.models import growth
from treecalc.models.benefits import BenefitParams, compute_benefits


class Assessment(Protocol):
    """What the projection reads of an assessment (:class:`treecalc.assessment.Assessment`): its options (benefit
    parameters, mortality), its trees and its replacement plan. Named here, below the assessment that holds the
    projection as a field."""

    options: dict[str, Any]
    trees: pd.DataFrame
    replacement: Any


REMOVED = "Trees removed, had they stayed"
PLANTED = "Replacement plan"


def _annual_by_year(
    codes: np.ndarray,
    dbh_in: np.ndarray,
    weights: np.ndarray,
    land_use: np.ndarray | None,
    years: int,
    params: dict[str, Any],
    mortality: float = 0.0,
    zones: np.ndarray | None = None,
) -> np.ndarray:
    """``zones``: each tree's climate zone (trees of a survey in several, each grown and valued in its own)."""
    alive = growth.survival(mortality, years)  # (1 - m)^t, t = 0 .. years
    if len(codes) == 0:
        return np.zeros(years + 1)
    # a tree's path and values depend only on its species, DBH, land use and zone: each distinct one is grown and
    # valued once (a survey's trees repeat them: 18,666 removed of the benchmark's 50,000 are 6,463), and every
    # tree then takes its own row of those, so that the sum below adds the same numbers in the same order
    keys = [codes, np.ascontiguousarray(dbh_in, dtype=np.float64).view(np.int64)]
    keys += [k for k in (land_use, zones) if k is not None]
    first, inverse = _distinct_rows(keys)
    usd = _usd_by_year(
        codes[first],
        dbh_in[first],
        None if land_use is None else land_use[first],
        years,
        params,
        None if zones is None else zones[first],
    )
    return (usd.take(inverse, axis=0) * weights[:, None]).sum(axis=0) * alive


def _distinct_rows(keys: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The first row of each distinct combination of ``keys`` (arrays of the same length, a missing value one
    value like any other) and each row's combination, as indices into those first rows."""
    combined = np.zeros(len(keys[0]), dtype=np.int64)
    for k in keys:
        codes, uniques = pd.factorize(k, use_na_sentinel=False)
        combined = pd.factorize(combined * len(uniques) + codes)[0]  # (< n * n: no overflow below 3e9 trees)
    _, first, inverse = np.unique(combined, return_index=True, return_inverse=True)
    return first, inverse.reshape(-1)


def _usd_by_year(
    codes: np.ndarray,
    dbh_in: np.ndarray,
    land_use: np.ndarray | None,
    years: int,
    params: dict[str, Any],
    zones: np.ndarray | None,
) -> np.ndarray:
    """Each tree's annual benefits (USD/yr) in each year, (n, years + 1), grown along its species' curve."""
    if zones is None:
        path = growth.dbh_path(codes, dbh_in, years, params.get("zone"))  # (n, years + 1), inches; the zone's growth
    else:  # growth is a table per zone: each zone's trees by theirs (the zones of a survey, few)
        path = np.empty((len(codes), years + 1))
        for z in pd.unique(zones):
            m = zones == z
            path[m] = growth.dbh_path(codes[m], dbh_in[m], years, str(z))
    n = len(codes)
    usd = np.empty((n, years + 1))
    # valued a block of trees at a time: a tree's values do not depend on the others, and the frame of every tree
    # in every year (with compute_benefits' own columns) is ~0.5 KB a tree-year, ~5 GB at 500,000 trees
    for a in range(0, n, _TREES_AT_A_TIME):
        b = min(n, a + _TREES_AT_A_TIME)
        frame = pd.DataFrame(
            {"species_code": np.repeat(codes[a:b], years + 1), "dbh_in": np.maximum(path[a:b].ravel(), 0.1)}
        )
        if land_use is not None:
            frame["land_use"] = np.repeat(land_use[a:b], years + 1)
        if zones is not None:
            frame["zone"] = np.repeat(zones[a:b], years + 1)
        usd[a:b] = compute_benefits(frame, **params)["usd_total_annual"].to_numpy(float).reshape(b - a, years + 1)
    return usd


#: Trees valued at a time over the projection's years (:func:`_annual_by_year`).
_TREES_AT_A_TIME = 20_000


def _parameters(resolved: dict[str, Any]) -> dict[str, Any]:
    """The benefit parameters of an assessment's resolved ones: a zone's resolution adds keys that are no
    parameter (``price_overrides``; the reference leaf area the user gave, apart from the zone's own)."""
    out = {k: v for k, v in resolved.items() if k in BenefitParams.__dataclass_fields__}
    if "price_overrides" in resolved:  # the prices given, not the zone's own: trees in another zone take theirs
        out["prices"] = resolved["price_overrides"]
    if "large_tree_leaf_area_m2_given" in resolved:  # None: the zone's own reference tree applies
        out["large_tree_leaf_area_m2"] = resolved["large_tree_leaf_area_m2_given"]
    return out


def projection(assessment: Assessment, years: int = 20) -> pd.DataFrame:
    """Annual benefits of the removed trees and of the planting plan for ``years`` years.

    Returns a long table with columns ``year`` (0 = today), ``series``
    (:data:`REMOVED` or :data:`PLANTED`) and ``value_usd`` (expected USD/yr that year, under the
    assessment's annual mortality, applied to both series).
    """
    params = _parameters(dict(assessment.options.get("benefit_parameters") or {}))
    m = mortality_of(assessment)
    trees = assessment.trees
    counted = trees[trees["counted"].astype(bool)] if "counted" in trees else trees.iloc[:0]
    plan = pd.DataFrame(assessment.replacement.plan or [])
    out = []
    if len(counted):
        lu = counted["benefit_land_use"].to_numpy(object) if "benefit_land_use" in counted else None
        zones = counted["zone"].astype(str).to_numpy(object) if "zone" in counted else None
        v = _annual_by_year(
            counted["species_code"].to_numpy(object),
            counted["dbh_in"].to_numpy(float),
            np.ones(len(counted)),
            lu,
            years,
            params,
            m,
            zones if zones is not None and len(set(zones)) > 1 else None,  # trees in several zones: each its own
        )
        out.append(pd.DataFrame({"year": np.arange(years + 1), "series": REMOVED, "value_usd": v}))
    if len(plan):
        v = _annual_by_year(
            plan["species_code"].to_numpy(object),
            plan["dbh_in"].to_numpy(float),
            plan["count"].to_numpy(float),
            None,
            years,
            params,
            m,
        )
        out.append(pd.DataFrame({"year": np.arange(years + 1), "series": PLANTED, "value_usd": v}))
    return pd.concat(out, ignore_index=True) if out else pd.DataFrame(columns=["year", "series", "value_usd"])


def mortality_of(assessment: Any) -> float:
    """The annual mortality the assessment used (the literature's default for one made without it)."""
    m = (getattr(assessment, "options", None) or {}).get("mortality_rate")
    return growth.default_mortality_rate() if m is None else float(m)


def payback(df: pd.DataFrame, years: int, mortality: float) -> dict[str, Any]:
    """The year in which the replacements' cumulative benefits pass what the removed trees would have
    given (both with mortality), from :func:`projection`'s table: ``{"year": t or None, "years": N,
    "mortality_rate": m, "text": ...}``. Year t sums the benefits of years 1..t (the value in year
    index 0..t-1); "not within N years" when it never passes."""
    by = {s: g.sort_values("year")["value_usd"].to_numpy(float) for s, g in df.groupby("series")} if len(df) else {}
    removed, planted = by.get(REMOVED), by.get(PLANTED)
    year = None
    if removed is not None and planted is not None:
        gap = np.cumsum(planted[:years]) - np.cumsum(removed[:years])
        over = np.flatnonzero(gap > 0)
        year = int(over[0]) + 1 if over.size else None
    rate = f"{mortality:.1%} of the trees dying each year"
    if removed is None or planted is None:
        text = "no payback year: nothing is removed and replaced"
    elif year is None:
        text = f"the replacements' cumulative benefits do not pass the removed trees' within {years} years ({rate})"
    else:
        text = (
            f"the replacements' cumulative benefits pass what the removed trees would have given in year {year} "
            f"({rate})"
        )
    return {"year": year, "years": years, "mortality_rate": mortality, "text": text}


#: The horizon of the projection the outputs state (the app's chart, the statement, the JSON).
HORIZON_YEARS = 20


def summary(assessment: Any, years: int = HORIZON_YEARS) -> dict[str, Any]:
    """The projection's figures the outputs state: the mortality (rate and source) and, for a permit with
    replacement, the payback year (:func:`payback`; None when nothing is replaced). An assessment holds it,
    computed once (:attr:`treecalc.assessment.Assessment.projection_summary`)."""
    m = mortality_of(assessment)
    options = getattr(assessment, "options", None) or {}
    out: dict[str, Any] = {
        "years": years,
        "mortality_rate": m,
        "mortality_source": options.get("mortality_source", ""),
        "payback_year": None,
        "payback": "no replacement is required: no payback year",
    }
    rep = getattr(assessment, "replacement", None)
    if rep is None or not rep.required:
        return out
    if not rep.plan:
        # there is a replacement, and no planting to value: every tree paid in lieu, or a replacement counted in
        # trees or inches (a family town) that names no species and size
        out["payback"] = (
            "no payback year: no replacement tree is planted on site (the replacement is paid in lieu)"
            if rep.trees_planted == 0
            else "no payback year: the replacement is a number of trees, with no species and size to value"
        )
    else:
        # the assessment's own table over the horizon when it holds one (computed once), else this one
        held = years == HORIZON_YEARS and getattr(type(assessment), "projection", None) is not None
        pb = payback(assessment.projection if held else projection(assessment, years), years, m)
        out["payback_year"], out["payback"] = pb["year"], pb["text"]
    return out
