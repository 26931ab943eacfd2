"""The jurisdiction registry: each record declares what its law reads, and the declaration holds."""

from __future__ import annotations

import pytest

from treecalc.law import cites
from treecalc.law import registry as J
from treecalc.rules import rules_module
from treecalc.schema import FLAG_FIELDS


@pytest.mark.parametrize("key", ["croton_on_hudson", "wesley_hills"])
def test_a_record_declares_the_site_facts_its_rules_read(key):
    record = J.by_key(key)
    # the facts its rules assume when not given (its law file's [site_why]) are the ones it declares
    assert set(record.site_facts) == set(rules_module(record.key).SITE_DEFAULTS)
    assert set(record.survey_flags) <= set(FLAG_FIELDS)


@pytest.mark.parametrize(
    "name, key",
    [
        ("Croton-on-Hudson", "croton_on_hudson"),
        ("croton", "croton_on_hudson"),
        ("Village of Croton-on-Hudson, NY", "croton_on_hudson"),
        ("wesley-hills", "wesley_hills"),
        ("The Village of Wesley Hills", "wesley_hills"),
        # the towns held as data alone, by the names their codes give them
        ("Borough of Milltown, NJ", "milltown"),
        ("Milltown", "milltown"),
        ("Township of Manalapan, NJ", "manalapan"),
        ("La Grange Park", "la_grange_park"),
        ("Village of La Grange Park, IL", "la_grange_park"),
    ],
)
def test_every_spelling_is_one_key(name, key):
    assert J.jurisdiction_key(name) == key


def test_an_unknown_law_is_refused_naming_those_known():
    with pytest.raises(
        ValueError,
        match=r"unknown jurisdiction 'Nyack': not one of croton-on-hudson, wesley-hills, la-grange-park, manalapan, milltown",
    ):
        J.jurisdiction_key("Nyack")


def test_a_law_registered_is_known_to_every_layer(monkeypatch):
    record = J.Jurisdiction(
        key="elm_grove", name="Village of Elm Grove, Chapter 7", chapter="Elm Grove Chapter 7", rules="x"
    )
    monkeypatch.setitem(J.REGISTRY, "elm_grove", record)
    assert J.get("Village of Elm Grove") is record and "elm-grove" in J.choices()
    from treecalc.law.access import JURISDICTIONS

    assert JURISDICTIONS["elm_grove"] == "Village of Elm Grove, Chapter 7"


def test_a_record_without_its_permit_section_is_refused(monkeypatch):
    # the app cited a guessed "§<chapter>-3" for such a record: it now cites only what the record declares
    record = J.Jurisdiction(key="elm_grove", name="Elm Grove", chapter="Elm Grove Chapter 7", rules="x")
    with pytest.raises(ValueError, match=r"elm_grove: its record declares no permit section"):
        J.register(record)
    assert "elm_grove" not in J.REGISTRY


def test_options_of_another_law_name_the_law_that_reads_them():
    from treecalc.rules.context import AssessOptions

    # two of Chapter 208's options given for Wesley Hills; the defaults given explicitly never count
    opts = AssessOptions(plantable=2, violation=True, size_waiver=False)
    assert J.options_not_read("wesley_hills", opts) == ["violation", "plantable"]
    assert J.options_not_read("croton_on_hudson", opts) == []
    e = J.OptionsNotRead("wesley_hills", ["violation", "plantable"], cites.sections)
    assert str(e) == (
        "violation, plantable are Croton-on-Hudson Chapter 208 options (§208-22F violation standard; §208-22D planting "
        "space): Wesley Hills Chapter 95 has no violation standard, replacement, tree fund or doubling, so they "
        'would not be used; leave them out, or use jurisdiction="croton_on_hudson"'
    )


def test_the_offence_section_of_a_record_is_the_one_its_rules_cite():
    # the reports head each tree's offence with the record's section: it must be the section the rules fine under
    from treecalc.rules.wesley_hills import PENALTY_SECTION

    def offence(key: str) -> str:
        return J.by_key(key).parts(cites.sections(key))["offence"]

    assert offence("wesley_hills") == PENALTY_SECTION == "Ch. 95 penalties A"
    # the whole section of the civil penalty tiers (§208-29B)
    assert offence("croton_on_hudson") == "§208-29"


def test_a_record_cites_its_law_by_entry_never_by_number():
    """A record names the entries whose sections it cites, said through the sections given (an amendment
    renumbering one is an edit of the law file alone); an entry the sections lack is an error, never left unsaid."""
    held = {"replacement.percent": "§208-22A", "replacement.violation_percent": "§208-22F", "x": "§208-6A(1)"}
    assert J.said("{replacement.percent} and {head:replacement.percent}", held) == "§208-22A and §208-22"
    assert J.said("{joined:replacement.percent,replacement.violation_percent}", held) == "§208-22A/F"
    assert J.said("{subsection:x} planting space", held) == "§208-6A planting space"
    assert J.said("§12-3 as a town's record holds it", {}) == "§12-3 as a town's record holds it"
    with pytest.raises(KeyError, match="replacement.min_trees"):
        J.said("{replacement.min_trees}", held)
    # every word of the two chapters' records is said by the sections their law files hold
    for key in ("croton_on_hudson", "wesley_hills"):
        rec, every = J.by_key(key), cites.every_chapter(key)
        words = [*rec.options.values(), *rec.survey_columns.values(), *rec.flags_unsurveyed_yes.values()]
        said = [J.said(w, every) for w in [*words, rec.value_section]]
        assert all("{" not in w for w in said), said
        assert set(rec.parts(every)) == set(rec.sections)


def test_the_registry_answers_which_law_has_a_part(monkeypatch):
    """The presenters ask these, and work none of them out: the water and excavation chapters, the fund, the
    civil penalty tiers, the cellar input, the site facts of each law (their records, treecalc/law/registry.py)."""
    assert [r.key for r in J.with_chapter("water")] == ["croton_on_hudson"]
    assert [r.key for r in J.with_chapter("excavation")] == ["croton_on_hudson", "wesley_hills"]
    # the towns held as data pay in lieu (to a fund named or not held; La Grange Park's amount is not held)
    assert [r.key for r in J.with_section("fund")] == ["croton_on_hudson", "la_grange_park", "manalapan", "milltown"]
    assert [r.key for r in J.with_section("civil_penalty")] == ["croton_on_hudson"]
    assert [r.key for r in J.with_excavation_input("cellar")] == ["wesley_hills"]
    assert J.reader_of_site_fact("vacant_lot").key == "wesley_hills"  # §95-3A(1)(c), "vacant lot"
    assert J.reader_of_site_fact("subdividable").key == "croton_on_hudson"
    assert J.reader_of_site_fact("no_such_fact") is None
    # a third village with a water chapter is found as the first is
    record = J.Jurisdiction(
        key="elm_grove",
        name="Village of Elm Grove, Chapter 7",
        chapter="Elm Grove Chapter 7",
        rules="x",
        chapters={"trees": "Elm Grove Chapter 7", "water": "Elm Grove Chapter 9"},
        sections={"permit": "§7-2"},
    )
    monkeypatch.setitem(J.REGISTRY, "elm_grove", record)
    assert [r.key for r in J.with_chapter("water")] == ["croton_on_hudson", "elm_grove"]
    assert J.records()[-1] is record


@pytest.mark.parametrize(
    "name, key",
    [
        (None, "croton_on_hudson"),
        ("", "croton_on_hudson"),
        ("Wesley Hills", "wesley_hills"),
        ("Atlantis", "croton_on_hudson"),
    ],
)
def test_a_law_not_named_or_not_known_is_shown_as_the_default(name, key):
    assert J.get_or_default(name).key == key and J.default().key == J.DEFAULT
