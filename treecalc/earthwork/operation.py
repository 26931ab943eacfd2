"""An excavation or filling operation described as areas and depths, validated: what a permit check reads.

Each number is refused outside its plausible range (:data:`treecalc.quantities.RANGES`), naming it; work larger
than the lot is refused. Areas in square feet, depths in feet, topsoil depths in inches (exact Decimals).
No law here: the rules that read an :class:`Operation` are in the villages' packages.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from treecalc.earthwork.quantities import CU_FT_PER_CU_YD, Earthwork, fmt_sqft, inches_to_feet
from treecalc.money import nonneg
from treecalc.quantities import RANGES, bounded

__all__ = ["Operation", "operation", "MAX_AREA_SQFT", "MAX_DEPTH_FT", "MAX_DEPTH_IN", "MAX_WALL_FT", "MAX_VOLUME_CY"]

#: Bounds of every input (a number outside is refused with a message naming it).
#: (the one table of plausible ranges: :data:`treecalc.quantities.RANGES`)
MAX_AREA_SQFT = int(RANGES["earthwork_area_sqft"].high)  # 3.6 sq mi: larger than any lot this chapter governs
MAX_DEPTH_FT = int(RANGES["depth_ft"].high)
MAX_DEPTH_IN = int(RANGES["depth_in"].high)
MAX_WALL_FT = int(RANGES["wall_height_ft"].high)
#: The largest volume an input may give: the largest area at the deepest depth, in cubic yards
MAX_VOLUME_CY = MAX_AREA_SQFT * MAX_DEPTH_FT // CU_FT_PER_CU_YD


def _pairs(items: Iterable[Any] | None, name: str) -> list[tuple[Decimal, Decimal]]:
    out = []
    for i, it in enumerate(items or []):
        try:
            a, d = it
        except (TypeError, ValueError):
            raise ValueError(f"{name} {i + 1}: expected (area_sqft, depth_ft), got {it!r}") from None
        out.append((nonneg(a, f"{name} {i + 1} area_sqft"), nonneg(d, f"{name} {i + 1} depth_ft")))
    return out


@dataclass
class Operation:
    """The operation, validated: areas sq ft, depths ft, topsoil depths in; ``measured`` the cut and fill measured
    between two surfaces."""

    exc: list[tuple[Decimal, Decimal]]
    fil: list[tuple[Decimal, Decimal]]
    strip: Decimal
    strip_depth_in: Decimal | None
    lot: Decimal | None
    top: tuple[Decimal, Decimal, bool] | None
    foundations: list[tuple[Decimal, Decimal]]
    measured: Earthwork | None

    @property
    def any(self) -> bool:
        m = self.measured
        return bool(
            any(a > 0 and d > 0 for a, d in self.exc + self.fil)
            or self.strip > 0
            or (self.top and self.top[0] > 0 and self.top[1] > 0)
            or (m is not None and (m.cut_cuft > 0 or m.fill_cuft > 0))
        )

    def strip_cuft(self) -> Decimal | None:
        if self.strip == 0:
            return Decimal(0)
        return None if self.strip_depth_in is None else inches_to_feet(self.strip * self.strip_depth_in)

    def exc_cuft(self) -> Decimal:
        """Known excavation volume (topsoil stripping without a depth left out)."""
        m = self.measured.cut_cuft if self.measured else Decimal(0)
        return sum((a * d for a, d in self.exc), Decimal(0)) + (self.strip_cuft() or Decimal(0)) + m

    def topsoil_cuft(self) -> Decimal:
        return inches_to_feet(self.top[0] * self.top[1]) if self.top else Decimal(0)

    def fill_cuft(self) -> Decimal:
        m = self.measured.fill_cuft if self.measured else Decimal(0)
        return sum((a * d for a, d in self.fil), Decimal(0)) + self.topsoil_cuft() + m


def _bounded_pairs(items: Iterable[Any] | None, name: str) -> list[tuple[Decimal, Decimal]]:
    out = []
    for i, (a, d) in enumerate(_pairs(items, name)):
        out.append(
            (
                bounded(a, f"{name} {i + 1} area_sqft", 0, MAX_AREA_SQFT, unit="sq ft"),
                bounded(d, f"{name} {i + 1} depth_ft", 0, MAX_DEPTH_FT, unit="ft"),
            )
        )
    return out


def operation(
    excavations: Any,
    fills: Any,
    strip_topsoil_sqft: Any,
    strip_topsoil_depth_in: Any,
    lot_area_sqft: Any,
    topsoil_placement: Any,
    foundations: Any,
    measured: Earthwork | None,
) -> Operation:
    exc = _bounded_pairs(excavations, "excavation")
    fil = _bounded_pairs(fills, "fill")
    fnd = _bounded_pairs(foundations, "foundation")
    strip = bounded(strip_topsoil_sqft or 0, "strip_topsoil_sqft", 0, MAX_AREA_SQFT, unit="sq ft")
    sdep = (
        None
        if strip_topsoil_depth_in is None
        else bounded(strip_topsoil_depth_in, "strip_topsoil_depth_in", 0, MAX_DEPTH_IN, unit="in")
    )
    lot = None
    if lot_area_sqft is not None:
        lot = bounded(lot_area_sqft, "lot_area_sqft", 0, MAX_AREA_SQFT, lo_open=True, unit="sq ft")
    top = None
    if topsoil_placement is not None:
        try:
            ta, td, ts = topsoil_placement
        except (TypeError, ValueError):
            raise ValueError(
                f"topsoil_placement: expected (area_sqft, depth_in, seeded_and_mulched), got {topsoil_placement!r}"
            ) from None
        top = (
            bounded(ta, "topsoil_placement area_sqft", 0, MAX_AREA_SQFT, unit="sq ft"),
            bounded(td, "topsoil_placement depth_in", 0, MAX_DEPTH_IN, unit="in"),
            bool(ts),
        )
    ops = Operation(exc, fil, strip, sdep, lot, top, fnd, measured)
    _check_fits_lot(ops)
    return ops


def _check_fits_lot(o: Operation) -> None:
    """Refuse work larger than the lot (areas listed separately are read as not overlapping)."""
    if o.lot is None:
        return
    sums = {
        "the excavation, foundation and topsoil-stripping areas": sum((a for a, _ in o.exc + o.foundations), Decimal(0))
        + o.strip,
        "the fill areas": sum((a for a, _ in o.fil), Decimal(0)) + (o.top[0] if o.top else 0),
    }
    for what, total in sums.items():
        if total > o.lot:
            raise ValueError(
                f"{what} add up to {fmt_sqft(total)} sq ft, more than the lot area ({fmt_sqft(o.lot)} sq ft): "
                "check the areas and the lot area"
            )
