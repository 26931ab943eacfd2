"""Load the project's data tables once.

Everything here is read from ``data/species/`` (built by
``tools/build_species.py`` from the i-Tree Streets Northeast resource tables)
and cached for the life of the process. The loaders return read-only numpy
arrays so that no model can modify the shared tables by accident.

Set ``TREECALC_DATA`` to point at another ``data`` folder (for example a
village's edited copy of ``species/local_status.csv``): the one setting,
:data:`treecalc.reference.datafolder.DATA_DIR`, that the law files (``law/``) are read from too.
A file missing from that folder is an error naming it and the folder
(:class:`treecalc.reference.datafolder.MissingDataFile`).
"""

from __future__ import annotations

import csv
import functools
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from treecalc.reference.datafolder import DATA_DIR, damaged_if_unreadable, data_file
from treecalc.reference.table_cache import cached_arrays

SPECIES_DIR = DATA_DIR / "species"
EXAMPLES_DIR = DATA_DIR / "examples"
SAMPLE_SURVEY = EXAMPLES_DIR / "sample_survey.xlsx"


def sample_survey() -> Path:
    """The data folder's sample survey; :class:`treecalc.reference.datafolder.MissingDataFile` naming it if the folder lacks it."""
    return data_file(SAMPLE_SURVEY.relative_to(DATA_DIR).as_posix(), DATA_DIR)


#: DBH class midpoints of every i-Tree Streets resource table, cm.
DBH_CLASSES_CM = np.array([3.81, 11.43, 22.86, 38.10, 53.34, 68.58, 83.82, 99.06, 114.30])
DBH_CLASSES_CM.setflags(write=False)

#: Land uses, in the order of the first axis of :attr:`BenefitTables.stack`.
#: i-Tree Streets keeps small commercial apart from industrial / large
#: commercial (they differ in the aesthetic land-use factor C) although both
#: read the source's one commercial/industrial energy table (``*-ci``).
#: ``commercial_industrial`` is a survey that does not say which of the two.
LAND_USES = (
    "unspecified",
    "single_family",
    "multi_family",
    "commercial_industrial",
    "institutional",
    "park_vacant_other",
    "small_commercial",
    "industrial_large_commercial",
)

#: The land-use variant of ``benefit_tables.csv`` each land use reads; ``""``
#: is the zone table. The source has variants for single-family (``*-sfr``),
#: multi-family (``*-mfr``), commercial/industrial (``*-ci``) and
#: institutional/transportation (``*-it``, all zero in the Northeast source);
#: park/vacant/other has none, so it reads the zone table like an unspecified tree.
TABLE_LAND_USE = {
    "unspecified": "",
    "single_family": "single_family",
    "multi_family": "multi_family",
    "commercial_industrial": "commercial_industrial",
    "institutional": "institutional",
    "park_vacant_other": "",
    "small_commercial": "commercial_industrial",
    "industrial_large_commercial": "commercial_industrial",
}

SOURCE_NAME = (
    "i-Tree Streets / National Tree Benefit Calculator resource tables, Northeast climate zone "
    "(McPherson et al. 2007, Northeast Community Tree Guide, USDA FS PSW-GTR-202), "
    "as distributed with OpenTreeMap's eco-benefit service"
)


@dataclass(frozen=True)
class BenefitTables:
    """All resource tables as one dense array.

    ``stack[factor]`` has shape ``(len(LAND_USES), len(value_rows), 9)``: for
    factors without land-use variants every land-use slice is the zone table.
    Each land use reads the variant :data:`TABLE_LAND_USE` names:
    ``park_vacant_other`` and ``unspecified`` the zone table (i-Tree Streets
    publishes variants only for the four built land uses), small commercial
    and industrial / large commercial the one commercial/industrial variant.
    """

    value_rows: tuple[str, ...]
    row_index: dict[str, int]
    stack: dict[str, np.ndarray]
    units: dict[str, str]


def _species_file(name: str) -> Path:
    """``species/<name>`` of the data folder; :class:`treecalc.reference.datafolder.MissingDataFile` naming it if absent."""
    return data_file(f"species/{name}", SPECIES_DIR.parent)


def _readonly(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def _benefit_table_cells(
    path: Path,
) -> tuple[list[str], dict[str, str], dict[str, dict[str, dict[tuple[int, int], float]]]]:
    """The rows of ``benefit_tables.csv``: value rows in order, each factor's unit, and
    ``cells[factor][land_use][(row, dbh class)] = value`` (rows whose DBH is not a class are skipped).

    Read with the csv module: the file is ~19,000 short rows and a DataFrame with a pivot per factor
    and land use cost ~0.3 s on every start of the CLI; this is ~0.03 s. ``float`` of the text is the
    value ``pandas.read_csv`` gave (``tests/reference/test_data.py`` compares the two bit for bit).
    """
    class_of: dict[str, int | None] = {f"{c:.2f}": j for j, c in enumerate(DBH_CLASSES_CM)}
    value_rows: dict[str, int] = {}
    units: dict[str, str] = {}
    cells: dict[str, dict[str, dict[tuple[int, int], float]]] = {}
    with open(path, newline="", encoding="utf-8-sig") as f:
        reader = csv.reader(f)
        col = {name: i for i, name in enumerate(next(reader))}
        i_row, i_factor, i_lu, i_dbh, i_value, i_unit = (
            col[c] for c in ("value_row", "factor", "land_use", "dbh_cm", "value", "unit")
        )
        for line in reader:
            if not line:
                continue
            row = value_rows.setdefault(line[i_row], len(value_rows))
            factor = line[i_factor]
            if factor not in cells:
                cells[factor] = {}
                units[factor] = line[i_unit]
            dbh = line[i_dbh]
            if dbh not in class_of:  # "3.81", "3.810", "3.8100001": one class, as pandas' float and format gave
                class_of[dbh] = class_of.get(f"{float(dbh):.2f}")
            j = class_of[dbh]
            if j is None:
                continue
            table = cells[factor].setdefault(line[i_lu], {})
            if (row, j) in table:
                raise ValueError(
                    f"{path.name}: {line[i_row]} {factor} {line[i_lu] or 'zone'} DBH {line[i_dbh]} cm is given twice"
                )
            table[row, j] = float(line[i_value])
    return list(value_rows), units, cells


def _dense(values: dict[tuple[int, int], float], shape: tuple[int, int]) -> np.ndarray:
    """A table of ``shape`` from ``{(row, class): value}``; a cell not given is NaN."""
    arr = np.full(shape, np.nan)
    if values:
        idx = np.array(list(values), dtype=np.intp)
        arr[idx[:, 0], idx[:, 1]] = np.fromiter(values.values(), float, len(values))
    return arr


def _land_use_stack(tables: dict[str, Any], shape: tuple[int, int], where: str) -> np.ndarray:
    """One factor's tables as (land use x value row x DBH class): the base table for every land use, its
    land-use variant where the source has one; missing cells refused, naming ``where``."""
    base = _dense(tables.get("", {}), shape)
    arr = np.repeat(base[None, :, :], len(LAND_USES), axis=0)
    for k, lu in enumerate(LAND_USES):
        variant = tables.get(TABLE_LAND_USE[lu]) if TABLE_LAND_USE[lu] else None
        if variant:
            arr[k] = _dense(variant, shape)
    if np.isnan(arr).any():
        raise ValueError(f"{where} has missing values")
    return arr


def _tables_out(t: BenefitTables, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
    """``t`` into the arrays and names :mod:`treecalc.reference.table_cache` stores."""
    arrays.update({f"stack.{f}": a for f, a in t.stack.items()})
    meta.update(value_rows=list(t.value_rows), units=t.units, factors=list(t.stack))


def _tables_in(arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> BenefitTables:
    """The :class:`BenefitTables` :func:`_tables_out` stored."""
    value_rows = tuple(meta["value_rows"])
    stack = {f: _readonly(np.asarray(arrays[f"stack.{f}"], dtype=float)) for f in meta["factors"]}
    return BenefitTables(value_rows, {r: i for i, r in enumerate(value_rows)}, stack, dict(meta["units"]))


@functools.cache
def benefit_tables() -> BenefitTables:
    """The Northeast's resource tables (``species/benefit_tables.csv``), kept in the user's cache folder between
    runs (:mod:`treecalc.reference.table_cache`)."""

    def build() -> tuple[dict[str, np.ndarray], Any]:
        arrays: dict[str, np.ndarray] = {}
        meta: dict[str, Any] = {}
        _tables_out(_build_benefit_tables(), arrays, meta)
        return arrays, meta

    return _tables_in(*cached_arrays("benefit_tables", [Path(__file__), _species_file("benefit_tables.csv")], build))


def _build_benefit_tables() -> BenefitTables:
    with damaged_if_unreadable("species/benefit_tables.csv"):
        rows, units, cells = _benefit_table_cells(_species_file("benefit_tables.csv"))
    value_rows = tuple(rows)
    row_index = {r: i for i, r in enumerate(value_rows)}
    shape = (len(value_rows), len(DBH_CLASSES_CM))
    stack: dict[str, np.ndarray] = {}
    for factor, tables in cells.items():
        stack[factor] = _readonly(_land_use_stack(tables, shape, f"benefit_tables.csv: factor {factor}"))
    return BenefitTables(value_rows, row_index, stack, units)


@functools.cache
def prices() -> dict[str, float]:
    """The zone's default benefit prices, USD per unit (see ``prices.csv``)."""
    with damaged_if_unreadable("species/prices.csv"):
        p = pd.read_csv(_species_file("prices.csv"))
        return {r.factor_group: float(r.price_usd_per_unit) for r in p.itertuples()}


@functools.cache
def price_units() -> dict[str, str]:
    with damaged_if_unreadable("species/prices.csv"):
        p = pd.read_csv(_species_file("prices.csv"))
        return {r.factor_group: f"USD/{r.unit}" for r in p.itertuples()}


#: The catalogue's CTLA appraisal parameters (numbers, per species).
APPRAISAL_COLUMNS = (
    "species_rating_pct",
    "basic_price_usd_per_sqin",
    "palm_trunk_cost_usd_per_ft",
    "replacement_cost_usd",
    "replacement_trunk_area_sqin",
)


@functools.cache
def catalogue() -> pd.DataFrame:
    """Species catalogue indexed by i-Tree code, with the Village's local status.

    Columns include ``scientific_name``, ``common_name``, ``aliases`` (``"; "``
    separated), ``value_row``, ``tree_type``, ``leaf_type``, ``leaf_habit``,
    ``size_class``, the CTLA appraisal parameters, ``native`` (bool) and
    ``part575`` (``prohibited``/``regulated``/``none``). Kept in the user's cache folder between runs
    (:mod:`treecalc.reference.table_cache`): the species only other zones list are read from sixteen files.
    """
    files = [Path(__file__), _species_file("catalogue.csv"), _species_file("local_status.csv")]
    files += [_zones_file("zones.csv")] + [_zones_file(f"{z}/species.csv") for z in zones().index if z != DEFAULT_ZONE]
    arrays, meta = cached_arrays("catalogue", files, lambda: _frame_out(_build_catalogue()))
    return _frame_in(arrays, meta).set_index("code", drop=False)


def _frame_out(frame: pd.DataFrame) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """A frame of text, numbers and booleans as arrays (text as NumPy unicode) and each column's dtype."""
    arrays: dict[str, np.ndarray] = {}
    for i, col in enumerate(frame[c] for c in frame.columns):
        kind = col.dtype.kind if isinstance(col.dtype, np.dtype) else "O"
        arrays[f"c{i}"] = col.to_numpy() if kind in "biuf" else np.array(col.astype(object).tolist(), dtype=np.str_)
    return arrays, {"columns": list(frame.columns), "dtypes": [str(d) for d in frame.dtypes]}


def _frame_in(arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> pd.DataFrame:
    """The frame :func:`_frame_out` stored, with its dtypes."""
    cols = {}
    for i, (name, dtype) in enumerate(zip(meta["columns"], meta["dtypes"])):
        a = arrays[f"c{i}"]
        cols[name] = pd.Series(a.tolist() if a.dtype.kind == "U" else a, dtype=dtype)
    return pd.DataFrame(cols)


def _build_catalogue() -> pd.DataFrame:
    with damaged_if_unreadable("species/catalogue.csv"):  # an edit that breaks a number: the file's fault, named
        cat = pd.read_csv(_species_file("catalogue.csv"), keep_default_na=False, dtype={"code": str, "aliases": str})
        for c in APPRAISAL_COLUMNS:
            cat[c] = cat[c].astype(float)
    # required: without it no species is native or invasive, and the numbers change without a word
    status_path = _species_file("local_status.csv")
    with damaged_if_unreadable("species/local_status.csv"):
        st = pd.read_csv(status_path, keep_default_na=False, dtype=str)
        bad = st.loc[~st["native"].str.lower().isin(["yes", "no"]), "code"].tolist()
    if bad:
        raise ValueError(f"{status_path}: column 'native' must be yes or no (codes {bad[:5]})")
    bad = st.loc[~st["part575"].str.lower().isin(["prohibited", "regulated", "none"]), "code"].tolist()
    if bad:
        raise ValueError(f"{status_path}: column 'part575' must be prohibited, regulated or none (codes {bad[:5]})")
    st = st.drop(columns=["scientific_name"], errors="ignore")
    cat = cat.merge(st, on="code", how="left")
    cat["native"] = cat["native"].fillna("no").str.lower().eq("yes")
    cat["part575"] = cat["part575"].fillna("none").str.lower()
    cat["native_source"] = cat["native_source"].fillna("not in local_status.csv")
    cat["part575_source"] = cat["part575_source"].fillna("not in local_status.csv")
    cat["invasive"] = cat["part575"].isin(["prohibited", "regulated"])
    cat["northeast"] = True
    return pd.concat([cat, _outside_northeast(cat)], ignore_index=True)


_LEAF = {"B": "broadleaf", "C": "conifer", "P": "palm"}
_HABIT = {"D": "deciduous", "E": "evergreen"}
_SIZE = {"S": "small", "M": "medium", "L": "large"}


def _outside_northeast(cat: pd.DataFrame) -> pd.DataFrame:
    """The species that have an i-Tree code only in zones other than the Northeast (crape myrtle: LAIN in
    GulfCoCHS, LA6 in PiedmtCLT), after the Northeast's rows, so that a tree read in such a zone has a place
    in every per-species array. ``northeast`` is False: the Northeast reader never resolves them
    (:mod:`treecalc.reference.species`), and in the Northeast's tables they read its generic row of their type, said so.
    Their names are the first zone's that lists them (``region``: every zone that does); their CTLA
    parameters are the Northeast's row of the same species where it has one under another code (a cultivar's),
    else its generic row of their type; not native, not
    invasive (they are not in ``local_status.csv``)."""
    known = set(cat["code"])
    rows: dict[str, dict[str, Any]] = {}
    for zone in zones().index:
        if zone == DEFAULT_ZONE:
            continue
        with damaged_if_unreadable(f"species/zones/{zone}/species.csv"):
            sp = pd.read_csv(_zones_file(f"{zone}/species.csv"), keep_default_na=False, dtype=str)
            named = list(zip(sp["code"], sp["scientific_name"], sp["common_name"], sp["tree_type"]))
        for code, sci, common, tt in named:
            if code in known:
                continue
            if code in rows:
                rows[code]["region"] += f";{zone}"
                continue
            rows[code] = {"code": code, "scientific_name": sci, "common_name": common, "tree_type": tt, "region": zone}
    if not rows:
        return cat.iloc[:0]
    out = pd.DataFrame(list(rows.values()))
    # the CTLA parameters of the Northeast's row of the same species where it has one under another code (its
    # cultivar PIPUGL for the Lower Midwest's PIPU, Picea pungens), else of its generic row of the tree type
    own = cat.loc[~cat["code"].str.endswith(" OTHER") & cat["is_genus"].ne("yes")]
    twin = _rows_by_name(own["scientific_name"], own["code"])
    keys = [_name_keys(str(s)) for s in out["scientific_name"]]
    source = [twin.get(whole, twin.get(two, f"{t} OTHER")) for (whole, two), t in zip(keys, out["tree_type"])]
    group = cat.set_index("code").reindex(source)
    out["aliases"] = ""
    out["is_genus"] = [
        "yes" if s.rstrip(".").split()[-1].lower() in {"sp", "spp"} else "no" for s in out["scientific_name"]
    ]
    out["value_row"] = [f"{t} OTHER" for t in out["tree_type"]]
    out["leaf_type"] = [_LEAF[t[0]] for t in out["tree_type"]]
    out["leaf_habit"] = [_HABIT[t[1]] for t in out["tree_type"]]
    out["size_class"] = [_SIZE[t[2]] for t in out["tree_type"]]
    for c in APPRAISAL_COLUMNS:
        out[c] = group[c].to_numpy(float)
    out["correction"] = ""
    out["native"] = False
    out["part575"] = "none"
    out["native_source"] = out["part575_source"] = "not in local_status.csv"
    out["invasive"] = False
    out["northeast"] = False
    for c in cat.columns:
        if c not in out:
            out[c] = ""
    return out[list(cat.columns)]


@functools.cache
def growth_utd() -> pd.DataFrame:
    """Urban Tree Database DBH-from-age equations (DBH cm, age years), indexed by code.

    ``min_dbh_cm`` / ``max_dbh_cm`` bound the DBH range of each equation (the
    source calls them min_age / max_age, but they hold DBH).
    """
    with damaged_if_unreadable("species/growth_utd.csv"):
        g = pd.read_csv(_species_file("growth_utd.csv"))
        return g.set_index("species_code")


@functools.cache
def mortality() -> dict:
    """The default annual street-tree mortality and its source (``species/mortality.toml``)."""
    with damaged_if_unreadable("species/mortality.toml"), open(_species_file("mortality.toml"), "rb") as f:
        return tomllib.load(f)


@functools.cache
def growth_age_class() -> tuple[np.ndarray, np.ndarray]:
    """i-Tree Streets DBH at age: (ages in years, array[value_row, age] of DBH cm).

    Rows follow :attr:`BenefitTables.value_rows`.
    """
    rows = benefit_tables().value_rows
    with damaged_if_unreadable("species/growth_age_class.csv"):
        g = pd.read_csv(_species_file("growth_age_class.csv"))
        wide = g.pivot(index="value_row", columns="age_yr", values="dbh_cm").reindex(index=list(rows))
        return _readonly(wide.columns.to_numpy(float)), _readonly(wide.to_numpy(float))


@functools.lru_cache(maxsize=8)
def _arrow_keys(keys: tuple[str, ...]) -> Any:
    return pa.array(keys, type=pa.large_string())


def arrow_index(values: object, keys: tuple[str, ...]) -> np.ndarray | None:
    """Index in ``keys`` of each value of an Arrow-backed text column, when every value is a key as it stands.

    One pass of Arrow's hash lookup, with no Python string made and no
    factorising first; ``None`` when ``values`` is not such a column or
    holds anything else (a blank, a missing value, another spelling), so the
    caller takes its general path.
    """
    dtype = getattr(values, "dtype", None)
    if not (isinstance(values, pd.Series) and isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow"):
        return None

    idx = pc.index_in(pa.array(values.array), value_set=_arrow_keys(keys))
    return None if idx.null_count else idx.to_numpy().astype(np.intp)


def _positions(values: object, lookup: dict[str, int], what: str) -> np.ndarray:
    """Position of each value in ``lookup``; each distinct value looked up once; unknown raises.

    An Arrow string column whose values are all keys is looked up by Arrow
    (:func:`arrow_index`); another pandas column is factorised as it is held;
    anything else as an object array.
    """
    hit = arrow_index(values, tuple(lookup))
    if hit is not None:
        order = np.fromiter(lookup.values(), dtype=np.intp, count=len(lookup))
        return hit if np.array_equal(order, np.arange(len(order))) else order.take(hit)
    if isinstance(values, pd.Series) and not pd.api.types.is_object_dtype(values.dtype):
        k, uniques = pd.factorize(values, use_na_sentinel=False)
        shape: tuple[int, ...] = (len(values),)
    else:
        arr = np.atleast_1d(np.asarray(values, dtype=object))
        k, uniques = pd.factorize(arr.ravel(), use_na_sentinel=False)
        shape = arr.shape
    pos = np.array([lookup.get(str(u), -1) for u in uniques], dtype=np.intp)
    if (pos < 0).any():
        bad = sorted({str(u) for u, q in zip(uniques, pos) if q < 0})
        raise ValueError(f"unknown {what} {bad[:10]}")
    return pos[k].reshape(shape)


@functools.cache
def reader_names() -> dict[str, str]:
    """i-Tree species code -> the name a reader reads: the common name, and for i-Tree's generic rows, whose
    common name is their code ("BDL OTHER", scientific "Broadleaf Deciduous Large Other"), words
    ("Other broadleaf deciduous tree (large)")."""
    cat = catalogue()
    out = {}
    for code, common, sci in zip(cat.index, cat["common_name"].astype(str), cat["scientific_name"].astype(str)):
        if common.upper().endswith(" OTHER") and sci.lower().endswith(" other"):
            words = sci[: -len(" other")].split()  # "Broadleaf Deciduous Large"
            out[code] = f"Other {' '.join(w.lower() for w in words[:-1])} tree ({words[-1].lower()})"
        else:
            out[code] = common
    return out


@functools.cache
def catalogue_lookup() -> dict[str, int]:
    """i-Tree species code -> row of :func:`catalogue`."""
    return {c: i for i, c in enumerate(catalogue().index)}


def catalogue_positions(codes: object) -> np.ndarray:
    """Row of each i-Tree species code in :func:`catalogue` (ValueError naming unknown codes)."""
    return _positions(codes, catalogue_lookup(), "i-Tree species code(s)")


def value_row_positions(value_rows: object) -> np.ndarray:
    """Index of each i-Tree value row (``"ACRU"``, ``"BDL OTHER"``) in the benefit and growth tables."""
    return _positions(value_rows, benefit_tables().row_index, "i-Tree value row(s)")


# --- the 16 i-Tree Streets climate zones (data/species/zones/, built by tools/build_zones.py) ----------------

#: The zone the Northeast tables of ``data/species/`` are: the default when no zone is given.
DEFAULT_ZONE = "NoEastXXX"

#: A species with no code in its zone is valued by the zone's generic row of its tree type (``BDL OTHER``); a
#: zone without that row (palms are absent from the northern zones, broadleaf evergreens from the Temperate
#: Interior West) reads the next of these of the same size: a palm as a broadleaf evergreen, then deciduous;
#: a broadleaf evergreen or a conifer as a deciduous broadleaf (a conifer first as a broadleaf evergreen).
GENERIC_FALLBACK = {"PE": ("BE", "BD"), "BE": ("BD",), "BD": ("BE",), "CE": ("BE", "BD")}


def _zones_file(name: str) -> Path:
    return data_file(f"species/zones/{name}", SPECIES_DIR.parent)


@functools.cache
def zones() -> pd.DataFrame:
    """The climate zones, indexed by code as the data spells them: ``name``, ``reference_city``, ..."""
    with damaged_if_unreadable("species/zones/zones.csv"):
        return pd.read_csv(_zones_file("zones.csv"), keep_default_na=False).set_index("zone", drop=False)


@functools.cache
def _zone_names() -> dict[str, str]:
    out: dict[str, str] = {}
    for code, name in zip(zones().index, zones()["name"]):
        out[code.lower()] = code
        out[str(name).lower()] = code
    return out


def zone_code(zone: object) -> str:
    """A zone's code from its code or its name, any case (``"piedmtclt"``, ``"South"``); ValueError naming
    the codes otherwise."""
    key = " ".join(str(zone).split()).lower()
    code = _zone_names().get(key)
    if code is None:
        listed = ", ".join(f"{c} ({n})" for c, n in zip(zones().index, zones()["name"]))
        raise ValueError(f"unknown climate zone {zone!r}; expected one of {listed}")
    return code


@functools.cache
def zone_prices() -> dict[str, dict[str, float]]:
    """Default prices of every zone (USD per unit, see ``zones/prices.csv``). The Northeast's are
    ``data/species/prices.csv`` (:func:`prices`), the table its figures have always read."""
    out: dict[str, dict[str, float]] = {}
    with damaged_if_unreadable("species/zones/prices.csv"):
        p = pd.read_csv(_zones_file("prices.csv"), keep_default_na=False)
        for r in p.itertuples():
            out.setdefault(str(r.zone), {})[str(r.factor_group)] = float(r.price_usd_per_unit)
    out[DEFAULT_ZONE] = dict(prices())
    return out


@functools.cache
def zone_price_notes() -> dict[tuple[str, str], str]:
    """(zone, price group) -> the ruling or flag on a price (``zones/prices.csv`` ``ruling``), where there is one."""
    p = pd.read_csv(_zones_file("prices.csv"), keep_default_na=False)
    return {(str(r.zone), str(r.factor_group)): str(r.ruling) for r in p.itertuples() if str(r.ruling)}


@dataclass(frozen=True)
class ZoneTables:
    """Every zone's resource tables as one dense stack, rows of all zones one after another.

    ``tables.stack[factor]`` has shape ``(len(LAND_USES), total rows, 9)``; row ``k`` is value row
    ``local_rows[k]`` of zone ``zones[row_zone[k]]``. ``cat_rows[z, pos]`` is the row catalogue species
    ``pos`` reads in zone ``z`` and ``substituted[z, pos]`` says it is the zone's generic row because the
    zone's species list has no code for it. ``has_variants[z]``: the zone publishes land-use tables;
    ``it_zero[z]``: its institutional energy tables are all zero.
    """

    zones: tuple[str, ...]
    tables: BenefitTables
    local_rows: tuple[str, ...]
    row_zone: np.ndarray
    cat_rows: np.ndarray
    substituted: np.ndarray
    has_variants: np.ndarray
    it_zero: np.ndarray
    large_tree_leaf_area_m2: np.ndarray


_GENUS_WORDS = frozenset({"sp", "spp", "species"})


def _name_keys(scientific_name: str) -> tuple[str, str]:
    """(whole name, genus and epithet) of a species table's scientific name, lower case, for finding one species
    under another code: "Picea pungens 'glauca'" -> ("picea pungens glauca", "picea pungens"), "Picea species"
    -> ("picea sp", "picea sp"), "xCupressocyparis leylandii" as "x Cupressocyparis leylandii". The tables' names
    carry no authorities, so their first two words are the species (:func:`treecalc.reference.species.scientific_forms`
    reads what people write; it cannot be imported here, it reads this module)."""
    s = re.sub(r"^[x×](?=[A-Z])", "", scientific_name.strip()).replace("×", " ").lower()
    words = ["sp" if w in _GENUS_WORDS else w for w in re.findall(r"[a-z][a-z\-]*", s) if w != "x"]
    words = [w for w in words if w not in {"var", "ssp", "subsp", "cv"}] if len(words) > 2 else words
    if len(words) > 1 and words[1] == "sp":
        words = words[:2]
    return " ".join(words), " ".join(words[:2])


def _rows_by_name(names: Any, value_rows: Any) -> dict[str, str]:
    """Whole name and genus-and-epithet -> value row of a species list, its plain species rows before its
    cultivars and varieties ("Picea pungens" names PIPU's row where the list has PIPU; where it lists only
    cultivars, the first cultivar's, as :func:`treecalc.reference.species.resolve_in_zone` reads the name)."""
    keyed = [(_name_keys(str(n)), str(v)) for n, v in zip(names, value_rows)]
    out: dict[str, str] = {}
    for (whole, two), row in sorted(keyed, key=lambda kv: kv[0][0] != kv[0][1]):  # stable: list order kept
        out.setdefault(whole, row)
        out.setdefault(two, row)
    return out


def _generic_row(tree_type: str, rows: dict[str, int]) -> int:
    for head in (tree_type[:2], *GENERIC_FALLBACK[tree_type[:2]]):
        name = f"{head}{tree_type[2]} OTHER"
        if name in rows:
            return rows[name]
    raise ValueError(f"no generic row for tree type {tree_type}")


def _zone_m(stack_lsa: np.ndarray, ages: np.ndarray, dbh_at_age: np.ndarray, row: int) -> float:
    """M: leaf area (m²) of the zone's large reference tree (BDL OTHER) at 40 years, as the Northeast's."""
    d40 = float(np.interp(40.0, ages, dbh_at_age[row]))
    return float(np.interp(d40, DBH_CLASSES_CM, stack_lsa[0, row]))


#: ZoneTables' array fields (the rest, and the stack's factors and units, are stored as names in JSON)
_ZONE_ARRAYS = ("row_zone", "cat_rows", "substituted", "has_variants", "it_zero", "large_tree_leaf_area_m2")


def _zone_table_files() -> list[Path]:
    """Every file :func:`_build_zone_tables` reads (through :func:`catalogue` too), and this module: a cached copy
    is used only when built from the same bytes by the same code."""
    names = ["zones.csv"] + [f"{z}/{f}" for z in zones().index for f in _ZONE_FILES]
    skip = f"{DEFAULT_ZONE}/species.csv"  # the Northeast reads the catalogue's own rows, never its list
    return [
        Path(__file__),
        _species_file("catalogue.csv"),
        _species_file("local_status.csv"),
        *(_zones_file(n) for n in names if n != skip),
    ]


_ZONE_FILES = ("benefit_tables.csv", "growth_age_class.csv", "species.csv")


@functools.cache
def zone_tables() -> ZoneTables:
    """Every zone's tables (:class:`ZoneTables`), built once per data folder and kept in the user's cache
    folder between runs (:mod:`treecalc.reference.table_cache`): building them is most of a command's start-up."""

    def build() -> tuple[dict[str, np.ndarray], Any]:
        t = _build_zone_tables()
        arrays = {k: getattr(t, k) for k in _ZONE_ARRAYS}
        meta: dict[str, Any] = {"zones": list(t.zones), "local_rows": list(t.local_rows)}
        _tables_out(t.tables, arrays, meta)
        return arrays, meta

    arrays, meta = cached_arrays("zone_tables", _zone_table_files(), build)
    fields = {k: _readonly(arrays[k]) for k in _ZONE_ARRAYS}
    return ZoneTables(tuple(meta["zones"]), _tables_in(arrays, meta), tuple(meta["local_rows"]), **fields)


def _build_zone_tables() -> ZoneTables:
    codes = tuple(zones().index)
    cat = catalogue()
    n_cat = len(cat)
    value_rows: list[str] = []
    local: list[str] = []
    row_zone: list[int] = []
    per_factor: dict[str, list[np.ndarray]] = {}
    units: dict[str, str] = {}
    cat_rows = np.zeros((len(codes), n_cat), dtype=np.intp)
    substituted = np.zeros((len(codes), n_cat), dtype=bool)
    has_variants = np.zeros(len(codes), dtype=bool)
    it_zero = np.zeros(len(codes), dtype=bool)
    m = np.zeros(len(codes))
    for z, code in enumerate(codes):  # once per process, building the tables: trees are never looped over
        rows, zunits, cells = _benefit_table_cells(_zones_file(f"{code}/benefit_tables.csv"))
        offset = len(value_rows)
        at = {r: offset + i for i, r in enumerate(rows)}
        shape = (len(rows), len(DBH_CLASSES_CM))
        has_variants[z] = any(len(t) > 1 for t in cells.values())
        for factor, tables in cells.items():
            arr = _land_use_stack(tables, shape, f"zones/{code}/benefit_tables.csv: factor {factor}")
            per_factor.setdefault(factor, []).append(arr)
            units.setdefault(factor, zunits[factor])
        if has_variants[z]:
            it = LAND_USES.index("institutional")
            it_zero[z] = not (per_factor["electricity"][-1][it].any() or per_factor["natural_gas"][-1][it].any())
        value_rows += [f"{code} {r}" for r in rows]
        local += rows
        row_zone += [z] * len(rows)
        g = pd.read_csv(_zones_file(f"{code}/growth_age_class.csv"))
        wide = g.pivot(index="value_row", columns="age_yr", values="dbh_cm").reindex(index=rows)
        m[z] = _zone_m(
            per_factor["lsa"][-1], wide.columns.to_numpy(float), wide.to_numpy(float), rows.index("BDL OTHER")
        )
        if code == DEFAULT_ZONE:  # the Northeast reads the catalogue's own value rows, as it always has
            cat_rows[z] = [at[v] for v in cat["value_row"]]
            substituted[z] = ~cat["northeast"].to_numpy(bool)  # a species only other zones list: its generic row
            continue
        sp = pd.read_csv(_zones_file(f"{code}/species.csv"), keep_default_na=False)
        own = dict(zip(sp["code"], sp["value_row"]))
        # a species the list names under another code (the Northeast's cultivar PIPUGL, the list's PIPU) reads
        # the list's row for it, not the zone's generic row
        listed = sp.loc[~sp["code"].str.endswith(" OTHER")]
        named = _rows_by_name(listed["scientific_name"], listed["value_row"])
        for pos, (c, tree_type, sci) in enumerate(zip(cat.index, cat["tree_type"], cat["scientific_name"])):
            whole, two = _name_keys(str(sci)) if c not in own and not c.endswith(" OTHER") else ("", "")
            if c in own:
                cat_rows[z, pos] = at[own[c]]
            elif whole in named or two in named:
                cat_rows[z, pos] = at[named.get(whole, named.get(two, ""))]
            else:
                cat_rows[z, pos] = _generic_row(str(tree_type), at)
                substituted[z, pos] = True
    stack = {f: _readonly(np.concatenate(parts, axis=1)) for f, parts in per_factor.items()}
    combined = BenefitTables(tuple(value_rows), {r: i for i, r in enumerate(value_rows)}, stack, units)
    return ZoneTables(
        codes,
        combined,
        tuple(local),
        _readonly(np.array(row_zone, dtype=np.intp)),
        _readonly(cat_rows),
        _readonly(substituted),
        _readonly(has_variants),
        _readonly(it_zero),
        _readonly(m),
    )


def zone_positions(values: object, default: str = DEFAULT_ZONE) -> np.ndarray:
    """Index in :func:`zones` of each tree's zone (code or name, any case); a blank one is ``default``'s;
    ValueError naming an unknown one.

    Each distinct value is read once; a categorical column costs its categories only.
    """
    order = {c: i for i, c in enumerate(zones().index)}
    if isinstance(values, pd.Series) and isinstance(values.dtype, pd.CategoricalDtype):
        cats = np.array([order[zone_code(c)] for c in values.cat.categories] + [order[default]], dtype=np.intp)
        return cats.take(values.cat.codes.to_numpy(), mode="wrap")  # code -1 (blank) wraps to the default
    hit = arrow_index(values, tuple(order))
    if hit is not None:
        return hit
    k, uniques = pd.factorize(pd.Series(np.atleast_1d(np.asarray(values, dtype=object))), use_na_sentinel=False)
    look = []
    for u in uniques:
        blank = u is None or u is pd.NA or (isinstance(u, float) and np.isnan(u)) or not str(u).strip()
        look.append(order[default] if blank else order[zone_code(u)])
    return np.asarray(look, dtype=np.intp)[k]
