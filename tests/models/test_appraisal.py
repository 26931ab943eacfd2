"""CTLA trunk-formula replacement value (hand-worked)."""

from __future__ import annotations

import numpy as np
import pytest

from treecalc.models import appraisal
from treecalc.reference import data

CODES = tuple(data.catalogue().index)
TAR = 7.0650048828125  # catalogue TAr for ACRU (and all broadleaf/conifer rows), sq in


def test_acru_12in_good():
    # ACRU: S = 0.90, Cr = $530, Pb = $66/sq in, TAr = 7.065005 sq in; good = 0.80
    # TA = pi * 6**2 = 113.097336; TA - TAr = 106.032331; * 66 = 6998.13382
    # basic = 530 + 6998.13382 = 7528.13382; * 0.90 * 0.80 = 5420.25635
    assert appraisal.trunk_area_sqin(12.0) == pytest.approx(113.097336, abs=1e-6)
    assert appraisal.replacement_value("ACRU", 12.0, "good") == pytest.approx([5420.25635], abs=1e-4)
    # fair (0.60): 7528.13382 * 0.9 * 0.6 = 4065.19226
    assert appraisal.replacement_value("ACRU", 12.0, "Fair") == pytest.approx([4065.19226], abs=1e-4)


def test_smaller_than_replacement_size():
    # 2 in: TA = pi = 3.14159 <= TAr -> Cr * S * K = 530 * 0.90 * 0.80 = 381.60
    # 0 in (a stump-size record) gets the same floor, never negative
    assert appraisal.replacement_value("ACRU", [2.0, 0.0]) == pytest.approx([381.60, 381.60])
    # exactly at the replacement size: 3 in -> TA = 7.0686 ~ TAr -> 530 + 66*(7.06858-7.065005)
    assert appraisal.replacement_value("ACRU", 3.0) == pytest.approx([(530 + 66 * (np.pi * 2.25 - TAR)) * 0.72])


def test_location_and_numeric_condition():
    # location 0.5 halves; a numeric condition is used as it is
    base = 7528.133822 * 0.90
    got = appraisal.replacement_value(["ACRU"] * 3, 12.0, ["good", 0.5, "Very Good"], location=[0.5, 1.0, 1.0])
    assert got == pytest.approx([base * 0.8 * 0.5, base * 0.5, base * 0.9], abs=1e-3)


def test_condition_classes():
    got = appraisal.condition_factor(["excellent", "very-good", "GOOD", " fair ", "poor", "critical", "dead"])
    assert got == pytest.approx([1.0, 0.9, 0.8, 0.6, 0.4, 0.2, 0.0])


def test_unknown_condition_names_value_and_allowed():
    with pytest.raises(ValueError) as e:
        appraisal.replacement_value(["ACRU", "ACRU"], 12.0, ["good", "splendid"])
    msg = str(e.value)
    assert "'splendid'" in msg and "excellent" in msg and "fair" in msg and "dead" in msg


@pytest.mark.parametrize("blank", ["", "  ", None, np.nan])
def test_blank_condition_raises(blank):
    with pytest.raises(ValueError, match="blank"):
        appraisal.replacement_value("ACRU", 12.0, [blank])


def test_bad_inputs():
    with pytest.raises(ValueError, match="ZZZZ"):
        appraisal.replacement_value("ZZZZ", 12.0)
    with pytest.raises(ValueError, match="dbh"):
        appraisal.replacement_value("ACRU", -1.0)
    with pytest.raises(ValueError, match="location"):
        appraisal.replacement_value("ACRU", 12.0, location=1.5)
    with pytest.raises(ValueError, match="fraction"):
        appraisal.replacement_value("ACRU", 12.0, 1.2)


def test_palms():
    # BUCA: Cr = $540, $24 per ft of clear trunk, S = 0.70, basic price 0
    # 10 ft, Hr = 0, good: (540 + 240) * 0.70 * 0.80 = 436.80
    # no height: floor 540 * 0.70 * 0.80 = 302.40 (DBH ignored)
    # Hr = 4 ft: (540 + 24*6) * 0.56 = 383.04
    assert appraisal.replacement_value(["BUCA", "BUCA"], [5.0, 30.0], height_ft=[10.0, np.nan]) == pytest.approx(
        [436.80, 302.40]
    )
    assert appraisal.replacement_value("BUCA", 5.0) == pytest.approx([302.40])
    assert appraisal.replacement_value("BUCA", 5.0, height_ft=10.0, palm_replacement_height_ft=4.0) == pytest.approx(
        [383.04]
    )


def test_adjusted_trunk_area_option():
    # 40 in: ATA = -0.335*1600 + 69.3*40 - 1087 = 1149.0 sq in (TA would be 1256.64)
    # (530 + 66*(1149 - 7.065005)) * 0.72 = 54646.35
    assert appraisal.adjusted_trunk_area_sqin([20.0, 40.0]) == pytest.approx([np.pi * 100, 1149.0])
    assert appraisal.replacement_value("ACRU", 40.0, adjust_large_trees=True) == pytest.approx(
        [(530 + 66 * (1149.0 - TAR)) * 0.72]
    )


def test_vectorised_matches_scalar():
    codes = ["ACRU", "AB", "BUCA", "QURU"]
    dbh = [12.0, 3.0, 8.0, 30.0]
    cond = ["good", "poor", "fair", "excellent"]
    vec = appraisal.replacement_value(codes, dbh, cond)
    one = [appraisal.replacement_value(c, d, k)[0] for c, d, k in zip(codes, dbh, cond)]
    assert vec == pytest.approx(one)


@pytest.mark.parametrize("code", CODES)
def test_every_catalogue_species_finite_non_negative(code):
    dbh = np.array([0.0, 1.0, 6.0, 24.0, 60.0])
    for cond in appraisal.CONDITION_RATING:
        v = appraisal.replacement_value(code, dbh, cond)
        assert np.isfinite(v).all() and (v >= 0).all()
    # value never falls as the tree grows (good condition)
    v = appraisal.replacement_value(code, dbh)
    assert (np.diff(v) >= 0).all()
