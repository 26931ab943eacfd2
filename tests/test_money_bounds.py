"""Money that cannot wrap, and options the library checks itself (the ranges of the command line's flags)."""

from __future__ import annotations

import csv
import json
from decimal import ROUND_CEILING, Decimal
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers.bounds import refused, run_capped
from treecalc.quantities import RANGES, OutOfRange, in_range
from treecalc.rules import croton_on_hudson as croton
from treecalc.rules.context import OPTION_RANGES, AssessOptions
from treecalc.rules.croton_on_hudson.schedule import in_lieu, load_fee_schedule

PRICES = ["electricity", "natural_gas", "hydro_interception", "co2", "o3", "nox", "pm10", "sox", "voc"]
AT_MAXIMUM = [x for p in PRICES for x in ("--price", f"{p}=1000000")] + [
    "--home-price",
    "1000000000",
    "--value-basis",
    "cumulative:200",
    "--mortality",  # the bottom of its range: every tree lives the 200 years, the largest value the basis gives
    "0",
]


def _oaks(path: Path, n: int) -> Path:
    """``n`` northern red oaks of 48 in, all removed: a large estate cleared (a user's CSV, not the sample)."""
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Tag", "Species", "DBH (in)", "Action"])
        for i in range(n):
            w.writerow([f"T{i + 1}", "Quercus rubra", 48, "removed"])
    return path


def test_every_price_at_its_maximum_never_wraps_to_a_negative_value(tmp_path):
    # 30,000 oaks of 48 in removed, every price at the top of its documented range (units.RANGES). Each tree is
    # worth v dollars on the basis (the same for every tree); the removed value is 30,000 x v exactly, far beyond
    # int64 cents (9.2 x 10^16 dollars): it used to wrap to -7.13 x 10^16 with 0 replacement trees.
    src = _oaks(tmp_path / "estate.csv", 30_000)
    code, out, err, _ = run_capped(["assess", str(src), *AT_MAXIMUM, "--json"])
    assert code == 0, err[-2000:]
    j = json.loads(out)
    each = Decimal(str(j["per_tree"][0]["value_usd"]))
    assert {r["value_usd"] for r in j["per_tree"]} == {float(each)}
    each_cents = int(each * 100)
    assert each_cents > 0
    # §208-22F: the removed value is the sum of the trees' values, 120 % of it rounded up to the cent is required
    removed = 30_000 * each_cents
    required = int((Decimal(removed) * Decimal("1.2")).to_integral_value(rounding=ROUND_CEILING))
    assert removed > 2**63  # beyond int64 cents: the case that wrapped
    assert j["removed_value_cents"] == removed
    assert j["required_value_cents"] == required
    assert j["replacement_parts"][0]["value_cents"] == removed
    assert j["removed_value_usd"] == pytest.approx(removed / 100) and j["removed_value_usd"] > 0
    assert j["required_value_usd"] > 0 and j["replacement"]["trees_needed"] > 0
    # each replacement tree carries value_per_tree_usd: enough of them to meet the requirement, one fewer is not
    per = Decimal(str(j["replacement"]["value_per_tree_usd"])) * 100
    n = j["replacement"]["trees_needed"]
    assert n * per >= required > (n - 1) * per
    # every needed tree is planted at the placeholder unit cost of each plan row: count x cost, in cents
    plan = j["replacement"]["plan"]
    assert j["replacement"]["planting_cost_cents"] == sum(r["count"] * round(r["unit_cost_usd"] * 100) for r in plan)


def test_cents_sum_refuses_a_value_that_is_not_finite():
    for bad in (float("nan"), float("inf"), -float("inf"), 1e307):  # 1e307 x 100 is infinite
        with pytest.raises(OutOfRange, match="not a finite number"):
            croton.cents_sum(np.array([1.0, bad]), np.ones(2, dtype=bool))


@settings(max_examples=60, deadline=None)
@given(
    # up to 2**50 cents (~$1.1 x 10^13 a tree): c / 100 as a float, times 100, rounds back to c exactly
    cents=st.lists(st.integers(min_value=0, max_value=2**50), min_size=1, max_size=40),
    repeat=st.sampled_from([1, 7, 5_000]),
)
def test_cents_sum_is_exact_and_never_wraps(cents, repeat):
    # amounts already rounded to cents (c / 100 dollars); repeated up to 5,000 times the sum passes 2**63 cents. The exact answer is the sum of the integers, worked out in Python ints.
    values = np.tile(np.array(cents, dtype=float) / 100, repeat)
    got = croton.cents_sum(values, np.ones(len(values), dtype=bool))
    assert got == Decimal(sum(cents) * repeat) / 100
    assert got >= 0 and got.is_finite()


@settings(max_examples=60, deadline=None)
@given(
    fee=st.decimals(min_value=0, max_value=10**9, places=2, allow_nan=False, allow_infinity=False),
    trees=st.integers(min_value=0, max_value=10_000_000),
)
def test_fee_in_lieu_is_fee_times_trees_exactly(fee, trees):
    # §208-24: fee x trees not planted, exact to the cent for every fee and count within their ranges
    s = load_fee_schedule({"basis": "per_tree", "fee_per_tree_usd": str(fee or "1")})
    f = in_lieu(s, trees_in_lieu=trees, unmet_value_usd=0.0)
    assert f["fund_in_lieu_exact"] == (fee or Decimal(1)) * trees
    assert f["fund_in_lieu_exact"] >= 0


@settings(max_examples=40, deadline=None)
@given(
    per_day=st.lists(st.sampled_from([0, 500, 1500, 3000, 7500, 15000]), min_size=1, max_size=20),
    days=st.integers(min_value=1, max_value=36_500),
)
def test_penalties_times_days_are_exact(per_day, days):
    # §208-29B "each day ... a separate violation": dollars x days, exact, never negative
    got = croton._times_days(np.array(per_day, dtype=np.int64), days)
    assert [int(x) for x in got] == [p * days for p in per_day]


NUMBERS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([1e30, 1e300, 2**53 - 1, -1, 0]),
)


@settings(max_examples=200, deadline=None)
@given(key=st.sampled_from(sorted(OPTION_RANGES)), value=NUMBERS)
def test_every_option_is_within_its_range_or_refused_naming_it(key, value):
    # the library's own check: the same range as the flag (units.RANGES); outside it, OutOfRange names the option
    name, kind = OPTION_RANGES[key]
    r = RANGES[kind]
    v = float(value)
    inside = np.isfinite(v) and (v > r.low if r.strict_low else v >= r.low) and v <= r.high
    inside = inside and (not r.whole or v == int(v))
    # an amount of money (kind "usd": a fee, a unit cost) is set in whole cents: 0.125 is refused, not rounded
    sub_cent = inside and kind == "usd" and Decimal(repr(value)) != Decimal(repr(value)).quantize(Decimal("0.01"))
    if sub_cent:
        with pytest.raises(OutOfRange, match=r"fraction of a cent"):
            AssessOptions(**{key: value}).validated()
    elif inside:
        AssessOptions(**{key: value}).validated()
    else:
        with pytest.raises(OutOfRange, match=rf"\({key}\)"):
            AssessOptions(**{key: value}).validated()


@pytest.mark.parametrize(
    "kw, words",
    [
        ({"fee_per_tree_usd": "1e30"}, "(fee_per_tree_usd) must be from 0 to 1,000,000,000 USD"),
        ({"replacement_cost_usd": "1e30"}, "(replacement_cost_usd) must be from 0 to 1,000,000,000 USD"),
        ({"replacement_cost_usd": 1e12}, "(replacement_cost_usd) must be from 0 to 1,000,000,000 USD"),
        ({"continuing_days": 1e300}, "(continuing_days) must be a whole number from 1 to 36,500 days"),
        ({"continuing_days": 2**53 - 1}, "(continuing_days) must be a whole number from 1 to 36,500 days"),
        ({"value_basis": "cumulative:100000"}, "(value_basis, years) must be a whole number from 1 to 200"),
        (
            {"replacement_stock": [{"species": "ACRU", "dbh_in": 2, "unit_cost_usd": "1e30"}]},
            "replacement_stock 1 unit_cost_usd must be from 0 to 1,000,000,000 USD",
        ),
    ],
)
def test_absurd_options_are_refused_by_the_library(kw, words):
    with pytest.raises(OutOfRange) as e:
        AssessOptions(**kw).validated()
    assert words in str(e.value)


@pytest.mark.parametrize(
    "toml, words",
    [
        ('basis = "value"\nmultiplier = 1e15\n', "multiplier must be from 0 to 100 times"),
        ('basis = "value"\nmultiplier = "1e30"\n', "multiplier must be from 0 to 100 times"),
        ('basis = "per_tree"\nfee_per_tree_usd = 1e30\n', "fee_per_tree_usd must be from 0 to 1,000,000,000 USD"),
        ('basis = "value"\nvalue_basis = "cumulative:100000"\n', "value_basis cumulative:N (years) must be"),
    ],
)
def test_a_fee_schedule_file_is_refused_in_the_same_words(tmp_path, toml, words):
    f = tmp_path / "fees.toml"
    f.write_text(toml)
    with pytest.raises(OutOfRange, match="fee schedule .*fees.toml") as e:
        load_fee_schedule(f)
    assert words in str(e.value)


def test_a_price_or_home_price_beyond_its_range_is_refused_by_the_library():
    import treecalc

    # 1e308 $/kWh made the energy benefit inf - inf = NaN, shown as $0.00
    with pytest.raises(OutOfRange, match="price electricity must be from 0 to 1,000,000 USD per unit"):
        treecalc.benefits("ACRU", 12, prices={"electricity": 1e308})
    with pytest.raises(OutOfRange, match="home price"):
        treecalc.benefits("ACRU", 12, home_price_usd=1e300)


def test_the_command_line_says_the_same_as_the_library(tmp_path):
    src = _oaks(tmp_path / "s.csv", 3)
    refused(["assess", str(src), "--violation", "--days", str(2**53 - 1)], "--days must be a whole number from 1 to")
    fees = tmp_path / "fees.toml"
    fees.write_text('basis = "value"\nmultiplier = 1e15\n')
    refused(["assess", str(src), "--fee-schedule", str(fees)], "multiplier must be from 0 to 100 times")
    fees.write_text('basis = "value"\nvalue_basis = "cumulative:100000"\n')
    refused(["assess", str(src), "--fee-schedule", str(fees)], "value_basis cumulative:N (years) must be")


def test_a_meter_result_just_above_minus_100_is_refused_cleanly():
    # -99.999...9 % leaves 1e-27 of the water registered: the correction would be 10^29 units (28-digit cents)
    err = refused(
        ["water", "meter-test", "--billed", "100", "--result", "-99.9999999999999999999999999"],
        "--result",
        "beyond any bill",
    )
    assert "InvalidOperation" not in err


def test_in_range_is_the_one_refusal():
    with pytest.raises(OutOfRange):
        in_range("x", "nan", "usd")
    assert issubclass(OutOfRange, ValueError)


@settings(max_examples=60, deadline=None)
@given(
    cents=st.integers(min_value=0, max_value=10**14 - 1),
    late_days=st.integers(min_value=0, max_value=28),  # within the first month: no 1 % yet
)
def test_a_water_bill_owes_at_least_its_charge_and_never_wraps(cents, late_days):
    # §223-12F(2): 5 % the day after the due date, rounded to the cent: a bill of c cents unpaid a day or more
    # late owes c + round(c x 5 / 100) (half up), exact for any amount under $10^12; on time it owes c
    import datetime as dt

    from treecalc.rules.croton_on_hudson import ch223_water

    amount = Decimal(cents) / 100
    due = dt.date(2026, 3, 2)
    s = ch223_water.penalty_schedule(
        str(amount), due.isoformat(), as_of=(due + dt.timedelta(days=late_days)).isoformat()
    )
    first = (Decimal(cents) * 5 / 100).quantize(Decimal(1), rounding="ROUND_HALF_UP") / 100
    assert s.charge_outstanding == amount
    assert s.total_due == (amount + first if late_days >= 1 else amount)
    assert s.total_due >= amount >= 0 and s.total_due.is_finite()


def test_a_water_bill_beyond_the_money_limit_is_refused_naming_it():
    from treecalc.rules.croton_on_hudson import ch223_water

    with pytest.raises(ValueError, match="is too large: it must be under 1,000,000,000,000"):
        ch223_water.penalty_schedule("1e12", "2026-03-02", as_of="2026-04-01")


#: what a cumulative basis's N must be, as the range of cumulative_years says it (1 to 200 years)
_YEARS = "(years) must be a whole number from 1 to 200 years (benefits with growth over up to 200 years)"


@pytest.mark.parametrize(
    "basis, got",
    [
        ("cumulative", "'cumulative'"),  # no N: it said "use cumulative:N with N ... >= 1", naming no option
        ("cumulative:", "'cumulative:'"),
        ("cumulative:x", "'cumulative:x'"),
        ("cumulative:0", "'0'"),  # 0 < 1
        ("cumulative:201", "'201'"),  # 201 > 200
    ],
)
def test_a_cumulative_basis_without_a_good_n_is_refused_naming_the_option_and_the_range(tmp_path, capsys, basis, got):
    from treecalc.cli import main
    from treecalc.models.valuation import parse_value_basis

    with pytest.raises(OutOfRange) as e:
        parse_value_basis(basis)
    assert str(e.value) == f"‹value_basis=cumulative:N› {_YEARS}, got {got}"  # the library names the keyword
    src = _oaks(tmp_path / "s.csv", 1)
    assert main(["assess", str(src), "--value-basis", basis]) == 2
    assert capsys.readouterr().err.strip() == f"error: --value-basis cumulative:N {_YEARS}, got {got}"
