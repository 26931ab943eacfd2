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
#: use receives (Community Tree Guides' land-use reduction factors [2]_).
#: ``unspecified`` follows the NTBC, which values every tree as a
#: single-family front-yard tree. The Village may set its own.
LAND_USE_FACTOR = {
    "unspecified": 1.00,
    "single_family": 1.00,
    "multi_family": 0.75,
    "commercial_industrial": 0.66,
    "institutional": 0.50,
    "park_vacant_other": 0.50,
}

#: Default home price (USD). **Placeholder set by the Village**: the local
#: median single-family sale price belongs here; no published source.
DEFAULT_HOME_PRICE_USD = 500_000.0


def aesthetic_value(leaf_area_increase_m2: np.ndarray, home_price_usd: float,
                    land_use_factor: np.ndarray | float, large_tree_leaf_area_m2: float,
                    sale_price_fraction: float = SALE_PRICE_FRACTION) -> np.ndarray:
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
    if large_tree_leaf_area_m2 <= 0:
        raise ValueError("large_tree_leaf_area_m2 must be positive")
    if home_price_usd < 0:
        raise ValueError("home_price_usd must not be negative")
    return np.asarray(leaf_area_increase_m2, float) * (sale_price_fraction * home_price_usd
                                                        * np.asarray(land_use_factor, float)) / large_tree_leaf_area_m2
