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
