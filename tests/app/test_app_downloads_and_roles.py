"""The app: what is downloaded is what is shown, a plain answer per role.

Headless (Streamlit ``AppTest``) on a small survey written in the test, not the bundled sample:
three red oaks removed and two retained on a lot with no residence, which needs a permit
(§208-19A(2)), so every removal is an offence and the §208-22F violation standard applies.

Worked by hand from the tables and the law (the law engine gives the same):
- values (annual, USD/yr, stormwater at $0.008/gal): red oak 10, 11, 12 in DBH = 119.53 + 129.77 + 140.01
  = 389.31 (each the sum of the Northeast tables' stormwater, energy, air quality, CO2 and aesthetic dollars;
  e.g. 12 in: hydro_interception (3.81 + 7.41)/2 = 5.61 m3 x 264.172 x 0.008 = $11.86 of it);
- required value 120% (§208-22F): 389.31 x 1.2 = 467.172, rounded up to the cent = 467.18;
- the default stock, red maple 2 in DBH, carries 64.68 each (tests/test_assessment.py): 467.18 / 64.68 = 7.22
  -> 8 trees;
- planting cost 8 x $450 (the placeholder unit cost) = $3,600.00;
- civil penalty (§208-29B(2)): 3 trees x $1,500 = $4,500.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]

from streamlit.testing.v1 import AppTest  # noqa: E402

from tests.app.test_app_pages import amount, metrics  # noqa: E402

SITE = {"jurisdiction": "croton-on-hudson", "has_residence": "no", "subdividable": "no", "lot_area_acres": 2}


def survey_bytes(actions: list[str], site: dict | None = None, species: str = "Red oak") -> bytes:
    n = len(actions)
    trees = pd.DataFrame(
        {
            "Tag": [f"A{i}" for i in range(1, n + 1)],
            "Species": [species] * n,
            "DBH (in)": [10.0 + i for i in range(n)],
            "Action": actions,
            "Notes": [""] * n,
        }
    )
    buf = io.BytesIO()
    with pd.ExcelWriter(buf, engine="openpyxl") as xw:
        trees.to_excel(xw, sheet_name="Trees", index=False)
        s = site or SITE
        pd.DataFrame({"field": list(s), "value": list(s.values())}).to_excel(
            xw, sheet_name="Site", index=False, header=False
        )
    return buf.getvalue()


BLOB = survey_bytes(["Removed"] * 3 + ["Retain"] * 2)


def _app(blob: bytes = BLOB, name: str = "oaks.xlsx") -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.file_uploader(key="w_upload").set_value((name, blob, "application/octet-stream")).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


# --- helpers --------------------------------------------------------------------


def test_csv_leaves_empty_text_alone_and_guards_formulas():
    from treecalc.app.ui import csv_bytes

    df = pd.DataFrame({"a": ["", "=1+1", "-2", "ok", None], "b": [1, 2, 3, 4, 5]})
    text = csv_bytes(df).decode("utf-8-sig").splitlines()
    assert text[1] == ",1", text  # an empty cell stays empty: no lone '
    assert text[2] == "'=1+1,2" and text[3] == "-2,3" and text[4] == "ok,4"  # "-2" is a number, no formula
    assert "'" not in text[5]


@pytest.mark.parametrize(
    "x,want",
    [
        (2_566_123.45, "$2.57M"),
        (28_000, "$28K"),
        (28_450.5, "$28.5K"),
        (940, "$940"),
        (999_950, "$1M"),
        (-4_500_000, "-$4.5M"),
        (None, "—"),
    ],
)
def test_compact_usd(x, want):
    from treecalc.app.ui import compact_usd

    assert compact_usd(x) == want


def test_default_stock_says_which_species_size_and_placeholder_cost():
    from treecalc.app.views import default_stock

    d = default_stock()
    # data/law/croton_on_hudson/ch208_trees.toml [replacement.default_stock]: ACRU, 2 in, "450.00" (PLACEHOLDER)
    assert (d["species"], d["dbh_in"], d["unit_cost_usd"]) == ("ACRU", 2.0, 450.0)
    assert "Red maple" in d["label"] and "2 in DBH" in d["label"]


# --- defects ---------------------------------------------------------------------


def test_sidebar_names_the_upload_on_the_run_of_the_upload():
    at = _app()
    assert any("oaks.xlsx" in c.value and "uploaded" in c.value for c in at.sidebar.caption), [
        c.value for c in at.sidebar.caption
    ]


def test_violation_control_shows_what_the_numbers_use():
    at = _app()
    at.switch_page("treecalc/app/pages/violations.py").run()
    _ok(at)
    assert at.radio(key="w_violation").value == "As the survey shows"
    said = " ".join(i.value for i in at.info)
    assert "a violation" in said and "three trees harmed without a required permit" in said, said
    # 3 x $1,500 (§208-29B(2))
    assert amount(metrics(at)["Civil penalty, maximum"]) == 4500
    at.radio(key="w_violation").set_value("No").run()
    said = " ".join(i.value for i in at.info)
    assert "no violation" in said and "as you set it" in said, said


def test_fund_page_takes_the_planting_space_itself():
    at = _app()
    at.switch_page("treecalc/app/pages/fund.py").run()
    at.radio(key="w_plantable_kind").set_value("A number of trees").run()
    at.number_input(key="w_plantable").set_value(2).run()
    _ok(at)
    m = metrics(at)
    # 8 trees needed, 2 planted: 6 in lieu x $450 (the placeholder fee per tree) = $2,700
    assert amount(m["Trees paid in lieu"]) == 6
    assert amount(m["Payment in lieu to the Tree Preservation Fund"]) == 2700
    at.switch_page("treecalc/app/pages/permit.py").run()  # the same setting, shown on the Permit page
    assert at.radio(key="w_plantable_kind").value == "A number of trees"
    assert at.number_input(key="w_plantable").value == 2
    assert amount(metrics(at)["Trees planted"]) == 2


def test_applicant_card_answers_what_the_permit_costs():
    at = _app()
    at.switch_page("treecalc/app/pages/permit.py").run()
    at.radio(key="w_plantable_kind").set_value("A number of trees").run()
    at.number_input(key="w_plantable").set_value(2).run()
    _ok(at)
    m = metrics(at)
    # 2 planted x $450 = $900; 6 in lieu x $450 = $2,700; total $3,600
    assert amount(m["Plant 2 replacement trees"]) == 900
    assert amount(m["Pay for 6 trees in lieu"]) == 2700
    assert amount(m["Total out of pocket"]) == 3600
    assert any("What would change it" in md.value for md in at.markdown)
    assert any("PLACEHOLDER" in w.value for w in at.warning)


def test_invasive_species_is_said_inline_and_the_page_stays():
    at = _app()
    at.switch_page("treecalc/app/pages/permit.py").run()
    at.selectbox(key="w_repl_species").set_value("ACPL").run()  # Norway maple, NY Part 575 invasive
    assert not at.exception
    assert any("§208-22E" in e.value and "Norway maple" in e.value for e in at.error)
    m = metrics(at)
    assert amount(m["Replacement trees required"]) == 8  # the page stays, on the default stock
    assert at.selectbox(key="w_repl_species").value == "ACPL"  # the control shows what was chosen


def test_switching_to_a_stock_list_keeps_the_species_and_the_placeholder_cost():
    at = _app()
    at.switch_page("treecalc/app/pages/permit.py").run()
    at.selectbox(key="w_repl_species").set_value("QURU").run()
    at.radio(key="w_stock_mode").set_value("A stock list").run()
    _ok(at)
    stock = at.session_state["tc_opts"]["replacement_stock"]
    assert stock == [{"species": "QURU", "dbh_in": 2.0, "unit_cost_usd": 450.0}]


def test_wesley_hills_permit_page_says_chapter_95():
    at = _app(survey_bytes(["Removed"] * 3, {"jurisdiction": "wesley-hills", "lot_area_acres": 2}), "wh.xlsx")
    at.switch_page("treecalc/app/pages/permit.py").run()
    _ok(at)
    heads = [h.value for h in at.subheader]
    assert any("Chapter 95" in h for h in heads), heads
    assert not any("§208" in h for h in heads), heads
    assert not any("Croton" in c.value for c in at.caption if "Law applied" not in c.value)


def test_wesley_hills_permit_page_offers_no_croton_replacement_or_fund_controls():
    # Chapter 95 has no replacement rule and no fund, yet the page offered the replacement stock and
    # "The site can take (§208-22D: what it cannot take is paid into the fund)" above "no replacement rule"
    at = _app(survey_bytes(["Remove"] * 5, {"jurisdiction": "wesley-hills", "lot_area_acres": 2}), "wh.xlsx")
    at.switch_page("treecalc/app/pages/permit.py").run()
    _ok(at)
    assert not [r.label for r in at.radio if "§208" in r.label or r.key in ("w_stock_mode", "w_plantable_kind")]
    assert not [e.label for e in at.expander if "Replacement stock" in e.label]
    assert not [s.label for s in at.selectbox if s.key == "w_repl_species"]
    # nor the Violations page Croton's violation standard, doubling, clear cutting, days or percentage
    at.switch_page("treecalc/app/pages/violations.py").run()
    _ok(at)
    assert not [
        w.label
        for w in [*at.radio, *at.number_input]
        if w.key in ("w_violation", "w_pending", "w_clear_cutting", "w_days", "w_repl_pct")
    ]
    assert [t.label for t in at.text_input if t.key == "w_add_removed"]  # trees found removed: both laws
    at.switch_page("treecalc/app/pages/fund.py").run()
    _ok(at)
    assert not [r.label for r in at.radio if r.key == "w_plantable_kind"]
    # ... and a Croton survey still has them
    at = _app()
    at.switch_page("treecalc/app/pages/permit.py").run()
    assert [e.label for e in at.expander if "Replacement stock" in e.label]
    at.switch_page("treecalc/app/pages/violations.py").run()
    assert len([r for r in at.radio if r.key in ("w_violation", "w_pending", "w_clear_cutting")]) == 3


def test_no_raw_identifiers_in_the_tables_people_read():
    at = _app()
    for page in (
        "treecalc/app/pages/survey.py",
        "treecalc/app/pages/permit.py",
        "treecalc/app/pages/benefits.py",
        "treecalc/app/pages/violations.py",
    ):
        at.switch_page(page).run()
        _ok(at)
        assert at.dataframe, "nothing to check: the loop below would pass on no item"
        for df in at.dataframe:
            cols = [str(c) for c in df.value.columns]
            raw = [
                c for c in cols if c in ("source_row", "dbh_in") or c.startswith("usd_") or (c.islower() and "_" in c)
            ]
            assert not raw, (page, raw)


def test_benefit_cards_in_plain_units():
    from treecalc import compute_benefits
    from treecalc.ingest import read_survey

    trees = read_survey(io.BytesIO(BLOB), filename="oaks.xlsx").trees
    ben = compute_benefits(trees)
    at = _app()
    at.switch_page("treecalc/app/pages/benefits.py").run()
    _ok(at)
    text = " ".join(md.value for md in at.markdown)
    assert f"{ben['stormwater_gal'].sum():,.0f} gallons" in text
    assert f"{ben['electricity_kwh'].sum():,.0f} kWh" in text
    co2 = ben["co2_sequestered_lb"].sum() + ben["co2_avoided_lb"].sum()
    assert f"{co2:,.0f} lb of CO₂" in text
    # gallons of gasoline: 8.887 kg CO2 each (US EPA) = 19.592 lb
    assert f"{co2 / (8.887 * 2.20462):,.0f} gallons of gasoline" in text
    # the value basis control acts on the page: cumulative 10 years
    at.radio(key="w_basis_kind").set_value("cumulative").run()
    at.number_input(key="w_basis_years").set_value(10).run()
    _ok(at)
    assert at.session_state["tc_opts"]["value_basis"] == "cumulative:10"
    assert any("over 10 years" in c.value for c in at.caption)


def test_donut_uses_a_colour_vision_safe_palette():
    from treecalc.app import charts

    spec = charts.benefits_by_category(pd.DataFrame({c: [1.0] for c in charts.BENEFIT_LABELS})).to_dict()
    colours = spec["encoding"]["color"]["scale"]["range"]
    assert colours == charts.OKABE_ITO[:5]
    assert spec.get("description"), "the chart has a text description"


def test_offences_definite_and_conditional_as_the_library_says_them():
    """Rows that do not say are shown as they are (no split invented); rows that do, under the library's keys
    (:func:`treecalc.results.offence_status`: ``status``, ``depends_on``), each with the fact it rests on. A key
    the rules modules do not write (``offence_kind``) is not guessed at."""
    from types import SimpleNamespace

    from treecalc.app.views import offence_rows

    # the findings are read as attributes (a.penalties.per_tree), as the typed Penalties holds them
    before = SimpleNamespace(
        penalties=SimpleNamespace(per_tree=[{"tag": "A1", "tier": "§208-29B(2)", "max_usd": 1500}]), trees=None
    )
    rows = offence_rows(before)
    assert "Offence" not in rows and list(rows["tag"]) == ["A1"]
    guessed = SimpleNamespace(
        penalties=SimpleNamespace(per_tree=[{"tag": "A1", "offence_kind": "definite"}]), trees=None
    )
    assert "Offence" not in offence_rows(guessed)
    after = SimpleNamespace(
        penalties=SimpleNamespace(
            per_tree=[
                {"tag": "A1", "tier": "§208-29B(2)", "max_usd": 1500, "status": "definite", "depends_on": ""},
                {
                    "tag": "A2",
                    "tier": "§208-29B(2)",
                    "max_usd": 1500,
                    "status": "conditional",
                    "depends_on": ["has_residence not given: assumed no"],
                },
            ]
        ),
        trees=None,
    )
    rows = offence_rows(after)
    assert list(rows["Offence"]) == ["definite", "conditional"]
    assert list(rows["Depends on"]) == ["facts given", "“a residence stands on the lot” not given: assumed no"]
    assert "status" not in rows and "depends_on" not in rows


def test_the_benefit_cards_say_the_librarys_equivalents():
    """The cards put :func:`treecalc.models.equivalents.equivalents` into words: 220 gal / 55 = 4 barrels;
    10,791 kWh = 365 days of a home's (10,791 kWh a year); 1,959.245794 lb CO2 / 19.59245794 lb a gallon = 100
    gallons, / 0.86641566 lb a mile = 2,261 miles."""
    from treecalc.app.views import plain_benefits

    ben = pd.DataFrame(
        {
            "stormwater_gal": [220.0],
            "electricity_kwh": [10_791.0],
            "natural_gas_therms": [12.4],
            "co2_sequestered_lb": [1_959.245794],
            "co2_stored_lb": [5_000.0],
            "air_quality_lb": [0.75],
        }
    )
    words = plain_benefits(ben)
    assert words["stormwater"] == (
        "**220 gallons** of rainfall intercepted a year — about 4 rain barrels (55 gal) kept out of the storm drains."
    )
    assert words["energy"] == (
        "**10,791 kWh** of electricity and **12 therms** of heating fuel saved a year — about 365 days of an "
        "average US home's electricity."
    )
    assert words["co2"] == (
        "**1,959 lb of CO₂** taken up or avoided a year — the CO₂ of 100 gallons of gasoline, or 2,261 miles in an "
        "average car; 5,000 lb of CO₂ stored in the wood to date."
    )


def test_readable_site_facts():
    from treecalc.app.views import readable

    assert (
        readable("subdividable not given: assumed True (a violation)")
        == "“the lot could be subdivided” not given: assumed yes (a violation)"
    )


def test_the_law_engines_notes_name_the_apps_controls_not_command_line_options():
    # the permit page showed "... is a PLACEHOLDER (give --replacement-cost)": a flag of the command line,
    # which an app user has no way to give; the Survey page's site facts and the Unit cost box set the same
    from treecalc.app import views
    from treecalc.assessment import assess
    from treecalc.ingest import read_survey

    csv = (
        b"Tag,Species,DBH (in),Action\n1,Red maple,12,remove\n2,Pin oak,14,remove\n3,Sugar maple,9,remove\n"
        b"4,Red maple,9,remove\n"
    )
    a = assess(read_survey(io.BytesIO(csv), filename="no_site.csv"))
    texts = [*a.assumptions, *a.warnings, *(a.replacement.notes or [])]
    assert any("‹replacement_cost_usd›" in t for t in texts)  # the engine names the keyword (treecalc.messages)
    shown = [views.readable(t) for t in texts]
    assert not [t for t in shown if re.search(r"(?<!\w)--[a-z]", t)], shown
    # read outside a page (here): the control and the page it is on
    assert any("give the Unit cost under “Replacement stock and planting space” on the Permit page" in t for t in shown)


def test_no_statement_download_when_the_assessment_fails():
    # an option the law engine refuses (a replacement species no table knows); the Survey page still offered
    # "Excel statement", whose click saved the error text under statement_*.xlsx. (A fee of $0 a tree, the
    # refusal this was first shown with, is no longer charged from the options: the fee is the register's.)
    at = _app()
    at.session_state["tc_opts"] = {"replacement_species": "Zzzzqq"}
    at.run()
    assert not at.exception
    assert not [d.proto.label for d in at.get("download_button") if "Excel statement" in d.proto.label]
    assert [b.label for b in at.button if b.label.startswith("Excel statement (") and b.disabled]
    assert any("unknown species" in c.value for c in at.caption), [c.value for c in at.caption]


def test_assessed_trees_csv_of_a_survey_with_offences():
    # "Assessed trees (CSV)" failed on every page: offence and offence_status were both labelled "Offence",
    # and a frame with two columns of one name cannot be written. Three trees removed without a permit.
    import io

    import pandas as pd

    from treecalc.app import ui, views
    from treecalc.assessment import assess
    from treecalc.ingest import read_survey

    sv = read_survey(
        io.BytesIO(
            b"Tag,Species,DBH (in),Action\nT1,Red maple,14,removed\nT2,Red maple,10,removed\nT3,Pin oak,9,retain\n"
        ),
        filename="s.csv",
    )
    a = assess(sv, site={"subdividable": False, "has_residence": True, "site_plan_required": False})
    shown = views.labelled(a.trees, a)
    assert not shown.columns.duplicated().any(), list(shown.columns[shown.columns.duplicated()])
    assert {"Offence (no permit held)", "Offence"} <= set(shown.columns)
    back = pd.read_csv(io.BytesIO(ui.csv_bytes(shown)))
    assert list(back["Tag"]) == ["T1", "T2", "T3"]
    # two columns whose labels meet: the second keeps its own name beside the label
    both = views.labelled(pd.DataFrame({"penalty_tier": ["a"], "tier": ["b"]}))
    assert list(both.columns) == ["Penalty tier (section)", "Penalty tier (section) (tier)"]
