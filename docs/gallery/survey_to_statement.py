"""A survey to a statement, in the library: read the bundled sample survey, assess it under Croton-on-Hudson
Chapter 208, print the figures an applicant reads, and write the Excel statement.

Run it from anywhere: ``python docs/gallery/survey_to_statement.py [OUT_FOLDER]`` (default: the current folder).
"""

import sys
from pathlib import Path

import treecalc
from treecalc.reference.data import SAMPLE_SURVEY
from treecalc.report.statement import write_statement

out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")

# Every row read comes out as a tree or as a rejected row with its reason: nothing is lost.
survey = treecalc.read_survey(SAMPLE_SURVEY)
print(f"rows read {survey.rows_read}: {len(survey.trees)} trees, {len(survey.rejected)} rejected")

# The law engine: the permit, the replacement (§208-22), the fund (§208-24) and the penalties (§208-29).
assessment = treecalc.assess(survey, value_basis="annual", on="2026-03-01")
print(f"trees to plant: {assessment.replacement.trees_needed}")
print(f"value the replacements must carry: ${assessment.replacement.required_value_usd:,.2f}")
print(f"payment into the Tree Preservation Fund in lieu: ${assessment.fund.fund_in_lieu_usd:,.2f}")

# The statement: every tree, the findings with their sections, the readings and the method, and a fingerprint.
statement = out / "statement.xlsx"
write_statement(assessment, statement)
print(f"statement written: {statement}")
