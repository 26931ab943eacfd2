"""Bad input is one ``error:`` line and exit 2, never a traceback, the usage of every flag, or a wrong verdict:
a law without an excavation chapter, a GIS output given to verify, a damaged data file, a flag's bad value."""

from __future__ import annotations

import shutil

import pytest

from tests.helpers.bounds import refused, run_capped
from treecalc.reference.datafolder import BUNDLED_DATA_DIR

SURVEY = (
    "Tag,Species,DBH,Action,Street Tree,Condition\n1,Acer rubrum,8,Remove,X,Good\n2,Quercus rubra,14,Remove,,Good\n"
)


def _one_error_line(err: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("error: "), err
    return lines[0]


# ------------------------------------------------------------------ excavation under a law without the chapter
@pytest.mark.parametrize("law", ["milltown", "manalapan", "la_grange_park"])
def test_excavation_check_refuses_a_law_without_an_excavation_chapter(law):
    err = refused(["excavation", "check", "--jurisdiction", law, "--excavate", "100:5"], "no excavation chapter")
    line = _one_error_line(err)
    assert "croton-on-hudson" in line and "wesley-hills" in line  # the laws that have one, named
    assert "ModuleNotFoundError" not in err


def test_excavation_volume_refuses_before_printing_any_volume(tmp_path):
    grid = tmp_path / "g.csv"
    grid.write_text(
        "x,y,existing,proposed\n" + "".join(f"{x},{y},100,96.625\n" for x in (0, 10, 20) for y in (0, 10, 20))
    )
    code, out, err, _ = run_capped(["excavation", "volume", "--jurisdiction", "manalapan", "--grid", str(grid)])
    assert code == 2 and out == "", (code, out, err)
    assert "manalapan has no excavation chapter" in _one_error_line(err)
    # the same grid under a law with the chapter: 20 ft x 20 ft cut 3.375 ft deep = 1,350 cu ft = 50 cu yd
    code, out, err, _ = run_capped(["excavation", "volume", "--jurisdiction", "croton-on-hudson", "--grid", str(grid)])
    assert code == 0, err
    assert "cut            50.00 cu yd" in out


def test_an_unknown_law_names_only_the_laws_with_an_excavation_chapter():
    line = _one_error_line(refused(["excavation", "check", "--jurisdiction", "nowhere", "--excavate", "1:1"]))
    assert line == (
        "error: unknown jurisdiction 'nowhere': the laws with an excavation chapter are croton-on-hudson, wesley-hills"
    )


# ------------------------------------------------------------------ verify given a GIS output
@pytest.mark.parametrize("suffix", [".geojson", ".gpkg"])
def test_verify_refuses_a_gis_output_instead_of_calling_it_tampered(tmp_path, suffix):
    survey = tmp_path / "milltown.csv"
    survey.write_text(SURVEY)
    layer = tmp_path / f"mm{suffix}"
    code, _out, err, _ = run_capped(
        ["assess", str(survey), "--jurisdiction", "milltown", "--out", str(layer)], seconds=90
    )
    assert code == 0, err
    given = [layer] + ([tmp_path / "mm.summary.json"] if suffix == ".geojson" else [])
    assert given[-1].is_file()
    for f in given:  # an untouched file: never "NOT verified"
        code, out, err, _ = run_capped(["verify", str(f), str(survey)], seconds=90)
        assert code == 2, (code, out, err)
        assert "NOT verified" not in out
        line = _one_error_line(err)
        assert "GIS layer or its summary" in line and "treecalc assess --json" in line


# ------------------------------------------------------------------ a damaged data file
def test_a_damaged_data_file_is_named_not_the_survey(tmp_path, monkeypatch):
    copy = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, copy)
    with (copy / "species" / "catalogue.csv").open("a") as f:
        f.write("# c\n")  # a line whose number cells are empty: float('') fails
    survey = tmp_path / "croton.csv"
    survey.write_text(SURVEY)
    monkeypatch.setenv("TREECALC_DATA", str(copy))
    monkeypatch.setenv("TREECALC_CACHE", str(tmp_path / "cache"))
    line = _one_error_line(refused(["assess", str(survey)], "species/catalogue.csv", "is damaged"))
    assert "croton.csv: could not be read" not in line
    assert str(copy) in line  # the folder it is in


# ------------------------------------------------------------------ a flag's bad value
@pytest.mark.parametrize("value", ["abc", "2.5", "1e3"])
def test_plantable_not_a_whole_number_is_one_line(tmp_path, value):
    survey = tmp_path / "s.csv"
    survey.write_text(SURVEY)
    line = _one_error_line(refused(["assess", str(survey), "--plantable", value]))
    assert line == f"error: --plantable takes a whole number, got '{value}'"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--excavate", "-100:4"], "error: --excavate: area must be from 0 sq ft to 100,000,000 sq ft, got -100"),
        (["--jurisdiction", "wesley-hills", "--cellar", "-3:25:8"], "error: --cellar: length must be from 0 ft"),
        (["--excavate"], "error: --excavate takes AREA_SQFT:DEPTH_FT, and none was given"),
    ],
)
def test_a_negative_or_missing_excavation_value_is_one_line(args, said):
    line = _one_error_line(refused(["excavation", "check", *args]))
    assert line.startswith(said), line


def test_a_missing_subcommand_still_shows_the_usage():
    # argparse's other errors (a command without what it needs) keep the usage that says what to give
    code, _out, err, _ = run_capped(["verify"])
    assert code == 2 and "usage:" in err and "Traceback" not in err
