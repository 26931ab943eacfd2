"""A survey's trees in layouts other programs read: ``treecalc survey FILE --export FORMAT``.

* ``benefits``: one row per tree: tag, the species read (code, scientific and common name), its i-Tree code
  (the value row its zone reads) and climate zone, DBH, land use, every benefit quantity and dollar figure,
  and the per-tree disclosures.
* ``opentreemap``: OpenTreeMap's tree import columns, named as its importer reads them (otm-core
  ``opentreemap/importer/fields.py``, ``trees``: ``point x`` / ``point y`` WGS84 longitude / latitude,
  ``custom id``, ``genus``, ``species``, ``cultivar``, ``common name``, ``diameter`` in inches), with the
  i-Tree code OpenTreeMap's species import reads (``i-tree code``, ``fields.py`` ``species``).

i-Tree Eco's import layout is not offered: its column list was not found in a public source to check
against (an invented layout would import wrongly without a word).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from treecalc import data

FORMATS = ("benefits", "opentreemap")


def export_frame(
    trees: pd.DataFrame, fmt: str, site: dict[str, Any] | None = None, zone: str | None = None
) -> pd.DataFrame:
    """The trees of a survey (:attr:`treecalc.ingest.Survey.trees`) in layout ``fmt`` (one of :data:`FORMATS`)."""
    from treecalc import climate_zones, geo
    from treecalc.benefits import compute_benefits

    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r}; expected one of {', '.join(FORMATS)}")
    chosen = climate_zones.survey_zone(trees, site, zone)
    cols = [c for c in ("species_code", "dbh_in", "land_use") if c in trees]
    ben = compute_benefits(trees[cols], zone=chosen.zone)
    cat = data.catalogue()
    sci = cat["scientific_name"].reindex(ben["species_code"].astype(str)).to_numpy()
    common = cat["common_name"].reindex(ben["species_code"].astype(str)).to_numpy()
    tag = trees["tag"] if "tag" in trees else pd.Series("", index=trees.index)
    if fmt == "benefits":
        front = pd.DataFrame({"tag": tag.to_numpy(), "scientific_name": sci, "common_name": common}, index=trees.index)
        out = pd.concat([front, ben.rename(columns={"value_row": "itree_code"})], axis=1)
        out.insert(1, "species_code", out.pop("species_code"))
        return out.reset_index(drop=True)
    ll = geo.tree_lonlat(trees, site)
    genus = [str(s).split()[0] if isinstance(s, str) and s else "" for s in sci]
    epithet = [
        str(s).split()[1] if isinstance(s, str) and len(str(s).split()) > 1 and not str(s).endswith(" sp.") else ""
        for s in sci
    ]
    return pd.DataFrame(
        {
            "point x": ll["longitude_deg"].to_numpy() if ll is not None else None,
            "point y": ll["latitude_deg"].to_numpy() if ll is not None else None,
            "custom id": tag.to_numpy(),
            "genus": genus,
            "species": epithet,
            "cultivar": "",
            "common name": common,
            "diameter": ben["dbh_in"].to_numpy(),
            "i-tree code": ben["value_row"].astype(str).to_numpy(),
            "i-tree region": ben["zone"].astype(str).to_numpy(),
        }
    )
