"""The replacement planting plan of § 208-22: the cheapest mix of stock that carries the value required.

Given replacement stock entries (species, size, unit cost), each valued per tree on the
assessment's value basis, and how many trees the site can take (a count, or an area
divided by the § 208-6 spacing of each tree size class), :func:`plan` solves a small
mixed-integer program with :func:`scipy.optimize.milp`:

    x_i  >= 0 integer   trees of stock entry i planted
    y    >= 0 integer   replacement trees paid for in lieu (fee basis ``per_tree``), or
    u    >= 0 real      value paid for in lieu (fee basis ``value``)

    sum_i v_i x_i + v_ref y  (or + u)  >= R        the required value (§ 208-22A/F)
    sum_i x_i <= N   or   sum_i a_i x_i <= A       what the site can take

By default planting comes first (``policy="plant_first"``): § 208-22D allows a payment
in lieu only for trees that cannot be planted, so the plan first minimises what goes
to the fund (y or u) and then, with that fixed, minimises planting cost + payment.
``policy="cheapest"`` minimises cost + payment at once (the applicant's choice after a
violation, § 208-22F: "a combination of tree replacement and payment").

``v_ref`` (the value of one tree paid for in lieu) is the value per tree of the first
accepted stock entry, the primary replacement species.

With one stock entry and a fee per tree (the default) the program's answer is worked out
directly (:func:`_one_entry_per_tree`), the same plan without importing scipy.optimize.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from treecalc import data
from treecalc.species import UnknownSpecies, resolve_one
from treecalc.units import money

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


#: § 208-22D: the minimum sizes hold "unless the Village Engineer provides a waiver or permits modifications"
UNLESS_WAIVED = ", unless the Village Engineer waives the minimum size (--size-waiver; assess(size_waiver=True))"
WAIVED = "accepted under the Village Engineer's waiver of the minimum size §208-22D"


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
            # § 208-22E: "in no event shall any invasive species of trees or plants be planted as replacements"
            row["refusals"].append(f"invasive (6 NYCRR 575 {c['part575']}): never accepted as a replacement §208-22E")
        conifer = c["leaf_type"] == "conifer"
        height = e.get("height_ft")
        height = None if height is None or (isinstance(height, float) and math.isnan(height)) else float(height)
        if height is not None and not (math.isfinite(height) and height > 0):
            raise ValueError(f"replacement stock {name!r}: height_ft must be a positive number of feet")
        row["height_ft"] = height
        dbh = e.get("dbh_in")
        dbh = None if dbh is None or (isinstance(dbh, float) and math.isnan(dbh)) else float(dbh)
        notes: list[str] = []
        if conifer:
            # § 208-22D: conifers at least five feet tall; benefits need a DBH
            if height is not None and height < rules["conifer_min_height_ft"]:
                if size_waiver:
                    notes.append(f"{height:g} ft, under the {rules['conifer_min_height_ft']:g} ft minimum: {WAIVED}")
                else:
                    row["refusals"].append(
                        f"conifer {height:g} ft is under the {rules['conifer_min_height_ft']:g} ft minimum §208-22D"
                        f"{UNLESS_WAIVED}"
                    )
            if height is None:
                notes.append(
                    f"conifer height not given: taken to meet the {rules['conifer_min_height_ft']:g} ft "
                    f"minimum §208-22D"
                )
            if dbh is None:
                dbh = float(rules["conifer_default_dbh_in"])
                notes.append(
                    f"conifer valued at {dbh:g} in DBH, the documented default for a "
                    f"{rules['conifer_min_height_ft']:g} ft conifer (data/readings/croton_on_hudson.toml)"
                )
        else:
            if dbh is None:
                raise ValueError(f"replacement stock {name!r}: dbh_in is required for a deciduous tree")
            if dbh < rules["deciduous_min_dbh_in"]:
                if size_waiver:
                    notes.append(f"{dbh:g} in DBH, under the {rules['deciduous_min_dbh_in']:g} in minimum: {WAIVED}")
                else:
                    row["refusals"].append(
                        f"{dbh:g} in DBH is under the {rules['deciduous_min_dbh_in']:g} in minimum "
                        f"for deciduous trees §208-22D{UNLESS_WAIVED}"
                    )
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
    # imported here, not at the top: scipy.optimize costs ~0.4 s to import and most assessments need no MILP
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
    ``tests/test_planting.py`` checks it gives the MILP's plan over thousands of random cases.
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
        # stage 1: as little as possible goes to the fund (§ 208-22D: only what cannot be planted)
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
