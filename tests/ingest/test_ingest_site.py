"""Site facts: the Site sheet, overrides, and conservative assumptions."""

from __future__ import annotations

import pytest

from tests.helpers.ingest import HEADER, ROWS, write_text, write_xlsx
from treecalc.ingest import SITE_FIELDS, SurveyError, read_survey

SITE_ROWS = [
    ["Field", "Value"],
    ["Jurisdiction", "Village of Croton-on-Hudson"],
    ["Lot area (acres)", 1.2],
    ["subdividable", "no"],
    ["has_residence", "Yes"],
    ["one_family_co_issued", "Y"],
    ["site_plan_required", "N"],
    ["prior_removals_12mo", 2],
    ["application_pending", "FALSE"],
    ["prior_violation_within_year", 0],
    ["village_work", "no"],
]


def test_site_sheet_read_and_typed(tmp_path):
    p = write_xlsx(tmp_path / "s.xlsx", [HEADER, *ROWS], extra={"Site": SITE_ROWS})
    s = read_survey(p)
    assert s.site == {
        "jurisdiction": "croton_on_hudson",
        "lot_area_acres": 1.2,
        "subdividable": False,
        "has_residence": True,
        "one_family_co_issued": True,
        "site_plan_required": False,
        "prior_removals_12mo": 2,
        "application_pending": False,
        "prior_violation_within_year": False,
        "village_work": False,
    }
    assert set(s.site) <= set(SITE_FIELDS)
    assert not any(a.split()[0] in s.site for a in s.site_assumptions)
    assert s.source["site_sheet"] == "Site" and s.source["sheet"] == "Trees"


def test_site_override_wins(tmp_path):
    p = write_xlsx(tmp_path / "s.xlsx", [HEADER, *ROWS], extra={"Site": SITE_ROWS})
    s = read_survey(p, site={"jurisdiction": "wesley-hills", "prior_removals_12mo": "5", "lot_area_acres": None})
    assert s.site["jurisdiction"] == "wesley_hills" and s.site["prior_removals_12mo"] == 5
    assert "lot_area_acres" not in s.site
    assert any(a.startswith("lot_area_acres not given") for a in s.site_assumptions)
    # Wesley Hills needs the distance to the residence: its absence is an assumption
    assert any(a.startswith("distance_to_residence_ft not surveyed") for a in s.site_assumptions)
    with pytest.raises(SurveyError, match="not one of"):
        read_survey(p, site={"jurisdiction": "Ossining"})
    with pytest.raises(SurveyError, match="unknown site field"):
        read_survey(p, site={"colour": "green"})
    with pytest.raises(SurveyError, match="not yes/no"):
        read_survey(p, site={"subdividable": "perhaps"})


def test_missing_facts_are_conservative_assumptions(tmp_path):
    s = read_survey(write_text(tmp_path / "s.csv", [HEADER, *ROWS]))
    assert s.site == {}
    assert s.site_assumed["subdividable"] is True  # more removals need a permit
    assert s.site_assumed["has_residence"] is False
    assert s.site_assumed["site_plan_required"] is True
    # past acts that would create or aggravate an offence are not presumed (as in the law engine)
    assert s.site_assumed["prior_violation_within_year"] is False
    assert s.site_assumed["application_pending"] is False
    assert s.site_assumed["village_work"] is False
    assert s.site_assumed["prior_removals_12mo"] == 0
    assert s.site_assumed["jurisdiction"] is None
    # every fact but the crs, which says what x/y columns are in: this survey has none, so nothing is assumed of it
    assert "crs" in SITE_FIELDS and "crs" not in s.site_assumed
    for f in SITE_FIELDS:
        assert any(a.startswith(f"{f} not given") for a in s.site_assumptions) is (f != "crs"), f


def test_the_crs_is_said_not_given_only_for_a_survey_with_x_y(tmp_path):
    # x/y in WGS84 degrees are read without a crs (Survey123's POINT_X/POINT_Y): the crs not given is then said
    xy = read_survey(
        write_text(
            tmp_path / "xy.csv",
            [["Tag", "Species", "DBH", "Action", "x", "y"], ["1", "Red maple", 14, "remove", -73.9, 41.2]],
        )
    )
    assert any(a.startswith("crs not given") for a in xy.site_assumptions)
    ll = read_survey(
        write_text(
            tmp_path / "ll.csv",
            [
                ["Tag", "Species", "DBH", "Action", "latitude", "longitude"],
                ["1", "Red maple", 14, "remove", 41.2, -73.9],
            ],
        )
    )
    assert not any(a.startswith("crs") for a in ll.site_assumptions), ll.site_assumptions


def test_bad_site_sheet_value_is_a_warning(tmp_path):
    rows = [["lot_area_acres", "big"], ["Address", "1 Oak Lane"], ["subdividable"]]
    s = read_survey(write_xlsx(tmp_path / "s.xlsx", [HEADER, *ROWS], extra={"Site": rows}))
    assert s.site == {"address": "1 Oak Lane"}  # a descriptive row is kept as text, read by no rule
    assert sum("Site sheet" in w for w in s.warnings) == 1  # lot_area_acres "big"


def test_an_unknown_site_sheet_jurisdiction_is_refused_not_a_warning(tmp_path):
    # it was a warning, and the survey was then assessed under Croton-on-Hudson's law: a law it did not name;
    # "Atlantis" is like no law known, so no suggestion
    rows = [["jurisdiction", "Atlantis"], ["lot_area_acres", "big"]]
    with pytest.raises(
        SurveyError,
        match=r"Site sheet cell B1 \(jurisdiction\): 'Atlantis' is not one of croton-on-hudson, wesley-hills, la-grange-park, manalapan, milltown\. ",
    ):
        read_survey(write_xlsx(tmp_path / "s.xlsx", [HEADER, *ROWS], extra={"Site": rows}))


def test_unknown_site_field_is_an_error_naming_the_closest(tmp_path):
    # issue 9: a misspelt fact is never silently dropped (it could decide an offence)
    rows = [["subdividible", "no"]]
    with pytest.raises(
        SurveyError, match="Site sheet row 1: unknown site field 'subdividible': did you mean 'subdividable'"
    ):
        read_survey(write_xlsx(tmp_path / "s.xlsx", [HEADER, *ROWS], extra={"Site": rows}))
    with pytest.raises(SurveyError, match="did you mean 'permit_held'"):
        read_survey(write_text(tmp_path / "s.csv", [HEADER, *ROWS]), site={"permit_hled": "yes"})


def test_every_law_fact_is_a_site_sheet_field(tmp_path):
    # issue 9: every fact --site accepts is read from the Site sheet too (permit_held was ignored before)
    rows = [
        ["permit_held", "yes"],
        ["department_approval", "no"],
        ["prior_removals_without_permit", 2],
        ["normal_farming", "no"],
        ["violation", "no"],
    ]
    s = read_survey(write_xlsx(tmp_path / "s.xlsx", [HEADER, *ROWS], extra={"Site": rows}))
    assert s.site == {
        "permit_held": True,
        "department_approval": False,
        "prior_removals_without_permit": 2,
        "normal_farming": False,
        "violation": False,
    }


def test_every_listed_site_field_is_read_by_its_own_name():
    # the refusal lists SITE_FIELDS as the valid fields: each must then be read (Manalapan's preserved_stand_trees
    # and farmland_woodlot_forest_plan were listed and refused)
    from treecalc.ingest.site import site_field

    assert [f for f in SITE_FIELDS if site_field(f) != f] == []
