"""The plan's exact method for a permit application: one candidate set per number of optional removals.

:func:`treecalc.studies.plan.plan` asks :func:`search` first; it answers when the survey is a permit application under a
law whose cost of proposed removals is the replacement of the trees counted under the permit (Croton-on-Hudson
§208-22A) and the payment in lieu for what the site cannot take (§208-22D, §208-24): every tree is retained or
proposed for removal (nothing harmed already, so no offence, no §208-22F part and no penalty), no tree is the
Village's own work and no tree's own permit is given. A permit application costing nothing with every removal
made (Wesley Hills Chapter 95: no replacement, fines only for what was done) costs nothing in any smaller set:
each *k* takes the trees needing no permit first. Otherwise it declines (``None``) and the plan falls back to its
search over the sets closed under dominance.

Why one candidate per *k* is exact there. The law engine's assessment with every proposed removal made says,
per tree, which permit triggers it meets. Two kinds:

* a tree's **own** triggers (its size on a slope, in a wetland or a buffer, a landmark, a street tree ...),
  which do not depend on which other trees go;
* the **count** triggers (§208-19A(1) more than three in twelve months, §208-19A(8) clear cutting): the
  trigger texts of the rules that carry a ``{count}``. Every removal of the survey counts alike, so whether
  they hold depends on the number *k* only, and once they hold they hold for every larger *k*.

When a count trigger holds, every removal needs a permit, the permit is for all of them, and the value to
replace is the percentage of the summed value of the trees counted (all but the dead and the §208-22E
exclusions): the cheapest *k* are the *k* of least counted value (the excluded weigh nothing). When none holds,
only the trees with an own trigger need a permit: the cheapest set takes the trees needing none first (they cost
nothing and raise no count), then the own-trigger trees of least counted value. In both regimes the set of least
value to replace with the fewest trees under the permit is also the cheapest, because the planting and the
payment in lieu rise with the value to replace (a whole number of nursery trees, the rest paid per tree).

Each candidate is assessed in full by the law engine, and the assessment is checked against the regime it was
chosen under: the trees needing a permit, the count under the permit, the trees counted for replacement and a
penalty of nothing. A candidate the law reads otherwise makes the method decline, and the plan searches as
before; so the costs reported are always the law's own assessments. *n* optional removals take *n* + 1 or *n* + 2
assessments (the count trigger's first *k* may take two), not one per set closed under dominance.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from treecalc.frames import actions
from treecalc.law.access import meets
from treecalc.rules.croton_on_hudson.permit import TRIGGER_TEXT

#: The permit triggers that hold on the number of trees removed, not on a tree's own facts: the rules' trigger
#: texts that state a ``{count}`` (the count triggers: more than N removals in the window, clear cutting).
COUNT_SECTIONS = frozenset(k for k, text in TRIGGER_TEXT.items() if "{count}" in text)

#: Per-tree columns that can take a removal out of the lot's count or out of the permit (the Village's own work, a
#: removal with a permit): with them the count is no longer the number of removals, and the plan searches instead.
_OUT_OF_COUNT = ("village_work", "permit")


@dataclass
class _Model:
    """What the assessment with every proposed removal made says of each tree (positions of the survey)."""

    jurisdiction: str
    must: np.ndarray  # the must-remove trees (always removed)
    own: np.ndarray  # a permit needed by the tree's own triggers
    excluded: np.ndarray  # a removal never counted for replacement (dead, invasive, good forestry)
    weight: np.ndarray  # the tree's value in cents when counted, 0 when excluded
    min_trees: Any  # replacement.min_trees: the fewest trees under a permit that replace
    costs: Callable[[Any], Any]  # an assessment's (planting, in lieu, penalty) (treecalc.studies.plan.costs)


def _sections(triggers: pd.Series) -> list[frozenset[str]]:
    return [frozenset(s.strip() for s in str(t).split(";") if s.strip()) for t in triggers.fillna("")]


def _model(trees: pd.DataFrame, must: np.ndarray, everything: Any, costs: Callable[[Any], Any]) -> _Model | None:
    """The per-tree facts, or None where the method does not hold (the plan then searches)."""
    t = everything.trees
    if not {"permit_needed", "permit_triggers", "counted", "value_usd"} <= set(t.columns):
        return None  # a law without a replacement count (Wesley Hills Chapter 95)
    if any(c in trees.columns for c in _OUT_OF_COUNT) or len(t) != len(trees):
        return None
    act = actions(t)
    if not np.isin(act, ("retain", "remove")).all():
        return None  # a tree harmed already: offences, the violation standard and penalties are the search's
    removal = act == "remove"
    sections = _sections(t["permit_triggers"])
    fired = np.array([bool(s & COUNT_SECTIONS) for s in sections])
    rep = everything.replacement
    # with every removal made a count trigger must hold for all of them, the permit be for all of them and
    # replace: then the trees not counted are the excluded ones
    need = t["permit_needed"].fillna(False).to_numpy(bool)
    if not (fired[removal].all() and need[removal].all()) or rep.removals_under_permit != int(removal.sum()):
        return None
    if not meets(everything.jurisdiction, "replacement.min_trees", int(removal.sum()), rep.min_trees):
        return None
    counted = t["counted"].fillna(False).to_numpy(bool)
    cents = np.rint(pd.to_numeric(t["value_usd"], errors="coerce").fillna(0.0).to_numpy(float) * 100).astype(np.int64)
    own = np.array([bool(s - COUNT_SECTIONS) for s in sections]) & removal
    excluded = removal & ~counted
    return _Model(everything.jurisdiction, must, own, excluded, np.where(counted, cents, 0), rep.min_trees, costs)


def _candidates(m: _Model, off: np.ndarray) -> tuple[Callable[[int], list[int]], Callable[[int], list[int]]]:
    """The cheapest set of ``k`` optional trees when a count trigger holds, and when none does."""
    by_weight = sorted(off.tolist(), key=lambda i: (int(m.weight[i]), i))
    free = [i for i in off.tolist() if not m.own[i]]
    own = [i for i in by_weight if m.own[i]]

    def counted(k: int) -> list[int]:
        return sorted(by_weight[:k])

    def uncounted(k: int) -> list[int]:
        return sorted(free[:k] + own[: max(0, k - len(free))])

    return counted, uncounted


def _holds(m: _Model, a: Any, chosen: list[int], count_trigger: bool) -> bool:
    """Whether the law's assessment ``a`` of ``chosen`` reads it as the regime it was chosen under."""
    t = a.trees
    removal = m.must.copy()
    removal[chosen] = True
    if len(t) != len(removal) or not np.array_equal(actions(t) == "remove", removal):
        return False
    sections = _sections(t["permit_triggers"])
    fired = any(sections[i] & COUNT_SECTIONS for i in np.flatnonzero(removal))
    need = removal & (m.own | count_trigger)
    under = int(need.sum())
    replaces = bool(meets(m.jurisdiction, "replacement.min_trees", under, m.min_trees))
    return (
        fired == count_trigger
        and np.array_equal(t["permit_needed"].fillna(False).to_numpy(bool) & removal, need)
        and a.replacement.removals_under_permit == under
        and np.array_equal(t["counted"].fillna(False).to_numpy(bool), need & ~m.excluded & replaces)
        and m.costs(a)[2] == 0
    )


def search(
    run: Callable[[list[int]], Any],
    trees: pd.DataFrame,
    must: np.ndarray,
    off: np.ndarray,
    everything: Any,
    limit: int,
    costs: Callable[[Any], Any],
    progress: Callable[[int, int], None] | None = None,
) -> tuple[int, str] | None:
    """Assess one cheapest candidate for each number of optional removals (``run`` assesses a set of positions and
    keeps the cheapest of each size; ``everything``, every removal made, is assessed already). Returns the number of
    assessments made and how the sets were chosen, or None where the method does not hold or would pass ``limit`` assessments (the caller then
    searches). ``costs`` is an assessment's (planting, in lieu, penalty) as the plan counts them; ``progress(done, of)`` is told after
    each assessment."""
    if _nothing_to_pay(trees, everything, costs):
        runs = _free(run, trees, off, everything, limit, costs, progress)
        return None if runs is None else (runs, FREE_NOTE)
    m = _model(trees, must, everything, costs)
    if m is None:
        return None
    counted, uncounted = _candidates(m, off)
    n, runs, count_trigger = len(off), 0, False
    for k in range(n):
        if runs + (n - k) > limit:
            return None
        if not count_trigger:
            chosen = uncounted(k)
            a = run(chosen)
            runs += 1
            count_trigger = any(s & COUNT_SECTIONS for s in _sections(a.trees["permit_triggers"]))
            if not _holds(m, a, chosen, count_trigger):
                return None
            if not count_trigger or counted(k) == chosen:
                _tell(progress, k + 1, n)
                continue
        chosen = counted(k)
        if not _holds(m, run(chosen), chosen, True):
            return None
        runs += 1
        _tell(progress, k + 1, n)
    return runs, NOTE


def _nothing_to_pay(trees: pd.DataFrame, everything: Any, costs: Callable[[Any], Any]) -> bool:
    """Whether every proposed removal made costs nothing, with no tree harmed already (Wesley Hills Chapter 95
    charges no replacement, and fines only what was done): a removal never lightens the cost, so every smaller set
    costs nothing too."""
    act = actions(everything.trees)
    harmed = not np.isin(act, ("retain", "remove")).all()
    return len(everything.trees) == len(trees) and not harmed and sum(costs(everything)) == 0


def _free(
    run: Callable[[list[int]], Any],
    trees: pd.DataFrame,
    off: np.ndarray,
    everything: Any,
    limit: int,
    costs: Callable[[Any], Any],
    progress: Callable[[int, int], None] | None,
) -> int | None:
    """Every set costing nothing: for each k the trees needing no permit first (fewer permits to ask for), in
    survey order; each candidate assessed and checked to cost nothing (None otherwise: the plan searches)."""
    t = everything.trees
    need = t["permit_needed"].fillna(False).to_numpy(bool) if "permit_needed" in t else np.zeros(len(t), bool)
    order = sorted(off.tolist(), key=lambda i: (bool(need[i]), i))
    n = len(off)
    if n > limit:
        return None
    for k in range(n):
        if sum(costs(run(sorted(order[:k])))) != 0:
            return None
        _tell(progress, k + 1, n)
    return n


def _tell(progress: Callable[[int, int], None] | None, done: int, of: int) -> None:
    if progress is not None:
        progress(done, of)


#: How the plan chose its candidates, said in its notes after the number of assessments.
NOTE = (
    "one cheapest candidate for each number of optional removals; a count trigger of the permit holds or not by "
    "that number alone, the trees needing no permit go first while none holds, and then the trees of least value "
    "to replace (each candidate assessed in full)"
)
FREE_NOTE = (
    "one cheapest candidate for each number of optional removals; with every proposed removal made nothing is to "
    "pay, and a removal never lightens the cost, so no set costs anything: the trees needing no permit go first "
    "(each candidate assessed in full)"
)
