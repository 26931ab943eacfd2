"""``plan`` never prices a set whose replacement is undecided (a fact not given) at $0.00, nor chooses it."""

from __future__ import annotations

from treecalc.ingest import read_survey
from treecalc.studies.plan import plan

# Milltown Chapter 201 (data/law/milltown/ch201_trees.toml): Category 1 is 2.5 in (street trees) or 6 in to 12.99 in,
# 1 tree; Category 2 13-22.99 in, 2 trees; Category 4 33 in or more, 4 trees; $250 a replacement tree in lieu.
SURVEY = (
    "Tag,Species,DBH,Action,Street tree,Hazardous,Permit\n"
    "1,Acer rubrum,12.99,Removed,no,no,no\n"  # done: Category 1, 1 tree, in every plan
    "2,Quercus rubra,13,Remove,no,no,\n"  # Category 2: 2 trees
    "3,Acer saccharum,2.5,Remove,yes,no,\n"  # a street tree: Category 1, 1 tree
    "4,Acer saccharum,4,Remove,,no,\n"  # Category 1 only if a street tree, not given: undecided
    "5,Acer saccharum,12.995,Remove,no,no,\n"  # between Categories 1 and 2: undecided
    "6,Acer rubrum,33,Must remove,no,no,\n"  # Category 4: 4 trees, in every plan
)


def test_an_undecided_count_is_never_priced(tmp_path):
    f = tmp_path / "m1.csv"
    f.write_text(SURVEY)
    p = plan(read_survey(f), jurisdiction="milltown", plantable=3)
    got = {s.k: (sorted(s.remove), s.in_lieu_usd, s.cost_usd) for s in p.frontier}
    # 3 planted on site, the rest in lieu at $250 each; trees 1 and 6 are in every plan (1 + 4 = 5 trees):
    # k=0: 5 trees, 2 in lieu = $500
    # k=1: + tree 3 (1 tree) = 6, 3 in lieu = $750 (tree 2: 7 trees, $1,000; trees 4 and 5 undecided)
    # k=2: + trees 2 and 3 = 8, 5 in lieu = $1,250 (every other pair holds tree 4 or 5)
    # k=3, k=4: every set holds tree 4 or 5: none priced
    assert got == {
        0: (["6"], 500.0, 500.0),
        1: (["3", "6"], 750.0, 750.0),
        2: (["2", "3", "6"], 1250.0, 1250.0),
    }
    assert sorted(p.unpriced) == [3, 4]
    assert "tree 4" in p.unpriced[4] and "tree 5" in p.unpriced[4]
    # Milltown's penalties are not held: no amount, not $0, and the cost basis says so
    assert {s.penalty_usd for s in p.frontier} == {None}
    assert "penalty not held" in p.cost_basis
