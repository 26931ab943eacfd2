"""Tree Preservation Fund in lieu under both bases (§208-22D, §208-24C)."""

import datetime as dt
from decimal import Decimal

import pytest

from treecalc.rules.croton_on_hudson.schedule import in_lieu, load_fee_schedule


def test_default_schedule_is_a_labelled_placeholder():
    s = load_fee_schedule()
    assert s.basis == "per_tree" and s.placeholder and "Board resolution" in s.label
    f = in_lieu(s, trees_in_lieu=3, unmet_value_usd=20.0)
    # 3 trees x $450.00 = $1,350.00
    assert f["fund_in_lieu_usd"] == 1350.00 and f["fund_in_lieu_exact"] == Decimal("1350.00")
    assert "PLACEHOLDER" in f["notes"][0]
    assert any("§208-23C" in n for n in f["notes"]) and any("§208-29H" in n for n in f["notes"])


def test_per_tree_override():
    s = load_fee_schedule(fee_per_tree_usd="312.35")
    assert not s.placeholder
    # 7 x $312.35 = $2,186.45 exactly
    assert in_lieu(s, trees_in_lieu=7, unmet_value_usd=0)["fund_in_lieu_exact"] == Decimal("2186.45")


def test_value_basis(tmp_path):
    p = tmp_path / "fees.toml"
    p.write_text('basis = "value"\nmultiplier = "1.5"\n')
    s = load_fee_schedule(p)
    f = in_lieu(s, trees_in_lieu=4, unmet_value_usd=58.123)
    # $58.12 unmet value x 1.5 = $87.18
    assert f["basis"] == "value" and f["fund_in_lieu_exact"] == Decimal("87.18")
    # from a dict too; multiplier 12 -> 58.12 x 12 = 697.44
    assert (
        in_lieu(load_fee_schedule({"basis": "value", "multiplier": 12}), trees_in_lieu=0, unmet_value_usd=58.12)[
            "fund_in_lieu_usd"
        ]
        == 697.44
    )


def test_bad_schedules():
    with pytest.raises(ValueError):
        load_fee_schedule({"basis": "per_acre"})
    with pytest.raises(ValueError):
        load_fee_schedule({"basis": "per_tree"})  # no fee set
    with pytest.raises(ValueError):
        load_fee_schedule(fee_per_tree_usd="-5")
    # a $0 fee per tree is refused saying why (it read "must be set" though one was given)
    with pytest.raises(ValueError, match=r"more than \$0 for basis per_tree .*§208-24C"):
        load_fee_schedule(fee_per_tree_usd="0")


def test_fee_schedule_toml_round_trips():
    import tomllib

    from treecalc.rules.croton_on_hudson.schedule import fee_schedule_toml, load_fee_schedule

    text = fee_schedule_toml(
        {
            "basis": "value",
            "multiplier": "1.25",
            "fee_per_tree_usd": "600.00",
            "placeholder": False,
            "label": 'set by "Resolution" 12-2026',
        }
    )
    s = load_fee_schedule(tomllib.loads(text))
    assert (s.basis, str(s.multiplier), str(s.fee_per_tree_usd), s.placeholder) == ("value", "1.25", "600.00", False)
    assert s.label == 'set by "Resolution" 12-2026'


def test_fee_schedule_file_errors_name_the_file(tmp_path):
    import pytest as _pytest

    from treecalc.rules.croton_on_hudson.schedule import load_fee_schedule as _load

    bad = tmp_path / "fees.toml"
    bad.write_text('basis = "per_tree"\nfee_per_tree_usd = "1"\nmultiplier = = 2\n')
    with _pytest.raises(ValueError, match=r"fee schedule .*fees\.toml: invalid TOML at line 3: "):
        _load(bad)
    with _pytest.raises(ValueError, match=r"fee schedule .*missing\.toml not found"):
        _load(tmp_path / "missing.toml")
    neg = tmp_path / "neg.toml"
    neg.write_text('basis = "per_tree"\nfee_per_tree_usd = "-5"\n')
    with _pytest.raises(ValueError, match=r"fee schedule .*neg\.toml: fee_per_tree_usd"):
        _load(neg)


def test_value_basis_names_a_capital_basis(tmp_path):
    # issue 9: a payment "equivalent to the value of the trees which cannot be planted" is a capital sum:
    # the schedule's value_basis is appraised (default) or cumulative:N, never annual $/yr
    assert load_fee_schedule({"basis": "value"}).value_basis == "appraised"
    assert load_fee_schedule({"basis": "value", "value_basis": "Cumulative:25"}).value_basis == "cumulative:25"
    for bad in ("annual", "cumulative:0", "cumulative", "yearly"):
        with pytest.raises(ValueError, match="value_basis"):
            load_fee_schedule({"basis": "value", "value_basis": bad})
    # the caller's capital sum is what is charged: $8,672.60 x 2 = $17,345.20
    f = in_lieu(
        load_fee_schedule({"basis": "value", "multiplier": 2}),
        trees_in_lieu=0,
        unmet_value_usd=187.78,
        unmet_capital_usd=Decimal("8672.60"),
    )
    assert f["fund_in_lieu_exact"] == Decimal("17345.20") and f["capital_value_basis"] == "appraised"


def test_an_unknown_key_of_a_schedule_is_refused_naming_it(tmp_path):
    # before: "multiplyer" was not read, so the default multiple 1 was charged: $58.12 x 1 = $58.12 instead of
    # $58.12 x 3 = $174.36, without a word
    with pytest.raises(
        ValueError, match=r"unknown key 'multiplyer' \(did you mean 'multiplier'\?\); a schedule's keys"
    ):
        load_fee_schedule({"basis": "value", "multiplyer": "3"})
    p = tmp_path / "fees.toml"
    p.write_text(
        '[[schedule]]\nresolution_date = 2026-01-05\nbasis = "per_tree"\nfee_per_tree_usd = "500"\n\n'
        '[[schedule]]\nresolution_date = 2026-06-01\nbasis = "value"\nmultiplyer = "3"\n'
    )
    # the record named by its place and resolution, whichever schedule is in force on the date asked
    said = r"fees\.toml \[\[schedule\]\] 2 \(resolution_date 2026-06-01\): unknown key 'multiplyer'"
    for on in (None, dt.date(2026, 2, 1)):
        with pytest.raises(ValueError, match=said):
            load_fee_schedule(p, on=on)
    # a key no schedule holds and none is close to: the keys allowed are said, no guess
    with pytest.raises(ValueError, match=r"unknown key 'colour'; a schedule's keys are basis, fee_per_tree_usd"):
        load_fee_schedule({"basis": "value", "colour": "green"})
    # the written keys still read: $58.12 x 3 = $174.36
    f = in_lieu(load_fee_schedule({"basis": "value", "multiplier": "3"}), trees_in_lieu=0, unmet_value_usd=58.12)
    assert f["fund_in_lieu_exact"] == Decimal("174.36")


def test_a_multiple_of_0_and_a_quoted_placeholder_are_refused():
    # before: basis value with multiplier "0" charged $8,228.65 x 0 = $0.00 in lieu for 22 trees; a fee of $0 per tree
    # was refused already for the same reason (no payment in lieu is none)
    with pytest.raises(ValueError, match=r"multiplier must be more than 0 for basis value"):
        load_fee_schedule({"basis": "value", "multiplier": "0"})
    # a per-tree schedule does not multiply: its multiplier of 0 charges nothing wrong ($450 x 2 trees = $900)
    f = in_lieu(
        load_fee_schedule({"basis": "per_tree", "fee_per_tree_usd": "450", "multiplier": "0"}),
        trees_in_lieu=2,
        unmet_value_usd=0,
    )
    assert f["fund_in_lieu_exact"] == Decimal("900.00")
    # before: placeholder = "no" was read as bool("no"), True: the schedule said PLACEHOLDER though its writer said no
    for word in ("no", "false", 0):
        with pytest.raises(ValueError, match=r"placeholder must be true or false \(unquoted\)"):
            load_fee_schedule({"basis": "per_tree", "fee_per_tree_usd": "450", "placeholder": word})
    assert (
        load_fee_schedule({"basis": "per_tree", "fee_per_tree_usd": "450", "placeholder": False}).placeholder is False
    )
