"""``--map`` on the commands that assess a survey (assess, plan, case new), as on ``survey``: the refusal of two
action columns that disagree tells the user to give it, so each of these commands takes it, and the statement it
writes is verified again with the same map (the fingerprint records it)."""

from __future__ import annotations

import pytest

from treecalc.assessment import assess
from treecalc.cli import main
from treecalc.ingest.errors import AmbiguousActionError
from treecalc.studies.plan import plan

# two columns that could each be the action, disagreeing on row 3 (the second tree): Retain / Remove
TWO_ACTIONS = (
    "Tag,Species,DBH,Proposed action,Recommendation\n1,Red maple,10,Remove,Remove\n2,Red maple,11,Retain,Remove\n"
)


def _run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def survey(tmp_path):
    f = tmp_path / "two.csv"
    f.write_text(TWO_ACTIONS)
    return f


def test_assess_takes_map_and_its_statement_verifies(survey, tmp_path, capsys):
    code, out, err = _run(capsys, "assess", str(survey))
    assert code == 2 and '--map "Recommendation=action"' in err, err
    st = tmp_path / "st.xlsx"
    code, out, err = _run(capsys, "assess", str(survey), "--map", "Recommendation=action", "--out", str(st))
    assert code == 0, err
    # the Recommendation column read: both trees (tags 1 and 2) marked remove
    assert "Trees marked remove: 2 trees" in out, out
    code, out, err = _run(capsys, "verify", str(st), str(survey))
    assert code == 0, out + err
    # the other reading, the one the user did not choose, is a different assessment: 1 tree removed
    code, out, err = _run(capsys, "assess", str(survey), "--map", "Proposed action=action")
    assert code == 0, err
    assert "Trees marked remove: 1 tree" in out, out


def test_plan_and_case_new_take_map(survey, tmp_path, capsys, monkeypatch):
    code, out, err = _run(capsys, "plan", str(survey))
    assert code == 2 and "Recommendation=action" in err, err
    code, out, err = _run(capsys, "plan", str(survey), "--map", "Recommendation=action")
    assert code == 0, err
    # no Must remove column: both proposed removals (tags 1, 2) are optional
    assert "Optional removals: 1, 2" in out, out
    from treecalc.register import Register

    monkeypatch.setenv("TREECALC_DB", f"sqlite:///{tmp_path / 'reg.db'}")
    # the register's first account, an engineer's: the CLI acts as it, signed in with its password
    Register(f"sqlite:///{tmp_path / 'reg.db'}").add_user("c", "engineer", "correct horse battery", by="c")
    monkeypatch.setenv("TREECALC_PASSWORD", "correct horse battery")
    code, out, err = _run(capsys, "case", "new", "--survey", str(survey), "--by", "c")
    assert code == 2 and "Recommendation=action" in err, err
    code, out, err = _run(capsys, "case", "new", "--survey", str(survey), "--by", "c", "--map", "Recommendation=action")
    assert code == 0, err


def test_the_library_assess_and_plan_take_the_column_map(survey):
    with pytest.raises(AmbiguousActionError):
        assess(survey)
    a = assess(survey, column_map={"Recommendation": "action"})
    assert list(a.trees["action"]) == ["remove", "remove"]
    p = plan(survey, column_map={"Proposed action": "action"})
    assert list(p.optional) == ["1"]
