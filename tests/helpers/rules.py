import csv

import pandas as pd

from treecalc.schema import FLAG_FIELDS

FLAGS = FLAG_FIELDS  # the survey flags, from their one home


def make_trees(rows):
    """rows: list of dicts with at least species_code, dbh_in, action; flags default False."""
    out = []
    for i, r in enumerate(rows):
        base = {
            "source_row": i + 2,
            "tag": str(i + 1),
            "species": r.get("species_code", "ACRU"),
            "species_code": "ACRU",
            "dbh_in": 10.0,
            "stems": 1,
            "action": "removed",
            "condition": "good",
            "land_use": "",
            "notes": "",
            "distance_to_residence_ft": float("nan"),
            "warnings": "",
        }
        base.update({f: False for f in FLAGS})
        base.update(r)
        out.append(base)
    df = pd.DataFrame(out)
    for f in FLAGS:
        df[f] = df[f].astype("boolean")
    return df


#: A flat house lot (§208-19A(2) does not apply): no parcel fact is assumed.
FLAT_HOUSE_LOT = {"subdividable": False, "has_residence": True, "site_plan_required": False}
#: A replacement stock of 2 in red maples at $450 each, for surveys whose cost is not the point
STOCK = [{"species": "ACRU", "dbh_in": 2, "unit_cost_usd": 450}]


def write_csv(path, rows):
    """``rows`` (the header first) as a CSV survey at ``path``."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)
    return path
