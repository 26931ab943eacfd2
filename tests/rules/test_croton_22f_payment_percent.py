"""§208-22F: the Engineer's percentage sets the replacement tree standard, not the payment in its place.

"the replacement tree standard is 120% of the environmental value of the trees cut down ..., or, depending on
site characteristics, such other percentage deemed acceptable to the Village Engineer, or the applicant may make
a payment to the Village Tree Preservation Fund of a sum or sums equivalent to 120% of the environmental value of
the trees destroyed." The Engineer's "other percentage" qualifies the standard; the payment is 120% as written.
"""

from decimal import ROUND_CEILING, Decimal

from tests.helpers.rules import FLAT_HOUSE_LOT, STOCK, write_csv
from treecalc.assessment import assess
from treecalc.ingest import read_survey
from treecalc.report.json import assessment_json


def test_the_22f_payment_stays_at_120_percent_when_the_engineer_sets_150(tmp_path):
    # Four maples removed without a permit from a flat house lot: §208-18A, offences, §208-22F applies.
    # The capital value of the four (appraised, the fee schedule's basis) is V, read from the 120 % run:
    # payment = 120 % of V rounded up to the cent, the same whatever the Engineer's percentage (150 % here),
    # while the replacement standard moves to 150 % of the trees' value.
    rows = [["Tag", "Species", "DBH", "Action"]] + [[str(k), "Acer rubrum", "10", "Removed"] for k in range(1, 5)]
    path = write_csv(tmp_path / "s.csv", rows)
    law = assessment_json(assess(read_survey(path), site=FLAT_HOUSE_LOT, replacement_stock=STOCK))
    eng = assessment_json(
        assess(read_survey(path), site=FLAT_HOUSE_LOT, replacement_stock=STOCK, replacement_percent=150)
    )
    assert eng["replacement_percent"] == 150.0
    # the standard follows the Engineer: 150 % of the removed value, rounded up to the cent
    v = Decimal(str(eng["removed_value_usd"]))
    assert Decimal(str(eng["required_value_usd"])) == (v * Decimal("1.5")).quantize(Decimal("0.01"), ROUND_CEILING)
    # the payment does not
    assert eng["fund_alternative_22f_usd"] == law["fund_alternative_22f_usd"] and law["fund_alternative_22f_usd"] > 0


def test_the_statement_says_the_engineers_percentage_and_the_payments_120(tmp_path):
    # The same four maples at the Engineer's 150 %: the line "Trees counted toward replacement" names the
    # percentage applied (150 %, not the law's 120 %), and the note offering the payment says 120 %.
    rows = [["Tag", "Species", "DBH", "Action"]] + [[str(k), "Acer rubrum", "10", "Removed"] for k in range(1, 5)]
    a = assess(
        read_survey(write_csv(tmp_path / "s.csv", rows)),
        site=FLAT_HOUSE_LOT,
        replacement_stock=STOCK,
        replacement_percent=150,
    )
    counted = next(x for x in assessment_json(a)["lines"] if x["item"] == "Trees counted toward replacement")
    assert counted["note"].startswith("150% on trees harmed in offences (§208-22F"), counted["note"]
    pay = [n for n in a.replacement.notes if "may instead pay" in n]
    assert pay and "equivalent to 120% of the value destroyed" in pay[0], pay
