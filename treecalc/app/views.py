"""Small adapters from library results to tables and widgets (no law, no arithmetic)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, overload

import numpy as np
import pandas as pd
import streamlit as st

from treecalc.app import state
from treecalc.law import readings
from treecalc.law.access import column_labels, jurisdiction_key, law
from treecalc.models.benefits import shown_dollars
from treecalc.reference import data
from treecalc.report.content import BASIS_WORDS, fee_source
from treecalc.report.held import trees_as_held as said
from treecalc.schema import INT, NUM0, NUM1, NUM2, USD, USD_RATE

if TYPE_CHECKING:
    from treecalc.assessment import Assessment
    from treecalc.results import Fund

# re-exported: the pages say views.readable; its home is apart so that state may say the app's words too
from treecalc.app.wording import SITE_LABELS, SITE_WORDS, readable  # noqa: F401
from treecalc.law import cites
from treecalc.law.registry import DEFAULT, Jurisdiction, get_or_default
from treecalc.models.equivalents import RAIN_BARREL_GAL, equivalents
from treecalc.results import OFFENCE_DEPENDS_ON, OFFENCE_STATUS, offence_status
from treecalc.schema import COLUMNS, describe


def law_today(jurisdiction: str | None = None) -> dict[str, Any]:
    """The law a page's help texts state (the registry's default law unless one is named): in force today, the
    date the app assesses on (not the latest held, which may be an amendment not yet in force)."""
    return law(jurisdiction or DEFAULT, dt.date.today())


def cite(key: str, a: Assessment | None = None) -> str:
    """The section a page cites for ``key`` (an entry's dotted key, ``"replacement.percent"``, or a provision's,
    ``"sections.valuation_method"``): as the assessment ``a`` recorded it, else as the default law in force today
    cites it (:func:`treecalc.law.cites.cite`), never retyped."""
    return cites.cite(a.labels.sections if a is not None else None, key, dt.date.today())


def frame(x: Any) -> pd.DataFrame:
    """A DataFrame from a DataFrame, a list of dicts/objects, or a dict of lists."""
    if x is None:
        return pd.DataFrame()
    if isinstance(x, pd.DataFrame):
        return x
    if isinstance(x, Mapping):
        try:
            return pd.DataFrame(x)
        except ValueError:
            return pd.DataFrame([x])
    rows = [r.to_dict() if hasattr(r, "to_dict") else (dict(r) if isinstance(r, Mapping) else vars(r)) for r in x]
    return pd.DataFrame(rows)


def fields_of(finding: Any) -> dict[str, Any]:
    """A typed finding's fields by name (:func:`dataclasses.fields`), for a table of all its figures."""
    return {f.name: getattr(finding, f.name) for f in dataclasses.fields(finding)}


def kv_table(d: Mapping[str, Any] | None, skip: tuple[str, ...] = ()) -> pd.DataFrame:
    """A two-column table (item, value) of a dict's scalar entries (rows of trees and lists left out), each value
    written as its field's schema says (:func:`value_text`: dollars with separators and cents, yes/no, blank for
    none), never its Python form (``28000``, ``None``, ``True``)."""
    rows = [
        {"Item": k, "Value": value_text(k, v)}
        for k, v in (d or {}).items()
        if k not in skip
        and not isinstance(v, (dict, pd.DataFrame))
        and not (isinstance(v, Sequence) and not isinstance(v, str))
    ]
    return pd.DataFrame(rows, columns=["Item", "Value"], dtype=object)


#: a moment as the register writes it (ISO 8601: "2026-12-07T11:24:31.881+00:00"); shown to the minute
_MOMENT = re.compile(r"^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$")


def value_text(name: object, v: Any) -> str:
    """A field's value as a table shows it, by the field's number format (:func:`treecalc.schema.describe`):
    money "$28,000.00" (the sign first, "-$950.00"), a count "1,200", yes/no, a moment to the minute, "" for none."""
    if v is None or v is pd.NA or (isinstance(v, float) and v != v):
        return ""
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, (int, float, np.integer, np.floating)):
        x, fmt = float(v), describe(str(name)).fmt
        if fmt in (USD, USD_RATE):
            return ("-" if round(x, 2) < 0 else "") + f"${abs(x):,.2f}"
        digits = {INT: 0, NUM0: 0, NUM1: 1, NUM2: 2}.get(fmt or "")
        if digits is None:  # a number of no stated precision: as given, with its separators
            return f"{int(x):,}" if x.is_integer() else f"{x:,.4f}".rstrip("0")
        return f"{x:,.{digits}f}"
    m = _MOMENT.match(str(v))
    if m:
        return f"{m.group(1)} {m.group(2)}" + (" UTC" if m.group(3) in ("Z", "+00:00", "+0000") else "")
    return readable(v) if isinstance(v, str) else cell_text(v)


def record_table(rows: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """Records (a case's payments, plantings, events) as a table: each column by its label (:func:`label`), each
    cell by :func:`value_text`; a nested record as its items in words."""
    names = list(dict.fromkeys(k for r in rows for k in r))
    cells = [[value_text(k, r.get(k)) for k in names] for r in rows]
    labels = [label(k) for k in names]
    heads = [h if labels.count(h) == 1 else f"{h} ({k})" for h, k in zip(labels, names)]  # a table's heads differ
    return pd.DataFrame(cells, columns=heads, dtype=object)


#: Where a fee schedule came from, in words (``treecalc.rules.croton_on_hudson.schedule.load_fee_schedule`` names a schedule given
#: as a dict, as the app gives the one set on the Fund page, "given as a dict")
FEE_SOURCE_WORDS = {"given as a dict": "set on the Fund page"}


def fund_table(fund: Fund, a: Any = None) -> pd.DataFrame:
    """The fund's figures as (item, value) rows, labelled as the statement labels them (``columns.csv``; per
    year on the annual basis), the basis of payment and the schedule's source in words."""
    d = fields_of(fund)
    if d.get("not_held") is not None:  # the fund paid into, not held: said in words
        d["not_held"] = str(d["not_held"])
    if "basis" in d:
        d["basis"] = BASIS_WORDS.get(str(d["basis"]), d["basis"])
    if d.get("source"):
        from treecalc.law.access import DEFAULT_FEE_SCHEDULE  # late-bound: DEFAULT_FEE_SCHEDULE looked up when called

        default = {str(DEFAULT_FEE_SCHEDULE): f"the default fee schedule ({DEFAULT_FEE_SCHEDULE.name})"}
        words = {**FEE_SOURCE_WORDS, **default}
        if d.get("label") and d.get("label") != "fee schedule":  # set here: known by its words, as the statement
            words["given as a dict"] = str(d["label"])
        d["source"] = fee_source(d["source"], words)  # "; fee per tree overridden" stays
    d = {k: yes_no(v) if isinstance(v, bool) else v for k, v in d.items() if not _unset(v)}  # no empty rows
    table = kv_table(d, skip=("notes", "fund_in_lieu_exact", "alternative_22f_exact"))
    table["Item"] = [FUND_ITEMS.get(k) or value_label(k, a) for k in table["Item"]]
    return table


#: The fund's own items whose ``columns.csv`` label is another table's ("Label", "Source")
FUND_ITEMS = {"label": "Fee schedule", "source": "Fee schedule from"}


def _unset(v: Any) -> bool:
    return v is None or (isinstance(v, float) and v != v) or (isinstance(v, str) and not v.strip())


@st.cache_data(show_spinner=False)
def species_choices() -> pd.DataFrame:
    """Catalogue species for pickers: natives first, then others; invasives last and marked.

    The labels only say what the catalogue says (native, NY Part 575 status);
    the law engine decides what it accepts and gives its reason.
    """
    cat = data.catalogue()
    cat = cat[cat["scientific_name"].astype(str).str.strip() != ""]
    order = cat["invasive"].astype(int) * 2 + (~cat["native"]).astype(int)
    cat = cat.assign(_o=order).reset_index(drop=True).sort_values(["_o", "common_name"])

    def label(r: Any) -> str:
        tag = (
            ("invasive: NY Part 575 " + r.part575 + ", refused")
            if r.invasive
            else ("native" if r.native else "not native")
        )
        return f"{r.common_name} ({r.scientific_name}) · {tag}"

    return pd.DataFrame(
        {
            "code": cat["code"].to_numpy(),
            "label": [label(r) for r in cat.itertuples()],
            "native": cat["native"].to_numpy(),
            "invasive": cat["invasive"].to_numpy(),
        }
    )


# --- labels people read ------------------------------------------------------------

#: Column names of the library's frames -> what a user reads (with the unit).
COLUMN_LABELS: dict[str, str] = {k: c.app for k, c in COLUMNS.items() if c.app is not None}  # treecalc.schema

# a site fact that is also a tree column (department_approval: per tree or for the lot) keeps the column's label
# in a table; the Site facts form labels the fact
COLUMN_LABELS.update({k: v for k, v in SITE_LABELS.items() if k not in COLUMN_LABELS})


#: The statement's units as the app writes them beside a label (no unit for a share, a factor or sections)
APP_UNITS = {"$": "USD", "$/yr": "USD/yr", "$/day": "USD/day", "ft²": "sq ft", "share": "", "×": "", "sections": ""}


def label(name: str) -> str:
    """A column or fact name as a user reads it: the app's label of ``treecalc/columns.csv`` (or a site fact's),
    else the statement's label and unit there ("Payment in lieu to the Fund (USD)"), else the words of the
    snake_case name. A survey flag whose label quotes a law's number ("Slope over 20%") is labelled from the law
    files."""
    by_law = column_labels()
    if str(name) in by_law:
        return by_law[str(name)]
    if name in COLUMN_LABELS:
        return COLUMN_LABELS[name]
    col = COLUMNS.get(str(name))
    if col is not None and col.label:
        unit = APP_UNITS.get(col.unit, col.unit)
        # a count the label already names ("Trees planted", "Days of continuing violation") is not repeated
        said = unit in _COUNTS and re.search(rf"\b{unit[:-1]}s?\b", col.label, re.IGNORECASE)
        return f"{col.label} ({unit})" if unit and not said else col.label
    # a unit suffix only at the end: "fund_in_lieu_usd" is "Fund in lieu (USD)", not "Fund (in) lieu (USD)"
    words = re.sub(r"_(usd|in|sqft|ft)$", lambda m: f" ({_SUFFIX_UNITS[m.group(1)]})", str(name))
    words = words.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


_SUFFIX_UNITS = {"usd": "USD", "in": "in", "sqft": "sq ft", "ft": "ft"}
#: units of columns.csv that count things (a label naming the thing needs no unit after it)
_COUNTS = ("trees", "days", "rows", "sections")


@overload
def labelled(df: None, a: Any = None) -> None: ...
@overload
def labelled(df: pd.DataFrame, a: Any = None) -> pd.DataFrame: ...
def labelled(df: pd.DataFrame | None, a: Any = None) -> pd.DataFrame | None:
    """``df`` with readable column labels (for display and CSV; the data are unchanged).

    Given the assessment ``a``, a tree's value on the annual basis is labelled per year (USD/yr).
    Labels stay unique: a column whose label another column of ``df`` already has keeps its own name
    beside it (a frame with two columns of one name cannot be shown or written as CSV).
    """
    if df is None:
        return None
    if "usd_total_annual" in df.columns:  # a tree's benefit dollars as every output shows them: parts add up
        df = shown_dollars(df)
    names: dict[Any, str] = {}
    for c in df.columns:
        text = value_label(c, a)
        names[c] = f"{text} ({c})" if text in names.values() else text
    out = df.rename(columns=names)
    # which column each label names: a CSV of the table writes each at its precision (ui.csv_bytes). As text:
    # Arrow writes a frame's attrs as JSON when the page shows it, and a year column's numpy int is no JSON
    out.attrs[COLUMN_NAMES] = {str(label): str(name) for name, label in names.items()}
    return out


#: The key of a labelled frame's ``attrs`` that maps each label to the column it names.
COLUMN_NAMES = "treecalc_column_names"


def value_label(name: str, a: Any = None) -> str:
    """:func:`label`, per year (USD/yr) for a tree's value when the assessment ``a`` values trees annually; a
    column whose label quotes a law's number as ``a`` quotes it (:attr:`treecalc.assessment.Assessment.labels`,
    the law of its date), not as the law read again."""
    quoted = getattr(getattr(a, "labels", None), "columns", None) or {}
    said = quoted.get(str(name)) or label(name)
    return _per_year(said) if value_unit(a) and name in VALUE_COLUMNS else said


#: Columns that hold a tree's value on the assessment's value basis (per year on the annual basis).
VALUE_COLUMNS = frozenset(
    {
        "value_usd",
        "value_per_tree_usd",
        "required_value_usd",
        "removed_value_usd",
        "planted_value_usd",
        "unmet_value_usd",
    }
)


def _per_year(text: str) -> str:
    return text.replace("(USD)", "(USD/yr)") if "(USD)" in text else f"{text} (USD/yr)"


def value_unit(a: Assessment | None) -> str:
    """'/yr' when the assessment values trees on the annual basis (a value per year), else ''."""
    options = a.options if a is not None else {}
    return "/yr" if str(options.get("value_basis", "")) == "annual" else ""


def cell_text(v: Any) -> str:
    """A cell as text: "" for nothing, 12 for a whole number a spreadsheet read as 12.0, a row as its cells."""
    if v is None or (isinstance(v, float) and v != v):
        return ""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, Mapping):
        return "; ".join(f"{k}: {cell_text(x)}" for k, x in v.items())
    return str(v)


def rejected_table(rejected: pd.DataFrame | None) -> pd.DataFrame | None:
    """The rejected rows as shown and downloaded: readable labels, and the raw row and every column of mixed
    kinds as text ("Tag: 103; Species: White pine; DBH (in): eighteen"). A column of dicts whose cells are
    numbers in one row and text in another ('eighteen') cannot be made an Arrow table: Streamlit logged the
    failure and fixed the column itself on every redraw."""
    if rejected is None:
        return None
    out = rejected.copy()
    for c in out.columns:
        if out[c].dtype == object:
            out[c] = out[c].map(cell_text)
    if "reason" in out:  # a reason naming a keyword ("give ‹zone›"): the control that sets it
        out["reason"] = out["reason"].map(lambda s: readable(s) if "‹" in str(s) else s)
    return labelled(out)


def yes_no(v: Any) -> str:
    """A fact's value as a user writes it: True/False -> yes/no."""
    if v is True:
        return "yes"
    if v is False:
        return "no"
    return "" if v is None else str(v)


# --- the replacement defaults and the planting space ----------------------------------


@st.cache_data(show_spinner=False)
def default_stock(jurisdiction: str = DEFAULT) -> dict[str, Any]:
    """The law engine's default replacement stock (species, DBH, placeholder unit cost) and its label."""
    d = dict(readings(jurisdiction_key(jurisdiction))["replacement"]["default_stock"])
    d["unit_cost_usd"] = float(d["unit_cost_usd"])

    name = d["species"]
    if d["species"] in data.catalogue().index:
        row = data.catalogue().loc[d["species"]]
        name = str(row["common_name"])
    d["label"] = f"Default: {name}, {d['dbh_in']:g} in DBH (the law engine's choice)"
    return d


#: The value bases the law may compare (its value basis provision), in words
BASIS_KINDS = {
    "annual": "Annual benefits (USD/yr)",
    "cumulative": "Benefits over a lifetime of years (USD)",
    "appraised": "Appraised replacement value (CTLA, USD)",
}


def basis_control(page: str = "") -> None:
    """The value basis (§208-22B): one option, the same control on every page whose answer it changes
    (Benefits, where its values are shown, and Permit, Violations, Fund, where it turns the replacement,
    the payment and the statement). ``page`` keeps each page's widget its own."""
    basis = str(state.opt("value_basis", "annual"))
    sfx = f"_{page}" if page else ""
    c1, c2 = st.columns([3, 1])
    cur = basis.split(":")[0]
    kind = c1.radio(
        f"Value basis ({cite('sections.valuation_method')}: what the replacement must carry)"
        + ("" if not page else " — it changes the figures on this page"),
        list(BASIS_KINDS),
        index=list(BASIS_KINDS).index(cur) if cur in BASIS_KINDS else 0,
        format_func=BASIS_KINDS.get,
        key=f"w_basis_kind{sfx}",
        horizontal=True,
        help=f"Annual: the National Tree Benefit Calculator's total annual benefits ({cite('sections.valuation_method')}). "
        "Over N years: each year's benefits as the tree grows, summed for the share still alive (the annual "
        "mortality set on the Permit page; its default from Roman & Scatena 2011), no discounting. Appraised: the CTLA replacement value. The permit, violations, fund and statement use it; "
        "it is one setting, the same on every page.",
    )
    if kind == "cumulative":
        years = c2.number_input(
            "Years", 1, 100, int(basis.split(":")[1]) if ":" in basis else 20, key=f"w_basis_years{sfx}"
        )
        state.set_opt("value_basis", f"cumulative:{int(years)}")
    else:
        state.set_opt("value_basis", None if kind == "annual" else kind)


def plantable_controls(rec: Jurisdiction | None = None) -> None:
    """How many replacement trees the site can take: one shared option for every page that needs it
    (``plantable`` or ``plantable_area_sqft``), so the Permit and Fund pages show the same figures. ``rec``: a law
    that prices no replacement stock (a count of trees by class) takes a number of trees only, under its own
    section; without it, the default law's words."""
    kinds = ["Every tree needed", "A number of trees", "An area (sq ft)"]
    label = f"The site can take ({cite('sections.in_lieu')}: what it cannot take is paid into the fund)"
    if rec is not None and not prices_stock(rec):
        # its payment is for the trees not planted: "every tree needed" would say none is paid, which is the
        # planting space given as every tree, not a figure of the law; the area is read by a spacing it has not
        kinds = ["Not given", "A number of trees"]
        s = parts(rec)
        label = f"The site can take ({s.get('planting') or s.get('replacement')}: what it cannot take is paid in lieu)"
        state.set_opt("plantable_area_sqft", None)
    cur = 1 if state.opt("plantable") is not None else 2 if state.opt("plantable_area_sqft") is not None else 0
    # the same widget keys on every page: a page switch drops the widgets of the page left, and the next
    # page draws them again from the shared option
    kind = st.radio(
        label,
        kinds,
        index=min(cur, len(kinds) - 1),
        horizontal=True,
        key="w_plantable_kind",
    )
    if kind == kinds[1]:
        n = st.number_input(
            "Trees the site can take", min_value=0, step=1, value=int(state.opt("plantable") or 0), key="w_plantable"
        )
        state.set_opt("plantable", int(n))
        state.set_opt("plantable_area_sqft", None)
    elif len(kinds) > 2 and kind == kinds[2]:
        a = st.number_input(
            "Plantable area (sq ft)",
            min_value=0.0,
            step=100.0,
            value=float(state.opt("plantable_area_sqft") or 0.0),
            key="w_plantable_area",
            help=f"Divided by the {cites.subsection(cite('spacing_ft.small'))} spacing of each size class.",
        )
        state.set_opt("plantable_area_sqft", float(a))
        state.set_opt("plantable", None)
    else:
        state.set_opt("plantable", None)
        state.set_opt("plantable_area_sqft", None)


# --- plain-language equivalents (National Tree Benefit Calculator style) ----------------


def plain_benefits(ben: pd.DataFrame) -> dict[str, str]:
    """The year's benefits of the trees in ``ben`` (``compute_benefits`` columns) in plain words, with
    what they are equivalent to (:func:`treecalc.models.equivalents.equivalents`: the sums and factors are
    the library's)."""
    e = equivalents(ben)
    return {
        "stormwater": f"**{e.stormwater_gal:,.0f} gallons** of rainfall intercepted a year — about "
        f"{e.rain_barrels:,.0f} rain barrels ({RAIN_BARREL_GAL:g} gal) kept out of the storm drains.",
        "energy": f"**{e.electricity_kwh:,.0f} kWh** of electricity and **{e.natural_gas_therms:,.0f} therms** of "
        f"heating fuel saved a year — about {e.home_days:,.0f} days of an average US home's electricity.",
        "co2": f"**{e.co2_lb:,.0f} lb of CO₂** taken up or avoided a year — the CO₂ of "
        f"{e.gasoline_gal:,.0f} gallons of gasoline, or "
        f"{e.vehicle_miles:,.0f} miles in an average car; "
        f"{e.co2_stored_lb:,.0f} lb of CO₂ stored in the wood to date.",
        "air": f"**{e.air_quality_lb:,.1f} lb** of air pollutants (ozone, NO₂, SO₂, particles) removed or avoided "
        "a year.",
    }


def survey_record() -> Jurisdiction:
    """The record of the law the survey names in its jurisdiction site fact, known before the assessment (the
    controls drawn above it feed it). Anything unclear counts as the default law: the assessment then says
    what it applies."""
    try:
        j = (getattr(state.survey(), "site", None) or {}).get("jurisdiction")
    except Exception:  # noqa: BLE001 - no survey: the assessment's own message follows
        j = None
    return get_or_default(j)


def record(a: Any) -> Jurisdiction:
    """The record of the law an assessment applied (the default law's when it names none it knows)."""
    return get_or_default(str(getattr(a, "jurisdiction", "") or ""))


def trees_as_held(a: Assessment) -> pd.DataFrame:
    """The assessment's trees with the columns of a part of its law that is not held saying so in every row
    (:func:`treecalc.report.held.trees_as_held`: whether a tree needs the permit, whether its removal is an
    offence), never the empty or "no" the finding's columns hold for them."""
    return said(a, a.trees)


def prices_stock(rec: Jurisdiction) -> bool:
    """Whether the law prices its replacement by the value of the stock planted (a share of the value removed: a
    stock to choose, a value basis, a cheapest plan, a fee schedule), as against a count of trees by class."""
    return "replacement_stock" in rec.options


def fund_words(a: Assessment) -> str:
    """The fund a payment in lieu goes into under the law the assessment applied: its name, or that it is not held
    (naming the section to see), or "the fund" for a law that names none."""
    rec = record(a)
    held_not = a.fund.not_held if a.fund is not None else None
    if held_not is not None:
        return f"a fund {held_not.short}"
    return f"the {rec.fund_name}" if rec.fund_name else "the fund"


def replaces(rec: Jurisdiction) -> bool:
    """Whether the law has a replacement rule (a section heading its replacement part), so a replacement stock,
    a value basis and a fund to choose."""
    return "replacement" in rec.sections


def parts(rec: Jurisdiction, a: Any = None) -> dict[str, str]:
    """The section heading each part of a law (:meth:`~treecalc.law.registry.Jurisdiction.parts`): as the
    assessment ``a`` recorded its law's sections on its date, else (a page's words before any assessment) as the
    law's chapters in force today, the date the app assesses on, number them."""
    held = a.labels.sections if a is not None else cites.every_chapter(rec.key, dt.date.today())
    return rec.parts(held)


def permit_section(rec: Jurisdiction, a: Any = None) -> str:
    """The section a law's permit triggers are in, as its record declares it (``sections["permit"]``), said as
    :func:`parts` says it."""
    return parts(rec, a)["permit"]


def permit_trigger_section(rec: Jurisdiction, a: Any = None) -> str:
    """The section that makes a tree need the permit (Wesley Hills' subsection of lot sizes and distances), as its
    record declares it (``sections["permit_trigger"]``), else the permit's own section."""
    return parts(rec, a).get("permit_trigger") or permit_section(rec, a)


def permit_words(rec: Jurisdiction) -> str:
    """The permit a law asks for, in running text (``clearing permit`` of "Clearing permit required")."""
    return rec.permit_item.removesuffix(" required").lower()


def place(rec: Jurisdiction) -> str:
    """The place a law is of, as its chapter names it (``Wesley Hills`` of ``Wesley Hills Chapter 95``)."""
    return rec.chapter.split(" Chapter ")[0]


# --- offences: definite or conditional (per-tree rows, as the library says them) -------------------------


def offence_rows(a: Assessment) -> pd.DataFrame:
    """The offences per tree, with columns "Offence" (definite/conditional) and "Depends on" (the fact)
    as the law engine says them (:func:`treecalc.results.offence_status`); rows that do not say, as they are (no
    split is invented)."""
    rows = [dict(r) if isinstance(r, dict) else vars(r) for r in a.penalties.per_tree]
    if not rows:
        trees = a.trees
        if trees is not None and "offence" in trees:
            cols = [
                c
                for c in (
                    "tag",
                    "species_code",
                    "dbh_in",
                    "action",
                    "penalty_tier",
                    "penalty_base_usd",
                    "penalty_max_usd",
                    "criminal_max_usd",
                )
                if c in trees
            ]
            rows = trees.loc[trees["offence"].astype(bool), cols].to_dict(orient="records")
    if not rows:
        return pd.DataFrame()
    said = [offence_status(r) for r in rows]
    out = pd.DataFrame([{k: v for k, v in r.items() if k not in (OFFENCE_STATUS, OFFENCE_DEPENDS_ON)} for r in rows])
    if any(kind is not None for kind, _ in said):
        out.insert(1, "Offence", [("conditional" if kind == "conditional" else "definite") for kind, _ in said])
        out.insert(
            2,
            "Depends on",
            [(readable(dep) if dep else "") if kind == "conditional" else "facts given" for kind, dep in said],
        )
    return out


#: The statement's number formats (``treecalc.schema``) as the app's table formats (printf, Streamlit's names)
_APP_FORMATS = {"#,##0": "localized", "#,##0.0": "%.1f", "#,##0.00": "%.2f", "$#,##0.00": "dollar", "0.0%": "percent"}
#: Columns whose unit asks for another format than the statement's number format: a 0-100 score as a percent
_UNIT_FORMATS = {"0-100": "%.0f%%", "gal/yr": "localized", "gal": "localized"}
#: Units whose figures are shown whole (gallons: a tree's water is not read to the tenth of a gallon)
_WHOLE_UNITS = ("gal/yr", "gal")


def ordered(df: pd.DataFrame, first: tuple[str, ...] = ()) -> pd.DataFrame:
    """``df`` with the columns ``first`` (those it has) at its left, the rest in their order: the figures a
    page talks about are in sight at 1,280 px without scrolling sideways."""
    lead = [c for c in first if c in df.columns]
    return df[lead + [c for c in df.columns if c not in lead]]


def number_config(df: pd.DataFrame, a: Any = None) -> dict[str, Any]:
    """Each numeric column of ``df`` formatted by the schema (``treecalc/columns.csv``): DBH to 0.1 in, money
    to the cent, whole counts and gallons with thousands, a match score as a percent; keyed by the label
    :func:`labelled` gives it."""
    cfg: dict[str, Any] = {}
    labels = labelled(df.iloc[:0], a)
    for c, lab in zip(df.columns, labels.columns):
        col = COLUMNS.get(str(c))
        if col is None or not pd.api.types.is_numeric_dtype(df[c]) or pd.api.types.is_bool_dtype(df[c]):
            continue
        fmt = _UNIT_FORMATS.get(col.unit) or _APP_FORMATS.get(col.fmt or "")
        if fmt:
            cfg[lab] = st.column_config.NumberColumn(lab, format=fmt)
    return cfg


def show_table(df: pd.DataFrame | None, a: Any = None, first: tuple[str, ...] = (), where: Any = None) -> None:
    """``df`` as a table: the columns ``first`` at its left, labelled, numbers formatted by the schema."""
    if df is None:
        return
    d = ordered(df, first)
    for c in d.columns:  # whole numbers shown whole: "localized" keeps a float's decimals
        col = COLUMNS.get(str(c))
        whole = col is not None and (col.fmt == "#,##0" or col.unit in _WHOLE_UNITS)
        if whole and pd.api.types.is_float_dtype(d[c]):
            d = d.assign(**{c: d[c].round(0)})
    (where or st).dataframe(labelled(d, a), width="stretch", hide_index=True, column_config=number_config(d, a))
