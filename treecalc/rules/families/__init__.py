"""The replacement families: one implementation each, applying any town whose data folder names it
(:data:`treecalc.law.towns.FAMILIES`).

- :mod:`treecalc.rules.families.count_by_class`: replacement trees by DBH class, a fee per tree in lieu (the NJ
  tree removal / replacement ordinances: Milltown Chapter 201, Manalapan Chapter 222).
"""
