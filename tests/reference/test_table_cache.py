"""The built species and zone tables kept between runs (treecalc.reference.table_cache): a cached copy is the very
table a build gives, an edited data file builds afresh, and a cache that is damaged, read-only or off is only
slower."""

from __future__ import annotations

import shutil
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from treecalc.reference import data, table_cache


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder of this test's, every table cache cleared around it."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(table_cache.CACHE_ENV, str(folder))
    _clear()
    yield folder
    _clear()


def _clear() -> None:
    for f in (data.catalogue, data.benefit_tables, data.zone_tables):
        f.cache_clear()


def _zone_tables_equal(a: data.ZoneTables, b: data.ZoneTables) -> None:
    assert a.zones == b.zones and a.local_rows == b.local_rows
    assert a.tables.value_rows == b.tables.value_rows and a.tables.row_index == b.tables.row_index
    assert a.tables.units == b.tables.units and list(a.tables.stack) == list(b.tables.stack)
    for f in a.tables.stack:
        assert a.tables.stack[f].dtype == b.tables.stack[f].dtype
        assert a.tables.stack[f].tobytes() == b.tables.stack[f].tobytes(), f  # bit for bit, NaN included
        assert not b.tables.stack[f].flags.writeable
    for k in ("row_zone", "cat_rows", "substituted", "has_variants", "it_zero", "large_tree_leaf_area_m2"):
        x, y = getattr(a, k), getattr(b, k)
        assert x.dtype == y.dtype and x.tobytes() == y.tobytes(), k
        assert not y.flags.writeable, k


def test_a_cached_table_is_the_table_a_build_gives(cache):
    built_zones = data._build_zone_tables()
    built_ne = data._build_benefit_tables()
    built_cat = data._build_catalogue().set_index("code", drop=False)
    first = (data.zone_tables(), data.benefit_tables(), data.catalogue())  # built, and saved
    saved = sorted(p.name.split("-")[0] for p in cache.iterdir())
    assert saved == ["benefit_tables", "catalogue", "zone_tables"]
    _clear()
    again = (data.zone_tables(), data.benefit_tables(), data.catalogue())  # read back from the cache
    for got in (first, again):
        _zone_tables_equal(built_zones, got[0])
        assert got[1].value_rows == built_ne.value_rows and got[1].units == built_ne.units
        assert all(got[1].stack[f].tobytes() == built_ne.stack[f].tobytes() for f in built_ne.stack)
        pd.testing.assert_frame_equal(got[2], built_cat, check_exact=True)
    # the catalogue has text, numbers (NaN where a parameter is not given) and yes/no columns, all kept
    assert {"str", "float64", "bool"} <= {str(d) for d in again[2].dtypes}


def test_an_edited_data_file_builds_afresh_never_the_stale_copy(cache, tmp_path, monkeypatch):
    data.catalogue()
    assert data.catalogue().at["ACRU", "native"]  # red maple is native (local_status.csv)
    copy = tmp_path / "species"
    shutil.copytree(data.SPECIES_DIR, copy)
    p = copy / "local_status.csv"
    p.write_text(p.read_text().replace("ACRU,Acer rubrum,yes,", "ACRU,Acer rubrum,no,"))
    monkeypatch.setattr(data, "SPECIES_DIR", copy)
    _clear()
    assert not data.catalogue().at["ACRU", "native"]  # the edit is read: a new cache entry beside the first
    assert len([q for q in cache.iterdir() if q.name.startswith("catalogue-")]) == 2


def test_a_damaged_cache_file_is_rebuilt_and_rewritten(cache):
    want = data.benefit_tables().stack["lsa"].copy()
    (path,) = [q for q in cache.iterdir() if q.name.startswith("benefit_tables-")]
    path.write_bytes(b"PK\x03\x04 not a whole zip")  # a copy cut short (a full disk, a killed process)
    _clear()
    assert np.array_equal(data.benefit_tables().stack["lsa"], want, equal_nan=True)
    with np.load(path, allow_pickle=False) as z:  # rewritten whole
        assert "stack.lsa" in z.files


def test_a_cache_folder_that_cannot_be_written_or_is_off_only_costs_a_build(cache, monkeypatch):
    cache.write_text("a file where the folder should be")  # (a read-only folder is no test as root, as CI runs)
    assert data.catalogue().at["ACRU", "code"] == "ACRU"
    assert cache.read_text() == "a file where the folder should be"
    monkeypatch.setenv(table_cache.CACHE_ENV, "off")
    _clear()
    assert table_cache.cache_dir() is None
    assert data.catalogue().at["ACRU", "code"] == "ACRU"


def test_the_fingerprint_lists_the_same_data_files_from_a_cold_and_a_warm_cache(tmp_path):
    # the data files a statement's fingerprint lists are those the tables were built from, even when the tables
    # come from the cache: a fresh process with an empty cache, then one with the cache it left
    survey = tmp_path / "lot.csv"
    survey.write_text("Tag,Species,DBH (in),Action\n1,Red maple,14,Remove\n2,Pin oak,20,Keep\n")
    env = {**__import__("os").environ, table_cache.CACHE_ENV: str(tmp_path / "cache")}
    code = (
        "import json,sys; from treecalc.report.fingerprint import assess_file; "
        "a = assess_file(sys.argv[1], {}); print(json.dumps(a.fingerprint['data_files'], sort_keys=True))"
    )
    runs = [
        subprocess.run([sys.executable, "-c", code, str(survey)], env=env, capture_output=True, text=True, check=True)
        for _ in range(2)
    ]
    cold, warm = (r.stdout for r in runs)
    assert "species/zones/NoEastXXX/benefit_tables.csv" in cold and "species/catalogue.csv" in cold
    assert cold == warm
    assert sorted(q.name.split("-")[0] for q in (tmp_path / "cache").iterdir()) == [
        "benefit_tables",
        "catalogue",
        "zone_tables",
    ]
