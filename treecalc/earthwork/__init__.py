"""Earthwork: quantities, and the cut and fill between two surfaces by three methods. Pure method: no law.

- :mod:`~treecalc.earthwork.quantities` the unit conversions, :class:`CutFill`, :class:`PlanAreas` (keyed by
  the depth a law asks), :class:`Earthwork` (what a method measured, for a permit check);
- :mod:`~treecalc.earthwork.operation` an operation described as areas and depths, validated;
- :mod:`~treecalc.earthwork.grid` the grid (borrow-pit) method;
- :mod:`~treecalc.earthwork.end_area` the average-end-area method (prismoidal formula and correction);
- :mod:`~treecalc.earthwork.tin` two triangulated surfaces differenced exactly;
- :mod:`~treecalc.earthwork.readers` grids, cross-sections and surfaces (CSV, LandXML) read from files.

The laws that read these quantities are in each village's rules package (``treecalc/rules/<village>/
excavation.py``), routed by :mod:`treecalc.rules.excavation`.
"""

from treecalc.earthwork.end_area import EndAreaVolumes, end_area_volumes, parse_station
from treecalc.earthwork.grid import GridVolumes, grid_volumes
from treecalc.earthwork.quantities import CutFill, Earthwork, PlanAreas
from treecalc.earthwork.tin import TinVolumes, tin_volumes

__all__ = [
    "CutFill",
    "Earthwork",
    "PlanAreas",
    "GridVolumes",
    "grid_volumes",
    "EndAreaVolumes",
    "end_area_volumes",
    "parse_station",
    "TinVolumes",
    "tin_volumes",
]
