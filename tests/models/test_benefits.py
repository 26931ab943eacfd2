"""benefits() / compute_benefits(): the chained models and their parameters."""

import importlib

import numpy as np
import pandas as pd
import pytest

import treecalc
from treecalc.models.benefits import default_large_tree_leaf_area_m2
from treecalc.reference.species import UnknownSpecies
from treecalc.report.json import assessment_json


def test_default_large_tree_leaf_area():
    # BDL OTHER at 40 years: 58.3 cm DBH (dbh_by_age_class); lsa at 53.34 cm = 531.8,
    # at 68.58 cm = 688.0 (BDL OTHER row) -> 531.8 + (58.3-53.34)/15.24 x 156.2 = 582.6..583.9
    assert default_large_tree_leaf_area_m2() == pytest.approx(583.84, abs=0.01)


def test_red_maple_12in_dollars_by_hand():
    r = treecalc.benefits("Red maple", 12)
    d = r["dollars"]
    assert r["species_code"] == "ACRU" and r["itree_code"] == "ACRU"
    # energy: 72.05 kWh x 0.1401 + 2746.65 kBtu x 0.01408 = 10.0942 + 38.6728 = 48.767
    assert d["energy"] == pytest.approx(48.767037)
    # co2: (51.05 + 98.4) kg x 2.20462 x 0.00334 = 329.48 lb x 0.00334 = 1.1005
    assert d["co2"] == pytest.approx(149.45 * 2.20462 * 0.00334)
    # property: L = (7.9 + 7.6)/2 = 7.75 m2/yr; 7.75 x 0.0088 x 500,000 x 1.0 / 583.835 = 58.41
    assert d["property"] == pytest.approx(7.75 * 4400 / 583.8354, rel=1e-6)
    assert d["total_annual"] == pytest.approx(
        sum(d[k] for k in ("stormwater", "energy", "air_quality", "co2", "property"))
    )
    # stormwater: 5.125 m3 x 264.172 = 1,353.88 gal x $0.008 = 10.8311 (at OpenTreeMap's $0.0008: 1.0831)
    assert d["stormwater"] == pytest.approx(5.125 * 264.172 * 0.008)
    # total: 10.8311 + 48.7670 + 7.9997 (air) + 1.1005 + 58.4069 = 127.1052 (was 117.36 at $0.0008)
    assert round(d["total_annual"], 2) == 127.11


def test_json_keys():
    r = treecalc.benefits("ACRU", 12)
    for k in (
        "species_code",
        "scientific_name",
        "common_name",
        "itree_code",
        "dbh_in",
        "stormwater_gal",
        "electricity_kwh",
        "natural_gas_therms",
        "air_quality_lb",
        "co2_sequestered_lb",
        "co2_avoided_lb",
        "co2_stored_lb",
        "leaf_area_increase_m2",
    ):
        assert k in r
    assert set(r["dollars"]) == {"stormwater", "energy", "air_quality", "co2", "property", "total_annual"}


def test_parameters_change_the_property_value():
    base = treecalc.benefits("ACRU", 12)["dollars"]["property"]
    assert treecalc.benefits("ACRU", 12, home_price_usd=1_000_000)["dollars"]["property"] == pytest.approx(2 * base)
    assert treecalc.benefits("ACRU", 12, large_tree_leaf_area_m2=583.8354330708662 / 2)["dollars"][
        "property"
    ] == pytest.approx(2 * base)
    # multi-family: C = 0.75
    mf = treecalc.benefits("ACRU", 12, land_use="multi_family")["dollars"]["property"]
    assert mf == pytest.approx(0.75 * base)


def test_tulip_tree_values_come_from_bdl_other():
    a = treecalc.benefits("Tulip tree", 20)
    b = treecalc.compute_benefits(pd.DataFrame({"species_code": ["BDL OTHER"], "dbh_in": [20.0]})).iloc[0]
    assert a["itree_code"] == "BDL OTHER"
    assert a["dollars"]["total_annual"] == pytest.approx(b["usd_total_annual"])


def test_compute_benefits_equals_single_tree_calls():
    frame = pd.DataFrame(
        {
            "species": ["Red maple", "Quercus rubra", "ginkgo", "Red maple"],
            "dbh_in": [12, 30.5, 4, 60],
            "land_use": ["", "single_family", None, "institutional"],
        }
    )
    out = treecalc.compute_benefits(frame)
    for i, row in frame.iterrows():
        one = treecalc.benefits(row["species"], row["dbh_in"], land_use=row["land_use"])
        assert out.loc[i, "usd_total_annual"] == pytest.approx(one["dollars"]["total_annual"])
        assert out.loc[i, "stormwater_gal"] == pytest.approx(one["stormwater_gal"])
    assert list(out["land_use"].astype(str)) == ["unspecified", "single_family", "unspecified", "institutional"]


def test_errors_name_the_problem():
    with pytest.raises(UnknownSpecies):
        treecalc.benefits("Dragon tree of Mordor", 10)
    with pytest.raises(ValueError, match="positive"):
        treecalc.benefits("ACRU", 0)
    with pytest.raises(ValueError, match="row 1"):
        treecalc.compute_benefits(pd.DataFrame({"species_code": ["ACRU", "ACRU"], "dbh_in": [3, "x"]}))
    # an infinite DBH was valued (as 45 in, $144.46/yr for ACRU) by compute_benefits while benefits() refused it
    for bad in (float("inf"), "inf", -float("inf")):
        with pytest.raises(ValueError, match="row 0: dbh_in must be a positive number"):
            treecalc.compute_benefits(pd.DataFrame({"species_code": ["ACRU"], "dbh_in": [bad]}))
    with pytest.raises(ValueError, match="positive"):
        treecalc.benefits("ACRU", float("inf"))
    with pytest.raises(TypeError, match="unknown benefit parameter"):
        treecalc.compute_benefits(pd.DataFrame({"species_code": ["ACRU"], "dbh_in": [3]}), colour="red")


def test_million_style_input_types():
    # arrow-backed strings, categoricals and numpy object arrays all work
    frame = pd.DataFrame({"species_code": pd.Categorical(["ACRU", "QURU"]), "dbh_in": np.array([10.0, 20.0])})
    out = treecalc.compute_benefits(frame)
    assert list(out["species_code"].astype(str)) == ["ACRU", "QURU"]


def test_replacement_value_and_cumulative_are_reported():
    r = treecalc.benefits("ACRU", 12)
    # CTLA: TA = pi x 6^2 = 113.097 sq in; [530 + 66 x (113.097 - 7.065)] = 7,528.13;
    # x species rating 0.90 x condition good 0.80 = 5,420.26
    assert r["replacement_value_usd"] == pytest.approx(5420.26, abs=0.01)
    # 20 years: year t valued at the DBH at the start of year t (growth.dbh_path), counted for the share
    # alive then under the default 4.3 %/yr mortality (Roman & Scatena 2011): weight 0.957^(t-1), t = 1..20
    from treecalc.models import growth

    path = growth.dbh_path(["ACRU"], [12.0], 20)[0][:20]
    expected = sum(treecalc.benefits("ACRU", d)["dollars"]["total_annual"] * 0.957**t for t, d in enumerate(path))
    assert r["cumulative_mortality_rate"] == 0.043
    assert r["cumulative_usd"] == pytest.approx(expected)
    r0 = treecalc.benefits("ACRU", 12, mortality_rate=0)  # no deaths: the plain sum, and the tree grows
    assert r0["cumulative_usd"] > 20 * r0["dollars"]["total_annual"]
    assert r["cumulative_usd"] < r0["cumulative_usd"]
    r2 = treecalc.benefits("ACRU", 12, mortality_rate=0.05)
    assert r2["cumulative_usd"] < r["cumulative_usd"]


@pytest.mark.parametrize(
    "kw,msg",
    [
        ({"home_price_usd": float("nan")}, "home price"),
        ({"home_price_usd": -1}, "home price"),
        ({"large_tree_leaf_area_m2": 0}, "leaf area"),
        ({"land_use_factors": {"multi_family": 1.5}}, "land-use factor"),
        ({"sale_price_fraction": 2}, "share of the sale price"),
    ],
)
def test_bad_parameters_are_named_not_silently_replaced(kw, msg):
    # a leaf area of 0 used to fall back to the default without a word
    with pytest.raises(ValueError, match=msg):
        treecalc.benefits("ACRU", 12, **kw)


# -- the science's limits, disclosed per tree -------------------------------------------------------------------


def test_tree_past_the_last_class_holds_the_45in_values_and_says_so():
    # ACRU hydro_interception at the last class (114.30 cm = 45 in) is 16.5 m3/yr:
    # 16.5 x 264.172 = 4,358.838 gal/yr, the same at 45 in, 60 in and 120 in (held, not extrapolated)
    f = pd.DataFrame(
        {"species_code": ["ACRU"] * 4, "dbh_in": [44.0, 45.0, 60.0, 120.0], "land_use": ["single_family"] * 4}
    )
    b = treecalc.compute_benefits(f)
    assert b["stormwater_gal"].iloc[1:].tolist() == pytest.approx([16.5 * 264.172] * 3)
    assert b["usd_total_annual"].iloc[2] == b["usd_total_annual"].iloc[1]
    notes = b["disclosures"].astype(str).tolist()
    assert "DBH over 45 in" not in notes[0] and "DBH over 45 in" not in notes[1]
    assert "DBH over 45 in (114.30 cm)" in notes[2] and "holds its 45-in value" in notes[2]
    assert "implausible" not in notes[2]
    assert "DBH over 100 in is implausible" in notes[3]


def test_large_tree_where_the_source_table_is_zero_is_disclosed_not_silent():
    # ACRU property_value (annual leaf-area increase): 5.6 m2/yr at 83.82 cm (33 in), 0 at 99.06 cm (39 in).
    # 36 in = 91.44 cm is half-way: L = 5.6 + 0.5 x (0 - 5.6) = 2.8 m2/yr; with M = 500 m2, home $500,000, C = 1:
    # 2.8 x 0.0088 x 500,000 / 500 = $24.64/yr. At 39 in L = 0: $0, and both are flagged; at 33 in nothing is.
    f = pd.DataFrame({"species_code": ["ACRU"] * 3, "dbh_in": [33.0, 36.0, 39.0], "land_use": ["single_family"] * 3})
    b = treecalc.compute_benefits(f, large_tree_leaf_area_m2=500.0)
    assert b["leaf_area_increase_m2"].tolist() == pytest.approx([5.6, 2.8, 0.0])
    assert b["usd_property"].tolist() == pytest.approx([5.6 * 4400 / 500, 24.64, 0.0])
    notes = b["disclosures"].astype(str).tolist()
    assert notes[0] == ""
    for n in notes[1:]:
        assert "annual leaf-area increase" in n and "falls to 0 at 99.06 cm (39 in)" in n
        assert "CO2 sequestration for i-Tree row ACRU falls to 0 at 99.06 cm" in n


def test_land_use_with_unverified_factor_is_labelled_and_a_village_value_is_not():
    # multi-family C = 0.75 (unverified default). ACRU 12 in, L = 7.75 m2/yr, M = 500:
    # 7.75 x 0.0088 x 500,000 x 0.75 / 500 = $51.15/yr
    r = treecalc.benefits("ACRU", 12, "multi_family", large_tree_leaf_area_m2=500.0, valuations=False)
    assert r["dollars"]["property"] == pytest.approx(51.15)
    assert "land_use_factor_unverified" in r["disclosure_flags"]
    assert any("C = 0.75 for multi_family" in x and "unverified" in x for x in r["disclosures"])
    # the Village sets C = 0.8: 7.75 x 4400 x 0.8 / 500 = $54.56, no longer labelled unverified
    r = treecalc.benefits(
        "ACRU",
        12,
        "multi_family",
        large_tree_leaf_area_m2=500.0,
        valuations=False,
        land_use_factors={"multi_family": 0.8},
    )
    assert r["dollars"]["property"] == pytest.approx(54.56)
    assert "land_use_factor_unverified" not in r["disclosure_flags"]
    # single-family is C = 1 by definition: nothing to disclose
    assert treecalc.benefits("ACRU", 12, "single_family", valuations=False)["disclosures"] == []


def test_small_commercial_is_not_industrial():
    # both read the source's commercial/industrial energy table (ACRU electricity-ci at 22.86 cm = 92.8 kWh);
    # they differ only in C: L at 9 in (22.86 cm) = 7.9 m2/yr, M = 500:
    # small commercial 7.9 x 4400 x 0.66 / 500 = $45.8832; industrial / large commercial x 0.50 = $34.76
    f = pd.DataFrame(
        {
            "species_code": ["ACRU"] * 3,
            "dbh_in": [9.0] * 3,
            "land_use": ["small_commercial", "industrial_large_commercial", "commercial_industrial"],
        }
    )
    b = treecalc.compute_benefits(f, large_tree_leaf_area_m2=500.0)
    assert b["electricity_kwh"].tolist() == pytest.approx([92.8] * 3)
    assert b["usd_property"].tolist() == pytest.approx([45.8832, 34.76, 34.76])
    # a survey that does not say which takes the lower factor, and says so
    assert "commercial or industrial not distinguished" in b["disclosures"].iloc[2]
    assert "not distinguished" not in b["disclosures"].iloc[0]


def test_institutional_and_park_energy_tables_are_stated():
    # institutional/transportation energy tables are all zero in the source: 0 kWh, 0 therms, 0 avoided CO2;
    # park/vacant/other reads the zone table: ACRU electricity at 22.86 cm = 43.5 kWh, as unspecified
    f = pd.DataFrame(
        {
            "species_code": ["ACRU"] * 3,
            "dbh_in": [9.0] * 3,
            "land_use": ["institutional", "park_vacant_other", "unspecified"],
        }
    )
    b = treecalc.compute_benefits(f)
    assert b["electricity_kwh"].tolist() == pytest.approx([0.0, 43.5, 43.5])
    assert b["usd_energy"].iloc[0] == 0 and b["co2_avoided_lb"].iloc[0] == 0
    assert "tables for this land use are all zero" in b["disclosures"].iloc[0]
    assert "no energy table for this land use" in b["disclosures"].iloc[1]
    assert "land use not given" in b["disclosures"].iloc[2]
    # ... and it does not say the unspecified tree is valued as a single-family one: its energy is the zone
    # table's 43.5 kWh at 22.86 cm, not the single-family table's 45.2 kWh (electricity-sfr.csv, ACRU)
    sf = treecalc.compute_benefits(f.assign(land_use="single_family"))
    assert sf["electricity_kwh"].iloc[0] == pytest.approx(45.2)
    assert "valued as a single-family" not in b["disclosures"].iloc[2]
    assert "C = 1" in b["disclosures"].iloc[2] and "general tables" in b["disclosures"].iloc[2]


def test_autumn_olive_is_deciduous_with_its_provenance():
    from treecalc.reference import data

    cat = data.catalogue()
    assert cat.at["ELUM", "leaf_habit"] == "deciduous" and cat.at["ELUM", "tree_type"] == "BDS"
    assert cat.at["ELUM", "value_row"] == "BES OTHER"  # benefits stay i-Tree's own
    assert "typed BES in the source" in cat.at["ELUM", "correction"]
    assert (cat["correction"] != "").sum() == 1
    r = treecalc.benefits("Autumn olive", 4, "single_family", valuations=False)
    assert any(x.startswith("Autumn olive: typed BES") for x in r["disclosures"])


def test_method_notes_state_the_stormwater_price_as_the_tables_value():
    from treecalc.models.benefits import make_params, method_notes

    notes = method_notes(make_params().resolved())
    assert notes[0].startswith("Stormwater is priced at $0.008/gal: the Northeast price. OpenTreeMap's Northeast table")
    assert (
        "PSW-GTR-202" in notes[0] and "$0.01 per gallon" in notes[0] and "‹prices=hydro_interception=USD›" in notes[0]
    )  # the keyword (treecalc.messages)
    assert any("31 of the 41 value rows" in n for n in notes)
    assert any("multi_family 0.75" in n and "unverified" in n for n in notes)
    assert any("institutional/transportation tables are all zero" in n for n in notes)
    own = method_notes(make_params(prices={"hydro_interception": 0.01}).resolved())
    assert own[0] == "Stormwater is priced at $0.01/gal, set by the user (the zone table's value is $0.008/gal)"


def test_disclosures_reach_the_assessment_json_and_method(tmp_path):
    from treecalc.ingest import read_survey

    path = tmp_path / "survey.csv"
    pd.DataFrame(
        {
            "Tree": [1, 2],
            "Species": ["Red maple", "Red maple"],
            "DBH": [12, 60],
            "Action": ["remove", "retain"],
            "Land use": ["single family", "single family"],
        }
    ).to_csv(path, index=False)
    a = treecalc.assess(read_survey(path))
    notes = [t.get("disclosures") for t in assessment_json(a)["per_tree"]]
    assert notes[0] == "" and "DBH over 45 in" in notes[1]
    assert any("Stormwater is priced" in n for n in a.method["science_notes"])


def test_disclosures_reach_the_statement(tmp_path):
    import openpyxl

    from treecalc.ingest import read_survey
    from treecalc.report import statement

    path = tmp_path / "survey.csv"
    pd.DataFrame(
        {
            "Tree": [1, 2],
            "Species": ["Red maple", "Autumn olive"],
            "DBH": [12, 60],
            "Action": ["remove", "retain"],
            "Land use": ["multi-family", "single family"],
        }
    ).to_csv(path, index=False)
    out = tmp_path / "statement.xlsx"
    statement.build_workbook(treecalc.assess(read_survey(path)), out)  # issue 12: XlsxWriter writes to a target
    wb = openpyxl.load_workbook(out, read_only=True)
    rows = [r for r in wb["Trees"].iter_rows(values_only=True) if r]
    head = next(r for r in rows if "Disclosures" in r)
    col = head.index("Disclosures")
    cells = [r[col] for r in rows[rows.index(head) + 1 :]]
    # the statement says the land use by its label, for a person
    assert "C = 0.75 for “multi family”" in cells[0] and "unverified" in cells[0]
    assert "DBH over 45 in" in cells[1] and "Autumn olive: typed BES in the source" in cells[1]
    method = [r for r in wb["Method & sources"].iter_rows(values_only=True) if r and r[0] == "Science notes"]
    assert any("Stormwater is priced at $0.008/gal" in str(r[2]) for r in method)


def test_fast_disclosure_masks_agree_with_the_pure_functions():
    # the keyed lookup must give, tree by tree, the OR of the pure flag functions
    B = importlib.import_module("treecalc.models.benefits")  # treecalc.models.benefits is also the one-tree function
    from treecalc.models import disclosures as D
    from treecalc.models.itree_streets import dbh_positions
    from treecalc.reference import data

    rng = np.random.default_rng(7)
    n = 5000
    pos = rng.integers(0, len(data.catalogue()), n)
    dbh = rng.choice([1.0, 9.0, 33.0, 36.0, 39.0, 45.0, 50.0, 120.0], n) + rng.choice([0.0, 0.3], n)
    lu = rng.integers(0, len(data.LAND_USES), n)
    p = B.make_params(land_use_factors={"multi_family": 0.8}).resolved()
    row = B._catalogue_value_rows()[pos]
    j, frac = dbh_positions(dbh * 2.54)
    up = D.upper_class(j, frac)
    zt = B._zero_tails()
    expected = (
        D.dbh_flags(dbh)
        | D.table_zero_flags(up, row, zt["property_value"], D.Flag.ZERO_PROPERTY_VALUE)
        | D.table_zero_flags(up, row, zt["co2_sequestered"], D.Flag.ZERO_CO2_SEQUESTERED)
        | B.land_use_flags(p)[lu]
        | np.where(data.catalogue()["correction"].to_numpy()[pos] != "", int(D.Flag.SPECIES_CORRECTED), 0)
    )
    assert (B.disclosure_masks(pos, dbh, lu, p) == expected).all()
    # every disclosed tree has text and every tree without a flag has none
    text = B.disclosure_column(B.disclosure_keys(pos, dbh, lu), p).astype(str)
    assert ((text != "") == (expected != 0)).all()


def test_empty_frame_has_a_disclosures_column():
    b = treecalc.compute_benefits(
        pd.DataFrame({"species_code": pd.Series([], dtype=object), "dbh_in": pd.Series([], dtype=float)})
    )
    assert "disclosures" in b and len(b) == 0


def test_a_survey_says_small_commercial_or_industrial_and_each_gets_its_factor(tmp_path):
    # ACRU 9 in: L = 7.9 m2/yr; default M = 583.835 m2, home $500,000:
    # small commercial 7.9 x 4,400 x 0.66 / 583.835 = $39.29; industrial / large commercial x 0.50 = $29.77
    from treecalc.ingest import read_survey

    path = tmp_path / "survey.csv"
    pd.DataFrame(
        {
            "Tree": [1, 2, 3],
            "Species": ["Red maple"] * 3,
            "DBH": [9, 9, 9],
            "Action": ["remove"] * 3,
            "Land use": ["Small commercial", "Industrial / large commercial", "Retail"],
        }
    ).to_csv(path, index=False)
    t = treecalc.assess(read_survey(path)).trees
    assert t["benefit_land_use"].astype(str).tolist() == [
        "small_commercial",
        "industrial_large_commercial",
        "commercial_industrial",
    ]
    assert t["usd_property"].round(2).tolist() == [
        round(7.9 * 4400 * 0.66 / 583.8354, 2),
        round(7.9 * 4400 * 0.5 / 583.8354, 2),
        round(7.9 * 4400 * 0.5 / 583.8354, 2),
    ]
    assert "not distinguished" in t["disclosures"].iloc[2] and "not distinguished" not in t["disclosures"].iloc[1]


def test_arrow_and_object_columns_give_the_same_benefits():
    # the Arrow fast path (codes and land uses as kept) and the general path (object columns, spellings to
    # normalise) must agree cell for cell: 3 trees, the same species, DBH and land uses written two ways
    arrow = pd.DataFrame(
        {
            "species_code": pd.Series(["ACRU", "QURU", "ACRU"], dtype="str"),
            "dbh_in": [10.0, 24.5, 50.0],
            "land_use": pd.Series(["single_family", "park_vacant_other", "multi_family"], dtype="str"),
        }
    )
    general = arrow.astype({"species_code": object}).assign(
        land_use=pd.Series([" Single_Family", "park_vacant_other ", "MULTI_FAMILY"], dtype=object)
    )
    a, b = treecalc.compute_benefits(arrow), treecalc.compute_benefits(general)
    pd.testing.assert_frame_equal(a, b, check_exact=True)
    assert a["land_use"].astype(str).tolist() == ["single_family", "park_vacant_other", "multi_family"]


def test_disclosure_texts_are_not_shared_between_parameters_that_only_compare_equal():
    # a commercial/industrial tree names the small-commercial factor in its note; 0.0 and -0.0 compare (and hash)
    # equal, but the note writes each as given ("0" and "-0", f"{-0.0:g}"), in either order within one process
    df = pd.DataFrame({"species_code": ["ACRU"], "dbh_in": [10.0], "land_use": ["commercial_industrial"]})

    def note(v: float) -> str:
        text = treecalc.compute_benefits(df, land_use_factors={"small_commercial": v})["disclosures"].iloc[0]
        return next(s for s in text.split("; ") if "would be" in s)

    assert note(0.0).endswith("small commercial would be 0)")
    assert note(-0.0).endswith("small commercial would be -0)")
