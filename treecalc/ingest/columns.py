"""Column headers: the fields a column can be, matching a header to its field, and finding the header row.

A header is normalised and looked up among the aliases of :mod:`treecalc.ingest.aliases` (its unit taken
out first and remembered), then read by word rules for headers no alias covers.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any

from treecalc.ingest.aliases import STATUS_HEADERS, SYNONYMS, gis_row_id, header_unit, norm_header
from treecalc.ingest.errors import SurveyError
from treecalc.schema import FLAG_FIELDS, TREE_FACT_FIELDS  # the one lists of survey flags and tree facts

#: Flags whose True value *lowers* an obligation (exemptions); every other flag raises one.
EXEMPTING_FLAGS = ("hazardous", "dead_or_diseased", "good_forestry")

#: Fields a column can be mapped to (``column_map`` values, ``--map Header=field``).
FIELDS = (
    "tag",
    "species",
    "dbh",
    "dbh_in",
    "dbh_cm",
    "dbh_mm",
    "dbh_ft",
    "dbh_m",
    "dbh_stem",
    "dbh_unit",
    "stems",
    "action",
    "remove",
    "retain",
    "condition",
    "status",
    "land_use",
    "notes",
    *FLAG_FIELDS,
    *TREE_FACT_FIELDS,
    "distance_to_residence_ft",
    "must_remove",
    "functional_limitation_pct",
    "external_limitation_pct",
    "genus",
    "cultivar",
    "stump_diameter",
    "climate_zone",
    "latitude",
    "longitude",
    "x",
    "y",
    "wkt",
    "ignore",
)
#: Coordinate fields: WGS84 degrees (latitude, longitude) or projected (x, y, e.g. POINT_X/POINT_Y).
COORDINATE_FIELDS = ("latitude", "longitude", "x", "y")

_EXACT: dict[str, str] = {}
for _f, _names in SYNONYMS.items():
    for _name in _names:
        _EXACT.setdefault(_name, _f)
        _EXACT.setdefault(_name.replace(" ", ""), _f)

_STEM = re.compile(
    r"^(?:(?:stem|trunk|dbh|diameter|diam|dia)\s*)+(?:no\s*)?(\d{1,2})$|^(\d)(?:st|nd|rd|th)\s*(?:stem|trunk|dbh)$"
)
# "Stem DBH", "Trunk diameter", "DBH stem", "DBH per stem": a stem column without a number
_STEM_WORD = re.compile(
    r"^(?:stem|trunk)s?\s+(?:dbh|diameter|diam|dia)$|^(?:dbh|diameter|diam|dia)\s+(?:per\s+|of\s+)?(?:stem|trunk)s?$"
)
# A diameter that is not the trunk's at breast height: crown, drip line, root zone, stump, a DBH class.
_NOT_DBH = re.compile(
    r"\b(?:crown|canopy|drip|dripline|root|roots|zone|stump|spread|class|classes|category|range|radius|"
    r"tpz|rpz|cpz|branch|limb)\b"
)

# Word rules for headers no synonym covers ("Tree Species (common)", "DBH measured 2024").
_RULES: list[tuple[str, re.Pattern]] = [
    ("distance_to_residence_ft", re.compile(r"\b(dist|distance)\b.*\b(residence|house|dwelling|home|building)\b")),
    ("within_20ft_of_lot_line", re.compile(r"\b(lot|property)\s+line\b")),
    ("excessively_steep_slope", re.compile(r"\bexcessive(ly)?\b.*\bslope|\bvery steep")),
    ("slope_over_20pct", re.compile(r"\bslopes?\b")),
    ("dbh_unit", re.compile(r"\bunits?\b")),
    ("stems", re.compile(r"\b(number|count|no)\b.*\bstems?\b|\bstems?\b.*\b(count|number)\b")),
    ("dbh", re.compile(r"\b(dbh|diameter|diam)\b")),
    ("species", re.compile(r"\b(species|botanical|scientific|latin)\b|\bcommon name\b")),
    ("tag", re.compile(r"\b(tag|tree id|tree no)\b")),
    ("condition", re.compile(r"\b(condition|health)\b")),
    ("land_use", re.compile(r"\bland\s*use\b")),
    ("notes", re.compile(r"\b(notes?|comments?|remarks?)\b")),
    ("wetland", re.compile(r"\b(wetlands?|watercourse)\b")),
    ("landmark", re.compile(r"\blandmark\b")),
    ("conservation_area", re.compile(r"\b(conservation|easement)\b")),
    ("threatened_endangered", re.compile(r"\b(endangered|threatened)\b")),
    ("protected_native", re.compile(r"\b(dec|protected native|exploitably)\b")),
    ("village_work", re.compile(r"^(by|for|work by|done by) (the )?village\b")),
    ("regulated_buffer_zone", re.compile(r"\bbuffer zone\b")),
    ("street_tree", re.compile(r"\b(street|right of way)\b")),
    ("hazardous", re.compile(r"\b(hazard|hazardous|risk)\b")),
    ("good_forestry", re.compile(r"\bforestry\b")),
    ("dead_or_diseased", re.compile(r"\b(diseased|dead)\b")),
    ("remove", re.compile(r"^(remove|removal|to be removed)\b")),
    ("action", re.compile(r"\b(action|recommend\w*|proposed|disposition)\b")),
]


_UNIT_FIELDS = ("dbh", "distance_to_residence_ft", "stump_diameter")

# A word after the action in a header that makes the column something about the action, not the action itself:
# "Action by" (a contractor), "Action date", "Action priority" (High / Low), "Action required" (Yes / No).
_ACTION_QUALIFIER = re.compile(
    r"\b(?:by|date|dated|due|when|year|time|priority|urgency|required|needed|notes?|comments?|cost|costs|price|"
    r"estimate|crew|contractor|company|arborist|inspector|completed|complete|done)\b"
)
_ACTION_WORD = re.compile(r"\b(?:action|recommend\w*|proposed|disposition|remove|removal|treatment|work)\b")


def action_qualified(header: str) -> bool:
    """Whether a header names something about the action (its date, who does it, its priority), not the action:
    a word of :data:`_ACTION_QUALIFIER` besides the action word ("Action by", "Proposed action date")."""
    h = norm_header(header)
    return bool(_ACTION_WORD.search(h)) and bool(_ACTION_QUALIFIER.search(_ACTION_WORD.sub(" ", h)))


def match_header(text: object) -> tuple[str | None, str | None, int | None]:
    """(field or None, unit or None, stem number or None) for one header cell."""
    if text is None:
        return None, None, None
    raw = str(text).strip()
    if not raw or len(raw) > 80:
        return None, None, None
    full = norm_header(raw)
    h, unit = header_unit(raw)
    for cand in (full, h, full.replace(" ", ""), h.replace(" ", "")):
        if cand in _EXACT:
            f = _EXACT[cand]
            return f, unit if f in _UNIT_FIELDS else None, None
    m = _STEM.match(h)
    if m:
        return "dbh_stem", unit, int(m.group(1) or m.group(2))
    if _STEM_WORD.match(h):
        return "dbh_stem", unit, None
    if not h:
        return None, None, None
    for f, rx in _RULES:
        if rx.search(h):
            if f == "dbh" and _NOT_DBH.search(h):
                return None, None, None  # "Crown Diameter (ft)", "DBH Class": not the DBH
            if f in ("action", "remove") and action_qualified(h):
                return None, None, None  # "Action by", "Removal date": about the action, not the action
            return f, unit if f in ("dbh", "distance_to_residence_ft") else None, None
    return None, None, None


@dataclass
class Column:
    index: int
    header: str
    field: str
    unit: str | None = None
    stem_no: int | None = None


@dataclass
class Mapping:
    header_row: int  # 0-based index in the grid
    columns: list[Column]
    unmapped: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: Other columns that could each be the action (their header says the work to be done too): the reader
    #: compares them with the action row by row and refuses the survey where they disagree.
    rival_actions: list[Column] = field(default_factory=list)
    #: Whether the user's column map names the action or the status column: their word settles which is which.
    action_mapped: bool = False

    def of(self, f: str) -> list[Column]:
        return [c for c in self.columns if c.field == f]

    def first(self, f: str) -> Column | None:
        cs = self.of(f)
        return cs[0] if cs else None


def _cell_text(v: object) -> str:
    if v is None:
        return ""
    if isinstance(v, float) and v != v:
        return ""
    return str(v).strip()


def _user_map(column_map: dict | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for k, v in (column_map or {}).items():
        f = str(v).strip().lower()
        if re.fullmatch(r"dbh_stem\d*", f):
            f = "dbh_stem"
        if f == "dec_protected":  # the one field it was is two readings of the law: the user says which
            from treecalc.law.cites import cite  # the law's modules load when a refusal cites it (start-up time)

            raise SurveyError(
                f"column map {k!r}={v!r}: dec_protected is two fields now: threatened_endangered (a permit for "
                f"any size, {cite(None, 'sections.threatened_endangered')}) or protected_native (a DEC protected "
                f"native plant, the {cite(None, 'penalty.civil_tiers[6]')} penalty tier only); map the column to the "
                "one it records"
            )
        if f not in FIELDS:
            close = difflib.get_close_matches(f, FIELDS, n=1, cutoff=0.6)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise SurveyError(f"column map {k!r}={v!r}: unknown field {v!r}; {hint}fields are {', '.join(FIELDS)}")
        out[str(k).strip()] = f
    return out


def _map_row(cells: list, user: dict[str, str]) -> list[tuple[str | None, str | None, int | None]]:
    user_norm = {norm_header(k): f for k, f in user.items()}
    out = []
    for v in cells:
        t = _cell_text(v)
        if t in user:
            f = user[t]
        elif t and norm_header(t) in user_norm:
            f = user_norm[norm_header(t)]
        else:
            out.append(match_header(t))
            continue
        unit = {"dbh_in": "in", "dbh_cm": "cm", "dbh_mm": "mm", "dbh_ft": "ft", "dbh_m": "m"}.get(f)
        if f == "dbh":
            unit = header_unit(t)[1]
        out.append(("dbh" if unit and f.startswith("dbh_") and f != "dbh_unit" and f != "dbh_stem" else f, unit, None))
    return out


def _score(matches) -> tuple[int, bool]:
    fields = {m[0] for m in matches if m[0] and m[0] != "ignore"}
    has_dbh = bool(fields & {"dbh", "dbh_stem"})
    return len(fields), (bool(fields & {"species", "genus"}) and has_dbh)


def names_species_and_dbh(row: list) -> bool:
    """Whether ``row`` reads as a header naming both a species and a DBH column (no column map given)."""
    return _score(_map_row(row, {}))[1]


def find_header(
    rows: list[list],
    column_map: dict | None = None,
    scan: int = 30,
    merged: dict[tuple[int, int], tuple[int, int]] | None = None,
) -> Mapping | None:
    """Find the header row in the first ``scan`` rows: the row with the most
    cells naming a known field, that names both species and DBH. Title rows
    above it are skipped. Returns None when there is no such row.

    ``merged`` maps a cell filled from a merged range to the range's top-left
    cell: DBH columns under one merged header are stems of one tree.
    """
    user = _user_map(column_map)
    best = None
    for i, row in enumerate(rows[:scan]):
        if not any(_cell_text(v) for v in row):
            continue
        matches = _map_row(row, user)
        n, ok = _score(matches)
        if ok and (best is None or n > best[0]):
            best = (n, i, matches)
    if best is None:
        return None
    _, i, matches = best
    return build_mapping(rows, i, matches, user, merged)


def column_letters(j: int) -> str:
    s = ""
    j += 1
    while j:
        j, r = divmod(j - 1, 26)
        s = chr(65 + r) + s
    return s


def build_mapping(
    rows: list[list],
    i: int,
    matches,
    user: dict[str, str],
    merged: dict[tuple[int, int], tuple[int, int]] | None = None,
) -> Mapping:
    header = rows[i]
    cols: list[Column] = []
    unmapped: list[str] = []
    warnings: list[str] = []
    seen_user = set()
    for j, (v, (f, unit, stem)) in enumerate(zip(header, matches)):
        t = _cell_text(v)
        if t in user or (t and norm_header(t) in {norm_header(k) for k in user}):
            seen_user.add(norm_header(t))
        if f is None:
            if t:
                unmapped.append(t)
            continue
        if f == "ignore":
            continue
        cols.append(Column(j, t, f, unit, stem))
    missing = [k for k in user if norm_header(k) not in seen_user]
    if missing:
        heads = [_cell_text(v) for v in header if _cell_text(v)]
        raise SurveyError(
            f"column map: {', '.join(repr(m) for m in missing)} not in the header row "
            f"(row {i + 1}: {', '.join(repr(h) for h in heads)})"
        )
    m = Mapping(i, cols, unmapped, warnings)
    _choose_tag(m, user)
    # one column per single-valued field; the extra ones are reported
    for f in (
        "tag",
        "dbh_unit",
        "stems",
        "condition",
        "land_use",
        "distance_to_residence_ft",
        *FLAG_FIELDS,
        *TREE_FACT_FIELDS,
        "genus",
        "cultivar",
        "stump_diameter",
        "climate_zone",
        *COORDINATE_FIELDS,
        "wkt",
    ):
        same = m.of(f)
        for c in same[1:]:
            warnings.append(f"column {c.header!r} also looks like {f}; only {same[0].header!r} is used")
            m.columns.remove(c)
            unmapped.append(c.header)
    # a WKT column beside coordinate columns is kept: the reader compares the two (a question where they differ)
    _choose_action(m, user)
    for f in ("condition", "status"):  # one of each, the status column made above among them
        same = m.of(f)
        for c in same[1:]:
            warnings.append(f"column {c.header!r} also looks like {f}; only {same[0].header!r} is used")
            m.columns.remove(c)
            unmapped.append(c.header)
    _classify_dbh(m, i, merged or {})
    return m


def _choose_action(m: Mapping, user: dict[str, str]) -> None:
    """Of several columns that could be the action: one the user mapped is the action (the others left out);
    else a column whose header says the work (Action, Treatment...) is, and a status column beside it
    (:data:`~treecalc.ingest.aliases.STATUS_HEADERS`: Alive / Dead / Stump) is read as the status; the other
    work columns are rivals, compared with the action row by row (:func:`treecalc.ingest.attributes.read_actions`)."""
    acts = m.of("action") + m.of("remove") + m.of("retain")
    mapped = {norm_header(k) for k, f in user.items() if f in ("action", "remove", "retain", "status")}
    m.action_mapped = any(norm_header(c.header) in mapped for c in [*acts, *m.of("status")])
    if len(acts) < 2:
        return
    # a header about the action ("Action required": Yes / No) beside one that is the action is not read as it
    about = [c for c in acts if action_qualified(c.header) and norm_header(c.header) not in mapped]
    if about and len(about) < len(acts):
        for c in about:
            m.columns.remove(c)
            m.unmapped.append(c.header)
        acts = [c for c in acts if c not in about]
        m.warnings.append(
            f"{', '.join(repr(c.header) for c in about)} not read as the action (a header about the action: "
            f"its date, who, priority, whether required); {acts[0].header!r} is"
        )
        if len(acts) < 2:
            return
    chosen = [c for c in acts if norm_header(c.header) in mapped]
    status = [c for c in acts if norm_header(c.header) in STATUS_HEADERS and c not in chosen]
    work = [c for c in acts if c not in status]
    if work and status:
        for c in status:  # the tree's state beside the work to be done: read as its status, not dropped
            c.field = "status"
        acts = work
    if chosen:
        acts = [chosen[0], *[c for c in acts if c is not chosen[0]]]
    first = acts[0]
    for c in acts[1:]:  # the action is the one of these left in the map
        m.columns.remove(c)
        if chosen:  # the user said which one is the action
            m.warnings.append(f"column {c.header!r} also looks like an action; only {first.header!r} is used")
            m.unmapped.append(c.header)
        else:
            m.rival_actions.append(c)


def _choose_tag(m: Mapping, user: dict[str, str]) -> None:
    """Of several tag columns, the surveyor's tree number tags the trees, not a GIS row id (OBJECTID, FID,
    GlobalID: :func:`treecalc.ingest.aliases.gis_row_id`), whichever comes first; a column the user mapped to
    the tag wins over both. The row ids left out are said, with the column that tags the trees."""
    tags = m.of("tag")
    if len(tags) < 2:
        return
    mapped = {norm_header(k) for k, f in user.items() if f == "tag"}
    chosen = min(tags, key=lambda c: (norm_header(c.header) not in mapped, gis_row_id(c.header), c.index))
    if chosen is not tags[0]:  # first among the tag columns: the one the reader uses
        m.columns.remove(chosen)
        m.columns.insert(m.columns.index(tags[0]), chosen)
    ids = [c for c in tags if c is not chosen and gis_row_id(c.header)]
    if not ids or norm_header(chosen.header) in mapped or gis_row_id(chosen.header):
        return  # two surveyor columns, or the user's choice: said as for any single-valued field
    for c in ids:
        m.columns.remove(c)
        m.unmapped.append(c.header)
    heads = ", ".join(repr(c.header) for c in ids)
    m.warnings.append(
        f"column {chosen.header!r} tags the trees (the surveyor's tree number); {heads} "
        f"{'is a GIS row id' if len(ids) == 1 else 'are GIS row ids'}, not used as the tag "
        f'(‹column_map="{ids[0].header}=tag"› to tag the trees by it)'
    )


def _same_unit(a: str | None, b: str | None) -> bool:
    return (a or "in") == (b or "in")


def _classify_dbh(m: Mapping, i: int, merged: dict[tuple[int, int], tuple[int, int]]) -> None:
    """Several DBH columns. Only explicit signs make stems: a stem header
    ("Stem 2", "DBH 2", "Stem DBH"), or columns under one merged "DBH" header.
    The same measurement in other units ("DBH (in)" and "DBH (cm)") gives
    alternatives (``dbh_alt``): the first one given is used, inches first.
    Two columns both read as DBH in the same unit are ambiguous: refused.
    """
    dbhs = m.of("dbh")
    if len(dbhs) < 2:
        return
    # columns under one merged header: the first is the DBH, the others its stems
    by_col = {c.index: c for c in dbhs}
    group: list[Column] = []
    for c in dbhs:
        origin = merged.get((i, c.index))
        if origin is not None and origin[0] == i and origin[1] in by_col and origin[1] != c.index:
            group.append(c)
    for k, c in enumerate(group, start=2):
        c.field, c.stem_no = "dbh_stem", k
    dbhs = m.of("dbh")
    if len(dbhs) < 2:
        return
    main = next((c for c in dbhs if c.unit == "in"), dbhs[0])
    seen = [main]
    for c in dbhs:
        if c is main:
            continue
        twin = next((o for o in seen if _same_unit(o.unit, c.unit)), None)
        if twin is not None:
            a, b = sorted((twin, c), key=lambda x: x.index)
            raise SurveyError(
                f"two columns are both read as DBH: {a.header!r} (column {column_letters(a.index)}) and "
                f"{b.header!r} (column {column_letters(b.index)}); use ‹column_map› to choose "
                f'(e.g. ‹column_map="{b.header}=ignore"›, or ‹column_map="{b.header}=dbh_stem"› if it is a second stem)'
            )
        seen.append(c)
        c.field = "dbh_alt"
    # the inch column is the main one: move it first among the DBH columns
    if main is not dbhs[0]:
        m.columns.remove(main)
        m.columns.insert(m.columns.index(dbhs[0]), main)


def coordinate_fields(columns: Any) -> dict[str, str]:
    """The input's coordinate columns by field (latitude, longitude, x, y), read by the headers a survey's are
    ("lat", "Latitude", "lng", "POINT_X", "x", ...); one of a pair without the other, or two of one field, is an
    error naming them."""
    found: dict[str, list[str]] = {"latitude": [], "longitude": [], "x": [], "y": []}
    for c in columns:
        f = match_header(c)[0]
        if f in found:
            found[f].append(str(c))
    for name, cols in found.items():
        if len(cols) > 1:
            raise ValueError(f"columns {cols} are each read as the trees' {name}: keep one")
    for a, b in (("latitude", "longitude"), ("x", "y")):
        if bool(found[a]) != bool(found[b]):
            has, lacks = (a, b) if found[a] else (b, a)
            raise ValueError(f"column {found[has][0]!r} is read as the trees' {has} but no column as their {lacks}")
    return {f: cols[0] for f, cols in found.items() if cols}


def coordinate_columns(columns: Any) -> tuple[str, str] | None:
    """The two columns that place the trees: (latitude, longitude), else (x, y), else None
    (:func:`coordinate_fields`)."""
    fields = coordinate_fields(columns)
    for pair in (("latitude", "longitude"), ("x", "y")):
        if pair[0] in fields:
            return fields[pair[0]], fields[pair[1]]
    return None
