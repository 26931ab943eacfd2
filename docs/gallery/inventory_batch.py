"""A small inventory through benefits-batch: write a 1,000-tree inventory as CSV, value every tree with
:func:`treecalc.studies.batch.benefits_batch` (the engine of ``treecalc benefits-batch``) and read the Parquet it writes.

A state's inventory is the same call on a folder of Parquet files, with ``scheduler=`` (a Dask scheduler's
address) or ``workers=`` (a local cluster); an inventory this small is valued in this process, piece by piece,
without starting a cluster. Run: ``python docs/gallery/inventory_batch.py [OUT_FOLDER]``.
"""

import sys
from pathlib import Path

import pandas as pd

from treecalc.studies.batch import benefits_batch

out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
out.mkdir(parents=True, exist_ok=True)

# 1,000 street trees: red maple, London plane, pin oak and honeylocust at 4 to 28 inches DBH.
species = ["ACRU", "PLAC", "QUPA", "GLTR"]
inventory = pd.DataFrame(
    {
        "tree_id": range(1, 1001),
        "species_code": [species[i % 4] for i in range(1000)],
        "dbh_in": [4 + (i * 7) % 25 for i in range(1000)],
    }
)
source = out / "inventory.csv"
inventory.to_csv(source, index=False)

result = benefits_batch(source, out / "benefits")
print(f"{result.trees} trees valued in {result.partitions} partition(s), scheduler: {result.scheduler}")

valued = pd.read_parquet(out / "benefits")
print(f"benefits per year: ${valued['usd_total_annual'].sum():,.2f}")
print(valued.groupby("species_code", observed=True)["usd_total_annual"].sum().round(2).to_string())
