"""§208-19: when a tree removal permit is required, its exceptions (§208-19B) and clear cutting (§208-17)."""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from treecalc.frames import actions, dbh_doubt, dbh_range, flag, flag_given, unclear, unclear_words
from treecalc.frames import actions_read as _acts
from treecalc.frames import isin as _isin
from treecalc.frames import labels as _labels
from treecalc.law.access import meets
from treecalc.results import Permit
from treecalc.rules.croton_on_hudson.cite import cited, provision, subsection
from treecalc.rules.croton_on_hudson.readings import note_street_approval
from treecalc.schema import REMOVALS

#: Each permit trigger's words, by the trigger: its section is its entry's or its record's (:func:`trigger`).
TRIGGERS = {
    "more_than": "more than {n} trees removed on the lot within {months:g} months ({count}, including {prior} earlier)",
    "parcel": "{dbh:g} in DBH or more on a parcel that {why}",
    "slope": "{dbh:g} in DBH or more on a slope over {slope:g}%",
    "wetland": "{dbh:g} in DBH or more in a wetland, watercourse or their buffer ({wetland_defined})",
    "threatened": "threatened or endangered species (NYS DEC), any size",
    "threatened_if": "a DEC protected native plant whose threatened or endangered status is not given: a permit, "
    "any size, if it is threatened or endangered",
    "landmark": "landmark tree, any size",
    "buffer": "{dbh:g} in DBH or more in a regulated buffer zone",
    "clear_cutting": "clear cutting: {count} trees removed without a permit{prior} ({clear_cutting_defined}, {n} or "
    "more)",
    "clear_cutting_determined": "clear cutting determined by the Village Engineer ({clear_cutting_defined})",
}

#: The trigger whose section is an entry's (a number of the law), by the entry; the others are records.
_TRIGGER_ENTRY = {
    "more_than": "permit.more_than_trees_12mo",
    "parcel": "permit.parcel_min_dbh_in",
    "slope": "permit.slope_min_dbh_in",
    "wetland": "permit.wetland_min_dbh_in",
    "buffer": "permit.buffer_min_dbh_in",
}
_TRIGGER_RECORD = {
    "threatened": "threatened_endangered",
    "threatened_if": "threatened_endangered",
    "landmark": "landmark",
    "clear_cutting": "clear_cutting",
    "clear_cutting_determined": "clear_cutting",
}


def trigger(name: str) -> str:
    """The section of the permit trigger ``name`` (a key of :data:`TRIGGERS`)."""
    return cited(_TRIGGER_ENTRY[name]) if name in _TRIGGER_ENTRY else provision(_TRIGGER_RECORD[name])


def trigger_words(name: str, **fill: Any) -> str:
    """The trigger's words filled, the sections they name (wetland, clear cutting) from the law file."""
    return TRIGGERS[name].format(
        wetland_defined=provision("wetland_defined"),
        clear_cutting_defined=cited("permit.clear_cutting_min_trees"),
        **fill,
    )


def trigger_text() -> dict[str, str]:
    """The triggers' words by section, their other blanks left to fill ("§208-19A(5) if" and "§208-19A(8)
    determined" name the conditional and the determined ones), as the studies read them."""
    suffix = {"threatened_if": " if", "clear_cutting_determined": " determined"}
    named = {
        "{wetland_defined}": provision("wetland_defined"),
        "{clear_cutting_defined}": cited("permit.clear_cutting_min_trees"),
    }
    out = {}
    for k, v in TRIGGERS.items():
        for blank, section in named.items():
            v = v.replace(blank, section)
        out[trigger(k) + suffix.get(k, "")] = v
    return out


def __getattr__(name: str) -> Any:
    """``TRIGGER_TEXT``, the triggers' words by section, read from the law file when asked for (not at import)."""
    if name == "TRIGGER_TEXT":
        return trigger_text()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _meets(key: str, x: Any, value: Any) -> Any:
    """``x <operator> value`` as Chapter 208 states the comparison ``key`` (its operator is data)."""
    return meets("croton_on_hudson", key, x, value)


#: The exceptions by the site fact that gives each; each one's section is its record of the law file's [sections].
EXCEPTIONS = {
    "village_work": "work done by or on behalf of the Village: no permit required",
    "row_or_emergency": (
        "right-of-way maintenance, fire control or emergency removal by the appropriate agency: no permit required"
    ),
    "planning_board_approval": (
        "removal in conjunction with an approved subdivision plat, site "
        "plan, wetlands or steep slope permit: no separate permit required"
    ),
}


@dataclass
class PermitResult:
    trigger_text: np.ndarray  # per tree, "; "-joined sections (removals only)
    permit_needed: np.ndarray  # per tree (removals only)
    site_triggers: list[dict[str, Any]]  # {section, text, tags}
    exceptions_applied: list[dict[str, str]]
    removals_12mo: int
    clear_cutting: bool
    notes: list[str] = field(default_factory=list)
    done_removals_12mo: int = 0
    clear_cutting_determined: bool = False  # by the Village Engineer (given), not counted here
    needed_on_given_facts: np.ndarray | None = None  # a trigger that rests on facts given, not assumed
    assumed_facts: list[str] = field(default_factory=list)  # the facts a trigger rests on, assumed
    actions: np.ndarray | None = None  # per tree, the action as normalised once (see _acts)
    depends_on: np.ndarray | None = None  # per tree needing a permit on assumed facts only: the facts, in words
    village: np.ndarray | None = None  # per tree, work done by or on behalf of the Village (no permit needed)
    # the counts of (1) and (8) without the removals whose permit or village_work cell is neither yes nor no
    # ("maybe"): what the definite findings may rest on (None: as counted)
    done_removals_12mo_given: int | None = None
    clear_cutting_given: bool | None = None
    # clear cutting were the lot's earlier removals whose permit is not given made without one (the conditional
    # figures'; None: as clear_cutting)
    clear_cutting_if_assumed: bool | None = None
    actions_of: Any = field(default=None, repr=False, compare=False)  # weakref to the frame they were read from
    site_not_given: frozenset[str] = frozenset()  # the site facts not given (resolve_site filled them in)

    @property
    def required(self) -> bool:
        return bool(self.permit_needed.any())

    @property
    def clear_cutting_conditional(self) -> bool:
        """Clear cutting as the conditional figures read it (:attr:`clear_cutting_if_assumed`, else as found)."""
        return self.clear_cutting if self.clear_cutting_if_assumed is None else self.clear_cutting_if_assumed

    @property
    def triggers(self) -> list[list[str]]:
        return [t.split("; ") if t else [] for t in self.trigger_text]


def permit(
    trees: pd.DataFrame,
    site: dict[str, Any],
    law: dict[str, Any],
    *,
    clear_cutting: bool | None = None,
    assumed: frozenset[str] | set[str] = frozenset(),
    not_surveyed: frozenset[str] | set[str] = frozenset(),
) -> PermitResult:
    """§ 208-19A triggers per removal (proposed or done) and for the site; § 208-19B/E exceptions.

    ``assumed``: the site facts not given (:func:`resolve_site` filled them in); ``not_surveyed``: the flags the
    survey has no column for. A tree needs a permit "on given facts" when a trigger holds that rests on no assumed
    fact. The Village's own work (§ 208-19B(1)) needs none, and is no part of the lot's counts ((1), (8)).
    """
    p = law["permit"]
    act = actions(trees)
    village = village_work(trees, site)
    removal_any = _isin(act, REMOVALS)
    removal = removal_any & ~village  # the removals the lot's counts are made of
    n = len(trees)
    # a multi-stem tree's two DBH figures (√Σd², and at the stems' precision): the higher for the preview
    d_lo, d = dbh_range(trees)
    tags = trees["tag"].to_numpy(object) if "tag" in trees else np.arange(n)
    pairs: list[tuple[str, np.ndarray]] = []
    given = np.zeros(n, dtype=bool)
    site_triggers: list[dict[str, Any]] = []
    assumed_used: list[str] = []
    assumed_pairs: list[tuple[str, np.ndarray]] = []  # (the assumed facts in words, the trees resting on them)
    doubts = np.full(n, "", dtype=object)  # per tree, the unclear flag cells ("maybe") a trigger rests on

    def add(
        section: str,
        mask: np.ndarray,
        what: str,
        on_given: bool = True,
        facts: str = "",
        cols: tuple[str, ...] = (),
        size: np.ndarray | None = None,
    ) -> None:
        """``size``: per tree, the DBH bound met at one of a multi-stem tree's two figures only, in words."""
        nonlocal given, doubts
        mask = mask & removal_any
        if not mask.any():
            return
        pairs.append((section, mask))
        if size is not None and on_given:  # the trigger holds if the higher figure is the DBH: not on facts given
            w = np.where(mask, size, "")
            doubts = np.where(w == "", doubts, np.where(doubts == "", w, doubts + "; " + w)).astype(object)
            mask = mask & (w == "")
        if on_given and cols:  # a flag cell neither yes nor no ("maybe"): the trigger holds if it is yes
            sure = mask & flag_given(trees, *cols)
            given = given | sure
            for c in cols:
                w = unclear_words(trees, mask & ~sure, c)
                doubts = np.where(w == "", doubts, np.where(doubts == "", w, doubts + "; " + w)).astype(object)
        elif on_given:
            given = given | mask
        else:
            assumed_pairs.append((facts, mask))
        site_triggers.append({"section": section, "text": what, "tags": tags[mask].astype(str).tolist()})

    # (1) more than three trees in the preceding twelve months: this survey's removals plus the lot's earlier ones.
    # A tree already removed is judged on the removals already done, a proposed one on all; one removed under its
    # own permit is not "without first obtaining a tree removal permit": no fact says it was the fourth
    lot = _Lot(trees, site, p, act, removal, "prior_removals_without_permit" in site.keys() - assumed)
    count, done_count, done_given, vague, one = _count_trigger(lot, village)
    if one is not None:
        add(trigger("more_than"), *one)
    # (2) 8 in or more on a parcel capable of subdivision / without a residence / needing site plan approval
    reasons = _parcel_reasons(site)
    if reasons:
        on_given = any(k not in assumed for _, k in reasons)
        assumed_used = [] if on_given else [k for _, k in reasons]
        b, parcel = p["parcel_min_dbh_in"], trigger("parcel")
        met = _meets("permit.parcel_min_dbh_in", d, b)
        add(
            parcel,
            met,
            trigger_words("parcel", dbh=b, why=", ".join(w for w, _ in reasons))
            + ("" if on_given else " (assumed: " + ", ".join(assumed_used) + " not given)"),
            on_given,
            ", ".join(assumed_used) + f" ({parcel} parcel facts, not given)",
            size=dbh_doubt(trees, _meets("permit.parcel_min_dbh_in", d_lo, b), met, f"{b:g} in or more ({parcel})"),
        )
    # (3) to (7): the trees' own flags
    for section, mask, what, on_flag_given, facts, cols, size in _flag_triggers(trees, p, (d_lo, d), not_surveyed):
        add(section, mask, what, on_flag_given, facts, cols, size)
    # (8) clear cutting, and the exceptions
    exceptions, clear_cutting, determined, cc, cc_given, cc_if_assumed = _clear_cutting_facts(lot, vague, clear_cutting)
    for k, (mask, what) in enumerate(cc):
        sure_cc = cc_given or not (clear_cutting and k == 0)  # the first pair: the clear cutting done
        add(trigger("clear_cutting"), mask, what, sure_cc, VAGUE_COUNT.format(section=trigger("clear_cutting")))

    text = _labels(pairs, n)
    needed = removal & (text != "")  # never the Village's work
    if exceptions:
        needed = np.zeros(n, dtype=bool)
    depends = _labels(assumed_pairs, n)
    depends = np.where(doubts == "", depends, np.where(depends == "", doubts, depends + "; " + doubts))
    return PermitResult(
        text,
        needed,
        site_triggers,
        exceptions,
        count,
        bool(clear_cutting),
        done_removals_12mo=done_count,
        clear_cutting_determined=bool(determined),
        done_removals_12mo_given=done_given,
        clear_cutting_given=cc_given,
        clear_cutting_if_assumed=cc_if_assumed,
        needed_on_given_facts=needed & given,
        assumed_facts=assumed_used,
        actions=act,
        actions_of=weakref.ref(trees),
        depends_on=np.where(needed & ~given, depends, "").astype(object),
        village=village,
        site_not_given=frozenset(assumed),
    )


class _Lot(NamedTuple):
    """What § 208-19A(1) and (8) count on: the survey, the site facts, the permit law, each tree's action and
    the removals the lot's counts are made of (never the Village's work)."""

    trees: pd.DataFrame
    site: dict[str, Any]
    p: dict[str, Any]
    act: np.ndarray
    removal: np.ndarray
    #: prior_removals_without_permit given (0 included), not assumed: the lot's other earlier removals had a
    #: permit, and no figure, definite or conditional, rests on them
    np_given: bool = False


def _count_trigger(
    lot: _Lot, village: np.ndarray
) -> tuple[int, int, int, np.ndarray, tuple[np.ndarray, str, bool, str] | None]:
    """§ 208-19A(1): the lot's count, the count of removals done, that count on clear cells, the removals whose
    permit or village_work cell is unclear, and the trigger (trees, words, on given facts, facts) if it holds."""
    trees, site, p, act, removal, np_given = lot
    n = len(trees)
    prior = int(site.get("prior_removals_12mo", 0))
    # the lot's earlier removals made without a permit: only those count for a removal already made (the prohibition's
    # "without first obtaining a tree removal permit"); which of prior_removals_12mo had one is given by
    # prior_removals_without_permit alone (within the window: at most prior_removals_12mo of them), so the rest
    # count for the conditional figures only, never for a definite offence; that fact given, the rest had a permit
    # and count for no removal already made
    prior_np = min(prior, _prior_without_permit(site))
    prior_done = prior_np if np_given else prior
    count = int(removal.sum()) + prior
    done_count = int(((act == "removed") & ~village & ~_tree_yes(trees, "permit")).sum()) + prior_done
    # a removal whose permit or village_work cell is neither yes nor no ("maybe") is counted for the preview; a
    # count that needs it to reach the number rests on that cell: the trigger holds if it is no
    vague = removal & ((unclear(trees, "permit") != "") | (unclear(trees, "village_work") != ""))
    count_given = count - int(vague.sum())
    done_given = done_count - int((vague & (act == "removed")).sum()) - (prior_done - prior_np)
    limit = p["more_than_trees_12mo"]
    if not _meets("permit.more_than_trees_12mo", count, limit):
        return count, done_count, done_given, vague, None
    done_over = _meets("permit.more_than_trees_12mo", done_count, limit)
    on = ((act != "removed") if not done_over else np.ones(n, dtype=bool)) & ~village
    sure = _meets("permit.more_than_trees_12mo", count_given, limit) and (
        _meets("permit.more_than_trees_12mo", done_given, limit) or not done_over
    )
    what = trigger_words("more_than", n=limit, months=p["window_months"], count=count, prior=prior)
    facts = [VAGUE_COUNT.format(section=trigger("more_than"))] if vague.any() else []
    if (
        prior_done > prior_np
        and done_over
        and not _meets("permit.more_than_trees_12mo", done_count - prior_done + prior_np, limit)
    ):
        facts.append(
            PRIOR_WITHOUT_PERMIT.format(
                prior=prior, months=p["window_months"], prohibition=provision("more_than_three_prohibited")
            )
        )
    return (
        count,
        done_count,
        done_given,
        vague,
        (on, what, sure, "; ".join(facts) or VAGUE_COUNT.format(section=trigger("more_than"))),
    )


def _flag_triggers(
    trees: pd.DataFrame,
    p: dict[str, Any],
    dbhs: tuple[np.ndarray, np.ndarray],
    not_surveyed: frozenset[str] | set[str],
) -> list[tuple[str, np.ndarray, str, bool, str, tuple[str, ...], np.ndarray | None]]:
    """§ 208-19A(3) to (7), the triggers the trees' own flags hold: (section, trees, words, on given facts, the
    facts it rests on otherwise, the flag columns whose unclear cells ("maybe") it rests on, the DBH bound met at
    one of a multi-stem tree's figures only (``dbhs``: the lower and the higher, :func:`dbh_range`))."""
    d_lo, d = dbhs
    te = flag(trees, "threatened_endangered")
    # (5) threatened or endangered species, any size. A DEC protected native plant (a civil tier) is a tier, no
    # trigger: its threatened or endangered status not given, a trigger rests on that status (conditional)
    te_unknown = flag(trees, "protected_native") & ~te & not_given(trees, "threatened_endangered", not_surveyed)

    def sized(
        name: str, key: str, cols: tuple[str, ...], **words: Any
    ) -> tuple[str, np.ndarray, str, bool, str, tuple[str, ...], np.ndarray | None]:
        """A trigger of a size (``key``, inches DBH) and a flag: (3), (4) and (7) read alike."""
        section = trigger(name)
        met = _meets(f"permit.{key}", d, p[key])
        size = dbh_doubt(trees, _meets(f"permit.{key}", d_lo, p[key]), met, f"{p[key]:g} in or more ({section})")
        return (
            section,
            met & flag(trees, *cols),
            trigger_words(name, dbh=p[key], **words),
            True,
            "",
            cols,
            size,
        )

    return [
        # (3) 4 in or more on slopes over 20%
        sized("slope", "slope_min_dbh_in", ("slope_over_20pct", "excessively_steep_slope"), slope=p["slope_percent"]),
        # (4) 4 in or more within a wetland, watercourse or wetland/watercourse buffer
        sized("wetland", "wetland_min_dbh_in", ("wetland",)),
        # a cell neither yes nor no ("maybe") is taken as yes here: the offence resting on it is conditional
        (trigger("threatened"), te, TRIGGERS["threatened"], True, "", ("threatened_endangered",), None),
        (trigger("threatened_if"), te_unknown, TRIGGERS["threatened_if"], False, te_not_given(), (), None),
        # (6) landmark trees, regardless of size
        (trigger("landmark"), flag(trees, "landmark"), TRIGGERS["landmark"], True, "", ("landmark",), None),
        # (7) 4 in or more, trunk wholly or partly in a regulated buffer zone
        sized("buffer", "buffer_min_dbh_in", ("regulated_buffer_zone",)),
    ]


def _clear_cutting_facts(
    lot: _Lot, vague: np.ndarray, clear_cutting: bool | None
) -> tuple[list[dict[str, str]], bool, bool, list[tuple[np.ndarray, str]], bool, bool]:
    """§ 208-19A(8): the § 208-19B/E exceptions, clear cutting found, determined by the Engineer, its (trees,
    words) pairs, whether it is found on the removals whose permit or village_work cell is clear, and whether it
    would be if the lot's earlier removals whose permit is not given had none."""
    trees, site, p, act, removal, np_given = lot
    exceptions = _exceptions(site)
    # under a site-wide exception the removals need no permit: no clear cutting unless the Engineer determined it
    cc: list[tuple[np.ndarray, str]] = []
    if exceptions and clear_cutting is not True:
        found, determined = False, False
    else:
        found, determined, cc = _clear_cutting(lot, clear_cutting)
    done_np = (act == "removed") & removal & ~_tree_yes(trees, "permit")  # removals done without a permit
    done_cc = int((done_np & ~vague).sum())
    cc_given = bool(found) and (
        bool(determined)
        or (
            done_cc > 0
            and _meets(
                "permit.clear_cutting_min_trees",
                done_cc + _prior_without_permit(site),
                p["clear_cutting_min_trees"],
            )
        )
    )
    # the clear cutting the conditional figures carry: the lot's earlier removals in the window (their permit not
    # given) taken as made without one, as the conditional more-than-three offences take them; their permits given,
    # as given
    prior_all = _prior_without_permit(site)
    if not np_given:
        prior_all = max(prior_all, int(site.get("prior_removals_12mo", 0)))
    done_all = int(done_np.sum())
    if_assumed = bool(found) or (
        not exceptions
        and clear_cutting is None
        and done_all > 0
        and not site.get("permit_held", False)
        and _meets("permit.clear_cutting_min_trees", done_all + prior_all, p["clear_cutting_min_trees"])
    )
    return exceptions, bool(found), bool(determined), cc, cc_given, if_assumed


def _prior_without_permit(site: dict[str, Any]) -> int:
    """The site fact prior_removals_without_permit as resolved (its assumed value filled in when not given)."""
    v = site.get("prior_removals_without_permit")
    return 0 if v is None else int(v)


def _exceptions(site: dict[str, Any]) -> list[dict[str, str]]:
    """The § 208-19B/E exceptions that apply.

    "The removal of four or more trees from a property without ... a current and valid tree removal permit"
    (§ 208-17): under a site-wide exception the removals need no permit, so they are no clear cutting unless the
    Village Engineer has determined it (:func:`permit`).
    """
    return [{"section": provision(k), "text": EXCEPTIONS[k]} for k in EXCEPTIONS if site.get(k)]


#: What a removal already made rests on when only the lot's earlier removals, their permits not given, bring the
#: count over the more-than-three trigger's number ({prohibition}: the prohibition of more than three removals).
PRIOR_WITHOUT_PERMIT = (
    "the lot's {prior} earlier removal(s) in the preceding {months:g} months were made without a permit "
    "({prohibition}: give ‹prior_removals_without_permit=N›)"
)

VAGUE_COUNT = (
    "permit or village_work is no where the survey's cell is neither yes nor no ({section}: the removals counted)"
)


def te_not_given() -> str:
    """What a trigger on a protected native plant whose threatened or endangered status is not given rests on."""
    return (
        f"threatened_endangered ({trigger('threatened')}: the protected native plant's threatened or endangered "
        "status, not given)"
    )


def _parcel_reasons(site: dict[str, Any]) -> list[tuple[str, str]]:
    """§208-19A(2): why the parcel needs a permit for trees of 8 in or more (words, the site fact), if it does."""
    return [
        (w, k)
        for w, k, on in (
            ("can be subdivided", "subdividable", site.get("subdividable")),
            ("has no residential structure", "has_residence", not site.get("has_residence", False)),
            ("would need site plan approval", "site_plan_required", site.get("site_plan_required")),
        )
        if on
    ]


def village_work(trees: pd.DataFrame, site: dict[str, Any]) -> np.ndarray:
    """Per tree, work done by or on behalf of the Village (§208-19B(1)): the site fact, or the tree's own
    ``village_work`` cell (a blank cell is not given: not Village work)."""
    return bool(site.get("village_work", False)) | _tree_yes(trees, "village_work")


def not_given(trees: pd.DataFrame, col: str, not_surveyed: frozenset[str] | set[str] = frozenset()) -> np.ndarray:
    """Per tree, the flag ``col`` not given: the survey has no column for it, or the tree's cell is blank (NA)."""
    if col in not_surveyed or col not in trees:
        return np.ones(len(trees), dtype=bool)
    return trees[col].isna().to_numpy(bool)


def _clear_cutting(lot: _Lot, clear_cutting: bool | None) -> tuple[bool, bool, list[tuple[np.ndarray, str]]]:
    """§208-19A(8)/§208-17: (clear cutting found, determined by the Engineer, the (trees, trigger text) pairs).

    Clear cutting that took place names the trees removed without a permit; the trees proposed for removal
    are named apart, as removals that would be (more) clear cutting without a permit.
    """
    trees, site, p, act, removal, _ = lot
    # removed without a permit of their own (``removal`` leaves out the Village's work); a tree
    # under its own permit is no part of clear cutting, done or proposed ("without the benefit of ... a permit")
    removal = removal & ~_tree_yes(trees, "permit")
    done_mask = (act == "removed") & removal
    done_removed = int(done_mask.sum())
    prior_np = _prior_without_permit(site)
    determined = clear_cutting is True  # the Village Engineer's determination, applied as given
    if clear_cutting is None:
        clear_cutting = bool(
            done_removed > 0
            and _meets("permit.clear_cutting_min_trees", done_removed + prior_np, p["clear_cutting_min_trees"])
            and not site.get("permit_held", False)
        )
    proposed_cc = _meets("permit.clear_cutting_min_trees", int(removal.sum()) + prior_np, p["clear_cutting_min_trees"])
    if not (clear_cutting or proposed_cc):
        return bool(clear_cutting), determined, []
    prior_txt = f", including {prior_np} earlier" if prior_np else ""
    if determined:  # the Engineer's determination is of the property: every removal
        return True, True, [(removal, trigger_words("clear_cutting_determined"))]
    out = []
    if clear_cutting:
        what = trigger_words(
            "clear_cutting", count=done_removed + prior_np, prior=prior_txt, n=p["clear_cutting_min_trees"]
        )
        out.append((done_mask, what))
    proposing = (act == "remove") & removal
    proposed, total, n = int(proposing.sum()), int(removal.sum()) + prior_np, p["clear_cutting_min_trees"]
    if proposed:  # the proposed trees named: with the removals already made, the count they would bring
        whole = f"{total} in all{prior_txt}, " if total != proposed else ""
        count = f"the {proposed} proposed trees" if whole else f"{proposed} trees"
        would = f"removing {count} ({whole}{n} or more) without a permit would be clear cutting ({cited('permit.clear_cutting_min_trees')})"
        out.append((proposing, would))
    return bool(clear_cutting), determined, out


def _tree_yes(trees: pd.DataFrame, col: str) -> np.ndarray:
    """A per-tree yes/no column (``permit``, ``department_approval``): True only where it says yes."""
    if col not in trees:
        return np.zeros(len(trees), dtype=bool)
    s = trees[col]
    if pd.api.types.is_bool_dtype(s.dtype):
        return s.astype("boolean").fillna(False).to_numpy(bool)
    txt = s.astype(object).where(s.notna(), "").astype(str).str.strip().str.lower()
    return txt.isin(["1", "true", "yes", "y", "t", "x", "1.0"]).to_numpy(bool)


def _permit_findings(trees: pd.DataFrame, pr: PermitResult) -> Permit:
    notes = []
    street_prop = _street_proposed(trees, pr)
    if street_prop.any():
        notes.append(note_street_approval() + f" ({int(street_prop.sum())} street tree(s) proposed)")
    te_open = int((pr.permit_needed & (pr.depends_on == te_not_given())).sum()) if pr.depends_on is not None else 0
    if te_open:
        notes.append(
            f"{trigger('threatened')} applied to {te_open} DEC protected native plant(s) whose threatened or endangered status "
            "is not given: the permit preview keeps the reading that needs a permit; penalties on it are conditional"
        )
    vague = (
        int(
            (
                pr.permit_needed & pd.Series(pr.depends_on, dtype=object).str.contains("the survey says").to_numpy(bool)
            ).sum()
        )
        if pr.depends_on is not None and len(pr.depends_on)
        else 0
    )
    if vague:
        notes.append(
            f"{subsection(trigger('more_than'))} applied to {vague} tree(s) on a flag cell neither yes nor no (named in its warnings): the permit "
            "preview keeps the reading that needs a permit; offences and penalties resting on it are conditional"
        )
    if pr.assumed_facts and pr.required:
        notes.append(
            f"{trigger('parcel')} applied on parcel facts not given (" + ", ".join(pr.assumed_facts) + "): the "
            "permit preview keeps the reading that needs a permit; penalties on it are conditional"
        )
    return Permit(
        required=pr.required,
        triggers=pr.site_triggers,
        exceptions_applied=pr.exceptions_applied,
        trees_needing_permit=int(pr.permit_needed.sum()),
        approving_authority="Village Engineer, or the Planning Board where a site plan, subdivision, "
        f"wetlands or steep slopes application is pending ({provision('approving_authority')})",
        removals_12mo=pr.removals_12mo,
        clear_cutting=pr.clear_cutting,
        notes=notes,
    )


def _street_proposed(trees: pd.DataFrame, result: Any) -> np.ndarray:
    """Street trees proposed for removal by someone other than the Village (§208-5D binds only them)."""
    village = getattr(result, "village", None)
    mine = ~village if village is not None else np.ones(len(trees), dtype=bool)
    return flag(trees, "street_tree") & (_acts(trees, result) == "remove") & mine
