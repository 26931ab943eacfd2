"""Drawing helpers shared by the pages: error guard, downloads, formatting."""

from __future__ import annotations

import json
import logging
import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd
import streamlit as st

from treecalc.app import state, views
from treecalc.law.access import JURISDICTIONS, jurisdiction_key
from treecalc.law.registry import DEFAULT
from treecalc.quantities import RANGES
from treecalc.report.exports import at_precision

if TYPE_CHECKING:
    from treecalc.assessment import Assessment

log = logging.getLogger("treecalc.app")


#: Metric labels name their unit and section, so they are long: let them wrap instead of ending in "…"
#: (Streamlit keeps them on one line). Values stay on one line; see :func:`money_metric`.
WRAP_METRIC_LABELS = (
    "<style>[data-testid='stMetricLabel'] [data-testid='stMarkdownContainer'], "
    "[data-testid='stMetricLabel'] p {white-space: normal !important; overflow: visible !important;}"
    "</style>"
)


def law_header() -> None:
    """Which law the survey is assessed under, in the page's header: the survey's jurisdiction site fact, or
    the law assumed when it names none (change it in the site facts on the Survey page)."""
    try:
        sv = state.survey()
        j = (getattr(sv, "site", None) or {}).get("jurisdiction")
        key = jurisdiction_key(j) if j else DEFAULT
        how = "the survey's site facts" if j else "assumed: the survey names no jurisdiction"
        name = JURISDICTIONS.get(key, key)
    except Exception:  # noqa: BLE001 - no survey yet, or a name the assessment will refuse in its own words
        return
    st.markdown(f":material/gavel: Assessed under **{name}** ({how}; set it in the site facts on the Survey page).")


def ask_action(headers: tuple[str, ...]) -> None:
    """Ask which of the columns that could each be the action is; the survey is read again with the answer (the
    column map's "Read as" action, as the Columns tab on the Survey page sets it)."""
    choice = st.radio(
        "Which column says what is to be done to each tree?", list(headers), index=None, key="w_action_column"
    )
    if st.button("Read the survey with this column as the action", disabled=choice is None, key="w_action_apply"):
        mapping = dict(state.read_opts().get("column_map", {}))
        mapping[str(choice)] = "action"
        state.read_opts()["column_map"] = mapping
        st.rerun()


def run_page(
    title: str, body: Callable[[], None], *, caption: str | Callable[[], str | None] | None = None, law: bool = False
) -> None:
    """Draw a page; any error becomes a message (never a traceback). ``law``: a page about the survey's trees,
    whose header says which law they are assessed under. ``caption``: under the title; a function of the survey's
    law gives it (None: no caption), so that it cites that law, not the default's.

    Streamlit's own control flow (``st.rerun``, ``st.stop``) derives from
    ``BaseException`` and passes through.
    """
    st.html(WRAP_METRIC_LABELS)
    # the page's name as other pages' texts call it ("the Unit cost ... on the Permit page"): views.readable
    # leaves " on the Permit page" out on the Permit page itself
    st.session_state["tc_page_name"] = title.split()[0]
    st.title(title)
    if callable(caption):
        try:
            caption = caption()
        except Exception:  # noqa: BLE001 - no survey yet: the body says why
            caption = None
    if caption:
        st.caption(caption)
    head = st.container() if law else None  # filled once the body ran: an upload on this run is the survey
    try:
        body()
    except state.ActionChoice as e:  # which column is the action is the user's to say, before any figure
        st.error(str(e))
        ask_action(e.headers)
    except state.AppError as e:
        st.error(str(e))
    except Exception as e:  # noqa: BLE001 - the user sees a message, the log keeps the traceback
        log.exception("page %s failed", title)
        st.error(
            f"Something went wrong on this page: {type(e).__name__}: {views.readable(str(e))}. "
            "The other pages still work; try another input or the bundled sample."
        )
    if head is not None:
        with head:
            law_header()
            try:
                outside = state.outside_fee_schedule()
            except state.AppError:
                outside = None  # the register could not be opened: the body said so
            if outside:
                st.warning(outside, icon=":material/priority_high:")


#: Below this width (px) the sidebar covers the page: it is closed once a page is chosen in it
PHONE_PX = 640

_CLOSE_SIDEBAR = """<style>[data-testid="stElementContainer"]:has(#tc-close-sidebar) {display: none}</style>
<script id="tc-close-sidebar">
(() => {
const doc = document;
const page = "%(page)s";
if (!doc.__treecalcCloseSidebar) {
  // Streamlit's sidebar is closed only by its own collapse button (its state is React's, kept in
  // localStorage): the button is clicked while the sidebar is still open (data-collapsed) 0.3 s after a page
  // was chosen, and again every 2 s while it stays open (a loaded machine can be seconds late to draw the
  // click). It stays armed until the sidebar is closed or opened on purpose, however slow the page's run.
  let until = 0, openSince = 0;
  const step = () => {
    const s = doc.querySelector('[data-testid="stSidebar"]');
    if (!until || Date.now() > until || !s || s.getAttribute("data-collapsed") === "true") { until = 0; return; }
    const b = doc.querySelector('[data-testid="stSidebarCollapseButton"] button');
    if (b && Date.now() - openSince >= 2000) {
      b.click();
      openSince = Date.now();
    }
    setTimeout(step, 250);
  };
  doc.__treecalcCloseSidebar = () => {
    if (window.innerWidth > %(phone)d) return;
    if (!until) setTimeout(step, 250);
    until = Date.now() + 120000;
    openSince = Date.now() - 1700;  // Streamlit's own toggle (a phone's browser) shows within 0.3 s
  };
  doc.addEventListener("click", (e) => {
    if (e.target.closest('[data-testid="stSidebarNav"] a')) doc.__treecalcCloseSidebar();
    else if (e.target.closest('[data-testid="stExpandSidebarButton"]')) until = 0;  // opened on purpose
  }, true);
} else if (doc.__treecalcPage !== page) {
  // a run drew another page than this document last drew (a link clicked before this script was there, a
  // link in the page): this is read in the browser, not from a run that may never have finished
  doc.__treecalcCloseSidebar();
}
doc.__treecalcPage = page;
})();
</script>"""


def close_sidebar_on_phone(page: str = "") -> None:
    """On a phone the sidebar covers the page and stayed open after a page was chosen in it: it is closed when
    a page's link is clicked and when the page drawn is another than the last this browser drew (a listener and
    a function on the app's document, added once; no network, no library). ``page`` names the page this run
    draws. Call it before the page runs: a run stopped by the next click (a loaded server, a quick user) has
    put the listener in place already, and its text changes only with the page, so that it runs again only on
    another page."""
    script = _CLOSE_SIDEBAR % {"phone": PHONE_PX, "page": json.dumps(page)[1:-1]}
    st.html(script, unsafe_allow_javascript=True)  # our own constant script; the page name is ours, not input


def page_icon() -> Any:
    """The browser tab's icon, drawn here (a tree: green crown, brown trunk) so that no icon font or emoji
    image is fetched from another host: the app runs without a network."""
    from PIL import Image, ImageDraw  # optional dependency: Pillow ships with streamlit ([app] extra)

    img = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rectangle((28, 38, 36, 60), fill=(120, 80, 40, 255))
    draw.ellipse((8, 4, 56, 46), fill=(0, 158, 115, 255))  # Okabe & Ito bluish green
    return img


def md_text(s: str) -> str:
    """``s`` shown as itself in Markdown: a file name like ``![x](http://…).csv`` is not an image to fetch."""
    return re.sub(r"([\\`*\[\]<>()!|~$])", r"\\\1", str(s))


def _number(x: Any) -> float | str:
    """``x`` as a float to format, or the text to show instead: "—" for None and for a number not set
    (NaN, e.g. an empty cell of a frame) or infinite, a non-number as it is."""
    if x is None:
        return "—"
    try:
        v = float(x)
    except (TypeError, ValueError):
        return str(x)
    return v if math.isfinite(v) else "—"


def usd(x: Any, cents: bool = False) -> str:
    """A dollar amount as people read it (``$1,234``, ``$1,234.56``; ``-$950``: the sign before the dollar
    sign, as :func:`compact_usd` writes it; "—" when not set)."""
    v = _number(x)
    if isinstance(v, str):
        return v
    sign = "-" if v < 0 and round(v, 2 if cents else 0) != 0 else ""
    return sign + (f"${abs(v):,.2f}" if cents else f"${abs(v):,.0f}")


def compact_usd(x: Any) -> str:
    """A dollar amount in three significant figures with a unit: ``$2.57M``, ``$28.4K``, ``$940``.

    For headline figures that must fit a narrow column (1,100 px, a phone);
    :func:`money_metric` puts the exact figure in the help text beside it.
    """
    v = _number(x)
    if isinstance(v, str):
        return v
    sign, a = ("-" if round(v) < 0 else ""), abs(v)  # -$4.5M as usd() writes -$950; -0.4 is $0, not -$0
    for div, unit in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")):
        if a >= div * 0.9995:  # 999,950 is $1.00M, not $1000K
            return f"{sign}${a / div:.3g}{unit}"
    return f"{sign}${a:,.0f}"


#: Longest headline figure shown in full; a longer one is shown compact (``$2.57M``). Three metrics to a
#: row at 1,100 px leave a column about 11 characters of the metric font wide (measured in Chromium).
HEADLINE_CHARS = 10


def money_metric(
    where: Any,
    label: str,
    x: Any,
    *,
    cents: bool = True,
    help: str | None = None,
    max_chars: int = HEADLINE_CHARS,
    compact: bool | None = None,
) -> None:
    """``st.metric`` of a dollar amount that fits its column: compact when the full figure is long (or when
    ``compact`` says so: the tiles of a row are written alike, :func:`money_row`), the exact figure always first in
    the help text ("Exactly $2,566,123.45.")."""
    full = usd(x, cents=cents)
    short = len(full) > max_chars if compact is None else compact
    exact = f"Exactly {full}." if _number(x) != "—" else None
    words = " ".join(w for w in (exact, help) if w) or None
    where.metric(label, compact_usd(x) if short else full, help=words)


def number_field(
    where: Any, label: str, within: str | tuple[float, float], value: Any, step: float, key: str, **more: Any
) -> Any:
    """A labelled ``number_input`` bounded by its range: a kind of :data:`treecalc.quantities.RANGES` (the range
    the library and the CLI flag check, whole kinds as ints) or ``(low, high)`` for an input the library
    bounds nowhere else. ``more``: ``help``, ``format``, ``placeholder``."""
    if isinstance(within, str):
        r = RANGES[within]
        low, high = (int(r.low), int(r.high)) if r.whole else (float(r.low), float(r.high))
    else:
        low, high = within
    return where.number_input(label, min_value=low, max_value=high, value=value, step=step, key=key, **more)


def drawn_from(**more: Any) -> str:
    """What a table of the survey's trees was drawn from, as a key to compare: the survey (file and read
    options), the actions changed so far and ``more`` (the page's own state); a change redraws the table."""
    src = state.source()
    return state._canon(
        {"survey": src.sha256 if src else None, "read": state.read_opts(), "actions": state.opt("actions"), **more}
    )


def money_row(
    where: Sequence[Any],
    items: Sequence[tuple[str, Any, str | None] | None],
    *,
    cents: bool = True,
    max_chars: int = HEADLINE_CHARS,
) -> None:
    """(label, amount, help) as dollar metrics (:func:`money_metric`) side by side, one to a column of ``where``;
    ``None`` leaves its column empty (a figure the law does not reach). The row is written in one format: every
    figure in full when each fits its column, every one compact when one does not ("$102K" beside "$90,000.00"
    reads as two kinds of number)."""
    shown = [item for item in items if item is not None]
    compact = any(len(usd(item[1], cents=cents)) > max_chars for item in shown)
    for col, item in zip(where, items):
        if item is not None:
            money_metric(col, item[0], item[1], cents=cents, help=item[2], compact=compact)


def alternative_22f(where: Any, a: Assessment) -> None:
    """The §208-22F payment alternative as a headline (money), with its calculation under it: after a
    violation the applicant may pay the Tree Preservation Fund instead of replanting."""
    item = alternative_22f_item(a)
    if item is not None:
        money_row([where], [item])


def alternative_22f_item(a: Assessment) -> tuple[str, Any, str] | None:
    """The §208-22F payment alternative as a tile of :func:`money_row` (None when the law does not reach it). Its
    label says its basis (the law's percentage of the harmed trees' capital value, :func:`alternative_basis`): the
    page beside it may show annual benefits, and a payment is never an annual figure."""
    alt = a.fund.alternative_22f_usd
    if alt is None:
        return None
    f = views.cite("replacement.violation_percent", a)
    return (
        f"Or pay instead of replacing: {alternative_basis(a)} (USD, {f})",
        alt,
        f"{f}: instead of the replacement trees the applicant may pay the Tree Preservation Fund this sum. "
        + a.fund.alternative_22f_calculation,
    )


def alternative_basis(a: Assessment) -> str:
    """What the §208-22F payment is of, in words: "120% of the appraised value" (the law's percentage in force on
    the assessment's date and the fee schedule's capital basis, as the law engine's calculation states them)."""
    how = a.fund.alternative_22f_calculation or ""
    m = re.match(r"([\d.]+%) of .*?capital basis (appraised|cumulative:(\d+))", how)
    if m is None:  # a calculation said otherwise: its words stand in the help; the label names the section only
        return "the harmed trees' value"
    basis = "appraised value" if m.group(2) == "appraised" else f"value of {m.group(3)} years' benefits"
    return f"{m.group(1)} of the {basis}"


def num(x: Any, digits: int = 0) -> str:
    v = _number(x)
    return v if isinstance(v, str) else f"{v:,.{digits}f}"


def slug(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", s.lower()).strip("_")


def csv_bytes(df: pd.DataFrame) -> bytes:
    """A table as UTF-8 CSV (with BOM so that Excel reads accents).

    Text cells that a spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``, a tab or line break first,
    and not a number) get a leading apostrophe: CSV injection (:func:`treecalc.report.xlsx.csv_frame`, the one
    guard of every CSV written); a number, a credit of "-229.52" among them, stays a number. A table labelled from the schema
    (:func:`views.labelled`: the trees, benefits, plan and penalty tables) writes each number at its column's
    precision (DBH to 0.1 in, dollars to the cent: :func:`treecalc.report.exports.at_precision`); any other table (the
    water account, an excavation's volumes and grid) is written as computed.
    """
    from treecalc.report.xlsx import csv_frame  # heavy: xlsxwriter, loaded only when this runs

    names = df.attrs.get(views.COLUMN_NAMES)
    out = df if names is None else at_precision(df, names)
    return csv_frame(out).to_csv(index=False).encode("utf-8-sig")


def _statement_or_note(job: Callable[[], bytes]) -> Callable[[], bytes]:
    """The deferred download of the statement ``job`` (taken in the script run: see ``state.statement_job``)."""

    def data() -> bytes:
        try:
            return job()
        except Exception as e:  # noqa: BLE001 - a download cannot show st.error
            log.exception("statement failed")
            return f"The Excel statement could not be made: {e}".encode()

    return data


def _csv_job(df: pd.DataFrame) -> Callable[[], bytes]:
    """The CSV of ``df``, made when the user clicks (a 20,000-row table is not written on every rerun)."""
    return lambda: csv_bytes(df)


def downloads(tables: Mapping[str, pd.DataFrame | None], *, key: str, statement: bool = True) -> None:
    """The Excel statement of the current assessment and the page's tables as CSV."""
    st.divider()
    st.subheader("Downloads")
    n = len([t for t in tables.values() if t is not None]) + int(statement)
    cols = [c for _ in range(-(-n // 2)) for c in st.columns(2)]  # two to a row: labels stay whole at 1,100 px
    i = 0
    if statement:
        with cols[0]:
            why = "not available yet"
            try:
                job = state.statement_job()
                if job is not None:
                    state.assessment()  # memoised: made for the page already. A failed one has no statement
            except state.AppError as e:
                job, why = None, "the assessment could not be made"  # the page says why, in full
                st.caption(f"Excel statement: {e}")
            if job is None:
                st.button(f"Excel statement ({why})", disabled=True, key=f"{key}_stmt_na")
            else:
                src = state.source()
                stem = slug(src.name.rsplit(".", 1)[0]) if src else "survey"
                sheets = "Summary, trees, replacement plan, fund, penalties, rejected rows, method & sources"
                xlsx = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                download(
                    st,
                    "Excel statement",
                    _statement_or_note(job),
                    f"statement_{stem}.xlsx",
                    xlsx,
                    f"{key}_stmt",
                    icon="table_view",
                    help=sheets,
                )
        i = 1
    for name, df in tables.items():
        if df is None:
            continue
        with cols[i]:
            download(st, f"{name} (CSV)", _csv_job(df), f"{slug(name)}.csv", "text/csv", f"{key}_{slug(name)}_csv")
        i += 1


def download(
    where: Any,
    label: str,
    data: Any,
    file_name: str,
    mime: str,
    key: str,
    *,
    icon: str = "download",
    help: str | None = None,
) -> None:
    """A download button that leaves the page as it is (``on_click="ignore"``: no rerun, the widgets keep their
    values); ``icon`` a Material icon name."""
    where.download_button(
        label,
        data=data,
        file_name=file_name,
        mime=mime,
        key=key,
        on_click="ignore",
        icon=f":material/{icon}:",
        help=help,
    )


def page_downloads(key: str, extra: Mapping[str, pd.DataFrame | None] | None = None) -> None:
    """Downloads for a page: the statement, the assessment's trees and the page's own tables."""
    tables: dict[str, pd.DataFrame | None] = {}
    try:
        a = state.assessment()
        tables["Assessed trees"] = views.labelled(views.trees_as_held(a), a)
    except Exception:  # noqa: BLE001 - the page has already said why
        pass
    tables.update(extra or {})
    downloads(tables, key=key)


def basis_words(a: Any) -> str:
    """The value basis an assessment's figures are on, in words."""
    return str(a.options.get("value_basis_label", a.options.get("value_basis")))


def jurisdiction_note(a: Any, basis: bool = True) -> None:
    """The value basis the page's figures are on (``basis``: False where the page says it beside its answer),
    and the law's own note. Which law applies is said once, in the page's header (:func:`law_header`): a
    second "Law applied" line said the same thing twice."""
    if basis:
        st.caption(f"Value basis: {basis_words(a)}.")
    summary = getattr(a, "summary", None)  # the law's own figures (treecalc.results.ChapterSummary)
    if summary is not None and summary.note:
        st.info(summary.note)
    # what the assessment warns of beyond the survey's reading (shown on the Survey page): a column whose header
    # says another number than the law's, the zone the trees to be planted are valued in, a fact no law applied reads
    read = set(getattr(getattr(a, "survey", None), "warnings", None) or [])
    said = [w for w in a.warnings or [] if w not in read]
    if said:
        with st.expander(f"Warnings of this assessment ({len(said)})", expanded=False):
            for w in said:
                st.caption(f"• {views.readable(w)}")
