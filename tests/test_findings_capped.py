"""The hostile round's reproductions, each run as a user would under a 3 GB address space and 30 s (a subprocess
with ``resource.setrlimit(RLIMIT_AS)``): the command line exits 2 naming the flag, or answers correctly; the
library raises a ValueError subclass naming the option. Where another test already runs a finding capped, this
module does not repeat it (see each test's neighbours in tests/test_money_bounds.py, tests/ingest/test_input_readers.py,
tests/cli/test_cli_refusals.py and tests/ingest/test_isolated_companions.py)."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.helpers.bounds import CAP_BYTES, SECONDS, refused, run_capped


def _cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP_BYTES, CAP_BYTES))


def _library_raises(code: str, cwd: Path) -> str:
    """Run ``code`` (it must raise) in a capped Python; 'ClassName: message' of what it raised, checked to be a
    ValueError subclass. A snippet that returns, or raises anything else, fails the test."""
    script = textwrap.dedent(
        """
        import sys
        try:
        {body}
        except ValueError as e:
            print(f"{{type(e).__name__}}: {{e}}")
            sys.exit(0)
        print("returned without a refusal")
        sys.exit(3)
        """
    ).format(body=textwrap.indent(textwrap.dedent(code), "    "))
    p = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=SECONDS,
        preexec_fn=_cap,
        cwd=cwd,
        env={**os.environ, "PYTHONFAULTHANDLER": "0"},
    )
    assert p.returncode == 0, (p.returncode, p.stdout[-1000:], p.stderr[-2000:])
    return p.stdout.strip()


# finding 6: the library trusts its options (the app passed the address bar's and project files' to assess)
LIBRARY = [
    (
        "from treecalc.assessment import AssessOptions\nAssessOptions(fee_per_tree_usd='1e30').validated()",
        "OutOfRange",
        "(fee_per_tree_usd) must be from 0 to 1,000,000,000 USD",
    ),
    (
        "from treecalc.assessment import AssessOptions\nAssessOptions(continuing_days=1e300).validated()",
        "OutOfRange",
        "(continuing_days) must be a whole number from 1 to 36,500 days",
    ),
    (
        "from treecalc.assessment import AssessOptions\nAssessOptions(replacement_cost_usd=1e12).validated()",
        "OutOfRange",
        "(replacement_cost_usd) must be from 0 to 1,000,000,000 USD",
    ),
    (
        "from treecalc.assessment import AssessOptions\nAssessOptions(continuing_days=2**53 - 1).validated()",
        "OutOfRange",
        "(continuing_days) must be a whole number from 1 to 36,500 days",
    ),
    (
        "import treecalc\ntreecalc.benefits('ACRU', 12, prices={'electricity': 1e308})",
        "OutOfRange",
        "price electricity must be from 0 to 1,000,000 USD per unit",
    ),
    (
        "from treecalc.rules.croton_on_hudson.schedule import load_fee_schedule\nload_fee_schedule('fees_years.toml')",
        "OutOfRange",
        "value_basis cumulative:N (years) must be",
    ),
    (
        "from treecalc.rules.croton_on_hudson.schedule import load_fee_schedule\nload_fee_schedule('fees_multiplier.toml')",
        "OutOfRange",
        "multiplier must be from 0 to 100 times",
    ),
    # the Wesley Hills checks took any size: a cellar of 1e300 ft crashed with decimal.InvalidOperation
    (
        "from treecalc.rules import excavation\nexcavation.wesley_hills_building_permit_check(1e300, 1e300, 1e300, 500, 700)",
        "ValueError",
        "cellar_length_ft must be from 0 ft to 1,000 ft",
    ),
    (
        "from treecalc.rules import excavation\nexcavation.wesley_hills_building_permit_check(40, 30, 9, 1e30, 700)",
        "ValueError",
        "fill_cy must be from 0 cu yd to",
    ),
    (
        "from treecalc.rules import excavation\nexcavation.wesley_hills_topsoil_cy('1e400')",
        "ValueError",
        "exposed_area_sqft must be from 0 sq ft to 100,000,000 sq ft",
    ),
    (
        "from treecalc.rules import excavation\nexcavation.wesley_hills_slope_check(1e300, 10)",
        "ValueError",
        "rise_ft must be from 0 ft to 1,000 ft",
    ),
    (
        "from treecalc.assessment import AssessOptions\n"
        "AssessOptions(replacement_stock=[{'species': 'ACRU', 'dbh_in': 2, 'unit_cost_usd': '1e30'}]).validated()",
        "OutOfRange",
        "replacement_stock 1 unit_cost_usd must be from 0 to 1,000,000,000 USD",
    ),
]


@pytest.mark.parametrize("code, kind, words", LIBRARY)
def test_the_library_refuses_an_absurd_option_naming_it_under_the_cap(tmp_path, code, kind, words):
    (tmp_path / "fees_years.toml").write_text('basis = "value"\nvalue_basis = "cumulative:100000"\n')
    (tmp_path / "fees_multiplier.toml").write_text('basis = "value"\nmultiplier = 1e15\n')
    said = _library_raises(code, tmp_path)
    assert said.startswith(f"{kind}: ") and words in said, said


def test_a_survey_of_1200000_rows_ended_by_cr_alone_is_refused_at_the_row_limit(tmp_path):
    # finding 3: the pre-check counted "\n" only; 1,200,000 CR-ended rows were read (exit 0)
    f = tmp_path / "cr.csv"
    f.write_bytes(("Tag,Species,DBH\r" + "".join(f"{i},Acer rubrum,10\r" for i in range(1_200_000))).encode())
    refused(["survey", str(f)], "it has 1,200,001 lines, over the limit of 1,048,576 rows", "--limit rows=N")


def test_100_unclosed_quotes_in_200000_rows_cost_one_row_each_and_are_said(tmp_path):
    # finding 4: 49-52 s (quotes x rows). Every 2,000th row opens a quote it never closes: 100 such rows, each
    # rejected alone (its line read alone), the other 199,900 rows read as trees
    rows = [f'{i},"Acer rubrum,10' if i % 2000 == 0 else f"{i},Acer rubrum,10" for i in range(200_000)]
    f = tmp_path / "quotes.csv"
    f.write_text("Tag,Species,DBH\n" + "\n".join(rows) + "\n")
    code, out, err, took = run_capped(["survey", str(f)])
    assert code == 0 and "Traceback" not in err, err[-2000:]
    assert "rows read 200000: 199900 trees, 100 rejected" in out, out[:2000]
    assert "broken CSV quote: 100" in out
    assert took < SECONDS


def test_a_water_account_of_10000_bills_is_answered_under_the_cap(tmp_path):
    # finding 8 (the water account was quadratic: 10,000 bills 139 s). 10,000 bills of $1.00 due on 2025-01-15
    # and each paid that day in full: nothing is owed, $10,000.00 paid
    f = tmp_path / "account.csv"
    f.write_text(
        "kind,date,amount,bill\n"
        + "".join(f"bill,2025-01-15,1.00,b{k}\npayment,2025-01-15,1.00,\n" for k in range(10_000))
    )
    code, out, err, took = run_capped(["water", "penalty", "--csv", str(f), "--as-of", "2026-01-01", "--json"])
    assert code == 0 and "Traceback" not in err, err[-2000:]
    import json

    j = json.loads(out)
    assert str(j["payments_total"]) in ("10000.00", "10000", "10000.0")
    assert str(j["total_owed"]) in ("0.00", "0", "0.0")
    assert took < SECONDS
