"""Where the i-Tree Streets tables, not the tree, decide a benefit: per-tree disclosures.

Small pure functions over arrays. Each tree gets an integer bit mask of the
:class:`Flag` values that apply to it; the caller turns each distinct mask into
text once (:func:`texts`), so a million trees cost a few array operations.

What is disclosed, and why:

* **DBH past the last class.** The resource tables stop at the 114.30 cm
  (45 in) class midpoint. treecalc holds the last class's value beyond it
  ([2]_, the rule the reference README states); OpenTreeMap's eco-benefit
  service instead extends the last step linearly (``CalcOneTree`` in
  ``eco/eco.go`` of [3]_: "Clamp to maximum diameter" computes the value on
  the line through the last two classes). Either way the figure is not the
  model's, so it is said per tree. Over 100 in is also flagged as implausible.
* **Zero tables at the largest classes.** 31 value rows of the Northeast
  tables give an annual leaf-area increase (the property-value driver) or a
  CO2 sequestration of 0 at their largest classes (e.g. ``ACRU`` property value
  5.6 m²/yr at 83.82 cm, 0 at 99.06 cm). A $0 there is the table's, not a
  finding that the tree adds nothing, so it is said per tree.
* **Land use.** The land-use factors C of the aesthetic benefit other than
  single-family (1 by the definition of T) are unverified (see
  :data:`treecalc.models.property_value.LAND_USE_FACTOR_STATUS`);
  institutional/transportation energy and avoided-emission tables are all zero
  in the source; park/vacant/other has no table of its own.

References
----------
.. [1] McPherson, E.G. et al. (2007). *Northeast Community Tree Guide*. USDA
   Forest Service PSW-GTR-202.
.. [2] ``shared/reference/README.md``: "below 3.81 cm use the first value; at or
   above 114.30 cm use the last value".
.. [3] OpenTreeMap, otm-ecoservice (GitHub), ``eco/eco.go``, function ``CalcOneTree``.
"""

from __future__ import annotations

import enum

import numpy as np

#: The tables' last DBH class midpoint: 114.30 cm = 45 in.
LAST_CLASS_IN = 45.0
#: Above this DBH a measurement is implausible for the model (no Northeast row reaches it).
IMPLAUSIBLE_DBH_IN = 100.0


class Flag(enum.IntFlag):
    """One disclosure; a tree's mask is the OR of those that apply."""

    BEYOND_LAST_CLASS = 1
    IMPLAUSIBLE_DBH = 2
    ZERO_PROPERTY_VALUE = 4
    ZERO_CO2_SEQUESTERED = 8
    LAND_USE_FACTOR_UNVERIFIED = 16
    LAND_USE_NOT_GIVEN = 32
    COMMERCIAL_NOT_DISTINGUISHED = 64
    ENERGY_TABLES_ZERO = 128
    ENERGY_ZONE_TABLE = 256
    SPECIES_CORRECTED = 512
    SPECIES_NOT_IN_ZONE = 1024
    ZONE_HAS_NO_LAND_USE_TABLES = 2048


def zero_from_class(table: np.ndarray) -> np.ndarray:
    """Index of the DBH class from which each row of ``table`` is zero to the end.

    ``table`` has shape ``(..., n_classes)``. A row that never reaches zero, or
    that is zero throughout (no value to lose), gets ``n_classes``.

    Examples
    --------
    >>> zero_from_class(np.array([[1.0, 5.6, 0.0], [1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]))
    array([2, 3, 3])
    """
    t = np.asarray(table, float)
    n = t.shape[-1]
    nonzero = t != 0
    # index after the last non-zero class; n (none lost) when the row ends non-zero or is all zero
    last_nonzero = n - 1 - np.argmax(nonzero[..., ::-1], axis=-1)
    start = np.where(nonzero.any(axis=-1), last_nonzero + 1, n)
    return start.astype(np.intp)


def dbh_flags(dbh_in: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """:attr:`Flag.BEYOND_LAST_CLASS` over 45 in, plus :attr:`Flag.IMPLAUSIBLE_DBH` over 100 in.

    ``out``, when given, is an int array the flags are OR-ed into in place (and returned).
    """
    d = np.asarray(dbh_in, float)
    if out is None:
        out = np.zeros(d.shape, dtype=np.int64)
    for limit, flag in ((LAST_CLASS_IN, Flag.BEYOND_LAST_CLASS), (IMPLAUSIBLE_DBH_IN, Flag.IMPLAUSIBLE_DBH)):
        np.bitwise_or(out, (d > limit).view(np.uint8) * np.uint8(flag), out=out)  # bytes, not int64 per tree
    return out


def table_zero_flags(upper_class: np.ndarray, row: np.ndarray, zero_from: np.ndarray, flag: Flag) -> np.ndarray:
    """``flag`` where the class a tree's value is read from is in its row's zero tail.

    ``upper_class`` is the highest DBH class the interpolated value uses (the
    upper neighbour, or the class itself when the DBH sits on it); ``zero_from``
    is :func:`zero_from_class` of the factor's table, one entry per value row.
    """
    hit = np.asarray(upper_class) >= np.asarray(zero_from)[np.asarray(row)]
    return np.where(hit, int(flag), 0).astype(np.int64)


def zero_tail_table(zero_from: np.ndarray, flag: Flag, n_classes: int) -> np.ndarray:
    """``flag`` at every (value row, class) in the row's zero tail: shape ``(len(zero_from), n_classes)``.

    Indexed by a tree's value row and :func:`upper_class`, it gives
    :func:`table_zero_flags` with one lookup (the fast form for many trees).
    """
    cls = np.arange(n_classes)
    return np.where(cls[None, :] >= np.asarray(zero_from)[:, None], int(flag), 0).astype(np.int64)


def upper_class(j: np.ndarray, frac: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """The highest class an interpolation at (``j``, ``frac``) reads (see ``dbh_positions``).

    A fraction below 1e-9 is rounding (33 in × 2.54 = 83.82000000000001 cm sits on a class).
    ``out``: an int array to write the result into (it may be ``j`` itself).
    """
    return np.add(j, np.asarray(frac) > 1e-9, out=out)


def flag_names(mask: int) -> list[str]:
    """Names of the flags in ``mask``, in bit order (for JSON and tests)."""
    return [f.name.lower() for f in Flag if f.name and mask & f]
