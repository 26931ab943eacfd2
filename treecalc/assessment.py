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
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from treecalc import data
from treecalc.benefits import BenefitParams, compute_benefits, make_params, method_notes
from treecalc.fund import load_fee_schedule
from treecalc.results import Fund, Penalties, Permit, Replacement, line
from treecalc.rules import croton_on_hudson as croton
from treecalc.rules import law_data as lawparams
from treecalc.rules import rules_module
from treecalc.schema import BENEFIT_SKIP, FLAG_FIELDS
from treecalc.units import money, number, percent_of_up

SURVEY_FLAGS = FLAG_FIELDS  # the one list: treecalc.schema

#: The offence reading (issue 9), stated in method["readings"] and in the penalty notes.
OFFENCE_READING = croton.OFFENCE_READING_208
OTHER_PROHIBITIONS_NOTE = croton.OTHER_PROHIBITIONS_208


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

    def validated(self) -> AssessOptions:
        o = AssessOptions(**vars(self))
        o.continuing_days = whole_days(self.continuing_days)
        if o.replacement_percent is not None:
            o.replacement_percent = number("replacement percentage", o.replacement_percent, low=0, strict=True)
        if o.plantable is not None and o.plantable_area_sqft is not None:
            raise ValueError("give plantable (a count) or plantable_area_sqft, not both")
        if o.plantable is not None:
            o.plantable = int(number("plantable trees", o.plantable, low=0, whole=True))
        if o.plantable_area_sqft is not None:
            o.plantable_area_sqft = number("plantable area (sq ft)", o.plantable_area_sqft, low=0)
        if o.replacement_height_ft is not None:
            h = float(o.replacement_height_ft)
            if not math.isfinite(h) or h <= 0:
                raise ValueError(
                    f"replacement height must be a finite number of feet > 0, got {self.replacement_height_ft!r}"
                )
            o.replacement_height_ft = h
        return o


def whole_days(value: Any) -> int:
    """Days of a continuing violation: a whole number >= 1, kept exact (a Python int, any size)."""
    if isinstance(value, int) and not isinstance(value, bool):
        n = value
    elif isinstance(value, str) and value.strip().isdigit():
        n = int(value.strip())
    else:
        n = int(number("days of continuing violation", value, low=1, whole=True))
    if n < 1:
        raise ValueError(f"days of continuing violation must be a whole number >= 1, got {value!r}")
    return n


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
    wesley_hills: dict[str, Any] | None = None  # Chapter 95's own summary, set by its rules module

    def _basis_fn(self, basis: str) -> Callable[..., np.ndarray]:
        kind, years, _ = parse_value_basis(basis)
        return _value_fn(kind, years, self.params)

    def capital_value_of(self, trees: pd.DataFrame, mask: np.ndarray, basis: str) -> np.ndarray:
        """The value of the trees in ``mask`` on a capital basis (appraised or cumulative:N), to the cent.

        Each distinct (species, DBH, condition or land use) is valued once.
        """
        if basis == self.options["value_basis"]:
            return trees["value_usd"].to_numpy(float)[mask]
        kind, _, _ = parse_value_basis(basis)
        fn = self._basis_fn(basis)
        third = (
            _condition_for_appraisal(trees["condition"][mask])[0]
            if kind == "appraised"
            else trees["benefit_land_use"].to_numpy(object)[mask]
        )
        c, d, x = trees["species_code"].to_numpy(object)[mask], trees["dbh_in"].to_numpy(float)[mask], third
        first, codes = _distinct_rows(c, d, x)
        kw = {"condition": x[first]} if kind == "appraised" else {"land_use": x[first]}
        values = croton.round_cents(fn(c[first], d[first], **kw))
        return values[codes]

    def stock_capital_value(self, code: str, dbh_in: float, basis: str) -> float:
        """One replacement tree (good condition) on a capital basis, to the cent."""
        v = self._basis_fn(basis)(np.array([code], dtype=object), np.array([float(dbh_in)]))
        return float(croton.round_cents(v)[0])


@dataclass
class Assessment:
    survey: Any
    jurisdiction: str
    options: dict[str, Any]
    trees: pd.DataFrame
    permit: Permit
    replacement: Replacement
    fund: Fund
    penalties: Penalties
    wesley_hills: dict[str, Any] | None
    lines: list[dict[str, Any]]
    assumptions: list[str]
    warnings: list[str]
    method: dict[str, Any]
    site: dict[str, Any] = field(default_factory=dict)
    #: What the assessment was derived from (:mod:`treecalc.fingerprint`), when the caller recorded it.
    fingerprint: dict[str, Any] | None = None

    # -- summaries -------------------------------------------------------------------------
    @property
    def rows_read(self) -> int:
        return int(getattr(self.survey, "rows_read", len(self.trees)))

    @property
    def rejected(self) -> pd.DataFrame:
        r = getattr(self.survey, "rejected", None)
        return r if isinstance(r, pd.DataFrame) else pd.DataFrame()

    def to_json(self) -> dict[str, Any]:
        """The JSON object of ``treecalc assess --json`` (see the issue's Interface): :func:`treecalc.report.json.assessment_json`."""
        from treecalc.report.json import assessment_json

        return assessment_json(self)


def required_value(removed_value_usd: float, percent: float) -> float:
    """The value the replacements must carry: "at least" percent of the value removed (§ 208-22A/F).

    Rounded UP to the cent (exact decimals), so that a plan meeting the rounded figure meets the
    law's: 11.16 x 90% = 10.044 -> 10.05 (10.04 would fall short of 90%).
    """
    return float(percent_of_up(float(removed_value_usd), percent))


# ------------------------------------------------------------------------------------------
# value bases
# ------------------------------------------------------------------------------------------
def parse_value_basis(basis: str) -> tuple[str, int | None, str]:
    """``"annual"`` / ``"cumulative:N"`` / ``"appraised"`` → (kind, years, label)."""
    b = str(basis or "annual").strip().lower()
    if b == "annual":
        return (
            "annual",
            None,
            ("total annual benefits, USD/yr (National Tree Benefit Calculator / i-Tree Streets Northeast, §208-22B)"),
        )
    # (the §208-22B citation is Croton's: Wesley Hills output drops it, see _assess_wesley_hills)
    if b.startswith("cumulative"):
        _, sep, n = b.partition(":")
        try:
            years = int(n) if sep else -1
        except ValueError:
            years = -1
        if years < 1:
            raise ValueError(f"value basis {basis!r}: use cumulative:N with N a whole number of years >= 1")
        return (
            "cumulative",
            years,
            f"benefits over {years} years with growth, USD (i-Tree Streets benefits, UTD growth)",
        )
    if b in ("appraised", "appraisal", "ctla"):
        return "appraised", None, "CTLA replacement value, USD (trunk formula as i-Tree Streets reports it)"
    raise ValueError(f"unknown value basis {basis!r}: use annual, cumulative:N or appraised")


def _value_fn(kind: str, years: int | None, params: BenefitParams) -> Callable[..., np.ndarray]:
    """value(codes, dbh_in, land_use=None, condition=None) -> USD per tree on the basis."""

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
            from treecalc.models import growth

            return np.asarray(
                growth.cumulative_benefits(
                    np.asarray(codes, dtype=object),
                    np.asarray(dbh, dtype=float),
                    years,
                    lambda c, d: annual(c, d, land_use),
                ),
                dtype=float,
            )
        from treecalc.models import appraisal

        cond = "good" if condition is None else condition
        return np.asarray(
            appraisal.replacement_value(np.asarray(codes, dtype=object), np.asarray(dbh, dtype=float), cond),
            dtype=float,
        )

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
    defaults = {
        "tag": "",
        "species": "",
        "action": "retain",
        "condition": "",
        "land_use": "",
        "notes": "",
        "distance_to_residence_ft": np.nan,
        "warnings": "",
    }
    for c, v in defaults.items():
        if c not in t:
            t[c] = v
    for c in SURVEY_FLAGS:
        if c not in t:
            t[c] = pd.array([pd.NA] * len(t), dtype="boolean")
    if "species_code" not in t:
        # a survey read elsewhere may carry names only: resolve them (species, cultivar, genus, common name)
        from treecalc.species import resolve_many

        names = t["species"].fillna("").astype(str)
        table = resolve_many(names) if len(t) else pd.DataFrame({"code": []})
        t["species_code"] = names.map(table["code"]).astype(object)
        unresolved = t["species_code"].isna() | t["species_code"].astype(str).eq("")
        if unresolved.any():
            bad = sorted(set(t.loc[unresolved, "species"].astype(str)))[:5]
            raise ValueError(
                f"species not recognised: {', '.join(map(repr, bad))} (give a species_code column "
                f"or a name treecalc knows)"
            )
    act = croton.actions(t)
    t["action"] = pd.Series(np.where(act == "", "retain", act), index=t.index, dtype=object)
    bad = sorted(set(t["action"].unique()) - set(croton.ACTIONS))
    if bad:
        raise ValueError(f"unknown tree action(s) {bad}: use {', '.join(croton.ACTIONS)}")
    return t


def _condition_for_appraisal(cond: pd.Series) -> tuple[np.ndarray, int]:
    c = croton._norm_text(cond)
    blank = c == ""
    return np.where(blank, "good", c).astype(object), int(blank.sum())


def _value_trees(
    trees: pd.DataFrame, kind: str, value_of: Callable[..., np.ndarray], params: BenefitParams, assumptions: list[str]
) -> None:
    """Benefits per tree and ``value_usd`` on the value basis, rounded half-up to the cent as arrays."""
    if not len(trees):
        trees["value_usd"] = pd.Series(dtype=float)
        trees["usd_total_annual"] = pd.Series(dtype=float)
        return
    ben = compute_benefits(trees[["species_code", "dbh_in", "land_use"]], params)
    new = ben.drop(columns=[c for c in BENEFIT_SKIP if c in ben]).set_axis(trees.index)
    new["benefit_land_use"] = ben["land_use"].to_numpy()
    trees[list(new.columns)] = new  # one assignment for all the benefit columns
    if kind == "annual":
        raw = trees["usd_total_annual"].to_numpy(float)
    elif kind == "cumulative":
        raw = value_of(
            trees["species_code"].to_numpy(object),
            trees["dbh_in"].to_numpy(float),
            land_use=trees["benefit_land_use"].to_numpy(object),
        )
    else:
        cond, blanks = _condition_for_appraisal(trees["condition"])
        if blanks:
            assumptions.append(f"{blanks} tree(s) without a condition are appraised in good condition (CTLA)")
        raw = value_of(trees["species_code"].to_numpy(object), trees["dbh_in"].to_numpy(float), condition=cond)
    trees["value_usd"] = croton.round_cents(raw)


# ------------------------------------------------------------------------------------------
# assess
# ------------------------------------------------------------------------------------------
#: The rules module that assesses each jurisdiction: one registry, treecalc.rules.rules_module.
RULES = {key: rules_module(key) for key in lawparams.JURISDICTIONS}


def assess(
    survey: Any,
    *,
    jurisdiction: str | None = None,
    site: dict[str, Any] | None = None,
    violation: bool | None = None,
    application_pending: bool | None = None,
    clear_cutting: bool | None = None,
    continuing_days: int = 1,
    value_basis: str = "annual",
    replacement_percent: float | None = None,
    replacement_stock: list[dict[str, Any]] | None = None,
    replacement_species: str | None = None,
    replacement_dbh_in: float | None = None,
    replacement_height_ft: float | None = None,
    replacement_cost_usd: Any = None,
    plantable: int | None = None,
    plantable_area_sqft: float | None = None,
    fee_schedule: Any = None,
    fee_per_tree_usd: Any = None,
    in_lieu_policy: str = "plant_first",
    size_waiver: bool = False,
    benefit_params: BenefitParams | None = None,
    progress: Any = None,
    species_map: dict[str, str] | None = None,
    **benefit_kw: Any,
) -> Assessment:
    """Apply the tree law to a survey. See the module docstring and :class:`Assessment`.

    ``survey`` is a :class:`treecalc.ingest.Survey` (or any object with ``trees``,
    ``rejected``, ``site``, ``site_assumptions``, ``warnings``, ``rows_read``) or the path of
    a survey file. ``site`` overrides the survey's site facts; every field must be one
    :data:`treecalc.ingest.SITE_FIELDS` knows (an unknown one is an error naming the closest).
    The keyword options are gathered in :class:`AssessOptions`. ``species_map`` corrects species
    texts in bulk when a file is read (see :func:`treecalc.ingest.read_survey`).
    """
    arguments = locals()  # the keyword arguments as given: nothing else is bound yet
    opts = AssessOptions(**{f.name: arguments[f.name] for f in fields(AssessOptions)}).validated()
    from treecalc.ingest.site import check_site

    given = check_site(site or {}, where="--site")  # before any work: a misspelt fact is an error
    survey = _load_survey(survey, progress, species_map)  # progress(fraction, message) while a file is read
    site_in = {**(getattr(survey, "site", None) or {}), **given}
    assumptions = _survey_assumptions(survey)
    warnings: list[str] = list(getattr(survey, "warnings", None) or [])
    jkey = _jurisdiction(jurisdiction or site_in.get("jurisdiction"), assumptions)
    law = lawparams.law(jkey)
    if opts.application_pending is not None:
        site_in["application_pending"] = bool(opts.application_pending)
    kind, years, basis_label = parse_value_basis(opts.value_basis)
    params = make_params(benefit_params, **benefit_kw)
    resolved_params = params.resolved()
    value_of = _value_fn(kind, years, params)
    trees = _prepare_trees(survey.trees)
    _value_trees(trees, kind, value_of, params, assumptions)
    trees["harmed"] = trees["action"].isin(croton.HARMED).to_numpy(bool)
    options = _options_dict(opts, jkey, kind, years, basis_label, site, resolved_params)
    method = _method(kind, basis_label, options, resolved_params, law, jkey)
    # each argument is named as the field of Context it fills, in the order of its fields
    ctx = Context(survey, trees, site_in, law, opts, options, assumptions, warnings, method, value_of, kind, params)
    ctx.survey_lines = _survey_lines(survey, trees, lawparams.JURISDICTIONS[jkey])
    if jkey == "croton_on_hudson":
        ctx.schedule = load_fee_schedule(opts.fee_schedule, fee_per_tree_usd=opts.fee_per_tree_usd)
        method["fee_schedule"] = ctx.schedule.to_dict()
    found = RULES[jkey].assess(ctx)
    method["sections_applied"] = list(RULES[jkey].SECTIONS_APPLIED)
    method["readings"] = list(RULES[jkey].READINGS) + (
        [OFFENCE_READING, OTHER_PROHIBITIONS_NOTE] if jkey == "croton_on_hudson" else []
    )
    if not len(trees):
        warnings.append("the survey has no trees")
    return Assessment(
        survey=survey,
        jurisdiction=jkey,
        options=options,
        trees=trees,
        wesley_hills=ctx.wesley_hills,
        assumptions=_dedupe(assumptions),
        warnings=_dedupe(warnings),
        method=method,
        **found._asdict(),  # permit, replacement, fund, penalties, lines, site: typed in treecalc.results.Findings
    )


def _survey_assumptions(survey: Any) -> list[str]:
    """What the survey reader assumed that the law engine does not state again itself.

    The reader lists the site facts it was not given with values of its own; the law engine
    decides what it assumes for each fact it uses and says so itself (resolve_site), so the
    reader's list is only carried for a survey that does not record its site facts apart.
    """
    if getattr(survey, "site_assumed", None) is not None:
        return list(getattr(survey, "data_assumptions", None) or [])
    return list(getattr(survey, "site_assumptions", None) or [])


def prepare(jurisdiction: str | None = None) -> None:
    """Load what a first :func:`assess` reads: the i-Tree tables, the species catalogue and index, the
    benefit tables at the default prices and the law of ``jurisdiction`` (Croton-on-Hudson's if not given).

    Nothing is assessed and nothing is returned: the command line calls it while its child process
    reads the survey, so that work is not waited for afterwards. An unknown jurisdiction is left for
    :func:`assess` to report.
    """
    compute_benefits(pd.DataFrame({"species": ["Acer rubrum"], "dbh_in": [10.0], "land_use": ["single_family"]}))
    try:
        lawparams.law(jurisdiction or "croton_on_hudson")
    except ValueError:
        pass


def _jurisdiction(j: str | None, assumptions: list[str]) -> str:
    """The one key of the jurisdiction given, or Croton-on-Hudson's, said as an assumption."""
    if not j:
        assumptions.append(
            "jurisdiction not given: the survey is assessed under Croton-on-Hudson Chapter 208 "
            "(give --jurisdiction or the Site sheet's jurisdiction)"
        )
        return "croton_on_hudson"
    return lawparams.jurisdiction_key(j)


def _method(
    kind: str, basis_label: str, options: dict[str, Any], resolved_params: Any, law: dict[str, Any], jkey: str
) -> dict[str, Any]:
    """The method and sources of an assessment (the statement's Method & sources)."""
    method: dict[str, Any] = {
        "value_basis": options["value_basis"],
        "value_basis_label": basis_label,
        "benefit_parameters": resolved_params,
        "data_sources": [data.SOURCE_NAME],
        "law": f"{law['name']}, {law['chapter']}",
        "law_file": str(lawparams.LAW_DIR / f"{jkey}.toml"),
        "science_notes": method_notes(resolved_params),
    }
    if kind == "cumulative":
        method["data_sources"].append(
            "growth: Urban Tree Database (McPherson et al. 2016) and i-Tree Streets "
            "age-class curves; no mortality, no discounting"
        )
    if kind == "appraised":
        method["data_sources"].append("CTLA trunk formula with i-Tree Streets Northeast appraisal parameters")
    return method


def _options_dict(
    opts: AssessOptions,
    jkey: str,
    kind: str,
    years: int | None,
    basis_label: str,
    site: dict[str, Any] | None,
    resolved_params: Any,
) -> dict[str, Any]:
    """The options as the JSON and the statement show them."""
    fs = opts.fee_schedule
    return {
        "jurisdiction": jkey,
        "value_basis": f"{kind}:{years}" if kind == "cumulative" else kind,
        "value_basis_label": basis_label,
        # the unit of every value on the basis: annual benefits are a rate, the others a sum
        "value_unit": "USD/yr" if kind == "annual" else "USD",
        "violation": opts.violation,
        "application_pending": opts.application_pending,
        "clear_cutting": opts.clear_cutting,
        "continuing_days": opts.continuing_days,
        "replacement_percent": opts.replacement_percent,
        "replacement_stock": opts.replacement_stock,
        "replacement_species": opts.replacement_species,
        "replacement_dbh_in": opts.replacement_dbh_in,
        "replacement_height_ft": opts.replacement_height_ft,
        "replacement_cost_usd": None if opts.replacement_cost_usd is None else float(money(opts.replacement_cost_usd)),
        "plantable": opts.plantable,
        "plantable_area_sqft": opts.plantable_area_sqft,
        "fee_schedule": fs if not isinstance(fs, Path) else str(fs),
        "fee_per_tree_usd": None if opts.fee_per_tree_usd is None else float(money(opts.fee_per_tree_usd)),
        "in_lieu_policy": opts.in_lieu_policy,
        "size_waiver": opts.size_waiver,
        "site": dict(site or {}),
        "benefit_parameters": resolved_params,
    }


def _line(section: str, item: str, value: Any, unit: str = "", note: str = "") -> dict[str, Any]:
    return line(section, item, value, unit, note)


def _survey_lines(survey: Any, trees: pd.DataFrame, jname: str) -> list[dict[str, Any]]:
    rej = getattr(survey, "rejected", None)
    act = trees["action"].value_counts() if len(trees) else pd.Series(dtype=int)
    return [
        _line("Survey", "Jurisdiction", jname),
        _line("Survey", "Rows read", int(getattr(survey, "rows_read", len(trees))), "rows"),
        _line("Survey", "Trees accepted", len(trees), "trees"),
        _line(
            "Survey", "Rows rejected", len(rej) if isinstance(rej, pd.DataFrame) else 0, "rows", "see the Rejected rows"
        ),
        *[
            _line("Survey", f"Trees marked {a.replace('_', ' ')}", int(act.get(a, 0)), "trees")
            for a in croton.ACTIONS
            if a in ("retain", "remove", "removed", "damaged") or act.get(a, 0)
        ],
    ]


def _dedupe(items: list[str]) -> list[str]:
    return [s for s in dict.fromkeys(items) if s]
