"""The cheapest lawful plan: which of the optional removals to make, and what each choice costs.

The applicant marks the trees that must go (``must_remove``: in the building footprint, hazardous)
and proposes others (action "remove"). :func:`plan` answers, for each number *k* of the optional
removals, the cheapest set of *k* to remove and what it costs the applicant: the replacement
planting (§208-22D), the payment in lieu to the Tree Preservation Fund (§208-24) and any civil
penalty (§208-29B, the maximum of the definite offences), each figure exactly what
:func:`treecalc.assessment.assess` says for that survey, because it *is* that assessment: every
candidate set is assessed in full, with the options given.

Why not a MILP. The cost of a set is not a linear (or separable) function of its trees: the
permit turns on a count threshold (§208-19A(1)), replacement on the number of trees under the
permit (§208-22A), the plan is a whole number of nursery trees carrying a value rounded up to the
cent, the site takes a limited number and the rest is paid per tree. A MILP would model those rules
a second time, and its answer would be the model's, not the law engine's.

A survey whose trees are retained, proposed for removal or harmed already is answered first by
:mod:`treecalc.studies.plan_regimes`: one candidate per number of optional removals, *n* + 1 or *n* + 2 assessments
for *n* trees, each checked against the law's assessment of it, and a lot owing the same with every removal made as
with none (Wesley Hills) likewise (docs/plan.md). Where that does not hold (a tree's own permit or the Village's work
given per tree, a candidate the law reads otherwise) the plan searches as follows, and this search is the oracle the
tests hold the regimes' method to.

The search is exact, and every cost it reports is an assessment. It rests on one property
of the law engine: **removing a smaller or less valuable tree never costs more than removing a
larger or more valuable one that the law otherwise reads alike** (a penalty tier or permit trigger
rises with DBH, §208-29B, §208-19A; replacement with value, §208-22A/F; no rule lightens the burden
of a removal because the tree is bigger or worth more). The optional trees are put in *classes*
the law cannot tell apart except by size: the same flags and facts in every column the rules read,
the same §208-22E species status (invasive, Part 575) and the same dead or living state. Within a
class tree *i* dominates *j* when its value (on the assessment's own basis) and its DBH are both no
greater. If a cheapest set held *j* and not a tree *i* that dominates it, swapping them would keep
its size and cost no more; so some cheapest set of every size is closed downward under dominance
in each class (an *ideal*), and only those are assessed: one assessment per combination of ideals
across the classes. Trees that differ only in their tag form a chain (counts 0 … n), trees whose
value rises with their DBH likewise, so 10-20 optional trees take tens of assessments, not 2**n.
The values come from one assessment of the survey with every proposed removal made (a tree's
value does not depend on which others go). Past :data:`MAX_ASSESSMENTS` the plan is refused with a
message saying so. ``tests/studies/test_plan.py`` checks the frontier against brute force over all subsets.

Side constraints: a budget (``budget_usd``: each step says whether it is within it) and the number
of trees the site can take (``plantable`` / ``plantable_area_sqft``, the assessment's own options:
the trees it cannot take are paid in lieu).
"""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import numpy as np
import pandas as pd

from treecalc.assessment import _load_survey, assess
from treecalc.frames import actions
from treecalc.law import access
from treecalc.law import registry as jurisdictions
from treecalc.law.schema import as_date
from treecalc.money import money
from treecalc.reference import data
from treecalc.studies import plan_regimes

#: The most assessments a plan runs (each a full assessment of the survey: 0.07 s for a lot's
#: handful of trees, 0.1-0.5 s for the 39-tree sample): under a minute.
MAX_ASSESSMENTS = 256

#: The most a caller may raise :data:`MAX_ASSESSMENTS` to: 4,096 assessments are 5-35 minutes at the times
#: above. Past it a plan is no answer a user waits for (2**25 sets would take a month), and the sets closed
#: under dominance are listed before they are counted, so an unbounded limit would first fill the memory.
MAX_ASSESSMENTS_CEILING = 4096

#: Columns that never change what the law finds for a tree (names and bookkeeping; the rules read the
#: flags the survey reader took out of the words, never the free text of ``notes`` or ``species``).
#: A tree's position neither: no rule reads it, and the climate zone it sets is the survey's (every tree, whatever
#: its action), the same for every candidate set.
_NOT_LAW = (
    "tag",
    "source_row",
    "warnings",
    "must_remove",
    "species_score",
    "species_method",
    "notes",
    "species",
    "latitude",
    "longitude",
    "x",
    "y",
)

#: What sets a tree's value and size, compared by dominance within a class, not by equality.
_SIZE = ("species_code", "dbh_in", "condition")

#: The species catalogue's columns the rules read (invasive, 6 NYCRR Part 575: never accepted as replacement stock), part of a class.
SPECIES_LAW_COLUMNS = ("invasive", "part575")


@dataclass
class Step:
    """The cheapest set of ``k`` optional removals (with every must-remove tree) and its cost."""

    k: int
    remove: list[str]
    cost_usd: float
    planting_usd: float
    in_lieu_usd: float
    penalty_usd: float | None  # None: the law's penalties are not held (no amount, not $0)
    within_budget: bool
    permit_required: bool | None  # None: the law's permit section is not held
    removals_12mo: int | None
    reasons: list[str] = field(default_factory=list)
    keep: list[str] = field(default_factory=list)  # the optional removals this step keeps (retains), survey order

    def to_dict(self) -> dict[str, Any]:
        return dict(vars(self))


@dataclass
class Plan:
    """:func:`plan`'s answer: the frontier (one :class:`Step` per ``k``) and what it rests on."""

    jurisdiction: str
    must_remove: list[str]
    optional: list[str]
    frontier: list[Step]
    budget_usd: float | None
    assessments: int
    cost_basis: str
    notes: list[str] = field(default_factory=list)
    zone: str | None = None  # the climate zone whose tables valued the trees
    cheapest: Any = None  # the Assessment of each step, in frontier order (not in the JSON)
    #: the numbers k of optional removals no set of which could be priced: k -> why (which tree, which fact)
    unpriced: dict[int, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "jurisdiction": self.jurisdiction,
            "must_remove": self.must_remove,
            "optional": self.optional,
            "budget_usd": self.budget_usd,
            "assessments": self.assessments,
            "cost_basis": self.cost_basis,
            "frontier": [s.to_dict() for s in self.frontier],
            "zone": self.zone,
            "notes": self.notes,
            "unpriced": {str(k): why for k, why in self.unpriced.items()},
        }


def _money_text(v: Decimal | float) -> str:
    return f"${Decimal(str(v)):,.2f}"


def _cents(v: Any) -> Decimal:
    return Decimal("0.00") if v is None else Decimal(str(v)).quantize(Decimal("0.01"))


def costs(a: Any) -> tuple[Decimal, Decimal, Decimal]:
    """(planting, payment in lieu, penalty) of an assessment, exact cents.

    The penalty is the civil maximum of the definite offences (§208-29B; Chapter 95's fine under
    Wesley Hills): an offence resting on a fact not given is never charged, and a criminal fine is a
    court's, not a cost the applicant can plan.
    """
    rep, fund, pen = a.replacement, a.fund, a.penalties
    planting = _cents(rep.planting_cost_usd) if rep.required else Decimal("0.00")
    in_lieu = _cents(fund.fund_in_lieu_usd)
    penalty = _cents(pen.civil_penalty_max_usd if pen.civil_penalty_max_usd is not None else pen.fine_max_usd)
    return planting, in_lieu, penalty


def _penalty_words(a: Any) -> tuple[str, str, str, str]:
    """What the penalty :func:`costs` counts is, as the assessment's findings name it: its kind, its name, its
    plural and the section of its statement line: ("civil", "civil penalty", "civil penalties", "§208-29B") of a
    civil maximum; ("fine", "fine", "fines", "Ch. 95 penalties A") of a law fining each tree ("Fine, maximum")."""
    civil = a.penalties.civil_penalty_max_usd is not None
    item = "Civil penalty, maximum" if civil else "Fine, maximum"
    section = next((str(ln.get("section") or "") for ln in a.lines or [] if ln.get("item") == item), "")
    return ("civil", "civil penalty", "civil penalties", section) if civil else ("fine", "fine", "fines", section)


def _sections(a: Any) -> Any:
    """The sections of the law applied by part (:attr:`treecalc.law.registry.Jurisdiction.sections`), as the
    assessment recorded its law's sections on its date."""
    return jurisdictions.by_key(a.jurisdiction).parts(a.labels.sections)


def _cost_parts(a: Any) -> tuple[list[tuple[str, str]], str]:
    """The parts of a cost under the law of ``a`` as (what, its section): planting and the payment in lieu where
    the law has them (a section of its record), the penalty maximum of definite offences last; and the penalty's
    kind (:func:`_penalty_words`)."""
    sections = _sections(a)
    kind, name, _, section = _penalty_words(a)
    parts = [
        (what, sections[part])
        for what, part in (("planting", "planting"), ("payment in lieu", "fund"))
        if sections.get(part)
    ]
    return [*parts, (f"the {name} maximum of definite offences", section)], kind


def _key(v: Any) -> str:
    return "<NA>" if (not isinstance(v, (list, dict)) and pd.isna(v)) else str(v)


def _classes(trees: pd.DataFrame, optional: np.ndarray, dead: np.ndarray) -> list[list[int]]:
    """The optional trees in classes the law reads alike but for their size and value (positions, survey order)."""
    cols = [c for c in trees.columns if c not in _NOT_LAW and c not in _SIZE]
    cat = data.catalogue()
    codes = trees["species_code"].astype(object).to_numpy()
    species = {
        c: tuple(_key(v) for v in (cat.loc[c, list(SPECIES_LAW_COLUMNS)] if c in cat.index else [None, None]))
        for c in set(map(str, codes))
    }
    keys: dict[tuple, list[int]] = {}
    for i in np.flatnonzero(optional):
        row = trees.iloc[i]
        key = (*(_key(v) for v in row[cols]), species[str(codes[i])], bool(dead[i]))
        keys.setdefault(key, []).append(int(i))
    return list(keys.values())


def _ideals(members: list[int], value: np.ndarray, dbh: np.ndarray, limit: int) -> list[list[int]]:
    """Every set of a class's trees closed downward under dominance (no tree in it while one that
    dominates it is out), smallest first. Tree i dominates j when value and DBH are both no greater
    (equal ones by survey order). Stops past ``limit`` + 1 sets (the plan is then refused)."""
    order = sorted(members, key=lambda i: (value[i], dbh[i], i))

    def below(i: int, j: int) -> bool:  # i dominates j (i != j)
        return value[i] <= value[j] and dbh[i] <= dbh[j] and (value[i], dbh[i], i) < (value[j], dbh[j], j)

    out: list[list[int]] = []
    # depth-first over the trees in order, each taken in or left out; an explicit stack, not recursion: a class
    # holds as many trees as the survey, and a call per tree overflowed Python's stack at about a thousand
    stack: list[tuple[int, list[int], list[int]]] = [(0, [], [])]
    while stack and len(out) <= limit:
        pos, chosen, excluded = stack.pop()
        if pos == len(order):
            out.append(sorted(chosen))
            continue
        x = order[pos]
        stack.append((pos + 1, chosen, [*excluded, x]))
        # x may go in only if every tree that dominates it is in (all of them come earlier in the order)
        if not any(below(e, x) for e in excluded):
            stack.append((pos + 1, [*chosen, x], excluded))
    return sorted(out, key=lambda s: (len(s), s))


def _split(trees: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(must-remove mask, optional mask, notes): the survey's proposed removals, read as the law reads them."""
    act = actions(trees)
    must = trees["must_remove"].fillna(False).to_numpy(bool) if "must_remove" in trees else np.zeros(len(trees), bool)
    notes: list[str] = []
    odd = must & ~np.isin(act, ("remove", "removed"))
    if odd.any():
        tags = ", ".join(map(str, trees["tag"].to_numpy(object)[odd]))
        notes.append(f"marked must remove but not proposed for removal: {tags}; taken as proposed removals")
    if "must_remove" not in trees:
        notes.append("the survey has no 'Must remove' column: every proposed removal is optional")
    return must & (act != "removed"), (act == "remove") & ~must, notes


def _check_limit(max_assessments: Any) -> None:
    """A limit of assessments is a whole number from 1 to :data:`MAX_ASSESSMENTS_CEILING` (ValueError)."""
    if isinstance(max_assessments, bool) or not isinstance(max_assessments, int) or max_assessments < 1:
        raise ValueError(f"‹max_assessments› must be a whole number >= 1, got {max_assessments!r}")
    if max_assessments > MAX_ASSESSMENTS_CEILING:
        raise ValueError(
            f"‹max_assessments={max_assessments:,}›: the plan runs at most {MAX_ASSESSMENTS_CEILING:,} assessments "
            "(each a full assessment, 0.07-0.5 s); mark more trees 'Must remove' or retain some, and plan the rest"
        )


def _check_count(optional: int, max_assessments: int) -> None:
    """``optional`` removals take at least ``optional`` + 1 assessments (one set of each size, 0 to all of them),
    however the law reads the trees: past the limit the plan is refused at once, before the survey is assessed
    (a thousand optional trees took seconds per assessment and then listed their sets without end)."""
    if optional + 1 <= max_assessments:
        return
    hint = (
        "raise the limit: ‹max_assessments›"
        if optional + 1 <= MAX_ASSESSMENTS_CEILING
        else f"no limit reaches it: the ceiling is {MAX_ASSESSMENTS_CEILING:,}"
    )
    raise ValueError(
        f"{optional:,} optional removals would take at least {optional + 1:,} assessments (one set of each number "
        f"of them, 0 to {optional:,}); the plan runs at most {max_assessments:,}: mark more trees 'Must remove' "
        f"or retain some, and plan the rest (or {hint})"
    )


def _rejected_note(survey: Any) -> list[str]:
    """The rows the reader rejected, said first: one may propose a removal the law counts (§208-19A(1),
    §208-17, §208-22A), and the plan's counts and costs leave it out."""
    rejected = getattr(survey, "rejected", None)
    if not isinstance(rejected, pd.DataFrame) or not len(rejected):
        return []
    n = len(rejected)
    why = "; ".join(str(r) for r in rejected["reason"]) if "reason" in rejected else ""
    return [
        f"{n} row{'s' if n != 1 else ''} the reader rejected {'are' if n != 1 else 'is'} not in this plan, "
        f"nor in its counts and costs: correct them and plan again ({why})"
    ]


def _check_determined(a: Any) -> None:
    """A ValueError when the candidate's cost is not determined: replacement trees required, but neither the trees
    planted on site nor a planting price nor an amount in lieu known (a count-by-class town without ‹plantable›), so
    any sum would print $0.00 for what the law makes owed."""
    rep = a.replacement
    if (
        rep.trees_needed
        and rep.trees_planted is None
        and rep.planting_cost_usd is None
        and a.fund.fund_in_lieu_usd is None
    ):
        raise ValueError(
            f"the cost of a set of removals is not determined without the trees planted on site ({rep.section} "
            "requires replacement trees, planted or paid in lieu): give ‹plantable›"
        )


def _undecided(a: Any) -> str | None:
    """Why the candidate's cost is undecided, or None when it is priced: replacement required but its count of
    trees or its value not given (a tree's fact left open, a DBH between two classes), or trees paid for in lieu at
    an amount the law's text does not set. Any sum would print $0.00 for what the law makes owed, so such a set is
    never priced and never chosen."""
    rep = a.replacement
    if rep.required and rep.trees_needed is None and rep.required_value_usd is None:
        what = "value" if rep.percent is not None else "number of trees"
        why = [
            str(w)
            for w in (rep.warnings or a.warnings or [])
            if "not given" in str(w) or "no replacement count" in str(w)
        ]
        return f"the {what} to replace under {rep.section} is undecided: " + (
            "; ".join(dict.fromkeys(why)) or "a fact it rests on is not given"
        )
    if rep.trees_in_lieu and a.fund.fund_in_lieu_usd is None:
        said = "; ".join(str(n) for n in a.fund.notes) or f"the amount in lieu is not given ({a.fund.section})"
        return f"{rep.trees_in_lieu} replacement trees not planted are paid for in lieu, {said}"
    return None


def _penalty_held(a: Any) -> bool:
    """Whether the law's penalties are held: a town whose penalties are not held has no amount, never $0."""
    pen = a.penalties
    return not (pen.civil_penalty_max_usd is None and pen.fine_max_usd is None and pen.not_held)


def plan(
    survey: Any,
    *,
    budget_usd: Any = None,
    max_assessments: int = MAX_ASSESSMENTS,
    progress: Callable[[int, int], None] | None = None,
    **options: Any,
) -> Plan:
    """The cheapest lawful plan for each number of optional removals (see the module docstring).

    ``survey`` is a read survey or a path; ``options`` are :func:`treecalc.assessment.assess`'s
    keyword options (site facts, stock, plantable, fee schedule ...), applied to every candidate; its reading
    options (``column_map``, ``species_map``) read the file. ``progress(done, of)`` is told after each candidate
    (``of`` the number the method will assess); an exception it raises stops the plan (the app's Cancel).
    """
    _check_limit(max_assessments)
    budget = None if budget_usd is None else money(budget_usd)
    if budget is not None and budget < 0:
        raise ValueError(f"‹budget_usd› must be a sum of money >= 0, got {budget_usd!r}")
    # the reading's options read the file once; the candidates are assessed on the survey read
    survey = _survey_read(survey, options)
    trees = survey.trees.reset_index(drop=True)
    must, optional, notes = _split(trees)
    notes[:0] = _rejected_note(survey)
    _check_count(int(optional.sum()), max_assessments)
    tags = trees["tag"].astype(str).to_numpy(object)
    base_action = trees["action"].to_numpy(object).copy()
    base_action[must] = "remove"  # a must-remove tree not yet removed is proposed
    off = np.flatnonzero(optional)
    best: dict[int, tuple[tuple, list[int], Any]] = {}
    undecided: dict[int, dict[tuple[int, ...], str]] = {}  # k -> the sets of k not priced, and why
    seen: set[tuple[int, ...]] = set()
    made = [0]  # the assessments run, whichever search ran them

    def run(chosen: list[int]) -> Any:
        made[0] += 1
        seen.add(tuple(sorted(chosen)))
        action = base_action.copy()
        action[off] = "retain"
        action[chosen] = "remove"
        candidate = copy.copy(survey)
        candidate.trees = trees.assign(action=action)
        a = assess(candidate, **options)
        _check_determined(a)
        why = _undecided(a)
        if why is not None:  # not priced, so never the cheapest
            undecided.setdefault(len(chosen), {})[tuple(sorted(chosen))] = why
            return a
        planting, in_lieu, penalty = costs(a)
        rank = (planting + in_lieu + penalty, sorted(chosen))
        if len(chosen) not in best or rank < best[len(chosen)][0]:
            best[len(chosen)] = (rank, sorted(chosen), a)
        return a

    # every proposed removal made: the trees' values on the assessment's basis (and which are dead)
    everything = run(list(off))
    # the regimes' method prices by the assessment with every removal made: an undecided one gives it nothing to go by
    fast = None
    if not undecided:
        fast = plan_regimes.search(run, trees, must, off, everything, max_assessments - 1, costs, progress)
    if fast is not None and not undecided:
        how = f"exact search: {fast[0] + 1:,} assessments, {fast[1]}"
    else:
        if not undecided:
            _, how = _class_search(run, trees, optional, off, everything, max_assessments, progress)
        if undecided:
            # a set whose cost is undecided breaks the order by size the searches rest on (a smaller tree may be
            # the undecided one): every set is assessed where the limit allows, else the steps are said to be the
            # cheapest of the sets assessed
            how = _every_set(run, off, seen, made, max_assessments)
    if not best:
        whys = list(dict.fromkeys(w for sets in undecided.values() for w in sets.values()))
        raise ValueError("no set of removals can be priced: " + "; ".join(whys))
    held = _penalty_held(everything)
    steps: list[Step] = []
    chosen_assessments = []
    prev: tuple[list[int], Any] | None = None
    jurisdiction = ""
    unpriced: dict[int, str] = {}
    for k in range(len(off) + 1):
        sets = undecided.get(k, {})
        if k not in best:
            if sets:
                unpriced[k] = _unpriced_words(sets, tags)
            continue
        _, chosen, a = best[k]
        jurisdiction = a.jurisdiction
        planting, in_lieu, penalty = costs(a)
        said = reasons(a, chosen, prev, tags, must, budget)
        if sets:
            said.append(f"Not priced: {_unpriced_words(sets, tags)}.")
        steps.append(_step(k, a, chosen, (planting, in_lieu, penalty), held, budget, said, tags, must, off))
        chosen_assessments.append(a)
        prev = (chosen, a)
    zone = (chosen_assessments[0].options.get("zone") or {}) if chosen_assessments else {}
    if zone:
        # the costs rest on the trees' values, so the zone whose tables gave them is said (as assess says it)
        notes.append(_zone_note(zone, [w for a in chosen_assessments for w in a.warnings]))
    parts, kind = _cost_parts(everything)
    notes.append(_cost_note(parts, held, everything))
    notes.append(how)
    penalty_basis = f"penalty ({kind} maximum, definite offences)" if held else "penalty not held (no amount counted)"
    return Plan(
        jurisdiction=jurisdiction,
        must_remove=[tags[i] for i in np.flatnonzero(must)],
        optional=[tags[i] for i in np.flatnonzero(optional)],
        frontier=steps,
        budget_usd=None if budget is None else float(budget),
        assessments=made[0],
        cost_basis=" + ".join(w for w, _ in parts[:-1]) + f", USD; {penalty_basis}"
        if not held
        else " + ".join([*(w for w, _ in parts[:-1]), penalty_basis]) + ", USD",
        notes=notes,
        zone=zone.get("zone"),
        unpriced=unpriced,
        cheapest=chosen_assessments,
    )


def _every_set(run: Callable[[list[int]], Any], off: np.ndarray, seen: set, made: list[int], most: int) -> str:
    """Assess every set of optional removals not assessed yet, where the limit ``most`` allows (a set whose cost is
    undecided breaks the order by size the searches rest on); what was searched, in words."""
    every = [list(c) for r in range(len(off) + 1) for c in itertools.combinations(off.tolist(), r)]
    left = [c for c in every if tuple(sorted(c)) not in seen]
    if made[0] + len(left) > most:
        return (
            f"{made[0]:,} assessments; some sets' replacement is undecided, so the order by size the search "
            "rests on does not hold: each step is the cheapest of the sets assessed, not shown to be the "
            "cheapest of all"
        )
    for c in left:
        run(c)
    return (
        f"exact search: every one of the {len(every):,} sets of optional removals assessed "
        f"({made[0]:,} assessments), for some sets' replacement is undecided and the order by size "
        "that spares the others does not reach past them"
    )


def _step(
    k: int,
    a: Any,
    chosen: list[int],
    cost: tuple[Any, Any, Any],
    held: bool,
    budget: Any,
    said: list[str],
    tags: np.ndarray,
    must: np.ndarray,
    off: np.ndarray,
) -> Step:
    """The frontier's step of ``k`` optional removals: the set ``chosen``, assessed as ``a``, costing ``cost``
    (planting, in lieu, penalty; the penalty None where the law's penalties are not ``held``)."""
    planting, in_lieu, penalty = cost
    total = planting + in_lieu + penalty
    taken = set(chosen)
    return Step(
        k=k,
        remove=[tags[i] for i in np.flatnonzero(must)] + [tags[i] for i in chosen],
        cost_usd=float(total),
        planting_usd=float(planting),
        in_lieu_usd=float(in_lieu),
        penalty_usd=float(penalty) if held else None,
        within_budget=budget is None or total <= budget,
        permit_required=None if a.permit.required is None else bool(a.permit.required),
        removals_12mo=a.permit.removals_12mo,
        reasons=said,
        keep=[tags[i] for i in off if i not in taken],
    )


def _cost_note(parts: list[tuple[str, str]], held: bool, everything: Any) -> str:
    """What each step's cost sums, with the sections; the penalty left out, and said, where it is not held."""
    summed = parts if held else parts[:-1]
    not_held = "" if held else f"; the penalties are {everything.penalties.not_held}: no amount is counted"
    return (
        "each cost is the assessment of that set of removals: "
        + " + ".join(f"{what} ({sec})" if sec else what for what, sec in summed)
        + "; permit fees are not included"
        + not_held
    )


def _unpriced_words(sets: dict[tuple[int, ...], str], tags: np.ndarray) -> str:
    """The sets of one number of removals not priced, and why (each reason once)."""
    listed = sorted(sets)
    named = "; ".join("{" + ", ".join(str(tags[i]) for i in c) + "}" for c in listed[:5])
    named += f"; and {len(listed) - 5:,} more" if len(listed) > 5 else ""
    whys = "; ".join(dict.fromkeys(sets.values()))
    plural = "s" if len(sets) != 1 else ""
    return f"{len(sets)} set{plural} of removals ({named}) with an undecided cost: {whys}"


def _class_search(
    run: Any,
    trees: pd.DataFrame,
    optional: np.ndarray,
    off: np.ndarray,
    everything: Any,
    max_assessments: int,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[int, str]:
    """Assess every combination of the sets closed under dominance in each class of trees the law reads alike (the
    module docstring); refused past ``max_assessments``. Returns the number of assessments and how it searched;
    ``progress(done, of)`` is told after each combination."""
    value = pd.to_numeric(everything.trees["value_usd"], errors="coerce").fillna(0.0).to_numpy(float)
    dead = _dead(everything.trees, len(trees))
    dbh = pd.to_numeric(trees["dbh_in"], errors="coerce").fillna(0.0).to_numpy(float)
    classes = _classes(trees, optional, dead)
    # a class of n trees has at least n + 1 sets closed under dominance (the 0..n first of any order): a plan
    # past the limit by that count alone is refused before its sets are listed
    least = math.prod(len(c) + 1 for c in classes)
    ideals = [] if least > max_assessments else [_ideals(c, value, dbh, limit=max_assessments) for c in classes]
    runs = math.prod(len(i) for i in ideals) if ideals else least
    if runs > max_assessments:
        # the listing stops one set past the limit: the count is then a lower bound, said as one
        cut = least > max_assessments or any(len(i) > max_assessments for i in ideals)
        raise ValueError(
            f"{int(optional.sum())} optional removals in {len(classes)} classes of trees the law reads alike "
            f"would take {'at least ' if cut else ''}{runs:,} assessments; the plan runs at most "
            f"{max_assessments:,}: mark more trees 'Must remove' or retain some, and plan the rest "
            "(or raise the limit: ‹max_assessments›)"
        )
    for done, combo in enumerate(itertools.product(*ideals), start=1):
        chosen = sorted(i for part in combo for i in part)
        if len(chosen) < len(off):  # the full set was assessed above
            run(chosen)
        if progress is not None:
            progress(done, runs)
    return runs, _search_note(runs, len(classes))


def _dead(assessed: pd.DataFrame, n: int) -> np.ndarray:
    """Which of the assessed trees are dead (none of the ``n``, where the assessment has no ``dead`` column)."""
    if "dead" in assessed:
        return assessed["dead"].fillna(False).to_numpy(bool)
    return np.zeros(n, bool)


def _search_note(runs: int, classes: int) -> str:
    """How the plan's search was made exact with ``runs`` assessments over ``classes`` classes of trees."""
    return (
        f"exact search: {runs:,} assessments instead of one per subset; the optional trees fall into "
        f"{classes} class(es) the law reads alike but for size, and within a class only sets that hold "
        "every smaller, less valuable tree of any they hold are assessed (removing such a tree never costs more)"
    )


def _zone_note(zone: dict[str, Any], warnings: list[str]) -> str:
    """The zone whose tables valued the trees, as the assessment says it: trees in several zones each in its own,
    with the zone the trees to be planted are valued in (the assessment's warning) when it says one."""
    if "zones" not in zone:
        return f"the trees are valued in the {zone['zone_name']} climate zone ({zone['zone']}; {zone['source']})"
    each = ", ".join(f"{z['trees']} in the {z['zone_name']} zone ({z['zone']})" for z in zone["zones"])
    planted = [w for w in warnings if w.startswith("the trees to be planted")]
    return f"each tree is valued in its own climate zone ({zone['source']}): {each}" + "".join(
        f"; {w}" for w in planted[:1]
    )


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _what_changes(chosen: list[int], prev: tuple[list[int], Any] | None, tags: np.ndarray, must: np.ndarray) -> str:
    """'Removing T7 as well', 'Removing T3 instead of T5', 'Removing only the must-remove trees (T1, T2)'."""
    if prev is None:
        fixed = [str(t) for t in tags[must]]
        return f"Removing only the must-remove trees ({', '.join(fixed)})" if fixed else "Removing no tree"
    before, now = set(prev[0]), set(chosen)
    added = [str(tags[i]) for i in sorted(now - before)]
    dropped = [str(tags[i]) for i in sorted(before - now)]
    if not dropped:
        return f"Removing {_and(added)} as well"
    return f"Removing {_and(added)} instead of {_and(dropped)}"


def _removals_left(a: Any, prev: tuple[list[int], Any] | None) -> str:
    """'leaves 2 trees removed or proposed for removal (H1, H2)' of the first step, 'makes 3 ...' of the others:
    the trees of the assessment removed or proposed, for a law that counts no removals in a window."""
    gone = np.isin(actions(a.trees), ("remove", "removed"))
    tags = [str(t) for t in a.trees["tag"].to_numpy(object)[gone]]
    m = len(tags)
    listed = f" ({', '.join(tags)})" if tags else ""
    return f"{'leaves' if prev is None else 'makes'} {m} tree{'s' if m != 1 else ''} removed or proposed for removal{listed}"


def _law_in_force(a: Any) -> dict[str, Any]:
    """The law in force on the assessment's date (``options["on"]``), not the latest held: a plan for an
    application made before an amendment quotes the numbers then in force."""
    return access.law(a.jurisdiction, as_date((getattr(a, "options", None) or {}).get("on")))


def _law_permit(a: Any) -> dict[str, Any]:
    """The permit numbers in force on the assessment's date (:func:`_law_in_force`)."""
    return dict(_law_in_force(a).get("permit") or {})


def _fine_words(a: Any) -> str:
    """What a law fining each tree removed (its ``fine`` table) says the fine is, from its numbers in force on the
    assessment's date: ': a fine of not more than $5,000 or imprisonment not exceeding 15 days, each tree'; ""
    for a law whose table does not hold both."""
    fine = _law_in_force(a).get("fine") or {}
    per, days = fine.get("per_tree_usd"), fine.get("imprisonment_max_days")
    if per is None or days is None:
        return ""
    return f": a fine of not more than ${int(per):,} or imprisonment not exceeding {int(days)} days, each tree"


def reasons(
    a: Any,
    chosen: list[int],
    prev: tuple[list[int], Any] | None,
    tags: np.ndarray,
    must: np.ndarray,
    budget: Decimal | None,
) -> list[str]:
    """The sentences of one step, each filled from the assessment's own findings (their sections and
    figures come from the law data) and citing its section."""
    permit, rep, fund = a.permit, a.replacement, a.fund
    n, law = permit.removals_12mo, _law_permit(a)
    # the window is the count trigger's (permit.window_months), in force on the assessment's date
    months = law.get("window_months")
    within = f" in {months:g} months" if months is not None else ""
    count = f"{n} removal{'s' if n != 1 else ''}{within}" if n is not None else "these removals"
    if permit.required is None:  # the law's permit section is not held: neither yes nor no
        verdict = f"a permit {permit.approving_authority}"
    elif permit.required:
        secs = list(dict.fromkeys(t["section"] for t in permit.triggers))
        verdict = f"a permit under {_and(secs)}" if secs else "a permit"
    else:
        limit = law.get("more_than_trees_12mo")
        from treecalc.law.cites import cite  # the law's modules load when a plan is said (start-up time)

        count_trigger = cite(a.labels.sections, "permit.more_than_trees_12mo")
        verdict = "no permit" + (f" ({count_trigger} needs more than {limit})" if limit is not None else "")
    if rep.required:
        parts = [f"{p.percent:g}% replacement under {p.section}" for p in rep.parts or []]
        if not parts:  # a count-by-class law: its count of trees (or not held, said by its warnings)
            counted = rep.trees_needed
            parts = [
                f"{counted if counted is not None else 'an undecided number of'} replacement trees under {rep.section}"
            ]
        verdict += " and " + _and(parts)
    elif permit.required:
        under, least = rep.removals_under_permit, rep.min_trees
        if under is not None and least is not None and under < least:
            # the removals counted above include trees needing no permit: replacement counts the permit's own trees
            plural = "s" if under != 1 else ""
            why = f"the permit is for {under} tree{plural}; {rep.section} replaces under a permit for {least} or more"
        else:
            # a jurisdiction without a replacement rule (Wesley Hills Chapter 95) says so in its notes
            why = rep.percent_note or rep.section or "; ".join(rep.notes or [])
        verdict += f" and no replacement ({why})" if why else " and no replacement"
    what = _what_changes(chosen, prev, tags, must)
    # a law counting no removals in a window says what the step leaves removed, as its trees' actions say
    out = [f"{what} makes {count}: {verdict}." if n is not None else f"{what} {_removals_left(a, prev)}: {verdict}."]
    planting, in_lieu, penalty = costs(a)
    total = planting + in_lieu + penalty
    if rep.required:
        planted, lieu = rep.trees_planted or 0, rep.trees_in_lieu or 0
        sections = _sections(a)
        sec = sections.get("planting")
        # a law pricing no planting stock (a count-by-class town) leaves the planting's cost out, not at $0
        price = _money_text(planting) if rep.planting_cost_usd is not None else "its cost not counted"
        bits = [f"planting {planted} tree{'s' if planted != 1 else ''} ({price}{f', {sec}' if sec else ''})"]
        if lieu or in_lieu:
            bits.append(
                f"paying {_money_text(in_lieu)} in lieu for {lieu} tree{'s' if lieu != 1 else ''} "
                f"the site cannot take ({fund.section or sections.get('fund', '')})"
            )
        out.append(f"It costs {_and(bits)}.")
    if penalty:
        _, _, many, section = _penalty_words(a)
        cited = f"{section}{_fine_words(a) if many == 'fines' else ''}"
        out.append(
            f"The definite offences carry up to {_money_text(penalty)} in {many}" + (f" ({cited})." if cited else ".")
        )
    if prev is not None:
        pp, pl, pn = costs(prev[1])
        delta = total - (pp + pl + pn)
        change = (
            "no more" if delta == 0 else (f"{_money_text(delta)} more" if delta > 0 else f"{_money_text(-delta)} less")
        )
        out.append(f"In all {_money_text(total)}: {change} than one removal fewer.")
    else:
        out.append(f"In all {_money_text(total)}.")
    if budget is not None and total > budget:
        out.append(f"Over the budget of {_money_text(budget)}.")
    return out


#: The most trees :func:`keep_limits` assesses kept one at a time (each a full assessment): past it the rest are
#: not checked, and said so.
KEEP_CHECKS = 32


@dataclass
class KeepLimits:
    """What keeping each tree proposed for removal can do (:func:`keep_limits`): by tag, why it is not kept."""

    refused: dict[str, str]  # a 'Must remove' tree: no plan keeps it
    no_change: dict[str, str]  # keeping it changes neither the permit nor the cost: why, in the law's words
    notes: list[str] = field(default_factory=list)


def keep_limits(survey: Any, *, max_checks: int = KEEP_CHECKS, **options: Any) -> KeepLimits:
    """Which of the survey's proposed removals a user may keep to any effect, as the law engine reads them.

    A tree marked 'Must remove' is removed in every plan (:func:`plan`): keeping it is refused. A tree the
    replacement does not count (its ``exclusion``: an invasive species or good forestry, §208-22E; a dead tree)
    may still count for the permit (§208-19A(1) counts every removal; §208-22A the trees under the permit), so
    whether keeping it changes anything is asked of the law: the survey is assessed again with that tree retained,
    and when the permit and the cost (:func:`costs`) are the same, keeping it changes nothing, said with the
    exclusion. ``options`` are :func:`treecalc.assessment.assess`'s, as for :func:`plan`.
    """
    survey = _survey_read(survey, options)
    trees = survey.trees.reset_index(drop=True)
    must, optional, _ = _split(trees)
    tags = trees["tag"].astype(str).to_numpy(object)
    refused = {
        str(t): "marked 'Must remove' in the survey: it is removed in every plan, so it cannot be kept"
        for t in tags[must & np.isin(trees["action"].to_numpy(object), ("remove",))]
    }
    if not optional.any():
        return KeepLimits(refused, {})
    base = assess(survey, **options)
    exclusion = base.trees["exclusion"] if "exclusion" in base.trees else pd.Series("", index=base.trees.index)
    why = exclusion.fillna("").astype(str).to_numpy(object)
    candidates = [i for i in np.flatnonzero(optional) if why[i]]
    notes = []
    if len(candidates) > max_checks:
        notes.append(
            f"{len(candidates) - max_checks:,} trees the replacement does not count were not checked for what "
            f"keeping them changes (at most {max_checks:,} assessments)"
        )
    before = (costs(base), bool(base.permit.required))
    no_change: dict[str, str] = {}
    for i in candidates[:max_checks]:
        candidate = copy.copy(survey)
        candidate.trees = trees.assign(action=np.where(np.arange(len(trees)) == i, "retain", trees["action"]))
        kept = assess(candidate, **options)
        if (costs(kept), bool(kept.permit.required)) == before:
            no_change[str(tags[i])] = (
                f"keeping it changes nothing: the replacement does not count it ({why[i]}), and the permit and "
                "the cost are the same without its removal"
            )
    return KeepLimits(refused, no_change, notes)


def _survey_read(survey: Any, options: dict[str, Any]) -> Any:
    """The survey read once with the reading's options (taken out of ``options``: the candidates are assessed on the
    survey read, not the file), in the zone the options or the site facts name."""
    return _load_survey(
        survey,
        species_map=options.pop("species_map", None),
        zone=options.get("zone") or (options.get("site") or {}).get("climate_zone"),
        column_map=options.pop("column_map", None),
    )
