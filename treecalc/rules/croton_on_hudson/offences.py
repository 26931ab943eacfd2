"""§208-5, -11, -14, -18, -20F through §208-29: which harmed trees are offences."""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from treecalc.frames import actions_read as _acts
from treecalc.frames import flag, flag_given, unclear_words
from treecalc.frames import isin as _isin
from treecalc.frames import labels as _labels
from treecalc.frames import pick as _pick
from treecalc.rules.croton_on_hudson.cite import cited, provision, subsection, tier, whole
from treecalc.rules.croton_on_hudson.permit import PermitResult, _meets, _tree_yes, village_work
from treecalc.rules.croton_on_hudson.readings import not_offence_village
from treecalc.rules.pruning import pruned_short_of_excessive, street_pruning_section
from treecalc.schema import DONE, PRUNING

#: What a street tree's pruning offence rests on when the Department's approval is not given at all.
APPROVAL_NOT_GIVEN = (
    "department_approval is no: the Department's written approval for pruning this street tree is not given "
    "({section}: give ‹department_approval=yes› or a per-tree approval cell if it was)"
)


def _approval_given(trees: pd.DataFrame, site_given: bool) -> np.ndarray:
    """Per tree, whether the Department's approval is said at all: the site fact given (yes or no), or the tree's
    own ``department_approval`` cell not blank."""
    n = len(trees)
    if site_given:
        return np.ones(n, dtype=bool)
    if "department_approval" not in trees:
        return np.zeros(n, dtype=bool)
    s = trees["department_approval"]
    txt = s.astype(object).where(s.notna(), "").astype(str).str.strip()
    return (txt != "").to_numpy(bool)


@dataclass
class OffenceResult:
    """§ 208-29: which harmed trees are offences (a-d of the offence reading, offence_reading_208()) and on what."""

    offence: np.ndarray  # per tree
    definite: np.ndarray  # an offence resting only on facts given
    conditional: np.ndarray  # an offence resting on an assumed fact
    sections: np.ndarray  # per tree, the provisions broken ("; "-joined)
    depends_on: np.ndarray  # per tree, the assumed fact(s) a conditional offence rests on
    breaks_208_18: np.ndarray  # per tree, the prohibition it broke ("" if none)
    not_offence_reason: np.ndarray  # per tree harmed that is no offence: why (e of the offence reading)
    other_than_pending: np.ndarray | None = None  # an offence under (a)-(c), besides any while an application pends
    other_than_pending_given: np.ndarray | None = None  # the same, on facts given only (not a conditional (a))
    actions: np.ndarray | None = None  # per tree, the action as normalised once (see _acts)
    actions_of: Any = field(default=None, repr=False, compare=False)  # weakref to the frame they were read from
    village: np.ndarray | None = None  # per tree, work done by or on behalf of the Village (no permit needed)
    breaks_208_18_if_assumed: np.ndarray | None = None  # per tree, a prohibition's breach if the assumed facts hold


def offences(trees: pd.DataFrame, site: dict[str, Any], law: dict[str, Any], pr: PermitResult) -> OffenceResult:
    """The trees harmed without authorisation that § 208-29A/B reach ("otherwise violates any of the provisions").

    a. removed where § 208-19A required a permit (clear cutting § 208-18C, more than three § 208-18A);
    b. topped or excessively pruned, any size or place (§ 208-18D; street/public trees § 208-11 too);
    c. a street/public tree pruned, removed or otherwise disturbed without the Department's written
       approval (§ 208-5C/D, § 208-14);
    d. any tree harmed while a permit application was pending (§ 208-20F);
    e. any other injury or damage is no offence by itself: listed with the reason, no amount.

    Authorisation: the site fact ``permit_held`` or a per-tree ``permit`` column (a, b, d);
    the Department's written approval (site fact or per-tree ``department_approval``) for c.
    """
    act = _acts(trees, pr)
    n = len(trees)
    done = _isin(act, DONE)
    removed = act == "removed"
    pruned = _isin(act, PRUNING)
    permitted = bool(site.get("permit_held", False)) | _tree_yes(trees, "permit")
    approved = bool(site.get("department_approval", False)) | _tree_yes(trees, "department_approval")
    street = flag(trees, "street_tree")
    pending = bool(site.get("application_pending", False))
    # work done by or on behalf of the Village needs no permit, and the street-tree provisions bind persons "other
    # than the Village ... or its designated agents": none of its trees is an offence
    village = pr.village if pr.village is not None else village_work(trees, site)
    a = removed & pr.permit_needed & ~permitted & ~village
    a_given = a & (pr.needed_on_given_facts if pr.needed_on_given_facts is not None else pr.permit_needed)
    b = pruned & ~permitted & ~village
    # a street tree pruned below the share of excessive pruning ("Pruned 20%", read as retained) is still pruned:
    # the law forbids any pruning of a street or public tree without the Department's written approval
    light = pruned_short_of_excessive(trees, "croton_on_hudson", law)
    c = street & (done | light) & ~approved & ~village
    d = done & ~permitted & ~village if pending else np.zeros(n, dtype=bool)
    offence = a | b | c | d
    # a cell neither yes nor no ("maybe") is no fact given: an offence resting on it (a street tree), or
    # one its authorisation would excuse (the tree's permit, the Department's approval, the Village's work), is
    # conditional, never definite
    doubt = [
        unclear_words(trees, a | b | d, "permit", "no"),
        unclear_words(trees, offence, "village_work", "no"),
        unclear_words(trees, c, "department_approval", "no"),
        unclear_words(trees, c & ~flag_given(trees, "street_tree"), "street_tree"),
    ]
    sure_permit, sure_village, sure_approval = (doubt[0] == ""), (doubt[1] == ""), (doubt[2] == "")
    a_given, b_given = a_given & sure_permit & sure_village, b & sure_permit & sure_village
    # that approval not given (no site fact, no cell of the tree's own): the pruning's offence rests on it, conditional
    # (a removal or injury of a street tree is judged as before: the approval is the owner's to show)
    approval_open = light & c & ~_approval_given(trees, "department_approval" not in pr.site_not_given)
    doubt.append(
        np.where(approval_open, APPROVAL_NOT_GIVEN.format(section=street_pruning_section("croton_on_hudson")), "")
    )
    c_given = c & sure_village & sure_approval & (doubt[3] == "") & ~approval_open
    d_given = d & sure_permit & sure_village
    definite = a_given | b_given | c_given | d_given
    # the law forbids removing a *healthy* street tree; a dead one is removed in breach of the street removal alone
    dead = trees["dead"].fillna(False).to_numpy(bool) if "dead" in trees else np.zeros(n, dtype=bool)
    conditional = offence & ~definite
    more_than = _meets("permit.more_than_trees_12mo", pr.done_removals_12mo, law["permit"]["more_than_trees_12mo"])
    cc_all = pr.clear_cutting_conditional
    b18_all = (a & (cc_all or more_than)) | b  # the prohibitions' breaches if the assumed facts hold
    # a definite offence breaks the prohibitions that count removals only on counts that leave out those whose permit or
    # village_work cell is neither yes nor no
    cc_given = pr.clear_cutting if pr.clear_cutting_given is None else pr.clear_cutting_given
    done_given = pr.done_removals_12mo if pr.done_removals_12mo_given is None else pr.done_removals_12mo_given
    more_given = _meets("permit.more_than_trees_12mo", done_given, law["permit"]["more_than_trees_12mo"])
    cc_t, more_t = np.where(definite, cc_given, cc_all), np.where(definite, more_given, more_than)
    cc_p, more_p, top_p = (provision(f"{k}_prohibited") for k in ("clear_cutting", "more_than_three", "topping"))
    b18_pairs = [(cc_p, a & cc_t), (more_p, a & more_t), (top_p, b)]
    b18 = _labels(b18_pairs, n)
    street_removal, parcel = provision("street_removal"), cited("permit.parcel_min_dbh_in")
    sec = _labels(
        [(subsection(cited("permit.more_than_trees_12mo")), a)]
        + b18_pairs
        + [
            (provision("street_topping"), b & street),
            (street_pruning_section("croton_on_hudson"), c & ~removed),
            (street_removal, c & removed & dead),
            (f"{street_removal}; {provision('healthy_street_tree')}", c & removed & ~dead),
            (provision("pending_application"), d),
        ],
        n,
    )
    if pr.depends_on is not None:
        depends = np.where(conditional, pr.depends_on, "").astype(object)
    else:
        depends = _pick([conditional], [", ".join(pr.assumed_facts) + f" ({parcel} parcel facts, not given)"])
    for w in doubt:
        w = np.where(conditional, w, "")
        depends = np.where(w == "", depends, np.where(depends == "", w, depends + "; " + w)).astype(object)
    authorised = permitted | (street & approved)
    native_only = flag(trees, "protected_native") & ~flag(trees, "threatened_endangered")
    why = _pick(
        [~done | offence, village, act == "damaged", authorised, removed & native_only, removed],
        [
            "",
            not_offence_village(),
            f"injury or damage is not an offence by itself ({whole(cited('criminal.per_tree_usd'))}): for the "
            "Village Engineer to assess, no amount",
            "authorised: permit held or the Department's written approval given",
            "a DEC protected native plant, not threatened or endangered: no permit trigger "
            f"({provision('threatened_endangered')}); {tier(6)} prices an offence, it makes none",
            f"removal that needed no permit ({subsection(cited('permit.more_than_trees_12mo'))}) and broke no other "
            "provision",
        ],
    )
    return OffenceResult(
        offence,
        definite,
        conditional,
        sec.astype(object),
        depends.astype(object),
        b18.astype(object),
        why.astype(object),
        other_than_pending=a | b | c,
        other_than_pending_given=a_given | b_given | c_given,
        breaks_208_18_if_assumed=b18_all,
        actions=act,
        actions_of=weakref.ref(trees),
        village=village,
    )
