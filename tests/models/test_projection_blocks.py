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
