"""The jurisdiction registry: one record per law, declaring what it reads.

A record names the law (its key, its names, the spellings people write), the module whose
``assess(ctx)`` applies it, and what it reads: the options of :func:`treecalc.assess` beyond those every
law reads, the site facts, the survey's flags, and its companion chapters (excavation, water). The
command line, the app and the reports read these records, never a village's name: a law that does not
read an option, a site fact or an input says so from here, and a new village is a record, its data
folder and its rules package (:func:`register`).

Standard library only (and treecalc's lowest modules), and no import of a rules module (:func:`treecalc.rules.
rules_module` imports the one a record names): every layer may read the registry. So a record holds no section
either: where it cites one, it names the entry or ``[sections.<name>]`` record of its law file whose section it is
(``"{replacement.violation_percent} violation standard"``), and a reader says it through the sections of the law an
assessment applied (:attr:`treecalc.results.QuotedLabels.sections`) or of the law in force today
(:func:`treecalc.law.cites.sections`), with :func:`said`: an amendment renumbering a section is an edit of the law
file alone.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path

from treecalc.messages import head, joined, subsection
from treecalc.schema import FLAG_FIELDS

__all__ = [
    "COMMON_SITE_FACTS",
    "DEFAULT",
    "Jurisdiction",
    "OptionsNotRead",
    "check_options",
    "options_given",
    "options_not_read",
    "REGISTRY",
    "by_key",
    "choices",
    "default",
    "get",
    "get_or_default",
    "reader_of_site_fact",
    "said",
    "records",
    "with_chapter",
    "with_excavation_input",
    "with_section",
    "jurisdiction_key",
    "register",
    "unread_options",
]

#: Site facts every jurisdiction reads: the law applied, the coordinate system of the survey's x/y, and the
#: i-Tree climate zone its trees are valued in.
COMMON_SITE_FACTS = ("jurisdiction", "crs", "climate_zone")


@dataclass(frozen=True)
class Jurisdiction:
    """What one law is and what it reads.

    ``site_facts``: the facts its rules read (each assumed, when not given, as ``data/law/site_facts.toml``
    says, for the reason its law file's ``[site_why]`` gives). ``survey_flags``: the survey's yes/no flags
    of each tree it reads (:data:`treecalc.schema.FLAG_FIELDS`); a flag only other laws read is assumed
    nothing of; one it reads is taken as no for a tree when the survey has no column for it, but those of
    ``flags_unsurveyed_yes`` (flag -> the section reading it), each taken as yes for every tree. ``survey_columns``: other columns of the survey its rules read -> the rule citing it (a survey
    without one is said to leave it unknown). ``options``: each keyword of :func:`treecalc.assess` only this law reads -> the section and what it
    sets (a law that does not read it names it from here). ``lacks``: why another law's options mean
    nothing under this one (said when they are given). ``chapters``: the name of each chapter by what it
    governs (``"trees"``, ``"excavation"``, ``"water"``). ``excavation_inputs``: the inputs of the
    excavation check only this law reads -> (the entry of its excavation law file whose section it
    is read under, what it decides). ``law_files``: its chapters' files
    in ``law/<key>/`` (``<name>.toml``), the tree chapter first. ``data_dir``: a folder shaped as the data
    folder (``law/<key>/``, ``readings/<key>.toml``) holding its law, when it is not the data folder (a village
    held outside treecalc). ``fund_name``: the
    fund payments in lieu go to ("" for a law without one). ``permit_item``: the statement line saying
    whether the permit is required. ``sections``: the section the reports head each part with (``"permit"``,
    ``"replacement"``, ``"trees_needed"``, ``"planting"``, ``"fund"``; ``"permit_trigger"``: the subsection making a
    tree need the permit, when narrower than ``"permit"``; ``"excavation_permit"``: its excavation chapter's permit
    triggers; ``"offence"``: the section fining or penalising a tree harmed without the permit, which the reports
    head the offence of each tree with); a part the law does not have is absent. Every record declares ``"permit"``.
    ``value_section``: the section naming the annual benefits as the trees' value, cited in its label.

    Every section these name is an entry's key in braces (:func:`said`; ``sections`` said whole by :meth:`parts`).
    """

    key: str
    name: str
    chapter: str
    rules: str
    spelling: str = ""
    aliases: tuple[str, ...] = ()
    options: Mapping[str, str] = field(default_factory=dict)
    lacks: str = ""
    site_facts: tuple[str, ...] = ()
    survey_flags: tuple[str, ...] = ()
    survey_columns: Mapping[str, str] = field(default_factory=dict)
    flags_unsurveyed_yes: Mapping[str, str] = field(default_factory=dict)
    chapters: Mapping[str, str] = field(default_factory=dict)
    excavation_inputs: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    fund_name: str = ""
    law_files: tuple[str, ...] = ()
    data_dir: Path | None = None
    permit_item: str = "Permit required"
    value_section: str = ""
    sections: Mapping[str, str] = field(default_factory=dict)
    #: the statement's per-tree columns headed in this law's words where the shared ones (Chapter 208's civil
    #: penalty tiers) do not fit: column -> heading; None: a column that means nothing under this law, left out
    tree_headings: Mapping[str, str | None] = field(default_factory=dict)
    #: how the law prices replacement (``"count_by_class"``: trees per DBH class, a fee per tree in lieu); "" for a
    #: law whose family :mod:`treecalc.law.towns` names (the two chapters with their own rules packages)
    family: str = ""

    @property
    def user_spelling(self) -> str:
        """How the command line and the app name it (``croton-on-hudson``)."""
        return self.spelling or self.key.replace("_", "-")

    def parts(self, held: Mapping[str, str]) -> dict[str, str]:
        """:attr:`sections` said as the sections ``held`` gives (:func:`said`): the section heading each part.
        A part citing another chapter's entry (``excavation_permit``: ``<file>:<key>``) is left out unless ``held``
        holds it; any other entry ``held`` lacks is a KeyError (a heading is never dropped unsaid)."""
        return {
            part: said(words, held)
            for part, words in self.sections.items()
            if all(k in held or ":" not in k for m in _CITED.finditer(words) for k in m[2].split(","))
        }

    def reads_site_fact(self, name: str) -> bool:
        return name in self.site_facts or name in COMMON_SITE_FACTS


#: each option's label: the entries (or ``[sections]`` records) of the law file whose sections it is read under,
#: in braces (:func:`said`), and what it sets
_STOCK = "{replacement.deciduous_min_dbh_in} replacement stock"
_PLANTING = "planting space"
_FUND = "{sections.fee_schedule} Tree Preservation Fund"
_CHAPTER_208_OPTIONS = {
    "violation": "{replacement.violation_percent} violation standard",
    "application_pending": "{penalty.doubling_factor} pending application",
    "clear_cutting": "{sections.definitions}, {penalty.doubling_factor} clear cutting",
    "replacement_percent": "{replacement.violation_percent} replacement percentage",
    "replacement_stock": "{joined:sections.native_species,replacement.deciduous_min_dbh_in} replacement stock",
    "replacement_species": _STOCK,
    "replacement_dbh_in": _STOCK,
    "replacement_height_ft": _STOCK,
    "replacement_cost_usd": _STOCK,
    "plantable": "{replacement.deciduous_min_dbh_in} " + _PLANTING,
    "plantable_area_sqft": "{subsection:spacing_ft.small}, {replacement.deciduous_min_dbh_in} " + _PLANTING,
    "fee_schedule": _FUND,
    "fee_per_tree_usd": _FUND,
    "in_lieu_policy": "{sections.in_lieu} payment in lieu",
    "size_waiver": "{replacement.deciduous_min_dbh_in} replacement size",
}

#: The law a survey is assessed under when none is given (said as an assumption).
DEFAULT = "croton_on_hudson"

#: The laws treecalc applies, by key (:func:`register` adds one).
REGISTRY: dict[str, Jurisdiction] = {}


def register(record: Jurisdiction) -> Jurisdiction:
    """Add (or replace) a law's record; every layer finds it from then on. A record names its permit's section
    (``sections["permit"]``): the reports and the app cite it, and guess none."""
    if not record.sections.get("permit"):
        raise ValueError(f"jurisdiction {record.key}: its record declares no permit section (sections['permit'])")
    REGISTRY[record.key] = record
    return record


#: Records held outside treecalc (a village's own rules package): Python files, joined by ``os.pathsep``, each
#: with a module-level ``RECORDS`` (its :class:`Jurisdiction` records). Read when a name is not found, so that
#: a bounded child reading a survey (which is given the caller's ``TREECALC_*`` settings) knows them too.
RECORDS_ENV = "TREECALC_JURISDICTIONS"
_records_read: set[str] = set()
#: Further sources of records, each registering those it holds not registered yet and saying whether it did (a
#: town held as a data folder alone: :mod:`treecalc.law.towns`); asked with :data:`RECORDS_ENV`'s files.
RECORD_SOURCES: list[Callable[[], bool]] = []


def _read_records() -> bool:
    """Register the records of the files :data:`RECORDS_ENV` names not read yet; whether any was."""
    added = False
    for path in filter(None, os.environ.get(RECORDS_ENV, "").split(os.pathsep)):
        if path in _records_read:
            continue
        _records_read.add(path)
        spec = importlib.util.spec_from_file_location(f"_treecalc_records_{len(_records_read)}", path)
        if spec is None or spec.loader is None:
            raise ValueError(f"{RECORDS_ENV}: {path} is not a Python file of jurisdiction records")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        for record in getattr(mod, "RECORDS", ()):
            register(record)
            added = True
    for source in RECORD_SOURCES:
        added = source() or added
    return added


register(
    Jurisdiction(
        key="croton_on_hudson",
        name="Village of Croton-on-Hudson, Chapter 208",
        chapter="Croton-on-Hudson Chapter 208",
        rules="treecalc.rules.croton_on_hudson",
        aliases=("croton", "crotononhudson"),
        options=_CHAPTER_208_OPTIONS,
        site_facts=(
            "subdividable",
            "has_residence",
            "site_plan_required",
            "prior_removals_12mo",
            "prior_removals_without_permit",
            "violation",
            "application_pending",
            "prior_violation_within_year",
            "permit_held",
            "department_approval",
            "village_work",
            "row_or_emergency",
            "planning_board_approval",
        ),
        # every flag but Wesley Hills' lot line, of which Chapter 208 assumes nothing
        survey_flags=tuple(f for f in FLAG_FIELDS if f != "within_20ft_of_lot_line"),
        chapters={
            "trees": "Croton-on-Hudson Chapter 208",
            "excavation": "Croton-on-Hudson Chapter 120",
            "water": "Croton-on-Hudson Chapter 223",
        },
        excavation_inputs={
            "term": ("permit_term", "the permit term and idle time"),
            "retaining_wall_height_ft": (
                "retaining_wall_height",
                "a retaining wall over {value} ft needs a building permit",
            ),
            "lot_area_sqft": ("lowering_area", "lowering or stripping over half the lot"),
        },
        fund_name="Tree Preservation Fund",
        law_files=("ch208_trees", "ch120_excavation", "ch223_water"),
        permit_item="Tree removal permit required",
        value_section="{sections.valuation_method}",  # "environmental value", the National Tree Benefit Calculator
        sections={
            "permit": "{head:permit.more_than_trees_12mo}",
            "replacement": "{head:replacement.percent}",
            "trees_needed": "{replacement.percent}",
            "planting": "{replacement.deciduous_min_dbh_in}",
            "fund": "{sections.fund}",
            "offence": "{head:penalty.civil_tiers}",
            "civil_penalty": "{penalty.civil_tiers}",
            "excavation_permit": "{subsection:ch120_excavation:deep_cut_depth}",
        },
    )
)
register(
    Jurisdiction(
        key="wesley_hills",
        name="Village of Wesley Hills, Chapter 95",
        chapter="Wesley Hills Chapter 95",
        rules="treecalc.rules.wesley_hills",
        aliases=("wesleyhills",),
        lacks="Wesley Hills Chapter 95 has no violation standard, replacement, tree fund or doubling",
        site_facts=(
            "has_residence",
            "vacant_lot",
            "lot_area_acres",
            "one_family_co_issued",
            "permit_held",
            "village_work",
            "subdivision_plans_approved",
            "normal_farming",
        ),
        # Chapter 95 reads the lot-line flag only: a Chapter 208 flag the survey lacks (street tree,
        # wetland, landmark, ...) carries no obligation here, so nothing is said of it
        survey_flags=("within_20ft_of_lot_line",),
        survey_columns={"distance_to_residence_ft": "Wesley Hills {permit.large_lot_residence_distance_ft}"},
        # a survey without a lot-line column leaves every tree possibly within the distance
        flags_unsurveyed_yes={"within_20ft_of_lot_line": "{permit.lot_line_min_dbh_in}"},
        chapters={"trees": "Wesley Hills Chapter 95", "excavation": "Wesley Hills Chapter 95"},
        excavation_inputs={"cellar": ("cellar_multiple", "a building permit stands as the permit")},
        permit_item="Clearing permit required",
        law_files=("ch95_clearing", "ch95_excavation"),
        # "offence": the fine of a tree removed without the permit, cited as its rules cite it (PENALTY_SECTION)
        sections={
            "permit": "{head:permit.measured_above_ground_in}",
            "permit_trigger": "{permit.measured_above_ground_in}",
            "offence": "Ch. 95 penalties A",
            "excavation_permit": "{head:ch95_excavation:cellar_multiple}",
        },
        # a fine per tree under one paragraph (penalties A), set by a court: no tiers, no civil penalty beside a
        # criminal one, no replacement to count a tree toward
        tree_headings={
            "penalty_tier": "Fine under (section)",
            "penalty_base_usd": "Fine per tree, maximum ($)",
            "penalty_max_usd": "Fine maximum ($)",
            "criminal_max_usd": None,
            "counted": None,
            "exclusion": None,
        },
    )
)


#: a citation in a record's words: ``{key}`` (an entry's dotted key, a ``[sections]`` record's ``sections.<name>``,
#: another chapter's entry as ``<file>:<key>``), said as a form of it (``{head:key}``: its whole section,
#: ``{subsection:key}``), or several of one section cited together (``{joined:key,key}``: its subsections joined)
_CITED = re.compile(r"\{(?:(head|subsection|joined):)?([^{}]+)\}")
_FORMS: Mapping[str, Callable[[str], str]] = {"head": head, "subsection": subsection}


def said(words: str, held: Mapping[str, str]) -> str:
    """A record's words (an option's label, a part's heading) with each entry it names in braces said as the
    section ``held`` gives it (the sections of the law by key: an assessment's :attr:`~treecalc.results.
    QuotedLabels.sections`, or :func:`treecalc.law.cites.sections`); KeyError naming an entry ``held`` lacks."""

    def one(m: re.Match[str]) -> str:
        form, keys = m[1], m[2].split(",")
        missing = [k for k in keys if k not in held]
        if missing:
            raise KeyError(f"the sections given hold no {', '.join(missing)} (cited in {words!r})")
        if form == "joined":
            return joined(*(held[k] for k in keys))
        return _FORMS[form](held[keys[0]]) if form else held[keys[0]]

    return _CITED.sub(one, words)


def _flat(name: str | None) -> str:
    key = " ".join(re.sub(r"[\s_\-,.]+", " ", str(name or "")).strip().lower().split())
    key = re.sub(r"^(the )?(village|town) of ", "", key)
    key = re.sub(r" (ny|new york)$", "", key)
    return key.replace(" ", "")


def choices() -> str:
    """How the laws are named to a user (``croton-on-hudson, wesley-hills``)."""
    return ", ".join(r.user_spelling for r in REGISTRY.values())


def jurisdiction_key(name: str | None) -> str:
    """The one key of a jurisdiction: ``"Croton-on-Hudson"``, ``croton-on-hudson``, ``croton_on_hudson``,
    ``"Village of Croton-on-Hudson, NY"`` → ``"croton_on_hudson"``; raises ValueError if unknown."""
    flat = _flat(name)
    for _ in range(2):  # the records registered, then those of RECORDS_ENV not read yet
        for r in REGISTRY.values():
            if flat in (r.key.replace("_", ""), _flat(r.user_spelling), *r.aliases):
                return r.key
        if not _read_records():
            break
    raise ValueError(f"unknown jurisdiction {name!r}: not one of {choices()}")


def get(name: str | None) -> Jurisdiction:
    """The record of a jurisdiction (any accepted spelling); ValueError if unknown."""
    return REGISTRY[jurisdiction_key(name)]


def by_key(key: str) -> Jurisdiction:
    """The record of a key already resolved (:func:`jurisdiction_key`)."""
    if key not in REGISTRY:
        _read_records()
    return REGISTRY[key]


def records() -> tuple[Jurisdiction, ...]:
    """Every law registered, in the order registered (the default law first): what the presenters list."""
    return tuple(REGISTRY.values())


def default() -> Jurisdiction:
    """The record of the law a survey is assessed under when none is given (:data:`DEFAULT`)."""
    return by_key(DEFAULT)


def get_or_default(name: str | None) -> Jurisdiction:
    """The record of a law named (any accepted spelling), the default law's when none is named or the name is
    unknown: for what is shown before an assessment, or beside one, whose own message says what it applies."""
    try:
        return get(name) if name else default()
    except ValueError:
        return default()


def with_chapter(governs: str) -> list[Jurisdiction]:
    """The laws having a chapter governing ``governs`` (``"water"``, ``"excavation"``: :attr:`Jurisdiction.chapters`)."""
    return [r for r in REGISTRY.values() if governs in r.chapters]


def with_excavation_input(name: str) -> list[Jurisdiction]:
    """The laws whose excavation check reads the input ``name`` (:attr:`Jurisdiction.excavation_inputs`)."""
    return [r for r in REGISTRY.values() if name in r.excavation_inputs]


def with_section(part: str) -> list[Jurisdiction]:
    """The laws whose record heads a part with a section (``"fund"``, ``"civil_penalty"``: :attr:`Jurisdiction.
    sections`): the laws having that part."""
    return [r for r in REGISTRY.values() if part in r.sections]


def reader_of_site_fact(name: str) -> Jurisdiction | None:
    """The first law registered reading the site fact ``name`` (:attr:`Jurisdiction.site_facts`), None if none does."""
    return next((r for r in REGISTRY.values() if r.reads_site_fact(name)), None)


def unread_options(key: str, given: list[str]) -> list[tuple[str, Jurisdiction]]:
    """The options of ``given`` that the law ``key`` does not read, each with the record of the law that does."""
    own = REGISTRY[key]
    out = []
    for name in given:
        if name in own.options:
            continue
        reader = next((r for r in REGISTRY.values() if name in r.options), None)
        if reader is not None:
            out.append((name, reader))
    return out


class NamesView(Mapping[str, str]):
    """Each registered law's key -> its name, as the registry holds them now (a law registered later is in it)."""

    def __getitem__(self, key: str) -> str:
        return REGISTRY[key].name

    def __iter__(self) -> Iterator[str]:
        return iter(REGISTRY)

    def __len__(self) -> int:
        return len(REGISTRY)


def options_given(opts: object) -> list[str]:
    """The options some law reads only (:attr:`Jurisdiction.options`) that ``opts`` (an
    :class:`treecalc.rules.context.AssessOptions`) gives a value other than :func:`treecalc.assess`'s default:
    defaults never count, whether left out or given."""
    default = {f.name: f.default for f in fields(opts)}  # type: ignore[arg-type]
    names = dict.fromkeys(n for r in REGISTRY.values() for n in r.options)
    return [n for n in names if n in default and getattr(opts, n) != default[n]]


def options_not_read(key: str, opts: object) -> list[str]:
    """The options given (:func:`options_given`) that the law ``key`` does not read."""
    return [n for n, _ in unread_options(key, options_given(opts))]


class OptionsNotRead(ValueError):
    """Options given that the law applied does not read (each one another law's, :attr:`Jurisdiction.options`).

    ``str()`` names the keywords of :func:`treecalc.assess`; :meth:`message` names them as a caller's words
    (``word``: the command line's flag of a keyword) and says how to choose the law that reads them
    (``choose``: its words for choosing a law).
    """

    def __init__(self, key: str, names: list[str], sections: Callable[[str], Mapping[str, str]]) -> None:
        """``sections``: a law's key -> its sections by entry (:func:`treecalc.law.cites.sections` on the date
        assessed), which the options' labels are said with (:func:`said`)."""
        self.key, self.names, self.sections = key, names, sections
        super().__init__(self.message())

    def message(
        self,
        word: Callable[[str], str] = str,
        refused: bool = True,
        choose: Callable[[Jurisdiction], str] = lambda r: f'use jurisdiction="{r.key}"',
    ) -> str:
        """Each law's options named, their sections, why the law applied cannot use them; ``refused``: what to
        do instead (an error), else that they are not used (a warning)."""
        own = REGISTRY[self.key]
        by_reader: dict[str, list[str]] = {}
        for name, reader in unread_options(self.key, self.names):
            by_reader.setdefault(reader.key, []).append(name)
        out = []
        for rkey, names in by_reader.items():
            reader = REGISTRY[rkey]
            named = [word(n) for n in names]
            held = self.sections(rkey)
            what = "; ".join(dict.fromkeys(said(reader.options[n], held) for n in names))
            one = len(named) == 1
            it = "it" if one else "them"
            if refused:
                outcome = f"{'it' if one else 'they'} would not be used; leave {it} out, or {choose(reader)}"
            else:
                outcome = f"{'it is' if one else 'they are'} not used"
            lacks = own.lacks or f"{own.chapter} does not read {it}"
            out.append(
                f"{', '.join(named)} {'is a' if one else 'are'} {reader.chapter} option{'' if one else 's'} "
                f"({what}): {lacks}, so {outcome}"
            )
        return "; ".join(out)


def check_options(key: str, opts: object, sections: Callable[[str], Mapping[str, str]]) -> None:
    """:class:`OptionsNotRead` (a ValueError) naming the options given that the law ``key`` does not read (their
    labels said with ``sections``, as :class:`OptionsNotRead` takes it): the command line refuses them (exit 2);
    :func:`treecalc.assess` says them in its warnings."""
    given = options_not_read(key, opts)
    if given:
        raise OptionsNotRead(key, given, sections)
