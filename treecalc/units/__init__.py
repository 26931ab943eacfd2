"""The companions' numbers of the law (:mod:`treecalc.units.law_numbers`), on their way into :mod:`treecalc.law`."""
