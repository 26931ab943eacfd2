"""Croton-on-Hudson Chapter 208 (Local Law Intro. No. 4 of 2025): permits, replacement scope, penalties.

Pure rules on a table of trees and a dict of site facts; every number comes from
``data/law/croton_on_hudson.toml`` and every finding names its section. Valuation
(what a tree is worth) is not here: see :mod:`treecalc.assessment`.

Tree ``action`` values: ``retain``; ``remove`` (proposed: a permit application);
``removed`` and ``damaged`` (done: harmed already). A tree is *harmed* when its
action is remove, removed or damaged; an *offence* needs a harm already done
(removed/damaged) to a tree whose removal needed a permit (§ 208-19) with no
permit held.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

HARMED = ("remove", "removed", "damaged")
DONE = ("removed", "damaged")
REMOVALS = ("remove", "removed")

#: Site facts this module reads, with the reading assumed when a fact is not given.
#: The default is the *conservative* reading (the one under which the law protects
#: the trees), except where no such reading exists (counts of earlier events).
SITE_DEFAULTS: dict[str, tuple[Any, str]] = {
    "subdividable": (True, "the parcel is assumed capable of being subdivided (§208-19A(2)); "
                           "give --site subdividable=false if it is not"),
    "has_residence": (False, "the parcel is assumed to have no residential structure (§208-19A(2)); "
                             "give --site has_residence=true if it has one"),
    "site_plan_required": (True, "the property is assumed to be one that would need site plan approval to be "
                                 "developed (§208-19A(2)); give --site site_plan_required=false if not"),
    "prior_removals_12mo": (0, "no trees are assumed removed on the lot in the preceding 12 months "
                               "besides this survey's (§208-19A(1))"),
    "prior_removals_without_permit": (0, "none of the lot's earlier removals is assumed made without a permit "
                                         "(§208-17 clear cutting counts removals without a permit); give "
                                         "--site prior_removals_without_permit=N if some were"),
    "violation": (None, "whether there was a violation is decided from the survey: the §208-22F standard "
                        "applies when a tree was removed or damaged without a required permit; give "
                        "--site violation=true/false (or --violation) to decide it"),
    "application_pending": (False, "no tree removal permit application is assumed pending (§208-29B(7))"),
    "prior_violation_within_year": (False, "no earlier violation within one year is assumed (§208-29A)"),
    "permit_held": (False, "no tree removal permit is assumed held for the trees already removed "
                           "or damaged (§208-19, §208-29)"),
    "village_work": (False, "the work is assumed not done by or for the Village (§208-19B(1))"),
    "row_or_emergency": (False, "the removal is assumed not right-of-way maintenance, fire control "
                                "or an emergency (§208-19B(2))"),
    "planning_board_approval": (False, "the removal is assumed not part of an approved subdivision plat, "
                                       "site plan, wetlands or steep slope permit (§208-19E)"),
}

TRIGGER_TEXT = {
    "§208-19A(1)": "more than {n} trees removed on the lot within 12 months ({count}, including {prior} earlier)",
    "§208-19A(2)": "{dbh:g} in DBH or more on a parcel that {why}",
    "§208-19A(3)": "{dbh:g} in DBH or more on a slope over {slope:g}%",
    "§208-19A(4)": "{dbh:g} in DBH or more in a wetland, watercourse or their buffer (§227-3)",
    "§208-19A(5)": "threatened or endangered species (NYS DEC), any size",
    "§208-19A(6)": "landmark tree, any size",
    "§208-19A(7)": "{dbh:g} in DBH or more in a regulated buffer zone",
    "§208-19A(8)": "clear cutting: {count} trees removed without a permit{prior} (§208-17, {n} or more)",
    "§208-19A(8) determined": "clear cutting determined by the Village Engineer (§208-17)",
}

EXCEPTIONS = {
    "village_work": ("§208-19B(1)", "work done by or on behalf of the Village: no permit required"),
    "row_or_emergency": ("§208-19B(2)", "right-of-way maintenance, fire control or emergency removal by "
                                        "the appropriate agency: no permit required"),
    "planning_board_approval": ("§208-19E", "removal in conjunction with an approved subdivision plat, site "
                                            "plan, wetlands or steep slope permit: no separate permit required"),
}

READINGS = [
    "§208-17 REGULATED BUFFER ZONE: the widths per zoning district were lost in the text received; "
    "treecalc reads the survey's regulated_buffer_zone flag as given.",
    "§208-19A(5) threatened or endangered species: read from the survey flag dec_protected "
    "(or threatened_endangered where given).",
    "§208-19B: the exceptions of Intro. 4 of 2025 are Village work (B(1)) and right-of-way, fire and "
    "emergency removals (B(2)), with Planning Board approvals deemed permits (§208-19E); dead, diseased "
    "and hazardous trees are standards for granting a permit (§208-19D(1), (5)), not exceptions.",
    "§208-19A(1) and (8): a tree already removed is judged on the removals already done (with the "
    "lot's earlier ones); a proposed removal on all removals, proposed included. Both count removals "
    "only: a damaged tree that still stands is not one of the 'more than three trees' removed and is no "
    "part of clear cutting ('the removal of four or more trees'), so it needs a permit (and can be an "
    "offence) only through a trigger of its own.",
    "§208-17 CLEAR CUTTING ('removal of four or more trees from a property without ... a current and valid "
    "tree removal permit') has no 12-month window and counts only removals made without a permit: the "
    "survey's removals plus the site fact prior_removals_without_permit (default 0). prior_removals_12mo is "
    "not read for clear cutting, as those removals may have been permitted; it counts for §208-19A(1) and "
    "§208-18A only. Where the Village Engineer has determined clear cutting (--clear-cutting), that "
    "determination is applied as given, to the removals only.",
    "§208-22F: after a violation the 120% standard (or the Engineer's percentage) is applied to every tree "
    "harmed, proposed removals included, as the violator is then seeking a permit.",
    "§208-29A: each tree removed without a required permit is a separate offence; the § 208-18 maximum "
    "($5,000) is applied per tree only to trees whose removal broke § 208-18A (more than three removed in "
    "12 months without a permit) or § 208-18C (clear cutting); a damaged tree that is an offence is "
    "$250 (or $1,000).",
    "§208-29A 'for a second and each subsequent violation within a one-year period': applied per tree from "
    "the site fact prior_violation_within_year — when true, every tree of this survey that is an offence is "
    "taken as a second or later violation, up to $1,000 per tree; otherwise up to $250 per tree, each tree "
    "a separate offence. The § 208-18 maximum ($5,000) replaces either for the trees whose removal broke "
    "§ 208-18A or C.",
    "§208-29B(7) 'more than three (3) regulated trees ... cut down, removed, topped, ... damaged ... without a "
    "permit': counts the trees of this survey that are offences (a regulated tree harmed without a permit); "
    "a damaged tree counts only when it needed a permit through a trigger of its own.",
    "§208-29 offences (the spec, issue 4): a harmed tree is an offence only when its removal needed a permit "
    "under §208-19 and none was held.",
    "Not assessed as separate offences by treecalc, to be assessed by the Village Engineer: the chapter's "
    "other prohibitions — topping or excessive pruning (§208-18D), work on street trees without the "
    "Department's approval (§208-11, §208-14), harm to a tree while an application is pending (§208-20F; "
    "assessed here only as the doubling of §208-29B(7)), and attaching objects that injure a tree (§208-18B).",
    "§208-29B(6) 'trees designated by the New York State Department of Environmental Conservation as a "
    "protected native plant': threatened and endangered species (survey flag threatened_endangered) are "
    "protected native plants under 6 NYCRR 193.3, so tier (6) reads threatened_endangered as well as "
    "dec_protected.",
    "§208-29B(6) 'Designated Buffer Areas' is not defined in Chapter 208: the regulated buffer zone "
    "is not read as one unless data/law/croton_on_hudson.toml says so.",
]


#: Site facts read as yes/no or as a number whatever their default (a default of None means
#: "decided elsewhere": the text of the fact is still parsed, never taken by truthiness).
BOOL_FACTS = frozenset({"violation", "vacant_lot", "subdivision_plans_approved"})
NUMBER_FACTS = frozenset({"lot_area_acres"})


def parse_bool(v: Any) -> bool:
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, float)) and v in (0, 1):
        return bool(v)
    s = str(v).strip().lower()
    if s in ("1", "true", "yes", "y", "t", "on"):
        return True
    if s in ("0", "false", "no", "n", "f", "off", ""):
        return False
    raise ValueError(f"expected true or false, got {v!r}")


def resolve_site(site: dict[str, Any], defaults: dict[str, tuple[Any, str]]) -> tuple[dict[str, Any], list[str]]:
    """Site facts with defaults filled in, and the assumptions made (one string each)."""
    out: dict[str, Any] = {}
    assumptions: list[str] = []
    for key, (default, text) in defaults.items():
        v = site.get(key)
        if v is None or (isinstance(v, float) and np.isnan(v)) or (isinstance(v, str) and not v.strip()):
            out[key] = default
            assumptions.append(text)
        elif isinstance(default, bool) or key in BOOL_FACTS:
            try:
                out[key] = parse_bool(v)
            except ValueError:
                raise ValueError(f"site fact {key}: expected yes/no (true/false), got {v!r}") from None
        elif key in NUMBER_FACTS:
            out[key] = _site_number(key, v)
        elif isinstance(default, int):
            n = _site_number(key, v)
            if n != int(n):
                raise ValueError(f"site fact {key}: expected a whole number >= 0, got {v!r}")
            out[key] = int(n)
        else:
            out[key] = v
    for key, v in site.items():
        if key in out:
            continue
        # facts another jurisdiction reads are still checked, so a bad value is never carried silently
        if key in NUMBER_FACTS and v is not None and not (isinstance(v, str) and not v.strip()):
            v = _site_number(key, v)
        elif key in BOOL_FACTS and v is not None and not (isinstance(v, str) and not v.strip()):
            try:
                v = parse_bool(v)
            except ValueError:
                raise ValueError(f"site fact {key}: expected yes/no (true/false), got {v!r}") from None
        out[key] = v
    return out, assumptions


def _site_number(key: str, v: Any) -> float:
    """A finite number >= 0 (site facts are counts and areas); ValueError naming the fact."""
    if isinstance(v, (bool, np.bool_)):
        raise ValueError(f"site fact {key}: expected a number >= 0, got {v!r}")
    try:
        n = float(str(v).strip().replace(",", "")) if isinstance(v, str) else float(v)
    except (TypeError, ValueError):
        raise ValueError(f"site fact {key}: expected a number >= 0, got {v!r}") from None
    if not np.isfinite(n) or n < 0:
        raise ValueError(f"site fact {key}: expected a finite number >= 0, got {v!r}")
    return n


def flag(trees: pd.DataFrame, *cols: str) -> np.ndarray:
    """Any of the boolean columns true (NA and missing columns read False)."""
    res = np.zeros(len(trees), dtype=bool)
    for c in cols:
        if c in trees:
            res |= trees[c].astype("boolean").fillna(False).to_numpy(bool)
    return res


def dbh(trees: pd.DataFrame) -> np.ndarray:
    return pd.to_numeric(trees["dbh_in"], errors="coerce").fillna(0.0).to_numpy(float)


def actions(trees: pd.DataFrame) -> np.ndarray:
    return trees["action"].fillna("").astype(str).str.strip().str.lower().to_numpy(object)


@dataclass
class PermitResult:
    triggers: list[list[str]]            # per tree, section strings
    permit_needed: np.ndarray            # per tree (harmed trees only)
    site_triggers: list[dict[str, Any]]  # {section, text, tags}
    exceptions_applied: list[dict[str, str]]
    removals_12mo: int
    clear_cutting: bool
    notes: list[str] = field(default_factory=list)
    done_removals_12mo: int = 0
    clear_cutting_determined: bool = False   # by the Village Engineer (given), not counted here

    @property
    def required(self) -> bool:
        return bool(self.permit_needed.any())


def permit(trees: pd.DataFrame, site: dict[str, Any], law: dict[str, Any], *,
           clear_cutting: bool | None = None) -> PermitResult:
    """§ 208-19A triggers per harmed tree and for the site; § 208-19B/E exceptions."""
    p = law["permit"]
    act = actions(trees)
    harmed = np.isin(act, HARMED)
    removal = np.isin(act, REMOVALS)
    d = dbh(trees)
    tags = trees["tag"].astype(str).to_numpy(object) if "tag" in trees else np.arange(len(trees)).astype(str)
    per_tree: list[list[str]] = [[] for _ in range(len(trees))]
    site_triggers: list[dict[str, Any]] = []

    def add(section: str, mask: np.ndarray, text: str) -> None:
        mask = mask & harmed
        if not mask.any():
            return
        for i in np.flatnonzero(mask):
            per_tree[i].append(section)
        site_triggers.append({"section": section, "text": text, "tags": [str(t) for t in tags[mask]]})

    # (1) more than three trees within the preceding twelve months: this survey's removals
    # (proposed and done) plus the lot's earlier ones.
    # A tree already removed or damaged is judged on the removals already done (with the earlier
    # ones); a proposed removal on all of them, proposed included.
    prior = int(site.get("prior_removals_12mo", 0))
    count = int(removal.sum()) + prior
    done_count = int((act == "removed").sum()) + prior
    if count > p["more_than_trees_12mo"]:
        # "more than three trees" removed: removals only; a damaged tree stands and is not one of them
        on = ~np.isin(act, DONE) if done_count <= p["more_than_trees_12mo"] else np.ones(len(act), dtype=bool)
        add("§208-19A(1)", removal & on, TRIGGER_TEXT["§208-19A(1)"].format(
            n=p["more_than_trees_12mo"], count=count, prior=prior))
    # (2) 8 in or more on a parcel capable of subdivision / without a residence / needing site plan approval
    why = [w for w, on in (("can be subdivided", site.get("subdividable")),
                           ("has no residential structure", not site.get("has_residence", False)),
                           ("would need site plan approval", site.get("site_plan_required"))) if on]
    if why:
        add("§208-19A(2)", d >= p["parcel_min_dbh_in"], TRIGGER_TEXT["§208-19A(2)"].format(
            dbh=p["parcel_min_dbh_in"], why=", ".join(why)))
    # (3) 4 in or more on slopes over 20%
    add("§208-19A(3)", (d >= p["slope_min_dbh_in"]) & flag(trees, "slope_over_20pct", "excessively_steep_slope"),
        TRIGGER_TEXT["§208-19A(3)"].format(dbh=p["slope_min_dbh_in"], slope=p["slope_percent"]))
    # (4) 4 in or more within a wetland, watercourse or wetland/watercourse buffer
    add("§208-19A(4)", (d >= p["wetland_min_dbh_in"]) & flag(trees, "wetland"),
        TRIGGER_TEXT["§208-19A(4)"].format(dbh=p["wetland_min_dbh_in"]))
    # (5) threatened or endangered species, regardless of size
    add("§208-19A(5)", flag(trees, "threatened_endangered", "dec_protected"), TRIGGER_TEXT["§208-19A(5)"])
    # (6) landmark trees, regardless of size
    add("§208-19A(6)", flag(trees, "landmark"), TRIGGER_TEXT["§208-19A(6)"])
    # (7) 4 in or more, trunk wholly or partly in a regulated buffer zone
    add("§208-19A(7)", (d >= p["buffer_min_dbh_in"]) & flag(trees, "regulated_buffer_zone"),
        TRIGGER_TEXT["§208-19A(7)"].format(dbh=p["buffer_min_dbh_in"]))
    # (8) clear cutting (§ 208-17): "the removal of four or more trees from a property without ... a
    # current and valid tree removal permit". Removals only (a damaged tree is no part of it); the lot's
    # earlier removals count only when made without a permit (prior_removals_without_permit).
    done_removed = int((act == "removed").sum())
    prior_np = int(site.get("prior_removals_without_permit", 0) or 0)
    determined = clear_cutting is True      # the Village Engineer's determination, applied as given
    if clear_cutting is None:
        clear_cutting = bool(done_removed > 0 and done_removed + prior_np >= p["clear_cutting_min_trees"]
                             and not site.get("permit_held", False))
    proposed_cc = int(removal.sum()) + prior_np >= p["clear_cutting_min_trees"]
    if clear_cutting or proposed_cc:
        # Removing four or more trees is clear cutting unless a permit is held: a permit is needed.
        prior_txt = f", including {prior_np} earlier" if prior_np else ""
        if determined:
            text = TRIGGER_TEXT["§208-19A(8) determined"]
        elif clear_cutting:
            text = TRIGGER_TEXT["§208-19A(8)"].format(count=done_removed + prior_np, prior=prior_txt,
                                                      n=p["clear_cutting_min_trees"])
        else:
            text = (f"removing {int(removal.sum()) + prior_np} trees{prior_txt} "
                    f"({p['clear_cutting_min_trees']} or more) without a permit would be clear cutting (§208-17)")
        add("§208-19A(8)", removal if clear_cutting else removal & ~np.isin(act, DONE), text)

    needed = harmed & np.array([bool(t) for t in per_tree], dtype=bool)
    exceptions = [{"section": EXCEPTIONS[k][0], "text": EXCEPTIONS[k][1]}
                  for k in EXCEPTIONS if site.get(k)]
    if exceptions:
        needed = np.zeros(len(trees), dtype=bool)
    res = PermitResult(per_tree, needed, site_triggers, exceptions, count, bool(clear_cutting))
    res.done_removals_12mo = done_count
    res.clear_cutting_determined = bool(determined)
    return res


@dataclass
class PenaltyResult:
    offence: np.ndarray
    tier: list[str]
    base_usd: np.ndarray        # integer dollars per tree, before doubling
    max_usd: np.ndarray         # after doubling x days
    criminal_usd: np.ndarray    # per tree x days
    criminal_section: list[str]
    doubled: bool
    doubling_reasons: list[str]
    days: int

    @property
    def civil_total(self) -> int:
        return int(self.max_usd.sum())

    @property
    def criminal_total(self) -> int:
        return int(self.criminal_usd.sum())


def penalties(trees: pd.DataFrame, site: dict[str, Any], law: dict[str, Any], pr: PermitResult, *,
              application_pending: bool = False, continuing_days: int = 1) -> PenaltyResult:
    """§ 208-29B civil maxima per tree (highest tier, doubling (7), days) and § 208-29A criminal maxima."""
    if int(continuing_days) != continuing_days or continuing_days < 1:
        raise ValueError(f"continuing_days must be a whole number >= 1, got {continuing_days!r}")
    days = int(continuing_days)
    pen = law["penalty"]
    act = actions(trees)
    d = dbh(trees)
    offence = np.isin(act, DONE) & pr.permit_needed & (not site.get("permit_held", False))
    n = len(trees)
    tier = [""] * n
    base = np.zeros(n, dtype=np.int64)
    # (6) DEC protected native plants: threatened and endangered species are protected native plants
    # (6 NYCRR 193.3), the same flag that makes trigger § 208-19A(5)
    t6_cols = ["conservation_area", "dec_protected", "threatened_endangered"] + (
        ["regulated_buffer_zone"] if pen.get("tier6_includes_regulated_buffer_zone") else [])
    f4 = flag(trees, "street_tree", "wetland", "excessively_steep_slope")
    f5 = flag(trees, "landmark")
    f6 = flag(trees, *t6_cols)
    for i in np.flatnonzero(offence):
        # (1) up to and including 8 in; (2) over 8 through 12 in; (3) over 12 in
        if d[i] <= pen["tier1_max_dbh_in"]:
            cands = [("§208-29B(1)", pen["tier1_usd"])]
        elif d[i] <= pen["tier2_max_dbh_in"]:
            cands = [("§208-29B(2)", pen["tier2_usd"])]
        else:
            cands = [("§208-29B(3)", pen["tier3_usd"])]
        if f4[i]:
            cands.append(("§208-29B(4)", pen["tier4_usd"]))  # street tree / wetland / excessively steep slope
        if f5[i]:
            cands.append(("§208-29B(5)", pen["tier5_usd"]))  # landmark
        if f6[i]:
            cands.append(("§208-29B(6)", pen["tier6_usd"]))  # conservation easement / buffer / DEC protected
        sec, amount = max(cands, key=lambda c: c[1])  # the highest tier that applies
        tier[i], base[i] = sec, int(amount)
    # (7) doubling
    reasons = []
    n_off = int(offence.sum())
    if n_off > pen["doubling_more_than_trees"]:
        reasons.append(f"more than {pen['doubling_more_than_trees']} regulated trees harmed without a permit "
                       f"({n_off}) §208-29B(7)")
    if pr.clear_cutting:
        reasons.append("clear cutting determined by the Village Engineer (§208-17) §208-29B(7)"
                       if pr.clear_cutting_determined else "clear cutting took place (§208-17) §208-29B(7)")
    if application_pending and np.isin(act, DONE).any():
        reasons.append("trees harmed while a permit application was pending (§208-20F) §208-29B(7)")
    doubled = bool(reasons) and n_off > 0
    factor = pen["doubling_factor"] if doubled else 1
    max_usd = base * factor * days
    # § 208-29A criminal maxima
    crim = law["criminal"]
    # § 208-18A (more than three trees removed in 12 months without a permit) or § 208-18C (clear cutting):
    # broken by the trees whose *removal* made them; a damaged tree broke neither.
    broke_any = pr.clear_cutting or pr.done_removals_12mo > law["permit"]["more_than_trees_12mo"]
    broke_18 = offence & (act == "removed") & bool(broke_any)
    per = crim["per_tree_usd"]
    sec = "§208-29A"
    if site.get("prior_violation_within_year"):
        per, sec = crim["repeat_within_year_usd"], "§208-29A (second violation within one year)"
    per18 = max(int(per), int(crim["section_208_18_usd"]))
    sec18 = "§208-29A (violation of §208-18)" if int(crim["section_208_18_usd"]) > int(per) else sec
    criminal = np.where(offence, np.where(broke_18, per18, int(per)) * days, 0).astype(np.int64)
    crim_sec = [(sec18 if b else sec) if o else "" for o, b in zip(offence, broke_18)]
    return PenaltyResult(offence, tier, base, max_usd, criminal, crim_sec, doubled, reasons, days)


def replacement_scope(trees: pd.DataFrame, catalogue: pd.DataFrame, *, violation: bool) -> tuple[np.ndarray, list[str]]:
    """Trees counted toward § 208-22 and the reason each harmed tree is not.

    Without a violation (A) the trees removed under the permit count; after a violation (F)
    every tree cut, removed or damaged. Invasive species and good-forestry removals are not
    counted (E).
    """
    act = actions(trees)
    scope = np.isin(act, HARMED) if violation else np.isin(act, REMOVALS)
    codes = trees["species_code"].astype(str).to_numpy(object)
    part575 = catalogue["part575"].reindex(codes).fillna("none").to_numpy(object)
    invasive = catalogue["invasive"].reindex(codes).fillna(False).to_numpy(bool)
    forestry = flag(trees, "good_forestry")
    exclusion = [""] * len(trees)
    for i in range(len(trees)):
        if not np.isin(act[i], HARMED):
            continue
        if invasive[i]:
            exclusion[i] = f"invasive (6 NYCRR 575 {part575[i]}) §208-22E"
        elif forestry[i]:
            exclusion[i] = "good forestry §208-22E"
        elif not scope[i]:
            exclusion[i] = "damaged, not removed: counted only after a violation §208-22A/F"
    counted = scope & ~invasive & ~forestry
    return counted, exclusion
