"""The Survey page's Site facts tab says what the law applied does with a fact not given (Streamlit AppTest): in its
words, the default law named when the survey names none, only its facts in the list of assumptions, every fact by
its label and every instruction as the app's control."""

from __future__ import annotations

import re

from tests.helpers.headless import new_app, no_exception
from treecalc.app import state
from treecalc.ingest import SITE_FIELDS

# two maples removed, no lot-line column (as the reviewer's w3_nolotline.csv)
SURVEY = b"Tag,Common Name,DBH (in.),Action\nL1,Red Maple,7,Removed\nL2,Sugar Maple,12,Removed\n"


def _page(page: str, site: dict | None = None, survey: bytes = SURVEY):
    """The app on ``survey`` (its site facts ``site``) at the page ``page``, run without an exception."""
    at = new_app()
    at.session_state["tc_source"] = state.make_source("w3.csv", survey)
    at.session_state["tc_read_opts"] = {"site": site} if site else {}
    at.run()
    at.switch_page(f"treecalc/app/pages/{page}.py").run()
    no_exception(at)
    return at


def _survey_page(site: dict | None = None):
    at = _page("survey", site)
    return [str(c.value) for c in at.caption], [str(m.value) for m in at.markdown if str(m.value).startswith("- ")]


def _raw_fields(lines: list[str]) -> set[str]:
    """Site fields named by their snake_case key, or by a one-word key at the head of a note ("crs not given")."""
    text = "\n".join(lines)
    raw = {f for f in SITE_FIELDS if "_" in f and re.search(rf"\b{f}\b", text)}
    return raw | {f for f in SITE_FIELDS if re.search(rf"(^|- ){f} not given", text, re.M)}


def test_wesley_hills_survey_says_its_own_facts_in_its_words():
    captions, listed = _survey_page({"jurisdiction": "wesley-hills"})
    lot = next(c for c in captions if "lot area is assumed" in c)
    # §95-3A(1)(d) read as a large lot when not given: said once, not "no value assumed, because ... assumed"
    assert lot.startswith("Not given: the lot area is assumed to be 1.5 acres or more (§95-3A(1)(d))"), lot
    assert not any("no value assumed" in c for c in captions)
    # a Chapter 208 fact on the form: said not read by the law applied
    assert any(c == "Not given; Wesley Hills Chapter 95, the law applied, does not read it." for c in captions)
    # the list of assumptions: Chapter 95's facts only, by their labels; the lot line taken as yes, once
    assert listed and not any("§208" in x or "Croton" in x for x in listed), listed
    assert not _raw_fields(listed), _raw_fields(listed)
    # the survey's lot-line column said by its label (treecalc/columns.csv), not its field name
    assert not any("within_20ft_of_lot_line" in x for x in listed), listed
    lot_line = [x for x in listed if "within 20 ft of a lot line" in x.lower()]
    assert len(lot_line) == 1 and "taken as yes" in lot_line[0], listed


def test_a_survey_naming_no_law_says_the_default_applied():
    captions, listed = _survey_page()
    assert "Not given: the survey is assessed under Croton-on-Hudson Chapter 208, the default." in captions
    assert not any("no jurisdiction assumed" in c for c in captions + listed)
    # the default law's facts, each by its label, each instruction as the control that sets it
    text = "\n".join(captions + listed)
    assert not _raw_fields(captions + listed), _raw_fields(captions + listed)
    assert "set violation to" not in text and "department_approval=yes" not in text
    assert "“trees harmed without a permit” to yes or no in the site facts" in text
    assert not any("§95" in x for x in listed), listed


def _violations_captions(site: dict | None = None) -> list[str]:
    return [str(c.value) for c in _page("violations", site).caption]


def test_the_violations_page_says_the_offences_and_who_sets_the_penalty_as_the_law_does():
    captions = _violations_captions()
    rule = next(c for c in captions if "is an offence when" in c)
    # Chapter 208: offences without a permit trigger too (§208-18D topping, §208-5C/D and §208-14 street trees,
    # §208-20F harm while an application is pending), not "only when its removal needed a permit"
    assert all(s in rule for s in ("§208-19A", "§208-18D", "§208-5C/D", "§208-14", "§208-20F")), rule
    assert not any("only when its removal needed a permit" in c for c in captions)
    # §208-29B: the Planning Board assesses the civil penalty after a hearing; the court, the criminal fine (§208-29A)
    maxima = next(c for c in captions if c.startswith("These are maxima"))
    assert "Planning Board assesses the civil penalty" in maxima and "§208-29A" in maxima, maxima
    captions = _violations_captions({"jurisdiction": "wesley-hills"})
    rule = next(c for c in captions if "is an offence when" in c)
    assert "§95-3A(1) required a clearing permit" in rule and "§208" not in rule, rule
    maxima = next(c for c in captions if c.startswith("These are maxima"))
    assert "a court sets the fine" in maxima and "Planning Board" not in maxima, maxima


def test_an_offence_resting_on_earlier_removals_names_the_fact_as_the_pages_control():
    # a house lot (no §208-19A(2)); two 10 in maples removed now, two removed earlier in the 12 months, their
    # permit not given: 2 + 2 = 4 > 3 only if those had none (§208-18A), so the offences and their §208-22F
    # replacement are conditional on it, said by the fact's label, never by the library's keyword marker
    survey = b"Tag,Species,DBH (in),Action\n1,Red maple,10,removed\n2,Red maple,10,removed\n"
    site = {"jurisdiction": "croton-on-hudson", "has_residence": "yes", "subdividable": "no",
            "site_plan_required": "no", "prior_removals_12mo": "2"}  # fmt: skip
    captions = [str(c.value) for c in _page("violations", site, survey).caption]
    said = next(c for c in captions if "would be required if" in c)
    assert "earlier removal(s) in the preceding 12 months were made without a permit" in said, said
    assert "‹" not in said and "prior_removals_without_permit" not in said, said
