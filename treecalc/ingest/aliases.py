"""The header aliases: every way a survey is known to write a field's header, and how headers are normalised
before they are compared with them.

Headers are compared after :func:`norm_header`: lower case, ``#`` read as "no", full stops and apostrophes
dropped ("D.B.H." → "dbh"), every other punctuation mark a space. A unit written in the header ("DBH (cm)",
"Diameter (mm)", "D.B.H. (in.)", "Distance to house (ft)") is taken out first (:func:`header_unit`).
The matching of a header to its field (these aliases, then word rules) is :mod:`treecalc.ingest.columns`.
"""

from __future__ import annotations

import re

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


#: A GIS layer's own row ids (ArcGIS OBJECTID / OBJECTID_1 after a join, a shapefile's FID, GlobalID): read
#: as the tag only when the survey has no other tag column. The surveyor's tree number ("Tree N°", "Tree #",
#: "Tag") is the tag on the trunk and in the report; a row id is the order the features were made in.
GIS_ROW_IDS = frozenset(_n("objectid", "object id", "objectid 1", "fid", "globalid", "global id"))


#: Headers of a status column (a municipal inventory's Alive / Dead / Stump, or Good / Fair / Poor): the state the
#: tree is in, not the work to be done. Alone it is read as the action (Alive: retain, Stump: removed); beside a
#: column whose header says the work (Action, Proposed action, Work, Treatment, Recommendation, Disposition) it is
#: read as the condition and that column is the action.
STATUS_HEADERS = frozenset(_n("status", "tree status"))


def gis_row_id(header: object) -> bool:
    """Whether a header names a GIS layer's row id (:data:`GIS_ROW_IDS`), not a surveyor's tree number."""
    h = norm_header(header)
    return h in GIS_ROW_IDS or h in {g.replace(" ", "") for g in GIS_ROW_IDS}


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
        "objectid 1",
        "fid",
        "globalid",
        "global id",
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
    # each tree's geometry as WKT text, "POINT (-73.89 41.21)": QGIS's GEOMETRY=AS_WKT export, ogr2ogr's, PostGIS's
    "wkt": _n("wkt", "as wkt", "as_wkt", "wkt geom", "wkt_geom", "geometry", "geom", "the geom", "the_geom"),
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
    # the i-Tree Streets climate zone of each tree (code or name); not a bare "zone" (a zoning district) nor a
    # hardiness zone
    "climate_zone": _n(
        "climate zone",
        "i-tree zone",
        "itree zone",
        "i-tree region",
        "itree region",
        "i-tree climate zone",
        "itree climate zone",
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
    # Chapter 208's permit trigger "threatened or endangered species of tree ... as defined by the New York State DEC": a
    # permit trigger; a DEC "protected native plant" (a civil penalty tier) is a penalty tier only (a wider list:
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
        "dept approval",
        "dept approved",
        "department approved",
        "dept written approval",
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
