"""Benefits of a state's inventory on Dask: ``treecalc benefits-batch INPUT --out OUT.parquet``.

The input is Parquet or CSV, one file or a folder of partitions (``*.parquet``, ``*.csv``), with the columns
:func:`treecalc.benefits.compute_benefits` reads (``species`` or ``species_code``, ``dbh_in``, optional
``land_use`` and ``zone``); any other column (a tree id) is carried through. Each partition is valued by
``compute_benefits`` itself (``dask.dataframe`` ``map_partitions``), so a partition's figures are the
single-process figures cell for cell; the work runs on the :mod:`dask.distributed` scheduler at
``scheduler`` when given, else on a :class:`distributed.LocalCluster` of ``workers`` processes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from treecalc.benefits import BenefitParams, compute_benefits


@dataclass(frozen=True)
class BatchResult:
    """What a batch run did: trees valued, partitions, seconds, trees per second, and where it ran."""

    trees: int
    partitions: int
    seconds: float
    trees_per_second: float
    scheduler: str
    out: str


def _files(path: Path) -> tuple[str, list[str]]:
    """The input's format (parquet or csv) and its files."""
    if path.is_dir():
        for kind, pattern in (("parquet", "*.parquet"), ("csv", "*.csv")):
            found = sorted(str(p) for p in path.rglob(pattern))
            if found:
                return kind, found
        raise ValueError(f"{path}: no *.parquet or *.csv partitions in the folder")
    if not path.exists():
        raise ValueError(f"{path}: no such file or folder")
    kind = "parquet" if path.suffix.lower() in (".parquet", ".pq") else "csv" if path.suffix.lower() == ".csv" else ""
    if not kind:
        raise ValueError(f"{path}: expected a .parquet or .csv file, or a folder of them")
    return kind, [str(path)]


def read_input(path: str | Path, blocksize: str = "64MB") -> Any:
    """The input as a ``dask.dataframe`` (one partition per Parquet file or row group, CSV in blocks)."""
    import dask.dataframe as dd

    kind, files = _files(Path(path))
    if kind == "parquet":
        return dd.read_parquet(files)
    return dd.read_csv(files, blocksize=blocksize, dtype={"species": "object", "species_code": "object"})


def _text(col: pd.Series) -> pd.Series:
    """A categorical column as Arrow text, taken from its categories in one Arrow call (pandas' own
    conversion of a half-million-row categorical of long disclosure texts takes ~10 s)."""
    import pyarrow as pa

    cat = col.array
    codes = pa.array(cat.codes, mask=cat.codes < 0)
    values = pa.array([str(c) for c in cat.categories], pa.large_string()).take(codes)
    return pd.Series(pd.arrays.ArrowStringArray(values), index=col.index, name=col.name)


def value_partition(part: pd.DataFrame, params: BenefitParams) -> pd.DataFrame:
    """One partition's benefits, its other columns carried in front; the categorical text columns as plain
    text (each partition's categories differ and Parquet keeps one type per column; the file dictionary-encodes
    them again)."""
    out = compute_benefits(part, params)
    keep = part[[c for c in part.columns if c not in out.columns]]
    for c in out.columns:
        if isinstance(out[c].dtype, pd.CategoricalDtype):
            out[c] = _text(out[c])
    return pd.concat([keep, out], axis=1)


def benefits_batch(
    source: str | Path,
    out: str | Path,
    scheduler: str | None = None,
    workers: int = 2,
    params: BenefitParams | None = None,
    client: Any = None,
) -> BatchResult:
    """Value every tree of ``source`` on Dask and write the benefits per tree to ``out`` (a Parquet folder)."""
    from distributed import Client, LocalCluster

    params = params or BenefitParams()
    params.resolved()  # a bad price or zone is an error before any worker starts
    ddf = read_input(source)
    sample = ddf.head(5, npartitions=-1)
    if not len(sample):
        raise ValueError(f"{source}: no rows")
    meta = value_partition(sample, params).iloc[:0]
    result = ddf.map_partitions(value_partition, params, meta=meta)
    owned: list[Any] = []
    if client is None:
        if scheduler:
            client = Client(scheduler)
        else:
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
            client = Client(cluster)
            owned.append(cluster)
        owned.insert(0, client)
    info: dict[str, Any] = getattr(client, "scheduler_info", dict)()
    where = str(scheduler or info.get("address", "local"))
    try:
        t0 = time.perf_counter()
        result.to_parquet(str(out), write_index=False, compute=True)
        seconds = time.perf_counter() - t0
    finally:
        for o in owned:
            o.close()
    import pyarrow.parquet as pq

    n = sum(pq.ParquetFile(f).metadata.num_rows for f in sorted(Path(out).glob("*.parquet")))
    return BatchResult(n, ddf.npartitions, seconds, n / seconds if seconds else float("inf"), where, str(out))
