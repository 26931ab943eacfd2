"""What :mod:`treecalc.models.benefits` discloses: the flags of each tree (a small integer key per tree, its flags
and sentences worked out once per distinct key) and the method's notes for "Method & sources".
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from treecalc.models import disclosures, itree_streets, property_value
from treecalc.models.benefit_tables import (
    NORTHEAST,
    ZONES,
    _catalogue_value_rows,
    _default_zone_index,
    _freeze,
    _tables,
    _which,
    _zone_rows,
)
from treecalc.models.disclosures import Flag
from treecalc.reference import data


@functools.cache
def _zero_tails(which: str = NORTHEAST) -> dict[str, np.ndarray]:
    """First DBH class of each value row's zero tail, for the factors that have one (zone tables)."""
    stack = _tables(which).stack
    return {f: disclosures.zero_from_class(stack[f][0]) for f in ("property_value", "co2_sequestered")}


@functools.cache
def _catalogue_text() -> dict[str, np.ndarray]:
    """Catalogue text columns (names, value row, correction) as plain arrays, fast by position."""
    cat = data.catalogue()
    col = cat["correction"] if "correction" in cat else pd.Series("", index=cat.index)
    return {
        "value_row": cat["value_row"].to_numpy(object),
        "common_name": cat["common_name"].to_numpy(object),
        "scientific_name": cat["scientific_name"].to_numpy(object),
        "correction": col.fillna("").astype(str).to_numpy(object),
    }


@functools.cache
def _catalogue_corrected() -> np.ndarray:
    return np.array([len(c) > 0 for c in _catalogue_text()["correction"]], dtype=bool)


def land_use_flags(p: Mapping[str, Any]) -> np.ndarray:
    """Disclosure flags of each land use of :data:`treecalc.reference.data.LAND_USES` under parameters ``p``.

    A land-use factor C the Village set (different from the default) is not
    flagged unverified; a default other than single-family's is.
    """
    out = np.zeros(len(data.LAND_USES), dtype=np.int64)
    for k, lu in enumerate(data.LAND_USES):
        f = 0
        default = property_value.LAND_USE_FACTOR[lu]
        set_by_village = p["land_use_factors"][lu] != default
        if lu == "unspecified":
            f |= Flag.LAND_USE_NOT_GIVEN if not set_by_village else 0
        elif lu != "single_family" and not set_by_village:
            f |= Flag.LAND_USE_FACTOR_UNVERIFIED
            if lu == "commercial_industrial":
                f |= Flag.COMMERCIAL_NOT_DISTINGUISHED
        if data.TABLE_LAND_USE[lu] == "institutional":
            f |= Flag.ENERGY_TABLES_ZERO
        elif lu == "park_vacant_other":
            f |= Flag.ENERGY_ZONE_TABLE
        out[k] = int(f)
    return out


@functools.lru_cache(maxsize=32)
def _flag_table(key: tuple, which: str = NORTHEAST) -> np.ndarray:
    """Flags by (land use, value row, DBH class read), flattened, for one parameter set."""
    p: dict[str, Any] = {k: dict(v) if isinstance(v, tuple) else v for k, v in key}
    n_cls = len(data.DBH_CLASSES_CM)
    zt = _zero_tails(which)
    zero = disclosures.zero_tail_table(
        zt["property_value"], Flag.ZERO_PROPERTY_VALUE, n_cls
    ) | disclosures.zero_tail_table(zt["co2_sequestered"], Flag.ZERO_CO2_SEQUESTERED, n_cls)
    lu = np.repeat(land_use_flags(p)[:, None], zero.shape[0], axis=1)
    if which == ZONES:  # what a land use reads depends on the zone: its own tables, zero ones, or none
        zones = data.zone_tables()
        variants = zones.has_variants.take(zones.row_zone)
        it_zero = zones.it_zero.take(zones.row_zone)
        for k, name in enumerate(data.LAND_USES):
            if data.TABLE_LAND_USE[name] == "institutional":
                lu[k] &= ~np.where(it_zero, 0, int(Flag.ENERGY_TABLES_ZERO))
            if data.TABLE_LAND_USE[name]:
                lu[k] |= np.where(variants, 0, int(Flag.ZONE_HAS_NO_LAND_USE_TABLES))
    return np.ascontiguousarray((lu[:, :, None] | zero[None, :, :]).ravel())


@functools.cache
def _corrected_index() -> np.ndarray:
    """Per catalogue position: 0, or k for the k-th species the build corrected."""
    corr = _catalogue_corrected()
    idx = np.zeros(len(corr), dtype=np.int64)
    idx[corr] = np.arange(1, int(corr.sum()) + 1)
    return idx


def _key_sizes(which: str = NORTHEAST) -> tuple[int, int, int]:
    """(value rows, DBH classes, corrected species + 1): the dimensions of a disclosure key.

    In the climate zones' set the last counts each corrected species twice: with its own row in its zone,
    and with the zone's generic row (a species the zone's list has no code for, :data:`Flag.SPECIES_NOT_IN_ZONE`).
    """
    n_corr = int(_catalogue_corrected().sum()) + 1
    return len(_tables(which).value_rows), len(data.DBH_CLASSES_CM), n_corr * (2 if which == ZONES else 1)


def disclosure_keys(
    cat_pos: np.ndarray,
    dbh_in: np.ndarray,
    lu_idx: np.ndarray,
    positions: tuple[np.ndarray, np.ndarray] | None = None,
    zone_idx: np.ndarray | None = None,
) -> np.ndarray:
    """One small integer per tree naming all its disclosures depend on.

    ``((land use, value row, DBH class read) × DBH range) × corrected species``:
    fewer than 25,000 values, so the per-tree work is a few array operations and
    everything else (flags, text) is computed once per distinct key.
    ``positions``: the DBH positions if already computed. ``zone_idx``: each tree's climate zone
    (:func:`treecalc.reference.data.zone_positions`), for the zones' table set.
    """
    which = NORTHEAST if zone_idx is None else ZONES
    n_rows, n_cls, _ = _key_sizes(which)
    cat_pos = np.asarray(cat_pos, dtype=np.intp)
    dbh = np.asarray(dbh_in, float)
    j, frac = positions if positions is not None else itree_streets.dbh_positions(dbh * itree_streets.CM_PER_IN)
    if zone_idx is None:
        row, subst = _catalogue_value_rows()[cat_pos], None
    else:
        row, subst = _zone_rows(zone_idx, cat_pos)
    flat = itree_streets.table_index((len(data.LAND_USES), n_rows, n_cls), row, lu_idx, j)
    return _keys_at(flat, frac, dbh, cat_pos, which, subst)  # table_index made flat: _keys_at may write in it


def _keys_at(
    flat: np.ndarray,
    frac: np.ndarray,
    dbh: np.ndarray,
    cat_pos: np.ndarray,
    which: str = NORTHEAST,
    substituted: np.ndarray | None = None,
) -> np.ndarray:
    """:func:`disclosure_keys` from the trees' flat table index (class ``j``, an intp array) and class fraction.

    ``flat`` is overwritten: it becomes the keys (no further array of a million is made).
    """
    n_corr = _key_sizes(which)[2]
    key = disclosures.upper_class(flat, frac, out=flat)  # flat index of the upper class read: j's offset is linear
    key *= 4
    disclosures.dbh_flags(dbh, out=key)  # the two lowest bits: BEYOND_LAST_CLASS = 1, IMPLAUSIBLE_DBH = 2
    key *= n_corr
    if which == ZONES:  # (corrected species, generic row of the zone) as 2 c + s
        key += _corrected_index().take(cat_pos) * 2
        if substituted is not None:
            key += substituted
    else:
        key += _corrected_index().take(cat_pos)
    return key


def _decode(key: np.ndarray, which: str = NORTHEAST) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(flat (land use, row, class) index, DBH flags, corrected-species index) of each key."""
    n_corr = _key_sizes(which)[2]
    rest = key // n_corr
    return rest // 4, rest % 4, key % n_corr


@functools.lru_cache(maxsize=32)
def _mask_lut(key: tuple, which: str = NORTHEAST) -> np.ndarray:
    """The flag mask of every possible disclosure key, for one parameter set."""
    n_rows, n_cls, n_corr = _key_sizes(which)
    flat, dbh_bits, corr = _decode(np.arange(len(data.LAND_USES) * n_rows * n_cls * 4 * n_corr, dtype=np.int64), which)
    if which == ZONES:
        species = np.where(corr >= 2, int(Flag.SPECIES_CORRECTED), 0) | np.where(
            corr % 2, int(Flag.SPECIES_NOT_IN_ZONE), 0
        )
    else:
        species = np.where(corr > 0, int(Flag.SPECIES_CORRECTED), 0)
    return _flag_table(key, which).take(flat) | dbh_bits | species


def disclosure_masks(
    cat_pos: np.ndarray,
    dbh_in: np.ndarray,
    lu_idx: np.ndarray,
    p: Mapping[str, Any],
    positions: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """Bit mask of :class:`~treecalc.models.disclosures.Flag` per tree (0: nothing to disclose)."""
    which = _which(p)
    zone_idx = _default_zone_index(p, len(np.atleast_1d(cat_pos))) if which == ZONES else None
    return _mask_lut(_freeze(p), which).take(disclosure_keys(cat_pos, dbh_in, lu_idx, positions, zone_idx))


def _cls(k: int) -> str:
    cm = float(data.DBH_CLASSES_CM[k])
    return f"{cm:.2f} cm ({cm / itree_streets.CM_PER_IN:g} in)"


#: each flag as a plain int (see disclosure_texts)
_BIT = {f: int(f) for f in Flag}
#: the flags whose text names the tree's i-Tree row
_ROW_FLAGS = int(Flag.ZERO_PROPERTY_VALUE | Flag.ZERO_CO2_SEQUESTERED)
#: the flags whose text names the tree's climate zone (its row's zone)
_ZONE_ROW_FLAGS = int(Flag.SPECIES_NOT_IN_ZONE | Flag.ZONE_HAS_NO_LAND_USE_TABLES)


def disclosure_texts(
    mask: int, value_row: str, lu: str, p: Mapping[str, Any], corrected_pos: int | None = None, zone: str | None = None
) -> list[str]:
    """The sentences of one tree's disclosures, in the order of the flags.

    ``value_row`` is the tree's i-Tree row, ``lu`` its land use, ``corrected_pos``
    its catalogue position when its species was corrected, ``zone`` its climate zone when one was named
    (``value_row`` is then the zone's own row name).
    """
    out: list[str] = []
    mask = int(mask)  # an int & an IntFlag member goes through enum's slow __rand__; the members as ints do not
    which = NORTHEAST if zone is None else ZONES
    r = _tables(which).row_index[value_row if zone is None else f"{zone} {value_row}"]
    zt = _zero_tails(which)
    zone_name = "" if zone is None else f"{_zone_name(zone)} ({zone})"
    c = p["land_use_factors"][lu]
    if mask & _BIT[Flag.BEYOND_LAST_CLASS]:
        out.append(
            "DBH over 45 in (114.30 cm), the i-Tree tables' last class: every benefit holds its 45-in value "
            "(OpenTreeMap's eco-benefit service extends the last step instead)"
        )
    if mask & _BIT[Flag.IMPLAUSIBLE_DBH]:
        out.append("DBH over 100 in is implausible for this model: check the measurement")
    for flag, factor, what in (
        (Flag.ZERO_PROPERTY_VALUE, "property_value", "annual leaf-area increase (the property / aesthetic value)"),
        (Flag.ZERO_CO2_SEQUESTERED, "co2_sequestered", "CO2 sequestration"),
    ):
        if mask & _BIT[flag]:
            out.append(
                f"the source table's {what} for i-Tree row {value_row}{' of ' + zone_name if zone else ''} falls to 0 at "
                f"{_cls(int(zt[factor][r]))}: the dollars shown follow the table; they are not a finding "
                "that the tree adds nothing"
            )
    land_use_texts = (
        (
            Flag.LAND_USE_NOT_GIVEN,
            "land use not given: the aesthetic benefit takes the single-family factor C = 1 (as the NTBC does); "
            "energy and avoided emissions read the zone's general tables, not the single-family ones",
        ),
        (
            Flag.COMMERCIAL_NOT_DISTINGUISHED,
            "commercial or industrial not distinguished: the lower factor, industrial / large commercial, is used "
            f"(C = {c:g}; small commercial would be "
            f"{p['land_use_factors']['small_commercial']:g})",
        ),
        (
            Flag.LAND_USE_FACTOR_UNVERIFIED,
            f"land-use factor C = {c:g} for {lu} (aesthetic benefit) is unverified: no source for it was found; "
            "the Village may set it",
        ),
        (
            Flag.ENERGY_TABLES_ZERO,
            "institutional / transportation: the source's energy and avoided-emission tables for this land use "
            "are all zero, so no energy saving and no avoided CO2 or pollutants are credited",
        ),
        (
            Flag.ENERGY_ZONE_TABLE,
            "park / vacant / other: the source has no energy table for this land use; the zone's general "
            "table is used, as for a tree of unspecified land use",
        ),
    )
    out += [text for flag, text in land_use_texts if mask & _BIT[flag]]
    if mask & _BIT[Flag.ZONE_HAS_NO_LAND_USE_TABLES]:
        out.append(
            f"the {zone_name} zone publishes no land-use tables: energy and avoided emissions read the zone's "
            "general tables"
        )
    if mask & _BIT[Flag.SPECIES_NOT_IN_ZONE]:
        out.append(
            f"the {zone_name} zone's species list has no i-Tree code for this species: it is valued by the "
            f"zone's generic row for its tree type, {value_row}"
        )
    if mask & _BIT[Flag.SPECIES_CORRECTED] and corrected_pos is not None:
        cat = _catalogue_text()
        out.append(f"{cat['common_name'][corrected_pos]}: {cat['correction'][corrected_pos]}")
    return out


#: How many categorical types of disclosure texts one parameter set keeps for reuse. A survey valued again (the
#: app) meets its own set again; a batch worker's random partitions over the 16 zones each meet a set of their
#: own (~15 MB each, measured 200,000-tree partitions): 64 of them held ~1.5 GB in a long worker, 8 hold ~0.1 GB.
DTYPE_CACHE = 8


class _TextCodes:
    """The disclosure texts written so far under one parameter set: ``code[key]`` is the text (its index in
    ``texts``) of every disclosure key met so far, -1 for one not yet met. A survey's column then costs a
    lookup per tree, and only a key never met before is written (a million trees over the 16 zones meet
    ~11,000 keys; writing them again on every call cost more than the benefits' table lookup)."""

    def __init__(self, n_keys: int) -> None:
        self.code = np.full(n_keys, -1, dtype=np.int32)
        self.texts: list[str] = []
        self.text_id: dict[str, int] = {}
        self.seen: dict[tuple[int, int, int, int], int] = {}  # (mask, row named, land use, correction) -> text
        self.dtypes: dict[bytes, pd.CategoricalDtype] = {}  # the texts shown (their ids) -> their categorical type
        self.lock = threading.Lock()  # Dask's threads may value partitions under one parameter set at once


@functools.cache
def _zone_names() -> dict[str, str]:
    return {str(z): str(n) for z, n in zip(data.zones().index, data.zones()["name"])}


def _zone_name(zone: str) -> str:
    """A zone's name: a dict lookup (a DataFrame's ``.at`` cost 0.1 ms, paid for each of ~11,000 disclosure
    texts a partition of the 16 zones first writes)."""
    return _zone_names()[zone]


@functools.lru_cache(maxsize=32)
def _text_codes(key: str, n_keys: int) -> _TextCodes:
    return _TextCodes(n_keys)


def _write_texts(codes: _TextCodes, new: np.ndarray, lut: np.ndarray, p: Mapping[str, Any], which: str) -> None:
    """Write the texts of disclosure keys ``new`` (not met before) into ``codes``; hold ``codes.lock``."""
    n_rows, n_cls, _ = _key_sizes(which)
    corrected = np.flatnonzero(_catalogue_corrected())
    flat, _, corr = _decode(new, which)
    zones = data.zone_tables() if which == ZONES else None
    # keys differing only in what the text does not say share one text: (mask, row when the text names it,
    # land use, correction) is worked out for every new key at once, and each distinct one written once
    masks = lut.take(new)
    lu_of, row_of = np.divmod(flat // n_cls, n_rows)
    names_row = _ROW_FLAGS | (_ZONE_ROW_FLAGS if zones is not None else 0)
    row_key = np.where(masks & names_row, row_of, -1)
    seen_key = ((masks * (n_rows + 1) + row_key + 1) * len(data.LAND_USES) + lu_of) * (int(corr.max(initial=0)) + 1)
    seen_key += corr
    _, first, inverse = np.unique(seen_key, return_index=True, return_inverse=True)
    ids = np.empty(len(first), dtype=np.int32)
    for g, k in enumerate(first.tolist()):
        mask, lu, c = int(masks[k]), int(lu_of[k]), int(corr[k])
        row = int(row_of[k])
        seen = (mask, int(row_key[k]), lu, c)
        tid = codes.seen.get(seen)
        if tid is None:
            if zones is not None:  # the zone's own row name, and the zone, name the tree's table
                name, zone, ci = zones.local_rows[row], zones.zones[zones.row_zone[row]], c // 2
            else:
                name, zone, ci = data.benefit_tables().value_rows[row], None, c
            text = "; ".join(
                disclosure_texts(mask, name, data.LAND_USES[lu], p, int(corrected[ci - 1]) if ci else None, zone)
            )
            tid = codes.text_id.setdefault(text, len(codes.texts))
            if tid == len(codes.texts):
                codes.texts.append(text)
            codes.seen[seen] = tid
        ids[g] = tid
    codes.code[new] = ids.take(inverse.ravel())


def disclosure_column(keys: np.ndarray, p: Mapping[str, Any]) -> pd.Categorical:
    """Per-tree disclosure text (``"; "``-joined, ``""`` when none) from :func:`disclosure_keys`.

    Each distinct key is written once per parameter set (and process); the column is categorical, its
    categories the texts present in the order of the first key (by value) that gives each.
    """
    keys = np.asarray(keys, dtype=np.int64)
    which = _which(p)
    lut = _mask_lut(_freeze(p), which)
    met = np.zeros(len(lut), dtype=bool)
    met[keys] = True  # the keys present (a mark per tree costs a fifth of counting them)
    present = np.flatnonzero(met)
    # keyed by the parameters as written (repr): values that compare equal can be written differently
    codes = _text_codes(repr(_freeze(p)) + which, len(lut))
    tid = codes.code.take(present)
    if (tid < 0).any():
        with codes.lock:
            new = present[codes.code.take(present) < 0]
            if len(new):
                _write_texts(codes, new, lut, p, which)
        tid = codes.code.take(present)
    first = np.full(len(codes.texts), len(tid))
    np.minimum.at(first, tid, np.arange(len(tid)))  # each text's first key present (keys ascend)
    given = np.flatnonzero(first < len(tid))
    shown = given.take(np.argsort(first.take(given)))  # the texts in the order their first key comes
    # the categorical type of these texts, made once: making it checks and converts hundreds of sentences
    dtype = codes.dtypes.get(shown.tobytes())
    if dtype is None:
        dtype = pd.CategoricalDtype([codes.texts[t] for t in shown.tolist()] or [""])
        if len(codes.dtypes) < DTYPE_CACHE:  # the sets of texts a process meets are few; a bound keeps it so
            codes.dtypes[shown.tobytes()] = dtype
    # codes of the width pandas keeps for this many categories, so it need not convert a million of them
    n = len(dtype.categories)
    width = np.int8 if n < 127 else np.int16 if n < 32767 else np.int32
    local = np.zeros(len(codes.texts) + 1, dtype=width)
    local[shown] = np.arange(len(shown), dtype=width)
    code_of = np.zeros(len(lut), dtype=width)
    code_of[present] = local.take(tid)
    return pd.Categorical.from_codes(code_of.take(keys), dtype=dtype, validate=False)


def method_notes(p: Mapping[str, Any]) -> list[str]:
    """The science's limits, in sentences for "Method & sources" (``p``: resolved parameters).

    Each names the value in force, so a Village that overrides one reads its own.
    """
    prices, luf = p["prices"], p["land_use_factors"]
    zone = p.get("zone")
    if zone is not None and zone != data.DEFAULT_ZONE:
        return _zone_method_notes(p)
    default_hydro = data.prices()["hydro_interception"]
    zt = _zero_tails()
    rows = data.benefit_tables().value_rows
    n_zero = int(
        ((zt["property_value"] < len(data.DBH_CLASSES_CM)) | (zt["co2_sequestered"] < len(data.DBH_CLASSES_CM))).sum()
    )
    unverified = ", ".join(
        f"{lu} {luf[lu]:g}"
        for lu in data.LAND_USES
        if lu not in ("unspecified", "single_family") and luf[lu] == property_value.LAND_USE_FACTOR[lu]
    )
    hydro = prices["hydro_interception"]
    notes = [
        (
            f"Stormwater is priced at ${hydro:g}/gal"
            + (
                ": the Northeast price. OpenTreeMap's Northeast table gives $0.0008, a tenth of it and 2-35 times "
                "below every other zone's price there ($0.00183-0.02779/gal); the Northeast Community Tree Guide "
                "(McPherson et al. 2007, PSW-GTR-202) values runoff at about $0.01 per gallon of treated and "
                "controlled runoff, as the i-Tree team quotes it (i-Tree Eco's national average is $0.008936/gal). "
                "A local rate can be set (‹prices=hydro_interception=USD›)"
                if hydro == default_hydro
                else f", set by the user (the zone table's value is ${default_hydro:g}/gal)"
            )
        ),
        (
            "Aesthetic benefit land-use factors C: single-family 1 (the definition of T); a tree without a land use "
            "takes the single-family factor (C = 1, as the NTBC does) but the zone's general energy tables"
        )
        + (
            f"; {unverified}: unverified, recorded as the Community Tree Guides' land-use reduction factors without "
            "a copy of that table to check them; small commercial and industrial / large commercial are kept apart; "
            "a survey's 'commercial/industrial' takes the lower"
            if unverified
            else ""
        ),
        (
            "Energy and avoided emissions by land use: single-family, multi-family and commercial/industrial (small "
            "commercial and industrial alike) read the source's own tables; the institutional/transportation tables "
            "are all zero in the source (no energy saving or avoided emission is credited there); park/vacant/other "
            "has no table and reads the zone's general table, as an unspecified tree does"
        ),
        (
            "DBH past the tables' last class, 45 in (114.30 cm): every benefit holds its 45-in value (OpenTreeMap's "
            "eco-benefit service extends the last step instead), also for a tree grown past it in a cumulative "
            "valuation; DBH over 100 in is flagged implausible; a tree measured past 45 in or over 100 in is stated per "
            "tree (the per-tree notes read the measured DBH: a tree that only grows past 45 in, or into a zero class "
            "below, during a cumulative valuation has no note of its own)"
        ),
        (
            f"{n_zero} of the {len(rows)} value rows give a property-value driver (annual leaf-area increase) and a "
            "CO2 sequestration of 0 at their largest classes (e.g. red maple, ACRU: 5.6 m2/yr at 83.82 cm, 0 at "
            "99.06 cm); a tree there shows the table's figure, possibly $0, with a per-tree note"
        ),
    ]
    cat = data.catalogue()
    if "correction" in cat:
        for code, note in cat.loc[cat["correction"].fillna("").astype(str) != "", "correction"].items():
            notes.append(f"Species catalogue, {code} ({cat.at[code, 'common_name']}): {note}")
    return notes


def _zone_method_notes(p: Mapping[str, Any]) -> list[str]:
    """The limits of a climate zone other than the Northeast, in sentences (the zone's own tables and prices)."""
    zone = str(p["zone"])
    z = data.zones().loc[zone]
    zt = data.zone_tables()
    k = zt.zones.index(zone)
    notes = [
        f"Climate zone: {z['name']} ({zone}), the i-Tree Streets tables of its reference city {z['reference_city']} "
        f"({z['value_rows']} value rows, {z['species']} species in its list), as OpenTreeMap distributes them; prices "
        "are the zone's i-Tree Streets defaults (data/species/zones/prices.csv), each overridable (‹prices=NAME=USD›)",
        "A species the zone's species list has no code for is valued by the zone's generic row of its tree type "
        "(e.g. BDL OTHER) and says so per tree; a species only the zone's list has (crape myrtle in PiedmtCLT) is "
        "read with its code there; the CTLA appraisal parameters and nativity are the Northeast catalogue's (for a "
        "species it lacks, those of its generic row of the same tree type)",
        f"Growth in cumulative valuations follows the zone's own i-Tree Streets DBH-at-age table "
        f"(data/species/zones/{zone}/growth_age_class.csv) of the row each tree reads there; the Urban Tree "
        "Database equations, fitted in the Northeast, are not used",
    ]
    if not zt.has_variants[k]:
        notes.append(
            f"The {z['name']} zone ({zone}) publishes no land-use tables: energy and avoided emissions read the "
            "zone's general tables "
            "for every land use"
        )
    for (zn, group), ruling in sorted(data.zone_price_notes().items()):
        if zn == zone:
            notes.append(f"Price of {group} in {zone}: ${p['prices'][group]:g} per unit; {ruling}")
    return notes
