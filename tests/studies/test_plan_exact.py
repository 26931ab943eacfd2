"""The plan's search assesses only the sets closed under dominance within each class of trees the law
reads alike; checked here against brute force over every subset, on surveys where the classes, the
dominance order and the thresholds all bite."""

import copy
import itertools
import time

import numpy as np
import pytest

import treecalc
from treecalc.assessment import _load_survey
from treecalc.ingest import read_survey
from treecalc.reference.data import SAMPLE_SURVEY
from treecalc.studies.plan import costs, plan

SITE = {"subdividable": False, "has_residence": True, "site_plan_required": False, "prior_removals_12mo": 0}

# two required removals and eight optional ones: B1/B2 alike (a chain), B3 (12 in, poor) and B4 (13 in,
# excellent) of other species, C1 a street tree, D1 an invasive Ailanthus (§208-22E: not counted), E1 a
# dead ash (not counted, §208-22B), F1 a 5 in maple on a slope over 20% (a §208-19A(3) trigger at 4 in)
CSV = """Tag,Species,DBH (in),Action,Condition,Must remove,Street tree,Slope over 20%
A1,Acer rubrum,14,Remove,Good,Yes,,
A2,Quercus rubra,20,Remove,Fair,Yes,,
B1,Acer rubrum,8,Remove,Good,,,
B2,Acer rubrum,8,Remove,Good,,,
B3,Acer saccharum,12,Remove,Poor,,,
B4,Tilia americana,13,Remove,Excellent,,,
C1,Quercus palustris,10,Remove,Good,,Yes,
D1,Ailanthus altissima,9,Remove,Good,,,
E1,Fraxinus americana,16,Remove,Dead,,,
F1,Acer rubrum,5,Remove,Good,,,Yes
G1,Quercus alba,18,Retain,Good,,,
"""


def _brute(survey, optional_tags, ks=None, **options):
    """The cheapest cost for each k over every subset of the optional trees (each assessed in full)."""
    trees = survey.trees.reset_index(drop=True)
    tags = trees["tag"].astype(str).to_numpy()
    base = trees["action"].to_numpy(object).copy()
    base[np.isin(tags, optional_tags)] = "retain"
    best, cost_of = {}, {}
    for k in range(len(optional_tags) + 1) if ks is None else ks:
        for subset in itertools.combinations(optional_tags, k):
            action = base.copy()
            action[np.isin(tags, subset)] = "remove"
            s = copy.copy(survey)
            s.trees = trees.assign(action=action)
            total = sum(costs(treecalc.assess(s, **options)))
            cost_of[frozenset(subset)] = total
            best[k] = min(best.get(k, total), total)
    return best, cost_of


def test_every_k_equals_brute_force_with_classes_and_thresholds(tmp_path):
    f = tmp_path / "lot.csv"
    f.write_text(CSV)
    survey = read_survey(f)
    p = plan(survey, site=SITE)
    opt = ["B1", "B2", "B3", "B4", "C1", "D1", "E1", "F1"]
    assert p.must_remove == ["A1", "A2"] and p.optional == opt
    assert p.assessments < 2 ** len(opt)  # fewer than the 256 subsets
    best, cost_of = _brute(survey, opt, site=SITE)
    assert [s.k for s in p.frontier] == list(range(len(opt) + 1))
    for s in p.frontier:
        assert s.cost_usd == pytest.approx(float(best[s.k]), abs=0.001), s.k
        assert float(cost_of[frozenset(s.remove[2:])]) == pytest.approx(s.cost_usd, abs=0.001)
    # k = 2 makes four removals, a permit (§208-19A(1)): the two trees §208-22A does not count (the
    # invasive D1, the dead E1) are cheaper than the smallest maple, which would need replacing
    assert p.frontier[2].remove[2:] == ["D1", "E1"]
    assert "4 removals in 12 months" in p.frontier[2].reasons[0] and "§208-19A(1)" in p.frontier[2].reasons[0]


def test_the_sample_is_answered_within_the_default_cap():
    # the sample: ten optional removals, all distinct (it was refused at 2^10 = 1,024 > 256 assessments)
    survey = _load_survey(SAMPLE_SURVEY)
    t0 = time.perf_counter()
    p = plan(survey)
    took = time.perf_counter() - t0
    assert len(p.optional) == 10 and p.assessments <= 256
    assert [s.k for s in p.frontier] == list(range(11))
    # the extremes against brute force: 10 sets of one tree and 10 sets of nine
    best, cost_of = _brute(survey, p.optional, ks=[1, 9])
    for k in (1, 9):
        assert p.frontier[k].cost_usd == pytest.approx(float(best[k]), abs=0.001)
        assert float(cost_of[frozenset(p.frontier[k].remove)]) == pytest.approx(p.frontier[k].cost_usd, abs=0.001)
    assert took < 120  # seconds (about 3 s of CPU; the bound is loose for a loaded machine)


def test_the_catalogue_columns_the_rules_read_are_part_of_a_class():
    # a class compares a species by the catalogue columns the rules read; if a rule reads another, the
    # plan's classes must include it (treecalc.studies.plan.SPECIES_LAW_COLUMNS)
    import re
    from pathlib import Path

    from treecalc.studies.plan import SPECIES_LAW_COLUMNS

    rules = Path(treecalc.__file__).parent / "rules"
    read = set()
    for f in rules.glob("*.py"):
        read |= set(re.findall(r'catalogue\["(\w+)"\]', f.read_text()))
    assert read <= set(SPECIES_LAW_COLUMNS), read


def test_wesley_hills_equals_brute_force_and_says_why_nothing_is_replaced(tmp_path):
    # Chapter 95: lot-line trees of 6 in or more need a permit (§95-3A(1)(e)); no replacement-value rule
    f = tmp_path / "wh.csv"
    f.write_text(
        "Tag,Species,DBH (in),Action,Condition,Must remove,Within 20 ft of a lot line\n"
        "W1,Acer rubrum,12,Remove,Good,Yes,No\nW2,Acer rubrum,5,Remove,Good,,No\nW3,Acer rubrum,7,Remove,Good,,Yes\n"
        "W4,Quercus rubra,7,Remove,Good,,Yes\nW5,Acer saccharum,11,Remove,Fair,,No\n"
        "W6,Tilia americana,16,Remove,Good,,Yes\nW7,Betula lenta,6,Remove,Good,,Yes\nW8,Quercus alba,20,Retain,Good,,No\n"
    )
    survey = read_survey(f)
    p = plan(survey, jurisdiction="wesley_hills")
    opt = ["W2", "W3", "W4", "W5", "W6", "W7"]
    assert p.jurisdiction == "wesley_hills" and p.optional == opt and p.assessments < 2 ** len(opt)
    best, cost_of = _brute(survey, opt, jurisdiction="wesley_hills")
    for s in p.frontier:
        assert s.cost_usd == pytest.approx(float(best[s.k]), abs=0.001)
        assert float(cost_of[frozenset(s.remove[1:])]) == pytest.approx(s.cost_usd, abs=0.001)
    # the reason names the chapter's want of a replacement rule, never an empty "()"
    first = p.frontier[0].reasons[0]
    assert "()" not in first and "no replacement-value rule" in first


SPECIES = ["Acer rubrum", "Quercus rubra", "Acer saccharum", "Tilia americana", "Ailanthus altissima", "Betula lenta"]
FAST = "one cheapest candidate for each number of optional removals"  # the note of treecalc.studies.plan_regimes


def _random_lot(path, seed, optional, must):
    """A lot of ``must`` required and ``optional`` proposed removals of mixed species, sizes and conditions, some
    dead ash, street trees and trees on a slope over 20% (a §208-19A(3) trigger of their own), one tree kept."""
    import random

    rnd = random.Random(seed)
    rows = ["Tag,Species,DBH (in),Action,Condition,Must remove,Street tree,Slope over 20%"]
    for i in range(must + optional):
        dead = rnd.random() < 0.15
        sp = "Fraxinus americana" if dead else rnd.choice(SPECIES)
        cond = "Dead" if dead else rnd.choice(["Good", "Fair", "Poor", "Excellent"])
        street, slope = rnd.choice(["", "", "Yes"]), rnd.choice(["", "", "Yes"])
        rows.append(f"R{i},{sp},{rnd.randint(4, 30)},Remove,{cond},{'Yes' if i < must else ''},{street},{slope}")
    rows.append("K1,Quercus alba,18,Retain,Good,,,")
    path.write_text("\n".join(rows) + "\n")
    return read_survey(path)


@pytest.mark.parametrize(
    ("seed", "optional", "must", "prior", "plantable"),
    [(1, 6, 0, 0, None), (2, 5, 1, 0, 2), (3, 6, 2, 1, None), (4, 5, 0, 2, 1), (5, 6, 1, 0, None)],
)
def test_random_lots_equal_brute_force(tmp_path, seed, optional, must, prior, plantable):
    # the cheapest cost of every k against every subset of the optional trees, each assessed in full; the
    # regimes' method answers (not the search it falls back to) and the set it names costs what it says
    survey = _random_lot(tmp_path / f"lot{seed}.csv", seed, optional, must)
    site = {**SITE, "prior_removals_12mo": prior}
    options = {"site": site} if plantable is None else {"site": site, "plantable": plantable}
    p = plan(survey, **options)
    assert any(FAST in n for n in p.notes), p.notes
    assert p.assessments <= optional + 2  # one candidate per k, two at the first k a count trigger holds
    opt = [f"R{i}" for i in range(must, must + optional)]
    assert p.optional == opt
    best, cost_of = _brute(survey, opt, **options)
    assert [s.k for s in p.frontier] == list(range(optional + 1))
    for s in p.frontier:
        assert s.cost_usd == pytest.approx(float(best[s.k]), abs=0.001), s.k
        assert float(cost_of[frozenset(s.remove[must:])]) == pytest.approx(s.cost_usd, abs=0.001)


def _lot_of(path, rows):
    path.write_text("Tag,Species,DBH (in),Action,Condition,Must remove,Slope over 20%\n" + "\n".join(rows) + "\n")
    return read_survey(path)


@pytest.mark.slow
def test_sixteen_optional_removals_in_three_classes_equal_the_search_over_classes(tmp_path, monkeypatch):
    # 16 optional removals in three classes the law reads alike but for size: 10 red maples of 5-14 in (values
    # rising with DBH: a chain), 3 red maples on a slope over 20% (§208-19A(3): a permit each, whatever the count)
    # and 3 dead ash (§208-22B: never counted). The search over the sets closed under dominance takes
    # 11 x 4 x 4 = 176 assessments; the regimes' method at most 18. Both exact: equal costs. (The same lot with
    # 34 maples, 40 optional and 560 assessments, is `python benchmarks/plan.py --classes`: 130 s of a loaded
    # machine's CPU for the same check at a larger size.)
    from treecalc.studies import plan_regimes
    from treecalc.studies.plan import MAX_ASSESSMENTS_CEILING

    rows = ["M1,Quercus rubra,20,Remove,Good,Yes,"]
    rows += [f"A{i},Acer rubrum,{d},Remove,Good,," for i, d in enumerate(range(5, 15))]
    rows += [f"S{i},Acer rubrum,{6 + 5 * i},Remove,Good,,Yes" for i in range(3)]
    rows += [f"D{i},Fraxinus americana,{10 + 4 * i},Remove,Dead,," for i in range(3)]
    survey = _lot_of(tmp_path / "sixteen.csv", rows)
    fast = plan(survey, site=SITE)
    assert len(fast.optional) == 16 and any(FAST in n for n in fast.notes) and fast.assessments <= 18
    monkeypatch.setattr(plan_regimes, "search", lambda *a, **k: None)
    slow = plan(survey, site=SITE, max_assessments=MAX_ASSESSMENTS_CEILING)
    assert slow.assessments == 176
    assert [s.cost_usd for s in fast.frontier] == [s.cost_usd for s in slow.frontier]
    # k = 0..2: with M1, 1 + k removals, not more than three (§208-19A(1)): the plain maples need no permit and
    # cost nothing; k = 3 makes four, a permit for all and 90% replacement (§208-22A): the dead ash go first
    assert [s.cost_usd for s in fast.frontier[:3]] == [0.0, 0.0, 0.0]
    assert not any(t.startswith(("S", "D")) for s in fast.frontier[:3] for t in s.remove)
    assert fast.frontier[3].remove == ["M1", "D0", "D1", "D2"] and fast.frontier[3].permit_required


def test_a_hundred_optional_removals_are_answered_and_no_random_set_is_cheaper(tmp_path):
    # 100 optional removals (the search over classes refused past 255: one set per k at least, and 2^k sets
    # closed under dominance here); 96 of mixed species and 4 on a slope over 20% with a trigger of their own
    import random

    rnd = random.Random(100)
    rows = [
        f"T{i},{rnd.choice(SPECIES[:4])},{rnd.randint(4, 30)},Remove,{rnd.choice(['Good', 'Fair'])},,"
        for i in range(96)
    ]
    rows += [f"S{i},Acer rubrum,{8 + i},Remove,Good,,Yes" for i in range(4)]
    survey = _lot_of(tmp_path / "hundred.csv", rows)
    seen = []
    p = plan(survey, site=SITE, progress=lambda done, of: seen.append((done, of)))
    assert len(p.optional) == 100 and [s.k for s in p.frontier] == list(range(101))
    assert any(FAST in n for n in p.notes) and p.assessments <= 102
    assert seen and seen[-1] == (100, 100)  # told after each k (the last, every removal, assessed first)
    # k = 0..3 removals, not more than three (§208-19A(1)): no permit for trees without a trigger of their own,
    # $0.00, and none of the four slope trees among them
    assert [s.cost_usd for s in p.frontier[:4]] == [0.0] * 4
    assert not any(t.startswith("S") for s in p.frontier[:4] for t in s.remove)
    # k = 50: no set of 50 drawn at random costs less than the plan's (each assessed in full)
    trees = survey.trees.reset_index(drop=True)
    tags = trees["tag"].astype(str).tolist()
    for _ in range(8):
        pick = set(rnd.sample(tags, 50))
        s = copy.copy(survey)
        s.trees = trees.assign(action=["remove" if t in pick else "retain" for t in tags])
        assert float(sum(costs(treecalc.assess(s, site=SITE)))) >= p.frontier[50].cost_usd - 0.001


def test_forty_optional_removals_under_wesley_hills_are_answered(tmp_path):
    # Chapter 95 charges no replacement and fines only what was done: with every proposed removal made the lot
    # owes nothing, so no set owes anything. 40 optional trees of mixed species and sizes (6-25 in), 20 of them
    # within 20 ft of a lot line (a permit each, §95-3A(1)(e), 6 in or more). The search over classes refused
    # it (more than 256 sets closed under dominance); now one candidate per k, each assessed: all $0.00
    import random

    rnd = random.Random(95)
    rows = ["Tag,Species,DBH (in),Action,Condition,Within 20 ft of a lot line"]
    rows += [
        f"W{i},{rnd.choice(SPECIES[:4])},{rnd.randint(6, 25)},Remove,{rnd.choice(['Good', 'Fair'])},"
        f"{'Yes' if i % 2 else 'No'}"
        for i in range(40)
    ]
    f = tmp_path / "wh40.csv"
    f.write_text("\n".join(rows) + "\n")
    p = plan(read_survey(f), jurisdiction="wesley_hills")
    assert p.jurisdiction == "wesley_hills" and len(p.optional) == 40 and p.assessments == 41
    assert any(FAST in n for n in p.notes)
    assert [s.cost_usd for s in p.frontier] == [0.0] * 41
    assert p.frontier[40].permit_required  # every tree within 20 ft of a lot line among them
