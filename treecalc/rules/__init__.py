"""The tree laws treecalc applies: one module per jurisdiction, numbers in ``data/law/``.

- :mod:`treecalc.rules.croton_on_hudson`: Chapter 208 (Local Law Intro. No. 4 of 2025).
- :mod:`treecalc.rules.wesley_hills`: Chapter 95, § 95-3A(1)(c)-(e) and its fines.
- :mod:`treecalc.law.access`: the TOML loader, the names and the one key spelling
  (:func:`jurisdiction_key` accepts ``croton-on-hudson``, ``croton_on_hudson``, ``Croton on Hudson`` ...).

:func:`rules_module`: key -> the module whose ``assess(ctx)`` applies that law, as the law's record in
:mod:`treecalc.law.registry` (the one registry) names it.
"""

import importlib
from types import ModuleType

from treecalc.law.access import JURISDICTIONS, jurisdiction_key, law
from treecalc.law.registry import get


def rules_module(jurisdiction: str) -> ModuleType:
    """The rules module of a jurisdiction (any accepted spelling), as its record names it (``assess(ctx)``,
    ``SECTIONS_APPLIED``, ``READING_ITEMS``); ValueError if unknown. Imported here, in the rules, by the name the
    registry holds: the registry, below the rules, names them without importing them."""
    return importlib.import_module(get(jurisdiction).rules)


__all__ = ["JURISDICTIONS", "jurisdiction_key", "law", "rules_module"]
