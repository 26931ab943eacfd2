"""The law as dated data: the schema of ``data/law/<village>/<chapter>.toml`` and its one loader.

- :mod:`treecalc.law.schema`: what an entry (a number of the law) and a bracket (a table of rows, the
  §208-29B tiers) are, the range each unit allows, and :func:`~treecalc.law.schema.validate` over one file (run on
  every law file when it is read);
- :mod:`treecalc.law.nodes`: :func:`~treecalc.law.nodes.at`, the law in force on a date as typed nodes
  (``at("croton_on_hudson", on).replacement.percent`` is an :class:`~treecalc.law.schema.Entry`), and
  :func:`~treecalc.law.nodes.readings`, treecalc's own readings of ``data/readings/<village>.toml`` apart from it;
- :mod:`treecalc.law.loader`: the files of each village, the version in force on a date
  (:func:`~treecalc.law.loader.resolved`, the plain numbers the rules read;
  :func:`~treecalc.law.loader.entries`, the entries by dotted key);
- :mod:`treecalc.law.numbers`: a companion chapter's numbers as exact decimals (Ch. 223, the excavation chapters);
- :mod:`treecalc.law.access`: the rules' plain reads (:func:`~treecalc.law.access.law`), the labels that quote a
  number, the comparisons the entries state and the registry's names.
"""

from treecalc.law import loader
from treecalc.law import towns as towns  # registers the towns held as data alone
from treecalc.law.loader import *  # noqa: F403 (the loader's names, listed once: its __all__)
from treecalc.law.nodes import MissingEntry, Node, at, readings
from treecalc.law.schema import Bracket, Entry, LawSchemaError, validate

__all__ = loader.__all__ + ["Bracket", "Entry", "LawSchemaError", "MissingEntry", "Node", "at", "readings", "validate"]
