"""Species resolution: codes, names, cultivars, synonyms, genus, fuzzy."""

import pandas as pd
import pytest

from treecalc.reference import data
from treecalc.reference.species import UnknownSpecies, resolve, resolve_many, resolve_one, scientific_forms


@pytest.mark.parametrize(
    "name",
    ["Red Maple", "ACRU", "acer rubrum", "Acer rubrum 'October Glory'", "ACER RUBRUM L.", "Acer rubrum cv. Red Sunset"],
)
def test_red_maple_forms(name):
    assert resolve(name) == "ACRU"


def test_tulip_tree_uses_bdl_other():
    assert resolve("Tulip tree") == "LITU"
    assert data.catalogue().at["LITU", "value_row"] == "BDL OTHER"


@pytest.mark.parametrize(
    "name,code",
    [
        ("Platanus × acerifolia", "PLAC"),
        ("Platanus x acerifolia", "PLAC"),
        ("Platanus hybrida", "PLAC"),
        ("Gleditsia triacanthos var. inermis", "GLTR"),
        ("Thornless honeylocust", "GLTR"),
        ("Quercus rubra L.", "QURU"),
        ("northern red oak", "QURU"),
        ("Tsuga canadensis (L.) Carrière", "TSCA"),
    ],
)
def test_synonyms_and_authorities(name, code):
    assert resolve(name) == code


def test_genus_only_maps_to_genus_row_with_warning():
    r = resolve_one("Quercus sp.")
    assert (r.code, r.method) == ("QU", "genus")
    assert "genus only" in r.warning
    assert resolve("Quercus spp.") == "QU"


def test_fuzzy_match_is_accepted_with_a_warning():
    r = resolve_one("Red Mapel")
    assert r.code == "ACRU" and r.method == "fuzzy"
    # QRatio("red mapel", "red maple") = (1 - 2/18) x 100 = 88.9 %
    assert r.score == pytest.approx(88.9, abs=0.1)
    assert "Red Mapel" in r.warning and "ACRU" in r.warning


def test_unknown_name_gives_three_suggestions():
    with pytest.raises(UnknownSpecies) as e:
        resolve("Dragon tree of Mordor")
    assert len(e.value.suggestions) == 3


def test_resolve_many_once_per_distinct_name():
    r = resolve_many(["ACRU", "ACRU", "red maple", None])
    assert list(r.index) == ["ACRU", "red maple", ""]
    assert pd.isna(r.loc["", "code"])


def test_scientific_forms():
    assert scientific_forms("Acer platanoides 'Crimson King' L.") == [
        "acer platanoides crimson king",
        "acer platanoides",
    ]
    assert scientific_forms("Gleditsia triacanthos var. inermis") == [
        "gleditsia triacanthos var inermis",
        "gleditsia triacanthos",
    ]
    assert scientific_forms("Quercus spp.") == ["quercus sp"]


def test_every_catalogue_species_resolves_to_itself_by_code_and_name():
    # the Northeast's rows; those only other zones list are read in their zones (test_zone_only_species)
    cat = data.catalogue()
    cat = cat[cat["northeast"]]
    assert len(cat), "nothing to check: the loop below would pass on no item"
    for code, row in cat.iterrows():
        assert resolve(code) == code
        got = resolve(row["scientific_name"])
        # a cultivar row's scientific name resolves to its species (same value row)
        assert cat.at[got, "value_row"] == row["value_row"]


def test_catalogue_local_status_required_entries():
    cat = data.catalogue()
    for code in ("AIAL", "PHAM", "ACPS"):
        assert cat.at[code, "part575"] == "prohibited"
    assert cat.at["ACPL", "part575"] == "regulated"
    assert bool(cat.at["QURU", "native"]) and not bool(cat.at["ACPL", "native"])
