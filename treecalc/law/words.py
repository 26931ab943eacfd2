"""How the law's numbers are written in its sentences: counts and periods spelt out as an ordinance writes them, and
the readings' sentences of the site facts (``[site_why]``) filled from the law in force. Standard library only: the
survey reader and the rules both state the site facts' assumptions in these words.
"""

from __future__ import annotations

from typing import Any

_COUNT_WORDS = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
)


def spelled(n: Any) -> str:
    """A count as an ordinance spells it ("three"), digits past twelve."""
    k = int(n)
    return _COUNT_WORDS[k] if 0 <= k < len(_COUNT_WORDS) else str(k)


def spelled_years(n: Any, adjective: bool = False) -> str:
    """A period in years as an ordinance says it: "one year", "three years" ("one-year" as an adjective)."""
    if adjective:
        return f"{spelled(n)}-year"
    return f"{spelled(n)} year" + ("" if int(n) == 1 else "s")


def period_words(law: dict[str, Any]) -> dict[str, str]:
    """The law's periods in years in words, by the entry's name without ``_years`` (``criminal.repeat_window_years``
    1 -> ``{repeat_window}`` "one year"): the words a readings sentence quotes a period in."""
    return {
        k.removesuffix("_years"): spelled_years(v)
        for part in law.values()
        if isinstance(part, dict)
        for k, v in part.items()
        if k.endswith("_years") and isinstance(v, int) and not isinstance(v, bool)
    }


def site_why(law: dict[str, Any], readings: dict[str, Any]) -> dict[str, str]:
    """Why each site fact not given is assumed as it is, in the chapter's words (``[site_why]`` of its ``readings``),
    filled from the law in force (``law``: its numbers, its periods in words: :func:`period_words`).
    The law engine states its assumptions in these words, and so does a survey read before it is assessed."""
    words = {**law, **period_words(law)}
    return {k: v.format_map(words) for k, v in (readings.get("site_why") or {}).items()}
