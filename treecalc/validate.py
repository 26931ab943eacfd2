"""Checks of numbers given by a user (flags, parameters, site facts), with messages that name them."""

from __future__ import annotations

import math
from typing import Any


def number(name: str, value: Any, *, low: float | None = None, high: float | None = None,
           strict: bool = False, whole: bool = False) -> float:
    """``value`` as a finite float within bounds, else a ``ValueError`` naming ``name``.

    ``low`` is inclusive unless ``strict``; ``high`` is inclusive; ``whole``
    asks for a whole number. Booleans are refused (``True`` is not a count).
    """
    try:
        if isinstance(value, bool):
            raise TypeError
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a {'whole ' if whole else ''}number, got {value!r}") from None
    if not math.isfinite(v):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    if whole and v != int(v):
        raise ValueError(f"{name} must be a whole number, got {value!r}")
    kind = "a whole number " if whole else ""
    if low is not None and (v <= low if strict else v < low):
        raise ValueError(f"{name} must be {kind}{'greater than' if strict else 'at least'} {low:g}, got {v:g}")
    if high is not None and v > high:
        raise ValueError(f"{name} must be {kind}at most {high:g}, got {v:g}")
    return v
