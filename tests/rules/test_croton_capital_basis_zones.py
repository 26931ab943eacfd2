"""The §208-22F payment on the fee schedule's capital basis values each tree in its own climate zone.

The survey: four red maples of 14 in, removed; X1 and X3 in Charlotte (35.227 N, 80.843 W, South, PiedmtCLT), X2
and X4 in Minneapolis (44.978 N, 93.265 W, Midwest, MidWstMSP). The fee schedule pays in lieu on the value basis
with the capital basis cumulative:10 (no mortality of its own: Roman & Scatena's 4.3 %/yr, the default).

Each zone's value of one such maple on cumulative:10 is read from an assessment of that one tree alone, in its zone
(the zone's benefit tables and DBH-at-age growth; measured: $1,966.40 in Charlotte, $2,890.61 in Minneapolis). By
hand, the payment in place of the §208-22F replacement is then

    120% x (2 x 1,966.40 + 2 x 2,890.61) = 120% x 9,714.02 = 11,656.824 -> $11,656.83 (rounded up to the cent).

Before, an assessment on the annual basis re-valued all four trees in the survey's zone (Charlotte):
120% x 4 x 1,966.40 = 120% x 7,865.60 = $9,438.72.
"""

from __future__ import annotations

from decimal import ROUND_CEILING, Decimal

import pytest

from treecalc.assessment import assess
from treecalc.report.json import assessment_json

FEE_SCHEDULE = """\
basis = "value"
fee_per_tree_usd = "450.00"
multiplier = "1.0"
value_basis = "cumulative:10"
placeholder = false
label = "Board resolution 2026-14"
appraisal_edition = 9
"""
CHARLOTTE = (35.2271, -80.8431)
MINNEAPOLIS = (44.9778, -93.2650)
SITE = {"has_residence": True, "subdividable": False, "site_plan_required": False}


def _survey(path, points):
    rows = [f"X{i},Red Maple,14,Removed,{lat},{lon}" for i, (lat, lon) in enumerate(points, start=1)]
    path.write_text("Tree No.,Common Name,DBH (in.),Action,Latitude,Longitude\n" + "\n".join(rows) + "\n")
    return path


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("capital_zones")
    fs = d / "fs_cum.toml"
    fs.write_text(FEE_SCHEDULE, encoding="utf-8")
    mixed = _survey(d / "mixed.csv", [CHARLOTTE, MINNEAPOLIS, (35.2273, -80.8433), (44.9779, -93.2651)])
    one_each = {z: _survey(d / f"{z}.csv", [p]) for z, p in (("south", CHARLOTTE), ("midwest", MINNEAPOLIS))}
    return fs, mixed, one_each


def _one_tree_value(path, fs) -> Decimal:
    a = assess(path, site=SITE, value_basis="cumulative:10", fee_schedule=fs)
    return Decimal(str(a.trees["value_usd"].iloc[0]))


def _payment(values: list[Decimal]) -> Decimal:
    return (sum(values, Decimal(0)) * Decimal("1.2")).quantize(Decimal("0.01"), rounding=ROUND_CEILING)


def test_one_maple_in_each_zone_is_worth_its_zones_own_figure(files):
    fs, _, one_each = files
    south, midwest = _one_tree_value(one_each["south"], fs), _one_tree_value(one_each["midwest"], fs)
    assert (south, midwest) == (Decimal("1966.40"), Decimal("2890.61"))
    # 120% x (2 x 1,966.40 + 2 x 2,890.61) = 120% x 9,714.02 = 11,656.824 -> 11,656.83
    assert _payment([south, midwest] * 2) == Decimal("11656.83")


@pytest.mark.parametrize("basis", ["annual", "appraised", "cumulative:10"])
def test_the_22f_payment_values_each_tree_in_its_own_zone_whatever_the_assessments_basis(files, basis):
    fs, mixed, one_each = files
    south, midwest = _one_tree_value(one_each["south"], fs), _one_tree_value(one_each["midwest"], fs)
    a = assess(mixed, site=SITE, value_basis=basis, fee_schedule=fs)
    assert a.trees["zone"].astype(str).tolist() == ["PiedmtCLT", "MidWstMSP", "PiedmtCLT", "MidWstMSP"]
    expected = _payment([south, midwest] * 2)  # 11,656.83; all four valued in Charlotte: 9,438.72
    assert Decimal(str(a.fund.alternative_22f_usd)) == expected, a.fund.alternative_22f_calculation
    assert "$9,714.02" in a.fund.alternative_22f_calculation


def test_a_conditional_offences_payment_values_each_tree_in_its_own_zone(files, tmp_path):
    """X1 (Charlotte) and X2 (Minneapolis) alone, on a parcel whose facts are not given (§208-19A(2): subdividable
    assumed): the offences are conditional, and the payment §208-22F would charge is said apart, on the same
    capital basis: 120% x (1,966.40 + 2,890.61) = 120% x 4,857.01 = 5,828.412 -> $5,828.42 (both in Charlotte:
    120% x 3,932.80 = $4,719.36)."""
    fs, _, one_each = files
    south, midwest = _one_tree_value(one_each["south"], fs), _one_tree_value(one_each["midwest"], fs)
    two = _survey(tmp_path / "two.csv", [CHARLOTTE, MINNEAPOLIS])
    j = assessment_json(assess(two, value_basis="annual", fee_schedule=fs))
    c = j["replacement_conditional"]
    assert (c["trees"], j["offences_definite"]) == (2, 0)
    assert Decimal(str(c["payment_usd"])) == _payment([south, midwest]) == Decimal("5828.42")
