"""The plan against brute force on many small random lots of both villages: every k's cheapest cost equal to the
least cost over every subset of the optional trees (each assessed in full), and the set it names costing what it
says with the permit it says, whichever method answered (one candidate per k, or the search over classes). The lots mix what the regimes must tell apart: trees harmed already (removed, topped, damaged:
offences, §208-22F and penalties), required removals, earlier removals in the window, a site taking few trees,
dead ash, invasives, street trees and slope triggers (Croton-on-Hudson), lot-line trees (Wesley Hills)."""

import copy
import itertools
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import treecalc
from treecalc.ingest import read_survey
from treecalc.studies.plan import costs, plan

SPECIES = ["Acer rubrum", "Quercus rubra", "Acer saccharum", "Tilia americana", "Ailanthus altissima", "Betula lenta"]
HARMS = ["Removed", "Topped", "Damaged"]
#: The note of the regimes' methods (treecalc.studies.plan_regimes): one candidate per k
FAST = ("one cheapest candidate for each number of optional removals",)


def _croton(rnd: random.Random, optional: int, must: int, harmed: int) -> str:
    rows = ["Tag,Species,DBH (in),Action,Condition,Must remove,Street tree,Slope over 20%"]
    acts = ["Remove"] * must + [rnd.choice(HARMS) for _ in range(harmed)] + ["Remove"] * optional + ["Retain"]
    for i, act in enumerate(acts):
        dead = rnd.random() < 0.15
        sp = "Fraxinus americana" if dead else rnd.choice(SPECIES)
        cond = "Dead" if dead else rnd.choice(["Good", "Fair", "Poor", "Excellent"])
        street, slope = rnd.choice(["", "", "Yes"]), rnd.choice(["", "", "Yes"])
        rows.append(f"R{i},{sp},{rnd.randint(4, 30)},{act},{cond},{'Yes' if i < must else ''},{street},{slope}")
    return "\n".join(rows) + "\n"


def _wesley(rnd: random.Random, optional: int, must: int, harmed: int) -> str:
    rows = ["Tag,Species,DBH (in),Action,Condition,Must remove,Within 20 ft of a lot line"]
    acts = ["Remove"] * must + [rnd.choice(HARMS) for _ in range(harmed)] + ["Remove"] * optional + ["Retain"]
    for i, act in enumerate(acts):
        lot_line = rnd.choice(["Yes", "No"])
        rows.append(
            f"R{i},{rnd.choice(SPECIES[:4])},{rnd.randint(3, 24)},{act},{rnd.choice(['Good', 'Fair'])},"
            f"{'Yes' if i < must else ''},{lot_line}"
        )
    return "\n".join(rows) + "\n"


def _subsets_cost(survey, optional, **options):
    """Every subset of the optional trees assessed in full: its cost and whether it needs a permit."""
    trees = survey.trees.reset_index(drop=True)
    tags = trees["tag"].astype(str).to_numpy()
    base = trees["action"].to_numpy(object).copy()
    base[np.isin(tags, optional)] = "retain"
    out = {}
    for k in range(len(optional) + 1):
        for subset in itertools.combinations(optional, k):
            action = base.copy()
            action[np.isin(tags, subset)] = "remove"
            s = copy.copy(survey)
            s.trees = trees.assign(action=action)
            a = treecalc.assess(s, **options)
            out[frozenset(subset)] = (sum(costs(a)), bool(a.permit.required))
    return out


def _check(tmp_path, village, seed, optional, must, harmed, prior, plantable):
    rnd = random.Random(seed)
    f = tmp_path / f"{village}{seed}.csv"
    f.write_text((_croton if village == "croton" else _wesley)(rnd, optional, must, harmed))
    survey = read_survey(f)
    site = {"subdividable": False, "has_residence": True, "site_plan_required": False, "prior_removals_12mo": prior}
    options: dict = {"site": site} if village == "croton" else {"jurisdiction": "wesley_hills"}
    if plantable is not None and village == "croton":
        options["plantable"] = plantable
    p = plan(survey, **options)
    opt = [f"R{i}" for i in range(must + harmed, must + harmed + optional)]
    assert p.optional == opt
    every = _subsets_cost(survey, opt, **options)
    assert len(every) == 2**optional  # every subset was assessed
    assert [s.k for s in p.frontier] == list(range(optional + 1))
    for s in p.frontier:
        chosen = frozenset(s.remove[must:])
        assert len(chosen) == s.k
        least = min(c for subset, (c, _) in every.items() if len(subset) == s.k)
        assert s.cost_usd == pytest.approx(float(least), abs=0.001), (s.k, sorted(chosen))
        cost, permit = every[chosen]  # the set it names costs what it says, with the permit it says
        assert float(cost) == pytest.approx(s.cost_usd, abs=0.001) and permit == s.permit_required
    return p


@pytest.mark.parametrize("village", ["croton", "wesley_hills"])
@given(
    seed=st.integers(0, 10**6),
    optional=st.integers(2, 4),
    must=st.integers(0, 2),
    harmed=st.integers(0, 2),
    prior=st.integers(0, 3),
    plantable=st.sampled_from([None, 0, 1, 3]),
)
@settings(max_examples=5, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_random_lots_equal_brute_force(tmp_path, village, seed, optional, must, harmed, prior, plantable):
    _check(tmp_path, village, seed, optional, must, harmed, prior, plantable)


@pytest.mark.slow
@pytest.mark.parametrize("village", ["croton", "wesley_hills"])
@given(
    seed=st.integers(0, 10**6),
    optional=st.integers(1, 6),
    must=st.integers(0, 2),
    harmed=st.integers(0, 3),
    prior=st.integers(0, 4),
    plantable=st.sampled_from([None, 0, 1, 2, 5]),
)
@settings(max_examples=10, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_many_random_lots_equal_brute_force(tmp_path, village, seed, optional, must, harmed, prior, plantable):
    _check(tmp_path, village, seed, optional, must, harmed, prior, plantable)


def _harm_done_lot(tmp_path, village):
    """The 13-tree lot of seed 12 with R1 removed and R2 topped already: R0 required, 10 optional removals."""
    rnd = random.Random(12)
    f = tmp_path / f"harmed_{village}.csv"
    text = (_croton if village == "croton" else _wesley)(rnd, 12, 1, 0).splitlines()
    text[2] = text[2].replace(",Remove,", ",Removed,")
    text[3] = text[3].replace(",Remove,", ",Topped,")
    f.write_text("\n".join(text) + "\n")
    return read_survey(f)


def test_a_croton_lot_with_harm_done_is_answered_one_candidate_per_k(tmp_path, monkeypatch):
    # a tree removed and one topped already (offences, §208-22F, penalties) with 10 optional removals in 6 classes
    # the law reads alike: the search over classes would take 384 assessments, past the 256 it runs, and refused
    # the lot; one candidate per k takes 12 (every removal, then k = 0..9, one k taking two)
    from treecalc.studies import plan_regimes

    survey = _harm_done_lot(tmp_path, "croton")
    site = {"prior_removals_12mo": 0}
    p = plan(survey, site=site)
    assert len(p.optional) == 10 and p.assessments == 12
    assert any(FAST[0] in n for n in p.notes), p.notes
    assert [s.k for s in p.frontier] == list(range(11)) and all(s.penalty_usd > 0 for s in p.frontier)
    monkeypatch.setattr(plan_regimes, "search", lambda *a, **k: None)
    with pytest.raises(ValueError, match="would take 384 assessments; the plan runs at most 256"):
        plan(survey, site=site)


def test_a_wesley_hills_lot_with_harm_done_is_answered_one_candidate_per_k(tmp_path, monkeypatch):
    # under Chapter 95 the lot owes the same with every proposed removal made as with none: one candidate per k,
    # 11 assessments (every removal, then k = 0..9), where the search over classes took more, to the same costs
    from treecalc.studies import plan_regimes

    survey = _harm_done_lot(tmp_path, "wesley_hills")
    p = plan(survey, jurisdiction="wesley_hills")
    assert len(p.optional) == 10 and p.assessments == 11
    assert any(FAST[0] in n for n in p.notes), p.notes
    monkeypatch.setattr(plan_regimes, "search", lambda *a, **k: None)
    q = plan(survey, jurisdiction="wesley_hills")
    assert q.assessments > 11 and [s.cost_usd for s in q.frontier] == [s.cost_usd for s in p.frontier]
