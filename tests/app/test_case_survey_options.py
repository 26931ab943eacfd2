"""A case's survey reopened in the calculator takes the options its assessment was made with, in the form the
calculator's controls take them (treecalc.app.case_survey.case_options)."""

from __future__ import annotations

import json
import subprocess
import sys


def test_options_of_a_case_opened_from_the_command_line(tmp_path):
    from treecalc.app import options
    from treecalc.app.case_survey import case_options

    survey = tmp_path / "9_Birch_Ln_violation.csv"  # not the sample: a clearing without a permit
    survey.write_text(
        "Tag,Species,DBH (in),Action\n201,Red maple,12,removed\n202,Northern red oak,18,removed\n"
        "203,Sugar maple,7,removed\n204,White pine,16,retain\n"
    )
    args = ["assess", str(survey), "--fee-per-tree", "450", "--plantable", "2", "--site", "subdividable=true"]
    args += ["--replacement-percent", "150", "--json"]
    r = subprocess.run([sys.executable, "-m", "treecalc.cli", *args], capture_output=True, text=True, check=True)
    read, opts = case_options(json.loads(r.stdout))
    assert read == {"site": {"subdividable": "true"}}
    # the fee given on the command line comes as an in-line schedule: the pages say it and charge the Village's
    assert opts == {
        "plantable": 2,
        "replacement_percent": 150.0,
        "fee_schedule": {"basis": "per_tree", "fee_per_tree_usd": "450.0"},
    }
    # every one is an option the calculator's controls take: none left out
    assert options.checked(opts, options._OPTION_CHECKS)[1] == []
    assert options.checked(read, options._READ_CHECKS)[1] == []


def test_options_of_a_case_opened_in_the_app_are_its_own():
    from treecalc.app.case_survey import case_options

    kept = {"read": {"column_map": {"Girth": "dbh_in"}}, "opts": {"actions": {"7": "removed"}, "plantable": 1}}
    assert case_options({"options": {"plantable": 9}, "app_options": kept}) == (kept["read"], kept["opts"])
