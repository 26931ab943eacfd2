"""A plan step that needs a permit and no replacement says why, citing §208-22A's three trees."""


def test_three_removals_with_a_permit_for_two_say_why_there_is_no_replacement():
    # T1 (14 in) and T2 (20 in) are 8 in or more on a parcel whose facts are not given: §208-19A(2) needs a
    # permit for them; T4 (7 in dogwood) needs none, and 3 removals are not "more than three" (§208-19A(1)).
    # The permit is for 2 trees, so §208-22A (a permit "for three (3) or more trees") requires no replacement:
    # $0. "3 removals ... a permit ... and no replacement (nothing to replace)" read as if 90% were forgotten.
    from treecalc.ingest import read_survey
    from treecalc.studies.plan import plan

    text = (
        "Tag,Species,DBH,Action,Must remove\n"
        "T1,Acer rubrum,14,remove,yes\nT2,Quercus rubra,20,remove,yes\nT4,Cornus florida,7,remove,\n"
    )
    p = plan(read_survey(text.encode("utf-8"), filename="lot.csv")).to_json()
    k1 = p["frontier"][1]
    assert k1["remove"] == ["T1", "T2", "T4"] and k1["cost_usd"] == 0
    first = k1["reasons"][0]
    assert "nothing to replace" not in first, first
    assert "permit is for 2 trees" in first and "3 or more" in first and "§208-22A" in first, first


def test_a_wesley_hills_plan_reads_chapter_95s_fines_and_counts_the_trees_removed():
    # H1: 12 in >= 10, 250 ft > 200 ft from the residence, lot 2.1 >= 1.5 acres: §95-3A(1)(d), removed without the
    # clearing permit: up to $5,000 (Chapter 95 penalties A, "a fine of not more than $5,000"). H2: 7 in >= 6
    # within 20 ft of a lot line, no certificate of occupancy: §95-3A(1)(e), removed: up to $5,000. H3 (11 in,
    # 230 ft) is proposed: a permit, no fine. Definite offences: 2 x $5,000 = $10,000, a fine, not a §208-29B
    # civil penalty; and the plan said "Removing no tree makes these removals", and cited Chapter 208's planting,
    # fund and civil penalty in its notes.
    from treecalc.ingest import read_survey
    from treecalc.studies.plan import plan

    text = (
        "Tag,Species,DBH,Action,Within 20 ft of lot line,Distance to residence (ft)\n"
        "H1,Quercus rubra,12,removed,no,250\nH2,Liriodendron tulipifera,7,removed,yes,80\n"
        "H3,Quercus rubra,11,remove,no,230\n"
    )
    site = {"lot_area_acres": 2.1, "has_residence": True, "one_family_co_issued": False}
    p = plan(read_survey(text.encode("utf-8"), filename="lot.csv"), jurisdiction="wesley_hills", site=site).to_json()
    k0, k1 = p["frontier"]
    assert k0["penalty_usd"] == k1["penalty_usd"] == 10000
    said = " ".join([*k0["reasons"], *k1["reasons"], *p["notes"], p["cost_basis"]])
    assert "§208" not in said and "civil" not in said, said
    assert (
        "The definite offences carry up to $10,000.00 in fines (Ch. 95 penalties A: a fine of not more than $5,000 "
        "or imprisonment not exceeding 15 days, each tree)." in k0["reasons"]
    ), k0["reasons"]
    assert k0["reasons"][0].startswith("Removing no tree leaves 2 trees removed or proposed for removal (H1, H2): ")
    assert k1["reasons"][0].startswith("Removing H3 as well makes 3 trees removed or proposed for removal (H1, H2, H3)")
    assert "the fine maximum of definite offences (Ch. 95 penalties A)" in said
    assert p["cost_basis"] == "penalty (fine maximum, definite offences), USD"


def test_a_plan_over_two_climate_zones_says_each_tree_is_valued_in_its_own():
    # two trees in the South zone (PiedmtCLT), two in the Midwest (MidWstMSP), by the survey's zone column: the
    # assessments value each tree in its own zone, and the plan says so (it said "valued in the South climate
    # zone"), with the zone the trees to be planted are valued in: a tie, broken by the codes' order (MidWstMSP)
    from tests.ingest.test_zone_ties import MIDWEST, SOUTH, _survey
    from treecalc.studies.plan import plan

    p = plan(_survey(SOUTH + MIDWEST))
    (said,) = [n for n in p.notes if "climate zone" in n]
    assert said.startswith(
        "each tree is valued in its own climate zone (survey column climate_zone): 2 in the Midwest zone "
        "(MidWstMSP), 2 in the South zone (PiedmtCLT); the trees to be planted"
    )
    assert "are valued in the Midwest zone (MidWstMSP), tied with the South zone (PiedmtCLT)" in said
