"""The law's data: each jurisdiction's numbers (``data/law/<key>.toml``) and the one registry of jurisdictions.

The rules modules hold no amounts, percentages or DBH thresholds of their own:
they read them here, so an amendment is an edit of a TOML file. Money is read
as :class:`decimal.Decimal` (TOML strings or integers), never as a binary float.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from treecalc import jurisdictions as _registry
from treecalc import units

#: ``law/`` of the one data folder (:data:`treecalc.units.DATA_DIR`: ``TREECALC_DATA`` when set).
LAW_DIR = units.LAW_DIR
DEFAULT_FEE_SCHEDULE = LAW_DIR / "fee_schedule.toml"

#: Each registered law's key -> its name (the records: :mod:`treecalc.jurisdictions`).
JURISDICTIONS = _registry.NamesView()
#: How the jurisdictions are named to a user (either spelling of a key is accepted).
JURISDICTION_CHOICES = _registry.choices()
jurisdiction_key = _registry.jurisdiction_key


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
    if _registry.by_key(key).law_dir is not None:  # a village held outside the data folder reads its own
        with open(law_file(key), "rb") as f:
            return tomllib.load(f)
    return units.read_data_toml(f"law/{key}.toml", LAW_DIR.parent)


def law_file(jurisdiction: str) -> Path:
    """The file of a jurisdiction's tree chapter (``data/law/croton_on_hudson.toml``; a village held outside
    the data folder: the one in its record's ``law_dir``)."""
    key = jurisdiction_key(jurisdiction)
    held = _registry.by_key(key).law_dir
    return (Path(held) if held is not None else LAW_DIR) / f"{key}.toml"


def law(jurisdiction: str) -> dict[str, Any]:
    """The law's numbers for a jurisdiction (a fresh copy: callers may not share edits)."""
    import copy

    return copy.deepcopy(dict(_law_cached(jurisdiction_key(jurisdiction))))
