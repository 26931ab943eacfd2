"""Excavation & fill: permit triggers (Chapter 120 §120-3A; Wesley Hills §95-3), review standards,
work hours, penalties, and cut/fill volumes from a grid or cross-sections, with a heat map."""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from app_support import charts, lib, state, ui

MAX_HEATMAP_CELLS = 80  # per axis: larger grids are shown block-summed (display only)


def _pairs(df: pd.DataFrame) -> list[tuple[float, float]]:
    return [(float(r.area_sqft), float(r.depth_ft)) for r in df.dropna().itertuples()]


def _permit(exc) -> pd.DataFrame | None:
    st.subheader("Is a permit required?")
    jur = st.radio("Jurisdiction", ["croton-on-hudson", "wesley-hills"], horizontal=True, key="w_exc_jur",
                   format_func={"croton-on-hudson": "Croton-on-Hudson, Chapter 120 (§120-3A)",
                                "wesley-hills": "Wesley Hills, Chapter 95 (§95-3)"}.get)
    c1, c2 = st.columns(2)
    cfg = {"area_sqft": st.column_config.NumberColumn("Area (sq ft)", min_value=0.0, required=True),
           "depth_ft": st.column_config.NumberColumn("Depth (ft)", min_value=0.0, required=True)}
    with c1:
        st.markdown("**Excavation areas**")
        exc_df = st.data_editor(pd.DataFrame({"area_sqft": [600.0], "depth_ft": [3.0]}), num_rows="dynamic",
                                key="w_exc_areas", hide_index=True, width="stretch", column_config=cfg)
    with c2:
        st.markdown("**Fill areas**")
        fill_df = st.data_editor(pd.DataFrame({"area_sqft": pd.Series([], dtype=float),
                                               "depth_ft": pd.Series([], dtype=float)}),
                                 num_rows="dynamic", key="w_fill_areas", hide_index=True, width="stretch",
                                 column_config=cfg)
    c1, c2, c3 = st.columns(3)
    strip = c1.number_input("Topsoil stripped (sq ft)", min_value=0.0, value=0.0, step=100.0, key="w_exc_strip")
    lot = c2.number_input("Lot area (sq ft)", min_value=0.0, value=20_000.0, step=1000.0, key="w_exc_lot",
                          help="For §120-3A(3): 5,000 sq ft or half the lot, whichever is less. 0: not given.")
    place = c3.checkbox("Topsoil is placed", key="w_exc_place")
    topsoil = None
    if place:
        c1, c2, c3 = st.columns(3)
        ta = c1.number_input("Topsoil area (sq ft)", min_value=0.0, value=2_000.0, step=100.0, key="w_exc_top_area")
        td = c2.number_input("Topsoil depth (in)", min_value=0.0, value=3.0, step=0.5, key="w_exc_top_depth")
        ts = c3.checkbox("Seeded and mulched", value=True, key="w_exc_top_seeded")
        topsoil = (ta, td, ts)
    r = exc.check_permit(_pairs(exc_df), _pairs(fill_df), strip_topsoil_sqft=strip,
                         lot_area_sqft=lot or None, topsoil_placement=topsoil, jurisdiction=jur)
    c = st.columns(3)
    c[0].metric("Excavation and filling permit required", "Yes" if r.permit_required else "No")
    c[1].metric("Excavated, these areas (cu yd)", f"{float(r.excavation_cy):,.2f}")
    c[2].metric("Filled, these areas (cu yd)", f"{float(r.fill_cy):,.2f}")
    if r.triggers:
        st.markdown("**Items that hold:** " + ", ".join(r.triggers))
    table = pd.DataFrame([dict(e) for e in r.explanations])
    if len(table):
        st.dataframe(table, width="stretch", hide_index=True)
    for e in r.exemptions:
        st.info(f"{e.get('section', '')}: {e.get('explanation', e)}")
    if r.waiver_eligible is not None:
        st.caption(f"Planning Board waiver (§95-3D(1), under 100 cu yd): "
                   f"{'possible' if r.waiver_eligible else 'not possible'}.")
    with st.expander("Review standards that apply, interpretation and notes"):
        for s in r.review_standards:
            st.markdown(f"- **{s.get('section', '')}** {s.get('requirement', s.get('explanation', ''))}")
        for line in [*r.interpretation, *r.notes]:
            st.markdown(f"- {line}")
    return table


def _standards(exc) -> pd.DataFrame:
    st.subheader("Review standards (§120-8) and work hours (§120-8G)")
    c1, c2, c3, c4 = st.columns(4)
    depth = c1.number_input("Deepest excavation below surrounding grade (ft)", min_value=0.0, value=5.0,
                            step=0.5, key="w_std_depth")
    water = c2.number_input("Standing water (ft)", min_value=0.0, value=0.5, step=0.1, key="w_std_water")
    after = c3.checkbox("Measured after construction", key="w_std_after")
    topsoil = c4.number_input("Topsoil left (in)", min_value=0.0, value=2.0, step=0.5, key="w_std_topsoil")
    fence = st.checkbox("A fence with locked gates is in place", value=True, key="w_std_fence")
    rows = exc.review_standards(depth, standing_water_ft=water, after_construction=after,
                                topsoil_left_in=topsoil, fence_provided=fence)
    table = pd.DataFrame(rows)
    st.dataframe(table, width="stretch", hide_index=True)
    c1, c2 = st.columns(2)
    day = c1.date_input("Work on", value=dt.date(2026, 6, 7), key="w_std_day")
    at = c2.time_input("at", value=dt.time(9, 30), key="w_std_time", step=900)
    w = exc.work_time_check(dt.datetime.combine(day, at))
    (st.success if w["allowed"] else st.warning)(f"{w['section']}: {'allowed' if w['allowed'] else 'not allowed'} — "
                                                 f"{w['reason']}.")
    st.caption(w["interpretation"])
    return table


@st.cache_data(show_spinner=False, max_entries=4)
def _grid(sha: str, name: str, metric: bool, _data: bytes) -> Any:
    path = state.tmp_upload(name, _data)
    try:
        return lib.piece("excavation").volume_from_grid_csv(path, metric=metric)
    finally:
        Path(path).unlink(missing_ok=True)


@st.cache_data(show_spinner=False, max_entries=4)
def _sections(sha: str, name: str, prismoidal: bool, metric: bool, _data: bytes) -> Any:
    path = state.tmp_upload(name, _data)
    try:
        return lib.piece("excavation").volume_from_sections_csv(path, prismoidal, metric=metric)
    finally:
        Path(path).unlink(missing_ok=True)


def _volumes() -> dict[str, pd.DataFrame | None]:
    st.subheader("Volumes from a grading plan")
    kind = st.radio("Method", ["Grid (borrow-pit)", "Cross-sections (average end area)"], horizontal=True,
                    key="w_vol_kind")
    metric = st.checkbox("Metres in (cubic yards out)", key="w_vol_metric")
    out: dict[str, pd.DataFrame | None] = {}
    if kind.startswith("Grid"):
        up = st.file_uploader("Grid CSV: columns x, y, existing, proposed (feet, regular spacing)", type=["csv", "txt"],
                              key="w_grid_upload")
        if up is None:
            st.caption("Upload a grid to see cut and fill and the heat map.")
            return out
        data = up.getvalue()
        try:
            g = _grid(hashlib.sha256(data).hexdigest(), up.name, metric, data)
        except (ValueError, OSError) as e:
            st.error(f"{up.name}: {e}")
            return out
        c = st.columns(4)
        c[0].metric("Cut (cu yd)", f"{g.cut_cy:,.2f}")
        c[1].metric("Fill (cu yd)", f"{g.fill_cy:,.2f}")
        c[2].metric("Net (cu yd)", f"{g.net_cy:,.2f}", help="cut − fill: positive is surplus, negative to import")
        c[3].metric("Cells", f"{(g.nx - 1) * (g.ny - 1):,}", help=f"{g.mixed_cells:,} change sign")
        cells = charts.heat_cells(g, MAX_HEATMAP_CELLS)
        st.altair_chart(charts.cut_fill_heatmap(cells, value="net_cy",
                                                title="Fill (blue, +) and cut (red, −) per cell, cu yd"),
                        width="stretch")
        st.caption(f"Cells of {g.dx:g} × {g.dy:g} {'m' if metric else 'ft'}; coordinates from the first node"
                   + ("; shown summed in blocks" if len(cells) < (g.nx - 1) * (g.ny - 1) else "") + ".")
        with st.expander("Method"):
            for n in g.notes:
                st.markdown(f"- {n}")
        out["Grid volumes"] = pd.DataFrame([{k: v for k, v in g.to_dict().items() if k != "notes"}])
        out["Grid cells"] = cells
    else:
        prism = st.checkbox("Prismoidal correction", key="w_vol_prism")
        up = st.file_uploader("Sections CSV: columns station, cut_area, fill_area (feet, square feet)",
                              type=["csv", "txt"], key="w_sections_upload")
        if up is None:
            st.caption("Upload cross-sections to see cut and fill.")
            return out
        data = up.getvalue()
        try:
            s = _sections(hashlib.sha256(data).hexdigest(), up.name, prism, metric, data)
        except (ValueError, OSError) as e:
            st.error(f"{up.name}: {e}")
            return out
        c = st.columns(3)
        c[0].metric("Cut (cu yd)", f"{s.cut_cy:,.2f}")
        c[1].metric("Fill (cu yd)", f"{s.fill_cy:,.2f}")
        c[2].metric("Net (cu yd)", f"{s.net_cy:,.2f}")
        seg = pd.DataFrame(s.to_dict()["segments"])
        st.dataframe(seg, width="stretch", hide_index=True)
        out["Section volumes"] = seg
    return out


def _wesley_hills(exc) -> pd.DataFrame:
    st.subheader("Wesley Hills: building permit as the filling permit (§95-3C(1)), slopes and topsoil (§95-4E)")
    c = st.columns(5)
    L = c[0].number_input("Cellar length (ft)", min_value=0.0, value=40.0, key="w_wh_len")
    W = c[1].number_input("Cellar width (ft)", min_value=0.0, value=30.0, key="w_wh_wid")
    D = c[2].number_input("Cellar depth (ft)", min_value=0.0, value=9.0, key="w_wh_dep")
    f = c[3].number_input("Fill added (cu yd)", min_value=0.0, value=500.0, key="w_wh_fill")
    e = c[4].number_input("Excavated removed (cu yd)", min_value=0.0, value=700.0, key="w_wh_exc")
    r = exc.wesley_hills_building_permit_check(L, W, D, f, e)
    m = st.columns(3)
    m[0].metric("Separate filling permit required", "Yes" if r.separate_permit_required else "No")
    m[1].metric("Limit, 2 × cellar and foundation (cu yd)", f"{float(r.limit_cy):,.2f}")
    m[2].metric("Waiver possible (§95-3D(1))", "Yes" if r.waiver_eligible else "No")
    table = pd.DataFrame([dict(x) for x in r.explanations])
    st.dataframe(table, width="stretch", hide_index=True)
    c = st.columns(4)
    rise = c[0].number_input("Slope rise (ft)", min_value=0.0, value=4.0, key="w_wh_rise")
    run = c[1].number_input("Slope run (ft)", min_value=0.0, value=10.0, key="w_wh_run")
    rock = c[2].checkbox("Fast rock", key="w_wh_rock")
    area = c[3].number_input("Exposed area to topsoil (sq ft)", min_value=0.0, value=5_000.0, key="w_wh_area")
    s = exc.wesley_hills_slope_check(rise, run, rock=rock)
    (st.success if s["ok"] else st.warning)(f"{s['section']}: {'complies' if s['ok'] else 'too steep'} — "
                                            f"{s['explanation']}.")
    st.metric("Topsoil needed, 4 in (cu yd)", f"{float(exc.wesley_hills_topsoil_cy(area)):,.2f}")
    return table


def _penalties(exc) -> pd.DataFrame:
    st.subheader("Penalties (§120-12)")
    c1, c2 = st.columns(2)
    n = c1.number_input("Offence number", min_value=1, value=1, step=1, key="w_exc_offence")
    days = c2.number_input("Days", min_value=1, value=1, step=1, key="w_exc_days")
    p = exc.violation_penalties(int(n), int(days))
    c = st.columns(3)
    c[0].metric("Criminal fine, range", f"{ui.usd(p['criminal_fine_min_total'])} – {ui.usd(p['criminal_fine_max_total'])}")
    c[1].metric("Civil penalty, maximum", ui.usd(p["civil_penalty_max_total"]))
    c[2].metric("Imprisonment, maximum (days)", f"{p['imprisonment_max_days']}")
    for note in p["notes"]:
        st.caption(f"• {note}")
    return pd.DataFrame([{k: (str(v) if not isinstance(v, (int, float, str)) else v)
                          for k, v in p.items() if k != "notes"}])


def body() -> None:
    if not ui.need("excavation"):
        return
    exc = lib.piece("excavation")
    tables: dict[str, pd.DataFrame | None] = {}
    tabs = st.tabs(["Permit", "Volumes", "Review standards", "Wesley Hills", "Penalties"])
    sections = [("Permit items", _permit), (None, None), ("Review standards", _standards),
                ("Wesley Hills", _wesley_hills), ("Penalties", _penalties)]
    for tab, (name, fn) in zip(tabs, sections):
        with tab:
            try:
                if fn is None:
                    tables.update(_volumes())
                else:
                    tables[name] = fn(exc)
            except ValueError as e:  # the module's messages are written for people
                st.error(str(e))
    ui.page_downloads("excavation", tables)


ui.run_page("Excavation", body,
            caption="Excavation and filling: Croton-on-Hudson Chapter 120 and Wesley Hills Chapter 95.")
