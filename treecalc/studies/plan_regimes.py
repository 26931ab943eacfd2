"""The plan's exact method: one candidate set per number of optional removals, polynomial in the trees.

:func:`treecalc.studies.plan.plan` asks :func:`search` first; it answers when the cost of the proposed removals is
the replacement of the trees counted under the permit (Croton-on-Hudson §208-22A) and the payment in lieu for what
the site cannot take (§208-22D, §208-24), on top of what the trees harmed already owe: every tree is retained,
proposed for removal or harmed already (removed, topped, pruned, damaged), no tree is the Village's own work and no
tree's own permit is given. A harm done is no choice of the plan: its offence, its §208-22F part and its penalty
turn on what was done and on the lot's count of removals, never on which proposed trees go. A lot owing the same
with every proposed removal made as with none (Wesley Hills Chapter 95: no replacement, fines only for what was
done) owes it with any set between: each *k* takes the trees needing no permit first. Otherwise it declines
(``None``) and the plan falls back to its search over the sets closed under dominance.

Why not a MILP. Once the number *k* fixes the regime (below), the cost of a set rises with two sums only, the value
to replace and the number of trees under the permit, and one set of each size has the least of both at once: a
sort finds it, exactly, in O(*n* log *n*). A MILP (binaries for the §208-19A(1) count, §208-22A's three-tree
minimum, whole nursery trees, the site's room) would reach the same set by a second model of the law; here each
candidate is the law engine's own assessment, checked against the regime it was chosen under.

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
penalty of nothing where nothing was harmed. A candidate the law reads otherwise makes the method decline, and the
plan searches as before; so the costs reported are always the law's own assessments. *n* optional removals take *n* + 1 or *n* + 2
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
from treecalc.rules.croton_on_hudson.permit import trigger_text
from treecalc.schema import DONE


def _count_sections() -> frozenset[str]:
    """The permit triggers that hold on the number of trees removed, not on a tree's own facts: the rules' trigger
    texts that state a ``{count}`` (§208-19A(1), §208-19A(8)), by their sections in the law read when asked (a
    renumbered section is the law file's, and importing the studies reads no law)."""
    return frozenset(k for k, text in trigger_text().items() if "{count}" in text)


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
    harmed: bool  # a tree harmed already (its offence and penalty are the same whichever proposed trees go)
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
    if not np.isin(act, ("retain", "remove", *DONE)).all():
        return None  # an action the regimes do not know
    # a tree harmed already is no choice of the plan: its offence, its part of the replacement for harm done and its penalty turn on what was done
    # and on the lot's count (the number k), never on which proposed trees go; the count of trees under the permit is
    # of the proposed removals alone unless the Engineer's finding of no violation joins the removals made to it
    # (then the count below differs, and the method declines)
    removal = act == "remove"
    sections = _sections(t["permit_triggers"])
    counting = _count_sections()
    fired = np.array([bool(s & counting) for s in sections])
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
    own = np.array([bool(s - counting) for s in sections]) & removal
    excluded = removal & ~counted
    weight = np.where(counted & removal, cents, 0)
    harmed = bool(np.isin(act, DONE).any())
    return _Model(everything.jurisdiction, must, own, excluded, weight, rep.min_trees, harmed, costs)


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
    counting = _count_sections()
    fired = any(sections[i] & counting for i in np.flatnonzero(removal))
    need = removal & (m.own | count_trigger)
    under = int(need.sum())
    replaces = bool(meets(m.jurisdiction, "replacement.min_trees", under, m.min_trees))
    # a tree harmed already is counted under the replacement for harm done
    proposed = np.isin(actions(t), ("retain", "remove"))
    counted = t["counted"].fillna(False).to_numpy(bool)
    return (
        fired == count_trigger
        and np.array_equal(t["permit_needed"].fillna(False).to_numpy(bool) & removal, need)
        and a.replacement.removals_under_permit == under
        and np.array_equal(counted[proposed], (need & ~m.excluded & replaces)[proposed])
        and (m.harmed or m.costs(a)[2] == 0)
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
    m = _model(trees, must, everything, costs)
    if sum(costs(everything)) == 0 or (m is None and "counted" not in everything.trees):
        # a lot owing the same with every proposed removal made as with none owes it with any set between
        if not _known_actions(trees, everything):
            return None
        runs = _free(run, off, everything, limit, costs, progress)
        if runs is None:
            return None
        return runs, FREE_NOTE if sum(costs(everything)) == 0 else SAME_NOTE
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
            count_trigger = _count_fired(a)
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


def _count_fired(a: Any) -> bool:
    """Whether a count trigger holds for the proposed removals of ``a`` (a tree harmed already may meet one of its
    own, on the removals already made, whatever is proposed)."""
    proposed = actions(a.trees) == "remove"
    counting = _count_sections()
    return any(s & counting for s, p in zip(_sections(a.trees["permit_triggers"]), proposed, strict=True) if p)


def _known_actions(trees: pd.DataFrame, everything: Any) -> bool:
    """Whether every tree of the assessment is the survey's, retained, proposed for removal or harmed already (a
    harm done is no choice of the plan: what it owes is the same whichever proposed trees go)."""
    act = actions(everything.trees)
    return len(everything.trees) == len(trees) and bool(np.isin(act, ("retain", "remove", *DONE)).all())


def _free(
    run: Callable[[list[int]], Any],
    off: np.ndarray,
    everything: Any,
    limit: int,
    costs: Callable[[Any], Any],
    progress: Callable[[int, int], None] | None,
) -> int | None:
    """Every set costing what every proposed removal made costs (nothing, under Wesley Hills Chapter 95 no more than
    the fines of what was done): a removal never lightens the cost, so when no removal costs the same, every set
    between does. For each k the trees needing no permit first (fewer permits to ask for), in survey order; each
    candidate assessed and checked to cost that (None otherwise, at the first that does not: the plan searches)."""
    t = everything.trees
    need = t["permit_needed"].fillna(False).to_numpy(bool) if "permit_needed" in t else np.zeros(len(t), bool)
    order = sorted(off.tolist(), key=lambda i: (bool(need[i]), i))
    n, total = len(off), sum(costs(everything))
    if n > limit:
        return None
    for k in range(n):
        if sum(costs(run(sorted(order[:k])))) != total:
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
SAME_NOTE = (
    "one cheapest candidate for each number of optional removals; with every proposed removal made the lot owes what "
    "it owes with none (for what was done), and a removal never lightens the cost, so every set owes the same: the "
    "trees needing no permit go first (each candidate assessed in full)"
)
FREE_NOTE = (
    "one cheapest candidate for each number of optional removals; with every proposed removal made nothing is to "
    "pay, and a removal never lightens the cost, so no set costs anything: the trees needing no permit go first "
    "(each candidate assessed in full)"
)
