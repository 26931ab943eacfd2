"""Worked law cases as data: every ``*.toml`` beside this file, one parametrised test per case.

A case is what a user sends and what the law decides (the way OpenFisca's country template keeps its YAML
tests beside the law): survey rows as a CSV export would carry them, the site facts given (``--site``, the
Site sheet), the options of ``treecalc assess``, and the figures expected in its JSON (``Assessment.to_json``,
the contract the command line, the app and the statement draw from), with the hand arithmetic from the law's
text and tables in ``arithmetic``. The format is checked before a case runs: an unknown key, a tag expected
that the survey does not have or a JSON key that does not exist fails the case (a typo never makes a case
that cannot fail).

A file::

    jurisdiction = "croton_on_hudson"       # the law the cases read
    section = "§208-29B(1)-(3)"              # what the file is about

    [[case]]
    name = "a 12.01 in tree is over 12 in: tier (3)"
    converts = "tests/rules/test_croton.py::test_size_tiers_and_boundaries"   # optional: the test it restates
    arithmetic = "one tree, slope trigger §208-19A(3), > 12 in: §208-29B(3) $3,000 x 1 day = $3,000"
    site = { has_residence = true }        # facts given; the rest are assumed as the law engine says
    options = { continuing_days = 1 }      # keyword arguments of treecalc.assess
    trees = [ { tag = "1", species = "Red maple", dbh_in = 12.01, action = "removed", slope_over_20pct = "yes" } ]
    expect = { civil_penalty_max_usd = 3000 }                                  # top-level JSON keys
    expect_trees = { "1" = { penalty_tier = "§208-29B(3)", penalty_max_usd = 3000 } }   # per_tree rows by tag

TOML has no null: ``"null"`` expects the JSON's null (a count the law's text leaves undecided is given as none).
A table expected is compared key by key, each value as above, and must have the same keys.
"""

from __future__ import annotations

import csv
import math
import tomllib
from pathlib import Path
from typing import Any

import pytest

import treecalc
from treecalc.ingest import read_survey
from treecalc.report.json import assessment_json

HERE = Path(__file__).parent
FILE_KEYS = {"jurisdiction", "section", "case"}
CASE_KEYS = {"name", "arithmetic", "converts", "site", "options", "trees", "expect", "expect_trees"}
REQUIRED = {"name", "arithmetic", "trees"}


def load_cases(root: Path = HERE) -> list[tuple[str, str, dict[str, Any]]]:
    """(id, jurisdiction, case) of every case in the TOML files under ``root``; ValueError on a malformed one."""
    out = []
    for path in sorted(root.rglob("*.toml")):
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        where = path.relative_to(root)
        if set(doc) - FILE_KEYS or "jurisdiction" not in doc or not doc.get("case"):
            raise ValueError(f"{where}: expected the keys {sorted(FILE_KEYS)} with at least one [[case]]")
        for i, case in enumerate(doc["case"]):
            unknown, missing = set(case) - CASE_KEYS, REQUIRED - set(case)
            if unknown or missing:
                raise ValueError(f"{where} case {i + 1}: unknown keys {sorted(unknown)}, missing {sorted(missing)}")
            if not (case.get("expect") or case.get("expect_trees")):
                raise ValueError(f"{where} case {i + 1}: nothing expected")
            for tag, fields in case.get("expect_trees", {}).items():
                if not fields:
                    raise ValueError(f"{where} case {i + 1}: nothing expected of tree {tag!r}")
            out.append((f"{path.stem}[{i + 1}] {case['name']}", doc["jurisdiction"], case))
    return out


def write_survey(trees: list[dict[str, Any]], path: Path) -> Path:
    """The trees as a CSV export: one column per key, in the order first met; a key a row lacks is blank."""
    header: list[str] = []
    for t in trees:
        header += [k for k in t if k not in header]
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows([["" if t.get(k) is None else t[k] for k in header] for t in trees])
    return path


def read_case_survey(case: dict[str, Any], tmp: Path) -> Any:
    """The case's trees read as a user's CSV would be; ValueError when they are not read as written.

    Each key of a tree must be read as the column it names: a key the reader does not know is dropped without
    a word, one its header matching reads as another column (``steep`` as ``slope_over_20pct``) is not the
    column the case says, and a row the reader rejects leaves the case judged on the other trees; a tag given
    twice hides one tree from ``expect_trees``. Any of these would let a case pass on its own typo.
    """
    tags = [str(t.get("tag")) for t in case["trees"]]
    twice = sorted({t for t in tags if tags.count(t) > 1})
    if twice:
        raise ValueError(f"case {case['name']!r}: tag {twice[0]!r} twice")
    survey = read_survey(write_survey(case["trees"], tmp / "survey.csv"), site=dict(case.get("site", {})))
    column_map, unmapped = survey.source.get("column_map") or {}, survey.source.get("unmapped") or []
    for key in dict.fromkeys(k for t in case["trees"] for k in t):
        if key in unmapped or key not in column_map:
            raise ValueError(f"case {case['name']!r}: tree key {key!r} is not a survey column the reader reads")
        if column_map[key] != key:
            raise ValueError(f"case {case['name']!r}: tree key {key!r} was read as {column_map[key]}: name that column")
    if len(survey.rejected):
        rows = survey.rejected.to_dict("records")
        raise ValueError(f"case {case['name']!r}: the reader rejected row(s) {rows}")
    return survey


def assess_case(jurisdiction: str, case: dict[str, Any], tmp: Path) -> dict[str, Any]:
    survey = read_case_survey(case, tmp)
    return assessment_json(treecalc.assess(survey, jurisdiction=jurisdiction, **case.get("options", {})))


#: how a case expects the JSON's null (TOML has none)
NULL = "null"


def same(got: Any, want: Any) -> bool:
    """Equal, a float to the cent (figures are compared at the precision the law states them); ``"null"`` is None,
    a table equal key by key."""
    if want == NULL:
        return got is None
    if isinstance(want, dict):
        return isinstance(got, dict) and set(got) == set(want) and all(same(got[k], want[k]) for k in want)
    if isinstance(want, bool) or isinstance(got, bool):  # True == 1 in Python: a yes/no is matched by a yes/no only
        return type(got) is type(want) and got == want
    if isinstance(want, float) or isinstance(got, float):
        return got is not None and math.isclose(float(got), float(want), abs_tol=0.005)
    return got == want


def mismatches(result: dict[str, Any], case: dict[str, Any]) -> list[str]:
    """What the assessment says that the case does not expect ('key: got X, expected Y')."""
    bad = []
    for key, want in case.get("expect", {}).items():
        if key not in result:
            bad.append(f"{key}: no such key in the JSON")
        elif not same(result[key], want):
            bad.append(f"{key}: got {result[key]!r}, expected {want!r}")
    rows = {str(r["tag"]): r for r in result.get("per_tree", [])}
    for tag, fields in case.get("expect_trees", {}).items():
        if tag not in rows:
            bad.append(f"tree {tag}: not in the assessment's trees")
            continue
        for key, want in fields.items():
            if key not in rows[tag]:
                bad.append(f"tree {tag} {key}: no such key in per_tree")
            elif not same(rows[tag][key], want):
                bad.append(f"tree {tag} {key}: got {rows[tag][key]!r}, expected {want!r}")
    return bad


CASES = load_cases()


@pytest.mark.parametrize(("jurisdiction", "case"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_worked_case(jurisdiction, case, tmp_path):
    assert mismatches(assess_case(jurisdiction, case, tmp_path), case) == [], case["arithmetic"]


def test_every_law_held_has_cases():
    # the two villages with their own rules and the towns of the count-by-class and caliper-inches families, held as
    # data alone
    held = {"croton_on_hudson", "wesley_hills", "milltown", "manalapan", "la_grange_park"}
    assert {j for _, j, _ in CASES} == held
    assert all(sum(j == town for _, j, _ in CASES) >= 8 for town in ("milltown", "manalapan", "la_grange_park"))


def test_null_and_a_table_are_compared_as_the_case_says():
    # a count left undecided (None) is not 0, and a table per tag must match key by key
    assert same(None, "null") and not same(0, "null") and not same("null", None)
    assert same({"1": 1, "2": None}, {"1": 1, "2": "null"}) and not same({"1": 1}, {"1": 1, "2": "null"})


def test_a_wrong_expectation_fails(tmp_path):
    """The runner can fail: a case whose figure is off by $1, or names a key or tree that is not there."""
    jurisdiction, case, key, want = next(
        (j, c, k, v)
        for _, j, c in CASES
        for k, v in c.get("expect", {}).items()
        if isinstance(v, (int, float)) and not isinstance(v, bool)
    )
    result = assess_case(jurisdiction, case, tmp_path)
    assert mismatches(result, case) == []
    off = {**case, "expect": {key: want + 1, "no_such_key": 0}, "expect_trees": {"no such tag": {"offence": True}}}
    assert mismatches(result, off) == [
        f"{key}: got {result[key]!r}, expected {want + 1!r}",
        "no_such_key: no such key in the JSON",
        "tree no such tag: not in the assessment's trees",
    ]


def test_a_malformed_case_file_is_refused(tmp_path):
    (tmp_path / "bad.toml").write_text(
        'jurisdiction = "wesley_hills"\n[[case]]\nname = "x"\narithmetic = "y"\ntrees = []\nexpct = {a = 1}\n'
    )
    with pytest.raises(ValueError, match=r"bad.toml case 1: unknown keys \['expct'\]"):
        load_cases(tmp_path)


@pytest.mark.parametrize(
    ("tree", "said"),
    [
        # "prmit" is no column the reader knows: dropped without a word, the tree would be read as held under no
        # permit of its own, and a case expecting an offence would pass on the typo
        ({"prmit": "yes"}, r"tree key 'prmit' is not a survey column"),
        # "steep" is read as slope_over_20pct by the reader's fuzzy header match: the case must name the column
        ({"steep": "yes"}, r"tree key 'steep' was read as slope_over_20pct"),
        # a DBH of -5 makes the reader reject the row: the case would be judged on the other trees alone
        ({"dbh_in": -5}, r"rejected row"),
    ],
)
def test_a_case_whose_trees_are_not_read_as_written_is_refused(tmp_path, tree, said):
    case = {
        "name": "x",
        "arithmetic": "y",
        "trees": [
            {"tag": "1", "species": "Red maple", "dbh_in": 5, "action": "removed", **tree},
            {"tag": "2", "species": "Red maple", "dbh_in": 6, "action": "retain"},
        ],
        "expect": {"civil_penalty_max_usd": 0},
    }
    with pytest.raises(ValueError, match=said):
        assess_case("croton_on_hudson", case, tmp_path)


def test_a_case_with_two_trees_of_one_tag_is_refused(tmp_path):
    # per_tree rows are looked up by tag: the second tree "1" would hide the first from expect_trees
    trees = [{"tag": "1", "species": "Red maple", "dbh_in": d, "action": "remove"} for d in (5, 9)]
    with pytest.raises(ValueError, match=r"tag '1' twice"):
        assess_case("croton_on_hudson", {"name": "x", "arithmetic": "y", "trees": trees}, tmp_path)


def test_a_yes_no_figure_is_not_matched_by_a_number():
    # True == 1 in Python: a case expecting permit_required = 1 (or a count expected as true) must not pass
    assert not same(1, True) and not same(True, 1) and not same(1.0, True)
    assert same(True, True) and same(3000, 3000.0) and same(12.004, 12.0)


def test_a_case_expecting_nothing_of_a_tree_is_refused(tmp_path):
    # expect_trees = { "1" = {} } names a tree but compares none of its figures: the case could not fail
    (tmp_path / "empty.toml").write_text(
        'jurisdiction = "wesley_hills"\n[[case]]\nname = "x"\narithmetic = "y"\ntrees = []\nexpect_trees = { "1" = {} }\n'
    )
    with pytest.raises(ValueError, match=r"empty.toml case 1: nothing expected of tree '1'"):
        load_cases(tmp_path)
