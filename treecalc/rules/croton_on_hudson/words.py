"""How the law's numbers are written in Chapter 208's sentences: dollars and percentages as the ordinance writes
them, counts spelt out. The numbers themselves are the law in force that each sentence is given (none is read here).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from treecalc.law import access as _access


def _usd(x: Any) -> str:
    """$5,000 (whole dollars as the ordinance writes them), $1,234.50 otherwise."""
    v = Decimal(str(x))
    return f"${v:,.0f}" if v == v.to_integral_value() else f"${v:,.2f}"


def _pct(x: Any) -> str:
    return f"{float(x):g}%"


def _years(n: Any, adjective: bool = False) -> str:
    """A period in years as the ordinance says it: "one year", "three years" ("one-year" as an adjective)."""
    return _access.spelled_years(n, adjective)


def _inches(x: Any) -> str:
    """A DBH bound as §208-29B writes it: "eight inches" (a whole number under ten spelt out), "12 inches",
    "5.5 inches"."""
    v = float(x)
    return f"{_words(v) if v.is_integer() and v < 10 else f'{v:g}'} inches"


def _tier_bounds(law: dict[str, Any]) -> str:
    """§208-29B(1)/(2)'s words for the bound between them, filled from ``law``: "('up to and including eight
    inches', 'greater than eight inches')"."""
    bound = _inches(law["penalty"]["tier1_max_dbh_in"])
    return f"('up to and including {bound}', 'greater than {bound}')"


def _words(n: Any) -> str:
    """A count as the ordinance spells it ("three"), digits past twelve."""
    return _access.spelled(n)
