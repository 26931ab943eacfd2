"""The docs page "Appraisal: the 9th and the 10th edition" (docs/science/appraisal.md): the sample's appraised
basis under both editions is what the assessment says (the table is derived, not pasted), and the two trees it
works by hand are right."""

import math
import re
from pathlib import Path

import pytest

import treecalc
from treecalc.models import appraisal, appraisal10
from treecalc.reference.data import SAMPLE_SURVEY

PAGE = Path(__file__).resolve().parents[2] / "docs" / "science" / "appraisal.md"
TENTH = {"basis": "per_tree", "fee_per_tree_usd": "450", "appraisal_edition": 10}


def _table() -> dict[str, tuple[float, float]]:
    text = PAGE.read_text(encoding="utf-8")
    part = text[text.index("| | 9th edition") : text.index("Why they differ")]
    rows = {}
    for line in part.splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3:
            rows[cells[0]] = tuple(float(re.sub(r"[$,]", "", c)) for c in cells[1:])
    return rows


def _figures(a) -> dict[str, float]:
    rep, parts = a.replacement, {p.section: p for p in a.replacement.parts}
    return {
        "value of the 9 trees counted (§208-22B)": rep.removed_value_usd,
        "— §208-22F part (1 tree, 120 %)": parts["§208-22F"].value_usd,
        "— §208-22A part (8 trees, 90 %)": parts["§208-22A"].value_usd,
        "value the replacements must carry": rep.required_value_usd,
        "§208-22F alternative payment": a.fund.alternative_22f_usd,
        "all 39 trees appraised": round(float(a.trees["value_usd"].sum()), 2),
    }


def test_page_table_is_the_assessment_under_both_editions():
    rows = _table()
    ninth = _figures(treecalc.assess(SAMPLE_SURVEY, value_basis="appraised"))
    tenth = _figures(treecalc.assess(SAMPLE_SURVEY, value_basis="appraised", fee_schedule=TENTH))
    assert set(rows) == set(ninth)
    for label, (nine, ten) in rows.items():
        assert nine == pytest.approx(ninth[label], abs=0.005), label
        assert ten == pytest.approx(tenth[label], abs=0.005), label
    # the parts carry their percentages: 120% of the §208-22F part + 90% of the §208-22A part, to the cent
    # 9th: 1.2 x 7,790.73 + 0.9 x 46,623.75 = 9,348.876 + 41,961.375 = 51,310.25 (+ 1 cent, rounded up per part)
    assert rows["value the replacements must carry"][0] == pytest.approx(1.2 * 7790.73 + 0.9 * 46623.75, abs=0.02)
    # 10th: 1.2 x 22,094.52 + 0.9 x 80,200.17 = 26,513.424 + 72,180.153 = 98,693.58 (+ 1 cent)
    assert rows["value the replacements must carry"][1] == pytest.approx(1.2 * 22094.52 + 0.9 * 80200.17, abs=0.02)


def test_the_two_trees_worked_on_the_page():
    # 41 in white oak, excellent: TA = pi x 20.5^2 = 1,320.25 sq in; 9th [530 + 66 x (1,320.25 - 7.065)] x 1.00
    # (species) x 1.00 (excellent) = 530 + 86,670.25 = 87,200.49; 10th 75.0176 x 1,320.25 = 99,042.36
    ta = math.pi * 20.5**2
    unit = 530 / 7.0650048828125
    assert round(float(appraisal.replacement_value("QUAL", 41, "excellent")[0]), 2) == 87200.49
    assert round(float(appraisal10.appraised_value("QUAL", 41, "excellent")[0]), 2) == round(unit * ta, 2) == 99042.36
    # 5 in flowering dogwood, fair: TA = pi x 2.5^2 = 19.635; 9th [530 + 66 x (19.635 - 7.065)] x 0.40 x 0.60
    # = 1,359.63 x 0.24 = 326.31; 10th 75.0176 x 19.635 x 0.60 = 883.78
    assert round(float(appraisal.replacement_value("COFL", 5, "fair")[0]), 2) == 326.31
    assert round(float(appraisal10.appraised_value("COFL", 5, "fair")[0]), 2) == round(unit * math.pi * 6.25 * 0.6, 2)
    assert round(unit * math.pi * 6.25 * 0.6, 2) == 883.78
    text = PAGE.read_text(encoding="utf-8")
    for figure in ("$87,200.49", "$99,042.36", "$326.31", "$883.78"):
        assert figure in text
