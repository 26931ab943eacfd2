"""The zone a survey in several climate zones values its trees to be planted in is chosen by a stated rule, the
same whatever the order of its rows, and the warnings say how it was chosen and what a given zone overrode."""

from treecalc import assess
from treecalc.ingest import read_survey
from treecalc.report.json import assessment_json

HEAD = "Tag,Species,DBH (in),Action,Climate zone\n"
SOUTH = "1,Acer rubrum,12,remove,PiedmtCLT\n2,Quercus rubra,14,remove,PiedmtCLT\n"
MIDWEST = "3,Acer saccharum,10,remove,MidWstMSP\n4,Pinus strobus,9,remove,MidWstMSP\n"
QUIET = {"has_residence": True, "subdividable": False, "site_plan_required": False}


def _survey(rows: str, name: str = "zones.csv"):
    return read_survey((HEAD + rows).encode("utf-8"), filename=name)


def _planted(a) -> list[str]:
    return [w for w in a.warnings if "to be planted" in w]


def test_a_tie_values_the_trees_to_be_planted_in_the_same_zone_whatever_the_rows_order():
    # 2 trees in the South (PiedmtCLT), 2 in the Midwest (MidWstMSP): a tie, broken by the code in alphabetical
    # order, MidWstMSP. The removed trees are each valued in their own zone (treecalc benefits --zone: 149.82 +
    # 133.54 PiedmtCLT, 112.54 + 71.36 MidWstMSP = $467.26/yr), 90% of it $420.54 (§208-22A, 4 trees by permit); the Red maple 2 in stock in the Midwest is $6.56/yr (treecalc benefits
    # --species "Acer rubrum" --dbh 2 --zone MidWstMSP: 6.5608; PiedmtCLT 6.4228), so 420.54 / 6.5608 = 64.1 ->
    # 65 trees, at the $450 placeholder $29,250. The rows in the South-first order were valued in the South
    # (6.42, 66 trees, $29,700), in the Midwest-first order in the Midwest.
    found = []
    for rows in (SOUTH + MIDWEST, MIDWEST + SOUTH):
        a = assess(_survey(rows), site=QUIET)
        j = assessment_json(a)
        assert (j["removed_value_usd"], j["required_value_usd"]) == (467.26, 420.54)
        rep = j["replacement"]
        found.append((rep["value_per_tree_usd"], rep["trees_needed"], rep["planting_cost_usd"], _planted(a)))
        assert [z["zone"] for z in assessment_json(a)["options"]["zone"]["zones"]] == ["MidWstMSP", "PiedmtCLT"]
    assert found[0] == found[1]
    assert found[0][:3] == (6.56, 65, 29_250.0)
    assert found[0][3] == [
        "the trees to be planted (the replacement stock's value per tree) are valued in the Midwest zone "
        "(MidWstMSP), tied with the South zone (PiedmtCLT) as the zone most of the surveyed trees lie in, 2 trees "
        "each: of zones with as many trees the first by code in alphabetical order is taken; ‹zone› values every "
        "tree in one zone"
    ]


def test_a_tie_by_coordinates_is_broken_by_the_same_rule():
    # one tree in Charlotte (PiedmtCLT), one in Minneapolis (MidWstMSP), in either order: MidWstMSP is the zone a
    # tree without coordinates is valued in, said as a tie
    from treecalc.ingest import zone as climate_zones

    rows = [(35.2271, -80.8431), (44.9778, -93.2650)]
    for pts in (rows, rows[::-1]):
        text = "Tag,Species,DBH,Action,Latitude,Longitude\n" + "".join(
            f"{i},Acer rubrum,14,Removed,{lat},{lon}\n" for i, (lat, lon) in enumerate(pts, 1)
        )
        text += "3,Acer rubrum,14,Removed,,\n"
        sv = read_survey(text.encode("utf-8"), filename="lot.csv")
        sz = climate_zones.survey_zone(sv.trees, sv.site)
        assert sz.zone == "MidWstMSP" and sz.tied == ("PiedmtCLT",)
        assert sz.counts == (("MidWstMSP", 2), ("PiedmtCLT", 1))
        assert (
            "1 tree has no coordinates, valued in MidWstMSP (tied with the South zone (PiedmtCLT) as the zone most "
            "trees lie in, 1 tree each: of zones with as many trees the first by code in alphabetical order is "
            "taken)"
        ) in sz.notes


def test_trees_only_defaulted_to_the_northeast_are_not_said_to_lie_in_it():
    # 1 tree named in the South, 3 with a blank zone and no site fact or coordinates: the 3 are valued in the
    # Northeast, the default, which then values the trees to be planted; they do not "lie in" it
    a = assess(
        _survey(
            "1,Acer rubrum,12,remove,PiedmtCLT\n2,Quercus rubra,14,remove,\n"
            "3,Acer saccharum,10,remove,\n4,Pinus strobus,9,remove,\n"
        ),
        site=QUIET,
    )
    assert _planted(a) == [
        "the trees to be planted (the replacement stock's value per tree) are valued in the Northeast zone "
        "(NoEastXXX), the zone most of the surveyed trees are valued in (3 trees with no climate zone given or "
        "found, valued there by default); ‹zone› values every tree in one zone"
    ]


def test_a_given_zone_says_which_zones_of_the_column_and_the_site_fact_it_overrides():
    # docs/science/zones.md's order: ‹zone› values every tree (the column and the site fact are not used), said naming both
    a = assess(_survey(SOUTH + MIDWEST), site={**QUIET, "climate_zone": "PiedmtCLT"}, zone="MidWstMSP")
    assert assessment_json(a)["replacement"]["value_per_tree_usd"] == 6.56  # 6.5608 in MidWstMSP
    assert (
        "the zone chosen (‹zone› MidWstMSP) values every tree in the Midwest zone (MidWstMSP), overriding the zones the column "
        "climate_zone names: 2 trees in the South zone (PiedmtCLT)"
    ) in a.warnings
    assert (
        "the zone chosen (‹zone› MidWstMSP) values every tree in the Midwest zone (MidWstMSP), overriding the site fact "
        "climate_zone=PiedmtCLT (South)"
    ) in a.warnings
    # a zone the column names for every tree overrides nothing: nothing said
    same = assess(_survey(MIDWEST), site=QUIET, zone="MidWstMSP")
    assert not [w for w in same.warnings if "overrid" in w]


def test_the_column_over_the_site_fact_is_said_and_the_fact_values_the_blanks():
    # the column names the zone of its trees, the site fact climate_zone only of the trees it leaves blank
    a = assess(
        _survey("1,Acer rubrum,12,remove,PiedmtCLT\n2,Quercus rubra,14,remove,\n"),
        site={**QUIET, "climate_zone": "MidWstMSP"},
    )
    assert (
        "the column climate_zone overrides the site fact climate_zone=MidWstMSP (Midwest) for the trees it names "
        "in another zone: 1 tree in the South zone (PiedmtCLT)"
    ) in a.warnings
    assert (
        "the site fact climate_zone=MidWstMSP values the 1 tree the column climate_zone leaves blank in the "
        "Midwest zone (MidWstMSP)"
    ) in a.warnings
    # every tree named in one zone, the fact another: the column's zone values all, the fact said unused
    one = assess(_survey(SOUTH), site={**QUIET, "climate_zone": "MidWstMSP"})
    assert assessment_json(one)["replacement"]["value_per_tree_usd"] == 6.42  # PiedmtCLT 6.4228
    assert (
        "the column climate_zone overrides the site fact climate_zone=MidWstMSP (Midwest) for the trees it names "
        "in another zone: 2 trees in the South zone (PiedmtCLT)"
    ) in one.warnings


def test_no_trees_to_be_planted_are_said_when_no_replacement_is_required():
    # two retained in the South, one removed in the Midwest (one tree: §208-22A's 90% needs 3 or more): nothing
    # to replace, so no zone for trees to be planted is said
    a = assess(
        _survey(
            "1,Acer rubrum,12,retain,PiedmtCLT\n2,Quercus rubra,14,retain,PiedmtCLT\n"
            "3,Acer saccharum,10,remove,MidWstMSP\n"
        ),
        site=QUIET,
    )
    assert a.replacement.required is False
    assert _planted(a) == []
    assert any("2 climate zones" in w for w in a.warnings)
