"""Water and Excavation pages (Streamlit AppTest): the page's numbers are the library's, no tree
downloads, signs that agree between figures and map, and inputs a surveyor would upload."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]

from streamlit.testing.v1 import AppTest  # noqa: E402

TIMEOUT = 120


def _page(page: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT).run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def _helps(at: AppTest) -> dict[str, str]:
    return {m.label: m.proto.help for m in at.metric}


def _num(text: str) -> float:
    return float(str(text).replace("$", "").replace(",", ""))


def _downloads(at: AppTest) -> list[str]:
    return [b.proto.label for b in at.get("download_button")]


def _rows(rows: list[dict]) -> dict:
    return {"edited_rows": {}, "added_rows": rows, "deleted_rows": []}


@pytest.mark.parametrize("page", ["treecalc/app/pages/water.py", "treecalc/app/pages/excavation.py"])
def test_companion_pages_offer_no_tree_statement_or_assessed_trees(page):
    at = _page(page)
    labels = _downloads(at)
    assert labels, "the page's own tables are still offered"
    assert not any("statement" in lb.lower() or "assessed trees" in lb.lower() for lb in labels), labels


def test_water_calendar_months_two_bills_and_meter_digits():
    from treecalc.rules.croton_on_hudson import ch223_meter, ch223_water

    at = _page("treecalc/app/pages/water.py")
    at.number_input(key="w_water_amount").set_value(100.0)
    at.date_input(key="w_water_due").set_value(dt.date(2026, 1, 15))
    at.date_input(key="w_water_asof").set_value(dt.date(2026, 3, 10))
    at.session_state["w_water_bills"] = _rows([{"due": "2026-02-15", "amount_usd": 200.0}])
    at.session_state["w_water_payments"] = _rows([{"date": "2026-02-20", "amount_usd": 110.0}])
    at.radio(key="w_water_months").set_value("calendar").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    s = ch223_water.account_statement(
        [("100", "2026-01-15"), ("200", "2026-02-15")], [("2026-02-20", "110")], as_of="2026-03-10", months="calendar"
    )
    m = _metrics(at)
    # calendar: A +5.00 (16 Jan) +1.00 (1 Feb); B +10.00 (16 Feb); 110 pays A 106.00 and B 4.00;
    # 1 Mar: A paid, B +2.00 -> B 200.00 + 8.00 = 208.00
    assert s.total_due == D("208.00")
    assert _num(m["Total due"]) == float(s.total_due)
    assert _num(m["Penalties outstanding"]) == float(s.penalties_outstanding) == 8.0
    # meter: results 2.0, 1.8, 2.4 -> mean 2.0667%; 12,000 / 1.020667 = 11,757.02 (two decimals only)
    at.text_input(key="w_meter_more").set_value("1.8, 2.4")
    at.number_input(key="w_meter_rate").set_value(0.01).run()
    m = _metrics(at)
    r = ch223_meter.meter_test("12000.0", ["2.0", "1.8", "2.4"], "50.00", "0.01")
    assert m["Adjusted consumption"] == f"{r.adjusted_consumption:,.2f}" == "11,757.02"
    assert _num(m["Corrected bill"]) == float(r.corrected_usd) == 117.57


def test_water_headline_is_compact_with_the_exact_figure_in_help():
    at = _page("treecalc/app/pages/water.py")
    at.number_input(key="w_water_amount").set_value(2_450_000.0)
    at.date_input(key="w_water_due").set_value(dt.date(2026, 1, 15))
    at.date_input(key="w_water_asof").set_value(dt.date(2026, 1, 20)).run()
    # 2,450,000.00 + 5% = 2,572,500.00 -> "$2.57M", exact in the help text
    m, h = _metrics(at), _helps(at)
    assert m["Total due"] == "$2.57M" and "$2,572,500.00" in h["Total due"]


def _grid_surveyor_csv() -> bytes:
    xs, ys = np.meshgrid(np.arange(0, 100, 10.0), np.arange(0, 80, 10.0))
    eg = 100 + 0.02 * xs
    fg = 100.5 + np.sin(xs / 30) * np.cos(ys / 25)
    return (
        pd.DataFrame({"Easting": xs.ravel(), "Northing": ys.ravel(), "EG": eg.ravel(), "FG": fg.ravel()})
        .to_csv(index=False)
        .encode()
    )


def test_excavation_surveyor_grid_is_mapped_and_signs_agree(tmp_path):
    from treecalc.rules import excavation

    at = _page("treecalc/app/pages/excavation.py")
    day = at.date_input(key="w_std_day").value
    assert day.weekday() != 6, "the work-hours check must not open on a Sunday"
    blob = _grid_surveyor_csv()
    at.file_uploader(key="w_grid_upload").set_value(("survey.csv", blob, "text/csv")).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    (tmp_path / "g.csv").write_bytes(blob)
    g = excavation.volume_from_grid_csv(tmp_path / "g.csv")
    m = _metrics(at)
    assert _num(m["Net (cu yd)"]) == pytest.approx(g.net_cy, abs=0.005)
    assert g.cut_cy > 0 and g.fill_cy > 0
    cells = g.cut_fill_map(80)
    # the map's values are cut - fill, the same sign as the Net figure
    assert cells["net_cy"].sum() == pytest.approx(g.cut_cy - g.fill_cy, abs=1e-6)
    charts = at.get("arrow_vega_lite_chart") or at.get("vega_lite_chart")
    import json

    spec = json.loads(charts[0].proto.spec)
    color = spec["encoding"]["color"]
    # legend: cut - fill, red for + (redblue reversed), as the Net figure's sign
    assert color["title"] == "cut − fill (cu yd)" and color["scale"]["reverse"] is True


def test_excavation_tin_upload_and_unknown_permit(tmp_path):
    from treecalc.rules.excavation import volume_between_files

    corners = "0,0,100\n40,0,100\n0,40,100\n40,40,100\n"
    eg = ("Easting,Northing,Elevation\n" + corners + "20,20,100\n").encode()
    fg = ("Easting,Northing,FG\n" + corners + "20,20,103\n").encode()
    at = _page("treecalc/app/pages/excavation.py")
    at.radio(key="w_vol_kind").set_value("Two surfaces (TIN: points or LandXML)").run()
    at.file_uploader(key="w_tin_existing").set_value(("eg.csv", eg, "text/csv"))
    at.file_uploader(key="w_tin_proposed").set_value(("fg.csv", fg, "text/csv")).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    (tmp_path / "eg.csv").write_bytes(eg)
    (tmp_path / "fg.csv").write_bytes(fg)
    r = volume_between_files(tmp_path / "eg.csv", tmp_path / "fg.csv")
    m = _metrics(at)
    assert _num(m["Fill (cu yd)"]) == pytest.approx(r.fill_cy, abs=0.005) and round(r.fill_cy, 2) == 59.26
    assert _num(m["Net (cu yd)"]) == pytest.approx(-59.26, abs=0.005)
    # the lot area is not assumed; one lot area for the page, given on the Permit tab (no second input here)
    assert not [n for n in at.number_input if n.key == "w_vol_lot"]
    assert any("Lot area: not given" in c.value for c in at.caption)
    # Permit tab: 4,000 sq ft stripped, no lot area -> Unknown, with the missing fact
    at.data_editor(key="w_exc_areas")  # present
    at.session_state["w_exc_areas"] = {"edited_rows": {}, "added_rows": [], "deleted_rows": [0]}
    at.number_input(key="w_exc_strip").set_value(4000.0)
    at.number_input(key="w_exc_lot").set_value(0.0).run()
    labels = [mm.label for mm in at.metric]
    verdicts = [mm.value for mm in at.metric if mm.label == "Excavation and filling permit required"]
    assert "Unknown" in verdicts, (labels, verdicts)
    assert any("8,000 sq ft" in w.value for w in at.warning)


def test_excavation_lot_area_is_not_assumed():
    # The Permit and Volumes tabs opened with a lot of 20,000 sq ft already filled in: a fact nobody
    # gave. With it, 4,000 sq ft stripped reads "not required" (half of 20,000 is 10,000 > 4,000 and
    # 4,000 < 5,000); without it §120-3A(3) is Unknown (required on lots under 8,000 sq ft).
    at = _page("treecalc/app/pages/excavation.py")
    assert at.number_input(key="w_exc_lot").value == 0.0
    at.session_state["w_exc_areas"] = {"edited_rows": {}, "added_rows": [], "deleted_rows": [0]}
    at.number_input(key="w_exc_strip").set_value(4000.0).run()
    verdicts = [mm.value for mm in at.metric if mm.label == "Excavation and filling permit required"]
    assert verdicts[0] == "Unknown", verdicts


def test_meter_results_with_a_decimal_comma_are_refused_not_split():
    # "1,8" typed for 1.8% was split at the comma into results 1 and 8: with the first result 2.0
    # the average became (2 + 1 + 8) / 3 = 3.67% and a 1.9% meter was "adjusted". Refused now;
    # "1.8; 2.4" and "1.8 2.4" are separators like "1.8, 2.4": mean (2 + 1.8 + 2.4) / 3 = 2.0667%.
    at = _page("treecalc/app/pages/water.py")
    at.text_input(key="w_meter_more").set_value("1,8").run()
    assert any("comma" in e.value for e in at.error), [e.value for e in at.error]
    assert "Adjusted consumption" not in _metrics(at)
    for text in ("1.8; 2.4", "1.8 2.4", "1.8, 2.4"):
        at.text_input(key="w_meter_more").set_value(text).run()
        assert not at.error, [e.value for e in at.error]
        assert _metrics(at)["Adjusted consumption"] == "11,757.02"


def test_water_total_owed_stands_beside_total_due_after_the_relevy():
    # $300.00 due 15 Jan 2026, unpaid: 15.00 (5%, 16 Jan) + 3.00 (16 Feb) + 3.00 (16 Mar) = 321.00 relevied to
    # the tax bill on 15 Apr. As of 1 Jul: total due on the water account 0.00, total owed 321.00.
    at = _page("treecalc/app/pages/water.py")
    at.number_input(key="w_water_amount").set_value(300.0)
    at.date_input(key="w_water_due").set_value(dt.date(2026, 1, 15))
    at.date_input(key="w_water_asof").set_value(dt.date(2026, 7, 1)).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    m = _metrics(at)
    assert _num(m["Total due"]) == 0.0 and _num(m["Total owed (water account + tax bill)"]) == 321.0
    assert _num(m["Still owed on the tax bill"]) == 321.0
    labels = [x.label for x in at.metric]
    # in the headline row: total due, what is still owed on the tax bill beside it, then the two together
    i = labels.index("Total due")
    assert labels[i + 1 : i + 3] == ["Still owed on the tax bill", "Total owed (water account + tax bill)"]


def test_excavation_wesley_hills_panel_gives_the_cli_waiver_answer():
    # 60 cu yd excavated and 60 cu yd of fill: the amount moved is the larger, 60 < 100 -> the Planning Board may
    # waive the permit (§95-3D(1)), as `excavation check --excavate 810:2 --fill 810:2` says; the panel summed
    # them (120 >= 100) and said no
    from treecalc.rules import excavation

    at = _page("treecalc/app/pages/excavation.py")
    at.number_input(key="w_wh_fill").set_value(60.0)
    at.number_input(key="w_wh_exc").set_value(60.0).run()
    assert not at.exception, [e.value for e in at.exception]
    cli = excavation.check_permit(excavations=[(810, 2)], fills=[(810, 2)], jurisdiction="wesley-hills")
    assert cli.waiver_eligible is True and _metrics(at)["Waiver possible (§95-3D(1))"] == "Yes"


def test_the_meter_test_shows_the_original_bill_and_the_change_as_the_cli_does(capsys):
    """The meter test says what was billed, what is corrected and the change, in consumption and in dollars (the
    lines of ``treecalc water meter-test``), not a corrected bill alone."""
    from treecalc.cli import main

    at = _page("treecalc/app/pages/water.py")
    at.number_input(key="w_meter_billed").set_value(18_400.0)
    at.number_input(key="w_meter_error").set_value(3.5)
    at.text_input(key="w_meter_more").set_value("2.9")
    at.number_input(key="w_meter_rate").set_value(0.0125).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    table = next(t.value for t in at.table if t.value.index.name == "Meter test")
    shown = dict(zip(table.index, table["Amount"]))
    # average (3.5 + 2.9) / 2 = 3.2%, over ±1.5%: corrected 18,400 / 1.032 = 17,829.457 -> 17,829.46, change
    # -570.54; at $0.0125: billed 18,400 x 0.0125 = $230.00, corrected 17,829.46 x 0.0125 = 222.868 -> $222.87,
    # change 222.87 - 230.00 = -$7.13
    assert shown["Consumption billed"] == "18,400.00"
    assert shown["Corrected consumption"] == "17,829.46"
    assert shown["Change in consumption"] == "-570.54"
    assert shown["Original bill (at $0.0125 per unit)"] == "$230.00"
    assert shown["Corrected bill"] == "$222.87"
    assert shown["Change in the bill"] == "-$7.13"
    capsys.readouterr()
    assert (
        main(["water", "meter-test", "--billed", "18400", "--result", "3.5", "--result", "2.9", "--rate", "0.0125"])
        == 0
    )
    cli = capsys.readouterr().out
    assert "230.00" in cli and "222.87   (change -7.13)" in cli and "(change -570.54)" in cli
