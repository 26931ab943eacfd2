"""Chapter 208's sections renumbered in a copy of the data folder: the sections the Croton rules cite are the ones
the law file gives (an entry's ``section``, or a provision's record of ``[sections]``), never ones written in the code.

The copy renumbers the prohibitions of §208-18 as §208-98, the pending application's §208-20F as §208-90F and the
street-tree provisions §208-11, §208-14 and §208-5D as §208-91, §208-94 and §208-95D (numbers Chapter 208 does not
have), and the civil penalty's §208-29B as §208-99B (its bracket and each tier's row): a new number in an output can
only have come from the amended data.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from treecalc.law import clear_caches
from treecalc.reference import datafolder
from treecalc.reference.datafolder import BUNDLED_DATA_DIR
from treecalc.report.json import assessment_json

CH208 = "law/croton_on_hudson/ch208_trees.toml"

#: [sections] record -> its new number.
RECORDS = {
    "more_than_three_prohibited": "§208-98A",
    "attachments_prohibited": "§208-98B",
    "clear_cutting_prohibited": "§208-98C",
    "topping_prohibited": "§208-98D",
    "invasive_install_prohibited": "§208-98E",
    "pending_application": "§208-90F",
    "street_topping": "§208-91",
    "healthy_street_tree": "§208-94",
    "street_removal": "§208-95D",
}
#: The old numbers, none of which may be left where a rule names the provision.
OLD = ("§208-18", "§208-20F", "§208-11", "§208-14", "§208-5D", "§208-29B")

#: Trees 1-4 removed without a permit (more than three: §208-18A; four or more: clear cutting, §208-18C), tree 5 a
#: street tree topped (§208-18D and §208-11), tree 6 a healthy street tree removed without the Department's approval
#: (§208-5D, §208-14); a permit application pending, so each is also harmed while pending (§208-20F). Their civil
#: tiers: 18 in and 14 in over 12 in, tier (3); 10 in and 9 in over 8 in, tier (2); 7 in, tier (1); the street
#: trees 14 in and 12 in, tier (4) ($4,000 above tier (3)'s $3,000).
LOT = (
    "tag,species,dbh_in,action,street_tree\n"
    "1,Quercus alba,18,removed,no\n"
    "2,Acer rubrum,10,removed,no\n"
    "3,Acer rubrum,9,removed,no\n"
    "4,Acer rubrum,7,removed,no\n"
    "5,Quercus rubra,14,topped,yes\n"
    "6,Acer saccharum,12,removed,yes\n"
)

#: The site facts' assumption sentences are treecalc's readings (data/readings/croton_on_hudson.toml [site_why]),
#: words that quote a section as text: not yet filled from the law file, so they keep the old number.
READINGS_WORDS = (
    "§208-17 clear cutting counts removals without a permit at any time, §208-18A those in the preceding",
    "work on street trees (§208-5C/D, §208-14)",
)


def _renumber(folder: Path) -> None:
    """The copy's records of RECORDS and its civil tiers (bracket and rows) renumbered."""
    p = folder / CH208
    s = p.read_text(encoding="utf-8")
    for key, section in RECORDS.items():
        s, n = re.subn(rf'(\[sections\.{key}\]\nsection = )"[^"]*"', rf'\g<1>"{section}"', s)
        assert n == 1, f"[sections.{key}] is not once in {p}"
    s, n = re.subn(r'section = "§208-29B', 'section = "§208-99B', s)
    assert n == 9, "the civil penalty: its bracket, the six rows and the doubling's two entries"
    p.write_text(s, encoding="utf-8")


def _assess(lot: Path, folder: Path) -> str:
    """The JSON and the CLI text of the lot assessed under Chapter 208 read from ``folder``."""
    from treecalc.assessment import assess
    from treecalc.cli.assess import render_text

    saved = datafolder.DATA_DIR
    datafolder.DATA_DIR = folder
    clear_caches()
    try:
        a = assess(str(lot), site={"application_pending": True})
        return json.dumps(assessment_json(a), ensure_ascii=False) + "\n" + render_text(a)
    finally:
        datafolder.DATA_DIR = saved
        clear_caches()


def _statement_and_pdf(lot: Path, folder: Path, out: Path) -> str:
    """The statement's cells and the PDF's text, written by the CLI with ``folder`` as the data folder."""
    import openpyxl
    from pypdf import PdfReader

    xlsx, pdf = out / "s.xlsx", out / "s.pdf"
    env = {**os.environ, datafolder.DATA_ENV: str(folder), "XDG_DATA_HOME": str(out / "xdg")}
    env.pop("TREECALC_DB", None)
    r = subprocess.run(
        [sys.executable, "-m", "treecalc.cli", "assess", str(lot), "--site", "application_pending=yes"]
        + ["--out", str(xlsx), "--pdf", str(pdf)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr
    wb = openpyxl.load_workbook(xlsx, read_only=True)
    cells = [str(v) for ws in wb.worksheets for row in ws.iter_rows(values_only=True) for v in row if v is not None]
    return "\n".join(cells) + "\n" + "\n".join(pg.extract_text() for pg in PdfReader(pdf).pages)


def _without_readings_words(text: str) -> str:
    text = " ".join(text.split())  # a PDF line breaks a sentence where it wraps
    for words in READINGS_WORDS:
        text = text.replace(words, "")
    return text


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("sections208")
    lot = tmp / "lot.csv"
    lot.write_text(LOT, encoding="utf-8")
    folder = tmp / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    _renumber(folder)
    return {
        "bundled": _assess(lot, BUNDLED_DATA_DIR),
        "renumbered": _assess(lot, folder),
        "files": _statement_and_pdf(lot, folder, tmp),
    }


def test_the_bundled_data_cites_the_ordinance_and_never_the_new_numbers(outputs):
    text = outputs["bundled"]
    for old in OLD:
        assert old in text
    for new in [*RECORDS.values(), "§208-99B"]:
        assert new not in text


@pytest.mark.parametrize("which", ["renumbered", "files"])
def test_every_output_cites_the_renumbered_sections_and_not_the_old(outputs, which):
    text = outputs[which]
    # the prohibitions each offence broke, the street-tree provisions, the pending application, the tiers
    for new in ["§208-98A", "§208-98C", "§208-98D", "§208-91", "§208-94", "§208-95D", "§208-90F", "§208-99B"]:
        assert new in text, f"{new} is not in the {which} output"
    left = _without_readings_words(text)
    for old in OLD:
        found = [left[max(0, m.start() - 80) : m.end() + 20] for m in re.finditer(re.escape(old), left)]
        assert not found, f"{old} is still said in the {which} output: {found[:3]}"


def test_an_offence_names_the_renumbered_prohibitions(outputs):
    d = json.loads(outputs["renumbered"].split("\n", 1)[0])
    rows = {r["tag"]: r for r in d["offence_rows"]}
    assert rows, "no offence tree in the output"
    # tree 5, a street tree topped: the topping prohibition, the street-tree topping, disturbed without the
    # Department's approval (§208-5C, not renumbered) and harmed while pending
    assert rows["5"]["offence_sections"] == "§208-98D; §208-91; §208-5C; §208-90F"
    # its tier: a street tree, tier (4) of the renumbered bracket
    assert rows["5"]["tier"] == "§208-99B(4)"
    # the criminal maximum of a prohibition broken names it (not the §208-18 prefix the code once matched)
    assert rows["5"]["criminal_section"] == "§208-29A (violation of §208-98D)"
