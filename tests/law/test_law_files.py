"""Every file of data/law follows the one schema (treecalc.law.schema), and every entry's words are the
ordinance's (as PolicyEngine's tests/test_parameter_files.py checks each parameter file)."""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from pathlib import Path

import pytest

from treecalc.law import LawNotInForce, LawSchemaError, entries, entry, readings, resolved, validate
from treecalc.law.schema import is_bracket, is_entry

DATA = Path(__file__).resolve().parents[2] / "data"
LAW_FILES = sorted((DATA / "law").glob("*/*.toml"))
ORDINANCES = Path("/work/shared/ordinances")
#: the ordinance text each chapter file quotes (the fee schedule is the Board's, not an ordinance)
TEXT_OF = {
    "croton_on_hudson/ch208_trees.toml": "002_2dbb1fc1f76ffcad.txt",
    "croton_on_hudson/ch120_excavation.toml": "000_93ddf96a0c457a74.txt",
    "croton_on_hudson/ch223_water.toml": "001_0c9dbbc0a401b0cd.txt",
    "wesley_hills/ch95_clearing.toml": "004_408e8ed1e5666e02.txt",
    "wesley_hills/ch95_excavation.toml": "004_408e8ed1e5666e02.txt",
}


#: the towns held as data alone: each law file -> the text treecalc read of it, kept beside this test as read (the
#: address and the date in its first lines); what the text does not show is the town's [[not_held]], not an entry
READ_OF = {
    "milltown/ch201_trees.toml": "milltown_ch201.txt",
    "manalapan/ch222_trees.toml": "manalapan_ch222.txt",
    "la_grange_park/ch95_trees.toml": "la_grange_park_ch95.txt",
}
TEXTS_READ = Path(__file__).parent / "texts_read"


def _rel(p: Path) -> str:
    return p.relative_to(DATA / "law").as_posix()


def test_the_law_folder_holds_one_folder_per_village_and_no_loose_file():
    assert not list((DATA / "law").glob("*.toml")), "a law file belongs in its village's folder"
    assert {_rel(p) for p in LAW_FILES} == {*TEXT_OF, *READ_OF, "croton_on_hudson/fee_schedule.toml"}


def _walk(t, where):
    for k, v in t.items():
        if not isinstance(v, dict) or k == "effective":
            continue
        if is_entry(v):
            yield f"{where}.{k}", v
        elif is_bracket(v):
            for i, row in enumerate(v["rows"], 1):
                yield f"{where}.{k} row {i}", row
        else:
            yield from _walk(v, f"{where}.{k}")


@pytest.mark.parametrize("path", [p for p in LAW_FILES if _rel(p) in TEXT_OF], ids=_rel)
def test_every_law_file_follows_the_schema(path):
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    validate(raw, _rel(path))  # raises naming the file and the key
    found = list(_walk(raw, ""))
    assert found, "a law file with no entry"
    for key, e in found:
        assert e["section"].startswith(("§", "Chapter")), key


@pytest.mark.skipif(not ORDINANCES.exists(), reason="the ordinance texts are not on this machine")
@pytest.mark.parametrize("rel", sorted(TEXT_OF))
def test_every_entry_quotes_the_ordinance(rel):
    # each part of an entry's text between " ... " occurs in the ordinance as received (whitespace and case
    # aside), but a stated reading of damaged text in parentheses
    law = " ".join((ORDINANCES / TEXT_OF[rel]).read_text(encoding="utf-8").split()).lower()
    raw = tomllib.loads((DATA / "law" / rel).read_text(encoding="utf-8"))
    walked = list(_walk(raw, ""))
    assert walked, f"{rel} holds no entry to check"
    for key, e in walked:
        quote = re.sub(r"\s*\((damaged text|read)[^)]*\)", "", e["text"])
        for part in quote.split("..."):
            part = " ".join(part.split()).lower().strip(" .")
            assert part in law, f"{rel} {key}: {part!r} is not in {TEXT_OF[rel]}"


@pytest.mark.parametrize("rel", sorted(READ_OF))
def test_every_entry_of_a_town_quotes_the_text_read(rel):
    # each part of an entry's text between " ... " occurs in the text read (whitespace and case aside), and the
    # readings name the address it was read at, which the text read begins with
    read = (TEXTS_READ / READ_OF[rel]).read_text(encoding="utf-8")
    said = " ".join(read.split()).lower()
    raw = tomllib.loads((DATA / "law" / rel).read_text(encoding="utf-8"))
    validate(raw, rel)
    walked = list(_walk(raw, ""))
    # a table of classes holds a row per class; a caliper-inches rule may be two numbers (a percentage, a caliper)
    least = 5 if readings(rel.split("/")[0])["record"]["family"] == "count_by_class" else 2
    assert len(walked) >= least, f"{rel}: too few entries to be the rule"
    for key, e in walked:
        assert e["section"].startswith(("§", "Ch. ")), key
        for part in e["text"].split("..."):
            part = " ".join(part.split()).lower().strip(" .")
            assert part and part in said, f"{rel} {key}: {part!r} is not in {READ_OF[rel]}"
    town = rel.split("/")[0]
    assert readings(town)["record"]["source"] in read.splitlines()[0]


def test_a_plain_number_without_unit_or_section_is_refused():
    with pytest.raises(LawSchemaError, match=r"x.toml \[permit.more_than\]: 3 is not an entry"):
        validate({"permit": {"more_than": 3}}, "x.toml")
    with pytest.raises(LawSchemaError, match=r"lacks text"):
        validate({"permit": {"n": {"value": 3, "unit": "trees", "section": "§1"}}}, "x.toml")
    with pytest.raises(LawSchemaError, match=r"operator '=>' is not one of"):
        validate({"p": {"n": {"value": 3, "unit": "u", "section": "§1", "text": "t", "operator": "=>"}}}, "x.toml")
    with pytest.raises(LawSchemaError, match=r"'2025-13-01' is not an ISO date"):
        validate({"p": {"n": {"values": {"2025-13-01": 3}, "unit": "u", "section": "§1", "text": "t"}}}, "x.toml")


def test_the_rules_read_the_same_plain_numbers_as_before():
    law = resolved("croton_on_hudson")
    assert law["permit"]["more_than_trees_12mo"] == 3  # §208-19A(1) "More than three (3) trees"
    # the §208-29B bracket as the rules' plain keys: (1) up to 8 in $500, (2) up to 12 in $1,500, (6) $7,500
    p = law["penalty"]
    assert (p["tier1_max_dbh_in"], p["tier1_usd"], p["tier2_max_dbh_in"], p["tier2_usd"]) == (8.0, 500, 12.0, 1500)
    assert (p["tier3_usd"], p["tier4_usd"], p["tier5_usd"], p["tier6_usd"]) == (3000, 4000, 5000, 7500)
    assert "tier3_max_dbh_in" not in p  # (3) is "greater than 12 inches": no upper bound
    # treecalc's readings (data/readings/) are not the law's numbers: they are read apart (law.readings)
    assert "conifer_default_dbh_in" not in law["replacement"] and "site_why" not in law
    assert readings("croton_on_hudson")["replacement"]["conifer_default_dbh_in"] == 1.5
    assert readings("croton_on_hudson")["penalty"]["tier6_includes_regulated_buffer_zone"] is False
    assert resolved("wesley_hills")["fine"]["per_tree_usd"] == 5000  # "not more than $5,000"
    e = entry("croton_on_hudson", "conditions.licensed_company_over_dbh_in")
    assert (e.value, e.operator, e.section) == (12.0, ">", "§208-21F")
    assert not e.compare(12.0) and e.compare(12.1)  # "in excess of twelve (12) inches"


def test_a_date_before_the_law_held_is_refused_naming_the_version():
    with pytest.raises(LawNotInForce, match=r"earliest version held is .*Local Law Intro. No. 4 of 2025.*2025-01-01"):
        resolved("croton_on_hudson", dt.date(2024, 6, 1))
    assert resolved("croton_on_hudson", dt.date(2025, 1, 1))["replacement"]["percent"] == 90
    # Wesley Hills' text carries no date: held on any date
    assert resolved("wesley_hills", dt.date(2000, 1, 1))["fine"]["per_tree_usd"] == 5000


def test_values_keyed_by_date_give_the_one_in_force(tmp_path, monkeypatch):
    from treecalc.law.schema import value_on

    t = {"values": {"2025-01-01": 90, "2027-03-01": 95}, "unit": "%", "section": "§208-22A", "text": "90%"}
    assert value_on(t, dt.date(2027, 2, 28), "k")[0] == 90
    assert value_on(t, dt.date(2027, 3, 1), "k")[0] == 95
    assert value_on(t, None, "k")[0] == 95  # no date: the latest held
    with pytest.raises(LawNotInForce, match="earliest held takes effect 2025-01-01"):
        value_on(t, dt.date(2024, 12, 31), "k")


def test_entries_carry_unit_section_and_words():
    es = entries("croton_on_hudson")
    assert es["replacement.violation_percent"].section == "§208-22F"
    tiers = es["penalty.civil_tiers"]
    assert [r["usd"] for r in tiers.rows] == [500, 1500, 3000, 4000, 5000, 7500]  # type: ignore[union-attr]
