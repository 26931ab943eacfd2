"""Each stage of the read pipeline on its own: small frames in, the values worked out by hand out."""

from __future__ import annotations

import math

import numpy as np
import pytest

from treecalc.ingest import attributes as A
from treecalc.ingest import columns as C
from treecalc.ingest import dbh as D
from treecalc.ingest import species as SP
from treecalc.ingest import values as V
from treecalc.ingest.rows import data_rows, totals_rows


def _table(header: list[str], rows: list[list]):
    grid = [header, *rows]
    mapping = C.find_header(grid)
    table, warnings = data_rows(grid, mapping.header_row, set())
    return table, mapping, warnings


def test_parse_distinct_calls_the_parser_once_per_distinct_cell():
    calls: list[object] = []

    def parse(v):
        calls.append(v)
        return str(v)

    out = A.parse_distinct(["a", 1, "a", 1.0, True, None, "a", None], parse)
    assert out == ["a", "1", "a", "1.0", "True", "None", "a", "None"]
    # the number 1, the float 1.0 and True stay apart (a spreadsheet's 1 and TRUE are different cells)
    assert calls == ["a", 1, 1.0, True, None]


def test_data_rows_skips_blank_rows_and_numbers_the_rest():
    grid = [
        ["Tag", "Species", "DBH"],
        [1, "Acer rubrum", 12],
        [None, "", None],
        [2, "Quercus alba", 20],
        [None, None, None],
    ]
    table, warnings = data_rows(grid, 0, set())
    # the blank row inside the table is counted; the trailing one is not worth a warning
    assert table.n == 2 and list(table.source_row) == [2, 4] and warnings == ["1 blank row(s) inside the table skipped"]


def test_totals_rows_by_text_and_by_value():
    table, mapping, _ = _table(
        ["Tag", "Species", "DBH"],
        [[1, "Acer rubrum", 12], [2, "Quercus alba", 20], [None, None, 32], ["Total", None, 32]],
    )
    species, tags = table.text(mapping.first("species")), table.text(mapping.first("tag"))
    # row 3: 32 = 12 + 20 with no species or tag (a row of sums); row 4 says "Total"
    mask = totals_rows(table, table.values(mapping.first("dbh")), True, species, tags)
    assert list(mask) == [False, False, True, True]


def test_dbh_stems_units_and_the_stump():
    table, mapping, _ = _table(
        ["Tag", "Species", "DBH (cm)", "Stem 2", "stump_diam"],
        [
            [1, "Acer rubrum", 30, None, 0],
            [2, "Acer rubrum", 30, 40, 0],
            [3, "Acer rubrum", 0, None, 16],
            [4, "Acer rubrum", "twelve", None, 0],
        ],
    )
    warnings: list[str] = []
    u = D.units(table, mapping, None, None, warnings)
    assert u.default == "cm" and u.source == "header 'DBH (cm)'"
    d = D.read_dbh(table, mapping, u, False)
    # 30 cm = 11.81 in; stems 30 and 40 cm: sqrt(900 + 1600) = 50 cm = 19.69 in; the stump column is in
    # inches unless its header says otherwise: 16 in (§208-17, DBH at the stump)
    assert d.dbh_in[0] == pytest.approx(30 / 2.54) and d.stems[0] == 1
    assert d.dbh_in[1] == pytest.approx(50 / 2.54) and d.stems[1] == 2
    assert d.dbh_in[2] == 16.0 and "§208-17" in d.warning[2]
    assert math.isnan(d.dbh_in[3]) and d.kind[3] == "DBH not a number" and d.column[3] == "DBH (cm)"


def test_actions_status_words_and_unknown_words():
    table, mapping, _ = _table(
        ["Tag", "Species", "DBH", "status"],
        [
            [1, "Acer rubrum", 12, "Alive"],
            [2, "Acer rubrum", 12, "Dead"],
            [3, "Acer rubrum", 12, "Stump"],
            [4, "Acer rubrum", 12, "Remove – hazard"],
            [5, "Acer rubrum", 12, "Relocate"],
            [6, "Acer rubrum", 12, "Pollard?"],
        ],
    )
    acts = A.read_actions(table, mapping, [])
    assert list(acts.action) == ["retain", "retain", "removed", "remove", "transplant", ""]
    assert list(acts.unknown) == [False] * 5 + [True]
    assert "known actions: retain" in acts.reasons[5] and acts.reasons[0] == ""
    assert list(acts.facts["dead_or_diseased"]) == [False, True, False, False, False, False]
    assert list(acts.facts["hazardous"]) == [False, False, False, True, False, False]
    flags, not_surveyed, _ = A.read_flags(table, mapping, acts.facts)
    assert list(flags["hazardous"]) == [False, False, False, True, False, False]
    assert "hazardous" not in not_surveyed and "street_tree" in not_surveyed


def test_coordinates_are_kept_and_checked():
    table, mapping, _ = _table(
        ["Tag", "Species", "DBH", "Latitude", "Longitude", "POINT_X"],
        [[1, "Acer rubrum", 12, 41.2, -73.9, 641000.5], [2, "Acer rubrum", 12, 141.2, "w", None]],
    )
    coords, warn, _notes = A.read_coordinates(table, mapping, False)
    assert list(coords) == ["latitude", "longitude", "x"]
    assert coords["latitude"][0] == 41.2 and np.isnan(coords["latitude"][1]) and np.isnan(coords["x"][1])
    assert "latitude '141.2' in column 'Latitude' is not a latitude (-90 to 90 degrees); left blank" in warn[1]
    assert "longitude 'w' in column 'Longitude' is not a number" in warn[1] and warn[0] == ""


def test_split_names_are_joined():
    table, mapping, _ = _table(
        ["GENUS", "SPECIES", "CULTIVAR", "COMMON_NAME", "DBH"],
        [
            ["Acer", "platanoides", "Crimson King", "Maple, Norway", 10],
            ["Quercus", "", "", "Oak", 10],
            ["Acer", "Acer rubrum", "", "", 10],
            ["", "", "", "Sugar maple", 10],
        ],
    )
    sources = SP.name_columns(table, mapping)
    assert [label for label, _ in sources] == ["GENUS + SPECIES + CULTIVAR", "COMMON_NAME"]
    text, column = SP.chosen(sources, table.n)
    assert list(text) == ["Acer platanoides 'Crimson King'", "Quercus sp.", "Acer rubrum", "Sugar maple"]
    assert list(column)[3] == "COMMON_NAME"


def test_same_taxon_and_inverted_common_names():
    assert SP.same_taxon("ACPL", "ACPLCR")  # a cultivar confirms its species
    assert SP.same_taxon("QU", "QURU")  # a genus confirms its species
    assert not SP.same_taxon("ACRU", "ACSA2")  # red maple is not sugar maple
    assert "Norway Maple" in SP.candidates("Maple, Norway")
    res = SP.resolve(["Maple, Norway"])
    assert res.loc["Maple, Norway", "code"] == "ACPL"


def test_species_map_is_applied_case_insensitively():
    import pandas as pd

    fixes = SP.parse_species_map({"Oak sp.": "Quercus rubra"})
    out, warn = SP.apply_species_map(pd.Series(["oak SP.", "Acer rubrum", ""], dtype=object), fixes)
    assert list(out) == ["Quercus rubra", "Acer rubrum", ""]
    assert warn == ["species 'oak SP.' read as 'Quercus rubra' (species map)", "", ""]


@pytest.mark.parametrize(
    "text, action, facts",
    [
        ("Remove – hazard", "remove", ("hazardous",)),
        ("Removed – stump", "removed", ()),
        ("Topped", "topped", ()),
        ("Over-pruned", "excessively_pruned", ()),
        ("Girdled", "damaged", ()),
        ("Transplant", "transplant", ()),
        # a status "Dead" states both the exemption flag and that the tree is dead (no leaf area, no value);
        # "Dying" is alive: only the flag
        ("Dead", "retain", ("dead_or_diseased", "dead")),
        ("Standing dead", "retain", ("dead_or_diseased", "dead")),
        ("Dying", "retain", ("dead_or_diseased",)),
        ("Remove – dead", "remove", ("dead_or_diseased", "dead")),
        ("maybe", None, ()),
    ],
)
def test_read_action(text, action, facts):
    assert V.read_action(text) == V.Action(action, facts)
