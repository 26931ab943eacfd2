"""Cell readers: DBH (units, multi-stem, decimal commas), booleans, actions,
conditions and land uses.

Every reader here works on one *distinct* cell text and is applied to a whole
column through a ``{text: parsed}`` map, so a 100,000-row survey costs one
Python call per distinct value, not per row.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from treecalc.messages import quoted
from treecalc.quantities import IN_PER_UNIT
from treecalc.reference import data

#: Conversion to inches (1 ft = 12 in; 1 m = 100 / 2.54 = 39.37 in).
UNIT_TO_IN = IN_PER_UNIT

_UNIT_WORDS = {
    "in": "in",
    "in.": "in",
    "inch": "in",
    "inches": "in",
    '"': "in",
    "″": "in",
    "”": "in",
    "''": "in",
    "cm": "cm",
    "cm.": "cm",
    "centimeter": "cm",
    "centimeters": "cm",
    "centimetre": "cm",
    "centimetres": "cm",
    "mm": "mm",
    "mm.": "mm",
    "millimeter": "mm",
    "millimeters": "mm",
    "millimetre": "mm",
    "millimetres": "mm",
    "ft": "ft",
    "ft.": "ft",
    "foot": "ft",
    "feet": "ft",
    "'": "ft",
    "′": "ft",
    "m": "m",
    "m.": "m",
    "meter": "m",
    "meters": "m",
    "metre": "m",
    "metres": "m",
}


def unit_word(text: object) -> str | None:
    """'in', 'cm', 'mm', 'ft' or 'm' for a unit cell such as ``"Inches"``; None otherwise."""
    if text is None:
        return None
    t = str(text).strip().lower()
    return _UNIT_WORDS.get(t) or _UNIT_WORDS.get(t.rstrip("."))


def _inches_per(unit: str) -> float:
    """Inches per unit for a unit the number patterns matched (their units are those of ``unit_word``)."""
    word = unit_word(unit)
    if word is None:
        raise ValueError(f"not a length unit: {unit!r}")
    return UNIT_TO_IN[word]


@dataclass(frozen=True)
class Dbh:
    """One DBH cell read: the stems in inches, or why it could not be read."""

    stems_in: tuple[float, ...] = ()
    error: str = ""  # "" | "missing DBH" | "DBH not a number"
    detail: str = ""  # human text for the reason
    warning: str = ""  # a reading worth telling (e.g. ambiguous comma)

    @property
    def dbh_in(self) -> float:
        return combine_stems(self.stems_in)


def combine_stems(stems) -> float:
    """Combined DBH of a multi-stem tree: the square root of the sum of the
    squared stem diameters, sqrt(d1² + d2² + ...).

    This is the rule of the i-Tree Eco and i-Tree Streets field manuals
    (multi-stemmed trees: "the square root of the sum of squared stem
    diameters") and of the ISA / CTLA *Guide for Plant Appraisal* (10th ed.,
    equivalent trunk area for multi-stem trees); it keeps the total stem
    cross-section area. ``"12, 8, 6"`` gives sqrt(144 + 64 + 36) = 15.62 in.
    """
    s = [float(x) for x in stems]
    if not s:
        return math.nan
    if len(s) == 1:
        return s[0]
    return math.sqrt(sum(x * x for x in s))


_APPROX = re.compile(r"^(?:~|approx\.?|approximately|ca\.?|c\.|about|est\.?)\s*", re.I)
_NUM_UNIT = re.compile(
    r"""^\s*(?P<num>[-+]?(?:\d+(?:[.,]\d*)?|[.,]\d+))\s*
        (?P<unit>in\.?|inch(?:es)?|"|″|”|''|cm\.?|mm\.?|ft\.?|feet|foot|'|′|m\.?|met(?:er|re)s?)?\s*$""",
    re.X | re.I,
)
# '1.000,5' (thousands point, decimal comma) and '1,000.5' (thousands comma, decimal point)
_THOUSANDS_DC = re.compile(r"^\d{1,3}(?:\.\d{3})+,\d+$")
_THOUSANDS_DP = re.compile(r"^\d{1,3}(?:,\d{3})+\.\d+$")


def is_blank(v: object) -> bool:
    """A cell with nothing in it: None, NaN, or text of spaces only."""
    if v is None:
        return True
    if isinstance(v, str):
        return not v.strip()
    if isinstance(v, float):
        return v != v
    return False


def as_text(v: object) -> str:
    """A cell as the text a user would read: 17.0 → '17', dates as ISO dates."""
    if v is None:
        return ""
    if isinstance(v, str):
        return v.strip()
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, float):
        if v != v:
            return ""
        return str(int(v)) if v.is_integer() and abs(v) < 1e15 else repr(v)
    if isinstance(v, _dt.datetime):
        return v.isoformat(sep=" ") if (v.hour, v.minute, v.second) != (0, 0, 0) else v.date().isoformat()
    if isinstance(v, (_dt.date, _dt.time, _dt.timedelta)):
        return str(v)
    return str(v).strip()


def as_texts(values: Iterable[Any]) -> list[str]:
    """``[as_text(v) for v in values]``: the usual cells (text, numbers read as floats) converted
    inline, the others by :func:`as_text` (a call per cell was most of the time of a tag column)."""
    return [
        v.strip()
        if (t := type(v)) is str
        else ("" if v != v else str(int(v)) if v.is_integer() and abs(v) < 1e15 else repr(v))
        if t is float
        else as_text(v)
        for v in values
    ]


def short(text: object, limit: int = 60) -> str:
    """``repr`` of a cell text, cut to ``limit`` characters (a 100,000-character cell stays readable)."""
    return quoted(text, limit)


def fmt_in(x: float) -> str:
    """A diameter in inches for a message: '19.7', '1.0e+308', 'infinite'."""
    if math.isinf(x):
        return "infinite"
    return f"{x:.1f}" if abs(x) < 1e6 else f"{x:.3g}"


_BLANKS = {"", "-", "--", "—", "–", "n/a", "na", "none", "nan", "?", "unknown", "tbd", "null"}


def _one_number(tok: str, unit_in: float, decimal_comma: bool) -> float | None:
    m = _NUM_UNIT.match(tok)
    if not m:
        return None
    num = m.group("num")
    if "," in num:
        if not decimal_comma:
            return None
        num = num.replace(",", ".")
    try:
        v = float(num)
    except ValueError:
        return None
    u = m.group("unit")
    factor = _inches_per(u) if u else unit_in
    return v * factor


def parse_dbh_text(text: str, unit: str = "in", decimal_comma: bool = False) -> Dbh:
    """Read a DBH written as text: ``"14"``, ``"14.5 in"``, ``"30 cm"``,
    ``"14, 10, 6"`` (stems), ``"12/8"``, ``"12 + 8"``, ``"~14"``; with
    ``decimal_comma`` ``"12,5"`` is 12.5 while ``"12, 5"`` (comma and space)
    still separates stems. Without it a bare ``"12,5"`` is read as two stems
    and the reading is reported.
    """
    raw = text
    t = str(text).strip()
    if t.lower() in _BLANKS:
        return Dbh(error="missing DBH", detail="no DBH given" if not t else f"{raw!r} gives no DBH")
    unit_in = UNIT_TO_IN[unit]
    t2 = _APPROX.sub("", t)
    if _THOUSANDS_DC.match(t2):
        if decimal_comma:  # '1.000,5' in a decimal-comma file is 1000.5
            return Dbh((float(t2.replace(".", "").replace(",", ".")) * unit_in,))
        return Dbh(
            error="DBH not a number",
            detail=f"{short(raw)} mixes a thousands separator and a decimal comma; write the number plainly",
        )
    if _THOUSANDS_DP.match(t2):
        if not decimal_comma:  # '1,000.5' is 1000.5
            return Dbh((float(t2.replace(",", "")) * unit_in,))
        return Dbh(
            error="DBH not a number",
            detail=f"{short(raw)} mixes a thousands separator and a decimal point in a decimal-comma file; "
            "write the number plainly",
        )
    v = _one_number(t2, unit_in, decimal_comma)
    if v is not None:
        return Dbh((v,))
    warning = ""
    if not decimal_comma and re.fullmatch(r"\d+,\d+", t2):
        warning = (
            f"DBH {raw!r} read as stems {t2.replace(',', ' and ')} "
            "(if the comma is a decimal separator, write it with a point)"
        )
    t3 = _fractions(t2)
    if t3 != t2:
        v = _one_number(t3, unit_in, decimal_comma)
        if v is not None:
            return Dbh((v,))
    stems = _stems(t3, unit_in, decimal_comma)
    if stems:
        return Dbh(tuple(stems), warning=warning)
    return Dbh(error="DBH not a number", detail=f"{short(raw)} is not a number")


_UNIT_RX = r"(?:inch(?:es)?|in\.?|\"|″|”|''|cm\.?|mm\.?)"
_TOKEN = re.compile(r"(?P<sign>-)?(?P<num>\d+(?:\.\d+)?|\.\d+)(?:\s*(?P<unit>" + _UNIT_RX + r"))?", re.I)
_TOKEN_DC = re.compile(r"(?P<sign>-)?(?P<num>\d+(?:[.,]\d+)?|[.,]\d+)(?:\s*(?P<unit>" + _UNIT_RX + r"))?", re.I)
_GAP = re.compile(r"^\s*(?:[;/+&|,x×]|and)?\s*$", re.I)
_FRACTION = re.compile(r"(\d+)(?:\s+|-)(1|3|5|7)/(2|4|8)\b|(\d+)\s*([½¼¾])")


def _fractions(t: str) -> str:
    """'12 1/2' → '12.5', '12½' → '12.5' (inch fractions)."""

    def sub(m: re.Match) -> str:
        if m.group(1):
            return str(int(m.group(1)) + int(m.group(2)) / int(m.group(3)))
        return str(int(m.group(4)) + {"½": 0.5, "¼": 0.25, "¾": 0.75}[m.group(5)])

    return _FRACTION.sub(sub, t)


def _stems(t: str, unit_in: float, decimal_comma: bool) -> list[float]:
    """Stem diameters of '14, 10, 6', '12/8', '12 in + 8 in'; [] if the text is anything else."""
    if decimal_comma and re.fullmatch(r"\d+(?:,\d+){2,}", t):
        decimal_comma = False  # '14,10,6' cannot be one decimal number
    rx = _TOKEN_DC if decimal_comma else _TOKEN
    out: list[float] = []
    pos = 0
    for m in rx.finditer(t):
        gap = t[pos : m.start()]
        if not _GAP.match(gap) or (out and (m.group("sign") or not gap)):
            return []  # text between the numbers, or a range such as '12-14'
        num = m.group("num").replace(",", ".")
        v = float(num) * (_inches_per(m.group("unit")) if m.group("unit") else unit_in)
        out.append(-v if m.group("sign") else v)
        pos = m.end()
    if not _GAP.match(t[pos:]) or len(out) < 2:
        return []
    return out


# ---------------------------------------------------------------- booleans

_TRUE = {
    "y",
    "yes",
    "x",
    "true",
    "t",
    "1",
    "1.0",
    "✓",
    "✔",
    "✔️",
    "☑",
    "checked",
    "on",
    "*",
    "yes.",
    "si",
    "oui",
    "ja",
    "oncurb",
    "on curb",
}  # NYC Street Tree Census curb_loc: OnCurb is a street tree
_FALSE = {
    "",
    "n",
    "no",
    "false",
    "f",
    "0",
    "0.0",
    "-",
    "--",
    "—",
    "–",
    "none",
    "off",
    "unchecked",
    "n/a",
    "na",
    "no.",
    "offsetfromcurb",
    "offset from curb",
}
#: Words a surveyor writes for a fact not known: the fact is not given, as a blank cell is (never a "yes"
#: taken for the text not being yes/no, which under Wesley Hills' lot-line trigger made a definite offence).
_NOT_KNOWN = {
    "?",
    "??",
    "???",
    "unknown",
    "unk",
    "unk.",
    "not known",
    "n/k",
    "tbd",
    "tbc",
    "to be determined",
    "to be confirmed",
    "unsure",
    "not sure",
    "not surveyed",
    "not checked",
    "dk",
    "don't know",
}


def is_not_known(v: object) -> bool:
    """A flag cell that says its fact is not known ("?", "unknown", "TBD"): not given, as a blank is."""
    return isinstance(v, str) and " ".join(v.strip().lower().split()) in _NOT_KNOWN


_RISK_TRUE = {"high", "extreme", "imminent", "probable", "severe", "hazard", "hazardous"}
_RISK_FALSE = {"low", "moderate", "improbable", "possible", "minor"}


def parse_bool(value: object, *, risk_words: bool = False) -> bool | None:
    """True/False for a flag cell, None when the text is not a recognised boolean.

    Accepted: Y/N, Yes/No, X/blank, TRUE/FALSE, 1/0, ✓; with ``risk_words``
    (the hazard column) also risk ratings: High/Extreme → True, Low/Moderate → False.
    """
    if value is None or value is True or value is False:
        return bool(value) if value is not None else False
    if isinstance(value, (int, float)):
        if isinstance(value, float) and math.isnan(value):
            return False
        if value in (0, 1):
            return bool(value)
        return None
    t = str(value).strip().lower()
    if t in _TRUE:
        return True
    if t in _FALSE:
        return False
    if risk_words:
        if t in _RISK_TRUE:
            return True
        if t in _RISK_FALSE:
            return False
    return None


# ---------------------------------------------------------------- actions


def _key(t: object) -> str:
    return re.sub(r"[^a-z0-9]+", " ", str(t).lower()).strip()


_ACTION_WORDS = {
    "remove": [
        "remove",
        "removal",
        "to be removed",
        "tbr",
        "proposed removal",
        "propose removal",
        "proposed remove",
        "cut",
        "to be cut",
        "r",
        "rem",
        "rmv",
        "take down",
        "takedown",
        "fell",
        "to remove",
        "remove tree",
        "removal proposed",
        "remove proposed",
        "clear",
        "demo",
    ],
    "retain": [
        "retain",
        "save",
        "keep",
        "preserve",
        "protect",
        "to remain",
        "remain",
        "existing",
        "exist",
        "stay",
        "retained",
        "saved",
        "kept",
        "preserved",
        "protected",
        "no action",
        "none",
        "leave",
        "k",
        "s",
        "ret",
        "retain protect",
        "to be retained",
        "to be saved",
        "prune",
        "maintain",
        "no work",
        "standing",
        # status words of municipal inventories (NYC Street Tree Census: Alive / Dead / Stump)
        "alive",
        "living",
        "live",
        "healthy",
        "dead",
        "standing dead",
        "dying",
    ],
    "removed": [
        "removed",
        "already removed",
        "cut down",
        "felled",
        "gone",
        "stump",
        "stumped",
        "was removed",
        "previously removed",
        "dead removed",
        "down",
        "missing",
        "removed stump",
        "stump only",
        "stump remaining",
        # a work order's status ("Removal complete", "Remove - done"): the removal has been made
        "removal complete",
        "removal completed",
        "removal done",
        "removal finished",
        "remove complete",
        "remove completed",
        "remove done",
        "removed complete",
        "removed completed",
    ],
    # topping and excessive pruning are offences of their own (Chapter 208); transplanting is no removal
    "topped": ["topped", "topping", "tree topped"],
    "excessively_pruned": [
        "excessively pruned",
        "pruned excessively",
        "over pruned",
        "overpruned",
        "excessive pruning",
        "over pruning",
        "overpruning",
        "excessively_pruned",
    ],
    "damaged": ["damaged", "injured", "girdled", "girdling", "wounded", "broken", "damage", "injury"],
    "transplant": [
        "transplant",
        "transplanted",
        "relocate",
        "relocated",
        "relocation",
        "move",
        "to be relocated",
        "to be transplanted",
        "transplant proposed",
    ],
}
ACTION_SYNONYMS: dict[str, str] = {_key(w): a for a, ws in _ACTION_WORDS.items() for w in ws}
#: Words in an action cell that state a fact besides the action ("Remove – hazard", "Dead").
_ACTION_FACTS = {
    "hazard": "hazardous",
    "hazardous": "hazardous",
    "dangerous": "hazardous",
    "dead": "dead_or_diseased",
    "diseased": "dead_or_diseased",
    "dying": "dead_or_diseased",
}


#: The fact an action cell states when it says the tree must go ("Must remove"): ``treecalc plan`` never retains it.
MUST_REMOVE = "must_remove"
#: How an arborist writes a removal the tree cannot escape (in the footprint, hazardous) in the action cell
#: itself, as the "Must remove" column's own names say it: a cell whose words begin with one of these is the
#: action remove and the fact :data:`MUST_REMOVE` ("Must remove – hazard", "Remove (required), in footprint").
#: Kept this small on purpose: "Required" alone, "Must retain" or "Remove if required" say no such thing.
MUST_REMOVE_PHRASES = ("must remove", "must be removed", "remove (required)", "removal required", "required removal")
_MUST_REMOVE_KEYS = tuple(_key(p) for p in MUST_REMOVE_PHRASES)


def _must_remove(k: str) -> bool:
    """Whether an action cell's words (:func:`_key`) begin with a must-remove phrase."""
    return any(k == p or k.startswith(p + " ") for p in _MUST_REMOVE_KEYS)


#: The fact an action cell states when it says the tree is dead ("Dead", "Standing dead", "Dead – removed"):
#: the survey reader reads it as the condition dead. "Dying" and "diseased" are not dead.
DEAD_STATUS = "dead"


@dataclass(frozen=True)
class Action:
    """One action cell read: the canonical action ('' blank, None not recognised) and the facts it states;
    ``pruned``: the share of the tree pruned ("Pruned 25%": (25.0, False); "pruned over 25%": (25.0, True), more than
    the share; "Prune": (nan, False), a pruning whose share is not given), None when the cell states no pruning."""

    action: str | None
    facts: tuple[str, ...] = ()
    pruned: tuple[float, bool] | None = None


_PRUNE_VERB = (
    r"(?:pruned|pruning|trimmed|trimming|thinned|thinning|reduced|reduction|cut\s+back|"
    r"crown\s+(?:pruned|pruning|reduced|reduction|thinned|thinning|raised|raising|cut\s+back))"
)
_SHARE = r"(?P<over>(?:over|more\s+than|above)\s+)?(?P<n>\d+(?:[.,]\d+)?)\s*(?:%|percent|per\s+cent)"
#: "Pruned 25%", "Pruned 30 %", "pruned over 25%", "crown reduced 40%", "crown reduction of 40%", "25% crown
#: reduction": pruning of a stated share of the tree (Chapter 208's EXCESSIVE PRUNING is a share of it)
_PRUNED_SHARE = (
    re.compile(rf"^{_PRUNE_VERB}\s+(?:by\s+|of\s+)?{_SHARE}$", re.I),
    re.compile(rf"^{_SHARE}\s+{_PRUNE_VERB}$", re.I),
)


def pruned_share(value: object) -> tuple[float, bool] | None:
    """The share of a tree an action cell says was pruned, and whether it says "over" it: ``(25.0, False)`` for
    "Pruned 25%", ``(25.0, True)`` for "pruned over 25%"; None when the cell states no share of 0 to 100 %."""
    if not isinstance(value, str):
        return None
    t = re.sub(r"\s+", " ", value.strip())
    m = _PRUNED_SHARE[0].match(t) or _PRUNED_SHARE[1].match(t)
    if not m:
        return None
    n = float(m.group("n").replace(",", "."))
    return (n, bool(m.group("over"))) if 0 <= n <= 100 else None


def known_actions_text() -> str:
    """The action words treecalc knows, one example per action, for an error message."""
    return (
        "retain (keep, save, alive), remove (cut, TBR), removed (stump, felled), topped, "
        "excessively pruned, pruned N% (a share of 0 to 100 %), damaged (injured, girdled), transplant (relocate); "
        "a removal the plan never retains: must remove (must be removed, remove (required), removal required, "
        "required removal)"
    )


def read_action(value: object, *, remove_column: bool = False, retain_column: bool = False) -> Action:
    """Read one action cell: ``Action('remove', ('hazardous',))`` for "Remove – hazard",
    ``Action('retain', ('dead_or_diseased', 'dead'))`` for a status "Dead", ``Action(None)`` for a word
    treecalc does not know. Under a yes/no column ("Remove?", "Retain?") a boolean answers the question.
    """
    a = parse_action(value, remove_column=remove_column, retain_column=retain_column)
    if a is None and not (remove_column or retain_column):
        share = pruned_share(value)
        if share is not None:  # the law decides whether the share is excessive pruning (the assessment reads it)
            return Action("retain", (), share)
    if not a:
        return Action(a)
    words = _key(value).split() if isinstance(value, str) else []
    facts = tuple(dict.fromkeys(_ACTION_FACTS[w] for w in words if w in _ACTION_FACTS))
    if "dead" in words:  # a status "Dead" says the tree is dead (its condition), not only dead_or_diseased
        facts += (DEAD_STATUS,)
    if a == "remove" and isinstance(value, str) and _must_remove(_key(value)):
        facts += (MUST_REMOVE,)
    if a == "retain" and words[:1] == ["prune"]:
        # "Prune" is work on a kept tree, but a pruning all the same (a street tree's needs the Department's
        # approval whatever the share): recorded as pruned, its share not given (never read as excessive)
        return Action(a, facts, (math.nan, False))
    return Action(a, facts)


def parse_action(value: object, *, remove_column: bool = False, retain_column: bool = False) -> str | None:
    """One of :data:`treecalc.schema.ACTIONS`, '' for blank, None if not recognised.

    Under a yes/no column ("Remove?", "Retain?") a boolean answers the question.
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if remove_column or retain_column:
        if isinstance(value, str) and not value.strip():
            return ""
        b = parse_bool(value)
        if b is not None:
            return ("remove" if b else "retain") if remove_column else ("retain" if b else "remove")
    k = _key(value)
    if not k:
        return ""
    if k in ACTION_SYNONYMS:
        return ACTION_SYNONYMS[k]
    if _must_remove(k):
        return "remove"
    # leading word decides ("Remove - hazardous", "Retain & protect", "Removed 2023", "Removed – stump")
    for n in (3, 2, 1):
        head = " ".join(k.split()[:n])
        if head in ACTION_SYNONYMS and head not in {"r", "k", "s", "down", "clear", "move", "live"}:
            return ACTION_SYNONYMS[head]
    return None


# ---------------------------------------------------------------- condition

CONDITIONS = ("excellent", "good", "fair", "poor", "dead")
_CONDITION_WORDS = {
    "excellent": ["excellent", "e", "exc", "very good", "vg", "ex"],
    "good": ["good", "g", "gd", "healthy"],
    "fair": ["fair", "f", "average", "moderate", "ok", "fr"],
    "poor": ["poor", "p", "pr", "very poor", "vp", "critical", "dying", "declining", "decline", "failing", "hazardous"],
    "dead": ["dead", "d", "dd", "standing dead", "snag", "deceased"],
}
CONDITION_SYNONYMS = {_key(w): c for c, ws in _CONDITION_WORDS.items() for w in ws}


#: Words after "dead" that name a part of a live tree ("Dead wood present", "Dead limbs"): no dead tree.
_DEAD_PARTS = re.compile(r"\b(wood|limbs?|branch(es)?|tops?|leaders?|crown|twigs?|tips?|parts?|stems?|sections?)\b")


def parse_condition(value: object) -> str | None:
    """One of CONDITIONS, '' for blank, None if not recognised.

    A percentage (``"75%"``, or a number 0-100) is an ISA condition rating
    (Guide for Plant Appraisal, 10th ed.): 81-100 excellent, 61-80 good,
    41-60 fair, 6-40 poor (poor and very poor), 0-5 dead.
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, bool):
        return None
    num: float | None = None
    if isinstance(value, (int, float)):
        num = float(value)
        if 0 < num < 1:
            num *= 100  # a fraction formatted as a percentage
        elif num <= 5 and num.is_integer():
            return None  # a 1-5 rating: which end is best differs between systems
    else:
        t = str(value).strip()
        if not t:
            return ""
        m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*%", t)
        if m:
            num = float(m.group(1))
        else:
            k = _key(t)
            if k in CONDITION_SYNONYMS:
                return CONDITION_SYNONYMS[k]
            first = k.split()[0] if k else ""
            if first in CONDITION_SYNONYMS and len(first) > 1:
                if CONDITION_SYNONYMS[first] == "dead" and _DEAD_PARTS.search(k):
                    return None  # "Dead wood present", "Dead limbs": a live tree with dead parts, not a dead tree
                return CONDITION_SYNONYMS[first]
            return None
    if num is None or not 0 <= num <= 100:
        return None
    return "excellent" if num > 80 else "good" if num > 60 else "fair" if num > 40 else "poor" if num > 5 else "dead"


# ---------------------------------------------------------------- land use

_LAND_USE_WORDS = {
    "single_family": [
        "single family",
        "single family residential",
        "sfr",
        "sf",
        "residential",
        "one family",
        "1 family",
        "single family residence",
        "res",
        "house",
    ],
    "multi_family": [
        "multi family",
        "multifamily",
        "multi family residential",
        "mfr",
        "mf",
        "apartment",
        "apartments",
        "condo",
        "condominium",
        "two family",
        "townhouse",
    ],
    "commercial_industrial": [
        "commercial industrial",
        "commercial",
        "industrial",
        "business",
        "retail",
        "office",
        "comm",
        "ind",
        "c i",
    ],
    "institutional": [
        "institutional",
        "institution",
        "school",
        "church",
        "hospital",
        "government",
        "municipal",
        "public building",
        "inst",
    ],
    "park_vacant_other": [
        "park vacant other",
        "park",
        "vacant",
        "other",
        "open space",
        "golf course",
        "cemetery",
        "agriculture",
        "transportation",
        "utility",
        "wetland",
        "forest",
        "woodland",
    ],
    "unspecified": ["unspecified", "unknown", "not specified"],
}
LAND_USE_SYNONYMS = {_key(w): lu for lu, ws in _LAND_USE_WORDS.items() for w in ws}
LAND_USE_SYNONYMS.update({_key(lu): lu for lu in data.LAND_USES})


def parse_land_use(value: object) -> str | None:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    k = _key(value)
    if not k:
        return ""
    return LAND_USE_SYNONYMS.get(k)


def parse_number(value: object, decimal_comma: bool = False) -> float | None:
    """A plain number (distances, counts); None if not a number."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return None if math.isnan(value) else float(value)
    t = _APPROX.sub("", str(value).strip())
    t = re.sub(r"\s*(ft|feet|foot|')\.?$", "", t, flags=re.I)
    if decimal_comma:
        t = t.replace(",", ".")
    try:
        return float(t)
    except ValueError:
        return None


#: Most stems a "Stems" cell may give (more is a typo or another column's number).
MAX_STEMS = 50


def parse_stem_count(value: object, decimal_comma: bool = False) -> tuple[int | None, str]:
    """(stem count or None for blank, "" or why the cell is not a count).

    A count is a whole number from 1 to :data:`MAX_STEMS`; ``2.5``, ``0``,
    ``-3``, ``inf``, ``1e308`` and text are refused.
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return None, ""
    if isinstance(value, float) and math.isnan(value):
        return None, ""
    x = None
    if not isinstance(value, bool) and isinstance(value, (int, float, str)):
        x = parse_number(value, decimal_comma)
    if x is None or not math.isfinite(x) or not x.is_integer() or not 1 <= x <= MAX_STEMS:
        shown = value if isinstance(value, str) else _plain(value)
        return None, f"{short(shown)} is not a whole number of stems from 1 to {MAX_STEMS}"
    return int(x), ""


def _plain(v: object) -> str:
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return str(int(v))
    return str(v)
