"""Benefits of a state's inventory on Dask: ``treecalc benefits-batch INPUT --out OUT.parquet``.

The input is Parquet or CSV, one file or a folder of partitions (``*.parquet``, ``*.csv``), with the columns
:func:`treecalc.benefits.compute_benefits` reads (``species`` or ``species_code``, ``dbh_in``, optional
``land_use`` and ``zone``); any other column (a tree id) is carried through. Each partition (a
``dask.dataframe`` partition, read on the worker) is valued by ``compute_benefits`` itself and written there
as its own Parquet file, so a partition's figures are the single-process figures cell for cell; the work
runs on the :mod:`dask.distributed` scheduler at ``scheduler`` when given, else on a
:class:`distributed.LocalCluster` of ``workers`` processes of ``threads`` threads.
"""

from __future__ import annotations

import logging
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

    def header(f: str) -> list[str]:
        try:
            return [str(c) for c in pd.read_csv(f, nrows=0).columns]
        except pd.errors.EmptyDataError:
            raise ValueError(f"{f}: an empty file, no header row") from None

    first = header(files[0])
    for f in files[1:]:  # dask reads every block with the first file's columns: a file of others is refused here
        cols = header(f)
        if cols != first:
            raise ValueError(f"{f}: columns {cols} differ from {files[0]}'s {first}; give every partition the same")
    return dd.read_csv(
        files,
        blocksize=blocksize,
        dtype={"species": "object", "species_code": "object"},
        include_path_column=PATH_COLUMN,  # a bad row's error names its file (dropped before valuing)
    )


#: The column :func:`read_input` gives each CSV row, its file: never valued nor written.
PATH_COLUMN = "__treecalc_source_file__"


def _without_path(part: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    """The partition without :data:`PATH_COLUMN`, and the file(s) its rows came from (for an error)."""
    if PATH_COLUMN not in part:
        return part, ""
    files = ", ".join(sorted({str(f) for f in part[PATH_COLUMN].astype(str).unique()}))
    return part.drop(columns=[PATH_COLUMN]), files


def _arrow_table(frame: pd.DataFrame) -> Any:
    """A partition's benefits as an Arrow table, each categorical column (the disclosure sentences, the codes)
    as a dictionary column of int32 codes and text: written as it is held, never expanded into a text per tree
    (turning half a million disclosure cells into text and hashing them again cost more than the valuation),
    and of one type in every partition whatever its categories."""
    import pyarrow as pa

    cols, names = [], []
    for c in frame.columns:
        s = frame[c]
        if isinstance(s.dtype, pd.CategoricalDtype):
            codes = s.cat.codes.to_numpy().astype("int32")
            values = pa.array([str(v) for v in s.cat.categories], pa.large_string())
            cols.append(pa.DictionaryArray.from_arrays(pa.array(codes, mask=codes < 0), values))
        else:
            cols.append(pa.array(s.to_numpy() if s.dtype.kind in "biuf" else s, from_pandas=True))
        names.append(str(c))
    return pa.Table.from_arrays(cols, names=names)


def value_partition(part: pd.DataFrame, params: BenefitParams) -> pd.DataFrame:
    """One partition's benefits, its other columns carried in front."""
    out = compute_benefits(part, params)
    keep = part[[c for c in part.columns if c not in out.columns]]
    return pd.concat([keep, out], axis=1)


def _write_partition(part: pd.DataFrame, params: BenefitParams, path: str, k: int = 0, files: str = "") -> int:
    """Value one partition and write it to ``path`` on the worker that read it; only its row count travels.

    A tree it cannot value is an error naming the partition and its file (a row number alone, counted within
    the partition, does not say where in a folder of files it is)."""
    import pyarrow.parquet as pq

    part, read_from = _without_path(part)
    try:
        valued = value_partition(part, params)
    except ValueError as e:
        raise ValueError(f"{read_from or files or 'input'} (partition {k}, rows counted from 0): {e}") from None
    pq.write_table(_arrow_table(valued), path)
    return len(part)


def _warm(params: BenefitParams) -> bool:
    """Load the tables (and the derived tables of ``params``) in a worker once, before its partitions."""
    compute_benefits(pd.DataFrame({"species_code": ["ACRU"], "dbh_in": [12.0], "zone": ["NoEastXXX"]}), params)
    compute_benefits(pd.DataFrame({"species_code": ["ACRU"], "dbh_in": [12.0]}), params)
    return True


def benefits_batch(
    source: str | Path,
    out: str | Path,
    scheduler: str | None = None,
    workers: int = 1,
    params: BenefitParams | None = None,
    client: Any = None,
    threads: int = 2,
) -> BatchResult:
    """Value every tree of ``source`` on Dask and write the benefits per tree to ``out`` (a Parquet folder).

    Each task reads its partition from the input files on its worker, values it, and writes its own Parquet
    file there (``part.<k>.parquet``); nothing but a row count comes back, so the client never holds the trees.
    The tables are loaded once per worker process before the partitions (``_warm``). A local cluster runs
    ``workers`` processes of ``threads`` threads; the default, one process of two threads, shares one copy of
    the tables (numpy and Arrow release the GIL in the lookups and the Parquet reads and writes) and measured
    1.75 x one thread, where two processes of one thread measured 0.72 x on this loaded 2-core machine
    (``benchmarks/batch.py``; README "Beyond one machine")."""
    import dask
    from distributed import Client, LocalCluster

    params = params or BenefitParams()
    params.resolved()  # a bad price or zone is an error before any worker starts
    ddf = read_input(source)
    sample, read_from = _without_path(ddf.head(5, npartitions=-1))
    if not len(sample):
        raise ValueError(f"{source}: no rows")
    try:  # a bad column or species in the first rows is an error here, not on a worker
        value_partition(sample, params)
    except ValueError as e:
        raise ValueError(f"{read_from or source} (partition 0, rows counted from 0): {e}") from None
    target = Path(out)
    target.mkdir(parents=True, exist_ok=True)
    for old in target.glob("part.*.parquet"):  # a rerun into the same folder leaves no partition of the last run
        old.unlink()
    parts = ddf.to_delayed()
    one_file = str(source) if Path(source).is_file() else ""
    tasks = [
        dask.delayed(_write_partition)(p, params, str(target / f"part.{k:05d}.parquet"), k, one_file)
        for k, p in enumerate(parts)
    ]
    owned: list[Any] = []
    if client is None:
        if scheduler:
            client = Client(scheduler)
        else:
            cluster = LocalCluster(  # a task's error is raised here, named: not logged again with its traceback
                n_workers=workers,
                threads_per_worker=threads,
                processes=True,
                dashboard_address=None,
                silence_logs=logging.CRITICAL,
            )
            client = Client(cluster)
            owned.append(cluster)
        owned.insert(0, client)
    info: dict[str, Any] = getattr(client, "scheduler_info", dict)()
    where = str(scheduler or info.get("address", "local"))
    try:
        t0 = time.perf_counter()
        client.run(_warm, params)
        try:
            n = sum(client.gather(client.compute(tasks)))
        except Exception:
            for done in target.glob("part.*.parquet"):  # the partitions written before the error are no answer
                done.unlink()
            raise
        seconds = time.perf_counter() - t0
    finally:
        for o in owned:
            o.close()
    return BatchResult(n, len(parts), seconds, n / seconds if seconds else float("inf"), where, str(out))
