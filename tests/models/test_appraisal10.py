"""The 10th-edition appraisal (Guide for Plant Appraisal, CTLA/ISA 2019, rev. 2020), by hand."""

import math

import numpy as np
import pytest

from treecalc.models import appraisal, appraisal10


def test_buckeye_arborist_pin_oak_to_the_dollar():
    # The Buckeye Arborist, March/April 2022, pp. 20-21: LCANT a 3 in pin oak at $200 (unit cost $200 / 7.07
    # sq in); a 30 in pin oak: basic cost $20,000; condition 80% -> $16,000; functional limitations 75% -> $12,000
    # (checked against the article: it prints $28.31/sq in = 200 / 7.065 and 706.5 sq in for pi x 15^2 = 706.86,
    # rounded figures; exactly 200 / 7.0686 = $28.29 and 28.294 x 706.858 = 200 x (30/3)^2 = $20,000.00).
    # Not the Guide's own example: none was found (docs/science/appraisal.md, "Appraisal: the 9th and the 10th edition")
    unit = appraisal10.unit_cost_usd_per_sqin(200, 3)
    assert unit == pytest.approx(200 / (math.pi * 1.5**2))  # 28.294 $/sq in
    assert round(float(appraisal10.trunk_formula_technique(30, unit))) == 20_000  # 200 x (30/3)^2
    assert round(float(appraisal10.trunk_formula_technique(30, unit, 80))) == 16_000
    assert round(float(appraisal10.trunk_formula_technique(30, unit, 80, 75))) == 12_000
    # an external limitation multiplies once more: 12,000 x 90% = 10,800
    assert round(float(appraisal10.trunk_formula_technique(30, unit, 80, 75, 90))) == 10_800


def test_cost_compounding_by_hand():
    # $500 planted 4 years ago at 5%: 500 x 1.05^4 = 500 x 1.21550625 = 607.753125
    assert float(appraisal10.cost_compounding_technique(500, 4, 0.05)) == pytest.approx(607.753125)
    # + $50 a year of care: 50 x (1.05^3 + 1.05^2 + 1.05 + 1) = 50 x 4.310125 = 215.50625 -> 823.259375
    assert float(appraisal10.cost_compounding_technique(500, 4, 0.05, 50)) == pytest.approx(823.259375)
    # at 0%: the costs simply add up, 500 + 4 x 50 = 700; condition 60% -> 420
    assert float(appraisal10.cost_compounding_technique(500, 4, 0.0, 50, 60)) == pytest.approx(420.0)


def test_surveyed_tree_with_the_placeholder_unit_cost_next_to_the_9th():
    # red maple, 12 in, good: placeholder unit cost = $530 / 7.0650048828125 sq in = $75.0176/sq in
    # TA = pi x 36 = 113.09734 sq in; 75.01764 x 113.09734 = 8,484.295; x 80% (good) = 6,787.436
    v10 = float(appraisal10.appraised_value("ACRU", 12, "good")[0])
    assert v10 == pytest.approx(530 / 7.0650048828125 * math.pi * 36 * 0.8, rel=1e-9)
    assert round(v10, 2) == 6787.44
    # the 9th edition (i-Tree Streets): [530 + 66 x (113.0973 - 7.0650)] x 90% species x 80% = 5,420.26:
    # the 10th has no species rating and prices the whole trunk at the nursery tree's unit cost
    v9 = float(appraisal.replacement_value("ACRU", 12, "good")[0])
    assert round(v9, 2) == 5420.26 and v10 > v9


def test_bad_percentages_are_refused():
    with pytest.raises(ValueError, match="functional"):
        appraisal10.trunk_formula_technique(10, 50, 80, 120)
    with pytest.raises(ValueError, match="nursery tree"):
        appraisal10.unit_cost_usd_per_sqin(200, 0)
    assert np.all(appraisal10.trunk_formula_technique([0, 10], 50) >= 0)
