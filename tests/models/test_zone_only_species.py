"""A species with an i-Tree code only outside the Northeast (crape myrtle) is read and valued in its zone.

Figures by hand from data/species/zones/PiedmtCLT/benefit_tables.csv (row LA6, "Lagerstroemia spp",
Common crapemyrtle: PiedmtCLT lists no Lagerstroemia indica, so the species reads its genus's row) and
zones/prices.csv (PiedmtCLT: electricity $0.0759/kWh, natural gas $0.01046/kBtu, interception $0.0099/gal).
DBH classes (cm): 3.81, 11.43, 22.86, ...

* 6 in = 15.24 cm, a third of the way from 11.43 to 22.86 ((15.24 - 11.43) / 11.43 = 1/3):
  interception 0.59 + (1.80 - 0.59)/3 = 0.99333 m3 = 0.99333 x 264.172 = 262.41 gal, $2.60 (x 0.0099);
  electricity 10.4 + (29.0 - 10.4)/3 = 16.6 kWh, $1.26 (x 0.0759);
  natural gas 59.6 + (156.8 - 59.6)/3 = 92.0 kBtu = 0.92 therms, $0.96 (x 0.01046).
* 4 in = 10.16 cm, (10.16 - 3.81) / 7.62 = 0.8333 from 3.81 to 11.43:
  interception 0.17 + 0.8333 x (0.59 - 0.17) = 0.52 m3 = 137.37 gal; electricity 3.2 + 0.8333 x 7.2 = 9.2 kWh.
"""

from __future__ import annotations

import pandas as pd
import pytest

from treecalc.ingest import read_survey
from treecalc.ingest.zone import read_survey_in_zone
from treecalc.models.benefits import benefits, compute_benefits
from treecalc.reference import data
from treecalc.reference.species import UnknownSpecies, resolve_one
from treecalc.report.json import assessment_json

GAL_PER_M3 = 264.172

# a Charlotte, NC street survey: two crape myrtles and a red maple, placed by their coordinates
CHARLOTTE = (
    "Tree,Species,DBH (in),Latitude,Longitude\n"
    "1,Lagerstroemia indica,6,35.2271,-80.8431\n"
    "2,Crape myrtle,4,35.2280,-80.8420\n"
    "3,Acer rubrum,12,35.2265,-80.8440\n"
)


@pytest.fixture
def charlotte(tmp_path):
    p = tmp_path / "charlotte.csv"
    p.write_text(CHARLOTTE)
    return p


@pytest.fixture
def unplaced(tmp_path):
    p = tmp_path / "unplaced.csv"
    p.write_text("".join(line.rsplit(",", 2)[0] + "\n" for line in CHARLOTTE.splitlines()))
    return p


def test_the_charlotte_survey_reads_its_crape_myrtles_in_the_zone_its_coordinates_give(charlotte):
    s = read_survey_in_zone(charlotte)
    assert list(s.trees["species_code"]) == ["LA6", "LA6", "ACRU"]
    assert len(s.rejected) == 0


def test_the_crape_myrtles_are_valued_from_the_piedmont_tables(charlotte):
    s = read_survey_in_zone(charlotte)
    b = compute_benefits(s.trees, zone="PiedmtCLT")
    assert list(b["value_row"].astype(str)) == ["LA6", "LA6", "ACRU"]
    assert b["stormwater_gal"].iloc[0] == pytest.approx((0.59 + 1.21 / 3) * GAL_PER_M3, abs=0.01)  # 262.41
    assert b["electricity_kwh"].iloc[0] == pytest.approx(16.6, abs=1e-9)
    assert b["natural_gas_therms"].iloc[0] == pytest.approx(0.92, abs=1e-9)
    assert b["usd_stormwater"].iloc[0] == pytest.approx(2.60, abs=0.005)
    assert b["usd_energy"].iloc[0] == pytest.approx(16.6 * 0.0759 + 92.0 * 0.01046, abs=1e-6)  # $2.22
    assert b["stormwater_gal"].iloc[1] == pytest.approx((0.17 + 0.42 * 6.35 / 7.62) * GAL_PER_M3, abs=0.01)
    assert b["electricity_kwh"].iloc[1] == pytest.approx(3.2 + 7.2 * 6.35 / 7.62, abs=1e-9)  # 9.2


def test_assess_values_the_crape_myrtles_in_the_zone_found_from_the_coordinates(charlotte):
    from treecalc.assessment import assess

    j = assessment_json(assess(charlotte))
    assert j["zone"] == "PiedmtCLT"
    rows = {r["tag"]: r for r in j["per_tree"]}
    assert rows["1"]["species_code"] == "LA6"
    # the tree valued as the one-tree tool values it in PiedmtCLT (whose parts are checked by hand below),
    # not by the Northeast's generic row
    one = benefits("Lagerstroemia indica", 6, zone="PiedmtCLT", valuations=False)
    assert one["dollars"]["stormwater"] == pytest.approx(262.41 * 0.0099, abs=0.0001)
    # (the JSON shows the total to the cent, as every output does: tests/models/test_benefit_cents.py)
    assert rows["1"]["usd_total_annual"] == pytest.approx(one["dollars"]["total_annual"], abs=0.005)
    ne = compute_benefits(pd.DataFrame({"species_code": ["LA6"], "dbh_in": [6.0]}))["usd_total_annual"].iloc[0]
    assert abs(rows["1"]["usd_total_annual"] - ne) > 1.0


def test_a_zone_given_reads_them_without_coordinates(unplaced):
    s = read_survey(unplaced, zone="PiedmtCLT")
    assert list(s.trees["species_code"]) == ["LA6", "LA6", "ACRU"]
    s = read_survey_in_zone(unplaced, site={"climate_zone": "GulfCoCHS"})
    assert list(s.trees["species_code"]) == ["LAIN", "LAIN", "ACRU"]  # the Gulf Coast lists L. indica itself


def test_in_the_northeast_they_stay_rejected_saying_where_they_are_listed(unplaced):
    s = read_survey_in_zone(unplaced)
    assert list(s.trees["species_code"]) == ["ACRU"]
    assert list(s.rejected["kind"]) == ["unresolved species", "unresolved species"]
    for reason in s.rejected["reason"]:
        assert "PiedmtCLT" in reason and "GulfCoCHS" in reason and "‹zone›" in reason


def test_the_northeast_reader_is_unchanged():
    assert int(data.catalogue()["northeast"].sum()) == 258
    assert resolve_one("Lagerstroemia indica").code is None
    assert resolve_one("LA6").code is None  # a code only other zones use is not a Northeast code
    assert resolve_one("Acer rubrum").code == "ACRU"


def test_one_tree_in_its_zone_and_refused_in_the_northeast_naming_the_zones():
    out = benefits("Lagerstroemia indica", 6, zone="PiedmtCLT", valuations=False)
    assert out["species_code"] == "LA6" and out["itree_code"] == "LA6"
    assert out["electricity_kwh"] == pytest.approx(16.6, abs=1e-9)
    near = benefits("Lagerstroemia indica", 6, latitude=35.2271, longitude=-80.8431, valuations=False)
    assert near["zone"] == "PiedmtCLT" and near["electricity_kwh"] == pytest.approx(16.6, abs=1e-9)
    with pytest.raises(UnknownSpecies, match="PiedmtCLT"):
        benefits("Lagerstroemia indica", 6)


def test_its_code_in_a_zone_that_does_not_list_it_reads_the_generic_row_and_says_so():
    # the Northeast's BDS OTHER row (a small deciduous broadleaf), disclosed per tree
    b = compute_benefits(pd.DataFrame({"species_code": ["LA6"], "dbh_in": [6.0]}))
    assert str(b["value_row"].iloc[0]) == "BDS OTHER" and str(b["zone"].iloc[0]) == "NoEastXXX"
    assert "has no i-Tree code for this species" in b["disclosures"].iloc[0]
    b = compute_benefits(pd.DataFrame({"species_code": ["LA6"], "dbh_in": [6.0]}), zone="MidWstMSP")
    assert str(b["value_row"].iloc[0]) == "BDS OTHER"
    assert "has no i-Tree code for this species" in b["disclosures"].iloc[0]


# --- growth in the tree's zone ------------------------------------------------------------------------------
# data/species/zones/PiedmtCLT/growth_age_class.csv, LA6: 10 yr 12.6 cm, 20 yr 33.1 cm (2.05 cm a year);
# ACRU: 10 yr 18.4 cm, 20 yr 35.3 cm (1.69 cm a year).
# LA6 at 6 in = 15.24 cm: age 10 + (15.24 - 12.6) / 2.05 = 11.2878 yr; a year later 15.24 + 2.05 cm
#   = 17.29 cm = 6.8071 in.
# ACRU at 8 in = 20.32 cm: age 10 + (20.32 - 18.4) / 1.69 = 11.1361 yr; two years later 20.32 + 2 x 1.69
#   = 23.70 cm = 9.3307 in. (In the Northeast ACRU follows its Urban Tree Database equation instead.)


def test_trees_grow_by_their_zones_age_class_table():
    from treecalc.models import growth

    age = growth.age_from_dbh(["LA6", "ACRU"], [6.0, 8.0], zone="PiedmtCLT")
    assert age == pytest.approx([10 + 2.64 / 2.05, 10 + 1.92 / 1.69], abs=1e-3)
    path = growth.dbh_path(["LA6", "ACRU"], [6.0, 8.0], 2, zone="PiedmtCLT")
    assert path[0, 1] == pytest.approx((15.24 + 2.05) / 2.54, abs=1e-3)
    assert path[1, 2] == pytest.approx((20.32 + 2 * 1.69) / 2.54, abs=1e-3)
    assert list(growth.growth_source(["LA6"], zone="PiedmtCLT")) == ["i-Tree Streets age class (PiedmtCLT LA6)"]
    assert list(growth.growth_source(["ACRU"])) == ["Urban Tree Database (ACRU, cub)"]  # the Northeast's, as before


def test_cumulative_benefits_use_the_zones_growth():
    from treecalc.models import growth

    # $1 per inch of DBH a year, no mortality, 3 years: LA6 6 in grows 2.05 cm = 0.80709 in a year
    # (ages 11.29 to 13.29, all between 10 and 20 yr): 6 + 6.80709 + 7.61417 = 20.42126
    total = growth.cumulative_benefits(["LA6"], [6.0], 3, lambda c, d: d, zone="PiedmtCLT")
    assert total[0] == pytest.approx(6 + (6 + 2.05 / 2.54) + (6 + 2 * 2.05 / 2.54), abs=1e-3)
    one = benefits("Lagerstroemia indica", 6, zone="PiedmtCLT", horizon_years=3, mortality_rate=0.0)
    grown = [
        compute_benefits(pd.DataFrame({"species_code": ["LA6"], "dbh_in": [d]}), zone="PiedmtCLT")
        for d in (6.0, 6 + 2.05 / 2.54, 6 + 4.10 / 2.54)
    ]
    assert one["cumulative_usd"] == pytest.approx(sum(float(g["usd_total_annual"].iloc[0]) for g in grown), abs=1e-3)


def test_an_assessment_in_the_zone_grows_its_trees_there_and_says_ctla_reads_the_northeast(charlotte):
    from treecalc.assessment import assess
    from treecalc.models import growth

    a = assess(charlotte, value_basis="cumulative:3", mortality=0.0)
    assert any("age-class curves of the PiedmtCLT zone" in s for s in a.method["data_sources"])
    # tree 1, LA6 6 in: its three years at 6, 6.80709 and 7.61417 in (the PiedmtCLT growth worked above), each
    # valued in PiedmtCLT
    path = growth.dbh_path(["LA6"], [6.0], 2, zone="PiedmtCLT")[0]
    assert path == pytest.approx([6.0, 6 + 2.05 / 2.54, 6 + 4.10 / 2.54], abs=1e-3)
    one = benefits("Lagerstroemia indica", 6, zone="PiedmtCLT", horizon_years=3, mortality_rate=0.0)
    assert any("CTLA species parameters" in w and "Northeast" in w for w in one["warnings"])
    assert not any("DBH-at-age tables" in w and "Northeast's" in w for w in one["warnings"])


def test_a_statement_of_the_charlotte_survey_verifies(charlotte, tmp_path):
    # verify reads the survey again: in the zone its coordinates give, or its crape myrtles would be rejected
    from treecalc.cli import main

    out = tmp_path / "charlotte.xlsx"
    assert main(["assess", str(charlotte), "--out", str(out)]) == 0
    assert main(["verify", str(out), str(charlotte)]) == 0
