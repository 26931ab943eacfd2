"""Stage 5 of the read: what the survey says about each tree besides species and DBH —
action, condition, land use, notes, flags, distance to the residence, coordinates.

Every reader applies a one-cell parser once per distinct cell (:func:`parse_distinct`).

* **Action**. Blank is ``retain`` (said once in the warnings). A status word of a municipal
  inventory is a status, not an action: Alive → retain, Dead → retain, dead_or_diseased and the
  condition dead, Stump → removed. "Remove – hazard" is remove and hazardous. A word treecalc does not know
  rejects the row with the list of known actions: it never becomes a removal.
* **Flags**. Y/N, Yes/No, X/blank, TRUE/FALSE, 1/0, ✓, and the census ``curb_loc`` OnCurb /
  OffsetFromCurb; a blank cell is not given. Text that is not a boolean ("maybe") keeps the row with a warning
  and the conservative value for the permit preview (True for flags that raise an obligation, False for the
  exemptions), and is recorded per tree (``flags_unclear``): an offence or penalty tier resting on it is conditional.
* **Coordinates** are kept as given: latitude/longitude in WGS84 degrees, x/y projected; a cell
  that is not a number, or a latitude/longitude out of range, is left blank with a warning.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import pandas as pd
from numpy.typing import DTypeLike

from treecalc.ingest import columns as C
from treecalc.ingest import values as V
from treecalc.ingest.errors import AmbiguousActionError, SurveyError
from treecalc.ingest.rows import Table
from treecalc.ingest.values import as_text, is_blank
from treecalc.law.cites import cite, joined
from treecalc.reference.data import zone_code
from treecalc.reference.geo import AGREE_DEG, disagreement, to_wgs84

T = TypeVar("T")


#: Cell types whose values never equal a value of another type, but the numbers: 1, 1.0 and TRUE are
#: equal (and hash alike) in Python, so a column holding two kinds of number keys its cells by type too.
_PLAIN_TYPES = frozenset({str, type(None), float, int, bool, _dt.datetime, _dt.date, _dt.time, _dt.timedelta})
_NUMBER_TYPES = frozenset({float, int, bool})


def _one_kind_of_number(values: list) -> bool:
    kinds = set(map(type, values))
    return kinds <= _PLAIN_TYPES and len(kinds & _NUMBER_TYPES) <= 1


def distinct(values: list) -> tuple[np.ndarray, list]:
    """(for each cell, the position of its value among the distinct ones; the distinct cells in the
    order first seen). Cells of different types stay apart: the number 1, the float 1.0, TRUE and the
    text "1" are four values."""
    uniq = list(dict.fromkeys(values))  # a text equals only a text: a column of texts needs no more look
    if all(type(u) is str or u is None for u in uniq) or _one_kind_of_number(values):  # hashed in C
        index = {u: i for i, u in enumerate(uniq)}
        return np.fromiter(map(index.__getitem__, values), dtype=np.intp, count=len(values)), uniq
    keyed: dict = {}
    codes = np.fromiter(
        (keyed.setdefault(v if type(v) is str else (type(v), v), len(keyed)) for v in values),
        dtype=np.intp,
        count=len(values),
    )
    return codes, [k if type(k) is str else k[1] for k in keyed]


def spread(per_value: list, codes: np.ndarray, dtype: DTypeLike = object) -> np.ndarray:
    """The per-distinct-value results laid out per cell."""
    arr = np.empty(len(per_value), dtype=dtype)
    for i, x in enumerate(per_value):
        arr[i] = x
    return arr[codes]


def parse_distinct(values: list, parse: Callable[[Any], T]) -> list[T]:
    """``[parse(v) for v in values]``, calling ``parse`` once per distinct cell (:func:`distinct`)."""
    codes, uniq = distinct(values)
    return spread([parse(u) for u in uniq], codes).tolist()


def _texts(per_value: list[str], codes: np.ndarray) -> list[str] | None:
    """Per-cell texts (None when every text is empty: nothing to say)."""
    return spread(per_value, codes).tolist() if any(per_value) else None


def _mask(texts: list[str]) -> np.ndarray:
    return np.fromiter((bool(t) for t in texts), dtype=bool, count=len(texts))


@dataclass
class Actions:
    action: np.ndarray  # canonical action per row ('' where unknown: the row is rejected)
    unknown: np.ndarray  # rows whose action word is not known
    reasons: list[str]  # the rejection text of those rows
    facts: dict[str, np.ndarray]  # flags stated in the action cell ("Remove – hazard", "Dead")
    column: C.Column | None
    blank: np.ndarray  # rows whose action cell is blank
    # per row, the share a cell "Pruned 25%" states (NaN elsewhere), whether it says "over" it, and whether the cell
    # states a pruning without its share ("Prune"); None: no cell states a pruning
    pruned: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    # the status column beside the action: the condition it states per row ('' where none) and a warning per row
    # for a status not recognised (None: no status column)
    status_condition: np.ndarray | None = None
    status_warn: list[str] | None = None
    # the other action columns whose cells stated a fact too (a hazard, must remove), by fact: named where it is said
    fact_headers: dict[str, list[str]] | None = None


def read_actions(table: Table, mapping: C.Mapping, warnings: list[str]) -> Actions:
    """The action of each tree (see the module docstring)."""
    col = mapping.first("action") or mapping.first("remove") or mapping.first("retain")
    n = table.n
    if col is None:
        warnings.append("no action column (Action, Remove?, Status...): every tree taken as retained")
        no = np.zeros(n, dtype=bool)
        return Actions(np.array(["retain"] * n, dtype=object), no, [""] * n, {}, None, no.copy())
    vals = table.values(col)
    remove_col = col is not None and col.field == "remove"
    retain_col = col is not None and col.field == "retain"
    codes, uniq = distinct(vals)
    read = [V.read_action(v, remove_column=remove_col, retain_column=retain_col) for v in uniq]
    action = spread([r.action or "retain" if r.action is not None else "" for r in read], codes)
    unknown = spread([r.action is None for r in read], codes, bool)
    known = V.known_actions_text()
    reasons = (
        [
            f"row {sr}, column {col.header!r}: action {V.short(as_text(v))} not recognised; known actions: {known}"
            if u
            else ""
            for sr, v, u in zip(table.source_row, vals, unknown)
        ]
        if unknown.any()
        else [""] * n
    )
    facts = {
        f: spread([f in r.facts for r in read], codes, bool) for f in dict.fromkeys(f for r in read for f in r.facts)
    }
    pruned = None
    if any(r.pruned is not None for r in read):
        pruned = (
            spread([r.pruned[0] if r.pruned else np.nan for r in read], codes, float),
            spread([bool(r.pruned and r.pruned[1]) for r in read], codes, bool),
            spread([r.pruned is not None and np.isnan(r.pruned[0]) for r in read], codes, bool),
        )
    acts = Actions(action, unknown, reasons, facts, col, spread([is_blank(v) for v in uniq], codes, bool), pruned)
    _check_rivals(table, mapping, acts, warnings)
    _read_status(table, mapping, acts, warnings)
    return acts


def _refuse(table: Table, a: C.Column, b: C.Column, rows: list[int], va: list, vb: list) -> AmbiguousActionError:
    """The refusal of two columns that could each be the action and disagree on ``rows`` (positions)."""
    shown = "; ".join(
        f"row {table.source_row[i]}: {V.short(as_text(va[i]) or '(blank)')} / {V.short(as_text(vb[i]) or '(blank)')}"
        for i in rows[:3]
    ) + ("; …" if len(rows) > 3 else "")
    return AmbiguousActionError(
        f"columns {a.header!r} and {b.header!r} could each be the trees' action (the work to be done) and they "
        f"disagree on {len(rows)} {'row' if len(rows) == 1 else 'rows'} ({shown}); treecalc does not choose one: "
        f'say which is the action, ‹column_map="{a.header}=action"› or ‹column_map="{b.header}=action"›',
        (a.header, b.header),
    )


def _rows_text(table: Table, rows: np.ndarray) -> str:
    """ "row 3" / "rows 3, 5, 8 …": the source rows of ``rows`` (positions), the first few."""
    sr = [str(table.source_row[i]) for i in rows[:5]]
    return ("row " if len(rows) == 1 else "rows ") + ", ".join(sr) + (" …" if len(rows) > 5 else "")


_FACT_WORDS = {"hazardous": "hazard", V.MUST_REMOVE: "must remove", "dead_or_diseased": "dead", "dead": "dead"}


def _fill_blank_actions(
    table: Table, acts: Actions, said: list[str | None], col: C.Column, other: C.Column, warnings: list[str]
) -> None:
    """Rows whose action cell is blank take the action the other column says (``said``, None where it says none):
    what is given is read, and said, rather than the blank taken as retain."""
    fill = np.array([bool(b and w) for b, w in zip(acts.blank.tolist(), said)], dtype=bool)
    if not fill.any():
        return
    rows = np.flatnonzero(fill)
    for i in rows:
        acts.action[i] = said[i]
    acts.blank[fill] = False
    what = sorted({str(said[i]) for i in rows})
    warnings.append(
        f"{_rows_text(table, rows)}: {col.header!r} blank, {other.header!r} says {' / '.join(what)}: read as "
        f"{other.header!r} says"
    )


def _check_rivals(table: Table, mapping: C.Mapping, acts: Actions, warnings: list[str]) -> None:
    """Each other column whose header says the work to be done: where both cells say an action and they differ, the
    survey is refused (:class:`AmbiguousActionError`); a blank or non-action cell in either is no disagreement. The
    action left blank is read from the other column, and the qualifiers it states (a hazard, must remove) count
    with the action's own, each said."""
    col = acts.column
    if col is None:
        return
    vals = table.values(col)
    for rival in mapping.rival_actions:
        rvals = table.values(rival)
        codes, uniq = distinct(rvals)
        read = [
            V.read_action(v, remove_column=rival.field == "remove", retain_column=rival.field == "retain") for v in uniq
        ]
        # the action each cell says; None where blank or not an action word ("see arborist"): it says none
        theirs: list[str | None] = spread([r.action or None for r in read], codes).tolist()
        mine = [None if (b or u) else a for a, b, u in zip(acts.action.tolist(), acts.blank.tolist(), acts.unknown)]
        differ = [i for i, (x, y) in enumerate(zip(mine, theirs)) if x and y and x != y]
        if differ:
            raise _refuse(table, col, rival, differ, vals, rvals)
        _fill_blank_actions(table, acts, theirs, col, rival, warnings)
        warnings.append(
            f"column {rival.header!r} says the same action as {col.header!r} wherever both say one; "
            f"{col.header!r} is read"
        )
        for f in dict.fromkeys(f for r in read for f in r.facts):
            has = spread([f in r.facts for r in read], codes, bool)
            new = has & ~acts.facts[f] if f in acts.facts else has
            acts.facts[f] = acts.facts[f] | has if f in acts.facts else has
            if new.any():
                warnings.append(
                    f"{_rows_text(table, np.flatnonzero(new))}: {rival.header!r} says "
                    f"{_FACT_WORDS.get(f, f.replace('_', ' '))}, read with the action of {col.header!r}"
                )
                acts.fact_headers = acts.fact_headers or {}
                acts.fact_headers.setdefault(f, []).append(rival.header)


#: Words of a status column that say the tree's state, not work to be done (a census's Alive / Dead).
_STATE_WORDS = frozenset(
    V._key(w) for w in ("alive", "living", "live", "healthy", "standing", "dead", "standing dead", "dying", "existing")
)


def _read_status(table: Table, mapping: C.Mapping, acts: Actions, warnings: list[str]) -> None:
    """The status column beside the action (Alive, Dead, Stump; Good, Fair, Poor): the condition it states, a dead
    tree's facts added to the action's. A status that says work or a removal (Stump, Removed) where the action
    says otherwise refuses the survey, unless the user's column map said which column is which."""
    scol = mapping.first("status")
    if scol is None:
        return
    vals = table.values(scol)
    codes, uniq = distinct(vals)
    # per distinct cell: (condition it states, facts, the action it says (None: the tree's state only), warning)
    per: list[tuple[str, tuple[str, ...], str | None, str]] = []
    for v in uniq:
        k = V._key(v) if not is_blank(v) else ""
        read = V.read_action(v)
        c = V.parse_condition(v)
        if not k:
            per.append(("", (), None, ""))
        elif k in _STATE_WORDS or c:
            per.append((c or "", read.facts if k in _STATE_WORDS else (), None, ""))
        elif read.action:
            per.append(("", read.facts, read.action, ""))
        else:
            per.append(
                (
                    "",
                    (),
                    None,
                    f"status {V.short(as_text(v))} in column {scol.header!r} not recognised (alive, dead, stump, "
                    "good, fair, poor); left out",
                )
            )
    cond = [p[0] for p in per]
    facts = [p[1] for p in per]
    work = [p[2] for p in per]
    warn = [p[3] for p in per]
    acts.status_condition = spread(cond, codes)
    acts.status_warn = _texts(warn, codes)
    for f in dict.fromkeys(f for fs in facts for f in fs):
        has = spread([f in fs for fs in facts], codes, bool)
        acts.facts[f] = acts.facts[f] | has if f in acts.facts else has
    if acts.column is None or mapping.action_mapped:
        return
    said = spread(work, codes).tolist()
    # a row whose action is blank says nothing to disagree with; one not recognised is rejected for it already
    mine = [None if b else a for a, b in zip(acts.action.tolist(), acts.blank.tolist())]
    differ = [i for i, (w, a) in enumerate(zip(said, mine)) if w is not None and a and w != a]
    if differ:
        raise _refuse(table, acts.column, scol, differ, table.values(acts.column), vals)
    _fill_blank_actions(table, acts, said, acts.column, scol, warnings)


def blank_action_warning(acts: Actions, ok: np.ndarray) -> str:
    """The one warning counting the accepted trees whose action cell is blank."""
    if acts.column is None:
        return ""
    blank = acts.blank & ok
    return f"{int(blank.sum())} tree(s) with a blank {acts.column.header!r} taken as retain" if blank.any() else ""


def _read_coded(
    table: Table, mapping: C.Mapping, field: str, parse: Callable[[Any], str | None], warning: Callable[[Any, Any], str]
) -> tuple[np.ndarray, list[str] | None]:
    """A coded column read once per distinct cell: its code per row ('' when blank or not recognised) and
    ``warning(cell, code)`` per row (None: the column is absent)."""
    col = mapping.first(field)
    if col is None:
        return np.array([""] * table.n, dtype=object), None
    codes, uniq = distinct(table.values(col))
    read = [parse(v) for v in uniq]
    warn = [warning(v, c) for v, c in zip(uniq, read)]
    return spread([c or "" for c in read], codes), _texts(warn, codes)


def _condition_warning(v: Any, c: str | None) -> str:
    if c == "dead":
        return "dead tree"
    if c is not None or _condition_says_dead_or_diseased(v)[0]:  # "Diseased": said by condition_dead_or_diseased
        return ""
    return f"condition {as_text(v)!r} not recognised (excellent, good, fair, poor, dead); left blank"


def read_condition(
    table: Table, mapping: C.Mapping, acts: Actions | None = None
) -> tuple[np.ndarray, list[str] | None]:
    """ISA condition class per row ('' when blank or not recognised) and a warning per row (None: none); where the
    condition column gives none, the one a status column beside the action states (``acts``, :func:`_read_status`)."""
    cond, warn = _read_coded(table, mapping, "condition", V.parse_condition, _condition_warning)
    if acts is None or acts.status_condition is None:
        return cond, warn
    cond = np.where(cond == "", acts.status_condition, cond)
    if acts.status_warn is None or warn is None:
        return cond, warn or acts.status_warn
    return cond, ["; ".join(x for x in (a, b) if x) for a, b in zip(warn, acts.status_warn)]


def dead_status_condition(cond: np.ndarray, dead: np.ndarray | None) -> list[str] | None:
    """A status "Dead" in the action cell (a census export's Alive / Dead / Stump) is the condition dead:
    ``cond`` is set to "dead" in place on those rows, and a warning per row where the condition column said
    otherwise (None: no row's status says dead)."""
    if dead is None or not dead.any():
        return None
    other = dead & (cond != "") & (cond != "dead")
    warn = [
        f"status dead, condition {c!r}: taken as dead (no leaf area, no environmental value)" if o else ""
        for c, o in zip(cond.tolist(), other.tolist())
    ]
    cond[dead] = "dead"
    return warn


#: Words of a condition cell that say the tree is dying or diseased besides its class ("Dying" is class poor,
#: "Diseased" no class): with the class dead they are the fact ``dead_or_diseased``, as an action cell's
#: "Remove – dying" states it.
_DYING_WORDS = frozenset({"dying", "diseased"})
_NEGATIONS = frozenset({"no", "not", "non"})


def _condition_says_dead_or_diseased(v: Any) -> tuple[bool, str]:
    """One condition cell: whether it says the tree is dead, dying or diseased, and the warning that says how it
    is read when its class alone does not say so (a dead tree's own warning is :func:`_condition_warning`'s)."""
    if is_blank(v):
        return False, ""
    c = V.parse_condition(v)
    if c == "dead":
        return True, ""
    words = V._key(v).split()
    if _NEGATIONS & set(words) or not _DYING_WORDS & set(words):
        return False, ""
    cls = f"condition class {c}" if c else "no condition class"
    return True, f"condition {as_text(v)!r}: {cls}, and the tree read as dead, dying or diseased (dead_or_diseased)"


def condition_dead_or_diseased(table: Table, mapping: C.Mapping) -> tuple[np.ndarray | None, list[str] | None]:
    """Per row, whether the condition column says the tree is dead, dying or diseased: the survey's fact
    ``dead_or_diseased``, as the action cell's "Remove – dead" states it, so that a tree the condition column calls
    dead is not taken as a tree no one said was dead (None: no column, or no cell says so); and a warning per row
    whose cell says dying or diseased (a class poor or none would not show it)."""
    col = mapping.first("condition")
    if col is None:
        return None, None
    codes, uniq = distinct(table.values(col))
    read = [_condition_says_dead_or_diseased(v) for v in uniq]
    if not any(r[0] for r in read):
        return None, None
    return spread([r[0] for r in read], codes, bool), _texts([r[1] for r in read], codes)


def stated_facts(table: Table, mapping: C.Mapping, acts: Actions) -> tuple[dict[str, np.ndarray], list[str] | None]:
    """The flags the survey states outside their own columns, per row: the action cell's ("Remove – dead"), and
    ``dead_or_diseased`` where the condition says "Dead", "Dying" or "Diseased"
    (:func:`condition_dead_or_diseased`, with its warnings)."""
    stated = dict(acts.facts)
    by_condition, warn = condition_dead_or_diseased(table, mapping)
    if by_condition is not None:
        said = stated.get("dead_or_diseased")
        stated["dead_or_diseased"] = by_condition if said is None else said | by_condition
    return stated, warn


def read_land_use(table: Table, mapping: C.Mapping) -> tuple[np.ndarray, list[str] | None]:
    return _read_coded(
        table,
        mapping,
        "land_use",
        V.parse_land_use,
        lambda v, lu: "" if lu is not None else f"land use {as_text(v)!r} not recognised; left blank",
    )


def read_notes(table: Table, mapping: C.Mapping) -> np.ndarray:
    """Notes; several notes columns are joined with '; '."""
    cols = mapping.of("notes")
    if not cols:
        return np.array([""] * table.n, dtype=object)
    notes = table.text(cols[0])
    for c in cols[1:]:
        t = table.text(c)
        notes = pd.Series(np.where(notes == "", t, np.where(t == "", notes, notes + "; " + t)), dtype=object)
    return notes.to_numpy()


def _forestry_sections() -> str:
    """The sections of good forestry's exclusion and of the violation standard it would excuse, as the default law
    cites them ("§208-22E/F"): the survey is read before the law that applies is known."""
    return joined(cite(None, "sections.good_forestry"), cite(None, "replacement.violation_percent"))


#: Flags whose cell, when neither yes nor no, is read as not given with a reading of its own in the rules (a DEC
#: protected native plant's threatened or endangered status, the permit trigger of any size: "Unknown", "not
#: assessed"), unless it leans to yes ("maybe", "probably": :data:`_HEDGED`): that is taken as yes for the permit preview, as in every
#: flag column, and recorded as unclear (the offence resting on it conditional).
_NOT_GIVEN_IF_UNREAD = frozenset({"threatened_endangered"})
_HEDGED = re.compile(
    r"^(?:maybe|may be|probably|prob\.?|likely|possibly|possible|poss\.?|perhaps|potentially|suspected|"
    r"y(?:es)?\s*\?+)$",
    re.I,
)
#: Flags whose cell saying the fact is not known ("?", "unsure") is recorded as unclear besides: read as not
#: given (no), what rests on it is conditional (good forestry: the violation's replacement it would excuse).
_UNCLEAR_IF_NOT_KNOWN = frozenset({"good_forestry"})


def read_flags(
    table: Table, mapping: C.Mapping, facts: dict[str, np.ndarray], unclear: dict[str, list[str]] | None = None
) -> tuple[dict[str, Any], list[str], list[list[str] | None]]:
    """Each flag per row, the flags not surveyed (no column), and the warnings of each flag column.
    A flag stated in the action cell ("Remove – hazard", status "Dead") is set on its row.

    ``unclear`` (filled when given): per flag whose column has a cell that is neither yes nor no ("maybe"), that
    cell's text per row ("" elsewhere). The flag keeps its conservative value for the permit preview; the rules
    make an offence or a penalty tier resting on it conditional (:func:`unclear_cells`).

    A blank cell of a flag column is a fact not given (NA in a nullable boolean array), never a "no": the
    rules read what a fact not given means (Wesley Hills §95-3A(1)(e) makes the removal a conditional
    offence; Chapter 208 reads its flags not given as no, as before)."""
    n = table.n
    flags: dict[str, Any] = {}
    not_surveyed: list[str] = []
    warns: list[list[str] | None] = []
    for f in C.FLAG_FIELDS:
        fc = mapping.first(f)
        stated = facts.get(f)
        if fc is None:
            flags[f] = stated.copy() if stated is not None else np.zeros(n, dtype=bool)
            if stated is None or not stated.any():
                not_surveyed.append(f)
            continue
        conservative = f not in C.EXEMPTING_FLAGS
        codes, uniq = distinct(table.values(fc))
        read = [V.parse_bool(v, risk_words=(f == "hazardous")) for v in uniq]
        # a status that is not yes/no ("Unknown") is that status not given: the rules make the removal resting on
        # it conditional (the threatened or endangered trigger), where a "yes" would make it a definite offence on a
        # fact no one gave;
        # a cell saying the fact is not known ("?", "TBD") is not given in every flag column
        blank = [
            is_blank(v)
            or V.is_not_known(v)
            or (f in _NOT_GIVEN_IF_UNREAD and b is None and not _HEDGED.match(as_text(v).strip()))
            for v, b in zip(uniq, read)
        ]
        per = [pd.NA if k else (conservative if b is None else b) for b, k in zip(read, blank)]
        col = pd.array(spread(per, codes, object), dtype="boolean")
        # Kleene or: a flag the action cell states is True; a blank cell it does not state stays not given
        flags[f] = col | stated if stated is not None else col
        says = f"taken as {'yes' if conservative else 'no'} for the permit preview; " + (
            "offences resting on it are conditional"
            if conservative
            else f"the replacement it would excuse after a violation is conditional ({_forestry_sections()})"
            if f == "good_forestry"
            else "an offence it would excuse is conditional"
        )
        # the cells recorded as unclear: hedged ("maybe"), and for good forestry also "not known" ("?", "unsure")
        hedged = [
            b is None and not is_blank(v) and (not k or f in _UNCLEAR_IF_NOT_KNOWN)
            for v, b, k in zip(uniq, read, blank)
        ]
        if unclear is not None:
            texts = _texts([as_text(v) if h else "" for v, h in zip(uniq, hedged)], codes)
            if texts is not None:
                unclear[f] = texts
        warns.append(
            _texts(
                [
                    f"{f}: {as_text(v)!r} in column {fc.header!r} is not yes/no; {says}" if h else ""
                    for v, h in zip(uniq, hedged)
                ],
                codes,
            )
        )
    return flags, not_surveyed, warns


# Words that say a permit cell holds no permit though it carries a number (a date, an application or ticket
# number): "Pending TRP-2025-014", "applied 2025-03-01", "Expired 12/2024". Such a removal is not presumed lawful.
_NO_PERMIT_WORDS = re.compile(
    r"\b(pending|appl(y|ied|ication)|submitted|requested|awaiting|denied|refused|rejected|expired|revoked|"
    r"suspended|withdrawn|required|needed|none|no|not|without|violation|tbd)\b",
    re.IGNORECASE,
)


def _tree_fact(field: str, header: str, v: Any) -> tuple[bool | None, str]:
    """One cell of a tree-fact column: (yes, no, or None when not given) and a warning. A blank cell is not
    given (never "no"); in a permit column a permit number ("TRP-2025-014", 1234) reads yes."""
    if is_blank(v) or V.is_not_known(v):
        return None, ""
    b = V.parse_bool(v)
    if b is not None:
        return b, ""
    if field == "permit" and any(ch.isdigit() for ch in as_text(v)) and not _NO_PERMIT_WORDS.search(as_text(v)):
        return True, ""
    what = "yes/no or a permit number" if field == "permit" else "yes/no"
    return None, f"{field}: {V.short(as_text(v))} in column {header!r} is not {what}; taken as not given"


def read_tree_facts(
    table: Table, mapping: C.Mapping, unclear: dict[str, list[str]] | None = None
) -> tuple[dict[str, Any], list[list[str] | None]]:
    """The :data:`treecalc.schema.TREE_FACT_FIELDS` the survey has a column for, each a ``boolean`` array with
    NA where the cell says nothing (not given), and the warnings of each column (named with its header).
    ``unclear`` (filled when given): as :func:`read_flags`, the text of each cell neither blank nor yes/no: the
    fact is not given, and the offence it would excuse is conditional, never definite."""
    out: dict[str, Any] = {}
    warns: list[list[str] | None] = []
    for f in C.TREE_FACT_FIELDS:
        col = mapping.first(f)
        if col is None:
            continue
        codes, uniq = distinct(table.values(col))
        read = [_tree_fact(f, col.header, v) for v in uniq]
        out[f] = pd.array(spread([pd.NA if b is None else b for b, _ in read], codes).tolist(), dtype="boolean")
        warns.append(_texts([w for _, w in read], codes))
        if unclear is not None:
            texts = _texts([as_text(v) if w else "" for v, (_, w) in zip(uniq, read)], codes)
            if texts is not None:
                unclear[f] = texts
    return out, warns


def unclear_cells(unclear: dict[str, list[str]], n: int) -> np.ndarray | None:
    """Per row, the ``(flag, text)`` pairs of its cells that are neither yes nor no (an empty tuple elsewhere),
    None when no cell is: the trees frame's ``flags_unclear`` column, read by :func:`treecalc.frames.unclear`."""
    if not unclear:
        return None
    out = np.empty(n, dtype=object)
    out.fill(())
    rows = sorted({i for t in unclear.values() for i, x in enumerate(t) if x})  # few rows: not a loop over all
    for i in rows:
        out[i] = tuple((f, t[i]) for f, t in unclear.items() if t[i])
    return out


def read_must_remove(
    table: Table, mapping: C.Mapping, acts: Actions | None = None
) -> tuple[np.ndarray | None, list[str]]:
    """The applicant's "must remove" trees (``treecalc plan`` never retains such a tree), None when the
    survey says none: a "Must remove" column (a cell that is not yes/no is taken as no, with a warning) or
    the action cell's own words (:data:`treecalc.ingest.values.MUST_REMOVE_PHRASES`). Where the action
    says must remove and the column says no, the action's words win (they name the tree), with a warning."""
    said = acts.facts.get(V.MUST_REMOVE) if acts is not None else None
    said = said if said is not None and said.any() else None
    col = mapping.first("must_remove")
    if col is None:
        return (None if said is None else said.copy()), [""] * table.n
    values = table.values(col)
    codes, uniq = distinct(values)
    read = [V.parse_bool(v) for v in uniq]
    warn = [
        f"must remove: {as_text(v)!r} in column {col.header!r} is not yes/no; taken as no" if b is None else ""
        for v, b in zip(uniq, read)
    ]
    must = spread([bool(b) for b in read], codes, bool)
    warns = list(spread(warn, codes, object))
    if said is not None and acts is not None and acts.column is not None:
        action_cells = table.values(acts.column)
        for i in np.flatnonzero(said & ~must):
            warns[i] = (
                f"must remove: action {as_text(action_cells[i])!r} in column {acts.column.header!r}, "
                f"column {col.header!r} says {as_text(values[i])!r}; taken as must remove"
            )
        must = must | said
    return must, warns


def must_remove_warning(acts: Actions, ok: np.ndarray) -> str:
    """The one warning counting the accepted trees the action cell marks must remove (where the plan's
    must-remove trees came from when the survey has no such column)."""
    said = acts.facts.get(V.MUST_REMOVE)
    if acts.column is None or said is None or not (said & ok).any():
        return ""
    heads = [acts.column.header, *(acts.fact_headers or {}).get(V.MUST_REMOVE, [])]
    where = f"column {heads[0]!r}" if len(heads) == 1 else "columns " + " or ".join(repr(h) for h in heads)
    return f"{int((said & ok).sum())} tree(s) marked must remove in {where} (a removal treecalc plan never retains)"


def read_climate_zone(table: Table, mapping: C.Mapping) -> tuple[np.ndarray | None, list[str]]:
    """Each tree's i-Tree Streets climate zone (its code, any name :func:`treecalc.reference.data.zone_code` reads), None when
    the survey has no such column; a blank is "" (the tree's zone is then found as the survey's), and a cell that
    names no zone ("6b", a hardiness zone) is "" with a warning saying so."""
    col = mapping.first("climate_zone")
    if col is None:
        return None, [""] * table.n
    codes, uniq = distinct(table.values(col))

    def code(v: object) -> str | None:
        if is_blank(v):
            return ""
        try:
            return zone_code(as_text(v))
        except ValueError:
            return None

    read = [code(v) for v in uniq]
    warn = [
        f"climate zone {as_text(v)!r} in column {col.header!r} is no i-Tree Streets climate zone; the tree is "
        "valued in the zone found for it as for a tree without one (the site fact climate_zone, its coordinates or "
        "the survey's other trees; the climate zone notes say which)"
        if z is None
        else ""
        for v, z in zip(uniq, read)
    ]
    return spread([z or "" for z in read], codes, object), list(spread(warn, codes, object))


def read_percent(
    table: Table, mapping: C.Mapping, field: str, decimal_comma: bool
) -> tuple[np.ndarray | None, list[str]]:
    """A percentage column (0-100, e.g. the 10th edition's functional and external limitations), None when the
    survey has none; a blank is NaN (the default applies) and a cell not a percentage is NaN with a warning."""
    col = mapping.first(field)
    if col is None:
        return None, [""] * table.n
    vals = table.values(col)
    read = parse_distinct(vals, lambda v: V.parse_number(str(v).replace("%", "").strip(), decimal_comma))
    out = np.full(table.n, np.nan)
    warn = [""] * table.n
    for k, (v, x) in enumerate(zip(vals, read)):
        if x is not None and 0 <= x <= 100:
            out[k] = float(x)
        elif not is_blank(v):
            warn[k] = f"{as_text(v)!r} in column {col.header!r} is not a percentage from 0 to 100; the default applies"
    return out, warn


def read_distance(table: Table, mapping: C.Mapping, decimal_comma: bool) -> tuple[np.ndarray, list[str]]:
    """Distance to the residence in feet (NaN when blank or not a number, with a warning)."""
    col = mapping.first("distance_to_residence_ft")
    dist = np.full(table.n, np.nan)
    if col is None:
        return dist, [""] * table.n
    factor = {"m": 3.28084}.get(col.unit or "ft", 1.0)
    vals = table.values(col)
    read = parse_distinct(vals, lambda v: V.parse_number(v, decimal_comma))
    warn = [""] * table.n
    for k, (v, x) in enumerate(zip(vals, read)):
        if x is not None and x >= 0:
            dist[k] = x * factor
        elif not is_blank(v):
            warn[k] = f"distance {as_text(v)!r} in column {col.header!r} is not a number; left blank"
    return dist, warn


_COORD_RANGE = {"latitude": 90.0, "longitude": 180.0}


_EWKT = re.compile(r"^\s*SRID\s*=\s*(\d+)\s*;(.*)$", re.I | re.S)


def read_wkt(table: Table, col: C.Column) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x, y and EPSG code (NaN where none is given) of each row's WKT point ("POINT (-73.89 41.21)"; PostGIS's
    EWKT "SRID=4326;POINT (-73.89 41.21)"; a MULTIPOINT of one point, as QGIS writes a MultiPoint layer; NaN
    where blank or empty). A cell that is no WKT, a geometry that is no point (a canopy polygon) or a MULTIPOINT
    of several points refuses the survey naming the row and what it holds."""
    from shapely import wkt  # start-up: only when needed, not by every assess (shapely)
    from shapely.errors import ShapelyError  # start-up: only when needed, not by every assess (shapely)
    from shapely.geometry import MultiPoint, Point  # start-up: only when needed, not by every assess (shapely)

    def one(v: Any) -> tuple[float, float, float] | tuple[str, str, str]:
        if is_blank(v):
            return (np.nan, np.nan, np.nan)
        text, srid = str(v), np.nan
        m = _EWKT.match(text)
        if m:
            text, srid = m.group(2), float(m.group(1))
        try:
            g = wkt.loads(text)
        except (ShapelyError, ValueError, TypeError):
            return ("", "not WKT geometry", "")
        if isinstance(g, MultiPoint) and len(g.geoms) == 1:
            g = g.geoms[0]
        elif isinstance(g, MultiPoint) and len(g.geoms) > 1:
            return ("", f"a MultiPoint geometry of {len(g.geoms)} points, not one point", "")
        if not isinstance(g, Point):
            return ("", f"a {g.geom_type} geometry, not a point", "")
        return (np.nan, np.nan, srid) if g.is_empty else (float(g.x), float(g.y), srid)

    vals = table.values(col)
    read = parse_distinct(vals, one)
    for sr, v, r in zip(table.source_row, vals, read):
        if r[0] == "":
            what = f"{V.short(as_text(v))} is not WKT geometry" if r[1] == "not WKT geometry" else r[1]
            raise SurveyError(
                f"row {sr}, column {col.header!r}: {what}; treecalc places each tree at a POINT (export a layer of "
                "points, or each tree's centroid)"
            )
    return tuple(np.array([r[i] for r in read], dtype=float) for i in range(3))  # type: ignore[return-value]


def _wkt_coordinates(table: Table, col: C.Column) -> dict[str, np.ndarray]:
    """A WKT column's points: ``x``/``y`` (in the crs the site fact gives, or WGS84 degrees) where no SRID is
    given, ``longitude``/``latitude`` where an EWKT SRID is (4326 as they are, another projected by pyproj)."""
    x, y, srid = read_wkt(table, col)
    given = np.isfinite(x) & np.isfinite(y)
    with_srid = given & np.isfinite(srid)
    if not with_srid.any():
        return {"x": x, "y": y}
    if (given & ~with_srid).any():
        k, j = int(np.flatnonzero(given & ~with_srid)[0]), int(np.flatnonzero(with_srid)[0])
        raise SurveyError(
            f"row {table.source_row[k]}, column {col.header!r}: a point without an SRID where row "
            f"{table.source_row[j]} gives SRID={int(srid[j])}: give every row's SRID, or none (and the site fact crs)"
        )
    lon, lat = np.full(len(x), np.nan), np.full(len(x), np.nan)
    for code in np.unique(srid[with_srid]):
        at = with_srid & (srid == code)
        if int(code) == 4326:
            lon[at], lat[at] = x[at], y[at]
            continue
        try:
            lon[at], lat[at] = to_wgs84(x[at], y[at], f"EPSG:{int(code)}")
        except ValueError as e:
            k = int(np.flatnonzero(at)[0])
            raise SurveyError(f"row {table.source_row[k]}, column {col.header!r}: SRID={int(code)}: {e}") from None
    return {"longitude": lon, "latitude": lat}


def _same_place(table: Table, first: tuple[str, ...], second: tuple[str, ...], a: tuple, b: tuple) -> str:
    """Two readings of the trees' place from two sets of columns: a refusal naming both and the row where they
    disagree (beyond 1e-6 degrees, or 1 unit of a projection), else the sentence saying which is read."""
    degrees = all(np.nanmax(np.abs(v), initial=0) <= 180 for v in (*a, *b))
    k = disagreement(a, b, AGREE_DEG if degrees else 1.0)
    one, two = "/".join(repr(h) for h in first), "/".join(repr(h) for h in second)
    if k is not None:
        raise SurveyError(
            f"row {table.source_row[k]}: the columns {one} give {a[0][k]:g}, {a[1][k]:g} and the columns {two} "
            f"give {b[0][k]:g}, {b[1][k]:g}: which is the tree's place? keep one (e.g. "
            f'‹column_map="{first[0]}=ignore"›)'
        )
    return f"the columns {one} and {two} place every tree alike: {two} read"


def read_coordinates(
    table: Table, mapping: C.Mapping, decimal_comma: bool
) -> tuple[dict[str, np.ndarray], list[str], list[str]]:
    """The coordinate columns the survey has (latitude, longitude, x, y), as floats; a warning per
    row for a cell that is not a number or a latitude/longitude out of range (left blank), and the survey's
    warnings. A WKT column's points (:func:`_wkt_coordinates`) are its x and y, in the crs the site fact gives or
    WGS84 degrees (:func:`treecalc.reference.geo.tree_lonlat`), or with an SRID its longitude and latitude; beside columns
    of the same reading they are compared, and refused where they disagree (a question, not a pick)."""
    out: dict[str, np.ndarray] = {}
    warn = [""] * table.n
    notes: list[str] = []
    for f in C.COORDINATE_FIELDS:
        col = mapping.first(f)
        if col is None:
            continue
        vals = table.values(col)
        read = parse_distinct(vals, lambda v: V.parse_number(v, decimal_comma))
        arr = np.array([np.nan if x is None else float(x) for x in read], dtype=float)
        limit = _COORD_RANGE.get(f)
        bad = ~np.isfinite(arr) | ((np.abs(arr) > limit) if limit else False)
        given = np.array([not is_blank(v) for v in vals], dtype=bool)
        for k in np.flatnonzero(bad & given):
            w = f"{f} {V.short(as_text(vals[k]))} in column {col.header!r} is not " + (
                f"a {f} (-{limit:g} to {limit:g} degrees)" if limit and np.isfinite(arr[k]) else "a number"
            )
            warn[k] = "; ".join(x for x in (warn[k], w + "; left blank") if x)
        arr[bad] = np.nan
        out[f] = arr
    wkt_col = mapping.first("wkt")
    if wkt_col is not None:
        points = _wkt_coordinates(table, wkt_col)
        pair = ("x", "y") if "x" in points else ("longitude", "latitude")
        if set(pair) <= set(out):
            heads = tuple(c.header for f in pair if (c := mapping.first(f)) is not None)
            wkt_pts = (points[pair[0]], points[pair[1]])
            notes.append(_same_place(table, (wkt_col.header,), heads, wkt_pts, (out[pair[0]], out[pair[1]])))
        else:
            out.update(points)
    return out, warn, notes
