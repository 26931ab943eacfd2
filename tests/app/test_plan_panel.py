"""The Permit page's plan panel shows what treecalc.studies.plan.plan returns for the uploaded survey."""

from __future__ import annotations

import pytest

from tests.helpers.headless import new_app, no_exception, page_path

CSV = (
    b"Tag,Species,DBH (in),Action,Must remove\n"
    b"T1,Acer rubrum,14,Remove,Yes\nT2,Quercus rubra,20,Remove,Yes\nT3,Acer saccharum,10,Remove,No\n"
    b"T4,Tilia americana,6,Remove,No\nT5,Quercus palustris,24,Remove,\nT6,Acer rubrum,9,Remove,no\n"
    b"T7,Acer rubrum,16,Retain,\n"
)


def test_panel_equals_plan(tmp_path):
    from treecalc.ingest import read_survey
    from treecalc.studies.plan import plan

    f = tmp_path / "six.csv"
    f.write_bytes(CSV)
    want = plan(read_survey(f))
    at = new_app().run()
    at.file_uploader(key="w_upload").set_value(("six.csv", CSV, "text/csv")).run()
    at.switch_page(page_path("permit")).run()
    no_exception(at)
    at.button(key="w_plan_run").click().run()
    no_exception(at)
    tables = [d.value for d in at.dataframe if "Optional removals" in d.value.columns]
    assert tables, "no plan table on the Permit page"
    shown = tables[0]
    assert list(shown["Optional removals"]) == [s.k for s in want.frontier]
    assert list(shown["Trees removed"]) == [", ".join(s.remove) for s in want.frontier]
    assert list(shown["Cost (USD)"]) == pytest.approx([s.cost_usd for s in want.frontier])
    text = " ".join(m.value for m in at.markdown)
    assert want.frontier[-1].reasons[0] in text


def test_the_panel_cites_the_sections_of_the_law_applied(monkeypatch, tmp_path):
    """The panel's caption reads the applied law's record, not Chapter 208 written into the page: a record whose
    planting, fund and civil-penalty sections are renumbered is cited as renumbered."""
    import dataclasses

    from treecalc.law import registry as jurisdictions

    rec = jurisdictions.REGISTRY[jurisdictions.DEFAULT]
    moved = {**rec.sections, "planting": "§208-52D", "fund": "§208-54", "civil_penalty": "§208-59B"}
    monkeypatch.setitem(jurisdictions.REGISTRY, rec.key, dataclasses.replace(rec, sections=moved))
    at = new_app().run()
    at.file_uploader(key="w_upload").set_value(("six.csv", CSV, "text/csv")).run()
    at.switch_page(page_path("permit")).run()
    no_exception(at)
    said = " ".join(c.value for c in at.caption)
    assert "(planting, §208-52D + payment in lieu, §208-54 + any civil penalty, §208-59B)" in said
    assert "§208-22D + payment" not in said


def _keeps_app():
    from tests.helpers.app_surveys import keeps_8

    at = new_app().run()
    at.file_uploader(key="w_upload").set_value(("Lot 9 Birch Ln.xlsx", keeps_8(), "application/octet-stream")).run()
    at.switch_page(page_path("permit")).run()
    no_exception(at)
    return at


def _keep_table(at):
    (table,) = [d.value for d in at.dataframe if "Keep it" in d.value.columns]
    return table


def test_use_this_plan_keeps_its_trees_in_the_keep_table_and_the_cost_follows():
    at = _keeps_app()
    at.button(key="w_plan_run").click().run()
    no_exception(at)
    shown = next(d.value for d in at.dataframe if "Optional removals" in d.value.columns)
    assert list(shown["Trees kept"]) == ["K-2, K-3, K-4", "K-2, K-3", "K-3", ""]
    # the plan of one optional removal: K-1 (must) and K-4 (invasive) removed, K-2 and K-3 kept: 2 trees under the
    # permit, under §208-22A's 3: no replacement, nothing to plant or pay
    at.button(key="w_plan_use_1").click().run()
    no_exception(at)
    assert at.session_state["tc_opts"]["actions"] == {"K-2": "retain", "K-3": "retain"}
    table = _keep_table(at)
    assert dict(zip(table["Tag"], table["Keep it"])) == {"K-1": False, "K-2": True, "K-3": True, "K-4": False}
    assert any("Plan used (1 optional, $0.00): kept K-2, K-3" in s.value for s in at.success)
    said = " ".join(m.value for m in at.markdown)
    assert "No replacement is required" in said


def test_the_keep_table_refuses_a_must_remove_tree_and_greys_an_invasive_one_saying_why():
    at = _keeps_app()
    table = _keep_table(at)
    why = dict(zip(table["Tag"], table["If kept"]))
    assert "Must remove" in why["K-1"] and "cannot be kept" in why["K-1"]
    assert "changes nothing" in why["K-4"] and "invasive" in why["K-4"]
    assert why["K-2"] == why["K-3"] == ""
    (editor,) = [d for d in at.dataframe if "Keep it" in d.value.columns]
    # the table's Styler css travels in its proto: one rule of grey text whose selectors are the greyed rows' cells
    styles = editor.proto.arrow_data.styler.styles
    rule = next(r for r in styles.split("}") if "color: #8a8a8a" in r)
    greyed = {t for i, t in enumerate(table["Tag"]) if f"_row{i}_" in rule}
    assert greyed == {"K-1", "K-4"}, styles
    rows = list(table["Tag"])
    at.session_state["w_keep"] = {
        "edited_rows": {rows.index("K-1"): {"Keep it": True}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    no_exception(at)
    assert not (at.session_state["tc_opts"].get("actions") or {}), "a must-remove tree was kept"
    assert any("Tree K-1 is not kept" in w.value and "Must remove" in w.value for w in at.warning)
    assert dict(zip(_keep_table(at)["Tag"], _keep_table(at)["Keep it"]))["K-1"] is False
