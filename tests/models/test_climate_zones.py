"""The 16 i-Tree Streets climate zones: figures worked out by hand from each zone's published tables
(OpenTreeMap otm-ecoservice ``data/output__<ZONE>__<factor>.csv``) and prices (otm-core
``treemap/species/codes.py``), OpenTreeMap's own Go test figures, and the zone found from coordinates."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from treecalc.ingest import zone as climate_zones
from treecalc.models.benefits import benefits, compute_benefits
from treecalc.reference import data
from treecalc.report.json import assessment_json

GAL_PER_M3 = 264.172

# Each zone's generic large deciduous row "BDL OTHER" (the code in each zone's species list, assigned the
# zone's reference species' row) at DBH 15 in = 38.10 cm, a class midpoint, so the tables are read as
# printed: (zone, value row, stormwater m3, electricity kWh, natural gas kBtu, $/gal, $/kWh, $/kBtu).
#
#   CaNCCoJBK: ULAM; 5.0 m3 x 264.172 = 1320.86 gal x $0.004 = $5.28; 107.5 kWh x $0.1323 + 177.5 kBtu x $0.013048 = $14.22 + $2.32 = $16.54
#   CenFlaXXX: QULA2; 17.84 m3 x 264.172 = 4712.83 gal x $0.003 = $14.14; 73.4 kWh x $0.13182 + 14.9 kBtu x $0.002678 = $9.68 + $0.04 = $9.72
#   GulfCoCHS: CAIL; 14.19 m3 x 264.172 = 3748.60 gal x $0.00605 = $22.68; 172.9 x $0.09339 + 353.1 x $0.019742 = $16.15 + $6.97 = $23.12
#   InlEmpCLM: FRUH; 2.06 m3 x 264.172 = 544.19 gal x $0.0055 = $2.99; 97.8 x $0.20148 + -21.2 x $0.0066871 = $19.70 - $0.14 = $19.56
#   InlValMOD: CESI4; 3.1 m3 x 264.172 = 818.93 gal x $0.0078 = $6.39; 189.9 x $0.1166 + 37.3 x $0.0125278 = $22.14 + $0.47 = $22.61
#   InterWABQ: FRAM; 3.72 m3 x 264.172 = 982.72 gal x $0.005 = $4.91; 141.7 x $0.078844 + 527.6 x $0.011 = $11.17 + $5.80 = $16.98
#   LoMidWXXX: FRPE; 11.8 m3 x 264.172 = 3117.23 gal x $0.0062 = $19.33; 81.7 x $0.068 + 229.7 x $0.00973 = $5.56 + $2.23 = $7.79
#   MidWstMSP: FRPE; 5.55 m3 x 264.172 = 1466.15 gal x $0.0271 = $39.73; 234.2 x $0.0759 + 2699.1 x $0.0098 = $17.78 + $26.45 = $44.23
#   NMtnPrFNL: FRPE; 6.79 m3 x 264.172 = 1793.73 gal x $0.0108 = $19.37; 146.4 x $0.0636 (ruled; 0.636 published) + 1386.6 x
#              $0.009066 = $9.31 + $12.57 = $21.88
#   NoEastXXX: ZESE; 7.58 m3 x 264.172 = 2002.42 gal x $0.008 (data/species/prices.csv) = $16.02; 130.0 x $0.1401 + 4482.8 x
#              $0.01408 = $18.21 + $63.12 = $81.33
#   PacfNWLOG: ACMA; 3.49 m3 x 264.172 = 921.96 gal x $0.02779 = $25.62; 48.4 x $0.0512 + 177.2 x $0.01146 = $2.48 + $2.03 = $4.51
#   PiedmtCLT: ACSA2; 12.68 m3 x 264.172 = 3349.70 gal x $0.0099 = $33.16; 136.4 x $0.0759 + 512.4 x $0.01046 = $10.35 + $5.36 = $15.71
#   SWDsrtGDL: FRUH; 4.52 m3 x 264.172 = 1194.06 gal x $0.0048 = $5.73; 168.9 x $0.1208 + 107.4 x $0.009409 = $20.40 + $1.01 = $21.41
#   SoCalCSMA: PLAC; 4.77 m3 x 264.172 = 1260.10 gal x $0.00183 = $2.31; 124.0 x $0.16281 + 48.3 x $0.0131 = $20.19 + $0.63 = $20.82
#   TpIntWBOI: FRPE; 4.26 m3 x 264.172 = 1125.37 gal x $0.005 = $5.63; 225.3 x $0.060936 + 1113.5 x $0.0114245 = $13.73 + $12.72 = $26.45
#   TropicPacXXX: PISA2; 6.09 m3 x 264.172 = 1608.81 gal x $0.01 = $16.09; 83.7 x $0.122 + 0.0 x $0.0235 = $10.21
ZONE_EXAMPLES = [
    ("CaNCCoJBK", "ULAM", 5.00, 107.5, 177.5, 0.004, 0.1323, 0.013048, 5.28, 16.54),
    ("CenFlaXXX", "QULA2", 17.84, 73.4, 14.9, 0.003, 0.13182, 0.002678, 14.14, 9.72),
    ("GulfCoCHS", "CAIL", 14.19, 172.9, 353.1, 0.00605, 0.09339, 0.019742, 22.68, 23.12),
    ("InlEmpCLM", "FRUH", 2.06, 97.8, -21.2, 0.0055, 0.20148, 0.0066871, 2.99, 19.56),
    ("InlValMOD", "CESI4", 3.10, 189.9, 37.3, 0.0078, 0.1166, 0.0125278, 6.39, 22.61),
    ("InterWABQ", "FRAM", 3.72, 141.7, 527.6, 0.005, 0.078844, 0.011, 4.91, 16.98),
    ("LoMidWXXX", "FRPE", 11.80, 81.7, 229.7, 0.0062, 0.068, 0.00973, 19.33, 7.79),
    ("MidWstMSP", "FRPE", 5.55, 234.2, 2699.1, 0.0271, 0.0759, 0.0098, 39.73, 44.23),
    ("NMtnPrFNL", "FRPE", 6.79, 146.4, 1386.6, 0.0108, 0.0636, 0.009066, 19.37, 21.88),
    ("NoEastXXX", "ZESE", 7.58, 130.0, 4482.8, 0.008, 0.1401, 0.01408, 16.02, 81.33),
    ("PacfNWLOG", "ACMA", 3.49, 48.4, 177.2, 0.02779, 0.0512, 0.01146, 25.62, 4.51),
    ("PiedmtCLT", "ACSA2", 12.68, 136.4, 512.4, 0.0099, 0.0759, 0.01046, 33.16, 15.71),
    ("SWDsrtGDL", "FRUH", 4.52, 168.9, 107.4, 0.0048, 0.1208, 0.009409, 5.73, 21.41),
    ("SoCalCSMA", "PLAC", 4.77, 124.0, 48.3, 0.00183, 0.16281, 0.0131, 2.31, 20.82),
    ("TpIntWBOI", "FRPE", 4.26, 225.3, 1113.5, 0.005, 0.060936, 0.0114245, 5.63, 26.45),
    ("TropicPacXXX", "PISA2", 6.09, 83.7, 0.0, 0.01, 0.122, 0.0235, 16.09, 10.21),
]


def test_there_are_sixteen_zones_each_with_an_example():
    assert sorted(z[0] for z in ZONE_EXAMPLES) == sorted(data.zones().index) and len(ZONE_EXAMPLES) == 16


@pytest.mark.parametrize("zone,row,m3,kwh,kbtu,p_gal,p_kwh,p_kbtu,usd_storm,usd_energy", ZONE_EXAMPLES)
def test_each_zone_by_hand_from_its_tables(zone, row, m3, kwh, kbtu, p_gal, p_kwh, p_kbtu, usd_storm, usd_energy):
    out = compute_benefits(pd.DataFrame({"species_code": ["BDL OTHER"], "dbh_in": [15.0]}), zone=zone).iloc[0]
    assert out["zone"] == zone and out["value_row"] == row
    assert out["stormwater_gal"] == pytest.approx(m3 * GAL_PER_M3)
    assert out["electricity_kwh"] == pytest.approx(kwh)
    assert out["natural_gas_therms"] == pytest.approx(kbtu / 100)
    assert out["usd_stormwater"] == pytest.approx(m3 * GAL_PER_M3 * p_gal)
    assert out["usd_energy"] == pytest.approx(kwh * p_kwh + kbtu * p_kbtu)
    # the cents of the comment above, as a reader rounds them
    assert round(out["usd_stormwater"], 2) == usd_storm and round(out["usd_energy"], 2) == usd_energy


def test_one_frame_of_all_zones_gives_each_zone_its_own_figures():
    zones = [z[0] for z in ZONE_EXAMPLES]
    mixed = compute_benefits(pd.DataFrame({"species_code": "BDL OTHER", "dbh_in": 15.0, "zone": zones}))
    assert zones, "nothing to check: the loop below would pass on no item"
    for k, zone in enumerate(zones):
        alone = compute_benefits(pd.DataFrame({"species_code": ["BDL OTHER"], "dbh_in": [15.0]}), zone=zone)
        assert mixed["usd_total_annual"].iloc[k] == alone["usd_total_annual"].iloc[0]


def test_piedmont_red_maple_by_hand_and_the_acceptance_commands(capsys):
    # 12 in = 30.48 cm, half way from 22.86 to 38.10 cm (PiedmtCLT ACRU tables):
    # stormwater (4.47 + 13.19) / 2 = 8.83 m3 x 264.172 = 2332.64 gal x $0.0099 = $23.09
    # electricity (47.3 + 112.2) / 2 = 79.75 kWh x $0.0759 = $6.05; gas (221.4 + 420.6) / 2 = 321.0 kBtu x $0.01046 = $3.36
    from treecalc.cli import main

    r = benefits("Acer rubrum", 12, zone="PiedmtCLT", valuations=False)
    assert r["zone"] == "PiedmtCLT" and r["itree_code"] == "ACRU" and r["zone_default"] is False
    assert r["stormwater_gal"] == pytest.approx(8.83 * GAL_PER_M3)
    assert r["dollars"]["stormwater"] == pytest.approx(8.83 * GAL_PER_M3 * 0.0099)
    assert r["dollars"]["energy"] == pytest.approx(79.75 * 0.0759 + 321.0 * 0.01046)
    got = []
    for flags in (["--zone", "PiedmtCLT"], ["--lat", "35.23", "--lon", "-80.84"], ["--zone", "south"]):
        assert main(["benefits", "--species", "Acer rubrum", "--dbh", "12", "--json", *flags]) == 0
        got.append(json.loads(capsys.readouterr().out))
    assert {g["zone"] for g in got} == {"PiedmtCLT"}
    assert len({g["dollars"]["total_annual"] for g in got}) == 1
    # the command shows dollars to the cent, its parts adding up to its total (tests/models/test_benefit_cents.py)
    assert got[0]["dollars"]["energy"] == pytest.approx(79.75 * 0.0759 + 321.0 * 0.01046, abs=0.005)


def test_the_northeast_is_the_default_and_the_same_with_or_without_a_zone():
    frame = pd.DataFrame(
        {
            "species": ["Acer rubrum", "Quercus rubra", "Ilex opaca", "Pinus strobus"],
            "dbh_in": [12.0, 20.0, 70.0, 3.0],
            "land_use": ["single_family", "", "institutional", "park_vacant_other"],
        }
    )
    plain = compute_benefits(frame)
    zoned = compute_benefits(frame, zone="NoEastXXX")
    numbers = [c for c in plain.columns if plain[c].dtype == float]
    assert "zone" not in plain and (zoned["zone"] == "NoEastXXX").all()
    pd.testing.assert_frame_equal(plain[numbers], zoned[numbers])
    r = benefits("Acer rubrum", 12, valuations=False)
    assert r["zone"] == "NoEastXXX" and r["zone_default"] is True


def test_a_species_without_a_code_in_its_zone_reads_the_generic_row_and_says_so():
    # horsechestnut (AEHI, typed BDL, broadleaf deciduous large, in the Northeast list) is not in the Midwest (MidWstMSP) list
    out = compute_benefits(pd.DataFrame({"species_code": ["AEHI", "AEHI"], "dbh_in": [10.0, 10.0]}), zone="MidWstMSP")
    assert len(out) == 2 and (out["value_row"] == "BDL OTHER").all()
    assert "MidWstMSP" in out["disclosures"].iloc[0] and "no i-Tree code for this species" in out["disclosures"].iloc[0]
    assert (out["usd_total_annual"] > 0).all()


def test_opentreemaps_go_figures_lower_midwest_american_elm():
    # otm-ecoservice eco/eco_test.go TestSpecificTreeData: LoMidWXXX, ULAM (-> ULPU), DBH 11.0 cm; OpenTreeMap
    # compares to 5 decimals after truncation
    targets = {
        "electricity": 12.180839,
        "natural_gas": -18.345013,
        "hydro_interception": 2.5919028,
        "co2_sequestered": 51.42926,
        "co2_avoided": 12.0864829,
        "co2_storage": 110.79107,
        "aq_nox_avoided": 0.01548490,
        "aq_sox_avoided": 0.06590,
    }
    out = compute_benefits(pd.DataFrame({"species_code": ["ULAM"], "dbh_in": [11.0 / 2.54]}), zone="LoMidWXXX").iloc[0]
    assert out["value_row"] == "ULPU"
    assert int(out["electricity_kwh"] * 1e5) == int(targets["electricity"] * 1e5)
    assert int(out["natural_gas_therms"] * 100 * 1e5) == int(targets["natural_gas"] * 1e5)
    assert int(out["stormwater_gal"] / GAL_PER_M3 * 1e5) == int(targets["hydro_interception"] * 1e5)
    assert out["co2_stored_lb"] == pytest.approx(targets["co2_storage"] * 2.20462)


@pytest.mark.parametrize(
    "zone,row",
    [
        ("PiedmtCLT", "BDS OTHER"),
        ("NoEastXXX", "BDS OTHER"),
        ("CaNCCoJBK", "BDS OTHER"),
        ("InlValMOD", "MAGR"),
        ("SoCalCSMA", "BDS OTHER"),
        ("GulfCoCHS", "BDS OTHER"),
        ("CenFlaXXX", "BDS OTHER"),
        ("PacfNWLOG", "BDS OTHER"),
        ("InlEmpCLM", "MAGR"),
    ],
)
def test_opentreemaps_go_mappings_saucer_magnolia(zone, row):
    # eco/eco_test.go TestDataMappings: MASO's i-Tree code per region
    out = compute_benefits(pd.DataFrame({"species_code": ["MASO"], "dbh_in": [10.0]}), zone=zone)
    assert out["value_row"].iloc[0] == row


def test_prices_ruled_and_flagged():
    p = data.zone_prices()
    assert p["NMtnPrFNL"]["electricity"] == 0.0636
    assert p["CenFlaXXX"]["natural_gas"] == 0.002678 and p["TpIntWBOI"]["sox"] == 0.06
    notes = data.zone_price_notes()
    assert "slip" in notes["NMtnPrFNL", "electricity"]
    assert "flagged" in notes["CenFlaXXX", "natural_gas"] and "flagged" in notes["TpIntWBOI", "sox"]
    table = pd.read_csv(data.SPECIES_DIR / "zones" / "prices.csv")
    ne = table[(table.zone == "NoEastXXX") & (table.factor_group == "hydro_interception")].iloc[0]
    assert ne.price_usd_per_unit == 0.008 and ne.published_usd_per_unit == 0.0008


def test_the_build_logged_the_spreadsheet_junk():
    log = pd.read_csv(data.SPECIES_DIR / "zones" / "build_log.csv", keep_default_na=False)
    items = " | ".join(log["item"])
    assert "'#VALUE!'" in items and "'22.86'" in items and "'0'" in items and "'#REF!'" in items
    broc = log[(log.zone == "SoCalCSMA") & (log["item"] == "BROC")]
    assert len(broc) == 1 and "BRPO" in broc["reason"].iloc[0]
    assert log["reason"].str.startswith("spaces cleaned").any()
    sp = pd.read_csv(data.SPECIES_DIR / "zones" / "SoCalCSMA" / "species.csv")
    assert (sp["scientific_name"] == "Brachychiton populneum").sum() == 1
    assert not sp["scientific_name"].str.contains("  |\xa0").any()


@pytest.mark.parametrize(
    "lat,lon,zone",
    [
        (35.23, -80.84, "PiedmtCLT"),
        (44.98, -93.27, "MidWstMSP"),
        (28.54, -81.38, "CenFlaXXX"),
        (41.2, -73.88, "NoEastXXX"),
    ],
)
def test_the_zone_is_found_from_coordinates(lat, lon, zone):
    assert climate_zones.zone_at(lat, lon).zone == zone


def test_honolulu_lies_in_the_tropical_zone_whose_reference_city_it_is():
    # OpenTreeMap's Tropical polygon is southern Florida only; the build adds Hawaii's extent (18.92-28.45 N,
    # 154.80-178.37 W) to it. Honolulu (21.31, -157.86), Hilo (19.72, -155.08) and Lihue (21.98, -159.37) are in
    # it, with no other zone within 10 km; Key West (24.56, -81.78) is still in it; a point 2 deg east of the
    # islands (20.0, -152.5) is in no zone
    for lat, lon in ((21.31, -157.86), (19.72, -155.08), (21.98, -159.37), (24.56, -81.78)):
        hit = climate_zones.zone_at(lat, lon)
        assert hit.zone == "TropicPacXXX" and hit.near == {}, (lat, lon)
    assert climate_zones.zone_at(20.0, -152.5).zone is None
    r = benefits("Acer rubrum", 12, latitude=21.31, longitude=-157.86, valuations=False)
    assert r["zone"] == "TropicPacXXX" and r["zone_found_from"] == "coordinates"
    log = pd.read_csv(data.SPECIES_DIR / "zones" / "build_log.csv", keep_default_na=False)
    added = log[(log.zone == "TropicPacXXX") & log["item"].str.startswith("box")]
    assert len(added) == 1 and "PSW-GTR-216" in added["reason"].iloc[0] and "issue #45" in added["reason"].iloc[0]


def test_many_points_at_once_give_each_point_its_own_answer():
    # one call over 2,000 points (the vectorised per-zone tests) against one call per point, at the cities above,
    # Honolulu, a point in no zone (0, 0), Boise (near Temperate Interior West, 43.6, -116.2) and points between
    rng = np.random.default_rng(3)
    fixed = [
        (35.23, -80.84),
        (44.98, -93.27),
        (28.54, -81.38),
        (41.2, -73.88),
        (21.31, -157.86),
        (0.0, 0.0),
        (43.6, -116.2),
    ]
    lat = np.r_[[p[0] for p in fixed], rng.uniform(24, 49, 2000)]
    lon = np.r_[[p[1] for p in fixed], rng.uniform(-125, -66, 2000)]
    together = climate_zones.zones_at(lat, lon)
    some = rng.choice(len(lat), 60, replace=False).tolist()
    for k in list(range(len(fixed))) + some:
        assert together[k] == climate_zones.zone_at(float(lat[k]), float(lon[k])), k
    assert [h.zone for h in together[:7]] == [
        "PiedmtCLT",
        "MidWstMSP",
        "CenFlaXXX",
        "NoEastXXX",
        "TropicPacXXX",
        None,
        "NMtnPrFNL",
    ]
    assert "TpIntWBOI" in together[6].near and together[6].near["TpIntWBOI"] <= 10.0


@pytest.mark.parametrize("lat,lon", [(90.0, 0.0), (-90.0, 0.0), (90.0, -73.9), (89.99, -100.0), (86.0, -150.0)])
def test_a_point_at_a_pole_or_off_the_boundaries_map_is_near_no_zone(lat, lon):
    # Past EPSG:3857's edge (85.05 deg) a point is clipped onto the map's top or bottom line and cos(latitude) goes
    # to 0: at 90 N every one of the 16 zones was reported 0 km away, "within 10 km" of a tree at the pole. The
    # nearest zone to the North Pole is Alaska's or none at all, thousands of km off
    hit = climate_zones.zone_at(lat, lon)
    assert hit.zone is None and hit.near == {}
    r = benefits("Acer rubrum", 12, latitude=lat, longitude=lon, zone="NoEastXXX", valuations=False)
    assert r["zone"] == "NoEastXXX" and r["zone_found_from"] == "given"
    assert r["warnings"] and "lies in no i-Tree Streets climate zone" in r["warnings"][0]
    assert not [w for w in r["warnings"] if "km from the" in w], r["warnings"]


def test_the_distance_to_a_boundary_is_the_geodesic_one():
    # Fairfield's maples (38.20 N, 122.10 W) lie in InlValMOD 3.5 km from CaNCCoJBK and Napa (38.20 N, 122.30 W)
    # 9.8 km from InlValMOD, as the Mercator scale gave them at the tree's latitude; on the WGS84 ellipsoid
    # (pyproj Geod) the same to 0.1 km
    assert climate_zones.zone_at(38.20, -122.10).near == {"CaNCCoJBK": 3.5}
    assert climate_zones.zone_at(38.20, -122.30).near == {"InlValMOD": 9.8}


def test_near_a_boundary_the_other_zones_total_is_given():
    r = benefits("Acer rubrum", 12, latitude=43.6, longitude=-116.2, valuations=False)
    other = benefits("Acer rubrum", 12, zone="TpIntWBOI", valuations=False)
    assert r["zone"] == "NMtnPrFNL" and r["zone_found_from"] == "coordinates"
    near = [w for w in r["warnings"] if "TpIntWBOI" in w]
    assert near and f"${other['dollars']['total_annual']:,.2f}" in near[0]


def test_a_point_in_no_zone_and_an_unknown_zone_are_errors(capsys):
    from treecalc.cli import main

    assert main(["benefits", "--species", "ACRU", "--dbh", "12", "--lat", "0", "--lon", "0"]) == 2
    assert "no i-Tree Streets climate zone" in capsys.readouterr().err
    assert main(["benefits", "--species", "ACRU", "--dbh", "12", "--zone", "Atlantis"]) == 2
    assert "unknown climate zone 'Atlantis'" in capsys.readouterr().err


def test_a_survey_in_charlotte_is_valued_in_the_piedmont(tmp_path):
    from treecalc.assessment import assess

    f = tmp_path / "charlotte.csv"
    f.write_text(
        "Tag,Species,DBH (in),Latitude,Longitude,Action\n"
        "1,Acer rubrum,12,35.23,-80.84,retain\n"
        "2,Acer rubrum,12,35.24,-80.85,remove\n",
        encoding="utf-8",
    )
    a = assess(f)
    assert assessment_json(a)["zone"] == "PiedmtCLT" and a.options["zone"]["source"] == "tree coordinates"
    site = assess(f, site={"climate_zone": "Midwest"})
    assert site.options["zone"] == {**site.options["zone"], "zone": "MidWstMSP", "source": "site fact climate_zone"}
    # by hand above: $149.82 a red maple of 12 in in the Piedmont
    here = compute_benefits(pd.DataFrame({"species": ["Acer rubrum"], "dbh_in": [12.0]}), zone="PiedmtCLT")
    assert np.isclose(here["usd_total_annual"].iloc[0], 149.8207769, atol=1e-6)


def test_survey_exports_benefits_and_opentreemaps_layout(tmp_path, capsys):
    import io

    from treecalc.cli import main

    f = tmp_path / "s.csv"
    f.write_text(
        "Tag,Species,DBH (in),Latitude,Longitude\nA1,Acer rubrum,12,35.23,-80.84\nA2,Quercus rubra,20,35.24,-80.85\n",
        encoding="utf-8",
    )
    assert main(["survey", str(f), "--export", "benefits"]) == 0
    ben = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert ben["zone"].tolist() == ["PiedmtCLT"] * 2 and ben["itree_code"].iloc[0] == "ACRU"
    # 12 in red maple in the Piedmont, by hand above: $149.82/yr
    assert round(ben["usd_total_annual"].iloc[0], 2) == 149.82
    assert main(["survey", str(f), "--export", "opentreemap", "--zone", "MidWstMSP"]) == 0
    otm = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert list(otm.columns[:3]) == ["point x", "point y", "owner orig id"]  # otm-core importer/fields.py
    assert otm[["genus", "species"]].iloc[0].tolist() == ["Acer", "rubrum"]
    assert otm["point x"].iloc[0] == -80.84 and "i-tree region" not in otm  # a column the importer does not know
    assert main(["survey", str(f), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["zone"]["zone"] == "PiedmtCLT"


def test_survey_exports_an_existing_inventory_for_itree_eco(tmp_path, capsys):
    import io

    from treecalc.cli import main

    f = tmp_path / "eco.csv"
    f.write_text(
        "Tag,Species,DBH (in),Condition,Latitude,Longitude\n"
        "E1,Acer rubrum,12,Good,35.23,-80.84\n"
        "E2,Fraxinus americana,20.5,Dead,35.24,-80.85\n",
        encoding="utf-8",
    )
    assert main(["survey", str(f), "--export", "itree-eco"]) == 0
    eco = pd.read_csv(io.StringIO(capsys.readouterr().out))
    # Eco's two required variables, species and DBH (inches as read), the tag and the coordinates as given;
    # the dead ash 100 % dieback, the living maple's dieback not given
    assert list(eco.columns) == ["Tree ID", "Species", "DBH (in)", "Latitude", "Longitude", "Percent Dieback"]
    assert eco["Tree ID"].tolist() == ["E1", "E2"] and eco["Species"].tolist() == ["Acer rubrum", "Fraxinus americana"]
    assert eco["DBH (in)"].tolist() == [12.0, 20.5] and eco["Latitude"].tolist() == [35.23, 35.24]
    assert eco["Percent Dieback"].isna().iloc[0] and eco["Percent Dieback"].iloc[1] == 100


def test_a_valuation_outside_the_northeast_says_its_ctla_reads_the_northeast_and_its_growth_the_zone():
    # the trees now grow by their zone's own DBH-at-age table (test_zone_only_species works the figures);
    # CTLA's species parameters are still the Northeast's, and that is what is said
    here = benefits("Acer rubrum", 12, zone="PiedmtCLT")
    assert any("Northeast's CTLA species parameters" in w and "zone's DBH-at-age table" in w for w in here["warnings"])
    assert not any("Northeast's DBH-at-age" in w for w in here["warnings"])
    home = benefits("Acer rubrum", 12, zone="NoEastXXX")
    assert not any("CTLA" in w for w in home["warnings"])
    assert not any("CTLA" in w for w in benefits("Acer rubrum", 12, zone="PiedmtCLT", valuations=False)["warnings"])


def test_a_survey_whose_trees_lie_in_no_zone_is_warned_it_is_valued_in_the_northeast(tmp_path, capsys):
    """San Juan, Puerto Rico (18.40 N, 66.06 W) lies in none of the 16 zones (i-Tree Streets has no Caribbean
    zone): the trees fall back to the Northeast's tables, and the user who gave coordinates is told so in the
    warnings the text output prints, not only in the JSON's zone notes."""
    from treecalc.assessment import assess
    from treecalc.cli import main

    f = tmp_path / "san_juan.csv"
    f.write_text(
        "Tag,Species,DBH (in),Latitude,Longitude,Action\n"
        "1,Acer rubrum,12,18.40,-66.06,remove\n"
        "2,Quercus rubra,14,18.41,-66.07,retain\n",
        encoding="utf-8",
    )
    a = assess(f)
    assert a.options["zone"]["zone"] == "NoEastXXX" and a.options["zone"]["source"] == "default"
    said = [w for w in a.warnings if "none of the 2 trees with coordinates" in w]
    assert said and "‹zone›" in said[0]  # the keyword: the CLI says --zone, the app its control
    assert main(["assess", str(f)]) == 0
    assert "none of the 2 trees with coordinates lies in an i-Tree Streets climate zone" in capsys.readouterr().out


def test_an_export_says_which_rows_it_leaves_out(tmp_path, capsys):
    """Rows the reader rejects are not in an export (Eco needs a species and a DBH for each tree): the export
    says so on standard error, row by row, instead of handing Eco an inventory short of trees in silence."""
    import io

    from treecalc.cli import main

    f = tmp_path / "eco.csv"
    f.write_text(
        "Tag,Species,DBH (in),Condition\n"
        "E1,Acer rubrum,12,Good\n"  # row 2
        "E2,Fraxinus americana,20.5,Dead\n"  # row 3
        "E3,Érable rouge,10,Good\n"  # row 4: a French name the catalogue does not hold
        "E4,Acer rubrum,,Good\n"  # row 5: no DBH
        "E5,Quercus rubra,14,Fair\n",  # row 6
        encoding="utf-8",
    )
    for fmt in ("itree-eco", "benefits", "opentreemap"):
        assert main(["survey", str(f), "--export", fmt]) == 0
        out, err = capsys.readouterr()
        assert len(pd.read_csv(io.StringIO(out))) == 3  # E1, E2, E5 of the 5 rows
        assert "2 of the 5 rows are not exported" in err
        assert "row 4, column 'Species'" in err and "row 5, column 'DBH (in)'" in err


def _two_zone_survey(tmp_path):
    """Three Chinese pistaches near Napa (38.20 N, 122.30 W: Northern California Coast, CaNCCoJBK) and two red
    maples near Fairfield (38.20 N, 122.10 W: Inland Valleys, InlValMOD, 3.5 km from CaNCCoJBK). PICH has no code in the Northeast
    catalogue, so the first read rejects the pistaches and only the two maples place the survey (InlValMOD);
    read again there, all five are trees, and 3 of the 5 lie in CaNCCoJBK."""
    f = tmp_path / "napa_sacramento.csv"
    f.write_text(
        "Tag,Species,DBH (in),Latitude,Longitude,Action\n"
        "1,Pistacia chinensis,10,38.200,-122.300,retain\n"
        "2,Pistacia chinensis,10,38.201,-122.301,retain\n"
        "3,Pistacia chinensis,10,38.202,-122.302,retain\n"
        "4,Acer rubrum,12,38.200,-122.100,retain\n"
        "5,Acer rubrum,12,38.201,-122.101,retain\n",
        encoding="utf-8",
    )
    return f


def test_a_survey_is_read_in_the_zone_it_is_valued_in(tmp_path):
    """The zone whose species list reads the trees is the zone that values them: a survey read in InlValMOD
    but valued in CaNCCoJBK (3 of 5 trees there) says "of the InlValMOD species list" of trees it values with
    CaNCCoJBK's tables."""
    from treecalc.ingest.zone import read_survey_in_zone, survey_zone

    s = read_survey_in_zone(_two_zone_survey(tmp_path))
    assert len(s.trees) == 5
    valued = survey_zone(s.trees, s.site).zone
    assert valued == "CaNCCoJBK"  # 3 of the 5 trees with coordinates
    said = [w for w in map(str, s.grouped_warnings()) if "Pistacia chinensis" in w]
    assert said and "of the CaNCCoJBK species list" in said[0], said


def test_trees_of_two_zones_are_each_valued_in_their_own_and_warned_of_the_boundary_near_them(tmp_path):
    """The two maples lie in InlValMOD 3.5 km from the CaNCCoJBK boundary (zones_at), the pistaches in CaNCCoJBK
    9.8 km from InlValMOD. Each tree is valued in the zone it lies in (the maples no longer in CaNCCoJBK, the
    survey's majority), the zones are counted, and each boundary note compares the trees' total in the other zone
    with their total in their own."""
    from treecalc.ingest.zone import read_survey_in_zone
    from treecalc.models.benefits import survey_zone  # the zone's notes with the trees valued here and there

    s = read_survey_in_zone(_two_zone_survey(tmp_path))
    z = survey_zone(s.trees, s.site)
    assert z.zone == "CaNCCoJBK" and z.counts == (("CaNCCoJBK", 3), ("InlValMOD", 2))
    assert z.per_tree.tolist() == ["CaNCCoJBK"] * 3 + ["InlValMOD"] * 2
    assert "3 in the Northern California Coast zone (CaNCCoJBK), 2 in the Inland Valleys zone (InlValMOD)" in z.notes[0]
    maples = pd.DataFrame({"species": ["Acer rubrum"] * 2, "dbh_in": [12.0, 12.0]})
    own = compute_benefits(maples, zone="InlValMOD")["usd_total_annual"].sum()
    there = compute_benefits(maples, zone="CaNCCoJBK")["usd_total_annual"].sum()
    near = [n for n in z.notes if n.startswith("2 trees lie within 10 km of the Northern California Coast zone")]
    assert near and f"total ${there:,.2f} (here ${own:,.2f}" in near[0], z.notes
    assert [n for n in z.notes if "(InlValMOD) boundary" in n], z.notes


def test_projected_coordinates_none_of_which_lie_on_earth_are_not_called_no_coordinates(tmp_path):
    """UTM 15N eastings/northings (Minneapolis: 478,712 E, 4,980,764 N) given with crs=EPSG:4326 (degrees) are
    no longitude or latitude: the survey has coordinates, all out of range for its crs, and must say so (and
    name the crs), not that it has none."""
    from treecalc.ingest.zone import survey_zone

    trees = pd.DataFrame({"x": [478712.47, 478634.00], "y": [4980764.11, 4980875.46]})
    z = survey_zone(trees, {"crs": "EPSG:4326"})
    assert z.zone == "NoEastXXX"
    text = " ".join(z.notes)
    assert "no tree coordinates" not in text and "EPSG:4326" in text and "2 trees" in text, z.notes
    assert z.placed


def test_opentreemaps_species_column_is_the_epithet_not_spp_or_the_hybrid_sign(tmp_path, capsys):
    """OpenTreeMap's importer reads ``genus`` and ``species`` (the specific epithet) apart: a genus-only row
    ("Lagerstroemia spp", PiedmtCLT's LA6; "Acer sp.") has no epithet, and a hybrid ("Aesculus x carnea") has
    the epithet "x carnea", not the bare hybrid sign "x"."""
    import io

    from treecalc.cli import main

    f = tmp_path / "charlotte.csv"
    f.write_text(
        "Tag,Species,DBH (in),Latitude,Longitude\n"
        "1,Lagerstroemia,6,35.23,-80.84\n"
        "2,Aesculus x carnea,10,35.23,-80.84\n"
        "3,Acer rubrum,12,35.23,-80.84\n",
        encoding="utf-8",
    )
    assert main(["survey", str(f), "--export", "opentreemap"]) == 0
    otm = pd.read_csv(io.StringIO(capsys.readouterr().out), keep_default_na=False)
    assert otm["genus"].tolist() == ["Lagerstroemia", "Aesculus", "Acer"], otm
    assert otm["species"].tolist() == ["", "x carnea", "rubrum"], otm
