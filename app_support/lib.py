"""Find the library pieces the app shows, without crashing when one is missing.

Each page names the pieces it needs (``read_survey``, ``assess``, ...); when a
piece cannot be imported the page says so in plain words
(:func:`app_support.ui.not_available`) and the other pages keep working.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

#: piece name -> (module, attribute or None for the module itself), in the
#: order they are tried.
PIECES: dict[str, tuple[tuple[str, str | None], ...]] = {
    "read_survey": (("treecalc.ingest", "read_survey"), ("treecalc", "read_survey")),
    "assess": (("treecalc.assessment", "assess"), ("treecalc", "assess")),
    "statement_bytes": (("treecalc.statement", "statement_bytes"),),
    "compute_benefits": (("treecalc.benefits", "compute_benefits"),),
    "benefit_params": (("treecalc.benefits", "BenefitParams"),),
    "water": (("treecalc.water", None),),
    "excavation": (("treecalc.excavation", None),),
    "data": (("treecalc.data", None),),
}

LABELS = {
    "read_survey": "survey reader (treecalc.ingest.read_survey)",
    "assess": "law engine (treecalc.assessment.assess)",
    "statement_bytes": "Excel statement (treecalc.statement.statement_bytes)",
    "compute_benefits": "benefit engine (treecalc.compute_benefits)",
    "benefit_params": "benefit parameters (treecalc.BenefitParams)",
    "water": "water-bill module (treecalc.water)",
    "excavation": "excavation module (treecalc.excavation)",
    "data": "bundled data (treecalc.data)",
}


@dataclass(frozen=True)
class Missing:
    """Why a piece is not available."""

    name: str
    reason: str

    @property
    def label(self) -> str:
        return LABELS.get(self.name, self.name)


def piece(name: str) -> Any:
    """The library object called ``name``, or a :class:`Missing`."""
    reasons = []
    for mod, attr in PIECES[name]:
        try:
            m = importlib.import_module(mod)
        except ModuleNotFoundError as e:
            own = e.name is not None and (mod == e.name or mod.startswith(e.name + "."))
            reasons.append(f"{mod} is not there yet" if own else f"{mod} needs {e.name}, which is missing")
            continue
        except Exception as e:  # a piece that is there but broken must not break the app
            reasons.append(f"{mod} failed to load: {type(e).__name__}: {e}")
            continue
        if attr is None:
            return m
        obj = getattr(m, attr, None)
        if obj is not None:
            return obj
        reasons.append(f"{mod} has no {attr} yet")
    return Missing(name, "; ".join(reasons))


def available(*names: str) -> list[Missing]:
    """The pieces among ``names`` that are missing (empty when all are there)."""
    return [p for p in (piece(n) for n in names) if isinstance(p, Missing)]
