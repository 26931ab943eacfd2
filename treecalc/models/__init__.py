"""The science, pure and vectorised: one module per model, each a function of arrays with its units in its
parameters' names and its references in its docstring (as pvlib's are).

- :mod:`~treecalc.models.benefits`: :func:`~treecalc.models.benefits.compute_benefits`, the i-Tree Streets / NTBC
  benefits of every tree (its tables: :mod:`~treecalc.models.benefit_tables`; its disclosures:
  :mod:`~treecalc.models.benefit_notes`, :mod:`~treecalc.models.disclosures`);
- :mod:`~treecalc.models.itree_streets`, :mod:`~treecalc.models.property_value`: the resource units and their prices;
- :mod:`~treecalc.models.growth`, :mod:`~treecalc.models.projection`: growth, mortality and the 20-year projection;
- :mod:`~treecalc.models.appraisal`, :mod:`~treecalc.models.appraisal10`, :mod:`~treecalc.models.valuation`: the CTLA
  trunk formula (9th and 10th editions) and the value bases the law reads;
- :mod:`~treecalc.models.planting`: the replacement plan's method; :mod:`~treecalc.models.equivalents`: the everyday
  equivalents of a year's benefits.
"""
