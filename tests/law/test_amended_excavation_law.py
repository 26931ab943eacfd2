"""An amended excavation chapter gives wholly amended answers: every entry of Croton-on-Hudson Chapter 120 and of
the Wesley Hills Chapter 95 excavation sections, amended in a copy of the data folder (TREECALC_DATA), shows
in the ``treecalc excavation`` JSON and text with its new number, and its old number nowhere.

All the entries of a chapter are amended in one copy (each to a number no other entry or input has), and the
commands run in a fresh process, so nothing read at import is kept from the bundled law. The same commands under
the bundled law must show each old phrase first: the check can fail."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from treecalc.reference.datafolder import BUNDLED_DATA_DIR, DATA_ENV

CH120 = "law/croton_on_hudson/ch120_excavation.toml"
CH95 = "law/wesley_hills/ch95_excavation.toml"

#: (file, entry, bundled value, amended value, [(phrase with the bundled number, the same with the amended one)])
AMENDMENTS = [
    (CH120, "deep_cut_depth", "4", "4.25", [("excavation deeper than 4 ft", "excavation deeper than 4.25 ft")]),
    (CH120, "deep_cut_area", "100", "120", [("over an area of 100/", "over an area of 120/")]),
    (CH120, "cut_depth", "2", "2.5", [("excavation deeper than 2 ft", "excavation deeper than 2.5 ft")]),
    (CH120, "cut_area", "500", "550", [("/500 square feet or more", "/550 square feet or more")]),
    (CH120, "lowering_area", "5000", "5200", [("at least 5,000 sq ft or more", "at least 5,200 sq ft or more")]),
    (CH120, "lowering_lot_percent", "50", "45", [("more than 50% of the lot", "more than 45% of the lot")]),
    (
        CH120,
        "excavation_volume",
        "50",
        "55",
        [("more than 50 cu yd = 1,350 cu ft", "more than 55 cu yd = 1,485 cu ft")],
    ),
    (CH120, "deep_fill_depth", "4", "4.75", [("fill deeper than 4 ft", "fill deeper than 4.75 ft")]),
    (CH120, "deep_fill_area", "100", "130", [("(permit if >= 100 sq ft)", "(permit if >= 130 sq ft)")]),
    (CH120, "fill_depth", "2", "2.25", [("fill deeper than 2 ft", "fill deeper than 2.25 ft")]),
    (CH120, "fill_area", "500", "530", [("(permit if >= 500 sq ft)", "(permit if >= 530 sq ft)")]),
    (CH120, "any_fill_area", "1000", "1100", [("filling over 1,000 sq ft", "filling over 1,100 sq ft")]),
    (CH120, "topsoil_proviso_depth", "3", "3.5", [("deeper than 3 in", "deeper than 3.5 in")]),
    (CH120, "topsoil_proviso_area", "5000", "5300", [("larger than 5,000 sq ft", "larger than 5,300 sq ft")]),
    (
        CH120,
        "fence_depth",
        "4",
        "4.5",
        [("deeper than 4 ft below surrounding", "deeper than 4.5 ft below surrounding")],
    ),
    (CH120, "standing_water_during", "1", "1.5", [("at most 1 ft deep", "at most 1.5 ft deep")]),
    (CH120, "topsoil_left", "2", "2.75", [("at least 2 in of topsoil", "at least 2.75 in of topsoil")]),
    (CH120, "retaining_wall_height", "4", "4.4", [("more than 4 ft)", "more than 4.4 ft)")]),
    (CH120, "permit_term", "1", "2", [("no longer than 1 year:", "no longer than 2 years:")]),
    (CH120, "idle_days", "60", "65", [("more than 60 days", "more than 65 days")]),
    (CH120, "fine_first_min", "500", "550", [("a fine of $500-", "a fine of $550-")]),
    (CH120, "fine_first_max", "1000", "1050", [("-$1,000 (first offence)", "-$1,050 (first offence)")]),
    (CH120, "fine_later_min", "1000", "1150", [("or $1,000-", "or $1,150-")]),
    (CH120, "fine_later_max", "2000", "2200", [("-$2,000 and/or", "-$2,200 and/or"), ("= $2,000;", "= $2,200;")]),
    (CH120, "imprisonment_max", "15", "16", [("up to 15 days", "up to 16 days")]),
    (
        CH120,
        "civil_penalty_max",
        "3000",
        "3300",
        [("up to $3,000 per", "up to $3,300 per"), ("= $3,000;", "= $3,300;")],
    ),
    (CH120, "tree_survey_diameter", "6", "7", [("live tree 6 in or more", "live tree 7 in or more")]),
    (CH120, "tree_survey_height", "3", "3.5", [("measured 3 ft above", "measured 3.5 ft above")]),
    (CH120, "tree_survey_strip", "25", "30", [("a 25-ft strip", "a 30-ft strip")]),
    (
        CH120,
        "work_start_hour",
        "8",
        "7",
        [("-8:00 a.m. any day", "-7:00 a.m. any day"), ("= 8:00 a.m. /", "= 7:00 a.m. /")],
    ),
    (
        CH120,
        "work_end_hour",
        "20",
        "21",
        [("no work 8:00 p.m.-", "no work 9:00 p.m.-"), ("nor 8:00 p.m. Sat", "nor 9:00 p.m. Sat")],
    ),
    (
        CH120,
        "sunday_start_hour",
        "10",
        "11",
        [("Saturday-10:00 a.m. Sunday", "Saturday-11:00 a.m. Sunday"), ("/ 10:00 a.m.;", "/ 11:00 a.m.;")],
    ),
    (
        CH95,
        "cellar_multiple",
        "2",
        "3",
        [
            ("vs 2 x cellar", "vs 3 x cellar"),
            ("= 2 x cellar", "= 3 x cellar"),
            ("within 2 times", "within 3 times"),
            ("exactly twice", "exactly 3 times"),
        ],
    ),
    (
        CH95,
        "waiver_volume",
        "100",
        "120",
        [("less than 100 cu yd", "less than 120 cu yd"), ("'less than 100 cubic", "'less than 120 cubic")],
    ),
    (CH95, "slope_rise", "1", "2", [("than 1V:", "than 2V:")]),
    (CH95, "slope_run", "2", "5", [("V:2H (rock", "V:5H (rock")]),
    (CH95, "topsoil_depth", "4", "5", [("at least 4 in of topsoil over", "at least 5 in of topsoil over")]),
    (CH95, "rock_slope", "6", "7", [("(rock 6V:1H)", "(rock 7V:1H)")]),
]

#: Words of the bundled numbers that no amended output may hold anywhere (each entry amended makes them stale).
NOWHERE = ["$2,000", "$3,000", "$500", "1,350 cu ft", "5,000 sq ft", "8:00 a.m.", "10:00 a.m.", "8:00 p.m.", "twice"]

# Croton-on-Hudson: every §120-3A rule, the topsoil proviso, the §120-8 standards, the term, the wall, the notes.
CROTON = [
    "--excavate", "90:5", "--fill", "600:3", "--strip-topsoil", "3000:3", "--place-topsoil", "6000:4",
    "--retaining-wall", "5", "--permit-issued", "2026-01-10", "--last-work", "2026-02-01", "--as-of", "2026-05-01",
    "--lot-area", "20000",
]  # fmt: skip
WESLEY = ["--jurisdiction", "wesley-hills", "--excavate", "600:2.5", "--fill", "1200:1", "--cellar", "40:30:9"]


def _amend(folder: Path) -> None:
    for rel, key, old, new, _ in AMENDMENTS:
        p = folder / rel
        s = p.read_text(encoding="utf-8")
        head = s.index(f"\n[{key}]\n")
        at = s.index(f"\nvalue = {old}\n", head)
        assert "\n[" not in s[head + 1 : at], f"[{key}] has no 'value = {old}'"  # that entry's own value
        p.write_text(s[:at] + f"\nvalue = {new}\n" + s[at + len(f"\nvalue = {old}\n") :], encoding="utf-8")


def _strings(obj) -> list[str]:
    if isinstance(obj, dict):
        return [*obj, *(s for v in obj.values() for s in _strings(v))]
    if isinstance(obj, list):
        return [s for v in obj for s in _strings(v)]
    return [str(obj)]


def _run(folder: Path | None, tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != DATA_ENV}
    if folder is not None:
        env[DATA_ENV] = str(folder)
    # 30 x 30 ft lowered 5 ft: the TIN's plan areas are reported at the law's depths
    (tmp / "eg.csv").write_text("x,y,z\n0,0,100\n30,0,100\n0,30,100\n30,30,100\n", encoding="utf-8")
    (tmp / "fg.csv").write_text("x,y,z\n0,0,95\n30,0,95\n0,30,95\n30,30,95\n", encoding="utf-8")
    runs = {
        "croton": ["check", *CROTON],
        "wesley": ["check", *WESLEY],
        "tin": ["volume", "--existing", str(tmp / "eg.csv"), "--proposed", str(tmp / "fg.csv")],
    }
    out = {}
    for name, args in runs.items():
        for kind in ("json", "text"):
            cmd = [sys.executable, "-m", "treecalc.cli", "excavation", *args, *(["--json"] if kind == "json" else [])]
            r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
            assert r.returncode == 0, r.stderr
            if kind == "json":
                out[f"{name} raw"] = r.stdout
            text = " | ".join(_strings(json.loads(r.stdout))) if kind == "json" else r.stdout
            out[f"{name} {kind}"] = text
    return out


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("excavation_law")
    before = _run(None, tmp)
    folder = tmp / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    _amend(folder)
    return before, _run(folder, tmp)


@pytest.mark.parametrize("key", [a[1] for a in AMENDMENTS])
def test_an_amended_excavation_number_shows_and_the_old_one_does_not(key, outputs):
    before, after = outputs
    (rel, _, old, new, phrases) = next(a for a in AMENDMENTS if a[1] == key)
    # the chapter's commands: Croton-on-Hudson's or Wesley Hills'; each phrase is in the JSON and in the text
    runs = ("wesley json", "wesley text") if rel == CH95 else ("croton json", "croton text")
    assert phrases, "nothing to check: the loop below would pass on no item"
    for was, now in phrases:
        assert any(was in before[r] for r in runs), f"{key}: {was!r} is not in the bundled law's outputs"
        assert any(now in after[r] for r in runs), f"{key}: the amended {now!r} is not printed"
        for r in runs:
            assert was not in after[r], f"{key}: the old {was!r} is still printed ({r})"
            if was in before[r]:
                assert now in after[r], f"{key}: {r} printed {was!r} and not the amended {now!r}"


def test_no_bundled_number_is_left_in_an_amended_output(outputs):
    before, after = outputs
    assert NOWHERE, "nothing to check: the loop below would pass on no item"
    for word in NOWHERE:
        assert any(word in t for t in before.values()), f"{word!r} is not in the bundled law's outputs"
        for name, text in after.items():
            assert word not in text, f"{name}: {word!r} is still printed"


def test_the_plan_areas_are_reported_at_the_amended_depths(outputs):
    """The TIN's plan areas are keyed by the law's depths: 0, 2 and 4 ft under the bundled law; 0, 2.25 (fill),
    2.5 (cut), 4.25 (cut) and 4.75 (fill) ft amended. The lowered 30 x 30 ft square is cut 5 ft deep: 900 sq ft
    (30 x 30) deeper than every one of them, and filled nowhere."""
    before, after = outputs
    b, a = json.loads(before["tin raw"]), json.loads(after["tin raw"])
    assert b["cut_area_deeper_than_ft_sqft"] == {"0": 900.0, "2": 900.0, "4": 900.0}
    amended = ["0", "2.25", "2.5", "4.25", "4.75"]
    assert a["cut_area_deeper_than_ft_sqft"] == dict.fromkeys(amended, 900.0)
    assert a["fill_area_deeper_than_ft_sqft"] == dict.fromkeys(amended, 0.0)


def test_a_check_applies_the_chapter_in_force_on_its_date(tmp_path):
    # §120-3A(2) "in excess of two feet over an area of 500 square feet or more", amended to three feet from
    # 1 July 2026. 500 sq ft dug 2.5 ft deep: 2.5 > 2 over 500 sq ft, a permit (§120-3A(2)) under the old text; 2.5
    # is not in excess of 3 under the new (its volume, 1,250 cu ft = 46.30 cu yd, is within §120-3A(4)'s 50). Before, the module read the law in force when imported (today's) for every check, whatever
    # the date of the application, and the command took no date
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    law = folder / CH120
    text = law.read_text(encoding="utf-8")
    old = "[cut_depth]\nvalue = 2\n"
    assert text.count(old) == 1
    law.write_text(text.replace(old, "[cut_depth]\nvalues = { 2000-01-01 = 2, 2026-07-01 = 3 }\n"), "utf-8")
    env = {**os.environ, DATA_ENV: str(folder)}
    dig = ["excavation", "check", "--lot-area", "20000", "--excavate", "500:2.5"]

    def run(*extra: str) -> subprocess.CompletedProcess[str]:
        r = subprocess.run(
            [sys.executable, "-m", "treecalc.cli", *dig, *extra], capture_output=True, text=True, env=env, timeout=300
        )
        assert r.returncode == 0, r.stderr
        return r

    assert json.loads(run("--on", "2026-03-01", "--json").stdout)["triggers"] == ["§120-3A(2)"]
    assert json.loads(run("--on", "2026-08-01", "--json").stdout)["triggers"] == []
    # a permit issued in March is checked under the law of its date
    assert json.loads(run("--permit-issued", "2026-03-01", "--json").stdout)["triggers"] == ["§120-3A(2)"]
    # no date: today's law, said so
    assert "the law in force today" in run().stdout
