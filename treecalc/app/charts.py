"""Altair charts of tables the library returns (no computation beyond grouping)."""

from __future__ import annotations

import textwrap

import altair as alt
import pandas as pd

#: Okabe & Ito (2008), "Color Universal Design": eight colours told apart with every common colour-vision
#: deficiency (protan, deutan, tritan). Categories take them in this order.
OKABE_ITO = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000"]

BENEFIT_LABELS = {
    "usd_stormwater": "Stormwater",
    "usd_energy": "Energy",
    "usd_air_quality": "Air quality",
    "usd_co2": "CO₂",
    "usd_property": "Property / aesthetic",
}


def value_by_species(
    df: pd.DataFrame, species_col: str, value_col: str, *, top: int = 20, title: str = "Annual benefits by species"
) -> alt.Chart:
    g = (
        df.groupby(species_col, dropna=False)[value_col]
        .agg(["sum", "count"])
        .reset_index()
        .rename(columns={species_col: "Species", "sum": "Value (USD/yr)", "count": "Trees"})
        .sort_values("Value (USD/yr)", ascending=False)
        .head(top)
    )
    g["Species"] = g["Species"].astype(str)
    return (
        alt.Chart(g, title=title)
        .mark_bar(color="#2e7d32")
        .encode(
            x=alt.X("Value (USD/yr):Q", axis=alt.Axis(format="$,.0f")),
            y=alt.Y("Species:N", sort="-x"),
            tooltip=["Species", alt.Tooltip("Value (USD/yr):Q", format="$,.2f"), "Trees"],
        )
    )


def benefits_by_category(df: pd.DataFrame) -> alt.Chart:
    cols = [c for c in BENEFIT_LABELS if c in df]
    g = pd.DataFrame({"Benefit": [BENEFIT_LABELS[c] for c in cols], "USD/yr": [float(df[c].sum()) for c in cols]})
    return (
        alt.Chart(g, title="Annual benefits by category", description=_describe(g, "Benefit", "USD/yr"))
        .mark_arc(innerRadius=60)
        .encode(
            theta="USD/yr:Q",
            color=alt.Color(
                "Benefit:N",
                sort=list(g["Benefit"]),
                scale=alt.Scale(domain=list(g["Benefit"]), range=OKABE_ITO[: len(g)]),
            ),
            tooltip=["Benefit", alt.Tooltip("USD/yr:Q", format="$,.2f")],
        )
    )


def _describe(g: pd.DataFrame, name: str, value: str) -> str:
    """A one-line text alternative of a chart of ``g`` (the chart's ARIA description)."""
    return "; ".join(f"{n}: ${v:,.0f}" for n, v in zip(g[name], g[value]))


def category_table(df: pd.DataFrame) -> pd.DataFrame:
    """The donut's numbers: annual benefits by category (USD/yr) and their share."""
    cols = [c for c in BENEFIT_LABELS if c in df]
    v = [float(df[c].sum()) for c in cols]
    tot = sum(v) or 1.0
    return pd.DataFrame({"Benefit": [BENEFIT_LABELS[c] for c in cols], "USD/yr": v, "Share": [x / tot for x in v]})


def dbh_distribution(df: pd.DataFrame, dbh_col: str = "dbh_in") -> alt.Chart:
    d = pd.DataFrame({"DBH (in)": pd.to_numeric(df[dbh_col], errors="coerce")}).dropna()
    return (
        alt.Chart(d, title="DBH distribution")
        .mark_bar(color="#6d4c41")
        .encode(
            x=alt.X("DBH (in):Q", bin=alt.Bin(step=4), title="DBH (in), 4-inch classes"),
            y=alt.Y("count():Q", title="Trees"),
            tooltip=[alt.Tooltip("count():Q", title="Trees")],
        )
    )


def projection(
    df: pd.DataFrame,
    *,
    x: str = "year",
    y: str = "value_usd",
    series: str = "series",
    title: str = "Projected value over 20 years",
) -> alt.Chart:
    # the legend under the plot, one series a line, never cut: on a phone's 390 px a legend at the right
    # took half the width and cut the series' names; the title wraps at its words
    legend = alt.Legend(orient="bottom", direction="vertical", labelLimit=0, title=None)
    return (
        alt.Chart(df, title=alt.TitleParams(_wrap(title), anchor="start"))
        .mark_line(point=True)
        .encode(
            x=alt.X(f"{x}:Q", title="Years from now"),
            y=alt.Y(f"{y}:Q", title="Value (USD)", axis=alt.Axis(format="$,.0f")),
            color=alt.Color(f"{series}:N", legend=legend, scale=alt.Scale(range=[OKABE_ITO[5], OKABE_ITO[4]])),
            strokeDash=alt.StrokeDash(f"{series}:N", legend=legend),  # told apart without colour too
            tooltip=[series, x, alt.Tooltip(f"{y}:Q", format="$,.2f")],
        )
        .properties(height=320)
    )


def _wrap(text: str, width: int = 34) -> list[str]:
    """A chart title in lines of at most ``width`` characters, broken at spaces (Vega-Lite draws a list of
    lines; one long line ran off a phone's screen)."""
    return textwrap.wrap(text, width) or [text]
