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
