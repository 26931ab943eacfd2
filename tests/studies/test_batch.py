"""benefits-batch on Dask: a LocalCluster of 2 workers gives the single-process figures cell for cell."""

from __future__ import annotations

import importlib

import numpy as np
import pandas as pd
import pytest

import treecalc
from treecalc.models.benefits import BenefitParams, compute_benefits
from treecalc.studies.batch import benefits_batch, value_partition


def _inventory(n: int = 600) -> pd.DataFrame:
    rng = np.random.default_rng(7)
    zones = ["PiedmtCLT", "MidWstMSP", "NoEastXXX", "SoCalCSMA", ""]
    return pd.DataFrame(
        {
            "tree_id": np.arange(n),
            "species": rng.choice(["Acer rubrum", "Quercus rubra", "Pinus strobus", "Ailanthus altissima"], n),
            "dbh_in": rng.uniform(1, 60, n).round(1),
            "land_use": rng.choice(["single_family", "", "institutional", "multi_family"], n),
            "zone": rng.choice(zones, n),
        }
    )


@pytest.fixture(scope="module")
def cluster_client():
    distributed = importlib.import_module("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.mark.parametrize("kind", ["parquet", "csv"])
def test_two_workers_give_the_single_process_result_cell_for_cell(tmp_path, cluster_client, kind):
    inv = _inventory()
    src = tmp_path / "in"
    src.mkdir()
    for k, part in enumerate(inv.iloc[s : s + 200] for s in range(0, len(inv), 200)):  # a folder of partitions
        if kind == "parquet":
            part.to_parquet(src / f"part-{k}.parquet", index=False)
        else:
            part.to_csv(src / f"part-{k}.csv", index=False)
    r = benefits_batch(src, tmp_path / "out", client=cluster_client)
    assert r.trees == len(inv) and r.partitions == 3
    got = pd.read_parquet(tmp_path / "out").sort_values("tree_id").reset_index(drop=True)
    want = value_partition(inv.fillna({"land_use": "", "zone": ""}), BenefitParams())
    assert list(got.columns) == list(want.columns)
    for c in want.columns:
        if want[c].dtype == float:
            assert np.array_equal(got[c].to_numpy(float), want[c].to_numpy(float)), c
        else:
            assert got[c].astype(str).replace("nan", "").tolist() == want[c].astype(str).replace("nan", "").tolist(), c
    # and the batch's figures are compute_benefits' own
    direct = compute_benefits(inv)
    assert np.array_equal(got["usd_total_annual"].to_numpy(), direct["usd_total_annual"].to_numpy())


def test_a_bad_input_is_named(tmp_path):
    with pytest.raises(ValueError, match="no such file"):
        benefits_batch(tmp_path / "missing.parquet", tmp_path / "out")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no \\*.parquet or \\*.csv"):
        benefits_batch(tmp_path / "empty", tmp_path / "out")


def test_the_command_names_a_missing_input(tmp_path, capsys):
    from treecalc.cli import main

    assert main(["benefits-batch", str(tmp_path / "nope.parquet"), "--out", str(tmp_path / "o")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["benefits-batch", str(tmp_path / "nope.parquet"), "--out", "o", "--zone", "Mars"]) == 2
    assert "unknown climate zone" in capsys.readouterr().err
    assert main(["benefits-batch", str(tmp_path / "nope.parquet"), "--out", "o", "--threads", "0"]) == 2
    assert "--threads 0: give at least 1" in capsys.readouterr().err


def test_each_task_writes_its_own_file(tmp_path, cluster_client):
    inv = _inventory(300)
    src = tmp_path / "in"
    src.mkdir()
    for k in range(3):
        inv.iloc[k * 100 : (k + 1) * 100].to_parquet(src / f"part-{k}.parquet", index=False)
    out = tmp_path / "out"
    r = benefits_batch(src, out, client=cluster_client)
    assert r.trees == 300 and sorted(p.name for p in out.glob("*.parquet")) == [
        f"part.{k:05d}.parquet" for k in range(3)
    ]
    got = pd.read_parquet(out)
    # the disclosure sentences and codes are dictionary columns in the file, read back as categories
    assert isinstance(got["disclosures"].dtype, pd.CategoricalDtype) and len(got) == 300


def test_a_bad_tree_past_the_first_rows_names_its_file_and_leaves_no_partial_output(tmp_path, cluster_client):
    # a.csv: ten good trees; b.csv: three good, then a DBH of -4 in its fourth data row (index 3), past the
    # five rows checked before the workers start: the error names b.csv, and the part file a.csv's task may
    # have written is removed (a folder holding some partitions is no answer)
    src = tmp_path / "in"
    src.mkdir()
    (src / "a.csv").write_text("species,dbh_in\n" + "Acer rubrum,12\n" * 10)
    (src / "b.csv").write_text("species,dbh_in\n" + "Acer rubrum,12\n" * 3 + "Quercus rubra,-4\n" + "Acer rubrum,12\n")
    out = tmp_path / "out"
    with pytest.raises(ValueError, match=r"b\.csv.*row 3: dbh_in must be a positive number of inches, got -4"):
        benefits_batch(src, out, client=cluster_client)
    assert list(out.glob("part.*.parquet")) == []


def test_a_partition_of_other_columns_is_named(tmp_path):
    # b.csv says "dbh" where a.csv says "dbh_in": dask reads each file with the first one's columns, which left
    # b's trees without a DBH ("row 0 ... got nan") or a bare "['dbh_in'] not in index"
    src = tmp_path / "in"
    src.mkdir()
    (src / "a.csv").write_text("species,dbh_in\nAcer rubrum,12\n")
    (src / "b.csv").write_text("species,dbh\nAcer rubrum,12\n")
    (src / "0.csv").write_text("")  # an empty file, read first
    with pytest.raises(ValueError, match=r"0\.csv: an empty file, no header row"):
        benefits_batch(src, tmp_path / "out")
    (src / "0.csv").unlink()
    with pytest.raises(ValueError, match=r"b\.csv: columns \['species', 'dbh'\] differ from .*a\.csv"):
        benefits_batch(src, tmp_path / "out")


def test_a_bad_tree_in_the_first_rows_says_how_its_row_is_counted_and_a_bad_zone_names_its_column(tmp_path):
    # bad.csv: the DBH -1 is in its third data row (file line 4, index 2): "row 2" alone reads as the file's
    # second line, so the error says rows are counted from 0, as a worker's error does. An unknown zone
    # ("Mars", second data row, index 1) names the column and that row, not only the zone.
    src = tmp_path / "bad.csv"
    src.write_text("species_code,dbh_in,zone\nACRU,12,PiedmtCLT\nLA6,6,PiedmtCLT\nACSA1,-1,MidWstMSP\n")
    with pytest.raises(ValueError, match=r"bad\.csv \(partition 0, rows counted from 0\): row 2: dbh_in"):
        benefits_batch(src, tmp_path / "out")
    src.write_text("species_code,dbh_in,zone\nACRU,12,PiedmtCLT\nLA6,6,Mars\n")
    with pytest.raises(ValueError, match=r"rows counted from 0\): row 1, column 'zone': unknown climate zone 'Mars'"):
        benefits_batch(src, tmp_path / "out")


def test_a_species_name_only_its_rows_zone_lists_is_valued_there(tmp_path):
    # crape myrtle has no code in the Northeast catalogue; GulfCoCHS lists it as LAIN (its own value row). A
    # batch row naming it by its scientific or common name with zone GulfCoCHS is that zone's LAIN, as the
    # survey read in GulfCoCHS is; in the Northeast it stays unknown.
    from treecalc.reference.species import UnknownSpecies

    frame = pd.DataFrame(
        {"species": ["Lagerstroemia indica", "Acer rubrum"], "dbh_in": [6.0, 12.0], "zone": ["GulfCoCHS", "NoEastXXX"]}
    )
    got = compute_benefits(frame)
    by_code = compute_benefits(
        pd.DataFrame({"species_code": ["LAIN", "ACRU"], "dbh_in": [6.0, 12.0], "zone": ["GulfCoCHS", "NoEastXXX"]})
    )
    assert got["species_code"].tolist() == ["LAIN", "ACRU"]
    assert np.array_equal(got["usd_total_annual"].to_numpy(), by_code["usd_total_annual"].to_numpy())
    with pytest.raises(UnknownSpecies):
        compute_benefits(frame.assign(zone=["NoEastXXX", "NoEastXXX"]))


def test_a_parquet_file_is_split_at_its_row_groups_and_a_bad_tree_is_named_by_the_files_row(tmp_path, cluster_client):
    # one file of 300 trees in row groups of 100, at most 150 rows a task: 3 tasks (100 + 100 would be 200).
    # A DBH of -4 at the file's row 250 (third row group, past the 5 rows checked first) is named by the file
    # and that row, not by its row within the task (50).
    import pyarrow.parquet as pq

    inv = _inventory(300).assign(land_use="single_family", zone="PiedmtCLT")
    src = tmp_path / "one.parquet"
    bad = inv.copy()
    bad.loc[250, "dbh_in"] = -4.0
    bad.to_parquet(src, index=False, row_group_size=100)
    with pytest.raises(
        ValueError, match=r"one\.parquet \(partition 2, rows counted from 0 in the file\): row 250: dbh"
    ):
        benefits_batch(src, tmp_path / "out", client=cluster_client, rows_per_task=150)
    assert list((tmp_path / "out").glob("part.*.parquet")) == []
    inv.to_parquet(src, index=False, row_group_size=100)
    r = benefits_batch(src, tmp_path / "out", client=cluster_client, rows_per_task=150)
    assert (r.trees, r.partitions) == (300, 3)
    got = pd.read_parquet(tmp_path / "out")
    direct = compute_benefits(inv)
    assert got["tree_id"].tolist() == list(range(300))
    assert np.array_equal(got["usd_total_annual"].to_numpy(), direct["usd_total_annual"].to_numpy())
    assert got["disclosures"].astype(str).tolist() == direct["disclosures"].astype(str).tolist()
    # as written: the text columns dictionary-encoded, the numbers plain, every column zstd
    meta = pq.ParquetFile(tmp_path / "out" / "part.00000.parquet").metadata.row_group(0)
    chunks = {meta.column(i).path_in_schema: meta.column(i) for i in range(meta.num_columns)}
    for name in ("species_code", "zone", "disclosures"):
        assert "RLE_DICTIONARY" in chunks[name].encodings, name
    for name in ("dbh_in", "usd_total_annual", "leaf_area_m2"):
        assert "RLE_DICTIONARY" not in chunks[name].encodings, name
    assert {c.compression for c in chunks.values()} == {"ZSTD"}


def test_a_parquet_partition_of_other_columns_is_named(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    pd.DataFrame({"species_code": ["ACRU"], "dbh_in": [12.0]}).to_parquet(src / "a.parquet", index=False)
    pd.DataFrame({"species_code": ["ACRU"], "dbh": [12.0]}).to_parquet(src / "b.parquet", index=False)
    with pytest.raises(ValueError, match=r"b\.parquet: columns \['species_code \(large_string\)', 'dbh \(double\)'\]"):
        benefits_batch(src, tmp_path / "out")


# --- each tree's zone from its coordinates, a zone column or the zone given ------------------------------------

# Red maple (ACRU) 12 in, unspecified land use, default prices. 12 in = 30.48 cm lies half-way between the
# tables' 22.86 and 38.10 cm classes ((30.48 - 22.86) / 15.24 = 0.5), so each quantity is the mean of the two.
#
# Northeast (NoEastXXX), by hand in tests/models/test_benefits.py::test_red_maple_12in_dollars_by_hand:
#   10.8311 (stormwater) + 48.7670 (energy) + 7.9997 (air) + 1.1005 (CO2) + 58.4069 (property) = 127.1052
NE_ACRU_12 = 127.11
# South (PiedmtCLT; data/species/zones/PiedmtCLT/benefit_tables.csv, zones/prices.csv):
#   stormwater (4.47 + 13.19)/2 = 8.83 m3 x 264.172 = 2,332.64 gal x $0.0099 = 23.0931
#   electricity (47.3 + 112.2)/2 = 79.75 kWh x $0.0759 = 6.0530; gas (221.4 + 420.6)/2 = 321.0 kBtu x $0.01046
#     = 3.3577; energy 9.4107
#   CO2 sequestered (71.5 + 174.4)/2 = 122.95 kg, avoided (18.1 + 43.0)/2 = 30.55 kg: 153.5 kg x 2.20462
#     = 338.41 lb x $0.0075 = 2.5381
#   air, kg: O3 0.058 x 6.55 + NOx (0.0205 + 0.0765) x 6.55 + PM10 (0.054 + 0.01495) x 2.49 + SOx (0.0095 +
#     0.16605) x 1.97 + VOC 0.01465 x 6.26 + BVOC -0.0665 x 6.26 = 0.3799 + 0.63535 + 0.171686 + 0.345834 +
#     0.091709 - 0.41629 = 1.208189 $/kg-basis x 2.20462 lb/kg = 2.6636
#   property: leaf area (20.6 + 39.8)/2 = 30.2 m2/yr; the zone's large tree, BDL OTHER at 40 years = 71.5 cm,
#     lsa 1075.9 + (71.5 - 68.58)/15.24 x (1646.4 - 1075.9) = 1185.21 m2; 30.2 x 0.0088 x 500,000 / 1185.21
#     = 112.1153
#   total 23.0931 + 9.4107 + 2.6636 + 2.5381 + 112.1153 = 149.8208
PIEDMONT_ACRU_12 = 149.82
CHARLOTTE = (35.23, -80.84)  # in the South zone (PiedmtCLT), not within 10 km of another
CROTON = (41.21, -73.89)  # Croton-on-Hudson, NY: the Northeast (NoEastXXX)


def _two_zone_inventory(folder, lat="latitude", lon="longitude"):
    """A Dask-written inventory (part.0.parquet, part.1.parquet): a Charlotte tree, a Croton-on-Hudson tree and
    a tree whose coordinates are blank."""
    folder.mkdir()
    pd.DataFrame(
        {"tree_id": [1], "species": ["Acer rubrum"], "dbh_in": [12.0], lat: [CHARLOTTE[0]], lon: [CHARLOTTE[1]]}
    ).to_parquet(folder / "part.0.parquet", index=False)
    pd.DataFrame(
        {
            "tree_id": [2, 3],
            "species": ["Acer rubrum", "Acer rubrum"],
            "dbh_in": [12.0, 12.0],
            lat: [CROTON[0], np.nan],
            lon: [CROTON[1], np.nan],
        }
    ).to_parquet(folder / "part.1.parquet", index=False)
    return folder


def test_each_tree_is_valued_in_the_zone_its_coordinates_lie_in(tmp_path, cluster_client):
    # the batch valued the Charlotte tree in the Northeast ($127.11), where `treecalc benefits --lat 35.23
    # --lon -80.84` finds the South ($149.82), with no word and no zone column
    src = _two_zone_inventory(tmp_path / "inv")
    r = benefits_batch(src, tmp_path / "out", client=cluster_client)
    got = pd.read_parquet(tmp_path / "out").sort_values("tree_id").set_index("tree_id")
    assert got.loc[1, "zone"] == "PiedmtCLT" and got.loc[2, "zone"] == "NoEastXXX" and got.loc[3, "zone"] == "NoEastXXX"
    assert got["usd_total_annual"].round(2).tolist() == [PIEDMONT_ACRU_12, NE_ACRU_12, NE_ACRU_12]
    assert got["zone_from"].astype(str).tolist() == ["coordinates", "coordinates", "default: coordinates blank"]
    # as `treecalc benefits --lat/--lon` values each tree
    for tree, (lat, lon) in ((1, CHARLOTTE), (2, CROTON)):
        one = treecalc.benefits("Acer rubrum", 12, latitude=lat, longitude=lon)
        assert got.loc[tree, "usd_total_annual"] == pytest.approx(one["dollars"]["total_annual"], abs=1e-9)
    assert (r.trees, r.defaulted) == (3, 1)
    assert r.zones == {"NoEastXXX": 2, "PiedmtCLT": 1}
    said = " ".join(r.notes)
    assert "1 tree was valued in the Northeast zone (NoEastXXX) by default" in said, said
    assert "by default: 1 with coordinates blank or out of range" in said, said


def test_the_command_says_how_many_trees_were_defaulted_and_why(tmp_path, capsys):
    distributed = importlib.import_module("distributed")
    src = _two_zone_inventory(tmp_path / "inv", lat="lat", lon="lon")  # the headers a GIS export writes
    from treecalc.cli import main

    with distributed.LocalCluster(n_workers=1, processes=False, protocol="tcp://", dashboard_address=None) as c:
        rc = main(["benefits-batch", str(src), "--out", str(tmp_path / "out"), "--scheduler", c.scheduler_address])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "3 trees in 2 partitions" in out
    assert "2 in the Northeast zone (NoEastXXX), 1 in the South zone (PiedmtCLT)" in out, out
    assert "2 trees' zones found from their coordinates read from the columns 'lat' and 'lon'" in out, out
    assert "warning: 1 tree was valued in the Northeast zone (NoEastXXX) by default" in out, out
    got = pd.read_parquet(tmp_path / "out").sort_values("tree_id")
    assert got["usd_total_annual"].round(2).tolist() == [PIEDMONT_ACRU_12, NE_ACRU_12, NE_ACRU_12]


def test_a_zone_column_then_the_zone_given_then_coordinates_choose_each_trees_zone():
    # tree 0: its zone column says MidWstMSP (its coordinates, Charlotte, are not read); tree 1: no zone in the
    # column, coordinates in Charlotte: the South; tree 2: no column zone, no coordinates: the Northeast, said
    frame = pd.DataFrame(
        {
            "species_code": ["ACRU", "ACRU", "ACRU"],
            "dbh_in": [12.0, 12.0, 12.0],
            "zone": ["MidWstMSP", "", None],
            "latitude": [CHARLOTTE[0], CHARLOTTE[0], np.nan],
            "longitude": [CHARLOTTE[1], CHARLOTTE[1], np.nan],
        }
    )
    got = value_partition(frame, BenefitParams())
    assert got["zone"].astype(str).tolist() == ["MidWstMSP", "PiedmtCLT", "NoEastXXX"]
    assert got["zone_from"].astype(str).tolist() == ["zone column", "coordinates", "default: coordinates blank"]
    assert got["usd_total_annual"].round(2).tolist()[1:] == [PIEDMONT_ACRU_12, NE_ACRU_12]
    # the zone given (--zone) values the trees the column leaves blank, whatever their coordinates
    given = value_partition(frame, BenefitParams(zone="NoEastXXX"))
    assert given["zone"].astype(str).tolist() == ["MidWstMSP", "NoEastXXX", "NoEastXXX"]
    assert given["zone_from"].astype(str).tolist() == ["zone column", "zone given", "zone given"]
    # no coordinate columns at all: every tree without a zone defaulted, said so per row
    bare = value_partition(frame.drop(columns=["latitude", "longitude"]), BenefitParams())
    assert bare["zone_from"].astype(str).tolist()[1:] == ["default: no coordinates"] * 2


# --- the output never touches the input ------------------------------------------------------------------------


def _hashes(folder):
    import hashlib

    files = sorted(p for p in folder.rglob("*") if p.is_file())
    assert files  # something to compare
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


@pytest.mark.parametrize(
    "case",
    [
        "out is the input",
        "out inside the input",
        "out holds the input",
        "out holds the input file",
        "out a link to the input",
        "input a link to out",
    ],
)
def test_an_output_that_is_holds_or_lies_in_the_input_is_refused_and_nothing_is_touched(tmp_path, capsys, case):
    # `benefits-batch inv --out inv` (Dask's part.*.parquet) exited 2 and left inv/ empty: the old partitions
    # of the output folder were deleted before the run, and they were the input
    from treecalc.cli import main

    data_dir = tmp_path / "data"
    data_dir.mkdir()
    inv = _two_zone_inventory(data_dir / "inventory")
    (tmp_path / "link").symlink_to(inv, target_is_directory=True)
    source, out = {
        "out is the input": (inv, inv),
        "out inside the input": (data_dir, data_dir / "inventory"),
        "out holds the input": (inv, data_dir),
        "out holds the input file": (inv / "part.0.parquet", inv),
        "out a link to the input": (inv, tmp_path / "link"),
        "input a link to out": (tmp_path / "link", inv),
    }[case]
    before = _hashes(data_dir)
    assert main(["benefits-batch", str(source), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"the input {source}" in err and "give an output folder outside the input" in err, err
    assert _hashes(data_dir) == before  # every input file, byte for byte
    assert sorted(p.name for p in data_dir.rglob("*")) == ["inventory", "part.0.parquet", "part.1.parquet"]


def test_only_the_files_an_earlier_run_wrote_are_deleted(tmp_path, cluster_client):
    inv = _inventory(300)
    src = tmp_path / "in"
    src.mkdir()
    for k in range(3):
        inv.iloc[k * 100 : (k + 1) * 100].to_parquet(src / f"part.{k}.parquet", index=False)
    out = tmp_path / "out"
    benefits_batch(src, out, client=cluster_client)
    (src / "part.2.parquet").unlink()  # a smaller rerun into the same folder: the run's third file is deleted
    r = benefits_batch(src, out, client=cluster_client)
    assert r.trees == 200
    assert sorted(p.name for p in out.glob("*.parquet")) == ["part.00000.parquet", "part.00001.parquet"]
    assert len(pd.read_parquet(out)) == 200
    # a part file the tool did not write (no marker names it) is never deleted: the run is refused
    (out / "part.00007.parquet").write_bytes(b"someone else's")
    (out / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match=r"holds files benefits-batch did not write: notes\.txt, part\.00007"):
        benefits_batch(src, out, client=cluster_client)
    assert (out / "part.00007.parquet").read_bytes() == b"someone else's" and (out / "notes.txt").exists()
    # a marker naming a file outside the folder deletes nothing there
    (out / "part.00007.parquet").unlink()
    (out / "notes.txt").unlink()
    marker = next(out.glob("_*"))
    marker.write_text('{"files": ["../in/part.0.parquet", "part.00000.parquet", "part.00001.parquet"]}')
    before = _hashes(src)
    benefits_batch(src, out, client=cluster_client)
    assert _hashes(src) == before


def test_a_parquet_column_of_lists_is_refused_naming_it_and_its_type(tmp_path, capsys):
    # a DBH column of lists (a multi-stem tree's stems) read "dbh_in must be a positive number, got [12. 8.]";
    # a species column of lists raised "TypeError: unhashable type: 'numpy.ndarray'" with a traceback
    from treecalc.cli import main

    for column, values in (("dbh_in", [[12.0, 8.0], [10.0]]), ("species", [["Acer rubrum"], ["Quercus rubra"]])):
        src = tmp_path / column
        src.mkdir()
        frame = pd.DataFrame({"tree_id": [1, 2], "species": ["Acer rubrum"] * 2, "dbh_in": [12.0, 10.0]})
        frame[column] = values
        frame.to_parquet(src / "part.0.parquet", index=False)
        assert main(["benefits-batch", str(src), "--out", str(tmp_path / f"out-{column}")]) == 2
        err = capsys.readouterr().err
        assert f"column '{column}' holds a list per tree (list<element: " in err, err
        assert "part.0.parquet" in err and "Traceback" not in err
        assert not (tmp_path / f"out-{column}").exists()


def test_a_tree_near_another_zones_boundary_is_valued_in_its_own_and_said_so():
    # Fairfield, CA (38.20 N, 122.10 W) lies in the Inland Valleys zone (InlValMOD), 3.5 km from the Northern
    # California Coast's (CaNCCoJBK) boundary (tests/models/test_climate_zones.py): valued in InlValMOD, as
    # `treecalc benefits --lat/--lon` values it, and counted as near another zone
    from collections import Counter

    from treecalc.studies.batch import zone_notes

    frame = pd.DataFrame({"species_code": ["ACRU"], "dbh_in": [12.0], "Lat": [38.20], "Long": [-122.10]})
    got = value_partition(frame, BenefitParams())
    assert got["zone"].astype(str).tolist() == ["InlValMOD"]
    assert got["zone_from"].astype(str).tolist() == ["coordinates, within 10 km of another zone"]
    one = treecalc.benefits("ACRU", 12, latitude=38.20, longitude=-122.10)
    assert got["usd_total_annual"].iloc[0] == pytest.approx(one["dollars"]["total_annual"], abs=1e-9)
    notes = zone_notes(Counter(got["zone"].astype(str)), Counter(got["zone_from"].astype(str)), ("Lat", "Long"))
    assert any("1 tree lies within 10 km of another zone's boundary" in n for n in notes), notes
    assert any("1 tree's zone found from its coordinates read from the columns 'Lat' and 'Long'" in n for n in notes)
    assert not any("by default" in n for n in notes), notes


# ------------------------------------------------------------ x/y read as assess reads them, swapped, not a number


def _xy_csv(path, x="x", y="y", rows=((1, CHARLOTTE[1], CHARLOTTE[0]), (2, CROTON[1], CROTON[0]))):
    path.write_text(f"id,species,dbh_in,{x},{y}\n" + "".join(f"{i},Acer rubrum,12,{a},{b}\n" for i, a, b in rows))
    return path


@pytest.mark.parametrize("x,y", [("x", "y"), ("POINT_X", "POINT_Y")])
def test_x_y_in_degrees_place_the_trees_as_assess_reads_them(tmp_path, capsys, x, y):
    # before: the Charlotte tree (x -80.84, y 35.23) was valued in the Northeast ($127.11) with the false warning
    # "no latitude/longitude columns in the input"; with lat/lon columns it gets the Piedmont's $149.82
    distributed = importlib.import_module("distributed")
    src = _xy_csv(tmp_path / "inv.csv", x, y)
    from treecalc.cli import main

    with distributed.LocalCluster(n_workers=1, processes=False, protocol="tcp://", dashboard_address=None) as c:
        rc = main(["benefits-batch", str(src), "--out", str(tmp_path / "out"), "--scheduler", c.scheduler_address])
    out = capsys.readouterr().out
    assert rc == 0, out
    got = pd.read_parquet(tmp_path / "out").sort_values("id")
    assert got["zone"].astype(str).tolist() == ["PiedmtCLT", "NoEastXXX"]
    assert got["usd_total_annual"].round(2).tolist() == [PIEDMONT_ACRU_12, NE_ACRU_12]
    assert got["zone_from"].astype(str).tolist() == ["coordinates", "coordinates"]
    assert "no latitude/longitude columns" not in out and "by default" not in out, out
    assert f"read from the columns {x!r} and {y!r} (x/y read as WGS84 longitude/latitude" in out, out
    assert "give --crs EPSG:… if they are projected" in out, out


def test_projected_x_y_need_the_crs_and_are_placed_with_it(tmp_path):
    # EPSG:2263 (NY Long Island, US ft), 1,000,000 ft E / 200,000 ft N: Manhattan, the Northeast
    src = _xy_csv(tmp_path / "sp.csv", "X", "Y", rows=((1, 1000000.0, 200000.0),))
    with pytest.raises(
        ValueError, match=r"x/y coordinates but no coordinate system \(‹crs›\) for them: give ‹crs› EPSG"
    ):
        benefits_batch(src, tmp_path / "out", client=object())
    got = value_partition(pd.read_csv(src), BenefitParams(), crs="EPSG:2263")
    assert got["zone"].astype(str).tolist() == ["NoEastXXX"] and got["zone_from"].astype(str).tolist() == [
        "coordinates"
    ]
    # the Charlotte tree in EPSG:2264 (NC, US ft): the Piedmont
    from pyproj import Transformer

    e, n = Transformer.from_crs("EPSG:4326", "EPSG:2264", always_xy=True).transform(CHARLOTTE[1], CHARLOTTE[0])
    frame = pd.DataFrame({"species": ["Acer rubrum"], "dbh_in": [12.0], "POINT_X": [e], "POINT_Y": [n]})
    got = value_partition(frame, BenefitParams(), crs="EPSG:2264")
    assert got["zone"].astype(str).tolist() == ["PiedmtCLT"]
    assert got["usd_total_annual"].round(2).tolist() == [PIEDMONT_ACRU_12]


def test_swapped_x_y_are_refused_naming_the_columns(tmp_path):
    # POINT_X/POINT_Y = 35.2271/-80.8431 (Charlotte swapped) read as a point off Antarctica: no zone; swapped, the
    # Piedmont
    frame = pd.DataFrame({"species": ["Acer rubrum"], "dbh_in": [12.0], "POINT_X": [35.2271], "POINT_Y": [-80.8431]})
    with pytest.raises(
        ValueError, match=r"'POINT_X' and 'POINT_Y' look swapped.*PiedmtCLT.*rename 'POINT_X' to latitude"
    ):
        value_partition(frame, BenefitParams())


def test_a_latitude_that_is_not_a_number_is_said_so(tmp_path):
    # before: '41.21N' was counted as "default: coordinates blank"
    frame = pd.DataFrame(
        {
            "species": ["Acer rubrum", "Acer rubrum"],
            "dbh_in": [12.0, 12.0],
            "latitude": ["41.21N", ""],
            "longitude": ["-73.89", ""],
        }
    )
    got = value_partition(frame, BenefitParams())
    assert got["zone_from"].astype(str).tolist() == ["default: coordinates not a number", "default: coordinates blank"]
    from collections import Counter

    from treecalc.studies.batch import zone_notes

    said = " ".join(zone_notes(Counter(got["zone"].astype(str)), Counter(got["zone_from"].astype(str)), ("lat", "lon")))
    assert "1 with a coordinate that is not a number (such as 41.21N" in said, said


def test_x_y_beside_latitude_longitude_that_disagree_are_refused_naming_the_row():
    frame = pd.DataFrame(
        {
            "species": ["Acer rubrum", "Acer rubrum"],
            "dbh_in": [12.0, 12.0],
            "POINT_X": [CROTON[1], CHARLOTTE[1]],
            "POINT_Y": [CROTON[0], CHARLOTTE[0]],
            "lat": [CROTON[0], CROTON[0]],
            "lon": [CROTON[1], CROTON[1]],
        }
    )
    with pytest.raises(ValueError, match=r"row 1: the columns 'POINT_X'/'POINT_Y' place the tree at longitude -80.84"):
        value_partition(frame, BenefitParams())
    frame.loc[1, ["POINT_X", "POINT_Y"]] = [CROTON[1], CROTON[0]]
    assert value_partition(frame, BenefitParams())["zone"].astype(str).tolist() == ["NoEastXXX"] * 2


def test_an_unknown_species_names_its_row(tmp_path):
    # the third data row (index 2) holds the name no list knows: the row counted from 0, as the DBH error says it
    src = tmp_path / "inv.csv"
    src.write_text("species,dbh_in\nAcer rubrum,12\nQuercus alba,10\nBogus tree,8\n")
    with pytest.raises(
        ValueError, match=r"rows counted from 0\): row 2, column 'species': unknown species 'Bogus tree'"
    ):
        benefits_batch(src, tmp_path / "out")


def test_projected_x_y_without_a_crs_ask_for_the_coordinate_system_not_a_site_sheet(tmp_path, capsys):
    from treecalc.cli import main

    src = tmp_path / "xy.csv"
    src.write_text("species,dbh_in,x,y\nAcer rubrum,12,672345.5,912345.2\n")
    with pytest.raises(ValueError) as e:
        benefits_batch(src, tmp_path / "out")
    # the library names the input by its keyword (tests/test_messages.py), the command line by its flag
    assert "coordinate system (‹crs›" in str(e.value) and "Site sheet" not in str(e.value), e.value
    assert main(["benefits-batch", str(src), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "give --crs EPSG:…" in err and "Site sheet" not in err and "site fact" not in err, err
