"""The table contracts: every column of the trees frame and of the assessment's tables, named once.

- :data:`FLAG_FIELDS`: the survey's yes/no site flags of each tree (read by ingest, the rules and the app).
- :data:`TREE_COLUMNS`: the trees frame that :func:`treecalc.ingest.read_survey` returns, in order.
- :data:`BENEFIT_SKIP`: columns of the benefits frame already in the trees frame (not joined twice).
- :data:`TREE_JSON_COLUMNS`: the per-tree rows of ``Assessment.to_json()`` (the public contract).
- :data:`COLUMNS`: each column's label and unit as the statement writes them (with its number format),
  and the label the app shows when it differs (:func:`app_label`).
- Number formats of the statement's cells (``USD``, ``INT``, ``NUM1`` ...).

Standard library only: the CLI's ``--help`` and the app import it cheaply.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "FLAG_FIELDS",
    "SURVEY_KEY_COLUMNS",
    "SURVEY_FIELD_COLUMNS",
    "TREE_COLUMNS",
    "DOLLAR_COLUMNS",
    "BENEFIT_QUANTITY_COLUMNS",
    "BENEFIT_COLUMNS",
    "BENEFIT_SKIP",
    "TREE_PERMIT_COLUMNS",
    "TREE_PENALTY_COLUMNS",
    "TREE_JSON_COLUMNS",
    "Column",
    "COLUMNS",
    "app_label",
]

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
    "dec_protected",
    "regulated_buffer_zone",
    "hazardous",
    "dead_or_diseased",
    "good_forestry",
    "within_20ft_of_lot_line",
)

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

#: The trees frame of a read survey, in order (then ``latitude``/``longitude``/``x``/``y`` when given).
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

#: The per-tree rows of the assessment's JSON (``trees``), in order, when present.
TREE_JSON_COLUMNS = (
    *SURVEY_KEY_COLUMNS,
    "dbh_in",
    "action",
    "condition",
    "value_usd",
    "usd_total_annual",
    "disclosures",
    *TREE_PERMIT_COLUMNS,
    "offence_status",
    "offence_sections",
    "offence_depends_on",
    "not_offence_reason",
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


COLUMNS: dict[str, Column] = {
    "source_row": Column("Source row", "", INT, app="Row in the file"),
    "tag": Column("Tag", "", None, app="Tag"),
    "species": Column("Species (as surveyed)", "", None, app="Species (as written)"),
    "species_code": Column("Species code", "", None, app="Species code"),
    "scientific_name": Column("Scientific name", "", None, app="Scientific name"),
    "common_name": Column("Common name", "", None, app="Species"),
    "value_row": Column("i-Tree value row", "", None),
    "dbh_in": Column("DBH", "in", NUM1, app="DBH (in)"),
    "dbh": Column("DBH (as written)", "", None),
    "action": Column("Action", "", None, app="Action"),
    "condition": Column("Condition", "", None, app="Condition"),
    "land_use": Column("Land use", "", None, app="Land use"),
    "notes": Column("Notes", "", None, app="Notes"),
    "stormwater_gal": Column("Stormwater", "gal/yr", NUM1, app="Stormwater intercepted (gal/yr)"),
    "electricity_kwh": Column("Electricity", "kWh/yr", NUM1, app="Electricity saved (kWh/yr)"),
    "natural_gas_therms": Column("Natural gas", "therms/yr", NUM2, app="Natural gas saved (therms/yr)"),
    "air_quality_lb": Column("Air quality", "lb/yr", NUM2, app="Air pollutants removed (lb/yr)"),
    "co2_sequestered_lb": Column("CO₂ sequestered", "lb/yr", NUM1, app="CO₂ sequestered (lb/yr)"),
    "co2_avoided_lb": Column("CO₂ avoided", "lb/yr", NUM1, app="CO₂ avoided (lb/yr)"),
    "co2_stored_lb": Column("CO₂ stored", "lb", NUM1, app="CO₂ stored to date (lb)"),
    "leaf_area_increase_m2": Column("Leaf area increase", "m²/yr", NUM2, app="Leaf area growth (m²/yr)"),
    "leaf_area_m2": Column("Leaf area", "m²", NUM1, app="Leaf area (m²)"),
    "crown_area_m2": Column("Crown projection area", "m²", NUM1, app="Crown area (m²)"),
    "usd_stormwater": Column("Stormwater", "$/yr", USD, app="Stormwater (USD/yr)"),
    "usd_energy": Column("Energy", "$/yr", USD, app="Energy (USD/yr)"),
    "usd_air_quality": Column("Air quality", "$/yr", USD, app="Air quality (USD/yr)"),
    "usd_co2": Column("CO₂", "$/yr", USD, app="CO₂ (USD/yr)"),
    "usd_property": Column("Property / aesthetic", "$/yr", USD, app="Property (USD/yr)"),
    "usd_total_annual": Column("Total annual benefits", "$/yr", USD, app="Annual benefits (USD/yr)"),
    "value_usd": Column("Value", "$", USD, app="Value (USD)"),
    "harmed": Column("Harmed (removed or damaged)", "", None, app="Harmed"),
    "counted": Column("Counted for replacement", "", None, app="Counted toward replacement"),
    "exclusion": Column("Not counted because", "", None, app="Not counted because"),
    "permit_triggers": Column("Permit triggers", "sections", None, app="Permit needed because"),
    "permit_needed": Column("Permit needed", "", None, app="Permit needed"),
    "offence": Column("Offence (no permit held)", "", None, app="Offence"),
    "penalty_tier": Column("Civil penalty tier", "", None, app="Penalty tier (section)"),
    "penalty_base_usd": Column("Civil penalty, tier maximum", "$", USD, app="Penalty per tree, base (USD)"),
    "penalty_max_usd": Column("Civil penalty maximum", "$", USD, app="Penalty, maximum (USD)"),
    "criminal_max_usd": Column("Criminal fine maximum", "$", USD, app="Criminal fine, maximum (USD)"),
    "warnings": Column("Warnings", "", None),
    "column": Column("Column", "", None),
    "reason": Column("Reason", "", None),
    "suggestions": Column("Suggestions", "", None),
    "raw": Column("Raw row (as written)", "", None),
    "required": Column("Required", "", None),
    "percent": Column("Percentage of removed value", "%", NUM, app="Percent (%)"),
    "section": Column("Section", "", None, app="Section"),
    "value_basis": Column("Value basis", "", None),
    "removed_value_usd": Column("Value of trees removed (counted)", "$", USD),
    "required_value_usd": Column("Value the replacements must carry", "$", USD, app="Required value (USD)"),
    "trees_needed": Column("Replacement trees needed", "trees", INT),
    "trees_planted": Column("Trees planted", "trees", INT),
    "trees_in_lieu": Column("Trees paid for in lieu", "trees", INT),
    "planted_value_usd": Column("Value planted", "$", USD, app="Value planted"),
    "unmet_value_usd": Column("Value not met by planting", "$", USD),
    "planting_cost_usd": Column("Planting cost", "$", USD),
    "native_share": Column("Native share of replacements", "share", SHARE),
    "unit_cost_usd": Column("Unit cost", "$", USD, app="Unit cost (USD)"),
    "value_per_tree_usd": Column("Value per tree", "$", USD, app="Value per tree"),
    "count": Column("Count", "trees", INT, app="Trees"),
    "native": Column("Native", "", None, app="Native"),
    "height_ft": Column("Height", "ft", NUM1, app="Height (ft)"),
    "basis": Column("Basis of payment", "", None),
    "fee_per_tree_usd": Column("Fee per tree not planted", "$", USD),
    "multiplier": Column("Multiplier of unmet value", "×", NUM),
    "placeholder": Column("Fee is a placeholder", "", None),
    "fund_in_lieu_usd": Column("Payment in lieu to the Fund", "$", USD),
    "fund_in_lieu_exact": Column("Payment in lieu, exact", "$", USD),
    "label": Column("Label", "", None),
    "source": Column("Source", "", None),
    "calculation": Column("Calculation", "", None),
    "covered_by_fund_usd": Column("Value the payment stands for", "$", USD),
    "in_lieu_usd": Column("Payment in lieu", "$", USD),
    "status": Column("Status", "", None),
    "policy": Column("Policy", "", None),
    "size_class": Column("Size class", "", None, app="Size class"),
    "leaf_type": Column("Leaf type", "", None),
    "accepted": Column("Accepted", "", None, app="Accepted"),
    "refusals": Column("Refused because", "", None, app="Refused because"),
    "civil_penalty_max_usd": Column("Civil penalty, maximum", "$", USD),
    "doubled": Column("Per-tree amounts doubled", "", None),
    "base_usd": Column("Civil penalty, tier maximum", "$", USD, app="Base (USD)"),
    "max_usd": Column("Civil penalty maximum", "$", USD, app="Maximum (USD)"),
    "fine_per_tree_usd": Column("Fine per tree, maximum", "$", USD),
    "daily_fine_max_usd": Column("Fine per day, other violations, maximum", "$/day", USD),
    "doubling_reasons": Column("Doubling reasons", "", None),
    "continuing_days": Column("Days of continuing violation", "days", INT),
    "criminal_fine_max_usd": Column("Criminal fine, maximum", "$", USD),
    "fine_max_usd": Column("Fine, maximum", "$", USD, app="Fine, maximum (USD)"),
    "sections": Column("Sections", "", None),
    "tier": Column("Tier (section)", "", None, app="Penalty tier (section)"),
    "rows_read": Column("Rows read", "rows", INT),
    "min_trees": Column("Minimum trees for replacement", "trees", INT),
    "kind": Column("Kind", "", None),
    "criminal_section": Column("Criminal fine section", "", None, app="Criminal fine section"),
    "species_method": Column("Species matched by", "", None, app="Species matched by"),
    "species_score": Column("Species match score", "0-100", NUM1, app="Match score (%)"),
    "stems": Column("Stems", "", INT),
    "benefit_land_use": Column("Land use for benefits", "", None),
    "area_sqft_per_tree": Column("Area per tree (§208-6A spacing)", "ft²", NUM0, app="Area per tree (sq ft)"),
    "cost_usd": Column("Cost", "$", USD, app="Cost (USD)"),
    "slope_over_20pct": Column("Slope over 20%", "", None),
    "dec_protected": Column("DEC-protected", "", None),
    "within_20ft_of_lot_line": Column("Within 20 ft of a lot line", "", None),
    "street_tree": Column("Street tree", "", None),
    "dead_or_diseased": Column("Dead or diseased", "", None),
    "good_forestry": Column("Good forestry practice", "", None),
    "trees": Column(None, "", None, app="Trees"),
    "offence_status": Column(None, "", None, app="Offence"),
    "offence_sections": Column(None, "", None, app="Sections"),
    "offence_depends_on": Column(None, "", None, app="Depends on"),
    "not_offence_reason": Column(None, "", None, app="Not an offence because"),
    "disclosures": Column(None, "", None, app="Science notes"),
}


def app_label(name: str) -> str | None:
    """The label the app shows for a column, or None when it has none of its own."""
    c = COLUMNS.get(name)
    return None if c is None else c.app
