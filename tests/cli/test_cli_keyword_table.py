"""One table maps the library's keywords to the command line's flags (:func:`treecalc.cli.words.flags`, read off
the parsers): the errors of the water, excavation and fee-schedule commands say their flags from it, with the
words the command line said before the table was one."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import treecalc.cli  # noqa: F401 (gives the keyword table its parsers)
from treecalc.cli import common, fee_schedule, words

#: a library error's start -> what the command line said for it (the old table's, one of each form)
SAID_BEFORE = {
    "billed_consumption must not be negative, got '-1'": "--billed must not be negative, got '-1'",
    "registration_error_pct must be greater than -100": "--result must be greater than -100",
    "flow-rate result 2 (error %) must be greater than -100": "--result 2 must be greater than -100",
    "the average registration error must be greater than -100%": "the average of --result must be greater than -100%",
    "test_fee must not be negative": "--fee must not be negative",
    "rate_usd_per_unit must not be negative": "--rate must not be negative",
    "amount must not be negative": "--amount must not be negative",
    "due_date 'x' is not a date": "--due 'x' is not a date",
    "as_of 'x' is not a date": "--as-of 'x' is not a date",
    "payment 3: the amount must be more than 0": "--payment 3: the amount must be more than 0",
    "bill 2: the amount must not be negative": "--bill 2: the amount must not be negative",
    "permit_issued 'x' is not a date": "--permit-issued 'x' is not a date",
    "last_work 'x' is not a date": "--last-work 'x' is not a date",
    "lot_area_sqft must be more than 0": "--lot-area must be more than 0",
    "retaining_wall_height_ft must not be negative": "--retaining-wall must not be negative",
    # a message that starts with no parameter is left as it is
    "the bill is not valid": "the bill is not valid",
    "amounts differ": "amounts differ",
}


@pytest.mark.parametrize("message", sorted(SAID_BEFORE))
def test_a_library_error_says_the_flag_the_keyword_table_gives(message):
    assert common._as_flags(message) == SAID_BEFORE[message]


def test_every_parameter_the_errors_name_is_a_keyword_of_the_table():
    table = words.flags()
    named = [*common._PARAMETERS, *(key for _, key, _ in common._SAID)]
    assert sorted(k for k in named if k not in table) == []


def test_the_fee_schedule_errors_say_the_flags_of_the_table():
    given = "fee schedule given as a dict: "
    cases = {
        f"{given}fee_per_tree_usd must be more than $0 for basis per_tree": "--fee-per-tree must be more than $0 for "
        "basis per_tree",
        f"{given}multiplier must be a number": "--multiplier must be a number",
        f"{given}value_basis 'x' is not a capital basis": "--value-basis 'x' is not a capital basis",
        f"{given}basis must be 'per_tree' or 'value'": "--basis must be 'per_tree' or 'value'",
        f"a schedule set on 2026-01-01 is already recorded ({given}x)": "a schedule set on 2026-01-01 is already "
        "recorded (x)",
    }
    assert {m: fee_schedule._in_flags(m) for m in cases} == cases


@pytest.mark.parametrize("module", [common, fee_schedule])
def test_the_commands_hold_no_table_of_flags_of_their_own(module):
    # a table is a dict, list or tuple literal holding a flag ("--billed"), at any depth: the flags these errors say
    # are the keyword table's (a flag its own parser declares, add_argument("--label"), is no table)
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    tables = [n for n in ast.walk(tree) if isinstance(n, (ast.Dict, ast.List, ast.Tuple))]
    held = [
        c.value
        for t in tables
        for c in ast.walk(t)
        if isinstance(c, ast.Constant) and isinstance(c.value, str) and c.value.startswith("--")
    ]
    assert held == []
