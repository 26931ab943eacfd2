"""treecalc.reference.data: the tables as the models read them, checked against the published sources by hand."""

import shutil

import numpy as np
import pandas as pd
import pytest

from treecalc.reference import data


def test_dbh_classes_are_the_published_midpoints_and_read_only():
    # 1.5, 4.5, 9, 15, 21, 27, 33, 39, 45 in x 2.54 = 3.81 ... 114.30 cm
    assert data.DBH_CLASSES_CM == pytest.approx(np.array([1.5, 4.5, 9, 15, 21, 27, 33, 39, 45]) * 2.54)
    with pytest.raises(ValueError):
        data.DBH_CLASSES_CM[0] = 0.0


def test_every_land_use_reads_a_known_table():
    assert set(data.TABLE_LAND_USE) == set(data.LAND_USES)
    assert set(data.TABLE_LAND_USE.values()) <= {
        "",
        "single_family",
        "multi_family",
        "commercial_industrial",
        "institutional",
    }


def test_stack_shape_and_read_only():
    t = data.benefit_tables()
    # 41 value rows of species_codes.csv x 9 DBH classes, one slice per land use
    assert len(t.value_rows) == 41
    assert t.stack["electricity"].shape == (len(data.LAND_USES), 41, 9)
    with pytest.raises(ValueError):
        t.stack["electricity"][0, 0, 0] = 1.0
    assert t.units["hydro_interception"] == "m3/yr" and t.units["co2_storage"] == "kg"


@pytest.mark.parametrize(
    "land_use,kwh",
    [
        # ACRU electricity at 22.86 cm (9 in), from electricity.csv, electricity-sfr.csv, -mfr, -ci, -it:
        ("unspecified", 43.5),
        ("single_family", 45.2),
        ("multi_family", 22.6),
        ("commercial_industrial", 92.8),
        ("institutional", 0.0),
        ("park_vacant_other", 43.5),  # no table of its own: the zone table
        ("small_commercial", 92.8),  # both read the one commercial/industrial table
        ("industrial_large_commercial", 92.8),
    ],
)
def test_land_use_slices_read_the_source_variant(land_use, kwh):
    t = data.benefit_tables()
    assert t.stack["electricity"][data.LAND_USES.index(land_use), t.row_index["ACRU"], 2] == kwh


def test_factors_without_variants_are_the_zone_table_for_every_land_use():
    t = data.benefit_tables()
    h = t.stack["hydro_interception"][:, t.row_index["ACRU"], :]
    # hydro_interception.csv, ACRU: 3.59 m3/yr at 22.86 cm, 6.66 at 38.10 cm, 16.5 at 114.30 cm
    assert (h[:, 2] == 3.59).all() and (h[:, 3] == 6.66).all() and (h[:, 8] == 16.5).all()


def test_prices_are_the_zones_table():
    p = data.prices()
    # prices.csv: electricity $0.1401/kWh, natural gas $0.01408/kBtu, stormwater $0.008/gal (OpenTreeMap's
    # 0.0008 corrected, see data/species/README.md), CO2 $0.00334/lb
    assert (p["electricity"], p["natural_gas"], p["hydro_interception"], p["co2"]) == (0.1401, 0.01408, 0.008, 0.00334)
    assert data.price_units()["electricity"] == "USD/kWh" and data.price_units()["hydro_interception"] == "USD/gal"


def test_catalogue_with_local_status():
    cat = data.catalogue()
    assert int(cat["northeast"].sum()) == 258  # catalogue.csv's rows; after them the species only other zones list
    assert not cat["northeast"].iloc[258:].any()
    # LA6 (Lagerstroemia spp, PiedmtCLT only): a small deciduous broadleaf (BDS) with the CTLA parameters of the
    # Northeast's BDS OTHER row (catalogue.csv: rating 40 %, $66/sq in); not native, not invasive
    la6 = cat.loc["LA6"]
    assert (la6["tree_type"], la6["leaf_type"], la6["size_class"], la6["region"]) == (
        "BDS",
        "broadleaf",
        "small",
        "PiedmtCLT",
    )
    assert la6["species_rating_pct"] == 40.0 and la6["basic_price_usd_per_sqin"] == 66.0
    assert not bool(la6["native"]) and not bool(la6["invasive"])
    acru = cat.loc["ACRU"]
    assert (acru["common_name"], acru["value_row"], acru["leaf_habit"]) == ("Red maple", "ACRU", "deciduous")
    assert acru["species_rating_pct"] == 90.0 and acru["basic_price_usd_per_sqin"] == 66.0
    assert bool(acru["native"]) and not bool(acru["invasive"])
    # Norway maple is regulated under 6 NYCRR 575.4, autumn olive prohibited under 575.3: both invasive
    assert cat.at["ACPL", "part575"] == "regulated" and bool(cat.at["ACPL", "invasive"])
    assert cat.at["ELUM", "part575"] == "prohibited" and cat.at["ELUM", "leaf_habit"] == "deciduous"


def test_growth_tables():
    g = data.growth_utd()
    # growth_urban_tree_database.csv, ACRU: cubic 2.64166 + 1.27076 a - 0.01758 a^2 + 0.00012 a^3, 2.64-105.2 cm
    assert g.loc["ACRU", "form"] == "cub" and g.loc["ACRU", "a"] == 2.64166 and g.loc["ACRU", "max_dbh_cm"] == 105.2
    ages, dbh = data.growth_age_class()
    assert ages.tolist() == [5, 10, 20, 30, 40, 50, 60, 70, 80]
    # dbh_by_age_class.csv: ACPL 2.8 cm at 5 years, 96.9 cm at 80
    row = data.benefit_tables().row_index["ACPL"]
    assert dbh[row, 0] == 2.8 and dbh[row, -1] == 96.9


def test_positions_each_value_once_and_unknowns_named():
    cat = data.catalogue()
    pos = data.catalogue_positions(["ACRU", "QURU", "ACRU"])
    assert cat.index[pos].tolist() == ["ACRU", "QURU", "ACRU"]
    rows = data.value_row_positions(np.array([["BDL OTHER", "ACRU"]], dtype=object))
    assert rows.shape == (1, 2) and data.benefit_tables().value_rows[rows[0, 0]] == "BDL OTHER"
    with pytest.raises(ValueError, match=r"unknown i-Tree species code\(s\) \['XXXX'\]"):
        data.catalogue_positions(["ACRU", "XXXX"])


@pytest.fixture
def village_copy(tmp_path, monkeypatch):
    """A village's own copy of data/species (TREECALC_DATA), caches cleared around the test."""
    shutil.copytree(data.SPECIES_DIR, tmp_path / "species")
    monkeypatch.setattr(data, "SPECIES_DIR", tmp_path / "species")
    data.catalogue.cache_clear()
    yield tmp_path / "species"
    data.catalogue.cache_clear()


def test_a_village_edit_of_local_status_is_read(village_copy):
    p = village_copy / "local_status.csv"
    p.write_text(p.read_text().replace("ACRU,Acer rubrum,yes,", "ACRU,Acer rubrum,no,"))
    assert not bool(data.catalogue().at["ACRU", "native"])


def test_a_bad_local_status_value_names_the_column_and_code(village_copy):
    p = village_copy / "local_status.csv"
    p.write_text(p.read_text().replace("ACRU,Acer rubrum,yes,", "ACRU,Acer rubrum,maybe,"))
    with pytest.raises(ValueError, match=r"column 'native' must be yes or no \(codes \['ACRU'\]\)"):
        data.catalogue()


def test_benefit_tables_are_the_pandas_pivot_of_the_csv_bit_for_bit():
    # the tables are read with the csv module (fast start); the reference is the pandas reading they replaced
    import pandas as pd

    t = pd.read_csv(data.SPECIES_DIR / "benefit_tables.csv", keep_default_na=False, dtype={"land_use": str})
    classes = [f"{c:.2f}" for c in data.DBH_CLASSES_CM]
    t["dbh_key"] = t["dbh_cm"].map(lambda v: f"{float(v):.2f}")
    rows = list(dict.fromkeys(t["value_row"]))
    tables = data.benefit_tables()
    assert tables.value_rows == tuple(rows) and list(tables.stack) == list(dict.fromkeys(t["factor"]))
    for factor, g in t.groupby("factor", sort=False):
        assert tables.units[factor] == g["unit"].iloc[0]
        for k, lu in enumerate(data.LAND_USES):
            v = g[g["land_use"] == data.TABLE_LAND_USE[lu]]
            v = v if len(v) else g[g["land_use"] == ""]  # no variant of this factor: the zone table
            want = v.pivot(index="value_row", columns="dbh_key", values="value").reindex(index=rows, columns=classes)
            assert tables.stack[factor][k].tobytes() == want.to_numpy(float).tobytes(), (factor, lu)


@pytest.fixture
def tables_copy(tmp_path, monkeypatch):
    """A copy of data/species whose benefit_tables.csv a test edits, the table cache cleared around it."""
    shutil.copytree(data.SPECIES_DIR, tmp_path / "species")
    monkeypatch.setattr(data, "SPECIES_DIR", tmp_path / "species")
    data.benefit_tables.cache_clear()
    yield tmp_path / "species" / "benefit_tables.csv"
    data.benefit_tables.cache_clear()


def test_a_cell_given_twice_or_missing_is_refused(tables_copy):
    text = tables_copy.read_text()
    first = text.splitlines()[1]  # ACPL,hydro_interception,,3.81,0.12,m3/yr
    tables_copy.write_text(text + first + "\n")
    with pytest.raises(ValueError, match=r"ACPL hydro_interception zone DBH 3.81 cm is given twice"):
        data.benefit_tables()
    tables_copy.write_text(text.replace(first + "\n", ""))
    data.benefit_tables.cache_clear()
    with pytest.raises(ValueError, match=r"factor hydro_interception has missing values"):
        data.benefit_tables()


def test_catalogue_positions_the_same_for_an_arrow_column_and_an_object_array():
    import pandas as pd
    import pytest

    from treecalc.reference import data

    cat = list(data.catalogue().index)
    codes = [cat[3], cat[0], cat[3], cat[-1]]
    # the rows of those codes in the catalogue: 3, 0, 3, last
    want = [3, 0, 3, len(cat) - 1]
    for column in (pd.Series(codes, dtype="string[pyarrow]"), pd.Series(codes, dtype=object), codes):
        assert data.catalogue_positions(column).tolist() == want
    with pytest.raises(ValueError, match="unknown i-Tree species code"):
        data.catalogue_positions(pd.Series([cat[0], "NOPE"], dtype="string[pyarrow]"))


def test_arrow_index_looks_up_only_exact_arrow_text():
    keys = ("unspecified", "single_family", "multi_family")
    exact = pd.Series(["multi_family", "unspecified", "multi_family"], dtype="str")
    assert str(exact.dtype) == "str" and exact.dtype.storage == "pyarrow"
    assert data.arrow_index(exact, keys).tolist() == [2, 0, 2]
    # anything else is left to the caller's general path (None): another spelling, a blank, a missing value,
    # a column that is not Arrow text
    for other in (
        pd.Series(["Multi_Family"], dtype="str"),
        pd.Series([""], dtype="str"),
        pd.Series([None, "unspecified"], dtype="str"),
        pd.Series(["unspecified"], dtype=object),
        np.array(["unspecified"]),
        None,
    ):
        assert data.arrow_index(other, keys) is None


def test_catalogue_positions_agree_on_arrow_and_object_columns():
    codes = list(data.catalogue().index[[5, 0, 5, 17]])
    # catalogue rows 5, 0, 5, 17 whichever way the column is held
    for col in (pd.Series(codes, dtype="str"), pd.Series(codes, dtype=object), codes):
        assert data.catalogue_positions(col).tolist() == [5, 0, 5, 17]
    with pytest.raises(ValueError, match="unknown i-Tree species code"):
        data.catalogue_positions(pd.Series([codes[0], "NOPE"], dtype="str"))


def test_reader_names_word_the_generic_rows():
    # the catalogue's generic rows have their code as common name: BDL OTHER is scientific
    # "Broadleaf Deciduous Large Other" -> "Other broadleaf deciduous tree (large)"; a species keeps its common name
    names = data.reader_names()
    assert names["BDL OTHER"] == "Other broadleaf deciduous tree (large)"
    assert names["ACRU"] == "Red maple" and names["GIBI(F)"] == "Female ginkgo"
