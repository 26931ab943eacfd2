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


def test_benefits_table_and_params(capsys):
    rc, out, _ = run(capsys, "benefits", "--species", "ACRU", "--dbh", "12", "--home-price", "250000",
                     "--land-use", "single_family")
    assert rc == 0
    assert "Red maple" in out and "gal/yr" in out and "$250,000" in out


def test_unknown_species_exits_nonzero_with_suggestions(capsys):
    rc, _, err = run(capsys, "benefits", "--species", "Dragon tree", "--dbh", "12")
    assert rc == 2
    assert "unknown species" in err and err.count("%") == 3


@pytest.mark.parametrize("argv,msg", [
    (["--land-use", "farm"], "unknown land use"),
    (["--price", "gold=3"], "unknown price"),
    (["--price", "co2"], "expected NAME=USD"),
])
def test_bad_flags_are_errors_not_tracebacks(capsys, argv, msg):
    rc, _, err = run(capsys, "benefits", "--species", "ACRU", "--dbh", "12", *argv)
    assert rc == 2 and msg in err
