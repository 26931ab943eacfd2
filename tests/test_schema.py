"""The table contracts are named once (treecalc.schema) and every reader takes them from there."""

import pandas as pd

from treecalc import schema
from treecalc.ingest.site import SITE_FACTS_FILE
from treecalc.law.access import law, read_toml


def test_each_list_has_one_home():
    from treecalc import assessment
    from treecalc.ingest import columns, survey
    from treecalc.models import valuation
    from treecalc.reference import data
    from treecalc.report import cells, statement

    assert assessment.SURVEY_FLAGS is schema.FLAG_FIELDS is columns.FLAG_FIELDS
    assert survey.TREE_COLUMNS is schema.TREE_COLUMNS
    assert not hasattr(assessment, "TREE_JSON_COLUMNS")  # the JSON (treecalc.report.json) reads the schema's
    assert valuation.BENEFIT_SKIP is schema.BENEFIT_SKIP
    # the statement's labels are the schema's: DBH in inches with one decimal; a key columns.csv does not name
    # is read from its suffix by the schema too; the statement keeps no registry of its own
    dbh = schema.COLUMNS["dbh_in"]
    assert cells.key_info("dbh_in") == ("DBH", "in", schema.NUM1) == (dbh.label, dbh.unit, dbh.fmt)
    assert "bond_usd_per_tree" not in schema.COLUMNS
    assert cells.key_info("bond_usd_per_tree") == ("Bond", "$/tree", schema.USD_RATE)  # a rate
    assert schema.describe("buffer_width_ft") == schema.Column("Buffer width", "ft", schema.NUM1)
    assert not any(hasattr(statement, n) for n in ("_KEYS", "_SUFFIX_UNITS", "_PRICE_UNITS", "_get"))
    # the prices' units are the prices table's (prices.csv: electricity per kWh, natural gas per kBtu)
    assert statement._price_units() == {k: "$/" + u.removeprefix("USD/") for k, u in data.price_units().items()}
    assert statement._price_units()["electricity"] == "$/kWh" and statement._price_units()["natural_gas"] == "$/kBtu"
    assert len(set(schema.TREE_COLUMNS)) == len(schema.TREE_COLUMNS)


def test_app_labels_come_from_the_schema():
    from treecalc.app.views import COLUMN_LABELS, label

    assert label("dbh_in") == "DBH (in)" == schema.app_label("dbh_in")
    assert all(COLUMN_LABELS[k] == c.app for k, c in schema.COLUMNS.items() if c.app)
    # a column the app names but the statement labels from its suffix
    assert schema.COLUMNS["offence_status"].label is None and label("offence_status") == "Offence"


def test_read_survey_gives_the_contracted_frame(tmp_path):
    from treecalc.ingest import read_survey

    p = tmp_path / "s.csv"
    pd.DataFrame({"Tag": [1, 2], "Species": ["Acer rubrum", "Quercus alba"], "DBH": [12, 20]}).to_csv(p, index=False)
    trees = read_survey(p).trees
    assert tuple(trees.columns[: len(schema.TREE_COLUMNS)]) == schema.TREE_COLUMNS


def test_site_defaults_have_one_source():
    from treecalc.ingest.site import SITE_ASSUMED, SITE_FIELDS
    from treecalc.rules import croton_on_hudson as C
    from treecalc.rules import wesley_hills as W

    for defaults in (C.SITE_DEFAULTS, W.SITE_DEFAULTS):
        assert {k: v for k, (v, _) in defaults.items()} == {k: SITE_ASSUMED[k][0] for k in defaults}
    # each chapter keeps its own words, in its law file: Wesley Hills assumes a lot of 1.5 acres or more
    # (§95-3A(1)(d)), with no value of its own (the stricter branch is taken)
    from treecalc.rules.wesley_hills.readings import site_why

    assert W.SITE_DEFAULTS["lot_area_acres"] == (None, site_why(law("wesley_hills"))["lot_area_acres"])
    # the words are filled from the law's numbers: §95-3A(1)(d)'s lots of 1.5 acres or more
    assert "1.5 acres or more" in W.SITE_DEFAULTS["lot_area_acres"][1]
    assert "§95-3A(1)(d)" in W.SITE_DEFAULTS["lot_area_acres"][1]
    assert C.SITE_DEFAULTS["subdividable"][0] is True  # the stricter branch of §208-19A(2)
    assert C.SITE_DEFAULTS["prior_removals_12mo"][0] == 0 and "§208-19A(1)" in C.SITE_DEFAULTS["prior_removals_12mo"][1]
    # the values and the general words are data/readings/site_facts.toml's, one entry per Site sheet field
    assert list(SITE_ASSUMED) == list(read_toml(SITE_FACTS_FILE)["assumed"])
    assert set(SITE_ASSUMED) == set(SITE_FIELDS)
    assert SITE_ASSUMED["jurisdiction"][0] is None and SITE_ASSUMED["has_residence"][0] is False


def test_a_site_facts_file_that_misses_a_field_is_refused(tmp_path, monkeypatch):
    import pytest

    from treecalc.ingest import site

    bad = tmp_path / "site_facts.toml"
    text = SITE_FACTS_FILE.read_text(encoding="utf-8").replace("[assumed.crs]", "[assumed.crs_typo]")
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(
        ValueError, match=r"site_facts.toml: site facts missing \['crs'\], not site fields \['crs_typo'\]"
    ):
        site._read_site_assumed(bad)
    # a chapter's [site_why] may only explain facts that have an assumed value
    with pytest.raises(ValueError, match=r"readings/wesley_hills.toml \[site_why\]: not site facts \['lot_size'\]"):
        site.site_defaults("wesley_hills", {"lot_size": "why"})


def test_columns_are_read_from_the_package_data_file(tmp_path):
    import pytest

    # the shipped file: one row a column, in the order the statement and the app list them
    assert schema.COLUMNS_FILE.name == "columns.csv" and schema.COLUMNS_FILE.parent.name == "treecalc"
    assert list(schema.COLUMNS)[:3] == ["source_row", "tag", "species"]
    # "format" names a constant; empty label / format / app are None, an empty unit stays ""
    assert schema.COLUMNS["usd_total_annual"] == schema.Column(
        "Total annual benefits", "$/yr", "$#,##0.00", app="Annual benefits (USD/yr)"
    )
    assert schema.COLUMNS["disclosures"] == schema.Column(None, "", None, app="Science notes")
    # a label with a comma is quoted in the file and read whole
    assert schema.COLUMNS["penalty_base_usd"].label == "Civil penalty, tier maximum"

    bad = tmp_path / "columns.csv"
    bad.write_text("name,label,unit,format,app\nx,X,,USD,\ny,Y,,DOLLARS,\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"columns.csv line 3: format 'DOLLARS' is not one of USD"):
        schema._read_columns(bad)
    bad.write_text("name,label,unit,format,app\nx,X,,USD,\nx,X again,,,\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"columns.csv line 3: column 'x' is named twice"):
        schema._read_columns(bad)
