"""§208-29B(7)'s pending clause on the definite maximum must rest on facts given.

The reading (docs/readings.md): one tree harmed while an application was pending is not doubled by itself;
the clause doubles when "a tree harmed while pending broke another provision too". When that other provision
is the §208-19A(2) permit trigger resting on parcel facts NOT given (assumed), the doubling rests on an
assumed fact: it belongs with the conditional amounts, not in ``civil_penalty_max_usd`` ("definite offences
only (facts given)", treecalc.results.Penalties), and the literal reading's figure is then the one to weigh.
"""

from test_croton_offences import STOCK, survey

from treecalc.assessment import assess


def test_pending_doubling_on_an_assumed_permit_trigger_is_conditional():
    # ACRU 10 in removed while an application was pending, no parcel facts given:
    # §208-20F (definite, pending given): tier (2) $1,500.
    # §208-19A(2) needs subdividable / has_residence / site_plan_required, all assumed -> conditional breach.
    # Definite maximum: $1,500 (not doubled on an assumed fact); the doubling, if the parcel facts hold,
    # adds $1,500 to the conditional amount; the literal reading's figure 2 x $1,500 = $3,000 is given.
    one = [{"species_code": "ACRU", "dbh_in": 10}]
    a = assess(survey(one, {"application_pending": "yes"}), replacement_stock=STOCK)
    p = a.penalties
    assert p.civil_penalty_max_usd == 1500, p.doubling_reasons
    assert not p.doubled
    assert p.civil_penalty_conditional_usd == 1500
    literal = [x for x in a.lines if "harmed while an application is pending" in x["item"]]
    assert [(x["section"], x["value"]) for x in literal] == [("§208-29B(7)", 3000)]
    # with the parcel facts given so that §208-19A(2) applies, the other provision is definite: doubled
    facts = {"application_pending": "yes", "subdividable": True, "has_residence": False, "site_plan_required": True}
    a = assess(survey(one, facts), replacement_stock=STOCK)
    assert a.penalties.civil_penalty_max_usd == 3000 and a.penalties.doubled
