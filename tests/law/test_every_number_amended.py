"""Every number of Chapter 208, Chapter 95 (clearing) and the fee schedule, amended one at a time in a copy of
the data folder: the JSON and the CLI text (and the Excel statement and the PDF, wherever the bundled law's
number shows there) say the new number and never the old one.

The cases are generated from the files: each entry of ``ch208_trees.toml`` and ``ch95_clearing.toml`` (each
cell of the §208-29B bracket) and each number of ``fee_schedule.toml`` is one case. An entry that no case in
:data:`CASES` reaches fails :func:`test_every_number_of_the_files_has_a_case`, so a number added to the law
needs its case here. One in-process assessment per amendment, on the small lots below (not the sample).
"""

from __future__ import annotations

import io
import json
import re
import shutil
import tomllib
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from treecalc.law import Bracket, Entry, clear_caches, entries
from treecalc.law.access import multiplied
from treecalc.reference import datafolder
from treecalc.reference.datafolder import BUNDLED_DATA_DIR
from treecalc.report.json import assessment_json

CH208 = "law/croton_on_hudson/ch208_trees.toml"
FEES = "law/croton_on_hudson/fee_schedule.toml"
CH95 = "law/wesley_hills/ch95_clearing.toml"

#: A Croton-on-Hudson lot cleared without a permit: eight trees removed (more than three, §208-18A; clear
#: cutting, §208-17), one topped (§208-18D), five proposed removals (one 31 in: §208-20C, §208-21F), trees in a
#: wetland, a buffer zone and on a slope (§208-19A(3)/(4)/(7)), a street tree (§208-29B(4)), a landmark (5) and a
#: tree in a conservation easement (6).
CROTON_LOT = (
    "tag,species,dbh_in,action,condition,wetland,regulated_buffer_zone,slope_over_20pct,street_tree,landmark,"
    "conservation_area\n"
    "101,Acer rubrum,14,removed,good,,,,,,\n"
    "102,Quercus rubra,26,removed,fair,,,,,,\n"
    "103,Pinus strobus,11.5,removed,good,,,,,,\n"
    "104,Acer saccharum,9,removed,good,,,,,,\n"
    "105,Fagus grandifolia,31,remove,good,,,,,,\n"
    "106,Acer rubrum,6,topped,good,,,,,,\n"
    "107,Quercus alba,5,remove,good,yes,,,,,\n"
    "108,Acer rubrum,5,remove,good,,yes,,,,\n"
    "109,Acer rubrum,5,remove,good,,,yes,,,\n"
    "110,Acer rubrum,10,removed,good,,,,yes,,\n"
    "111,Quercus alba,20,removed,good,,,,,yes,\n"
    "112,Acer rubrum,10,removed,good,,,,,,yes\n"
)
#: Four 6 in maples topped, nothing else (§208-18D, definite offences; no removal, so no clear cutting): tier (1)
#: each, more than three regulated trees harmed (§208-29B(7)).
DOUBLING_LOT = (
    "tag,species,dbh_in,action,condition\n"
    "1,Acer rubrum,6,topped,good\n"
    "2,Acer rubrum,6,topped,good\n"
    "3,Acer rubrum,6,topped,good\n"
    "4,Acer rubrum,6,topped,good\n"
)
#: Two trees removed on the bounds of §208-29B(1)/(2), on a parcel given as capable of subdivision (§208-19A(2):
#: a permit needed on facts given, definite offences); two trees, no doubling.
TIERS_LOT = "tag,species,dbh_in,action,condition\n1,Acer rubrum,8,removed,good\n2,Acer rubrum,12,removed,good\n"
#: A Wesley Hills lot, its residence not given (a vacant lot is assumed, §95-3A(1)(c)): two trees of 10 in or
#: more removed farther than 200 ft from the house (d), a 7 in tree removed within 20 ft of a lot line (e).
WESLEY_LOT = (
    "tag,species,dbh_in,action,distance_to_residence_ft,within_20ft_of_lot_line\n"
    "1,Quercus alba,18,removed,240,no\n"
    "2,Acer rubrum,12,removed,215,no\n"
    "3,Acer rubrum,7,removed,50,yes\n"
    "4,Tsuga canadensis,12,retain,60,no\n"
)

#: A 10 in street tree pruned 20 %, short of excessive pruning, without the Department's written approval (given no):
#: §208-5C, any share of a street tree pruned ("more than 0 %"): tier (4) $4,000, §208-29A $250.
PRUNED_LOT = "tag,species,dbh_in,action,condition,street_tree\n1,Acer rubrum,10,Pruned 20%,good,yes\n"

LOTS = {"croton": (CROTON_LOT, "croton_on_hudson"), "doubling": (DOUBLING_LOT, "croton_on_hudson")}
LOTS["pruned"] = (PRUNED_LOT, "croton_on_hudson")
LOTS["wesley"] = (WESLEY_LOT, "wesley_hills")
LOTS["tiers"] = (TIERS_LOT, "croton_on_hudson")
#: the options of each scenario: (lot, assess keywords)
SCENARIOS: dict[str, tuple[str, dict[str, Any]]] = {
    # a prior violation within the year (§208-29A), the plantable area read by the §208-6A spacing
    "croton": ("croton", {"site": {"prior_violation_within_year": True}, "plantable_area_sqft": 5000}),
    # a conifer offered 4 ft tall: under the §208-22D height, refused with the height to give
    "conifer": ("croton", {"replacement_species": "Pinus strobus", "replacement_height_ft": 4, "refused": True}),
    "tiers": ("tiers", {"site": {"subdividable": True}}),
    "doubling": ("doubling", {}),
    "wesley": ("wesley", {}),
    "pruned": (
        "pruned",
        {
            "site": {
                "subdividable": False,
                "has_residence": True,
                "site_plan_required": False,
                "department_approval": False,
            }
        },
    ),
}


@dataclass
class Case:
    """One amendment: the scenario, the new value, the words that quote the number (a template over the forms
    of :func:`_forms`: ``{g}`` 12, ``{w}`` twelve, ``{usd}`` $1,500, ``{usd2}`` $450.00, ``{y}`` one year, ``{d}`` as written), where
    they show (``json``, ``text``; a template ``json:...`` in the JSON alone), and the JSON figures the number makes (old, new; worked by hand)."""

    scenario: str
    new: Any
    words: list[str] = field(default_factory=list)
    where: tuple[str, ...] = ("json", "text")
    figures: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    base: list[tuple[str, str, str]] = field(default_factory=list)  # amendments before and after: (file, key, value)


CASES: dict[tuple[str, str], Case] = {
    # --- Chapter 208 -------------------------------------------------------------------------------------------
    (CH208, "permit.more_than_trees_12mo"): Case(
        "croton", 5, ["more than {g} trees removed", "json:more than {w} trees"]
    ),
    (CH208, "permit.window_months"): Case(
        "croton", 18, ["within {g} months", "preceding {g} months", "no {g}-month window"], ("json",)
    ),
    (CH208, "permit.parcel_min_dbh_in"): Case("croton", 9.0, ["{g} in DBH or more on a parcel"]),
    (CH208, "permit.slope_min_dbh_in"): Case("croton", 3.0, ["{g} in DBH or more on a slope"]),
    (CH208, "permit.slope_percent"): Case("croton", 25.0, ["on a slope over {g}%"]),
    (CH208, "permit.wetland_min_dbh_in"): Case("croton", 3.0, ["{g} in DBH or more in a wetland"]),
    (CH208, "permit.buffer_min_dbh_in"): Case("croton", 3.0, ["{g} in DBH or more in a regulated buffer zone"]),
    (CH208, "permit.clear_cutting_min_trees"): Case("croton", 6, ["§208-17, {g} or more"]),
    (CH208, "conditions.excessive_pruning_min_percent"): Case("croton", 30, ["{g}% or more of its leaf"], ("json",)),
    # §208-5C's share amended to "more than 25 %": the 20 % pruning no longer reaches it: $4,000 / $250 -> $0 / $0
    (CH208, "conditions.street_tree_pruning_min_percent"): Case(
        "pruned", 25, figures={"civil_penalty_max_usd": (4000, 0), "criminal_fine_max_usd": (250, 0)}
    ),
    (CH208, "conditions.licensed_company_over_dbh_in"): Case("croton", 13.0, ["over {g} in DBH"]),
    (CH208, "conditions.individually_marked_min_dbh_in"): Case("croton", 23.0, ["trees of {g} in DBH or more"]),
    (CH208, "replacement.min_trees"): Case("croton", 4, ["permit for {g} or more trees"]),
    (CH208, "replacement.percent"): Case("croton", 85, ["{g}% on removals proposed"]),
    (CH208, "replacement.violation_percent"): Case("croton", 125, ["{g}% on trees harmed in offences"]),
    (CH208, "replacement.deciduous_min_dbh_in"): Case("croton", 1.75, ["minimum {g} in"]),
    (CH208, "replacement.conifer_min_height_ft"): Case("conifer", 6.0, ["height of at least {g} ft"]),
    (CH208, "replacement.warranty_years"): Case("croton", 4, ["for {w} years"]),
    (CH208, "replacement.replant_warranty_years"): Case("croton", 3, ["warranted for {y} from their own"]),
    (CH208, "spacing_ft.small"): Case("croton", 35, ["small {g} ft"]),
    (CH208, "spacing_ft.medium"): Case("croton", 45, ["medium {g} ft"]),
    (CH208, "spacing_ft.large"): Case("croton", 55, ["large {g} ft apart"]),
    # the 8 in tree of tier (1) $500 and the 12 in of (2) $1,500: $2,000; up to 7 in, the 8 in is of (2): $3,000
    # (the multi-stem reading quotes the bound: "'up to and including eight inches', 'greater than eight inches'")
    (CH208, "penalty.civil_tiers[1].max_dbh_in"): Case(
        "tiers",
        7.0,
        ["json:tier ('up to and including {w} inches', 'greater than {w} inches')"],
        figures={"civil_penalty_max_usd": (2000, 3000)},
    ),
    (CH208, "penalty.civil_tiers[1].usd"): Case("croton", 550, ["up to {usd} per tree"]),
    # up to 11 in, the 12 in tree is of (3): $500 + $3,000 = $3,500
    (CH208, "penalty.civil_tiers[2].max_dbh_in"): Case("tiers", 11.0, figures={"civil_penalty_max_usd": (2000, 3500)}),
    (CH208, "penalty.civil_tiers[2].usd"): Case("croton", 1600, ["up to {usd} per tree"]),
    (CH208, "penalty.civil_tiers[3].usd"): Case("croton", 3300, ["up to {usd} per tree"]),
    (CH208, "penalty.civil_tiers[4].usd"): Case("croton", 4400, ["up to {usd} per tree"]),
    (CH208, "penalty.civil_tiers[5].usd"): Case("croton", 5500, ["up to {usd} per tree"]),
    (CH208, "penalty.civil_tiers[6].usd"): Case("croton", 7700, ["up to {usd} per tree"]),
    # four trees topped, tier (1), more than three: 4 x $500 x 2 = $4,000; tripled, 4 x $500 x 3 = $6,000
    # (the line and the reading say the factor: "Fines per tree doubled", "B(7) doubles the fines per tree")
    (CH208, "penalty.doubling_factor"): Case(
        "doubling",
        3,
        ["Fines per tree {ed}", "json:B(7) {es} the fines per tree"],
        figures={"civil_penalty_max_usd": (4000, 6000)},
    ),
    # more than five: four trees are no longer doubled: 4 x $500 = $2,000 (was 4 x $500 x 2 = $4,000)
    (CH208, "penalty.doubling_more_than_trees"): Case(
        "doubling", 5, ["json:more than {w} regulated trees"], figures={"civil_penalty_max_usd": (4000, 2000)}
    ),
    (CH208, "criminal.per_tree_usd"): Case("croton", 275, ["up to {usd} per offence tree"], ("json",)),
    (CH208, "criminal.repeat_within_year_usd"): Case("croton", 1100, ["up to {usd} per tree"]),
    (CH208, "criminal.repeat_window_years"): Case("croton", 2, ["within {y}"], ("json",)),
    (CH208, "criminal.imprisonment_max_days"): Case("croton", 20, ["up to {g} days' imprisonment"]),
    (CH208, "criminal.section_208_18_usd"): Case("croton", 5500, ["up to {usd} for each violation"], ("json",)),
    # --- the fee schedule (§208-24C) ---------------------------------------------------------------------------
    (FEES, "fee_per_tree_usd"): Case("croton", Decimal("475.00"), ["x {usd2}"]),
    (FEES, "multiplier"): Case("croton", Decimal("1.5"), ["(appraised) x {d};"], base=[(FEES, "basis", '"value"')]),
    # --- Wesley Hills Chapter 95, clearing ---------------------------------------------------------------------
    (CH95, "permit.measured_above_ground_in"): Case("wesley", 48.0, ["measured {g} inches above ground"], ("json",)),
    (CH95, "permit.vacant_lot_min_dbh_in"): Case("wesley", 11.0, ["{g} in or more on a vacant lot"]),
    (CH95, "permit.large_lot_min_acres"): Case("wesley", 2.0, ["lot of {g} acres or more"]),
    (CH95, "permit.large_lot_min_dbh_in"): Case("wesley", 11.0, ["{g} in or more, farther than"]),
    (CH95, "permit.large_lot_residence_distance_ft"): Case("wesley", 210.0, ["farther than {g} ft"]),
    (CH95, "permit.lot_line_min_dbh_in"): Case("wesley", 5.0, ["{g} in or more within"]),
    (CH95, "permit.lot_line_distance_ft"): Case("wesley", 25.0, ["within {g} ft of a lot line"]),
    (CH95, "fine.per_tree_usd"): Case("wesley", 6000, ["up to {usd}"]),
    (CH95, "fine.other_per_day_usd"): Case("wesley", 2600, ["{usd}"]),
    (CH95, "fine.imprisonment_max_days"): Case("wesley", 20, ["up to {g} days' imprisonment"]),
}

#: The fee schedule's keys that are no number of the Board's: what each is
FEE_NOT_NUMBERS = {
    "basis": "the choice of basis (per tree or value), read by the multiplier's case",
    "value_basis": "the capital basis named (appraised / cumulative), a choice",
    "placeholder": "whether the fee is a placeholder",
    "label": "the schedule's label",
    "appraisal_edition": "the edition of the Guide for Plant Appraisal, a choice of method, not a fee",
}


def _law_keys(rel: str) -> list[str]:
    village, name = rel.split("/")[1], Path(rel).stem
    keys = []
    for key, e in entries(village, name).items():
        if isinstance(e, Entry):
            keys.append(key)
        elif isinstance(e, Bracket):
            keys.extend(f"{key}[{r['tier']}].{c}" for r in e.rows for c in e.columns if c in r)
    return keys


def _fee_keys() -> list[str]:
    raw = tomllib.loads((BUNDLED_DATA_DIR / FEES).read_text(encoding="utf-8"))
    return [k for k, v in raw.items() if not isinstance(v, (dict, list)) and k not in FEE_NOT_NUMBERS]


def _all_keys() -> list[tuple[str, str]]:
    return (
        [(CH208, k) for k in _law_keys(CH208)] + [(FEES, k) for k in _fee_keys()] + [(CH95, k) for k in _law_keys(CH95)]
    )


def test_every_number_of_the_files_has_a_case():
    keys = _all_keys()
    missing = [k for k in keys if k not in CASES]
    assert not missing, f"numbers of the law no amendment case reaches: {missing}"
    stale = [k for k in CASES if k not in keys]
    assert not stale, f"cases of numbers the files no longer hold: {stale}"
    assert len(keys) >= 45  # 36 of Chapter 208 (the bracket's 9 cells), 2 of the fee schedule, 9 of Chapter 95


def _words(n: Any) -> str:
    from treecalc.rules.croton_on_hudson.words import _words as w

    return w(n)


def _forms(v: Any) -> dict[str, str]:
    x = float(v)
    return {
        "g": f"{x:g}",
        "w": _words(x) if x == int(x) else f"{x:g}",
        "usd": f"${x:,.0f}",
        "usd2": f"${x:,.2f}",
        "y": f"{_words(x)} year" + ("" if x == 1 else "s"),
        "d": str(v),  # as written (a fee schedule's "1.0")
        "ed": multiplied(x)["ed"],  # a factor: "doubled", "tripled"
        "es": multiplied(x)["es"],
    }


def _literal(v: Any) -> str:
    return f'"{v}"' if isinstance(v, Decimal) else repr(v) if not isinstance(v, str) else v


def _amend(folder: Path, rel: str, key: str, literal: str) -> None:
    """Set ``key`` of the file (an entry's ``value``; a bracket's cell ``penalty.civil_tiers[3].usd``; a top-level
    key) to ``literal`` in the copy."""
    p = folder / rel
    s = p.read_text(encoding="utf-8")
    m = re.fullmatch(r"(.+)\[(\d+)\]\.(\w+)", key)
    if m:  # the row's table starts at its "tier = N" line
        start, name = s.index(f"\ntier = {m[2]}\n"), m[3]
    elif "." in key:
        start, name = s.index(f"\n[{key}]\n"), "value"
    else:
        start, name = 0, key
    end = s.find("\n[", start + 1)
    end = len(s) if end < 0 else end
    line = re.compile(rf"^{name} = .*$", re.M)
    hit = line.search(s, start, end)
    assert hit, f"{rel}: no {name} in {key}"
    p.write_text(s[: hit.start()] + f"{name} = {literal}" + s[hit.end() :], encoding="utf-8")


def _outputs(lot: Path, jurisdiction: str, kw: dict[str, Any], kinds: set[str]) -> dict[str, Any]:
    """One assessment and its JSON, CLI text and (when asked) the statement cells and the PDF text."""
    import openpyxl

    from treecalc.assessment import assess
    from treecalc.cli.assess import render_text
    from treecalc.cli.common import _json_default

    kw = dict(kw)
    if kw.pop("refused", False):  # the scenario is refused: its message is what the CLI and the app say
        with pytest.raises(ValueError) as refusal:
            assess(str(lot), jurisdiction=jurisdiction, **kw)
        said = " ".join(str(refusal.value).split())
        return {"json": said, "text": said, "data": {}, "xlsx": "", "pdf": ""}
    a = assess(str(lot), jurisdiction=jurisdiction, **kw)
    d = assessment_json(a)
    out: dict[str, Any] = {
        "json": json.dumps(d, default=_json_default, ensure_ascii=False),
        "text": render_text(a),
        "data": d,
    }
    if "xlsx" in kinds:
        from treecalc.report.statement import statement_bytes

        wb = openpyxl.load_workbook(io.BytesIO(statement_bytes(a)))
        out["xlsx"] = "\n".join(str(c.value) for ws in wb for row in ws.iter_rows() for c in row if c.value is not None)
    if "pdf" in kinds:
        import pypdf

        from treecalc.report.content import report_data
        from treecalc.report.pdf import report_pdf

        pdf = pypdf.PdfReader(io.BytesIO(report_pdf(report_data(a))))
        out["pdf"] = "\n".join(page.extract_text() for page in pdf.pages)
    for k in ("json", "text", "xlsx", "pdf"):
        if k in out:
            out[k] = " ".join(out[k].split())  # the PDF breaks lines anywhere
    return out


@pytest.fixture(scope="module")
def lots(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lots")
    paths = {}
    for name, (text, _) in LOTS.items():
        paths[name] = folder / f"{name}.csv"
        paths[name].write_text(text, encoding="utf-8")
    return paths


_BEFORE: dict[tuple[str, str], dict[str, Any]] = {}


def _in_folder(folder: Path | None, fn: Any) -> Any:
    """``fn()`` with the law read from ``folder`` (the bundled data when None), the caches cleared either side."""
    saved = datafolder.DATA_DIR
    datafolder.DATA_DIR = folder or BUNDLED_DATA_DIR
    clear_caches()
    try:
        return fn()
    finally:
        datafolder.DATA_DIR = saved
        clear_caches()


@pytest.mark.parametrize("case", sorted(CASES), ids=lambda k: f"{Path(k[0]).stem}:{k[1]}")
def test_an_amended_number_shows_in_every_output_and_the_old_one_nowhere(case, lots, tmp_path):
    rel, key = case
    c = CASES[case]
    lot_name, kw = SCENARIOS[c.scenario]
    survey, jurisdiction = lots[lot_name], LOTS[lot_name][1]
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    for b_rel, b_key, b_lit in c.base:
        _amend(folder, b_rel, b_key, b_lit)
    raw = tomllib.loads((folder / rel).read_text(encoding="utf-8"))
    old = _value(raw, key)
    kinds = [tuple(w[:4].split()) if w.startswith("json:") else c.where for w in c.words]
    templates = [w.removeprefix("json:") for w in c.words]
    old_words = [w.format(**_forms(old)) for w in templates]
    new_words = [w.format(**_forms(c.new)) for w in templates]
    # the law as held: the old words show (so that their absence below can fail); with the statement and the PDF
    # of the scenario, once, to know where else the number is printed
    memo = (c.scenario, repr(c.base))
    if memo not in _BEFORE:
        base = folder if c.base else None
        _BEFORE[memo] = _in_folder(base, lambda: _outputs(survey, jurisdiction, kw, {"xlsx", "pdf"}))
    before = _BEFORE[memo]
    for w, where in zip(old_words, kinds, strict=True):
        for kind in where:
            assert w in before[kind], f"{key}: {w!r} is not in the {kind} of the law as held"
    for path, (was, _) in c.figures.items():
        assert before["data"][path] == was, f"{key}: {path} under the law as held"
    also = {k for k in ("xlsx", "pdf") if any(w in before[k] for w in old_words)}
    _amend(folder, rel, key, _literal(c.new))
    after = _in_folder(folder, lambda: _outputs(survey, jurisdiction, kw, also))
    for w_old, w_new, where in zip(old_words, new_words, kinds, strict=True):
        for kind in (*where, *sorted(k for k in also if w_old in before[k])):
            assert w_new in after[kind], f"{key}: the amended {w_new!r} is not in the {kind}"
            if w_old not in w_new:
                assert w_old not in after[kind], f"{key}: the old {w_old!r} is still in the {kind}"
    for path, (_, now) in c.figures.items():
        assert after["data"][path] == now, f"{key}: {path} under the amended law"
        assert f"${now:,}" in after["text"], f"{key}: ${now:,} is not in the text"


def _value(raw: dict[str, Any], key: str) -> Any:
    m = re.fullmatch(r"(.+)\[(\d+)\]\.(\w+)", key)
    if m:
        t = raw
        for part in m[1].split("."):
            t = t[part]
        return next(r for r in t["rows"] if r["tier"] == int(m[2]))[m[3]]
    t = raw
    for part in key.split("."):
        t = t[part]
    return t["value"] if isinstance(t, dict) else t


#: Two proposed removals of 9 in on a parcel whose facts are not given (§208-19A(2)), nothing else: the plan's
#: steps count them in §208-19A(1)'s window.
PLAN_LOT = "tag,species,dbh_in,action\n1,Acer rubrum,9,remove\n2,Acer rubrum,9,remove\n"


def test_the_plan_counts_removals_in_the_amended_window(tmp_path):
    """The plan's reasons say §208-19A(1)'s window from the law file ("2 removals in 12 months"), not a
    window written into the sentence."""
    from treecalc.cli.plan import render_text
    from treecalc.ingest import read_survey
    from treecalc.studies.plan import plan

    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)

    def run() -> tuple[str, str]:
        p = plan(read_survey(PLAN_LOT.encode("utf-8"), filename="lot.csv"), on="2026-06-01")
        return json.dumps(p.to_json()), render_text(p)

    before = _in_folder(None, run)
    _amend(folder, CH208, "permit.window_months", "18")
    after = _in_folder(folder, run)
    # k=2: both trees, 2 removals (the window counts the survey's own, no earlier ones given)
    for out in before:
        assert "2 removals in 12 months" in out and "18 months" not in out
    for out in after:
        assert "2 removals in 18 months" in out and "12 months" not in out


#: Two multi-stem trees removed on a slope over 20% (§208-19A(3): a permit from 4 in, definite offences): stems 6
#: and 5.3 in are √(36 + 28.09) = 8.0056 in, 8.0 at the stems' 0.1 in; stems 5 and 5.6 in are √(25 + 31.36) =
#: 7.5073 in, 7.5 at 0.1 in.
STEMS_LOT = (
    "tag,species,dbh_in,action,condition,slope_over_20pct\n"
    '1,Acer rubrum,"6, 5.3",removed,good,yes\n'
    '2,Acer rubrum,"5, 5.6",removed,good,yes\n'
)


def test_the_multi_stem_tier_note_quotes_the_amended_bound(tmp_path):
    """The note on a multi-stem tree whose two figures fall in different §208-29B tiers quotes tier (1)'s bound
    from the law file. Up to 8 in (as held) tree 1 straddles it (8.0056 > 8 >= 8.0); up to 7.5 in, tree 1 is over
    it both ways and tree 2 straddles it (7.5073 > 7.5 >= 7.5)."""
    from treecalc.assessment import assess
    from treecalc.cli.assess import render_text

    lot = tmp_path / "stems.csv"
    lot.write_text(STEMS_LOT, encoding="utf-8")
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)

    def run() -> str:
        a = assess(str(lot), jurisdiction="croton_on_hudson", on="2026-06-01")
        return " ".join((json.dumps(assessment_json(a), ensure_ascii=False) + render_text(a)).split())

    before = _in_folder(None, run)
    _amend(folder, CH208, "penalty.civil_tiers[1].max_dbh_in", "7.5")
    after = _in_folder(folder, run)
    old = "§208-29B(1)-(3) ('up to and including eight inches', 'greater than eight inches'): 1 multi-stem tree(s) (trees 1)"
    new = (
        "§208-29B(1)-(3) ('up to and including 7.5 inches', 'greater than 7.5 inches'): 1 multi-stem tree(s) (trees 2)"
    )
    assert old in before and new not in before
    assert new in after and "eight inches" not in after


#: One 10 in red maple removed while an application was pending, its parcel facts not given: §208-20F (definite)
#: and §208-19A(2) (conditional on the assumed parcel facts).
PENDING_LOT = "tag,species,dbh_in,action,condition\n1,Acer rubrum,10,removed,good\n"


def test_the_pending_clause_notes_say_the_amended_factor(tmp_path):
    """The notes on §208-29B(7)'s pending clause say the factor of the law file: read to the letter the one tree
    harmed while pending has its own fine doubled (2 x $1,500 = $3,000; tripled 3 x $1,500 = $4,500), and the
    conditional §208-19A(2) offence would double (triple) the fines per tree."""
    from treecalc.assessment import assess
    from treecalc.cli.assess import render_text

    lot = tmp_path / "pending.csv"
    lot.write_text(PENDING_LOT, encoding="utf-8")
    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)

    def run() -> str:
        a = assess(str(lot), jurisdiction="croton_on_hudson", on="2026-06-01", site={"application_pending": True})
        return " ".join((json.dumps(assessment_json(a), ensure_ascii=False) + render_text(a)).split())

    before = _in_folder(None, run)
    _amend(folder, CH208, "penalty.doubling_factor", "3")
    after = _in_folder(folder, run)
    said = [
        ("is not {} by itself", "doubled", "tripled"),
        ("it {} that tree's own fine too: civil maximum ${}", "doubles", "triples"),
        ("the one tree harmed while pending {} its own fine", "doubles", "triples"),
        ("the conditional offences would also {} the fines per tree", "double", "triple"),
    ]
    assert said, "nothing to check: the loop below would pass on no item"
    for template, old, new in said:
        was, now = template.format(old, "3,000"), template.format(new, "4,500")
        assert was in before and now not in before, was
        assert now in after and was not in after, now


def test_the_flag_columns_are_labelled_with_the_amended_numbers(lots, tmp_path):
    """The statement's headers of the survey flags that quote a law's number (§208-19A(3)'s "Slope over 20%",
    §95-3A(1)(e)'s "Within 20 ft of a lot line") and their column map say the law file's numbers."""
    import openpyxl

    from treecalc.assessment import assess
    from treecalc.report.statement import statement_bytes

    folder = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, folder)

    def cells(lot: str) -> list[str]:
        a = assess(str(lots[lot]), jurisdiction=LOTS[lot][1])
        wb = openpyxl.load_workbook(io.BytesIO(statement_bytes(a)))
        return [str(c.value) for ws in wb for row in ws.iter_rows() for c in row if c.value is not None]

    def run() -> tuple[list[str], list[str]]:
        return cells("croton"), cells("wesley")

    (croton, wesley) = _in_folder(None, run)
    _amend(folder, CH208, "permit.slope_percent", "25.0")
    _amend(folder, CH95, "permit.lot_line_distance_ft", "25.0")
    (croton2, wesley2) = _in_folder(folder, run)
    assert "Slope over 20%" in croton and "Slope over 25%" in croton2 and "Slope over 20%" not in croton2
    assert "Column map › Slope over 25%" in croton2
    lot_line = "Within {} ft of a lot line"
    assert lot_line.format(20) in wesley and lot_line.format(25) in wesley2
    assert lot_line.format(20) not in wesley2
