"""Appraised value by the *Guide for Plant Appraisal*, 10th edition (CTLA / ISA 2019, revised 2020).

Next to the 9th-edition trunk formula of :mod:`treecalc.models.appraisal` (the value i-Tree Streets
reports), the 10th edition's reproduction-cost techniques [1]_:

*Trunk formula technique* (trees larger than the largest commonly available nursery tree, LCANT):

.. math::

    \\text{unit cost} = \\frac{\\text{cost of the LCANT}}{TA_{LCANT}}, \\qquad
    \\text{basic reproduction cost} = \\text{unit cost} \\times TA

    V = \\text{basic reproduction cost} \\times \\text{condition} \\times
        \\text{functional limitations} \\times \\text{external limitations}

with TA = π (DBH / 2)² the appraised tree's trunk area (sq in) and each depreciation a stated
percentage (100 % = none). Unlike the 9th edition there is no species rating and no separate
installed-cost term: the unit cost applies to the whole trunk area.

*Cost compounding technique* (young trees): what the tree cost to plant, and each year's care,
compounded at an interest rate to today, then depreciated the same way:

.. math::

    V = [C_0 (1 + i)^n + \\sum_{t=1}^{n} a (1 + i)^{n - t}] \\times
        \\text{condition} \\times \\text{functional} \\times \\text{external}

Inputs and defaults (stated in every output that uses them): condition from the tree's condition
class by :data:`treecalc.models.appraisal.CONDITION_RATING` (or a number given); functional and
external limitations 100 % unless the fee schedule sets them (``appraisal_functional_pct``,
``appraisal_external_pct``, one figure for the survey; :func:`appraised_value` takes them per
tree); the unit cost from a local nursery quote (``appraisal_unit_cost_usd_per_sqin``). Until one is given the
unit cost is a **placeholder**: each species' i-Tree Streets Northeast replacement tree, installed
cost / trunk area (red maple: $530 / 7.065 sq in = $75.02 per sq in), and every output says so.

Worked example (the 10th edition's trunk formula technique as taught in *The Buckeye Arborist*,
March/April 2022, pp. 19–21, "pin oak"): the LCANT is a 3 in pin oak at $200, so the unit cost is
$200 / 7.07 sq in; a 30 in pin oak's trunk is 706.86 sq in, 100 times the LCANT's, so its basic
cost is $20,000; condition 80 % → $16,000; functional limitations 75 % → $12,000.
:func:`trunk_formula_technique` reproduces it to the dollar (``tests/models/test_appraisal10.py``).
The Guide's own appraisal examples were not found (docs/science/appraisal.md, "Appraisal: the 9th and the 10th
edition", lists the searches and the secondary sources); the figures above are the article's.

References
----------
.. [1] Council of Tree and Landscape Appraisers (2019). *Guide for Plant Appraisal*, 10th ed.,
   revised 2020 (third printing). International Society of Arboriculture, Atlanta, GA.
.. [2] *The Buckeye Arborist* (Ohio Chapter ISA), March/April 2022, pp. 19–21: the direct cost and
   trunk formula techniques, the LCANT and its unit cost, depreciation for condition, functional and
   external limitations (pin oak example).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from treecalc.models.appraisal import condition_factor, trunk_area_sqin
from treecalc.reference import data

EDITION_NAME = "Guide for Plant Appraisal, 10th ed. (CTLA/ISA 2019, rev. 2020)"


def _pct(name: str, value: object) -> np.ndarray:
    v = np.asarray(value, dtype=float)
    if np.isnan(v).any() or (v < 0).any() or (v > 100).any():
        raise ValueError(f"{name} must be a percentage from 0 to 100")
    return v / 100.0


def unit_cost_usd_per_sqin(lcant_cost_usd: object, lcant_dbh_in: object) -> np.ndarray:
    """Unit cost of the largest commonly available nursery tree: its cost over its trunk area (USD/sq in)."""
    d = np.asarray(lcant_dbh_in, dtype=float)
    if (d <= 0).any():
        raise ValueError("the nursery tree's trunk diameter must be > 0 in")
    return np.asarray(lcant_cost_usd, dtype=float) / trunk_area_sqin(d)


def trunk_formula_technique(
    dbh_in: object,
    unit_cost: object,
    condition_pct: object = 100.0,
    functional_pct: object = 100.0,
    external_pct: object = 100.0,
) -> np.ndarray:
    """10th-edition trunk formula technique, USD: unit cost × TA × condition × functional × external.

    Examples
    --------
    The Buckeye Arborist's pin oak [2]_: unit cost = 200 / (π · 1.5²) = $28.294/sq in; a 30 in trunk
    is π · 15² = 706.858 sq in: basic cost 28.294 × 706.858 = $20,000.00 (exactly 200 × (30/3)²);
    × 80 % condition = $16,000; × 75 % functional limitations = **$12,000**.
    """
    d = np.asarray(dbh_in, dtype=float)
    if (d < 0).any():
        raise ValueError("dbh_in must be >= 0")
    basic = np.asarray(unit_cost, dtype=float) * trunk_area_sqin(d)
    return (
        basic
        * _pct("condition", condition_pct)
        * _pct("functional limitations", functional_pct)
        * _pct("external limitations", external_pct)
    )


def cost_compounding_technique(
    planting_cost_usd: object,
    years: object,
    interest_rate: float,
    annual_cost_usd: object = 0.0,
    condition_pct: object = 100.0,
    functional_pct: object = 100.0,
    external_pct: object = 100.0,
) -> np.ndarray:
    """10th-edition cost compounding technique for a young tree, USD.

    ``[C0 (1+i)^n + Σ_{t=1..n} a (1+i)^(n-t)] × condition × functional × external``: the planting cost
    and each year's care (paid at each year's end) compounded to today.

    Examples
    --------
    Planted 4 years ago for $500, no care costs, 5 %: 500 × 1.05⁴ = 500 × 1.21550625 = **$607.75**;
    with $50 of care a year: 50 × (1.05³ + 1.05² + 1.05 + 1) = 50 × 4.310125 = 215.51, so **$823.26**.
    """
    n = np.asarray(years, dtype=float)
    if np.isnan(n).any() or (n < 0).any():
        raise ValueError("years since planting must be >= 0")
    i = float(interest_rate)
    if not np.isfinite(i) or i <= -1:
        raise ValueError("the interest rate must be > -1 (0.05 = 5%)")
    growth = (1.0 + i) ** n
    care = np.asarray(annual_cost_usd, dtype=float) * (n if i == 0 else (growth - 1.0) / i)  # a geometric sum
    base = np.asarray(planting_cost_usd, dtype=float) * growth + care
    return (
        base
        * _pct("condition", condition_pct)
        * _pct("functional limitations", functional_pct)
        * _pct("external limitations", external_pct)
    )


def placeholder_unit_cost(species_code: object) -> np.ndarray:
    """Each species' placeholder unit cost: its i-Tree Streets Northeast replacement tree's installed cost
    over its trunk area (USD/sq in; red maple $530 / 7.065 sq in = $75.02)."""
    cat = data.catalogue()
    pos = data.catalogue_positions(np.atleast_1d(np.asarray(species_code, dtype=object)))
    cost = cat["replacement_cost_usd"].to_numpy(float)[pos]
    area = cat["replacement_trunk_area_sqin"].to_numpy(float)[pos]
    return cost / area


def appraised_value(
    species_code: object,
    dbh_in: object,
    condition: object = "good",
    *,
    unit_cost: object = None,
    functional_pct: object = 100.0,
    external_pct: object = 100.0,
) -> np.ndarray:
    """A surveyed tree's 10th-edition appraised value, USD: the trunk formula technique with the condition
    class read as a percentage (:data:`treecalc.models.appraisal.CONDITION_RATING`) and the unit cost given
    (None: :func:`placeholder_unit_cost`)."""
    codes = np.atleast_1d(np.asarray(species_code, dtype=object))
    codes, d = np.broadcast_arrays(codes, np.atleast_1d(np.asarray(dbh_in, dtype=float)))
    uc = placeholder_unit_cost(codes) if unit_cost is None else unit_cost
    cond = np.broadcast_to(condition_factor(condition), d.shape) * 100.0
    return trunk_formula_technique(d, uc, cond, functional_pct, external_pct)


def describe(params: dict[str, Any]) -> str:
    """The edition and its parameters in words, for the value basis label and the method."""
    uc = params.get("unit_cost_usd_per_sqin")
    unit = (
        f"unit cost ${float(uc):,.2f}/sq in"
        + (" (PLACEHOLDER until a local nursery quote)" if params.get("placeholder") else "")
        if uc is not None
        else "unit cost PLACEHOLDER: each species' i-Tree Streets Northeast replacement tree, installed cost / trunk "
        "area, until a local nursery quote is given"
    )
    return (
        f"{EDITION_NAME}: trunk formula technique, {unit}; condition by class; functional limitations "
        f"{params.get('functional_pct', 100):g}% and external limitations {params.get('external_pct', 100):g}% "
        "for every tree"
    )
