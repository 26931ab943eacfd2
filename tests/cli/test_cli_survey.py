"""``treecalc survey``: its own flags (the sample survey and the reading are in tests/ingest/)."""

from __future__ import annotations

import pytest

from treecalc.cli import main


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0", "abc"])
def test_max_mb_must_be_a_positive_number(capsys, value):
    with pytest.raises(SystemExit) as e:
        main(["survey", "--max-mb", value])
    assert e.value.code == 2
    assert "is not a positive number of megabytes" in capsys.readouterr().err


def test_a_tree_pruned_by_a_stated_share_is_said_to_await_the_law(capsys, tmp_path):
    # "Pruned 30%" is read as retained by the reader: whether 30% is excessive pruning is the law's share (Croton
    # §208-17: 25% or greater), read by assess. The summary says so instead of counting it as a plain retain.
    p = tmp_path / "pruned.csv"
    p.write_text("Tag,Species,DBH (in),Action\n1,Red maple,10,Pruned 30%\n2,Red oak,12,removed\n3,Red oak,9,retain\n")
    assert main(["survey", str(p)]) == 0
    out = capsys.readouterr().out
    assert "actions: retain 2, removed 1 (1 of the retained pruned by a stated share" in out
    p.write_text("Tag,Species,DBH (in),Action\n1,Red maple,10,retain\n")
    assert main(["survey", str(p)]) == 0
    assert "stated share" not in capsys.readouterr().out
