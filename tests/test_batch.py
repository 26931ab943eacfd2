"""benefits-batch on Dask: a LocalCluster of 2 workers gives the single-process figures cell for cell."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from treecalc.batch import benefits_batch, value_partition
from treecalc.benefits import BenefitParams, compute_benefits


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
    distributed = pytest.importorskip("distributed")
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


def test_each_task_writes_its_own_file_and_a_rerun_leaves_no_old_partition(tmp_path, cluster_client):
    inv = _inventory(300)
    src = tmp_path / "in"
    src.mkdir()
    for k in range(3):
        inv.iloc[k * 100 : (k + 1) * 100].to_parquet(src / f"part-{k}.parquet", index=False)
    out = tmp_path / "out"
    out.mkdir()
    (out / "part.00007.parquet").write_bytes(b"stale")  # a partition of an earlier, larger run
    r = benefits_batch(src, out, client=cluster_client)
    assert r.trees == 300 and sorted(p.name for p in out.iterdir()) == [f"part.{k:05d}.parquet" for k in range(3)]
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
    from treecalc.species import UnknownSpecies

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
