"""The projection values the removed trees a block at a time (bounded memory at 500,000 trees): the figures are the
same, to the last bit, as valuing every tree-year in one frame."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from treecalc.models import projection


def test_blocks_of_trees_give_the_same_projection(tmp_path: Path, monkeypatch):
    from treecalc.assessment import assess

    species = ["Acer rubrum", "Quercus rubra", "Pinus strobus", "Tilia americana", "Fagus grandifolia"]
    rows = ["tag,species,dbh_in,action,condition"]
    rows += [f"{300 + i},{species[i % 5]},{7 + (i * 3) % 25}.5,removed,good" for i in range(47)]
    survey = tmp_path / "lot_cleared.csv"
    survey.write_text("\n".join(rows) + "\n", encoding="utf-8")
    a = assess(survey, jurisdiction="croton-on-hudson")
    assert int(a.trees["counted"].sum()) >= 20
    whole = projection.projection(a)
    monkeypatch.setattr(projection, "_TREES_AT_A_TIME", 4)  # 47 trees: 11 blocks of 4 and one of 3
    blocks = projection.projection(a)
    assert len(whole) == 42  # 21 years of each series
    pd.testing.assert_frame_equal(blocks, whole, check_exact=True)


def test_each_distinct_tree_valued_once_gives_the_same_projection(tmp_path: Path, monkeypatch):
    """The projection grows and values each distinct (species, DBH, land use) once and gives every tree its row: the
    figures are those of growing and valuing every tree of its own, to the last bit."""
    import numpy as np

    from treecalc.assessment import assess

    species = ["Acer rubrum", "Quercus rubra", "Pinus strobus", "Tilia americana", "Fagus grandifolia"]
    rows = ["tag,species,dbh_in,action,condition"]
    # species repeat every 5 rows and DBH every 25: 47 trees, 25 distinct (species, DBH) pairs, 22 trees repeating one
    rows += [f"{300 + i},{species[i % 5]},{7 + (i * 3) % 25}.5,removed,good" for i in range(47)]
    survey = tmp_path / "lot_cleared.csv"
    survey.write_text("\n".join(rows) + "\n", encoding="utf-8")
    a = assess(survey, jurisdiction="croton-on-hudson")
    counted = a.trees[a.trees["counted"].astype(bool)]
    pairs = counted[["species_code", "dbh_in"]].drop_duplicates()
    assert len(pairs) < len(counted)  # some trees share their species and DBH: the distinct ones are fewer
    once = projection.projection(a)
    seen: list[int] = []

    def every_tree(keys):  # every tree its own row, as when each was grown and valued apart
        seen.append(len(keys[0]))
        return np.arange(len(keys[0])), np.arange(len(keys[0]))

    monkeypatch.setattr(projection, "_distinct_rows", every_tree)
    each = projection.projection(a)
    assert seen and seen[0] == len(counted)
    assert len(once) == 42  # 21 years of each series
    pd.testing.assert_frame_equal(once, each, check_exact=True)
