"""The law in force on a date as typed nodes (:func:`treecalc.law.at`): each number an Entry with its unit, section,
words, comparison and dated values; a name the file does not hold said with the file and the key; treecalc's own
readings apart from the law (:func:`treecalc.law.readings`); and no tree rules module reads the law when imported."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import subprocess
import sys

import pytest

from treecalc import law
from treecalc.law import Bracket, Entry, MissingEntry, Node
from treecalc.reference import datafolder


def test_a_number_of_the_law_is_an_entry_with_its_metadata():
    croton = law.at("croton_on_hudson", dt.date(2026, 11, 1))
    e = croton.replacement.percent
    # §208-22A: "replacement trees equal to at least 90% of the environmental value of the trees proposed to be removed"
    assert isinstance(e, Entry)
    assert (e.key, e.value, e.section) == ("replacement.percent", 90, "§208-22A")
    assert e.unit.startswith("percent of the environmental value removed")
    assert "at least 90% of the environmental value" in e.text
    # §208-19A(1) "More than three (3) trees": the comparison is the entry's
    more = croton.permit.more_than_trees_12mo
    assert (more.value, more.operator) == (3, ">") and more.compare(4) and not more.compare(3)
    # a node is a mapping in the file's order, its items entries, brackets and groups
    assert list(croton)[:3] == ["permit", "conditions", "replacement"]
    assert isinstance(croton.permit, Node) and croton["permit"] is croton.permit
    assert croton.replacement["percent"] is e
    tiers = croton.penalty.civil_tiers
    # §208-29B(1): "Trees up to and including eight inches DBH: up to $500."
    assert isinstance(tiers, Bracket) and (tiers.rows[0]["max_dbh_in"], tiers.rows[0]["usd"]) == (8.0, 500)
    keys = [x.key for x in croton.entries()]
    assert keys and "replacement.percent" in keys and "penalty.civil_tiers" in keys
    # another chapter of the village: §223-12F(2)'s relevy on 15 April
    water = law.at("croton_on_hudson", chapter="ch223_water")
    assert (water.relevy_day.value, water.relevy_month.value, water.relevy_day.section) == (15, 4, "§223-12F(2)")


def test_a_name_the_file_does_not_hold_names_the_file_and_the_key():
    croton = law.at("croton_on_hudson")
    with pytest.raises(AttributeError, match=r"law/croton_on_hudson/ch208_trees.toml has no entry replacement.percnt"):
        croton.replacement.percnt  # noqa: B018
    with pytest.raises(KeyError) as caught:
        croton["replacment"]
    assert str(caught.value) == "law/croton_on_hudson/ch208_trees.toml has no entry replacment"
    assert issubclass(MissingEntry, KeyError) and issubclass(MissingEntry, AttributeError)


def test_a_date_before_the_law_held_is_refused():
    with pytest.raises(law.LawNotInForce, match="earliest version held"):
        law.at("croton_on_hudson", dt.date(2024, 6, 1))


def test_the_readings_are_not_the_law():
    # the default replacement stock is treecalc's reading (data/readings/), not a number of Chapter 208
    assert "default_stock" not in law.at("croton_on_hudson").replacement
    stock = law.readings("croton_on_hudson")["replacement"]["default_stock"]
    assert (stock["species"], stock["dbh_in"]) == ("ACRU", 2.0)
    assert "site_why" in law.readings("wesley_hills")


def test_no_tree_rules_module_reads_the_law_when_imported(tmp_path):
    # a copy whose Chapter 208 breaks the schema: importing the rules (and the CLI) reads none of it, so the
    # refusal is the command's (exit 2), never an import-time traceback
    folder = tmp_path / "village_data"
    shutil.copytree(datafolder.BUNDLED_DATA_DIR, folder)
    ch208 = folder / "law" / "croton_on_hudson" / "ch208_trees.toml"
    ch208.write_text(
        ch208.read_text(encoding="utf-8").replace(
            "[replacement.percent]\nvalue = 90", "[replacement.percent]\nvalue = -90"
        )
    )
    code = (
        "import treecalc.rules.croton_on_hudson, treecalc.rules.wesley_hills, treecalc.rules.croton_on_hudson.words, "
        "treecalc.cli\n"
        "from treecalc.reference import datafolder\n"
        "print(sorted(k for k in datafolder._READ if k.startswith('law/')))"
    )
    r = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, datafolder.DATA_ENV: str(folder)},
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


def test_the_law_is_asked_for_as_assess_is():
    # a date as ISO text or a date-time, and a village under any spelling the registry takes, as treecalc.assess
    # accepts them: before, a TypeError for the text or the date-time and a bare KeyError for the hyphens
    import datetime as dt

    from treecalc import law

    held = law.at("croton_on_hudson", dt.date(2026, 7, 1)).replacement.percent
    assert law.at("croton-on-hudson", "2026-07-01").replacement.percent == held
    assert law.at("croton_on_hudson", dt.datetime(2026, 7, 1, 9, 30)).replacement.percent == held
    assert held.value == 90 and held.section == "§208-22A"
