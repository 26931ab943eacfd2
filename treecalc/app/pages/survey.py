"""Survey: upload (or keep the sample), and see exactly what was read."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from treecalc.app import links, page_path, state, tree_facts, ui, views
from treecalc.ingest import FIELDS, SITE_ASSUMED, SITE_FIELDS
from treecalc.ingest.site import coerce, law_site_why
from treecalc.law import readings
from treecalc.law.registry import by_key, get_or_default, records
from treecalc.reference.data import zones as zone_table

#: The tree table's columns, the figures the survey is about first (in sight at 1,280 px)
TREE_FIRST = ("tag", "species", "dbh_in", "action")


def _upload() -> Any:
    """The upload control and the survey shown; the place the next steps go once the survey is read with trees."""
    up = st.file_uploader(
        f"Upload a tree survey ({', '.join(state.SURVEY_TYPES)}; up to {state.MAX_UPLOAD_MB} MB)",
        type=state.SURVEY_TYPES,
        key="w_upload",
        help="A Trees/Survey/Inventory sheet with a header row (title rows above it are fine) and, "
        "optionally, a Site sheet of field/value pairs.",
    )
    if up is not None and st.session_state.get("tc_upload_id") != up.file_id:
        st.session_state["tc_upload_id"] = up.file_id
        if up.size > state.MAX_UPLOAD_MB * 2**20:
            st.session_state["tc_upload_error"] = (
                f"{up.name} is {up.size / 2**20:.1f} MB: the app takes surveys up to {state.MAX_UPLOAD_MB} MB. "
                "Split the survey, or use the command line (treecalc assess FILE)."
            )
        else:
            st.session_state.pop("tc_upload_error", None)
            try:
                state.set_source(up.name, up.getvalue())
            except state.AppError as e:
                st.session_state["tc_upload_error"] = str(e)
    if err := st.session_state.get("tc_upload_error"):
        st.error(err)
    src = state.source()
    if src is not None and not src.is_sample:
        _layer_choice(src)
    c1, c2 = st.columns([3, 1])
    if src is not None:
        how = (
            ", the bundled sample survey."
            if src.is_sample
            else ": a shared view, opened from a link."
            if links.shows_link()
            else ", uploaded."
        )
        c1.markdown(f"Showing **{ui.md_text(src.name)}** ({src.size_mb * 1024:,.0f} KB){how}")
        if not src.is_sample and c2.button("Back to the sample", key="w_use_sample"):
            state.use_sample()
            st.session_state.pop("tc_upload_error", None)
            st.rerun()
    return st.container()  # the next steps, drawn once the survey is read with trees


def _layer_choice(src: state.Source) -> None:
    """A GIS file of several layers: the layer that holds the trees, read with the survey's other options."""
    layers = state.gis_layers(src)
    if len(layers) < 2:
        return
    names = [n for n, _ in layers]
    kinds = dict(layers)
    current = state.read_opts().get("layer")
    chosen = st.selectbox(
        "Layer",
        names,
        index=names.index(current) if current in names else None,
        format_func=lambda n: f"{n} ({kinds[n]})",
        placeholder="the file holds several layers: choose the trees'",
        key="w_layer",
    )
    if chosen != current:
        if chosen is None:
            state.read_opts().pop("layer", None)
        else:
            state.read_opts()["layer"] = chosen


#: Where each role finds its answer: (who, page, what it answers)
ROLES = (
    (
        "Applicant",
        page_path("permit"),
        "Permit & replacement",
        "what the permit costs you, and what would lower it",
    ),
    ("Arborist", page_path("benefits"), "Benefits", "what the trees do each year, and the value basis"),
    (
        "Village Engineer",
        page_path("violations"),
        "Violations & penalties",
        "offences and penalties, tree by tree; the fund on Fund & fee schedule",
    ),
)


def _next_steps(sample: bool) -> None:
    """What to do first (upload, or explore the sample) and, once a survey is here, each role's next step."""
    with st.container(border=True):
        if sample:
            st.markdown(
                "**What to do first.** Upload your tree survey above (a spreadsheet with a tag, species and DBH "
                "per tree; a title row and a Site sheet are fine), or explore the bundled sample survey: every "
                "page shows its figures until you upload."
            )
        else:
            st.markdown(
                "**Next step.** Check what was read (the columns above; species matches and site facts below), then:"
            )
        for who, path, title, what in ROLES:
            c1, c2 = st.columns([2, 3])  # the link's words whole at 1,280 px
            c1.page_link(path, label=f"{who}: {title}", icon=":material/arrow_forward:")
            c2.caption(what)


def _columns(sv, expanded: bool) -> None:
    """ "These columns were read as …": a plain select per column of the file, the field it was read as (a header
    not read is "ignore"); a choice re-reads the file at once. The map was a grid in a tab, changed by a
    double-click in a cell that nobody found."""
    source = getattr(sv, "source", None) or {}
    cmap = dict(source.get("column_map") or {})
    for h in source.get("unmapped") or []:
        cmap.setdefault(h, "ignore")
    for h, f in (state.read_opts().get("column_map") or {}).items():  # a column chosen "ignore" stays to choose
        cmap.setdefault(h, f)
    if not cmap:
        st.caption("The reader did not report its column map.")
        return

    options = list(dict.fromkeys([*FIELDS, *[str(v) for v in cmap.values() if v]]))
    if "ignore" not in options:
        options.append("ignore")
    read = sum(1 for v in cmap.values() if v and v != "ignore")
    with st.expander(f"These columns were read as … ({read} of {len(cmap)} columns read)", expanded=expanded):
        st.caption(
            f"Sheet **{source.get('sheet')}**, header on row {source.get('header_row')}; "
            f"DBH unit {source.get('dbh_unit')} ({source.get('dbh_unit_source')}). "
            "Choose what a column holds, or “ignore”: the file is read again at once."
        )
        cells = st.columns(3)
        changed = {}
        for n, (header, field) in enumerate(cmap.items()):
            now = str(field or "ignore")
            chosen = cells[n % 3].selectbox(
                str(header),
                options,
                index=options.index(now),
                format_func=lambda v: "ignore (not read)" if v == "ignore" else views.label(str(v)),
                key=f"w_colmap::{header}",
            )
            if chosen != now:
                changed[str(header)] = chosen
        if changed:
            mapping = dict(state.read_opts().get("column_map", {}))
            mapping.update(changed)
            state.read_opts()["column_map"] = mapping
            st.rerun()
        if state.read_opts().get("column_map") and st.button("Reset the mapping", key="w_colmap_reset"):
            state.read_opts().pop("column_map", None)
            for header in cmap:
                st.session_state.pop(f"w_colmap::{header}", None)
            st.rerun()


def site_laws() -> list[tuple[str, str]]:
    """The laws that read the site facts, in the order the form shows them (the registry's, a law registered
    later with them): (law key, heading)."""
    return [
        (r.key, f"Read by {r.chapters['trees']}" + (" (trees)" if len(set(r.chapters.values())) > 1 else ""))
        for r in records()
    ]


_TRI = ("not given", "yes", "no")


def _site_groups(applied: str | None = None) -> list[tuple[str, list[str]]]:
    """The site facts grouped by the law that reads them (its ``[site_why]``), each fact once: the law applied
    (``applied``) first, with every fact it reads, so that a Wesley Hills lot's facts are not below twelve that
    only Croton-on-Hudson reads; then the other laws, in the registry's order."""
    seen = {"jurisdiction"}
    groups = []
    for key, title in sorted(site_laws(), key=lambda kt: kt[0] != applied):  # a stable sort: the rest keep order
        why = readings(key).get("site_why") or {}
        facts = [k for k in SITE_FIELDS if k in why and k not in seen]
        seen.update(facts)
        groups.append((title, facts))
    rest = [k for k in SITE_FIELDS if k not in seen]
    if rest:
        groups.append(("Other facts (the map's coordinates, the lot)", rest))
    return groups


def applied_law(site: dict) -> str:
    """The key of the law the pages assess under: the site's jurisdiction, else the default (as the header says)."""
    return get_or_default(site.get("jurisdiction")).key


def not_given_caption(k: str, applied: str) -> str:
    """What a fact not given means under the law applied: the law assumed (the jurisdiction), a fact that law does
    not read, or what it assumes, in its words (a value only when the words do not say it)."""
    record = by_key(applied)
    if k == "jurisdiction":
        return f"Not given: the survey is assessed under {record.chapter}, the default."
    if not record.reads_site_fact(k):
        return f"Not given; {record.chapter}, the law applied, does not read it."
    words = law_site_why(applied).get(k)
    if words:
        return f"Not given: {views.readable(words)}."
    a, why = SITE_ASSUMED.get(k, (None, ""))
    if a is None:
        return f"Not given: {views.readable(why)}."
    return f"Not given: assumed {views.yes_no(a)}, because {views.readable(why)}."


def _as_bool(k: str, value) -> bool | None:
    try:
        return bool(coerce(k, value))
    except ValueError:
        return None


def _site_input(k: str, kind: str, value, key: str):
    label = views.SITE_LABELS.get(k, views.label(k)).replace(" (yes/no)", "")
    if kind == "bool":
        b = None if value is None or value == "" else _as_bool(k, value)
        cur = "not given" if b is None else ("yes" if b else "no")
        return st.radio(label, _TRI, index=_TRI.index(cur), horizontal=True, key=key)
    if k == "jurisdiction":
        names = ["not given", *(r.user_spelling for r in records())]
        cur = str(value or "not given").replace("_", "-")
        return st.selectbox(label, names, index=names.index(cur) if cur in names else 0, key=key)
    return st.text_input(label, "" if value is None else str(value), key=key)


def _site(sv) -> None:
    """The site facts as a form: plain labels grouped by the law that reads them, each with where its value
    came from or, when not given, what is assumed and why (the law's own words)."""
    site = dict(getattr(sv, "site", {}) or {})
    overrides = dict(state.read_opts().get("site") or {})
    applied = applied_law(site)
    st.caption(
        "Site facts from the Site sheet, and what is assumed where a fact is not given. Change one and press *Use these site facts*."
    )
    values: dict[str, object] = {}
    with st.form("w_site_form", border=True):
        groups = [("Which law", ["jurisdiction"]), *_site_groups(applied)]
        for title, facts in groups:
            st.markdown(f"**{title}**")
            cols = st.columns(2)
            for i, k in enumerate(facts):
                v = overrides.get(k, site.get(k))
                with cols[i % 2]:
                    values[k] = _site_input(k, SITE_FIELDS[k], v, f"w_site_{k}")
                    if k in overrides:
                        st.caption("Edited here.")
                    elif k in site:
                        st.caption("From the Site sheet.")
                    else:
                        st.caption(not_given_caption(k, applied))
        sent = st.form_submit_button("Use these site facts")
    if sent:
        new = {}
        for k, v in values.items():
            old = overrides.get(k, site.get(k))
            shown = "" if v in (None, "not given") else str(v).strip()
            if SITE_FIELDS[k] == "bool":
                b = None if old in (None, "") else _as_bool(k, old)
                before = "" if b is None else ("yes" if b else "no")
            else:
                before = "" if old is None else str(old).replace("_", "-")
            if shown != before:
                new[k] = shown
        if new:
            merged = {**overrides, **new}
            state.read_opts()["site"] = {k: v for k, v in merged.items() if v != ""}
            st.rerun()
    if overrides and st.button("Forget my edits to the site facts", key="w_site_reset"):
        state.read_opts().pop("site", None)
        for k in SITE_FIELDS:
            st.session_state.pop(f"w_site_{k}", None)
        st.rerun()
    said = sv.assumptions_under(applied) if hasattr(sv, "assumptions_under") else list(sv.site_assumptions)
    if said:
        with st.expander(f"The assumptions, as {by_key(applied).chapter} (the law applied) makes them"):
            for a in said:
                st.markdown(f"- {views.readable(a)}")


def body() -> None:
    steps = _upload()
    src = state.source()
    if src is None:
        st.info("Upload a survey to begin.")
        return
    bar = st.empty()

    def progress(fraction: float, message: str) -> None:
        bar.progress(min(max(float(fraction), 0.0), 1.0), text=f"Reading {src.name}: {message}")

    try:
        sv = state.survey(progress, empty_ok=True)
    finally:
        bar.empty()
    with steps:  # under the upload, before the next steps: what each column was read as, to correct first
        _columns(sv, expanded=not src.is_sample)
    try:
        state.require_trees(sv)
    except state.AppError as e:  # no tree read: said, no next step; what was read below says why
        st.error(str(e))
    else:
        with steps:
            _next_steps(src.is_sample)
    trees, rejected = sv.trees, sv.rejected
    summary = sv.summary()
    warnings = summary.get("warnings") or list(sv.warnings)
    c = st.columns(4)
    c[0].metric("Rows read", f"{sv.rows_read:,}")
    c[1].metric("Trees", f"{len(trees):,}")
    c[2].metric("Rejected rows", f"{len(rejected):,}")
    c[3].metric("Warnings", f"{len(warnings):,}")
    if reasons := summary.get("rejected_reasons"):
        st.caption("Rejected: " + "; ".join(f"{k}: {v}" for k, v in reasons.items()))
    zone = state.survey_zone(sv, (state.opt("benefit", {}) or {}).get("zone"))

    where = (  # trees in several zones: each valued in its own, the zones counted
        "i-Tree Streets climate zones, each tree its own: "
        + ", ".join(f"{zone_table().at[z, 'name']} ({z}) {n:,}" for z, n in zone.counts)
        if zone.counts
        else f"i-Tree Streets climate zone: {zone_table().at[zone.zone, 'name']} ({zone.zone})"
    )
    st.caption(
        views.readable(  # the library names the keyword (‹zone›); the app its control
            f"{where}, {zone.source}" + ("".join(f"; {n}" for n in zone.notes))
        )
        + " (set it on the Benefits page)"
    )

    tabs = st.tabs(["Trees", "Rejected rows", "Species matches", "Site facts", "Warnings"])
    with tabs[0]:
        _tree_table(trees)
    with tabs[1]:
        if len(rejected):
            st.dataframe(views.rejected_table(rejected), width="stretch", hide_index=True)
        else:
            st.success("Every row was read.")
    with tabs[2]:
        _species_matches(trees)
    with tabs[3]:
        _site(sv)
    with tabs[4]:
        if warnings:
            for w in warnings:
                st.markdown(f"- {views.readable(w)}")
        else:
            st.caption("No warnings.")
    ui.page_downloads(
        "survey", {"Survey trees": views.labelled(trees), "Rejected rows": views.rejected_table(rejected)}
    )


def _edits() -> str:
    """What the tree table was drawn from (:func:`ui.drawn_from`), and the tree facts edited so far."""
    return ui.drawn_from(tree_facts=state.opt("tree_facts"))


def _tree_table(trees: pd.DataFrame) -> None:
    """The trees as read, their facts editable where they are seen (action, street tree, slope, landmark,
    permit, condition): each change is kept as a change made in the app, said in the statement and saved in
    the project; the notes' words that suggest a flag are offered as that flag."""
    names = tree_facts.fact_names(trees)
    cols = [*TREE_FIRST, *names, "notes", "species_code", "stems", "land_use", "source_row"]
    cols = list(dict.fromkeys(c for c in cols if c in trees))
    if "w_trees" not in st.session_state or st.session_state.get("tc_trees_edits") != _edits():
        # the table's edits are kept relative to the table it was first given: that table holds the changes
        # made elsewhere (trees marked on the Violations page, kept on the Permit page) and stays fixed
        shown, _ = tree_facts.apply(trees, state.opt("actions"), state.opt("tree_facts"))
        st.session_state["tc_trees_base"] = shown[cols].reset_index(drop=True)
        st.session_state.pop("w_trees", None)
    base = st.session_state["tc_trees_base"]
    _suggestions(trees)
    st.caption(
        "Change a tree's action or facts in the table: the assessment, the statement and the saved project "
        "use the change, listed as changed in the app."
    )
    labels = dict(zip(cols, views.labelled(base.iloc[:0]).columns))  # the labels people read, each once
    config: dict = {labels[c]: st.column_config.CheckboxColumn() for c in names if c not in tree_facts.TEXTS}
    config[labels["action"]] = st.column_config.SelectboxColumn(options=list(tree_facts.ACTIONS))
    config.update({labels[c]: st.column_config.TextColumn() for c in tree_facts.TEXTS if c in names})
    config[labels["dbh_in"]] = st.column_config.NumberColumn(format="%.1f")
    edited = st.data_editor(
        base.rename(columns=labels),
        key="w_trees",
        hide_index=True,
        width="stretch",
        num_rows="fixed",
        disabled=[labels[c] for c in cols if c != "action" and c not in names],
        column_config=config,
    ).rename(columns={v: k for k, v in labels.items()})
    _keep_changes(trees, edited, names)


def _keep_changes(trees: pd.DataFrame, edited: pd.DataFrame, names: dict[str, str]) -> None:
    """The table's values that differ from the survey's, as the app's edits (actions, tree facts)."""
    original = trees.reset_index(drop=True)
    actions: dict[str, str] = {}
    facts: dict[str, dict] = {}
    for i, tag in enumerate(original["tag"].astype(str)):
        if i >= len(edited):
            break
        if str(edited.at[i, "action"]) != str(original.at[i, "action"]) and pd.notna(edited.at[i, "action"]):
            actions[tag] = str(edited.at[i, "action"])
        for c in names:
            new, old = edited.at[i, c], original.at[i, c]
            if c in tree_facts.TEXTS:
                new, old = ("" if pd.isna(new) else str(new)), ("" if pd.isna(old) else str(old))
            else:
                new, old = bool(new) if pd.notna(new) else False, bool(old) if pd.notna(old) else False
            if new != old:
                facts.setdefault(tag, {})[c] = new
    state.set_opt("actions", actions or None)
    state.set_opt("tree_facts", facts or None)
    st.session_state["tc_trees_edits"] = _edits()
    changed = len(set(actions) | set(facts))
    if changed:
        st.info(
            f"{changed:,} tree(s) changed in the app: the assessment, the statement and the saved project use "
            "the changes and list them.",
            icon=":material/edit:",
        )


def _suggestions(trees: pd.DataFrame) -> None:
    """A flag the notes suggest ("Street tree – Village ROW") and the survey did not set, offered to set."""
    offers = tree_facts.suggested(trees, state.opt("tree_facts"))
    names = tree_facts.fact_names(trees)
    for i, (tag, col, note) in enumerate(offers[:10]):
        c1, c2 = st.columns([4, 1])
        c1.info(f"Tree {tag}'s notes say “{note}”: is it a {names[col]}?", icon=":material/lightbulb:")
        if c2.button(f"Mark tree {tag} a {names[col]}", key=f"w_suggest_{i}_{tag}_{col}"):
            facts = dict(state.opt("tree_facts") or {})
            facts[tag] = {**facts.get(tag, {}), col: True}
            state.set_opt("tree_facts", facts)
            st.rerun()


def _species_matches(trees: pd.DataFrame) -> None:
    """Species matched by similarity or by genus, for the user to confirm or correct."""
    if "species_method" not in trees or not len(trees):
        st.caption("No species was matched by similarity.")
        return
    fixes = dict(state.opt("species_fix") or {})
    rows = trees["source_row"].astype(str)
    sel = trees[trees["species_method"].astype(str).isin(["fuzzy", "genus"]) | rows.isin(list(fixes))]
    if sel.empty:
        st.caption("Every species name matched the catalogue exactly (code, scientific, common name or alias).")
        return
    choices = views.species_choices()
    label = dict(zip(choices["code"], choices["label"]))
    df = pd.DataFrame(
        {
            "row": sel["source_row"].astype(str).to_numpy(),
            "tag": sel["tag"].astype(str).to_numpy(),
            "written": sel["species"].astype(str).to_numpy(),
            "how": sel["species_method"].astype(str).to_numpy(),
            "score": sel["species_score"].to_numpy(float),
            "species": [fixes.get(r, c) for r, c in zip(sel["source_row"].astype(str), sel["species_code"])],
        }
    )
    st.caption(
        "Species the reader matched by similarity (or by genus only). Check each one; pick another "
        "species where the match is wrong and press *Use these species*."
    )
    edited = st.data_editor(
        df,
        key="w_species_fix",
        hide_index=True,
        width="stretch",
        disabled=["row", "tag", "written", "how", "score"],
        column_config={
            "row": st.column_config.TextColumn("Row in the file"),
            "tag": st.column_config.TextColumn("Tag"),
            "written": st.column_config.TextColumn("Species as written"),
            "how": st.column_config.TextColumn("Matched by"),
            "score": st.column_config.NumberColumn("Match score", format="%.0f%%"),
            "species": st.column_config.SelectboxColumn(
                "matched to", options=list(choices["code"]), format_func=lambda c: label.get(c, c), required=True
            ),
        },
    )
    original = dict(zip(sel["source_row"].astype(str), sel["species_code"]))
    new = {r: c for r, c in zip(edited["row"], edited["species"]) if c != original.get(r)}
    c1, c2 = st.columns(2)
    if c1.button("Use these species", key="w_species_apply", disabled=new == fixes):
        state.set_opt("species_fix", new or None)
        st.session_state.pop("w_species_fix", None)
        st.rerun()
    if fixes and c2.button("Undo my corrections", key="w_species_reset"):
        state.set_opt("species_fix", None)
        st.session_state.pop("w_species_fix", None)
        st.rerun()
    if fixes:
        st.info(f"{len(fixes)} species corrected by you: the benefits, the assessment and the statement use them.")


ui.run_page("Survey", body, caption="What was read from the tree survey, and what was not.", law=True)
