"""Time reading the same trees as a GeoPackage and as a CSV, end to end (``read_survey`` in its bounded child).

Usage::

    python benchmarks/gis.py [--trees 100000] [--rounds 2] [--seed 1] [--batch-trees 10000000]

The trees: four species by name (resolution is part of the work), DBH uniform 2-40 in, one in ten removed, points
scattered over about 2 km around Croton-on-Hudson. The CSV holds latitude/longitude columns; the GeoPackage the
same attributes and the points (WGS84) as one layer. Each round reads the CSV, then the GeoPackage (interleaved:
the machine's load falls on both alike); the median of each is reported with their ratio.

Goal: the GeoPackage read at most 2x the CSV read.

Then ``benefits-batch`` on ``--batch-trees`` trees (default 10,000,000; 0 skips it) as GeoParquet (WKB points in
WGS84 spread over the contiguous US, so that the trees fall in several zones), interleaved with the same trees
whose ``zone`` column is given (each tree's zone found once, beforehand, by the same point-in-zone search): the
time of placing the trees by their points over the time of reading their zones. Goal: at most 1.5x. Both run
alike, in this process (the command's default). The zone grid (:mod:`treecalc.reference.zone_grid`) is built or
read from the cache while the input is written, before either is timed; the load average is printed with the
figures (the machine is shared).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd


def write_trees(folder: Path, n: int, seed: int) -> tuple[Path, Path]:
    """The same ``n`` trees as ``trees.csv`` and ``trees.gpkg`` in ``folder``."""
    import geopandas as gpd
    from shapely import points

    rng = np.random.default_rng(seed)
    species = np.array(["Acer rubrum", "Quercus alba", "Sugar maple", "Pinus strobus"], dtype=object)
    frame = pd.DataFrame(
        {
            "Tag": [str(i) for i in range(1, n + 1)],
            "Species": species[rng.integers(0, len(species), n)],
            "DBH": rng.uniform(2.0, 40.0, n).round(1),
            "Action": np.where(rng.random(n) < 0.1, "remove", "retain"),
        }
    )
    lon = -73.89 + rng.uniform(-0.01, 0.01, n)
    lat = 41.2 + rng.uniform(-0.01, 0.01, n)
    csv, gpkg = folder / "trees.csv", folder / "trees.gpkg"
    frame.assign(latitude=lat, longitude=lon).to_csv(csv, index=False)
    gpd.GeoDataFrame(frame, geometry=points(lon, lat), crs=4326).to_file(gpkg, layer="trees", engine="pyogrio")
    return csv, gpkg


def read_seconds(path: Path) -> float:
    from treecalc.ingest import read_survey

    t0 = time.perf_counter()
    s = read_survey(path, isolated=True, max_bytes=2_000_000_000)
    took = time.perf_counter() - t0
    assert len(s.trees) == s.rows_read, f"{path.name}: {len(s.rejected)} rows rejected"
    return took


def write_batch(folder: Path, n: int, seed: int, rows_per_file: int = 1_000_000) -> tuple[Path, Path]:
    """``n`` trees as GeoParquet (``geo/``) and as Parquet with their zones (``zoned/``), files of at most
    ``rows_per_file`` rows."""
    import geopandas as gpd
    from shapely import points

    from treecalc.reference.geo import _regions
    from treecalc.reference.zone_grid import zone_index_at

    rng = np.random.default_rng(seed)
    codes = np.array([*_regions()[0], ""], dtype=object)  # -1 (in no zone): a blank zone cell
    geo, zoned = folder / "geo", folder / "zoned"
    geo.mkdir()
    zoned.mkdir()
    species = np.array(["Acer rubrum", "Quercus rubra", "Pinus strobus", "Ulmus americana"], dtype=object)
    for k, start in enumerate(range(0, n, rows_per_file)):
        m = min(rows_per_file, n - start)
        lon, lat = rng.uniform(-122.0, -72.0, m), rng.uniform(30.0, 46.0, m)
        frame = pd.DataFrame(
            {
                "tree_id": np.arange(start, start + m),
                "species": species[rng.integers(0, len(species), m)],
                "dbh_in": rng.uniform(1.0, 40.0, m).round(1),
            }
        )
        gpd.GeoDataFrame(frame, geometry=points(lon, lat), crs=4326).to_parquet(geo / f"part.{k}.parquet")
        zones = codes[zone_index_at(lat, lon)[0]]
        frame.assign(zone=zones).to_parquet(zoned / f"part.{k}.parquet", index=False)
    return geo, zoned


def batch_seconds(source: Path, out: Path) -> float:
    from treecalc.studies.batch import benefits_batch

    return benefits_batch(source, out).seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trees", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch-trees", type=int, default=10_000_000)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        csv, gpkg = write_trees(Path(folder), a.trees, a.seed)
        times: dict[str, list[float]] = {"csv": [], "gpkg": []}
        for _ in range(a.rounds):
            times["csv"].append(read_seconds(csv))
            times["gpkg"].append(read_seconds(gpkg))
    c, g = statistics.median(times["csv"]), statistics.median(times["gpkg"])
    print(f"{a.trees:,} trees, {a.rounds} round(s), medians:")
    print(f"  CSV        {c:8.2f} s")
    print(f"  GeoPackage {g:8.2f} s")
    print(f"  ratio      {g / c:8.2f}x (goal: at most 2x)")
    print(f"load average (1, 5, 15 min): {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if a.batch_trees <= 0:
        return
    with tempfile.TemporaryDirectory() as folder:
        geo, zoned = write_batch(Path(folder), a.batch_trees, a.seed)
        runs: dict[str, list[float]] = {"zoned": [], "geo": []}
        for r in range(a.rounds):
            runs["zoned"].append(batch_seconds(zoned, Path(folder) / f"out-zoned-{r}"))
            runs["geo"].append(batch_seconds(geo, Path(folder) / f"out-geo-{r}"))
    z, p = statistics.median(runs["zoned"]), statistics.median(runs["geo"])
    print(f"benefits-batch, {a.batch_trees:,} trees, {a.rounds} round(s), medians:")
    print(f"  zone column        {z:8.2f} s")
    print(f"  zones from points  {p:8.2f} s")
    print(f"  ratio              {p / z:8.2f}x (goal: at most 1.5x)")
    print(f"load average (1, 5, 15 min) at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
