"""The table contracts: every column of the trees frame and of the assessment's tables, named once.

- :data:`FLAG_FIELDS`: the survey's yes/no site flags of each tree (read by ingest, the rules and the app).
- :data:`TREE_COLUMNS`: the trees frame that :func:`treecalc.ingest.read_survey` returns, in order.
- :data:`BENEFIT_SKIP`: columns of the benefits frame already in the trees frame (not joined twice).
- :data:`TREE_JSON_COLUMNS`: the per-tree rows of ``treecalc.report.json.assessment_json`` (the public contract).
- :data:`COLUMNS`: each column's label and unit as the statement writes them (with its number format),
  and the label the app shows when it differs (:func:`app_label`); one row each in ``columns.csv``,
  read once at import.
- Number formats of the statement's cells (``USD``, ``INT``, ``NUM1`` ...).
- :func:`describe`: the label, unit and number format of any key, named in ``columns.csv`` or read from
  its suffix (:data:`SUFFIX_UNITS`).

Standard library only: the CLI's ``--help`` and the app import it cheaply.
"""

from __future__ import annotations

#: treecalc's version, stated once: the package (:data:`treecalc.__version__`), the build (pyproject.toml) and every
#: output's fingerprint read it here, below the modules that write outputs.
__version__ = "0.1.0"

import csv
import re
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "ACTIONS",
    "HARMED",
    "DONE",
    "REMOVALS",
    "PRUNING",
    "FLAG_FIELDS",
    "TREE_FACT_FIELDS",
    "SURVEY_KEY_COLUMNS",
    "SURVEY_FIELD_COLUMNS",
    "TREE_COLUMNS",
    "DOLLAR_COLUMNS",
    "BENEFIT_QUANTITY_COLUMNS",
    "BENEFIT_COLUMNS",
    "BENEFIT_SKIP",
    "TREE_PERMIT_COLUMNS",
    "TREE_PENALTY_COLUMNS",
    "TREE_OFFENCE_COLUMNS",
    "TREE_JSON_COLUMNS",
    "Column",
    "COLUMNS",
    "app_label",
    "SUFFIX_UNITS",
    "describe",
    "humanize",
]

# --------------------------------------------------------------------------- the action vocabulary
#: What the survey says was done to (or is proposed for) a tree; every law reads these words.
#: ``remove`` is proposed (a permit application); ``removed``, ``topped``, ``excessively_pruned`` and
#: ``damaged`` are harm already done; ``transplant`` is moved, not removed (no harm assessed).
ACTIONS = ("retain", "remove", "removed", "topped", "excessively_pruned", "damaged", "transplant")
HARMED = ("remove", "removed", "topped", "excessively_pruned", "damaged")  # proposed or done
DONE = ("removed", "topped", "excessively_pruned", "damaged")  # harm already done
REMOVALS = ("remove", "removed")
PRUNING = ("topped", "excessively_pruned")

# --------------------------------------------------------------------------- number formats (xlsx)
USD = "$#,##0.00"
USD_RATE = "$#,##0.00####"  # prices per unit (e.g. $0.0045/gal)
INT = "#,##0"
NUM0 = "#,##0"
NUM1 = "#,##0.0"
NUM2 = "#,##0.00"
NUM = "#,##0.####"  # a number of unknown precision
SHARE = "0.0%"  # a share 0..1 shown as a percentage

# --------------------------------------------------------------------------- frames
#: The survey's yes/no flags of each tree (a missing column is "not surveyed", never a silent no).
FLAG_FIELDS = (
    "street_tree",
    "wetland",
    "slope_over_20pct",
    "excessively_steep_slope",
    "landmark",
    "conservation_area",
    "threatened_endangered",  # Chapter 208: a permit for any size
    "protected_native",  # Chapter 208: a penalty tier, no permit trigger
    "regulated_buffer_zone",
    "hazardous",
    "dead_or_diseased",
    "good_forestry",
    "within_20ft_of_lot_line",
)
#: The flags whose yes lessens what a law asks (an exemption or an exclusion from replacement): taken as no where
#: not surveyed, they claim nothing, so the caution for the other flags (a tree so flagged carries more
#: obligations) is the wrong way round for them.
RELIEF_FLAGS = ("hazardous", "dead_or_diseased", "good_forestry")

#: What a survey may say of the work on each tree, yes or no, a blank cell not given (NA): its own tree
#: removal permit (a permit number reads yes), work by or for the Village (a permit exception), the Department's
#: written approval (of work on a street tree). In the trees frame only when the survey has the column.
TREE_FACT_FIELDS = ("permit", "village_work", "department_approval")

#: The columns that name a surveyed tree, first in the trees frame, the statement's Trees sheet and the JSON.
SURVEY_KEY_COLUMNS = ("source_row", "tag", "species", "species_code")

#: The surveyed facts of a tree after its species (trees frame and the statement's Trees sheet).
SURVEY_FIELD_COLUMNS = (
    "species_method",
    "species_score",
    "dbh_in",
    "stems",
    "action",
    "condition",
    "land_use",
    "notes",
)

#: The trees frame of a read survey, in order (then the :data:`TREE_FACT_FIELDS` and
#: ``latitude``/``longitude``/``x``/``y`` the survey gives).
TREE_COLUMNS = (
    *SURVEY_KEY_COLUMNS,
    *SURVEY_FIELD_COLUMNS,
    *FLAG_FIELDS,
    "distance_to_residence_ft",
    "warnings",
)

#: The benefit categories priced in dollars (``usd_<name>`` columns).
DOLLAR_COLUMNS = ("stormwater", "energy", "air_quality", "co2", "property")

#: The benefit quantities of a tree (the amounts the dollar values price, and the carbon stored).
BENEFIT_QUANTITY_COLUMNS = (
    "stormwater_gal",
    "electricity_kwh",
    "natural_gas_therms",
    "air_quality_lb",
    "co2_sequestered_lb",
    "co2_avoided_lb",
    "co2_stored_lb",
    "leaf_area_increase_m2",
)

#: The columns of the benefits frame (``benefits.benefit_arrays``), in order.
BENEFIT_COLUMNS = (
    *BENEFIT_QUANTITY_COLUMNS,
    "leaf_area_m2",
    "crown_area_m2",
    *(f"usd_{k}" for k in DOLLAR_COLUMNS),
    "usd_total_annual",
)

#: Columns of the benefits frame that the trees frame already has.
BENEFIT_SKIP = ("species_code", "dbh_in", "land_use")

#: A tree's permit outcome (JSON and the statement's Trees sheet), in order.
TREE_PERMIT_COLUMNS = ("harmed", "counted", "exclusion", "permit_triggers", "permit_needed", "offence")

#: A tree's penalty amounts (JSON and the statement's Trees sheet), in order.
TREE_PENALTY_COLUMNS = ("penalty_tier", "penalty_base_usd", "penalty_max_usd", "criminal_max_usd", "criminal_section")

#: A tree's offence (JSON): definite or conditional, the sections broken, the assumed facts a conditional one
#: rests on, or why a harmed tree is no offence; in order.
TREE_OFFENCE_COLUMNS = ("offence_status", "offence_sections", "offence_depends_on", "not_offence_reason")

#: The per-tree rows of the assessment's JSON (``trees``), in order, when present.
TREE_JSON_COLUMNS = (
    *SURVEY_KEY_COLUMNS,
    "dbh_in",
    "action",
    "condition",
    "dead",
    "value_usd",
    "usd_total_annual",
    "zone",  # the climate zone whose tables valued the tree (a survey outside the Northeast, or in several zones)
    "disclosures",
    *TREE_PERMIT_COLUMNS,
    *TREE_OFFENCE_COLUMNS,
    *TREE_PENALTY_COLUMNS,
)


# --------------------------------------------------------------------------- labels and units
@dataclass(frozen=True)
class Column:
    """How a column is shown: the statement's label, unit and number format; the app's label if different.

    ``label`` None: a column the statement labels from its name's suffix (only the app names it).
    """

    label: str | None
    unit: str
    fmt: str | None
    app: str | None = None


#: Every column's label, unit and number format, one row each in ``treecalc/columns.csv`` (package data):
#: ``format`` names one of the number formats above, an empty ``label``/``app``/``format`` is None.
COLUMNS_FILE = Path(__file__).with_name("columns.csv")

#: The number formats a row of ``columns.csv`` may name.
_FORMATS = {
    "USD": USD,
    "USD_RATE": USD_RATE,
    "INT": INT,
    "NUM0": NUM0,
    "NUM1": NUM1,
    "NUM2": NUM2,
    "NUM": NUM,
    "SHARE": SHARE,
}


def _read_columns(path: Path) -> dict[str, Column]:
    """The columns of ``path`` in file order; ValueError naming the line of an unknown format or a repeated name."""
    columns: dict[str, Column] = {}
    with open(path, newline="", encoding="utf-8") as f:
        for line, row in enumerate(csv.DictReader(f), start=2):
            name, fmt = row["name"], row["format"]
            if name in columns:
                raise ValueError(f"{path.name} line {line}: column {name!r} is named twice")
            if fmt and fmt not in _FORMATS:
                raise ValueError(f"{path.name} line {line}: format {fmt!r} is not one of {', '.join(_FORMATS)}")
            columns[name] = Column(
                row["label"] or None, row["unit"], _FORMATS[fmt] if fmt else None, row["app"] or None
            )
    return columns


COLUMNS: dict[str, Column] = _read_columns(COLUMNS_FILE)


def app_label(name: str) -> str | None:
    """The label the app shows for a column, or None when it has none of its own."""
    c = COLUMNS.get(name)
    return None if c is None else c.app


#: The unit and number format a key's name ends in, for the keys ``columns.csv`` does not name (a finding's
#: ``bond_usd``, a figure's ``buffer_width_ft``): suffix, unit, number format, first match wins. A rate
#: ``<name>_usd_per_<unit>`` is a price ($/<unit>, cents and beyond), read before these.
SUFFIX_UNITS: tuple[tuple[str, str, str], ...] = (
    ("_usd", "$", USD),
    ("_pct", "%", NUM),
    ("_percent", "%", NUM),
    ("_trees", "trees", INT),
    ("_in", "in", NUM1),
    ("_ft", "ft", NUM1),
    ("_m2", "m²", NUM2),
    ("_acres", "acres", NUM2),
    ("_sqft", "ft²", NUM2),  # areas to 0.01 sq ft, as the app shows them
    ("_gal", "gal", NUM0),  # gallons whole: a modelled tenth of a gallon is no measurement
    ("_kwh", "kWh", NUM1),
    ("_lb", "lb", NUM2),
    ("_days", "days", INT),
    ("_years", "years", NUM),
    ("_count", "count", INT),
)


def humanize(key: str) -> str:
    """A key as words: ``"trees_in_lieu"`` -> ``"Trees in lieu"``."""
    s = str(key).replace("_", " ").strip()
    return s[:1].upper() + s[1:] if s else s


def describe(key: object) -> Column:
    """How any key is shown: its row of ``columns.csv`` when it has a label there, else a label and unit read
    from its name (:data:`SUFFIX_UNITS`; ``x_usd_per_y`` is a price, $/y)."""
    k = str(key)
    known = COLUMNS.get(k)
    if known is not None and known.label is not None:
        return known
    m = re.match(r"^(.*)_usd_per_(\w+)$", k)
    if m:
        return Column(humanize(m.group(1)), f"$/{m.group(2)}", USD_RATE)
    for suffix, unit, fmt in SUFFIX_UNITS:
        if k.endswith(suffix) and len(k) > len(suffix):
            base = humanize(k[: -len(suffix)])
            if suffix in ("_pct", "_percent"):
                base += " percentage"
            elif suffix == "_trees":
                base = humanize(k)
            return Column(base, unit, fmt)
    if k.startswith("trees_") or k == "offences" or "removals" in k or k == "native_planted":
        return Column(humanize(k), "trees", INT)
    if k.startswith("usd_"):
        return Column(humanize(k[4:]), "$", USD)
    return Column(humanize(k), "", None)
