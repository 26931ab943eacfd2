"""A species is read in the tree's own climate zone first, and valued on the row that zone's list gives it.

The Lower Midwest (LoMidWXXX) lists Picea pungens as PIPU on its own row PIPU; the Northeast catalogue has blue
spruce only as the cultivar 'glauca' (PIPUGL), which the Lower Midwest does not list. A name matched in the
Northeast first was valued on the zone's generic CEL OTHER row, said to have "no i-Tree code" there.

Figures by hand from data/species/zones/LoMidWXXX/benefit_tables.csv, row PIPU, general tables (land use not
given). 12 in = 30.48 cm lies half way between the DBH classes 22.86 and 38.10 cm
((30.48 - 22.86) / (38.10 - 22.86) = 7.62 / 15.24 = 0.5):

* electricity: 12.1 + 0.5 x (30.4 - 12.1) = 21.25 kWh/yr
* hydro_interception: 4.07 + 0.5 x (8.0 - 4.07) = 6.035 m3/yr = 6.035 x 264.172 = 1,594.3 gal/yr

(the CEL OTHER row it was valued on gives 47.7 kWh and 3,088 gal.)
"""

from __future__ import annotations

import subprocess
import sys

import pandas as pd
import pytest

from treecalc.models.benefits import benefits
from treecalc.reference import data
from treecalc.reference.species import resolve_in_zone, scientific_forms

GAL_PER_M3 = 264.172
KWH_12IN = 12.1 + 0.5 * (30.4 - 12.1)  # 21.25
GAL_12IN = (4.07 + 0.5 * (8.0 - 4.07)) * GAL_PER_M3  # 1,594.3


@pytest.mark.parametrize("name", ["Picea pungens", "Blue spruce"])
def test_blue_spruce_in_the_lower_midwest_reads_its_own_row(name):
    out = benefits(name, 12, zone="LoMidWXXX")
    assert out["species_code"] == "PIPU"
    assert out["itree_code"] == "PIPU"
    assert out["electricity_kwh"] == pytest.approx(KWH_12IN, abs=1e-6)
    assert out["stormwater_gal"] == pytest.approx(GAL_12IN, abs=0.05)
    assert not any("no i-Tree code" in d for d in out["disclosures"])


def test_blue_spruce_keeps_its_species_appraisal_parameters():
    """PIPU takes the CTLA parameters of the Northeast's blue spruce (PIPUGL, rating 60 %), not those of the
    generic CEL OTHER row (70 %): the same tree is appraised alike in both zones."""
    lomidw = benefits("Picea pungens", 12, zone="LoMidWXXX")["replacement_value_usd"]
    northeast = benefits("Picea pungens", 12)["replacement_value_usd"]
    assert lomidw == pytest.approx(northeast)
    assert data.catalogue().at["PIPU", "species_rating_pct"] == 60.0


def test_a_survey_placed_in_the_lower_midwest_values_blue_spruce_on_pipu(tmp_path):
    """A survey with coordinates in Indianapolis: no species is rejected, so it is read with the Northeast's
    codes (PIPUGL) and valued in the zone its trees lie in: the zone's row of the same species."""
    src = tmp_path / "indianapolis.csv"
    src.write_text("Tree,Species,DBH (in),Latitude,Longitude\n1,Picea pungens,12,39.7684,-86.1581\n")
    out = tmp_path / "benefits.csv"
    run = subprocess.run(
        [sys.executable, "-m", "treecalc.cli", "survey", str(src), "--export", "benefits", "--out", str(out)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    row = pd.read_csv(out).iloc[0]
    assert row["zone"] == "LoMidWXXX"
    assert row["itree_code"] == "PIPU"
    assert row["electricity_kwh"] == pytest.approx(KWH_12IN, abs=0.051)  # the CSV rounds to 0.1
    assert row["stormwater_gal"] == pytest.approx(GAL_12IN, abs=0.5)  # and to whole gallons
    assert "no i-Tree code" not in str(row["disclosures"])


def test_a_name_only_the_zone_lists_under_a_synonym_is_read():
    """GulfCoCHS lists MYCE as Myrica cerifera; the Northeast catalogue names the same code Morella cerifera."""
    r = resolve_in_zone("Myrica cerifera", "GulfCoCHS")
    assert r.code == "MYCE"
    assert "GulfCoCHS" in r.warning
    assert benefits("Myrica cerifera", 6, zone="GulfCoCHS")["itree_code"] == "BES OTHER"  # the list's row


def _walk(column: str) -> tuple[set[str], list[tuple[str, str, set[str], object]], int]:
    """Every zone's list: each distinct name of ``column`` (a scientific name read as its two words), the rows
    the list gives it, and the row it is valued on when resolved in that zone."""
    zt = data.zone_tables()
    look = data.catalogue_lookup()
    zones: set[str] = set()
    wrong: list[tuple[str, str, set[str], object]] = []
    pairs = 0
    for z, zone in enumerate(zt.zones):
        sp = pd.read_csv(data.data_file(f"species/zones/{zone}/species.csv", data.SPECIES_DIR.parent), dtype=str)
        sp = sp.loc[~sp["code"].str.endswith(" OTHER")].fillna("")
        if column == "scientific_name":
            key = [(scientific_forms(s) or [""])[-1] for s in sp["scientific_name"]]
        else:
            key = [s.strip().lower() for s in sp[column]]
        sp = sp.assign(key=key)
        for name, rows in sp.loc[sp["key"] != ""].groupby("key")["value_row"]:
            zones.add(str(zone))
            pairs += 1
            r = resolve_in_zone(str(name), str(zone))
            got = zt.local_rows[zt.cat_rows[z, look[r.code]]] if r.code is not None else None
            if got not in set(rows):
                wrong.append((str(zone), str(name), set(rows), got))
    return zones, wrong, pairs


@pytest.mark.parametrize("column", ["scientific_name", "common_name"])
def test_every_name_of_every_zone_list_lands_on_the_row_that_list_gives(column):
    zones, wrong, pairs = _walk(column)
    assert zones == set(data.zones().index)  # all 16 zones walked
    assert pairs > 2000
    assert wrong == []


def test_an_inventory_with_a_zone_column_reads_each_name_in_its_tree_zone():
    """benefits-batch's shape: `species` and a `zone` per tree; the same name is PIPU in the Lower Midwest and the
    Northeast's own PIPUGL in the Northeast."""
    from treecalc.models.benefits import compute_benefits

    inv = pd.DataFrame({"species": ["Picea pungens", "Picea pungens"], "dbh_in": [12, 12], "zone": ["LoMidWXXX", ""]})
    out = compute_benefits(inv)
    assert list(out["species_code"]) == ["PIPU", "PIPUGL"]
    assert out["value_row"].iloc[0] == "PIPU"
    assert out["electricity_kwh"].iloc[0] == pytest.approx(KWH_12IN, abs=1e-6)
