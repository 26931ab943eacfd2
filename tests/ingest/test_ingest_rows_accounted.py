"""Random surveys written in every format the reader takes (csv, xlsx, ods, xls): every row in comes out as a tree
assessed or a row rejected, and an assessment of which no tree could be read is refused (the library raises
:class:`NoTreeReadError`, the command line exits 2), never answered with exit 0."""

from __future__ import annotations

import csv
import io

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import treecalc
from treecalc.cli import main
from treecalc.ingest import NoTreeReadError, read_survey

HEADER = ["Tag", "Species", "DBH", "Action", "Status"]
GOOD_SPECIES = ["Acer rubrum", "Red maple", "Quercus alba", "Sugar maple"]
BAD_SPECIES = ["Xyzzy", "", "12"]
GOOD_DBH = st.integers(10, 600).map(lambda x: x / 10)
BAD_DBH = st.sampled_from(["ten", "", "-3", "0", "300", "n/a"])
# actions the reader knows, one it does not (its row is rejected), a blank (retain)
ACTIONS = ["Remove", "Retain", "Removed", "Damaged", "", "Bogus"]
# the status beside the action: the tree's state only, never work that could disagree with the action
STATUSES = ["Alive", "Dead", "Good", "Poor", ""]


@st.composite
def surveys(draw):
    """(rows, every row bad): a tag on every row (no blank row: each row written is a row in)."""
    n = draw(st.integers(1, 12))
    all_bad = draw(st.booleans())  # half the surveys: no row can be a tree
    rows = []
    for i in range(n):
        bad = all_bad or draw(st.booleans())
        if bad:  # a reason to reject: the species, the DBH or the action
            why = draw(st.sampled_from(["species", "dbh", "action"]))
            sp = draw(st.sampled_from(BAD_SPECIES)) if why == "species" else draw(st.sampled_from(GOOD_SPECIES))
            dbh = draw(BAD_DBH) if why == "dbh" else draw(GOOD_DBH)
            act = "Bogus" if why == "action" else draw(st.sampled_from(ACTIONS[:-1]))
        else:
            sp, dbh, act = draw(st.sampled_from(GOOD_SPECIES)), draw(GOOD_DBH), draw(st.sampled_from(ACTIONS))
        # a tag drawn from few: a tag used twice rejects the later row
        tag = draw(st.sampled_from([f"T{i + 1}", f"T{i + 1}", "T1"]))
        rows.append([tag, sp, dbh, act, draw(st.sampled_from(STATUSES))])
    return rows, all_bad


def _write(rows: list[list], fmt: str, path) -> None:
    frame = pd.DataFrame(rows, columns=HEADER).astype(object)
    if fmt == "csv":
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows([HEADER, *rows])
        path.write_text(buf.getvalue())
    elif fmt == "xlsx":
        frame.to_excel(path, index=False, engine="openpyxl")
    elif fmt == "ods":
        frame.to_excel(path, index=False, engine="odf")
    else:
        import xlwt

        wb = xlwt.Workbook()
        ws = wb.add_sheet("Trees")
        for i, r in enumerate([HEADER, *rows]):
            for j, v in enumerate(r):
                ws.write(i, j, v)
        wb.save(str(path))


SETTINGS = dict(
    deadline=None,
    max_examples=12,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "ods", "xls"])
@settings(**SETTINGS)
@given(survey=surveys())
def test_rows_in_are_trees_assessed_plus_rows_rejected(tmp_path_factory, survey, fmt):
    rows, all_bad = survey
    path = tmp_path_factory.mktemp(fmt) / f"random.{fmt}"
    _write(rows, fmt, path)
    s = read_survey(path)
    assert s.rows_read == len(rows), (s.rows_read, len(rows))
    assert s.rows_read == len(s.trees) + len(s.rejected)
    if all_bad:
        assert len(s.trees) == 0, s.trees[["tag", "species", "dbh_in", "action"]]
    if len(s.trees):
        a = treecalc.assess(s)
        assert len(a.trees) + len(s.rejected) == len(rows)
        return
    # no tree read: refused by the library and by the command line, never answered
    try:
        treecalc.assess(s)
    except NoTreeReadError as e:
        assert f"no tree could be read from random.{fmt}" in str(e)
        assert f"{len(rows)} row" in str(e)
    else:
        raise AssertionError("an assessment of no tree was made")
    assert main(["assess", str(path)]) == 2
