"""``treecalc excavation check|volume`` (and the companions' shared error wording, with ``water``),
driven through an argparse parser built here with the two commands' ``register`` (independent of the
main CLI)."""

from __future__ import annotations

import argparse
import json

import numpy as np
import pandas as pd
import pytest

from treecalc.cli import excavation, water


def run(argv, capsys):
    ap = argparse.ArgumentParser(prog="treecalc")
    sub = ap.add_subparsers(dest="command", required=True)
    excavation.register(sub)
    water.register(sub)
    args = ap.parse_args(argv)
    rc = args.func(args)
    out, err = capsys.readouterr()
    return rc, out, err


# --------------------------------------------------------------------------- excavation check
def test_check_json(capsys):
    rc, out, _ = run(
        [
            "excavation",
            "check",
            "--excavate",
            "600:2.5",
            "--lot-area",
            "9000",
            "--place-topsoil",
            "2000:3:seeded",
            "--json",
        ],
        capsys,
    )
    assert rc == 0
    d = json.loads(out)
    assert d["permit_required"] is True
    assert d["triggers"] == ["§120-3A(2)", "§120-3A(4)"]
    assert d["excavation_cy"] == 55.56  # 600 x 2.5 = 1,500 cu ft / 27
    assert d["fill_cy"] == 18.52  # topsoil 2,000 x 3/12 = 500 cu ft / 27
    assert d["exemptions"][0]["applies"] is True


def test_check_repeatable_and_no_permit(capsys):
    rc, out, _ = run(["excavation", "check", "--excavate", "60:5", "--excavate", "60:4.5", "--json"], capsys)
    assert json.loads(out)["triggers"] == ["§120-3A(1)"]
    rc, out, _ = run(["excavation", "check", "--fill", "999:1", "--json"], capsys)
    d = json.loads(out)
    assert rc == 0 and d["permit_required"] is False and d["triggers"] == []
    rc, out, _ = run(["excavation", "check", "--strip-topsoil", "4001", "--lot-area", "8000"], capsys)
    assert rc == 0 and "REQUIRED" in out and "§120-3A(3)" in out


def test_check_wesley_hills(capsys):
    rc, out, _ = run(["excavation", "check", "--jurisdiction", "wesley-hills", "--fill", "200:2", "--json"], capsys)
    d = json.loads(out)
    assert rc == 0 and d["triggers"] == ["§95-3A(1)(a)"] and d["waiver_eligible"] is True


@pytest.mark.parametrize(
    "argv,msg",
    [
        (["--excavate", "600"], "AREA_SQFT:DEPTH_FT"),
        (["--excavate", "600:deep"], "--excavate: depth must be a number"),
        (["--fill=-5:2"], "--fill: area must be from 0 sq ft"),
        (["--place-topsoil", "100:2:maybe"], "seeded"),
        (["--lot-area", "0"], "--lot-area: area must be more than 0 sq ft"),
        (["--excavate", "1e14:1e14"], "--excavate: area must be from 0 sq ft to 100,000,000 sq ft, got 1e14"),
        (["--excavate", "100:1e14"], "--excavate: depth must be from 0 ft to 1,000 ft"),
        (["--strip-topsoil", "100:nan"], "--strip-topsoil: depth must be a finite number"),
        (["--excavate", "9000:2", "--lot-area", "8000"], "more than the lot area"),
        (["--retaining-wall", "-1"], "--retaining-wall: height must be from 0 ft"),
        (["--cellar", "40:30"], "LENGTH_FT:WIDTH_FT:DEPTH_FT"),
        (["--last-work", "2026-01-01"], "--last-work needs --permit-issued"),
        (["--jurisdiction", "Ossining"], "unknown jurisdiction"),
    ],
)
def test_check_errors(argv, msg, capsys):
    rc, out, err = run(["excavation", "check", *argv], capsys)
    assert rc == 2 and err.startswith("error: ") and msg in err


# --------------------------------------------------------------------------- excavation volume
@pytest.fixture
def grid_csv(tmp_path):
    # the worked grid of test_excavation.py: fill 307.5 cu ft, cut 57.5 cu ft
    H = np.array([[1, 1, -1], [1, 2, -1], [0, 1, -2]], dtype=float)
    xx, yy = np.meshgrid([0.0, 10.0, 20.0], [0.0, 10.0, 20.0])
    p = tmp_path / "grid.csv"
    pd.DataFrame({"x": xx.ravel(), "y": yy.ravel(), "existing": 100.0, "proposed": 100.0 + H.ravel()}).to_csv(
        p, index=False
    )
    return p


@pytest.fixture
def sections_csv(tmp_path):
    p = tmp_path / "sections.csv"
    p.write_text("station,cut_area,fill_area\n0+00,100,0\n1+00,400,0\n2+50,0,60\n")
    return p


def test_volume_grid_json(grid_csv, capsys):
    rc, out, _ = run(["excavation", "volume", "--grid", str(grid_csv), "--json"], capsys)
    d = json.loads(out)
    assert rc == 0
    assert (d["cut_cy"], d["fill_cy"], d["net_cy"]) == (2.13, 11.39, -9.26)


def test_volume_grid_table_and_metric(grid_csv, capsys):
    rc, out, _ = run(["excavation", "volume", "--grid", str(grid_csv)], capsys)
    assert rc == 0 and "11.39" in out and "borrow-pit" in out
    rc, out, _ = run(["excavation", "volume", "--grid", str(grid_csv), "--metric", "--json"], capsys)
    assert json.loads(out)["fill_cy"] == 402.19  # 307.5 m3 / 0.764554857984


def test_volume_sections_json(sections_csv, capsys):
    rc, out, _ = run(["excavation", "volume", "--sections", str(sections_csv), "--json"], capsys)
    d = json.loads(out)
    # with the grade point of the cut-to-fill section (see test_excavation's worked example)
    assert rc == 0 and (d["cut_cy"], d["fill_cy"], d["net_cy"]) == (1892.11, 21.74, 1870.37)
    assert d["transitions"][0]["kind"] == "cut to fill"
    # the volume feeds §120-3A(4): 1,892.11 > 50 cu yd; sections give no plan areas
    assert d["permit"]["permit_required"] is True and "§120-3A(4)" in d["permit"]["triggers"]
    rc, out, err = run(["excavation", "volume", "--sections", str(sections_csv), "--prismoidal", "--json"], capsys)
    assert rc == 2 and "mid-section areas" in err


def test_volume_errors(tmp_path, grid_csv, sections_csv, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_text("x,y,existing\n0,0,1\n")
    cases = [
        (["--grid", str(bad)], "missing column(s) 'proposed'"),
        (["--grid", str(tmp_path / "nope.csv")], "not found"),
        (["--grid", str(grid_csv), "--sections", str(sections_csv)], "exactly one"),
        ([], "exactly one"),
        (["--grid", str(grid_csv), "--prismoidal"], "--sections"),
    ]
    irregular = tmp_path / "irregular.csv"
    irregular.write_text("x,y,existing,proposed\n0,0,1,2\n10,0,1,2\n25,0,1,2\n0,10,1,2\n10,10,1,2\n25,10,1,2\n")
    cases.append((["--grid", str(irregular)], "not regular"))
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    cases.append((["--sections", str(empty)], "empty"))
    assert cases, "nothing to check: the loop below would pass on no item"
    for argv, msg in cases:
        rc, out, err = run(["excavation", "volume", *argv], capsys)
        assert rc == 2 and err.startswith("error: ") and msg in err, (argv, err)


def test_excavation_without_subcommand(capsys):
    rc, out, err = run(["excavation"], capsys)
    assert rc == 2 and "error: choose a subcommand" in err


def test_check_strip_topsoil_without_lot_area_is_unknown(capsys):
    # 4,000 sq ft stripped: (3) holds on lots under 8,000 sq ft (4,000 > 50%); no lot area given.
    rc, out, _ = run(["excavation", "check", "--strip-topsoil", "4000", "--json"], capsys)
    d = json.loads(out)
    assert rc == 0 and d["permit_required"] == "unknown"
    assert any("under 8,000 sq ft" in m for m in d["missing_facts"])
    rc, out, _ = run(["excavation", "check", "--strip-topsoil", "4000"], capsys)
    assert "UNKNOWN" in out and "not required" not in out.splitlines()[0]
    # 4,000 sq ft x 6 in = 2,000 cu ft = 74.07 cu yd > 50: §120-3A(4), whatever the lot
    rc, out, _ = run(["excavation", "check", "--strip-topsoil", "4000:6", "--json"], capsys)
    d = json.loads(out)
    assert d["permit_required"] is True and d["triggers"] == ["§120-3A(4)"] and d["excavation_cy"] == 74.07


def test_check_foundation_wall_term_and_wesley_hills(capsys):
    rc, out, _ = run(
        [
            "excavation",
            "check",
            "--foundation",
            "1200:9",
            "--lot-area",
            "20000",
            "--retaining-wall",
            "5",
            "--permit-issued",
            "2026-03-01",
            "--last-work",
            "2026-06-01",
            "--as-of",
            "2026-08-01",
            "--json",
        ],
        capsys,
    )
    d = json.loads(out)
    assert rc == 0 and d["permit_required"] is False and d["exemptions"][0]["section"] == "§120-3B"
    assert [s["building_permit_required"] for s in d["review_standards"] if s["section"] == "§120-8M"] == [True]
    assert d["term"]["subject_to_termination"] is True and d["term"]["idle_days"] == 61
    # Wesley Hills, cellar 40 x 30 x 9 (400 cu yd, limit 800); 1,200 sq ft x 9 ft excavated
    rc, out, _ = run(
        ["excavation", "check", "--jurisdiction", "wesley-hills", "--excavate", "1200:9", "--cellar", "40:30:9"], capsys
    )
    assert rc == 0 and "building permit suffices" in out and "not required" in out
    rc, out, _ = run(["excavation", "check", "--jurisdiction", "wesley-hills", "--json"], capsys)
    assert json.loads(out)["waiver_eligible"] == "not applicable"


def test_volume_surfaces_json_and_permit(tmp_path, capsys):
    # A 40 x 40 ft site at 100 ft; the proposed ground rises to 103 ft at the centre (a pyramid of
    # fill over four triangles): V = 1,600 x 3 / 3 = 1,600 cu ft = 59.26 cu yd. Filled area 1,600 sq
    # ft (>= 1,000: §120-3A(7)); deeper than 2 ft: the top third, 1,600 / 9 = 177.78 sq ft (< 500).
    corners = "0,0,100\n40,0,100\n0,40,100\n40,40,100\n"
    (tmp_path / "eg.csv").write_text("Easting,Northing,Elevation\n" + corners + "20,20,100\n")
    (tmp_path / "fg.csv").write_text("Easting,Northing,FG\n" + corners + "20,20,103\n")
    rc, out, err = run(
        [
            "excavation",
            "volume",
            "--existing",
            str(tmp_path / "eg.csv"),
            "--proposed",
            str(tmp_path / "fg.csv"),
            "--lot-area",
            "10000",
            "--json",
        ],
        capsys,
    )
    d = json.loads(out)
    assert rc == 0, err
    assert (d["cut_cy"], d["fill_cy"], d["net_cy"]) == (0.0, 59.26, -59.26)
    assert d["fill_area_sqft"] == 1600.0 and d["fill_area_deeper_than_ft_sqft"]["2"] == 177.78
    assert d["permit"]["permit_required"] is True and d["permit"]["triggers"] == ["§120-3A(7)"]
    rc, out, _ = run(
        [
            "excavation",
            "volume",
            "--existing",
            str(tmp_path / "eg.csv"),
            "--proposed",
            str(tmp_path / "fg.csv"),
            "--lot-area",
            "10000",
        ],
        capsys,
    )
    assert rc == 0 and "TIN surface to surface" in out and "REQUIRED" in out
    rc, _, err = run(["excavation", "volume", "--existing", str(tmp_path / "eg.csv")], capsys)
    assert rc == 2 and "--existing and --proposed go together" in err


@pytest.mark.parametrize(
    "argv,msg",
    [
        # due 31 Dec 9999: the 15 April relevy after it is in year 10000 -> OverflowError traceback before
        (["water", "penalty", "--amount", "100", "--due", "9999-12-31", "--as-of", "9999-12-31"], "--due"),
        # 'year 10000 is out of range' named no flag
        (["water", "penalty", "--amount", "100", "--due", "0001-01-01", "--as-of", "9999-12-31"], "--due"),
        (["water", "penalty", "--amount", "100", "--due", "2026-01-15", "--as-of", "9999-12-31"], "--as-of"),
        (["water", "penalty", "--amount", "100", "--due", "2026-01-15", "--payment", "9999-12-31:5"], "payment 1 date"),
        (
            ["excavation", "check", "--excavate", "10:1", "--permit-issued", "9999-12-31", "--as-of", "9999-12-31"],
            "--permit-issued",
        ),
    ],
)
def test_dates_out_of_range_are_refused_naming_the_input(argv, msg, capsys):
    rc, out, err = run(argv, capsys)
    assert rc == 2 and out == "" and msg in err and "1900" in err


@pytest.mark.parametrize(
    "argv,msg",
    [
        # the library's parameter names (billed_consumption, test_fee, ...) are shown as the flags typed
        (["water", "meter-test", "--billed", "-1", "--result", "2"], "--billed must not be negative, got '-1'"),
        (["water", "meter-test", "--billed", "100", "--result", "2", "--result", "-101"], "--result 2 must be"),
        (["water", "meter-test", "--billed", "100", "--result", "nan"], "--result must be a finite number"),
        (["water", "meter-test", "--billed", "100", "--result", "2", "--fee", "-5"], "--fee must not be negative"),
        (["water", "meter-test", "--billed", "100", "--result", "2", "--rate", "x"], "--rate must be a number"),
        (["water", "penalty", "--amount", "-5", "--due", "2026-01-15"], "--amount must not be negative, got '-5'"),
        (["water", "penalty", "--amount", "5", "--due", "2026-02-30"], "--due 2026-02-30 does not exist"),
        (["water", "penalty", "--amount", "5", "--due", "2026-01-15", "--as-of", "x"], "--as-of must be a date"),
        (
            ["water", "penalty", "--amount", "5", "--due", "2026-01-15", "--payment", "2026-02-01:0"],
            "--payment 1 amount must be positive",
        ),
        (
            ["water", "penalty", "--bill", "5:2026-01-15", "--bill", "x:2026-02-15"],
            "--bill 'x:2026-02-15': amount must be a number",
        ),
        (
            ["excavation", "check", "--excavate", "10:1", "--permit-issued", "2026-05-01", "--as-of", "2026-04-01"],
            "--as-of (2026-04-01) is before",
        ),
    ],
)
def test_errors_name_the_flag_typed(argv, msg, capsys):
    rc, out, err = run(argv, capsys)
    assert rc == 2 and out == "" and msg in err, err


def test_bad_amounts_are_named_where_they_were_typed(tmp_path, capsys):
    # A negative bill in the CSV was reported as '--bill 1 amount ...' (a flag never typed);
    # with --amount and --bill together, '--bill 2' meant the first --bill. Each names its source.
    f = tmp_path / "acct.csv"
    f.write_text("kind,date,amount\nbill,2026-01-15,100\nbill,2026-02-15,-5\n")
    rc, out, err = run(["water", "penalty", "--csv", str(f), "--as-of", "2026-03-01"], capsys)
    assert rc == 2 and "row 3" in err and "negative" in err and "--bill" not in err, err
    f.write_text("kind,date,amount\nbill,2026-01-15,100\npayment,2026-02-15,0\n")
    rc, out, err = run(["water", "penalty", "--csv", str(f), "--as-of", "2026-03-01"], capsys)
    assert rc == 2 and "row 3" in err and "positive" in err, err
    rc, out, err = run(
        ["water", "penalty", "--amount", "5", "--due", "2026-01-15", "--bill=-1:2026-02-15", "--as-of", "2026-03-01"],
        capsys,
    )
    assert rc == 2 and "--bill '-1:2026-02-15'" in err and "negative" in err, err


TERM_WHY = "(§120-10A: the permit term and idle time): Wesley Hills Chapter 95 does not read it"


@pytest.mark.parametrize(
    "argv,msg",
    [
        (["--permit-issued", "2026-01-01"], f"--permit-issued is a Croton-on-Hudson Chapter 120 input {TERM_WHY}"),
        (["--permit-issued", "2026-01-01", "--last-work", "2026-01-05"], "--permit-issued is a Croton-on-Hudson"),
        # alone: before, "--last-work needs --permit-issued", which Wesley Hills then refused too
        (["--last-work", "2026-01-05"], f"--last-work is a Croton-on-Hudson Chapter 120 input {TERM_WHY}"),
        (["--retaining-wall", "6"], "--retaining-wall is a Croton-on-Hudson Chapter 120 input (§120-8M: "),
        (["--lot-area", "20000"], "--lot-area is a Croton-on-Hudson Chapter 120 input (§120-3A(3): "),
    ],
)
def test_a_croton_flag_with_wesley_hills_is_refused_naming_it(argv, msg, capsys):
    # before: exit 0 and Chapter 95's answer, the flag dropped without a word
    rc, out, err = run(["excavation", "check", "--jurisdiction", "wesley-hills", "--excavate", "100:2", *argv], capsys)
    assert rc == 2 and out == "" and err.startswith(f"error: {msg}"), err
    assert err.rstrip().endswith("so it would not be used; leave it out, or give --jurisdiction croton-on-hudson")


def test_cellar_with_croton_and_as_of_without_a_permit_are_refused(capsys):
    rc, _, err = run(["excavation", "check", "--excavate", "100:2", "--cellar", "40:30:8"], capsys)
    assert rc == 2 and err == (
        "error: --cellar is a Wesley Hills Chapter 95 input (§95-3C(1): a building permit stands as the permit): "
        "Croton-on-Hudson Chapter 120 does not read it, so it would not be used; leave it out, or give "
        "--jurisdiction wesley-hills\n"
    )
    # before: --as-of alone was dropped (the term check needs the issue date)
    rc, _, err = run(["excavation", "check", "--excavate", "100:2", "--as-of", "2026-03-01"], capsys)
    assert rc == 2 and err == "error: --as-of needs --permit-issued (the §120-10A term is counted from the permit)\n"


def test_volume_lot_area_with_wesley_hills_is_refused_before_any_file_is_read(capsys, tmp_path):
    argv = ["excavation", "volume", "--jurisdiction", "wesley-hills", "--lot-area", "20000"]
    rc, _, err = run([*argv, "--sections", str(tmp_path / "none.csv")], capsys)
    assert rc == 2 and err.startswith("error: --lot-area is a Croton-on-Hudson Chapter 120 input (§120-3A(3): ")


@pytest.mark.parametrize(
    "argv,msg",
    [
        (["--permit-issued", ""], "--permit-issued must be a date YYYY-MM-DD, got ''"),
        (["--permit-issued", "2026-01-01", "--last-work", ""], "--last-work must be a date YYYY-MM-DD, got ''"),
        (["--last-work", ""], "--last-work needs --permit-issued"),
        (["--jurisdiction", "wesley-hills", "--cellar", ""], "--cellar '': expected LENGTH_FT:WIDTH_FT:DEPTH_FT"),
    ],
)
def test_a_flag_given_empty_is_refused_not_dropped(argv, msg, capsys):
    # `--permit-issued "$ISSUED"` in a script with the variable unset: before, exit 0 and no §120-10A term check
    # (the cellar: no §95-3C(1) check), as if the flag had not been given; --strip-topsoil '' was already refused
    rc, out, err = run(["excavation", "check", "--excavate", "100:2", *argv], capsys)
    assert rc == 2 and out == "" and err.startswith(f"error: {msg}"), err
