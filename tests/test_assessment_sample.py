"""The acceptance run on the bundled sample: `treecalc assess sample --out statement.xlsx`."""

import json

import openpyxl

from treecalc.cli import main
from treecalc.reference.data import SAMPLE_SURVEY


def test_assess_sample_writes_statement_and_accounts_for_every_row(tmp_path, capsys):
    out = tmp_path / "statement.xlsx"
    assert main(["assess", str(SAMPLE_SURVEY), "--out", str(out), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    # data/examples/README.md: 40 rows read, 39 trees, 1 rejected (tag 17, DBH 'twelve')
    assert (d["rows_read"], d["trees"], d["rejected"]) == (40, 39, 1)
    # ten trees marked Remove + tag 29 Removed; tag 30 Topped is harmed but stands
    assert d["trees_removed"] == 11 and d["trees_harmed"] == 12
    assert d["permit_required"] is True and "§208-19A(1)" in d["permit_triggers"]
    # issue 9: two parts — 120% on tag 30 (a topped street tree: §208-18D, §208-11, §208-5C) and 90% on the
    # eight proposed removals that need a permit (§208-22A); tag 29 needed no permit and carries nothing
    parts = {p["section"]: p for p in d["replacement_parts"]}
    assert set(parts) == {"§208-22F", "§208-22A"} and d["replacement_percent"] is None
    assert parts["§208-22F"]["percent"] == 120 and parts["§208-22A"]["percent"] == 90
    assert abs(d["required_value_usd"] - sum(p["required_value_usd"] for p in parts.values())) < 0.005
    assert [r["tag"] for r in d["offence_rows"]] == ["30"] and d["offence_rows"][0]["status"] == "definite"
    # tier (4) street tree $4,000; §208-18D $5,000
    assert d["civil_penalty_max_usd"] == 4000 and d["criminal_fine_max_usd"] == 5000
    # with one species and no plantable limit every needed tree is planted
    r = d["replacement"]
    assert r["trees_planted"] == r["trees_needed"] and r["trees_in_lieu"] == 0
    assert r["trees_needed"] * r["value_per_tree_usd"] >= d["required_value_usd"]
    assert (r["trees_needed"] - 1) * r["value_per_tree_usd"] < d["required_value_usd"]
    wb = openpyxl.load_workbook(out)
    assert {"Summary", "Trees", "Rejected rows", "Method & sources"} <= set(wb.sheetnames)
    assert wb["Trees"].max_row - 2 == 39  # title row + header row above the trees


def test_statement_file_takes_the_users_umask(tmp_path, capsys):
    """Issue 10: the statement was written 0600 (mkstemp's mode); it is a document to share."""
    import os
    import stat

    out = tmp_path / "statement.xlsx"
    old = os.umask(0o022)
    try:
        assert main(["assess", str(SAMPLE_SURVEY), "--out", str(out)]) == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o644  # 0666 & ~022
