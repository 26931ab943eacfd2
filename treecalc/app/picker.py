"""Choosing trees by tag: Enter adds the one tree typed, never every tree whose tag contains the text.

Streamlit's multiselect offers "Select N matches" as the first option while one types, so "12" and Enter
marked every tree whose tag holds "12" (51 trees, $581K of civil penalties from five keystrokes). Here a
tree is added only by its exact tag; more than :data:`CONFIRM_OVER` added at one go wait for a confirmation;
the trees marked are listed in words beside the box, each removable.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping

import streamlit as st

from treecalc.app import state

#: More trees than this added at one go are asked about first: one keystroke never marks a crowd of trees.
CONFIRM_OVER = 5

_NUMBER_WORDS = "no one two three four five six seven eight nine ten eleven twelve".split()


def trees_in_words(n: int) -> str:
    """``3`` -> "three trees", ``1`` -> "one tree", ``0`` -> "no tree"; digits past twelve ("25 trees")."""
    words = _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else f"{n:,}"
    return f"{words} tree" + ("" if n in (0, 1) else "s")


def _tags_typed(text: str, tags: list[str]) -> tuple[list[str], list[str]]:
    """The tags typed (several apart by commas or semicolons), each matched to a tree by its exact tag:
    (tags found, texts that are no tree's tag). The whole text is one tag when a tree has it (a tag may
    hold a comma); a case difference only is still that tree ("a12" is "A12"), a part of a tag is not."""
    text = text.strip()
    exact = set(tags)
    folded = {t.casefold(): t for t in tags}
    parts = [text] if text in exact else [p.strip() for p in re.split(r"[,;]+", text) if p.strip()]
    found: list[str] = []
    unknown: list[str] = []
    for p in parts:
        t = p if p in exact else folded.get(p.casefold())
        (found if t is not None else unknown).append(t if t is not None else p)
    return list(dict.fromkeys(found)), unknown


def _pending_key(kind: str) -> str:
    return f"tc_pick_pending_{kind}"


def _msg_key(kind: str) -> str:
    return f"tc_pick_msg_{kind}"


def marked(kind: str) -> list[str]:
    """The tags marked ``kind`` ("removed", "damaged") in the survey edits, in the order they were added."""
    return [t for t, a in (state.opt("actions") or {}).items() if a == kind]


def _mark(kind: str, tags: list[str]) -> None:
    marks = dict(state.opt("actions") or {})
    for t in tags:
        marks.pop(t, None)  # re-added at the end: the list reads in the order the trees were marked
        marks[t] = kind
    state.set_opt("actions", marks or None)


def _on_type(kind: str, tags: list[str]) -> None:
    """Enter in the box: the exact tags typed are added (or held for a confirmation when many)."""
    box = f"w_add_{kind}"
    found, unknown = _tags_typed(str(st.session_state.get(box) or ""), tags)
    st.session_state[box] = ""
    have = set(marked(kind))
    new = [t for t in found if t not in have]
    msgs = []
    for u in unknown:
        near = difflib.get_close_matches(u, tags, n=3, cutoff=0.6)
        msgs.append(
            f"No tree is tagged “{u}”: nothing was added"
            + (f" (did you mean {', '.join(near)}?)" if near else "")
            + ". Type a tree's whole tag."
        )
    st.session_state[_msg_key(kind)] = msgs
    if len(new) > CONFIRM_OVER:
        st.session_state[_pending_key(kind)] = new
    elif new:
        _mark(kind, new)


def _confirm(kind: str, ok: bool) -> None:
    pending = st.session_state.pop(_pending_key(kind), None) or []
    if ok:
        _mark(kind, pending)


def _on_unmark(kind: str) -> None:
    keep = set(st.session_state.get(f"w_marked_{kind}") or [])
    marks = {t: a for t, a in (state.opt("actions") or {}).items() if a != kind or t in keep}
    state.set_opt("actions", marks or None)


def tree_picker(kind: str, label: str, tags: list[str], describe: Mapping[str, str], where=None) -> list[str]:
    """A box to type a tree's tag into (Enter adds that one tree), the trees marked ``kind`` in words
    beside it (each removable), and a confirmation before more than :data:`CONFIRM_OVER` are added at once.
    Returns the tags marked."""
    where = where or st
    box, count = where.columns([3, 2])
    box.text_input(
        label,
        key=f"w_add_{kind}",
        placeholder="type a tree's tag, then Enter",
        on_change=_on_type,
        args=(kind, tags),
        help="Enter adds the tree with exactly that tag. Several: tags apart by commas "
        f"(more than {CONFIRM_OVER} at once are asked about first).",
    )
    for m in st.session_state.get(_msg_key(kind)) or []:
        box.error(m, icon=":material/error:")
    pending = st.session_state.get(_pending_key(kind))
    if pending:
        box.warning(
            f"Add **{trees_in_words(len(pending))}** at once as found {kind}? "
            + ", ".join(pending[:30])
            + (f" and {len(pending) - 30:,} more" if len(pending) > 30 else ""),
            icon=":material/warning:",
        )
        b1, b2 = box.columns(2)
        b1.button(
            f"Add these {len(pending):,} trees",
            key=f"w_pick_yes_{kind}",
            on_click=_confirm,
            args=(kind, True),
            type="primary",
        )
        b2.button("Cancel", key=f"w_pick_no_{kind}", on_click=_confirm, args=(kind, False))
    now = [t for t in marked(kind) if t in describe]
    if now:
        count.markdown(f"**{trees_in_words(len(now)).capitalize()}** marked found {kind}.")
        st.session_state[f"w_marked_{kind}"] = now  # the list below is exactly the trees marked
        count.multiselect(
            f"Trees marked found {kind} (× unmarks one)",
            now,
            key=f"w_marked_{kind}",
            format_func=lambda t: describe.get(t, t),
            on_change=_on_unmark,
            args=(kind,),
            label_visibility="collapsed",
        )
    else:
        count.markdown(f"No tree marked found {kind}: as the survey says.")
    return now
