"""The pages that assess a survey show what the assessment warns of beyond the survey's reading: a column whose
header says another number than the law's (§208-19A(3): over 20%) was said in the statement only."""

from __future__ import annotations

import pytest

from tests.helpers.headless import new_app, no_exception, page_path

#: tree 1: 14 in removed, "yes" under "Slope over 10%": a slope over 10% is not one over 20%
CSV = b"Tag,Species,DBH (in),Action,Slope over 10%\n1,Acer rubrum,14,Removed,yes\n2,Quercus rubra,20,Removed,no\n"


@pytest.mark.parametrize("page", ["violations", "permit"])
def test_the_header_number_warning_is_shown_where_the_survey_is_assessed(page):
    at = new_app().run()
    at.file_uploader(key="w_upload").set_value(("crew.csv", CSV, "text/csv")).run()
    at.switch_page(page_path(page)).run()
    no_exception(at)
    heads = [e.label for e in at.expander]
    assert any(h.startswith("Warnings of this assessment (") for h in heads), heads
    said = " ".join(c.value for c in at.caption)
    assert "column 'Slope over 10%' is read as 'Slope over 20%' (§208-19A(3)" in said
    assert "its number is 10, not 20" in said and "‹" not in said
