"""The library's keywords (:mod:`treecalc.messages`) as the app's controls: the words a message shows where
the command line shows a flag. Every keyword a library message names has an entry here
(tests/app/test_app_words.py holds them to the messages and to the command line's table).
"""

from __future__ import annotations

import datetime as dt
import re

from treecalc.law.cites import cite
from treecalc.messages import MARK

__all__ = ["CONTROLS", "PHRASES", "render", "site_fact"]

#: a keyword -> the control that sets it, in running text
CONTROLS: dict[str, str] = {
    "replacement_cost_usd": "the Unit cost under “Replacement stock and planting space” on the Permit page",
    "replacement_species": "the replacement stock on the Permit page",
    "replacement_dbh_in": "the replacement stock on the Permit page",
    "replacement_height_ft": "the replacement stock on the Permit page",
    "replacement_percent": "the replacement stock on the Permit page",
    "plantable": "the planting space on the Permit page",
    "plantable_area_sqft": "the planting space on the Permit page",
    "size_waiver": "the Engineer's waiver of the minimum size ({size_waiver})",
    "value_basis": "the Value basis on the Benefits page",
    "zone": "the climate zone on the Benefits page",
    "prices": "a price under “Prices” on the Benefits page",
    "violation": "“Trees were harmed without a permit” on the Violations page",
    "application_pending": "“An application was pending” on the Violations page",
    "clear_cutting": "“Clear cutting took place” on the Violations page",
    "continuing_days": "“Days the violation continued” on the Violations page",
    "fee_schedule": "the fee schedule on the Fund page",
    "fee_per_tree_usd": "the fee schedule on the Fund page",
    "jurisdiction": "the jurisdiction in the site facts on the Survey page",
    "site": "the site facts on the Survey page",
    "on": "the date (the app assesses on today's date)",
    "json": "the JSON download",
    "column_map": "the “Read as” column of the Columns tab on the Survey page",
    "layer": "the Layer under the upload on the Survey page",
    "budget_usd": "the Budget under the cheapest lawful plan on the Permit page",
    "max_assessments": "the limit of assessments (the app plans with the default limit)",
    "lot_area_sqft": "the Lot area on the Excavation page",
    "retaining_wall_height_ft": "the Retaining wall height on the Excavation page",
    "strip_topsoil": "the Topsoil stripped and Stripped depth on the Excavation page",
    "cellar": "the Cellar length, width and depth on the Excavation page",
    "metric": "“Metres in (cubic yards out)” on the Excavation page",
    "prismoidal": "“Prismoidal” on the Excavation page",
    "existing": "the existing surface under “Two surfaces (TIN)” on the Excavation page",
    "proposed": "the proposed surface under “Two surfaces (TIN)” on the Excavation page",
    "grid": "the Grid CSV under “Grid (borrow-pit)” on the Excavation page",
    # the case register (the Cases page's forms; the app gives the signed-in name, the dates from a date picker)
    "by": "your sign-in name",
    "title": "the Title of the case",
    "address": "the Address of the case",
    "lot": "the Lot (section-block-lot) of the case",
    "kind": "the Kind of case",
    "amount": "the Amount (USD)",
    "date": "the Date",
    "reference": "the Reference (receipt, check)",
    "outcome": "the Outcome",
    "conditions": "the Conditions",
    "trees": "the Trees planted",
    "accepted_on": "the date of Provisional acceptance",
    "species": "the Species planted",
    "replant_of": "the planting replanted",
    "reason": "the Reason kept with the void",
    "dead": "the Trees found dead",
    "text": "the note's text",
    "start": "the first day (“Inspections due from”)",
    "end": "the last day (“to”)",
    "role": "the account's role",
    "out": "the register's export file",
    "table": "the register's table exported",
    "db": "the register's database (TREECALC_DB)",
    "verify": "the register's audit (treecalc case audit)",
    "resolution_date": "the Date of the Board resolution on the Fund page",
    "resolution": "the Resolution (number or reference) on the Fund page",
    # the batch's projected x/y (the app reads a survey's crs from its site facts)
    "crs": "the crs in the site facts on the Survey page",
}

#: whole phrases around a keyword that read better said another way in the app (exact text, markers included)
PHRASES: dict[str, str] = {
    "(the date of the application or violation: on / ‹on›, today when not given)": (
        "(today: the app assesses on today's date)"
    ),
    "(‹zone› or the site fact climate_zone)": "(the climate zone on the Benefits page, or in the site facts)",
    "(give ‹jurisdiction› or the Site sheet's jurisdiction)": (
        "(give the jurisdiction in the site facts on the Survey page)"
    ),
    "(Site sheet or ‹site›)": "(the site facts on the Survey page)",
    "treecalc case audit ‹verify› says what else": "an audit of the register (treecalc case audit) says what else",
}

#: a site fact's value as the app's site facts take it
_VALUES = {"true/false": "yes or no", "true": "yes", "false": "no"}


def site_fact(name: str, value: str, give: bool) -> str:
    """A site fact to give with its value: "set has_residence to yes in the site facts on the Survey page"."""
    v = _VALUES.get(value, value)
    where = "in the site facts on the Survey page"
    if v == "N":  # a number to give ("‹lot_area_acres=N›"): the field, not "set it to N"
        return f"give {name} {where}"
    return f"set {name} to {v} {where}" if give else f"{name} = {v} {where}"


def _cited(words: str) -> str:
    """A control's words with the section it cites (``{size_waiver}``: the provision's) as the default law in force
    today holds it, never retyped."""
    if "{" not in words:
        return words

    return words.format(size_waiver=cite(None, "sections.in_lieu", dt.date.today()))


def render(text: str) -> str:
    """``text`` with every keyword marker as the control that sets it (a marker without one: a KeyError, caught
    by the tests over every message)."""
    from treecalc.ingest.site import SITE_FIELDS  # heavy: pandas, numpy, pyarrow, ..., loaded only when this runs

    s = str(text)
    if "‹" not in s:
        return s
    for phrase, words in PHRASES.items():
        s = s.replace(phrase, words)

    def one(m: re.Match[str]) -> str:
        give, name, value = m.group(1), m.group(2), m.group(3)
        if value is not None and name in SITE_FIELDS:
            return site_fact(name, value, bool(give))
        if value is not None and name == "column_map":  # "Header=field": that column read as that field
            header, _, field = value.strip('"').rpartition("=")
            return f"{give or ''}“{header}” read as {field} in {_cited(CONTROLS[name])}"
        return (give or "") + _cited(CONTROLS[name])

    return re.sub(r"(give )?" + MARK.pattern, one, s)
