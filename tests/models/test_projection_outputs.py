"""The 20-year projection with the default mortality and its payback year, where the applicant reads them:
the statement (xlsx, Replacement plan sheet) and the Permit page. A lot of five proposed removals (a
permit under §208-19A(1), 90% replacement under §208-22A), not the bundled sample."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import openpyxl
import pytest

import treecalc
from treecalc.ingest import read_survey
from treecalc.models.projection import PLANTED, REMOVED, projection, summary
from treecalc.report.statement import write_statement

ROOT = Path(__file__).resolve().parents[2]
CSV = (
    "Tag,Species,DBH (in),Action,Condition\n"
    "L1,Acer rubrum,14,Remove,Good\nL2,Quercus rubra,22,Remove,Fair\nL3,Acer saccharum,11,Remove,Good\n"
    "L4,Tilia americana,9,Remove,Good\nL5,Betula lenta,7,Remove,Fair\nL6,Quercus alba,26,Retain,Good\n"
)


def _payback_by_hand(removed: list[float], planted: list[float]) -> int | None:
    # year t sums the benefits of years 1..t, i.e. the values at index 0..t-1; the first t in which the
    # replacements' running total is above the removed trees'
    run_r = run_p = 0.0
    for t in range(1, 21):
        run_r, run_p = run_r + removed[t - 1], run_p + planted[t - 1]
        if run_p > run_r:
            return t
    return None


@pytest.fixture
def lot(tmp_path):
    f = tmp_path / "lot.csv"
    f.write_text(CSV)
    return f


def test_statement_has_the_projection_rate_and_payback(lot, tmp_path):
    a = treecalc.assess(read_survey(lot))
    assert a.replacement.required and a.options["mortality_rate"] == 0.043  # Roman & Scatena's midpoint
    out = tmp_path / "statement.xlsx"
    write_statement(a, out)
    rows = list(openpyxl.load_workbook(io.BytesIO(out.read_bytes()), read_only=True)["Replacement plan"].values)
    first = [r[0] for r in rows]
    assert "20-year projection" in first
    mort = rows[first.index("Mortality")][1]
    assert mort.startswith("4.3% of the trees die each year") and "Roman & Scatena (2011)" in mort
    head = first.index("Years from now")
    assert rows[head][1:3] == (f"{REMOVED} ($/yr)", f"{PLANTED} ($/yr)")
    table = rows[head + 1 : head + 22]
    assert [r[0] for r in table] == list(range(21))
    removed, planted = [float(r[1]) for r in table], [float(r[2]) for r in table]
    # year 0: the five counted trees' annual benefits ($737.77/yr) and the plan's 11 red maples of 2 in
    # at $64.68 a tree = $711.48/yr
    assert a.replacement.plan[0]["count"] == 11
    assert removed[0] == pytest.approx(737.77, abs=0.01) and planted[0] == pytest.approx(11 * 64.68, abs=0.06)
    # the same figures as the chart's (treecalc.models.projection), both series under (1 - 0.043)^t
    df = projection(a, 20)
    for series, got in ((REMOVED, removed), (PLANTED, planted)):
        want = df[df["series"] == series].sort_values("year")["value_usd"].to_numpy(float)
        assert np.allclose(got, want)
    # the payback line says the year the table gives, worked by hand from its running totals
    year = _payback_by_hand(removed, planted)
    assert year is not None and summary(a)["payback_year"] == year
    pay = rows[first.index("Payback")][1]
    assert f"in year {year}" in pay and "4.3% of the trees dying each year" in pay


def test_permit_page_shows_the_projection_rate_and_payback(lot):
    from streamlit.testing.v1 import AppTest

    want = summary(treecalc.assess(read_survey(lot)))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.file_uploader(key="w_upload").set_value(("lot.csv", CSV.encode(), "text/csv")).run()
    at.switch_page("treecalc/app/pages/permit.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert "20 years: replacements against the trees removed" in [s.value for s in at.subheader]
    captions = " ".join(c.value for c in at.caption)
    assert "Mortality: 4.3% of the trees die each year." in captions
    assert f"Payback: {want['payback']}." in captions and f"in year {want['payback_year']}" in captions
    tables = [d.value for d in at.dataframe if "Years from now" in d.value.columns]
    assert tables and list(tables[0]["Years from now"]) == list(range(21))


@pytest.mark.parametrize(
    ("town", "plantable", "said"),
    [
        # Chapter 208 requires a replacement (§208-22A, 90%), all of it paid in lieu: nothing planted to pay back
        (
            "croton-on-hudson",
            0,
            "no payback year: no replacement tree is planted on site (the replacement is paid in lieu)",
        ),
        # La Grange Park § 95.23(I) counts caliper inches: a number of trees, no species and size to value
        (
            "la-grange-park",
            None,
            "no payback year: the replacement is a number of trees, with no species and size to value",
        ),
    ],
)
def test_a_replacement_with_nothing_to_value_is_never_called_no_replacement(lot, town, plantable, said):
    a = treecalc.assess(read_survey(lot), jurisdiction=town, plantable=plantable)
    assert a.replacement.required is True
    got = summary(a)
    assert got["payback_year"] is None and got["payback"] == said
