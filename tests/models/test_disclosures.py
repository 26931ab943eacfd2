"""The pure disclosure functions: zero tails, DBH flags, the class an interpolation reads."""

import numpy as np

from treecalc.models import disclosures as d
from treecalc.models.disclosures import Flag
from treecalc.models.itree_streets import dbh_positions
from treecalc.reference import data


def test_zero_from_class_finds_the_zero_tail():
    t = np.array(
        [
            [8.0, 8.0, 7.9, 7.6, 7.2, 6.6, 5.6, 0.0, 0.0],  # ACRU property value: zero from class 7 (99.06 cm)
            [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0],  # never zero: 9 (none)
            [0.0] * 9,  # zero throughout: nothing to lose, 9
            [0.0, 1.0, 0.0, 2.0, 3.0, 0.0, 4.0, 5.0, 0.0],  # only the last class: 8
        ]
    )
    assert d.zero_from_class(t).tolist() == [7, 9, 9, 8]


def test_the_source_has_31_rows_with_zero_tails():
    # the issue counted 31 value rows; ACRU loses its property value at 99.06 cm (class 7), BUCA at 22.86 cm (class 2)
    t = data.benefit_tables()
    z = d.zero_from_class(t.stack["property_value"][0])
    assert int((z < 9).sum()) == 31
    assert z[t.row_index["ACRU"]] == 7 and z[t.row_index["BUCA"]] == 2


def test_dbh_flags():
    got = d.dbh_flags(np.array([12.0, 45.0, 45.01, 100.0, 100.5]))
    B, IMP = int(Flag.BEYOND_LAST_CLASS), int(Flag.IMPLAUSIBLE_DBH)
    # 45 in is the last class itself (read exactly); 100 in is beyond but not yet implausible
    assert got.tolist() == [0, 0, B, B, B | IMP]


def test_upper_class_and_zero_flags():
    # ACRU zero tail starts at class 7 (99.06 cm). 33 in = 83.82 cm sits on class 6: reads class 6 only;
    # 36 in = 91.44 cm is half-way to class 7: reads it; 39 in sits on class 7.
    dbh_cm = np.array([33.0, 36.0, 39.0, 60.0]) * 2.54
    j, frac = dbh_positions(dbh_cm)
    up = d.upper_class(j, frac)
    assert up.tolist() == [6, 7, 7, 8]
    zero_from = np.array([7])
    got = d.table_zero_flags(up, np.zeros(4, dtype=int), zero_from, Flag.ZERO_PROPERTY_VALUE)
    assert got.tolist() == [0, 4, 4, 4]


def test_flag_names():
    assert d.flag_names(int(Flag.BEYOND_LAST_CLASS | Flag.ENERGY_TABLES_ZERO)) == [
        "beyond_last_class",
        "energy_tables_zero",
    ]
    assert d.flag_names(0) == []


def test_dbh_flags_and_upper_class_write_into_out():
    # keys built in place: 8 and 12 shifted by two bits leave the flag bits free
    # 44 in: no flag; 46 in: past the last class (1); 101 in: past it and implausible (1 | 2 = 3)
    key = np.array([8, 12, 16])
    assert d.dbh_flags(np.array([44.0, 46.0, 101.0]), out=key) is key
    assert key.tolist() == [8, 13, 19]
    # the upper class: j where the fraction is 0 (or rounding, below 1e-9), j + 1 otherwise
    j = np.array([2, 3, 7])
    assert d.upper_class(j, np.array([0.0, 1e-12, 0.5]), out=j) is j
    assert j.tolist() == [2, 3, 8]
