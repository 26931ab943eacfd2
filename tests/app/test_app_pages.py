"""Every page of the app, headless (Streamlit ``AppTest``), on the sample and on a broken file.

The numbers a page shows (its ``st.metric`` values) must equal what the
library returns for the same input, and no page may raise.
"""

from __future__ import annotations

import io
import re

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers.headless import new_app, no_exception, page_path

PAGES = [page_path(name) for name in ("survey", "benefits", "permit", "violations", "fund", "water", "excavation")]


def _app() -> AppTest:
    return new_app().run()


def _ok(at: AppTest, *, errors: bool = False) -> None:
    no_exception(at)
    if not errors:
        assert not at.error, [e.value for e in at.error]


def metrics(at: AppTest) -> dict[str, str]:
    """Metric values by label, and by the label without its "(unit, section)" suffix.

    A dollar headline carries the exact figure first in its help ("Exactly $2,566,123.45."), compact or not (a
    row's tiles are all compact when one does not fit): that is the value returned, after checking that a compact
    form is the exact figure rounded.
    """
    out = {}
    for m in at.metric:
        value = m.value
        exact = re.match(r"Exactly (\S+)\.(?:\s|$)", m.proto.help or "")
        if exact:
            from treecalc.app.ui import compact_usd

            if value != exact.group(1):
                assert compact_usd(amount(exact.group(1))) == value, (m.label, value, exact.group(1))
            value = exact.group(1)
        out[m.label] = value
        out.setdefault(re.sub(r"\s*\([^()]*§[^()]*\)$", "", m.label), value)
    return out


def amount(text: str) -> float:
    m = re.search(r"-?[\d,]+(?:\.\d+)?", str(text))
    assert m, f"no number in {text!r}"
    return float(m.group(0).replace(",", ""))


@pytest.fixture(scope="module")
def sample():
    from treecalc.ingest import read_survey
    from treecalc.reference.data import SAMPLE_SURVEY

    return SAMPLE_SURVEY, read_survey(SAMPLE_SURVEY)


@pytest.fixture(scope="module")
def expected(sample):
    from treecalc.assessment import assess

    return assess(sample[1])


# --- every page renders on the sample -------------------------------------------


@pytest.mark.parametrize("page", PAGES)
def test_page_renders_on_the_sample(page, sample):
    at = _app()
    _ok(at)
    at.switch_page(page).run()
    _ok(at)
    assert at.title, "the page drew nothing"
    assert not at.info or all("Not available yet" not in i.value for i in at.info), [i.value for i in at.info]


def test_survey_page_counts_equal_read_survey(sample):
    path, sv = sample
    at = _app()
    m = metrics(at)
    assert amount(m["Rows read"]) == sv.rows_read
    assert amount(m["Trees"]) == len(sv.trees)
    assert amount(m["Rejected rows"]) == len(sv.rejected)
    assert sv.rows_read == len(sv.trees) + len(sv.rejected)
    assert any(path.name in md.value for md in at.markdown)


def test_benefits_page_totals_equal_compute_benefits(sample, expected):
    from treecalc import compute_benefits
    from treecalc.models.benefits import shown_dollars

    ben = shown_dollars(compute_benefits(sample[1].trees))
    at = _app()
    at.switch_page("treecalc/app/pages/benefits.py").run()
    _ok(at)
    m = metrics(at)
    # one figure per total: each tree's total to the cent (as the law engine values it) and its parts the cents
    # that add up to it, then summed; the same as the assessment's annual values summed ("All trees on this basis")
    assert amount(m["Total (USD/yr)"]) == pytest.approx(ben["usd_total_annual"].sum(), abs=0.005)
    assert amount(m["Total (USD/yr)"]) == pytest.approx(float(expected.trees["value_usd"].sum()), abs=0.005)
    assert amount(m["Stormwater (USD/yr)"]) == pytest.approx(ben["usd_stormwater"].sum(), abs=0.005)
    parts = ("Stormwater", "Energy", "Air quality", "CO₂", "Property")
    assert round(sum(amount(m[f"{p} (USD/yr)"]) for p in parts), 2) == amount(m["Total (USD/yr)"])


def test_benefits_sidebar_price_reaches_the_numbers(sample):
    from treecalc import compute_benefits

    at = _app()
    at.switch_page("treecalc/app/pages/benefits.py").run()
    at.number_input(key="w_home_price").set_value(250_000.0).run()
    _ok(at)
    from treecalc.models.benefits import shown_dollars

    ben = shown_dollars(compute_benefits(sample[1].trees, home_price_usd=250_000.0))
    # each tree's dollars to the cent as shown, then summed (the page's one figure per total)
    assert amount(metrics(at)["Property (USD/yr)"]) == pytest.approx(ben["usd_property"].sum(), abs=0.005)


def _permit_numbers(at: AppTest) -> tuple[float, float]:
    m = metrics(at)
    return amount(m["Replacement trees required"]), amount(m["Payment in lieu to the Tree Preservation Fund"])


def test_permit_page_equals_assess(expected):
    at = _app()
    at.switch_page("treecalc/app/pages/permit.py").run()
    _ok(at)
    trees, fund = _permit_numbers(at)
    assert trees == expected.replacement.trees_needed
    assert fund == pytest.approx(float(expected.fund.fund_in_lieu_usd), abs=0.005)
    m = metrics(at)
    assert amount(m["Required value"]) == pytest.approx(float(expected.replacement.required_value_usd), abs=0.005)
    assert amount(m["Removed value"]) == pytest.approx(float(expected.replacement.removed_value_usd), abs=0.005)


def test_permit_page_replacement_species_and_plantable(sample):
    from treecalc.assessment import assess

    at = _app()
    at.switch_page("treecalc/app/pages/permit.py").run()
    at.selectbox(key="w_repl_species").set_value("QURU").run()
    at.radio(key="w_plantable_kind").set_value("A number of trees").run()
    at.number_input(key="w_plantable").set_value(2).run()
    _ok(at)
    want = assess(sample[1], replacement_species="QURU", plantable=2)
    trees, fund = _permit_numbers(at)
    assert trees == want.replacement.trees_needed
    assert fund == pytest.approx(float(want.fund.fund_in_lieu_usd), abs=0.005)
    assert amount(metrics(at)["Trees planted"]) == want.replacement.trees_planted


def test_violation_page_equals_assess(sample):
    from treecalc.assessment import assess

    at = _app()
    at.switch_page("treecalc/app/pages/violations.py").run()
    at.radio(key="w_violation").set_value("Yes").run()
    at.radio(key="w_pending").set_value("Yes").run()
    at.number_input(key="w_days").set_value(3).run()
    _ok(at)
    want = assess(sample[1], violation=True, application_pending=True, continuing_days=3)
    m = metrics(at)
    assert amount(m["Civil penalty, maximum"]) == pytest.approx(float(want.penalties.civil_penalty_max_usd), abs=0.005)
    assert amount(m["Criminal fine, maximum"]) == pytest.approx(float(want.penalties.criminal_fine_max_usd), abs=0.005)
    assert m["Doubled (§208-29B(7))"] == ("Yes" if want.penalties.doubled else "No")
    # the options follow the user to the permit page: 120% after a violation
    at.switch_page("treecalc/app/pages/permit.py").run()
    _ok(at)
    trees, fund = _permit_numbers(at)
    assert trees == want.replacement.trees_needed
    assert fund == pytest.approx(float(want.fund.fund_in_lieu_usd), abs=0.005)


@pytest.fixture
def engineer(tmp_path, monkeypatch):
    """A register of this test's own (TREECALC_DB) with an engineer, and the app's session token for them."""
    from treecalc.register import Register, auth

    url = f"sqlite:///{tmp_path / 'register.db'}"
    monkeypatch.setenv("TREECALC_DB", url)
    reg = Register(url)
    reg.add_user("eng", "engineer", "correct horse battery", by="setup")
    return reg, auth.sign_in(reg, "eng", "correct horse battery")[0]


def test_fund_page_fee_schedule(sample, engineer):
    import datetime as dt

    from treecalc.assessment import assess
    from treecalc.register import fees

    reg, token = engineer
    at = _app()
    at.switch_page("treecalc/app/pages/fund.py").run()
    # a visitor not signed in sees the schedule in force and no control
    assert not [w for w in at.number_input if w.key == "w_fee_per_tree"]
    assert any("PLACEHOLDER" in m.value for m in at.main.markdown)
    at.session_state["tc_staff_token"] = token
    at.run()
    # a $0 fee made every page show the assessment's refusal: the control's floor is one cent
    assert at.number_input(key="w_fee_per_tree").min == 0.01
    at.number_input(key="w_fee_per_tree").set_value(700.0)
    at.date_input(key="w_fee_resolution_date").set_value(dt.date(2026, 3, 1))
    at.button(key="FormSubmitter:w_fee_record-Record the schedule").click().run()
    _ok(at, errors=True)
    (recorded,) = fees.history(reg)
    want = assess(sample[1], fee_schedule_in_force=fees.as_option(recorded))
    assert want.fund.fee_per_tree_usd == 700.0
    m = metrics(at)
    assert amount(m["Payment in lieu to the Tree Preservation Fund"]) == pytest.approx(
        float(want.fund.fund_in_lieu_usd), abs=0.005
    )


def test_fund_page_records_a_schedule_with_its_board_resolution_date(sample, engineer):
    import datetime as dt

    from treecalc.register import fees

    reg, token = engineer
    fees.record(reg, by="eng", resolution_date="2026-03-01", fee_per_tree_usd="600")
    at = _app()
    at.session_state["tc_staff_token"] = token
    at.switch_page("treecalc/app/pages/fund.py").run()
    at.number_input(key="w_fee_per_tree").set_value(650.0)
    at.date_input(key="w_fee_resolution_date").set_value(dt.date(2026, 6, 1))
    at.text_input(key="w_fee_resolution").input("2026-77")
    at.button(key="FormSubmitter:w_fee_record-Record the schedule").click().run()
    _ok(at, errors=True)
    # the earlier resolution is kept; each is in force from its own date (§208-24C)
    assert [r["fee_per_tree_usd"] for r in fees.history(reg)] == ["600.00", "650.00"]
    assert fees.in_force(reg, "2026-05-31")["fee_per_tree_usd"] == "600.00"
    now = fees.in_force(reg, "2026-06-01")
    assert now["fee_per_tree_usd"] == "650.00" and now["label"] == "Board resolution 2026-77 of 2026-06-01 (§208-24C)"
    history = at.dataframe[0].value
    assert list(history["Date"]) == ["2026-03-01", "2026-06-01"]


def test_statement_downloads_and_opens(expected):
    import openpyxl

    from treecalc.report.statement import statement_bytes

    data = statement_bytes(expected)
    wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True)
    assert "Summary" in wb.sheetnames
    at = _app()
    at.switch_page("treecalc/app/pages/permit.py").run()
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Excel statement" in labels, labels
    assert any(lbl.endswith("(CSV)") for lbl in labels), labels


# --- a broken file: messages, never a traceback ---------------------------------


@pytest.mark.parametrize(
    "name,blob",
    [
        ("broken.xlsx", b"this is not a workbook at all"),
        ("empty.csv", b""),
        ("garbage.csv", bytes(range(256)) * 20),
    ],
)
def test_broken_file_gives_messages_on_every_page(name, blob):
    at = _app()
    at.file_uploader(key="w_upload").set_value((name, blob, "application/octet-stream")).run()
    _ok(at, errors=True)
    for page in PAGES:
        at.switch_page(page).run()
        _ok(at, errors=True)
    at.switch_page("treecalc/app/pages/survey.py").run()
    assert at.error, "the Survey page should say the file could not be read"


def test_a_broken_upload_is_read_once_for_every_page_and_a_stopped_read_is_tried_again(monkeypatch):
    # each page asks for the survey several times a run, and st.cache_data keeps no error: the refusal is kept
    # for the session (the same upload, the same options), so a broken file is read once, not 3 times a page
    import treecalc.ingest.zone as zone
    from treecalc.ingest.errors import ReaderStopped

    reads = []
    real = zone.read_survey_in_zone

    def counted(*a, **k):
        reads.append(k.get("filename"))
        return real(*a, **k)

    monkeypatch.setattr(zone, "read_survey_in_zone", counted)
    at = _app()
    at.file_uploader(key="w_upload").set_value(("broken.xlsx", b"not a workbook, once", "application/x")).run()
    for page in PAGES:
        at.switch_page(page).run()
    at.switch_page("treecalc/app/pages/permit.py").run()
    assert any("broken.xlsx is not an xlsx workbook" in e.value for e in at.error), [e.value for e in at.error]
    assert reads.count("broken.xlsx") == 1

    # a read stopped by its time or memory limit is no verdict on the file, nor is a fault of the data folder's (an
    # Engineer's damaged copy, mended since): the next run reads the file again
    from treecalc.reference.datafolder import DamagedDataFile

    stopped = ReaderStopped("slow.csv could not be read: it took longer than 1 s (the reader was stopped)")
    for name, error in (("slow.csv", stopped), ("mended.csv", DamagedDataFile("species.csv is damaged"))):

        def failing(*a, error=error, **k):
            reads.append(k.get("filename"))
            raise error

        monkeypatch.setattr(zone, "read_survey_in_zone", failing)
        at.switch_page("treecalc/app/pages/survey.py").run()
        at.file_uploader(key="w_upload").set_value((name, b"Tag,Species\n", "text/csv")).run()
        first = reads.count(name)
        at.switch_page("treecalc/app/pages/benefits.py").run()
        assert first >= 1 and reads.count(name) > first, (name, reads)
    assert any("species.csv is damaged" in e.value for e in at.error), [e.value for e in at.error]


def test_oversize_upload_is_refused_with_a_message():
    from treecalc.app.state import MAX_UPLOAD_MB

    at = _app()
    at.file_uploader(key="w_upload").set_value(("huge.csv", b"0" * (MAX_UPLOAD_MB * 2**20 + 1), "text/csv")).run()
    _ok(at, errors=True)
    assert any(f"up to {MAX_UPLOAD_MB} MB" in e.value for e in at.error)


def test_back_to_the_sample_after_a_broken_upload(sample):
    at = _app()
    at.file_uploader(key="w_upload").set_value(("broken.xlsx", b"nope", "application/octet-stream")).run()
    at.button(key="w_use_sample").click().run()
    _ok(at)
    assert amount(metrics(at)["Trees"]) == len(sample[1].trees)


def test_marking_trees_harmed_equals_assess_on_the_marked_survey(sample):
    import dataclasses

    from treecalc.assessment import assess

    sv = sample[1]
    retained = sv.trees.loc[sv.trees["action"] == "retain", "tag"].astype(str).head(4).tolist()
    at = _app()
    at.switch_page("treecalc/app/pages/violations.py").run()
    at.text_input(key="w_add_removed").input(", ".join(retained)).run()  # four tags typed: added at once
    _ok(at)
    trees = sv.trees.copy()
    trees.loc[trees["tag"].astype(str).isin(retained), "action"] = "removed"
    want = assess(dataclasses.replace(sv, trees=trees))
    m = metrics(at)
    assert amount(m["Civil penalty, maximum"]) == pytest.approx(float(want.penalties.civil_penalty_max_usd), abs=0.005)
    assert amount(m["Criminal fine, maximum"]) == pytest.approx(float(want.penalties.criminal_fine_max_usd), abs=0.005)
    assert float(want.penalties.civil_penalty_max_usd) > 0, "the sample's retained trees marked removed are offences"


def test_permit_page_draws_the_20_year_chart(expected):
    from treecalc.models.projection import PLANTED, REMOVED, projection

    df = projection(expected, 20)
    assert set(df["series"]) == {REMOVED, PLANTED}
    assert (df.groupby("series")["year"].max() == 20).all()
    at = _app()
    at.switch_page("treecalc/app/pages/permit.py").run()
    _ok(at)
    assert at.get("arrow_vega_lite_chart") or at.get("vega_lite_chart"), "no chart on the permit page"


def test_wesley_hills_site_fact_switches_the_law(sample):
    from treecalc.assessment import assess
    from treecalc.ingest import read_survey

    at = _app()
    at.session_state["tc_read_opts"] = {"site": {"jurisdiction": "wesley-hills"}}
    want = assess(read_survey(sample[0], site={"jurisdiction": "wesley-hills"}))
    assert want.jurisdiction == "wesley_hills"
    for page in PAGES[:5]:
        at.switch_page(page).run()
        _ok(at)
    at.switch_page("treecalc/app/pages/violations.py").run()
    m = metrics(at)
    assert amount(m["Fine, maximum (USD, Wesley Hills Chapter 95)"]) == pytest.approx(
        float(want.penalties.fine_max_usd)
    )
    assert any(want.summary.note in i.value for i in at.info)


def test_water_page_equals_penalty_schedule_and_meter_test():
    import datetime as dt

    from treecalc.rules.croton_on_hudson import ch223_meter, ch223_water

    at = _app()
    at.switch_page("treecalc/app/pages/water.py").run()
    at.number_input(key="w_water_amount").set_value(300.0)
    at.date_input(key="w_water_due").set_value(dt.date(2026, 1, 15))
    at.date_input(key="w_water_asof").set_value(dt.date(2026, 4, 10)).run()
    at.number_input(key="w_meter_error").set_value(-3.0).run()
    _ok(at)
    s = ch223_water.penalty_schedule("300.00", dt.date(2026, 1, 15), [], as_of=dt.date(2026, 4, 10))
    m = metrics(at)
    assert amount(m["Total due"]) == pytest.approx(float(s.total_due))
    assert amount(m["Penalties outstanding"]) == pytest.approx(float(s.penalties_outstanding))
    assert amount(m["Charge outstanding"]) == pytest.approx(float(s.charge_outstanding))
    r = ch223_meter.meter_test("12000.0", "-3.0", "50.00")
    assert m["Bill adjusted"] == ("Yes" if r.adjusted else "No")
    assert amount(m["Adjusted consumption"]) == pytest.approx(float(r.adjusted_consumption), abs=0.005)
    assert m["Test fee refunded"] == "No"


def _grid_csv() -> bytes:
    import numpy as np
    import pandas as pd

    xs, ys = np.meshgrid(np.arange(0, 200, 10.0), np.arange(0, 150, 10.0))
    existing = 100 + 0.02 * xs
    proposed = 101 + 2 * np.sin(xs / 40) * np.cos(ys / 30)
    return (
        pd.DataFrame({"x": xs.ravel(), "y": ys.ravel(), "existing": existing.ravel(), "proposed": proposed.ravel()})
        .to_csv(index=False)
        .encode()
    )


def test_excavation_page_equals_the_module(tmp_path):
    from treecalc.rules import excavation

    at = _app()
    at.switch_page("treecalc/app/pages/excavation.py").run()
    _ok(at)
    m = metrics(at)
    r = excavation.check_permit([(600.0, 3.0)], [], strip_topsoil_sqft=0.0, lot_area_sqft=20_000.0)
    assert m["Excavation and filling permit required"] == ("Yes" if r.permit_required else "No")
    assert amount(m["Excavated, these areas (cu yd)"]) == pytest.approx(float(r.excavation_cy), abs=0.005)

    blob = _grid_csv()
    at.file_uploader(key="w_grid_upload").set_value(("grid.csv", blob, "text/csv")).run()
    _ok(at)
    (tmp_path / "grid.csv").write_bytes(blob)
    g = excavation.volume_from_grid_csv(tmp_path / "grid.csv")
    m = metrics(at)
    assert amount(m["Cut (cu yd)"]) == pytest.approx(g.cut_cy, abs=0.005)
    assert amount(m["Fill (cu yd)"]) == pytest.approx(g.fill_cy, abs=0.005)
    assert amount(m["Net (cu yd)"]) == pytest.approx(g.net_cy, abs=0.005)
    assert g.cut_cy > 0 and g.fill_cy > 0
    assert at.get("arrow_vega_lite_chart") or at.get("vega_lite_chart"), "no heat map"
    for limit in (80, 4):  # as drawn, and block-summed: the cells add up to the module's cut - fill
        cells = g.cut_fill_map(limit)
        assert cells["net_cy"].sum() == pytest.approx(g.cut_cy - g.fill_cy, abs=1e-6)
    assert len(g.cut_fill_map(4)) <= 16


def test_excavation_broken_grid_is_a_message():
    at = _app()
    at.switch_page("treecalc/app/pages/excavation.py").run()
    at.file_uploader(key="w_grid_upload").set_value(("grid.csv", b"\x00\x01garbage", "text/csv")).run()
    _ok(at, errors=True)
    assert any("grid.csv" in e.value for e in at.error)


def test_fee_schedule_toml_round_trips_through_the_library(tmp_path):
    from treecalc.rules.croton_on_hudson.schedule import fee_schedule_toml, load_fee_schedule

    d = {
        "basis": "value",
        "fee_per_tree_usd": "525.00",
        "multiplier": "1.5",
        "placeholder": False,
        "label": 'set by Board resolution "2026-14" (§208-24C)',
    }
    path = tmp_path / "fee_schedule.toml"
    path.write_text(fee_schedule_toml(d), encoding="utf-8")
    s = load_fee_schedule(path)
    assert (s.basis, str(s.fee_per_tree_usd), str(s.multiplier), s.placeholder, s.label) == (
        "value",
        "525.00",
        "1.5",
        False,
        d["label"],
    )


def _edit(rows: dict[int, dict]) -> dict:
    return {"edited_rows": rows, "added_rows": [], "deleted_rows": []}


def test_correcting_a_fuzzy_species_reaches_benefits_and_assessment(sample):
    import dataclasses

    from treecalc import compute_benefits
    from treecalc.assessment import assess

    sv = sample[1]
    fuzzy = sv.trees[sv.trees["species_method"] == "fuzzy"]
    assert len(fuzzy), "the sample has a misspelt species"
    row = str(fuzzy["source_row"].iloc[0])
    at = _app()
    at.session_state["w_species_fix"] = _edit({0: {"species": "QURU"}})
    at.run()
    at.button(key="w_species_apply").click().run()
    _ok(at)
    assert at.session_state["tc_opts"]["species_fix"] == {row: "QURU"}
    trees = sv.trees.copy()
    trees.loc[trees["source_row"].astype(str) == row, "species_code"] = "QURU"
    fixed = dataclasses.replace(sv, trees=trees)
    at.switch_page("treecalc/app/pages/benefits.py").run()
    _ok(at)
    want = compute_benefits(trees)["usd_total_annual"].round(2).sum()  # each tree to the cent, then summed
    assert amount(metrics(at)["Total (USD/yr)"]) == pytest.approx(want, abs=0.005)
    at.switch_page("treecalc/app/pages/permit.py").run()
    a = assess(fixed)
    assert amount(metrics(at)["Removed value"]) == pytest.approx(a.replacement.removed_value_usd, abs=0.005)


def test_column_map_correction_re_reads_the_file(sample):
    from treecalc.ingest import read_survey

    path, sv = sample
    cmap = sv.source["column_map"]
    header = next(h for h, f in cmap.items() if f == "condition")
    at = _app()
    # the column's own select under the upload: choosing re-reads the file at once
    at.selectbox(key=f"w_colmap::{header}").set_value("ignore").run()
    _ok(at)
    want = read_survey(path, column_map={header: "ignore"})
    assert at.session_state["tc_read_opts"]["column_map"] == {header: "ignore"}
    assert amount(metrics(at)["Trees"]) == len(want.trees)
    assert (want.trees["condition"].fillna("") == "").all()


def test_site_fact_edit_is_read_by_the_reader(sample):
    from treecalc.assessment import assess
    from treecalc.ingest import SITE_FIELDS, read_survey

    at = _app()
    assert "prior_removals_12mo" in SITE_FIELDS
    at.text_input(key="w_site_prior_removals_12mo").input("5")
    next(b for b in at.button if b.label == "Use these site facts").click().run()
    _ok(at)
    assert at.session_state["tc_read_opts"]["site"]["prior_removals_12mo"] == "5"
    want = assess(read_survey(sample[0], site={"prior_removals_12mo": "5"}))
    at.switch_page("treecalc/app/pages/permit.py").run()
    _ok(at)
    m = metrics(at)
    assert amount(m["Replacement trees required"]) == want.replacement.trees_needed
    assert any("5 earlier" in md.value for md in at.markdown), "the trigger text counts the earlier removals"


def test_the_benefits_page_does_not_call_another_zones_tables_the_northeasts(sample):
    """A Charlotte arborist's survey (here the sample given the site fact climate_zone=PiedmtCLT) is valued with
    the South zone's tables, as the page's footnote says; its caption said "i-Tree Streets Northeast tables"
    above those figures. The caption names no zone the survey may not be in."""
    at = _app()
    at.session_state["tc_read_opts"] = {"site": {"climate_zone": "PiedmtCLT"}}
    at.switch_page("treecalc/app/pages/benefits.py").run()
    _ok(at)
    texts = [c.value for c in at.caption] + [m.value for m in at.markdown]
    assert any("PiedmtCLT" in t for t in texts), texts
    assert not [t for t in texts if "Northeast tables" in t], texts


def test_the_columns_read_are_a_panel_of_plain_selects_under_the_upload():
    """A GIS export's columns each have a select under the upload, showing what it was read as; choosing another
    field re-reads the file (no grid, no double-click)."""
    import io

    from tests.helpers.app_surveys import mapped_lot_csv
    from treecalc.ingest import read_survey

    at = _app()
    at.file_uploader(key="w_upload").set_value(("Lot 3 GIS export.csv", mapped_lot_csv(), "text/csv")).run()
    _ok(at)
    panel = [e for e in at.expander if e.label.startswith("These columns were read as")]
    assert panel, [e.label for e in at.expander]
    shown = {s.label: s.value for s in panel[0].selectbox}
    assert shown == {
        "Tag": "tag",
        "Species": "species",
        "DBH (in)": "dbh_in",
        "Action": "action",
        "Condition": "condition",
        "Latitude": "latitude",
        "Longitude": "longitude",
    }
    assert not [d for d in at.get("arrow_data_frame") if "Read as" in str(d.proto)]  # the grid is gone
    at.selectbox(key="w_colmap::Condition").set_value("ignore").run()
    _ok(at)
    assert at.session_state["tc_read_opts"]["column_map"] == {"Condition": "ignore"}
    want = read_survey(
        io.BytesIO(mapped_lot_csv()), filename="Lot 3 GIS export.csv", column_map={"Condition": "ignore"}
    )
    assert "condition" not in want.source["column_map"].values()
    assert at.selectbox(key="w_colmap::Condition").value == "ignore"
    assert amount(metrics(at)["Trees"]) == len(want.trees) == 4
