"""The Permit, Violations and Fund pages and the sidebar, for a survey under Milltown Chapter 201 or Manalapan Chapter
222 (named by the survey's Site sheet, or chosen in the site facts on the Survey page): they name the town's own
law, its sections and its fund (or say the fund is not held), never Croton-on-Hudson's ("Tree Preservation Fund",
"§208-..."), and say "not held" where its text read does not hold a part, never an amount or a "No" for it.

The survey: five removed trees, worked by hand from data/law/milltown/ch201_trees.toml and
data/law/manalapan/ch222_trees.toml:
  tag  DBH    Milltown (Category: trees)         Manalapan (class: trees, share of the set-off)
  A1   5.99   under 6: 0                         >4 to 12: 1 ($350)
  A2   6      Category 1: 1                      >4 to 12: 1 ($350)
  A3   13     Category 2: 2                      >12 to 18: 2 ($700 / 2 = $350)
  A4   23     Category 3: 3                      >18 to 24: 3 ($1,050 / 3 = $350)
  A5   33     Category 4: 4                      >24 to 36: 4 ($1,450 / 4 = $362.50)
  A6   40     retained                           retained
Milltown: 0 + 1 + 2 + 3 + 4 = 10 trees; 4 planted on site, 6 in lieu x $250 = $1,500.
Manalapan: 1 + 1 + 2 + 3 + 4 = 11 trees; 4 planted on site against the dearest shares (A5's four $362.50), 7 in
lieu x $350 = $2,450.
"""

from __future__ import annotations

import io

import pandas as pd
import pytest
import streamlit as st

from tests.helpers.headless import new_app, no_exception, page_path
from treecalc.app import state

ROWS = [("A1", 5.99, "removed"), ("A2", 6, "removed"), ("A3", 13, "removed"), ("A4", 23, "removed")]
ROWS += [("A5", 33, "removed"), ("A6", 40, "retain")]
CSV = ("Tag,Species,DBH (in),Action\n" + "".join(f"{t},Red maple,{d},{a}\n" for t, d, a in ROWS)).encode()
#: the town -> (its name, its permit's words, the trees required, the payment for 6 or 7 trees in lieu, the fund)
TOWNS = {
    "milltown": ("Milltown", "not held for Milltown: see Ch. 201 Regulated Activities", "10", "$1,500.00", "Not held"),
    "manalapan": ("Manalapan", "not held for Manalapan: see § 222-17", "11", "$2,450.00", "Tree Escrow Fund"),
}
#: another law's words that are never on these pages under a New Jersey town
CROTON = ("Tree Preservation Fund", "§208", "Chapter 208", "Croton")


def _site_xlsx(town: str) -> bytes:
    """The survey as a workbook whose Site sheet names the town (the site fact jurisdiction)."""
    buf = io.BytesIO()
    with pd.ExcelWriter(buf, engine="openpyxl") as xw:
        pd.DataFrame(ROWS, columns=["Tag", "DBH (in)", "Action"]).assign(Species="Red maple").to_excel(
            xw, sheet_name="Trees", index=False
        )
        pd.DataFrame({"field": ["jurisdiction"], "value": [town]}).to_excel(
            xw, sheet_name="Site", index=False, header=False
        )
    return buf.getvalue()


def _open(town: str, how: str, page: str, plantable: int | None, monkeypatch) -> tuple:
    """The app on ``page`` with the survey under ``town``: by its Site sheet ("site fact") or by the site facts'
    chooser ("chooser"); the headings the sidebar's navigation was drawn with."""
    headings: list[list[str]] = []
    real = st.navigation

    def spy(pages, *args, **kwargs):
        headings.append(list(pages))
        return real(pages, *args, **kwargs)

    monkeypatch.setattr(st, "navigation", spy)
    at = new_app()
    if how == "site fact":
        at.session_state["tc_source"] = state.make_source("nj.xlsx", _site_xlsx(town))
    else:
        at.session_state["tc_source"] = state.make_source("nj.csv", CSV)
        at.session_state["tc_read_opts"] = {"site": {"jurisdiction": town}}
    if plantable is not None:
        at.session_state[state._OPTS] = {"plantable": plantable}
    at.run()
    no_exception(at)
    at.switch_page(page_path(page)).run()
    no_exception(at)
    return at, headings


def _figures(at) -> dict[str, str]:
    """The page's metrics by their label without its unit and section ("Payment in lieu (USD, ...)")."""
    return {m.label.split(" (")[0]: m.value for m in at.metric}


def _texts(at) -> list[str]:
    """Every text of the page and the sidebar: titles, markdown, captions, alerts, metrics' labels and values,
    widgets' labels and help, tables' cells."""
    out: list[str] = []
    for kind in ("title", "header", "subheader", "markdown", "caption", "warning", "info", "error", "success"):
        out += [str(e.value) for e in getattr(at, kind)]
    out += [f"{m.label} = {m.value}" for m in at.metric]
    for kind in ("radio", "selectbox", "number_input", "text_input", "checkbox", "expander"):
        out += [f"{e.label} {getattr(e, 'help', '') or ''}" for e in getattr(at, kind)]
    for df in at.dataframe:
        out.append(df.value.to_string())
    return out


@pytest.mark.parametrize("how", ["site fact", "chooser"])
@pytest.mark.parametrize("town", list(TOWNS))
@pytest.mark.parametrize("page", ["permit", "violations", "fund"])
def test_the_pages_name_the_towns_law_never_crotons(town, how, page, monkeypatch):
    name, permit, _, _, _ = TOWNS[town]
    at, headings = _open(town, how, page, None, monkeypatch)
    texts = _texts(at)
    said = "\n".join(texts)
    assert len(texts) > 5, texts
    assert not [w for w in CROTON if w in said], said
    assert (
        f"Assessed under **{'Borough of Milltown, NJ, Chapter 201' if town == 'milltown' else 'Township of Manalapan, NJ, Chapter 222'}**"
        in said
    )
    # the sidebar's navigation heads the law's pages with the town's chapter, not Chapter 208
    assert headings and headings[-1][1] == f"{name} Chapter {'201' if town == 'milltown' else '222'}", headings
    metrics = {m.label: m.value for m in at.metric}
    assert metrics, said
    assert not [v for v in metrics.values() if v in ("$0.00", "No", "0")], metrics
    if page != "fund":  # the permit is said not held where a page speaks of it
        assert permit in said, said


@pytest.mark.parametrize("town", list(TOWNS))
def test_the_permit_page_shows_what_the_table_requires_and_costs(town, monkeypatch):
    _, permit, required, payment, _ = TOWNS[town]
    at, _ = _open(town, "chooser", "permit", 4, monkeypatch)
    metrics = _figures(at)
    assert metrics["Replacement trees required"] == required
    assert metrics["Planted on site"] == "4"
    assert metrics["Paid for in lieu"] == str(int(required) - 4)
    assert metrics["Payment in lieu"] == payment
    assert not [k for k in metrics if k.startswith(("Permit required", "Replacement percentage", "Removed value"))]
    said = "\n".join(_texts(at))
    assert f"**Permit:** {permit}" in said
    fund = (
        "Paid into a fund not held (see Ch. 201 Tree Replacement Requirements Table)."
        if town == "milltown"
        else "Paid into the Tree Escrow Fund."
    )
    assert fund in said


@pytest.mark.parametrize("town", list(TOWNS))
def test_the_fund_page_names_the_fund_or_says_it_is_not_held(town, monkeypatch):
    _, _, required, payment, fund = TOWNS[town]
    at, _ = _open(town, "site fact", "fund", 4, monkeypatch)
    metrics = _figures(at)
    assert metrics["Payment in lieu"] == payment
    assert metrics["Trees paid for in lieu"] == str(int(required) - 4)
    assert metrics["Fund paid into"] == fund
    said = "\n".join(_texts(at))
    # neither Croton's fee schedule nor "has no tree fund and no payment in lieu"
    assert "Fee schedule" not in [str(s.value) for s in at.subheader]
    assert "no payment in lieu" not in said and "PLACEHOLDER" not in said


@pytest.mark.parametrize("town", list(TOWNS))
def test_the_violations_page_gives_no_offence_nor_amount(town, monkeypatch):
    name, _, _, _, _ = TOWNS[town]
    at, _ = _open(town, "chooser", "violations", None, monkeypatch)
    metrics = _figures(at)
    assert metrics == {"Trees harmed without a required permit": "Not held", "Permit required": "Not held"}
    said = "\n".join(_texts(at))
    assert f"not held for {name}: see Ch. {'201' if town == 'milltown' else '222'} (penalties)" in said
    assert "no penalty" not in said.lower()
