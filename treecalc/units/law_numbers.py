"""A number of the law with its unit and section, read from ``data/law/*.toml`` (each entry
``{value, unit, section, text}``, or ``values`` keyed by the date each took effect)."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from typing import Any

from treecalc.reference.datafolder import LAW_DIR, read_data_toml


@dataclass(frozen=True)
class LawNumber:
    """One number of the law: its value, unit, section and the words it comes from."""

    value: Decimal
    unit: str
    section: str
    text: str = ""

    def __str__(self) -> str:
        return f"{self.value.normalize():f} {self.unit} ({self.section})"


@cache
def load_law_numbers(filename: str) -> dict[str, LawNumber]:
    """The numbers in ``data/law/<filename>``: every table with ``value`` (or ``values`` keyed by the date each took
    effect: the one in force today, these chapters' commands having no date of their own), ``unit`` and ``section``.

    Raises ValueError naming the file and key if an entry lacks one of them.
    """
    path = LAW_DIR / filename
    raw = read_data_toml(f"law/{filename}", LAW_DIR.parent)
    out: dict[str, LawNumber] = {}
    for key, entry in raw.items():
        if not isinstance(entry, dict) or key == "effective":
            continue
        missing = [k for k in ("unit", "section") if k not in entry]
        if "value" not in entry and "values" not in entry:
            missing.insert(0, "value")
        if missing:
            raise ValueError(f"{path.name}: [{key}] lacks {', '.join(missing)}")
        value = entry["value"] if "value" in entry else _value_today(entry["values"], f"{path.name}: [{key}]")
        out[key] = LawNumber(Decimal(str(value)), str(entry["unit"]), str(entry["section"]), str(entry.get("text", "")))
    return out


def _value_today(values: Any, where: str) -> Any:
    """Of a table keyed by the ISO date each value took effect, the one in force today."""
    try:
        dated = sorted((_dt.date.fromisoformat(str(k)), v) for k, v in dict(values).items())
    except (TypeError, ValueError):
        raise ValueError(f"{where}: values must be a table keyed by dates YYYY-MM-DD") from None
    today = _dt.date.today()
    held = [v for d, v in dated if d <= today]
    if not held:
        raise ValueError(
            f"{where}: no value in force today ({today.isoformat()}): the earliest takes effect {dated[0][0]}"
        )
    return held[-1]
