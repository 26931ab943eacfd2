"""The value of each tree on the assessment's value basis: annual benefits, benefits over N years with growth,
or the appraised (CTLA) value — the science :func:`treecalc.assessment.assess` applies before the law.

Names no village: every law reads the value basis it is given (the basis is an option of the assessment).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from treecalc.frames import norm_text
from treecalc.messages import mark
from treecalc.models import appraisal as ctla
from treecalc.models import growth
from treecalc.models.benefits import BenefitParams, compute_benefits, make_params
from treecalc.money import round_cents
from treecalc.quantities import OutOfRange, in_range, range_words
from treecalc.reference.data import DEFAULT_ZONE
from treecalc.schema import BENEFIT_SKIP


def parse_value_basis(
    basis: str, zone_words: str = "Northeast", zones: Sequence[str] = ()
) -> tuple[str, int | None, str]:
    """``"annual"`` / ``"cumulative:N"`` / ``"appraised"`` → (kind, years, label).

    The label names the climate zones whose tables value the trees: ``zone_words`` in words, ``zones`` their codes
    (none: the Northeast). The cumulative basis grows a Northeast tree by the Urban Tree Database (UTD) equations
    where they cover its species, a tree of any other zone by that zone's own DBH-at-age table."""
    b = str(basis or "annual").strip().lower()
    if b == "annual":
        return (
            "annual",
            None,
            f"total annual benefits, USD/yr (National Tree Benefit Calculator / i-Tree Streets {zone_words})",
        )
    if b.startswith("cumulative"):
        years = _cumulative_years(basis, b)
        return "cumulative", years, f"benefits over {years} years with growth, USD ({_growth_words(zone_words, zones)})"
    if b in ("appraised", "appraisal", "ctla"):
        return (
            "appraised",
            None,
            "CTLA replacement value, USD (trunk formula as i-Tree Streets reports it; Guide for Plant Appraisal, 9th ed.)",
        )
    raise ValueError(f"unknown value basis {basis!r}: use annual, cumulative:N or appraised")


def _cumulative_years(basis: str, b: str) -> int:
    """The N of ``cumulative:N`` within its range (:data:`treecalc.quantities.RANGES` ``["cumulative_years"]``);
    :class:`~treecalc.quantities.OutOfRange` naming the option and the range, whether N is out of it, not a
    number or not given (``cumulative`` alone)."""
    head, sep, n = b.partition(":")
    name = f"{mark('value_basis', 'cumulative:N')} (years)"
    try:
        if head != "cumulative" or not sep:
            raise ValueError
        float(n)
    except ValueError:
        raise OutOfRange(f"{name} must be {range_words('cumulative_years')}, got {basis!r}") from None
    return int(in_range(name, n, "cumulative_years"))


def _growth_words(zone_words: str, zones: Sequence[str]) -> str:
    """The cumulative basis's benefits and growth, in words, for trees valued in ``zones``."""
    others = [z for z in zones if z != DEFAULT_ZONE]
    if not others:
        return "i-Tree Streets benefits, UTD growth"
    if len(others) == len(zones):
        table = "the zone's own" if len(zones) == 1 else "each zone's own"
        return f"i-Tree Streets benefits, growth by {table} DBH-at-age table; {zone_words}"
    return (
        "i-Tree Streets benefits, UTD growth in the Northeast, elsewhere growth by each zone's own DBH-at-age "
        f"table; {zone_words}"
    )


def value_function(
    kind: str, years: int | None, params: BenefitParams, mortality: float = 0.0, appraisal: dict | None = None
) -> Callable[..., np.ndarray]:
    """value(codes, dbh_in, land_use=None, condition=None) -> USD per tree on the basis (``mortality``:
    the annual rate of the cumulative basis; ``appraisal``: the 10th edition's parameters, None: the 9th)."""

    def annual(codes, dbh, land_use=None):
        frame = pd.DataFrame({"species_code": np.asarray(codes, dtype=object), "dbh_in": np.asarray(dbh, dtype=float)})
        if land_use is not None:
            frame["land_use"] = np.asarray(land_use, dtype=object)
        return compute_benefits(frame, params)["usd_total_annual"].to_numpy(float)

    def value(codes, dbh, land_use=None, condition=None):
        if len(codes) == 0:
            return np.zeros(0)
        if kind == "annual":
            return annual(codes, dbh, land_use)
        if kind == "cumulative":
            return np.asarray(
                growth.cumulative_benefits(
                    np.asarray(codes, dtype=object),
                    np.asarray(dbh, dtype=float),
                    years,
                    lambda c, d: annual(c, d, land_use),
                    mortality_rate=mortality,
                    zone=params.zone,  # the trees grow by their zone's DBH-at-age table
                ),
                dtype=float,
            )

        cond = "good" if condition is None else condition
        if appraisal is not None:  # Guide for Plant Appraisal, 10th ed.: the trunk formula technique
            from treecalc.models import appraisal10  # start-up: only when needed, not by every assess

            return np.asarray(
                appraisal10.appraised_value(
                    np.asarray(codes, dtype=object),
                    np.asarray(dbh, dtype=float),
                    cond,
                    unit_cost=appraisal.get("unit_cost_usd_per_sqin"),
                    functional_pct=appraisal.get("functional_pct", 100.0),
                    external_pct=appraisal.get("external_pct", 100.0),
                ),
                dtype=float,
            )
        return np.asarray(
            ctla.replacement_value(np.asarray(codes, dtype=object), np.asarray(dbh, dtype=float), cond),
            dtype=float,
        )

    return value


def condition_for_appraisal(cond: pd.Series) -> tuple[np.ndarray, int]:
    c = norm_text(cond)
    blank = c == ""
    return np.where(blank, "good", c).astype(object), int(blank.sum())


def appraised_10th(trees: pd.DataFrame, mask: np.ndarray, appraisal: dict[str, Any], condition: Any) -> np.ndarray:
    """The 10th-edition appraised value of the trees in ``mask``: the fee schedule's unit cost, and each tree's
    functional and external limitations where the survey gives them (the schedule's otherwise)."""
    from treecalc.models import appraisal10  # start-up: only when needed, not by every assess

    def pct(col: str, key: str) -> np.ndarray:
        default = float(appraisal.get(key, 100.0))
        if col not in trees:
            return np.full(int(np.count_nonzero(mask)), default)
        v = trees[col].to_numpy(float)[mask]
        return np.where(np.isnan(v), default, v)

    return np.asarray(
        appraisal10.appraised_value(
            trees["species_code"].to_numpy(object)[mask],
            trees["dbh_in"].to_numpy(float)[mask],
            condition,
            unit_cost=appraisal.get("unit_cost_usd_per_sqin"),
            functional_pct=pct("functional_limitation_pct", "functional_pct"),
            external_pct=pct("external_limitation_pct", "external_pct"),
        ),
        dtype=float,
    )


def value_trees(
    trees: pd.DataFrame,
    kind: str,
    value_of: Callable[..., np.ndarray],
    params: BenefitParams,
    assumptions: list[str],
    appraisal: dict[str, Any] | None = None,
    per_tree: pd.Series | None = None,
    value_in: Callable[[str], Callable[..., np.ndarray]] | None = None,
) -> None:
    """Benefits per tree and ``value_usd`` on the value basis, rounded half-up to the cent as arrays.

    ``per_tree``: the climate zone of each tree of a survey whose trees lie in several (each valued in its own,
    in the one lookup of :func:`compute_benefits`); ``value_in(zone)`` the value function of a zone (the
    cumulative basis grows each zone's trees by that zone's table)."""
    if not len(trees):
        trees["value_usd"] = pd.Series(dtype=float)
        trees["usd_total_annual"] = pd.Series(dtype=float)
        trees["dead"] = pd.Series(dtype=bool)
        return
    frame = trees[["species_code", "dbh_in", "land_use", "condition"]]
    if per_tree is not None:
        frame = frame.assign(zone=per_tree.reindex(trees.index).to_numpy(object))
    ben = compute_benefits(frame, params)
    new = ben.drop(columns=[c for c in BENEFIT_SKIP if c in ben]).set_axis(trees.index)
    new["benefit_land_use"] = ben["land_use"].to_numpy()
    trees[list(new.columns)] = new  # one assignment for all the benefit columns
    if kind == "annual":
        raw = trees["usd_total_annual"].to_numpy(float)
    elif kind == "cumulative" and per_tree is not None and value_in is not None:
        # growth is a table per zone: the trees of each zone grown by theirs
        raw = value_by_zone(
            trees["zone"].astype(str).to_numpy(object),
            value_in,
            trees["species_code"].to_numpy(object),
            trees["dbh_in"].to_numpy(float),
            land_use=trees["benefit_land_use"].to_numpy(object),
        )
    elif kind == "cumulative":
        raw = value_of(
            trees["species_code"].to_numpy(object),
            trees["dbh_in"].to_numpy(float),
            land_use=trees["benefit_land_use"].to_numpy(object),
        )
    else:
        cond, blanks = condition_for_appraisal(trees["condition"])
        if blanks:
            assumptions.append(f"{blanks} tree(s) without a condition are appraised in good condition (CTLA)")
        if appraisal is not None:
            raw = appraised_10th(trees, np.ones(len(trees), dtype=bool), appraisal, cond)
        else:
            raw = value_of(trees["species_code"].to_numpy(object), trees["dbh_in"].to_numpy(float), condition=cond)
    # a dead tree has no leaf area: no environmental value on any basis (appraised: condition 0 %)
    raw = np.where(trees["dead"].to_numpy(bool), 0.0, raw)
    trees["value_usd"] = round_cents(raw)


def value_by_zone(
    zone_of: np.ndarray,
    value_in: Callable[[str], Callable[..., np.ndarray]],
    codes: np.ndarray,
    dbh: np.ndarray,
    **per_tree: np.ndarray,
) -> np.ndarray:
    """The values of trees each in its own climate zone (``zone_of``): each zone's trees by its value function
    ``value_in(zone)``, with ``per_tree`` (``land_use=`` or ``condition=``) taken row for row (the zones a survey
    holds are few: one call per zone)."""
    out = np.empty(len(codes))
    for z in pd.unique(zone_of):
        m = zone_of == z
        out[m] = value_in(str(z))(codes[m], dbh[m], **{k: v[m] for k, v in per_tree.items()})
    return out


def value_in_zone(
    kind: Any, years: Any, params: Any, mortality: Any, appraisal10: Any, z: str
) -> Callable[..., np.ndarray]:
    """The value function of the trees in the climate zone ``z``."""
    return value_function(kind, years, make_params(params, zone=z), mortality, appraisal10)
