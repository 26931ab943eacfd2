"""The assessment as a GIS layer (``treecalc assess FILE --out trees.gpkg``, ``.geojson``, ``.fgb``): one point per
tree where it stood, with its assessment, and the summary with the fingerprint beside it.

A GeoPackage holds the trees as the layer ``trees`` and the summary as the table ``summary`` (no geometry: one row
per figure, ``name`` and ``value`` as JSON text). GeoJSON and FlatGeobuf hold one layer: the summary goes to a
sidecar JSON file beside it (``trees.summary.json`` for ``trees.geojson``). The points are in WGS84, or, when the
survey was a GIS layer with a coordinate system of its own (a State Plane Shapefile), in that system: opened over
the input in QGIS, each point lies on its tree's. A tree without coordinates is written
all the same, without a geometry (a row of the attribute table, not a point on the map); the summary counts them
under ``trees_without_coordinates``; the rows the survey rejected are no trees, and the summary lists them with
their reasons (``rejected_rows``, and in a sentence ``rows_left_out``, which the GeoPackage and GeoJSON layer's
description repeats). The trees layer reads back as a survey (its tag, species, DBH, action,
condition and land use columns are the reader's), so a layer written here assesses again to the same figures.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from treecalc.files import Replacing
from treecalc.frames import unclear
from treecalc.ingest import zone as climate_zones
from treecalc.ingest.columns import FLAG_FIELDS
from treecalc.reference.geo import tree_lonlat
from treecalc.report.held import trees_as_held
from treecalc.report.json import assessment_json

if TYPE_CHECKING:
    from treecalc.assessment import Assessment

#: the formats written, by the file's suffix: (GDAL driver, where the summary goes)
FORMATS = {".gpkg": ("GPKG", "layer"), ".geojson": ("GeoJSON", "sidecar"), ".fgb": ("FlatGeobuf", "sidecar")}
#: the tree's inputs (read back as a survey), then its assessment, as the JSON's per-tree rows name them
TREE_FIELDS = (
    "tag",
    "species",
    "dbh_in",
    "stems",
    "action",
    "condition",
    "land_use",
    "zone",
    "species_code",
    "value_usd",
    "counted",
    "exclusion",
    "permit_needed",
    "permit_triggers",
    "offence_status",
    "offence_sections",
    "offence_depends_on",
    "penalty_tier",
    "penalty_base_usd",
    "penalty_max_usd",
    "criminal_max_usd",
    "criminal_section",
    "source_row",
)


def sidecar(path: str | Path) -> Path:
    """Where the summary of a GeoJSON or FlatGeobuf layer goes: ``trees.summary.json`` beside ``trees.geojson``."""
    p = Path(path)
    return p.with_name(f"{p.stem}.summary.json")


def _tree_zones(a: Assessment) -> list[str]:
    """The climate zone each tree was valued in: the zone given for all, else each tree's own (its column or its
    coordinates), as the assessment found them."""
    zone = a.options.get("zone") or {}
    if zone.get("source") == "given" or not len(a.trees):
        return [str(zone.get("zone") or "")] * len(a.trees)
    sz = climate_zones.survey_zone(a.trees, a.site, None)
    if sz.per_tree is None:
        return [str(sz.zone)] * len(a.trees)
    return [str(z) for z in sz.per_tree.reindex(a.trees.index).fillna(sz.zone)]


#: The per-tree facts besides the flags that the law, the plan or the appraisal reads, written back when the survey
#: gave them: without its permit column a tree removed under its permit read back as an offence
FACT_FIELDS = (
    "permit",
    "village_work",
    "department_approval",
    "must_remove",
    "notes",
    "functional_limitation_pct",
    "external_limitation_pct",
)


def _surveyed_inputs(trees: Any, source: dict[str, Any]) -> list[str]:
    """The survey's own columns of flags, facts and distance a tree was assessed with (those not surveyed are left
    out: written as "no" they would read back as surveyed)."""
    not_surveyed = set(source.get("flags_not_surveyed") or [])
    out = [f for f in FLAG_FIELDS if f in trees and f not in not_surveyed]
    mapped = set((source.get("column_map") or {}).values())
    out += [f for f in FACT_FIELDS if f in trees and f in mapped and f not in out]
    if source.get("distance_surveyed") and "distance_to_residence_ft" in trees:
        out.append("distance_to_residence_ft")
    return out


def _as_written(trees: Any, f: str) -> Any:
    """A surveyed column as the layer holds it: its own type (a flag true/false/null, a number), positionally; a flag
    column with a cell neither yes nor no ("maybe") as text, "yes"/"no"/"" and that cell's own words, so that it
    reads back as the survey said it (written as false it read back as a given "no")."""
    said = unclear(trees, f) if f in FLAG_FIELDS else None
    if said is None or not any(said):
        return trees[f].array
    values = trees[f].to_numpy(dtype=object, na_value=None)
    words = np.array(["" if v is None else "yes" if bool(v) else "no" for v in values], dtype=object)
    return np.where(said != "", said, words)


def _summary(d: dict[str, Any], without: int) -> dict[str, Any]:
    """The assessment's figures (the scalars of its JSON object), the rows the survey rejected (not trees: not in
    the layer) with their reasons, the fingerprint and the trees without a point."""
    out = {k: v for k, v in d.items() if not isinstance(v, (dict, list))}
    out["trees_without_coordinates"] = without
    out["zone"] = d.get("zone")
    out["replacement"] = {k: v for k, v in (d.get("replacement") or {}).items() if k != "plan"}
    out["rejected_rows"] = [
        {k: r.get(k) for k in ("source_row", "tag", "reason")} for r in d.get("rejected_rows") or []
    ]
    out["rows_left_out"] = left_out(out["rejected_rows"])
    out["fingerprint"] = d.get("fingerprint")
    return out


#: the summary's figures of the penalties: under a law whose penalties are not held, each says so (never 0 offences)
PENALTY_FIGURES = (
    "civil_penalty_max_usd",
    "civil_penalty_doubled",
    "criminal_fine_max_usd",
    "fine_max_usd",
    "civil_penalty_conditional_usd",
    "criminal_fine_conditional_usd",
    "fine_conditional_usd",
    "offences_definite",
    "offences_conditional",
    "offences",
)


def _say_not_held(summary: dict[str, Any], a: Assessment) -> dict[str, Any]:
    """The summary with each figure of a part of the law that is not held saying so ("not held (see <section>)"),
    never the null, 0 or false its finding holds: whether a permit is required, the penalties, the fund a payment goes
    into; and what is not held, each in a sentence (``not_held``). A law held whole: the summary as it is."""
    permit, pen, fund = a.permit.not_held, a.penalties.not_held, a.fund.not_held
    if permit is not None:
        summary["permit_required"] = permit.short
    if pen is not None:
        summary.update({k: pen.short for k in PENALTY_FIGURES if k in summary})
    if fund is not None:
        summary["fund_paid_into"] = fund.short
    if a.replacement.not_held:
        summary["not_held"] = list(a.replacement.not_held)
    return summary


def _tree_parts(a: Assessment, table: Any) -> Any:
    """The trees' attributes of a law read in part or counting trees: whether a tree's removal needs the permit,
    not held (the words, not an empty or "no" value), and each removed tree's replacement trees (empty for one the
    law's text leaves undecided, the assessment's warnings saying why)."""
    table = trees_as_held(a, table)
    by_tag = a.replacement.trees_by_tag
    if by_tag is not None and "tag" in table:
        counts = [by_tag.get(str(t)) for t in table["tag"]]
        table = table.assign(replacement_trees=pd.array(counts, dtype="Int64"))
    return table


def left_out(rejected: list[dict[str, Any]]) -> str:
    """The survey's rows not in the layer, in a sentence: a user counting the points against the rows sees why
    they differ without opening the summary's JSON."""
    if not rejected:
        return "every row of the survey is a tree of this layer"
    n = len(rejected)

    def one(r: dict[str, Any]) -> str:  # a reason names its row already ("row 6, column 'Species': ...")
        reason = str(r.get("reason"))
        said = reason if reason.startswith("row ") else f"row {r.get('source_row')}: {reason}"
        return f"tag {r['tag']}, {said}" if r.get("tag") else said

    rows = "; ".join(one(r) for r in rejected)
    return f"{n} row{'s' if n > 1 else ''} of the survey {'are' if n > 1 else 'is'} not in this layer: {rows}"


def write_layers(a: Assessment, path: str | Path) -> dict[str, Any]:
    """Write the trees of ``a`` to ``path`` (.gpkg, .geojson or .fgb) with the summary (see the module); returns
    the summary written. Each file is written beside its place and renamed into it."""
    import geopandas as gpd  # optional dependency: geopandas ([gis] extra)
    from shapely import points  # heavy: shapely, loaded only when this runs

    p = Path(path)
    driver, summary_to = FORMATS[p.suffix.lower()]
    d = assessment_json(a)
    rows = pd.DataFrame(d["per_tree"])
    cols = {f: rows[f] if f in rows else a.trees[f].to_numpy() for f in TREE_FIELDS if f in rows or f in a.trees}
    cols["zone"] = _tree_zones(a)
    table = pd.DataFrame({f: cols[f] for f in TREE_FIELDS if f in cols})
    table = _tree_parts(a, table)
    source = getattr(a.survey, "source", None) or {}
    for f in _surveyed_inputs(a.trees, source):  # what the survey said of each tree beyond the above: read back
        table[f] = _as_written(a.trees, f)
    ll = tree_lonlat(a.trees, a.site) if len(a.trees) else None
    if ll is None:
        lon = lat = np.full(len(table), np.nan)
    else:
        lon, lat = ll["longitude_deg"].to_numpy(float), ll["latitude_deg"].to_numpy(float)
    placed = np.isfinite(lon) & np.isfinite(lat)
    geom = np.array([None] * len(table), dtype=object)
    if placed.any():
        geom[placed] = points(lon[placed], lat[placed])
    layer = gpd.GeoDataFrame(table, geometry=gpd.GeoSeries(geom, crs="EPSG:4326"))
    if source.get("crs"):  # a GIS layer's trees go back in its own system: over the input where QGIS drew them
        layer = layer.to_crs(source["crs"])
    summary = _say_not_held(_summary(d, int((~placed).sum())), a)
    # written under a temporary name with the format's own suffix (FlatGeobuf makes a folder of a name without it),
    # then renamed into place: a reader never sees half a file
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=p.suffix, dir=p.parent if str(p.parent) else ".")
    os.close(fd)
    os.unlink(tmp)  # GDAL creates the file
    try:
        # FlatGeobuf's spatial index would sort the trees along a curve: they keep the survey's order
        options: dict[str, Any] = {"SPATIAL_INDEX": "NO"} if driver == "FlatGeobuf" else {}
        if driver in ("GPKG", "GeoJSON"):  # the layer itself says which rows are not among its points
            options["DESCRIPTION"] = summary["rows_left_out"]
        layer.to_file(tmp, driver=driver, layer="trees", engine="pyogrio", layer_options=options)
        if summary_to == "layer":
            import pyogrio  # optional dependency: pyogrio ([gis] extra)

            facts = pd.DataFrame(
                {"name": list(summary), "value": [json.dumps(v, default=str) for v in summary.values()]}
            )
            pyogrio.write_dataframe(facts, tmp, layer="summary", driver="GPKG", append=True)
        umask = os.umask(0)  # the user's usual mode (0644 for most), as the statement has
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, p)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    if summary_to == "sidecar":
        with Replacing(str(sidecar(p)), user_mode=True) as tmp:
            Path(tmp).write_text(json.dumps(summary, indent=1, default=str) + "\n", encoding="utf-8")
    return summary
