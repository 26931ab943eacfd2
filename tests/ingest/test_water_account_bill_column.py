"""A payment row of a water account's CSV that names a bill is refused: payments are applied to the oldest bill
first (the §223-12F(2) reading the statement states), so the named bill would be silently ignored (a payment made
on a bill's due date went to an older bill and that bill was charged late penalties)."""

from __future__ import annotations

import subprocess
import sys


def test_a_payment_that_names_a_bill_is_refused_naming_the_row(tmp_path):
    csv = tmp_path / "account.csv"
    csv.write_text(
        "kind,date,amount,bill\n"
        "bill,2026-01-15,200.00,Q1\n"
        "payment,2026-03-10,100.00,\n"  # blank: applied oldest first, as stated
        "bill,2026-07-15,80.00,Q3\n"
        "payment,2026-07-15,80.00,Q3\n"  # row 5 names its bill
    )
    r = subprocess.run(
        [sys.executable, "-m", "treecalc", "water", "penalty", "--csv", str(csv), "--as-of", "2026-09-01"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 2, r.stdout + r.stderr
    assert "row 5" in r.stderr and "'Q3'" in r.stderr and "oldest bill first" in r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""
    csv.write_text("kind,date,amount,bill\nbill,2026-01-15,200.00,Q1\npayment,2026-03-10,100.00,\n")
    ok = subprocess.run(
        [sys.executable, "-m", "treecalc", "water", "penalty", "--csv", str(csv), "--as-of", "2026-02-01"],
        capture_output=True,
        text=True,
        check=False,
    )
    # $200.00 due 15 Jan, unpaid on 16 Jan: 5% = $10.00 (§223-12F(2)); the blank bill cell of the payment is fine
    assert ok.returncode == 0, ok.stderr
    assert "penalty        10.00      200.00       10.00" in ok.stdout
