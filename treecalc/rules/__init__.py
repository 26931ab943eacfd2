"""The tree laws treecalc applies: one module per jurisdiction, numbers in ``data/law/``.

- :mod:`treecalc.rules.croton_on_hudson`: Chapter 208 (Local Law Intro. No. 4 of 2025).
- :mod:`treecalc.rules.wesley_hills`: Chapter 95, § 95-3A(1)(c)-(e) and its fines.
- :mod:`treecalc.law.access`: the TOML loader, the names and the one key spelling
  (:func:`jurisdiction_key` accepts ``croton-on-hudson``, ``croton_on_hudson``, ``Croton on Hudson`` ...).

:func:`rules_module`: key -> the module whose ``assess(ctx)`` applies that law, as the law's record in
:mod:`treecalc.law.registry` (the one registry) names it.
"""

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from treecalc.law.access import JURISDICTIONS, jurisdiction_key, law
from treecalc.law.registry import get


def rules_module(jurisdiction: str) -> ModuleType:
    """The rules module of a jurisdiction (any accepted spelling), as its record names it (``assess(ctx)``,
    ``SECTIONS_APPLIED``, ``READING_ITEMS``); ValueError if unknown. Imported here, in the rules, by the name the
    registry holds: the registry, below the rules, names them without importing them."""
    # start-up: only the rules of the law assessed are loaded (and the registry below names them, cycle-free)
    return importlib.import_module(get(jurisdiction).rules)


def standalone_module(package: str, name: str) -> ModuleType:
    """Module ``name`` of rules package ``package`` (``"treecalc.rules.croton_on_hudson"``, ``"ch223_water"``),
    imported without running the package's ``__init__`` when the package is not imported yet.

    Croton's package ``__init__`` is Chapter 208: it imports pandas and every section module (~0.5 s of CPU), and
    the water and meter modules of Chapter 223 need none of it (they import only the law, money and dates). The
    module is the same object the package would give: kept in ``sys.modules`` under its full name, so a later
    ``import`` of the package finds it there (``from package import name`` and pickling work as before). Only
    for a module that imports nothing of its own package: its imports run as written, so one that did would
    import the package anyway (correct, only slower)."""
    full = f"{package}.{name}"
    if full in sys.modules:
        return sys.modules[full]
    if package in sys.modules:
        return importlib.import_module(full)  # start-up: the one module asked for
    parent = importlib.util.find_spec(package)  # imports the package's parents, not the package
    locations = (parent.submodule_search_locations if parent is not None else None) or ()
    path = next((Path(p) / f"{name}.py" for p in locations if (Path(p) / f"{name}.py").is_file()), None)
    spec = importlib.util.spec_from_file_location(full, path) if path else None
    if spec is None or spec.loader is None:
        raise ImportError(f"no module {full}")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[full] = mod
    try:
        spec.loader.exec_module(mod)
    except BaseException:
        sys.modules.pop(full, None)
        raise
    return mod


__all__ = ["JURISDICTIONS", "jurisdiction_key", "law", "rules_module", "standalone_module"]
