"""The companions' files are parsed, like the survey, in a child process bounded in memory and time
(treecalc.ingest.isolated): a water account, a grid, sections, surface points (CSV, LandXML), a fee schedule, a species
map and a project file. A file that blows up its parser is refused naming it (exit 2, a ValueError), the caller
carries on; the child's own refusal (a bad row) comes back in its own words."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers.bounds import SECONDS, run_capped
from treecalc.earthwork import readers as surfaces
from treecalc.ingest import SurveyError, isolated, water_account
from treecalc.rules import excavation
from treecalc.rules.croton_on_hudson import schedule as fund

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def seen(monkeypatch):
    """What went through the bounded child: the ``what`` of each isolated.run (the real run still runs)."""
    whats: list[str] = []
    real = isolated.run

    def spy(fn, *args, what, **kwargs):
        whats.append(what)
        return real(fn, *args, what=what, **kwargs)

    monkeypatch.setattr(isolated, "run", spy)
    return whats


def test_the_work_runs_in_another_process_and_a_nested_read_in_the_same_child():
    assert isolated.run(os.getpid, what="x") != os.getpid()
    # a reader that calls another (the water account reads its CSV): one child, not a child of a child
    outer, inner = isolated.run(_pid_and_nested_pid, what="x")
    assert outer == inner != os.getpid()


def _pid_and_nested_pid() -> tuple[int, int]:
    return os.getpid(), isolated.run(os.getpid, what="y")


def test_every_companion_file_is_parsed_in_the_child(tmp_path, seen):
    bills = tmp_path / "bills.csv"
    bills.write_text("kind,date,amount\nbill,2026-01-15,300.00\npayment,2026-02-01,100.00\n")
    grid = tmp_path / "grid.csv"
    grid.write_text("x,y,existing,proposed\n0,0,10,9\n10,0,10,9\n0,10,10,9\n10,10,10,9\n")
    sections = tmp_path / "sections.csv"
    sections.write_text("station,cut_area,fill_area\n0,10,0\n100,10,0\n")
    pts = tmp_path / "eg.csv"
    pts.write_text("x,y,z\n0,0,10\n10,0,10\n0,10,10\n10,10,10\n")
    xml = tmp_path / "fg.xml"
    xml.write_text(
        '<LandXML xmlns="http://www.landxml.org/schema/LandXML-1.2"><Surfaces><Surface name="FG"><Definition>'
        "<Pnts><P>0 0 9</P><P>0 10 9</P><P>10 0 9</P><P>10 10 9</P></Pnts></Definition></Surface></Surfaces>"
        "</LandXML>"
    )
    schedule = tmp_path / "fees.toml"
    schedule.write_text('basis = "per_tree"\nfee_per_tree_usd = "450.00"\n')
    species = tmp_path / "species.csv"
    species.write_text("text,species\nOak sp.,Quercus\n")

    bills_read, pays = water_account.read_account_csv(bills)
    assert [b[0] for b in bills_read] == [300] and [p[1] for p in pays] == [100]  # $300 billed, $100 paid
    excavation.volume_from_grid_csv(grid)
    excavation.volume_from_sections_csv(sections)
    assert surfaces.read_points(pts, "existing").shape == (4, 3)
    assert surfaces.read_points(xml, "proposed").shape == (4, 3)
    assert fund.load_fee_schedule(schedule).fee_per_tree_usd == 450
    from treecalc.cli.survey import species_map_arg

    assert species_map_arg([str(species)]) == {"Oak sp.": "Quercus"}
    from treecalc.app import projects, state

    blob = projects.project_bytes(state.make_source("lot 7.csv", b"Tag,Species,DBH\n1,Acer rubrum,12\n"), {}, {})
    assert projects.open_project(blob).survey_name == "lot 7.csv"
    for word in ("account file", "grid file", "sections file", "existing surface file", "proposed surface file"):
        assert any(w.startswith(word) for w in seen), (word, seen)
    for word in ("fee schedule fees.toml", "--species-map", "The project file"):
        assert any(w.startswith(word) for w in seen), (word, seen)


def test_the_childs_own_refusal_comes_back_in_its_words(tmp_path):
    bills = tmp_path / "bills.csv"
    bills.write_text("kind,date,amount\nbill,2026-01-15,300.00\nrefund,2026-02-01,100.00\n")
    with pytest.raises(ValueError, match=r"account file row 3: kind must be 'bill' or 'payment'"):
        water_account.read_account_csv(bills)


def _hog() -> bytes:
    return b"x" * (8 * 2**30)  # more than any child may have


def test_a_parse_that_outgrows_the_child_is_refused_naming_the_file(monkeypatch):
    monkeypatch.setenv("TREECALC_LIMITS", "memory_gb=0.5")
    with pytest.raises(SurveyError, match=r"grid file g\.csv could not be read: it needs more than 0\.5 GB"):
        isolated.run(_hog, what="grid file g.csv")


def test_the_child_holds_the_servers_budget_while_it_parses():
    from treecalc.ingest.limits import MemoryBudget

    budget = MemoryBudget(3.0)
    isolated.use_budget(budget)
    try:
        held: list[float] = []
        real = budget.reserve

        def spy(gb, *a, **k):
            held.append(gb)
            return real(gb, *a, **k)

        budget.reserve = spy  # type: ignore[method-assign]
        isolated.run(os.getpid, what="x")
        assert held == [4.0]  # the child's memory_gb (default 4 GB), given at most the 3 GB budget
        assert budget.used_gb == 0  # and given back
    finally:
        isolated.use_budget(None)


def _hostile_landxml(path: Path) -> None:
    # 5,000,000 empty elements in 20 MB (under the 50 MB file limit): the element tree takes gigabytes
    path.write_bytes(b"<LandXML>" + b"<a/>" * 5_000_000 + b"</LandXML>")


def test_a_landxml_that_blows_up_the_parser_is_refused_by_the_child_with_exit_2(tmp_path, monkeypatch):
    eg, fg = tmp_path / "eg.xml", tmp_path / "fg.xml"
    _hostile_landxml(eg)
    fg.write_bytes(b"<LandXML></LandXML>")
    # the child is held to TREECALC_LIMITS memory_gb as a survey read is (it parsed in the caller, unbounded)
    monkeypatch.setenv("TREECALC_LIMITS", "memory_gb=0.5")
    code, _out, err, took = run_capped(["excavation", "volume", "--existing", str(eg), "--proposed", str(fg)])
    assert code == 2 and "Traceback" not in err, err[-2000:]
    assert "existing surface file eg.xml could not be read: it needs more than 0.5 GB of memory" in err, err
    assert took < SECONDS


def test_a_grid_of_millions_of_small_cells_is_refused_by_the_child_with_exit_2(tmp_path, monkeypatch):
    grid = tmp_path / "grid.csv"
    # 400,000 rows x 9 cells = 3.6 million cells, under the row and cell limits, in 7 MB: each cell a Python
    # string while it is read (with the default 4 GB it is read, and refused for its one x value); a child held
    # to 0.5 GB refuses it for its memory, so the bound of TREECALC_LIMITS reaches the companions' parsing
    grid.write_bytes(b"x,y,existing,proposed,a,b,c,d,e\n" + b"1,2,3,4,5,6,7,8,9\n" * 400_000)
    monkeypatch.setenv("TREECALC_LIMITS", "memory_gb=0.5")
    code, _out, err, took = run_capped(["excavation", "volume", "--grid", str(grid)])
    assert code == 2 and "Traceback" not in err, err[-2000:]
    assert "grid file grid.csv could not be read: it needs more than 0.5 GB of memory" in err, err
    assert took < SECONDS
