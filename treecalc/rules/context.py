"""What a jurisdiction's rules read of an assessment: the options the user chose (:class:`AssessOptions`) and the
valued survey (:class:`Context`: the trees, site facts, law, value functions). :func:`treecalc.assess` builds
them and calls the rules of the survey's jurisdiction with them; the rules import them from here, below the
assessment that calls them."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from treecalc.law.schema import as_date
from treecalc.models.benefits import BenefitParams
from treecalc.models.growth import mortality_rate
from treecalc.models.valuation import (
    appraised_10th,
    condition_for_appraisal,
    parse_value_basis,
    value_by_zone,
    value_function,
    value_in_zone,
)
from treecalc.money import round_cents
from treecalc.quantities import in_range
from treecalc.reference import data


@dataclass
class AssessOptions:
    """What the user chose for an assessment (the keyword arguments of :func:`assess`), validated."""

    violation: bool | None = None
    application_pending: bool | None = None
    clear_cutting: bool | None = None
    continuing_days: int = 1
    value_basis: str = "annual"
    replacement_percent: float | None = None
    replacement_stock: list[dict[str, Any]] | None = None
    replacement_species: str | None = None
    replacement_dbh_in: float | None = None
    replacement_height_ft: float | None = None
    replacement_cost_usd: Any = None
    plantable: int | None = None
    plantable_area_sqft: float | None = None
    fee_schedule: Any = None
    fee_per_tree_usd: Any = None
    in_lieu_policy: str = "plant_first"
    size_waiver: bool = False
    mortality: float | None = None
    #: the date of the application or violation: the law and fee schedule in force then (None: today)
    on: Any = None
    #: the Village's fee schedule in force on that date as the register holds it (in line; None: the data
    #: folder's): the fee charged when no other is given, and the one a fee given is said to differ from
    fee_schedule_in_force: dict[str, Any] | None = None

    def validated(self) -> AssessOptions:
        """The options checked against the ranges the command line applies to its flags
        (:data:`OPTION_RANGES`, :data:`treecalc.quantities.RANGES`): a URL, a project file or a caller of the
        library is refused in the same words, naming the option (:class:`treecalc.quantities.OutOfRange`)."""
        o = AssessOptions(**vars(self))
        o.continuing_days = whole_days(self.continuing_days)

        o.on = as_date(self.on, "‹on› (the date of the application or violation)")
        if o.mortality is not None:
            o.mortality = mortality_rate(o.mortality)
        for key, (name, kind) in OPTION_RANGES.items():
            value = getattr(o, key)
            if value is None:
                continue
            if kind == "usd":  # '$1,450.50' as the flag takes it, kept as given (exact: read as money later)
                in_range(name, value, kind)
                continue
            checked = in_range(name, value, kind)
            setattr(o, key, int(checked) if kind == "plantable" else checked)
        if o.plantable is not None and o.plantable_area_sqft is not None:
            raise ValueError("give plantable (a count) or plantable_area_sqft, not both")
        if o.fee_schedule_in_force is not None and not isinstance(o.fee_schedule_in_force, Mapping):
            raise ValueError(
                "fee_schedule_in_force: the fee schedule in force in line (a dict), as the register gives it"
            )
        basis = str(o.value_basis or "annual").strip().lower()
        if basis.startswith("cumulative:"):
            in_range("value basis cumulative:N (value_basis, years)", basis.partition(":")[2], "cumulative_years")
        for i, e in enumerate(o.replacement_stock or []):
            for key, kind in (("unit_cost_usd", "usd"), ("dbh_in", "dbh_in"), ("height_ft", "height_ft")):
                v = e.get(key) if isinstance(e, Mapping) else None
                if v is not None:
                    in_range(f"replacement_stock {i + 1} {key}", v, kind)
        return o


#: Each numeric option of :func:`assess`: its name in messages (the words, then the keyword) and its range in
#: :data:`treecalc.quantities.RANGES` (the range of the command line's flag).
OPTION_RANGES = {
    "replacement_percent": ("replacement percentage (replacement_percent)", "percent"),
    "plantable": ("plantable trees (plantable)", "plantable"),
    "plantable_area_sqft": ("plantable area (plantable_area_sqft)", "area_sqft"),
    "replacement_dbh_in": ("replacement DBH (replacement_dbh_in)", "dbh_in"),
    "replacement_height_ft": ("replacement height (replacement_height_ft)", "height_ft"),
    "replacement_cost_usd": ("replacement unit cost (replacement_cost_usd)", "usd"),
    "fee_per_tree_usd": ("fee per tree (fee_per_tree_usd)", "usd"),
}


def whole_days(value: Any) -> int:
    """Days of a continuing violation: a whole number within :data:`treecalc.quantities.RANGES` ``["days"]`` (the
    range of ``--days``: 2**53 - 1 days is refused naming the option, not multiplied)."""
    return int(in_range("days of continuing violation (continuing_days)", value, "days"))


def _distinct_rows(*columns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The first row of each distinct combination of ``columns`` and each row's combination, numbered in the
    order they first appear: the groups of ``groupby(sort=False, dropna=False).ngroup()`` and the rows
    ``drop_duplicates()`` keeps, without building a frame (a column's values factorised, the codes combined)."""
    combined = np.zeros(len(columns[0]), dtype=np.int64)
    for col in columns:
        codes, uniques = pd.factorize(col, use_na_sentinel=False)
        combined = pd.factorize(combined * len(uniques) + codes)[0]
    _, first = np.unique(combined, return_index=True)
    return first, combined


@dataclass
class Context:
    """What a jurisdiction's rules module reads: the valued trees, site facts, law, options, value functions."""

    survey: Any
    trees: pd.DataFrame
    site_in: dict[str, Any]
    law: dict[str, Any]
    opts: AssessOptions
    options: dict[str, Any]
    assumptions: list[str]
    warnings: list[str]
    method: dict[str, Any]
    value_of: Callable[..., np.ndarray]
    kind: str
    params: BenefitParams
    schedule: Any = None
    survey_lines: list[dict[str, Any]] = field(default_factory=list)
    #: the readings of its text a town held as data states (section, reading), as the rules module's own are stated
    readings: list[tuple[str, str]] = field(default_factory=list)
    #: the trees (of :attr:`trees`) a finding valued on the appraised basis (:meth:`capital_value_of`), None: none
    appraised: np.ndarray | None = None

    def _basis_fn(self, basis: str, zone: str | None = None) -> Callable[..., np.ndarray]:
        """The value function of ``basis``; ``zone``: that of the trees in the climate zone ``zone`` (a survey
        whose trees lie in several values each in its own, as :func:`treecalc.models.valuation.value_trees` does)."""
        kind, years, _ = parse_value_basis(basis)
        args = (kind, years, self.params, self.options.get("mortality_rate", 0.0), self.options.get("appraisal"))
        return value_function(*args) if zone is None else value_in_zone(*args, zone)

    def _zones_of(self, trees: pd.DataFrame, mask: np.ndarray) -> np.ndarray | None:
        """The climate zone of each tree in ``mask`` when some lie outside the zone of :attr:`params` (None: all in
        it, valued by :attr:`params` itself)."""
        if "zone" not in trees:
            return None
        zones = trees["zone"].astype(str).to_numpy(object)[mask]
        own = str(self.params.zone or data.DEFAULT_ZONE)
        return zones if (zones != own).any() else None

    def capital_value_of(self, trees: pd.DataFrame, mask: np.ndarray, basis: str) -> np.ndarray:
        """The value of the trees in ``mask`` on a capital basis (appraised or cumulative:N), to the cent: each
        tree in its own climate zone (its zone's benefit tables and DBH-at-age growth).

        Each distinct (species, DBH, condition or land use, zone) is valued once.
        """
        if basis == self.options["value_basis"]:
            return trees["value_usd"].to_numpy(float)[mask]
        kind, _, _ = parse_value_basis(basis)
        if kind == "appraised":  # what the assumptions say of appraised values is said of these trees
            chosen = self.trees.index.isin(trees.index[np.asarray(mask, dtype=bool)])
            self.appraised = chosen if self.appraised is None else self.appraised | chosen
        if kind == "appraised" and self.options.get("appraisal") is not None:
            cond = condition_for_appraisal(trees["condition"][mask])[0]
            return round_cents(appraised_10th(trees, mask, self.options["appraisal"], cond))
        third = (
            condition_for_appraisal(trees["condition"][mask])[0]
            if kind == "appraised"
            else trees["benefit_land_use"].to_numpy(object)[mask]
        )
        c, d, x = trees["species_code"].to_numpy(object)[mask], trees["dbh_in"].to_numpy(float)[mask], third
        zones = self._zones_of(trees, mask)
        first, codes = _distinct_rows(c, d, x) if zones is None else _distinct_rows(c, d, x, zones)
        key = "condition" if kind == "appraised" else "land_use"
        if zones is None:
            values = round_cents(self._basis_fn(basis)(c[first], d[first], **{key: x[first]}))
        else:  # each zone's trees by its own value function
            fn = functools.partial(self._basis_fn, basis)
            values = round_cents(value_by_zone(zones[first], fn, c[first], d[first], **{key: x[first]}))
        return np.where(trees["dead"].to_numpy(bool)[mask], 0.0, values[codes])  # a dead tree: no value

    def stock_capital_value(self, code: str, dbh_in: float, basis: str) -> float:
        """One replacement tree (good condition) on a capital basis, to the cent."""
        v = self._basis_fn(basis)(np.array([code], dtype=object), np.array([float(dbh_in)]))
        return float(round_cents(v)[0])
