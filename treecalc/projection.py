"""Projected value: the replacements against the trees removed, year by year.

:func:`treecalc.models.growth.dbh_path` grows each tree (the same curves as
the ``cumulative:N`` value basis) and :func:`treecalc.compute_benefits`
values it each year with the assessment's own benefit parameters. The series
are annual benefits (USD/yr) in each year:

* the trees counted toward replacement, had they stayed;
* the planting plan (each stock entry times its count), from planting.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from treecalc.benefits import compute_benefits
from treecalc.models import growth

if TYPE_CHECKING:
    from treecalc.assessment import Assessment

REMOVED = "Trees removed, had they stayed"
PLANTED = "Replacement plan"


def _annual_by_year(
    codes: np.ndarray,
    dbh_in: np.ndarray,
    weights: np.ndarray,
    land_use: np.ndarray | None,
    years: int,
    params: dict[str, Any],
) -> np.ndarray:
    if len(codes) == 0:
        return np.zeros(years + 1)
    path = growth.dbh_path(codes, dbh_in, years)  # (n, years + 1), inches
    n = len(codes)
    frame = pd.DataFrame({"species_code": np.repeat(codes, years + 1), "dbh_in": np.maximum(path.ravel(), 0.1)})
    if land_use is not None:
        frame["land_use"] = np.repeat(land_use, years + 1)
    usd = compute_benefits(frame, **params)["usd_total_annual"].to_numpy(float).reshape(n, years + 1)
    return (usd * weights[:, None]).sum(axis=0)


def projection(assessment: Assessment, years: int = 20) -> pd.DataFrame:
    """Annual benefits of the removed trees and of the planting plan for ``years`` years.

    Returns a long table with columns ``year`` (0 = today), ``series``
    (:data:`REMOVED` or :data:`PLANTED`) and ``value_usd`` (USD/yr that year).
    Trees die of nothing here: no mortality is applied to either series.
    """
    params = dict(assessment.options.get("benefit_parameters") or {})
    trees = assessment.trees
    counted = trees[trees["counted"].astype(bool)] if "counted" in trees else trees.iloc[:0]
    plan = pd.DataFrame(assessment.replacement.get("plan") or [])
    out = []
    if len(counted):
        lu = counted["benefit_land_use"].to_numpy(object) if "benefit_land_use" in counted else None
        v = _annual_by_year(
            counted["species_code"].to_numpy(object),
            counted["dbh_in"].to_numpy(float),
            np.ones(len(counted)),
            lu,
            years,
            params,
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
        )
        out.append(pd.DataFrame({"year": np.arange(years + 1), "series": PLANTED, "value_usd": v}))
    return pd.concat(out, ignore_index=True) if out else pd.DataFrame(columns=["year", "series", "value_usd"])
