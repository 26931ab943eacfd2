"""A flag cell that is neither yes nor no ("maybe", "probably") is no fact given: the permit preview keeps the
reading that needs a permit, an offence or a penalty tier resting on it is conditional, never definite.

Figures worked by hand from data/law/croton_on_hudson/ch208_trees.toml: §208-29B tiers (1) up to 8 in $500,
(2) over 8 to 12 in $1,500, (3) over 12 in $3,000, (4) street tree / wetland / steep slope $4,000, (5) landmark
$5,000, the highest tier applying; doubled (§208-29B(7)) for more than 3 trees or clear cutting (4 or more removed
without a permit, §208-17). §208-29A: $250 a tree, $5,000 for a violation of §208-18. Wesley Hills Chapter 95
(data/law/wesley_hills/ch95_clearing.toml): $5,000 a tree removed without a required clearing permit; §95-3A(1)(e)
6 in or more within 20 ft of a lot line, no one-family certificate of occupancy.
"""

from __future__ import annotations

import pytest

from treecalc.assessment import assess
from treecalc.ingest import read_survey
from treecalc.report.json import assessment_json

FLAT_HOUSE_LOT = {"subdividable": False, "has_residence": True, "site_plan_required": False}
SUBDIVIDABLE_LOT = {"subdividable": True, "has_residence": True, "site_plan_required": False}
STOCK = [{"species": "ACRU", "dbh_in": 2, "unit_cost_usd": 450}]

LEAD_SURVEY = "Tag,Species,DBH (in),Action,Street tree,Landmark\n1,Red maple,14,removed,maybe,\n2,Red oak,10,removed,,probably\n3,Red oak,10,removed,yes,\n"


def survey(text: str, **site):
    return read_survey(text.encode("utf-8"), filename="survey.csv", site=site or None)


def run(text: str, site: dict | None = None, jurisdiction: str | None = None):
    kw = {"jurisdiction": jurisdiction} if jurisdiction else {}
    a = assess(survey(text), site=site or {}, replacement_stock=STOCK, **kw)
    return a, assessment_json(a)


def rows(j):
    return {r["tag"]: r for r in j["offence_rows"]}


def money(j):
    return (
        j["civil_penalty_max_usd"],
        j["civil_penalty_conditional_usd"],
        j["criminal_fine_max_usd"],
        j["criminal_fine_conditional_usd"],
    )


def test_the_reader_keeps_the_conservative_value_and_records_the_cell():
    s = survey(LEAD_SURVEY)
    t = s.trees
    assert bool(t["street_tree"][0]) is True and bool(t["landmark"][1]) is True  # the permit preview's reading
    assert t["flags_unclear"].tolist() == [(("street_tree", "maybe"),), (("landmark", "probably"),), ()]
    assert (
        "street_tree: 'maybe' in column 'Street tree' is not yes/no; taken as yes for the permit preview; "
        in (t["warnings"][0])
    )
    assert "offences resting on it are conditional" in t["warnings"][0]


def test_a_survey_without_unclear_cells_has_no_record():
    s = survey("Tag,Species,DBH (in),Action,Street tree\n1,Red maple,14,removed,yes\n2,Red oak,10,removed,\n")
    assert "flags_unclear" not in s.trees


def test_lead_survey_parcel_facts_not_given():
    # Parcel facts not given: §208-19A(2) (8 in or more) is assumed, so every removal's trigger (2) is
    # conditional already. Tree 3 (10 in, street tree "yes") is a definite §208-5D/§208-14 offence: tier (4)
    # $4,000, criminal $250. Tree 1 (14 in, street tree "maybe"): its street-tree offence and tier rest on
    # "maybe": conditional at tier (4) $4,000. Tree 2 (10 in, landmark "probably"): conditional at tier (5)
    # $5,000. Three offences, not more than 3: no doubling. Definite: $4,000 civil, $250 criminal;
    # conditional: $4,000 + $5,000 = $9,000 civil, 2 x $250 = $500 criminal.
    # (Before: trees 1 and 3 definite at $4,000 and tree 2 definite at $5,000 = $13,000.)
    a, j = run(LEAD_SURVEY)
    r = rows(j)
    assert {t: r[t]["status"] for t in r} == {"1": "conditional", "2": "conditional", "3": "definite"}
    assert "street_tree is yes (the survey says 'maybe')" in r["1"]["depends_on"]
    assert "landmark is yes (the survey says 'probably')" in r["2"]["depends_on"]
    assert (r["1"]["tier"], r["2"]["tier"], r["3"]["tier"]) == ("§208-29B(4)", "§208-29B(5)", "§208-29B(4)")
    assert money(j) == (4000, 9000, 250, 500)
    assert a.trees["permit_needed"].tolist() == [True, True, True]  # the preview keeps every obligation


def test_lead_survey_on_a_flat_house_lot():
    # No parcel fact assumed: tree 1 (14 in) needs no permit; it is an offence only as a street tree, which
    # rests on "maybe": conditional, tier (4) $4,000. Tree 2 needs a permit only as a landmark (§208-19A(6)),
    # which rests on "probably": the preview says a permit is needed, the offence is conditional at tier (5)
    # $5,000. Tree 3 definite, tier (4) $4,000. Definite $4,000 / $250; conditional $9,000 / $500.
    a, j = run(LEAD_SURVEY, FLAT_HOUSE_LOT)
    r = rows(j)
    assert {t: r[t]["status"] for t in r} == {"1": "conditional", "2": "conditional", "3": "definite"}
    assert r["1"]["depends_on"] == "street_tree is yes (the survey says 'maybe')"
    assert r["2"]["depends_on"] == "landmark is yes (the survey says 'probably')"
    assert money(j) == (4000, 9000, 250, 500)
    assert a.trees["permit_needed"].tolist() == [False, True, False]
    assert a.trees["permit_triggers"].tolist() == ["", "§208-19A(6)", ""]
    assert any("§208-19A applied to 1 tree(s) on a flag cell neither yes nor no" in x for x in a.permit.notes)


def test_lead_survey_on_a_subdividable_lot_prices_definite_offences_at_the_tier_given():
    # §208-19A(2) on given facts: each removal of 8 in or more needs a permit, so all three are definite
    # offences. The tiers the definite maximum uses rest on cells given only: tree 1 (14 in, street "maybe")
    # tier (3) $3,000; tree 2 (10 in, landmark "probably") tier (2) $1,500; tree 3 (street "yes") tier (4)
    # $4,000: $8,500. The tiers resting on the unclear cells are in the conditional figure: tree 1
    # $4,000 - $3,000 = $1,000, tree 2 $5,000 - $1,500 = $3,500: $4,500. Criminal 3 x $250 = $750, none apart.
    a, j = run(LEAD_SURVEY, SUBDIVIDABLE_LOT)
    r = rows(j)
    assert {t: r[t]["status"] for t in r} == {"1": "definite", "2": "definite", "3": "definite"}
    assert (r["1"]["tier"], r["2"]["tier"], r["3"]["tier"]) == ("§208-29B(3)", "§208-29B(2)", "§208-29B(4)")
    assert money(j) == (8500, 4500, 750, 0)


@pytest.mark.parametrize("cell", ["maybe", "probably", "likely", "possibly", "yes?", "prob."])
def test_every_hedged_word_is_conditional(cell):
    # a 10 in street tree removed on a flat house lot: tier (4) $4,000, criminal $250, apart
    _, j = run(f"Tag,Species,DBH (in),Action,Street tree\n1,Red oak,10,removed,{cell}\n", FLAT_HOUSE_LOT)
    assert rows(j)["1"]["status"] == "conditional"
    assert money(j) == (0, 4000, 0, 250)


def test_a_yes_keeps_the_definite_answer_and_a_blank_keeps_no_offence():
    # Tree 1 street tree "yes": definite §208-5D/§208-14, tier (4) $4,000, criminal $250. Tree 2, 10 in,
    # street tree blank on a flat house lot: read as no (Chapter 208, as before): no permit, no offence.
    _, j = run(
        "Tag,Species,DBH (in),Action,Street tree\n1,Red oak,10,removed,yes\n2,Red oak,10,removed,\n", FLAT_HOUSE_LOT
    )
    assert {t: r["status"] for t, r in rows(j).items()} == {"1": "definite"}
    assert money(j) == (4000, 0, 250, 0)


def test_a_permit_cell_maybe_makes_the_offence_it_would_excuse_conditional():
    # Three 10 in landmark trees removed on a flat house lot: §208-19A(6), tier (5) $5,000, criminal $250 each.
    # Permit "maybe": not given, the removal is an offence only if there was no permit: conditional. Permit
    # blank: no permit is presumed held (the owner's to show): definite, as before. Permit "yes": authorised.
    # Definite $5,000 / $250; conditional $5,000 / $250. (Before: the "maybe" tree was definite too.)
    text = (
        "Tag,Species,DBH (in),Action,Landmark,Permit\n"
        "1,Red oak,10,removed,yes,maybe\n2,Red oak,10,removed,yes,\n3,Red oak,10,removed,yes,yes\n"
    )
    _, j = run(text, FLAT_HOUSE_LOT)
    r = rows(j)
    assert {t: r[t]["status"] for t in r} == {"1": "conditional", "2": "definite"}
    assert r["1"]["depends_on"] == "permit is no (the survey says 'maybe')"
    assert money(j) == (5000, 5000, 250, 250)


def test_a_department_approval_or_village_work_cell_maybe_is_conditional():
    # 10 in street trees removed on a flat house lot, tier (4) $4,000, criminal $250: approval "probably"
    # and village work "possibly" are not given: both offences conditional; the third, blank, definite.
    text = (
        "Tag,Species,DBH (in),Action,Street tree,Department approval,Village work\n"
        "1,Red oak,10,removed,yes,probably,\n2,Red oak,10,removed,yes,,possibly\n3,Red oak,10,removed,yes,,\n"
    )
    _, j = run(text, FLAT_HOUSE_LOT)
    r = rows(j)
    assert {t: r[t]["status"] for t in r} == {"1": "conditional", "2": "conditional", "3": "definite"}
    assert r["1"]["depends_on"] == "department_approval is no (the survey says 'probably')"
    assert r["2"]["depends_on"] == "village_work is no (the survey says 'possibly')"
    assert money(j) == (4000, 8000, 250, 500)


def test_a_count_reaching_its_number_only_through_a_maybe_permit_is_conditional():
    # Four 10 in maples removed on a flat house lot, tree 1's permit "maybe". Counted for the preview, four are
    # more than three (§208-19A(1), §208-18A) and clear cutting (§208-17, 4 or more): each tier (2) $1,500,
    # doubled (§208-29B(7)) $3,000, criminal §208-18 $5,000. Without tree 1 only three were removed without a
    # permit: neither reaches its number, so no offence is definite. Definite $0 / $0; conditional
    # 4 x $3,000 = $12,000 civil, 4 x $5,000 = $20,000 criminal. (Before: $12,000 / $20,000 definite.)
    text = "Tag,Species,DBH (in),Action,Permit\n1,Red maple,10,removed,maybe\n" + "".join(
        f"{k},Red maple,10,removed,\n" for k in (2, 3, 4)
    )
    _, j = run(text, FLAT_HOUSE_LOT)
    r = rows(j)
    assert {t: r[t]["status"] for t in r} == {t: "conditional" for t in "1234"}
    assert "§208-19A(1)" in r["2"]["depends_on"] and "neither yes nor no" in r["2"]["depends_on"]
    assert money(j) == (0, 12000, 0, 20000)


def test_a_count_that_reaches_its_number_without_the_maybe_stays_definite():
    # Five maples, tree 1's permit "maybe": trees 2-5 are four removed without a permit on cells given: more than
    # three and clear cutting: definite, 4 x $1,500 doubled = $12,000, criminal 4 x $5,000 = $20,000. Tree 1
    # conditional on its permit: $3,000 and $5,000 apart.
    text = "Tag,Species,DBH (in),Action,Permit\n1,Red maple,10,removed,maybe\n" + "".join(
        f"{k},Red maple,10,removed,\n" for k in (2, 3, 4, 5)
    )
    _, j = run(text, FLAT_HOUSE_LOT)
    assert money(j) == (12000, 3000, 20000, 5000)


WH_SITE = {"has_residence": True, "lot_area_acres": 0.5, "one_family_co_issued": False}


def test_wesley_hills_lot_line_and_permit_cells():
    # A 0.5 acre lot with a residence, no one-family CO: only §95-3A(1)(e) applies, 6 in or more within 20 ft of
    # a lot line. Four 8 in maples removed, each $5,000:
    #   1 lot line "maybe": the permit preview needs a permit; the offence conditional on it;
    #   2 lot line yes, permit "maybe": conditional on the permit;
    #   3 lot line yes, permit blank: definite (no permit presumed held);
    #   4 lot line yes, permit yes: its own clearing permit, no offence.
    # Definite $5,000; conditional $10,000. (Before: 1, 2 and 4 definite too: $20,000.)
    text = (
        "Tag,Species,DBH (in),Action,Within 20 ft of lot line,Permit\n"
        "1,Red maple,8,removed,maybe,\n2,Red maple,8,removed,yes,maybe\n"
        "3,Red maple,8,removed,yes,\n4,Red maple,8,removed,yes,yes\n"
    )
    a, j = run(text, WH_SITE, "wesley_hills")
    r = rows(j)
    assert {t: r[t]["status"] for t in r} == {"1": "conditional", "2": "conditional", "3": "definite"}
    assert r["1"]["depends_on"].startswith("within_20ft_of_lot_line is yes (the survey says 'maybe')")
    assert r["2"]["depends_on"] == "permit is no (the survey says 'maybe')"
    assert (j["fine_max_usd"], j["fine_conditional_usd"]) == (5000, 10000)
    assert a.trees["permit_needed"].tolist() == [True, True, True, True]


def test_definite_offences_break_208_18_only_on_counts_given():
    # Four 10 in maples removed on a subdividable lot: each needs a permit under §208-19A(2) on given facts;
    # tree 1's permit "maybe". Trees 2-4: definite §208-19A offences, tier (2) $1,500, criminal $250; removed
    # without a permit on cells given they are three: not more than three (§208-18A), no clear cutting (§208-17,
    # 4 or more), no doubling. Definite: 3 x $1,500 = $4,500 civil, 3 x $250 = $750 criminal. If tree 1 had no
    # permit: four, §208-18A and §208-18C, doubled: 4 x $3,000 = $12,000, criminal 4 x $5,000 = $20,000; apart:
    # $12,000 - $4,500 = $7,500 and $20,000 - $750 = $19,250.
    text = "Tag,Species,DBH (in),Action,Permit\n1,Red maple,10,removed,maybe\n" + "".join(
        f"{k},Red maple,10,removed,\n" for k in (2, 3, 4)
    )
    _, j = run(text, SUBDIVIDABLE_LOT)
    r = rows(j)
    assert {t: r[t]["status"] for t in r} == {"1": "conditional", "2": "definite", "3": "definite", "4": "definite"}
    assert r["2"]["offence_sections"] == "§208-19A"
    assert r["1"]["offence_sections"] == "§208-19A; §208-18C; §208-18A"
    assert money(j) == (4500, 7500, 750, 19250)
