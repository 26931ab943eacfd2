"""The app's pages under a town whose penalties and permit its text read does not hold (Manalapan Ch. 222, Milltown
Ch. 201): the page says what is not held, never crashes on a Chapter 208 entry the town's law has not."""

from __future__ import annotations

import pytest

from tests.helpers.headless import new_app, no_exception
from treecalc.app import state

# one 14 in maple removed: Manalapan's table counts it (over 12 up to 24 in -> 2 trees), Milltown's too
SURVEY = b"Tag,Common Name,DBH (in.),Action\nL1,Red Maple,14,Removed\n"


def _page(page: str, town: str):
    at = new_app()
    at.session_state["tc_source"] = state.make_source("nj.csv", SURVEY)
    at.session_state["tc_read_opts"] = {"site": {"jurisdiction": town}}
    at.run()
    at.switch_page(f"treecalc/app/pages/{page}.py").run()
    no_exception(at)
    return at


@pytest.mark.parametrize(("town", "name"), [("manalapan", "Manalapan"), ("milltown", "Milltown")])
def test_the_violations_page_says_the_penalties_are_not_held(town, name):
    at = _page("violations", town)
    text = "\n".join(str(x.value) for x in list(at.caption) + list(at.markdown) + list(at.warning))
    assert f"not held for {name}" in text, text
    # no Chapter 208 control, no "no penalty" said for a law whose penalties are not held
    assert "§208" not in text and "Chapter 208" not in text, text
    assert "no penalty" not in text.lower(), text


@pytest.mark.parametrize(("town", "name"), [("manalapan", "Manalapan"), ("milltown", "Milltown")])
def test_the_permit_page_shows_no_figure_where_the_law_is_not_held(town, name):
    # once: "Plant 0 replacement trees … $0.00 · Total out of pocket $0.00" and "Permit required: No" beside
    # "Replacement trees required 2" (the permit and the fee's condition are not held for either town); then no
    # amount at all. Now the count the table gives, the permit said not held, and no amount until the planting
    # space is given (the payment is for the trees the site cannot take)
    at = _page("permit", town)
    said = "\n".join(str(x.value) for x in list(at.warning) + list(at.markdown) + list(at.caption))
    assert f"not held for {name}" in said, said
    metrics = {m.label: m.value for m in at.metric}
    # 14 in: Manalapan "greater than 12 and up to 18" and Milltown Category 2 "13 to 22.99": 2 trees each
    required = [v for k, v in metrics.items() if k.startswith("Replacement trees required")]
    assert required == ["2"], metrics
    assert not [v for v in metrics.values() if v in ("$0.00", "No", "0")], metrics
    assert not [k for k in metrics if k.startswith("Permit required")], metrics


@pytest.mark.parametrize("flag", ["--pdf", "--out"])
def test_the_statement_and_report_are_written_where_the_law_is_not_held(tmp_path, flag, capsys):
    from treecalc.cli import main

    survey = tmp_path / "nj.csv"
    survey.write_bytes(SURVEY)
    target = tmp_path / ("r.pdf" if flag == "--pdf" else "s.xlsx")
    # once refused (they printed "Offences: 0" and "Total out of pocket $0.00" for a law whose permit and penalties
    # are not held); now written, saying "not held" in those places (tests/report/test_not_held_outputs.py)
    assert main(["assess", str(survey), "--jurisdiction", "milltown", flag, str(target)]) == 0
    assert target.stat().st_size > 0
    capsys.readouterr()
    assert main(["verify", str(target), str(survey)]) == 0
