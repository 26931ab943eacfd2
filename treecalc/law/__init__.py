"""The law as dated data: the schema of ``data/law/<village>/<chapter>.toml`` and its loader.

- :mod:`treecalc.law.schema`: what an entry (a number of the law) and a bracket (a table of rows, the
  §208-29B tiers) are, and :func:`~treecalc.law.schema.validate` over one file;
- :mod:`treecalc.law.loader`: the files of each village, the version in force on a date
  (:func:`~treecalc.law.loader.resolved`, the plain numbers the rules read, merged with treecalc's
  own readings of ``data/readings/<village>.toml``; :func:`~treecalc.law.loader.entries`, the
  entries with unit, section and text for the sentences that cite them).
"""

from treecalc.law import loader
from treecalc.law.loader import *  # noqa: F403 (the loader's names, listed once: its __all__)
from treecalc.law.schema import Bracket, Entry, LawSchemaError, validate

__all__ = loader.__all__ + ["Bracket", "Entry", "LawSchemaError", "validate"]
