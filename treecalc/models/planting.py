"""A planting plan: the cheapest mix of stock that carries a required value.

Given stock entries (each a :class:`StockOption`: species, size, unit cost, value per tree, the ground one
tree takes), the value required, and how many trees the site can take (a count, or an area shared by the
trees' areas), :func:`plan` solves a small mixed-integer program with :func:`scipy.optimize.milp`:

    x_i  >= 0 integer   trees of stock entry i planted
    y    >= 0 integer   trees paid for in lieu (fee basis ``per_tree``), or
    u    >= 0 real      value paid for in lieu (fee basis ``value``)

    sum_i v_i x_i + v_ref y  (or + u)  >= R        the required value
    sum_i x_i <= N   or   sum_i a_i x_i <= A       what the site can take

``policy="plant_first"`` (the default) minimises what is paid in lieu (y or u) first and then, with that
fixed, planting cost + payment: for a law that allows a payment in lieu only for trees that cannot be
planted. ``policy="cheapest"`` minimises cost + payment at once (a combination of planting and payment at
the applicant's choice).

``v_ref`` (the value of one tree paid for in lieu) is the value per tree of the first stock entry, the
primary species.

With one stock entry and a fee per tree (the default) the program's answer is worked out directly
(:func:`_one_entry_per_tree`), the same plan without importing scipy.optimize.

No law here: which stock is accepted, its value and the ground it takes are the rules' (Croton-on-Hudson
§208-22C/D/E and §208-6A: :mod:`treecalc.rules.croton_on_hudson.planting`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

EPS = 1e-7


@dataclass
class StockOption:
    species_code: str
    scientific_name: str
    common_name: str
    dbh_in: float
    unit_cost_usd: float
    value_per_tree_usd: float
    native: bool
    size_class: str
    leaf_type: str
    area_sqft: float
    height_ft: float | None = None
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def _finite(x: Any) -> bool:
    try:
        return math.isfinite(float(x))
    except (TypeError, ValueError):
        return False


@dataclass
class Plan:
    counts: list[int]
    trees_in_lieu: int
    unmet_value_usd: float  # required value not carried by planted trees
    covered_by_fund_usd: float  # value the payment stands for (v_ref * y, or u)
    planted_value_usd: float
    planting_cost_usd: float
    in_lieu_usd: float
    status: str
    policy: str


def _solve(
    c: np.ndarray, A: np.ndarray, lb: np.ndarray, ub: np.ndarray, integrality: np.ndarray, var_ub: np.ndarray
) -> np.ndarray:
    # heavy: imported here, not at the top: scipy.optimize costs ~0.4 s to import and most assessments need no MILP
    from scipy.optimize import Bounds, LinearConstraint, milp

    res = milp(
        c,
        constraints=LinearConstraint(A, lb, ub),
        integrality=integrality,
        bounds=Bounds(np.zeros_like(var_ub), var_ub),
        options={"presolve": True},
    )
    if res.status != 0 or res.x is None:
        # inputs are validated before solving; a failure here is still reported as a bad input, not a crash
        raise ValueError(f"planting plan: no plan found for the inputs given (MILP solver: {res.message})")
    return res.x


def _one_entry_per_tree(
    R: float, v: float, cost: float, fee: float, x_ub: float, z_ub: float, policy: str
) -> np.ndarray | None:
    """The MILP's solution ``[x, y]`` worked out directly for one stock entry, the fee per tree in lieu
    (``v_ref`` is that entry's value) and at most a count of trees: planting and paying both count whole
    trees of value ``v``, so ``x + y`` must reach ``m``, the fewest trees whose value meets ``R``, and
    the rest is which of the two is cheaper (or, planting first, as many planted as the site takes).

    This is the common case (one replacement species, the command line's and the app's default) and
    it spares importing scipy.optimize (~0.4 s). None where the MILP must decide: ``v * m`` or
    ``v * (m - 1)`` within ``1e-4 v + 1e-8 R`` of ``R`` (the solver's tolerances could read either way), or
    more than one plan costs the least (a cost of 0, a fee equal to the cost).
    ``tests/models/test_planting.py`` checks it gives the MILP's plan over thousands of random cases.
    """
    r = R - 1e-9 * max(R, 1.0)  # the value row's lower bound, as the MILP is given it
    # the solver reads a whole tree's edge within ~1e-6 trees, ~3e-10 of R at millions of trees: kept 100x clear of it
    tol = 1e-4 * v + 1e-8 * R
    m = math.ceil(r / v)
    if m < 1 or not (v * m - r > tol and r - v * (m - 1) > tol) or z_ub < m:
        return None
    if policy == "plant_first":
        # stage 1: the fewest trees in lieu is what the site cannot take; stage 2: the rest planted
        y = max(0, m - int(x_ub))
        if y == 0 and not (cost > 0 or x_ub == m):
            return None  # planting free: any count from m to x_ub costs the same
        return np.array([m - y, y], dtype=float)
    if not (cost > 0 and fee > 0 and cost != fee):
        return None
    x = min(m, int(x_ub)) if cost < fee else 0
    return np.array([x, m - x], dtype=float)


def plan(
    options: list[StockOption],
    required_value_usd: float,
    *,
    fee_basis: str = "per_tree",
    fee_per_tree_usd: float = 0.0,
    multiplier: float = 1.0,
    plantable: int | None = None,
    plantable_area_sqft: float | None = None,
    policy: str = "plant_first",
) -> Plan:
    """The cheapest plan meeting ``required_value_usd`` (see the module docstring)."""
    if policy not in ("plant_first", "cheapest"):
        raise ValueError(f"policy must be plant_first or cheapest, got {policy!r}")
    if fee_basis not in ("per_tree", "value"):
        raise ValueError(f"fee basis must be per_tree or value, got {fee_basis!r}")
    if plantable is not None and plantable_area_sqft is not None:
        raise ValueError("give plantable (a count) or plantable_area_sqft, not both")
    # validate before solving: a negative or non-finite limit makes the MILP infeasible or unbounded
    if plantable is not None:
        if (
            isinstance(plantable, bool)
            or not _finite(plantable)
            or float(plantable) < 0
            or float(plantable) != int(float(plantable))
        ):
            raise ValueError(f"plantable trees must be a whole number >= 0, got {plantable!r}")
        plantable = int(float(plantable))
    if plantable_area_sqft is not None and (not _finite(plantable_area_sqft) or float(plantable_area_sqft) < 0):
        raise ValueError(f"plantable area must be a finite number of square feet >= 0, got {plantable_area_sqft!r}")
    if not _finite(required_value_usd):
        raise ValueError(f"required value must be a finite amount, got {required_value_usd!r}")
    for o in options:
        if not (_finite(o.value_per_tree_usd) and o.value_per_tree_usd > 0 and _finite(o.unit_cost_usd)):
            raise ValueError(
                f"replacement stock {o.species_code}: value per tree and unit cost must be finite, value > 0"
            )
    if not (_finite(fee_per_tree_usd) and _finite(multiplier)) or fee_per_tree_usd < 0 or multiplier < 0:
        raise ValueError("fee per tree and multiplier must be finite amounts >= 0")
    R = max(float(required_value_usd), 0.0)
    n = len(options)
    if R <= 0:
        return Plan([0] * n, 0, 0.0, 0.0, 0.0, 0.0, 0.0, "nothing required", policy)
    if n == 0:
        if fee_basis == "per_tree":
            raise ValueError("no accepted replacement stock: a per-tree fee needs a replacement tree to count by")
        return Plan([], 0, R, R, 0.0, 0.0, R * multiplier, "no stock: all in lieu", policy)
    v = np.array([o.value_per_tree_usd for o in options], float)
    cost = np.array([o.unit_cost_usd for o in options], float)
    area = np.array([o.area_sqft for o in options], float)
    v_ref = v[0]
    # bounds: never more of one entry than would meet R alone
    x_ub = np.ceil(R / v - EPS)
    if plantable is not None:
        x_ub = np.minimum(x_ub, max(int(plantable), 0))
    if plantable_area_sqft is not None:
        x_ub = np.minimum(x_ub, np.floor(max(float(plantable_area_sqft), 0.0) / area + EPS))
    if fee_basis == "per_tree":
        z_ub, z_val, z_cost, z_int = math.ceil(R / v_ref - EPS), v_ref, float(fee_per_tree_usd), 1
    else:
        z_ub, z_val, z_cost, z_int = R, 1.0, float(multiplier), 0
    var_ub = np.append(x_ub, z_ub).astype(float)
    integrality = np.append(np.ones(n), z_int)
    rows = [np.append(v, z_val)]
    lb, ub = [R - 1e-9 * max(R, 1.0)], [np.inf]
    if plantable is not None:
        rows.append(np.append(np.ones(n), 0.0))
        lb.append(-np.inf)
        ub.append(float(plantable))
    if plantable_area_sqft is not None:
        rows.append(np.append(area, 0.0))
        lb.append(-np.inf)
        ub.append(float(plantable_area_sqft))
    A = np.array(rows)
    total_cost = np.append(cost, z_cost)
    direct = (
        _one_entry_per_tree(R, v_ref, float(cost[0]), z_cost, float(x_ub[0]), float(z_ub), policy)
        if n == 1 and fee_basis == "per_tree" and plantable_area_sqft is None
        else None
    )
    if direct is None and policy == "plant_first":
        # stage 1: as little as possible is paid in lieu (only what cannot be planted)
        z_only = np.zeros(n + 1)
        z_only[-1] = 1.0
        x1 = _solve(z_only, A, np.array(lb), np.array(ub), integrality, var_ub)
        z_star = x1[-1]
        var_ub[-1] = round(z_star) if z_int else z_star + 1e-6 * max(R, 1.0)
    x = direct if direct is not None else _solve(total_cost, A, np.array(lb), np.array(ub), integrality, var_ub)
    counts = [int(round(t)) for t in x[:n]]
    planted_value = float(np.dot(v, counts))
    z = int(round(x[-1])) if z_int else max(float(x[-1]), 0.0)
    unmet = max(R - planted_value, 0.0)
    if fee_basis == "per_tree":
        trees_in_lieu, covered, pay = int(z), float(z * v_ref), float(z) * float(fee_per_tree_usd)
    else:
        unmet = round(unmet, 6)
        trees_in_lieu = math.ceil(unmet / v_ref - EPS) if unmet > 0 else 0
        covered, pay = unmet, unmet * float(multiplier)
    status = "met by planting" if trees_in_lieu == 0 and unmet <= 1e-9 else "planting and payment in lieu"
    return Plan(counts, trees_in_lieu, unmet, covered, planted_value, float(np.dot(cost, counts)), pay, status, policy)
