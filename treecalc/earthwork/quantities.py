"""Earthwork quantities: the unit conversions, once, and what every method measures.

- Conversions (defined in :mod:`treecalc.quantities`, named here): :data:`IN_PER_FT`, :data:`CU_FT_PER_CU_YD`,
  :data:`M3_PER_CU_YD`, :data:`FT_PER_M`, :data:`SQFT_PER_M2`;
  :func:`cuft_to_cuyd`, :func:`inches_to_feet` (exact :class:`~decimal.Decimal`).
- :class:`CutFill`: cut and fill in cubic yards, what every earthwork result has.
- :class:`PlanAreas`: the plan area cut (or filled) deeper than a depth, keyed by the depth asked (a law
  reads it at its own depths; this package knows none).
- :class:`Earthwork`: the quantities a method measured between two surfaces, for a permit check.
- :func:`depth_ft`: depths compared with thresholds at the survey's precision.
- :func:`fmt_number`, :func:`fmt_sqft`: quantities as a sentence says them.

Pure method: no law, no section, no village.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from treecalc.money import CENT

# the factors are defined once, with their definitions, in treecalc.quantities; the earthwork names them
from treecalc.quantities import CU_FT_PER_CU_YD, FT_PER_M, IN_PER_FT, M3_PER_CU_YD, SQFT_PER_M2

__all__ = [
    "IN_PER_FT",
    "CU_FT_PER_CU_YD",
    "M3_PER_CU_YD",
    "FT_PER_M",
    "SQFT_PER_M2",
    "InputUnits",
    "input_units",
    "cuft_to_cuyd",
    "inches_to_feet",
    "CutFill",
    "PlanAreas",
    "Earthwork",
    "DEPTH_DECIMALS_FT",
    "depth_ft",
    "fmt_number",
    "fmt_sqft",
    "check_finite_volumes",
]

_D27 = Decimal(CU_FT_PER_CU_YD)
_D12 = Decimal(IN_PER_FT)


@dataclass(frozen=True)
class InputUnits:
    """A method's input units (feet, or metres) converted to its outputs': cubic yards, square feet, feet."""

    name: str  # "feet" or "metres"
    cu_yd: float  # cubic yards per cubic input unit
    sq_ft: float  # square feet per square input unit
    ft: float  # feet per input unit


def input_units(metric: bool) -> InputUnits:
    """The conversions of feet (``metric`` False) or metres (True) to cubic yards, square feet and feet."""
    if metric:
        return InputUnits("metres", 1 / M3_PER_CU_YD, SQFT_PER_M2, FT_PER_M)
    return InputUnits("feet", 1 / CU_FT_PER_CU_YD, 1.0, 1.0)


def cuft_to_cuyd(cu_ft: Decimal) -> Decimal:
    """Cubic feet to cubic yards, exact to 28 significant digits."""
    return cu_ft / _D27


def inches_to_feet(inches: Decimal) -> Decimal:
    """Inches to feet (Decimal)."""
    return inches / _D12


def fmt_number(d: Decimal | int) -> str:
    """A Decimal without trailing zeros, with thousands separators (for explanations).

    A computed quantity with more than four decimals (1,000 x 7 / 12 = 583.333... cu ft) is said to the cent
    (583.33), or to four decimals under 1; a law number or an input keeps its digits (0.3375)."""
    d = Decimal(d)
    if d.is_finite() and d.normalize().as_tuple().exponent < -4:  # type: ignore[operator]
        d = d.quantize(CENT if abs(d) >= 1 else Decimal("0.0001"))
    d = d.normalize()
    return f"{d:,f}"


def fmt_sqft(d: Decimal | int) -> str:
    """An area as said in a sentence: to 0.01 sq ft (a measured plan area of 1,234.5678 sq ft is 1,234.57), a
    whole area whole (600 sq ft)."""
    return fmt_number(Decimal(d).quantize(CENT))


def check_finite_volumes(cut_cy: float, fill_cy: float) -> None:
    """Refuse inputs so large that the volumes overflow (no NaN or inf reaches a user)."""
    if not (math.isfinite(cut_cy) and math.isfinite(fill_cy) and math.isfinite(cut_cy - fill_cy)):
        raise ValueError(
            "the volumes overflow: elevations, areas or spacings are far too large (check the units and the file)"
        )


@dataclass(frozen=True)
class PlanAreas:
    """The plan area (sq ft) cut (or filled) deeper than a depth (ft), keyed by that depth: ``areas[d]``.

    ``area_deeper_than`` is the method's measure (0 = at any depth); a law reads the areas at its own depths,
    so no depth is fixed here. ``total_sqft`` is the area at any depth.
    """

    area_deeper_than: Callable[[float], Decimal] = field(repr=False, compare=False)

    def __getitem__(self, depth_ft: float | Decimal) -> Decimal:
        return self.area_deeper_than(float(depth_ft))

    def at(self, depths_ft: Any) -> dict[float, Decimal]:
        """The areas at each of ``depths_ft``, keyed by the depth."""
        return {float(t): self[t] for t in depths_ft}

    @property
    def total_sqft(self) -> Decimal:
        return self[0.0]


@dataclass(frozen=True)
class Earthwork:
    """Quantities measured between two surfaces (feet, cubic feet): what each method measures, read by a
    permit check (the quantities here, the law in the rules).

    ``None`` means the method does not give that quantity (cross-sections give no plan areas);
    a rule that needs it is then "unknown" unless other work already decides it.
    """

    cut_cuft: Decimal
    fill_cuft: Decimal
    cut: PlanAreas | None = None
    fill: PlanAreas | None = None
    max_cut_ft: Decimal | None = None
    method: str = ""


@dataclass(frozen=True)
class CutFill:
    """Cut and fill in cubic yards (>= 0): what every earthwork result has (TIN, grid, end area),
    with ``net_cy = cut_cy - fill_cy`` (positive: surplus to export).
    """

    cut_cy: float
    fill_cy: float

    @property
    def net_cy(self) -> float:
        return self.cut_cy - self.fill_cy

    def _totals(self, method: str) -> dict[str, Any]:
        """How the result's dict opens: the method, then cut, fill and net in cubic yards to two places."""
        cut, fill, net = round(self.cut_cy, 2), round(self.fill_cy, 2), round(self.net_cy, 2)
        return {"method": method, "cut_cy": cut, "fill_cy": fill, "net_cy": net}

    @staticmethod
    def _cuft(cu_yd: float) -> Decimal:
        """Cubic yards (float) as cubic feet to 6 decimals, for :class:`Earthwork`."""
        return Decimal(repr(round(cu_yd * CU_FT_PER_CU_YD, 6)))


#: Depths are compared with the thresholds to this many decimals of a foot: elevations are surveyed to 0.01 ft,
#: so a difference of two of them is exact there, and the floating-point noise (1e-14 ft) is gone.
DEPTH_DECIMALS_FT = 6


def depth_ft(h: ArrayLike | None, k_len: float = 1.0) -> np.ndarray:
    """Depths ``h`` (input units; ``k_len`` feet per unit) in feet, rounded to :data:`DEPTH_DECIMALS_FT`, for the
    comparisons with the depth thresholds (the volumes are integrated from the unrounded depths)."""
    return np.round(np.asarray(h, float) * k_len, DEPTH_DECIMALS_FT)
