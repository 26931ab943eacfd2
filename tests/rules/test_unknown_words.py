"""A flag cell that says the fact is not known ("?", "unknown", "TBD") is a fact not given, as a blank is."""

import pytest

from treecalc.report.json import assessment_json


def _read_wh_csv(text: str):
    from treecalc.ingest import read_survey

    site = {"jurisdiction": "wesley_hills", "has_residence": "yes", "lot_area_acres": "0.5"}
    return read_survey(text.encode("utf-8"), filename="lot.csv", site={**site, "one_family_co_issued": "no"})


@pytest.mark.parametrize("word", ["?", "??", "unknown", "Unknown", "unk", "TBD", "not known", "to be determined"])
def test_a_dont_know_lot_line_cell_is_a_conditional_offence_not_a_definite_one(word):
    # 0.5 acre lot with a residence, no one-family CO: only §95-3A(1)(e) can apply. Two 8 in maples removed:
    #   tag 1, lot-line cell "?" (or "unknown"...) -> not known: within 20 ft is only assumed, so the offence
    #          is conditional: $5,000 in fine_conditional_usd, nothing in fine_max_usd;
    #   tag 2, "yes" -> definite: 1 x $5,000 = $5,000 in fine_max_usd.
    # Read as "yes" (the old reading of any text not yes/no), tag 1 was a definite offence: $10,000 maximum.
    from treecalc import assess

    s = _read_wh_csv(
        f"Tag,Species,DBH,Action,Within 20 ft of lot line\n1,Acer rubrum,8,removed,{word}\n2,Acer rubrum,8,removed,yes\n"
    )
    assert s.trees["within_20ft_of_lot_line"].isna().tolist() == [True, False]
    a = assess(s, jurisdiction="wesley_hills")
    assert a.trees["offence_status"].tolist() == ["conditional", "definite"]
    j = assessment_json(a)
    assert j["fine_max_usd"] == 5000 and j["fine_conditional_usd"] == 5000


def test_a_dont_know_cell_warns_nothing_it_did_not_do():
    # "?" is read as not given, so no warning may say it was "taken as yes"
    s = _read_wh_csv("Tag,Species,DBH,Action,Within 20 ft of lot line\n1,Acer rubrum,8,removed,?\n")
    assert "taken as yes" not in s.trees["warnings"].iloc[0]
