"""A survey's trees in layouts other programs read: ``treecalc survey FILE --export FORMAT``.

* ``benefits``: one row per tree: tag, the species read (code, scientific and common name), its i-Tree code
  (the value row its zone reads) and climate zone, DBH, land use, every benefit quantity and dollar figure,
  and the per-tree disclosures.
* ``opentreemap``: OpenTreeMap's tree import columns, named exactly as its tree importer reads them (otm-core
  ``opentreemap/importer/fields.py``, class ``trees``, in the order of its ``ALL``), each that the survey gives:
  ``point x`` / ``point y`` (WGS84 longitude / latitude), ``owner orig id`` (the tag: the importer's
  ``EXTERNAL_ID_NUMBER``), ``tree present`` (false for a tree the survey says was removed), ``genus``,
  ``species`` (the epithet), ``cultivar`` (as the survey writes it, 'Green Mountain', else the catalogue's
  cultivar row), ``other part of name`` (a variety or subspecies: "var. inermis"), ``common name`` and
  ``diameter`` (inches). No other column: the tree importer knows no i-Tree code or region (the i-Tree code
  is a field of its *species* import), and a column it does not know stops the import.

* ``itree-eco``: an existing inventory as i-Tree Eco v6 imports one (i-Tree, "Eco v6.0 Guide: Importing an
  Existing Inventory", 2017): Eco's import wizard maps the file's columns to its variables, of which two are
  required, the species ("the species and genus names of each tree") and the DBH ("at breast height, 4.5 feet
  above the ground"); so one row per tree with ``Tree ID`` (the tag), ``Species`` (the scientific name read),
  ``DBH (in)``, and ``Latitude`` / ``Longitude`` (WGS84) where the survey gives coordinates. A dead tree gets
  ``Percent Dieback`` 100, as the i-Tree team asks dead trees to be entered (i-Tree Support forum, "What is the
  correct way to enter a dead tree in Eco", 2011); a living tree's dieback is left blank, since a survey's
  condition class is not a measured dieback. The column names are the variables' names for the wizard to map;
  Eco's own field names were not checked against a copy of its importer.

Every layout, and every CSV the app downloads (:func:`at_precision`), writes a quantity at the precision its
number format in ``treecalc/columns.csv`` gives it (the statement's), half up: DBH to 0.1 in, distances to
0.1 ft, areas to 0.01 sq ft, dollars to the cent, each benefit quantity at its own format. The benefits are
computed from the diameters as read; only what is written is rounded. Coordinates carry no format and are
written as given.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from treecalc import schema
from treecalc.files import Replacing
from treecalc.models.benefits import compute_benefits, dead_trees, shown_dollars, survey_zone
from treecalc.reference import data, geo

FORMATS = ("benefits", "opentreemap", "itree-eco")

#: The files an export is written as, by the extension of the name given (``‹out›``); any other name is refused,
#: never written as CSV under a name that says otherwise.
OUT_SUFFIXES = {".csv": "CSV", ".xlsx": "an Excel workbook"}


#: The decimals each number format of ``columns.csv`` writes; a format not here (a price per unit, a number of
#: unknown precision, a share) is written as computed.
_DECIMALS = {schema.INT: 0, schema.NUM0: 0, schema.NUM1: 1, schema.NUM2: 2, schema.USD: 2}
#: Whole numbers past this are kept as floats (int64 holds them, but a float there is not exactly a whole number).
_WHOLE_MAX = 2.0**53


def decimals(name: object) -> int | None:
    """The decimals a column of this name is written to (its ``columns.csv`` format, or its name's unit
    suffix: :func:`treecalc.schema.describe`), None when it has no fixed precision."""
    return _DECIMALS.get(schema.describe(name).fmt or "")


def half_up(x: Any, places: int) -> np.ndarray:
    """``x`` rounded to ``places`` decimals, halves away from zero on the number's decimal (8.05 -> 8.1, as a
    spreadsheet shows it, though 8.05 is 8.0499... in binary); NaN stays NaN."""
    v = np.asarray(x, dtype=float)
    scaled = np.round(np.abs(v) * 10.0**places, 6)  # 80.49999999999999 is the decimal 80.5
    return np.sign(v) * np.floor(scaled + 0.5) / 10.0**places + 0.0  # + 0.0: no "-0.0"


def at_precision(frame: pd.DataFrame, names: Mapping[Any, str] | None = None) -> pd.DataFrame:
    """A copy of ``frame`` whose number columns are rounded to their precision (:func:`decimals`), the whole
    ones written as whole numbers (823, not 823.0). ``names`` gives the column name of a labelled column
    ("DBH (in)": "dbh_in"); any other column is known by its own name. Text, flags and columns of no fixed
    precision are left as they are."""
    out = frame.copy()
    for c in out.columns:
        col = out[c]
        if not isinstance(col, pd.Series) or not pd.api.types.is_float_dtype(col):
            continue
        places = decimals((names or {}).get(c, c))
        if places is None:
            continue
        v = half_up(col.to_numpy(dtype=float, na_value=np.nan), places)
        whole = places == 0 and bool((np.abs(v[~np.isnan(v)]) < _WHOLE_MAX).all())  # no inf, no huge float
        out[c] = pd.Series(v, index=out.index).astype("Int64") if whole else v
    return out


#: What stands for "some species of the genus" in a catalogue name: no epithet.
_NO_EPITHET = frozenset({"sp", "sp.", "spp", "spp."})
#: The hybrid sign, written as a letter or as the multiplication sign.
_HYBRID = frozenset({"x", "×"})


def _epithet(name: object) -> str:
    """The specific epithet of a scientific name, as OpenTreeMap's ``species`` column holds it: none for a
    genus-only name ("Lagerstroemia spp", "Acer sp."), the hybrid sign with its epithet ("Aesculus x carnea":
    "x carnea"), never an author ("Salix x sepulcralis Simonkai": "x sepulcralis")."""
    words = str(name).split() if isinstance(name, str) else []
    if len(words) < 2 or words[1].lower() in _NO_EPITHET:
        return ""
    if words[1].lower() in _HYBRID:
        return f"x {words[2]}" if len(words) > 2 else ""
    return words[1]


def export_frame(
    trees: pd.DataFrame, fmt: str, site: dict[str, Any] | None = None, zone: str | None = None
) -> pd.DataFrame:
    """The trees of a survey (:attr:`treecalc.ingest.Survey.trees`) in layout ``fmt`` (one of :data:`FORMATS`)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r}; expected one of {', '.join(FORMATS)}")
    chosen = survey_zone(trees, site, zone)
    cols = [c for c in ("species_code", "dbh_in", "land_use", "condition") if c in trees]  # a dead tree: no benefits
    frame = trees[cols] if chosen.per_tree is None else trees[cols].assign(zone=chosen.per_tree.to_numpy(object))
    # valued at the diameters as read, trees in several zones each in its own; the layouts write every quantity
    # at its precision
    # (each tree's dollars as every output shows them: the parts add up to the total, shown_dollars)
    ben = at_precision(shown_dollars(compute_benefits(frame, zone=chosen.zone)))
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
    if fmt == "itree-eco":
        eco = pd.DataFrame({"Tree ID": tag.to_numpy(), "Species": sci, "DBH (in)": ben["dbh_in"].to_numpy()})
        if ll is not None:
            eco["Latitude"], eco["Longitude"] = ll["latitude_deg"].to_numpy(), ll["longitude_deg"].to_numpy()
        dead = dead_trees(trees)  # the valuation's own reading of the survey's condition
        eco["Percent Dieback"] = pd.array([100 if d else pd.NA for d in dead], dtype="Int64")
        return eco
    genus = [str(s).split()[0] if isinstance(s, str) and s else "" for s in sci]
    epithet = [_epithet(s) for s in sci]
    written = trees["species"] if "species" in trees else pd.Series("", index=trees.index)
    # the survey's own cultivar first (the catalogue holds "Acer saccharum 'green mountain'" in lower case, and a
    # cultivar is valued as its species, so the code read is often the species': ACSA2), else the catalogue's
    cultivar = [_cultivar(w) or _cultivar(c) for w, c in zip(written.to_numpy(object), sci)]
    other = [_other_part(w) or _other_part(c) for w, c in zip(written.to_numpy(object), sci)]
    action = trees["action"].astype(str).to_numpy() if "action" in trees else np.full(len(trees), "")
    return pd.DataFrame(
        {
            "point x": ll["longitude_deg"].to_numpy() if ll is not None else None,
            "point y": ll["latitude_deg"].to_numpy() if ll is not None else None,
            "owner orig id": tag.to_numpy(),
            "tree present": [a != "removed" for a in action],
            "genus": genus,
            "species": epithet,
            "cultivar": cultivar,
            "other part of name": other,
            "common name": common,
            "diameter": ben["dbh_in"].to_numpy(),
        }
    )


#: A cultivar in a name: quoted ('Green Mountain', "Crimson King", typographic quotes) or after "cv.".
_CULTIVAR = re.compile(r"['\"‘’“”]([^'\"‘’“”]+)['\"‘’“”]?|\bcv\.?\s+(.+)$")
#: A rank below the species and its name: "var. inermis", "subsp. saccharum", "f. pendula".
_RANK = re.compile(r"\b(var|subsp|ssp|f|forma)\.?\s+([a-z][a-z-]+)")


def _cultivar(name: object) -> str:
    """The cultivar a name gives, as written ("Acer saccharum 'Green Mountain'": "Green Mountain"); "" for none."""
    m = _CULTIVAR.search(name) if isinstance(name, str) else None
    return (m.group(1) or m.group(2) or "").strip() if m else ""


def _other_part(name: object) -> str:
    """The variety or subspecies a name gives ("Gleditsia triacanthos var. inermis": "var. inermis"); "" for none."""
    m = _RANK.search(name) if isinstance(name, str) else None
    return f"{m.group(1)}. {m.group(2)}" if m else ""


def out_suffix(path: str, flag: str = "‹out›") -> str:
    """The extension of ``path`` that says what to write (:data:`OUT_SUFFIXES`); ValueError naming the formats
    for any other (".geojson", ".json", none), before anything is read or written."""
    if not path.strip():
        raise ValueError(f"{flag} {path!r} is empty (an unset variable?): give a file name ending in .csv or .xlsx")
    suffix = Path(path).suffix.lower()
    if suffix not in OUT_SUFFIXES:
        said = f"{Path(path).suffix!r}" if suffix else "no extension"
        raise ValueError(
            f"{flag} {path}: the export is written as CSV (.csv) or an Excel workbook (.xlsx), and this name has "
            f"{said}; give a file name ending in .csv or .xlsx"
        )
    if Path(path).is_dir():
        raise ValueError(f"{flag} {path} is a folder")
    return suffix


def csv_text(frame: pd.DataFrame) -> str:
    """``frame`` as CSV text, every text cell guarded against formulas (:func:`treecalc.report.xlsx.csv_frame`)."""
    from treecalc.report.xlsx import csv_frame  # heavy: xlsxwriter, loaded only when this runs

    return csv_frame(frame).to_csv(index=False, lineterminator="\n")


def write_table(frame: pd.DataFrame, path: str, sheet: str = "Trees", flag: str = "‹out›") -> None:
    """Write ``frame`` to ``path`` in the format its extension names (:func:`out_suffix`): CSV, or an xlsx of one
    sheet written by the statement's safe writer (texts never formulas, numbers at their columns' formats). The
    file is written whole or not at all (:class:`treecalc.files.Replacing`)."""
    suffix = out_suffix(path, flag)
    with Replacing(path, user_mode=True) as tmp:
        if suffix == ".csv":
            Path(tmp).write_text(csv_text(frame), encoding="utf-8", newline="")
        else:
            _xlsx(frame, tmp, sheet)


def _xlsx(frame: pd.DataFrame, path: str, sheet: str) -> None:
    from treecalc.report.xlsx import Book  # heavy: xlsxwriter, loaded only when this runs

    book = Book(path)
    ws = book.sheet(sheet)
    book.header_cells(ws, 0, [str(c) for c in frame.columns])
    book.table_rows(ws, 1, frame, [schema.describe(c).fmt for c in frame.columns])
    book.close(sheet)
