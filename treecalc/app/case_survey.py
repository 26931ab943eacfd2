"""A case's survey reopened in the calculator: the pages show the survey and options its assessment was made with.

The case is read-only from the calculator: nothing done on its pages changes it. The options a case was assessed
with come from its assessment: the app's own options where the case was opened here (kept with the assessment's
JSON as ``app_options``), else those of its JSON that the calculator's controls set. When the options shown are
no longer the case's, every page says so; a signed-in engineer or clerk may record them as a new assessment of
the case (:func:`record_new_assessment`), which the pages then show.
"""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

from treecalc.app import cases, options, projects, state

_VIEW = "tc_case_view"
#: the options of an assessment's JSON that a control of the calculator sets under the same name
_SAME = (
    "replacement_species",
    "replacement_dbh_in",
    "replacement_cost_usd",
    "replacement_percent",
    "replacement_stock",
    "plantable",
    "plantable_area_sqft",
    "violation",
    "application_pending",
    "clear_cutting",
)


def case_options(j: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(read options, options) the calculator takes for the assessment ``j`` of a case."""
    kept = j.get("app_options")
    if isinstance(kept, dict):
        return dict(kept.get("read") or {}), dict(kept.get("opts") or {})
    o = j.get("options") or {}
    opts = {k: o[k] for k in _SAME if o.get(k) not in (None, [], {})}
    if o.get("value_basis") not in (None, "annual"):
        opts["value_basis"] = o["value_basis"]
    if o.get("continuing_days") not in (None, 1):
        opts["continuing_days"] = o["continuing_days"]
    if o.get("fee_per_tree_usd") is not None:  # a fee given by the user: kept, said, never charged by the pages
        opts["fee_schedule"] = {"basis": "per_tree", "fee_per_tree_usd": str(o["fee_per_tree_usd"])}
    return ({"site": dict(o["site"])} if o.get("site") else {}), opts


def reopen(case_id: int) -> None:
    """Make case ``case_id``'s survey and options the calculator's (read-only: see the module)."""
    reg = cases.register()
    c = reg.show(case_id, events=False)
    j = reg.assessment_json(case_id)
    sha = (c["assessment"] or {}).get("survey_sha256")
    if j is None or not sha:
        raise state.AppError(f"Case {case_id} has no assessed survey to open.")
    data = reg.blob(sha)
    if data is None:
        raise state.AppError(f"The survey of case {case_id} is no longer held by the register.")
    name = next((s["name"] for s in c["surveys"] if s["sha256"] == sha), "survey")
    read, opts = case_options(j)
    state.set_source(name, data)
    options.take(read, opts, f"Case {case_id}'s assessment")
    projects._clear_widgets()  # every control drawn again from the case's options
    st.session_state[_VIEW] = {
        "case": case_id,
        "title": c["title"],
        "made_at": c["assessment"]["made_at"],
        "sha256": sha,
        "read": json.loads(json.dumps(state.read_opts(), default=str)),
        "opts": json.loads(json.dumps(state.opts(), default=str)),
    }


def viewing() -> dict[str, Any] | None:
    """The case whose survey the calculator shows, or None (never reopened, or another survey since)."""
    view = st.session_state.get(_VIEW)
    src = state.source()
    if view is None or src is None or src.sha256 != view["sha256"]:
        st.session_state.pop(_VIEW, None)  # another survey uploaded: the case is no longer shown
        return None
    return view


def changed(view: dict[str, Any]) -> bool:
    """True when the options shown are no longer those of the case's assessment."""

    def same(a: Any, b: Any) -> bool:
        return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)

    now = {k: v for k, v in state.opts().items() if v not in (None, {}, [])}
    return not (same(state.read_opts(), view["read"]) and same(now, view["opts"]))


def notice(where: Any) -> None:
    """Above every page (in ``where``, a container drawn before the page and filled after it ran, so that a control
    just changed is counted) while a case's survey is shown: which case, read-only, and whether the options changed."""
    view = viewing()
    if view is None:
        return
    with where:
        _notice(view)


def _notice(view: dict[str, Any]) -> None:
    head = f"Case {view['case']}: {view['title']}, its survey and options as assessed on {view['made_at'][:10]}."
    if not changed(view):
        st.info(
            f"{head} Read-only: nothing done here changes the case; a new assessment of it is recorded on the "
            "Cases page.",
            icon=":material/folder_shared:",
        )
        return
    st.warning(
        f"{head} The options shown are no longer the case's: these figures are not case {view['case']}'s. "
        "An engineer or clerk may record them as a new assessment of the case on the Cases page.",
        icon=":material/edit_off:",
    )
    if st.button(f"Back to case {view['case']}'s options", key="w_case_view_back"):
        reopen(int(view["case"]))
        st.rerun()


def record_new_assessment(case_id: int, by: str) -> None:
    """The survey and options shown, assessed, recorded as a new assessment of case ``case_id`` (then shown)."""
    src = state.current()
    obj = cases.assessment_json(state.assessment())
    obj["app_options"] = {"read": state.read_opts(), "opts": state.opts()}
    cases.register().reassess(case_id, by=by, survey=(src.name, src.data), assessment=obj)
    reopen(case_id)
