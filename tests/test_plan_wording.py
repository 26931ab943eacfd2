"""A plan step that needs a permit and no replacement says why, citing §208-22A's three trees."""


def test_three_removals_with_a_permit_for_two_say_why_there_is_no_replacement():
    # T1 (14 in) and T2 (20 in) are 8 in or more on a parcel whose facts are not given: §208-19A(2) needs a
    # permit for them; T4 (7 in dogwood) needs none, and 3 removals are not "more than three" (§208-19A(1)).
    # The permit is for 2 trees, so §208-22A (a permit "for three (3) or more trees") requires no replacement:
    # $0. "3 removals ... a permit ... and no replacement (nothing to replace)" read as if 90% were forgotten.
    from treecalc.ingest import read_survey
    from treecalc.plan import plan

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
