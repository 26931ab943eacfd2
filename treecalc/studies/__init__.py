"""Studies that run the assessment many times: the cheapest lawful removal plan (:mod:`~treecalc.studies.plan`,
:mod:`~treecalc.studies.plan_regimes`) and the benefits of a state-wide inventory (:mod:`~treecalc.studies.batch`)."""
