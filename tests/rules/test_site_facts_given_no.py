"""A site fact given as no / 0 is a fact given: never listed as assumed, never what a conditional figure rests on.

The user's lot (Croton-on-Hudson): three earlier removals in the 12 months, each under a permit
(prior_removals_without_permit = 0), and one 5 in red maple removed now. The tool read the 0 as "not given" and
showed a conditional $1,000 civil penalty, a $5,000 criminal fine and a conditional §208-22F replacement "if the
earlier removals were made without a permit (give prior_removals_without_permit=N)".

Worked by hand (Chapter 208, data/law/croton_on_hudson/ch208_trees.toml):
- given 0: the removal already made is judged on the removals made without a permit (docs/readings.md,
  §208-19A(1), (8)): 1 + 0 earlier = 1, not more than 3 (§208-18A) and fewer than 4 (§208-17 clear cutting):
  no permit trigger for it, no offence, definite or conditional: $0 civil, $0 criminal, no replacement.
- not given: the 3 earlier removals might have had no permit: 1 + 3 = 4, more than 3 (§208-18A) and 4 or more
  (§208-17 clear cutting): a conditional offence, 5 in <= 8 in -> §208-29B(1) up to $500, doubled by clear
  cutting (§208-29B(7)) = $1,000; criminal §208-29A, a violation of §208-18: up to $5,000.
- given 3: the same figures, definite: $1,000 civil, $5,000 criminal.

Then every site fact each law reads (the code's own list, treecalc.ingest.site.SITE_FIELDS, through the
registry's reads_site_fact) is given its explicit no / 0, alone, on a Site sheet (library) and by --site (the
CLI's JSON): it is never in ``site_facts_assumed``, its not-given words are never among the assumptions, and no
conditional offence or replacement names it.
"""

import csv
import json

import pytest
from openpyxl import Workbook

from treecalc.assessment import assess
from treecalc.cli import main
from treecalc.ingest.site import SITE_FIELDS, law_site_why
from treecalc.law import registry as jurisdictions
from treecalc.report.json import assessment_json

STOCK = [{"species": "ACRU", "dbh_in": 2, "unit_cost_usd": 450}]
JURISDICTION = {"croton_on_hudson": "Croton-on-Hudson", "wesley_hills": "Wesley Hills"}
#: trees as a user's survey holds them: a 5 in maple removed (the user's), a 12 in oak removed, a 9 in maple
#: proposed, a 14 in street tree removed
TREES = [
    ["T1", "Red maple", 5, "Removed", "no"],
    ["T2", "Northern red oak", 12, "Removed", "no"],
    ["T3", "Sugar maple", 9, "Remove", "no"],
    ["T4", "Norway maple", 14, "Removed", "yes"],
]
HEADER = ["Tag", "Common Name", "DBH (in)", "Action", "Street tree"]


def no_value(fact):
    """A fact's explicit no: "no" for a yes/no fact, 0 for a count or an area."""
    return "no" if SITE_FIELDS[fact] == "bool" else 0


def facts_with_a_no(jkey):
    """Every site fact the law ``jkey`` reads that can be given as no / 0 (not a name: jurisdiction, crs, zone)."""
    record = jurisdictions.by_key(jkey)
    return [f for f, kind in SITE_FIELDS.items() if kind in ("bool", "int", "float") and record.reads_site_fact(f)]


def workbook(path, site_rows, trees=TREES):
    wb = Workbook()
    ws = wb.active
    ws.title = "Trees"
    ws.append(HEADER)
    for r in trees:
        ws.append(r)
    s = wb.create_sheet("Site")
    s.append(["Field", "Value"])
    for r in site_rows:
        s.append(r)
    wb.save(path)
    return str(path)


def survey_csv(path, trees=TREES):
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([HEADER, *trees])
    return str(path)


def run_json(capsys, argv):
    assert main(argv) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def resting_on(j):
    """Every text a conditional figure rests on: each conditional offence's, and the conditional replacement's."""
    texts = [r.get("depends_on") or "" for r in j["offence_rows"] if r.get("status") == "conditional"]
    texts += [r.get("depends_on") or "" for r in j["per_tree"] if r.get("offence_status") == "conditional"]
    return texts + [(j.get("replacement_conditional") or {}).get("depends_on") or ""]


def assert_given(j, jkey, fact):
    """``fact`` is given in the assessment ``j`` (its JSON): not assumed, not said as not given, nothing rests on it."""
    assert fact not in j["site_facts_assumed"], (fact, j["site_facts_assumed"])
    words = law_site_why(jkey)[fact]
    assert not any(words in a for a in j["assumptions"]), (fact, j["assumptions"])
    assert not any(fact in t for t in resting_on(j)), (fact, resting_on(j))


# ---------------------------------------------------------------- the user's lot
def test_earlier_removals_given_with_a_permit_make_no_conditional_figure(tmp_path, capsys):
    site = [["Jurisdiction", "Croton-on-Hudson"], ["prior_removals_12mo", 3], ["prior_removals_without_permit", 0]]
    one = [["M1", "Red maple", 5, "Removed", "no"]]
    j = assessment_json(assess(workbook(tmp_path / "lot.xlsx", site, one), replacement_stock=STOCK))
    # given 0: 1 removal made without a permit, not more than 3, fewer than 4: no offence at all
    assert (j["offences_definite"], j["offences_conditional"]) == (0, 0)
    assert (j["civil_penalty_max_usd"], j["civil_penalty_conditional_usd"]) == (0, 0)
    assert (j["criminal_fine_max_usd"], j["criminal_fine_conditional_usd"]) == (0, 0)
    assert "replacement_conditional" not in j and j["replacement_required"] is False
    assert_given(j, "croton_on_hudson", "prior_removals_without_permit")
    assert not any("prior_removals_without_permit" in a for a in j["assumptions"])
    # the CLI, the same facts by --site
    argv = ["assess", survey_csv(tmp_path / "lot.csv", one), "--json", "--site", "prior_removals_12mo=3"]
    c = run_json(capsys, [*argv, "--site", "prior_removals_without_permit=0"])
    assert (c["civil_penalty_conditional_usd"], c["criminal_fine_conditional_usd"], c["offences_conditional"]) == (
        0,
        0,
        0,
    )
    assert "replacement_conditional" not in c
    assert_given(c, "croton_on_hudson", "prior_removals_without_permit")
    # not given: 1 + 3 = 4 removals, conditional: §208-29B(1) $500 doubled (clear cutting) = $1,000; $5,000 (§208-18)
    n = run_json(capsys, argv)
    assert (n["offences_definite"], n["offences_conditional"]) == (0, 1)
    assert (n["civil_penalty_conditional_usd"], n["criminal_fine_conditional_usd"]) == (1000, 5000)
    assert "prior_removals_without_permit" in n["site_facts_assumed"]
    assert "prior_removals_without_permit" in n["offence_rows"][0]["depends_on"]
    # given 3 (all without a permit): the same figures, definite
    d = run_json(capsys, [*argv, "--site", "prior_removals_without_permit=3"])
    assert (d["offences_definite"], d["offences_conditional"]) == (1, 0)
    assert (d["civil_penalty_max_usd"], d["criminal_fine_max_usd"]) == (1000, 5000)
    assert (d["civil_penalty_conditional_usd"], d["criminal_fine_conditional_usd"]) == (0, 0)


# ---------------------------------------------------------------- every site fact, given as no / 0
@pytest.mark.parametrize("jkey", sorted(JURISDICTION))
def test_each_site_fact_given_no_is_never_assumed(tmp_path, capsys, jkey):
    facts = facts_with_a_no(jkey)
    assert len(facts) >= 8, facts  # Croton reads 13 such facts, Wesley Hills 8
    book_rows = [["Jurisdiction", JURISDICTION[jkey]]]
    path = survey_csv(tmp_path / "s.csv")
    for fact in facts:
        # on a Site sheet (the library), the earlier removals given where the fact is not itself that count
        extra = [["prior_removals_12mo", 3]] if jkey == "croton_on_hudson" and fact != "prior_removals_12mo" else []
        rows = [*book_rows, *extra, [fact, no_value(fact)]]
        j = assessment_json(assess(workbook(tmp_path / f"{fact}.xlsx", rows), replacement_stock=STOCK))
        assert_given(j, jkey, fact)
        # by --site (the CLI's JSON)
        argv = ["assess", path, "--json", "--jurisdiction", jkey, "--site", f"{fact}={no_value(fact)}"]
        argv += [f"--site=prior_removals_12mo={r[1]}" for r in extra]
        assert_given(run_json(capsys, argv), jkey, fact)


@pytest.mark.parametrize("jkey", sorted(JURISDICTION))
def test_every_site_fact_given_no_leaves_nothing_conditional(tmp_path, jkey):
    """All the law's facts given as no / 0 at once: nothing assumed of the site, no conditional amount."""
    facts = facts_with_a_no(jkey)
    assert facts
    rows = [["Jurisdiction", JURISDICTION[jkey]]] + [[f, no_value(f)] for f in facts]
    # Wesley Hills: each tree's distance to a residence and to a lot line is a tree fact; give them too
    trees, header = TREES, HEADER
    if jkey == "wesley_hills":
        header = [*HEADER, "Distance to residence (ft)", "Within 20 ft of lot line"]
        trees = [[*t, 50, "no"] for t in TREES]
    path = tmp_path / "all.xlsx"
    wb = Workbook()
    ws = wb.active
    ws.title = "Trees"
    for r in [header, *trees]:
        ws.append(r)
    s = wb.create_sheet("Site")
    for r in [["Field", "Value"], *rows]:
        s.append(r)
    wb.save(path)
    j = assessment_json(assess(str(path), replacement_stock=STOCK))
    assert j["site_facts_assumed"] == []
    assert j["offences_conditional"] == 0, resting_on(j)
    for key in ("civil_penalty_conditional_usd", "criminal_fine_conditional_usd", "fine_conditional_usd"):
        assert j[key] in (0, None), (key, j[key])
    assert "replacement_conditional" not in j
    for fact in facts:
        assert_given(j, jkey, fact)
