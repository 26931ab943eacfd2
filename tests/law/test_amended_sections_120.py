"""Chapter 120's sections renumbered in a copy of the data folder: what ``treecalc excavation`` and the Excavation
page cite is the law file's (an entry's ``section``, or a ``[sections.<name>]`` record), never a number written in
the code.

The copy renumbers every section of Chapter 120, §120-N as §120-9N (§120-2 as §120-92, §120-12D as §120-912D), and
the paragraphs of the permit thresholds §120-3A(N) as §120-93A(1N): numbers Chapter 120 does not have, so a new
number in an output can only have come from the amended data, and an old one can only have been written in the code.
Chapter 95 (Wesley Hills) is not amended: its sections are cited as before.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.helpers.headless import forget_app_caches, new_app, no_exception, page_path
from treecalc.law import clear_caches
from treecalc.reference import datafolder
from treecalc.reference.datafolder import BUNDLED_DATA_DIR, DATA_ENV

CH120 = "law/croton_on_hudson/ch120_excavation.toml"
#: a section of Chapter 120, as its number: "§120-3A(1)" -> "3", "§ 120-12" -> "12"
CITED = re.compile(r"§ ?120-(\d+)")
#: the sections of Chapter 120 the bundled law cites, and the same renumbered
OLD = {"2", "3", "5", "8", "9", "10", "12"}
NEW = {"92", "93", "95", "98", "99", "910", "912"}

#: Each section the commands cite. Croton-on-Hudson:
#: - every threshold, the §120-8 standards (a 5 ft cut: the fence; a fill: clean fill; stripping: topsoil left; the
#:   hours and slopes; a 5 ft wall: a building permit), the term, the tree survey, the penalties, the readings;
#: - a foundation alone under a building permit (§120-3B, left out of §120-3A, subject to §120-8);
#: - topsoil placed within the proviso (left out of §120-3A(5)-(7)), stripping of a given depth (excavation by
#:   §120-2), a wall of 4 ft (not over 4 ft: not required by §120-8M);
#: - stripping with neither its depth nor the lot area (§120-3A(3) and (4) depend on them);
#: Wesley Hills with its cellar (Chapter 95's waiver and building permit, not amended).
CROTON = [
    "--excavate", "90:5", "--fill", "600:3", "--strip-topsoil", "3000:3", "--place-topsoil", "6000:4",
    "--retaining-wall", "5", "--permit-issued", "2026-01-10", "--last-work", "2026-02-01", "--as-of", "2026-05-01",
    "--lot-area", "20000",
]  # fmt: skip
FOUNDATION = ["--foundation", "1200:9"]
PROVISO = [
    "--place-topsoil",
    "2000:3:seeded",
    "--strip-topsoil",
    "4000:6",
    "--excavate",
    "10:1",
    "--retaining-wall",
    "4",
]
UNKNOWN = ["--strip-topsoil", "4000"]
WESLEY = ["--jurisdiction", "wesley-hills", "--excavate", "600:2.5", "--fill", "1200:1", "--cellar", "40:30:9"]
CHECKS = [CROTON, FOUNDATION, PROVISO, UNKNOWN, WESLEY]
#: Refused (exit 2), each naming the section of the input or of the term: a Croton-on-Hudson input given with
#: Wesley Hills, and a term date without the permit's issue date.
REFUSED = [
    [*WESLEY, "--permit-issued", "2026-01-01"],
    [*WESLEY, "--lot-area", "20000"],
    [*WESLEY, "--retaining-wall", "5"],
    ["--excavate", "100:2", "--as-of", "2026-03-01"],
    ["--excavate", "100:2", "--last-work", "2026-03-01"],
]
HELP = [["excavation", "--help"], ["excavation", "check", "--help"], ["excavation", "volume", "--help"]]


def _renumber(folder: Path) -> None:
    p = folder / CH120
    s = p.read_text(encoding="utf-8")
    # 32 numbers and 8 provisions' records, each with its section; 12 numbers of §120-3A(1) to (7)
    assert len(re.findall(r'section = "§120-', s)) == 40 and len(re.findall(r'section = "§120-3A\(', s)) == 12
    assert s.count("§") == 40, "a section named outside a section line would keep its number"
    s = re.sub(r'(section = "§120-)(\d+)', r"\g<1>9\2", s)
    s = re.sub(r'(section = "§120-93A\()(\d\))', r"\g<1>1\2", s)
    p.write_text(s, encoding="utf-8")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    f = tmp_path_factory.mktemp("sections120") / "data"
    shutil.copytree(BUNDLED_DATA_DIR, f)
    _renumber(f)
    return f


@contextmanager
def _reading(folder: Path | None, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The library reads ``folder`` (None: the bundled data) in this process: nothing read before is kept, neither
    the law's caches nor the app's."""
    with monkeypatch.context() as m:
        m.setattr(datafolder, "DATA_DIR", folder or BUNDLED_DATA_DIR)
        if folder is None:
            m.delenv(DATA_ENV, raising=False)
        else:
            m.setenv(DATA_ENV, str(folder))
        clear_caches()
        forget_app_caches()
        try:
            yield
        finally:
            clear_caches()
            forget_app_caches()


def _surfaces(tmp: Path) -> list[str]:
    # 30 x 30 ft lowered 5 ft: 4,500 cu ft cut (§120-3A(4)), 900 sq ft deeper than 4 ft (§120-3A(1))
    (tmp / "eg.csv").write_text("x,y,z\n0,0,100\n30,0,100\n0,30,100\n30,30,100\n", encoding="utf-8")
    (tmp / "fg.csv").write_text("x,y,z\n0,0,95\n30,0,95\n0,30,95\n30,30,95\n", encoding="utf-8")
    return ["excavation", "volume", "--existing", str(tmp / "eg.csv"), "--proposed", str(tmp / "fg.csv")]


def _cli(capsys: pytest.CaptureFixture[str], tmp: Path) -> dict[str, str]:
    """Every run's text and JSON, each refusal's error and each help, by the words of the run."""
    from treecalc.cli import main

    runs = [["excavation", "check", *a] for a in CHECKS] + [_surfaces(tmp)]
    out = {}
    for argv in [*runs, *[[*r, "--json"] for r in runs]]:
        assert main(argv) == 0, argv
        out[" ".join(argv)] = capsys.readouterr().out
    for argv in REFUSED:
        assert main(["excavation", "check", *argv]) == 2, argv
        out[" ".join(argv)] = capsys.readouterr().err
    for argv in HELP:
        with pytest.raises(SystemExit):
            main(argv)
        out[" ".join(argv)] = capsys.readouterr().out
    return out


def _numbers(texts: dict[str, str]) -> set[str]:
    return {n for t in texts.values() for n in CITED.findall(t)}


def test_the_copy_renumbers_every_section_of_chapter_120(folder, monkeypatch):
    from treecalc.law import cites
    from treecalc.law.numbers import numbers

    law = numbers("croton_on_hudson", "ch120_excavation")
    with _reading(folder, monkeypatch):
        assert law["deep_cut_depth"].section == "§120-93A(11)"
        assert law["topsoil_proviso_depth"].section == "§120-93A (topsoil proviso)"
        assert law["permit_term"].section == "§120-910A"
        assert law.provision("excavation_defined") == "§120-92"
        assert law.provision("penalty_review") == "§120-912D"
        # as a help reads them, from the file without the rules: an entry, a record; none for a key no chapter holds
        assert cites.companion("croton_on_hudson", "permit_term") == "§120-910A"
        assert cites.companion("croton_on_hudson", "sections.building_permit") == "§120-93B"
        assert cites.companion("wesley_hills", "cellar_multiple") == "§95-3C(1)"
        with pytest.raises(KeyError, match="no_such_entry"):
            cites.companion("croton_on_hudson", "no_such_entry")
    with _reading(None, monkeypatch):
        assert law["deep_cut_depth"].section == "§120-3A(1)"
        assert cites.companion("croton_on_hudson", "sections.building_permit") == "§120-3B"


def test_the_cli_cites_the_renumbered_sections_and_not_the_old(folder, monkeypatch, capsys, tmp_path):
    with _reading(None, monkeypatch):
        bundled = _cli(capsys, tmp_path)
    # the bundled law: every section of the chapter is cited somewhere, and the paragraphs of the proviso
    assert _numbers(bundled) == OLD
    assert any("(5)-(7)" in t for t in bundled.values())
    with _reading(folder, monkeypatch):
        renumbered = _cli(capsys, tmp_path)
    assert _numbers(renumbered) == NEW
    for run, text in renumbered.items():
        old = [m.group(0) for m in CITED.finditer(text) if m[1] in OLD]
        assert not old, f"{run}: cites {old}"
        assert "(5)-(7)" not in text, run
    # each in its place: the help, the refusals, the Wesley Hills check (Chapter 95, not amended)
    said = {k: " ".join(v.split()) for k, v in renumbered.items()}
    assert "permit check (Croton-on-Hudson §120-93A, Wesley Hills §95-3)" in said["excavation --help"]
    check_help = said["excavation check --help"]
    for words in (
        "lot area, for the §120-93A check",
        "building permit (§120-93B; repeatable)",
        "(stripping is excavation, §120-92)",
        "retaining wall to be built (§120-98M)",
        "cellar and foundation, feet (§95-3C(1))",
        "permit issue date (§120-910A)",
        "last day of work (§120-910A)",
    ):
        assert words in check_help, words
    assert "lot area, for the §120-93A check" in said["excavation volume --help"]
    refusals = [said[" ".join(a)] for a in REFUSED]
    assert "Croton-on-Hudson Chapter 120 input (§120-910A:" in refusals[0]
    assert "Croton-on-Hudson Chapter 120 input (§120-93A(13):" in refusals[1]
    assert "Croton-on-Hudson Chapter 120 input (§120-98M:" in refusals[2]
    assert "(the §120-910A term is counted from the permit)" in refusals[3]
    assert "(§120-910A counts from the permit)" in refusals[4]
    wesley = said["excavation check " + " ".join(WESLEY)]
    assert "waiver possible (§95-3D(1)): yes" in wesley and "§95-3C(1): building permit suffices" in wesley


def test_the_json_and_the_library_cite_the_renumbered_sections(folder, monkeypatch, capsys, tmp_path):
    from treecalc.rules import excavation as ex

    with _reading(folder, monkeypatch):
        out = _cli(capsys, tmp_path)
        penalties = ex.violation_penalties(2, 3)
        hours = ex.work_time_check(dt.datetime(2026, 3, 1, 9, 30))  # a Sunday before 10:00 a.m.
        tree = ex.tree_survey_required(8, 10)
        standards = ex.review_standards(5, standing_water_ft=0.5, topsoil_left_in=2, fence_provided=True)
    every = json.loads(out["excavation check " + " ".join(CROTON) + " --json"])
    # 90 sq ft cut 5 ft deep, 600 sq ft filled 3 ft deep, 3,000 sq ft stripped 3 in deep, 6,000 sq ft of topsoil
    # placed 4 in deep (over the proviso's 3 in: fill) on a 20,000 sq ft lot. (1), (2): 90 sq ft < 100 and < 500;
    # (3): 90 + 3,000 = 3,090 sq ft lowered, under 5,000 and under half the lot (10,000); (4): 90 x 5 = 450 plus
    # 3,000 x 3 / 12 = 750, 1,200 cu ft, not over 1,350; (5): no fill over 4 ft; (6): 600 sq ft over 2 ft >= 500;
    # (7): 600 + 6,000 = 6,600 sq ft >= 1,000
    assert every["triggers"] == ["§120-93A(16)", "§120-93A(17)"]
    assert [e["section"] for e in every["explanations"]] == [f"§120-93A(1{n})" for n in range(1, 8)]
    assert every["exemptions"] == [
        {
            "section": "§120-93A (topsoil proviso)",
            "applies": False,
            "explanation": "topsoil 4 in deep over 6,000 sq ft, NOT seeded and mulched: proviso does not apply "
            "(deeper than 3 in, larger than 5,000 sq ft, not immediately seeded and mulched); counted as fill",
        }
    ]
    # the deepest cut 5 ft (> 4: the fence), excavation (drained), fill (clean), stripping (topsoil left), the hours,
    # the slopes, and the 5 ft wall (> 4 ft: a building permit)
    assert [s["section"] for s in every["review_standards"]] == [
        "§120-98A",
        "§120-98C",
        "§120-98D",
        "§120-98E",
        "§120-98G",
        "§120-98H",
        "§120-98M",
    ]
    assert every["term"]["section"] == "§120-910A"
    notes = " ".join(every["notes"])
    for words in ("§120-95E: the site plan", "§120-912: without a required permit", "'$2,0' (§120-912A)"):
        assert words in notes, words
    assert "'$3,0' (§120-912B)" in notes and "(§120-98G) = 8:00 a.m." in notes
    assert "CPLR 'Article 7' (§120-99A, §120-912D) = Article 78" in notes
    reading = " ".join(every["interpretation"])
    for words in (
        "(§120-92 EXCAVATION: 'the stripping of topsoil')",
        "is left out of (15)-(17);",
        "§120-93B: excavation for a foundation",
        "is left out of §120-93A;",
        "stays subject to §120-98. §120-93C (Planning Board approvals)",
    ):
        assert words in reading, words
    foundation = json.loads(out["excavation check " + " ".join(FOUNDATION) + " --json"])
    assert [e["section"] for e in foundation["exemptions"]] == ["§120-93B"]
    assert foundation["exemptions"][0]["explanation"].endswith("(subject to §120-98); left out of §120-93A")
    assert foundation["notes"][0].endswith("the building permit is the excavation and filling permit (§120-93B)")
    proviso = json.loads(out["excavation check " + " ".join(PROVISO) + " --json"])
    assert proviso["exemptions"][0]["explanation"].endswith("seeded and mulched; left out of §120-93A(15)-(17)")
    volume = next(e for e in proviso["explanations"] if e["section"] == "§120-93A(14)")
    assert "(§120-92: stripping topsoil is excavation)" in volume["explanation"]
    wall = next(s for s in proviso["review_standards"] if s["section"] == "§120-98M")
    assert "not required by §120-98M (required if more than 4 ft)" in wall["requirement"]
    # 4,000 sq ft stripped: more than half of a lot under 8,000 sq ft (4,000 x 100 / 50); of no given depth, over
    # (1,350 cu ft x 12 in/ft) / 4,000 sq ft = 4.05 in deep it would be more than 50 cu yd
    unknown = json.loads(out["excavation check " + " ".join(UNKNOWN) + " --json"])
    facts = unknown["missing_facts"]
    assert len(facts) == 2, facts
    assert facts[0].endswith(": §120-93A(13) requires a permit on lots under 8,000 sq ft")
    assert "): §120-93A(14) counts its volume; more than 4.05 in deep over 4,000 sq ft" in facts[1]
    # the library's own answers: the penalties, the hours, the tree survey, the standards
    assert (penalties["section_criminal"], penalties["section_civil"]) == ("§120-912A", "§120-912B")
    assert penalties["notes"][2] == (
        "Each day's continuance is a separate offence (§120-912A) / violation (§120-912B)."
    )
    assert hours["section"] == "§120-98G" and hours["interpretation"].startswith("§120-98G read as:")
    assert tree["section"] == "§120-95E"
    assert [s["section"] for s in standards] == ["§120-98A", "§120-98C", "§120-98E"]


def _page_words() -> str:
    """The Excavation page's words: headings, labels, helps, notes, tables and captions, in the states that show
    each section (surfaces measured, a foundation, stripping with no lot area, a 4 ft wall, topsoil placed, Sunday
    morning's hours)."""
    corners = "0,0,100\n40,0,100\n0,40,100\n40,40,100\n"
    at = new_app().run()
    no_exception(at)
    at.switch_page(page_path("excavation")).run()
    no_exception(at)
    at.radio(key="w_vol_kind").set_value("Two surfaces (TIN: points or LandXML)").run()
    eg, fg = corners + "20,20,100\n", corners + "20,20,103\n"
    at.file_uploader(key="w_tin_existing").set_value(("eg.csv", f"x,y,z\n{eg}".encode(), "text/csv"))
    at.file_uploader(key="w_tin_proposed").set_value(("fg.csv", f"x,y,z\n{fg}".encode(), "text/csv"))
    at.session_state["w_exc_found"] = {
        "edited_rows": {},
        "added_rows": [{"area_sqft": 1200.0, "depth_ft": 9.0}],
        "deleted_rows": [],
    }
    at.number_input(key="w_exc_strip").set_value(4000.0)
    at.number_input(key="w_exc_wall").set_value(4.0)
    at.checkbox(key="w_exc_place").check()
    at.date_input(key="w_std_day").set_value(dt.date(2026, 3, 1)).run()  # a Sunday: the hours' warning
    no_exception(at)
    words = [e.value for e in [*at.subheader, *at.markdown, *at.caption, *at.info, *at.warning, *at.success]]
    words += [f"{e.label} {e.proto.help}" for e in [*at.metric, *at.number_input, *at.radio]]
    words += [" ".join(map(str, e.options)) for e in at.radio]
    words += [e.value.to_csv(index=False) for e in at.dataframe]
    return " ".join(" ".join(words).split())


def test_the_excavation_page_cites_the_renumbered_sections_and_not_the_old(folder, monkeypatch):
    with _reading(None, monkeypatch):
        bundled = _page_words()
    # the page takes no permit dates: every section but the term's (§120-10A)
    assert set(CITED.findall(bundled)) == OLD - {"10"}
    for words in ("Foundation under a building permit (§120-3B)", "Penalties (§120-12)", "(5)-(7)"):
        assert words in bundled, words
    with _reading(folder, monkeypatch):
        renumbered = _page_words()
    assert set(CITED.findall(renumbered)) == NEW - {"910"}
    for words in (
        "Review standards (§120-98) and work hours (§120-98G)",
        "Foundation under a building permit (§120-93B)",
        "0: not given (§120-92: stripping topsoil is excavation, so its volume counts toward §120-93A(14)).",
        "For §120-93A(13): 5,000 sq ft or 50% of the lot",
        "Building permit for the retaining wall (§120-98M)",
        "Penalties (§120-912)",
        "**Does this grading need a permit?** (§120-93A from the measured volumes and areas)",
        "Croton-on-Hudson, Chapter 120 (§120-93A)",
        "§120-93B: foundation excavation",
        "§120-98G: not allowed — Sunday 09:30",
        "Waiver possible (§95-3D(1))",
    ):
        assert words in renumbered, words
    old = sorted({m.group(0) for m in CITED.finditer(renumbered) if m[1] in OLD})
    assert not old, old
    assert "(5)-(7)" not in renumbered
