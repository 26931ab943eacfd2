"""The value basis names the climate zone whose tables valued the trees, not the Northeast always."""

from treecalc.report.json import assessment_json


def _survey(lat: float, lon: float):
    from treecalc.ingest import read_survey

    text = (
        "Tag,Species,DBH,Action,Latitude,Longitude\n"
        f"1,Acer rubrum,14,remove,{lat},{lon}\n"
        f"2,Quercus rubra,20,remove,{lat + 0.0001},{lon}\n"
    )
    return read_survey(text.encode("utf-8"), filename="lot.csv")


def test_a_charlotte_survey_says_it_is_valued_in_the_piedmont_tables():
    # Two trees at 35.23 N, 80.84 W (Charlotte, NC) lie in the South zone (PiedmtCLT): its tables value them
    # (the ACRU 2 in replacement $6.42/yr there, $64.68 in the Northeast), so the basis must not say Northeast.
    from treecalc import assess

    a = assess(_survey(35.23, -80.84))
    label = assessment_json(a)["options"]["value_basis_label"]
    assert "Northeast" not in label and "PiedmtCLT" in label, label


def test_a_croton_survey_still_says_northeast():
    from treecalc import assess

    label = assessment_json(assess(_survey(41.21, -73.89)))["options"]["value_basis_label"]
    assert "Northeast (NoEastXXX)" in label, label


def test_the_plan_says_the_zone_its_costs_were_valued_in():
    # every cost of the plan rests on the trees' values (90% of them, §208-22A): the Charlotte trees are
    # valued in PiedmtCLT, which the plan must say (JSON zone and a note), as assess does
    from treecalc.studies.plan import plan

    p = plan(_survey(35.23, -80.84)).to_json()
    assert p["zone"] == "PiedmtCLT"
    assert any("PiedmtCLT" in n for n in p["notes"]), p["notes"]


def test_a_latitude_off_the_globe_is_named_as_the_user_wrote_it():
    # --lat 91: the message shows 91 and 0, never numpy's repr "np.float64(91.0)"
    import pytest

    from treecalc.ingest.zone import zone_at

    with pytest.raises(ValueError) as e:
        zone_at(91.0, 0.0)
    assert "np.float64" not in str(e.value) and "latitude 91" in str(e.value), str(e.value)


def test_the_projection_of_a_survey_outside_the_northeast_runs_in_its_zone():
    # A Charlotte survey (PiedmtCLT) of 4 removals: the 20-year projection (assess --json, the statement, the
    # Permit page) re-read the resolved benefit parameters, whose zone keys (price_overrides, ...) are no
    # parameter: a TypeError traceback. Year 0 of the removed series is the counted trees' annual value in the
    # Piedmont tables: T1 ACRU 14 in $184.81 + T2 QURU 20 in $217.95 + T4 COFL 7 in $22.18 + T7 BENI 9 in
    # $84.42 = $509.36/yr (as the assessment's §208-22A line values them, PiedmtCLT).
    from treecalc import assess
    from treecalc.ingest import read_survey
    from treecalc.models.projection import REMOVED, projection

    text = (
        "Tag,Species,DBH,Action,Latitude,Longitude\n"
        "T1,Acer rubrum,14,remove,35.23,-80.84\nT2,Quercus rubra,20,remove,35.2301,-80.84\n"
        "T4,Cornus florida,7,remove,35.2302,-80.84\nT7,Betula nigra,9,remove,35.2303,-80.84\n"
    )
    a = assess(read_survey(text.encode("utf-8"), filename="lot.csv"))
    assert a.options["zone"]["zone"] == "PiedmtCLT"
    p = projection(a, 20)
    year0 = float(p[(p["series"] == REMOVED) & (p["year"] == 0)]["value_usd"].iloc[0])
    assert abs(year0 - 509.36) < 0.01, year0
    assert "projection" in assessment_json(a)


# ---------------------------------------------------------------------------------------------------------------
# the labels, data sources and assumptions of a survey valued outside the Northeast name its zones' tables
# ---------------------------------------------------------------------------------------------------------------
CHARLOTTE, MINNEAPOLIS = (35.2271, -80.8431), (44.9778, -93.2650)
QUIET = {"has_residence": True, "subdividable": False, "site_plan_required": False}


def _maples(points, action="Removed"):
    """Red maples of 14 in at ``points`` (latitude, longitude)."""
    from treecalc.ingest import read_survey

    rows = "".join(f"X{i},Red Maple,14,{action},{lat},{lon}\n" for i, (lat, lon) in enumerate(points, start=1))
    return read_survey(("Tag,Species,DBH,Action,Latitude,Longitude\n" + rows).encode(), filename="lot.csv")


def _statement_text(a) -> str:
    import io

    import openpyxl

    from treecalc.report.statement import write_statement

    ws = openpyxl.load_workbook(io.BytesIO(write_statement(a)))["Method & sources"]
    return "\n".join(str(c) for row in ws.iter_rows(values_only=True) for c in row if c is not None)


def test_the_northeast_labels_and_sources_are_as_before():
    # the words a Northeast survey has always printed (its statement, JSON and PDF read them)
    from treecalc import assess
    from treecalc.reference import data

    ne = _maples([(41.21, -73.89)])
    annual = assess(ne, site=QUIET)
    assert annual.options["value_basis_label"] == (
        "total annual benefits, USD/yr (National Tree Benefit Calculator / i-Tree Streets Northeast (NoEastXXX), "
        "§208-22B)"
    )
    assert annual.method["data_sources"] == [data.SOURCE_NAME] and "McPherson et al. 2007" in data.SOURCE_NAME
    cum = assess(ne, site=QUIET, value_basis="cumulative:10")
    assert cum.options["value_basis_label"] == (
        "benefits over 10 years with growth and 4.3%/yr mortality, USD (i-Tree Streets benefits, UTD growth)"
    )
    assert cum.method["data_sources"][1].startswith(
        "growth: Urban Tree Database (McPherson et al. 2016) and i-Tree Streets age-class curves; annual mortality"
    )


def test_a_charlotte_surveys_cumulative_label_says_the_growth_its_method_says():
    # PiedmtCLT trees grow by the zone's own DBH-at-age table (the Method & sources sheet: "the Urban Tree Database
    # equations ... are not used"): the label said "UTD growth"; its data sources cited the Northeast's tables only
    from treecalc import assess
    from treecalc.models.benefits import zone_source

    a = assess(_maples([CHARLOTTE]), site=QUIET, value_basis="cumulative:10")
    label = a.options["value_basis_label"]
    assert "UTD" not in label and "Northeast" not in label, label
    assert label.endswith("(i-Tree Streets benefits, growth by the zone's own DBH-at-age table; South (PiedmtCLT))")
    assert any(
        "Urban Tree Database equations, fitted in the Northeast, are not used" in n for n in a.method["science_notes"]
    )
    sources = a.method["data_sources"]
    assert sources[0] == zone_source("PiedmtCLT") and "Charlotte, NC" in sources[0]
    assert not any("McPherson et al. 2007" in s or "Northeast climate zone" in s for s in sources), sources
    assert sources[1].startswith("growth: i-Tree Streets age-class curves of the PiedmtCLT zone;")
    sheet = _statement_text(a)
    assert zone_source("PiedmtCLT") in sheet and "Northeast Community Tree Guide" not in sheet.split("Data sources")[1]


def test_a_two_zone_survey_names_both_zones_tables_in_its_labels_and_sources():
    from treecalc import assess
    from treecalc.models.benefits import zone_source
    from treecalc.report.content import report_data

    s = _maples([CHARLOTTE, MINNEAPOLIS])
    a = assess(s, site=QUIET)
    # one tree in each: a tie, listed by code in alphabetical order (MidWstMSP first), not by the rows' order
    zones = "climate zones, each tree its own: Midwest (MidWstMSP) 1 tree, South (PiedmtCLT) 1 tree"
    assert a.options["value_basis_label"] == (
        f"total annual benefits, USD/yr (National Tree Benefit Calculator / i-Tree Streets {zones}, §208-22B)"
    )
    both = [zone_source("MidWstMSP"), zone_source("PiedmtCLT")]
    assert a.method["data_sources"] == both
    assert report_data(a)["method"]["data_sources"] == both  # the PDF's "Data sources"
    cum = assess(s, site=QUIET, value_basis="cumulative:10")
    assert cum.options["value_basis_label"].endswith(
        f"(i-Tree Streets benefits, growth by each zone's own DBH-at-age table; {zones})"
    )
    assert cum.method["data_sources"][2].startswith(
        "growth: i-Tree Streets age-class curves of the MidWstMSP and PiedmtCLT zones;"
    )
    # the Method & sources notes are each zone's: its tables, its growth table, its land-use tables (none in either)
    notes = "\n".join(cum.method["science_notes"])
    for z, name, city in (("PiedmtCLT", "South", "Charlotte, NC"), ("MidWstMSP", "Midwest", "Minneapolis, MN")):
        assert f"Climate zone: {name} ({z}), the i-Tree Streets tables of its reference city {city}" in notes
        assert f"data/species/zones/{z}/growth_age_class.csv" in notes
        assert f"The {name} zone ({z}) publishes no land-use tables" in notes


def test_a_survey_partly_in_the_northeast_says_utd_growth_there_and_cites_its_guide():
    from treecalc import assess
    from treecalc.models.benefits import zone_source
    from treecalc.reference import data

    a = assess(_maples([(41.21, -73.89), CHARLOTTE]), site=QUIET, value_basis="cumulative:10")
    assert (
        "UTD growth in the Northeast, elsewhere growth by each zone's own DBH-at-age table"
        in (a.options["value_basis_label"])
    )
    assert a.method["data_sources"][:2] == [data.SOURCE_NAME, zone_source("PiedmtCLT")]
    assert (
        "growth: Urban Tree Database (McPherson et al. 2016) and i-Tree Streets age-class curves in the "
        in (a.method["data_sources"][2])
    )


def test_the_ctla_assumption_is_said_only_when_an_appraised_value_is_used():
    # Four Charlotte maples removed under a permit applied for (§208-22A's 90%, planted; no offence, no payment in
    # place of a §208-22F replacement): the fee schedule's capital basis is appraised, but no tree is valued on it,
    # so the Northeast's CTLA parameters are not said. Removed without a permit (§208-22F), the payment in place of
    # the replacement appraises all four: said of the 4 trees.
    from treecalc import assess

    def ctla(a):
        return [x for x in a.assumptions if x.startswith("appraised values (CTLA)")]

    lot = [(35.2271 + i / 10_000, -80.8431) for i in range(4)]
    permit = assess(_maples(lot, action="remove"), site=QUIET)
    assert permit.fund.alternative_22f_usd is None and permit.options["value_basis"] == "annual"
    assert ctla(permit) == []
    offence = assess(_maples(lot), site=QUIET)
    assert offence.fund.alternative_22f_usd is not None
    said = ctla(offence)
    assert len(said) == 1
    assert said[0].startswith("appraised values (CTLA) of the 4 tree(s) outside the Northeast (4 in PiedmtCLT)")


def test_a_survey_in_two_zones_says_which_zone_values_the_trees_to_be_planted():
    # Three trees in the South zone (PiedmtCLT), two in the Midwest (MidWstMSP), by the survey's zone column:
    # the replacement Red maple 2 in is valued in the zone most lie in, the South: $6.42/yr there (treecalc
    # benefits --zone PiedmtCLT: 6.4228), not the Midwest's $6.56 (6.5608); the warning says which.
    from treecalc import assess
    from treecalc.ingest import read_survey

    text = (
        "Tag,Species,DBH (in),Action,Climate zone\n1,Acer rubrum,14,Remove,PiedmtCLT\n"
        "2,Quercus rubra,20,Remove,PiedmtCLT\n3,Acer rubrum,12,Remove,MidWstMSP\n"
        "4,Quercus rubra,16,Retain,MidWstMSP\n5,Acer rubrum,10,Remove,PiedmtCLT\n"
    )
    sv = read_survey(text.encode("utf-8"), filename="two_zones.csv")
    a = assess(sv, site={"subdividable": False, "has_residence": True})
    assert assessment_json(a)["replacement"]["value_per_tree_usd"] == 6.42
    said = [w for w in a.warnings if "to be planted" in w]
    assert said == [
        "the trees to be planted (the replacement stock's value per tree) are valued in the South zone "
        "(PiedmtCLT), the zone most of the surveyed trees lie in; ‹zone› values every tree in one zone"
    ]
    # a law without a replacement plants nothing: nothing said
    wh = assess(sv, jurisdiction="wesley_hills", site={"has_residence": True, "lot_area_acres": 1.0})
    assert not [w for w in wh.warnings if "to be planted" in w]
