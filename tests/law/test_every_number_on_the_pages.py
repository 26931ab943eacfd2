"""Every number of the law files that an app page shows, amended in a copy of the data folder: the page shows the
new number and never the old one where the old one was.

The cases are generated from the files, as in test_every_number_amended.py: each entry of each
``data/law/<village>/<chapter>.toml`` (each cell of a bracket) and each number of the fee schedule is a key of
:data:`AMENDED` (its amended value) and either of :data:`SHOWN` (the pages and the words it shows in) or of
:data:`NOT_SHOWN` (why no page prints it). A number added to the law with neither fails
:func:`test_every_number_of_the_files_is_shown_or_said_why`.

Test time: every number is amended at once, to a value that cannot occur by chance, in ONE copy of the data
folder; the app runs once under the bundled law and once under that copy (two processes, side by side: the rules
read the law when they are imported), each going through every page and the input states that make a figure
appear (the Excavation page's wall, placed topsoil, fast rock, a later offence and the Wesley Hills check; a
small and a large replacement species on the Permit page).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.law.test_every_number_amended import CROTON_LOT as AMENDED_LOT
from treecalc.law import Bracket, Entry, entries
from treecalc.law.registry import by_key
from treecalc.reference.datafolder import BUNDLED_DATA_DIR, DATA_ENV

ROOT = Path(__file__).resolve().parents[2]
CH208 = "law/croton_on_hudson/ch208_trees.toml"
FEES = "law/croton_on_hudson/fee_schedule.toml"
CH223 = "law/croton_on_hudson/ch223_water.toml"
CH120 = "law/croton_on_hudson/ch120_excavation.toml"
CH95 = "law/wesley_hills/ch95_clearing.toml"
CH95X = "law/wesley_hills/ch95_excavation.toml"

#: Every number and its amended value: none equal to another number of the law, an input or a figure the pages
#: show (so that the old number's absence and the new one's presence cannot come by chance), and the bracket's
#: bounds kept in order.
AMENDED: dict[tuple[str, str], Any] = {
    (CH208, "permit.more_than_trees_12mo"): 5,
    (CH208, "permit.window_months"): 17,
    (CH208, "permit.parcel_min_dbh_in"): 7.25,
    (CH208, "permit.slope_min_dbh_in"): 3.75,
    (CH208, "permit.slope_percent"): 23.0,
    (CH208, "permit.wetland_min_dbh_in"): 3.5,
    (CH208, "permit.buffer_min_dbh_in"): 3.25,
    (CH208, "permit.clear_cutting_min_trees"): 6,
    (CH208, "conditions.excessive_pruning_min_percent"): 27,
    (CH208, "conditions.street_tree_pruning_min_percent"): 12.5,
    (CH208, "conditions.licensed_company_over_dbh_in"): 13.5,
    (CH208, "conditions.individually_marked_min_dbh_in"): 23.5,
    (CH208, "replacement.min_trees"): 4,
    (CH208, "replacement.percent"): 85,
    (CH208, "replacement.violation_percent"): 130,
    (CH208, "replacement.deciduous_min_dbh_in"): 1.75,
    (CH208, "replacement.conifer_min_height_ft"): 6.5,
    (CH208, "replacement.warranty_years"): 5,
    (CH208, "replacement.replant_warranty_years"): 4,
    (CH208, "spacing_ft.small"): 33,
    (CH208, "spacing_ft.medium"): 44,
    (CH208, "spacing_ft.large"): 57,
    (CH208, "penalty.civil_tiers[1].max_dbh_in"): 5.5,
    (CH208, "penalty.civil_tiers[1].usd"): 530,
    (CH208, "penalty.civil_tiers[2].max_dbh_in"): 11.0,
    (CH208, "penalty.civil_tiers[2].usd"): 1730,
    (CH208, "penalty.civil_tiers[3].usd"): 3170,
    (CH208, "penalty.civil_tiers[4].usd"): 4260,
    (CH208, "penalty.civil_tiers[5].usd"): 5390,
    (CH208, "penalty.civil_tiers[6].usd"): 7940,
    (CH208, "penalty.doubling_factor"): 3,
    (CH208, "penalty.doubling_more_than_trees"): 2,
    (CH208, "criminal.per_tree_usd"): 265,
    (CH208, "criminal.repeat_within_year_usd"): 1090,
    (CH208, "criminal.repeat_window_years"): 2,
    (CH208, "criminal.imprisonment_max_days"): 21,
    (CH208, "criminal.section_208_18_usd"): 5470,
    (FEES, "fee_per_tree_usd"): Decimal("473.00"),
    (FEES, "multiplier"): Decimal("1.35"),
    (CH95, "permit.measured_above_ground_in"): 51.0,
    (CH95, "permit.vacant_lot_min_dbh_in"): 9.5,
    (CH95, "permit.large_lot_min_acres"): 1.75,
    (CH95, "fine.imprisonment_max_days"): 19,
    (CH95, "permit.large_lot_min_dbh_in"): 11.25,
    (CH95, "permit.large_lot_residence_distance_ft"): 210.0,
    (CH95, "permit.lot_line_min_dbh_in"): 6.5,
    (CH95, "permit.lot_line_distance_ft"): 23.0,
    (CH95, "fine.per_tree_usd"): 5370,
    (CH95, "fine.other_per_day_usd"): 2630,
    (CH95X, "cellar_multiple"): 3,
    (CH95X, "waiver_volume"): 120,
    (CH95X, "slope_rise"): 2,
    (CH95X, "slope_run"): 5,
    (CH95X, "topsoil_depth"): 5.5,
    (CH95X, "rock_slope"): 7,
    (CH120, "deep_cut_depth"): 4.25,
    (CH120, "deep_cut_area"): 120,
    (CH120, "cut_depth"): 2.5,
    (CH120, "cut_area"): 550,
    (CH120, "lowering_area"): 5200,
    (CH120, "lowering_lot_percent"): 45,
    (CH120, "excavation_volume"): 55,
    (CH120, "deep_fill_depth"): 4.75,
    (CH120, "deep_fill_area"): 130,
    (CH120, "fill_depth"): 2.25,
    (CH120, "fill_area"): 530,
    (CH120, "any_fill_area"): 1100,
    (CH120, "topsoil_proviso_depth"): 3.5,
    (CH120, "topsoil_proviso_area"): 5300,
    (CH120, "fence_depth"): 4.5,
    (CH120, "standing_water_during"): 1.5,
    (CH120, "topsoil_left"): 2.75,
    (CH120, "retaining_wall_height"): 4.4,
    (CH120, "permit_term"): 2,
    (CH120, "idle_days"): 65,
    (CH120, "fine_first_min"): 550,
    (CH120, "fine_first_max"): 1050,
    (CH120, "fine_later_min"): 1150,
    (CH120, "fine_later_max"): 2200,
    (CH120, "imprisonment_max"): 16,
    (CH120, "civil_penalty_max"): 3300,
    (CH120, "tree_survey_diameter"): 7,
    (CH120, "tree_survey_height"): 3.5,
    (CH120, "tree_survey_strip"): 30,
    (CH120, "work_start_hour"): 7,
    (CH120, "work_end_hour"): 21,
    (CH120, "sunday_start_hour"): 11,
    (CH223, "first_penalty_rate"): Decimal("6"),
    (CH223, "monthly_penalty_rate"): Decimal("2"),
    (CH223, "relevy_month"): 5,
    (CH223, "relevy_day"): 20,
    (CH223, "relevy_overdue_days"): 100,
    (CH223, "meter_tolerance"): Decimal("2.5"),
}

#: The fee schedule's keys that are no number of the Board's (as in test_every_number_amended.py)
FEE_NOT_NUMBERS = ("basis", "value_basis", "placeholder", "label", "appraisal_edition")


def _law_keys() -> list[tuple[str, str]]:
    keys = []
    for path in sorted((BUNDLED_DATA_DIR / "law").glob("*/*.toml")):
        rel = path.relative_to(BUNDLED_DATA_DIR).as_posix()
        if by_key(path.parent.name).family:
            # a town held as data alone (a replacement family's): its numbers are each worked in its cases
            # (tests/cases/<town>/) and shown on its generated law page, not by this suite's page cases
            continue
        if rel == FEES:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
            keys += [(rel, k) for k, v in raw.items() if not isinstance(v, (dict, list)) and k not in FEE_NOT_NUMBERS]
            continue
        for key, e in entries(path.parent.name, path.stem).items():
            if isinstance(e, Entry):
                keys.append((rel, key))
            elif isinstance(e, Bracket):
                keys += [(rel, f"{key}[{r['tier']}].{c}") for r in e.rows for c in e.columns if c in r]
    return keys


def _literal(v: Any) -> str:
    return f'"{v}"' if isinstance(v, Decimal) else repr(v)


def _amend(folder: Path, rel: str, key: str, v: Any) -> None:
    """Set ``key`` (an entry's ``value``, a bracket's cell ``penalty.civil_tiers[3].usd``, a top-level key of the
    fee schedule) to ``v`` in the copy."""
    p = folder / rel
    s = p.read_text(encoding="utf-8")
    m = re.fullmatch(r"(.+)\[(\d+)\]\.(\w+)", key)
    if m:  # the row's table starts at its "tier = N" line
        start, name = s.index(f"\ntier = {m[2]}\n"), m[3]
    elif rel != FEES:
        start, name = s.index(f"\n[{key}]\n"), "value"
    else:
        start, name = 0, key
    end = s.find("\n[", start + 1)
    end = len(s) if end < 0 else end
    hit = re.compile(rf"^{name} = .*$", re.M).search(s, start, end)
    assert hit, f"{rel}: no {name} in {key}"
    p.write_text(s[: hit.start()] + f"{name} = {_literal(v)}" + s[hit.end() :], encoding="utf-8")


def amended_folder(folder: Path) -> Path:
    shutil.copytree(BUNDLED_DATA_DIR, folder)
    for (rel, key), v in AMENDED.items():
        _amend(folder, rel, key, v)
    return folder


#: Croton-on-Hudson (no jurisdiction named: the app assumes it): eight trees harmed without a permit (more than
#: three, §208-29B(7); clear cutting, §208-17): 14, 26, 11.5 and 9 in removed, one 6 in and one 5 in topped
#: (§208-18D), a street tree (§208-29B(4)), a landmark (5) and one in a conservation easement (6); a street tree
#: injured (§208-5C: no §208-18 violation, the §208-29A $250); four proposed removals, in a wetland, a buffer zone
#: and on a slope (§208-19A(3)/(4)/(7)) and one of 31 in.
CROTON_LOT = (
    AMENDED_LOT  # the lot the JSON/CLI/statement check amends, and two more trees the pages show
    + "113,Acer rubrum,5,topped,good,,,,,,\n"
    + "114,Acer rubrum,8,injured,good,,,,yes,,\n"
)
#: Wesley Hills (named in the site facts), its residence not given (a vacant lot is assumed, §95-3A(1)(c)): two
#: trees of 10 in or more removed farther than 200 ft from the house (d), a 7 in tree removed within 20 ft of a lot
#: line (e).
WESLEY_LOT = (
    "tag,species,dbh_in,action,distance_to_residence_ft,within_20ft_of_lot_line\n"
    "1,Quercus alba,18,removed,240,no\n"
    "2,Acer rubrum,12,removed,215,no\n"
    "3,Acer rubrum,7,removed,50,yes\n"
    "4,Tsuga canadensis,12,retain,60,no\n"
)

#: One app session: the Croton-on-Hudson survey through its pages, the Excavation page in its other input states,
#: then the Wesley Hills survey through the tree pages. Prints {run name: every text the page shows} (titles,
#: markdown, captions, messages, metrics with their help, widget labels and help, expanders, tables as text),
#: whitespace folded.
SCRIPT = r"""
import json, sys
from streamlit.testing.v1 import AppTest

root, lots = sys.argv[1], json.loads(sys.stdin.read())


def text(at):
    out = []
    for kind in ("title", "header", "subheader", "markdown", "caption", "info", "warning", "error", "success", "text"):
        for e in at.get(kind):
            out += [str(getattr(e, "value", "")), str(getattr(e.proto, "help", "") or "")]
    for m in at.metric:
        out += [m.label, str(m.value), m.proto.help or ""]
    for kind in ("dataframe", "table"):
        for d in at.get(kind):
            out.append(d.value.to_string())
    for kind in ("number_input", "selectbox", "checkbox", "text_input", "date_input", "radio", "toggle", "slider"):
        for w in at.get(kind):
            out += [str(w.label), str(getattr(w.proto, "help", "") or "")]
    out += [str(e.label) for e in at.get("expander")]
    return " ".join(" ".join(out).split())


res = {}


def page(name, p):
    at.switch_page(f"treecalc/app/pages/{p}.py").run()
    assert not at.exception, (name, [e.value for e in at.exception])
    res[name] = text(at)


at = AppTest.from_file(root + "/app.py", default_timeout=120).run()
at.file_uploader(key="w_upload").set_value(("croton.csv", lots["croton"].encode(), "text/csv")).run()
for p in ("survey", "permit", "violations", "fund", "water", "excavation"):
    page(p, p)
# a retaining wall over the height (§120-8M), topsoil placed (the proviso), fast rock (§95-4E(1)(a)) and a later
# offence (§120-12A: its fines and imprisonment)
at.number_input(key="w_exc_wall").set_value(5.0)
at.checkbox(key="w_exc_place").check()
at.checkbox(key="w_wh_rock").check()
at.number_input(key="w_exc_offence").set_value(2)
at.run()
assert not at.exception, [e.value for e in at.exception]
res["excavation+"] = text(at)
at.radio(key="w_exc_jur").set_value("wesley-hills").run()
assert not at.exception, [e.value for e in at.exception]
res["excavation:wesley"] = text(at)
# a small and a large species as the replacement stock: their §208-6A spacing as the area per tree
at.switch_page("treecalc/app/pages/permit.py").run()
for sp in ("COFL", "QURU"):
    at.selectbox(key="w_repl_species").set_value(sp).run()
    assert not at.exception, [e.value for e in at.exception]
    res["permit:" + sp] = text(at)
at.switch_page("treecalc/app/pages/survey.py").run()
at.file_uploader(key="w_upload").set_value(("wesley.csv", lots["wesley"].encode(), "text/csv")).run()
at.session_state["tc_read_opts"] = {"site": {"jurisdiction": "wesley-hills"}}
at.run()
for p in ("survey", "permit", "violations"):
    page("wesley:" + p, p)
print("@@" + json.dumps(res))
"""


def _start(env: dict[str, str]) -> subprocess.Popen[str]:
    p = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(ROOT)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert p.stdin is not None
    p.stdin.write(json.dumps({"croton": CROTON_LOT, "wesley": WESLEY_LOT}))
    p.stdin.close()
    return p


def _texts(p: subprocess.Popen[str]) -> dict[str, str]:
    assert p.stdout is not None and p.stderr is not None
    out, err = p.stdout.read(), p.stderr.read()
    assert p.wait(timeout=300) == 0, err[-3000:]
    return json.loads(out.split("@@")[-1])


@pytest.fixture(scope="module")
def shown(tmp_path_factory) -> dict[str, dict[str, str]]:
    """The pages' texts under the bundled law and under the amended copy: {"bundled"|"amended": {run: text}}.
    The two sessions run side by side."""
    base = {k: v for k, v in os.environ.items() if k != DATA_ENV}
    amended = {**base, DATA_ENV: str(amended_folder(tmp_path_factory.mktemp("law") / "data"))}
    runs = {"bundled": _start(base), "amended": _start(amended)}
    return {name: _texts(p) for name, p in runs.items()}


#: (the numbers a phrase shows, the run, the phrase under the bundled law, the same under the amended copy). A
#: phrase of several numbers shows each of them read from the data. Figures worked by hand from the amended
#: numbers, the arithmetic beside them.
CASES: list[tuple[tuple[tuple[str, str], ...], str, str, str]] = [
    # --- Chapter 208: the Permit page's triggers (§208-19A), replacement (§208-22) and stock (§208-22D) --------------
    (((CH208, "permit.more_than_trees_12mo"),), "permit", "**§208-19A(1)** more than 3 trees", "**§208-19A(1)** more than 5 trees"),
    (((CH208, "permit.window_months"),), "permit", "on the lot within 12 months (", "on the lot within 17 months ("),
    # the Survey page's site facts, in the law engine's words filled from the law in force
    (((CH208, "permit.window_months"),), "survey", "in the preceding 12 months besides", "in the preceding 17 months besides"),
    (((CH208, "permit.window_months"),), "survey", "Trees removed on the lot in the previous 12 months", "Trees removed on the lot in the previous 17 months"),
    # the survey table's flag column, labelled with §208-19A(3)'s percentage
    (((CH208, "permit.slope_percent"),), "survey", "Street tree Slope over 20% Excessively", "Street tree Slope over 23% Excessively"),
    (((CH208, "permit.parcel_min_dbh_in"),), "permit", "**§208-19A(2)** 8 in DBH or more", "**§208-19A(2)** 7.25 in DBH or more"),
    (((CH208, "permit.slope_min_dbh_in"),), "permit", "**§208-19A(3)** 4 in DBH or more", "**§208-19A(3)** 3.75 in DBH or more"),
    (((CH208, "permit.slope_percent"),), "permit", "on a slope over 20% —", "on a slope over 23% —"),
    (((CH208, "permit.wetland_min_dbh_in"),), "permit", "**§208-19A(4)** 4 in DBH or more", "**§208-19A(4)** 3.5 in DBH or more"),
    (((CH208, "permit.buffer_min_dbh_in"),), "permit", "**§208-19A(7)** 4 in DBH or more", "**§208-19A(7)** 3.25 in DBH or more"),
    # seven removed without a permit: clear cutting under either law (4 or more; 6 or more)
    (((CH208, "permit.clear_cutting_min_trees"),), "permit", "(§208-17, 4 or more)", "(§208-17, 6 or more)"),
    (((CH208, "permit.clear_cutting_min_trees"),), "violations", "§208-17: 4 or more trees", "§208-17: 6 or more trees"),
    (((CH208, "replacement.min_trees"),), "permit", "under a permit for three or more trees", "under a permit for four or more trees"),
    (((CH208, "replacement.percent"), (CH208, "replacement.violation_percent")), "permit", "(§208-22A/F) 120% and 90% by part", "(§208-22A/F) 130% and 85% by part"),
    # the parts: §208-22F at 120% -> 130% on the ten trees harmed; §208-22A 90% x $545.90 = $491.31 -> 85% x 545.90
    # = 464.02 (464.015, half up) on the four proposed
    (((CH208, "replacement.violation_percent"),), "permit", "§208-22F 120.0 10 1276.88", "§208-22F 130.0 10 1276.88"),
    (((CH208, "replacement.percent"),), "permit", "§208-22A 90.0 4 545.90 491.31", "§208-22A 85.0 4 545.90 464.02"),
    (((CH208, "replacement.percent"), (CH208, "replacement.violation_percent")), "violations", "the law's 90% (permit) or 120% (after", "the law's 85% (permit) or 130% (after"),
    (((CH208, "replacement.violation_percent"),), "violations", "the replacement is then 120% of their value", "the replacement is then 130% of their value"),
    # §208-22F payment: 120% x $62,660.30 = $75,192.36 -> 130% x 62,660.30 = $81,458.39
    (((CH208, "replacement.violation_percent"),), "fund", "Exactly $75,192.36. §208-22F: instead of the replacement trees the applicant may pay the Tree Preservation Fund this sum. 120% of $62,660.30", "Exactly $81,458.39. §208-22F: instead of the replacement trees the applicant may pay the Tree Preservation Fund this sum. 130% of $62,660.30"),
    (((CH208, "replacement.deciduous_min_dbh_in"), (CH208, "replacement.conifer_min_height_ft")), "permit", "Deciduous trees at least 1.5 in DBH; conifers at least 5 ft tall", "Deciduous trees at least 1.75 in DBH; conifers at least 6.5 ft tall"),
    (((CH208, "replacement.warranty_years"),), "permit", "for three years; replacements that die", "for five years; replacements that die"),
    (((CH208, "replacement.replant_warranty_years"),), "permit", "warranted for two years from their own", "warranted for four years from their own"),
    # the Red maple stock is medium: 40 ft apart, 40 x 40 = 1,600 sq ft a tree -> 44 x 44 = 1,936 sq ft
    (((CH208, "spacing_ft.medium"),), "permit", "True medium 1600.0", "True medium 1936.0"),
    # a flowering dogwood (small): 30 x 30 = 900 -> 33 x 33 = 1,089; a red oak (large): 50 x 50 = 2,500 -> 57 x 57
    # = 3,249 sq ft
    (((CH208, "spacing_ft.small"),), "permit:COFL", "True small 900.0", "True small 1089.0"),
    (((CH208, "spacing_ft.large"),), "permit:QURU", "True large 2500.0", "True large 3249.0"),
    # --- Chapter 208: the Violations page's tiers (§208-29B), doubling (7) and criminal maxima (§208-29A) ----------
    # per tree: tier, base, maximum (base x the doubling factor: 2, then 3), criminal (§208-18 violation)
    (((CH208, "penalty.civil_tiers[3].usd"), (CH208, "penalty.doubling_factor"), (CH208, "criminal.section_208_18_usd")), "violations", "101 §208-29B(3) 3000 6000 5000", "101 §208-29B(3) 3170 9510 5470"),
    # 11.5 in: tier (2) up to 12 in; up to 11 in amended, tier (3): 3,170 x 3 = 9,510
    (((CH208, "penalty.civil_tiers[2].max_dbh_in"),), "violations", "103 §208-29B(2) 1500 3000", "103 §208-29B(3) 3170 9510"),
    (((CH208, "penalty.civil_tiers[2].usd"),), "violations", "104 §208-29B(2) 1500 3000", "104 §208-29B(2) 1730 5190"),
    # 6 in topped: tier (1) up to 8 in; up to 5.5 in amended, tier (2): 1,730 x 3 = 5,190
    (((CH208, "penalty.civil_tiers[1].max_dbh_in"),), "violations", "106 §208-29B(1) 500 1000", "106 §208-29B(2) 1730 5190"),
    (((CH208, "penalty.civil_tiers[1].usd"),), "violations", "113 §208-29B(1) 500 1000", "113 §208-29B(1) 530 1590"),
    (((CH208, "penalty.civil_tiers[4].usd"),), "violations", "110 §208-29B(4) 4000 8000", "110 §208-29B(4) 4260 12780"),
    (((CH208, "penalty.civil_tiers[5].usd"),), "violations", "111 §208-29B(5) 5000 10000", "111 §208-29B(5) 5390 16170"),
    (((CH208, "penalty.civil_tiers[6].usd"),), "violations", "112 §208-29B(6) 7500 15000", "112 §208-29B(6) 7940 23820"),
    # the injured street tree: tier (4), and §208-29A's $250 (no §208-18 violation) -> $265
    (((CH208, "criminal.per_tree_usd"), (CH208, "penalty.civil_tiers[4].usd")), "violations", "114 §208-29B(4) 4000 8000 250", "114 §208-29B(4) 4260 12780 265"),
    # civil maximum: 2 x (3,000 + 3,000 + 1,500 + 1,500 + 500 + 4,000 + 5,000 + 7,500 + 500 + 4,000) = 2 x 30,500 =
    # 61,000; amended 3 x (3,170 x 3 + 1,730 x 2 + 4,260 + 5,390 + 7,940 + 530 + 4,260) = 3 x 35,350 = 106,050
    (((CH208, "penalty.doubling_factor"),), "violations", "Civil penalty, maximum (USD, §208-29B) $61,000.00 Exactly $61,000.00", "Civil penalty, maximum (USD, §208-29B) $106K Exactly $106,050.00"),
    (((CH208, "penalty.doubling_more_than_trees"),), "violations", "more than 3 regulated trees harmed", "more than 2 regulated trees harmed"),
    # the factor in words: "doubled" (2) -> "tripled" (3)
    (((CH208, "penalty.doubling_factor"),), "violations", "Doubled (§208-29B(7)) Yes", "Tripled (§208-29B(7)) Yes"),
    (((CH208, "penalty.doubling_factor"),), "violations", "every per-tree amount doubles when", "every per-tree amount triples when"),
    (((CH208, "penalty.doubling_factor"),), "violations", "without a permit; doubles the per-tree", "without a permit; triples the per-tree"),
    (((CH208, "penalty.doubling_factor"),), "violations", "civil tiers, doubling, continuing", "civil tiers, tripling, continuing"),
    (((CH208, "penalty.doubling_factor"),), "violations", "Why the amounts double", "Why the amounts triple"),
    # criminal maximum: nine §208-18 violations x $5,000 + $250 = 45,250 -> 9 x $5,470 + $265 = 49,495
    (((CH208, "criminal.section_208_18_usd"), (CH208, "criminal.per_tree_usd")), "violations", "Criminal fine, maximum (USD, §208-29A) $45,250.00 Exactly $45,250.00", "Criminal fine, maximum (USD, §208-29A) $49.5K Exactly $49,495.00"),
    (((CH208, "criminal.repeat_within_year_usd"),), "violations", "(when given yes: up to $1,000 per tree)", "(when given yes: up to $1,090 per tree)"),
    (((CH208, "criminal.repeat_window_years"),), "violations", "violation within a one-year period'", "violation within a two-year period'"),
    (((CH208, "criminal.repeat_window_years"),), "survey", "no earlier violation within one year is", "no earlier violation within two years is"),
    (((CH208, "criminal.repeat_window_years"),), "survey", "An earlier violation within one year", "An earlier violation within two years"),
    # --- the fee schedule (§208-24C), on the Fund page -----------------------------------------------------------
    (((FEES, "fee_per_tree_usd"),), "fund", "**Calculation:** 0 tree(s) x $450.00", "**Calculation:** 0 tree(s) x $473.00"),
    (((FEES, "fee_per_tree_usd"),), "fund", "Fee per tree not planted (USD) $450.00", "Fee per tree not planted (USD) $473.00"),
    (((FEES, "multiplier"),), "fund", "Multiplier of unmet value 1 ", "Multiplier of unmet value 1.35 "),
    # --- Chapter 223, on the Water page (a $300.00 bill due 15 January, the page's own) ---------------------------
    (((CH223, "first_penalty_rate"),), "water", "the day after the due date, 5% of", "the day after the due date, 6% of"),
    (((CH223, "first_penalty_rate"), (CH223, "monthly_penalty_rate")), "water", "+5% on 16 Jan, +1% on 16 Feb", "+6% on 16 Jan, +2% on 16 Feb"),
    # 16 Jan: 5% x 300.00 = 15.00 -> 6%: 18.00; 16 Feb: 1% x 300.00 = 3.00 (18.00 in all) -> 2%: 6.00 (24.00)
    (((CH223, "first_penalty_rate"),), "water", "penalty 15.0 300.0 15.0", "penalty 18.0 300.0 18.0"),
    (((CH223, "monthly_penalty_rate"),), "water", "penalty 3.0 300.0 18.0", "penalty 6.0 300.0 24.0"),
    # relevied on 15 April (15 Jan -> 15 Apr 2026: 90 days, more than 60); amended on 20 May (125 days, more than
    # 100), after 18 + 6 x 4 = 42.00 of penalties (16 Jan, Feb, Mar, Apr, May): 342.00 (was 300 + 15 + 3 + 3 = 321)
    (((CH223, "relevy_month"), (CH223, "relevy_day")), "water", "Relevy date 2026-04-15 15 April", "Relevy date 2026-05-20 20 May"),
    # (the reading quotes the entry's words, "more than 60 days overdue", which this copy leaves as they are)
    (((CH223, "relevy_month"), (CH223, "relevy_day")), "water", "days overdue' on 15 April is read", "days overdue' on 20 May is read"),
    (((CH223, "relevy_overdue_days"),), "water", "at least 61 days before", "at least 101 days before"),
    (((CH223, "relevy_overdue_days"),), "water", "more than 60 days overdue (90 days)", "more than 100 days overdue (125 days)"),
    (((CH223, "relevy_month"), (CH223, "relevy_day"), (CH223, "relevy_overdue_days")), "water", "Total owed (water account + tax bill) $321.00", "Total owed (water account + tax bill) $342.00"),
    # the page's +2.00% test: outside ±1.5% (adjusted), within ±2.5% (not)
    (((CH223, "meter_tolerance"),), "water", "Bill adjusted Yes Average error +2.00% (limit ±1.5%)", "Bill adjusted No Average error +2.00% (limit ±2.5%)"),
    (((CH223, "meter_tolerance"),), "water", "over-registers by more than 1.5%", "over-registers by more than 2.5%"),
    # --- Chapter 120, on the Excavation page (the page's 600 sq ft at 3 ft) -------------------------------------
    (((CH120, "deep_cut_depth"),), "excavation", "§120-3A(1) no excavation deeper than 4 ft", "§120-3A(1) no excavation deeper than 4.25 ft"),
    (((CH120, "deep_cut_depth"), (CH120, "cut_depth")), "excavation", "'in excess of 4/2 feet'", "'in excess of 4.25/2.5 feet'"),
    (((CH120, "deep_cut_area"), (CH120, "cut_area")), "excavation", "'over an area of 100/500 square feet", "'over an area of 120/550 square feet"),
    (((CH120, "cut_depth"), (CH120, "cut_area")), "excavation", "deeper than 2 ft over 600 sq ft (permit if >= 500 sq ft)", "deeper than 2.5 ft over 600 sq ft (permit if >= 550 sq ft)"),
    (((CH120, "lowering_area"), (CH120, "lowering_lot_percent")), "excavation", "For §120-3A(3): 5,000 sq ft or 50% of the lot", "For §120-3A(3): 5,200 sq ft or 45% of the lot"),
    # 600 sq ft lowered is more than 50% of a lot under 600 / 0.5 = 1,200 sq ft -> 600 / 0.45 = 1,333.33 sq ft
    (((CH120, "lowering_area"), (CH120, "lowering_lot_percent")), "excavation", "under 5,000 sq ft, so it depends on the lot area — required if the lot is under 1,200 sq ft (more than 50% of", "under 5,200 sq ft, so it depends on the lot area — required if the lot is under 1,333.33 sq ft (more than 45% of"),
    # 50 cu yd x 27 = 1,350 cu ft -> 55 x 27 = 1,485 cu ft
    (((CH120, "excavation_volume"),), "excavation", "(permit if more than 50 cu yd = 1,350 cu ft)", "(permit if more than 55 cu yd = 1,485 cu ft)"),
    (((CH120, "deep_fill_depth"), (CH120, "deep_fill_area")), "excavation", "fill deeper than 4 ft over 0 sq ft (permit if >= 100 sq ft)", "fill deeper than 4.75 ft over 0 sq ft (permit if >= 130 sq ft)"),
    (((CH120, "fill_depth"), (CH120, "fill_area")), "excavation", "fill deeper than 2 ft over 0 sq ft (permit if >= 500 sq ft)", "fill deeper than 2.25 ft over 0 sq ft (permit if >= 530 sq ft)"),
    (((CH120, "any_fill_area"),), "excavation", "fill at any depth over 0 sq ft (permit if >= 1,000 sq ft)", "fill at any depth over 0 sq ft (permit if >= 1,100 sq ft)"),
    (((CH120, "topsoil_proviso_depth"), (CH120, "topsoil_proviso_area")), "excavation", "placing topsoil not over 3 in deep over not more than 5,000 sq ft", "placing topsoil not over 3.5 in deep over not more than 5,300 sq ft"),
    # the page's 3 in over 2,000 sq ft placed, seeded and mulched
    (((CH120, "topsoil_proviso_depth"), (CH120, "topsoil_proviso_area")), "excavation+", "seeded and mulched: not over 3 in, not over 5,000 sq ft", "seeded and mulched: not over 3.5 in, not over 5,300 sq ft"),
    # the page's 5 ft deep excavation: fenced
    (((CH120, "fence_depth"),), "excavation", "fence required (required if > 4 ft)", "fence required (required if > 4.5 ft)"),
    (((CH120, "standing_water_during"),), "excavation", "standing water at most 1 ft deep", "standing water at most 1.5 ft deep"),
    (((CH120, "standing_water_during"),), "excavation", "during construction (limit 1 ft)", "during construction (limit 1.5 ft)"),
    # the page's 2 in of topsoil left: enough under 2 in, not under 2.75
    (((CH120, "topsoil_left"),), "excavation", "at least 2 in of topsoil left None True 2 in of topsoil left (minimum 2 in)", "at least 2.75 in of topsoil left None False 2 in of topsoil left (minimum 2.75 in)"),
    (((CH120, "retaining_wall_height"),), "excavation", "§120-8M: over 4 ft needs a building permit", "§120-8M: over 4.4 ft needs a building permit"),
    # the wall of 5 ft given
    (((CH120, "retaining_wall_height"),), "excavation+", "(required if more than 4 ft)", "(required if more than 4.4 ft)"),
    (((CH120, "fine_first_min"), (CH120, "fine_first_max"), (CH120, "fine_later_min"), (CH120, "fine_later_max"), (CH120, "imprisonment_max"), (CH120, "civil_penalty_max")), "excavation", "a fine of $500-$1,000 (first offence) or $1,000-$2,000 and/or up to 15 days (later offences), and a civil penalty up to $3,000 per", "a fine of $550-$1,050 (first offence) or $1,150-$2,200 and/or up to 16 days (later offences), and a civil penalty up to $3,300 per"),
    (((CH120, "fine_first_min"), (CH120, "fine_first_max"), (CH120, "civil_penalty_max")), "excavation", "Criminal fine, range $500 – $1,000 Civil penalty, maximum $3,000", "Criminal fine, range $550 – $1,050 Civil penalty, maximum $3,300"),
    # a second offence
    (((CH120, "fine_later_min"), (CH120, "fine_later_max"), (CH120, "imprisonment_max")), "excavation+", "Criminal fine, range $1,000 – $2,000 Civil penalty, maximum $3,000 Imprisonment, maximum (days) 15", "Criminal fine, range $1,150 – $2,200 Civil penalty, maximum $3,300 Imprisonment, maximum (days) 16"),
    (((CH120, "fine_later_max"), (CH120, "civil_penalty_max")), "excavation", "'$2,0' (§120-12A) = $2,000; '$3,0' (§120-12B) = $3,000;", "'$2,0' (§120-12A) = $2,200; '$3,0' (§120-12B) = $3,300;"),
    (((CH120, "tree_survey_diameter"), (CH120, "tree_survey_height"), (CH120, "tree_survey_strip")), "excavation", "every live tree 6 in or more in diameter measured 3 ft above existing ground (not DBH at 4.5 ft) within the grading area and a 25-ft strip", "every live tree 7 in or more in diameter measured 3.5 ft above existing ground (not DBH at 4.5 ft) within the grading area and a 30-ft strip"),
    (((CH120, "work_start_hour"), (CH120, "work_end_hour"), (CH120, "sunday_start_hour")), "excavation", "no work 8:00 p.m.-8:00 a.m. any day, nor 8:00 p.m. Saturday-10:00 a.m. Sunday", "no work 9:00 p.m.-7:00 a.m. any day, nor 9:00 p.m. Saturday-11:00 a.m. Sunday"),
    (((CH120, "work_start_hour"), (CH120, "work_end_hour"), (CH120, "sunday_start_hour")), "excavation", "work allowed from 8:00 a.m. (Sunday 10:00 a.m.) up to but not including 8:00 p.m.", "work allowed from 7:00 a.m. (Sunday 11:00 a.m.) up to but not including 9:00 p.m."),
    # --- Wesley Hills Chapter 95 excavation: the page's cellar panel and its check -------------------------------
    # the page's 40 x 30 x 9 ft cellar: 10,800 cu ft = 400 cu yd; 2 x 400 = 800 -> 3 x 400 = 1,200 cu yd
    (((CH95X, "cellar_multiple"),), "excavation", "Limit, 2 × cellar and foundation (cu yd) 800.00", "Limit, 3 × cellar and foundation (cu yd) 1,200.00"),
    (((CH95X, "cellar_multiple"),), "excavation", "vs 2 x cellar and foundation 400.00 cu yd = 800.00 cu yd", "vs 3 x cellar and foundation 400.00 cu yd = 1,200.00 cu yd"),
    (((CH95X, "cellar_multiple"),), "excavation:wesley", "exactly twice the volume", "exactly 3 times the volume"),
    (((CH95X, "waiver_volume"),), "excavation", "an operation involving less than 100 cu yd", "an operation involving less than 120 cu yd"),
    (((CH95X, "waiver_volume"),), "excavation:wesley", "Planning Board waiver (§95-3D(1), under 100 cu yd moved)", "Planning Board waiver (§95-3D(1), under 120 cu yd moved)"),
    (((CH95X, "slope_rise"), (CH95X, "slope_run")), "excavation", "10 ft run; no steeper than 1V:2H.", "10 ft run; no steeper than 2V:5H."),
    (((CH95X, "slope_rise"), (CH95X, "slope_run"), (CH95X, "rock_slope"), (CH95X, "topsoil_depth")), "excavation:wesley", "slopes no steeper than 1V:2H (rock 6V:1H); §95-4E(1)(c): at least 4 in of topsoil", "slopes no steeper than 2V:5H (rock 7V:1H); §95-4E(1)(c): at least 5.5 in of topsoil"),
    # fast rock ticked
    (((CH95X, "rock_slope"),), "excavation+", "rock: no steeper than 6V:1H.", "rock: no steeper than 7V:1H."),
    # the page's 5,000 sq ft: x 4/12 ft = 1,666.67 cu ft / 27 = 61.73 cu yd -> x 5.5/12 = 2,291.67 / 27 = 84.88
    (((CH95X, "topsoil_depth"),), "excavation", "Topsoil needed, 4 in (cu yd) 61.73", "Topsoil needed, 5.5 in (cu yd) 84.88"),
    # --- Wesley Hills Chapter 95 clearing: the Permit triggers (§95-3A(1)) and the Violations page --------------
    (((CH95, "permit.vacant_lot_min_dbh_in"),), "wesley:permit", "**§95-3A(1)(c)** 10 in or more on a vacant lot", "**§95-3A(1)(c)** 9.5 in or more on a vacant lot"),
    (((CH95, "permit.large_lot_min_dbh_in"), (CH95, "permit.large_lot_residence_distance_ft"), (CH95, "permit.large_lot_min_acres")), "wesley:permit", "**§95-3A(1)(d)** 10 in or more, farther than 200 ft from a one-family residence, on a lot of 1.5 acres or more", "**§95-3A(1)(d)** 11.25 in or more, farther than 210 ft from a one-family residence, on a lot of 1.75 acres or more"),
    (((CH95, "permit.large_lot_min_acres"),), "wesley:survey", "lot area is assumed to be 1.5 acres or more (§95-3A(1)(d))", "lot area is assumed to be 1.75 acres or more (§95-3A(1)(d))"),
    (((CH95, "permit.lot_line_min_dbh_in"), (CH95, "permit.lot_line_distance_ft")), "wesley:permit", "**§95-3A(1)(e)** 6 in or more within 20 ft of a lot line", "**§95-3A(1)(e)** 6.5 in or more within 23 ft of a lot line"),
    (((CH95, "fine.per_tree_usd"),), "wesley:violations", "one violation (up to $5,000)", "one violation (up to $5,370)"),
    # three removals fined on assumed facts: 3 x 5,000 = 15,000 -> 3 x 5,370 = 16,110
    (((CH95, "fine.per_tree_usd"),), "wesley:violations", "Fine on assumed facts, maximum (USD, Chapter 95) $15,000", "Fine on assumed facts, maximum (USD, Chapter 95) $16,110"),
    (((CH95, "fine.other_per_day_usd"),), "wesley:violations", "up to $2,500, each day's", "up to $2,630, each day's"),
    (((CH95, "permit.measured_above_ground_in"),), "excavation:wesley", "(diameter measured 54 in above ground)", "(diameter measured 51 in above ground)"),
    (((CH208, "criminal.imprisonment_max_days"),), "violations", "up to 15 days' imprisonment, or both", "up to 21 days' imprisonment, or both"),
    (((CH95, "fine.imprisonment_max_days"),), "wesley:violations", "up to 15 days' imprisonment", "up to 19 days' imprisonment"),
]  # fmt: skip

#: The numbers no page prints, and why (each is checked in the JSON, the CLI text, the statement and the PDF by
#: test_every_number_amended.py, test_amended_excavation_law.py or test_amended_water.py).
NOT_SHOWN: dict[tuple[str, str], str] = {
    (CH208, "conditions.excessive_pruning_min_percent"): "the §208-17 share decides whether a pruning is excessive; "
    "no page quotes it (the JSON readings do)",
    (CH208, "conditions.street_tree_pruning_min_percent"): "the §208-5C share decides whether a street tree's "
    "pruning needs the Department's approval; no page quotes it (its figures are checked in the JSON)",
    (CH208, "conditions.licensed_company_over_dbh_in"): "the §208-21F note is in the JSON and the CLI text; no page "
    "prints it",
    (CH208, "conditions.individually_marked_min_dbh_in"): "the §208-20C note is in the JSON and the CLI text; no page "
    "prints it",
    (CH120, "permit_term"): "the Excavation page has no permit-term check (the CLI's --permit-issued/--last-work)",
    (CH120, "idle_days"): "as permit_term: the §120-10A interruption is checked by the CLI alone",
}


def test_every_number_of_the_files_is_shown_or_said_why():
    keys = _law_keys()
    # 37 of Chapter 208 (the bracket's 8 cells, the replant's warranty and the §208-5C share among them), 2 of
    # the fee schedule, 10 + 6 of Chapter 95, 32 of 120, 6 of 223
    assert len(keys) == 93
    assert sorted(AMENDED) == sorted(keys), "each number of the law files needs its amended value here"
    covered = {k for ks, *_ in CASES for k in ks}
    missing = [k for k in keys if k not in covered and k not in NOT_SHOWN]
    assert not missing, f"numbers of the law no page case reaches, nor NOT_SHOWN: {missing}"
    both = sorted(covered & set(NOT_SHOWN))
    assert not both, f"shown and said not shown: {both}"
    stale = [k for k in [*covered, *NOT_SHOWN] if k not in keys]
    assert not stale, f"cases of numbers the files no longer hold: {stale}"


@pytest.mark.parametrize(("keys", "run", "old", "new"), CASES, ids=[f"{c[1]}:{c[0][0][1]}" for c in CASES])
def test_the_page_shows_the_amended_number_and_never_the_old(shown, keys, run, old, new):
    bundled, amended = shown["bundled"][run], shown["amended"][run]
    assert old in bundled, f"{keys}: {old!r} is not on the {run} page under the law as held"
    assert new not in bundled, f"{keys}: {new!r} is already on the {run} page"
    assert new in amended, f"{keys}: the amended {new!r} is not on the {run} page"
    assert old not in amended, f"{keys}: the old {old!r} is still on the {run} page"


def test_the_neutral_site_reasons_quote_no_number_of_a_law():
    """The reasons of data/readings/site_facts.toml are said before the law is known (the reader's notes): they
    quote no number of a law (a period, an area); each law's [site_why] says its own, from its data."""
    from treecalc.ingest import SITE_ASSUMED

    assert len(SITE_ASSUMED), "nothing to check: the loop below would pass on no item"
    for fact, (_, why) in SITE_ASSUMED.items():
        assert not re.search(r"\d", re.sub(r"§\s?[\w.()-]+", "", why)), (fact, why)


def test_no_page_shows_a_keyword_marker(shown):
    """The library names an option or a fact as a keyword between markers (‹prior_removals_without_permit=N›);
    the app says it as the control that sets it (treecalc.app.words): no page shows a marker, under either law."""
    assert len(shown), "nothing to check: the loop below would pass on no item"
    for folder, runs in shown.items():
        assert len(runs), "nothing to check: the loop below would pass on no item"
        for run, text in runs.items():
            i = text.find("‹")
            assert i < 0, f"{folder} {run}: {text[max(0, i - 120) : i + 80]!r}"
