"""The one data folder (``TREECALC_DATA``): every law and table read honours it, and a folder that lacks
a file or table the code reads is an error naming the file, the folder and ``TREECALC_DATA`` (exit 2).

Each case runs the command line in a fresh interpreter: the folder is chosen when treecalc is imported.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from treecalc.reference import datafolder


def _copy(tmp_path: Path) -> Path:
    """A village's copy of the data folder."""
    folder = tmp_path / "village_data"
    shutil.copytree(datafolder.BUNDLED_DATA_DIR, folder)
    return folder


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _treecalc(folder: Path | None, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != datafolder.DATA_ENV}
    if folder is not None:
        env[datafolder.DATA_ENV] = str(folder)
    return subprocess.run(
        [sys.executable, "-m", "treecalc.cli", *argv], capture_output=True, text=True, env=env, timeout=120
    )


WATER = ("water-penalty", "--amount", "300", "--due", "2026-01-15", "--as-of", "2026-01-20", "--json")


def test_the_water_companion_reads_the_law_of_treecalc_data(tmp_path):
    folder = _copy(tmp_path)
    _edit(folder / "law" / "croton_on_hudson" / "ch223_water.toml", 'value = "5"', 'value = "10"')  # §223-12F(2) rate
    # shipped law: 5% of the unpaid 300.00 five days after the due date = 15.00; the village's copy: 10% = 30.00
    # (the old code read data/law beside the package and printed 15.00 whatever TREECALC_DATA said)
    assert json.loads(_treecalc(None, *WATER).stdout)["penalties_outstanding"] == "15.00"
    r = _treecalc(folder, *WATER)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["penalties_outstanding"] == "30.00"


def test_the_excavation_companion_reads_the_law_of_treecalc_data(tmp_path):
    folder = _copy(tmp_path)
    law = folder / "law" / "croton_on_hudson" / "ch120_excavation.toml"
    _edit(law, "[excavation_volume]\nvalue = 50", "[excavation_volume]\nvalue = 5")  # §120-3A(4) limit
    argv = ("excavation", "check", "--excavate", "100:2", "--lot-area", "20000", "--json")
    # 100 sq ft x 2 ft = 200 cu ft = 7.41 cu yd: not more than the shipped 50 cu yd (no permit),
    # more than the copy's 5 cu yd, so §120-3A(4) holds and a permit is required
    shipped = json.loads(_treecalc(None, *argv).stdout)
    assert shipped["permit_required"] is False and shipped["excavation_cy"] == 7.41
    r = _treecalc(folder, *argv)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["permit_required"] is True
    assert "§120-3A(4)" in json.loads(r.stdout)["triggers"]


@pytest.mark.parametrize(
    ("remove", "argv", "missing"),
    [
        # a folder from before site_facts.toml existed: the tree engine reads it on import
        ("readings/site_facts.toml", ("assess", "--json"), "readings/site_facts.toml is missing from the data folder"),
        (
            "law/croton_on_hudson/ch223_water.toml",
            WATER,
            "law/croton_on_hudson/ch223_water.toml is missing from the data folder",
        ),
        ("species/prices.csv", ("assess", "--json"), "species/prices.csv is missing from the data folder"),
        # read by the survey reader (species names), in its child process: before, it was the survey that
        # "could not be read" ("error: sample_survey.xlsx: could not be read (MissingDataFile: ...)")
        (
            "species/catalogue.csv",
            ("assess", "--json"),
            "species/catalogue.csv is missing from the data folder",
        ),
        # the natives and Part 575 invasives: without it the sample's removed value was 1,657.91, not 1,336.82,
        # and 25 replacements, not 20 (no tree excluded as invasive, none native), exit 0 and not a word
        (
            "species/local_status.csv",
            ("assess", "--json"),
            "species/local_status.csv is missing from the data folder",
        ),
        # `assess` without a file reads the sample of the folder ("sample_survey.xlsx: ...: no such file" before)
        (
            "examples/sample_survey.xlsx",
            ("assess", "--json"),
            "examples/sample_survey.xlsx is missing from the data folder",
        ),
        # `survey` without a file too ("sample_survey.xlsx: .../sample_survey.xlsx: no such file" before)
        (
            "examples/sample_survey.xlsx",
            ("survey", "--json"),
            "examples/sample_survey.xlsx is missing from the data folder",
        ),
    ],
)
def test_a_file_missing_from_treecalc_data_is_named_with_the_folder(tmp_path, remove, argv, missing):
    folder = _copy(tmp_path)
    (folder / remove).unlink()
    r = _treecalc(folder, *argv)
    # before: "error: [Errno 2] No such file or directory: '.../site_facts.toml'" (or a traceback)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.startswith(f"error: {missing} {folder} (TREECALC_DATA points there"), r.stderr
    assert r.stdout == ""


def test_a_table_missing_from_an_old_law_file_is_named(tmp_path):
    folder = _copy(tmp_path)
    law = folder / "readings" / "wesley_hills.toml"
    text = law.read_text(encoding="utf-8")
    law.write_text(text[: text.index("[site_why]")], encoding="utf-8")  # a copy from before [site_why]
    r = _treecalc(folder, "assess", "--jurisdiction", "wesley_hills", "--json")
    # before: "error: 'site_why'" (the KeyError of the missing table)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"readings/wesley_hills.toml in the data folder {folder} (TREECALC_DATA points there" in r.stderr
    assert "lacks [site_why]" in r.stderr


def test_data_file_and_read_data_toml_name_the_folder(tmp_path):
    with pytest.raises(datafolder.MissingDataFile, match=r"law/none\.toml is missing from the data folder"):
        datafolder.data_file("law/none.toml", tmp_path)
    (tmp_path / "readings").mkdir()
    (tmp_path / "readings" / "site_facts.toml").write_text("[other]\nx = 1\n")
    with pytest.raises(datafolder.MissingDataFile, match=r"site_facts\.toml in the data folder .* lacks \[assumed\]"):
        datafolder.read_data_toml("readings/site_facts.toml", tmp_path)
    # the shipped folder itself is read as it is
    assert "assumed" in datafolder.read_data_toml("readings/site_facts.toml", datafolder.BUNDLED_DATA_DIR)


def test_treecalc_data_with_a_tilde_is_the_home_folder(tmp_path):
    # TREECALC_DATA=~/village_data as a service's environment file or a quoted shell value gives it: no shell
    # expands the ~. Before: "readings/site_facts.toml is missing from the data folder ~/village_data", exit 2
    folder = _copy(tmp_path)
    _edit(folder / "law" / "croton_on_hudson" / "ch223_water.toml", 'value = "5"', 'value = "10"')  # §223-12F(2) rate
    env = {k: v for k, v in os.environ.items() if k != datafolder.DATA_ENV}
    env.update(HOME=str(tmp_path), **{datafolder.DATA_ENV: "~/village_data"})
    r = subprocess.run([sys.executable, "-m", "treecalc.cli", *WATER], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["penalties_outstanding"] == "30.00"  # 10% of the unpaid 300.00: the copy's law


def test_treecalc_data_naming_no_folder_says_so(tmp_path):
    # a mistyped TREECALC_DATA: before, "readings/site_facts.toml is missing from the data folder ... (an old or
    # incomplete copy?): copy it from ...", as if one file were to be copied into a folder that is not there
    r = _treecalc(tmp_path / "vilage_data", *WATER)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(f"error: the data folder {tmp_path / 'vilage_data'} does not exist (TREECALC_DATA"), (
        r.stderr
    )
