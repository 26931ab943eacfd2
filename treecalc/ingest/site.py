"""Site facts, in one module: their kinds (:data:`SITE_FIELDS`), the value assumed when one is not
given (:data:`SITE_ASSUMED`), the "Site" sheet (field, value) and ``--site field=value`` overrides, and
the coercion every law engine reads them through (:func:`resolve_site`, :func:`fact_bool`).

A fact that is not given is never silently taken as false: it is listed in
``site_assumptions`` with the value a conservative reading assumes, the one
that never lowers an obligation (Croton-on-Hudson Chapter 208, Wesley Hills
Chapter 95).
"""

from __future__ import annotations

import difflib
import math
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from treecalc.ingest.errors import SurveyError
from treecalc.ingest.values import parse_bool
from treecalc.law import readings, resolved
from treecalc.law import registry as jurisdictions
from treecalc.law.registry import Jurisdiction, jurisdiction_key
from treecalc.law.registry import choices as jurisdiction_choices
from treecalc.law.words import site_why
from treecalc.quantities import SITE_RANGES, in_range
from treecalc.reference.datafolder import DATA_DIR, read_data_toml

#: Site fields and their types.
SITE_FIELDS: dict[str, str] = {
    "jurisdiction": "str",
    "lot_area_acres": "float",
    "subdividable": "bool",
    "has_residence": "bool",
    "one_family_co_issued": "bool",
    "site_plan_required": "bool",
    "prior_removals_12mo": "int",
    "application_pending": "bool",
    "prior_violation_within_year": "bool",
    "village_work": "bool",
    # every fact the law engines read (treecalc.rules.*.SITE_DEFAULTS) is a Site sheet field too
    "permit_held": "bool",
    "department_approval": "bool",
    "prior_removals_without_permit": "int",
    "violation": "bool",
    "row_or_emergency": "bool",
    "planning_board_approval": "bool",
    "vacant_lot": "bool",
    "subdivision_plans_approved": "bool",
    "normal_farming": "bool",
    # the NJ count-by-class towns: a farmland wood lot under an approved forest management plan, and the trees
    # preserved in stands that earn a replacement credit (their readings say which town reads which)
    "farmland_woodlot_forest_plan": "bool",
    "preserved_stand_trees": "int",
    "crs": "text",
    # the i-Tree Streets climate zone whose tables value the trees (code or name; treecalc.reference.data.zone_code)
    "climate_zone": "text",
}

#: Descriptive rows a Site sheet often carries: kept as text, read by no rule.
INFO_FIELDS = ("address", "owner", "applicant", "parcel", "tax_id", "surveyor", "survey_date", "project", "notes")


#: The file of each site fact's assumed value and why (``data/readings/site_facts.toml``: treecalc's reading).
SITE_FACTS_FILE = DATA_DIR / "readings" / "site_facts.toml"


def _read_toml(path: Path) -> dict[str, Any]:
    """The data folder's file by its name there (a missing file or table is named with the folder), else ``path``."""
    try:
        rel = path.relative_to(DATA_DIR)
    except ValueError:
        rel = None
    if rel is not None:
        return read_data_toml(rel.as_posix(), DATA_DIR)
    with open(path, "rb") as f:
        return tomllib.load(f)


def _read_site_assumed(path: Path) -> dict[str, tuple[object, str]]:
    """Each site fact's (assumed value, why) from ``path``; ValueError when it does not list every field."""
    facts = _read_toml(path)["assumed"]
    missing, unknown = set(SITE_FIELDS) - set(facts), set(facts) - set(SITE_FIELDS)
    if missing or unknown:
        raise ValueError(f"{path.name}: site facts missing {sorted(missing)}, not site fields {sorted(unknown)}")
    return {k: (f.get("assumed"), f["why"]) for k, f in facts.items()}


#: For a fact not given: (assumed value, why that value is the conservative one), read from
#: :data:`SITE_FACTS_FILE`. ``None`` means no value can be assumed: the law engine must take the
#: stricter branch or ask.
SITE_ASSUMED: dict[str, tuple[object, str]] = _read_site_assumed(SITE_FACTS_FILE)

#: Each site fact as a person reads it, with the kind of answer ("A residence stands on the lot (yes/no)"), from
#: :data:`SITE_FACTS_FILE`; the facts whose label quotes a number of a law are labelled by its readings
#: (``[site_labels]``, :func:`treecalc.law.access.labels`) and have none here.
SITE_LABELS: dict[str, str] = {k: f["label"] for k, f in _read_toml(SITE_FACTS_FILE)["assumed"].items() if "label" in f}

_SITE_SYNONYMS = {
    "jurisdiction": ["jurisdiction", "village", "municipality", "town", "municipal jurisdiction"],
    "lot_area_acres": [
        "lot_area_acres",
        "lot area",
        "lot area acres",
        "lot size",
        "lot size acres",
        "acres",
        "lot area ac",
        "area acres",
        "parcel area",
    ],
    "subdividable": ["subdividable", "can be subdivided", "capable of subdivision", "subdivisible"],
    "has_residence": ["has_residence", "residence", "has residence", "residential structure", "house on lot"],
    "one_family_co_issued": [
        "one_family_co_issued",
        "co issued",
        "certificate of occupancy",
        "one family co issued",
        "one family co",
    ],
    "site_plan_required": ["site_plan_required", "site plan", "site plan required", "requires site plan"],
    "prior_removals_12mo": [
        "prior_removals_12mo",
        "prior removals",
        "prior removals 12mo",
        "removals last 12 months",
        "trees removed last 12 months",
        "prior removals 12 months",
    ],
    "application_pending": ["application_pending", "application pending", "pending application"],
    "prior_violation_within_year": [
        "prior_violation_within_year",
        "prior violation",
        "violation within year",
        "prior violation within year",
        "previous violation",
    ],
    "village_work": ["village_work", "village work", "work by village", "municipal work"],
    "permit_held": ["permit_held", "permit held", "permit", "tree removal permit", "permit issued", "has permit"],
    "department_approval": [
        "department_approval",
        "department approval",
        "dpw approval",
        "street tree approval",
        "written approval",
    ],
    "prior_removals_without_permit": [
        "prior_removals_without_permit",
        "prior removals without permit",
        "earlier removals without permit",
        "removals without permit",
    ],
    "violation": ["violation", "violation found"],
    "row_or_emergency": ["row_or_emergency", "right of way or emergency", "emergency", "right of way work"],
    "planning_board_approval": [
        "planning_board_approval",
        "planning board approval",
        "approved site plan",
        "approved subdivision plat",
    ],
    "vacant_lot": ["vacant_lot", "vacant lot", "vacant"],
    "subdivision_plans_approved": [
        "subdivision_plans_approved",
        "subdivision plans approved",
        "approved subdivision plans",
    ],
    "normal_farming": ["normal_farming", "normal farming", "farming", "agricultural use", "horticultural use"],
    "farmland_woodlot_forest_plan": [
        "farmland_woodlot_forest_plan",
        "farmland woodlot forest plan",
        "farmland wood lot forest plan",
        "farmland woodlot",
    ],
    "preserved_stand_trees": [
        "preserved_stand_trees",
        "preserved stand trees",
        "trees preserved in stands",
    ],
    "crs": ["crs", "coordinate system", "epsg", "spatial reference", "projection"],
    # not a bare "zone": a Site sheet's zone is the zoning district
    "climate_zone": ["climate_zone", "climate zone", "i-tree zone", "itree zone", "i-tree region", "itree region"],
}


def _k(t: object) -> str:
    return " ".join(re.sub(r"[^a-z0-9]+", " ", str(t).lower()).split())


_SITE_LOOKUP = {_k(s): f for f, ss in _SITE_SYNONYMS.items() for s in ss}


_INFO_LOOKUP = {_k(f): f for f in INFO_FIELDS} | {
    "tax id": "tax_id",
    "parcel id": "parcel",
    "sbl": "parcel",
    "date": "survey_date",
    "survey date": "survey_date",
    "property address": "address",
    "site address": "address",
    "project name": "project",
    "note": "notes",
    "comments": "notes",
}


def site_field(name: object) -> str | None:
    return _SITE_LOOKUP.get(_k(name))


def unknown_field_message(name: object) -> str:
    """``unknown site field 'subdividible': did you mean 'subdividable'?`` (the closest known field)."""
    key = _k(name)
    names = list(_SITE_LOOKUP) + list(_INFO_LOOKUP)
    close = difflib.get_close_matches(key, names, n=1, cutoff=0.6)
    if not close:
        close = difflib.get_close_matches(key.replace(" ", ""), [n.replace(" ", "") for n in names], n=1, cutoff=0.6)
        close = [next(n for n in names if n.replace(" ", "") == close[0])] if close else []
    hint = ""
    if close:
        best = _SITE_LOOKUP.get(close[0]) or _INFO_LOOKUP[close[0]]
        hint = f": did you mean {best!r}?"
    return f"unknown site field {str(name)!r}{hint} (fields: {', '.join(SITE_FIELDS)})"


def check_site(site: dict | None, *, where: str = "‹site›") -> dict:
    """Site facts given as overrides, each a known field (synonyms accepted) with a typed value.

    An unknown field or a bad value is a ``ValueError`` naming it and the closest known field; a field given
    twice (by two of its names) with two values is one naming both.
    """
    out: dict = {}
    given: dict = {}
    for k, v in (site or {}).items():
        f = k if k in SITE_FIELDS else site_field(k)
        if f is None:
            raise ValueError(f"{where}: {unknown_field_message(k)}")
        if v is None or (isinstance(v, str) and not v.strip()):
            continue
        try:
            value = coerce(f, v)
        except ValueError as e:
            raise ValueError(f"{where}: site fact {f}: {str(e).replace(f'site {f}: ', '')}") from None
        if f in out and out[f] != value:  # "lot area=1" and "lot_area_acres=2": which one holds is not said
            raise ValueError(f"{where}: site fact {f} is given twice, as {given[f]!r} and {v!r}; give it once")
        out[f], given[f] = value, v
    return out


def site_defaults(jurisdiction: str, why: Mapping[str, str]) -> dict[str, tuple[object, str]]:
    """A law engine's defaults: the one assumed value of each fact it reads (:data:`SITE_ASSUMED`) with
    the chapter's own words for why it is assumed (``why``: ``[site_why]`` of its readings file, citing its
    sections)."""
    unknown = sorted(set(why) - set(SITE_ASSUMED))
    if unknown:
        raise ValueError(f"readings/{jurisdiction}.toml [site_why]: not site facts {unknown}")
    return {k: (SITE_ASSUMED[k][0], text) for k, text in why.items()}


def coerce(field: str, value: object) -> object:
    """The typed value of a site fact; raises ValueError with a clear message."""
    kind = SITE_FIELDS[field]
    if kind == "text":
        return str(value).strip()
    if kind == "str":
        try:
            return jurisdiction_key(str(value))  # the one key spelling: croton_on_hudson, wesley_hills
        except ValueError:
            raise ValueError(f"site {field}: {value!r} is not one of {jurisdiction_choices()}") from None
    if kind == "bool":
        b = parse_bool(value) if str(value).strip() else None
        if b is None:
            raise ValueError(f"site {field}: {value!r} is not yes/no")
        return b
    if isinstance(value, bool):
        raise ValueError(f"site {field}: {value!r} is not a number")
    try:
        x = float(str(value).strip().replace(",", ".")) if not isinstance(value, (int, float)) else float(value)
    except ValueError:
        raise ValueError(f"site {field}: {value!r} is not a number") from None
    if math.isnan(x) or x < 0:
        raise ValueError(f"site {field}: {value!r} must be zero or more")
    if field in SITE_RANGES:  # the one table of plausible ranges: lot_area_acres=1e308 is refused
        in_range(f"site {field}", x, SITE_RANGES[field])
    if kind == "int":
        if not x.is_integer():
            raise ValueError(f"site {field}: {value!r} is not a whole number")
        return int(x)
    return x


class _Special(str):
    """A cell whose value cannot be read: an Excel error, a formula without a cached value."""


def read_site_rows(rows: list[list], special: dict[tuple[int, int], str] | None = None) -> tuple[dict, list[str]]:
    """Facts from a Site sheet's rows (field in the first non-blank cell, value in the next).

    ``special`` maps cells that hold no readable value ((row, column) from 0)
    to what they hold ("Excel error #N/A", "formula =B2 has no cached value"):
    a fact given that way is not taken, and a warning says so.
    """
    site: dict = {}
    rows_of: dict[str, tuple[int, object]] = {}  # the row and cell each fact was read from
    warnings: list[str] = []
    special = special or {}
    for i, row in enumerate(rows):
        cells = [_Special(special[(i, j)]) if (i, j) in special else c for j, c in enumerate(row)]
        cells = [c for c in cells if c is not None and str(c).strip() != ""]
        if not cells:
            continue
        name = cells[0]
        if isinstance(name, _Special):
            warnings.append(f"Site sheet row {i + 1}: {name}; row ignored")
            continue
        if _k(name) in ("field", "fact", "name", "item", "site field", "parameter"):
            continue  # the header row
        f = site_field(name)
        if f is None and _k(name) in _INFO_LOOKUP:
            if len(cells) >= 2 and not isinstance(cells[1], _Special):
                site[_INFO_LOOKUP[_k(name)]] = str(cells[1]).strip()
            continue
        if f is None:
            raise SurveyError(f"Site sheet row {i + 1}: {unknown_field_message(name)}")
        if len(cells) < 2:
            continue  # given without a value: not given
        if isinstance(cells[1], _Special):
            warnings.append(f"Site sheet row {i + 1}: {f} is {cells[1]}; treated as not given")
            continue
        try:
            value = coerce(f, cells[1])
        except ValueError as e:
            if f == "jurisdiction":  # assessed under another village's law, every figure would be wrong
                raise SurveyError(unknown_jurisdiction_message(i, row, cells[1])) from None
            warnings.append(f"Site sheet row {i + 1}: {e}; treated as not given")
            continue
        if f in site and site[f] != value:  # two jurisdictions: the last row won without a word
            at, first = rows_of[f]
            raise SurveyError(
                f"Site sheet rows {at} and {i + 1} both give {f}: {first!r} and {cells[1]!r}; keep the one that holds"
            )
        site[f], rows_of[f] = value, (i + 1, cells[1])
    return site, warnings


def unknown_jurisdiction_message(i: int, row: list, value: object) -> str:
    """``Site sheet cell B3 (jurisdiction): 'Crotn' is not one of croton-on-hudson, wesley-hills; did you mean
    'croton-on-hudson'?``: the cell (row ``i`` from 0) and the laws known, with the closest."""
    from openpyxl.utils import get_column_letter  # start-up: only when needed, not by every assess (openpyxl)

    filled = [j for j, c in enumerate(row) if c is not None and str(c).strip() != ""]
    cell = f"cell {get_column_letter(filled[1] + 1)}{i + 1}" if len(filled) > 1 else f"row {i + 1}"
    spellings = {_k(r.user_spelling): r.user_spelling for r in jurisdictions.REGISTRY.values()}
    spellings |= {_k(r.chapter.split(" Chapter ")[0]): r.user_spelling for r in jurisdictions.REGISTRY.values()}
    typed = _k(value)

    def likeness(name: str) -> float:  # "Crotn" is the start of "croton on hudson" mistyped: its head counts
        return max(difflib.SequenceMatcher(None, typed, n).ratio() for n in (name, name[: len(typed) + 1]))

    best = max(spellings, key=likeness, default=None)
    hint = f"; did you mean {spellings[best]!r}?" if best is not None and likeness(best) >= 0.6 else ""
    return (
        f"Site sheet {cell} (jurisdiction): {value!r} is not one of {jurisdiction_choices()}{hint or '.'} "
        "The survey is not assessed under a law it does not name: correct the cell."
    )


def apply_overrides(site: dict, overrides: dict | None) -> dict:
    out = dict(site)
    for k, v in (overrides or {}).items():
        f = site_field(k) if k not in SITE_FIELDS else k
        if f is None:
            raise SurveyError(f"site: {unknown_field_message(k)}")
        if v is None:
            out.pop(f, None)
            continue
        try:
            out[f] = coerce(f, v)
        except ValueError as e:
            raise SurveyError(str(e)) from None
    return out


def assumptions(site: dict) -> tuple[list[str], dict]:
    """The site facts not given, each with what is assumed of it: under the law the site names (its
    ``jurisdiction``), only the facts that law reads, in its own words (``[site_why]`` of its readings, as its
    engine states them); the law not known, every fact, with treecalc's reading (:data:`SITE_ASSUMED`) and the law
    an assessment would apply."""
    notes: list[str] = []
    assumed: dict = {}
    record = jurisdictions.by_key(str(site["jurisdiction"])) if site.get("jurisdiction") else None
    words = law_site_why(record.key) if record is not None else {}
    for f in SITE_FIELDS:
        if f in site or (record is not None and not record.reads_site_fact(f)):
            continue
        value, why = SITE_ASSUMED[f]
        assumed[f] = value
        if f in words:
            notes.append(f"{f} not given: {words[f]}")
        elif f == "jurisdiction":
            notes.append(f"{jurisdiction_not_given()}")
        elif value is None:  # no value assumed: the reason says what is done instead
            notes.append(f"{f} not given: {why}")
        else:
            shown = "yes" if value is True else "no" if value is False else value
            notes.append(f"{f} not given: assumed {shown} ({why})")
    return notes, assumed


def jurisdiction_not_given() -> str:
    """What a survey without a jurisdiction is assessed under: the default law (:data:`treecalc.law.registry.
    DEFAULT`), as the assessment says it."""
    default = jurisdictions.by_key(jurisdictions.DEFAULT).chapter
    return f"jurisdiction not given: an assessment applies {default}, the default (give ‹jurisdiction›: {jurisdiction_choices()})"


def law_site_why(key: str) -> dict[str, str]:
    """Why each site fact the law ``key`` reads is assumed as it is when not given, in its words filled from its law
    as held (:func:`treecalc.law.words.site_why`: its engine's words)."""
    return site_why(resolved(key, None), readings(key))


class FactNotRead(NamedTuple):
    """A site fact given that the law applied does not read and another law does."""

    #: the name as given (a field or a synonym of one)
    given: str
    field: str
    #: the first law registered that reads it
    reader: Jurisdiction
    #: the sections that law reads it under, as its ``[site_why]`` cites them (a section of the law file), "" when it
    #: cites none
    sections: str


def facts_not_read(jkey: str, names: list[str]) -> list[FactNotRead]:
    """The site facts ``names`` (fields or their synonyms; a name that is neither is left to :func:`check_site`)
    that the law ``jkey`` does not read and another law does, in the order given."""
    own = jurisdictions.by_key(jkey)
    out = []
    for given in names:
        name = given if given in SITE_FIELDS else site_field(given)
        if not name or own.reads_site_fact(name):
            continue
        reader = jurisdictions.reader_of_site_fact(name)
        if reader is not None:
            why = law_site_why(reader.key).get(name, "")
            sections = ", ".join(dict.fromkeys(re.findall(r"§\d+-\d+[A-Z]?(?:\(\w+\))*", why)))
            out.append(FactNotRead(given, name, reader, sections))
    return out


def site_facts_not_read(jkey: str, site: dict[str, Any]) -> list[str]:
    """One warning per other law whose site facts ``site`` gives (the Site sheet's or ``site=``) and the law
    ``jkey`` does not read: each fact named with the sections its law reads it under (its ``[site_why]``)."""
    own = jurisdictions.by_key(jkey)
    given = [
        n for n, v in site.items() if n in SITE_FIELDS and v is not None and not (isinstance(v, str) and not v.strip())
    ]
    by_reader: dict[str, list[FactNotRead]] = {}
    for fact in facts_not_read(jkey, given):
        by_reader.setdefault(fact.reader.key, []).append(fact)
    out = []
    for facts in by_reader.values():
        reader = facts[0].reader
        named = ", ".join(f"{f.field} ({f.sections})" if f.sections else f.field for f in facts)
        one = len(facts) == 1
        out.append(
            f"site fact{'' if one else 's'} {named} {'is' if one else 'are'} read by {reader.chapter}, not by "
            f"{own.chapter}, the law applied: {'it is' if one else 'they are'} not used"
        )
    return out


# ---------------------------------------------------------------- what a law engine reads of the facts
#: Site facts read as yes/no or as a number whatever their default (a default of None means
#: "decided elsewhere": the text of the fact is still parsed, never taken by truthiness).
BOOL_FACTS = frozenset({"violation", "vacant_lot", "subdivision_plans_approved"})
NUMBER_FACTS = frozenset({"lot_area_acres"})


def fact_bool(v: Any) -> bool:
    """A site fact's yes/no (the survey's one reading of yes/no: :func:`treecalc.ingest.values.parse_bool`)."""
    b = parse_bool(bool(v) if isinstance(v, np.bool_) else v)
    if b is None:
        raise ValueError(f"expected true or false, got {v!r}")
    return b


def resolve_site(site: dict[str, Any], defaults: dict[str, tuple[Any, str]]) -> tuple[dict[str, Any], list[str]]:
    """Site facts with defaults filled in, and the assumptions made (one string each)."""
    out: dict[str, Any] = {}
    assumptions: list[str] = []
    for key, (default, text) in defaults.items():
        v = site.get(key)
        if v is None or (isinstance(v, float) and np.isnan(v)) or (isinstance(v, str) and not v.strip()):
            out[key] = default
            assumptions.append(text)
        elif isinstance(default, bool) or key in BOOL_FACTS:
            try:
                out[key] = fact_bool(v)
            except ValueError:
                raise ValueError(f"site fact {key}: expected yes/no (true/false), got {v!r}") from None
        elif key in NUMBER_FACTS:
            out[key] = _site_number(key, v)
        elif isinstance(default, int):
            n = _site_number(key, v)
            if n != int(n):
                raise ValueError(f"site fact {key}: expected a whole number >= 0, got {v!r}")
            out[key] = int(n)
        else:
            out[key] = v
    for key, v in site.items():
        if key in out:
            continue
        # facts another jurisdiction reads are still checked, so a bad value is never carried silently
        if key in NUMBER_FACTS and v is not None and not (isinstance(v, str) and not v.strip()):
            v = _site_number(key, v)
        elif key in BOOL_FACTS and v is not None and not (isinstance(v, str) and not v.strip()):
            try:
                v = fact_bool(v)
            except ValueError:
                raise ValueError(f"site fact {key}: expected yes/no (true/false), got {v!r}") from None
        out[key] = v
    return out, assumptions


def _site_number(key: str, v: Any) -> float:
    """A finite number >= 0 (site facts are counts and areas); ValueError naming the fact."""
    if isinstance(v, (bool, np.bool_)):
        raise ValueError(f"site fact {key}: expected a number >= 0, got {v!r}")
    try:
        n = float(str(v).strip().replace(",", "")) if isinstance(v, str) else float(v)
    except (TypeError, ValueError):
        raise ValueError(f"site fact {key}: expected a number >= 0, got {v!r}") from None
    if not np.isfinite(n) or n < 0:
        raise ValueError(f"site fact {key}: expected a finite number >= 0, got {v!r}")
    if key in SITE_RANGES:  # a plausible range (treecalc.quantities.RANGES): 1e308 acres is refused, not computed
        in_range(f"site fact {key}", n, SITE_RANGES[key])
    return n
