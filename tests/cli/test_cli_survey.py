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
