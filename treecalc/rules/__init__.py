"""The tree laws treecalc applies: one module per jurisdiction, numbers in ``data/law/``.

- :mod:`treecalc.rules.croton_on_hudson`: Chapter 208 (Local Law Intro. No. 4 of 2025).
- :mod:`treecalc.rules.wesley_hills`: Chapter 95, § 95-3A(1)(c)-(e) and its fines.
- :mod:`treecalc.rules.params`: the TOML loader.
"""

from treecalc.rules.params import JURISDICTIONS, jurisdiction_key, law

__all__ = ["JURISDICTIONS", "jurisdiction_key", "law"]
