"""Smaller doors: each refused with exit 2 and a message naming what is wrong, or answered correctly."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import Workbook

from tests.helpers.bounds import refused
from treecalc.ingest import SurveyError, read_survey  # noqa: E402
from treecalc.rules.excavation import end_area_volumes  # noqa: E402


def _survey(path: Path, site_rows: list[list[str]] | None = None) -> Path:
    wb = Workbook()
    ws = wb.active
    ws.title = "Trees"
    ws.append(["Tag", "Species", "DBH", "Action"])
    ws.append([1, "Acer rubrum", 12, "remove"])
    if site_rows is not None:
        s = wb.create_sheet("Site")
        s.append(["field", "value"])
        for r in site_rows:
            s.append(r)
    wb.save(path)
    return path


def test_a_site_sheet_field_given_twice_is_refused_naming_both(tmp_path):
    # two jurisdictions on the Site sheet: the last row won without a word
    f = _survey(tmp_path / "s.xlsx", [["jurisdiction", "croton-on-hudson"], ["jurisdiction", "wesley-hills"]])
    with pytest.raises(SurveyError, match=r"Site sheet rows 2 and 3 both give jurisdiction: 'croton-on-hudson' and"):
        read_survey(f)
    refused(["assess", str(f)], "both give jurisdiction", "'wesley-hills'")


def test_the_same_fact_twice_with_the_same_value_is_one_fact(tmp_path):
    f = _survey(tmp_path / "s.xlsx", [["subdividable", "no"], ["subdividable", "no"]])
    assert read_survey(f).site["subdividable"] is False


def test_repeated_site_flags_are_refused_naming_both(tmp_path):
    f = _survey(tmp_path / "s.xlsx")
    refused(
        ["assess", str(f), "--site", "subdividable=yes", "--site", "subdividable=no"],
        "--site subdividable is given twice, as 'yes' and 'no'",
    )
    refused(
        ["survey", str(f), "--site", "jurisdiction=croton", "--site", "jurisdiction=wesley-hills"],
        "--site jurisdiction is given twice",
    )
    # two names of one fact (lot area, lot_area_acres) with two values
    refused(
        ["assess", str(f), "--site", "lot area=1", "--site", "lot_area_acres=2"],
        "site fact lot_area_acres is given twice",
    )


@pytest.mark.parametrize(
    "args, words",
    [
        (["survey", ""], "survey file '' is empty"),
        (["assess", ""], "survey file '' is empty"),
        (["assess", "--out", ""], "--out '' is empty"),
        (["assess", "--pdf", ""], "--pdf '' is empty"),
    ],
)
def test_an_empty_file_name_is_not_the_sample_nor_nothing(args, words):
    # an unset variable ("$SURVEY") read the sample, and --out "" exited 0 writing nothing
    refused(args, words)


def test_a_prismoidal_correction_larger_than_the_volume_is_refused():
    # stations 0 and 100 ft, cut 1,000 sq ft at both: end area 100 x 1,000 = 100,000 cu ft. Centre heights 100 and
    # 0, widths 200 and 0: C = 100 x (100 - 0)(200 - 0) / 12 = 166,666.67 cu ft > 100,000: the volume was clamped
    # to 0 without a word
    with pytest.raises(ValueError, match=r"correction of the cut between stations 0 and 100 \(166,666.67 cu ft\)"):
        end_area_volumes([0, 100], [1000, 1000], [0, 0], prismoidal=True, center_height=[100, 0], width=[200, 0])
    # heights 10 and 0, widths 60 and 0: C = 100 x 10 x 60 / 12 = 5,000; 95,000 cu ft / 27 = 3,518.52 cu yd
    r = end_area_volumes([0, 100], [1000, 1000], [0, 0], prismoidal=True, center_height=[10, 0], width=[60, 0])
    assert r.cut_cy == pytest.approx(95_000 / 27)


def test_a_negative_width_is_refused(tmp_path):
    with pytest.raises(ValueError, match=r"width must not be negative .*: -60 at station 0"):
        end_area_volumes([0, 100], [1000, 1000], [0, 0], prismoidal=True, center_height=[10, 0], width=[-60, 0])
    f = tmp_path / "sections.csv"
    f.write_text("station,cut_area,fill_area,center_height,width\n0,1000,0,100,200\n100,1000,0,0,0\n")
    refused(["excavation", "volume", "--sections", str(f), "--prismoidal"], "larger than its end-area volume")
