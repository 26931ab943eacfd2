"""Tree growth (DBH over time) and cumulative benefits over a planning horizon.

Two growth sources for the Northeast climate zone (another zone's trees grow by that zone's own
age-class table, :func:`_zone_curves`):

* the **Urban Tree Database** (UTD) DBH-from-age equations [1]_ for the 21
  species measured in the reference city (Queens, NY), used for a tree whose
  *own* i-Tree code has an equation;
* the **i-Tree Streets** DBH-by-age-class table [2]_ (ages 5, 10, 20, ..., 80
  years) of the species' value row (``SppValueAssignment``), used otherwise.

Every function is vectorised over arrays of trees. Species are grouped by
growth curve (at most 62 curves: 21 UTD + 41 value rows); there is no
per-tree Python loop.

Growth curve of a species (``dbh_at_age_cm``)
---------------------------------------------
Age is years since planting (the UTD convention). The curve is tabulated on
a fine age grid (:data:`AGE_GRID_YR`, -20 to 150 years in 0.05-year steps) and
read by linear interpolation; it is made non-decreasing on the grid
(``numpy.maximum.accumulate``) so trees never shrink.

*UTD species.* The UTD equation between age 0 and ``t_max``, where ``t_max``
is the age at which the equation reaches the upper end of its application
range (see the note on the application range below). Before age 0 (a tree
smaller than the equation's intercept, i.e. smaller than the planting size
the fit implies) the curve is extended back linearly at the first-year
growth rate f(1) - f(0) down to 0 cm, as OpenTreeMap does [3]_; such a tree
gets a negative age. After ``t_max`` the curve continues at the slope of the
i-Tree Streets age-class curve of the species' value row,
``f(t_max) + AC(t) - AC(t_max)``; since the age-class curve is held after 80
years, growth beyond ``max(t_max, 80)`` years is zero.

*Other species.* The i-Tree Streets age-class curve of the value row:
linear between the tabulated ages, from (0 yr, 0 cm) to the 5-year value
(choice: a tree is taken to have no DBH at age 0), and held at the 80-year
value after 80 years (trees do not shrink).

After 150 years every curve is held constant.

The UTD application range
-------------------------
``growth_utd.csv`` carries the UTD columns "Apps min" / "Apps max" as
``min_age`` / ``max_age`` in the source (``min_dbh_cm`` / ``max_dbh_cm`` in
``growth_utd.csv``). Their values are **DBH in cm**, not ages:
each equals the equation evaluated at a round age (QURU: 2.89687 + 0.91156 ×
150 = 139.63 = ``max_age``; PYCA: 4.13514 + 1.2698 × 40 = 54.93; ACPL's
``min_age`` 5.62 is its intercept 5.61705). This module therefore reads
them as the DBH range of application and derives ``t_max`` as the first age
at which the equation reaches ``max_dbh_cm`` (or its peak, if it never
does). The lower bound is not used: the equation is used from age 0 (see
above).

References
----------
.. [1] McPherson, E.G., van Doorn, N.S., Peper, P.J. (2016). *Urban Tree
   Database*. Fort Collins, CO: Forest Service Research Data Archive,
   RDS-2016-0005. Equation forms (TS4): ``lin`` a + b·x; ``quad``
   a + b·x + c·x²; ``cub`` a + b·x + c·x² + d·x³; ``loglogw1``
   exp(a + b·ln(ln(x + 1) + c/2)), c = mean squared error.
.. [2] McPherson, E.G. et al. (2007). *Northeast Community Tree Guide*. USDA
   Forest Service, PSW-GTR-202; i-Tree Streets resource table
   ``dbh_by_age_class`` (region ``NoEastXXX``).
.. [3] OpenTreeMap ``GrowthModelUrbanTreeDatabase`` (linear growth at the
   first-year rate below the equation's minimum; UTD ``loglogw1`` form).
.. [4] Roman, L.A., Scatena, F.N. (2011). Street tree survival rates:
   meta-analysis of previous studies and application to a field survey in
   Philadelphia, PA, USA. *Urban Forestry & Urban Greening* 10(4), 269-274.
   Annual survival 94.9-96.5 % (mortality 3.5-5.1 %/yr) across the pooled
   studies: :func:`default_mortality_rate` is the middle of that range
   (``data/species/mortality.toml``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import pandas as pd

from treecalc.quantities import CM_PER_IN
from treecalc.reference import data

#: Age grid on which growth curves are tabulated and inverted, years.
AGE_GRID_YR = np.round(np.arange(-20.0, 150.0 + 1e-9, 0.05), 10)
AGE_GRID_YR.setflags(write=False)

UTD_FORMS = ("lin", "quad", "cub", "loglogw1")


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------
def _as_codes(species_code: object) -> np.ndarray:
    return np.atleast_1d(np.asarray(species_code, dtype=object))


def _utd_raw(form: str, a: float, b: float, c: float, d: float, age: np.ndarray) -> np.ndarray:
    if form == "lin":
        return a + b * age
    if form == "quad":
        return a + b * age + c * age**2
    if form == "cub":
        return a + b * age + c * age**2 + d * age**3
    if form == "loglogw1":
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.exp(a + b * np.log(np.log(age + 1.0) + c / 2.0))
    raise ValueError(f"unsupported UTD equation form {form!r}; expected one of {UTD_FORMS}")


def _coefficients(row: pd.Series) -> tuple[str, float, float, float, float]:
    c = 0.0 if pd.isna(row["c"]) else float(row["c"])
    d = 0.0 if pd.isna(row["d"]) else float(row["d"])
    return str(row["form"]), float(row["a"]), float(row["b"]), c, d


# --------------------------------------------------------------------------
# the two published curves
# --------------------------------------------------------------------------
def utd_dbh_cm(species_code: object, age_yr: object) -> np.ndarray:
    """DBH from age by the Urban Tree Database equation of each species.

    Parameters
    ----------
    species_code : str or array of str
        i-Tree species code with a UTD equation in this zone (see
        :func:`has_utd`); broadcast against ``age_yr``.
    age_yr : float or array
        Years since planting, >= 0.

    Returns
    -------
    numpy.ndarray
        DBH, cm. The raw equation: no application-range limit and no
        monotonicity fix (use :func:`dbh_at_age_cm` for the growth curve).

    Raises
    ------
    ValueError
        A code without a UTD equation, or a negative age.

    Examples
    --------
    ACRU, cubic, at 20 years: 2.64166 + 1.27076·20 − 0.01758·400 +
    0.00012·8000 = 2.64166 + 25.4152 − 7.032 + 0.96 = 21.98486 cm.

    References
    ----------
    .. [1] McPherson, van Doorn & Peper (2016), RDS-2016-0005.
    """
    codes, age = np.broadcast_arrays(_as_codes(species_code), np.atleast_1d(np.asarray(age_yr, dtype=float)))
    if (age < 0).any():
        raise ValueError("age_yr must be >= 0 (years since planting)")
    utd = data.growth_utd()
    missing = sorted({str(c) for c in np.unique(codes) if c not in utd.index})
    if missing:
        raise ValueError(f"no Urban Tree Database equation for {missing[:10]} in this zone")
    out = np.empty(age.shape, dtype=float)
    for code in np.unique(codes):
        m = codes == code
        out[m] = _utd_raw(*_coefficients(utd.loc[code]), age[m])
    return out


def has_utd(species_code: object) -> np.ndarray:
    """True where the species' own code has a UTD equation in this zone."""
    return np.isin(_as_codes(species_code).astype(str), data.growth_utd().index.to_numpy(str))


def age_class_dbh_cm(value_row: object, age_yr: object) -> np.ndarray:
    """DBH at age from the i-Tree Streets age-class table of a value row.

    Parameters
    ----------
    value_row : str or array of str
        i-Tree value row (``"ACRU"``, ``"BDL OTHER"``); broadcast against
        ``age_yr``.
    age_yr : float or array
        Years.

    Returns
    -------
    numpy.ndarray
        DBH, cm. Linear between the tabulated ages 5, 10, 20, ..., 80 years;
        below 5 years linear from (0 yr, 0 cm); ages <= 0 give 0 cm; after
        80 years the 80-year value is held (trees do not shrink).

    Examples
    --------
    ACRU at 15 years: halfway between 12.5 cm (10 yr) and 24.1 cm (20 yr)
    = 18.3 cm; at 2.5 years: 6.4 / 2 = 3.2 cm.

    References
    ----------
    .. [2] i-Tree Streets ``dbh_by_age_class``, region NoEastXXX.
    """
    rows, age = np.broadcast_arrays(_as_codes(value_row), np.atleast_1d(np.asarray(age_yr, dtype=float)))
    idx = data.value_row_positions(rows.ravel()).reshape(rows.shape)
    ages, table = data.growth_age_class()
    xp = np.concatenate([[0.0], ages])
    out = np.empty(age.shape, dtype=float)
    for r in np.unique(idx):
        m = idx == r
        out[m] = np.interp(age[m], xp, np.concatenate([[0.0], table[r]]), left=0.0)
    return out


# --------------------------------------------------------------------------
# the composite curve, tabulated once
# --------------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def _curves() -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """(curve row of each catalogue code, table[curve, AGE_GRID_YR] cm, curve names)."""
    cat = data.catalogue()
    utd = data.growth_utd()
    rows = data.benefit_tables().value_rows
    grid = AGE_GRID_YR
    names: list[str] = [f"age_class:{r}" for r in rows]
    curves = [age_class_dbh_cm(r, grid) for r in rows]
    utd_row: dict[str, int] = {}
    pos = grid >= 0
    for code, eq in utd.iterrows():
        form, a, b, c, d = _coefficients(eq)
        f = np.empty_like(grid)
        f[pos] = _utd_raw(form, a, b, c, d, grid[pos])
        f0, f1 = _utd_raw(form, a, b, c, d, np.array([0.0, 1.0]))
        f[~pos] = np.maximum(f0 + (f1 - f0) * grid[~pos], 0.0)
        # t_max: first age reaching the application range's upper DBH (or the peak)
        dbh_max = float(eq["max_dbh_cm"])  # a DBH in cm, see the module notes
        reach = np.flatnonzero(pos & (f >= dbh_max - 0.005))
        k = reach[0] if reach.size else np.flatnonzero(pos)[np.argmax(f[pos])]
        ac = age_class_dbh_cm(cat.loc[code, "value_row"], grid)
        f[k:] = f[k] + np.maximum(ac[k:] - ac[k], 0.0)
        utd_row[code] = len(curves)
        names.append(f"utd:{code}")
        curves.append(f)
    table = np.maximum.accumulate(np.vstack(curves), axis=1)
    if not np.all(table[:, 0] == 0.0):  # pragma: no cover - guards the grid choice
        raise AssertionError("growth curves must start at 0 cm on the age grid")
    vr = data.value_row_positions(cat["value_row"].to_numpy(object))
    curve_of = np.array([utd_row.get(code, v) for code, v in zip(cat.index, vr)], dtype=np.intp)
    table.setflags(write=False)
    curve_of.setflags(write=False)
    return curve_of, table, tuple(names)


@functools.lru_cache(maxsize=32)
def _zone_curves(zone: str) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """:func:`_curves` of a climate zone other than the Northeast: the zone's own i-Tree Streets age-class
    table (``data/species/zones/<zone>/growth_age_class.csv``) of the row each species reads there (its own,
    or the zone's generic row of its type), linear from (0 yr, 0 cm) and held after the last age, as the
    Northeast's. The Urban Tree Database equations were fitted in the Northeast's reference city (Queens,
    NY): they are not used in another zone."""
    zt = data.zone_tables()
    z = zt.zones.index(zone)
    g = pd.read_csv(data.data_file(f"species/zones/{zone}/growth_age_class.csv", data.SPECIES_DIR.parent))
    wide = g.pivot(index="value_row", columns="age_yr", values="dbh_cm")
    ages = np.concatenate([[0.0], wide.columns.to_numpy(float)])
    names = tuple(f"age_class:{zone}:{r}" for r in wide.index)
    at = {str(r): k for k, r in enumerate(wide.index)}
    rows = [np.interp(AGE_GRID_YR, ages, np.concatenate([[0.0], v]), left=0.0) for v in wide.to_numpy(float)]
    table = np.maximum.accumulate(np.vstack(rows), axis=1)
    curve_of = np.array([at[zt.local_rows[r]] for r in zt.cat_rows[z]], dtype=np.intp)
    table.setflags(write=False)
    curve_of.setflags(write=False)
    return curve_of, table, names


def _curve_set(zone: str | None) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """The growth curves of ``zone`` (None or the Northeast: :func:`_curves`)."""
    if zone is None or data.zone_code(zone) == data.DEFAULT_ZONE:
        return _curves()
    return _zone_curves(data.zone_code(zone))


def _curve_rows(species_code: object, zone: str | None = None) -> np.ndarray:
    curve_of, _, _ = _curve_set(zone)
    return curve_of[data.catalogue_positions(species_code)]


def _eval(rows: np.ndarray, age_yr: np.ndarray, zone: str | None = None) -> np.ndarray:
    """Curve ``rows[i]`` at ``age_yr[i, ...]`` (cm); held at both grid ends."""
    _, table, _ = _curve_set(zone)
    out = np.empty(np.shape(age_yr), dtype=float)
    for r in np.unique(rows):
        m = rows == r
        out[m] = np.interp(age_yr[m], AGE_GRID_YR, table[r])
    return out


def growth_source(species_code: object, zone: str | None = None) -> np.ndarray:
    """Name of the growth curve each tree follows, for reports.

    ``"Urban Tree Database (ACRU, cub)"`` or
    ``"i-Tree Streets age class (BDL OTHER)"``; in another zone ``"i-Tree Streets age class (PiedmtCLT LA6)"``.
    """
    _, _, names = _curve_set(zone)
    rows = _curve_rows(species_code, zone)
    utd = data.growth_utd()
    labels = []
    for n in names:
        kind, key = n.split(":", 1)
        labels.append(
            f"Urban Tree Database ({key}, {utd.loc[key, 'form']})"
            if kind == "utd"
            else f"i-Tree Streets age class ({key.replace(':', ' ')})"
        )
    return np.asarray(labels, dtype=object)[rows]


def dbh_at_age_cm(species_code: object, age_yr: object, zone: str | None = None) -> np.ndarray:
    """DBH on the species' growth curve at an age (cm).

    The composite curve described in the module notes: the UTD equation when
    the species' own code has one, else the i-Tree Streets age-class curve
    of its value row. ``species_code`` and ``age_yr`` broadcast. ``zone``: the curves of that climate zone
    (:func:`_zone_curves`; None: the Northeast's).
    """
    codes, age = np.broadcast_arrays(_as_codes(species_code), np.atleast_1d(np.asarray(age_yr, dtype=float)))
    rows = _curve_rows(codes.ravel(), zone).reshape(codes.shape)
    return _eval(rows, age, zone)


def _invert(rows: np.ndarray, dbh_cm: np.ndarray, zone: str | None = None) -> np.ndarray:
    _, table, _ = _curve_set(zone)
    grid = AGE_GRID_YR
    step = grid[1] - grid[0]
    out = np.full(dbh_cm.shape, np.nan)
    for r in np.unique(rows):
        m = (rows == r) & ~np.isnan(dbh_cm)
        if not m.any():
            continue
        d = table[r]
        x = dbh_cm[m]
        j = np.searchsorted(d, x, side="right") - 1  # last grid point with d <= x
        top = j >= len(d) - 1
        jj = np.clip(j, 0, len(d) - 2)
        rise = np.where(top, 1.0, d[jj + 1] - d[jj])  # > 0 wherever not top
        age = grid[jj] + (x - d[jj]) / rise * step
        # at or above the curve's maximum: the age it is first reached
        age = np.where(top, grid[np.argmax(d >= d[-1])], age)
        out[m] = age
    return out


def age_from_dbh(species_code: object, dbh_in: object, zone: str | None = None) -> np.ndarray:
    """Age (years since planting) at which the growth curve reaches a DBH.

    Parameters
    ----------
    species_code : str or array of str
        i-Tree species codes; broadcast against ``dbh_in``.
    dbh_in : float or array
        Current DBH, inches, >= 0. NaN gives NaN.

    Returns
    -------
    numpy.ndarray
        Age, years; the exact inverse of the piecewise-linear tabulated curve
        (:data:`AGE_GRID_YR`). Where the curve is flat the end of the flat
        part is returned; a DBH at or above the curve's maximum gets the age
        at which the maximum is first reached. A UTD tree smaller than the
        equation's intercept gets a negative age (see the module notes).

    Examples
    --------
    ACRU (UTD cubic) at 21.98486 cm = 8.65546 in: age 20.0 years.
    """
    codes, dbh = np.broadcast_arrays(_as_codes(species_code), np.atleast_1d(np.asarray(dbh_in, dtype=float)))
    if (dbh < 0).any():
        raise ValueError("dbh_in must be >= 0")
    rows = _curve_rows(codes.ravel(), zone).reshape(codes.shape)
    return _invert(rows, dbh * CM_PER_IN, zone)


def dbh_path(species_code: object, dbh_in: object, years: int, zone: str | None = None) -> np.ndarray:
    """DBH of each tree today and after 1, 2, ..., ``years`` years (inches).

    Returns an array of shape ``(n_trees, years + 1)``; column 0 is today's
    DBH. See :func:`dbh_after`.
    """
    codes, dbh = np.broadcast_arrays(_as_codes(species_code), np.atleast_1d(np.asarray(dbh_in, dtype=float)))
    codes, dbh = codes.ravel(), dbh.ravel()
    n_years = _n_years(years)
    if (dbh < 0).any():
        raise ValueError("dbh_in must be >= 0")
    rows = _curve_rows(codes, zone)
    age0 = _invert(rows, dbh * CM_PER_IN, zone)
    ages = age0[:, None] + np.arange(n_years + 1, dtype=float)[None, :]
    grown = _eval(rows, ages, zone) / CM_PER_IN
    return np.fmax(grown, dbh[:, None]) if dbh.size else grown  # never below today's DBH


def dbh_after(species_code: object, dbh_in: object, years: object, zone: str | None = None) -> np.ndarray:
    """DBH after some years of growth (inches).

    ``dbh_after = curve(age_from_dbh(dbh_in) + years)``, never less than
    ``dbh_in``.

    Parameters
    ----------
    species_code : str or array of str
        i-Tree species codes (a tree's own code decides whether the UTD
        equation applies; otherwise its value row's age-class curve).
    dbh_in : float or array
        Current DBH, inches, >= 0.
    years : float or array
        Years from now, >= 0; broadcast against the trees.

    Returns
    -------
    numpy.ndarray
        DBH, inches. A tree at or larger than its curve's maximum keeps its
        DBH (no growth). NaN DBH gives NaN.

    Examples
    --------
    ACRU 8.65546 in (age 20 on the UTD cubic) after 10 years: f(30) =
    2.64166 + 38.1228 − 15.822 + 3.24 = 28.18246 cm = 11.09546 in.
    """
    codes, dbh, yrs = np.broadcast_arrays(
        _as_codes(species_code),
        np.atleast_1d(np.asarray(dbh_in, dtype=float)),
        np.atleast_1d(np.asarray(years, dtype=float)),
    )
    if (dbh < 0).any():
        raise ValueError("dbh_in must be >= 0")
    if (yrs < 0).any() or np.isnan(yrs).any():
        raise ValueError("years must be >= 0")
    rows = _curve_rows(codes.ravel(), zone).reshape(codes.shape)
    age0 = _invert(rows, dbh * CM_PER_IN, zone)
    return np.fmax(_eval(rows, age0 + yrs, zone) / CM_PER_IN, dbh) if dbh.size else dbh.copy()


def default_mortality_rate() -> float:
    """The default annual mortality, 0.043 (4.3 %/yr): the middle of the street-tree range of
    Roman & Scatena (2011) [4]_, annual survival 94.9-96.5 %. Read from ``data/species/mortality.toml``."""
    return float(data.mortality()["annual_rate"])


def mortality_rate(value: object = None) -> float:
    """An annual mortality given (a fraction 0 <= m < 1; None: :func:`default_mortality_rate`)."""
    if value is None:
        return default_mortality_rate()
    try:
        m = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ValueError(f"mortality must be an annual rate between 0 and 1 (0.043 = 4.3%/yr), got {value!r}") from None
    if not np.isfinite(m) or m < 0 or m >= 1:
        raise ValueError(f"mortality must be an annual rate between 0 and 1 (0.043 = 4.3%/yr), got {value!r}")
    return m


def survival(mortality: float, years: int) -> np.ndarray:
    """Share of trees alive at the start of years 0, 1, ..., ``years``: (1 - m)^t. A new planting
    follows it from the year it is planted (its establishment years included)."""
    return (1.0 - float(mortality)) ** np.arange(_n_years(years) + 1, dtype=float)


def _n_years(years: float) -> int:
    y = float(years)
    if not np.isfinite(y) or y < 0 or y != int(y):
        raise ValueError(f"years must be a whole number >= 0, got {years!r}")
    return int(y)


# --------------------------------------------------------------------------
# cumulative benefits
# --------------------------------------------------------------------------
def cumulative_benefits(
    species_code: object,
    dbh_in: object,
    years: int,
    annual_value_fn: Callable[[np.ndarray, np.ndarray], object],
    mortality_rate: float | np.ndarray = 0.0,
    discount_rate: float = 0.0,
    return_per_year: bool = False,
    zone: str | None = None,
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Expected benefits of each tree summed over the next ``years`` years.

    .. math::

        B = \\sum_{t=1}^{N} V(D_{t-1}) \\, (1 - m)^{t-1} \\, (1 + r)^{-t}

    Parameters
    ----------
    species_code : str or array of str
        i-Tree species codes; broadcast against ``dbh_in``.
    dbh_in : float or array
        DBH today, inches.
    years : int
        Horizon N, whole years >= 0.
    annual_value_fn : callable
        ``annual_value_fn(species_codes, dbh_in_array) -> array`` of USD per
        tree per year, called once per year with all trees (the benefit
        orchestrator passes its own).
    mortality_rate : float or array per tree
        Annual mortality m, 0 <= m < 1.
    discount_rate : float
        Annual discount rate r, > -1 (0 = undiscounted).
    return_per_year : bool
        Also return the ``(n_trees, N)`` matrix of each year's expected,
        discounted value (for charts).
    zone : str, optional
        Grow the trees by that climate zone's age-class tables (None: the Northeast's curves).

    Returns
    -------
    numpy.ndarray or (numpy.ndarray, numpy.ndarray)
        Total USD per tree; with ``return_per_year`` also the matrix.

    Notes
    -----
    *Timing.* Year t's benefit is valued at the DBH at the start of year t,
    ``D_{t-1} = dbh_after(dbh_in, t - 1)`` (so year 1 is the annual benefit
    reported today). It counts if the tree is alive at the start of year t,
    probability (1 - m)^(t-1): deaths are taken to happen at the end of a
    year, after that year's benefit. Values are discounted as received at
    the end of year t, (1 + r)^-t.

    Constant $10/yr for 20 years: 200 with m = 0; 10 (1 − 0.98^20) / 0.02 =
    166.92 with m = 0.02.
    """
    codes, dbh = np.broadcast_arrays(_as_codes(species_code), np.atleast_1d(np.asarray(dbh_in, dtype=float)))
    codes, dbh = codes.ravel(), dbh.ravel()
    n_years = _n_years(years)
    m = np.asarray(mortality_rate, dtype=float)
    if np.isnan(m).any() or (m < 0).any() or (m >= 1).any():
        raise ValueError("mortality_rate must be in [0, 1)")
    r = float(discount_rate)
    if not np.isfinite(r) or r <= -1:
        raise ValueError("discount_rate must be > -1")
    m = np.broadcast_to(m.reshape(-1, 1) if m.ndim else m, (dbh.size, 1))
    path = dbh_path(codes, dbh, max(n_years - 1, 0), zone)[:, :n_years]  # D_0 .. D_{N-1}
    values = np.empty((dbh.size, n_years))
    for k in range(n_years):
        v = np.asarray(annual_value_fn(codes, path[:, k]), dtype=float)
        values[:, k] = np.broadcast_to(v, (dbh.size,))
    t = np.arange(1, n_years + 1, dtype=float)[None, :]
    per_year = values * (1.0 - m) ** (t - 1.0) * (1.0 + r) ** -t
    total = per_year.sum(axis=1)
    return (total, per_year) if return_per_year else total
