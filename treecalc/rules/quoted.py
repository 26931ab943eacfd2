"""What an assessment's outputs quote of the law, recorded when it is made: each finding's entries and the labels
that quote a number of the law, both of the law in force on the assessment's date.

The statement, the PDF, the JSON and the app read these from the assessment; none of them reads the law files
again, so that an output written later, or of an assessment made on an earlier date, quotes the numbers that
assessment applied (a §208-29B maximum amended on a date is quoted at the assessment's date, not today's).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from treecalc.law import entries
from treecalc.law.access import jurisdiction_key, labels
from treecalc.law.cites import sections
from treecalc.results import QuotedLabels

#: The tables of a tree chapter each finding applies (by the first part of an entry's dotted key): the entries
#: recorded on the finding. A table no chapter holds records nothing (Wesley Hills has no ``replacement``).
FINDING_TABLES: dict[str, tuple[str, ...]] = {
    "permit": ("permit", "conditions"),
    "replacement": ("replacement", "spacing_ft"),
    "penalties": ("penalty", "criminal", "fine"),
}


def record_entries(found: Any, jurisdiction: str, on: dt.date) -> None:
    """Each finding of ``found`` (:class:`treecalc.results.Findings`) given the entries of its tables in force on
    ``on`` (:attr:`treecalc.results.Replacement.entries`); one the rules recorded already is kept."""
    held = entries(jurisdiction_key(jurisdiction), on=on)
    for name, tables in FINDING_TABLES.items():
        finding = getattr(found, name, None)
        if finding is None:
            continue
        own = {k: e for k, e in held.items() if k.split(".", 1)[0] in tables}
        finding.entries = {**own, **finding.entries}


def quoted_labels(on: dt.date, jurisdiction: str | None = None) -> QuotedLabels:
    """The labels that quote a number of the law (``[column_labels]``, ``[site_labels]`` of every village's
    readings), filled from the law in force on ``on``, and the sections the law ``jurisdiction`` cites then."""
    held = sections(jurisdiction, on) if jurisdiction else {}
    return QuotedLabels(columns=labels("column_labels", on), site=labels("site_labels", on), sections=held)
