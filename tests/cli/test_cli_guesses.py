"""The command line never guesses silently: a summary by default with every tree on request, a fuzzy
replacement species told, the §208-22D minimum named, the closest field or price named, companion
errors naming the flag with their quotes closed."""

from __future__ import annotations

import csv
import json
import random

from treecalc.cli import main


def _survey(path, n: int = 600):
    """Removals of Norway maple and tree-of-heaven (invasive, not counted §208-22E) among red maples."""
    rnd = random.Random(5)
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Tag", "Species", "DBH", "Action"])
        for i in range(1, n + 1):
            w.writerow(
                [i, ["Acer platanoides", "Ailanthus altissima", "Acer rubrum"][i % 3], rnd.randint(6, 30), "Remove"]
            )
    return path


def test_assess_prints_a_summary_and_every_tree_with_trees(tmp_path, capsys):
    p = _survey(tmp_path / "s.csv")
    assert main(["assess", str(p)]) == 0
    summary = capsys.readouterr().out
    assert main(["assess", str(p), "--trees"]) == 0
    every = capsys.readouterr().out
    # 200 trees-of-heaven (tags 1, 4, 7, ...) and 200 Norway maples (3, 6, 9, ...): one line each
    lines = [ln for ln in summary.splitlines() if "Not counted" in ln]
    assert len(lines) == 2 and all("Not counted: 200 trees" in ln for ln in lines)
    assert "prohibited" in lines[0] and "regulated" in lines[1]
    # --trees adds a heading and one line per tree (600) after the same summary
    assert every.startswith(summary.rstrip("\n")) and len(every.splitlines()) - len(summary.splitlines()) == 602
    assert sum(ln.startswith("  tree ") for ln in every.splitlines()) == 600 and "tree 1 " in every


def test_replacement_species_fuzzy_match_is_told(capsys):
    assert main(["assess", "--replacement-species", "Red Mapel"]) == 0
    out = capsys.readouterr().out
    assert "warning: replacement species: fuzzy match: 'Red Mapel' → Acer rubrum (ACRU), 89%; check it" in out


def test_replacement_dbh_below_the_minimum_names_it(capsys):
    assert main(["assess", "--replacement-species", "ACRU", "--replacement-dbh", "0.5"]) == 2
    err = capsys.readouterr().err
    assert "0.5 in DBH is under the 1.5 in minimum for deciduous trees §208-22D" in err
    assert "give a replacement DBH of at least 1.5 in (§208-22D)" in err
    assert "another replacement species" not in err


def test_map_and_price_name_the_closest(tmp_path, capsys):
    p = tmp_path / "s.csv"
    p.write_text("Tree,Species,Diam\n1,Acer rubrum,12\n")
    assert main(["survey", str(p), "--map", "Diam=dhb"]) == 2
    assert "unknown field 'dhb'; did you mean 'dbh'?" in capsys.readouterr().err
    assert main(["benefits", "--species", "ACRU", "--dbh", "10", "--price", "electricty=0.2"]) == 2
    assert "unknown price 'electricty'; did you mean 'electricity'?" in capsys.readouterr().err


def test_water_errors_name_the_flag_and_close_their_quotes(capsys):
    assert main(["water-penalty", "--amount", "100", "--due", "2024-13-01"]) == 2
    # the form is right, the day does not exist: said so (a 13th month), not "must be a date YYYY-MM-DD"
    assert capsys.readouterr().err.strip() == "error: --due 2024-13-01 does not exist: there is no month 13"
    assert main(["water-penalty", "--amount", "100", "--due", "2024-01-01", "--as-of", "20x"]) == 2
    assert capsys.readouterr().err.strip() == "error: --as-of must be a date YYYY-MM-DD, got '20x'"


def test_survey_json_keeps_every_warning(tmp_path, capsys):
    p = tmp_path / "s.csv"
    p.write_text("Tag,Species,DBH\n1,Red Mapel,12\n2,Red Mapel,14\n")
    assert main(["survey", str(p), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["warnings"][1:] == ["fuzzy match: 'Red Mapel' → Acer rubrum (ACRU), 89%: 2 rows (2, 3)"]
    assert d["warnings"][0].startswith("no action column") and len(d["warnings_detail"]) == 3
