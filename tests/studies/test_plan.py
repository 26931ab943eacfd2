"""The cheapest lawful plan (treecalc.studies.plan): every k checked against brute force over all subsets."""

import itertools
import json

import pytest

import treecalc
from treecalc.cli import main
from treecalc.ingest import read_survey
from treecalc.studies.plan import plan

# six proposed removals, two of them required; one tree kept. No parcel trigger (§208-19A(2)):
# the lot has a house, cannot be subdivided and needs no site plan; nothing removed earlier.
ROWS = [
    ("T1", "Acer rubrum", 14, "Remove", "Yes"),
    ("T2", "Quercus rubra", 20, "Remove", "Yes"),
    ("T3", "Acer saccharum", 10, "Remove", "No"),
    ("T4", "Tilia americana", 6, "Remove", "No"),
    ("T5", "Quercus palustris", 24, "Remove", ""),
    ("T6", "Acer rubrum", 9, "Remove", "no"),
    ("T7", "Acer rubrum", 16, "Retain", ""),
]
SITE = {"subdividable": False, "has_residence": True, "site_plan_required": False, "prior_removals_12mo": 0}
OPTIONAL = ["T3", "T4", "T5", "T6"]


def _csv(path, rows, header="Must remove"):
    lines = [f"Tag,Species,DBH (in),Action,{header}"] + [",".join(map(str, r)) for r in rows]
    path.write_text("\n".join(lines) + "\n")
    return path


def _brute_force(tmp_path, **options):
    """Every subset of the optional trees, each written as its own survey file and assessed."""
    out = {}
    for k in range(len(OPTIONAL) + 1):
        for subset in itertools.combinations(OPTIONAL, k):
            rows = [(t, sp, d, "Remove" if (m == "Yes" or t in subset) else "Retain", m) for t, sp, d, _, m in ROWS]
            a = treecalc.assess(read_survey(_csv(tmp_path / f"s{''.join(subset)}.csv", rows)), site=SITE, **options)
            rep, fund = a.replacement, a.fund
            cost = round((rep.planting_cost_usd or 0) + (fund.fund_in_lieu_usd or 0), 2)
            out[subset] = cost
    return out


@pytest.mark.parametrize("plantable", [None, 3])
def test_cheapest_set_for_every_k_is_brute_forces(tmp_path, plantable):
    survey = read_survey(_csv(tmp_path / "survey.csv", ROWS))
    options = {} if plantable is None else {"plantable": plantable}
    p = plan(survey, site=SITE, **options)
    brute = _brute_force(tmp_path, **options)
    assert p.must_remove == ["T1", "T2"] and p.optional == OPTIONAL
    assert [s.k for s in p.frontier] == [0, 1, 2, 3, 4]
    # no tree has a permit trigger of its own; T1, T2 and k optional make 2 + k removals, more than three
    # (§208-19A(1)) from k = 2. One candidate per k: k = 0, 1 the first by survey order (no permit, nothing to
    # replace); k = 2 the first two (T3, T4) make 4 removals, and the two of least value are T4 ($78.54/yr) and
    # T3 ($100.12) too, so no second candidate; k = 3 adds T6 ($106.98); k = 4 is every removal: 5 assessments
    # (the search over sets closed under dominance took 6, brute force 2^4 = 16)
    assert p.assessments == 5
    for s in p.frontier:
        best = min(c for sub, c in brute.items() if len(sub) == s.k)
        assert s.cost_usd == pytest.approx(best, abs=0.001)
        assert s.remove[:2] == ["T1", "T2"]
        assert brute[tuple(s.remove[2:])] == pytest.approx(s.cost_usd, abs=0.001)  # the set named costs that
    # k = 0, 1: 2 and 3 removals, not "more than 3" (§208-19A(1)): no permit, nothing to replace
    assert [s.cost_usd for s in p.frontier[:2]] == [0.0, 0.0]
    assert not p.frontier[1].permit_required and p.frontier[2].permit_required
    assert "no permit" in p.frontier[1].reasons[0] and "§208-19A(1)" in p.frontier[1].reasons[0]
    # k = 2: four removals in 12 months, a permit and 90% replacement (§208-22A)
    r = p.frontier[2].reasons[0]
    assert "makes 4 removals in 12 months" in r and "a permit under §208-19A(1)" in r
    assert "90% replacement under §208-22A" in r
    # the cheapest second optional tree is never the 24 in pin oak (it carries the most value)
    assert "T5" not in p.frontier[2].remove and "T5" in p.frontier[4].remove
    if plantable == 3:
        # the site takes 3: planted 3 x $450 (the default stock's placeholder cost) = $1,350; the
        # rest in lieu at the placeholder $450 a tree (fee_schedule.toml)
        s2 = p.frontier[2]
        assert s2.planting_usd == 1350.0 and s2.in_lieu_usd % 450 == 0
        assert s2.cost_usd == s2.planting_usd + s2.in_lieu_usd


def test_budget_marks_the_steps_it_cannot_pay(tmp_path):
    survey = read_survey(_csv(tmp_path / "survey.csv", ROWS))
    full = plan(survey, site=SITE)
    budget = full.frontier[2].cost_usd
    p = plan(survey, site=SITE, budget_usd=budget)
    assert [s.within_budget for s in p.frontier] == [True, True, True, False, False]
    assert any("Over the budget" in r for r in p.frontier[3].reasons)


def test_required_removal_header_and_like_trees(tmp_path):
    # "Required removal" is the must-remove column; three identical optional maples are one group
    rows = [("A", "Acer rubrum", 12, "Remove", "yes")] + [(f"M{i}", "Acer rubrum", 8, "Remove", "") for i in range(3)]
    p = plan(read_survey(_csv(tmp_path / "s.csv", rows, "Required removal")), site=SITE)
    assert p.must_remove == ["A"] and p.optional == ["M0", "M1", "M2"]
    assert p.assessments == 4  # counts 0..3 of one group, not 2^3
    assert [s.remove for s in p.frontier] == [["A"], ["A", "M0"], ["A", "M0", "M1"], ["A", "M0", "M1", "M2"]]


def test_too_many_is_refused_with_the_limit(tmp_path):
    # a 4 in maple removed already (T8): its offence and §208-22F are the search's over the sets closed under
    # dominance, 6 of them (see above), against a limit of 5
    done = read_survey(_csv(tmp_path / "done.csv", [*ROWS, ("T8", "Acer rubrum", 12, "Removed", "")]))
    with pytest.raises(ValueError, match="6 assessments; the plan runs at most 5"):
        plan(done, site=SITE, max_assessments=5)
    # the permit application alone takes one candidate per k: 4 optional removals, 5 assessments, within 5
    p = plan(read_survey(_csv(tmp_path / "survey.csv", ROWS)), site=SITE, max_assessments=5)
    assert p.assessments == 5 and [s.k for s in p.frontier] == [0, 1, 2, 3, 4]
    # fewer than one assessment per number of removals (0..4) is refused before the survey is assessed
    with pytest.raises(ValueError, match="at least 5 assessments"):
        plan(read_survey(_csv(tmp_path / "survey.csv", ROWS)), site=SITE, max_assessments=4)


def test_cli_plan_json(tmp_path, capsys):
    f = _csv(tmp_path / "survey.csv", ROWS)
    site = [x for k, v in SITE.items() for x in ("--site", f"{k}={str(v).lower()}")]
    assert main(["plan", str(f), *site, "--plantable", "3", "--budget", "4000", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    front = out["frontier"]
    assert [len(s["remove"]) for s in front] == [2, 3, 4, 5, 6]
    assert all({"remove", "cost_usd", "reasons"} <= set(s) for s in front)
    assert front[2]["within_budget"] and not front[4]["within_budget"]


def test_cli_plan_bad_budget(tmp_path, capsys):
    f = _csv(tmp_path / "survey.csv", ROWS)
    assert main(["plan", str(f), "--budget", "lots"]) == 2
    assert "--budget" in capsys.readouterr().err


def test_cli_refuses_past_the_limit(tmp_path, capsys):
    # T8 removed under a permit of its own (the Permit column): §208-18A takes it out of the lot's count, which is
    # then no longer the number of removals, so the plan searches over the classes (a tree harmed already alone is
    # answered one candidate per k); the search needs 6 assessments
    f = tmp_path / "survey.csv"
    f.write_text(
        "Tag,Species,DBH (in),Action,Must remove,Permit\n"
        + "".join(f"{t},{sp},{d},{a},{m},\n" for t, sp, d, a, m in ROWS)
        + "T8,Acer rubrum,12,Removed,,Yes\n"
    )
    assert main(["plan", str(f), "--max-assessments", "5"]) == 2
    err = capsys.readouterr().err
    assert "6 assessments" in err and "at most 5" in err and "--max-assessments" in err


def test_a_huge_limit_is_refused_not_run(tmp_path, capsys):
    # 25 optional red maples, each at its own distance from the residence: 25 classes of one tree, 2^25 =
    # 33,554,432 sets closed under dominance. A limit of 10^20 let them all run (at 0.07 s each, a month);
    # past MAX_ASSESSMENTS_CEILING the limit itself is refused, before any assessment
    from treecalc.studies.plan import MAX_ASSESSMENTS_CEILING

    rows = ["Tag,Species,DBH (in),Action,Condition,Distance to residence (ft)"]
    rows += [f"T{i},Acer rubrum,10,Remove,Good,{30 + i}" for i in range(25)]
    f = tmp_path / "lot.csv"
    f.write_text("\n".join(rows) + "\n")
    assert main(["plan", str(f), "--max-assessments", str(10**20)]) == 2
    err = capsys.readouterr().err
    assert f"at most {MAX_ASSESSMENTS_CEILING:,}" in err and "--max-assessments" in err
    # with a tree removed already under a permit of its own (a Permit column, §208-18A: the lot's count is then not
    # the number of removals, so the plan searches), at the ceiling itself the survey is read and refused for its
    # 33,554,432 assessments, at once
    done = tmp_path / "done.csv"
    done.write_text(
        "\n".join([rows[0] + ",Permit", *(r + "," for r in rows[1:]), "X,Acer rubrum,10,Removed,Good,80,Yes"]) + "\n"
    )
    assert main(["plan", str(done), "--max-assessments", str(MAX_ASSESSMENTS_CEILING)]) == 2
    assert "33,554,432 assessments" in capsys.readouterr().err
    # the permit application alone is answered: one candidate for each k = 0..25, 26 assessments. The count of
    # removals passes three (§208-19A(1)) at k = 4; on a lot with no parcel trigger (SITE, §208-19A(2)) no tree
    # has a trigger of its own, so k = 0..3 need no permit and cost nothing
    p = plan(read_survey(f), site=SITE)
    assert p.assessments == 26 and [s.k for s in p.frontier] == list(range(26))
    assert [s.cost_usd for s in p.frontier[:4]] == [0.0] * 4 and p.frontier[4].permit_required
    with pytest.raises(ValueError, match="‹max_assessments›"):  # the library names the keyword
        plan(read_survey(f), max_assessments=0)


def test_rows_the_reader_rejected_are_said_not_left_out_in_silence(tmp_path, capsys):
    # D (Must remove, species "Xyzzy" not recognised) and B (no DBH) are rejected by the reader. With them the
    # lot would have 4 removals, more than three (§208-19A(1)), a permit for 4 and §208-22A replacement; without
    # them the plan sees A and C only, 2 removals and $0.00: a figure it must not give without saying so
    f = tmp_path / "lot.csv"
    f.write_text(
        "Tag,Species,DBH (in),Action,Must remove\n"
        "A,Acer rubrum,12,Remove,Yes\n"
        "B,Acer rubrum,,Remove,\n"
        "C,Quercus rubra,14,Remove,\n"
        "D,Xyzzy,10,Remove,Yes\n",
    )
    p = plan(read_survey(f), site=SITE)
    assert p.must_remove == ["A"] and p.optional == ["C"]
    said = [n for n in p.notes if n.startswith("2 rows the reader rejected are not in this plan")]
    assert said and "row 3, column 'DBH (in)'" in said[0] and "row 5, column 'Species'" in said[0]
    assert main(["plan", str(f)]) == 0
    assert "2 rows the reader rejected are not in this plan" in capsys.readouterr().out


def test_trees_located_by_coordinates_are_still_read_alike(tmp_path):
    # ten red maples of 8-17 in, each with its own GPS position: no rule reads a tree's coordinates (the zone
    # is the survey's, the same for every candidate set), so they are one class whose values rise with DBH, a
    # chain: the sets are the 0..10 smallest, 11 assessments. Coordinates made ten classes, 2^10 = 1,024 sets
    # past the 256 limit, and the plan of a surveyed lot was refused
    rows = ["Tag,Species,DBH (in),Action,Latitude,Longitude"]
    rows += [f"T{i},Acer rubrum,{8 + i},Remove,41.20{i},-73.89{i}" for i in range(10)]
    located, bare = tmp_path / "gps.csv", tmp_path / "bare.csv"
    located.write_text("\n".join(rows) + "\n")
    bare.write_text("\n".join(",".join(r.split(",")[:4]) for r in rows) + "\n")
    p, q = plan(read_survey(located), site=SITE), plan(read_survey(bare), site=SITE)
    assert p.assessments == 11 == q.assessments
    assert [(s.remove, s.cost_usd) for s in p.frontier] == [(s.remove, s.cost_usd) for s in q.frontier]


def test_a_thousand_optional_removals_are_refused_at_once_naming_the_count(tmp_path, capsys):
    # 1,000 red maples proposed for removal, none required: one set of each size 0..1,000 is at least 1,001
    # assessments, past the 256 the plan runs. It died with a RecursionError traceback after 14-30 s (a Python
    # call per tree while listing the sets); 900 was refused cleanly
    import time

    rows = ["Tag,Species,DBH (in),Action"] + [f"T{i},Acer rubrum,{6 + i % 20},Remove" for i in range(1000)]
    f = tmp_path / "lot.csv"
    f.write_text("\n".join(rows) + "\n")
    start = time.monotonic()
    assert main(["plan", str(f)]) == 2
    err = capsys.readouterr().err
    assert "1,000 optional removals" in err and "at least 1,001 assessments" in err and "at most 256" in err
    assert "Traceback" not in err and "--max-assessments" in err
    assert time.monotonic() - start < 15  # refused before any assessment: reading the survey only (1-3 s)


def test_listing_the_sets_of_a_long_chain_does_not_recurse():
    # 1,500 trees of one class whose value rises with DBH: a chain, whose first sets come out however long it is
    import numpy as np

    from treecalc.studies.plan import _ideals

    n = 1500
    value, dbh = np.arange(n, dtype=float), np.arange(n, dtype=float)
    sets = _ideals(list(range(n)), value, dbh, limit=3)
    assert len(sets) == 4  # stopped one past the limit, no RecursionError
    assert all(s == list(range(len(s))) for s in sets)  # each closed downward: the k smallest of the chain
