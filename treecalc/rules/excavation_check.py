"""What an excavation and filling permit check finds, under any law: :class:`PermitCheck`, and the dates of an
issued permit (:class:`PermitTerm`). The rules of each law build it (``treecalc/rules/<village>/excavation.py``).
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from treecalc.money import round2

__all__ = ["PermitTerm", "PermitCheck", "unknown", "verdict"]


@dataclass(frozen=True)
class PermitTerm:
    """The dates of an issued permit, for its term and idle time (:func:`permit_term_check`, §120-10A).

    Each a date or ISO text; ``as_of`` None is today, ``last_work`` None is not given.
    """

    issued: _dt.date | str
    last_work: _dt.date | str | None = None
    as_of: _dt.date | str | None = None


@dataclass(frozen=True)
class PermitCheck:
    """Whether an excavation / filling operation needs a permit, and why.

    ``permit_required`` is True, False, or ``"unknown"`` when a rule depends on a fact that was
    not given (``missing_facts`` names it); it is never False when the answer cannot be told.
    Areas in square feet, volumes in cubic yards (exact Decimals; rounded in ``to_dict``).
    ``explanations`` lists every rule evaluated (``holds`` True, False or None = unknown).
    """

    jurisdiction: str
    permit_required: bool | str
    triggers: list[str]
    explanations: list[dict[str, Any]]
    excavation_cy: Decimal
    fill_cy: Decimal
    topsoil_cy: Decimal
    excavation_area_sqft: Decimal
    fill_area_sqft: Decimal
    review_standards: list[dict[str, Any]] = field(default_factory=list)
    exemptions: list[dict[str, Any]] = field(default_factory=list)
    waiver_eligible: bool | str | None = None
    interpretation: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    missing_facts: list[str] = field(default_factory=list)
    term: dict[str, Any] | None = None
    building_permit: dict[str, Any] | None = None
    #: the law has a waiver: with no operation, ``waiver_eligible`` is said "not applicable"
    has_waiver: bool = False
    #: the sections of what a reader says beside the rules, by what it is (``"waiver"``, ``"building_permit"``),
    #: each as the law's file gives it; not in :meth:`to_dict` (each rule's section is in its explanation)
    cited: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "jurisdiction": self.jurisdiction,
            "permit_required": self.permit_required,
            "missing_facts": list(self.missing_facts),
            "triggers": list(self.triggers),
            "explanations": [dict(e) for e in self.explanations],
            "excavation_cy": round2(self.excavation_cy),
            "fill_cy": round2(self.fill_cy),
            "topsoil_cy": round2(self.topsoil_cy),
            "excavation_area_sqft": float(self.excavation_area_sqft),
            "fill_area_sqft": float(self.fill_area_sqft),
            "exemptions": [dict(e) for e in self.exemptions],
            "waiver_eligible": (
                "not applicable" if self.waiver_eligible is None and self.has_waiver else self.waiver_eligible
            ),
            "building_permit": self.building_permit,
            "term": self.term,
            "review_standards": [dict(e) for e in self.review_standards],
            "interpretation": list(self.interpretation),
            "notes": list(self.notes),
        }


def unknown(missing: list[str], fact: str) -> None:
    """Name a fact not given that the answer depends on (once)."""
    if fact not in missing:
        missing.append(fact)


def verdict(rules: list[dict[str, Any]]) -> tuple[bool | str, list[str]]:
    """Required (True) with the sections of the rules that hold, else "unknown" if one cannot be told, else False."""
    triggers = [e["section"] for e in rules if e["holds"] is True]
    if triggers:
        return True, triggers
    return ("unknown" if any(e["holds"] is None for e in rules) else False), []
