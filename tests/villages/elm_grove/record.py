"""Elm Grove's jurisdiction record: all treecalc is told of the village (its rules package, ``elm_grove``, and
its data folder beside this file). Read through ``TREECALC_JURISDICTIONS`` (its ``RECORDS``)."""

from __future__ import annotations

import sys
from pathlib import Path

from treecalc.law.registry import Jurisdiction

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:  # the rules package, ``elm_grove``, is this file's folder
    sys.path.insert(0, str(HERE.parent))

ELM_GROVE = Jurisdiction(
    key="elm_grove",
    name="Village of Elm Grove, Chapter 7",
    chapter="Elm Grove Chapter 7",
    rules="elm_grove",
    site_facts=("village_work", "permit_held"),
    chapters={"trees": "Elm Grove Chapter 7"},
    law_files=("ch7_trees",),
    data_dir=HERE / "data",
    permit_item="Tree permit required",
    sections={"permit": "§7-2"},
)
RECORDS = [ELM_GROVE]
