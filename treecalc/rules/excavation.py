"""The excavation and filling chapters: the one entry point of the permit check, routed to the law's rules.

:func:`check_permit` validates the operation (:func:`treecalc.earthwork.operation.operation`), refuses an input
only another law reads, and calls ``check`` of the law's excavation module (``<its rules package>.excavation``:
:mod:`treecalc.rules.croton_on_hudson.excavation`, :mod:`treecalc.rules.wesley_hills.excavation`).
The volumes are :mod:`treecalc.earthwork`'s; :func:`volume_between_files` reports the plan areas at the depths
the laws measure (:func:`plan_depths_ft`). The command line and the app call the names here.
"""

from __future__ import annotations

import datetime as _dt
import importlib
from collections.abc import Iterable
from os import PathLike
from types import ModuleType
from typing import Any

from treecalc.earthwork import readers
from treecalc.earthwork.end_area import EndAreaVolumes, end_area_volumes, parse_station
from treecalc.earthwork.grid import GridVolumes, grid_volumes
from treecalc.earthwork.operation import (
    MAX_AREA_SQFT,
    MAX_DEPTH_FT,
    MAX_DEPTH_IN,
    MAX_VOLUME_CY,
    MAX_WALL_FT,
    operation,
)
from treecalc.earthwork.quantities import CU_FT_PER_CU_YD, M3_PER_CU_YD, Earthwork
from treecalc.earthwork.readers import (
    end_area_volumes_from_frame,
    grid_volumes_from_frame,
    read_points,
    volume_from_grid_csv,
    volume_from_sections_csv,
)
from treecalc.earthwork.tin import TinVolumes, tin_volumes
from treecalc.law import registry as jurisdictions
from treecalc.law.access import jurisdiction_key
from treecalc.law.numbers import law_on
from treecalc.quantities import to_date
from treecalc.rules.croton_on_hudson.excavation import (
    LAW,
    permit_term_check,
    review_standards,
    tree_survey_required,
    violation_penalties,
    work_time_allowed,
    work_time_check,
)
from treecalc.rules.excavation_check import PermitCheck, PermitTerm
from treecalc.rules.wesley_hills.excavation import (
    WesleyHillsCheck,
    wesley_hills_building_permit_check,
    wesley_hills_slope_check,
    wesley_hills_topsoil_cy,
    wesley_hills_waiver,
    wesley_hills_waiver_eligible,
)

__all__ = [  # sorted: the names the command line, the app and the tests call
    "CU_FT_PER_CU_YD",
    "Earthwork",
    "EndAreaVolumes",
    "GridVolumes",
    "LAW",
    "M3_PER_CU_YD",
    "MAX_AREA_SQFT",
    "MAX_DEPTH_FT",
    "MAX_DEPTH_IN",
    "MAX_VOLUME_CY",
    "MAX_WALL_FT",
    "PermitCheck",
    "PermitTerm",
    "TinVolumes",
    "WesleyHillsCheck",
    "chapter",
    "check_permit",
    "end_area_volumes",
    "end_area_volumes_from_frame",
    "excavation_law",
    "grid_volumes",
    "grid_volumes_from_frame",
    "one_law_input",
    "one_law_inputs",
    "parse_station",
    "permit_term_check",
    "plan_depths_ft",
    "read_points",
    "review_standards",
    "tin_volumes",
    "tree_survey_required",
    "violation_penalties",
    "volume_between_files",
    "volume_from_grid_csv",
    "volume_from_sections_csv",
    "wesley_hills_building_permit_check",
    "wesley_hills_slope_check",
    "wesley_hills_topsoil_cy",
    "wesley_hills_waiver",
    "wesley_hills_waiver_eligible",
    "work_time_allowed",
    "work_time_check",
]

#: The inputs a law may not read: given for another law, refused; the others (which the app passes for either
#: law) are said in the notes.
_REFUSED = ("term", "cellar")
_NOTED = ("retaining_wall_height_ft", "lot_area_sqft")


def excavation_law(name: str | None) -> str:
    """The key of the law ``name`` (any accepted spelling) when its record has an excavation chapter; a law without
    one (a tree chapter only) is refused naming those that have one, never looked for rules it does not have."""
    laws = jurisdictions.with_chapter("excavation")
    having = ", ".join(r.user_spelling for r in laws)
    try:
        key = jurisdiction_key(name)
    except ValueError:
        raise ValueError(f"unknown jurisdiction {name!r}: the laws with an excavation chapter are {having}") from None
    if key not in {r.key for r in laws}:
        raise ValueError(
            f"{jurisdictions.by_key(key).user_spelling} has no excavation chapter in treecalc: "
            f"the laws with one are {having}"
        )
    return key


def chapter(key: str) -> ModuleType:
    """The excavation rules of the law ``key`` (its record's rules package, module ``excavation``)."""
    # start-up: only the excavation rules of the law asked for are loaded
    return importlib.import_module(f"{jurisdictions.by_key(excavation_law(key)).rules}.excavation")


def plan_depths_ft() -> tuple[float, ...]:
    """Any depth (0) and every depth a law's excavation chapter measures plan areas deeper than (its
    ``PLAN_DEPTHS_FT``), for the volumes' reports."""
    depths = {0.0}
    for r in jurisdictions.REGISTRY.values():
        if "excavation" in r.chapters:
            depths.update(getattr(chapter(r.key), "PLAN_DEPTHS_FT", ()))
    return tuple(sorted(depths))


def volume_between_files(
    existing: str | PathLike[str], proposed: str | PathLike[str], *, metric: bool = False
) -> TinVolumes:
    """:func:`treecalc.earthwork.readers.volume_between_files`, the plan areas reported at the laws' depths."""
    return readers.volume_between_files(existing, proposed, metric=metric, depths_ft=plan_depths_ft())


def one_law_inputs() -> dict[str, tuple[str, str, str]]:
    """Inputs of :func:`check_permit` that one law reads and another does not, as each law's record declares
    them (:attr:`treecalc.law.registry.Jurisdiction.excavation_inputs`): name -> (the law that reads it, its
    section and what it decides). Given for another law, ``term`` and ``cellar`` are refused (ValueError:
    :func:`one_law_input`); the retaining wall and the lot area, which the app passes for either law, are said
    in the notes. The command line refuses all four (exit 2), naming the flag."""
    out = {}
    for r in jurisdictions.REGISTRY.values():
        for name, (entry, what) in r.excavation_inputs.items():
            number = chapter(r.key).LAW[entry]  # "{value}" in the words: the entry's number, from the data
            out[name] = (r.key, number.section, what.format(value=f"{number.value.normalize():f}"))
    return out


def one_law_input(name: str, jurisdiction: str, shown: str = "", refused: bool = True) -> str:
    """Why input ``name`` (shown as ``shown``: a flag) is not read under ``jurisdiction`` (a key); ``""`` if it is.

    ``refused``: the words of an error (leave it out, or choose the other law), else those of a note.
    """
    law_key, section, what = one_law_inputs()[name]
    if law_key == jurisdiction:
        return ""
    reader, own = jurisdictions.by_key(law_key), jurisdictions.by_key(jurisdiction)
    if refused:
        other = f"give ‹jurisdiction› {reader.user_spelling}" if shown.startswith("--") else f"use {law_key!r}"
        outcome = f"it would not be used; leave it out, or {other}"
    else:
        outcome = "it is not used"
    return (
        f"{shown or name} is a {reader.chapters['excavation']} input ({section}: {what}): "
        f"{own.chapters['excavation']} does not read it, so {outcome}"
    )


def check_permit(
    excavations: Iterable[tuple[Any, Any]] | None = None,
    fills: Iterable[tuple[Any, Any]] | None = None,
    strip_topsoil_sqft: Any = 0,
    lot_area_sqft: Any = None,
    topsoil_placement: tuple[Any, Any, bool] | None = None,
    jurisdiction: str = "croton_on_hudson",
    *,
    strip_topsoil_depth_in: Any = None,
    foundations: Iterable[tuple[Any, Any]] | None = None,
    retaining_wall_height_ft: Any = None,
    measured: Earthwork | None = None,
    cellar: tuple[Any, Any, Any] | None = None,
    term: PermitTerm | None = None,
    on: _dt.date | None = None,
) -> PermitCheck:
    """Say whether an excavation and filling permit is required, which items hold, and what is unknown.

    Parameters
    ----------
    excavations, fills : iterable of (area_sqft, depth_ft)
        Each excavation (cut) or fill area (square feet) and its depth (feet).
    strip_topsoil_sqft, strip_topsoil_depth_in : number
        Area where topsoil is stripped (sq ft) and its depth (inches; None = not given).
    lot_area_sqft : number, optional
        Area of the property (sq ft), for the half-the-lot test of §120-3A(3).
    topsoil_placement : (area_sqft, depth_in, seeded_and_mulched), optional
        Topsoil to be placed.
    jurisdiction : {'croton_on_hudson', 'wesley_hills'} (``croton-on-hudson`` etc. accepted)
    foundations : iterable of (area_sqft, depth_ft), optional
        Excavation for a foundation under a building permit (§120-3B).
    retaining_wall_height_ft : number, optional
        Height of a retaining wall to be built (§120-8M: over 4 ft needs a building permit).
    measured : Earthwork, optional
        Cut and fill measured between two surfaces (:meth:`TinVolumes.earthwork`, ...).
    cellar : (length_ft, width_ft, depth_ft), optional
        Wesley Hills: cellar and foundation of the building permit (§95-3C(1)).
    term : PermitTerm, optional
        The permit's dates, for its term and idle time (§120-10A).
    on : datetime.date, optional
        The date of the application or of the work: the chapter in force then is applied (default: the permit's
        issue date when ``term`` is given, else today).

    Returns
    -------
    PermitCheck
        ``permit_required`` True, False or "unknown" (with ``missing_facts``), the rules with their
        sections, the volumes, exemptions, review standards and readings.

    Raises
    ------
    ValueError
        A number out of its range (named), work larger than the lot, an unknown jurisdiction.

    References
    ----------
    .. [1] Croton-on-Hudson Code §120-2, §120-3A, §120-3B, §120-8, §120-10A; Wesley Hills Code
       §95-3A(1), §95-3C(1), §95-3D(1).
    """
    jur = excavation_law(jurisdiction)
    o = operation(
        excavations,
        fills,
        strip_topsoil_sqft,
        strip_topsoil_depth_in,
        lot_area_sqft,
        topsoil_placement,
        foundations,
        measured,
    )
    given = {"term": term, "cellar": cellar}
    for name in _REFUSED:  # never silently dropped (the app passes neither to the other law)
        why = one_law_input(name, jur) if given[name] is not None else ""
        if why:
            raise ValueError(why)
    if on is None and term is not None:
        on = to_date(term.issued, "permit_issued")
    with law_on(on):  # the chapter in force on the date concerned, never the one read when the module was imported
        r = chapter(jur).check(o, retaining_wall_height_ft=retaining_wall_height_ft, term=term, cellar=cellar)
    noted = {"retaining_wall_height_ft": retaining_wall_height_ft, "lot_area_sqft": lot_area_sqft}
    r.notes.extend(n for n in (one_law_input(k, jur, refused=False) for k in _NOTED if noted[k] is not None) if n)
    return r
