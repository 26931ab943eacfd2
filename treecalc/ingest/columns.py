"""Column headers: canonical fields, synonyms, units, and finding the header row.

Headers are compared after :func:`norm_header`: lower case, ``#`` read as
"no", full stops and apostrophes dropped ("D.B.H." → "dbh"), every other
punctuation mark a space. A unit written in the header ("DBH (cm)",
"Diameter (mm)", "D.B.H. (in.)", "Distance to house (ft)") is taken out
first and remembered.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

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
    "latitude",
    "longitude",
    "x",
    "y",
    "ignore",
)
#: Coordinate fields: WGS84 degrees (latitude, longitude) or projected (x, y, e.g. POINT_X/POINT_Y).
COORDINATE_FIELDS = ("latitude", "longitude", "x", "y")

_UNIT_TAIL = re.compile(
    r"(?:\s|^)(?:in|inch|inches|cm|mm|centimeters?|centimetres?|millimeters?|millimetres?|ft|feet|m|meters?|metres?)$"
)


def norm_header(text: object) -> str:
    s = (
        str(text)
        .lower()
        .replace("⌀", " diameter ")
        .replace("ø", " diameter ")
        .replace("#", " no ")
        .replace("%", " pct ")
        .replace(">", " over ")
    )
    s = s.replace("&", " and ").replace("≥", " over ")
    s = re.sub(r"[.'’`]", "", s)
    s = re.sub(r"[^a-z0-9]+", " ", s)
    return " ".join(s.split())


def header_unit(text: object) -> tuple[str, str | None]:
    """(normalised header without its unit, unit or None): 'in', 'cm', 'mm', 'ft', 'm'."""
    raw = str(text)
    unit = None
    if re.search(r'["″”]|\bin\.\)', raw):
        unit = "in"
    h = norm_header(raw)
    m = _UNIT_TAIL.search(h)
    # "dbh in", "diameter cm", "distance to house ft"; never the whole header ("in")
    while m and m.start() > 0:
        w = m.group(0).strip()
        unit = {"inch": "in", "inches": "in", "feet": "ft"}.get(w, w)
        if unit.startswith("centim"):
            unit = "cm"
        elif unit.startswith("millim"):
            unit = "mm"
        elif unit.startswith("met"):
            unit = "m"
        h = h[: m.start()].strip()
        m = _UNIT_TAIL.search(h)
    return h, unit


def _n(*names: str) -> list[str]:
    return [norm_header(n) for n in names]


SYNONYMS: dict[str, list[str]] = {
    "tag": _n(
        "tag",
        "tag #",
        "tag no",
        "tag number",
        "tree tag",
        "tree tag #",
        "tree #",
        "tree no",
        "tree number",
        "tree id",
        "id",
        "#",
        "no",
        "number",
        "tree",
        "site id",
        "asset id",
        "inventory id",
        "inventory #",
        "tree ref",
        "ref",
        "reference",
        "label",
        "point id",
        "item",
        "item #",
        "tree num",
        "treeid",
        "tag id",
        "tree n",
        "tree n°",
        "objectid",
        "object id",
        "fid",
        "tree_id",
        "asset no",
        "tree asset id",
        "unique id",
        "record id",
        "plot tree",
        "tree tag number",
        "survey #",
        "survey no",
        "map #",
        "map id",
        "key",
        "tree key",
        "no tree",
    ),
    "species": _n(
        "species",
        "common name",
        "botanical name",
        "scientific name",
        "botanical",
        "genus species",
        "species name",
        "tree species",
        "species common botanical",
        "species common name",
        "species botanical name",
        "species scientific name",
        "species latin",
        "common botanical",
        "botanical common",
        "latin name",
        "tree type",
        "type",
        "spp",
        "sp",
        "species code",
        "species (common / botanical)",
        "species (botanical / common)",
        "common",
        "name",
        "tree name",
        "genus and species",
        "taxon",
        "spc latin",
        "spc common",
        "spc_latin",
        "spc_common",
        "species common",
        "species botanical",
        "species scientific",
        "common species",
        "scientific",
        "species_name",
        "species description",
        "specie",
        "tree species common name",
        "tree species botanical name",
    ),
    "dbh": _n(
        "dbh",
        "d b h",
        "diameter",
        "trunk diam",
        "trunk diameter",
        "diam",
        "dbh in",
        "tree dbh",
        "size",
        "dsh",
        "diameter at breast height",
        "stem diameter",
        "trunk dia",
        "dia",
        "caliper",
        "dbh total",
        "total dbh",
        "combined dbh",
        "dbh combined",
        "trunk size",
        "tree diameter",
        "dbh size",
        "diameter breast height",
        "dbh inches",
        "dbh measurement",
        "measured dbh",
        "dbh_in",
    ),
    "genus": _n("genus", "genus name", "tree genus"),
    "cultivar": _n("cultivar", "cultivar name", "cv", "variety", "cultivar variety"),
    "stump_diameter": _n("stump diam", "stump diameter", "stump dbh", "stump_diam", "stump dia", "stump size"),
    "latitude": _n("latitude", "lat", "y lat", "lat y", "gps latitude", "latitude wgs84", "lat dd"),
    "longitude": _n(
        "longitude", "lon", "long", "lng", "x long", "long x", "gps longitude", "longitude wgs84", "lon dd"
    ),
    "x": _n(
        "point x", "point_x", "x coordinate", "x coord", "easting", "x", "x sp", "x_sp", "xcoord", "x coordinate ft"
    ),
    "y": _n(
        "point y", "point_y", "y coordinate", "y coord", "northing", "y", "y sp", "y_sp", "ycoord", "y coordinate ft"
    ),
    "dbh_unit": _n(
        "unit", "units", "dbh unit", "dbh units", "diameter unit", "diameter units", "unit of measure", "uom"
    ),
    "stems": _n(
        "stems",
        "no stems",
        "number of stems",
        "stem count",
        "num stems",
        "multi stem count",
        "trunks",
        "no of stems",
        "stems no",
        "no trunks",
        "number of trunks",
        "trunk count",
    ),
    "action": _n(
        "action",
        "status",
        "proposed",
        "proposed action",
        "recommendation",
        "recommended action",
        "treatment",
        "disposition",
        "retain remove",
        "remove retain",
        "save remove",
        "remove save",
        "retain or remove",
        "work",
        "maintenance",
        "proposed treatment",
        "tree action",
        "recommendations",
        "proposed status",
        "removal status",
        "action required",
        "plan",
        "proposal",
        "disposal",
        "tree status",
        "proposed work",
        "work recommended",
        "recommended work",
        "prescription",
    ),
    "remove": _n(
        "remove",
        "remove?",
        "removal",
        "to be removed",
        "remove y n",
        "removal y n",
        "remove yes no",
        "to remove",
        "removed y n",
        "tbr",
        "proposed removal",
        "removal proposed",
        "cut",
        "remove tree",
        "for removal",
        "tree to be removed",
    ),
    # the applicant's trees that cannot be kept (in the footprint, hazardous): the plan never retains them
    "must_remove": _n(
        "must remove",
        "must remove?",
        "must be removed",
        "required removal",
        "removal required",
        "must remove y n",
        "required removal y n",
    ),
    # the 10th edition's depreciations (Guide for Plant Appraisal), percentages per tree
    "functional_limitation_pct": _n(
        "functional limitations",
        "functional limitation",
        "functional limitations %",
        "functional limitation %",
        "functional limitations pct",
        "functional limitation pct",
    ),
    "external_limitation_pct": _n(
        "external limitations",
        "external limitation",
        "external limitations %",
        "external limitation %",
        "external limitations pct",
        "external limitation pct",
    ),
    "retain": _n(
        "retain",
        "retain?",
        "save",
        "save?",
        "keep",
        "preserve",
        "to be retained",
        "retain y n",
        "save y n",
        "to remain",
        "protect",
    ),
    "condition": _n(
        "condition",
        "cond",
        "health",
        "condition rating",
        "overall condition",
        "tree condition",
        "vigor",
        "condition class",
        "health condition",
        "tree health",
        "condition pct",
        "condition rating pct",
        "health rating",
        "vitality",
        "overall health",
    ),
    "land_use": _n(
        "land use",
        "landuse",
        "land use type",
        "site type",
        "location type",
        "lu",
        "land use class",
        "property type",
        "land use category",
        "zoning use",
    ),
    "notes": _n(
        "notes",
        "note",
        "comments",
        "comment",
        "remarks",
        "remark",
        "observations",
        "observation",
        "description",
        "memo",
        "details",
        "defects",
        "notes comments",
        "comments notes",
        "arborist notes",
        "field notes",
        "additional notes",
        "other",
        "misc",
        "inspector comments",
    ),
    "street_tree": _n(
        "street tree",
        "street",
        "row",
        "right of way",
        "in row",
        "public tree",
        "row tree",
        "village tree",
        "municipal tree",
        "city tree",
        "street trees",
        "in right of way",
        "public right of way",
        "within row",
        "street tree y n",
        "public",
        "curb loc",
        "curb location",
        "curb_loc",
        "on curb",
        "village row",
        "street public tree",
        "public street tree",
        "street row",
    ),
    "wetland": _n(
        "wetland",
        "wetlands",
        "wetland buffer",
        "watercourse",
        "wetland watercourse",
        "in wetland",
        "in wetland buffer",
        "wetland or watercourse",
        "wetland watercourse buffer",
        "wetland or watercourse buffer",
        "wetland or buffer",
        "wetland buffer zone",
        "wetland y n",
        "watercourse buffer",
        "within wetland buffer",
        "wetland area",
        "stream buffer",
        "wetland/buffer",
        "227 3",
        "wetland 227 3",
    ),
    "slope_over_20pct": _n(
        "slope",
        "slope 20",
        "slope >20%",
        "slope > 20%",
        "slope over 20",
        "slope over 20 pct",
        "slope over 20 percent",
        "steep slope",
        "steep slopes",
        "slope gt 20",
        "slope 20 pct",
        "on slope",
        "slopes over 20",
        "slope over 20pct",
        "slope 20pct",
        "steep",
        "slopes",
        "slopes >20%",
        "on steep slope",
        "slope >20 %",
        "slope > 20 pct",
    ),
    "excessively_steep_slope": _n(
        "excessively steep slope",
        "excessively steep",
        "very steep slope",
        "very steep",
        "excessive slope",
        "excessively steep slopes",
        "excessively steep slope y n",
    ),
    "landmark": _n(
        "landmark", "landmark tree", "heritage tree", "historic tree", "landmark y n", "heritage", "landmark heritage"
    ),
    "conservation_area": _n(
        "conservation area",
        "conservation easement",
        "easement",
        "conservation",
        "designated buffer",
        "designated buffer area",
        "conservation buffer",
        "conservation easement area",
        "conservation easement or buffer",
        "easement buffer",
        "in easement",
        "conservation easement designated buffer",
    ),
    # § 208-19A(5) "threatened or endangered species of tree ... as defined by the New York State DEC": a
    # permit trigger; a DEC "protected native plant" (§ 208-29B(6)) is a penalty tier only (a wider list:
    # endangered, threatened, rare and exploitably vulnerable plants, ECL § 9-1503), so a column that says
    # only "protected" or "DEC" is read as that tier, never as the trigger.
    "threatened_endangered": _n(
        "threatened or endangered",
        "threatened endangered",
        "threatened/endangered",
        "t&e",
        "t e",
        "t and e",
        "t&e species",
        "endangered",
        "threatened",
        "endangered species",
        "threatened species",
        "threatened or endangered species",
        "dec threatened or endangered",
        "nys threatened or endangered",
    ),
    "protected_native": _n(
        "dec protected native plant",
        "protected native plant",
        "protected native",
        "dec protected native",
        "protected native plants",
        "exploitably vulnerable",
        "dec protected",
        "dec",
        "protected plant",
        "protected species",
        "rare",
        "dec listed",
        "nys protected",
    ),
    "regulated_buffer_zone": _n(
        "regulated buffer zone",
        "buffer zone",
        "regulated buffer",
        "buffer",
        "in buffer zone",
        "perimeter buffer",
        "rbz",
        "regulated buffer zone y n",
    ),
    "hazardous": _n(
        "hazard",
        "hazardous",
        "hazard tree",
        "high risk",
        "risk",
        "hazardous tree",
        "dangerous",
        "risk rating",
        "risk level",
        "hazard rating",
        "imminent hazard",
        "hazard y n",
        "risk assessment",
    ),
    "dead_or_diseased": _n(
        "dead or diseased",
        "dead diseased",
        "diseased",
        "dead",
        "dead dying",
        "dead/diseased",
        "dead or dying",
        "dead/dying",
        "dead or diseased y n",
        "disease",
        "dead dying diseased",
    ),
    "good_forestry": _n(
        "good forestry",
        "good forestry practice",
        "forestry",
        "silvicultural",
        "good forestry practice 208 22e",
        "forestry practice",
        "silviculture",
        "forestry removal",
        "good forestry removal",
    ),
    "within_20ft_of_lot_line": _n(
        "within 20 ft of lot line",
        "within 20ft of lot line",
        "within 20 of lot line",
        "within 20 feet of lot line",
        "near lot line",
        "lot line",
        "20 ft lot line",
        "within 20 ft of property line",
        "within 20ft of property line",
        "near property line",
        "property line",
        "lot line 20 ft",
        "within 20 lot line",
        "within 20 ft lot line",
        "lot line 20",
        "20 ft of lot line",
    ),
    # what the survey says of the work on each tree (yes/no; a permit number reads yes)
    "permit": _n(
        "permit",
        "permit no",
        "permit #",
        "permit number",
        "permitted",
        "under permit",
        "permit y n",
        "tree permit",
        "tree removal permit",
        "tree removal permit no",
        "tree removal permit #",
        "tree permit #",
        "tree permit no",
        "tree permit number",
        "removal permit",
        "removal permit #",
        "removal permit no",
        "permit held",
    ),
    "village_work": _n(
        "village work",
        "by village",
        "village row work",
        "work by village",
        "by or for village",
        "village work y n",
        "done by village",
        "village dpw work",
    ),
    "department_approval": _n(
        "department approval",
        "dpw approval",
        "department written approval",
        "written approval",
        "approved by dpw",
        "dpw approved",
    ),
    "distance_to_residence_ft": _n(
        "distance to residence",
        "distance to house",
        "distance to dwelling",
        "dist to house",
        "distance to home",
        "distance from house",
        "distance from residence",
        "dist to residence",
        "distance to residence ft",
        "distance to house ft",
        "distance to structure",
        "distance to building",
        "dist from house",
        "distance house",
        "residence distance",
        "house distance",
        "distance to dwelling ft",
        "dist to dwelling",
        "distance from dwelling",
    ),
}

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
            raise SurveyError(
                f"column map {k!r}={v!r}: dec_protected is two fields now: threatened_endangered (a permit for "
                f"any size, §208-19A(5)) or protected_native (a DEC protected native plant, the §208-29B(6) "
                f"penalty tier only); map the column to the one it records"
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
        *COORDINATE_FIELDS,
    ):
        same = m.of(f)
        for c in same[1:]:
            warnings.append(f"column {c.header!r} also looks like {f}; only {same[0].header!r} is used")
            m.columns.remove(c)
            unmapped.append(c.header)
    acts = m.of("action") + m.of("remove") + m.of("retain")
    for c in acts[1:]:
        warnings.append(f"column {c.header!r} also looks like an action; only {acts[0].header!r} is used")
        m.columns.remove(c)
        unmapped.append(c.header)
    _classify_dbh(m, i, merged or {})
    return m


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
                f"{b.header!r} (column {column_letters(b.index)}); use --map to choose "
                f'(e.g. --map "{b.header}=ignore", or --map "{b.header}=dbh_stem" if it is a second stem)'
            )
        seen.append(c)
        c.field = "dbh_alt"
    # the inch column is the main one: move it first among the DBH columns
    if main is not dbhs[0]:
        m.columns.remove(main)
        m.columns.insert(m.columns.index(dbhs[0]), main)
