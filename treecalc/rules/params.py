"""Load the law's numbers from ``data/law/*.toml``.

The rules modules hold no amounts, percentages or DBH thresholds of their own:
they read them here, so an amendment is an edit of a TOML file. Money is read
as :class:`decimal.Decimal` (TOML strings or integers), never as a binary float.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from treecalc import data

LAW_DIR = data.DATA_DIR / "law"
DEFAULT_FEE_SCHEDULE = LAW_DIR / "fee_schedule.toml"

JURISDICTIONS = {
    "croton_on_hudson": "Village of Croton-on-Hudson, Chapter 208",
    "wesley_hills": "Village of Wesley Hills, Chapter 95",
}
_ALIASES = {
    "croton": "croton_on_hudson",
    "croton on hudson": "croton_on_hudson",
    "croton-on-hudson": "croton_on_hudson",
    "croton_on_hudson": "croton_on_hudson",
    "village of croton-on-hudson": "croton_on_hudson",
    "wesley hills": "wesley_hills",
    "wesley_hills": "wesley_hills",
    "wesley-hills": "wesley_hills",
    "village of wesley hills": "wesley_hills",
}


def jurisdiction_key(name: str | None) -> str:
    """``"Croton-on-Hudson"`` → ``"croton_on_hudson"``; raises ValueError if unknown."""
    key = " ".join(str(name or "").strip().lower().replace("_", " ").split())
    for cand in (key, key.replace(" ", "_"), key.replace(" ", "-")):
        if cand in _ALIASES:
            return _ALIASES[cand]
    raise ValueError(f"unknown jurisdiction {name!r}: use one of {', '.join(JURISDICTIONS)}")


def read_toml(path: str | Path) -> dict[str, Any]:
    with open(path, "rb") as f:
        return tomllib.load(f)


@functools.cache
def _law_cached(key: str) -> Mapping[str, Any]:
    return read_toml(LAW_DIR / f"{key}.toml")


def law(jurisdiction: str) -> dict[str, Any]:
    """The law's numbers for a jurisdiction (a fresh copy: callers may not share edits)."""
    import copy

    return copy.deepcopy(dict(_law_cached(jurisdiction_key(jurisdiction))))


def money(value: Any, what: str = "amount") -> Decimal:
    """An exact dollar amount from a TOML/CLI value (``"450.00"``, ``450``, ``450.5``)."""
    if isinstance(value, bool):
        raise ValueError(f"{what}: expected an amount in USD, got {value!r}")
    try:
        d = Decimal(str(value).strip().replace(",", "").lstrip("$"))
    except (InvalidOperation, AttributeError):
        raise ValueError(f"{what}: expected an amount in USD, got {value!r}") from None
    if not d.is_finite() or d < 0:
        raise ValueError(f"{what}: expected a non-negative amount in USD, got {value!r}")
    return d
