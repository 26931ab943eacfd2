"""The law's data: each jurisdiction's numbers (``data/law/<key>.toml``) and the one registry of jurisdictions.

The rules modules hold no amounts, percentages or DBH thresholds of their own:
they read them here, so an amendment is an edit of a TOML file. Money is read
as :class:`decimal.Decimal` (TOML strings or integers), never as a binary float.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from treecalc import units

#: ``law/`` of the one data folder (:data:`treecalc.units.DATA_DIR`: ``TREECALC_DATA`` when set).
LAW_DIR = units.LAW_DIR
DEFAULT_FEE_SCHEDULE = LAW_DIR / "fee_schedule.toml"

JURISDICTIONS = {
    "croton_on_hudson": "Village of Croton-on-Hudson, Chapter 208",
    "wesley_hills": "Village of Wesley Hills, Chapter 95",
}
#: How the jurisdictions are named to a user (either spelling of a key is accepted).
JURISDICTION_CHOICES = "croton-on-hudson, wesley-hills"

#: Other names people write for each jurisdiction (compared without spaces, dashes or underscores).
_ALIASES = {
    "croton": "croton_on_hudson",
    "crotononhudson": "croton_on_hudson",
    "wesleyhills": "wesley_hills",
}


def jurisdiction_key(name: str | None) -> str:
    """The one key of a jurisdiction: ``"Croton-on-Hudson"``, ``croton-on-hudson``, ``croton_on_hudson``,
    ``"Village of Croton-on-Hudson, NY"`` → ``"croton_on_hudson"``; raises ValueError if unknown.

    Every module inside treecalc (rules, ingest, excavation, water) keeps this spelling; input accepts any.
    """
    key = " ".join(re.sub(r"[\s_\-,.]+", " ", str(name or "")).strip().lower().split())
    key = re.sub(r"^(the )?(village|town) of ", "", key)
    key = re.sub(r" (ny|new york)$", "", key)
    flat = key.replace(" ", "")
    if flat in _ALIASES:
        return _ALIASES[flat]
    raise ValueError(f"unknown jurisdiction {name!r}: not one of {JURISDICTION_CHOICES}")


def read_toml(path: str | Path) -> dict[str, Any]:
    """A TOML file; one of the data folder's law files (``site_facts.toml``) is read by
    :func:`treecalc.units.read_data_toml`, which names a missing file or table and the folder."""
    p = Path(path)
    if p.parent == LAW_DIR:
        return units.read_data_toml(f"law/{p.name}", LAW_DIR.parent)
    with open(p, "rb") as f:
        return tomllib.load(f)


@functools.cache
def _law_cached(key: str) -> Mapping[str, Any]:
    return units.read_data_toml(f"law/{key}.toml", LAW_DIR.parent)


def law(jurisdiction: str) -> dict[str, Any]:
    """The law's numbers for a jurisdiction (a fresh copy: callers may not share edits)."""
    import copy

    return copy.deepcopy(dict(_law_cached(jurisdiction_key(jurisdiction))))
