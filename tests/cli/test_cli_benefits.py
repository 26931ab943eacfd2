"""The benefits command line, as a user runs it."""

import json

import pytest

from treecalc.cli import main


def run(capsys, *argv):
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_benefits_json(capsys):
    rc, out, _ = run(capsys, "benefits", "--species", "acer rubrum", "--dbh", "12", "--json")
    r = json.loads(out)
    assert rc == 0
    assert r["species_code"] == "ACRU"
    assert round(r["stormwater_gal"], 1) == 1353.9
    assert round(r["electricity_kwh"], 2) == 72.05
    assert round(r["natural_gas_therms"], 2) == 27.47
    assert round(r["co2_sequestered_lb"], 1) == 112.5
    assert round(r["co2_avoided_lb"], 1) == 216.9


def test_northeast_stormwater_is_priced_at_0_008_per_gallon_and_a_village_may_set_its_own(capsys):
    # ACRU 12 in = 30.48 cm, halfway between 22.86 and 38.10 cm: hydro_interception (3.59 + 6.66) / 2
    # = 5.125 m3/yr x 264.172 = 1,353.88 gal; x $0.008/gal = $10.831 -> $10.83/yr
    _, out, _ = run(capsys, "benefits", "--species", "acer rubrum", "--dbh", "12", "--json")
    r = json.loads(out)
    assert r["parameters"]["prices"]["hydro_interception"] == 0.008
    assert round(r["dollars"]["stormwater"], 2) == 10.83
    # a Village's own rate still wins: 1,353.88 gal x $0.0008 = $1.083 -> $1.08; x $0.01 = $13.54
    for price, usd in (("0.0008", 1.08), ("0.01", 13.54)):
        _, out, _ = run(
            capsys, "benefits", "--species", "ACRU", "--dbh", "12", "--price", f"hydro_interception={price}", "--json"
        )
        assert round(json.loads(out)["dollars"]["stormwater"], 2) == usd


def test_benefits_table_and_params(capsys):
    rc, out, _ = run(
        capsys, "benefits", "--species", "ACRU", "--dbh", "12", "--home-price", "250000", "--land-use", "single_family"
    )
    assert rc == 0
    assert "Red maple" in out and "gal/yr" in out and "$250,000" in out


def test_a_home_price_given_is_not_called_a_placeholder(capsys):
    """--home-price 250000 was printed as "$250,000 (placeholder the Village sets)": the user's own figure
    labelled a placeholder. Given: "as given"; not given: the $500,000 default is the placeholder."""
    _, out, _ = run(
        capsys,
        "benefits",
        "--species",
        "ACRU",
        "--dbh",
        "12",
        "--home-price",
        "250000",
        "--large-tree-leaf-area",
        "600",
    )
    line = _line(out, "Property value:")
    assert "$250,000 (as given)" in line and "placeholder" not in line and "600.0 m2 (as given)" in line
    _, out, _ = run(capsys, "benefits", "--species", "ACRU", "--dbh", "12")
    line = _line(out, "Property value:")
    assert "$500,000 (placeholder the Village sets)" in line and "as given" not in line
    # ACRU 12 in: L = (7.9 + 7.6)/2 = 7.75 m2/yr; A = 7.75 x 0.0088 x 250,000 x C 1 / 600 = $28.42/yr
    _, out, _ = run(
        capsys,
        "benefits",
        "--species",
        "ACRU",
        "--dbh",
        "12",
        "--home-price",
        "250000",
        "--large-tree-leaf-area",
        "600",
        "--land-use",
        "single_family",
    )
    assert _line(out, "Property / aesthetic").split()[-1] == "28.42"


def test_unknown_species_exits_nonzero_with_suggestions(capsys):
    rc, _, err = run(capsys, "benefits", "--species", "Dragon tree", "--dbh", "12")
    assert rc == 2
    assert "unknown species" in err and err.count("%") == 3


def test_a_5_mb_species_name_is_quoted_cut_with_its_length(capsys):
    # 5,000,000 characters of species: the error echoed all of them (5 MB on the terminal, the sentence lost)
    name = "Acer " + "x" * 4_999_995
    rc, out, err = run(capsys, "benefits", "--species", name, "--dbh", "12")
    assert rc == 2 and out == ""
    assert err.startswith("error: unknown species 'Acer xxx") and "... (5,000,000 characters)" in err, err[:300]
    assert len(err) < 600  # the first 80 characters, the length and the suggestions


@pytest.mark.parametrize(
    "argv,msg",
    [
        (["--land-use", "farm"], "unknown land use"),
        (["--price", "gold=3"], "unknown price"),
        (["--price", "co2"], "expected NAME=USD"),
    ],
)
def test_bad_flags_are_errors_not_tracebacks(capsys, argv, msg):
    rc, _, err = run(capsys, "benefits", "--species", "ACRU", "--dbh", "12", *argv)
    assert rc == 2 and msg in err


def _line(out, label):
    return next(x for x in out.splitlines() if x.startswith(label))


def test_each_dollar_stands_on_the_line_of_the_benefit_it_values(capsys):
    # ACRU 12 in = 30.48 cm, half-way between the 22.86 and 38.10 cm classes (zone tables):
    # electricity (43.5 + 100.6)/2 = 72.05 kWh x $0.1401 = $10.09
    # natural gas (1977.8 + 3515.5)/2 = 2746.65 kBtu = 27.47 therms; 2746.65 x $0.01408 = $38.67
    # energy total 10.0942 + 38.6728 = $48.77
    # CO2 sequestered (37.9 + 64.2)/2 = 51.05 kg = 112.5 lb x $0.00334 = $0.38
    # CO2 avoided (59.4 + 137.4)/2 = 98.4 kg = 216.9 lb x $0.00334 = $0.72; CO2 total $1.10
    # The lines shown add up to their total (largest remainder, treecalc.models.benefits.shown_tree_dollars): cut to
    # whole cents 10.09 + 38.67 = 48.76, a cent short of 48.77; it goes to the larger remainder, electricity's
    # 0.42 cent (gas's is 0.28): $10.10 + $38.67 = $48.77
    rc, out, _ = run(capsys, "benefits", "--species", "ACRU", "--dbh", "12")
    assert rc == 0
    assert _line(out, "Energy: electricity").split()[-1] == "10.10"
    assert _line(out, "Energy: natural gas").split()[-1] == "38.67"
    assert _line(out, "  Energy, total").split()[-1] == "48.77"
    assert _line(out, "CO2 sequestered").split()[-1] == "0.38"
    assert _line(out, "CO2 avoided").split()[-1] == "0.72"
    assert _line(out, "  CO2, total").split()[-1] == "1.10"
    # the stock of CO2 is not an annual benefit: no dollars on its line
    assert _line(out, "CO2 stored to date").split()[-1] == "year)"
    assert "DBH beyond the model's range" not in out


def test_json_dollars_by_line_add_up_to_the_benefit():
    import treecalc

    r = treecalc.benefits("ACRU", 12, valuations=False)
    by, d = r["dollars_by_line"], r["dollars"]
    assert by["electricity"] == pytest.approx(72.05 * 0.1401)
    assert by["natural_gas"] == pytest.approx(2746.65 * 0.01408)
    assert by["electricity"] + by["natural_gas"] == pytest.approx(d["energy"])
    assert by["co2_sequestered"] + by["co2_avoided"] == pytest.approx(d["co2"])


@pytest.mark.parametrize("dbh,implausible", [(50, False), (120, True)])
def test_dbh_beyond_the_model_is_flagged_not_silently_valued(capsys, dbh, implausible):
    rc, out, _ = run(capsys, "benefits", "--species", "ACRU", "--dbh", str(dbh), "--land-use", "single_family")
    assert rc == 0
    head = out.splitlines()[1]
    assert head.startswith("DBH beyond the model's range: the tables end at 45 in and hold their last value")
    assert ("over 100 in is implausible" in head) is implausible
    assert "Limits of the model for this tree:" in out
    assert "DBH over 45 in (114.30 cm)" in out


def test_json_carries_the_disclosures(capsys):
    rc, out, _ = run(capsys, "benefits", "--species", "ACRU", "--dbh", "60", "--land-use", "institutional", "--json")
    r = json.loads(out)
    assert rc == 0
    assert r["disclosure_flags"] == [
        "beyond_last_class",
        "zero_property_value",
        "zero_co2_sequestered",
        "land_use_factor_unverified",
        "energy_tables_zero",
    ]
    assert len(r["disclosures"]) == 5


def test_the_replacement_value_names_its_edition_and_the_parameters_it_used(capsys):
    """It said "CTLA trunk formula" without the edition (the 9th: i-Tree Streets' own) or the species' parameters.
    Red maple, 12 in, good: the catalogue's ACRU row and the model's condition rating, not retyped here; the value
    by hand from them: TA = π·36 = 113.097 sq in; [C_r + P_b × (TA − TA_r)] × S × K."""
    import math

    from treecalc.models.appraisal import CONDITION_RATING
    from treecalc.reference import data

    assert main(["benefits", "--species", "Acer rubrum", "--dbh", "12"]) == 0
    out = capsys.readouterr().out
    head = next(ln for ln in out.splitlines() if ln.startswith("Replacement value"))
    params = out.splitlines()[out.splitlines().index(head) + 1]
    assert "Guide for Plant Appraisal, 9th ed." in head
    row = data.catalogue().loc["ACRU"]
    k = CONDITION_RATING["good"]
    assert f"species rating S {row['species_rating_pct']:g}%" in params
    assert f"basic price ${row['basic_price_usd_per_sqin']:,.2f}/sq in" in params
    assert f"replacement cost C_r ${row['replacement_cost_usd']:,.2f}" in params
    assert f"replacement trunk area TA_r {row['replacement_trunk_area_sqin']:.3f} sq in" in params
    assert f"condition K {k:.0%}" in params and "location L 100%" in params
    ta = math.pi * 36
    value = (
        (row["replacement_cost_usd"] + row["basic_price_usd_per_sqin"] * (ta - row["replacement_trunk_area_sqin"]))
        * row["species_rating_pct"]
        / 100
        * k
    )
    assert f"${value:,.2f}" in head  # $5,420.26
