"""Replacement (appraised) value of a tree by the CTLA trunk formula.

The value i-Tree Streets reports as a tree's *replacement value* [1]_, from
the Council of Tree and Landscape Appraisers' trunk formula method [2]_ with
the zone's appraisal parameters (species rating, basic price, replacement
cost and replacement trunk area TAr, all from the species catalogue):

.. math::

    V = [C_r + P_b \\, \\max(TA - TA_r, 0)] \\times S \\times K \\times L

with TA = π (DBH / 2)² the trunk area (sq in), C_r the installed cost of the
largest normally available replacement tree (USD), P_b the basic price
(USD per sq in of trunk area), S the species rating, K the condition rating
and L the location rating (fractions). i-Tree Streets omits the location
rating (L = 1); it is offered here as an optional factor, default 1.0.

Small trees (TA <= TAr) are worth the replacement cost times the ratings,
C_r × S × K × L (the CTLA replacement cost method, which is what i-Tree
Streets applies: the basic-price term never goes negative). Some appraisal
guides prorate instead (C_r × TA / TAr); this module does not.

Palms (catalogue ``palm_trunk_cost_usd_per_ft`` > 0; their basic price is 0)
are valued per foot of clear trunk height H by the CTLA palm method [2]_:
V = [C_r + P_palm × max(H − H_r, 0)] × S × K × L. The catalogue gives no
replacement-palm trunk height H_r: ``palm_replacement_height_ft`` defaults
to 0 ft (the nursery palm's clear trunk counted as nothing, which can
overstate by at most P_palm × H_r, e.g. $24/ft × 5 ft = $120 for Butia).
Surveys usually have no palm heights: a palm with no ``height_ft`` (NaN) is
valued at the floor C_r × S × K × L, never more.

Condition ratings (:data:`CONDITION_RATING`): the ISA inventory scale
excellent 100 %, very good 90 %, good 80 %, fair 60 %, poor 40 %,
critical 20 %, dead 0 % — each inside the band the CTLA *Guide for Plant
Appraisal*, 9th ed., gives for its class (excellent 81–100 %, good 61–80 %,
fair 41–60 %, poor 21–40 %, very poor 6–20 %, dead 0–5 %) [2]_ [3]_. A
numeric condition (a fraction 0–1, e.g. from an arborist's appraisal) is
used as it is.

The CTLA 9th ed. also replaces TA by an *adjusted trunk area*
ATA = −0.335 d² + 69.3 d − 1087 (d = DBH, in) for trees over 30 in [2]_;
i-Tree Streets' documentation describes the plain trunk area, so the
adjustment is off by default (``adjust_large_trees=True`` applies it).

References
----------
.. [1] i-Tree Streets v5 User's Manual, USDA Forest Service et al.
   (replacement value: CTLA trunk formula with the reference city's species
   ratings, basic price, replacement cost and replacement size).
.. [2] Council of Tree and Landscape Appraisers (2000). *Guide for Plant
   Appraisal*, 9th ed. International Society of Arboriculture, Champaign, IL.
.. [3] Condition classes "Excellent (100 %), Very Good (90 %), Good (80 %),
   Fair (60 %), Poor (40 %), Critical (20 %), Dead (0 %)", adapted from the
   International Society of Arboriculture's rating system, as specified in
   municipal street-tree inventories.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from treecalc.reference import data

#: Condition class -> condition rating (fraction). Keys are normalised:
#: lower case, spaces and hyphens as underscores.
CONDITION_RATING: dict[str, float] = {
    "excellent": 1.00,
    "very_good": 0.90,
    "good": 0.80,
    "fair": 0.60,
    "poor": 0.40,
    "critical": 0.20,
    "dead": 0.00,
}

#: DBH above which the CTLA adjusted trunk area applies, inches.
ATA_THRESHOLD_IN = 30.0

#: The edition whose trunk formula :func:`replacement_value` applies, as a reader is told it.
EDITION_NAME = "Guide for Plant Appraisal, 9th ed. (CTLA 2000)"


def trunk_formula_parameters(species_code: str, condition: object = "good", location: float = 1.0) -> dict[str, float]:
    """The parameters :func:`replacement_value` values one tree of ``species_code`` with: the catalogue's
    appraisal columns of its row (species rating S, basic price P_b, replacement cost C_r, replacement trunk
    area TA_r, palm price per ft), the condition rating K and the location rating L."""
    row = data.catalogue().loc[str(species_code)]
    out = {c: float(row[c]) for c in data.APPRAISAL_COLUMNS}
    out["condition_rating"] = float(condition_factor(np.atleast_1d(np.asarray(condition, dtype=object)))[0])
    out["location_rating"] = float(location)
    return out


def trunk_area_sqin(dbh_in: object) -> np.ndarray:
    """Trunk cross-sectional area TA = π (DBH / 2)², sq in (DBH in inches)."""
    d = np.asarray(dbh_in, dtype=float)
    return np.pi * (d / 2.0) ** 2


def adjusted_trunk_area_sqin(dbh_in: object) -> np.ndarray:
    """CTLA adjusted trunk area, sq in: TA up to 30 in DBH, then
    −0.335 d² + 69.3 d − 1087 (never above TA) [2]_."""
    d = np.asarray(dbh_in, dtype=float)
    ta = trunk_area_sqin(d)
    ata = -0.335 * d**2 + 69.3 * d - 1087.0
    return np.where(d > ATA_THRESHOLD_IN, np.minimum(ata, ta), ta)


def _condition_keys(raw: pd.Series) -> pd.Series:
    """Condition texts as :data:`CONDITION_RATING` keys: stripped, lower case, spaces and hyphens as underscores."""
    return raw.fillna("").astype(str).str.strip().str.lower().str.replace(r"[\s\-]+", "_", regex=True)


def condition_factor(condition: object) -> np.ndarray:
    """Condition rating (fraction 0–1) of each condition class or number.

    Strings are matched case-insensitively with spaces or hyphens as
    underscores (``"Very good"`` = ``"very_good"``); see
    :data:`CONDITION_RATING`. Numbers are fractions in [0, 1]. The loop over
    elements only classifies them (number or name); the mapping is
    vectorised.

    Raises
    ------
    ValueError
        An unknown class (named, with the allowed ones), a blank (``""``,
        ``None``, NaN: the caller must choose a default), or a number
        outside [0, 1].
    """
    c = np.atleast_1d(np.asarray(condition, dtype=object))
    out = np.empty(c.shape, dtype=float)
    flat, res = c.ravel(), out.ravel()
    names_only = set(map(type, flat.tolist())) <= {str}  # the usual case: class names, each distinct one read once
    # numbers (not NaN, which counts as blank) are ratings; everything else a class name
    is_num = np.zeros(flat.shape, dtype=bool)
    if not names_only:
        is_num = np.array(
            [
                isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool) and not np.isnan(v)
                for v in flat
            ],
            dtype=bool,
        )
    if is_num.any():
        num = flat[is_num].astype(float)
        if (num < 0).any() or (num > 1).any():
            raise ValueError("a numeric condition must be a fraction in [0, 1]")
        res[is_num] = num
    allowed = f"expected one of {', '.join(CONDITION_RATING)} or a fraction in [0, 1]"
    if (~is_num).any():
        raw = pd.Series(flat[~is_num], dtype=object)
        if names_only:
            codes, distinct = pd.factorize(raw)
            keys = pd.Series(_condition_keys(pd.Series(distinct, dtype=object)).to_numpy(object)[codes], dtype=object)
        else:
            keys = _condition_keys(raw)
        if (keys == "").any():
            raise ValueError(f"condition missing (blank) for {int((keys == '').sum())} tree(s); {allowed}")
        mapped = keys.map(CONDITION_RATING)
        if mapped.isna().any():
            bad = sorted(set(raw[mapped.isna().to_numpy()].astype(str)))
            raise ValueError(f"unknown condition {bad[:10]}; {allowed}")
        res[~is_num] = mapped.to_numpy(float)
    return res.reshape(c.shape)


def ctla_trunk_formula(
    dbh_in: object,
    replacement_cost_usd: object,
    basic_price_usd_per_sqin: object,
    replacement_trunk_area_sqin: object,
    species_rating: object,
    condition_rating: object,
    location_rating: object = 1.0,
    adjust_large_trees: bool = False,
) -> np.ndarray:
    """CTLA trunk formula value, USD (all arguments broadcast).

    ``[C_r + P_b × max(TA − TA_r, 0)] × S × K × L``; ratings are fractions.

    Examples
    --------
    Red maple (ACRU: S = 0.90, C_r = $530, P_b = $66/sq in,
    TA_r = 7.065 sq in), 12 in, good (K = 0.80):
    TA = π·36 = 113.0973 sq in; 530 + 66 × (113.0973 − 7.0650) = 530 +
    6998.13 = 7528.13; × 0.90 × 0.80 = **$5,420.26**.

    The same tree at 2 in: TA = π = 3.1416 <= 7.065, so 530 × 0.90 × 0.80 =
    **$381.60**.
    """
    ta = adjusted_trunk_area_sqin(dbh_in) if adjust_large_trees else trunk_area_sqin(dbh_in)
    basic = np.asarray(replacement_cost_usd, dtype=float) + np.asarray(
        basic_price_usd_per_sqin, dtype=float
    ) * np.maximum(ta - np.asarray(replacement_trunk_area_sqin, dtype=float), 0.0)
    return (
        basic
        * np.asarray(species_rating, float)
        * np.asarray(condition_rating, float)
        * np.asarray(location_rating, float)
    )


def ctla_palm_formula(
    height_ft: object,
    replacement_cost_usd: object,
    palm_trunk_cost_usd_per_ft: object,
    replacement_height_ft: object,
    species_rating: object,
    condition_rating: object,
    location_rating: object = 1.0,
) -> np.ndarray:
    """CTLA palm value, USD: ``[C_r + P_palm × max(H − H_r, 0)] × S × K × L``.

    A NaN height counts as H <= H_r (the replacement-cost floor).

    Examples
    --------
    Jelly palm (BUCA: C_r = $540, $24/ft, S = 0.70), 10 ft of clear trunk,
    H_r = 0, good: (540 + 240) × 0.70 × 0.80 = **$436.80**; no height:
    540 × 0.70 × 0.80 = **$302.40**.
    """
    extra = np.nan_to_num(np.asarray(height_ft, dtype=float) - np.asarray(replacement_height_ft, dtype=float), nan=0.0)
    basic = np.asarray(replacement_cost_usd, float) + np.asarray(palm_trunk_cost_usd_per_ft, float) * np.maximum(
        extra, 0.0
    )
    return (
        basic
        * np.asarray(species_rating, float)
        * np.asarray(condition_rating, float)
        * np.asarray(location_rating, float)
    )


def replacement_value(
    species_code: object,
    dbh_in: object,
    condition: object = "good",
    location: object = 1.0,
    height_ft: object = None,
    palm_replacement_height_ft: float = 0.0,
    adjust_large_trees: bool = False,
) -> np.ndarray:
    """Replacement value of each tree as i-Tree Streets reports it, USD.

    Parameters
    ----------
    species_code : str or array of str
        i-Tree species codes (catalogue index).
    dbh_in : float or array
        DBH, inches, >= 0.
    condition : str, float or array
        Condition class (see :data:`CONDITION_RATING`) or rating fraction.
    location : float or array
        Location rating in [0, 1]; 1.0 = i-Tree Streets (no location factor).
    height_ft : float, array or None
        Clear trunk height of palms, ft; ignored for other trees. ``None`` or
        NaN values a palm at its replacement-cost floor (see module notes).
    palm_replacement_height_ft : float
        Clear trunk height of the replacement palm, ft (default 0).
    adjust_large_trees : bool
        Use the CTLA 9th ed. adjusted trunk area above 30 in DBH.

    Returns
    -------
    numpy.ndarray
        USD per tree.

    Raises
    ------
    ValueError
        Unknown species code or condition, negative DBH, location outside
        [0, 1].
    """
    cat = data.catalogue()
    codes = np.atleast_1d(np.asarray(species_code, dtype=object))
    heights = np.nan if height_ft is None else np.asarray(height_ft, dtype=float)
    codes, dbh, cond, loc, h = np.broadcast_arrays(
        codes,
        np.atleast_1d(np.asarray(dbh_in, dtype=float)),
        np.atleast_1d(np.asarray(condition, dtype=object)),
        np.atleast_1d(np.asarray(location, dtype=float)),
        np.atleast_1d(heights),
    )
    if (dbh < 0).any():
        raise ValueError("dbh_in must be >= 0")
    if np.isnan(loc).any() or (loc < 0).any() or (loc > 1).any():
        raise ValueError("location must be a rating in [0, 1]")
    pos = data.catalogue_positions(codes)
    p = {c: cat[c].to_numpy(float)[pos] for c in data.APPRAISAL_COLUMNS}
    s = p["species_rating_pct"] / 100.0
    k = condition_factor(cond)
    tree = ctla_trunk_formula(
        dbh,
        p["replacement_cost_usd"],
        p["basic_price_usd_per_sqin"],
        p["replacement_trunk_area_sqin"],
        s,
        k,
        loc,
        adjust_large_trees,
    )
    palm = ctla_palm_formula(
        h, p["replacement_cost_usd"], p["palm_trunk_cost_usd_per_ft"], palm_replacement_height_ft, s, k, loc
    )
    return np.where(p["palm_trunk_cost_usd_per_ft"] > 0, palm, tree)
