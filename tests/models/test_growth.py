"""Growth curves, their inversion, dbh_after and cumulative benefits (hand-worked)."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treecalc.models import growth
from treecalc.reference import data

CM = 2.54
CODES = tuple(data.catalogue().index)


# --- the Urban Tree Database equations ------------------------------------
def test_utd_cubic_acru_at_20():
    # ACRU cub: 2.64166 + 1.27076*20 - 0.01758*20**2 + 0.00012*20**3
    #         = 2.64166 + 25.4152 - 7.032 + 0.96 = 21.98486 cm
    assert growth.utd_dbh_cm("ACRU", 20) == pytest.approx([21.98486], abs=1e-9)


def test_utd_linear_and_loglog():
    # QURU lin: 2.89687 + 0.91156*150 = 139.63087 (the table's "max", a DBH)
    # ACSA1 loglogw1 at 10: exp(1.1583 + 1.77675*ln(ln(11) + 0.25666/2))
    #   ln 11 = 2.397895; + 0.12833 = 2.526225; ln -> 0.926717;
    #   * 1.77675 = 1.646545; + 1.1583 = 2.804845; exp -> 16.5248 cm
    got = growth.utd_dbh_cm(["QURU", "ACSA1"], [150, 10])
    assert got == pytest.approx([139.63087, 16.5248], abs=1e-3)


def test_utd_rejects_species_without_equation_and_negative_age():
    with pytest.raises(ValueError, match="AB"):
        growth.utd_dbh_cm("AB", 10)
    with pytest.raises(ValueError, match="age"):
        growth.utd_dbh_cm("ACRU", -1)


def test_utd_inversion_acru():
    # 21.98486 cm = 8.655457 in is ACRU's DBH at 20 years (above)
    assert growth.age_from_dbh("ACRU", 21.98486 / CM) == pytest.approx([20.0], abs=1e-3)


def test_utd_min_max_columns_are_dbh_not_age():
    # The documented reading of growth_utd.csv: PYCA 4.13514 + 1.2698*40 = 54.92714 ~ max 54.93
    eq = data.growth_utd().loc["PYCA"]
    assert growth.utd_dbh_cm("PYCA", 40)[0] == pytest.approx(eq["max_dbh_cm"], abs=0.005)


# --- the i-Tree Streets age-class curve -----------------------------------
def test_age_class_interpolation():
    # ACRU: 10 yr 12.5 cm, 20 yr 24.1 cm -> 15 yr (12.5 + 24.1)/2 = 18.3 cm
    # below 5 yr from (0, 0): 2.5 yr -> 6.4/2 = 3.2 cm; after 80 yr held at 79.0
    # BDL OTHER: 10 yr 17.1, 20 yr 32.6 -> 15 yr 24.85 cm
    got = growth.age_class_dbh_cm(["ACRU", "ACRU", "ACRU", "BDL OTHER", "ACRU"], [15, 2.5, 100, 15, 0])
    assert got == pytest.approx([18.3, 3.2, 79.0, 24.85, 0.0])


# --- dbh_after -------------------------------------------------------------
def test_dbh_after_utd_species():
    # ACRU at 21.98486 cm is 20 yr old; in 10 yr f(30) = 2.64166 + 38.1228 - 15.822 + 3.24
    #   = 28.18246 cm = 11.095457 in
    assert growth.dbh_after("ACRU", 21.98486 / CM, 10) == pytest.approx([28.18246 / CM], abs=1e-5)
    assert growth.growth_source("ACRU")[0] == "Urban Tree Database (ACRU, cub)"


def test_dbh_after_non_utd_species():
    # AB (fir) follows CEL OTHER: 10 yr 11.3 cm, 20 yr 21.6 cm.
    # 11.3 cm (4.448819 in) is age 10; +10 yr -> 21.6 cm; +5 yr -> (11.3 + 21.6)/2 = 16.45 cm
    got = growth.dbh_after(["AB", "AB"], 11.3 / CM, [10, 5])
    assert got == pytest.approx([21.6 / CM, 16.45 / CM], abs=1e-9)
    assert growth.growth_source("AB")[0] == "i-Tree Streets age class (CEL OTHER)"


def test_code_not_value_row_decides_utd():
    # A species whose value row has a UTD equation but whose own code has none
    # follows the age-class curve of the value row.
    cat = data.catalogue()
    utd = set(data.growth_utd().index)
    other = cat[cat["value_row"].isin(utd) & ~cat.index.isin(utd)]
    assert len(other), "catalogue has such codes"
    code, row = other.index[0], other["value_row"].iloc[0]
    assert growth.growth_source(code)[0] == f"i-Tree Streets age class ({row})"
    assert growth.dbh_at_age_cm(code, 15) == pytest.approx(growth.age_class_dbh_cm(row, 15))


def test_utd_beyond_range_continues_at_age_class_slope():
    # MA2 lin 2.84705 + 0.74535 t; range max 46.08 cm reached at t = 58 (46.07735).
    # Beyond: + AC(t) - AC(58); MA2 age class 50 yr 37.0, 60 yr 42.1, 70 yr 46.4
    #   AC(58) = 37.0 + 0.8*5.1 = 41.08; AC(70) = 46.4 -> DBH(70) = 46.07735 + 5.32 = 51.39735
    # A tree at f(50) = 40.11455 cm grows in 20 yr to 51.39735 cm.
    got = growth.dbh_after("MA2", 40.11455 / CM, 20)
    assert got == pytest.approx([51.39735 / CM], abs=1e-4)


def test_utd_held_when_age_class_flat():
    # PYCA: equation to t = 40 (f = 54.92714 cm); PYCA's age class is flat after
    # 20 yr, so the curve holds 54.92714 cm. f(30) = 42.22914 cm -> +20 yr -> 54.92714.
    assert growth.dbh_after("PYCA", 42.22914 / CM, 20) == pytest.approx([54.92714 / CM], abs=1e-4)
    # a tree already larger than the curve's maximum keeps its DBH
    assert growth.dbh_after(["PYCA", "AB"], [25.0, 30.0], 20) == pytest.approx([25.0, 30.0])


def test_small_utd_tree_has_negative_age_and_grows_smoothly():
    # ACPL intercept 5.61705 cm; 1 in = 2.54 cm lies before it at the first-year rate 0.91636:
    # age = (2.54 - 5.61705)/0.91636 = -3.3579 yr; after 1 yr 2.54 + 0.91636 = 3.45636 cm
    assert growth.age_from_dbh("ACPL", 1.0) == pytest.approx([-3.3579], abs=1e-3)
    assert growth.dbh_after("ACPL", 1.0, 1) == pytest.approx([3.45636 / CM], abs=1e-6)


def test_nan_and_bad_input():
    assert np.isnan(growth.dbh_after("ACRU", np.nan, 5)).all()
    with pytest.raises(ValueError, match="dbh"):
        growth.dbh_after("ACRU", -1.0, 5)
    with pytest.raises(ValueError, match="years"):
        growth.dbh_after("ACRU", 1.0, -5)
    with pytest.raises(ValueError, match="ZZZZ"):
        growth.dbh_after("ZZZZ", 1.0, 5)


def test_roundtrip_every_curve():
    ages = np.array([0.0, 3.0, 12.5, 40.0, 75.0])
    codes = np.repeat(np.array(CODES, dtype=object), len(ages))
    a = np.tile(ages, len(CODES))
    d_cm = growth.dbh_at_age_cm(codes, a)
    back = growth.dbh_at_age_cm(codes, growth.age_from_dbh(codes, d_cm / CM))
    assert back == pytest.approx(d_cm, abs=1e-9)


# --- cumulative benefits ---------------------------------------------------
def _const(v):
    return lambda codes, dbh: np.full(len(dbh), v)


def test_cumulative_constant_value():
    # $10/yr for 20 yr: 200; with 2 % mortality (deaths at year end):
    #   sum_{t=1..20} 10 * 0.98**(t-1) = 10 (1 - 0.98**20) / 0.02 = 166.19601
    tot = growth.cumulative_benefits(["ACRU", "AB"], [10.0, 5.0], 20, _const(10.0))
    assert tot == pytest.approx([200.0, 200.0])
    tot = growth.cumulative_benefits(["ACRU", "AB"], [10.0, 5.0], 20, _const(10.0), mortality_rate=0.02)
    assert tot == pytest.approx([10 * (1 - 0.98**20) / 0.02] * 2)
    assert tot[0] == pytest.approx(166.19601, abs=1e-5)


def test_cumulative_linear_in_dbh_with_discount():
    # AB (CEL OTHER) at 11.3 cm = age 10. Value $2 per inch of DBH per year.
    # Start-of-year DBH: year 1 11.3 cm, year 2 11.3 + 0.1*(21.6-11.3) = 12.33, year 3 13.36 cm.
    #   undiscounted: 2*(11.3 + 12.33 + 13.36)/2.54 = 29.12598
    #   at 5 %, received at year end: 2/2.54*(11.3/1.05 + 12.33/1.05**2 + 13.36/1.05**3)
    #         = 2/2.54*(10.76190 + 11.18367 + 11.54087) = 26.36728
    fn = lambda codes, dbh: 2.0 * dbh  # noqa: E731
    tot, per_year = growth.cumulative_benefits("AB", 11.3 / CM, 3, fn, return_per_year=True)
    assert tot == pytest.approx([29.12598], abs=1e-4)
    assert per_year.shape == (1, 3)
    assert per_year[0] == pytest.approx([2 * 11.3 / CM, 2 * 12.33 / CM, 2 * 13.36 / CM])
    tot = growth.cumulative_benefits("AB", 11.3 / CM, 3, fn, discount_rate=0.05)
    assert tot == pytest.approx([26.36728], abs=1e-4)


def test_cumulative_calls_fn_with_codes_and_zero_years():
    seen = []

    def fn(codes, dbh):
        seen.append((list(codes), dbh.shape))
        return np.ones(len(dbh))

    tot, per_year = growth.cumulative_benefits(["ACRU", "AB"], [1.0, 2.0], 2, fn, return_per_year=True)
    assert seen == [(["ACRU", "AB"], (2,)), (["ACRU", "AB"], (2,))]
    assert per_year.sum(axis=1) == pytest.approx(tot)
    tot, per_year = growth.cumulative_benefits(["ACRU"], [1.0], 0, fn, return_per_year=True)
    assert tot == pytest.approx([0.0]) and per_year.shape == (1, 0)
    with pytest.raises(ValueError, match="mortality"):
        growth.cumulative_benefits("ACRU", 1.0, 5, fn, mortality_rate=1.0)
    with pytest.raises(ValueError, match="years"):
        growth.cumulative_benefits("ACRU", 1.0, 2.5, fn)


@functools.cache
def _catalogue_20yr() -> dict[str, np.ndarray]:
    """20-year benefits of every code at 5 DBHs (2 % mortality, 3 % discount).

    The annual value is a benefit of the i-Tree Streets kind read straight from
    the resource tables (stormwater gal x $/gal + electricity kWh x $/kWh,
    linear between DBH class midpoints), so this test does not depend on the
    benefit orchestrator.
    """
    cat = data.catalogue()
    t = data.benefit_tables()
    price = data.prices()
    row_of = {c: t.row_index[v] for c, v in zip(cat.index, cat["value_row"])}
    water = t.stack["hydro_interception"][0] * 264.172 * price["hydro_interception"]
    power = t.stack["electricity"][0] * price["electricity"]

    def annual(codes, dbh):
        r = np.array([row_of[c] for c in codes])
        x = np.clip(dbh * CM, data.DBH_CLASSES_CM[0], data.DBH_CLASSES_CM[-1])
        out = np.empty(len(dbh))
        for k in np.unique(r):
            m = r == k
            out[m] = np.interp(x[m], data.DBH_CLASSES_CM, water[k] + power[k])
        return out

    dbhs = np.array([0.0, 1.0, 6.0, 24.0, 60.0])
    codes = np.repeat(np.array(CODES, dtype=object), len(dbhs))
    tot = growth.cumulative_benefits(
        codes, np.tile(dbhs, len(CODES)), 20, annual, mortality_rate=0.02, discount_rate=0.03
    )
    return dict(zip(CODES, tot.reshape(len(CODES), len(dbhs))))


@pytest.mark.parametrize("code", CODES)
def test_catalogue_20yr_benefits_finite_non_negative(code):
    v = _catalogue_20yr()[code]
    assert np.isfinite(v).all() and (v >= 0).all()


# --- properties ------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(code=st.sampled_from(CODES), dbh=st.floats(0.0, 80.0), y1=st.floats(0.0, 200.0), y2=st.floats(0.0, 200.0))
def test_dbh_after_monotone_and_never_below_start(code, dbh, y1, y2):
    lo, hi = sorted((y1, y2))
    a, b = growth.dbh_after(code, dbh, [lo, hi])
    assert a >= dbh and b >= a
