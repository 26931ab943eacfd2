"""The jurisdiction registry: each record declares what its law reads, and the declaration holds."""

from __future__ import annotations

import pytest

from treecalc import jurisdictions as J
from treecalc.schema import FLAG_FIELDS


@pytest.mark.parametrize("key", ["croton_on_hudson", "wesley_hills"])
def test_a_record_declares_the_site_facts_its_rules_read(key):
    record = J.by_key(key)
    # the facts its rules assume when not given (its law file's [site_why]) are the ones it declares
    assert set(record.site_facts) == set(record.module.SITE_DEFAULTS)
    assert set(record.survey_flags) <= set(FLAG_FIELDS)


@pytest.mark.parametrize(
    "name, key",
    [
        ("Croton-on-Hudson", "croton_on_hudson"),
        ("croton", "croton_on_hudson"),
        ("Village of Croton-on-Hudson, NY", "croton_on_hudson"),
        ("wesley-hills", "wesley_hills"),
        ("The Village of Wesley Hills", "wesley_hills"),
    ],
)
def test_every_spelling_is_one_key(name, key):
    assert J.jurisdiction_key(name) == key


def test_an_unknown_law_is_refused_naming_those_known():
    with pytest.raises(ValueError, match=r"unknown jurisdiction 'Nyack': not one of croton-on-hudson, wesley-hills"):
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
    from treecalc.assessment import AssessOptions

    # two of Chapter 208's options given for Wesley Hills; the defaults given explicitly never count
    opts = AssessOptions(plantable=2, violation=True, size_waiver=False)
    assert J.options_not_read("wesley_hills", opts) == ["violation", "plantable"]
    assert J.options_not_read("croton_on_hudson", opts) == []
    e = J.OptionsNotRead("wesley_hills", ["violation", "plantable"])
    assert str(e) == (
        "violation, plantable are Croton-on-Hudson Chapter 208 options (§208-22F violation standard; §208-22D planting "
        "space): Wesley Hills Chapter 95 has no violation standard, replacement, tree fund or doubling, so they "
        'would not be used; leave them out, or use jurisdiction="croton_on_hudson"'
    )


def test_the_offence_section_of_a_record_is_the_one_its_rules_cite():
    # the reports head each tree's offence with the record's section: it must be the section the rules fine under
    from treecalc.rules.wesley_hills import PENALTY_SECTION

    assert J.by_key("wesley_hills").sections["offence"] == PENALTY_SECTION == "Ch. 95 penalties A"
    assert J.by_key("croton_on_hudson").sections["offence"] == "§208-29"
