"""Reference tables: the species (:mod:`~treecalc.reference.species`), the climate zones and their geometry
(:mod:`~treecalc.reference.data`, :mod:`~treecalc.reference.geo`), the one data folder they are read from
(:mod:`~treecalc.reference.datafolder`) and the cache of its tables as arrays
(:mod:`~treecalc.reference.table_cache`)."""
