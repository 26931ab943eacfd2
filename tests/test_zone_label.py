"""The value basis names the climate zone whose tables valued the trees, not the Northeast always."""


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
    label = a.to_json()["options"]["value_basis_label"]
    assert "Northeast" not in label and "PiedmtCLT" in label, label


def test_a_croton_survey_still_says_northeast():
    from treecalc import assess

    label = assess(_survey(41.21, -73.89)).to_json()["options"]["value_basis_label"]
    assert "Northeast (NoEastXXX)" in label, label


def test_the_plan_says_the_zone_its_costs_were_valued_in():
    # every cost of the plan rests on the trees' values (90% of them, §208-22A): the Charlotte trees are
    # valued in PiedmtCLT, which the plan must say (JSON zone and a note), as assess does
    from treecalc.plan import plan

    p = plan(_survey(35.23, -80.84)).to_json()
    assert p["zone"] == "PiedmtCLT"
    assert any("PiedmtCLT" in n for n in p["notes"]), p["notes"]


def test_a_latitude_off_the_globe_is_named_as_the_user_wrote_it():
    # --lat 91: the message shows 91 and 0, never numpy's repr "np.float64(91.0)"
    import pytest

    from treecalc.climate_zones import zone_at

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
    from treecalc.projection import REMOVED, projection

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
    assert "projection" in a.to_json()
