"""``assess(survey, **options) -> Assessment``: what the tree law requires of a survey, section by section.

One entry point for the CLI, the Excel statement and the app. It values every tree
(:func:`treecalc.models.benefits.compute_benefits`, on the chosen value basis), applies the
jurisdiction's rules (:mod:`treecalc.rules`), plans the replacement planting
(:mod:`treecalc.models.planting`), prices the payment in lieu (Croton-on-Hudson's :mod:`treecalc.rules.croton_on_hudson.schedule`), and
writes the statement as ``lines`` (section, item, value, unit, note) with every
assumption and warning.

Value bases (shown on every output):

- ``annual``: total annual benefits, USD/yr, as the National Tree Benefit Calculator reports
  them (i-Tree Streets, Northeast) — the methodology § 208-22B names;
- ``cumulative:N``: expected benefits over N years with growth and annual mortality
  (:func:`treecalc.models.growth.cumulative_benefits`; the rate given, the fee schedule's, or
  Roman & Scatena's 4.3 %/yr; no discounting);
- ``appraised``: the CTLA replacement value i-Tree Streets reports
  (:func:`treecalc.models.appraisal.replacement_value`, by the tree's condition).

Examples
--------
>>> import treecalc
>>> from treecalc.reference.data import SAMPLE_SURVEY
>>> a = treecalc.assess(SAMPLE_SURVEY, on="2026-03-01")
>>> a.rows_read, len(a.trees), len(a.rejected)  # data/examples/README.md: tag 17's DBH 'twelve' rejected
(40, 39, 1)
>>> [(part.section, part.trees, part.percent) for part in a.replacement.parts]  # 120 % after a violation
[('§208-22F', 1, 120.0), ('§208-22A', 8, 90.0)]
"""

from __future__ import annotations

import datetime as _dt
import functools
import re
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from treecalc.frames import actions, some_tags
from treecalc.ingest.errors import require_trees
from treecalc.ingest.site import check_site, site_facts_not_read
from treecalc.ingest.zone import chosen_words, read_survey_in_zone
from treecalc.law import access as lawparams
from treecalc.law import cites, in_force_note
from treecalc.law import registry as jurisdictions
from treecalc.models import growth
from treecalc.models import projection as projections
from treecalc.models.benefits import (
    BenefitParams,
    compute_benefits,
    make_params,
    method_notes,
    survey_zone,
    zone_source,
)
from treecalc.models.valuation import (
    parse_value_basis,
    value_function,
    value_in_zone,
    value_trees,
)
from treecalc.money import money, percent_of_up
from treecalc.reference import data, datafolder
from treecalc.reference.geo import XY_AS_WGS84
from treecalc.reference.species import resolve_many
from treecalc.results import ChapterSummary, Fund, Penalties, Permit, QuotedLabels, Replacement, line
from treecalc.rules import flag_bounds, pruning, quoted, rules_module
from treecalc.rules.context import AssessOptions as AssessOptions
from treecalc.rules.context import Context as Context
from treecalc.schema import ACTIONS, FLAG_FIELDS, HARMED

SURVEY_FLAGS = FLAG_FIELDS  # the one list: treecalc.schema

#: The statement's line on dead trees (condition dead, or a census status "Dead").
DEAD_TREE_LINE = "no leaf area, so no environmental value: annual benefits 0 and value 0 on every basis"


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
    lines: list[dict[str, Any]]
    assumptions: list[str]
    warnings: list[str]
    method: dict[str, Any]
    site: dict[str, Any] = field(default_factory=dict)
    #: The law's own figures no other finding holds (:class:`treecalc.results.ChapterSummary`), if it has any.
    summary: ChapterSummary | None = None
    #: The site facts the law read that were not given (:attr:`treecalc.results.Findings.site_assumed`).
    site_assumed: tuple[str, ...] = ()
    #: What the assessment was derived from (:mod:`treecalc.report.fingerprint`), when the caller recorded it.
    fingerprint: dict[str, Any] | None = None
    #: The labels that quote a number of the law, of the law in force on the assessment's date ("Slope over 20%").
    labels: QuotedLabels = field(default_factory=QuotedLabels)

    @property
    def rows_read(self) -> int:
        return int(getattr(self.survey, "rows_read", len(self.trees)))

    @property
    def rejected(self) -> pd.DataFrame:
        r = getattr(self.survey, "rejected", None)
        return r if isinstance(r, pd.DataFrame) else pd.DataFrame()

    @functools.cached_property
    def projection(self) -> pd.DataFrame:
        """:func:`treecalc.models.projection.projection` over its horizon, once, when first read (a plan's are not)."""
        return projections.projection(self, projections.HORIZON_YEARS)

    @functools.cached_property
    def projection_summary(self) -> dict[str, Any]:
        """:func:`treecalc.models.projection.summary` (mortality, payback), once."""
        return projections.summary(self)


def required_value(removed_value_usd: float, percent: float) -> float:
    """The value the replacements must carry: "at least" percent of the value removed (§ 208-22A/F).

    Rounded UP to the cent (exact decimals), so that a plan meeting the rounded figure meets the
    law's: 11.16 x 90% = 10.044 -> 10.05 (10.04 would fall short of 90%).
    """
    return float(percent_of_up(float(removed_value_usd), percent))


# ------------------------------------------------------------------------------------------
# the survey
# ------------------------------------------------------------------------------------------
def _read_zone(params: BenefitParams | None, kw: dict[str, Any], site: dict[str, Any]) -> str | None:
    """The climate zone a survey file is read in when one is given (the option, or the site fact ``climate_zone``)."""
    zone = kw.get("zone") or (params.zone if params else None) or site.get("climate_zone")
    return str(zone) if zone else None


def _load_survey(
    survey: Any,
    progress: Any = None,
    species_map: dict[str, str] | None = None,
    zone: str | None = None,
    column_map: dict[str, str] | None = None,
) -> Any:
    """The survey (read from its path), refused when no tree could be read from it
    (:class:`~treecalc.ingest.NoTreeReadError`): "no permit required" would be said of trees never read."""
    if isinstance(survey, (str, Path)):
        survey = read_survey_in_zone(survey, zone, progress=progress, species_map=species_map, column_map=column_map)
    elif not hasattr(survey, "trees"):
        raise TypeError("assess() needs a Survey (with .trees) or the path of a survey file")
    require_trees(survey)
    return survey


def _survey_warnings(survey: Any, site: dict[str, Any]) -> list[str]:
    """The survey's warnings, but x/y read as degrees when a crs is given: with one the x/y are projected in it."""
    warnings: list[str] = list(getattr(survey, "warnings", None) or [])
    if site.get("crs"):
        warnings = [w for w in warnings if w != XY_AS_WGS84]
    return warnings


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
    act = actions(t)
    t["action"] = pd.Series(np.where(act == "", "retain", act), index=t.index, dtype=object)
    bad = sorted(set(t["action"].unique()) - set(ACTIONS))
    if bad:
        raise ValueError(f"unknown tree action(s) {bad}: use {', '.join(ACTIONS)}")
    return t


# ------------------------------------------------------------------------------------------
# assess
# ------------------------------------------------------------------------------------------


#: Every registered law's rules module, loaded with the assessment: the law files each reads are then read once
#: per process, so a fingerprint lists the same data files whichever law a process applied first.
RULES = {key: rules_module(key) for key in jurisdictions.REGISTRY}


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
    mortality: float | None = None,
    on: Any = None,
    fee_schedule_in_force: dict[str, Any] | None = None,
    benefit_params: BenefitParams | None = None,
    progress: Any = None,
    species_map: dict[str, str] | None = None,
    column_map: dict[str, str] | None = None,
    **benefit_kw: Any,
) -> Assessment:
    """Apply the tree law to a survey. See the module docstring and :class:`Assessment`.

    ``survey`` is a :class:`treecalc.ingest.Survey` (or any object with ``trees``, ``rejected``, ``site``,
    ``site_assumptions``, ``warnings``, ``rows_read``) or the path of a survey file. ``site`` overrides the
    survey's site facts; every field must be one :data:`treecalc.ingest.SITE_FIELDS` knows (an unknown one is an
    error naming the closest). The keyword options are gathered in :class:`AssessOptions`. ``species_map``
    corrects species texts in bulk and ``column_map`` says what a column is (``{"Recommendation": "action"}``)
    when a file is read (see :func:`treecalc.ingest.read_survey`).
    """
    arguments = locals()  # the keyword arguments as given: nothing else is bound yet
    opts = AssessOptions(**{f.name: arguments[f.name] for f in fields(AssessOptions)}).validated()

    # the facts in one order whatever order they were given in: a statement's fingerprint keeps its options with
    # sorted keys, and the assessment derived again from it must list (and hash) the facts as the first did
    site = dict(sorted(site.items())) if site else site
    given = check_site(site or {}, where="‹site›")  # before any work: a misspelt fact is an error
    survey = _load_survey(survey, progress, species_map, _read_zone(benefit_params, benefit_kw, given), column_map)
    site_in = {**(getattr(survey, "site", None) or {}), **given}
    assumptions = _survey_assumptions(survey)
    warnings = _survey_warnings(survey, site_in)
    warnings.extend(_unread_columns(survey))
    jkey = _jurisdiction(jurisdiction or site_in.get("jurisdiction"), assumptions)
    record = jurisdictions.by_key(jkey)
    rules = rules_module(jkey)
    _other_law_flags(assumptions, survey, record)
    _other_law_columns(assumptions, record)
    on_date, law = _law_in_force(jkey, opts, assumptions)
    if opts.application_pending is not None:
        site_in["application_pending"] = bool(opts.application_pending)
    zone = _survey_zone(survey, site_in, benefit_params, benefit_kw, warnings)
    per_tree, planted = zone.pop("per_tree"), zone.pop("planted")
    # the label names the zones whose tables value the trees (a Charlotte survey is not valued in the Northeast's)
    kind, years, basis_label = parse_value_basis(opts.value_basis, _zone_words(zone), zone_codes(zone))
    if kind == "annual" and record.value_section:  # the section of the law that names this basis, on the date
        named = jurisdictions.said(record.value_section, cites.sections(jkey, on_date))
        basis_label = f"{basis_label[:-1]}, {named})"
    params = make_params(benefit_params, **benefit_kw)
    resolved_params = params.resolved()
    # a law with a fund reads its fee schedule in force on the date (Croton-on-Hudson's Board sets it); one without has none
    schedule_of = getattr(rules, "fee_schedule", None)
    schedule = schedule_of(opts, on_date) if schedule_of is not None else None
    mortality, mortality_source = _mortality(opts, schedule)
    appraisal10 = getattr(schedule, "appraisal", None)  # the fee schedule's appraisal_edition = 10
    basis_label = _basis_label(basis_label, kind, mortality, appraisal10)
    value_of = value_function(kind, years, params, mortality, appraisal10)
    trees = _prepare_trees(survey.trees)
    # "Pruned 25%", "Slope over 10%": the law in force says what a share or a header's number establishes
    assumptions.extend(pruning.read_shares(trees, jkey, law))
    warnings.extend(flag_bounds.read_bounds(trees, survey, jkey, law))
    # trees in several zones: each valued by its own zone's parameters
    in_zone = functools.partial(value_in_zone, kind, years, params, mortality, appraisal10)
    value_trees(trees, kind, value_of, params, assumptions, appraisal10, per_tree, in_zone)
    trees["harmed"] = trees["action"].isin(HARMED).to_numpy(bool)
    options = _options_dict(opts, jkey, kind, years, basis_label, site, resolved_params)
    options["mortality_rate"], options["mortality_source"], options["on"] = mortality, mortality_source, str(on_date)
    options["appraisal_edition"], options["appraisal"] = (9, None) if appraisal10 is None else (10, appraisal10)
    _appraisal_assumption(options, schedule, kind, assumptions)
    # on the appraised basis every tree is appraised; on another, only those a finding values so (said below)
    _appraisal_zone_assumption(trees, np.ones(len(trees), dtype=bool) if kind == "appraised" else None, assumptions)
    options["zone"] = zone
    method = _method(kind, basis_label, options, resolved_params, law, jkey, params)
    # each argument is named as the field of Context it fills, in the order of its fields
    ctx = Context(survey, trees, site_in, law, opts, options, assumptions, warnings, method, value_of, kind, params)
    ctx.survey_lines = _survey_lines(survey, trees, record.name)
    if schedule is not None:
        ctx.schedule = schedule
        method["fee_schedule"] = schedule.to_dict()
    _options_not_read(jkey, opts, warnings, site_in, on_date)
    found = rules.assess(ctx)
    _appraisal_zone_assumption(trees, None if kind == "appraised" else ctx.appraised, assumptions)
    _fund_basis_note(found, schedule, appraisal10)
    method["sections_applied"] = list(rules.SECTIONS_APPLIED)
    items = _law_readings(rules, record.name, law) + ctx.readings  # a town held as data: its own readings
    method["readings"] = [text for _, text in items]
    method["reading_items"] = [{"section": sec, "reading": text} for sec, text in items]
    _closing_warnings(trees, found, planted, warnings)
    quoted.record_entries(found, jkey, on_date)
    return Assessment(
        labels=quoted.quoted_labels(on_date, jkey),
        survey=survey,
        jurisdiction=jkey,
        options=options,
        trees=trees,
        assumptions=_dedupe(assumptions),
        warnings=_dedupe(warnings),
        method=method,
        **found._asdict(),  # permit, replacement, fund, penalties, lines, site, summary, site_assumed: Findings
    )


def _basis_label(label: str, kind: str, mortality: float, appraisal10: Any) -> str:
    """The value basis's label with the mortality a cumulative value assumes, or the edition an appraisal follows
    (the fee schedule's ``appraisal_edition = 10``)."""
    if kind == "cumulative":
        label = label.replace("with growth", f"with growth and {mortality:.1%}/yr mortality")
    if kind == "appraised" and appraisal10 is not None:
        from treecalc.models.appraisal10 import describe  # start-up: only when needed, not by every assess

        label = f"appraised value, USD ({describe(appraisal10)})"
    return label


def _closing_warnings(trees: Any, found: Any, planted: list[str], warnings: list[str]) -> None:
    """What is said once the law is applied: the zone the trees to be planted are valued in (``planted``) when a
    replacement is required (none are planted otherwise), and a survey without trees."""
    if getattr(found.replacement, "required", False):
        warnings.extend(planted)
    if not len(trees):
        warnings.append("the survey has no trees")


def _unread_columns(survey: Any) -> list[str]:
    """The survey's columns no field reads: what a crew wrote there (an approval, a permit) is not given to the
    law, so it is said, never dropped."""
    unread = (getattr(survey, "source", None) or {}).get("unmapped") or []
    if not unread:
        return []
    return [
        "columns not read (what they say is not given): "
        + ", ".join(repr(h) for h in unread)
        + "; name one with ‹column_map=Header=field› if it holds a fact"
    ]


def _fund_basis_note(found: Any, schedule: Any, appraisal10: Any) -> None:
    """A fund paid on the 10th edition's appraised values says which values (the fund's capital basis)."""
    if (
        appraisal10 is not None
        and schedule is not None
        and schedule.value_basis == "appraised"
        and found.fund.fund_in_lieu_usd is not None
    ):
        from treecalc.models.appraisal10 import describe  # start-up: only when needed, not by every assess

        found.fund.notes.append(f"appraised values (the fund's capital basis): {describe(appraisal10)}")


def _options_not_read(
    jkey: str, opts: AssessOptions, warnings: list[str], site_in: dict[str, Any], on: _dt.date
) -> None:
    """An option or a site fact only another law reads is never silently dropped: said here (the command line
    refuses such an option or ‹site› fact; a Site sheet's is the surveyor's data, said, not refused)."""
    unread = jurisdictions.options_not_read(jkey, opts)
    if unread:
        # each option's label cites its law's sections in force on the date assessed
        said = jurisdictions.OptionsNotRead(jkey, unread, lambda k: cites.sections(k, on))
        warnings.append(said.message(refused=False))
    # an option set as a site fact (application_pending) is said once, as the option

    warnings.extend(site_facts_not_read(jkey, {k: v for k, v in site_in.items() if k not in unread}))


def _law_readings(rules: Any, name: str, law: dict[str, Any]) -> list[tuple[str, str]]:
    """The rules' readings, then those they state of the assessment as a whole (Chapter 208: offences, dead
    trees), each quoting ``law``, the law in force on the assessment's date, where the rules build their readings
    from it (``reading_items(law)``, ``reading_texts(law)``, ``assessment_reading_items(law)``); the readings
    fixed at import (the latest law held) only for rules that build none."""
    whole = getattr(rules, "assessment_reading_items", None)
    extra = whole(law) if callable(whole) else getattr(rules, "ASSESSMENT_READING_ITEMS", ())
    return reading_items(rules, name, law) + [(str(sec), str(text)) for sec, text in extra]


def _law_in_force(jkey: str, opts: AssessOptions, assumptions: list[str]) -> tuple[_dt.date, dict[str, Any]]:
    """The date the law is read on (``on``, else today) and the law in force then, said as an assumption; a date
    before the earliest version held is :class:`treecalc.law.LawNotInForce` (a ValueError) naming it."""
    on_date = opts.on or _dt.date.today()
    law = lawparams.law(jkey, on_date)
    assumptions.append(in_force_note(jkey, on_date))
    return on_date, law


_SECTION = re.compile(r"§\s?\d+-\d+[A-Z]?(?:\(\w+\))*")


def reading_items(module: Any, chapter: str, law: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    """A rules module's readings as (section, reading): its ``reading_items(law)`` (or ``READING_ITEMS``), or each
    of its ``reading_texts(law)`` (or ``READINGS``) under the first section it names (the chapter's name for one
    that names none). With ``law`` given, the readings quote it (the law in force on the assessment's date)."""
    build_items, build_texts = getattr(module, "reading_items", None), getattr(module, "reading_texts", None)
    items = build_items(law) if law is not None and callable(build_items) else getattr(module, "READING_ITEMS", None)
    if items is not None:
        return [(str(sec), str(text)) for sec, text in items]
    texts = build_texts(law) if law is not None and callable(build_texts) else module.READINGS
    out = []
    for text in texts:
        m = _SECTION.search(text)
        out.append((m.group(0) if m else chapter, text))
    return out


def _appraisal_assumption(options: dict[str, Any], schedule: Any, kind: str, assumptions: list[str]) -> None:
    """Say the 10th edition's placeholder unit cost wherever appraised values are used."""
    a10 = options.get("appraisal")
    used = kind == "appraised" or getattr(schedule, "value_basis", "") == "appraised"
    if a10 is not None and used and a10.get("placeholder"):
        assumptions.append(
            "Guide for Plant Appraisal, 10th ed.: the unit cost is a PLACEHOLDER (each species' i-Tree Streets "
            "replacement tree, installed cost / trunk area) until a local nursery quote is given "
            "(appraisal_unit_cost_usd_per_sqin in the fee schedule)"
        )


def _appraisal_zone_assumption(trees: pd.DataFrame, appraised: np.ndarray | None, assumptions: list[str]) -> None:
    """Appraised values of trees outside the Northeast read the Northeast's CTLA species parameters (i-Tree
    Streets publishes them for the Northeast only; no other zone's are held): said of the trees ``appraised``
    (the mask of those whose appraised value is used; None: none), and only when there are any."""
    if appraised is None or "zone" not in trees or not len(trees):
        return

    outside = trees["zone"].astype(str)[np.asarray(appraised, dtype=bool)]
    outside = outside[outside != data.DEFAULT_ZONE]
    if not len(outside):
        return
    counts = ", ".join(f"{n} in {z}" for z, n in outside.value_counts().items())
    assumptions.append(
        f"appraised values (CTLA) of the {len(outside)} tree(s) outside the Northeast ({counts}) use the Northeast's "
        "CTLA species parameters (species rating, basic price, replacement tree): i-Tree Streets publishes them for "
        "the Northeast only; a species the Northeast lacks takes those of its generic row of the same tree type"
    )


def _mortality(opts: AssessOptions, schedule: Any) -> tuple[float, str]:
    """The annual mortality of the projections and the cumulative basis, and where it comes from: the
    option given, else the fee schedule's, else the literature's default (Roman & Scatena 2011)."""
    if opts.mortality is not None:
        return opts.mortality, "given"
    if schedule is not None and getattr(schedule, "mortality_rate", None) is not None:
        return float(schedule.mortality_rate), f"fee schedule ({schedule.source})"
    return growth.default_mortality_rate(), str(data.mortality()["source"])


def _survey_zone(
    survey: Any, site: dict[str, Any], params: BenefitParams | None, kw: dict[str, Any], warnings: list[str]
) -> dict[str, Any]:
    """The climate zone the trees are valued in (:func:`treecalc.ingest.zone.survey_zone`): ``kw`` gains it
    when it is not the Northeast found by default or from coordinates (whose tables are the default's).
    Its ``planted``: trees in several zones, the words of the one zone a tree to be planted is valued in, said by the
    caller when the law requires a replacement."""
    given = kw.get("zone") or (params.zone if params else None)
    sz = survey_zone(getattr(survey, "trees", None), site, given)
    if sz.zone != data.DEFAULT_ZONE or sz.source in ("given", "site fact climate_zone") or sz.per_tree is not None:
        kw["zone"] = sz.zone  # trees in several zones: the zones' tables, each tree's own prices
    if sz.source == "tree coordinates" or sz.placed or sz.per_tree is not None:  # trees placed in no zone too
        warnings.extend(sz.notes)
    else:  # a zone given over the survey's column or a site fact, or the column over the fact: said, not dropped
        warnings.extend(sz.overrides)
    name = str(data.zones().at[sz.zone, "name"])
    planted = []
    if sz.per_tree is not None:  # a tree to be planted has no zone of its own in the survey
        planted.append(
            f"the trees to be planted (the replacement stock's value per tree) are valued in the {name} zone "
            f"({sz.zone}), {chosen_words(sz)}; ‹zone› values every tree in one zone"
        )
    out: dict[str, Any] = {
        "zone": sz.zone,
        "zone_name": name,
        "source": sz.source,
        "notes": list(sz.notes),
    }
    if sz.per_tree is not None:  # trees in several zones, each valued in its own: the zones and their trees
        out["zones"] = [{"zone": z, "zone_name": str(data.zones().at[z, "name"]), "trees": n} for z, n in sz.counts]
    return {**out, "per_tree": sz.per_tree, "planted": planted}


def zone_codes(zone: dict[str, Any]) -> list[str]:
    """The codes of the climate zones the trees are valued in (``options["zone"]``), in the order it lists them."""
    return [str(z["zone"]) for z in zone["zones"]] if "zones" in zone else [str(zone["zone"])]


def _zone_words(zone: dict[str, Any]) -> str:
    """The zone the trees are valued in, in words: ``Piedmont (PiedmtCLT)``; trees in several zones, each in its
    own: ``climate zones, each tree its own: Piedmont (PiedmtCLT) 3 trees, ...``."""
    if "zones" not in zone:
        return f"{zone['zone_name']} ({zone['zone']})"
    each = ", ".join(
        f"{z['zone_name']} ({z['zone']}) {z['trees']} {'tree' if z['trees'] == 1 else 'trees'}" for z in zone["zones"]
    )
    return f"climate zones, each tree its own: {each}"


def _survey_assumptions(survey: Any) -> list[str]:
    """What the survey reader assumed that the law engine does not state again itself.

    The reader lists the site facts it was not given with values of its own; the law engine
    decides what it assumes for each fact it uses and says so itself (resolve_site), so the
    reader's list is only carried for a survey that does not record its site facts apart.
    """
    if getattr(survey, "site_assumed", None) is not None:
        return list(getattr(survey, "data_assumptions", None) or [])
    return list(getattr(survey, "site_assumptions", None) or [])


def _other_law_flags(assumptions: list[str], survey: Any, record: jurisdictions.Jurisdiction) -> None:
    """The survey's "not surveyed" assumptions restated for the law applied: only the flags it reads (a
    Croton-on-Hudson assessment assumes nothing of Wesley Hills' lot-line flag), those it takes as no said so, and
    none of those it takes as yes (:attr:`~treecalc.law.registry.Jurisdiction.flags_unsurveyed_yes`): its rules say
    those themselves, with the trees they count. The reader wrote them for the law it knew, or for none."""
    # start-up: only when needed, not by every assess
    from treecalc.ingest.survey import NOT_SURVEYED, not_surveyed_text

    source = getattr(survey, "source", None)
    flags = list(source.get("flags_not_surveyed") or []) if isinstance(source, dict) else []
    at = [i for i, a in enumerate(assumptions) if a.startswith(NOT_SURVEYED)]
    if not at or not flags:  # a survey object that does not say which flags it lacked: its words kept
        return
    kept = [f for f in flags if f in record.survey_flags and f not in record.flags_unsurveyed_yes]
    rest = [a for a in assumptions if not a.startswith(NOT_SURVEYED)]
    assumptions[:] = rest[: at[0]] + not_surveyed_text(kept, record.key) + rest[at[0] :]


def _other_law_columns(assumptions: list[str], record: jurisdictions.Jurisdiction) -> None:
    """Without the survey's "not surveyed" assumption of a column only other laws read."""
    from treecalc.ingest.survey import without_other_laws_columns  # start-up: only when needed, not by every assess

    assumptions[:] = without_other_laws_columns(assumptions, record.key)


def prepare(jurisdiction: str | None = None) -> None:
    """Load what a first :func:`assess` reads: the i-Tree tables, the species catalogue and index, the
    benefit tables at the default prices and the law of ``jurisdiction`` (Croton-on-Hudson's if not given).

    Nothing is assessed or returned: the command line calls it while its child process reads the survey, so
    that work is not waited for afterwards. An unknown jurisdiction is left for :func:`assess` to report.
    """
    compute_benefits(pd.DataFrame({"species": ["Acer rubrum"], "dbh_in": [10.0], "land_use": ["single_family"]}))
    try:
        lawparams.law(jurisdiction or jurisdictions.DEFAULT)
    except ValueError:
        pass


def _jurisdiction(j: str | None, assumptions: list[str]) -> str:
    """The one key of the jurisdiction given, or the default law's (:data:`treecalc.law.registry.DEFAULT`) said."""
    if not j:
        assumptions.append(
            f"jurisdiction not given: the survey is assessed under {jurisdictions.by_key(jurisdictions.DEFAULT).chapter} "
            "(give ‹jurisdiction› or the Site sheet's jurisdiction)"
        )
        return jurisdictions.DEFAULT
    return lawparams.jurisdiction_key(j)


def _method(
    kind: str,
    basis_label: str,
    options: dict[str, Any],
    resolved_params: Any,
    law: dict[str, Any],
    jkey: str,
    params: BenefitParams | None = None,
) -> dict[str, Any]:
    """The method and sources of an assessment (the statement's Method & sources): the science notes of every
    climate zone the trees are valued in (``params`` in each of them)."""
    method: dict[str, Any] = {
        "value_basis": options["value_basis"],
        "value_basis_label": basis_label,
        "benefit_parameters": resolved_params,
        "data_sources": _zone_sources(options["zone"]),
        "law": f"{law['name']}, {law['chapter']}",
        "law_file": datafolder.in_folder(lawparams.law_file(jkey)),
        "science_notes": _zone_notes(resolved_params, params, zone_codes(options["zone"])),
    }
    if kind == "cumulative":
        method["data_sources"].append(
            f"growth: {_growth_source(zone_codes(options['zone']))}; annual mortality {options['mortality_rate']:.1%} "
            f"({options['mortality_source']}); no discounting"
        )
    if kind == "appraised" and options.get("appraisal") is not None:
        from treecalc.models.appraisal10 import describe  # start-up: only when needed, not by every assess

        method["data_sources"].append(describe(options["appraisal"]))
    elif kind == "appraised":
        method["data_sources"].append(
            "CTLA trunk formula (Guide for Plant Appraisal, 9th ed.) with i-Tree Streets Northeast appraisal parameters"
        )
    return method


def _zone_sources(zone: dict[str, Any]) -> list[str]:
    """The tables and prices of each climate zone the trees are valued in (the Northeast's: its Community Tree
    Guide's resource tables, :data:`treecalc.reference.data.SOURCE_NAME`)."""
    return [data.SOURCE_NAME if z == data.DEFAULT_ZONE else zone_source(z) for z in zone_codes(zone)]


def _zone_notes(resolved_params: Any, params: BenefitParams | None, zones: list[str]) -> list[str]:
    """The science notes of the parameters, then those of each other zone the trees are valued in (a survey
    whose trees lie in several: each zone's tables, prices and growth have limits of their own)."""
    notes = method_notes(resolved_params)
    own = str(resolved_params.get("zone") or data.DEFAULT_ZONE)
    for z in zones:
        if params is not None and z != own:
            notes += [n for n in method_notes(make_params(params, zone=z).resolved()) if n not in notes]
    return notes


def _growth_source(zones: list[str]) -> str:
    """The growth curves of the cumulative basis in the climate zones ``zones``: the Urban Tree Database equations
    and the age-class curves in the Northeast, each other zone's own age-class curves."""
    others = [z for z in zones if z != data.DEFAULT_ZONE]
    northeast = "Urban Tree Database (McPherson et al. 2016) and i-Tree Streets age-class curves"
    if not others:
        return northeast
    own = f"i-Tree Streets age-class curves of the {' and '.join(others)} zone{'s' if len(others) > 1 else ''}"
    return own if len(others) == len(zones) else f"{northeast} in the Northeast; {own}"


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
        # the register's schedule in force, where one was read (the resolution its fee was set by)
        **({"fee_schedule_in_force": dict(opts.fee_schedule_in_force)} if opts.fee_schedule_in_force else {}),
    }


def _line(section: str, item: str, value: Any, unit: str = "", note: str = "") -> dict[str, Any]:
    return line(section, item, value, unit, note)


def _dead_line(trees: pd.DataFrame) -> list[dict[str, Any]]:
    """The statement's one line on dead trees, when the survey has any."""
    dead = trees["dead"].fillna(False).to_numpy(bool) if "dead" in trees else np.zeros(len(trees), dtype=bool)
    if not dead.any():
        return []
    tags = some_tags(trees["tag"].to_numpy(object)[dead])
    return [_line("Survey", "Dead trees", int(dead.sum()), "trees", f"{DEAD_TREE_LINE}: {tags}")]


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
            for a in ACTIONS
            if a in ("retain", "remove", "removed", "damaged") or act.get(a, 0)
        ],
        *_dead_line(trees),
    ]


def _dedupe(items: list[str]) -> list[str]:
    return [s for s in dict.fromkeys(items) if s]
