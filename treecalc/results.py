"""Typed findings of a tree-law assessment: permit, replacement (with its parts), fund, penalties.

Each jurisdiction's rules module (:mod:`treecalc.rules.croton_on_hudson`,
:mod:`treecalc.rules.wesley_hills`) returns these; the statement, the CLI, the app and the
projection read their fields as attributes (the JSON of ``treecalc assess --json`` is built from the
same fields).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from decimal import Decimal
from typing import Any, ClassVar, NamedTuple

import numpy as np

from treecalc.law.schema import Bracket, Entry
from treecalc.money import cents


class _Fields:
    """A finding's dataclass turned whole into plain data (``to_dict``) for the JSON; read its fields as attributes."""

    def to_dict(self) -> dict[str, Any]:
        """Its fields in declaration order; a :class:`Records` becomes a list, a nested finding its dict."""
        out: dict[str, Any] = {}
        for f in fields(self):  # type: ignore[arg-type]
            v = getattr(self, f.name)
            if isinstance(v, Records):
                v = list(v)
            if isinstance(v, _Fields):
                v = v.to_dict()
            elif isinstance(v, list):
                v = [x.to_dict() if isinstance(x, _Fields) else x for x in v]
            out[f.name] = v
        return out


#: The parts of a law an output gives figures for, as a town's readings name what of its ordinance is not held
#: (``[[not_held]]`` ``part``): the permit (required or not, its triggers), the exemptions from replacement, the
#: fund payments in lieu are paid into, the penalties (offences and their amounts), the adoption date.
NOT_HELD_PARTS = ("permit", "exemptions", "fund", "penalties", "adoption")


@dataclass(frozen=True)
class NotHeld(_Fields):
    """A part of a law treecalc has not read: the outputs say so where its figure would stand, never 0 or "no"."""

    town: str
    section: str
    what: str
    #: which part it is (:data:`NOT_HELD_PARTS`; "" for one a town's readings do not name)
    part: str = ""

    def __str__(self) -> str:
        return f"not held for {self.town}: see {self.section} ({self.what})"

    @property
    def short(self) -> str:
        """In the place of a figure: "not held (see Ch. 201 (penalties))"."""
        return f"not held (see {self.section})"


@dataclass(eq=False)
class Permit(_Fields):
    """The permit the removals need (§208-19 Croton; §95-3A(1) Wesley Hills)."""

    #: None: the law's permit section is not held (the output says so, and neither yes nor no)
    required: bool | None
    triggers: list[dict[str, Any]]
    exceptions_applied: list[dict[str, str]]
    trees_needing_permit: int
    approving_authority: str
    removals_12mo: int | None = None
    clear_cutting: bool = False
    notes: list[str] = field(default_factory=list)
    #: the law's entries this finding applied (value, unit, section, text), by dotted key, as in force on the
    #: assessment's date: what the outputs quote of the law is read here, never from the law files again
    entries: dict[str, Entry | Bracket] = field(default_factory=dict, kw_only=True)
    #: the permit's part of the law is not held (``required`` is then None): what the outputs say in its place
    not_held: NotHeld | None = field(default=None, kw_only=True)

    def statement_lines(self, section: str, items: tuple[str, str, str], note: str) -> list[dict[str, Any]]:
        """Its statement lines: each site trigger, each exception, then whether it is required (``section``).

        ``items`` are the jurisdiction's words for the three: trigger, exception, permit required.
        """
        trigger, exception, required = items
        out = [line(t["section"], trigger, t["text"], "", tags_text(t["tags"])) for t in self.triggers]
        out += [line(e["section"], exception, e["text"]) for e in self.exceptions_applied]
        out.append(line(section, required, "yes" if self.required else "no", "", note))
        return out


@dataclass(eq=False)
class ReplacementPart(_Fields):
    """One part of the replacement requirement: a section, its percentage and the trees it covers."""

    section: str
    percent: float
    trees: int
    value_usd: float
    required_value_usd: float
    tags: list[str] = field(default_factory=list)
    reason: str = ""
    #: the same amounts in exact integer cents (a float loses the cents above ~$9 x 10^13)
    value_cents: int | None = None
    required_value_cents: int | None = None


@dataclass(eq=False)
class Replacement(_Fields):
    """§208-22: the value the replacements must carry, its parts, and the planting plan."""

    required: bool
    percent: float | None
    section: str
    value_basis: str
    value_basis_label: str
    removed_value_usd: float | None
    required_value_usd: float | None
    parts: list[ReplacementPart] = field(default_factory=list)
    percent_note: str = ""
    violation: bool = False
    trees_counted: int = 0
    removals_under_permit: int = 0
    min_trees: int | None = None
    excluded: Sequence[dict[str, Any]] = field(default_factory=list)
    stock: list[dict[str, Any]] = field(default_factory=list)
    plan: list[dict[str, Any]] = field(default_factory=list)
    trees_needed: int | None = None
    trees_planted: int | None = None
    trees_in_lieu: int | None = None
    planted_value_usd: float | None = None
    unmet_value_usd: float | None = None
    planting_cost_usd: float | None = None
    native_share: float | None = None
    native_planted: int | None = None
    policy: str = ""
    status: str = ""
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: a count-by-class law's replacement trees for each removed tree by tag (None: the text leaves it undecided)
    trees_by_tag: dict[str, int | None] | None = None
    #: what of the law is not held, each "not held for <town>: see <section> (...)": said, with no amount
    not_held: list[str] = field(default_factory=list)
    #: a caliper-inches law's DBH of the trees counted, the caliper inches to replace and each removed tree's inches
    #: by tag (None: the text leaves it undecided, and the totals are then None)
    inches_removed: float | None = None
    inches_required: float | None = None
    inches_by_tag: dict[str, float | None] | None = None
    #: removed_value_usd and required_value_usd in exact integer cents
    removed_value_cents: int | None = None
    required_value_cents: int | None = None
    #: the violation standard on the trees whose offence is conditional (a fact not given): what would be required if it
    #: were established; never in required, the parts or the totals (None when there is none)
    conditional_22f: dict[str, Any] | None = None
    #: the law's entries this finding applied (value, unit, section, text), by dotted key, as in force on the
    #: assessment's date: what the outputs quote of the law is read here, never from the law files again
    entries: dict[str, Entry | Bracket] = field(default_factory=dict, kw_only=True)
    #: the sentences the outputs print that quote those entries, written when the finding was made (the
    #: statement's "under a permit for three or more trees"): by name
    said: dict[str, str] = field(default_factory=dict, kw_only=True)


@dataclass(frozen=True)
class QuotedLabels:
    """The labels that quote a number of the law, filled from the law in force on the assessment's date: a survey
    column's (``columns``: "Slope over 20%", §208-19A(3)) and a site fact's (``site``: "Trees removed on the lot in
    the previous 12 months (trees)"), by name. The outputs head their columns and facts with these."""

    columns: Mapping[str, str] = field(default_factory=dict)
    site: Mapping[str, str] = field(default_factory=dict)
    #: every section the assessment's law cites, by its entry's or provision's key (``"sections.valuation_method"``:
    #: :func:`treecalc.law.cites.sections`), as in force on the assessment's date: the outputs cite these
    sections: Mapping[str, str] = field(default_factory=dict)


def exact_cents(amount: Any) -> int | None:
    """An amount in USD (Decimal, int or float) as exact integer cents, half up; None stays None."""
    if amount is None:
        return None

    return int(cents(amount) * 100)


@dataclass(eq=False)
class Fund(_Fields):
    """§208-22D/F, §208-24: the payment in lieu to the Tree Preservation Fund."""

    basis: str | None
    fund_in_lieu_usd: float | None
    section: str = ""
    fee_per_tree_usd: float | None = None
    multiplier: float | None = None
    placeholder: bool = False
    label: str = ""
    source: str = ""
    trees_in_lieu: int | None = None
    unmet_value_usd: float | None = None
    capital_value_basis: str | None = None
    fund_in_lieu_exact: Any = None
    calculation: str = ""
    alternative_22f_usd: float | None = None
    alternative_22f_calculation: str = ""
    notes: list[str] = field(default_factory=list)
    alternative_22f_exact: Any = None  # alternative_22f_usd as an exact Decimal
    #: the law's entries this finding applied (value, unit, section, text), by dotted key, as in force on the
    #: assessment's date: what the outputs quote of the law is read here, never from the law files again
    entries: dict[str, Entry | Bracket] = field(default_factory=dict, kw_only=True)
    #: the fund the payment is made into is not held (the amount, when given, is the law's: only its fund is not)
    not_held: NotHeld | None = field(default=None, kw_only=True)


@dataclass(eq=False, kw_only=True)
class Penalties(_Fields):
    """§208-29 civil and criminal maxima (Croton) or Chapter 95 fines (Wesley Hills).

    ``*_max_usd`` count definite offences only (facts given); ``*_conditional_usd`` is what
    the offences resting on an assumed fact would add. The §208-29 amounts and their doubling
    (§208-29B(7)) are Croton-on-Hudson's: under another law they stay None, not doubled. The
    Chapter 95 fines (``fine_*``) are given by every rules module, None where the law has none.
    """

    civil_penalty_max_usd: int | None = None
    civil_penalty_conditional_usd: int | None = None
    criminal_fine_max_usd: int | None = None
    criminal_fine_conditional_usd: int | None = None
    fine_max_usd: int | None
    fine_conditional_usd: int | None
    doubled: bool = False
    doubling_reasons: list[str] = field(default_factory=list)
    continuing_days: int
    offences: int
    offences_definite: int
    offences_conditional: int
    per_tree: Sequence[dict[str, Any]]
    not_offences: Sequence[dict[str, Any]] = field(default_factory=list)
    criminal_sections: list[str] = field(default_factory=list)
    criminal_alternative_usd: int | None = None
    clear_cutting: bool = False
    notes: list[str] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)
    #: the law's entries this finding applied (value, unit, section, text), by dotted key, as in force on the
    #: assessment's date: what the outputs quote of the law is read here, never from the law files again
    entries: dict[str, Entry | Bracket] = field(default_factory=dict)
    #: the penalties' part of the law is not held: no offence is found and no amount given, and the outputs say
    #: this in the place of the counts and amounts (never 0 offences, never "no offence")
    not_held: NotHeld | None = None


#: The keys of a per-tree offence row (:attr:`Penalties.per_tree`, as every rules module writes it) saying what
#: the offence rests on: ``status`` is "definite" (the facts given make it an offence) or "conditional" (it rests
#: on a fact not given, assumed), ``depends_on`` names that fact ("" for a definite offence).
OFFENCE_STATUS = "status"
OFFENCE_DEPENDS_ON = "depends_on"


def offence_status(row: Mapping[str, Any]) -> tuple[str | None, str]:
    """Of a per-tree offence row: ``"definite"``, ``"conditional"`` or None (a row that does not say, of which no
    split is made), and the fact(s) it depends on (several joined by "; "; "" when none)."""
    status = str(row.get(OFFENCE_STATUS) or "").lower()
    depends = row.get(OFFENCE_DEPENDS_ON) or ""
    if isinstance(depends, (list, tuple)):
        depends = "; ".join(map(str, depends))
    return (status if status in ("definite", "conditional") else None), str(depends)


class ChapterSummary:
    """A law's own figures that no other finding holds (Wesley Hills: its fine for other violations per day).

    A rules module that has some makes a dataclass of this, its fields typed; the statement writes them as a
    table headed ``title``, each row under ``default_section`` unless the figure names its own.
    """

    title: ClassVar[str] = ""
    #: the law's short name, heading the tables the summary holds ("Wesley Hills — triggers")
    short: ClassVar[str] = ""
    default_section: ClassVar[str] = ""
    note: str

    def figures(self) -> dict[str, Any]:
        """The fields by name, in their order."""
        return {f.name: getattr(self, f.name) for f in fields(self)}  # type: ignore[arg-type]


class Findings(NamedTuple):
    """What a jurisdiction's rules module finds (its ``assess(ctx)``), in this order."""

    permit: Permit
    replacement: Replacement
    fund: Fund
    penalties: Penalties
    lines: list[dict[str, Any]]
    site: dict[str, Any]
    summary: ChapterSummary | None = None
    #: The site facts the law read that were not given (its assumed value filled in): a fact given, 0 or no
    #: included, is never among them.
    site_assumed: tuple[str, ...] = ()


class Records(Sequence[dict[str, Any]]):
    """Rows (one dict each) held as columns, made into dicts only when read (50,000 trees cost no loop)."""

    def __init__(self, columns: Mapping[str, Any]) -> None:
        self._cols = {k: np.asarray(v, dtype=object) for k, v in columns.items()}
        self._n = len(next(iter(self._cols.values()))) if self._cols else 0
        self._rows: list[dict[str, Any]] | None = None

    def _materialise(self) -> list[dict[str, Any]]:
        if self._rows is None:
            cols = {k: [plain(x) for x in v.tolist()] for k, v in self._cols.items()}
            self._rows = [dict(zip(cols, vals)) for vals in zip(*cols.values())] if cols else []
        return self._rows

    def __getitem__(self, i: Any) -> Any:
        return self._materialise()[i]

    def __len__(self) -> int:
        return self._n

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self._materialise())

    def __eq__(self, other: object) -> bool:
        return list(self) == list(other) if isinstance(other, (list, Records)) else NotImplemented

    def __repr__(self) -> str:
        return f"Records({self._n} rows)"


def line(section: str, item: str, value: Any, unit: str = "", note: str = "") -> dict[str, Any]:
    """One statement line (section, item, value, unit, note)."""
    return {"section": section, "item": item, "value": plain(value), "unit": unit, "note": note}


def tags_text(tags: list[str], limit: int = 12) -> str:
    if len(tags) <= limit:
        return "trees " + ", ".join(tags)
    return "trees " + ", ".join(tags[:limit]) + f" and {len(tags) - limit} more"


def plain(v: Any) -> Any:
    """A JSON-ready Python value (numpy scalars, Decimals, lists)."""
    if isinstance(v, np.bool_):
        return bool(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    if isinstance(v, Decimal):
        return float(v)
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    return v


def records(x: Any) -> list[dict[str, Any]]:
    """A table (DataFrame, :class:`Records`, list of dicts or objects, dict of lists) as plain records.

    A DataFrame's missing cells become None and its numpy scalars Python values (:func:`plain`).
    """
    if x is None:
        return []
    if hasattr(x, "to_dict") and hasattr(x, "columns"):  # a DataFrame (pandas not imported here)
        if not len(x):
            return []
        out = x.astype(object).where(x.notna(), None)
        return [{k: plain(v) for k, v in r.items()} for r in out.to_dict(orient="records")]
    if isinstance(x, Mapping):
        vals = list(x.values())
        if vals and all(isinstance(v, (list, tuple)) for v in vals):
            n = max(len(v) for v in vals)
            return [{k: (v[i] if i < len(v) else None) for k, v in x.items()} for i in range(n)]
        return [dict(x)]
    rows: list[dict[str, Any]] = []
    for r in x:
        if isinstance(r, Mapping):
            rows.append(dict(r))
        elif callable(getattr(r, "to_dict", None)):
            rows.append(dict(r.to_dict()))
        elif hasattr(r, "__dict__"):
            rows.append(dict(vars(r)))
        else:
            rows.append({"value": r})
    return rows
