"""Towns held as data alone: a law of a replacement family that treecalc already applies needs no Python.

A town is its law file (``law/<key>/<chapter>.toml``: the numbers, each quoting the ordinance) and its readings
(``readings/<key>.toml``) whose ``[record]`` names the family, the town, the chapter, the sections the reports
head each part with, and whose ``[[not_held]]`` says what of the ordinance treecalc has not read (an output
says "not held for <town>: see <section>" and gives no amount for it). Every readings file of the data folder
with a ``[record]`` is registered when treecalc reads the law; a folder shaped as the data folder and held
elsewhere (a town of the tests, a consultant's own) is named in ``TREECALC_TOWNS`` (folders joined by
``os.pathsep``), so that a child process reading a survey knows it too.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from treecalc.law import registry
from treecalc.law.loader import effective
from treecalc.reference import datafolder

__all__ = ["FAMILIES", "TOWNS_ENV", "family_of", "not_held", "read_folder", "record_of", "summary"]

#: Each replacement family -> the module whose ``assess(ctx)`` applies any town of it, and what it is.
FAMILIES: dict[str, tuple[str, str]] = {
    "count_by_class": (
        "treecalc.rules.families.count_by_class",
        "replacement trees by DBH class, a fee per tree in lieu",
    ),
    "share_of_value": (
        "treecalc.rules.families.share_of_value",
        "replacement trees carrying a share of the environmental value removed, the rest paid in lieu",
    ),
    "caliper_inches": (
        "treecalc.rules.families.caliper_inches",
        "the DBH removed times a percentage in caliper inches, met by trees of a minimum caliper, a fee in lieu",
    ),
}
#: The families of the chapters applied by their own rules packages (their records predate families).
_OWN_RULES = {
    "croton_on_hudson": "share_of_value",  # Chapter 208: replacement at a share of the environmental value removed
    "wesley_hills": "no_replacement",  # Chapter 95: a clearing permit and fines, no replacement
}
TOWNS_ENV = "TREECALC_TOWNS"
_folders_read: set[str] = set()


def _readings(folder: Path, key: str) -> dict[str, Any]:
    with open(folder / "readings" / f"{key}.toml", "rb") as f:
        return tomllib.load(f)


def record_of(key: str, readings: dict[str, Any], data_dir: Path | None) -> registry.Jurisdiction:
    """The registry's record of a town from its readings' ``[record]``; ValueError naming the file's gap."""
    rec = readings.get("record") or {}
    where = f"readings/{key}.toml [record]"
    family = rec.get("family")
    if family not in FAMILIES:
        raise ValueError(f"{where}: family {family!r} is not one of {', '.join(FAMILIES)}")
    for k in ("name", "chapter", "law_file"):
        if not isinstance(rec.get(k), str) or not rec[k].strip():
            raise ValueError(f"{where}: lacks {k}")
    sections = dict(rec.get("sections") or {})
    return registry.Jurisdiction(
        key=key,
        name=rec["name"],
        chapter=rec["chapter"],
        rules=FAMILIES[family][0],
        family=family,
        aliases=tuple(rec.get("aliases") or ()),
        options=dict(rec.get("options") or {}),
        lacks=rec.get("lacks", ""),
        site_facts=tuple(readings.get("site_why") or ()),
        survey_flags=tuple(rec.get("survey_flags") or ()),
        chapters={"trees": rec["chapter"]},
        fund_name=rec.get("fund_name", ""),
        law_files=(rec["law_file"],),
        data_dir=data_dir,
        permit_item=rec.get("permit_item", "Permit required"),
        sections=sections,
        value_section=rec.get("value_section", ""),
    )


def read_folder(folder: Path, held_elsewhere: bool = True) -> bool:
    """Register every town of a folder shaped as the data folder (``readings/<key>.toml`` with a ``[record]``)
    not registered yet; whether any was."""
    added = False
    for path in sorted((folder / "readings").glob("*.toml")):
        key = path.stem
        if key in registry.REGISTRY:
            continue
        readings = _readings(folder, key)
        if "record" not in readings:
            continue
        registry.register(record_of(key, readings, folder if held_elsewhere else None))
        added = True
    return added


def _read_env() -> bool:
    added = False
    for folder in filter(None, os.environ.get(TOWNS_ENV, "").split(os.pathsep)):
        if folder not in _folders_read:
            _folders_read.add(folder)
            added = read_folder(Path(folder)) or added
    return added


def family_of(key: str) -> str:
    """The replacement family of a registered law."""
    return registry.by_key(key).family or _OWN_RULES.get(key, "")


def not_held(key: str) -> list[dict[str, str]]:
    """What of a town's ordinance treecalc has not read (``what``, ``section``, ``why``); [] for a chapter held whole."""
    record = registry.by_key(key)
    if not record.family:
        return []
    folder = record.data_dir or datafolder.DATA_DIR
    return [dict(n) for n in _readings(Path(folder), key).get("not_held", [])]


def summary(key: str) -> dict[str, Any]:
    """A law as ``treecalc jurisdictions`` lists it: key, name, family, chapter, effective date (and whether that
    date is a placeholder; with none held, the date the text was read, from which it is answered), what is not
    held."""
    record = registry.by_key(key)
    eff = effective(key)
    return {
        "key": key,
        "name": record.name,
        "family": family_of(key),
        "chapter": record.chapter,
        "effective": eff["date"].isoformat() if eff["date"] is not None else None,
        # a date the law file holds only as a stand-in (Croton-on-Hudson's filing date is not in its text)
        "effective_placeholder": eff["date"] is not None and bool(eff["placeholder"]),
        # with no date held, the day the text was read: no earlier date is answered (an earlier version may differ)
        "held_from": eff["read"].isoformat() if eff["date"] is None and eff.get("read") is not None else None,
        "not_held": [f"{n['what']}: see {n['section']}" for n in not_held(key)],
    }


read_folder(Path(datafolder.DATA_DIR), held_elsewhere=False)
registry.RECORD_SOURCES.append(_read_env)
_read_env()
