"""An amended ordinance gives a wholly amended statement: each number amended in a copy of the data folder
(TREECALC_DATA) shows in the JSON, the text, the Excel statement and the PDF, and the old number nowhere.

Several amendments share a run where they do not interact (each group is one copy of the data, assessed in
a fresh process so nothing read at import is kept from the bundled law)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from treecalc.reference.datafolder import BUNDLED_DATA_DIR, DATA_ENV

#: A Croton-on-Hudson lot cleared without a permit: four trees removed (more than three: §208-18A, the
#: §208-29B(7) doubling and the §208-22F standard), one proposed removal, one topped (§208-18D).
CROTON_LOT = (
    "tag,species,dbh_in,action,condition\n"
    "101,Acer rubrum,14,removed,good\n"
    "102,Quercus rubra,26,removed,fair\n"
    "103,Pinus strobus,11.5,removed,good\n"
    "104,Acer saccharum,9,removed,good\n"
    "105,Fagus grandifolia,31,remove,good\n"
    "106,Acer rubrum,6,topped,good\n"
    "107,Quercus alba,24,retain,good\n"
)
#: A Wesley Hills lot: two trees of 10 in or more removed, farther than 200 ft from the house (§95-3A(1)(d)).
WESLEY_LOT = (
    "tag,species,dbh_in,action,distance_to_residence_ft\n"
    "1,Quercus alba,18,removed,240\n"
    "2,Acer rubrum,12,removed,215\n"
    "3,Tsuga canadensis,12,retain,60\n"
)

# (file, table header, old text, new text); the words each amendment must show and must no longer show
CROTON_AMENDMENTS = [
    ("law/croton_on_hudson/ch208_trees.toml", "[replacement.percent]", "value = 90", "value = 85"),
    ("law/croton_on_hudson/ch208_trees.toml", "[replacement.violation_percent]", "value = 120", "value = 125"),
    ("law/croton_on_hudson/ch208_trees.toml", "[criminal.per_tree_usd]", "value = 250", "value = 275"),
    ("law/croton_on_hudson/ch208_trees.toml", "[criminal.repeat_within_year_usd]", "value = 1000", "value = 1100"),
    ("law/croton_on_hudson/ch208_trees.toml", "[criminal.section_208_18_usd]", "value = 5000", "value = 5500"),
]
WESLEY_AMENDMENTS = [
    ("law/wesley_hills/ch95_clearing.toml", "[fine.per_tree_usd]", "value = 5000", "value = 6000"),
    ("law/wesley_hills/ch95_clearing.toml", "[fine.other_per_day_usd]", "value = 2500", "value = 2600"),
]
TIER_AMENDMENTS = [
    ("law/croton_on_hudson/ch208_trees.toml", "tier = 1", "usd = 500", "usd = 550"),
    ("law/croton_on_hudson/ch208_trees.toml", "tier = 2", "usd = 1500", "usd = 1600"),
    ("law/croton_on_hudson/ch208_trees.toml", "tier = 3", "usd = 3000", "usd = 3300"),
    (
        "law/croton_on_hudson/ch208_trees.toml",
        "[conditions.licensed_company_over_dbh_in]",
        "value = 12.0",
        "value = 13.0",
    ),
    (
        "law/croton_on_hudson/ch208_trees.toml",
        "[conditions.individually_marked_min_dbh_in]",
        "value = 22.0",
        "value = 23.0",
    ),
    ("law/croton_on_hudson/ch208_trees.toml", "[replacement.deciduous_min_dbh_in]", "value = 1.5", "value = 1.75"),
]
#: the lot's trees by tier: 6 in topped (1), 9 in and 11.5 in (2), 14 in and 26 in (3); the 31 in proposed removal
#: is over 12 in (§208-21F) and 22 in (§208-20C)
TIER_NEW = [
    "up to $550 per tree",
    "up to $1,600 per tree",
    "up to $3,300 per tree",
    "over 13 in DBH",
    "trees of 23 in DBH or more",
    "minimum 1.75 in",
]
TIER_OLD = [
    "up to $500 per tree",
    "up to $1,500 per tree",
    "up to $3,000 per tree",
    "over 12 in DBH",
    "trees of 22 in DBH or more",
    "minimum 1.5 in",
]

CASES = {
    # the §208-29B bracket and the §208-21F / §208-20C / §208-22D numbers in the notes and lines
    "croton_tiers": (
        CROTON_LOT,
        "croton-on-hudson",
        TIER_AMENDMENTS,
        {"json": TIER_NEW, "text": TIER_NEW, "xlsx": TIER_NEW, "pdf": TIER_NEW},
        TIER_OLD,
    ),
    # the issue's failure: 125% / 85% computed, "120% ... 90%" printed; the readings' "$250 ... $5,000"
    "croton": (
        CROTON_LOT,
        "croton-on-hudson",
        CROTON_AMENDMENTS,
        {"json": ["125%", "85%", "$275", "$5,500", "$1,100"], "pdf": ["125%", "85%", "$275", "$5,500", "$1,100"]},
        ["120%", "90%", "$250", "$5,000", "$1,000"],
    ),
    # Wesley Hills printed fine_max_usd 6000 beside "(up to $5,000)"
    "wesley": (
        WESLEY_LOT,
        "wesley-hills",
        WESLEY_AMENDMENTS,
        {"json": ["$6,000", "$2,600"], "text": ["$6,000", "$2,600"], "pdf": ["$6,000", "$2,600"]},
        ["$5,000", "$2,500"],
    ),
}


def _amend(folder: Path, amendments) -> None:
    for rel, header, old, new in amendments:
        p = folder / rel
        s = p.read_text(encoding="utf-8")
        i = s.index(header)
        j = s.index(old, i)
        assert s[i:j].count("\n[") <= header.startswith("tier"), f"{old!r} is not in {header}"  # that entry's
        p.write_text(s[:j] + new + s[j + len(old) :], encoding="utf-8")


def _texts(out: Path) -> dict[str, str]:
    import openpyxl
    import pypdf

    wb = openpyxl.load_workbook(out / "s.xlsx")
    cells = "\n".join(str(c.value) for ws in wb for row in ws.iter_rows() for c in row if c.value is not None)
    pdf = "\n".join(page.extract_text() for page in pypdf.PdfReader(out / "r.pdf").pages)
    texts = {
        "json": (out / "a.json").read_text(encoding="utf-8"),
        "text": (out / "a.txt").read_text(encoding="utf-8"),
        "xlsx": cells,
        "pdf": pdf,
    }
    return {k: " ".join(v.split()) for k, v in texts.items()}  # the PDF breaks lines anywhere


def _run(folder: Path | None, survey: Path, jurisdiction: str, out: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != DATA_ENV}
    if folder is not None:
        env[DATA_ENV] = str(folder)
    out.mkdir()
    base = [sys.executable, "-m", "treecalc.cli", "assess", str(survey), "--jurisdiction", jurisdiction]
    r = subprocess.run(
        [*base, "--json", "--out", str(out / "s.xlsx"), "--pdf", str(out / "r.pdf")],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    (out / "a.json").write_text(r.stdout, encoding="utf-8")
    r = subprocess.run([*base, "--on", "2026-06-01"], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    (out / "a.txt").write_text(r.stdout, encoding="utf-8")
    return _texts(out)


#: the outputs under the bundled law, by survey (the same for every case of a lot)
_BEFORE: dict[str, dict[str, str]] = {}


@pytest.mark.parametrize("case", sorted(CASES))
def test_an_amended_number_shows_everywhere_and_the_old_one_nowhere(case, tmp_path):
    survey_text, jurisdiction, amendments, must_show, old_words = CASES[case]
    survey = tmp_path / "lot.csv"
    survey.write_text(survey_text, encoding="utf-8")
    # the bundled law first: the old words are there (the check below can fail); one run per lot
    if survey_text not in _BEFORE:
        _BEFORE[survey_text] = _run(None, survey, jurisdiction, tmp_path / "before")
    before = _BEFORE[survey_text]
    for word in old_words:
        assert any(word in t for t in before.values()), f"{word} is not in the unamended outputs"
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    _amend(folder, amendments)
    after = _run(folder, survey, jurisdiction, tmp_path / "after")
    for kind, text in after.items():
        for word in old_words:
            assert word not in text, f"{case} {kind}: the old {word} is still printed"
        for word in must_show.get(kind, []):
            assert word in text, f"{case} {kind}: the amended {word} is not printed"
    # the statement carries every amended number the JSON does
    for word in must_show["json"]:
        assert word in after["xlsx"], f"{case} xlsx: the amended {word} is not in the statement"


def test_a_replacement_share_of_0_percent_requires_nothing(tmp_path):
    # §208-22A's share amended to 0 %: three removals proposed under a permit (3 or more) are counted, but 0 % of
    # their value is $0.00, so nothing is required. Before: "Replacement required: yes" with $0.00 to replace.
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    law = folder / "law" / "croton_on_hudson" / "ch208_trees.toml"
    text = law.read_text(encoding="utf-8")
    assert text.count("[replacement.percent]\nvalue = 90\n") == 1
    law.write_text(text.replace("[replacement.percent]\nvalue = 90\n", "[replacement.percent]\nvalue = 0\n"), "utf-8")
    survey = tmp_path / "lot.csv"
    survey.write_text(
        "tag,species,dbh_in,action\n1,Quercus rubra,10,remove\n2,Quercus rubra,11,remove\n3,Quercus rubra,12,remove\n"
        "4,Acer rubrum,9,retain\n"
    )
    env = {**os.environ, DATA_ENV: str(folder)}
    base = [sys.executable, "-m", "treecalc.cli", "assess", str(survey), "--on", "2026-11-01"]
    r = subprocess.run([*base, "--json"], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    import json

    d = json.loads(r.stdout)
    assert [(p["section"], p["percent"], p["trees"]) for p in d["replacement_parts"]] == [("§208-22A", 0.0, 3)]
    assert d["replacement_required"] is False and d["required_value_usd"] == 0.0
    r = subprocess.run(base, capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "Replacement required: no" in r.stdout and "Replacement required: yes" not in r.stdout
