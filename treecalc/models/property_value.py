"""Aesthetic / property-value benefit of a tree (i-Tree Streets, NTBC).

References
----------
.. [1] McPherson, E.G. (2007). Benefit-based tree valuation. *Arboriculture &
   Urban Forestry* 33(1): 1-11.
.. [2] McPherson, E.G. et al. (2007). *Northeast Community Tree Guide*. USDA
   Forest Service PSW-GTR-202: a large front-yard tree adds 0.88 % to the sale
   price of a single-family home; the value is spread over the tree's leaf
   area and paid each year for the annual leaf-area increase; trees on other
   land uses get a reduced share.
"""

from __future__ import annotations

import numpy as np

#: Share of a home's sale price a large front-yard tree adds (0.88 %) [2]_.
SALE_PRICE_FRACTION = 0.0088

#: Land-use factor C: the share of the single-family value a tree on each land
#: use receives. Single-family is 1 by the definition of T (the value of a
#: large front-yard tree of a single-family home [2]_); ``unspecified`` follows
#: the NTBC, which values every tree as a single-family front-yard tree (an
#: assumption treecalc discloses per tree). **Every other value is
#: unverified**: they were recorded as the Community Tree Guides' land-use
#: reduction factors, but no copy of that table could be found to check them
#: (see :data:`LAND_USE_FACTOR_STATUS`). i-Tree Streets keeps small commercial
#: apart from industrial / large commercial; ``commercial_industrial`` (a survey
#: that does not say which) takes the lower of the two, so an unstated fact
#: never raises a value. The Village may set every factor.
LAND_USE_FACTOR = {
    "unspecified": 1.00,
    "single_family": 1.00,
    "multi_family": 0.75,
    "commercial_industrial": 0.50,
    "institutional": 0.50,
    "park_vacant_other": 0.50,
    "small_commercial": 0.66,
    "industrial_large_commercial": 0.50,
}

#: Where each default of :data:`LAND_USE_FACTOR` comes from, as every output states it.
UNVERIFIED = (
    "unverified: recorded as the Community Tree Guides' land-use reduction factor without a copy "
    "of the table at hand; searches of the i-Tree Streets / Tree Guide texts and of OpenTreeMap's "
    "eco-benefit code (which applies no land-use factor) found no statement of it"
)
LAND_USE_FACTOR_STATUS = {
    "unspecified": "assumed: land use not given, valued as a single-family front-yard tree (C = 1), as the NTBC does",
    "single_family": "1 by definition: T is the value a large front-yard tree adds to a single-family home [2]",
    "multi_family": UNVERIFIED,
    "commercial_industrial": (
        "commercial or industrial not distinguished: the industrial / large commercial "
        "factor (the lower) is used; " + UNVERIFIED
    ),
    "institutional": UNVERIFIED,
    "park_vacant_other": UNVERIFIED,
    "small_commercial": UNVERIFIED,
    "industrial_large_commercial": UNVERIFIED,
}

#: Default home price (USD). **Placeholder set by the Village**: the local
#: median single-family sale price belongs here; no published source.
DEFAULT_HOME_PRICE_USD = 500_000.0


def aesthetic_value(
    leaf_area_increase_m2: np.ndarray,
    home_price_usd: float,
    land_use_factor: np.ndarray | float,
    large_tree_leaf_area_m2: float | np.ndarray,
    sale_price_fraction: float = SALE_PRICE_FRACTION,
) -> np.ndarray:
    """Annual aesthetic / property value, USD per tree per year.

    ``A = L × (T × C) / M`` with ``T = sale_price_fraction × home_price``.

    Parameters
    ----------
    leaf_area_increase_m2 : array
        L, the annual increase in leaf area (``property_value`` table), m²/yr.
    home_price_usd : float
        Median sale price of a single-family home, USD.
    land_use_factor : array or float
        C, 0-1 (see :data:`LAND_USE_FACTOR`).
    large_tree_leaf_area_m2 : float
        M, leaf area of a large reference tree, m².
    sale_price_fraction : float
        Share of the sale price added by a large tree (0.0088).

    Returns
    -------
    numpy.ndarray
        USD/yr.

    Examples
    --------
    L = 7.75 m²/yr, home $500,000, C = 1, M = 583.84 m²:
    7.75 × (0.0088 × 500,000 × 1) / 583.84 = $58.41/yr.
    """
    if np.any(np.asarray(large_tree_leaf_area_m2) <= 0):  # one M, or one per climate zone's rows
        raise ValueError("large_tree_leaf_area_m2 must be positive")
    if home_price_usd < 0:
        raise ValueError("home_price_usd must not be negative")
    return (
        np.asarray(leaf_area_increase_m2, float)
        * (sale_price_fraction * home_price_usd * np.asarray(land_use_factor, float))
        / np.asarray(large_tree_leaf_area_m2, float)
    )
