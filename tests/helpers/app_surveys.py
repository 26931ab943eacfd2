"""Surveys as users send them, written here for the app's third-pass browser tests (not the bundled sample).

* :func:`arborist_25`: an arborist's 25-tree field survey of a lot: a title row above the header, multi-stem
  trees written as their stems ("12, 8"), a misspelled species ("Nothern red oak"), a street tree said only
  in the notes ("Street tree – Village ROW"); tags 110 to 134, so that "12" is a part of eleven tags
  (112, 120 to 129) and the whole tag of none.
* :func:`developer_8`: a developer's 8-tree application: three red oaks (10, 11 and 12 in DBH) to remove,
  five trees kept, on a lot with no residence (a permit is needed, §208-19A(2)).
* :func:`slope_violation_5`: five trees on a steep slope, three red oaks (10, 11, 12 in) found removed, one
  proposed for removal, one kept.
"""

from __future__ import annotations

import io

import pandas as pd

#: Croton-on-Hudson, a 2-acre lot with no residence that cannot be subdivided: removing a tree needs a
#: permit (§208-19A(2))
SITE = {"jurisdiction": "croton-on-hudson", "has_residence": "no", "subdividable": "no", "lot_area_acres": 2}


def _book(trees: pd.DataFrame, site: dict, title: str | None = None) -> bytes:
    buf = io.BytesIO()
    with pd.ExcelWriter(buf, engine="openpyxl") as xw:
        start = 0
        if title:
            pd.DataFrame([[title]]).to_excel(xw, sheet_name="Trees", index=False, header=False)
            start = 2  # the title, a blank row, then the header
        trees.to_excel(xw, sheet_name="Trees", index=False, startrow=start)
        pd.DataFrame({"field": list(site), "value": list(site.values())}).to_excel(
            xw, sheet_name="Site", index=False, header=False
        )
    return buf.getvalue()


ARBORIST_SPECIES = ["Red maple", "Sugar maple", "Nothern red oak", "Eastern white pine", "American beech"]


def arborist_25() -> bytes:
    n = 25
    tags = [str(110 + i) for i in range(n)]
    dbh: list[object] = [8.0 + (i % 9) * 2.5 for i in range(n)]
    dbh[3], dbh[17] = "12, 8", "10, 6, 5"  # multi-stem trees, as the field sheet writes them
    actions = ["Retain"] * n
    actions[5] = actions[21] = "Remove"
    notes = [""] * n
    notes[7] = "Street tree – Village ROW"
    notes[12] = "co-dominant stems"
    trees = pd.DataFrame(
        {
            "Tree #": tags,
            "Species": [ARBORIST_SPECIES[i % 5] for i in range(n)],
            "DBH (in)": dbh,
            "Condition": ["Good" if i % 4 else "Fair" for i in range(n)],
            "Action": actions,
            "Notes": notes,
        }
    )
    return _book(trees, SITE, "Tree inventory, 14 Old Post Road N. Field survey 2026-10-02, J. Rivera (ISA NE-7312)")


def developer_8() -> bytes:
    trees = pd.DataFrame(
        {
            "Tag": [f"D-{i}" for i in range(1, 9)],
            "Species": ["Red oak"] * 3 + ["Red maple", "Sugar maple", "White oak", "Red maple", "Pin oak"],
            "DBH (in)": [10.0, 11.0, 12.0, 9.0, 14.0, 16.0, 7.0, 18.0],
            "Action": ["Remove"] * 3 + ["Retain"] * 5,
        }
    )
    return _book(trees, SITE)


def keeps_8() -> bytes:
    """A developer's 8-tree application with a tree that must go and an invasive one: K-1 (red oak, 10 in) marked
    'Must remove' (in the footprint), K-2 and K-3 (red oaks, 11 and 12 in) and K-4 (a Norway maple, 9 in, invasive,
    NY Part 575) proposed for removal, four trees kept; on the lot of :data:`SITE` (every removal needs a permit)."""
    trees = pd.DataFrame(
        {
            "Tag": [f"K-{i}" for i in range(1, 9)],
            "Species": ["Red oak"] * 3 + ["Norway maple", "Sugar maple", "White oak", "Red maple", "Pin oak"],
            "DBH (in)": [10.0, 11.0, 12.0, 9.0, 14.0, 16.0, 7.0, 18.0],
            "Action": ["Remove"] * 4 + ["Retain"] * 4,
            "Must remove": ["yes"] + [""] * 7,
        }
    )
    return _book(trees, SITE)


def slope_violation_5() -> bytes:
    trees = pd.DataFrame(
        {
            "Tag": ["S1", "S2", "S3", "S4", "S5"],
            "Species": ["Red oak", "Red oak", "Red oak", "Red maple", "Sugar maple"],
            "DBH (in)": [10.0, 11.0, 12.0, 9.0, 14.0],
            "Action": ["Removed", "Removed", "Removed", "Remove", "Retain"],
            "Steep slope": ["yes"] * 5,
        }
    )
    return _book(trees, SITE)


def mapped_lot_csv() -> bytes:
    """Four trees with their latitude/longitude: one removed, two kept, one dead (kept; its condition "Dead",
    the field note that makes a tree dead; a "dead or diseased" flag alone does not)."""
    return (
        b"Tag,Species,DBH (in),Action,Condition,Latitude,Longitude\n"
        b"M1,Red oak,24,Removed,Good,41.20000,-73.90000\n"
        b"M2,Red maple,6,Retain,Fair,41.20020,-73.90030\n"
        b"M3,Sugar maple,14,Retain,Dead,41.20040,-73.90010\n"
        b"M4,White oak,30,Retain,Good,41.20010,-73.90060\n"
    )


#: the label the Board's schedule of :func:`board_register` is named by in every output
BOARD_LABEL = "Board resolution 2026-12 of 2026-03-02 (§208-24C)"


def board_register(tmp_path) -> str:
    """A register (its SQLite URL) in which the Engineer recorded the Board's fee schedule: resolution 2026-12 of
    2026-03-02, $450.00 a tree not planted (§208-24C). A server started with ``TREECALC_DB`` set to it charges
    that schedule in every browser (the app's Fund page has no control of its own)."""
    from treecalc.register import Register, fees

    url = f"sqlite:///{tmp_path / 'register.db'}"
    reg = Register(url)
    reg.add_user("eng", "engineer", "correct horse battery", by="setup")
    fees.record(reg, by="eng", resolution_date="2026-03-02", fee_per_tree_usd="450", resolution="2026-12")
    return url


def wesley_hills_lot() -> bytes:
    """A Wesley Hills lot of one acre: a red oak (14 in) and a sugar maple (20 in) to remove, a red maple (9 in)
    kept; no lot-line or residence-distance column (those facts are not given)."""
    trees = pd.DataFrame(
        {
            "Tag": ["W1", "W2", "W3"],
            "Species": ["Red oak", "Red maple", "Sugar maple"],
            "DBH (in)": [14.0, 9.0, 20.0],
            "Action": ["Remove", "Retain", "Remove"],
        }
    )
    return _book(trees, {"jurisdiction": "wesley-hills", "lot_area_acres": 1})
