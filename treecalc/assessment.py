"""``assess(survey, **options) -> Assessment``: what the tree law requires of a survey, section by section.

One entry point for the CLI, the Excel statement and the app. It values every tree
(:func:`treecalc.benefits.compute_benefits`, on the chosen value basis), applies the
jurisdiction's rules (:mod:`treecalc.rules`), plans the replacement planting
(:mod:`treecalc.planting`), prices the payment in lieu (:mod:`treecalc.fund`), and
writes the statement as ``lines`` (section, item, value, unit, note) with every
assumption and warning.

Value bases (shown on every output):

- ``annual``: total annual benefits, USD/yr, as the National Tree Benefit Calculator reports
  them (i-Tree Streets, Northeast) — the methodology § 208-22B names;
- ``cumulative:N``: expected benefits over N years with growth
  (:func:`treecalc.models.growth.cumulative_benefits`, no mortality or discounting);
- ``appraised``: the CTLA replacement value i-Tree Streets reports
  (:func:`treecalc.models.appraisal.replacement_value`, by the tree's condition).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd

from treecalc import data
from treecalc.benefits import BenefitParams, compute_benefits, make_params, method_notes
from treecalc.fund import in_lieu, load_fee_schedule
from treecalc.planting import plan as make_plan
from treecalc.planting import prepare_stock
from treecalc.rules import croton_on_hudson as croton
from treecalc.rules import params as lawparams
from treecalc.rules import wesley_hills as wesley
from treecalc.validate import number

SURVEY_FLAGS = ("street_tree", "wetland", "slope_over_20pct", "excessively_steep_slope", "landmark",
                "conservation_area", "dec_protected", "regulated_buffer_zone", "hazardous", "dead_or_diseased",
                "good_forestry", "within_20ft_of_lot_line")
BENEFIT_SKIP = ("species_code", "dbh_in", "land_use")

#: The reading the spec (issue 4) fixes, and what treecalc therefore leaves to the Engineer: stated in
#: method["readings"] and in the penalty notes (which the statement writes as given).
OFFENCE_READING = ("A harmed tree is an offence only when its removal needed a permit under §208-19 and none "
                   "was held (the reading treecalc applies, issue 4).")
OTHER_PROHIBITIONS_NOTE = (
    "Not assessed by treecalc as separate offences; the Village Engineer must assess them: topping or "
    "excessive pruning (§208-18D), work on street trees without the Department's approval (§208-11, "
    "§208-14), and harm to a regulated tree while an application is pending (§208-20F; here it only "
    "doubles the fines, §208-29B(7)).")


@dataclass
class Assessment:
    survey: Any
    jurisdiction: str
    options: dict[str, Any]
    trees: pd.DataFrame
    permit: dict[str, Any]
    replacement: dict[str, Any]
    fund: dict[str, Any]
    penalties: dict[str, Any]
    wesley_hills: dict[str, Any] | None
    lines: list[dict[str, Any]]
    assumptions: list[str]
    warnings: list[str]
    method: dict[str, Any]
    site: dict[str, Any] = field(default_factory=dict)

    # -- summaries -------------------------------------------------------------------------
    @property
    def rows_read(self) -> int:
        return int(getattr(self.survey, "rows_read", len(self.trees)))

    @property
    def rejected(self) -> pd.DataFrame:
        r = getattr(self.survey, "rejected", None)
        return r if isinstance(r, pd.DataFrame) else pd.DataFrame()

    def to_json(self) -> dict[str, Any]:
        """The JSON object of ``treecalc assess --json`` (see the issue's Interface)."""
        rep, fund, pen = self.replacement, self.fund, self.penalties
        plan = rep.get("plan") or []
        first = plan[0] if plan else (rep.get("stock") or [{}])[0]
        permit_sections = list(dict.fromkeys(t["section"] for t in self.permit["triggers"]))
        croton_j = self.jurisdiction == "croton_on_hudson"
        wh = self.wesley_hills or {}
        return {
            "jurisdiction": self.jurisdiction,
            "jurisdiction_name": lawparams.JURISDICTIONS[self.jurisdiction],
            "rows_read": self.rows_read,
            "trees": int(len(self.trees)),
            "rejected": int(len(self.rejected)),
            # removals proposed and done; a damaged (topped, injured) tree stands, so it is in trees_harmed only
            "trees_removed": int(self.trees["action"].isin(["remove", "removed"]).sum()) if len(self.trees) else 0,
            "trees_harmed": int(self.trees["harmed"].sum()) if len(self.trees) else 0,
            "permit_required": bool(self.permit["required"]),
            "permit_triggers": permit_sections,
            "permit_exceptions": [e["section"] for e in self.permit.get("exceptions_applied", [])],
            "replacement_required": bool(rep.get("required")),
            "replacement_percent": rep.get("percent"),
            "value_basis": self.options["value_basis"],
            "value_basis_label": self.options["value_basis_label"],
            "removed_value_usd": rep.get("removed_value_usd"),
            "required_value_usd": rep.get("required_value_usd"),
            "replacement": {
                "species_code": first.get("species_code"),
                "dbh_in": first.get("dbh_in"),
                "value_per_tree_usd": first.get("value_per_tree_usd"),
                "trees_needed": rep.get("trees_needed"),
                "trees_planted": rep.get("trees_planted"),
                "trees_in_lieu": rep.get("trees_in_lieu"),
                "planting_cost_usd": rep.get("planting_cost_usd"),
                "native_share": rep.get("native_share"),
                "plan": plan,
            },
            "fund_in_lieu_usd": fund.get("fund_in_lieu_usd"),
            "fund_basis": fund.get("basis"),
            "fund_placeholder": fund.get("placeholder"),
            "civil_penalty_max_usd": pen.get("civil_penalty_max_usd") if croton_j else None,
            "civil_penalty_doubled": pen.get("doubled") if croton_j else None,
            "criminal_fine_max_usd": pen.get("criminal_fine_max_usd") if croton_j else None,
            "fine_max_usd": wh.get("fine_max_usd") if not croton_j else None,
            "offences": int(self.trees["offence"].sum()) if len(self.trees) else 0,
            "per_tree": _records(self.trees[[c for c in TREE_JSON_COLUMNS if c in self.trees]]),
            "rejected_rows": _records(self.rejected),
            "lines": self.lines,
            "assumptions": self.assumptions,
            "warnings": self.warnings,
            "options": {k: v for k, v in self.options.items() if k != "benefit_params"},
        }


TREE_JSON_COLUMNS = ("source_row", "tag", "species", "species_code", "dbh_in", "action", "condition",
                     "value_usd", "usd_total_annual", "disclosures", "harmed", "counted", "exclusion", "permit_triggers",
                     "permit_needed", "offence", "penalty_tier", "penalty_base_usd", "penalty_max_usd",
                     "criminal_max_usd")


def _records(df: pd.DataFrame) -> list[dict[str, Any]]:
    if df is None or not len(df):
        return []
    out = df.astype(object).where(df.notna(), None)
    return [{k: _plain(v) for k, v in r.items()} for r in out.to_dict(orient="records")]


def _plain(v: Any) -> Any:
    if isinstance(v, (np.bool_,)):
        return bool(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    if isinstance(v, Decimal):
        return float(v)
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def money2(x: float) -> float:
    """Round to cents, half up, as every reported amount is."""
    return float(Decimal(repr(float(x))).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def required_value(removed_value_usd: float, percent: float) -> float:
    """The value the replacements must carry: "at least" percent of the value removed (§ 208-22A/F).

    Rounded UP to the cent (exact decimals), so that a plan meeting the rounded figure meets the
    law's: 11.16 x 90% = 10.044 -> 10.05 (10.04 would fall short of 90%).
    """
    exact = Decimal(repr(float(removed_value_usd))) * Decimal(repr(float(percent))) / 100
    return float(exact.quantize(Decimal("0.01"), rounding=ROUND_CEILING))


# ------------------------------------------------------------------------------------------
# value bases
# ------------------------------------------------------------------------------------------
def parse_value_basis(basis: str) -> tuple[str, int | None, str]:
    """``"annual"`` / ``"cumulative:N"`` / ``"appraised"`` → (kind, years, label)."""
    b = str(basis or "annual").strip().lower()
    if b == "annual":
        return "annual", None, ("total annual benefits, USD/yr (National Tree Benefit Calculator / "
                                "i-Tree Streets Northeast, §208-22B)")
    # (the §208-22B citation is Croton's: Wesley Hills output drops it, see _assess_wesley_hills)
    if b.startswith("cumulative"):
        _, sep, n = b.partition(":")
        try:
            years = int(n) if sep else -1
        except ValueError:
            years = -1
        if years < 1:
            raise ValueError(f"value basis {basis!r}: use cumulative:N with N a whole number of years >= 1")
        return "cumulative", years, f"benefits over {years} years with growth, USD (i-Tree Streets benefits, UTD growth)"
    if b in ("appraised", "appraisal", "ctla"):
        return "appraised", None, "CTLA replacement value, USD (trunk formula as i-Tree Streets reports it)"
    raise ValueError(f"unknown value basis {basis!r}: use annual, cumulative:N or appraised")


def _value_fn(kind: str, years: int | None, params: BenefitParams) -> Callable[..., np.ndarray]:
    """value(codes, dbh_in, land_use=None, condition=None) -> USD per tree on the basis."""

    def annual(codes, dbh, land_use=None):
        frame = pd.DataFrame({"species_code": np.asarray(codes, dtype=object),
                              "dbh_in": np.asarray(dbh, dtype=float)})
        if land_use is not None:
            frame["land_use"] = np.asarray(land_use, dtype=object)
        return compute_benefits(frame, params)["usd_total_annual"].to_numpy(float)

    def value(codes, dbh, land_use=None, condition=None):
        if len(codes) == 0:
            return np.zeros(0)
        if kind == "annual":
            return annual(codes, dbh, land_use)
        if kind == "cumulative":
            from treecalc.models import growth

            return np.asarray(growth.cumulative_benefits(
                np.asarray(codes, dtype=object), np.asarray(dbh, dtype=float), years,
                lambda c, d: annual(c, d, land_use)), dtype=float)
        from treecalc.models import appraisal

        cond = "good" if condition is None else condition
        return np.asarray(appraisal.replacement_value(np.asarray(codes, dtype=object),
                                                      np.asarray(dbh, dtype=float), cond), dtype=float)

    return value


# ------------------------------------------------------------------------------------------
# the survey
# ------------------------------------------------------------------------------------------
def _load_survey(survey: Any, progress: Any = None, species_map: dict[str, str] | None = None) -> Any:
    if isinstance(survey, (str, Path)):
        from treecalc.ingest import read_survey  # written alongside; imported when needed

        return read_survey(survey, progress=progress, species_map=species_map)
    if not hasattr(survey, "trees"):
        raise TypeError("assess() needs a Survey (with .trees) or the path of a survey file")
    return survey


def _prepare_trees(trees: pd.DataFrame) -> pd.DataFrame:
    t = trees.copy()
    defaults = {"tag": "", "species": "", "action": "retain", "condition": "", "land_use": "", "notes": "",
                "distance_to_residence_ft": np.nan, "warnings": ""}
    for c, v in defaults.items():
        if c not in t:
            t[c] = v
    for c in SURVEY_FLAGS:
        if c not in t:
            t[c] = pd.array([pd.NA] * len(t), dtype="boolean")
    if "species_code" not in t:
        from treecalc.benefits import species_codes  # pragma: no cover - surveys carry codes

        t["species_code"] = species_codes(t["species"])
    t["action"] = t["action"].fillna("retain").astype(str).str.strip().str.lower()
    # The survey reader's canonical actions (treecalc.ingest.values.ACTIONS) the rules here do not
    # name apart yet: topping and excessive pruning are injuries (§208-17 INJURY); a transplanted
    # tree stays on the site in service and is counted as retained.
    t["action"] = t["action"].replace({"topped": "damaged", "excessively_pruned": "damaged", "transplant": "retain"})
    bad = sorted(set(t["action"]) - {"retain", "remove", "removed", "damaged"})
    if bad:
        raise ValueError(f"unknown tree action(s) {bad}: use retain, remove, removed or damaged")
    return t


def _stock_hint(stock_report: list[dict[str, Any]], rules: dict[str, Any]) -> str:
    """What to change when every replacement stock was refused: the size (§208-22D) when that was
    the reason, another species otherwise."""
    reasons = [x for r in stock_report for x in r["refusals"]]
    if reasons and all("minimum for deciduous" in x for x in reasons):
        return f"give a replacement DBH of at least {rules['deciduous_min_dbh_in']:g} in (§208-22D)"
    if reasons and all("conifer" in x for x in reasons):
        return f"give a conifer replacement height of at least {rules['conifer_min_height_ft']:g} ft (§208-22D)"
    return "give another replacement species"


def _condition_for_appraisal(cond: pd.Series) -> tuple[np.ndarray, int]:
    c = cond.fillna("").astype(str).str.strip().str.lower()
    blank = c.eq("")
    return c.where(~blank, "good").to_numpy(object), int(blank.sum())


def _stock_entries(replacement_stock, replacement_species, replacement_dbh_in, replacement_cost_usd,
                   rules: dict[str, Any], replacement_height_ft: float | None = None,
                   ) -> tuple[list[dict[str, Any]], list[str]]:
    assumptions: list[str] = []
    if replacement_stock:
        entries = [dict(e) for e in replacement_stock]
        for e in entries:
            if e.get("unit_cost_usd") is None:
                e["unit_cost_usd"] = rules["default_stock"]["unit_cost_usd"]
                assumptions.append(f"replacement {e.get('species')}: unit cost not given, the placeholder "
                                   f"${lawparams.money(e['unit_cost_usd']):,.2f} is used")
        return entries, assumptions
    d = rules["default_stock"]
    species = replacement_species or d["species"]
    if replacement_species is None:
        assumptions.append(f"replacement species not given: {d['species']} (red maple, native) is assumed (§208-22C)")
    dbh = replacement_dbh_in
    if dbh is None and replacement_species is None:
        dbh = d["dbh_in"]
        assumptions.append(f"replacement size not given: {d['dbh_in']:g} in DBH is assumed (§208-22D minimum "
                           f"{rules['deciduous_min_dbh_in']:g} in)")
    elif dbh is None:
        from treecalc.species import resolve_one

        code = resolve_one(str(species)).code
        if code and data.catalogue().loc[code, "leaf_type"] != "conifer":
            dbh = d["dbh_in"]
            assumptions.append(f"replacement size not given: {d['dbh_in']:g} in DBH is assumed")
    cost = replacement_cost_usd
    if cost is None:
        cost = d["unit_cost_usd"]
        assumptions.append(f"replacement unit cost not given: ${lawparams.money(cost):,.2f} per tree supplied and "
                           f"planted is a PLACEHOLDER (give --replacement-cost)")
    return [{"species": species, "dbh_in": dbh, "height_ft": replacement_height_ft, "unit_cost_usd": cost}], assumptions


# ------------------------------------------------------------------------------------------
# assess
# ------------------------------------------------------------------------------------------
def assess(survey: Any, *, jurisdiction: str | None = None, site: dict[str, Any] | None = None,
           violation: bool | None = None, application_pending: bool | None = None,
           clear_cutting: bool | None = None, continuing_days: int = 1, value_basis: str = "annual",
           replacement_percent: float | None = None, replacement_stock: list[dict[str, Any]] | None = None,
           replacement_species: str | None = None, replacement_dbh_in: float | None = None,
           replacement_height_ft: float | None = None,
           replacement_cost_usd: Any = None, plantable: int | None = None,
           plantable_area_sqft: float | None = None, fee_schedule: Any = None, fee_per_tree_usd: Any = None,
           in_lieu_policy: str = "plant_first", size_waiver: bool = False,
           benefit_params: BenefitParams | None = None, progress: Any = None,
           species_map: dict[str, str] | None = None, **benefit_kw: Any) -> Assessment:
    """Apply the tree law to a survey. See the module docstring and :class:`Assessment`.

    ``survey`` is a :class:`treecalc.ingest.Survey` (or any object with ``trees``,
    ``rejected``, ``site``, ``site_assumptions``, ``warnings``, ``rows_read``) or the path of
    a survey file. ``site`` overrides the survey's site facts. ``species_map`` corrects species
    texts in bulk when a file is read (see :func:`treecalc.ingest.read_survey`).
    """
    survey = _load_survey(survey, progress, species_map)  # progress(fraction, message) while a file is read
    site_in = {**(getattr(survey, "site", None) or {}), **(site or {})}
    # The survey reader lists the site facts it was not given with values of its own; the law engine
    # decides what it assumes for each fact it uses and says so itself (resolve_site), so the
    # reader's list is only carried for a survey that does not record its site facts apart.
    assumptions: list[str] = (list(getattr(survey, "data_assumptions", None) or [])
                              if getattr(survey, "site_assumed", None) is not None
                              else list(getattr(survey, "site_assumptions", None) or []))
    warnings: list[str] = list(getattr(survey, "warnings", None) or [])
    j = jurisdiction or site_in.get("jurisdiction")
    if not j:
        j = "croton_on_hudson"
        assumptions.append("jurisdiction not given: Croton-on-Hudson Chapter 208 is applied")
    jkey = lawparams.jurisdiction_key(j)
    law = lawparams.law(jkey)
    if application_pending is not None:
        site_in["application_pending"] = bool(application_pending)
    continuing_days = int(number("days of continuing violation", continuing_days, low=1, whole=True))
    if replacement_percent is not None:
        replacement_percent = number("replacement percentage", replacement_percent, low=0, strict=True)
    if plantable is not None and plantable_area_sqft is not None:
        raise ValueError("give plantable (a count) or plantable_area_sqft, not both")
    if plantable is not None:
        plantable = int(number("plantable trees", plantable, low=0, whole=True))
    if plantable_area_sqft is not None:
        plantable_area_sqft = number("plantable area (sq ft)", plantable_area_sqft, low=0)
    if replacement_height_ft is not None:
        h = float(replacement_height_ft)
        if not math.isfinite(h) or h <= 0:
            raise ValueError(f"replacement height must be a finite number of feet > 0, got {replacement_height_ft!r}")
        replacement_height_ft = h
    kind, years, basis_label = parse_value_basis(value_basis)
    params = make_params(benefit_params, **benefit_kw)
    resolved_params = params.resolved()
    value_of = _value_fn(kind, years, params)

    trees = _prepare_trees(survey.trees)
    n = len(trees)
    # -- value every tree -------------------------------------------------------------------
    if n:
        ben = compute_benefits(trees[["species_code", "dbh_in", "land_use"]], params)
        for c in ben.columns:
            if c not in BENEFIT_SKIP:
                trees[c] = ben[c].to_numpy()
        trees["benefit_land_use"] = ben["land_use"].to_numpy()
        if kind == "annual":
            raw = trees["usd_total_annual"].to_numpy(float)
        elif kind == "cumulative":
            raw = value_of(trees["species_code"].to_numpy(object), trees["dbh_in"].to_numpy(float),
                           land_use=trees["benefit_land_use"].to_numpy(object))
        else:
            cond, blanks = _condition_for_appraisal(trees["condition"])
            if blanks:
                assumptions.append(f"{blanks} tree(s) without a condition are appraised in good condition (CTLA)")
            raw = value_of(trees["species_code"].to_numpy(object), trees["dbh_in"].to_numpy(float), condition=cond)
        trees["value_usd"] = [money2(v) for v in raw]
    else:
        trees["value_usd"] = pd.Series(dtype=float)
        trees["usd_total_annual"] = pd.Series(dtype=float)
    trees["harmed"] = trees["action"].isin(croton.HARMED).to_numpy(bool)

    options = {
        "jurisdiction": jkey, "value_basis": f"{kind}:{years}" if kind == "cumulative" else kind,
        "value_basis_label": basis_label,
        # the unit of every value on the basis: annual benefits are a rate, the others a sum
        "value_unit": "USD/yr" if kind == "annual" else "USD",
        "violation": violation, "application_pending": application_pending,
        "clear_cutting": clear_cutting, "continuing_days": int(continuing_days),
        "replacement_percent": replacement_percent, "replacement_stock": replacement_stock,
        "replacement_species": replacement_species, "replacement_dbh_in": replacement_dbh_in,
        "replacement_height_ft": replacement_height_ft,
        "replacement_cost_usd": None if replacement_cost_usd is None else float(lawparams.money(replacement_cost_usd)),
        "plantable": plantable, "plantable_area_sqft": plantable_area_sqft,
        "fee_schedule": fee_schedule if not isinstance(fee_schedule, Path) else str(fee_schedule),
        "fee_per_tree_usd": None if fee_per_tree_usd is None else float(lawparams.money(fee_per_tree_usd)),
        "in_lieu_policy": in_lieu_policy, "size_waiver": size_waiver, "site": dict(site or {}),
        "benefit_parameters": resolved_params,
    }
    method = {
        "value_basis": options["value_basis"], "value_basis_label": basis_label,
        "benefit_parameters": resolved_params, "data_sources": [data.SOURCE_NAME],
        "law": f"{law['name']}, {law['chapter']}", "law_file": str(lawparams.LAW_DIR / f"{jkey}.toml"),
        "science_notes": method_notes(resolved_params),
    }
    if kind == "cumulative":
        method["data_sources"].append("growth: Urban Tree Database (McPherson et al. 2016) and i-Tree Streets "
                                      "age-class curves; no mortality, no discounting")
    if kind == "appraised":
        method["data_sources"].append("CTLA trunk formula with i-Tree Streets Northeast appraisal parameters")
    if plantable is not None and plantable_area_sqft is not None:
        raise ValueError("give plantable (a count) or plantable_area_sqft, not both")

    if jkey == "wesley_hills":
        return _assess_wesley_hills(survey, trees, site_in, law, options, assumptions, warnings, method)
    return _assess_croton(survey, trees, site_in, law, options, assumptions, warnings, method, value_of=value_of,
                          kind=kind, violation=violation, clear_cutting=clear_cutting,
                          continuing_days=int(continuing_days), replacement_percent=replacement_percent,
                          replacement_stock=replacement_stock, replacement_species=replacement_species,
                          replacement_dbh_in=replacement_dbh_in, replacement_cost_usd=replacement_cost_usd,
                          replacement_height_ft=replacement_height_ft, plantable=plantable, plantable_area_sqft=plantable_area_sqft,
                          fee_schedule=fee_schedule, fee_per_tree_usd=fee_per_tree_usd,
                          in_lieu_policy=in_lieu_policy, size_waiver=size_waiver)


def _line(section: str, item: str, value: Any, unit: str = "", note: str = "") -> dict[str, Any]:
    return {"section": section, "item": item, "value": _plain(value), "unit": unit, "note": note}


def _survey_lines(survey: Any, trees: pd.DataFrame, jname: str) -> list[dict[str, Any]]:
    rej = getattr(survey, "rejected", None)
    act = trees["action"].value_counts() if len(trees) else pd.Series(dtype=int)
    return [
        _line("Survey", "Jurisdiction", jname),
        _line("Survey", "Rows read", int(getattr(survey, "rows_read", len(trees))), "rows"),
        _line("Survey", "Trees accepted", int(len(trees)), "trees"),
        _line("Survey", "Rows rejected", int(len(rej)) if isinstance(rej, pd.DataFrame) else 0, "rows",
              "see the Rejected rows"),
        *[_line("Survey", f"Trees marked {a}", int(act.get(a, 0)), "trees")
          for a in ("retain", "remove", "removed", "damaged")],
    ]


def _tags(tags: list[str], limit: int = 12) -> str:
    if len(tags) <= limit:
        return "trees " + ", ".join(tags)
    return "trees " + ", ".join(tags[:limit]) + f" and {len(tags) - limit} more"


def _assess_croton(survey, trees, site_in, law, options, assumptions, warnings, method, *, value_of, kind,
                   violation, clear_cutting, continuing_days, replacement_percent, replacement_stock,
                   replacement_species, replacement_dbh_in, replacement_cost_usd, plantable, plantable_area_sqft,
                   replacement_height_ft=None,
                   fee_schedule, fee_per_tree_usd, in_lieu_policy, size_waiver) -> Assessment:
    if violation is not None:                 # --violation decides it; a site fact "violation" otherwise
        site_in = {**site_in, "violation": bool(violation)}
    site, site_assumptions = croton.resolve_site(site_in, croton.SITE_DEFAULTS)
    assumptions.extend(site_assumptions)
    cat = data.catalogue()
    n = len(trees)
    # -- § 208-19 permit ---------------------------------------------------------------------
    pr = croton.permit(trees, site, law, clear_cutting=clear_cutting)
    trees["permit_triggers"] = ["; ".join(t) for t in pr.triggers]
    trees["permit_needed"] = pr.permit_needed
    # -- § 208-29 penalties ------------------------------------------------------------------
    pen = croton.penalties(trees, site, law, pr, application_pending=bool(site.get("application_pending")),
                           continuing_days=continuing_days)
    trees["offence"] = pen.offence
    trees["penalty_tier"] = pen.tier
    trees["penalty_base_usd"] = pen.base_usd
    trees["penalty_max_usd"] = pen.max_usd
    trees["criminal_max_usd"] = pen.criminal_usd
    trees["criminal_section"] = pen.criminal_section
    # -- § 208-22 replacement ------------------------------------------------------------------
    # the site fact is parsed as yes/no by resolve_site ("false" is False), never read by truthiness
    violation = site.get("violation")
    if violation is None:
        violation = bool(pen.offence.any())
        if pen.offence.any():
            assumptions.append("trees were removed or damaged without a required permit: the §208-22F violation "
                               "standard is applied")
    counted, exclusion = croton.replacement_scope(trees, cat, violation=bool(violation))
    rules = law["replacement"]
    removals_under_permit = int((trees["action"].isin(croton.REMOVALS).to_numpy() & pr.permit_needed).sum())
    if not violation:
        counted = counted & pr.permit_needed      # A: the trees the permit is issued for
        for i in np.flatnonzero(trees["action"].isin(croton.REMOVALS).to_numpy() & ~pr.permit_needed):
            if not exclusion[i]:
                exclusion[i] = "no permit needed for this tree §208-19A"
    trees["counted"] = counted
    trees["exclusion"] = exclusion
    if violation:
        required = bool(counted.any())
        section = "§208-22F"
        percent = float(replacement_percent) if replacement_percent is not None else float(rules["violation_percent"])
        pct_note = ("the Village Engineer's percentage §208-22F" if replacement_percent is not None
                    else f"{rules['violation_percent']}% after a violation §208-22F")
    else:
        required = pr.required and removals_under_permit >= rules["min_trees"] and bool(counted.any())
        section = "§208-22A"
        percent = float(rules["percent"])
        pct_note = f"{rules['percent']}% of the value removed §208-22A"
        if replacement_percent is not None:
            warnings.append("a replacement percentage was given but applies only after a violation (§208-22F): "
                            f"{rules['percent']}% (§208-22A) is used")
    removed_value = float(sum(Decimal(repr(v)) for v in trees.loc[counted, "value_usd"])) if n else 0.0
    # "at least" the percentage: rounded up to the cent, never down
    required_value_usd = required_value(removed_value, percent) if required else 0.0
    entries, stock_assumptions = _stock_entries(replacement_stock, replacement_species, replacement_dbh_in,
                                                replacement_cost_usd, rules, replacement_height_ft)
    stock_value = lambda c, d: np.array([money2(x) for x in value_of(c, d)])  # noqa: E731 - stock at good condition
    options_ok, stock_report = prepare_stock(entries, rules, law["spacing_ft"], stock_value, size_waiver=size_waiver)
    schedule = load_fee_schedule(fee_schedule, fee_per_tree_usd=fee_per_tree_usd)
    rep_warnings: list[str] = []
    rep_notes: list[str] = []
    for r in stock_report:
        for reason in r["refusals"]:
            rep_warnings.append(f"replacement stock {r['species']} refused: {reason}")
        # a replacement species matched by similarity ("Red Mapel") is said, with what it was taken as
        rep_warnings.extend(f"replacement species: {note}; check it" for note in r.get("notes", [])
                            if note.startswith("fuzzy match"))
    # what prepare_stock took for a conifer (height, valuation DBH) is an assumption of the plan: say so
    stock_notes = [f"replacement stock {r.get('species_code') or r['species']}: {note}"
                   for r in stock_report if r.get("accepted") for note in r.get("notes", [])
                   if note.startswith("conifer")]
    if required and not options_ok and schedule.basis == "per_tree":
        refused = "; ".join(f"{r['species']}: {', '.join(r['refusals'])}" for r in stock_report)
        raise ValueError(f"no acceptable replacement stock ({refused}); {_stock_hint(stock_report, rules)}")
    if required:
        assumptions.extend(stock_assumptions)
        assumptions.extend(stock_notes)
        policy = in_lieu_policy
        pl = make_plan(options_ok, required_value_usd, fee_basis=schedule.basis,
                       fee_per_tree_usd=float(schedule.fee_per_tree_usd), multiplier=float(schedule.multiplier),
                       plantable=plantable, plantable_area_sqft=plantable_area_sqft, policy=policy)
    else:
        pl = make_plan(options_ok, 0.0)
    plan_rows = []
    for o, k in zip(options_ok, pl.counts):
        if k:
            plan_rows.append({"species_code": o.species_code, "scientific_name": o.scientific_name,
                              "common_name": o.common_name, "dbh_in": o.dbh_in, "unit_cost_usd": o.unit_cost_usd,
                              "value_per_tree_usd": o.value_per_tree_usd, "count": int(k), "native": o.native,
                              "size_class": o.size_class, "area_sqft_per_tree": o.area_sqft,
                              "planted_value_usd": money2(o.value_per_tree_usd * k),
                              "cost_usd": money2(o.unit_cost_usd * k)})
    planted = int(sum(pl.counts))
    native_planted = int(sum(k for o, k in zip(options_ok, pl.counts) if o.native))
    native_share = (native_planted / planted) if planted else None
    if planted and native_planted * 2 <= planted:
        rep_warnings.append(f"native species are not the majority of the replacements ({native_planted} of {planted}): "
                            "replacement trees should predominantly be native (§208-22C)")
    trees_needed = planted + int(pl.trees_in_lieu)
    if required and plantable is None and plantable_area_sqft is None:
        rep_notes.append("no limit on plantable trees given: every needed tree is planted")
    if required and (plantable is not None or plantable_area_sqft is not None) and pl.trees_in_lieu:
        rep_notes.append(f"the site can take {planted} tree(s): the rest goes to the Tree Preservation Fund (§208-22D)")
    if plantable_area_sqft is not None:
        rep_notes.append("plantable area divided by the §208-6A spacing of each tree's size class "
                         f"(small {law['spacing_ft']['small']} ft, medium {law['spacing_ft']['medium']} ft, "
                         f"large {law['spacing_ft']['large']} ft apart; spacing² per tree)")
    if options_ok and required:
        rep_notes.append(f"a tree paid for in lieu stands for the value of one {options_ok[0].species_code} "
                         f"({options_ok[0].value_per_tree_usd:,.2f} on this basis), the first accepted stock entry")
    if violation and required:
        rep_notes.append("§208-22F: the applicant may instead pay the Tree Preservation Fund a sum equivalent to "
                         f"{percent:g}% of the value destroyed, or combine planting and payment")
    if kind == "annual":
        rep_notes.append("the value compared is annual benefits (USD/yr): removed and replacement trees on the same basis")
    fund = in_lieu(schedule, trees_in_lieu=pl.trees_in_lieu if required else 0,
                   unmet_value_usd=pl.unmet_value_usd if required else 0.0)
    if fund["placeholder"] and required and pl.trees_in_lieu:
        warnings.append(f"the fee in lieu is a {schedule.label}")
    replacement = {
        "required": bool(required), "percent": percent if required else None, "section": section,
        "percent_note": pct_note, "violation": bool(violation), "value_basis": options["value_basis"],
        "value_basis_label": options["value_basis_label"],
        "trees_counted": int(counted.sum()), "removals_under_permit": removals_under_permit,
        "min_trees": rules["min_trees"],
        "removed_value_usd": money2(removed_value), "required_value_usd": required_value_usd,
        "excluded": [{"tag": str(t), "species_code": c, "reason": e}
                     for t, c, e, h in zip(trees["tag"], trees["species_code"], exclusion, trees["harmed"]) if e and h],
        "stock": stock_report, "plan": plan_rows,
        "trees_needed": trees_needed if required else 0, "trees_planted": planted,
        "trees_in_lieu": int(pl.trees_in_lieu) if required else 0,
        "planted_value_usd": money2(pl.planted_value_usd), "unmet_value_usd": money2(pl.unmet_value_usd),
        "planting_cost_usd": money2(pl.planting_cost_usd), "native_share": native_share,
        "native_planted": native_planted, "policy": pl.policy, "status": pl.status,
        "warnings": rep_warnings, "notes": rep_notes,
    }
    warnings.extend(rep_warnings)
    # -- penalties dict -----------------------------------------------------------------------
    off = trees[trees["offence"]]
    per_tree = [{"tag": str(r.tag), "species_code": r.species_code, "dbh_in": float(r.dbh_in),
                 "tier": r.penalty_tier, "base_usd": int(r.penalty_base_usd), "max_usd": int(r.penalty_max_usd),
                 "criminal_max_usd": int(r.criminal_max_usd), "criminal_section": r.criminal_section}
                for r in off.itertuples()]
    penalties = {
        "civil_penalty_max_usd": pen.civil_total, "doubled": pen.doubled, "doubling_reasons": pen.doubling_reasons,
        "continuing_days": continuing_days, "criminal_fine_max_usd": pen.criminal_total, "per_tree": per_tree,
        "offences": int(pen.offence.sum()), "clear_cutting": pr.clear_cutting,
        "notes": ["maxima: 'up to' — the Planning Board assesses the civil penalty after a hearing (§208-29B) and "
                  "may release or compromise it; the court sets a criminal fine (§208-29A)",
                  "each day of a continuing violation is a separate offence (§208-29A, §208-29B)",
                  "penalties collected are deposited in the Tree Fund (§208-29H)",
                  OFFENCE_READING, OTHER_PROHIBITIONS_NOTE,
                  "§208-29A: without a second violation within one year (site fact prior_violation_within_year) "
                  "each tree is a separate offence up to $250; with one, up to $1,000 per tree; the §208-18 "
                  "maximum ($5,000) only for trees whose removal broke §208-18A or §208-18C"],
        "sections": ["§208-29A", "§208-29B", "§208-29H"],
    }
    permit = {
        "required": pr.required, "triggers": pr.site_triggers, "exceptions_applied": pr.exceptions_applied,
        "removals_12mo": pr.removals_12mo, "clear_cutting": pr.clear_cutting,
        "trees_needing_permit": int(pr.permit_needed.sum()),
        "approving_authority": "Village Engineer, or the Planning Board where a site plan, subdivision, wetlands "
                               "or steep slopes application is pending (§208-19C)",
    }
    if not n:
        warnings.append("the survey has no trees")
    # -- the statement lines ----------------------------------------------------------------
    L = _survey_lines(survey, trees, lawparams.JURISDICTIONS["croton_on_hudson"])
    L.append(_line("§208-22B", "Value basis", options["value_basis_label"], "", "every value below is on this basis"))
    for t in pr.site_triggers:
        L.append(_line(t["section"], "Permit trigger", t["text"], "", _tags(t["tags"])))
    for e in pr.exceptions_applied:
        L.append(_line(e["section"], "Exception", e["text"]))
    L.append(_line("§208-19", "Tree removal permit required", "yes" if pr.required else "no", "",
                   f"{int(pr.permit_needed.sum())} tree(s) need a permit"))
    unit = options["value_unit"]
    L.append(_line("§208-22", "Trees counted toward replacement", int(counted.sum()), "trees",
                   "after a violation: every tree harmed (§208-22F)" if violation else
                   f"permit for {removals_under_permit} tree(s); replacement when {rules['min_trees']} or more (§208-22A)"))
    for e in replacement["excluded"]:
        L.append(_line(e["reason"].rsplit(" ", 1)[-1], "Not counted", f"tree {e['tag']} ({e['species_code']})", "",
                       e["reason"]))
    L.append(_line("§208-22B", "Value of the trees removed", replacement["removed_value_usd"], unit))
    L.append(_line(section, "Replacement required", "yes" if required else "no", "", pct_note))
    if required:
        L.append(_line(section, "Replacement percentage", int(percent) if float(percent).is_integer() else percent,
                       "%", pct_note))
        L.append(_line(section, "Value required of the replacements", required_value_usd, unit,
                       f"{replacement['removed_value_usd']:,.2f} x {percent:g}%, rounded up to the cent (at least)"))
        for r in stock_report:
            extra = [x for x in r.get("notes", []) if x.startswith("conifer")]
            note = (("accepted; value per tree " + f"{r.get('value_per_tree_usd', 0):,.2f} {unit}; unit cost "
                     f"${r['unit_cost_usd']:,.2f}") if r["accepted"] else "refused: " + "; ".join(r["refusals"]))
            L.append(_line("§208-22D", "Replacement stock", f"{r.get('species_code')} {r.get('dbh_in', 0):g} in"
                           + (f", {r['height_ft']:g} ft" if r.get("height_ft") is not None else ""),
                           "", "; ".join([note] + extra)))
        for p in plan_rows:
            L.append(_line("§208-22D", f"Plant {p['species_code']} {p['dbh_in']:g} in", p["count"], "trees",
                           f"{p['count']} x {p['value_per_tree_usd']:,.2f} = {p['planted_value_usd']:,.2f} {unit}; "
                           f"cost ${p['cost_usd']:,.2f}"))
        L.append(_line(section, "Replacement trees needed", replacement["trees_needed"], "trees"))
        L.append(_line("§208-22D", "Trees planted", planted, "trees"))
        L.append(_line("§208-22D", "Trees not planted (in lieu)", replacement["trees_in_lieu"], "trees"))
        L.append(_line("§208-22D", "Planting cost", replacement["planting_cost_usd"], "USD"))
        if native_share is not None:
            L.append(_line("§208-22C", "Native share of the replacements", round(native_share * 100, 1), "%",
                           f"{native_planted} of {planted}"))
        L.append(_line("§208-24C", "Basis of payment in lieu", fund["basis"], "",
                       fund["label"] if fund["placeholder"] else fund["source"]))
        L.append(_line("§208-24", "Payment in lieu to the Tree Preservation Fund", fund["fund_in_lieu_usd"], "USD",
                       fund["calculation"]))
    L.append(_line("§208-23C", "Forfeited bonds", "to the Tree Preservation Fund"))
    L.append(_line("§208-29", "Offences (trees harmed without a required permit)", int(pen.offence.sum()), "trees"))
    tiers = trees.loc[trees["offence"], ["penalty_tier", "penalty_base_usd"]]
    for tier, g in tiers.groupby("penalty_tier", sort=True):
        L.append(_line(tier, "Civil penalty tier", int(len(g)), "trees",
                       f"up to ${int(g['penalty_base_usd'].iloc[0]):,} per tree"))
    for r in pen.doubling_reasons:
        L.append(_line("§208-29B(7)", "Fines per tree doubled", r.replace(" §208-29B(7)", "")))
    if continuing_days > 1:
        L.append(_line("§208-29B", "Days of continuing violation", continuing_days, "days", "each day a separate offence"))
    L.append(_line("§208-29B", "Civil penalty, maximum", pen.civil_total, "USD", "up to"))
    L.append(_line("§208-29A", "Criminal fine, maximum", pen.criminal_total, "USD",
                   "up to" + ("; " + pen.criminal_section[int(np.flatnonzero(pen.offence)[0])] if pen.offence.any() else "")))
    L.append(_line("§208-29H", "Penalties collected", "to the Tree Fund"))
    method["sections_applied"] = ["§208-17", "§208-19A", "§208-19B", "§208-19E", "§208-22A-F", "§208-6A",
                                  "§208-23C", "§208-24", "§208-29A", "§208-29B", "§208-29H"]
    method["readings"] = list(croton.READINGS) + [OFFENCE_READING, OTHER_PROHIBITIONS_NOTE]
    method["fee_schedule"] = schedule.to_dict()
    return Assessment(survey=survey, jurisdiction="croton_on_hudson", options=options, trees=trees, permit=permit,
                      replacement=replacement, fund=fund, penalties=penalties, wesley_hills=None, lines=L,
                      assumptions=_dedupe(assumptions), warnings=_dedupe(warnings), method=method, site=site)


def _assess_wesley_hills(survey, trees, site_in, law, options, assumptions, warnings, method) -> Assessment:
    site, site_assumptions = croton.resolve_site(site_in, wesley.SITE_DEFAULTS)
    assumptions.extend(site_assumptions)
    # the §208-22B citation of the value basis is Croton's: a jurisdiction-neutral label here
    label = options["value_basis_label"].replace(", §208-22B)", ")")
    options["value_basis_label"] = method["value_basis_label"] = label
    # flags the survey had no column for were filled with False by the reader: not a survey of them
    source = getattr(survey, "source", None) or {}
    not_surveyed = list(source.get("flags_not_surveyed") or []) if isinstance(source, dict) else []
    r = wesley.evaluate(trees, site, law, flags_not_surveyed=not_surveyed)
    assumptions.extend(r.assumptions)
    if options.get("replacement_percent") is not None:
        warnings.append("a replacement percentage was given, but Wesley Hills Chapter 95 has no replacement rule: "
                        "it is not used")
    damaged = int((trees["action"] == "damaged").sum())
    trees["permit_triggers"] = ["; ".join(t) for t in r.triggers]
    trees["permit_needed"] = r.permit_needed
    trees["offence"] = r.offence
    trees["counted"] = False
    trees["exclusion"] = ""
    trees["penalty_tier"] = [wesley.PENALTY_SECTION if o else "" for o in r.offence]
    trees["penalty_base_usd"] = r.fine_usd
    trees["penalty_max_usd"] = r.fine_usd
    trees["criminal_max_usd"] = np.zeros(len(trees), dtype=np.int64)
    fine_total = int(r.fine_usd.sum())
    daily = int(law["fine"]["other_per_day_usd"])
    days = int(options["continuing_days"])
    wh_notes = ["maxima: 'not more than'; a court sets the fine (or up to 15 days' imprisonment)",
                f"other violations of Chapter 95 (not the removal of a tree): up to ${daily:,}, each day's continued "
                f"violation a separate violation ({wesley.OTHER_SECTION}); treecalc assesses no other violation",
                "penalties A has no per-day clause: each tree removed without a clearing permit is one violation "
                "(up to $5,000); days of a continuing violation do not multiply it"]
    if damaged:
        wh_notes.append(f"{damaged} damaged tree(s) still standing: Chapter 95 regulates and fines the removal of "
                        "trees only, so they need no clearing permit and are not fined")
    wh = {
        "permit_required": bool(r.permit_needed.any()),
        "triggers": r.site_triggers,
        "per_tree": [{"tag": str(t), "sections": s} for t, s in zip(trees["tag"], r.triggers) if s],
        "offences": int(r.offence.sum()),
        "fine_per_tree_usd": int(law["fine"]["per_tree_usd"]),
        "fine_max_usd": fine_total,
        "daily_fine_max_usd": daily,
        "continuing_days": days,
        "other_violation_max_usd": daily * days if days > 1 else None,
        "exceptions_applied": r.exceptions_applied,
        "note": wesley.NO_REPLACEMENT_RULE,
        "notes": wh_notes,
    }
    permit = {"required": wh["permit_required"], "triggers": r.site_triggers,
              "exceptions_applied": r.exceptions_applied,
              "trees_needing_permit": int(r.permit_needed.sum()),
              "approving_authority": "Planning Board (clearing permit, §95-3A(1))"}
    replacement = {"required": False, "percent": None, "section": "", "value_basis": options["value_basis"],
                   "value_basis_label": options["value_basis_label"], "removed_value_usd": None,
                   "required_value_usd": None, "stock": [], "plan": [], "trees_needed": None, "trees_planted": None,
                   "trees_in_lieu": None, "planted_value_usd": None, "unmet_value_usd": None,
                   "planting_cost_usd": None, "native_share": None, "warnings": [],
                   "notes": [wesley.NO_REPLACEMENT_RULE + ": no replacement is computed"]}
    fund = {"basis": None, "fee_per_tree_usd": None, "multiplier": None, "placeholder": False, "trees_in_lieu": None,
            "unmet_value_usd": None, "fund_in_lieu_usd": None, "section": "",
            "notes": ["Wesley Hills Chapter 95 has no tree fund or payment in lieu"]}
    penalties = {"civil_penalty_max_usd": None, "doubled": False, "doubling_reasons": [], "continuing_days":
                 options["continuing_days"], "criminal_fine_max_usd": None,
                 "per_tree": [{"tag": str(t), "fine_max_usd": int(f)} for t, f in zip(trees["tag"], r.fine_usd) if f],
                 "fine_max_usd": fine_total, "notes": wh["notes"], "sections": [wesley.PENALTY_SECTION]}
    L = _survey_lines(survey, trees, lawparams.JURISDICTIONS["wesley_hills"])
    L.append(_line("Ch. 95", "Value basis", options["value_basis_label"], "", "tree values only: Chapter 95 has "
                   "no replacement-value rule"))
    for t in r.site_triggers:
        L.append(_line(t["section"], "Clearing permit trigger", t["text"], "", _tags(t["tags"])))
    for e in r.exceptions_applied:
        L.append(_line(e["section"], "Exception", e["text"]))
    L.append(_line("§95-3A(1)", "Clearing permit required", "yes" if wh["permit_required"] else "no", "",
                   f"{int(r.permit_needed.sum())} tree(s)"))
    L.append(_line("Ch. 95", "Replacement", "none", "", wesley.NO_REPLACEMENT_RULE))
    L.append(_line(wesley.PENALTY_SECTION, "Trees removed without a required clearing permit", wh["offences"], "trees"))
    L.append(_line(wesley.PENALTY_SECTION, "Fine, maximum", fine_total, "USD",
                   f"up to ${wh['fine_per_tree_usd']:,} per tree"))
    L.append(_line(wesley.OTHER_SECTION, "Other violations, maximum per day", daily, "USD/day",
                   "up to; each day's continued violation a separate violation; not the removal of a tree"))
    if days > 1:
        L.append(_line(wesley.OTHER_SECTION, f"Other violation continuing {days} days, maximum", daily * days, "USD",
                       f"{days} x ${daily:,}, for each other violation the Engineer finds; not applied to the "
                       f"per-tree fine, which has no per-day clause"))
    method["sections_applied"] = ["§95-3A(1)(c)", "§95-3A(1)(d)", "§95-3A(1)(e)", "§95-3C(2)", "§95-3D(2)",
                                  wesley.PENALTY_SECTION, wesley.OTHER_SECTION]
    method["readings"] = list(wesley.READINGS)
    return Assessment(survey=survey, jurisdiction="wesley_hills", options=options, trees=trees, permit=permit,
                      replacement=replacement, fund=fund, penalties=penalties, wesley_hills=wh, lines=L,
                      assumptions=_dedupe(assumptions), warnings=_dedupe(warnings), method=method, site=site)


def _dedupe(items: list[str]) -> list[str]:
    return [s for s in dict.fromkeys(items) if s]
