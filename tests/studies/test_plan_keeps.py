"""What a plan keeps and what keeping a tree can do (treecalc.studies.plan: ``Step.keep``, :func:`keep_limits`), on a
developer's survey with a tree that must go and an invasive one (tests/helpers/app_surveys.keeps_8)."""

from __future__ import annotations

import dataclasses
import io

from tests.helpers.app_surveys import keeps_8
from treecalc.ingest import read_survey
from treecalc.studies.plan import keep_limits, plan


def _survey():
    return read_survey(io.BytesIO(keeps_8()), filename="Lot 9 Birch Ln.xlsx")


def test_each_step_of_the_plan_names_the_trees_it_keeps():
    p = plan(_survey())
    assert p.must_remove == ["K-1"] and p.optional == ["K-2", "K-3", "K-4"]
    steps = {s.k: s for s in p.frontier}
    assert sorted(steps) == [0, 1, 2, 3]
    # the kept trees are the optional ones the step does not remove; the removed and the kept make the survey's
    # four proposed removals. k = 1 removes the Norway maple (invasive: its value counts for nothing, §208-22E)
    # and keeps the two oaks: 2 trees under the permit, under §208-22A's 3, so no replacement ($0.00)
    assert steps[1].remove == ["K-1", "K-4"] and steps[1].keep == ["K-2", "K-3"] and steps[1].cost_usd == 0.0
    for s in p.frontier:
        assert sorted(s.remove + s.keep) == ["K-1", "K-2", "K-3", "K-4"]
    assert steps[0].keep == ["K-2", "K-3", "K-4"] and steps[3].keep == []
    assert "keep" in p.to_json()["frontier"][0]


def test_a_must_remove_tree_is_refused_and_an_invasive_tree_whose_keeping_changes_nothing_says_why():
    limits = keep_limits(_survey())
    assert list(limits.refused) == ["K-1"] and "Must remove" in limits.refused["K-1"]
    # every proposed removal made: 4 trees under the permit (K-1 to K-4; >= §208-22A's 3), the red oaks' value
    # counted; kept, K-4 leaves 3 under the permit, still >= 3, and its value was never counted (invasive,
    # §208-22E): the same permit and the same cost
    assert list(limits.no_change) == ["K-4"]
    assert "invasive" in limits.no_change["K-4"] and "§208-22E" in limits.no_change["K-4"]
    assert "changes nothing" in limits.no_change["K-4"]


def test_keeping_the_invasive_tree_changes_the_permit_once_an_oak_is_kept():
    sv = _survey()
    trees = sv.trees.copy()
    trees.loc[trees["tag"] == "K-2", "action"] = "retain"
    limits = keep_limits(dataclasses.replace(sv, trees=trees))
    # K-2 kept: K-1, K-3 and K-4 are under the permit (3, §208-22A replaces); K-4 kept too leaves 2 (< 3): the
    # replacement goes, so keeping K-4 now changes the cost and is offered
    assert limits.no_change == {} and list(limits.refused) == ["K-1"]
