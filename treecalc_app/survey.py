"""Survey: upload (or keep the sample), and see exactly what was read."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_support import state, ui


def _upload() -> None:
    up = st.file_uploader(
        f"Upload a tree survey ({', '.join(state.SURVEY_TYPES)}; up to {state.MAX_UPLOAD_MB} MB)",
        type=state.SURVEY_TYPES, key="w_upload",
        help="A Trees/Survey/Inventory sheet with a header row (title rows above it are fine) and, "
             "optionally, a Site sheet of field/value pairs.")
    if up is not None and st.session_state.get("tc_upload_id") != up.file_id:
        st.session_state["tc_upload_id"] = up.file_id
        if up.size > state.MAX_UPLOAD_MB * 2**20:
            st.session_state["tc_upload_error"] = (
                f"{up.name} is {up.size / 2**20:.1f} MB: the app takes surveys up to {state.MAX_UPLOAD_MB} MB. "
                "Split the survey, or use the command line (treecalc assess FILE).")
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
        c1.markdown(f"Showing **{src.name}** ({src.size_mb * 1024:,.0f} KB)"
                    + (", the bundled sample survey." if src.is_sample else ", uploaded."))
        if not src.is_sample and c2.button("Back to the sample", key="w_use_sample"):
            state.use_sample()
            st.session_state.pop("tc_upload_error", None)
            st.rerun()


def _columns(sv) -> None:
    source = getattr(sv, "source", None) or {}
    cmap = source.get("column_map") if isinstance(source, dict) else None
    if not cmap:
        st.caption("The reader did not report its column map.")
        return
    fields = source.get("fields") or sorted({str(v) for v in cmap.values() if v})
    options = ["(ignore)"] + list(dict.fromkeys([*fields, *[str(v) for v in cmap.values() if v]]))
    df = pd.DataFrame({"Header in the file": list(cmap.keys()),
                       "Read as": [str(v) if v else "(ignore)" for v in cmap.values()]})
    st.caption("How each header of the file was read. Correct a field and press *Re-read*.")
    edited = st.data_editor(
        df, key="w_colmap", hide_index=True, width="stretch", disabled=["Header in the file"],
        column_config={"Read as": st.column_config.SelectboxColumn("Read as", options=options, required=True)})
    changed = {h: f for h, f, f0 in zip(edited["Header in the file"], edited["Read as"], df["Read as"]) if f != f0}
    c1, c2 = st.columns(2)
    if c1.button("Re-read with this mapping", disabled=not changed, key="w_colmap_apply"):
        mapping = dict(state.read_opts().get("column_map", {}))
        mapping.update({h: (None if f == "(ignore)" else f) for h, f in changed.items()})
        state.read_opts()["column_map"] = mapping
        st.rerun()
    if state.read_opts().get("column_map") and c2.button("Reset the mapping", key="w_colmap_reset"):
        state.read_opts().pop("column_map", None)
        st.rerun()


def _site(sv) -> None:
    site = dict(getattr(sv, "site", {}) or {})
    assumed = dict(getattr(sv, "site_assumptions", {}) or {})
    overrides = state.opt("site", {}) or {}
    rows = []
    for k in dict.fromkeys([*site, *assumed, *overrides]):
        v = overrides.get(k, site.get(k, assumed.get(k)))
        how = "edited here" if k in overrides else ("Site sheet" if k in site else "assumed (not given)")
        rows.append({"Fact": k, "Value": "" if v is None else str(v), "From": how})
    if not rows:
        st.caption("No site facts were read.")
        return
    df = pd.DataFrame(rows)
    st.caption("Site facts from the Site sheet, and the assumptions made where a fact was not given. "
               "Edit a value to use it in the assessment.")
    edited = st.data_editor(df, key="w_site", hide_index=True, width="stretch", disabled=["Fact", "From"])
    new = {f: v for f, v, v0 in zip(edited["Fact"], edited["Value"], df["Value"]) if str(v) != str(v0)}
    if new:
        merged = {**overrides, **{k: (v if v != "" else None) for k, v in new.items()}}
        state.set_opt("site", {k: v for k, v in merged.items() if v is not None})
        st.rerun()
    if overrides and st.button("Forget my edits to the site facts", key="w_site_reset"):
        state.set_opt("site", None)
        st.rerun()


def body() -> None:
    _upload()
    if not ui.need("read_survey"):
        return
    src = state.source()
    if src is None:
        st.info("Upload a survey to begin.")
        return
    with st.spinner(f"Reading {src.name} ({src.size_mb:,.1f} MB)…", show_time=True):
        sv = state.survey()
    trees, rejected = sv.trees, sv.rejected
    c = st.columns(4)
    c[0].metric("Rows read", f"{sv.rows_read:,}")
    c[1].metric("Trees", f"{len(trees):,}")
    c[2].metric("Rejected rows", f"{len(rejected):,}")
    c[3].metric("Warnings", f"{len(sv.warnings):,}")

    tabs = st.tabs(["Trees", "Columns", "Rejected rows", "Species matches", "Site facts", "Warnings"])
    with tabs[0]:
        st.dataframe(trees, width="stretch", hide_index=True)
    with tabs[1]:
        _columns(sv)
    with tabs[2]:
        if len(rejected):
            st.dataframe(rejected, width="stretch", hide_index=True)
        else:
            st.success("Every row was read.")
    with tabs[3]:
        fuzzy = _fuzzy(trees)
        if fuzzy is None or fuzzy.empty:
            st.caption("No species was matched by a fuzzy match.")
        else:
            st.caption("Species matched by similarity: check them. Fix the file (or pick the name) and re-upload "
                       "if a match is wrong.")
            st.dataframe(fuzzy, width="stretch", hide_index=True)
    with tabs[4]:
        _site(sv)
    with tabs[5]:
        if sv.warnings:
            for w in sv.warnings:
                st.markdown(f"- {w}")
        else:
            st.caption("No warnings.")
    ui.page_downloads("survey", {"Survey trees": trees, "Rejected rows": rejected})


def _fuzzy(trees: pd.DataFrame) -> pd.DataFrame | None:
    """The trees whose species was matched by similarity (as the reader marked them)."""
    for col in ("species_method", "species_match"):
        if col in trees:
            sel = trees[trees[col].astype(str).str.contains("fuzzy", case=False, na=False)]
            keep = [c for c in ("source_row", "tag", "species", "species_input", "species_code", "species_score",
                                "species_method", "warnings") if c in sel]
            return sel[keep]
    return None


ui.run_page("Survey", body, caption="What was read from the tree survey, and what was not.")
