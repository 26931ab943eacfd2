"""``plan`` under a count-by-class town (Milltown Chapter 201): each step's cost is its payment in lieu, worked
from the table, the exact search finding the cheapest set of removals for each number of them."""

from __future__ import annotations

from treecalc.ingest import read_survey
from treecalc.studies.plan import plan

SURVEY = (
    "Tag,Species,DBH (in),Action\n"
    "1,Acer rubrum,12.99,remove\n"  # Category 1: 1 tree ($250)
    "2,Acer rubrum,13,remove\n"  # Category 2: 2 trees ($500)
    "3,Acer rubrum,40,remove\n"  # Category 4: 4 trees ($1,000)
    "4,Acer rubrum,8,removed\n"  # done already: Category 1, 1 tree, in every plan
)


def test_each_step_is_the_cheapest_in_lieu_payment(tmp_path):
    f = tmp_path / "m.csv"
    f.write_text(SURVEY)
    p = plan(read_survey(f), jurisdiction="milltown", plantable=1)
    got = {s.k: (sorted(s.remove), s.in_lieu_usd, s.planting_usd) for s in p.frontier}
    # 1 tree planted on site, the rest at $250 a replacement tree (every category's share):
    # k=0: tree 4 alone, 1 tree, planted: $0
    # k=1: the cheapest one more is tree 1 (1 tree): 2 trees, 1 in lieu = $250
    # k=2: trees 1 and 2: 1 + 2 + 1 = 4 trees, 3 in lieu = $750
    # k=3: all: 1 + 2 + 4 + 1 = 8 trees, 7 in lieu = $1,750
    assert got == {
        0: ([], 0.0, 0.0),
        1: (["1"], 250.0, 0.0),
        2: (["1", "2"], 750.0, 0.0),
        3: (["1", "2", "3"], 1750.0, 0.0),
    }
    # Milltown's permit section is not held: neither yes nor no
    assert {s.permit_required for s in p.frontier} == {None}
