"""Field names as a person reads them: a site fact, a survey column or a figure of the assessment named in a note,
a reading or a cell ("read from the site fact prior_violation_within_year") said by its label instead ("read from
the site fact “an earlier violation within one year”").

The labels are data: a site fact's from ``data/readings/site_facts.toml`` (:data:`treecalc.ingest.site.SITE_LABELS`)
or, when it quotes a number of a law, from that law's readings (``[site_labels]``); a column's from
``treecalc/columns.csv`` (:data:`treecalc.schema.COLUMNS`); a figure's from its name's unit
(:func:`treecalc.schema.describe`). The notes and readings stay written with the field names the code and the
command line use (``--site has_residence=true`` is what a user types, and is left as it is); the reports, the
statement and the app's pages say them here, at the one place each writes its text.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import functools
import re
from collections.abc import Iterator, Mapping

from treecalc.law.registry import REGISTRY
from treecalc.schema import COLUMNS, describe

__all__ = ["field_label", "field_names", "quoting", "said"]

#: A snake_case name standing alone: not in a path or a file name ("data/law/croton_on_hudson/fund.toml"), not
#: a command line's ``--site name=value`` (a user types it as written), with its ``=value`` when it has one
_NAME = re.compile(
    r"(?<![\w/.\-‹])(?<!-{2}site )([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?![\w/]|\.[a-z])(?:=(true|false|yes|no|N)\b)?"
)

_VALUES = {"true": "yes", "false": "no", "yes": "yes", "no": "no"}


@functools.cache
def _labels() -> dict[str, str]:
    """Every field name's label (the site facts', the columns', the assessment's figures'), first found wins."""
    from treecalc import results, schema  # heavy: numpy, loaded only when this runs

    # heavy: pandas, numpy, pyarrow, ..., loaded only when this runs
    from treecalc.ingest.site import SITE_FIELDS, SITE_LABELS
    from treecalc.reference import data  # heavy: pandas, numpy, pyarrow, ..., loaded only when this runs

    out: dict[str, str] = dict(SITE_LABELS)
    for k, c in COLUMNS.items():
        # the statement's label, not the app's (which names the default law's sections: a village of its own would
        # read another law's section)
        out.setdefault(k, c.label or c.app or describe(k).label or k)
    figures = [
        f.name
        for cls in vars(results).values()
        if isinstance(cls, type) and dataclasses.is_dataclass(cls)
        for f in dataclasses.fields(cls)
    ]
    surveyed = [*schema.FLAG_FIELDS, *schema.TREE_FACT_FIELDS, *schema.SURVEY_FIELD_COLUMNS, *schema.ACTIONS]
    for k in [*SITE_FIELDS, *surveyed, *figures, *data.LAND_USES]:
        out.setdefault(k, describe(k).label or k)
    return {k: v for k, v in out.items() if "_" in k}


#: The labels that quote a number of the law (a column's "Slope over 20%", a fact's "within one year"), of the
#: assessment whose output is being written (:attr:`treecalc.assessment.Assessment.labels`, filled from the law of
#: its date): set by the statement and the report while they write, read before the data's fixed labels
_QUOTED: contextvars.ContextVar[Mapping[str, str] | None] = contextvars.ContextVar(
    "treecalc_quoted_labels", default=None
)


@contextlib.contextmanager
def quoting(labels: Mapping[str, str]) -> Iterator[None]:
    """Say the fields whose label quotes a number of the law by ``labels`` (an assessment's) while the block runs."""
    token = _QUOTED.set(dict(labels))
    try:
        yield
    finally:
        _QUOTED.reset(token)


@functools.cache
def _values() -> dict[str, str]:
    """A cell that is a keyword of the code's alone (a jurisdiction's key, a basis of payment, a planting policy):
    what it stands for."""
    from treecalc.report.content import BASIS_WORDS  # heavy: pandas, numpy, pyarrow, ..., loaded only when this runs

    out = {k: r.name for k, r in REGISTRY.items()}
    out.update({k: v[:1].upper() + v[1:] for k, v in BASIS_WORDS.items()})
    out.update(_POLICIES)
    return {k: v for k, v in out.items() if "_" in k}


#: The planting policies (:func:`treecalc.models.planting.plan`) as a person reads them
_POLICIES = {
    "plant_first": "Plant first: pay in lieu only for the trees that cannot be planted",
    "cheapest": "Cheapest: planting and payment at the applicant's choice",
}


def field_names() -> frozenset[str]:
    """The field names :func:`said` says in words (those with an underscore: a one-word name is a word)."""
    return frozenset(_labels())


def field_label(name: str) -> str | None:
    """The label of the field ``name`` ("A residence stands on the lot (yes/no)"), None for no field."""
    return (_QUOTED.get() or {}).get(name) or _labels().get(name)


def _running(label: str) -> str:
    """A label in running text: without the kind of answer ("(yes/no)"), lower-cased unless it opens with an
    acronym ("DBH")."""
    words = re.sub(r" \((?:yes/no|trees|acres|[^()]*code[^()]*)\)$", "", label)
    return words if words[1:2].isupper() else words[:1].lower() + words[1:]


def said(text: object) -> str:
    """``text`` with each field name it names said by its label: a cell that is a field name alone, the label; a
    name in a sentence, its label in running text in quotes, with ``=true`` as " = yes"."""
    s = str(text)
    if "_" not in s or s.lstrip()[:1] in ("{", "["):  # a JSON document (the fingerprint ``verify`` reads): data
        return s
    quoted = _QUOTED.get()
    known = {**_labels(), **quoted} if quoted else _labels()
    whole = known.get(s.strip()) or _values().get(s.strip())
    if whole is not None:
        return whole

    def one(m: re.Match[str]) -> str:
        label = known.get(m.group(1))
        if label is None:
            return m.group(0)
        value = m.group(2)
        words = f"“{_running(label)}”"
        if value is None:
            return words
        return f"{words} = {_VALUES[value]}" if value in _VALUES else f"{words} (a number)"

    return _NAME.sub(one, s)
