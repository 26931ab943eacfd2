"""A survey whose trees lie in two climate zones values each tree in its own zone, in the one lookup; a misspelt
species is matched against the catalogue of the zone the tree is valued in.

The survey: red maples of 15 in (38.10 cm, a DBH class midpoint, so the tables are read as printed) on the
meridian 75.16 W north of Philadelphia, where the Piedmont (PiedmtCLT, named "South") meets the Northeast
(NoEastXXX) near 40.27 N (``zones_at``): 40.60 and 40.65 N lie in the Northeast; 40.30 N in the Northeast 4.0 km
from the Piedmont boundary; 40.00 and 39.95 N in the Piedmont, more than 10 km from the boundary.

By hand, red maple (ACRU) at 38.10 cm, no land use (the tables' rows without one), each zone's prices
(data/species/zones/prices.csv), 264.172 gal per m3:

  Northeast (data/species/zones/NoEastXXX/benefit_tables.csv):
    stormwater 6.66 m3 x 264.172 = 1,759.39 gal x $0.008 = $14.0751
    energy 100.6 kWh x $0.1401 = $14.0941 + 3,515.5 kBtu x $0.01408 = $49.4982  -> $63.5923
  Piedmont:
    stormwater 13.19 m3 x 264.172 = 3,484.43 gal x $0.0099 = $34.4958
    energy 112.2 kWh x $0.0759 = $8.5160 + 420.6 kBtu x $0.01046 = $4.3995  -> $12.9155
"""

from __future__ import annotations

import io

import numpy as np
import openpyxl
import pandas as pd
import pytest

from treecalc.models.benefits import compute_benefits
from treecalc.report.json import assessment_json

NE_STORM, NE_ENERGY = 6.66 * 264.172 * 0.008, 100.6 * 0.1401 + 3515.5 * 0.01408
PD_STORM, PD_ENERGY = 13.19 * 264.172 * 0.0099, 112.2 * 0.0759 + 420.6 * 0.01046


@pytest.fixture(scope="module")
def two_zones(tmp_path_factory):
    from treecalc.assessment import assess

    f = tmp_path_factory.mktemp("zones") / "bucks_philadelphia.csv"
    f.write_text(
        "Tag,Species,DBH (in),Latitude,Longitude,Action\n"
        "N1,Acer rubrum,15,40.60,-75.16,retain\n"
        "P1,Acer rubrum,15,40.00,-75.16,remove\n"
        "N2,Acer rubrum,15,40.30,-75.16,remove\n"
        "P2,Acer rubrum,15,39.95,-75.16,retain\n"
        "N3,Acer rubrum,15,40.65,-75.16,remove\n",
        encoding="utf-8",
    )
    return f, assess(f)


def test_the_hand_figures_are_the_zones_tables():
    assert round(NE_STORM, 4) == 14.0751 and round(NE_ENERGY, 4) == 63.5923
    assert round(PD_STORM, 4) == 34.4958 and round(PD_ENERGY, 4) == 12.9155


def test_each_tree_is_valued_in_the_zone_it_lies_in(two_zones):
    _, a = two_zones
    t = a.trees.set_index("tag")
    assert t["zone"].astype(str).to_dict() == {
        "N1": "NoEastXXX",
        "P1": "PiedmtCLT",
        "N2": "NoEastXXX",
        "P2": "PiedmtCLT",
        "N3": "NoEastXXX",
    }
    for tag, storm, energy in (("N1", NE_STORM, NE_ENERGY), ("P1", PD_STORM, PD_ENERGY)):
        assert np.isclose(t.at[tag, "usd_stormwater"], storm, atol=1e-9), tag
        assert np.isclose(t.at[tag, "usd_energy"], energy, atol=1e-9), tag
    # every line, not only the two worked by hand, is the tree's own zone's: the same as a survey of that zone alone
    alone = compute_benefits(pd.DataFrame({"species": ["Acer rubrum"], "dbh_in": [15.0]}), zone="PiedmtCLT")
    assert t.at["P1", "usd_total_annual"] == alone["usd_total_annual"].iloc[0]
    ne = compute_benefits(pd.DataFrame({"species": ["Acer rubrum"], "dbh_in": [15.0]}))
    assert t.at["N1", "usd_total_annual"] == ne["usd_total_annual"].iloc[0]


def test_the_json_and_the_statement_say_each_trees_zone_and_the_surveys_zones(two_zones):
    from treecalc.report.statement import write_statement

    _, a = two_zones
    j = assessment_json(a)
    assert {t["tag"]: t["zone"] for t in j["per_tree"]}["P2"] == "PiedmtCLT"
    z = j["options"]["zone"]
    assert z["source"] == "tree coordinates" and z["zone"] == "NoEastXXX"
    assert [(x["zone"], x["trees"]) for x in z["zones"]] == [("NoEastXXX", 3), ("PiedmtCLT", 2)]
    assert "Northeast (NoEastXXX) 3 trees, South (PiedmtCLT) 2 trees" in j["value_basis_label"]
    said = " ".join(a.warnings)
    assert "3 in the Northeast zone (NoEastXXX), 2 in the South zone (PiedmtCLT)" in said
    # the 10 km warning stays: N2 lies 4.0 km from the Piedmont; there it would be valued as P1 is
    near = [w for w in a.warnings if w.startswith("1 tree lies within 10 km of the South zone (PiedmtCLT)")]
    p1 = a.trees.set_index("tag").at["P1", "usd_total_annual"]
    n2 = a.trees.set_index("tag").at["N2", "usd_total_annual"]
    assert near and f"total ${p1:,.2f} (here ${n2:,.2f}" in near[0], a.warnings
    book = openpyxl.load_workbook(io.BytesIO(write_statement(a)))
    rows = list(book["Trees"].iter_rows(values_only=True))
    head = next(r for r in rows if r and "Tag" in r)
    col = next(k for k, h in enumerate(head) if h and str(h).lower().startswith("zone"))
    tags = head.index("Tag")
    assert {r[tags]: r[col] for r in rows[rows.index(head) + 1 :] if r[tags]}["P1"] == "PiedmtCLT"


def test_the_cumulative_basis_grows_each_zones_trees_by_its_own_table(two_zones):
    from treecalc.assessment import assess

    f, _ = two_zones
    each = assess(f, value_basis="cumulative:5").trees.set_index("tag")["value_usd"]
    piedmont = assess(f, value_basis="cumulative:5", site={"climate_zone": "PiedmtCLT"}).trees.set_index("tag")
    assert each["P1"] == piedmont.at["P1", "value_usd"] and each["P1"] != each["N1"]


def test_the_projection_grows_and_values_each_removed_tree_in_its_own_zone(two_zones):
    """The removed N2, N3 (Northeast) and P1 (Piedmont), counted for replacement (three removals, §208-22A): today
    (year 0, no growth yet, all alive) the series is their own-zone totals; P1 valued in the Northeast, as
    before, would make it three times N2's."""
    from treecalc.models.projection import REMOVED, projection

    _, a = two_zones
    t = a.trees.set_index("tag")
    assert set(t.index[t["counted"].astype(bool)]) == {"N2", "N3", "P1"}
    p = projection(a, years=5)
    today = p[(p["series"] == REMOVED) & (p["year"] == 0)]["value_usd"].iloc[0]
    own = t.loc[["N2", "N3", "P1"], "usd_total_annual"].sum()
    assert np.isclose(today, own, atol=1e-9)
    assert not np.isclose(today, 3 * t.at["N2", "usd_total_annual"])


def test_appraised_values_outside_the_northeast_say_they_read_its_ctla_parameters(two_zones):
    """CTLA species parameters are published for the Northeast only (the reference's species_master_list.csv has
    258 rows, all NoEastXXX; the zones' species.csv carry none): the Piedmont maple is appraised as the
    Northeast's maple of the same size, and the assessment says so of the trees outside the Northeast."""
    from treecalc.assessment import assess

    f, _ = two_zones
    a = assess(f, value_basis="appraised")
    v = a.trees.set_index("tag")["value_usd"]
    assert v["P1"] == v["N1"] > 0
    said = [x for x in a.assumptions if x.startswith("appraised values (CTLA) of the 2 tree(s) outside the Northeast")]
    assert said and "(2 in PiedmtCLT)" in said[0], a.assumptions


def test_a_misspelt_species_is_matched_against_the_catalogue_of_its_zone(tmp_path):
    """The names "Lagerstroemia indca" and "Crape myrtl" are no name of the Northeast catalogue, nor of GulfCoCHS's list as
    written; matched against GulfCoCHS's own catalogue they are its common crapemyrtle, LAIN ("Lagerstroemia
    indica", QRatio 97 and 91 %, over the 85 % a fuzzy match needs). Before, "Lagerstroemia indca" fell to the
    genus row LA6_M ('Muskogee') and "Crape myrtl" stayed unrecognised. In the Northeast neither is read."""
    from treecalc.ingest.zone import read_survey_in_zone
    from treecalc.models.benefits import benefits
    from treecalc.reference.species import resolve_in_zone

    for name in ("Lagerstroemia indca", "Crape myrtl"):
        r = resolve_in_zone(name, "GulfCoCHS")
        assert (r.code, r.method) == ("LAIN", "fuzzy") and "GulfCoCHS species list" in r.warning, r
        assert resolve_in_zone(name, "NoEastXXX").code is None
    one = benefits("Lagerstroemia indca", 6, zone="GulfCoCHS", valuations=False)
    assert one["species_code"] == "LAIN" and any("fuzzy match" in w for w in one["warnings"])
    # a Charleston survey whose only crape myrtle is misspelt: read again in its zone (GulfCoCHS) and valued there
    f = tmp_path / "charleston.csv"
    f.write_text(
        "Tag,Species,DBH (in),Latitude,Longitude,Action\n"
        "1,Acer rubrum,12,32.78,-79.93,retain\n"
        "2,Crape myrtl,6,32.781,-79.931,remove\n",
        encoding="utf-8",
    )
    s = read_survey_in_zone(f)
    assert s.trees["species_code"].tolist() == ["ACRU", "LAIN"] and not len(s.rejected)


def test_a_survey_column_names_each_trees_zone(tmp_path):
    """A "Climate zone" column (code or name, as ``--zone`` reads them) values each tree in its zone; a blank
    takes the zone found for the trees without one (here no site fact and no coordinates: the Northeast, the
    default), and a cell naming no zone ("6b", a hardiness zone) is warned of on its row and valued so too.
    By hand as above: the Piedmont maple's stormwater $34.4958 and energy $12.9155, the Northeast's $14.0751
    and $63.5923."""
    from treecalc.assessment import assess

    f = tmp_path / "zones_named.csv"
    f.write_text(
        "Tag,Species,DBH (in),Climate zone,Action\n"
        "1,Acer rubrum,15,PiedmtCLT,retain\n"
        "2,Acer rubrum,15,Northeast,remove\n"
        "3,Acer rubrum,15,,retain\n"
        "4,Acer rubrum,15,6b,retain\n",
        encoding="utf-8",
    )
    a = assess(f)
    t = a.trees.set_index("tag")
    assert t["zone"].astype(str).tolist() == ["PiedmtCLT", "NoEastXXX", "NoEastXXX", "NoEastXXX"]
    assert np.isclose(t.at["1", "usd_stormwater"], PD_STORM) and np.isclose(t.at["1", "usd_energy"], PD_ENERGY)
    assert np.isclose(t.at["3", "usd_stormwater"], NE_STORM) and np.isclose(t.at["3", "usd_energy"], NE_ENERGY)
    assert "'6b' in column 'Climate zone' is no i-Tree Streets climate zone" in t.at["4", "warnings"]
    z = a.options["zone"]
    assert z["source"] == "survey column climate_zone"
    assert [(x["zone"], x["trees"]) for x in z["zones"]] == [("NoEastXXX", 3), ("PiedmtCLT", 1)]


def test_a_species_only_a_minority_zone_lists_is_read_there(tmp_path):
    """Two maples in the Northeast and a crape myrtle in Philadelphia (Piedmont): the Northeast catalogue has no
    code for it, the Piedmont's list its genus row LA6 ("Lagerstroemia spp"); the survey, most of it in the
    Northeast, is read in both zones, so the tree is read there and valued in the Piedmont, not rejected."""
    from treecalc.assessment import assess

    f = tmp_path / "crape_in_philadelphia.csv"
    f.write_text(
        "Tag,Species,DBH (in),Latitude,Longitude,Action\n"
        "N1,Acer rubrum,15,40.60,-75.16,retain\n"
        "N3,Acer rubrum,15,40.65,-75.16,retain\n"
        "P1,Lagerstroemia indica,6,40.00,-75.16,retain\n",
        encoding="utf-8",
    )
    a = assess(f)
    assert not len(a.rejected)
    t = a.trees.set_index("tag")
    assert (t.at["P1", "species_code"], str(t.at["P1", "zone"])) == ("LA6", "PiedmtCLT")
    alone = compute_benefits(pd.DataFrame({"species_code": ["LA6"], "dbh_in": [6.0]}), zone="PiedmtCLT")
    assert t.at["P1", "usd_total_annual"] == alone["usd_total_annual"].iloc[0]
