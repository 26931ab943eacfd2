"""Action and status columns beside columns that only name the action in their header (Action by, Action date,
Action priority): such a column holds no actions and does not block the survey; two action columns disagree only
on a row where both cells say an action; the qualifiers (hazard, must remove) of the column not read still count."""

from __future__ import annotations

import pytest

from treecalc.cli import main
from treecalc.ingest import read_survey
from treecalc.ingest.errors import AmbiguousActionError


@pytest.mark.parametrize(
    ("header", "cells"),
    [
        ("Action by", ("ABC Tree Co", "ABC Tree Co")),
        ("Action priority", ("High", "Low")),
        ("Action date", ("2026-05-01", "2026-06-01")),
        ("Action required", ("Yes", "No")),
        ("Recommendation date", ("2026-05-01", "")),
        ("Disposition date", ("2026-05-01", "2026-06-01")),
        ("Proposed action date", ("2026-05-01", "2026-06-01")),
    ],
)
def test_a_header_that_only_names_the_action_does_not_block_the_survey(tmp_path, header, cells):
    # before: refused "disagree on 1 row" (Remove / ABC Tree Co); the Action column holds the actions
    f = tmp_path / "s.csv"
    f.write_text(
        f"Tag,Species,DBH,Action,{header}\n1,Red maple,10,Remove,{cells[0]}\n2,Red maple,11,Retain,{cells[1]}\n"
    )
    s = read_survey(f)
    assert list(s.trees["action"]) == ["remove", "retain"]
    assert s.source["column_map"]["Action"] == "action"
    assert s.source["column_map"].get(header) != "action"


def test_a_blank_or_non_action_cell_beside_an_action_is_no_disagreement(tmp_path):
    f = tmp_path / "s.csv"
    f.write_text(
        "Tag,Species,DBH,Action,Recommendation\n"
        "1,Red maple,10,Remove,\n"  # blank beside an action: the action is read
        "2,Red maple,11,,Remove\n"  # the action blank, the recommendation given: the recommendation is read, and said
        "3,Red maple,12,Retain,see arborist\n"  # not an action word: no disagreement
    )
    s = read_survey(f)
    assert list(s.trees["action"]) == ["remove", "remove", "retain"]
    assert any("'Recommendation'" in w and "row 3" in w for w in s.warnings), s.warnings
    # both cells action words and different: still refused
    f.write_text("Tag,Species,DBH,Action,Recommendation\n1,Red maple,10,Retain,Remove\n")
    with pytest.raises(AmbiguousActionError):
        read_survey(f)


def test_a_stump_status_beside_a_blank_action_is_read_and_said(tmp_path):
    f = tmp_path / "gis.csv"
    f.write_text("OBJECTID,SPECIES,DBH,STATUS,ACTION\n1,Red maple,10,Stump,\n2,Red maple,11,Alive,Remove\n")
    s = read_survey(f)  # before: refused, "disagree on 1 row (row 2: (blank) / Stump)"
    assert list(s.trees["action"]) == ["removed", "remove"]
    assert any("'STATUS'" in w and "row 2" in w and "removed" in w for w in s.warnings), s.warnings


def test_the_qualifiers_of_the_column_not_read_still_count(tmp_path, capsys):
    f = tmp_path / "s.csv"
    body = "1,Red maple,10,Remove,Remove - hazard\n2,Red maple,11,Remove,Must remove\n3,Red maple,12,Retain,Retain\n"
    f.write_text("Tag,Species,DBH,Proposed action,Recommendation\n" + body)
    t = read_survey(f).trees
    assert list(t["action"]) == ["remove", "remove", "retain"]
    assert list(t["hazardous"].fillna(False)) == [True, False, False]
    assert list(t["must_remove"].fillna(False)) == [False, True, False]
    s = read_survey(f)
    assert any("'Recommendation'" in w and "hazard" in w for w in s.warnings), s.warnings
    # the plan as with the Recommendation column alone
    alone = tmp_path / "alone.csv"
    alone.write_text(
        "Tag,Species,DBH,Recommendation\n"
        + "\n".join(",".join(r.split(",")[:3] + r.split(",")[4:]) for r in body.splitlines())
        + "\n"
    )
    assert main(["plan", str(alone)]) == 0
    want = capsys.readouterr().out
    assert main(["plan", str(f)]) == 0
    out = capsys.readouterr().out
    line = next(x for x in want.splitlines() if x.startswith("Must remove:"))
    assert line != "Must remove: none", want
    assert line in out.splitlines(), out
