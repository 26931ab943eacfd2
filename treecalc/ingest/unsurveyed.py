"""What a survey without a flag's column is taken as: each law's reading of the flags not surveyed, and the
rules that read a survey column, as each law's record cites them."""

from __future__ import annotations

import datetime as dt
from typing import Any

from treecalc.law import cites
from treecalc.law import registry as jurisdictions
from treecalc.law.registry import REGISTRY, by_key, said
from treecalc.schema import RELIEF_FLAGS

__all__ = ["NOT_SURVEYED", "column_readers", "not_surveyed_text", "without_other_laws_columns"]


#: How every line saying which flags a survey has no column for begins (the assessment restates them for its law).
NOT_SURVEYED = "not surveyed (no column): "
_CONFIRM = "confirm them on site, since a tree so flagged carries more obligations"
_NOT_CLAIMED = "no exemption or exclusion is claimed for a tree without the column; give the column to claim one"


def without_other_laws_columns(lines: list[str], key: str) -> list[str]:
    """``lines`` without the "not surveyed" assumption of a column only other laws than ``key`` read (a survey
    read before its law was known says it for every law that reads the column)."""
    own = by_key(key).survey_columns
    others = {c for r in REGISTRY.values() for c in r.survey_columns if c not in own}
    return [a for a in lines if not any(a.startswith(f"{c} not surveyed:") for c in others)]


def not_surveyed_text(flags: list[str], jurisdiction: object = None) -> list[str]:
    """What a tree is taken as for the flags a survey has no column for: as the law ``jurisdiction`` reads them (each
    taken as no, but those its record takes as yes, :attr:`~treecalc.law.registry.Jurisdiction.flags_unsurveyed_yes`),
    or, the law not known yet, that the law applied decides, as each law does. One line per reading."""
    if not flags:
        return []
    record = None
    if jurisdiction:
        try:
            record = jurisdictions.get(str(jurisdiction))
        except ValueError:
            pass  # an unknown jurisdiction is the assessment's error
    if record is not None:
        flags = [f for f in flags if f in record.survey_flags]  # a flag only other laws read: nothing assumed of it
        yes = [f for f in flags if f in record.flags_unsurveyed_yes]
        no = [f for f in flags if f not in record.flags_unsurveyed_yes]
        more = [f for f in no if f not in RELIEF_FLAGS]
        relief = [f for f in no if f in RELIEF_FLAGS]
        lines = [f"{NOT_SURVEYED}{', '.join(more)} — taken as no for every tree; {_CONFIRM}"] if more else []
        if relief:
            lines.append(f"{NOT_SURVEYED}{', '.join(relief)} — taken as no for every tree: {_NOT_CLAIMED}")
        if yes:
            cites = _cited(record, [record.flags_unsurveyed_yes[f] for f in yes])
            lines.append(
                f"{NOT_SURVEYED}{', '.join(yes)} — taken as yes for every tree ({record.chapter.split(' Chapter ')[0]} "
                f"{cites}: a tree the survey does not place is read as if flagged); give the column to decide it"
            )
        return lines
    # the law not known yet: what each law takes a tree without the column as
    readings = []
    for r in jurisdictions.REGISTRY.values():
        yes = [f for f in flags if f in r.flags_unsurveyed_yes]
        if yes:
            cites = _cited(r, [r.flags_unsurveyed_yes[f] for f in yes])
            readings.append(f"{r.chapter} takes {', '.join(yes)} as yes for every tree ({cites})")
    others = (
        "otherwise a tree without the column is taken as no"
        if readings
        else "every law takes each as no for every tree"
    )
    relief = [f for f in flags if f in RELIEF_FLAGS]
    caution = (
        _CONFIRM
        if not relief
        else f"{_CONFIRM}, and one flagged {', '.join(relief)} may be exempt or excluded"
        if len(relief) < len(flags)
        else _NOT_CLAIMED
    )
    return [
        f"{NOT_SURVEYED}{', '.join(flags)} — what a tree without the column is taken as is the law's, decided when "
        f"the survey is assessed: {'; '.join([*readings, others])}; {caution}"
    ]


def column_readers(column: str, jurisdiction: object) -> list[str]:
    """The rules that read a survey column, as each law's record cites them: the law the site names, else every
    law's (the survey may be assessed under any)."""
    records = list(jurisdictions.REGISTRY.values())
    if jurisdiction:
        try:
            records = [jurisdictions.get(str(jurisdiction))]
        except ValueError:
            pass  # an unknown jurisdiction is the assessment's error
    return [_cited(r, [r.survey_columns[column]]) for r in records if column in r.survey_columns]


def _cited(record: Any, words: list[str]) -> str:
    """A record's citations (:func:`treecalc.law.registry.said`) as the law in force today numbers them: a survey is
    read before the date it is assessed on is known to these lines, which the assessment restates for its law."""
    held = cites.sections(record.key, dt.date.today())
    return ", ".join(dict.fromkeys(said(w, held) for w in words))
