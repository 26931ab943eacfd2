"""Excavation & fill: permit triggers (Chapter 120 §120-3A; Wesley Hills §95-3), review standards,
work hours, penalties, and cut/fill volumes from a grid or cross-sections, with a heat map."""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

import altair as alt
import pandas as pd
import streamlit as st

from treecalc.app import state, ui, views
from treecalc.law.registry import with_chapter, with_excavation_input
from treecalc.messages import head, subsection
from treecalc.quantities import RANGES
from treecalc.rules import excavation
from treecalc.rules.excavation import volume_between_files

if TYPE_CHECKING:
    from collections.abc import Sequence

    from streamlit.delta_generator import DeltaGenerator

#: Chapter 120's numbers the help texts state, and the sections the page's headings and labels cite (its entries'
#: and its ``[sections]`` records: data/law/croton_on_hudson/ch120_excavation.toml)
_LAW120 = excavation.LAW


def _foundation_label() -> str:
    """The foundation table's label, citing the building permit that stands as the permit for it."""
    return f"Foundation under a building permit ({_LAW120.provision('building_permit')})"


MAX_HEATMAP_CELLS = 80  # per axis: larger grids are shown block-summed (display only)
VERDICT = {True: "Yes", False: "No", "unknown": "Unknown"}


def compact(x: float, unit: str = "") -> str:
    """A figure that fits a metric card: 1,234.56 up to 999,999.99, then 2.57M / 1.20B."""
    v = float(x)
    for div, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M")):
        if abs(v) >= div:
            return f"{v / div:,.2f}{suffix}{unit}"
    return f"{v:,.2f}{unit}"


def volume_metric(col: Any, label: str, value: float, help: str | None = None) -> None:
    short, exact = compact(value), f"{value:,.2f}"
    tip = " ".join(t for t in (help, None if short == exact else f"Exactly {exact} cu yd.") if t) or None
    col.metric(label, short, help=tip)


def next_workday(today: dt.date | None = None) -> dt.date:
    """Today, or the next Monday if today is a Sunday (the §120-8G check should not open on a Sunday)."""
    d = today or dt.date.today()
    return d + dt.timedelta(days=1) if d.weekday() == 6 else d


def cut_fill_chart(cells: pd.DataFrame, unit: str) -> alt.Chart:
    """Net cut − fill per cell: cut positive (red), fill negative (blue), as the Net figure."""
    m = float(cells["net_cy"].abs().max() or 1.0)
    return (
        alt.Chart(cells, title="Cut (+, red) and fill (−, blue) per cell, cu yd: net = cut − fill", height=420)
        .mark_rect()
        .encode(
            x=alt.X("x:O", title=f"x ({unit})", axis=alt.Axis(labelOverlap=True)),
            y=alt.Y("y:O", title=f"y ({unit})", sort="descending", axis=alt.Axis(labelOverlap=True)),
            color=alt.Color(
                "net_cy:Q", title="cut − fill (cu yd)", scale=alt.Scale(scheme="redblue", domain=[-m, m], reverse=True)
            ),
            tooltip=["x", "y", alt.Tooltip("net_cy:Q", title="cut − fill (cu yd)", format=",.2f")],
        )
    )


def _pairs(df: pd.DataFrame, label: str) -> list[tuple[float, float]]:
    """The (area, depth) rows of an area table; a row with one of the two is refused (ValueError naming the
    table and the row), never dropped: an area left out could turn a permit into none."""
    blank = df[["area_sqft", "depth_ft"]].isna()
    for i in [int(x) for x in df.index[blank.any(axis=1) & ~blank.all(axis=1)]]:
        has, lacks = ("an area", "depth") if blank.at[i, "depth_ft"] else ("a depth", "area")
        raise ValueError(f"{label}, row {i + 1}: {has} and no {lacks}. Give its {lacks}, or delete the row.")
    return [(float(r.area_sqft), float(r.depth_ft)) for r in df.dropna().itertuples()]


def _area_table(label: str, key: str, rows: dict[str, list[float]]) -> pd.DataFrame:
    # not required=True: the browser would hold a row with a required cell empty back from the app, so an
    # area typed without its depth would silently count for nothing; the app refuses it instead (_pairs)
    cfg = {
        "area_sqft": st.column_config.NumberColumn("Area (sq ft)", min_value=0.0, max_value=1e8, format="%.2f"),
        "depth_ft": st.column_config.NumberColumn("Depth (ft)", min_value=0.0, max_value=1000.0, format="%.2f"),
    }
    st.markdown(f"**{label}**")
    return st.data_editor(
        pd.DataFrame({k: pd.Series(v, dtype=float) for k, v in rows.items()}),
        num_rows="dynamic",
        key=key,
        hide_index=True,
        width="stretch",
        column_config=cfg,
    )


def _excavation_laws() -> list[Any]:
    """The laws with an excavation chapter (the registry's records), in the registry's order."""
    return with_chapter("excavation")


def _permit_inputs() -> dict[str, Any]:
    laws = {r.user_spelling: r for r in _excavation_laws()}
    jur = st.radio(
        "Jurisdiction",
        list(laws),
        horizontal=True,
        key="w_exc_jur",
        format_func=lambda k: (
            f"{views.place(laws[k])}, {laws[k].chapters['excavation'].split(views.place(laws[k]) + ' ')[-1]} "
            f"({views.parts(laws[k]).get('excavation_permit', '-')})"
        ),
    )
    c1, c2, c3 = st.columns(3)
    with c1:
        exc_df = _area_table("Excavation areas", "w_exc_areas", {"area_sqft": [600.0], "depth_ft": [3.0]})
    with c2:
        fill_df = _area_table("Fill areas", "w_fill_areas", {"area_sqft": [], "depth_ft": []})
    with c3:
        fnd_df = _area_table(_foundation_label(), "w_exc_found", {"area_sqft": [], "depth_ft": []})
    c1, c2, c3, c4 = st.columns(4)
    law, wall_h = _LAW120, excavation.LAW["retaining_wall_height"]
    why = {
        "depth": f"0: not given ({law.provision('excavation_defined')}: stripping topsoil is excavation, so its volume "
        f"counts toward {law['excavation_volume'].section}).",
        "lot": f"For {law['lowering_area'].section}: {law['lowering_area'].value:,} sq ft or "
        f"{law['lowering_lot_percent'].value}% of "
        "the lot, whichever is less. 0: not given (the answer may then be Unknown).",
        "wall": f"{wall_h.section}: over {wall_h.value.normalize():f} ft needs a building permit. 0: none.",
    }
    strip = ui.number_field(c1, "Topsoil stripped (sq ft)", "earthwork_area_sqft", 0.0, 100.0, "w_exc_strip")
    sdepth = ui.number_field(c2, "Stripped depth (in)", "depth_in", 0.0, 0.5, "w_exc_strip_depth", help=why["depth"])
    lot = ui.number_field(c3, "Lot area (sq ft)", "earthwork_area_sqft", 0.0, 1000.0, "w_exc_lot", help=why["lot"])
    wall = ui.number_field(c4, "Retaining wall height (ft)", "wall_height_ft", 0.0, 0.5, "w_exc_wall", help=why["wall"])
    kw: dict[str, Any] = {
        "excavations": _pairs(exc_df, "Excavation areas"),
        "fills": _pairs(fill_df, "Fill areas"),
        "foundations": _pairs(fnd_df, _foundation_label()),
        "strip_topsoil_sqft": strip,
        "strip_topsoil_depth_in": sdepth if strip and sdepth else None,
        "lot_area_sqft": lot or None,
        "jurisdiction": jur,
        "retaining_wall_height_ft": wall or None,
    }
    if st.checkbox("Topsoil is placed", key="w_exc_place"):
        c1, c2, c3 = st.columns(3)
        kw["topsoil_placement"] = (
            ui.number_field(c1, "Topsoil area (sq ft)", "earthwork_area_sqft", 2_000.0, 100.0, "w_exc_top_area"),
            ui.number_field(c2, "Topsoil depth (in)", "depth_in", 3.0, 0.5, "w_exc_top_depth"),
            c3.checkbox("Seeded and mulched", value=True, key="w_exc_top_seeded"),
        )
    return kw


def show_check(r: Any) -> pd.DataFrame:
    """The verdict, the rules (holds: yes / no / unknown) and the readings of a permit check."""
    c = st.columns(3)
    c[0].metric(
        "Excavation and filling permit required",
        VERDICT[r.permit_required],
        help="Unknown: a rule depends on a fact not given (below)." if r.permit_required == "unknown" else None,
    )
    volume_metric(c[1], "Excavated, these areas (cu yd)", float(r.excavation_cy))
    volume_metric(c[2], "Filled, these areas (cu yd)", float(r.fill_cy))
    for w in [x for x in r.review_standards if "building_permit_required" in x]:  # a wall over the height
        need = bool(w["building_permit_required"])
        st.metric(
            f"Building permit for the retaining wall ({w.get('section', '')})",
            "Required" if need else "Not required",
            help=views.readable(str(w.get("requirement", ""))),
        )
    for m in r.missing_facts:
        st.warning(f"Missing fact — {views.readable(m)}")
    if r.triggers:
        st.markdown("**Items that hold:** " + ", ".join(r.triggers))
    table = pd.DataFrame(
        [
            {
                "Section": e["section"],
                "Holds": {True: "yes", False: "no", None: "unknown"}[e["holds"]],
                "Why": views.readable(e["explanation"]),
            }
            for e in r.explanations
        ]
    )
    if len(table):
        st.dataframe(table, width="stretch", hide_index=True)
    for e in r.exemptions:
        st.info(f"{e.get('section', '')}: {e.get('explanation', e)}")
    w = r.to_dict()["waiver_eligible"]
    if w is not None:  # a law with a Planning Board waiver (Chapter 95) says whether it is possible
        waiver = _cellar_numbers()["waiver_volume"]
        st.caption(
            f"Planning Board waiver ({waiver.section}, under {_num(waiver.value)} cu yd moved): "
            f"{w if isinstance(w, str) else ('possible' if w else 'not possible')}."
        )
    with st.expander("Review standards that apply, readings and notes"):
        for s in r.review_standards:
            st.markdown(f"- **{s.get('section', '')}** {s.get('requirement', s.get('explanation', ''))}")
        for line in [*r.interpretation, *r.notes]:
            st.markdown(f"- {views.readable(line)}")
    return table


def _permit(exc: Any) -> pd.DataFrame | None:
    st.subheader("Is a permit required?")
    r = exc.check_permit(**_permit_inputs())
    return show_check(r)


def _standards(exc) -> pd.DataFrame:
    st.subheader(
        f"Review standards ({_LAW120.provision('review_standards')}) and work hours "
        f"({_LAW120['work_start_hour'].section})"
    )
    c1, c2, c3, c4 = st.columns(4)
    ft, inch = (0.0, float(excavation.MAX_DEPTH_FT)), (0.0, float(excavation.MAX_DEPTH_IN))
    depth = ui.number_field(c1, "Deepest excavation below surrounding grade (ft)", ft, 5.0, 0.5, "w_std_depth")
    water = ui.number_field(c2, "Standing water (ft)", ft, 0.5, 0.1, "w_std_water")
    after = c3.checkbox("Measured after construction", key="w_std_after")
    topsoil = ui.number_field(c4, "Topsoil left (in)", inch, 2.0, 0.5, "w_std_topsoil")
    fence = st.checkbox("A fence with locked gates is in place", value=True, key="w_std_fence")
    rows = exc.review_standards(
        depth, standing_water_ft=water, after_construction=after, topsoil_left_in=topsoil, fence_provided=fence
    )
    table = pd.DataFrame(rows)
    st.dataframe(table, width="stretch", hide_index=True)
    c1, c2 = st.columns(2)
    day = c1.date_input("Work on", value=next_workday(), key="w_std_day")
    at = c2.time_input("at", value=dt.time(9, 30), key="w_std_time", step=900)
    w = exc.work_time_check(dt.datetime.combine(day, at))
    (st.success if w["allowed"] else st.warning)(
        f"{w['section']}: {'allowed' if w['allowed'] else 'not allowed'} — {w['reason']}."
    )
    st.caption(w["interpretation"])
    return table


@st.cache_data(show_spinner=False, max_entries=4)
def _grid(sha: str, name: str, metric: bool, _data: bytes) -> Any:
    path = state.tmp_upload(name, _data)
    try:
        return excavation.volume_from_grid_csv(path, metric=metric)
    finally:
        Path(path).unlink(missing_ok=True)


@st.cache_data(show_spinner=False, max_entries=4)
def _sections(sha: str, name: str, prismoidal: bool, metric: bool, _data: bytes) -> Any:
    path = state.tmp_upload(name, _data)
    try:
        return excavation.volume_from_sections_csv(path, prismoidal, metric=metric)
    finally:
        Path(path).unlink(missing_ok=True)


@st.cache_data(show_spinner=False, max_entries=4)
def _tin(sha: str, names: tuple[str, str], metric: bool, _data: tuple[bytes, bytes]) -> Any:
    paths = [state.tmp_upload(n, d) for n, d in zip(names, _data)]
    try:
        return volume_between_files(paths[0], paths[1], metric=metric)
    finally:
        for p in paths:
            Path(p).unlink(missing_ok=True)


METHODS = ["Grid (borrow-pit)", "Cross-sections (average end area)", "Two surfaces (TIN: points or LandXML)"]


def _load_volume(kind: str, metric: bool) -> tuple[Any, str] | None:
    """The uploaded file(s) for the chosen method, measured; None (with a caption or error) otherwise."""
    if kind == METHODS[0]:
        up = st.file_uploader(
            "Grid CSV: x, y, existing, proposed (or Easting, Northing, EG, FG); regular spacing",
            type=["csv", "txt"],
            key="w_grid_upload",
        )
        ups = [up]
    elif kind == METHODS[1]:
        prism = st.checkbox(
            "Prismoidal (needs cut_mid_area/fill_mid_area or center_height/width columns)", key="w_vol_prism"
        )
        up = st.file_uploader(
            "Sections CSV: station, cut_area, fill_area (feet and square feet; 1+000 stations with metres)",
            type=["csv", "txt"],
            key="w_sections_upload",
        )
        ups = [up]
    else:
        c1, c2 = st.columns(2)
        ups = [
            c1.file_uploader(
                "Existing ground: points (Easting, Northing, Elevation or EG) or LandXML",
                type=["csv", "txt", "xml"],
                key="w_tin_existing",
            ),
            c2.file_uploader(
                "Proposed ground: points (Easting, Northing, Elevation or FG) or LandXML",
                type=["csv", "txt", "xml"],
                key="w_tin_proposed",
            ),
        ]
    files = [u for u in ups if u is not None]
    if len(files) < len(ups):
        st.caption("Upload the file(s) to see cut, fill, the map and whether a permit is needed.")
        return None
    data = [u.getvalue() for u in files]
    sha = state.session_scoped(hashlib.sha256(b"".join(data)).hexdigest())  # this session's upload, not another's
    try:
        if kind == METHODS[0]:
            return _grid(sha, files[0].name, metric, data[0]), files[0].name
        if kind == METHODS[1]:
            return _sections(sha, files[0].name, prism, metric, data[0]), files[0].name
        return _tin(
            sha, (files[0].name, files[1].name), metric, (data[0], data[1])
        ), f"{files[0].name} → {files[1].name}"
    except (ValueError, OSError) as e:
        st.error(f"{', '.join(u.name for u in files)}: {e}")
        return None


def _volumes() -> dict[str, pd.DataFrame | None]:
    st.subheader("Volumes from a grading plan, and the permit they need")
    kind = st.radio("Method", METHODS, horizontal=True, key="w_vol_kind")
    metric = st.checkbox("Metres in (cubic yards out)", key="w_vol_metric")
    out: dict[str, pd.DataFrame | None] = {}
    got = _load_volume(kind, metric)
    if got is None:
        return out
    r, name = got
    c = st.columns(3)
    volume_metric(c[0], "Cut (cu yd)", r.cut_cy)
    volume_metric(c[1], "Fill (cu yd)", r.fill_cy)
    volume_metric(
        c[2],
        "Net (cu yd)",
        r.net_cy,
        help="cut − fill: positive is surplus to export, negative to import (the map's colours use the same sign).",
    )
    if hasattr(r, "cut_fill_map"):
        cells = r.cut_fill_map(MAX_HEATMAP_CELLS)
        st.altair_chart(cut_fill_chart(cells, "m" if metric else "ft"), width="stretch")
        st.caption(f"{name}: cells summed for display; the cells add up to the Net figure.")
        out["Cut and fill map"] = cells
    if hasattr(r, "transitions") and r.transitions:
        st.info(
            "Sections change from cut to fill: zero-area points inserted at the grade line, stations "
            + ", ".join(f"{t['grade_point']:.2f}" for t in r.transitions)
            + "."
        )
    with st.expander("Method"):
        for n in r.notes:
            st.markdown(f"- {n}")
    d = r.to_dict()
    if "segments" in d:
        out["Section volumes"] = pd.DataFrame(d["segments"])
        st.dataframe(out["Section volumes"], width="stretch", hide_index=True)
    out["Volumes"] = pd.DataFrame([{k: v for k, v in d.items() if not isinstance(v, (list, dict))}])
    thresholds = subsection(_LAW120["deep_cut_area"].section)
    st.markdown(f"**Does this grading need a permit?** ({thresholds} from the measured volumes and areas)")
    lot = float(st.session_state.get("w_exc_lot") or 0.0)  # one lot, one area: the one given on the Permit tab
    st.caption(
        f"Lot area: {lot:,.2f} sq ft, as given on the Permit tab."
        if lot
        else "Lot area: not given (give it on the Permit tab; the answer may then be Unknown)."
    )
    check = excavation.check_permit(measured=r.earthwork(), lot_area_sqft=lot or None)
    out["Permit items from the volumes"] = show_check(check)
    return out


def _cellar_law() -> Any:
    """The law whose excavation check reads a cellar (a building permit standing as the filling permit, §95-3C(1))."""
    return with_excavation_input("cellar")[0]


def _cellar_numbers() -> Any:
    """The numbers of that law's excavation chapter the panel's labels state (its law file's entries)."""
    return excavation.chapter(_cellar_law().key).LAW


def _num(x: Any) -> str:
    """A number of the law as written: 2, 4.5 (no trailing zeros)."""
    return f"{x.normalize():f}"


def _cellar_panel(exc) -> pd.DataFrame:
    law = _cellar_numbers()
    st.subheader(
        f"{views.place(_cellar_law())}: building permit as the filling permit ({law['cellar_multiple'].section}), "
        f"slopes and topsoil ({subsection(law['slope_rise'].section)})"
    )
    c: Sequence[DeltaGenerator] = st.columns(5)
    # the maxima of the excavation's own inputs (units.RANGES): a side or a depth of 1,000 ft, and the volume of
    # the largest area at the deepest depth the excavation check takes
    ft, cy = float(excavation.MAX_DEPTH_FT), float(excavation.MAX_VOLUME_CY)
    L = c[0].number_input("Cellar length (ft)", min_value=0.0, max_value=ft, value=40.0, key="w_wh_len")
    W = c[1].number_input("Cellar width (ft)", min_value=0.0, max_value=ft, value=30.0, key="w_wh_wid")
    D = c[2].number_input("Cellar depth (ft)", min_value=0.0, max_value=ft, value=9.0, key="w_wh_dep")
    f = c[3].number_input("Fill added (cu yd)", min_value=0.0, max_value=cy, value=500.0, key="w_wh_fill")
    e = c[4].number_input("Excavated removed (cu yd)", min_value=0.0, max_value=cy, value=700.0, key="w_wh_exc")
    r = exc.wesley_hills_building_permit_check(L, W, D, f, e)
    m = st.columns(3)
    m[0].metric("Separate filling permit required", "Yes" if r.separate_permit_required else "No")
    m[1].metric(
        f"Limit, {_num(law['cellar_multiple'].value)} × cellar and foundation (cu yd)", f"{float(r.limit_cy):,.2f}"
    )
    m[2].metric(f"Waiver possible ({law['waiver_volume'].section})", "Yes" if r.waiver_eligible else "No")
    table = pd.DataFrame([dict(x) for x in r.explanations])
    st.dataframe(table, width="stretch", hide_index=True)
    c = st.columns(4)
    rise = c[0].number_input("Slope rise (ft)", min_value=0.0, max_value=ft, value=4.0, key="w_wh_rise")
    run = c[1].number_input("Slope run (ft)", min_value=0.0, max_value=ft, value=10.0, key="w_wh_run")
    rock = c[2].checkbox("Fast rock", key="w_wh_rock")
    area = c[3].number_input(
        "Exposed area to topsoil (sq ft)",
        min_value=0.0,
        max_value=float(excavation.MAX_AREA_SQFT),
        value=5_000.0,
        key="w_wh_area",
    )
    s = exc.wesley_hills_slope_check(rise, run, rock=rock)
    (st.success if s["ok"] else st.warning)(
        f"{s['section']}: {'complies' if s['ok'] else 'too steep'} — {s['explanation']}."
    )
    st.metric(
        f"Topsoil needed, {_num(law['topsoil_depth'].value)} in (cu yd)",
        f"{float(exc.wesley_hills_topsoil_cy(area)):,.2f}",
    )
    return table


def _penalties(exc) -> pd.DataFrame:
    st.subheader(f"Penalties ({head(_LAW120['fine_first_min'].section)})")
    c1, c2 = st.columns(2)
    # the chapter has a first and a "second and subsequent" offence: any number past 2 reads as the second
    n = c1.number_input("Offence number", min_value=1, max_value=1_000, value=1, step=1, key="w_exc_offence")
    days = c2.number_input("Days", min_value=1, max_value=int(RANGES["days"].high), value=1, step=1, key="w_exc_days")
    p = exc.violation_penalties(int(n), int(days))
    c = st.columns(3)
    c[0].metric(
        "Criminal fine, range", f"{ui.usd(p['criminal_fine_min_total'])} – {ui.usd(p['criminal_fine_max_total'])}"
    )
    c[1].metric("Civil penalty, maximum", ui.usd(p["civil_penalty_max_total"]))
    c[2].metric("Imprisonment, maximum (days)", f"{p['imprisonment_max_days']}")
    for note in p["notes"]:
        st.caption(f"• {note}")
    return pd.DataFrame(
        [{k: (str(v) if not isinstance(v, (int, float, str)) else v) for k, v in p.items() if k != "notes"}]
    )


def body() -> None:
    exc = excavation
    tables: dict[str, pd.DataFrame | None] = {}
    cellar = views.place(_cellar_law())
    tabs = st.tabs(["Permit", "Volumes", "Review standards", cellar, "Penalties"])
    sections = [
        ("Permit items", _permit),
        (None, None),
        ("Review standards", _standards),
        (cellar, _cellar_panel),
        ("Penalties", _penalties),
    ]
    for tab, (name, fn) in zip(tabs, sections):
        with tab:
            try:
                if fn is None or name is None:
                    tables.update(_volumes())
                else:
                    tables[name] = fn(exc)
            except ValueError as e:  # the module's messages are written for people
                st.error(str(e))
    # This page's own tables only: the tree statement and the assessed trees belong to the tree pages.
    ui.downloads(tables, key="excavation", statement=False)


ui.run_page(
    "Excavation",
    body,
    caption=f"Excavation and filling: {' and '.join(r.chapters['excavation'] for r in _excavation_laws())}.",
)
