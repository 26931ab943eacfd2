"""Survey: upload (or keep the sample), and see exactly what was read."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_support import state, ui, views


def _upload() -> None:
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
    c1, c2 = st.columns([3, 1])
    if src is not None:
        c1.markdown(
            f"Showing **{ui.md_text(src.name)}** ({src.size_mb * 1024:,.0f} KB)"
            + (", the bundled sample survey." if src.is_sample else ", uploaded.")
        )
        if not src.is_sample and c2.button("Back to the sample", key="w_use_sample"):
            state.use_sample()
            st.session_state.pop("tc_upload_error", None)
            st.rerun()


def _columns(sv) -> None:
    source = getattr(sv, "source", None) or {}
    cmap = dict(source.get("column_map") or {})
    for h in source.get("unmapped") or []:
        cmap.setdefault(h, "ignore")
    if not cmap:
        st.caption("The reader did not report its column map.")
        return
    from treecalc.ingest import FIELDS

    options = list(dict.fromkeys([*FIELDS, *[str(v) for v in cmap.values() if v]]))
    st.caption(
        f"Sheet **{source.get('sheet')}**, header on row {source.get('header_row')}; "
        f"DBH unit {source.get('dbh_unit')} ({source.get('dbh_unit_source')}). "
        "How each header was read: correct a field and press *Re-read*."
    )
    df = pd.DataFrame(
        {"Header in the file": [str(h) for h in cmap], "Read as": [str(v or "ignore") for v in cmap.values()]}
    )
    edited = st.data_editor(
        df,
        key="w_colmap",
        hide_index=True,
        width="stretch",
        disabled=["Header in the file"],
        column_config={
            "Read as": st.column_config.SelectboxColumn(
                "Read as", options=options, required=True, format_func=views.label
            )
        },
    )
    changed = {h: f for h, f, f0 in zip(edited["Header in the file"], edited["Read as"], df["Read as"]) if f != f0}
    c1, c2 = st.columns(2)
    if c1.button("Re-read with this mapping", disabled=not changed, key="w_colmap_apply"):
        mapping = dict(state.read_opts().get("column_map", {}))
        mapping.update(changed)
        state.read_opts()["column_map"] = mapping
        st.rerun()
    if state.read_opts().get("column_map") and c2.button("Reset the mapping", key="w_colmap_reset"):
        state.read_opts().pop("column_map", None)
        st.session_state.pop("w_colmap", None)
        st.rerun()


def _site(sv) -> None:
    from treecalc.ingest import SITE_ASSUMED, SITE_FIELDS

    site = dict(getattr(sv, "site", {}) or {})
    overrides = dict(state.read_opts().get("site") or {})
    rows = []
    for k in SITE_FIELDS:
        if k in overrides:
            how = "edited here"
        elif k in site:
            how = "Site sheet"
        else:
            v, why = SITE_ASSUMED.get(k, (None, ""))
            how = f"not given: {'no value assumed' if v is None else f'assumed {views.yes_no(v)}'} ({why})"
        v = overrides.get(k, site.get(k))
        rows.append({"Fact": views.SITE_LABELS.get(k, views.label(k)), "Value": views.yes_no(v), "From": how})
    df = pd.DataFrame(rows)
    field = dict(zip(df["Fact"], SITE_FIELDS))  # the label a user reads -> the Site sheet's field
    st.caption(
        "Site facts from the Site sheet, and what is assumed where a fact is not given. "
        "Edit a value (yes/no, a number, croton-on-hudson or wesley-hills) to use it."
    )
    edited = st.data_editor(df, key="w_site", hide_index=True, width="stretch", disabled=["Fact", "From"])
    new = {
        field[f]: str(v).strip()
        for f, v, v0 in zip(edited["Fact"], edited["Value"], df["Value"])
        if str(v).strip() != str(v0).strip()
    }
    if new and st.button("Use these site facts", key="w_site_apply"):
        merged = {**overrides, **new}
        state.read_opts()["site"] = {k: v for k, v in merged.items() if v != ""}
        st.session_state.pop("w_site", None)
        st.rerun()
    if overrides and st.button("Forget my edits to the site facts", key="w_site_reset"):
        state.read_opts().pop("site", None)
        st.session_state.pop("w_site", None)
        st.rerun()
    if sv.site_assumptions:
        st.markdown("**Assumptions**")
        for a in sv.site_assumptions:
            st.markdown(f"- {views.readable(a)}")


def body() -> None:
    _upload()
    src = state.source()
    if src is None:
        st.info("Upload a survey to begin.")
        return
    bar = st.empty()

    def progress(fraction: float, message: str) -> None:
        bar.progress(min(max(float(fraction), 0.0), 1.0), text=f"Reading {src.name}: {message}")

    try:
        sv = state.survey(progress)
    finally:
        bar.empty()
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
    from treecalc.data import zones as zone_table

    st.caption(
        f"i-Tree Streets climate zone: {zone_table().at[zone.zone, 'name']} ({zone.zone}), {zone.source}"
        + ("".join(f"; {n}" for n in zone.notes))
        + " (set it on the Benefits page)"
    )

    tabs = st.tabs(["Trees", "Columns", "Rejected rows", "Species matches", "Site facts", "Warnings"])
    with tabs[0]:
        st.dataframe(views.labelled(trees), width="stretch", hide_index=True)
    with tabs[1]:
        _columns(sv)
    with tabs[2]:
        if len(rejected):
            st.dataframe(views.rejected_table(rejected), width="stretch", hide_index=True)
        else:
            st.success("Every row was read.")
    with tabs[3]:
        _species_matches(trees)
    with tabs[4]:
        _site(sv)
    with tabs[5]:
        if warnings:
            for w in warnings:
                st.markdown(f"- {views.readable(w)}")
        else:
            st.caption("No warnings.")
    ui.page_downloads(
        "survey", {"Survey trees": views.labelled(trees), "Rejected rows": views.rejected_table(rejected)}
    )


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


ui.run_page("Survey", body, caption="What was read from the tree survey, and what was not.")
