"""The replacement families: one implementation each, applying any town whose data folder names it
(:data:`treecalc.law.towns.FAMILIES`).

- :mod:`treecalc.rules.families.count_by_class`: replacement trees by DBH class, a fee per tree in lieu (the NJ
  tree removal / replacement ordinances: Milltown Chapter 201, Manalapan Chapter 222).
- :mod:`treecalc.rules.families.caliper_inches`: the DBH removed times a percentage, in caliper inches met by trees of
  a minimum caliper, a fee per caliper inch or per tree in lieu (La Grange Park, IL, § 95.23(I)).
"""
